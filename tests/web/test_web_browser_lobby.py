"""The lobby, quick play, the turn clock and the quick chat as people use them, in Debian's Chromium: two browsers use
quick play (one computer fills the third seat), chat (one mutes it) and play to the end; a decision not made in time is
made by a computer, shown and recorded; the lobby page and the table's new parts fit a phone and a desktop in English
and German (no word broken inside, no serious or critical axe-core violation). ``SM_UPDATE_BASELINES=1`` writes the lobby's picture
in docs/web.md anew."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import drive, options_held, page_errors  # noqa: E402
from _webhelp import Server, http_json  # noqa: E402
from test_web_browser_look import DOC_IMAGES, check_page  # noqa: E402

from sergeant_major.web.store import Store  # noqa: E402

pytestmark = pytest.mark.browser


def _lobby_page(browser: Any, server: Server, name: str, lang: str = "en", size: tuple[int, int] = (1280, 800)) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server.url + "/lobby")
    page.fill("#lname", name)
    return page


def _quick(page: Any, opts: str, wait: str) -> None:
    page.fill("#lopts", opts)
    page.select_option("#lclock", "0+0")
    page.select_option("#llevel", "random")
    page.select_option("#lwait", wait)
    page.click("#btn-quick")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#players .player")


def test_two_people_quick_play_chat_and_play_to_the_end(server: Server, browser: Any) -> None:
    watcher = _lobby_page(browser, server, "Wes")
    ann = _lobby_page(browser, server, "Ann")
    errs = page_errors(ann)
    _quick(ann, "deals=1", "120")
    ann.wait_for_function("/Computers take the free seats in 1[01][0-9] s/.test(document.querySelector('#fill-in').innerText)")
    # the table waits in the lobby, shown live to another lobby page (no reload)
    watcher.wait_for_selector(".ltable")
    assert "Ann" in watcher.inner_text(".ltable") and "deals=1" in watcher.inner_text(".ltable")
    bea = _lobby_page(browser, server, "Bea")
    _quick(bea, "deals=1", "0")
    watcher.wait_for_selector(".ltable", state="detached")  # full: it waits no more
    assert ann.url.split("/t/")[1] == bea.url.split("/t/")[1]
    ann.wait_for_function("document.querySelectorAll('#players .player').length === 3 && "
                          "document.querySelector('#players').innerText.includes('Random 3')")
    # the quick chat: shown to the other player; muted there, the next phrase is not shown (and the mute is kept)
    ann.click("#btn-chat")
    ann.click("#phrases button[data-phrase='good_luck']")
    bea.wait_for_selector("#chatlog li")
    assert bea.inner_text("#chatlog") == "Ann: Good luck"
    bea.click("#btn-chat")
    bea.check("#chat-mute")
    ann.click("#phrases button[data-phrase='thanks']")
    ann.wait_for_function("document.querySelector('#chatlog').innerText.includes('Thanks')")
    bea.wait_for_timeout(300)
    assert "Thanks" not in bea.inner_text("#chatlog")
    bea.reload()
    bea.wait_for_selector("#players .player")
    assert bea.is_checked("#chat-mute")
    drive([ann, bea], lambda: ann.locator("#end-title").is_visible() and bea.locator("#end-title").is_visible(), limit=120)
    tid = ann.url.split("/t/")[1]
    code, rec = http_json(server, f"/api/tables/{tid}/record")
    assert code == 200 and [p["kind"] for p in rec["players"]] == ["human", "human", "random"]
    assert [p["name"] for p in rec["players"]] == ["Ann", "Bea", "Random 3"]
    assert errs == []
    for p in (watcher, ann, bea):
        p.context.close()


def test_a_decision_not_made_in_time_is_made_by_a_computer_and_recorded(server: Server, browser: Any) -> None:
    code, seat = http_json(server, "/api/lobby/open", {"name": "Tim", "rules": "9-5-2 deals=1", "clock_turn": 5,
                                                       "clock_reserve": 0, "wait": 0, "level": "random"})
    assert code == 200, seat
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(server.url + "/lobby")
    page.evaluate("([id, tok]) => saveToken(id, tok)", [seat["id"], seat["token"]])
    page.goto(server.url + seat["url"])
    page.click("#btn-start")
    # the clock counts down on the page for the player to act, then a computer decides for him
    page.wait_for_function("document.querySelector('#clock').innerText.startsWith('Your time')", timeout=20000)
    assert page.locator(".player.pos-bottom .clk").inner_text().endswith("s left")
    check_page(page, "clock running")
    v0 = json.loads(page.evaluate("JSON.stringify(S.v)"))
    page.wait_for_function(f"S.v > {v0} && S.clock && S.clock.reserves[0] === 0", timeout=20000)
    store = Store(server.db)
    try:
        got = store.table(seat["id"])
    finally:
        store.dispose()
    assert got is not None
    assert [(e.seat, e.data["by"]) for e in got[2] if e.kind == "act" and e.data.get("by") == "clock"][:1] == [(0, "clock")]
    ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_lobby_fits_and_passes_axe(server: Server, browser: Any, size: tuple[int, int], lang: str) -> None:
    http_json(server, "/api/lobby/open", {"name": "Annegret-Sophie Müller-Lüdenscheidt", "rules": "9-5-2 to=20 instant-win=off",
                                          "clock_turn": 20, "clock_reserve": 60, "wait": 120})
    page = _lobby_page(browser, server, "Ann", lang, size)
    page.wait_for_selector(".ltable")
    check_page(page, f"lobby {lang}")
    if os.environ.get("SM_UPDATE_BASELINES") and size == (390, 844) and lang == "en":
        page.screenshot(path=str(DOC_IMAGES / "lobby-390.png"))  # the picture in docs/web.md
    page.click("#btn-open")  # opened: this browser's table page, the chat open, Leave asked
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#players .player")
    page.click("#btn-chat")
    page.click("#btn-leave")
    check_page(page, f"table with chat and leave {lang}")
    page.context.close()


@pytest.mark.parametrize(("lang", "want"), [("en", "Random 2"), ("de", "Zufall 2")])
def test_computers_that_fill_a_lobby_table_are_named_in_the_pages_language(server: Server, browser: Any, lang: str,
                                                                            want: str) -> None:
    """The repro: on the German lobby, Quick play with the wait "at once" filled the seats with "Random 2", "Random 3"
    at a table named "Tisch von Jörg". Now "Zufall 2"; and since the names are written by each page from the level
    stored, they follow a language switch, on the table and in *My games*."""
    page = _lobby_page(browser, server, "Jörg", lang, (390, 844))
    errs = page_errors(page)
    _quick(page, "deals=1", "0")
    page.wait_for_function("document.querySelectorAll('#players .player').length === 3")
    page.locator("#players", has_text=want).wait_for()
    assert page.locator("#players .player .nm").all_inner_texts()[1:] == [want, want[:-1] + "3"]
    other = "Zufall 2" if lang == "en" else "Random 2"
    page.click("#lang")
    page.locator("#players", has_text=other).wait_for()
    assert page.locator("#players .player .nm").all_inner_texts()[1:] == [other, other[:-1] + "3"]
    page.goto(server.url + "/history")  # (opened in the language the test sets for every page)
    page.locator("tr.game", has_text=want[:-1] + "3").first.wait_for()
    page.click("#lang")
    page.locator("tr.game", has_text=other[:-1] + "3").first.wait_for()
    assert errs == []
    page.context.close()


def test_open_a_table_clicked_before_the_lobby_is_ready_opens_it(server: Server, browser: Any) -> None:
    """The repro (a slow server): "Open a table" did nothing when clicked before the lobby had its options, as its
    buttons were wired only after them. Now a click at once waits for them: the options are held back here until after
    the click."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    release = options_held(page)
    page.goto(server.url + "/lobby")
    page.fill("#lname", "Ann")
    page.click("#btn-open")
    release()
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#players .player")
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize(("lang", "want"), [("en", 'at most 4 phrases in 10 s; "Nice trick" was not sent'),
                                          ("de", "„Schöner Stich“ wurde nicht gesendet")])
