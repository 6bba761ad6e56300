"""``sergeant-major rules [RULES]``: the presets and options, or one rule set in plain words.

Without an argument: the presets table (with their sources), then every option as a short block that
reads at 80 columns: its values, its default (the default preset ``9-5-2``), its meaning, what each other
preset sets, and its source.
With an argument (a preset name or any ``--rules`` string, e.g. ``"8-5-3 kitty=none"``; the words may also
be given unquoted): that rule set in full, one plain sentence per rule, with sources (:meth:`Rules.explain`).

Exit codes: 0 success; 2 a preset, option or value that is unknown, or a combination the rules refuse
(one line on stderr quoting the input and saying why).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from sergeant_major.cli.app import app
from sergeant_major.core.errors import RulesError
from sergeant_major.core.rule_options import Declarer, Traditional
from sergeant_major.core.rules import DEFAULT_PRESET, OPTIONS, PRESETS, Rules, deal_order

__all__ = ["rules_command", "presets_table", "presets_listing", "options_table", "options_listing"]


def _short_end(r: Rules) -> str:
    parts: list[str] = []
    if r.instant_win is not None:
        parts.append(f"{r.instant_win}+ tricks wins at once")
    if r.traditional is not Traditional.OFF:
        parts.append(f"traditional ({r.traditional})")
    if r.target_total is not None:
        parts.append(f"a total reaches {r.target_total}")
    if r.bound is not None:
        parts.append(f"a total reaches +-{r.bound}, highest wins")
    if r.deals is not None:
        parts.append(f"after {r.deals} deals, highest wins")
    return "; ".join(parts)


def presets_table() -> Table:
    """The presets: name, targets by seat role, declarer, contracts, the order before the play, game end, source."""
    t = Table(title="Presets (sergeant-major rules PRESET shows one in full)", header_style="bold")
    for col in ("preset", "targets D/E/M", "declarer", "contracts", "before the play (from deal 2)", "game ends", "source"):
        t.add_column(col, overflow="fold")
    for name in PRESETS:
        r = Rules.preset(name)
        contracts = "S H D C NT MT" if r.has_nt_mt else "4 suits"
        decl = "E (playmaker)" if r.declarer is Declarer.ELDEST else "D"
        label = name + (" (default)" if name == DEFAULT_PRESET else "")
        order = " > ".join(deal_order(r, short=True))
        t.add_row(label, "/".join(map(str, r.targets)), decl, contracts, order, _short_end(r), _SOURCES_SHORT[name])
    return t


def presets_listing() -> Group:
    """The presets as short blocks that read at 80 columns (what :func:`presets_table` shows in a wide
    terminal): ``name: targets D/E/M ..., declarer ..., contracts ...``, then, indented, the order before
    the play, the game end and the source."""
    parts: list[Text | Padding] = [Text("Presets (sergeant-major rules PRESET shows one in full)", style="bold")]
    for name in PRESETS:
        r = Rules.preset(name)
        head = Text()
        head.append(name, style="bold cyan")
        head.append((" (default)" if name == DEFAULT_PRESET else "") + f": targets D/E/M {'/'.join(map(str, r.targets))}, "
                    f"declarer {'E (playmaker)' if r.declarer is Declarer.ELDEST else 'D'}, "
                    f"contracts {'S H D C NT MT' if r.has_nt_mt else '4 suits'}")
        parts.append(head)
        body = Text(f"Before the play (from deal 2): {' > '.join(deal_order(r, short=True))}. Game ends: {_short_end(r)}.")
        body.append(f" Source: {_SOURCES_SHORT[name]}.", style="dim")
        parts.append(Padding(body, (0, 0, 0, 4)))
    return Group(*parts)


WIDE = 120
"""From this terminal width on, the presets are shown as a table; below it as :func:`presets_listing`."""

_SOURCES_SHORT = {"9-5-2": "000, 004", "8-5-3": "004 Variants, 002", "9-2-5": "000/004 Variants", "3-5-8": "003"}


def options_table() -> Table:
    """Every option: key, values, default (of the default preset), the other presets' values, meaning, source."""
    t = Table(title="Options (PRESET key=value ...; default = the 9-5-2 preset's value)", header_style="bold", show_lines=True)
    for col in ("option", "values", "default", "other presets", "meaning", "source"):
        t.add_column(col, overflow="fold")
    base = Rules.preset(DEFAULT_PRESET).options_dict()
    others = {name: Rules.preset(name).options_dict() for name in PRESETS if name != DEFAULT_PRESET}
    for o in OPTIONS:
        diff = [f"{name}: {opts[o.key]}" for name, opts in others.items() if opts[o.key] != base[o.key]]
        t.add_row(o.key, ", ".join(o.values), base[o.key], "; ".join(diff), o.meaning, o.source)
    return t


