"""The account store and the ratings' writes on SQLite and on PostgreSQL (``SM_TEST_POSTGRES_URL``): names unique
letter case aside also when registered at once, the throttle's rows, a match rated exactly once when two threads rate it
at once, and a deletion that leaves the seats' records renamed."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import new_table  # noqa: E402

from sergeant_major.web.accounts import DELETED_NAME, MAX_FAILURES, AccountRefused, AccountStore, Throttled  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.ratings import rate_match, rating_history, rating_of  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")  # the server's own parameters: test_web_accounts.py

PASSWORD = "a good password"


def _sqlite(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 's.sqlite3'}")


def _postgres(_tmp_path: Path) -> Store:
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    return Store(url)


@pytest.fixture(params=[pytest.param(_sqlite, id="sqlite"), pytest.param(_postgres, id="postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    make: Callable[[Path], Store] = request.param
    s = make(tmp_path)
    s.migrate()
    yield s
    s.dispose()


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(4)}"  # the PostgreSQL database outlives a test run


def at_once(n: int, fn: Callable[[int], Any]) -> list[Any]:
    out: list[Any] = [None] * n
    barrier = threading.Barrier(n)

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = fn(i)
        except Exception as e:  # noqa: BLE001 - returned for the test to look at
            out[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_one_name_registered_at_once_in_two_cases_makes_one_account(store: Store) -> None:
    acc = AccountStore(store)
    name = unique("Rae")
    got = at_once(2, lambda i: acc.register(name if i == 0 else name.upper(), PASSWORD))
    assert sum(isinstance(g, int) for g in got) == 1
    assert [g.code for g in got if isinstance(g, AccountRefused)] == ["name_taken"]


def test_sessions_and_the_throttle(store: Store) -> None:
    acc = AccountStore(store)
    name = unique("sam")
    aid = acc.register(name, PASSWORD)
    session, token = acc.login(name.upper(), PASSWORD, "10.0.0.1")
    assert session.account_id == aid and acc.session(token) == session and acc.session(token + "x") is None
    acc.logout(token)
    assert acc.session(token) is None
    addr = unique("addr")
    for _ in range(MAX_FAILURES):
        with pytest.raises(AccountRefused):
            acc.login(name, "wrong password", addr)
    with pytest.raises(Throttled) as e:
        acc.login(name, PASSWORD, addr)
    assert 0 < e.value.wait <= 15 * 60
    assert acc.login(name, PASSWORD, unique("other"))[0].account_id == aid  # the owner elsewhere: never locked out


def test_a_match_is_rated_once_when_two_threads_rate_it_at_once(store: Store) -> None:
    acc = AccountStore(store)
    ids = [acc.register(unique("tia"), PASSWORD), acc.register(unique("uma"), PASSWORD)]
    tid = new_table(Hub(store, 0.0), "9-5-2", ["me", "friend", "heuristic"], seed=2)["id"]
    seats = [("human", ids[0]), ("human", ids[1]), ("heuristic", None)]
    got = at_once(4, lambda _i: rate_match(store, tid, "9-5-2", seats, [1, 0, 2]))
    assert sorted(got, key=str) == [False, False, False, True]
    for aid in ids:
        assert rating_of(store, aid, "9-5-2").matches == 1 and len(rating_history(store, aid)) == 1
    assert rating_of(store, ids[1], "9-5-2").wins == 1


def test_deleting_an_account_keeps_its_seats_records_under_another_name(store: Store) -> None:
    acc = AccountStore(store)
    name = unique("vic")
    aid = acc.register(name, PASSWORD)
    t = new_table(Hub(store, 0.0), "9-5-2", ["me", "friend", "heuristic"], seed=2)
    assert store.bind_seat(t["id"], 0, aid) and not store.bind_seat(t["id"], 1, aid)  # one seat per account at a table
    rate_match(store, t["id"], "9-5-2", [("human", aid), ("human", acc.register(unique("wes"), PASSWORD)), ("heuristic", None)],
               [0, 1, 2])
    _s, token = acc.login(name, PASSWORD, "10.0.0.2")
    with pytest.raises(AccountRefused):
        acc.delete(aid, "wrong password")
    assert acc.delete(aid, PASSWORD).tables == [t["id"]]
    got = store.table(t["id"])
    assert got is not None and got[1][0].name == DELETED_NAME and got[1][0].account is None
    assert acc.session(token) is None and acc.account_id(name) is None
    assert rating_of(store, aid, "9-5-2").matches == 0 and rating_history(store, aid) == []
