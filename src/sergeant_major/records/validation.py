"""Checking a record: its JSON against ``record_schema.json``, its content against the rules, its play by replay.

- :func:`loads_record`: text -> dict, checked three ways: JSON syntax (each key once in an object), the shipped
  JSON Schema (:func:`~sergeant_major.records.format.schema_path`, validated with ``jsonschema``), then what a
  schema cannot say: the rules text and its options, seats below the rules' players, deal numbers and dealers in
  rotation, hands and kitty forming one whole deck. Faults are
  :class:`~sergeant_major.core.errors.RecordError` with ``where``, the JSON path of the fault, or
  ``"line L column C"`` for a JSON syntax error; the message quotes the bad value.
- :func:`match_from_record`: rebuild the :class:`~sergeant_major.core.match.Match` by applying every action
  through the rules (:class:`RecordCheckError` on the first illegal action).
- :func:`check_record`: also verify the recorded results, totals and end against the replayed ones.
- :func:`replay_record`: the rebuild without raising, for front ends that show a record up to its fault.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sergeant_major.core.actions import Action, action_text
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import Deal, DealResult
from sergeant_major.core.errors import IllegalActionError, RecordError, RulesError, SergeantMajorError
from sergeant_major.core.match import Match, MatchEnd
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import name_problem, quote
from sergeant_major.records.format import (
    RECORD_FORMAT,
    RECORD_VERSION,
    action_fault,
    action_from_valid_json,
    card_from_json,
    check_seat,
    contract_from_json,
    end_text,
    record_outline_checker,
    seat_fields,
)
from sergeant_major.records.pretty import quote_json
from sergeant_major.records.schema import SchemaFault, document_order, json_path

__all__ = [
    "RecordCheckError",
    "Replay",
    "loads_record",
    "loads_record_at",
    "loads_keys_once",
    "third_person",
    "replay_record",
    "match_from_record",
    "check_record",
]

_RESULT_KEYS: Final = ("tricks", "targets", "diffs", "scores", "contract")


class RecordCheckError(RecordError):
    """A record whose actions the rules refuse, or whose recorded results differ from the replayed ones.

    It is a :class:`~sergeant_major.core.errors.RecordError` (so ``where`` is the JSON path, e.g.
    ``deals[2].actions[5]``) and a :class:`~sergeant_major.core.errors.SergeantMajorError`.

    Attributes:
        deal: the deal's number, from 1 (``0`` for a fault in the match totals or end).
        action_index: index of the action in that deal's ``actions`` list, from 0 (the action's number
            is ``action_index + 1``); ``-1`` when the fault is in a result, the totals or the end.
        seat: the seat that took the action, ``0..players-1``; ``-1`` when no action is at fault.
        action_text: the action in words (``"Ann plays QS"``); ``""`` when no action is at fault.
        rule: short name of the rule broken, from :class:`~sergeant_major.core.errors.IllegalActionError`
            (``"follow suit"``, ``"card not held"``, ``"turn"``, ``"phase"``...) or one of the record's own:
            ``"deal over"``, ``"deal incomplete"``, ``"match over"``, ``"result"``, ``"totals"``, ``"end"``.
    """

    def __init__(self, message: str, *, deal: int, action_index: int = -1, seat: int = -1, action_text: str = "",
                 rule: str, where: str = "") -> None:
        super().__init__(message, where)
        self.deal = deal
        self.action_index = action_index
        self.seat = seat
        self.action_text = action_text
        self.rule = rule


@dataclass
class _Deal:
    number: int
    dealer: int
    hands: list[list[Card]]
    kitty: list[Card]
    actions: list[Action]
    result: DealResult | None


@dataclass
class _Parsed:
    rules: Rules
    names: list[str]
    kinds: list[str]
    seed: int
    first_dealer: int
    deals: list[_Deal]
    totals: tuple[int, ...]
    end: MatchEnd | None


def _format_and_version(top: dict[str, Any]) -> None:
    if top["format"] != RECORD_FORMAT:
        raise RecordError(f"this is not a Sergeant Major record: format is {quote_json(top['format'])}, "
                          f"expected \"{RECORD_FORMAT}\"", "format")
    version = top["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"expected an integer version, got {quote_json(version)}", "version")
    if version > RECORD_VERSION:
        raise RecordError(f"record version {version} is newer than this program reads (version {RECORD_VERSION}); "
                          "upgrade sergeant-major", "version")
    if version < 1:
        raise RecordError(f"record version {version} does not exist (versions start at 1)", "version")


def _players_of(rec: Any) -> int | None:
    """The players of a record's rules, for the messages of its faults; ``None`` when its rules do not parse."""
    try:
        return Rules.parse(rec["rules"], check_end=False).players
    except (TypeError, KeyError, AttributeError, SergeantMajorError):
        return None


