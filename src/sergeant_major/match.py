"""A match: deals in rotation, running totals, the exchange carried from one deal to the next, the end.

Sources: seeds 000/004 ("Setup", "Scoring", "Winning the game", "Variants"), 002 (traditional end,
chips), 003 (18 deals, six contracts once each) and RULES.md (decisions 3, 6, 7).
Every random choice comes from generators seeded from the match seed alone (deal ``k`` from
``(seed, k)``), so players' thinking never changes the cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .actions import Action, Contract
from .cards import CARDS, Card
from .deal import Deal, DealResult
from .errors import IllegalActionError
from .rules import Rules
from .view import View, build_view

__all__ = ["Match", "MatchEnd", "deal_cards", "first_dealer"]


@dataclass(frozen=True)
class MatchEnd:
    """How the match ended: the winning seats (several on a shared win) and why, in words."""

    winners: tuple[int, ...]
    reason: str


def first_dealer(seed: int, players: int) -> int:
    """The first dealer, drawn from the seed (seeds 000/004 "Setup": pick a first dealer by drawing cards)."""
    return random.Random(f"sergeant-major/{seed}/first-dealer").randrange(players)


def deal_cards(rules: Rules, seed: int, number: int, dealer: int) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle and deal deal ``number`` of the match with ``seed``: one card at a time clockwise from
    the eldest hand, the last cards to the kitty (seeds 000/004 "Setup"; seed 002 removes the 2C with no kitty).

    Returns:
        ``(hands by seat in the order dealt, kitty)``.
    """
    rng = random.Random(f"sergeant-major/{seed}/{number}")
    deck = list(range(1, 52)) if rules.kitty == "none" else list(range(52))
    rng.shuffle(deck)
    n = rules.players
    hands: list[list[Card]] = [[] for _ in range(n)]
    for j in range(n * rules.hand_size):
        hands[(dealer + 1 + j) % n].append(CARDS[deck[j]])
    kitty = [CARDS[c] for c in deck[n * rules.hand_size:]]
    return hands, kitty


