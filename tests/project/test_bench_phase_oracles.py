"""benchmarks/bench_phase_oracles.py's command line: its help and the input it refuses before any play."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_phase_oracles.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=120)


def test_its_help_says_what_each_option_and_level_is() -> None:
    """``--help`` listed ``--boards BOARDS``, ``--seed SEED`` ... with no word on them, no default, and levels by name
    only: a user could not tell what ``late-oracle`` sees or how many boards run."""
    out = run("--help")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    for words in ("rules string", "(default: 9-5-2)", "boards per level", "(default: 20)", "the tournament seed",
                  "(default: 1)", "late-oracle: sees every card in the play from 27 cards",
                  "pre-oracle: sees every card before the play"):
        assert words in text, (words, out.stdout)


@pytest.mark.parametrize(("args", "quoted"), [
    (["--rules", ""], "--rules '' names no rules"),
    (["--rules", "  "], "--rules '  ' names no rules"),
    (["--rules", "9-5-2 colour=red"], "--rules '9-5-2 colour=red'"),
    (["--boards", "0"], "--boards 0"),
])
def test_bad_input_is_refused_quoted_before_any_play(args: list[str], quoted: str) -> None:
    """A blank ``--rules`` played 9-5-2 unseen (its line began with an empty rules name) and ``--boards 0`` ended
    in a traceback; both are now one ``error:`` line quoting the input, status 2, and nothing played."""
    out = run(*args, "--levels", "late-oracle")
    assert out.returncode == 2, out.stdout + out.stderr
    assert quoted in out.stderr and "Traceback" not in out.stderr and out.stdout == "", out.stderr
