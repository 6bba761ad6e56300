"""``sergeant-major replay FILE`` and ``sergeant-major check FILE``: show and verify game records.

Records are full-information files written after the fact (see ``docs/records.md``), so ``replay``
shows every hand, the kitty, the discards and the exchanged cards.

Exit codes: 0 success; 1 an illegal action or a recorded result that the rules do not give (``check``;
``replay`` shows the record up to the fault, then names it); 2 a file that cannot be read or is malformed,
or a bad option value. A JSON Lines file of several records (``simulate --out``): ``--game N`` picks one;
``check`` without it checks them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sergeant_major.cli.app import app, parse_path, parse_whole_number
from sergeant_major.cli.tui import end_words, signed
from sergeant_major.core.actions import Discard, Play, action_text
from sergeant_major.core.cards import format_cards, sort_hand
from sergeant_major.core.deal import Deal, role_name
from sergeant_major.core.errors import RecordError
from sergeant_major.core.match import MatchEnd
from sergeant_major.core.safetext import visible
from sergeant_major.records import (
    RecordCheckError,
    RecordCountError,
    Replay,
    check_record,
    end_text,
    loads_record_at,
    read_record,
    read_records,
    replay_record,
)

__all__ = ["replay", "check", "load_record", "record_error_text", "located", "GAME_HELP"]

GAME_HELP = "For a JSON Lines file of several records (simulate --out): which record, from 1."


def _t(text: str, style: str = "") -> Text:
    """A line or cell to print: control characters escaped (:func:`~sergeant_major.core.safetext.visible`), so nothing
    taken from a record or a command line can drive the terminal (records refuse such names anyway)."""
    return Text(visible(text), style=style)


def record_error_text(path: Path, e: RecordError, game: int | None) -> str:
    """The one-line message (without ``error:``) for a record file that cannot be used, naming ``--game``
    when the file holds several records."""
    if isinstance(e, RecordCountError):
        if game is None:
            return (f"{path} holds {e.count} records (JSON Lines, one match a line); choose one with --game N "
                    f"(1..{e.count})")
        return f"--game {game}: {e}"
    return located(path, str(e))


def located(path: Path | str, message: str) -> str:
    """``message`` about the file ``path``, led by its name unless it already quotes it (``'cannot read the record
    'x.json': ...'``), so the name is said once."""
    return message if repr(str(path)) in message else f"{path}: {message}"


def load_record(path: Path, game: int | None, err: Console) -> dict[str, Any]:
    """Read record ``game`` (1-based; ``None`` for a one-record file) of ``path``; on failure print the reason
    to ``err`` and exit with status 2."""
    try:
        return read_record(path, game)
    except RecordError as e:
        err.print(_t(f"error: {record_error_text(path, e, game)}"))
        raise typer.Exit(2) from None


SPOILERS_HELP = ("Also show a match still being played with a person at the table (its record holds every hand, "
                 "the kitty and the discards).")


def refuse_unfinished(rec: dict[str, Any], path: Path, game: int | None, spoilers: bool, err: Console,
                      over: bool = False, illegal: bool = False) -> None:
    """Exit with status 2, saying why, when ``rec`` is a match not over yet that a person plays (the save of a
    terminal match in progress) and ``spoilers`` is off: its record is full information, so showing it would show
    the person every other hand, the kitty and the discards of the deal being played (the web server refuses the
    record and replay of a match in progress for the same reason; docs/records.md). ``over``: the match rebuilt
    from the record's actions is over; then nothing is left to play, even when the record gives no end (a
    hand-edited one: ``play --resume`` refuses it as over, and this refused it as still being played). A record that
    gives an end while its match is not ``over`` (a fake ``end``) is refused too, exit 1 (a damaged record, as
    ``check`` says), quoting that end: its ``end`` let the hands of a match in progress through. ``illegal``: the
    record's actions hold an illegal action (:func:`~sergeant_major.records.replay_record`); with an end given, the
    record says its match is over and is damaged, so it is not refused here: the caller names the illegal action
    first, as ``check`` does.

    Raises:
        typer.Exit: code 2 (a match still being played), 1 (an end the play does not give).
    """
    people = [i for i, p in enumerate(rec["players"]) if p["kind"] == "human"]
    if spoilers or over or not people or (illegal and rec["end"] is not None):
        return
    where = str(path) + (f" record {game}" if game is not None else "")
    end = rec["end"]  # checked by the replay the caller made: a dict of winners and reason
    if end is not None:
        shown = end_text(MatchEnd.from_reason(tuple(end["winners"]), str(end["reason"])))
        err.print(_t(f"error: {where} gives an end ({shown}), but its match is not over after its deals: a damaged record "
                     f"(sergeant-major check {path}{f' --game {game}' if game is not None else ''} names the fault); "
                     "not shown, since its hands may be those of a match still being played (--spoilers shows them)"))
        raise typer.Exit(1)
    err.print(_t(f"error: {where} is a match still being played (deal {len(rec['deals'])}, "
                 f"{rec['players'][people[0]]['name']} at seat {people[0]}): its record holds every hand, the kitty and "
                 f"the discards; finish it first (sergeant-major play --resume {path}"
                 f"{f' --game {game}' if game is not None else ''}), or give --spoilers to see them"))
    raise typer.Exit(2)


def _who(rep: Replay, seat: int) -> str:
    return f"{rep.names[seat]} (seat {seat})"


def _deal_block(out: Console, rep: Replay, index: int, running: list[int]) -> None:
    """Print deal ``index`` (0-based) of the replay; ``running`` totals are updated when it has a result."""
    m = rep.match
    deal: Deal = m.deals[index]
    names = rep.names
    n = deal.n
    r = m.rules
    out.rule(_t(f"Deal {deal.number}", style="bold"))
    out.print(_t(f"Dealer: {_who(rep, deal.dealer)}; declarer: {_who(rep, deal.declarer)}"))
    if deal.prev_diffs is not None:
        out.print(_t("Previous deal over/under-tricks: " + ", ".join(f"{names[s]} {signed(deal.prev_diffs[s])}" for s in range(n))))
    hands = Table(title="Hands as dealt", show_header=True, header_style="bold")
    hands.add_column("Player", overflow="fold")
    hands.add_column("Role", overflow="fold")
    hands.add_column("Target", justify="right", overflow="fold")
    hands.add_column("Cards (by suit, high to low)", overflow="fold")
    if r.contract_after:
        hands.add_column(f"First {r.contract_after} dealt", overflow="fold")
    for s in range(n):
        row = [names[s], role_name(deal.role(s)), str(deal.targets[s]), format_cards(sort_hand(deal.dealt[s]))]
        if r.contract_after:
            row.append(format_cards(deal.dealt[s][: r.contract_after]))
        hands.add_row(*map(_t, row))
    out.print(hands)
    if deal.kitty_dealt:
        out.print(_t(f"Kitty: {format_cards(deal.kitty_dealt)}"))
    forced = rep.forced[index] if index < len(rep.forced) else []
    before = [(i, a) for i, a in enumerate(deal.history) if not isinstance(a, Play)]
    if before:
        out.print(_t("Before the play:", style="bold"))
        for i, a in before:
            mark = " (forced)" if i < len(forced) and forced[i] else ""
            out.print(_t(f"  {i + 1:3d}. {action_text(a, list(names))}{mark}"))
    if deal.contract is not None:
        out.print(_t(f"Contract: {deal.contract.word}"))
    if deal.discards:
        out.print(_t(f"Discards: {format_cards(a.card for a in deal.history if isinstance(a, Discard))}"))
    if deal.completed or deal.trick:
        tricks = Table(title="Tricks", header_style="bold")
        tricks.add_column("#", justify="right", overflow="fold")
        tricks.add_column("Led by", overflow="fold")
        for s in range(n):
            tricks.add_column(_t(names[s]), overflow="fold")
        tricks.add_column("Won by", overflow="fold")
        for k, t in enumerate(deal.completed, 1):
            by = {s: str(c) for s, c in t.cards}
            cells = [_t(by[s], style="bold" if s == t.winner else "") for s in range(n)]
            tricks.add_row(_t(str(k)), _t(names[t.leader]), *cells, _t(names[t.winner]))
        if deal.trick:
            by = {s: str(c) for s, c in deal.current_trick()}
            tricks.add_row(_t(str(len(deal.completed) + 1)), _t(names[deal.leader]),
                           *[_t(by.get(s, "")) for s in range(n)], _t("(in progress)"))
        out.print(tricks)
    res = deal.result
    if res is None:
        out.print(_t(f"Deal {deal.number} unfinished: {deal.phase.value} phase, {'nobody' if deal.to_act is None else _who(rep, deal.to_act)} to act; "
                       f"tricks so far {' '.join(map(str, deal.tricks_won))}", style="yellow"))
        return
    for s in range(n):
        running[s] += res.scores[s]
    table = Table(title=f"Result of deal {deal.number} ({res.contract.word})", header_style="bold")
    for col in ("Player", "Target", "Tricks", "Over/under", "Score", "Total"):
        table.add_column(col, justify="left" if col == "Player" else "right", overflow="fold")
    for s in range(n):
        table.add_row(*map(_t, (names[s], str(res.targets[s]), str(res.tricks[s]), signed(res.diffs[s]),
                                  signed(res.scores[s]), signed(running[s]))))
    out.print(table)


def _end_lines(out: Console, rep: Replay, recorded: int) -> None:
    m = rep.match
    out.rule(_t("Totals", style="bold"))
    out.print(_t(", ".join(f"{rep.names[s]} {signed(m.totals[s])}" for s in range(m.rules.players))))
    if m.end is not None:
        who = " and ".join(rep.names[s] for s in m.end.winners)
        out.print(_t(f"Winner: {who} - {end_words(m.end)}", style="bold green"))
    elif recorded and m.deals[recorded - 1].result is None:
        out.print(_t(f"The match is unfinished (the record stops in deal {recorded}).", style="yellow"))
    else:
        out.print(_t(f"The match is unfinished (the record stops after deal {recorded}).", style="yellow"))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", parser=parse_path, help="A game record (JSON, docs/records.md).")],
    deal: Annotated[int | None, typer.Option("--deal", "-d", parser=parse_whole_number, help="Show only this deal (1-based).")] = None,
    game: Annotated[int | None, typer.Option("--game", "-g", parser=parse_whole_number, help=GAME_HELP)] = None,
    spoilers: Annotated[bool, typer.Option("--spoilers", help=SPOILERS_HELP)] = False,
) -> None:
    """Show a recorded match deal by deal and trick by trick (every hand: records are full information).

    Exit 1 when the record is inconsistent: an illegal action (shown up to it), or results, totals or an
    end that the rules do not give (as check finds them).
    """
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    rec = load_record(file, game, err)
    rep = replay_record(rec)
    refuse_unfinished(rec, file, game, spoilers, err, over=rep.match.over, illegal=rep.error is not None)
    m = rep.match
    # only the deals in the record: the match starts the next deal by itself after a scored one
    shown = min(len(m.deals), len(rec["deals"]))
    if deal is not None and not 1 <= deal <= shown:
        which = f"record {game} of {str(file)!r}" if game is not None else f"the record {str(file)!r}"
        err.print(_t(f"error: --deal {deal}: {which} has deals 1..{shown}"))
        raise typer.Exit(2)
    kinds = ", ".join(f"{_who(rep, s)}: {rep.kinds[s]}" for s in range(m.rules.players))
    out.print(_t(f"Rules: {m.rules}   seed {m.seed}   first dealer {_who(rep, m.first_dealer)}", style="bold"))
    out.print(_t(f"Players: {kinds}"))
    running = [0] * m.rules.players
    for i in range(shown):
        if deal is None or deal == i + 1:
            _deal_block(out, rep, i, running)
        elif m.deals[i].result is not None:
            for s, sc in enumerate(m.deals[i].result.scores):  # type: ignore[union-attr]
                running[s] += sc
    fault = rep.error
    if fault is None:
        try:
            check_record(rec)  # the recorded results, totals and end must be the ones the rules give
        except RecordCheckError as e:
            fault = e
    if deal is None and rep.error is None:
        _end_lines(out, rep, shown)
    if fault is not None:
        _fault(err, fault, _record_words(file, game))
        raise typer.Exit(1)


