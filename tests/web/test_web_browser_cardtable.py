"""Playing at the card table in headless Debian Chromium: the keyboard focus after *Start* pressed with Enter, the
dealer's hand never shaded while trump is named, cards to discard picked, changed and confirmed, a touch screen's
tap to raise and tap to play, a finished trick held in the middle (issue 33); every card
of the hand wide enough to tap; the match end's last result headed, with the totals."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import page_errors, page_in_language, practice  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser

IN_HAND_LEGAL = "document.activeElement && document.activeElement.matches('#hand button.legal')"


def test_start_with_enter_puts_the_focus_in_the_hand(server: Server, browser: Any) -> None:
    """The repro: after *Start* pressed with Enter the focus fell to the page (four Tabs to the hand). Now it goes to
    the hand, and to a card that may be played when it is this seat's turn."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    practice(page, server, "9-5-2 deals=1", 3)  # seed 3: a computer deals; this seat plays from the first trick
    page.locator("#btn-start").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(IN_HAND_LEGAL, timeout=30000)
    page.keyboard.press("Enter")  # and plays from there
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 15")
    assert not errs, errs
    ctx.close()


def test_the_dealer_picks_discards_changes_them_and_confirms(server: Server, browser: Any) -> None:
    """Naming trump, the dealer's hand is never shaded; discards are picked (shown raised and in the bar), can be
    changed, and go only when confirmed."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    practice(page, server, "9-5-2 deals=1", 1)  # seed 1: this seat deals, names trump, takes the kitty, discards 4
    page.click("#btn-start")
    page.locator("#stepbar button.step").first.wait_for()
    assert page.locator("#hand.choosing").count() == 0
    assert page.evaluate("getComputedStyle(document.querySelector('#hand .card .face')).filter") == "none"
    assert page.evaluate("document.activeElement.matches('#stepbar button.step')")
    page.locator("#stepbar button.step").first.click()
    page.locator("#btn-confirm").wait_for()
    assert page.locator("#btn-confirm").is_disabled()
    cards = page.locator("#hand button.legal")
    first, second, third = (cards.nth(i).get_attribute("data-card") for i in range(3))
    cards.nth(0).click()
    cards.nth(1).click()
    page.locator("#step-title", has_text="2 of 4 chosen").wait_for()
    assert page.locator("#hand button.picked").count() == 2
    assert page.get_attribute(f"#hand button[data-card='{first}']", "aria-pressed") == "true"
    page.locator(f"#hand button[data-card='{first}']").click()  # changed: the first one back
    page.locator(f"#hand button[data-card='{third}']").click()
    page.locator("#step-title", has_text="2 of 4 chosen").wait_for()
    assert page.locator("#hand button.card").count() == 20  # nothing discarded yet
    page.click("#btn-confirm")
    page.locator("#step-title", has_text="(2 left)").wait_for()
    page.wait_for_function("document.getElementById('exinfo').textContent.startsWith('Your discards: ')")
    hand = page.evaluate("Array.from(document.querySelectorAll('#hand button.card')).map((b) => b.dataset.card)")
    assert second not in hand and third not in hand and first in hand, (first, second, third, hand)
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize(("lang", "start", "done"), [
    ("en", "Discard 4 cards · choose in your hand · 3 of 4 chosen", "Discard 4 cards · 4 of 4 chosen: press Confirm to discard them"),
    ("de", "4 Karten drücken · in deinem Blatt wählen · 3 von 4 gewählt", "4 Karten drücken · 4 von 4 gewählt: Bestätigen drückt sie")])
def test_the_discard_bar_says_confirm_once_all_are_chosen(server: Server, browser: Any, lang: str, start: str, done: str) -> None:
    """The repro: with 4 cards picked the bar read "Discard 4 cards (4 left) · choose in your hand · 4 of 4 chosen":
    4 left and chosen, and still told to choose. Now "(n left)" only once some are gone, and with all chosen the bar
    says what is left to do: Confirm."""
    ctx, page, errs = page_in_language(browser, server, lang, width=360)
    practice(page, server, "9-5-2 deals=1", 1)  # seed 1: this seat deals, names trump, takes the kitty, discards 4
    page.click("#btn-start")
    while page.locator("#btn-confirm").count() == 0:  # name trump, take the kitty: the bar's buttons
        steps = page.locator("#stepbar button.step")
        if steps.count() and steps.first.is_visible():
            try:  # the step may go between the look and the click (the kitty taken): look again, not wait 30 s
                steps.first.click(timeout=2000)
            except sync_api.TimeoutError:
                pass
        page.wait_for_timeout(40)
    cards = page.locator("#hand button.legal")
    for i in range(3):
        cards.nth(i).click()
    page.locator("#step-title", has_text="3").wait_for()
    assert page.inner_text("#step-title") == start
    cards.nth(3).click()
    page.locator("#step-title", has_text=done).wait_for()
    assert page.inner_text("#step-title") == done
    if os.environ.get("SM_LOOK_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["SM_LOOK_SHOTS"], f"360-discard-chosen-{lang}.png"))
    assert not errs, errs
    ctx.close()


def test_a_tap_raises_a_card_and_a_second_tap_plays_it(server: Server, browser: Any) -> None:
    """On a touch screen the first tap raises a card, the second plays it; *One tap plays a card* plays at once."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errs = page_errors(page)
    practice(page, server, "9-5-2 deals=1", 3)
    page.click("#btn-start")
    card = page.locator("#hand button.legal").first
    card.wait_for(timeout=30000)
    code = card.get_attribute("data-card")
    card.tap()
    page.locator(f"#hand button.raised[data-card='{code}']").wait_for()
    assert page.locator("#hand button.card").count() == 16
    card.tap()
    page.locator(f"#hand button[data-card='{code}']").wait_for(state="detached")
    page.evaluate("saveSettings(Object.assign(settings(), {oneTap: true}))")
    nxt = page.locator("#hand button.legal").first
    nxt.wait_for(timeout=30000)
    code = nxt.get_attribute("data-card")
    nxt.tap()
    page.locator(f"#hand button[data-card='{code}']").wait_for(state="detached")
    assert not errs, errs
    ctx.close()


