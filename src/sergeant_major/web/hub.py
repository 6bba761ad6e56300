"""The server's state and each client message handled: :class:`Hub` is the table runner
(:class:`~sergeant_major.web.runner.TableRunner`) that answers the websocket protocol's messages (join, act, start, undo,
hint, ping; see ``docs/web.md``).

A message is read and its shape checked by :mod:`.protocol`; what needs the table's state (the version, whose turn it
is, the rules) is checked here, with the table's lock held for every change. A refusal is an ``error`` message to its
sender only, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.safetext import normal_name
from sergeant_major.players import decision_rng
from sergeant_major.records import action_to_json
from sergeant_major.web.accounts import DELETED_NAME
from sergeant_major.web.chat import CHAT_BURST, CHAT_PHRASES, CHAT_WINDOW, chat_message, chat_phrase
from sergeant_major.web.connections import Conn
from sergeant_major.web.protocol import (
    PONG,
    JoinMessage,
    Refusal,
    client_message,
    error_message,
    hint_message,
    invitation_message,
    join_message,
    message_version,
    parse_action,
    quote,
)
from sergeant_major.web.runner import LogConflict, TableRunner
from sergeant_major.web.store import guest_base
from sergeant_major.web.tables import HUMAN, GameTable, person_name_refusal, shown_seat

__all__ = ["Hub"]


def _wrong_token(token: str) -> dict[str, Any]:
    """The refusal of a token that holds no seat at the table (``wrong_token``)."""
    # a token is a secret: it is not quoted back (it would end up wherever the messages are kept)
    return error_message("wrong_token", f"this token ({len(token)} characters) holds no seat at this table; you may watch "
                                        "as a spectator")


class Hub(TableRunner):
    """The server's state (the loaded tables, their clients, the server's own actions: :class:`TableRunner`) and the
    handling of each client message (:meth:`handle`).

    Args: as :class:`TableRunner`'s (``store``, ``delay``, ``retry_first``, ``retry_max``).
    """

    @property
    def conns(self) -> dict[str, list[Conn]]:
        """The clients of each table (:attr:`clients`)."""
        return self.clients.conns

    @property
    def last_seen(self) -> dict[tuple[str, int], float]:
        """When each ``(table id, seat)`` was last seen, epoch seconds (:attr:`clients`)."""
        return self.clients.last_seen

    def online(self, table_id: str) -> set[int]:
        """Seats with at least one connected client."""
        return self.clients.online(table_id)

    def drop(self, c: Conn) -> None:
        """Forget a client; remember when its seat was last seen."""
        self.clients.drop(c)

    def rename_deleted(self, gt: GameTable, account_id: int) -> None:
        """A deleted account's seats at a loaded table: named ``deleted player`` and bound to no account (as stored)."""
        for s in gt.seats:
            if s.account == account_id:
                gt.seats[s.seat] = replace(s, name=DELETED_NAME, account=None)
        gt.match.names = tuple(s.name for s in gt.seats)

    async def account_deleted(self, account_id: int, table_ids: list[str]) -> None:
        """A deleted account's seats (stored renamed at the tables ``table_ids``) renamed in their loaded copies too, also
        in one whose load was in flight (it may have read the seats before the deletion), each with its table's lock held
        (a join binding the seat meanwhile applies it before)."""
        for tid in table_ids:
            async with self.lock(tid):
                try:
                    gt = await self.loaded(tid)
                except SQLAlchemyError:
                    continue  # that load failed and installed nothing: the next one reads the new names
                if gt is not None:
                    self.rename_deleted(gt, account_id)

    async def guests_marked(self, marked: list[tuple[str, int, str]]) -> None:
        """Guests' seats renamed when an account took their name (``(table id, seat, new name)``, as stored) renamed in
        their loaded copies too, each with its table's lock held; their clients are shown the new names at once."""
        for tid in sorted({t for t, _, _ in marked}):
            async with self.lock(tid):
                try:
                    gt = await self.loaded(tid)
                except SQLAlchemyError:
                    continue  # that load failed and installed nothing: the next one reads the new names
                if gt is None:
                    continue
                for t, seat, name in marked:
                    if t == tid and gt.seats[seat].account is None:
                        gt.seats[seat] = shown_seat(replace(gt.seats[seat], name=name))
                gt.match.names = tuple(s.name for s in gt.seats)
                await self.clients.broadcast(gt)

    async def handle(self, c: Conn, text: str) -> None:
        """Handle one client message; every refusal is an ``error`` message to that client only."""
        try:
            msg = client_message(text)
        except Refusal as r:
            await self.clients.send(c, r.message)
            return
        kind = msg["type"]
        gt = await self.fetch(c.table)
        if gt is None:
            await self.clients.send(c, error_message("unknown_table", f"there is no table {c.table!r}"))
            return
        if kind == "join":
            try:
                join = join_message(msg)
            except Refusal as r:
                await self.clients.send(c, r.message)
                return
            await self._join(c, gt, join)
        elif kind == "invitation":
            try:
                token = invitation_message(msg).token
            except Refusal as r:
                await self.clients.send(c, r.message)
                return
            await self.clients.send(c, self._invitation(gt, token))
        elif kind == "ping":
            await self.clients.send(c, PONG)
        elif kind == "hint":
            await self._hint(c, gt)
        elif kind == "chat":
            await self._chat(c, gt, msg.get("id"))
        elif kind == "back":
            await self._back(c)
        elif kind in ("act", "start", "undo", "leave"):
            if not c.joined or c.seat is None:
                await self.clients.send(c, error_message("not_seated", "only a seated player may do that; join with your seat's token"))
                return
            try:
                v = message_version(msg)
            except Refusal as r:
                await self.clients.send(c, r.message)
                return
            async with self.lock(c.table):
                gt = await self._current(c)  # the table may have been replayed anew while this waited for the lock
                if gt is None:
                    return
                if v != gt.version:
                    await self.clients.send(c, error_message("stale", f"the table has moved on (version {gt.version}, your action "
                                                                      f"was made on {v}); nothing was changed"))
                    await self.clients.send_state(c, gt)
                    return
                try:
                    for _ in range(3):  # another process stored an entry first (an away, a back): checked anew on it
                        try:
                            if kind == "act":
                                ok = await self._act(c, gt, msg.get("action"))
                            elif kind == "leave":
                                ok = await self._leave(c, gt)
                            elif kind == "start":
                                ok = await self._start(c, gt)
                            else:
                                ok = await self._undo(c, gt)
                            break
                        except LogConflict:
                            if v != gt.version:  # the table has moved on at another process: refused as stale
                                await self.clients.send(c, error_message("stale", f"the table has moved on (version "
                                                                                  f"{gt.version}, your action was made on "
                                                                                  f"{v}); nothing was changed"))
                                await self.advance(gt)  # every client here is shown what the other process stored
                                return
                    else:
                        raise LogConflict("the table kept changing at other processes")
                except Refusal as r:
                    await self.clients.send(c, r.message)
                    return
                except SQLAlchemyError as e:
                    self.reload(c.table, gt)  # replayed from the database on next use
                    await self.clients.send(c, error_message("storage", f"the action could not be stored ({type(e).__name__}); "
                                                                        "nothing was changed"))
                    return
                if ok:
                    await self.advance(gt)
        else:
            await self.clients.send(c, error_message("bad_message", f"unknown message type {kind[:40]!r} "
                                                                    "(join, invitation, act, start, undo, hint, ping, chat, leave, back)"))

    async def _current(self, c: Conn) -> GameTable | None:
        """The loaded copy of ``c``'s table (replayed from the store when it was forgotten), or ``None`` after telling ``c``
        there is no such table. Call with the table's lock held: a copy taken before waiting for it may be forgotten."""
        gt = await self.fetch(c.table)
        if gt is None:
            await self.clients.send(c, error_message("unknown_table", f"there is no table {c.table!r}"))
        return gt

    @staticmethod
    def _invitation(gt: GameTable, token: str) -> dict[str, Any]:
        """The answer to an ``invitation``: the seat its token holds, the table as a spectator sees it and the other seats
        taken already (``joined``, from 0: who invited), or ``wrong_token`` as a join with it would say (at once, before the
        page asks its person for a name); nothing joined or changed."""
        seat = gt.seat_of_token(token)
        if seat is None:
            return _wrong_token(token)
        joined = [s.seat for s in gt.seats if s.kind == HUMAN and s.claimed and s.seat != seat]
        return {"type": "invitation", "seat": seat, "table": gt.state_message(None, set())["table"], "joined": joined}

    async def _join(self, c: Conn, gt: GameTable, msg: JoinMessage) -> None:
        """A ``join``: as a spectator (no token), or taking the token's seat (named ``msg.name`` at its first join)."""
        token, name = msg.token, msg.name
        if token and (gone := gt.seat_of_token(token)) is not None and gone in gt.left:
            token = None  # a seat left is the computer's to the end of the match: its person watches
        if token is None or token == "":
            left = c.seat
            if left is not None:  # the seat left is last seen now
                self.clients.drop(c)
                self.clients.add(c)
            c.seat = None
            c.joined = True  # from now on shown every stored change, also those of a run of computers going on
            async with self.lock(c.table):  # never a state that is not stored yet
                cur = await self._current(c)  # the table may have been replayed anew while this waited for the lock
                if cur is None:
                    return
                if left is None:
                    await self.clients.send_state(c, cur)
                await self._arrived(c.table)
                # due actions (after a restart; a table of computers only starts here); a seat left: the others see it offline
                await self.advance(cur, always_broadcast=left is not None)
            return
        seat = gt.seat_of_token(token)
        if seat is None:
            await self.clients.send(c, _wrong_token(token))
            return
        async with self.lock(c.table):
            cur = await self._current(c)  # the table may have been replayed anew while this waited for the lock (a run failed)
            if cur is None:
                return
            gt = cur
            # the one form stored and shown: no invisible or fullwidth character passes for another's name
            clean = normal_name(name) or None if name is not None and not gt.match.over else None
            # refused before the seat is taken and named: the others would take him for a computer, or another player
            try:
                like = None if clean is None or name is None or gt.seats[seat].claimed else person_name_refusal(
                    "the name", name, await asyncio.to_thread(self.store.account_named, clean), c.account)
            except SQLAlchemyError as e:  # the accounts could not be read: the seat is not taken under an unchecked name
                like = ("storage", f"the name {quote(clean)} could not be checked against the accounts ({type(e).__name__})")
            if like is not None:
                await self.clients.send(c, error_message(like[0], f"{like[1]} (nothing was changed)"))
                return
            if clean is not None:
                taken = [o for o in gt.seats if o.seat != seat and o.name.casefold() == clean.casefold()]
                if taken:  # refused whole, before the seat is taken: two seats of one name are told apart nowhere
                    await self.clients.send(c, error_message("name_taken", f"the name {quote(clean[:60])} is already seat "
                                                                           f"{taken[0].seat + 1}'s ({quote(taken[0].name)}) at "
                                                                           "this table; choose another (nothing was changed)"))
                    return
            row = gt.seats[seat]
            if not row.claimed:
                # the seat's first join takes it in one conditional UPDATE (stored in a worker thread, as every write,
                # before it is applied and shown): of two joins of one invitation at once, also on two servers, one wins
                try:
                    won, stored = await asyncio.to_thread(self.store.claim_seat, gt.row.id, seat, clean)
                except SQLAlchemyError as e:  # seated under the name stored, the seat not taken yet; told, not silently
                    if clean is not None and clean != row.name:
                        await self.clients.send(c, error_message("storage_name", f"the name {quote(clean)} could not be stored "
                                                                                 f"({type(e).__name__}); you play as "
                                                                                 f"{quote(row.name)}"))
                else:
                    gt.seats[seat] = row = shown_seat(stored)
                    gt.match.names = tuple(s.name for s in gt.seats)
                    if won:
                        clean = None  # named as asked
            if row.claimed and clean is not None and clean.casefold() != row.name.casefold():
                # taken already by another join of this token (the first one wins): this one changes nothing
                await self.clients.send(c, error_message("seat_claimed", f"seat {seat + 1} was taken already with this invitation "
                                                                         f"by {quote(row.name)}; your join as "
                                                                         f"{quote(clean[:60])} is refused: if that is you, join "
                                                                         "with that name; you may watch as a spectator (nothing "
                                                                         "was changed)"))
                return
            if c.account is not None and row.account is None and row.kind == HUMAN and not gt.match.over:
                # a logged-in player's seat follows the account (history on any device, ratings); one seat per account
                try:
                    if await asyncio.to_thread(self.store.bind_seat, gt.row.id, seat, c.account):
                        gt.seats[seat] = row = replace(row, account=c.account)
                        if guest_base(row.name) is not None:  # the account's own name again (Ann (guest) bound to Ann)
                            stored = (await asyncio.to_thread(self.store.seats, gt.row.id))[seat]
                            gt.seats[seat] = row = shown_seat(replace(row, name=stored.name))
                            gt.match.names = tuple(s.name for s in gt.seats)
                except SQLAlchemyError:
                    pass  # played as a guest's seat: nothing else changes
            if c.seat is not None and c.seat != seat:  # another seat taken on this connection: the one left is last seen now
                self.clients.last_seen[(c.table, c.seat)] = time.time()
            c.seat = seat
            c.joined = True
            await self._arrived(c.table)
            if seat in gt.away:
                try:
                    await self.append(gt, "back", seat, {})
                except LogConflict:  # read what another process stored: back only if still away
                    if seat in gt.away:
                        with contextlib.suppress(SQLAlchemyError):
                            await self.append(gt, "back", seat, {})
                except SQLAlchemyError:
                    pass
            await self.advance(gt)

    async def _arrived(self, table_id: str) -> None:
        """Many processes: a client joined the table here: the other processes learn who is online, and this process takes
        the table's lease when it is free (its computers then play here). Call with the table's lock held."""
        if self.holder is None:
            return
        await self.share_presence(table_id)
        if not self.in_charge(table_id):
            await self.take_lease(table_id)

    async def _act(self, c: Conn, gt: GameTable, raw: object) -> bool:
        """An ``act`` (``raw``: its ``"action"``) on the current version: stored when the rules allow it, else refused.

        Raises:
            Refusal: the action is malformed or not allowed now; SQLAlchemyError: it could not be stored.
        """
        assert c.seat is not None
        action = parse_action(raw, c.seat, gt.rules)
        m = gt.match
        if c.seat in gt.left:
            raise Refusal("left", f"you left this match: a computer plays seat {c.seat + 1} to the end; {quote(raw)} was not taken")
        if m.over:
            raise Refusal("over", f"the match is over: {quote(raw)} was not taken")
        if gt.waiting_start:
            raise Refusal("not_started", f"deal {m.deal.number} has not started yet: {quote(raw)} was not taken")
        if m.to_act != c.seat or m.publicly_forced_action() is not None:
            who = "" if m.to_act is None else f" (seat {m.to_act + 1}, {quote(gt.seats[m.to_act].name)}, is to act)"
            raise Refusal("turn", f"it is not your turn{who}: {quote(raw)} was not taken")
        try:
            m.deal.verify(action)
        except IllegalActionError as e:
            raise Refusal("illegal", f"{e} [rule: {e.rule}]") from None
        await self.append(gt, "act", c.seat, {"action": action_to_json(action), "by": HUMAN}, clock=self.clocks.decided(gt, c.seat))
        return True

    async def _leave(self, c: Conn, gt: GameTable) -> bool:
        """A ``leave``: the sender's seat is played by a computer to the end of the match (a ``left`` entry); the leaver
        ranks last (:func:`~sergeant_major.web.tables.final_ranking`) and watches from now on.

        Raises:
            Refusal: the match is over, or the seat was left already; SQLAlchemyError: it could not be stored."""
        assert c.seat is not None
        if gt.match.over:
            raise Refusal("over", "the match is over: there is nothing to leave")
        if c.seat in gt.left:
            raise Refusal("left", f"you left this match already (seat {c.seat + 1}); nothing was changed")
        await self.append(gt, "left", c.seat, {})
        self.clients.last_seen[(c.table, c.seat)] = time.time()
        c.seat = None  # from now on shown the table as a spectator
        return True

    async def _back(self, c: Conn) -> None:
        """A ``back``: the seat a computer holds (the turn clock ran out three times, or the player was away) is the
        sender's again."""
        async with self.lock(c.table):
            gt = await self._current(c)
            if gt is None:
                return
            if c.seat is None or c.seat not in gt.away or c.seat in gt.left:
                await self.clients.send(c, error_message("not_away", "no computer holds your seat (only a seated player whose "
                                                                     "seat a computer holds can take it back); nothing was changed"))
                return
            try:
                await self.append(gt, "back", c.seat, {})
            except SQLAlchemyError as e:
                self.reload(c.table, gt)
                await self.clients.send(c, error_message("storage", f"the seat could not be taken back ({type(e).__name__}); "
                                                                    "nothing was changed"))
                return
            await self.advance(gt)

    async def _chat(self, c: Conn, gt: GameTable, raw: object) -> None:
        """A ``chat``: a quick-chat phrase of a seated player, shown to everyone at the table (players and spectators)."""
        try:
            phrase = chat_phrase(raw)
        except Refusal as r:
            await self.clients.send(c, r.message)
            return
        if not c.joined or c.seat is None:
            await self.clients.send(c, error_message("not_seated", f"only a seated player may chat; {quote(raw)} was not sent"))
            return
        if not c.chat.allow():
            # the phrase as the player saw it (its id is for the page: ``id``, written in its language)
            await self.clients.send(c, error_message("chat_flood", f"at most {CHAT_BURST} phrases in {CHAT_WINDOW:g} s; "
                                                                   f"{quote(CHAT_PHRASES[phrase])} was not sent") | {"id": phrase})
            return
        await self.clients.tell_joined(c.table, chat_message(c.seat, gt.seats[c.seat].name, phrase))

    async def _start(self, c: Conn, gt: GameTable) -> bool:
        """A ``start`` of the deal waiting (deal 1 only once every person's seat is taken).

        Raises:
            Refusal: no deal waits, or deal 1 waits for a player; SQLAlchemyError: it could not be stored.
        """
        if gt.match.over:
            raise Refusal("over", "the match is over: no deal is left to start")
        if not gt.waiting_start:
            raise Refusal("not_waiting", "no deal is waiting to be started")
        if gt.released == 0:  # the first deal waits until every person's seat is taken (not the next deals: stand-ins)
            online = self.clients.online(gt.row.id)
            empty = [s for s in gt.seats if s.kind == HUMAN and s.seat not in online and s.seat not in gt.left]
            if gt.row.public:  # a lobby table waits for its free seats only: one who took a seat and went is stood in for
                empty = [s for s in empty if not s.claimed]
            if empty:
                who = ", ".join(f"seat {s.seat + 1} ({quote(s.name)})" for s in empty)
                raise Refusal("empty_seat", f"deal 1 starts once every player is at the table: nobody holds {who} "
                                            "yet (an invited friend has not joined); nothing was changed")
        await self.append(gt, "start", c.seat, {"deal": gt.match.deal.number})
        return True

    async def _undo(self, c: Conn, gt: GameTable) -> bool:
        """A practice table's ``undo`` of the sender's last card.

        Raises:
            Refusal: nothing to undo; SQLAlchemyError: it could not be stored.
        """
        assert c.seat is not None
        n = gt.undo_count(c.seat)
        if n == 0:
            raise Refusal("no_undo", "nothing to undo (practice tables only, your cards of this deal)")
        await self.append(gt, "undo", c.seat, {"n": n})
        return True

    async def _hint(self, c: Conn, gt: GameTable) -> None:
        """A practice table's ``hint``: the ``expert``'s choice on the sender's turn (searched in a thread: tens of
        milliseconds, so the other tables go on meanwhile)."""
        from sergeant_major.players.expert import ExpertPlayer  # loads the search: only when a hint is asked

        m = gt.match
        if c.seat is None or not gt.row.practice or m.over or m.to_act != c.seat or gt.waiting_start:
            await self.clients.send(c, error_message("no_hint", "hints are for your own turn at a practice table"))
            return
        deal = m.deal
        version = gt.version
        view = m.view(c.seat)
        a = await asyncio.to_thread(ExpertPlayer().choose, view,
                                    decision_rng(m.seed, c.seat, deal.number, len(deal.history)))
        await self.clients.send(c, hint_message(version, a))
