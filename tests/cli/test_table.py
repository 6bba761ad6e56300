"""The full-screen table (Textual) driven by its pilot: whole matches of every preset typed and clicked as a person
would (cards typed, arrows and Enter, Space to select discards, result panels dismissed by a key), a resume, quit."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

pytest.importorskip("textual")

from _matchhelp import at_last_card  # noqa: E402

from sergeant_major.cli import tui  # noqa: E402
from sergeant_major.cli.settings import Settings  # noqa: E402
from sergeant_major.cli.table import CardInput, DealLog, TableApp, top_line, trick_lines  # noqa: E402
from sergeant_major.core.actions import Discard, EndGive, Give, NameContract, Play, Return  # noqa: E402
from sergeant_major.core.deal import Phase  # noqa: E402
from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.records import check_record, read_record  # noqa: E402

KINDS3 = ["human", "heuristic", "heuristic"]


@pytest.fixture(autouse=True)
def panels_take_keys_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pilot reads a panel the moment it opens: no wait for keys of that moment to pass (``Panel.SETTLE``; the
    test of that wait sets its own clock)."""
    from sergeant_major.cli.table import Panel

    monkeypatch.setattr(Panel, "SETTLE", 0.0)


async def ready(pilot, app: TableApp, since: int = -1, timeout: float = 60.0) -> str:  # type: ignore[no-untyped-def]
    """Wait until the table asks the human something (a question after the ``since``-th): ``'decide'``, a panel
    kind, or ``'gone'``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    await pilot.pause()
    while loop.time() < end:
        if app.asks <= since:
            if app.worker is not None and not app.worker.is_alive():
                return "gone"
            await pilot.pause(0.005)
            continue
        if app.panel in ("result", "end"):
            return app.panel
        if app.waiting and app.view is not None and app.view.legal:
            return "decide"
        if app.worker is not None and not app.worker.is_alive():
            return "gone"
        await pilot.pause(0.005)
    raise AssertionError("the table asked nothing within the timeout")


def screen_rows(app: TableApp) -> list[str]:
    """The terminal's rows as the player sees them (what Textual's compositor draws, every layer)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_in(app: TableApp, selector: str) -> list[str]:
    """The rows of the screen inside the content region of the widget ``selector``, right spaces stripped."""
    r = app.query_one(selector).content_region
    return [row[r.x:r.right].rstrip() for row in screen_rows(app)[r.y:r.bottom]]


async def worker_end(pilot, app: TableApp, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    """Wait (at most ``seconds``) for the game's worker to end: it saves the match first."""
    for _ in range(round(seconds * 100)):
        if app.worker is None or not app.worker.is_alive():
            return
        await pilot.pause(0.01)


async def quit_table(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-Q, then wait (at most 5 s) for the game's worker to save and end."""
    await pilot.press("ctrl+q")
    await worker_end(pilot, app)


async def decide(pilot, app: TableApp, seen: dict[str, int], prefer_mt: bool) -> None:  # type: ignore[no-untyped-def]
    view = app.view
    assert view is not None
    first = view.legal[0]
    step = seen.setdefault("steps", 0)
    seen["steps"] = step + 1
    if isinstance(first, Play):
        if step % 2:  # arrows + Enter: the cursor starts on a legal card, Right keeps it on one
            await pilot.press("right", "enter")
            seen["arrows"] = seen.get("arrows", 0) + 1
        else:  # typed, in a form a person types (10h, lower case)
            card = str(first.card)
            text = ("10" + card[1] if card[0] == "T" else card).lower()
            await pilot.press(*text, "enter")
    elif isinstance(first, Discard):
        need = view.rules.kitty_size - len(view.discards or ())
        for _ in range(need):  # select with Space, move on, then Enter discards the selection
            await pilot.press("space", "right")
        await pilot.press("enter")
        seen["discards"] = seen.get("discards", 0) + 1
    elif isinstance(first, (Give, Return, EndGive)):
        card = next(a.card for a in view.legal if isinstance(a, (Give, Return)))
        await pilot.press(*str(card), "enter")
        seen["exchange"] = seen.get("exchange", 0) + 1
    elif isinstance(first, NameContract):
        codes = [a.contract.code for a in view.legal if isinstance(a, NameContract)]
        code = "MT" if prefer_mt and "MT" in codes else codes[0]
        if code == "MT":
            seen["mt"] = seen.get("mt", 0) + 1
        await pilot.press(*code, "enter")
    else:  # target assignments: a number
        await pilot.press("1", "enter")


async def play_through(app: TableApp, size: tuple[int, int] = (120, 40), prefer_mt: bool = False,
                       quit_after: int | None = None) -> dict[str, int]:
    seen: dict[str, int] = {}
    async with app.run_test(size=size) as pilot:
        since = -1
        while True:
            what = await ready(pilot, app, since)
            since = app.asks
            if what == "gone":
                break
            if what == "result":
                seen["results"] = seen.get("results", 0) + 1
                if app.view is not None and app.view.contract is not None and app.view.contract.code == "MT":
                    buf = io.StringIO()
                    Console(file=buf, width=120).print(app.screen.body)  # type: ignore[attr-defined]
                    screen_text = buf.getvalue()
                    assert "At most" in screen_text  # the targets' column: ceilings
                    seen["mt_result"] = 1
                await pilot.press("enter")
                continue
            if what == "end":
                seen["end"] = 1
                await pilot.press("enter")
                break
            if quit_after is not None and seen.get("steps", 0) >= quit_after:
                await pilot.press("ctrl+q")
                break
            await decide(pilot, app, seen, prefer_mt)
        await worker_end(pilot, app, 20)
    return seen


def _app(tmp_path: Path, rules: str, seed: int, players: int = 3) -> TableApp:
    names = ["You", "Bob", "Cleo", "Dan"][:players]
    m = Match(Rules.parse(rules), seed, names)
    return TableApp(m, ["human"] + ["heuristic"] * (players - 1), tmp_path / "m.json", settings=Settings())


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["9-5-2 to=3", "8-5-3 to=3", "9-2-5 to=3", "9-5-2 players=4 to=3"])
def test_whole_match_of_each_preset(tmp_path: Path, rules: str) -> None:
    app = _app(tmp_path, rules, 11, 4 if "players=4" in rules else 3)
    seen = asyncio.run(play_through(app))
    assert seen.get("end") == 1 and app.game.finished and app.game.match.over
    deals = len(app.game.match.deals)
    assert seen.get("results", 0) == deals - 1  # a result panel after every deal but the last (the end's panel)
    assert seen["arrows"] >= 1 and seen["steps"] >= 5
    rec = read_record(app.game.result_path)  # type: ignore[arg-type]
    assert check_record(rec).over


def _drive_to_deal(m: Match, number: int) -> None:
    """Play ``m`` with the heuristic for every seat until deal ``number`` starts; the human never names MT (so that
    his last turn as playmaker, in the last three deals, is the minimum-tricks deal)."""
    from sergeant_major.players import HeuristicPlayer, decision_rng

    p = HeuristicPlayer()
    while m.deal.number < number:
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        s = m.to_act
        assert s is not None
        a = p.choose(m.view(s), decision_rng(m.seed, s, m.deal.number, len(m.deal.history)))
        if s == 0 and isinstance(a, NameContract) and a.contract.code == "MT":
            a = next(x for x in m.deal.legal_actions() if isinstance(x, NameContract) and x.contract.code != "MT")
        m.apply(a)


@pytest.mark.slow
def test_whole_358_match_with_minimum_tricks_and_exchange(tmp_path: Path) -> None:
    """The last three deals of a 3-5-8 match through the table at 80x24: the human's minimum-tricks deal (the one
    contract he has left), an exchange, a discard, the result panels and the match end after deal 18."""
    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    _drive_to_deal(m, 16)
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())
    seen = asyncio.run(play_through(app, size=(80, 24), prefer_mt=True))
    assert seen.get("end") == 1 and app.game.match.over and len(app.game.match.deals) == 18
    assert seen.get("mt") == 1 and seen.get("mt_result") == 1  # the human played his MT and saw its ceilings
    assert seen.get("exchange", 0) >= 1 and seen.get("discards", 0) >= 1


@pytest.mark.slow
def test_quit_saves_and_resume_goes_on(tmp_path: Path) -> None:
    app = _app(tmp_path, "9-5-2 to=3", 7)
    asyncio.run(play_through(app, quit_after=6))
    path = app.game.result_path
    assert path is not None and path.exists() and not app.game.finished
    before = len(app.game.match.deal.history)
    rec = read_record(path)
    resumed = check_record(rec)
    assert len(resumed.deal.history) == before and not resumed.over
    app2 = TableApp(resumed, KINDS3, path, new_file=False, settings=Settings())
    seen = asyncio.run(play_through(app2))
    assert seen.get("end") == 1 and app2.game.match.over
    assert check_record(read_record(path)).over  # the same file holds the finished match


