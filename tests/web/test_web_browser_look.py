"""How the pages look, in headless Debian Chromium at a phone's, a tablet's and a desktop's size (390x844, 768x1024,
1280x800): for each phase of a deal (trump, kitty, discard, exchange, a trick in progress, a finished trick, the
result, the match end), with three players and with four, and for the score sheet and the history, replay and home
pages, no element is wider than the screen, no text is broken inside a word (English and German), and axe-core (the
copy shipped in the ``axe-playwright-python`` package, the test extra) finds no serious or critical violation. The
screens that wait for this seat (its decisions, a trick it is to play to, the result, the match end) and the home,
replay and history pages (the date painted over) are compared with stored baselines at each size
(``tests/web/baselines``, with a small tolerance). ``SM_UPDATE_BASELINES=1`` writes them anew, and the pictures of
docs/web.md (``docs/images``: a trick in progress)."""

from __future__ import annotations

import base64
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
axe_pkg = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is missing (the test extra)")
pytest.importorskip("fastapi")
from _webhelp import Server  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE_JS = (Path(axe_pkg.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
ROOT = Path(__file__).resolve().parents[2]
BASELINES = Path(__file__).parent / "baselines"
DOC_IMAGES = ROOT / "docs" / "images"
VIEWPORTS = [(390, 844), (768, 1024), (1280, 800)]

# every element's right edge within the screen (the hidden sprite and the visually hidden card texts aside)
_TOO_WIDE = """() => {
  const W = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > W + 1) bad.push("page scrolls sideways: " + document.documentElement.scrollWidth);
  // a part of a text cut on purpose (its nearest clipping ancestor ends in an ellipsis, within the screen) is not drawn
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === "visible") continue;
      const c = a.getBoundingClientRect();
      return st.textOverflow === "ellipsis" && c.right <= W + 1 && c.left >= -1;
    }
    return false;
  };
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(".ct, dialog:not([open])")) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > W + 1 || r.left < -1) && !clipped(el)) bad.push((el.id || el.className || el.tagName) + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  return bad.slice(0, 10);
}"""
# a word of a visible text node laid out on more than one line is a word broken inside
_BROKEN_WORDS = """() => {
  const bad = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest(".ct, script, style, dialog:not([open]), [hidden], option")) continue;
    if (!p.getClientRects().length) continue;
    const text = n.textContent, re = /\\S+/g; let m;
    while ((m = re.exec(text))) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const tops = new Set(Array.from(r.getClientRects()).filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (tops.size > 1) bad.push(m[0]);
    }
  }
  return bad.slice(0, 10);
}"""

# the table's dialog (waiting, result, match end) lies within the felt: never over the hand and the buttons below it
# (docs/web.md); its box and the felt's, when it is open and differs
_DIALOG_OUT_OF_FELT = """() => {
  const d = document.getElementById("dlg"), f = document.getElementById("felt");
  if (!d || !f || !d.open) return null;
  const a = d.getBoundingClientRect(), b = f.getBoundingClientRect(), box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round);
  return a.left >= b.left - 1 && a.top >= b.top - 1 && a.right <= b.right + 1 && a.bottom <= b.bottom + 1 ? null : [box(a), box(b)];
}"""


def check_page(page: Any, what: str) -> None:
    """No element wider than the screen, no word broken inside, the table's dialog within the felt, no serious or
    critical axe-core violation. With ``SM_LOOK_SHOTS=DIR`` the page's screenshot is saved there too (to look at)."""
    if os.environ.get("SM_LOOK_SHOTS"):
        w = page.viewport_size["width"]
        page.screenshot(path=str(Path(os.environ["SM_LOOK_SHOTS"]) / f"{w}-{what.replace(', ', '+').replace(' ', '-')}.png"))
    wide = page.evaluate(_TOO_WIDE)
    assert not wide, (what, wide)
    broken = page.evaluate(_BROKEN_WORDS)
    assert not broken, (what, broken)
    out = page.evaluate(_DIALOG_OUT_OF_FELT)
    assert out is None, (what, "the dialog [left, top, right, bottom] is not within the felt", out)
    page.evaluate(AXE_JS)
    res = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations)")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in res if v["impact"] in ("serious", "critical")]
    assert not bad, (what, bad)


def half_png(page: Any, png: bytes, scale: float = 0.5) -> bytes:
    """``png`` at ``scale`` (half) its width and height, 32 levels a colour channel (drawn on a canvas in ``page``):
    small files to keep in the repository."""
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    out = page.evaluate("""async ([src, f]) => {
      const i = new Image(); await new Promise((ok, no) => { i.onload = ok; i.onerror = no; i.src = src; });
      const c = document.createElement("canvas"); c.width = Math.round(i.width * f); c.height = Math.round(i.height * f);
      const g = c.getContext("2d"); g.imageSmoothingQuality = "high"; g.drawImage(i, 0, 0, c.width, c.height);
      const d = g.getImageData(0, 0, c.width, c.height);  // 32 levels a channel: a smaller file, no visible change
      for (let k = 0; k < d.data.length; k += 4) for (let j = 0; j < 3; j++) d.data[k + j] = Math.min(255, (d.data[k + j] & 0xf8) + 4);
      g.putImageData(d, 0, 0);
      return c.toDataURL("image/png").split(",")[1]; }""", [url, scale])
    return base64.b64decode(out)


def compare_baseline(page: Any, name: str, mask: str | None = None) -> None:
    """The page's screenshot at half size against ``baselines/NAME.png``: at most 2% of the pixels differ by more than
    48 in a channel (fonts antialiased a little differently pass; a moved panel or another colour does not). The
    elements matching ``mask`` (a date) are painted over in both."""
    shot = half_png(page, page.screenshot(mask=[page.locator(mask)] if mask else []))
    base = BASELINES / f"{name}.png"
    if os.environ.get("SM_UPDATE_BASELINES") or not base.exists():
        BASELINES.mkdir(exist_ok=True)
        base.write_bytes(shot)
        if not os.environ.get("SM_UPDATE_BASELINES"):
            pytest.fail(f"no baseline {base.name} yet: written now, look at it and commit it")
        return
    a = "data:image/png;base64," + base64.b64encode(shot).decode()
    b = "data:image/png;base64," + base64.b64encode(base.read_bytes()).decode()
    diff = page.evaluate("""async ([a, b]) => {
      const load = (src) => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok(i); i.onerror = no; i.src = src; });
      const [x, y] = [await load(a), await load(b)];
      if (x.width !== y.width || x.height !== y.height) return 1;
      const px = (img) => { const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data; };
      const p = px(x), q = px(y); let bad = 0;
      for (let i = 0; i < p.length; i += 4)
        if (Math.abs(p[i] - q[i]) > 48 || Math.abs(p[i + 1] - q[i + 1]) > 48 || Math.abs(p[i + 2] - q[i + 2]) > 48) bad++;
      return bad / (p.length / 4); }""", [a, b])
    if diff > 0.02:
        seen = Path(tempfile.gettempdir()) / f"{name}-seen.png"  # to look at beside the baseline
        seen.write_bytes(shot)
        pytest.fail(f"{name}: {diff:.1%} of the pixels differ from the baseline (this run's screen: {seen})")


# the phases the page shows now, by what a player sees (the kitty lies face down while trump is named)
_PHASES = """() => {
  const vis = (id) => { const e = document.getElementById(id); return e && e.offsetParent !== null; };
  if (vis("end-title")) return ["end"];
  if (vis("btn-next")) return ["result"];
  const out = [], title = vis("stepbar") ? document.getElementById("step-title").textContent : "";
  if (document.querySelector("#piles .pile") && /Kitty/.test(document.getElementById("piles").textContent)) out.push("kitty");
  if (/trump|contract/i.test(title)) out.push("trump");
  if (/kitty/i.test(title)) out.push("kitty");
  if (/Discard/.test(title)) out.push("discard");
  if (/Give|Return/.test(title)) out.push("exchange");
  if (document.querySelector("#trick .slot.win")) out.push("finished");
  else if (document.querySelector("#trick .slot") && document.querySelector("#hand button.legal")) out.push("trick");
  return out; }"""


def _phases(page: Any) -> set[str]:
    return set(page.evaluate(_PHASES))


def _act(page: Any, seen: set[str]) -> None:
    """One action of this seat, taken in one piece of the page's script (no state can come in between): none while the
    page shows a phase not looked at yet, nor while a finished trick is held before a trick in progress was looked at."""
    done = page.evaluate("""([phases, seen]) => {
      if (phases().some((p) => !seen.includes(p))) return false;
      if (!seen.includes("trick") && document.querySelector("#trick .slot.win")) return false;
      for (const sel of ["#btn-next", "#btn-start", "#stepbar button.step", "#btn-confirm:not([disabled])", "#hand button.legal:not(.picked)"]) {
        const e = document.querySelector(sel);
        if (e && e.offsetParent !== null && !e.disabled) { e.click(); return true; }
      }
      return false; }""".replace("phases()", "(" + _PHASES + ")()"), [None, sorted(seen)])
    page.wait_for_timeout(15 if done else 60)


# a screen that stays as it is until this seat acts (its decisions, a trick it is to play to, a deal's result, the
# match's end): compared with the stored baselines (a finished trick held in the middle moves on by itself)
_STILL = """() => !!S && (S.over || S.waiting_start || (S.view.to_act === S.you && !document.querySelector("#trick .slot.win")))"""
DE = ("trump", "kitty", "exchange", "discard", "trick", "finished", "result")  # checked in German too: the longer words


def check_both(page: Any, what: str) -> None:
    """:func:`check_page` in English and then in German (the longer words), the page switched back after."""
    check_page(page, what)
    page.click("#lang")
    check_page(page, what + " de")
    page.click("#lang")


def new_table(page: Any, rules: str, seed: int, computers: int) -> str:
    """A practice table of ``rules`` dealt from ``seed``: this browser's seat 0 (Ann) and ``computers`` heuristic
    computers (deterministic); its id."""
    return str(page.evaluate("""async ([rules, seed, k]) => {
      const seats = [{kind: 'me', name: 'Ann'}];
      for (let i = 2; i <= k + 1; i++) seats.push({kind: 'computer', level: 'heuristic', name: 'Heuristic ' + i});
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Practice', rules, seed, seats})});
      const o = await r.json(); saveToken(o.id, o.seats[0].token); return o.id; }""", [rules, seed, computers]))


def play_through(page: Any, name: str, stop: str = "end", docs: bool = False) -> set[str]:
    """Play this seat's turns (the first choice each time) until the phase ``stop`` was seen; each phase, when first
    seen, checked (:func:`check_page`; the German page too for :data:`DE`) and, when the screen waits for this seat
    (``_STILL``), compared with the baseline ``NAME-PHASES-WIDTH``. With ``docs`` the first trick in progress is written to
    docs/images too (with ``SM_UPDATE_BASELINES``). The phases seen."""
    import time

    w = page.viewport_size["width"]
    seen: set[str] = set()
    t0 = time.time()
    while stop not in seen:
        assert time.time() - t0 < 120, (f"{stop} did not come", seen)
        new = _phases(page) - seen
        if new:
            seen |= new
            if page.evaluate(_STILL):
                page.wait_for_timeout(300)
                compare_baseline(page, "-".join([name, *sorted(new), str(w)]))
            if docs and "trick" in new and w in (390, 1280) and os.environ.get("SM_UPDATE_BASELINES"):
                DOC_IMAGES.mkdir(parents=True, exist_ok=True)
                shot = page.screenshot()  # the pictures of docs/web.md
                (DOC_IMAGES / f"table-{w}.png").write_bytes(half_png(page, shot, 0.5 if w > 600 else 1))
            what = ", ".join(sorted(new)) + (f" ({name})" if name != "three" else "")
            check_both(page, what) if new & set(DE) else check_page(page, what)
            for p in sorted(new & {"trick", "result"}):  # the score sheet (a column per player) in a deal, after one
                for lang in ("", " de"):
                    if lang:
                        page.click("#lang")
                    page.click("#btn-scores")
                    check_page(page, f"score sheet at {p} ({name}){lang}")
                    page.click("#info-close")
                page.click("#lang")
        _act(page, seen)
    return seen


@pytest.mark.parametrize("size", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_every_phase_fits_and_passes_axe(server: Server, browser: Any, size: tuple[int, int]) -> None:
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce")
    page = ctx.new_page()
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    page.goto(server.url + "/")
    check_both(page, "home")
    compare_baseline(page, f"home-{w}")
    # seed 69, two heuristic computers (deterministic): deal 1 dealt by seat 2, the kitty face down, this seat (the eldest
    # hand, target 5, playing its first card each time) takes 10 tricks; deal 2 is its deal: it gives 5 cards in the
    # exchange (docs/rules.md 9-5-2: from the second deal), names trump, takes the kitty and discards
    tid = new_table(page, "9-5-2 deals=2 to=30 instant-win=off", 69, 2)
    page.goto(server.url + "/t/" + tid)
    page.locator("#btn-start").wait_for()
    check_both(page, "waiting")
    seen = play_through(page, "three", docs=True)
    assert {"trump", "kitty", "discard", "exchange", "trick", "finished", "result", "end"} <= seen, seen
    page.locator("#btn-replay").click()
    page.locator("#hands .hand").first.wait_for()
    page.click("#next")
    check_both(page, "replay")
    compare_baseline(page, f"replay-{w}")
    page.goto(server.url + "/history")
    page.locator("tr.game").first.wait_for()
    check_page(page, "history")
    compare_baseline(page, f"history-{w}", mask="tr.game td:first-child")  # the date and time of the match differ
    page.click("#lang")  # German: the longer words
    check_page(page, "history de")
    page.goto(server.url + "/t/" + tid)
    page.locator("#end-title").wait_for()
    check_page(page, "end de")
    assert not errs, errs
    ctx.close()


def test_cards_have_spoken_names_and_four_colours(server: Server, browser: Any) -> None:
    """Every card says its name to a screen reader ("queen of spades", "Pik Dame"); the four-colour deck (a setting)
    draws diamonds blue and clubs green, the classic deck both as red and black."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    names = page.evaluate("""() => { const out = [];
      for (const l of ['en', 'de']) { LANG = l; out.push(['QS', 'TC', 'AH', '2D'].map((c) => cardEl(c).getAttribute('aria-label'))); }
      LANG = 'en'; return out; }""")
    assert names == [["queen of spades", "ten of clubs", "ace of hearts", "two of diamonds"],
                     ["Pik Dame", "Kreuz Zehn", "Herz Ass", "Karo Zwei"]], names
    colour = """(c) => decodeURIComponent(cardEl(c).firstChild.style.backgroundImage).match(/<g fill="(#[0-9a-f]+)"/)[1]"""
    classic = [page.evaluate(colour, c) for c in ("AS", "AH", "AD", "AC")]
    page.evaluate("saveSettings(Object.assign(settings(), {fourColour: true}))")
    four = [page.evaluate(colour, c) for c in ("AS", "AH", "AD", "AC")]
    assert classic[1] == classic[2] and classic[0] == classic[3] and classic[0] != classic[1], classic
    assert len(set(four)) == 4 and four[:2] == classic[:2], four
    assert json.loads(page.evaluate("localStorage.getItem('sm-settings')"))["fourColour"] is True
    ctx.close()


@pytest.mark.parametrize("size", [(360, 740), *VIEWPORTS], ids=[f"{w}x{h}" for w, h in [(360, 740), *VIEWPORTS]])
def test_four_players_fit_and_pass_axe(server: Server, browser: Any, size: tuple[int, int]) -> None:
    """Four players (``8-5-3 players=4``: 12 cards each, one player across): every phase of a deal fits, passes axe and,
    at phone and desktop size, looks as stored; on the narrowest phone (360 px) too."""
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce")
    page = ctx.new_page()
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    page.goto(server.url + "/")
    # seed 2: this seat deals (names trump, discards 4 before it takes the kitty), three heuristic computers
    tid = new_table(page, "8-5-3 players=4 deals=1", 2, 3)
    page.goto(server.url + "/t/" + tid)
    page.locator("#btn-start").wait_for()
    check_page(page, "waiting (four)")
    seen = play_through(page, "four")
    assert {"trump", "kitty", "discard", "trick", "finished", "end"} <= seen, seen
    assert not errs, errs
    ctx.close()


@pytest.mark.parametrize("size", [VIEWPORTS[0], VIEWPORTS[2]], ids=[f"{w}x{h}" for w, h in (VIEWPORTS[0], VIEWPORTS[2])])
def test_three_five_eight_fits_and_passes_axe(server: Server, browser: Any, size: tuple[int, int]) -> None:
    """3-5-8 (the playmaker chooses a contract after 6 cards; each seat shows the contracts it has left) up to the first
    trick: every phase fits, passes axe and, at phone and desktop size, looks as stored."""
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce")
    page = ctx.new_page()
    errs: list[str] = []
    page.on("pageerror", lambda e: errs.append(str(e)))
    page.goto(server.url + "/")
    # seed 4: seat 2 deals, this seat is the eldest hand, the playmaker (docs/rules.md 3-5-8)
    tid = new_table(page, "3-5-8", 4, 2)
    page.goto(server.url + "/t/" + tid)
    page.locator("#btn-start").wait_for()
    seen = play_through(page, "358", stop="trick")
    assert {"trump", "kitty", "discard", "trick"} <= seen, seen
    assert page.locator("#players .cl").count() == 3, page.inner_text("#players")  # the contracts left, each seat
    assert not errs, errs
    ctx.close()
