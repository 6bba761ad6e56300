"""Regressions from a fourth fresh-eyes run on the web server (an in-process hub with fake websockets): the table's lock
is not held while a computer waits out ``--delay``, and a table's lock, clients and last-seen times are forgotten with
it once nobody is connected any more."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from _webhelp import connect, make_hub, new_table, send


def test_a_player_is_seated_at_once_while_the_computers_wait_out_their_delay(tmp_path: Path) -> None:
    """The repro: with ``--delay`` (0.6 s by default) the table's lock was held while each computer waited before its
    move, so a player reconnecting (or opening a second tab) while the computers played saw nothing until all of them
    had moved: with five computer moves due, three seconds. Now the lock is free during the wait: she is seated and
    shown the stored state at once, and the computers' moves are the same."""
    async def run() -> list[object]:
        hub = make_hub(tmp_path)
        hub.delay = 0.2
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        tok = t["seats"][0]["token"]
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": tok})
        started = asyncio.create_task(send(hub, a, {"type": "start", "v": 0}))
        await asyncio.sleep(0.05)  # the first computer waits its delay now
        got_at: list[float] = []
        b = connect(hub, t["id"], on_send=lambda _text: got_at.append(time.monotonic()))
        t0 = time.monotonic()
        await send(hub, b, {"type": "join", "token": tok})
        answered = time.monotonic() - t0
        waited = got_at[0] - t0
        first = b.ws.last()
        assert first is not None and first["you"] == 0
        assert waited < 0.15, waited  # it was 1 s: five delays of 0.2 s
        assert answered < 0.15, answered  # and its join is done: the run going on takes the computers' moves
        await started
        gt = hub.tables[t["id"]]
        assert [by for _a, by in gt.acts] == ["computer", "forced", "computer", "computer", "computer", "computer"]
        assert a.ws.last() == b.ws.last() and gt.match.to_act == 0
        got = hub.store.table(t["id"])
        assert got is not None and [e.data for e in got[2]] == [e.data for e in gt.log]
        return [e.data for e in gt.log]

    with_delay = asyncio.run(run())

    async def undelayed() -> list[object]:
        hub = make_hub(tmp_path / "0")
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        return [e.data for e in hub.tables[t["id"]].log]

    (tmp_path / "0").mkdir()
    assert asyncio.run(undelayed()) == with_delay
