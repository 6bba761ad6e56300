"""How well the expert's worlds guess the hidden cards: uniform worlds against worlds weighed by inference.

Plays tournament boards ``0..B-1`` of ``--seed`` (:func:`sergeant_major.eval.tournament.make_board`: deal 2 after a
heuristic deal 1) with three ``--opponents`` players, and at every second card-play decision of seat 0 with a
choice draws ``3 * --worlds`` worlds from seat 0's view (:func:`~sergeant_major.search.determinization.resample`)
and measures, for each way of choosing and weighing worlds, the share of the hidden cards (those of the other
hands) that the worlds put in the hand that really holds them (a weighted mean over the worlds): uniform (the first
``--worlds``), and with a :class:`~sergeant_major.players.inference.ChoiceModel` (the first flat one,
``FLAT_MODEL``; the fitted one alone; the fitted one mixed per seat with a heuristic player, ``DEFAULT_MODEL``, as
the expert uses it) the first ``k * --worlds`` worlds weighted by the likelihood tempered to an effective sample
size of ``ess * --worlds`` (the expert: ``k = 2``, ``ess = 0.5``). Printed per way: that share and its gain over
uniform worlds on the same views, with a 95% interval over views, and how much likelier the model finds the true
deal than the worlds drawn (the log of its likelihood over the mean likelihood of the ``3 * --worlds`` worlds).

Run: ``python benchmarks/bench_inference.py [--rules 9-5-2] [--opponents heuristic|expert-uniform] [--boards 6]
[--worlds 20] [--seed 77]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from dataclasses import replace

from sergeant_major.core.actions import Play
from sergeant_major.core.deal import Deal
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.eval.levels import make_player
from sergeant_major.eval.tournament import _play_board, make_board
from sergeant_major.players.inference import DEFAULT_MODEL, FLAT_MODEL, ChoiceModel, log_likelihood, temper
from sergeant_major.search.determinization import resample

MODELS: list[tuple[str, ChoiceModel | None, float, int]] = [  # name, model, ESS share, k worlds drawn per kept
    ("uniform", None, 0.0, 0),
    ("flat eps=0.3, 2x, ess 1", FLAT_MODEL, 1.0, 2),
    ("fitted, 2x, ess 1", replace(DEFAULT_MODEL, heuristic_share=0.0), 1.0, 2),
    ("fitted+heuristic, 2x, ess 1", DEFAULT_MODEL, 1.0, 2),
    ("fitted+heuristic, 2x, ess 0.5", DEFAULT_MODEL, 0.5, 2),
    ("fitted+heuristic, 3x, ess 1", DEFAULT_MODEL, 1.0, 3),
    ("flat eps=0.3, 2x, ess 0.5", FLAT_MODEL, 0.5, 2),
]


def views(rules: Rules, opponents: str, boards: int, seed: int) -> list[tuple[Deal, View]]:
    """(true deal, seat 0's view) at every second card-play decision of seat 0 with a choice."""
    out: list[tuple[Deal, View]] = []
    for b in range(boards):
        deal = _play_board(rules, make_board(rules, seed, b), [make_player(opponents) for _ in range(rules.players)],
                           None)
        d = Deal(deal.rules, deal.dealer, deal.dealt, deal.kitty_dealt, deal.prev_diffs, deal.allowed_contracts,
                 deal.number)
        k = 0
        for a in deal.history:
            if isinstance(a, Play) and d.to_act == 0 and len(d.legal_actions()) > 1:
                k += 1
                if k % 2 == 0:
                    out.append((d.clone(), build_view(d, 0, tuple("abcd"[: rules.players]), (0,) * rules.players, ())))
            d.apply(a)
    return out


def accuracy(world: Deal, true: Deal) -> float:
    """The share of the cards in the other seats' hands of ``true`` that ``world`` puts in the same hand."""
    right = total = 0
    for s in range(1, true.n):
        total += true.hands[s].bit_count()
        right += (true.hands[s] & world.hands[s]).bit_count()
    return right / max(1, total)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--opponents", default="heuristic", help="the level playing every seat (heuristic, expert-uniform...)")
    ap.add_argument("--boards", type=int, default=6)
    ap.add_argument("--worlds", type=int, default=20, help="worlds kept per view (three times as many drawn)")
    ap.add_argument("--seed", type=int, default=77)
    a = ap.parse_args()
    rules = Rules.parse(a.rules)
    taken = views(rules, a.opponents, a.boards, a.seed)
    scores: dict[str, list[float]] = {name: [] for name, _, _, _ in MODELS}
    surprise: dict[str, list[float]] = {name: [] for name, _, _, _ in MODELS}
    for true, view in taken:
        rng = random.Random(1)
        drawn = [resample(view, rng) for _ in range(3 * a.worlds)]
        acc = [accuracy(w, true) for w in drawn]
        logs = {model: [log_likelihood(w, view, model) for w in drawn] for _, model, _, _ in MODELS if model}
        for name, model, _, _ in MODELS:
            if model is not None:  # log of the true world's likelihood over the mean of the drawn worlds'
                ls = logs[model]
                top = max(ls)
                surprise[name].append(log_likelihood(true, view, model) - top
                                      - math.log(statistics.fmean(math.exp(x - top) for x in ls)))
        for name, model, ess, k in MODELS:
            if model is None:
                scores[name].append(statistics.fmean(acc[: a.worlds]))
            else:
                weights = temper(logs[model][: k * a.worlds], ess * a.worlds)
                scores[name].append(math.fsum(w * x for w, x in zip(weights, acc, strict=False)) / math.fsum(weights))
    print(f"{rules}: {a.opponents} players, boards 0-{a.boards - 1} of seed {a.seed}, {len(taken)} views, "
          f"{3 * a.worlds} worlds drawn")
    base = scores["uniform"]
    for name, _, _, _ in MODELS:
        gain = [x - y for x, y in zip(scores[name], base, strict=True)]
        half = 1.96 * statistics.stdev(gain) / math.sqrt(len(gain)) if len(gain) > 1 else 0.0
        print(f"  {name:<30} hidden cards placed right {statistics.fmean(scores[name]):.3f}   "
              f"gain {statistics.fmean(gain):+.3f} ± {half:.3f}   "
              f"true world log-lik over drawn {statistics.fmean(surprise[name]) if surprise[name] else 0.0:+.2f}")


if __name__ == "__main__":
    main()
