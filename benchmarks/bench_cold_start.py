"""Cold start (issue 36): the wall time of the first analysis, the first review of a deal and the first expert
move in a fresh process, with an empty numba cache (``NUMBA_CACHE_DIR`` a new folder) and then again with the
cache that first run left (warm), each in its own subprocess.

Cases:

* ``analyze``: ``sergeant-major analyze POSITION --no-table -t 5`` on a 9-5-2 deal at the opening lead;
* ``review``: ``sergeant-major review FILE --deal 1 --no-table`` of a recorded 9-5-2 match (seed 11);
* ``expert``: the ``expert`` player's first card of a 9-5-2 deal (its ``warm_up`` and one ``choose``);
* ``import``: ``import sergeant_major.search.solver`` and ``warm_up()`` only (the compile alone).

Run: ``python benchmarks/bench_cold_start.py [--cases analyze review expert import] [--repeats 1]``. Prints
a table and one JSON line at the end. Never run from a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
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
    if case == "expert":
        return [sys.executable, "-c", EXPERT]
    return [sys.executable, "-c", IMPORT]


def run(case: str, rec: Path, cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    t0 = time.perf_counter()
    res = subprocess.run(command(case, rec), env=env, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"{case} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="+", default=["import", "analyze", "review", "expert"],
                    choices=["import", "analyze", "review", "expert"])
    ap.add_argument("--repeats", type=int, default=1, help="cold runs per case (each with a new empty cache)")
    args = ap.parse_args()
    out: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        rec = record_file(Path(tmp))
        print(f"{'case':10} {'cold s':>10} {'warm s':>10}")
        for case in args.cases:
            cold, warm = [], []
            for r in range(args.repeats):
                cache = str(Path(tmp) / f"cache-{case}-{r}")
                cold.append(run(case, rec, cache))
                warm.append(run(case, rec, cache))
            out[case] = {"cold": cold, "warm": warm}
            print(f"{case:10} {min(cold):10.1f} {min(warm):10.1f}", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
