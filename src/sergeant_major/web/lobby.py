"""The lobby (``/lobby``): the public tables waiting for players, pushed live to the lobby's websockets; opening a table
there, joining one (a free seat), *quick play* (join a waiting table of the rules asked for, or open one) and the computers that
take the free seats when the wait chosen is over.

A lobby table is stored like any other, ``public``, every seat a person's with a token; a seat nobody took yet is
``claimed`` false. Taking one is :meth:`Store.claim_seat`'s conditional UPDATE, so two joins at once never get one seat;
the token is handed to the one who took it (and to nobody else: a free seat's token is never shown). At ``fill_at`` the
seats still free become computers of ``fill_level`` (:meth:`Store.fill_seats`, conditional too). The list of waiting
tables is kept in memory (read from the database at start), changed only here, and every change is pushed to the
lobby's clients in one ``lobby`` message (coalesced: one per turn of the event loop). Nothing of a match is in it: the
rules, the names of the seated, the free seats, the clock, when computers fill the seats, and a rating seam
(:class:`RatingSource`, ``None`` for everyone until accounts are wired in).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal, Protocol

from fastapi import WebSocket
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.core.errors import RulesError, SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import normal_name
from sergeant_major.players import LEVELS
from sergeant_major.web.accounts import DELETED_NAME
from sergeant_major.web.clocks import parse_clock
from sergeant_major.web.protocol import TABLE_ID_RE, TableRefused, name_refusal, quote
from sergeant_major.web.ratings import rated_if_filled
from sergeant_major.web.runner import TableRunner
from sergeant_major.web.store import SeatRow, TableRow
from sergeant_major.web.tables import FREE_SEAT_WORDS, HUMAN, computer_name, person_name_refusal, shown_seat

__all__ = ["Lobby", "LobbyRequest", "RatingSource", "NoRatings", "MAX_WAIT", "Seated", "lobby_request"]

MAX_WAIT = 120  # seconds a player may choose to wait for people before computers fill the free seats
MAX_LISTED = 200  # waiting tables in one lobby message (the oldest first)
_NUMBERED = re.compile(r"(.*\S)\s+(\d{1,4})")  # a name and a number: "Ann 2"
FREE_NAME = FREE_SEAT_WORDS[0] + " {n}"  # a free seat's name until someone takes it (seats from 1)


class RatingSource(Protocol):
    """Where the lobby gets the rating it shows next to a seated person (wired by the accounts; ``None``: not rated)."""

    def lobby_rating(self, account: int | None, rules: str) -> Any:
        """The rating of the person logged in as ``account`` for ``rules`` (JSON-ready, e.g. ``{"ordinal": 23.1,
        "matches": 4}``), or ``None`` (a guest, or rules that are not rated)."""
        ...


class NoRatings:
    """No ratings (guests only): every seat's rating is ``None``."""

    def lobby_rating(self, account: int | None, rules: str) -> Any:
        """``None``."""
        return None


