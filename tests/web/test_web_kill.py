"""Kill the real server (kill -9) in the middle of an exchange, a discard and a trick; restart it on the
same database; the game continues identically (the same cards, the same actions to the end). With SQLite,
and with PostgreSQL when ``SM_TEST_POSTGRES_URL`` is set (``.ci/run`` sets it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from _webhelp import Server, connect, make_hub, new_table, send  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

RULES = "9-5-2 deals=4"
SEED = 18  # a match where seat 0 gives in an exchange, discards as dealer and plays into tricks
KINDS = ["me", "heuristic", "heuristic"]


def _policy(st: dict[str, Any]) -> dict[str, Any]:
    a = dict(st["view"]["legal"][0])
    a.pop("seat")
    return a


def _stop_point(st: dict[str, Any], done: set[str]) -> str | None:
    """Which kill point this state is at (the first time only)."""
    v = st["view"]
    if st["waiting_start"] or st["over"] or v["to_act"] != 0:
        return None
    mine = [e for e in v["exchange"] if e["giver"] == 0]
    if v["phase"] == "exchange" and mine and "exchange" not in done:
        return "exchange"
    if v["phase"] == "discard" and v["discards"] and "discard" not in done:
        return "discard"
    if v["phase"] == "play" and v["trick"] and "trick" not in done:
        return "trick"
    return None


def _reference() -> list[Any]:
    """The same match, never interrupted, in process: its record's deals."""
    import tempfile

    async def run() -> list[Any]:
        hub = make_hub(Path(tempfile.mkdtemp()))
        t = new_table(hub, RULES, KINDS, seed=SEED)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        gt = hub.tables[t["id"]]
        while not gt.match.over:
            st = c.ws.last()
            if st["waiting_start"]:
                await send(hub, c, {"type": "start", "v": st["v"]})
            else:
                await send(hub, c, {"type": "act", "v": st["v"], "action": _policy(st)})
        deals: list[Any] = gt.record()["deals"]
        return deals

    return asyncio.run(run())


def _create(url: str) -> tuple[str, str]:
    body = json.dumps({"name": "K", "rules": RULES, "seed": SEED, "away_timeout": -1,
                       "seats": [{"kind": "me"}, {"kind": "computer", "level": "heuristic"},
                                 {"kind": "computer", "level": "heuristic"}]}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out = json.loads(r.read())
    return out["id"], out["seats"][0]["token"]


def _latest_state(ws: Any, want_v: int | None = None) -> dict[str, Any]:
    """Read frames until a state (at least version ``want_v``) that waits for seat 0 or is over."""
    while True:
        m = json.loads(ws.recv(timeout=20))
        if m["type"] == "error":
            raise AssertionError(m)
        if m["type"] != "state" or (want_v is not None and m["v"] < want_v):
            continue
        v = m["view"]
        if m["over"] or m["waiting_start"] or v["legal"]:
            return m


def _play_with_kills(db: str) -> tuple[list[Any], set[str]]:
    server = Server(db)
    server.start()
    done: set[str] = set()
    try:
        tid, tok = _create(server.url)
        ws_url = server.url.replace("http", "ws") + f"/ws/{tid}"
        stack = contextlib.ExitStack()
        ws = stack.enter_context(ws_connect(ws_url))
        ws.send(json.dumps({"type": "join", "token": tok}))
        st = _latest_state(ws)
        while not st["over"]:
            point = _stop_point(st, done)
            if point is not None:
                done.add(point)
                stack.close()
                server.kill9()
                server.start()
                stack = contextlib.ExitStack()
                ws = stack.enter_context(ws_connect(ws_url))
                ws.send(json.dumps({"type": "join", "token": tok}))
                again = _latest_state(ws)
                assert again["v"] == st["v"] and again["view"] == st["view"], f"state changed over the kill at {point}"
                st = again
            if st["waiting_start"]:
                ws.send(json.dumps({"type": "start", "v": st["v"]}))
            else:
                ws.send(json.dumps({"type": "act", "v": st["v"], "action": _policy(st)}))
            st = _latest_state(ws, st["v"] + 1)
        stack.close()
        with urllib.request.urlopen(server.url + f"/api/tables/{tid}/record", timeout=10) as r:
            rec = json.loads(r.read())
        return rec["deals"], done
    finally:
        server.stop()


@pytest.mark.slow
def test_kill9_sqlite(tmp_path: Path) -> None:
    deals, done = _play_with_kills(f"sqlite:///{tmp_path / 'kill.sqlite3'}")
    assert done == {"exchange", "discard", "trick"}
    assert deals == _reference()


@pytest.mark.postgres
def test_kill9_postgresql() -> None:
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    deals, done = _play_with_kills(url)
    assert done == {"exchange", "discard", "trick"}
    assert deals == _reference()


@pytest.mark.slow
def test_kill9_at_any_moment_while_computers_play(tmp_path: Path) -> None:
    """Kills at moments not chosen by the game (a timer, while the server's computers think with a
    delay and write their actions): after each restart the match goes on, and ends exactly as uninterrupted."""
    import threading

    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    server = Server(f"sqlite:///{tmp_path / 'any.sqlite3'}", delay=0.01)
    server.start()
    kills = 0
    try:
        tid, tok = _create(server.url)
        ws_url = server.url.replace("http", "ws") + f"/ws/{tid}"
        lock = threading.Lock()

        def killer() -> None:
            nonlocal kills
            with lock:
                if server.proc is not None:
                    server.kill9()
                    kills += 1

        over = False
        rounds = 0
        while not over:
            rounds += 1
            assert rounds < 10
            with lock:
                if server.proc is None:
                    server.start()
            timer = threading.Timer(0.15 + 0.1 * rounds, killer) if rounds <= 3 else None
            if timer is not None:
                timer.start()
            try:
                with ws_connect(ws_url) as ws:
                    ws.send(json.dumps({"type": "join", "token": tok}))
                    st = _latest_state(ws)
                    while not st["over"]:
                        if st["waiting_start"]:
                            ws.send(json.dumps({"type": "start", "v": st["v"]}))
                        else:
                            ws.send(json.dumps({"type": "act", "v": st["v"], "action": _policy(st)}))
                        st = _latest_state(ws, st["v"] + 1)
                    over = True
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                pass  # killed meanwhile, also in the middle of the websocket handshake (no valid HTTP response)
            if timer is not None:
                timer.join()
        assert kills >= 1
        with urllib.request.urlopen(server.url + f"/api/tables/{tid}/record", timeout=10) as r:
            deals = json.loads(r.read())["deals"]
        assert deals == _reference()
    finally:
        server.stop()
