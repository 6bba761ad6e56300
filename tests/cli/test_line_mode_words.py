"""Line mode's words of issue 32: minimum-tricks ceilings, every player's 3-5-8 contracts left, 'playmaker', one
form of card refusal, the hint's words and footnote, the resume banner, forced cards and the settings file."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from _matchhelp import at_last_card, drive
from rich.console import Console
from typer.testing import CliRunner

from sergeant_major.cli import tui
from sergeant_major.cli.play import Game
from sergeant_major.cli.settings import Settings, load_settings, save_settings
from sergeant_major.core.actions import Contract, NameContract, Play
from sergeant_major.core.match import Match, first_dealer
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View

KINDS = ["human", "heuristic", "heuristic"]


def _render(v: tui.View, width: int = 120) -> str:
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None).print(tui.status(v))
    return buf.getvalue()


def _358_playmaker() -> Match:
    seed = next(s for s in range(100) if (first_dealer(s, 3) + 1) % 3 == 0)  # the human is eldest: the playmaker
    return Match(Rules.parse("3-5-8"), seed, ["You", "Bob", "Cleo"])


def test_minimum_tricks_targets_are_ceilings_and_fewer_is_better() -> None:
    m = _358_playmaker()
    before = m.view(0).targets
    m.apply(NameContract(0, Contract.MINIMUM))
    v = m.view(0)
    out = _render(v)
    assert before[0] == 8 and v.targets[0] == 3  # the playmaker's 8 becomes a ceiling of 3
    for s in range(3):
        assert f"at most {v.targets[s]}" in out
    assert "Fewer is better" in out
    assert tui.target_text(5, Contract.SPADES) == "5" and tui.target_text(5, Contract.MINIMUM) == "at most 5"


def test_every_players_contracts_left_and_playmaker() -> None:
    m = _358_playmaker()
    out = _render(m.view(0))
    assert "Contracts left" in out and out.count("C D H S NT MT") >= 3  # a column for each player, and the prompt's
    assert "eldest, playmaker" in out and "declarer" not in out
    assert tui.who(m.names, 0, m.deal.dealer, m.deal.declarer) == "You (eldest, playmaker)"


@pytest.mark.parametrize(("typed", "part"), [("10", "'10' is a rank without a suit"), ("Q", "'Q' is a rank without a suit"),
                                             ("1D", "'1' is not a rank"), ("Qx", "'x' is not a suit")])
def test_card_refusals_have_one_form(typed: str, part: str) -> None:
    with pytest.raises(tui.InputError) as e:
        tui.parse_card_list(typed)
    msg = str(e.value)
    assert msg.startswith(f"'{typed}' is not a card: ") and part in msg
    assert msg.endswith("write rank then suit, e.g. QS, 10H, TD")


@pytest.mark.parametrize(("typed", "flipped"), [("S5", "5S"), ("♠5", "5♠"), ("h10", "10H")])
def test_a_card_typed_suit_first_is_told_the_order(typed: str, flipped: str) -> None:
    """``S5`` at ``play>`` said "'5' is not a suit (C, D, H, S)"; it now says to write the rank first, once."""
    with pytest.raises(tui.InputError) as e:
        tui.parse_card_list(typed)
    assert str(e.value) == f"'{typed}' is not a card: write the rank then the suit, e.g. {flipped}"


def test_hint_footnote_once_and_wrapped_between_words(tmp_path: Path) -> None:
    g = Game(Match(Rules.parse("9-5-2"), 2, ["You", "Bob", "Cleo"]), KINDS, tmp_path / "m.json",
             Console(file=io.StringIO()))
    note = ("  (points: the expert's utility - the deal's score, weighted up by a quarter when an exchange follows, "
            "+4 when it wins the match, -4 when it loses it; docs/players.md)")
    hints = ["Hint: the expert would choose QS (estimated over 40 sampled deals, each solved double dummy).",
             "  QS                        8.10 tricks    +0.50 points", note]
    for width in (60, 120):
        g._hint_note_shown = False
        lines = g.hint_text(hints, width)
        assert all(len(x) <= width - 1 for x in lines)
        row = next(i for i, x in enumerate(lines) if x.startswith("  QS"))
        words = " ".join(x.strip() for x in lines[row + 1:]).split()
        assert words == note.split()  # no word cut in two
    assert not any("points:" in x for x in g.hint_text(hints, 120))  # the second hint: without the footnote


@pytest.mark.slow
def test_hint_names_a_contract_in_english() -> None:
    import random

    from sergeant_major.players.expert import hint_lines

    m = _358_playmaker()
    head = hint_lines(m.view(0), random.Random(1), think=0.05)[0]
    assert "choose name" not in head and "the expert would choose " in head


def test_last_card_is_played_for_you_and_forced_cards_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    asked: list[int] = []
    m = Match(Rules.parse("9-5-2"), 4, ["You", "Bob", "Cleo"])

    def answer(prompt: str) -> str:
        v = m.view(0)
        asked.append(len(v.hand))
        if m.deal.number > 1:
            return "quit"
        return tui.legal_tokens(v)[0]

    buf = io.StringIO()
    Game(m, KINDS, tmp_path / "m.json", Console(file=buf, width=200), answer).run()
    assert 1 not in [n for n in asked if n]  # never asked for a last card
    assert "(your last card)" in buf.getvalue()
    g = Game(Match(Rules.parse("9-5-2"), 4, ["You", "Bob", "Cleo"]), KINDS, tmp_path / "n.json", Console(file=io.StringIO()))
    assert "on" in g.set_play_forced(True)
    assert load_settings().play_forced is True
    assert json.loads((tmp_path / "cfg" / "sergeant-major" / "settings.json").read_text()) == {"play_forced": True}


def test_forced_card_with_the_option(tmp_path: Path) -> None:
    m = Match(Rules.parse("9-5-2"), 4, ["You", "Bob", "Cleo"])
    g = Game(m, KINDS, tmp_path / "m.json", Console(file=io.StringIO()), settings=Settings(play_forced=True))
    found = False

    def check(m: Match, v: View) -> None:
        nonlocal found
        if v.seat == 0 and len(v.legal) == 1 and isinstance(v.legal[0], Play):
            assert g.forced_card() == v.legal[0]
            found = True
        elif v.seat == 0:
            assert g.forced_card() is None

    drive(m, lambda m: m.over or m.deal.number != 1, hook=check)
    assert found


def test_settings_file_survives_garbage(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    p.write_text("{not json")
    assert load_settings(p) == Settings()
    assert save_settings(Settings(play_forced=True), p) and load_settings(p).play_forced


def test_resume_banner_names_the_opponents(tmp_path: Path) -> None:
    from sergeant_major.cli.app import app

    env = {"XDG_DATA_HOME": str(tmp_path / "d"), "XDG_CONFIG_HOME": str(tmp_path / "c")}
    r = CliRunner().invoke(app, ["play", "--seed", "3", "--opponents", "heuristic,random", "--save-dir", str(tmp_path)],
                           input="quit\n", env=env)
    saved = next(tmp_path.glob("match-3-*.json"))
    r = CliRunner().invoke(app, ["play", "--resume", str(saved)], input="quit\n", env=env)
    assert "Opponents: Bob (heuristic), Cleo (random)." in " ".join(r.stdout.split()), r.output


def _refusal_lines(width: int, tmp_path: Path) -> list[str]:
    m = Match(Rules.parse("9-5-2"), next(s for s in range(100) if first_dealer(s, 3) == 0), ["You", "Bob", "Cleo"])
    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=False, color_system=None, highlight=False)
    script = ["S", "zzzzzz-and-some-more-words " * 3 + "2C", "quit"]
    Game(m, KINDS, tmp_path / f"m{width}.json", con, lambda prompt: script.pop(0)).run()
    lines = buf.getvalue().splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("Refused"))
    return lines[start:start + 6]


def test_a_refusal_at_80_columns_breaks_between_words(tmp_path: Path) -> None:
    """A refusal longer than the screen is broken between words, so the terminal never cuts one mid-word."""
    wide = _refusal_lines(400, tmp_path)[0]
    narrow = _refusal_lines(80, tmp_path)
    assert len(wide) > 80 and "is not a card" in wide, wide
    n = next((n for n in range(2, 6) if " ".join(narrow[:n]) == wide), 0)  # the same words, cut at spaces
    assert n and all(len(x) <= 79 for x in narrow[:n]), narrow


def test_the_match_end_of_9_2_5_says_the_bound_as_the_top_line_does(tmp_path: Path) -> None:
    """Line mode ended a 9-2-5 match with '... - a total reached +-15; ...', the record's words: it now says '±15'
    as its top line's 'to ±15' does."""
    buf = io.StringIO()
    m = at_last_card("9-2-5", 0, ["You", "Bob", "Cleo"])
    assert Game(m, KINDS, tmp_path / "m.json", Console(file=buf, width=80), lambda prompt: "quit").run() == 0
    out = buf.getvalue()
    assert "Match over: Cleo wins - a total reached ±15; the highest total (15) wins." in out and "+-" not in out, out