class LobbyRequest(BaseModel):
    """The body of ``POST /api/lobby/open``, ``/api/lobby/quick`` and ``/api/lobby/join``: the player's ``name``; to open
    (or quick play): the ``rules`` (a preset and options), the table's ``clock_turn`` and ``clock_reserve``
    seconds, and the computer ``level`` that takes the free seats after ``wait`` seconds (0..:data:`MAX_WAIT`); to join:
    the ``table`` id (and ``wait`` too: the computers then come no later than that). ``level_names`` (each level's name
    in the page's language, sent by older pages) is checked and not used: the computers are stored as ``Random 3`` and
    each page writes their names in its language."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1, max_length=40)
    rules: str = Field(default="9-5-2", max_length=300)
    table: str | None = Field(default=None, max_length=32)
    table_name: str | None = Field(default=None, max_length=60)
    clock_turn: int = 0
    clock_reserve: int = 0
    level: str = "heuristic"
    wait: int = Field(default=30, ge=0, le=MAX_WAIT)
    level_names: dict[str, str] | None = Field(default=None, max_length=8)


_FIELDS_SAID = {
    "name": "\"name\" must be your name, a text of 1 to 40 characters",
    "rules": "\"rules\" must be a short text like \"9-5-2 to=20\"",
    "table": "\"table\" must be a table's id",
    "table_name": "\"table_name\" must be text of at most 60 characters",
    "clock_turn": "\"clock_turn\" must be whole seconds",
    "clock_reserve": "\"clock_reserve\" must be whole seconds",
    "level": "\"level\" must be a computer level",
    "wait": f"\"wait\" must be whole seconds 0..{MAX_WAIT}",
    "level_names": "\"level_names\" must map computer levels to names of 1 to 30 characters",
}


def lobby_request(body: Any, kind: Literal["open", "quick", "join"], holder: Callable[[str], int | None] | None = None,
                  account: int | None = None) -> LobbyRequest:
    """A lobby form checked (``body``: the request's JSON), each field's refusal quoting it; ``holder``: the id of the
    account a name is (the store's :meth:`~.store.Store.account_named`, read in the caller's thread), ``account``: the
    id of the person's (logged in), the one account whose name he may have.

    Raises:
        TableRefused: ``body``, ``rules``, ``seat_name``, ``computer_name`` (a name written as a computer's),
            ``account_name`` (another account's name, or the deleted accounts'), ``table_name``,
            ``clock``, ``level``, ``wait`` or ``table``."""
    if not isinstance(body, dict):
        raise TableRefused("body", f"the request body must be a JSON object like {{\"name\": \"Ann\"}}, not {quote(body)}")
    extra = sorted(str(k) for k in set(body) - set(LobbyRequest.model_fields))
    if extra:
        raise TableRefused("body", f"unknown field(s) {', '.join(extra)[:60]} (a lobby form has {', '.join(LobbyRequest.model_fields)})")
    try:
        req = LobbyRequest.model_validate(body)
    except ValidationError as e:
        first = e.errors()[0]
        f = str(first["loc"][0]) if first["loc"] else "body"
        code = {"name": "seat_name", "table_name": "table_name", "clock_turn": "clock", "clock_reserve": "clock",
                "level_names": "level"}.get(f, f)
        raise TableRefused(code if code in _FIELDS_SAID or code in ("seat_name", "clock") else "body",
                           f"{_FIELDS_SAID.get(f, 'the form')}, not {quote(body.get(f))}; nothing was changed") from None
    for what, text in (("your name", req.name), ("the table name", req.table_name)):
        refused = None if text is None else name_refusal(what, text)
        if refused is not None:
            raise TableRefused("seat_name" if what == "your name" else "table_name", f"{refused}; nothing was changed")
    if not req.name.strip():
        raise TableRefused("seat_name", f"your name {quote(req.name)} is only spaces; nothing was changed")
    like = person_name_refusal("your name", req.name, None if holder is None else holder(normal_name(req.name)), account)
    if like is not None:
        raise TableRefused(like[0], f"{like[1]}; nothing was changed")
    # the one form stored and shown (person_name_refusal checked it): no invisible or fullwidth character in a name
    req = req.model_copy(update={"name": normal_name(req.name),
                                 "table_name": None if req.table_name is None else normal_name(req.table_name)})
    for level, said in (req.level_names or {}).items():
        if level not in LEVELS or not 1 <= len(said.strip()) <= 30 or name_refusal("a level's name", said) is not None:
            raise TableRefused("level", f"{_FIELDS_SAID['level_names']} (levels: {', '.join(LEVELS)}), not {quote(level)}: "
                                        f"{quote(said)}; nothing was changed")
    if req.level not in LEVELS:
        raise TableRefused("level", f"unknown computer level {quote(req.level)} (one of {', '.join(LEVELS)}); nothing was changed")
    try:
        parse_clock(req.clock_turn, req.clock_reserve)
    except ValueError as e:
        raise TableRefused("clock", f"{e}; nothing was changed") from None
    if kind == "join" and (req.table is None or not TABLE_ID_RE.match(req.table)):
        raise TableRefused("table", f"\"table\" must be the id of a table in the lobby, not {quote(req.table)}")
    return req


@lru_cache(maxsize=64)
def _rules(text: str) -> Rules:
    return Rules.parse(text)


def _rated(w: Waiting) -> bool:
    """Whether ``w``'s match will be rated if its free seats go to accounts or computers: no guest seated so far."""
    seats = [(s.kind, s.account, not s.claimed) for s in w.seats]
    return rated_if_filled(_rules(w.row.rules), False, seats, w.row.fill_level) is not None


@dataclass(frozen=True)
class Seated:
    """A seat taken in the lobby: the table, the seat (from 0), its token (the player's secret) and the lobby's version
    once the change is in it."""

    table: str
    seat: int
    token: str
    lobby_v: int

    def json(self) -> dict[str, Any]:
        """The answer to the lobby's forms: where to go and with which token."""
        return {"id": self.table, "seat": self.seat, "token": self.token, "url": f"/t/{self.table}", "lobby_v": self.lobby_v}


@dataclass
class Waiting:
    """A public table waiting for players, as the lobby lists it."""

    row: TableRow
    seats: list[SeatRow]
    joining: int = 0  # joins going on (their seat not stored yet)

    def free(self) -> list[int]:
        """The seats nobody took yet."""
        return [s.seat for s in self.seats if s.kind == HUMAN and not s.claimed]


@dataclass
class Lobby:
    """The lobby of one server: the waiting public tables (:attr:`waiting`), its websocket clients, and the fills due.

    Args:
        runner: the table runner (its store, the tables' locks and loaded copies, their clients).
        ratings: the ratings shown next to the seated (:class:`NoRatings` until accounts are wired).
    """

    runner: TableRunner
    ratings: RatingSource = field(default_factory=NoRatings)
    waiting: dict[str, Waiting] = field(default_factory=dict)
    clients: list[WebSocket] = field(default_factory=list)
    version: int = 0
    fills: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    pending: bool = False  # a push of the lobby message is scheduled

    # ------------------------------------------------------------------ start and shutdown
    async def start(self) -> None:
        """Read the waiting tables from the database and schedule their fills (at server start)."""
        rows = await asyncio.to_thread(self.runner.store.waiting_tables)
        for row, seats in rows:
            self.waiting[row.id] = Waiting(row, seats)
            self._schedule(row.id)

    async def refresh(self) -> None:
        """Read the waiting tables from the database again (with many processes, the others open, join and fill them):
        new ones are listed and their fills scheduled, those no longer waiting leave; pushed when anything changed.

        Raises:
            SQLAlchemyError: when the database cannot be read (nothing is changed)."""
        rows = await asyncio.to_thread(self.runner.store.waiting_tables)
        now_waiting = {row.id for row, _ in rows}
        changed = False
        for row, seats in rows:
            w = self.waiting.get(row.id)
            if w is not None and (w.joining or (w.row, w.seats) == (row, seats)):
                continue  # a join here is storing its seat: this process's copy is the newer one
            if w is None:
                self.waiting[row.id] = Waiting(row, seats)
            else:
                w.row, w.seats = row, seats
            self._schedule(row.id)
            changed = True
        for tid, w in list(self.waiting.items()):
            if tid not in now_waiting and not w.joining:
                self._done(tid)
                changed = True
        if changed:
            self.changed()

    async def watch(self, every: float = 2.0) -> None:
        """Many processes: :meth:`refresh` every ``every`` seconds, so each process's lobby lists every waiting table."""
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(SQLAlchemyError):
                await self.refresh()

    def tasks(self) -> list[asyncio.Task[None]]:
        """The fills waiting (cancelled at shutdown: their time is stored, and read at the next start)."""
        return list(self.fills.values())

    # ------------------------------------------------------------------ the lobby message
    def message(self) -> dict[str, Any]:
        """The ``lobby`` message: version ``v``, the server's time ``now`` (epoch s) and the waiting tables, oldest first
        (no card, no token: rules, names, free seats, clock, fill)."""
        tables = []
        for w in list(self.waiting.values())[:MAX_LISTED]:
            r = w.row
            tables.append({
                "id": r.id, "name": r.name, "name_default": r.name_default, "rules": r.rules, "clock": [r.clock_turn, r.clock_reserve] if r.clock_turn else None,
                "level": r.fill_level, "fill_at": r.fill_at, "free": len(w.free()), "rated": _rated(w),
                "seats": [{"seat": s.seat, "name": None if not s.claimed else s.name, "free": not s.claimed,
                           "rating": self.ratings.lobby_rating(s.account, r.rules) if s.claimed else None}
                          for s in w.seats]})
        return {"type": "lobby", "v": self.version, "now": round(time.time(), 3), "tables": tables}

    def changed(self) -> int:
        """Count a change and push the lobby message to the clients soon (once for all changes of this turn of the event
        loop); the new version."""
        self.version += 1
        if not self.pending:
            self.pending = True
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._push()))
        return self.version

    async def _push(self) -> None:
        self.pending = False
        text = json.dumps(self.message(), separators=(",", ":"))
        await asyncio.gather(*(self._send(ws, text) for ws in list(self.clients)))

    async def _send(self, ws: WebSocket, text: str) -> None:
        try:
            await ws.send_text(text)
        except Exception:  # noqa: BLE001 - a closed socket must never hurt the lobby
            self.drop(ws)

    async def add(self, ws: WebSocket) -> None:
        """A lobby client: sent the lobby now and at every change."""
        self.clients.append(ws)
        await self._send(ws, json.dumps(self.message(), separators=(",", ":")))

    def drop(self, ws: WebSocket) -> None:
        """Forget a lobby client."""
        if ws in self.clients:
            self.clients.remove(ws)

    def forget_account(self, account_id: int) -> None:
        """A deleted account's seats at the waiting tables: named ``deleted player`` and bound to no account (as stored),
        so its rating is no longer shown and a later account given the same id does not get them."""
        hit = False
        for w in self.waiting.values():
            for i, s in enumerate(w.seats):
                if s.account == account_id:
                    w.seats[i] = replace(s, name=DELETED_NAME, account=None)
                    hit = True
        if hit:
            self.changed()

    def guests_marked(self, marked: list[tuple[str, int, str]]) -> None:
        """Guests' seats renamed when an account took their name (``(table id, seat, new name)``, as stored) at the
        waiting tables too."""
        hit = False
        for tid, seat, name in marked:
            w = self.waiting.get(tid)
            if w is not None and w.seats[seat].account is None:
                w.seats[seat] = replace(w.seats[seat], name=name)
                hit = True
        if hit:
            self.changed()

    # ------------------------------------------------------------------ open, join, quick play
    async def open(self, req: LobbyRequest, account: int | None = None) -> Seated:
        """Open a public table (``req``: its rules, clock, computers' level and wait) with its opener in seat 0 (bound to
        ``account`` when logged in).

        Raises:
            TableRefused: rules refused; SQLAlchemyError: the table could not be stored."""
        try:
            rules = Rules.parse(req.rules or "9-5-2")
        except (RulesError, SergeantMajorError) as e:
            raise TableRefused("rules", f"{e}; nothing was changed") from None
        turn, reserve = parse_clock(req.clock_turn, req.clock_reserve)
        now = time.time()
        tid = secrets.token_urlsafe(6)
        chosen = (req.table_name or "").strip()  # none: the default name, "Ann's table", written by each page
        name = chosen or f"{req.name.strip()}'s table"[:60]
        row = TableRow(tid, name, str(rules), secrets.randbits(62), False, 60, now, True, turn, reserve, req.level,
                       now + req.wait, name_default=not chosen)
        seats = [SeatRow(i, req.name.strip() if i == 0 else FREE_NAME.format(n=i + 1), HUMAN, secrets.token_urlsafe(16), i == 0,
                         account if i == 0 else None) for i in range(rules.players)]
        await asyncio.to_thread(self.runner.store.create_table, row, seats)
        self.waiting[tid] = Waiting(row, seats)
        v = self.changed()
        self._schedule(tid)
        token = seats[0].token
        assert token is not None
        return Seated(tid, 0, token, v)

    async def join(self, req: LobbyRequest, table_id: str | None = None, account: int | None = None) -> Seated:
        """Take a free seat of a waiting table (``table_id``, else ``req.table``) under ``req.name`` (made unique at the
        table with a number: ``Ann 2``), bound to ``account`` when logged in; the computers then come no later than
        ``req.wait`` seconds from now.

        Raises:
            TableRefused: ``table`` (no such waiting table, or no seat free any more); SQLAlchemyError: not stored."""
        tid = table_id or req.table or ""
        if tid not in self.waiting and TABLE_ID_RE.match(tid):
            await self.refresh()  # opened through another process sharing the database
        w = self.waiting.get(tid)
        mine = self._held(w, account)
        if mine is not None:  # an account holds one seat of a table: pressed twice, it gets that seat back
            return mine
        if w is None or len(w.free()) <= w.joining:
            raise TableRefused("table", f"no table {quote(tid)} waits for players in the lobby (it started, or its seats "
                                        "were taken); nothing was changed")
        # counted at once (no await before): a quick play meanwhile looks for another table rather than queue for this one
        w.joining += 1
        try:
            async with self.runner.lock(tid):  # joins of one table one at a time (the names made unique among them)
                seat, stored = await self._claim(tid, w, req, account)
        finally:
            w.joining -= 1
        if self.waiting.get(tid) is w:
            if not w.free():
                self._done(tid)
            else:
                self._schedule(tid)
        v = self.changed()
        assert stored.token is not None
        return Seated(tid, seat, stored.token, v)

    def _held(self, w: Waiting | None, account: int | None) -> Seated | None:
        """The seat ``account`` holds already at the waiting table ``w`` (None: none, a guest, or no such table)."""
        if w is None or account is None:
            return None
        for i, s in enumerate(w.seats):
            if s.claimed and s.account == account and s.token is not None:
                return Seated(w.row.id, i, s.token, self.version)
        return None

    async def _claim(self, tid: str, w: Waiting, req: LobbyRequest, account: int | None) -> tuple[int, SeatRow]:
        """Take a free seat of ``w`` for ``req.name`` (its lock held); the players at the table are shown the new name.

        Raises:
            TableRefused: no seat is free any more; SQLAlchemyError: not stored."""
        taken = {s.name.casefold() for s in w.seats if s.claimed}  # letter case aside, as every check of a name
        name = base = req.name.strip()
        # "Ann 2" (a level's name, which numbered so would be a computer's, is refused as a person's name); a name
        # numbered already counts on ("Ann 2" taken: "Ann 3", not "Ann 2 2")
        counted = _NUMBERED.fullmatch(base)
        stem, k = (counted.group(1), int(counted.group(2)) + 1) if counted else (base, 2)
        while name.casefold() in taken:
            name, k = f"{stem[:34]} {k}", k + 1
        touched = []  # the seats whose rows were read anew: this one's, and any another process took meanwhile
        for seat in w.free():
            won, stored = await asyncio.to_thread(self.runner.store.claim_seat, tid, seat, name)
            if won and account is not None and await asyncio.to_thread(self.runner.store.bind_seat, tid, seat, account):
                stored = replace(stored, account=account)
            w.seats[seat] = stored
            touched.append(seat)
            if won:
                break
        else:
            raise TableRefused("table", f"the seats of table {quote(tid)} were all taken meanwhile; nothing was changed")
        fill_at = min(w.row.fill_at if w.row.fill_at is not None else float("inf"), time.time() + req.wait)
        if w.free() and fill_at != w.row.fill_at:
            await asyncio.to_thread(self.runner.store.set_fill, tid, w.row.fill_level or req.level, fill_at)
            w.row = replace(w.row, fill_at=fill_at, fill_level=w.row.fill_level or req.level)
        gt = await self.runner.loaded(tid)
        if gt is not None:
            for s in touched:
                gt.seats[s] = shown_seat(w.seats[s])
            gt.match.names = tuple(s.name for s in gt.seats)
            gt.row = replace(gt.row, fill_at=w.row.fill_at, fill_level=w.row.fill_level)
            await self.runner.clients.broadcast(gt)
        return seat, stored

    async def quick(self, req: LobbyRequest, account: int | None = None) -> Seated:
        """Quick play: a free seat at the oldest waiting table of the rules ``req.rules`` (a preset, maybe with options;
        the same rules as written by :class:`Rules`; the table's clock then), else a table opened with ``req``'s clock,
        computers and wait.

        Raises:
            TableRefused, SQLAlchemyError: as :meth:`open` and :meth:`join`."""
        try:
            rules = str(Rules.parse(req.rules or "9-5-2"))
        except (RulesError, SergeantMajorError) as e:
            raise TableRefused("rules", f"{e}; nothing was changed") from None
        for w in self.waiting.values():
            mine = self._held(w, account) if w.row.rules == rules else None
            if mine is not None:
                return mine
        for tid, w in list(self.waiting.items()):
            if w.row.rules == rules and len(w.free()) > w.joining:
                try:
                    return await self.join(req, tid, account)
                except TableRefused:
                    continue  # taken meanwhile: the next one, or a table of its own
        return await self.open(req, account)

    # ------------------------------------------------------------------ computers fill the free seats
    def _schedule(self, tid: str) -> None:
        old = self.fills.pop(tid, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        w = self.waiting.get(tid)
        if w is not None and w.row.fill_at is not None:
            self.fills[tid] = asyncio.get_running_loop().create_task(self._fill_at(tid, w.row.fill_at))

    def _done(self, tid: str) -> None:
        """The table waits no more (its seats are all taken): out of the lobby, its fill cancelled."""
        self.waiting.pop(tid, None)
        task = self.fills.pop(tid, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _fill_at(self, tid: str, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        if self.fills.get(tid) is asyncio.current_task():
            del self.fills[tid]
        try:
            await self.fill(tid)
        except SQLAlchemyError:
            await asyncio.sleep(2.0)  # the database refused: tried again
            self._schedule(tid)

    async def fill(self, tid: str) -> list[int]:
        """Computers of the table's level take its free seats now (named by level and seat: ``Heuristic 3``, which each
        page writes in its language: ``Heuristik 3``), its players are shown the table anew, and it leaves the lobby;
        the seats filled.

        Raises:
            SQLAlchemyError: when the database refuses (nothing is changed)."""
        w = self.waiting.get(tid)
        if w is None:
            return []
        level = w.row.fill_level or "heuristic"
        async with self.runner.lock(tid):
            taken = {s.name.casefold() for s in w.seats if s.claimed}
            names = {}
            for seat in w.free():
                name = computer_name(level, seat)  # stored in English: each page writes it in its language
                while name.casefold() in taken:
                    name += "'"
                names[seat] = name
                taken.add(name.casefold())
            filled = await asyncio.to_thread(self.runner.store.fill_seats, tid, level, names)
            gt = await self.runner.loaded(tid)
            for seat in filled:
                row = SeatRow(seat, names[seat], level, None, True)
                w.seats[seat] = row
                if gt is not None:
                    gt.seats[seat] = row
            if gt is not None:
                gt.match.names = tuple(s.name for s in gt.seats)
                gt.row = replace(gt.row, fill_at=None)
                await self.runner.advance(gt)
        self._done(tid)
        self.changed()
        return filled
