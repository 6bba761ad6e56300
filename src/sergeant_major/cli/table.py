"""The full-screen table of ``sergeant-major play`` (Textual), used when standard input and output are terminals.

The match is driven by :class:`~sergeant_major.cli.play.Game`'s own loop (players, forced actions, saving) in a
worker thread: :class:`TableGame` only changes how that loop shows things and where the human's lines come from.
The worker hands the screen frozen :class:`~sergeant_major.core.view.View` objects of the human's seat (never the
state), and the screen hands back what the human typed or chose, as a line the line mode would take (``QS``,
``2c 3d``, ``hint``, ``quit``), so both modes accept the same input and say the same words
(:mod:`sergeant_major.cli.tui`).
"""

from __future__ import annotations

import contextlib
import io
import queue
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog, Static

from sergeant_major.cli import tui
from sergeant_major.cli.game import HUMAN, Game, LeaveGame, exchange_lines, match_over_lines
from sergeant_major.cli.settings import Settings
from sergeant_major.core.actions import Contract, Discard, EndGive, Give, Play, Return
from sergeant_major.core.cards import Card, Suit
from sergeant_major.core.deal import DealResult, Phase
from sergeant_major.core.match import Match
from sergeant_major.core.view import View

__all__ = ["TableApp", "TableGame", "CardInput", "run_table", "card_label", "shown_cards", "me_text", "seat_text", "trick_lines", "trick_row"]

_RED = (Suit.HEARTS, Suit.DIAMONDS)
_CONTINUE = "\x00continue"  # what a key on a result panel sends to the worker


MINIMUM_LINE = "Minimum tricks: take at most your ceiling; fewer is better."
"""The reminder under your hand in a minimum-tricks deal: one row at the smallest table (62 columns)."""


