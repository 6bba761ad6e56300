"""Cold start (issue 36): the wall time of the first analysis, the first review of a deal and the first expert
move in a fresh process, with an empty numba cache (``NUMBA_CACHE_DIR`` a new folder) and then again with the
cache that first run left (warm), each in its own subprocess.

Cases:

* ``analyze``: ``sergeant-major analyze POSITION --no-table -t 5`` on a 9-5-2 deal at the opening lead;
* ``review``: ``sergeant-major review FILE --deal 1 --no-table --json`` of a recorded 9-5-2 match (seed 11);
* ``table``: ``sergeant-major review FILE --deal 1``, the form a user types (the double-dummy table per contract
  too, text to a pipe), of the same record;
* ``expert``: the ``expert`` player's first card of a 9-5-2 deal (its ``warm_up`` and one ``choose``);
* ``import``: ``import sergeant_major.search.solver`` and ``warm_up()`` only (the compile alone).

Each row: the command's wall time and its CPU time (its process and the second compiling process it waits for
(``warm_up``'s split compile), without a background compile it leaves running),
``bg s``: how long a background compile it left (the expert's search, see docs/solver.md) ran on after it exited
(waited for before the next run), and the same command again with the cache that left (warm).

Run: ``python benchmarks/bench_cold_start.py [--cases analyze review table expert import] [--repeats 1]``. Prints
a table and one JSON line at the end. Never run from a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POSITION = "9-5-2 | S | 1 | 0-0-0 | AKJT972..AQ64.AQJ42 / Q843.T843.K532.9873 / 65.AQJ95.JT987.KT65 | -"

EXPERT = """
import random
from sergeant_major import Match, Rules, HeuristicPlayer, drive
from sergeant_major.core.actions import Play
from sergeant_major.players.expert import ExpertPlayer, warm_up
m = Match(Rules.parse("9-5-2"), seed=3)
while m.deal.phase.value != "play":
    f = m.forced_action()
    if f is not None:
        m.apply(f)
        continue
    s = m.deal.to_act
    m.apply(HeuristicPlayer().choose(m.view(s), random.Random(s)))
warm_up()
a = ExpertPlayer().choose(m.view(m.deal.to_act), random.Random(1))
assert isinstance(a, Play)
"""

IMPORT = "from sergeant_major.search.solver import warm_up; warm_up()"


def record_file(folder: Path) -> Path:
    """A finished 9-5-2 match (seed 11, heuristic against random) written as a game record."""
    from sergeant_major import HeuristicPlayer, Match, RandomPlayer, Rules, drive
    from sergeant_major.records import write_record

    m = Match(Rules.parse("9-5-2"), seed=11)
    drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
    path = folder / "match.json"
    write_record(m, path, ["heuristic", "random", "random"])
    return path


def command(case: str, rec: Path) -> list[str]:
    cli = [sys.executable, "-m", "sergeant_major"]
    if case == "analyze":
        return [*cli, "analyze", POSITION, "--no-table", "-t", "5"]
    if case == "review":
        return [*cli, "review", str(rec), "--deal", "1", "--no-table", "--json"]
    if case == "table":
        return [*cli, "review", str(rec), "--deal", "1"]
    if case == "expert":
        return [sys.executable, "-c", EXPERT]
    return [sys.executable, "-c", IMPORT]


def leftover(pgid: int) -> bool:
    """Is a process of the command's session still running (the expert's background compile of the search)?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a process we may not signal: still there
        return True
    return True


def run(case: str, rec: Path, cache: str) -> tuple[float, float, float]:
    """Wall and CPU seconds of the command (its own process), then the seconds a background compile it left
    ran on after it (waited for, so that the next run starts on a quiet machine and a full cache)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(command(case, rec), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    _, err = proc.communicate(timeout=900)
    wall = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{case} failed ({proc.returncode}):\n{err[-2000:]}")
    while leftover(proc.pid):
        time.sleep(0.2)
    return wall, (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime), time.perf_counter() - t0 - wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="+", default=["import", "analyze", "review", "table", "expert"],
                    choices=["import", "analyze", "review", "table", "expert"])
    ap.add_argument("--repeats", type=int, default=1, help="cold runs per case (each with a new empty cache)")
    args = ap.parse_args()
    out: dict[str, dict[str, list[float]]] = {}
    print(f"load average at start: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        rec = record_file(Path(tmp))
        print(f"{'case':10} {'cold s':>8} {'cold cpu':>9} {'bg s':>6} {'warm s':>8} {'warm cpu':>9}")
        for case in args.cases:
            res: dict[str, list[float]] = {"cold": [], "cold_cpu": [], "background": [], "warm": [], "warm_cpu": []}
            for r in range(args.repeats):
                cache = str(Path(tmp) / f"cache-{case}-{r}")
                wall, cpu, bg = run(case, rec, cache)
                res["cold"].append(round(wall, 2))
                res["cold_cpu"].append(round(cpu, 2))
                res["background"].append(round(bg, 2))
                wall, cpu, _ = run(case, rec, cache)
                res["warm"].append(round(wall, 2))
                res["warm_cpu"].append(round(cpu, 2))
            out[case] = res
            print(f"{case:10} {min(res['cold']):8.1f} {min(res['cold_cpu']):9.1f} {min(res['background']):6.1f} "
                  f"{min(res['warm']):8.1f} {min(res['warm_cpu']):9.1f}", flush=True)
        out["load_average_end"] = {"1min": [round(os.getloadavg()[0], 2)]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
