"""Tests of the simulation: determinism across worker counts, seat rotation, statistics, the command."""

from __future__ import annotations

import json
import math
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sergeant_major.cli.app import app, register_commands
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.eval.simulate import (
    game_seed,
    parse_levels,
    play_game,
    result_schema_path,
    seat_slots,
    simulate,
    simulate_iter,
    summarize,
)
from sergeant_major.eval.stats import cluster_ratio_ci

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).parent / "sergeant-major"
LEVELS = ("heuristic", "random", "random")

register_commands()
runner = CliRunner()


# ------------------------------------------------------------------ determinism
def test_same_seed_same_summary_whatever_the_workers() -> None:
    rules = Rules.preset("9-5-2")
    one = simulate(rules, LEVELS, games=8, seed=11, workers=1)
    two = simulate(rules, LEVELS, games=8, seed=11, workers=2)
    assert one == two
    assert one.games == 8 and one.deals >= 8


def test_other_seed_other_games() -> None:
    rules = Rules.preset("8-5-3")
    a = [o for o, _ in simulate_iter(rules, LEVELS, 6, seed=1)]
    b = [o for o, _ in simulate_iter(rules, LEVELS, 6, seed=2)]
    assert [o.seed for o in a] != [o.seed for o in b]
    assert a == [o for o, _ in simulate_iter(rules, LEVELS, 6, seed=1)]


def test_game_seed_depends_on_seed_and_game() -> None:
    seeds = {game_seed(s, g) for s in range(5) for g in range(20)}
    assert len(seeds) == 100
    assert all(0 <= x < 1 << 48 for x in seeds)


