"""Helpers of the many-process tests (test_web_cluster*.py): a fresh PostgreSQL database, ``sergeant-major serve``
processes on it and haproxy in front of them with the shipped deploy/haproxy.cfg, all on loopback."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from _webhelp import Server, free_port

ROOT = Path(__file__).resolve().parents[2]


def haproxy_path() -> str:
    """haproxy's path, or skip the test."""
    exe = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if exe is None:
        pytest.skip("haproxy is missing (scripts/test installs Debian's haproxy as root)")
    return exe


def postgres_database() -> tuple[str, Any]:
    """A new empty database on the server of ``SM_TEST_POSTGRES_URL`` (skip when unset): its URL and a function that
    drops it."""
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (scripts/test starts PostgreSQL and sets it)")
    psycopg = pytest.importorskip("psycopg")
    import sqlalchemy as sa

    base = sa.engine.make_url(url)
    name = f"sm_cl_{uuid.uuid4().hex[:10]}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as e:
        pytest.skip(f"cannot make a database of its own (the role needs CREATEDB, as scripts/test gives it): {e}".splitlines()[0])

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return base.set(database=name).render_as_string(hide_password=False), drop


def haproxy_config(port: int, backends: list[int]) -> str:
    """deploy/haproxy.cfg bound to ``127.0.0.1:port`` with one ``server`` line per backend port (as scripts/serve-cluster
    writes it)."""
    out: list[str] = []
    for line in (ROOT / "deploy" / "haproxy.cfg").read_text().splitlines():
        if line.startswith("    bind "):
            out.append(f"    bind 127.0.0.1:{port}")
        elif line.startswith("    server "):
            continue
        elif line.startswith("    # servers"):
            out.append(line)
            out += [f"    server serve{i + 1} 127.0.0.1:{p}" for i, p in enumerate(backends)]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


class Rig:
    """``n`` serve processes on database ``db`` and haproxy in front (:attr:`url`); :meth:`kill9` and :meth:`restart` one."""

    def __init__(self, db: str, n: int = 3, delay: float = 0.0) -> None:
        self.db = db
        # 12 connections each (and one listening): three rigs at once stay under PostgreSQL's default max_connections 100
        self.servers = [Server(db, delay=delay, args=["--db-pool", "12"]) for _ in range(n)]
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp())
        self.proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.servers[0].start()  # the first migrates the database; the others find it done
        for s in self.servers[1:]:
            s.start()
        cfg = self.dir / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.port, [s.port for s in self.servers]))
        self.proxy = subprocess.Popen([haproxy_path(), "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait_up()

    def wait_up(self, limit: float = 20.0) -> None:
        """Wait until the proxy answers a health check."""
        import urllib.request

        deadline = time.time() + limit
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("haproxy does not answer")

    def process_ids(self) -> list[str | None]:
        """Each running process's id (as in the leases and presence rows; ``None``: not running)."""
        import json
        import urllib.request

        out: list[str | None] = []
        for s in self.servers:
            if s.proc is None:
                out.append(None)
                continue
            with urllib.request.urlopen(s.url + "/api/health", timeout=5) as r:
                out.append(json.loads(r.read()).get("process"))
        return out

    def kill9(self, i: int) -> None:
        self.servers[i].kill9()

    def restart(self, i: int) -> None:
        self.servers[i].start()

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(10)
            self.proxy = None
        for s in self.servers:
            s.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def holders(db: str, table_id: str) -> tuple[str | None, dict[int, set[str]]]:
    """The table's lease holder (``None``: none unexpired) and which processes have clients at each seat now."""
    from sergeant_major.web.store import Store

    st = Store(db)
    try:
        lease = st.lease_holders([table_id]).get(table_id)
        seats: dict[int, set[str]] = {}
        for p in st.presence([table_id]):
            if p.conns > 0 and p.now - p.seen < 5:
                seats.setdefault(p.seat, set()).add(p.holder)
    finally:
        st.dispose()
    return (lease[0] if lease else None), seats


def holders_until(db: str, table_id: str, ok: Callable[[dict[int, set[str]]], bool], timeout: float = 10.0) -> dict[int, set[str]]:
    """Which processes have clients at each seat (:func:`holders`) once ``ok`` holds for it (a page shows a seat taken as
    soon as it is claimed; its websocket's presence is stored a moment later); AssertionError after ``timeout`` s."""
    deadline = time.time() + timeout
    while True:
        _lease, now = holders(db, table_id)
        if ok(now):
            return now
        assert time.time() < deadline, f"the seats' processes did not come to the awaited state in {timeout} s: {now}"
        time.sleep(0.1)


def log_check(db: str, table_id: str) -> list[Any]:
    """The table's log entries (every idx from 0 without a gap or a repeat, asserted) and its replay: a record of the
    match that passes ``sergeant-major check``'s checks (asserted when the match is over)."""
    from sergeant_major.records import check_record
    from sergeant_major.web.store import Store
    from sergeant_major.web.tables import GameTable

    st = Store(db)
    try:
        got = st.table(table_id)
    finally:
        st.dispose()
    assert got is not None
    log = got[2]
    assert [e.idx for e in log] == list(range(len(log)))
    check_record(GameTable(*got).record())  # every action legal, results and totals as the rules give them
    return log


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


TOKEN_RE = re.compile(r"#token=(\S+)")


@contextmanager
def running_rig(delay: float) -> Iterator[Rig]:
    """Three processes behind haproxy on a database of their own (``delay``: the computers' pacing), stopped and
    dropped afterwards; skips without haproxy or PostgreSQL."""
    haproxy_path()
    db, drop = postgres_database()
    r = Rig(db, 3, delay=delay)
    try:
        r.start()
        yield r
    finally:
        r.stop()
        drop()