def test_a_chat_flood_names_the_phrase_as_the_player_saw_it(server: Server, browser: Any, lang: str, want: str) -> None:
    """The repro: five quick phrases within 10 s read `"nice_trick" was not sent` (the phrase's id); now its text in
    the page's language."""
    page = _lobby_page(browser, server, "Ann", lang, (390, 844))
    page.click("#btn-open")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#players .player")
    page.click("#btn-chat")
    for _ in range(5):
        page.click("#phrases button[data-phrase='nice_trick']")
    page.wait_for_function("document.querySelector('#error').innerText !== ''")
    assert want in page.inner_text("#error") and "nice_trick" not in page.inner_text("#error")
    page.context.close()


def test_the_waiting_dialog_calls_a_free_seat_free_once(server: Server, browser: Any) -> None:
    """The repro: at a lobby table waiting for players, the dialog listed the seat nobody took yet as "Free seat 2:
    away", as if someone had sat there and gone; then as "Free seat 2: free seat", waiting "for Free seat 2, Free seat
    3", and the seat at the table "Free seat 2 / free seat". Now the seat is "Free seat 2" (German "Freier Platz 2"), the
    dialog counts the seats still free, and the seat's role line says it waits for a player."""
    ann = _lobby_page(browser, server, "Ann", size=(390, 844))
    errs = page_errors(ann)
    _quick(ann, "deals=1 to=11", "120")
    seats = ann.locator("#seatlist li")
    seats.first.wait_for()
    assert [seats.nth(i).inner_text() for i in range(3)] == ["Ann: online", "Free seat 2", "Free seat 3"]
    assert ann.inner_text("#start-wait") == "The game starts once every seat is taken: 2 seats are still free."
    # the seat at the table too: its name says it is free, its role line what it waits for (it said "free seat" again)
    free = ann.locator(".player[data-seat='1'] .role")
    assert "free seat" not in free.inner_text() and "waiting for a player" in free.inner_text()
    ann.click("#lang")
    ann.locator("#seatlist li", has_text="Freier Platz 2").wait_for()
    assert seats.nth(1).inner_text() == "Freier Platz 2"
    assert "wartet auf einen Spieler" in free.inner_text()
    assert ann.inner_text("#start-wait") == "Das Spiel beginnt, wenn alle Plätze besetzt sind: 2 Plätze sind noch frei."
    assert errs == []
    ann.context.close()


