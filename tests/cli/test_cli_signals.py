"""``simulate`` and ``tournament`` with worker processes, stopped as a user stops them, through the installed
command: Ctrl-C (SIGINT to the whole process group, as a terminal sends it), ``kill`` (SIGTERM), a closed
terminal (SIGHUP to the process group, as the shell passes it on, and a real hang-up of a pseudo-terminal).
Each leaves no temporary file, no worker process, and no worker output (``Process SpawnPoolWorker-2:``,
tracebacks, ``BrokenPipeError``, ``leaked semaphore objects``)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

EXE = Path(sys.executable).parent / "sergeant-major"
pytestmark = pytest.mark.skipif(not EXE.exists() or sys.platform == "win32" or not hasattr(signal, "SIGHUP"),
                                reason="the installed command on a POSIX system")

WORKER_NOISE = ("Traceback", "SpawnPoolWorker", "BrokenPipeError", "KeyboardInterrupt", "leaked", "resource_tracker")


def _default_signals() -> None:
    """In the child before exec: the signals' default actions, as in a terminal (a test runner started in the
    background with ``&`` ignores SIGINT, and the command would inherit that)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def _command(kind: str, out: Path) -> list[str]:
    if kind == "simulate":
        return [str(EXE), "simulate", "-n", "3000", "-w", "2", "--out", str(out)]
    return [str(EXE), "tournament", "-n", "3000", "-w", "2", "--json", str(out)]


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (the pool's workers, multiprocessing's resource tracker)."""
    found = set()
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                stat = (p / "stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == str(pid):
                found.add(int(p.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _start_and_wait(args: list[str], tmp_path: Path, **kw: object) -> tuple[subprocess.Popen[str], set[int]]:
    """Start the command and wait until its two workers run (and, for simulate --out, records arrive)."""
    p = subprocess.Popen(args, text=True, start_new_session=True, preexec_fn=_default_signals, **kw)  # type: ignore[call-overload]
    deadline = time.monotonic() + 60
    while True:
        assert p.poll() is None and time.monotonic() < deadline, "the run did not start"
        kids = _children(p.pid)
        temps = list(tmp_path.glob(".*.tmp"))
        if len(kids) >= 3 and temps and (args[1] != "simulate" or temps[0].stat().st_size > 0):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    return p, kids


def _no_process_left(kids: set[int]) -> None:
    deadline = time.monotonic() + 20  # multiprocessing's resource tracker leaves once its pipe closes
    while _alive(kids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(kids) == set()


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("kind", ["simulate", "tournament"])
def test_sigterm_or_sighup_stops_like_ctrl_c(kind: str, signame: str, tmp_path: Path) -> None:
    """``kill`` (SIGTERM to the command) or a closed terminal (SIGHUP to the whole job, as the shell passes it on)
    part-way: exit 128 + the signal, one line saying so, no temporary file left, the workers ended and quiet."""
    sig = getattr(signal, signame)
    out = tmp_path / ("s.jsonl" if kind == "simulate" else "t.json")
    p, kids = _start_and_wait(_command(kind, out), tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL)
    try:
        if sig == signal.SIGTERM:
            p.send_signal(sig)
        else:
            os.killpg(p.pid, sig)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 128 + sig, err
    flag = "--out" if kind == "simulate" else "--json"
    assert err.splitlines()[-1] == f"error: stopped by {signame}; {flag} {str(out)!r} not written", err
    assert not any(word in err for word in WORKER_NOISE), err
    assert list(tmp_path.iterdir()) == []
    _no_process_left(kids)


@pytest.mark.slow
@pytest.mark.parametrize("when", [0.0, 1.0, 2.5])
@pytest.mark.parametrize("kind", ["simulate", "tournament"])
def test_ctrl_c_leaves_the_workers_quiet(kind: str, when: float, tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the whole process group) ``when`` seconds after the workers were started (0: while they
    are still starting, importing the package): exit 130, nothing from the workers (they printed 'Process
    SpawnPoolWorker-2:' and a KeyboardInterrupt traceback about 4 times in 5), no file."""
    out = tmp_path / ("s.jsonl" if kind == "simulate" else "t.json")
    p = subprocess.Popen(_command(kind, out), text=True, start_new_session=True, preexec_fn=_default_signals,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(kids := _children(p.pid)) < 3:
            assert p.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.01)
        time.sleep(when)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert not any(word in err for word in WORKER_NOISE), err
    assert list(tmp_path.iterdir()) == []
    _no_process_left(kids)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["simulate", "tournament"])
def test_closing_the_terminal_stops_with_129(kind: str, tmp_path: Path) -> None:
    """The command in a pseudo-terminal that is then closed (a terminal window closed): the hang-up sends SIGHUP and
    every later write to the terminal fails (EIO). Exit 129, not 1 from the progress bar's last write failing;
    no temporary file; no worker left."""
    import fcntl
    import pty
    import termios

    master, slave = pty.openpty()

    def own_terminal() -> None:  # the session's controlling terminal, as a terminal window's shell has
        _default_signals()
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    out = tmp_path / ("s.jsonl" if kind == "simulate" else "t.json")
    p = subprocess.Popen(_command(kind, out), stdin=slave, stdout=slave, stderr=slave, preexec_fn=own_terminal)
    os.close(slave)
    try:
        deadline = time.monotonic() + 60
        kids: set[int] = set()
        while not (len(kids) >= 3 and list(tmp_path.glob(".*.tmp"))):
            assert p.poll() is None and time.monotonic() < deadline, "the run did not start"
            with contextlib.suppress(OSError):
                while select.select([master], [], [], 0)[0]:
                    os.read(master, 65536)  # the progress bar
            kids = _children(p.pid)
            time.sleep(0.1)
        time.sleep(1.0)
        os.close(master)  # the terminal goes
        master = -1
        p.wait(timeout=60)
    finally:
        if master >= 0:
            os.close(master)
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 129
    assert list(tmp_path.iterdir()) == []
    _no_process_left(kids)


