"""Two browsers (Playwright, Debian's Chromium) at one table through haproxy, each on another of three serve
processes on one PostgreSQL database (docs/web.md, "Many processes"): they play a whole match; Bea's process is
killed (kill -9) mid-deal, her page says it reconnects, and she goes on at another process with the same seat, cards
and version."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CHROMIUM

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")

from _browserhelp import drive, page_errors, two_friends  # noqa: E402
from _clusterhelp import Rig, holders_until, log_check, running_rig  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]

# every text the connection line (#conn) shows, recorded as it changes (a reconnection takes well under a second)
WATCH_CONN = """() => { window.connTexts = []; new MutationObserver(() => window.connTexts.push(document.getElementById('conn')
  .textContent)).observe(document.getElementById('conn'), {childList: true, characterData: true, subtree: true}); }"""


@pytest.fixture
def rig() -> Iterator[Rig]:
    with running_rig(delay=0.2) as r:
        yield r


def test_two_browsers_two_processes_whole_match(rig: Rig, browser: Any) -> None:
    a, b, tid = two_friends(rig, browser, "9-5-2 deals=2")  # type: ignore[arg-type]
    errs = page_errors(a) + page_errors(b)
    seats = holders_until(rig.db, tid, lambda s: bool(s.get(0) and s.get(1)))
    assert seats[0] != seats[1], f"the two browsers on one process: {seats}"
    a.click("#btn-start")
    # mid-deal: Bea's turn in a trick; her process is killed
    drive([a, b], lambda: b.locator("#hand button.legal").count() > 0 and b.locator("#trick .card").count() > 0, settle=1.0)
    hand = b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    version = b.evaluate("S.v")
    b.evaluate(WATCH_CONN)
    rig.kill9(rig.process_ids().index(next(iter(seats[1]))))
    b.wait_for_function("window.connTexts.some(t => t.includes('reconnecting'))", timeout=10000)
    b.locator("#hand button.legal").first.wait_for(timeout=15000)
    b.wait_for_function("S && S.v >= 0 && document.getElementById('conn').textContent === ''", timeout=15000)
    assert b.evaluate("S.v") == version
    assert b.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    holders_until(rig.db, tid, lambda s: bool(s.get(1, set()) - seats[1]))  # Bea on another process
    if os.environ.get("SM_SHOTS"):  # to look at: the page at another process, the same hand
        b.screenshot(path=os.path.join(os.environ["SM_SHOTS"], "cluster-reconnected.png"))
    drive([a, b], lambda: a.locator("#end-title").is_visible() and b.locator("#end-title").is_visible(), limit=180)
    assert "Bea" in a.inner_text("#players")
    assert not errs, errs
    log_check(rig.db, tid)
