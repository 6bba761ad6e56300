"""The table runner: the loaded tables (replayed from the store on first use), their locks, and the server's own
actions at each (forced ones, computers', stand-ins'): paced by the delay, stored before they are shown, and tried again
after a failure.

Each table has an :class:`asyncio.Lock`; every change is checked against the state version, stored (committed) in the
database, applied to the in-memory state and only then broadcast (:class:`~sergeant_major.web.connections.Connections`),
each client getting the message built from its own seat's view (spectators: the public view).

With many processes on one PostgreSQL database (:attr:`TableRunner.holder` set; see :mod:`.cluster`) the in-memory copy is
a cache of the log: an entry is stored at ``idx`` = the copy's log length, and the primary key ``(table_id, idx)`` refuses
it when another process stored that entry first (:class:`LogConflict`): the copy then reads what it missed and the action
is checked anew. Every process catches its copies up when PostgreSQL tells it of new entries (LISTEN/NOTIFY). Only the
process holding a table's lease (:meth:`TableRunner.in_charge`) takes the server's own actions there.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from sergeant_major.core.actions import Action
from sergeant_major.records import action_to_json
from sergeant_major.web.clocks import Clocks
from sergeant_major.web.connections import Connections
from sergeant_major.web.protocol import TABLE_ID_RE, error_message
from sergeant_major.web.ratings import final_ranks, rate_match, rated_preset
from sergeant_major.web.review import ReviewJobs
from sergeant_major.web.store import ClockSeat, LogEntry, Store
from sergeant_major.web.tables import CLOCK, HUMAN, GameTable, shown_seat

__all__ = ["TableRunner", "MAX_SERVER_FAILURES", "LogConflict", "LEASE_TTL", "PRESENCE_TTL"]

# many processes: seconds a table's lease lasts unless renewed (its holder renews every second or so), and seconds a
# process's clients count as online after it last confirmed them (a process killed stops confirming)
LEASE_TTL = 3.0
PRESENCE_TTL = 5.0


class LogConflict(SQLAlchemyError):
    """Another process stored the table's next log entry first (the ``(table_id, idx)`` key refused this one): the
    table's copy has read what it missed (nothing of this action was stored), and the action must be checked anew."""

# tries in a row of a run of the server's actions failing for a reason other than the database (a bug): then the table is
# stopped (no retry by itself; the next client's join or action tries once more)
MAX_SERVER_FAILURES = 4


