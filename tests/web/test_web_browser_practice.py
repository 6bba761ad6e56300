"""Practice tables in headless Debian Chromium (Playwright; skipped when /usr/bin/chromium or the playwright package
is missing): hints (card symbols, a status line of their own) and *Undo* (only on your turn, the focus back on the card
taken back)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import RAW_CARD, create_at_home, create_table, drive, open_page, page_errors, practice  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def test_hint_uses_card_symbols(server: Server, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    create_at_home(page, server, "", ["me", "computer:heuristic", "computer:heuristic"])
    page.wait_for_url("**/t/*")
    page.click("#btn-start")
    drive([page], lambda: page.locator("#hand button.legal").count() > 0 and page.locator("#stepbar").is_hidden())
    page.click("#btn-hint")
    page.locator("#hint", has_text="Hint").wait_for()
    hint = page.inner_text("#hint")
    assert re.search(r"(10|[2-9JQKA])[♣♦♥♠]", hint) and not RAW_CARD.search(hint), hint
    ctx.close()


def test_undo_waits_for_my_turn(browser: Any, tmp_path: Any) -> None:
    slow = Server(f"sqlite:///{tmp_path / 'slow.sqlite3'}", delay=0.8)  # computers that take their time, as in a browser
    slow.start()
    try:
        ctx = browser.new_context()
        page = ctx.new_page()
        errs = page_errors(page)
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        practice(page, slow, "9-5-2 deals=1", 3)  # seed 3: a computer deals; this seat plays from the first trick
        page.click("#btn-start")
        page.locator("#hand button.legal").first.wait_for(timeout=30000)
        page.locator("#hand button.legal").first.click()
        # the computers play on after this card: Undo is not offered until it is this seat's turn again
        page.locator("#status", has_text="Waiting for").wait_for()
        assert page.locator("#btn-undo").is_disabled()
        page.locator("#hand button.legal").first.wait_for(timeout=30000)
        assert page.locator("#btn-undo").is_enabled()
        n = page.locator("#hand button.card").count()
        page.click("#btn-undo")
        page.wait_for_function(f"document.querySelectorAll('#hand button.card').length === {n + 1}")
        assert not [f for f in frames if '"stale"' in f], frames
        assert not errs, errs
        ctx.close()
    finally:
        slow.stop()


CARD = r"(10|[2-9JQKA])[♣♦♥♠]"


def _my_card_turn(page: Any) -> None:
    drive([page], lambda: page.locator("#hand button.legal").count() > 0 and page.locator("#stepbar").is_hidden())


def _practice_at_my_turn(server: Server, browser: Any) -> tuple[Any, Any, list[str]]:
    """A practice table (Ann against two heuristic players) started and at Ann's first card: (context, page, errors)."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "computer", "level": "heuristic"},
                          {"kind": "computer", "level": "heuristic"}])
    ctx, page = open_page(browser, server, out["id"], token=out["seats"][0]["token"])
    errs = page_errors(page)
    page.click("#btn-start")
    _my_card_turn(page)
    return ctx, page, errs


def test_a_hint_is_information_of_its_own_not_an_error(server: Server, browser: Any) -> None:
    """The repro: at a practice table, *Hint* wrote "Hint: 3♣" (German "Tipp: 3♣") into the red ``#error`` area, an
    ARIA alert, as if something had gone wrong. Now it is shown in ``#hint`` (a polite status, not in the error
    colour), in the page's language (a language switch rewrites it), the error area stays empty, and the hint is
    gone once the turn passes: after the card is played and after an undo."""
    ctx, page, errs = _practice_at_my_turn(server, browser)
    assert page.get_attribute("#hint", "role") == "status" and page.get_attribute("#hint", "aria-live") == "polite"
    page.click("#btn-hint")
    page.locator("#hint", has_text="Hint: ").wait_for()
    text = page.inner_text("#hint")
    m = re.fullmatch(rf"Hint: ({CARD})", text)
    assert m, text
    assert page.inner_text("#error") == ""
    colour = page.eval_on_selector("#hint", "e => getComputedStyle(e).color")
    assert colour != page.eval_on_selector("#error", "e => getComputedStyle(e).color"), colour
    hinted = page.evaluate("document.activeElement.dataset.card")  # the hinted card has the focus
    assert hinted and page.evaluate("cardText(document.activeElement.dataset.card)") == m.group(1)
    # and marked (a focus ring shows only after a key press, not after a click)
    assert page.eval_on_selector_all(".hinted", "xs => xs.map((x) => x.dataset.card)") == [hinted]
    # German: the same hint, in German
    page.click("#lang")
    page.locator("#hint", has_text="Tipp: ").wait_for()
    # (the card in German letters: J♦ is B♦, Q♦ is D♦)
    assert page.inner_text("#hint") == "Tipp: " + page.evaluate("(c) => cardText(c)", hinted) and page.inner_text("#error") == ""
    # the turn passes (the hinted card played): the hint goes
    page.locator(f"#hand button.legal[data-card='{hinted}']").click()
    page.locator(f"#hand button[data-card='{hinted}']").wait_for(state="detached")
    page.wait_for_function("document.getElementById('hint').textContent === ''")
    assert page.locator(".hinted").count() == 0
    # an undo (our turn again, the same cards): no hint left over; a new one asked for, then undone again
    page.locator("#btn-undo:not([disabled])").wait_for()
    page.click("#btn-undo")
    page.locator(f"#hand button.legal[data-card='{hinted}']").wait_for()
    assert page.inner_text("#hint") == "" and page.locator(".hinted").count() == 0
    page.click("#btn-hint")
    page.locator("#hint", has_text="Tipp: ").wait_for()
    page.locator("#hand button.legal").first.click()
    page.wait_for_function("document.getElementById('hint').textContent === ''")
    assert page.inner_text("#error") == ""
    assert not errs, errs
    ctx.close()


def test_undo_gives_the_focus_back_to_the_card_taken_back(server: Server, browser: Any) -> None:
    """The repro: at a practice table, a card played with the keyboard and *Undo* pressed (focus on the button, which is
    disabled once the card is back): the focus was lost (on the page's body), so the arrow keys and Enter did nothing
    until the player clicked into the hand. Now the card taken back has the focus, and Enter plays it again."""
    ctx, page, errs = _practice_at_my_turn(server, browser)
    card = page.get_attribute("#hand button.legal >> nth=0", "data-card")
    page.focus(f"#hand button[data-card='{card}']")
    page.keyboard.press("Enter")  # played with the keyboard
    page.locator(f"#hand button[data-card='{card}']").wait_for(state="detached")
    page.locator("#btn-undo:not([disabled])").wait_for()
    page.focus("#btn-undo")
    page.keyboard.press("Enter")  # Undo with the keyboard too
    page.locator(f"#hand button.legal[data-card='{card}']").wait_for()
    page.wait_for_function("document.activeElement && document.activeElement.dataset.card !== undefined")
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert page.evaluate("document.getElementById('hand').contains(document.activeElement)")
    # keyboard play goes on: Enter plays the focused card again
    page.keyboard.press("Enter")
    page.locator(f"#hand button[data-card='{card}']").wait_for(state="detached")
    # an Undo clicked with the mouse: the focus comes to the hand as well
    page.locator("#btn-undo:not([disabled])").wait_for()
    page.click("#btn-undo")
    page.locator(f"#hand button.legal[data-card='{card}']").wait_for()
    page.wait_for_function("document.getElementById('hand').contains(document.activeElement)")
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert not errs, errs
    ctx.close()