def test_screen_shows_ceilings_contracts_left_and_legal_marks(tmp_path: Path) -> None:
    """One decision on screen: the playmaker's contract choice in 3-5-8 and, after MT, the targets as ceilings."""
    seed = 3
    m = Match(Rules.parse("3-5-8"), seed, ["You", "Bob", "Cleo"])
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await ready(pilot, app)
            left = str(app.query_one("#left").render())
            assert "left C D H S NT MT" in left
            await quit_table(pilot, app)

    asyncio.run(go())
    assert app.game.result_path is not None and app.game.result_path.exists()


def test_refused_card_is_said_and_changes_nothing(tmp_path: Path) -> None:
    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            before = len(app.game.match.deal.history)
            await pilot.press(*"1d", "enter")
            for _ in range(200):
                await pilot.pause(0.01)
                if "not a" in str(app.query_one("#message").render()):
                    break
            msg = str(app.query_one("#message").render())
            assert "'1d' is not a" in msg and "Refused" in msg
            assert len(app.game.match.deal.history) == before
            await quit_table(pilot, app)

    asyncio.run(go())



@pytest.mark.parametrize("size", [(80, 24), (64, 20)])
def test_a_long_refusal_is_shown_whole_under_the_hand(tmp_path: Path, size: tuple[int, int]) -> None:
    """A refusal longer than a line shows under the hand from the quoted input to its end, not its last piece."""
    m = Match(Rules.parse("9-5-2"), 3, ["You", "Bob", "Cleo"])  # seed 3: Cleo deals, the first decision is a lead
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.view is not None and app.view.phase is Phase.PLAY
            before = len(app.game.match.deal.history)
            await pilot.press(*"hello world", "enter")
            message = app.query_one("#message")
            for _ in range(200):
                await pilot.pause(0.01)
                if "e.g." in str(message.render()):
                    break
            text = str(message.render())
            assert text.startswith("Refused") and "'hello world'" in text and text.endswith("lists the commands)")
            assert message.region.height >= len(text) // size[0] + 1  # every line of it on the screen
            assert app.query_one("#line").region.y >= message.region.bottom  # nothing drawn over it
            assert len(app.game.match.deal.history) == before
            await quit_table(pilot, app)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (64, 20)])
def test_help_panel_breaks_its_paragraphs_between_words_with_their_indent(tmp_path: Path,
                                                                          size: tuple[int, int]) -> None:
    """F1's panel fits the terminal: no word of a paragraph falls alone to the heading's column."""
    app = _app(tmp_path, "9-5-2", 5)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            await pilot.press("f1")
            await pilot.pause(0.2)
            body = app.screen.query_one("#panel-body")
            lines = [strip.text for strip in body.render_lines(body.region.reset_offset)]
            inner = [x.strip("│╭╮╰╯─").rstrip() for x in lines]
            inner = [x[2:] for x in inner if x.strip()]  # the panel's padding
            headings = {"How to play", "Keys", "Press any key to close."}
            assert {x for x in inner if not x.startswith("  ")} == headings, inner
            assert inner[-1] == "Press any key to close."  # the last line is on the screen too
            await pilot.press("escape")
            await quit_table(pilot, app)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (64, 20)])
@pytest.mark.parametrize("key", ["f1", "f3", "f4"])
def test_the_help_last_trick_and_score_sheet_panels_say_any_key_closes_them(tmp_path: Path, key: str,
                                                                            size: tuple[int, int]) -> None:
    """F1's, F3's and F4's panels closed on any key but did not say so (the result and hint panels end with
    'Press Enter or Escape to close.'): their last line now says it, on the screen at the smallest size, and a
    key other than Enter or Escape closes them."""
    from sergeant_major.cli.table import Panel

    app = _app(tmp_path, "9-5-2", 5)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            await pilot.press(key)
            await pilot.pause(0.2)
            assert isinstance(app.screen, Panel)
            body = app.screen.query_one("#panel-body")
            lines = [strip.text.strip("│╭╮╰╯─ ") for strip in body.render_lines(body.region.reset_offset)]
            assert [x for x in lines if x][-1] == "Press any key to close.", lines
            assert any("│  Press any key to close." in x for x in screen_rows(app))  # within the terminal
            await pilot.press("x")
            await pilot.pause()
            assert not isinstance(app.screen, Panel)
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_card_typed_before_the_turn_is_kept_for_it(tmp_path: Path) -> None:
    """A card typed and entered while the others play is not lost: it stays in the line, and Enter plays it."""
    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            view = app.view
            assert view is not None
            typed = tui.legal_tokens(view)[0]  # the first thing the human may type (a trump suit here)
            app.waiting = False  # as while the computers play
            await pilot.press(*typed.lower(), "enter")
            await pilot.pause()
            assert app.query_one("#line", CardInput).value == typed.lower()
            assert "kept" in str(app.query_one("#message").render())
            assert app.game.lines.empty()
            app.waiting = True  # the turn comes
            await pilot.press("enter")
            await pilot.pause()
            assert app.query_one("#line", CardInput).value == ""
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_deal_log_breaks_its_lines_again_when_the_terminal_narrows(tmp_path: Path) -> None:
    """After a resize from 160 to 80 columns every line of the deal log fits the log's new width, words whole."""
    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(160, 40)) as pilot:
            await ready(pilot, app)
            log = app.query_one("#log", DealLog)
            long = "Bob led the queen of spades and every player followed suit with a small spade " * 2
            log.add(Text(long.strip()))
            await pilot.pause()
            wide = max(strip.cell_length for strip in log.lines)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            width = log.scrollable_content_region.width
            assert width < wide
            assert all(len(strip.text.rstrip()) <= width for strip in log.lines), width
            words = " ".join(strip.text.strip() for strip in log.lines)
            assert long.strip() in words  # broken at spaces only: joined again, the words are whole
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_deal_log_of_four_players_at_the_smallest_table_fits_its_width(tmp_path: Path) -> None:
    """At 64x20 with four players the log (30% of the width: 19 columns) was narrower than the 20 columns its lines
    were broken at, so each line was cut at the border ('Bob e', 'Cleo t')."""
    app = _app(tmp_path, "9-5-2 players=4", 5, players=4)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            log = app.query_one("#log", DealLog)
            width = log.scrollable_content_region.width
            assert all(len(strip.text.rstrip()) <= width for strip in log.lines), width
            words = " ".join(strip.text.strip() for strip in log.lines)
            assert "Targets: You dealer 5, Bob eldest 3, Cleo third 2, Dan fourth 2" in words
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_top_line_keeps_the_contract_in_a_narrow_terminal(tmp_path: Path) -> None:
    """At 64x20 with four players the top line was cut before the contract ('... · trump not'): the game is then
    named by its targets only; at 120 columns in full."""
    app = _app(tmp_path, "9-5-2 players=4", 5, players=4)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            top = str(app.query_one("#top").render())
            assert top == "Deal 1 · 5-3-2-2 · to 10 · trump not named yet", top
            await pilot.resize_terminal(120, 30)
            await pilot.pause()
            top = str(app.query_one("#top").render())
            assert top == "Deal 1 · 5-3-2-2 (9-5-2 rules, 4 players) · to 10 · trump not named yet", top
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_trick_shows_every_seat_at_the_smallest_table_of_358(tmp_path: Path) -> None:
    """At 64x20 in 3-5-8 the seat panels (the contracts left, the playmaker) take 9 rows, and the trick (at least 7
    rows) ran under your hand: your own place in the trick was never on the screen. It now keeps to the rows left,
    without its blank rows."""
    app = _app(tmp_path, "3-5-8", 5)  # seed 5: Bob leads, Cleo follows, you are to play

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            trick, main = app.query_one("#trick"), app.query_one("#main")
            assert trick.region.bottom <= main.region.bottom, (trick.region, main.region)
            shown = str(trick.render()).splitlines()
            assert len(shown) <= trick.content_region.height
            assert any("Bob" in x and "Cleo" in x for x in shown) and any("You" in x for x in shown), shown
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_terminal_too_small_for_the_table_asks_for_a_larger_one(tmp_path: Path) -> None:
    """Under 64x20 the table (cut at 50x14: the trick, the hand's last cards) gives way to a line naming the size it
    needs; made larger again, the table is back and the typed line plays."""
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            note = app.query_one("#too-small")
            assert not note.display and app.query_one("#main").display
            await pilot.resize_terminal(50, 14)
            await pilot.pause()
            assert note.display and not app.query_one("#main").display and not app.query_one("#hand").display
            assert "at least 64x20; this one is 50x14" in str(note.render())
            await pilot.press("f1", "f4")  # no panel over the line that asks for room
            await pilot.pause()
            assert len(app.screen_stack) == 1 and note.display
            await pilot.resize_terminal(64, 19)
            await pilot.pause()
            assert note.display and "this one is 64x19" in str(note.render())
            await pilot.resize_terminal(64, 20)
            await pilot.pause()
            assert not note.display and app.query_one("#main").display
            since = app.asks
            await pilot.press("h", "enter")
            await ready(pilot, app, since)
            assert app.game.match.deal.contract is not None and app.game.match.deal.contract.code == "H"
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_result_panel_waits_while_the_terminal_is_too_small(tmp_path: Path) -> None:
    """A deal's result panel, pushed while the terminal was under 64x20, covered the line asking for a larger one, and
    a key on it went on to the next deal: it now waits, hidden, until the table fits, as does one open when the
    terminal shrinks; Enter on the line that asks for room goes on to nothing."""
    from sergeant_major.cli.table import Panel

    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    def panels() -> list[str]:
        return [s.kind for s in app.screen_stack if isinstance(s, Panel)]

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            seen: dict[str, int] = {}
            since = -1
            while True:  # to your last choice of the first deal (the last card plays itself)
                assert await ready(pilot, app, since) == "decide"
                since = app.asks
                view = app.view
                assert view is not None
                if isinstance(view.legal[0], Play) and len(view.hand) == 2:
                    break
                await decide(pilot, app, seen, False)
            note = app.query_one("#too-small")
            await pilot.resize_terminal(50, 14)
            await pilot.pause()
            app.send(str(view.legal[0].card))  # as Enter on the line would; the deal ends while the terminal is small
            assert await ready(pilot, app, since) == "result"
            await pilot.pause()
            assert panels() == [] and note.display, panels()
            at_result = app.asks
            await pilot.press("enter", "x")
            await pilot.pause(0.2)
            assert app.panel == "result" and app.game.lines.empty() and app.asks == at_result
            await pilot.resize_terminal(64, 20)
            await pilot.pause()
            assert panels() == ["result"] and not note.display
            await pilot.resize_terminal(63, 20)  # an open panel gives way too, and comes back
            await pilot.pause()
            assert panels() == [] and note.display
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert panels() == ["result"]
            since = app.asks
            await pilot.press("enter")
            assert await ready(pilot, app, since) == "decide" and app.view is not None and app.view.deal_number == 2
            assert panels() == []
            await quit_table(pilot, app)

    asyncio.run(go())


