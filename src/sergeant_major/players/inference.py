"""Reading the table: how likely the other players' choices were in a sampled world.

The ``expert`` draws worlds (whole deals, hidden history included) consistent with its view. A world in which the
other players would hardly have chosen what they chose - named hearts with two hearts, led a low spade holding the
ace and king, ducked while holding the winner - is unlikely. :func:`likelihood` replays a world from the deal and
scores every choice the other seats made in it (the contract or targets, gives and free returns, discards, leads,
following suit and playing when void) under a :class:`ChoiceModel` of how they play: the ``heuristic`` player's
choice gets probability ``1 - eps``, each other legal choice ``eps / (k - 1)`` (``k`` legal choices). Decisions
without a choice (forced steps, a single legal card) and the viewing seat's own choices count 1. The expert then
keeps worlds in proportion to this weight (:func:`pick_worlds`).

Everything is a count and comes from the generator passed in: the same view and generator give the same worlds
and weights on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import FULL_DECK, SUIT_MASKS
from sergeant_major.core.deal import Deal
from sergeant_major.core.view import View, build_view
from sergeant_major.players.heuristic import HeuristicPlayer, discard_card, play_card

__all__ = ["ChoiceKind", "ChoiceModel", "ALL_KINDS", "DEFAULT_MODEL", "likelihood", "log_likelihood", "choice_factors",
           "temper", "pick_worlds"]


class ChoiceKind(str, Enum):
    """The kinds of choice the model scores."""

    CONTRACT = "contract"
    """Naming the contract (trump) or assigning the targets."""
    EXCHANGE = "exchange"
    """Gives (and ending them) and returns with a choice."""
    DISCARD = "discard"
    """The declarer's discards after taking the kitty."""
    LEAD = "lead"
    """The first card of a trick."""
    FOLLOW = "follow"
    """A card of the suit led, holding several."""
    VOID = "void"
    """A card played holding none of the suit led (a trump or a discard)."""


ALL_KINDS = frozenset(ChoiceKind)


@dataclass(frozen=True)
class ChoiceModel:
    """A model of how the other players choose: the heuristic's choice with probability ``1 - eps``.

    Attributes:
        eps: the probability of any other legal choice, spread evenly over them; in ``(0, 1)``.
        kinds: the kinds of choice scored (the others count 1).

    Raises:
        ValueError: quoting ``eps`` outside ``(0, 1)``.
    """

    eps: float = 0.3
    kinds: frozenset[ChoiceKind] = ALL_KINDS

    def __post_init__(self) -> None:
        if not 0.0 < self.eps < 1.0:
            raise ValueError(f"eps={self.eps!r} must be in (0, 1)")

    def factor(self, agrees: bool, choices: int) -> float:
        """The probability of a choice among ``choices`` (>= 2) legal ones, whether the heuristic makes it or not."""
        return 1.0 - self.eps if agrees else self.eps / (choices - 1)


DEFAULT_MODEL = ChoiceModel()
"""The model the ``expert`` uses."""

_HEURISTIC = HeuristicPlayer()


def choice_factors(world: Deal, view: View, model: ChoiceModel = DEFAULT_MODEL) -> list[tuple[ChoiceKind, float]]:
    """The probability of every scored choice of the other seats in ``world`` (its history as far as ``view``
    goes), in order: ``(kind, probability)``, each in ``(0, 1)``.

    Args:
        world: a deal drawn from ``view`` (it must agree with the view; its history holds the hidden choices too).
        view: the viewing seat's view; its own choices are not scored.
    """
    d = Deal(world.rules, world.dealer, world.dealt, world.kitty_dealt, world.prev_diffs, world.allowed_contracts,
             world.number)
    me = view.seat
    kinds = model.kinds
    out: list[tuple[ChoiceKind, float]] = []
    played = 0
    n = d.n
    for a in world.history:
        s = a.seat
        if type(a) is Play:
            cid = a.card.id
            if s != me:
                legal = d.legal_play_mask()
                if legal & (legal - 1):
                    trick = d.trick
                    kind = (ChoiceKind.LEAD if not trick
                            else ChoiceKind.FOLLOW if d.hands[s] & SUIT_MASKS[d.led_suit] else ChoiceKind.VOID)
                    if kind in kinds:
                        hand = d.hands[s]
                        unseen = FULL_DECK & ~played & ~hand & ~(d.discards if s == d.declarer else 0)
                        h = play_card(legal, trick, d.leader, d.trump, d.contract is Contract.MINIMUM,
                                      unseen, d.declarer, s, n)
                        out.append((kind, model.factor(h == cid, legal.bit_count())))
            played |= 1 << cid
            d.play_unchecked(cid)
            continue
        if type(a) is Discard:  # the heuristic's discard from masks: no view to build (many worlds, several discards)
            if s != me and ChoiceKind.DISCARD in kinds:
                hand = d.hands[s]
                if hand & (hand - 1):
                    out.append((ChoiceKind.DISCARD, model.factor(discard_card(hand, d.trump) == a.card.id,
                                                                 hand.bit_count())))
            d.apply_unchecked(a)
            continue
        if s != me and d.forced_action() is None:
            kind = _kind_of(a)
            if kind in kinds:
                legal_actions = d.legal_actions()
                if len(legal_actions) > 1:
                    v = build_view(d, s, view.names, view.totals, view.results, view.contracts_left)
                    out.append((kind, model.factor(_HEURISTIC.choose(v, random.Random(0)) == a, len(legal_actions))))
        d.apply_unchecked(a)
    return out


