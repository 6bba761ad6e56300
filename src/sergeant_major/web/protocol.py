"""The messages between the browser and the server (see ``docs/web.md``): the limits, reading a client's JSON, the
client messages' shapes (pydantic models), the checks of an action and of a new table, and the refusals.

Every refusal is an ``error`` message (:func:`error_message`) whose ``code`` the page writes in its language and whose
``reason`` (English) quotes the bad input (:func:`quote`); a refused message changes nothing. The checks here need no
table's state: those that do (the version, the turn, the rules) are made by :class:`~sergeant_major.web.hub.Hub`.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from sergeant_major.core.actions import Action, Contract
from sergeant_major.core.errors import RecordError, RulesError, SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import name_problem, normal_name, visible
from sergeant_major.core.seeding import SEED_LIMIT, SEED_RANGE
from sergeant_major.players import LEVELS
from sergeant_major.records import action_from_json, action_to_json
from sergeant_major.web.store import SeatRow, TableRow
from sergeant_major.web.tables import HUMAN, computer_name, person_name_refusal

__all__ = ["MAX_MESSAGE", "MAX_DEPTH", "MAX_BODY", "TABLE_ID_RE", "Refusal", "TableRefused", "NewTable", "NewTableRequest", "SeatRequest",
           "ClientMessage", "JoinMessage", "InvitationMessage", "ActMessage", "StartMessage", "UndoMessage", "HintMessage", "PingMessage",
           "ChatMessage", "LeaveMessage", "BackMessage",
           "error_message", "quote", "read_json", "not_json_reason", "name_refusal", "client_message", "join_message", "invitation_message",
           "message_version", "parse_action", "parse_new_table", "new_table_json", "hint_message", "PONG",
           "HistoryRequest", "history_tokens"]

MAX_MESSAGE = 4096  # characters in one websocket message from a client
MAX_DEPTH = 32  # arrays and objects nested in a client's JSON (a message needs 3)
MAX_BODY = 64 * 1024  # bytes in an HTTP request body (the 500 tokens /api/history reads take about 13 KB)
TABLE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
_CONTRACT_CODES = tuple(c.code for c in Contract)  # C D H S NT MT
PONG: dict[str, Any] = {"type": "pong"}


class Refusal(Exception):
    """A client's message refused: ``code`` and ``reason`` (English, quoting the bad input) of its ``error`` message."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    @property
    def message(self) -> dict[str, Any]:
        """The ``error`` message that tells the sender."""
        return error_message(self.code, self.reason)


def error_message(code: str, reason: str) -> dict[str, Any]:
    """An ``error`` message: ``code`` for the page to write it in its language, ``reason`` in English."""
    return {"type": "error", "code": code, "reason": reason}


def hint_message(version: int, action: Action) -> dict[str, Any]:
    """The ``hint`` message: the expert's choice at state version ``version``."""
    return {"type": "hint", "v": version, "action": action_to_json(action)}


def quote(v: Any) -> str:
    """``v`` as JSON for a refusal to quote it: control characters escaped (:func:`visible`), cut to 80 characters."""
    try:
        text = visible(json.dumps(v, ensure_ascii=False))
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def read_json(text: str | bytes) -> Any:
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


def not_json_reason(e: ValueError) -> str:
    """What :func:`read_json`'s ``e`` adds to "not JSON": nothing for text that does not parse, else `` (why)``."""
    return "" if isinstance(e, json.JSONDecodeError) else f" ({e})"


def name_refusal(what: str, name: str) -> str | None:
    """The refusal of a name (a seat's or the table's) as typed, quoting it with ``repr``: holding control characters
    (:func:`~sergeant_major.core.safetext.name_problem`), or of nothing visible but spaces once normalised
    (:func:`~sergeant_major.core.safetext.normal_name`: only zero-width characters, say); ``None`` when the name may be
    used, as ``normal_name`` gives it (a name of spaces alone is the caller's to refuse or replace)."""
    why = name_problem(name)
    if why is None and name.strip() and not normal_name(name):
        why = "it has no visible character"
    elif why is None and len(normal_name(name)) > 60:
        why = f"it is {len(normal_name(name))} characters long once normalised (at most 60)"
    return None if why is None else f"{what} {name[:60]!r} is refused: {why}; a name is plain text"


