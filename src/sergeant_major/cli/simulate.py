"""``sergeant-major simulate``: many whole matches between computer players, a table of statistics per player.

The playing and the statistics are :mod:`sergeant_major.eval.simulate`; this module is the command line around
them (options, progress bar, table, the ``--out`` file of records written whole).
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

from sergeant_major.cli.app import (
    app,
    count,
    long_number,
    parse_path,
    parse_rules,
    parse_seed,
    parse_whole_number,
    stop_on_signals,
)
from sergeant_major.cli.outfile import output_target, temporary_beside
from sergeant_major.core.deal import ROLE_NAMES
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.safetext import visible
from sergeant_major.core.seeding import SEED_RANGE
from sergeant_major.eval.simulate import MAX_GAMES, GameOutcome, default_levels, parse_levels, simulate_iter, summarize

__all__ = ["simulate_command"]


def _mean_and_interval(mean: float, ci: float | None, digits: int = 3) -> str:
    """``'+0.412 ± 0.051'``: a mean and the half-width of its 95% interval (none: the mean alone)."""
    return f"{mean:+.{digits}f}" + ("" if ci is None else f" ± {ci:.{digits}f}")


@app.command("simulate")
def simulate_command(
    games: int = typer.Option(100, "--games", "-n", parser=parse_whole_number, help="Number of whole matches to play."),
    players: str | None = typer.Option(None, "--players", "-p",
                                       help="Player levels by slot, comma separated (random, beginner, heuristic, expert); they rotate through the "
                                            "seats. Default: heuristic and a random player in every other seat of the rules."),
    rules: str = typer.Option("9-5-2", "--rules", "-r", help="Rules string, e.g. '8-5-3 must-trump=on'."),
    seed_text: str = typer.Option("0", "--seed", "-s", help=f"Simulation seed, {SEED_RANGE}: the same seed gives the same result."),
    workers: int = typer.Option(0, "--workers", "-w", parser=parse_whole_number, help="Processes to use (0: one per core). The result does not depend on it."),
    out: Path | None = typer.Option(None, "--out", "-o", parser=parse_path, help="Write every match's record to this JSON Lines file (one record a line)."),  # noqa: B008
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON instead of a table."),
    force: bool = typer.Option(False, "--force", help="Let --out replace a file that exists."),
) -> None:
    """Play many whole matches between computer players and show statistics per player.

    Players rotate through the seats and the first dealer is always seat 0, so over every n games
    each player sits in each seat and deals first once (over n! games, all seatings are used).
    Wins shared by k players count 1/k each (outright and shared wins are also shown).
    The 95% intervals treat each match as one cluster of deals.
    """
    err = Console(stderr=True)

    def fail(msg: str) -> None:
        typer.echo(f"error: {msg}", err=True)
        raise typer.Exit(2)

    try:
        r = parse_rules(rules)
        lv = parse_levels(players if players is not None else default_levels(r.players), r.players)
        seed = parse_seed(seed_text)
    except SergeantMajorError as e:
        fail(str(e))
        return
    if games < 1:
        fail(f"--games {games}: play at least 1 game")
    if games > MAX_GAMES:
        fail(f"--games {long_number(games)}: at most {MAX_GAMES} games in one run (hours of play already); "
             "for more, run again with another --seed")
    if workers < 0:
        fail(f"--workers {workers}: use 0 (one per core) or more")
    if out is not None and str(out) == "-":  # it made a file named '-', where tournament's --json - prints the JSON
        fail("--out '-': give a file name ('-' is not standard output here; --out /dev/stdout writes the records there)")
    if force and out is None:  # taken and ignored, it would hide a forgotten --out: no record written
        fail("--force without --out: it lets --out replace a file that exists; give --out FILE or leave out --force")
    k = min(workers or os.cpu_count() or 1, games)  # the processes simulate_iter starts: never more than games
    fh = None
    dest: str | None = None
    tmp: str | None = None  # records go to a temporary file beside --out, renamed to it when all are written
    outcomes: list[GameOutcome] = []
    # SIGTERM and SIGHUP (a closed terminal) stop the run as Ctrl-C does (status 143, 129; Ctrl-C: 130)
    with stop_on_signals(f"--out {str(out)!r}" if out is not None else ""):
        try:
            if out is not None:
                try:
                    # refused now, not by the rename once every match is played (a folder, a file without --force)
                    dest = output_target(str(out), "--out", force)
                    if dest is None:  # written directly (/dev/null, a FIFO): a rename would replace it
                        fh = open(out, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
                    else:
                        fd, tmp = temporary_beside(dest)
                        fh = os.fdopen(fd, "w", encoding="utf-8")
                except SergeantMajorError as e:
                    fail(str(e))
                except OSError as e:
                    fail(f"cannot write {str(out)!r}: {e.strerror or e}")
            t0 = time.perf_counter()
            try:
                with Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                              TimeRemainingColumn(), console=err, transient=as_json,
                              disable=as_json and not err.is_terminal) as bar:  # off a terminal a transient bar left a blank line
                    task = bar.add_task("games", total=games)
                    with contextlib.closing(simulate_iter(r, lv, games, seed, k, records=fh is not None)) as played:
                        for outcome, line in played:
                            outcomes.append(outcome)
                            if fh is not None and line is not None:
                                fh.write(line + "\n")
                            bar.advance(task)
                if fh is not None and out is not None and tmp is not None and dest is not None:
                    fh.flush()
                    os.fsync(fh.fileno())
                    fh.close()
                    os.replace(tmp, dest)
                    tmp = None
                elif fh is not None:
                    fh.close()
            except SergeantMajorError as e:
                fail(str(e))
            except OSError as e:
                fail(f"cannot write {str(out)!r}: {e.strerror or e}")
        finally:  # on any stop before the rename (an error, Ctrl-C, SIGTERM, SIGHUP) --out is left as it was
            if fh is not None:
                with contextlib.suppress(OSError):
                    fh.close()
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    elapsed = time.perf_counter() - t0
    summary = summarize(r, lv, seed, outcomes)
    if as_json:
        d = summary.to_json()
        d["seconds"] = round(elapsed, 3)
        d["workers"] = k
        sys.stdout.write(json.dumps(d, indent=2) + "\n")
        return
    n = r.players
    roles = ROLE_NAMES[:n]
    table = Table(title=f"{count(summary.games, 'match', 'matches')} of {summary.rules} (seed {seed}): "
                        f"{count(summary.deals, 'deal')}, "
                        f"{summary.mean_deals:.2f} per match", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("player", no_wrap=True)
    table.add_column("won", justify="right")
    table.add_column("win%", justify="right")
    table.add_column("shared", justify="right")
    if r.instant_win is not None:
        table.add_column(f"{r.instant_win}+", justify="right")
    table.add_column("score/deal", justify="right", no_wrap=True)
    table.add_column("over", justify="right")
    table.add_column("tricks " + "/".join(x[0].upper() for x in roles), justify="right", no_wrap=True)
    for p in summary.players:
        row = [p.label, f"{p.wins:g}", f"{100 * p.wins / p.matches:.1f}", str(p.shared_wins)]
        if r.instant_win is not None:
            row.append(str(p.instant_wins))
        row += [_mean_and_interval(p.mean_score, p.score_ci95, 2), f"{p.mean_over:+.2f}"]
        row.append("/".join("-" if p.mean_tricks_by_role[x] is None else f"{p.mean_tricks_by_role[x]:.2f}" for x in roles))
        table.add_row(*row)
    notes = ["won: matches won, a win shared by k players counting 1/k; shared: wins shared with another player"]
    if r.instant_win is not None:
        notes.append(f"{r.instant_win}+: matches won by taking {r.instant_win}+ tricks in one deal")
    ivs = [f"{p.label} {p.win_pct_ci95[0]:.1f}..{p.win_pct_ci95[1]:.1f}" for p in summary.players
           if p.win_pct_ci95 is not None]  # under the table: in it the columns no longer fit 80 characters
    notes += [f"win%: matches won in percent; 95% Wilson intervals: {', '.join(ivs)}" if ivs
              else "win%: matches won in percent",
              "score/deal: mean score per deal ± 95% CI (matches as clusters); over: mean tricks over target per deal",
              "tricks: mean tricks per deal as " + "/".join(roles),
              f"{elapsed:.1f} s, {count(k, 'worker')}, {summary.deals / elapsed:.0f} deals/s"
              + (f"; records written to {visible(str(out))}" if out is not None else "")]
    # the notes under the table, each a paragraph of its own that wraps at the terminal's width (as a caption of
    # the table they wrapped at the table's, a narrow column of short lines on a wide terminal)
    console = Console()
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, markup=False)
