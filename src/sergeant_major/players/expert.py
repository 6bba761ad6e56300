"""The ``expert`` computer player: determinized search (PIMC) over sampled worlds.

For every decision the player draws worlds - whole deals consistent with its :class:`~sergeant_major.core.view.View`
- with :func:`~sergeant_major.search.determinization.resample` (so it uses everything the exchange, the shown voids
and the kitty reveal), evaluates each candidate action in each world, and takes the action with the best mean
*utility* (below). It never sees the real deal: only its view and the worlds it sampled.

How a candidate is evaluated in one world
    * card play with few cards left (at most :data:`DDS_CARDS` cards in the hands, :data:`DDS_CARDS_4` with four
      players): the double-dummy solver
      (:mod:`sergeant_major.search`) gives the seat's trick count after each legal card, the other players
      combined against it (its "paranoid" value; in minimum tricks the fewest tricks it can hold itself to);
    * card play with more cards left: the card is played and the deal is played out :data:`PLAYOUTS_PLAY` times
      with a cheap policy (the compiled greedy play-out of :mod:`sergeant_major.search.playout`; in minimum
      tricks a ducking policy compiled here);
    * every decision before the play (targets, gives, returns with a choice, the contract, discards): the action
      is applied, the rest of the deal up to the first lead is decided by the ``heuristic`` player for every
      seat, and the play is played out :data:`PLAYOUTS_PRE` times. The contract is chosen before the kitty
      is seen where the rules say so, and in 3-5-8 from the first six cards: the view holds only what the
      seat knows then, and the worlds fill in the rest. Discards are chosen as a set: a few candidate sets
      (the heuristic's, and sets that void a short side suit) are compared, and the first card of the best
      set is discarded. Gives and free returns are chosen among the lowest card of each suit and the
      heuristic's choice.

Inference (reading the table)
    With a :class:`~sergeant_major.players.inference.ChoiceModel` (the default, :data:`DEFAULT_MODEL`) a decision
    draws :data:`OVERSAMPLE` times the worlds a uniform search takes, weighs each by the likelihood of the other
    seats' choices in it under a model of how they play around the heuristic's policy, fitted to self-play
    (:func:`~sergeant_major.players.inference.log_likelihood`),
    tempers the weights to an effective sample size of at least :data:`MIN_ESS` times the uniform count, and
    searches every world whose weight is at least :data:`WEIGHT_FLOOR` of the likeliest's, the means weighted.
    ``model=None`` (the level ``expert-uniform``) searches uniform worlds.

Utility (match awareness)
    The value of a deal outcome for the seat is its score ``diff`` (over-tricks, or minus under-tricks) times
    ``1 + EXCHANGE_BONUS`` when there is a next deal with an exchange (an over-trick also wins a card exchange
    next deal: seeds 000/004 "Exchanging cards"), plus :data:`WIN` when the outcome ends the match in the
    seat's favour (its total reaches the target total ahead of the others, 12+ tricks outside minimum tricks,
    +bound, or the highest total after the last deal) and minus :data:`WIN` when it loses the match
    (-bound). So near the end of a match the player takes the risks that can win it.

Think time and determinism
    ``ExpertPlayer(think=x)`` multiplies every count (worlds and play-outs) by ``x`` (default 1.0): about ``x``
    times the time for a stronger player; ``think_before_play=y`` multiplies those of the decisions before the
    play only (targets, gives, returns, the contract, discards), on top of ``think``. Budgets are counts, never
    wall time, and all randomness comes from the generator passed to :meth:`ExpertPlayer.choose`, so the same
    generator gives the same decision on any machine, however fast. The worlds of one decision share one
    :class:`~sergeant_major.search.determinization.Budget` of :data:`WORLD_STEPS` resample steps per world asked:
    after a large exchange the seat saw little of (``give=lowest``) a world can cost seconds to draw, and the
    search then uses the worlds found within the budget (the heuristic's choice if none). Speeds measured in
    ``benchmarks/bench_expert.py`` and ``docs/players.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, EndGive, Give, NameContract, Play, Return
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.players.heuristic import HeuristicPlayer, choice_in_deal
from sergeant_major.players.inference import DEFAULT_MODEL, ChoiceModel, log_likelihood, pick_worlds, temper
from sergeant_major.search import Position, Solver
from sergeant_major.search.determinization import Budget, resample_worlds
from sergeant_major.search.jit import int_array, int_list, jit
from sergeant_major.search.kernels import alloc, legal_mask, rng_next, winner_index
from sergeant_major.search.kernels import playouts as _greedy_playouts
from sergeant_major.search.solver import compile_also, wait_for_compile_also, warm_up_in_background
from sergeant_major.search.solver import warm_up as solver_warm_up

__all__ = ["ExpertPlayer", "Estimate", "utility_table", "evaluate_worlds", "WIN", "EXCHANGE_BONUS", "DDS_CARDS", "DDS_CARDS_4",
           "WORLDS_PLAY", "WORLDS_PRE", "PLAYOUTS_PLAY", "PLAYOUTS_PRE", "WORLD_STEPS", "OVERSAMPLE", "MIN_ESS",
           "WEIGHT_FLOOR"]

WIN = 4.0
"""Utility of winning the match with this deal's outcome, in points (over-tricks)."""
EXCHANGE_BONUS = 0.25
"""Extra value of an over-trick (and cost of an under-trick) through next deal's exchange, in points."""
DDS_CARDS = 27
"""Card play is solved double-dummy in each world once at most this many cards are left in the hands (3 players)."""
DDS_CARDS_4 = 24
"""The same with 4 players (the solver's cost grows with the number of hands)."""
WORLDS_PLAY = 20
"""Worlds per card-play decision (times ``think``)."""
WORLDS_PRE = 12
"""Worlds per decision before the play (times ``think``)."""
PLAYOUTS_PLAY = 10
"""Play-outs per legal card per world when the deal is too long to solve (times ``think``)."""
PLAYOUTS_PRE = 16
"""Play-outs per candidate per world for decisions before the play (times ``think``)."""
OVERSAMPLE = 2
"""With inference, worlds drawn per world a uniform search takes: the likelihood weighs them."""
MIN_ESS = 0.5
"""With inference, the weights of the drawn worlds are tempered (:func:`~sergeant_major.players.inference.temper`)
to an effective sample size of at least this share of the worlds a uniform search takes (``WORLDS_PLAY`` or
``WORLDS_PRE``): never fewer than half the uniform count in effect (a likelier world counts more, and the fitted
model says which are likelier well enough to trade some noise for it)."""
WEIGHT_FLOOR = 0.01
"""With inference, drawn worlds whose tempered weight is below this share of the likeliest world's are not searched
(they would change the means by less than the play-outs' noise)."""
WORLD_STEPS = 5000
"""The work the worlds of one decision may cost :func:`~sergeant_major.search.determinization.resample`, in its
:class:`~sergeant_major.search.determinization.Budget` steps per world asked (so times ``think`` too): a decision draws
its worlds until it has them all or ``WORLD_STEPS * worlds`` steps are spent, and searches those found. A step is
~20-50 us, so about 2-5 s for the 20 worlds of a card play at most; ordinary views take 2-20 steps a world."""
_GREEDY = 1


