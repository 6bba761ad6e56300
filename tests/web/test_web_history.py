"""Records, replays and ``/api/history``: the end as data for translation, replay steps carrying their actions and
contracts, and record, replay and history requests computed off the event loop."""

from __future__ import annotations

import asyncio
import json
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import connect, new_table, play_to_the_end, send  # noqa: E402

from sergeant_major.core.match import MatchEnd  # noqa: E402
from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.tables import end_json  # noqa: E402


@pytest.mark.parametrize(("reason", "kind", "fields"), [
    ("Ann took 13 tricks in one deal (13+ wins at once)", "instant", {"tricks": 13, "limit": 13}),
    ("Bo made his target as dealer of deal 3, the first dealer to do so once the deal had gone round the table (traditional end)",
     "traditional", {"verb": "made", "deal": 3}),
    ("Bo beat his target as dealer of deal 4, the first dealer to do so once the deal had gone round the table (traditional end)",
     "traditional", {"verb": "beat", "deal": 4}),
    ("Cy reached 21 (target total 20)", "target", {"total": 21, "limit": 20, "two": False}),
    ("Cy reached 22 (target total 20); with two past the target, the higher total wins", "target", {"total": 22, "two": True}),
    ("a total reached +-15; the highest total (-3) wins", "bound", {"limit": 15, "total": -3}),
    ("after 2 deals the highest total (4) wins (shared)", "deals", {"deals": 2, "total": 4}),
    ("something new", "other", {}),
])
def test_end_is_structured_for_translation(reason: str, kind: str, fields: dict[str, object]) -> None:
    out = end_json(MatchEnd.from_reason((1,), reason))
    assert out["kind"] == kind and out["winners"] == [1] and out["reason"] == reason
    for k, v in fields.items():
        assert out[k] == v, (k, out)


def test_the_end_s_winners_are_the_ones_given_else_the_match_s() -> None:
    """``end_json`` names the winners it is given (the table's ``ranked_winners``: the one home of the rule that a winner
    who left has not won), else the match's; ``reached`` stays the match's, whom the reason names."""
    end = MatchEnd.from_reason((1,), "Cy reached 21 (target total 20)")
    assert end_json(end, [0, 2])["winners"] == [0, 2] and end_json(end, [0, 2])["reached"] == [1]
    assert end_json(end)["winners"] == [1]


def test_replay_steps_carry_actions(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2 deals=1", "seed": 5,
                                         "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]})
        tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok}))
            st = ws.receive_json()
            ws.send_text(json.dumps({"type": "start", "v": st["v"]}))
            while True:
                st = ws.receive_json()
                if st["type"] != "state":
                    continue
                if st["over"]:
                    break
                if st["view"]["legal"]:
                    a = dict(st["view"]["legal"][0])
                    a.pop("seat")
                    ws.send_text(json.dumps({"type": "act", "v": st["v"], "action": a}))
        assert st["end"]["kind"] == "deals" and st["end"]["deals"] == 1
        rep = cl.get(f"/api/tables/{tid}/replay").json()
        assert rep["steps"][0]["action"] is None
        assert all(isinstance(s["action"], dict) and "seat" in s["action"] for s in rep["steps"][1:])
        assert rep["end"]["kind"] == "deals"


def test_replay_names_a_clubs_contract_after_a_finished_deal() -> None:
    """The replay's step that shows a finished deal's last trick carries its contract's code: ``"C"`` for clubs
    (``Contract.CLUBS == 0`` is falsy: it was ``None``)."""
    from types import SimpleNamespace

    from sergeant_major import Contract, Match, Rules
    from sergeant_major.core.actions import NameContract
    from sergeant_major.web.tables import replay_steps

    rules = Rules.parse("9-5-2 deals=2")
    names = ["Ann", "Bea", "Cy"]
    m = Match(rules, 11, names)
    acts = []
    while m.deal.number == 1:
        legal = m.legal_actions()
        clubs = [a for a in legal if isinstance(a, NameContract) and a.contract is Contract.CLUBS]
        a = clubs[0] if clubs else legal[0]
        acts.append((a, "seat"))
        m.apply(a)
    gt = SimpleNamespace(rules=rules, row=SimpleNamespace(seed=11), seats=[SimpleNamespace(name=x) for x in names],
                         acts=acts)
    steps = replay_steps(gt)  # type: ignore[arg-type]
    ends = [s for s in steps if s["deal"] == 1 and s["last"] is not None and not any(s["hands"])]
    assert ends and ends[-1]["contract"] == "C"


