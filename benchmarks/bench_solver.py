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

``--dds N`` times DDS instead (Bo Haglund's and Soren Hein's bridge solver, in the OpenSpiel wheel: the ``bench``
extra) side by side with ours in one run: N random 13-trick bridge deals, each one ``SolveBoard`` (one thread,
a random trump suit and hand on lead, target -1 and solutions 1: the most tricks the side on lead makes), interleaved
with N whole deals of ours (``--rules``' tricks, a suit contract, one thread, value of the seat to move), and
reports both medians (CPU and wall) and the ratio ours / DDS.

Run: ``python benchmarks/bench_solver.py [--positions N] [--sizes 16 8] [--rules 9-5-2] [--contract C]
[--limit S] [--threads N] [--dds N]``.
Prints a table and one JSON line at the end.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import random
import statistics
import sys
import time

from sergeant_major import Contract, Rules
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.search import HAVE_NUMBA, Solver
from sergeant_major.search.position import Position, random_position


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


class DdsDeal(ctypes.Structure):
    """DDS's ``struct deal`` (dll.h): trump 0..3 = spades, hearts, diamonds, clubs (4 no-trump), ``first`` the hand
    on lead 0..3 = north, east, south, west, ``remainCards[hand][suit]`` a mask with bit 2 for the two .. bit 14
    for the ace."""

    _fields_ = [("trump", ctypes.c_int), ("first", ctypes.c_int), ("currentTrickSuit", ctypes.c_int * 3),
                ("currentTrickRank", ctypes.c_int * 3), ("remainCards", (ctypes.c_uint * 4) * 4)]


class DdsFutureTricks(ctypes.Structure):
    """DDS's ``struct futureTricks`` (dll.h): with solutions 1, ``score[0]`` is the most tricks of the side on lead."""

    _fields_ = [("nodes", ctypes.c_int), ("cards", ctypes.c_int), ("suit", ctypes.c_int * 13),
                ("rank", ctypes.c_int * 13), ("equals", ctypes.c_int * 13), ("score", ctypes.c_int * 13)]


def dds_library() -> ctypes.CDLL:
    """DDS's ``SolveBoard`` from OpenSpiel's extension module (which links DDS 2.9 in and exports its C API), set
    to one thread.

    Raises:
        RuntimeError: OpenSpiel is not installed (the ``bench`` extra) or its module lacks ``SolveBoard``.
    """
    try:
        import pyspiel
    except ImportError as e:
        raise RuntimeError(f"--dds needs OpenSpiel, which carries DDS: pip install '.[bench]' ({e})") from None
    lib = ctypes.CDLL(pyspiel.__file__)
    if not hasattr(lib, "SolveBoard") or not hasattr(lib, "SetMaxThreads"):
        raise RuntimeError(f"{pyspiel.__file__!r} does not export DDS's SolveBoard: an OpenSpiel built without bridge?")
    lib.SolveBoard.argtypes = [DdsDeal, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(DdsFutureTricks),
                               ctypes.c_int]
    lib.SolveBoard.restype = ctypes.c_int
    lib.SetMaxThreads.argtypes = [ctypes.c_int]
    lib.SetMaxThreads(1)
    return lib


def dds_deal(rng: random.Random) -> DdsDeal:
    """A random 13-trick bridge deal for DDS: cards shuffled and dealt 13 each, a random trump suit and hand on lead."""
    cards = list(range(52))
    rng.shuffle(cards)
    d = DdsDeal()
    d.trump = rng.randrange(4)
    d.first = rng.randrange(4)
    for i, c in enumerate(cards):
        d.remainCards[i // 13][c // 13] |= 1 << (2 + c % 13)
    return d


def bench_dds(rules: Rules, count: int, limit: float, seed: int, contract: Contract | None = None) -> dict[str, object]:
    """DDS's ``SolveBoard`` on ``count`` random bridge deals and our solver on ``count`` whole deals under ``rules``
    (suit contracts), alternately, each at one thread; medians of CPU and wall milliseconds and the ratios ours / DDS.

    Raises:
        RuntimeError: no DDS (:func:`dds_library`), or DDS returned an error code.
    """
    lib = dds_library()
    rng_dds = random.Random(seed)
    rng = random.Random(seed + 1)
    positions: list[Position] = []
    for _ in range(count):
        con = contract if contract is not None else Contract(rng.randrange(4))
        positions.append(random_position(rules, rng, rules.tricks, contract=con))
    solver = Solver(clock=time.process_time)
    solver.value(random_position(rules, random.Random(0), 3), 0)  # compile / load the cache
    fut = DdsFutureTricks()
    if lib.SolveBoard(dds_deal(random.Random(0)), -1, 1, 1, ctypes.byref(fut), 0) != 1:  # DDS's memory
        raise RuntimeError("DDS's SolveBoard failed on its first deal")
    cpu: dict[str, list[float]] = {"ours": [], "dds": []}
    wall: dict[str, list[float]] = {"ours": [], "dds": []}
    nodes: dict[str, list[int]] = {"ours": [], "dds": []}
    timeouts = 0
    for k, pos in enumerate(positions):
        d = dds_deal(rng_dds)
        t0, w0 = time.process_time(), time.perf_counter()
        code = lib.SolveBoard(d, -1, 1, 1, ctypes.byref(fut), 0)
        cpu["dds"].append((time.process_time() - t0) * 1000)
        wall["dds"].append((time.perf_counter() - w0) * 1000)
        if code != 1:
            raise RuntimeError(f"DDS's SolveBoard returned error {code} on deal {k + 1}")
        nodes["dds"].append(fut.nodes)
        n0 = solver.nodes
        t0, w0 = time.process_time(), time.perf_counter()
        sol = solver.value(pos, pos.to_move, time_limit=limit)
        cpu["ours"].append((time.process_time() - t0) * 1000)
        wall["ours"].append((time.perf_counter() - w0) * 1000)
        nodes["ours"].append(solver.nodes - n0)
        timeouts += not sol.exact
        print(f"  {k + 1:3d}: DDS {cpu['dds'][-1]:8.1f} ms cpu {wall['dds'][-1]:8.1f} ms wall {fut.nodes:>9} nodes, "
              f"{fut.score[0]:2d} tricks | ours {cpu['ours'][-1]:8.1f} ms cpu {wall['ours'][-1]:8.1f} ms wall "
              f"{nodes['ours'][-1]:>10} nodes, value {sol.lower}..{sol.upper}", file=sys.stderr, flush=True)
    out: dict[str, object] = {"rules": str(rules), "deals": count, "limit_s": limit, "threads": 1, "ours_timeouts": timeouts}
    for side in ("ours", "dds"):
        out[side] = {"cpu_median_ms": round(statistics.median(cpu[side]), 3), "wall_median_ms": round(statistics.median(wall[side]), 3),
                     "cpu_p95_ms": round(pct(cpu[side], 0.95), 3), "cpu_max_ms": round(max(cpu[side]), 3),
                     "cpu_mean_ms": round(statistics.mean(cpu[side]), 3), "median_nodes": int(statistics.median(nodes[side]))}
    for clock, ms in (("cpu", cpu), ("wall", wall)):
        out[f"ratio_{clock}"] = round(statistics.median(ms["ours"]) / max(statistics.median(ms["dds"]), 1e-9), 2)
    return out


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


def run_dds(a: argparse.Namespace, rules: Rules, contract: Contract | None) -> None:
    """``--dds N``: :func:`bench_dds`, its summary and its JSON line."""
    try:
        r = bench_dds(rules, a.dds, a.limit, a.seed, contract)
    except RuntimeError as e:
        sys.exit(f"bench_solver.py --dds: {e}")
    ours, dds = r["ours"], r["dds"]
    assert isinstance(ours, dict) and isinstance(dds, dict)
    print(f"{a.dds} deals each, one thread. DDS SolveBoard, 13-trick bridge deals: median {dds['cpu_median_ms']} ms CPU, "
          f"{dds['wall_median_ms']} ms wall. Ours, whole {rules.tricks}-trick {rules} deals (suit contracts): median "
          f"{ours['cpu_median_ms']} ms CPU, {ours['wall_median_ms']} ms wall, {r['ours_timeouts']} cut short at "
          f"{a.limit} s. Ours / DDS: {r['ratio_cpu']} (CPU), {r['ratio_wall']} (wall)", flush=True)
    print(json.dumps({"numba": HAVE_NUMBA, "dds": r}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--contract", default=None, help="C D H S NT MT: every position's contract (default: drawn)")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per position")
    ap.add_argument("--seed", type=seed_arg, default=2026)
    ap.add_argument("--threads", type=int, default=1, help="search threads per position (Solver(threads=N))")
    ap.add_argument("--dds", type=int, default=0, metavar="N",
                    help="instead: N bridge deals by DDS's SolveBoard and N whole deals of ours, alternately, one thread (needs the bench extra)")
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
    if a.dds < 0:
        ap.error(f"--dds {a.dds}: give a number of deals, 1 or more")
    if a.dds and contract is not None and contract.trump is None:
        ap.error(f"--dds with --contract {a.contract!r}: the comparison is of suit contracts (give C, D, H or S)")
    if a.dds and a.threads != 1:
        ap.error(f"--dds with --threads {a.threads}: the comparison is at one thread")
    print(f"numba={HAVE_NUMBA}")
    if a.dds:
        run_dds(a, rules, contract)
        return
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
