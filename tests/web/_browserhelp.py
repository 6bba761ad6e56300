"""Helpers of the browser tests (test_web_browser*.py): driving pages of a real server in Playwright's Chromium.

Imported only after a module checked that Chromium and the playwright package are there (the module skips otherwise)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright import sync_api

if TYPE_CHECKING:
    from _webhelp import Server


def step(page: Any) -> bool:
    """Take one action on ``page`` if it is that player's turn; True when something was clicked. A button
    may vanish between seeing and clicking it (the other player moved first): that is no click."""
    try:
        for sel in ("#btn-next", "#btn-start"):
            loc = page.locator(sel)
            if loc.count() and loc.first.is_visible():
                loc.first.click(timeout=2000)
                return True
        steps = page.locator("#stepbar button.step")
        if steps.count() and steps.first.is_visible():
            steps.first.click(timeout=2000)
            return True
        if confirm(page):  # cards to discard, give or return: picked in the hand, then confirmed
            return True
        legal = page.locator("#hand button.legal:not(.picked)")
        if legal.count():
            legal.first.focus(timeout=2000)
            page.keyboard.press("Enter")  # the keyboard path: focus a legal card, Enter plays it
            return True
    except sync_api.TimeoutError:
        return False
    return False


def confirm(page: Any) -> bool:
    """Confirm the cards picked to discard, give or return (the step bar's *Confirm*); True when it was pressed."""
    btn = page.locator("#btn-confirm:not([disabled])")
    if btn.count() and btn.first.is_visible():
        btn.first.click(timeout=2000)
        return True
    return False


def drive(pages: list[Any], until: Any, limit: float = 90.0, settle: float = 0.0) -> None:
    """Step the pages until ``until()`` holds - with ``settle`` seconds, until it still holds that long after it
    first did (a page's last click may not have reached the server yet: its stale screen can look like the state
    waited for, found by CI under load)."""
    t0 = time.time()
    while True:
        while not until():
            assert time.time() - t0 < limit, "the game did not progress"
            if not any(step(p) for p in pages):
                pages[0].wait_for_timeout(40)
            else:
                pages[0].wait_for_timeout(15)
        if settle <= 0:
            return
        pages[0].wait_for_timeout(int(settle * 1000))
        if until():
            return


def create_at_home(page: Any, server: Server, opts: str, kinds: list[str], name: str = "Ann") -> None:
    page.goto(server.url + "/")
    page.fill("#opts", opts)
    for i, k in enumerate(kinds):
        page.select_option(f"#seats .seatrow[data-seat='{i}'] .kind", k)
    page.fill("#seats .seatrow[data-seat='0'] .sname", name)
    page.click("#create-btn")


def page_errors(page: Any) -> list[str]:
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    return errs


def page_in_language(browser: Any, server: Server, lang: str, width: int = 390) -> tuple[Any, Any, list[str]]:
    """A new context's page at ``width`` px (844 px high on a phone, 800 else) with the site's language set to ``lang``
    (``sm-lang``, on the home page): its context, the page and the list its page errors go to."""
    ctx = browser.new_context(viewport={"width": width, "height": 844 if width <= 390 else 800})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("(l) => localStorage.setItem('sm-lang', l)", lang)
    return ctx, page, errs


RAW_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def practice(page: Any, server: Server, rules: str, seed: int) -> str:
    """A practice table (seat 0 this browser's, two computers) dealt from ``seed``; its page opened."""
    page.goto(server.url + "/")
    tid = str(page.evaluate("""async ([rules, seed]) => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(
        {name: 'P', rules, seed, seats: [{kind: 'me', name: 'Ann'}, {kind: 'computer', level: 'heuristic'},
         {kind: 'computer', level: 'random'}]})});
      const o = await r.json(); saveToken(o.id, o.seats[0].token); return o.id; }""", [rules, seed]))
    page.goto(server.url + "/t/" + tid)
    return tid


def create_table(server: Server, seats: list[dict[str, Any]], rules: str = "9-5-2") -> dict[str, Any]:
    import httpx

    out: dict[str, Any] = httpx.post(server.url + "/api/tables", json={"rules": rules, "seats": seats}).json()
    return out


def play_on(page: Any) -> bool:
    """One action of ``page``'s player in a deal (never *Next deal*); True when something was clicked."""
    try:
        if page.locator("#btn-start").is_visible():
            page.click("#btn-start", timeout=2000)
            return True
        steps = page.locator("#stepbar button.step")
        if steps.count() and steps.first.is_visible():
            steps.first.click(timeout=2000)
            return True
        if confirm(page):
            return True
        legal = page.locator("#hand button.legal:not(.picked)")
        if legal.count() and not page.locator("#btn-next").is_visible():
            legal.first.click(timeout=2000)
            return True
    except sync_api.TimeoutError:
        return False
    return False


def until(pages: list[Any], cond: Any, limit: float = 90.0) -> None:
    import time

    t0 = time.time()
    while not cond():
        assert time.time() - t0 < limit, ("the game did not progress", [
            (p.inner_text("#status"), p.inner_text("#error"), p.inner_text("#dlg") if p.locator("#dlg").is_visible() else None,
             p.locator("#hand button.legal").count()) for p in pages])
        if not any(play_on(p) for p in pages):
            pages[0].wait_for_timeout(40)


def two_friends(server: Server, browser: Any, rules: str) -> tuple[Any, Any, str]:
    """Ann (seat 0, this browser's *me*) and Bea (seat 1, invited) at a table with a computer third, both on its page."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}], rules)
    tid = out["id"]
    a = browser.new_context().new_page()
    a.goto(server.url + "/")
    a.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, out["seats"][0]["token"]])
    a.goto(server.url + "/t/" + tid)
    b = browser.new_context().new_page()
    b.goto(server.url + out["seats"][1]["invite"])
    b.fill("#myname", "Bea")
    b.click("#btn-join")
    a.locator("#seatlist", has_text="Bea").wait_for()
    return a, b, tid


def open_page(browser: Any, server: Server, tid: str, token: str | None = None, invite: str | None = None) -> tuple[Any, Any]:
    ctx = browser.new_context()
    page = ctx.new_page()
    if token is not None:
        page.goto(server.url + "/")
        page.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, token])
    page.goto(server.url + (invite or "/t/" + tid))
    return ctx, page


def register_in_page(page: Any, url: str, name: str, password: str) -> None:
    """Register the account ``name`` on the server at ``url`` through its account page, as a person does, and wait
    until the page says who is logged in."""
    page.goto(url + "/account")
    page.fill("#reg-name", name)
    page.fill("#reg-password", password)
    page.click("#register-btn")
    page.locator("#who", has_text=name).wait_for()


def options_held(page: Any) -> Callable[[], None]:
    """Hold back the page's ``/api/options`` answer (a slow server) until the returned function is called."""
    held: list[Any] = []
    page.route("**/api/options", lambda route: held.append(route))

    def release() -> None:
        while not held:
            page.wait_for_timeout(50)
        held[0].continue_()
    return release