def test_the_waiting_dialog_says_who_left_before_the_start(server: Server, browser: Any) -> None:
    """The repro: Ann opened a lobby table and left the match before deal 1; Bea, joining, read "Ann: away", as if Ann
    might come back (the seat on the felt said "left the match"). Now the dialog says so too."""
    ann = _lobby_page(browser, server, "Ann", size=(390, 844))
    errs = page_errors(ann)
    ann.fill("#lopts", "deals=1 to=12")
    ann.select_option("#lclock", "0+0")
    ann.select_option("#lwait", "120")
    ann.click("#btn-open")
    ann.wait_for_url("**/t/**")
    tid = ann.url.split("/t/")[1]
    ann.locator("#seatlist li").first.wait_for()
    ann.click("#btn-leave")
    ann.click("#btn-leave-yes")
    ann.locator("#status", has_text="You are watching").wait_for()
    bea = _lobby_page(browser, server, "Bea")
    bea_errs = page_errors(bea)
    bea.locator(f".ltable[data-table='{tid}'] button.join").click()
    bea.wait_for_url("**/t/**")
    bea.locator("#seatlist li", has_text="Bea: online").wait_for()
    assert bea.locator("#seatlist li").nth(0).inner_text() == "Ann: left the match"
    assert errs == [] and bea_errs == []
    ann.context.close()
    bea.context.close()


@pytest.mark.parametrize(("lang", "title"), [("en", "Jörg's table"), ("de", "Tisch von Jörg")])
def test_a_table_opened_in_the_lobby_is_named_in_the_pages_language(server: Server, browser: Any, lang: str, title: str) -> None:
    """The repro: a table opened from the German lobby was named "Jörg's table", the server's English default. Now the
    page shows it in its language: the server stores its default name, marked so (``name_default``), which each page
    writes in its own language."""
    page = _lobby_page(browser, server, "Jörg", lang=lang, size=(390, 844))
    errs = page_errors(page)
    page.fill("#lopts", "deals=1 to=13")
    page.select_option("#lwait", "120")
    page.click("#btn-open")
    page.wait_for_url("**/t/**")
    page.locator("#tname", has_text=title).wait_for()
    tid = page.url.split("/t/")[1]
    listed = [(t["name"], t["name_default"]) for t in http_json(server, "/api/lobby")[1]["tables"] if t["id"] == tid]
    assert listed == [("Jörg's table", True)], listed
    assert errs == []
    page.context.close()


