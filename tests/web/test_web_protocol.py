"""The websocket protocol on an in-process hub: joins, actions with versions, refusals, bad input,
concurrent duplicate starts, undo and hints, stand-ins, records; and the HTTP API through TestClient."""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.records import check_record, loads_record  # noqa: E402
from sergeant_major.web.app import MAX_MESSAGE, create_app  # noqa: E402


def _first_legal(state: dict) -> dict:
    a = dict(state["view"]["legal"][0])
    a.pop("seat")
    return a


def test_join_start_play_and_refusals(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "random"], seed=3)
        tok = t["seats"][0]["token"]
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": tok})
        st = c.ws.last()
        assert st["you"] == 0 and st["waiting_start"] and st["v"] == 0
        assert len(st["view"]["hand"]) == 16
        # acting before the deal started is refused
        await send(hub, c, {"type": "act", "v": 0, "action": {"play": st["view"]["hand"][0]}})
        assert c.ws.last("error")["code"] == "not_started"
        await send(hub, c, {"type": "start", "v": 0})
        st = c.ws.last()
        assert not st["waiting_start"] and st["v"] >= 1
        # a second start on the same version: stale, nothing changes
        v = st["v"]
        await send(hub, c, {"type": "start", "v": 0})
        assert c.ws.last("error")["code"] == "stale"
        assert hub.tables[t["id"]].version == v
        gt = hub.tables[t["id"]]
        # the server ran the computers and the forced steps until the human acts
        assert gt.match.to_act == 0 and gt.match.forced_action() is None
        st = c.ws.last()
        legal = st["view"]["legal"]
        assert legal
        # a card not held
        held = set(st["view"]["hand"])
        other = next(x for x in ("AS", "KS", "QS", "JS", "TS", "9S", "2C", "3C") if x not in held)
        n_log = len(gt.log)
        await send(hub, c, {"type": "act", "v": st["v"], "action": {"play": other}})
        err = c.ws.last("error")
        assert err["code"] == "illegal" and other in err["reason"]
        assert len(gt.log) == n_log
        # the legal action, then the same message again (a double click): the second is stale
        a = _first_legal(st)
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})
        assert len(gt.log) > n_log
        n_log = len(gt.log)
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})
        assert c.ws.last("error")["code"] == "stale" and len(gt.log) == n_log

    asyncio.run(run())


def test_bad_input_never_crashes(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=4)
        c = connect(hub, t["id"])
        bad = ["{not json", "[1,2]", "null", json.dumps({"type": 5}), json.dumps({"type": "dance"}),
               "x" * (MAX_MESSAGE + 1), json.dumps({"type": "act", "v": 0, "action": {"play": "QS"}}),
               json.dumps({"type": "join", "token": "nope"}), json.dumps({"type": "join", "token": 12}),
               "[" * 5000]
        for text in bad:
            await send(hub, c, text)
        codes = [json.loads(f)["code"] for f in c.ws.frames if json.loads(f)["type"] == "error"]
        assert codes == ["bad_json", "bad_message", "bad_message", "bad_message", "bad_message", "too_large",
                         "not_seated", "wrong_token", "bad_message", "too_large"]
        reasons = [json.loads(f)["reason"] for f in c.ws.frames if json.loads(f)["type"] == "error"]
        assert "nope" not in reasons[7] and "4 characters" in reasons[7]  # a token is a secret: not quoted back
        assert "not 12" in reasons[8]  # a token that is not a text is quoted
        # the table still works for a seated player
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        st = c.ws.last()
        await send(hub, c, {"type": "start", "v": st["v"]})
        st = c.ws.last()
        for raw in ({"play": "ZZ"}, "QS", {"play": "QS", "discard": "2C"}, {"give": "QS"}, {"seat": 2, "fly": 1}):
            await send(hub, c, {"type": "act", "v": st["v"], "action": raw})
            assert c.ws.last("error")["code"] in ("bad_action", "turn", "illegal")
        await send(hub, c, {"type": "act", "v": "1", "action": {"play": "QS"}})
        assert c.ws.last("error")["code"] == "bad_message"
        # unknown table
        u = connect(hub, "no-such-table")
        await send(hub, u, {"type": "join", "token": None})
        assert u.ws.last("error")["code"] == "unknown_table"

    asyncio.run(run())


