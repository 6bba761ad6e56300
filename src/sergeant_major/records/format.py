"""The record format: a match as a JSON-ready dict and back, one action as a JSON object and back.

A record holds everything needed to replay a match action by action: the rules (string form and the options
dict), the players (names and kinds), the seed, the first dealer, and for every deal the hands as dealt (by seat,
in the order dealt), the kitty, the dealer, every action in order (forced ones too) and the deal's result; then
the running totals and the end. The format is documented in ``docs/records.md`` and described by the JSON Schema
``record_schema.json`` shipped beside this module (:func:`schema_path`).

Records are full-information files written after the fact (every hand, the kitty, the discards and the exchanged
cards are in them); never show a record to a seat during play.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sergeant_major.core.actions import (
    Action,
    AssignTargets,
    Contract,
    Discard,
    EndGive,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
)
from sergeant_major.core.cards import CARDS, Card
from sergeant_major.core.deal import DealResult
from sergeant_major.core.errors import RecordError
from sergeant_major.core.match import Match, MatchEnd
from sergeant_major.core.safetext import name_problem, quote
from sergeant_major.records.pretty import pretty_json, quote_json
from sergeant_major.records.schema import SchemaChecker, SchemaFault

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "ACTION_KINDS",
    "schema_path",
    "record_checker",
    "record_outline_checker",
    "seat_fields",
    "check_seat",
    "action_to_json",
    "action_fault",
    "action_from_json",
    "action_from_valid_json",
    "card_from_json",
    "contract_from_json",
    "result_to_json",
    "match_to_record",
    "dumps_record",
    "end_text",
]

RECORD_FORMAT: Final = "sergeant-major-record"
RECORD_VERSION: Final = 1

ACTION_KINDS: Final = ("play", "discard", "kitty", "contract", "give", "end_give", "return", "assign")
"""The keys naming an action's kind in its record form, one of them in each action."""

_CARD_TEXTS: Final = {str(c): c for c in CARDS}
_CONTRACT_CODES: Final = {c.code: c for c in Contract}


def schema_path() -> Path:
    """The path of ``record_schema.json`` (JSON Schema draft 2020-12 of format version 1)."""
    return Path(__file__).with_name("record_schema.json")


def _describe_value(value: Any) -> dict[str, str]:
    """Template fields of a faulty value in a record: an action's kind (``kind``, ``kind_words``, ``kinds_found``)
    and what is wrong with a name (``problem``)."""
    fields: dict[str, str] = {}
    if isinstance(value, dict):
        kinds = [k for k in value if k in ACTION_KINDS]
        fields["kinds_found"] = "none" if not kinds else f"{len(kinds)} ({', '.join(kinds)})"
        if kinds:
            fields["kind"] = kinds[0]
            fields["kind_words"] = kinds[0].replace("_", " ")
    elif isinstance(value, str):
        fields["problem"] = name_problem(value) or "it is not plain text"
    return fields


@functools.cache
def record_checker(definition: str | None = None) -> SchemaChecker:
    """The checker of ``record_schema.json`` (or of its ``$defs[definition]``, e.g. ``"action"``), made once."""
    return SchemaChecker.from_file(schema_path(), definition, describe=_describe_value)


@functools.cache
def record_outline_checker() -> SchemaChecker:
    """The checker of ``record_schema.json`` with each deal's actions left out (any list passes): a match repeats a
    few hundred distinct actions a thousand times, so the reader checks each distinct one once against
    ``record_checker("action")`` (:func:`~sergeant_major.records.validation.loads_record`)."""
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    schema["$defs"]["deal"]["properties"]["actions"]["items"] = {}
    return SchemaChecker(schema, describe=_describe_value)


def seat_fields(players: int | None) -> dict[str, str]:
    """Template fields naming the seats of ``players`` players (``None``: not known, 3 or 4)."""
    if players is None:
        return {"seats": "3 or 4", "last_seat": "3"}
    return {"seats": str(players), "last_seat": str(players - 1)}