def _fault_text(e: RecordCheckError) -> str:
    """The fault once, in the third person, with the JSON path of the record field at the end."""
    msg = str(e)[len(e.where) + 2:] if e.where else str(e)
    return msg + (f" (at {e.where})" if e.where else "")


def _record_words(file: Path, game: int | None, line: int | None = None) -> str:
    """The record a message is about: its file, and for one of a JSON Lines file its number and line
    (``'m.jsonl record 2 (line 2)'``)."""
    return f"{file}" + ("" if game is None else f" record {game}") + ("" if line is None else f" (line {line})")


def _within_line(e: RecordError, line: int) -> str:
    """The fault ``e`` of the record on line ``line`` of a JSON Lines file, without that line, which the message's
    head already names (``'column 9: not valid JSON: ...'``, ``'deals[0]: ...'``, not ``'line 2 column 9: ...'``)."""
    msg = str(e)[len(e.where) + 2:] if e.where else str(e)
    where = e.where.removeprefix(f"line {line}").lstrip(", ")
    return f"{where}: {msg}" if where else msg


def _fault(err: Console, e: RecordCheckError, where: str) -> None:
    """Print the fault ``e`` of the record ``where`` (:func:`_record_words`) as ``check``, ``replay`` and
    ``review`` do: ``error: FILE: deal 1, action 8 ... is illegal: ...``."""
    err.print(_t(f"error: {where}: {_fault_text(e)}", style="bold red"))