def test_out_of_turn_and_spectator(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=8)
        a = connect(hub, t["id"])
        b = connect(hub, t["id"])
        s = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, s, {"type": "join", "token": None})
        await send(hub, s, {"type": "start", "v": 0})
        assert s.ws.last("error")["code"] == "not_seated"
        await send(hub, b, {"type": "start", "v": 0})
        gt = hub.tables[t["id"]]
        who = gt.match.to_act
        assert who in (0, 1)
        other = b if who == 0 else a
        st = other.ws.last()
        assert st["view"]["legal"] == []
        mine = st["view"]["hand"][0]
        await send(hub, other, {"type": "act", "v": st["v"], "action": {"play": mine}})
        assert other.ws.last("error")["code"] == "turn"
        sp = s.ws.last()
        assert sp["you"] is None and sp["view"]["hand"] == [] and sp["view"]["legal"] == [] and sp["view"]["kitty"] is None

    asyncio.run(run())


def test_simultaneous_starts_start_one_deal(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=9)
        a = connect(hub, t["id"])
        b = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        msgs = [json.dumps({"type": "start", "v": 0})] * 3
        await asyncio.gather(hub.handle(a, msgs[0]), hub.handle(b, msgs[1]), hub.handle(a, msgs[2]))
        gt = hub.tables[t["id"]]
        assert [e.kind for e in gt.log].count("start") == 1
        assert gt.released == 1
        # simultaneous duplicate actions: exactly one is applied
        who = gt.match.to_act
        c = a if who == 0 else b
        st = c.ws.last()
        act = {"type": "act", "v": st["v"], "action": _first_legal(st)}
        n = len([e for e in gt.log if e.kind == "act" and e.data["by"] == "human"])
        await asyncio.gather(*(hub.handle(c, json.dumps(act)) for _ in range(4)))
        assert len([e for e in gt.log if e.kind == "act" and e.data["by"] == "human"]) == n + 1

    asyncio.run(run())


def test_practice_undo_and_hint(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=11)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        gt = hub.tables[t["id"]]
        # play until the human has played a card
        while not gt.undo_count(0):
            st = c.ws.last()
            await send(hub, c, {"type": "hint"})
            h = c.ws.last("hint")
            assert h is not None and h["action"] in st["view"]["legal"]
            a = dict(h["action"])
            a.pop("seat")
            await send(hub, c, {"type": "act", "v": st["v"], "action": a})
        hist = gt.match.deal.history
        for i in range(len(hist) - 1, -1, -1):
            if getattr(hist[i], "seat", None) == 0 and type(hist[i]).__name__ == "Play":
                card = str(hist[i].card)
                break
        st = c.ws.last()
        assert st["can_undo"]
        await send(hub, c, {"type": "undo", "v": st["v"]})
        st = c.ws.last()
        assert card in st["view"]["hand"] and any(x.get("play") == card for x in st["view"]["legal"])
        # undo is refused at a table with a friend
        t2 = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=11)
        assert not t2["practice"]

    asyncio.run(run())


