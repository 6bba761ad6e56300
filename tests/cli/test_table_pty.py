"""The full-screen table in a real pseudo-terminal (pexpect): the alternate screen is used, left on quit, Ctrl-C
and a closed terminal (the cursor shown again), and the match is saved each time."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("textual")

from sergeant_major.records import check_record, read_record  # noqa: E402

_VENV_BIN = Path(sys.executable).parent / "sergeant-major"
BIN = str(_VENV_BIN) if _VENV_BIN.exists() else shutil.which("sergeant-major")
pytestmark = [pytest.mark.skipif(BIN is None, reason="the sergeant-major command is not installed"), pytest.mark.slow]

ALT_ON, ALT_OFF, CURSOR_ON = "\x1b[?1049h", "\x1b[?1049l", "\x1b[?25h"


def _env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e.update(TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path / "xdg"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    e.pop("NO_COLOR", None)
    return e


def _start(tmp_path: Path, size: tuple[int, int] = (24, 80)) -> pexpect.spawn:
    child = pexpect.spawn(BIN, ["play", "--seed", "5", "--save-dir", str(tmp_path / "saves")], env=_env(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=size)
    child.logfile_read = io.StringIO()  # everything written to the terminal
    child.expect_exact(ALT_ON)
    child.expect("Name trump")  # the table is up and asks the dealer (seed 5: you) for trump
    return child


@pytest.mark.parametrize("key", ["\x11", "\x03"], ids=["ctrl-q", "ctrl-c"])
def test_quit_and_ctrl_c_leave_the_alternate_screen_and_save(tmp_path: Path, key: str) -> None:
    child = _start(tmp_path)
    child.send("S\r")  # name spades: one action into the match
    child.expect("Discard 4 cards")
    child.send(key)
    child.expect_exact(ALT_OFF)
    child.expect(r"Match saved to ([^\r\n]+\.json)\r\n")
    path = Path(child.match.group(1).strip())
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = child.logfile_read.getvalue()
    after = shown[shown.rindex(ALT_OFF):]
    assert CURSOR_ON in shown[shown.rindex(ALT_ON):] and "Match saved" in after  # cursor shown, then the main screen
    m = check_record(read_record(path))
    assert m.deal.contract is not None and m.deal.contract.code == "S" and not m.over


def test_closed_terminal_saves(tmp_path: Path) -> None:
    child = _start(tmp_path)
    child.send("H\r")
    child.expect("Discard 4 cards")
    child.kill(signal.SIGHUP)  # what closing the terminal window sends
    deadline = time.monotonic() + 60
    saves = tmp_path / "saves"
    while child.isalive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not child.isalive()
    files = list(saves.glob("*.json"))
    assert len(files) == 1
    m = check_record(read_record(files[0]))
    assert m.deal.contract is not None and m.deal.contract.code == "H"


def test_closed_terminal_window_saves_and_exits(tmp_path: Path) -> None:
    """The terminal window closed (the pty's master end gone, writes fail): the match is saved and the process ends."""
    child = _start(tmp_path)
    child.send("H\r")
    child.expect("Discard 4 cards")
    os.close(child.child_fd)  # the kernel hangs the terminal up: SIGHUP, and every later write fails
    deadline = time.monotonic() + 60
    pid = child.pid
    ended = False
    while time.monotonic() < deadline:
        done, _status = os.waitpid(pid, os.WNOHANG)
        if done:
            ended = True
            break
        time.sleep(0.1)
    if not ended:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert ended, "the process was still running 60 s after its terminal was closed"
    files = list((tmp_path / "saves").glob("*.json"))
    assert len(files) == 1
    m = check_record(read_record(files[0]))
    assert m.deal.contract is not None and m.deal.contract.code == "H"
