"""Tests of the duplicate tournament and the ``beginner`` level: seat arrangements, exact cancellation of
luck between identical players, strength ordering, determinism across workers, oracle players, the command."""

from __future__ import annotations

import json
import math
import os
import random
import re
import stat
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sergeant_major.cli.app import app, register_commands
from sergeant_major.core.actions import Action
from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.eval.tournament import (
    MAX_BOARDS,
    MAX_MATCHES,
    MatchOutcome,
    OraclePlayer,
    arrangements,
    board_seed,
    make_board,
    mean_ci,
    parse_players,
    play_board_game,
    play_match_game,
    share_ci,
    summarize,
    tournament,
    tournament_iter,
)
from sergeant_major.players import LEVELS, HeuristicPlayer, Player, make_player, play_match
from sergeant_major.players.beginner import BeginnerPlayer

EXE = Path(sys.executable).parent / "sergeant-major"
PRESETS = ("9-5-2", "8-5-3", "9-2-5", "3-5-8")

register_commands()
runner = CliRunner()


# ------------------------------------------------------------------ seat arrangements
@pytest.mark.parametrize("n", [3, 4])
def test_arrangements_put_every_slot_in_every_seat_equally(n: int) -> None:
    arrs = arrangements(n)
    assert len(arrs) == math.factorial(n) and len(set(arrs)) == len(arrs)
    seen = Counter((slot, seat) for p in arrs for seat, slot in enumerate(p))
    assert set(seen) == {(i, s) for i in range(n) for s in range(n)}
    assert set(seen.values()) == {math.factorial(n - 1)}


class _Recorder(HeuristicPlayer):
    """A heuristic player that notes the seat, the slot label and the board's cards of every decision."""

    log: list[tuple[str, int, int]] = []

    def choose(self, view: View, rng: random.Random) -> Action:
        _Recorder.log.append((view.names[view.seat], view.seat, view.role(view.seat)))
        return super().choose(view, rng)


def test_every_player_sits_in_every_seat_and_role_on_a_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "recorder", _Recorder)
    _Recorder.log = []
    play_board_game(Rules.preset("9-5-2"), ("recorder", "recorder", "recorder"), 5, 0, memo=False)
    by_slot: dict[str, set[int]] = {}
    for label, seat, _ in _Recorder.log:
        by_slot.setdefault(label, set()).add(seat)
    assert by_slot == {"1:recorder": {0, 1, 2}, "2:recorder": {0, 1, 2}, "3:recorder": {0, 1, 2}}


# ------------------------------------------------------------------ boards
def test_boards_are_seeded_and_carry_the_exchange() -> None:
    rules = Rules.preset("9-5-2")
    a = make_board(rules, 3, 7)
    assert a == make_board(rules, 3, 7)
    assert a != make_board(rules, 4, 7)
    assert a.number == 2 and a.prev is not None and a.seed == board_seed(3, 7) and a.dealer == 7 % 3
    first = make_board(rules, 3, 7, first_deals=True)
    assert first.prev is None and first.number == 1
    assert make_board(rules, 3, 7, dealer=2).dealer == 2
    res = tournament(rules, ["heuristic"] * 3, boards=6, seed=2)
    assert res.exchange_boards > 0
    assert tournament(rules, ["heuristic"] * 3, boards=6, seed=2, first_deals=True).exchange_boards == 0


# ------------------------------------------------------------------ duplicate cancels luck
@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", ["heuristic", "random", "beginner"])
def test_identical_players_differ_by_exactly_zero_on_every_board(preset: str, level: str) -> None:
    res = tournament(Rules.preset(preset), [level] * 3, boards=4, seed=5, memo=False)  # every arrangement played
    for b in res.board_outcomes:
        assert len(set(b.scores)) == 1 and len(set(b.over)) == 1 and len(set(b.tricks)) == 1, b
    for d in res.differences:
        assert d.score.mean == 0 and d.score.ci95 == 0 and d.over.mean == 0


def test_two_identical_slots_get_identical_figures() -> None:
    res = tournament(Rules.preset("8-5-3"), ["heuristic", "random", "random"], boards=5, seed=1)
    assert all(b.scores[1] == b.scores[2] for b in res.board_outcomes)
    assert [v.level for v in res.levels_stats] == ["heuristic", "random"]
    assert res.levels_stats[1].slots == (2, 3)


@pytest.mark.slow
def test_duplicate_narrows_the_interval() -> None:
    rules = Rules.preset("9-5-2")
    levels = ["heuristic", "beginner", "random"]
    dup = tournament(rules, levels, boards=30, seed=3)
    free = tournament(rules, levels, boards=30, seed=3, duplicate=False)
    assert dup.differences[0].score.ci95 is not None and free.differences[0].score.ci95 is not None
    assert dup.differences[0].score.ci95 < free.differences[0].score.ci95


# ------------------------------------------------------------------ strength
def test_heuristic_beats_random_with_interval_above_zero() -> None:
    res = tournament(Rules.preset("9-5-2"), ["heuristic", "random", "random"], boards=30, seed=0)
    (d,) = res.differences
    assert (d.a, d.b) == ("heuristic", "random")
    assert d.score.low is not None and d.score.low > 0
    assert res.slots[0].score.low is not None and res.slots[0].score.low > 0


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["9-5-2", "3-5-8"])
def test_beginner_sits_between_random_and_heuristic(preset: str) -> None:
    res = tournament(Rules.preset(preset), ["beginner", "heuristic", "random"], boards=60, seed=0)
    diff = {(d.a, d.b): d.score for d in res.differences}
    b_h, b_r = diff[("beginner", "heuristic")], diff[("beginner", "random")]
    assert b_h.high is not None and b_h.high < 0
    assert b_r.low is not None and b_r.low > 0


# ------------------------------------------------------------------ every preset and option
@pytest.mark.slow
@pytest.mark.parametrize("text", [*PRESETS, "9-5-2 players=4", "8-5-3 kitty=none", "9-5-2 dealer-assigns-targets=on",
                                  "8-5-3 scoring=chips", "9-5-2 exchange=off"])
