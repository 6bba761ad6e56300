"""Regressions from a sixth fresh-eyes run on the browser play, in headless Debian Chromium (Playwright; skipped when
/usr/bin/chromium or the playwright package is missing): deal 1 waits until the invited friend has taken his seat
(the start button disabled and explained, a start sent anyway refused by the server); the replay's arrow keys step
once when the slider has the focus; *Join* and *Hint* while the websocket reopens throw nothing."""

from __future__ import annotations

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


def _table(server: Server, seats: list[dict[str, Any]], rules: str = "9-5-2") -> dict[str, Any]:
    import httpx

    out: dict[str, Any] = httpx.post(server.url + "/api/tables", json={"rules": rules, "seats": seats}).json()
    return out


def _open(browser: Any, server: Server, tid: str, token: str | None = None, invite: str | None = None) -> tuple[Any, Any]:
    ctx = browser.new_context()
    page = ctx.new_page()
    if token is not None:
        page.goto(server.url + "/")
        page.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, token])
    page.goto(server.url + (invite or "/t/" + tid))
    return ctx, page


def test_deal_one_waits_for_the_invited_friend(server: Server, browser: Any) -> None:
    """The repro: Ann made a table with an invited friend, sent him the link and pressed *Start the game* at once: deal
    1 was dealt and her computer neighbour played on while the friend had not even opened the link. Now the button is
    disabled and says whom the table waits for; a start sent anyway is refused (``empty_seat``, in German too); once
    the friend has joined, the button works."""
    out = _table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    tid = out["id"]
    ca, a = _open(browser, server, tid, token=out["seats"][0]["token"])
    errs = _errors(a)
    a.locator("#btn-start").wait_for()
    assert a.locator("#btn-start").is_disabled()
    assert a.inner_text("#start-wait") == "The game starts once everyone is at the table: waiting for Friend 1."
    # a start sent anyway (an old page, a script): refused by the server, nothing dealt
    a.evaluate("ws.send(JSON.stringify({type: 'start', v: S.v}))")
    a.locator("#error", has_text="nobody holds seat 1").wait_for()
    assert a.evaluate("S.waiting_start") is True
    a.click("#lang")
    assert a.inner_text("#start-wait") == "Das Spiel beginnt, wenn alle am Tisch sind: warten auf Friend 1."
    a.evaluate("ws.send(JSON.stringify({type: 'start', v: S.v}))")
    a.locator("#error", has_text="alle Plätze besetzt").wait_for()
    a.click("#lang")
    # the friend joins: the button is enabled, the explanation gone; the deal starts
    cf, f = _open(browser, server, tid, invite=out["seats"][1]["invite"])
    f.fill("#myname", "Bob")
    f.click("#btn-join")
    a.locator("#seatlist", has_text="Bob: online").wait_for()
    assert a.locator("#btn-start").is_enabled() and a.locator("#start-wait").count() == 0
    a.click("#btn-start")
    f.wait_for_function("S && !S.waiting_start")
    assert not errs, errs
    ca.close()
    cf.close()


def test_replay_arrow_keys_on_the_slider_step_once(server: Server, browser: Any) -> None:
    """The repro: on the replay page, after dragging (or clicking) the slider, ArrowRight went two steps forward: the
    page's own key handler stepped once and the focused slider stepped again. Now one key is one step, whatever has
    the focus."""
    import httpx

    out = _table(server, [{"kind": "computer", "level": "random"}] * 3, rules="9-5-2 deals=1")
    tid = out["id"]
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + "/t/" + tid)  # a spectator: the table of computers plays its match
    page.wait_for_function("S && S.over", timeout=30000)
    assert httpx.get(server.url + f"/api/tables/{tid}/replay").status_code == 200
    page.goto(server.url + "/replay/" + tid)
    page.locator("#step-text", has_text="1/").wait_for()
    page.keyboard.press("ArrowRight")  # nothing focused: the page steps
    page.locator("#step-text", has_text="Step 2/").wait_for()
    page.focus("#slider")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(100)
    assert page.inner_text("#step-text").startswith("Step 3/"), page.inner_text("#step-text")
    assert page.eval_on_selector("#slider", "s => s.value") == "2"
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(100)
    assert page.inner_text("#step-text").startswith("Step 2/"), page.inner_text("#step-text")
    assert not errs, errs
    ctx.close()


def test_join_and_hint_while_the_connection_reopens(server: Server, browser: Any) -> None:
    """The repro: pressing *Join* (an invitation) or *Hint* while the page's websocket was (re)connecting threw
    "Failed to execute 'send' on 'WebSocket': Still in CONNECTING state" (an uncaught error). Now nothing is sent then;
    the join in flight is sent once the connection is open, and the friend is seated."""
    import socket

    hang = socket.socket()  # accepts TCP connections and never answers: a websocket to it stays CONNECTING
    hang.bind(("127.0.0.1", 0))
    hang.listen(4)
    port = hang.getsockname()[1]
    try:
        out = _table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
        cf, f = _open(browser, server, out["id"], invite=out["seats"][1]["invite"])
        errs = _errors(f)
        f.locator("#myname").wait_for()
        f.evaluate(f"window.__real = ws; ws = new WebSocket('ws://127.0.0.1:{port}/')")
        f.fill("#myname", "Bea")
        f.click("#btn-join")
        f.wait_for_timeout(100)
        assert not errs, errs
        f.evaluate("ws = window.__real; ws.onopen()")  # the connection open again: the join in flight is sent
        f.locator(".player[data-seat='1']", has_text="you").wait_for()
        assert f.inner_text(".player[data-seat='1'] .nm") == "Bea"
        cf.close()

        p = _table(server, [{"kind": "me"}, {"kind": "computer", "level": "random"}, {"kind": "computer", "level": "random"}])
        cp, page = _open(browser, server, p["id"], token=p["seats"][0]["token"])
        errs = _errors(page)
        page.click("#btn-start")
        page.locator("#btn-hint:not([disabled])").wait_for()
        page.evaluate(f"window.__real = ws; ws = new WebSocket('ws://127.0.0.1:{port}/')")
        page.click("#btn-hint")
        page.wait_for_timeout(100)
        assert not errs, errs
        page.evaluate("ws = window.__real")
        page.click("#btn-hint")  # open again: the hint comes
        page.locator("#hint", has_text="Hint").wait_for()
        cp.close()
    finally:
        hang.close()
