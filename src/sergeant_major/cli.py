"""The ``sergeant-major`` command line (typer + rich; the ``cli`` extra).

Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperGroup

from .errors import SergeantMajorError

if TYPE_CHECKING:
    from rich.console import Console


def _end_quietly() -> NoReturn:
    """End the command quietly because the reader of its output has gone (``sergeant-major analyze X | head -1``), as
    Unix tools do: status 141 (128 + SIGPIPE, what a shell shows for a tool the signal ended), no traceback and no
    message. Standard output goes to ``/dev/null`` so that the interpreter's final flush does not fail again.

    Raises:
        SystemExit: code 141.
    """
    with contextlib.suppress(OSError, ValueError):  # a standard output without a file descriptor (tests)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    raise SystemExit(141)


class _Commands(TyperGroup):
    """The command group: a broken pipe while any command runs ends it quietly (:func:`_end_quietly`); typer's own
    main loop would turn it into status 1 before :func:`main` could see it."""

    def invoke(self, ctx: Any) -> Any:  # ctx: a Context of the click typer uses (recent typer carries its own copy)
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # what is still buffered: a closed pipe shows here rather than at the interpreter's exit
            return result
        except BrokenPipeError:
            _end_quietly()


app = typer.Typer(
    cls=_Commands,
    name="sergeant-major",
    help="Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8): play, simulate, replay and check games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def parse_seed(text: str) -> int:
    """The seed a ``--seed`` option's text names: ASCII digits 0-9, with a minus sign for a negative seed; not
    ``int()``'s other forms (``+5``, ``1_000``, `` 7 ``, other scripts' digits), which records and summaries would
    show as other text than the one given.

    Raises:
        SergeantMajorError: quoting ``text``.
    """
    if re.fullmatch(r"-?[0-9]+", text) is None:
        raise SergeantMajorError(f"--seed {text!r} is not an integer (digits 0-9)")
    return int(text)


def run_interruptible(fn: Callable[[], None]) -> None:
    """Run ``fn`` (a numba warm-up: seconds to a minute of compiling) so that Ctrl-C meanwhile exits with status 130
    and no traceback. Numba's compiler can receive the ``KeyboardInterrupt`` inside an LLVM callback, which
    swallows it, and then fail with another error (``RuntimeError: no compiled object yet``): any error after a
    SIGINT counts as the interrupt. Off the main thread ``fn`` just runs.

    Raises:
        typer.Exit: code 130 when SIGINT arrived while ``fn`` ran.
    """
    if threading.current_thread() is not threading.main_thread():
        fn()
        return
    hit: list[bool] = []

    def on_int(signum: int, frame: FrameType | None) -> None:
        hit.append(True)
        signal.default_int_handler(signum, frame)

    old = signal.signal(signal.SIGINT, on_int)
    try:
        fn()
    except BaseException:
        if hit:
            raise typer.Exit(130) from None
        raise
    finally:
        signal.signal(signal.SIGINT, old)


def say_if_slow(done: threading.Event, after: float, say: Callable[[], None]) -> threading.Thread:
    """Start a daemon thread that calls ``say`` if ``done`` is not set within ``after`` seconds; join it after
    setting ``done``. Returns the started thread."""

    def notice() -> None:
        if not done.wait(after):
            say()

    watcher = threading.Thread(target=notice, name="sm-slow-notice", daemon=True)
    watcher.start()
    return watcher


def prepare_with_status(console: Console, message: str, fn: Callable[[], None], notice_after: float = 1.0) -> None:
    """Run ``fn`` (a numba warm-up: under a second from numba's cache, up to a minute on first use) through
    :func:`run_interruptible`, saying ``message``: on a terminal as a status line with a spinner while it runs;
    elsewhere (a pipe, a log file) as one plain line, and only if it takes longer than ``notice_after`` seconds.

    Raises:
        typer.Exit: code 130 when SIGINT arrived while ``fn`` ran.
    """
    if console.is_terminal:
        with console.status(message):
            run_interruptible(fn)
        return
    done = threading.Event()
    watcher = say_if_slow(done, notice_after, lambda: console.print(message, markup=False, highlight=False))
    try:
        run_interruptible(fn)
    finally:
        done.set()
        watcher.join()


def _register() -> None:
    import importlib

    for mod in ("cli_play", "cli_records", "simulate", "cli_rules", "tournament", "cli_serve", "cli_analyze"):
        try:
            importlib.import_module(f"sergeant_major.{mod}")
        except ModuleNotFoundError as e:  # a command module not written yet
            if e.name != f"sergeant_major.{mod}":
                raise


def main() -> None:
    """Entry point of the ``sergeant-major`` script."""
    from rich.console import Console

    # rich's hook for a broken pipe, which by default ends with status 1: the same end as a broken pipe elsewhere
    Console.on_broken_pipe = lambda self: _end_quietly()  # type: ignore[method-assign]
    _register()
    app()
