"""Regressions from a fifth run on the browser play's server: a ``join`` with a name over 40 characters refused like
table creation refuses it (it was cut to 40); ``start`` after the match answered ``over``; request bodies over 64 KiB
refused with HTTP 413 without being read; ``/api/history`` replaying tables off the event loop; a player leaving a
seat on the same connection shown offline to the others at once, the seat's absence counted from then."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.app import Conn, Hub  # noqa: E402


def test_a_join_with_a_name_over_40_characters_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "name": "A" * 45}`` seated the client and renamed the seat to 40 "A"s,
    while creating a table with a seat name of 41 characters is refused. Now ``bad_message`` naming the limit and
    quoting the name's start; the connection is neither seated nor moved, the seat not renamed."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        gt = hub.load(tid)
        assert gt is not None
        c = connect(hub, tid)
        for seated in (None, 0):
            if seated is not None:
                await send(hub, c, {"type": "join", "token": t["seats"][seated]["token"]})
            n, frames = len(gt.log), len(c.ws.frames)
            await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "Benjamin" + "B" * 33})
            assert len(c.ws.frames) == frames + 1, c.ws.frames[frames:]
            err = json.loads(c.ws.frames[-1])
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert "at most 40 characters" in err["reason"] and '"BenjaminBBB' in err["reason"], err
            assert "nothing was changed" in err["reason"]
            assert c.seat == seated and c.joined == (seated is not None) and len(gt.log) == n
            assert [s.name for s in gt.seats] == ["Me", "Friend 1", "Heuristic 3"]
            got = hub.store.table(tid)
            assert got is not None and [s.name for s in got[1]] == ["Me", "Friend 1", "Heuristic 3"]
        await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "B" * 40})
        st = c.ws.last()
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "B" * 40

    asyncio.run(run())


async def _play_to_the_end(hub: Hub, c: Conn) -> dict[str, Any]:
    """Play seat ``c``'s first legal action (and start each deal) until the match is over; its last state."""
    while True:
        st = c.ws.last()
        assert st is not None
        if st["over"]:
            return st
        if st["waiting_start"]:
            await send(hub, c, {"type": "start", "v": st["v"]})
        else:
            assert st["view"]["to_act"] == c.seat and st["view"]["legal"], st["view"]
            act = dict(st["view"]["legal"][0])
            act.pop("seat")
            await send(hub, c, {"type": "act", "v": st["v"], "action": act})


def test_start_after_the_match_is_over_answers_over(tmp_path: Path) -> None:
    """The repro: ``start`` once the match was over answered ``not_waiting`` ("no deal is waiting to be started"), as
    in the middle of a deal. Now ``over``, the code an action after the match gets; in a deal still ``not_waiting``."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "random", "random"], seed=3)
        gt = hub.load(t["id"])
        assert gt is not None
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        st = c.ws.last()
        assert st is not None and not st["waiting_start"]
        await send(hub, c, {"type": "start", "v": st["v"]})
        assert c.ws.last("error") == {"type": "error", "code": "not_waiting", "reason": "no deal is waiting to be started"}
        st = await _play_to_the_end(hub, c)
        n = len(gt.log)
        await send(hub, c, {"type": "start", "v": st["v"]})
        err = c.ws.last("error")
        assert err is not None and err["code"] == "over" and "the match is over" in err["reason"], err
        assert len(gt.log) == n and gt.match.over

    asyncio.run(run())