class TableGame(Game):
    """:class:`Game` with its output sent to a :class:`TableApp` and its lines read from it (a worker thread)."""

    def __init__(self, app: TableApp, match: Match, kinds: list[str], save_path: Path, new_file: bool = True,
                 settings: Settings | None = None, delay: float = 0.0, deal_start: Match | None = None) -> None:
        super().__init__(match, kinds, save_path, Console(file=io.StringIO(), width=100),
                         ask=self._ask, new_file=new_file, settings=settings, deal_start=deal_start)
        self.app = app
        self.lines: queue.Queue[str] = queue.Queue()
        self.delay = delay
        self.result_path: Path | None = None
        self.finished = False

    # ---------------------------------------------------------------- to the screen
    def _post(self, fn: Any, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app has gone (closed terminal): the save still happens
            self.app.call_from_thread(fn, *args)

    def emit(self, text: str | Text, style: str = "") -> None:
        line = text if isinstance(text, Text) else Text(text, style=style)
        self._post(self.app.add_log, line, style)

    def refuse(self, text: str) -> None:
        # one line: the deal log and the message under the hand break it at their own widths, and the message
        # would otherwise keep only the last piece, without the input it quotes
        self.say(text, style="bold red")

    def card_words(self, text: str, quoted: bool = False) -> str:
        """``text`` with its cards as the hand shows them (``10♥`` for ``TH``: :func:`shown_cards`), the players' names
        and, with ``quoted``, a quoted input kept as they are."""
        return shown_cards(text, self.match.names, quoted)

    def show_decision(self, view: View) -> None:
        self._post(self.app.show_view, view, True)

    def _apply(self, action: Any, note: str = "") -> None:
        super()._apply(action, note)
        if self.match.over:
            return
        self._post(self.app.show_view, self.match.view(HUMAN), False)
        if self.delay and action.seat != HUMAN and self.players[action.seat] is not None and isinstance(action, Play):
            time.sleep(self.delay)

    def _ask(self, prompt: str) -> str:
        self._post(self.app.ask, prompt)
        line = self.lines.get()
        if line == _CONTINUE:
            return ""
        return line

    def _wait_key(self) -> None:
        while True:
            line = self.lines.get()
            if line == _CONTINUE:
                return
            if line.strip().lower() in ("quit", "exit"):
                raise LeaveGame()

    def deal_over(self, res: DealResult, number: int, dealer: int) -> None:
        m = self.match
        self._flush()
        # the table under the result panel: the deal as it ended (its last trick, your hand empty), not as before the
        # last card (the next deal's table is drawn when the panel is closed)
        self._post(self.app.show_view, m.view(HUMAN, m.deals[number - 1]), False)
        self.emit(f"Deal {number} scored ({res.contract.word}): "
                  + ", ".join(f"{m.names[s]} {tui.signed(res.scores[s])}" for s in range(len(m.names))), "bold")
        table = tui.deal_summary(res, number, m.totals, m.names, dealer)
        notes = exchange_lines(m, res)
        if m.over:
            return  # the match end's panel follows at once
        self.autosave()
        self._post(self.app.show_panel, "result", Group(table, Text(), *(Text(x) for x in notes),
                                                        Text(), Text("Press Enter for the next deal.", style="bold")))
        self._wait_key()

    def hint_text(self, hints: list[str], width: int) -> list[str]:
        """The hint shown in a panel as wide as the terminal (its rows of estimates, 54 columns, broke into pieces in
        the deal log's 20 to 30), and for the log with each row's spaces closed up, broken between words at the log's
        width."""
        # the footnote once a session; each line whole, broken below; its cards as the hand shows them
        lines = [self.card_words(x) for x in super().hint_text(hints, 10_000)]
        self._post(self.app.show_hint, lines)
        return hint_log_lines(lines, self.app.log_width())

    def path_words(self, path: Path) -> str:
        """A save's path with the home folder written ``~`` (the deal log has 20 to 30 columns); it is printed whole
        when the table closes."""
        return tui.home_short(path)

    def left(self, path: Path) -> None:
        self.result_path = path
        self._post(self.app.exit)

    def match_over(self, path: Path) -> None:
        self.result_path = path
        self.finished = True
        lines = match_over_lines(self.match)
        for x in lines:
            self.emit(x, "bold")
        view = self.match.view(HUMAN)
        self._post(self.app.show_panel, "end", sheet_panel(view, [Text(lines[0], style="bold"), Text()],
                                                           [Text(), Text(f"Record saved to {self.path_words(path)}"),
                                                            Text("Press Enter to leave.", style="bold")]))
        with contextlib.suppress(LeaveGame):
            self._wait_key()
        self._post(self.app.exit)


# -------------------------------------------------------------------------------------------- widgets
def card_label(card: Card, red: bool = True) -> Text:
    """A card on the table: ``Q♠``, red for hearts and diamonds unless ``red`` is false (``NO_COLOR``: a monochrome
    terminal draws red as dim grey, the look of a card that may not be played)."""
    rank = str(card)[:-1].replace("T", "10")
    return Text(f"{rank}{Suit(card.suit).symbol}", style="bold red" if red and card.suit in _RED else "bold")


_CARD_WORD = re.compile(r"(?<![\w'])[2-9TJQKA][CDHS](?![\w'])")
"""A card in the canonical notation (``TH``, ``QS``) as a word of a line."""
_QUOTED = re.compile(r"'[^']*'")
"""A quoted input (``'th'``, :func:`~sergeant_major.core.safetext.quote`)."""


def shown_cards(text: str, keep: Sequence[str] = (), quoted: bool = False) -> str:
    """``text`` with each card in the canonical notation (``TH``) written as the hand shows it (``10♥``,
    :func:`card_label`), so the deal log, the messages and the hints say what the hand shows. Not inside any of
    ``keep`` (the players' names: one may be ``JD``) nor, with ``quoted``, inside a quoted input (``'th'``: what was
    typed). A card made longer (``10♥`` for ``TH``) takes a space of a run of spaces after it, so the hint's columns
    stay aligned.

    >>> shown_cards("You take the kitty: 8C TD")
    'You take the kitty: 8♣ 10♦'
    """
    kept: list[tuple[int, int]] = []
    for name in keep:
        if name:
            kept += [(m.start(), m.end()) for m in re.finditer(re.escape(name), text)]
    if quoted:
        kept += [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    out: list[str] = []
    at = 0
    for m in _CARD_WORD.finditer(text):
        if m.start() < at or any(a < m.end() and m.start() < b for a, b in kept):
            continue
        label = card_label(Card.parse(m.group())).plain
        out.append(text[at:m.start()] + label)
        at = m.end()
        grow = len(label) - len(m.group())
        if grow > 0 and text.startswith(" " * (grow + 1), at):
            at += grow
    return "".join(out) + text[at:]


def seat_text(view: View, s: int, width: int | None = None) -> Text:
    """A player's panel: role, target (``at most N`` in minimum tricks), tricks, total, 3-5-8 contracts left.

    ``width``: the panel's columns (``None``: no limit). A line that would not fit takes its short form rather than
    break in two: ``at most 5`` for ``target at most 5`` and ``left CDHS NT MT`` for ``left C D H S NT MT`` (the 3-5-8
    panels at 64 columns)."""

    def fit(line: str, short: str) -> str:
        return line if width is None or cell_len(line) <= width else short

    out = Text()
    out.append(tui.role_text(view.players, s, view.dealer, view.declarer) + "\n")
    target = "?" if view.phase is Phase.ASSIGN else tui.target_text(view.targets[s], view.contract)
    out.append(fit(f"target {target}", target if tui.is_minimum(view.contract) else f"target {target}") + "\n")
    out.append(f"tricks {view.tricks_won[s]}\n")
    out.append(f"total {tui.signed(view.totals[s])}")
    left = tui.contracts_left_text(view, s)
    if left:
        codes = left.split()
        suits = "".join(c for c in codes if len(c) == 1)  # the suits' one-letter codes joined: CDHS
        out.append("\n" + fit(f"left {left}", " ".join(["left"] + ([suits] if suits else []) + [c for c in codes if len(c) > 1])))
    return out


def me_text(view: View, width: int) -> Text:
    """Your line under the table: name, role, target (``at most N`` in minimum tricks), tricks, total and the 3-5-8
    contracts left, in ``width`` cells. Too narrow for it (3-5-8 at 64 columns), the role goes first (the deal log
    names it), then the word ``target`` before ``at most N``, then the name is cut: the scores and the contracts
    left stay whole."""
    target = None if view.phase is Phase.ASSIGN else tui.target_text(view.targets[view.seat], view.contract)
    left = tui.contracts_left_text(view, view.seat)

    def tail(role: bool, labelled: bool) -> str:
        parts = [tui.role_text(view.players, view.seat, view.dealer, view.declarer)] if role else []
        if target is not None:
            parts.append(f"target {target}" if labelled or not tui.is_minimum(view.contract) else target)
        parts += [f"tricks {view.tricks_won[view.seat]}", f"total {tui.signed(view.totals[view.seat])}"]
        if left:
            parts.append(f"left {left}")
        return " · " + " · ".join(parts)

    name = Text(view.names[view.seat])
    for rest in (tail(True, True), tail(False, True), tail(False, False)):
        if name.cell_len + cell_len(rest) <= width:
            break
    else:
        name.truncate(max(1, width - cell_len(rest)), overflow="ellipsis")
    name.stylize("bold")  # the name only: a span over the text so far
    return name.append(rest)


def _trick_shown(view: View) -> tuple[dict[int, Card], int | None, bool]:
    """The trick the table shows: its cards by seat, its leader and whether it is the last one completed (shown
    between tricks)."""
    if not view.trick and view.completed and view.phase in (Phase.PLAY, Phase.SCORED):
        last = view.completed[-1]
        return dict(last.cards), last.cards[0][0], True
    return dict(view.trick), view.leader, False


def _trick_cell(view: View, s: int, cards: dict[int, Card], leader: int | None, done: bool, red: bool = True) -> Text:
    t = Text()
    if s == leader and (cards or done):
        t.append("▸", style="bold")
    name = Text(view.names[s])  # 10 cells at most beside the card, a longer name cut with an ellipsis
    name.truncate(10, overflow="ellipsis")
    t.append(name.plain + " ")
    if s in cards:
        t.append_text(card_label(cards[s], red))
    else:
        t.append("·", style="dim")
    return t


def _trick_note(view: View, done: bool) -> str:
    if done:
        winner = view.names[view.completed[-1].winner]
        return f"{winner} {'take' if tui.is_you(winner) else 'takes'} the trick"
    if view.phase is Phase.PLAY and not view.trick and view.to_act == view.seat:
        return "you lead"
    return ""


def trick_lines(view: View, width: int, red: bool = True) -> Text:
    """The trick in the middle: each card in front of the seat that played it (left, right, across, you at the
    bottom), the leader marked ``▸``; between tricks the last one, with who took it."""
    cards, leader, done = _trick_shown(view)
    n = view.players
    left, right = (view.seat + 1) % n, (view.seat - 1) % n
    across = (view.seat + 2) % n if n == 4 else None

    def cell(s: int) -> Text:
        return _trick_cell(view, s, cards, leader, done, red)

    w = max(20, width)
    out = Text()
    if across is not None:
        a = cell(across)
        out.append(" " * max(0, (w - len(a)) // 2)).append_text(a)
    out.append("\n\n")
    lt, rt = cell(left), cell(right)
    out.append_text(lt).append(" " * max(1, w - len(lt) - len(rt))).append_text(rt)
    out.append("\n\n")
    me = cell(view.seat)
    out.append(" " * max(0, (w - len(me)) // 2)).append_text(me)
    out.append("\n")
    note = _trick_note(view, done)
    if note:
        out.append("\n" + " " * max(0, (w - len(note)) // 2) + note, style="italic")
    return out


def trick_row(view: View, width: int, red: bool = True) -> Text:
    """The trick on one row, for a table too short for :func:`trick_lines`: the seats in the order they play from
    the leader, each with its card (``▸Bob 9♠  Cleo Q♠  You ·``), then who took it when it fits."""
    cards, leader, done = _trick_shown(view)
    n = view.players
    first = leader if leader is not None else view.seat
    out = Text("  ").join(_trick_cell(view, (first + i) % n, cards, leader, done, red) for i in range(n))
    note = _trick_note(view, done)
    if note and out.cell_len + 3 + len(note) <= width:
        out.append(" · " + note, style="italic")
    return out


class TrickWidget(Static):
    """The middle of the table, drawn for its own width and height (so a resize redraws it): in a short table
    without its blank rows, and on one row when even that is too tall (every card of the trick stays in view)."""

    view: View | None = None

    def render(self) -> RenderableType:
        if self.view is None:
            return Text()
        red = not self.app.no_color
        text = trick_lines(self.view, max(20, self.size.width - 2), red)
        lines = list(text.split("\n"))
        if len(lines) > self.size.height:  # a short table (3-5-8's seat panels at 64x20): no blank rows
            lines = [line for line in lines if line.plain.strip()]
            text = Text("\n").join(lines)
        cards = 2 if self.view.players == 3 else 3  # the rows holding cards; the note after them may be cut
        if len(lines) > self.size.height and self.size.height < cards:
            text = trick_row(self.view, self.size.width, red)
        return text

    def show(self, view: View) -> None:
        self.view = view
        self.refresh()


class SeatWidget(Static):
    """Another player's panel (:func:`seat_text`), drawn for its own width (so a resize redraws it)."""

    view: View | None = None
    seat = 0

    def render(self) -> RenderableType:
        if self.view is None:
            return Text()
        return seat_text(self.view, self.seat, self.size.width or None)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        # measured for the width the layout offers, not the width drawn last (the short forms change the height)
        if self.view is None or not width:
            return 0
        return len(seat_text(self.view, self.seat, width).wrap(self.app.console, width))

    def show(self, view: View, seat: int) -> None:
        self.view, self.seat = view, seat
        self.refresh(layout=True)


class CardWidget(Static):
    """One card of the hand: legal ones bright, others dim; the cursor reversed, selected ones raised."""

    def __init__(self, card: Card, index: int, red: bool = True) -> None:
        super().__init__(card_label(card, red), classes="card")
        self.red = red
        self.card = card
        self.index = index
        self.state: tuple[bool, bool, bool] | None = None  # legal, under the cursor, selected: as last drawn

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, TableApp):
            app.click_card(self.index)


class CardInput(Input):
    """The line where cards and commands are typed; with nothing typed, the arrow keys move along the hand and
    Enter chooses the card under the cursor once the player has stepped to it."""

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if (isinstance(app, TableApp) and event.key in ("left", "right", "space", "home", "end")
                and (not self.value or self.value in app.choices())):
            event.stop()
            event.prevent_default()
            app.move_cursor(event.key)
            return
        await super()._on_key(event)


class LongWordBreaks:
    """A text drawn broken at the width it is given (:func:`~sergeant_major.cli.tui.break_long_words`): a save's
    path in the deal log breaks after a ``/`` or a ``-``, not mid-name, and again at each width it is drawn at."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield tui.break_long_words(self.text, options.max_width)


class DealLog(RichLog):
    """The deal log: a :class:`RichLog` that breaks its lines again when its width changes (a resized terminal) and
    keeps its newest line in view whatever its size."""

    def __init__(self, **kwargs: Any) -> None:
        # lines are broken at the log's width down to 12 columns (20 cut them in the four players' log at 64x20)
        super().__init__(wrap=True, markup=False, highlight=False, min_width=12, **kwargs)
        self.texts: list[Text] = []
        self.drawn_width = 0

    def add(self, line: Text) -> None:
        """Write ``line`` at the bottom and keep it to draw again at another width. The blank row a deal's first line
        starts with (between deals) is left out at the top of an empty log."""
        if not self.texts:
            line = line[len(line.plain) - len(line.plain.lstrip("\n")):]
        self.texts.append(line)
        self.write(self._indented(line))

    @staticmethod
    def _indented(line: Text) -> RenderableType:
        """``line``, each of its rows after the first as far in as the first (``  -> Bob wins the trick ...``), a word
        too long for a row broken after a ``/`` or a ``-`` (:class:`LongWordBreaks`)."""
        indent = len(line.plain) - len(line.plain.lstrip(" "))
        if not indent or not line.plain.strip():
            return LongWordBreaks(line)
        return Padding(LongWordBreaks(line[indent:]), (0, 0, 0, indent))

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self.drawn_width and width and width != self.drawn_width:
            self.clear()
            for line in self.texts:
                self.write(self._indented(line), scroll_end=False)
        self.drawn_width = width or self.drawn_width
        # RichLog scrolls to its end only when a line is written, with the sizes known then: a log made shorter (the
        # lines under the hand grow) or broken into more rows afterwards kept its old offset and hid the newest line.
        # A resize event comes after each such change, with the new sizes already set: scroll now, not later.
        self.scroll_end(animate=False, immediate=True, x_axis=False)


PanelBody = RenderableType | Callable[[int, int], RenderableType]
"""What a panel shows: a renderable, or a function of the terminal's columns and rows drawing one that fits them."""

_PANEL_FRAME = (6, 4)  # the columns and rows of a panel's border and padding


def sheet_panel(view: View, head: list[Text], tail: list[Text]) -> Callable[[int, int], RenderableType]:
    """A panel with the score sheet between ``head`` and ``tail`` that fits a terminal of any size: in too few rows
    the earliest deals are summed on one row (:func:`~sergeant_major.cli.tui.score_sheet`), so the latest deals,
    the totals and ``tail`` (where the record was saved, the key to press) stay on the screen."""

    def build(width: int, height: int) -> RenderableType:
        inner_w, inner_h = max(20, width - _PANEL_FRAME[0]), height - _PANEL_FRAME[1]
        console = Console(width=inner_w)
        texts = [tui.break_long_words(t, inner_w) for t in head + tail]  # where the record was saved: not mid-name
        used = sum(len(t.wrap(console, inner_w)) or 1 for t in texts) + 4  # the sheet's title, heads, rule, total
        return Group(*texts[:len(head)], tui.score_sheet(view, max(1, inner_h - used)), *texts[len(head):])

    return build


class Panel(ModalScreen[None]):
    """A panel over the table (result of a deal, last trick, score sheet, help, match end) that waits for a key; one
    drawn for the terminal's size is drawn again when the terminal is resized.

    A panel the game opens by itself (:data:`SETTLING`) takes no key or click until :data:`SETTLE` seconds have passed
    without one: a key of the moment it opened (Enter pressed twice on your last card, a key held down) was meant
    for the table, and closed the deal's result unseen. Then Enter or Escape closes it (:data:`CLOSING_KEYS`, what
    its last line says), or a click: another key (a card being typed as it opened) leaves it open. A panel opened by
    a key of the player (help, last trick, score sheet) closes on any key (:data:`ANY_KEY_CLOSES`, its last line).
    Ctrl-Q and Ctrl-C quit at any moment. It
    closes once: a second key or click already on its way (a double tap) is ignored."""

    DEFAULT_CSS = """
    Panel { align: center middle; }
    Panel > Static { width: auto; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
                     border: round $accent; background: $surface; }
    """
    SETTLE = 0.4  # seconds: longer than a double tap and a key's repeat, shorter than reading the panel
    SETTLING = ("result", "end", "hint")  # the panels not opened by a key of the player
    CLOSING_KEYS = ("enter", "escape")  # what closes a SETTLING panel
    clock: Callable[[], float] = staticmethod(time.monotonic)  # the time a key comes (tests stand in their own)

    def __init__(self, kind: str, body: PanelBody) -> None:
        super().__init__()
        self.kind = kind
        self.body = body
        self.quiet_since = self.clock()  # the panel's opening, then the last key it did not take
        self.closed = False  # dismissed: a key still on its way must not dismiss it again (that pops the table)

    def settled(self) -> bool:
        """Whether a key or a click now closes the panel (:data:`SETTLE`); one that does not restarts the wait."""
        now = self.clock()
        if self.kind in self.SETTLING and now - self.quiet_since < self.SETTLE:
            self.quiet_since = now
            return False
        return True

    def drawn(self) -> RenderableType:
        """The body as drawn for the terminal's size now."""
        return self.body(*self.app.size) if callable(self.body) else self.body

    def compose(self) -> ComposeResult:
        yield Static(self.drawn(), id="panel-body")

    def on_resize(self, event: events.Resize) -> None:
        if callable(self.body):
            self.query_one("#panel-body", Static).update(self.drawn())

    def on_key(self, event: events.Key) -> None:
        event.stop()
        app = self.app
        quit_key = event.key in ("ctrl+c", "ctrl+q")
        if self.closed or (not quit_key and not self.settled()):
            return
        if not quit_key and self.kind in self.SETTLING and event.key not in self.CLOSING_KEYS:
            return
        self.closed = True
        self.dismiss()
        if isinstance(app, TableApp) and self.kind in ("result", "end"):
            app.send("quit" if quit_key else _CONTINUE)

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if self.closed or not self.settled():
            return
        self.closed = True
        self.dismiss()
        if isinstance(app, TableApp) and self.kind in ("result", "end"):
            app.send(_CONTINUE)


ANY_KEY_CLOSES = "Press any key to close."
"""The last line of a panel opened by a key of the player (help, last trick, score sheet): any key closes it."""

HELP: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("How to play", (
        "Type a card and Enter: QS, 10h, Q♠ (several for a discard or a give: 2c 3d).",
        "Or, with nothing typed: Left/Right move along your hand, then Enter plays the card stepped to; click a "
        "card to play it. Discards and gives: Space or a click selects cards, Enter gives or discards them.",
        "Trump, contract, targets: type them (S, spades, NT, MT; a number), or Left/Right through the choices "
        "and Enter.")),
    ("Keys", (
        "F1 help   F2 hint   F3 last trick   F4 score sheet",
        "F5 save   F6 forced cards on/off",
        "Ctrl-Q or Ctrl-C save and quit",
        "Or type hint, last, scores, save, forced or quit.")),
)


def last_trick_body(view: View, red: bool = True) -> Text:
    """F3's panel: the last trick of the deal as the table draws cards (``Q♠``, red hearts and diamonds), in the order
    played from the leader (``▸``), and who took it; or that none is completed yet."""
    if not view.completed:
        return Text("No trick completed yet this deal.")
    last = view.completed[-1]
    cards = dict(last.cards)
    leader = last.cards[0][0]
    out = Text(f"Last trick, taken by {view.names[last.winner]}:\n  ")
    out.append_text(Text("  ").join(_trick_cell(view, s, cards, leader, True, red) for s, _ in last.cards))
    return out


_HINT_ROW = re.compile(r"(?P<label>.+?)(?: (?P<tricks>-?\d+\.\d\d) tricks)? (?P<points>[+-]\d+\.\d\d) points")
"""A row of estimates with its spaces closed up: ``3C 2.94 tricks +1.20 points`` (``tricks`` may be absent)."""
_CONTRACT_CODES = {c.word: c.code for c in Contract}
"""A contract's word in a hint row and its code, what the contract prompt takes: ``no-trump`` -> ``NT``."""
HINT_NUMBERS_NOTE = "  (tricks, points)"
"""Said once above the rows of estimates when they are shown as bare numbers (a deal log of 20 columns)."""


def _hint_row(closed: str, form: int) -> str:
    """A closed-up row of estimates in ``form``: 0 as it is; 1 ``pts`` for ``points``; 2 also a contract by its code
    (``NT``, not ``no-trump``); 3 also the numbers without their words (under :data:`HINT_NUMBERS_NOTE`)."""
    m = _HINT_ROW.fullmatch(closed)
    if form == 0 or m is None:
        return closed
    label, tricks, points = m["label"], m["tricks"], m["points"]
    if form >= 2:
        label = _CONTRACT_CODES.get(label, label)
    if form >= 3:
        return " ".join(x for x in (label, tricks, points) if x is not None)
    return " ".join(x for x in (label, f"{tricks} tricks" if tricks is not None else None, f"{points} pts")
                    if x is not None)


def hint_log_lines(lines: list[str], width: int) -> list[str]:
    """The hint's lines for the deal log, ``width`` columns: each row of estimates with its spaces closed up
    (``3C 2.94 tricks +1.20 points``), in the first of these forms in which every row fits: as it is; "pts" for
    "points"; a contract by its code (``NT 8.50 tricks -0.44 pts``: at 80x24 ``no-trump`` rows broke before their
    points); the numbers alone under one line saying what they are (``(tricks, points)``, then ``NT 8.50 -0.44``: a
    log of 20 columns at 64x20). What still does not fit (a set of discards) hangs deeper under its row; notes are
    broken between words."""
    out: list[str] = []
    rows = [" ".join(x.split()) for x in lines if x.startswith("  ") and not x.startswith("  (")]
    form = next((f for f in range(4) if all(len("  " + _hint_row(r, f)) <= width for r in rows)), 3)
    noted = False
    for line in lines:
        if line.startswith("  ") and not line.startswith("  ("):  # a row of estimates
            if form == 3 and not noted:
                out.extend(tui.wrap_note(HINT_NUMBERS_NOTE, width))
                noted = True
            closed = _hint_row(" ".join(line.split()), form)
            # its end, broken off at 28 columns, stood at the rows' own indent and read as a row of its own ('points')
            first, *rest = tui.wrap_note(closed, width, indent="  ")
            out.append(first)
            if rest:
                out.extend(tui.wrap_note(" ".join(x.strip() for x in rest), width, indent="    "))
        else:
            out.extend(tui.wrap_note(line, width, indent="  " if line.startswith("  ") else ""))
    return out


def hint_panel_lines(lines: list[str], width: int, height: int) -> list[str]:
    """The hint's lines for a panel of ``width`` columns and ``height`` rows (its last row for the key to close it,
    after a blank one), in their order: notes broken between words; in too few rows the footnote on points goes
    first, then the rows of estimates from the last, said in one line (``... 6 more choices in the deal log``)."""

    def is_row(x: str) -> bool:
        return x.startswith("  ") and not x.startswith("  (")

    def laid_out(texts: list[str], rows: int) -> list[str]:
        out: list[str] = []
        total = sum(1 for x in texts if is_row(x))
        for x in texts:
            if not is_row(x):
                out.extend(tui.wrap_note(x, width, indent="  " if x.startswith("  ") else ""))
            elif rows > 0:
                out.append(x)
                rows -= 1
                if rows == 0 and total > sum(1 for y in out if is_row(y)):
                    more = total - sum(1 for y in out if is_row(y))
                    out.append(f"  ... {more} more choice{'s' if more != 1 else ''} in the deal log")
        return out + [""]

    room = height - 1
    every = sum(1 for x in lines if is_row(x))
    for texts in (lines, [x for x in lines if not x.startswith("  (points:")]):
        out = laid_out(texts, every)
        if len(out) <= room:
            return out
    fixed = len(laid_out(texts, 0)) + 1  # the head and notes, the blank row, and the line saying how many more
    return laid_out(texts, max(1, room - fixed))


def help_body() -> Group:
    """The help panel: each heading, then its paragraphs indented by two, broken between words at any width."""
    parts: list[RenderableType] = []
    for heading, paragraphs in HELP:
        parts.append(Text(heading, style="bold"))
        parts.extend(Padding(Text(x), (0, 0, 0, 2)) for x in paragraphs)
    return Group(*parts, Text(), Text(ANY_KEY_CLOSES, style="bold"))


class TableApp(App[None]):
    """The full-screen table. ``start_game`` builds the :class:`TableGame` and runs its loop in a worker thread."""

    TITLE = "Sergeant Major"
    ENABLE_COMMAND_PALETTE = False  # Textual's palette (themes, screenshots) is no game command; its ^p cut the footer
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    #main { height: 1fr; }
    #table { width: 1fr; }
    #seats { height: auto; }
    .seat { width: 1fr; height: auto; min-height: 6; border: round $secondary; padding: 0 1; }
    .seat.to-act { border: heavy $accent; }
    TableApp.slim .seat { padding: 0; }
    #trick { width: 1fr; height: 1fr; min-height: 1; padding: 0 1; content-align: center middle; }
    #log { width: 40%; border: round $secondary; }
    #me { height: 1; padding: 0 1; }
    #hand { height: 2; padding: 0 1; }
    .card { width: auto; height: 2; margin-right: 1; text-style: dim; }
    .card.legal { text-style: none; }
    .card.selected { background: $accent 40%; text-style: bold underline; }
    .card.cursor { text-style: reverse bold; }
    #what { height: auto; padding: 0 1; }
    #message { height: auto; padding: 0 1; }
    #message.empty { display: none; }
    #line { height: 1; border: none; padding: 0 1; }
    #too-small { display: none; height: 1fr; padding: 1 2; content-align: center middle; text-style: bold; }
    TableApp.too-small #too-small { display: block; }
    TableApp.too-small #top, TableApp.too-small #main, TableApp.too-small #me, TableApp.too-small #hand,
    TableApp.too-small #what, TableApp.too-small #message, TableApp.too-small #line { display: none; }
    """
    MIN_SIZE = (64, 20)  # columns, rows: a 20-card hand in one line, the trick with all three seats
    FULL_FOOTER_WIDTH = 80  # under this the footer is compact and leaves F5 out (saving is automatic; F1 lists it)
    SLIM_WIDTH = 72  # under this many columns the seat panels lose their padding ('eldest, playmaker' on one line)
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "hint", "Hint"),
        Binding("f3", "last", "Last trick"),
        Binding("f4", "scores", "Scores"),
        Binding("f5", "save", "Save"),
        Binding("f5", "save_unlisted", "Save", show=False),  # F5 where the footer has no room for it (narrow_footer)
        Binding("f6", "forced", "Forced cards"),
        Binding("ctrl+q", "quit_game", "Quit", priority=True),
        Binding("ctrl+c", "quit_game", "Quit", show=False, priority=True),
    ]

    def __init__(self, match: Match, kinds: list[str], save_path: Path, new_file: bool = True,
                 settings: Settings | None = None, delay: float = 0.0, intro: list[str] | None = None,
                 deal_start: Match | None = None) -> None:
        super().__init__()
        self.game = TableGame(self, match, kinds, save_path, new_file=new_file, settings=settings, delay=delay,
                              deal_start=deal_start)
        self.view: View | None = None
        self.waiting = False  # the worker waits for a line of the human
        self.cursor = 0
        self.selected: set[int] = set()
        self.stepped = False  # the player moved the cursor or selected at this decision: Enter may take its card
        self.intro = intro or []
        self.panel: str | None = None
        self.hidden_panels: list[tuple[str, PanelBody]] = []  # panels waiting, bottom first, for a table that fits
        self.worker: threading.Thread | None = None
        self.error: BaseException | None = None
        self.updates = 0  # screens drawn for a view (the benchmark waits on it)
        self.asks = 0  # questions put to the human so far (tests wait for the next one)
        self.thinking = False  # a hint is being worked out
        self.size_now = (0, 0)  # the terminal's columns and rows as last fitted (fit_terminal)

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="seats"):  # in seat order from your left: left, across (four players), right
                    yield SeatWidget(id="left", classes="seat")
                    if self.game.match.rules.players == 4:
                        yield SeatWidget(id="across", classes="seat")
                    yield SeatWidget(id="right", classes="seat")
                yield TrickWidget(id="trick")
            yield DealLog(id="log")
        yield Static(id="me")
        yield Horizontal(id="hand")
        yield Static(id="what")
        yield Static(id="message", classes="empty")
        yield CardInput(id="line", placeholder="type a card (QS, 10h, Q♠) or use ← → and Enter")
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", DealLog)
        log.border_title = "Deal log"
        for line in self.intro:
            log.add(Text(line))
        self.show_view(self.game.match.view(HUMAN), False)
        entry = self.query_one("#line", CardInput)
        entry.cursor_blink = False  # a steady cursor: nothing on the table moves by itself
        entry.focus()
        self.worker = threading.Thread(target=self._run_game, name="sergeant-major-game", daemon=True)
        self.worker.start()

    def _run_game(self) -> None:
        try:
            self.game.run()
        except BaseException as e:  # noqa: BLE001 (shown after the screen is restored)
            self.error = e
            with contextlib.suppress(RuntimeError):
                self.call_from_thread(self.exit)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#log", DealLog).styles.width = self.log_columns(event.size.width)
        self.set_class(event.size.width < self.SLIM_WIDTH, "slim")
        narrow = event.size.width < self.FULL_FOOTER_WIDTH
        if narrow != self.has_class("narrow-footer"):
            self.set_class(narrow, "narrow-footer")
            self.query_one(Footer).compact = narrow
            self.refresh_bindings()
        self.fit_terminal(event.size.width, event.size.height)
        self.draw_top(event.size.width)
        self.draw_me(event.size.width)

    def log_columns(self, width: int) -> int:
        """The deal log's columns in a terminal ``width`` wide: 40% (30% for four players under 100 columns), give or
        less a column or two so that the seat panels beside it are equally wide (and say the same in the same words)."""
        n = self.game.match.rules.players
        log = int(width * (0.3 if n == 4 and width < 100 else 0.4))
        return log - (width - log) % (n - 1)  # the table's columns the panels could not share equally go to them

    def draw_top(self, width: int | None = None) -> None:
        """The top line for :attr:`view`: the deal, the game, how the match ends and the contract; in a narrow
        terminal the game by its targets only (``5-3-2-2``, not ``5-3-2-2 (9-5-2 rules, 4 players)``), so the
        contract stays on screen. ``width``: the terminal's columns (default: the app's, before a resize event)."""
        if self.view is not None:
            room = (self.size.width if width is None else width) - 2  # the line's padding
            self.query_one("#top", Static).update(Text(top_line(self.view, room)))

    def draw_me(self, width: int | None = None) -> None:
        """Your line under the table for :attr:`view` (:func:`me_text`), for ``width`` columns (default: the app's)."""
        if self.view is not None:
            self.query_one("#me", Static).update(me_text(self.view, (self.size.width if width is None else width) - 2))

    def fit_terminal(self, width: int, height: int) -> None:
        """Show the table, or in a terminal under :data:`MIN_SIZE` only a line asking for a larger one; the panels
        over the table are then put aside (:attr:`hidden_panels`), to be shown again when the terminal fits."""
        need_w, need_h = self.MIN_SIZE
        small = width < need_w or height < need_h
        was_small = self.has_class("too-small")
        self.size_now = (width, height)
        self.set_class(small, "too-small")
        self.draw_too_small()
        if was_small != small:
            self.refresh_bindings()
        if small and not was_small:  # panels give way to the line asking for room, and keys no longer reach them
            while isinstance(self.screen, Panel):
                self.hidden_panels.insert(0, (self.screen.kind, self.screen.body))
                self.pop_screen()
        if was_small and not small:
            self.query_one("#line", CardInput).focus()
            for kind, body in self.hidden_panels:
                self.push_screen(Panel(kind, body))
            self.hidden_panels.clear()

    def draw_too_small(self) -> None:
        """The line asking for a larger terminal, with what has been typed meanwhile (:meth:`on_key`)."""
        need_w, need_h = self.MIN_SIZE
        width, height = self.size_now
        typed = self.query_one("#line", CardInput).value
        self.query_one("#too-small", Static).update(Text(
            f"The table needs a terminal of at least {need_w}x{need_h}; this one is {width}x{height}.\n"
            "Make the window larger (Ctrl-Q saves and quits)." + (f"\nTyped so far: {typed}" if typed else "")))

    def on_key(self, event: events.Key) -> None:
        """While the terminal is too small for the table, the letters and digits of a card or a command go on into
        the line (Backspace takes the last back), shown under the request for room; they were dropped. Enter and the
        other keys still do nothing on a table the player cannot see, nor on a result panel waiting for room."""
        if not self.has_class("too-small") or self.hidden_panels:
            return
        line = self.query_one("#line", CardInput)
        if event.key == "backspace":
            line.action_delete_left()
        elif event.is_printable and event.character is not None:
            line.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        self.draw_too_small()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only quitting while the terminal is too small for the table (a panel would hide the line saying so); F5
        left out of a narrow footer (its key then runs ``save_unlisted``)."""
        if action == "save" and self.has_class("narrow-footer"):
            return False
        return action == "quit_game" or not self.has_class("too-small")

    def log_width(self) -> int:
        """The deal log's columns for text (without its scroll bar): 20 at 64 columns, 28 at 80."""
        return max(12, self.query_one("#log", DealLog).scrollable_content_region.width)

    def say(self, text: str | Text) -> None:
        """Show ``text`` under your hand (a refusal, a note on a key); ``''`` takes the line away (no empty row)."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(not text, "empty")

    # ---------------------------------------------------------------- from the worker
    def add_log(self, line: Text, style: str = "") -> None:
        if self.no_color and style == "bold red":  # monochrome draws red as dim grey: a refusal stays bright, in bold
            line = Text(line.plain, style="bold")
        self.query_one("#log", DealLog).add(line)
        if style == "bold red":  # a refusal: also under the hand, where the eye is
            self.say(line)

    def show_view(self, view: View, decide: bool) -> None:
        """Draw the table for ``view`` (the human's); ``decide``: it is the human's decision."""
        self.view = view
        if decide:
            self.selected = set()
            self.stepped = False
            self.say("")
            start = start_cursor(view)
            self.cursor = self.cursor if start is None else start
        self.draw_top()
        n = view.players
        seats = {"left": (view.seat + 1) % n, "right": (view.seat - 1) % n}
        if n == 4:
            seats["across"] = (view.seat + 2) % n
        for wid, s in seats.items():
            w = self.query_one(f"#{wid}", SeatWidget)
            w.border_title = ("◆ " if view.to_act == s else "") + view.names[s]  # ◆: whose turn it is
            w.border_subtitle = f"{view.hand_sizes[s]} cards"
            w.show(view, s)
            w.set_class(view.to_act == s, "to-act")
        self.query_one("#trick", TrickWidget).show(view)
        self.draw_me()
        self._draw_hand()
        what: list[Text] = []  # one Text a line, joined without a newline at the end (no empty row under them)
        if tui.is_minimum(view.contract):
            what.append(Text(MINIMUM_LINE, style="italic"))
        if decide and view.legal:
            help_ = tui.decision_help(view)
            if help_:
                what.append(Text(help_))
            choices = tui.assign_choices(view)
            if choices:
                what.append(Text("  ".join(choices)))
            if not isinstance(view.legal[0], (Play, Discard, Give, Return, EndGive)):
                what.append(Text("Type one of: " + " ".join(tui.legal_tokens(view)) + "  (or ← → and Enter)"))
            elif isinstance(view.legal[0], Play):
                what.append(Text("Your turn: play a card.", style="bold"))
        elif not decide:
            who = view.to_act
            if who is not None and who != view.seat:
                what.append(Text(f"{view.names[who]} is thinking...", style="dim"))
        self.query_one("#what", Static).update(Text("\n").join(what))
        self.updates += 1

    def _draw_hand(self) -> None:
        view = self.view
        if view is None:
            return
        hand = self.query_one("#hand", Horizontal)
        legal = self._legal_cards()
        cards = list(view.hand)
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        if legal and cards[self.cursor] not in legal:
            self.cursor = next(i for i, c in enumerate(cards) if c in legal)
        widgets = list(hand.query(CardWidget))
        if [w.card for w in widgets] != cards:
            hand.remove_children()
            widgets = [CardWidget(c, i, not self.no_color) for i, c in enumerate(cards)]
            hand.mount_all(widgets)
        for w in widgets:
            is_legal, at, sel = w.card in legal, w.index == self.cursor and bool(legal), w.index in self.selected
            if w.state == (is_legal, at, sel):  # only the cards that change are drawn again
                continue
            w.state = (is_legal, at, sel)
            w.set_class(is_legal, "legal")
            w.set_class(at, "cursor")
            w.set_class(sel, "selected")
            mark = ("▲" if at else "") + ("✓" if sel else "") or ("·" if is_legal else " ")
            w.update(card_label(w.card, w.red).append(f"\n{mark}", style="bold" if at or sel else "dim"))

    def _legal_cards(self) -> set[Card]:
        v = self.view
        if v is None or not self.waiting:
            return set()
        return {a.card for a in v.legal if isinstance(a, (Play, Discard, Give, Return))}

    def _multi(self) -> bool:
        v = self.view
        return v is not None and bool(v.legal) and isinstance(v.legal[0], (Discard, Give, Return, EndGive))

    def ask(self, prompt: str) -> None:
        self.asks += 1
        self.waiting = True
        if self.thinking:  # the hint is in the log now
            self.thinking = False
            self.say(Text("The hint is also in the deal log.", style="italic"))
        line = self.query_one("#line", CardInput)
        line.placeholder = f"{prompt.strip()} type here, or ← → and Enter" + (", Space selects" if self._multi() else "")
        self._draw_hand()

    def show_hint(self, lines: list[str]) -> None:
        """The hint's panel over the table (Enter or Escape closes it; the whole hint stays in the deal log): its lines
        broken at the terminal's width, and in a short terminal without the footnote on points, then without the rows
        of estimates that do not fit (the best first)."""
        body = Group(*(Text(x) for x in hint_panel_lines(lines, self.size.width - 8, self.size.height - 4)),
                     Text("Press Enter or Escape to close.", style="bold"))
        if self.has_class("too-small"):
            self.hidden_panels.append(("hint", body))
        else:
            self.push_screen(Panel("hint", body))

    def show_panel(self, kind: str, body: PanelBody) -> None:
        self.asks += 1
        self.panel = kind
        if self.has_class("too-small"):  # shown when the terminal is large enough again (fit_terminal)
            self.hidden_panels.append((kind, body))
        else:
            self.push_screen(Panel(kind, body))

    # ---------------------------------------------------------------- to the worker
    def send(self, line: str) -> None:
        self.panel = None
        if line != _CONTINUE:
            self.waiting = False
            self.query_one("#line", CardInput).placeholder = "(the other players' turn)"
        self.game.lines.put(line)
        self._draw_hand()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not self.waiting:
            if text:  # kept, not lost: Enter sends it when the turn comes
                self.say(
                    Text(f"'{text[:20]}' is kept: press Enter again on your turn.", style="bold"))
            return
        event.input.value = ""
        if not text:
            options = self.choices()
            if options:  # trump, contract, targets: the card under the cursor is no answer ('JS' is not a contract)
                self.say(Text(f"Nothing chosen: type one of {' '.join(options)}, or step to it with ← →, then Enter.",
                              style="bold"))
                return
            if self._legal_cards() and not self.stepped and len(self._legal_cards()) > 1:
                # the card under the cursor was never chosen (a discard sent the trump jack): say how to choose
                several = ", Space selects several" if self._multi() else ""
                self.say(Text(f"Nothing chosen: type a card (e.g. {self._example()}), or step to it with ← →{several}, "
                              "then Enter.", style="bold"))
                return
            text = self._line_from_hand()
            if not text:
                return
        self.say("")
        self.send(text)

    def _line_from_hand(self) -> str:
        v = self.view
        if v is None or not v.hand:
            return ""
        if self._multi():
            chosen = [v.hand[i] for i in sorted(self.selected)] or [v.hand[self.cursor]]
            return " ".join(str(c) for c in chosen)
        return str(v.hand[self.cursor])

    def _example(self) -> str:
        """A legal card as it may be typed (``5S``), for the message refusing an empty Enter."""
        v = self.view
        return str(v.hand[self.cursor]) if v is not None and v.hand else "QS"

    def choices(self) -> list[str]:
        """What the arrow keys step through at a decision that is not a card (trump, contract, targets): the legal
        tokens, e.g. ``['C', 'D', 'H', 'S']``; empty otherwise."""
        v = self.view
        if v is None or not self.waiting or not v.legal or self._legal_cards():
            return []
        return [t for t in tui.legal_tokens(v) if t != "done"]

    def move_cursor(self, key: str) -> None:
        v = self.view
        legal = self._legal_cards()
        options = self.choices()
        if options and key in ("left", "right", "home", "end"):  # trump, contract, targets: step through them
            entry = self.query_one("#line", CardInput)
            pos = options.index(entry.value) if entry.value in options else -1
            pos = {"home": 0, "end": len(options) - 1}.get(key, (pos + (1 if key == "right" else -1)) % len(options))
            entry.value = options[pos]
            entry.cursor_position = len(entry.value)
            return
        if v is None or not legal:
            return
        idx = [i for i, c in enumerate(v.hand) if c in legal]
        self.stepped = True
        if key == "space":
            if self._multi():
                self.selected ^= {self.cursor}
        elif key == "home":
            self.cursor = idx[0]
        elif key == "end":
            self.cursor = idx[-1]
        else:
            step = 1 if key == "right" else -1
            pos = idx.index(self.cursor) if self.cursor in idx else 0
            self.cursor = idx[(pos + step) % len(idx)]
        self._draw_hand()
        self.updates += 1

    def click_card(self, index: int) -> None:
        v = self.view
        if v is None or not self.waiting or v.hand[index] not in self._legal_cards():
            return
        self.cursor = index
        self.stepped = True
        if self._multi():
            self.selected ^= {index}
            self._draw_hand()
        else:
            self.send(str(v.hand[index]))

    # ---------------------------------------------------------------- keys
    def _command(self, cmd: str) -> None:
        if self.waiting:
            self.send(cmd)
        else:
            self.say(Text(f"'{cmd}' waits for your turn.", style="bold"))

    def action_help(self) -> None:
        self.push_screen(Panel("help", help_body()))

    def action_hint(self) -> None:
        if self.waiting:
            self.thinking = True
            self.say(Text("The expert is thinking about a hint...", style="italic"))
        self._command("hint")

    def action_last(self) -> None:
        v = self.view
        if v is None:
            return
        self.push_screen(Panel("last", Group(last_trick_body(v, not self.no_color), Text(),
                                            Text(ANY_KEY_CLOSES, style="bold"))))

    def action_scores(self) -> None:
        if self.view is not None:
            self.push_screen(Panel("scores", sheet_panel(self.view, [], [Text(), Text(ANY_KEY_CLOSES, style="bold")])))

    def action_save(self) -> None:
        self._command("save")

    def action_save_unlisted(self) -> None:
        self.action_save()

    def action_forced(self) -> None:
        msg = self.game.set_play_forced(not self.game.settings.play_forced)
        self.say(Text(msg, style="bold"))

    def action_quit_game(self) -> None:
        self.game.leave_requested = True
        self.game.lines.put("quit")


def start_cursor(view: View) -> int | None:
    """Where the cursor starts at a decision of ``view``'s seat: at a discard, a give or a return on the lowest card
    outside trump (the usual card to part with, not the highest trump the hand starts with); an index into
    ``view.hand``. ``None`` at a play (the cursor stays where it was, on a legal card) or with no card to choose."""
    cards = [a.card for a in view.legal if isinstance(a, (Discard, Give, Return))]
    if not cards:
        return None
    side = [c for c in cards if c.suit != view.trump] or cards
    low = min(side, key=lambda c: (c.rank, view.hand.index(c) if c in view.hand else 0))
    return view.hand.index(low) if low in view.hand else 0


def top_line(view: View, room: int) -> str:
    """The table's top line in ``room`` cells: the deal, the game, how the match ends and the contract; too narrow, the
    game by its targets only (``5-3-2-2``, not ``5-3-2-2 (9-5-2 rules, 4 players)``), then the declarer's name cut with
    an ellipsis, so that the contract and its closing parenthesis stay on screen."""
    r = view.rules
    end = tui.match_end_words(r)
    for title in (tui.game_title(r), "-".join(map(str, r.targets))):
        head = f"{tui.deal_words(view)} · {title}" + (f" · {end}" if end else "") + " · "
        line = head + _contract_words(view)
        if cell_len(line) <= room:
            return line
    if view.contract is not None:  # a long name (up to 40 characters) of the declarer
        by = Text(view.names[view.declarer])
        by.truncate(max(1, by.cell_len - (cell_len(line) - room)), overflow="ellipsis")
        line = head + _contract_words(view, by.plain)
    return line


def _contract_words(view: View, by: str | None = None) -> str:
    """The contract and who named it (``by``: the declarer's name as shown, default whole)."""
    c = view.contract
    if c is None:
        word = "contract" if view.rules.has_nt_mt else "trump"
        return f"{word} not named yet"
    by = view.names[view.declarer] if by is None else by
    if c.trump is not None:
        return f"trump {Suit(c.trump).symbol} {c.word} ({by})"
    return f"{c.word} ({by})"


class _HangupSafeStream:
    """The stream Textual writes the screen to, dropping writes once the terminal is gone (its window closed):
    Textual's writer thread dies on the first failed write, and every later write would then wait forever."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except OSError:
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except OSError:
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def run_table(app: TableApp) -> int:
    """Run ``app`` in the terminal and then say where the match was saved. SIGTERM and SIGHUP (a closed
    terminal) save and leave as Ctrl-Q does. Returns the exit code (0)."""
    previous: dict[int, Any] = {}

    def leave(signum: int, frame: object) -> None:
        app.action_quit_game()

    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                previous[sig] = signal.signal(sig, leave)
    screen_stream = sys.__stderr__
    if screen_stream is not None:  # Textual's driver takes sys.__stderr__ as the screen when the app starts
        setattr(sys, "__stderr__", _HangupSafeStream(screen_stream))  # noqa: B010 - typeshed calls it Final
    try:
        app.run()
    finally:
        setattr(sys, "__stderr__", screen_stream)  # noqa: B010
        app.game.leave_requested = True
        app.game.lines.put("quit")
        if app.worker is not None:
            app.worker.join(timeout=60)
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    if app.error is not None:
        raise app.error
    path = app.game.result_path
    with contextlib.suppress(OSError):
        if app.game.finished:
            for line in match_over_lines(app.game.match):
                print(line)
            print(f"Record saved to {path}")
        elif path is not None:
            print(f"Match saved to {path}")
            print(f"Continue with: sergeant-major play --resume {path}")
    return 0

