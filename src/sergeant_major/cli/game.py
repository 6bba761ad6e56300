"""The driving loop of a terminal match, shared by the line mode and the full-screen table of ``sergeant-major play``.

:class:`Game` runs the match: computer players choose from their own views with their own seeded generators,
forced actions are applied without asking, the match is saved before each of the human's decisions and on the way
out (``quit``, Ctrl-C, SIGTERM, SIGHUP, end of input). Its presentation methods (:meth:`Game.emit`,
:meth:`Game.show_decision`, :meth:`Game.deal_over`, :meth:`Game.left`, :meth:`Game.match_over`) print the line
mode; :class:`sergeant_major.cli.table.TableGame` overrides them for the full-screen table and keeps the loop.
"""

from __future__ import annotations

import contextlib
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from sergeant_major.cli import tui
from sergeant_major.cli.settings import Settings, save_settings
from sergeant_major.core.actions import Action, Discard, EndGive, Give, Play, Return, TakeKitty
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import DealResult, Phase, role_name
from sergeant_major.core.errors import IllegalActionError, SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.safetext import quote, visible
from sergeant_major.core.view import View
from sergeant_major.players import Player, decision_rng, make_player
from sergeant_major.records import write_record

__all__ = ["Game", "LeaveGame", "match_over_lines", "exchange_lines", "HUMAN"]

HUMAN = 0
"""The human's seat."""

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
                 settings: Settings | None = None, deal_start: Match | None = None) -> None:
        self.match = match
        # a resumed match: the same match at the start of its current deal, whose actions so far are told first
        self.deal_start = deal_start
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

    def refuse(self, text: str) -> None:
        """Say why a line was refused (line mode: broken between words, which an 80-column terminal would not do)."""
        for part in tui.wrap_note(text, self.console.width - 1, indent=""):
            self.say(part, style="bold red")

    def card_words(self, text: str, quoted: bool = False) -> str:
        """``text``, a line of the game's own naming cards (what was played or passed, the last trick, a rule's
        refusal, a hint), with its cards as this front end shows them: line mode keeps ``TH``, what its player types
        and its ``Legal:`` line lists (the table writes ``10♥``). ``quoted``: the text quotes a typed input
        (``'th'``), kept as typed."""
        return text

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
            text = self.card_words(tui.passed_text(kind, w, names[g], names[r], cards))
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

    def _tell_deal_so_far(self) -> None:
        """Say what happened in the current deal before it was resumed, in the words (and with the cards) the live
        game said, by applying its actions to :attr:`deal_start`; nothing if they do not apply."""
        start, self.deal_start = self.deal_start, None
        if start is None or start.deal.number != self.match.deal.number:
            return
        real, self.match = self.match, start
        try:
            self._announce_deal()
            for action in real.deal.history:
                self._apply(action)
        except SergeantMajorError:
            pass  # the live match is untouched; at worst its story is told in part
        finally:
            self.match = real

    def _run(self) -> int:
        m = self.match
        self._tell_deal_so_far()
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

    def path_words(self, path: Path) -> str:
        """A save's path as the game says it (line mode: whole, to be pasted)."""
        return str(path)

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
            text = self.card_words(text) + note
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
                    self.say(f"Saved to {self.path_words(self.save())}")
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
                self.say(self.card_words(f"Last trick: {tui.trick_text(done[-1], view.names)}") if done
                         else "No trick completed yet this deal.")
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
                why = tui.refusal(line, e)  # a rule's words name cards; a typing error's say what to type (QS)
                self.refuse(self.card_words(why, quoted=True) if isinstance(e, IllegalActionError) else why)
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
    return [f"Match over: {winners} {'win' if tui.is_you(winners) or len(end.winners) > 1 else 'wins'} - {tui.end_words(end)}.",
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


