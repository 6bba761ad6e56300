"""``sergeant-major play``: a whole match in the terminal, you (seat 0) against computer players.

At each of your decisions the screen shows the deal, the contract, a small table (role, target, tricks,
cards, running total per player), your exchange, kitty and discards, the last and current trick, your
hand and a ``Legal:`` line; you type a card (``QS``, ``10h``, ``Q♠``), a contract, several cards on one
line for discards and gives, ``done``, or a command (``help``, ``hand``, ``last``, ``table``, ``quit``).
Forced actions (taking the kitty, returns by the rule) are applied without asking. Computer moves are
printed as they happen; cards another seat may not see are never printed (only counts).

The match is saved before each of the human's decisions (autosave), and ``save`` saves on demand; a
save folder that cannot be written is refused before play starts. ``quit``, Ctrl-C, end of input,
SIGTERM or SIGHUP saves the match (a game record, :mod:`sergeant_major.records`) and prints
its path; ``--resume FILE`` continues it exactly: each computer decision uses
:func:`~sergeant_major.players.decision_rng` ``(seed, seat, deal, actions so far)``, so the same
position gives the same moves. The finished match's record is saved too.
"""

from __future__ import annotations

import contextlib
import copy
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from sergeant_major.cli import tui
from sergeant_major.cli.app import app, parse_path, parse_rules, parse_seed, parse_whole_number, prepare_with_status
from sergeant_major.cli.filelock import FileLock
from sergeant_major.cli.game import HUMAN, Game
from sergeant_major.cli.records import record_error_text
from sergeant_major.cli.settings import load_settings, save_settings
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.safetext import has_visible, name_problem, quote, visible
from sergeant_major.core.seeding import SEED_RANGE
from sergeant_major.players import LEVELS
from sergeant_major.records import RecordCountError, check_record, match_from_record, read_record, read_records

if TYPE_CHECKING:
    from sergeant_major.cli.table import TableApp

__all__ = ["play", "default_save_dir", "save_name", "Game"]

OPPONENT_NAMES = ("Bob", "Cleo", "Dan")
MAX_NAME = 40  # characters in a player's name (a longer one broke the table's header; the web tables take 40)


def default_save_dir() -> Path:
    """``$XDG_DATA_HOME/sergeant-major/saves`` or ``~/.local/share/sergeant-major/saves``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sergeant-major" / "saves"


SEED_IN_NAME = 40
"""The most digits of the seed a save file's name holds (a name has at most 255 bytes; a seed may have 4,300 digits)."""


def save_name(seed: int) -> str:
    """The name of a new save file: ``match-SEED-YYYYmmdd-HHMMSS.json``, the seed cut to its first
    :data:`SEED_IN_NAME` characters (a 300-digit seed made a name too long to create; the record holds the seed)."""
    return f"match-{str(seed)[:SEED_IN_NAME]}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def line_editing_input() -> Callable[[str], str] | None:
    """``input`` with line editing (arrow keys, Home/End, the lines typed before) when standard input is a
    terminal, else ``None``. Python edits lines only once the ``readline`` module is loaded; without it a
    Left arrow typed to mend a card arrives as ``'\\x1b[D'`` and the line is refused. The prompt goes to
    ``input`` itself, so that readline knows it and never redraws over it."""
    if not sys.stdin.isatty():
        return None
    try:
        import readline  # noqa: F401  (loading it is what turns line editing on)
    except ImportError:  # Windows, a Python built without it: plain input
        return None
    return input


def _fail(msg: str) -> typer.Exit:
    print(f"error: {msg}", file=sys.stderr)
    return typer.Exit(2)


