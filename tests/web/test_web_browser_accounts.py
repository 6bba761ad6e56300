"""Accounts in headless Debian Chromium: two people register on the account page, play a rated match with a computer to
its end (one on a phone, one on a desktop), and their ratings change exactly as openskill's own ``rate()`` gives for the
final ranking; the leaderboard and the players' pages show it; one account in two browser contexts sees the same
history; the login throttle answers 429; the pages look right (no element wider than the screen, no word broken inside,
no serious axe violation) at 390x844 and 1280x800, in English and German."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import drive, page_errors, register_in_page  # noqa: E402
from _webhelp import Server  # noqa: E402
from openskill.models import PlackettLuce  # noqa: E402
from test_web_browser_look import check_page  # noqa: E402

from sergeant_major.web.accounts import MAX_FAILURES  # noqa: E402
from sergeant_major.web.ratings import COMPUTER_RATINGS, final_ranks, rating_of  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402
from sergeant_major.web.tables import GameTable  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a good password"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def register(page: Any, server: Server, name: str) -> None:
    register_in_page(page, server.url, name, PASSWORD)


def login(page: Any, server: Server, name: str, password: str) -> Any:
    page.goto(server.url + "/account")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    with page.expect_response("**/api/account/login") as got:
        page.click("#login-btn")
    return got.value


def test_two_accounts_play_a_rated_match_and_see_it_everywhere(server: Server, browser: Any) -> None:
    ctx_a = browser.new_context(viewport=PHONE)
    ctx_b = browser.new_context(viewport=DESKTOP)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errs = page_errors(a) + page_errors(b)
    register(a, server, "Ann")
    register(b, server, "Bea")
    check_page(a, "account, logged in")
    # Ann opens a table of the preset 9-5-2 with an invited friend and a computer; Bea takes the invitation
    a.goto(server.url + "/")
    a.select_option("#preset", "9-5-2")
    a.select_option("#seats .seatrow[data-seat='1'] .kind", "friend")
    a.select_option("#seats .seatrow[data-seat='2'] .kind", "computer:heuristic")
    a.fill("#seats .seatrow[data-seat='0'] .sname", "Ann")
    a.click("#create-btn")
    invite = a.locator("#invites a.invite").first.get_attribute("href")
    assert invite is not None
    a.click("#go")
    a.wait_for_url("**/t/*")
    tid = a.url.rsplit("/", 1)[1]
    b.goto(invite)
    b.fill("#myname", "Bea")
    b.click("#btn-join")
    a.locator("#seatlist", has_text="Bea").wait_for()
    drive([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible(), limit=400)

    store = Store(server.db)
    try:
        got = store.table(tid)
        assert got is not None
        gt = GameTable(*got)
        assert gt.match.over and all(s.account is not None for s in gt.seats[:2])
        ranks = final_ranks(gt.match)
        model = PlackettLuce()
        mu, sigma = COMPUTER_RATINGS["9-5-2"]["heuristic"]
        want = model.rate([[model.rating()], [model.rating()], [model.rating(mu=mu, sigma=sigma)]], ranks=[float(r) for r in ranks])
        ratings = []
        for seat in (0, 1):
            r = rating_of(store, gt.seats[seat].account or 0, "9-5-2")
            assert (r.mu, r.sigma) == (want[seat][0].mu, want[seat][0].sigma) and r.matches == 1
            ratings.append(r)
    finally:
        store.dispose()

    def shown(x: float) -> str:
        return f"{x:.1f}"

    # the leaderboard, on both screens
    for page, name in ((a, "phone"), (b, "desktop")):
        page.goto(server.url + "/leaderboard?preset=9-5-2")
        page.locator("#lb-table").wait_for()
        text = page.inner_text("#lb-table")
        for who, r in zip(("Ann", "Bea"), ratings, strict=True):
            row = page.locator("#lb-table tr", has_text=who).inner_text()
            assert shown(r.mu) in row and f"± {shown(2 * r.sigma)}" in row and "provisional" in row, (row, r.mu)
        assert text.index("Ann" if ratings[0].mu > ratings[1].mu else "Bea") < text.index(
            "Bea" if ratings[0].mu > ratings[1].mu else "Ann") or ratings[0].mu == ratings[1].mu
        check_page(page, f"leaderboard {name}")
    # a player's page: the rating, the chart, the match and its replay
    b.click("#lb-table a:text('Ann')")
    b.wait_for_url("**/players/Ann")
    b.locator("#recent").wait_for()
    assert shown(ratings[0].mu) in b.inner_text("main")
    assert b.locator("svg.chart polyline").count() == 1
    assert b.locator(f"#recent a[href='/replay/{tid}']").count() == 1
    check_page(b, "player desktop")
    a.goto(server.url + "/players/Bea")
    a.locator("#recent").wait_for()
    check_page(a, "player phone")
    a.click("#lang")
    assert "Letzte Partien" in a.inner_text("main") and "Wertung" in a.inner_text("main")
    check_page(a, "player phone german")
    a.click("#lang")
    b.click(f"#recent a[href='/replay/{tid}']")
    b.wait_for_url(f"**/replay/{tid}")

    # one account in two browser contexts: the same history (the second has no token of its own)
    ctx_c = browser.new_context(viewport=DESKTOP)
    c = ctx_c.new_page()
    assert login(c, server, "ann", PASSWORD).status == 200
    c.locator("#who", has_text="Ann").wait_for()
    ids = []
    for page in (a, c):
        page.goto(server.url + "/history")
        page.locator(f"tr.game[data-id='{tid}']").wait_for()
        ids.append(sorted(page.eval_on_selector_all("tr.game", "rows => rows.map((r) => r.dataset.id)")))
    assert ids[0] == ids[1] == [tid]

    # the throttle: five wrong passwords, then 429 with the time to wait (the right password too)
    c.goto(server.url + "/account")
    c.click("#logout-btn")
    c.locator("#login-form").wait_for()
    for _ in range(MAX_FAILURES):
        assert login(c, server, "Ann", "wrong password").status == 401
    resp = login(c, server, "Ann", PASSWORD)
    assert resp.status == 429 and int(resp.headers["retry-after"]) > 0
    c.locator("#acc-error", has_text=re.compile(r"try again in \d+ s")).wait_for()
    check_page(c, "account, throttled")
    assert not errs, errs
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_account_and_leaderboard_pages_look_right_empty(server: Server, browser: Any) -> None:
    for vp in (PHONE, DESKTOP):
        ctx = browser.new_context(viewport=vp)
        page = ctx.new_page()
        for path, what in (("/account", "account"), ("/leaderboard?preset=3-5-8", "leaderboard empty"), ("/players/nobody", "no player")):
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            check_page(page, f"{what} {vp['width']}")
            page.click("#lang")
            check_page(page, f"{what} {vp['width']} german")
            page.click("#lang")
        assert "There is no player" in page.inner_text("main")
        ctx.close()


def test_the_lobby_says_a_new_accounts_rating_is_provisional(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    register(page, server, "Pia")
    page.goto(server.url + "/lobby")
    page.select_option("#lwait", "120")
    page.click("#btn-quick")
    page.wait_for_url("**/t/**")
    page.goto(server.url + "/lobby")
    seat = page.locator(".lseat", has_text="Pia")
    seat.locator(".tag", has_text="provisional").wait_for()
    assert seat.locator(".rating").inner_text() == "25"  # mu: a new account's
    assert seat.locator(".rating").get_attribute("title") == "rating 25 ± 16.7 after 0 matches"
    check_page(page, "lobby with a provisional rating")
    page.goto(server.url + "/players/Pia")  # no preset chosen on a player's page: it says what makes a match rated
    page.locator("#no-rated", has_text="No rated match yet: a match is rated when").wait_for()
    check_page(page, "player page, no rated match")
    ctx.close()


def test_a_logged_in_creator_plays_under_the_account_s_name(server: Server, browser: Any) -> None:
    """The others at the table, the replay and the public player's page show the creator's seat by name: a logged-in
    creator's is the account's (as in the lobby), not "Me" ("Ich" from the German page) when the field is left empty."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errs = page_errors(page)
    register(page, server, "Quinn")
    for lang in ("en", "de"):
        page.goto(server.url + "/")
        if lang == "de":
            page.click("#lang")
            page.locator("#create-btn", has_text="Anlegen").wait_for()
        field = page.locator("#seats .seatrow[data-seat='0'] .sname")
        page.wait_for_function("(document.querySelector(\"#seats .seatrow[data-seat='0'] .sname\") || {}).value")
        assert field.input_value() == "Quinn"
        if lang == "de":
            field.fill("")  # left empty: the page names no seat "Ich", the server gives the account's name
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        page.locator("#players .player .nm", has_text="Quinn").first.wait_for()
        computers = ["Heuristic 2", "Heuristic 3"] if lang == "en" else ["Heuristik 2", "Heuristik 3"]
        assert sorted(page.locator("#players .player .nm").all_inner_texts()) == computers + ["Quinn"]
    page.click("#lang")  # back to English for the tests after this one
    assert errs == []
    ctx.close()


