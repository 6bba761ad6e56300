"""Regressions from a seventh run on the browser play, in headless Debian Chromium (Playwright; skipped when
/usr/bin/chromium or the playwright package is missing): a practice table's hint is information in a place of its
own, not an error, and the card it names is marked."""

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

from _webhelp import Server  # noqa: E402
from test_web_browser import _drive, _errors  # noqa: E402
from test_web_browser_fixes6 import _open, _table  # noqa: E402

CARD = r"(10|[2-9JQKA])[♣♦♥♠]"


def _my_card_turn(page: Any) -> None:
    _drive([page], lambda: page.locator("#hand button.legal").count() > 0 and page.locator("#stepbar").is_hidden())


def _practice_at_my_turn(server: Server, browser: Any) -> tuple[Any, Any, list[str]]:
    """A practice table (Ann against two heuristic players) started and at Ann's first card: (context, page, errors)."""
    out = _table(server, [{"kind": "me", "name": "Ann"}, {"kind": "computer", "level": "heuristic"},
                          {"kind": "computer", "level": "heuristic"}])
    ctx, page = _open(browser, server, out["id"], token=out["seats"][0]["token"])
    errs = _errors(page)
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
    assert page.inner_text("#hint") == "Tipp: " + m.group(1) and page.inner_text("#error") == ""
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


def test_the_contract_step_says_trump_only_when_every_choice_is_a_trump(server: Server, browser: Any) -> None:
    """The repro: in 3-5-8 the playmaker's choices are the four suits, no-trump and minimum tricks, and the bar above
    the hand said "Name the trump" ("Trumpf ansagen") over *no-trump* and *minimum tricks*. Now it says "Choose the
    contract" ("Ansage wählen") there, and "Name the trump" where every choice is a suit (9-5-2). A hint for that
    step marks the button it names."""
    import httpx

    computers = [{"kind": "computer", "level": "heuristic"}] * 2
    for rules, seed, en, de in (("3-5-8", 3, "Choose the contract", "Ansage wählen"), ("9-5-2", 1, "Name the trump", "Trumpf ansagen")):
        # seeds 3 and 1: seat 0 names the contract of deal 1
        out = httpx.post(server.url + "/api/tables", json={"rules": rules, "seed": seed, "seats": [{"kind": "me"}, *computers]}).json()
        ctx, page = _open(browser, server, out["id"], token=out["seats"][0]["token"])
        errs = _errors(page)
        page.click("#btn-start")
        page.locator("#stepbar button.step").first.wait_for()
        assert page.inner_text("#step-title") == en
        labels = page.eval_on_selector_all("#stepbar button.step", "xs => xs.map((x) => x.textContent)")
        assert ("minimum tricks" in labels) == (rules == "3-5-8"), labels
        page.click("#btn-hint")
        page.locator("#hint", has_text="Hint: ").wait_for()
        marked = page.eval_on_selector_all("#stepbar button.step.hinted", "xs => xs.map((x) => x.textContent)")
        assert marked == [page.inner_text("#hint").removeprefix("Hint: ")], marked
        page.click("#lang")
        page.locator("#step-title", has_text=de).wait_for()
        assert page.inner_text("#step-title") == de
        assert page.locator("#stepbar button.step.hinted").count() == 1
        assert not errs, errs
        ctx.close()