def _358_minimum_tricks(m: Match) -> None:
    """3-5-8, seed 3: you are the playmaker and name minimum tricks (ceilings of 3, 5 and 8)."""
    from sergeant_major.core.actions import Contract
    from sergeant_major.players import HeuristicPlayer, decision_rng

    p = HeuristicPlayer()
    while m.to_act != 0 or m.forced_action() is not None:
        f = m.forced_action()
        m.apply(f if f is not None else p.choose(m.view(m.to_act), decision_rng(m.seed, m.to_act, 1, len(m.deal.history))))
    m.apply(NameContract(0, Contract.MINIMUM))


def _to_the_last_card(m: Match) -> None:
    from sergeant_major.players import HeuristicPlayer, decision_rng

    p = HeuristicPlayer()
    while not (m.to_act == 0 and m.deal.hands[0].bit_count() == 1):
        f = m.forced_action()
        m.apply(f if f is not None else p.choose(m.view(m.to_act), decision_rng(m.seed, m.to_act, 1, len(m.deal.history))))


def _table_at_your_last_two_cards(tmp_path: Path) -> TableApp:
    """A 9-5-2 table (seed 5) where you hold your last two cards and are to play: heuristic play up to there."""
    from sergeant_major.players import HeuristicPlayer, decision_rng

    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    p = HeuristicPlayer()
    while not (m.to_act == 0 and m.deal.phase == Phase.PLAY and m.deal.hands[0].bit_count() == 2):
        f = m.forced_action()
        s = m.to_act
        assert s is not None
        m.apply(f if f is not None else p.choose(m.view(s), decision_rng(m.seed, s, 1, len(m.deal.history))))
    return TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())


def test_a_result_panel_takes_no_key_of_the_moment_it_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter pressed twice on your card before last (the last plays itself) closed the deal's result the moment it
    opened, unseen. The panel now takes a key only once ``Panel.SETTLE`` seconds have passed without one: the second
    tap and a key held down leave it open; Enter after a pause closes it, and says so on the panel."""
    from sergeant_major.cli.table import Panel

    now = [1000.0]
    monkeypatch.setattr(Panel, "SETTLE", 0.4)
    monkeypatch.setattr(Panel, "clock", staticmethod(lambda: now[0]))
    app = _table_at_your_last_two_cards(tmp_path)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert await ready(pilot, app) == "decide"
            since = app.asks
            await pilot.press("enter")  # your card before last; the last one plays itself and the deal is scored
            assert await ready(pilot, app, since) == "result"
            at_result = app.asks
            await pilot.press("enter")  # the second tap, as the panel opens
            await pilot.pause()
            assert isinstance(app.screen, Panel) and app.screen.kind == "result"
            assert any("Press Enter for the next deal." in x for x in screen_rows(app)), screen_rows(app)
            for _ in range(6):  # Enter held down: its repeats keep coming, each within SETTLE of the one before
                now[0] += 0.1
                await pilot.press("enter")
            await pilot.click(offset=(1, 1))
            await pilot.pause()
            assert isinstance(app.screen, Panel) and app.screen.kind == "result"
            assert app.panel == "result" and app.game.lines.empty() and app.asks == at_result
            now[0] += 1.0
            await pilot.press("enter")  # a second later: the player has read the panel
            assert await ready(pilot, app, at_result) == "decide" and app.view is not None and app.view.deal_number == 2
            assert not isinstance(app.screen, Panel)
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_result_panel_closes_on_enter_or_escape_not_on_a_card_being_typed(tmp_path: Path) -> None:
    """The result panel says 'Press Enter for the next deal.', and the hint's panel now says Enter or Escape too: a
    letter (a card typed as the panel opened) leaves it open and reaches no one; Escape goes on as Enter does."""
    from sergeant_major.cli.table import Panel

    app = _table_at_your_last_two_cards(tmp_path)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert await ready(pilot, app) == "decide"
            since = app.asks
            await pilot.press("enter")
            assert await ready(pilot, app, since) == "result"
            at_result = app.asks
            await pilot.press("q", "s")
            await pilot.pause()
            assert isinstance(app.screen, Panel) and app.screen.kind == "result"
            assert app.game.lines.empty() and app.asks == at_result
            await pilot.press("escape")
            assert await ready(pilot, app, at_result) == "decide" and app.view is not None and app.view.deal_number == 2
            assert not isinstance(app.screen, Panel) and app.query_one("#line", CardInput).value == ""
            await quit_table(pilot, app)

    asyncio.run(go())


@pytest.mark.parametrize("second", ["key", "click"])
def test_a_double_tap_on_an_open_result_panel_closes_it_once(tmp_path: Path, second: str) -> None:
    """Two keys (or a key and a click) that reached the result panel before it was gone each dismissed it: the
    second popped the table's own screen (``ScreenStackError``) and the table crashed with a traceback. Seen in
    a real terminal: Enter pressed twice on the result panel once it took keys. The panel now closes once; the
    second is ignored, and the next deal comes."""
    from textual import events

    from sergeant_major.cli.table import Panel

    app = _table_at_your_last_two_cards(tmp_path)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert await ready(pilot, app) == "decide"
            since = app.asks
            await pilot.press("enter")
            assert await ready(pilot, app, since) == "result"
            at_result = app.asks
            panel = app.screen
            assert isinstance(panel, Panel)
            # both in the panel's queue before the first is handled, as a terminal delivers a double tap
            panel.post_message(events.Key("enter", "\r"))
            panel.post_message(events.Key("enter", "\r") if second == "key"
                               else events.Click(panel, 1, 1, 0, 0, 1, False, False, False))
            assert await ready(pilot, app, at_result) == "decide" and app.view is not None and app.view.deal_number == 2
            assert not isinstance(app.screen, Panel) and app.error is None
            await quit_table(pilot, app)

    asyncio.run(go())
    assert app.error is None


@pytest.mark.parametrize("prepare", [None, _358_minimum_tricks], ids=["contract", "minimum-tricks"])
def test_your_line_keeps_the_contracts_left_at_the_smallest_size(tmp_path: Path, prepare: object) -> None:
    """At 64x20 in 3-5-8 your line ran past the terminal's edge and lost ``MT`` from the contracts you have left; it
    now gives up your role (the deal log names it) before anything of the contracts or the scores."""
    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    if callable(prepare):
        prepare(m)
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            me = app.query_one("#me")
            text = str(me.render())
            left = "C D H S NT MT" if prepare is None else "C D H S NT"  # minimum tricks named: used up
            assert text.endswith(f"tricks 0 · total 0 · left {left}") and len(text) <= me.content_size.width, text
            assert ("at most 3" in text) == (prepare is not None), text
            await pilot.resize_terminal(120, 30)  # wide enough: the role is back
            await pilot.pause()
            assert str(me.render()).startswith("You · eldest, playmaker · "), str(me.render())
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_minimum_tricks_result_keeps_each_ceiling_on_its_row_at_the_smallest_size(tmp_path: Path) -> None:
    """The result panel of a minimum-tricks deal at 64x20 broke each target into 'at most' and '3' on two lines; its
    column is now headed 'At most' and holds the number."""
    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    _358_minimum_tricks(m)
    _to_the_last_card(m)
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            assert await ready(pilot, app) == "result"
            await pilot.pause()
            body = app.screen.query_one("#panel-body")
            buf = io.StringIO()
            Console(file=buf, width=body.content_size.width, color_system=None).print(app.screen.body)  # type: ignore[attr-defined]
            rows = buf.getvalue().splitlines()
            header = next(r for r in rows if "Player" in r)
            assert header.split() == ["Player", "Role", "At", "most", "Tricks", "Diff", "Score", "Total"], rows
            for name, ceiling in (("You", 3), ("Bob", 5), ("Cleo", 8)):
                (row,) = [r.split() for r in rows if r.split()[:2] == [name, {"You": "eldest", "Bob": "third"}.get(name, "dealer")]]
                assert row[2] == str(ceiling) and len(row) == 7, rows
            await quit_table(pilot, app)

    asyncio.run(go())


def test_no_color_makes_the_table_monochrome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = _app(tmp_path, "9-5-2", 5)
    assert app.no_color


@pytest.mark.slow
def test_hint_key_shows_the_hint_in_a_panel_and_the_log(tmp_path: Path) -> None:
    """F2 at 64x20: the hint in a panel over the table (its first row of estimates whole, the key to close it on the
    screen), and in the deal log, each row of it within the log's width."""
    from sergeant_major.cli.table import Panel

    app = _app(tmp_path, "9-5-2", 3)  # seed 3: you lead

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            since = app.asks
            await pilot.press("f2")
            await ready(pilot, app, since, timeout=120)
            await pilot.pause()
            assert isinstance(app.screen, Panel) and app.screen.kind == "hint"
            rows = screen_rows(app)
            assert any("Hint: the expert would choose" in x for x in rows), rows
            # a card as the hand shows it (10♥, Q♠)
            assert any(re.search(r"^\W*(10|[2-9JQKA])[♠♥♦♣] +\d+\.\d\d tricks +[+-]\d+\.\d\d points", x.strip("│ "))
                       for x in rows)
            assert any("Press Enter or Escape to close." in x for x in rows), rows
            await pilot.press("x")  # a card being typed does not close it (it said 'Press any key', unlike the others)
            await pilot.pause()
            assert isinstance(app.screen, Panel) and app.screen.kind == "hint"
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, Panel) and app.game.lines.empty()  # the key closed it, nothing more
            log = app.query_one("#log", DealLog)
            text = "\n".join(strip.text for strip in log.lines)
            assert "Hint: the expert would choose" in " ".join(strip.text.strip() for strip in log.lines)
            # a row closed up, one line: its numbers under '(tricks, points)' in the 20 columns of the log at 64x20
            assert re.search(r"\n  \(tricks, points\)\n  (10|[2-9JQKA])[♠♥♦♣] \d+\.\d\d [+-]\d+\.\d\d\n", text), text
            assert all(len(strip.text.rstrip()) <= log.scrollable_content_region.width for strip in log.lines)
            assert "hint is also in the deal log" in str(app.query_one("#message").render())
            await quit_table(pilot, app)

    asyncio.run(go())