def test_a_finished_trick_stays_with_its_winner_marked(server: Server, browser: Any) -> None:
    """The repro: when a computer led the next trick the finished one was gone after the pacing delay. Now it stays in
    the middle, its winner marked, for the pause of the settings, and then goes (to its winner)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("saveSettings(Object.assign(settings(), {trickPause: 2500}))")
    practice(page, server, "9-5-2 deals=1", 3)
    page.click("#btn-start")
    for _ in range(6):  # a few tricks: each one this seat completes is held with its winner
        page.locator("#hand button.legal").first.wait_for(timeout=30000)
        n = page.locator("#trick .slot").count()
        page.locator("#hand button.legal").first.click()
        if n == 2:  # this card completes the trick
            page.locator("#trick .slot.win").wait_for()
            assert page.locator("#trick .slot").count() == 3
            assert page.locator("#trick .slot.lead").count() == 1
            page.locator("#trick .slot.win").wait_for(state="detached", timeout=15000)
        page.wait_for_timeout(100)
    assert not errs, errs
    ctx.close()


def test_the_result_closes_by_itself_when_the_new_deal_starts(server: Server, browser: Any) -> None:
    """Bea reads the result of deal 1 (over the felt, never over her hand) when Ann starts deal 2: the new deal closes it
    at once, before any card of deal 2 is played, and the result stays in her score sheet."""
    from _browserhelp import two_friends, until

    a, b, _tid = two_friends(server, browser, "9-5-2 to=20 instant-win=off deals=2")
    errs = page_errors(a) + page_errors(b)
    until([a, b], lambda: a.locator("#btn-next").is_visible() and b.locator("#btn-next").is_visible())
    dlg, hand = b.locator("#dlg").bounding_box(), b.locator("#hand").bounding_box()
    assert dlg and hand and dlg["y"] + dlg["height"] <= hand["y"], (dlg, hand)  # the hand stays in sight
    assert "Result of deal 1" in b.inner_text("#dlg-body")
    sheet = b.evaluate("S.prev.result.scores")
    a.click("#btn-next")
    b.locator("#contract", has_text="Deal 2").wait_for()
    b.locator("#dlg").wait_for(state="hidden")
    assert b.evaluate("S.view.deal === 2 && S.view.completed.length === 0")  # (only Ann and Bea could finish a trick)
    b.click("#btn-scores")
    assert b.inner_text("#sheet caption") == "Each cell: tricks/target: up (+) or down (-) = total so far"
    row = b.locator("#sheet tr").nth(1)
    assert [row.locator("td").nth(i + 1).inner_text().split(": ")[1].split(" =")[0] for i in range(3)] == \
        [f"+{x}" if x > 0 else str(x) for x in sheet], (row.inner_text(), sheet)
    b.click("#info-close")
    assert errs == []


def _seed_3_table(server: Server, browser: Any, seats: list[dict[str, str]], width: int,
                  height: int) -> tuple[Any, Any, list[str]]:
    """A 9-5-2 table of seed 3 with ``seats`` (the first one "me"), opened and started in a new browser context of
    ``width`` x ``height``: the context, its page and the page's errors."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2", "seed": 3, "seats": seats}).json()
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("([t, k]) => saveToken(t, k)", [out["id"], out["seats"][0]["token"]])
    page.goto(server.url + "/t/" + out["id"])
    page.click("#btn-start")
    return ctx, page, errs