def _per_seat(values: list[int], players: int, where: str) -> tuple[int, ...]:
    """``values`` (integers the schema accepted), one per seat of ``players``."""
    if len(values) != players:
        raise RecordError(f"expected {players} integers (one per seat), got {len(values)}", where)
    return tuple(values)


def _player(rec: dict[str, Any], i: int) -> tuple[str, str]:
    """The name and kind of ``players[i]`` (the schema accepted them), refused for control characters or as empty."""
    names: dict[str, str] = {}
    for key in ("name", "kind"):
        value: str = rec["players"][i][key]
        why = name_problem(value)
        if why is not None:
            raise RecordError(f"the player's {key} {quote_json(value)} is refused: {why}", f"players[{i}].{key}")
        names[key] = value
    if not names["name"].strip():  # replay and play showed nobody: "Dealer:  (seat 0)"
        raise RecordError(f"the player's name {quote_json(names['name'])} is empty (e.g. Ann)", f"players[{i}].name")
    return names["name"], names["kind"]


def _first_action_fault(rec: Any) -> tuple[SchemaFault, tuple[str | int, ...]] | None:
    """The first action of ``rec`` that the schema's ``action`` refuses (each distinct action checked once in this
    process, :func:`~sergeant_major.records.format.action_fault`): the fault and its path in ``rec``; ``None`` when
    every action in a list of actions passes (the outline checks the lists themselves)."""
    deals = rec.get("deals") if isinstance(rec, dict) else None
    if not isinstance(deals, list):
        return None
    for i, deal in enumerate(deals):
        actions = deal.get("actions") if isinstance(deal, dict) else None
        if not isinstance(actions, list):
            continue
        for j, action in enumerate(actions):
            fault = action_fault(action, f"deals[{i}].actions[{j}]", lambda: _players_of(rec))
            if fault is not None:
                return fault, ("deals", i, "actions", j, *fault.path)
    return None


def _check_schema(rec: Any) -> None:
    """Check ``rec`` against ``record_schema.json``: its outline and its actions, reporting the first fault in
    reading order.

    Raises:
        RecordError: the fault's JSON path as ``where``, its message quoting the bad value.
    """
    outline = record_outline_checker()
    first = None if outline.is_valid(rec) else outline.first_fault(rec, "", seat_fields(_players_of(rec)))
    in_action = _first_action_fault(rec)
    if in_action is not None and (first is None or document_order(rec, in_action[1]) < document_order(rec, first.path)):
        first = in_action[0]
    if first is not None:
        raise RecordError(first.message, first.where)


