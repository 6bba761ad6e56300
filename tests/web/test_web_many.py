"""Two table runners (as two processes would) on one PostgreSQL database, in one event loop and without the listening
connection, so that each step is the test's: an action made on a copy behind the log is refused by the log's key and
answered as stale once the copy has read what it missed; presence and seats stored by one are seen by the other; only
the lease's holder plays the computers, but either takes a forced move; a lease is taken over once expired."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, new_table, send, write_while_loading  # noqa: E402

from sergeant_major.web.cluster import Cluster  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.runner import LEASE_TTL  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402

pytestmark = pytest.mark.postgres


def _url() -> str:
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (scripts/test starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    return url


def _hubs() -> tuple[Hub, Hub]:
    url = _url()
    a, b = Store(url, pool=4), Store(url, pool=4)
    a.migrate()
    h1, h2 = Hub(a, 0.0), Hub(b, 0.0)
    h1.holder, h2.holder = "test-one", "test-two"
    return h1, h2


def _act(st: dict[str, Any]) -> dict[str, Any]:
    a = dict(st["view"]["legal"][0])
    a.pop("seat")
    return {"type": "act", "v": st["v"], "action": a}


def test_stale_copy_refused_then_caught_up() -> None:
    async def run() -> None:
        h1, h2 = _hubs()
        t = new_table(h1, "9-5-2", ["me", "friend", "heuristic"], seed=5)
        tid = t["id"]
        loop = asyncio.get_running_loop()
        assert await h1.take_lease(tid) and not await h2.take_lease(tid)  # one holder
        a, b = connect(h1, tid), connect(h2, tid)
        await send(h1, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(h2, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bea"})
        # Bea's seat and presence, stored by the second, are seen by the first once it reads them (a P notice)
        await h1.refresh(tid)
        assert h1.tables[tid].seats[1].name == "Bea" and 1 in h1.online(tid)
        await h2.refresh(tid)
        assert 0 in h2.online(tid)
        await send(h1, a, {"type": "start", "v": a.ws.last()["v"]})
        assert a.ws.last()["waiting_start"] is False
        # the second's copy is behind the log (no notice read): the next action stored there is refused by the key
        g2 = h2.tables[tid]
        behind = g2.version
        assert behind < h1.tables[tid].version
        # the first's player acts until it is Bea's turn; the second still sees the old version
        while (st := a.ws.last())["view"]["to_act"] == 0:
            await send(h1, a, _act(st))
        stale_v = b.ws.last()["v"]
        assert stale_v == behind
        log_before = len(h1.store.table(tid)[2])
        frames = len(b.ws.frames)
        await send(h2, b, {"type": "start", "v": stale_v})  # any action: made on a version that is not the current one
        got = b.ws.frames[frames:]
        assert any('"code":"stale"' in f for f in got), got
        assert len(h2.store.table(tid)[2]) == log_before  # nothing stored
        assert h2.tables[tid].version == h1.tables[tid].version  # caught up from the log
        # the second is not in charge; the first renews its lease (no tick here: by hand)
        assert not h2.in_charge(tid) and await h1.take_lease(tid) and not await h2.take_lease(tid)
        # a lease not renewed expires; then the other takes it
        h1.held.clear()
        with h1.store.engine.begin() as c:
            c.exec_driver_sql("UPDATE sm_leases SET expires = expires - %s WHERE table_id = %s", (LEASE_TTL + 1, tid))
        assert await h2.take_lease(tid) and h2.in_charge(tid)
        assert h2.held[tid] > loop.time()
        for h in (h1, h2):
            h.store.dispose()

    asyncio.run(run())


def test_only_the_holder_plays_the_computers() -> None:
    async def run() -> None:
        h1, h2 = _hubs()
        t = new_table(h1, "9-5-2", ["me", "heuristic", "heuristic"], seed=9)
        tid = t["id"]
        a = connect(h2, tid)  # the player on the second; a spectator on the first, which takes the lease at its join
        s = connect(h1, tid)
        await send(h1, s, {"type": "join"})
        assert h1.in_charge(tid) and not await h2.take_lease(tid)
        await h2.refresh(tid)
        await send(h2, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(h2, a, {"type": "start", "v": a.ws.last()["v"]})
        st = a.ws.last()
        log = h2.store.table(tid)[2]
        # nothing but the start (and forced moves) stored by the second: the computers wait for the holder
        assert all(e.kind == "start" or e.data.get("by") in ("forced", "human") for e in log)
        assert st["view"]["to_act"] != 0 or st["view"]["legal"]
        await h1.catch_up(tid)  # the holder hears of it (an L notice) and plays
        log2 = h1.store.table(tid)[2]
        if st["view"]["to_act"] != 0:
            assert any(e.data.get("by") == "computer" for e in log2)
            assert s.ws.last()["v"] > st["v"]  # and shows it
        assert [e.idx for e in log2] == list(range(len(log2)))
        for h in (h1, h2):
            h.store.dispose()

    asyncio.run(run())


def test_a_seat_taken_at_another_process_while_the_table_loads_here_is_shown() -> None:
    """Bea takes her seat at the second process while the first loads the table (its first websocket there): a load that
    read the seats before her join and was installed after it kept her seat free there, and the ``P`` notice of her
    join, come while the table was neither loaded nor had a client there, was dropped: that copy never showed her
    seat ("nobody holds seat 1"). The load is held between its read and its install (:func:`write_while_loading`)."""

    async def run() -> None:
        h1, h2 = _hubs()
        t = new_table(h1, "9-5-2", ["me", "friend", "heuristic"], seed=5)
        tid = t["id"]
        shared = Cluster(h1)  # its notices are given to it by the test (no listening connection)

        async def join_there() -> None:
            b = connect(h2, tid)
            await send(h2, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bea"})
            shared.dispatch(f"P {tid}")  # the notice of her join (NOTIFYed in its transaction)
            await asyncio.gather(*shared.pending)

        gt = await write_while_loading(h1, tid, join_there)
        assert gt.seats[1].name == "Bea" and gt.seats[1].claimed and h1.store.seats(tid)[1].name == "Bea"
        assert gt.match.names[1] == "Bea"

    asyncio.run(run())


@pytest.mark.usefixtures("fast_argon2")
@pytest.mark.parametrize("change", ["fill", "delete"])
def test_seats_the_computers_fill_or_a_deletion_renames_reach_the_other_processes(change: str) -> None:
    """The lobby's computers taking the free seats, and an account's deletion renaming its seats, were stored without a
    ``P`` notice: a copy of the table loaded at another process kept the seats as they were (seat 2 free there: "nobody
    holds seat 2"; a deleted player's name and account). The notices are read on a listening connection of the test's
    and given to the other process's :class:`Cluster`."""
    import uuid

    import psycopg
    import sqlalchemy as sa

    from sergeant_major.web.accounts import DELETED_NAME, AccountStore
    from sergeant_major.web.app import create_table
    from sergeant_major.web.lobby import Lobby, lobby_request
    from sergeant_major.web.store import CHANNEL

    async def run() -> None:
        h1, h2 = _hubs()
        accounts = AccountStore(h1.store)
        lobby = Lobby(h1)
        if change == "fill":
            tid = (await lobby.open(lobby_request({"name": "Ann", "wait": 120, "level": "random"}, "open"))).table
        else:
            gone = accounts.register(f"mia{uuid.uuid4().hex[:12]}", "correct horse 42")
            tid = create_table(h1.store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"},
                                                                       {"kind": "computer", "level": "random"}]}, account=gone)["id"]
        there = await h2.fetch(tid)  # loaded at the other process (a client of the table there)
        assert there is not None
        shared = Cluster(h2)
        dsn = sa.engine.make_url(h1.store.url).set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(dsn, autocommit=True) as listening:
            listening.execute(f"LISTEN {CHANNEL}")
            if change == "fill":
                assert await lobby.fill(tid) == [1, 2]
                for task in lobby.tasks():
                    task.cancel()
            else:
                assert (await asyncio.to_thread(accounts.delete, gone, "correct horse 42")).tables == [tid]
            got = [n.payload for n in listening.notifies(timeout=10, stop_after=1)]
        assert f"P {tid}" in got
        for payload in got:
            shared.dispatch(payload)
        await asyncio.gather(*shared.pending)
        stored = h2.store.seats(tid)
        if change == "fill":
            assert [s.claimed for s in there.seats] == [True] * 3 and [s.name for s in there.seats] == [s.name for s in stored]
        else:
            assert (there.seats[0].name, there.seats[0].account) == (DELETED_NAME, None) == (stored[0].name, stored[0].account)

    asyncio.run(run())
