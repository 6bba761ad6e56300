"""Two joins with one invitation's token at about the same time were both seated, the later one's name winning (the
seat renamed under the first). Now the seat's first join takes it in one conditional UPDATE (``Store.claim_seat``):
exactly one join wins, also on two servers sharing the database; the other is refused with ``seat_claimed``, quoting
both names, and nothing changes (docs/web.md)."""

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
from sergeant_major.web.store import Store  # noqa: E402


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
        assert err[0]["reason"] == ('seat 1 was taken already with this invitation by "Ann" (seats count from 0); your join '
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
