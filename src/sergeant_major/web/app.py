"""The FastAPI app: pages, a small HTTP API and the websocket protocol (see ``docs/web.md``).

One server process is the only authority over its tables. Each table has an :class:`asyncio.Lock`;
every change is checked against the state version, stored (committed) in the database, applied to the
in-memory state and only then broadcast, each client getting the message built from its own seat's view
(spectators: the public view).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.core.actions import Action, Contract, action_text
from sergeant_major.core.errors import IllegalActionError, RecordError, RulesError, SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import name_problem, visible
from sergeant_major.players import LEVELS, HeuristicPlayer, decision_rng
from sergeant_major.records import action_from_json, action_to_json, dumps_record
from sergeant_major.web.store import LogEntry, SeatRow, Store, TableRow
from sergeant_major.web.tables import HUMAN, GameTable, end_json, shown_seat

__all__ = ["create_app", "Hub", "MAX_MESSAGE"]

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4096  # characters in one websocket message from a client
MAX_DEPTH = 32  # arrays and objects nested in a client's JSON (a message needs 3)
MAX_BODY = 64 * 1024  # bytes in an HTTP request body (the 500 tokens /api/history reads take about 13 KB)
# tries in a row of a run of the server's actions failing for a reason other than the database (a bug): then the table is
# stopped (no retry by itself; the next client's join or action tries once more)
MAX_SERVER_FAILURES = 4
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
_CONTRACT_CODES = tuple(c.code for c in Contract)  # C D H S NT MT
# the fields of each client message: any other (a "seat" naming whom an action is for...) is refused
_FIELDS: dict[str, set[str]] = {"join": {"type", "token", "name"}, "act": {"type", "v", "action"}, "start": {"type", "v"},
                                "undo": {"type", "v"}, "hint": {"type"}, "ping": {"type"}}


def _err(code: str, reason: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason}


def _show(v: Any) -> str:
    try:
        text = visible(json.dumps(v, ensure_ascii=False))
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _read_json(text: str | bytes) -> Any:
    """A client's JSON (a websocket message or a request body).

    Raises:
        ValueError: for text that is not JSON, nests deeper than :data:`MAX_DEPTH`, or holds a lone surrogate
            escape such as ``"\\ud800"`` (not text: it could be neither stored nor quoted back).
    """
    try:
        out = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    todo: list[tuple[Any, int]] = [(out, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, (dict, list)):
            if depth >= MAX_DEPTH:
                raise ValueError(f"nested more than {MAX_DEPTH} deep")
            todo.extend((x, depth + 1) for x in (v if isinstance(v, list) else [*v, *v.values()]))
        elif isinstance(v, str) and (bad := _SURROGATE_RE.search(v)) is not None:
            raise ValueError(f"a lone surrogate escape \\u{ord(bad.group()):04x} is not text")
    return out


def _secret_hidden(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` to be quoted back, a text ``"token"`` (a seat's secret) replaced by its length: a token is never quoted
    (a refusal ends up wherever the messages are kept, as a wrong token's does not)."""
    token = msg.get("token")
    return {**msg, "token": f"<a token of {len(token)} characters>"} if isinstance(token, str) and token else msg


