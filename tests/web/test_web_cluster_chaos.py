"""Chaos on many processes (docs/web.md, "Many processes"): 50 tables (computers only with a spectator, and a
scripted person with two computers) across three serve processes behind haproxy on one PostgreSQL database; one
process is killed (kill -9) and started again every 10 seconds for a minute. Afterwards every table's log is a legal
record (``sergeant-major check``'s checks) with every entry once (no version missing or repeated), and every
unfinished table still moves."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
websockets = pytest.importorskip("websockets")

from _clusterhelp import Rig, log_check, running_rig  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

TABLES = 50
MINUTE = 60.0
EVERY = 10.0


@pytest.fixture
def rig() -> Iterator[Rig]:
    with running_rig(delay=0.2) as r:
        yield r


def _create(url: str, i: int) -> tuple[str, str | None]:
    person = i % 2 == 0
    first = {"kind": "me", "name": "P"} if person else {"kind": "computer", "level": "heuristic"}
    body = json.dumps({"name": f"chaos {i}", "rules": "9-5-2", "seed": 7000 + i, "away_timeout": -1,
                       "seats": [first, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"}]})
    req = urllib.request.Request(url + "/api/tables", data=body.encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        out = json.loads(r.read())
    return out["id"], (out["seats"][0]["token"] if person else None)


async def _client(url: str, tid: str, token: str | None, stop: threading.Event, errors: list[Any]) -> None:
    """A person playing the first legal action after a short think (``token``), or a spectator; reconnects through the
    proxy whenever its connection goes."""
    from websockets.asyncio.client import connect

    rng = random.Random(tid)
    ws_url = url.replace("http", "ws") + f"/ws/{tid}"
    while not stop.is_set():
        try:
            async with connect(ws_url, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                while not stop.is_set():
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    except TimeoutError:
                        continue
                    if m["type"] == "error":
                        if m["code"] not in ("stale", "storage"):
                            errors.append((tid, m))
                        elif m["code"] == "storage":  # nothing was stored: asked for the state again, then played again
                            await ws.send(json.dumps({"type": "join", "token": token}))
                        continue
                    if m["type"] != "state" or token is None or m["over"]:
                        continue
                    if m["waiting_start"]:
                        await ws.send(json.dumps({"type": "start", "v": m["v"]}))
                    elif m["view"]["legal"]:
                        await asyncio.sleep(rng.uniform(0.0, 0.1))
                        a = dict(m["view"]["legal"][0])
                        a.pop("seat")
                        await ws.send(json.dumps({"type": "act", "v": m["v"], "action": a}))
        except Exception:  # noqa: BLE001 - the process went away (or refused the handshake while dying): again
            await asyncio.sleep(0.3)


def _lengths(db: str, tids: list[str]) -> dict[str, int]:
    from sergeant_major.web.store import Store

    st = Store(db)
    try:
        return st.log_lengths(tids)
    finally:
        st.dispose()


def test_chaos_kill_and_restart_every_10_s(rig: Rig, tmp_path: Path) -> None:
    tables = [_create(rig.url, i) for i in range(TABLES)]
    stop = threading.Event()
    errors: list[Any] = []

    def clients() -> None:
        async def main() -> None:
            await asyncio.gather(*(_client(rig.url, tid, tok, stop, errors) for tid, tok in tables))

        asyncio.run(main())

    th = threading.Thread(target=clients)
    th.start()
    kills = 0
    try:
        t0 = time.time()
        for k in range(1, int(MINUTE / EVERY) + 1):  # at 10, 20, ... 60 s
            time.sleep(max(0.0, t0 + k * EVERY - time.time()))
            i = kills % 3
            rig.kill9(i)
            kills += 1
            rig.restart(i)
        tids = [t for t, _ in tables]
        before = _lengths(rig.db, tids)
        time.sleep(8.0)  # every lease of a killed process taken over (5 s): each unfinished table moves
        after = _lengths(rig.db, tids)
    finally:
        stop.set()
        th.join(30)
    assert kills == 6
    assert not errors, errors[:5]
    from sergeant_major.web.store import Store
    from sergeant_major.web.tables import GameTable

    st = Store(rig.db)
    stuck = []
    total = 0
    for tid in tids:
        log = log_check(rig.db, tid)  # every idx once, and a legal record
        total += len(log)
        got = st.table(tid)
        assert got is not None
        gt = GameTable(*got)
        if not gt.match.over and after.get(tid, 0) <= before.get(tid, 0):
            stuck.append((tid, after.get(tid), gt.match.to_act, gt.waiting_start, st.lease_holders([tid]), rig.process_ids(),
                          [(p.seat, p.holder, p.conns, round(p.now - p.seen, 1)) for p in st.presence([tid])]))
    assert not stuck, stuck
    # one table through the command line as well: sergeant-major check on its record
    got = st.table(tids[1])
    assert got is not None
    path = tmp_path / "chaos.json"
    from sergeant_major.records import dumps_record

    path.write_text(dumps_record(GameTable(*got).record()))
    st.dispose()
    out = subprocess.run([str(Path(sys.executable).with_name("sergeant-major")), "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("OK"), out.stdout + out.stderr
    assert total > 50 * TABLES  # the tables played on through the kills