def test_arrows_step_through_the_trump_suits(tmp_path: Path) -> None:
    """At the trump decision Left/Right put each suit in the line in turn and Enter names it."""
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            assert app.choices() == ["C", "D", "H", "S"]
            await pilot.press("right", "right", "left", "end")
            assert app.query_one("#line", CardInput).value == "S"
            since = app.asks
            await pilot.press("enter")
            await ready(pilot, app, since)
            assert app.game.match.deal.contract is not None and app.game.match.deal.contract.code == "S"
            await quit_table(pilot, app)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(64, 20), (80, 24)], ids=["64x20", "80x24"])
def test_each_seat_panel_line_stays_on_one_row_in_minimum_tricks(tmp_path: Path, size: tuple[int, int]) -> None:
    """At 64x20 in a 3-5-8 minimum-tricks deal Bob's panel broke 'target at most' and '5' onto two rows (and 'left C D H
    S NT' and 'MT'): each line now fits its panel, in a shorter form where it must ('at most 5', 'left CDHS NT MT')."""
    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    _358_minimum_tricks(m)  # you are the playmaker: Bob (left) has a ceiling of 5, Cleo (right) 8
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            for selector, role, ceiling in (("#left", "third", 5), ("#right", "dealer", 8)):
                rows = [x.strip() for x in shown_in(app, selector)]
                assert rows[0] == role and len([x for x in rows if x]) == 5, rows
                assert re.fullmatch(f"(target )?at most {ceiling}", rows[1]), rows
                assert rows[2:4] == ["tricks 0", "total 0"], rows
                assert rows[4] in ("left C D H S NT MT", "left CDHS NT MT"), rows
            if size == (80, 24):  # room enough: the long forms
                assert shown_in(app, "#left")[1].strip() == "target at most 5"
            await quit_table(pilot, app)

    asyncio.run(go())


def _trick_at(rules: str, seed: int, contract: str | None, cards_before_you: int, yours: bool) -> tuple[Match, object]:
    """A match (the heuristic playing every seat, whoever names the contract naming ``contract``) at the first trick where
    ``cards_before_you`` cards were played before your turn, and the view of your seat with your card added to it
    when ``yours`` (``None`` otherwise)."""
    from sergeant_major.core.actions import Contract
    from sergeant_major.players import HeuristicPlayer, decision_rng

    p = HeuristicPlayer()
    m = Match(Rules.parse(rules), seed, ["You", "Bob", "Cleo", "Dan"][:Rules.parse(rules).players])
    while True:
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        s = m.to_act
        assert s is not None and m.deal.number == 1, "no such trick in deal 1"
        legal = m.deal.legal_actions()
        if s == 0 and m.deal.phase is Phase.PLAY and len(m.deal.trick) == cards_before_you:
            break
        a = p.choose(m.view(s), decision_rng(m.seed, s, 1, len(m.deal.history)))
        if contract is not None and isinstance(a, NameContract):
            a = next(x for x in legal if isinstance(x, NameContract) and x.contract is Contract.parse(contract))
        m.apply(a)
    if not yours:
        return m, None
    after = Match(Rules.parse(rules), seed, list(m.names))
    for a in m.deal.history:
        after.apply(a)
    after.apply(p.choose(after.view(0), decision_rng(after.seed, 0, 1, len(after.deal.history))))
    return m, after.view(0)


@pytest.mark.parametrize(("rules", "seed", "contract"), [
    *(("3-5-8", 5, c) for c in ("S", "H", "D", "C", "NT", "MT")),
    ("9-5-2", 5, None), ("8-5-3", 5, None), ("9-2-5", 5, None), ("9-5-2 players=4", 5, None)], ids=lambda x: str(x))
