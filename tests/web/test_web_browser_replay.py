"""The replay page in headless Debian Chromium (Playwright; skipped when /usr/bin/chromium or the playwright package is
missing): the kitty and the discards shown, the arrow keys on the slider stepping once."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import CHROMIUM  # the fixtures server and browser are in conftest.py

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import create_table, page_errors, page_in_language  # noqa: E402
from _webhelp import Server  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_replay_shows_the_kitty_and_the_discards(server: Server, browser: Any) -> None:
    """The repro: the replay page showed "every hand" but never the kitty nor the declarer's discards: the four
    cards the declarer took and the four he put away appeared nowhere (the hands went from 16 cards to 20 and back).
    Now the kitty is shown while it lies on the table and the discards of the deal once made."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 deals=2 to=20 instant-win=off", "seed": 3, "seats": [
        {"kind": "computer", "level": "heuristic"}] * 3}).json()
    tid = out["id"]
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)  # a table of computers only plays once watched
    page.locator("#end-title").wait_for()
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()["steps"]
    record = httpx.get(f"{server.url}/api/tables/{tid}/record").json()
    kitty = record["deals"][0]["kitty"]
    discards = [a["discard"] for a in record["deals"][0]["actions"] if "discard" in a]
    assert len(kitty) == 4 and len(discards) == 4
    end1 = max(i for i, s in enumerate(steps) if s["deal"] == 1)  # deal 1's last trick, deal 2 dealt already
    assert steps[end1]["kitty"] == [] and steps[end1 + 1]["kitty"]  # deal 1's step shows no kitty (deal 2's is not its)
    page.goto(server.url + "/replay/" + tid)
    page.locator("#hands .hand").first.wait_for()
    assert page.locator("#kitty .card").all_inner_texts() == [page.evaluate("(c) => cardText(c)", c) for c in kitty]
    assert page.locator("#discards").count() == 0
    took = next(i for i, s in enumerate(steps) if s["action"] and "kitty" in s["action"])  # in deal 1
    page.evaluate("(k) => go(k)", took)
    assert page.locator("#kitty").count() == 0  # taken: the cards are in the declarer's hand now
    last_discard = max(i for i, s in enumerate(steps) if s["deal"] == 1 and s["action"] and "discard" in s["action"])
    page.evaluate("(k) => go(k)", last_discard)
    assert page.locator("#discards .card").all_inner_texts() == [page.evaluate("(c) => cardText(c)", c) for c in discards]
    assert page.locator("#hands .hand").count() == 3
    page.click("#last")
    assert page.locator("#discards .card").count() == 4
    assert errs == []
    ctx.close()


def test_replay_arrow_keys_on_the_slider_step_once(server: Server, browser: Any) -> None:
    """The repro: on the replay page, after dragging (or clicking) the slider, ArrowRight went two steps forward: the
    page's own key handler stepped once and the focused slider stepped again. Now one key is one step, whatever has
    the focus."""
    import httpx

    out = create_table(server, [{"kind": "computer", "level": "random"}] * 3, rules="9-5-2 deals=1")
    tid = out["id"]
    ctx = browser.new_context()
    page = ctx.new_page()
    errs = page_errors(page)
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


