"""The websocket protocol on an in-process hub: joins, actions with versions, refusals, bad input,
concurrent duplicate starts, undo and hints, stand-ins, records; and the HTTP API through TestClient."""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from _webhelp import TWO_COMPUTERS, Server, connect, http_json, make_hub, new_table, play_out, play_to_the_end, receive, send  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.players import decision_rng  # noqa: E402
from sergeant_major.players.expert import ExpertPlayer  # noqa: E402
from sergeant_major.records import action_to_json, check_record, loads_record  # noqa: E402
from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.connections import Conn  # noqa: E402
from sergeant_major.web.protocol import MAX_MESSAGE  # noqa: E402


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


def test_an_invitation_s_token_is_checked_before_any_name_and_nothing_changes(tmp_path: Path) -> None:
    """The repro: the page could learn that an invitation's token holds no seat only by joining with it, after asking
    for a name. ``{"type": "invitation", "token"}`` answers the seat the token holds, or ``wrong_token`` (the token not
    quoted back: a secret) as a join would; a token that is not a text is ``bad_message``, quoted; the seat is not
    taken nor the connection seated."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=4)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "invitation", "token": t["seats"][1]["token"]})
        inv = c.ws.last("invitation")
        # the seat, the table as a spectator sees it (its name for the page) and who took a seat already (nobody has
        # joined yet); no token, no hand
        assert (inv["seat"], inv["joined"], inv["table"]["id"]) == (1, [], t["id"]), inv
        assert t["seats"][1]["token"] not in json.dumps(inv) and "hand" not in json.dumps(inv), inv
        await send(hub, c, {"type": "invitation", "token": "madeup123"})
        err = c.ws.last("error")
        assert err["code"] == "wrong_token" and "madeup123" not in err["reason"] and "9 characters" in err["reason"], err
        await send(hub, c, {"type": "invitation", "token": 12})
        err = c.ws.last("error")
        assert err["code"] == "bad_message" and "not 12" in err["reason"], err
        await send(hub, c, {"type": "invitation", "token": "x", "name": "Ann"})
        assert c.ws.last("error")["code"] == "bad_message"
        assert c.seat is None and not c.joined
        assert [s.claimed for s in hub.store.seats(t["id"])][1] is False  # the friend's seat is still free
        assert not any(json.loads(f)["type"] == "state" for f in c.ws.frames)  # nothing joined, nothing shown

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
        # play until the human has played a card; each hint is the expert's choice (with inference) for the view
        while not gt.undo_count(0):
            st = c.ws.last()
            m = gt.match
            expected = ExpertPlayer().choose(m.view(0), decision_rng(m.seed, 0, m.deal.number, len(m.deal.history)))
            await send(hub, c, {"type": "hint"})
            h = c.ws.last("hint")
            assert h is not None and h["action"] in st["view"]["legal"] and h["action"] == action_to_json(expected)
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


def test_actions_with_extra_or_seat_fields_are_refused(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "random"], seed=3)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        gt = hub.tables[t["id"]]
        st = c.ws.last()
        a = dict(st["view"]["legal"][0])
        a.pop("seat")
        n = len(gt.log)
        # a seat other than the sender's is refused; the sender's own is accepted (test_an_action_copied_from_legal_is_accepted_and_another_seat_refused)
        for bad in ({**a, "seat": 1}, {**a, "seat": False}, {**a, "extra": True}, {**a, "to": 2} if "to" not in a else {**a, "card": "AS"}):
            await send(hub, c, {"type": "act", "v": st["v"], "action": bad})
            err = c.ws.last("error")
            assert err["code"] == "bad_action", (bad, err)
            assert len(gt.log) == n
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})  # the same action without the extra field
        assert len(gt.log) > n

    asyncio.run(run())


def test_a_binary_frame_is_answered_and_the_connection_kept(tmp_path: Path) -> None:
    """A binary websocket frame gets a ``bad_message`` error saying to send JSON text; the connection stays open."""
    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]})
        tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_bytes(b'{"type":"ping"}')
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_message"
            assert "binary" in err["reason"] and "JSON text" in err["reason"]
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text(json.dumps({"type": "join", "token": tok}))
            assert ws.receive_json()["type"] == "state"


@pytest.mark.slow
def test_large_message_gets_too_large_on_the_real_server(tmp_path: Path) -> None:
    from _webhelp import Server
    from websockets.sync.client import connect as ws_connect

    srv = Server(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    srv.start()
    try:
        app_url = srv.url
        import urllib.request

        req = urllib.request.Request(app_url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"},
                                                                                  {"kind": "computer"}]}).encode())
        with urllib.request.urlopen(req) as r:
            tid = json.loads(r.read())["id"]
        with ws_connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}") as ws:
            ws.send(json.dumps({"type": "ping", "pad": "x" * 100_000}))  # over 64 KB: once closed the socket silently
            err = json.loads(ws.recv(timeout=10))
            assert err["type"] == "error" and err["code"] == "too_large"
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}  # still connected
    finally:
        srv.stop()


def test_messages_with_fields_their_type_does_not_have_are_refused(tmp_path: Path) -> None:
    """The repro: ``{"type": "start", "v": 0, "extra": 1}`` started the deal and ``{"type": "act", "v": V, "seat": 1,
    "action": A}`` from seat 0 played A for seat 0: the unknown field was ignored. Now ``bad_message`` naming it,
    nothing changed; the same messages without it are taken."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        c = connect(hub, tid)
        gt = hub.load(tid)
        assert gt is not None

        async def refused(msg: dict[str, object], field: str) -> None:
            n, frames = len(gt.log), len(c.ws.frames)
            await send(hub, c, msg)
            assert len(c.ws.frames) == frames + 1, c.ws.frames[frames:]
            err = json.loads(c.ws.frames[-1])
            assert err["type"] == "error" and err["code"] == "bad_message", (msg, err)
            assert f"unknown field(s) {field}" in err["reason"] and "nothing was changed" in err["reason"], err
            assert len(gt.log) == n

        await refused({"type": "join", "token": t["seats"][1]["token"], "seat": 1}, "seat")
        assert c.seat is None and not c.joined
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        assert c.seat == 0
        await refused({"type": "ping", "id": 7}, "id")
        await refused({"type": "start", "v": 0, "extra": 1}, "extra")
        assert gt.waiting_start
        f = connect(hub, tid)  # deal 1 waits for the invited friend
        await send(hub, f, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        assert not gt.waiting_start
        st = c.ws.last()
        assert st is not None and st["view"]["to_act"] == 0
        a = dict(st["view"]["legal"][0])
        a.pop("seat")
        await refused({"type": "act", "v": st["v"], "seat": 1, "action": a}, "seat")
        await refused({"type": "act", "v": st["v"], "action": a, "card": "AS", "to": 2}, "card, to")
        await refused({"type": "undo", "v": st["v"], "n": 3}, "n")
        await refused({"type": "hint", "v": st["v"]}, "v")
        n = len(gt.log)
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})
        assert len(gt.log) > n

    asyncio.run(run())


