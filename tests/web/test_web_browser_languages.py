"""The pages in German in headless Debian Chromium (Playwright; skipped when /usr/bin/chromium or the playwright package
is missing): refusals, default names, the replay page, a language switch with a result dialog open or closed."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import create_table, options_held, page_errors, two_friends, until  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_german_page_writes_refusals_and_default_names_in_german(server: Server, browser: Any) -> None:
    """The repro: in German, a table made with its seats unnamed showed "Me", "Friend 1", "Heuristic 3" and "Table";
    a friend's name refused, a hint asked for at a table with a friend showed the server's English reason. Now the names are German
    and so are the refusals (the English reason stays in the element's title)."""
    ca = browser.new_context()
    ca.add_init_script("localStorage.setItem('sm-lang', 'de')")
    a = ca.new_page()
    errs = page_errors(a)
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
    errs += page_errors(b)
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


def test_an_invitation_table_s_computers_are_named_in_each_viewer_s_language(server: Server, browser: Any) -> None:
    """The repro: a table made on the German home page stored its unnamed computers as "Heuristik 3", so that Bea,
    invited and reading in English, saw German names. Now the home page leaves them to the server, which stores them
    by level ("Heuristic 3", as the lobby does); each page writes them in its language, and after a language switch;
    a computer given a name keeps it."""
    ca = browser.new_context()
    ca.add_init_script("localStorage.setItem('sm-lang', 'de')")
    a = ca.new_page()
    errs = page_errors(a)
    a.goto(server.url + "/")
    a.fill("#opts", "players=4")
    a.select_option("#seats .seatrow[data-seat='1'] .kind", "friend")
    a.select_option("#seats .seatrow[data-seat='2'] .kind", "computer:heuristic")
    a.select_option("#seats .seatrow[data-seat='3'] .kind", "computer:random")
    a.fill("#seats .seatrow[data-seat='0'] .sname", "Ann")
    a.fill("#seats .seatrow[data-seat='3'] .sname", "Hal")
    a.click("#create-btn")
    link = a.locator("#invites a.invite").first
    link.wait_for()
    invite = link.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    a.locator("#btn-start").wait_for()
    assert a.locator(".player .nm").all_inner_texts() == ["Ann", "Freund 1", "Heuristik 3", "Hal"]
    stored = a.evaluate("S.table.seats.map((s) => [s.served, s.name_level])")
    assert stored == [["Ann", None], ["Freund 1", None], ["Heuristic 3", "heuristic"], ["Hal", None]], stored
    cb = browser.new_context()  # Bea reads English
    b = cb.new_page()
    errs += page_errors(b)
    b.goto(str(invite))
    b.fill("#myname", "Bea")
    b.click("#btn-join")
    a.locator("#seatlist", has_text="Bea").wait_for()
    b.locator("#seatlist", has_text="Bea").wait_for()
    assert b.locator(".player .nm").all_inner_texts() == ["Ann", "Bea", "Heuristic 3", "Hal"]
    assert "Heuristic 3: computer (heuristic)" in b.inner_text("#seatlist"), b.inner_text("#seatlist")
    b.click("#lang")
    b.locator("#seatlist", has_text="Heuristik 3").wait_for()
    a.click("#lang")
    a.locator("#seatlist", has_text="Heuristic 3").wait_for()
    assert a.locator(".player .nm").all_inner_texts() == ["Ann", "Bea", "Heuristic 3", "Hal"]
    assert errs == []
    ca.close()
    cb.close()


def test_the_german_replay_page_says_why_there_is_no_replay_in_german(server: Server, browser: Any) -> None:
    """The repro: in German, the replay of a match not over yet said "the record is shown once the match is over (it
    holds every hand)" and that of an unknown table "there is no table 'nonexist'": the server's English. Now German."""
    out = create_table(server, [{"kind": "me"}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"}])
    ctx = browser.new_context()
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/replay/" + out["id"])
    page.locator("#step-text", has_text="Die Wiederholung gibt es erst, wenn die Partie zu Ende ist").wait_for()
    page.goto(server.url + "/replay/nonexist")
    page.locator("#step-text", has_text="Den Tisch nonexist gibt es nicht.").wait_for()
    assert errs == []
    ctx.close()


def test_a_language_switch_writes_an_open_dialog_anew_and_keeps_a_closed_one_closed(server: Server, browser: Any) -> None:
    """The repro: a dialog Bea had closed (the end of the match) opened again at a language switch. Now an open dialog
    (the result of deal 1) is written anew in German, and a closed dialog stays closed."""
    a, b, _tid = two_friends(server, browser, "9-5-2 to=20 instant-win=off deals=2")  # always a deal 2 (see fixes4)
    errs = page_errors(a) + page_errors(b)
    until([a, b], lambda: a.locator("#btn-next").is_visible() and b.locator("#btn-next").is_visible())
    assert "Result of deal 1" in b.inner_text("#dlg-body")
    b.click("#lang")
    assert b.evaluate("document.querySelector('#dlg').open")
    assert "Ergebnis von Spiel 1" in b.inner_text("#dlg-body"), b.inner_text("#dlg-body")
    assert b.inner_text("#btn-next") == "Nächstes Spiel", b.inner_text("#btn-next")
    a.click("#btn-next")
    b.locator("#contract", has_text="Spiel 2").wait_for()
    b.locator("#dlg").wait_for(state="hidden")  # the new deal closes the result
    b.click("#lang")
    b.locator("#contract", has_text="Deal 2").wait_for()
    until([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible())
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
    errs = page_errors(page)
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


def test_the_german_replay_writes_the_review_figures_and_the_slider_in_german(server: Server, browser: Any) -> None:
    """The repro: the German replay wrote the review's expert figures with a decimal point ("0.15", "8.79") and named its
    slider "step". Now "0,15" and "Schritt" (the review is a stored one, given to the page as the server sends it)."""
    import json

    import httpx

    out = create_table(server, [{"kind": "computer", "level": "random"}] * 3, "9-5-2 deals=1")
    tid = out["id"]
    ctx = browser.new_context()
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)  # a table of computers plays once watched
    page.locator("#end-title").wait_for()
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()["steps"]
    k, step = next((j, s) for j, s in enumerate(steps) if s["action"] and s["action"].get("play"))
    row = {"seat": 0, "mistakes": 1, "lost": 1, "lost_max": 1, "expert_lost": 0.15}
    play = {"card": step["action"]["play"], "seat": step["action"]["seat"], "mark": "mistake", "cost_range": [1, 1],
            "expert": {"cost": 1.5}, "best": [step["action"]["play"]]}
    review = {"expert": True, "seats": [row], "deals": [{"deal": 1, "plays": [play], "seats": [row]}]}
    page.route(f"**/api/tables/{tid}/review", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                     body=json.dumps({"review": review})))
    page.goto(server.url + "/replay/" + tid)
    page.locator("#review-summary table").first.wait_for()
    page.evaluate("(k) => go(k)", k)
    assert "1,50 nach dem, was" in page.inner_text("#review-card")
    assert page.locator("#review-summary td", has_text="0,15").count() == 2
    assert "0.15" not in page.inner_text("#review-summary")
    assert page.get_attribute("#slider", "aria-label") == "Schritt"
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_leaderboard_of_no_rated_preset_says_so_and_offers_the_presets(server: Server, browser: Any, lang: str) -> None:
    """The repro: /leaderboard?preset=bogus showed the server's English "there is no rated preset 'bogus' ..." also on the
    German page, no preset to go to, and an empty *Computers* panel. Now the page's language, the presets as links."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', '{lang}')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/leaderboard?preset=<b>bogus</b>")
    said = {"en": "There is no rated preset “<b>bogus</b>”: choose one of these.",
            "de": "Es gibt keine gewertete Vorgabe „<b>bogus</b>“: wähle eine von diesen."}[lang]
    page.locator("#no-preset", has_text=said).wait_for()
    assert page.locator("#presets a.preset").all_inner_texts() == ["9-5-2", "8-5-3", "9-2-5", "3-5-8"]
    assert not page.locator("#computers-panel").is_visible()
    page.click("#presets a.preset >> nth=3")
    page.locator("#lb-players", has_text={"en": "No rated matches", "de": "Noch keine gewerteten"}[lang]).wait_for()
    assert page.locator("#computers-panel").is_visible() and "preset=3-5-8" in page.url
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_long_hyphenated_name_stays_whole_in_the_german_result(server: Server, browser: Any, width: int) -> None:
    """The repro: at 390 px the German result of a deal broke "Maximiliane-Alexandra" at its hyphen, a row of two lines.
    Now a name is never broken inside a word (only between its words): a word too wide for its column is cut with an
    ellipsis (the full name in the tooltip), the table within the dialog; at 1280 px it is shown whole."""
    from _browserhelp import page_in_language, play_on
    from test_web_browser_look import check_page

    ctx, page, errs = page_in_language(browser, server, "de", width)
    tid = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(
        {name: 'P', rules: '9-5-2 deals=2', seed: 3, seats: [{kind: 'me', name: 'Maximiliane-Alexandra'},
         {kind: 'computer', level: 'heuristic'}, {kind: 'computer', level: 'random'}]})});
      const o = await r.json(); saveToken(o.id, o.seats[0].token); return o.id; }""")
    page.goto(server.url + "/t/" + tid)
    for _ in range(400):
        if page.locator("#btn-next").is_visible():
            break
        if not play_on(page):
            page.wait_for_timeout(40)
    page.locator("#dlg table.result").wait_for()
    rows = page.eval_on_selector_all("#dlg table.result tr:not(:first-child) > th:first-child", """(ths) => ths.map((th) => ({text: th.textContent, title: th.title,
      h: th.getBoundingClientRect().height, cut: th.scrollWidth > th.clientWidth}))""")
    assert [r["text"] for r in rows] == ["Maximiliane-Alexandra", "Heuristik 2", "Zufall 3"]
    assert rows[0]["h"] == rows[1]["h"], rows  # one line, as "Heuristik 2"
    assert [r["title"] for r in rows] == [r["text"] for r in rows]  # the full name in the tooltip
    assert rows[0]["cut"] == (width == 390) and not rows[1]["cut"], rows
    fits = page.evaluate("""() => { const t = document.querySelector('#dlg table.result'), d = document.getElementById('dlg');
      return t.getBoundingClientRect().right <= d.getBoundingClientRect().right; }""")
    assert fits
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/result-long-name-{width}-de.png")
    check_page(page, f"german result long name {width}")
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_a_table_its_creator_named_table_stays_table_in_german(server: Server, browser: Any, width: int) -> None:
    """The repro: a table whose creator typed the name "Table" on the home page read "Tisch" in German, as if it were
    the default name. Now a name typed is shown as typed in every language; the default left as it is follows the
    page's language (made on a German page, "Table" in English)."""
    ctx = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 800})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.fill("#tname", "Table")  # typed by the creator (the field held the default "Table" already)
    page.fill("#seats .seatrow[data-seat='0'] .sname", "Ann")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.locator("#tname", has_text="Table · ").wait_for()
    page.click("#lang")
    page.locator("#tname", has_text="9-5-2").wait_for()
    assert page.inner_text("#tname").startswith("Table · "), page.inner_text("#tname")
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/table-named-table-{width}-de.png")
    page.goto(server.url + "/history")
    page.locator("tr.game").first.wait_for()
    assert "Table" in page.inner_text("tr.game") and "Tisch" not in page.inner_text("tr.game")
    page.goto(server.url + "/")  # German now: the default name left as it is
    page.fill("#seats .seatrow[data-seat='0'] .sname", "Ann")
    assert page.input_value("#tname") == "Tisch"
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.locator("#tname", has_text="Tisch · ").wait_for()
    page.click("#lang")
    page.locator("#tname", has_text="Table · ").wait_for()
    assert errs == []
    ctx.close()


