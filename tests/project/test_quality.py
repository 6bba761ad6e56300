"""Typing and lint gates: `mypy --strict` on the package and `ruff` on everything (run in CI through pytest)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_mypy_strict() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "src/sergeant_major"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_command_line_does_not_load_numba_until_a_command_needs_it() -> None:
    """Every command is registered at start (``sergeant-major --help`` lists them); importing numba costs about half
    a second, so only ``analyze``, ``expert`` players and ``serve``'s warm-up load it, when they run."""
    code = ("import sys, sergeant_major.cli.app as c; c.register_commands(); "
            "print(sorted(m for m in ('numba', 'llvmlite', 'sergeant_major.search') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
