"""The Python examples of docs/research.md run as written, and every ``python`` block of the docs is Python (a list of
signatures in docs/records.md was fenced as Python: a SyntaxError for whoever ran it). The ISMCTS one used a ``state`` that no example made
(``NameError: name 'state' is not defined``); it now makes one after the OpenSpiel example's ``game``. A whole game of
ISMCTS bots is shown too: OpenSpiel's ``evaluate_bots`` and ``MCTSBot`` both fail on the game, unexplained before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _blocks() -> list[str]:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_research_md_has_its_five_examples() -> None:
    blocks = _blocks()
    assert len(blocks) == 5, [b.splitlines()[0] for b in blocks]
    assert "sergeant_major.research.envs import env" in blocks[0] and "SingleSeatEnv" in blocks[1]
    assert "pyspiel.load_game" in blocks[2] and "ISMCTSBot" in blocks[3] and "is_terminal" in blocks[4]


@pytest.mark.parametrize("i", [0, 1])
def test_research_md_environment_examples_run(i: int) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    exec(compile(_blocks()[i], f"docs/research.md example {i + 1}", "exec"), {})


def _after_the_openspiel_game(k: int) -> dict[str, object]:
    """The names docs/research.md's third example (the OpenSpiel ``game``) and then its example ``k`` define."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("open_spiel.python.algorithms.ismcts")
    blocks = _blocks()
    scope: dict[str, object] = {}
    exec(compile(blocks[2], "docs/research.md example 3", "exec"), scope)
    exec(compile(blocks[k - 1], f"docs/research.md example {k}", "exec"), scope)
    return scope


def test_research_md_openspiel_examples_run_one_after_the_other() -> None:
    scope = _after_the_openspiel_game(4)
    state = scope["state"]
    assert scope["action"] in state.legal_actions()  # type: ignore[attr-defined]


def test_research_md_whole_game_of_ismcts_bots_runs_to_the_end() -> None:
    """The fifth example plays the third example's ``game`` (one deal of ``8-5-3 kitty=see-then-trump``) to its end."""
    scope = _after_the_openspiel_game(5)
    state = scope["state"]
    assert state.is_terminal() and len(state.returns()) == 3  # type: ignore[attr-defined]


def test_every_python_block_of_the_docs_compiles() -> None:
    """A block fenced ``python`` is valid Python (signatures and other sketches are fenced ``text``)."""
    docs = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
    bad = []
    for path in docs:
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)):
            try:
                compile(block, f"{path.relative_to(ROOT)} python block {i + 1}", "exec")
            except SyntaxError as e:
                bad.append(str(e))
    assert not bad, bad
