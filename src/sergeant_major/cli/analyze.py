"""``sergeant-major review FILE`` and ``sergeant-major analyze FILE|POSITION``: double-dummy review of a match,
analysis of a position.

* A game record (``docs/records.md``): every deal of the match (``--deal N``: one) with a progress bar; for each
  deal the double-dummy table on the hands as they stood when the play began, then trick by trick what each card
  cost its player in double-dummy tricks against the best card, the best card(s), each player's mistakes and the
  tricks they lost; at the end the totals per player. ``analyze FILE`` does the same; ``analyze FILE --deal N``
  shows one deal as before (the five dearest mistakes).
* A position text (see ``docs/solver.md``) at the opening lead: the double-dummy table and the declarer's best
  choice. Later in the play: the seat to move's value and the value of each of its legal cards.

The review itself is :mod:`sergeant_major.search.review`; this module reads the input and presents it. Values are
paranoid (the player against the others together; in minimum tricks the fewest tricks the player can hold itself
to). ``--time-limit`` bounds each search (the numba kernels are compiled before the clock starts); a value the
limit cut short shows as a range ``lo..hi`` and no legal card is ever left out. ``--json`` prints the same as
JSON for tools: a review, a deal's or a position's analysis all validate against ``review_schema.json``.

Exit codes: 0 success; 2 an argument that is neither a readable record nor a position, or a bad option.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import shlex
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sergeant_major.cli.app import app, number_parser, parse_whole_number, prepare_with_status
from sergeant_major.core.actions import Contract
from sergeant_major.core.errors import SergeantMajorError, install_hint

if TYPE_CHECKING:  # the solver (and numba, a second to import) is loaded only when the command runs
    from sergeant_major.core.match import Match
    from sergeant_major.search.position import Position
    from sergeant_major.search.solver import Solver

_MAX_POSITION_FILE = 64 * 1024  # a file holding a position text: one line, far below this

__all__ = ["analyze", "review", "analyze_position"]


def _val(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def analyze_position(pos: Position, solver: Solver, time_limit: float | None, table: bool = True) -> dict[str, Any]:
    """The analysis of one position: the table at the opening lead (if ``table``), then the mover's value per
    legal card."""
    from sergeant_major.search.review import dd_table

    out: dict[str, Any] = {"position": pos.text()}
    if table and sum(pos.tricks) == 0 and not pos.trick:
        out["table"] = dd_table(pos, solver, time_limit)
    if not pos.over:
        sol = solver.solve(pos, pos.to_move, time_limit=time_limit)
        out["to_move"] = pos.to_move
        lo, hi = sol.lower, sol.upper
        for row in out.get("table", {}).get("rows", []):  # the table's cell is a search of the same value
            if row["contract"] == pos.contract.code:
                lo, hi = max(lo, row["tricks"][pos.to_move][0]), min(hi, row["tricks"][pos.to_move][1])
        out["value"] = [lo, hi]
        # every legal card, its value as [lo, hi] (equal when found; the bounds when the time ran out, narrowed
        # by the value: no card is better for the mover than its value - in minimum tricks, none lower)
        out["cards"] = {str(c): [max(b[0], lo), b[1]] if pos.misere else [b[0], min(b[1], hi)]
                        for c, b in sol.card_bounds.items()}
        # the cards surely best under the value as narrowed (a card known to keep the table's value is best)
        out["best_cards"] = [str(c) for c in dataclasses.replace(sol, lower=lo, upper=hi).best_cards()]
    return out


# ---------------------------------------------------------------------------------------------- rendering
def _range(v: list[int], signed: bool = False) -> str:
    lo, hi = v
    f = (lambda x: f"{x:+d}") if signed else str
    return f(lo) if lo == hi else f"{f(lo)}..{f(hi)}"


def _print_table(out: Console, t: dict[str, Any], names: list[str]) -> None:
    mt = [r["target"] for r in t["rows"] if r["contract"] == Contract.MINIMUM.code]
    best_all = t.get("best_all", [t["best"]])  # every contract surely as good as the best (ties)
    has_open = all("open" in r for r in t["rows"])
    # the title as Text: a name is plain text, never markup ('[/x]' raised MarkupError)
    tab = Table(title=Text(f"Double-dummy table (declarer {names[t['declarer']]}, target {t['target']}"
                           + (f", in minimum tricks at most {mt[0]}" if mt else "")
                           + f"; {names[t['leader']]} {'lead' if names[t['leader']] == 'You' else 'leads'})"),
                header_style="bold")
    tab.add_column("Contract")
    for nm in names:
        tab.add_column(Text(nm), justify="right")
    if has_open:
        tab.add_column("Open", justify="right")
    tab.add_column("Declarer +/-", justify="right")
    for r in t["rows"]:
        style = "bold green" if r["contract"] in best_all else "" if r.get("allowed", True) else "dim"
        word = r["word"] + ("" if r.get("allowed", True) else " (chosen before)")
        misere = r["contract"] == Contract.MINIMUM.code
        cells = [Text(("at most " if misere else "") + _val(*c)) for c in r["tricks"]]
        if has_open:
            o = r["open"]
            cells.append(Text(("+" if misere and o != [0, 0] else "") + _range(o), style="dim" if o == [0, 0] else ""))
        tab.add_row(Text(word, style=style), *cells, Text(_range(r["diff"], signed=True), style=style))
    out.print(tab)
    if has_open:
        total = t.get("total", "the")
        out.print(Text(f"A number is the tricks that player makes at least, however the others play, every card known "
                       f"to all. Open: the rest of the {total} tricks, taken by whoever the play favours."
                       + (" Minimum tricks: the most a player takes, ducking as well as it can; Open (+): how far "
                          "those exceed the tricks." if mt else ""), style="dim"), soft_wrap=False)
    best = next(r for r in t["rows"] if r["contract"] == t["best"])
    words = [r["word"] for c in best_all for r in t["rows"] if r["contract"] == c]
    word = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]} (equally good)"
    # uncertain only when another contract may do better: cut-short cells elsewhere that surely do worse change nothing
    cut = not t["certain"] if "certain" in t else \
        any(r["diff"][1] > best["diff"][0] for r in t["rows"] if r is not best and r.get("allowed", True))
    if not all(r.get("allowed", True) for r in t["rows"]):
        word += " (of the contracts the declarer has not chosen before, contract-once)"
    out.print(Text(f"Declarer's best choice: {word}" + (" (not certain: the time limit cut searches short, so some values "
                                                         "are ranges lo..hi; give more --time-limit)" if cut else ""),
                   style="bold"))


def _print_position(out: Console, a: dict[str, Any]) -> None:
    out.print(Text(f"Position: {a['position']}"))
    names = [f"Seat {s}" for s in range(len(a["position"].split("|")[3].split("-")))]
    if "table" in a:
        _print_table(out, a["table"], names)
    if "cards" not in a:
        out.print(Text("The deal is over: tricks " + a["position"].split("|")[3].strip() + " (seat 0 first)"))
    if "cards" in a:
        out.print(Text(f"Seat {a['to_move']} to move: value {_val(*a['value'])} "
                       + ("trick" if tuple(a["value"]) == (1, 1) else "tricks")))
        tab = Table(title="Value after each legal card", header_style="bold")
        tab.add_column("Card")
        tab.add_column("Tricks", justify="right")
        best = set(a["best_cards"])
        for c, v in a["cards"].items():
            tab.add_row(Text(c, style="bold green" if c in best else ""), Text(_val(*v)))
        out.print(tab)


def _expert_cost(p: dict[str, Any]) -> str:
    """A play's expert cost as text: two decimals, '-' when there is no estimate."""
    c = p.get("expert", {}).get("cost")
    return "-" if c is None else f"{c:.2f}"


