"""A match: deals in rotation, running totals, the exchange carried from one deal to the next, the end.

Sources: seeds 000/004 ("Setup", "Scoring", "Winning the game", "Variants"), 002 (traditional end,
chips), 003 (18 deals, six contracts once each) and docs/rules.md (reference decisions 3, 6, 7).
Every random choice comes from generators seeded from the match seed alone (deal ``k`` from
``(seed, k)``), so players' thinking never changes the cards.
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from sergeant_major.core.actions import Action, Contract
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import Deal, DealResult, contracts_for
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.rule_options import KittyProcedure, Traditional
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import name_problem
from sergeant_major.core.seeding import check_seed
from sergeant_major.core.view import View, build_view

__all__ = ["EndKind", "Match", "MatchEnd", "deal_cards", "first_dealer", "shuffled_deck"]


class EndKind(str, Enum):
    """Which end rule ended a match (docs/rules.md decision 14 gives their order)."""

    INSTANT = "instant"  # 12+ tricks in one deal
    TRADITIONAL = "traditional"  # seed 002's dealer end
    TARGET = "target"  # a target total reached
    BOUND = "bound"  # a total reached +-15 (seed 004)
    DEALS = "deals"  # the last of a fixed number of deals (seed 003)
    OTHER = "other"  # read from a record that gave only the words


@dataclass(frozen=True)
class MatchEnd:
    """How the match ended: the winning seats (several on a shared win) and why, in words and as data.

    Attributes:
        winners: the winning seats, ``0 <= seat < players``; several on a shared win.
        reason: why, in English words (as written to records).
        kind: which end rule applied (:class:`EndKind`; its members equal their words, ``"instant"``...).
        facts: the numbers behind ``reason`` as ``(name, value)`` pairs, by kind: ``instant``: ``tricks``,
            ``limit``; ``traditional``: ``verb`` (``beat`` or ``made``), ``deal``; ``target``: ``total``,
            ``limit``, ``two`` (two seats past the target); ``bound``: ``limit``, ``total``; ``deals``:
            ``deals``, ``total``.
    """

    winners: tuple[int, ...]
    reason: str
    kind: EndKind = EndKind.OTHER
    facts: tuple[tuple[str, int | str | bool], ...] = ()

    @classmethod
    def from_reason(cls, winners: tuple[int, ...], reason: str) -> MatchEnd:
        """The end with ``kind`` and ``facts`` recovered from the words of ``reason`` (as :meth:`Match._check_end`
        writes them; a record keeps only the words). Words in no known form give kind ``other``, no facts."""
        for kind, pat in _END_PATTERNS:
            m = pat.search(reason)
            if m is not None:
                facts: list[tuple[str, int | str | bool]] = []
                for k, val in m.groupdict().items():
                    if k == "verb":
                        facts.append((k, val))
                    elif k == "two":
                        facts.append((k, val is not None))
                    elif val is not None:
                        facts.append((k, int(val)))
                return cls(winners, reason, kind, tuple(facts))
        return cls(winners, reason)


_END_PATTERNS: tuple[tuple[EndKind, re.Pattern[str]], ...] = (
    (EndKind.INSTANT, re.compile(r" took (?P<tricks>\d+) tricks in one deal \((?P<limit>\d+)\+ wins at once\)$")),
    (EndKind.TRADITIONAL, re.compile(r" (?P<verb>beat|made) (?:his|your) target as dealer of deal (?P<deal>\d+), the first dealer to do so "
                               r"once the deal had gone round the table \(traditional end\)$")),
    (EndKind.TARGET, re.compile(r" reached (?P<total>-?\d+) \(target total (?P<limit>-?\d+)\)"
                          r"(?P<two>; with two past the target, the higher total wins)?$")),
    (EndKind.BOUND, re.compile(r"^a total reached \+-(?P<limit>\d+); the highest total \((?P<total>-?\d+)\) wins$")),
    (EndKind.DEALS, re.compile(r"^after (?P<deals>\d+) deals? the highest total \((?P<total>-?\d+)\) wins( \(shared\))?$")),
)
"""The words of each end kind (the texts of :meth:`Match._check_end`), for :meth:`MatchEnd.from_reason`. Each is
anchored at the end of the words and the player's name comes first, so a name holding another kind's words
cannot be mistaken for the end."""


def first_dealer(seed: int, players: int) -> int:
    """The first dealer, drawn from the seed (seeds 000/004 "Setup": pick a first dealer by drawing cards)."""
    return random.Random(f"sergeant-major/{seed}/first-dealer").randrange(players)


def shuffled_deck(rules: Rules, seed: int, number: int) -> list[int]:
    """The card ids of deal ``number`` of the match with ``seed``, in the order they are dealt: the deck (ids
    ascending, without the 2C with ``kitty=none``, seed 002) shuffled by
    ``random.Random(f"sergeant-major/{seed}/{number}").shuffle``; records and seeds depend on these cards, the
    same for every Python version whose ``random`` gives the same shuffle.

    Returns:
        52 card ids (51 with ``kitty=none``), each once.
    """
    deck = list(range(1, 52)) if rules.kitty is KittyProcedure.NONE else list(range(52))
    key = f"sergeant-major/{seed}/{number}"
    if _SHUFFLE_LOOP_IS_RANDOMS:
        _shuffle_loop(key, deck)
    else:  # a Python whose random.shuffle draws otherwise: records name its cards, so follow it
        random.Random(key).shuffle(deck)
    return deck


_SHUFFLE_DRAWS = {size: tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size))) for size in (51, 52)}
"""For a deck of each size, random.shuffle's swaps from the top: (position, the bound of its draw, bits drawn)."""


