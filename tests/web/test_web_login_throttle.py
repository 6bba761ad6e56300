"""The login throttle: 5 failed logins for a name or from an address within 15 minutes, then HTTP 429 with the time to
wait (Retry-After and the message), kept in the database; a good login forgets the name's failures."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.web.accounts import FAILURE_WINDOW, MAX_FAILURES, AccountStore, Throttled  # noqa: E402
from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.store import Store, login_failures_t  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")  # the server's own parameters: test_web_accounts.py

PASSWORD = "a good password"


def make(tmp_path: Path) -> tuple[Store, Any]:
    store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
    store.migrate()
    return store, create_app(store=store)


def login(c: TestClient, name: str, password: str) -> Any:
    return c.post("/api/account/login", json={"name": name, "password": password})


def test_five_failures_for_a_name_then_429_with_the_wait_even_with_the_right_password(tmp_path: Path) -> None:
    store, app = make(tmp_path)
    with TestClient(app) as c:
        c.post("/api/account/register", json={"name": "nina", "password": PASSWORD})
        c.cookies.clear()
        for _ in range(MAX_FAILURES):
            assert login(c, "nina", "wrong wrong").status_code == 401
        r = login(c, "NINA", PASSWORD)
        assert r.status_code == 429
        wait = int(r.headers["Retry-After"])
        assert 0 < wait <= FAILURE_WINDOW and r.json()["retry_after"] == wait
        assert f"try again in {wait} s" in r.json()["error"] and "'NINA'" in r.json()["error"]
        assert PASSWORD not in r.text and c.get("/api/account").json()["name"] is None
    # the failures leave the window: the right password logs in again (the rows are moved back in time)
    with store.engine.begin() as conn:
        conn.execute(login_failures_t.update().values(at=login_failures_t.c.at - FAILURE_WINDOW))
    with TestClient(app) as c:
        assert login(c, "nina", PASSWORD).status_code == 200


def test_five_failures_from_one_address_throttle_every_name(tmp_path: Path) -> None:
    _store, app = make(tmp_path)
    with TestClient(app) as c:
        c.post("/api/account/register", json={"name": "oscar", "password": PASSWORD})
        for i in range(MAX_FAILURES):
            assert login(c, f"nobody{i}", "wrong wrong").status_code == 401
        r = login(c, "oscar", PASSWORD)
        assert r.status_code == 429 and "from your address" in r.json()["error"]


def test_the_wait_is_until_the_oldest_counted_failure_leaves_the_window(tmp_path: Path) -> None:
    store, _app = make(tmp_path)
    accounts = AccountStore(store)
    now = time.time()
    with store.engine.begin() as conn:  # failures 10, 9, 8, 7 and 6 minutes ago
        conn.execute(login_failures_t.insert(), [{"key": "name:pat", "at": now - 60 * m} for m in (10, 9, 8, 7, 6)])
    with pytest.raises(Throttled) as e:
        accounts.throttle_wait("Pat", "1.2.3.4")
    assert abs(e.value.wait - 5 * 60) <= 2
    accounts.throttle_wait("someone else", "1.2.3.4")  # another name from another address: not throttled


def test_a_good_login_forgets_the_name_s_failures(tmp_path: Path) -> None:
    store, app = make(tmp_path)
    with TestClient(app) as c:
        c.post("/api/account/register", json={"name": "quinn", "password": PASSWORD})
        for _ in range(MAX_FAILURES - 1):
            login(c, "quinn", "wrong wrong")
        assert login(c, "quinn", PASSWORD).status_code == 200
    with store.engine.connect() as conn:
        keys = [r.key for r in conn.execute(sa.select(login_failures_t))]
    assert "name:quinn" not in keys and keys.count("addr:testclient") == MAX_FAILURES - 1