@app.command()
def play(
    rules: Annotated[str, typer.Option("--rules", help='Preset and options, e.g. "8-5-3 must-trump=on".')] = "9-5-2",
    seed: Annotated[str | None, typer.Option("--seed", help=f"Match seed, {SEED_RANGE} (default: random, printed).")] = None,
    to: Annotated[str | None, typer.Option("--to", help="Target total that ends the match: a whole number (the rules texts use 10 or 20) or off.")] = None,
    opponents: Annotated[str, typer.Option("--opponents", help=f"Computer levels, one or one per opponent: LEVEL,LEVEL ({', '.join(LEVELS)}).")]
    = "heuristic",
    name: Annotated[str, typer.Option("--name", help="Your name.")] = "You",
    resume: Annotated[Path | None, typer.Option("--resume", parser=parse_path, help="Continue a saved match.")] = None,
    game: Annotated[int | None, typer.Option("--game", parser=parse_whole_number, help="With --resume on a JSON Lines file of several records: "
                                             "which record, from 1.")] = None,
    save_dir: Annotated[Path | None, typer.Option("--save-dir", parser=parse_path, help="Where to save (default: the user's data dir).")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line mode: a scrolling log and a prompt (for pipes, screen readers "
                                        "and scripts; the default when input or output is not a terminal).")] = False,
    play_forced: Annotated[bool | None, typer.Option("--play-forced/--ask-forced", help="Play every forced card (your only "
                                                     "legal card) for you, or ask; remembered in the user's settings.")] = None,
) -> None:
    """Play a whole match in the terminal against computer players (you are seat 0)."""
    console = Console(highlight=False)
    intro: list[str] = []  # said once the save file is known to be writable (else the one line is the error)
    deal_start: Match | None = None  # resuming: the match at the start of its current deal
    out_dir = save_dir if save_dir is not None else default_save_dir()
    if resume is not None:
        try:
            recs = read_records(resume)
            # a JSON Lines file (one compact record a line; .jsonl) is never replaced by one pretty-printed record,
            # even when it holds a single record: its form is kept for the records added to it later
            json_lines = (len(recs) > 1 or "\n" not in recs[0][1].strip()
                          or resume.suffix.lower() in (".jsonl", ".ndjson"))
            rec = read_record(resume, game)
            # checked as 'check' does: a save whose results or totals were edited is refused, not resumed with the
            # replayed ones in their place without a word
            match = check_record(rec)
        except RecordCountError as e:
            raise _fail(f"cannot resume: {record_error_text(resume, e, game)}") from None
        except SergeantMajorError as e:
            raise _fail(f"cannot resume from {str(resume)!r}: {e}") from None
        kinds = [str(p.get("kind", "")) for p in rec["players"]]
        where = f"{str(resume)!r}" + (f" record {game}" if game is not None else "")
        if "human" not in kinds and all(k in LEVELS for k in kinds):
            raise _fail(f"{where} is a simulated match (computer players only: {', '.join(kinds)}); simulated matches "
                        f"cannot be resumed: replay it instead (sergeant-major replay {resume}"
                        f"{f' --game {game}' if game is not None else ''})")
        if kinds[HUMAN] != "human" or any(k not in LEVELS for k in kinds[1:]):
            raise _fail(f"{where} is not a saved terminal match (players {kinds!r}; needs human at seat 0 and "
                        f"levels from {', '.join(LEVELS)})")
        seen: dict[str, int] = {}
        for i, nm in enumerate(match.names):  # the terminal tells the players apart by name only
            j = seen.setdefault(nm.strip().casefold(), i)
            if j != i:
                raise _fail(f"cannot resume {where}: players {j} and {i} are both named {quote(nm)} (a terminal match "
                            "tells the players apart by their names: give each its own in the file)")
        for i, nm in enumerate(match.names[1:], 1):  # the terminal says 'You deal', 'You win' to seat 0 only
            if tui.is_you(nm):
                raise _fail(f"cannot resume {where}: player {i}, a computer player, is named {quote(nm)}, the name the "
                            "terminal calls you by (give it another name in the file)")
        if match.over:  # nothing to continue: an error (status 2) that says so, as for a simulated match
            assert match.end is not None
            winners = " and ".join(match.names[s] for s in match.end.winners)
            raise _fail(f"cannot resume {where}: that match is already over: {visible(winners)} won "
                        f"({visible(tui.end_words(match.end))}); replay it instead (sergeant-major replay {resume}"
                        f"{f' --game {game}' if game is not None else ''})")
        if seed is not None or to is not None or rules != "9-5-2" or opponents != "heuristic" or name != "You":
            intro.append("(--rules, --seed, --to, --opponents and --name come from the saved match when resuming)")
        intro.append(f"Resuming {resume}: rules {match.rules}, seed {match.seed}, deal {match.deal.number}. Opponents: "
                     + ", ".join(f"{visible(match.names[i])} ({kinds[i]})" for i in range(1, len(kinds))) + ".")
        # a JSON Lines file is never overwritten by one record: the match is saved to a file of its own; so it
        # is with --save-dir (it was ignored: the match went on being saved over the file resumed)
        new_file = json_lines or save_dir is not None
        path = out_dir / save_name(match.seed) if new_file else resume
        if len(rec["deals"]) == match.deal.number and match.deal.history:  # told again in the deal log
            at_start = copy.deepcopy(rec)
            at_start["deals"][-1]["actions"] = []
            deal_start = match_from_record(at_start)
    else:
        if game is not None:
            raise _fail("--game picks a record of the --resume file; give --resume FILE too")
        try:
            # with --to, the game end is checked once --to is in place (it may be the end that can be reached:
            # "8-5-3 players=4" --to 10; docs/rules.md decision 13)
            r = parse_rules(rules, check_end=to is None)
            if to is not None:
                given = [w.partition("=")[2] for w in rules.split() if w.partition("=")[0] == "to"]
                try:
                    r_to = r.with_options(to=to)
                except SergeantMajorError as e:  # named by the option typed ("rules '9-5-2 to=0': ..." named none)
                    raise _fail(f"--to {to!r}: {str(e).partition(': ')[2] or e}") from None
                if given and r_to.target_total != r.target_total:
                    raise _fail(f"--to {to!r} conflicts with to={given[0]} in --rules {rules!r}; give the target total once")
                r = r_to
        except SergeantMajorError as e:
            raise _fail(str(e)) from None
        levels = [x.strip() for x in opponents.split(",")]
        if "" in levels:
            raise _fail(f"--opponents {opponents!r}: an empty level; give LEVEL or LEVEL,LEVEL (one of {', '.join(LEVELS)})")
        n_opp = r.players - 1
        if len(levels) == 1:
            levels *= n_opp
        if len(levels) != n_opp:
            raise _fail(f"--opponents {opponents!r}: give one level or {n_opp} (one per opponent)")
        for lv in levels:
            if lv not in LEVELS:
                raise _fail(f"--opponents {opponents!r}: unknown level {lv!r} (one of {', '.join(LEVELS)})")
        taken = {o.casefold() for o in OPPONENT_NAMES[:n_opp]}
        if not has_visible(name):  # a name of spaces and invisible characters reads as nobody's
            raise _fail(f"--name {quote(name)}: choose a name one can see")
        if name.strip().casefold() in taken:  # 'bob' next to the computer's Bob
            raise _fail(f"--name {quote(name)}: the computer players are called {', '.join(OPPONENT_NAMES[:n_opp])}; "
                        "choose another name")
        why = name_problem(name)
        if why is not None:
            raise _fail(f"--name {name!r} is refused: {why}; a name is plain text")
        if len(name.strip()) > MAX_NAME:
            raise _fail(f"--name {quote(name.strip()[:MAX_NAME])}...: a name has at most {MAX_NAME} characters "
                        f"(this one {len(name.strip())}), as at a web table")
        if seed is None:
            seed_n = random.SystemRandom().randrange(1 << 31)
        else:
            try:
                seed_n = parse_seed(seed)
            except SergeantMajorError as e:
                raise _fail(str(e)) from None
        names = [name.strip(), *OPPONENT_NAMES[:n_opp]]
        match = Match(r, seed_n, names)
        kinds = ["human", *levels]
        path = out_dir / save_name(seed_n)
        new_file = True
        intro.append(f"Rules: {r}   Seed: {seed_n}   Opponents: "
                     + ", ".join(f"{names[i + 1]} ({lv})" for i, lv in enumerate(levels)))
        intro.append("Type a card like QS, 10h or Q♠; 'help' for commands, 'quit' to save and leave.")
    settings = load_settings()
    if play_forced is not None and play_forced != settings.play_forced:
        settings.play_forced = play_forced
        save_settings(settings)
    full_screen = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    table_app = None
    if full_screen:
        from sergeant_major.cli.table import TableApp

        intro = [("Type a card (QS, 10h, Q♠) or move with the arrow keys and press Enter; F1 for help, Ctrl-Q to save "
                  "and leave.") if x.startswith("Type a card") else x for x in intro]

        table_app = TableApp(match, kinds, path, new_file=new_file, settings=settings, delay=0.4, intro=intro,
                             deal_start=deal_start)
        game_: Game = table_app.game
    else:
        game_ = Game(match, kinds, path, console, ask=line_editing_input(), new_file=new_file, settings=settings,
                     deal_start=deal_start)
    lock = FileLock()

    def busy(by: str) -> str:
        return (f"{str(game_.save_path)!r} is being played by another sergeant-major play{by}: go on there, or leave "
                "it (Ctrl-Q) and resume it here")

    try:
        if not new_file:  # the file resumed: claimed before it is written over
            lock.acquire(path, busy)
        game_.save()  # before any play: a save folder or file that cannot be written is said now, not at the end
        if new_file:
            lock.acquire(game_.save_path, busy)
    except SergeantMajorError as e:
        lock.release()
        raise _fail(str(e)) from None
    try:
        _run(console, game_, table_app, kinds, intro)
    finally:
        lock.release()


