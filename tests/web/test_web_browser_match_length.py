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
from _browserhelp import drive, page_errors, page_in_language, practice  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def _page(browser: Any, server: Server, lang: str) -> Any:
    return page_in_language(browser, server, lang)[1]


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
    # on a phone each player's part stays on one line ("Ann:" ended a line, "1/5 (total 0)" began the next)
    split = page.evaluate(_PARTS_ON_TWO_LINES, page.evaluate("R.names.length"))
    assert split == [], (split, info)
    page.context.close()


# the players' parts of the replay's line ("Ann: 1/5 (total 0)", the text after the contract split at " · ") laid out
# on more than one line: the top of each of its characters, whatever elements hold them
_PARTS_ON_TWO_LINES = """(n) => {
  const chars = [], walker = document.createTreeWalker(document.getElementById('info'), NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) for (let i = 0; i < t.length; i++) {
    const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
    const b = Array.from(r.getClientRects()).find((x) => x.width > 0); chars.push([t.data[i], b ? Math.round(b.top) : null]);
  }
  const text = chars.map((c) => c[0]).join(''), parts = text.split(' · ').slice(-n), bad = [];
  let at = text.length - parts.join(' · ').length;
  for (const p of parts) {
    const tops = new Set(chars.slice(at, at + p.length).filter((c) => c[0].trim() && c[1] !== null).map((c) => c[1]));
    if (tops.size > 1) bad.push(p);
    at += p.length + 3;
  }
  return bad;
}"""
