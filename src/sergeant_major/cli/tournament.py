"""``sergeant-major tournament``: a duplicate tournament between computer players, a table of levels and differences.

The playing, the statistics and the results files are :mod:`sergeant_major.eval.tournament`; this module is the
command line around them (options, progress bar, tables, ``--json`` written whole, ``--merge``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from sergeant_major.cli.app import app, count, long_number, parse_rules, parse_seed, parse_whole_number, stop_on_signals
from sergeant_major.cli.outfile import output_target, temporary_beside
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.safetext import quote, visible
from sergeant_major.core.seeding import SEED_RANGE
from sergeant_major.eval.stats import Estimate
from sergeant_major.eval.tournament import (
    DEFAULT_DEALS,
    MAX_BOARDS,
    MAX_MATCHES,
    BoardOutcome,
    MatchOutcome,
    merge_json,
    parse_players,
    read_result_file,
    summarize,
    tournament_iter,
)
from sergeant_major.players import LEVELS

__all__ = ["tournament_command"]


@app.command("tournament")
def tournament_command(
    players: str | None = typer.Option(None, "--players", "-p",
                                       help=f"Player levels by slot, comma separated ({', '.join(LEVELS)} ...). Default: heuristic "
                                            "and a random player in every other seat of the rules."),
    deals: int = typer.Option(DEFAULT_DEALS, "--deals", "-n", parser=parse_whole_number, help="Boards (deals) to play, each in every seat arrangement."),
    duplicate: bool = typer.Option(True, "--duplicate/--no-duplicate",
                                   help="Same cards in every arrangement (default). --no-duplicate only shows what duplicate saves."),
    rules: str = typer.Option("9-5-2", "--rules", "-r", help="Rules string, e.g. '3-5-8' or '8-5-3 must-trump=on'."),
    seed_text: str = typer.Option("0", "--seed", "-s", help=f"Tournament seed, {SEED_RANGE}: the same seed gives the same result."),
    workers: int = typer.Option(0, "--workers", "-w", parser=parse_whole_number, help="Processes to use (0: one per core). The result does not depend on it."),
    matches: int = typer.Option(0, "--matches", "-m", parser=parse_whole_number, help="Also play this many seeded whole matches in every arrangement, for win rates."),
    first_deals: bool = typer.Option(False, "--first-deals",
                                     help="Play boards as first deals (no exchange) instead of deal 2 after a heuristic deal 1."),
    json_file: str | None = typer.Option(None, "--json", help="Also write the result as JSON to this file ('-': to stdout, no table)."),
    first_board: int = typer.Option(0, "--first-board", parser=parse_whole_number,
                                    help="Index of the first board (to run one seed in chunks that merge: --merge)."),
    merge: list[str] | None = typer.Option(None, "--merge",  # noqa: B008
                                           help="Merge the boards of these --json files instead of playing (repeatable; "
                                                "give the files' --rules, --players and --seed again)."),
    force: bool = typer.Option(False, "--force", help="Let --json replace a file that exists."),
    ray_address: str | None = typer.Option(None, "--ray", metavar="ADDRESS",
                                           help="Run on the ray cluster at ADDRESS (HOST:PORT of its head, or 'auto': the "
                                                "cluster of this machine); --workers then caps the processes (0: one per "
                                                "CPU of the cluster). Needs the cluster extra. The result does not depend on it."),
) -> None:
    """Duplicate tournament: the same deals played with the players in every seat arrangement.

    Each board is played in all n! seat arrangements (6 with three players) so the luck of the cards
    cancels. Shows the mean score and over-tricks per deal per player with 95% confidence intervals
    over boards, the differences between levels, and, with --matches, whole-match win rates.
    """
    def fail(msg: str) -> None:
        typer.echo(f"error: {msg}", err=True)
        raise typer.Exit(2)

    try:
        r = parse_rules(rules)
        lv = parse_players(players if players is not None else ",".join(["heuristic"] + ["random"] * (r.players - 1)),
                           r.players)
        seed = parse_seed(seed_text)
    except SergeantMajorError as e:
        fail(str(e))
        return
    if deals < 0:
        fail(f"--deals {deals}: may not be negative")
    if matches < 0:
        fail(f"--matches {matches}: may not be negative")
    if first_board < 0:
        fail(f"--first-board {first_board}: may not be negative")
    if deals > MAX_BOARDS:  # listing the jobs was a MemoryError traceback
        fail(f"--deals {long_number(deals)}: at most {MAX_BOARDS:,} boards in one run; for more, play chunks of one seed "
             "(--first-board) and --merge them")
    if matches > MAX_MATCHES:
        fail(f"--matches {long_number(matches)}: at most {MAX_MATCHES:,} matches in one run")
    if json_file == "":  # Path('') is the current folder: it was "cannot write '': Is a directory"
        fail("--json '' is empty: give a file name, or '-' for standard output")
    if force and (json_file is None or json_file == "-"):  # taken and ignored, it would hide a forgotten --json FILE
        fail("--force without --json FILE: it lets --json replace a file that exists; give --json FILE or leave out "
             "--force")
    if deals == 0 and matches == 0 and not merge:
        fail("--deals 0 and --matches 0: play at least one deal or one match")
    if workers < 0:
        fail(f"--workers {workers}: use 0 (one per core) or more")
    if ray_address is not None and merge:
        fail(f"--ray {ray_address!r} with --merge: merging plays nothing; leave out --ray")
    if merge:  # the boards, their schedule and the matches come from the files: an option for playing is refused
        given = [opt for opt, used in (("--deals", deals != DEFAULT_DEALS), ("--first-board", first_board != 0), ("--matches", matches != 0),
                                       ("--first-deals", first_deals), ("--no-duplicate", not duplicate),
                                       ("--workers", workers != 0)) if used]
        if given:
            fail(f"{', '.join(given)} with --merge: merging plays nothing (the boards, their schedule and the matches "
                 f"come from the files); leave out {', '.join(given)}")
    # the JSON goes to a temporary file beside --json, renamed to it once written: a refused, failed or
    # interrupted run (Ctrl-C) leaves --json as it was, and never an empty or half-written file
    # SIGTERM and SIGHUP (a closed terminal) stop the run as Ctrl-C does (status 143, 129; Ctrl-C: 130)
    with stop_on_signals(f"--json {json_file!r}" if json_file is not None and json_file != "-" else ""):
        tmp: str | None = None
        dest: str | None = None  # what tmp is renamed to; None: --json is a device or a pipe, written directly
        try:
            if json_file is not None and json_file != "-":
                try:
                    # refused before the run (a folder, a file without --force); /dev/null is written, not replaced
                    dest = output_target(json_file, "--json", force)
                    if dest is not None:
                        fd, tmp = temporary_beside(dest)
                        os.close(fd)
                except SergeantMajorError as e:
                    fail(str(e))
                except OSError as e:
                    fail(f"cannot write {json_file!r}: {e.strerror or e}")
            k = workers or os.cpu_count() or 1
            if ray_address is not None:
                k = workers  # 0: one per CPU of the cluster
            backend = ""
            to_stdout = json_file == "-"
            # the progress bar appears once the run has started: a refusal before it (no ray cluster at
            # --ray's address, ray missing) is then its one line on stderr, without an empty bar above it
            err_console = Console(stderr=True)
            # off a terminal a transient bar still left a blank line on stderr: with the JSON on stdout it is off
            bar = Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           TimeRemainingColumn(), console=err_console, transient=to_stdout,
                           disable=to_stdout and not err_console.is_terminal)

            def started(description: str, processes: int) -> None:
                nonlocal backend, k
                backend, k = description, processes
                bar.start()

            def stop_bar() -> None:
                if bar.live.is_started:  # Progress.stop() prints an empty line even then, off a terminal
                    bar.stop()

            bs: list[BoardOutcome] = []
            ms: list[MatchOutcome] = []
            t0 = time.perf_counter()
            if merge:
                seen: dict[tuple[int, int], str] = {}
                for f in merge:  # the same file twice: it was "board 0 is in more than one result (also in t.json)"
                    with contextlib.suppress(OSError):  # a file that cannot be read is named below, as before
                        st = os.stat(f)
                        first = seen.setdefault((st.st_dev, st.st_ino), f)
                        if first != f or merge.count(f) > 1:
                            again = f"twice ({quote(first)} and {quote(f)} are one file)" if first != f else "twice"
                            fail(f"--merge {quote(f)} is given {again}: give each part once")
                try:
                    res = merge_json([read_result_file(f) for f in merge], [visible(f) for f in merge])
                except SergeantMajorError as e:
                    fail(str(e))
                    return
                default = " (the default)"
                odd = [f"{opt} {given}{'' if typed else default}, the files {held}" for opt, given, held, typed, same in (
                    ("--rules", quote(str(r)), quote(res.rules), True, res.rules == str(r)),
                    ("--players", quote(",".join(lv)), quote(",".join(res.levels)), players is not None, res.levels == lv),
                    ("--seed", str(seed), str(res.seed), True, res.seed == seed)) if not same]
                if odd:  # it said what the files hold, not which option differed
                    fail(f"--merge files of another run than the options give: {'; '.join(odd)}; give the files' "
                         "--rules, --players and --seed")
            else:
                try:
                    task = bar.add_task("boards", total=deals + matches)
                    with contextlib.closing(tournament_iter(r, lv, deals, seed, k, matches, first_deals, duplicate,
                                                            first_board, ray_address=ray_address,
                                                            started=started)) as outcomes:
                        for o in outcomes:
                            if isinstance(o, BoardOutcome):
                                bs.append(o)
                            else:
                                ms.append(o)
                            bar.advance(task)
                except SergeantMajorError as e:
                    stop_bar()  # before the error line
                    fail(str(e))
                finally:
                    stop_bar()
                res = summarize(r, lv, seed, bs, ms, duplicate, first_deals)
            elapsed = time.perf_counter() - t0
            if json_file is not None:
                d = res.to_json()
                d["seconds"] = round(elapsed, 3)
                if not merge:  # a merge plays nothing: no processes, no backend
                    d["workers"] = k
                    d["backend"] = backend
                text = json.dumps(d, indent=1) + "\n"
                if to_stdout:
                    sys.stdout.write(text)
                    return
                try:
                    if dest is None:
                        Path(json_file).write_text(text, encoding="utf-8")
                    else:
                        assert tmp is not None
                        Path(tmp).write_text(text, encoding="utf-8")
                        os.replace(tmp, dest)
                        tmp = None
                except OSError as e:
                    fail(f"cannot write {json_file!r}: {e.strerror or e}")
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    # from the result, not the options: --merge takes the schedule from its files (--first-deals and
    # --no-duplicate need not be given again)
    how = "duplicate" if res.duplicate else "NOT duplicate"
    what = "first deals" if res.first_deals else f"deal 2 after a heuristic deal 1, {res.exchange_boards} with an exchange"
    title = (f"{count(res.boards, 'board')} of {res.rules} x {res.arrangements} seat arrangements ({how}; {what}), seed {seed}"
             if res.boards else
             f"{count(res.matches, 'match', 'matches')} of {res.rules} x {res.arrangements} seat arrangements, seed {seed}")
    # the title and the notes are lines of their own, wrapped at the terminal's width: as the table's title and
    # caption they were wrapped at the table's (about 58 columns: 'JSON written to' / 'part1.json')
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("player", no_wrap=True)
    if res.boards:
        table.add_column("score/deal", justify="right", no_wrap=True)
        table.add_column("over/deal", justify="right", no_wrap=True)
        table.add_column("tricks", justify="right")
    if res.matches:
        table.add_column("match win %", justify="right", no_wrap=True)

    def pct(e: Estimate | None) -> str:
        if e is None:
            return "-"
        if e.low is None or e.high is None:
            return f"{100 * e.mean:.1f}"
        return f"{100 * e.mean:.1f} ({100 * e.low:.1f} .. {100 * e.high:.1f})"

    for s in res.slots:
        row = [s.label]
        if res.boards:
            row += [s.score.text(2), s.over.text(2), f"{s.tricks:.2f}"]
        if res.matches:
            row.append(pct(s.wins))
        table.add_row(*row)
    if len(res.levels_stats) < len(res.slots):
        table.add_section()
        for v in res.levels_stats:
            row = [f"{v.level} ({len(v.slots)} slots)" if len(v.slots) > 1 else v.level]
            if res.boards:
                row += [v.score.text(2), v.over.text(2), ""]
            if res.matches:
                row.append(pct(v.wins))
            table.add_row(*row)
    if res.boards:
        table.add_section()
        for x in res.differences:
            row = [f"{x.a} - {x.b}", x.score.text(2), x.over.text(2), ""]
            if res.matches:
                row.append("")
            table.add_row(*row)
    # each note says what its columns show: no '±' or '(low .. high)' is promised where one unit gives no interval
    notes: list[str] = []
    if res.boards:
        means = ([e for x in res.slots for e in (x.score, x.over)] + [e for v in res.levels_stats for e in (v.score, v.over)]
                 + [e for d in res.differences for e in (d.score, d.over)])
        ci = any(e.ci95 is not None for e in means)
        notes.append(f"score/deal, over/deal: means per deal{' ± 95% CI' if ci else ''} over boards (a board's mean over "
                     "its arrangements is the unit)" + ("" if ci else "; no CI: it needs 2 boards or more"))
    if res.matches:
        wins = [e for e in [x.wins for x in res.slots] + [v.wins for v in res.levels_stats] if e is not None]
        interval = ("(low .. high): 95% Wilson interval, match seeds as units" if any(e.bounds is not None for e in wins)
                    else "no interval: it needs 2 match seeds or more")
        notes.append(f"match win %: {count(res.matches, 'seeded match', 'seeded matches')} x {res.arrangements} "
                     f"arrangements ({count(res.match_deals, 'deal')}); a shared win counts 1/k; {interval}")
    played = res.deals + res.match_deals
    notes.append((f"merged from {count(len(merge), 'file')}" if merge else
                  f"{elapsed:.1f} s on {backend}, {played / elapsed:.0f} deals/s")
                 + (f"; JSON written to {visible(json_file)}" if json_file is not None else ""))
    con = Console()
    con.print(Text(title))
    con.print(table)
    for note in notes:
        con.print(Text(note))
