"""The tournament plays each distinct seating of levels once per board (``memo``), with the same result as
playing every arrangement, and runs of one seed in chunks (``first_board``) merge into the one-run result."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sergeant_major.cli.app import app, register_commands
from sergeant_major.core.actions import Action
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.eval.tournament import merge_json, play_board_game, play_match_game, tournament
from sergeant_major.players import LEVELS, HeuristicPlayer, RandomPlayer

PRESETS = ("9-5-2", "8-5-3", "9-2-5", "3-5-8")

register_commands()
runner = CliRunner()


class _Counting(HeuristicPlayer):
    games = 0

    def __init__(self) -> None:
        super().__init__()
        _Counting.games += 1


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_memo_gives_the_result_of_every_arrangement(preset: str) -> None:
    rules = Rules.preset(preset)
    for levels in (("beginner", "heuristic", "heuristic"), ("beginner", "heuristic", "random")):
        for i in range(3):
            assert play_board_game(rules, levels, 7, i) == play_board_game(rules, levels, 7, i, memo=False)
    levels = ("beginner", "random", "random")
    assert play_match_game(rules, levels, 7, 0) == play_match_game(rules, levels, 7, 0, memo=False)


@pytest.mark.slow
def test_memo_with_the_expert() -> None:
    rules = Rules.preset("9-5-2")
    levels = ("expert", "heuristic", "heuristic")
    assert play_board_game(rules, levels, 3, 1) == play_board_game(rules, levels, 3, 1, memo=False)


def test_memo_plays_each_seating_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "counting", _Counting)
    rules = Rules.preset("9-5-2")
    for levels, games in ((("counting", "heuristic", "heuristic"), 3), (("counting", "counting", "random"), 3),
                          (("counting", "heuristic", "random"), 6), (("counting",) * 3, 1)):
        _Counting.games = 0
        play_board_game(rules, levels, 1, 0)
        players_per_game = levels.count("counting")
        assert _Counting.games == games * players_per_game, levels
        _Counting.games = 0
        play_board_game(rules, levels, 1, 0, memo=False)
        assert _Counting.games == 6 * players_per_game


class _Coin(RandomPlayer):
    """Not a function of (view, rng): it draws from a generator of its own. The memo assumes no such player."""

    def __init__(self) -> None:
        super().__init__()
        self.own = random.Random()

    def choose(self, view: View, rng: random.Random) -> Action:
        return self.own.choice(view.legal)


def test_a_player_with_its_own_randomness_would_break_the_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why every level must be a deterministic function of its view and the seat's generator: with one that
    is not, the games the memo skips would have been different ones."""
    monkeypatch.setitem(LEVELS, "coin", _Coin)
    rules = Rules.preset("9-5-2")
    runs = {play_board_game(rules, ("coin", "heuristic", "heuristic"), 1, 0, memo=False).scores for _ in range(8)}
    assert len(runs) > 1  # the same board gives different results: such a player cannot be memoized


@pytest.mark.parametrize("level", ["random", "beginner", "heuristic"])
def test_levels_are_functions_of_view_and_generator(level: str) -> None:
    rules = Rules.preset("3-5-8")
    a = tournament(rules, [level, "heuristic", "random"], boards=2, seed=4, memo=False)
    b = tournament(rules, [level, "heuristic", "random"], boards=2, seed=4, memo=False)
    assert a == b


def test_chunks_merge_into_the_one_run_result(tmp_path: Path) -> None:
    rules = Rules.preset("9-5-2")
    levels = ["beginner", "heuristic", "random"]
    whole = tournament(rules, levels, boards=6, seed=9)
    parts = [tournament(rules, levels, boards=k, seed=9, first_board=f) for f, k in ((0, 2), (2, 3), (5, 1))]
    assert [b.index for b in parts[1].board_outcomes] == [2, 3, 4]
    merged = merge_json([p.to_json() for p in reversed(parts)])
    assert merged == whole
    with pytest.raises(SergeantMajorError, match="more than one"):
        merge_json([parts[0].to_json(), parts[0].to_json()])
    other = tournament(rules, levels, boards=1, seed=10).to_json()
    with pytest.raises(SergeantMajorError, match="different runs"):
        merge_json([parts[0].to_json(), other])
    with pytest.raises(SergeantMajorError, match="first_board=-1"):
        tournament(rules, levels, boards=1, first_board=-1)
    files = []
    for f, k in ((0, 2), (2, 4)):
        out = tmp_path / f"c{f}.json"
        r = runner.invoke(app, ["tournament", "-p", ",".join(levels), "-n", str(k), "--first-board", str(f), "-s", "9",
                                "-w", "1", "--json", str(out)])
        assert r.exit_code == 0, r.output
        files += ["--merge", str(out)]
    r = runner.invoke(app, ["tournament", "-p", ",".join(levels), "-s", "9", *files, "--json", "-"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["boards"] == 6 and d["differences"] == whole.to_json()["differences"]
    r = runner.invoke(app, ["tournament", "-p", ",".join(levels), "-s", "8", *files])
    assert r.exit_code == 2 and "--seed 8, the files 9" in r.output
