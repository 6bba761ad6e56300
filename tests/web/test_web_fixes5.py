"""Regressions from a fifth run on the browser play's server: a ``join`` with a name over 40 characters refused like
table creation refuses it (it was cut to 40); ``start`` after the match answered ``over``; request bodies over 64 KiB
refused with HTTP 413 without being read; ``/api/history`` replaying tables off the event loop; a player leaving a
seat on the same connection shown offline to the others at once, the seat's absence counted from then."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.connections import Conn  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402


def test_a_join_with_a_name_over_40_characters_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "name": "A" * 45}`` seated the client and renamed the seat to 40 "A"s,
    while creating a table with a seat name of 41 characters is refused. Now ``bad_message`` naming the limit and
    quoting the name's start; the connection is neither seated nor moved, the seat not renamed."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        gt = hub.load(tid)
        assert gt is not None
        c = connect(hub, tid)
        for seated in (None, 0):
            if seated is not None:
                await send(hub, c, {"type": "join", "token": t["seats"][seated]["token"]})
            n, frames = len(gt.log), len(c.ws.frames)
            await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "Benjamin" + "B" * 33})
            assert len(c.ws.frames) == frames + 1, c.ws.frames[frames:]
            err = json.loads(c.ws.frames[-1])
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert "at most 40 characters" in err["reason"] and '"BenjaminBBB' in err["reason"], err
            assert "nothing was changed" in err["reason"]
            assert c.seat == seated and c.joined == (seated is not None) and len(gt.log) == n
            assert [s.name for s in gt.seats] == ["Me", "Friend 1", "Heuristic 3"]
            got = hub.store.table(tid)
            assert got is not None and [s.name for s in got[1]] == ["Me", "Friend 1", "Heuristic 3"]
        await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "B" * 40})
        st = c.ws.last()
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "B" * 40

    asyncio.run(run())


async def _play_to_the_end(hub: Hub, c: Conn) -> dict[str, Any]:
    """Play seat ``c``'s first legal action (and start each deal) until the match is over; its last state."""
    while True:
        st = c.ws.last()
        assert st is not None
        if st["over"]:
            return st
        if st["waiting_start"]:
            await send(hub, c, {"type": "start", "v": st["v"]})
        else:
            assert st["view"]["to_act"] == c.seat and st["view"]["legal"], st["view"]
            act = dict(st["view"]["legal"][0])
            act.pop("seat")
            await send(hub, c, {"type": "act", "v": st["v"], "action": act})


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
        st = await _play_to_the_end(hub, c)
        n = len(gt.log)
        await send(hub, c, {"type": "start", "v": st["v"]})
        err = c.ws.last("error")
        assert err is not None and err["code"] == "over" and "the match is over" in err["reason"], err
        assert len(gt.log) == n and gt.match.over

    asyncio.run(run())


def _post_raw(app: Any, path: str, chunks: int, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[str, Any], int]:
    """POST to ``app`` (plain ASGI) a body of ``chunks`` chunks of 16 KiB of spaces; the status, the JSON answer and how
    many chunks the app read."""
    read = 0
    out: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks:
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": b" " * 16384, "more_body": read < chunks}

    async def reply(msg: dict[str, Any]) -> None:
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
        elif msg["type"] == "http.response.body":
            out["body"] = out.get("body", b"") + msg.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 9),
             "server": ("t", 80), "headers": [(b"host", b"t"), (b"content-type", b"application/json"), *headers]}
    asyncio.run(app(scope, receive, reply))
    return out["status"], json.loads(out["body"]), read


