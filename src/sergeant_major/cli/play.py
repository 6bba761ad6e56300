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
import os
import random
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from sergeant_major.cli import tui
from sergeant_major.cli.app import app, parse_path, parse_seed, parse_whole_number, prepare_with_status
from sergeant_major.cli.records import record_error_text
from sergeant_major.cli.settings import Settings, load_settings, save_settings
from sergeant_major.core.actions import Action, Discard, EndGive, Give, Play, Return, TakeKitty
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import DealResult, Phase, role_name
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import has_visible, name_problem, quote, visible
from sergeant_major.core.view import View
from sergeant_major.players import LEVELS, Player, decision_rng, make_player
from sergeant_major.records import RecordCountError, check_record, read_record, read_records, write_record

__all__ = ["play", "default_save_dir", "save_name", "Game", "LeaveGame", "match_over_lines", "exchange_lines", "HUMAN"]

HUMAN = 0
OPPONENT_NAMES = ("Bob", "Cleo", "Dan")
MAX_NAME = 40  # characters in a player's name (a longer one broke the table's header; the web tables take 40)


def _leave_on_signals(game: Game) -> dict[int, Any]:
    """Handle Ctrl-C (SIGINT), SIGTERM and SIGHUP as ``quit``: at the prompt by raising :class:`LeaveGame` at once,
    elsewhere (a computer thinking, an action being applied, a hint being worked out) by asking the loop to stop
    before the next action, so no action is ever half applied (a Ctrl-C while a deal was scored saved it scored
    with its points not yet added to the totals). Returns the handlers replaced. Does nothing outside the main
    thread, where handlers cannot be set."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous

    def leave(signum: int, frame: object) -> None:
        game.leave_requested = True
        if game.at_prompt:
            raise LeaveGame()

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            previous[sig] = signal.signal(sig, leave)
    return previous


class LeaveGame(Exception):
    """The human asked to leave (``quit``, Ctrl-C, end of input)."""


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


def _kind_of(path: Path) -> str:
    """What ``path`` (existing, not a folder) is, for a message: "a file", "a device", "a pipe" or "a socket"."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return "a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


