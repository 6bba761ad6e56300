"""``sergeant-major play`` in a real pseudo-terminal (pexpect), typed as a person would: read the
``Legal:`` line on screen, type a card; wrong input gets a one-line reason and the prompt again; ``quit``
saves, ``--resume`` continues from the same position; a short match is played to its end."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from sergeant_major.core.match import first_dealer  # noqa: E402
from sergeant_major.records import read_record  # noqa: E402

_VENV_BIN = Path(sys.executable).parent / "sergeant-major"
BIN = str(_VENV_BIN) if _VENV_BIN.exists() else shutil.which("sergeant-major")
pytestmark = pytest.mark.skipif(BIN is None, reason="the sergeant-major command is not installed")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = r"(play|trump|contract|discard|give|return|targets)> "
TIMEOUT = 10


def _clean(text: str) -> str:
    return ANSI.sub("", text)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e.update(COLUMNS="120", LINES="50", TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path / "xdg"),
             XDG_CONFIG_HOME=str(tmp_path / "config"))
    e.pop("NO_COLOR", None)
    return e


def spawn(args: list[str], env: dict[str, str]) -> pexpect.spawn:
    """``sergeant-major ARGS`` in a terminal; ``play`` in line mode (``--plain``: in a terminal it is full-screen)."""
    if args[:1] == ["play"]:
        args = [*args, "--plain"]
    child = pexpect.spawn(BIN, args, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 120))
    return child


class Screen:
    """What was shown before one prompt: the prompt word, the legal tokens, the hand, the current trick."""

    def __init__(self, text: str, word: str) -> None:
        self.text = text
        self.word = word
        legal = re.findall(r"^Legal: (.*)$", text, re.M)
        self.legal = legal[-1].split() if legal else []
        hands = re.findall(r"^Hand: (.*)$", text, re.M)
        self.hand_line = hands[-1].strip() if hands else ""
        self.hand = self.hand_line.replace("|", " ").split()
        tricks = re.findall(r"^Trick: (.*)$", text, re.M)
        self.trick = tricks[-1] if tricks else ""


def next_screen(child: pexpect.spawn) -> Screen | None:
    """Wait for the next prompt (``None`` when the match ends instead)."""
    i = child.expect([PROMPT, r"Match over: [^\r\n]*"])
    if i == 1:
        return None
    return Screen(_clean(child.before), child.match.group(1))


def answer(screen: Screen) -> str:
    """A person's answer: the first legal token (several cards at once for discards)."""
    if screen.word == "discard" and len(screen.legal) >= 4:
        return " ".join(screen.legal[-2:])  # two discards on one line
    return screen.legal[0]


def expect_refusal(child: pexpect.spawn, rule: str, typed: str) -> None:
    child.sendline(typed)
    child.expect(r"Refused \[([a-z -]+)\]: ([^\r\n]*)\r\n")
    assert child.match.group(1) == rule, child.match.group(0)
    assert repr(typed) in child.match.group(2) or typed in child.match.group(2)
    child.expect(PROMPT)  # and the prompt again


def human_deals_first_seed() -> int:
    """Seed 2: the human (seat 0) deals first, and deal 1 does not end the match (no 12+ tricks)."""
    assert first_dealer(2, 3) == 0
    return 2


def _saved_path(child: pexpect.spawn) -> Path:
    child.expect(r"Match saved to ([^\r\n]+)\r\n")
    p = Path(_clean(child.match.group(1)).strip())
    child.expect(pexpect.EOF)
    return p


