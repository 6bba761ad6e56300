"""The websocket clients of each table, when each person's seat was last seen, and sending to them.

A client is shown a table's state only once it joined (a seat's token, or as a spectator); each is sent the state
message built from its own seat's view (:meth:`GameTable.state_message`; a spectator's: the public view).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from sergeant_major.web.chat import ChatLimit
from sergeant_major.web.tables import GameTable

__all__ = ["Conn", "Connections"]


@dataclass(eq=False)
class Conn:
    """One websocket client: its table and seat (``None``: spectator or not joined yet), and the last message it was
    sent (the text)."""

    ws: WebSocket
    table: str
    seat: int | None = None
    joined: bool = False
    last: str | None = None  # the last message sent to it (a broadcast does not send the same state again)
    account: int | None = None  # the account logged in on its browser (its session cookie), or None: a guest
    chat: ChatLimit = field(default_factory=ChatLimit)  # its last quick-chat phrases (a flood is refused)


@dataclass
class Connections:
    """The clients of every table (``conns``, by table id) and when each seat was last seen (``last_seen``, by
    ``(table id, seat)``: epoch seconds; a seat with a client is online, one without for longer than the table's
    timeout gets a stand-in)."""

    conns: dict[str, list[Conn]] = field(default_factory=dict)
    last_seen: dict[tuple[str, int], float] = field(default_factory=dict)
    # many processes: the seats with a client at another live process (by table id), and when each ``(table id, seat)``
    # was last seen there (epoch seconds), as last read from the database
    remote: dict[str, set[int]] = field(default_factory=dict)
    remote_seen: dict[tuple[str, int], float] = field(default_factory=dict)

    def add(self, c: Conn) -> None:
        """Count ``c`` among its table's clients."""
        self.conns.setdefault(c.table, []).append(c)

    def of(self, table_id: str) -> list[Conn]:
        """The table's clients now (a copy: sending may drop one)."""
        return list(self.conns.get(table_id, []))

    def online(self, table_id: str) -> set[int]:
        """Seats with at least one connected client (here or, with many processes, at another one)."""
        return self.local_seats(table_id) | self.remote.get(table_id, set())

    def local_seats(self, table_id: str) -> set[int]:
        """Seats with at least one client connected to this process."""
        return {c.seat for c in self.conns.get(table_id, []) if c.seat is not None}

    def seat_counts(self, table_id: str) -> dict[int, int]:
        """How many clients of this process hold each seat of the table (seats without any left out)."""
        out: dict[int, int] = {}
        for c in self.conns.get(table_id, []):
            if c.seat is not None and c.joined:
                out[c.seat] = out.get(c.seat, 0) + 1
        return out

    def seen_last(self, table_id: str, seat: int, default: float) -> float:
        """When the seat was last seen with a client, here or at another process (``default`` when never)."""
        return max(self.last_seen.get((table_id, seat), default), self.remote_seen.get((table_id, seat), 0.0))

    def anyone_joined(self, table_id: str) -> bool:
        """Whether a client joined the table (a seat or as a spectator)."""
        return any(c.joined for c in self.conns.get(table_id, []))

    def drop(self, c: Conn) -> None:
        """Forget a client; remember when its seat was last seen."""
        lst = self.conns.get(c.table)
        if lst is not None and c in lst:
            lst.remove(c)
            if not lst:
                del self.conns[c.table]
            if c.seat is not None:
                self.last_seen[(c.table, c.seat)] = time.time()

    def seen(self, table_id: str, seats: Iterable[int]) -> None:
        """The table's ``seats`` are last seen now (a table loaded: its absent players' timeouts start anew)."""
        now = time.time()
        for seat in seats:
            self.last_seen[(table_id, seat)] = now

    def forget(self, table_id: str, seats: Iterable[int]) -> None:
        """Forget when the table's ``seats`` were last seen, here and at other processes (the table forgotten: set anew when
        it is loaded again)."""
        for seat in seats:
            self.last_seen.pop((table_id, seat), None)
            self.remote_seen.pop((table_id, seat), None)
        if table_id not in self.conns:  # (with clients here it is read again within a second: kept meanwhile)
            self.remote.pop(table_id, None)

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

    async def send_state(self, c: Conn, gt: GameTable) -> None:
        """Send ``c`` its current state message."""
        await self.send(c, gt.state_message(c.seat, self.online(gt.row.id)))

    async def broadcast(self, gt: GameTable) -> None:
        """Send every joined client of ``gt`` its own state message, unless it is the very message that client was sent
        last (a spectator just shown the state at his join, then the same state before a paced computer's move)."""
        conns = self.of(gt.row.id)
        online = self.online(gt.row.id)
        cache: dict[int | None, str] = {}
        for c in conns:
            if not c.joined:
                continue
            if c.seat not in cache:
                cache[c.seat] = json.dumps(gt.state_message(c.seat, online), separators=(",", ":"))
            if c.last != cache[c.seat]:
                await self.send_text(c, cache[c.seat])

    async def tell_joined(self, table_id: str, msg: dict[str, Any]) -> None:
        """Send ``msg`` to the clients that joined the table (a seat or as spectators), not to a connection that has not
        joined yet (it was shown nothing of the table)."""
        for c in self.of(table_id):
            if c.joined:
                await self.send(c, msg)