def test_tournament_plays_every_preset(text: str) -> None:
    rules = Rules.parse(text)
    n = rules.players
    levels = ["beginner", "heuristic", "random", "random"][:n]
    res = tournament(rules, levels, boards=2, seed=1, matches=1)
    assert res.arrangements == math.factorial(n) and res.deals == 2 * math.factorial(n)
    assert res.rules == str(rules)
    for b in res.board_outcomes:
        assert sum(b.tricks) == rules.tricks * res.arrangements
        assert sum(b.scores) == rules.score_sum() * res.arrangements == 0
    (m,) = res.match_outcomes
    assert math.isclose(sum(m.wins), res.arrangements)


# ------------------------------------------------------------------ matches
def test_match_games_equal_play_match_and_win_rates_add_up() -> None:
    rules = Rules.preset("9-5-2")
    levels = ("heuristic", "beginner", "random")
    m = play_match_game(rules, levels, 4, 0)
    assert m == play_match_game(rules, levels, 4, 0)
    # each arrangement is the same match as play_match with those players by seat
    wins = [0.0] * 3
    deals = 0
    for perm in arrangements(3):
        alone = play_match(rules, [make_player(levels[perm[s]]) for s in range(3)], m.seed)
        assert alone.end is not None
        deals += len(alone.results)
        for s in alone.end.winners:
            wins[perm[s]] += 1 / len(alone.end.winners)
    assert (tuple(wins), deals) == (m.wins, m.deals)
    res = tournament(rules, levels, boards=0, seed=4, matches=2)
    assert res.boards == 0 and res.matches == 2 and res.match_deals > 0
    assert all(s.wins is not None for s in res.slots)
    assert math.isclose(sum(s.wins.mean for s in res.slots if s.wins is not None), 1.0)
    assert res.to_json()["slots"][0]["score"] is None
    json.dumps(res.to_json(), allow_nan=False)


# ------------------------------------------------------------------ determinism
@pytest.mark.slow
def test_same_seed_same_result_whatever_the_workers() -> None:
    rules = Rules.preset("3-5-8")
    levels = ["beginner", "heuristic", "random"]
    one = tournament(rules, levels, boards=6, seed=9, matches=1, workers=1)
    two = tournament(rules, levels, boards=6, seed=9, matches=1, workers=2)
    assert one == two
    assert one != tournament(rules, levels, boards=6, seed=10, matches=1, workers=1)


def test_progress_is_called_in_order() -> None:
    calls: list[tuple[int, int]] = []
    tournament(Rules.preset("9-5-2"), ["random"] * 3, boards=3, matches=1, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


# ------------------------------------------------------------------ oracle players
class _Oracle(HeuristicPlayer):
    """Checks that it gets a copy of the full deal; plays as the heuristic."""

    calls = 0

    def __init__(self) -> None:
        super().__init__("oracle")

    def choose_with_state(self, deal: Deal, view: View, rng: random.Random) -> Action:
        _Oracle.calls += 1
        assert view.seat == deal.to_act
        assert sum(h.bit_count() for h in deal.hands) >= len(view.hand)
        deal.hands[(view.seat + 1) % deal.n] = 0  # a copy: changing it changes nothing
        return self.choose(view, rng)


def test_an_oracle_player_is_given_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "oracle", _Oracle)
    assert isinstance(_Oracle(), OraclePlayer) and not isinstance(HeuristicPlayer(), OraclePlayer)
    _Oracle.calls = 0
    rules = Rules.preset("9-5-2")
    res = tournament(rules, ["oracle", "heuristic", "heuristic"], boards=3, seed=0, matches=1)
    assert _Oracle.calls > 0
    # it plays as the heuristic does, so it is exactly even with the heuristic players
    assert all(len(set(b.scores)) == 1 for b in res.board_outcomes)


# ------------------------------------------------------------------ statistics and input
def test_mean_ci() -> None:
    e = mean_ci([1.0, 2.0, 3.0])
    assert e.mean == 2.0 and e.units == 3
    assert e.ci95 is not None and math.isclose(e.ci95, 4.303 / math.sqrt(3))
    assert mean_ci([5.0]).ci95 is None
    big = mean_ci([float(i % 2) for i in range(1000)])
    assert big.ci95 is not None and math.isclose(big.ci95, 1.96 * math.sqrt(0.25 * 1000 / 999 / 1000), rel_tol=2e-3)
    with pytest.raises(SergeantMajorError):
        mean_ci([])


def _matches(wins: list[tuple[float, ...]]) -> list[MatchOutcome]:
    return [MatchOutcome(i, i, w, 6 * 4) for i, w in enumerate(wins)]


def test_a_win_rate_of_zero_has_an_interval_of_positive_width_inside_0_1() -> None:
    # a slot that never won showed "0.0 ± 0.0" (mean +- t * se, se = 0); few seeds gave "83.3 ± 211.8"
    res = summarize(Rules.preset("9-5-2"), ("heuristic", "random", "random"), 0, [],
                    _matches([(6.0, 0.0, 0.0)] * 30 + [(5.0, 0.0, 1.0)] * 10))
    top, never, once = (s.wins for s in res.slots)
    assert never is not None and never.mean == 0 and never.low == 0
    assert never.high is not None and 0.05 < never.high < 0.15  # Wilson with the 40 seeds: 3.84/(40+3.84) ≈ 0.088
    assert top is not None and top.low is not None and top.high is not None and 0.85 < top.low < top.mean < top.high < 1
    assert once is not None and once.low is not None and once.high is not None and 0 < once.low < once.mean < once.high < 0.15
    for s in res.to_json()["slots"]:
        w = s["wins"]
        assert 0 <= w["low"] <= w["mean"] <= w["high"] <= 1 and math.isclose(w["ci95"], (w["high"] - w["low"]) / 2)
    few = share_ci([5 / 6, 1.0], 6)  # two seeds: the interval is wide, but inside 0..1
    assert few.low is not None and few.high is not None and 0 < few.low < few.mean < few.high <= 1
    assert share_ci([0.5], 6).low is None and share_ci([0.5], 6).ci95 is None
    with pytest.raises(SergeantMajorError):
        share_ci([], 6)
    with pytest.raises(SergeantMajorError, match="0..1"):
        share_ci([1.5, 0.0], 6)


