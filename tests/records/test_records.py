"""Game records: round trips, unfinished records, tampering, malformed files, the schema and the CLI."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import sergeant_major.cli.records  # noqa: F401  (registers replay and check)
from sergeant_major import CARDS, Card, HeuristicPlayer, Match, Play, RandomPlayer, Rules, drive
from sergeant_major.cli.app import app
from sergeant_major.core.errors import RecordError, SergeantMajorError
from sergeant_major.core.match import deal_cards
from sergeant_major.core.rules import OPTIONS
from sergeant_major.core.seeding import SEED_LIMIT, SEED_RANGE
from sergeant_major.players import Player, decision_rng
from sergeant_major.records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordCheckError,
    action_from_json,
    action_to_json,
    check_record,
    dumps_record,
    loads_record,
    match_from_record,
    match_to_record,
    read_record,
    replay_record,
    schema_path,
    write_record,
)

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cid", "Dee"]
LEVELS: dict[str, Callable[[], Player]] = {"random": RandomPlayer, "heuristic": HeuristicPlayer}


# ------------------------------------------------------------------------------------------ helpers
def new_match(rules: Rules, seed: int) -> Match:
    return Match(rules, seed, NAMES[: rules.players])


def players_of(levels: Sequence[str]) -> list[Player]:
    return [LEVELS[k]() for k in levels]


def drive_steps(match: Match, players: Sequence[Player], steps: int) -> None:
    """Like players.drive, but stop after ``steps`` actions (forced ones included)."""
    for _ in range(steps):
        if match.over:
            return
        forced = match.forced_action()
        if forced is not None:
            match.apply(forced)
            continue
        seat = match.to_act
        assert seat is not None
        deal = match.deal
        match.apply(players[seat].choose(match.view(seat), decision_rng(match.seed, seat, deal.number, len(deal.history))))


def deal_state(d: Any) -> tuple[Any, ...]:
    return (d.number, d.dealer, d.dealt, d.kitty_dealt, tuple(d.history), d.result, tuple(d.completed),
            tuple(d.exchange_log), d.targets, d.contract, tuple(d.hands), d.kitty, d.discards, d.phase, d.to_act,
            tuple(d.trick), tuple(d.tricks_won), d.prev_diffs)


def state(m: Match) -> tuple[Any, ...]:
    return (str(m.rules), m.seed, m.names, m.first_dealer, tuple(m.totals), m.end, tuple(m.results),
            [list(c) for c in m.contracts_used], [deal_state(d) for d in m.deals])


def played(rules_text: str, seed: int, levels: Sequence[str] = ("heuristic", "random", "heuristic"),
           steps: int | None = None) -> tuple[Match, dict[str, Any]]:
    rules = Rules.parse(rules_text)
    levels = list(levels)[: rules.players] + ["random"] * (rules.players - len(levels))
    m = new_match(rules, seed)
    pl = players_of(levels)
    if steps is None:
        drive(m, pl)
    else:
        drive_steps(m, pl, steps)
    return m, match_to_record(m, levels, {"test": True})


def round_trip(rec: dict[str, Any]) -> Match:
    text = dumps_record(rec)
    rec2 = loads_record(text)
    assert rec2 == rec
    assert dumps_record(rec2) == text  # stable text
    return match_from_record(rec2)


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    s: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(s)
    return s


def schema_ok(schema: dict[str, Any], rec: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(rec)


# ------------------------------------------------------------------------------------------ round trips
@pytest.mark.slow
@pytest.mark.parametrize("preset", Rules.preset_names())
@pytest.mark.parametrize("levels", [("heuristic", "heuristic", "heuristic"), ("random", "random", "random"),
                                    ("heuristic", "random", "heuristic")])
def test_whole_match_round_trip_every_preset(preset: str, levels: tuple[str, ...], schema: dict[str, Any]) -> None:
    m, rec = played(preset, seed=11, levels=levels)
    assert m.over
    assert rec["format"] == RECORD_FORMAT and rec["version"] == RECORD_VERSION
    assert rec["rules"] == str(m.rules) and rec["options"] == m.rules.options_dict()
    assert [p["kind"] for p in rec["players"]] == list(levels)
    assert [p["name"] for p in rec["players"]] == NAMES[:3]
    assert m.end is not None and rec["end"]["winners"] == list(m.end.winners)
    m2 = round_trip(rec)
    assert state(m2) == state(m)
    assert state(check_record(rec)) == state(m)
    assert schema_ok(schema, rec)


VARIANTS = [
    "9-5-2 exchange-count=at-most",
    "8-5-3 dealer-assigns-targets=on",
    "9-5-2 kitty=none",
    "9-5-2 players=4",
    "8-5-3 kitty=see-then-trump must-trump=on",
    "9-5-2 give=lowest return=overall",
    "9-5-2 must-overtrump=on kitty=blind-trump",
    "8-5-3 scoring=chips",
]


@pytest.mark.slow
@pytest.mark.parametrize("rules_text", VARIANTS)
def test_variants_round_trip(rules_text: str, schema: dict[str, Any]) -> None:
    levels = ("random",) * 4 if "at-most" in rules_text else ("heuristic", "random", "heuristic", "random")
    m, rec = played(rules_text, seed=5, levels=levels)
    assert state(round_trip(rec)) == state(m)
    check_record(rec)
    assert schema_ok(schema, rec)


def test_a_record_of_rules_whose_game_never_ends_still_loads(tmp_path: Path) -> None:
    """docs/rules.md decision 13: "8-5-3 players=4" (its only end, 12+ tricks, is all 12) is refused for a new game,
    but a record of such a match, begun before the refusal, still loads, replays and checks; a new game from it not."""
    rules = Rules.parse("8-5-3 players=4", check_end=False)
    m = new_match(rules, 4)
    pl = players_of(("heuristic", "random", "heuristic", "random"))
    drive(m, pl, until_deal_end=True)
    drive(m, pl, until_deal_end=True)
    rec = match_to_record(m, ["heuristic", "random", "heuristic", "random"], {"test": True})
    assert rec["rules"] == "8-5-3 players=4 targets=5-3-2-2" and rec["end"] is None
    assert state(round_trip(rec)) == state(m) and state(check_record(rec)) == state(m)
    path = write_record(m, tmp_path / "old.json", ["heuristic", "random", "heuristic", "random"], {"test": True})
    assert read_record(path) == rec
    res = CliRunner().invoke(app, ["check", str(path)])
    assert res.exit_code == 0, res.output
    with pytest.raises(SergeantMajorError, match="instant-win=12 needs all 12 tricks of a deal"):
        Rules.parse(rec["rules"])


def test_every_action_kind_is_recorded_and_parsed_back() -> None:
    seen: set[str] = set()
    for text in ("9-5-2 exchange-count=at-most", "8-5-3 dealer-assigns-targets=on"):
        for seed in range(4):
            m, rec = played(text, seed, ("random", "random", "random"))
            for d in m.deals:
                for a in d.history:
                    obj = action_to_json(a)
                    assert action_from_json(json.loads(json.dumps(obj)), 3) == a
                    seen.add(type(a).__name__)
    assert seen == {"AssignTargets", "NameContract", "Give", "EndGive", "Return", "TakeKitty", "Discard", "Play"}


def test_record_holds_hands_in_dealt_order_and_actions_with_forced_ones() -> None:
    m, rec = played("9-5-2", seed=3, levels=("heuristic",) * 3)
    d0 = rec["deals"][0]
    assert d0["hands"] == [[str(c) for c in h] for h in m.deals[0].dealt]
    assert d0["kitty"] == [str(c) for c in m.deals[0].kitty_dealt]
    assert {"seat": m.deals[0].declarer, "kitty": "take"} in d0["actions"]  # a forced action is recorded
    assert len(d0["actions"]) == len(m.deals[0].history)
    assert d0["result"]["tricks"] == list(m.results[0].tricks)
    assert d0["result"]["contract"] == m.results[0].contract.code
    rep = replay_record(rec)
    assert rep.error is None
    kitty_index = d0["actions"].index({"seat": m.deals[0].declarer, "kitty": "take"})
    assert rep.forced[0][kitty_index] is True
    first_play = next(i for i, a in enumerate(d0["actions"]) if "play" in a)
    assert rep.forced[0][first_play] is False


def test_dumps_one_action_per_line() -> None:
    _, rec = played("9-5-2", seed=1)
    text = dumps_record(rec)
    first = rec["deals"][0]["actions"][0]
    assert "\n" + " " * 8 + json.dumps(first, separators=(", ", ": ")) + ",\n" in text
    assert text.endswith("}\n")


# ------------------------------------------------------------------------------------------ unfinished records
@pytest.mark.parametrize("preset", Rules.preset_names())
def test_unfinished_record_rebuilds_and_continues_exactly(preset: str) -> None:
    rules = Rules.preset(preset)
    levels = ("heuristic", "random", "heuristic")
    full = new_match(rules, 21)
    drive(full, players_of(levels))
    part = new_match(rules, 21)
    # into the second deal, mid deal: the first deal's actions plus 30 more
    drive_steps(part, players_of(levels), len(full.deals[0].history) + 30)
    assert len(part.deals) == 2 and part.deal.result is None and 0 < len(part.deal.history)
    rec = match_to_record(part, levels)
    assert rec["deals"][-1]["result"] is None and rec["end"] is None
    again = round_trip(rec)
    assert state(again) == state(part)
    assert state(check_record(rec)) == state(part)
    drive(again, players_of(levels))
    assert state(again) == state(full)


def test_recorded_hands_win_over_the_seed() -> None:
    """Deals in the record come from the recorded hands (here not the seed's); later deals from the seed."""
    rules = Rules.preset("9-5-2")

    def other_cards(number: int, dealer: int) -> tuple[list[list[Card]], list[Card]] | None:
        return deal_cards(rules, 999, number, dealer) if number <= 2 else None

    levels = ("heuristic", "heuristic", "random")
    full = Match(rules, 1, NAMES[:3], cards=other_cards)
    drive(full, players_of(levels))
    assert len(full.deals) > 2
    assert full.deals[0].dealt != tuple(tuple(h) for h in deal_cards(rules, 1, 1, full.first_dealer)[0])
    part = Match(rules, 1, NAMES[:3], cards=other_cards)
    drive_steps(part, players_of(levels), len(full.deals[0].history) + 5)
    again = round_trip(match_to_record(part, levels))
    assert state(again) == state(part)
    drive(again, players_of(levels))
    assert state(again) == state(full)


def test_record_between_deals_has_an_empty_last_deal() -> None:
    full, _ = played("9-5-2", seed=2, levels=("heuristic",) * 3)
    part, rec = played("9-5-2", seed=2, levels=("heuristic",) * 3, steps=len(full.deals[0].history))
    assert rec["deals"][-1]["actions"] == [] and rec["deals"][-1]["result"] is None
    assert state(round_trip(rec)) == state(part)
    check_record(rec)


def test_unfinished_record_may_only_leave_the_last_deal_open() -> None:
    _, rec = played("9-5-2", seed=4, levels=("random",) * 3)
    assert len(rec["deals"]) > 2
    rec["deals"][0]["result"] = None
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps(rec))
    assert e.value.where == "deals[0].result"


