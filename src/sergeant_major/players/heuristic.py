"""The ``heuristic`` level: plays by the tips of the rules texts, deterministically (no random choice)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, EndGive, Give, NameContract, Play, Return
from sergeant_major.core.cards import SUIT_MASKS, Card, mask_of
from sergeant_major.core.view import View
from sergeant_major.players.protocol import check_decision

__all__ = ["HeuristicPlayer", "beats"]


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
        check_decision(view)
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
            if beats(c, win_card, trump):
                win_seat, win_card = s, c
        winners = [c for c in cards if beats(c, win_card, trump)]
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


def beats(card: Card, best: Card, trump: int) -> bool:
    """Whether ``card``, played to a trick, beats ``best``, the card winning the trick so far (of the suit led or a
    trump): a higher card of ``best``'s suit, or a trump over a card of another suit (``trump``: the trump suit
    0..3, or -1 when there is none)."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump
