"""``sergeant-major analyze FILE|POSITION``: double-dummy analysis of a position or of a recorded deal.

* A position text (see ``docs/solver.md``) at the opening lead: the double-dummy table - for each
  contract the rules allow and each seat, the tricks that seat can make against the other players
  together - and the declarer's best choice (most over-tricks, fewest under-tricks). Later in the play:
  the seat to move's value and the value of each of its legal cards.
* A game record (``docs/records.md``): for the chosen deal, the table on the hands as they stood when the
  play began (after the kitty, the discards and the exchange), then trick by trick what each card cost its
  player in double-dummy tricks (its value after the best card minus after the card played), and the
  biggest mistakes of the deal.

Values are paranoid (the player against the others together; in minimum tricks the fewest tricks the
player can hold itself to). ``--time-limit`` bounds each search (the numba kernels are compiled before the
clock starts); a value the limit cut short shows as a range ``lo..hi`` and no legal card is ever left out.
``--json`` prints the same analysis as JSON for tools (a card's value as ``[lo, hi]``).

Exit codes: 0 success; 2 an argument that is neither a readable record nor a position, or a bad option.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import queue
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sergeant_major.cli.app import app, number_parser, parse_whole_number, prepare_with_status
from sergeant_major.core.actions import AssignTargets, Contract
from sergeant_major.core.cards import CARDS
from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import SergeantMajorError, install_hint
from sergeant_major.core.rules import minimum_ceilings

if TYPE_CHECKING:  # the solver (and numba, a second to import) is loaded only when the command runs
    from sergeant_major.search.position import Position
    from sergeant_major.search.solver import Solution, Solver

_MAX_POSITION_FILE = 64 * 1024  # a file holding a position text: one line, far below this

__all__ = ["analyze", "dd_table", "analyze_position", "analyze_deal", "deal_targets", "biggest_mistakes", "card_cost", "table_jobs", "narrow_by_sum"]


def _val(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def table_jobs() -> int:
    """How many searches of a table run at once: the CPU cores, at most 4 (each extra one has its own 64 MB
    solver); 1 without numba (pure Python holds the GIL)."""
    from sergeant_major.search.jit import HAVE_NUMBA

    return max(1, min(os.cpu_count() or 1, 4)) if HAVE_NUMBA else 1


def narrow_by_sum(cells: list[list[int]], total: int, misere: bool) -> list[list[int]]:
    """Narrow a table row's cut-short cells (``[lo, hi]`` per seat, tricks of the whole deal) by the others.

    Each seat has a way of play that makes it at least its value whatever the others do (in minimum tricks: at
    most its value); all seats playing so at once, each gets that, and the tricks add up to ``total``. So the
    values add up to at most ``total`` (in minimum tricks: at least), and a seat's value is at most ``total``
    minus the others' lower bounds (in minimum tricks: at least ``total`` minus their upper bounds). Exact
    cells do not change. ``test_table_values_add_up_to_at_most_the_tricks`` checks the rule on exact tables.
    """
    out = []
    for i, (lo, hi) in enumerate(cells):
        if misere:
            lo = max(lo, total - sum(c[1] for j, c in enumerate(cells) if j != i))
        else:
            hi = min(hi, total - sum(c[0] for j, c in enumerate(cells) if j != i))
        out.append([lo, hi])
    return out


def dd_table(pos: Position, solver: Solver, time_limit: float | None, jobs: int | None = None,
             targets: tuple[int, ...] | None = None, allowed: tuple[Contract, ...] | None = None) -> dict[str, Any]:
    """The double-dummy table of a position at the opening lead.

    ``targets`` are the deal's targets by seat as the deal set them before its contract (with
    ``dealer-assigns-targets`` the dealer's assignment; not minimum tricks' ceilings); by default the rules'
    targets by role, the dealer being the seat before the leader. ``allowed`` are the contracts the declarer
    may choose in the deal (3-5-8 ``contract-once``: those he has not chosen before, ``Deal.allowed_contracts``);
    by default every contract of the rules. Every contract gets its row; the best choice is among the allowed.

    The cells (one search per contract and seat) are independent: with ``jobs`` > 1 (default
    :func:`table_jobs`) they run in that many threads, ``solver`` and ``jobs - 1`` more solvers of its size
    each serving one search at a time (the compiled search releases the GIL; ``solver``'s helper threads are
    off meanwhile, the cells fill the cores). The values do not depend on ``jobs``; ``time_limit`` holds for
    each search.

    Returns:
        ``{"leader", "dealer", "declarer", "target", "rows": [{"contract", "word", "tricks": [[lo, hi] per seat],
        "diff": [lo, hi], "target", "allowed"}], "best", "best_all", "certain"}`` where a row's ``target`` is the declarer's target in that
        contract (in minimum tricks its ceiling, seed 003: the targets mirrored, ``rules.minimum_ceilings``),
        ``diff`` the declarer's over-tricks (under-tricks negative; in minimum tricks the ceiling minus the
        tricks), ``allowed`` whether the declarer may choose it, ``best`` the code of the allowed contract
        with the largest sure ``diff`` (the first in the rows' order on a tie) and ``best_all`` the codes of every
        allowed contract as good as it for sure (``best`` first; the others' ``diff`` exact and equal to its);
        ``certain`` is false when a time limit left another allowed contract's ``diff`` range reaching above the
        best's sure ``diff`` (another choice may be better).

    Raises:
        ValueError: ``jobs`` below 1, ``targets`` not one per seat, or a trick in progress (under another contract
            its cards need not be legal).
    """
    from sergeant_major.search.position import Position
    from sergeant_major.search.solver import Solver, warm_up

    if pos.trick:
        raise ValueError(f"the table is of a position at a trick start, not with a trick in progress: {pos.text()!r}")
    rules = pos.rules
    n = pos.n
    dealer = (pos.leader - 1) % n  # the eldest hand leads the first trick (seeds 000/004)
    declarer = (dealer + rules.declarer_role) % n
    if targets is None:
        targets = tuple(rules.targets[(s - dealer) % n] for s in range(n))
    elif len(targets) != n:
        raise ValueError(f"targets={targets!r}: give one per seat ({n})")
    target = targets[declarer]
    # in minimum tricks the targets become ceilings (seed 003; rules.minimum_ceilings)
    ceiling = minimum_ceilings(tuple(targets))[declarer]
    contracts = [c for c in Contract if c.value < 4 or rules.has_nt_mt]
    jobs = table_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r} must be at least 1")
    cells_of = [(Position(rules, con, pos.to_move, pos.tricks, pos.hands, pos.trick), s)
                for con in contracts for s in range(n)]
    if jobs == 1 or len(cells_of) == 1:
        sols = [solver.value(p, s, time_limit=time_limit) for p, s in cells_of]
    else:
        warm_up()  # compile (or load) the kernels once, before the threads start
        free: queue.SimpleQueue[Solver] = queue.SimpleQueue()
        free.put(solver)
        solvers = [solver] + [Solver(solver.tt_bits, solver.clock) for _ in range(min(jobs, len(cells_of)) - 1)]
        for sv in solvers[1:]:
            free.put(sv)

        def one(cell: tuple[Position, int]) -> Solution:
            sv = free.get()
            try:
                return sv.value(cell[0], cell[1], time_limit=time_limit)
            finally:
                free.put(sv)

        threads, solver.threads = solver.threads, 1  # the cells fill the cores: no helper threads meanwhile
        try:
            with ThreadPoolExecutor(max_workers=min(jobs, len(cells_of))) as ex:
                try:
                    sols = list(ex.map(one, cells_of))
                except BaseException:  # Ctrl-C: stop the cells' searches, or leaving the pool waits for them
                    for sv in solvers:
                        sv.interrupt()
                    raise
        finally:
            solver.threads = threads
            solver.resume()
    rows: list[dict[str, Any]] = []
    for k, con in enumerate(contracts):
        mt = con is Contract.MINIMUM
        # a cell cut short by the time limit is narrowed by the others (the values add up to at most the tricks)
        cells = narrow_by_sum([[sol.lower, sol.upper] for sol in sols[k * n:(k + 1) * n]],
                              sum(pos.tricks) + pos.remaining, mt)
        lo, hi = cells[declarer]
        diff = [ceiling - hi, ceiling - lo] if mt else [lo - target, hi - target]
        rows.append({"contract": con.code, "word": con.word, "tricks": cells, "diff": diff,
                     "target": ceiling if mt else target, "allowed": allowed is None or con in allowed})
    best = max((r for r in rows if r["allowed"]), key=lambda r: (r["diff"][0], r["diff"][1]), default=None)
    if best is None:
        raise ValueError(f"allowed={allowed!r}: none of the rules' contracts ({', '.join(c.code for c in contracts)})")
    exact = best["diff"][0] == best["diff"][1]
    ties = [r["contract"] for r in rows if r is not best and r["allowed"] and exact and r["diff"] == best["diff"]]
    # uncertain only when another contract may do better: cut-short cells elsewhere that surely do worse change nothing
    certain = not any(r["diff"][1] > best["diff"][0] for r in rows if r is not best and r["allowed"])
    return {"leader": pos.leader, "dealer": dealer, "declarer": declarer, "target": target, "rows": rows,
            "best": best["contract"], "best_all": [best["contract"], *ties], "certain": certain}


def analyze_position(pos: Position, solver: Solver, time_limit: float | None, table: bool = True) -> dict[str, Any]:
    """The analysis of one position: the table at the opening lead (if ``table``), then the mover's value per
    legal card."""
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


def biggest_mistakes(plays: list[dict[str, Any]], top: int) -> list[dict[str, Any]]:
    """The ``top`` plays (``analyze_deal``'s) that surely cost their player a trick or more, the dearest first: a
    card whose cost the time limit left open counts by what it surely cost (its ``cost_range``'s low end), ties
    by the high end, then the earlier trick first."""
    return sorted((p for p in plays if p["cost_range"][0] > 0),
                  key=lambda p: (-p["cost_range"][0], -p["cost_range"][1], p["trick"]))[:top]


def card_cost(value: tuple[int, int], played: tuple[int, int], misere: bool) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` on what a card cost its player in double-dummy tricks, from bounds on the player's
    value before it and on its value after the card (whole-deal tricks, ``lo <= hi``): the value minus the
    value after (in minimum tricks the other way round), never below 0 as no card beats the value.
    ``lo == hi`` when the cost is known."""
    if misere:
        lo, hi = played[0] - value[1], played[1] - value[0]
    else:
        lo, hi = value[0] - played[1], value[1] - played[0]
    lo = max(0, lo)
    return lo, max(lo, hi)


def play_start(deal: Deal) -> Position:
    """The position when the play of ``deal`` began (hands after the kitty, discards and exchange).

    Raises:
        PositionError: when the deal never reached the play.
    """
    from sergeant_major.search.position import Position, PositionError

    if deal.contract is None or not (deal.completed or deal.trick or deal.phase.value == "play"):
        raise PositionError(f"deal {deal.number} never reached the play")
    n = deal.n
    hands = list(deal.hands)
    for t in deal.completed:
        for s, card in t.cards:
            hands[s] |= 1 << card.id
    for s, cid in deal.trick:
        hands[s] |= 1 << cid
    leader = deal.completed[0].leader if deal.completed else deal.leader
    return Position(deal.rules, deal.contract, leader, (0,) * n, tuple(hands), ())


def deal_targets(deal: Deal) -> tuple[int, ...]:
    """The targets of ``deal`` by seat before its contract: the dealer's assignment with ``dealer-assigns-targets``
    (docs/rules.md reference options, seed 002), else the rules' targets by role from the dealer; never minimum tricks' ceilings
    (``deal.targets`` holds those once MT is named)."""
    for action in deal.history:
        if isinstance(action, AssignTargets):
            return tuple(action.targets)
    return tuple(deal.rules.targets[(s - deal.dealer) % deal.n] for s in range(deal.n))


def analyze_deal(deal: Deal, solver: Solver, time_limit: float | None, table: bool = True,
                 top: int = 5) -> dict[str, Any]:
    """Double-dummy analysis of a played deal: the table at the start of the play (if ``table``), then each
    card's cost to its player, and the ``top`` biggest mistakes.

    Returns:
        ``{"deal", "contract", "start", "table", "plays": [{"trick", "seat", "card", "value", "played", "cost",
        "cost_range", "best"}], "mistakes"}``; ``value``/``played`` are ``[lo, hi]`` ranges, ``cost`` ``None``
        when the time limit left it open, ``cost_range`` its bounds then (:func:`card_cost`); ``mistakes`` are
        the ``top`` plays that surely cost a trick or more, by that sure cost.
    """
    start = play_start(deal)
    plays_seq: list[tuple[int, int, int]] = []  # (trick number, seat, card id)
    for k, t in enumerate(deal.completed, 1):
        for s, card in t.cards:
            plays_seq.append((k, s, card.id))
    for s, cid in deal.trick:
        plays_seq.append((len(deal.completed) + 1, s, cid))
    positions = [start]
    for _, _, cid in plays_seq:
        positions.append(positions[-1].play_unchecked(cid))
    plays: list[dict[str, Any]] = [{}] * len(plays_seq)

    def entry(i: int, value: tuple[int, int], played: tuple[int, int], best: list[str]) -> dict[str, Any]:
        k, s, cid = plays_seq[i]
        # no card is better for its player than the value (in minimum tricks, none lower), as analyze_position
        played = (max(played[0], value[0]), played[1]) if start.misere else (played[0], min(played[1], value[1]))
        lo_c, hi_c = card_cost(value, played, start.misere)
        return {"trick": k, "seat": s, "card": str(CARDS[cid]), "value": list(value), "played": list(played),
                "cost": lo_c if lo_c == hi_c else None, "cost_range": [lo_c, hi_c], "best": best}

    first_sol: Solution | None = None  # the first card's solve, whose bounds the table's cell narrows
    # from the end backwards: the small positions fill the table the big ones then use
    for i in range(len(plays_seq) - 1, -1, -1):
        _, s, cid = plays_seq[i]
        pos = positions[i]
        sol = solver.solve(pos, s, time_limit=time_limit)
        if i == 0:
            first_sol = sol
        pb = sol.card_bounds.get(CARDS[cid])
        played = pb if pb is not None else (pos.tricks[s], pos.tricks[s] + pos.remaining)
        plays[i] = entry(i, (sol.lower, sol.upper), (played[0], played[1]), [str(b) for b in sol.best_cards()])
    out: dict[str, Any] = {"deal": deal.number, "contract": deal.contract.code if deal.contract is not None else None,
                           "start": start.text(), "plays": plays, "mistakes": []}
    if table:
        out["table"] = dd_table(start, solver, time_limit, targets=deal_targets(deal), allowed=deal.allowed_contracts)
        if plays and first_sol is not None:  # the first card's position is the table's: its cell is a search of the same value
            first = plays[0]
            for row in out["table"]["rows"]:
                if row["contract"] == start.contract.code:
                    lo, hi = row["tricks"][first["seat"]]
                    value = (max(first["value"][0], lo), min(first["value"][1], hi))
                    if value[0] <= value[1]:
                        best = dataclasses.replace(first_sol, lower=value[0], upper=value[1]).best_cards()
                        plays[0] = entry(0, value, (first["played"][0], first["played"][1]), [str(b) for b in best])
    out["mistakes"] = biggest_mistakes(plays, top)
    if deal.result is not None:
        out["tricks"] = list(deal.result.tricks)
    return out


# ---------------------------------------------------------------------------------------------- rendering
def _print_table(out: Console, t: dict[str, Any], names: list[str]) -> None:
    mt = [r["target"] for r in t["rows"] if r["contract"] == Contract.MINIMUM.code]
    best_all = t.get("best_all", [t["best"]])  # every contract surely as good as the best (ties)
    # the title as Text: a name is plain text, never markup ('[/x]' raised MarkupError)
    tab = Table(title=Text(f"Double-dummy table (declarer {names[t['declarer']]}, target {t['target']}"
                           + (f", in minimum tricks at most {mt[0]}" if mt else "")
                           + f"; {names[t['leader']]} {'lead' if names[t['leader']] == 'You' else 'leads'})"),
                header_style="bold")
    tab.add_column("Contract")
    for nm in names:
        tab.add_column(Text(nm), justify="right")
    tab.add_column("Declarer +/-", justify="right")
    for r in t["rows"]:
        style = "bold green" if r["contract"] in best_all else "" if r.get("allowed", True) else "dim"
        d = r["diff"]
        word = r["word"] + ("" if r.get("allowed", True) else " (chosen before)")
        tab.add_row(Text(word, style=style), *[Text(_val(*c)) for c in r["tricks"]],
                    Text(f"{d[0]:+d}" if d[0] == d[1] else f"{d[0]:+d}..{d[1]:+d}", style=style))
    out.print(tab)
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


def _print_deal(out: Console, a: dict[str, Any], names: list[str]) -> None:
    out.rule(Text(f"Deal {a['deal']} ({a['contract']})", style="bold"))
    out.print(Text(f"Start of the play: {a['start']}"))
    if "table" in a:
        _print_table(out, a["table"], names)
    if not a["plays"]:  # a match saved as the deal's play began: no card to cost (not "no card cost a trick")
        out.print(Text("No card has been played in this deal yet."))
        return
    tab = Table(title="Cards and their double-dummy cost", header_style="bold")
    for col in ("Trick", "Player", "Card", "Value before", "After card", "Cost", "Best cards"):
        tab.add_column(col, justify="right" if col in ("Trick", "Value before", "After card", "Cost") else "left")
    for p in a["plays"]:
        cost = _val(*p["cost_range"])
        style = "bold red" if p["cost_range"][0] > 0 else ""
        tab.add_row(str(p["trick"]), Text(names[p["seat"]]), p["card"], _val(*p["value"]),
                    _val(*p["played"]), Text(cost, style=style), " ".join(p["best"]))
    out.print(tab)
    if a["mistakes"]:
        out.print(Text("Biggest mistakes:", style="bold"))
        for p in a["mistakes"]:
            out.print(Text(f"  trick {p['trick']}: {names[p['seat']]} played {p['card']} - cost {_val(*p['cost_range'])} "
                           f"trick(s); best {' '.join(p['best'])}"))
    elif any(p["cost_range"][1] > 0 for p in a["plays"]):
        out.print(Text("No card is known to cost a double-dummy trick (the time limit left some costs open: give more "
                       "--time-limit).", style="yellow"))
    else:
        out.print(Text("No card cost a double-dummy trick.", style="green"))


# ---------------------------------------------------------------------------------------------- command
_SECONDS = number_parser(lambda x: 0 < x < math.inf, "a positive, finite number of seconds")  # also refuses NaN


@app.command()
def analyze(
    target: Annotated[str, typer.Argument(metavar="FILE|POSITION", help="A game record file (JSON) or a position text (docs/solver.md).")],
    deal: Annotated[int, typer.Option("--deal", "-d", parser=parse_whole_number, help="The deal of the record to analyse (1-based).")] = 1,
    game: Annotated[int | None, typer.Option("--game", "-g", parser=parse_whole_number, help="For a JSON Lines file of several records "
                                             "(simulate --out): which record, from 1.")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", parser=_SECONDS, help="Seconds per search (a cut value shows as lo..hi).")] = 5.0,
    table: Annotated[bool, typer.Option("--table/--no-table", help="The double-dummy table (of a recorded deal, or of a position at its opening lead).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    spoilers: Annotated[bool, typer.Option("--spoilers", help="Also analyse a match still being played with a person at "
                                           "the table (every hand of its deals is shown).")] = False,
) -> None:
    """Double-dummy analysis: the table of a deal as dealt, or what each card of a recorded deal cost."""
    from sergeant_major.search.jit import HAVE_NUMBA
    from sergeant_major.search.position import Position, PositionError
    from sergeant_major.search.solver import Solver, warm_up

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if not 0 < time_limit < math.inf:  # also NaN
        err.print(Text(f"error: --time-limit {time_limit}: give a positive, finite number of seconds"))
        raise typer.Exit(2)

    def refuse_record_options() -> None:
        """``--deal``/``--game`` pick a deal of a record file: with a position they would be ignored, so say so."""
        given = [f"{flag} {v}" for flag, v, default in (("--deal", deal, 1), ("--game", game, None)) if v != default]
        if given:
            err.print(Text(f"error: {' and '.join(given)}: {target!r} is a position, not a record file "
                           "(--deal and --game pick a deal of a record)"))
            raise typer.Exit(2)

    def prepare() -> None:
        """Compile (or load) the kernels once the input is known good: tens of seconds with a cold numba cache,
        under a second after. Said rather than a silent wait (on a pipe only when it takes over a second). Without
        numba, a note says the searches are slow (only then: a refused input gets its error alone)."""
        if HAVE_NUMBA:
            prepare_with_status(err, "Preparing the double-dummy solver (compiled on first use: up to a minute)...", warm_up)
        elif not as_json:
            err.print(Text("note: numba is not available (not installed - " + install_hint("fast") + " - or switched "
                           "off by SERGEANT_MAJOR_NO_NUMBA), so the searches run in pure Python, about 90 times slower (docs/solver.md); "
                           "values the time limit cuts short show as lo..hi"))

    solver = Solver(threads=table_jobs())  # one search at a time (a position, a record's cards): helper threads
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
        refuse_record_options()
        prepare()
        a = analyze_position(pos, solver, time_limit, table=table)
        if as_json:
            out.print_json(json.dumps(a))
        else:
            _print_position(out, a)
        return
    try:
        from sergeant_major.cli.records import record_error_text
        from sergeant_major.records import RecordCountError, match_from_record, read_record
    except ImportError:  # pragma: no cover - the records module ships with the package
        err.print(Text("error: reading records needs sergeant_major.records"))
        raise typer.Exit(2) from None
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
            if path.is_file() and path.stat().st_size <= _MAX_POSITION_FILE:
                text = path.read_text(encoding="utf-8-sig").strip()  # less a BOM, as Windows editors save UTF-8
                try:
                    in_file = Position.parse(text)
                except SergeantMajorError as pe:
                    nor = f"; nor is it a position text: {pe}" if "|" in text else ""
        if in_file is None:
            err.print(Text(f"error: {target}: {e}{nor}"))
            raise typer.Exit(2) from None
        refuse_record_options()
        prepare()
        a = analyze_position(in_file, solver, time_limit, table=table)
        if as_json:
            out.print_json(json.dumps(a))
        else:
            _print_position(out, a)
        return
    from sergeant_major.cli.records import refuse_unfinished

    refuse_unfinished(rec, path, game, spoilers, err, over=match.over)
    if not 1 <= deal <= len(match.deals):
        which = f"record {game} of {str(target)!r}" if game is not None else f"the record {str(target)!r}"
        err.print(Text(f"error: --deal {deal}: {which} has deals 1..{len(match.deals)}"))
        raise typer.Exit(2)
    d = match.deals[deal - 1]
    names = list(match.names)
    prepare()
    try:
        a = analyze_deal(d, solver, time_limit, table=table)
    except PositionError as e:
        err.print(Text(f"error: {target}, deal {deal}: {e}"))
        raise typer.Exit(2) from None
    a["names"] = names
    if as_json:
        out.print_json(json.dumps(a))
    else:
        _print_deal(out, a, names)
