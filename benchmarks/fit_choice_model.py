"""Fit the ``expert``'s model of the other players (:class:`~sergeant_major.players.inference.ChoiceModel`) to
self-play records by maximum likelihood, and print it with its held-out log-likelihood against the flat model.

Plays tournament boards ``0..B-1`` of ``--seed`` (:func:`sergeant_major.eval.tournament.make_board`; a seed the
measurements do not use) with every seat played by each level of ``--levels`` (the players the expert meets: the
``heuristic`` and the strong ``expert-uniform``), on every rule set of ``--rules``, and replays each deal: at every
decision with a choice it records what the heuristic would choose from that seat's view and what was chosen. The
card plays (leads, following suit, playing when void) give a softmax per kind over nine groups of cards
(:data:`~sergeant_major.players.inference.CARD_GROUPS`), fitted by Newton's method with a small ridge; every other
kind gets its own ``eps``, the share of choices that were not the heuristic's (add-one smoothed). Even boards
train, odd boards test; the fit printed last uses every board. Records are cached in ``--records`` (pickle).

Run: ``python benchmarks/fit_choice_model.py [--rules 9-5-2 3-5-8] [--levels heuristic expert-uniform]
[--boards 150] [--seed 101] [--records records.pkl]``. Slow: an ``expert-uniform`` deal costs 1-2 s of CPU.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import random
from collections import defaultdict

import numpy as np

from sergeant_major.core.actions import AssignTargets, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import FULL_DECK, SUIT_MASKS
from sergeant_major.core.deal import Deal
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import build_view
from sergeant_major.eval.levels import make_player
from sergeant_major.eval.tournament import _play_board, make_board
from sergeant_major.players.heuristic import HeuristicPlayer, discard_card, play_card
from sergeant_major.players.inference import (
    CARD_GROUPS,
    ChoiceKind,
    ChoiceModel,
    card_group,
    card_group_counts,
)

CARD_KINDS = (ChoiceKind.LEAD, ChoiceKind.FOLLOW, ChoiceKind.VOID)
H = HeuristicPlayer()
RIDGE = 0.05
PRIOR = -3.0
"""The ridge pulls each score towards this log-odds (a group the records never offer keeps it)."""

# a record: (level, board, kind, k legal choices, agrees, counts of the 9 groups or None, chosen group or -1)
Record = tuple[str, int, ChoiceKind, int, bool, tuple[int, ...] | None, int]


def records_of(world: Deal, level: str, board: int) -> list[Record]:
    """Every choice of every seat in the played deal ``world``, scored against the heuristic as the expert's
    inference scores them (:func:`sergeant_major.players.inference.choice_factors`)."""
    d = Deal(world.rules, world.dealer, world.dealt, world.kitty_dealt, world.prev_diffs, world.allowed_contracts,
             world.number)
    n = d.n
    names = tuple("abcd"[:n])
    out: list[Record] = []
    played = 0
    for a in world.history:
        s = a.seat
        if type(a) is Play:
            cid = a.card.id
            legal = d.legal_play_mask()
            if legal & (legal - 1):
                trick = d.trick
                kind = (ChoiceKind.LEAD if not trick
                        else ChoiceKind.FOLLOW if d.hands[s] & SUIT_MASKS[d.led_suit] else ChoiceKind.VOID)
                unseen = FULL_DECK & ~played & ~d.hands[s] & ~(d.discards if s == d.declarer else 0)
                h = play_card(legal, trick, d.leader, d.trump, d.contract is Contract.MINIMUM,
                              unseen, d.declarer, s, n)
                counts = tuple(card_group_counts(legal, h, d.trump))
                g = -1 if cid == h else card_group(cid, legal, h, d.trump)
                out.append((level, board, kind, legal.bit_count(), cid == h, counts, g))
            played |= 1 << cid
            d.play_unchecked(cid)
            continue
        if type(a) is Discard:
            hand = d.hands[s]
            if hand & (hand - 1):
                out.append((level, board, ChoiceKind.DISCARD, hand.bit_count(),
                            discard_card(hand, d.trump) == a.card.id, None, 0))
            d.apply_unchecked(a)
            continue
        if d.forced_action() is None:
            legal_actions = d.legal_actions()
            if len(legal_actions) > 1:
                kind = _kind_of(a)
                v = build_view(d, s, names, (0,) * n, ())
                out.append((level, board, kind, len(legal_actions), H.choose(v, random.Random(0)) == a, None, 0))
        d.apply_unchecked(a)
    return out


def _kind_of(a: object) -> ChoiceKind:
    if isinstance(a, (NameContract, AssignTargets)):
        return ChoiceKind.CONTRACT
    return ChoiceKind.EXCHANGE


def fit_scores(recs: list[Record]) -> tuple[float, ...]:
    """The nine group scores maximising the records' log-likelihood (Newton's method, ridge RIDGE towards PRIOR)."""
    counts = np.array([r[5] for r in recs], dtype=float)
    chosen = np.zeros_like(counts)
    for i, r in enumerate(recs):
        if r[6] >= 0:
            chosen[i, r[6]] = 1.0
    theta = np.full(len(CARD_GROUPS), PRIOR)
    for _ in range(50):
        e = counts * np.exp(theta)
        z = 1.0 + e.sum(axis=1, keepdims=True)
        p = e / z
        grad = (chosen - p).sum(axis=0) - RIDGE * (theta - PRIOR)
        hess = -(np.diag(p.sum(axis=0)) - p.T @ p) - RIDGE * np.eye(len(theta))
        step = np.clip(np.linalg.solve(hess, grad), -1.0, 1.0)  # damped: the first steps from the prior are long
        theta = theta - step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(round(float(x), 3) for x in theta)


def fit(recs: list[Record]) -> ChoiceModel:
    """The model fitted to ``recs``: a softmax per card kind, an ``eps`` per other kind."""
    by_kind: dict[ChoiceKind, list[Record]] = defaultdict(list)
    for r in recs:
        by_kind[r[2]].append(r)
    kind_eps = tuple((k, round((sum(1 for r in by_kind[k] if not r[4]) + 1) / (len(by_kind[k]) + 2), 4))
                     for k in ChoiceKind if k not in CARD_KINDS)
    cards = tuple((k, fit_scores(by_kind[k])) for k in CARD_KINDS)
    return ChoiceModel(0.3, kind_eps=kind_eps, card_scores=cards)


def loglik(model: ChoiceModel, r: Record) -> float:
    """The log-probability of the choice of record ``r`` under ``model``."""
    level, board, kind, k, agrees, counts, g = r
    if counts is None:
        return math.log(model.factor(agrees, k, kind))
    w = dict(model.card_scores).get(kind)
    if w is None:
        return math.log(model.factor(agrees, k, kind))
    z = 1.0 + sum(n * math.exp(x) for n, x in zip(counts, w, strict=True))
    return (0.0 if g < 0 else w[g]) - math.log(z)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["9-5-2", "3-5-8"])
    ap.add_argument("--levels", nargs="+", default=["heuristic", "expert-uniform"])
    ap.add_argument("--boards", type=int, default=150)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--records", default=None, help="cache of the played deals (pickle): read if present, else written")
    a = ap.parse_args()
    deals: dict[tuple[str, str, int], Deal] = {}
    if a.records and os.path.exists(a.records):
        with open(a.records, "rb") as f:
            deals = pickle.load(f)
    for text in a.rules:
        rules = Rules.parse(text)
        for level in a.levels:
            for b in range(a.boards):
                if (text, level, b) not in deals:
                    deals[text, level, b] = _play_board(rules, make_board(rules, a.seed, b),
                                                        [make_player(level) for _ in range(rules.players)], None)
                    if a.records and b % 10 == 9:
                        with open(a.records, "wb") as f:
                            pickle.dump(deals, f)
    if a.records:
        with open(a.records, "wb") as f:
            pickle.dump(deals, f)
    recs = [r for (text, level, b), d in deals.items() if text in a.rules and level in a.levels and b < a.boards
            for r in records_of(d, f"{text} {level}", b)]
    train = [r for r in recs if r[1] % 2 == 0]
    test = [r for r in recs if r[1] % 2 == 1]
    models = {"flat eps=0.3": ChoiceModel(0.3), "fitted (even boards)": fit(train)}
    flat_kinds = fit(train)
    models["fitted, flat cards"] = ChoiceModel(0.3, kind_eps=flat_kinds.kind_eps + tuple(
        (k, round(sum(1 for r in train if r[2] is k and not r[4]) / max(1, sum(1 for r in train if r[2] is k)), 4))
        for k in CARD_KINDS))
    print(f"{len(recs)} choices ({len(train)} train, {len(test)} test), boards 0-{a.boards - 1} of seed {a.seed}")
    groups = sorted({r[0] for r in recs})
    print(f"  {'mean log-likelihood per held-out choice':<40}" + "".join(f"{g:>26}" for g in groups))
    for name, m in models.items():
        row = []
        for g in groups:
            xs = [loglik(m, r) for r in test if r[0] == g]
            row.append(f"{sum(xs) / max(1, len(xs)):+.4f} ({len(xs)})")
        print(f"  {name:<40}" + "".join(f"{x:>26}" for x in row))
    print("agreement with the heuristic by kind (all boards):")
    for g in groups:
        for k in ChoiceKind:
            rs = [r for r in recs if r[0] == g and r[2] is k]
            if rs:
                print(f"  {g:<24} {k.value:<9} {sum(r[4] for r in rs) / len(rs):.3f} of {len(rs)}")
    print("fitted on every board:")
    print(repr(fit(recs)))


if __name__ == "__main__":
    main()
