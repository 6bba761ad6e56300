"""Players: the interface, the ``random`` and ``heuristic`` computer players, and a match runner.

A player receives a :class:`~sergeant_major.core.view.View` (never the state) and a random generator of its
own for this decision, and returns one of ``view.legal``. The runner seeds that generator from
``(match seed, seat, deal, decision)``, so how a player thinks never changes the cards or the other
players, and a resumed match continues exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, EndGive, Give, NameContract, Play, Return
from sergeant_major.core.cards import CARDS, SUIT_MASKS, Card, mask_of
from sergeant_major.core.deal import Phase
from sergeant_major.core.errors import SergeantMajorError, UnknownLevelError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View

__all__ = ["Player", "RandomPlayer", "HeuristicPlayer", "make_player", "LEVELS", "MEASUREMENT_LEVELS", "play_match", "decision_rng"]


@runtime_checkable
class Player(Protocol):
    """What the match runner asks of a player."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal`` for ``view.seat``."""
        ...


class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, view: View, rng: random.Random) -> Action:
        """A legal action drawn uniformly with ``rng``.

        Raises:
            SergeantMajorError: when the seat is not to act (``view.legal`` is empty), or quoting ``rng`` when it is
                not a ``random.Random``.
        """
        _check_decision(view)
        check_rng(rng, "RandomPlayer.choose")
        return view.legal[rng.randrange(len(view.legal))]


def _check_decision(view: View) -> None:
    """Raise :class:`SergeantMajorError` (a ``ValueError``) naming the seat and phase when ``view`` has no legal
    action: a view of a seat that is not to act (the computer players failed with ``empty range for
    randrange()`` or ``tuple index out of range``; the expert and ISMCTS players say so)."""
    if not view.legal:
        raise SergeantMajorError(f"seat {view.seat} has no decision to make (phase {view.phase.value})")


def check_rng(rng: object, who: str) -> None:
    """Raise :class:`SergeantMajorError` quoting ``rng`` when it is not a ``random.Random`` (``None`` or a NumPy
    generator gave a bare ``AttributeError`` deep in a player)."""
    if not isinstance(rng, random.Random):
        text = repr(rng)
        raise SergeantMajorError(f"{who}: rng={text if len(text) <= 60 else text[:57] + '...'} is not a random.Random "
                                 "(give random.Random(seed))")


def _rank_value(c: Card) -> int:
    return c.rank + 2  # 2..14


