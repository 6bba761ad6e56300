"""Numeric command-line options (int, float, int-or-None): a value that is not a number is a usage error (status 2)
that quotes it, on one line, before anything runs or is written; numbers go on to the commands as before
(:func:`sergeant_major.cli.app.parse_whole_number`, :func:`sergeant_major.cli.app.parse_number`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sergeant_major.cli.app import app, parse_number, parse_whole_number, register_commands

EXE = Path(sys.executable).parent / "sergeant-major"
DATA = Path(__file__).resolve().parents[1] / "data"
RECORD = str(DATA / "sample-9-5-2.json")
POSITION = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
WIDE = {"COLUMNS": "200"}  # the error panel does not wrap the message

register_commands()
runner = CliRunner()


def _message_line(output: str, quoted: str) -> str:
    """The one line of ``output`` that quotes the value; no traceback anywhere."""
    assert "Traceback" not in output, output
    lines = [ln for ln in output.splitlines() if quoted in ln]
    assert len(lines) == 1, output
    return lines[0]


# Every numeric option of every command: (command line before the option, option, a bad value, a good value and
# a text the command then prints: the number reached the command, whose own checks are unchanged).
OPTIONS = [
    # int
    (["simulate", "-w", "1", "--json"], "--games", "abc", "1", '"games": 1,'),
    (["simulate", "-n", "0"], "-n", "2.5", "-3", "--games -3: play at least 1 game"),
    (["simulate", "-n", "1", "--json"], "--workers", "two", "1", '"games": 1,'),
    (["tournament"], "--deals", "1e3", "-1", "--deals -1: may not be negative"),
    (["tournament"], "--matches", "", "-1", "--matches -1: may not be negative"),
    (["tournament"], "--first-board", "\u0663", "-1", "--first-board -1: may not be negative"),  # ARABIC-INDIC THREE
    (["tournament"], "-w", "0x10", "-1", "--workers -1: use 0 (one per core) or more"),
    (["serve"], "--port", "http", "70000", "--port 70000 is not a TCP port"),
    (["analyze", POSITION], "--deal", "one", "2", "--deal 2: "),
    # int | None (default None)
    (["replay", RECORD], "--deal", "1.5", "999", "--deal 999: the record"),
    (["replay", RECORD], "--game", "first", "9", "--game 9: "),
    (["check", RECORD], "--game", "1,2", "1", "OK: "),
    (["play"], "--game", "zz", "2", "--game picks a record of the --resume file"),
    (["analyze", POSITION], "-g", "-", "3", "--game 3: "),
    # float
    (["analyze", POSITION], "--time-limit", "fast", "-1", "'-1' is not a positive, finite number of seconds."),
    (["serve"], "--delay", "0,5", "11", "'11' is not a number of seconds in 0..10."),
]


@pytest.mark.parametrize(("before", "option", "bad", "good", "said"), OPTIONS,
                         ids=[f"{o[0][0]} {o[1]}" for o in OPTIONS])
def test_a_value_that_is_not_a_number_is_quoted(before: list[str], option: str, bad: str, good: str, said: str) -> None:
    res = runner.invoke(app, [*before, option, bad], env=WIDE)
    assert res.exit_code == 2, res.output
    kind = "a number" if option in ("--time-limit", "--delay") else "a whole number"
    line = _message_line(res.output, f"'{bad}' is not {kind}.")
    assert "Invalid value for '" in line
    res = runner.invoke(app, [*before, option, good], env=WIDE)
    assert said in res.output, res.output
    assert "Invalid value" not in res.output or option in ("--time-limit", "--delay")  # their ranges: usage errors


def _real(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``sergeant-major`` script, as a user runs it."""
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, **WIDE})