@pytest.mark.parametrize(("lang", "said"), [("en", "to='abc': a number (digits 0-9) or off; nothing was changed"),
                                             ("de", "Die Regeln „9-5-2 to=abc“ werden abgelehnt")])
def test_refused_rules_in_the_lobby_are_quoted(server: Server, browser: Any, lang: str, said: str) -> None:
    """The repro: the lobby answered options such as ``to=abc`` with "Those rules are refused: an option is unknown or
    has a wrong value" - not saying which, where the home page quotes the option and its value. Now the English page
    gives the server's words, which quote it, and the German one quotes the rules."""
    page = _lobby_page(browser, server, "Rolf", lang=lang, size=(390, 844))
    errs = page_errors(page)
    page.fill("#lopts", "to=abc")
    page.click("#btn-open")
    page.locator("#error", has_text=said).wait_for()
    assert "/lobby" in page.url and errs == []
    page.context.close()


@pytest.mark.parametrize(("lang", "said"), [("en", "your name 'ALICE_T' is refused: it is a registered player's name"),
                                             ("de", "Dein Name „ALICE_T“ wird abgelehnt: er gehört einem registrierten Spieler")])
def test_a_guest_may_not_take_a_registered_players_name_in_the_lobby(server: Server, browser: Any, lang: str, said: str) -> None:
    """The repro: a guest typed "alice_t", an account's name, in the lobby and was listed like the account, only its
    rating missing. Now it is refused, quoted, in the page's language; the lobby stays as it was."""
    status, _ = http_json(server, "/api/account/register", {"name": "alice_t", "password": "a good password"})
    assert status in (200, 400)  # 400: registered by the other language's run
    page = _lobby_page(browser, server, "ALICE_T", lang=lang, size=(390, 844))
    errs = page_errors(page)
    page.fill("#lopts", "deals=1 to=14")
    page.click("#btn-open")
    page.locator("#error", has_text=said).wait_for()
    assert "/lobby" in page.url and errs == []
    assert not any("deals=1 to=14" in t["rules"] for t in http_json(server, "/api/lobby")[1]["tables"])
    page.context.close()


@pytest.mark.parametrize(("lang", "size", "note"), [("de", (390, 844), "der Name deines Kontos"),
                                                    ("en", (1280, 800), "your account's name")], ids=["de-phone", "en-desktop"])
def test_a_name_fixed_by_the_account_reads_as_text(server: Server, browser: Any, lang: str, size: tuple[int, int], note: str) -> None:
    """The repro: logged in, the lobby's name is the account's and cannot be changed (the field is read-only), but it
    looked like any field to type in. Now it reads as plain text (no field's box), said to be the account's name; a
    guest's name is a field as before."""
    from _browserhelp import register_in_page

    page = _lobby_page(browser, server, "", lang, size)
    errs = page_errors(page)
    register_in_page(page, server.url, f"Fixa{lang}", "a good password")
    page.goto(server.url + "/lobby")
    page.wait_for_function("document.getElementById('lname').readOnly")
    look = "(e) => { const s = getComputedStyle(e); return [s.backgroundColor, s.borderTopColor, s.fontWeight]; }"
    assert page.eval_on_selector("#lname", look) == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)", "700"]
    assert page.input_value("#lname") == f"Fixa{lang}" and page.inner_text("#lname-note") == note
    box = page.locator("#lname").bounding_box()
    assert box and box["x"] + box["width"] <= size[0], box
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/lobby-fixed-name-{size[0]}-{lang}.png")
    check_page(page, f"lobby logged in {lang}")
    guest = _lobby_page(browser, server, "Gus", lang, size)
    assert not guest.eval_on_selector("#lname", "(e) => e.readOnly") and not guest.locator("#lname-note").is_visible()
    assert guest.eval_on_selector("#lname", look)[0] == "rgb(255, 255, 255)"
    assert errs == []
    page.context.close()
    guest.context.close()


