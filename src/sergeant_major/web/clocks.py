"""Turn clocks: at a table with a clock (``clock_turn`` seconds per decision plus a reserve of ``clock_reserve`` seconds
per seat), a person who has not decided when both ran out has that one decision made by a computer (the stand-in's
level; logged as an ``act`` with ``"by": "clock"``); after :data:`HOLD_AFTER` such timeouts in a row a computer holds
the seat (an ``away`` entry with ``{"clock": true}``) until the person is back (a ``back`` message, or a new join).

A decision taken in time uses the turn's seconds first and the reserve only for the time beyond them; a timeout spends
the reserve whole. The clocks are kept by table id in the runner's process (they outlive a table's copy in memory, which
is replayed from the database when nobody is at the table), and each seat's reserve and timeouts in a row are stored in
``sm_clocks`` in the transaction of the decision that changed them (:meth:`Clocks.decided`, :meth:`Clocks.timed_out`).
After a restart the clocks are read back with the table: the turn that was running counts from when its state was
stored (the log's last entry; the time the server was down included), but leaves its person at least
:data:`RESUME_GRACE` seconds (or the turn's, if fewer), so a restart neither refills a clock nor times out at once.
The runner (:class:`~sergeant_major.web.runner.TableRunner`) calls :meth:`Clocks.sync` after every change of a table and
takes the timeout itself (:meth:`~sergeant_major.web.runner.TableRunner.clock_ran_out`), with the table's lock held.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sergeant_major.web.store import ClockSeat
from sergeant_major.web.tables import GameTable

__all__ = ["Clocks", "TableClock", "HOLD_AFTER", "CLOCK_CHOICES", "RESUME_GRACE", "parse_clock"]

HOLD_AFTER = 3  # timeouts in a row after which a computer holds the seat
RESUME_GRACE = 10.0  # seconds a turn resumed after a restart leaves at least (to reconnect), unless its turn is shorter
# the clocks the pages offer: (seconds per decision, reserve seconds); any other pair within the limits is taken too
CLOCK_CHOICES = ((0, 0), (10, 30), (20, 60), (30, 120), (60, 300))
MAX_TURN = 600
MAX_RESERVE = 3600


def parse_clock(turn: object, reserve: object) -> tuple[int, int]:
    """A table's clock from a form: ``turn`` seconds per decision (0: no clock, else 5..600) and ``reserve`` seconds
    (0..3600; 0 without a clock).

    Raises:
        ValueError: quoting the value refused."""
    for what, v, hi in (("clock_turn", turn, MAX_TURN), ("clock_reserve", reserve, MAX_RESERVE)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= hi:
            raise ValueError(f"{what} must be a whole number of seconds 0..{hi}, not {v!r}"[:200])
    assert isinstance(turn, int) and isinstance(reserve, int)
    if 0 < turn < 5:
        raise ValueError(f"clock_turn {turn!r}: a turn clock gives at least 5 seconds per decision (0: no clock)")
    return turn, (reserve if turn else 0)


@dataclass
class TableClock:
    """One table's clock: each seat's reserve left (seconds) and timeouts in a row, and the turn it runs for now
    (``key``: the state version and the seat; ``None``: no person's turn) with its start and deadline (epoch s);
    ``resumed``: read back from the database, the time (epoch s) the first turn it runs started (the last entry stored)."""

    reserves: list[float]
    streak: list[int]
    key: tuple[int, int] | None = None
    started: float = 0.0
    deadline: float = 0.0
    task: asyncio.Task[None] | None = None
    resumed: float | None = None


@dataclass
class Clocks:
    """The turn clocks of the tables (by id). ``ran_out(table_id, key)`` is awaited when a turn's time is up (the runner
    checks, with the lock held, that the table still waits for that very decision)."""

    ran_out: Callable[[str, tuple[int, int]], Awaitable[None]]
    tables: dict[str, TableClock] = field(default_factory=dict)

    def _of(self, gt: GameTable) -> TableClock:
        """The table's clock; made from what the database holds (:attr:`GameTable.clock_seats`) when none is here."""
        tc = self.tables.get(gt.row.id)
        if tc is None:
            n = len(gt.seats)
            tc = self.tables[gt.row.id] = TableClock([float(gt.row.clock_reserve)] * n, [0] * n)
            self._take(tc, gt.clock_seats)
            if gt.log and gt.log[-1].created > 0:
                tc.resumed = gt.log[-1].created
        return tc

    @staticmethod
    def _take(tc: TableClock, stored: list[ClockSeat]) -> None:
        for cs in stored:
            if 0 <= cs.seat < len(tc.reserves):
                tc.reserves[cs.seat], tc.streak[cs.seat] = max(0.0, cs.reserve), max(0, cs.streak)

    def read_back(self, gt: GameTable, stored: list[ClockSeat]) -> None:
        """Many processes: another process stored decisions at ``gt`` (read just now): take the clocks it stored."""
        tc = self.tables.get(gt.row.id)
        if tc is not None:
            self._take(tc, stored)

    def sync(self, gt: GameTable) -> None:
        """After a change of ``gt`` (lock held): start the clock of the person to decide now (a new turn), stop it when
        nobody is to decide, and set what the state messages show (:attr:`GameTable.clock`)."""
        if not gt.row.clock_turn:
            return
        tc = self._of(gt)
        seat = gt.person_to_decide()
        key = None if seat is None else (gt.version, seat)
        if key != tc.key:
            self._stop(tc)
            tc.key = key
            if key is not None and seat is not None:
                now = time.time()
                tc.started, tc.deadline = now, now + gt.row.clock_turn + tc.reserves[seat]
                if tc.resumed is not None:  # read back after a restart: the turn counts from its state's storing
                    tc.started = min(now, tc.resumed)
                    tc.deadline = max(tc.started + gt.row.clock_turn + tc.reserves[seat],
                                      now + min(RESUME_GRACE, float(gt.row.clock_turn)))
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:  # a table loaded outside the event loop (a test): its clock starts at its next change
                    tc.key = None
                else:
                    tc.task = loop.create_task(self._wait(gt.row.id, key, tc.deadline))
                    tc.resumed = None
            else:
                tc.resumed = None
        elif key is not None and tc.task is None and tc.resumed is None:
            # the same turn, its wait over but its timeout not taken (this process was not in charge of the table then,
            # as after a takeover): waited for anew, so the process in charge now takes it
            with contextlib.suppress(RuntimeError):
                tc.task = asyncio.get_running_loop().create_task(self._wait(gt.row.id, key, tc.deadline))
        gt.clock = {"seat": None if tc.key is None else tc.key[1], "deadline": tc.deadline, "reserves": list(tc.reserves)}
        if gt.match.over:
            self.forget(gt.row.id)

    async def _wait(self, table_id: str, key: tuple[int, int], deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        tc = self.tables.get(table_id)
        if tc is not None and tc.key == key:
            tc.task = None  # the timeout is taken now: a sync meanwhile must not cancel it
            await self.ran_out(table_id, key)

    def decided(self, gt: GameTable, seat: int) -> ClockSeat | None:
        """``seat``'s person decides now: the seat's clock once the decision is stored (the time beyond the turn's
        seconds off the reserve, no timeout in a row), to store with it and then :meth:`stored`; ``None``: no clock
        runs for that seat."""
        tc = self.tables.get(gt.row.id)
        if tc is None or tc.key is None or tc.key[1] != seat:
            return None
        over = time.time() - tc.started - gt.row.clock_turn
        return ClockSeat(seat, max(0.0, tc.reserves[seat] - max(0.0, over)), 0)

    def timed_out(self, gt: GameTable, seat: int) -> tuple[ClockSeat, bool]:
        """``seat``'s time ran out (its decision is made by a computer): the seat's clock once that decision is stored
        (its reserve spent; to store with it and then :meth:`stored`), and whether that is the :data:`HOLD_AFTER`-th
        timeout in a row (a computer then holds the seat; the count starts anew)."""
        tc = self._of(gt)
        streak = tc.streak[seat] + 1
        hold = streak >= HOLD_AFTER
        return ClockSeat(seat, 0.0, 0 if hold else streak), hold

    def stored(self, gt: GameTable, cs: ClockSeat) -> None:
        """The decision that changed a seat's clock to ``cs`` is stored: the clock here is ``cs`` too."""
        tc = self._of(gt)
        if 0 <= cs.seat < len(tc.reserves):
            tc.reserves[cs.seat], tc.streak[cs.seat] = cs.reserve, cs.streak

    def _stop(self, tc: TableClock) -> None:
        if tc.task is not None and tc.task is not asyncio.current_task():
            tc.task.cancel()
        tc.task = None

    def forget(self, table_id: str) -> None:
        """Stop and forget a table's clock (its match is over)."""
        tc = self.tables.pop(table_id, None)
        if tc is not None:
            self._stop(tc)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The clocks' waits going on (cancelled at shutdown)."""
        return [tc.task for tc in self.tables.values() if tc.task is not None]