def test_real_command_int_option_refused_before_any_file_is_written(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = _real("simulate", "--games", "abc", "-w", "1", "--out", str(out))
    assert r.returncode == 2, r.stderr
    assert r.stderr == ("error: Invalid value for '--games' / '-n': 'abc' is not a whole number. "
                        "(see 'sergeant-major simulate --help')\n"), r.stderr  # one line, as the commands' own errors
    assert list(tmp_path.iterdir()) == []  # nothing written, no temporary file left
    r = _real("tournament", "--deals", "three", "--json", str(tmp_path / "t.json"))
    assert r.returncode == 2 and "'three' is not a whole number." in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []
    r = _real("simulate", "--games", "2", "-w", "1", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 2 and len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_real_command_float_option() -> None:
    r = _real("serve", "--delay", "soon")
    assert r.returncode == 2, r.stderr
    line = _message_line(r.stderr, "'soon'")
    assert "Invalid value for '--delay': 'soon' is not a number." in line
    r = _real("serve", "--delay", "1e3")  # a number out of range: quoted as typed (it said 1000.0)
    assert r.returncode == 2 and r.stderr == ("error: Invalid value for '--delay': '1e3' is not a number of seconds in "
                                              "0..10. (see 'sergeant-major serve --help')\n"), r.stderr


def test_real_command_optional_int_option() -> None:
    r = _real("replay", RECORD, "--game", "last")
    assert r.returncode == 2, r.stderr
    line = _message_line(r.stderr, "'last'")
    assert "Invalid value for '--game' / '-g': 'last' is not a whole number." in line
    r = _real("replay", RECORD, "--game", "1", "--deal", "4")
    assert r.returncode == 0, r.stderr
    assert "Deal 4" in r.stdout and "Deal 3" not in r.stdout
    r = _real("check", RECORD)  # no --game: None, every record
    assert r.returncode == 0 and r.stdout.startswith("OK: "), r.stderr


def test_quoted_value_shows_control_characters_escaped() -> None:
    res = runner.invoke(app, ["simulate", "--games", "\x1b[2J9\u202e"], env=WIDE)
    assert res.exit_code == 2
    line = _message_line(res.output, "'\\x1b[2J9\\u202e' is not a whole number.")
    assert "\x1b" not in line and "\u202e" not in line


@pytest.mark.parametrize(("text", "value"), [
    ("5", 5), ("-3", -3), ("0", 0), ("-0", 0), ("007", 7), (" +7 ", 7), ("\t12\n", 12), ("1_000", 1000),
    ("5.0", 5), ("-2.00", -2), ("9" * 30, int("9" * 30)),
])
def test_whole_numbers_typer_took_before(text: str, value: int) -> None:
    """What typer's own conversion (pydantic's lax integers) took is still taken, to the same value."""
    assert parse_whole_number(text) == value


@pytest.mark.parametrize("text", [
    "", " ", "abc", "5.5", "5.", ".5", "1e3", "0x10", "0b1", "1__0", "_1", "1_", "+-5", "- 5", "5 5", "\u0663",
    "inf", "nan", "1,000", "0-7", "5\x1c",
])
def test_not_whole_numbers(text: str) -> None:
    with pytest.raises(typer.BadParameter) as e:
        parse_whole_number(text)
    assert e.value.message == f"{text!r} is not a whole number."


def test_huge_whole_number_is_refused_by_name() -> None:
    with pytest.raises(typer.BadParameter, match="has too many digits"):
        parse_whole_number("9" * 5000)


@pytest.mark.parametrize(("text", "value"), [
    ("0.6", 0.6), ("5", 5.0), ("-1", -1.0), (" 2.5 ", 2.5), (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001),
    ("1_000.5", 1000.5), ("inf", float("inf")), ("-Infinity", float("-inf")),
])
def test_numbers_typer_took_before(text: str, value: float) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["", "abc", "0,5", "1e", "--1", "\u0663", "5s", "0x1p3", "nan\x1c"])
def test_not_numbers(text: str) -> None:
    with pytest.raises(typer.BadParameter) as e:
        parse_number(text)
    assert e.value.message == f"{text!r} is not a number."


def test_defaults_pass_through_the_parsers() -> None:
    """Typer hands an option's default to its parser: the value comes back as it is (a float for a float option)."""
    assert parse_whole_number(100) == 100 and type(parse_whole_number(100)) is int
    assert parse_number(0.6) == 0.6
    assert parse_number(5) == 5.0 and type(parse_number(5)) is float
    res = runner.invoke(app, ["tournament", "-w", "1", "--json", "-"], env=WIDE)  # --deals' default, 100
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["boards"] == 100


@pytest.mark.slow
@pytest.mark.parametrize(("args", "said"), [
    (["simulate", "--foo"], "error: No such option: --foo (Possible options: --force, --out) "
                            "(see 'sergeant-major simulate --help')"),
    (["analyze"], "error: Missing argument 'FILE|POSITION'. (see 'sergeant-major analyze --help')"),
    (["nosuch"], "error: No such command 'nosuch'. (see 'sergeant-major --help')"),
    (["tournament", "-n", "x"], "error: Invalid value for '--deals' / '-n': 'x' is not a whole number. "
                                "(see 'sergeant-major tournament --help')"),
])
def test_real_command_usage_errors_are_one_line(args: list[str], said: str) -> None:
    r = _real(*args)
    assert r.returncode == 2 and r.stdout == "" and r.stderr == said + "\n", r.stderr


def test_real_command_version() -> None:
    from sergeant_major import __version__

    r = _real("--version")
    assert r.returncode == 0 and r.stdout == f"sergeant-major {__version__}\n", r.stdout


SEEDED = [["simulate", "-n", "1", "-w", "1"], ["tournament", "-n", "1", "-w", "1"], ["play"]]


@pytest.mark.parametrize("command", SEEDED)
@pytest.mark.parametrize(("seed", "shown"), [
    ("-5", "'-5'"),  # play took it (its save 'match--5-...'), while a web table refuses a negative seed
    ("-0", "'-0'"),
    (str(2**62), f"'{2**62}'"),
    pytest.param("9" * (sys.get_int_max_str_digits() + 1),  # longer than int() converts: it was a ValueError traceback
                 f"'99999999999999999999'... ({sys.get_int_max_str_digits() + 1} characters)", id="more-digits-than-int"),
])
def test_a_seed_outside_the_webs_range_is_refused_alike_by_every_command(command: list[str], seed: str, shown: str,
                                                                         tmp_path: Path) -> None:
    """Every ``--seed`` takes what a web table takes (protocol ``NewTableRequest.seed``), in the same words."""
    res = runner.invoke(app, [*command, "--seed", seed, *(["--save-dir", str(tmp_path)] if command == ["play"] else [])],
                        env=WIDE, input="quit\n")
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    line = _message_line(res.output, f"--seed {shown}")
    assert line == f"error: --seed {shown} is not a non-negative integer below 2**62 (digits 0-9)", line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", SEEDED)
def test_help_states_the_seeds_range(command: list[str]) -> None:
    r = runner.invoke(app, [command[0], "--help"], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if "--seed" in ln)
    assert "a non-negative integer below 2**62" in line, line


def test_the_largest_seed_is_taken() -> None:
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--seed", str(2**62 - 1), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["seed"] == 2**62 - 1


def test_help_shows_no_type_for_a_flag() -> None:
    # typer 0.29 showed '<bool>' beside --json, --spoilers, --help, as if each took a value
    r = runner.invoke(app, ["analyze", "--help"], env={"COLUMNS": "160"})
    assert r.exit_code == 0, r.output
    assert "<bool>" not in r.output, r.output
    assert "<int>" in r.output and "<float>" in r.output  # options that take a value still show its type
    flags = [ln for ln in r.output.splitlines() if "--json" in ln or "--spoilers" in ln]
    assert len(flags) == 2 and all("<" not in ln for ln in flags), flags


@pytest.mark.parametrize(("args", "said"), [
    (["analyze", POSITION, "-t", "0"], "'0' is not a positive, finite number of seconds."),
    (["analyze", POSITION, "-t", "0.0"], "'0.0' is not a positive, finite number of seconds."),
    (["serve", "--delay", "11"], "'11' is not a number of seconds in 0..10."),
])
def test_a_number_out_of_range_is_quoted_as_typed(args: list[str], said: str) -> None:
    # the range checks said the converted number: '--time-limit 0.0' for '-t 0', '--delay 11.0' for '11'
    res = runner.invoke(app, args, env=WIDE)
    assert res.exit_code == 2, res.output
    assert said in _message_line(res.output, said), res.output


@pytest.mark.parametrize("args", [["replay", ""], ["check", ""], ["play", "--resume", ""], ["play", "--save-dir", ""],
                                  ["simulate", "-n", "1", "-w", "1", "--out", ""]])
def test_an_empty_file_name_is_refused_as_typed(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # typer made '' the current folder: 'replay ""' answered about '.', 'play --save-dir ""' saved in the current folder
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, args, env={**WIDE, "XDG_DATA_HOME": str(tmp_path / "xdg")}, input="")
    assert res.exit_code == 2, res.output
    assert "'' is empty: give a file or folder name." in _message_line(res.output, "''"), res.output
    assert "'.'" not in res.output
    assert list(tmp_path.iterdir()) == []  # nothing saved or written anywhere


@pytest.mark.slow
def test_a_deal_beyond_the_record_quotes_the_file_and_one_player_is_singular(tmp_path: Path) -> None:
    """``replay FILE --deal 99`` and ``analyze FILE --deal 99`` quote the file's name (a name with spaces read as part of
    the sentence); ``simulate -p heuristic`` says "1 player given", not "1 players"."""
    spaced = tmp_path / "my game.json"
    spaced.write_text(Path(RECORD).read_text(encoding="utf-8"), encoding="utf-8")
    for cmd in ("replay", "analyze"):
        r = _real(cmd, str(spaced), "--deal", "99")
        assert r.returncode != 0 and f"the record {str(spaced)!r} has deals 1.." in r.stderr, (cmd, r.stderr)
    r = _real("simulate", "-n", "1", "-p", "heuristic")
    assert r.returncode != 0 and "1 player given" in r.stderr, r.stderr


@pytest.mark.parametrize(("command", "paragraph"), [
    ("simulate", "Players rotate through the seats and the first dealer is always seat 0, so over every n games each "
                 "player sits in each seat and deals first once (over n! games, all seatings are used)."),
    ("check", "Exit 0 and the final totals when it is; 1 naming the first fault (deal, action number, seat, action, rule); "
              "2 for a file that cannot be read or is malformed."),
    ("replay", "end that the rules do not give (as check finds them)."),
])
def test_help_paragraphs_are_wrapped_to_the_terminal_not_at_the_sources_line_breaks(command: str, paragraph: str) -> None:
    """The repro: ``simulate --help`` broke 'so over every n games' onto a line of its own and went on with 'each player
    sits...' on the next: typer 0.29 kept the docstring's line breaks inside a paragraph, and rich wrapped each line
    again; ``check --help`` showed ``simulate --out`` with its reST backticks."""
    r = runner.invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert r.exit_code == 0
    # 400 columns hold each paragraph on one line: it is broken nowhere else
    assert any(paragraph in line for line in r.stdout.splitlines()), r.stdout
    assert "``" not in r.stdout


@pytest.mark.parametrize("command", SEEDED)
@pytest.mark.parametrize("rules", ["", "  "])
def test_blank_rules_are_refused_alike_by_every_command(command: list[str], rules: str, tmp_path: Path) -> None:
    """``--rules ""`` (an empty shell variable) is refused, quoted, instead of playing the default preset unseen."""
    res = runner.invoke(app, [*command, "--rules", rules, *(["--save-dir", str(tmp_path)] if command == ["play"] else [])],
                        env=WIDE, input="quit\n")
    assert res.exit_code == 2, res.output
    line = _message_line(res.output, "--rules")
    assert line.startswith(f"error: --rules {rules!r} names no rules: give a preset and options"), line
    assert list(tmp_path.iterdir()) == []