# ------------------------------------------------------------------------------------------ tampering
def _first_deal_positions(rec: dict[str, Any]) -> list[tuple[int, Match]]:
    """(index, match just before that action) for every play of deal 1 that follows a lead."""
    out = []
    m = Match(Rules.parse(rec["rules"]), rec["seed"], [p["name"] for p in rec["players"]], dealer=rec["first_dealer"])
    for j, obj in enumerate(rec["deals"][0]["actions"]):
        a = action_from_json(obj, m.rules.players)
        if isinstance(a, Play) and m.deal.trick:
            out.append((j, copy.deepcopy(m)))
        m.apply(a)
    return out


def test_check_names_a_revoke() -> None:
    _, rec = played("9-5-2", seed=7, levels=("random",) * 3)
    chances = [(i, m) for i, m in _first_deal_positions(rec) if m.deal.hands[m.deal.to_play] & ~m.deal.legal_play_mask()]
    assert chances, "no chance to revoke in deal 1"
    j, m = chances[0]
    seat = m.deal.to_play
    revokes = m.deal.hands[seat] & ~m.deal.legal_play_mask()
    bad = CARDS[(revokes & -revokes).bit_length() - 1]
    rec["deals"][0]["actions"][j] = {"seat": seat, "play": str(bad)}
    with pytest.raises(RecordCheckError) as e:
        match_from_record(rec)
    err = e.value
    assert (err.deal, err.action_index, err.seat, err.rule) == (1, j, seat, "follow suit")
    assert err.where == f"deals[0].actions[{j}]"
    assert str(bad) in err.action_text and NAMES[seat] in err.action_text
    assert f"action {j + 1}" in str(err) and "revoke" in str(err)
    assert isinstance(err, SergeantMajorError) and isinstance(err, RecordError)


def test_check_names_a_card_not_held_and_a_wrong_turn() -> None:
    _, rec = played("8-5-3", seed=8)
    j, m = _first_deal_positions(rec)[3]
    d = m.deal
    seat = d.to_play
    other = next(s for s in range(3) if s != seat and d.hands[s])
    stolen = d.hand(other)[0]
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"][j] = {"seat": seat, "play": str(stolen)}
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.deal, e.value.action_index, e.value.seat, e.value.rule) == (1, j, seat, "card not held")
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"][j]["seat"] = other
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.action_index, e.value.seat, e.value.rule) == (j, other, "turn")


def test_check_detects_results_totals_and_end_that_differ() -> None:
    _, rec = played("9-5-2", seed=9, levels=("random",) * 3)
    check_record(rec)
    bad = copy.deepcopy(rec)
    bad["deals"][0]["result"]["scores"][0] += 1
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.rule, e.value.deal, e.value.where) == ("result", 1, "deals[0].result.scores")
    match_from_record(bad)  # the actions themselves are legal
    bad = copy.deepcopy(rec)
    bad["totals"][1] -= 3
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.rule, e.value.where) == ("totals", "totals")
    bad = copy.deepcopy(rec)
    bad["end"]["winners"] = [(w + 1) % 3 for w in rec["end"]["winners"]]
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.rule, e.value.where) == ("end", "end.winners")
    bad = copy.deepcopy(rec)
    bad["end"] = None
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert e.value.rule == "end"


def test_check_detects_extra_and_missing_actions() -> None:
    _, rec = played("9-5-2", seed=4, levels=("random",) * 3)
    assert len(rec["deals"]) > 2
    bad = copy.deepcopy(rec)
    first_of_next = rec["deals"][1]["actions"][0]
    bad["deals"][0]["actions"].append(first_of_next)
    with pytest.raises(RecordCheckError) as e:
        match_from_record(bad)
    assert (e.value.rule, e.value.deal, e.value.action_index) == ("deal over", 1, len(rec["deals"][0]["actions"]))
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"].pop()
    with pytest.raises(RecordCheckError) as e:
        match_from_record(bad)
    assert (e.value.rule, e.value.deal, e.value.where) == ("deal incomplete", 1, "deals[0].actions")
    bad = copy.deepcopy(rec)
    extra = copy.deepcopy(rec["deals"][-1])
    extra["number"] = len(rec["deals"]) + 1
    extra["dealer"] = (extra["dealer"] + 1) % 3
    bad["deals"].append(extra)
    with pytest.raises(RecordCheckError) as e:
        match_from_record(bad)
    assert e.value.rule == "match over"


def test_forced_actions_cannot_be_left_out() -> None:
    _, rec = played("9-5-2", seed=3, levels=("heuristic",) * 3)
    acts = rec["deals"][0]["actions"]
    k = next(i for i, a in enumerate(acts) if "kitty" in a)
    del acts[k]
    with pytest.raises(RecordCheckError) as e:
        match_from_record(rec)
    assert (e.value.action_index, e.value.rule) == (k, "phase")


# ------------------------------------------------------------------------------------------ malformed files
@pytest.fixture(scope="module")
def good_text() -> str:
    _, rec = played("9-5-2", seed=12, levels=("heuristic",) * 3)
    return dumps_record(rec)


