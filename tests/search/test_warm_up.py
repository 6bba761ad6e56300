"""Preparing the compiled kernels: the search compiled in a background process (the expert's cold start), the
wait for it, and the same values whichever process compiled them (docs/solver.md, "The first run")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sergeant_major.search import HAVE_NUMBA, Position, Solver
from sergeant_major.search import solver as solver_module

TEXT = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"


class FakeProcess:
    """Stands for the background compile: records that ``warm_up`` waited for it."""

    def __init__(self) -> None:
        self.waited = 0

    def wait(self) -> int:
        self.waited += 1
        return 0


def test_warm_up_waits_for_the_background_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeProcess()
    monkeypatch.setattr(solver_module, "_WARM", [])
    monkeypatch.setattr(solver_module, "_BACKGROUND", [fake])
    sol = Solver(tt_bits=10).solve(Position.parse(TEXT))  # the first search waits (then loads or compiles)
    assert fake.waited >= 1
    assert sol.tricks == 7


def test_no_background_compile_when_this_process_has_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    solver_module.warm_up()
    started: list[object] = []
    monkeypatch.setattr(solver_module.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert solver_module.warm_up_in_background() is False
    assert started == []


def test_no_background_compile_when_the_cache_holds_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a warm-up the on-disk cache holds the search: a new process would load it, not start a compile."""
    solver_module.warm_up()
    assert solver_module.kernels_cached() is HAVE_NUMBA
    started: list[object] = []
    monkeypatch.setattr(solver_module, "_WARM", [])
    monkeypatch.setattr(solver_module, "_BACKGROUND", [])
    monkeypatch.setattr(solver_module.subprocess, "Popen", lambda *a, **k: started.append(a))
    assert solver_module.warm_up_in_background() is False
    assert started == []