# ---------------------------------------------------------------------------------------------- actions
def action_to_json(action: Action) -> dict[str, Any]:
    """The record form of one action: a compact object with ``seat`` and one key naming the kind.

    ``{"seat": 1, "play": "QS"}``, ``{"seat": 0, "discard": "2C"}``, ``{"seat": 0, "kitty": "take"}``,
    ``{"seat": 0, "contract": "S"}`` (``C D H S NT MT``), ``{"seat": 0, "give": "3C", "to": 1}``,
    ``{"seat": 0, "end_give": true, "to": 1}``, ``{"seat": 1, "return": "AC", "to": 0}``,
    ``{"seat": 0, "assign": [2, 9, 5]}`` (targets by seat).
    """
    s = action.seat
    if isinstance(action, Play):
        return {"seat": s, "play": str(action.card)}
    if isinstance(action, Discard):
        return {"seat": s, "discard": str(action.card)}
    if isinstance(action, TakeKitty):
        return {"seat": s, "kitty": "take"}
    if isinstance(action, NameContract):
        return {"seat": s, "contract": action.contract.code}
    if isinstance(action, Give):
        return {"seat": s, "give": str(action.card), "to": action.to}
    if isinstance(action, EndGive):
        return {"seat": s, "end_give": True, "to": action.to}
    if isinstance(action, Return):
        return {"seat": s, "return": str(action.card), "to": action.to}
    return {"seat": s, "assign": list(action.targets)}


def check_seat(value: int, players: int, where: str) -> int:
    """``value``, a seat the schema accepted (an integer 0..3), checked against the ``players`` of the rules.

    Raises:
        RecordError: ``value`` is not below ``players`` (``where`` names it).
    """
    if not 0 <= value < players:
        raise RecordError(f"{quote_json(value)} is not a seat (an integer 0..{players - 1})", where)
    return value


def card_from_json(text: str) -> Card:
    """The card of a canonical card text the schema accepted (``"QS"``).

    Raises:
        KeyError: ``text`` is not a card's text (the schema refuses it first).
    """
    return _CARD_TEXTS[text]


def contract_from_json(code: str) -> Contract:
    """The contract of a code the schema accepted (``"S"``, ``"NT"``, ``"MT"``).

    Raises:
        KeyError: ``code`` is not a contract's code (the schema refuses it first).
    """
    return _CONTRACT_CODES[code]


def action_from_valid_json(obj: Mapping[str, Any], players: int, where: str = "action") -> Action:
    """The action of an object that the schema's ``action`` accepted (:func:`action_from_json` checks it first);
    its seats (``seat``, ``to``) and the length of ``assign`` are checked here against ``players``.

    Raises:
        RecordError: a seat of ``players`` or more, ``assign`` not one target per seat (``where`` extended to the key).
    """
    seat = check_seat(obj["seat"], players, f"{where}.seat")
    if "play" in obj:
        return Play(seat, _CARD_TEXTS[obj["play"]])
    if "discard" in obj:
        return Discard(seat, _CARD_TEXTS[obj["discard"]])
    if "kitty" in obj:
        return TakeKitty(seat)
    if "contract" in obj:
        return NameContract(seat, _CONTRACT_CODES[obj["contract"]])
    if "assign" in obj:
        targets = obj["assign"]
        if len(targets) != players:
            raise RecordError(f"assign takes a list of {players} integer targets by seat, not {quote_json(targets)}",
                              f"{where}.assign")
        return AssignTargets(seat, tuple(targets))
    to = check_seat(obj["to"], players, f"{where}.to")
    if "end_give" in obj:
        return EndGive(seat, to)
    if "give" in obj:
        return Give(seat, _CARD_TEXTS[obj["give"]], to)
    return Return(seat, _CARD_TEXTS[obj["return"]], to)


_ActionKey = tuple[tuple[str, type, Any], ...]
_ACCEPTED_ACTIONS: Final[set[_ActionKey]] = set()
"""The action objects the schema accepted so far (its verdict on one does not depend on the record or the table)."""
_MOST_ACCEPTED: Final = 100_000  # a few thousand distinct actions exist; past this the set is someone's garbage


def _action_key(action: Any) -> _ActionKey | None:
    """A key telling apart every action object of scalars (``True`` from ``1``, ``1.0`` from ``1``), for the memo of
    :func:`action_fault`; ``None`` for another value (checked every time)."""
    if not isinstance(action, dict):
        return None
    key = tuple((k, type(v), v) for k, v in action.items())
    try:
        hash(key)
    except TypeError:  # a list (assign) or an object inside
        return None
    return key