def _secret_hidden(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` to be quoted back, a text ``"token"`` (a seat's secret) replaced by its length: a token is never quoted
    (a refusal ends up wherever the messages are kept, as a wrong token's does not)."""
    token = msg.get("token")
    return {**msg, "token": f"<a token of {len(token)} characters>"} if isinstance(token, str) and token else msg


def _article(word: str) -> str:
    """``an`` before a vowel (an act message), else ``a`` (a join message)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


# ---------------------------------------------------------------------------------------------- client messages
class ClientMessage(BaseModel):
    """A message from a browser: a JSON object with a ``"type"`` and only the fields of its type (strict types: a
    number is never taken for a text, nor ``true`` for 1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class JoinMessage(ClientMessage):
    """``join``: take the seat of ``token`` (``None`` or ``""``: watch as a spectator), optionally named ``name``."""

    type: Literal["join"]
    name: str | None = Field(default=None, max_length=40)  # checked before the token: also in a spectator's join
    token: str | None = None

    @field_validator("name")
    @classmethod
    def _plain_text(cls, name: str | None) -> str | None:
        return _refused_name("the name", name)


class InvitationMessage(ClientMessage):
    """``invitation``: whether ``token`` (an invitation link's) holds a seat at this table, asked before its person is
    asked for a name; answered ``{"type": "invitation", "seat"}`` or ``wrong_token``, nothing joined or changed."""

    type: Literal["invitation"]
    token: str


class ActMessage(ClientMessage):
    """``act``: ``action`` (record format; checked with the table's rules, :func:`parse_action`) made on version ``v``."""

    type: Literal["act"]
    v: int
    action: Any = None


class StartMessage(ClientMessage):
    """``start``: start the deal waiting, on version ``v``."""

    type: Literal["start"]
    v: int


class UndoMessage(ClientMessage):
    """``undo``: practice: take back the sender's last card, on version ``v``."""

    type: Literal["undo"]
    v: int


class HintMessage(ClientMessage):
    """``hint``: practice: the expert's choice on the sender's turn."""

    type: Literal["hint"]


class ChatMessage(ClientMessage):
    """``chat``: a quick-chat phrase by its ``id`` (:data:`~sergeant_major.web.lobby.CHAT_PHRASES`), shown to the table."""

    type: Literal["chat"]
    id: Any = None


class LeaveMessage(ClientMessage):
    """``leave``: leave the match before its end, on version ``v`` (a computer plays the seat to the end)."""

    type: Literal["leave"]
    v: int


class BackMessage(ClientMessage):
    """``back``: take the seat back from the computer that holds it (after the turn clock ran out three times)."""

    type: Literal["back"]


class PingMessage(ClientMessage):
    """``ping``: answered with ``pong``."""

    type: Literal["ping"]


_MESSAGES: dict[str, type[ClientMessage]] = {"join": JoinMessage, "invitation": InvitationMessage, "act": ActMessage, "start": StartMessage,
                                              "undo": UndoMessage, "hint": HintMessage, "ping": PingMessage,
                                              "chat": ChatMessage, "leave": LeaveMessage, "back": BackMessage}


def client_message(text: str) -> dict[str, Any]:
    """A client's websocket message read: a JSON object with a text ``"type"`` and no field its type does not have (any
    other, a ``"seat"`` naming whom an action is for..., is refused). Its fields are checked where the table's state
    decides what they mean (:func:`join_message`, :func:`message_version`, :func:`parse_action`); an unknown type is
    let through here (refused once the table is known).

    Raises:
        Refusal: ``too_large`` (over :data:`MAX_MESSAGE` characters), ``bad_json``, ``bad_message``.
    """
    if len(text) > MAX_MESSAGE:
        raise Refusal("too_large", f"message of {len(text)} characters refused (at most {MAX_MESSAGE})")
    try:
        msg = read_json(text)
    except ValueError as e:
        raise Refusal("bad_json", f"not JSON{not_json_reason(e)}: {text[:60]!r}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refusal("bad_message", f"a message is an object with a \"type\", not {quote(msg)}")
    kind = msg["type"]
    model = _MESSAGES.get(kind)
    if model is not None:
        fields = set(model.model_fields)
        extra = sorted(str(k) for k in set(msg) - fields)
        if extra:
            raise Refusal("bad_message", f"unknown field(s) {', '.join(extra)[:60]} in {_article(kind)} {kind} message "
                                         f"(it has {', '.join(sorted(fields))}): {quote(_secret_hidden(msg))}; "
                                         "nothing was changed")
    return msg


def _first_error(e: ValidationError) -> tuple[str, str]:
    """The field of ``e``'s first error (the fields are checked in the model's order) and that error's type."""
    first = e.errors()[0]
    return str(first["loc"][0]) if first["loc"] else "", first["type"]


def join_message(msg: dict[str, Any]) -> JoinMessage:
    """A ``join`` message (:func:`client_message`'s answer) checked: the name first, then the token.

    Raises:
        Refusal: ``bad_message`` for a name that is not a text of at most 40 characters or holds control characters,
            or a token that is neither a text nor ``null``.
    """
    try:
        return JoinMessage.model_validate(msg)
    except ValidationError as e:
        field, kind = _first_error(e)
        if field == "name" and kind == "name_refused":
            refused = name_refusal("the name", msg["name"])
            raise Refusal("bad_message", f"{refused}; nothing was changed") from None
        if field == "name":
            raise Refusal("bad_message", f"\"name\" must be text of at most 40 characters, not {quote(msg.get('name'))}; "
                                         "nothing was changed") from None
        raise Refusal("bad_message", f"\"token\" must be text (the seat's token) or null, not {quote(msg.get('token'))}; "
                                     "nothing was changed") from None


def invitation_message(msg: dict[str, Any]) -> InvitationMessage:
    """An ``invitation`` message (:func:`client_message`'s answer) checked.

    Raises:
        Refusal: ``bad_message`` for a token that is not a text (quoted: no seat's token is anything else).
    """
    try:
        return InvitationMessage.model_validate(msg)
    except ValidationError:
        raise Refusal("bad_message", f"\"token\" must be text (an invitation's token), not {quote(msg.get('token'))}; "
                                     "nothing was changed") from None


def message_version(msg: dict[str, Any]) -> int:
    """The state version ``v`` an ``act``, ``start`` or ``undo`` message (:func:`client_message`'s answer) was made on.

    Raises:
        Refusal: ``bad_message`` when ``v`` is missing or not an integer (``true`` is not 1).
    """
    model = _MESSAGES[msg["type"]]
    try:
        checked = model.model_validate(msg)
    except ValidationError:
        raise Refusal("bad_message", "\"v\" (the state version the action was made on) must be an integer, "
                                     f"not {quote(msg.get('v'))}") from None
    assert isinstance(checked, (ActMessage, StartMessage, UndoMessage, LeaveMessage))
    return checked.v


def parse_action(raw: Any, seat: int, rules: Rules) -> Action:
    """The action of an ``act`` message (``raw``: its ``"action"``) for ``seat``, in the record format of the table's
    ``rules`` (not yet checked against the state: that is the rules' :meth:`Deal.verify`). A ``"seat"`` in it, copied
    from the state's ``"legal"`` list, must be the sender's own.

    Raises:
        Refusal: ``bad_action`` quoting ``raw``.
    """
    if not isinstance(raw, dict):
        raise Refusal("bad_action", f"\"action\" must be an object like {{\"play\": \"QS\"}}, not {quote(raw)}")
    said = raw.get("seat", seat)
    if not isinstance(said, int) or isinstance(said, bool) or said != seat:
        raise Refusal("bad_action", f"the action's seat {quote(said)} is not yours (your token holds seat {seat}; "
                                    f"\"seat\" may be left out): {quote(raw)}; nothing was changed")
    data = dict(raw)
    data["seat"] = seat
    try:
        action = action_from_json(data, rules.players, "action")
    except RecordError as e:
        why = str(e)
        if e.where == "action.contract":
            # the record's message lists every contract; this table may offer the four suits only (9-5-2)
            codes = _CONTRACT_CODES if rules.has_nt_mt else _CONTRACT_CODES[:4]
            why = f"action.contract: {quote(raw['contract'])} is not a contract of this table (one of {', '.join(codes)})"
        raise Refusal("bad_action", f"{why} ({quote(raw)})") from None
    extra = sorted(str(k) for k in set(data) - set(action_to_json(action)))
    if extra:
        raise Refusal("bad_action", f"unknown field(s) {', '.join(extra)[:60]} in the action {quote(raw)}")
    return action


# ---------------------------------------------------------------------------------------------- a new table (HTTP)
class TableRefused(ValueError):
    """A table not made: the message for the user (English, quoting the bad input) and its ``code`` (``body``, ``rules``,
    ``table_name``, ``seats``, ``seat_name``, ``seat_name_taken``, ``computer_name``, ``free_seat_name``,
    ``mixed_script_name``, ``account_name``, ``timeout``, ``seed``) with the seat (from 1) a seat's refusal is of, for the
    page to write it in its language."""

    def __init__(self, code: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.seat = seat


@dataclass(frozen=True)
class NewTable:
    """A table to store, made from the home page's form: its row, its seats, and the seats that are the creator's
    (``me``: their tokens are his) and the invited friends' (``friend``: an invitation link each)."""

    row: TableRow
    seats: list[SeatRow]
    mine: frozenset[int]
    invited: frozenset[int]


def _refused_name(what: str, name: str | None) -> str | None:
    """A name refused (:func:`name_refusal`) as a pydantic error (``name_refused``, the refusal its message), else the
    name as typed (stored as :func:`~sergeant_major.core.safetext.normal_name` makes it; refusals quote it as typed)."""
    refused = None if name is None else name_refusal(what, name)
    if refused is not None:
        raise PydanticCustomError("name_refused", "{refused}", {"refused": refused})
    return name


class SeatRequest(BaseModel):
    """One seat of a new table: ``me`` (the creator's), ``friend`` (an invitation) or a ``computer`` of a ``level``
    (:data:`~sergeant_major.players.LEVELS`; a person's seat ignores it), and its name (the default: ``Me``,
    ``Friend 1``, ``Heuristic 2``...)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str | None = Field(default=None, max_length=40)
    kind: Literal["me", "friend", "computer"]
    level: Any = "heuristic"

    @field_validator("name")
    @classmethod
    def _plain_text(cls, name: str | None) -> str | None:
        return _refused_name("the name", name)

    @model_validator(mode="after")
    def _known_level(self) -> SeatRequest:
        if self.kind == "computer" and not (isinstance(self.level, str) and self.level in LEVELS):
            raise PydanticCustomError("unknown_level", "unknown computer level")
        return self


class NewTableRequest(BaseModel):
    """``POST /api/tables``'s body: the home page's form (the seats are checked one by one, :class:`SeatRequest`, once
    their number is known from the rules)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    rules: str = Field(default="9-5-2", max_length=300)
    name: str | None = Field(default=None, max_length=60)
    seats: list[Any] | None = None
    away_timeout: int = Field(default=60, ge=-1, le=86400)  # seconds; -1: never
    seed: int | None = Field(default=None, ge=0, lt=SEED_LIMIT)

    @field_validator("name")
    @classmethod
    def _plain_text(cls, name: str | None) -> str | None:
        return _refused_name("the table name", name)


def _field_errors(model: type[BaseModel], data: dict[str, Any]) -> dict[str, str]:
    """The fields of ``data`` that ``model`` refuses, each with its first error's type (``extra_forbidden``: a field the
    model does not have); ``""`` for an error of the whole (a model validator's)."""
    try:
        model.model_validate(data)
    except ValidationError as e:
        out: dict[str, str] = {}
        for err in e.errors():
            out.setdefault(str(err["loc"][0]) if err["loc"] else "", err["type"])
        return out
    return {}


def _extra_fields(errors: dict[str, str]) -> str:
    """The fields :func:`_field_errors` found that the model does not have, sorted and joined (``""``: none)."""
    return ", ".join(sorted(k for k, kind in errors.items() if kind == "extra_forbidden"))


def parse_new_table(body: Any, creator: str | None = None, account: int | None = None,
                    holder: Callable[[str], int | None] | None = None) -> NewTable:
    """The table the home page's form asks for (``POST /api/tables``; ``body``: :class:`NewTableRequest`'s shape): a
    new id, a token per person's seat and a random seed (or the one chosen, at a table of its creator alone against
    computers). The fields are refused in the order the page shows them: the rules, the name, the seats' number, the
    timeout, the seed, then each seat. ``creator``: the logged-in creator's account name, the default name of the first
    *me* seat (else ``Me``); ``account``: the creator's account id, the one account whose name that seat may have;
    ``holder``: the id of the account a name is (the store's :meth:`~.store.Store.account_named`; ``None``: no accounts).

    Raises:
        TableRefused: with its code and a message for the user quoting the bad input.
    """
    if not isinstance(body, dict):
        raise TableRefused("body", "the request body must be a JSON object")
    bad = _field_errors(NewTableRequest, body)
    extra = _extra_fields(bad)
    if extra:  # a misspelt field ("away_timout") must not leave its default in place unnoticed
        raise TableRefused("body", f"unknown field(s) {extra[:60]} (a table has name, rules, seats, away_timeout, seed)")
    if "rules" in bad:
        raise TableRefused("rules", f"rules must be a short text like \"9-5-2 to=20\", not {quote(body.get('rules'))}")
    try:
        rules = Rules.parse(body.get("rules") or "9-5-2")
    except (RulesError, SergeantMajorError) as e:
        raise TableRefused("rules", str(e)) from None
    if bad.get("name") == "name_refused":
        raise TableRefused("table_name", str(name_refusal("the table name", body["name"])))
    if "name" in bad:
        raise TableRefused("table_name", f"the table name must be text of at most 60 characters, not {quote(body['name'])}")
    seats_in = body.get("seats")
    n = rules.players
    if not isinstance(seats_in, list) or len(seats_in) != n:
        raise TableRefused("seats", f"seats must be a list of {n} seats (the rules {str(rules)!r} have {n} players)")
    if "away_timeout" in bad:
        raise TableRefused("timeout", f"away_timeout is seconds 0..86400, or -1 for never, not {quote(body['away_timeout'])}")
    if "seed" in bad:
        raise TableRefused("seed", f"seed must be {SEED_RANGE}, not {quote(body['seed'])}")
    request = NewTableRequest.model_validate(body)
    seats_asked: list[SeatRequest] = []
    for i, s in enumerate(seats_in):
        # the first "me" seat alone is bound to the creator's account (app.create_table): it alone may bear its name
        first_me = isinstance(s, dict) and s.get("kind") == "me" and not any(a.kind == "me" for a in seats_asked)
        seats_asked.append(_seat_request(i, s, holder, account if first_me else None))
    tid = secrets.token_urlsafe(6)
    seats: list[SeatRow] = []
    mine: set[int] = set()
    invited: set[int] = set()
    for i, s in enumerate(seats_asked):
        if s.kind == "me":
            mine.add(i)
            # the others see this name: a logged-in creator's seat is the account's, under its name as in the lobby;
            # two unnamed "me" seats may not share a name
            default = creator if creator and len(mine) == 1 else "Me" if len(mine) == 1 else f"Me {len(mine)}"
        elif s.kind == "friend":
            invited.add(i)
            default = f"Friend {len(invited)}"
        else:
            default = computer_name(s.level, i)
        token = None if s.kind == "computer" else secrets.token_urlsafe(16)
        seats.append(SeatRow(i, normal_name(s.name or default) or default, str(s.level) if token is None else HUMAN, token))
    # two seats of one name would be told apart nowhere (the score sheet, the record, the end reason)
    for j, sj in enumerate(seats):
        for i in range(j):
            if seats[i].name.casefold() == sj.name.casefold():
                raise TableRefused("seat_name_taken", f"seat {j + 1}: the name {sj.name[:60]!r} is seat {i + 1}'s already; "
                                   "give each seat a name of its own", j + 1)
    # practice (undo, hints): one person at most; two "me" seats are two people once a token is passed on
    practice = sum(1 for s in seats if s.kind == HUMAN) <= 1
    chosen = request.seed
    if chosen is not None and (invited or not practice):
        # every card of the match follows from the seed: whoever chose it knows the others' hands and the kitty; so
        # only a table of its creator alone against computers takes one (two "me" seats: a token is passed on)
        raise TableRefused("seed", f"seed {quote(chosen)}: a chosen seed would let its chooser work out the others' cards; "
                           "tables with invited players deal from a random seed (leave \"seed\" out)")
    # every card of the match follows from the seed: too few bits and a player finds it from his hand
    seed = secrets.randbits(62) if chosen is None else chosen
    named = normal_name(request.name or "")  # none (or nothing visible): the default name, written by each page
    row = TableRow(tid, named or "Table", str(rules), seed, practice, request.away_timeout, time.time(), name_default=not named)
    return NewTable(row, seats, frozenset(mine), frozenset(invited))


def _seat_request(i: int, s: Any, holder: Callable[[str], int | None] | None = None, me: int | None = None) -> SeatRequest:
    """Seat ``i`` (from 0) of a new table checked (``s``: its JSON): its shape, then its name, its kind, its level, and a
    person's name not written as a computer's.

    Raises:
        TableRefused: ``seats``, or ``seat_name`` or ``computer_name`` with the seat (from 1), quoting the bad input.
    """
    if not isinstance(s, dict):
        raise TableRefused("seats", f"seat {i + 1} must be an object like {{\"kind\": \"me\", \"name\": \"Ann\"}}")
    bad = _field_errors(SeatRequest, s)
    extra = _extra_fields(bad)
    if extra:
        raise TableRefused("seats", f"seat {i + 1}: unknown field(s) {extra[:60]} (a seat has kind, level, name)")
    if bad.get("name") == "name_refused":
        raise TableRefused("seat_name", str(name_refusal(f"seat {i + 1}: the name", s["name"])), i + 1)
    if "name" in bad:
        raise TableRefused("seat_name", f"seat {i + 1}: a name is a text of at most 40 characters, not {quote(s['name'])}", i + 1)
    if "kind" in bad:
        raise TableRefused("seats", f"seat {i + 1}: kind must be \"me\", \"friend\" or \"computer\", not {quote(s.get('kind'))}")
    if bad:  # the level of a computer (a model validator's error)
        raise TableRefused("seats", f"seat {i + 1}: unknown computer level {quote(s.get('level', 'heuristic'))} "
                           f"(one of {', '.join(LEVELS)})")
    seat = SeatRequest.model_validate(s)
    like = None if seat.kind == "computer" or seat.name is None else person_name_refusal(
        f"seat {i + 1}: the name", seat.name, None if holder is None else holder(normal_name(seat.name)), me)
    if like is not None:  # a person's seat only: a computer may be given any name
        raise TableRefused(like[0], f"{like[1]}; no table was made", i + 1)
    return seat


def new_table_json(new: NewTable) -> dict[str, Any]:
    """The answer to ``POST /api/tables``: the id, the rules, and each seat with the creator's tokens and the invitation
    links (a path with the seat's token after ``#token=``)."""
    tid = new.row.id
    return {"id": tid, "rules": new.row.rules, "practice": new.row.practice,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind,
                       "token": s.token if s.seat in new.mine else None,
                       "invite": f"/t/{tid}#token={s.token}" if s.seat in new.invited else None}
                      for s in new.seats]}


# ---------------------------------------------------------------------------------------------- My games (HTTP)
class HistoryRequest(BaseModel):
    """``POST /api/history``'s body: the tokens a browser holds (other fields are ignored)."""

    model_config = ConfigDict(strict=True, frozen=True)

    tokens: list[str]


def history_tokens(body: Any) -> list[str]:
    """The tokens of ``POST /api/history``'s ``body`` (the request's JSON), all of them (the route reads the first 500).

    Raises:
        ValueError: for a body that is not ``{"tokens": [...]}`` with a list of texts, quoting it.
    """
    try:
        return list(HistoryRequest.model_validate(body).tokens)
    except ValidationError:
        raise ValueError(f"send {{\"tokens\": [...]}} (a list of texts), not {quote(body)}") from None