def _mutate(text: str, fn: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads(text)
    fn(rec)
    return rec


def _set(path: Sequence[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def fn(rec: dict[str, Any]) -> None:
        obj: Any = rec
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return fn


def _delete(path: Sequence[Any]) -> Callable[[dict[str, Any]], None]:
    def fn(rec: dict[str, Any]) -> None:
        obj: Any = rec
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return fn


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str, bool]] = [
    # (label, mutation, expected where, the schema rejects it too)
    ("wrong version", _set(["version"], 2), "version", True),
    ("version as text", _set(["version"], "1"), "version", True),
    ("wrong format", _set(["format"], "pgn"), "format", True),
    ("bad card in a hand", _set(["deals", 0, "hands", 1, 3], "ZZ"), "deals[0].hands[1][3]", True),
    ("non-canonical card", _set(["deals", 0, "kitty", 0], "10H"), "deals[0].kitty[0]", True),
    ("bad card in an action", _set(["deals", 1, "actions", -1, "play"], "ZZ"), "deals[1].actions[{last}].play", True),
    ("missing seed", _delete(["seed"]), "seed", True),
    ("missing kitty", _delete(["deals", 0, "kitty"]), "deals[0].kitty", True),
    ("missing action seat", _delete(["deals", 0, "actions", 2, "seat"]), "deals[0].actions[2].seat", True),
    ("seed as text", _set(["seed"], "12"), "seed", True),
    ("seat out of range", _set(["deals", 0, "actions", 0, "seat"], 5), "deals[0].actions[0].seat", True),
    ("seat as bool", _set(["first_dealer"], True), "first_dealer", True),
    ("unknown key", _set(["deals", 0, "colour"], "red"), "deals[0].colour", True),
    ("two kinds in one action", _set(["deals", 0, "actions", 0, "discard"], "2C"), "deals[0].actions[0]", True),
    ("bad contract", _set(["deals", 0, "result", "contract"], "X"), "deals[0].result.contract", True),
    ("players not a list", _set(["players"], "Ann"), "players", True),
    ("player name missing", _delete(["players", 1, "name"]), "players[1].name", True),
    ("totals too short", _set(["totals"], [1, 2]), "totals", True),
    ("end without winners", _set(["end"], {"winners": [], "reason": "x"}), "end.winners", True),
    ("deals empty", _set(["deals"], []), "deals", True),
    ("escape sequences in a name", _set(["players", 1, "name"], "\x1b]0;pwned\x07\x1b[2J\x1b[31mBob"), "players[1].name", True),
    ("a bidi override in a name", _set(["players", 0, "name"], "Ann\u202e"), "players[0].name", True),
    ("a C1 control in a kind", _set(["players", 2, "kind"], "random\x9b"), "players[2].kind", True),
    # only the program's own reader sees these
    ("unknown rules", _set(["rules"], "7-7-2"), "rules", False),
    ("options disagree with rules", _set(["options", "to"], "20"), "options.to", False),
    ("duplicated card", _set(["deals", 0, "kitty", 0], "{hand00}"), "deals[0].hands", False),
    ("wrong dealer", _set(["deals", 1, "dealer"], "{dealer1+1}"), "deals[1].dealer", False),
    ("deals misnumbered", _set(["deals", 1, "number"], 5), "deals[1].number", False),
]


@pytest.mark.parametrize(("label", "mutation", "where", "schema_rejects"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_name_the_place(label: str, mutation: Callable[[dict[str, Any]], None], where: str,
                                          schema_rejects: bool, good_text: str, schema: dict[str, Any]) -> None:
    base = json.loads(good_text)
    where = where.replace("{last}", str(len(base["deals"][1]["actions"]) - 1))
    rec = _mutate(good_text, mutation)
    # placeholders that depend on the record
    if rec["deals"] and rec["deals"][0].get("kitty", [None])[0] == "{hand00}":
        rec["deals"][0]["kitty"][0] = base["deals"][0]["hands"][0][0]
    if len(rec["deals"]) > 1 and rec["deals"][1].get("dealer") == "{dealer1+1}":
        rec["deals"][1]["dealer"] = (base["deals"][1]["dealer"] + 1) % 3
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps(rec))
    assert e.value.where == where, str(e.value)
    assert str(e.value).startswith(f"{where}: ")
    assert schema_ok(schema, rec) is not schema_rejects


def test_short_kitty_names_the_rules_not_a_player_kind(good_text: str) -> None:
    rec = json.loads(good_text)
    rec["deals"][0]["kitty"] = rec["deals"][0]["kitty"][:1]
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps(rec))
    assert e.value.where == "deals[0].kitty"
    assert "the rules '9-5-2' give 4" in str(e.value), str(e.value)


def test_truncated_json_gives_the_line(good_text: str, tmp_path: Path) -> None:
    cut = good_text[: len(good_text) // 2]
    with pytest.raises(RecordError) as e:
        loads_record(cut)
    line = cut.count("\n") + 1
    assert e.value.where.startswith(f"line {line} column ") or e.value.where.startswith(f"line {line - 1} column ")
    assert "not valid JSON" in str(e.value)
    p = tmp_path / "cut.json"
    p.write_text(cut, encoding="utf-8")
    with pytest.raises(RecordError):
        read_record(p)


@pytest.mark.parametrize("text", ["", "[]", "null", "42", '{"format": "sergeant-major-record", "version": NaN}'])
def test_not_a_record(text: str) -> None:
    with pytest.raises(RecordError):
        loads_record(text)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as e:
        read_record(tmp_path / "missing.json")
    assert "missing.json" in str(e.value)
    p = tmp_path / "latin1.json"
    p.write_bytes(b"{\"name\": \"J\xf6rg\"}")
    with pytest.raises(RecordError) as e:
        read_record(p)
    assert "UTF-8" in str(e.value)
    with pytest.raises(RecordError):
        read_record(tmp_path)  # a folder


def test_action_from_json_errors() -> None:
    for obj, where in [({"seat": 0}, "a"), ("play QS", "a"), ({"seat": 0, "give": "QS"}, "a.to"),
                       ({"seat": 0, "play": "QS", "to": 1}, "a.to"), ({"seat": 0, "kitty": "leave"}, "a.kitty"),
                       ({"seat": 0, "end_give": 1, "to": 1}, "a.end_give"), ({"seat": 0, "assign": [9, 5]}, "a.assign")]:
        with pytest.raises(RecordError) as e:
            action_from_json(obj, 3, "a")
        assert e.value.where == where, (obj, str(e.value))


# ------------------------------------------------------------------------------------------ writing
def test_write_record_is_atomic_and_readable(tmp_path: Path) -> None:
    m, rec = played("3-5-8", seed=13, steps=200)
    p = write_record(m, tmp_path / "game.json", ["heuristic", "random", "heuristic"], {"test": True})
    assert p == tmp_path / "game.json"
    assert read_record(p) == rec
    assert [x.name for x in tmp_path.iterdir()] == ["game.json"]  # no temporary file left
    write_record(m, p, ["heuristic", "random", "heuristic"], {"test": True})  # overwrite
    assert read_record(p) == rec
    with pytest.raises(RecordError):
        write_record(m, tmp_path / "no" / "such" / "dir.json", ["human"] * 3)
    with pytest.raises(RecordError) as e:
        match_to_record(m, ["human", "human"])
    assert e.value.where == "players"
    with pytest.raises(RecordError) as e:
        match_to_record(m, ["human"] * 3, {"when": object()})
    assert e.value.where == "meta"


# ------------------------------------------------------------------------------------------ schema
def test_schema_knows_every_option(schema: dict[str, Any]) -> None:
    opts = schema["properties"]["options"]
    assert sorted(opts["required"]) == sorted(o.key for o in OPTIONS)
    assert schema["properties"]["version"]["const"] == RECORD_VERSION


def test_sample_records_are_valid(schema: dict[str, Any]) -> None:
    samples = sorted(DATA.glob("*.json"))
    assert samples
    for p in samples:
        rec = read_record(p)
        assert schema_ok(schema, rec), p
        if "tampered" in p.name:
            with pytest.raises(RecordCheckError):
                check_record(rec)
        else:
            check_record(rec)


# ------------------------------------------------------------------------------------------ property test
@given(preset=st.sampled_from(Rules.preset_names()), seed=st.integers(0, 2**40),
       levels=st.lists(st.sampled_from(sorted(LEVELS)), min_size=3, max_size=3),
       steps=st.one_of(st.none(), st.integers(0, 400)))
def test_property_records_round_trip(preset: str, seed: int, levels: list[str], steps: int | None) -> None:
    """Random games (whole or cut after ``steps`` actions) round-trip and replay to the identical state.
    Examples per run: the hypothesis profile of tests/conftest.py (``ci``: 25)."""
    m, rec = played(preset, seed, levels, steps)
    again = round_trip(rec)
    assert state(again) == state(m)
    assert state(check_record(rec)) == state(m)


# ------------------------------------------------------------------------------------------ command line
runner = CliRunner()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("records")
    m, rec = played("9-5-2", seed=7, levels=("random",) * 3)
    good = write_record(m, d / "good.json", ["random"] * 3)
    bad = copy.deepcopy(rec)
    j, mm = _first_deal_positions(rec)[0]
    seat = mm.deal.to_play
    other = next(s for s in range(3) if s != seat)
    bad["deals"][0]["actions"][j] = {"seat": seat, "play": str(mm.deal.hand(other)[0])}
    (d / "bad.json").write_text(dumps_record(bad), encoding="utf-8")
    (d / "broken.json").write_text(dumps_record(rec)[:500], encoding="utf-8")
    part, _ = played("3-5-8", seed=7, steps=250)
    write_record(part, d / "part.json", ["human", "heuristic", "random"])
    return {"good": good, "bad": d / "bad.json", "broken": d / "broken.json", "part": d / "part.json",
            "j": Path(str(j + 1)), "seat": Path(str(seat))}


def test_cli_check_ok(files: dict[str, Path]) -> None:
    res = runner.invoke(app, ["check", str(files["good"])])
    assert res.exit_code == 0, res.output
    rec = read_record(files["good"])
    totals = ", ".join(f"{p['name']} {f'{t:+d}' if t else '0'}" for p, t in zip(rec["players"], rec["totals"], strict=True))
    assert f"Final totals: {totals}" in res.output
    assert "Winner:" in res.output


def test_cli_check_unfinished(files: dict[str, Path]) -> None:
    res = runner.invoke(app, ["check", str(files["part"])])
    assert res.exit_code == 0, res.output
    assert "Unfinished" in res.output
    # it said "Final totals: ..." of a match still being played, then "Unfinished"
    assert "Final totals" not in res.output and "\nTotals so far: " in res.output, res.output


def test_cli_check_illegal(files: dict[str, Path]) -> None:
    res = runner.invoke(app, ["check", str(files["bad"])])
    assert res.exit_code == 1
    out = res.output
    assert f"deal 1, action {files['j']} (seat {files['seat']}:" in out
    assert "card not held" in out
    assert "Traceback" not in out
    # told once, in the third person, naming the seat and the player
    assert out.count("card not held") == 1 and out.count("\n") == 1
    assert " you " not in out.lower() and f"seat {files['seat']} ({NAMES[int(str(files['seat']))]}) does not hold" in out


def test_cli_check_and_replay_name_the_file_of_an_illegal_record(files: dict[str, Path]) -> None:
    """``check FILE`` of an illegal record said 'error: deal 1, action 8 ...' without the file, where ``review
    FILE`` says 'error: FILE: deal 1, ...': check and replay now name the file first too."""
    for cmd in ("check", "replay"):
        res = runner.invoke(app, [cmd, str(files["bad"])])
        assert res.exit_code == 1
        assert f"error: {files['bad']}: deal 1, action {files['j']} (seat {files['seat']}:" in res.output, res.output
    res = runner.invoke(app, ["check", str(files["bad"]), "--game", "1"])
    assert res.exit_code == 1 and f"error: {files['bad']} record 1: deal 1, action {files['j']} " in res.output


def test_cli_check_malformed(files: dict[str, Path], tmp_path: Path) -> None:
    res = runner.invoke(app, ["check", str(files["broken"])])
    assert res.exit_code == 2
    assert "not valid JSON" in res.output and "line " in res.output
    res = runner.invoke(app, ["check", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and "cannot read" in res.output
    rec = json.loads(files["good"].read_text(encoding="utf-8"))
    rec["deals"][0]["hands"][0][0] = "ZZ"
    p = tmp_path / "zz.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(p)])
    assert res.exit_code == 2 and "deals[0].hands[0][0]" in res.output and '"ZZ"' in res.output


def test_cli_replay(files: dict[str, Path]) -> None:
    res = runner.invoke(app, ["replay", str(files["good"])])
    assert res.exit_code == 0, res.output
    out = res.output
    rec = read_record(files["good"])
    n_deals = len(rec["deals"])
    for k in range(1, n_deals + 1):
        assert f"Deal {k}" in out
    for word in ("Dealer:", "Hands as dealt", "Kitty:", "Tricks", "Won by", "Result of deal 1", "Totals", "Winner:"):
        assert word in out
    assert " ".join(rec["deals"][0]["kitty"]) in out
    assert "(forced)" in out  # the kitty is always taken


def test_cli_replay_and_check_say_the_bound_of_9_2_5_as_the_terminal_does(tmp_path: Path) -> None:
    """``replay`` and ``check`` of a 9-2-5 record said 'Winner: ... - a total reached +-15; ...', the record's words:
    they now say '±15' as the terminal's top line does, and the record is still checked word for word."""
    m = Match(Rules.parse("9-2-5"), 0, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3)
    p = tmp_path / "m.json"
    write_record(m, p, ["human", "heuristic", "heuristic"])
    assert read_record(p)["end"]["reason"] == "a total reached +-15; the highest total (15) wins"
    for cmd in ("replay", "check"):
        res = runner.invoke(app, [cmd, str(p)])
        assert res.exit_code == 0, res.output
        assert "Winner: Cleo - a total reached ±15; the highest total (15) wins" in res.output, res.output
        assert "+-" not in res.output, res.output


def test_cli_replay_one_deal_and_errors(files: dict[str, Path]) -> None:
    res = runner.invoke(app, ["replay", str(files["good"]), "--deal", "2"])
    assert res.exit_code == 0, res.output
    assert "Deal 2" in res.output and "Deal 1" not in res.output and "Result of deal 2" in res.output
    res = runner.invoke(app, ["replay", str(files["good"]), "--deal", "999"])
    assert res.exit_code == 2 and "--deal 999" in res.output
    res = runner.invoke(app, ["replay", str(files["bad"])])
    assert res.exit_code == 1
    assert "Deal 1" in res.output and "card not held" in res.output
    res = runner.invoke(app, ["replay", str(files["part"])])  # a person's match in progress: no spoilers unasked
    assert res.exit_code == 2 and "still being played" in res.output
    res = runner.invoke(app, ["replay", str(files["part"]), "--spoilers"])
    assert res.exit_code == 0, res.output
    assert "unfinished" in res.output and "First 6 dealt" in res.output


def _script() -> Path:
    p = Path(sys.executable).parent / "sergeant-major"
    return p if p.exists() else ROOT / ".venv" / "bin" / "sergeant-major"


def test_installed_script_check_exit_codes(files: dict[str, Path]) -> None:
    script = _script()
    if not script.exists():
        pytest.skip("the sergeant-major script is not installed")
    env = dict(os.environ, COLUMNS="120")
    ok = subprocess.run([str(script), "check", str(files["good"])], capture_output=True, text=True, env=env, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "Final totals:" in ok.stdout
    bad = subprocess.run([str(script), "check", str(files["bad"])], capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 1
    assert "card not held" in bad.stderr and "Traceback" not in bad.stderr
    broken = subprocess.run([str(script), "check", str(files["broken"])], capture_output=True, text=True, env=env,
                            timeout=120)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("args", "lines"), [
    (["replay", "GOOD"], 1),  # rich's console
    (["rules"], 1),
    (["check", "GOOD"], 0),
    (["simulate", "--games", "1", "--workers", "1", "--json"], 0),  # sys.stdout.write, flushed at the end
])
def test_installed_script_ends_quietly_when_its_reader_stops(files: dict[str, Path], args: list[str], lines: int) -> None:
    """``sergeant-major replay FILE | head -1`` (or ``| true``): the reader closes the pipe after ``lines`` lines and
    the command ends as Unix tools do, with status 141 (128 + SIGPIPE) and nothing more on stderr than when all its output
    is read (it was status 1)."""
    import fcntl

    script = _script()
    if not script.exists():
        pytest.skip("the sergeant-major script is not installed")
    if not hasattr(fcntl, "F_SETPIPE_SZ"):
        pytest.skip("the size of a pipe cannot be set here")
    args = [str(files["good"]) if a == "GOOD" else a for a in args]
    env = dict(os.environ, COLUMNS="120")
    r, w = os.pipe()
    size = fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)  # a page: what follows the first line does not fit in the pipe
    proc = subprocess.Popen([str(script), *args], stdout=w, stderr=subprocess.PIPE, env=env)
    os.close(w)
    with os.fdopen(r, "rb", buffering=0) as reader:  # unbuffered: a line is read byte by byte, nothing more
        read = sum(len(reader.readline()) for _ in range(lines))
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    full = subprocess.run([str(script), *args], capture_output=True, env=env, timeout=120)
    assert full.returncode == 0 and len(full.stdout) > (read + size if lines else 0)  # the pipe closed before the last write
    assert proc.returncode == 141 and err == full.stderr, (proc.returncode, err.decode())  # no traceback, no message


def test_write_record_keeps_the_usual_file_mode(tmp_path: Path) -> None:
    m, _ = played("9-5-2", seed=1, steps=20)
    p = write_record(m, tmp_path / "new.json", ["human"] * 3)
    umask = os.umask(0)
    os.umask(umask)
    assert p.stat().st_mode & 0o777 == 0o666 & ~umask
    p.chmod(0o640)
    write_record(m, p, ["human"] * 3)
    assert p.stat().st_mode & 0o777 == 0o640


# ------------------------------------------------------------------------------------------ JSON Lines, faults
def _jsonl(tmp_path: Path, recs: list[dict[str, Any]], name: str = "games.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def jsonl_recs() -> list[dict[str, Any]]:
    return [played("9-5-2", seed=s, levels=("random",) * 3)[1] for s in (3, 4, 5)]


def test_read_record_json_lines(tmp_path: Path, jsonl_recs: list[dict[str, Any]]) -> None:
    from sergeant_major.records import RecordCountError, read_records

    p = _jsonl(tmp_path, jsonl_recs)
    assert [ln for ln, _ in read_records(p)] == [1, 2, 3]
    assert read_record(p, 2) == jsonl_recs[1]
    with pytest.raises(RecordCountError, match="3 records") as ei:
        read_record(p)
    assert ei.value.count == 3
    with pytest.raises(RecordCountError, match="no record 4"):
        read_record(p, 4)
    # a pretty-printed single record is one record, and game 1 is it
    one = tmp_path / "one.json"
    one.write_text(dumps_record(jsonl_recs[0]), encoding="utf-8")
    assert read_record(one) == read_record(one, 1) == jsonl_recs[0]
    # an error in a JSON Lines record names its line
    bad = tmp_path / "bad.jsonl"
    bad.write_text(p.read_text(encoding="utf-8") + "\n" + '{"format": 1}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"^line 5"):
        read_record(bad, 4)


def test_check_of_json_lines_names_each_total(tmp_path: Path) -> None:
    """The repro: ``check`` of ``simulate --out`` records said "totals -8 +9 -1; winner 1:heuristic", the totals in seat
    order while simulate rotates its players through the seats (seat 0 was 3:random): read as players 1, 2, 3, the
    winner had -8. Now each total is named."""
    rec = played("9-5-2", seed=3, levels=("random",) * 3)[1]
    for p, name in zip(rec["players"], ("3:random", "1:heuristic", "2:random"), strict=True):
        rec["end"]["reason"] = rec["end"]["reason"].replace(p["name"], name)  # the end reason names players too
        p["name"] = name  # as simulate names them, its third player at seat 0
    recs = [rec, copy.deepcopy(rec)]
    res = runner.invoke(app, ["check", str(_jsonl(tmp_path, recs))])
    assert res.exit_code == 0, res.output
    t = recs[0]["totals"]
    want = f"; totals 3:random {t[0]:+d}, 1:heuristic {t[1]:+d}, 2:random {t[2]:+d}; ".replace("+0", "0")
    assert res.output.count(want) == 2, res.output


def test_cli_json_lines_check_replay_analyze(tmp_path: Path, jsonl_recs: list[dict[str, Any]]) -> None:
    from sergeant_major.cli.app import register_commands

    register_commands()  # play and analyze too

    p = _jsonl(tmp_path, jsonl_recs)
    res = runner.invoke(app, ["check", str(p)])
    assert res.exit_code == 0, res.output
    assert "3 records: 3 legal, 0 illegal" in res.output
    assert all(f"record {k} (line {k}): OK" in res.output for k in (1, 2, 3))
    res = runner.invoke(app, ["check", str(p), "--game", "2"])
    assert res.exit_code == 0 and "record 2" in res.output
    for cmd in (["replay", str(p)], ["analyze", str(p)]):
        res = runner.invoke(app, cmd)
        assert res.exit_code == 2
        assert "3 records" in res.output and "--game N" in res.output and "Extra data" not in res.output
    res = runner.invoke(app, ["replay", str(p), "--game", "3"])
    assert res.exit_code == 0, res.output
    assert "Winner:" in res.output
    res = runner.invoke(app, ["replay", str(p), "--game", "9"])
    assert res.exit_code == 2 and "--game 9" in res.output
    res = runner.invoke(app, ["analyze", str(p), "--game", "2", "--no-table", "-t", "0.05", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["deals"][0]["deal"] == 1  # stdout: a slow warm-up says so on stderr first
    # one illegal record: exit 1 naming its line; the others still reported
    bad = copy.deepcopy(jsonl_recs[1])
    j, mm = _first_deal_positions(bad)[0]
    seat = mm.deal.to_play
    other = next(s for s in range(3) if s != seat)
    bad["deals"][0]["actions"][j] = {"seat": seat, "play": str(mm.deal.hand(other)[0])}
    q = _jsonl(tmp_path, [jsonl_recs[0], bad, jsonl_recs[2]], "mixed.jsonl")
    res = runner.invoke(app, ["check", str(q)])
    assert res.exit_code == 1
    assert f"error: {q} record 2 (line 2): deal 1, action {j + 1} " in res.output, res.output  # file, record, line
    assert "1 illegal (line 2)" in res.output
    assert "record 3 (line 3): OK" in res.output


@pytest.mark.parametrize(("line", "said"), [
    ('{"format": \n', 'malformed: column 12: not valid JSON: '),
    ("[1, 2]\n", "malformed: a record is a JSON object, not [1, 2]"),
    ('{"format": "sergeant-major-record"}\n', "malformed: version: missing required key 'version'"),
], ids=["syntax", "not-an-object", "a-field"])
def test_check_of_json_lines_names_a_malformed_records_line_once(line: str, said: str, tmp_path: Path,
                                                                    jsonl_recs: list[dict[str, Any]]) -> None:
    """The repro: ``check`` of a JSON Lines file with one bad line said 'record 2 (line 2): malformed: line 2 column
    12: ...', the line twice; it is named once now, the column or the field after it."""
    p = _jsonl(tmp_path, jsonl_recs[:2])
    first, second = p.read_text(encoding="utf-8").splitlines(keepends=True)
    p.write_text(first + line + second, encoding="utf-8")
    res = runner.invoke(app, ["check", str(p)])
    assert res.exit_code == 2, res.output
    assert f"error: {p} record 2 (line 2): {said}" in res.output, res.output
    assert res.output.count("line 2") == 2 and "1 malformed (line 2)" in res.output, res.output  # the error, the summary


def test_cli_replay_reports_removed_deals(tmp_path: Path) -> None:
    """Deals cut from a record: replay reports the totals that do not follow (exit 1) and invents no deal."""
    _, rec = played("9-5-2", seed=7, levels=("random",) * 3)
    assert len(rec["deals"]) >= 3
    cut = copy.deepcopy(rec)
    del cut["deals"][2:]
    p = tmp_path / "cut.json"
    p.write_text(dumps_record(cut), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(p)])
    assert res.exit_code == 1
    assert "Deal 3" not in res.output and "unfinished: exchange" not in res.output
    assert "totals" in res.output
    res = runner.invoke(app, ["check", str(p)])
    assert res.exit_code == 1 and "totals" in res.output


def test_replay_grammar_with_the_name_you(tmp_path: Path) -> None:
    """A terminal match's human is called "You": "You return", never "You returns"."""
    m = Match(Rules.preset("9-5-2"), 7, ["You", "Bob", "Cleo"])
    drive(m, [RandomPlayer(), RandomPlayer(), RandomPlayer()])
    p = write_record(m, tmp_path / "you.json", ["random"] * 3)
    res = runner.invoke(app, ["replay", str(p)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "You play" in res.output or "You take" in res.output or "You return" in res.output or "You give" in res.output
    for verb in ("plays", "takes", "returns", "gives", "discards", "names"):
        assert f"You {verb}" not in res.output


def test_third_person_fault_messages() -> None:
    from sergeant_major.records import third_person

    assert third_person("revoke: clubs were led and you hold 5C KC; you must follow suit, not play 5H", "seat 2 (Ann)") == \
        "revoke: clubs were led and seat 2 (Ann) holds 5C KC; they must follow suit, not play 5H"
    assert third_person("you do not hold 2C", "seat 1 (Bob)") == "seat 1 (Bob) does not hold 2C"


def test_truncated_file_message_ends_in_a_whole_phrase() -> None:
    """A record cut short in a string: the message names the place and does not end mid-phrase ("... at")."""
    with pytest.raises(RecordError) as e:
        loads_record('{"format": "sergeant-major-record", "version": 1, "rules": "9-5-2", "pla')
    msg = str(e.value)
    assert "line 1 column" in msg and "Unterminated string" in msg and not msg.rstrip().endswith(" at")


# ------------------------------------------------------------------------------------------ second review
EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31mBob"
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e")


def test_check_replay_and_resume_never_print_a_records_control_characters(files: dict[str, Path], tmp_path: Path) -> None:
    """The repro: a record whose player's name holds escape sequences is refused in one line naming the field, the
    name shown escaped; nothing raw reaches the terminal from check, replay or play --resume."""
    import sergeant_major.cli.play  # noqa: F401  (registers play)

    rec = json.loads(files["good"].read_text(encoding="utf-8"))
    rec["players"][1]["name"] = EVIL
    p = tmp_path / "evil.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    for args in (["check", str(p)], ["replay", str(p)], ["play", "--resume", str(p), "--save-dir", str(tmp_path / "s")]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        out = res.output
        assert "players[1].name" in out and "control characters" in out and "\\u001b]0;pwned" in out, out
        assert not any(ch in out for ch in RAW_CONTROLS) and out.count("\n") == 1, out
    assert not (tmp_path / "s").exists()


def test_cli_rendering_escapes_control_characters() -> None:
    """Even a name the reader did not refuse (defence in depth) is printed escaped by replay and check."""
    from sergeant_major.cli.records import _t

    assert _t(EVIL).plain == "\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mBob"
    assert _t("Zoë ♠").plain == "Zoë ♠"


def test_match_refuses_control_characters_in_names() -> None:
    from sergeant_major.core.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as e:
        Match(Rules.preset("9-5-2"), 1, ["Ann", "B\u2067ob", "Cid"])
    assert e.value.rule == "players" and "'B\\u2067ob'" in str(e.value) and "U+2067" in str(e.value)
    assert Match(Rules.preset("9-5-2"), 1, ["Zoë", "李", "Ann Lee"]).names == ("Zoë", "李", "Ann Lee")


@pytest.mark.parametrize(("edit", "where"), [
    (lambda t: t.replace('"seed": 12,', '"seed": 3, "seed": 4,', 1), "seed"),
    (lambda t: t.replace('"kind": "heuristic"', '"kind": "heuristic", "kind": "random"', 1), "players[0].kind"),
    (lambda t: t.replace('"test": true', '"test": true, "x": {"a": 1, "a": 2}', 1), "meta.x.a"),
])
def test_a_key_given_twice_is_refused_with_its_path(good_text: str, edit: Callable[[str], str], where: str) -> None:
    """JSON readers differ on which of two equal keys counts: a record gives each key once."""
    text = edit(good_text)
    assert text != good_text
    with pytest.raises(RecordError) as e:
        loads_record(text)
    assert e.value.where == where and "given twice" in str(e.value), str(e.value)


def _read_within(path: Path, seconds: float) -> BaseException | None:
    """``read_record(path)`` in a thread: the error it raised, or a failure when it did not end in time (reading a pipe
    with no writer waits for ever, /dev/zero never ends); a pipe is then opened for writing and closed to free it."""
    import threading

    got: list[BaseException | None] = []

    def run() -> None:
        try:
            read_record(path)
            got.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            got.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        if path.is_fifo():
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"reading {path} did not end within {seconds} s")
    return got[0]


def test_non_regular_files_are_refused_without_reading(tmp_path: Path) -> None:
    """A pipe (which would block), /dev/zero (endless) and a folder: one line quoting the path, for check too."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a pipe"), (Path("/dev/zero"), "a character device")):
        err = _read_within(path, 20)
        assert isinstance(err, RecordError), repr(err)
        assert repr(str(path)) in str(err) and kind in str(err) and "not a regular file" in str(err)
        for cmd in (["check", str(path)], ["replay", str(path)]):
            res = runner.invoke(app, cmd)
            assert res.exit_code == 2 and "not a regular file" in res.output and "Traceback" not in res.output
            assert res.output.count("\n") == 1


def test_a_file_over_the_size_cap_is_refused_unread(files: dict[str, Path], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import sergeant_major.records.files as record_mod

    size = files["good"].stat().st_size
    monkeypatch.setattr(record_mod, "MAX_RECORD_FILE", size)
    assert read_record(files["good"])  # exactly at the cap: read
    big = tmp_path / "sparse.json"
    with open(big, "wb") as f:
        f.truncate(size + 1)  # sparse: its size says it all, nothing need be read
    with pytest.raises(RecordError) as e:
        read_record(big)
    assert repr(str(big)) in str(e.value) and f"larger than {size:,} bytes" in str(e.value)
    res = runner.invoke(app, ["check", str(big)])
    assert res.exit_code == 2 and "larger than" in res.output and res.output.count("\n") == 1
    assert record_mod.MAX_RECORD_FILE == size  # the real cap is documented as 1 GiB
    monkeypatch.undo()
    assert record_mod.MAX_RECORD_FILE == 1 << 30


def test_write_record_unique_never_replaces_a_file(tmp_path: Path) -> None:
    """``unique=True`` claims a free name (``-2``, ``-3``...); without it the same path is replaced."""
    m, _ = played("9-5-2", seed=3, steps=30)
    p = tmp_path / "m.json"
    assert write_record(m, p, ["human", "random", "random"], unique=True) == p
    first = p.read_text(encoding="utf-8")
    m2, _ = played("9-5-2", seed=4, steps=30)
    p2 = write_record(m2, p, ["human", "random", "random"], unique=True)
    p3 = write_record(m2, p, ["human", "random", "random"], unique=True)
    assert (p2.name, p3.name) == ("m-2.json", "m-3.json")
    assert p.read_text(encoding="utf-8") == first and read_record(p2)["seed"] == 4
    assert write_record(m2, p2, ["human", "random", "random"]) == p2  # a later save of the same match: replaced
    assert sorted(x.name for x in tmp_path.iterdir()) == ["m-2.json", "m-3.json", "m.json"]  # no temporary left


def test_an_action_of_no_kind_says_it_has_none(good_text: str) -> None:
    # the message ended "...; it has no", as if cut off
    rec = json.loads(good_text)
    rec["deals"][0]["actions"][0] = {"seat": rec["deals"][0]["actions"][0]["seat"]}
    with pytest.raises(RecordError) as e:
        loads_record(json.dumps(rec))
    assert e.value.where == "deals[0].actions[0]" and str(e.value).endswith("; it has none"), str(e.value)


@pytest.mark.parametrize("seed", [-5, -1, 2**62, 2**70])
def test_a_seed_outside_the_seed_range_is_refused_by_check_replay_and_resume(seed: int, files: dict[str, Path],
                                                                              tmp_path: Path) -> None:
    """The repro: a record whose seed was -5 or 2**70 passed ``check`` and ``replay``, and ``play --resume`` saved
    it as 'match--5-...json', while ``--seed`` and a web table refuse both. The reader now refuses it in one line
    quoting the seed and its range (status 2), the schema too, and nothing is saved."""
    import sergeant_major.cli.play  # noqa: F401  (registers play)

    rec = json.loads(files["good"].read_text(encoding="utf-8"))
    rec["seed"] = seed
    p = tmp_path / "seed.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    saves = tmp_path / "s"
    for args in (["check", str(p)], ["replay", str(p)], ["play", "--resume", str(p), "--save-dir", str(saves)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert f"seed: {seed} is not {SEED_RANGE}" in res.output and res.output.count("\n") == 1, res.output
    assert not saves.exists() or not any(saves.iterdir())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(rec, json.loads(schema_path().read_text(encoding="utf-8")))


@pytest.mark.parametrize("seed", [0, 2**62 - 1])
def test_the_seeds_at_the_ends_of_the_range_still_load(seed: int, files: dict[str, Path], tmp_path: Path) -> None:
    """The schema's seed range is :data:`SEED_LIMIT`'s: a record with the least or the greatest seed is checked."""
    rec = json.loads(files["good"].read_text(encoding="utf-8"))
    rec["seed"] = seed
    assert loads_record(json.dumps(rec))["seed"] == seed
    schema = json.loads(schema_path().read_text(encoding="utf-8"))["properties"]["seed"]
    assert (schema["minimum"], schema["maximum"]) == (0, SEED_LIMIT - 1)
    m = Match(Rules.parse("9-5-2"), seed, ["Ann", "Bob", "Cleo"])
    drive(m, [RandomPlayer(), RandomPlayer(), RandomPlayer()])
    path = write_record(m, tmp_path / "edge.json", ["random"] * 3)
    assert runner.invoke(app, ["check", str(path)]).exit_code == 0


@pytest.mark.parametrize("name", ["", "   ", "\u00a0\u3000"])
def test_an_empty_name_is_refused_by_check_replay_and_resume(name: str, files: dict[str, Path], tmp_path: Path) -> None:
    """The repro: a record whose player's name was empty (or only spaces) passed ``check``,
    and ``replay`` showed "Dealer:  (seat 0)". Now the reader refuses it in one line naming the field (status 2),
    the schema too, and no such record is written. Names that are alike stay allowed (the seat tells them apart)."""
    import sergeant_major.cli.play  # noqa: F401  (registers play)

    rec = json.loads(files["good"].read_text(encoding="utf-8"))
    rec["players"][0]["name"] = name
    p = tmp_path / "blank.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    for args in (["check", str(p)], ["replay", str(p)], ["play", "--resume", str(p), "--save-dir", str(tmp_path / "s")]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert "players[0].name" in res.output and "is empty" in res.output, res.output
        assert res.output.count("\n") == 1, res.output
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(rec, schema)
    m = Match(Rules.parse("9-5-2"), 1, [name, "Bob", "Cleo"])
    with pytest.raises(RecordError) as e:
        write_record(m, tmp_path / "w.json", ["human", "heuristic", "heuristic"])
    assert "seat 0" in str(e.value) and not (tmp_path / "w.json").exists()
    # the same name twice (two people named Me at a web table) is a good record
    rec["players"][0]["name"] = rec["players"][1]["name"]
    jsonschema.validate(rec, schema)
    p.write_text(json.dumps(rec), encoding="utf-8")
    assert runner.invoke(app, ["check", str(p)]).exit_code == 0


def test_replay_and_analyze_refuse_a_match_still_played_by_a_person(tmp_path: Path) -> None:
    """The save of a terminal match in progress is full information: `replay` showed the player every hand, the kitty and
    the discards of the deal being played, and `analyze` every hand and the best card. Both now refuse it (status 2,
    one line saying how to go on) unless --spoilers is given; a finished match or a computer-only one is shown as before."""
    from typer.testing import CliRunner

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.core.match import Match
    from sergeant_major.core.rules import Rules
    from sergeant_major.players import HeuristicPlayer, drive
    from sergeant_major.records import match_to_record

    register_commands()
    m = Match(Rules.parse("9-5-2"), 8, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    for _ in range(5):  # into deal 2: the dealer has taken the kitty
        m.apply(m.forced_action() or m.deal.legal_actions()[0])
    save = tmp_path / "save.json"
    save.write_text(json.dumps(match_to_record(m, ["human", "heuristic", "heuristic"])), encoding="utf-8")
    runner = CliRunner()
    for args in (["replay", str(save)], ["analyze", str(save), "--deal", "2", "-t", "0.2"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stdout == "", res.output
        assert res.stderr.startswith("error: ") and "still being played" in res.stderr and "--spoilers" in res.stderr
        assert res.stderr.count("\n") == 1
    res = runner.invoke(app, ["replay", str(save), "--spoilers"])
    assert res.exit_code == 0 and "Kitty" in res.stdout, res.output
    comp = tmp_path / "computers.json"
    comp.write_text(json.dumps(match_to_record(m, ["heuristic", "heuristic", "heuristic"])), encoding="utf-8")
    assert runner.invoke(app, ["replay", str(comp)]).exit_code == 0


def test_a_finished_match_whose_record_gives_no_end_is_not_called_still_played(tmp_path: Path) -> None:
    """A person's finished match with ``"end": null`` (hand-edited): ``play --resume`` refused it as over ("replay it
    instead") and ``replay``/``analyze`` refused it as a match still being played ("finish it first (play --resume)"),
    each sending the player to the other. Nothing is left to play, so replay and analyze show it, and name the missing
    end (status 1)."""
    from typer.testing import CliRunner

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.core.match import Match
    from sergeant_major.core.rules import Rules
    from sergeant_major.players import HeuristicPlayer, drive
    from sergeant_major.records import match_to_record

    register_commands()
    m = Match(Rules.parse("9-5-2 to=4"), 8, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3)
    assert m.over
    rec = match_to_record(m, ["human", "heuristic", "heuristic"])
    rec["end"] = None
    save = tmp_path / "save.json"
    save.write_text(json.dumps(rec), encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["play", "--resume", str(save)])
    assert res.exit_code == 2 and "the record gives no end, but the match ended" in res.stderr, res.output
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 1 and "still being played" not in res.output, res.output
    assert "Totals" in res.stdout and "the record gives no end, but the match ended" in res.stderr, res.output
    res = runner.invoke(app, ["analyze", str(save), "--deal", str(len(m.deals)), "-t", "0.2", "--no-table"])
    assert res.exit_code == 1 and "still being played" not in res.output, res.output  # reviewed, then the fault named
    assert res.stdout and "the record gives no end, but the match ended" in res.stderr, res.output


@pytest.mark.parametrize("edit", ["totals", "scores"])
def test_resuming_a_save_whose_results_were_edited_is_refused(tmp_path: Path, edit: str) -> None:
    """A save with edited totals (or a deal's scores) was resumed with the replayed values in their place, the edit
    dropped without a word. Refused now as ``check`` refuses it, naming the field; the file and the
    save folder are left as they were."""
    from typer.testing import CliRunner

    from sergeant_major.cli.app import app, register_commands
    from sergeant_major.core.match import Match
    from sergeant_major.core.rules import Rules
    from sergeant_major.players import HeuristicPlayer, drive
    from sergeant_major.records import match_to_record

    register_commands()
    m = Match(Rules.parse("9-5-2"), 8, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    assert not m.over
    rec = match_to_record(m, ["human", "heuristic", "heuristic"])
    if edit == "totals":
        rec["totals"] = [50, 0, 0]
    else:
        rec["deals"][0]["result"]["scores"][0] += 1
    save = tmp_path / "save.json"
    save.write_text(json.dumps(rec), encoding="utf-8")
    before = save.read_bytes()
    res = CliRunner().invoke(app, ["play", "--resume", str(save), "--save-dir", str(tmp_path / "saves")], input="quit\n")
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert res.stderr.startswith(f"error: cannot resume from {str(save)!r}: ") and edit in res.stderr, res.stderr
    assert save.read_bytes() == before and not (tmp_path / "saves").exists()


def test_a_name_refusal_calls_a_bidirectional_override_so() -> None:
    """U+202E (a bidirectional override) was refused as "a control character", which it is not in the sense of
    category Cc; the refusal now says what it is and does."""
    from sergeant_major.core.safetext import name_problem

    assert name_problem("A\u202eB") == "it contains a bidirectional control character (U+202E, which reorders the text after it)"
    assert name_problem("A\x1b[2JB") == "it contains a control character (U+001B)"
    assert name_problem("A\x07\u202e") == "it contains control characters (U+0007, U+202E)"
    assert name_problem("Ann") is None


@pytest.mark.parametrize("change", ["new key", "missing key"])
def test_a_newer_version_is_named_before_its_keys(change: str) -> None:
    """A record of a newer version with a key this version does not know (or lacks one it needs) was refused with
    'unknown key' or 'missing required key', hiding the message docs/records.md "Versions" gives: upgrade."""
    rec = json.loads((DATA / "sample-9-5-2.json").read_text(encoding="utf-8"))
    rec["version"] = RECORD_VERSION + 1
    if change == "new key":
        rec["clock"] = {"seconds": 30}
    else:
        del rec["options"]
    with pytest.raises(RecordError, match="newer than this program reads") as e:
        loads_record(json.dumps(rec))
    assert e.value.where == "version"
    rec["format"] = "pgn"  # another format first of all
    with pytest.raises(RecordError, match="not a Sergeant Major record"):
        loads_record(json.dumps(rec))


def test_saving_through_a_symbolic_link_replaces_the_file_it_names(tmp_path: Path) -> None:
    """``play --resume LINK`` saved over the link: the rename put a file of its own in the link's place and the file
    the link named stayed as it was, so the match went on in a copy. The link is kept now and its file replaced."""
    m = Match(Rules.parse("9-5-2"), 3, ["You", "Bob", "Cleo"])
    real = tmp_path / "saves" / "real.json"
    real.parent.mkdir()
    write_record(m, real, ["human", "heuristic", "heuristic"])
    link = tmp_path / "current.json"
    link.symlink_to(real)
    drive(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    assert write_record(m, link, ["human", "heuristic", "heuristic"]) == link
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert len(read_record(real)["deals"][0]["actions"]) == len(m.deals[0].history)
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]  # no temporary file left


def _tournament_result_text() -> str:
    from sergeant_major.eval.tournament import tournament

    return json.dumps(tournament(Rules.parse("9-5-2"), ["heuristic", "random", "random"], 1, workers=1).to_json())


@pytest.mark.parametrize(("text", "said"), [
    ("", "it is empty (or only white space): a record is one JSON object (docs/records.md)"),
    (" \n\n\t\n", "it is empty (or only white space): a record is one JSON object (docs/records.md)"),
    ('{"a": 1}', 'this is not a Sergeant Major record: it has no "format" key (a record begins {"format": '
                 '"sergeant-major-record", "version": 1, ...}, docs/records.md)'),
    (None, "this is a tournament result (sergeant-major tournament --json), not a game record; tournament --merge reads it"),
])
@pytest.mark.parametrize("command", ["check", "replay"])
def test_a_file_that_is_no_record_is_named_for_what_it_is(text: str | None, said: str, command: str, tmp_path: Path) -> None:
    """The repros: an empty file was 'line 1 column 1: not valid JSON: Expecting value'; another program's JSON
    object "a: unknown key 'a'", and a ``tournament --json`` result "levels: unknown key 'levels'"."""
    p = tmp_path / "x.json"
    p.write_text(_tournament_result_text() if text is None else text, encoding="utf-8")
    res = runner.invoke(app, [command, str(p)])
    assert res.exit_code == 2 and res.stderr == f"error: {p}: {said}\n", res.output


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_a_deal_past_a_json_lines_record_names_the_record(command: str, tmp_path: Path) -> None:
    """The repro: ``replay three.jsonl --game 2 --deal 99`` said "the record 'three.jsonl' has deals 1..3", of a file
    of three records; the deals are record 2's."""
    from sergeant_major.cli.app import register_commands

    register_commands()  # play and analyze too

    p = tmp_path / "three.jsonl"
    lines = []
    for seed in (1, 2):
        m = Match(Rules.parse("9-5-2"), seed, ["A", "B", "C"])
        drive(m, [RandomPlayer(), RandomPlayer(), RandomPlayer()])
        lines.append(json.dumps(match_to_record(m, ["random"] * 3), separators=(",", ":")))
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    n = len(read_record(p, 2)["deals"])
    res = runner.invoke(app, [command, str(p), "--game", "2", "--deal", "999"])
    assert res.exit_code == 2 and f"error: --deal 999: record 2 of {str(p)!r} has deals 1..{n}" in res.stderr, res.output


def test_check_reports_an_end_reason_the_play_does_not_give(tmp_path: Path) -> None:
    """``check`` compared the end's winners only: a record whose ``end.reason`` told another end (another total,
    another rule) than its play gives was "OK". Now it is damaged (exit 1), the field and both wordings quoted."""
    _, rec = played("9-5-2 to=4", seed=9, levels=("random",) * 3)
    check_record(rec)
    true_reason = rec["end"]["reason"]
    bad = copy.deepcopy(rec)
    bad["end"]["reason"] = "Ann took 12 tricks in one deal (12+ wins at once)"
    with pytest.raises(RecordCheckError) as e:
        check_record(bad)
    assert (e.value.rule, e.value.where) == ("end", "end.reason")
    p = tmp_path / "reason.json"
    p.write_text(json.dumps(bad), encoding="utf-8")
    res = runner.invoke(app, ["check", str(p)])
    assert res.exit_code == 1, res.output
    assert "'Ann took 12 tricks in one deal (12+ wins at once)'" in res.stderr and repr(true_reason) in res.stderr
    assert "(at end.reason)" in res.stderr and "OK" not in res.stdout


def _person_save(m: Match) -> dict[str, Any]:
    return match_to_record(m, ["human", "heuristic", "heuristic"])


def test_a_fake_end_on_an_unfinished_save_is_refused_quoting_it(tmp_path: Path) -> None:
    """A person's save in progress given a fake ``end`` block: with its last deal unfinished the message did not quote
    the end; with its deals finished but the match not over, ``replay`` showed every hand (the end let it past the
    "still being played" refusal) and ``analyze`` answered with status 0. Each is now refused, the end quoted."""
    from sergeant_major.cli.app import register_commands

    register_commands()  # play and analyze too

    m = Match(Rules.parse("9-5-2"), 8, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3, until_deal_end=True)
    fake = {"winners": [0], "reason": "You reached 10 (target total 10)"}
    rec = _person_save(m)  # deal 1 scored, deal 2 dealt and not played
    rec["end"] = fake
    p = tmp_path / "unfinished.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    for args in (["check", str(p)], ["replay", str(p)], ["play", "--resume", str(p), "--save-dir", str(tmp_path)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stdout == "", (args, res.output)
        assert "'You reached 10 (target total 10)'" in res.stderr and "deal 2, is unfinished" in res.stderr, res.stderr
    rec["deals"] = rec["deals"][:1]  # the record stops after a scored deal, the match going on
    p.write_text(json.dumps(rec), encoding="utf-8")
    for args in (["replay", str(p)], ["analyze", str(p), "--deal", "1", "-t", "0.1", "--no-table"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 1 and res.stdout == "", (args, res.output)
        assert "'You reached 10 (target total 10)'" in res.stderr and "not over" in res.stderr, res.stderr
    res = runner.invoke(app, ["check", str(p)])
    assert res.exit_code == 1 and "'You reached 10 (target total 10)'" in res.stderr, res.output
    res = runner.invoke(app, ["replay", str(p), "--spoilers"])  # asked for: shown, then the fault named
    assert res.exit_code == 1 and "Hands as dealt" in res.stdout, res.output


def test_replay_names_the_illegal_action_of_a_finished_record_with_a_person(tmp_path: Path) -> None:
    """A finished record with a person at seat 0 whose second card was changed to its first: ``replay`` said "gives
    an end ..., but its match is not over ...; not shown" while ``check`` named the illegal card. It now names the
    illegal action as ``check`` does (exit 1) and shows the match up to it, as its help says."""
    m = Match(Rules.parse("9-5-2 deals=1"), 8, ["You", "Bob", "Cleo"])
    drive(m, [HeuristicPlayer()] * 3)
    rec = _person_save(m)
    assert rec["end"] is not None
    acts = rec["deals"][0]["actions"]
    mine = [i for i, a in enumerate(acts) if a["seat"] == 0 and "play" in a]
    acts[mine[1]]["play"] = acts[mine[0]]["play"]
    p = tmp_path / "illegal.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    checked = runner.invoke(app, ["check", str(p)])
    assert checked.exit_code == 1 and "is illegal" in checked.stderr, checked.output
    res = runner.invoke(app, ["replay", str(p)])
    assert res.exit_code == 1, res.output
    assert checked.stderr.strip() in res.stderr, (checked.stderr, res.stderr)
    assert "not over" not in res.stderr and "--spoilers" not in res.stderr, res.stderr
    assert "Hands as dealt" in res.stdout and "Deal 1 unfinished" in res.stdout, res.stdout


@pytest.mark.parametrize("width", ["40", "80", "120"])
def test_replay_tables_fold_long_names_instead_of_cutting_them(tmp_path: Path, width: str) -> None:
    """``replay``'s tables cut long player names with an ellipsis at 80 columns ("Konstantino…" in the tricks table):
    the name could not be read at all. Now a cell folds what does not fit onto more lines, at any terminal width."""
    names = ["Alexandra Konstantinopoulou-Smith-Jones", "Bartholomew Featherstonehaugh", "Cleopatra Wilhelmina Montgomery"]
    m = Match(Rules.parse("9-5-2"), 3, names)
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    p = tmp_path / "long.json"
    p.write_text(json.dumps(match_to_record(m, ["random"] * 3)), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(p), "--deal", "1"], env={"COLUMNS": width})
    assert res.exit_code == 0, res.output
    assert "…" not in res.stdout, res.stdout
    # the Player column of the hands table, read down: every name whole (folded over lines, never cut)
    body = res.stdout.split("Hands as dealt\n", 1)[1].split("┡", 1)[1].split("└", 1)[0]
    column = "".join(ln.split("│")[1].strip() for ln in body.splitlines() if ln.startswith("│"))
    assert column.replace(" ", "") == "".join(names).replace(" ", ""), body
