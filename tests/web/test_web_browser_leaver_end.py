"""A leaver is never announced as the winner: when the computer standing in for his seat takes the match, the end
dialog, the replay and My games name the final ranking's first (the leaver ranks last, as the ratings count it), and
the reason says why, in English and German (the tester's repro: "bob_t won" beside bob_t's last place)."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (CI installs Debian's chromium: apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is missing (the test extra)")
pytest.importorskip("fastapi")
from _browserhelp import page_errors  # noqa: E402
from _webhelp import Server, connect, http_json, play_to_the_end, send  # noqa: E402

from sergeant_major.web.app import create_table  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.store import Store, tables_t  # noqa: E402
from sergeant_major.web.tables import final_ranking  # noqa: E402

pytestmark = pytest.mark.browser


def _leaver_wins(server: Server) -> tuple[str, str]:
    """A match of Ann, bob_t (who leaves at once) and a random computer, played out in another process sharing the
    server's database, on the first seed on which the computer standing in for bob_t takes it: (table, Ann's token)."""
    hub = Hub(Store(server.db), 0.0)

    async def play(seed: int) -> tuple[str, str, bool]:
        out = create_table(hub.store, {"rules": "9-5-2 deals=1", "seats": [{"kind": "me", "name": "Ann"},
                                       {"kind": "friend", "name": "bob_t"}, {"kind": "computer", "level": "random"}]})
        tid = out["id"]
        with hub.store.engine.begin() as conn:  # as only a test may: the same deal every run
            conn.execute(tables_t.update().where(tables_t.c.id == tid).values(seed=seed))
        ann_token, bob_token = out["seats"][0]["token"], out["seats"][1]["invite"].split("#token=")[1]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": ann_token})
        await send(hub, b, {"type": "join", "token": bob_token})
        await send(hub, a, {"type": "start", "v": a.ws.last()["v"]})  # type: ignore[attr-defined]
        await send(hub, b, {"type": "leave", "v": b.ws.last()["v"]})  # type: ignore[attr-defined]
        await play_to_the_end(hub, a)
        gt = hub.tables[tid]
        assert gt.match.end is not None
        return tid, ann_token, gt.match.end.winners == (1,) and final_ranking(gt)[0] == 1

    async def search() -> tuple[str, str]:
        for seed in range(1, 60):
            tid, token, found = await play(seed)
            if found:
                return tid, token
        raise AssertionError("no seed of 1..59 lets the computer standing in for bob_t win")

    with ThreadPoolExecutor(1) as pool:  # playwright's own event loop runs in this thread
        return pool.submit(asyncio.run, search()).result()


@pytest.mark.parametrize(("lang", "won", "why"), [("en", "Ann won", "bob_t left the match and so ranks last"),
                                                  ("de", "Ann gewinnt", "bob_t hat die Partie verlassen und steht deshalb auf dem letzten Platz")])
def test_a_leaver_whose_computer_takes_the_match_is_not_announced_as_winner(server: Server, browser: Any, lang: str,
                                                                           won: str, why: str) -> None:
    tid, token = _leaver_wins(server)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('sm-lang', '{lang}')")
    page = ctx.new_page()
    errs = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("([tid, tok]) => saveToken(tid, tok)", [tid, token])
    page.goto(server.url + "/t/" + tid)
    page.locator("#winner").wait_for()
    assert page.inner_text("#winner") == won
    assert why in page.inner_text("#end-reason")
    page.goto(server.url + "/replay/" + tid)
    page.locator("#end", has_text=won).wait_for()
    assert why in page.inner_text("#end")
    # My games: the finished match's winner as the ranking says
    status, games = http_json(server, "/api/history", {"tokens": [token]})
    assert status == 200 and [g["winners"] for g in games["games"] if g["id"] == tid] == [[0]], games
    assert errs == []
    ctx.close()