def test_the_replay_shows_the_review_once_computed(server: Server, browser: Any, tmp_path: Any) -> None:
    """After a match of computers ends, its review is computed in the background and stored: the replay page shows
    the progress, then a mark beside each card played (its cost and the best cards on hover, and in words under the
    trick for a tap), and the players' summary of the deal and of the match. At phone and desktop sizes."""
    import httpx
    import jsonschema

    from sergeant_major.search.review import review_schema

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 deals=1 to=20 instant-win=off", "seed": 4, "seats": [
        {"kind": "computer", "level": "heuristic"}] * 3}).json()
    tid = out["id"]
    assert httpx.get(f"{server.url}/api/tables/{tid}/review").status_code == 403  # not over yet: no review
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)  # a table of computers only plays once watched
    page.locator("#end-title").wait_for()
    page.goto(server.url + "/replay/" + tid)
    page.locator("#hands .hand").first.wait_for()
    page.locator("#review-summary table").first.wait_for(timeout=240_000)
    got = httpx.get(f"{server.url}/api/tables/{tid}/review")
    assert got.status_code == 200
    review = got.json()["review"]
    jsonschema.Draft202012Validator(review_schema()).validate(review)
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()["steps"]
    plays = review["deals"][0]["plays"]
    costly = next((p for p in plays if p["mark"] == "mistake"), plays[0])
    k = next(j for j, s in enumerate(steps) if s["action"] and s["action"].get("play") == costly["card"] and s["deal"] == 1)
    page.evaluate("(k) => go(k)", k)
    text = page.locator("#review-card").inner_text()
    shown = page.evaluate("(c) => cardText(c)", costly["card"])
    best = " ".join(page.evaluate("(cs) => cs.map(cardText)", costly["best"]))
    assert shown in text and ("best: " + best in text or costly["mark"] == "best"), text
    mark = page.locator("#trick .mark").last
    assert shown in (mark.get_attribute("title") or "")
    assert page.locator("#trick .mark").count() == len(steps[k]["trick"] or steps[k]["last"]["cards"])
    assert page.locator("#review-summary table").count() == 2 and page.locator("#review-summary tr").count() == 8
    page.screenshot(path=str(tmp_path / "review-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(tmp_path / "review-desktop.png"), full_page=True)
    if os.environ.get("SM_SHOTS"):
        import shutil

        for n in ("review-phone.png", "review-desktop.png"):
            shutil.copy(tmp_path / n, os.path.join(os.environ["SM_SHOTS"], n))
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_replay_trick_lies_inside_its_panel(server: Server, browser: Any, width: int) -> None:
    """The repro: at 390 px the replay's trick took the table page's box (3.6 cards wide, a fixed height), so three
    cards with their players' names wrapped, and the third hung out of the panel over the hands below."""
    out = create_table(server, [{"kind": "computer", "level": "random"}] * 3, rules="9-5-2 deals=1")
    tid = out["id"]
    ctx = browser.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)
    page.wait_for_function("S && S.over", timeout=30000)
    page.goto(server.url + "/replay/" + tid)
    page.locator("#step-text", has_text="1/").wait_for()
    # the step of a trick's third card: the trick is complete (shown as the last one)
    third = page.evaluate("R.steps.findIndex((s) => s.action && s.action.play && !s.trick.length && s.last)")
    assert third > 0
    page.evaluate("(k) => go(k)", third)
    page.locator("#trick .played").nth(2).wait_for()
    panel = page.locator("#trick").evaluate("(t) => t.parentElement.getBoundingClientRect().toJSON()")
    for box in page.locator("#trick .played").evaluate_all("(ps) => ps.map((p) => p.getBoundingClientRect().toJSON())"):
        assert panel["top"] <= box["top"] and box["bottom"] <= panel["bottom"], (box, panel)
        assert panel["left"] <= box["left"] and box["right"] <= panel["right"], (box, panel)
    tops = {round(b["top"]) for b in page.locator("#trick .played").evaluate_all(
        "(ps) => ps.map((p) => p.getBoundingClientRect().toJSON())")}
    assert len(tops) == 1  # the three in one row
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_replay_cuts_long_names_and_fits_the_screen(server: Server, browser: Any, width: int) -> None:
    """The repro: the replay of a match whose players have names of 40 characters (as the lobby and the home page allow)
    scrolled sideways on a phone (621 px of 390): the names under the trick's cards, above each hand and in the
    discards' label were kept whole. Now they are cut with an ellipsis, the full name in the tooltip."""
    import httpx

    names = ["M" * 40, "N" * 40, "Anna Maria Magdalena Theresa von Hohenz"]
    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 deals=1", "seed": 2, "seats": [
        {"kind": "computer", "level": "random", "name": n} for n in names]}).json()
    ctx = browser.new_context(viewport={"width": width, "height": 800})
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + out["id"])  # a table of computers plays once watched
    page.locator("#end-title").wait_for()
    page.goto(server.url + "/replay/" + out["id"])
    page.locator("#hands .hand").first.wait_for()
    steps = page.evaluate("R.steps.length")
    for k in (5, steps // 2, steps - 1):  # the kitty, a trick with the discards, the last trick
        page.evaluate("(k) => go(k)", k)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, k
    assert page.locator(f"#hands .who[title='{names[0]}']").count() == 1
    assert page.locator(f"#trick .pname[title='{names[0]}']").count() == 1
    assert errs == []
    ctx.close()


def test_a_tap_on_a_cards_mark_says_its_review_under_the_trick(server: Server, browser: Any) -> None:
    """The repro: on a touch screen (no hover) only the card of the step shown had its review in words under the trick;
    a tap on the mark of another card of the trick did nothing, so its cost and best cards could not be read. Now a tap
    (or Enter on the focused mark) writes that card's review there (the review is a stored one, given to the page)."""
    import json

    import httpx

    out = create_table(server, [{"kind": "computer", "level": "random"}] * 3, "9-5-2 deals=1")
    tid = out["id"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + tid)  # a table of computers plays once watched
    page.locator("#end-title").wait_for()
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()["steps"]
    k = next(j for j, s in enumerate(steps) if len(s["trick"]) == 2)  # the second card of a trick played
    first, last = steps[k]["trick"]
    plays = [{"card": c, "seat": s, "mark": "mistake" if c == first[1] else "best", "cost_range": [1, 1] if c == first[1] else [0, 0],
              "expert": None, "best": [last[1]] if c == first[1] else [c]} for s, c in steps[k]["trick"]]
    row = {"seat": 0, "mistakes": 1, "lost": 1, "lost_max": 1, "expert_lost": None}
    review = {"expert": False, "seats": [row], "deals": [{"deal": 1, "plays": plays, "seats": [row]}]}
    page.route(f"**/api/tables/{tid}/review", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                     body=json.dumps({"review": review})))
    page.goto(server.url + "/replay/" + tid)
    page.locator("#review-summary table").first.wait_for()
    page.evaluate("(k) => go(k)", k)
    first_text = page.evaluate("(c) => cardText(c)", first[1])
    assert f"played {first_text}" not in page.inner_text("#review-card")  # the step's card: the trick's second
    page.locator("#trick .mark").first.tap()
    said = page.inner_text("#review-card")
    assert f"played {first_text}: mistake" in said and "best: " + page.evaluate("(c) => cardText(c)", last[1]) in said, said
    page.evaluate("(k) => go(k)", k)
    page.locator("#trick .mark").first.focus()
    page.keyboard.press("Enter")
    assert f"played {first_text}: mistake" in page.inner_text("#review-card")
    assert errs == []
    ctx.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_no_replay_shows_why_and_the_ways_on_without_the_controls(server: Server, browser: Any, width: int) -> None:
    """The repro: the replay of a match not over yet (and of no table at all) showed its one line of why under the
    whole replay - First, Back, Forward, Last, a slider, *Show all hands*, *Download the record* - and an empty hands
    panel and *Review* heading, none of which did anything. Now the page says why with links home and to *My games*
    (as the table's page does for no table), also after a language switch."""
    out = create_table(server, [{"kind": "me"}, {"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "random"}])
    ctx = browser.new_context(viewport={"width": width, "height": 800})
    page = ctx.new_page()
    errs = page_errors(page)
    for tid, said in ((out["id"], "The replay is shown once the match is over"), ("nonexist", "There is no table nonexist.")):
        page.goto(server.url + "/replay/" + tid)
        page.locator("#step-text h2", has_text=said).wait_for()
        for gone in ("#first", "#slider", "#showhands", "#dl", "#hands", "#review", "#end"):
            assert not page.locator(gone).is_visible(), gone
        table = ["/t/" + tid] if tid != "nonexist" else []  # a match in play: its table too
        assert [a.get_attribute("href") for a in page.locator("#step-text a").all()] == [*table, "/", "/history"]
    page.click("#lang")
    page.locator("#step-text h2", has_text="Den Tisch nonexist gibt es nicht.").wait_for()
    assert page.inner_text("#step-text a >> nth=1") == "Meine Spiele" and not page.locator("#first").is_visible()
    page.click("#lang")
    assert errs == []
    ctx.close()



_NAME_CELLS = """() => Array.from(document.querySelectorAll('.review-table td:first-child')).map((td) => {
  const text = document.createTreeWalker(td, NodeFilter.SHOW_TEXT).nextNode(), r = document.createRange();
  r.selectNodeContents(text);
  const lines = new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top))).size;
  const n = td.querySelector('.cut');
  return [td.textContent, lines, n ? n.title : null, n ? n.scrollWidth > n.clientWidth : null];
})"""


@pytest.mark.parametrize(("width", "lang", "long"), [(390, "en", ""), (390, "de", ""), (1280, "en", ""),
                                                     (390, "en", "Bartholomew Fitzgerald-Smythe the Third")],
                         ids=["390-en", "390-de", "1280-en", "390-long-name"])
def test_the_review_table_keeps_each_name_on_one_line(server: Server, browser: Any, width: int, lang: str, long: str) -> None:
    """The repro: at 390 px the review's table of the players broke "Heuristic 2" after its level, a row of two lines
    each. Now a name stays on one line, a long one cut with an ellipsis and written whole in its title."""
    import json

    third = {"kind": "computer", "level": "expert"} | ({"name": long} if long else {})
    out = create_table(server, [{"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "heuristic"}, third],
                       "9-5-2 deals=1")
    tid = out["id"]
    ctx, page, errs = page_in_language(browser, server, lang, width)
    page.goto(server.url + "/t/" + tid)  # a table of computers plays once watched
    page.locator("#end-title").wait_for()
    rows = [{"seat": s, "mistakes": 3, "lost": 2, "lost_max": 4, "expert_lost": 1.25} for s in range(3)]
    review = {"expert": True, "seats": rows, "deals": [{"deal": 1, "plays": [], "seats": rows}]}  # the widest: 4 columns
    page.route(f"**/api/tables/{tid}/review", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                     body=json.dumps({"review": review})))
    page.goto(server.url + "/replay/" + tid)
    page.locator("#review-summary table").first.wait_for()
    level, expert = {"en": ("Heuristic", "Expert"), "de": ("Heuristik", "Experte")}[lang]
    cells = page.evaluate(_NAME_CELLS)
    assert [c[0] for c in cells] == [f"{level} 1", f"{level} 2", long or f"{expert} 3"] * 2, cells
    assert all(c[1] == 1 for c in cells), cells  # one line each
    assert all(c[2] == c[0] for c in cells), cells  # the whole name in the title
    assert [c[3] for c in cells] == [False, False, bool(long)] * 2, cells  # only a long name cut
    table = page.locator(".review-table").first.bounding_box()
    assert table and table["x"] + table["width"] <= width, table  # nothing pushed out of the page
    assert errs == []
    ctx.close()


@pytest.mark.parametrize(("width", "lang"), [(390, "en"), (390, "de"), (1280, "en")], ids=["390-en", "390-de", "1280-en"])
def test_a_review_without_numba_says_so_and_counts_unsettled_cards(server: Server, browser: Any, width: int, lang: str) -> None:
    """The repro: on a server without numba the replay said "29 of 216 searches" for minutes, then "1–49" tricks lost
    for a player with one mistake (the high ends of the costs cut short, added up). Now the progress says once that the
    server runs without numba (slow, some costs ranges), and a player's tricks lost are what mistakes surely cost, the
    cards whose cost is a range counted beside them and explained under the tables."""
    import json

    out = create_table(server, [{"kind": "computer", "level": "heuristic"}] * 3, "9-5-2 deals=1")
    tid = out["id"]
    ctx, page, errs = page_in_language(browser, server, lang, width)
    page.goto(server.url + "/t/" + tid)  # a table of computers plays once watched
    page.locator("#end-title").wait_for()
    rows = [{"seat": s, "mistakes": 1 - s // 2, "lost": 1 - s // 2, "lost_max": 16, "unsettled": 12 - s * 6,
             "expert_lost": 1.25} for s in range(3)]
    review = {"expert": True, "seats": rows, "deals": [{"deal": 1, "plays": [], "seats": rows}]}
    asked = [0]

    def answer(route: Any) -> None:
        asked[0] += 1
        if asked[0] == 1:  # the first ask: under way, on a server without numba
            route.fulfill(status=202, content_type="application/json",
                          body=json.dumps({"status": "running", "done": 29, "total": 216, "slow": True}))
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps({"status": "ready", "review": review}))

    page.route(f"**/api/tables/{tid}/review", answer)
    page.goto(server.url + "/replay/" + tid)
    slow = {"en": "without numba", "de": "ohne numba"}[lang]
    page.locator("#review-status", has_text=slow).wait_for()
    status = page.inner_text("#review-status")
    assert ("29 of 216" if lang == "en" else "29 von 216") in status and status.count("numba") == 1, status
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/review-slow-{width}-{lang}.png", full_page=True)
    page.locator("#review-summary table").first.wait_for()
    lost = page.evaluate("() => Array.from(document.querySelectorAll('.review-table td:nth-child(3)')).map((td) => td.textContent)")
    word = {"en": "unsettled", "de": "ungeklärt"}[lang]
    assert lost == [f"1 (12 {word})", f"1 (6 {word})", "0"] * 2, lost
    assert "16" not in " ".join(lost) and "–" not in " ".join(lost)  # no sum of ranges
    note = page.inner_text("#review-unsettled")
    assert {"en": "Unsettled: cards whose cost", "de": "Ungeklärt: Karten"}[lang] in note, note
    assert page.inner_text("#review-status") == ""  # said while the review ran, not after
    table = page.locator(".review-table").first.bounding_box()
    assert table and table["x"] + table["width"] <= width, table  # nothing pushed out of the page
    if os.environ.get("SM_SHOTS"):
        page.screenshot(path=f"{os.environ['SM_SHOTS']}/review-unsettled-{width}-{lang}.png", full_page=True)
    assert errs == []
    ctx.close()


@pytest.mark.parametrize(("lang", "home"), [("en", "Home"), ("de", "Start")])
def test_the_replay_links_home(server: Server, browser: Any, lang: str, home: str) -> None:
    """The repro: the replay page linked My games only, no way Home as every other page has."""
    import httpx

    out = httpx.post(server.url + "/api/tables", json={"rules": "9-5-2 deals=1", "seed": 5, "seats": [
        {"kind": "computer", "level": "random"}] * 3}).json()
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', '{lang}')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/t/" + out["id"])  # a table of computers only plays once watched
    page.locator("#end-title").wait_for()
    page.goto(server.url + "/replay/" + out["id"])
    link = page.locator("header nav a[href='/']")
    link.wait_for()
    assert link.inner_text() == home
    link.click()
    page.wait_for_url(server.url + "/")
    assert errs == []
    ctx.close()