@pytest.mark.slow
def test_the_table_shows_a_win_rate_of_zero_with_its_interval() -> None:
    r = runner.invoke(app, ["tournament", "--players", "heuristic,random,random", "--deals", "0", "--matches", "3",
                            "--workers", "1", "--rules", "3-5-8", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "0.0 ± 0.0" not in r.output and "Wilson" in r.output
    assert re.search(r"\d+\.\d \(\d+\.\d \.\. \d+\.\d\)", r.output), r.output


def test_bad_input_is_a_clear_error() -> None:
    rules = Rules.preset("9-5-2")
    with pytest.raises(SergeantMajorError, match="'grandmaster'"):
        parse_players("heuristic,grandmaster,random", 3)
    with pytest.raises(SergeantMajorError, match="need 3"):
        parse_players("heuristic,random", 3)
    with pytest.raises(SergeantMajorError, match="at least one"):
        tournament(rules, ["random"] * 3, boards=0)
    with pytest.raises(SergeantMajorError, match="negative"):
        tournament(rules, ["random"] * 3, boards=-1)
    with pytest.raises(SergeantMajorError, match="workers=0"):
        tournament(rules, ["random"] * 3, boards=1, workers=0)


# ------------------------------------------------------------------ the beginner level
def test_beginner_is_a_level_and_plays_like_the_heuristic_without_mistakes() -> None:
    assert "beginner" in LEVELS and isinstance(make_player("beginner"), BeginnerPlayer)
    rules = Rules.preset("9-5-2")
    careful: list[Player] = [BeginnerPlayer(mistake=0.0) for _ in range(3)]
    heur: list[Player] = [HeuristicPlayer() for _ in range(3)]
    a = play_match(rules, careful, 8)
    b = play_match(rules, heur, 8)
    assert [d.history for d in a.deals] == [d.history for d in b.deals]
    sloppy = play_match(rules, [BeginnerPlayer(mistake=1.0) for _ in range(3)], 8)
    assert [d.history for d in sloppy.deals] != [d.history for d in b.deals]
    with pytest.raises(ValueError, match="1.5"):
        BeginnerPlayer(mistake=1.5)


# ------------------------------------------------------------------ the command
def test_command_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    r = runner.invoke(app, ["tournament", "--players", "heuristic,random,random", "--deals", "4", "--duplicate",
                            "--workers", "1", "--matches", "1", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "heuristic - random" in r.output and "match win %" in r.output
    d = json.loads(out.read_text())
    assert d["boards"] == 4 and d["arrangements"] == 6 and d["levels"] == ["heuristic", "random", "random"]
    assert len(d["board_outcomes"]) == 4 and d["differences"][0]["a"] == "heuristic"
    r = runner.invoke(app, ["tournament", "-p", "beginner,heuristic,random", "-n", "2", "-w", "1", "-r", "3-5-8",
                            "--json", "-"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rules"] == "3-5-8" and d["slots"][0]["label"] == "1:beginner"


@pytest.mark.parametrize("args, quoted", [
    (["-p", "heuristic,wizard,random"], "'wizard'"),
    (["-p", "heuristic,random"], "need 3"),
    (["-r", "9-5-2 frobnicate=on"], "frobnicate"),
    (["-n", "-3"], "--deals -3"),
    (["-n", "0"], "--deals 0"),
    (["-m", "-1"], "--matches -1"),
    (["-w", "-2"], "--workers -2"),
    (["--json", "/nonexistent-dir/x.json"], "/nonexistent-dir/x.json"),
    (["-s", "1_000"], "--seed '1_000'"),
    (["--seed", "+5"], "--seed '+5'"),
    (["--seed", " 7 "], "--seed ' 7 '"),
    (["--seed", "\u0663"], "--seed '\u0663'"),  # ARABIC-INDIC DIGIT THREE
])
def test_command_bad_input_is_one_line_and_exit_2(args: list[str], quoted: str) -> None:
    r = runner.invoke(app, ["tournament", "-w", "1", *args])
    assert r.exit_code == 2
    assert quoted in r.output
    assert "Traceback" not in r.output
    assert len([line for line in r.stderr.splitlines() if line.strip()]) == 1



def test_command_seed_is_plain_digits_and_a_refused_one_writes_nothing(tmp_path: Path) -> None:
    """``--seed`` takes ASCII digits (as ``play``), not int()'s ``+5`` or ``1_000``, nor a negative seed; a refused
    seed leaves the ``--json`` file uncreated."""
    out = tmp_path / "t.json"
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--seed", "+5", "--json", str(out)])
    assert r.exit_code == 2 and "'+5'" in r.stderr and not out.exists()
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--seed", "-3", "--json", str(out)])
    assert r.exit_code == 2 and "'-3'" in r.stderr and not out.exists()  # the web's range: 0 <= seed < 2**62
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--seed", "3", "--json", "-"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["seed"] == 3

@pytest.mark.parametrize("stop", [KeyboardInterrupt, SergeantMajorError("a player failed")])
def test_a_stopped_run_leaves_the_json_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       stop: BaseException) -> None:
    """``--json FILE`` is written whole or not at all: a run stopped part-way (Ctrl-C, an error) or a refused
    ``--merge`` leaves no new, empty or half-written file, an existing one unchanged, and no temporary file."""
    import sergeant_major.cli.tournament as tmod  # the command's tournament_iter

    real = tmod.tournament_iter

    def fails_after_one(*args: Any, **kwargs: Any) -> Iterator[object]:
        it = real(*args, **kwargs)
        yield next(it)
        raise stop

    monkeypatch.setattr(tmod, "tournament_iter", fails_after_one)
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("earlier result\n")
    for out in (new, old):  # --force: an existing file is otherwise refused before the run
        r = runner.invoke(app, ["tournament", "-n", "3", "-w", "1", "--json", str(out), "--force"])
        assert r.exit_code != 0
    assert not new.exists()
    assert old.read_text() == "earlier result\n"
    r = runner.invoke(app, ["tournament", "--merge", str(tmp_path / "missing.json"), "--json", str(new)])
    assert r.exit_code == 2 and "missing.json" in r.stderr
    assert not new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]
    monkeypatch.setattr(tmod, "tournament_iter", real)
    r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "--json", str(old), "--force"])
    assert r.exit_code == 0, r.output
    assert json.loads(old.read_text())["boards"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(tmp_path)])
    assert r.exit_code == 2 and str(tmp_path) in r.stderr


def test_merged_files_are_described_by_their_own_schedule(tmp_path: Path) -> None:
    """``--merge`` needs only the rules, players and seed again: the table says what the files' boards were
    (first deals, not duplicate), not the defaults of the options left out."""
    fd, nd = tmp_path / "fd.json", tmp_path / "nd.json"
    for out, flag in ((fd, "--first-deals"), (nd, "--no-duplicate")):
        r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "-s", "4", flag, "--json", str(out)])
        assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["tournament", "-s", "4", "--merge", str(fd)])
    assert r.exit_code == 0, r.output
    assert "(duplicate; first deals)" in " ".join(r.stdout.split()) and "heuristic deal 1" not in r.stdout
    r = runner.invoke(app, ["tournament", "-s", "4", "--merge", str(nd)])
    assert r.exit_code == 0, r.output
    assert "(NOT duplicate; deal 2 after a heuristic deal 1" in " ".join(r.stdout.split())