def test_every_card_of_the_trick_is_in_view_at_the_smallest_size(tmp_path: Path, rules: str, seed: int,
                                                                 contract: str | None) -> None:
    """At 64x20 in a minimum-tricks deal the trick had one row (3-5-8's seat panels, the note under the hand broken in
    two and an empty row under it): your own card was off the screen. Every card of the trick in progress is now in
    view, with two cards before your turn, with your own card played, and under a refusal of three rows."""
    players = Rules.parse(rules).players
    m, mine = _trick_at(rules, seed, contract, players - 1, False)
    _, with_yours = _trick_at(rules, seed, contract, 1, True)
    app = TableApp(m, ["human"] + ["heuristic"] * (players - 1), tmp_path / "m.json", settings=Settings())

    def cards_in_view(view: object) -> None:
        from sergeant_major.cli.table import card_label
        trick, main = app.query_one("#trick"), app.query_one("#main")
        assert trick.region.y >= main.region.y and trick.region.bottom <= main.region.bottom, (trick.region, main.region)
        rows = " ".join(shown_in(app, "#trick"))
        for seat, card in view.trick:  # type: ignore[attr-defined]
            assert f"{m.names[seat]} {card_label(card).plain}" in rows, (rows, view.trick)  # type: ignore[attr-defined]

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            assert await ready(pilot, app) == "decide"
            await pilot.pause()
            assert app.view is not None and len(app.view.trick) == players - 1
            cards_in_view(app.view)
            await pilot.press(*"hello world", "enter")  # a refusal of three rows under the hand
            for _ in range(200):
                await pilot.pause(0.01)
                if "e.g." in str(app.query_one("#message").render()):
                    break
            await pilot.pause()
            assert app.query_one("#message").region.height >= 2
            cards_in_view(app.view)
            app.show_view(with_yours, False)  # type: ignore[arg-type]  # as after your card, the others to play
            await pilot.pause()
            assert any(seat == 0 for seat, _ in with_yours.trick)  # type: ignore[attr-defined]
            cards_in_view(with_yours)
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_trick_too_tall_for_its_rows_is_drawn_on_one_row(tmp_path: Path) -> None:
    """With a single row for the trick (a long refusal under the hand in a short terminal) the trick is drawn on one
    row in the order the seats play, from the leader: every card stays in view."""
    from sergeant_major.cli.table import trick_row

    _, view = _trick_at("3-5-8", 5, "MT", 1, True)  # Cleo led, you followed, Bob is to play
    assert trick_row(view, 60).plain == "▸Cleo 2♥  You 4♥  Bob ·"  # type: ignore[arg-type]
    app = _app(tmp_path, "3-5-8", 5)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            app.show_view(view, False)  # type: ignore[arg-type]
            app.query_one("#trick").styles.height = 1  # as when the rows under the table take all but one
            await pilot.pause()
            assert [x.strip() for x in shown_in(app, "#trick")] == ["▸Cleo 2♥  You 4♥  Bob ·"]
            await quit_table(pilot, app)

    asyncio.run(go())


def _newest_line_in_view(app: TableApp) -> None:
    log = app.query_one("#log", DealLog)
    newest = len(log.lines) - 1
    top, rows = round(log.scroll_y), log.scrollable_content_region.height
    assert top <= newest < top + rows, (top, rows, newest)
    shown = shown_in(app, "#log")
    assert log.lines[newest].text.strip() in [x.strip() for x in shown], (log.lines[newest].text, shown)
    if newest >= rows:  # a full log: no empty row at its top
        assert shown[0].strip(), shown


@pytest.mark.parametrize("steps", [
    ((120, 40), (80, 24), (64, 20)), ((64, 24), (64, 20)), ((64, 20), (120, 40), (64, 20))], ids=str)
def test_the_deal_log_keeps_its_newest_line_in_view_after_a_resize(tmp_path: Path,
                                                                  steps: tuple[tuple[int, int], ...]) -> None:
    """At 64x20 the deal log breaks its lines again after the first layout, and the rows under the hand grow after its
    lines are written: its offset was kept from before, so the newest line was hidden and an empty row showed at its
    top, or not, by the timing. It now scrolls to its end after each resize, with the new sizes known."""
    m, _ = _trick_at("3-5-8", 5, "MT", 2, False)  # you are third in a trick of the minimum-tricks deal
    intro = [f"Trick {i}: Bob (eldest, playmaker) plays 9S, Cleo (third) plays 2S, You (dealer) play 4S" for i in range(12)]
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings(), intro=intro)  # as a resumed match's log

    async def go() -> None:
        async with app.run_test(size=steps[0]) as pilot:
            assert await ready(pilot, app) == "decide"
            for size in steps[1:]:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                await pilot.wait_for_scheduled_animations()
                await pilot.pause()
                _newest_line_in_view(app)
            await pilot.press(*"hello world", "enter")  # a refusal: the log grows and the rows under the hand too
            for _ in range(200):
                await pilot.pause(0.01)
                if "e.g." in str(app.query_one("#message").render()):
                    break
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            _newest_line_in_view(app)
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_deal_log_has_no_empty_row_at_its_top(tmp_path: Path) -> None:
    """The first deal's heading starts with the blank row that separates deals: at the top of the log it was an empty
    first row."""
    app = _app(tmp_path, "9-5-2", 5)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            log = app.query_one("#log", DealLog)
            assert log.lines[0].text.startswith("=== Deal 1"), [x.text for x in log.lines[:2]]
            assert shown_in(app, "#log")[0].startswith("=== Deal 1")
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_footer_fits_the_smallest_table_and_f5_still_saves(tmp_path: Path) -> None:
    """At 64x20 the footer was cut after 'f5 Save  f' (F6's words off the screen): under 80 columns it is compact and
    leaves F5 out (the match saves itself before each decision; F1 lists the key), and F5 still saves."""
    app = _app(tmp_path, "9-5-2", 5)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            footer = screen_rows(app)[-1].rstrip()
            assert footer.endswith("f6 Forced cards") and "f1 Help" in footer and "f5" not in footer, footer
            since = app.asks
            await pilot.press("f5")
            await ready(pilot, app, since)
            log = " ".join(strip.text.strip() for strip in app.query_one("#log", DealLog).lines)
            assert "Saved to" in log, log
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "f5 Save  f6 Forced cards" in screen_rows(app)[-1], screen_rows(app)[-1]
            await quit_table(pilot, app)

    asyncio.run(go())


def test_the_hint_panel_keeps_to_the_rows_it_has() -> None:
    """16 rows of estimates and the footnote did not fit a panel at 64x20: its end (the key to close it) was off the
    screen. The footnote goes first, then the last rows, said in one line."""
    from sergeant_major.cli.table import hint_panel_lines

    rows = [f"  {c}S{' ' * 23}{6 - i / 10:5.2f} tricks   {1 - i / 10:+6.2f} points" for i, c in enumerate("23456789TJQKA")]
    hint = ["Hint: the expert would choose 2S (estimated over 40 sampled deals, each played out).", *rows,
            "  (points: the expert's utility - the deal's score, weighted up by a quarter when an exchange follows)"]
    assert hint_panel_lines(hint, 120, 40) == [hint[0], *rows, hint[-1], ""]  # room for all, each line whole
    small = hint_panel_lines(hint, 56, 16)
    assert len(small) == 16 - 1 and small[-1] == "" and all(len(x) <= 56 for x in small), small
    assert small[2:4] == rows[:2] and not any("points:" in x for x in small)  # the best first, no footnote
    shown = sum(1 for x in small if x in rows)
    assert small[-2] == f"  ... {len(rows) - shown} more choices in the deal log", small


def test_the_last_trick_panel_draws_cards_as_the_table_does(tmp_path: Path) -> None:
    """F3's panel said 'Bob 4D, Cleo KD, You 2D -> Cleo' while the table draws 4♦: it now draws the cards as the
    table does, in the order played from the leader, and says who took the trick."""
    from sergeant_major.cli.table import Panel, card_label

    m, _ = _trick_at("9-5-2", 5, None, 2, False)  # you are third to play to the first trick
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.press("f3")
            await pilot.pause()
            assert isinstance(app.screen, Panel)
            assert any("│  No trick completed yet this deal.  │" in x for x in screen_rows(app))
            await pilot.press("escape")
            since = app.asks
            await pilot.press("home", "enter")  # the first legal card, stepped to, completes the trick
            await ready(pilot, app, since)
            await pilot.press("f3")
            await pilot.pause()
            view = app.view
            assert view is not None and isinstance(app.screen, Panel)
            last = view.completed[0]
            rows = "\n".join(screen_rows(app))
            assert f"│  Last trick, taken by {view.names[last.winner]}:" in rows, rows
            assert "│    ▸" + "  ".join(f"{view.names[s]} {card_label(c).plain}" for s, c in last.cards) in rows, rows
            await pilot.press("escape")
            await quit_table(pilot, app)

    asyncio.run(go())


