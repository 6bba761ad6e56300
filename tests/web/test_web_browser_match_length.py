"""How long the match plays, on the pages in headless Debian Chromium, in the terminal's words: the table's top line
("Deal 1 of 18", "to ±15", nothing of a total in a match of one deal), *My games* and the replay viewer, in English
and German."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import drive, page_errors, practice  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def _page(browser: Any, server: Server, lang: str) -> Any:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + "/")
    page.evaluate("(l) => localStorage.setItem('sm-lang', l)", lang)
    return page


@pytest.mark.parametrize(("rules", "lang", "words"), [
    ("9-5-2 deals=1", "en", "Deal 1 of 1"),  # the repro: "Deal 1", where the terminal says "Deal 1 of 1" and no "to 10"
    ("9-5-2 deals=1", "de", "Spiel 1 von 1"),
    ("3-5-8", "en", "Deal 1 of 18"),  # "Deal 1" in a match of 18 deals
    ("3-5-8", "de", "Spiel 1 von 18"),
    ("9-2-5", "en", "Deal 1 · to ±15"),  # the bound was said nowhere on the table
    ("9-2-5", "de", "Spiel 1 · bis ±15"),
    ("9-5-2", "en", "Deal 1 · to 10"),
])
def test_the_table_s_top_line_says_the_deal_of_how_many_and_the_end(server: Server, browser: Any, rules: str, lang: str,
                                                                     words: str) -> None:
    page = _page(browser, server, lang)
    errs = page_errors(page)
    practice(page, server, rules, 3)
    page.locator("#deal-words").wait_for()
    assert page.inner_text("#deal-words") == words
    assert "+-" not in page.inner_text("#contract")
    page.goto(server.url + "/history")  # an unfinished game in My games: "(Deal 1 of 18)"
    page.locator("#games tr.game").first.wait_for()
    assert f"({words.split(' · ')[0]})" in page.inner_text("#games tr.game"), page.inner_text("#games")
    assert not errs, errs
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_says_the_deal_of_how_many(server: Server, browser: Any, lang: str) -> None:
    page = _page(browser, server, lang)
    tid = practice(page, server, "9-5-2 deals=1", 3)
    drive([page], lambda: page.locator("#end-title").count() > 0)
    page.goto(server.url + "/replay/" + tid)
    page.locator("#info", has_text="·").wait_for()
    info = page.inner_text("#info")
    assert info.startswith({"en": "Deal 1 of 1 · Contract: ", "de": "Spiel 1 von 1 · Ansage: "}[lang]), info
    assert " to 10" not in info and " bis 10" not in info, info
    page.context.close()