_MARK_STYLE = {"best": "green", "inaccuracy": "yellow", "mistake": "bold red", "unclear": "yellow"}


def _print_deal(out: Console, a: dict[str, Any], names: list[str], title: str = "Biggest mistakes:") -> None:
    word = next((c.word for c in Contract if c.code == a["contract"]), a["contract"])
    declarer = f", declarer {names[a['declarer']]}" if "declarer" in a else ""
    out.rule(Text(f"Deal {a['deal']}: {word}{declarer}", style="bold"))
    out.print(Text(f"Start of the play: {a['start']}"))
    if "table" in a:
        _print_table(out, a["table"], names)
    if not a["plays"]:  # a match saved as the deal's play began: no card to cost (not "no card cost a trick")
        out.print(Text("No card has been played in this deal yet."))
        return
    tab = Table(title="Cards and their double-dummy cost (tricks the player makes, all playing on double dummy)",
                header_style="bold")
    has_expert = any("expert" in p for p in a["plays"])
    cols = ("Trick", "Player", "Card", "Before", "After", "Cost") + (("Expert",) if has_expert else ()) + ("Best cards",)
    for col in cols:
        tab.add_column(col, justify="left" if col in ("Player", "Card", "Best cards") else "right")
    for p in a["plays"]:
        style = _MARK_STYLE.get(p.get("mark", ""), "bold red" if p["cost_range"][0] > 0 else "")
        ex = [Text(_expert_cost(p))] if has_expert else []
        tab.add_row(str(p["trick"]), Text(names[p["seat"]]), Text(p["card"], style=style), _val(*p["value"]),
                    _val(*p["played"]), Text(_val(*p["cost_range"]), style=style if p["cost_range"][1] else ""),
                    *ex, " ".join(p["best"]))
    out.print(tab)
    if a["mistakes"]:
        out.print(Text(title, style="bold"))
        for p in a["mistakes"]:
            cost = _val(*p["cost_range"])
            seen = f" (from what {names[p['seat']]} could see: {_expert_cost(p)})" if "expert" in p else ""
            out.print(Text(f"  trick {p['trick']}: {names[p['seat']]} played {p['card']}, cost {cost} "
                           f"trick{'' if cost == '1' else 's'}{seen}; best {' or '.join(p['best'])}"), soft_wrap=False)
    elif any(p["cost_range"][1] > 0 for p in a["plays"]):
        out.print(Text("No card is known to cost a double-dummy trick (the time limit left some costs open: give more "
                       "--time-limit).", style="yellow"))
    else:
        out.print(Text("No card cost a double-dummy trick.", style="green"))
    if "seats" in a:
        parts = []
        for st in a["seats"]:
            took = "" if st["tricks"] is None else f"took {st['tricks']}, "
            xs = f" (expert's estimate {st['expert_lost']:.2f})" if "expert_lost" in st else ""
            parts.append(f"{names[st['seat']]} {took}lost {st['lost']} to {st['mistakes']} "
                         f"mistake{'' if st['mistakes'] == 1 else 's'}{_unsettled(st)}{xs}")
        out.print(Text("Per player: " + "; ".join(parts) + ".", style="bold"), soft_wrap=False)