def test_record_and_replay_requests_do_not_hold_up_the_server(tmp_path: Path) -> None:
    """The repro: ``GET /api/tables/ID/replay`` of a finished 3-5-8 match (18 deals) replays it on the event loop,
    0.1 s during which no table is served: a few requests a second from anyone knowing the id stop the server. Now
    both endpoints run in worker threads; the event loop goes on meanwhile."""
    import httpx

    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    hub = app.state.hub

    async def run() -> None:
        t = new_table(hub, "3-5-8", ["random", "beginner", "random"], seed=5)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": None})  # the whole match is played
        assert hub.tables[t["id"]].match.over
        hub.drop(c)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as cl:
            async def other_work(ticks: list[int], done: asyncio.Event) -> None:
                while not done.is_set():
                    ticks.append(1)
                    await asyncio.sleep(0.001)

            for path in ("replay", "record"):
                hub.reload(t["id"])  # replayed from the database for each request
                ticks: list[int] = []
                done = asyncio.Event()
                w = asyncio.create_task(other_work(ticks, done))
                r = await cl.get(f"/api/tables/{t['id']}/{path}")
                done.set()
                await w
                assert r.status_code == 200 and len(r.content) > 10_000
                assert len(ticks) >= 5, (path, len(ticks))  # the event loop ran while the match was replayed

    asyncio.run(run())


def test_history_replays_the_tables_not_in_memory_off_the_event_loop(tmp_path: Path) -> None:
    """The repro: ``POST /api/history`` replayed every table of its (up to 500) tokens that was not in memory on the event
    loop: 0.1 s for one finished 3-5-8 match, during which no table was served (8 such requests for 3 matches held a
    websocket's ping 0.25 s). Now a worker thread replays them, reading only the database: none is put into the hub's
    tables; a table in memory is read on the event loop, as it is now."""
    import httpx

    from sergeant_major.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    hub = app.state.hub

    async def run() -> None:
        done_t = new_table(hub, "3-5-8", ["me", "random", "random"], seed=5)
        c = connect(hub, done_t["id"])
        await send(hub, c, {"type": "join", "token": done_t["seats"][0]["token"]})
        await play_to_the_end(hub, c)
        hub.drop(c)
        hub.reload(done_t["id"])  # not in memory: replayed for the request
        live_t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=6)
        d = connect(hub, live_t["id"])
        await send(hub, d, {"type": "join", "token": live_t["seats"][1]["token"]})
        await send(hub, d, {"type": "start", "v": 0})
        live = hub.tables[live_t["id"]]
        # the replay waits until a task on the event loop has run: were it replayed on the loop, the task could not run
        # and the wait would time out (no timing figure: the event is set or it is not)
        loop_ran = threading.Event()
        replay_threads: list[int] = []
        waits: list[bool] = []
        real_replayed = hub.replayed

        def replayed(tid: str) -> Any:
            replay_threads.append(threading.get_ident())
            waits.append(loop_ran.wait(10))
            return real_replayed(tid)

        hub.replayed = replayed
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as cl:
            async def other_work() -> None:
                while not replay_threads:
                    await asyncio.sleep(0.001)
                loop_ran.set()

            w = asyncio.create_task(other_work())
            r = await cl.post("/api/history", json={"tokens": [done_t["seats"][0]["token"], live_t["seats"][1]["token"], "nope"]})
            await w
        assert r.status_code == 200, r.text
        games = {g["id"]: g for g in r.json()["games"]}
        assert games[done_t["id"]]["over"] and games[done_t["id"]]["deal"] >= 10 and games[done_t["id"]]["seat"] == 0
        assert games[live_t["id"]] == {"id": live_t["id"], "name": "T", "name_default": False, "rules": "9-5-2",
                                       "length": {"deals": None, "end": {"kind": "to", "total": 10}}, "seat": 1,
                                       "token": live_t["seats"][1]["token"], "over": False,
                                       "names": ["Me", "Friend 1", "Random 3"], "name_levels": [None, None, "random"], "totals": [0, 0, 0], "deal": 1,
                                       "winners": [], "created": live.row.created}
        assert replay_threads and threading.get_ident() not in replay_threads  # replayed in a worker thread
        assert waits == [True]  # ... while the event loop ran
        assert set(hub.tables) == {live_t["id"]} and hub.tables[live_t["id"]] is live  # nothing loaded by the thread

    asyncio.run(run())
