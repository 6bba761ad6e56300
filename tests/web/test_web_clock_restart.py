"""Turn clocks survive a restart: a real server process (``sergeant-major serve``) killed with SIGKILL in the middle of a
clocked match and started again on the same database gives each seat the reserve it had left and counts its timeouts
in a row on, so crashing the server (or waiting for a deploy) refills no clock. With SQLite, and with PostgreSQL when
``SM_TEST_POSTGRES_URL`` is set."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import sqlalchemy as sa  # noqa: E402
from _webhelp import Server  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from sergeant_major.web.store import log_t, tables_t  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'clock.sqlite3'}"
        return
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    yield url


def _clocked_table(server: Server, turn: int, reserve: int) -> tuple[str, str]:
    """A table of one person (seat 0) and two computers with a turn clock of ``turn`` s + ``reserve`` s; (id, token).
    The clock is set in the database: the forms take no fewer than 5 s per turn, too slow for a test."""
    body = json.dumps({"name": "Clock", "rules": "9-5-2 deals=4", "seed": 18, "away_timeout": -1,
                       "seats": [{"kind": "me"}, {"kind": "computer", "level": "heuristic"},
                                 {"kind": "computer", "level": "heuristic"}]}).encode()
    req = urllib.request.Request(server.url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out = json.loads(r.read())
    engine = sa.create_engine(server.db)
    with engine.begin() as c:
        c.execute(tables_t.update().where(tables_t.c.id == out["id"]).values(clock_turn=turn, clock_reserve=reserve))
    engine.dispose()
    return str(out["id"]), str(out["seats"][0]["token"])


def _my_turn(ws: Any) -> dict[str, Any]:
    """Read frames (starting deals) until a state in which seat 0's clock runs."""
    while True:
        m = json.loads(ws.recv(timeout=20))
        assert m["type"] != "error", m
        if m["type"] != "state":
            continue
        if m["waiting_start"]:
            ws.send(json.dumps({"type": "start", "v": m["v"]}))
        elif m["clock"] and m["clock"]["seat"] == 0 and m["view"]["legal"]:
            return m


def _first_legal(st: dict[str, Any]) -> dict[str, Any]:
    a = dict(st["view"]["legal"][0])
    a.pop("seat")
    return a


def test_a_reserve_spent_is_still_spent_after_a_kill_and_a_restart(db: str) -> None:
    server = Server(db)
    server.start()
    try:
        tid, tok = _clocked_table(server, 1, 30)
        ws_url = server.url.replace("http", "ws") + f"/ws/{tid}"
        with ws_connect(ws_url) as ws:
            ws.send(json.dumps({"type": "join", "token": tok}))
            st = _my_turn(ws)
            assert st["clock"]["reserves"][0] == 30
            time.sleep(4.0)  # 3 s past the turn's 1 s: off the reserve
            ws.send(json.dumps({"type": "act", "v": st["v"], "action": _first_legal(st)}))
            st = _my_turn(ws)
            spent = st["clock"]["reserves"][0]
            assert 25.0 <= spent <= 27.1, st["clock"]
            time.sleep(2.0)  # this turn runs on: 1 s past its turn when the server dies
        server.kill9()
        server.start()
        with ws_connect(ws_url) as ws:
            ws.send(json.dumps({"type": "join", "token": tok}))
            again = _my_turn(ws)
        assert again["v"] == st["v"]
        assert again["clock"]["reserves"][0] == spent, (again["clock"], spent)  # not 30 again
        # the running turn counts from its start, not from the restart: at most 1 + reserve - 2 s are left
        assert again["clock"]["left"] <= 1 + spent - 2.0, (again["clock"], spent)
    finally:
        server.stop()


def test_timeouts_in_a_row_count_on_over_a_restart(db: str) -> None:
    server = Server(db)
    server.start()
    try:
        tid, tok = _clocked_table(server, 1, 0)
        engine = sa.create_engine(server.db)

        def clock_acts() -> list[tuple[str, Any]]:
            with engine.connect() as c:
                rows = c.execute(sa.select(log_t.c.kind, log_t.c.data).where(log_t.c.table_id == tid, log_t.c.seat == 0)
                                 .order_by(log_t.c.idx)).all()
            out = []
            for kind, data in rows:
                d = json.loads(data)
                if (kind, d.get("by")) == ("act", "clock") or kind == "away":
                    out.append((kind, d.get("clock")))
            return out

        ws_url = server.url.replace("http", "ws") + f"/ws/{tid}"
        with ws_connect(ws_url) as ws:
            ws.send(json.dumps({"type": "join", "token": tok}))
            _my_turn(ws)
            deadline = time.time() + 20
            while len(clock_acts()) < 2:  # two timeouts in a row (one second each), then the server dies
                assert time.time() < deadline
                time.sleep(0.02)
            server.kill9()
        assert clock_acts() == [("act", None)] * 2
        server.start()
        with ws_connect(ws_url) as ws:
            ws.send(json.dumps({"type": "join", "token": tok}))
            deadline = time.time() + 20
            while len(clock_acts()) < 4:
                assert time.time() < deadline, clock_acts()
                time.sleep(0.05)
        # the third timeout, the first after the restart, is the third in a row: a computer holds the seat
        assert clock_acts()[:4] == [("act", None)] * 3 + [("away", True)]
        engine.dispose()
    finally:
        server.stop()
