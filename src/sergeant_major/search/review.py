"""Reviewing played deals double dummy (everyone seeing every card): what each card cost, and the table per contract.

* :func:`dd_table` - the double-dummy table of a position at the opening lead: for each contract and seat the
  tricks the seat makes at least however the others play (its "sure" tricks), and the tricks left open;
* :func:`review_deal` - every card of a played deal: its player's value before it and after it, its cost in
  tricks against the best card, the best card(s), a mark (:class:`Mark`), and per seat the tricks lost;
* :func:`review_match` - every deal of a match, with a progress callback, and per seat the totals.

Values are paranoid (the player against the others together; in minimum tricks the fewest tricks the player
can hold itself to), from :class:`~sergeant_major.search.solver.Solver`. A search cut short by ``time_limit``
gives bounds ``[lo, hi]`` instead of a value; a cost is then a range too (``cost`` ``None``, ``cost_range``).
The JSON form of :func:`review_match` is described by ``review_schema.json`` beside this module
(:func:`review_schema`). ``docs/solver.md`` ("Reviewing a match") has the user's account.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from sergeant_major.core.actions import AssignTargets, Contract
from sergeant_major.core.cards import CARDS, Card
from sergeant_major.core.deal import Deal
from sergeant_major.core.match import Match
from sergeant_major.core.rules import minimum_ceilings
from sergeant_major.search.position import Position, PositionError
from sergeant_major.search.solver import Solution, Solver, SolverTimeout, equivalent_groups, warm_up

__all__ = ["Mark", "INACCURACY_TRICKS", "REVIEW_VERSION", "REVIEW_TT_BITS", "Progress", "review_solver", "table_jobs", "narrow_by_sum", "dd_table",
           "table_cells", "table_targets", "table_rows", "run_tasks", "biggest_mistakes",
           "card_cost", "seat_losses", "play_start", "deal_targets", "deal_plays", "play_entry", "review_plays", "card_review", "review_deal", "review_deals", "analyze_deal", "review_match", "review_units",
           "review_schema"]

REVIEW_VERSION = 1
"""The version of the review's JSON form (``"review"`` in :func:`review_match`'s result)."""

Progress = Callable[[int], None]
"""Called with the number of searches just finished (a card's or a table cell's), from any thread."""


class Mark(enum.Enum):
    """How a card fared: ``BEST`` kept its player's double-dummy value (cost 0), ``MISTAKE`` surely cost a trick or
    more double dummy, ``UNCLEAR`` the time limit left its cost open between 0 and more; ``INACCURACY`` (set with
    the expert's estimate, ``sergeant_major.eval.review``): kept the value double dummy, but from what its player
    could see it cost at least :data:`INACCURACY_TRICKS` on average - a poor bet that the cards let pass."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    UNCLEAR = "unclear"


INACCURACY_TRICKS = 0.5
"""The expert's cost (mean tricks) from which a card that kept its double-dummy value is an inaccuracy."""


def _tick(progress: Progress | None, n: int = 1) -> None:
    if progress is not None:
        progress(n)

def table_jobs() -> int:
    """How many searches of a table run at once: the CPU cores, at most 4 (each extra one has its own 64 MB
    solver); 1 without numba (pure Python holds the GIL)."""
    from sergeant_major.search.jit import HAVE_NUMBA

    return max(1, min(os.cpu_count() or 1, 4)) if HAVE_NUMBA else 1


REVIEW_TT_BITS = 22
"""The table size of a review's solvers (:func:`review_solver`): ``2**22`` entries, 128 MB each. A table cell is a
whole-deal search of tens of millions of nodes at worst, where the default's half as many entries thrash."""


def review_solver(threads: int = 1) -> Solver:
    """A solver for a review or a double-dummy table (:func:`review_match`, :func:`dd_table`): ``2**REVIEW_TT_BITS``
    table entries with numba (its twins for the other threads get as many; without numba a default solver's),
    ``threads`` search threads (1..64)."""
    from sergeant_major.search.jit import HAVE_NUMBA

    return Solver(tt_bits=REVIEW_TT_BITS if HAVE_NUMBA else None, threads=threads)


def narrow_by_sum(cells: list[list[int]], total: int, misere: bool) -> list[list[int]]:
    """Narrow a table row's cut-short cells (``[lo, hi]`` per seat, tricks of the whole deal) by the others.

    Each seat has a way of play that makes it at least its value whatever the others do (in minimum tricks: at
    most its value); all seats playing so at once, each gets that, and the tricks add up to ``total``. So the
    values add up to at most ``total`` (in minimum tricks: at least), and a seat's value is at most ``total``
    minus the others' lower bounds (in minimum tricks: at least ``total`` minus their upper bounds). Exact
    cells do not change. ``test_table_values_add_up_to_at_most_the_tricks`` checks the rule on exact tables.
    """
    out = []
    for i, (lo, hi) in enumerate(cells):
        if misere:
            lo = max(lo, total - sum(c[1] for j, c in enumerate(cells) if j != i))
        else:
            hi = min(hi, total - sum(c[0] for j, c in enumerate(cells) if j != i))
        out.append([lo, hi])
    return out


def dd_table(pos: Position, solver: Solver, time_limit: float | None, jobs: int | None = None,
             targets: tuple[int, ...] | None = None, allowed: tuple[Contract, ...] | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
    """The double-dummy table of a position at the opening lead.

    A cell is the tricks its seat makes at least, however the others play with every card known (its sure
    tricks; in minimum tricks the most it takes at worst when it ducks as well as it can). A row's sure tricks
    add up to at most the deal's tricks: the rest, ``open``, go to whoever the actual play favours (in minimum
    tricks the ceilings add up to at least the deal's tricks; ``open`` is then how many more). ``progress`` is
    called once per cell.

    ``targets`` are the deal's targets by seat as the deal set them before its contract (with
    ``dealer-assigns-targets`` the dealer's assignment; not minimum tricks' ceilings); by default the rules'
    targets by role, the dealer being the seat before the leader. ``allowed`` are the contracts the declarer
    may choose in the deal (3-5-8 ``contract-once``: those he has not chosen before, ``Deal.allowed_contracts``);
    by default every contract of the rules. Every contract gets its row; the best choice is among the allowed.

    The cells (one search per contract and seat) are independent: with ``jobs`` > 1 (default
    :func:`table_jobs`) they run in that many threads, ``solver`` and ``jobs - 1`` more solvers of its size
    each serving one search at a time (the compiled search releases the GIL; ``solver``'s helper threads are
    off meanwhile, the cells fill the cores). The values do not depend on ``jobs``; ``time_limit`` holds for
    each search.

    Returns:
        ``{"leader", "dealer", "declarer", "target", "total", "rows": [{"contract", "word", "tricks": [[lo, hi] per
        seat], "open": [lo, hi], "diff": [lo, hi], "target", "allowed"}], "best", "best_all", "certain"}`` where
        ``total`` is the deal's tricks, ``open`` the tricks the row's sure counts leave to the play (above), and a row's ``target`` is the declarer's target in that
        contract (in minimum tricks its ceiling, seed 003: the targets mirrored, ``rules.minimum_ceilings``),
        ``diff`` the declarer's over-tricks (under-tricks negative; in minimum tricks the ceiling minus the
        tricks), ``allowed`` whether the declarer may choose it, ``best`` the code of the allowed contract
        with the largest sure ``diff`` (the first in the rows' order on a tie) and ``best_all`` the codes of every
        allowed contract as good as it for sure (``best`` first; the others' ``diff`` exact and equal to its);
        ``certain`` is false when a time limit left another allowed contract's ``diff`` range reaching above the
        best's sure ``diff`` (another choice may be better).

    Raises:
        ValueError: ``jobs`` below 1, ``targets`` not one per seat, or a trick in progress (under another contract
            its cards need not be legal).
    """
    targets = table_targets(pos, targets)
    jobs = table_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r} must be at least 1")
    cells_of = table_cells(pos)
    sols: list[Solution | None] = [None] * len(cells_of)

    def cell(k: int) -> Callable[[Solver], None]:
        def run(sv: Solver) -> None:
            sols[k] = sv.value(cells_of[k][0], cells_of[k][1], time_limit=time_limit)
            _tick(progress)
        return run

    run_tasks([cell(k) for k in range(len(cells_of))], solver, jobs)
    return table_rows(pos, [(sol.lower, sol.upper) for sol in sols if sol is not None], targets, allowed)


def table_targets(pos: Position, targets: tuple[int, ...] | None) -> tuple[int, ...]:
    """:func:`dd_table`'s ``targets`` checked, the rules' by role by default.

    Raises:
        ValueError: ``targets`` not one per seat, or a trick in progress (under another contract its cards need
            not be legal).
    """
    if pos.trick:
        raise ValueError(f"the table is of a position at a trick start, not with a trick in progress: {pos.text()!r}")
    n = pos.n
    dealer = (pos.leader - 1) % n  # the eldest hand leads the first trick (seeds 000/004)
    if targets is None:
        targets = tuple(pos.rules.targets[(s - dealer) % n] for s in range(n))
    elif len(targets) != n:
        raise ValueError(f"targets={targets!r}: give one per seat ({n})")
    return tuple(targets)


def table_cells(pos: Position) -> list[tuple[Position, int]]:
    """The cells of :func:`dd_table`'s table in its rows' order: per contract of the rules, per seat, the position
    under that contract and the seat."""
    contracts = [c for c in Contract if c.value < 4 or pos.rules.has_nt_mt]
    return [(Position(pos.rules, con, pos.to_move, pos.tricks, pos.hands, pos.trick), s)
            for con in contracts for s in range(pos.n)]


def run_tasks(tasks: list[Callable[[Solver], None]], solver: Solver, jobs: int) -> None:
    """Run ``tasks`` (each given a solver to search with, one search at a time) in ``jobs`` threads, in their
    order as threads come free: ``solver`` and ``jobs - 1`` more solvers of its size. The compiled search
    releases the GIL; ``solver``'s helper threads are off meanwhile (the tasks fill the cores) until no task is
    left to start: then the cores of the threads that have none share out among the searches still running, as
    their helper threads (:meth:`Solver.set_threads`), so that a long last search does not run alone on one core.
    With one job (or task) they run in turn on ``solver`` with its helper threads. A task's exception (Ctrl-C too)
    interrupts every solver's search and is raised once the threads have stopped."""
    if jobs == 1 or len(tasks) <= 1:
        for task in tasks:
            task(solver)
        return
    warm_up()  # compile (or load) the kernels once, before the threads start
    free: queue.SimpleQueue[Solver] = queue.SimpleQueue()
    free.put(solver)
    solvers = [solver] + [solver.twin() for _ in range(min(jobs, len(tasks)) - 1)]
    for sv in solvers[1:]:
        free.put(sv)
    lock = threading.Lock()
    running: list[Solver] = []  # the solvers searching a task, in the order they started it
    started = [0]

    def share_out() -> None:
        # no task left to start: the jobs' cores go to the searches still running (``lock`` held)
        if started[0] < len(tasks) or not running:
            return
        for i, sv in enumerate(running):
            sv.set_threads(jobs // len(running) + (1 if i < jobs % len(running) else 0))

    def one(task: Callable[[Solver], None]) -> None:
        sv = free.get()
        with lock:
            started[0] += 1
            running.append(sv)
        try:
            task(sv)
        finally:
            with lock:
                running.remove(sv)
                sv.set_threads(1)
                share_out()
            free.put(sv)

    threads, solver.threads = solver.threads, 1  # the tasks fill the cores: no helper threads meanwhile
    try:
        with ThreadPoolExecutor(max_workers=min(jobs, len(tasks))) as ex:
            try:
                list(ex.map(one, tasks))
            except BaseException:  # Ctrl-C: stop the tasks' searches, or leaving the pool waits for them
                for sv in solvers:
                    sv.interrupt()
                ex.shutdown(wait=True, cancel_futures=True)  # the tasks not started never start
                raise
    finally:
        solver.threads = threads
        solver.resume()


def table_rows(pos: Position, bounds: list[tuple[int, int]], targets: tuple[int, ...],
               allowed: tuple[Contract, ...] | None) -> dict[str, Any]:
    """:func:`dd_table`'s result from its cells' bounds ``(lo, hi)`` (:func:`table_cells`' order) and the targets
    by seat.

    Raises:
        ValueError: ``allowed`` holds none of the rules' contracts.
    """
    rules = pos.rules
    n = pos.n
    dealer = (pos.leader - 1) % n
    declarer = (dealer + rules.declarer_role) % n
    target = targets[declarer]
    # in minimum tricks the targets become ceilings (seed 003; rules.minimum_ceilings)
    ceiling = minimum_ceilings(tuple(targets))[declarer]
    contracts = [c for c in Contract if c.value < 4 or rules.has_nt_mt]
    rows: list[dict[str, Any]] = []
    for k, con in enumerate(contracts):
        mt = con is Contract.MINIMUM
        # a cell cut short by the time limit is narrowed by the others (the values add up to at most the tricks)
        cells = narrow_by_sum([[lo, hi] for lo, hi in bounds[k * n:(k + 1) * n]],
                              sum(pos.tricks) + pos.remaining, mt)
        lo, hi = cells[declarer]
        diff = [ceiling - hi, ceiling - lo] if mt else [lo - target, hi - target]
        total = sum(pos.tricks) + pos.remaining
        # the tricks the sure counts leave to the play (minimum tricks: how far the ceilings exceed the tricks)
        spread = sorted([total - sum(c[1] for c in cells), total - sum(c[0] for c in cells)])
        open_ = [-spread[1], -spread[0]] if mt else spread
        open_[0] = max(0, open_[0])  # the values add up to at most the tricks (minimum tricks: at least): never < 0
        rows.append({"contract": con.code, "word": con.word, "tricks": cells, "open": open_, "diff": diff,
                     "target": ceiling if mt else target, "allowed": allowed is None or con in allowed})
    best = max((r for r in rows if r["allowed"]), key=lambda r: (r["diff"][0], r["diff"][1]), default=None)
    if best is None:
        raise ValueError(f"allowed={allowed!r}: none of the rules' contracts ({', '.join(c.code for c in contracts)})")
    exact = best["diff"][0] == best["diff"][1]
    ties = [r["contract"] for r in rows if r is not best and r["allowed"] and exact and r["diff"] == best["diff"]]
    # uncertain only when another contract may do better: cut-short cells elsewhere that surely do worse change nothing
    certain = not any(r["diff"][1] > best["diff"][0] for r in rows if r is not best and r["allowed"])
    return {"leader": pos.leader, "dealer": dealer, "declarer": declarer, "target": target,
            "total": sum(pos.tricks) + pos.remaining, "rows": rows,
            "best": best["contract"], "best_all": [best["contract"], *ties], "certain": certain}


def biggest_mistakes(plays: list[dict[str, Any]], top: int) -> list[dict[str, Any]]:
    """The ``top`` plays (``analyze_deal``'s) that surely cost their player a trick or more, the dearest first: a
    card whose cost the time limit left open counts by what it surely cost (its ``cost_range``'s low end), ties
    by the high end, then the earlier trick first."""
    return sorted((p for p in plays if p["cost_range"][0] > 0),
                  key=lambda p: (-p["cost_range"][0], -p["cost_range"][1], p["trick"]))[:top]


def card_cost(value: tuple[int, int], played: tuple[int, int], misere: bool) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` on what a card cost its player in double-dummy tricks, from bounds on the player's
    value before it and on its value after the card (whole-deal tricks, ``lo <= hi``): the value minus the
    value after (in minimum tricks the other way round), never below 0 as no card beats the value.
    ``lo == hi`` when the cost is known."""
    if misere:
        lo, hi = played[0] - value[1], played[1] - value[0]
    else:
        lo, hi = value[0] - played[1], value[1] - played[0]
    lo = max(0, lo)
    return lo, max(lo, hi)


def seat_losses(plays: list[dict[str, Any]], tricks: int) -> dict[str, int]:
    """A seat's tricks lost in a deal of ``tricks`` tricks, from its cards' entries (:func:`play_entry`).

    ``lost`` is what its mistakes surely cost (the low ends of the costs); ``unsettled`` counts its cards whose cost
    a search cut short left a range ``lo..hi``; ``lost_max`` is the most the costs can add up to: ``lost`` when every
    cost is known, else the high ends added up but never more than the deal's tricks, what a player can lose in a
    deal (the high ends alone, each up to the tricks left, added up to 49 of a 16-trick deal without numba).
    ``mistakes`` counts the cards that surely cost a trick or more, ``cards`` all of them."""
    lost = sum(p["cost_range"][0] for p in plays)
    unsettled = sum(1 for p in plays if p["cost_range"][0] < p["cost_range"][1])
    lost_max = max(lost, min(sum(p["cost_range"][1] for p in plays), tricks)) if unsettled else lost
    return {"lost": lost, "lost_max": lost_max, "unsettled": unsettled,
            "mistakes": sum(1 for p in plays if p["cost_range"][0] > 0), "cards": len(plays)}


def play_start(deal: Deal) -> Position:
    """The position when the play of ``deal`` began (hands after the kitty, discards and exchange).

    Raises:
        PositionError: when the deal never reached the play.
    """
    if deal.contract is None or not (deal.completed or deal.trick or deal.phase.value == "play"):
        raise PositionError(f"deal {deal.number} never reached the play")
    n = deal.n
    hands = list(deal.hands)
    for t in deal.completed:
        for s, card in t.cards:
            hands[s] |= 1 << card.id
    for s, cid in deal.trick:
        hands[s] |= 1 << cid
    leader = deal.completed[0].leader if deal.completed else deal.leader
    return Position(deal.rules, deal.contract, leader, (0,) * n, tuple(hands), ())


def deal_targets(deal: Deal) -> tuple[int, ...]:
    """The targets of ``deal`` by seat before its contract: the dealer's assignment with ``dealer-assigns-targets``
    (docs/rules.md reference options, seed 002), else the rules' targets by role from the dealer; never minimum tricks' ceilings
    (``deal.targets`` holds those once MT is named)."""
    for action in deal.history:
        if isinstance(action, AssignTargets):
            return tuple(action.targets)
    return tuple(deal.rules.targets[(s - deal.dealer) % deal.n] for s in range(deal.n))


def deal_plays(deal: Deal) -> list[tuple[int, int, int]]:
    """The cards played in ``deal``, in order: ``(trick number from 1, seat, card id)``."""
    seq: list[tuple[int, int, int]] = []
    for k, t in enumerate(deal.completed, 1):
        for s, card in t.cards:
            seq.append((k, s, card.id))
    for s, cid in deal.trick:
        seq.append((len(deal.completed) + 1, s, cid))
    return seq


def mark_of(cost_range: tuple[int, int] | list[int]) -> Mark:
    """The :class:`Mark` of a card from its cost's bounds ``[lo, hi]`` (tricks)."""
    lo, hi = cost_range
    return Mark.MISTAKE if lo > 0 else Mark.BEST if hi == 0 else Mark.UNCLEAR


def play_entry(misere: bool, trick: int, seat: int, cid: int, value: tuple[int, int], played: tuple[int, int],
               best: list[str]) -> dict[str, Any]:
    """One card of a review: ``value`` bounds on its player's tricks before it, ``played`` after it (narrowed: no card
    is better for its player than the value - in minimum tricks none lower), the cost, the best cards, the mark."""
    played = (max(played[0], value[0]), played[1]) if misere else (played[0], min(played[1], value[1]))
    lo_c, hi_c = card_cost(value, played, misere)
    return {"trick": trick, "seat": seat, "card": str(CARDS[cid]), "value": list(value), "played": list(played),
            "cost": lo_c if lo_c == hi_c else None, "cost_range": [lo_c, hi_c], "best": best,
            "mark": mark_of((lo_c, hi_c)).value}


def review_plays(start: Position, plays_seq: list[tuple[int, int, int]], solver: Solver, time_limit: float | None,
                 progress: Progress | None = None) -> tuple[list[dict[str, Any]], Solution | None]:
    """Each card of ``plays_seq`` (``(trick number, seat, card id)``, played in turn from ``start``) as
    :func:`play_entry` gives it, from :func:`card_review` of each position for its player; and the first card's
    (``None`` without cards). The positions are solved from the last backwards, so the small ones fill the solver's
    table that the big ones then use. ``progress`` is called once per card.

    Raises:
        PositionError: a card that its player does not hold.
    """
    positions = [start]
    for _, _, cid in plays_seq:
        positions.append(positions[-1].play_unchecked(cid))
    plays: list[dict[str, Any]] = [{}] * len(plays_seq)
    first_sol: Solution | None = None
    for i in range(len(plays_seq) - 1, -1, -1):
        k, s, cid = plays_seq[i]
        pos = positions[i]
        sol = card_review(pos, s, cid, solver, time_limit)
        if i == 0:
            first_sol = sol
        pb = sol.card_bounds.get(CARDS[cid])
        played = pb if pb is not None else (pos.tricks[s], pos.tricks[s] + pos.remaining)
        plays[i] = play_entry(start.misere, k, s, cid, (sol.lower, sol.upper), (played[0], played[1]),
                              [str(b) for b in sol.best_cards()])
        _tick(progress)
    return plays, first_sol


def card_review(pos: Position, seat: int, played: int, solver: Solver, time_limit: float | None) -> Solution:
    """What a review needs of the position where ``seat`` plays card id ``played``: the seat's value, the played
    card's value and which cards are best, with :meth:`Solver.solve`'s answer (``card_bounds`` for every legal
    card; ``exact`` false as not every card's value is sought) in fewer searches: the value, then for each group of
    equivalent cards one zero-window test "does it keep the value?" (a card that does has the value; one that does
    not, at most the value less one - in minimum tricks at least one more), and the played card's exact value
    only when it does not keep it. ``time_limit`` seconds hold for the position; if a search runs out of them the
    position is solved as :meth:`Solver.solve` does (each card's value), within ``time_limit`` seconds more.
    A seat with one group of cards (or not to move) gets :meth:`Solver.solve`'s answer at once."""
    groups = equivalent_groups(pos) if seat == pos.to_move and not pos.over else []
    if len(groups) <= 1:
        return solver.solve(pos, seat, time_limit=time_limit)
    n0 = solver.nodes
    end = None if time_limit is None else solver.clock() + time_limit

    def left() -> float | None:
        return None if end is None else max(end - solver.clock(), 0.0)

    base, top = pos.tricks[seat], pos.tricks[seat] + pos.remaining
    whole = solver.value(pos, seat, time_limit=left())
    if not whole.exact:
        return solver.solve(pos, seat, time_limit=time_limit)
    v = whole.tricks
    worse = (v + 1, top) if pos.misere else (base, v - 1)  # a card that does not keep the value
    bounds: dict[Card, tuple[int, int]] = {}
    values: dict[Card, int] = {}
    for group in groups:
        child = pos.play_unchecked(group[0])
        try:
            keeps = solver.can_reach(child, seat, v, time_limit=left())
            if keeps:
                b = (v, v)
            elif played in group:
                sol = solver.value(child, seat, time_limit=left())
                if not sol.exact:
                    return solver.solve(pos, seat, time_limit=time_limit)
                b = (sol.tricks, sol.tricks)
            else:
                b = worse
        except SolverTimeout:
            return solver.solve(pos, seat, time_limit=time_limit)
        for c in group:
            bounds[CARDS[c]] = b
            if b[0] == b[1]:
                values[CARDS[c]] = b[0]
    return Solution(seat, v, v, v, False, values, solver.nodes - n0, pos.misere,
                    dict(sorted(bounds.items(), key=lambda kv: kv[0].id)))


def review_deal(deal: Deal, solver: Solver, time_limit: float | None, table: bool = True,
                top: int | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Double-dummy review of a played deal: the table at the start of the play (if ``table``), then each
    card's cost to its player, its mark, the mistakes (the ``top`` dearest, all when ``None``) and per seat the
    tricks lost. ``progress`` is called once per card and per table cell (:func:`review_units` counts them).

    Returns:
        ``{"deal", "contract", "declarer", "start", "table", "plays": [{"trick", "seat", "card", "value", "played",
        "cost", "cost_range", "best", "mark"}], "mistakes", "seats": [{"seat", "tricks", "lost", "lost_max",
        "unsettled", "mistakes", "cards"}], "tricks"}``; ``value``/``played`` are ``[lo, hi]`` ranges (the player's whole-deal
        tricks before the card and after it, all playing on double dummy), ``cost`` ``None`` when the time limit
        left it open, ``cost_range`` its bounds then (:func:`card_cost`); ``mistakes`` are plays that surely cost a
        trick or more, dearest first; a seat's ``lost`` is the tricks its mistakes surely cost (``lost_max`` at
        most, ``unsettled`` its cards whose cost is a range: :func:`seat_losses`), ``tricks`` what it took (``None``
        for a deal not finished).

    Raises:
        PositionError: the deal never reached the play.
    """
    return review_deals([deal], solver, time_limit, table=table, top=top, progress=progress)[0]


class _DealWork:
    """A deal's review in the making: its start, cards, table cells (``table_cells``' order) and what the searches
    found so far."""

    def __init__(self, deal: Deal, table: bool) -> None:
        self.deal = deal
        self.start = play_start(deal)
        self.seq = deal_plays(deal)
        self.plays: list[dict[str, Any]] = []
        self.first: Solution | None = None
        self.cells_of = table_cells(self.start) if table else []
        self.cells: list[tuple[int, int]] = [(0, 0)] * len(self.cells_of)

    def chain(self, time_limit: float | None, progress: Progress | None) -> Callable[[Solver], None]:
        """The task of the cards and then the table cells of the contract played, on one solver: the cards' searches
        fill its table with the positions that those cells' searches meet. The first card's position is the
        table's: its value is the leader's cell, not searched again when exact."""
        def run(sv: Solver) -> None:
            self.plays, self.first = review_plays(self.start, self.seq, sv, time_limit, progress)
            for k, (p, s) in enumerate(self.cells_of):
                if p.contract is not self.start.contract:
                    continue
                first = self.first
                if first is not None and s == first.seat and first.lower == first.upper:
                    self.cells[k] = (first.lower, first.upper)
                else:
                    sol = sv.value(p, s, time_limit=time_limit)
                    self.cells[k] = (sol.lower, sol.upper)
                _tick(progress)
        return run

    def cell(self, k: int, time_limit: float | None, progress: Progress | None) -> Callable[[Solver], None]:
        """The task of table cell ``k``."""
        def run(sv: Solver) -> None:
            p, s = self.cells_of[k]
            sol = sv.value(p, s, time_limit=time_limit)
            self.cells[k] = (sol.lower, sol.upper)
            _tick(progress)
        return run

    def result(self, top: int | None) -> dict[str, Any]:
        """:func:`review_deal`'s result once the tasks have run."""
        deal, start, plays_seq, plays, first_sol = self.deal, self.start, self.seq, self.plays, self.first

        def entry(i: int, value: tuple[int, int], played: tuple[int, int], best: list[str]) -> dict[str, Any]:
            k, s, cid = plays_seq[i]
            return play_entry(start.misere, k, s, cid, value, played, best)

        out: dict[str, Any] = {"deal": deal.number, "contract": start.contract.code, "declarer": deal.declarer,
                               "start": start.text(), "plays": plays, "mistakes": []}
        if self.cells_of:
            out["table"] = table_rows(start, self.cells, table_targets(start, deal_targets(deal)), deal.allowed_contracts)
            if plays and first_sol is not None:  # the first card's position is the table's: its cell is a search of the same value
                first = plays[0]
                for row in out["table"]["rows"]:
                    if row["contract"] == start.contract.code:
                        lo, hi = row["tricks"][first["seat"]]
                        value = (max(first["value"][0], lo), min(first["value"][1], hi))
                        if value[0] <= value[1]:
                            best = dataclasses.replace(first_sol, lower=value[0], upper=value[1]).best_cards()
                            plays[0] = entry(0, value, (first["played"][0], first["played"][1]), [str(b) for b in best])
        out["mistakes"] = biggest_mistakes(plays, len(plays) if top is None else top)
        taken = list(deal.result.tricks) if deal.result is not None else None
        out["seats"] = [{"seat": s, "tricks": None if taken is None else taken[s],
                         **seat_losses([p for p in plays if p["seat"] == s], start.remaining)} for s in range(deal.n)]
        if taken is not None:
            out["tricks"] = taken
        return out


def review_deals(deals: list[Deal], solver: Solver, time_limit: float | None, table: bool = True,
                 top: int | None = None, progress: Progress | None = None, jobs: int | None = None) -> list[dict[str, Any]]:
    """:func:`review_deal` of each of ``deals``, their searches spread over ``jobs`` threads (default
    :func:`table_jobs`; :func:`run_tasks`): per deal one task of its cards and then its table's cells of the contract
    played (one solver: the cards' searches serve those cells), then every other cell a task of its own; the long
    tasks (cards) first, so that the cells fill the cores to the end. The values do not depend on ``jobs``;
    ``time_limit`` holds for each search (a card's position, a cell).

    Raises:
        PositionError: a deal that never reached the play.
        ValueError: ``jobs`` below 1.
    """
    jobs = table_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r} must be at least 1")
    works = [_DealWork(d, table) for d in deals]
    tasks = [w.chain(time_limit, progress) for w in works]
    tasks += [w.cell(k, time_limit, progress) for w in works for k, (p, _) in enumerate(w.cells_of)
              if p.contract is not w.start.contract]
    run_tasks(tasks, solver, jobs)
    return [w.result(top) for w in works]


def analyze_deal(deal: Deal, solver: Solver, time_limit: float | None, table: bool = True,
                 top: int = 5) -> dict[str, Any]:
    """:func:`review_deal` keeping the ``top`` dearest mistakes (``sergeant-major analyze FILE --deal N``)."""
    return review_deal(deal, solver, time_limit, table=table, top=top)


def reviewable(match: Match) -> list[Deal]:
    """The deals of ``match`` whose play began (a deal still in its exchange or contract has no card to review)."""
    return [d for d in match.deals if d.contract is not None and (d.completed or d.trick or d.phase.value == "play")]


def review_units(match: Match, table: bool = True, deals: list[int] | None = None) -> int:
    """How many searches :func:`review_match` runs (one per card played and per table cell): its progress total."""
    total = 0
    for d in reviewable(match):
        if deals is not None and d.number not in deals:
            continue
        total += len(deal_plays(d))
        if table:
            total += d.n * sum(1 for c in Contract if c.value < 4 or d.rules.has_nt_mt)
    return total


def review_match(match: Match, solver: Solver | None = None, time_limit: float | None = 5.0, table: bool = True,
                 names: list[str] | None = None, deals: list[int] | None = None,
                 progress: Progress | None = None, jobs: int | None = None) -> dict[str, Any]:
    """Double-dummy review of every deal of ``match`` that reached the play (``deals``: only those numbers, from 1).

    ``solver`` defaults to :func:`review_solver` with ``jobs`` threads; the searches of every deal are spread over
    ``jobs`` threads (:func:`review_deals`; default :func:`table_jobs`). ``time_limit`` seconds bound each search (a card's
    position, a table cell; ``None``: none). ``progress`` is called once per search (:func:`review_units` in all).

    Returns:
        ``{"review": REVIEW_VERSION, "rules", "names", "time_limit", "deals": [review_deal's], "seats": [{"seat",
        "name", "lost", "lost_max", "unsettled", "mistakes", "cards"}]}``, the seats' figures summed over the deals. It
        validates against :func:`review_schema`.

    Raises:
        ValueError: a deal number in ``deals`` that the match does not have, or ``jobs`` below 1.
    """
    n = match.rules.players
    jobs = table_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r} must be at least 1")
    if deals is not None:
        bad = [k for k in deals if not 1 <= k <= len(match.deals)]
        if bad:
            raise ValueError(f"deals={bad!r}: the match has deals 1..{len(match.deals)}")
    if solver is None:
        solver = review_solver(jobs)
    warm_up()
    out_deals = review_deals([d for d in reviewable(match) if deals is None or d.number in deals], solver, time_limit,
                             table=table, progress=progress, jobs=jobs)
    names = list(names) if names is not None else list(match.names)
    seats = [{"seat": s, "name": names[s],
              **{k: sum(d["seats"][s][k] for d in out_deals) for k in ("lost", "lost_max", "unsettled", "mistakes", "cards")}}
             for s in range(n)]
    return {"review": REVIEW_VERSION, "rules": str(match.rules), "names": names, "time_limit": time_limit,
            "deals": out_deals, "seats": seats}


def review_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`review_match`'s result, shipped as ``review_schema.json``; it also
    takes ``analyze --json``'s deal (:func:`analyze_deal` with ``names``) and position analyses."""
    text = resources.files("sergeant_major.search").joinpath("review_schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
