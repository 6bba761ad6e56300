"""examples/ismcts_vs_heuristic.py as a user runs it: a short run, and bad arguments refused without a traceback."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ismcts_vs_heuristic.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ismcts_vs_heuristic", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_plays_a_short_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert _example().main(["--deals", "1", "--simulations", "3"]) == 0
    out = capsys.readouterr().out
    assert "deal 1: ISMCTS at seat 0" in out and "mean score per deal" in out


@pytest.mark.parametrize(("args", "quoted"), [
    (["--deals", "0"], "'0'"),
    (["--deals", "-1"], "'-1'"),
    (["--deals", "two"], "'two'"),
    (["--simulations", "0"], "'0'"),
    (["--seed", "-3"], "'-3'"),
    (["--seed", "99999999999"], "'99999999999'"),
])
def test_example_refuses_bad_arguments_quoting_them(args: list[str], quoted: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _example().main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert args[0] in err and quoted in err and "Traceback" not in err