def _parse(rec: Any) -> _Parsed:
    """Validate ``rec`` completely short of replaying it (the schema, then what it cannot say); return its content."""
    if isinstance(rec, dict) and "format" not in rec:
        # another program's JSON: 'unknown key' of its first key said less than this (a tournament --json result
        # given to check or replay was refused as "levels: unknown key 'levels'")
        if {"levels", "board_outcomes"} <= rec.keys():
            raise RecordError("this is a tournament result (sergeant-major tournament --json), not a game record; "
                              "tournament --merge reads it")
        raise RecordError(f"this is not a Sergeant Major record: it has no \"format\" key (a record begins "
                          f"{{\"format\": \"{RECORD_FORMAT}\", \"version\": {RECORD_VERSION}, ...}}, docs/records.md)")
    if isinstance(rec, dict) and "version" in rec:
        # first: a newer version's keys are not this version's ('unknown key' hid 'upgrade sergeant-major'), nor
        # are another file format's
        _format_and_version(rec)
    _check_schema(rec)
    text: str = rec["rules"]
    try:
        # the rules of a match already begun: read even when no game end of them can be counted on, so that a
        # record made before such rule sets were refused still loads (docs/rules.md decision 13)
        rules = Rules.parse(text, check_end=False)
    except RulesError as e:
        raise RecordError(str(e), "rules") from None
    options = rec["options"]
    for key, want in rules.options_dict().items():
        if key not in options:
            raise RecordError(f"missing required key {key!r}", f"options.{key}")
        got = options[key]
        if got != want:
            raise RecordError(f"the options say {key}={quote_json(got)} but the rules {text!r} give {key}={want}",
                              f"options.{key}")
    n = rules.players
    if len(rec["players"]) != n:
        raise RecordError(f"{len(rec['players'])} players for {n} seats", "players")
    names: list[str] = []
    kinds: list[str] = []
    for i in range(n):
        name, kind = _player(rec, i)
        names.append(name)
        kinds.append(kind)
    first = check_seat(rec["first_dealer"], n, "first_dealer")
    raw_deals: list[dict[str, Any]] = rec["deals"]
    deals: list[_Deal] = []
    for i, d in enumerate(raw_deals):
        w = f"deals[{i}]"
        number: int = d["number"]
        if number != i + 1:
            raise RecordError(f"deal number {number} in place {i + 1}; deals are numbered 1, 2, 3... in order", f"{w}.number")
        dealer = check_seat(d["dealer"], n, f"{w}.dealer")
        want_dealer = (first + i) % n
        if dealer != want_dealer:
            raise RecordError(f"dealer {dealer}, but with first dealer {first} deal {number} is dealt by seat {want_dealer} "
                              "(the deal passes to the left, docs/rules.md reference decision 7)", f"{w}.dealer")
        if len(d["hands"]) != n:
            raise RecordError(f"{len(d['hands'])} hands for {n} seats", f"{w}.hands")
        hands = [[card_from_json(c) for c in h] for h in d["hands"]]
        kitty = [card_from_json(c) for c in d["kitty"]]
        if len(kitty) != rules.kitty_size:
            raise RecordError(f"the kitty has {len(kitty)} card(s); the rules {text!r} give {rules.kitty_size}", f"{w}.kitty")
        try:
            Deal(rules, dealer, hands, kitty, number=number)
        except IllegalActionError as e:
            raise RecordError(f"not a valid deal: {e}", f"{w}.hands") from None
        actions = [action_from_valid_json(a, n, f"{w}.actions[{j}]") for j, a in enumerate(d["actions"])]
        result: DealResult | None = None
        if d["result"] is not None:
            rw = f"{w}.result"
            ro = d["result"]
            result = DealResult(_per_seat(ro["tricks"], n, f"{rw}.tricks"), _per_seat(ro["targets"], n, f"{rw}.targets"),
                                _per_seat(ro["diffs"], n, f"{rw}.diffs"), _per_seat(ro["scores"], n, f"{rw}.scores"),
                                contract_from_json(ro["contract"]))
        elif i < len(raw_deals) - 1:
            raise RecordError("only the last deal of a record may be unfinished (result null)", f"{w}.result")
        deals.append(_Deal(number, dealer, hands, kitty, actions, result))
    totals = _per_seat(rec["totals"], n, "totals")
    end: MatchEnd | None = None
    if rec["end"] is not None:
        winners = tuple(check_seat(x, n, f"end.winners[{k}]") for k, x in enumerate(rec["end"]["winners"]))
        end = MatchEnd.from_reason(winners, rec["end"]["reason"])
        if deals[-1].result is None:
            raise RecordError(f"the record gives an end ({end_text(end)}), but its last deal, deal {deals[-1].number}, "
                              "is unfinished (result null): a match in progress has \"end\": null", "end")
    return _Parsed(rules, names, kinds, rec["seed"], first, deals, totals, end)

