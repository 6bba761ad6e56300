"""An account deleted while one of its browsers joins a seat: the seat never goes to the deleted account (nor to a new
account given its id). Each interleaving is forced by a hook patched in (no timing): the session read before the
deletion and given to the websocket after it; the deletion committed between the session's read and the seat's
binding (a table's join, the lobby's, a table created); on PostgreSQL, a binding while the deletion's transaction is open."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from _webhelp import make_hub, write_while_loading  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from sergeant_major.web.accounts import DELETED_NAME, AccountStore  # noqa: E402
from sergeant_major.web.app import create_table  # noqa: E402
from sergeant_major.web.store import Store, accounts_t, seats_t  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")

PASSWORD = "correct horse 42"
VS_COMPUTERS = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]


def use(c: TestClient, cookie: str | None) -> None:
    """Make ``c`` the browser of this session cookie (``None``: a new browser)."""
    c.cookies.clear()
    if cookie is not None:
        c.cookies.set("sm_session", cookie)


def register(c: TestClient, name: str) -> tuple[str, str]:
    """Register ``name`` on a new browser: its session cookie and CSRF token."""
    use(c, None)
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return str(c.cookies.get("sm_session")), str(r.json()["csrf"])


def bound(store: Store, table_id: str, seat: int) -> Any:
    with store.engine.connect() as conn:
        return conn.execute(sa.select(seats_t.c.account_id).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)).scalar()


def aid(store: Store, name: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(accounts_t.c.id).where(accounts_t.c.name == name)).scalar_one())


def answered(ws: Any) -> bool:
    """Whether ``ws`` still answers a ping (False: the server closed it as logged out)."""
    ws.send_text(json.dumps({"type": "ping"}))
    try:
        while json.loads(ws.receive_text())["type"] != "pong":
            pass
    except WebSocketDisconnect as e:
        assert e.code == 4401, e
        return False
    return True


@pytest.fixture
def olga_s_table(app: Any) -> Iterator[tuple[TestClient, dict[str, Any], str]]:
    """A client (Olga's browser), Olga's table (seat 1 invited) and its invitation's token."""
    with TestClient(app) as c:
        register(c, "olga")
        out = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS}).json()
        yield c, out, out["seats"][1]["invite"].split("#token=")[1]


def test_a_session_read_before_the_deletion_and_given_after_binds_nothing(app: Any, store: Store, olga_s_table: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure seen once under load: the websocket's session read (in a thread) before the account was deleted,
    its account set after the deletion had unbound the table's open websockets: its join bound the deleted account."""
    c, out, token = olga_s_table
    phone, csrf = register(c, "mia")
    use(c, None)
    assert c.post("/api/account/login", json={"name": "mia", "password": PASSWORD}).status_code == 200
    laptop = str(c.cookies.get("sm_session"))
    accounts: AccountStore = app.state.accounts
    read, go, calls = threading.Event(), threading.Event(), []
    real = accounts.session

    def paused(tok: str | None) -> Any:  # the first read (the laptop's websocket) waits, once read, for the deletion
        got = real(tok)
        calls.append(tok)
        if len(calls) == 1:
            read.set()
            assert go.wait(10)
        return got

    monkeypatch.setattr(accounts, "session", paused)
    use(c, laptop)
    with c.websocket_connect(f"/ws/{out['id']}") as ws:
        assert read.wait(10)  # the laptop's session is read (Mia's), not yet given to its websocket
        use(c, phone)
        assert c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf}).status_code == 200
        go.set()
        ws.send_text(json.dumps({"type": "join", "token": token}))
        assert not answered(ws)  # logged out: closed, the join not acted on
    assert bound(store, out["id"], 1) is None