def test_without_numba_nothing_is_compiled_in_the_background() -> None:
    code = ("from sergeant_major.search.solver import warm_up_in_background, kernels_cached\n"
            "print(warm_up_in_background(), kernels_cached())")
    env = dict(os.environ, SERGEANT_MAJOR_NO_NUMBA="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


COLD = """
import json, random, sys
from sergeant_major import HeuristicPlayer, Match, Rules
from sergeant_major.players.expert import ExpertPlayer, warm_up
from sergeant_major.search import Position, Solver
from sergeant_major.search import solver as s
m = Match(Rules.parse("9-5-2"), seed=3)
while m.deal.phase.value != "play":
    f = m.forced_action()
    if f is not None:
        m.apply(f)
        continue
    m.apply(HeuristicPlayer().choose(m.view(m.deal.to_act), random.Random(m.deal.to_act)))
warm_up()
started = bool(s._BACKGROUND)
card = str(ExpertPlayer().choose(m.view(m.deal.to_act), random.Random(1)).card)
sol = Solver(tt_bits=12).solve(Position.parse(sys.argv[1]))
print(json.dumps([started, card, sol.tricks, sorted((str(c), v) for c, v in sol.cards.items())]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the background compile needs numba (the fast extra)")
def test_cold_cache_compiles_in_the_background_with_the_same_answers(tmp_path: Path) -> None:
    """With an empty numba cache the expert's warm-up starts the background compile, its first card needs only
    the play-outs, and the search (waiting for that process, then loading its cache) gives the values of a warm
    process; the next process finds the cache and starts none."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SERGEANT_MAJOR_NO_NUMBA", None)
    cold = subprocess.run([sys.executable, "-c", COLD, TEXT], env=env, capture_output=True, text=True, timeout=1200)
    assert cold.returncode == 0, cold.stderr
    warm = subprocess.run([sys.executable, "-c", COLD, TEXT], env=env, capture_output=True, text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    c, w = json.loads(cold.stdout), json.loads(warm.stdout)
    assert c[0] is True and w[0] is False
    assert c[1:] == w[1:]
    here = Solver(tt_bits=12).solve(Position.parse(TEXT))
    assert c[2] == here.tricks == 7
    assert c[3] == sorted([str(k), v] for k, v in here.cards.items())


SPLIT = """
import json, sys
from sergeant_major.players import expert
from sergeant_major.search import Position, Solver
from sergeant_major.search.jit import declared_signature
from sergeant_major.search.kernels import WARM_UP_KERNELS
from sergeant_major.search.solver import warm_up
warm_up()
expert.warm_up()
sol = Solver(tt_bits=12).solve(Position.parse(sys.argv[1]))
undeclared = [k.py_func.__name__ for k in (*expert.BACKGROUND_KERNELS, *WARM_UP_KERNELS)
              if declared_signature(k) not in k.signatures]
print(json.dumps([undeclared, sol.tricks, sorted((str(c), v) for c, v in sol.cards.items())]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the split compile needs numba (the fast extra)")
def test_cold_search_compiles_in_two_processes_with_the_same_answers(tmp_path: Path) -> None:
    """With an empty numba cache ``warm_up`` compiles the search here, and its helpers and the expert's kernels
    (registered with ``compile_also``) in a second process: each kernel that process compiles is declared with the
    argument types its callers use (else the work would be lost), and the values are those of a warm process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SERGEANT_MAJOR_NO_NUMBA", None)
    cold = subprocess.run([sys.executable, "-c", SPLIT, TEXT], env=env, capture_output=True, text=True, timeout=1200)
    assert cold.returncode == 0, cold.stderr
    undeclared, tricks, cards = json.loads(cold.stdout)
    assert undeclared == []
    here = Solver(tt_bits=12).solve(Position.parse(TEXT))
    assert tricks == here.tricks == 7
    assert cards == sorted([str(k), v] for k, v in here.cards.items())


def test_claimed_kernels_are_compiled_by_one_process_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``compile_claimed`` compiles only the kernels no other process has claimed (a file of its name in the
    folder), claims those it compiles, and stops when the folder is gone (the other process has finished them)."""
    from types import SimpleNamespace

    from sergeant_major.search import jit

    compiled: list[str] = []

    def compile_declared(kernel: SimpleNamespace) -> bool:
        compiled.append(kernel.py_func.__name__)
        return True

    monkeypatch.setattr(jit, "compile_declared", compile_declared)
    kernels = [SimpleNamespace(py_func=SimpleNamespace(__name__=n)) for n in ("first", "taken", "last")]
    (tmp_path / "taken").touch()
    jit.compile_claimed(kernels, str(tmp_path))
    assert compiled == ["first", "last"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "last", "taken"]
    jit.compile_claimed(kernels[::-1], str(tmp_path))  # the other process, from the other end: all claimed
    assert compiled == ["first", "last"]
    jit.compile_claimed(kernels, str(tmp_path / "gone"))
    assert compiled == ["first", "last"]


STARTED = """
import json, sys
from sergeant_major.search import Position, Solver
from sergeant_major.search import solver as s
s.start_warm_up()
started = [p.poll() is None for p in s._BACKGROUND]
sol = Solver(tt_bits=12).solve(Position.parse(sys.argv[1]))
print(json.dumps([started, sol.tricks, sorted((str(c), v) for c, v in sol.cards.items())]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the split compile needs numba (the fast extra)")
def test_start_warm_up_leaves_the_search_to_the_second_process(tmp_path: Path) -> None:
    """With an empty numba cache ``start_warm_up`` (a review's) returns while the second process compiles the
    search; the first search waits for it, loads its cache and gives the values of a warm process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SERGEANT_MAJOR_NO_NUMBA", None)
    cold = subprocess.run([sys.executable, "-c", STARTED, TEXT], env=env, capture_output=True, text=True, timeout=1200)
    assert cold.returncode == 0, cold.stderr
    started, tricks, cards = json.loads(cold.stdout)
    assert started == [True]
    here = Solver(tt_bits=12).solve(Position.parse(TEXT))
    assert tricks == here.tricks == 7
    assert cards == sorted([str(k), v] for k, v in here.cards.items())


QUITS_WHILE_COMPILING = """
import os, threading, time
from sergeant_major.search.solver import warm_up
threading.Thread(target=warm_up, daemon=True).start()
time.sleep(2.0)
os._exit(0)
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the split compile runs only with numba")
def test_a_process_that_quits_while_compiling_leaves_no_claims_behind(tmp_path: Path) -> None:
    """A program that ends during the first compile (a player quitting at the first prompt) leaves no folder of
    claims in the temporary folder: the second compiling process removes it once its input closes."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), TMPDIR=str(temp))
    env.pop("SERGEANT_MAJOR_NO_NUMBA", None)
    quit_early = subprocess.run([sys.executable, "-c", QUITS_WHILE_COMPILING], env=env, timeout=600)
    assert quit_early.returncode == 0
    deadline = time.monotonic() + 300  # the second process finishes its share, then reads the end of its input
    while list(temp.glob("sm-compile-*")) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not list(temp.glob("sm-compile-*"))