def _run(console: Console, game_: Game, table_app: TableApp | None, kinds: list[str], intro: list[str]) -> None:
    """Say the intro, prepare the expert players, and play the match (its save claimed); exits with its status."""
    for line in intro:
        console.print(line, highlight=False, markup=False)
    if "expert" in kinds:
        from sergeant_major.players.expert import warm_up as warm_up_expert
        from sergeant_major.search import HAVE_NUMBA

        if not HAVE_NUMBA:
            from sergeant_major.core.errors import install_hint

            console.print("note: numba is not available (not installed - " + install_hint("fast") + " - or switched off "
                          "by SERGEANT_MAJOR_NO_NUMBA), so the expert players think in pure Python, more slowly",
                          highlight=False, markup=False)
        else:  # its play-outs compile on first use (seconds; the search goes on in the background): say so
            try:
                prepare_with_status(console, "Preparing the expert players (compiled on first use)...",
                                    warm_up_expert)
            except typer.Exit:  # Ctrl-C meanwhile: the match is saved (above), say where, as a Ctrl-C in play does
                with contextlib.suppress(OSError):
                    console.print()
                    console.print(f"Match saved to {game_.save_path}", highlight=False, markup=False, soft_wrap=True)
                    console.print(f"Continue with: sergeant-major play --resume {game_.save_path}", highlight=False, markup=False,
                                  soft_wrap=True)
                raise
    try:
        if table_app is not None:
            from sergeant_major.cli.table import run_table

            code = run_table(table_app)
        else:
            code = game_.run()
    except SergeantMajorError as e:  # even the fallback save failed
        raise _fail(str(e)) from None
    raise typer.Exit(code)