class Game:
    """One terminal session: the match, the players by seat (``None`` for the human) and the console.

    Args:
        match: the match to play on (new or rebuilt from a record).
        kinds: each seat's kind (``"human"`` at seat 0, else a level of :data:`players.LEVELS`).
        save_path: where ``quit`` and the end write the record.
        console: the rich console to print on.
        ask: reads one line after showing a prompt (``input``-like; raises ``EOFError``/``KeyboardInterrupt``).
        new_file: the first save never replaces an existing file: when ``save_path`` is taken (another match
            saved under the same name, e.g. the same seed in the same second) it goes to ``NAME-2.json``...,
            and :attr:`save_path` becomes that name, where every later save of this match goes. ``False``
            (resuming a saved match): ``save_path`` is this match's own file and is replaced.
    """

    def __init__(self, match: Match, kinds: list[str], save_path: Path, console: Console,
                 ask: Callable[[str], str] | None = None, new_file: bool = True,
                 settings: Settings | None = None) -> None:
        self.match = match
        self.kinds = kinds
        self.players: list[Player | None] = [None if k == "human" else make_player(k) for k in kinds]
        self.save_path = save_path
        self._own_file = not new_file  # save_path is this match's own file (saved once, or the file resumed)
        self._autosave_failed = False
        self.leave_requested = False  # set by Ctrl-C, SIGTERM, SIGHUP: stop before the next action
        self.at_prompt = False  # waiting for the human's input
        self.console = console
        self.ask = ask or (lambda p: console.input(p))
        self._group: tuple[str, int, int, str] | None = None  # kind, giver, receiver, giver with role
        self._group_cards: list[Card | None] = []
        self._announced_deal = 0
        self.settings = settings if settings is not None else Settings()
        self._hint_note_shown = False  # the hint's footnote on points is said once a session

    # ------------------------------------------------------------------ output
    def say(self, text: str | Text, style: str = "") -> None:
        """Say one line of what happened (after the cards passed so far, grouped)."""
        self._flush()
        self.emit(text, style)

    def emit(self, text: str | Text, style: str = "") -> None:
        """Put one line on the screen (line mode: print it)."""
        if isinstance(text, str):
            self.console.print(text, style=style, highlight=False, markup=False, soft_wrap=True)
        else:
            self.console.print(text, highlight=False)

    def _pass(self, kind: str, giver: int, receiver: int, card: Card | None) -> None:
        """Collect consecutive cards passed the same way (gives, returns, discards) into one line;
        ``card`` is ``None`` when the human may not see it (then only the count is printed)."""
        d = self.match.deal
        key = (kind, giver, receiver, tui.who(self.match.names, giver, d.dealer, d.declarer))
        if self._group != key or (card is None) != (self._group_cards[0] is None):
            self._flush()
            self._group = key
        self._group_cards.append(card)

    def _flush(self) -> None:
        if self._group is None:
            return
        kind, g, r, w = self._group
        cards = [c for c in self._group_cards if c is not None]
        names = self.match.names
        if cards:
            text = tui.passed_text(kind, w, names[g], names[r], cards)
        else:
            text = tui.hidden_text(kind, g, r, len(self._group_cards), names)
        self._group = None
        self._group_cards = []
        self.say(text)

    def save(self) -> Path:
        """Write the match's record to :attr:`save_path` (atomically) and return the path. The first save of a
        new match claims a file name of its own (see ``new_file``), later ones replace that file.

        Raises:
            SergeantMajorError: quoting the folder or file that cannot be written and the system's reason.
        """
        folder = self.save_path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
            # 'File exists' or 'Not a directory' alone did not say which name is in the way
            why = (f"{str(blocker)!r} is {_kind_of(blocker)}, not a folder" if blocker is not None
                   else e.strerror or str(e))
            raise SergeantMajorError(f"cannot create the save folder {str(folder)!r}: {why}") from None
        path = write_record(self.match, self.save_path, self.kinds, {"program": "sergeant-major play",
                                                                     "saved": time.strftime("%Y-%m-%dT%H:%M:%S")},
                            unique=not self._own_file)
        self.save_path = path
        self._own_file = True
        return path

    def autosave(self) -> None:
        """:meth:`save` before each of the human's decisions, so a closed terminal or a killed process
        loses at most the decision being made. A failure is said once and play goes on."""
        try:
            self.save()
        except SergeantMajorError as e:
            if not self._autosave_failed:
                self._autosave_failed = True
                self.say(f"warning: autosave failed: {e}", style="yellow")

    def _final_save(self) -> Path:
        """:meth:`save`; when that fails, save to the system's temporary folder instead and say so, so
        the match is never lost at the end or on ``quit``."""
        try:
            return self.save()
        except SergeantMajorError as e:
            # a folder of this process's own (mode 0700), never a fixed path another user could have made
            fallback = Path(tempfile.mkdtemp(prefix="sergeant-major-")) / self.save_path.name
            self.save_path = fallback
            self._own_file = False
            path = self.save()
            with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP): the save comes first
                self.say(f"warning: {e}; saved to {fallback} instead", style="yellow")
            return path

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """Play until the end or until the human leaves; save either way. Returns the exit code (0).

        Ctrl-C, SIGTERM and SIGHUP (a closed terminal) are handled like ``quit`` while the game runs."""
        previous = _leave_on_signals(self)
        try:
            return self._run()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)

    def _run(self) -> int:
        m = self.match
        try:
            while not m.over:
                if self.leave_requested:
                    raise LeaveGame()
                self._announce_deal()
                forced = m.forced_action()
                if forced is not None:
                    self._apply(forced)
                    continue
                seat = m.to_act
                assert seat is not None
                p = self.players[seat]
                if p is None:
                    auto = self.forced_card()
                    if auto is not None:
                        last = m.deal.hands[HUMAN].bit_count() == 1
                        self._apply(auto, note=" (your last card)" if last else " (your only legal card)")
                        continue
                    self._human_turn()
                else:
                    deal = m.deal
                    view = m.view(seat)
                    action = p.choose(view, decision_rng(m.seed, seat, deal.number, len(deal.history)))
                    self._apply(action)
        except (LeaveGame, KeyboardInterrupt, EOFError):
            path = self._final_save()  # first: after a hang-up, writing to the terminal fails
            with contextlib.suppress(OSError):
                self._flush()
                self.left(path)
            return 0
        self._flush()
        path = self._final_save()
        self.match_over(path)
        return 0

    def forced_card(self) -> Action | None:
        """The card to play for the human without asking, or ``None``: the only legal card when it is the last card
        of the deal, or whenever it is the only one and :attr:`settings` ``play_forced`` is on."""
        view = self.match.view(HUMAN)
        if len(view.legal) != 1 or not isinstance(view.legal[0], Play):
            return None
        if len(view.hand) == 1 or self.settings.play_forced:
            return view.legal[0]
        return None

    def set_play_forced(self, on: bool) -> str:
        """Turn playing every forced card on or off and remember it in the user's settings; returns what to say."""
        self.settings.play_forced = on
        kept = save_settings(self.settings)
        state = "on: a card that is your only legal one is played for you" if on else \
            "off: only the last card of a deal is played for you"
        return f"Forced cards {state}" + ("" if kept else " (the settings file could not be written)")

    # ------------------------------------------------------------------ presentation (line mode; the full-screen
    # table overrides these and keeps the loop above)
    def left(self, path: Path) -> None:
        """Say that the match was saved on the way out, and how to go on."""
        self.console.print()
        self.say(f"Match saved to {path}")
        self.say(f"Continue with: sergeant-major play --resume {path}")

    def show_decision(self, view: View) -> None:
        """Show the table before the human's decision in ``view`` (line mode: the whole status)."""
        self.console.print()
        self.console.print(tui.status(view), highlight=False)

    def match_over(self, path: Path) -> None:
        """Say who won and why, the totals and where the record is."""
        for i, line in enumerate(match_over_lines(self.match)):
            self.say(line, style="bold" if i == 0 else "")
        self.say(f"Record saved to {path}")

    def _announce_deal(self) -> None:
        m = self.match
        d = m.deal
        if d.number == self._announced_deal:
            return
        self._announced_deal = d.number
        n = m.rules.players
        you = tui.is_you(m.names[d.dealer])
        deals = 'deal' if you else 'deals'
        if d.phase == Phase.ASSIGN:  # dealer-assigns-targets: the targets are the dealer's choice, not known yet
            roles = ", ".join(f"{m.names[s]} {role_name((s - d.dealer) % n)}" for s in range(n))
            line = (f"\n=== Deal {d.number}: {m.names[d.dealer]} {deals} and {'assign' if you else 'assigns'} the targets. "
                    f"Seats: {roles} ===")
        else:
            roles = ", ".join(f"{m.names[s]} {role_name((s - d.dealer) % n)} {d.targets[s]}" for s in range(n))
            line = f"\n=== Deal {d.number}: {m.names[d.dealer]} {deals}. Targets: {roles} ==="
        self.say(Text(line, style="bold cyan"))

    def _apply(self, action: Action, note: str = "") -> None:
        m = self.match
        deal = m.deal
        before = len(deal.completed)
        res = m.apply(action)
        text = tui.describe_public(action, deal, m.names, HUMAN)
        if text is not None:
            text += note
        if isinstance(action, (Give, Return, Discard)):
            kind = "discard" if isinstance(action, Discard) else ("give" if isinstance(action, Give) else "return")
            to = action.to if isinstance(action, (Give, Return)) else action.seat
            self._pass(kind, action.seat, to, action.card if text is not None else None)
        elif text is None:
            pass
        elif action.seat == HUMAN and isinstance(action, TakeKitty):
            self.say(text, style="green")
        else:
            self.say(text)
        if len(deal.completed) > before:
            t = deal.completed[-1]
            tally = ", ".join(f"{m.names[s]} {deal.tricks_won[s]}" for s in range(m.rules.players))
            self.say(f"  -> {m.names[t.winner]} {'win' if tui.is_you(m.names[t.winner]) else 'wins'} the trick ({tally})",
                     style="dim")
        if res is not None:
            self._deal_over(res, deal.number, deal.dealer)

    def _deal_over(self, res: DealResult, number: int, dealer: int) -> None:
        self.deal_over(res, number, dealer)

    def deal_over(self, res: DealResult, number: int, dealer: int) -> None:
        """Show a deal's result: tricks, scores, totals and the exchange it causes."""
        m = self.match
        self._flush()
        self.console.print()
        self.console.print(tui.deal_summary(res, number, m.totals, m.names, dealer))
        for line in exchange_lines(m, res):
            self.say(line)

    # ------------------------------------------------------------------ the human
    def _human_turn(self) -> None:
        m = self.match
        self.autosave()
        view = m.view(HUMAN)
        self._flush()
        self.show_decision(view)
        word = tui.prompt_word(view)
        while True:
            if self.leave_requested:
                raise LeaveGame()
            self.at_prompt = True
            try:
                line = self.ask(f"{word}> ")
            except KeyboardInterrupt:
                raise LeaveGame() from None
            finally:
                self.at_prompt = False
            cmd = line.strip().lower()
            if not cmd:
                continue
            if cmd in ("quit", "exit"):  # not "q": a lone Q is a queen typed short
                raise LeaveGame()
            if cmd == "save":
                try:
                    self.say(f"Saved to {self.save()}")
                except SergeantMajorError as e:
                    self.say(f"Refused [save]: {e}")
                continue
            if cmd in ("help", "?"):
                if tui.decision_help(view):
                    self.say(tui.decision_help(view))
                for k, v in tui.COMMANDS.items():
                    self.say(f"  {k:6} {v}")
                self.say("  Cards: QS 10h qs TD Q♠ Q♤ (several on one line for discards and gives).")
                continue
            if cmd == "hand":
                self.say(Text("Hand: ").append_text(tui.hand_text(view.hand)))
                self.say("Legal: " + " ".join(tui.legal_tokens(view)))
                continue
            if cmd == "last":
                done = view.completed
                self.say(f"Last trick: {tui.trick_text(done[-1], view.names)}" if done else "No trick completed yet this deal.")
                continue
            if cmd in ("scores", "sheet"):
                self.console.print(tui.score_sheet(view), highlight=False)
                continue
            if cmd in ("table", "show", "screen"):
                self.console.print(tui.status(view), highlight=False)
                continue
            if cmd == "hint":
                from sergeant_major.players.expert import hint_lines

                # the hint changes nothing, so Ctrl-C stops it at once, as at the prompt (its first use may compile
                # the solver for up to a minute); numba can swallow the interrupt and fail otherwise: that is the quit
                self.at_prompt = True
                try:
                    hints = hint_lines(view, decision_rng(m.seed, HUMAN, m.deal.number, len(m.deal.history)))
                except Exception:
                    if self.leave_requested:
                        raise LeaveGame() from None
                    raise
                finally:
                    self.at_prompt = False
                for hl in self.hint_text(hints, self.console.width):
                    self.say(hl)
                continue
            if cmd in ("forced", "forced on", "forced off"):
                on = not self.settings.play_forced if cmd == "forced" else cmd.endswith("on")
                self.say(self.set_play_forced(on))
                continue
            try:
                actions = self.build_actions(view, line)
            except SergeantMajorError as e:
                self.say(tui.refusal(line, e), style="bold red")
                continue
            for a in actions:
                self._apply(a)
            return

    def hint_text(self, hints: list[str], width: int) -> list[str]:
        """The hint's lines for a screen ``width`` columns wide: notes broken between words, and the footnote on
        points only the first time a hint is shown."""
        out: list[str] = []
        for hl in hints:
            if hl.startswith("  (points:"):
                if self._hint_note_shown:
                    continue
                self._hint_note_shown = True
            if hl.startswith("  ("):
                out.extend(tui.wrap_note(hl, width - 1))
            elif not hl.startswith("  "):
                out.extend(tui.wrap_note(hl, width - 1, indent=""))
            else:
                out.append(hl)
        return out

    def build_actions(self, view: View, line: str) -> list[Action]:
        """The actions a line stands for, checked on a copy of the deal first (all or nothing)."""
        items = tui.parse_line(view, line)
        if len(items) == 1 and not isinstance(items[0], Card):
            single = items[0]
            self.match.deal.clone().apply(single)  # raises IllegalActionError, nothing changes
            return [single]
        probe = self.match.deal.clone()
        out: list[Action] = []
        to: int | None = None  # the one player the cards of a line go to (the prompt names one)
        for i, c in enumerate(items):
            assert isinstance(c, Card)
            legal = probe.legal_actions() if probe.to_act == HUMAN and probe.forced_action() is None else []
            first = legal[0] if legal else None
            if isinstance(first, (Give, EndGive, Return)) and to is not None and first.to != to:
                first = None  # the next cards go to another player: asked for at a prompt of their own
            a: Action
            if isinstance(first, Discard):
                a = Discard(HUMAN, c)
            elif isinstance(first, (Give, EndGive)):
                a = Give(HUMAN, c, first.to)
                to = first.to
            elif isinstance(first, Return):
                a = Return(HUMAN, c, first.to)
                to = first.to
            else:
                for_whom = f" for {visible(self.match.names[to])}" if to is not None else ""
                raise tui.InputError(f"{quote(line.strip())}: only {i} card{'s' if i != 1 else ''} "
                                     f"{'is' if i == 1 else 'are'} asked now{for_whom}, not {len(items)}; nothing was done",
                                     "too many cards")
            probe.apply(a)
            out.append(a)
        return out


