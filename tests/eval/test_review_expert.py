"""The expert's estimate of each card in a review (issue 36): reproducible, from the player's view, summed per seat."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from sergeant_major import HeuristicPlayer, Match, RandomPlayer, Rules, drive
from sergeant_major.core.actions import Play
from sergeant_major.search import Solver
from sergeant_major.search.review import review_match, review_schema


def _match(seed: int) -> Match:
    m = Match(Rules.parse("9-5-2"), seed=seed, names=["Ann", "Ben", "Cat"])
    drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
    return m


def _validate(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(review_schema()).validate(doc)


@pytest.mark.slow
def test_expert_estimates_are_reproducible_and_fit_the_cards() -> None:
    """The expert's estimate of each card (from the player's view only) is the same on a second run with the same
    seed (the deals in two threads, then in one), is >= 0, names legal cards as best and gives a forced card no
    cost; the seats' sums add up."""
    from sergeant_major.eval.review import add_expert_estimates

    m = _match(seed=3)
    deals = [len(m.deals) - 1, len(m.deals)]
    runs = []
    for jobs in (2, 1):
        r = review_match(m, Solver(tt_bits=16), 0.02, table=False, deals=deals)
        runs.append(add_expert_estimates(m, r, think=0.25, seed=7, jobs=jobs))
    # the double-dummy part may differ (its 0.02 s limit depends on the machine); the expert's counts do not
    for d0, d1 in zip(runs[0]["deals"], runs[1]["deals"], strict=True):
        assert [p["expert"] for p in d0["plays"]] == [p["expert"] for p in d1["plays"]]
    assert [st["expert_lost"] for st in runs[0]["seats"]] == [st["expert_lost"] for st in runs[1]["seats"]]
    r = runs[0]
    _validate(r)
    plays = r["deals"][0]["plays"]
    assert all(p["expert"]["cost"] is None or p["expert"]["cost"] >= 0 for p in plays)
    assert plays[-1]["expert"] == {"cost": 0.0, "best": [plays[-1]["card"]], "worlds": 0, "method": "forced"}
    every = [p for d in r["deals"] for p in d["plays"]]
    for st in r["seats"]:
        assert st["expert_lost"] == pytest.approx(sum(p["expert"]["cost"] or 0 for p in every if p["seat"] == st["seat"]))
    other = review_match(_match(seed=4), Solver(tt_bits=16), 0.02, table=False, deals=[1])
    with pytest.raises(ValueError, match="deal 1"):
        add_expert_estimates(m, other)


def test_estimates_made_before_the_review_are_those_made_after() -> None:
    """``expert_estimates`` needs no review (``review`` makes them while the search compiles): given to
    ``add_expert_estimates`` they give the review what it computes itself, and a review of another match is
    refused."""
    from sergeant_major.eval.review import add_expert_estimates, expert_estimates

    m = _match(seed=3)
    last = len(m.deals)
    before = expert_estimates(m, [last], think=0.1, seed=5, jobs=1)
    assert list(before) == [last]
    assert [card for card, _ in before[last]] == [str(a.card) for a in m.deals[-1].history if isinstance(a, Play)]
    r1 = review_match(m, Solver(tt_bits=14), 0.05, table=False, deals=[last])
    r2 = copy.deepcopy(r1)
    assert add_expert_estimates(m, r1, think=0.1, seed=5, estimates=before) == \
        add_expert_estimates(m, r2, think=0.1, seed=5, jobs=1)
    other = review_match(_match(seed=4), Solver(tt_bits=14), 0.05, table=False, deals=[1])
    with pytest.raises(ValueError, match="deal 1"):
        add_expert_estimates(m, other, estimates=expert_estimates(m, [1], think=0.1, seed=5, jobs=1))


def test_analyze_one_deal_carries_the_experts_estimates(tmp_path: Path) -> None:
    """``analyze FILE --deal N`` gives each card the expert's estimate, as ``review FILE --deal N`` does (it took
    ``--expert``, on by default, and left the estimates out); ``--no-expert`` leaves them out."""
    from typer.testing import CliRunner

    import sergeant_major.cli.analyze  # noqa: F401 - registers the analyze command on the app
    from sergeant_major.cli.app import app
    from sergeant_major.eval.review import expert_estimates
    from sergeant_major.records import write_record

    m = _match(seed=3)
    path = tmp_path / "m.json"
    write_record(m, path, ["heuristic", "random", "random"])
    runner = CliRunner()
    r = runner.invoke(app, ["analyze", str(path), "--deal", "1", "--json", "--no-table", "-t", "0.02"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    _validate(doc)
    assert [(p["card"], p["expert"]) for p in doc["plays"]] == expert_estimates(m, [1])[1]
    assert all("expert_lost" in st for st in doc["seats"])
    r = runner.invoke(app, ["analyze", str(path), "--deal", "1", "--json", "--no-table", "--no-expert", "-t", "0.02"])
    assert r.exit_code == 0, r.output
    assert not any("expert" in p for p in json.loads(r.stdout)["plays"])
