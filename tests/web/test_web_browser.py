"""The real pages in headless Chromium (Playwright, Debian's /usr/bin/chromium): a whole game against two
computers, two friends at one table with a computer third, reconnecting after closing a tab, a spectator."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _webhelp import Server  # noqa: E402


def _step(page: Any) -> bool:
    """Take one action on ``page`` if it is that player's turn; True when something was clicked. A button
    may vanish between seeing and clicking it (the other player moved first): that is no click."""
    try:
        for sel in ("#btn-next", "#btn-start"):
            loc = page.locator(sel)
            if loc.count() and loc.first.is_visible():
                loc.first.click(timeout=2000)
                return True
        steps = page.locator("#stepbar button.step")
        if steps.count() and steps.first.is_visible():
            steps.first.click(timeout=2000)
            return True
        legal = page.locator("#hand button.legal")
        if legal.count():
            legal.first.focus(timeout=2000)
            page.keyboard.press("Enter")  # the keyboard path: focus a legal card, Enter plays it
            return True
    except sync_api.TimeoutError:
        return False
    return False


def _drive(pages: list[Any], until: Any, limit: float = 90.0, settle: float = 0.0) -> None:
    """Step the pages until ``until()`` holds - with ``settle`` seconds, until it still holds that long after it
    first did (a page's last click may not have reached the server yet: its stale screen can look like the state
    waited for, found by CI under load)."""
    t0 = time.time()
    while True:
        while not until():
            assert time.time() - t0 < limit, "the game did not progress"
            if not any(_step(p) for p in pages):
                pages[0].wait_for_timeout(40)
            else:
                pages[0].wait_for_timeout(15)
        if settle <= 0:
            return
        pages[0].wait_for_timeout(int(settle * 1000))
        if until():
            return


def _create(page: Any, server: Server, opts: str, kinds: list[str], name: str = "Ann") -> None:
    page.goto(server.url + "/")
    page.fill("#opts", opts)
    for i, k in enumerate(kinds):
        page.select_option(f"#seats .seatrow[data-seat='{i}'] .kind", k)
    page.fill("#seats .seatrow[data-seat='0'] .sname", name)
    page.click("#create-btn")


def _errors(page: Any) -> list[str]:
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    return errs


def test_whole_game_against_two_computers(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740})  # a phone-sized screen
    page = ctx.new_page()
    errs = _errors(page)
    _create(page, server, "deals=2", ["me", "computer:heuristic", "computer:random"])
    page.wait_for_url("**/t/*")
    page.locator("#btn-start").wait_for()
    page.click("#lang")  # German
    assert page.inner_text("#btn-start") == "Spiel beginnen"
    page.click("#lang")
    assert page.inner_text("#btn-start") == "Start the game"
    _drive([page], lambda: page.locator("#end-title").is_visible())
    assert "won" in page.inner_text("#winner")
    table_id = page.url.rsplit("/", 1)[1]
    rec = page.request.get(f"{server.url}/api/tables/{table_id}/record")
    assert rec.ok and json.loads(rec.text())["end"] is not None
    # replay viewer: forwards and back, all hands shown
    page.click("#btn-replay")
    page.wait_for_url("**/replay/*")
    page.locator("#hands .hand").first.wait_for()
    first = page.inner_text("#step-text")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step-text") != first
    page.click("#prev")
    page.click("#prev")
    assert page.inner_text("#step-text") == first
    assert page.locator("#hands .hand").count() == 3
    # history page lists the game
    page.goto(server.url + "/history")
    page.locator(f"tr.game[data-id='{table_id}']").wait_for()
    assert not errs, errs
    ctx.close()


def test_two_friends_reconnect_and_spectator(server: Server, browser: Any) -> None:
    ca, cb, cs = browser.new_context(), browser.new_context(), browser.new_context()
    a = ca.new_page()
    errs = _errors(a)
    _create(a, server, "deals=2", ["me", "friend", "computer:heuristic"])
    link = a.locator("#invites a.invite").first
    link.wait_for()
    invite = link.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    table_url = a.url
    b = cb.new_page()
    errs += _errors(b)
    b.goto(invite)
    b.fill("#myname", "Bea")
    b.click("#btn-join")
    a.locator("#seatlist", has_text="Bea").wait_for()
    # a spectator: names, no hand, no way to act
    s = cs.new_page()
    s.goto(table_url)
    s.locator("#seatlist", has_text="Bea").wait_for()
    assert s.locator("#btn-start").count() == 0
    a.click("#btn-start")
    # play until it is Bea's turn to play a card in a trick; then she closes the tab and comes back
    _drive([a, b], lambda: b.locator("#hand button.legal").count() > 0 and b.locator("#trick .card").count() > 0,
           settle=1.0)
    hand = b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    b.close()
    a.locator(".player[data-seat='1']", has_text="away").wait_for()
    b = cb.new_page()
    b.goto(table_url)
    b.locator("#hand button.legal").first.wait_for()
    assert b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert s.locator("#hand button").count() == 0 and "watching" in s.inner_text("#status")
    _drive([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
    s.locator("#end-title").wait_for()
    assert "Bea" in a.inner_text("#players")
    assert not errs, errs
    for c in (ca, cb, cs):
        c.close()


def test_pages_fail_cleanly(server: Server, browser: Any, tmp_path: Path) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/t/no-such-table")
    page.locator("#notable", has_text="no table").wait_for()
    page.goto(server.url + "/replay/no-such-table")
    page.locator("#step-text", has_text="no table").wait_for()
    ctx.close()


def test_practice_undo_and_hint(server: Server, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = _errors(page)
    _create(page, server, "", ["me", "computer:heuristic", "computer:heuristic"])
    page.wait_for_url("**/t/*")
    page.click("#btn-start")
    # play through the steps until the first card of the play is ours to choose (cards to discard are
    # chosen in the hand too, with the step bar shown)
    _drive([page], lambda: page.locator("#hand button.legal").count() > 0 and page.locator("#stepbar").is_hidden())
    page.click("#btn-hint")
    page.locator("#hint", has_text="Hint").wait_for()
    card = page.locator("#hand button.legal").first.get_attribute("data-card")
    page.locator("#hand button.legal").first.click()
    page.locator(f"#hand button[data-card='{card}']").wait_for(state="detached")
    page.locator("#btn-undo:not([disabled])").wait_for()
    page.click("#btn-undo")
    page.locator(f"#hand button.legal[data-card='{card}']").wait_for()
    assert not errs, errs
    ctx.close()
