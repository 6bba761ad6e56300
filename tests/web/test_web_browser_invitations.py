"""Invitations in headless Debian Chromium (Playwright; skipped when /usr/bin/chromium or the playwright package is
missing): an invitation never replaces this browser's seat, refused names asked again, a second *me* seat's link,
texts that are no invitation link, a connection lost during *Join*, deal 1 waiting for the invited friend."""

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
from _browserhelp import create_at_home, create_table, open_page, page_errors, page_in_language  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def _tokens(page: Any) -> dict[str, str]:
    return dict(json.loads(page.evaluate("localStorage.getItem('sm-tokens') || '{}'")))


def test_invitation_never_replaces_my_seat_and_bad_tokens_are_not_saved(server: Server, browser: Any) -> None:
    ca, cs = browser.new_context(), browser.new_context()
    a = ca.new_page()
    errs = page_errors(a)
    create_at_home(a, server, "", ["me", "friend", "computer:heuristic"])
    # Copy gives feedback (the clipboard, or the link selected for Ctrl+C on plain http)
    a.locator("#invites button.copy").first.click()
    a.locator("#invites .copied").first.wait_for()
    assert a.inner_text("#invites .copied") in ("Copied", "Copying failed: the link is selected, copy it with Ctrl+C")
    invite = a.locator("#invites a.invite").first.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    tid = a.url.rsplit("/", 1)[1]
    a.locator("#btn-start").wait_for()
    mine = _tokens(a)[tid]
    # the host opens the friend's link: asked, keeps her seat
    a.goto(invite)
    a.locator("#other-seat").wait_for()
    a.click("#btn-keep")
    a.locator(".player[data-seat='0']", has_text="you").wait_for()
    assert _tokens(a)[tid] == mine
    # a spectator may close the waiting dialog, and it stays closed
    s = cs.new_page()
    s.goto(server.url + "/t/" + tid)
    s.locator("#btn-close").click()
    assert not s.locator("#dlg").is_visible()
    # a made-up token: said at once (no name asked first), quoted, not saved; the way home, or to watch
    s.goto(server.url + "/t/" + tid + "#token=madeup123")
    s.locator("#badinvite").wait_for()
    assert "not valid" in s.inner_text("#badinvite h2") and "“madeup123”" in s.inner_text("#badinvite-text")
    assert not s.locator("#myname").is_visible()
    assert s.locator("#badinvite a[href='/']").count() == 1
    s.click(f"#badinvite a[href='/t/{tid}']")
    s.locator("#status", has_text="watching").wait_for()
    cf = browser.new_context()  # the friend takes his seat (deal 1 waits for him): a new state reaches the spectator
    f = cf.new_page()
    f.goto(invite)
    f.fill("#myname", "Bob")
    f.click("#btn-join")
    s.locator(".player[data-seat='1']", has_text="online").wait_for()
    a.click("#btn-start")  # the error stays
    s.locator("#contract", has_text="Deal 1").wait_for()
    s.wait_for_function("document.querySelector('#seatlist') === null || !document.querySelector('#dlg').open")
    cf.close()
    assert tid not in _tokens(s)
    # the host asks for the friend's seat this time: it becomes hers, her own token is kept for My games
    a.goto(invite)
    a.locator("#other-seat").wait_for()
    a.click("#btn-switch")
    a.locator(".player[data-seat='1']", has_text="you").wait_for()
    assert _tokens(a)[tid] == invite.split("#token=")[1]
    assert mine in json.loads(a.evaluate("localStorage.getItem('sm-tokens-more')"))
    assert not errs, errs
    ca.close()
    cs.close()