def _unsettled(st: dict[str, Any]) -> str:
    """A seat's cards whose cost a search cut short left a range, as words after its tricks lost ('' when none):
    their high ends are no tricks lost, so they are counted rather than added (``search.review.seat_losses``)."""
    n = st["unsettled"]
    return f", {n} card{'' if n == 1 else 's'} unsettled" if n else ""


_UNSETTLED_NOTE = ("Unsettled: cards whose cost the time limit left a range lo..hi (marked in yellow); the tricks lost "
                   "count only what mistakes surely cost. Give more --time-limit to settle them.")


def _print_review(out: Console, r: dict[str, Any]) -> None:
    names = r["names"]
    for d in r["deals"]:
        _print_deal(out, d, names, title="Mistakes:")
    if not r["deals"]:
        out.print(Text("No deal of this match reached the play: nothing to review."))
        return
    out.rule(Text("The match", style="bold"))
    tab = Table(title="Tricks lost to mistakes", header_style="bold")
    has_expert = all("expert_lost" in st for st in r["seats"])
    has_open = any(st["unsettled"] for st in r["seats"])
    for col in (("Player", "Cards", "Mistakes", "Lost, double dummy") + (("Unsettled cards",) if has_open else ())
                + (("Lost, expert's estimate",) if has_expert else ())):
        tab.add_column(col, justify="left" if col == "Player" else "right")
    for st in r["seats"]:
        ex = [f"{st['expert_lost']:.2f}"] if has_expert else []
        unsettled = [Text(str(st["unsettled"]), style="yellow" if st["unsettled"] else "")] if has_open else []
        tab.add_row(Text(names[st["seat"]]), str(st["cards"]), str(st["mistakes"]), str(st["lost"]), *unsettled, *ex)
    out.print(tab)
    if has_open:
        out.print(Text(_UNSETTLED_NOTE, style="dim"), soft_wrap=False)
    if has_expert:
        out.print(Text("Double dummy: against the best card with every card known. Expert's estimate: the tricks a card "
                       "cost on average over worlds the player could not tell apart (what it could see), sampled "
                       "with a fixed seed.", style="dim"), soft_wrap=False)