def test_standin_and_return_recorded(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "friend", "heuristic"], seed=12, timeout=0)
        a = connect(hub, t["id"])
        b = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bea"})
        await send(hub, a, {"type": "start", "v": 0})
        gt = hub.tables[t["id"]]
        while gt.match.to_act != 1:  # play on until it is the friend's turn
            st = a.ws.last()
            await send(hub, a, {"type": "act", "v": st["v"], "action": _first_legal(st)})
        hub.drop(b)  # the friend closes the tab
        await hub.check_away()
        assert 1 in gt.away
        assert [e.data["by"] for e in gt.log if e.kind == "act"].count("standin") >= 1
        assert "Bea" in a.ws.last()["table"]["seats"][1]["name"] and a.ws.last()["table"]["seats"][1]["away"]
        # the stand-in plays for seat 1 until seat 0 has to act; then seat 1 comes back
        b2 = connect(hub, t["id"])
        await send(hub, b2, {"type": "join", "token": t["seats"][1]["token"]})
        assert 1 not in gt.away and b2.ws.last()["you"] == 1
        while not gt.match.over:
            for c in (a, b2):
                st = c.ws.last()
                if st["view"]["legal"] and not st["waiting_start"]:
                    await send(hub, c, {"type": "act", "v": st["v"], "action": _first_legal(st)})
        rec = gt.record()
        assert rec["players"][1]["name"] == "Bea"
        assert rec["meta"]["standins"] and rec["meta"]["standins"][0]["seat"] == 1
        assert rec["meta"]["standins"][0]["to"] is not None
        check_record(loads_record(json.dumps(rec)))

    asyncio.run(run())


def test_http_api_and_websocket(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    with TestClient(app) as cl:
        assert cl.get("/").status_code == 200 and "Sergeant Major" in cl.get("/").text
        for bad in ({"rules": "9-5-2 nonsense=1", "seats": []}, {"rules": "9-5-2", "seats": [{"kind": "me"}]},
                    {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer", "level": "god"}, {"kind": "me"}]}, [1]):
            r = cl.post("/api/tables", json=bad)
            assert r.status_code == 400 and r.json()["error"]
        assert cl.post("/api/tables", content=b"{{").status_code == 400
        r = cl.post("/api/tables", json={"name": "N", "rules": "9-5-2 deals=1", "seed": 2,
                                         "seats": [{"kind": "me", "name": "Ann"}, {"kind": "computer", "level": "heuristic"},
                                                   {"kind": "computer", "level": "random"}]})
        assert r.status_code == 200
        tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        assert cl.get(f"/api/tables/{tid}/record").status_code == 403
        assert cl.get(f"/api/tables/{tid}/replay").status_code == 403
        assert cl.get("/api/tables/nope/record").status_code == 404
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
                    ws.send_text(json.dumps({"type": "act", "v": st["v"], "action": _first_legal(st)}))
        rec = cl.get(f"/api/tables/{tid}/record")
        assert rec.status_code == 200
        check_record(loads_record(rec.text))
        rep = cl.get(f"/api/tables/{tid}/replay").json()
        assert len(rep["steps"]) > 20 and all(len(h) == 16 for h in rep["steps"][0]["hands"])
        hist = cl.post("/api/history", json={"tokens": [tok, "other"]}).json()["games"]
        assert [g["id"] for g in hist] == [tid] and hist[0]["over"]
        with cl.websocket_connect("/ws/unknown") as ws:
            assert ws.receive_json()["code"] == "unknown_table"


def test_every_computer_level_plays(tmp_path: Path) -> None:
    """Each level of ``players.LEVELS`` can sit at a table (slow ones think in a worker thread)."""
    from sergeant_major.players import LEVELS

    async def run() -> None:
        hub = make_hub(tmp_path)
        for level in LEVELS:
            t = new_table(hub, "9-5-2 deals=1", ["me", level, level], seed=21)
            c = connect(hub, t["id"])
            await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
            gt = hub.tables[t["id"]]
            while not gt.match.over:
                st = c.ws.last()
                if st["waiting_start"]:
                    await send(hub, c, {"type": "start", "v": st["v"]})
                else:
                    await send(hub, c, {"type": "act", "v": st["v"], "action": _first_legal(st)})
            assert {e.data["by"] for e in gt.log if e.kind == "act"} >= {"computer", "human"}

    asyncio.run(run())
