"""The open websockets (tables and lobby) of each login session, closed the moment their session ends (log out, a
password change, an account deleted; with many processes, within a check of the sessions still stored).

A websocket is counted under its session cookie's token hash before the session is read, so that a session ended while
it is read still reaches it: either the read finds the session gone, or the ending finds the websocket counted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from fastapi import WebSocket

from sergeant_major.web.accounts import token_hash

__all__ = ["LOGGED_OUT", "LOGGED_OUT_REASON", "SessionSockets"]

LOGGED_OUT = 4401
"""The close code of a websocket whose session ended (the pages say "logged out" and do not reconnect as that account)."""
LOGGED_OUT_REASON = "logged out: the session of this browser ended (log out, a password change or the account deleted)"


@dataclass
class _Entry:
    confirmed: bool = False  # its session was read and found (a stale cookie's websocket is a guest's: never closed)
    on_end: Callable[[], None] | None = None  # stops it acting for the account at once (before the close is sent)


@dataclass
class SessionSockets:
    """The websockets of each session (by token hash) and those whose session ended (closed, or being closed)."""

    by_session: dict[str, dict[WebSocket, _Entry]] = field(default_factory=dict)
    ended: set[WebSocket] = field(default_factory=set)

    def add(self, token: str | None, ws: WebSocket, on_end: Callable[[], None] | None = None) -> str | None:
        """Count ``ws`` under the session of a cookie's ``token`` (before the session is read); returns the key (the token
        hash) for :meth:`confirm` and :meth:`remove`, or ``None`` without a token."""
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        self.by_session.setdefault(key, {})[ws] = _Entry(on_end=on_end)
        return key

    def confirm(self, key: str | None, ws: WebSocket) -> None:
        """The session of ``ws`` was read and found: the periodic check (:meth:`confirmed`) watches it from now on."""
        entry = self.by_session.get(key or "", {}).get(ws)
        if entry is not None:
            entry.confirmed = True

    def remove(self, key: str | None, ws: WebSocket) -> None:
        """Forget ``ws`` (closed, or its cookie held no session)."""
        got = self.by_session.get(key or "")
        if got is not None:
            got.pop(ws, None)
            if not got:
                del self.by_session[key or ""]
        self.ended.discard(ws)

    def is_ended(self, ws: WebSocket) -> bool:
        """Whether the session of ``ws`` ended: it may no longer act (it is closed with :data:`LOGGED_OUT`)."""
        return ws in self.ended

    def confirmed(self) -> set[str]:
        """The token hashes of the sessions found for their websockets (to be checked against those still stored)."""
        return {k for k, entries in self.by_session.items() if any(e.confirmed for e in entries.values())}

    async def end(self, keys: Iterable[str]) -> int:
        """The sessions of ``keys`` (token hashes) ended: their websockets stop acting for the account and are closed
        with :data:`LOGGED_OUT`; returns how many were."""
        n = 0
        for key in set(keys):
            for ws, entry in list(self.by_session.pop(key, {}).items()):
                self.ended.add(ws)
                if entry.on_end is not None:
                    entry.on_end()
                with contextlib.suppress(Exception):  # closed already: nothing more to end
                    await ws.close(code=LOGGED_OUT, reason=LOGGED_OUT_REASON)
                n += 1
        return n
