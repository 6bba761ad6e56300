"""``sergeant-major serve``: the web app (the ``web`` extra: FastAPI, uvicorn, SQLAlchemy, Alembic)."""

from __future__ import annotations

import errno
import math
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from sergeant_major.cli.app import app, number_parser, parse_whole_number, say_if_slow
from sergeant_major.cli.filelock import FileLock
from sergeant_major.core.errors import SergeantMajorError, install_hint

if TYPE_CHECKING:
    from sergeant_major.web.store import Store


def ready_line(elapsed: float) -> str:
    """The line said when an announced warm-up is done, ``elapsed`` (seconds, >= 0) to a tenth rounded up: the
    announcement comes only after the notice time (1 s by default), so the number said is never below it
    (1.04 s is ``'The expert player is ready (1.1 s).'``, never ``(1 s)`` or ``(1.0 s)``)."""
    tenths = max(0, math.ceil(elapsed * 10 - 1e-9))  # 1e-9: 1.1 * 10 is 11.000000000000002 in binary
    return f"The expert player is ready ({tenths / 10:.1f} s)."


def warm_in_background(warm: Callable[[], None], say: Callable[[str], None], notice_after: float = 1.0,
                       warn: Callable[[str], None] | None = None) -> threading.Thread:
    """Run ``warm`` (the expert player's :func:`~sergeant_major.players.expert.warm_up`) in a daemon thread, so that
    the server answers at once while numba compiles or loads the kernels (seconds on first use after an
    install, under a second from its on-disk cache). If it is still running after ``notice_after`` seconds,
    ``say`` is told so, and told again when it is done: an expert's first move waits for it. An error is told
    to ``warn`` (default ``say``) in one line (its message's first) and leaves the server running (the expert
    then compiles on its first move).

    Returns:
        The started thread."""
    done = threading.Event()
    noticed: list[bool] = []
    if warn is None:
        warn = say

    def notice() -> None:
        noticed.append(True)
        say("Preparing the expert player's compiled search in the background (first use after an install: "
            "seconds, the double-dummy search then goes on compiling in another process; an expert's first move waits "
            "for the play-outs)...")

    def run() -> None:
        t0 = time.monotonic()
        watcher = say_if_slow(done, notice_after, notice)
        try:
            warm()
        except Exception as e:  # noqa: BLE001 - the server goes on; the expert compiles on its first move instead
            done.set()
            watcher.join()
            first = str(e).strip().splitlines()[0] if str(e).strip() else ""
            warn(f"warning: preparing the expert player failed ({type(e).__name__}: {first}); it will compile on its "
                 "first move")
            return
        done.set()
        watcher.join()
        if noticed:
            say(ready_line(time.monotonic() - t0))

    thread = threading.Thread(target=run, name="sm-warm-up", daemon=True)
    thread.start()
    return thread


def _warm_expert() -> None:
    """The expert player's warm-up when numba is installed (without it there is nothing to compile)."""
    from sergeant_major.search import HAVE_NUMBA

    if HAVE_NUMBA:
        from sergeant_major.players.expert import warm_up

        warm_up()


def _notice_after() -> float:
    """Seconds before a still running warm-up is announced: ``SERGEANT_MAJOR_WARM_NOTICE`` (seconds; 0 or less:
    at once), else 1; a value that is not a number is said on standard error and the default used."""
    raw = os.environ.get("SERGEANT_MAJOR_WARM_NOTICE", "")
    if not raw.strip():
        return 1.0
    try:
        v = float(raw)
    except ValueError:
        v = math.nan
    if math.isnan(v):
        typer.echo(f"warning: SERGEANT_MAJOR_WARM_NOTICE={raw!r} is not a number of seconds; using 1", err=True)
        return 1.0
    return min(max(v, 0.0), 3600.0)