@pytest.mark.slow
def test_nohup_keeps_running_after_a_hang_up(tmp_path: Path) -> None:
    """Under ``nohup`` (SIGHUP ignored) a hang-up does not stop the run: the records are all written."""
    out = tmp_path / "s.jsonl"

    def nohup() -> None:
        _default_signals()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    p = subprocess.Popen([str(EXE), "simulate", "-n", "60", "-w", "2", "--out", str(out)], text=True,
                         start_new_session=True, preexec_fn=nohup, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".*.tmp")) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGHUP)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 0, err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 60


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_stop_that_a_library_turned_into_a_plain_keyboard_interrupt_is_still_that_signal(
        signame: str, capsys: pytest.CaptureFixture[str]) -> None:
    """ray's ray.wait and ray.get (``tournament --ray``) run Python's signal handlers in their C++ core and raise a
    KeyboardInterrupt of their own for the handler's :class:`~sergeant_major.cli.app.Stopped`: ``kill`` of a run on a
    cluster ended about one time in two with status 130 and no word, as if by Ctrl-C. The signal taken decides."""
    import typer

    from sergeant_major.cli.app import stop_on_signals

    sig = getattr(signal, signame)
    code = None
    try:
        with stop_on_signals("--json 'r.json'"):
            try:
                signal.raise_signal(sig)
            except KeyboardInterrupt:  # what ray does
                raise KeyboardInterrupt from None
    except typer.Exit as e:
        code = e.exit_code
    except KeyboardInterrupt:
        pytest.fail(f"{signame} came out as Ctrl-C (status 130, no message)")
    assert code == 128 + sig
    assert capsys.readouterr().err == f"error: stopped by {signame}; --json 'r.json' not written\n"
    assert signal.getsignal(sig) is not None and signal.getsignal(sig) != signal.SIG_IGN  # handlers restored
    with pytest.raises(KeyboardInterrupt), stop_on_signals("--json 'r.json'"):  # Ctrl-C itself stays Ctrl-C
        raise KeyboardInterrupt


# the program as its installed script starts it (``from sergeant_major.cli.app import main; sys.exit(main())``), with an
# import that waits (after writing MARK) when the module TARGET is first looked for: a Ctrl-C there, at a known moment
_PAUSED_START = """
import pathlib, sys, time
MARK, TARGET = sys.argv[1], sys.argv[2]

class Pause:
    def find_spec(self, name, path=None, target=None):
        if name == TARGET:
            pathlib.Path(MARK).write_text("importing " + name)
            end = time.monotonic() + 60
            while time.monotonic() < end:
                time.sleep(0.01)
        return None

sys.meta_path.insert(0, Pause())
sys.argv = ["sergeant-major"] + sys.argv[3:]
from sergeant_major.cli.app import main
sys.exit(main())
"""


@pytest.mark.parametrize("target", ["typer", "sergeant_major.cli.analyze"])
@pytest.mark.parametrize("command", ["analyze", "simulate"])
def test_ctrl_c_while_the_program_loads_is_quiet(target: str, command: str, tmp_path: Path) -> None:
    """Ctrl-C in the first few tenths of a second (``sergeant-major analyze FILE`` still importing typer, rich and
    the command modules) printed a KeyboardInterrupt traceback; now it exits with 130 and says nothing, as later.
    Deterministic: the Ctrl-C arrives while an import of ``target`` waits (in cli.py's own imports: typer; in
    main's registration of the commands: cli_analyze), whatever the command."""
    mark = tmp_path / "mark"
    args = {"analyze": ["analyze", str(Path(__file__).resolve().parents[1] / "data" / "sample-9-5-2.json")],
            "simulate": ["simulate", "-n", "2"]}[command]
    p = subprocess.Popen([sys.executable, "-c", _PAUSED_START, str(mark), target, *args], text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=_default_signals)
    try:
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert p.poll() is None and time.monotonic() < deadline, p.communicate()
            time.sleep(0.01)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:  # pragma: no cover - only when the test fails
            p.kill()
            p.communicate()
    assert (p.returncode, out, err) == (130, "", "")


@pytest.mark.usefixtures("ctrl_c_as_at_a_terminal")  # Python's own handler, also when pytest runs in the background
def test_importing_the_cli_leaves_ctrl_c_as_it_was() -> None:
    """The quiet exit is the program's only while it loads: a library importing sergeant_major.cli.app keeps
    Python's KeyboardInterrupt (the module gives the handler back at its end)."""
    import sergeant_major.cli.app as cli

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert cli._hold_ctrl_c() is True and signal.getsignal(signal.SIGINT) is cli._quiet_sigint
    cli._release_ctrl_c(True)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
