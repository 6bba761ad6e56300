"""Decision time of the ``expert`` player over whole games (issue "Computer players that play well": median at
most 0.3 s and 95th percentile at most 1 s per decision, one process).

Plays whole matches (``--games``, seeds 0, 1, ...; each ends by the rules or after ``--max-deals``) with the expert
in seat 0 against two ``heuristic`` players and times every decision the expert is asked for (forced steps are
not decisions and are not asked). Times are CPU time of this process (``time.process_time``: fair on a shared,
loaded machine) and wall time; the first decision (numba loads its compiled kernels) is left out.

Run: ``python benchmarks/bench_expert.py [--rules 9-5-2] [--games 4] [--think 1.0] [--max-deals 6]``.
Prints a table per phase and one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from sergeant_major.bots.expert import ExpertPlayer
from sergeant_major.match import Match
from sergeant_major.players import HeuristicPlayer, decision_rng
from sergeant_major.rules import Rules


def _q(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(rules: Rules, games: int, think: float, max_deals: int) -> dict[str, object]:
    expert = ExpertPlayer(think=think)
    heur = HeuristicPlayer()
    cpu: dict[str, list[float]] = {}
    wall: list[float] = []
    first = True
    deals = 0
    for seed in range(games):
        m = Match(rules, seed)
        players = [expert] + [heur] * (rules.players - 1)
        while not m.over and len(m.deals) <= max_deals:
            f = m.forced_action()
            if f is not None:
                m.apply(f)
                continue
            s = m.to_act
            assert s is not None
            v = m.view(s)
            rng = decision_rng(seed, s, m.deal.number, len(m.deal.history))
            c0, w0 = time.process_time(), time.perf_counter()
            a = players[s].choose(v, rng)
            c1, w1 = time.process_time(), time.perf_counter()
            if s == 0 and not first:
                cpu.setdefault(v.phase.value, []).append(c1 - c0)
                wall.append(w1 - w0)
            first = first and s != 0
            m.apply(a)
        deals += len(m.results)
    every = [x for xs in cpu.values() for x in xs]
    out: dict[str, object] = {
        "rules": str(rules), "games": games, "deals": deals, "think": think, "decisions": len(every),
        "cpu_median": statistics.median(every), "cpu_p95": _q(every, 0.95), "cpu_max": max(every),
        "wall_median": statistics.median(wall), "wall_p95": _q(wall, 0.95),
        "phases": {k: {"n": len(v), "median": statistics.median(v), "p95": _q(v, 0.95), "max": max(v)} for k, v in cpu.items()},
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--max-deals", type=int, default=6, help="stop a match after this many deals")
    a = ap.parse_args()
    res = run(Rules.parse(a.rules), a.games, a.think, a.max_deals)
    print(f"{res['rules']}: {res['decisions']} expert decisions over {res['deals']} deals, think={res['think']}")
    print(f"{'phase':10} {'n':>5} {'median s':>9} {'p95 s':>7} {'max s':>7}   (CPU time)")
    for k, v in res["phases"].items():  # type: ignore[attr-defined]
        print(f"{k:10} {v['n']:5d} {v['median']:9.3f} {v['p95']:7.3f} {v['max']:7.3f}")
    print(f"{'all':10} {res['decisions']:5d} {res['cpu_median']:9.3f} {res['cpu_p95']:7.3f} {res['cpu_max']:7.3f}"
          f"   wall: median {res['wall_median']:.3f} p95 {res['wall_p95']:.3f}")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
