"""The leaderboard and a player's page on a phone (360 and 390 px wide, English and German) with a 40-character name:
the page never scrolls sideways (the tester's repro: 417 px at 390, 377 px at 360), the name is cut with an
ellipsis (its full text in the tooltip) and the *Wins* column is on the screen. The server's answers are stubbed
(page.route) so no rated match needs playing."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import page_in_language  # noqa: E402
from _webhelp import Server  # noqa: E402
from test_web_browser_look import check_page  # noqa: E402

pytestmark = [pytest.mark.browser]

LONG = "Maximilian_Wolfgang_Hohenzollern_Sigmars"  # 40 characters, the longest name a seat takes
ROW = {"rating": 1234.5678, "interval": 456.78, "provisional": True, "matches": 1234, "wins": 567}
BOARD = {
    "preset": "9-5-2",
    "presets": ["9-5-2", "8-5-3", "9-2-5", "3-5-8"],
    "players": [{"name": LONG, **ROW}, {"name": "Ann", **ROW, "provisional": False}],
    "computers": [{"name": "heuristic", "computer": True, "rating": 25.0, "interval": 2.0}],
}
PLAYER = {
    "name": LONG,
    "start": 25.0,
    "matches": 1234,
    "wins": 567,
    "in_play": 12,
    "left": 3,
    "roles": [{"role": r, "deals": 1234, "mean_score": -12.345} for r in ("dealer",)],
    "dealer_target": {"made": 3, "deals": 10},
    "contracts": [{"contract": c, "deals": 1234, "made": 567, "mean_score": -12.345} for c in ("H", None)],
    "history": [{"preset": "9-5-2", "rating": 26.5, "created": 1}, {"preset": "3-5-8", "rating": 24.1, "created": 2}],
    "ratings": {p: ROW for p in ("9-5-2", "8-5-3", "9-2-5", "3-5-8")},
    "recent": [
        {
            "id": "abc",
            "created": 1700000000,
            "name": "W" * 60,
            "names": [LONG, "N" * 40, "Heuristic 3"],
            "name_levels": [None, None, "heuristic"],
            "rules": "9-5-2 deals=12 clock=60",
            "place": 1,
            "seat": 0,
            "totals": [-123, 45, 78],
        }
    ],
}


def stub(page: Any) -> None:
    page.route("**/api/leaderboard*", lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(BOARD)))
    page.route("**/api/players/*", lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(PLAYER)))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("width", [360, 390])
def test_leaderboard_and_player_page_fit_a_phone(server: Server, browser: Any, lang: str, width: int) -> None:
    ctx, page, errs = page_in_language(browser, server, lang, width)
    stub(page)
    page.goto(server.url + "/leaderboard?preset=9-5-2")
    page.locator("#lb-table").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wins = page.locator("#lb-table thead th").nth(4).bounding_box()
    assert wins is not None and wins["x"] + wins["width"] <= width, wins
    assert page.locator(f"#lb-table [title='{LONG}']").count() == 1
    if os.environ.get("SM_NARROW_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_NARROW_SHOTS']}/leaderboard-{width}-{lang}.png", full_page=True)
    check_page(page, f"leaderboard long name {width} {lang}")
    page.goto(server.url + "/players/" + LONG)
    page.locator("#recent").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if os.environ.get("SM_NARROW_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_NARROW_SHOTS']}/player-{width}-{lang}.png", full_page=True)
    check_page(page, f"player long name {width} {lang}")
    assert errs == []
    ctx.close()
