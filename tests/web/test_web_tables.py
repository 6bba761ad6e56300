"""The hub's tables in memory: a table nobody is at is forgotten whole, a table not in memory is read from the database
in a worker thread once, and a read older than a copy installed and forgotten meanwhile is read anew."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402


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


def test_a_table_is_read_from_the_database_in_a_worker_thread_once(tmp_path: Path) -> None:
    """The repro: a table not in memory (after a restart, or everyone gone) was read from the database and replayed on
    the event loop, at a client's first message: a slow database (or a long match replayed) held every other table of
    the server meanwhile. Now it is read in a worker thread: the event loop answers another table's ping during the
    read; and two clients' joins at once make one read and are seated at one table (not two copies)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        other = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=4)
        tid = t["id"]
        o = connect(hub, other["id"])
        await send(hub, o, {"type": "join", "token": other["seats"][0]["token"]})
        real = hub.store.table
        reads: list[str] = []
        go = threading.Event()
        waited: list[bool] = []

        def table(table_id: str) -> Any:
            reads.append(table_id)
            if table_id == tid:
                waited.append(go.wait(3))  # False: the event loop was blocked (it sets go once it has served the ping)
            return real(table_id)

        hub.store.table = table  # type: ignore[method-assign]
        a, b = connect(hub, tid), connect(hub, tid)
        ja = asyncio.create_task(send(hub, a, {"type": "join", "token": t["seats"][0]["token"]}))
        jb = asyncio.create_task(send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"}))
        await asyncio.sleep(0.05)
        await send(hub, o, {"type": "ping"})  # another table is served while this one is read
        assert json.loads(o.ws.frames[-1]) == {"type": "pong"}
        go.set()
        await asyncio.wait_for(asyncio.gather(ja, jb), 10)
        assert waited == [True], "the event loop was blocked by the read"
        assert reads.count(tid) == 1, reads
        sa, sb = a.ws.last(), b.ws.last()
        assert sa is not None and sb is not None and sa["you"] == 0 and sb["you"] == 1
        # one table: each sees the other online, and Bob's name
        assert sa["table"]["seats"][1] == sb["table"]["seats"][1] == {"name": "Bob", "kind": "human", "online": True,
                                                                       "away": False, "left": False,
                                                                       "free": False, "name_level": None}
        assert hub.tables[tid].seats[1].name == "Bob" and hub.loading == {} and hub.installed == set()

    asyncio.run(run())


def test_a_read_older_than_a_copy_installed_and_forgotten_meanwhile_is_read_anew(tmp_path: Path) -> None:
    """While a read of a table was in flight, a copy of it installed (by :meth:`Hub.load`), changed and forgotten again
    must not leave the older read installed: it is read anew."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        tid = t["id"]
        real = hub.store.table
        go = threading.Event()
        reads: list[int] = []

        def table(table_id: str) -> Any:
            got = real(table_id)
            reads.append(len(got[2]) if got else -1)
            if len(reads) == 1:
                go.wait(3)
            return got

        hub.store.table = table  # type: ignore[method-assign]
        reading = asyncio.create_task(hub.fetch(tid))
        await asyncio.sleep(0.05)
        copy = hub.load(tid)  # installed meanwhile, a start stored, forgotten
        assert copy is not None
        async with hub.lock(tid):
            await hub.append(copy, "start", 0, {"deal": 1})
        hub.reload(tid, copy)
        go.set()
        gt = await asyncio.wait_for(reading, 10)
        assert gt is not None and len(gt.log) == 1 and gt.released == 1, (reads, gt and len(gt.log))

    asyncio.run(run())
