"""Many ``sergeant-major serve`` processes on one PostgreSQL database behind haproxy (docs/web.md, "Many processes"):
players of one table on different processes play a whole match; a process killed (kill -9) in an exchange, in the
middle of a trick and while a computer's move is due loses nothing and applies nothing twice; the lease of a dead
process's table is taken over within 5 seconds. Scripted websocket clients; the browsers' test is
test_web_browser_cluster.py."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from _clusterhelp import Rig, haproxy_path, holders, log_check, postgres_database, running_rig  # noqa: E402
from _webhelp import connect as hub_connect  # noqa: E402
from _webhelp import make_hub, new_table, send  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

RULES = "9-5-2 deals=3"
SEED = 18
KINDS = ["me", "friend", "heuristic"]


@pytest.fixture
def rig() -> Iterator[Rig]:
    with running_rig(delay=0.4) as r:
        yield r


def _first_legal(st: dict[str, Any]) -> dict[str, Any]:
    a = dict(st["view"]["legal"][0])
    a.pop("seat")
    return a


def _reference() -> list[Any]:
    """The same match (each person plays the first legal action, seat 0 starts the deals), never interrupted, on one
    process with SQLite: its record's deals."""
    import tempfile

    async def run() -> list[Any]:
        hub = make_hub(Path(tempfile.mkdtemp()))
        t = new_table(hub, RULES, KINDS, seed=SEED)
        cs = [hub_connect(hub, t["id"]), hub_connect(hub, t["id"])]
        for i, c in enumerate(cs):
            await send(hub, c, {"type": "join", "token": t["seats"][i]["token"], "name": ["Ann", "Bea"][i]})
        gt = hub.tables[t["id"]]
        while not gt.match.over:
            for c in cs:
                st = c.ws.last()
                if st["v"] != gt.version:
                    continue
                if st["waiting_start"] and c.seat == 0:
                    await send(hub, c, {"type": "start", "v": st["v"]})
                elif not st["waiting_start"] and st["view"]["legal"]:
                    await send(hub, c, {"type": "act", "v": st["v"], "action": _first_legal(st)})
        deals: list[Any] = gt.record()["deals"]
        return deals

    return asyncio.run(run())


class Player:
    """A scripted person at one seat, through the proxy: reconnects (to whichever process the proxy picks) when its
    connection goes, and plays the first legal action of each state for its seat once."""

    def __init__(self, url: str, tid: str, seat: int, token: str, name: str) -> None:
        self.url = url.replace("http", "ws") + f"/ws/{tid}"
        self.seat, self.token, self.name = seat, token, name
        self.ws: Any = None
        self.st: dict[str, Any] | None = None
        self.sent_v = -1
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0

    def connect(self, limit: float = 15.0) -> None:
        deadline = time.time() + limit
        while True:
            try:
                self.ws = ws_connect(self.url, open_timeout=3)
                self.ws.send(json.dumps({"type": "join", "token": self.token, "name": self.name}))
                return
            except (OSError, InvalidHandshake, InvalidStatus, TimeoutError):
                assert time.time() < deadline, "no process took the connection"
                time.sleep(0.2)

    def pump(self) -> None:
        """Read what has come; reconnect when the connection is gone."""
        while True:
            try:
                m = json.loads(self.ws.recv(timeout=0.02))
            except TimeoutError:
                return
            except ConnectionClosed:
                self.reconnects += 1
                self.sent_v = -1
                self.connect()
                continue
            if m["type"] == "state":
                self.st = m
            elif m["type"] == "error" and m["code"] != "stale":
                self.errors.append(m)

    def play(self) -> None:
        st = self.st
        if st is None or st["over"] or st["v"] == self.sent_v:
            return
        try:
            if st["waiting_start"]:
                # as the browser's Start button: deal 1 only once this process shows every person at the table
                waiting = st["view"]["deal"] == 1 and any(s["kind"] == "human" and not s["online"] for s in st["table"]["seats"])
                if self.seat == 0 and not waiting:
                    self.ws.send(json.dumps({"type": "start", "v": st["v"]}))
                    self.sent_v = st["v"]
            elif st["view"]["legal"]:
                self.ws.send(json.dumps({"type": "act", "v": st["v"], "action": _first_legal(st)}))
                self.sent_v = st["v"]
        except ConnectionClosed:
            pass  # read again (and reconnected) at the next pump