def test_an_indented_line_of_the_deal_log_keeps_its_indent_on_every_row(tmp_path: Path) -> None:
    """'  -> Bob wins the trick (You 0, Bob 1, Cleo 0)' broke at 64x20 into rows starting at the log's edge: each row
    of an indented line now starts as far in as its first, and again after a resize."""
    app = _app(tmp_path, "9-5-2", 5)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            log = app.query_one("#log", DealLog)
            before = len(log.lines)
            log.add(Text("  -> Bob wins the trick (You 0, Bob 1, Cleo 0)"))
            await pilot.pause()
            rows = [strip.text.rstrip() for strip in log.lines[before:]]
            assert len(rows) >= 2 and all(x.startswith("  ") and x[2] != " " for x in rows), rows
            assert " ".join(x.strip() for x in rows) == "-> Bob wins the trick (You 0, Bob 1, Cleo 0)"
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            rows = [strip.text.rstrip() for strip in log.lines if "Bob 1" in strip.text or "->" in strip.text]
            assert rows and all(x.startswith("  ") for x in rows), rows
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_note_under_the_hand_is_not_coloured_as_an_error(tmp_path: Path) -> None:
    """Every line under the hand was in the theme's error colour: a note ('save' waits for your turn, the hint is also
    in the deal log) read as a refusal. Only refusals are red now."""
    from rich.color import Color

    app = _app(tmp_path, "9-5-2", 5)

    def colours() -> set[tuple[int, int, int]]:
        r = app.query_one("#message").content_region
        strip = app.screen._compositor.render_strips()[r.y]
        return {tuple(seg.style.color.get_truecolor()) for seg in strip.crop(r.x, r.right)  # type: ignore[misc]
                if seg.text.strip() and seg.style and seg.style.color}

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            error = tuple(Color.parse(app.current_theme.error).get_truecolor())

            def red(c: tuple[int, int, int]) -> bool:
                return c[0] > 120 and c[1] < 80 and c[2] < 80
            app.waiting = False  # as while the computers play
            await pilot.press("f5")
            await pilot.pause()
            assert "'save' waits for your turn." in str(app.query_one("#message").render())
            near_error = [c for c in colours() if max(abs(a - b) for a, b in zip(c, error, strict=True)) <= 8]  # blended by Textual
            assert colours() and not near_error and not any(map(red, colours())), colours()
            app.waiting = True
            since = app.asks
            await pilot.press(*"1d", "enter")
            await ready(pilot, app, since)
            await pilot.pause()
            assert "Refused" in str(app.query_one("#message").render())
            assert colours() and all(map(red, colours())), colours()
            await quit_table(pilot, app)

    asyncio.run(go())


def _358_at_its_last_card() -> Match:
    """A 3-5-8 match played by the heuristic for every seat to your last card of deal 18 (it plays itself)."""
    from sergeant_major.players import HeuristicPlayer, decision_rng

    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    p = HeuristicPlayer()
    while not (m.deal.number == 18 and m.to_act == 0 and m.deal.hands[0].bit_count() == 1):
        f = m.forced_action()
        m.apply(f if f is not None else p.choose(m.view(m.to_act), decision_rng(m.seed, m.to_act, m.deal.number,
                                                                                   len(m.deal.history))))
    return m