# ---------------------------------------------------------------------------------------------- command
_SECONDS = number_parser(lambda x: 0 < x < math.inf, "a positive, finite number of seconds")  # also refuses NaN


class _Stopped(Exception):
    """Raised in the expert's estimates when the double-dummy review beside them has failed."""


def _prepare(err: Console, as_json: bool, expert_first: bool = False, searches: int = 0, time_limit: float = 0.0) -> None:
    """Compile (or load) the kernels once the input is known good: tens of seconds with a cold numba cache,
    under a second after. Said rather than a silent wait (on a pipe only when it takes over a second). Without
    numba, a note says once that the searches are slow and that some costs will be ranges (only then: a refused input
    gets its error alone), with a review's ``searches`` of up to ``time_limit`` seconds each when given. ``expert_first``:
    return once the play-outs are ready (:func:`~sergeant_major.search.solver.start_warm_up`), the search compiling
    on in another process while the expert estimates the cards."""
    from sergeant_major.search.jit import HAVE_NUMBA
    from sergeant_major.search.solver import start_warm_up, warm_up

    if HAVE_NUMBA:
        prepare_with_status(err, "Preparing the double-dummy solver (compiled on first use, then cached)...",
                            start_warm_up if expert_first else warm_up)
    elif not as_json:
        why = ("note: numba is not available (not installed - " + install_hint("fast") + " - or switched off by "
               "SERGEANT_MAJOR_NO_NUMBA), so the searches run in pure Python, about 90 times slower (docs/solver.md)")
        if searches:
            err.print(Text(f"{why}: this review of {searches} searches, each cut short after {time_limit:g} s, may take "
                           "many minutes, and the costs of the searches cut short are ranges lo..hi, counted as "
                           "unsettled cards, not as tricks lost"))
        else:
            err.print(Text(f"{why}; values the time limit cuts short show as lo..hi"))


