"""Typing and lint gates: `mypy --strict` on the package and `ruff` on everything (run in CI through pytest)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