# ---------------------------------------------------------------------------------------------- play-out kernels
@jit
def _mt_card(legal: int, trick: Any, tlen: int, n: int, rng: Any) -> int:
    """A ducking policy for minimum tricks (no trump): lead the lowest card of a random suit; follow with the
    highest card that loses, else (last to play) the highest card, else the lowest; void: throw the highest."""
    if tlen == 0:
        k = rng_next(rng) % 4
        for j in range(4):
            s = (k + j) % 4
            v = (legal >> (13 * s)) & 0x1FFF
            if v != 0:
                r = 0
                while (v >> r) & 1 == 0:
                    r += 1
                return 13 * s + r
        return -1
    led = trick[0] // 13
    bc = trick[0]
    for i in range(1, tlen):
        c = trick[i]
        if c // 13 == led and c > bc:
            bc = c
    v = (legal >> (13 * led)) & 0x1FFF
    if v != 0:
        best_lo = -1
        lo = -1
        hi = -1
        for r in range(13):
            if (v >> r) & 1:
                c = 13 * led + r
                if lo < 0:
                    lo = c
                hi = c
                if c < bc:
                    best_lo = c
        if best_lo >= 0:
            return best_lo
        if tlen == n - 1:
            return hi
        return lo
    # void: throw the highest-ranked card
    best = -1
    br = -1
    for c in range(52):
        if (legal >> c) & 1 and c % 13 >= br:
            br = c % 13
            best = c
    return best


