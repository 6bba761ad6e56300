"""``sergeant-major serve``: prints its address, keeps its default database in the user data directory,
and refuses a bad database URL, a bad port or a busy port in one line with no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import free_port  # noqa: E402

EXE = str(Path(sys.executable).with_name("sergeant-major"))


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, "serve", *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize(("args", "words"), [
    (["--db", "nonsense://x"], "nonsense://x"),
    (["--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x"], "127.0.0.1:1/x"),
    (["--port", "70000"], "70000"),
    (["--delay", "-1"], "-1"),
])
def test_bad_arguments(args: list[str], words: str) -> None:
    r = _run(*args)
    assert r.returncode != 0
    assert r.stderr.startswith("error: ") and words in r.stderr and "Traceback" not in r.stderr + r.stdout and "secret" not in r.stderr


def test_default_database_and_address(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([EXE, "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        assert (tmp_path / "sergeant-major" / "web.sqlite3").exists()
        busy = _run("--port", str(port), env=env)
        assert busy.returncode == 1 and "cannot listen" in busy.stderr
    finally:
        p.terminate()
        p.wait(10)
