"""The real pages in headless Chromium (Playwright, Debian's /usr/bin/chromium): a whole game against two
computers, two friends at one table with a computer third, reconnecting after closing a tab, a spectator."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import create_at_home, drive, page_errors  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def test_whole_game_against_two_computers(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740})  # a phone-sized screen
    page = ctx.new_page()
    errs = page_errors(page)
    create_at_home(page, server, "deals=2", ["me", "computer:heuristic", "computer:random"])
    page.wait_for_url("**/t/*")
    page.locator("#btn-start").wait_for()
    page.click("#lang")  # German
    assert page.inner_text("#btn-start") == "Spiel beginnen"
    page.click("#lang")
    assert page.inner_text("#btn-start") == "Start the game"
    drive([page], lambda: page.locator("#end-title").is_visible())
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
    errs = page_errors(a)
    create_at_home(a, server, "deals=2", ["me", "friend", "computer:heuristic"])
    link = a.locator("#invites a.invite").first
    link.wait_for()
    invite = link.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    table_url = a.url
    b = cb.new_page()
    errs += page_errors(b)
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
    drive([a, b], lambda: b.locator("#hand button.legal").count() > 0 and b.locator("#trick .card").count() > 0,
           settle=1.0)
    hand = b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    b.close()
    a.locator(".player[data-seat='1']", has_text="away").wait_for()
    b = cb.new_page()
    b.goto(table_url)
    b.locator("#hand button.legal").first.wait_for()
    assert b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert s.locator("#hand button").count() == 0 and "watching" in s.inner_text("#status")
    drive([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
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
    errs = page_errors(page)
    create_at_home(page, server, "", ["me", "computer:heuristic", "computer:heuristic"])
    page.wait_for_url("**/t/*")
    page.click("#btn-start")
    # play through the steps until the first card of the play is ours to choose (cards to discard are
    # chosen in the hand too, with the step bar shown)
    drive([page], lambda: page.locator("#hand button.legal").count() > 0 and page.locator("#stepbar").is_hidden())
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


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_my_games_cuts_long_names_and_fits_the_screen(server: Server, browser: Any, size: tuple[int, int]) -> None:
    """The repro: *My games* with a seat named with 40 characters (as the lobby and the home page allow) and a table named
    with 60 scrolled sideways on a phone and on a desktop (each seat's line is kept whole). Now the names are cut with an
    ellipsis, their full text in the tooltip."""
    import httpx
    from test_web_browser_look import check_page

    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    seat, table = "M" * 40, "W" * 60
    out = httpx.post(server.url + "/api/tables", json={"name": table, "rules": "9-5-2", "seats": [
        {"kind": "me", "name": seat}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"}]}).json()
    page.evaluate("([t, k]) => saveToken(t, k)", [out["id"], out["seats"][0]["token"]])
    page.goto(server.url + "/history")
    row = page.locator(f"tr.game[data-id='{out['id']}']")
    row.wait_for()
    check_page(page, "history, long names")
    assert row.locator(f"[title='{seat}']").count() == 1 and row.locator(f"[title='{table}']").count() == 1
    assert errs == []
    ctx.close()


def test_a_double_click_on_create_makes_one_table(server: Server, browser: Any) -> None:
    """The repro: a double click on *Create* (a table with an invited friend) sent two requests and made two tables: the
    page showed the second's invitation, the first waited for a friend for ever and stayed in *My games*. Now one."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/api/tables") else None)
    page.goto(server.url + "/")
    page.select_option("#seats .seatrow[data-seat='1'] .kind", "friend")
    page.dblclick("#create-btn")
    page.locator("#invites a.invite").first.wait_for()
    page.wait_for_timeout(500)
    assert len(posts) == 1, posts
    assert page.locator("#invites a.invite").count() == 1
    first_href = page.get_attribute("#go", "href")  # read before the press: its answer may come before the next line
    page.click("#create-btn")  # a later press makes another table, as before
    page.wait_for_function("(old) => document.querySelector('#go').getAttribute('href') !== old", arg=first_href)
    assert len(posts) == 2
    assert errs == []
    ctx.close()


def test_a_stale_error_goes_when_the_form_changes_or_the_browser_blocks_create(server: Server, browser: Any) -> None:
    """The repro: rules refused by the server, then a timeout of -5: the browser's own number check blocked *Create*
    with its bubble, and the rules' error stayed on the screen beside it, about rules no longer sent. The error now
    goes when the form is changed, and when *Create* is pressed, blocked by the browser or not."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/api/tables") else None)
    page.goto(server.url + "/")
    page.locator("#seats .seatrow").first.wait_for()

    def refused() -> None:
        page.fill("#opts", "kitty=nonee")
        page.click("#create-btn")
        page.wait_for_function("document.getElementById('error').textContent !== ''")

    refused()
    page.fill("#timeout", "-5")  # a change of the form: the error was about the form before it
    assert page.inner_text("#error") == "" and page.get_attribute("#error", "title") in (None, "")
    page.fill("#timeout", "60")
    refused()
    # the value set as a script sets it, with no input event: only the press, which the browser blocks, is left
    page.evaluate("document.getElementById('timeout').value = '-5'")
    sent = len(posts)
    page.click("#create-btn")
    page.wait_for_timeout(200)
    assert page.evaluate("document.getElementById('timeout').validity.rangeUnderflow")
    assert len(posts) == sent  # blocked by the browser: no request
    assert page.inner_text("#error") == ""
    assert errs == []
    ctx.close()
