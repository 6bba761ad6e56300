"""Regressions from a second fresh-eyes run on the browser play's server: JSON holding a lone surrogate escape
(``"\\ud800"``) or nested very deep, in a websocket message or a request body; messages with fields their type
does not have; the random seed of a table large enough that no player can search for it; a table of computers
only playing a long match without stopping the server, and shown to its spectators as it is played; practice
(undo, hints) only with one person at the table; table creation refusing unknown or ill-typed fields; the record and the replay of a long match computed off the
event loop."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.app import create_app, create_table  # noqa: E402
from sergeant_major.web.store import TableRow  # noqa: E402
from sergeant_major.web.tables import GameTable  # noqa: E402

SEATS = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]
DEEP = "[" * 990 + "]" * 990


def _text(obj: object) -> str:
    """JSON text; a lone surrogate in ``obj`` is written as its escape (``json.dumps`` keeps ASCII)."""
    return json.dumps(obj)


def test_request_bodies_with_a_lone_surrogate_or_deep_nesting_are_refused_with_400(tmp_path: Path) -> None:
    """The repro: ``{"tokens": ["\\ud800"]}`` to ``/api/history`` and a seat kind ``"\\ud800"`` were answered HTTP 500
    (the database or the error message could not encode it), ``[[[...]]]`` too (RecursionError)."""
    db = tmp_path / "s.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app) as cl:
        tables = [_text({"name": "\ud800", "seats": SEATS}),
                  _text({"seats": [{"kind": "me", "name": "\udfff"}, {"kind": "friend"}, {"kind": "computer"}]}),
                  _text({"seats": [{"kind": "\ud800"}, {}, {}]}),
                  _text({"seats": [{"kind": "computer", "level": "\ud83d"}, {}, {}]}),
                  _text({"seats": SEATS, "rules": "9-5-2 \ud800"}),
                  _text({"seats": SEATS})[:-1] + ', "x": ' + DEEP + "}",
                  "[" * 30_000 + "]" * 30_000]  # under the 64 KiB a body may have
        for body in tables:
            r = cl.post("/api/tables", content=body)
            assert r.status_code == 400, (body[:80], r.status_code, r.text)
            assert "not JSON" in r.json()["error"], r.text
        for body in (_text({"tokens": ["\ud800"]}), _text({"tokens": "\ud800"}), '{"tokens": ' + DEEP + "}"):
            r = cl.post("/api/history", content=body)
            assert r.status_code == 400 and "not JSON" in r.json()["error"], (body[:80], r.text)
        r = cl.post("/api/tables", content=_text({"name": "\U0001f44d", "seats": SEATS}))  # escaped as a pair: text
        assert r.status_code == 200 and r.json()["id"]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT name FROM sm_tables").fetchall() == [("\U0001f44d",)]


def test_a_join_with_a_lone_surrogate_name_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "name": "\\ud800"}`` was answered with the undocumented code
    ``server`` ("UnicodeEncodeError") after the connection had been seated; now ``bad_json`` quoting it, not seated."""
    app = create_app(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    with TestClient(app) as cl:
        out = cl.post("/api/tables", json={"seats": SEATS}).json()
        tid = out["id"]
        tok = out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            text = _text({"type": "join", "token": tok, "name": "Ben\ud800"})
            ws.send_text(text)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_json", err
            assert "surrogate" in err["reason"] and repr(text[:60]) in err["reason"]
            ws.send_text('{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}")
            err = ws.receive_json()
            assert err["code"] == "bad_json" and "nested" in err["reason"], err
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}  # still connected, still not seated
            hub = app.state.hub
            gt = hub.load(tid)
            assert gt is not None and gt.seats[1].name == "Friend 1"
            assert all(c.seat is None and not c.joined for c in hub.conns[tid])
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "Ben"}))
            st = ws.receive_json()
            assert st["type"] == "state" and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Ben"


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


def test_a_tables_random_seed_cannot_be_searched_for(tmp_path: Path) -> None:
    """The repro: the seed of a table made without one was ``secrets.randbits(31)``; every hand and kitty of the match
    follows from it, so a player could try the 2**31 seeds until one deals his own cards (hours on one core in pure
    Python, far less in C or on several cores) and then know the others' hands. Now 62 bits."""
    hub = make_hub(tmp_path)
    seeds = []
    for _ in range(16):
        out = create_table(hub.store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]})
        gt = hub.load(out["id"])
        assert gt is not None
        seeds.append(gt.row.seed)
    assert len(set(seeds)) == 16 and all(0 <= s < 2**62 for s in seeds)
    assert max(seeds) >= 2**48, seeds  # 16 draws of 62 bits all below 2**48: about 2**-224
    assert len(gt.match.deal.hand(0)) == 16  # a 62-bit seed deals like any other


