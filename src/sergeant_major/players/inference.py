"""Reading the table: how likely the other players' choices were in a sampled world.

The ``expert`` draws worlds (whole deals, hidden history included) consistent with its view. A world in which the
other players would hardly have chosen what they chose - named hearts with two hearts, led a low spade holding the
ace and king, ducked while holding the winner - is unlikely. :func:`likelihood` replays a world from the deal and
scores every choice the other seats made in it (the contract or targets, gives and free returns, discards, leads,
following suit and playing when void) under a :class:`ChoiceModel` of how they play, built around the
``heuristic`` player's choice: flat (its choice ``1 - eps``, each other legal choice ``eps / (k - 1)``, ``k`` legal
choices), or, for :data:`DEFAULT_MODEL`, fitted to self-play of strong players (a softmax over groups of cards for
the card play, an ``eps`` per kind of choice before it) and mixed per seat with a player that makes the heuristic's
choices. Decisions without a choice (forced steps, a single legal card) and the viewing seat's own choices count 1.
The expert weighs its worlds by this likelihood, tempered (:func:`temper`).

Everything is a count and comes from the generator passed in: the same view and generator give the same worlds
and weights on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import FULL_DECK, SUIT_MASKS
from sergeant_major.core.deal import Deal
from sergeant_major.core.view import View, build_view
from sergeant_major.players.heuristic import choice_in_deal, discard_card, play_card

__all__ = ["ChoiceKind", "ChoiceModel", "CARD_MEMO", "ALL_KINDS", "DEFAULT_MODEL", "FLAT_MODEL", "CARD_GROUPS", "card_group",
           "card_group_counts", "likelihood", "log_likelihood", "choice_factors",
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


_CARD_KINDS = (ChoiceKind.LEAD, ChoiceKind.FOLLOW, ChoiceKind.VOID)

CARD_GROUPS = ("same suit, lowest", "same suit, highest", "same suit, between",
               "side suit, lowest", "side suit, highest", "side suit, between",
               "trump, lowest", "trump, highest", "trump, between")
"""The groups a legal card other than the heuristic's falls in (:func:`card_group`), by index: its suit against the
heuristic's card (the same suit; another suit that is not trump; trump, when the heuristic's card is not) and its
place among the legal cards of its suit (the lowest, the highest of two or more, one between)."""


CARD_MEMO = 1 << 16
"""Card-play factors a :class:`ChoiceModel` remembers per kind of choice (then it starts again)."""


@dataclass(frozen=True)
class ChoiceModel:
    """A model of how the other players choose, around the ``heuristic`` player's choice.

    Flat (no ``card_scores`` for a kind): the heuristic's choice has probability ``1 - eps``, each other legal
    choice ``eps / (k - 1)``. A card play of a kind in ``card_scores`` is a softmax (conditional logit) over the
    legal cards: the heuristic's card has score 0, any other card the score of its group (:data:`CARD_GROUPS`),
    and a card's probability is ``exp(score) / sum of exp(score)`` over the legal cards.

    Attributes:
        eps: the probability of any choice but the heuristic's, for kinds without their own; in ``(0, 1)``.
        kinds: the kinds of choice scored (the others count 1).
        kind_eps: ``(kind, eps)`` pairs: a kind's own ``eps`` (each in ``(0, 1)``).
        card_scores: ``(kind, scores)`` pairs for card-play kinds (lead, follow, void): nine finite scores, one
            per group of :data:`CARD_GROUPS`, in log-odds against the heuristic's card.
        heuristic_share: the prior probability that a seat plays as the ``heuristic`` does (0: the model alone).
            Then each other seat's choices in a world have probability ``share * P_h + (1 - share) * P_m``:
            ``P_h`` their probability for a heuristic player that departs from its choice with ``heuristic_eps``
            (flat), ``P_m`` under the rest of the model; so the likelihood learns within a deal which kind of
            player sits there.
        heuristic_eps: see ``heuristic_share``; in ``(0, 1)``.

    Raises:
        ValueError: quoting ``eps``, ``heuristic_eps`` or a ``kind_eps`` outside ``(0, 1)``, ``heuristic_share``
            outside ``[0, 1)``, or ``card_scores`` that are not nine finite numbers for a card-play kind.
    """

    eps: float = 0.3
    kinds: frozenset[ChoiceKind] = ALL_KINDS
    kind_eps: tuple[tuple[ChoiceKind, float], ...] = ()
    card_scores: tuple[tuple[ChoiceKind, tuple[float, ...]], ...] = ()
    heuristic_share: float = 0.0
    heuristic_eps: float = 0.02
    _eps_of: dict[ChoiceKind, float] = field(init=False, repr=False, compare=False)
    _weights: dict[ChoiceKind, tuple[float, ...]] = field(init=False, repr=False, compare=False)
    _card_memo: dict[ChoiceKind, dict[int, float]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 < self.eps < 1.0:
            raise ValueError(f"eps={self.eps!r} must be in (0, 1)")
        if not 0.0 <= self.heuristic_share < 1.0:
            raise ValueError(f"heuristic_share={self.heuristic_share!r} must be in [0, 1)")
        if not 0.0 < self.heuristic_eps < 1.0:
            raise ValueError(f"heuristic_eps={self.heuristic_eps!r} must be in (0, 1)")
        for kind, e in self.kind_eps:
            if not 0.0 < e < 1.0:
                raise ValueError(f"kind_eps {kind.value}={e!r} must be in (0, 1)")
        for kind, scores in self.card_scores:
            if kind not in _CARD_KINDS or len(scores) != len(CARD_GROUPS) or not all(map(math.isfinite, scores)):
                raise ValueError(f"card_scores {kind.value}={scores!r} must be {len(CARD_GROUPS)} finite numbers "
                                 "for a card-play kind (lead, follow, void)")
        eps_of = dict.fromkeys(ChoiceKind, self.eps)
        eps_of.update(self.kind_eps)
        object.__setattr__(self, "_eps_of", eps_of)
        object.__setattr__(self, "_weights", {k: tuple(math.exp(x) for x in sc) for k, sc in self.card_scores})
        object.__setattr__(self, "_card_memo", {k: {} for k in self._weights})

    def factor(self, agrees: bool, choices: int, kind: ChoiceKind | None = None) -> float:
        """The probability of a choice among ``choices`` (>= 2) legal ones, whether the heuristic makes it or not
        (flat: the ``eps`` of ``kind``, or the model's ``eps`` when ``kind`` is None)."""
        eps = self.eps if kind is None else self._eps_of[kind]
        return 1.0 - eps if agrees else eps / (choices - 1)

    def card_factor(self, kind: ChoiceKind, legal: int, heuristic: int, card: int, trump: int) -> float:
        """The probability of playing ``card`` (an id) of the mask ``legal`` (two or more cards) where the heuristic
        plays ``heuristic`` (``trump``: 0..3 or -1), in ``(0, 1)``: the softmax for a kind in ``card_scores``, else
        the flat factor. Remembered (per kind, up to :data:`CARD_MEMO` arguments): the worlds of a decision share
        their public play, and 6 of 10 questions of a match had been asked before."""
        memo = self._card_memo.get(kind)
        if memo is None:
            return self.factor(card == heuristic, legal.bit_count(), kind)
        key = ((legal * 52 + heuristic) * 52 + card) * 5 + trump + 1
        f = memo.get(key)
        if f is None:
            w = self._weights[kind]
            z = 1.0
            for g, n in enumerate(card_group_counts(legal, heuristic, trump)):
                if n:
                    z += n * w[g]
            f = (1.0 if card == heuristic else w[card_group(card, legal, heuristic, trump)]) / z
            if len(memo) >= CARD_MEMO:
                memo.clear()
            memo[key] = f
        return f


def card_group(card: int, legal: int, heuristic: int, trump: int) -> int:
    """The group (an index of :data:`CARD_GROUPS`) of ``card``, one of the legal cards (mask ``legal``) other than
    the heuristic's card ``heuristic`` (ids; ``trump`` 0..3 or -1)."""
    s = card // 13
    m = legal & SUIT_MASKS[s]
    base = 0 if s == heuristic // 13 else 6 if s == trump else 3
    if m & -m == 1 << card:
        return base
    return base + 1 if card == m.bit_length() - 1 else base + 2


def card_group_counts(legal: int, heuristic: int, trump: int) -> list[int]:
    """How many of the legal cards (mask ``legal``) other than the heuristic's card fall in each group of
    :data:`CARD_GROUPS` (nine counts)."""
    counts = [0] * 9
    hs = heuristic // 13
    for s in range(4):
        m = legal & SUIT_MASKS[s]
        if m:
            base = 0 if s == hs else 6 if s == trump else 3
            n = m.bit_count()
            counts[base] += 1
            if n > 1:
                counts[base + 1] += 1
                counts[base + 2] += n - 2
    counts[card_group(heuristic, legal, heuristic, trump)] -= 1
    return counts


FLAT_MODEL = ChoiceModel()
"""The first model: the heuristic's choice with probability 0.7 for every kind of choice."""

DEFAULT_MODEL = ChoiceModel(
    kind_eps=((ChoiceKind.CONTRACT, 0.3245), (ChoiceKind.EXCHANGE, 0.5303), (ChoiceKind.DISCARD, 0.7038)),
    card_scores=((ChoiceKind.LEAD, (-2.311, -2.458, -2.04, -0.663, -2.119, -1.485, -0.925, -2.246, -1.493)),
                 (ChoiceKind.FOLLOW, (-1.54, -1.901, -1.831, -3.0, -3.0, -3.0, -3.0, -3.0, -3.0)),
                 (ChoiceKind.VOID, (-3.628, -4.33, -3.754, -1.629, -3.011, -3.338, 0.696, -1.251, -4.674))),
    heuristic_share=0.5)
"""The model the ``expert`` uses: fitted by ``benchmarks/fit_choice_model.py`` (maximum likelihood) to the choices of
``expert-uniform`` players in 150 self-play deals of each of 9-5-2 and 3-5-8 (seed 101), with an even prior
(``heuristic_share`` 0.5) that a seat plays as the ``heuristic`` does, so a deal's own choices tell which kind of
player sits there."""

def choice_factors(world: Deal, view: View, model: ChoiceModel = DEFAULT_MODEL) -> list[tuple[ChoiceKind, float]]:
    """The probability of every scored choice of the other seats in ``world`` (its history as far as ``view``
    goes) under ``model`` (its ``heuristic_share`` aside), in order: ``(kind, probability)``, each in ``(0, 1)``.

    Args:
        world: a deal drawn from ``view`` (it must agree with the view; its history holds the hidden choices too).
        view: the viewing seat's view; its own choices are not scored.
    """
    return [(kind, f) for kind, f, _, _, _ in _scored_choices(world, view, model)]


def _scored_choices(world: Deal, view: View, model: ChoiceModel) -> list[tuple[ChoiceKind, float, int, bool, int]]:
    """:func:`choice_factors` with, for each choice, the seat, whether it was the heuristic's and the number of
    legal choices: ``(kind, probability, seat, agrees, choices)``."""
    d = world.as_dealt()
    me = view.seat
    kinds = model.kinds
    # the kinds of a card play, and whether the model scores them, looked up once (an enum's class attribute and its
    # hash are Python-level: about a microsecond per card of every world)
    lead, follow, void = ChoiceKind.LEAD, ChoiceKind.FOLLOW, ChoiceKind.VOID
    lead_on, follow_on, void_on = lead in kinds, follow in kinds, void in kinds
    minimum = Contract.MINIMUM
    out: list[tuple[ChoiceKind, float, int, bool, int]] = []
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
                    if not trick:
                        kind, on = lead, lead_on
                    elif d.hands[s] & SUIT_MASKS[d.led_suit]:
                        kind, on = follow, follow_on
                    else:
                        kind, on = void, void_on
                    if on:
                        hand = d.hands[s]
                        unseen = FULL_DECK & ~played & ~hand & ~(d.discards if s == d.declarer else 0)
                        h = play_card(legal, trick, d.leader, d.trump, d.contract is minimum,
                                      unseen, d.declarer, s, n)
                        out.append((kind, model.card_factor(kind, legal, h, cid, d.trump), s, h == cid,
                                    legal.bit_count()))
            played |= 1 << cid
            d.play_unchecked(cid)
            continue
        if type(a) is Discard:  # the heuristic's discard from masks: no view to build (many worlds, several discards)
            if s != me and ChoiceKind.DISCARD in kinds:
                hand = d.hands[s]
                if hand & (hand - 1):
                    agrees = discard_card(hand, d.trump) == a.card.id
                    k = hand.bit_count()
                    out.append((ChoiceKind.DISCARD, model.factor(agrees, k, ChoiceKind.DISCARD), s, agrees, k))
            d.apply_unchecked(a)
            continue
        if s != me and d.forced_action() is None:
            kind = _kind_of(a)
            if kind in kinds:
                legal_actions = d.legal_actions()
                if len(legal_actions) > 1:
                    def seat_view(d: Deal = d, s: int = s) -> View:
                        return build_view(d, s, view.names, view.totals, view.results, view.contracts_left)

                    agrees = choice_in_deal(d, legal_actions, seat_view) == a
                    k = len(legal_actions)
                    out.append((kind, model.factor(agrees, k, kind), s, agrees, k))
        d.apply_unchecked(a)
    return out


def _kind_of(a: Action) -> ChoiceKind:
    if isinstance(a, (NameContract, AssignTargets)):
        return ChoiceKind.CONTRACT
    if isinstance(a, Discard):
        return ChoiceKind.DISCARD
    return ChoiceKind.EXCHANGE


def likelihood(world: Deal, view: View, model: ChoiceModel = DEFAULT_MODEL) -> float:
    """The probability of the other seats' choices in ``world`` under ``model``, in ``(0, 1]`` (1 when they made no
    scored choice): the product of :func:`choice_factors`, or with a ``heuristic_share`` the product over the
    other seats of each seat's mixture (:class:`ChoiceModel`)."""
    return math.exp(log_likelihood(world, view, model))


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
    scored = _scored_choices(world, view, model)
    share = model.heuristic_share
    if not share:
        return math.fsum(math.log(f) for _, f, _, _, _ in scored)
    keep, eps = math.log(1.0 - model.heuristic_eps), model.heuristic_eps
    per_seat: dict[int, list[float]] = {}  # seat -> [log P as the model says, log P as a heuristic player]
    for _, f, seat, agrees, k in scored:
        acc = per_seat.setdefault(seat, [0.0, 0.0])
        acc[0] += math.log(f)
        acc[1] += keep if agrees else math.log(eps / (k - 1))
    total = 0.0
    for model_log, heuristic_log in per_seat.values():
        a, b = math.log(1.0 - share) + model_log, math.log(share) + heuristic_log
        top = max(a, b)
        total += top + math.log(math.exp(a - top) + math.exp(b - top))
    return min(0.0, total)


def pick_worlds(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indexes into ``weights`` drawn in proportion to them by systematic resampling (one number from
    ``rng``): index ``i`` is drawn ``floor`` or ``ceil`` of ``count * w_i / sum(w)`` times. Sorted.

    Raises:
        ValueError: when a weight is negative or not finite, or none is positive.
    """
    if any(not (w >= 0.0 and math.isfinite(w)) for w in weights) or not any(w > 0.0 for w in weights):
        raise ValueError(f"weights must be finite, >= 0 and not all 0 (got {list(weights)[:8]!r}...)")
    top = max(weights)
    weights = [w / top for w in weights]  # subnormal weights would round the steps away
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