@pytest.mark.slow
def test_one_full_deal_as_dealer_with_wrong_input_then_quit_and_resume(env: dict[str, str], tmp_path: Path) -> None:
    seed = human_deals_first_seed()
    saves = tmp_path / "saves"
    child = spawn(["play", "--seed", str(seed), "--save-dir", str(saves), "--opponents", "heuristic,random"], env)
    child.expect(f"Seed: {seed}")
    s = next_screen(child)
    assert s is not None and s.word == "trump" and s.legal == ["C", "D", "H", "S"]
    assert "dealer" in s.text and "eldest" in s.text and "third" in s.text and "Deal 1" in s.text
    expect_refusal(child, "not a contract", "purple")
    child.sendline("spades")
    child.expect("You \\(dealer\\) name spades as trump")
    child.expect(r"You \(dealer\) take the kitty: ((?:[2-9TJQKA][CDHS] ?){4})")
    s = next_screen(child)
    assert s is not None and s.word == "discard" and "Discard 4 cards" in s.text
    assert s.hand[0].endswith("S")  # trump first once named
    expect_refusal(child, "not a card", "2c zz")
    not_held = next(c for c in ("AS", "KH", "QD", "JC", "2C", "3D") if c not in s.hand)
    expect_refusal(child, "card not held", not_held.lower())
    revoked = garbage_played = False
    deal_done = False
    while True:
        child.sendline(answer(s))
        i = child.expect([PROMPT, r"Deal 1 scored"])
        if i == 1:
            deal_done = True
            break
        s = Screen(_clean(child.before), child.match.group(1))
        if s.word != "play":
            continue
        if not garbage_played:
            expect_refusal(child, "not a card", "hello")
            garbage_played = True
        others = [c for c in s.hand if c not in s.legal]
        if not revoked and s.trick and others:
            expect_refusal(child, "follow suit", others[0])
            revoked = True
    assert deal_done and revoked and garbage_played
    # the score table and the next deal's exchange, then the next prompt: quit there
    s = next_screen(child)
    assert s is not None
    child.sendline("quit")
    path = _saved_path(child)
    assert path.exists() and path.parent == saves
    rec = read_record(path)
    assert rec["players"][0]["kind"] == "human" and rec["seed"] == seed and len(rec["deals"]) == 2
    # resume: the same hand and the same legal cards at the same prompt
    child = spawn(["play", "--resume", str(path)], env)
    s2 = next_screen(child)
    assert s2 is not None
    assert (s2.word, s2.hand_line, s2.legal) == (s.word, s.hand_line, s.legal)
    child.sendline(answer(s2))
    child.expect(PROMPT)
    # Ctrl-D (end of input) saves too. (Ctrl-C is tested in test_play_unit: a SIGINT sent the very instant the
    # prompt appears can land before input() blocks in read(), and Python then acts on it only at the next key.)
    child.sendeof()
    assert _saved_path(child) == path
    assert len(read_record(path)["deals"][-1]["actions"]) > len(rec["deals"][-1]["actions"])


