"""The ``sergeant-major`` command line (typer + rich; the ``cli`` extra).

Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn


def _quiet_sigint(signum: int, frame: FrameType | None) -> NoReturn:
    """Ctrl-C while the program loads (this module's imports, :func:`main`'s registration of the commands): exit
    with status 130 and no traceback, as Ctrl-C does once a command runs (typer's main loop turns it into 130).

    Raises:
        SystemExit: code 130.
    """
    raise SystemExit(130)


def _hold_ctrl_c() -> bool:
    """Install :func:`_quiet_sigint` for SIGINT if Python's own handler is there and this is the main thread (a
    SIGINT ignored already, ``nohup`` or ``&``, or a handler of the embedding program's, stays). True if installed."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _quiet_sigint)
    return True


def _release_ctrl_c(held: bool) -> None:
    """Undo :func:`_hold_ctrl_c` (``held``: what it returned): Python's own SIGINT handler again."""
    if held and signal.getsignal(signal.SIGINT) is _quiet_sigint:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# the heavy imports below (typer, rich; the engine through the commands) take a few tenths of a second in all: a
# Ctrl-C meanwhile is a quiet exit (130), not a KeyboardInterrupt traceback; released at the end of this module
_HELD_FOR_IMPORT = _hold_ctrl_c()

import typer  # noqa: E402
from typer import rich_utils as typer_rich_utils  # noqa: E402
from typer.core import TyperGroup, TyperOption  # noqa: E402

from sergeant_major.core.errors import RulesError, SergeantMajorError  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.core.safetext import quote  # noqa: E402
from sergeant_major.core.seeding import SEED_LIMIT, SEED_RANGE  # noqa: E402

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


def count(k: int, word: str, plural: str = "") -> str:
    """``'1 deal'``, ``'6 deals'``: ``k`` and ``word``, in the plural (``plural``, else ``word + 's'``) unless 1."""
    return f"{k} {word if k == 1 else plural or word + 's'}"


def long_number(value: int) -> str:
    """A count as an error quotes it: its digits, or its first 20 and how many there are when longer."""
    text = str(value)
    return text if len(text) <= 20 else f"{text[:20]}... ({len(text)} digits)"


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


def _one_line_usage_error(e: Any) -> None:
    """Typer's printer of usage errors (a bad option value, an unknown option, a missing argument), replaced: one
    line on stderr, ``error: Invalid value for '--games' / '-n': 'abc' is not a whole number. (see 'sergeant-major
    simulate --help')``, like the commands' own errors, instead of the usage text and a boxed panel. The exit status
    stays click's (2). ``e`` is a click exception of typer's own copy of click (``format_message()``, ``ctx``)."""
    ctx = getattr(e, "ctx", None)
    if not e.format_message():  # no command given: click has printed the help, which says it all
        return
    usage = any(k.__name__ == "UsageError" for k in type(e).__mro__)
    hint = f" (see '{ctx.command_path} --help')" if usage and ctx is not None else ""
    typer.echo(f"error: {e.format_message()}{hint}", err=True)


setattr(typer_rich_utils, "rich_format_error", _one_line_usage_error)  # noqa: B010 (typed for its own click)

def _joined_paragraphs(paragraphs: list[str], markup_mode: Any) -> str:
    """Typer's joining of a command's help paragraphs after the first (typer 0.29 ``_fix_linebreaks``), replaced:
    the line breaks of the docstring within a paragraph become spaces, so that rich wraps each paragraph to the
    terminal; typer kept them, and ``simulate --help`` showed its paragraphs broken twice (at the terminal's width,
    then at the source's), a line of a few words between two full ones. A paragraph that starts with ``\\b``
    (click's mark for "keep my line breaks") is left as it is."""
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs)


setattr(typer_rich_utils, "_fix_linebreaks", _joined_paragraphs)  # noqa: B010

_option_type_text = TyperOption.display_type_rich


def _flag_without_type(self: TyperOption, ctx: Any) -> str | None:
    """Typer's type column of ``--help``, with nothing for a flag (``--json``, ``--help``): typer 0.29 showed
    ``<bool>`` there, as if the flag took a value (``--json true``), which it does not."""
    return None if self.is_flag else _option_type_text(self, ctx)


setattr(TyperOption, "display_type_rich", _flag_without_type)  # noqa: B010

