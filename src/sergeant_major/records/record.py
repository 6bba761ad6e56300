"""Game records: a versioned JSON file format for whole matches, its reader, writer and checker.

A record holds everything needed to replay a match action by action: the rules (string form and the
options dict), the players (names and kinds), the seed, the first dealer, and for every deal the
hands as dealt (by seat, in the order dealt), the kitty, the dealer, every action in order (forced
ones too) and the deal's result; then the running totals and the end. The format is documented in
``docs/records.md`` and described by the JSON Schema ``record_schema.json`` shipped beside this module.

Records are full-information files written after the fact (every hand, the kitty, the discards and
the exchanged cards are in them); never show a record to a seat during play.

API (stable; other modules code against it):

- :func:`match_to_record` / :func:`dumps_record` / :func:`write_record`: match -> dict -> text -> file.
- :func:`read_records` / :func:`split_records`: a file (or text) -> its records ``[(line, text)]``: one JSON
  record, or JSON Lines (one record a line, as ``simulate --out`` writes); ``read_record(path, game=K)``
  picks record K (:class:`RecordCountError` when a file of several records is read without ``game``).
- :func:`loads_record` / :func:`read_record`: text or file -> dict, validated structurally
  (:class:`~sergeant_major.core.errors.RecordError` with ``where``, the JSON path of the fault, or
  ``"line L column C"`` for a JSON syntax error).
- :func:`match_from_record`: rebuild the :class:`~sergeant_major.core.match.Match` by applying every action
  through the rules (:class:`RecordCheckError` on the first illegal action).
- :func:`check_record`: also verify the recorded results, totals and end against the replayed ones.
- :func:`replay_record`: the rebuild without raising, for front ends that show a record up to its fault.

The core has no third-party dependency: the validator here is hand-written; the schema is for others.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    action_text,
)
from sergeant_major.core.cards import CARDS, Card
from sergeant_major.core.deal import Deal, DealResult
from sergeant_major.core.errors import IllegalActionError, RecordError, RulesError
from sergeant_major.core.match import Match, MatchEnd
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import name_problem, quote, visible

__all__ = [
    "RECORD_FORMAT",
    "end_text",
    "RECORD_VERSION",
    "RecordError",
    "RecordCheckError",
    "Replay",
    "match_to_record",
    "dumps_record",
    "write_record",
    "loads_record",
    "read_record",
    "read_records",
    "split_records",
    "loads_record_at",
    "RecordCountError",
    "third_person",
    "match_from_record",
    "check_record",
    "replay_record",
    "action_to_json",
    "action_from_json",
    "schema_path",
    "MAX_RECORD_FILE",
]

RECORD_FORMAT: Final = "sergeant-major-record"
RECORD_VERSION: Final = 1

_CARD_TEXTS: Final = {str(c): c for c in CARDS}
_CONTRACT_CODES: Final = {c.code: c for c in Contract}
_TOP_KEYS: Final = ("format", "version", "rules", "options", "players", "seed", "first_dealer", "meta", "deals",
                    "totals", "end")
_TOP_OPTIONAL: Final = ("meta",)
_DEAL_KEYS: Final = ("number", "dealer", "hands", "kitty", "actions", "result")
_RESULT_KEYS: Final = ("tricks", "targets", "diffs", "scores", "contract")
_ACTION_KINDS: Final = ("play", "discard", "kitty", "contract", "give", "end_give", "return", "assign")


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


def schema_path() -> Path:
    """The path of ``record_schema.json`` (JSON Schema draft 2020-12 of format version 1)."""
    return Path(__file__).with_name("record_schema.json")


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


def action_from_json(obj: Any, players: int = 3, where: str = "action") -> Action:
    """Parse one action object (see :func:`action_to_json`); seats must be in ``0..players-1``.

    Raises:
        RecordError: with ``where`` (extended to the faulty key) and a message quoting the bad value.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"an action must be an object like {{\"seat\": 1, \"play\": \"QS\"}}, not {_show(obj)}", where)
    seat = _seat(obj.get("seat"), players, f"{where}.seat") if "seat" in obj else None
    if seat is None:
        raise RecordError("missing required key 'seat'", f"{where}.seat")
    kinds = [k for k in obj if k in _ACTION_KINDS]
    unknown = [k for k in obj if k not in _ACTION_KINDS and k not in ("seat", "to")]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} (an action has 'seat', one of {', '.join(_ACTION_KINDS)}, "
                          "and 'to' for give, end_give and return)", f"{where}.{unknown[0]}")
    if len(kinds) != 1:
        what = "none" if not kinds else f"{len(kinds)} ({', '.join(kinds)})"
        raise RecordError(f"an action needs exactly one of {', '.join(_ACTION_KINDS)}; it has {what}", where)
    kind = kinds[0]
    value = obj[kind]
    at = f"{where}.{kind}"
    needs_to = kind in ("give", "end_give", "return")
    if needs_to and "to" not in obj:
        raise RecordError(f"missing required key 'to' (the seat receiving the {kind.replace('_', ' ')})", f"{where}.to")
    if not needs_to and "to" in obj:
        raise RecordError(f"'to' belongs only to give, end_give and return, not to {kind}", f"{where}.to")
    if kind == "play":
        return Play(seat, _card(value, at))
    if kind == "discard":
        return Discard(seat, _card(value, at))
    if kind == "kitty":
        if value != "take":
            raise RecordError(f"the kitty action is \"take\", not {_show(value)}", at)
        return TakeKitty(seat)
    if kind == "contract":
        if not isinstance(value, str) or value not in _CONTRACT_CODES:
            raise RecordError(f"{_show(value)} is not a contract (one of {', '.join(_CONTRACT_CODES)})", at)
        return NameContract(seat, _CONTRACT_CODES[value])
    if kind == "assign":
        if not isinstance(value, list) or len(value) != players or not all(_is_int(x) for x in value):
            raise RecordError(f"assign takes a list of {players} integer targets by seat, not {_show(value)}", at)
        return AssignTargets(seat, tuple(value))
    to = _seat(obj["to"], players, f"{where}.to")
    if kind == "end_give":
        if value is not True:
            raise RecordError(f"end_give takes true, not {_show(value)}", at)
        return EndGive(seat, to)
    card = _card(value, at)
    return Give(seat, card, to) if kind == "give" else Return(seat, card, to)