def action_fault(obj: Any, where: str, players: int | Callable[[], int | None] | None) -> SchemaFault | None:
    """The first fault of the action object ``obj`` against the record schema's ``action``, or ``None``; each
    distinct action the schema accepts is checked once in this process (a match repeats a few hundred actions a
    thousand times, and a JSON Lines file of matches the same few thousand).

    Args:
        where: the JSON path of ``obj``, put before the fault's.
        players: the rules' players, for the messages (or a function giving them, called only for a fault;
            ``None``: not known).
    """
    key = _action_key(obj)
    if key is not None and key in _ACCEPTED_ACTIONS:
        return None
    checker = record_checker("action")
    if checker.is_valid(obj):
        if key is not None:
            if len(_ACCEPTED_ACTIONS) > _MOST_ACCEPTED:
                _ACCEPTED_ACTIONS.clear()
            _ACCEPTED_ACTIONS.add(key)
        return None
    return checker.first_fault(obj, where, seat_fields(players() if callable(players) else players))


def action_from_json(obj: Any, players: int = 3, where: str = "action") -> Action:
    """Parse one action object (see :func:`action_to_json`), checked against the record schema's ``action``;
    seats must be in ``0..players-1``.

    Raises:
        RecordError: with ``where`` (extended to the faulty key) and a message quoting the bad value.
    """
    fault = action_fault(obj, where, players)
    if fault is not None:
        raise RecordError(fault.message, fault.where)
    return action_from_valid_json(obj, players, where)


# ---------------------------------------------------------------------------------------------- writing
def result_to_json(result: DealResult) -> dict[str, Any]:
    """The record form of a deal's result: ``tricks``, ``targets``, ``diffs``, ``scores`` by seat and ``contract``."""
    return {"tricks": list(result.tricks), "targets": list(result.targets), "diffs": list(result.diffs),
            "scores": list(result.scores), "contract": result.contract.code}


def match_to_record(match: Match, players: Sequence[str], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``match`` as it stands (finished or not) as a JSON-ready dict (format version 1).

    Args:
        match: the match; names come from ``match.names``.
        players: each seat's kind or level, e.g. ``["human", "heuristic", "random"]`` (non-empty strings).
        meta: free JSON-ready information (date, program, comments); stored as ``meta``.

    An unfinished match gives an unfinished record: its last deal has the actions taken so far (maybe
    none) and ``result: null``, and ``end`` is ``null``.

    Raises:
        RecordError: (``where="players"``) when ``players`` does not give one non-empty kind per seat, or a
            name is empty or only spaces (the reader refuses such a record);
            (``where="meta"``) when ``meta`` is not JSON-ready.
    """
    n = match.rules.players
    kinds = list(players)
    if len(kinds) != n or not all(isinstance(k, str) and k for k in kinds):
        raise RecordError(f"players must give one non-empty kind per seat ({n}), got {kinds!r}", "players")
    blank = [s for s in range(n) if not match.names[s].strip()]
    if blank:  # the reader refuses such a record: it is not written
        raise RecordError(f"the name {match.names[blank[0]]!r} of seat {blank[0]} is empty", "players")
    meta = dict(meta) if meta else {}
    try:
        json.dumps(meta, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise RecordError(f"meta is not JSON-ready: {e}", "meta") from None
    deals: list[dict[str, Any]] = []
    for d in match.deals:
        deals.append({
            "number": d.number,
            "dealer": d.dealer,
            "hands": [[str(c) for c in h] for h in d.dealt],
            "kitty": [str(c) for c in d.kitty_dealt],
            "actions": [action_to_json(a) for a in d.history],
            "result": result_to_json(d.result) if d.result is not None else None,
        })
    end = match.end
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": str(match.rules),
        "options": match.rules.options_dict(),
        "players": [{"name": match.names[s], "kind": kinds[s]} for s in range(n)],
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "meta": meta,
        "deals": deals,
        "totals": list(match.totals),
        "end": None if end is None else {"winners": list(end.winners), "reason": end.reason},
    }


def dumps_record(rec: dict[str, Any]) -> str:
    """Stable, human-readable JSON text of ``rec`` (keys in the record's order, one action per line,
    one hand per line, UTF-8 names kept as they are), ending with a newline.

    ``loads_record(dumps_record(rec)) == rec`` for every valid record.

    Raises:
        RecordError: when ``rec`` holds something JSON cannot represent.
    """
    try:
        return pretty_json(rec, 0) + "\n"
    except (TypeError, ValueError) as e:
        raise RecordError(f"the record cannot be written as JSON: {e}") from None


def end_text(end: MatchEnd) -> str:
    """A record's end for a message: ``winners [0], reason 'Ann reached 10 (target total 10)'`` (the reason quoted
    with :func:`~sergeant_major.core.safetext.quote`, cut at 80 characters)."""
    reason = end.reason if len(end.reason) <= 80 else end.reason[:77] + "..."
    return f"winners {list(end.winners)}, reason {quote(reason)}"