def test_my_games_continues_each_seat_with_its_own_token(server: Server, browser: Any) -> None:
    """The repro: a seat given up for an invitation at the same table (kept for My games) was listed, but its continue
    link opened the table with the seat the browser holds now, and no row said which seat it was. Now each row marks
    its seat and a given-up seat's link carries that seat's token (the table page then asks before switching)."""
    ctx = browser.new_context()
    a = ctx.new_page()
    errs = page_errors(a)
    create_at_home(a, server, "", ["me", "friend", "computer:heuristic"])
    invite = a.locator("#invites a.invite").first.get_attribute("href")
    a.click("#go")
    a.wait_for_url("**/t/*")
    tid = a.url.rsplit("/", 1)[1]
    a.locator("#btn-start").wait_for()
    mine = _tokens(a)[tid]
    a.goto(invite)  # the host takes the friend's seat: seat 0's token is kept for My games
    a.locator("#other-seat").wait_for()
    a.click("#btn-switch")
    a.locator(".player[data-seat='1']", has_text="you").wait_for()
    a.goto(server.url + "/history")
    rows = a.locator(f"tr.game[data-id='{tid}']")
    rows.nth(1).wait_for()
    assert rows.count() == 2
    links = {rows.nth(i).locator("b.mine").inner_text(): rows.nth(i).locator("a.continue").get_attribute("href")
             for i in range(2)}
    # the seat held now (the friend's) opens the table as it is; the creator's seat, given up, with its token
    assert sorted(links.values()) == [f"/t/{tid}", f"/t/{tid}#token={mine}"], links
    assert links["Friend 1 (you)"] == f"/t/{tid}", links
    a.click(f"tr.game[data-id='{tid}'] a.continue[href*='#token=']")  # the given-up seat: asked, then switched back
    a.locator("#other-seat").wait_for()
    a.click("#btn-switch")
    a.locator(".player[data-seat='0']", has_text="you").wait_for()
    assert _tokens(a)[tid] == mine
    assert not errs, errs
    ctx.close()


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
    errs = page_errors(page)
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