def _article(word: str) -> str:
    """``an`` before a vowel (an act message), else ``a`` (a join message)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _name_refusal(what: str, name: str) -> str | None:
    """The refusal of a name (a seat's or the table's) holding control characters, quoting it with ``repr``; ``None`` when
    the name may be used (:func:`~sergeant_major.core.safetext.name_problem`)."""
    why = name_problem(name)
    return None if why is None else f"{what} {name[:60]!r} is refused: {why}; a name is plain text"


@dataclass(eq=False)
class Conn:
    """One websocket client: its table and seat (``None``: spectator or not joined yet), and the last message it was
    sent (the text)."""

    ws: WebSocket
    table: str
    seat: int | None = None
    joined: bool = False
    last: str | None = None  # the last message sent to it (a broadcast does not send the same state again)


@dataclass
class Hub:
    """The server's state: the store, the loaded tables, their locks and their clients.

    Args:
        store: the database (migrated).
        delay: seconds a computer waits before each decision (0: none; for the eye in a browser).
        retry_first: seconds before the server's due actions are tried again after a run of them failed (the database
            refused a write); doubled after each failure in a row, up to ``retry_max`` seconds.
    """

    store: Store
    delay: float = 0.0
    retry_first: float = 0.5
    retry_max: float = 30.0
    tables: dict[str, GameTable] = field(default_factory=dict)
    # a table's lock lives as long as someone holds or awaits it: none is kept for the tables nobody is at
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    conns: dict[str, list[Conn]] = field(default_factory=dict)
    last_seen: dict[tuple[str, int], float] = field(default_factory=dict)
    advancing: dict[str, GameTable] = field(default_factory=dict)  # the tables whose due actions are being taken
    runs: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # the background runs of paced actions (by table)
    retries: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # a failed run's next try (:meth:`_retry`)
    failures: dict[str, int] = field(default_factory=dict)  # runs failed in a row (by table), for the retries' backoff
    retry_due: dict[str, float] = field(default_factory=dict)  # when each pending retry runs (the loop's clock)
    loading: dict[str, asyncio.Future[GameTable | None]] = field(default_factory=dict)  # reads in flight (:meth:`fetch`)
    installed: set[str] = field(default_factory=set)  # tables installed while a read of theirs was in flight (:meth:`_read`)

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock."""
        lk = self.locks.get(table_id)
        if lk is None:
            lk = self.locks[table_id] = asyncio.Lock()
        return lk

    def load(self, table_id: str) -> GameTable | None:
        """The table (loaded from the store and replayed on first use), or ``None`` for an unknown id. It reads the
        database on the calling thread: the app uses :meth:`fetch`, which reads it in a worker thread."""
        gt = self.tables.get(table_id)
        if gt is not None:
            return gt
        if not _ID_RE.match(table_id):
            return None
        return self._install(table_id, self.store.table(table_id))

    async def fetch(self, table_id: str) -> GameTable | None:
        """The table (loaded from the store and replayed on first use), or ``None`` for an unknown id (or one that is not
        an id). The database is read and the log replayed in a worker thread, so the event loop serves the other tables
        meanwhile; loads of one table at once share one read, and all get the same table.

        Raises:
            SQLAlchemyError: when the database cannot be read (nothing is loaded then).
        """
        gt = self.tables.get(table_id)
        if gt is not None or not _ID_RE.match(table_id):
            return gt
        fut = self.loading.get(table_id)
        if fut is None:
            fut = self.loading[table_id] = asyncio.ensure_future(self._read(table_id))

            def done(f: asyncio.Future[GameTable | None]) -> None:
                if self.loading.get(table_id) is f:
                    del self.loading[table_id]
                if not f.cancelled():
                    f.exception()  # retrieved: a failed read is raised to every waiter, never logged as lost

            fut.add_done_callback(done)
        return await asyncio.shield(fut)  # a waiter cancelled (its client gone) does not cancel the others' read

    async def _read(self, table_id: str) -> GameTable | None:
        """:meth:`fetch`'s one read of a table (the store's rows, replayed in a worker thread), installed as the loaded
        copy, unless one was installed meanwhile (:meth:`load` in a test): then that one, or, were it forgotten again
        meanwhile, a read anew (what was read may be older than what that copy stored)."""
        while True:
            self.installed.discard(table_id)

            def read() -> GameTable | None:
                got = self.store.table(table_id)
                return None if got is None else GameTable(*got)

            new = await asyncio.to_thread(read)
            gt = self.tables.get(table_id)
            if gt is not None:
                return gt
            if table_id not in self.installed:
                if new is None:
                    return None
                gt = self._install_table(new)
                self.installed.discard(table_id)
                return gt

    def _install(self, table_id: str, got: tuple[TableRow, list[SeatRow], list[LogEntry]] | None) -> GameTable | None:
        """The table read from the store (``got``: :meth:`Store.table`'s answer) made the loaded one, unless one was loaded
        meanwhile (that one is kept and returned); ``None`` for an unknown id."""
        if got is None:
            return None
        gt = self.tables.get(table_id)  # loaded meanwhile
        return gt if gt is not None else self._install_table(GameTable(*got))

    def _install_table(self, gt: GameTable) -> GameTable:
        """Make ``gt`` (just replayed from the store) the loaded copy of its table, unless one is loaded (that one is kept
        and returned); its seats are last seen now."""
        table_id = gt.row.id
        old = self.tables.get(table_id)
        if old is not None:
            return old
        self.tables[table_id] = gt
        if table_id in self.loading:
            self.installed.add(table_id)  # a read in flight may be older than what this copy stores (:meth:`_read`)
        now = time.time()
        for s in gt.seats:
            self.last_seen[(table_id, s.seat)] = now
        return gt

    def peek(self, table_id: str) -> GameTable | None:
        """The table for reading only (pages, records): the loaded one, else replayed from the store without
        keeping it in memory; ``None`` for an unknown id."""
        gt = self.tables.get(table_id)
        if gt is not None or not _ID_RE.match(table_id):
            return gt
        return self.replayed(table_id)

    def replayed(self, table_id: str) -> GameTable | None:
        """The table replayed from the store and kept nowhere (``None``: unknown): it reads only the database, so a
        worker thread may call it."""
        got = self.store.table(table_id)
        return None if got is None else GameTable(*got)

    def online(self, table_id: str) -> set[int]:
        """Seats with at least one connected client."""
        return {c.seat for c in self.conns.get(table_id, []) if c.seat is not None}

    # ------------------------------------------------------------------ changes (call with the lock held)
    async def append(self, gt: GameTable, kind: str, seat: int | None, data: dict[str, Any]) -> None:
        """Store the next log entry (committed, in a worker thread so other tables go on meanwhile), then
        apply it to ``gt``. Call with the table's lock held.

        Raises:
            SQLAlchemyError: when the database refuses; nothing is applied then.
        """
        idx = len(gt.log)
        await asyncio.to_thread(self.store.append, gt.row.id, idx, kind, seat, data)
        gt.apply_entry(LogEntry(idx, kind, seat, data))

    async def advance(self, gt: GameTable, always_broadcast: bool = True) -> None:
        """Take the server's due actions (:meth:`_advance`); when a run of them is already going on at this table (waiting
        out a delay, the lock released), that run takes them: this one only broadcasts (with ``always_broadcast``).
        With a delay, the actions paced by it are taken by a background task (:meth:`_paced_run`), so that this returns
        once the state is shown: the client whose message (an action, a join) made them due is answered at once, and so
        are its next messages (a refusal, a pong) while the computers play. Call with the table's lock held.

        When taking them fails (the database refuses a write; ``gt`` is then forgotten, to be replayed from the database:
        what was stored is kept, nothing else), the table's clients are told (:meth:`_failed`) and they are tried again by
        themselves a little later (:meth:`_retry`): nothing is raised."""
        tid = gt.row.id
        if self.advancing.get(tid) is gt:
            if always_broadcast:
                await self.broadcast(gt)
            return
        self.advancing[tid] = gt
        handed = False
        failed: Exception | None = None
        try:
            handed = await self._advance(gt, always_broadcast, background=True)
        except Exception as e:  # noqa: BLE001 - told to the clients and tried again (the table was replayed)
            failed = e
        finally:
            if not handed and self.advancing.get(tid) is gt:
                del self.advancing[tid]
        if failed is not None:
            await self._failed(tid, failed)

    async def _paced_run(self, gt: GameTable, paused: int, due: float) -> None:
        """The rest of a run of the server's actions handed over by :meth:`advance` (the table's lock is taken here): the
        decision due at log length ``paused`` was shown at ``due`` (event loop time). It only ever touches ``gt``: when
        the table was replayed anew meanwhile, it stops."""
        tid = gt.row.id
        failed: Exception | None = None
        try:
            async with self.lock(tid):
                if self.tables.get(tid) is gt and self.advancing.get(tid) is gt:
                    await self._advance(gt, False, background=False, paused=paused, due=due)
        except Exception as e:  # noqa: BLE001 - gt was forgotten (its memory never runs ahead of the database)
            failed = e
        finally:
            if self.advancing.get(tid) is gt:
                del self.advancing[tid]
            if self.runs.get(tid) is asyncio.current_task():
                del self.runs[tid]
        if failed is not None:
            await self._failed(tid, failed)

    async def _failed(self, tid: str, e: Exception) -> None:
        """A run of the server's actions at table ``tid`` failed with ``e`` (the copy it ran on was forgotten): unless the
        table was replayed anew meanwhile (a copy of its own, which has its own runs), its joined clients are told
        (``storage`` for a database refusal, else ``server``) and the run is tried again after a backoff (:meth:`_retry`).
        A database refusal is tried again for as long as anyone is at the table (the database comes back); any other
        failure (a bug: it would fail again every time) only :data:`MAX_SERVER_FAILURES` times in a row: then the table is
        stopped, its clients told so (``stopped``), and only a client's next join or action tries once more. Nothing
        stored is lost either way. The message names the exception's type only: never a card or any other state."""
        if self.tables.get(tid) is not None:
            return  # not gt (which is forgotten): the table was opened anew, and that copy is not touched
        old = self.retries.get(tid)
        pending = old is not None and old is not asyncio.current_task() and not old.done()
        # a retry pending (a client's message failed meanwhile): that one is the next try, with its wait
        n = self.failures.get(tid, 1) if pending else self.failures.get(tid, 0) + 1
        self.failures[tid] = n
        if not pending and not isinstance(e, SQLAlchemyError) and n >= MAX_SERVER_FAILURES:
            stopped = _err("stopped", f"the computers' moves could not be taken ({type(e).__name__}) {n} times in a row: the "
                                      "table is stopped; what was stored is kept, and the moves are tried again when someone "
                                      "joins the table anew")
            await self._tell_joined(tid, stopped)
            return
        wait = min(self.retry_max, self.retry_first * 2 ** min(n - 1, 30))
        now = asyncio.get_running_loop().time()
        if not pending:
            self.retries[tid] = asyncio.create_task(self._retry(tid, wait))
            self.retry_due[tid] = now + wait
        else:  # the pending retry's time left, not its whole wait again
            wait = round(max(0.0, self.retry_due.get(tid, now + wait) - now), 2)
        code = "storage" if isinstance(e, SQLAlchemyError) else "server"
        msg = _err(code, f"the computers' moves could not be taken ({type(e).__name__}); they are tried again in {wait:g} s")
        msg["retry"] = wait  # seconds: the page says it in its language (a refusal's text is the code's, else)
        await self._tell_joined(tid, msg)

    async def _tell_joined(self, tid: str, msg: dict[str, Any]) -> None:
        """Send ``msg`` to the clients that joined table ``tid`` (a seat or as spectators), not to a connection that has
        not joined yet (it was shown nothing of the table)."""
        for c in list(self.conns.get(tid, [])):
            if c.joined:
                await self.send(c, msg)

    async def _retry(self, table_id: str, wait: float) -> None:
        """After ``wait`` seconds, replay the table from the database and take its due actions (:meth:`advance`, which
        shows the state to its clients): the next try of a run that failed. Nothing is done when nobody is at the table any
        more (the next join takes them) or when a run goes on there again (started by a client's message meanwhile)."""
        try:
            await asyncio.sleep(wait)
            async with self.lock(table_id):
                if not any(c.joined for c in self.conns.get(table_id, [])):
                    self.failures.pop(table_id, None)
                    return
                if table_id in self.advancing:
                    return
                gt = self.tables.get(table_id)
                if gt is None:
                    try:  # read in a worker thread: the database may be slow to answer, or still refuse
                        gt = await self.fetch(table_id)
                    except Exception as e:  # noqa: BLE001 - tried again later
                        await self._failed(table_id, e)
                        return
                    if gt is None:
                        return
                await self.advance(gt)  # a failure is told and tried again from there
        finally:
            if self.retries.get(table_id) is asyncio.current_task():
                del self.retries[table_id]
                self.retry_due.pop(table_id, None)

    async def idle(self, table_id: str) -> None:
        """Wait until no background run of server actions (:meth:`_paced_run`) goes on at the table, nor a retry of a
        failed one (:meth:`_retry`) is pending (for tests and shutdown)."""
        while (task := self.runs.get(table_id) or self.retries.get(table_id)) is not None:
            if task.done():  # cancelled before it ran: its own clean-up (a finally) never removed it
                for tasks in (self.runs, self.retries):
                    if tasks.get(table_id) is task:
                        del tasks[table_id]
                continue
            await asyncio.wait([task])

    async def _advance(self, gt: GameTable, always_broadcast: bool = True, background: bool = False,
                       paused: int = -1, due: float = 0.0) -> bool:
        """Take the server's own actions (forced ones, computers', stand-ins'), start the next deal by itself
        at a table of computers only, then broadcast (without ``always_broadcast``: only when something was taken).
        Without a delay the actions of one run are stored in one transaction, before anything is sent. With a
        delay each decision of a computer or a stand-in is paced: the state before it is stored and shown, the decision
        is made, and it is taken :attr:`delay` seconds after that state was shown (or as soon as it is made, when the
        thinking took longer), the table's lock released while the rest of the delay is waited out (the decision is made
        anew when the table changed meanwhile). So the time between two computers' moves shown is the same whether a
        move had one legal choice or many (a forced return under ``trump-return=free`` and a free one, seen by the
        others, would tell them whether a trump was given). With ``background`` the run goes on in a task from the first
        paced decision on, and this returns ``True`` (the task then owns :attr:`advancing`); else ``False``.
        At a table of computers only each finished deal is stored and shown before the next starts, and the event loop
        serves the other tables in between (a match of thousands of deals must not stop the server); with nobody
        watching it waits before the next deal (a spectator's join goes on)."""
        batch: list[tuple[int, str, int | None, dict[str, Any]]] = []
        first = len(gt.log)
        loop = asyncio.get_running_loop()
        tid = gt.row.id
        # paused: the log's length when the state before the decision due was shown (at loop time ``due``)

        async def flush() -> None:
            if batch:
                await asyncio.to_thread(self.store.append_many, gt.row.id, list(batch))
                batch.clear()
                self.failures.pop(tid, None)  # stored again: a next failure waits the shortest time

        # when storing fails the table is replayed from the database on next use: memory never runs ahead of it
        try:
            while True:
                if gt.waiting_start and not any(s.kind == HUMAN for s in gt.seats) and not gt.match.over:
                    if gt.released:
                        await flush()
                        await self.broadcast(gt)
                        if not any(c.joined for c in self.conns.get(gt.row.id, [])):
                            break  # nobody watches: the next deal starts when a spectator joins
                        await asyncio.sleep(0)
                    entry: tuple[int, str, int | None, dict[str, Any]] = (len(gt.log), "start", None, {"deal": gt.match.deal.number})
                else:
                    paced = self.delay > 0 and gt.decision_next()
                    if paced and paused != len(gt.log):
                        await flush()
                        await self.broadcast(gt)  # the state before the decision, shown before any thinking
                        paused, due = len(gt.log), loop.time()
                        if background:
                            self.runs[tid] = asyncio.create_task(self._paced_run(gt, paused, due))
                            return True
                    slow = gt.slow_decision_next()
                    if paced:
                        got = gt.next_machine_decision()
                        if got is None:
                            break
                        decide, by = got
                        # decided and waited out with the lock released: a message that waits for the lock meanwhile
                        # (a card out of turn, a stale one, a join) is not answered when the thinking ends, which
                        # would show its sender the computer's think time (the channel the pacing closes)
                        action = await self._think(tid, decide, slow, due + self.delay)
                        if self.tables.get(tid) is not gt:
                            return False  # replayed anew meanwhile (nobody left at the table, or storing failed): nothing to do
                        if paused != len(gt.log):
                            continue  # the table changed meanwhile (a player back, an undo...): the next decision is made anew
                    else:
                        nxt = await asyncio.to_thread(gt.next_machine_action) if slow else gt.next_machine_action()
                        if nxt is None:
                            break
                        action, by = nxt
                    entry = (len(gt.log), "act", action.seat, {"action": action_to_json(action), "by": by})
                batch.append(entry)
                gt.apply_entry(LogEntry(*entry))
            await flush()
        except BaseException:  # storing failed, a player failed, or cancelled: memory must not run ahead of the database
            self.reload(tid, gt)  # gt only: a copy of the table opened anew meanwhile is not this run's
            raise
        self.failures.pop(tid, None)
        if always_broadcast or len(gt.log) != first:
            await self.broadcast(gt)
        return False

    async def _think(self, table_id: str, decide: Callable[[], Action], slow: bool, until: float) -> Action:
        """A paced decision: ``decide()`` (:meth:`GameTable.next_machine_decision`; in a worker thread when ``slow``),
        then wait until event loop time ``until``, all with the table's lock (held by the caller) released, so that the
        table's clients are served meanwhile (a player seated, a spectator shown the state, a refusal) and nobody learns
        how long the decision took; the lock is held again when this returns (also when ``decide`` raises)."""
        lk = self.lock(table_id)
        lk.release()
        try:
            action = await asyncio.to_thread(decide) if slow else decide()
            await asyncio.sleep(max(0.0, until - asyncio.get_running_loop().time()))
        finally:
            await lk.acquire()
        return action

    def reload(self, table_id: str, only: GameTable | None = None) -> None:
        """Forget the in-memory state of a table (it is replayed from the database on next use, which also sets its seats'
        last-seen times anew: the ones here are forgotten with it). With ``only``: only when the loaded copy is that one
        (a run that failed forgets the copy it ran on, never one opened anew meanwhile)."""
        if only is not None and self.tables.get(table_id) is not only:
            return
        gt = self.tables.pop(table_id, None)
        if gt is not None:
            for s in gt.seats:
                self.last_seen.pop((table_id, s.seat), None)

    async def broadcast(self, gt: GameTable) -> None:
        """Send every joined client of ``gt`` its own state message, unless it is the very message that client was sent
        last (a spectator just shown the state at his join, then the same state before a paced computer's move)."""
        conns = list(self.conns.get(gt.row.id, []))
        online = self.online(gt.row.id)
        cache: dict[int | None, str] = {}
        for c in conns:
            if not c.joined:
                continue
            if c.seat not in cache:
                cache[c.seat] = json.dumps(gt.state_message(c.seat, online), separators=(",", ":"))
            if c.last != cache[c.seat]:
                await self.send_text(c, cache[c.seat])

    async def send_text(self, c: Conn, text: str) -> None:
        """Send to one client; a client gone is dropped quietly."""
        c.last = text
        try:
            await c.ws.send_text(text)
        except Exception:  # noqa: BLE001 - a closed socket must never hurt the table
            self.drop(c)

    async def send(self, c: Conn, msg: dict[str, Any]) -> None:
        """Send one message (a dict) to one client."""
        await self.send_text(c, json.dumps(msg, separators=(",", ":")))

    def drop(self, c: Conn) -> None:
        """Forget a client; remember when its seat was last seen."""
        lst = self.conns.get(c.table)
        if lst is not None and c in lst:
            lst.remove(c)
            if not lst:
                del self.conns[c.table]
            if c.seat is not None:
                self.last_seen[(c.table, c.seat)] = time.time()

    async def check_away(self) -> None:
        """Seat a stand-in computer for every human absent past the table's timeout (in a started, unfinished match)."""
        now = time.time()
        for tid, gt in list(self.tables.items()):
            t = gt.row.away_timeout
            if t < 0 or gt.match.over or gt.released == 0:
                continue
            online = self.online(tid)
            for s in gt.seats:
                if s.kind != HUMAN or s.seat in online or s.seat in gt.away:
                    continue
                if now - self.last_seen.get((tid, s.seat), now) >= t:
                    async with self.lock(tid):
                        if self.tables.get(tid) is not gt or s.seat in self.online(tid) or s.seat in gt.away:
                            continue
                        try:
                            await self.append(gt, "away", s.seat, {})
                            await self.advance(gt)
                        except SQLAlchemyError:
                            continue

    # ------------------------------------------------------------------ client messages
    async def handle(self, c: Conn, text: str) -> None:
        """Handle one client message; every refusal is an ``error`` message to that client only."""
        if len(text) > MAX_MESSAGE:
            await self.send(c, _err("too_large", f"message of {len(text)} characters refused (at most {MAX_MESSAGE})"))
            return
        try:
            msg = _read_json(text)
        except ValueError as e:
            why = "" if isinstance(e, json.JSONDecodeError) else f" ({e})"
            await self.send(c, _err("bad_json", f"not JSON{why}: {text[:60]!r}"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await self.send(c, _err("bad_message", f"a message is an object with a \"type\", not {_show(msg)}"))
            return
        kind = msg["type"]
        extra = sorted(str(k) for k in set(msg) - _FIELDS.get(kind, set(msg)))
        if extra:
            await self.send(c, _err("bad_message", f"unknown field(s) {', '.join(extra)[:60]} in {_article(kind)} {kind} message "
                                                   f"(it has {', '.join(sorted(_FIELDS[kind]))}): {_show(_secret_hidden(msg))}; "
                                                   "nothing was changed"))
            return
        gt = await self.fetch(c.table)
        if gt is None:
            await self.send(c, _err("unknown_table", f"there is no table {c.table!r}"))
            return
        if kind == "join":
            await self._join(c, gt, msg)
        elif kind == "ping":
            await self.send(c, {"type": "pong"})
        elif kind == "hint":
            await self._hint(c, gt)
        elif kind in ("act", "start", "undo"):
            if not c.joined or c.seat is None:
                await self.send(c, _err("not_seated", "only a seated player may do that; join with your seat's token"))
                return
            v = msg.get("v")
            if not isinstance(v, int) or isinstance(v, bool):
                await self.send(c, _err("bad_message", f"\"v\" (the state version the action was made on) must be an integer, not {_show(v)}"))
                return
            async with self.lock(c.table):
                gt = await self.fetch(c.table)  # the table may have been replayed anew while this waited for the lock
                if gt is None:
                    await self.send(c, _err("unknown_table", f"there is no table {c.table!r}"))
                    return
                if v != gt.version:
                    await self.send(c, _err("stale", f"the table has moved on (version {gt.version}, your action was made on {v}); "
                                                     "nothing was changed"))
                    await self.send_state(c, gt)
                    return
                try:
                    if kind == "act":
                        ok = await self._act(c, gt, msg.get("action"))
                    elif kind == "start":
                        ok = await self._start(c, gt)
                    else:
                        ok = await self._undo(c, gt)
                except SQLAlchemyError as e:
                    self.reload(c.table, gt)  # replayed from the database on next use
                    await self.send(c, _err("storage", f"the action could not be stored ({type(e).__name__}); nothing was changed"))
                    return
                if ok:
                    await self.advance(gt)
        else:
            await self.send(c, _err("bad_message", f"unknown message type {kind[:40]!r} (join, act, start, undo, hint, ping)"))

    async def send_state(self, c: Conn, gt: GameTable) -> None:
        """Send ``c`` its current state message."""
        await self.send(c, gt.state_message(c.seat, self.online(gt.row.id)))

    async def _current(self, c: Conn) -> GameTable | None:
        """The loaded copy of ``c``'s table (replayed from the store when it was forgotten), or ``None`` after telling ``c``
        there is no such table. Call with the table's lock held: a copy taken before waiting for it may be forgotten."""
        gt = await self.fetch(c.table)
        if gt is None:
            await self.send(c, _err("unknown_table", f"there is no table {c.table!r}"))
        return gt

    async def _join(self, c: Conn, gt: GameTable, msg: dict[str, Any]) -> None:
        token = msg.get("token")
        # the name is checked first: a bad one is refused also in a spectator's join (where a good one is not used)
        name = msg.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            await self.send(c, _err("bad_message", f"\"name\" must be a text of at most 40 characters, not {_show(name)}; "
                                                   "nothing was changed"))
            return
        refused = _name_refusal("the name", name) if isinstance(name, str) else None
        if refused is not None:
            await self.send(c, _err("bad_message", f"{refused}; nothing was changed"))
            return
        if token is None or token == "":
            left = c.seat
            if left is not None:  # the seat left is last seen now
                self.drop(c)
                self.conns.setdefault(c.table, []).append(c)
            c.seat = None
            c.joined = True  # from now on shown every stored change, also those of a run of computers going on
            async with self.lock(c.table):  # never a state that is not stored yet
                cur = await self._current(c)  # the table may have been replayed anew while this waited for the lock
                if cur is None:
                    return
                if left is None:
                    await self.send_state(c, cur)
                # due actions (after a restart; a table of computers only starts here); a seat left: the others see it offline
                await self.advance(cur, always_broadcast=left is not None)
            return
        if not isinstance(token, str):
            await self.send(c, _err("bad_message", f"\"token\" must be a text (the seat's token) or null, not {_show(token)}; "
                                                   "nothing was changed"))
            return
        seat = gt.seat_of_token(token)
        if seat is None:
            # a token is a secret: it is not quoted back (it would end up wherever the messages are kept)
            await self.send(c, _err("wrong_token", f"this token ({len(token)} characters) holds no seat at this table; "
                                                   "you may watch as a spectator"))
            return
        async with self.lock(c.table):
            cur = await self._current(c)  # the table may have been replayed anew while this waited for the lock (a run failed)
            if cur is None:
                return
            gt = cur
            clean = name.strip() if isinstance(name, str) and name.strip() and not gt.match.over else None
            if clean is not None:
                taken = [o for o in gt.seats if o.seat != seat and o.name.casefold() == clean.casefold()]
                if taken:  # refused whole, before the seat is taken: two seats of one name are told apart nowhere
                    await self.send(c, _err("name_taken", f"the name {_show(clean[:60])} is already seat "
                                                           f"{taken[0].seat}'s ({_show(taken[0].name)}) at this table (seats "
                                                           "count from 0); choose another (nothing was changed)"))
                    return
            row = gt.seats[seat]
            if not row.claimed:
                # the seat's first join takes it in one conditional UPDATE (stored in a worker thread, as every write,
                # before it is applied and shown): of two joins of one invitation at once, also on two servers, one wins
                try:
                    won, stored = await asyncio.to_thread(self.store.claim_seat, gt.row.id, seat, clean)
                except SQLAlchemyError as e:  # seated under the name stored, the seat not taken yet; told, not silently
                    if clean is not None and clean != row.name:
                        await self.send(c, _err("storage_name", f"the name {_show(clean)} could not be stored "
                                                                f"({type(e).__name__}); you play as {_show(row.name)}"))
                else:
                    gt.seats[seat] = row = shown_seat(stored)
                    gt.match.names = tuple(s.name for s in gt.seats)
                    if won:
                        clean = None  # named as asked
            if row.claimed and clean is not None and clean.casefold() != row.name.casefold():
                # taken already by another join of this token (the first one wins): this one changes nothing
                await self.send(c, _err("seat_claimed", f"seat {seat} was taken already with this invitation by "
                                                        f"{_show(row.name)} (seats count from 0); your join as {_show(clean[:60])} "
                                                        "is refused: if that is you, join with that name; you may watch as a "
                                                        "spectator (nothing was changed)"))
                return
            if c.seat is not None and c.seat != seat:  # another seat taken on this connection: the one left is last seen now
                self.last_seen[(c.table, c.seat)] = time.time()
            c.seat = seat
            c.joined = True
            if seat in gt.away:
                try:
                    await self.append(gt, "back", seat, {})
                except SQLAlchemyError:
                    pass
            await self.advance(gt)

    async def _act(self, c: Conn, gt: GameTable, raw: Any) -> bool:
        assert c.seat is not None
        if not isinstance(raw, dict):
            await self.send(c, _err("bad_action", f"\"action\" must be an object like {{\"play\": \"QS\"}}, not {_show(raw)}"))
            return False
        # an action copied from the state's "legal" list carries the seat: accepted when it is the sender's own
        seat = raw.get("seat", c.seat)
        if not isinstance(seat, int) or isinstance(seat, bool) or seat != c.seat:
            await self.send(c, _err("bad_action", f"the action's seat {_show(seat)} is not yours (your token holds seat {c.seat}; "
                                                  f"\"seat\" may be left out): {_show(raw)}; nothing was changed"))
            return False
        data = dict(raw)
        data["seat"] = c.seat
        try:
            action = action_from_json(data, gt.rules.players, "action")
        except RecordError as e:
            why = str(e)
            if e.where == "action.contract":
                # the record's message lists every contract; this table may offer the four suits only (9-5-2)
                codes = _CONTRACT_CODES if gt.rules.has_nt_mt else _CONTRACT_CODES[:4]
                why = f"action.contract: {_show(raw['contract'])} is not a contract of this table (one of {', '.join(codes)})"
            await self.send(c, _err("bad_action", f"{why} ({_show(raw)})"))
            return False
        extra = sorted(str(k) for k in set(data) - set(action_to_json(action)))
        if extra:
            await self.send(c, _err("bad_action", f"unknown field(s) {', '.join(extra)[:60]} in the action {_show(raw)}"))
            return False
        m = gt.match
        if m.over:
            await self.send(c, _err("over", f"the match is over: {_show(raw)} was not taken"))
            return False
        if gt.waiting_start:
            await self.send(c, _err("not_started", f"deal {m.deal.number} has not started yet: {_show(raw)} was not taken"))
            return False
        if m.to_act != c.seat or m.publicly_forced_action() is not None:
            who = "" if m.to_act is None else f" (seat {m.to_act}, {_show(gt.seats[m.to_act].name)}, is to act)"
            await self.send(c, _err("turn", f"it is not your turn{who}: {_show(raw)} was not taken"))
            return False
        try:
            m.deal.verify(action)
        except IllegalActionError as e:
            await self.send(c, _err("illegal", f"{e} [rule: {e.rule}]"))
            return False
        await self.append(gt, "act", c.seat, {"action": action_to_json(action), "by": HUMAN})
        return True

    async def _start(self, c: Conn, gt: GameTable) -> bool:
        if gt.match.over:
            await self.send(c, _err("over", "the match is over: no deal is left to start"))
            return False
        if not gt.waiting_start:
            await self.send(c, _err("not_waiting", "no deal is waiting to be started"))
            return False
        if gt.released == 0:  # the first deal waits until every person's seat is taken (not the next deals: stand-ins)
            online = self.online(gt.row.id)
            empty = [s for s in gt.seats if s.kind == HUMAN and s.seat not in online]
            if empty:
                who = ", ".join(f"seat {s.seat} ({_show(s.name)})" for s in empty)
                await self.send(c, _err("empty_seat", f"deal 1 starts once every player is at the table: nobody holds {who} "
                                                      "yet (an invited friend has not joined); nothing was changed"))
                return False
        await self.append(gt, "start", c.seat, {"deal": gt.match.deal.number})
        return True

    async def _undo(self, c: Conn, gt: GameTable) -> bool:
        assert c.seat is not None
        n = gt.undo_count(c.seat)
        if n == 0:
            await self.send(c, _err("no_undo", "nothing to undo (practice tables only, your cards of this deal)"))
            return False
        await self.append(gt, "undo", c.seat, {"n": n})
        return True

    async def _hint(self, c: Conn, gt: GameTable) -> None:
        m = gt.match
        if c.seat is None or not gt.row.practice or m.over or m.to_act != c.seat or gt.waiting_start:
            await self.send(c, _err("no_hint", "hints are for your own turn at a practice table"))
            return
        deal = m.deal
        a = HeuristicPlayer().choose(m.view(c.seat), decision_rng(m.seed, c.seat, deal.number, len(deal.history)))
        await self.send(c, {"type": "hint", "v": gt.version, "action": action_to_json(a)})


# ---------------------------------------------------------------------------------------------- HTTP
async def _body(request: Request) -> bytes | Response:
    """The request's body, or HTTP 413 for one over :data:`MAX_BODY` bytes: refused by its Content-Length before any of it
    is read, else (no length, or a false one) as soon as the bytes read pass the limit; never held whole in memory."""
    def refused(size: str) -> Response:
        return JSONResponse({"error": f"a request body of {size} is refused (at most {MAX_BODY} bytes)", "code": "too_large"},
                            status_code=413)

    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        return refused(f"{int(length)} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return refused(f"more than {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


class _Refused(ValueError):
    """A table not made: the message for the user (English, quoting the bad input) and its ``code`` (``body``, ``rules``,
    ``table_name``, ``seats``, ``seat_name``, ``timeout``, ``seed``) with the seat (from 1) a ``seat_name`` is of, for the
    page to write it in its language."""

    def __init__(self, code: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.seat = seat


def _create(hub: Hub, body: Any) -> dict[str, Any]:
    """Create a table from the home page's form.

    Raises:
        ValueError: (a :class:`_Refused`, with its code) with a message for the user quoting the bad input.
    """
    if not isinstance(body, dict):
        raise _Refused("body", "the request body must be a JSON object")
    extra = sorted(str(k) for k in set(body) - {"name", "rules", "seats", "away_timeout", "seed"})
    if extra:  # a misspelt field ("away_timout") must not leave its default in place unnoticed
        raise _Refused("body", f"unknown field(s) {', '.join(extra)[:60]} (a table has name, rules, seats, away_timeout, seed)")
    text = body.get("rules", "9-5-2")
    if not isinstance(text, str) or len(text) > 300:
        raise _Refused("rules", f"rules must be a short text like \"9-5-2 to=20\", not {_show(text)}")
    try:
        rules = Rules.parse(text or "9-5-2")
    except (RulesError, SergeantMajorError) as e:
        raise _Refused("rules", str(e)) from None
    name = body.get("name")
    name = "Table" if name is None or name == "" else name
    if not isinstance(name, str) or len(name) > 60:
        raise _Refused("table_name", f"the table name must be a text of at most 60 characters, not {_show(name)}")
    refused = _name_refusal("the table name", name)
    if refused is not None:
        raise _Refused("table_name", refused)
    seats_in = body.get("seats")
    n = rules.players
    if not isinstance(seats_in, list) or len(seats_in) != n:
        raise _Refused("seats", f"seats must be a list of {n} seats (the rules {str(rules)!r} have {n} players)")
    timeout = body.get("away_timeout", 60)
    if not isinstance(timeout, int) or isinstance(timeout, bool) or not -1 <= timeout <= 86400:
        raise _Refused("timeout", f"away_timeout is seconds 0..86400, or -1 for never, not {_show(timeout)}")
    chosen = body.get("seed")
    if chosen is not None and (not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen < 2**62):
        raise _Refused("seed", f"seed must be a non-negative integer below 2**62, not {_show(chosen)}")
    tid = secrets.token_urlsafe(6)
    seats: list[SeatRow] = []
    friends = 0
    mes = 0
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict):
            raise _Refused("seats", f"seat {i + 1} must be an object like {{\"kind\": \"me\", \"name\": \"Ann\"}}")
        extra = sorted(str(k) for k in set(s) - {"kind", "level", "name"})
        if extra:
            raise _Refused("seats", f"seat {i + 1}: unknown field(s) {', '.join(extra)[:60]} (a seat has kind, level, name)")
        kind = s.get("kind")
        sname = s.get("name")
        if sname is not None and (not isinstance(sname, str) or len(sname) > 40):
            raise _Refused("seat_name", f"seat {i + 1}: a name is a text of at most 40 characters, not {_show(sname)}", i + 1)
        refused = _name_refusal(f"seat {i + 1}: the name", sname) if sname is not None else None
        if refused is not None:
            raise _Refused("seat_name", refused, i + 1)
        if kind == "me":
            mes += 1
            default = "Me" if mes == 1 else f"Me {mes}"  # two unnamed "me" seats may not share a name
            seats.append(SeatRow(i, (sname or default).strip() or default, HUMAN, secrets.token_urlsafe(16)))
        elif kind == "friend":
            friends += 1
            seats.append(SeatRow(i, (sname or f"Friend {friends}").strip() or f"Friend {friends}", HUMAN, secrets.token_urlsafe(16)))
        elif kind == "computer":
            level = s.get("level", "heuristic")
            if level not in LEVELS:
                raise _Refused("seats", f"seat {i + 1}: unknown computer level {_show(level)} (one of {', '.join(LEVELS)})")
            default = f"{level.capitalize()} {i + 1}"
            seats.append(SeatRow(i, (sname or default).strip() or default, str(level), None))
        else:
            raise _Refused("seats", f"seat {i + 1}: kind must be \"me\", \"friend\" or \"computer\", not {_show(kind)}")
    # two seats of one name would be told apart nowhere (the score sheet, the record, the end reason)
    for j, sj in enumerate(seats):
        for i in range(j):
            if seats[i].name.casefold() == sj.name.casefold():
                raise _Refused("seat_name_taken", f"seat {j + 1}: the name {sj.name[:60]!r} is seat {i + 1}'s already; "
                               "give each seat a name of its own", j + 1)
    # practice (undo, hints): one person at most; two "me" seats are two people once a token is passed on
    practice = sum(1 for s in seats if s.kind == HUMAN) <= 1
    if chosen is not None and (friends or not practice):
        # every card of the match follows from the seed: whoever chose it knows the others' hands and the kitty; so
        # only a table of its creator alone against computers takes one (two "me" seats: a token is passed on)
        raise _Refused("seed", f"seed {_show(chosen)}: a chosen seed would let its chooser work out the others' cards; "
                         "tables with invited players deal from a random seed (leave \"seed\" out)")
    # every card of the match follows from the seed: too few bits and a player finds it from his hand
    seed = secrets.randbits(62) if chosen is None else chosen
    row = TableRow(tid, name.strip() or "Table", str(rules), int(seed), practice, int(timeout), time.time())
    hub.store.create_table(row, seats)
    return {"id": tid, "rules": str(rules), "practice": row.practice,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind,
                       "token": s.token if seats_in[s.seat].get("kind") == "me" else None,
                       "invite": f"/t/{tid}#token={s.token}" if seats_in[s.seat].get("kind") == "friend" else None}
                      for s in seats]}


def _history_game(gt: GameTable, seat: int, token: str) -> dict[str, Any]:
    """One game of *My games* (``/api/history``): the table, the seat of the token (and the token, which the browser
    sent: its *continue* link takes that seat) and the match's score."""
    m = gt.match
    return {"id": gt.row.id, "name": gt.row.name, "rules": str(gt.rules), "seat": seat, "token": token, "over": m.over,
            "names": [s.name for s in gt.seats], "totals": list(m.totals), "deal": m.deal.number,
            "winners": list(m.end.winners) if m.end else [], "created": gt.row.created}


def _replay_steps(gt: GameTable) -> list[dict[str, Any]]:
    """Every position of a finished match, action by action, with all hands and the kitty while it is not taken (for the
    replay viewer)."""
    rules = gt.rules
    m = Match(rules, gt.row.seed, [s.name for s in gt.seats])

    def snap(text: str) -> dict[str, Any]:
        deal = m.deal
        return {"text": text, "deal": deal.number, "dealer": deal.dealer, "declarer": deal.declarer,
                "contract": None if deal.contract is None else deal.contract.code,
                "hands": [[str(c) for c in deal.hand(s)] for s in range(rules.players)],
                "kitty": [str(c) for c in deal.kitty_dealt] if deal.kitty else [],
                "trick": [[s, str(c)] for s, c in deal.current_trick()],
                "last": None if not deal.completed else {"cards": [[s, str(c)] for s, c in deal.completed[-1].cards],
                                                         "winner": deal.completed[-1].winner},
                "tricks_won": list(deal.tricks_won), "targets": list(deal.targets), "totals": list(m.totals)}

    steps = [{**snap("deal 1"), "action": None}]
    names = [s.name for s in gt.seats]
    for a, _by in gt.acts:
        before = m.deal
        m.apply(a)
        text = f"deal {before.number}: {action_text(a, names)}"
        aj = action_to_json(a)  # the client writes the step in its language from this
        if m.deal is not before and before.result is not None:
            # show the finished deal's last trick before the next deal's cards
            steps.append({**snap(text), "action": aj, "deal": before.number, "hands": [[] for _ in names], "trick": [], "kitty": [],
                          "last": {"cards": [[s, str(c)] for s, c in before.completed[-1].cards],
                                   "winner": before.completed[-1].winner},
                          "tricks_won": list(before.tricks_won), "contract": before.contract.code if before.contract is not None else None})
        else:
            steps.append({**snap(text), "action": aj})
    return steps


def create_app(db_url: str | None = None, delay: float = 0.0, store: Store | None = None, check_every: float = 1.0) -> FastAPI:
    """The web app.

    Args:
        db_url: SQLAlchemy URL (default: an SQLite file in the user data directory).
        delay: seconds computers wait before each decision (0 in tests).
        store: an already migrated store (overrides ``db_url``).
        check_every: seconds between checks for absent players (stand-ins).
    """
    from sergeant_major.web.store import default_db_url

    if store is None:
        store = Store(db_url or default_db_url())
        store.migrate()
    hub = Hub(store, delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async def watch() -> None:
            while True:
                await asyncio.sleep(check_every)
                try:
                    await hub.check_away()
                    await asyncio.to_thread(hub.store.checkpoint)
                except Exception:  # noqa: BLE001 - the watcher must never stop
                    pass

        # database writes run in worker threads: enough of them that commits of many tables overlap
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=32, thread_name_prefix="sm-db"))
        task = asyncio.create_task(watch())
        try:
            yield
        finally:
            task.cancel()
            pending = [task, *hub.runs.values(), *hub.retries.values()]  # paced computers' moves (stored ones are kept)
            for run in pending:
                run.cancel()
            # waited for, so that none is still cleaning up (or writing) once the app is gone and its store closed
            await asyncio.gather(*pending, return_exceptions=True)

    app = FastAPI(title="Sergeant Major", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/")
    async def home() -> FileResponse:
        return page("index.html")

    async def table_page_of(table_id: str, name: str) -> FileResponse:
        """The page ``name`` of a table: HTTP 404 for an unknown id (the page itself still says "no such table")."""
        known = table_id in hub.tables or (_ID_RE.match(table_id) is not None and await asyncio.to_thread(hub.store.exists, table_id))
        resp = page(name)
        if not known:
            resp.status_code = 404
        return resp

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return await table_page_of(table_id, "table.html")  # its websocket is closed with 4404 for an unknown id

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/history")
    async def history_page() -> FileResponse:
        return page("history.html")

    @app.get("/replay/{table_id}")
    async def replay_page(table_id: str) -> FileResponse:
        return await table_page_of(table_id, "replay.html")  # its /api/tables/ID/replay says why, also for an unknown id

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {"presets": list(Rules.preset_names()), "levels": list(LEVELS)}

    @app.post("/api/tables")
    async def create(request: Request) -> Response:
        raw_body = await _body(request)
        if isinstance(raw_body, Response):
            return raw_body
        try:
            body = _read_json(raw_body)
        except ValueError as e:
            why = "" if isinstance(e, json.JSONDecodeError) else f" ({e})"
            return JSONResponse({"error": f"the request body is not JSON{why}", "code": "json"}, status_code=400)
        try:
            out = _create(hub, body)
        except _Refused as e:  # the code (and seat) for the page to write the refusal in its language
            return JSONResponse({"error": str(e), "code": e.code, **({"seat": e.seat} if e.seat else {})}, status_code=400)
        except ValueError as e:
            return JSONResponse({"error": str(e), "code": "other"}, status_code=400)
        except SQLAlchemyError as e:
            return JSONResponse({"error": f"the table could not be stored ({type(e).__name__})", "code": "storage"},
                                status_code=503)
        return JSONResponse(out)

    @app.post("/api/history")
    async def history(request: Request) -> Response:
        raw_body = await _body(request)
        if isinstance(raw_body, Response):
            return raw_body
        try:
            body = _read_json(raw_body)
        except ValueError as e:
            why = "" if isinstance(e, json.JSONDecodeError) else f" ({e})"
            return JSONResponse({"error": f"the request body is not JSON{why}; send {{\"tokens\": [...]}}"}, status_code=400)
        raw = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            return JSONResponse({"error": f"send {{\"tokens\": [...]}} (a list of texts), not {_show(body)}"}, status_code=400)
        found = await asyncio.to_thread(hub.store.tables_of_tokens, list(raw)[:500])
        # the tables in memory are read here, on the event loop that changes them; the others (up to 500 whole matches)
        # are replayed from the database in a worker thread, which reads only the store and keeps nothing
        games = [_history_game(gt, seat, tok) for tid, seat, tok in found if (gt := hub.tables.get(tid)) is not None]
        rest = [(tid, seat, tok) for tid, seat, tok in found if tid not in hub.tables]

        def replay_rest() -> list[dict[str, Any]]:
            return [_history_game(gt, seat, tok) for tid, seat, tok in rest if (gt := hub.replayed(tid)) is not None]

        games += await asyncio.to_thread(replay_rest)
        games.sort(key=lambda g: -float(g["created"]))
        return JSONResponse({"games": games})

    def finished(table_id: str) -> GameTable | Response:
        gt = hub.peek(table_id)
        if gt is None:
            return JSONResponse({"error": f"there is no table {table_id[:40]!r}"}, status_code=404)
        if not gt.match.over:
            return JSONResponse({"error": "the record is shown once the match is over (it holds every hand)"}, status_code=403)
        return gt

    # record and replay replay a whole match (0.1 s for 18 deals): plain functions, which FastAPI runs in worker
    # threads, so that requests for them never hold up the tables' websockets
    @app.get("/api/tables/{table_id}/record")
    def record(table_id: str) -> Response:
        gt = finished(table_id)
        if isinstance(gt, Response):
            return gt
        return Response(dumps_record(gt.record()), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="sergeant-major-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    def replay(table_id: str) -> Response:
        gt = finished(table_id)
        if isinstance(gt, Response):
            return gt
        return JSONResponse({"names": [s.name for s in gt.seats], "rules": str(gt.rules), "steps": _replay_steps(gt),
                             "end": end_json(gt.match.end) if gt.match.end else None})

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        c = Conn(websocket, table_id)
        try:
            gt = await hub.fetch(table_id)
        except SQLAlchemyError as e:  # the database cannot be read: said, and the client may try again (1011: server error)
            await hub.send(c, _err("storage", f"the table could not be read ({type(e).__name__}); try again later"))
            await websocket.close(code=1011)
            return
        if gt is None:
            await hub.send(c, _err("unknown_table", f"there is no table {table_id[:40]!r}"))
            await websocket.close(code=4404)
            return
        hub.conns.setdefault(table_id, []).append(c)
        try:  # the server's own actions that are due (after a restart) are taken at the join, once it can be shown them
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
                text = message.get("text")
                if text is None:  # a binary frame: answered like any other malformed message, the connection kept
                    size = len(message.get("bytes") or b"")
                    await hub.send(c, _err("bad_message", f"a binary frame ({size} bytes) is not accepted: send each message "
                                                          "as JSON text (a text frame)"))
                    continue
                try:
                    await hub.handle(c, text)
                except WebSocketDisconnect:
                    raise
                except Exception as e:  # noqa: BLE001 - one bad message must never take the table down
                    await hub.send(c, _err("server", f"the message could not be handled ({type(e).__name__})"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            was = c.seat
            hub.drop(c)
            async with hub.lock(table_id):
                g = hub.tables.get(table_id)
                if g is not None and not hub.conns.get(table_id):
                    hub.reload(table_id, g)  # nobody at the table: free the memory; the database has it all
                elif g is not None and was is not None:
                    await hub.broadcast(g)

    return app
