"""``sergeant-major replay FILE`` and ``sergeant-major check FILE``: show and verify game records.

Records are full-information files written after the fact (see ``docs/records.md``), so ``replay``
shows every hand, the kitty, the discards and the exchanged cards.

Exit codes: 0 success; 1 an illegal action or a recorded result that the rules do not give (``check``;
``replay`` shows the record up to the fault, then names it); 2 a file that cannot be read or is malformed,
or a bad option value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .actions import Discard, Play, action_text
from .cards import format_cards, sort_hand
from .cli import app
from .deal import Deal, role_name
from .errors import RecordError
from .record import RecordCheckError, Replay, check_record, read_record, replay_record

__all__ = ["replay", "check"]


def _load(path: Path, err: Console) -> dict[str, Any]:
    try:
        return read_record(path)
    except RecordError as e:
        err.print(Text(f"error: {path}: {e}"))
        raise typer.Exit(2) from None


def _who(rep: Replay, seat: int) -> str:
    return f"{rep.names[seat]} (seat {seat})"


def _deal_block(out: Console, rep: Replay, index: int, running: list[int]) -> None:
    """Print deal ``index`` (0-based) of the replay; ``running`` totals are updated when it has a result."""
    m = rep.match
    deal: Deal = m.deals[index]
    names = rep.names
    n = deal.n
    r = m.rules
    out.rule(Text(f"Deal {deal.number}", style="bold"))
    out.print(Text(f"Dealer: {_who(rep, deal.dealer)}; declarer: {_who(rep, deal.declarer)}"))
    if deal.prev_diffs is not None:
        out.print(Text("Previous deal over/under-tricks: " + ", ".join(f"{names[s]} {deal.prev_diffs[s]:+d}" for s in range(n))))
    hands = Table(title="Hands as dealt", show_header=True, header_style="bold")
    hands.add_column("Player")
    hands.add_column("Role")
    hands.add_column("Target", justify="right")
    hands.add_column("Cards (by suit, high to low)")
    if r.contract_after:
        hands.add_column(f"First {r.contract_after} dealt")
    for s in range(n):
        row = [names[s], role_name(deal.role(s)), str(deal.targets[s]), format_cards(sort_hand(deal.dealt[s]))]
        if r.contract_after:
            row.append(format_cards(deal.dealt[s][: r.contract_after]))
        hands.add_row(*map(Text, row))
    out.print(hands)
    if deal.kitty_dealt:
        out.print(Text(f"Kitty: {format_cards(deal.kitty_dealt)}"))
    forced = rep.forced[index] if index < len(rep.forced) else []
    before = [(i, a) for i, a in enumerate(deal.history) if not isinstance(a, Play)]
    if before:
        out.print(Text("Before the play:", style="bold"))
        for i, a in before:
            mark = " (forced)" if i < len(forced) and forced[i] else ""
            out.print(Text(f"  {i + 1:3d}. {action_text(a, list(names))}{mark}"))
    if deal.contract is not None:
        out.print(Text(f"Contract: {deal.contract.word}"))
    if deal.discards:
        out.print(Text(f"Discards: {format_cards(a.card for a in deal.history if isinstance(a, Discard))}"))
    if deal.completed or deal.trick:
        tricks = Table(title="Tricks", header_style="bold")
        tricks.add_column("#", justify="right")
        tricks.add_column("Led by")
        for s in range(n):
            tricks.add_column(Text(names[s]))
        tricks.add_column("Won by")
        for k, t in enumerate(deal.completed, 1):
            by = {s: str(c) for s, c in t.cards}
            cells = [Text(by[s], style="bold" if s == t.winner else "") for s in range(n)]
            tricks.add_row(Text(str(k)), Text(names[t.leader]), *cells, Text(names[t.winner]))
        if deal.trick:
            by = {s: str(c) for s, c in deal.current_trick()}
            tricks.add_row(Text(str(len(deal.completed) + 1)), Text(names[deal.leader]),
                           *[Text(by.get(s, "")) for s in range(n)], Text("(in progress)"))
        out.print(tricks)
    res = deal.result
    if res is None:
        out.print(Text(f"Deal {deal.number} unfinished: {deal.phase.value} phase, seat {deal.to_act} to act; "
                       f"tricks so far {' '.join(map(str, deal.tricks_won))}", style="yellow"))
        return
    for s in range(n):
        running[s] += res.scores[s]
    table = Table(title=f"Result of deal {deal.number} ({res.contract.word})", header_style="bold")
    for col in ("Player", "Target", "Tricks", "Over/under", "Score", "Total"):
        table.add_column(col, justify="left" if col == "Player" else "right")
    for s in range(n):
        table.add_row(*map(Text, (names[s], str(res.targets[s]), str(res.tricks[s]), f"{res.diffs[s]:+d}",
                                  f"{res.scores[s]:+d}", str(running[s]))))
    out.print(table)


def _end_lines(out: Console, rep: Replay) -> None:
    m = rep.match
    out.rule(Text("Totals", style="bold"))
    out.print(Text(", ".join(f"{rep.names[s]} {m.totals[s]}" for s in range(m.rules.players))))
    if m.end is not None:
        who = " and ".join(rep.names[s] for s in m.end.winners)
        out.print(Text(f"Winner: {who} - {m.end.reason}", style="bold green"))
    else:
        out.print(Text(f"The match is unfinished (deal {len(m.deals)} in progress).", style="yellow"))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, docs/records.md).")],
    deal: Annotated[int | None, typer.Option("--deal", "-d", help="Show only this deal (1-based).")] = None,
) -> None:
    """Show a recorded match deal by deal and trick by trick (every hand: records are full information)."""
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    rep = replay_record(_load(file, err))
    m = rep.match
    shown = len(m.deals)
    if deal is not None and not 1 <= deal <= shown:
        err.print(Text(f"error: --deal {deal}: the record {file} has deals 1..{shown}"))
        raise typer.Exit(2)
    kinds = ", ".join(f"{_who(rep, s)}: {rep.kinds[s]}" for s in range(m.rules.players))
    out.print(Text(f"Rules: {m.rules}   seed {m.seed}   first dealer {_who(rep, m.first_dealer)}", style="bold"))
    out.print(Text(f"Players: {kinds}"))
    running = [0] * m.rules.players
    for i in range(shown):
        if deal is None or deal == i + 1:
            _deal_block(out, rep, i, running)
        elif m.deals[i].result is not None:
            for s, sc in enumerate(m.deals[i].result.scores):  # type: ignore[union-attr]
                running[s] += sc
    if rep.error is not None:
        _fault(err, rep.error)
        raise typer.Exit(1)
    if deal is None:
        _end_lines(out, rep)


def _fault(err: Console, e: RecordCheckError) -> None:
    err.print(Text(f"error: {e}", style="bold red"))
    if e.action_index >= 0 and e.seat >= 0:
        err.print(Text(f"  deal {e.deal}, action {e.action_index + 1}, seat {e.seat}: {e.action_text}; rule broken: {e.rule}"))


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, docs/records.md).")],
) -> None:
    """Verify a record: every action legal, every result, the totals and the end as the rules give them.

    Exit 0 and the final totals when it is; 1 naming the first fault (deal, action, seat, action, rule);
    2 for a file that cannot be read or is malformed.
    """
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    rec = _load(file, err)
    try:
        m = check_record(rec)
    except RecordCheckError as e:
        _fault(err, e)
        raise typer.Exit(1) from None
    names = m.names
    n = m.rules.players
    acts = sum(len(d.history) for d in m.deals)
    out.print(Text(f"OK: {file}: {len(m.deals)} deals, {acts} actions, every one legal ({m.rules})"))
    out.print(Text("Final totals: " + ", ".join(f"{names[s]} {m.totals[s]}" for s in range(n))))
    if m.end is not None:
        out.print(Text(f"Winner: {' and '.join(names[s] for s in m.end.winners)} - {m.end.reason}"))
    else:
        out.print(Text(f"Unfinished: deal {len(m.deals)} in progress"))
