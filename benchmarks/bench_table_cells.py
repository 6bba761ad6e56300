"""Double-dummy table cells of reviewed matches (issue 36): the search nodes of every cell, one thread, untimed.

Each match is played by three ``heuristic`` players from its seed (``--seed`` + k), as ``bench_review.py`` plays it;
every deal that reached the play gets its table at the opening lead (``review.table_cells``: per contract, per
seat, one whole-deal search of that seat against the other two). Each cell is searched alone, on an empty table (a
fresh :class:`Solver`, one thread, no time limit), so its node count depends on neither the machine's load nor the
order of the cells; a cell stops at ``--cap`` nodes and is reported as cut short (``>``). Node counts, not times,
are the measure: compare two versions of the code by them (``PYTHONPATH=OLD/src`` against ``NEW/src``).

``--detail`` also lists, for the cells of at least that many nodes, each zero-window test of the search ("can the
seat make ``t`` more tricks?", stepped from the first guess as the solver steps) and its nodes.

Run: ``python benchmarks/bench_table_cells.py [--matches 5] [--seed 100] [--cap 300000000] [--top 15]
[--detail N] [--only SEED:DEAL:CONTRACT:SEAT ...]``. Prints every cell (stderr), the dearest cells, the totals and
one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from sergeant_major import HeuristicPlayer, Match, Rules, drive
from sergeant_major.search import HAVE_NUMBA, Solver
from sergeant_major.search.position import Position
from sergeant_major.search.review import play_start, reviewable, table_cells
from sergeant_major.search.solver import KNOBS, warm_up


class CapReached(Exception):
    """A cell's search ran into the node cap; ``lo``/``hi`` are the bounds it reached (remaining tricks)."""

    def __init__(self, lo: int, hi: int) -> None:
        super().__init__(f"cut short at {lo}..{hi}")
        self.lo = lo
        self.hi = hi


class CappedSolver(Solver):
    """A :class:`Solver` whose untimed searches stop after ``cap`` nodes in all (raising :class:`CapReached`), and
    that records each zero-window test's nodes when ``tests`` is a list."""

    def __init__(self, cap: int, tt_bits: int | None = None) -> None:
        super().__init__(tt_bits)
        self.cap = cap
        self.tests: list[tuple[int, bool, int]] | None = None
        self.spent = 0

    def _slice(self, pos: Position, seat: int, hands: Any, trick: Any, lo: int, hi: int, guess: int, budget: int,
               learn: bool) -> tuple[int, int, int, bool]:
        left = self.cap - self.spent
        if self.tests is None:
            n0 = self.nodes
            out = super()._slice(pos, seat, hands, trick, lo, hi, guess, min(budget, left), learn)
            self.spent += self.nodes - n0
            if out[3] and out[0] < out[1]:
                raise CapReached(out[0], out[1])
            return out
        # one test at a time, stepping as the kernel does (from the guess while inside the bounds, else bisecting)
        g = guess
        while lo < hi:
            t = g if lo < g <= hi else (lo + hi + 1) // 2
            n0 = self.nodes
            lo2, hi2, _, aborted = super()._slice(pos, seat, hands, trick, t - 1, t, t, min(budget, left), learn)
            used = self.nodes - n0
            self.spent += used
            left -= used
            if aborted:
                raise CapReached(lo, hi)
            ok = lo2 >= t
            self.tests.append((t, ok, used))
            if ok:
                lo, g = t, t + 1
            else:
                hi, g = t - 1, t - 1
        return lo, hi, g, False