def test_a_double_click_on_register_logs_in_without_a_refusal(server: Server, browser: Any) -> None:
    """The repro: a double click on *Register* sent two requests; the first made the account and logged in, the second
    was refused, and the page said "the user name 'Dora' is taken ... choose another" above "Logged in as Dora". Now
    the second press is ignored while the first is under way: one request, no refusal shown."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errs = page_errors(page)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(server.url + "/account")
    page.fill("#reg-name", "Dora")
    page.fill("#reg-password", PASSWORD)
    page.dblclick("#register-btn")
    page.locator("#who", has_text="Dora").wait_for()
    page.wait_for_timeout(500)
    assert [p.rsplit("/", 1)[1] for p in posts] == ["register"]
    assert page.inner_text("#acc-error") == ""
    assert errs == []
    ctx.close()


def test_a_players_page_cuts_long_names_in_recent_matches(server: Server, browser: Any) -> None:
    """The repro: a player's *Recent matches* listing a table named with 60 characters and a seat with 40 (as the home
    page allows) was 506 px wide on a 390 px phone. Now the names are cut with an ellipsis, the full text in the tooltip."""
    from _browserhelp import until

    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errs = page_errors(page)
    register(page, server, "Eddie")
    table, seat = "W" * 60, "N" * 40
    tid = page.evaluate("""async ([table, seat]) => { const r = await fetch('/api/tables', {method: 'POST', headers:
      {'Content-Type': 'application/json'}, body: JSON.stringify({name: table, rules: '9-5-2 deals=1', seats: [{kind: 'me', name: 'Eddie'},
      {kind: 'computer', level: 'random', name: seat}, {kind: 'computer', level: 'random'}]})});
      const o = await r.json(); saveToken(o.id, o.seats[0].token); return o.id; }""", [table, seat])
    page.goto(server.url + "/t/" + tid)
    until([page], lambda: page.locator("#end-title").is_visible(), limit=240)
    page.goto(server.url + "/players/Eddie")
    page.locator("#recent tr").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(f"#recent [title='{table}']").count() == 1 and page.locator(f"#recent [title='{seat}']").count() == 1
    assert errs == []
    ctx.close()