def loads_record(text: str) -> dict[str, Any]:
    """Parse record text and validate it structurally: JSON syntax, types, keys, format name and version,
    rules text and options, players, seats, card texts, contract codes, deal numbers and dealers, the
    hands and kitty forming one whole deck split as the rules say. Legality of the actions is for
    :func:`match_from_record` / :func:`check_record`.

    Returns:
        the record as a dict (exactly as in the text).

    Raises:
        RecordError: ``where`` is the JSON path of the fault (``"deals[2].actions[5].play"``; a missing
            key's own path, e.g. ``"seed"``; a key given twice in one object, by its path; ``""`` for the
            whole record), or ``"line L column C"`` for a JSON syntax error; the message quotes the bad value.
    """
    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not allowed in a record")

    if not text.strip():  # json's 'line 1 column 1: Expecting value' did not say that there is nothing at all
        raise RecordError("it is empty (or only white space): a record is one JSON object (docs/records.md)")

    try:
        rec, twice = loads_keys_once(text, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        # json's messages such as "Unterminated string starting at" expect a position after them: it is the place
        raise RecordError(f"not valid JSON: {e.msg.removesuffix(' at').removesuffix(' starting')}",
                          f"line {e.lineno} column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    except MemoryError:
        raise RecordError("the record is too large to parse in the memory this process may use") from None
    if twice is not None:
        raise RecordError(f"the key {quote_json(twice[1])} is given twice in one object (JSON readers differ on which counts, "
                          "so a record gives each key once)", twice[0])
    if not isinstance(rec, dict):
        raise RecordError(f"a record is a JSON object, not {quote_json(rec)}")
    _parse(rec)
    return rec


def loads_keys_once(text: str, parse_constant: Any = None) -> tuple[Any, tuple[str, str] | None]:
    """``json.loads(text)`` and the first key (in text order) given twice in one object, as ``(path, key)`` - the
    key's JSON path (``"deals[2].actions"``) and the key - or ``None`` when every key is given once (json keeps the
    last value, other readers may keep the first). Raises what ``json.loads`` raises."""
    twice: dict[int, str] = {}  # id of an object -> its first key given twice
    kept: list[dict[str, Any]] = []  # those objects, kept alive so that their ids stay theirs

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for k, v in items:
            if k in obj and id(obj) not in twice:
                twice[id(obj)] = k
            obj[k] = v
        if id(obj) in twice:
            kept.append(obj)
        return obj

    doc = json.loads(text, parse_constant=parse_constant, object_pairs_hook=pairs)
    if not twice:
        return doc, None
    try:
        where, key = _first_twice(doc, "", twice)
    except RecursionError:  # nested about as deep as json itself allows: name the key, not its place
        where, key = "", next(iter(twice.values()))
    return doc, (json_path(where, key), key)


def _first_twice(v: Any, where: str, twice: dict[int, str]) -> tuple[str, str]:
    """The path of the first object (in text order) of ``v`` that has a key given twice, and that key; ``("", "")``
    when there is none under ``v``."""
    if isinstance(v, dict):
        if id(v) in twice:
            return where, twice[id(v)]
        items: Any = ((json_path(where, str(k)), x) for k, x in v.items())
    elif isinstance(v, list):
        items = ((f"{where}[{i}]", x) for i, x in enumerate(v))
    else:
        return "", ""
    for w, x in items:
        found = _first_twice(x, w, twice)
        if found[1]:
            return found
    return "", ""


def _at_line(e: RecordError, line: int) -> RecordError:
    """``e`` with its ``where`` prefixed by the line of a JSON Lines file."""
    msg = str(e)[len(e.where) + 2:] if e.where else str(e)
    if e.where.startswith("line "):  # a JSON syntax error: its column is within the line
        col = e.where.split("column", 1)[1].strip() if "column" in e.where else ""
        return RecordError(msg, f"line {line}" + (f" column {col}" if col else ""))
    return RecordError(msg, f"line {line}" + (f", {e.where}" if e.where else ""))


def loads_record_at(text: str, line: int, json_lines: bool) -> dict[str, Any]:
    """:func:`loads_record`, naming the line (``where`` starts ``"line L"``) when ``json_lines`` is true."""
    if not json_lines:
        return loads_record(text)
    try:
        return loads_record(text)
    except RecordError as e:
        raise _at_line(e, line) from None


# ---------------------------------------------------------------------------------------------- replaying
@dataclass
class Replay:
    """A record applied action by action.

    Attributes:
        match: the rebuilt match, up to (not including) the faulty action when there is one.
        names: the players' names by seat; ``kinds`` their kinds.
        forced: per recorded deal, for each action applied, whether the rules left no choice
            (the action equals :meth:`Match.forced_action` at that moment).
        error: the first fault, or ``None``.
    """

    match: Match
    names: list[str]
    kinds: list[str]
    forced: list[list[bool]] = field(default_factory=list)
    error: RecordCheckError | None = None


def third_person(message: str, who: str) -> str:
    """A rules message addressed to the player (``"you hold JH QH; you must follow suit"``, as
    :class:`~sergeant_major.core.errors.IllegalActionError` words it for the one at the table) turned into the
    third person for a record: ``who`` (e.g. ``"seat 2 (Ann)"``) the first time, ``they`` after."""
    out = message
    for you, they in (("you do not hold", "does not hold"), ("you hold", "holds"), ("you must return your", "must return their"),
                      ("you must", "must")):
        while you in out:
            name = who if who not in out else "they"
            verb = they if name == who else they.replace("does not", "do not").replace("holds", "hold")
            out = out.replace(you, f"{name} {verb}", 1)
    return out


def _rebuild(p: _Parsed) -> Replay:
    recorded = {d.number: d for d in p.deals}

    def source(number: int, dealer: int) -> tuple[list[list[Card]], list[Card]] | None:
        d = recorded.get(number)
        return ([list(h) for h in d.hands], list(d.kitty)) if d is not None else None

    match = Match(p.rules, p.seed, p.names, dealer=p.first_dealer, cards=source)
    rep = Replay(match, p.names, p.kinds)
    for i, d in enumerate(p.deals):
        w = f"deals[{i}]"
        flags: list[bool] = []
        rep.forced.append(flags)
        if match.over:
            rep.error = RecordCheckError(
                f"deal {d.number} is recorded, but the match ended after deal {len(match.deals)} ({match.end.reason if match.end else ''})",
                deal=d.number, rule="match over", where=w)
            return rep
        for j, a in enumerate(d.actions):
            aw = f"{w}.actions[{j}]"
            text = action_text(a, p.names)
            if match.over or match.deal.number != d.number:
                rep.error = RecordCheckError(
                    f"deal {d.number}, action {j + 1} (seat {a.seat}: {text}): the deal was already over after action {j}",
                    deal=d.number, action_index=j, seat=a.seat, action_text=text, rule="deal over", where=aw)
                return rep
            forced = match.forced_action()
            try:
                match.apply(a)
            except IllegalActionError as e:
                why = third_person(str(e), f"seat {a.seat} ({p.names[a.seat]})")
                rep.error = RecordCheckError(
                    f"deal {d.number}, action {j + 1} (seat {a.seat}: {text}) is illegal: {why} [rule: {e.rule}]",
                    deal=d.number, action_index=j, seat=a.seat, action_text=text, rule=e.rule, where=aw)
                return rep
            flags.append(forced == a)
        if i < len(p.deals) - 1 and match.deals[i].result is None:
            rep.error = RecordCheckError(
                f"deal {d.number} stops after {len(d.actions)} actions, before its last trick, but the record goes on "
                f"to deal {d.number + 1}", deal=d.number, action_index=len(d.actions), rule="deal incomplete",
                where=f"{w}.actions")
            return rep
    return rep


def replay_record(rec: dict[str, Any]) -> Replay:
    """Rebuild the match of ``rec`` action by action, stopping at the first fault instead of raising
    (for front ends that show a record up to its fault).

    Raises:
        RecordError: when ``rec`` is structurally malformed (see :func:`loads_record`).
    """
    return _rebuild(_parse(rec))


def match_from_record(rec: dict[str, Any]) -> Match:
    """Rebuild the :class:`Match` of ``rec`` by applying every recorded action through the rules.

    The deals in the record use the recorded hands (``Match(..., cards=...)``); deals beyond the record
    come from the seed, so an unfinished match continues exactly as it would have (for example with
    :func:`~sergeant_major.players.drive`). Recorded results, totals and end are not compared here
    (see :func:`check_record`).

    Raises:
        RecordError: when ``rec`` is structurally malformed.
        RecordCheckError: on the first action the rules refuse (deal, action index, seat, action and
            rule named), an action after its deal was over, a deal that stops early but is followed by
            another, or a deal recorded after the match ended.
    """
    rep = replay_record(rec)
    if rep.error is not None:
        raise rep.error
    return rep.match


def _nums(t: Sequence[int]) -> str:
    return " ".join(str(x) for x in t)


def check_record(rec: dict[str, Any]) -> Match:
    """:func:`match_from_record`, then verify that every recorded result (tricks, targets, diffs, scores,
    contract), the totals and the end (its winners and its reason, word for word: the reason names the end rule and
    its numbers) equal the replayed ones. Returns the rebuilt match.

    Raises:
        RecordError: when ``rec`` is structurally malformed.
        RecordCheckError: on the first illegal action (see :func:`match_from_record`) or the first
            difference (rule ``"result"``, ``"totals"`` or ``"end"``; ``where`` names the field).
    """
    p = _parse(rec)
    rep = _rebuild(p)
    if rep.error is not None:
        raise rep.error
    match = rep.match
    for i, d in enumerate(p.deals):
        got = match.deals[i].result
        w = f"deals[{i}].result"
        if d.result is None:
            if got is not None:
                raise RecordCheckError(f"deal {d.number} is finished after its actions, but the record gives no result",
                                       deal=d.number, rule="result", where=w)
            continue
        if got is None:
            raise RecordCheckError(f"deal {d.number} has a recorded result, but its actions stop before the last trick",
                                   deal=d.number, rule="result", where=w)
        for key in _RESULT_KEYS:
            mine, theirs = getattr(d.result, key), getattr(got, key)
            if mine != theirs:
                show = (lambda c: c.code) if key == "contract" else _nums
                raise RecordCheckError(
                    f"deal {d.number}: the record gives {key} {show(mine)}, the replay gives {show(theirs)}",
                    deal=d.number, rule="result", where=f"{w}.{key}")
    if tuple(match.totals) != p.totals:
        raise RecordCheckError(f"the record gives totals {_nums(p.totals)}, the replay gives {_nums(match.totals)}",
                               deal=0, rule="totals", where="totals")
    if (p.end is None) != (match.end is None):
        if p.end is None:
            assert match.end is not None
            msg = f"the record gives no end, but the match ended: {match.end.reason}"
        else:
            msg = f"the record gives an end ({end_text(p.end)}), but the replayed match is not over"
        raise RecordCheckError(msg, deal=0, rule="end", where="end")
    if p.end is not None and match.end is not None and p.end.winners != match.end.winners:
        raise RecordCheckError(f"the record gives winners {_nums(p.end.winners)}, the replay gives "
                               f"{_nums(match.end.winners)} ({match.end.reason})", deal=0, rule="end", where="end.winners")
    if p.end is not None and match.end is not None and p.end.reason != match.end.reason:
        # the words name the end rule and its numbers ("Ann reached 11 (target total 10)"): other words (another
        # total, another player, another rule) tell another end than the play gives, so the record is damaged
        raise RecordCheckError(f"the record gives the end reason {quote(p.end.reason)}, the replay gives "
                               f"{quote(match.end.reason)}", deal=0, rule="end", where="end.reason")
    return match
