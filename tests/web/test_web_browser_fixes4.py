"""Regressions from a fourth fresh-eyes run on the browser play, in headless Debian Chromium (Playwright; skipped
when /usr/bin/chromium or the playwright package is missing): an invitation survives the connection dropping while
its join is in flight; a friend's result dialog stays open when the other player starts the next deal; the German
page writes the server's refusals and the default seat names in German."""

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

# the first join carrying a token closes the connection instead of being sent (the network dropping right then)
DROP_FIRST_JOIN = """(() => {
  const send = WebSocket.prototype.send; let dropped = false;
  WebSocket.prototype.send = function (data) {
    if (!dropped && typeof data === "string" && data.includes('"join"') && !data.includes('"token":null')) {
      dropped = true; window.__dropped = true; this.close(); return;
    }
    return send.call(this, data);
  };
})();"""


def _table(server: Server, seats: list[dict[str, Any]], rules: str = "9-5-2") -> dict[str, Any]:
    import httpx

    out: dict[str, Any] = httpx.post(server.url + "/api/tables", json={"rules": rules, "seats": seats}).json()
    return out


def test_an_invitation_survives_a_connection_lost_during_the_join(server: Server, browser: Any) -> None:
    """The repro: an invited friend typed her name and pressed Join; the connection dropped before the server seated
    her. The page reconnected as a spectator: the token was gone from the address bar and never saved, so the
    invitation was lost for good. Now the join is sent again on the new connection and she holds the seat."""
    out = _table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    tid, invite = out["id"], out["seats"][1]["invite"]
    ctx = browser.new_context()
    ctx.add_init_script(DROP_FIRST_JOIN)
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + invite)
    page.locator("#myname").wait_for()
    page.fill("#myname", "Bea")
    page.click("#btn-join")
    page.wait_for_function("window.__dropped === true")
    page.locator(".player[data-seat='1']", has_text="you").wait_for()
    assert page.inner_text(".player[data-seat='1'] .nm") == "Bea"
    assert json.loads(page.evaluate("localStorage.getItem('sm-tokens')"))[tid] == invite.split("#token=")[1]
    assert "watching" not in page.inner_text("#status")
    assert errs == []
    ctx.close()


def _play_on(page: Any) -> bool:
    """One action of ``page``'s player in a deal (never *Next deal*); True when something was clicked."""
    try:
        if page.locator("#btn-start").is_visible():
            page.click("#btn-start", timeout=2000)
            return True
        steps = page.locator("#stepbar button.step")
        if steps.count() and steps.first.is_visible():
            steps.first.click(timeout=2000)
            return True
        legal = page.locator("#hand button.legal")
        if legal.count() and not page.locator("#btn-next").is_visible():
            legal.first.click(timeout=2000)
            return True
    except sync_api.TimeoutError:
        return False
    return False


def _until(pages: list[Any], cond: Any, limit: float = 90.0) -> None:
    import time

    t0 = time.time()
    while not cond():
        assert time.time() - t0 < limit, ("the game did not progress", [
            (p.inner_text("#status"), p.inner_text("#error"), p.inner_text("#dlg") if p.locator("#dlg").is_visible() else None,
             p.locator("#hand button.legal").count()) for p in pages])
        if not any(_play_on(p) for p in pages):
            pages[0].wait_for_timeout(40)


def _two_friends(server: Server, browser: Any, rules: str) -> tuple[Any, Any, str]:
    """Ann (seat 0, this browser's *me*) and Bea (seat 1, invited) at a table with a computer third, both on its page."""
    out = _table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}], rules)
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