def test_a_name_typed_before_the_home_page_is_ready_is_the_creator_s(server: Server, browser: Any) -> None:
    """The repro (a slow server): the home page asked for its options before it watched the name field, so "Table"
    typed in the meantime counted as the untouched default and read "Tisch" in German. Now the field is watched at
    once: the options are held back here until the name is typed."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    release = options_held(page)
    page.goto(server.url + "/")
    page.fill("#tname", "Table")
    release()
    page.fill("#seats .seatrow[data-seat='0'] .sname", "Ann")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.click("#lang")
    page.locator("#tname", has_text="9-5-2").wait_for()
    assert page.inner_text("#tname").startswith("Table · "), page.inner_text("#tname")
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize(("opts", "reason"), [("deals=0", "deals=0 must be positive"), ("players=5", "players=5 (3 or 4)"),
                                              ("kitty=none targets=9-5-9", "targets 9-5-9 add up to 23, not the 17 tricks")])
def test_the_german_pages_show_why_rules_are_refused(server: Server, browser: Any, opts: str, reason: str) -> None:
    """The repro: on the German home page and lobby every refused option got one vague text ("eine Option ist unbekannt
    oder hat einen falschen Wert (alle Optionen: sergeant-major rules)"), the real reason only in a hover title a phone
    cannot show, and advice to run a terminal command. Now the German lead-in quotes the server's reason, visible."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.fill("#opts", opts)
    page.click("#create-btn")
    page.locator("#error", has_text=reason).wait_for()
    said = page.inner_text("#error")
    assert said.startswith("Die Regeln „9-5-2 " + opts + "“ werden abgelehnt") and "sergeant-major" not in said, said
    assert said.endswith("kein Tisch wurde angelegt."), said
    page.goto(server.url + "/lobby")
    page.fill("#lname", "Rolf")
    page.fill("#lopts", opts)
    page.click("#btn-open")
    page.locator("#error", has_text=reason).wait_for()
    said = page.inner_text("#error")
    assert said.startswith("Die Regeln „9-5-2 " + opts + "“ werden abgelehnt") and "sergeant-major" not in said, said
    assert said.count("nothing was changed") == 0 and said.endswith("nichts wurde geändert."), said
    assert "/lobby" in page.url and errs == []
    ctx.close()


def test_default_seat_names_are_written_in_the_pages_language(server: Server, browser: Any) -> None:
    """The repro: a seat left unnamed stayed "Me" on the German page (seats, score sheet, My games), and a table made
    from the German page showed "Ich" to an English spectator, where a computer's default name is written in each
    page's language ("Heuristik 2"). Now a person's default name is too ("Me" <-> "Ich", "Friend 1" <-> "Freund 1");
    a typed name stays as typed, and so does a default whose translation another seat bears."""
    out = create_table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_init_script("localStorage.setItem('sm-lang', 'de')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("([tid, tok]) => saveToken(tid, tok)", [out["id"], out["seats"][0]["token"]])
    page.goto(server.url + "/t/" + out["id"])
    page.locator(".player[data-seat='0'] .nm", has_text="Ich").wait_for()
    assert [page.inner_text(f".player[data-seat='{i}'] .nm") for i in range(3)] == ["Ich", "Freund 1", "Heuristik 3"]
    page.click("#btn-chat")
    page.click("#phrases button[data-phrase='hello']")
    page.locator("#chatlog li", has_text="Hallo").wait_for()
    assert page.inner_text("#chatlog") == "Ich: Hallo"
    page.goto(server.url + "/history")
    page.locator("b.mine", has_text="Ich").wait_for()
    made_in_german = create_table(server, [{"kind": "me", "name": "Ich"}, {"kind": "me", "name": "Ich 2"},
                                           {"kind": "friend", "name": "Freund 1"}])
    typed = create_table(server, [{"kind": "me"}, {"kind": "me", "name": "Meier"}, {"kind": "friend", "name": "Ich"}])
    en = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    en.goto(server.url + "/t/" + made_in_german["id"])  # an English spectator
    en.locator(".player[data-seat='0'] .nm", has_text="Me").wait_for()
    assert [en.inner_text(f".player[data-seat='{i}'] .nm") for i in range(3)] == ["Me", "Me 2", "Friend 1"]
    page.goto(server.url + "/t/" + typed["id"])  # "Me" would read "Ich" as seat 3's typed name does: kept
    page.locator(".player[data-seat='1'] .nm", has_text="Meier").wait_for()
    assert [page.inner_text(f".player[data-seat='{i}'] .nm") for i in range(3)] == ["Me", "Meier", "Ich"]
    assert errs == []
    ctx.close(), en.context.close()
