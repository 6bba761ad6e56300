"""Playing strength: the heuristic player against two random players, rotated through the seats.

Run::

    python benchmarks/bench_strength.py [--deals 3000] [--rules 9-5-2 --rules 8-5-3] [--players heuristic,random,random]
                                        [--seed 0] [--workers 2]

For each rules string, whole matches are played with :func:`sergeant_major.eval.simulate.simulate_iter` (the
slots rotate through the seats as :func:`~sergeant_major.eval.simulate.seat_slots` says; the first dealer is
seat 0) until at least ``--deals`` deals are played and the number of matches is a multiple of
``players!`` (6): every seating of the slots is used equally often, so every slot sits in every seat,
deals first, and has each neighbour to its left equally often. Printed per slot: matches won (a shared
win counts 1/k), matches won by 12+ tricks in one deal, mean score per deal and mean tricks over target
per deal (negative: under-tricks), each with a 95% confidence interval that treats every match as one
cluster of deals, and the mean tricks as dealer / eldest hand / third.
The figures depend only on the seed, not on ``--workers``.
"""

from __future__ import annotations

import argparse
import math
import time

from sergeant_major.core.rules import Rules
from sergeant_major.eval.simulate import GameOutcome, SimulationSummary, parse_levels, simulate_iter, summarize


def run(rules: Rules, levels: tuple[str, ...], deals: int, seed: int, workers: int) -> tuple[SimulationSummary, float]:
    """Play matches until ``deals`` deals and a multiple of the player count; the summary and the seconds taken."""
    n = math.factorial(rules.players)  # a whole number of blocks of n! games: every seating equally often
    outcomes: list[GameOutcome] = []
    played = 0
    t0 = time.perf_counter()
    # batches of games sized from the deals per match so far; the stop is checked in game order, at the
    # first game index that meets the goal, so the result is the same whatever the workers
    while True:
        per_match = played / len(outcomes) if outcomes else 3.0
        batch = n * math.ceil(max(deals - played, 1) / per_match / n)
        for outcome, _ in simulate_iter(rules, levels, games=batch, seed=seed, workers=workers, first=len(outcomes)):
            outcomes.append(outcome)
            played += outcome.deals
            if played >= deals and len(outcomes) % n == 0:
                return summarize(rules, levels, seed, outcomes), time.perf_counter() - t0


def _ci(mean: float, ci: float | None) -> str:
    return f"{mean:+.3f} ± {ci:.3f}" if ci is not None else f"{mean:+.3f}"


def report(s: SimulationSummary, seconds: float) -> str:
    """The summary as a plain-text table."""
    roles = list(s.players[0].mean_tricks_by_role)
    lines = [f"{s.rules}: {s.games} matches, {s.deals} deals ({s.mean_deals:.2f} per match), seed {s.seed}, {seconds:.1f} s",
             f"  {'player':<12} {'won':>8} {'win %':>6} {'by 12+':>6} {'score per deal (95% CI)':>24} "
             f"{'tricks over target (95% CI)':>28}  tricks as {'/'.join(roles)}"]
    for p in s.players:
        tricks = "/".join("-" if p.mean_tricks_by_role[r] is None else f"{p.mean_tricks_by_role[r]:.2f}" for r in roles)
        instant = "-" if p.instant_wins is None else str(p.instant_wins)
        lines.append(f"  {p.label:<12} {p.wins:>8g} {100 * p.wins / p.matches:>6.1f} {instant:>6} "
                     f"{_ci(p.mean_score, p.score_ci95):>24} {_ci(p.mean_over, p.over_ci95):>28}  {tricks}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=3000, help="at least this many deals per rules (default 3000)")
    ap.add_argument("--rules", action="append", help="rules string; repeat for several (default: 9-5-2 and 8-5-3)")
    ap.add_argument("--players", default="heuristic,random,random", help="player levels by slot")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    for text in args.rules or ["9-5-2", "8-5-3"]:
        rules = Rules.parse(text)
        levels = parse_levels(args.players, rules.players)
        summary, seconds = run(rules, levels, args.deals, args.seed, args.workers)
        print(report(summary, seconds), flush=True)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
