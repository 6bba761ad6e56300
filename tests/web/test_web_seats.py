"""Seats: deal 1 waits until every person's seat is held, a table with two people is no practice table, leaving a seat
on the same connection, and one invitation's seat claimed once by joins at the same time (``Store.claim_seat``; on
SQLite, and on PostgreSQL when ``SM_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.store import Store, TableRow  # noqa: E402
from sergeant_major.web.tables import GameTable  # noqa: E402


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
        assert "seat 2 (\"Friend 1\")" in err["reason"] and "nothing was changed" in err["reason"], err
        assert gt.waiting_start and gt.version == 0 and len(gt.log) == 0
        assert hub.store.table(tid)[2] == []  # type: ignore[index]  # nothing stored
        f = connect(hub, tid)
        await send(hub, f, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"})
        # the friend's seat is shown held to Ann: her page enables its start then
        st = a.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [True, True, False]
        await send(hub, a, {"type": "start", "v": 0})
        assert not gt.waiting_start and gt.released == 1
        # deal 1 played out; the friend then went away (his phone locked): the next deal is not held up by him
        conns = {0: a, 1: f}
        while not gt.waiting_start:
            seat = gt.match.to_act
            assert seat in conns, seat
            st = conns[seat].ws.last()
            assert st is not None and st["view"]["legal"], st
            legal = dict(st["view"]["legal"][0])
            legal.pop("seat", None)
            await send(hub, conns[seat], {"type": "act", "v": st["v"], "action": legal})
            assert conns[seat].ws.last()["type"] == "state", conns[seat].ws.last()  # type: ignore[index]
        assert gt.released == 1 and gt.match.deal.number == 2
        hub.drop(f)
        assert 1 not in hub.online(tid)
        await send(hub, a, {"type": "start", "v": gt.version})
        assert not gt.waiting_start and gt.released == 2, a.ws.last("error")

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


def test_a_table_with_two_people_is_no_practice_table(tmp_path: Path) -> None:
    """The repro: seats "me", "me", computer made a practice table (only "friend" seats counted). Once the second
    seat's token is passed on (``/t/ID#token=...``), its holder is a second person, and the first could lead, see the
    second's answer, and take both cards back with *Undo*: the other's cards seen for nothing. Now a practice table
    has one person at most, and an undo never takes back another person's card (tables stored before)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        assert new_table(hub, "9-5-2", ["me", "heuristic", "random"])["practice"]
        assert new_table(hub, "9-5-2", ["heuristic", "heuristic", "random"])["practice"]
        t = new_table(hub, "9-5-2", ["me", "me", "heuristic"], seed=8)
        assert not t["practice"]
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        gt = hub.tables[tid]
        while not gt.match.deal.completed:  # the first trick: both people play
            c, seat = (a, 0) if gt.match.to_act == 0 else (b, 1)
            st = c.ws.last()
            assert st is not None and st["view"]["to_act"] == seat
            act = dict(st["view"]["legal"][0])
            act.pop("seat")
            await send(hub, c, {"type": "act", "v": st["v"], "action": act})
        for c in (a, b):
            st = c.ws.last()
            assert st is not None and not st["can_undo"] and not st["table"]["practice"]
            n = len(gt.log)
            await send(hub, c, {"type": "undo", "v": st["v"]})
            assert c.ws.last("error")["code"] == "no_undo" and len(gt.log) == n
        c = b if gt.match.to_act == 1 else a
        await send(hub, c, {"type": "hint"})
        assert c.ws.last("error")["code"] == "no_hint"
        # the same table stored as practice (before this fix): still no undo of the other's cards
        row = gt.row
        old = GameTable(TableRow(row.id, row.name, row.rules, row.seed, True, row.away_timeout, row.created), gt.seats, gt.log)
        assert old.undo_count(0) == 0 and old.undo_count(1) == 0

    asyncio.run(run())