def matches(rules: Rules, seeds: list[int]) -> list[tuple[int, Match]]:
    """The matches of ``seeds``, each played out by three ``heuristic`` players (as ``bench_review.py`` does)."""
    out = []
    for seed in seeds:
        m = Match(rules, seed=seed)
        drive(m, [HeuristicPlayer(), HeuristicPlayer(), HeuristicPlayer()])
        out.append((seed, m))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=5)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--cap", type=int, default=300_000_000, help="nodes at which a cell's search stops")
    ap.add_argument("--tt-bits", type=int, default=None, help="the solvers' table size (Solver(tt_bits=...))")
    ap.add_argument("--knob", nargs="*", default=[], metavar="NAME=VALUE",
                    help="set a solver knob for every cell: one of sergeant_major.search.solver.KNOBS (e.g. probe_first=50000) or guess_shade")
    ap.add_argument("--top", type=int, default=15, help="how many of the dearest cells to list")
    ap.add_argument("--detail", type=int, default=0, metavar="N",
                    help="list the zero-window tests of the cells of N nodes or more (0: none)")
    ap.add_argument("--only", nargs="*", default=None, metavar="SEED:DEAL:CONTRACT:SEAT",
                    help="search only these cells (e.g. 100:1:H:1)")
    a = ap.parse_args()
    if a.matches < 1 or a.cap < 1:
        ap.error("--matches and --cap: give 1 or more")
    rules = Rules.parse(a.rules)
    only = None
    if a.only is not None:
        try:
            only = {(int(s), int(d), c.upper(), int(t)) for s, d, c, t in (x.split(":") for x in a.only)}
        except ValueError:
            ap.error(f"--only {a.only!r}: give SEED:DEAL:CONTRACT:SEAT, e.g. 100:1:H:1")
    knobs: dict[str, float] = {}
    for kv in a.knob:
        name, _, value = kv.partition("=")
        try:
            knobs[name] = int(value) if name in KNOBS else float(value)
        except ValueError:
            knobs[name] = -1
        if name not in (*KNOBS, "guess_shade") or knobs[name] <= 0:
            ap.error(f"--knob {kv!r}: give NAME=VALUE, NAME one of {', '.join(KNOBS)} (a count) or guess_shade")
    warm_up()
    print(f"numba={HAVE_NUMBA}, cap {a.cap:,} nodes")
    cells: list[dict[str, Any]] = []
    t_all = time.process_time()
    for seed, m in matches(rules, list(range(a.seed, a.seed + a.matches))):
        for deal in reviewable(m):
            start = play_start(deal)
            for pos, seat in table_cells(start):
                key = (seed, deal.number, pos.contract.code, seat)
                if only is not None and key not in only:
                    continue
                solver = CappedSolver(a.cap, a.tt_bits)
                for name, value in knobs.items():
                    setattr(solver, name, value)
                t0 = time.process_time()
                row: dict[str, Any] = {"seed": seed, "deal": deal.number, "contract": pos.contract.code, "seat": seat,
                                       "leader": pos.leader, "played": pos.contract is start.contract}
                try:
                    row["guess"] = solver._guess(pos, seat, 0, pos.remaining)
                    sol = solver.value(pos, seat)
                    row.update(value=sol.tricks, exact=True)
                except CapReached as e:
                    row.update(value=[e.lo, e.hi], exact=False)
                row["nodes"] = solver.spent
                row["cpu_s"] = round(time.process_time() - t0, 3)
                if a.detail and solver.spent >= a.detail:
                    solver = CappedSolver(a.cap, a.tt_bits)
                    for name, value in knobs.items():
                        setattr(solver, name, value)
                    solver.tests = []
                    try:
                        solver.value(pos, seat)
                    except CapReached:
                        pass
                    row["tests"] = solver.tests
                cells.append(row)
                v = row["value"] if row["exact"] else f"{row['value'][0]}..{row['value'][1]}"
                print(f"  {seed} deal {deal.number} {row['contract']:2} seat {seat} (leader {pos.leader}): value {v!s:>6} "
                      f"guess {row['guess']:2d} {'' if row['exact'] else '>'}{row['nodes']:>12,} nodes "
                      f"{row['cpu_s']:8.2f} s" + (f"  tests {row['tests']}" if "tests" in row else ""),
                      file=sys.stderr, flush=True)
    total = sum(r["nodes"] for r in cells)
    print(f"{len(cells)} cells, {total:,} nodes in all, {sum(not r['exact'] for r in cells)} cut short at "
          f"{a.cap:,}; {time.process_time() - t_all:.1f} s CPU")
    for seed in sorted({r["seed"] for r in cells}):
        mine = [r for r in cells if r["seed"] == seed]
        print(f"  seed {seed}: {len(mine)} cells, {sum(r['nodes'] for r in mine):,} nodes")
    print(f"the {a.top} dearest cells:")
    for r in sorted(cells, key=lambda r: -r["nodes"])[:a.top]:
        print(f"  {r['seed']} deal {r['deal']} {r['contract']:2} seat {r['seat']}: {r['nodes']:>12,} nodes, value "
              f"{r['value']}, guess {r['guess']}" + (f", tests {r['tests']}" if "tests" in r else ""))
    print(json.dumps({"numba": HAVE_NUMBA, "cap": a.cap, "total_nodes": total, "cells": cells}))


if __name__ == "__main__":
    main()