def test_a_long_match_of_computers_only_does_not_stop_the_server(tmp_path: Path) -> None:
    """The repro: anyone could make a table of three computers with ``deals=300`` (or 100000) and open it: without a
    delay the whole match was played in one go on the event loop, and the server answered nothing else meanwhile
    (``/api/options`` took 4 s for 300 deals). Now the event loop runs between deals, each deal stored first."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 to=off instant-win=off deals=30", ["random", "beginner", "random"], seed=9)
        gt = hub.load(t["id"])
        assert gt is not None
        seen: list[int] = []

        async def other_work() -> None:  # stands for every other table and request of the server
            while not gt.match.over:
                seen.append(gt.released)
                await asyncio.sleep(0)

        w = asyncio.create_task(other_work())
        await send(hub, connect(hub, t["id"]), {"type": "join", "token": None})  # a spectator: the match is played
        await w
        assert gt.match.over and gt.released == 30
        assert len(set(seen)) >= 25, seen  # it ran between the deals
        got = hub.store.table(t["id"])
        assert got is not None and [e.data for e in got[2]] == [e.data for e in gt.log]  # all stored

    asyncio.run(run())


def test_spectators_of_a_table_of_computers_see_the_match_as_it_is_played(tmp_path: Path) -> None:
    """The repro: with a delay (``serve`` has 0.6 s), opening a table of three computers showed nothing until the match
    was over: the websocket took the server's due actions, the whole match, before reading the ``join``; a second
    spectator waited for the table's lock as long. Now both get the state at once and every action after it."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", delay=0.03)
    with TestClient(app) as cl:
        out = cl.post("/api/tables", json={"rules": "9-5-2 deals=2", "seed": 4, "seats": [
            {"kind": "computer", "level": "random"}, {"kind": "computer", "level": "beginner"},
            {"kind": "computer", "level": "random"}]}).json()
        with cl.websocket_connect(f"/ws/{out['id']}") as ws1:
            ws1.send_text(json.dumps({"type": "join", "token": None}))
            first = ws1.receive_json()
            assert first["type"] == "state" and not first["over"] and first["v"] <= 2, (first["over"], first["v"])
            vs = [ws1.receive_json()["v"] for _ in range(5)]
            assert vs == sorted(vs) and vs[-1] > first["v"]  # each action shown as it comes
            with cl.websocket_connect(f"/ws/{out['id']}") as ws2:
                ws2.send_text(json.dumps({"type": "join", "token": None}))
                st = ws2.receive_json()
                assert st["type"] == "state" and not st["over"] and st["view"]["hand"] == [], (st["over"], st["v"])
                while not st["over"]:
                    st = ws2.receive_json()
                assert st["end"] is not None and st["view"]["deal"] == 2


def test_a_table_of_computers_waits_between_deals_while_nobody_watches(tmp_path: Path) -> None:
    """With ``deals=1000000000`` a table of computers, once opened, went on playing (and filling the database) for ever
    after its spectators had gone. Now it waits at the next deal until a spectator joins again (40 deals here, so
    that the test fails rather than running for ever without the fix)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 to=off instant-win=off deals=40", ["random", "beginner", "random"], seed=9)
        tid = t["id"]

        def leave_at_deal_3(text: str) -> None:  # shown when deal 2 is over
            if json.loads(text)["view"]["deal"] >= 3:
                hub.drop(c)  # the tab is closed

        c = connect(hub, tid, on_send=leave_at_deal_3)
        await send(hub, c, {"type": "join", "token": None})
        gt = hub.tables[tid]
        assert gt.released == 2 and gt.waiting_start and gt.match.deal.number == 3 and not gt.match.over
        got = hub.store.table(tid)
        assert got is not None and len(got[2]) == len(gt.log)  # stored
        d = connect(hub, tid, on_send=lambda text: json.loads(text)["view"]["deal"] >= 5 and hub.drop(d))
        await send(hub, d, {"type": "join", "token": None})  # watched again: it goes on
        assert gt.released == 4 and gt.waiting_start

    asyncio.run(run())


def test_a_spectators_join_sends_the_players_nothing_when_nothing_is_due(tmp_path: Path) -> None:
    """A spectator's join takes the server's due actions; when there are none the players get no new state (a state
    message clears the hint or error text on their page)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        n = len(a.ws.frames)
        s = connect(hub, t["id"])
        await send(hub, s, {"type": "join", "token": None})
        assert len(s.ws.frames) == 1 and len(a.ws.frames) == n

    asyncio.run(run())


