"""docs/rules.md decision 13 at the web tables: a new table whose rules can practically never end is refused with
the reason; a table stored before that refusal still loads and plays."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import make_hub, new_table  # noqa: E402

from sergeant_major.web.store import SeatRow, TableRow  # noqa: E402
from sergeant_major.web.tables import GameTable, history_game, match_length  # noqa: E402


def test_a_new_table_that_would_never_end_is_refused(tmp_path: Path) -> None:
    hub = make_hub(tmp_path)
    with pytest.raises(ValueError, match="the game would practically never end: instant-win=12 needs all 12 tricks") as e:
        new_table(hub, "8-5-3 players=4", ["me", "random", "random", "random"])
    assert "add a game end that can be reached: to=10, deals=N" in str(e.value)
    out = new_table(hub, "8-5-3 players=4 deals=12", ["me", "random", "random", "random"])
    assert out["rules"] == "8-5-3 players=4 targets=5-3-2-2 deals=12"


def test_a_table_stored_before_the_refusal_still_loads(tmp_path: Path) -> None:
    hub = make_hub(tmp_path)
    row = TableRow("t" * 12, "Old", "8-5-3 players=4", 7, False, -1, time.time())
    seats = [SeatRow(0, "Ann", "human", "tok"), *(SeatRow(s, f"C{s}", "random", None) for s in (1, 2, 3))]
    hub.store.create_table(row, seats)
    gt = hub.peek(row.id)
    assert gt is not None and gt.rules.players == 4 and gt.rules_text == "8-5-3 players=4 targets=5-3-2-2"
    assert not gt.match.over and GameTable(row, seats, []).match.deal.number == 1


@pytest.mark.parametrize(("rules", "length"), [
    ("9-5-2 deals=1", {"deals": 1, "end": None}),  # one deal decides it: no "to 10" (the terminal's top line too)
    ("9-5-2 deals=5", {"deals": 5, "end": {"kind": "to", "total": 10}}),  # a total of 10 may end it before deal 5
    ("9-2-5", {"deals": None, "end": {"kind": "bound", "total": 15}}),  # "to ±15"
    ("3-5-8", {"deals": 18, "end": None}),  # "Deal 3 of 18"
    ("8-5-3", {"deals": None, "end": None}),  # ends by 12 tricks in a deal only: nothing to count towards
])
def test_the_pages_are_told_the_deals_and_the_total_that_end_the_match(rules: str, length: dict[str, object]) -> None:
    """The table page said "Deal 1" in a match of one deal and of 18 (3-5-8) and never what total ends it, where the
    terminal says "Deal 1 of 18" and "to ±15": the state, *My games* and the replay now carry the match's length,
    the same data as the terminal's words (``Rules.early_end``)."""
    row = TableRow("t" * 12, "T", rules, 7, False, -1, time.time())
    seats = [SeatRow(0, "Ann", "human", "tok"), SeatRow(1, "C1", "random", None), SeatRow(2, "C2", "random", None)]
    gt = GameTable(row, seats, [])
    assert match_length(gt.rules) == length
    assert gt.state_message(0, {0})["table"]["length"] == length
    assert history_game(gt, 0, "tok")["length"] == length
