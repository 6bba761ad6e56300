"""Regressions from a fifth fresh-eyes run on the browser play, in headless Debian Chromium (Playwright; skipped when
/usr/bin/chromium or the playwright package is missing): a language switch keeps a result dialog kept open and leaves
a dialog closed closed; the German home page writes a table refused in German; the replay shows the kitty and the
discards; a name with quotes is offered whole when joining."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _webhelp import Server  # noqa: E402
from test_web_browser import _errors  # noqa: E402
from test_web_browser_fixes4 import _two_friends, _until  # noqa: E402


def test_a_language_switch_keeps_the_kept_result_and_a_closed_dialog_closed(server: Server, browser: Any) -> None:
    """The repro: Bea read the result of deal 1, kept open (with *Close*) after Ann started deal 2, and switched to
    German: the dialog vanished. And a dialog she had closed (the end of the match) opened again at a language
    switch. Now the kept result is written anew in German and stays, and a closed dialog stays closed."""
    a, b, _tid = _two_friends(server, browser, "9-5-2 to=20 instant-win=off deals=2")  # always a deal 2 (see fixes4)
    errs = _errors(a) + _errors(b)
    _until([a, b], lambda: a.locator("#btn-next").is_visible() and b.locator("#btn-next").is_visible())
    a.click("#btn-next")
    b.locator("#contract", has_text="Deal 2").wait_for()
    b.locator("#btn-close").wait_for()
    assert "Result of deal 1" in b.inner_text("#dlg-body")
    b.click("#lang")
    b.locator("#contract", has_text="Spiel 2").wait_for()
    assert b.evaluate("document.querySelector('#dlg').open")
    assert "Ergebnis von Spiel 1" in b.inner_text("#dlg-body"), b.inner_text("#dlg-body")
    assert b.inner_text("#btn-close") == "Schließen" and b.locator("#btn-next").count() == 0
    b.click("#btn-close")
    b.locator("#dlg").wait_for(state="hidden")
    b.click("#lang")
    b.locator("#contract", has_text="Deal 2").wait_for()
    _until([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
    b.click("#btn-close")
    b.locator("#dlg").wait_for(state="hidden")
    b.click("#lang")
    b.locator("#contract", has_text="Spiel 2").wait_for()
    # (the page is drawn at once, dialogs included, in the click on the language button)
    assert not b.evaluate("document.querySelector('#dlg').open")
    assert errs == []


def test_the_german_home_page_writes_a_table_refused_in_german(server: Server, browser: Any) -> None:
    """The repro: on the German home page, options that are refused (``to=abc``) or a seat's name holding a bidi
    override were explained in the server's English ("to='abc': a number (digits 0-9) or off"). Now the refusal
    carries a code and the page writes it in German, quoting the rules typed or naming the seat (the English reason
    stays as the title); no table is made."""
    import httpx

    refused = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 to=abc", "seats": [{"kind": "me"}] * 3})
    assert refused.status_code == 400 and refused.json()["code"] == "rules", refused.text
    ctx = browser.new_context()
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + "/")
    page.fill("#opts", "to=abc")
    page.click("#create-btn")
    page.locator("#error", has_text="Die Regeln").wait_for()
    assert page.inner_text("#error").startswith("Die Regeln „9-5-2 to=abc“ werden abgelehnt"), page.inner_text("#error")
    assert "to='abc'" in str(page.get_attribute("#error", "title"))
    page.fill("#opts", "")
    page.fill("#seats .seatrow[data-seat='1'] .sname", "Bea\u202e")
    page.click("#create-btn")
    page.locator("#error", has_text="Platz 2").wait_for()
    assert page.inner_text("#error").startswith("Der Name auf Platz 2 wird abgelehnt"), page.inner_text("#error")
    assert "seat 2" in str(page.get_attribute("#error", "title"))
    assert page.is_hidden("#created") and "/t/" not in page.url
    page.fill("#seats .seatrow[data-seat='1'] .sname", "Bea")
    page.route("**/api/tables", lambda route: route.abort())  # the server gone: said, where the page said nothing
    page.click("#create-btn")
    page.locator("#error", has_text="nicht erreichbar").wait_for()
    page.unroute("**/api/tables")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")  # all computers and me: straight to the table, the refusal gone
    assert errs == []
    ctx.close()


def test_the_replay_shows_the_kitty_and_the_discards(server: Server, browser: Any) -> None:
    """The repro: the replay page showed "every hand" but never the kitty nor the declarer's discards: the four
    cards the declarer took and the four he put away appeared nowhere (the hands went from 16 cards to 20 and back).
    Now the kitty is shown while it lies on the table and the discards of the deal once made."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 deals=2 to=20 instant-win=off", "seed": 3, "seats": [
        {"kind": "computer", "level": "heuristic"}] * 3}).json()
    tid = out["id"]
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + "/t/" + tid)  # a table of computers only plays once watched
    page.locator("#end-title").wait_for()
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()["steps"]
    record = httpx.get(f"{server.url}/api/tables/{tid}/record").json()
    kitty = record["deals"][0]["kitty"]
    discards = [a["discard"] for a in record["deals"][0]["actions"] if "discard" in a]
    assert len(kitty) == 4 and len(discards) == 4
    end1 = max(i for i, s in enumerate(steps) if s["deal"] == 1)  # deal 1's last trick, deal 2 dealt already
    assert steps[end1]["kitty"] == [] and steps[end1 + 1]["kitty"]  # deal 1's step shows no kitty (deal 2's is not its)
    page.goto(server.url + "/replay/" + tid)
    page.locator("#hands .hand").first.wait_for()
    assert page.locator("#kitty .card").all_inner_texts() == [page.evaluate("(c) => cardText(c)", c) for c in kitty]
    assert page.locator("#discards").count() == 0
    took = next(i for i, s in enumerate(steps) if s["action"] and "kitty" in s["action"])  # in deal 1
    page.evaluate("(k) => go(k)", took)
    assert page.locator("#kitty").count() == 0  # taken: the cards are in the declarer's hand now
    last_discard = max(i for i, s in enumerate(steps) if s["deal"] == 1 and s["action"] and "discard" in s["action"])
    page.evaluate("(k) => go(k)", last_discard)
    assert page.locator("#discards .card").all_inner_texts() == [page.evaluate("(c) => cardText(c)", c) for c in discards]
    assert page.locator("#hands .hand").count() == 3
    page.click("#last")
    assert page.locator("#discards .card").count() == 4
    assert errs == []
    ctx.close()


def test_a_name_with_quotes_is_offered_whole_at_the_next_invitation(server: Server, browser: Any) -> None:
    """The repro: a friend who had joined as ``Big "Al" <3`` opened another invitation: the name field offered ``Big ``
    (the name was put into the field's HTML attribute, where its quote ended it). Now the whole name is offered."""
    import httpx

    name = 'Big "Al" <3'
    ctx = browser.new_context()
    ctx.add_init_script(f"localStorage.setItem('sm-name', {json.dumps(name)})")
    page = ctx.new_page()
    errs = _errors(page)
    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2", "seats": [
        {"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]}).json()
    page.goto(server.url + out["seats"][1]["invite"])
    page.locator("#myname").wait_for()
    assert page.input_value("#myname") == name
    page.click("#btn-join")
    page.locator(".player[data-seat='1']", has_text="you").wait_for()
    assert page.inner_text(".player[data-seat='1'] .nm") == name
    assert errs == []
    ctx.close()
