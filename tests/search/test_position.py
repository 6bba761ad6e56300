"""Position text (issue 5): round trip, paste-back repr, clear errors; and the ``analyze`` command."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sergeant_major import CARDS, Contract, HeuristicPlayer, Match, Play, RandomPlayer, Rules, drive
from sergeant_major.cli.app import app, register_commands
from sergeant_major.search import Position, PositionError, format_hand, parse_hand
from sergeant_major.search.position import random_position

RULES = ["9-5-2", "8-5-3 must-overtrump=on", "3-5-8", "9-5-2 players=4", "9-5-2 kitty=none", "3-5-8 must-trump=off"]
runner = CliRunner()
register_commands()  # every command, as the script does (typer runs a lone command without its name)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 2**30), st.integers(1, 12), st.integers(0, 3))
def test_text_round_trips(rules_text: str, seed: int, left: int, in_trick: int) -> None:
    rules = Rules.parse(rules_text)
    pos = random_position(rules, random.Random(seed), left, in_trick=in_trick % rules.players)
    text = pos.text()
    assert "\n" not in text
    assert Position.parse(text) == pos
    assert str(Position.parse(text)) == text
    assert eval(repr(pos), {"Position": Position}) == pos  # repr pastes back


def test_example_text() -> None:
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    pos = Position.parse(text)
    assert pos.contract is Contract.HEARTS and pos.to_move == 2 and pos.tricks == (2, 4, 4)
    assert pos.remaining == 6 and pos.leader == 2 and pos.trick == ()
    assert format_hand(pos.hands[0]) == "42..JT98."
    assert pos.text() == text
    # lenient: card lists, 10 for T, spaces
    pos2 = Position.parse("9-5-2|h|2|2-4-4| 4S 2S JD 10D 9D 8D / ..AQ.AJ94 / 53.T4..T3 | - ")
    assert pos2 == pos


def test_trick_in_progress() -> None:
    pos = Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    after = pos.play("3S")
    assert after.to_move == 0 and after.trick == (Position.parse(after.text()).trick) and after.leader == 2
    assert Position.parse(after.text()) == after
    with pytest.raises(PositionError, match="not legal"):
        after.play("JD")  # seat 0 holds spades: must follow suit
    with pytest.raises(PositionError, match="does not hold"):
        after.play("AS")
    done = after.play("4S").play("AC")  # seat 1 is void in spades and discards
    assert done.trick == () and done.tricks == (3, 4, 4) and done.to_move == 0


@pytest.mark.parametrize("bad,msg", [
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3", "6 fields"),
    ("9-5-9 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "9-5-9"),
    ("9-5-2 | X | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "'X'"),
    ("9-5-2 | NT | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "suits-nt-mt"),
    ("9-5-2 | H | x | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "'x'"),
    ("9-5-2 | H | 2 | 2-4-5 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "not the 16 tricks"),
    # the hand that is off is named (it named seat 0, whose 6 cards were right, as if it should hold 7)
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T32 | -", "seat 2 holds 7 cards; the other hands hold 6 each, it should hold 6"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T | -", "seat 2 holds 5 cards; the other hands hold 6 each, it should hold 6"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT9. / ..AQ.AJ94 / 53.T4..T2 | -", "seat 0 holds 5 cards; the other hands hold 6 each, it should hold 6"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..TX | -", "'X' is not a rank"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 / | -", "3 players need 3 hands"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 42.T4..T3 | -", "held twice"),
    ("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | ZZ", "trick 'ZZ'"),
])
def test_bad_text_is_refused_with_a_quote(bad: str, msg: str) -> None:
    with pytest.raises(PositionError, match=msg):
        Position.parse(bad)


def test_parse_hand_forms() -> None:
    assert parse_hand("AK.-.-.2") == parse_hand("AS KS 2C")
    assert parse_hand("-") == 0
    with pytest.raises(PositionError, match="four suits"):
        parse_hand("AK.QJ")
    with pytest.raises(PositionError, match="twice"):
        parse_hand("AS AS")
    # the repro: one suit's ranks without the dots was refused as "'K9874' is not a card: '4' is not a suit", naming
    # neither form of a hand
    with pytest.raises(PositionError, match=re.escape("'4' is not a suit (C, D, H, S); a hand is four suits "
                                                      "spades.hearts.diamonds.clubs ('K9874.A.-.95') or a card list")):
        parse_hand("K9874")
    with pytest.raises(PositionError) as e:  # a card list with a bad card: its card named, no lecture on the forms
        parse_hand("AS KX")
    assert "'X' is not a suit" in str(e.value) and "four suits" not in str(e.value)


def test_from_deal_matches_engine() -> None:
    match = Match(Rules.preset("9-5-2"), seed=4)
    deal = match.deal
    with pytest.raises(PositionError, match="phase"):
        Position.from_deal(deal)
    rng = random.Random(2)
    while match.deal.phase.value != "play":
        fa = match.forced_action()
        match.apply(fa if fa is not None else rng.choice(match.legal_actions()))
    d = match.deal
    for _ in range(20):
        pos = Position.from_deal(d)
        assert pos.legal_mask() == d.legal_play_mask()
        assert Position.parse(pos.text()) == pos
        cid = rng.choice([c.id for c in pos.legal_cards()])
        nxt = pos.play(cid)
        match.apply(Play(d.to_play, CARDS[cid]))
        assert Position.from_deal(d) == nxt



@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["9-5-2", "3-5-8", "8-5-3 must-overtrump=on", "9-5-2 players=4", "3-5-8 kitty=none"]),
       st.integers(0, 2**20))
def test_play_unchecked_builds_the_position_the_checks_accept(rules_text: str, seed: int) -> None:
    """``play_unchecked`` and ``from_deal`` skip the constructor's checks; every position ``play_unchecked`` builds
    from a legal card through a whole deal equals the engine's (``from_deal``), and both pass the checks when built
    again."""
    match = Match(Rules.parse(rules_text), seed=seed)
    rng = random.Random(seed)
    while match.deal.phase.value != "play":
        fa = match.forced_action()
        match.apply(fa if fa is not None else rng.choice(match.legal_actions()))
    d = match.deal
    pos = Position.from_deal(d)
    assert Position(pos.rules, pos.contract, pos.to_move, pos.tricks, pos.hands, pos.trick) == pos
    while not pos.over:
        cid = rng.choice([c.id for c in pos.legal_cards()])
        pos = pos.play_unchecked(cid)
        match.apply(Play(d.to_play, CARDS[cid]))
        if not pos.over:
            assert pos == Position.from_deal(d)
        rebuilt = Position(pos.rules, pos.contract, pos.to_move, pos.tricks, pos.hands, pos.trick)
        assert rebuilt == pos and hash(rebuilt) == hash(pos)


# ---------------------------------------------------------------------------------------------- analyze
def test_analyze_position_text_and_json() -> None:
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    r = runner.invoke(app, ["analyze", text])
    assert r.exit_code == 0, r.output
    assert "Value after each legal card" in r.output
    r = runner.invoke(app, ["analyze", text, "--json"])
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert a["position"] == text and a["value"][0] == a["value"][1]
    assert set(a["cards"]) == {"3C", "TC", "4H", "TH", "3S", "5S"}
    assert all(lo == hi == a["value"][0] for lo, hi in a["cards"].values())
    assert set(a["best_cards"]) <= set(a["cards"])


@pytest.mark.parametrize("rules_text", ["9-5-2", "3-5-8", "9-5-2 players=4"])
def test_table_in_threads_equals_the_table_in_one(rules_text: str) -> None:
    """``dd_table`` with its searches spread over threads (each thread its own solver) gives the very same
    table as one solver doing them in turn; a bad ``jobs`` is refused."""
    from sergeant_major.search import Solver
    from sergeant_major.search.review import dd_table

    rules = Rules.parse(rules_text)
    rng = random.Random(12)
    for _ in range(3):
        pos = random_position(rules, rng, rng.randint(4, 6), in_trick=0)
        one = dd_table(pos, Solver(tt_bits=14), None, jobs=1)
        assert dd_table(pos, Solver(tt_bits=14), None, jobs=3) == one
        assert dd_table(pos, Solver(tt_bits=14), 30.0, jobs=2) == one  # timed searches, far from their limit
    with pytest.raises(ValueError, match="jobs=0"):
        dd_table(pos, Solver(tt_bits=8), None, jobs=0)


@pytest.mark.parametrize("rules_text", ["9-5-2", "3-5-8", "8-5-3 must-overtrump=on", "9-5-2 players=4"])
def test_table_values_add_up_to_at_most_the_tricks(rules_text: str) -> None:
    """Each seat can make its paranoid value against anything, so all seats at once make theirs: exact table
    values add up to at most the deal's tricks (in minimum tricks, where a value is a ceiling, at least) - the
    rule ``narrow_by_sum`` uses to narrow cells cut short by the time limit."""
    from sergeant_major.search import Solver
    from sergeant_major.search.review import dd_table, narrow_by_sum

    rules = Rules.parse(rules_text)
    rng = random.Random(21)
    solver = Solver(tt_bits=16)
    for _ in range(8):
        pos = random_position(rules, rng, rng.randint(3, 7), in_trick=0)
        total = sum(pos.tricks) + pos.remaining
        for row in dd_table(pos, solver, None, jobs=1)["rows"]:
            vals = [lo for lo, hi in row["tricks"]]
            assert all(lo == hi for lo, hi in row["tricks"])
            mt = row["contract"] == "MT"
            assert (sum(vals) >= total) if mt else (sum(vals) <= total), (str(pos), row)
            assert narrow_by_sum(row["tricks"], total, mt) == row["tricks"]  # exact cells stay
    assert narrow_by_sum([[6, 6], [4, 4], [0, 16]], 16, False) == [[6, 6], [4, 4], [0, 6]]
    assert narrow_by_sum([[2, 9], [4, 4], [0, 16]], 16, False) == [[2, 9], [4, 4], [0, 10]]
    assert narrow_by_sum([[6, 6], [4, 4], [0, 16]], 16, True) == [[6, 6], [4, 4], [6, 16]]


def test_table_minimum_tricks_row_uses_the_declarers_ceiling() -> None:
    """3-5-8 (seed 003, "Nur bei MT ..."): in minimum tricks the playmaker (target 8) may take at most 3 - the
    table's minimum-tricks row measures the declarer against that ceiling, the other rows against 8."""
    from sergeant_major.search import Solver
    from sergeant_major.search.review import dd_table

    rules = Rules.parse("3-5-8")
    pos = random_position(rules, random.Random(4), 5)
    t = dd_table(pos, Solver(tt_bits=12), None, jobs=1)
    assert t["target"] == 8
    for row in t["rows"]:
        lo, hi = row["tricks"][t["declarer"]]
        if row["contract"] == "MT":
            assert row["target"] == 3 and row["diff"] == [3 - hi, 3 - lo]
        else:
            assert row["target"] == 8 and row["diff"] == [lo - 8, hi - 8]
    from rich.console import Console

    from sergeant_major.cli.analyze import _print_table

    con = Console(record=True, width=200)
    _print_table(con, t, ["Seat 0", "Seat 1", "Seat 2"])
    assert "target 8, in minimum tricks at most 3" in " ".join(con.export_text().split())