# ---------------------------------------------------------------------------------------------- writing
def _result_json(res: DealResult) -> dict[str, Any]:
    return {"tricks": list(res.tricks), "targets": list(res.targets), "diffs": list(res.diffs),
            "scores": list(res.scores), "contract": res.contract.code}


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
            "result": _result_json(d.result) if d.result is not None else None,
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


_WIDTH: Final = 120


def _depth(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 0


def _fmt(v: Any, indent: int) -> str:
    compact = json.dumps(v, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    if not isinstance(v, (dict, list)) or not v:
        return compact
    if _depth(v) <= 2 and indent + len(compact) <= _WIDTH:
        return compact
    pad = " " * (indent + 2)
    if isinstance(v, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_fmt(x, indent + 2)}" for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _fmt(x, indent + 2) for x in v]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def dumps_record(rec: dict[str, Any]) -> str:
    """Stable, human-readable JSON text of ``rec`` (keys in the record's order, one action per line,
    one hand per line, UTF-8 names kept as they are), ending with a newline.

    ``loads_record(dumps_record(rec)) == rec`` for every valid record.

    Raises:
        RecordError: when ``rec`` holds something JSON cannot represent.
    """
    try:
        return _fmt(rec, 0) + "\n"
    except (TypeError, ValueError) as e:
        raise RecordError(f"the record cannot be written as JSON: {e}") from None


def _file_mode(p: Path) -> int:
    """The mode for a new record file: the existing file's mode, else 0666 less the process's umask."""
    try:
        return p.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _renamed_onto(path: str) -> str | None:
    """Where a file written whole through a temporary file and a rename (``tournament --json``, ``simulate --out``)
    goes: ``path``, or the file a symbolic link ``path`` names (the link is kept, as a plain write keeps it); ``None``
    when ``path`` is a device, a pipe or a socket (``/dev/null``, ``/dev/stdout``, a FIFO), to be written directly:
    a rename would put a regular file in its place (as root, in ``/dev`` too). A folder is for the caller to refuse.

    Raises:
        OSError: ``path`` cannot be looked up (a loop of links, a file where a folder should be, no permission).
    """
    try:
        st = os.stat(path)  # follows links: what a write would reach
    except FileNotFoundError:  # a new file, or a dangling link's; a loop of links (ELOOP) is the caller's error
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return None
    return os.path.realpath(path) if os.path.islink(path) else path


_MAX_SUFFIX: Final = 1000


def _place_new(tmp: str, p: Path) -> Path:
    """Give the written temporary file ``tmp`` the name ``p``, or ``p`` with ``-2``, ``-3``... before its suffix when
    that name is taken, never replacing a file; returns the name given. A hard link claims the name atomically
    with the whole record in it; where the file system has no hard links, the name is claimed by creating it
    empty (``O_EXCL``) and the record then renamed over it."""
    for k in range(1, _MAX_SUFFIX + 1):
        cand = p if k == 1 else p.with_name(f"{p.stem}-{k}{p.suffix}")
        try:
            os.link(tmp, cand)
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some network or FAT file systems)
            try:
                os.close(os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                continue
            try:
                os.replace(tmp, cand)
            except OSError:
                os.unlink(cand)  # the empty name claimed, not a record: leave nothing behind
                raise
            return cand
        os.unlink(tmp)
        return cand
    raise FileExistsError(errno.EEXIST, f"{p.name} and {_MAX_SUFFIX - 1} numbered names after it are all taken")


def write_record(match: Match, path: str | Path, players: Sequence[str], meta: dict[str, Any] | None = None, *,
                 unique: bool = False) -> Path:
    """Write the record of ``match`` to ``path`` atomically (a temporary file in the same folder, then a
    rename), so a crash never leaves half a record. Returns the path written.

    Args:
        unique: never replace an existing file: when ``path`` exists, write ``NAME-2.json``, ``NAME-3.json``...
            (the first free name, claimed atomically, so two programs saving at once get two files) and return
            that path. Without it an existing ``path`` is replaced (saving the same match again); a symbolic link
            ``path`` is kept and the file it names is replaced.

    Raises:
        RecordError: from :func:`match_to_record`, or when the file cannot be written (the path and the
            system's reason quoted); nothing is left behind then.
    """
    p = Path(path)
    text = dumps_record(match_to_record(match, players, meta))
    tmp: str | None = None
    try:
        # a symbolic link is kept and the file it names replaced (the rename replaced the link by a file of its own,
        # leaving the file it named as it was: a save resumed through a link went on in a copy)
        dest = Path(os.path.realpath(p)) if not unique and p.is_symlink() else p
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent if str(dest.parent) else ".")
        os.chmod(tmp, _file_mode(dest))  # mkstemp makes 0600 files; a record gets the usual mode
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if unique:
            p = _place_new(tmp, p)
        else:
            os.replace(tmp, dest)
        tmp = None
    except OSError as e:
        raise RecordError(f"cannot write the record to {str(p)!r}: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return p


# ---------------------------------------------------------------------------------------------- reading
def _show(v: Any) -> str:
    """``v`` as JSON text for a message, cut at 60 characters, control characters escaped (never raw on a terminal)."""
    try:
        text = visible(json.dumps(v, ensure_ascii=False))
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def end_text(end: MatchEnd) -> str:
    """A record's end for a message: ``winners [0], reason 'Ann reached 10 (target total 10)'`` (the reason quoted
    with :func:`~sergeant_major.core.safetext.quote`, cut at 80 characters)."""
    reason = end.reason if len(end.reason) <= 80 else end.reason[:77] + "..."
    return f"winners {list(end.winners)}, reason {quote(reason)}"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if not _is_int(v):
        raise RecordError(f"expected an integer, got {_show(v)}", where)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise RecordError(f"{v} is outside {rng}", where)
    return int(v)


def _seat(v: Any, players: int, where: str) -> int:
    if not _is_int(v) or not 0 <= v < players:
        raise RecordError(f"{_show(v)} is not a seat (an integer 0..{players - 1})", where)
    return int(v)


def _card(v: Any, where: str) -> Card:
    if isinstance(v, str) and v in _CARD_TEXTS:
        return _CARD_TEXTS[v]
    raise RecordError(f"{_show(v)} is not a card in canonical text (rank 2-9 T J Q K A, then suit C D H S: e.g. QS, TD)",
                      where)


def _cards(v: Any, where: str) -> list[Card]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of cards, got {_show(v)}", where)
    return [_card(x, f"{where}[{i}]") for i, x in enumerate(v)]


def _str(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise RecordError(f"expected a string, got {_show(v)}", where)
    return v


def _obj(v: Any, where: str, keys: Sequence[str], optional: Sequence[str] = ()) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise RecordError(f"expected an object, got {_show(v)}", where)
    for k in v:
        if k not in keys:
            raise RecordError(f"unknown key {k!r} (allowed: {', '.join(keys)})", _join(where, k))
    for k in keys:
        if k not in v and k not in optional:
            raise RecordError(f"missing required key {k!r}", _join(where, k))
    return v


def _list(v: Any, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list, got {_show(v)}", where)
    return v


def _ints(v: Any, n: int, where: str) -> tuple[int, ...]:
    lst = _list(v, where)
    if len(lst) != n:
        raise RecordError(f"expected {n} integers (one per seat), got {len(lst)}", where)
    return tuple(_int(x, f"{where}[{i}]") for i, x in enumerate(lst))


def _join(where: str, key: str) -> str:
    key = visible(key)  # a path is printed: a key from the file never carries raw control characters
    return f"{where}.{key}" if where else key


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
        raise RecordError(f"this is not a Sergeant Major record: format is {_show(top['format'])}, "
                          f"expected \"{RECORD_FORMAT}\"", "format")
    version = top["version"]
    if not _is_int(version):
        raise RecordError(f"expected an integer version, got {_show(version)}", "version")
    if version > RECORD_VERSION:
        raise RecordError(f"record version {version} is newer than this program reads (version {RECORD_VERSION}); "
                          "upgrade sergeant-major", "version")
    if version < 1:
        raise RecordError(f"record version {version} does not exist (versions start at 1)", "version")


def _parse(rec: Any) -> _Parsed:
    """Validate ``rec`` completely short of replaying it; return its parsed content."""
    if isinstance(rec, dict) and "format" not in rec:
        # another program's JSON: 'unknown key' of its first key said less than this (a tournament --json result
        # given to check or replay was refused as "levels: unknown key 'levels'")
        if {"levels", "board_outcomes"} <= rec.keys():
            raise RecordError("this is a tournament result (sergeant-major tournament --json), not a game record; "
                              "tournament --merge reads it")
        raise RecordError(f"this is not a Sergeant Major record: it has no \"format\" key (a record begins "
                          f"{{\"format\": \"{RECORD_FORMAT}\", \"version\": {RECORD_VERSION}, ...}}, docs/records.md)")
    if isinstance(rec, dict) and "format" in rec and "version" in rec:
        # first: a newer version's keys are not this version's ('unknown key' hid 'upgrade sergeant-major'), nor
        # are another file format's
        _format_and_version(rec)
    top = _obj(rec, "", _TOP_KEYS, _TOP_OPTIONAL)
    _format_and_version(top)
    text = _str(top["rules"], "rules")
    try:
        # the rules of a match already begun: read even when no game end of them can be counted on, so that a
        # record made before such rule sets were refused still loads (docs/rules.md decision 13)
        rules = Rules.parse(text, check_end=False)
    except RulesError as e:
        raise RecordError(str(e), "rules") from None
    opts = _obj(top["options"], "options", tuple(rules.options_dict()))
    for k, want in rules.options_dict().items():
        got = opts[k]
        if got != want:
            raise RecordError(f"the options say {k}={_show(got)} but the rules {text!r} give {k}={want}", f"options.{k}")
    n = rules.players
    players = _list(top["players"], "players")
    if len(players) != n:
        raise RecordError(f"{len(players)} players for {n} seats", "players")
    names: list[str] = []
    kinds: list[str] = []
    for i, p in enumerate(players):
        po = _obj(p, f"players[{i}]", ("name", "kind"))
        for key in ("name", "kind"):
            value = _str(po[key], f"players[{i}].{key}")
            why = name_problem(value)
            if why is not None:
                raise RecordError(f"the player's {key} {_show(value)} is refused: {why}", f"players[{i}].{key}")
            (names if key == "name" else kinds).append(value)
        if not kinds[-1]:
            raise RecordError("the player's kind is empty (e.g. human, heuristic, random)", f"players[{i}].kind")
        if not names[-1].strip():  # replay and play showed nobody: "Dealer:  (seat 0)"
            raise RecordError(f"the player's name {_show(names[-1])} is empty (e.g. Ann)", f"players[{i}].name")
    seed = _int(top["seed"], "seed")
    first = _seat(top["first_dealer"], n, "first_dealer")
    if "meta" in top and not isinstance(top["meta"], dict):
        raise RecordError(f"meta must be an object, got {_show(top['meta'])}", "meta")
    raw_deals = _list(top["deals"], "deals")
    if not raw_deals:
        raise RecordError("a record has at least one deal", "deals")
    deals: list[_Deal] = []
    all_contracts = tuple(_CONTRACT_CODES)
    for i, rd in enumerate(raw_deals):
        w = f"deals[{i}]"
        d = _obj(rd, w, _DEAL_KEYS)
        number = _int(d["number"], f"{w}.number")
        if number != i + 1:
            raise RecordError(f"deal number {number} in place {i + 1}; deals are numbered 1, 2, 3... in order", f"{w}.number")
        dealer = _seat(d["dealer"], n, f"{w}.dealer")
        want_dealer = (first + i) % n
        if dealer != want_dealer:
            raise RecordError(f"dealer {dealer}, but with first dealer {first} deal {number} is dealt by seat {want_dealer} "
                              "(the deal passes to the left, RULES.md decision 7)", f"{w}.dealer")
        hl = _list(d["hands"], f"{w}.hands")
        if len(hl) != n:
            raise RecordError(f"{len(hl)} hands for {n} seats", f"{w}.hands")
        hands = [_cards(h, f"{w}.hands[{s}]") for s, h in enumerate(hl)]
        kitty = _cards(d["kitty"], f"{w}.kitty")
        if len(kitty) != rules.kitty_size:
            raise RecordError(f"the kitty has {len(kitty)} card(s); the rules {text!r} give {rules.kitty_size}", f"{w}.kitty")
        try:
            Deal(rules, dealer, hands, kitty, number=number)
        except IllegalActionError as e:
            raise RecordError(f"not a valid deal: {e}", f"{w}.hands") from None
        acts = [action_from_json(a, n, f"{w}.actions[{j}]") for j, a in enumerate(_list(d["actions"], f"{w}.actions"))]
        result: DealResult | None = None
        if d["result"] is not None:
            rw = f"{w}.result"
            ro = _obj(d["result"], rw, _RESULT_KEYS)
            c = ro["contract"]
            if not isinstance(c, str) or c not in _CONTRACT_CODES:
                raise RecordError(f"{_show(c)} is not a contract (one of {', '.join(all_contracts)})", f"{rw}.contract")
            result = DealResult(_ints(ro["tricks"], n, f"{rw}.tricks"), _ints(ro["targets"], n, f"{rw}.targets"),
                                _ints(ro["diffs"], n, f"{rw}.diffs"), _ints(ro["scores"], n, f"{rw}.scores"),
                                _CONTRACT_CODES[c])
        elif i < len(raw_deals) - 1:
            raise RecordError("only the last deal of a record may be unfinished (result null)", f"{w}.result")
        deals.append(_Deal(number, dealer, hands, kitty, acts, result))
    totals = _ints(top["totals"], n, "totals")
    end: MatchEnd | None = None
    if top["end"] is not None:
        eo = _obj(top["end"], "end", ("winners", "reason"))
        wl = _list(eo["winners"], "end.winners")
        if not wl:
            raise RecordError("a finished match has at least one winner", "end.winners")
        winners = tuple(_seat(x, n, f"end.winners[{k}]") for k, x in enumerate(wl))
        end = MatchEnd.from_reason(winners, _str(eo["reason"], "end.reason"))
        if deals[-1].result is None:
            raise RecordError(f"the record gives an end ({end_text(end)}), but its last deal, deal {deals[-1].number}, "
                              "is unfinished (result null): a match in progress has \"end\": null", "end")
    return _Parsed(rules, names, kinds, seed, first, deals, totals, end)


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
        raise RecordError(f"the key {_show(twice[1])} is given twice in one object (JSON readers differ on which counts, "
                          "so a record gives each key once)", twice[0])
    if not isinstance(rec, dict):
        raise RecordError(f"a record is a JSON object, not {_show(rec)}")
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
    return doc, (_join(where, key), key)


def _first_twice(v: Any, where: str, twice: dict[int, str]) -> tuple[str, str]:
    """The path of the first object (in text order) of ``v`` that has a key given twice, and that key; ``("", "")``
    when there is none under ``v``."""
    if isinstance(v, dict):
        if id(v) in twice:
            return where, twice[id(v)]
        items: Any = ((_join(where, str(k)), x) for k, x in v.items())
    elif isinstance(v, list):
        items = ((f"{where}[{i}]", x) for i, x in enumerate(v))
    else:
        return "", ""
    for w, x in items:
        found = _first_twice(x, w, twice)
        if found[1]:
            return found
    return "", ""


class RecordCountError(RecordError):
    """A JSON Lines file of several records read without saying which one (or naming one it lacks).

    Attributes:
        count: the number of records in the file (>= 1).
        lines: the line number (1-based) of each record, in file order.
    """

    def __init__(self, message: str, count: int, lines: Sequence[int]) -> None:
        super().__init__(message)
        self.count = count
        self.lines = tuple(lines)


def split_records(text: str) -> list[tuple[int, str]]:
    """Split the text of a record file into its records: ``[(line, text)]`` with ``line`` the 1-based line
    number where each record starts.

    A file is either one JSON record (pretty-printed over many lines, as :func:`write_record` writes it, or
    on one line) or JSON Lines, one compact record a line, as ``sergeant-major simulate --out`` writes them
    (blank lines are skipped). It is taken as JSON Lines when it has more than one non-blank line and its
    first non-blank line is a whole JSON value by itself.
    """
    lines = text.splitlines()
    filled = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip()]
    if len(filled) > 1:
        try:
            json.loads(filled[0][1])
        except ValueError:
            pass
        else:
            return filled
    first = filled[0][0] if filled else 1
    return [(first, text)]


MAX_RECORD_FILE: Final = 1 << 30
"""The largest record file read, in bytes (1 GiB): a record of a whole match is about 3 to 25 kB as
``simulate --out`` writes it (7 kB on average for 9-5-2 to 10), so this holds some 150,000 matches."""


def _file_kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


class NotRegularFile(Exception):
    """:func:`read_regular_file` refused a path that is not a regular file; ``mode`` is its ``st_mode``."""

    def __init__(self, mode: int) -> None:
        super().__init__(_file_kind(mode))
        self.mode = mode


class FileTooLarge(Exception):
    """:func:`read_regular_file` refused a file of more than its ``limit`` bytes."""


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (records, ``tournament --merge`` files).

    A pipe is refused without waiting for a writer (opened non-blocking), and the size is checked before and
    after reading (the file may grow meanwhile).

    Raises:
        NotRegularFile: a folder, a pipe, a device or a socket (``e.mode``).
        FileTooLarge: more than ``limit`` bytes.
        OSError: from opening or reading (``FileNotFoundError``; ``IsADirectoryError`` where opening a folder fails).
        MemoryError: the file does not fit in the memory this process may use.
    """
    # O_NONBLOCK: opening a pipe must not wait for a writer (it is refused just below)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(st.st_mode)
        if st.st_size > limit:
            raise FileTooLarge(limit)
        data = f.read(limit + 1)  # the file may have grown since
    if len(data) > limit:
        raise FileTooLarge(limit)
    return data


def _read_text(p: Path) -> str:
    """The text of the record file ``p``: a regular file of at most :data:`MAX_RECORD_FILE` bytes, UTF-8."""
    try:
        data = read_regular_file(p, MAX_RECORD_FILE)
    except NotRegularFile as e:
        raise RecordError(f"{str(p)!r} is {_file_kind(e.mode)}, not a regular file; a record is a JSON text file") from None
    except FileTooLarge:
        raise RecordError(f"{str(p)!r} is larger than {MAX_RECORD_FILE:,} bytes, the most a record file may hold "
                          "(split a JSON Lines file into several)") from None
    except OSError as e:
        raise RecordError(f"cannot read the record {str(p)!r}: {e.strerror or e}") from None
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"{str(p)!r} is not UTF-8 text (byte {e.start}); a record is a JSON text file") from None
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None


def _at_line(e: RecordError, line: int) -> RecordError:
    """``e`` with its ``where`` prefixed by the line of a JSON Lines file."""
    msg = str(e)[len(e.where) + 2:] if e.where else str(e)
    if e.where.startswith("line "):  # a JSON syntax error: its column is within the line
        col = e.where.split("column", 1)[1].strip() if "column" in e.where else ""
        return RecordError(msg, f"line {line}" + (f" column {col}" if col else ""))
    return RecordError(msg, f"line {line}" + (f", {e.where}" if e.where else ""))


def read_records(path: str | Path) -> list[tuple[int, str]]:
    """The records of the file ``path`` unparsed, ``[(line, text)]`` (see :func:`split_records`); parse one
    with :func:`loads_record_at`.

    Raises:
        RecordError: when the file cannot be read, is not a regular file (a pipe, a device, a folder), is larger
            than :data:`MAX_RECORD_FILE` or than the memory allowed, or is not UTF-8 (the path and reason quoted).
    """
    p = Path(path)
    text = _read_text(p)
    try:
        return split_records(text)
    except MemoryError:
        raise RecordError(f"{str(p)!r} is too large to read in the memory this process may use") from None


def loads_record_at(text: str, line: int, json_lines: bool) -> dict[str, Any]:
    """:func:`loads_record`, naming the line (``where`` starts ``"line L"``) when ``json_lines`` is true."""
    if not json_lines:
        return loads_record(text)
    try:
        return loads_record(text)
    except RecordError as e:
        raise _at_line(e, line) from None


def read_record(path: str | Path, game: int | None = None) -> dict[str, Any]:
    """Read and validate the record file ``path`` (UTF-8 JSON); see :func:`loads_record`.

    Args:
        game: for a JSON Lines file of several records (``simulate --out``), which one, from 1; ``None``
            for a file holding one record.

    Raises:
        RecordError: when the file cannot be read or decoded, is not a regular file or is too large (the path and
            reason quoted; see :func:`read_records`), or is malformed (in a JSON Lines file ``where`` starts with
            the line number).
        RecordCountError: when the file holds several records and ``game`` is ``None``, or ``game`` is not
            one of them.
    """
    p = Path(path)
    recs = read_records(p)
    n = len(recs)
    if game is None and n > 1:
        raise RecordCountError(f"{str(p)!r} holds {n} records (JSON Lines, one match a line, lines "
                               f"{recs[0][0]}..{recs[-1][0]}); choose one by its number 1..{n}", n, [ln for ln, _ in recs])
    k = 1 if game is None else game
    if not 1 <= k <= n:
        what = "1 record" if n == 1 else f"{n} records, 1..{n}"
        raise RecordCountError(f"{str(p)!r} has no record {k}: it holds {what}", n, [ln for ln, _ in recs])
    line, text = recs[k - 1]
    return loads_record_at(text, line, n > 1)


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
