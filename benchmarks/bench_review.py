"""Reviewing whole matches (issue 36): wall time of ``review_match`` on finished matches, warm (kernels compiled).

Each match is played by three ``heuristic`` players from its seed (``--seed`` + k), then reviewed double dummy as
``sergeant-major review FILE`` does (every deal, the table per contract, its searches spread over ``table_jobs()``
threads, ``--limit`` seconds per search). Reports per match the deals, the searches, the wall time (``dd s``: of it the
double-dummy part; ``--expert`` adds the expert's estimate of each card), the process's CPU time (every thread: on a
machine shared with other jobs the figure that does not depend on their load) and how many values a time limit left
as ranges. Goal: a whole 9-5-2 match in at most 20 s warm.

Run: ``python benchmarks/bench_review.py [--matches 5] [--rules 9-5-2] [--limit 5] [--no-table]``. Prints a table
and one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from sergeant_major import HeuristicPlayer, Match, Rules, drive
from sergeant_major.eval.review import add_expert_estimates
from sergeant_major.players.expert import warm_up as warm_up_expert
from sergeant_major.search import HAVE_NUMBA
from sergeant_major.search.review import review_match, review_solver, review_units, table_jobs
from sergeant_major.search.solver import warm_up


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=5)
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--limit", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--no-table", action="store_true")
    ap.add_argument("--expert", action="store_true", help="also the expert's estimate of each card (as review does by default)")
    args = ap.parse_args()
    warm_up()
    if args.expert:
        warm_up_expert()
    rows = []
    print(f"numba: {HAVE_NUMBA}, threads {table_jobs()}")
    print(f"{'seed':>6} {'deals':>6} {'searches':>9} {'wall s':>8} {'dd s':>8} {'cpu s':>8} {'ranges':>7}")
    for k in range(args.matches):
        m = Match(Rules.parse(args.rules), seed=args.seed + k)
        drive(m, [HeuristicPlayer(), HeuristicPlayer(), HeuristicPlayer()])
        t0, c0 = time.perf_counter(), time.process_time()
        r = review_match(m, review_solver(table_jobs()), args.limit, table=not args.no_table)
        dd = time.perf_counter() - t0
        if args.expert:
            add_expert_estimates(m, r)
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        ranges = sum(1 for d in r["deals"] for p in d["plays"] if p["cost"] is None)
        ranges += sum(1 for d in r["deals"] for row in d.get("table", {}).get("rows", [])
                      for c in row["tricks"] if c[0] != c[1])
        rows.append({"seed": args.seed + k, "deals": len(m.deals), "searches": review_units(m, not args.no_table),
                     "wall": round(wall, 2), "double_dummy": round(dd, 2), "cpu": round(cpu, 2), "ranges": ranges})
        print(f"{args.seed + k:6d} {len(m.deals):6d} {rows[-1]['searches']:9d} {wall:8.2f} {dd:8.2f} {cpu:8.2f} {ranges:7d}", flush=True)
    walls = [r["wall"] for r in rows]
    print(f"median {statistics.median(walls):.2f} s, max {max(walls):.2f} s a match; "
          f"{sum(r['wall'] for r in rows) / sum(r['deals'] for r in rows):.2f} s a deal")
    print(json.dumps({"rules": args.rules, "limit": args.limit, "matches": rows}))


if __name__ == "__main__":
    main()