def listen_problem(host: str, port: int) -> str:
    """Why the server could not listen on ``host``:``port`` (uvicorn says it only in a log line, and exits), in
    words that name the port or the address: ``'port 8000 is in use (another program listens on it) ...'``, ``'...
    is not an address of this machine'``, ``'port 80 needs ...'``; found by binding a socket there as uvicorn does.
    ``''`` when that bind now succeeds (the port was freed meanwhile)."""
    shown = f"[{host}]" if ":" in host else host
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        return f"--host {host!r} is not an address or a name this machine can resolve ({e})"
    reason = ""
    for family, kind, proto, _, addr in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(addr)
            return ""
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return (f"port {port} is in use (another program listens on it); choose another with "
                        "--port N, or --port 0 for a free one")
            if e.errno == errno.EACCES:
                return (f"port {port} needs privileges this user lacks (a port below 1024); choose one "
                        "from 1024 with --port N")
            if e.errno == errno.EADDRNOTAVAIL:
                return f"--host {host!r} is not an address of this machine"
            reason = reason or f"{shown}:{port}: {e.strerror or e}"
    return reason


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, parser=parse_whole_number, help="TCP port (0..65535; 0 picks a free one)"),
    db: str = typer.Option("", help="database URL: default an SQLite file in the user data directory; "
                                    "postgresql+psycopg://user:password@host/dbname for PostgreSQL"),
    delay: float = typer.Option(0.6, parser=number_parser(lambda x: 0 <= x <= 10, "a number of seconds in 0..10"), help="seconds a computer player waits before each decision (0..10)"),
    db_pool: int = typer.Option(40, "--db-pool", parser=parse_whole_number,
                                help="PostgreSQL: at most this many database connections of this process, its listening one "
                                     "aside (2..1000; many processes on one database: their sum under its max_connections)"),
    review_jobs: int = typer.Option(0, "--review-jobs", parser=parse_whole_number,
                                    help="threads for the background review of finished matches (0..64; 0, the default: "
                                         "the CPU cores less one, so that the tables' computers keep a core)"),
) -> None:
    """Play in the browser: start the web app and print its address."""
    try:  # the web extra: said in one line when missing
        import uvicorn  # noqa: F401

        from sergeant_major.web.app import create_app  # noqa: F401
        from sergeant_major.web.store import Store, default_db_url
    except ModuleNotFoundError as e:
        typer.echo(f"error: serve needs the web extra ({e.name} is missing): {install_hint('web')}", err=True)
        raise typer.Exit(2) from None
    if not host.strip():  # uvicorn took '' as every interface and the address printed was 'http://:8000/'
        typer.echo(f"error: --host {host!r} is empty: give an address, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 "
                   "(every interface)", err=True)
        raise typer.Exit(2)
    if not 0 <= port <= 65535:
        typer.echo(f"error: --port {port} is not a TCP port (0..65535)", err=True)
        raise typer.Exit(2)
    if not 0 <= delay <= 10:
        typer.echo(f"error: --delay {delay} is outside 0..10 seconds", err=True)
        raise typer.Exit(2)
    if not 0 <= review_jobs <= 64:
        typer.echo(f"error: --review-jobs {review_jobs} is outside 0..64 (0: the cores less one)", err=True)
        raise typer.Exit(2)
    url = db or default_db_url()
    try:
        if not 2 <= db_pool <= 1000:
            raise ValueError(f"--db-pool {db_pool} is outside 2..1000")
        store = Store(url, pool=db_pool)  # no connection yet: the file is claimed before anything reads or writes it
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    lock = FileLock()
    db_file = store.engine.url.database if store.engine.dialect.name == "sqlite" else None
    if db_file and db_file != ":memory:" and not db_file.startswith("file:"):
        try:  # each process keeps its tables in memory: two on one SQLite file would play the same tables apart
            lock.acquire(Path(db_file), lambda by: f"the database {db_file!r} is served by another sergeant-major "
                         f"serve{by}: stop that one first, or give --db another file (many processes share a "
                         "PostgreSQL database, docs/web.md)")
        except SergeantMajorError as e:
            store.engine.dispose()
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
    try:
        store.migrate()
    except Exception as e:  # noqa: BLE001 - an unreachable or refusing server: one line, no traceback
        lock.release()
        store.engine.dispose()
        if isinstance(e, ValueError):
            typer.echo(f"error: {e}", err=True)
        else:
            typer.echo(f"error: cannot open the database {url.split('@')[-1]!r}: "
                       f"{str(e).splitlines()[0] if str(e) else type(e).__name__}", err=True)
        raise typer.Exit(2) from None
    try:
        _serve(store, url, host, port, delay, review_jobs, lock.release)
    finally:
        lock.release()


def _serve(store: Store, url: str, host: str, port: int, delay: float, review_jobs: int,
           stopped: Callable[[], None]) -> None:
    """Run the web app on ``store`` until Ctrl-C or SIGTERM, then call ``stopped`` (before uvicorn raises the
    signal again, which ends the process); a failure to listen exits with status 2."""
    import uvicorn

    from sergeant_major.web.app import create_app

    web = create_app(store=store, delay=delay, review_jobs=review_jobs or None)
    # no per-message deflate: state messages are a few KB, and compressing them was the largest CPU cost.
    # Frames up to 1 MiB reach the app, which refuses those over MAX_MESSAGE with a too_large error.
    config = uvicorn.Config(web, host=host, port=port, log_level="critical", ws_max_size=1 << 20, ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host

    import asyncio

    async def main() -> None:
        config.load()
        server.lifespan = config.lifespan_class(config)
        with server.capture_signals():
            await server.startup()
            if server.should_exit:
                failed.append(True)
                return
            ports = [s.getsockname()[1] for srv in server.servers for s in srv.sockets]
            typer.echo(f"Sergeant Major is served at http://{shown}:{ports[0] if ports else port}/  "
                       f"(database: {url.split('@')[-1]}; Ctrl-C stops)")
            # the expert's kernels compile on first use: now, not on a player's first expert move (numba's import
            # too runs in that thread, not in the event loop)
            warm_in_background(_warm_expert, typer.echo, _notice_after(), warn=lambda m: typer.echo(m, err=True))
            await server.main_loop()
            await server.shutdown()
            stopped()

    failed: list[bool] = []
    import importlib.util

    try:
        if importlib.util.find_spec("uvloop") is not None:  # the faster event loop of uvicorn[standard]
            import uvloop

            uvloop.run(main())
        else:
            asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C: status 130 as every command (README), SIGTERM ends it with 143
        raise typer.Exit(130) from None
    except SystemExit:  # uvicorn exits when it cannot bind
        failed.append(True)
    if failed:  # a refusal like a bad --port or --db: status 2 (README, docs/web.md)
        why = listen_problem(host, port) or "in use, or not an address of this machine"
        typer.echo(f"error: cannot listen on {shown}:{port}: {why}", err=True)
        raise typer.Exit(2)