def test_request_bodies_over_64_kib_are_refused_with_413_without_being_read(tmp_path: Path) -> None:
    """The repro: ``POST /api/history`` with a body of 20 MB (``{"tokens": [...]}``) was read whole into memory and
    answered 200, ``/api/tables`` with a 10 MB name read whole too: anyone could make the server hold any number of
    bytes. Now a body over 64 KiB is HTTP 413: by its Content-Length before anything is read, else (a chunked body, no
    length) once 64 KiB have been read; no table is made. The largest real body, 500 tokens, is taken."""
    import httpx

    from sergeant_major.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    hub = app.state.hub
    t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
    for path in ("/api/tables", "/api/history"):
        status, out, read = _post_raw(app, path, 4000, [(b"content-length", str(4000 * 16384).encode())])  # 64 MB
        assert status == 413 and out["error"] == "a request body of 65536000 bytes is refused (at most 65536 bytes)", out
        assert read == 0
        status, out, read = _post_raw(app, path, 4000, [])  # no length: read until past the limit only
        assert status == 413 and out["error"] == "a request body of more than 65536 bytes is refused (at most 65536 bytes)", out
        assert read == 5  # 4 chunks are 64 KiB
        status, out, read = _post_raw(app, path, 4, [])  # 64 KiB exactly: read, then refused as no JSON
        assert status == 400 and "not JSON" in out["error"] and read == 4, out

    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as cl:
            r = await cl.post("/api/tables", json={"name": "x" * 70_000, "seats": []})
            assert r.status_code == 413 and "at most 65536 bytes" in r.json()["error"], r.text
            tokens = [t["seats"][0]["token"], *(f"{i:022d}" for i in range(499))]  # as many as are read, of a token's length
            r = await cl.post("/api/history", json={"tokens": tokens})
            assert r.status_code == 200 and [g["id"] for g in r.json()["games"]] == [t["id"]], r.text

    asyncio.run(run())
    with sqlite3.connect(tmp_path / "b.sqlite3") as con:
        assert con.execute("SELECT id FROM sm_tables").fetchall() == [(t["id"],)]  # no table made


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
        await _play_to_the_end(hub, c)
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
        assert games[live_t["id"]] == {"id": live_t["id"], "name": "T", "rules": "9-5-2", "seat": 1,
                                       "token": live_t["seats"][1]["token"], "over": False,
                                       "names": ["Me", "Friend 1", "Random 3"], "totals": [0, 0, 0], "deal": 1,
                                       "winners": [], "created": live.row.created}
        assert replay_threads and threading.get_ident() not in replay_threads  # replayed in a worker thread
        assert waits == [True]  # ... while the event loop ran
        assert set(hub.tables) == {live_t["id"]} and hub.tables[live_t["id"]] is live  # nothing loaded by the thread

    asyncio.run(run())


def test_leaving_a_seat_on_the_same_connection_is_shown_and_timed_from_then(tmp_path: Path) -> None:
    """The repro: a player who became a spectator (``join`` with a null token) on the same websocket was still shown
    online to the others until the next change; one who took another seat on it left the first seat with the last-seen
    time of long ago (when the table was loaded), so the next check handed it to a stand-in at once (0.9 s after it was
    left, with a timeout of 3 s). Now the others get the new state at once, and the seat left is last seen then."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=3, timeout=30)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        gt = hub.tables[tid]
        st = b.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [True, True, False]
        n, frames_a = len(b.ws.frames), len(a.ws.frames)
        await send(hub, a, {"type": "join", "token": None})
        assert len(b.ws.frames) == n + 1, b.ws.frames[n:]
        st = b.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [False, True, False]
        assert len(a.ws.frames) == frames_a + 1 and (a.ws.last() or {})["you"] is None  # one state for the spectator
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})  # back at seat 0
        hub.last_seen[(tid, 0)] = hub.last_seen[(tid, 1)] = 0.0  # as when the table was loaded long ago
        hub.drop(b)  # seat 1's player closes the tab: last seen now
        await send(hub, a, {"type": "join", "token": t["seats"][1]["token"]})  # and seat 0's takes seat 1 on his connection
        assert a.seat == 1 and hub.online(tid) == {1}
        await hub.check_away()
        assert gt.away == set() and [e.kind for e in gt.log].count("away") == 0  # seat 0 was left just now
        assert hub.last_seen[(tid, 0)] > 1e9
        st = a.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [False, True, False]

    asyncio.run(run())
