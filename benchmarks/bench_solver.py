"""Double-dummy solver timings (issue 5): median, p95 and max over random positions per size.

Sizes: a whole 16-trick deal from the opening lead and positions with 8 tricks left (trick start), under
9-5-2 (trump suits) by default. Each position is solved for the seat to move (its paranoid value, no
per-card values) by a fresh :class:`Solver` per size whose table is kept across positions, as a search
player would. With one thread (the default) times are the process's CPU time (on an idle machine this
equals the wall time; on a shared, loaded machine it is the fair figure), wall times are reported too. With
``--threads N`` (helper threads, Lazy SMP: ``Solver(threads=N)``) the times are wall times (the CPU time
adds up the threads), and the machine should be idle. A position that runs into ``--limit`` seconds counts at
its elapsed time and is reported.

``--contract MT`` (or ``NT``, ``S``, ...) fixes the contract of every position where the rules offer it (3-5-8:
``--rules 3-5-8 --contract MT`` times minimum-tricks deals); by default each position draws one as a deal would.

Run: ``python benchmarks/bench_solver.py [--positions N] [--sizes 16 8] [--rules 9-5-2] [--contract C]
[--limit S] [--threads N]``.
Prints a table and one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from sergeant_major import Contract, Rules
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.search import HAVE_NUMBA, Solver
from sergeant_major.search.position import random_position


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def bench(rules: Rules, size: int, count: int, limit: float, seed: int, threads: int = 1,
          contract: Contract | None = None) -> dict[str, object]:
    rng = random.Random(seed)
    positions = [random_position(rules, rng, size, contract=contract) for _ in range(count)]
    solver = Solver(clock=time.process_time if threads == 1 else time.perf_counter, threads=threads)
    solver.value(random_position(rules, random.Random(0), 3), 0)  # compile / load the cache
    times: list[float] = []
    walls: list[float] = []
    nodes: list[int] = []
    timeouts = 0
    for pos in positions:
        n0 = solver.nodes
        t0 = time.process_time()
        w0 = time.perf_counter()
        sol = solver.value(pos, pos.to_move, time_limit=limit)
        times.append(time.process_time() - t0)
        walls.append(time.perf_counter() - w0)
        nodes.append(solver.nodes - n0)
        timeouts += not sol.exact
        print(f"  {len(times):3d}: {times[-1] * 1000:9.1f} ms cpu {walls[-1] * 1000:9.1f} ms wall {nodes[-1]:>10} nodes "
              f"value {sol.lower}..{sol.upper}", file=sys.stderr, flush=True)
    cpu = [t * 1000 for t in times]
    wall = [t * 1000 for t in walls]
    ms = cpu if threads == 1 else wall
    return {
        "rules": str(rules), "contract": contract.code if contract is not None else None, "tricks_left": size, "positions": count, "limit_s": limit, "threads": threads,
        "clock": "process CPU time" if threads == 1 else "wall time",
        "median_ms": round(statistics.median(ms), 3), "p95_ms": round(pct(ms, 0.95), 3), "max_ms": round(max(ms), 3),
        "mean_ms": round(statistics.mean(ms), 3), "median_nodes": int(statistics.median(nodes)),
        "max_nodes": max(nodes), "timeouts": timeouts,
        "nodes_per_cpu_s": int(sum(nodes) / max(sum(times), 1e-9)), "cpu_median_ms": round(statistics.median(cpu), 3),
        "wall_median_ms": round(statistics.median(wall), 3), "wall_p95_ms": round(pct(wall, 0.95), 3),
        "wall_max_ms": round(max(wall), 3),
    }


def seed_arg(text: str) -> int:
    """``--seed``: an int of 0 or more (``random.Random`` takes a negative seed's absolute value, so ``-1`` would
    silently run seed 1's positions)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more (random.Random({v}) is random.Random({-v}))")
    return v


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--contract", default=None, help="C D H S NT MT: every position's contract (default: drawn)")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per position")
    ap.add_argument("--seed", type=seed_arg, default=2026)
    ap.add_argument("--threads", type=int, default=1, help="search threads per position (Solver(threads=N))")
    a = ap.parse_args()
    try:
        rules = Rules.parse(a.rules)
    except SergeantMajorError as e:
        ap.error(f"--rules {a.rules!r}: {e}")
    contract = None
    if a.contract is not None:
        try:
            contract = Contract.parse(a.contract)
        except (SergeantMajorError, ValueError) as e:
            ap.error(f"--contract {a.contract!r}: {e}")
        if contract.trump is None and not rules.has_nt_mt:
            ap.error(f"--contract {a.contract!r}: {str(rules)!r} has no no-trump or minimum-tricks deals (contracts=suits-nt-mt)")
    if a.positions < 1:
        ap.error(f"--positions {a.positions}: give 1 or more")
    for size in a.sizes:
        if not 1 <= size <= rules.tricks:
            ap.error(f"--sizes {size}: give tricks left in 1..{rules.tricks}")
    if not 1 <= a.threads <= 64:
        ap.error(f"--threads {a.threads}: give 1..64")
    if not 0 < a.limit < float("inf"):
        ap.error(f"--limit {a.limit}: give a positive number of seconds")
    print(f"numba={HAVE_NUMBA}")
    results = []
    for size in a.sizes:
        r = bench(rules, size, a.positions, a.limit, a.seed + size, a.threads, contract)
        results.append(r)
        print(f"{size:2d} tricks left, {r['positions']} positions, {a.threads} thread(s), {r['clock']}: median {r['median_ms']} ms, p95 {r['p95_ms']} ms, "
              f"max {r['max_ms']} ms, mean {r['mean_ms']} ms, median nodes {r['median_nodes']}, "
              f"{r['nodes_per_cpu_s']} nodes per CPU second, "
              f"timeouts {r['timeouts']} (limit {a.limit} s)", flush=True)
    print(json.dumps({"numba": HAVE_NUMBA, "results": results}))


if __name__ == "__main__":
    main()