def test_start_after_the_match_is_over_answers_over(tmp_path: Path) -> None:
    """The repro: ``start`` once the match was over answered ``not_waiting`` ("no deal is waiting to be started"), as
    in the middle of a deal. Now ``over``, the code an action after the match gets; in a deal still ``not_waiting``."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "random", "random"], seed=3)
        gt = hub.load(t["id"])
        assert gt is not None
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        st = c.ws.last()
        assert st is not None and not st["waiting_start"]
        await send(hub, c, {"type": "start", "v": st["v"]})
        assert c.ws.last("error") == {"type": "error", "code": "not_waiting", "reason": "no deal is waiting to be started"}
        st = await play_to_the_end(hub, c)
        n = len(gt.log)
        await send(hub, c, {"type": "start", "v": st["v"]})
        err = c.ws.last("error")
        assert err is not None and err["code"] == "over" and "the match is over" in err["reason"], err
        assert len(gt.log) == n and gt.match.over

    asyncio.run(run())


def _my_turn(ws: Any, st: dict[str, Any] | None = None) -> dict[str, Any]:
    """The first state from ``st`` on (else the next one) where seat 0 has legal actions (starting a deal that waits)."""
    while True:
        st = st or receive(ws, "state")
        assert not st["over"]
        if st["waiting_start"]:
            ws.send(json.dumps({"type": "start", "v": st["v"]}))
        elif st["view"]["legal"]:
            return st
        st = None


@pytest.mark.slow
def test_an_action_copied_from_legal_is_accepted_and_another_seat_refused(server: Server) -> None:
    """The repro: sending back ``{"seat": 0, "play": "4C"}`` from ``legal`` got ``bad_action: an action names no seat``.
    Now the sender's own seat is accepted; any other (1, ``false``, ``"0"``, ``null``) is ``bad_action`` quoting it and
    nothing changes (the same action on the same version is accepted afterwards). An unknown field beside a message's
    fields is reported "in an act message"."""
    status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, *TWO_COMPUTERS]})
    assert status == 200, out
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": out["seats"][0]["token"]}))
        st = _my_turn(ws)
        legal = st["view"]["legal"][0]
        assert legal["seat"] == 0
        for seat in (1, False, "0", None):
            ws.send(json.dumps({"type": "act", "v": st["v"], "action": {**legal, "seat": seat}}))
            err = receive(ws, "error")
            assert err["code"] == "bad_action", err
            assert f"seat {json.dumps(seat)} is not yours" in err["reason"] and "nothing was changed" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": {**legal, "colour": "red"}}))
        err = receive(ws, "error")
        assert err["code"] == "bad_action" and "unknown key 'colour'" in err["reason"] and "'seat'" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": legal, "seat": 0}))
        err = receive(ws, "error")
        assert err["code"] == "bad_message" and "in an act message" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": legal}))  # copied from legal as it is
        nxt = receive(ws, "state")
        assert nxt["v"] > st["v"]
        st = _my_turn(ws, nxt)  # and again, with the seat left out, as before
        a = {k: v for k, v in st["view"]["legal"][0].items() if k != "seat"}
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": a}))
        assert receive(ws, "state")["v"] > st["v"]


def _errors(c: Conn) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, c.ws.frames) if m["type"] == "error"]  # type: ignore[attr-defined]


def test_a_refused_join_does_not_quote_its_token_back(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "extra": 1}`` was refused quoting the whole message, the seat's secret
    token with it (a wrong token is said by its length only, so that it ends up nowhere the messages are kept)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tok = t["seats"][0]["token"]
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": tok, "extra": 1})
        (err,) = _errors(c)
        assert err["code"] == "bad_message" and "extra" in err["reason"], err
        assert tok not in err["reason"] and f"a token of {len(tok)} characters" in err["reason"], err
        assert not c.joined

    asyncio.run(run())


def test_refusals_of_the_turn_the_start_and_the_end_quote_the_action(tmp_path: Path) -> None:
    """The repro: an action out of turn was answered "it is not your turn", one before the start "deal 1 has not started
    yet" and one after the end "the match is over", none quoting the action refused (nor saying who is to act)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "friend", "heuristic"], seed=3)
        a, b = connect(hub, t["id"]), connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"], "name": "Al"})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bo"})
        await send(hub, a, {"type": "act", "v": 0, "action": {"contract": "S"}})
        await send(hub, a, {"type": "start", "v": 0})
        st = a.ws.last()  # type: ignore[attr-defined]
        assert st is not None
        waiting = 1 - st["view"]["to_act"]  # a seated player who is not to act (seat 0 or 1)
        w = [a, b][waiting]
        await send(hub, w, {"type": "act", "v": st["v"], "action": {"contract": "S"}})
        await play_out(hub, [a, b])
        await send(hub, a, {"type": "act", "v": a.ws.last()["v"], "action": {"play": "AS"}})  # type: ignore[attr-defined]
        errs = _errors(a) + _errors(b)
        by_code = {e["code"]: e["reason"] for e in errs}
        assert '{"contract": "S"}' in by_code["not_started"], errs
        assert '{"contract": "S"}' in by_code["turn"] and f"seat {st['view']['to_act'] + 1}" in by_code["turn"], errs  # from 1
        assert '{"play": "AS"}' in by_code["over"], errs

    asyncio.run(run())


@pytest.mark.parametrize(("rules", "listed"), [("9-5-2", "one of C, D, H, S)"), ("3-5-8", "one of C, D, H, S, NT, MT)")])
def test_a_contract_that_is_none_lists_the_contracts_of_the_table(tmp_path: Path, rules: str, listed: str) -> None:
    """The repro: ``{"contract": "X"}`` at a 9-5-2 table was refused as "not a contract (one of C, D, H, S, NT, MT)",
    offering no-trump and minimum tricks, which 9-5-2 does not have."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, rules, ["me", "heuristic", "heuristic"], seed=3)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        v = c.ws.last()["v"]  # type: ignore[attr-defined]
        await send(hub, c, {"type": "act", "v": v, "action": {"contract": "X"}})
        (err,) = _errors(c)
        assert err["code"] == "bad_action" and '"X"' in err["reason"] and err["reason"].endswith(f'{listed} ({{"contract": "X"}})'), err
        assert c.ws.last()["v"] == v  # type: ignore[attr-defined]

    asyncio.run(run())