def _shuffle_loop(key: str, deck: list[int]) -> None:
    """``random.Random(key).shuffle(deck)``'s Fisher-Yates loop and draws written out: the same swaps without its
    two Python calls a card."""
    getrandbits = random.Random(key).getrandbits
    for i, bound, bits in _SHUFFLE_DRAWS[len(deck)]:
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _shuffle_loop_is_randoms() -> bool:
    """Whether :func:`_shuffle_loop` swaps as ``random.shuffle`` does on this Python (checked once, at import)."""
    for key, size in (("sergeant-major/0/1", 51), ("sergeant-major/7/3", 52), ("sergeant-major/123456789/18", 52)):
        reference = list(range(52 - size, 52))
        random.Random(key).shuffle(reference)
        ours = list(range(52 - size, 52))
        _shuffle_loop(key, ours)
        if ours != reference:
            return False
    return True


_SHUFFLE_LOOP_IS_RANDOMS = _shuffle_loop_is_randoms()


def deal_cards(rules: Rules, seed: int, number: int, dealer: int) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle and deal deal ``number`` of the match with ``seed``: the cards of :func:`shuffled_deck`, one at a
    time clockwise from the eldest hand, the last cards to the kitty (:meth:`Deal.from_deck`; seeds 000/004 "Setup").

    Returns:
        ``(hands by seat in the order dealt, kitty)``.
    """
    deal = Deal.from_deck(rules, dealer, shuffled_deck(rules, seed, number), number=number)
    return [list(h) for h in deal.dealt], list(deal.kitty_dealt)


class Match:
    """A whole match. Deals follow one another automatically: after the last trick of a deal is played,
    the deal is scored, the end is checked and, if the match goes on, the next deal is dealt.

    Args:
        rules: the rules in force.
        seed: the match seed, a whole number ``0 <= seed < 2**62`` (an int or a NumPy integer): the range of a
            record's ``seed`` (docs/records.md), ``play --seed`` and a web table. The same seed gives the same cards.
        names: the players' names by seat (default ``Player 1..n``).
        dealer: the first dealer's seat (default: drawn from the seed).
        cards: optional source of the cards: ``cards(number, dealer)`` returns ``(hands, kitty)`` for
            deal ``number``, or ``None`` to shuffle from the seed (used to rebuild a match from a record).

    Raises:
        IllegalActionError: (rule ``"players"``) when ``names`` does not give one name per seat, or a name
            holds control characters (:func:`~sergeant_major.core.safetext.name_problem`; the name quoted).
        SergeantMajorError: quoting a ``seed`` that is not a whole number from 0 below 2**62 (``1.5``, ``"7"``,
            ``True``, ``-1``, ``2**62``): ``Match: seed=-1 is not a whole number from 0 below 2**62``.
    """

    def __init__(self, rules: Rules, seed: int = 0, names: list[str] | tuple[str, ...] | None = None,
                 dealer: int | None = None,
                 cards: Callable[[int, int], tuple[list[list[Card]], list[Card]] | None] | None = None) -> None:
        # a float or a string was taken and failed at the first computer's decision (a TypeError in decision_rng);
        # True dealt the cards of the text "True", not of 1; -1 or 2**70 played a match whose record was refused
        self.seed = check_seed(seed, "Match")
        self._cards = cards
        self.rules = rules
        n = rules.players
        self.names: tuple[str, ...] = tuple(names) if names else tuple([f"Player {i + 1}" for i in range(n)])
        if len(self.names) != n:
            raise IllegalActionError(f"{len(self.names)} names for {n} players", "players")
        for i, nm in enumerate(self.names):
            why = name_problem(nm) if isinstance(nm, str) else None
            if why is not None:
                raise IllegalActionError(f"the name {nm!r} of seat {i} is refused: {why}", "players")
        self.first_dealer = first_dealer(seed, n) if dealer is None else dealer
        self.totals: list[int] = [0] * n
        self.deals: list[Deal] = []
        self.results: list[DealResult] = []
        self.contracts_used: list[list[Contract]] = [[] for _ in range(n)]
        self.end: MatchEnd | None = None
        self._start_deal()

    # ------------------------------------------------------------------ deals
    @property
    def deal(self) -> Deal:
        """The current (or, once over, the last) deal."""
        return self.deals[-1]

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.end is not None

    def dealer_of(self, number: int) -> int:
        """The dealer of deal ``number`` (1-based): the deal passes to the left each time (docs/rules.md reference decision 7)."""
        return (self.first_dealer + number - 1) % self.rules.players

    def contracts_left(self, seat: int) -> tuple[Contract, ...]:
        """Contracts ``seat`` may still choose as declarer (3-5-8 ``contract-once``); all otherwise."""
        every = contracts_for(self.rules)
        if not self.rules.contract_once:
            return every
        return tuple(c for c in every if c not in self.contracts_used[seat])

    def _start_deal(self) -> None:
        number = len(self.deals) + 1
        r = self.rules
        dealer = (self.first_dealer + number - 1) % r.players  # dealer_of(number)
        given = self._cards(number, dealer) if self._cards is not None else None
        # the exchange counts over- and under-tricks (diffs), never chips (docs/rules.md decision 15; 002 Kartentausch 2)
        prev = self.results[-1].diffs if self.results else None
        # None: every contract (the deal's default, the same tuple as contracts_left gives then)
        allowed = self.contracts_left((dealer + r.declarer_role) % r.players) if r.contract_once else None
        if given is None:  # shuffle from the seed, as deal_cards does
            self.deals.append(Deal.from_deck(r, dealer, shuffled_deck(r, self.seed, number), prev, allowed, number))
        else:
            self.deals.append(Deal(r, dealer, given[0], given[1], prev, allowed, number))

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (empty once the match is over): :meth:`Deal.legal_actions`."""
        return self.deals[-1].legal_actions()  # empty once scored: the last deal of a match that is over

    def forced_action(self) -> Action | None:
        """The next action when the rules leave no choice, else ``None`` (see :meth:`Deal.forced_action`)."""
        return None if self.over else self.deal.forced_action()

    def publicly_forced_action(self) -> Action | None:
        """The next action when the rules leave no choice and every seat can know it, else ``None`` (see
        :meth:`Deal.publicly_forced_action`: with ``trump-return=free`` every return is a decision)."""
        return None if self.over else self.deal.publicly_forced_action()

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.over else self.deal.to_act

    def apply(self, action: Action) -> DealResult | None:
        """Apply ``action`` (checked: :meth:`Deal.apply`). Returns the deal's result when it finished the deal (the
        next deal, if the match goes on, is dealt), else ``None``.

        Raises:
            IllegalActionError: naming the rule (``match over`` once the match has ended); nothing changes.
        """
        if self.end is not None:
            raise IllegalActionError("the match is over", "match over")
        deal = self.deals[-1]
        deal.apply(action)
        if deal.result is None:
            return None
        return self._finish_deal()

    def play_unchecked(self, cid: int) -> DealResult | None:
        """Play card id ``cid`` (0..51) for the seat to play, without any check: the fast path for
        simulation and search (:meth:`Deal.play_unchecked`), only in the ``play`` phase with a card from
        :meth:`Deal.legal_play_mask`. Scores the deal and starts the next one as :meth:`apply` does.

        Returns:
            the deal's result when this card finished the deal, else ``None``.
        """
        deal = self.deals[-1]
        deal.play_unchecked(cid)
        if deal.result is None:
            return None
        return self._finish_deal()

    def _finish_deal(self) -> DealResult:
        deal = self.deals[-1]
        res = deal.result
        assert res is not None
        self.results.append(res)
        if self.rules.contract_once:
            self.contracts_used[deal.declarer].append(res.contract)
        totals = self.totals
        totals[:] = map(operator.add, totals, res.scores)
        self.end = self._check_end(deal, res)
        if self.end is None:
            self._start_deal()
        return res

    def _check_end(self, deal: Deal, res: DealResult) -> MatchEnd | None:
        """The end of the match after ``deal`` (seeds 000/004 "Winning the game"; docs/rules.md reference decision 6;
        002 traditional end; 003 18 deals; 004 reversed targets +-15).

        The ends are checked in this order, and the first that ends the game decides (docs/rules.md decision 14):
        instant win (beats a target total in the same deal: docs/rules.md reference decision 6), traditional, target total
        (equal totals at or past it end nothing), bound, fixed number of deals.
        """
        r = self.rules
        n = r.players
        t = self.totals
        names = self.names
        if r.instant_win is not None and res.contract is not Contract.MINIMUM and max(res.tricks) >= r.instant_win:
            big = [s for s in range(n) if res.tricks[s] >= r.instant_win]  # many tricks are bad in MT
            if big:
                s = big[0]
                return MatchEnd((s,), f"{names[s]} took {res.tricks[s]} tricks in one deal ({r.instant_win}+ wins at once)",
                                EndKind.INSTANT, (("tricks", res.tricks[s]), ("limit", r.instant_win)))
        if r.traditional is not Traditional.OFF and deal.number >= n:
            # 002: the game ends when the deal has gone round the table once AND a dealer made (strict: beat)
            # his target; the first such dealer wins, found at the end of the first rotation, else later.
            verb = "beat" if r.traditional is Traditional.STRICT else "made"
            for i, (past, pres) in enumerate(zip(self.deals, self.results, strict=True)):
                d = past.dealer
                if pres.diffs[d] > 0 or (r.traditional is Traditional.ON and pres.diffs[d] == 0):
                    their = "your" if names[d].strip().casefold() == "you" else "his"  # the terminal's person is You
                    return MatchEnd((d,), f"{names[d]} {verb} {their} target as dealer of deal {i + 1}, the first dealer to do so "
                                          "once the deal had gone round the table (traditional end)",
                                    EndKind.TRADITIONAL, (("verb", verb), ("deal", i + 1)))
        if r.target_total is not None and max(t) >= r.target_total:
            there = [s for s in range(n) if t[s] >= r.target_total]
            if there:
                best = max(t[s] for s in there)
                top = [s for s in there if t[s] == best]
                if len(top) == 1:
                    s = top[0]
                    why = f"{names[s]} reached {t[s]} (target total {r.target_total})"
                    if len(there) > 1:
                        why += "; with two past the target, the higher total wins"
                    return MatchEnd((s,), why, EndKind.TARGET,
                                    (("total", t[s]), ("limit", r.target_total), ("two", len(there) > 1)))
                # equal totals at or past the target: play another deal (docs/rules.md reference decision 6)
        if r.bound is not None and any(abs(x) >= r.bound for x in t):
            best = max(t)
            shared = tuple(i for i in range(n) if t[i] == best)
            return MatchEnd(shared, f"a total reached +-{r.bound}; the highest total ({best}) wins",
                            EndKind.BOUND, (("limit", r.bound), ("total", best)))
        if r.deals is not None and deal.number >= r.deals:
            best = max(t)
            shared = tuple(i for i in range(n) if t[i] == best)
            return MatchEnd(shared, f"after {r.deals} deal{'' if r.deals == 1 else 's'} the highest total ({best}) wins" + (" (shared)" if len(shared) > 1 else ""),
                            EndKind.DEALS, (("deals", r.deals), ("total", best)))
        return None

    # ------------------------------------------------------------------ views
    def view(self, seat: int, deal: Deal | None = None) -> View:
        """``seat``'s :class:`View` of the current deal (or of ``deal``, one of this match's deals: the OpenSpiel
        game shows the last deal played once it ends) and the match.

        Raises:
            SergeantMajorError: quoting a ``seat`` that is not a seat ``0..n-1`` (:func:`build_view`).
        """
        left = tuple(self.contracts_left(s) for s in range(self.rules.players)) if self.rules.contract_once else ()
        return build_view(self.deal if deal is None else deal, seat, self.names, tuple(self.totals), tuple(self.results),
                          left)

    def __repr__(self) -> str:
        return f"<Match rules={str(self.rules)!r} seed={self.seed} deal={len(self.deals)} totals={self.totals}>"
