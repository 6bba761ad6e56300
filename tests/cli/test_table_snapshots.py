"""Snapshots of the full-screen table (pytest-textual-snapshot) at 80x24 and 120x40 for each phase of a deal:
naming trump, discarding (cards selected), the play, four players, the 3-5-8 contract, a minimum-tricks deal, the
result panel (of a minimum-tricks deal too) and the help; the 3-5-8 ones also at the smallest size, 64x20.
``pytest --snapshot-update`` writes the baselines (tests/cli/__snapshots__/); look at them before committing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_textual_snapshot")

from _matchhelp import drive  # noqa: E402
from test_table import ready  # noqa: E402

from sergeant_major.cli.settings import Settings  # noqa: E402
from sergeant_major.cli.table import TableApp  # noqa: E402
from sergeant_major.core.actions import Contract, NameContract  # noqa: E402
from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402

SIZES = [(80, 24), (120, 40)]


def _app(rules: str, seed: int, tmp_path: Path, prepare: Any = None) -> TableApp:
    m = Match(Rules.parse(rules), seed, ["You", "Bob", "Cleo", "Dan"][:Rules.parse(rules).players])
    if prepare is not None:
        prepare(m)
    kinds = ["human"] + ["heuristic"] * (m.rules.players - 1)
    return TableApp(m, kinds, Path("m.json") if tmp_path is None else tmp_path / "m.json", settings=Settings())


def _keys(*keys: str) -> Any:
    async def run_before(pilot: Any) -> None:
        app = pilot.app
        since = -1
        for k in keys:
            await ready(pilot, app, since)
            if k == "enter":  # a line given: what follows waits for the next question
                since = app.asks
            await pilot.press(k)
        await ready(pilot, app, since)
        await pilot.pause(0.1)
    return run_before


def _mt(m: Match) -> None:
    drive(m, lambda m: m.to_act == 0 and m.forced_action() is None)
    if m.deal.contract is None and any(a == NameContract(0, Contract.MINIMUM) for a in m.deal.legal_actions()):
        m.apply(NameContract(0, Contract.MINIMUM))


def _last_card(m: Match) -> None:
    """Deal 1 played by the heuristic for every seat until the human holds one card: the table plays it for him and
    opens the result panel."""
    drive(m, lambda m: m.to_act == 0 and m.deal.hands[0].bit_count() == 1)


PHASES: dict[str, tuple[str, int, Any, tuple[str, ...]]] = {
    "trump": ("9-5-2", 5, None, ()),
    "discard": ("9-5-2", 5, None, ("S", "enter", "space", "right", "space")),
    "play": ("9-5-2", 5, None, ("S", "enter", *("space", "right") * 4, "enter", "right")),
    "four_players": ("9-5-2 players=4", 5, None, ()),
    "contract_358": ("3-5-8", 3, None, ()),
    "help": ("9-5-2", 5, None, ("f1",)),
    "minimum_tricks": ("3-5-8", 3, _mt, ()),
    "result": ("9-5-2", 5, _last_card, ()),
    "result_minimum_tricks": ("3-5-8", 3, lambda m: (_mt(m), _last_card(m)), ()),
}
SMALLEST = (64, 20)  # TableApp.MIN_SIZE: 3-5-8's tall seat panels, your line and the result panel at their tightest


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("phase", list(PHASES))
def test_phase_snapshot(snap_compare: Any, phase: str, size: tuple[int, int], tmp_path: Path) -> None:
    rules, seed, prepare, keys = PHASES[phase]
    app = _app(rules, seed, tmp_path, prepare)
    assert snap_compare(app, run_before=_keys(*keys), terminal_size=size)


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["contract_358", "minimum_tricks", "result_minimum_tricks"])
def test_phase_snapshot_at_the_smallest_size(snap_compare: Any, phase: str, tmp_path: Path) -> None:
    rules, seed, prepare, keys = PHASES[phase]
    app = _app(rules, seed, tmp_path, prepare)
    assert snap_compare(app, run_before=_keys(*keys), terminal_size=SMALLEST)