class Match:
    """A whole match. Deals follow one another automatically: after the last trick of a deal is played,
    the deal is scored, the end is checked and, if the match goes on, the next deal is dealt.

    Args:
        rules: the rules in force.
        seed: the match seed (any int); the same seed gives the same cards.
        names: the players' names by seat (default ``Player 1..n``).
        dealer: the first dealer's seat (default: drawn from the seed).
        cards: optional source of the cards: ``cards(number, dealer)`` returns ``(hands, kitty)`` for
            deal ``number``, or ``None`` to shuffle from the seed (used to rebuild a match from a record).
    """

    def __init__(self, rules: Rules, seed: int = 0, names: list[str] | tuple[str, ...] | None = None,
                 dealer: int | None = None,
                 cards: Callable[[int, int], tuple[list[list[Card]], list[Card]] | None] | None = None) -> None:
        self._cards = cards
        self.rules = rules
        self.seed = seed
        n = rules.players
        self.names: tuple[str, ...] = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(n))
        if len(self.names) != n:
            raise IllegalActionError(f"{len(self.names)} names for {n} players", "players")
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
        """The dealer of deal ``number`` (1-based): the deal passes to the left each time (RULES.md decision 7)."""
        return (self.first_dealer + number - 1) % self.rules.players

    def contracts_left(self, seat: int) -> tuple[Contract, ...]:
        """Contracts ``seat`` may still choose as declarer (3-5-8 ``contract-once``); all otherwise."""
        every = tuple(Contract) if self.rules.has_nt_mt else tuple(Contract)[:4]
        if not self.rules.contract_once:
            return every
        return tuple(c for c in every if c not in self.contracts_used[seat])

    def _start_deal(self) -> None:
        number = len(self.deals) + 1
        dealer = self.dealer_of(number)
        given = self._cards(number, dealer) if self._cards is not None else None
        hands, kitty = given if given is not None else deal_cards(self.rules, self.seed, number, dealer)
        prev = self.results[-1].diffs if self.results else None
        declarer = (dealer + self.rules.declarer_role) % self.rules.players
        self.deals.append(Deal(self.rules, dealer, hands, kitty, prev, self.contracts_left(declarer), number))

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (empty once the match is over)."""
        return [] if self.end is not None else self.deals[-1].legal_actions()

    def forced_action(self) -> Action | None:
        """The next action when the rules leave no choice, else ``None`` (see :meth:`Deal.forced_action`)."""
        return None if self.over else self.deal.forced_action()

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.over else self.deal.to_act

    def apply(self, action: Action) -> DealResult | None:
        """Apply ``action`` (checked). Returns the deal's result when it finished the deal, else ``None``.

        Raises:
            IllegalActionError: naming the rule; nothing changes.
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
        deal = self.deal
        res = deal.result
        assert res is not None
        self.results.append(res)
        if self.rules.contract_once:
            self.contracts_used[deal.declarer].append(res.contract)
        for s, sc in enumerate(res.scores):
            self.totals[s] += sc
        self.end = self._check_end(deal, res)
        if self.end is None:
            self._start_deal()
        return res

    def _check_end(self, deal: Deal, res: DealResult) -> MatchEnd | None:
        """The end of the match after ``deal`` (seeds 000/004 "Winning the game"; RULES.md decision 6;
        002 traditional end; 003 18 deals; 004 reversed targets +-15)."""
        r = self.rules
        n = r.players
        t = self.totals
        names = self.names
        if r.instant_win is not None and res.contract is not Contract.MINIMUM:  # many tricks are bad in MT
            big = [s for s in range(n) if res.tricks[s] >= r.instant_win]
            if big:
                s = big[0]
                return MatchEnd((s,), f"{names[s]} took {res.tricks[s]} tricks in one deal ({r.instant_win}+ wins at once)")
        if r.traditional != "off" and deal.number >= n:
            # 002: the game ends when the deal has gone round the table once AND a dealer made (strict: beat)
            # his target; the first such dealer wins, found at the end of the first rotation, else later.
            verb = "beat" if r.traditional == "strict" else "made"
            for i, (past, pres) in enumerate(zip(self.deals, self.results, strict=True)):
                d = past.dealer
                if pres.diffs[d] > 0 or (r.traditional == "on" and pres.diffs[d] == 0):
                    return MatchEnd((d,), f"{names[d]} {verb} his target as dealer of deal {i + 1}, the first dealer to do so "
                                          "once the deal had gone round the table (traditional end)")
        if r.target_total is not None:
            there = [s for s in range(n) if t[s] >= r.target_total]
            if there:
                best = max(t[s] for s in there)
                top = [s for s in there if t[s] == best]
                if len(top) == 1:
                    s = top[0]
                    why = f"{names[s]} reached {t[s]} (target total {r.target_total})"
                    if len(there) > 1:
                        why += "; with two past the target, the higher total wins"
                    return MatchEnd((s,), why)
                # equal totals at or past the target: play another deal (RULES.md decision 6)
        if r.bound is not None and any(abs(x) >= r.bound for x in t):
            best = max(t)
            shared = tuple(i for i in range(n) if t[i] == best)
            return MatchEnd(shared, f"a total reached +-{r.bound}; the highest total ({best}) wins")
        if r.deals is not None and deal.number >= r.deals:
            best = max(t)
            shared = tuple(i for i in range(n) if t[i] == best)
            return MatchEnd(shared, f"after {r.deals} deals the highest total ({best}) wins" + (" (shared)" if len(shared) > 1 else ""))
        return None

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> View:
        """``seat``'s :class:`View` of the current deal and the match."""
        left = tuple(self.contracts_left(s) for s in range(self.rules.players)) if self.rules.contract_once else ()
        return build_view(self.deal, seat, self.names, tuple(self.totals), tuple(self.results), left)

    def __repr__(self) -> str:
        return f"<Match rules={str(self.rules)!r} seed={self.seed} deal={len(self.deals)} totals={self.totals}>"