def options_listing() -> Group:
    """Every option as a short block that reads at 80 columns: ``key = v1 | v2 ...  (default X)``, then,
    indented, its meaning, the other presets' values when they differ from the default, and its source."""
    base = Rules.preset(DEFAULT_PRESET).options_dict()
    others = {name: Rules.preset(name).options_dict() for name in PRESETS if name != DEFAULT_PRESET}
    parts: list[Text | Padding] = [Text(f"Options (PRESET key=value ...; default = the {DEFAULT_PRESET} preset's value)",
                                        style="bold")]
    for o in OPTIONS:
        head = Text()
        head.append(o.key, style="bold cyan")
        head.append(f" = {' | '.join(o.values)}   (default {base[o.key]})")
        parts.append(head)
        body = Text(o.meaning[:1].upper() + o.meaning[1:] + ".")
        diff = [f"{name}: {opts[o.key]}" for name, opts in others.items() if opts[o.key] != base[o.key]]
        if diff:
            body.append(f" Other presets: {'; '.join(diff)}.")
        body.append(f" Source: {o.source}.", style="dim")
        parts.append(Padding(body, (0, 0, 0, 4)))
    return Group(*parts)


class _NoTrailingSpace:
    """``renderable`` with no spaces at the ends of its lines: rich keeps the space where it wraps a line and pads
    indented blocks and titles to the terminal's width, which left up to 80 trailing spaces a line (in a file
    or a diff they are noise)."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.renderable, options, pad=False):
            while line and not line[-1].control and not line[-1].text.rstrip():
                line.pop()
            if line and not line[-1].control:
                line[-1] = Segment(line[-1].text.rstrip(), line[-1].style)
            yield from line
            yield Segment.line()


SOURCES_LINE = ("Sources: 000, 002, 003 and 004 are the rules texts the engine follows; the reference and "
                "\"decision N\" are the project's reading of them. docs/rules.md lists both (its section Sources).")
"""What the sources the rules cite are and where they are listed: before the first ``Source:`` a player reads."""


@app.command("rules")
def rules_command(
    spec: Annotated[
        list[str] | None,
        typer.Argument(metavar="RULES", help='a preset or a rules string, e.g. 3-5-8 or "8-5-3 kitty=none must-trump=on"', show_default=False),
    ] = None,
) -> None:
    """List the presets and options, or show one rule set in full in plain words."""
    console = Console(highlight=False)

    def show(renderable: RenderableType) -> None:
        console.print(_NoTrailingSpace(renderable))

    if not spec:
        show(Text(SOURCES_LINE))
        show(presets_table() if console.width >= WIDE else presets_listing())
        show(options_listing())
        show(Text('Rules string: PRESET key=value ..., e.g. "8-5-3 kitty=see-then-trump must-trump=on" '
                  '(docs/rules.md).'))
        return
    text = " ".join(spec)
    try:
        rules = Rules.parse(text)
    except RulesError as e:
        msg = str(e)
        if msg.startswith("rules '"):  # the refusal names the preset; the input is quoted here in full
            msg = msg.split(": ", 1)[-1]
        msg = msg.removesuffix(f" (in rules {text!r})")  # quoted once is enough: 'rules X: ... (in rules X)'
        Console(stderr=True, highlight=False).print(Text(f"error: rules {text!r}: {msg}"), soft_wrap=True)
        raise typer.Exit(2) from None
    for line in rules.explain():
        show(Text(line))
    show(Text(f"String form (for --rules and records): {str(rules)!r}"))
    show(Text(SOURCES_LINE))
