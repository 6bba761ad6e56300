"""Accounts over HTTP: register, log in and out, delete; the session cookie, cross-site refusals, bad forms quoted and
changing nothing, seats bound to the account and its history on another device; secrets never in a response or a log."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from sergeant_major.web.accounts import DELETED_NAME  # noqa: E402
from sergeant_major.web.store import Store, accounts_t, seats_t, sessions_t  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")  # cheap Argon2 parameters; the server's own: the first test

PASSWORD = "correct horse 42"
VS_COMPUTERS = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]


def client(app: Any, https: bool = False) -> TestClient:
    return TestClient(app, base_url="https://testserver" if https else "http://testserver")


def register(c: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def count(store: Store, table: sa.Table) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def test_the_server_hashes_with_argon2id_s_recommended_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the server's own hasher, not the tests' cheap one
    from sergeant_major.web import accounts

    h = accounts.HASHER.hash(PASSWORD)
    assert h.startswith("$argon2id$v=19$m=65536,t=3,p=4$") and accounts.HASHER.verify(PASSWORD, h)


def test_register_logs_in_with_a_strict_cookie_and_a_hashed_password(app: Any, store: Store) -> None:
    with client(app) as c:
        out = register(c, "Alice")
        assert out["name"] == "Alice" and len(out["csrf"]) > 20
        cookie = c.cookies.get("sm_session")
        assert cookie
        r = c.post("/api/account/login", json={"name": "alice", "password": PASSWORD})
        header = r.headers["set-cookie"]
        assert "HttpOnly" in header and "SameSite=lax" in header and "Path=/" in header and "Secure" not in header
        assert c.get("/api/account").json()["name"] == "Alice"
        cookie = c.cookies.get("sm_session")
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(accounts_t)).one()
        assert row.password_hash.startswith("$argon2id$") and PASSWORD not in row.password_hash
        hashes = [r.token_hash for r in conn.execute(sa.select(sessions_t))]
    assert hashes == [hashlib.sha256(cookie.encode()).hexdigest()]  # only the token's SHA-256 is stored


def test_the_cookie_is_secure_over_https_and_behind_a_proxy_that_says_so(app: Any) -> None:
    with client(app, https=True) as c:
        r = c.post("/api/account/register", json={"name": "bob", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"]
    with client(app) as c:
        r = c.post("/api/account/login", json={"name": "bob", "password": PASSWORD}, headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]


@pytest.mark.parametrize(("body", "code", "quoted"), [
    ({"name": "a b", "password": PASSWORD}, "name", "'a b'"),
    ({"name": "x", "password": PASSWORD}, "name", "'x'"),
    ({"name": "<script>", "password": PASSWORD}, "name", "'<script>'"),
    ({"name": "carol", "password": "short"}, "password", "5 characters"),
    ({"name": "carol", "password": "x" * 129}, "password", "129 characters"),
    ({"name": "carol", "password": 12345678}, "password", "the password must be text, not an integer"),
    ({"name": ["carol"], "password": PASSWORD}, "name", "the user name must be text, not a list ([\"carol\"])"),
    ({"name": "carol", "password": PASSWORD, "admin": True}, "body", "'admin'"),
    ({"name": "carol"}, "body", "password"),
])
def test_a_bad_registration_is_refused_quoting_it_and_nothing_is_stored(app: Any, store: Store, body: dict[str, Any],
                                                                         code: str, quoted: str) -> None:
    with client(app) as c:
        r = c.post("/api/account/register", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["code"] == code and quoted in r.json()["error"]
        assert "sm_session" not in r.headers.get("set-cookie", "")
        if isinstance(body.get("password"), str) and len(body["password"]) > 3:
            assert body["password"] not in r.text  # a password is never sent back
    assert count(store, accounts_t) == 0


def test_a_name_is_taken_letter_case_aside_and_bad_json_is_quoted(app: Any, store: Store) -> None:
    with client(app) as c:
        register(c, "Dora")
        r = c.post("/api/account/register", json={"name": "DORA", "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] == "name_taken" and "'DORA'" in r.json()["error"]
        r = c.post("/api/account/register", content=b"{not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "json"
        r = c.post("/api/account/register", json=[1, 2])
        assert r.status_code == 400 and "[1, 2]" in r.json()["error"]
    assert count(store, accounts_t) == 1


def test_a_wrong_login_says_the_same_for_an_unknown_name_and_a_wrong_password(app: Any) -> None:
    with client(app) as c:
        register(c, "erin")
        c.cookies.clear()
        wrong = c.post("/api/account/login", json={"name": "erin", "password": "not the password"})
        unknown = c.post("/api/account/login", json={"name": "nobody", "password": "not the password"})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json()["error"].replace("'erin'", "N") == unknown.json()["error"].replace("'nobody'", "N")
        assert "not the password" not in wrong.text
        assert c.get("/api/account").json() == {"name": None, "csrf": None}


def test_logout_and_delete_need_the_session_and_its_csrf_token(app: Any, store: Store) -> None:
    with client(app) as c:
        me = register(c, "frank")
        r = c.post("/api/account/logout")
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": "guess"})
        assert r.status_code == 403
        assert c.get("/api/account").json()["name"] == "frank" and count(store, accounts_t) == 1
        r = c.post("/api/account/logout", headers={"X-CSRF-Token": me["csrf"]})
        assert r.status_code == 200 and c.get("/api/account").json()["name"] is None
        assert count(store, sessions_t) == 0
        r = c.post("/api/account/logout", headers={"X-CSRF-Token": me["csrf"]})
        assert r.status_code == 401 and r.json()["code"] == "not_logged_in"


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"}])
def test_cross_site_posts_are_refused_and_change_nothing(app: Any, store: Store, headers: dict[str, str]) -> None:
    with client(app) as c:
        r = c.post("/api/account/register", json={"name": "gina", "password": PASSWORD}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        assert count(store, accounts_t) == 0
        me = register(c, "gina")
        for path in ("/api/account/logout", "/api/account/login"):
            r = c.post(path, json={"name": "gina", "password": PASSWORD}, headers={**headers, "X-CSRF-Token": me["csrf"]})
            assert r.status_code == 403, path
        assert c.get("/api/account").json()["name"] == "gina"
        # a table made cross-site is a guest's: not bound to the account
        r = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}, headers=headers)
        assert r.status_code == 200
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(seats_t.c.account_id).where(seats_t.c.table_id == r.json()["id"], seats_t.c.seat == 0)).scalar() is None


def test_same_origin_posts_pass(app: Any) -> None:
    with client(app) as c:
        r = c.post("/api/account/register", json={"name": "hank", "password": PASSWORD},
                   headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 200


def test_a_logged_in_creator_s_seat_and_history_follow_the_account_to_another_device(app: Any, store: Store) -> None:
    with client(app) as phone, client(app) as laptop:
        register(phone, "ivy")
        r = phone.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS})
        tid, token = r.json()["id"], r.json()["seats"][0]["token"]
        with store.engine.connect() as conn:
            bound = dict(conn.execute(sa.select(seats_t.c.seat, seats_t.c.account_id).where(seats_t.c.table_id == tid)).all())
        assert bound[0] is not None and bound[1] is None and bound[2] is None
        # the laptop has no token in its storage: logged in, its history lists the table with the seat's token
        assert laptop.post("/api/history", json={"tokens": []}).json()["games"] == []
        laptop.post("/api/account/login", json={"name": "ivy", "password": PASSWORD})
        games = laptop.post("/api/history", json={"tokens": []}).json()["games"]
        assert [(g["id"], g["seat"], g["token"]) for g in games] == [(tid, 0, token)]
        # the same in both (the phone also sends its token: listed once)
        assert phone.post("/api/history", json={"tokens": [token]}).json()["games"] == games


def test_a_logged_in_creator_s_unnamed_seat_takes_the_account_s_name(app: Any) -> None:
    # the others at the table, the replay and the public player's page show this name: not "Me", as in the lobby
    with client(app) as c:
        register(c, "nina")
        seats = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()["seats"]
        assert [s["name"] for s in seats] == ["nina", "Friend 1", "Heuristic 3"]
        named = [{"kind": "me", "name": "Nin"}] + VS_COMPUTERS[1:]
        assert c.post("/api/tables", json={"rules": "9-5-2", "seats": named}).json()["seats"][0]["name"] == "Nin"
        two = [{"kind": "me"}, {"kind": "me"}, {"kind": "computer"}]
        assert [s["name"] for s in c.post("/api/tables", json={"rules": "9-5-2", "seats": two}).json()["seats"]][:2] == \
            ["nina", "Me 2"]
    with client(app) as guest:
        assert guest.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()["seats"][0]["name"] == "Me"


def test_a_friend_logged_in_who_joins_gets_the_seat_bound(app: Any, store: Store) -> None:
    with client(app) as host, client(app) as friend:
        register(host, "jack")
        register(friend, "kate")
        out = host.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()
        token = out["seats"][1]["invite"].split("#token=")[1]
        with friend.websocket_connect(f"/ws/{out['id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            while json.loads(ws.receive_text())["type"] != "state":
                pass
        games = friend.post("/api/history", json={"tokens": []}).json()["games"]
        assert [(g["id"], g["seat"]) for g in games] == [(out["id"], 1)]


def test_deleting_an_account_removes_its_data_and_renames_its_seats(app: Any, store: Store) -> None:
    with client(app) as c:
        me = register(c, "liam")
        tid = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()["id"]
        r = c.post("/api/account/delete", json={"password": "wrong password"}, headers={"X-CSRF-Token": me["csrf"]})
        assert r.status_code == 401 and count(store, accounts_t) == 1 and "wrong password" not in r.text
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": me["csrf"]})
        assert r.status_code == 200 and r.json() == {"name": None, "csrf": None}
        assert count(store, accounts_t) == 0 and count(store, sessions_t) == 0
        with store.engine.connect() as conn:
            row = conn.execute(sa.select(seats_t).where(seats_t.c.table_id == tid, seats_t.c.seat == 0)).one()
        assert row.name == DELETED_NAME and row.account_id is None
        assert c.get("/api/players/liam").status_code == 404
        assert c.get("/players/liam").status_code == 404
        # the name is free again
        register(c, "liam")


def test_the_leaderboard_page_of_an_unknown_preset_is_404(app: Any) -> None:
    """The repro: ``/leaderboard?preset=bogus`` answered HTTP 200 while ``/players/nobody`` answered 404. Now 404 too
    (the page still says the preset is unknown and offers the presets); 200 with no preset or a rated one."""
    with client(app) as c:
        for path in ("/leaderboard?preset=bogus", "/leaderboard?preset=", "/leaderboard?preset=9-5-2%20to=5"):
            r = c.get(path)
            assert r.status_code == 404 and "no-preset" in r.text, path
        for path in ("/leaderboard", "/leaderboard?preset=9-5-2", "/leaderboard?preset=3-5-8"):
            assert c.get(path).status_code == 200, path


def _account_id(store: Store, name: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(accounts_t.c.id).where(accounts_t.c.name == name)).scalar_one())


def test_a_deleted_account_s_id_and_seats_go_to_no_new_account(app: Any, store: Store) -> None:
    """SQLite gives a new row the largest id plus one unless the table is AUTOINCREMENT: the newest account deleted, the
    next one registered would get its id, and whatever still held that id (a browser of the deleted account with a table
    open, binding the seat it joins) would be the new person's: history, ratings. That browser's websocket is closed as
    logged out at once (code 4401); opened again with its stale cookie, it joins as a guest.

    One client (one event loop, as in the server) plays the three browsers, each with its own session cookie."""
    def use(c: TestClient, cookie: str | None) -> None:
        c.cookies.clear()
        if cookie is not None:
            c.cookies.set("sm_session", cookie)

    with client(app) as c:
        register(c, "olga")
        out = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()
        token = out["seats"][1]["invite"].split("#token=")[1]
        use(c, None)
        me = register(c, "mia")
        phone = c.cookies.get("sm_session")
        mia = _account_id(store, "mia")
        use(c, None)
        assert c.post("/api/account/login", json={"name": "mia", "password": PASSWORD}).status_code == 200
        laptop = c.cookies.get("sm_session")
        with c.websocket_connect(f"/ws/{out['id']}") as ws:  # Mia's laptop has Olga's table open, logged in
            use(c, phone)
            r = c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": me["csrf"]})
            assert r.status_code == 200
            use(c, None)
            register(c, "noah")
            noah = c.cookies.get("sm_session")
            assert _account_id(store, "noah") != mia  # the newest account's id was given again before
            ws.send_text(json.dumps({"type": "join", "token": token}))  # then the laptop takes the invitation: not acted on
            with pytest.raises(WebSocketDisconnect) as e:
                while True:
                    ws.receive_text()
            assert e.value.code == 4401
        use(c, laptop)
        with c.websocket_connect(f"/ws/{out['id']}") as ws:  # the page opened again: a guest's
            ws.send_text(json.dumps({"type": "join", "token": token}))
            while json.loads(ws.receive_text())["type"] != "state":
                pass
        use(c, noah)
        assert c.post("/api/history", json={"tokens": []}).json()["games"] == []  # not Noah's table
        with store.engine.connect() as conn:
            bound = conn.execute(sa.select(seats_t.c.account_id).where(seats_t.c.table_id == out["id"], seats_t.c.seat == 1)).scalar()
        assert bound is None  # nor bound to the deleted account: a guest's seat


def test_no_password_or_token_reaches_a_log_line(app: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with client(app) as c:
        me = register(c, "mona")
        token = c.cookies.get("sm_session")
        c.post("/api/account/login", json={"name": "mona", "password": "a wrong one!"})
        c.post("/api/account/logout", headers={"X-CSRF-Token": me["csrf"]})
    text = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (PASSWORD, "a wrong one!", token, me["csrf"]):
        assert secret and secret not in text


def test_logging_in_again_ends_the_browser_s_previous_session(app: Any, store: Store) -> None:
    with client(app) as c:
        register(c, "nora")
        first = c.cookies.get("sm_session")
        register(c, "otto")
        assert c.get("/api/account").json()["name"] == "otto" and c.cookies.get("sm_session") != first
        assert count(store, sessions_t) == 1
        c.post("/api/account/login", json={"name": "nora", "password": PASSWORD})
        assert c.get("/api/account").json()["name"] == "nora" and count(store, sessions_t) == 1


@pytest.mark.parametrize(("body", "quoted"), [({"name": 42, "password": PASSWORD}, "the user name must be text, not an integer (42)"),
                                              ({"name": 4.5, "password": PASSWORD}, "the user name must be text, not a number (4.5)"),
                                              ({"name": None, "password": PASSWORD}, "the user name must be text, not null"),
                                              ({"name": True, "password": PASSWORD}, "the user name must be text, not a boolean (true)"),
                                              ({"name": "pia", "password": ["x"]}, "the password must be text, not a list"),
                                              ({"name": "pia", "password": 12345678}, "the password must be text, not an integer")])
def test_a_login_that_is_not_texts_is_refused_quoting_it(app: Any, body: dict[str, Any], quoted: str) -> None:
    with client(app) as c:
        r = c.post("/api/account/login", json=body)
        assert r.status_code == 400 and r.json()["code"] == "body" and quoted in r.json()["error"]
        assert "12345678" not in r.text  # a password is never quoted, not even one that is not text


def test_an_account_registered_before_names_were_normalised_still_logs_in(app: Any, store: Store) -> None:
    """The repro: an account stored as typed before names were normalised (fullwidth ``Ｒｏｓａ``) could no longer log in,
    since the login looked up the name normalised (``Rosa``). Now the name typed exactly finds it; a newer account under
    the normalised name keeps its own login."""
    from sergeant_major.web import accounts as accounts_mod

    legacy = "Ｒｏｓａ"
    with store.engine.begin() as conn:
        conn.execute(accounts_t.insert().values(name=legacy, name_key=legacy.casefold(), created=0.0,
                                                password_hash=accounts_mod.HASHER.hash("legacy password")))
    with client(app) as c:
        r = c.post("/api/account/login", json={"name": legacy, "password": "legacy password"})
        assert r.status_code == 200, r.text
        assert r.json()["name"] == legacy and c.get("/api/account").json()["name"] == legacy
    with client(app) as c:
        register(c, "Rosa")  # the normalised name is free: its own account, its own password
        c.cookies.clear()
        assert c.post("/api/account/login", json={"name": "rosa", "password": PASSWORD}).json()["name"] == "Rosa"
        c.cookies.clear()
        assert c.post("/api/account/login", json={"name": legacy, "password": "legacy password"}).json()["name"] == legacy
        c.cookies.clear()
        r = c.post("/api/account/login", json={"name": "rosa", "password": "legacy password"})
        assert r.status_code == 401 and r.json()["code"] == "login"