@pytest.mark.parametrize(("lang", "size", "lobby_name", "plain"), [("de", (390, 844), "Tisch von Ulla", "Tisch"),
                                                                   ("de", (1280, 800), "Tisch von Ulla", "Tisch"),
                                                                   ("en", (390, 844), "Ulla's table", "Table")],
                         ids=["de-phone", "de-desktop", "en-phone"])
def test_a_default_table_name_is_shown_in_the_pages_language(server: Server, browser: Any, lang: str, size: tuple[int, int],
                                                             lobby_name: str, plain: str) -> None:
    """The repro: a table named by default in English ("Ulla's table" by the server or an English lobby page, "Table"
    from an English home page) kept that name on German pages, in the lobby's list and the table's header. Now a
    default name is shown in the page's language ("Tisch von Ulla", "Tisch"); a name typed is shown as it is."""
    from _browserhelp import create_table

    code, seat = http_json(server, "/api/lobby/open", {"name": "Ulla", "rules": "9-5-2 deals=1", "wait": 120})
    assert code == 200, seat
    page = _lobby_page(browser, server, "Vera", lang, size)
    errs = page_errors(page)
    row = page.locator(f".ltable[data-table='{seat['id']}']")
    row.wait_for()
    assert row.locator(".ltname").inner_text() == lobby_name
    assert str(row.locator("button.join").get_attribute("aria-label")).endswith(": " + lobby_name)
    check_page(page, f"lobby default names {lang}")
    page.goto(server.url + "/t/" + seat["id"])  # watching it: its header
    page.locator("#tname .cut", has_text=lobby_name).wait_for()
    assert page.title() == lobby_name + " · Sergeant Major"
    out = create_table(server, [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}])  # no name: "Table"
    page.goto(server.url + "/t/" + out["id"])
    page.locator("#players .player").first.wait_for()
    assert page.inner_text("#tname .cut") == plain
    code, typed = http_json(server, "/api/tables", {"name": "Table 7", "rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"},
                                                                                                 {"kind": "computer"}]})
    assert code == 200, typed
    page.goto(server.url + "/t/" + typed["id"])  # a name typed: as it is
    page.locator("#players .player").first.wait_for()
    assert page.inner_text("#tname .cut") == "Table 7"
    assert errs == []
    page.context.close()


def test_a_guest_renamed_for_a_registered_name_is_said_in_german(server: Server, browser: Any) -> None:
    """The repro: a guest's lobby seat renamed when another registered its name ("Zora (guest)") was shown in English
    on a German lobby and table, and the table's default name stopped being translated ("Zora's table"). Now the seat
    reads "Zora (Gast)" and the table "Tisch von Zora" in the lobby and on the table page."""
    from _browserhelp import register_in_page

    code, seat = http_json(server, "/api/lobby/open", {"name": "Zora", "rules": "9-5-2 deals=1", "wait": 120})
    assert code == 200, seat
    ctx = browser.new_context()
    register_in_page(ctx.new_page(), server.url, "Zora", "a good password")
    ctx.close()
    page = _lobby_page(browser, server, "Vera", "de", (390, 844))
    errs = page_errors(page)
    row = page.locator(f".ltable[data-table='{seat['id']}']")
    row.locator(".lname", has_text="Zora (Gast)").wait_for()
    assert row.locator(".ltname").inner_text() == "Tisch von Zora"
    assert "(guest)" not in row.inner_text()
    check_page(page, "lobby guest renamed de")
    if os.environ.get("SM_GUEST_SHOT"):
        page.screenshot(path=os.environ["SM_GUEST_SHOT"])
    page.goto(server.url + "/t/" + seat["id"])  # watching it: its header and seats
    page.locator("#players .player .nm", has_text="Zora (Gast)").wait_for()
    assert page.inner_text("#tname .cut") == "Tisch von Zora"
    assert errs == []
    page.context.close()