@jit
def _mt_playouts(hands0: Any, n: int, trick0: Any, tlen0: int, leader0: int, must_trump: int, must_over: int,
                 count: int, seed: int, out: Any) -> None:
    """``count`` ducking play-outs of a minimum-tricks deal; ``out[i * n + s]``: seat ``s``'s tricks to come."""
    rng = alloc(1)
    rng[0] = (seed & 0xFFFFFFFF) | 1
    hands = alloc(4)
    trick = alloc(4)
    won = alloc(4)
    for i in range(count):
        for s in range(n):
            hands[s] = hands0[s]
            won[s] = 0
        for j in range(tlen0):
            trick[j] = trick0[j]
        tlen = tlen0
        leader = leader0
        while True:
            to = (leader + tlen) % n
            h = hands[to]
            if h == 0:
                break
            legal = legal_mask(h, trick, tlen, -1, must_trump, must_over)
            c = _mt_card(legal, trick, tlen, n, rng)
            hands[to] = h & ~(1 << c)
            trick[tlen] = c
            tlen += 1
            if tlen == n:
                w = (leader + winner_index(trick, n, -1)) % n
                won[w] += 1
                leader = w
                tlen = 0
        for s in range(n):
            out[i * n + s] = won[s]


#: The expert's own kernels, compiled beside the search by :func:`sergeant_major.search.solver.warm_up`'s second
#: process (the greedy play-outs are the search layer's).
BACKGROUND_KERNELS = (_mt_playouts,)
compile_also(__name__, "BACKGROUND_KERNELS")


def warm_up() -> None:
    """Compile (or load from numba's on-disk cache) every kernel the expert player runs - the double-dummy search
    (:func:`sergeant_major.search.solver.warm_up`), the greedy play-outs and the minimum-tricks ducking play-outs -
    by using each once on a tiny position, so that the player's first decision does not stall. With a cold cache
    the search (tens of seconds to compile) is compiled in another process while this one compiles the play-outs
    (seconds), which are all the first cards need: the search is first used with 27 cards left, and then waits
    for that process if it is still at work. Without numba it only runs the tiny play-outs."""
    if not warm_up_in_background():
        solver_warm_up()
    wait_for_compile_also()  # the search's second compiling process may be compiling _mt_playouts: load, not compile twice
    _playout_tricks(Position.parse("9-5-2 | H | 0 | 6-5-3 | AK... / QJ... / T9... | -"), 0, 2, 1)
    _playout_tricks(Position.parse("3-5-8 | MT | 0 | 6-5-3 | AK... / QJ... / T9... | -"), 0, 2, 1)


def _playout_tricks(pos: Position, seat: int, count: int, seed: int) -> list[int]:
    """The seat's whole-deal tricks in ``count`` play-outs from ``pos`` (greedy; ducking in minimum tricks)."""
    n = pos.n
    hands = int_array(list(pos.hands) + [0] * (4 - n))
    trick = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
    out = int_array(count * n)
    mt, mo = int(pos.rules.must_trump), int(pos.rules.must_overtrump)
    if pos.misere:
        _mt_playouts(hands, n, trick, len(pos.trick), pos.leader, mt, mo, count, seed, out)
    else:
        _greedy_playouts(hands, n, trick, len(pos.trick), pos.leader, pos.trump, mt, mo, _GREEDY, count, seed, out)
    base = pos.tricks[seat]
    return [base + t for t in int_list(out)[seat::n]]


