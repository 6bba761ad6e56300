"""Turn clocks: a decision not made in time is made by a computer and recorded (``"by": "clock"``, the record's
``meta.clock``, and the record still checks); three in a row and a computer holds the seat until its person is back; a
decision in time spends the reserve only beyond the turn's seconds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.records import dumps_record, loads_record  # noqa: E402
from sergeant_major.records.validation import check_record  # noqa: E402
from sergeant_major.web.clocks import Clocks, parse_clock  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.store import tables_t  # noqa: E402


def _clocked(hub: Hub, kinds: list[str], turn: int, reserve: int) -> dict[str, object]:
    t = new_table(hub, "9-5-2 deals=2", kinds, seed=7)
    with hub.store.engine.begin() as c:  # seconds a form refuses (below 5), as only a test may
        c.execute(tables_t.update().where(tables_t.c.id == t["id"]).values(clock_turn=turn, clock_reserve=reserve))
    return t


def test_three_timeouts_make_three_recorded_computer_decisions_then_a_computer_holds_the_seat(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = _clocked(hub, ["me", "heuristic", "heuristic"], 1, 0)
        tid = str(t["id"])
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})  # type: ignore[index]
        st = c.ws.last()
        await send(hub, c, {"type": "start", "v": st["v"]})
        st = c.ws.last()
        assert st["clock"]["seat"] == 0 and 0 <= st["clock"]["left"] <= 1.0 and st["clock"]["turn"] == 1
        gt = hub.tables[tid]
        for _ in range(300):  # the state shown once the computer holding the seat played on
            if c.ws.last()["table"]["seats"][0]["away"]:
                break
            await asyncio.sleep(0.1)
        kinds = [(e.kind, e.data.get("by"), e.data.get("clock")) for e in gt.log
                 if e.seat == 0 and e.kind in ("act", "away") and e.data.get("by") != "forced"]
        assert kinds[:4] == [("act", "clock", None)] * 3 + [("away", None, True)], kinds
        st = c.ws.last()
        assert st["table"]["seats"][0]["away"] is True
        # the computer holds the seat: it plays on at once, to the deal's end (the next deal waits for a start)
        assert set(kinds[4:]) == {("act", "standin", None)} and gt.waiting_start and st["clock"]["seat"] is None
        if not gt.match.over:
            await send(hub, c, {"type": "back"})
            assert gt.log[-1].kind == "back" or 0 not in gt.away
            await send(hub, c, {"type": "back"})
            assert c.ws.last("error")["code"] == "not_away"
        rec = gt.record()
        assert [x["seat"] for x in rec["meta"]["clock"]["timeouts"]] == [0, 0, 0]
        first = rec["meta"]["clock"]["timeouts"][0]
        assert rec["deals"][first["deal"] - 1]["actions"][first["action"]]["seat"] == 0
        assert rec["meta"]["clock"]["turn"] == 1
        check_record(loads_record(dumps_record(rec)))  # the record stays valid
        hub.clocks.forget(tid)

    asyncio.run(run())


def test_a_decision_in_time_keeps_the_streak_at_zero_and_spends_only_the_time_past_the_turn(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = _clocked(hub, ["me", "heuristic", "heuristic"], 30, 60)
        tid = str(t["id"])
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})  # type: ignore[index]
        await send(hub, c, {"type": "start", "v": c.ws.last()["v"]})
        gt = hub.tables[tid]
        tc = hub.clocks.tables[tid]
        tc.started -= 40  # as if 40 s went by: 10 s past the turn's 30
        st = c.ws.last()
        a = dict(st["view"]["legal"][0])
        a.pop("seat")
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})
        assert 49.0 <= tc.reserves[0] <= 50.0 and tc.streak[0] == 0
        assert all(by != "clock" for _, by in gt.acts)
        hub.clocks.forget(tid)

    asyncio.run(run())


def test_a_timeout_for_a_turn_gone_by_does_nothing(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = _clocked(hub, ["me", "heuristic", "heuristic"], 30, 0)
        tid = str(t["id"])
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})  # type: ignore[index]
        await send(hub, c, {"type": "start", "v": c.ws.last()["v"]})
        gt = hub.tables[tid]
        n = len(gt.log)
        await hub.clock_ran_out(tid, (gt.version - 1, 0))  # stale: the version moved on
        await hub.clock_ran_out(tid, (gt.version, 1))  # not that seat's turn
        assert len(gt.log) == n
        hub.clocks.forget(tid)

    asyncio.run(run())


@pytest.mark.parametrize(("turn", "reserve", "said"), [(3, 0, "3"), (601, 0, "601"), (20, -1, "-1"), (True, 0, "True"),
                                                        ("20", 0, "'20'"), (20, 4000, "4000")])
def test_bad_clocks_are_refused_quoting_them(turn: object, reserve: object, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_clock(turn, reserve)


def test_no_clock_means_no_reserve() -> None:
    assert parse_clock(0, 60) == (0, 0) and parse_clock(20, 60) == (20, 60)
    assert Clocks(lambda tid, key: asyncio.sleep(0)).tasks() == []