def _load_record(target: str, game: int | None, spoilers: bool, err: Console,
                 on_position: Callable[[Position], None] | None) -> tuple[Match, list[str], str | None] | None:
    """The match of the record file ``target`` rebuilt from its actions, its players' names, and what ``check``
    finds wrong with its results, totals or end (``None``: nothing); a file holding a position text goes to
    ``on_position`` (then ``None`` is returned; without it such a file is an error).

    Raises:
        typer.Exit: 2 for a file that is no record (nor a position, where one is taken), or a match still played.
    """
    from sergeant_major.cli.records import located, record_error_text, refuse_unfinished
    from sergeant_major.records import RecordCheckError, RecordCountError, check_record, match_from_record, read_record
    from sergeant_major.search.position import Position

    path = Path(target)
    try:
        rec = read_record(path, game)
        match = match_from_record(rec)
    except RecordCountError as e:
        err.print(Text(f"error: {record_error_text(path, e, game)}"))
        raise typer.Exit(2) from None
    except SergeantMajorError as e:
        # a file holding a position text instead of a record: a short regular file only (never a pipe or a
        # device such as /dev/zero, which read_record refused without reading)
        in_file: Position | None = None
        nor = ""  # why a file that looks like a position text (it has a '|') is not one either
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if on_position is not None and path.is_file() and path.stat().st_size <= _MAX_POSITION_FILE:
                text = path.read_text(encoding="utf-8-sig").strip()  # less a BOM, as Windows editors save UTF-8
                try:
                    in_file = Position.parse(text)
                except SergeantMajorError as pe:
                    nor = f"; nor is it a position text: {pe}" if "|" in text else ""
        if in_file is None or on_position is None:
            err.print(Text(f"error: {located(target, str(e))}{nor}"))
            raise typer.Exit(2) from None
        on_position(in_file)
        return None
    refuse_unfinished(rec, path, game, spoilers, err, over=match.over)
    fault = None
    try:
        check_record(rec)
    except RecordCheckError as e:  # the play is legal but a recorded result, total or end is not the rules' own
        fault = str(e)
    return match, list(match.names), fault


def _say_fault(target: str, fault: str | None, err: Console) -> None:
    """After a review of a damaged record: name what ``check`` finds and exit 1, as ``replay`` does.

    Raises:
        typer.Exit: 1 when ``fault`` is given.
    """
    if fault is not None:
        err.print(Text(f"error: {target}: {fault}: a damaged record; the review above is of its actions"))
        raise typer.Exit(1)