@app.command()
def check(
    file: Annotated[Path, typer.Argument(metavar="FILE", parser=parse_path, help="A game record (JSON, or JSON Lines of several records, docs/records.md).")],
    game: Annotated[int | None, typer.Option("--game", "-g", parser=parse_whole_number, help=GAME_HELP + " Default: every record.")] = None,
) -> None:
    """Verify a record: every action legal, every result, the totals and the end as the rules give them.

    Exit 0 and the final totals when it is; 1 naming the first fault (deal, action number, seat, action, rule);
    2 for a file that cannot be read or is malformed. A JSON Lines file (simulate --out) is checked
    record by record, one line each and a summary; exit 1 if any record is illegal (its line named), 2 if
    any is malformed.
    """
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if game is None:
        try:
            recs = read_records(file)
        except RecordError as e:
            err.print(_t(f"error: {file}: {e}"))
            raise typer.Exit(2) from None
        if len(recs) > 1:
            raise typer.Exit(_check_all(file, recs, out, err))
    rec = load_record(file, game, err)
    where = _record_words(file, game)
    try:
        m = check_record(rec)
    except RecordCheckError as e:
        _fault(err, e, where)
        raise typer.Exit(1) from None
    out.print(_t(f"OK: {where}: {_summary(m)}"))
    names = m.names
    n = m.rules.players
    totals = ", ".join(f"{names[s]} {signed(m.totals[s])}" for s in range(n))
    # an unfinished record (a match being played): its totals are not final ones
    out.print(_t(("Final totals: " if m.end is not None else "Totals so far: ") + totals))
    if m.end is not None:
        out.print(_t(f"Winner: {' and '.join(names[s] for s in m.end.winners)} - {end_words(m.end)}"))
    else:
        out.print(_t(f"Unfinished: the record stops in deal {len(rec['deals'])}"))