def test_the_result_stays_open_when_the_other_player_starts_the_next_deal(server: Server, browser: Any) -> None:
    """The repro: Bea was reading the result of deal 1 when Ann pressed *Next deal*: Bea's dialog vanished at once,
    mid-read. Now it stays, its *Next deal* replaced by *Close*, until she closes it (the score sheet has it too)."""
    # to=20 (no total reaches it in one deal: at most +14) and instant-win=off (12+ tricks would win at once), so the
    # match always has its deal 2: a random seed sometimes ended it after deal 1, and the test waited for a Next deal
    # that never came
    a, b, _tid = _two_friends(server, browser, "9-5-2 to=20 instant-win=off deals=2")
    errs = _errors(a) + _errors(b)
    _until([a, b], lambda: a.locator("#btn-next").is_visible() and b.locator("#btn-next").is_visible())
    result = b.inner_text("#dlg-body")
    assert "Result of deal 1" in result
    a.click("#btn-next")
    a.locator("#dlg").wait_for(state="hidden")  # Ann pressed it herself: hers closes
    b.locator("#contract", has_text="Deal 2").wait_for()
    assert b.evaluate("document.querySelector('#dlg').open")
    assert b.inner_text("#dlg-body") == result
    assert b.locator("#btn-next").count() == 0
    b.click("#btn-close")
    b.locator("#dlg").wait_for(state="hidden")
    _until([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
    assert errs == []


def test_the_german_page_writes_refusals_and_default_names_in_german(server: Server, browser: Any) -> None:
    """The repro: in German, a table made with its seats unnamed showed "Me", "Friend 1", "Heuristic 3" and "Table";
    a friend's name refused, a hint asked for at a table with a friend showed the server's English reason. Now the names are German
    and so are the refusals (the English reason stays in the element's title)."""
    ca = browser.new_context()
    ca.add_init_script("localStorage.setItem('sm-lang', 'de')")
    a = ca.new_page()
    errs = _errors(a)
    a.goto(server.url + "/")
    a.select_option("#seats .seatrow[data-seat='1'] .kind", "friend")
    a.select_option("#seats .seatrow[data-seat='2'] .kind", "computer:heuristic")
    a.fill("#seats .seatrow[data-seat='0'] .sname", "")
    a.click("#create-btn")
    link = a.locator("#invites a.invite").first
    link.wait_for()
    assert "Freund 1" in a.inner_text("#invites")
    invite = link.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    a.locator("#btn-start").wait_for()
    assert a.locator(".player .nm").all_inner_texts() == ["Ich", "Freund 1", "Heuristik 3"]
    assert a.inner_text("#tname").startswith("Tisch · ")
    assert a.evaluate("localStorage.getItem('sm-name')") in (None, "")  # a default is never kept as the name typed
    cb = browser.new_context()
    cb.add_init_script("localStorage.setItem('sm-lang', 'de')")
    b = cb.new_page()
    errs += _errors(b)
    b.goto(invite)
    b.fill("#myname", "Bea\u0007x")
    b.click("#btn-join")
    b.locator("#error", has_text="Der Name").wait_for()
    assert b.inner_text("#error").startswith('Der Name "Bea\\u0007x" wird abgelehnt'), b.inner_text("#error")
    assert "control character" in str(b.get_attribute("#error", "title"))
    b.fill("#myname", "Bea")
    b.click("#btn-join")
    a.locator("#seatlist", has_text="Bea").wait_for()
    a.click("#btn-start")
    a.locator("#contract", has_text="Spiel 1").wait_for()
    a.wait_for_function("S && !S.waiting_start")
    a.evaluate("ws.send(JSON.stringify({type: 'hint'}))")  # no hints at a table with a friend
    a.locator("#error", has_text="Tipps gibt es nur am Übungstisch").wait_for()
    assert "hints are for your own turn" in str(a.get_attribute("#error", "title"))
    assert errs == []
    ca.close()
    cb.close()


def test_the_german_replay_page_says_why_there_is_no_replay_in_german(server: Server, browser: Any) -> None:
    """The repro: in German, the replay of a match not over yet said "the record is shown once the match is over (it
    holds every hand)" and that of an unknown table "there is no table 'nonexist'": the server's English. Now German."""
    out = _table(server, [{"kind": "me"}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"}])
    ctx = browser.new_context()
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = _errors(page)
    page.goto(server.url + "/replay/" + out["id"])
    page.locator("#step-text", has_text="Die Wiederholung gibt es erst, wenn die Partie zu Ende ist").wait_for()
    page.goto(server.url + "/replay/nonexist")
    page.locator("#step-text", has_text="Den Tisch nonexist gibt es nicht.").wait_for()
    assert errs == []
    ctx.close()