def _kind_of(a: Action) -> ChoiceKind:
    if isinstance(a, (NameContract, AssignTargets)):
        return ChoiceKind.CONTRACT
    if isinstance(a, Discard):
        return ChoiceKind.DISCARD
    return ChoiceKind.EXCHANGE


def likelihood(world: Deal, view: View, model: ChoiceModel = DEFAULT_MODEL) -> float:
    """The probability of the other seats' choices in ``world`` under ``model``: the product of
    :func:`choice_factors`, in ``(0, 1]`` (1 when they made no scored choice)."""
    return math.prod(f for _, f in choice_factors(world, view, model))


def temper(log_weights: Sequence[float], min_ess: float) -> list[float]:
    """Weights ``exp(beta * (l - max l))`` for the log-likelihoods ``log_weights``, with the largest ``beta`` in
    ``[0, 1]`` (to 1/1000 by bisection) whose effective sample size ``(sum w)^2 / sum w^2`` is at least
    ``min_ess``: a world the model finds unlikely counts less, but a wrong model (the other players do not play
    like the heuristic) never leaves the search only one or two worlds. In ``(0, 1]``, the likeliest world 1.

    Raises:
        ValueError: when ``log_weights`` is empty.
    """
    if not log_weights:
        raise ValueError("temper: no weights")
    top = max(log_weights)
    rel = [x - top for x in log_weights]

    def weights(beta: float) -> list[float]:
        return [math.exp(beta * x) for x in rel]

    def ess(ws: list[float]) -> float:
        return math.fsum(ws) ** 2 / math.fsum(w * w for w in ws)

    if ess(weights(1.0)) >= min_ess:
        return weights(1.0)
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-3:
        mid = (lo + hi) / 2
        if ess(weights(mid)) >= min_ess:
            lo = mid
        else:
            hi = mid
    return weights(lo)


def log_likelihood(world: Deal, view: View, model: ChoiceModel = DEFAULT_MODEL) -> float:
    """The natural log of :func:`likelihood` (<= 0; a sum, so no product of many small factors underflows)."""
    return math.fsum(math.log(f) for _, f in choice_factors(world, view, model))


def pick_worlds(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indexes into ``weights`` drawn in proportion to them by systematic resampling (one number from
    ``rng``): index ``i`` is drawn ``floor`` or ``ceil`` of ``count * w_i / sum(w)`` times. Sorted.

    Raises:
        ValueError: when a weight is negative or not finite, or none is positive.
    """
    if any(not (w >= 0.0 and math.isfinite(w)) for w in weights) or not any(w > 0.0 for w in weights):
        raise ValueError(f"weights must be finite, >= 0 and not all 0 (got {list(weights)[:8]!r}...)")
    live = [i for i, w in enumerate(weights) if w > 0.0]
    step = math.fsum(weights) / count
    u = rng.random() * step
    out: list[int] = []
    acc = 0.0
    j = 0
    for k in range(count):
        target = u + k * step
        while j < len(live) - 1 and acc + weights[live[j]] <= target:
            acc += weights[live[j]]
            j += 1
        out.append(live[j])
    return out