@pytest.mark.parametrize("how", ["table", "lobby"])
def test_a_seat_bound_as_its_account_is_deleted_is_a_guest_s(app: Any, store: Store, olga_s_table: Any, how: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The deletion commits between the session's read and the seat's binding (:meth:`Store.bind_seat`)."""
    c, out, token = olga_s_table
    olga = str(c.cookies.get("sm_session"))
    form = {"name": "x", "rules": "9-5-2", "level": "heuristic", "wait": 120}
    opened = c.post("/api/lobby/open", json=form).json()  # Olga's waiting table in the lobby
    mia, _csrf = register(c, "mia")
    gone = aid(store, "mia")
    accounts: AccountStore = app.state.accounts
    real = store.bind_seat

    def late(table_id: str, seat: int, account_id: int) -> bool:
        accounts.delete(account_id, PASSWORD)
        return real(table_id, seat, account_id)

    monkeypatch.setattr(store, "bind_seat", late)
    use(c, mia)
    if how == "table":
        with c.websocket_connect(f"/ws/{out['id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            while json.loads(ws.receive_text())["type"] != "state":
                pass
            tid, seat = out["id"], 1
            assert app.state.hub.tables[tid].seats[seat].account is None  # as stored
    else:
        r = c.post("/api/lobby/join", json={**form, "table": opened["id"]})
        assert r.status_code == 200, r.text
        tid, seat = r.json()["id"], r.json()["seat"]
        assert olga and bound(store, tid, 0) == aid(store, "olga")  # Olga's seat is hers
    assert bound(store, tid, seat) is None and gone not in {bound(store, tid, s) for s in range(3)}


def test_a_table_created_as_its_account_is_deleted_is_a_guest_s(app: Any, store: Store, olga_s_table: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    c, _out, _token = olga_s_table
    register(c, "mia")
    accounts: AccountStore = app.state.accounts
    real = store.create_table
    gone = aid(store, "mia")

    def late(row: Any, seats: Any) -> None:
        accounts.delete(gone, PASSWORD)
        real(row, seats)

    monkeypatch.setattr(store, "create_table", late)
    r = c.post("/api/tables", json={"rules": "9-5-2", "seats": VS_COMPUTERS})
    assert r.status_code == 200, r.text
    assert bound(store, r.json()["id"], 0) is None


@pytest.mark.postgres
def test_on_postgresql_a_binding_waits_for_an_open_deletion_and_finds_the_account_gone() -> None:
    """The deletion's transaction has locked the account's row and renamed its seats when the binding runs: the
    binding waits for it (its share lock), then finds the account gone; it never binds the deleted id."""
    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (a PostgreSQL database for the tests)")
    from sergeant_major.web.app import create_table

    store = Store(url)
    store.migrate()
    try:
        accounts = AccountStore(store)
        t = create_table(store, {"rules": "9-5-2", "seats": VS_COMPUTERS})
        name = f"race{os.getpid()}"
        gone = accounts.register(name, PASSWORD)
        done: list[bool] = []
        with store.engine.connect() as conn, conn.begin():  # Store.delete's first steps, its transaction kept open
            conn.execute(sa.select(accounts_t.c.id).where(accounts_t.c.id == gone).with_for_update())
            conn.execute(seats_t.update().where(seats_t.c.account_id == gone).values(name=DELETED_NAME, account_id=None))
            binding = threading.Thread(target=lambda: done.append(store.bind_seat(t["id"], 1, gone)))
            binding.start()
            binding.join(0.5)  # (it waits for the lock; the test holds either way)
            conn.execute(accounts_t.delete().where(accounts_t.c.id == gone))
        binding.join(10)
        assert done == [False] and bound(store, t["id"], 1) is None
    finally:
        store.dispose()


def test_a_table_loading_as_its_player_s_account_is_deleted_shows_the_seat_renamed(tmp_path: Path) -> None:
    """The deletion renames the account's seats in the database while the table's first websocket loads it: a load that
    read the seats before the deletion and was installed after it kept the seat under the deleted account's name and
    bound to its id (a new account given that id would be rated for it). The load is held between its read and its
    install (:func:`write_while_loading`)."""

    async def run() -> None:
        hub = make_hub(tmp_path)
        accounts = AccountStore(hub.store)
        gone = accounts.register("mia", PASSWORD)
        out = create_table(hub.store, {"name": "Mia", "rules": "9-5-2", "seats": VS_COMPUTERS}, account=gone)
        tid = out["id"]

        async def delete() -> None:  # as POST /api/account/delete does
            deleted = await asyncio.to_thread(accounts.delete, gone, PASSWORD)
            assert deleted.tables == [tid]
            await hub.account_deleted(gone, deleted.tables)

        gt = await write_while_loading(hub, tid, delete)
        stored = hub.store.seats(tid)
        assert (gt.seats[0].name, gt.seats[0].account) == (DELETED_NAME, None) == (stored[0].name, stored[0].account)
        assert gt.match.names[0] == DELETED_NAME

    asyncio.run(run())
