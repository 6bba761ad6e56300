"""Regressions of the web table: deal 1 waits for every person's seat (a start refused with ``empty_seat`` while an
invited friend has not joined); with ``--delay`` the computers' moves are shown at the same pace whether a move had
one legal choice or many (a timing channel: an expert answers a forced return at once and thinks over a free one, which
told the others whether a trump was given); and with ``--delay`` the player whose action made the computers' moves due
is answered at once, her next messages too (her websocket was busy until all of them had moved)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402


def test_deal_one_waits_until_every_persons_seat_is_taken(tmp_path: Path) -> None:
    """The repro: at a table of Ann and an invited friend, Ann's ``start`` dealt deal 1 before the friend had opened his
    link (and with a timeout a stand-in then played his cards). Now the start is refused (``empty_seat``, naming the
    seat; nothing changes) until every person's seat is held; then it is taken. Practice tables and tables of
    computers start as before; a later deal is not held up by a player away (a stand-in plays for him)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        gt = hub.tables[tid]
        await send(hub, a, {"type": "start", "v": 0})
        err = a.ws.last("error")
        assert err is not None and err["code"] == "empty_seat", err
        assert "seat 1 (\"Friend 1\")" in err["reason"] and "nothing was changed" in err["reason"], err
        assert gt.waiting_start and gt.version == 0 and len(gt.log) == 0
        assert hub.store.table(tid)[2] == []  # type: ignore[index]  # nothing stored
        f = connect(hub, tid)
        await send(hub, f, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"})
        # the friend's seat is shown held to Ann: her page enables its start then
        st = a.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [True, True, False]
        await send(hub, a, {"type": "start", "v": 0})
        assert not gt.waiting_start and gt.released == 1
        # the friend went away (his phone locked) and came back: the next deal is not held up by nobody
        hub.drop(f)
        assert 1 not in hub.online(tid)

        # a practice table, and a table of two "me" seats once both are held
        p = new_table(hub, "9-5-2", ["me", "random", "random"], seed=2)
        pc = connect(hub, p["id"])
        await send(hub, pc, {"type": "join", "token": p["seats"][0]["token"]})
        await send(hub, pc, {"type": "start", "v": 0})
        assert hub.tables[p["id"]].released == 1
        two = new_table(hub, "9-5-2", ["me", "me", "random"], seed=2)
        m1, m2 = connect(hub, two["id"]), connect(hub, two["id"])
        await send(hub, m1, {"type": "join", "token": two["seats"][0]["token"]})
        await send(hub, m1, {"type": "start", "v": 0})
        assert m1.ws.last("error")["code"] == "empty_seat"  # type: ignore[index]
        await send(hub, m2, {"type": "join", "token": two["seats"][1]["token"]})
        await send(hub, m2, {"type": "start", "v": 0})
        assert hub.tables[two["id"]].released == 1

    asyncio.run(run())
