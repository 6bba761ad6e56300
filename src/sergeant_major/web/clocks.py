"""Turn clocks: at a table with a clock (``clock_turn`` seconds per decision plus a reserve of ``clock_reserve`` seconds
per seat), a person who has not decided when both ran out has that one decision made by a computer (the stand-in's
level; logged as an ``act`` with ``"by": "clock"``); after :data:`HOLD_AFTER` such timeouts in a row a computer holds
the seat (an ``away`` entry with ``{"clock": true}``) until the person is back (a ``back`` message, or a new join).

A decision taken in time uses the turn's seconds first and the reserve only for the time beyond them; a timeout spends
the reserve whole. The clocks are kept by table id in the runner's process (they outlive a table's copy in memory, which
is replayed from the database when nobody is at the table); after a restart every seat's reserve is whole again.
The runner (:class:`~sergeant_major.web.runner.TableRunner`) calls :meth:`Clocks.sync` after every change of a table and
takes the timeout itself (:meth:`~sergeant_major.web.runner.TableRunner.clock_ran_out`), with the table's lock held.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sergeant_major.web.tables import GameTable

__all__ = ["Clocks", "TableClock", "HOLD_AFTER", "CLOCK_CHOICES", "parse_clock"]

HOLD_AFTER = 3  # timeouts in a row after which a computer holds the seat
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
    (``key``: the state version and the seat; ``None``: no person's turn) with its start and deadline (epoch s)."""

    reserves: list[float]
    streak: list[int]
    key: tuple[int, int] | None = None
    started: float = 0.0
    deadline: float = 0.0
    task: asyncio.Task[None] | None = None


@dataclass
class Clocks:
    """The turn clocks of the tables (by id). ``ran_out(table_id, key)`` is awaited when a turn's time is up (the runner
    checks, with the lock held, that the table still waits for that very decision)."""

    ran_out: Callable[[str, tuple[int, int]], Awaitable[None]]
    tables: dict[str, TableClock] = field(default_factory=dict)

    def _of(self, gt: GameTable) -> TableClock:
        tc = self.tables.get(gt.row.id)
        if tc is None:
            n = len(gt.seats)
            tc = self.tables[gt.row.id] = TableClock([float(gt.row.clock_reserve)] * n, [0] * n)
        return tc

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
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:  # a table loaded outside the event loop (a test): its clock starts at its next change
                    tc.key = None
                else:
                    tc.task = loop.create_task(self._wait(gt.row.id, key, tc.deadline))
        gt.clock = {"seat": None if tc.key is None else tc.key[1], "deadline": tc.deadline, "reserves": list(tc.reserves)}
        if gt.match.over:
            self.forget(gt.row.id)

    async def _wait(self, table_id: str, key: tuple[int, int], deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        tc = self.tables.get(table_id)
        if tc is not None and tc.key == key:
            tc.task = None  # the timeout is taken now: a sync meanwhile must not cancel it
            await self.ran_out(table_id, key)

    def decided(self, gt: GameTable, seat: int) -> None:
        """``seat``'s person decided (before it is stored): the time beyond the turn's seconds comes off the reserve and
        the timeouts in a row start anew."""
        tc = self.tables.get(gt.row.id)
        if tc is None or tc.key is None or tc.key[1] != seat:
            return
        over = time.time() - tc.started - gt.row.clock_turn
        tc.reserves[seat] = max(0.0, tc.reserves[seat] - max(0.0, over))
        tc.streak[seat] = 0

    def timed_out(self, gt: GameTable, seat: int) -> bool:
        """``seat``'s time ran out (its decision is made by a computer): its reserve is spent; whether that is the
        :data:`HOLD_AFTER`-th timeout in a row (a computer then holds the seat)."""
        tc = self._of(gt)
        tc.reserves[seat] = 0.0
        tc.streak[seat] += 1
        if tc.streak[seat] >= HOLD_AFTER:
            tc.streak[seat] = 0
            return True
        return False

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
