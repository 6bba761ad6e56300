"""The expert's estimate of each card of a played match, from what its player could know (as ben's analysis does).

:func:`add_expert_estimates` replays the match and, at every card played, asks the ``expert`` player
(:class:`~sergeant_major.players.expert.ExpertPlayer`) for its estimate from that player's :class:`View` only: worlds
consistent with the view are sampled, each legal card is evaluated in each world (double dummy once few cards are
left, play-outs before), and the mean whole-deal tricks per card are compared. The card's expert cost is the best
card's mean less the played card's (in minimum tricks the other way round), in tricks, >= 0. Every decision draws
from a generator seeded by ``seed``, the deal and the card's index, and the counts are fixed (``think``), so a
review is the same on any machine.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sergeant_major.core.actions import Contract, Play
from sergeant_major.core.match import Match
from sergeant_major.players.expert import ExpertPlayer
from sergeant_major.search.review import INACCURACY_TRICKS, Mark, table_jobs
from sergeant_major.search.solver import Solver

__all__ = ["add_expert_estimates", "expert_estimates", "expert_units", "EXPERT_THINK"]

EXPERT_THINK = 1.0
"""The expert's think factor in a review (worlds and play-outs per card, times the expert's counts)."""


def expert_units(review: dict[str, Any]) -> int:
    """How many estimates :func:`add_expert_estimates` makes: one per card of the review."""
    return sum(len(d["plays"]) for d in review["deals"])


def expert_estimates(match: Match, deals: Sequence[int] | None = None, think: float = EXPERT_THINK, seed: int = 0,
                     progress: Callable[[int], None] | None = None,
                     jobs: int | None = None) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    """The expert's estimate of each card played in the deals numbered ``deals`` of ``match`` (all when ``None``),
    by deal number: per card in the order played, the card's text and the entry :func:`add_expert_estimates` adds
    to its play. Needs no review: a caller may make them before the double-dummy review (the search compiles
    meanwhile) and pass them to :func:`add_expert_estimates`. The deals are estimated in ``jobs`` threads (default
    ``table_jobs()``), an expert with its own solver each; the estimates do not depend on it.

    Raises:
        ValueError: ``jobs`` below 1.
    """
    originals = {d.number: d for d in match.deals}

    def source(number: int, dealer: int) -> tuple[list[list[Any]], list[Any]] | None:
        d = originals.get(number)
        return ([list(h) for h in d.dealt], list(d.kitty_dealt)) if d is not None else None

    out: dict[int, list[tuple[str, dict[str, Any]]]] = {}

    def one_deal(index: int, player: ExpertPlayer) -> None:
        """The estimates of the cards of the match's deal ``index`` (from 0): a replay of the deals before it, then
        the expert at each of its cards."""
        replay = Match(match.rules, match.seed, list(match.names), dealer=match.first_dealer, cards=source)
        for before in match.deals[:index]:
            for action in before.history:
                replay.apply(action)
        original = match.deals[index]
        entries: list[tuple[str, dict[str, Any]]] = []
        for action in original.history:
            if isinstance(action, Play):
                view = replay.view(action.seat)
                rng = random.Random(f"review {seed} {original.number} {len(entries)}")
                est = player.estimate(view, rng)
                entries.append((str(action.card), _entry(est.tricks, action, est.worlds, est.method,
                                                         replay.deal.contract is Contract.MINIMUM)))
                if progress is not None:
                    progress(1)
            replay.apply(action)
        out[original.number] = entries

    indices = [i for i, d in enumerate(match.deals) if deals is None or d.number in deals]
    jobs = table_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r} must be at least 1")
    if jobs == 1 or len(indices) <= 1:
        player = ExpertPlayer(think=think)
        for i in indices:
            one_deal(i, player)
    else:
        # one expert (and solver) per thread; the estimates do not depend on which (no time limits, seeded draws)
        free: queue.SimpleQueue[ExpertPlayer] = queue.SimpleQueue()
        free.put(ExpertPlayer(think=think))
        for _ in range(min(jobs, len(indices)) - 1):
            free.put(ExpertPlayer(think=think, solver=Solver(tt_bits=19)))

        def task(i: int) -> None:
            player = free.get()
            try:
                one_deal(i, player)
            finally:
                free.put(player)

        with ThreadPoolExecutor(max_workers=min(jobs, len(indices))) as ex:
            try:
                list(ex.map(task, indices))
            except BaseException:
                ex.shutdown(wait=True, cancel_futures=True)  # the deals not started never start
                raise
    return {i: out[i] for i in sorted(out)}


def add_expert_estimates(match: Match, review: dict[str, Any], think: float = EXPERT_THINK, seed: int = 0,
                         progress: Callable[[int], None] | None = None, jobs: int | None = None,
                         estimates: dict[int, list[tuple[str, dict[str, Any]]]] | None = None) -> dict[str, Any]:
    """Add to each play of ``review`` (``search.review.review_match``'s, of ``match``) the expert's estimate as
    ``"expert": {"cost", "best", "worlds", "method"}``: ``cost`` in mean tricks (>= 0, 2 decimals; ``None`` when no world could be drawn), ``best`` the
    cards of the highest mean, ``worlds`` the worlds sampled (0 for a forced card), ``method`` how a world was
    evaluated (``dds``, ``playout``, ``forced``); to each seat of a deal and of the match ``"expert_lost"``, the sum of
    its cards' expert costs. A card double-dummy best whose expert cost is at least ``INACCURACY_TRICKS`` is marked
    ``inaccuracy``. Sets ``review["expert"] = {"think", "seed"}``. Returns ``review``. The estimates are
    :func:`expert_estimates`' (``jobs`` threads), or ``estimates`` when given (made with the same ``think`` and
    ``seed``, for at least the review's deals; then ``progress`` and ``jobs`` are not used).

    Raises:
        ValueError: a review of another match (a card the replay does not reach), or ``jobs`` below 1.
    """
    if estimates is None:
        estimates = expert_estimates(match, [d["deal"] for d in review["deals"]], think, seed, progress, jobs)
    for d in review["deals"]:
        entries = estimates.get(d["deal"], [])
        for k, (card, entry) in enumerate(entries):
            if k >= len(d["plays"]) or d["plays"][k]["card"] != card:
                raise ValueError(f"deal {d['deal']}: the review's card {k + 1} is not {card}")
            play = d["plays"][k]
            play["expert"] = dict(entry)
            if play["mark"] == Mark.BEST.value and (entry["cost"] or 0.0) >= INACCURACY_TRICKS:
                play["mark"] = Mark.INACCURACY.value
    for d in review["deals"]:  # per seat: the tricks its cards cost by the expert's estimate
        for st in d["seats"]:
            st["expert_lost"] = round(sum(p["expert"]["cost"] or 0.0 for p in d["plays"]
                                         if p["seat"] == st["seat"] and "expert" in p), 2)
    for st in review["seats"]:
        st["expert_lost"] = round(sum(d["seats"][st["seat"]]["expert_lost"] for d in review["deals"]), 2)
    review["expert"] = {"think": think, "seed": seed}
    return review


def _entry(tricks: dict[Any, float], played: Play, worlds: int, method: str, misere: bool) -> dict[str, Any]:
    if not tricks or played not in tricks:  # forced (nothing to compare), or no world found (no estimate)
        return {"cost": 0.0 if method == "forced" else None, "best": [str(played.card)] if method == "forced" else [],
                "worlds": worlds, "method": method}
    sign = -1.0 if misere else 1.0
    top = max(sign * v for v in tricks.values())
    best = [str(a.card) for a, v in tricks.items() if sign * v >= top - 1e-9 and isinstance(a, Play)]
    return {"cost": round(max(0.0, top - sign * tricks[played]), 2), "best": best, "worlds": worlds, "method": method}