def match_over_lines(m: Match) -> list[str]:
    """The end of a match in words: who won and why, then the totals."""
    end = m.end
    assert end is not None
    winners = " and ".join(m.names[s] for s in end.winners)
    return [f"Match over: {winners} {'win' if tui.is_you(winners) or len(end.winners) > 1 else 'wins'} - {end.reason}.",
            "Totals: " + ", ".join(f"{m.names[s]} {tui.signed(t)}" for s, t in enumerate(m.totals))]


def exchange_lines(m: Match, res: DealResult) -> list[str]:
    """The exchange a deal's result causes in the next deal, in words (empty when none)."""
    if m.over or not m.rules.exchange or not any(res.diffs):
        return []
    plan = tui.exchange_plan(m.rules, res.diffs, m.deal.dealer, m.names)
    if not plan:
        return []
    head = ("Exchange next deal (unless it is played in no-trump or minimum tricks):"
            if m.rules.has_nt_mt else "Exchange next deal:")
    return [head, *("  " + line for line in plan)]


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
    seed: Annotated[str | None, typer.Option("--seed", help="Match seed, an integer (default: random, printed).")] = None,
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
                        f"({visible(match.end.reason)}); replay it instead (sergeant-major replay {resume}"
                        f"{f' --game {game}' if game is not None else ''})")
        if seed is not None or to is not None or rules != "9-5-2" or opponents != "heuristic" or name != "You":
            intro.append("(--rules, --seed, --to, --opponents and --name come from the saved match when resuming)")
        intro.append(f"Resuming {resume}: rules {match.rules}, seed {match.seed}, deal {match.deal.number}. Opponents: "
                     + ", ".join(f"{visible(match.names[i])} ({kinds[i]})" for i in range(1, len(kinds))) + ".")
        # a JSON Lines file is never overwritten by one record: the match is saved to a file of its own; so it
        # is with --save-dir (it was ignored: the match went on being saved over the file resumed)
        new_file = json_lines or save_dir is not None
        path = out_dir / save_name(match.seed) if new_file else resume
    else:
        if game is not None:
            raise _fail("--game picks a record of the --resume file; give --resume FILE too")
        try:
            # with --to, the game end is checked once --to is in place (it may be the end that can be reached:
            # "8-5-3 players=4" --to 10; docs/rules.md decision 13)
            r = Rules.parse(rules, check_end=to is None)
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

        table_app = TableApp(match, kinds, path, new_file=new_file, settings=settings, delay=0.4, intro=intro)
        game_: Game = table_app.game
    else:
        game_ = Game(match, kinds, path, console, ask=line_editing_input(), new_file=new_file, settings=settings)
    try:
        game_.save()  # before any play: a save folder or file that cannot be written is said now, not at the end
    except SergeantMajorError as e:
        raise _fail(str(e)) from None
    for line in intro:
        console.print(line, highlight=False, markup=False)
    if "expert" in kinds:
        from sergeant_major.players.expert import warm_up as warm_up_expert
        from sergeant_major.search import HAVE_NUMBA

        if HAVE_NUMBA:  # its kernels compile on first use (a minute with a cold numba cache): say so, not a silent stall
            try:
                prepare_with_status(console, "Preparing the expert players (compiled on first use: up to a minute)...",
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