def test_time_limits_that_are_not_a_number_of_seconds() -> None:
    """``-t nan``/``inf``/``-1`` are refused with status 2 (no traceback); in the API NaN is a ValueError, an infinite
    limit is no limit and an enormous one does not overflow the node budget."""
    from sergeant_major.search import Solver

    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    for bad in ("nan", "inf", "-inf", "-1", "0"):
        r = runner.invoke(app, ["analyze", text, "-t", bad])
        # the text typed, quoted: not the number it converts to ('0' was said as '--time-limit 0.0')
        assert r.exit_code == 2 and f"'{bad}' is not a positive, finite number of seconds." in r.output, (bad, r.output)
    pos = Position.parse(text)
    with pytest.raises(ValueError, match="time_limit=nan"):
        Solver(tt_bits=10).value(pos, 2, time_limit=float("nan"))
    for big in (float("inf"), 1e13, 1e300):
        sv = Solver(tt_bits=10)
        sv._rate = 8e6  # as if learnt: the budget is then this rate times the time left
        assert sv.value(pos, 2, time_limit=big).exact
        assert sv.solve(pos, time_limit=big).tricks == 7


def test_analyze_small_cases(tmp_path: Path) -> None:
    """An empty rules field is an error (not silently 9-5-2); a directory is named as one; a finished deal says
    it is over."""
    r = runner.invoke(app, ["analyze", " | H | 0 | 5-5-5 | AS / KS / QS | -"])
    assert r.exit_code == 2 and "the rules field is empty" in r.output
    r = runner.invoke(app, ["analyze", str(tmp_path)])
    assert r.exit_code == 2 and "a directory, not a file" in r.output
    r = runner.invoke(app, ["analyze", "9-5-2 | H | 0 | 5-5-6 | ... / ... / ... | -"])
    assert r.exit_code == 0 and "The deal is over: tricks 5-5-6" in r.output