# ---------------------------------------------------------------------------------------------- utility
def utility_table(rules: Rules, seat: int, target: int, minimum: bool, totals: Sequence[int], deal_number: int) -> list[float]:
    """The seat's utility for each whole-deal trick count ``0..rules.tricks`` (module doc, "Utility").

    Args:
        target: the seat's target (its ceiling in minimum tricks).
        minimum: whether the contract is minimum tricks (fewer tricks are better; no instant win).
        totals: the match totals by seat before this deal.
        deal_number: the deal's number (1-based), for ``deals=N`` matches.
    """
    others = [t for s, t in enumerate(totals) if s != seat] or [0]
    best_other = max(others)
    last = rules.deals is not None and deal_number >= rules.deals
    bonus = EXCHANGE_BONUS if rules.exchange and not last else 0.0
    table: list[float] = []
    for t in range(rules.tricks + 1):
        diff = (target - t) if minimum else (t - target)
        new = (totals[seat] if seat < len(totals) else 0) + diff
        u = diff * (1.0 + bonus)
        if last:
            u += WIN if new > best_other else (WIN / 2 if new == best_other else 0.0)
        elif not minimum and rules.instant_win is not None and t >= rules.instant_win:
            u += WIN
        elif rules.target_total is not None and new >= rules.target_total and new > best_other:
            u += WIN
        elif rules.bound is not None and new >= rules.bound and new > best_other:
            u += WIN
        if rules.bound is not None and new <= -rules.bound:
            u -= WIN
        table.append(u)
    return table


@dataclass(frozen=True)
class Estimate:
    """The expert's evaluation of one decision.

    Attributes:
        choice: the action chosen (one of the view's legal actions).
        values: per candidate action, the mean utility over the worlds (points, module doc "Utility").
        tricks: per candidate action, the mean whole-deal tricks of the seat over the worlds (card play, and
            decisions before the play); empty when not measured.
        worlds: worlds evaluated.
        method: ``"forced"``, ``"dds"`` (double-dummy per world), ``"playout"`` or ``"rollout"``.
        sets: at a discard, per candidate (a :class:`Discard` of a set's highest card), the whole set of cards
            it stands for (the best set with that highest card); empty elsewhere.
    """

    choice: Action
    values: dict[Action, float]
    tricks: dict[Action, float]
    worlds: int
    method: str
    sets: dict[Action, tuple[Card, ...]] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------- evaluation
class _Context:
    """What an evaluation needs from the view (names, totals...) to continue a sampled deal."""

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.rules = view.rules
        self.names = view.names
        self.totals = view.totals
        self.results = view.results
        self.left = view.contracts_left
        self.deal_number = view.deal_number
        self._tables: dict[tuple[int, bool], list[float]] = {}

    def table(self, target: int, minimum: bool) -> list[float]:
        key = (target, minimum)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = utility_table(self.rules, self.seat, target, minimum, self.totals, self.deal_number)
        return t


_HEURISTIC = HeuristicPlayer()
_SHARED: list[Solver] = []  # one solver (and transposition table) for every expert of the process; its
# table changes how fast, never what, the solver answers, so sharing it keeps decisions deterministic


def _advance(deal: Deal, ctx: _Context) -> None:
    """Decide the rest of the deal up to the first lead with the heuristic player (every seat; it draws nothing
    at random). Each action is one the deal offers (forced or legal), so it is applied without checking it again."""
    while deal.result is None and deal.phase is not Phase.PLAY:
        f = deal.forced_action()
        if f is None:
            s = deal.to_act
            assert s is not None

            def seat_view(s: int = s) -> View:
                return build_view(deal, s, ctx.names, ctx.totals, ctx.results, ctx.left)

            f = choice_in_deal(deal, deal.legal_actions(), seat_view)
        deal.apply_unchecked(f)


def _apply_candidate(deal: Deal, cand: Action | tuple[Action, ...]) -> None:
    if isinstance(cand, tuple):
        for a in cand:
            deal.apply(a)
    else:
        deal.apply(cand)


