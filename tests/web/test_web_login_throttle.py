"""The login throttle: 5 failed logins for a name from one address (an IPv6 /64) or 20 from an address within 15
minutes, then HTTP 429 with the time to wait (Retry-After and the message), kept in the database; a good login forgets
the name's failures. Others' wrong passwords for a name slow its owner by at most 30 s, and never on a browser that
logged in before: nobody can lock an account's owner out."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.web.accounts import (  # noqa: E402
    DEVICE_COOKIE,
    FAILURE_WINDOW,
    MAX_ADDRESS_FAILURES,
    MAX_FAILURES,
    NAME_DELAY,
    NAME_SIEGE,
    AccountStore,
    Throttled,
    client_network,
)
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
        assert r.json()["name"] == "NINA"  # the name quoted, for the page to quote in its language
        assert PASSWORD not in r.text and c.get("/api/account").json()["name"] is None
    # the failures leave the window: the right password logs in again (the rows are moved back in time)
    with store.engine.begin() as conn:
        conn.execute(login_failures_t.update().values(at=login_failures_t.c.at - FAILURE_WINDOW))
    with TestClient(app) as c:
        assert login(c, "nina", PASSWORD).status_code == 200


def test_twenty_failures_from_one_address_throttle_every_name(tmp_path: Path) -> None:
    _store, app = make(tmp_path)
    with TestClient(app) as c:
        c.post("/api/account/register", json={"name": "oscar", "password": PASSWORD})
        device = c.cookies.get(DEVICE_COOKIE)
        assert device
        c.cookies.clear()  # a browser never logged in to oscar
        for i in range(MAX_ADDRESS_FAILURES):
            assert login(c, f"nobody{i}", "wrong wrong").status_code == 401
        r = login(c, "oscar", PASSWORD)
        assert r.status_code == 429 and "from your address" in r.json()["error"]
        assert r.json()["name"] is None  # the address's failures at any names: no name throttled
        c.cookies.set(DEVICE_COOKIE, device, path="/api/account")  # the browser remembered for oscar: in at once
        assert login(c, "oscar", PASSWORD).status_code == 200


def test_the_wait_is_until_the_oldest_counted_failure_leaves_the_window(tmp_path: Path) -> None:
    store, _app = make(tmp_path)
    accounts = AccountStore(store)
    now = time.time()
    for m in (10, 9, 8, 7, 6):  # failures at "pat" from 1.2.3.4 10, 9, 8, 7 and 6 minutes ago
        with time_at(now - 60 * m):
            accounts._failed("pat", "1.2.3.4")
    with pytest.raises(Throttled) as e:
        accounts.throttle_wait("Pat", "1.2.3.4")
    assert abs(e.value.wait - 5 * 60) <= 2
    accounts.throttle_wait("someone else", "1.2.3.4")  # another name from that address: not throttled
    accounts.throttle_wait("Pat", "5.6.7.8")  # the name from an address that never failed: not throttled


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


class time_at:
    """``time.time()`` in the accounts module fixed at ``at`` while in the block (failures stored in the past)."""

    def __init__(self, at: float) -> None:
        self.at = at

    def __enter__(self) -> None:
        self.patch = pytest.MonkeyPatch()
        self.patch.setattr(time, "time", lambda: self.at)

    def __exit__(self, *exc: object) -> None:
        self.patch.undo()


def client(app: Any, addr: str) -> TestClient:
    """A browser at the client address ``addr``."""
    return TestClient(app, client=(addr, 50000))


def test_wrong_passwords_from_many_addresses_never_lock_the_owner_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _store, app = make(tmp_path)
    with client(app, "10.0.0.1") as owner:
        owner.post("/api/account/register", json={"name": "nina", "password": PASSWORD})
    with client(app, "10.9.9.1") as thief:
        for _ in range(MAX_FAILURES):
            assert login(thief, "nina", "wrong guess").status_code == 401
        r = login(thief, "nina", PASSWORD)  # the thief's address is stopped at the name, even with the right password
        assert r.status_code == 429 and "for the name 'nina' from your address" in r.json()["error"]
    for i in range(20):  # 20 more addresses, one wrong password each: 25 failures for "nina"
        with client(app, f"10.9.10.{i}") as thief:
            assert login(thief, "nina", "wrong guess").status_code == 401
            r = login(thief, "nina", "wrong again")  # the name slowed for an address that failed at it
            assert r.status_code == 429 and 0 < r.json()["retry_after"] <= NAME_DELAY
    with client(app, "10.0.0.2") as owner:  # a new browser at an address that never failed: in at once
        r = login(owner, "nina", PASSWORD)
        assert r.status_code == 200 and r.json()["name"] == "nina"
    assert PASSWORD not in caplog.text and "wrong guess" not in caplog.text


def test_a_name_under_siege_slows_new_browsers_briefly_but_never_a_remembered_one(tmp_path: Path) -> None:
    store, app = make(tmp_path)
    accounts = AccountStore(store)
    with client(app, "10.0.0.1") as home:
        home.post("/api/account/register", json={"name": "nina", "password": PASSWORD})
        device = home.cookies.get(DEVICE_COOKIE)
        assert device and PASSWORD not in device
        home.post("/api/account/logout", headers={"X-CSRF-Token": home.get("/api/account").json()["csrf"]})
        assert home.get("/api/account").json()["name"] is None and home.cookies.get(DEVICE_COOKIE) == device
    for i in range(NAME_SIEGE):  # a botnet: one failure from each of 50 addresses
        accounts._failed("nina", f"172.16.{i}.1")
    with client(app, "10.0.0.2") as cafe:  # a browser never logged in: a short wait, not a lockout
        r = login(cafe, "nina", PASSWORD)
        assert r.status_code == 429 and 0 < r.json()["retry_after"] <= NAME_DELAY
        assert "from many addresses in 30 seconds" in r.json()["error"]
    with store.engine.begin() as conn:  # the wait passes (the newest failure moved back NAME_DELAY)
        conn.execute(login_failures_t.update().values(at=login_failures_t.c.at - NAME_DELAY))
    with client(app, "10.0.0.2") as cafe:
        assert login(cafe, "nina", PASSWORD).status_code == 200
    for i in range(NAME_SIEGE):  # the siege goes on
        accounts._failed("nina", f"172.17.{i}.1")
    with client(app, "10.0.0.3") as home:  # the browser that logged in before: never slowed, also from another address
        home.cookies.set(DEVICE_COOKIE, device, path="/api/account")
        assert login(home, "nina", PASSWORD).status_code == 200
        assert {c.value for c in home.cookies.jar if c.name == DEVICE_COOKIE} == {device}  # the same browser, remembered anew
    for i in range(NAME_SIEGE):  # the siege goes on (a good login forgot the name's failures)
        accounts._failed("nina", f"172.18.{i}.1")
    with client(app, "10.0.0.4") as other:  # a remembered browser of another account is not this one's
        other.post("/api/account/register", json={"name": "oscar", "password": PASSWORD})
        assert login(other, "nina", PASSWORD).status_code == 429


def test_an_address_that_failed_at_a_slowed_name_waits_for_the_name(tmp_path: Path) -> None:
    store, _app = make(tmp_path)
    accounts = AccountStore(store)
    for i in range(4):
        accounts._failed("nina", f"172.16.{i}.1")
    accounts._failed("nina", "10.0.0.9")  # the fifth failure at the name, from this address
    with pytest.raises(Throttled) as e:
        accounts.throttle_wait("nina", "10.0.0.9")
    assert 0 < e.value.wait <= NAME_DELAY and e.value.name == "nina"
    accounts.throttle_wait("nina", "10.0.0.9", remembered=True)  # a remembered browser there: not slowed
    accounts.throttle_wait("nina", "10.0.0.10")  # an address that never failed at it: not slowed


def test_an_ipv6_slash_64_counts_as_one_address() -> None:
    assert client_network("2001:db8:1:2:aaaa::1") == client_network("2001:db8:1:2::ffff") == "2001:db8:1:2::/64"
    assert client_network("2001:db8:1:3::1") != client_network("2001:db8:1:2::1")
    assert client_network("::ffff:10.1.2.3") == client_network("10.1.2.3") == "10.1.2.3"
    assert client_network("testclient") == "testclient"


def test_failures_from_one_ipv6_slash_64_stop_its_other_addresses(tmp_path: Path) -> None:
    _store, app = make(tmp_path)
    with client(app, "2001:db8::1") as c:
        c.post("/api/account/register", json={"name": "nina", "password": PASSWORD})
    for i in range(MAX_FAILURES):
        with client(app, f"2001:db8::{i + 10:x}") as thief:
            assert login(thief, "nina", "wrong guess").status_code == 401
    with client(app, "2001:db8::ffff") as thief:
        assert login(thief, "nina", PASSWORD).status_code == 429
    with client(app, "2001:db8:0:1::1") as owner:  # another /64
        assert login(owner, "nina", PASSWORD).status_code == 200


def test_wrong_passwords_from_the_same_address_never_stop_a_browser_remembered_for_the_account(tmp_path: Path) -> None:
    _store, app = make(tmp_path)
    with client(app, "10.0.0.1") as home:  # browser A: registers, logs out, keeps its sm_device cookie
        assert home.post("/api/account/register", json={"name": "NatOwner", "password": PASSWORD}).status_code == 200
        home.post("/api/account/logout", headers={"X-CSRF-Token": home.get("/api/account").json()["csrf"]})
        device = home.cookies.get(DEVICE_COOKIE)
        assert device
    with client(app, "10.0.0.1") as other:  # another client behind the same address guesses
        for _ in range(MAX_FAILURES):
            assert login(other, "NatOwner", "wrong guess").status_code == 401
        assert login(other, "NatOwner", PASSWORD).status_code == 429  # that client waits, even with the right password
    with client(app, "10.0.0.1") as home:  # browser A: in at once
        home.cookies.set(DEVICE_COOKIE, device, path="/api/account")
        r = login(home, "NatOwner", PASSWORD)
        assert r.status_code == 200 and r.json()["name"] == "NatOwner"
        home.post("/api/account/logout", headers={"X-CSRF-Token": home.get("/api/account").json()["csrf"]})
        for _ in range(MAX_FAILURES):  # browser A's own wrong passwords still count, against it
            assert login(home, "NatOwner", "wrong guess").status_code == 401
        r = login(home, "NatOwner", PASSWORD)
        assert r.status_code == 429 and "on this browser" in r.json()["error"]
        assert 0 < r.json()["retry_after"] <= FAILURE_WINDOW
    with client(app, "10.0.0.1") as thief:  # a made-up sm_device cookie gains nothing: the address's block holds
        thief.cookies.set(DEVICE_COOKIE, "made-up", path="/api/account")
        r = login(thief, "NatOwner", PASSWORD)
        assert r.status_code == 429 and "from your address" in r.json()["error"]
        assert r.json()["name"] == "NatOwner"  # its failures at the name from that address