app = typer.Typer(
    cls=_Commands,
    name="sergeant-major",
    help="Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8): play, simulate, replay and check games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


_SPACE = r"[^\S\x1c-\x1f]*"  # Unicode white space (as pydantic strips it: not the ASCII separators that isspace() counts)
_WHOLE_NUMBER = re.compile(_SPACE + r"([+-]?[0-9](?:_?[0-9])*)(?:\.0+)?" + _SPACE)
"""The text of a whole number for :func:`parse_whole_number`: group 1 is what ``int()`` converts."""
_NUMBER = re.compile(_SPACE + r"(.*?)" + _SPACE, re.DOTALL)
"""The text of a number for :func:`parse_number` without the white space around it (group 1)."""


def parse_seed(text: str) -> int:
    """The seed a ``--seed`` option's text names: ASCII digits 0-9 naming a number below :data:`SEED_LIMIT`, the
    web's range; not ``int()``'s other forms (``+5``, ``1_000``, `` 7 ``, other scripts' digits), which records
    and summaries would show as other text than the one given, nor a negative seed.

    Raises:
        SergeantMajorError: quoting ``text`` (its first 20 characters when longer).
    """
    if re.fullmatch(r"[0-9]+", text) is not None and len(text.lstrip("0")) <= len(str(SEED_LIMIT)):
        seed = int(text.lstrip("0") or "0")  # leading zeros count in int()'s digit limit
        if seed < SEED_LIMIT:
            return seed
    shown = quote(text) if len(text) <= 24 else f"{quote(text[:20])}... ({len(text)} characters)"
    raise SergeantMajorError(f"--seed {shown} is not {SEED_RANGE} (digits 0-9)")


def parse_rules(text: str, check_end: bool = True) -> Rules:
    """The rules a ``--rules`` option's text names (:meth:`Rules.parse`, ``check_end`` passed on). A blank text is
    refused: ``Rules.parse`` reads it as the default preset, which an empty shell variable would pick unseen.

    Raises:
        RulesError: quoting ``text``, or :meth:`Rules.parse`'s refusal.
    """
    if not text.strip():
        raise RulesError(f"--rules {quote(text)} names no rules: give a preset and options, e.g. '9-5-2' or "
                         "'8-5-3 must-trump=on' (`sergeant-major rules` lists them)")
    return Rules.parse(text, check_end=check_end)


def parse_whole_number(value: str | int) -> int:
    """The ``parser=`` of every integer option: what typer's own conversion (typer 0.29, pydantic's lax mode) took,
    ASCII digits with an optional sign, ``_`` between digits and a zero fraction (``5``, ``-3``, `` +7 ``, ``1_000``,
    ``5.0``), as before; anything else is a usage error (status 2) that quotes the text, which typer's own did not.
    Typer passes an option's default through the parser too: an ``int`` is returned as it is.

    Raises:
        typer.BadParameter: quoting ``value``; click adds the option (``Invalid value for '--games' / '-n': ...``).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    m = _WHOLE_NUMBER.fullmatch(text)
    if m is None:
        raise typer.BadParameter(f"{quote(text)} is not a whole number.")
    try:
        return int(m.group(1))
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits())
        raise typer.BadParameter(f"{quote(text)} has too many digits.") from None


def parse_number(value: str | float) -> float:
    """The ``parser=`` of every float option: what typer's own conversion took, a decimal number in ASCII
    (``0.5``, ``-1``, ``1e-3``, ``1_000.5``, ``inf``, ``nan``: the commands' range checks refuse those they must);
    anything else is a usage error (status 2) that quotes the text. A default (``int`` or ``float``) is returned as
    a ``float``.

    Raises:
        typer.BadParameter: quoting ``value``; click adds the option (``Invalid value for '--delay': ...``).
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    text = str(value)
    m = _NUMBER.fullmatch(text)  # always matches: (.*?) takes any text
    core = m.group(1) if m is not None else text
    if core.isascii() and core == core.strip():  # float() also takes other scripts' digits, which typer's refused
        try:
            return float(core)
        except ValueError:
            pass
    raise typer.BadParameter(f"{quote(text)} is not a number.")


def parse_path(value: str | Path) -> Path:
    """The ``parser=`` of every file and folder option and argument: the path typed, and an empty text a usage
    error (status 2) that says so; typer's own conversion made it ``Path('.')``, the current folder, so that
    ``replay ""`` answered about ``'.'`` and ``play --save-dir ""`` saved in the current folder.

    Raises:
        typer.BadParameter: for the empty text.
    """
    if isinstance(value, Path):
        return value
    if value == "":
        raise typer.BadParameter("'' is empty: give a file or folder name.")
    return Path(value)


def number_parser(ok: Callable[[float], bool], wanted: str) -> Callable[[str | float], float]:
    """The ``parser=`` of a float option with a range: :func:`parse_number`, and a number for which ``ok`` is false
    is a usage error (status 2) that quotes the text typed, ``'0' is not {wanted}.``; the command's own check
    printed the converted number instead (``--time-limit 0.0``). A default is returned unchecked.

    Raises:
        typer.BadParameter: quoting ``value``.
    """

    def parse(value: str | float) -> float:
        x = parse_number(value)
        if isinstance(value, str) and not ok(x):
            raise typer.BadParameter(f"{quote(value)} is not {wanted}.")
        return x

    return parse


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


def _leave_a_closed_terminal() -> None:
    """Standard output and error to ``/dev/null`` where they are a terminal that was closed (hung up: every write
    fails with EIO), so that stopping (a progress bar's last refresh, the closing message) does not fail on them."""
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            try:
                os.write(fd, b"")  # writes nothing; a hung-up terminal refuses even this (and isatty() is False then)
            except OSError as e:
                if e.errno != errno.EIO:
                    continue
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, fd)
                os.close(devnull)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived while a command ran under :func:`stop_on_signals`: it stops as on Ctrl-C (a
    ``KeyboardInterrupt``, so that what cleans up after Ctrl-C cleans up after it too). ``signum``: the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals(unwritten: str = "") -> Iterator[None]:
    """Run the block so that SIGTERM (``kill``) and SIGHUP (a closed terminal) stop it as Ctrl-C does: raised as
    :class:`Stopped` where the main thread is, the block's ``finally`` clauses remove its temporary files and the
    worker processes are ended; then one line ``error: stopped by SIGTERM`` (with ``; {unwritten} not written``
    when ``unwritten`` names the file the command did not write) and status 128 + the signal (143, 129), as a
    shell reports a command a signal ended. A second SIGTERM or SIGHUP while it stops is ignored. Outside the main
    thread, where handlers cannot be set, the block just runs; so does a signal ignored already (``nohup``).

    Raises:
        typer.Exit: code 128 + the signal's number.
    """
    sigs = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    got: list[int] = []  # the signal taken, also when a library turned its Stopped into a plain KeyboardInterrupt

    def stop(signum: int, frame: FrameType | None) -> None:
        for s in sigs:
            signal.signal(s, signal.SIG_IGN)  # once is enough: nothing may cut the cleaning up short
        got.append(signum)
        _leave_a_closed_terminal()
        raise Stopped(signum)

    # a signal ignored already stays ignored: 'nohup sergeant-major simulate ...' goes on after a hang-up
    sigs = [s for s in sigs if signal.getsignal(s) is not signal.SIG_IGN]
    previous = {s: signal.signal(s, stop) for s in sigs}
    try:
        yield
    except KeyboardInterrupt as e:
        # ray's ray.wait and ray.get (tournament --ray) run the handler in their C++ core and raise a KeyboardInterrupt
        # of their own for any KeyboardInterrupt it raised: SIGTERM then ended with 130 and no word, like Ctrl-C
        signum = e.signum if isinstance(e, Stopped) else (got[0] if got else None)
        if signum is None:  # Ctrl-C itself
            raise
        name = signal.Signals(signum).name
        with contextlib.suppress(OSError, ValueError):  # after a hang-up the terminal may take no more output
            typer.echo(f"error: stopped by {name}" + (f"; {unwritten} not written" if unwritten else ""), err=True)
        raise typer.Exit(128 + signum) from None
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


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


def _show_version(value: bool) -> None:
    if value:
        from sergeant_major import __version__

        typer.echo(f"sergeant-major {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8): play, simulate, replay and check games."""


def register_commands() -> None:
    """Import each command module, which registers its command on :data:`app` (a module not written yet is skipped)."""
    import importlib

    for mod in ("cli.play", "cli.records", "cli.simulate", "cli.rules", "cli.tournament", "cli.serve", "cli.analyze"):
        try:
            importlib.import_module(f"sergeant_major.{mod}")
        except ModuleNotFoundError as e:  # a command module not written yet
            if e.name != f"sergeant_major.{mod}":
                raise


def main() -> None:
    """Entry point of the ``sergeant-major`` script. Ctrl-C while it loads the commands (a few tenths of a second of
    imports) exits with status 130 and no traceback, as Ctrl-C does while a command runs (:func:`_quiet_sigint`).

    Raises:
        SystemExit: the command's exit status (130 after Ctrl-C).
    """
    held = _hold_ctrl_c()
    try:
        from rich.console import Console

        # rich's hook for a broken pipe, which by default ends with status 1: the same end as a broken pipe elsewhere
        Console.on_broken_pipe = lambda self: _end_quietly()  # type: ignore[method-assign]
        register_commands()
    finally:
        _release_ctrl_c(held)
    app()


_release_ctrl_c(_HELD_FOR_IMPORT)  # the imports are done (see _HELD_FOR_IMPORT); main() holds it again while it registers