@pytest.mark.slow
def test_short_match_to_the_end_and_resume_midway(env: dict[str, str], tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    args = ["play", "--rules", "9-5-2 to=3", "--seed", "4", "--save-dir", str(saves)]
    child = spawn(args, env)
    for _ in range(5):
        s = next_screen(child)
        assert s is not None
        child.sendline(answer(s))
    s = next_screen(child)
    assert s is not None
    child.sendline("help")
    child.expect("quit +save the match")
    child.expect(PROMPT)
    child.sendline("quit")
    path = _saved_path(child)
    child = spawn(["play", "--resume", str(path), "--save-dir", str(saves)], env)
    s2 = next_screen(child)
    assert s2 is not None and s2.hand_line == s.hand_line and s2.legal == s.legal
    answers = 0
    while s2 is not None:
        child.sendline(answer(s2))
        answers += 1
        assert answers < 400
        s2 = next_screen(child)
    winner_line = _clean(child.match.group(0))
    assert "reached" in winner_line or "tricks in one deal" in winner_line
    child.expect(r"Record saved to ([^\r\n]+)\r\n")
    final = Path(_clean(child.match.group(1)).strip())
    child.expect(pexpect.EOF)
    rec = read_record(final)
    assert rec["end"] is not None and rec["end"]["reason"] in winner_line
    # resuming a finished match is refused saying so (status 2: there is nothing to continue)
    child = spawn(["play", "--resume", str(final)], env)
    child.expect("already over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


@pytest.mark.slow
@pytest.mark.parametrize("args,quoted", [
    (["--rules", "9-5-2 bogus=1"], "'bogus'"),
    (["--rules", "7-7-2"], "'7-7-2'"),
    (["--to", "zero"], "'zero'"),
    (["--opponents", "wizard"], "'wizard'"),
    (["--seed", "abc"], "'abc'"),
    (["--opponents", "heuristic,random,random"], "'heuristic,random,random'"),
    (["--resume", "/nonexistent/save.json"], "/nonexistent/save.json"),
])
def test_bad_arguments_one_line_exit_2(args: list[str], quoted: str, env: dict[str, str]) -> None:
    child = spawn(["play", *args], env)
    out = child.read()
    child.close()
    assert child.exitstatus == 2, out
    text = _clean(out).strip()
    assert len(text.splitlines()) == 1 and quoted in text and "Traceback" not in text, text


def _saves(env: dict[str, str]) -> list[Path]:
    return sorted((Path(env["XDG_DATA_HOME"]) / "sergeant-major" / "saves").glob("match-*.json"))


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_killed_terminal_keeps_the_match(env: dict[str, str], signame: str) -> None:
    """A closed terminal (SIGHUP) or a killed process (SIGTERM) at a prompt saves like ``quit``; the
    autosave before each decision already holds the position, and ``--resume`` continues from it."""
    import signal

    child = spawn(["play", "--seed", "2"], env)
    first = next_screen(child)
    assert first is not None
    child.sendline(answer(first))
    second = next_screen(child)
    assert second is not None
    saved = _saves(env)
    assert len(saved) == 1  # the autosave before this decision
    before = read_record(saved[0])
    child.kill(getattr(signal, signame))
    child.expect(r"Match saved to ([^\r\n]+)\r\n")
    child.expect(pexpect.EOF)
    after = read_record(saved[0])
    assert after["deals"] == before["deals"]  # nothing lost, nothing half applied
    resumed = spawn(["play", "--resume", str(saved[0])], env)
    again = next_screen(resumed)
    assert again is not None and again.legal == second.legal and again.hand == second.hand
    resumed.sendline("quit")
    resumed.expect(pexpect.EOF)


def test_unwritable_save_folder_is_refused_before_play(env: dict[str, str], tmp_path: Path) -> None:
    """A save folder that cannot be created is said at once (one line, exit 2), before any card is dealt."""
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    child = spawn(["play", "--seed", "2", "--save-dir", str(blocker / "saves")], env)
    child.expect(r"error: cannot create the save folder [^\r\n]*afile[^\r\n]*\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "Traceback" not in _clean(child.before or "")


def test_lone_q_is_not_quit_and_save_goes_on(env: dict[str, str]) -> None:
    """``Q`` alone is a queen typed short (refused as a card), not ``quit``; ``save`` saves and the prompt
    comes back."""
    child = spawn(["play", "--seed", "2"], env)
    first = next_screen(child)
    assert first is not None
    child.sendline("Q")
    child.expect(r"Refused \[[a-z -]+\]: [^\r\n]*'Q'")
    child.sendline("save")
    child.expect(r"Saved to ([^\r\n]+\.json)\r\n")
    assert Path(child.match.group(1).strip()).exists()
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"Match saved to")
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_analyze_on_a_terminal_says_it_prepares_the_solver(env: dict[str, str]) -> None:
    """On a terminal, ``analyze`` says what it is doing while the solver's kernels compile or load (tens of seconds
    on first use with numba) instead of sitting silent; then the analysis follows (on a pipe, ``--json`` output
    stays pure JSON: tests/search/test_position.py)."""
    from sergeant_major.search import HAVE_NUMBA

    if not HAVE_NUMBA:
        pytest.skip("without numba nothing compiles")
    child = pexpect.spawn(BIN, ["analyze", "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"],
                          env=env, encoding="utf-8", timeout=180, dimensions=(50, 120))
    child.expect("Preparing the double-dummy solver")
    child.expect("Value after each legal card")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_play_against_experts_says_it_prepares_them(env: dict[str, str]) -> None:
    """With numba, ``play --opponents expert`` compiles (or loads) the expert's kernels before the first screen,
    saying so on the terminal: with a cold cache that was a silent minute in the middle of the first deal."""
    from sergeant_major.search import HAVE_NUMBA

    if not HAVE_NUMBA:
        pytest.skip("without numba nothing compiles")
    child = pexpect.spawn(BIN, ["play", "--seed", "2", "--opponents", "expert", "--plain"], env=env, encoding="utf-8",
                          timeout=180, dimensions=(50, 120))
    child.expect("Preparing the expert players")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"Match saved to")
    child.expect(pexpect.EOF)


def test_play_against_experts_without_numba_says_so_once(env: dict[str, str]) -> None:
    """Without numba the experts still play (in pure Python, more slowly), and ``play`` says so once."""
    child = pexpect.spawn(BIN, ["play", "--seed", "2", "--opponents", "expert", "--plain"],
                          env=dict(env, SERGEANT_MAJOR_NO_NUMBA="1"), encoding="utf-8", timeout=180, dimensions=(50, 120))
    child.expect("numba is not available")
    child.expect(PROMPT)
    assert "numba is not available" not in (child.before or "")
    child.sendline("quit")
    child.expect(r"Match saved to")
    child.expect(pexpect.EOF)


def test_arrow_keys_edit_the_line_typed(env: dict[str, str], tmp_path: Path) -> None:
    # without readline loaded, Left arrow arrived as '\x1b[D' and 'Sx<Left><Backspace>' was refused as garbage
    child = spawn(["play", "--seed", str(human_deals_first_seed()), "--save-dir", str(tmp_path / "saves")], env)
    s = next_screen(child)
    assert s is not None and s.word == "trump"
    child.send("xS\x1b[D\x7f\r")  # type xS, Left arrow, Backspace (deletes the x), Enter: the line is "S"
    child.expect(r"You \(dealer\) name spades as trump")
    s = next_screen(child)
    assert s is not None and s.word == "discard"
    child.send("\x1b[A")  # Up arrow brings back the line typed before, "S" (not a card at this prompt)
    child.send("\r")
    child.expect(r"Refused \[not a card\]: 'S'")
    child.expect(PROMPT)
    child.sendline("quit")
    _saved_path(child)


def test_a_second_play_of_a_save_being_played_is_refused(env: dict[str, str], tmp_path: Path) -> None:
    """Two ``play --resume`` of one save overwrote each other's moves (the last to save won); the second is now
    refused in one line quoting the file and the process playing it, and the file is left as it was."""
    saves = tmp_path / "saves"
    first = spawn(["play", "--seed", "2", "--save-dir", str(saves)], env)
    assert next_screen(first) is not None
    save = next(saves.glob("*.json"))
    before = save.read_bytes()
    second = spawn(["play", "--resume", str(save)], env)
    second.expect(pexpect.EOF)
    second.close()
    out = _clean(second.before)
    assert second.exitstatus == 2, out
    assert f"error: {str(save)!r} is being played by another sergeant-major play (process {first.pid})" in out
    assert save.read_bytes() == before
    first.sendline("quit")
    _saved_path(first)
    # once the first has left, the save is free again
    again = spawn(["play", "--resume", str(save)], env)
    assert next_screen(again) is not None
    again.sendline("quit")
    assert _saved_path(again) == save
    assert not list(saves.glob(".*.lock"))
