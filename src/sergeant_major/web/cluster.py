"""Many ``sergeant-major serve`` processes on one PostgreSQL database (see ``docs/web.md``, "Many processes").

Each process listens on the PostgreSQL channel :data:`~sergeant_major.web.store.CHANNEL` on one connection of its own
(psycopg 3, autocommit): every change is NOTIFYed in the transaction that stores it (``L <table> <log length>``: new log
entries, ``P <table>``: seats or presence, ``R <table>``: a lease given up), so each process catches up its loaded copy of
the table and shows its clients the new state at once. Every second (:meth:`TableRunner.tick`) it renews the leases of the
tables its clients are at, takes the free or expired ones, confirms its clients and checks that no loaded copy is behind
the log (a notice lost while the listening connection was down is caught up there).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Coroutine
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.web.runner import TableRunner
from sergeant_major.web.store import CHANNEL

__all__ = ["Cluster", "TICK"]

TICK = 1.0  # seconds between two renewals of the leases (a lease lasts LEASE_TTL = 3 s)


class Cluster:
    """The many-process mode of one process: its id (set as the runner's :attr:`TableRunner.holder`), the listening
    connection and the ticks. :meth:`start` in the app's startup, :meth:`stop` at its shutdown.

    Args:
        runner: the app's table runner, whose store is a PostgreSQL one.
    """

    def __init__(self, runner: TableRunner) -> None:
        self.runner = runner
        self.id = uuid.uuid4().hex
        runner.holder = self.id
        self.tasks: list[asyncio.Task[None]] = []
        self.pending: set[asyncio.Task[None]] = set()
        self.listening = asyncio.Event()

    def start(self) -> None:
        """Start listening and ticking (in the running event loop)."""
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._ticks())]

    async def stop(self) -> None:
        """Stop, give up this process's leases and say its clients are gone (others take its tables over at once)."""
        for t in [*self.tasks, *self.pending]:
            t.cancel()
        await asyncio.gather(*self.tasks, *self.pending, return_exceptions=True)
        r = self.runner
        with contextlib.suppress(SQLAlchemyError):
            await asyncio.to_thread(r.store.release_leases, self.id, list(r.held))
            for tid in list(r.clients.conns):
                await asyncio.to_thread(r.store.set_presence, tid, self.id, {})
        r.held.clear()

    def dsn(self) -> str:
        """The database's address for psycopg (the SQLAlchemy URL without its driver name)."""
        return sa.engine.make_url(self.runner.store.url).set(drivername="postgresql").render_as_string(hide_password=False)

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    for tid in list(self.runner.tables):  # notices may have been missed while not listening
                        self.runner.want_catch_up(tid)
                    async for n in conn.notifies():
                        self.dispatch(n.payload)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database went away: listen again (the ticks catch up meanwhile)
                self.listening.clear()
                await asyncio.sleep(1.0)

    def dispatch(self, payload: str) -> None:
        """Act on one notice (see the module's docstring); a malformed one is ignored."""
        r = self.runner
        parts = payload.split(" ")
        if len(parts) < 2:
            return
        kind, tid = parts[0], parts[1]
        if kind == "L" and len(parts) == 3 and parts[2].isdigit():
            gt = r.tables.get(tid)
            if gt is not None:
                if len(gt.log) < int(parts[2]):
                    r.want_catch_up(tid)
            elif tid in r.loading:  # a read in flight may be older than this entry
                r.loading[tid].add_done_callback(lambda _f: r.want_catch_up(tid))
        elif kind == "P" and (tid in r.tables or tid in r.clients.conns or tid in r.loading):  # a read in flight may be older
            self._spawn(r.refresh(tid))
        elif kind == "R" and r.clients.anyone_joined(tid):
            self._spawn(self._take(tid))

    def _spawn(self, aw: Coroutine[Any, Any, None]) -> None:
        """Run ``aw`` in a task kept until it ends (a database refusal in it is dropped: the next tick does it again)."""
        async def quietly() -> None:
            with contextlib.suppress(SQLAlchemyError):
                await aw

        t = asyncio.create_task(quietly())
        self.pending.add(t)
        t.add_done_callback(self.pending.discard)

    async def _take(self, tid: str) -> None:
        if await self.runner.take_lease(tid):
            self.runner.want_catch_up(tid, always=True)

    async def _ticks(self) -> None:
        while True:
            try:
                await self.runner.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database refused: tried again next tick
                pass
            await asyncio.sleep(TICK)