def _summary(m: Any) -> str:
    acts = sum(len(d.history) for d in m.deals)
    return (f"{len(m.deals)} deal{'' if len(m.deals) == 1 else 's'}, {acts} action{'' if acts == 1 else 's'}, "
            f"every one legal ({m.rules})")


def _check_all(file: Path, recs: list[tuple[int, str]], out: Console, err: Console) -> int:
    """``check`` of a JSON Lines file: one line per record, then a summary; returns the exit status."""
    illegal: list[int] = []
    malformed: list[int] = []
    for k, (line, text) in enumerate(recs, 1):
        head = f"record {k} (line {line}): "
        try:
            m = check_record(loads_record_at(text, line, True))
        except RecordCheckError as e:
            illegal.append(line)
            _fault(err, e, _record_words(file, k, line))
            continue
        except RecordError as e:
            malformed.append(line)
            err.print(_t(f"error: {_record_words(file, k, line)}: malformed: {_within_line(e, line)}", style="bold red"))
            continue
        end = (f"winner {' and '.join(m.names[s] for s in m.end.winners)}" if m.end is not None
               else "unfinished")
        # named, seat by seat: a simulation's records rotate the players, so seat order is no player order
        totals = ", ".join(f"{name} {signed(t)}" for name, t in zip(m.names, m.totals, strict=True))
        out.print(_t(f"{head}OK: {_summary(m)}; totals {totals}; {end}"))
    n = len(recs)
    good = n - len(illegal) - len(malformed)

    def lines(xs: list[int]) -> str:
        return f" (line{'s' if len(xs) > 1 else ''} {', '.join(map(str, xs[:10]))}{', ...' if len(xs) > 10 else ''})"

    msg = (f"{file}: {n} records: {good} legal, {len(illegal)} illegal{lines(illegal) if illegal else ''}"
           f", {len(malformed)} malformed{lines(malformed) if malformed else ''}")
    if illegal or malformed:
        err.print(_t(msg, style="bold red"))
        return 2 if malformed else 1
    out.print(_t(f"OK: {msg}"))
    return 0
