"""Calibrate the computer levels' fixed ratings (``web/ratings.py`` ``COMPUTER_RATINGS``) from duplicate tournaments.

For each preset two duplicate tournaments are played (``eval.tournament``, the same boards in every seat arrangement):
``random, beginner, heuristic`` on ``--boards`` boards and ``beginner, heuristic, expert`` on ``--expert-boards`` boards.
Each board ranks its three levels by their score summed over the arrangements (the luck of the cards cancels; equal
sums tie), and these rankings update OpenSkill Plackett-Luce ratings that start at openskill's defaults, all boards of
both tournaments in a shuffled order, 8 times over; mu is the mean over the last pass, shifted so that the heuristic
has mu 25, and sigma is fixed at 1. Prints the table for the docs
and the Python constant.

Run: ``nice -n 10 python benchmarks/calibrate_ratings.py [--boards 200] [--expert-boards 24] [--workers 2]
[--json-dir DIR]`` (with ``--json-dir`` the tournaments' ``--json`` files ``fast-PRESET.json`` and
``exp-PRESET.json`` there are read instead of played). Never run from a test: it takes minutes (the expert).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from sergeant_major.core.rules import Rules

PRESETS = ("9-5-2", "8-5-3", "9-2-5", "3-5-8")
FAST = ("random", "beginner", "heuristic")
STRONG = ("beginner", "heuristic", "expert")
SIGMA = 1.0  # the computers' fixed sigma: their rating is known (it does not change), and a small sigma says so


def board_ranks(scores: list[int]) -> list[int]:
    """Places (0 best) of the slots by their board score, highest first; equal scores tie."""
    return [sum(1 for o in scores if o > s) for s in scores]


def calibrate(runs: list[tuple[tuple[str, ...], list[list[int]]]], epochs: int = 8, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Ratings ``(mu, sigma)`` per level from ``(levels by slot, board scores by slot)`` runs: the boards of all runs
    are rated in turn, ``epochs`` times over in seeded shuffled orders; mu is its mean over the last epoch (one
    order's drift averaged out), shifted so that the heuristic has 25; sigma is the fixed :data:`SIGMA`."""
    model = PlackettLuce()
    ratings = {lv: model.rating() for levels, _ in runs for lv in levels}
    boards = [(levels, b) for levels, bs in runs for b in bs]
    rng = random.Random(seed)
    sums = {lv: 0.0 for lv in ratings}
    for epoch in range(epochs):
        rng.shuffle(boards)
        for levels, scores in boards:
            out = model.rate([[ratings[lv]] for lv in levels], ranks=[float(r) for r in board_ranks(scores)])
            for lv, team in zip(levels, out, strict=True):
                ratings[lv] = team[0]
            if epoch == epochs - 1:
                for lv in ratings:
                    sums[lv] += ratings[lv].mu
    mean = {lv: sums[lv] / len(boards) for lv in ratings}
    shift = 25.0 - mean["heuristic"]
    return {lv: (round(mean[lv] + shift, 1), SIGMA) for lv in ratings}


def scores_of(doc: dict[str, Any]) -> list[list[int]]:
    return [list(b["scores"]) for b in doc["board_outcomes"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--expert-boards", type=int, default=24)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json-dir", type=Path, default=None)
    args = ap.parse_args()
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for preset in PRESETS:
        runs: list[tuple[tuple[str, ...], list[list[int]]]] = []
        for levels, boards, tag in ((FAST, args.boards, "fast"), (STRONG, args.expert_boards, "exp")):
            if args.json_dir is not None:
                doc = json.loads((args.json_dir / f"{tag}-{preset}.json").read_text())
                assert tuple(doc["levels"]) == levels, doc["levels"]
            else:
                from sergeant_major.eval.tournament import tournament

                doc = tournament(Rules.preset(preset), levels, boards, seed=args.seed, workers=args.workers).to_json()
            runs.append((levels, scores_of(doc)))
        out[preset] = calibrate(runs)
    print("| preset | " + " | ".join(("random", "beginner", "heuristic", "expert")) + " |")
    print("|---|---|---|---|---|")
    for preset, r in out.items():
        cells = [f"{r[lv][0] - 3 * r[lv][1]:.1f} ({r[lv][0]:.2f} ± {r[lv][1]:.2f})" for lv in ("random", "beginner", "heuristic", "expert")]
        print(f"| {preset} | " + " | ".join(cells) + " |")
    print("COMPUTER_RATINGS = {")
    for preset, r in out.items():
        print(f"    {preset!r}: {{" + ", ".join(f"{lv!r}: {r[lv]}" for lv in ("random", "beginner", "heuristic", "expert")) + "},")
    print("}")


if __name__ == "__main__":
    main()