def evaluate_worlds(worlds: Sequence[Deal], ctx_view: View, candidates: Sequence[Action | tuple[Action, ...]],
                    playouts: int, rng: random.Random,
                    weights: Sequence[float] | None = None) -> tuple[list[float], list[float]]:
    """Mean utility and mean tricks of each candidate (an action, or a sequence of the seat's actions applied in
    turn) over ``worlds``, each continued by the heuristic up to the first lead and then played out
    ``playouts`` times. The worlds are not changed.

    Args:
        weights: one weight (> 0) per world for a weighted mean (how many times it was drawn); default equal.

    Returns:
        ``(utilities, tricks)``, one entry per candidate.
    """
    ctx = _Context(ctx_view)
    seat = ctx.seat
    util = [0.0] * len(candidates)
    tricks = [0.0] * len(candidates)
    for wi, w in enumerate(worlds):
        weight = 1.0 if weights is None else weights[wi]
        wseed = rng.getrandbits(31)
        for i, cand in enumerate(candidates):
            d = w.clone()
            _apply_candidate(d, cand)
            _advance(d, ctx)
            if d.result is not None:  # cannot happen before the play, kept for safety
                t_list = [d.result.tricks[seat]]
            else:
                t_list = _playout_tricks(Position.from_deal(d), seat, playouts, wseed)
            assert d.contract is not None
            table = ctx.table(d.targets[seat], d.contract is Contract.MINIMUM)
            util[i] += weight * sum(table[t] for t in t_list) / len(t_list)
            tricks[i] += weight * sum(t_list) / len(t_list)
    k = max(1, len(worlds)) if weights is None else sum(weights)
    return [u / k for u in util], [t / k for t in tricks]


def _play_values(worlds: Sequence[Deal], view: View, legal: Sequence[Play], solver: Solver, playouts: int,
                 rng: random.Random, weights: Sequence[float] | None = None) -> tuple[list[float], list[float], str]:
    """Mean utility and tricks of each legal card over the worlds (double-dummy when short, else play-outs)."""
    ctx = _Context(view)
    seat = view.seat
    idx = {a.card.id: i for i, a in enumerate(legal)}
    util = [0.0] * len(legal)
    tricks = [0.0] * len(legal)
    method = "playout"
    for wi, w in enumerate(worlds):
        weight = 1.0 if weights is None else weights[wi]
        pos = Position.from_deal(w)
        table = ctx.table(w.targets[seat], pos.misere)
        if sum(h.bit_count() for h in pos.hands) <= (DDS_CARDS if pos.n == 3 else DDS_CARDS_4):
            method = "dds"
            sol = solver.solve(pos, seat)
            for c, v in sol.cards.items():
                i = idx[c.id]
                util[i] += weight * table[v]
                tricks[i] += weight * v
        else:
            seed = rng.getrandbits(31)
            for cid, i in idx.items():
                ts = _playout_tricks(pos.play_unchecked(cid), seat, playouts, seed)
                util[i] += weight * sum(table[t] for t in ts) / len(ts)
                tricks[i] += weight * sum(ts) / len(ts)
    k = max(1, len(worlds)) if weights is None else sum(weights)
    return [u / k for u in util], [t / k for t in tricks], method


# ---------------------------------------------------------------------------------------------- candidates
def _discard_sets(view: View, k: int) -> list[tuple[Card, ...]]:
    """Candidate sets of ``k`` discards: the heuristic's, and sets that empty one or two short side suits."""
    hand = list(view.hand)
    trump = view.trump
    sets: list[tuple[Card, ...]] = []

    def fill(chosen: list[Card]) -> tuple[Card, ...] | None:
        rest = [c for c in hand if c not in chosen]
        counts = {s: sum(1 for c in rest if c.suit == s) for s in range(4)}
        rest.sort(key=lambda c: (c.suit == trump, c.rank == 12, counts[c.suit] * 16 + c.rank))
        out = list(chosen) + rest[: k - len(chosen)]
        return tuple(sorted(out[:k], key=lambda c: c.id)) if len(out) >= k else None

    sets.append(fill([]) or tuple(hand[:k]))
    lows = sorted((c for c in hand if c.suit != trump), key=lambda c: (c.rank, c.suit))
    if len(lows) >= k:
        sets.append(tuple(sorted(lows[:k], key=lambda c: c.id)))
    by_suit = {s: [c for c in hand if c.suit == s] for s in range(4)}
    short = [s for s in range(4) if s != trump and 0 < len(by_suit[s]) <= k]
    for s in short:
        f = fill(by_suit[s])
        if f:
            sets.append(f)
        for s2 in short:
            if s2 > s and len(by_suit[s]) + len(by_suit[s2]) <= k:
                f = fill(by_suit[s] + by_suit[s2])
                if f:
                    sets.append(f)
    seen: set[tuple[Card, ...]] = set()
    out: list[tuple[Card, ...]] = []
    for st in sets:
        if st not in seen and len(st) == k:
            seen.add(st)
            out.append(st)
    return out[:6]


