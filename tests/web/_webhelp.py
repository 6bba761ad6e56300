"""Helpers for the web tests: an in-process hub with fake websockets, the card-visibility oracle, a real server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sergeant_major.core.match import Match
from sergeant_major.web.app import create_table
from sergeant_major.web.connections import Conn
from sergeant_major.web.hub import Hub
from sergeant_major.web.store import Store, tables_t
from sergeant_major.web.tables import GameTable

CARD_RE = re.compile(r'"([2-9TJQKA][CDHS])"')


@dataclass
class FakeWS:
    """Stands in for a starlette WebSocket: records every text frame sent."""

    frames: list[str] = field(default_factory=list)
    on_send: Any = None

    async def send_text(self, text: str) -> None:
        if self.on_send is not None:
            self.on_send(text)
        self.frames.append(text)

    def last(self, kind: str = "state") -> dict[str, Any] | None:
        for f in reversed(self.frames):
            m = json.loads(f)
            if m["type"] == kind:
                return m
        return None


async def write_while_loading(hub: Hub, table_id: str, write: Callable[[], Awaitable[Any]]) -> GameTable:
    """The race of a table's first load with a write of its rows: the load (:meth:`Hub.fetch`, as a websocket's) is held
    between its read of the database and its install while ``write()`` runs, until the write is done or asks for the
    table being loaded (then it waits for that load); the load is then released. The copy loaded, once both are done."""
    read, release = threading.Event(), threading.Event()
    table_read, fetch = hub.store.table, hub.fetch
    asked = asyncio.Event()

    def held_read(tid: str) -> Any:
        got = table_read(tid)
        read.set()
        release.wait(10)
        return got

    async def asking(tid: str) -> GameTable | None:
        asked.set()
        return await fetch(tid)

    hub.store.table = held_read  # type: ignore[method-assign]
    loading = asyncio.ensure_future(hub.fetch(table_id))
    try:
        assert await asyncio.to_thread(read.wait, 10)
        hub.store.table = table_read  # type: ignore[method-assign]
        hub.fetch = asking  # type: ignore[method-assign]
        writing = asyncio.ensure_future(write())
        waiting = asyncio.ensure_future(asked.wait())
        await asyncio.wait([writing, waiting], return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        release.set()
        await writing
    finally:
        release.set()
        hub.store.table, hub.fetch = table_read, fetch  # type: ignore[method-assign]
    gt = await loading
    assert gt is not None and gt is hub.tables[table_id]
    return gt


def make_hub(tmp_path: Path) -> Hub:
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    store.migrate()
    return Hub(store, 0.0)


def new_table(hub: Hub, rules: str, kinds: list[str], seed: int = 1, timeout: int = -1) -> dict[str, Any]:
    """Create a table dealt from ``seed``; ``kinds`` per seat: ``me``, ``friend`` or a computer level.

    A table with an invited person (a friend, a second *me*) refuses a chosen seed (it would let its creator work out the others'
    cards): such a table is made with a random seed, and then ``seed`` is written into its database row, as
    only a test may, so that its deals are the same every run."""
    seats = [{"kind": k} if k in ("me", "friend") else {"kind": "computer", "level": k} for k in kinds]
    invited = "friend" in kinds or kinds.count("me") > 1
    body = {"name": "T", "rules": rules, "seats": seats, "away_timeout": timeout}
    out = create_table(hub.store, body if invited else {**body, "seed": seed})
    if invited:
        assert out["id"] not in hub.tables
        with hub.store.engine.begin() as conn:
            conn.execute(tables_t.update().where(tables_t.c.id == out["id"]).values(seed=seed))
    for s in out["seats"]:
        if s["invite"]:
            s["token"] = s["invite"].split("#token=")[1]
    return out


def connect(hub: Hub, tid: str, on_send: Any = None) -> Conn:
    c = Conn(FakeWS(on_send=on_send), tid)  # type: ignore[arg-type]
    hub.conns.setdefault(tid, []).append(c)
    return c


async def send(hub: Hub, c: Conn, msg: Any) -> None:
    await hub.handle(c, msg if isinstance(msg, str) else json.dumps(msg))


def allowed_cards(match: Match, seat: int | None) -> set[str]:
    """Every card ``seat`` (``None``: a spectator) may have seen up to now, computed from the state itself:
    cards played in any deal so far, and for a seat its own dealt cards (in 3-5-8 before the contract only
    the first ``contract-after``), cards it gave or received, and the kitty when it is the declarer who saw it."""
    out: set[str] = set()
    r = match.rules
    for d in match.deals:
        for t in d.completed:
            out.update(str(c) for _, c in t.cards)
        out.update(str(c) for _, c in d.current_trick())
        if seat is None:
            continue
        own = d.dealt[seat]
        if r.contract_after and d.contract is None:
            own = own[: r.contract_after]
        out.update(str(c) for c in own)
        for e in d.exchange_log:
            if seat in (e.giver, e.receiver):
                out.add(str(e.card))
        if seat == d.declarer and d.kitty_seen:
            out.update(str(c) for c in d.kitty_dealt)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``sergeant-major serve`` as a real subprocess (uvicorn on a free loopback port)."""

    def __init__(self, db: str, delay: float = 0.0, args: list[str] | None = None) -> None:
        self.db = db
        self.delay = delay
        self.args = args or []
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        exe = Path(sys.executable).with_name("sergeant-major")
        cmd = [str(exe), "serve", "--port", str(self.port), "--db", self.db, "--delay", str(self.delay), *self.args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if "served at" not in line:
            rest = self.proc.stdout.read().decode() if self.proc.poll() is not None else ""
            raise RuntimeError(f"the server did not start: {line}{rest}")
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server does not listen")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None


ME_FRIEND_COMPUTER = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]


def json_text(obj: object) -> str:
    """JSON text; a lone surrogate in ``obj`` is written as its escape (``json.dumps`` keeps ASCII)."""
    return json.dumps(obj)


async def play_to_the_end(hub: Hub, c: Conn) -> dict[str, Any]:
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


TWO_COMPUTERS = [{"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "heuristic"}]


def http_json(server: Server, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, body: JSON when it is JSON, else text) of a GET, or of a POST of ``body`` as JSON."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode()


def receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if m["type"] == kind:
            return m
        assert m["type"] != "error", m


async def play_out(hub: Hub, conns: list[Conn]) -> None:
    """Both seated players take their first legal action (and start every deal) until the match is over."""
    for _ in range(2000):
        st = conns[0].ws.last()  # type: ignore[attr-defined]
        assert st is not None
        if st["over"]:
            return
        for c in conns:
            s = c.ws.last()  # type: ignore[attr-defined]
            if s["waiting_start"]:
                await send(hub, c, {"type": "start", "v": s["v"]})
                break
            if s["view"]["to_act"] == s["you"] and s["view"]["legal"]:
                await send(hub, c, {"type": "act", "v": s["v"], "action": s["view"]["legal"][0]})
                break
    raise AssertionError("the match did not end")
