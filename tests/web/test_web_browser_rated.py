"""Whether a match is rated, as a player sees it in headless Debian Chromium: the table page's header says *rated* or
*unrated* (in English and German) before the match and while it goes on, changing when a guest takes the free seat;
the replay of a finished match says it too; all as :mod:`sergeant_major.web.ratings` decides (the lobby's rule and the
one that rates the match). Screenshots at 390x844 and 1280x800 with ``SM_LOOK_SHOTS=DIR``."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is missing (the test extra)")
pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from _webhelp import Server  # noqa: E402
from test_web_browser_accounts import register  # noqa: E402
from test_web_browser_look import check_page  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from sergeant_major.web.ratings import was_rated  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _shots(page: Any, what: str) -> None:
    """The page checked (nothing too wide, no broken word, axe) at the phone's and the desktop's size."""
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        check_page(page, what)
    page.set_viewport_size(PHONE)


def _create(page: Any, server: Server, preset: str, opts: str, kinds: list[str], name: str) -> tuple[str, str | None]:
    """A table made on the home page (seat 0: me, named ``name``); the table's id and its first invitation link (if
    any), the page at the table."""
    page.goto(server.url + "/")
    page.select_option("#preset", preset)
    page.fill("#opts", opts)
    for i, k in enumerate(kinds):
        page.select_option(f"#seats .seatrow[data-seat='{i}'] .kind", k)
    page.fill("#seats .seatrow[data-seat='0'] .sname", name)
    page.click("#create-btn")
    # with invitations the home page lists them (and a link to the table); without, it goes to the table at once
    page.wait_for_function("() => location.pathname.startsWith('/t/') || document.querySelector('#invites a.invite')")
    invite = None
    if not page.url.split("#")[0].rsplit("/", 2)[-2] == "t":
        invite = page.locator("#invites a.invite").first.get_attribute("href")
        page.click("#go")
    page.wait_for_url("**/t/*")
    page.locator("#rated").wait_for()
    return str(page.url.rsplit("/", 1)[1].split("#")[0]), invite


def _badge(page: Any) -> tuple[str, str]:
    loc = page.locator("#tname #rated, #matchinfo #rated")
    return loc.inner_text().strip(), str(loc.get_attribute("class"))


def _play_out(server: Server, tid: str, token: str) -> None:
    """Seat 0 plays its first legal action (and starts each deal) until the match is over, over a websocket."""
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        while True:
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] != "error", m
            if m["type"] != "state":
                continue
            if m["over"]:
                return
            if m["waiting_start"]:
                ws.send(json.dumps({"type": "start", "v": m["v"]}))
            elif m["view"]["legal"] and m["view"]["to_act"] == 0:
                a = dict(m["view"]["legal"][0])
                a.pop("seat")
                ws.send(json.dumps({"type": "act", "v": m["v"], "action": a}))


def test_the_table_and_the_replay_say_whether_the_match_is_rated(server: Server, browser: Any) -> None:
    ann = browser.new_context(viewport=PHONE).new_page()
    bo = browser.new_context(viewport=PHONE).new_page()
    register(ann, server, "Ann")
    # Ann (an account) with an invited friend and a computer, the preset's rules: rated if the free seat goes to an
    # account or a computer, as the lobby says of its tables
    tid, link = _create(ann, server, "9-5-2", "", ["me", "friend", "computer:heuristic"], "Ann")
    assert link is not None
    assert _badge(ann) == ("rated", "rated-badge rated")
    assert "every seat is an account or a computer" in str(ann.locator("#rated").get_attribute("title"))
    _shots(ann, "table rated")
    ann.click("#lang")
    ann.locator("#tname #rated", has_text="gewertet").wait_for()
    assert _badge(ann)[0] == "gewertet"
    _shots(ann, "table rated de")
    ann.click("#lang")
    # Bo, a guest, takes the invitation: the match goes on unrated, and Ann's page says so at once
    bo.goto(link if link.startswith("http") else server.url + link)
    bo.fill("#myname", "Bo")
    bo.click("#btn-join")
    ann.locator("#tname #rated", has_text="unrated").wait_for()
    assert _badge(ann) == ("unrated", "rated-badge unrated") and _badge(bo) == ("unrated", "rated-badge unrated")
    assert "guest" in str(bo.locator("#rated").get_attribute("title"))
    _shots(bo, "table unrated")

    # a lobby table Ann opens, its free seats taken by computers at once (a practice table, one person against
    # computers, is never rated): rated while it is played, and its replay says rated (as stored with the ratings); a
    # guest's match of options not a preset's says unrated
    seated = ann.evaluate("""() => fetch('/api/lobby/open', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Ann', rules: '9-5-2', level: 'heuristic', wait: 0})}).then((r) => r.json())""")
    assert "token" in seated, seated
    rated_tid, token = seated["id"], seated["token"]
    ann.evaluate("([t, k]) => saveToken(t, k)", [rated_tid, token])  # as the lobby page keeps the seat it took
    ann.goto(server.url + f"/t/{rated_tid}")
    ann.locator("#tname #rated").wait_for()
    assert _badge(ann) == ("rated", "rated-badge rated")
    ann.goto(server.url + "/")
    _play_out(server, rated_tid, token)
    store = Store(server.db)
    try:
        assert was_rated(store, rated_tid)
    finally:
        store.dispose()
    ann.goto(server.url + f"/replay/{rated_tid}")
    ann.locator("#matchinfo #rated").wait_for()
    # the review done first: while the server computes it (both cores on the CI machine) a click could wait out its
    # timeout for the page's next frame
    ann.locator("#review-summary table").first.wait_for(timeout=180_000)
    assert _badge(ann) == ("rated", "rated-badge rated") and "9-5-2" in ann.inner_text("#matchinfo")
    _shots(ann, "replay rated")
    ann.click("#lang")
    ann.locator("#matchinfo #rated", has_text="gewertet").wait_for()
    _shots(ann, "replay rated de")
    ann.click("#lang")

    free_tid, _ = _create(bo, server, "9-5-2", "deals=1", ["me", "computer:heuristic", "computer:heuristic"], "Bo")
    assert _badge(bo) == ("unrated", "rated-badge unrated")
    token = bo.evaluate("(t) => JSON.parse(localStorage.getItem('sm-tokens'))[t]", free_tid)
    bo.goto(server.url + "/")
    _play_out(server, free_tid, token)
    bo.goto(server.url + f"/replay/{free_tid}")
    bo.locator("#matchinfo #rated").wait_for()
    assert _badge(bo) == ("unrated", "rated-badge unrated")
    _shots(bo, "replay unrated")