def _card_candidates(legal: Sequence[Action], view: View, rng: random.Random) -> list[Action]:
    """Gives and free returns: the lowest card of each suit, the heuristic's choice, and EndGive if legal."""
    cards = [a for a in legal if isinstance(a, (Give, Return))]
    out: list[Action] = []
    for s in range(4):
        suit = [a for a in cards if a.card.suit == s]
        if suit:
            out.append(min(suit, key=lambda a: a.card.rank))
    h = _HEURISTIC.choose(view, rng)
    if h not in out:
        out.append(h)
    out += [a for a in legal if isinstance(a, EndGive) and a not in out]
    return out


# ---------------------------------------------------------------------------------------------- the player
class ExpertPlayer:
    """The ``expert`` level: PIMC search over worlds drawn from its view (module doc).

    Args:
        name: the player's name.
        think: multiplies every count budget (worlds, play-outs); 1.0 is the level ``expert``. Must be > 0.
        think_before_play: multiplies the counts of the decisions before the play only (their worlds and
            play-outs: targets, gives, returns, the contract, discards), on top of ``think``. Must be > 0.
        solver: a double-dummy solver to use (default: one shared by the experts of the process).
        model: how the other players are taken to choose, for weighing the worlds (module doc, "Inference");
            ``None``: uniform worlds (the level ``expert-uniform``).
        oversample: with a model, worlds drawn per world a uniform search takes (>= 1).
        min_ess: with a model, the effective sample size the tempered weights keep, as a share of the worlds a
            uniform search takes.
        resample_worlds: with a model, search the uniform count of worlds drawn in proportion to the weights
            instead of every drawn world with its weight.

    Raises:
        ValueError: for ``think <= 0``, ``think_before_play <= 0`` or ``oversample < 1``.
    """

    def __init__(self, name: str = "expert", think: float = 1.0, solver: Solver | None = None,
                 model: ChoiceModel | None = DEFAULT_MODEL, oversample: int = OVERSAMPLE, min_ess: float = MIN_ESS,
                 resample_worlds: bool = False, think_before_play: float = 1.0) -> None:
        if not think > 0:
            raise ValueError(f"think={think!r} must be > 0")
        if not think_before_play > 0:
            raise ValueError(f"think_before_play={think_before_play!r} must be > 0")
        if oversample < 1:
            raise ValueError(f"oversample={oversample!r} must be >= 1")
        self.name = name
        self.think = think
        self.think_before_play = think_before_play
        self.model = model
        self.oversample = oversample
        self.min_ess = min_ess
        self.resample_worlds = resample_worlds
        self._solver = solver
        self.worlds_play = max(2, round(WORLDS_PLAY * think))
        self.worlds_pre = max(2, round(WORLDS_PRE * think * think_before_play))
        self.playouts_play = max(2, round(PLAYOUTS_PLAY * think))
        self.playouts_pre = max(2, round(PLAYOUTS_PRE * think * think_before_play))
        self.last_budget: Budget | None = None
        """The resample budget of the last decision that drew worlds (its counts: steps used, draws, samples)."""

    @property
    def solver(self) -> Solver:
        """The double-dummy solver (created on first use)."""
        if self._solver is None:
            if not _SHARED:
                _SHARED.append(Solver(tt_bits=19))
            self._solver = _SHARED[0]
        return self._solver

    def choose(self, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal`` (the best by the search; module doc)."""
        return self.estimate(view, rng).choice

    def _worlds(self, view: View, count: int, rng: random.Random) -> list[Deal]:
        """Up to ``count`` worlds drawn from ``view``, within one budget of ``WORLD_STEPS * count`` resample steps
        (a count, so the same ``rng`` gives the same worlds on any machine); fewer, possibly none, when the
        budget runs out or resample gives up."""
        return self._worlds_within(view, count, WORLD_STEPS * count, rng)

    def _weighted_worlds(self, view: View, count: int, rng: random.Random) -> tuple[list[Deal], list[float] | None]:
        """The worlds to search and their weights (``None``: equal). Without a model, :meth:`_worlds`. With one,
        ``count * oversample`` worlds are drawn (the same step budget) and weighted by the likelihood of the other
        players' choices in each, tempered to an effective sample size of ``min_ess * count``; every world of
        weight at least :data:`WEIGHT_FLOOR` is searched with its weight, or (``resample_worlds``) ``count`` of
        them are drawn by :func:`pick_worlds` and a world drawn ``m`` times is searched once with weight ``m``."""
        if self.model is None:
            return self._worlds(view, count, rng), None
        drawn = self._worlds_within(view, count * self.oversample, WORLD_STEPS * count, rng)
        if not drawn:
            return [], None
        like = temper([log_likelihood(w, view, self.model) for w in drawn], self.min_ess * count)
        if not self.resample_worlds:  # every world that counts, with its weight
            kept = [i for i, w in enumerate(like) if w >= WEIGHT_FLOOR]
            return [drawn[i] for i in kept], [like[i] for i in kept]
        picked = pick_worlds(like, count, rng)
        kept = sorted(set(picked))
        return [drawn[i] for i in kept], [float(picked.count(i)) for i in kept]

    def _worlds_within(self, view: View, count: int, steps: int, rng: random.Random) -> list[Deal]:
        """Up to ``count`` worlds drawn from ``view`` within one :class:`Budget` of ``steps`` resample steps; when
        resample gives up (rare: give=lowest, its docstring) or the budget runs out, the worlds found so far."""
        self.last_budget = budget = Budget(steps)
        return resample_worlds(view, rng, count, budget=budget)

    def estimate(self, view: View, rng: random.Random, worlds: Sequence[Deal] | None = None) -> Estimate:
        """The search's evaluation of every candidate for the decision in ``view`` and its choice.

        Args:
            worlds: deals to search instead of worlds drawn from the view (the oracle passes the true deal);
                they must agree with the view.

        Raises:
            ValueError: when the view has no legal action (the seat is not to act).
        """
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to act (phase {view.phase.value})")
        if len(legal) == 1:
            return Estimate(legal[0], {legal[0]: 0.0}, {}, 0, "forced")
        first = legal[0]
        if isinstance(first, Play):
            return self._estimate_play(view, [a for a in legal if isinstance(a, Play)], rng, worlds)
        return self._estimate_pre(view, rng, worlds)

    def _tie_break(self, view: View, best: list[Action], rng: random.Random) -> Action:
        if len(best) == 1:
            return best[0]
        h = _HEURISTIC.choose(view, rng)
        if h in best:
            return h
        cards = [a for a in best if isinstance(a, (Play, Give, Return, Discard))]
        if cards:
            return min(cards, key=lambda a: (a.card.rank, a.card.suit))
        return best[0]

    def _pick(self, view: View, values: dict[Action, float], rng: random.Random) -> Action:
        top = max(values.values())
        best = [a for a, v in values.items() if v >= top - 1e-9]
        return self._tie_break(view, best, random.Random(rng.getrandbits(32)))

    def _estimate_play(self, view: View, legal: list[Play], rng: random.Random, given: Sequence[Deal] | None) -> Estimate:
        worlds, weights = (list(given), None) if given is not None else self._weighted_worlds(view, self.worlds_play, rng)
        if not worlds:
            a = _HEURISTIC.choose(view, rng)
            return Estimate(a, {a: 0.0}, {}, 0, "heuristic")
        util, tricks, method = _play_values(worlds, view, legal, self.solver, self.playouts_play, rng, weights)
        values: dict[Action, float] = dict(zip(legal, util, strict=True))
        trick_map: dict[Action, float] = dict(zip(legal, tricks, strict=True))
        return Estimate(self._pick(view, values, rng), values, trick_map, len(worlds), method)

    def _estimate_pre(self, view: View, rng: random.Random, given: Sequence[Deal] | None) -> Estimate:
        legal = view.legal
        first = legal[0]
        cands: list[Action | tuple[Action, ...]]
        keys: list[Action]
        if isinstance(first, Discard):
            k = view.rules.kitty_size - len(view.discards or ())
            seat = view.seat
            sets = _discard_sets(view, max(1, k))
            cands = [tuple(Discard(seat, c) for c in st) for st in sets]
            # discard the set's card the heuristic would give up last... any order gives the same set; take the
            # highest-ranked first so that sets sharing their low cards stay apart in the estimates
            keys = [Discard(seat, max(st, key=lambda c: (c.rank, c.suit))) for st in sets]
        elif isinstance(first, (Give, EndGive, Return)):
            keys = _card_candidates(legal, view, random.Random(rng.getrandbits(32)))
            cands = list(keys)
        else:  # NameContract, AssignTargets: every legal choice
            keys = list(legal)
            cands = list(keys)
        if len(cands) == 1:
            return Estimate(keys[0], {keys[0]: 0.0}, {}, 0, "forced")
        worlds, weights = (list(given), None) if given is not None else self._weighted_worlds(view, self.worlds_pre, rng)
        if not worlds:
            a = _HEURISTIC.choose(view, rng)
            return Estimate(a, {a: 0.0}, {}, 0, "heuristic")
        util, tricks = evaluate_worlds(worlds, view, cands, self.playouts_pre, rng, weights)
        values: dict[Action, float] = {}
        trick_map: dict[Action, float] = {}
        set_of: dict[Action, tuple[Card, ...]] = {}
        for key, cand, u, t in zip(keys, cands, util, tricks, strict=True):
            if key not in values or u > values[key]:
                values[key] = u
                trick_map[key] = t
                if isinstance(first, Discard) and isinstance(cand, tuple):
                    set_of[key] = tuple(a.card for a in cand if isinstance(a, Discard))
        if isinstance(first, Discard):  # the best set decides; its first card is discarded now
            top = max(range(len(cands)), key=lambda i: (util[i], -i))
            return Estimate(keys[top], values, trick_map, len(worlds), "rollout", set_of)
        return Estimate(self._pick(view, values, rng), values, trick_map, len(worlds), "rollout")



def hint_lines(view: View, rng: random.Random, think: float = 1.0) -> list[str]:
    """The ``hint`` command of ``play``: the expert's choice for the decision in ``view`` and its estimate for each
    candidate (mean whole-deal tricks of the seat, and the utility in points), best first. Uses only the view.

    Raises:
        ValueError: when the seat is not to act.
    """
    est = ExpertPlayer(think=think).estimate(view, rng)
    names = list(view.names)

    def short(a: Action) -> str:
        if isinstance(a, (Play, Discard, Give, Return)):
            return str(a.card)
        if isinstance(a, AssignTargets):  # what the targets> prompt lists and takes: its number, then who gets what
            return f"{view.legal.index(a) + 1}: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(a.targets))
        if isinstance(a, NameContract):  # "choose minimum tricks", not "choose name minimum tricks"
            return a.contract.word
        if isinstance(a, EndGive):
            return f"done (no more cards to {names[a.to]})"
        return str(a)

    # in the player's words: how each sampled deal was valued (method names such as "play-outs" are jargon)
    how = {"dds": "each solved double dummy", "playout": "each played out", "rollout": "each played out", "forced": "",
           "heuristic": "no worlds"}
    head = f"Hint: the expert would choose {short(est.choice)}"
    if est.worlds:
        head += f" (estimated over {est.worlds} sampled deals, {how.get(est.method, est.method)})"
    elif est.method == "forced":
        head += " (the only sensible choice)" if len(view.legal) > 1 else " (the only legal choice)"
    lines = [head + "."]
    if est.tricks:
        if isinstance(est.choice, Discard):
            lines.append("  (discards are compared as sets of cards: each line is a whole set, its first card the one "
                         "to discard now)")
        elif isinstance(est.choice, (Give, Return, EndGive)) and len(est.values) < len(view.legal):
            lines.append(f"  (of the {len(view.legal)} legal choices the expert compares these: the lowest card of each "
                         "suit and the heuristic's choice)")
        for a in sorted(est.values, key=lambda x: (-est.values[x], x != est.choice)):  # the choice first of equals
            t = est.tricks.get(a)
            tt = f"{t:5.2f} tricks" if t is not None else ""
            what = short(a)
            if isinstance(a, Discard) and a in est.sets:
                what = " ".join([str(a.card)] + [str(c) for c in est.sets[a] if c != a.card])
            lines.append(f"  {what:<24} {tt}   {est.values[a]:+6.2f} points")
        lines.append("  (points: the expert's utility - the deal's score, weighted up by a quarter when an exchange "
                     f"follows, {WIN:+g} when it wins the match, {-WIN:+g} when it loses it; docs/players.md)")
    return lines