@pytest.mark.slow
def test_installed_command_runs(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    p = subprocess.run([str(EXE), "tournament", "--players", "heuristic,beginner,random", "--deals", "3", "--duplicate",
                        "--rules", "9-5-2", "--seed", "2", "--workers", "1", "--json", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "heuristic - beginner" in p.stdout
    assert json.loads(out.read_text())["deals"] == 18


def test_default_players_follow_the_rules_player_count() -> None:
    """--rules with players=4 and no --players: heuristic and three random players, not a count error."""
    r = runner.invoke(app, ["tournament", "--rules", "9-5-2 players=4", "--deals", "1", "--workers", "1", "--json", "-"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["levels"] == ["heuristic", "random", "random", "random"] and d["arrangements"] == 24


@pytest.mark.slow
def test_oracle_level_is_accepted_by_the_tournament_only() -> None:
    """`oracle` (measurement only, sees the whole deal) plays tournaments but is not an opponent level."""
    from sergeant_major.players import LEVELS

    assert "oracle" not in LEVELS
    assert parse_players("oracle,heuristic,heuristic", 3) == ("oracle", "heuristic", "heuristic")
    result = CliRunner().invoke(app, ["tournament", "--players", "oracle,heuristic,heuristic", "--deals", "1", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "oracle - heuristic" in result.output


def test_the_result_schema_describes_a_result_and_is_shipped() -> None:
    """``tournament --merge`` checks a file against the JSON Schema shipped beside the module: a real result passes
    it as any validator reads it, and a result with a board's scores not numbers does not."""
    jsonschema = pytest.importorskip("jsonschema")
    from sergeant_major.eval.tournament import result_schema_path

    schema = json.loads(result_schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = tournament(Rules.parse("9-5-2 deals=1"), ["heuristic", "random", "random"], 2, workers=1, matches=1).to_json()
    jsonschema.validate(doc, schema)
    doc["board_outcomes"][0]["scores"] = [1, "x", 2]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def _merge_real(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), "tournament", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.slow
def test_merge_refuses_a_bad_file_naming_the_file_and_the_field(tmp_path: Path) -> None:
    """``--merge`` checks each file field by field (the installed command): the message names the file and the
    field, never Python's own text (``'levels'``, ``list indices must be integers``, ``[Errno 2]``); a field the
    merge does not use (``boards``) is checked too. Nothing is written."""
    r = _merge_real("-n", "2", "-w", "1", "--json", "t.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    good = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    r = subprocess.run([str(EXE), "simulate", "-n", "1", "-w", "1", "--out", "one.jsonl"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    (tmp_path / "one.json").write_text((tmp_path / "one.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    r = _merge_real("-n", "1", "-w", "1", "-s", "1", "--json", "s1.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr

    def edited(name: str, change: Any) -> str:
        doc = json.loads(json.dumps(good))
        change(doc)
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
        return name

    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    result = "not a tournament result (--json of 'sergeant-major tournament')"
    cases = [
        (["one.json"], f"one.json: {result}: it is a game record (sergeant-major check or replay reads it)"),
        (["/nonexist"], "/nonexist: no such file"),
        ([""], "'': no such file"),
        (["empty.json"], f"empty.json: {result}: the file is empty"),
        (["list.json"], f"list.json: {result}: expected a JSON object, got a list of 2"),
        ([str(tmp_path)], f"{tmp_path}: is a folder; give a file that tournament --json wrote"),
        ([edited("boards.json", lambda d: d.update(boards="x"))],
         "boards.json: boards: expected the number of boards in board_outcomes (2), got 'x'"),
        ([edited("count.json", lambda d: d.update(boards=3))], "count.json: boards: 3, but board_outcomes holds 2"),
        ([edited("bo.json", lambda d: d.update(board_outcomes="x"))],
         "bo.json: board_outcomes: expected a list of boards, got 'x'"),
        ([edited("index.json", lambda d: d["board_outcomes"][0].pop("index"))],
         "index.json: board_outcomes[0]: missing key 'index'"),
        ([edited("scores.json", lambda d: d["board_outcomes"][1].update(scores=[1, "x", 2]))],
         "scores.json: board_outcomes[1].scores: expected a list of 3 whole numbers (one per slot), got a list of 3"),
        ([edited("seed.json", lambda d: d["board_outcomes"][1].update(seed=5))],
         "seed.json: board_outcomes[1].seed: 5 is not the seed of board 1 of a run with seed 0 (277406400497437)"),
        ([edited("rules.json", lambda d: d.update(rules=["9-5-2"]))],
         "rules.json: rules: expected a rules string such as '9-5-2', got a list of 1"),
        ([edited("levels.json", lambda d: d.update(levels="heuristic"))],
         "levels.json: levels: expected a list of 3 player levels (the rules' players), got 'heuristic'"),
        ([edited("dup.json", lambda d: d.update(duplicate="yes"))], "dup.json: duplicate: expected true or false, got 'yes'"),
        # a seed no run can have: it was taken, and the boards were then said not to be of "a run with seed -1"
        ([edited("negseed.json", lambda d: d.update(seed=-1))],
         "negseed.json: seed: -1 is not a seed of tournament --seed (a non-negative integer below 2**62)"),
        ([edited("bigseed.json", lambda d: d.update(seed=2**62))],
         f"bigseed.json: seed: {2**62} is not a seed of tournament --seed (a non-negative integer below 2**62)"),
        (["t.json", "s1.json"], "s1.json: not of the same run as t.json (results of different runs do not merge): "
                                "seed 1 in s1.json, 0 in t.json"),
        (["t.json", "t.json"], "--merge 't.json' is given twice: give each part once"),
    ]
    for files, said in cases:
        args = [a for f in files for a in ("--merge", f)]
        r = _merge_real(*args, "--json", "merged.json", cwd=tmp_path)
        assert (r.returncode, r.stderr) == (2, f"error: {said}\n"), (files, r.stderr)
        assert not (tmp_path / "merged.json").exists() and not list(tmp_path.glob(".*.tmp"))
    r = _merge_real("--merge", "t.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_one_board_and_one_match_are_said_in_the_singular() -> None:
    r = runner.invoke(app, ["tournament", "-n", "1", "-m", "1", "-w", "1", "-r", "9-5-2 deals=1"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert "1 board of 9-5-2 deals=1" in r.stdout and "1 seeded match x 6 arrangements (6 deals)" in r.stdout, r.stdout
    r = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "-r", "9-5-2 deals=1"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert "1 match of 9-5-2 deals=1 (seed 0): 1 deal, 1.00 per match" in r.stdout and "1 worker," in r.stdout, r.stdout


def test_merge_refuses_numbers_too_large_for_the_figures(tmp_path: Path) -> None:
    """A tampered ``--merge`` file with a huge number by slot (10**400) was an OverflowError traceback (status 1)
    when the figures divided it as a float, and one of more digits than int() converts a ValueError traceback
    from json: each is now the file's one-line error (status 2), and --json is not written."""
    r = runner.invoke(app, ["tournament", "-n", "2", "-m", "1", "-w", "1", "-r", "9-5-2 deals=1", "--json",
                            str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "t.json").read_text(encoding="utf-8")
    good = json.loads(text)
    huge = 10 ** 400

    def edited(name: str, change: Any) -> Path:
        doc = json.loads(json.dumps(good))
        change(doc)
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
        return tmp_path / name

    digits = sys.get_int_max_str_digits() + 1
    (tmp_path / "digits.json").write_text(text.replace('"seed": 0', '"seed": ' + "9" * digits, 1), encoding="utf-8")
    cases = [
        (edited("scores.json", lambda d: d["board_outcomes"][1].update(scores=[huge, 0, -huge])),
         "board_outcomes[1].scores: a number of 401 digits is out of range (a result's sums are at most 2**53 in size)"),
        (edited("tricks.json", lambda d: d["board_outcomes"][0].update(tricks=[huge, 0, 0])),
         "board_outcomes[0].tricks: a number of 401 digits is out of range (a result's sums are at most 2**53 in size)"),
        (edited("wins.json", lambda d: d["match_outcomes"][0].update(wins=[1e300, -1e300, 6.0])),
         "match_outcomes[0].wins: 1e+300 is out of range (a result's sums are at most 2**53 in size)"),
        (tmp_path / "digits.json", "not a tournament result (--json of 'sergeant-major tournament'): a number of more "
                                   f"than {digits - 1} digits"),
    ]
    for path, said in cases:
        r = runner.invoke(app, ["tournament", "-r", "9-5-2 deals=1", "--merge", str(path), "--json",
                                str(tmp_path / "merged.json")])
        assert r.exit_code == 2 and isinstance(r.exception, SystemExit), (path, r.output, r.exception)
        assert r.output == f"error: {path}: {said}\n", r.output
        assert not (tmp_path / "merged.json").exists()


def test_merge_refuses_a_key_given_twice(tmp_path: Path) -> None:
    """A ``--merge`` file with a key given twice in one object (``"seed": 7, "seed": 0``) was read with the last
    value, silently (another JSON reader may take the first): it is now refused naming its path, and --json is not
    written."""
    r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "-r", "9-5-2 deals=1", "--json", str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "t.json").read_text(encoding="utf-8")
    assert text.count('"seed": 0,') == 1 and text.count('"scores": [') == 2
    (tmp_path / "seed.json").write_text(text.replace('"seed": 0,', '"seed": 7, "seed": 0,', 1), encoding="utf-8")
    i = text.index('"scores": [')
    (tmp_path / "scores.json").write_text(text[:i] + '"scores": [9, 9, -18], ' + text[i:], encoding="utf-8")
    result = "not a tournament result (--json of 'sergeant-major tournament')"
    for name, where, key in (("seed.json", "seed", "seed"), ("scores.json", "board_outcomes[0].scores", "scores")):
        path = tmp_path / name
        r = runner.invoke(app, ["tournament", "-r", "9-5-2 deals=1", "--merge", str(path), "--json", str(tmp_path / "m.json")])
        assert r.exit_code == 2 and isinstance(r.exception, SystemExit), (name, r.output, r.exception)
        assert r.output == (f'error: {path}: {result}: {where}: the key "{key}" is given twice in one object '
                            "(tournament --json writes each key once)\n"), r.output
        assert not (tmp_path / "m.json").exists()
    r = runner.invoke(app, ["tournament", "-r", "9-5-2 deals=1", "--merge", str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output


def test_a_merged_json_names_no_worker_processes(tmp_path: Path) -> None:
    """The JSON of ``--merge`` said ``"workers": 2`` (--workers 0 read as one per core) though a merge plays
    nothing; like ``backend``, it is left out. A run's JSON keeps both."""
    r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "--json", str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    run = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert run["workers"] == 1 and run["backend"] == "1 local process"
    r = runner.invoke(app, ["tournament", "--merge", str(tmp_path / "t.json"), "--json", "-"])
    assert r.exit_code == 0, r.output
    merged = json.loads(r.stdout)
    assert "workers" not in merged and "backend" not in merged
    assert {k: v for k, v in merged.items() if k != "seconds"} == {k: v for k, v in run.items()
                                                                  if k not in ("seconds", "workers", "backend")}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes and links")
def test_json_onto_a_pipe_or_a_link_writes_into_it_not_over_it(tmp_path: Path) -> None:
    """--json was written to a temporary file renamed onto the name given: a FIFO, a device (``--json /dev/null``
    or ``/dev/stdout`` as root: in /dev) or a symbolic link was replaced by a regular file. A pipe or a device is
    now written directly and a link's file replaced, the link kept (a dangling link's file is made)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so that the command's open does not wait
    try:
        r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(fifo)])
        assert r.exit_code == 0, r.output
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        assert json.loads(os.read(reader, 1 << 16).decode("utf-8"))["boards"] == 1
    finally:
        os.close(reader)
    (tmp_path / "real.json").write_text("old\n", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    (tmp_path / "dangling.json").symlink_to("made.json")
    for link, real in (("link.json", "real.json"), ("dangling.json", "made.json")):
        r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(tmp_path / link), "--force"])
        assert r.exit_code == 0, r.output
        assert (tmp_path / link).is_symlink() and os.readlink(tmp_path / link) == real
        assert json.loads((tmp_path / real).read_text(encoding="utf-8"))["boards"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.json", "link.json", "made.json", "pipe", "real.json"]


def test_the_json_file_is_named_as_it_is_in_the_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The summary's 'JSON written to NAME' was rich markup: '[red]r.json' showed as 'r.json', a name with '[/]' was a
    MarkupError traceback (status 1) after the run, and a control character went to the terminal as it was."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a[").mkdir()
    for name, shown in (("[red]r.json", "[red]r.json"), ("a[/]b.json", "a[/]b.json"), ("e\x1b[2Jx.json", "e\\x1b[2Jx.json")):
        r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", name])
        assert r.exit_code == 0, (name, r.output, r.exception)
        assert "\x1b" not in r.stdout and f";JSONwrittento{shown}" in "".join(r.stdout.split()), r.stdout
        assert json.loads((tmp_path / name).read_text(encoding="utf-8"))["boards"] == 1


def test_json_onto_a_loop_of_links_is_refused_and_the_links_kept(tmp_path: Path) -> None:
    """A loop of symbolic links cannot be written (ELOOP): refused before the run, not replaced by a regular file."""
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(tmp_path / "a.json")])
    assert r.exit_code == 2, r.output
    assert r.output == f"error: cannot write {str(tmp_path / 'a.json')!r}: Too many levels of symbolic links\n"
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


def test_merge_refuses_the_options_for_playing(tmp_path: Path) -> None:
    """The repro: ``--merge a.json -n 5 --first-deals`` merged a.json and ignored -n and --first-deals without a word
    (the boards, their schedule and the matches come from the files). Such an option is now refused, naming it."""
    out = tmp_path / "a.json"
    r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "-s", "3", "--json", str(out)])
    assert r.exit_code == 0, r.output
    for extra, named in ((["-n", "5", "--first-deals"], "--deals, --first-deals"), (["--first-board", "2"], "--first-board"),
                         (["-m", "1"], "--matches"), (["--no-duplicate"], "--no-duplicate"), (["-w", "2"], "--workers")):
        r = runner.invoke(app, ["tournament", "-s", "3", "--merge", str(out), *extra, "--json", str(tmp_path / "m.json")])
        assert r.exit_code == 2, (extra, r.output)
        assert r.stderr == (f"error: {named} with --merge: merging plays nothing (the boards, their schedule and the matches "
                            f"come from the files); leave out {named}\n"), r.stderr
        assert not (tmp_path / "m.json").exists()
    r = runner.invoke(app, ["tournament", "-s", "3", "--merge", str(out), "--json", "-"])
    assert r.exit_code == 0 and json.loads(r.stdout)["boards"] == 2, r.output


def test_json_to_stdout_leaves_stderr_empty_off_a_terminal() -> None:
    """The repro: ``--json -`` with stderr not a terminal wrote one blank line there (the transient progress bar)."""
    r = runner.invoke(app, ["tournament", "-n", "2", "-w", "1", "--json", "-"])
    assert r.exit_code == 0, r.output
    assert r.stderr == "" and json.loads(r.stdout)["boards"] == 2, repr(r.stderr)


def test_an_empty_json_name_is_refused_as_empty(tmp_path: Path) -> None:
    """The repro: ``--json ''`` was refused as "cannot write '': Is a directory" (Path('') is the current folder)."""
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", ""])
    assert r.exit_code == 2 and r.stderr == "error: --json '' is empty: give a file name, or '-' for standard output\n", r.output


@pytest.mark.parametrize(("text", "said"), [
    ("", "the file is empty"), ("\ufeff \n", "the file is empty"),
    (None, "it is a game record (sergeant-major check or replay reads it)"),
])
def test_merge_names_an_empty_file_and_a_game_record(text: str | None, said: str, tmp_path: Path) -> None:
    """The repros: an empty --merge file was 'not JSON (line 1 column 1: Expecting value)', and a game record (the
    other JSON file this program writes) "missing key 'levels'"."""
    from sergeant_major.records import write_record

    p = tmp_path / "x.json"
    if text is None:
        from sergeant_major.core.match import Match

        m = Match(Rules.parse("9-5-2"), 1, ["A", "B", "C"])
        write_record(m, p, ["random", "random", "random"])
    else:
        p.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["tournament", "--merge", str(p)])
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: {p}: not a tournament result (--json of 'sergeant-major tournament'): {said}\n", r.stderr


def test_merge_names_a_file_given_twice(tmp_path: Path) -> None:
    """The repro: ``--merge t.json --merge t.json`` was refused as "board 0 is in more than one result (also in
    t.json)", which reads as two results sharing a board; the one file given twice is now named, also by another
    name (a path of its own, a link)."""
    out = tmp_path / "t.json"
    assert runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(out)]).exit_code == 0
    (tmp_path / "link.json").symlink_to(out)
    r = runner.invoke(app, ["tournament", "--merge", str(out), "--merge", str(out)])
    assert r.exit_code == 2 and r.stderr == f"error: --merge '{out}' is given twice: give each part once\n", r.stderr
    r = runner.invoke(app, ["tournament", "--merge", str(tmp_path / "link.json"), "--merge", str(out)])
    assert r.exit_code == 2 and r.stderr == (f"error: --merge '{out}' is given twice ('{tmp_path / 'link.json'}' and "
                                             f"'{out}' are one file): give each part once\n"), r.stderr


def test_the_summary_title_and_notes_wrap_at_the_terminal_not_the_table(tmp_path: Path) -> None:
    """The repro (``tournament -n 30``, any terminal): the title and the notes were the table's title and caption,
    wrapped at the table's width of about 58 columns ('(duplicate; deal' / '2 after a heuristic deal 1', 'JSON
    written to' / 'part1.json') however wide the terminal. They are now lines of their own."""
    out = tmp_path / "part1.json"
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(out)], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert "1 board of 9-5-2 x 6 seat arrangements (duplicate; deal 2 after a heuristic deal 1, 1 with an exchange), " \
           "seed 0" in lines, r.stdout
    assert any(ln.startswith("score/deal, over/deal: means per deal over boards (a board's mean over its "
                             "arrangements is the unit); no CI") for ln in lines), r.stdout  # one board: no '±'
    assert any(ln.endswith(f"; JSON written to {out}") and " s on 1 local process" in ln for ln in lines), r.stdout


@pytest.mark.parametrize(("args", "boards", "matches"), [
    (["-n", "0", "-m", "1"], None, "no interval: it needs 2 match seeds or more"),
    (["-n", "1", "-m", "0"], "no CI: it needs 2 boards or more", None),
    (["-n", "2", "-m", "2"], "± 95% CI over boards", "(low .. high): 95% Wilson interval"),
])
def test_the_notes_describe_only_the_columns_and_intervals_shown(args: list[str], boards: str | None,
                                                                 matches: str | None) -> None:
    """The repro: ``-n 0 -m 1`` explained score/deal and over/deal, columns not shown, and "(low .. high): 95% Wilson
    interval" beside a bare ``33.3``; ``-n 1`` promised a "±" that no cell had. Each note now says what is shown."""
    r = runner.invoke(app, ["tournament", *args, "-w", "1", "--players", "random,random,random"], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    score = [ln for ln in lines if ln.startswith("score/deal, over/deal:")]
    wins = [ln for ln in lines if ln.startswith("match win %:")]
    assert (boards is None) == (not score) and (matches is None) == (not wins), r.stdout
    assert boards is None or boards in score[0], r.stdout
    assert matches is None or matches in wins[0], r.stdout
    table = "\n".join(ln for ln in lines if ln.startswith(" "))
    assert ("±" in table) == (boards is not None and "±" in boards), r.stdout
    assert (" .. " in table) == (matches is not None and ".." in matches), r.stdout


@pytest.mark.parametrize(("kwargs", "quoted"), [
    ({"seed": -1}, "seed=-1"), ({"seed": 1.5}, "seed=1.5"), ({"seed": True}, "seed=True"), ({"seed": 2**62}, "seed="),
    ({"seed": "3"}, "seed='3'"), ({"boards": True}, "boards=True"), ({"boards": -1}, "boards=-1"), ({"matches": 1.0}, "matches=1.0"),
    ({"boards": 0}, "boards=0 and matches=0"),
    ({"rules": 952}, "rules=952"),
])
def test_library_tournament_refuses_a_bad_seed_or_count_quoting_it(kwargs: dict[str, Any], quoted: str) -> None:
    """A seed is hashed as its text: ``1.5`` or ``-1`` played a tournament of its own (whose JSON its schema refuses),
    ``True`` another than ``1``; ``True`` was one board. Each is refused quoting it, as the command line does."""
    args: dict[str, Any] = {"rules": Rules.parse("9-5-2"), "levels": ["heuristic", "random", "random"], "boards": 1}
    with pytest.raises(SergeantMajorError, match=re.escape(quoted)):
        tournament(**{**args, **kwargs})


def test_library_tournament_takes_rules_and_levels_as_text() -> None:
    """``tournament("3-5-8", "heuristic,random,random", ...)`` is the run of the parsed rules and the list of levels
    (a rules string raised AttributeError, a levels string was read letter by letter)."""
    text = tournament("3-5-8", "heuristic,random,random", 1, seed=4)
    parsed = tournament(Rules.parse("3-5-8"), ["heuristic", "random", "random"], 1, seed=4)
    assert text.to_json() | {"seconds": 0} == parsed.to_json() | {"seconds": 0}


def test_merge_names_a_file_of_game_records_one_a_line(tmp_path: Path) -> None:
    """``--merge`` given the JSON Lines of ``simulate --out`` (two records or more) said ``not JSON (line 2 column 1:
    Extra data)``; it now says the file holds game records."""
    from sergeant_major.eval.simulate import simulate_iter

    lines = [line for _, line in simulate_iter(Rules.parse("9-5-2"), ["heuristic", "random", "random"], 2, records=True)]
    path = tmp_path / "records.jsonl"
    path.write_text("\n" + "\n".join(str(line) for line in lines) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["tournament", "--merge", str(path)])
    assert r.exit_code == 2 and "it holds game records, one a line (simulate --out" in r.stderr, r.output
    path.write_text('{"levels": [1]}\n{"levels": [2]}\n', encoding="utf-8")  # JSON Lines of something else
    r = runner.invoke(app, ["tournament", "--merge", str(path)])
    assert r.exit_code == 2 and "not JSON (line 2 column 1: Extra data)" in r.stderr, r.output


@pytest.mark.parametrize(("args", "said"), [
    (["--deals", "1000001"], "--deals 1000001: at most 1,000,000 boards in one run; for more, play chunks of one "
                             "seed (--first-board) and --merge them"),
    (["--deals", "9" * 30], "--deals 99999999999999999999... (30 digits): at most 1,000,000 boards in one run"),
    (["-n", "1", "--matches", "1000001"], "--matches 1000001: at most 1,000,000 matches in one run"),
])
def test_a_count_too_large_to_play_is_refused_before_playing(args: list[str], said: str, tmp_path: Path) -> None:
    """The repro: ``tournament --deals 1000000000000`` (or ``--matches``) listed its jobs until a MemoryError
    traceback (status 1). A count above the run's limit is now one line quoting it (status 2), nothing written."""
    out = tmp_path / "t.json"
    r = runner.invoke(app, ["tournament", "-w", "1", *args, "--json", str(out)])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), r.output
    assert r.stderr.startswith(f"error: {said}") and r.stderr.count("\n") == 1, r.stderr
    assert not out.exists()


@pytest.mark.parametrize(("kwargs", "quoted"), [
    ({"boards": MAX_BOARDS + 1}, f"boards={MAX_BOARDS + 1}: at most 1,000,000 in one run"),
    ({"boards": 1, "matches": MAX_MATCHES + 1}, f"matches={MAX_MATCHES + 1}: at most 1,000,000 in one run"),
])
def test_library_tournament_refuses_a_count_too_large_to_play(kwargs: dict[str, Any], quoted: str) -> None:
    with pytest.raises(SergeantMajorError, match=re.escape(quoted)):
        next(tournament_iter(Rules.parse("9-5-2"), ["heuristic", "random", "random"], workers=1, **kwargs))


def test_json_onto_a_file_that_exists_needs_force(tmp_path: Path) -> None:
    """The repro: ``tournament --json t.json`` replaced an earlier result without a word (``--merge t.json --json
    t.json`` its own input). A file that exists is now refused before the run, quoted, and kept, as ``simulate
    --out`` does; ``--force`` replaces it; ``--force`` without ``--json FILE`` is refused; a device is written."""
    out = tmp_path / "t.json"
    out.write_text("earlier result\n", encoding="utf-8")
    for args in (["-n", "1"], ["--merge", str(out)]):
        r = runner.invoke(app, ["tournament", "-w", "1", *args, "--json", str(out)] if args[0] == "-n"
                          else ["tournament", *args, "--json", str(out)])
        assert r.exit_code == 2 and r.stderr == (f"error: --json {str(out)!r} exists; choose another file or add "
                                                 "--force to replace it\n"), r.output
        assert r.stdout == "" and out.read_text(encoding="utf-8") == "earlier result\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(out), "--force"])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text(encoding="utf-8"))["boards"] == 1
    for args in ([], ["--json", "-"]):
        r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--force", *args])
        assert r.exit_code == 2 and r.stderr == ("error: --force without --json FILE: it lets --json replace a file "
                                                 "that exists; give --json FILE or leave out --force\n"), r.output
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", os.devnull])
    assert r.exit_code == 0, r.output


def test_merge_refuses_an_unknown_key_or_a_figure_its_outcomes_do_not_give(tmp_path: Path) -> None:
    """The repro: a ``--merge`` file with a key of its own (at the top or in a board) or with a figure or a board's
    sums edited by hand was merged without a word. Each is now refused by the shipped schema or by recomputing the
    figures, naming the file and the field and quoting the values; nothing is written."""
    r = runner.invoke(app, ["tournament", "-n", "3", "-m", "1", "-w", "1", "-r", "9-5-2 deals=1", "--json",
                            str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    good = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    score = good["slots"][0]["score"]["mean"]

    def edited(name: str, change: Any) -> Path:
        doc = json.loads(json.dumps(good))
        change(doc)
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
        return tmp_path / name

    board = good["board_outcomes"][0]
    more = [board["scores"][0] + 6, *board["scores"][1:]]
    cases = [
        (edited("top.json", lambda d: d.update(note="mine")), "note: unknown key 'note' (tournament --json writes no such key)"),
        (edited("board.json", lambda d: d["board_outcomes"][0].update(bonus=1)),
         "board_outcomes[0].bonus: unknown key 'bonus' (allowed: index, seed, exchange, scores, over, tricks)"),
        (edited("slot.json", lambda d: d["slots"][0].update(rank=1)), "slots[0].rank: unknown key 'rank'"),
        (edited("mean.json", lambda d: d["slots"][0]["score"].update(mean=99.5)),
         f"slots[0].score.mean: the file gives 99.5, but its outcomes give {score!r} (a figure or an outcome edited by "
         "hand?)"),
        (edited("deals.json", lambda d: d.update(deals=999)), "deals: the file gives 999, but its outcomes give 18"),
        (edited("scores.json", lambda d: d["board_outcomes"][0].update(scores=more)),
         "slots[0].score.mean: the file gives"),
        (edited("wins.json", lambda d: d["slots"][1].update(wins=None)),
         "slots[1].wins: the file gives null, but its outcomes give an object"),
    ]
    for path, said in cases:
        r = runner.invoke(app, ["tournament", "-r", "9-5-2 deals=1", "--merge", str(path), "--json",
                                str(tmp_path / "merged.json")])
        assert r.exit_code == 2 and isinstance(r.exception, SystemExit), (path, r.output)
        assert r.stderr.startswith(f"error: {path}: {said}") and r.stderr.count("\n") == 1, r.stderr
        assert not (tmp_path / "merged.json").exists()
    old = {k: v for k, v in good.items() if k not in ("arrangements", "deals", "slots", "by_level", "differences")}
    (tmp_path / "bare.json").write_text(json.dumps(old), encoding="utf-8")  # the figures are checked when given
    r = runner.invoke(app, ["tournament", "-r", "9-5-2 deals=1", "--merge", str(tmp_path / "bare.json"), "--json", "-"])
    assert r.exit_code == 0, r.output
    assert {k: v for k, v in json.loads(r.stdout).items() if k != "seconds"} == {
        k: v for k, v in good.items() if k not in ("seconds", "workers", "backend")}


def test_merge_names_the_option_that_differs_from_the_files(tmp_path: Path) -> None:
    """The repro: ``--merge t.json --seed 4`` said "--merge files hold '9-5-2' heuristic,random,random seed 0; give the
    same --rules, --players and --seed", not which of them differed. It now names each, with both values."""
    r = runner.invoke(app, ["tournament", "-n", "1", "-w", "1", "--json", str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    tail = "; give the files' --rules, --players and --seed\n"
    for args, said in ((["-s", "4"], "--seed 4, the files 0"),
                       (["-r", "8-5-3"], "--rules '8-5-3', the files '9-5-2'"),
                       (["-p", "heuristic,heuristic,random", "-s", "2"],
                        "--players 'heuristic,heuristic,random', the files 'heuristic,random,random'; --seed 2, the files 0")):
        r = runner.invoke(app, ["tournament", "--merge", str(tmp_path / "t.json"), *args])
        assert r.exit_code == 2 and r.stderr == f"error: --merge files of another run than the options give: {said}{tail}", r.stderr
    r = runner.invoke(app, ["tournament", "-p", "beginner,random,random", "-n", "1", "-w", "1", "--json",
                            str(tmp_path / "b.json")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["tournament", "--merge", str(tmp_path / "b.json")])
    assert r.exit_code == 2 and r.stderr == ("error: --merge files of another run than the options give: --players "
                                             "'heuristic,random,random' (the default), the files 'beginner,random,random'"
                                             + tail), r.stderr
