"""Regressions from a second fresh-eyes run on the browser play, in headless Debian Chromium (Playwright; skipped
when /usr/bin/chromium or the playwright package is missing): an invited friend whose name is refused is asked
again and keeps the invitation."""

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


def test_a_refused_name_asks_again_and_keeps_the_invitation(server: Server, browser: Any) -> None:
    """The repro: an invited friend typed (pasted) a name with a control character; the server refused the join,
    the page closed the name dialog and showed the error on an empty table, not seated, not even watching; the link's
    token was already gone from the address bar and never saved, so a reload made her a spectator: the invitation
    was lost. Now the name is asked again and the invitation kept."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2", "seats": [
        {"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]}).json()
    tid, invite = out["id"], out["seats"][1]["invite"]
    page = browser.new_context().new_page()
    errs = _errors(page)
    page.goto(server.url + invite)
    page.locator("#myname").wait_for()
    page.fill("#myname", "Bea\u0007x")
    page.click("#btn-join")
    page.locator("#error", has_text="control character").wait_for()
    page.locator("#myname").wait_for()  # asked again
    assert page.evaluate("document.querySelector('#dlg').open")
    page.fill("#myname", "Bea")
    page.click("#btn-join")
    page.locator(".player[data-seat='1']", has_text="you").wait_for()
    assert json.loads(page.evaluate("localStorage.getItem('sm-tokens')"))[tid] == invite.split("#token=")[1]
    assert page.inner_text("#error") == ""
    assert errs == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_name_another_seat_has_asks_again(server: Server, browser: Any, lang: str) -> None:
    """An invited friend who types the name of another seat at the table (the creator's default "Me" here) is refused
    with ``name_taken`` (two seats of one name could be told apart nowhere), told so in the page's language, and asked
    again with the invitation kept; another name then takes the seat."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2", "seats": [
        {"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]}).json()
    tid, invite = out["id"], out["seats"][1]["invite"]
    ctx = browser.new_context()
    ctx.add_init_script(f"localStorage.setItem('sm-lang', {json.dumps(lang)})")
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + invite)
    page.locator("#myname").wait_for()
    page.fill("#myname", "me")
    page.click("#btn-join")
    page.locator("#error", has_text="anderen Platz" if lang == "de" else "is already seat 0's").wait_for()
    page.locator("#myname").wait_for()  # asked again
    assert page.evaluate("document.querySelector('#dlg').open")
    page.fill("#myname", "Bea")
    page.click("#btn-join")
    page.locator(".player[data-seat='1']", has_text="Bea").wait_for()
    assert json.loads(page.evaluate("localStorage.getItem('sm-tokens')"))[tid] == invite.split("#token=")[1]
    assert page.inner_text("#error") == ""
    assert errs == []