def test_leaving_a_seat_on_the_same_connection_is_shown_and_timed_from_then(tmp_path: Path) -> None:
    """The repro: a player who became a spectator (``join`` with a null token) on the same websocket was still shown
    online to the others until the next change; one who took another seat on it left the first seat with the last-seen
    time of long ago (when the table was loaded), so the next check handed it to a stand-in at once (0.9 s after it was
    left, with a timeout of 3 s). Now the others get the new state at once, and the seat left is last seen then."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=3, timeout=30)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        gt = hub.tables[tid]
        st = b.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [True, True, False]
        n, frames_a = len(b.ws.frames), len(a.ws.frames)
        await send(hub, a, {"type": "join", "token": None})
        assert len(b.ws.frames) == n + 1, b.ws.frames[n:]
        st = b.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [False, True, False]
        assert len(a.ws.frames) == frames_a + 1 and (a.ws.last() or {})["you"] is None  # one state for the spectator
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})  # back at seat 0
        hub.last_seen[(tid, 0)] = hub.last_seen[(tid, 1)] = 0.0  # as when the table was loaded long ago
        hub.drop(b)  # seat 1's player closes the tab: last seen now
        await send(hub, a, {"type": "join", "token": t["seats"][1]["token"]})  # and seat 0's takes seat 1 on his connection
        assert a.seat == 1 and hub.online(tid) == {1}
        await hub.check_away()
        assert gt.away == set() and [e.kind for e in gt.log].count("away") == 0  # seat 0 was left just now
        assert hub.last_seen[(tid, 0)] > 1e9
        st = a.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [False, True, False]

    asyncio.run(run())


def _errors(c: object) -> list[dict[str, object]]:
    return [m for m in (json.loads(f) for f in c.ws.frames) if m["type"] == "error"]  # type: ignore[attr-defined]


def test_two_joins_of_one_invitation_at_once_seat_exactly_one(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid, tok = t["id"], t["seats"][1]["token"]
        a, b = connect(hub, tid), connect(hub, tid)
        await asyncio.gather(send(hub, a, {"type": "join", "token": tok, "name": "Ann"}),
                             send(hub, b, {"type": "join", "token": tok, "name": "Bea"}))
        assert (a.seat, a.joined) == (1, True)
        st = a.ws.last()  # type: ignore[attr-defined]
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Ann"
        assert (b.seat, b.joined) == (None, False) and b.ws.last() is None  # type: ignore[attr-defined]
        err = _errors(b)
        assert [m["code"] for m in err] == ["seat_claimed"], err
        assert err[0]["reason"] == ('seat 2 was taken already with this invitation by "Ann"; your join '
                                    'as "Bea" is refused: if that is you, join with that name; you may watch as a spectator '
                                    "(nothing was changed)"), err
        got = hub.store.table(tid)
        assert got is not None and got[1][1].name == "Ann" and got[1][1].claimed
        assert hub.tables[tid].seats[1].name == "Ann"
        # the winner comes back (his name, or none: a reconnect) and is seated; the loser may watch
        for msg in ({"type": "join", "token": tok}, {"type": "join", "token": tok, "name": "ann"}):
            c = connect(hub, tid)
            await send(hub, c, msg)
            assert c.seat == 1 and not _errors(c)
        await send(hub, b, {"type": "join", "token": None})
        assert b.joined and b.seat is None
        assert hub.store.table(tid)[1][1].name == "Ann"  # type: ignore[index]

    asyncio.run(run())


def test_two_servers_sharing_the_database_seat_one_join_of_an_invitation(tmp_path: Path) -> None:
    """Each server loaded the table while the seat was free; the second join (on the other server) is refused by the
    database's conditional UPDATE, not by any lock of one process."""
    async def run() -> None:
        one = make_hub(tmp_path)
        two = Hub(Store(one.store.url), 0.0)
        t = new_table(one, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid, tok = t["id"], t["seats"][1]["token"]
        assert await one.fetch(tid) is not None and await two.fetch(tid) is not None
        a, b = connect(one, tid), connect(two, tid)
        await send(one, a, {"type": "join", "token": tok, "name": "Ann"})
        await send(two, b, {"type": "join", "token": tok, "name": "Bea"})
        assert a.seat == 1 and b.seat is None
        assert [m["code"] for m in _errors(b)] == ["seat_claimed"], _errors(b)
        assert one.store.table(tid)[1][1].name == "Ann"  # type: ignore[index]
        assert two.tables[tid].seats[1].name == "Ann"  # the second server learnt who took it
        two.store.dispose()

    asyncio.run(run())


def _claim_race(store: Store, tid: str) -> None:
    barrier = threading.Barrier(8)
    won: list[tuple[bool, str]] = []

    def claim(name: str) -> None:
        barrier.wait()
        ok, row = store.claim_seat(tid, 1, name)
        won.append((ok, row.name))

    threads = [threading.Thread(target=claim, args=(f"P{i}",)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    winners = [n for ok, n in won if ok]
    assert len(winners) == 1, won
    assert {n for _, n in won} == set(winners), won  # every loser is told the winner's name
    got = store.table(tid)
    assert got is not None and got[1][1].name == winners[0] and got[1][1].claimed


def test_store_claim_seat_in_threads_sqlite(tmp_path: Path) -> None:
    hub = make_hub(tmp_path)
    t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
    _claim_race(hub.store, t["id"])


@pytest.mark.postgres
def test_store_claim_seat_in_threads_postgresql() -> None:
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    store = Store(url)
    store.migrate()
    hub = Hub(store, 0.0)
    t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
    try:
        _claim_race(store, t["id"])
    finally:
        store.dispose()
