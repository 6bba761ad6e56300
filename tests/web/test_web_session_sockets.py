"""The open websockets of a login session end with it: a password change closes the other devices' table and lobby
websockets, a logout this browser's, an account deleted all of its; closed with code 4401 ("logged out"), and a message
sent as the session ended is not acted on (no chat, no card). The browser that changed the password keeps its own.

The "devices" share one TestClient (one event loop, as in the server) with their own session cookies swapped in."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from sergeant_major.web.session_sockets import LOGGED_OUT  # noqa: E402
from sergeant_major.web.store import sessions_t  # noqa: E402

pytestmark = pytest.mark.usefixtures("fast_argon2")

OLD, NEW = "correct horse 42", "battery staple 7"
ME_FRIEND_COMPUTER = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "heuristic"}]


class Device:
    """One browser's session cookie and CSRF token, on the shared client."""

    def __init__(self, c: TestClient, name: str, register: bool = False) -> None:
        c.cookies.clear()  # a fresh browser: logging in does not end another device's session
        r = c.post(f"/api/account/{'register' if register else 'login'}", json={"name": name, "password": OLD})
        assert r.status_code == 200, r.text
        self.c, self.csrf, self.cookie = c, str(r.json()["csrf"]), str(c.cookies.get("sm_session"))

    @contextmanager
    def used(self) -> Iterator[TestClient]:
        self.c.cookies.clear()
        self.c.cookies.set("sm_session", self.cookie)
        yield self.c

    def post(self, path: str, body: dict[str, Any]) -> Any:
        with self.used() as c:
            return c.post(path, json=body, headers={"X-CSRF-Token": self.csrf})


def closed_as_logged_out(ws: Any) -> bool:
    """Whether the server closed ``ws`` with the logged-out code (the messages before the close skipped), not answering a
    ping sent after."""
    try:
        ws.send_text(json.dumps({"type": "ping"}))
        while json.loads(ws.receive_text())["type"] != "pong":
            pass
        return False
    except WebSocketDisconnect as e:
        return e.code == LOGGED_OUT and "logged out" in (e.reason or "")


def ping(ws: Any) -> list[dict[str, Any]]:
    """The messages ``ws`` gets up to the answer of a ping (the pong left out)."""
    ws.send_text(json.dumps({"type": "ping"}))
    out = []
    while (m := json.loads(ws.receive_text()))["type"] != "pong":
        out.append(m)
    return out


def table(dev: Device) -> dict[str, Any]:
    r = dev.post("/api/tables", {"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def join(ws: Any, token: str) -> None:
    ws.send_text(json.dumps({"type": "join", "token": token}))
    while json.loads(ws.receive_text())["type"] != "state":
        pass


def gone(app: Any, table_id: str, n: int) -> None:
    """Wait until the table has ``n`` clients left (a closed websocket's handler has ended)."""
    for _ in range(200):
        if len(app.state.hub.clients.of(table_id)) == n:
            return
        time.sleep(0.01)
    raise AssertionError(f"the table still has {len(app.state.hub.clients.of(table_id))} clients, not {n}")


def test_a_password_change_logs_the_other_devices_tables_and_lobby_out_at_once(app: Any) -> None:
    with TestClient(app) as c, ExitStack() as stack:
        me = Device(c, "quinn", register=True)
        laptop = Device(c, "quinn")
        out = table(me)
        with laptop.used():
            t_ws = stack.enter_context(c.websocket_connect(f"/ws/{out['id']}"))
            lobby_ws = stack.enter_context(c.websocket_connect("/ws/lobby"))
        with me.used():
            mine = stack.enter_context(c.websocket_connect(f"/ws/{out['id']}"))
        join(t_ws, out["seats"][0]["token"])  # the laptop plays the account's seat
        join(mine, out["seats"][1]["invite"].split("#token=")[1])
        r = me.post("/api/account/password", {"current": OLD, "new": NEW})
        assert r.status_code == 200, r.text
        t_ws.send_text(json.dumps({"type": "chat", "id": "good_luck"}))  # sent as the session ended: not acted on
        assert closed_as_logged_out(t_ws) and closed_as_logged_out(lobby_ws)
        gone(app, out["id"], 1)
        assert all(m["type"] != "chat" for m in ping(mine))  # this browser's websocket stays, and saw no chat


def test_logging_out_closes_this_browser_s_websockets_and_no_other_s(app: Any) -> None:
    with TestClient(app) as c, ExitStack() as stack:
        me = Device(c, "rosa", register=True)
        phone = Device(c, "rosa")
        out = table(me)
        with me.used():
            mine = stack.enter_context(c.websocket_connect(f"/ws/{out['id']}"))
        with phone.used():
            theirs = stack.enter_context(c.websocket_connect(f"/ws/{out['id']}"))
            guest_cookie = stack.enter_context(c.websocket_connect("/ws/lobby"))
        join(mine, out["seats"][0]["token"])
        assert me.post("/api/account/logout", {}).status_code == 200
        assert closed_as_logged_out(mine)
        ping(theirs)
        ping(guest_cookie)  # the phone's session goes on


def test_deleting_the_account_closes_its_websockets(app: Any) -> None:
    with TestClient(app) as c, ExitStack() as stack:
        me = Device(c, "sven", register=True)
        phone = Device(c, "sven")
        out = table(me)
        with phone.used():
            theirs = stack.enter_context(c.websocket_connect(f"/ws/{out['id']}"))
        join(theirs, out["seats"][0]["token"])
        assert me.post("/api/account/delete", {"password": OLD}).status_code == 200
        assert closed_as_logged_out(theirs)


def test_a_stale_cookie_s_websocket_is_a_guest_s_and_stays_open(app: Any) -> None:
    with TestClient(app) as c:
        me = Device(c, "tara", register=True)
        out = table(me)
        c.cookies.clear()
        c.cookies.set("sm_session", "no such session")
        with c.websocket_connect(f"/ws/{out['id']}") as ws:
            join(ws, out["seats"][1]["invite"].split("#token=")[1])
            assert app.state.sockets.by_session == {}  # nothing to end: never closed as logged out
            ping(ws)


def test_a_session_ended_by_another_process_closes_its_websockets_at_the_next_check(store: Any) -> None:
    from sergeant_major.web.app import create_app

    app = create_app(store=store, check_every=0.05)  # the sessions still stored are read at each check
    with TestClient(app) as c, ExitStack() as stack:
        me = Device(c, "ugo", register=True)
        with me.used():
            ws = stack.enter_context(c.websocket_connect("/ws/lobby"))
        ping(ws)  # its session was read and found
        with store.engine.begin() as conn:  # as another process sharing the database does at a logout
            conn.execute(sa.delete(sessions_t))
        for _ in range(100):  # the next check closes it (not timed: waited for, up to 5 s)
            if closed_as_logged_out(ws):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the websocket was not closed as logged out")