class HeuristicPlayer:
    """Plays by the rules texts' tips (seeds 000/004 "Tips for beginners", 002 "Tipps und Strategien"):

    - as declarer it names its longest strong suit and discards to make voids;
    - following, it wins as cheaply as it can or throws its lowest card;
    - the non-declarers work together against the declarer (no over-taking a partner's winning card);
    - when up, it gives away its lowest unwanted cards (short suits first, to make voids);
    - in minimum tricks (3-5-8) it ducks whenever it can.
    """

    def __init__(self, name: str = "heuristic") -> None:
        self.name = name

    # -------------------------------------------------------------- dispatch
    def choose(self, view: View, rng: random.Random) -> Action:
        """The heuristic's choice among ``view.legal`` (``rng`` is not used).

        Raises:
            SergeantMajorError: when the seat is not to act (``view.legal`` is empty).
        """
        _check_decision(view)
        legal = view.legal
        first = legal[0]
        if isinstance(first, Play):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, NameContract):
            return self._contract(view, [a for a in legal if isinstance(a, NameContract)])
        if isinstance(first, Discard):
            return self._discard(view, [a for a in legal if isinstance(a, Discard)])
        if isinstance(first, (Give, EndGive)):
            gives = [a for a in legal if isinstance(a, Give)]
            return self._give(view, gives) if gives else first
        if isinstance(first, Return):
            return min(legal, key=lambda a: _rank_value(a.card) if isinstance(a, Return) else 99)
        if isinstance(first, AssignTargets):
            return self._assign(view, [a for a in legal if isinstance(a, AssignTargets)])
        return first

    # -------------------------------------------------------------- decisions before the play
    @staticmethod
    def _suit_strength(hand: Sequence[Card], suit: int) -> float:
        cs = [c for c in hand if c.suit == suit]
        return len(cs) * 2.0 + sum(max(0, c.rank - 8) for c in cs) * 0.8

    def _contract(self, view: View, legal: list[NameContract]) -> Action:
        hand = view.hand
        best: tuple[float, NameContract] | None = None
        for a in legal:
            c = a.contract
            if c.trump is not None:
                score = self._suit_strength(hand, c.trump)
            elif c is Contract.NO_TRUMP:
                score = sum(max(0, x.rank - 9) for x in hand) * 1.2 + 1
            else:  # minimum tricks: good with low cards
                score = sum(max(0, 7 - x.rank) for x in hand) * 0.6
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        return best[1]

    def _discard(self, view: View, legal: list[Discard]) -> Action:
        hand = [a.card for a in legal]
        trump = view.trump
        counts = {s: sum(1 for c in hand if c.suit == s) for s in range(4)}

        def key(c: Card) -> tuple[int, int, int]:
            # keep trumps and aces; empty the shortest side suits first (to make voids), lowest cards first
            is_trump = 1 if c.suit == trump else 0
            return (is_trump, 1 if c.rank == 12 else 0, counts[c.suit] * 16 + c.rank)

        card = min(hand, key=key)
        return next(a for a in legal if a.card is card)

    def _give(self, view: View, legal: list[Give]) -> Action:
        hand = view.hand
        trump = view.trump
        counts = {s: sum(1 for c in hand if c.suit == s) for s in range(4)}

        def key(a: Give) -> tuple[int, int, int]:
            c = a.card
            return (1 if c.suit == trump else 0, c.rank, counts[c.suit])

        return min(legal, key=key)

    def _assign(self, view: View, legal: list[AssignTargets]) -> Action:
        me = view.seat
        return max(legal, key=lambda a: (-a.targets[me], a.targets))  # take the lowest target himself

    # -------------------------------------------------------------- card play
    def _play(self, view: View, legal: list[Play]) -> Action:
        cards = [a.card for a in legal]
        trump = view.trump
        mt = view.contract is Contract.MINIMUM
        played = mask_of(view.played_cards()) | mask_of(view.hand)
        unseen = ((1 << 52) - 1) & ~played
        if view.discards:
            unseen &= ~mask_of(view.discards)

        def is_top(c: Card) -> bool:
            higher = SUIT_MASKS[c.suit] & ~((1 << (c.id + 1)) - 1)
            return not (higher & unseen)

        def pick(c: Card) -> Action:
            return next(a for a in legal if a.card is c)

        trick = view.trick
        if not trick:
            return pick(self._lead(view, cards, trump, mt, is_top, unseen))
        led = trick[0][1].suit
        win_seat, win_card = trick[0]
        for s, c in trick[1:]:
            if _beats(c, win_card, led, trump):
                win_seat, win_card = s, c
        winners = [c for c in cards if _beats(c, win_card, led, trump)]
        last = len(trick) == view.players - 1
        lowest = min(cards, key=lambda c: (c.suit == trump, c.rank))
        if mt:  # duck: highest card that still loses, else lowest winner
            losers = [c for c in cards if c not in winners]
            if losers:
                return pick(max(losers, key=lambda c: c.rank))
            return pick(min(winners, key=lambda c: c.rank))
        decl = view.declarer
        me = view.seat
        partner_winning = me != decl and win_seat != decl
        if partner_winning:
            # the declarer still to play after me can overtake; else my partner's card stands
            decl_after = any(((view.leader + k) % view.players) == decl for k in range(len(trick) + 1, view.players))
            if not decl_after or (win_card.suit == trump or is_top(win_card)):
                return pick(lowest)
        if winners:
            cheap = min(winners, key=lambda c: (c.suit == trump, c.rank))
            if last or is_top(cheap) or cheap.suit == trump and cheap.suit != led:
                return pick(cheap)
            top = [c for c in winners if is_top(c)]
            if top:
                return pick(min(top, key=lambda c: c.rank))
        return pick(lowest)

    @staticmethod
    def _lead(view: View, cards: list[Card], trump: int, mt: bool,
              is_top: Callable[[Card], bool], unseen: int) -> Card:
        if mt:
            return min(cards, key=lambda c: c.rank)
        tops = [c for c in cards if is_top(c) and c.suit != trump]
        me_decl = view.seat == view.declarer
        my_trumps = [c for c in cards if c.suit == trump]
        if me_decl and trump >= 0 and my_trumps and (unseen & SUIT_MASKS[trump]):
            # draw trumps with a sure winner, or when long in them
            top_tr = [c for c in my_trumps if is_top(c)]
            if top_tr:
                return max(top_tr, key=lambda c: c.rank)
            if len(my_trumps) >= 5:
                return min(my_trumps, key=lambda c: c.rank)
        if tops:
            return max(tops, key=lambda c: c.rank)
        side = [c for c in cards if c.suit != trump] or cards
        counts = {s: sum(1 for c in side if c.suit == s) for s in range(4)}
        return min(side, key=lambda c: (-counts[c.suit], c.rank))