@pytest.mark.parametrize("size", [(80, 24), (64, 20)], ids=["80x24", "64x20"])
def test_the_match_end_panel_of_18_deals_fits_the_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    """The match end of 3-5-8 at 80x24 lost deals 16 to 18, the totals, where the record was saved and the key to
    leave under the screen's edge: in too few rows the earliest deals are now summed on one row; made larger, the
    panel shows every deal."""
    app = TableApp(_358_at_its_last_card(), KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            assert await ready(pilot, app) == "end"
            await pilot.pause()
            view = app.game.match.view(0)
            rows = "\n".join(screen_rows(app))
            assert "Match over:" in rows and "Press Enter to leave." in rows and "Record saved to" in rows, rows
            assert re.search(r"│ +1-\d+ +earlier deals ", rows) and re.search(r"│ +18 +[a-z]", rows), rows
            assert re.search(r"Total +" + " +".join(re.escape(tui.signed(x)) for x in view.totals), rows), rows
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            rows = "\n".join(screen_rows(app))
            assert "earlier deals" not in rows, rows
            assert all(re.search(rf"│ +{i} +[a-z]", rows) for i in range(1, 19)), rows
            await pilot.press("enter")
            await worker_end(pilot, app)

    asyncio.run(go())
    assert app.game.finished


def test_the_match_end_of_9_2_5_says_the_bound_as_the_top_line_does(tmp_path: Path) -> None:
    """A 9-2-5 match ended on the screen with 'a total reached +-15', the record's words: the end panel now says
    '±15' as the top line's 'to ±15' does, and the record keeps its words ('check' compares them)."""
    app = TableApp(at_last_card("9-2-5", 0, ["You", "Bob", "Cleo"]), KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert await ready(pilot, app) == "end"
            await pilot.pause()
            rows = "\n".join(screen_rows(app))
            assert "a total reached ±15; the highest total (15) wins" in rows and "+-" not in rows, rows
            await pilot.press("enter")
            await worker_end(pilot, app)

    asyncio.run(go())
    assert read_record(tmp_path / "m.json")["end"]["reason"] == "a total reached +-15; the highest total (15) wins"


def test_the_score_sheet_sums_the_earliest_deals_in_few_rows() -> None:
    m = _358_at_its_last_card()
    view = m.view(0)
    buf = io.StringIO()
    Console(file=buf, width=100, color_system=None).print(tui.score_sheet(view, 4))
    lines = [x.split() for x in buf.getvalue().splitlines()]
    deals = [x for x in lines if x and (x[0].isdigit() or x[0].startswith("1-"))]
    assert [x[0] for x in deals] == ["1-14", "15", "16", "17"]  # 17 deals scored: 14 summed, the last 3 in full
    earlier = [sum(r.scores[s] for r in view.results[:14]) for s in range(3)]
    assert deals[0][1:3] == ["earlier", "deals"] and deals[0][3::2] == [tui.signed(x) for x in earlier]
    assert deals[-1][3::2] == [f"({tui.signed(x)})" for x in view.totals]  # the running totals still add up
    full = io.StringIO()
    Console(file=full, width=100, color_system=None).print(tui.score_sheet(view))
    assert "earlier" not in full.getvalue() and len(view.results) == 17


def test_the_table_under_a_result_panel_shows_the_deal_as_it_ended(tmp_path: Path) -> None:
    """Under a deal's result panel the table was drawn as before your last card: that card still in your hand, the
    last trick without it and the totals of before the deal. It now shows the deal as it ended."""
    from sergeant_major.cli.table import CardWidget

    m = Match(Rules.parse("3-5-8"), 3, ["You", "Bob", "Cleo"])
    _358_minimum_tricks(m)
    _to_the_last_card(m)  # your last card plays itself, and the deal is scored
    app = TableApp(m, KINDS3, tmp_path / "m.json", settings=Settings())

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            assert await ready(pilot, app) == "result"
            await pilot.pause()
            view, match = app.view, app.game.match
            assert view is not None and view.deal_number == 1 and view.hand == ()
            assert not app.query(CardWidget)  # your hand, empty
            assert str(app.query_one("#me").render()).endswith(f"total {tui.signed(match.totals[0])} · left C D H S NT")
            last = match.deals[0].completed[-1]
            assert any(s == 0 for s, _ in last.cards) and view.completed[-1] == last  # the last trick, your card in it
            await pilot.press("enter")
            assert await ready(pilot, app, app.asks - 1) in ("decide", "result", "end")
            await quit_table(pilot, app)

    asyncio.run(go())


def test_no_color_draws_hearts_and_diamonds_as_bright_as_the_other_suits(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With NO_COLOR the terminal is monochrome and drew the red suits' cards in dim grey, the look of cards that may
    not be played, though all were legal: every legal card is now drawn alike, and a refusal stays bright."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal; after naming trump you discard, every card legal

    def colours(selector: str) -> set[tuple[int, int, int]]:
        r = app.query_one(selector).content_region
        strip = app.screen._compositor.render_strips()[r.y]
        return {tuple(seg.style.color.get_truecolor()) for seg in strip.crop(r.x, r.right)  # type: ignore[misc]
                if seg.text.strip() and seg.style and seg.style.color and not seg.style.reverse}

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            since = app.asks
            await pilot.press("s", "enter")
            await ready(pilot, app, since)
            await pilot.pause()
            assert app.view is not None and {c.suit for c in app.view.hand} >= {0, 1, 2, 3}
            assert len(colours("#hand")) == 1, colours("#hand")  # the cursor's card aside, one colour for all
            hand = colours("#hand").pop()
            since = app.asks
            await pilot.press(*"zz", "enter")
            await ready(pilot, app, since)
            await pilot.pause()
            assert colours("#message") == {hand}, colours("#message")  # the refusal as bright as the cards
            await quit_table(pilot, app)

    asyncio.run(go())


def test_enter_with_nothing_chosen_at_the_trump_decision_sends_nothing(tmp_path: Path) -> None:
    """Enter on an empty line when trump is to be named sent the card under the cursor, refused as "'JS' is not a
    contract": words the player never typed. It now says what to do, and nothing is sent."""
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            before = len(app.game.match.deal.history)
            await pilot.press("enter")
            await pilot.pause()
            message = str(app.query_one("#message").render())
            assert message == "Nothing chosen: type one of C D H S, or step to it with ← →, then Enter.", message
            assert app.game.lines.empty() and app.waiting and len(app.game.match.deal.history) == before
            since = app.asks
            await pilot.press("right", "enter")  # the first suit, chosen with the arrows
            await ready(pilot, app, since)
            assert app.game.match.deal.contract is not None and app.game.match.deal.contract.code == "C"
            await quit_table(pilot, app)

    asyncio.run(go())


def test_enter_with_nothing_chosen_at_the_discard_decision_sends_nothing(tmp_path: Path) -> None:
    """The repro (seed 5, 80x24): spades named, Enter at ``discard>`` discarded the card under the cursor, the trump
    jack the hand starts with, unasked. Enter with nothing stepped to is now refused as at ``trump>``; the cursor
    starts on the lowest card outside trump, and stepping to a card then Enter still discards it."""
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal, name trump and discard

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            since = app.asks
            await pilot.press(*"s", "enter")
            await ready(pilot, app, since)
            view = app.view
            assert view is not None and isinstance(view.legal[0], Discard)
            low = view.hand[app.cursor]
            assert low.suit != view.trump, low  # not the highest trump (JS)
            assert low.rank == min(c.rank for c in view.hand if c.suit != view.trump), low
            before = len(app.game.match.deal.history)
            await pilot.press("enter")
            await pilot.pause()
            message = str(app.query_one("#message").render())
            assert message.startswith("Nothing chosen: type a card (e.g. "), message
            assert "step to it with ← →, Space selects several, then Enter." in message, message
            assert app.game.lines.empty() and app.waiting and len(app.game.match.deal.history) == before
            await pilot.press("right", "left")  # stepped there and back: the lowest side card, chosen
            since = app.asks
            await pilot.press("enter")
            await ready(pilot, app, since)
            assert app.game.match.deal.history[before] == Discard(0, low)
            await quit_table(pilot, app)

    asyncio.run(go())


def test_a_long_name_is_cut_with_an_ellipsis_on_the_top_line_and_in_the_trick() -> None:
    """The repro: ``play --name "Maximiliane-Alexandra von Hohenzollern"`` at 80x24, having named spades, showed the top
    line "... trump ♠ spades (Maximiliane-Alexandra von" - its end and closing parenthesis off the screen - and
    "Maximilian ·" in the trick, a name cut silently. Both now end in an ellipsis, the top line whole."""
    name = "Maximiliane-Alexandra von Hohenzollern"
    m = Match(Rules.parse("9-5-2"), 11, [name, "Bob", "Cleo"])
    assert m.deal.declarer == 0
    m.apply(next(a for a in m.legal_actions() if isinstance(a, NameContract) and a.contract.code == "S"))
    view = m.view(0)
    top = top_line(view, 78)
    assert top.startswith("Deal 1 · 9-5-2 · to 10 · trump ♠ spades (Maximiliane-Alexandra") and top.endswith("…)"), top
    assert len(top) == 78, top
    assert top_line(view, 120).endswith(f"({name})")  # room for it: whole
    trick = trick_lines(view, 46).plain
    assert "Maximilia… ·" in trick and "Maximilian " not in trick, trick
    assert "Bob ·" in trick and "Cleo ·" in trick


def test_the_top_line_says_how_a_bounded_match_ends(tmp_path: Path) -> None:
    """9-2-5's top line said '±15' alone, beside '· to 10' in 9-5-2: it now says 'to ±15' (a total of +15 or -15)."""
    app = _app(tmp_path, "9-2-5", 5)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            top = str(app.query_one("#top").render())
            assert top.startswith("Deal 1 · 9-2-5 · to ±15 · "), top
            await quit_table(pilot, app)

    asyncio.run(go())


@pytest.mark.parametrize(("rules", "deal", "end"), [
    ("9-5-2 deals=1", "Deal 1 of 1", ""),  # the repro: 'Deal 1 · 9-5-2 · to 10' for a match of one deal
    ("9-5-2 deals=5", "Deal 1 of 5", "to 10"),  # five deals, unless a total reaches 10 first
    ("9-2-5", "Deal 1", "to ±15"),  # line mode said '+-15' where the table said 'to ±15'
    ("3-5-8", "Deal 1 of 18", ""),  # '18 deals' beside 'Deal 1': now where the match is in them
])
def test_the_top_line_says_what_the_match_plays_to_in_both_modes(tmp_path: Path, rules: str, deal: str, end: str) -> None:
    """``play --rules "9-5-2 deals=1"`` said 'to 10' on its top line, and line mode '+-15' for 9-2-5's bound: both
    modes now say the deal of how many and what total ends the match, in the same words."""
    app = _app(tmp_path, rules, 5)
    words = [deal, rules.split()[0], *([end] if end else [])]

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await pilot.pause()
            top = str(app.query_one("#top").render())
            assert top.startswith(" · ".join(words) + " · "), top
            await quit_table(pilot, app)

    asyncio.run(go())
    buf = io.StringIO()
    Console(file=buf, width=120, color_system=None).print(tui.status(app.game.match.view(0)))
    head = buf.getvalue().splitlines()[0]
    assert head.startswith("-- " + " -- ".join(words) + " -- "), head


def _saves_in_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, prepare: object = None) -> TableApp:
    """A table whose match saves where ``play`` saves by default, in a home folder of the test's own."""
    monkeypatch.setenv("HOME", str(tmp_path))
    m = Match(Rules.parse(rules), 5, ["You", "Bob", "Cleo"])
    if callable(prepare):
        prepare(m)
    path = tmp_path / ".local/share/sergeant-major/saves/match-2147483647-20261207-071705.json"
    return TableApp(m, KINDS3, path, settings=Settings())


def _breaks_between_names(rows: list[str], path: str) -> None:
    """``path`` is in ``rows`` whole from a row's start, each row of it ending after a ``/`` or a ``-``."""
    starts = [i for i, x in enumerate(rows) if x.startswith(path[:10])]
    assert starts, rows
    start = starts[0]
    got = ""
    for row in rows[start:]:
        got += row
        if len(got) >= len(path):
            break
        assert row.endswith(("/", "-")), (row, rows)
    assert got == path, rows


def test_a_save_path_in_the_deal_log_breaks_between_its_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 64 columns the deal log has 20 for text, and F5's 'Saved to /home/.../.local/share/sergeant-major/saves/
    match-...json' broke anywhere ('/.loca' over 'l/share/sergeant-maj'). The path now starts a row of its own, with
    the home folder written '~', and each row ends after a '/' or a '-'; made wider, the log breaks it again so."""
    app = _saves_in_home(tmp_path, monkeypatch, "9-5-2")
    path = "~/.local/share/sergeant-major/saves/match-2147483647-20261207-071705.json"

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            await ready(pilot, app)
            since = app.asks
            await pilot.press("f5")
            await ready(pilot, app, since)
            await pilot.pause()
            rows = shown_in(app, "#log")
            assert "Saved to" in rows, rows
            _breaks_between_names(rows, path)
            assert max(map(len, rows)) <= 20, rows
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            _breaks_between_names(shown_in(app, "#log"), path)
            await quit_table(pilot, app)

    asyncio.run(go())
    assert (tmp_path / ".local/share/sergeant-major/saves/match-2147483647-20261207-071705.json").exists()


def test_the_match_end_panel_says_where_the_record_is_in_whole_names(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The match end's 'Record saved to PATH' broke the path mid-name at 64 columns; it is now said with '~' and
    broken after a '/': the folder on one row, the file's name whole on the next."""
    app = _saves_in_home(tmp_path, monkeypatch, "9-5-2 deals=1", _to_the_last_card)

    async def go() -> None:
        async with app.run_test(size=(64, 20)) as pilot:
            assert await ready(pilot, app) == "end"
            await pilot.pause()
            rows = [x.strip("│ ") for x in screen_rows(app)]
            at = rows.index("Record saved to")
            assert rows[at + 1:at + 3] == ["~/.local/share/sergeant-major/saves/",
                                           "match-2147483647-20261207-071705.json"], rows
            await pilot.press("enter")
            await worker_end(pilot, app)

    asyncio.run(go())


def test_a_long_word_breaks_after_a_slash_or_a_dash_and_keeps_its_style() -> None:
    """What the deal log and the end panel draw: words that fit are left to the renderer as before; a path starts a
    row of its own, each row ending after a '/' (the file's name after a '-'), in the text's own style."""
    short = Text("Bob wins the trick", style="dim")
    assert tui.break_long_words(short, 10) is short
    line = Text("Saved to ~/.local/share/sergeant-major/saves/match-2147483647-20261207-071705.json", style="bold")
    rows = tui.break_long_words(line, 20).split()
    assert [r.plain for r in rows] == ["Saved to", "~/.local/share/", "sergeant-major/", "saves/", "match-2147483647-",
                                       "20261207-071705.json"]
    assert all(r.get_style_at_offset(Console(), 0).bold for r in rows)


def test_a_hint_row_broken_in_the_deal_log_hangs_under_it(tmp_path: Path) -> None:
    """At 80x24 the log has 28 columns and a row closed up ('  7C 5.19 tricks +3.98 points', 29) lost its last word
    to the next line at the rows' own indent, so that the log read '  points' as a row of its own before each choice.
    Rows now say "pts" when one does not fit, and what is still broken off hangs deeper under its row; each row
    still starts at the rows' indent."""
    from sergeant_major.cli.table import TableGame

    class LogOnly:  # what hint_text asks of the app: the log's width, and a call for the panel (not drawn here)
        def log_width(self) -> int:
            return 28

        def call_from_thread(self, fn: object, *args: object) -> None:
            pass

        def show_hint(self, lines: list[str]) -> None:
            pass

    game = TableGame(LogOnly(), Match(Rules.parse("9-5-2"), seed=3), KINDS3, tmp_path / "m.json")  # type: ignore[arg-type]
    rows = ["  7C                        5.19 tricks    +3.98 points",
            "  JH 2C 3H 7H               9.08 tricks    +0.43 points"]
    log = game.hint_text(["Hint: the expert would choose 7C.", *rows[:1]], 80)
    # a row that does not fit says "pts" (every row then): '  7C 5.19 tricks +3.98 pts' fits in 28 columns
    assert log[-1:] == ["  7♣ 5.19 tricks +3.98 pts"], log  # cards as the hand shows them
    # a set of discards does not fit even so: the rows are then numbers under a line saying what they are
    log = game.hint_text(["Hint: the expert would choose 7C.", *rows], 80)
    assert log[-3:] == ["  (tricks, points)", "  7♣ 5.19 +3.98", "  J♥ 2♣ 3♥ 7♥ 9.08 +0.43"], log
    assert all(len(x) <= 28 for x in log), log
    log = game.hint_text(["Hint: the expert would choose 7C.", *rows, "  JH 2C 3H 7H 8C 9C QS 5.00 tricks  +1.00 points"], 80)
    assert log[-2:] == ["  J♥ 2♣ 3♥ 7♥ 8♣ 9♣ Q♠ 5.00", "    +1.00"], log  # too long still: hung under its row


CONTRACT_HINT = ["Hint: the expert would choose no-trump (estimated over 40 sampled deals, each played out).",
                 *(f"  {w:<24} {t:5.2f} tricks   {p:+6.2f} points" for w, t, p in
                   (("no-trump", 8.5, 0.44), ("minimum tricks", 3.1, -12.5), ("diamonds", 7.25, -3.0), ("spades", 10.0, -4.0)))]


@pytest.mark.parametrize(("size", "rows"), [
    ((80, 24), ["  NT 8.50 tricks +0.44 pts", "  MT 3.10 tricks -12.50 pts", "  D 7.25 tricks -3.00 pts",
                "  S 10.00 tricks -4.00 pts"]),
    ((64, 20), ["  (tricks, points)", "  NT 8.50 +0.44", "  MT 3.10 -12.50", "  D 7.25 -3.00", "  S 10.00 -4.00"]),
], ids=["80x24", "64x20"])
def test_contract_hint_rows_fit_the_deal_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
                                             rows: list[str]) -> None:
    """The repro: at 80x24 (a deal log of 28 columns) each row of a contract hint broke before its points
    ('  no-trump 8.50 tricks -0.44' / '    pts'), and at 64x20 (20 columns) into three rows. A contract is now
    named by its code, as the contract prompt takes it, and in 20 columns the rows are the numbers under one line
    saying what they are: each row on one line."""
    import sergeant_major.players.expert as expert

    monkeypatch.setattr(expert, "hint_lines", lambda view, rng, think=1.0: list(CONTRACT_HINT))
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            since = app.asks
            await pilot.press("f2")
            await ready(pilot, app, since)
            await pilot.press("escape")
            await pilot.pause()
            log = app.query_one("#log", DealLog)
            text = [strip.text.rstrip() for strip in log.lines]
            assert all(len(x) <= log.scrollable_content_region.width for x in text), text
            at = text.index(rows[0])
            assert text[at:at + len(rows)] == rows, text
            await quit_table(pilot, app)

    asyncio.run(go())


def test_keys_typed_while_the_terminal_is_too_small_are_kept_in_the_line(tmp_path: Path) -> None:
    """The repro: under 64x20 the line is hidden and a card typed meanwhile was dropped ('h' at 50x14, then the
    window made larger: the line was empty). The letters go on into the line, shown under the request for room
    (Backspace takes one back); Enter still does nothing until the table is back."""
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal and name trump

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            note = app.query_one("#too-small")
            await pilot.resize_terminal(50, 14)
            await pilot.pause()
            since = app.asks
            await pilot.press("s", "backspace", "h", "enter")
            await pilot.pause(0.2)
            assert note.display and "Typed so far: h" in str(note.render()), str(note.render())
            assert app.asks == since and app.game.match.deal.contract is None and app.game.lines.empty()
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not note.display and app.query_one("#line", CardInput).value == "h"
            await pilot.press("enter")
            await ready(pilot, app, since)
            assert app.game.match.deal.contract is not None and app.game.match.deal.contract.code == "H"
            await quit_table(pilot, app)

    asyncio.run(go())


def test_shown_cards_writes_cards_as_the_hand_does_but_not_names_or_what_was_typed() -> None:
    from sergeant_major.cli.table import shown_cards

    assert shown_cards("You (dealer) take the kitty: 8C 5C 6D 2D") == "You (dealer) take the kitty: 8♣ 5♣ 6♦ 2♦"
    assert shown_cards("Refused [follow suit]: 'th': you hold KH TH 8H", quoted=True) == \
        "Refused [follow suit]: 'th': you hold K♥ 10♥ 8♥"
    assert shown_cards("AS (eldest) plays AS", keep=("AS",)) == "AS (eldest) plays AS"  # a name is no card
    rows = ["  TH                        9.00 tricks    +0.50 points", "  QS                        8.10 tricks    -1.00 points"]
    shown = [shown_cards(x) for x in rows]
    assert shown[0].startswith("  10♥ ") and shown[1].startswith("  Q♠ ")
    assert [x.index("tricks") for x in shown] == [x.index("tricks") for x in rows]  # the columns stay aligned
    assert shown_cards("Cards: 2-10, T, J; QSX, 'QS'") == "Cards: 2-10, T, J; QSX, 'QS'"


HAND_HINT = ["Hint: the expert would choose 7C (estimated over 40 sampled deals, each played out).",
             "  7C                        5.27 tricks    -4.66 points",
             "  TC                        5.00 tricks    -5.00 points"]


def test_the_table_writes_cards_in_its_log_messages_and_hints_as_its_hand_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand showed ``10♥`` while the messages said ``TH`` ("you hold KH TH 8H"), the hint ``TH 9.00 tricks`` and
    the log "take the kitty: 8C 5C 6D 2D". The table's text now writes cards as its hand does; what was typed is
    quoted as typed, and line mode keeps ``TH`` (what its player types)."""
    import sergeant_major.players.expert as expert

    monkeypatch.setattr(expert, "hint_lines", lambda view, rng, think=1.0: list(HAND_HINT))
    app = _app(tmp_path, "9-5-2", 5)  # seed 5: you deal, name trump, take 8C 5C 6D 2D and Bob leads a club

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            for line in ("s", "2d 3c 5c 6c"):
                since = app.asks
                await pilot.press(*line, "enter")
                await ready(pilot, app, since)
            log = "\n".join(x.plain for x in app.query_one("#log", DealLog).texts)
            assert "You (dealer) take the kitty: 8♣ 5♣ 6♦ 2♦" in log and "You (dealer) discard 2♦ 3♣ 5♣ 6♣" in log, log
            assert "Bob (eldest) plays A♣" in log and "8C" not in log, log
            since = app.asks
            await pilot.press("a", "h", "enter")  # clubs led: a revoke
            await ready(pilot, app, since)
            await pilot.pause()
            message = str(app.query_one("#message").render())
            assert "'ah'" in message and "you hold 8♣ 7♣ 2♣" in message and "not play A♥" in message, message
            since = app.asks
            await pilot.press("f2")
            await ready(pilot, app, since)
            await pilot.pause()
            rows = "\n".join(screen_rows(app))
            assert "the expert would choose 7♣" in rows and "│    10♣                       5.00 tricks" in rows, rows
            await pilot.press("escape")
            await pilot.pause()
            log = "\n".join(x.plain for x in app.query_one("#log", DealLog).texts)
            assert "10♣ 5.00 tricks" in log and "TC" not in log, log
            await quit_table(pilot, app)

    asyncio.run(go())
