"""The ``beginner`` level: plays sensibly, but makes the mistakes a new player makes.

It follows :class:`~sergeant_major.players.heuristic.HeuristicPlayer` (the rules texts' tips) and, at each decision
with probability :attr:`BeginnerPlayer.mistake` (default 0.25), makes a plausible wrong choice instead,
one of those the rules texts warn about (seeds 000/004 "Tips for beginners", 002 "Tipps und Strategien"):

- wins a trick with a needlessly high card (the top winner instead of the cheapest);
- forgets to ruff when void in the suit led, and throws a side card instead;
- over-takes the other non-declarer's winning card;
- in minimum tricks (3-5-8), wins a trick it could have ducked;
- leads away from strength (a low card from the suit holding its best card) or leads a trump as a
  non-declarer;
- discards badly: a high side card, or a card of its longest side suit, instead of emptying a short suit;
- names a weaker trump (or contract): the heuristic's second choice;
- when up, gives away a high card instead of the lowest unwanted ones.

When no such mistake exists at a decision (or it would be the heuristic's own choice), it plays as the
heuristic does. Every choice uses only the view and the generator it is given, so it is deterministic for
a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sergeant_major.core.actions import Action, Contract, Discard, EndGive, Give, NameContract, Play
from sergeant_major.core.cards import Card, mask_of
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View
from sergeant_major.players.heuristic import HeuristicPlayer, beats, contract_score

__all__ = ["BeginnerPlayer"]


class BeginnerPlayer(HeuristicPlayer):
    """The heuristic player with human-like mistakes (module doc).

    Args:
        name: the player's name.
        mistake: the probability (0..1) of a mistake at each decision where one is possible.

    Raises:
        ValueError: when ``mistake`` is outside 0..1.
    """

    def __init__(self, name: str = "beginner", mistake: float = 0.25) -> None:
        super().__init__(name)
        if not 0.0 <= mistake <= 1.0:
            raise ValueError(f"mistake={mistake!r}: a probability must be within 0..1")
        self.mistake = mistake

    def choose(self, view: View, rng: random.Random) -> Action:
        check_rng(rng, "BeginnerPlayer.choose")
        best = super().choose(view, rng)
        if rng.random() >= self.mistake:
            return best
        wrong = [a for a in self._mistakes(view, best) if a != best]
        if not wrong:
            return best
        return wrong[rng.randrange(len(wrong))]

    # -------------------------------------------------------------- the mistakes
    def _mistakes(self, view: View, best: Action) -> list[Action]:
        legal = view.legal
        first = legal[0]
        if isinstance(first, Play):
            return self._play_mistakes(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, NameContract):
            return self._contract_mistakes(view, [a for a in legal if isinstance(a, NameContract)], best)
        if isinstance(first, Discard):
            return self._discard_mistakes(view, [a for a in legal if isinstance(a, Discard)])
        if isinstance(first, (Give, EndGive)):
            gives = [a for a in legal if isinstance(a, Give)]
            return self._give_mistakes(view, gives)
        return []

    @staticmethod
    def _contract_mistakes(view: View, legal: list[NameContract], best: Action) -> list[Action]:
        """The second-best contract by the heuristic's own suit strength (a weaker trump)."""
        hand = mask_of(view.hand)
        scored: list[tuple[float, NameContract]] = []
        for a in legal:
            if a == best:
                continue
            scored.append((contract_score(hand, a.contract), a))
        if not scored:
            return []
        return [max(scored, key=lambda t: t[0])[1]]

    @staticmethod
    def _discard_mistakes(view: View, legal: list[Discard]) -> list[Action]:
        """A high side card, or the lowest card of the longest side suit (keeping a short suit)."""
        trump = view.trump
        side = [a for a in legal if a.card.suit != trump]
        if not side:
            return []
        counts: dict[int, int] = {}
        for a in side:
            counts[a.card.suit] = counts.get(a.card.suit, 0) + 1
        high = max(side, key=lambda a: (a.card.rank, -counts[a.card.suit]))
        longest = max(counts, key=lambda s: (counts[s], s))
        long_low = min((a for a in side if a.card.suit == longest), key=lambda a: a.card.rank)
        return [high, long_low]

    @staticmethod
    def _give_mistakes(view: View, legal: list[Give]) -> list[Action]:
        """A high card given away: the highest side card (or the highest card when all are trumps)."""
        if not legal:
            return []
        trump = view.trump
        side = [a for a in legal if a.card.suit != trump] or legal
        return [max(side, key=lambda a: a.card.rank)]

    @staticmethod
    def _play_mistakes(view: View, legal: list[Play]) -> list[Action]:
        cards = [a.card for a in legal]
        trump = view.trump
        mt = view.contract is Contract.MINIMUM

        def pick(cs: Sequence[Card]) -> list[Action]:
            ids = {c.id for c in cs}
            return [a for a in legal if a.card.id in ids]

        trick = view.trick
        if not trick:  # leading
            out: list[Card] = []
            side = [c for c in cards if c.suit != trump]
            if side:
                top = max(side, key=lambda c: c.rank)
                same = [c for c in side if c.suit == top.suit]
                if len(same) > 1:
                    out.append(min(same, key=lambda c: c.rank))  # lead away from strength
            trumps = [c for c in cards if c.suit == trump]
            if mt:
                out.append(max(cards, key=lambda c: c.rank))
            elif trumps and view.seat != view.declarer:
                out.append(min(trumps, key=lambda c: c.rank))  # a defender leading trumps
            return pick(out)
        led = trick[0][1].suit
        win_seat, win_card = trick[0]
        for s, c in trick[1:]:
            if beats(c, win_card, trump):
                win_seat, win_card = s, c
        winners = [c for c in cards if beats(c, win_card, trump)]
        losers = [c for c in cards if c not in winners]
        out = []
        if mt:
            if winners:
                out.append(max(winners, key=lambda c: c.rank))  # takes a trick it could have ducked
            return pick(out)
        following = any(c.suit == led for c in cards)
        if winners:
            out.append(max(winners, key=lambda c: (c.suit == trump, c.rank)))  # too high a card
        if not following and trump >= 0 and any(c.suit == trump for c in winners):
            side = [c for c in losers if c.suit != trump]
            if side:
                out.append(max(side, key=lambda c: c.rank))  # forgets to ruff, throws a good side card
        if view.seat != view.declarer and win_seat != view.declarer and winners:
            out.append(min(winners, key=lambda c: c.rank))  # over-takes the partner
        return pick(out)