def _beats(c: Card, best: Card, led: int, trump: int) -> bool:
    if c.suit == best.suit:
        return c.rank > best.rank
    if c.suit == trump:
        return True
    return False


def _beginner() -> Player:
    from sergeant_major.players.beginner import BeginnerPlayer

    return BeginnerPlayer()


def _expert() -> Player:
    from sergeant_major.players.expert import ExpertPlayer

    return ExpertPlayer()


def _oracle() -> Player:
    from sergeant_major.players.oracle import OraclePlayer

    return OraclePlayer()


LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "beginner": _beginner,
    "heuristic": HeuristicPlayer,
    "expert": _expert,
}

def _ismcts() -> Player:
    from sergeant_major.research.ismcts import ISMCTSPlayer

    return ISMCTSPlayer()


MEASUREMENT_LEVELS: dict[str, Callable[[], Player]] = {
    "oracle": _oracle,
    "ismcts": _ismcts,
}
"""Levels for measurement only, never offered in ``play``: ``oracle`` sees every card; ``ismcts`` is OpenSpiel's
ISMCTS bot (needs the ``openspiel`` extra; :mod:`sergeant_major.research.ismcts`). The tournament may use them."""


def make_player(level: str) -> Player:
    """A computer player by level name: one of :data:`LEVELS` (``random``, ``beginner``, ``heuristic``,
    ``expert``) or of :data:`MEASUREMENT_LEVELS` (``oracle``, which needs the whole deal, and ``ismcts``, which
    needs the ``openspiel`` extra: tournaments only).

    Raises:
        UnknownLevelError: quoting an unknown level (a :class:`SergeantMajorError`).
    """
    try:
        return (LEVELS.get(level) or MEASUREMENT_LEVELS[level])()
    except KeyError:
        raise UnknownLevelError(f"unknown player level {level!r} (one of {', '.join(LEVELS)}; for measurement only: "
                                 f"{', '.join(MEASUREMENT_LEVELS)})") from None


def decision_rng(seed: int, seat: int, deal: int, ply: int) -> random.Random:
    """The generator a player gets for one decision: seeded from the match seed, its seat, the deal
    number and the number of actions already taken in the deal."""
    return random.Random((((seed & 0xFFFFFFFFFFFF) * 8 + seat) * 4096 + deal) * 1024 + ply)


def drive(match: Match, players: Sequence[Player], until_deal_end: bool = False) -> None:
    """Play ``match`` on with ``players`` (by seat): forced actions are applied, each decision goes to
    the seat's player with its own generator, until the match (or, with ``until_deal_end``, the deal) ends.

    Raises:
        SergeantMajorError: when a player returns an illegal action (the player's name and the action quoted).
    """
    start = len(match.deals)
    while not match.over:
        if until_deal_end and len(match.deals) != start:
            return
        forced = match.forced_action()
        if forced is not None:
            match.apply(forced)
            continue
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        deal = match.deal
        action = players[seat].choose(view, decision_rng(match.seed, seat, deal.number, len(deal.history)))
        if action not in view.legal:
            raise SergeantMajorError(f"player {players[seat].name!r} at seat {seat} chose an illegal action {action!r}")
        match.apply(action)


def play_match(rules: Rules, players: Sequence[Player], seed: int = 0, names: Sequence[str] | None = None) -> Match:
    """Play a whole match between computer ``players`` (by seat) and return it."""
    match = Match(rules, seed, list(names) if names else [p.name for p in players])
    drive(match, players)
    return match


_ = (CARDS, Phase)
