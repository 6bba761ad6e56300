"""benchmarks/bench_expert.py's timed matches: the expert's kernels are ready before any decision is timed."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from sergeant_major.core.actions import Action
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.players import HeuristicPlayer

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_expert.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_expert", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_search_is_warmed_up_before_the_first_timed_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """With an empty numba cache the search compiled inside the expert's first decision with 27 cards left (seed
    0, deal 1, 18-23 s of CPU in one card), since only the first decision was left out: the bench reported it as a
    decision's time. Now both warm-ups run once, before the expert is asked anything."""
    bench = load_bench()
    events: list[str] = []

    class CountedExpert(HeuristicPlayer):
        """Stands for the expert (heuristic play, no kernels): records each decision asked."""

        def __init__(self, **options: object) -> None:
            super().__init__()

        def choose(self, view: View, rng: random.Random) -> Action:
            events.append("decision")
            return super().choose(view, rng)

    monkeypatch.setattr(bench, "ExpertPlayer", CountedExpert)
    monkeypatch.setattr(bench, "expert_warm_up", lambda: events.append("expert warm-up"), raising=False)
    monkeypatch.setattr(bench, "solver_warm_up", lambda: events.append("search warm-up"), raising=False)
    out = bench.run(Rules.parse("9-5-2"), games=1, think=1.0, max_deals=1)
    assert events[:2] == ["expert warm-up", "search warm-up"], events[:5]
    assert events.count("expert warm-up") == 1 and events.count("search warm-up") == 1
    assert out["decisions"] == events.count("decision") - 1  # the first decision is still left out
