"""Regressions from an eighth run on the browser play, in headless Debian Chromium (Playwright; skipped when
/usr/bin/chromium or the playwright package is missing): after *Undo* at a practice table the keyboard focus is back
in the hand, on the card taken back."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _webhelp import Server  # noqa: E402
from test_web_browser_fixes7 import _practice_at_my_turn  # noqa: E402


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