def _create(url: str) -> dict[str, Any]:
    body = json.dumps({"name": "C", "rules": RULES, "away_timeout": -1,
                       "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


def _set_seed(db: str, tid: str) -> None:
    """Deal the match from :data:`SEED`, as only a test may (an invited table refuses a chosen seed)."""
    from sergeant_major.web.store import Store, tables_t

    st = Store(db)
    with st.engine.begin() as c:
        c.execute(tables_t.update().where(tables_t.c.id == tid).values(seed=SEED))
    st.dispose()


def _kill_point(st: dict[str, Any], done: set[str]) -> str | None:
    v = st["view"]
    if st["waiting_start"] or st["over"]:
        return None
    if v["phase"] == "exchange" and "exchange" not in done and v["to_act"] in (0, 1):
        return "exchange"
    if v["phase"] == "play" and v["trick"] and v["to_act"] in (0, 1) and "trick" not in done:
        return "trick"
    if v["phase"] == "play" and v["to_act"] == 2 and "computer" not in done and st["v"] > 20:
        return "computer"
    return None


def test_two_processes_one_table_kills(rig: Rig) -> None:
    """Ann and Bea through the proxy on two different processes: Bea's join is seen by Ann's process (deal 1 starts);
    kill -9 of Ann's or Bea's process in an exchange and in a trick, and of the lease holder while the computer's move
    is due: each time the player reconnects, and play goes on with the same seat, cards and version, the computer
    taken over within 5 s; the log is every entry once, the match legal and the very one played without kills."""
    out = _create(rig.url)
    tid = out["id"]
    _set_seed(rig.db, tid)
    tokens = [out["seats"][0]["token"], out["seats"][1]["invite"].split("#token=")[1]]
    players = [Player(rig.url, tid, 0, tokens[0], "Ann")]
    players[0].connect()
    time.sleep(0.3)
    players.append(Player(rig.url, tid, 1, tokens[1], "Bea"))
    players[1].connect()
    deadline = time.time() + 5
    while True:  # the proxy sends the least busy process each connection: Ann and Bea on two processes
        for p in players:
            p.pump()
        _lease, seats = holders(rig.db, tid)
        if seats.get(0) and seats.get(1):
            break
        assert time.time() < deadline, seats
    assert seats[0] != seats[1], f"both players on one process: {seats}"
    done: set[str] = set()
    takeovers: list[float] = []
    t_end = time.time() + 240
    while True:
        for p in players:
            p.pump()
        st = players[0].st
        if st is not None and st["over"] and players[1].st is not None and players[1].st["over"]:
            break
        assert time.time() < t_end, ("the match did not end", st and st["v"], [p.errors for p in players])
        if st is not None and players[1].st is not None and players[1].st["v"] == st["v"]:
            point = _kill_point(st, done)
            if point is not None:
                done.add(point)
                ids = rig.process_ids()
                lease, seats = holders(rig.db, tid)
                if point == "computer":
                    target = ids.index(lease)
                else:
                    target = ids.index(next(iter(seats[st["view"]["to_act"]])))
                before = st
                rig.kill9(target)
                t0 = time.time()
                # the others see the same table: nothing lost (the version and the player's own view)
                while players[0].st is before or players[0].st["v"] <= before["v"] and point == "computer":
                    for p in players:
                        p.pump()
                    assert time.time() - t0 < 10, f"nothing happened after the kill at {point}"
                    if point != "computer":
                        break
                if point == "computer":
                    takeovers.append(time.time() - t0)
                else:
                    for p in players:
                        p.pump()
                    assert players[0].st["v"] >= before["v"]
                rig.restart(target)
        for p in players:
            p.play()
        time.sleep(0.01)
    assert done == {"exchange", "trick", "computer"}
    assert sum(p.reconnects for p in players) >= 2
    assert all(t < 5.0 + 1.0 for t in takeovers), takeovers  # taken over within 5 s (plus the computer's 0.4 s delay)
    assert [p.errors for p in players] == [[], []]
    log_check(rig.db, tid)
    with urllib.request.urlopen(rig.url + f"/api/tables/{tid}/record", timeout=10) as r:
        assert json.loads(r.read())["deals"] == _reference()


def test_serve_cluster_script_starts_and_stops_everything() -> None:
    """scripts/serve-cluster: N processes and haproxy answer on --port; SIGTERM stops every one of them."""
    import os
    import signal
    import subprocess
    import sys

    from _clusterhelp import ROOT, port_open
    from _webhelp import free_port

    haproxy_path()
    db, drop = postgres_database()
    port = free_port()
    while any(port_open(port + i) for i in range(1, 3)):
        port = free_port()
    env = {**os.environ, "SERGEANT_MAJOR": str(Path(sys.executable).with_name("sergeant-major")), "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen(["bash", str(ROOT / "scripts" / "serve-cluster"), "--db", db, "--processes", "2", "--port", str(port),
                          "--db-pool", "6"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert p.stdout is not None
        assert "by 2 processes" in p.stdout.readline()
        deadline = time.time() + 60
        ids: set[str] = set()
        while len(ids) < 2:  # both processes answer through the proxy (leastconn: one, then the other)
            assert time.time() < deadline, ids
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=3) as r:
                    ids.add(json.loads(r.read())["process"])
            except OSError:
                time.sleep(0.3)
            for i in (1, 2):
                if port_open(port + i):
                    with urllib.request.urlopen(f"http://127.0.0.1:{port + i}/api/health", timeout=3) as r:
                        ids.add(json.loads(r.read())["process"])
        p.send_signal(signal.SIGTERM)
        p.wait(30)
        time.sleep(1)
        assert not any(port_open(port + i) for i in range(3)), "a process was left running"
    finally:
        if p.poll() is None:
            p.kill()
        drop()


def test_serve_cluster_refuses_sqlite() -> None:
    import subprocess

    from _clusterhelp import ROOT

    r = subprocess.run(["bash", str(ROOT / "scripts" / "serve-cluster"), "--db", "sqlite:///x.sqlite3"], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 2 and "is not a PostgreSQL URL" in r.stderr