def _refused_then_bea_joins(server: Server, browser: Any, lang: str, name: str, said: str, phone: bool = False,
                            shot: str | None = None) -> None:
    """An invited friend types ``name`` (the page in ``lang``; at 390x844 with ``phone``): the page says ``said``, asks
    again with the invitation kept, and "Bea" then takes the seat."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2", "seats": [
        {"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]}).json()
    tid, invite = out["id"], out["seats"][1]["invite"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}) if phone else browser.new_context()
    ctx.add_init_script(f"localStorage.setItem('sm-lang', {json.dumps(lang)})")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + invite)
    page.locator("#myname").wait_for()
    page.fill("#myname", name)
    page.click("#btn-join")
    page.locator("#error", has_text=said).wait_for()
    page.locator("#myname").wait_for()  # asked again
    if shot and os.environ.get("SM_LOOK_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["SM_LOOK_SHOTS"], shot))
    assert page.evaluate("document.querySelector('#dlg').open")
    page.fill("#myname", "Bea")
    page.click("#btn-join")
    page.locator(".player[data-seat='1']", has_text="Bea").wait_for()
    assert json.loads(page.evaluate("localStorage.getItem('sm-tokens')"))[tid] == invite.split("#token=")[1]
    assert page.inner_text("#error") == ""
    assert errs == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_name_another_seat_has_asks_again(server: Server, browser: Any, lang: str) -> None:
    """An invited friend who types the name of another seat ("me", the creator's seat 0) is refused by the server
    with ``name_taken`` (two seats of one name could be told apart nowhere), told so in the page's language, and asked
    again with the invitation kept; another name then takes the seat."""
    _refused_then_bea_joins(server, browser, lang, "me", "anderen Platz" if lang == "de" else "is another seat's at this table")


@pytest.mark.parametrize(("lang", "head", "taken"), [
    ("en", "You are invited to seat 2. At the table already: Host.", 'The name "host" is another seat\'s at this table already'),
    ("de", "Du bist auf Platz 2 eingeladen. Schon am Tisch: Host.", 'Der Name "host" gehört schon einem anderen Platz')])
def test_the_invitations_name_page_names_the_table_and_who_is_there(server: Server, browser: Any, lang: str, head: str,
                                                                   taken: str) -> None:
    """The repro: an invitation's name page showed only "Sergeant Major" and "Your name", not which table or who
    invited; and the English page refused a name another seat has as "already seat 0's (seats count from 0)", where
    the page counts seats from 1. Now the dialog names the table, the seat (from 1) and who sits there already, and the
    refusal is the page's own words in both languages (the server's reason stays the title)."""
    out = create_table(server, [{"kind": "me", "name": "Host"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    host_ctx, host = open_page(browser, server, out["id"], token=out["seats"][0]["token"])
    host.locator(".player[data-seat='0']", has_text="Host").wait_for()
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', {json.dumps(lang)})")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + out["seats"][1]["invite"])
    page.locator("#myname").wait_for()
    assert page.inner_text("#invite-table") == ("Table" if lang == "en" else "Tisch")
    assert page.inner_text("#invite-who") == head
    page.fill("#myname", "host")
    page.click("#btn-join")
    page.locator("#error", has_text=taken).wait_for()
    assert "seat 0" not in page.inner_text("#error") and "count from 0" not in page.inner_text("#error")
    page.locator("#invite-who", has_text=head).wait_for()  # asked again, still named
    page.fill("#myname", "Bea")
    page.click("#btn-join")
    page.locator(".player[data-seat='1']", has_text="Bea").wait_for()
    assert errs == []
    ctx.close(), host_ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_name_written_as_a_computer_s_asks_again(server: Server, browser: Any, lang: str) -> None:
    """An invited friend who types a computer's name ("Heuristik 3", as the German page writes seat 3's computer) is
    refused with ``computer_name``, told so in the page's language quoting the name, and asked again with the invitation
    kept; another name then takes the seat."""
    said = "Der Name \"Heuristik 3\" wird abgelehnt: so wird ein Computer geschrieben" if lang == "de" else \
        "the name 'Heuristik 3' is refused: it is written as a computer player's name"
    _refused_then_bea_joins(server, browser, lang, "Heuristik 3", said, phone=True, shot=f"390-computer-name-{lang}.png")



@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_registered_players_name_asks_again(server: Server, browser: Any, lang: str) -> None:
    """The repro: a friend joining by invitation, not logged in, sat as "alice_t", an account's name. Now it is refused
    with ``account_name``, told so in the page's language quoting the name, and asked again with the invitation kept;
    another name then takes the seat."""
    import httpx

    httpx.post(server.url + "/api/account/register", json={"name": "alice_t", "password": "a good password"})
    said = "Der Name \"Alice_T\" wird abgelehnt: er gehört einem registrierten Spieler" if lang == "de" else \
        "the name 'Alice_T' is refused: it is a registered player's name"
    _refused_then_bea_joins(server, browser, lang, "Alice_T", said, phone=True)

def test_a_second_me_seat_gets_a_link(server: Server, browser: Any) -> None:
    ca, cb = browser.new_context(), browser.new_context()
    a = ca.new_page()
    errs = page_errors(a)
    a.goto(server.url + "/")
    a.select_option("#seats .seatrow[data-seat='1'] .kind", "me")
    a.click("#create-btn")
    # the page stays to show the second seat's link (it went straight to the table, and that seat's token was lost)
    a.locator("#created").wait_for()
    links = a.locator("#invites a.invite")
    assert links.count() == 1 and "Seat 2" in a.inner_text("#invites")
    href = links.first.get_attribute("href")
    assert href and "#token=" in href
    a.click("#go")
    a.wait_for_url("**/t/*")
    a.locator(".player[data-seat='0']", has_text="you").wait_for()
    b = cb.new_page()
    b.goto(href)
    b.fill("#myname", "Ben")
    b.click("#btn-join")
    b.locator(".player[data-seat='1']", has_text="you").wait_for()
    a.locator(".player[data-seat='1']", has_text="online").wait_for()
    assert "Ben" in a.inner_text(".player[data-seat='1']")
    assert not errs, errs
    ca.close()
    cb.close()


@pytest.mark.parametrize(("width", "lang"), [(390, "en"), (390, "de"), (1280, "en")], ids=["390-en", "390-de", "1280-en"])
def test_an_invitation_whose_token_holds_no_seat_is_said_at_once(server: Server, browser: Any, width: int, lang: str) -> None:
    """The repro: a link with a wrong token asked for a name, and only after *Join* said that the token holds no seat.
    Now the page says at once that the invitation is not valid, quoting its token, in the page's language, asks for no
    name, saves nothing, and offers the way home or to watch the table; opened on the table's page (only the
    ``#token=`` changed), the same."""
    out = create_table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}])
    tid = out["id"]
    ctx, page, errs = page_in_language(browser, server, lang, width)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    page.goto(server.url + "/t/" + tid + "#token=Wr0ng-t0ken_x")
    page.locator("#badinvite").wait_for()
    title, quoted = {"en": ("This invitation is not valid", "“Wr0ng-t0ken_x”"),
                     "de": ("Diese Einladung ist ungültig", "„Wr0ng-t0ken_x“")}[lang]
    assert page.inner_text("#badinvite h2") == title and quoted in page.inner_text("#badinvite-text")
    assert tid in page.inner_text("#badinvite-text")
    assert not page.locator("#myname").is_visible() and not page.locator("#dlg").is_visible()
    assert page.locator("#badinvite a[href='/']").is_visible() and page.locator(f"#badinvite a[href='/t/{tid}']").is_visible()
    assert not any('"join"' in f for f in sent), sent  # nothing joined: only the question
    assert tid not in _tokens(page)
    box = page.locator("#badinvite").bounding_box()
    assert box and box["x"] + box["width"] <= width, box
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/bad-invite-{width}-{lang}.png", full_page=True)
    page.click("#badinvite a[href='/']")
    page.wait_for_url(server.url + "/")
    # a wrong token opened on the table's page itself (only the #token= part changed): the same, at once
    page.goto(server.url + "/t/" + tid)
    page.locator("#status").wait_for()
    page.evaluate("location.hash = '#token=alsoWrong'")
    page.locator("#badinvite", has_text="alsoWrong").wait_for()
    assert not page.locator("#myname").is_visible()
    assert not errs, errs
    ctx.close()