def test_analyze_odd_paths_are_one_line_errors(tmp_path: Path) -> None:
    """A target too long to be a file name is not a position (no traceback from the file system), and a file
    that is not a regular one (a pipe) is named as such, as ``check`` does, not as "no such file"."""
    r = runner.invoke(app, ["analyze", "x" * 5000])
    assert r.exit_code == 2, r.output
    assert "is not a position (and no such file)" in r.output and "Traceback" not in r.output
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = runner.invoke(app, ["analyze", str(fifo)])
    assert r.exit_code == 2 and "is a pipe, not a regular file" in r.output, r.output
    if os.path.exists("/dev/zero"):  # a device is never read (it has no end)
        r = runner.invoke(app, ["analyze", "/dev/zero"])
        assert r.exit_code == 2 and "is a character device, not a regular file" in r.output, r.output


def test_analyze_never_drops_a_legal_card_when_the_time_runs_out() -> None:
    """A time limit too short for every card: each legal card still shows, its value as lo..hi bounds."""
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    r = runner.invoke(app, ["analyze", text, "--json", "-t", "0.000001"])
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert set(a["cards"]) == {"3C", "TC", "4H", "TH", "3S", "5S"}
    assert all(lo <= 7 <= hi for lo, hi in a["cards"].values())  # 7: the exact value of every card
    r = runner.invoke(app, ["analyze", text, "-t", "0.000001"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    assert all(c in r.output for c in ("3C", "TC", "4H", "TH", "3S", "5S"))


def test_position_error_counts_the_fields() -> None:
    """The field count is filled in, not a raw ``{len(fields)}`` placeholder."""
    with pytest.raises(PositionError, match="got 1$"):
        Position.parse("garbage")
    r = runner.invoke(app, ["analyze", "garbage"])
    assert r.exit_code == 2 and "got 1" in r.output and "{" not in r.output


def test_analyze_opening_table_json() -> None:
    r = runner.invoke(app, ["analyze", _opening_text(), "--json", "-t", "5"])
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    t = a["table"]
    assert [row["contract"] for row in t["rows"]] == ["C", "D", "H", "S"]
    assert t["best"] in {"C", "D", "H", "S"}
    for row in t["rows"]:
        assert all(0 <= lo <= hi <= 16 for lo, hi in row["tricks"])


def test_analyze_position_no_table_skips_the_table() -> None:
    """``--no-table`` leaves the double-dummy table out for a position text too (it was ignored there)."""
    r = runner.invoke(app, ["analyze", _opening_text(), "--json", "--no-table", "-t", "5"])
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert "table" not in a
    assert a["to_move"] == 1 and a["cards"]
    r = runner.invoke(app, ["analyze", _opening_text(), "--no-table", "-t", "5"])
    assert r.exit_code == 0, r.output
    assert "Double-dummy table" not in r.output and "Value after each legal card" in r.output
    r = runner.invoke(app, ["analyze", _opening_text(), "-t", "5"])
    assert "Double-dummy table" in r.output


def test_analyze_position_refuses_record_options() -> None:
    """``--deal``/``--game`` pick a deal of a record file; with a position text they were silently ignored."""
    pos = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    r = runner.invoke(app, ["analyze", pos, "--deal", "3"])
    assert r.exit_code == 2 and "--deal 3" in r.output and "is a position, not a record file" in r.output
    r = runner.invoke(app, ["analyze", pos, "--game", "2", "--json"])
    assert r.exit_code == 2 and "--game 2" in r.output
    r = runner.invoke(app, ["analyze", pos, "--deal", "1", "--json"])  # the default, said explicitly: fine
    assert r.exit_code == 0, r.output



def test_analyze_position_refuses_the_experts_estimates() -> None:
    """The expert's estimates are of a record's cards, from what each player could see: ``analyze POSITION --expert``
    silently showed none. It is refused; ``--no-expert``, and the default, analyse the position."""
    pos = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    r = runner.invoke(app, ["analyze", pos, "--expert"])
    assert r.exit_code == 2 and "--expert" in r.output and "is a position, not a record file" in r.output, r.output
    assert "Value" not in r.output
    for flags in (["--no-expert"], []):
        r = runner.invoke(app, ["analyze", pos, "--json", *flags])
        assert r.exit_code == 0 and json.loads(r.stdout)["value"] is not None, r.output

def _opening_text() -> str:
    """A 16-trick opening position whose table solves fast: seat 0 holds every top card."""
    return "9-5-2 | S | 1 | 0-0-0 | AKQJT98765432.AKQ.. / .JT98765432.AKQJT9. / ..8765432.AKQJT9876 | -"


def test_analyze_refuses_bad_input() -> None:
    r = runner.invoke(app, ["analyze", "no such thing"])
    assert r.exit_code == 2
    assert "no such thing" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["analyze", "9-5-2 | H | 2 | 2-4-4 | 42 | -"])
    assert r.exit_code == 2 and "hand '42'" in r.output
    r = runner.invoke(app, ["analyze", "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -", "-t", "0"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["analyze", ""])  # not "a directory": Path("") is the current one
    assert r.exit_code == 2 and "'' is not a position (nor a file: it is empty)" in r.output
    # a revoke in the trick in progress (seeds 000/004: follow suit) is refused, quoting the card
    r = runner.invoke(app, ["analyze", "9-5-2 | H | 2 | 5-5-4 | ..A. / 7S / AS KD | 2S 9C"])
    assert r.exit_code == 2 and "9C played by seat 1" in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_analyze_record(tmp_path: Path) -> None:
    record = pytest.importorskip("sergeant_major.records")
    match = Match(Rules.preset("9-5-2"), seed=11)
    drive(match, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()], until_deal_end=True)
    path = tmp_path / "m.json"
    record.write_record(match, path, ["heuristic", "random", "random"])
    r = runner.invoke(app, ["analyze", str(path), "--deal", "1", "--json", "--no-table", "-t", "0.05"])
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert a["deal"] == 1 and len(a["plays"]) == 48
    assert all(p["cost"] is None or p["cost"] >= 0 for p in a["plays"])
    costs = [p["cost"] for p in a["mistakes"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    # the last trick can always be solved: nothing to choose, nothing lost
    assert all(p["cost"] == 0 for p in a["plays"][-3:])
    r = runner.invoke(app, ["analyze", str(path), "--deal", "7"])
    assert r.exit_code == 2 and "deals 1.." in r.output
    r = runner.invoke(app, ["analyze", str(path), "--deal", "1", "--no-table", "-t", "0.05"])
    assert r.exit_code == 0 and "Cards and their double-dummy cost" in r.output


def test_analyze_says_when_the_best_choice_is_not_certain(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose searches the time limit cut short names the best choice as not certain."""
    from rich.console import Console

    from sergeant_major.cli import analyze as cli_analyze

    rows = [{"contract": "C", "word": "clubs", "tricks": [[0, 16], [0, 16], [0, 16]], "diff": [-9, 7]},
            {"contract": "D", "word": "diamonds", "tricks": [[9, 9], [5, 5], [2, 2]], "diff": [0, 0]}]
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "C", "rows": rows}, ["A", "B", "C"])
    assert "best choice: clubs (not certain" in con.export_text()
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "D", "rows": rows[1:]}, ["A", "B", "C"])
    assert "best choice: diamonds\n" in con.export_text()
    # a cut-short row that surely does worse than the best (-10..-2 against an exact -1) leaves the choice certain
    # (it said "not certain" whenever any row was a range)
    rows = [{"contract": "S", "word": "spades", "tricks": [[8, 8], [2, 2], [2, 2]], "diff": [-1, -1]},
            {"contract": "MT", "word": "minimum tricks", "tricks": [[4, 12], [5, 12], [13, 13]], "diff": [-10, -2],
             "target": 2}]
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "S", "rows": rows}, ["A", "B", "C"])
    assert "best choice: spades\n" in con.export_text()
    rows[1]["diff"] = [-10, -1]  # may tie: still a best choice
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "S", "rows": rows}, ["A", "B", "C"])
    assert "best choice: spades\n" in con.export_text()
    rows[1]["diff"] = [-10, 0]  # may do better
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "S", "rows": rows}, ["A", "B", "C"])
    assert "best choice: spades (not certain" in con.export_text()


@pytest.mark.slow
def test_ctrl_c_stops_analyze_while_its_table_runs() -> None:
    """Ctrl-C while the table's cells search in parallel threads: the cells are told to stop (else leaving the
    thread pool would wait for each running search, up to ``-t`` seconds) and the command ends at once."""
    import signal
    import subprocess
    import sys
    import time

    from sergeant_major.search import HAVE_NUMBA

    if not HAVE_NUMBA:
        pytest.skip("the table runs in parallel only with numba")
    rng = random.Random(2042)
    hard = [random_position(Rules.parse("9-5-2"), rng, 16) for _ in range(14)][13]  # cells of 5 s and more
    # Python's own Ctrl-C handler, as at a terminal (a shell's background job starts with SIGINT ignored)
    script = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); from sergeant_major.cli.app import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", script, "analyze", str(hard), "-t", "120"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(4.0)  # started, the kernels loaded, the table's first cells searching
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    t = time.perf_counter()
    try:
        proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.perf_counter() - t < 2.0
    assert proc.returncode != 0


def test_cut_cards_are_narrowed_by_the_value() -> None:
    """A card whose search the time limit cut short shows at most the mover's value (no card is better than the
    value), also when the value itself was narrowed by the table's cell for the same contract and seat."""
    from sergeant_major.cli.analyze import analyze_position
    from sergeant_major.search import Solution

    pos = random_position(Rules.parse("9-5-2"), random.Random(3), 16)

    cut_short = _cut_short_solver(Solution(0, 2, 2, 5, False))  # every table cell: 2..5
    a = analyze_position(pos, cut_short, 1.0)
    assert a["value"] == [2, 5]
    assert a["cards"] and all(b == [0, 5] for b in a["cards"].values()), a["cards"]


def _cut_short_solver(cell: Any, known: dict[int, tuple[int, int]] | None = None) -> Any:
    """A solver whose every value (a table cell) is ``cell`` for the seat asked, and whose ``solve`` is cut short:
    value 0..16 and each legal card's bounds 0..16 (nothing found in time) but those given in ``known`` (by card
    id); ``can_reach`` is cut short too (a review's test of a card)."""
    from sergeant_major.search import Solution, Solver, SolverTimeout

    class CutShort(Solver):
        def value(self, p: Position, seat: int | None = None, *, time_limit: float | None = None) -> Solution:
            return Solution(seat or 0, cell.tricks, cell.lower, cell.upper, cell.exact)

        def solve(self, p: Position, seat: int | None = None, *, cards: bool = True,
                  time_limit: float | None = None) -> Solution:
            bounds = {c: (known or {}).get(c.id, (0, 16)) for c in p.legal_cards()}
            return Solution(p.to_move, 0, 0, 16, False, {}, 0, False, bounds)

        def can_reach(self, p: Position, seat: int, t: int, *, time_limit: float | None = None) -> bool:
            raise SolverTimeout("cut short", 0, 16)

    return CutShort(tt_bits=8)


def _deal_after_its_opening_lead() -> tuple[Any, int]:
    """A 9-5-2 deal (seed 78, its exchange and discards drawn by ``random.Random(5)``) after its opening lead, the
    lowest legal card; returns the deal and that card's id."""
    from sergeant_major.core.deal import Deal, Phase
    from sergeant_major.core.match import deal_cards

    rules = Rules.parse("9-5-2")
    rng = random.Random(5)
    hands, kitty = deal_cards(rules, 78, 1, 0)
    deal = Deal(rules, 0, hands, kitty)
    while deal.phase is not Phase.PLAY:
        act = deal.forced_action()
        deal.apply(act if act is not None else rng.choice(deal.legal_actions()))
    m = deal.legal_play_mask()
    lead = min(i for i in range(52) if m >> i & 1)
    deal.play_unchecked(lead)
    return deal, lead


def test_analyze_deal_narrows_the_opening_lead_by_the_table() -> None:
    """In a record's deal the first card's position is the table's position: a value the time limit cut short
    is narrowed by the table's cell for the deal's contract and the leader (as for a position text), and so
    are the card's value and its cost - the screen does not show "1..16, cost 0..15" under a table cell of 1."""
    from sergeant_major.search import Solution
    from sergeant_major.search.review import analyze_deal

    deal, _ = _deal_after_its_opening_lead()

    cut_short = _cut_short_solver(Solution(0, 3, 3, 3, True))  # every table cell exact: 3
    out = analyze_deal(deal, cut_short, 1.0)
    (first,) = out["plays"]
    assert first["value"] == [3, 3], first
    assert first["played"] == [0, 3], first
    assert first["cost_range"] == [0, 3] and first["cost"] is None, first


def test_analyze_deal_names_a_clubs_contract() -> None:
    """A deal played in clubs (``Contract.CLUBS == 0``, falsy as an IntEnum) is reported as ``"C"``, not ``None``."""
    from sergeant_major.core.actions import NameContract
    from sergeant_major.core.deal import Deal, Phase
    from sergeant_major.core.match import deal_cards
    from sergeant_major.search import Solver
    from sergeant_major.search.review import analyze_deal

    rules = Rules.parse("9-5-2")
    rng = random.Random(4)
    hands, kitty = deal_cards(rules, 77, 1, 0)
    deal = Deal(rules, 0, hands, kitty)
    while deal.phase is not Phase.PLAY:
        act = deal.forced_action()
        if act is None:
            acts = deal.legal_actions()
            named = [a for a in acts if isinstance(a, NameContract) and a.contract is Contract.CLUBS]
            act = named[0] if named else rng.choice(acts)
        deal.apply(act)
    assert deal.contract is Contract.CLUBS
    for _ in range(rules.players):  # one trick
        m = deal.legal_play_mask()
        deal.play_unchecked(min(i for i in range(52) if m >> i & 1))
    out = analyze_deal(deal, Solver(), 10.0, table=False)
    assert out["contract"] == "C"
    assert " | C | " in out["start"]


@pytest.mark.parametrize(("text", "error"), [
    # follow suit (seeds 000/004 "Playing the tricks"): seat 1 discarded 9C on the spade lead holding 7S - a revoke
    ("9-5-2 | H | 2 | 5-5-4 | ..A. / 7S / AS KD | 2S 9C", "9C played by seat 1 to the trick in progress was not legal"),
    ("9-5-2 | H | 2 | 5-5-4 | ..A. / QD / AS KD | 2S 9C", None),  # void in spades: any card
    # must-trump (seed 003, the 3-5-8 preset): void in spades and holding a heart (trump), seat 1 had to trump
    ("3-5-8 | H | 2 | 5-5-4 | ..A. / 5H / AS KD | 2S 9C", "could play 5H"),
    ("3-5-8 | H | 2 | 5-5-4 | ..A. / QD / AS KD | 2S 9C", None),  # no trump to play: a discard
    ("3-5-8 | H | 2 | 5-5-4 | ..A. / QD / AS KD | 2S 5H", None),
    # must-over-trump (docs/rules.md reference options): following a trump lead with 2H while holding 9H, above the 5H led
    ("8-5-3 must-overtrump=on | H | 2 | 5-5-4 | ..A. / 9H / AS KD | 5H 2H", "could play 9H"),
    ("8-5-3 must-overtrump=on | H | 2 | 5-5-4 | ..A. / 2H / AS KD | 5H 9H", None),
    ("8-5-3 | H | 2 | 5-5-4 | ..A. / 9H / AS KD | 5H 2H", None),  # without the option any heart follows
])
def test_the_trick_in_progress_must_have_been_played_legally(text: str, error: str | None) -> None:
    """Each card already in the trick was legal for its player, whose hand then was its hand now plus that card."""
    if error is None:
        assert Position.parse(text).text() == Position.parse(Position.parse(text).text()).text()
    else:
        with pytest.raises(PositionError, match=re.escape(error)):
            Position.parse(text)


def test_parse_refuses_what_is_not_text_and_quotes_hands_trimmed() -> None:
    for bad in (None, 5, b"9-5-2"):
        with pytest.raises(PositionError, match=re.escape(f"{bad!r} is not a position: give the one-line text")):
            Position.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match=re.escape("hand '42..JT98X.': 'X' is not a rank")):
        Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98X. / ..AQ.AJ94 / 53.T4..T3 | -")


def test_a_position_of_parts_of_the_wrong_type_is_refused_and_quoted() -> None:
    pos = Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    r, c, h = pos.rules, pos.contract, pos.hands
    for args, msg in (  # a float seat, text hands and lists were TypeErrors (lists: only when hashed)
        ((r, c, 2.0, pos.tricks, h), "seat to move 2.0 is not an int"),
        ((r, c, True, pos.tricks, h), "seat to move True is not an int"),
        ((r, c, 2, pos.tricks, ("a", "b", "c")), "hands ('a', 'b', 'c') is not a tuple of ints"),
        ((r, c, 2, [2, 4, 4], h), "tricks [2, 4, 4] is not a tuple of ints"),
        ((r, c, 2, pos.tricks, list(h)), "hands [" ),
        ((r, c, 2, pos.tricks, h, [1]), "trick [1] is not a tuple of ints"),
        (("9-5-2", c, 2, pos.tricks, h), "rules '9-5-2' is not a Rules"),
        ((r, "H", 2, pos.tricks, h), "contract 'H' is not a Contract"),
    ):
        with pytest.raises(PositionError, match=re.escape(msg)):
            Position(*args)  # type: ignore[arg-type]
    assert Position(r, c, 2, pos.tricks, h) == pos


def test_play_refuses_what_is_not_a_card_and_quotes_it() -> None:
    pos = Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    for bad in (True, False, None, 3.0, [1]):  # True was card id 1 (3C, played); None, 3.0: AttributeError
        with pytest.raises(PositionError, match=re.escape(f"{bad!r} is not a card")):
            pos.play(bad)  # type: ignore[arg-type]
    import numpy as np

    assert pos.play(np.int64(1)) == pos.play(1) == pos.play("3C") == pos.play(CARDS[1])


@pytest.mark.parametrize(("value", "played", "misere", "want"), [
    ((7, 7), (5, 5), False, (2, 2)),    # exact: the value 7 less the 5 after the card
    ((7, 7), (7, 7), False, (0, 0)),    # a best card costs nothing
    ((6, 8), (5, 5), False, (1, 3)),    # the value cut short: 6..8 before, 5 after
    ((0, 8), (9, 9), False, (0, 0)),    # bounds that say nothing below zero: no card beats the value
    ((3, 3), (5, 5), True, (2, 2)),     # minimum tricks: 5 tricks after the card against a value of 3
    ((2, 4), (3, 6), True, (0, 4)),
])
def test_a_cards_cost_is_bounded_when_the_time_cut_a_search(value: tuple[int, int], played: tuple[int, int],
                                                            misere: bool, want: tuple[int, int]) -> None:
    from sergeant_major.search.review import card_cost

    assert card_cost(value, played, misere) == want


def test_mistakes_count_what_a_card_surely_cost_and_the_summary_says_what_is_open() -> None:
    """A card whose cost the time limit left open (``1..4``) is a mistake by its sure part; with only open costs
    that may be 0 the summary does not claim that no card cost a trick."""
    import io

    from rich.console import Console

    from sergeant_major.cli.analyze import _print_deal
    from sergeant_major.search.review import biggest_mistakes

    def play(trick: int, lo: int, hi: int) -> dict[str, object]:
        return {"trick": trick, "seat": 0, "card": "AS", "value": [5, 5], "played": [5 - hi, 5 - lo],
                "cost": lo if lo == hi else None, "cost_range": [lo, hi], "best": ["KS"]}

    plays = [play(1, 0, 0), play(2, 1, 4), play(3, 2, 2), play(4, 1, 1), play(5, 0, 3)]
    assert [p["trick"] for p in biggest_mistakes(plays, 5)] == [3, 2, 4]
    assert [p["trick"] for p in biggest_mistakes(plays, 1)] == [3]

    def summary(ps: list[dict[str, object]]) -> str:
        con = Console(file=io.StringIO(), width=200)
        _print_deal(con, {"deal": 1, "contract": "S", "start": "-", "plays": ps, "mistakes": biggest_mistakes(ps, 5)},
                    ["A", "B", "C"])
        return con.file.getvalue()  # type: ignore[attr-defined,no-any-return]

    assert "trick 2: A played AS, cost 1..4 tricks; best KS" in summary(plays)
    assert "No card is known to cost a double-dummy trick" in summary([play(1, 0, 0), play(5, 0, 3)])
    assert "No card cost a double-dummy trick." in summary([play(1, 0, 0)])
    # a deal whose play has just begun: no empty table of cards, and no claim about costs
    assert "No card has been played in this deal yet." in summary([])
    assert "Cards and their double-dummy cost" not in summary([]) and "No card cost" not in summary([])


def test_the_table_refuses_a_trick_in_progress() -> None:
    """Under another contract the trick's cards need not be legal: the table is of a trick start only."""
    from sergeant_major.search import Solver
    from sergeant_major.search.review import dd_table

    pos = Position.parse("9-5-2 | H | 2 | 5-5-4 | ..A. / QD / AS KD | 2S 9C")
    with pytest.raises(ValueError, match="not with a trick in progress"):
        dd_table(pos, Solver(tt_bits=10), None)


def test_wrong_hand_sizes_are_said_before_the_tricks_legality() -> None:
    with pytest.raises(PositionError, match="should hold"):
        Position.parse("9-5-2 | H | 2 | 5-5-4 | ..A. / 7S 8S / AS KD | 2S 9C")


def test_analyze_without_numba_notes_the_slowness_only_for_input_it_analyses(tmp_path: Path) -> None:
    """``analyze`` without numba printed its long "numba is not available" note before refusing a bad input (an
    unfinished match's save, a bad position), so the refusal came second; the note now comes only once the input
    is good, right before the searches."""
    import subprocess
    import sys

    exe = Path(sys.executable).parent / "sergeant-major"
    env = dict(os.environ, SERGEANT_MAJOR_NO_NUMBA="1")
    bad = subprocess.run([str(exe), "analyze", "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T | -"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "numba" not in bad.stderr and bad.stderr.startswith("error: "), bad.stderr
    good = subprocess.run([str(exe), "analyze", "9-5-2 | H | 0 | 5-5-5 | A... / K... / Q... | -", "-t", "5"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert good.returncode == 0 and "note: numba is not available" in good.stderr, (good.stdout, good.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("rules_text", ["9-5-2 dealer-assigns-targets=on",
                                        "9-5-2 dealer-assigns-targets=on contracts=suits-nt-mt"])
def test_a_records_table_uses_the_targets_the_dealer_assigned(rules_text: str) -> None:
    """With ``dealer-assigns-targets`` (seed 002's "double dealer right", docs/rules.md reference options) the dealer may take the
    target 2 himself: the table's declarer target and over-tricks are the deal's, not the preset's 9 (it said
    "target 9" and -1 for a declarer who took 10 tricks against his target 2); in minimum tricks the ceiling is
    that of the assigned targets."""
    from sergeant_major.core.actions import AssignTargets, NameContract
    from sergeant_major.core.deal import Deal, Phase
    from sergeant_major.core.match import deal_cards
    from sergeant_major.core.rules import minimum_ceilings
    from sergeant_major.search import Solution, Solver
    from sergeant_major.search.review import analyze_deal, deal_targets

    rules = Rules.parse(rules_text)
    hands, kitty = deal_cards(rules, 78, 1, 0)
    deal = Deal(rules, 0, hands, kitty)
    rng = random.Random(1)
    mt = "contracts=suits-nt-mt" in rules_text
    while deal.phase is not Phase.PLAY:
        act = deal.forced_action()
        if act is None:
            acts = deal.legal_actions()
            assign = [a for a in acts if isinstance(a, AssignTargets) and a.targets == (2, 9, 5)]
            named = [a for a in acts if isinstance(a, NameContract) and a.contract is Contract.MINIMUM]
            act = assign[0] if assign else named[0] if mt and named else rng.choice(acts)
        deal.apply(act)
    assert deal_targets(deal) == (2, 9, 5)
    m = deal.legal_play_mask()
    deal.play_unchecked(min(i for i in range(52) if m >> i & 1))

    class Ten(Solver):
        def value(self, p: Position, seat: int | None = None, *, time_limit: float | None = None) -> Solution:
            return Solution(seat or 0, 10 if seat == 0 else 3, 10 if seat == 0 else 3, 10 if seat == 0 else 3, True)

        def solve(self, p: Position, seat: int | None = None, *, cards: bool = True,
                  time_limit: float | None = None) -> Solution:
            return Solution(p.to_move, 3, 3, 3, True, {c: 3 for c in p.legal_cards()}, 0, False,
                            {c: (3, 3) for c in p.legal_cards()})

    t = analyze_deal(deal, Ten(tt_bits=8), 1.0)["table"]
    assert t["declarer"] == 0 and t["target"] == 2
    rows = {r["contract"]: r for r in t["rows"]}
    assert rows["S"]["target"] == 2 and rows["S"]["diff"] == [8, 8]
    if mt:
        assert rows["MT"]["target"] == minimum_ceilings((2, 9, 5))[0] == 9 and rows["MT"]["diff"] == [-1, -1]


@pytest.mark.parametrize("text", [
    "9-5-2 kitty=none | H | 2 | 2-4-5 | 42..JT98. / ..AQ.AJ94 / 53.T4..T2 | -",
    "9-5-2 kitty=none | H | 0 | 2-4-5 | 42..JT98. / ..AQ.AJ9 / 53.T4..T | 4C 2C",
])
def test_kitty_none_has_no_two_of_clubs(text: str) -> None:
    """With ``kitty=none`` the deck is 51 cards without the 2C (seed 002, Strikt 51; ``deal_cards``): a position
    holding or playing it cannot arise and is refused (it was solved as if the card were in play)."""
    with pytest.raises(PositionError, match=re.escape("2C: with kitty=none the 2C is removed")):
        Position.parse(text)
    assert Position.parse(text.replace("T2 |", "T3 |").replace("4C 2C", "4C 3C"))  # the 3C instead: fine


def test_hand_size_message_says_each_only_when_the_other_hands_agree() -> None:
    """Three different hand counts: the message said "the other hands hold 5 each" though one held 6; it now
    counts from the seat to move."""
    with pytest.raises(PositionError) as e:
        Position.parse("9-5-2 | H | 1 | 2-4-4 | 42..JT98. / ..AQ.AJ9 / 53.T4..T3 | 4C")
    assert str(e.value) == ("seat 0 holds 6 cards; with seat 1 to move holding 5 and 1 card(s) in the trick, "
                            "it should hold 4")


def test_play_unchecked_refuses_a_card_id_out_of_range_or_not_held() -> None:
    pos = Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    for bad in (-1, 52, 999):  # -1 was a bare ValueError "negative shift count"
        with pytest.raises(PositionError, match=re.escape(f"card id {bad} is outside 0..51")):
            pos.play_unchecked(bad)
    with pytest.raises(PositionError, match=re.escape("seat 2 does not hold 5C")):  # was a hand-size error
        pos.play_unchecked(3)
    assert pos.play_unchecked(1) == pos.play("3C")


@pytest.mark.slow
@pytest.mark.parametrize(("rules_text", "contract"), [
    ("9-5-2", None), ("3-5-8", Contract.MINIMUM), ("3-5-8 must-trump=off", Contract.NO_TRUMP),
    ("8-5-3 must-overtrump=on", None), ("9-5-2 players=4", None), ("9-2-5", None),
])
def test_what_each_card_of_a_deal_cost_matches_the_brute_force(rules_text: str, contract: Contract | None) -> None:
    """``analyze_deal``'s value before each card, value after it and cost, checked against the brute-force minimax
    of ``tests/search/test_solver.py`` (which shares nothing with the solver) on the deal's last three tricks."""
    from test_solver import brute_values

    from sergeant_major.core.actions import NameContract
    from sergeant_major.core.deal import Deal, Phase
    from sergeant_major.core.match import deal_cards
    from sergeant_major.search import Solver
    from sergeant_major.search.review import analyze_deal, play_start

    rules = Rules.parse(rules_text)
    rng = random.Random(rules_text)
    hands, kitty = deal_cards(rules, 91, 1, 0)
    deal = Deal(rules, 0, hands, kitty)
    while deal.phase is not Phase.PLAY:
        act = deal.forced_action()
        if act is None:
            acts = deal.legal_actions()
            named = [a for a in acts if isinstance(a, NameContract) and a.contract is contract]
            act = named[0] if named else rng.choice(acts)
        deal.apply(act)
    assert contract is None or deal.contract is contract
    while deal.phase is Phase.PLAY:
        m = deal.legal_play_mask()
        deal.play_unchecked(rng.choice([i for i in range(52) if m >> i & 1]))
    out = analyze_deal(deal, Solver(tt_bits=16), 0.05, table=False)
    plays = out["plays"]
    assert len(plays) == rules.tricks * rules.players
    pos = play_start(deal)
    checked = 0
    for i, p in enumerate(plays):
        cid = parse_card_id(p["card"])
        if len(plays) - i <= 3 * rules.players:
            value, after = brute_values(pos, p["seat"])
            cost = after[cid] - value if pos.misere else value - after[cid]
            assert (p["value"], p["played"], p["cost"]) == ([value, value], [after[cid]] * 2, cost), (i, p, pos)
            checked += 1
        pos = pos.play(cid)
    assert checked == 3 * rules.players
    assert out["tricks"] == list(pos.tricks)


def parse_card_id(text: str) -> int:
    from sergeant_major import parse_card

    return parse_card(text).id


def test_a_position_file_may_start_with_a_bom_and_one_that_is_not_a_position_says_why(tmp_path: Path) -> None:
    """A position text saved by a Windows editor (UTF-8 with a BOM, CRLF) is read (it was "not valid JSON: Extra
    data"); a file with a '|' that is neither a record nor a position says why it is not a position either."""
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode() + b"\r\n")
    r = runner.invoke(app, ["analyze", str(bom), "--json", "-t", "5"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value"] == [7, 7]
    two = tmp_path / "two.txt"
    two.write_text("my position\n" + text.replace("2-4-4", "2-4-5") + "\n", encoding="utf-8")
    r = runner.invoke(app, ["analyze", str(two)])
    assert r.exit_code == 2 and "not valid JSON" in r.output and "nor is it a position text: rules field" in r.output, r.output
    plain = tmp_path / "plain.txt"
    plain.write_text("hello\n", encoding="utf-8")
    r = runner.invoke(app, ["analyze", str(plain)])
    assert r.exit_code == 2 and "nor is it a position" not in r.output, r.output


@pytest.mark.slow
def test_best_cards_follow_the_value_the_table_narrowed() -> None:
    """The opening lead's value cut short (0..16) but the table's cell exact (3): a card whose bounds are 3..16 keeps
    the value, so it is the best card - the record's first card showed "cost 0" with no best card, and a position
    text the same."""
    from sergeant_major.cli.analyze import analyze_position
    from sergeant_major.search import Solution
    from sergeant_major.search.review import analyze_deal, play_start

    deal, lead = _deal_after_its_opening_lead()

    cut_short = _cut_short_solver(Solution(0, 3, 3, 3, True), {lead: (3, 16)})  # every table cell exact: 3

    (first,) = analyze_deal(deal, cut_short, 1.0)["plays"]
    assert first["cost"] == 0 and first["best"] == [str(CARDS[lead])], first
    a = analyze_position(play_start(deal), cut_short, 1.0)
    assert a["value"] == [3, 3] and a["best_cards"] == [str(CARDS[lead])], a


def test_a_records_table_picks_the_best_choice_among_the_contracts_left() -> None:
    """3-5-8 ``contract-once`` (seed 003: each player chooses each of the six contracts once): in the declarer's
    second deal the contract he chose before cannot be chosen again - its row is marked and the best choice is
    among the others (it named a contract the declarer could not choose)."""
    import io

    from rich.console import Console

    from sergeant_major.cli.analyze import _print_table
    from sergeant_major.search import Solution, Solver
    from sergeant_major.search.review import analyze_deal

    match = Match(Rules.preset("3-5-8"), seed=3)
    players = [RandomPlayer(), RandomPlayer(), RandomPlayer()]
    for _ in range(3):
        drive(match, players, until_deal_end=True)
    deal = match.deal  # deal 4: the first deal's playmaker again
    while deal.phase.value != "play":
        act = match.forced_action()
        match.apply(act if act is not None else random.Random(1).choice(match.legal_actions()))
    used = match.deals[0].contract
    assert used is not None and deal.declarer == match.deals[0].declarer and used not in deal.allowed_contracts

    class UsedIsBest(Solver):
        def value(self, p: Position, seat: int | None = None, *, time_limit: float | None = None) -> Solution:
            v = (16 if p.contract is not Contract.MINIMUM else 0) if p.contract is used and seat == deal.declarer else 5
            return Solution(seat or 0, v, v, v, True)

        def solve(self, p: Position, seat: int | None = None, *, cards: bool = True,
                  time_limit: float | None = None) -> Solution:
            return Solution(p.to_move, 5, 5, 5, True, {c: 5 for c in p.legal_cards()}, 0, False,
                            {c: (5, 5) for c in p.legal_cards()})

    t = analyze_deal(deal, UsedIsBest(tt_bits=8), 1.0)["table"]
    rows = {r["contract"]: r for r in t["rows"]}
    assert len(rows) == 6 and not rows[used.code]["allowed"]
    assert all(rows[c.code]["allowed"] for c in deal.allowed_contracts)
    assert t["best"] != used.code and Contract.parse(t["best"]) in deal.allowed_contracts
    con = Console(file=io.StringIO(), width=200)
    _print_table(con, t, ["A", "B", "C"])
    text = con.file.getvalue()  # type: ignore[attr-defined]
    assert f"{used.word} (chosen before)" in text and "not chosen before, contract-once" in text


def test_analyze_names_every_contract_tied_for_best() -> None:
    """Two contracts that surely do equally well are both the best choice: the table marks both and the text
    names both (it named the first only, as if the other were worse); ``best`` stays the first."""
    from rich.console import Console

    from sergeant_major.cli import analyze as cli_analyze

    rows = [{"contract": "C", "word": "clubs", "tricks": [[10, 10], [4, 4], [2, 2]], "diff": [1, 1]},
            {"contract": "D", "word": "diamonds", "tricks": [[9, 9], [5, 5], [2, 2]], "diff": [0, 0]},
            {"contract": "H", "word": "hearts", "tricks": [[10, 10], [3, 3], [3, 3]], "diff": [1, 1]}]
    con = Console(record=True, width=200)
    cli_analyze._print_table(con, {"declarer": 0, "target": 9, "leader": 1, "best": "C", "best_all": ["C", "H"],
                                   "rows": rows}, ["A", "B", "C"])
    assert "best choice: clubs or hearts (equally good)\n" in con.export_text()


def test_dd_table_reports_ties_for_the_best_contract() -> None:
    """``dd_table``'s ``best_all`` lists every allowed contract whose over-tricks are exact and equal to the best's:
    on a deal whose hands hold the same ranks in every suit, so that every trump suit gives the same counts."""
    from sergeant_major.search import Position, Solver
    from sergeant_major.search.review import dd_table

    pos = Position.parse("9-5-2 | S | 1 | 0-0-0 | AKQJ.AKQJ.AKQJ.AKQJ / T987.T987.T987.T987 / 6543.6543.6543.6543 | -")
    t = dd_table(pos, Solver(), None, jobs=1)
    diffs = {r["contract"]: r["diff"] for r in t["rows"]}
    best = diffs[t["best"]]
    assert t["best_all"][0] == t["best"]
    assert sorted(t["best_all"]) == sorted(c for c, d in diffs.items() if d == best and d[0] == d[1])
    assert sorted(t["best_all"]) == ["C", "D", "H", "S"], diffs
    assert t["certain"] is True  # no time limit: every cell exact


def test_dd_table_says_when_the_best_choice_is_not_certain() -> None:
    """``dd_table``'s ``certain`` is false when a cut-short cell leaves another contract's over-tricks reaching
    above the best's sure ones (the text says "not certain"), true when the other ranges surely do worse."""
    from sergeant_major.search import Position, Solution
    from sergeant_major.search.review import dd_table

    pos = Position.parse("9-5-2 | S | 1 | 0-0-0 | AKQJ.AKQJ.AKQJ.AKQJ / T987.T987.T987.T987 / 6543.6543.6543.6543 | -")

    declarer = (pos.leader - 1 + pos.rules.declarer_role) % pos.n

    class Cut:
        """A solver whose searches all end at once: every cell 0..16, the declarer's in spades 10..16."""
        def value(self, p: Position, seat: int, *, time_limit: float | None = None) -> Solution:
            lo = 10 if p.trump == pos.trump and seat == declarer else 0
            return Solution(seat, lo, lo, 16, False)

    t = dd_table(pos, Cut(), 1.0, jobs=1)  # type: ignore[arg-type]
    assert t["certain"] is False, t


def test_position_error_counts_one_card_in_the_singular() -> None:
    """A hand of one card among hands of two is "1 card", not "1 cards" (the message quotes the count)."""
    with pytest.raises(PositionError) as e:
        Position.parse("9-5-2 | H | 2 | 4-5-5 | A... / KQ... / JT... | -")
    assert "holds 1 card;" in str(e.value)


def test_analyze_table_title_says_you_lead() -> None:
    """The table's title names the leader with its verb: "You lead", "Ann leads" (it said "You leads")."""
    from io import StringIO

    from rich.console import Console

    from sergeant_major.cli.analyze import _print_table

    row = {"contract": "H", "word": "hearts", "tricks": [[9, 9], [4, 4], [3, 3]], "diff": [0, 0]}
    for names, want in ((["You", "Ann", "Bob"], "You lead)"), (["Ann", "You", "Bob"], "Ann leads)")):
        buf = StringIO()
        _print_table(Console(file=buf, width=200), {"rows": [row], "best": "H", "declarer": 1, "target": 9,
                                                    "leader": 0}, names)
        assert want in buf.getvalue(), buf.getvalue()