@pytest.mark.parametrize("width", [360, 390, 768, 1280])
@pytest.mark.parametrize("name", ["Ann", "W" * 40])
def test_your_seat_keeps_clear_of_the_piles(server: Server, browser: Any, width: int, name: str) -> None:
    """The repro: on a phone the face-down piles (the kitty, the declarer's discards) in the felt's bottom left corner lay
    over your seat - its avatar under the discards with a long name (40 characters, as the lobby allows), the pile's
    label under the seat's edge with "Ann" at 360 px. Now the seat keeps clear of them at every width, its name cut."""
    ctx, page, errs = _seed_3_table(server, browser, [{"kind": "me", "name": name}, {"kind": "computer", "level": "heuristic"},
                                                      {"kind": "computer", "level": "random"}], width, 800)
    # seed 3: a computer deals, names trump and discards; its discards lie there while the deal is played
    page.locator("#piles .pile", has_text="Discards").wait_for()
    page.locator("#hand button.legal").first.wait_for()
    piles, seat, nm = page.evaluate("""() => ['#piles', '.player.pos-bottom', '.player.pos-bottom .nm'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    assert piles[2] <= seat[0] or seat[2] <= piles[0] or piles[3] <= seat[1] or seat[3] <= piles[1], (piles, seat)
    assert nm[2] <= seat[2], (nm, seat)  # the name is cut inside the seat
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("width", [360, 390, 768, 1280])
def test_the_piles_lie_over_no_seat(server: Server, browser: Any, width: int) -> None:
    """The repro: in 3-5-8 on a phone the kitty and the playmaker's discards, two piles laid over the felt's bottom left
    corner, reached up over the left seat and hid its contracts left. Now they lie in your seat's row, which grows to
    hold them: no pile over any seat at any width."""
    ctx = browser.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    errs = page_errors(page)
    practice(page, server, "3-5-8", 4)  # seed 4: this seat is the playmaker; the kitty and its discards both lie there
    page.click("#btn-start")
    page.locator("#piles .pile").nth(1).wait_for(timeout=30000)
    piles, *seats = page.evaluate("""() => ['#piles', '.player.pos-left', '.player.pos-right', '.player.pos-bottom'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    for seat in seats:
        assert piles[2] <= seat[0] or seat[2] <= piles[0] or piles[3] <= seat[1] or seat[3] <= piles[1], (piles, seat)
    assert errs == []
    ctx.close()


def test_the_last_trick_cuts_long_names_and_keeps_the_winner_mark(server: Server, browser: Any) -> None:
    """The repro: with names of 40 characters (as the lobby allows) the *Last trick* dialog on a phone was 527 px wide
    inside its 371: it scrolled sideways, each name clipped at the edge. Now
    the names are cut with an ellipsis (the full name in the tooltip) and the ✓ follows the winner's name."""
    names = ["M" * 40, "N" * 40, "O" * 40]
    ctx, page, errs = _seed_3_table(server, browser, [{"kind": "me", "name": names[0]},
                                                      {"kind": "computer", "level": "heuristic", "name": names[1]},
                                                      {"kind": "computer", "level": "random", "name": names[2]}], 390, 844)
    page.locator("#hand button.legal").first.click()  # seed 3: Ann leads the first trick
    page.wait_for_function("S.view.completed.length >= 1")
    page.click("#btn-last")
    page.locator("#last-trick .played").first.wait_for()
    width, inner = page.evaluate("[document.getElementById('info').scrollWidth, document.getElementById('info').clientWidth]")
    assert width <= inner, (width, inner)
    winner = page.evaluate("S.view.completed[0].winner")
    label = page.locator("#last-trick .plabel", has=page.locator(f".pname[title='{names[winner]}']"))
    assert label.inner_text().endswith("✓")
    assert errs == []
    ctx.close()


# per card of the hand, the longest run of points across (at the middle of its button) and down (at the middle of its
# strip) where a tap lands on that card: the part of it in sight, the others lying over the rest
_TAP_STRIPS = """() => {
  const cw = parseFloat(getComputedStyle(document.getElementById('hand')).getPropertyValue('--cw'));
  return Array.from(document.querySelectorAll('#hand button.card')).map((b) => {
    const r = b.getBoundingClientRect(), on = (x, y) => { const e = document.elementFromPoint(x, y); return !!e && e.closest('button.card') === b; };
    const longest = (from, to, at) => { let best = 0, run = 0; for (let k = from; k <= to; k++) { run = at(k) ? run + 1 : 0; best = Math.max(best, run); } return best; };
    const across = longest(Math.floor(r.left) - 2, Math.ceil(r.left + cw) + 2, (x) => on(x, r.top + r.height / 2));
    const down = longest(Math.floor(r.top) - 2, Math.ceil(r.top + cw * 1.4) + 2, (y) => on(r.left + Math.min(r.width, 20) / 2, y));
    return [b.dataset.card, across, down];
  });
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740), (1280, 800)])
def test_every_card_of_the_hand_is_wide_enough_to_tap(server: Server, browser: Any, width: int, height: int) -> None:
    """The repro: on a phone the 16 cards of a 9-5-2 hand lay in one fan of 20 px strips (18 at 360 px), too narrow to
    hit the card meant with a finger. Now a hand whose strips would be narrower than 32 px lies in two rows, the second
    over the lower part of the first: each card shows at least 32 px across and down; a desktop keeps one row."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 600)
    page = ctx.new_page()
    errs = page_errors(page)
    practice(page, server, "9-5-2 deals=1", 3)
    page.click("#btn-start")
    page.locator("#hand button.legal").first.wait_for(timeout=30000)
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 16")
    page.evaluate("document.activeElement && document.activeElement.blur()")  # no card raised by the focus
    strips = page.evaluate(_TAP_STRIPS)
    assert min(s[1] for s in strips) >= 32 and min(s[2] for s in strips) >= 32, strips
    hand, toolbar = page.locator("#hand").bounding_box(), page.locator(".toolbar").bounding_box()
    assert hand and toolbar and hand["y"] + hand["height"] <= toolbar["y"] + 1, (hand, toolbar)  # nothing lies over the buttons
    assert (page.locator("#hand.two-rows").count() == 1) == (width < 600)
    assert errs == []
    ctx.close()


# a word of a cell of the table's dialog laid out on more than one line (a word broken inside)
_BROKEN_IN_DIALOG = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('#dlg th, #dlg td, #dlg h2, #dlg h3')) {
    const n = el.firstChild; if (!n || n.nodeType !== 3) continue;
    const re = /\\S+/g; let m;
    while ((m = re.exec(n.textContent))) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      if (new Set(Array.from(r.getClientRects()).filter((x) => x.width > 0).map((x) => Math.round(x.top))).size > 1) bad.push(m[0]);
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_match_end_heads_the_last_deal_and_gives_the_totals(server: Server, browser: Any, lang: str) -> None:
    """The repro: the end of the match showed the last deal's result as a table without a heading right above the score
    sheet, read as a second, unexplained sheet, and a deal's result gave no running total (the seats showing the totals
    lie under the dialog), where the terminal's gives it. Now the last deal's result has its heading, and every result
    a total column, its words whole at 390 px in English and German."""
    from _browserhelp import drive

    ctx, page, errs = page_in_language(browser, server, lang)
    practice(page, server, "9-5-2 deals=1", 3)
    drive([page], lambda: page.locator("#end-title").count() > 0)
    assert page.inner_text("#last-result") == {"en": "Result of deal 1", "de": "Ergebnis von Spiel 1"}[lang]
    totals = page.evaluate("S.view.totals")
    assert page.locator("#dlg table.result td.total").all_inner_texts() == [f"+{x}" if x > 0 else str(x) for x in totals]
    assert page.evaluate(_BROKEN_IN_DIALOG) == []
    assert errs == []
    ctx.close()


_END_IN_VIEW = """() => {
  const box = (e) => e.getBoundingClientRect(), title = box(document.getElementById('end-title'));
  const out = title.top < 0 ? ['the title ' + title.top] : [];
  for (const b of document.querySelectorAll('#dlg-actions button')) {
    const r = box(b), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.top < 0 || r.bottom > innerHeight || !b.contains(hit)) out.push(b.textContent + ' ' + r.top + '..' + r.bottom);
  }
  return out;
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_match_end_s_buttons_are_in_view_with_its_title(server: Server, browser: Any, size: tuple[int, int]) -> None:
    """A long match's end (3-5-8: 18 deals in the score sheet) put *Replay*, *Download the record* and *Close* under
    a 390x844 phone's fold, and at 1280x800 the focus on *Replay* scrolled the end's title away. Now the buttons stick
    to the window's bottom over the sheet: with the page at its top, the title and every button are in view and
    the buttons are what is under them; scrolled to the end, the sheet's last row is above the buttons."""
    from _browserhelp import create_table

    tid = create_table(server, [{"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"},
                                {"kind": "computer", "level": "heuristic"}], "3-5-8")["id"]
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)  # watched: the computers have played it to its end
    page.locator("#end-title").wait_for()
    assert page.locator("#sheet tr").count() == 18 + 2  # the heading, 18 deals, the totals
    page.evaluate("scrollTo(0, 0)")
    assert page.evaluate(_END_IN_VIEW) == []
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    last, bar = page.locator("#sheet tr").last.bounding_box(), page.locator("#dlg-actions").bounding_box()
    assert last and bar and last["y"] + last["height"] <= bar["y"] + 1, (last, bar)
    assert errs == []
    ctx.close()
