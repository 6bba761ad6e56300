"""``serve`` stopped as a user stops it: Ctrl-C exits with status 130 as every command does (README), ``kill`` with
143; no traceback, and the database is free for the next ``serve``."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _default_signals() -> None:
    """In the child: the signals' default actions, as in a terminal (a runner in the background ignores SIGINT)."""
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def _serve_until(sig: signal.Signals, tmp_path: Path) -> tuple[int, str]:
    """Start ``serve`` on a free port and an SQLite file in ``tmp_path``, send ``sig`` to its process group once it
    prints its address; its exit status and everything it printed."""
    env = {**os.environ, "SERGEANT_MAJOR_WARM_NOTICE": "0", "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    cmd = [sys.executable, "-m", "sergeant_major", "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'web.sqlite3'}"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                         preexec_fn=_default_signals, start_new_session=True)  # noqa: PLW1509 - signals as a terminal leaves them
    out = ""
    try:
        assert p.stdout is not None
        deadline = time.monotonic() + 60
        while "served at" not in out and time.monotonic() < deadline and p.poll() is None:
            if select.select([p.stdout], [], [], 0.5)[0]:
                out += p.stdout.readline()
        assert "served at" in out, out
        os.killpg(p.pid, sig)
        rest, _ = p.communicate(timeout=60)
        # the status a shell shows: 128 + the signal for a process the signal ended
        return p.returncode if p.returncode >= 0 else 128 - p.returncode, out + rest
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_serve_stopped_by_ctrl_c_or_kill_exits_130_or_143(sig: signal.Signals, status: int, tmp_path: Path) -> None:
    code, out = _serve_until(sig, tmp_path)
    assert code == status and "Traceback" not in out, out
    code, out = _serve_until(sig, tmp_path)  # the database was released: a second serve on it starts
    assert code == status, out
