"""Whole-deal random play-outs per second: the compiled kernel vs OpenSpiel's C++ loop (issue 5).

Ours: shuffle, deal 3 x 16 cards and play the 16 tricks out with uniformly random legal cards
(``random_deal_playouts``, numba). OpenSpiel: ``pyspiel.evaluate_bots`` with uniform random bots on
``oh_hell(players=3,num_tricks_fixed=16)`` (chance deal, bids and 16 tricks), in the same run.

Run: ``python benchmarks/bench_playout.py [--deals N] [--repeats R]`` with open-spiel importable (for example
``/tmp/ospvenv/bin/python`` after ``pip install --no-deps -e .`` and numba there); without it only our figure
is printed. Rates are per second of process CPU time (both loops are single-threaded and in this process,
so a shared, loaded machine does not skew the ratio). Prints one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from sergeant_major.search import HAVE_NUMBA
from sergeant_major.search.playout import random_deal_playouts


def bench_ours(deals: int, repeats: int, policy: str = "random") -> list[float]:
    random_deal_playouts(10, seed=1, policy=policy)  # compile / load the cache
    rates = []
    for r in range(repeats):
        t0 = time.process_time()
        random_deal_playouts(deals, seed=100 + r, policy=policy)
        rates.append(deals / (time.process_time() - t0))
    return rates


def bench_openspiel(games: int, repeats: int) -> list[float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=3,num_tricks_fixed=16)")
    bots = [pyspiel.make_uniform_random_bot(i, 1 + i) for i in range(3)]
    rates = []
    for r in range(repeats):
        t0 = time.process_time()
        for i in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, r * games + i)
        rates.append(games / (time.process_time() - t0))
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000, help="deals per repeat for our kernel")
    ap.add_argument("--games", type=int, default=5_000, help="games per repeat for OpenSpiel")
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    ours = bench_ours(a.deals, a.repeats)
    greedy = bench_ours(a.deals // 4, a.repeats, "greedy")
    osp = bench_openspiel(a.games, a.repeats)
    res: dict[str, object] = {
        "numba": HAVE_NUMBA,
        "ours_random_deals_per_s_median": round(statistics.median(ours)),
        "ours_random_all": [round(x) for x in ours],
        "ours_greedy_deals_per_s_median": round(statistics.median(greedy)),
    }
    print(f"ours (random, numba={HAVE_NUMBA}): median {statistics.median(ours):,.0f} deals/s  {[round(x) for x in ours]}")
    print(f"ours (greedy policy):   median {statistics.median(greedy):,.0f} deals/s")
    if osp is not None:
        res["openspiel_games_per_s_median"] = round(statistics.median(osp))
        res["openspiel_all"] = [round(x) for x in osp]
        res["ratio"] = round(statistics.median(ours) / statistics.median(osp), 2)
        print(f"OpenSpiel evaluate_bots oh_hell(3, 16): median {statistics.median(osp):,.0f} games/s  {[round(x) for x in osp]}")
        print(f"ratio ours / OpenSpiel: {res['ratio']}")
    else:
        print("open-spiel not importable here: no comparison")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