@dataclass
class TableRunner:
    """The loaded tables, their locks and the server's own actions at them; :attr:`clients` are shown every change.

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
    clients: Connections = field(default_factory=Connections)
    tables: dict[str, GameTable] = field(default_factory=dict)
    # a table's lock lives as long as someone holds or awaits it: none is kept for the tables nobody is at
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    advancing: dict[str, GameTable] = field(default_factory=dict)  # the tables whose due actions are being taken
    runs: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # the background runs of paced actions (by table)
    retries: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # a failed run's next try (:meth:`_retry`)
    failures: dict[str, int] = field(default_factory=dict)  # runs failed in a row (by table), for the retries' backoff
    retry_due: dict[str, float] = field(default_factory=dict)  # when each pending retry runs (the loop's clock)
    loading: dict[str, asyncio.Future[GameTable | None]] = field(default_factory=dict)  # reads in flight (:meth:`fetch`)
    installed: set[str] = field(default_factory=set)  # tables installed while a read of theirs was in flight (:meth:`_read`)
    reviews: ReviewJobs | None = None  # the finished matches' reviews, started when a match ends (:meth:`review_match`)
    clocks: Clocks = field(init=False)  # the turn clocks (:mod:`.clocks`); a timeout is taken by :meth:`clock_ran_out`
    # many processes on one database (:mod:`.cluster`): this process's id; ``None``: the only process (SQLite)
    holder: str | None = None
    held: dict[str, float] = field(default_factory=dict)  # the tables whose lease this process holds, until (loop time)
    behind: set[str] = field(default_factory=set)  # tables told of entries stored elsewhere, not read yet
    syncing: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # the catch-up of a table going on
    taken: set[str] = field(default_factory=set)  # tables whose lease was just taken: their due actions are taken

    def __post_init__(self) -> None:
        self.clocks = Clocks(self.clock_ran_out)

    async def clock_ran_out(self, table_id: str, key: tuple[int, int]) -> None:
        """The turn clock of seat ``key[1]`` at state version ``key[0]`` ran out: unless the table moved on meanwhile, a
        computer makes that one decision (``"by": "clock"``), and after the third timeout in a row holds the seat
        (``away`` with ``{"clock": true}``) until its person is back; then the server's due actions are taken."""
        version, seat = key
        async with self.lock(table_id):
            try:
                gt = await self.fetch(table_id)
            except SQLAlchemyError:
                return  # the database cannot be read: the next change of the table arms the clock anew
            if (gt is None or gt.version != version or gt.person_to_decide() != seat or table_id in self.advancing
                    or not self.in_charge(table_id)):  # many processes: only the lease holder's clock decides
                return
            action = gt.stand_in_decision()
            spent, hold = self.clocks.timed_out(gt, seat)
            try:
                await self.append(gt, "act", seat, {"action": action_to_json(action), "by": CLOCK}, clock=spent)
                if hold and not gt.match.over and seat not in gt.away:
                    await self.append(gt, "away", seat, {"clock": True})
            except SQLAlchemyError as e:
                self.reload(table_id, gt)
                await self._failed(table_id, e)
                return
            await self.advance(gt)

    def in_charge(self, table_id: str) -> bool:
        """Whether this process takes the table's own actions (computers, stand-ins, forced moves, clocks): the only
        process, or the holder of the table's lease (not expired by this process's reckoning)."""
        if self.holder is None:
            return True
        until = self.held.get(table_id)
        return until is not None and asyncio.get_running_loop().time() < until

    def review_match(self, gt: GameTable, asked: bool = True) -> None:
        """Queue the review of ``gt``'s match if it is over (see :mod:`.review`); a no-op without :attr:`reviews`.
        Without ``asked`` (the match just ended) only at a table where a person played: a table of computers only
        (a demonstration, a load test) is reviewed when its replay asks for it."""
        if not asked and not any(s.kind == HUMAN for s in gt.seats):
            return
        if self.reviews is not None and gt.match.over:
            self.reviews.start(gt.row.id, gt.rules, gt.row.seed, [s.name for s in gt.seats], [a for a, _ in gt.acts])

    async def rate(self, gt: GameTable) -> None:
        """Rate ``gt``'s finished match once (:func:`~sergeant_major.web.ratings.rate_match`, in a worker thread) when it
        is rated; a database refusal leaves it to the next time the table is advanced (a join after a restart)."""
        seats = [(s.kind, s.account) for s in gt.seats]
        preset = rated_preset(gt.rules, gt.row.practice, seats)
        if preset is not None:
            ranks = final_ranks(gt.match, sorted(gt.left))
            try:
                await asyncio.to_thread(rate_match, self.store, gt.row.id, preset, seats, ranks)
            except SQLAlchemyError:
                return
        gt.rating_done = True

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
        if not TABLE_ID_RE.match(table_id):
            return None
        got = self._replay(table_id)
        if got is None:
            return None
        old = self.tables.get(table_id)  # loaded meanwhile
        return old if old is not None else self._install_table(got)

    async def fetch(self, table_id: str) -> GameTable | None:
        """The table (loaded from the store and replayed on first use), or ``None`` for an unknown id (or one that is not
        an id). The database is read and the log replayed in a worker thread, so the event loop serves the other tables
        meanwhile; loads of one table at once share one read, and all get the same table.

        Raises:
            SQLAlchemyError: when the database cannot be read (nothing is loaded then).
        """
        gt = self.tables.get(table_id)
        if gt is not None or not TABLE_ID_RE.match(table_id):
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

            new = await asyncio.to_thread(self._replay, table_id)
            gt = self.tables.get(table_id)
            if gt is not None:
                return gt
            if table_id not in self.installed:
                if new is None:
                    return None
                gt = self._install_table(new)
                self.installed.discard(table_id)
                return gt

    def _replay(self, table_id: str) -> GameTable | None:
        """The table read from the store and replayed, with its stored turn clocks (``None``: unknown id). It reads the
        database on the calling thread (a worker thread's, but in :meth:`load`)."""
        got = self.store.table(table_id)
        if got is None:
            return None
        gt = GameTable(*got)
        if gt.row.clock_turn:
            gt.clock_seats = self.store.clock_seats(table_id)
        return gt

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
        self.clients.seen(table_id, (s.seat for s in gt.seats))
        self.clocks.sync(gt)
        return gt

    async def loaded(self, table_id: str) -> GameTable | None:
        """The table's copy in memory once the caller's database writes are done, waiting for a load in flight (``None``:
        none loaded, so the next load reads the writes). That load may have read the rows before the writes: the caller
        applies them to the copy too. The one home of this rule for every write of a table's rows outside its log.

        Raises:
            SQLAlchemyError: the load in flight could not read the database (nothing is loaded then)."""
        gt = self.tables.get(table_id)
        if gt is None and table_id in self.loading:
            gt = await self.fetch(table_id)
        return gt

    def peek(self, table_id: str) -> GameTable | None:
        """The table for reading only (pages, records): the loaded one, else replayed from the store without
        keeping it in memory; ``None`` for an unknown id."""
        gt = self.tables.get(table_id)
        if gt is not None or not TABLE_ID_RE.match(table_id):
            return gt
        return self.replayed(table_id)

    def replayed(self, table_id: str) -> GameTable | None:
        """The table replayed from the store and kept nowhere (``None``: unknown): it reads only the database, so a
        worker thread may call it."""
        return self._replay(table_id)

    # ------------------------------------------------------------------ changes (call with the lock held)
    async def append(self, gt: GameTable, kind: str, seat: int | None, data: dict[str, Any],
                     clock: ClockSeat | None = None) -> None:
        """Store the next log entry (committed, in a worker thread so other tables go on meanwhile), with ``clock`` (a
        seat's turn clock as that decision leaves it) in the same transaction, then apply both to ``gt``. Call with
        the table's lock held.

        Raises:
            SQLAlchemyError: when the database refuses; nothing is applied then.
        """
        idx = len(gt.log)
        try:
            await asyncio.to_thread(self.store.append, gt.row.id, idx, kind, seat, data, clock)
        except IntegrityError:
            if self.holder is None or not await self.read_new(gt):
                raise
            raise LogConflict(f"entry {idx} of table {gt.row.id} was stored by another process first") from None
        gt.apply_entry(LogEntry(idx, kind, seat, data, time.time()))
        if clock is not None:
            self.clocks.stored(gt, clock)
        self.clocks.sync(gt)

    async def read_new(self, gt: GameTable) -> int:
        """Apply to ``gt`` the entries stored since its last one (by another process), with the turn clocks stored with
        them; how many. Call with the lock held."""
        tid = gt.row.id

        def read() -> tuple[list[LogEntry], list[ClockSeat]]:
            new = self.store.entries_from(tid, len(gt.log))
            return new, (self.store.clock_seats(tid) if new and gt.row.clock_turn else [])

        new, stored = await asyncio.to_thread(read)
        for e in new:
            if e.idx == len(gt.log):
                gt.apply_entry(e)
        if stored:
            self.clocks.read_back(gt, stored)
        return len(new)

    # ------------------------------------------------------------------ many processes (see :mod:`.cluster`)
    def want_catch_up(self, table_id: str, always: bool = False) -> None:
        """Another process stored entries of the table: its copy here (if loaded) reads them, then its clients are shown
        the new state and, when this process is in charge, its due actions are taken. Catch-ups of one table never run
        two at once; one asked for while another runs is run after it. With ``always`` (the lease just taken) the due
        actions are taken also when nothing was new."""
        self.behind.add(table_id)
        if always:
            self.taken.add(table_id)
        if table_id not in self.syncing:
            self.syncing[table_id] = asyncio.create_task(self._sync(table_id))

    async def _sync(self, table_id: str) -> None:
        try:
            while table_id in self.behind:
                self.behind.discard(table_id)
                always = table_id in self.taken
                self.taken.discard(table_id)
                try:
                    await self.catch_up(table_id, always)
                except SQLAlchemyError:
                    await asyncio.sleep(0.5)  # the database refused a read: the next notice or tick tries again
        finally:
            if self.syncing.get(table_id) is asyncio.current_task():
                del self.syncing[table_id]

    async def catch_up(self, table_id: str, always: bool = False) -> None:
        """Read the table's new entries into its loaded copy (none loaded: nothing to do), then show them and take the
        due actions (:meth:`advance`; with ``always`` also when nothing was new: the lease was just taken)."""
        async with self.lock(table_id):
            gt = self.tables.get(table_id)
            if gt is None:
                if not always or not self.clients.anyone_joined(table_id):
                    return
                gt = await self.fetch(table_id)
                if gt is None:
                    return
            n = await self.read_new(gt)
            if self.tables.get(table_id) is gt and (n or always):
                await self.advance(gt)

    async def share_presence(self, table_id: str) -> None:
        """Many processes: store how many of this process's clients hold each seat of the table (others learn it by
        NOTIFY), so every process shows who is online and lets deal 1 start once every person is at the table."""
        if self.holder is None:
            return
        try:
            await asyncio.to_thread(self.store.set_presence, table_id, self.holder, self.clients.seat_counts(table_id))
        except SQLAlchemyError:
            pass  # confirmed again at the next tick (:meth:`tick`)

    def apply_presence(self, table_ids: list[str], rows: list[Any]) -> set[str]:
        """Take the other processes' clients per seat (:meth:`Store.presence` rows) for ``table_ids``; the tables whose
        online seats changed."""
        remote: dict[str, set[int]] = {t: set() for t in table_ids}
        for p in rows:
            if p.holder == self.holder:
                continue
            key = (p.table_id, p.seat)
            if p.conns > 0 and p.now - p.seen < PRESENCE_TTL:
                remote[p.table_id].add(p.seat)
                self.clients.remote_seen[key] = time.time()
            else:
                self.clients.remote_seen[key] = max(self.clients.remote_seen.get(key, 0.0), p.seen - p.now + time.time())
        changed = set()
        for t, seats in remote.items():
            if self.clients.remote.get(t, set()) != seats:
                changed.add(t)
            if seats:
                self.clients.remote[t] = seats
            else:
                self.clients.remote.pop(t, None)
        return changed

    async def refresh(self, table_id: str) -> None:
        """Another process took or renamed a seat, or its clients came or went: read the table's seats and presence,
        and show its clients the change. A load of the table in flight is waited for (it may have read the seats before
        the change), and the seats are read after it (never older than what it read)."""
        if self.holder is None:
            return
        rows = await asyncio.to_thread(self.store.presence, [table_id])
        self.apply_presence([table_id], rows)
        async with self.lock(table_id):
            gt = await self.loaded(table_id)
            if gt is None:
                return
            seats = await asyncio.to_thread(self.store.seats, table_id)
            if self.tables.get(table_id) is not gt:
                return  # forgotten meanwhile: the next load reads these seats
            if seats and len(seats) == len(gt.seats):
                gt.seats = [shown_seat(s) for s in seats]
                gt.match.names = tuple(s.name for s in gt.seats)
            await self.clients.broadcast(gt)

    async def take_lease(self, table_id: str) -> bool:
        """Take (or renew) the table's lease now; whether this process holds it."""
        if self.holder is None:
            return True
        now = asyncio.get_running_loop().time()
        try:
            got = await asyncio.to_thread(self.store.take_leases, self.holder, [table_id], LEASE_TTL)
        except SQLAlchemyError:
            return self.in_charge(table_id)
        if table_id in got:
            self.held[table_id] = now + LEASE_TTL - 0.5
            return True
        self.held.pop(table_id, None)
        return False

    async def left(self, table_id: str) -> None:
        """Many processes: a client of the table went; with none left here, the lease is given up (another process
        with clients there takes it at once) and the presence stored."""
        if self.holder is None:
            return
        await self.share_presence(table_id)
        if not self.clients.anyone_joined(table_id) and self.held.pop(table_id, None) is not None:
            with contextlib.suppress(SQLAlchemyError):
                await asyncio.to_thread(self.store.release_leases, self.holder, [table_id])

    async def tick(self) -> None:
        """Many processes, every second or so: renew the leases of the tables with clients here and take the free or
        expired ones (a process that died stops renewing: its tables are taken over within :data:`LEASE_TTL` seconds and
        a tick), give up the others; confirm this process's clients; read the others' clients; catch up any copy found
        behind the log (a notice lost while the listening connection was down)."""
        assert self.holder is not None
        holder = self.holder
        loop = asyncio.get_running_loop()
        wanted = [t for t in list(self.clients.conns) if self.clients.anyone_joined(t)]
        drop = [t for t in self.held if t not in wanted]
        now = loop.time()
        got = await asyncio.to_thread(self.store.take_leases, holder, wanted, LEASE_TTL)
        new = [t for t in got if t not in self.held or self.held[t] < now]
        for t in drop:
            self.held.pop(t, None)
        for t in wanted:
            if t in got:
                self.held[t] = now + LEASE_TTL - 0.5
            else:
                self.held.pop(t, None)
        if drop:
            await asyncio.to_thread(self.store.release_leases, holder, drop)
        await asyncio.to_thread(self.store.heartbeat, holder)
        for t in new:  # taken over (or first taken): the due actions are taken here from now on
            self.want_catch_up(t, always=True)
        watched = sorted(set(self.tables) | set(self.clients.conns))
        rows, heads = await asyncio.to_thread(lambda: (self.store.presence(watched), self.store.log_lengths(list(self.tables))))
        for t in self.apply_presence(watched, rows):
            gt = self.tables.get(t)
            if gt is not None and t not in new:
                async with self.lock(t):
                    if self.tables.get(t) is gt:
                        await self.clients.broadcast(gt)
        for t, n in heads.items():
            gt = self.tables.get(t)
            if gt is not None and len(gt.log) < n:
                self.want_catch_up(t)


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
        if self.advancing.get(tid) is gt or not (self.in_charge(tid) or self._forced_due(gt)):  # the lease's holder takes them
            if always_broadcast:
                await self.clients.broadcast(gt)
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
        if isinstance(failed, IntegrityError) and self.holder is not None:
            # another process stored first (its lease, or a client's action there): gt was forgotten; the table is
            # read anew and shown, and its due actions taken if still in charge (a second refusal in a row waits)
            again = await self.fetch(tid)
            if again is not None:
                if self.advancing.get(tid) is None:
                    self.advancing[tid] = again
                    try:
                        handed = await self._advance(again, True, background=True)
                    except Exception as e:  # noqa: BLE001 - told and tried again later
                        failed = e
                    else:
                        failed = None
                    finally:
                        if not handed and self.advancing.get(tid) is again:
                            del self.advancing[tid]
                else:
                    failed = None
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
        if isinstance(failed, IntegrityError) and self.holder is not None:
            self.want_catch_up(tid, always=True)  # another process stored first: read anew, shown, taken on if in charge
            return
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
            stopped = error_message("stopped", f"the computers' moves could not be taken ({type(e).__name__}) {n} times in a row: the "
                                      "table is stopped; what was stored is kept, and the moves are tried again when someone "
                                      "joins the table anew")
            await self.clients.tell_joined(tid, stopped)
            return
        wait = min(self.retry_max, self.retry_first * 2 ** min(n - 1, 30))
        now = asyncio.get_running_loop().time()
        if not pending:
            self.retries[tid] = asyncio.create_task(self._retry(tid, wait))
            self.retry_due[tid] = now + wait
        else:  # the pending retry's time left, not its whole wait again
            wait = round(max(0.0, self.retry_due.get(tid, now + wait) - now), 2)
        code = "storage" if isinstance(e, SQLAlchemyError) else "server"
        msg = error_message(code, f"the computers' moves could not be taken ({type(e).__name__}); they are tried again in {wait:g} s")
        msg["retry"] = wait  # seconds: the page says it in its language (a refusal's text is the code's, else)
        await self.clients.tell_joined(tid, msg)

    async def _retry(self, table_id: str, wait: float) -> None:
        """After ``wait`` seconds, replay the table from the database and take its due actions (:meth:`advance`, which
        shows the state to its clients): the next try of a run that failed. Nothing is done when nobody is at the table any
        more (the next join takes them) or when a run goes on there again (started by a client's message meanwhile)."""
        try:
            await asyncio.sleep(wait)
            async with self.lock(table_id):
                if not self.clients.anyone_joined(table_id):
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
        # not in charge (another process holds the lease): only the actions the rules force where everyone knows them,
        # which any process takes at once (a state waiting for one is never shown; the key refuses a second copy)
        forced_only = not self.in_charge(tid)
        try:
            while True:
                if forced_only and not self._forced_due(gt):
                    break
                if gt.waiting_start and not gt.match.over and (gt.no_person or gt.everyone_gone):
                    if gt.released:
                        await flush()
                        await self.clients.broadcast(gt)
                        if gt.no_person and not self.clients.anyone_joined(gt.row.id):
                            break  # nobody watches: the next deal starts when a spectator joins
                        await asyncio.sleep(0)
                    entry: tuple[int, str, int | None, dict[str, Any]] = (len(gt.log), "start", None, {"deal": gt.match.deal.number})
                else:
                    paced = self.delay > 0 and gt.decision_next()
                    if paced and paused != len(gt.log):
                        await flush()
                        self.clocks.sync(gt)
                        await self.clients.broadcast(gt)  # the state before the decision, shown before any thinking
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
        if gt.match.over and not gt.rating_done:
            await self.rate(gt)  # before the end is shown: whoever sees it finds the new ratings
        self.clocks.sync(gt)  # a person's turn now: the clock runs from the state shown
        if always_broadcast or len(gt.log) != first:
            await self.clients.broadcast(gt)
        if not forced_only:  # a match just ended: its review is computed in the background (queued once, by the holder)
            self.review_match(gt, asked=False)
        return False

    @staticmethod
    def _forced_due(gt: GameTable) -> bool:
        """Whether the next action is one the rules force where everyone can know it (no decision: whoever takes it)."""
        m = gt.match
        return not m.over and not gt.waiting_start and m.publicly_forced_action() is not None

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
            self.clients.forget(table_id, (s.seat for s in gt.seats))

    async def check_away(self) -> None:
        """Seat a stand-in computer for every human absent past the table's timeout (in a started, unfinished match)."""
        now = time.time()
        for tid, gt in list(self.tables.items()):
            t = gt.row.away_timeout
            if t < 0 or gt.match.over or gt.released == 0 or not self.in_charge(tid):
                continue
            online = self.clients.online(tid)
            for s in gt.seats:
                if s.kind != HUMAN or s.seat in online or s.seat in gt.away or s.seat in gt.left:
                    continue
                if now - self.clients.seen_last(tid, s.seat, now) >= t:
                    async with self.lock(tid):
                        if self.tables.get(tid) is not gt or s.seat in self.clients.online(tid) or s.seat in gt.away:
                            continue
                        try:
                            await self.append(gt, "away", s.seat, {})
                            await self.advance(gt)
                        except SQLAlchemyError:
                            continue

    def background_tasks(self) -> list[asyncio.Task[None]]:
        """The paced runs and pending retries going on (to be cancelled at shutdown: what they stored is kept)."""
        return [*self.runs.values(), *self.retries.values(), *self.clocks.tasks(), *self.syncing.values()]