def _run_review(match: Match, names: list[str], deals: list[int] | None, time_limit: float, table: bool,
                as_json: bool, out: Console, err: Console, expert: bool = True) -> None:
    """Review ``deals`` of ``match`` (all when ``None``) with a progress bar on a terminal, then print it; with
    ``expert`` each card also gets the expert's estimate from what its player could see."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from sergeant_major.search.review import review_match, review_solver, review_units, table_jobs

    if expert:  # before the solver's warm-up, which then compiles the expert's kernels too
        import sergeant_major.players.expert  # noqa: F401
    total = review_units(match, table=table, deals=deals)
    # the expert's estimates begin at once: they need only the play-outs for most cards, while the search compiles
    _prepare(err, as_json, expert_first=expert, searches=total, time_limit=time_limit)
    # beside the expert's thread a search gets no helper threads: they would compete with it for the cores and
    # burn time while descheduled (the review's own tasks still run in table_jobs() threads)
    solver = review_solver(1 if expert else table_jobs())
    cards = sum(len(d.completed) * d.n + len(d.trick) for d in match.deals if deals is None or d.number in deals)
    with Progress(TextColumn("Reviewing"), BarColumn(), MofNCompleteColumn(), TextColumn("searches"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("review", total=total + (cards if expert else 0))

        def double_dummy() -> dict[str, Any]:
            return review_match(match, solver, time_limit, table=table, names=names, deals=deals,
                                progress=lambda k: bar.advance(task, k))

        if not expert:
            r = double_dummy()
        else:
            from sergeant_major.eval.review import add_expert_estimates, expert_estimates

            stop = threading.Event()

            def tick(k: int) -> None:
                if stop.is_set():  # the review failed or was interrupted: no more estimates
                    raise _Stopped
                bar.advance(task, k)

            # the expert's estimates in a thread beside the double-dummy review (docs/solver.md, "the cold start"):
            # they need mostly play-outs, ready before the search, and the table's searches fill the other core
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sm-expert") as pool:
                pending = pool.submit(expert_estimates, match, deals, progress=tick)
                try:
                    r = double_dummy()
                except BaseException:
                    stop.set()  # leaving the pool waits for the card being estimated, not the rest
                    raise
                add_expert_estimates(match, r, estimates=pending.result())
    if as_json:
        out.print_json(json.dumps(r))
    else:
        _print_review(out, r)


def _check_deal(deal: int | None, match: Match, target: str, game: int | None, err: Console) -> None:
    if deal is not None and not 1 <= deal <= len(match.deals):
        which = f"record {game} of {str(target)!r}" if game is not None else f"the record {str(target)!r}"
        err.print(Text(f"error: --deal {deal}: {which} has deals 1..{len(match.deals)}"))
        raise typer.Exit(2)


_DEAL_OPT = typer.Option("--deal", "-d", parser=parse_whole_number, help="Only this deal of the record (1-based).")
_GAME_OPT = typer.Option("--game", "-g", parser=parse_whole_number, help="For a JSON Lines file of several records "
                         "(simulate --out): which record, from 1.")
_TIME_OPT = typer.Option("--time-limit", "-t", parser=_SECONDS, help="Seconds per search (a cut value shows as lo..hi).")
_EXPERT_OPT = typer.Option("--expert/--no-expert", help="Also the expert's estimate of each card from what its "
                           "player could see (sampled worlds, a fixed seed).")
_SPOILERS_OPT = typer.Option("--spoilers", help="Also analyse a match still being played with a person at "
                             "the table (every hand of its deals is shown).")


@app.command()
def review(
    target: Annotated[str, typer.Argument(metavar="FILE", help="A game record file (JSON, or JSON Lines with --game).")],
    deal: Annotated[int | None, _DEAL_OPT] = None,
    game: Annotated[int | None, _GAME_OPT] = None,
    time_limit: Annotated[float, _TIME_OPT] = 5.0,
    table: Annotated[bool, typer.Option("--table/--no-table", help="The double-dummy table of each deal.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (review_schema.json) instead of tables.")] = False,
    expert: Annotated[bool, _EXPERT_OPT] = True,
    spoilers: Annotated[bool, _SPOILERS_OPT] = False,
) -> None:
    """Review a match double dummy: every deal's table, what each card cost, each player's mistakes."""
    from sergeant_major.search.position import Position

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def not_a_record(_: Position) -> None:
        """A position text (given, or in the file) has no match to review: say which command analyses it."""
        err.print(Text(f"error: {target!r} {'holds' if Path(target).is_file() else 'is'} a position text, not a "
                       f"game record; analyze it: sergeant-major analyze {shlex.quote(target)}"))
        raise typer.Exit(2)

    if "|" in target and not Path(target).exists():
        with contextlib.suppress(SergeantMajorError):
            not_a_record(Position.parse(target))
    loaded = _load_record(target, game, spoilers, err, not_a_record)
    assert loaded is not None  # a record, or an exit
    match, names, fault = loaded
    _check_deal(deal, match, target, game, err)
    _run_review(match, names, None if deal is None else [deal], time_limit, table, as_json, out, err, expert)
    _say_fault(target, fault, err)


@app.command()
def analyze(
    target: Annotated[str, typer.Argument(metavar="FILE|POSITION", help="A game record file (JSON) or a position text (docs/solver.md).")],
    deal: Annotated[int | None, typer.Option("--deal", "-d", parser=parse_whole_number,
                                             help="One deal of the record (1-based); without it every deal is reviewed.")] = None,
    game: Annotated[int | None, _GAME_OPT] = None,
    time_limit: Annotated[float, _TIME_OPT] = 5.0,
    table: Annotated[bool, typer.Option("--table/--no-table", help="The double-dummy table (of a recorded deal, or of a position at its opening lead).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (review_schema.json) instead of tables.")] = False,
    expert_opt: Annotated[bool | None, typer.Option("--expert/--no-expert", help="Also the expert's estimate of each "
                                                     "card of a record from what its player could see (sampled worlds, "
                                                     "a fixed seed; on by default).")] = None,
    spoilers: Annotated[bool, _SPOILERS_OPT] = False,
) -> None:
    """Double-dummy analysis: a match reviewed (as review), one deal of it, or a position."""
    from sergeant_major.search.position import Position, PositionError
    from sergeant_major.search.review import analyze_deal, review_solver, table_jobs

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if not 0 < time_limit < math.inf:  # also NaN
        err.print(Text(f"error: --time-limit {time_limit}: give a positive, finite number of seconds"))
        raise typer.Exit(2)

    def refuse_record_options() -> None:
        """``--deal``/``--game`` pick a deal of a record file: with a position they would be ignored, so say so."""
        given = [f"{flag} {v}" for flag, v in (("--deal", deal), ("--game", game)) if v is not None and (flag, v) != ("--deal", 1)]
        if given:
            err.print(Text(f"error: {' and '.join(given)}: {target!r} is a position, not a record file "
                           "(--deal and --game pick a deal of a record)"))
            raise typer.Exit(2)

    expert = expert_opt is not False  # on unless --no-expert: a record's cards

    def position(pos: Position) -> None:
        refuse_record_options()
        if expert_opt:  # a position has every hand known and no history: no player's view to estimate from
            err.print(Text(f"error: --expert: {target!r} is a position, not a record file (the expert's estimates are "
                           "of a record's cards, from what each player could see)"))
            raise typer.Exit(2)
        _prepare(err, as_json)
        a = analyze_position(pos, review_solver(table_jobs()), time_limit, table=table)
        if as_json:
            out.print_json(json.dumps(a))
        else:
            _print_position(out, a)

    path = Path(target)
    on_disk = ""  # what the target names on disk: "dir", "file" (any other kind: read_record names it) or nothing
    if "|" not in target:
        try:
            on_disk = "dir" if path.is_dir() else "file" if path.exists() else ""
        except OSError:  # a name too long to be a file, say
            on_disk = ""
    if on_disk != "file":
        try:
            pos = Position.parse(target)
        except PositionError as e:
            hint = ("" if "|" in target else " (nor a file: it is empty)" if not target.strip()
                    else " (and a directory, not a file)" if on_disk == "dir" else " (and no such file)")
            why = str(e).removeprefix(f"{target!r} is not a position: ")  # the target is quoted once
            err.print(Text(f"error: {target!r} is not a position{hint}: {why}"))
            raise typer.Exit(2) from None
        position(pos)
        return
    loaded = _load_record(target, game, spoilers, err, position)
    if loaded is None:  # the file held a position text, analysed
        return
    match, names, fault = loaded
    _check_deal(deal, match, target, game, err)
    if deal is None:
        _run_review(match, names, None, time_limit, table, as_json, out, err, expert)
        _say_fault(target, fault, err)
        return
    if expert:  # before the warm-up, which then compiles the expert's kernels too
        import sergeant_major.players.expert  # noqa: F401
    _prepare(err, as_json)
    try:
        a = analyze_deal(match.deals[deal - 1], review_solver(table_jobs()), time_limit, table=table)
    except PositionError as e:
        err.print(Text(f"error: {target}, deal {deal}: {e}"))
        raise typer.Exit(2) from None
    if expert:  # the deal's cards as review --deal N estimates them (the match's seats are review's only)
        from sergeant_major.eval.review import add_expert_estimates

        add_expert_estimates(match, {"deals": [a], "seats": []})
    a["names"] = names
    if as_json:
        out.print_json(json.dumps(a))
    else:
        _print_deal(out, a, names)
    _say_fault(target, fault, err)
