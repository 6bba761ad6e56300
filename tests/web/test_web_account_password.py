"""Changing an account's password over HTTP: the new hash stored, every other session of the account ended and the
one making the change kept; refusals (wrong current password, a new one that does not fit, extra fields, no session,
no CSRF token) changing nothing; wrong current passwords throttled like failed logins; no password in a log line."""

from __future__ import annotations

import logging
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.web.accounts import MAX_FAILURES  # noqa: E402
from sergeant_major.web.store import Store, accounts_t, sessions_t  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")  # the server's own parameters: test_web_accounts.py

OLD, NEW = "correct horse 42", "battery staple 7"


def login(c: TestClient, name: str, password: str) -> Any:
    return c.post("/api/account/login", json={"name": name, "password": password})


def change(c: TestClient, csrf: str, body: dict[str, Any]) -> Any:
    return c.post("/api/account/password", json=body, headers={"X-CSRF-Token": csrf})


def stored(store: Store) -> tuple[str, int]:
    """The account's password hash and the number of sessions."""
    with store.engine.connect() as conn:
        h = conn.execute(sa.select(accounts_t.c.password_hash)).scalar_one()
        n = conn.execute(sa.select(sa.func.count()).select_from(sessions_t)).scalar_one()
    return str(h), int(n)


def test_a_change_stores_the_new_hash_ends_the_other_sessions_and_keeps_this_one(app: Any, store: Store) -> None:
    with TestClient(app) as me, TestClient(app) as phone, TestClient(app) as laptop:
        csrf = me.post("/api/account/register", json={"name": "quinn", "password": OLD}).json()["csrf"]
        assert login(phone, "quinn", OLD).status_code == 200 and login(laptop, "quinn", OLD).status_code == 200
        old_hash, _ = stored(store)
        r = change(me, csrf, {"current": OLD, "new": NEW})
        assert r.status_code == 200, r.text
        assert r.json() == {"name": "quinn", "csrf": csrf} and "sm_session" not in r.headers.get("set-cookie", "")
        new_hash, sessions = stored(store)
        assert new_hash != old_hash and new_hash.startswith("$argon2id$") and sessions == 1
        assert me.get("/api/account").json()["name"] == "quinn"  # the browser that changed it stays logged in
        for other in (phone, laptop):
            assert other.get("/api/account").json() == {"name": None, "csrf": None}
        assert login(phone, "quinn", OLD).status_code == 401
        assert login(phone, "quinn", NEW).status_code == 200


@pytest.mark.parametrize(("body", "status", "code", "quoted"), [
    ({"current": "not my password", "new": NEW}, 401, "current_password", "wrong"),
    ({"current": OLD, "new": "short"}, 400, "password", "5 characters"),
    ({"current": OLD, "new": "x" * 129}, 400, "password", "129 characters"),
    ({"current": OLD, "new": " " * 9}, 400, "password", "only spaces"),
    ({"current": OLD, "new": 12345678}, 400, "password", "int"),
    ({"current": 42, "new": NEW}, 400, "body", "int"),
    ({"current": OLD, "new": NEW, "name": "other"}, 400, "body", "'name'"),
    ({"new": NEW}, 400, "body", "current"),
])
def test_a_refused_change_says_why_and_changes_nothing(app: Any, store: Store, body: dict[str, Any], status: int, code: str,
                                                       quoted: str) -> None:
    with TestClient(app) as me, TestClient(app) as phone:
        csrf = me.post("/api/account/register", json={"name": "rosa", "password": OLD}).json()["csrf"]
        login(phone, "rosa", OLD)
        before = stored(store)
        r = change(me, csrf, body)
        assert r.status_code == status and r.json()["code"] == code and quoted in r.json()["error"], r.text
        for secret in (OLD, NEW, "not my password"):
            assert secret not in r.text  # a password is never sent back
        assert stored(store) == before and phone.get("/api/account").json()["name"] == "rosa"
        assert login(phone, "rosa", OLD).status_code == 200


def test_bad_json_and_a_body_that_is_not_an_object_are_refused(app: Any, store: Store) -> None:
    with TestClient(app) as me:
        csrf = me.post("/api/account/register", json={"name": "sven", "password": OLD}).json()["csrf"]
        before = stored(store)
        r = me.post("/api/account/password", content=b"{nope", headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "json"
        r = change(me, csrf, [OLD, NEW])  # type: ignore[arg-type]
        assert r.status_code == 400 and r.json()["code"] == "body"
        assert stored(store) == before


def test_a_change_needs_a_session_its_csrf_token_and_the_same_site(app: Any, store: Store) -> None:
    with TestClient(app) as me, TestClient(app) as guest:
        csrf = me.post("/api/account/register", json={"name": "tilda", "password": OLD}).json()["csrf"]
        before = stored(store)
        r = change(guest, csrf, {"current": OLD, "new": NEW})
        assert r.status_code == 401 and r.json()["code"] == "not_logged_in"
        r = change(me, "guess", {"current": OLD, "new": NEW})
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        r = me.post("/api/account/password", json={"current": OLD, "new": NEW},
                    headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        assert stored(store) == before


def test_wrong_current_passwords_are_throttled_like_failed_logins(app: Any, store: Store) -> None:
    with TestClient(app) as me:
        csrf = me.post("/api/account/register", json={"name": "ulla", "password": OLD}).json()["csrf"]
        for _ in range(MAX_FAILURES):
            assert change(me, csrf, {"current": "guess guess", "new": NEW}).status_code == 401
        before = stored(store)
        r = change(me, csrf, {"current": OLD, "new": NEW})  # even the right password: the throttle is read first
        assert r.status_code == 429 and r.json()["code"] == "throttled"
        wait = int(r.headers["Retry-After"])
        assert wait > 0 and r.json()["retry_after"] == wait and f"try again in {wait} s" in r.json()["error"]
        # said as it was: wrong passwords (of this form or the login's), not "failed logins"
        assert "Too many wrong passwords for the name 'ulla'" in r.json()["error"] and "failed logins" not in r.json()["error"]
        assert stored(store) == before and me.get("/api/account").json()["name"] == "ulla"
    with TestClient(app) as other:  # the failures count for the name as for a login: it is throttled too
        assert login(other, "ulla", OLD).status_code == 429


def test_a_change_logs_no_password_or_token(app: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with TestClient(app) as me:
        csrf = me.post("/api/account/register", json={"name": "vera", "password": OLD}).json()["csrf"]
        token = me.cookies.get("sm_session")
        change(me, csrf, {"current": "a wrong one!", "new": NEW})
        change(me, csrf, {"current": OLD, "new": NEW})
    text = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (OLD, NEW, "a wrong one!", token, csrf):
        assert secret and secret not in text