def test_a_text_that_is_not_an_invitation_link_is_explained(server: Server, browser: Any) -> None:
    """The repro: *Open an invitation* with ``foo`` showed "?? foo" (in German too). Now the reason, in the page's
    language, quoting what was pasted."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.fill("#invite-url", "foo")
    page.click("#invite-form button")
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert page.locator("#error").text_content() == "“foo” is not an invitation link: paste the whole link you were sent (…/t/…#token=…)"
    assert page.url.rstrip("/") == server.url  # nowhere else
    page.evaluate("setLang('de')")
    page.fill("#invite-url", "bar")
    page.click("#invite-form button")
    page.wait_for_function("document.getElementById('error').textContent.includes('bar')")
    assert page.locator("#error").text_content() == "„bar“ ist kein Einladungslink: füge den ganzen Link ein, den du bekommen hast (…/t/…#token=…)"
    assert not errs, errs
    ctx.close()


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


def test_an_invitation_survives_a_connection_lost_during_the_join(server: Server, browser: Any) -> None:
    """The repro: an invited friend typed her name and pressed Join; the connection dropped before the server seated
    her. The page reconnected as a spectator: the token was gone from the address bar and never saved, so the
    invitation was lost for good. Now the join is sent again on the new connection and she holds the seat."""
    out = create_table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    tid, invite = out["id"], out["seats"][1]["invite"]
    ctx = browser.new_context()
    ctx.add_init_script(DROP_FIRST_JOIN)
    page = ctx.new_page()
    errs = page_errors(page)
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


def test_a_name_with_quotes_is_offered_whole_at_the_next_invitation(server: Server, browser: Any) -> None:
    """The repro: a friend who had joined as ``Big "Al" <3`` opened another invitation: the name field offered ``Big ``
    (the name was put into the field's HTML attribute, where its quote ended it). Now the whole name is offered."""
    import httpx

    name = 'Big "Al" <3'
    ctx = browser.new_context()
    ctx.add_init_script(f"localStorage.setItem('sm-name', {json.dumps(name)})")
    page = ctx.new_page()
    errs = page_errors(page)
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


def test_deal_one_waits_for_the_invited_friend(server: Server, browser: Any) -> None:
    """The repro: Ann made a table with an invited friend, sent him the link and pressed *Start the game* at once: deal
    1 was dealt and her computer neighbour played on while the friend had not even opened the link. Now the button is
    disabled and says whom the table waits for; a start sent anyway is refused (``empty_seat``, in German too); once
    the friend has joined, the button works."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
    tid = out["id"]
    ca, a = open_page(browser, server, tid, token=out["seats"][0]["token"])
    errs = page_errors(a)
    a.locator("#btn-start").wait_for()
    assert a.locator("#btn-start").is_disabled()
    assert a.inner_text("#start-wait") == "The game starts once everyone is at the table: waiting for Friend 1."
    # a start sent anyway (an old page, a script): refused by the server, nothing dealt
    a.evaluate("ws.send(JSON.stringify({type: 'start', v: S.v}))")
    a.locator("#error", has_text="nobody holds seat 2 (\"Friend 1\")").wait_for()  # seats counted from 1 as the page does
    assert a.evaluate("S.waiting_start") is True
    a.click("#lang")
    assert a.inner_text("#start-wait") == "Das Spiel beginnt, wenn alle am Tisch sind: warten auf Freund 1."
    a.evaluate("ws.send(JSON.stringify({type: 'start', v: S.v}))")
    a.locator("#error", has_text="alle Plätze besetzt").wait_for()
    a.click("#lang")
    # the friend joins: the button is enabled, the explanation gone; the deal starts
    cf, f = open_page(browser, server, tid, invite=out["seats"][1]["invite"])
    f.fill("#myname", "Bob")
    f.click("#btn-join")
    a.locator("#seatlist", has_text="Bob: online").wait_for()
    assert a.locator("#btn-start").is_enabled() and a.locator("#start-wait").count() == 0
    a.click("#btn-start")
    f.wait_for_function("S && !S.waiting_start")
    assert not errs, errs
    ca.close()
    cf.close()


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
        out = create_table(server, [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}])
        cf, f = open_page(browser, server, out["id"], invite=out["seats"][1]["invite"])
        errs = page_errors(f)
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

        p = create_table(server, [{"kind": "me"}, {"kind": "computer", "level": "random"}, {"kind": "computer", "level": "random"}])
        cp, page = open_page(browser, server, p["id"], token=p["seats"][0]["token"])
        errs = page_errors(page)
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


@pytest.mark.parametrize(("width", "lang"), [(390, "de"), (1280, "en")])
def test_a_wrong_invitation_where_i_play_is_said_first_with_no_switch(server: Server, browser: Any, width: int, lang: str) -> None:
    """The repro: seated at a table, opening a wrong or expired invitation link of it offered *Keep my seat* or *Play
    the invitation's seat instead*, and only a press of the latter said that the invitation holds no seat. Now the page
    asks the server first and says at once that the invitation is not valid, quoting its token, and that this browser
    keeps its seat; it never offers to switch; closed, the table goes on (the start). The same when only the address's
    ``#token=`` changes; a right invitation still offers Keep or Switch."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer"}])
    tid, mine = out["id"], out["seats"][0]["token"]
    ctx, page, errs = page_in_language(browser, server, lang, width)
    page.add_init_script("""window.__offered = 0; new MutationObserver(() => {
      if (document.getElementById('btn-switch')) window.__offered++; }).observe(document, {childList: true, subtree: true});""")
    page.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, mine])
    page.goto(server.url + "/t/" + tid + "#token=Exp1red-t0ken")
    page.locator("#dlg #badinvite").wait_for()
    title, kept = {"en": ("This invitation is not valid", "You keep your seat here as Ann."),
                   "de": ("Diese Einladung ist ungültig", "Du behältst deinen Platz hier als Ann.")}[lang]
    assert page.inner_text("#badinvite h2") == title and "Exp1red-t0ken" in page.inner_text("#badinvite-text")
    assert page.inner_text("#badinvite-kept") == kept
    assert page.evaluate("window.__offered") == 0 and page.locator("#btn-keep").count() == 0
    box = page.locator("#dlg").bounding_box()
    assert box and box["x"] + box["width"] <= width, box
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/bad-invite-seated-{width}-{lang}.png")
    page.click("#btn-badinvite-ok")
    page.locator("#btn-start").wait_for()  # the table as before: its start dialog
    assert _tokens(page)[tid] == mine
    page.evaluate("location.hash = '#token=alsoWr0ng'")  # only the #token= changed
    page.locator("#badinvite", has_text="alsoWr0ng").wait_for()
    assert page.evaluate("window.__offered") == 0
    page.click("#btn-badinvite-ok")
    page.evaluate("(tok) => { location.hash = '#token=' + tok; }", out["seats"][1]["invite"].split("#token=")[1])
    page.locator("#btn-switch").wait_for()  # a right invitation: Keep or Switch, as before
    page.click("#btn-keep")
    assert _tokens(page)[tid] == mine
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_invalid_invitation_dialog_follows_the_language_and_yields_to_a_valid_one(server: Server, browser: Any,
                                                                                      width: int) -> None:
    """The repro: seated at a table, the dialog saying an invitation is not valid closed when the language was switched
    (or stayed English), and a valid invitation link opened while it was open was ignored. Now a switch writes it anew
    in German, still open; a valid invitation opened then is offered (Keep or Switch) in its place."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer"}])
    tid, mine = out["id"], out["seats"][0]["token"]
    ctx, page, errs = page_in_language(browser, server, "en", width)
    page.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, mine])
    page.goto(server.url + "/t/" + tid + "#token=Exp1red-t0ken")
    page.locator("#dlg #badinvite", has_text="This invitation is not valid").wait_for()
    page.click("#lang")
    page.locator("#dlg #badinvite", has_text="Diese Einladung ist ungültig").wait_for()
    assert page.locator("#dlg").is_visible() and "Exp1red-t0ken" in page.inner_text("#badinvite-text")
    assert page.inner_text("#badinvite-kept") == "Du behältst deinen Platz hier als Ann."
    assert page.inner_text("#btn-badinvite-ok") != "Close"
    box = page.locator("#dlg").bounding_box()
    assert box and box["x"] + box["width"] <= width, box
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/bad-invite-seated-switched-{width}.png")
    page.evaluate("(tok) => { location.hash = '#token=' + tok; }", out["seats"][1]["invite"].split("#token=")[1])
    page.locator("#btn-switch").wait_for()  # the valid invitation: Keep or Switch, the invalid one's dialog gone
    assert page.locator("#badinvite").count() == 0
    page.click("#btn-keep")
    assert _tokens(page)[tid] == mine
    assert not errs, errs
    ctx.close()


def test_the_invalid_invitation_page_follows_the_language_and_yields_to_a_valid_one(server: Server, browser: Any) -> None:
    """The repro: not seated, the page saying an invitation is not valid turned into "table not found" on a language
    switch, and a valid invitation opened on it (only the ``#token=`` changed) was ignored. Now the switch says it in
    German, and the valid invitation asks for the name to join."""
    out = create_table(server, [{"kind": "me", "name": "Ann"}, {"kind": "friend"}, {"kind": "computer"}])
    tid = out["id"]
    ctx, page, errs = page_in_language(browser, server, "en", 360)
    page.goto(server.url + "/t/" + tid + "#token=Wr0ng-t0ken_x")
    page.locator("#badinvite", has_text="This invitation is not valid").wait_for()
    page.click("#lang")
    page.locator("#badinvite", has_text="Diese Einladung ist ungültig").wait_for()
    assert "„Wr0ng-t0ken_x“" in page.inner_text("#badinvite-text")
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/bad-invite-switched-360.png")
    page.evaluate("(tok) => { location.hash = '#token=' + tok; }", out["seats"][1]["invite"].split("#token=")[1])
    page.locator("#myname").wait_for()  # the valid invitation: the name asked, to join its seat
    assert page.locator("#badinvite").count() == 0
    assert not errs, errs
    ctx.close()
