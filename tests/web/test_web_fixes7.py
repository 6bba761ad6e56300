"""Regressions from a fourth fresh-eyes run on the web server (an in-process hub with fake websockets): the table's lock
is not held while a computer waits out ``--delay``, and a table's lock, clients and last-seen times are forgotten with
it once nobody is connected any more."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402


def test_a_player_is_seated_at_once_while_the_computers_wait_out_their_delay(tmp_path: Path) -> None:
    """The repro: with ``--delay`` (0.6 s by default) the table's lock was held while each computer waited before its
    move, so a player reconnecting (or opening a second tab) while the computers played saw nothing until all of them
    had moved: with five computer moves due, three seconds. Now the lock is free during the wait: she is seated and
    shown the stored state at once, and the computers' moves are the same."""
    async def run() -> list[object]:
        hub = make_hub(tmp_path)
        hub.delay = 0.2
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        tok = t["seats"][0]["token"]
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": tok})
        started = asyncio.create_task(send(hub, a, {"type": "start", "v": 0}))
        await asyncio.sleep(0.05)  # the first computer waits its delay now
        got_at: list[float] = []
        b = connect(hub, t["id"], on_send=lambda _text: got_at.append(time.monotonic()))
        t0 = time.monotonic()
        await send(hub, b, {"type": "join", "token": tok})
        answered = time.monotonic() - t0
        waited = got_at[0] - t0
        first = b.ws.last()
        assert first is not None and first["you"] == 0
        assert waited < 0.15, waited  # it was 1 s: five delays of 0.2 s
        assert answered < 0.15, answered  # and its join is done: the run going on takes the computers' moves
        await started
        await hub.idle(t["id"])  # the computers' paced moves are taken in the background
        gt = hub.tables[t["id"]]
        assert [by for _a, by in gt.acts] == ["computer", "forced", "computer", "computer", "computer", "computer"]
        assert a.ws.last() == b.ws.last() and gt.match.to_act == 0
        got = hub.store.table(t["id"])
        assert got is not None and [e.data for e in got[2]] == [e.data for e in gt.log]
        return [e.data for e in gt.log]

    with_delay = asyncio.run(run())

    async def undelayed() -> list[object]:
        hub = make_hub(tmp_path / "0")
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        return [e.data for e in hub.tables[t["id"]].log]

    (tmp_path / "0").mkdir()
    assert asyncio.run(undelayed()) == with_delay


def test_a_table_nobody_is_at_is_forgotten_whole(tmp_path: Path) -> None:
    """The repro: every table ever opened left its lock, an empty list of clients and a last-seen time per seat in the
    server's memory for good (the table itself was freed when its last client left): a long-running server grew with
    every table made. Now all of them go with the table, which is replayed from the database when opened again."""
    app = create_app(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    hub = app.state.hub
    with TestClient(app) as cl:
        ids, vs = [], []
        for _ in range(5):
            out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [
                {"kind": "me"}, {"kind": "computer", "level": "random"}, {"kind": "computer", "level": "heuristic"}]}).json()
            ids.append(out["id"])
            with cl.websocket_connect(f"/ws/{out['id']}") as ws:
                ws.send_text(json.dumps({"type": "join", "token": out["seats"][0]["token"]}))
                assert ws.receive_json()["you"] == 0
                ws.send_text(json.dumps({"type": "start", "v": 0}))
                vs.append(ws.receive_json()["v"])
            with cl.websocket_connect(f"/ws/{out['id']}") as ws:
                ws.send_text(json.dumps({"type": "join", "token": None}))
                assert ws.receive_json()["you"] is None
        with cl.websocket_connect(f"/ws/{ids[0]}") as ws:  # opened again: the same table, from the database
            ws.send_text(json.dumps({"type": "join", "token": None}))
            assert ws.receive_json()["v"] == vs[0] >= 1
        deadline = time.time() + 5
        while (hub.tables or hub.conns or hub.last_seen or len(hub.locks)) and time.time() < deadline:
            time.sleep(0.02)  # each websocket's handler finishes after the client has closed it
            gc.collect()
        assert (dict(hub.tables), dict(hub.conns), dict(hub.last_seen), len(hub.locks), dict(hub.advancing)) == ({}, {}, {}, 0, {})


def test_a_spectators_join_with_a_bad_name_is_refused(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": null, "name": 5}`` (or a name with an escape sequence, or over 40
    characters) was taken silently as a spectator's join, while the same name with a token is refused. Now it is
    refused alike, quoting it, and the connection is not made a spectator."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        for name in (5, "\x1b]0;pwned\x07", "x" * 41):
            s = connect(hub, t["id"])
            await send(hub, s, {"type": "join", "token": None, "name": name})
            assert [json.loads(f)["code"] for f in s.ws.frames] == ["bad_message"], s.ws.frames
            assert not s.joined
        s = connect(hub, t["id"])
        await send(hub, s, {"type": "join", "token": None, "name": "Zoe"})  # a good name: watching, the name unused
        st = s.ws.last()
        assert st is not None and st["you"] is None

    asyncio.run(run())
