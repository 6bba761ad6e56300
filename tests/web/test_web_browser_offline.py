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