def test_progress_is_called_in_game_order() -> None:
    calls: list[tuple[int, int]] = []
    simulate(Rules.preset("9-5-2"), ["random"] * 3, games=4, seed=0, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


# ------------------------------------------------------------------ seats and roles
@pytest.mark.parametrize("n", [3, 4])
def test_seat_rotation_puts_each_slot_in_each_seat_once_per_block(n: int) -> None:
    for block in range(3):
        seen = {(slot, seat) for g in range(block * n, block * n + n) for seat, slot in enumerate(seat_slots(n, g))}
        assert seen == {(i, s) for i in range(n) for s in range(n)}


def test_all_seatings_over_n_factorial_games() -> None:
    assert [seat_slots(3, g) for g in range(6)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    assert seat_slots(3, 6) == seat_slots(3, 0)
    four = {seat_slots(4, g) for g in range(24)}
    assert len(four) == 24  # every permutation once
    # who sits to whose left is balanced: each ordered pair of neighbours equally often
    left = [(o[s], o[(s + 1) % 3]) for g in range(6) for o in [seat_slots(3, g)] for s in range(3)]
    assert {p: left.count(p) for p in set(left)} == {(a, b): 3 for a in range(3) for b in range(3) if a != b}


def test_each_slot_deals_first_once_per_block() -> None:
    rules = Rules.preset("9-5-2")
    first_dealers = []
    for g in range(3):
        _, match = play_game(rules, LEVELS, 5, g)
        assert match.first_dealer == 0
        assert match.deals[0].dealer == 0
        first_dealers.append(int(match.names[0].split(":")[0]) - 1)  # the slot at seat 0
    assert sorted(first_dealers) == [0, 1, 2]


def test_outcome_is_the_match_seen_by_slot() -> None:
    rules = Rules.preset("9-5-2")
    for g in range(4):
        outcome, match = play_game(rules, LEVELS, 3, g)
        slots = seat_slots(3, g)
        assert outcome.deals == len(match.results) == len(match.deals)
        for s in range(3):
            i = slots[s]
            assert match.names[s] == f"{i + 1}:{LEVELS[i]}"
            assert outcome.score[i] == match.totals[s]
            assert sum(outcome.role_deals[i]) == outcome.deals
            assert sum(outcome.role_tricks[i]) == sum(r.tricks[s] for r in match.results)
        # every deal: the roles of the three slots are the three roles
        assert [sum(outcome.role_deals[i][role] for i in range(3)) for role in range(3)] == [outcome.deals] * 3
        assert match.end is not None
        assert outcome.winners == tuple(sorted(slots[s] for s in match.end.winners))


def test_instant_wins_are_found() -> None:
    rules = Rules.preset("9-5-2")
    found = 0
    for g in range(12):
        outcome, match = play_game(rules, LEVELS, 0, g)
        assert match.end is not None
        big = "wins at once" in match.end.reason
        assert (outcome.instant is not None) == big
        if big:
            found += 1
            assert outcome.winners == (outcome.instant,)
            assert max(match.results[-1].tricks) >= 12
    assert found > 0  # the heuristic player often takes 12+ tricks against random players


def test_no_instant_win_column_without_the_rule() -> None:
    s = simulate(Rules.parse("9-5-2 instant-win=off"), LEVELS, games=3, seed=0)
    assert all(p.instant_wins is None for p in s.players)


# ------------------------------------------------------------------ statistics
def test_summary_adds_up() -> None:
    rules = Rules.preset("9-5-2")
    outcomes = [o for o, _ in simulate_iter(rules, LEVELS, 9, seed=4)]
    s = summarize(rules, LEVELS, 4, outcomes)
    assert math.isclose(sum(p.wins for p in s.players), 9)
    assert s.deals == sum(o.deals for o in outcomes)
    # running scoring: the scores of a deal add up to 0, and the score is the over-tricks
    assert math.isclose(sum(p.mean_score for p in s.players), 0, abs_tol=1e-12)
    for p in s.players:
        assert p.mean_score == p.mean_over
        assert p.score_ci95 is not None and p.score_ci95 > 0
        tricks = sum(p.mean_tricks_by_role[r] or 0 for r in ("dealer", "eldest", "third"))
        assert 0 < tricks < 48
    assert s.players[0].label == "1:heuristic"
    assert json.loads(json.dumps(s.to_json()))["players"][0]["label"] == "1:heuristic"


def test_ratio_ci_by_hand() -> None:
    # two matches: Student's t(0.975, 1) = 12.706, not 1.96 (which made the intervals of a few matches too narrow)
    mean, ci = cluster_ratio_ci([2, 4], [1, 1])
    assert mean == 3
    assert ci is not None and math.isclose(ci, 12.706 * math.sqrt(2 * 2) / 2)
    mean, ci = cluster_ratio_ci([6, 0], [2, 4])  # clusters of different sizes
    assert mean == 1
    assert ci is not None and math.isclose(ci, 12.706 * math.sqrt(2 * ((6 - 2) ** 2 + (0 - 4) ** 2)) / 6)
    assert cluster_ratio_ci([5], [3]) == (5 / 3, None)
    # six matches: t(0.975, 5) = 2.571
    totals, sizes = [3, -1, 4, 0, 2, -2], [3, 2, 4, 3, 3, 2]
    m = sum(totals) / sum(sizes)
    se = math.sqrt(6 / 5 * sum((t - m * d) ** 2 for t, d in zip(totals, sizes, strict=True))) / sum(sizes)
    mean, ci = cluster_ratio_ci(totals, sizes)
    assert math.isclose(mean, m) and ci is not None and math.isclose(ci, 2.571 * se)


def test_t975_is_students_t() -> None:
    from sergeant_major.eval.stats import t975

    # Student's t(0.975, df) to 3 decimals (any table): 1 -> 12.706, 10 -> 2.228, 30 -> 2.042, 60 -> 2.000, 120 -> 1.980
    for df, t in ((1, 12.706), (10, 2.228), (30, 2.042), (60, 2.000), (120, 1.980), (10**6, 1.960)):
        assert abs(t975(df) - t) < 0.002, (df, t975(df))
    with pytest.raises(ValueError, match="df=0"):
        t975(0)


def test_bad_input_is_refused() -> None:
    rules = Rules.preset("9-5-2")
    with pytest.raises(SergeantMajorError, match="'wizard'"):
        parse_levels("heuristic,wizard,random", 3)
    with pytest.raises(SergeantMajorError, match="need 3"):
        parse_levels("heuristic,random", 3)
    with pytest.raises(SergeantMajorError, match="games=0"):
        simulate(rules, LEVELS, games=0)
    with pytest.raises(SergeantMajorError, match="workers=0"):
        simulate(rules, LEVELS, games=1, workers=0)


# ------------------------------------------------------------------ the command
def test_cli_json_summary() -> None:
    res = runner.invoke(app, ["simulate", "--games", "4", "--seed", "3", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["games"] == 4 and d["seed"] == 3 and d["levels"] == list(LEVELS)
    expected = simulate(Rules.preset("9-5-2"), LEVELS, games=4, seed=3)
    assert d["deals"] == expected.deals
    assert [p["wins"] for p in d["players"]] == [p.wins for p in expected.players]


def test_cli_table() -> None:
    res = runner.invoke(app, ["simulate", "-n", "3", "--rules", "8-5-3", "--players", "random,heuristic,random", "-w", "1"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "3 matches of 8-5-3" in out
    assert "2:heuristic" in out and "1:random" in out and "3:random" in out
    assert "12+" in out  # 8-5-3 ends at 12+ tricks


@pytest.mark.parametrize(("args", "quoted"), [
    (["--rules", "9-5-2 must-trump=maybe"], "'maybe'"),
    (["--rules", "7-7-2"], "'7-7-2'"),
    (["--players", "heuristic,wizard,random"], "'wizard'"),
    (["--players", "random,random"], "need 3"),
    (["--games", "0"], "--games 0"),
    (["--workers", "-1"], "--workers -1"),
    (["--out", "/nonexistent-dir/x.jsonl"], "/nonexistent-dir/x.jsonl"),
    (["--out", "x" * 300 + ".jsonl"], "File name too long"),  # stat() itself fails: no traceback
    (["--seed", "1_000"], "--seed '1_000'"),
    (["--seed", "+5"], "--seed '+5'"),
    (["--seed", " 7 "], "--seed ' 7 '"),
    (["--seed", "\u0663"], "--seed '\u0663'"),  # ARABIC-INDIC DIGIT THREE
    (["--force"], "--force without --out"),
    (["--out", "-"], "--out '-'"),  # it wrote a file named '-' (tournament's --json - is standard output)  # it replaces nothing: it used to be taken and do nothing
])
def test_cli_bad_input_one_line_exit_2(args: list[str], quoted: str) -> None:
    res = runner.invoke(app, ["simulate", "-n", "1", *args])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ")
    assert quoted in res.stderr
    assert res.stderr.count("\n") == 1
    assert "Traceback" not in res.output



def test_cli_seed_is_plain_digits_and_a_refused_one_writes_nothing(tmp_path: Path) -> None:
    """``--seed`` takes ASCII digits (as ``play``), not int()'s ``+5`` or ``1_000``, nor a negative seed; a refused
    seed leaves ``--out`` unwritten."""
    out = tmp_path / "r.jsonl"
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--seed", "1_000", "--out", str(out)])
    assert res.exit_code == 2 and "'1_000'" in res.stderr and not out.exists() and list(tmp_path.iterdir()) == []
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--seed", "-3", "--out", str(out)])
    assert res.exit_code == 2 and "'-3'" in res.stderr and not out.exists()  # the web's range: 0 <= seed < 2**62
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["seed"] == 3

@pytest.mark.slow
def test_real_command_writes_records(tmp_path: Path) -> None:
    pytest.importorskip("sergeant_major.records", reason="the records package is not there yet")
    from sergeant_major.records import check_record, loads_record

    out = tmp_path / "games.jsonl"
    proc = subprocess.run([str(EXE), "simulate", "--games", "5", "--workers", "2", "--seed", "9", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "5 matches of 9-5-2" in proc.stdout
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    for g, line in enumerate(lines):
        rec = loads_record(line)
        assert rec["meta"]["game"] == g
        assert rec["seed"] == game_seed(9, g)
        assert rec["first_dealer"] == 0
        slots = seat_slots(3, g)
        assert [p["kind"] for p in rec["players"]] == [LEVELS[slots[s]] for s in range(3)]
        match = check_record(rec)
        assert match.totals == rec["totals"]


def test_3_5_8_matches_have_18_deals_and_over_tricks_are_the_exchange_diffs() -> None:
    rules = Rules.preset("3-5-8")
    for g in range(2):
        outcome, match = play_game(rules, LEVELS, 1, g)
        assert outcome.deals == 18
        slots = seat_slots(3, g)
        for s in range(3):
            assert outcome.over[slots[s]] == sum(r.diffs[s] for r in match.results)
    s = simulate(rules, LEVELS, games=2, seed=1)
    assert s.deals == 36
    assert all(p.instant_wins is None for p in s.players)  # 3-5-8 has no instant win


def test_cli_default_players_follow_the_rules_player_count() -> None:
    """--rules with players=4 and no --players: heuristic and three random players, not a count error."""
    res = runner.invoke(app, ["simulate", "-n", "2", "--rules", "9-5-2 players=4", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["levels"] == ["heuristic", "random", "random", "random"]
    from sergeant_major.eval.simulate import default_levels

    assert default_levels(3) == "heuristic,random,random"


def test_out_never_replaces_a_file_unasked(tmp_path: Path) -> None:
    """``--out`` onto a file that exists (a saved match, say) is refused and the file kept; ``--force``
    replaces it; no temporary file is left beside it either way."""
    out = tmp_path / "saved.json"
    out.write_text("my saved match\n", encoding="utf-8")
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--out", str(out)])
    assert res.exit_code == 2 and "exists" in res.stderr and "--force" in res.stderr and str(out) in res.stderr
    assert out.read_text(encoding="utf-8") == "my saved match\n"
    out.chmod(0o600)
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--out", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    assert out.stat().st_mode & 0o777 == 0o600  # the replaced file's mode is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.json"]


def test_out_onto_a_folder_is_refused_before_any_match_is_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out FOLDER --force`` played every match and only then failed at the rename ('Is a directory'): the
    whole run was lost. It is refused before the first match, as tournament --json refuses a folder."""
    import sergeant_major.eval.simulate as sim

    played: list[int] = []
    real = sim._worker

    def counting(*args: object) -> object:
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "_worker", counting)
    folder = tmp_path / "runs"
    folder.mkdir()
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--out", str(folder), "--force"])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: cannot write {str(folder)!r}: Is a directory\n", res.stderr
    assert played == [] and list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["runs"]
    # without --force the advice was to add --force, which does not replace a folder either
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--out", str(folder)])
    assert res.exit_code == 2 and res.stderr == f"error: cannot write {str(folder)!r}: Is a directory\n", res.stderr


def test_the_workers_said_are_the_processes_that_played() -> None:
    """``-n 1 -w 2`` played in one process (never more workers than games) but said '2 workers' and ``"workers": 2``."""
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["workers"] == 1
    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "2"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert " s, 1 worker, " in res.stdout, res.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes and links")
def test_out_onto_a_pipe_or_a_link_writes_into_it_not_over_it(tmp_path: Path) -> None:
    """``--out --force`` onto a FIFO, a device (``--out /dev/null`` as root: in /dev) or a symbolic link replaced it
    with a regular file (the rename of the temporary file): a pipe or a device is now written directly and a
    link's file replaced, the link kept."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "-r", "9-5-2 deals=1", "--out", str(fifo), "--force"])
        assert res.exit_code == 0, res.output
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        assert len(os.read(reader, 1 << 16).decode("utf-8").splitlines()) == 1
    finally:
        os.close(reader)
    (tmp_path / "real.jsonl").write_text("old\n", encoding="utf-8")
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "-r", "9-5-2 deals=1", "--out", str(tmp_path / "link.jsonl"),
                              "--force"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "link.jsonl").is_symlink()
    assert len((tmp_path / "real.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "pipe", "real.jsonl"]


def test_the_out_file_is_named_as_it_is_in_the_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'records written to NAME' was rich markup: '[red]r.jsonl' showed as 'r.jsonl', a name with '[/]' was a
    MarkupError traceback (status 1) after the run, and a control character went to the terminal as it was."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a[").mkdir()
    for name, shown in (("[red]r.jsonl", "[red]r.jsonl"), ("a[/]b.jsonl", "a[/]b.jsonl"), ("e\x1b[2Jx.jsonl", "e\\x1b[2Jx.jsonl")):
        res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "-r", "9-5-2 deals=1", "--out", name])
        assert res.exit_code == 0, (name, res.output, res.exception)
        assert "\x1b" not in res.stdout and f";recordswrittento{shown}" in "".join(res.stdout.split()), res.stdout
        assert len((tmp_path / name).read_text(encoding="utf-8").splitlines()) == 1


def test_json_leaves_stderr_empty_off_a_terminal() -> None:
    """The repro: ``simulate --json`` with stderr not a terminal wrote one blank line there (the transient progress bar)."""
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr == "" and json.loads(res.stdout)["games"] == 2, repr(res.stderr)


def test_win_rates_have_a_wilson_interval_also_at_no_win() -> None:
    """Each match is one trial (a shared win counting 1/k): the win rate's 95% interval is Wilson's, inside 0..100 %
    and of positive width also when a player never wins (a Wald interval gave '0.0 +- 0.0'); with 1 match, none."""
    from sergeant_major.eval.stats import t975, wilson

    s = simulate(Rules.parse("9-5-2"), ["heuristic", "random", "random"], games=12, seed=0)
    for p in s.players:
        assert p.win_pct_ci95 is not None
        lo, hi = p.win_pct_ci95
        rate = 100 * p.wins / p.matches
        assert 0.0 <= lo <= rate <= hi <= 100.0 and hi - lo > 5.0
    weak = [p for p in s.players if p.wins == 0]
    assert weak, "the random players win none of these 12 matches"
    exp = wilson(0.0, 12, t975(11))  # at 0 wins the number of matches is the number of trials
    assert weak[0].win_pct_ci95 == (round(100 * exp[0], 3), round(100 * exp[1], 3))
    assert simulate(Rules.parse("9-5-2"), ["heuristic", "random", "random"], games=1, seed=0).players[0].win_pct_ci95 is None
    d = s.to_json()
    assert json.loads(json.dumps(d))["players"][1]["win_pct_ci95"] == list(s.players[1].win_pct_ci95 or ())


def test_out_onto_a_device_or_a_pipe_needs_no_force(tmp_path: Path) -> None:
    """The repro: ``simulate --out /dev/null`` was refused as "--out '/dev/null' exists; ... add --force to replace it",
    though a device or a pipe is written to, never replaced (docs/tournament.md: --json and --out write them
    directly); a regular file that exists still needs --force."""
    import threading

    res = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--out", os.devnull])
    assert res.exit_code == 0, res.output
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--out", str(fifo)])
    reader.join(30)
    assert res.exit_code == 0, res.output
    assert len(got[0].splitlines()) == 2 and fifo.exists()


@pytest.mark.parametrize("command", ["simulate", "tournament"])
@pytest.mark.parametrize(("players", "said"), [
    ("heuristic,random,random,", "'heuristic,random,random,' has an empty player level (a comma too many?); give LEVEL,LEVEL,..."),
    ("heuristic,,random", "'heuristic,,random' has an empty player level (a comma too many?); give LEVEL,LEVEL,..."),
    ("", "'' names no player level; give LEVEL,LEVEL,..."),
])
def test_an_empty_player_level_is_named_as_empty(command: str, players: str, said: str) -> None:
    """The repro: a comma too many in --players was refused as "unknown player level '' in ...", as if '' had been
    typed as a level's name."""
    n = "-n" if command == "simulate" else "--deals"
    res = runner.invoke(app, [command, n, "1", "-w", "1", "--players", players])
    assert res.exit_code == 2 and res.stderr.startswith(f"error: {said} (levels: random, "), res.output


def test_the_notes_under_the_table_wrap_at_the_terminals_width(tmp_path: Path) -> None:
    """The notes under ``simulate``'s table were its caption, wrapped at the table's width (76 columns) on a terminal of
    any width. Now each note is a paragraph that wraps at the terminal's: whole lines on a wide one, and a file name
    in them is shown as given (not read as rich markup)."""
    out = tmp_path / "a[b]c.jsonl"
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1", "--out", str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    table_width = max(len(ln) for ln in lines if "1:heuristic" in ln and "±" in ln)
    note = next(ln for ln in lines if ln.startswith("win%:"))
    assert note.endswith("3:random 0.0..98.8") and len(note) > table_width, res.stdout
    assert lines[-1].endswith(f"records written to {out}"), res.stdout
    res = runner.invoke(app, ["simulate", "-n", "2", "-w", "1"], env={"COLUMNS": "60"})
    assert res.exit_code == 0 and max(len(ln.rstrip()) for ln in res.stdout.splitlines()) <= 60, res.stdout


@pytest.mark.parametrize("games", ["1000001", "1_000_000_000_000", "9" * 50])
def test_simulate_refuses_more_games_than_one_run_plays(games: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate --games N`` had no upper bound: a huge N was taken and then played for days, keeping every outcome
    in memory. More than MAX_GAMES is now a one-line error (status 2) quoting the number, before any match is played."""
    import sergeant_major.cli.simulate as command
    import sergeant_major.eval.simulate as sim

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a match was played")

    monkeypatch.setattr(command, "simulate_iter", played)
    res = runner.invoke(app, ["simulate", "--games", games, "-w", "1"])
    assert res.exit_code == 2 and res.stdout == "", res.output
    shown = str(int(games))[:20]
    assert res.stderr.startswith(f"error: --games {shown}") and f"at most {sim.MAX_GAMES} games" in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize(("kwargs", "quoted"), [
    ({"seed": -1}, "seed=-1"), ({"seed": 1.5}, "seed=1.5"), ({"seed": True}, "seed=True"), ({"seed": 2**62}, "seed="),
    ({"games": True}, "games=True"), ({"workers": 1.0}, "workers=1.0"), ({"rules": None}, "rules=None"),
])
def test_library_simulate_refuses_a_bad_seed_or_count_quoting_it(kwargs: dict[str, Any], quoted: str) -> None:
    """A seed is hashed as its text: ``1.5`` or ``-1`` played matches of their own, ``True`` others than ``1``;
    ``games=True`` was one game. Each is refused quoting it, as ``simulate --seed`` does."""
    args: dict[str, Any] = {"rules": Rules.parse("9-5-2"), "levels": LEVELS, "games": 1}
    with pytest.raises(SergeantMajorError, match=re.escape(quoted)):
        simulate(**{**args, **kwargs})


def test_library_simulate_takes_rules_and_levels_as_text() -> None:
    """``simulate("8-5-3", "heuristic,random,random", ...)`` is the run of the parsed rules and the list of levels."""
    assert simulate("8-5-3", "heuristic,random,random", 2, seed=5) == simulate(Rules.parse("8-5-3"), list(LEVELS), 2, seed=5)


# ------------------------------------------------------------------ the --json schema
@pytest.mark.parametrize(("rules", "games"), [("9-5-2", 2), ("3-5-8", 1), ("8-5-3 players=4 deals=2", 2), ("9-2-5", 3)])
def test_simulate_json_validates_against_its_shipped_schema(rules: str, games: int) -> None:
    """``simulate --json`` (one match: the intervals are null; four players: a fourth role; 3-5-8 and 9-2-5: no
    instant win) is a document of ``simulate_result_schema.json``."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(result_schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    res = runner.invoke(app, ["simulate", "--rules", rules, "-n", str(games), "-w", "1", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert len(doc["players"]) == Rules.parse(rules).players


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d.pop("players"), "$"),
    (lambda d: d.update(extra=1), "$"),
    (lambda d: d["players"][0].update(wins=-1), "$.players[0].wins"),
    (lambda d: d["players"][1]["mean_tricks_by_role"].update(fifth=3.0), "$.players[1].mean_tricks_by_role"),
])
def test_the_simulate_schema_refuses_a_changed_summary(change: Any, path: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(result_schema_path().read_text(encoding="utf-8"))
    doc = simulate(Rules.parse("9-5-2"), LEVELS, 2, seed=3).to_json()
    assert json.loads(json.dumps(doc)) == doc  # JSON-ready: lists, not tuples
    jsonschema.Draft202012Validator(schema).validate(doc)
    change(doc)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert errors and errors[0].json_path == path, [e.json_path for e in errors]


def test_the_simulate_schema_is_named_like_the_other_shipped_schemas() -> None:
    """Its ``$id`` was a GitHub address the project does not own (and that a stranger could take); the other shipped
    schemas (tournament, record, review) are named under the reserved ``sergeant-major.invalid``, which no one can
    serve."""
    schema = json.loads(result_schema_path().read_text(encoding="utf-8"))
    assert schema["$id"] == "https://sergeant-major.invalid/simulate_result_schema.json"
