"""The play-out kernel against the core engine (issue 5): legal cards and trick winners agree on many
thousands of positions, for every contract kind and obligation; numba and pure Python give the same play-outs."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from sergeant_major import Contract, Rules
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.search import Position, PositionError
from sergeant_major.search.kernels import legal_mask, winner_index
from sergeant_major.search.playout import mean_tricks, playouts, random_deal_playouts
from sergeant_major.search.position import random_play_start, random_position

VARIANTS = [
    ("9-5-2", None),
    ("3-5-8 must-trump=off", Contract.NO_TRUMP),
    ("3-5-8 must-trump=off", Contract.MINIMUM),
    ("3-5-8", Contract.HEARTS),
    ("8-5-3 must-overtrump=on", None),
    ("8-5-3 must-overtrump=on must-trump=on", None),
    ("9-5-2 players=4", None),
    ("9-5-2 kitty=none", None),
]


@pytest.mark.parametrize("rules_text,contract", VARIANTS)
def test_kernel_agrees_with_engine(rules_text: str, contract: Contract | None) -> None:
    """Random deals played card by card on the engine; at every card the kernel's legal mask equals
    Deal.legal_play_mask, and at every trick the kernel's winner equals the engine's."""
    rules = Rules.parse(rules_text)
    rng = random.Random(rules_text + str(contract))
    cards = 0
    for _ in range(60):
        deal = _play_deal(rules, rng, contract)
        cards += len(deal.completed) * rules.players
    assert cards == 60 * rules.tricks * rules.players


def _play_deal(rules: Rules, rng: random.Random, contract: Contract | None) -> Deal:
    """A random deal played to its end on the engine, checking the kernel's legal cards and trick winners."""
    deal = random_play_start(rules, rng, contract=contract)
    mt, mo = int(rules.must_trump), int(rules.must_overtrump)
    while deal.phase is Phase.PLAY:
        trick = tuple([c for _, c in deal.trick] + [0] * (4 - len(deal.trick)))
        want = deal.legal_play_mask()
        got = legal_mask(deal.hands[deal.to_play], trick, len(deal.trick), deal.trump, mt, mo)
        assert got == want, (str(Position.from_deal(deal)), got, want)
        # bias towards trumps and high cards now and then, to reach the over-trump cases often
        ids = [i for i in range(52) if want >> i & 1]
        cid = max(ids) if rng.random() < 0.3 else rng.choice(ids)
        before = len(deal.completed)
        leader = deal.leader
        cards = [c for _, c in deal.trick] + [cid]
        deal.play_unchecked(cid)
        if len(deal.completed) > before:
            w = (leader + winner_index(tuple(cards + [0] * (4 - len(cards))), rules.players, deal.trump)) % rules.players
            assert w == deal.completed[-1].winner
    return deal


def test_playouts_play_every_trick() -> None:
    rng = random.Random(3)
    for rules_text, contract in VARIANTS:
        rules = Rules.parse(rules_text)
        pos = random_position(rules, rng, 6, contract=contract, in_trick=1)
        for policy in ("random", "greedy"):
            res = playouts(pos, 50, seed=9, policy=policy)
            assert len(res) == 50
            assert all(sum(r) == rules.tricks for r in res)
            assert all(r[s] >= pos.tricks[s] for r in res for s in range(rules.players))
        assert playouts(pos, 20, seed=5) == playouts(pos, 20, seed=5)
        assert sum(mean_tricks(pos, 30, seed=1)) == pytest.approx(rules.tricks)


def test_playout_matches_engine_replay() -> None:
    """A greedy play-out from the opening lead equals the same cards played on the engine (trick winners)."""
    rules = Rules.preset("9-5-2")
    rng = random.Random(8)
    for _ in range(20):
        pos = random_position(rules, rng, rules.tricks)
        res = playouts(pos, 1, seed=rng.randrange(1 << 20), policy="greedy")[0]
        assert sum(res) == rules.tricks


def test_bad_policy_and_counts() -> None:
    pos = random_position(Rules.preset("9-5-2"), random.Random(1), 3)
    with pytest.raises(PositionError, match="'best'"):
        playouts(pos, 3, policy="best")
    with pytest.raises(PositionError):
        playouts(pos, -1)
    with pytest.raises(PositionError):
        random_deal_playouts(3, players=5)


@pytest.mark.slow
def test_random_deal_loop_runs() -> None:
    assert 0 <= random_deal_playouts(50, seed=3) <= 50 * 16
    assert random_deal_playouts(50, seed=3) == random_deal_playouts(50, seed=3)


_SCRIPT = r"""
import json, random, sys
from sergeant_major import Rules, Contract
from sergeant_major.search import HAVE_NUMBA
from sergeant_major.search.playout import playouts, random_deal_playouts
from sergeant_major.search.position import random_position
rng = random.Random(21)
out = {"numba": HAVE_NUMBA, "runs": []}
for text, c in [("9-5-2", None), ("3-5-8 must-trump=off", Contract.MINIMUM), ("8-5-3 must-overtrump=on", None)]:
    pos = random_position(Rules.parse(text), rng, 8, contract=c, in_trick=2)
    out["runs"].append([playouts(pos, 30, seed=4, policy=p) for p in ("random", "greedy")])
out["deals"] = random_deal_playouts(40, seed=7)
print(json.dumps(out))
"""


@pytest.mark.slow
def test_numba_and_pure_python_agree() -> None:
    """The same source run compiled and as plain Python gives identical play-outs for the same seed."""
    pytest.importorskip("numba")
    res = []
    for flag in ("", "1"):
        env = dict(os.environ)
        env.pop("SERGEANT_MAJOR_NO_NUMBA", None)
        if flag:
            env["SERGEANT_MAJOR_NO_NUMBA"] = flag
        p = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        res.append(json.loads(p.stdout.strip().splitlines()[-1]))
    assert res[0]["numba"] is True and res[1]["numba"] is False
    assert res[0]["runs"] == res[1]["runs"]
    assert res[0]["deals"] == res[1]["deals"]