def test_a_table_with_two_people_is_no_practice_table(tmp_path: Path) -> None:
    """The repro: seats "me", "me", computer made a practice table (only "friend" seats counted). Once the second
    seat's token is passed on (``/t/ID#token=...``), its holder is a second person, and the first could lead, see the
    second's answer, and take both cards back with *Undo*: the other's cards seen for nothing. Now a practice table
    has one person at most, and an undo never takes back another person's card (tables stored before)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        assert new_table(hub, "9-5-2", ["me", "heuristic", "random"])["practice"]
        assert new_table(hub, "9-5-2", ["heuristic", "heuristic", "random"])["practice"]
        t = new_table(hub, "9-5-2", ["me", "me", "heuristic"], seed=8)
        assert not t["practice"]
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        gt = hub.tables[tid]
        while not gt.match.deal.completed:  # the first trick: both people play
            c, seat = (a, 0) if gt.match.to_act == 0 else (b, 1)
            st = c.ws.last()
            assert st is not None and st["view"]["to_act"] == seat
            act = dict(st["view"]["legal"][0])
            act.pop("seat")
            await send(hub, c, {"type": "act", "v": st["v"], "action": act})
        for c in (a, b):
            st = c.ws.last()
            assert st is not None and not st["can_undo"] and not st["table"]["practice"]
            n = len(gt.log)
            await send(hub, c, {"type": "undo", "v": st["v"]})
            assert c.ws.last("error")["code"] == "no_undo" and len(gt.log) == n
        c = b if gt.match.to_act == 1 else a
        await send(hub, c, {"type": "hint"})
        assert c.ws.last("error")["code"] == "no_hint"
        # the same table stored as practice (before this fix): still no undo of the other's cards
        row = gt.row
        old = GameTable(TableRow(row.id, row.name, row.rules, row.seed, True, row.away_timeout, row.created), gt.seats, gt.log)
        assert old.undo_count(0) == 0 and old.undo_count(1) == 0

    asyncio.run(run())


def test_creating_a_table_refuses_unknown_fields_and_a_name_that_is_no_text(tmp_path: Path) -> None:
    """The repro: ``"away_timout": -1`` (misspelt) made a table with the default timeout, a seat's ``"levle"`` one with
    the default level, and ``"name": 0`` or ``false`` one called "Table", all with HTTP 200. Now 400 naming the field,
    and no table is made."""
    db = tmp_path / "f.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app) as cl:
        for body, words in (({"seats": SEATS, "away_timout": -1}, "unknown field(s) away_timout"),
                            ({"seats": SEATS, "Seed": 3, "extra": 1}, "unknown field(s) Seed, extra"),
                            ({"seats": [{"kind": "me"}, {"kind": "computer", "levle": "expert"}, {"kind": "friend"}]},
                             "seat 2: unknown field(s) levle"),
                            ({"seats": SEATS, "name": 0}, "the table name must be a text"),
                            ({"seats": SEATS, "name": False}, "the table name must be a text"),
                            ({"seats": SEATS, "name": []}, "the table name must be a text")):
            r = cl.post("/api/tables", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT COUNT(*) FROM sm_tables").fetchone() == (0,)
        r = cl.post("/api/tables", json={"name": "", "rules": "", "seats": [{"kind": "me", "name": ""}, {"kind": "friend", "level": "x"},
                                                                              {"kind": "computer", "level": "random", "name": None}]})
        assert r.status_code == 200, r.text
        assert r.json()["rules"] == "9-5-2" and [s["name"] for s in r.json()["seats"]] == ["Me", "Friend 1", "Random 3"]


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
        hub.reload(t["id"])  # replayed from the database for each request
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as cl:
            async def other_work(ticks: list[int], done: asyncio.Event) -> None:
                while not done.is_set():
                    ticks.append(1)
                    await asyncio.sleep(0.001)

            for path in ("replay", "record"):
                ticks: list[int] = []
                done = asyncio.Event()
                w = asyncio.create_task(other_work(ticks, done))
                r = await cl.get(f"/api/tables/{t['id']}/{path}")
                done.set()
                await w
                assert r.status_code == 200 and len(r.content) > 10_000
                assert len(ticks) >= 5, (path, len(ticks))  # the event loop ran while the match was replayed

    asyncio.run(run())
