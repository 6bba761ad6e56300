"""The rating chart of a player's page in headless Debian Chromium: every line starts at a new account's rating (25)
and stays inside the chart, also for a player whose ratings are all below it (after one lost match: the usual first
one)."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import page_errors  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = [pytest.mark.browser]


def player(history: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer of ``GET /api/players/Ann`` for an account with these rated matches (9-5-2 only)."""
    last = history[-1]
    return {
        "name": "Ann", "start": START,
        "ratings": {"9-5-2": {"rating": last["rating"], "interval": 15.8, "mu": 20.8, "sigma": 7.9, "matches": len(history), "wins": 0,
                              "provisional": True}},
        "history": history, "matches": len(history), "wins": 0, "in_play": 0, "left": 0,
        "roles": [], "dealer_target": {"deals": 0, "made": 0}, "contracts": [], "recent": [],
    }


START = 25.0


def chart_page(browser: Any, server: Server, ratings: list[float], size: tuple[int, int]) -> tuple[Any, Any, list[str]]:
    """Ann's player page at ``size`` with ``ratings`` after her matches (the API's answer stubbed), its chart drawn."""
    history = [{"preset": "9-5-2", "table": f"t{i}", "place": 3, "rating": r, "interval": 15.0, "time": 1796650824.0 + i}
               for i, r in enumerate(ratings)]
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    errs = page_errors(page)
    page.route("**/api/players/Ann", lambda route: route.fulfill(status=200, content_type="application/json",
                                                                  body=json.dumps(player(history))))
    page.goto(server.url + "/players/Ann")
    page.locator("svg.chart polyline").wait_for()
    return ctx, page, errs


@pytest.mark.parametrize("ratings", [[20.9], [20.9, 18.0], [27.1], [20.9, 26.0]], ids=["one-loss", "two-losses", "one-win",
                                                                                     "loss-then-win"])
def test_the_rating_line_starts_at_a_new_account_s_rating_inside_the_chart(server: Server, browser: Any,
                                                                           ratings: list[float]) -> None:
    ctx, page, errs = chart_page(browser, server, ratings, (390, 844))
    box = [float(x) for x in str(page.get_attribute("svg.chart", "viewBox")).split()]
    height = box[3]
    points = [tuple(float(v) for v in p.split(",")) for p in str(page.get_attribute("svg.chart polyline", "points")).split()]
    assert len(points) == len(ratings) + 1
    # the y axis holds the start and every rating: no point lies above or below the chart
    assert all(0 <= y <= height for _, y in points), (ratings, points, height)
    texts = page.eval_on_selector_all("svg.chart > text", "els => els.map((e) => e.textContent)")
    labels = [float(t.replace("\u2212", "-")) for t in texts if re.fullmatch(r"[-\u2212]?\d+(\.\d+)?", t.strip())]
    assert min(labels) <= min(START, *ratings) and max(labels) >= max(START, *ratings), labels
    assert errs == []
    ctx.close()


def test_the_chart_is_drawn_anew_when_the_window_narrows(server: Server, browser: Any) -> None:
    """The repro: opened at 1280x800 and then narrowed to 360 px, the chart kept its viewBox 0 0 1000 220 and was
    scaled down to 324x71 px, its labels 5 px tall. Now it is drawn anew at the new width, its text at its real size;
    and wide again, it grows back."""
    ctx, page, errs = chart_page(browser, server, [20.9, 26.0, 24.0], (1280, 800))
    assert str(page.get_attribute("svg.chart", "viewBox")).split()[2] == "1000"
    label_height = "Math.min(...Array.from(document.querySelectorAll('svg.chart text')).map((e) => e.getBoundingClientRect().height))"
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_function("document.querySelector('svg.chart').viewBox.baseVal.width <= 360")
    svg = page.locator("svg.chart").bounding_box()
    assert svg and svg["height"] >= 200 and svg["x"] + svg["width"] <= 360, svg
    assert page.evaluate(label_height) >= 12, page.evaluate(label_height)
    if os.environ.get("SM_LOOK_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["SM_LOOK_SHOTS"], "360-chart-narrowed.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("document.querySelector('svg.chart').viewBox.baseVal.width === 1000")
    assert errs == []
    ctx.close()
