"""The table page while its connection is lost, in headless Debian Chromium: no card or step is offered (a click could
not be sent, and did nothing without a word) and the status says the connection is lost instead of "Your turn"; once
the server is back, the same turn is offered again."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import page_errors, play_on, practice  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = [pytest.mark.browser]

OFFERED = "#hand button.legal, #stepbar:not([hidden]) button.step, #stepbar:not([hidden]) #btn-confirm"


def offered(page: Any) -> int:
    """How many cards and step buttons the page offers now."""
    return int(page.locator(OFFERED).count())


def test_nothing_is_offered_while_the_connection_is_lost(server: Server, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errs = page_errors(page)
    practice(page, server, "9-5-2", 7)
    # play until it is this browser's turn again after a card (the computers have moved: a turn in the middle of a deal)
    played = 0
    for _ in range(200):
        if played >= 2 and offered(page) and "Your turn" in page.inner_text("#status"):
            break
        if play_on(page):
            played += 1
        page.wait_for_timeout(100)
    assert offered(page) and "Your turn" in page.inner_text("#status")
    server.kill9()
    page.locator("#conn", has_text="Connection lost").wait_for()
    assert offered(page) == 0, page.inner_text("#hand")
    assert "Connection lost" in page.inner_text("#status") and "Your turn" not in page.inner_text("#status")
    server.start()
    page.wait_for_function("document.getElementById('conn').textContent === ''", timeout=20000)
    page.locator(OFFERED).first.wait_for()
    assert "Your turn" in page.inner_text("#status")
    assert errs == []


@pytest.mark.parametrize(("width", "lang"), [(390, "en"), (1280, "de")])
def test_the_page_says_it_is_offline_at_once_and_refreshes_when_back(server: Server, browser: Any, width: int, lang: str) -> None:
    """The repro: the browser lost the network (its websocket got no close event): the header said nothing, the status
    still "Your turn", the turn marks and the players' dots as before, Hint enabled (a press sent nothing). Now the
    page says at once that the connection is lost, offers no card, marks nobody's turn, shows no one online, disables
    Hint and Undo; back online it connects at once and shows the turn afresh."""
    from _browserhelp import page_in_language

    ctx, page, errs = page_in_language(browser, server, lang, width)
    practice(page, server, "9-5-2", 7)
    for _ in range(200):
        if offered(page) and page.locator("#btn-hint:not([disabled])").count():
            break
        play_on(page)
        page.wait_for_timeout(100)
    page.locator(".player.to-act .turn").wait_for()
    lost = {"en": "Connection lost", "de": "Verbindung verloren"}[lang]
    ctx.set_offline(True)
    page.locator("#conn", has_text=lost).wait_for(timeout=10000)
    assert lost in page.inner_text("#status") and offered(page) == 0
    assert page.locator("#btn-hint").is_disabled() and page.locator("#btn-undo").is_disabled()
    assert page.locator(".player.to-act, .player .turn").count() == 0
    dots = page.eval_on_selector_all("#players .av .dot", "(ds) => ds.map((d) => getComputedStyle(d).backgroundColor)")
    assert dots and set(dots) == {"rgb(154, 163, 160)"}, dots  # grey: nobody is known to be online
    assert {"en": "away", "de": "weg"}[lang] in page.inner_text(".player[data-seat='0'] .role")
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/offline-{width}-{lang}.png")
    ctx.set_offline(False)
    page.wait_for_function("document.getElementById('conn').textContent === ''", timeout=15000)
    page.locator(".player.to-act .turn").wait_for(timeout=15000)
    assert offered(page) and page.locator("#btn-hint").is_enabled()
    assert lost not in page.inner_text("#status")
    assert errs == []
    ctx.close()


def test_the_lobby_says_its_list_is_stale_while_offline(server: Server, browser: Any) -> None:
    """The repro: offline, the lobby's websocket got no close event: the list of waiting tables stayed as it was, said to be
    live. Now the lobby says at once that the connection is lost and, back online, connects again and shows the list anew."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/lobby")
    page.wait_for_function("L !== null && document.getElementById('conn').textContent === ''")
    ctx.set_offline(True)
    page.locator("#conn", has_text="Connection lost").wait_for(timeout=10000)
    ctx.set_offline(False)
    page.wait_for_function("document.getElementById('conn').textContent === ''", timeout=15000)
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_lobby_s_unreachable_error_goes_once_back_online(server: Server, browser: Any, lang: str) -> None:
    """The repro: a table opened offline said "The server cannot be reached; no table was made." and the message stayed
    after the page was back online and showed the live list. Now it goes once the lobby is connected again."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', '{lang}')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/lobby")
    page.wait_for_function("L !== null && document.getElementById('conn').textContent === ''")
    page.fill("#lname", "Olga")
    ctx.set_offline(True)
    page.click("#btn-open")
    page.wait_for_function("document.getElementById('error').textContent !== ''", timeout=10000)
    said = page.inner_text("#error")
    assert ("cannot be reached" if lang == "en" else "nicht erreichbar") in said, said
    ctx.set_offline(False)
    page.wait_for_function("document.getElementById('conn').textContent === ''", timeout=15000)
    page.wait_for_function("document.getElementById('error').textContent === ''", timeout=5000)
    assert errs == []
    ctx.close()


def test_start_next_deal_and_chat_are_disabled_while_offline(server: Server, browser: Any) -> None:
    """The repro: offline (the page said so at once), Start, Next deal and the chat's phrases stayed enabled: a press
    sent nothing and said nothing. Now they are disabled while the connection is lost and enabled again once back."""
    from _browserhelp import two_friends, until

    a, b, _tid = two_friends(server, browser, "9-5-2 instant-win=off")  # the match never ends with deal 1
    errs = page_errors(a)
    a.locator("#btn-start:not([disabled])").wait_for()
    a.click("#btn-chat")
    phrases = a.locator("#phrases button")
    assert phrases.count() and all(phrases.nth(i).is_enabled() for i in range(phrases.count()))
    a.context.set_offline(True)
    a.locator("#conn", has_text="Connection lost").wait_for(timeout=10000)
    assert a.locator("#btn-start").is_disabled()
    assert all(phrases.nth(i).is_disabled() for i in range(phrases.count()))
    if os.environ.get("SM_SHOTS"):
        a.set_viewport_size({"width": 360, "height": 740})
        a.screenshot(path=f"{os.environ['SM_SHOTS']}/offline-start-360.png")
        a.set_viewport_size({"width": 1280, "height": 800})
        a.screenshot(path=f"{os.environ['SM_SHOTS']}/offline-start-1280.png")
    a.context.set_offline(False)
    a.locator("#btn-start:not([disabled])").wait_for(timeout=15000)
    assert all(phrases.nth(i).is_enabled() for i in range(phrases.count()))
    a.click("#btn-start")
    until([a, b], lambda: a.locator("#btn-next").is_visible())  # the first deal played to its result
    assert a.locator("#btn-next").is_enabled()
    a.context.set_offline(True)
    a.locator("#conn", has_text="Connection lost").wait_for(timeout=10000)
    assert a.locator("#btn-next").is_disabled()
    a.context.set_offline(False)
    a.locator("#btn-next:not([disabled])").wait_for(timeout=15000)
    assert errs == []
    a.context.close()
    b.context.close()
