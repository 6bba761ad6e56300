"""``sergeant-major tournament --ray ADDRESS`` on a real ray cluster: one started here for these tests with
``ray start --head`` (2 CPUs, a free port, its own temporary folder), and the installed command run against it.

ray comes with the test extra (``pip install -e ".[test]"``, which CI's ``.ci/run`` runs). Without ray the tests
that need it are skipped on a developer's machine, and fail where the environment variable ``CI`` is set (as CI
sets it), so that CI never passes without running them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _signalhelp import ctrl_c_as_at_a_terminal
from typer.testing import CliRunner

from sergeant_major import Rules
from sergeant_major.cli.app import app, register_commands
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.eval.tournament import tournament

BIN = Path(sys.executable).parent
EXE = BIN / "sergeant-major"
PLAYERS = "heuristic,heuristic,random"
register_commands()
runner = CliRunner()


def _need_ray() -> None:
    if importlib.util.find_spec("ray") is None or not (BIN / "ray").exists():
        msg = "ray is not installed (it comes with the test extra: pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(msg + "; CI must run the ray tests")
        pytest.skip(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _processes(text: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if text in line]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A one-machine ray cluster (``127.0.0.1:PORT``), stopped at the end even when a test fails.

    ``ray start --block`` keeps the cluster's processes its own; a SIGINT to it stops exactly them (``ray stop``
    would stop every ray cluster on the machine, a developer's own too)."""
    _need_ray()
    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="smray", dir="/tmp")  # short: ray's socket paths live below it
    log = Path(tmp) / "start.log"
    with log.open("w") as out, ctrl_c_as_at_a_terminal():  # stopped below by SIGINT, which it must not ignore
        head = subprocess.Popen([str(BIN / "ray"), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
                                 "--disable-usage-stats", "--include-dashboard=false", f"--temp-dir={tmp}",
                                 "--object-store-memory=100000000"],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start --head did not start (exit {head.poll()}):\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        if head.poll() is None:
            os.killpg(head.pid, signal.SIGINT)
            try:
                head.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(head.pid, signal.SIGKILL)
                head.wait(10)
        deadline = time.monotonic() + 30
        while _processes(tmp) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = _processes(tmp)
        for line in left:
            try:
                os.kill(int(line.split()[0]), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        shutil.rmtree(tmp, ignore_errors=True)  # the cluster's session logs (megabytes a run)
        assert not left, f"ray processes left after stopping the test cluster: {left}"


def _figures(path: Path) -> dict[str, Any]:
    d = json.loads(path.read_text())
    for k in ("seconds", "workers", "backend"):
        d.pop(k)
    return dict(d)


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), "tournament", "--players", PLAYERS, *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


# ---------------------------------------------------------------------------------------------- on the cluster
@pytest.mark.cluster
def test_a_run_on_the_cluster_equals_a_local_run_with_one_worker(cluster: str, tmp_path: Path) -> None:
    """The real command against the real cluster: the JSON equals the one of ``--workers 1`` but for the time, the
    worker count and the backend, which say where it ran; the summary says so too, and ray prints nothing."""
    common = ["--deals", "7", "--matches", "1", "--seed", "5", "--first-board", "3"]
    local, remote = tmp_path / "local.json", tmp_path / "ray.json"
    p = _run(*common, "--workers", "1", "--json", str(local))
    assert p.returncode == 0, p.stderr
    p = _run(*common, "--ray", cluster, "--json", str(remote))
    assert p.returncode == 0, p.stderr
    assert _figures(remote) == _figures(local)
    d = json.loads(remote.read_text())
    assert d["backend"].startswith(f"ray cluster at {cluster}") and ", 2 CPUs, 2 worker processes" in d["backend"]
    assert d["workers"] == 2 and json.loads(local.read_text())["backend"] == "1 local process"
    summary = " ".join(p.stdout.split())
    assert f"on ray cluster at {cluster}" in summary and "2 CPUs" in summary
    # ray's own logging stays off the terminal: stderr holds only the progress bar
    assert [line for line in p.stderr.splitlines() if line.strip() and not line.startswith("tournament")] == []


@pytest.mark.cluster
def test_the_library_on_the_cluster_equals_local_and_workers_caps_the_processes(cluster: str) -> None:
    rules = Rules.parse("3-5-8")
    seen: list[tuple[str, int]] = []
    from sergeant_major.eval.tournament import BoardOutcome, MatchOutcome, tournament_iter

    outs: list[BoardOutcome | MatchOutcome] = list(tournament_iter(
        rules, PLAYERS.split(","), 4, seed=2, workers=1, ray_address=cluster, started=lambda d, k: seen.append((d, k))))
    assert len(seen) == 1 and seen[0][1] == 1 and seen[0][0].endswith("2 CPUs, 1 worker process")
    assert outs == list(tournament_iter(rules, PLAYERS.split(","), 4, seed=2, workers=1))
    assert tournament(rules, PLAYERS.split(","), 4, seed=2, ray_address=cluster) == tournament(rules, PLAYERS.split(","), 4, seed=2)


@pytest.mark.cluster
def test_a_level_registered_at_run_time_is_said_to_be_unknown_on_the_cluster(cluster: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro: ``LEVELS["mine"] = ...`` in the caller, then a run on the cluster: its workers import the package
    afresh and do not know the level, and the error ("unknown player level 'mine'") did not say it came from there."""
    from sergeant_major.eval.tournament import tournament_iter
    from sergeant_major.players import LEVELS, HeuristicPlayer

    monkeypatch.setitem(LEVELS, "mine", HeuristicPlayer)
    levels = ["mine", "heuristic", "random"]
    assert len(list(tournament_iter(Rules.parse("9-5-2"), levels, 1, seed=2, workers=1))) == 1  # known here: one board
    with pytest.raises(SergeantMajorError, match=r"^unknown player level 'mine'.* on the ray cluster's workers: a level "
                                                 r"registered at run time in this process does not reach them"):
        list(tournament_iter(Rules.parse("9-5-2"), levels, 1, seed=2, workers=1, ray_address=cluster))


@pytest.mark.cluster
@pytest.mark.parametrize("attempt", [1, 2, 3])
@pytest.mark.usefixtures("ctrl_c_as_at_a_terminal")  # the command must not inherit an ignored SIGINT
def test_ctrl_c_stops_a_cluster_run_with_130_and_leaves_nothing(cluster: str, tmp_path: Path, attempt: int) -> None:
    """SIGINT to the command's process group (what Ctrl-C in a terminal sends): exit 130 soon, no ``--json`` file,
    and the processes that played its chunks on the cluster are gone. Three times: cancelling the chunks still
    running (ray.cancel) made ray abort the command (exit 1, a C++ stack trace) about one time in five, when a
    chunk ended at that moment."""
    out = tmp_path / "stopped.json"
    p = subprocess.Popen([str(EXE), "tournament", "--players", PLAYERS, "--deals", "100000", "--ray", cluster,
                          "--json", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    players: set[str] = set()  # pids of the cluster's processes seen playing this run's chunks
    try:
        deadline = time.monotonic() + 120
        while not players:  # the cluster's processes are playing
            assert p.poll() is None and time.monotonic() < deadline, "the run did not start playing on the cluster"
            players |= {line.split()[0] for line in _processes("ray::_play_chunk")}
            time.sleep(0.2)
        time.sleep(1 + attempt / 3)
        players |= {line.split()[0] for line in _processes("ray::_play_chunk")}
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "Check failed" not in err, err
    assert not out.exists() and list(tmp_path.iterdir()) == []
    deadline = time.monotonic() + 30
    while _alive(players) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _alive(players) == set()


@pytest.mark.cluster
def test_closing_the_iterator_stops_the_chunks_still_playing_on_the_cluster(cluster: str) -> None:
    """A library caller that stops early (closes the iterator, or an error or Ctrl-C ends it): the chunk still
    playing (here one that would sleep 10 minutes) stops at once, and the connection is closed."""
    import ray

    from sergeant_major.eval.cluster import ray_imap

    it = ray_imap(cluster, time.sleep, [0.0, 600.0, 600.0], 2)  # chunks of one job, two at a time
    try:
        assert next(it) is None  # the first chunk's outcome; the second is playing now
        deadline = time.monotonic() + 60
        while not (playing := {line.split()[0] for line in _processes("ray::_play_chunk")}):
            assert time.monotonic() < deadline, "the second chunk did not start playing"
            time.sleep(0.2)
        t0 = time.monotonic()
    finally:
        it.close()
    while _alive(playing) and time.monotonic() - t0 < 30:
        time.sleep(0.2)
    assert _alive(playing) == set() and time.monotonic() - t0 < 15
    assert not ray.is_initialized()


def _alive(pids: set[str]) -> set[str]:
    """Those of ``pids`` that are still running processes."""
    alive = set()
    for pid in pids:
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            continue
        alive.add(pid)
    return alive


# ---------------------------------------------------------------------------------------------- refusals
@pytest.mark.cluster
@pytest.mark.parametrize("host", ["127.0.0.1", "nohost.invalid"])
def test_an_address_where_no_cluster_answers_fails_fast_and_writes_nothing(host: str, tmp_path: Path) -> None:
    """A free port, or a host name that does not resolve: one line on stderr (no progress bar above it)."""
    _need_ray()
    out = tmp_path / "t.json"
    out.write_text("earlier result\n")
    address = f"{host}:{_free_port()}"
    t0 = time.monotonic()
    p = _run("--deals", "2", "--ray", address, "--json", str(out), "--force", timeout=120)  # allowed to replace it
    assert time.monotonic() - t0 < 30
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith(f"error: --ray {address!r}: no ray cluster answers at"), p.stderr
    assert out.read_text() == "earlier result\n" and [f.name for f in tmp_path.iterdir()] == ["t.json"]


@pytest.mark.cluster
def test_an_address_where_something_else_answers_gives_up_in_seconds_in_one_line(tmp_path: Path) -> None:
    """A port that accepts connections but is no ray cluster: ray.init would retry for about 13 minutes, printing
    warnings of its C++ core; the command gives up within seconds, with its one error line only."""
    _need_ray()
    with socket.socket() as listener:  # all interfaces: ray turns 127.0.0.1 into this machine's address
        listener.bind(("", 0))
        listener.listen(16)
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        out = tmp_path / "t.json"
        t0 = time.monotonic()
        p = _run("--deals", "2", "--ray", address, "--json", str(out), timeout=120)
        assert time.monotonic() - t0 < 45, p.stderr
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith(f"error: --ray {address!r}: cannot connect to the ray cluster at "), p.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["localhost", "ray://127.0.0.1:10001", "127.0.0.1:6379/x", "", "garbage",
                                     "127.0.0.1:65536", "127.0.0.1:0"])
def test_an_address_of_the_wrong_form_is_refused_quoting_it(address: str, tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    r = runner.invoke(app, ["tournament", "-p", PLAYERS, "-n", "1", "--ray", address, "--json", str(out)])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [f"error: --ray {address!r}: give the ray cluster's HOST:PORT (from 'ray start "
                                     "--head') or 'auto'"]
    assert not out.exists()


def test_ray_missing_says_which_extra_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed: importing it fails
    out = tmp_path / "t.json"
    r = runner.invoke(app, ["tournament", "-p", PLAYERS, "-n", "1", "--ray", "127.0.0.1:6379", "--json", str(out)])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == ["error: --ray '127.0.0.1:6379': ray is not installed; "
                                     "pip install \".[cluster]\" in the sergeant-major source folder"]
    assert not out.exists() and list(tmp_path.iterdir()) == []
    with pytest.raises(SergeantMajorError, match=r"pip install \"\.\[cluster\]\""):
        tournament(Rules.parse("9-5-2"), PLAYERS.split(","), 1, ray_address="auto")


def test_ray_with_merge_or_negative_workers_is_refused(tmp_path: Path) -> None:
    r = runner.invoke(app, ["tournament", "-p", PLAYERS, "--ray", "auto", "--merge", str(tmp_path / "a.json")])
    assert r.exit_code == 2 and "--ray 'auto' with --merge" in r.stderr
    with pytest.raises(SergeantMajorError, match="workers=-1"):
        tournament(Rules.parse("9-5-2"), PLAYERS.split(","), 1, workers=-1, ray_address="auto")


@pytest.mark.slow
def test_nothing_imports_ray_unless_a_run_asks_for_a_cluster() -> None:
    code = ("import sys, sergeant_major.cli.app as c, sergeant_major.eval.tournament as t, sergeant_major as sm; c.register_commands(); "
            "t.tournament(sm.Rules.parse('9-5-2'), ['heuristic', 'random', 'random'], 2, workers=2); "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.') or m == 'sergeant_major.eval.cluster'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.cluster
def test_the_callers_sigterm_handler_is_kept_while_ray_init_runs() -> None:
    """ray.init sets its SIGTERM handler (``sys.exit(15)``) first thing, and ``_own_sigterm`` put the caller's back only
    after it: a ``kill`` while the command connected (some 0.1 to 0.3 s) ended it with status 15 and no word, not 143
    and 'stopped by SIGTERM'. Within the block ray's setter now sets nothing; after it, ray's setter is ray's again."""
    _need_ray()
    import ray._private.utils as ray_utils

    from sergeant_major.eval.cluster import _own_sigterm

    def ours(signum: int, frame: Any) -> None:
        raise AssertionError("not called")

    real = ray_utils.set_sigterm_handler
    before = signal.signal(signal.SIGTERM, ours)
    try:
        with _own_sigterm():
            ray_utils.set_sigterm_handler(lambda signum, frame: sys.exit(signum))  # what ray.init does first
            assert signal.getsignal(signal.SIGTERM) is ours
        assert signal.getsignal(signal.SIGTERM) is ours and ray_utils.set_sigterm_handler is real
    finally:
        signal.signal(signal.SIGTERM, before)
