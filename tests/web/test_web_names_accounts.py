"""A person's name is never an account's unless he is logged in as it, nor ``deleted player``: the lobby's forms, the
home page's seats and an invitation's first join refuse it, letter case aside, with code ``account_name`` quoting it
and nothing changed (the tester's repro: a guest sat as "alice_t" and was listed as the account, rating aside)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from _webhelp import connect, send  # noqa: E402

from sergeant_major.web.app import create_app, create_table  # noqa: E402
from sergeant_major.web.protocol import TableRefused  # noqa: E402
from sergeant_major.web.store import Store, accounts_t, seats_t  # noqa: E402

FORM = {"rules": "9-5-2", "level": "heuristic", "wait": 120}
PASSWORD = "a good password"
PEOPLE = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]


def _store(tmp_path: Path) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'names.sqlite3'}")
    store.migrate()
    return store


async def _register(http: httpx.AsyncClient, name: str) -> None:
    r = await http.post("/api/account/register", json={"name": name, "password": "a good password"})
    assert r.status_code == 200, r.text


@pytest.mark.usefixtures("fast_argon2")
def test_the_lobby_refuses_a_guest_an_accounts_name_or_the_deleted_ones(tmp_path: Path) -> None:
    store = _store(tmp_path)
    app = create_app(store=store)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with (httpx.AsyncClient(transport=transport, base_url="http://testserver") as alice,
                    httpx.AsyncClient(transport=transport, base_url="http://testserver") as guest):
            await _register(alice, "alice_t")
            for kind in ("open", "quick"):
                for name in ("alice_t", "ALICE_T ", "deleted player", "Deleted Player"):
                    r = await guest.post(f"/api/lobby/{kind}", json={**FORM, "name": name})
                    assert r.status_code == 400 and r.json()["code"] == "account_name", (kind, name, r.text)
                    assert repr(name[:60]) in r.json()["error"] and "nothing was changed" in r.json()["error"], r.json()
            assert (await guest.get("/api/lobby")).json()["tables"] == []  # nothing was opened
            # alice herself plays under her name; a guest under another one joins her table
            a = (await alice.post("/api/lobby/open", json={**FORM, "name": "alice_t"})).json()
            r = await guest.post("/api/lobby/join", json={**FORM, "name": "Alice_T", "table": a["id"]})
            assert r.status_code == 400 and r.json()["code"] == "account_name", r.text
            r = await guest.post("/api/lobby/join", json={**FORM, "name": "alice", "table": a["id"]})
            assert r.status_code == 200, r.text
            seats = next(t for t in (await guest.get("/api/lobby")).json()["tables"] if t["id"] == a["id"])["seats"]
            assert [s["name"] for s in seats[:2]] == ["alice_t", "alice"]

    asyncio.run(run())


@pytest.mark.usefixtures("fast_argon2")
def test_a_new_tables_seat_may_bear_an_accounts_name_only_as_its_logged_in_creators(tmp_path: Path) -> None:
    store = _store(tmp_path)
    app = create_app(store=store)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as alice:
            await _register(alice, "alice_t")
            r = await alice.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "Alice_t"},
                                                                                 {"kind": "friend"}, {"kind": "computer"}]})
            assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Alice_t", r.text

    asyncio.run(run())
    alice = store.account_named("alice_t")
    assert alice is not None
    for seats, seat in (([{"kind": "me", "name": "ALICE_T"}, {"kind": "friend"}, {"kind": "computer"}], 1),
                        ([{"kind": "me"}, {"kind": "friend", "name": "alice_t"}, {"kind": "computer"}], 2),
                        ([{"kind": "me", "name": "deleted player"}, {"kind": "friend"}, {"kind": "computer"}], 1)):
        with pytest.raises(TableRefused) as e:  # a guest's table, or the seat of a friend not logged in yet
            create_table(store, {"rules": "9-5-2", "seats": seats})
        assert e.value.code == "account_name" and e.value.seat == seat, (e.value.code, str(e.value))
        assert "no table was made" in str(e.value)
    # logged in as alice_t: a friend's seat still may not be hers, nor a second "me" seat (bound to no account)
    with pytest.raises(TableRefused) as e:
        create_table(store, {"rules": "9-5-2", "seats": [{"kind": "me", "name": "Me"}, {"kind": "me", "name": "alice_t"},
                                                         {"kind": "computer"}]}, alice, "alice_t")
    assert e.value.code == "account_name" and e.value.seat == 2
    # the computers may be named anything
    assert create_table(store, {"rules": "9-5-2", "seats": [{"kind": "me", "name": "Ann"}, {"kind": "computer", "name": "alice_t"},
                                                            {"kind": "computer"}]})["seats"][1]["name"] == "alice_t"


def test_an_invitations_first_join_under_an_accounts_name_is_refused_unless_logged_in_as_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    app = create_app(store=store)
    hub = app.state.hub
    with store.engine.begin() as c:  # an account, stored as the accounts store does (no password needed here)
        c.execute(accounts_t.insert().values(name="alice_t", name_key="alice_t", password_hash="x", created=0.0))
    alice = store.account_named("ALICE_T")
    assert alice is not None
    out = create_table(store, {"rules": "9-5-2", "seats": PEOPLE})
    token = out["seats"][1]["invite"].split("#token=")[1]

    async def run() -> list[dict[str, Any]]:
        said = []
        for name in ("Alice_T", "deleted player"):
            c = connect(hub, out["id"])
            await send(hub, c, {"type": "join", "token": token, "name": name})
            said.append(json.loads(c.ws.frames[-1]))
            assert c.seat is None
        c = connect(hub, out["id"])
        c.account = alice
        await send(hub, c, {"type": "join", "token": token, "name": "Alice_T"})
        assert c.seat == 1
        return said

    said = asyncio.run(run())
    assert [m["code"] for m in said] == ["account_name", "account_name"], said
    assert "'Alice_T'" in said[0]["reason"] and "nothing was changed" in said[0]["reason"], said
    seats = store.seats(out["id"])
    assert seats[1].name == "Alice_T" and seats[1].claimed


def test_a_join_whose_name_cannot_be_checked_takes_no_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The accounts unreadable (the database gone away): the invitation's seat is not taken under a name unchecked."""
    import sqlalchemy.exc

    store = _store(tmp_path)
    hub = create_app(store=store).state.hub
    out = create_table(store, {"rules": "9-5-2", "seats": PEOPLE})
    token = out["seats"][1]["invite"].split("#token=")[1]

    def gone(name: str) -> int | None:
        raise sqlalchemy.exc.OperationalError("SELECT", {}, Exception("gone"))

    monkeypatch.setattr(store, "account_named", gone)

    async def run() -> dict[str, Any]:
        c = connect(hub, out["id"])
        await send(hub, c, {"type": "join", "token": token, "name": "Bea"})
        assert c.seat is None
        return dict(json.loads(c.ws.frames[-1]))

    said = asyncio.run(run())
    assert said["code"] == "storage" and '"Bea"' in said["reason"] and "OperationalError" in said["reason"], said
    assert not store.seats(out["id"])[1].claimed


@pytest.mark.usefixtures("fast_argon2")
def test_a_guest_seat_under_a_name_an_account_takes_later_is_shown_as_the_guest_s(tmp_path: Path) -> None:
    """The repro: a guest sat as "Ann" (a table of his, a lobby table), then someone registered "ann": the table, the
    lobby and *My games* went on showing the guest as "Ann", as if the account played there. Now registering renames
    every seat of a guest under that name (letter case aside) "Ann (guest)": the loaded table's players are shown it at
    once, the lobby and the history too; a seat bound to an account, or of another name, keeps its name; and when the
    account itself takes such a seat (logged in, with its token: the guest was that person), it is "Ann" again."""
    from fastapi.testclient import TestClient

    store = _store(tmp_path)
    app = create_app(store=store)
    with TestClient(app) as c:  # one browser: a guest's, then logged in as zed, a guest again, then as ann
        made = c.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "Ann"},
                                                                      {"kind": "friend", "name": "Bo"}, {"kind": "computer"}]}).json()
        tid, token = made["id"], made["seats"][0]["token"]
        lobby = c.post("/api/lobby/quick", json={**FORM, "name": "ANN"}).json()
        assert c.post("/api/account/register", json={"name": "zed", "password": PASSWORD}).status_code == 200
        zed_t = c.post("/api/lobby/join", json={**FORM, "name": "zed", "table": lobby["id"]}).json()  # zed's seat, bound
        c.cookies.clear()
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            assert ws.receive_json()["table"]["seats"][0]["name"] == "Ann"
            r = c.post("/api/account/register", json={"name": "ann", "password": PASSWORD})
            assert r.status_code == 200 and r.json()["name"] == "ann"
            ws.send_text(json.dumps({"type": "chat", "id": "good_luck"}))  # answered: the test never waits for nothing
            st = ws.receive_json()  # shown at once to the guest at the table, before the chat's answer
            assert st["type"] == "state" and [s["name"] for s in st["table"]["seats"]][:2] == ["Ann (guest)", "Bo"], st
            said = ws.receive_json()
            assert said["type"] == "chat" and said["name"] == "Ann (guest)", said
        seats = next(t for t in c.get("/api/lobby").json()["tables"] if t["id"] == lobby["id"])["seats"]
        assert [s["name"] for s in seats][:2] == ["ANN (guest)", "zed"]
        c.cookies.clear()
        games = c.post("/api/history", json={"tokens": [token, lobby["token"], zed_t["token"]]}).json()["games"]
        assert {g["id"]: g["names"][0] for g in games} == {tid: "Ann (guest)", lobby["id"]: "ANN (guest)"}
        assert [s.name for s in store.seats(tid)][:2] == ["Ann (guest)", "Bo"]
        assert [s.name for s in store.seats(lobby["id"])][:2] == ["ANN (guest)", "zed"]
        # the account with the seat's token (the guest was Ann): the seat is hers, under her name again
        assert c.post("/api/account/login", json={"name": "ann", "password": PASSWORD}).status_code == 200
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            st = ws.receive_json()
            assert st["you"] == 0 and st["table"]["seats"][0]["name"] == "Ann", st
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(seats_t.c.name, seats_t.c.account_id).where(seats_t.c.table_id == tid, seats_t.c.seat == 0)).one()
    assert row.name == "Ann" and row.account_id == store.account_named("ann")


@pytest.mark.usefixtures("fast_argon2")
def test_marking_a_guest_seat_never_gives_it_another_seat_s_name(tmp_path: Path) -> None:
    """The repro: seats "Tessa" (me) and "Tessa (guest)" (a friend), then someone registered "Tessa": both seats read
    "Tessa (guest)". Now the mark is the first free one at the table, "Tessa (guest 2)"; the account taking the seat
    gets its name back from that form too."""
    from fastapi.testclient import TestClient

    store = _store(tmp_path)
    app = create_app(store=store)
    with TestClient(app) as c:
        made = c.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "Tessa"},
                                                                      {"kind": "friend", "name": "Tessa (guest)"},
                                                                      {"kind": "computer"}]}).json()
        tid, token = made["id"], made["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": token}))
            assert ws.receive_json()["table"]["seats"][0]["name"] == "Tessa"
            assert c.post("/api/account/register", json={"name": "Tessa", "password": PASSWORD}).status_code == 200
            ws.send_text(json.dumps({"type": "chat", "id": "good_luck"}))
            st = ws.receive_json()
            assert st["type"] == "state" and [s["name"] for s in st["table"]["seats"]][:2] == ["Tessa (guest 2)", "Tessa (guest)"], st
        assert [s.name for s in store.seats(tid)][:2] == ["Tessa (guest 2)", "Tessa (guest)"]
        with c.websocket_connect(f"/ws/{tid}") as ws:  # logged in as Tessa (registered in this browser), her seat's token
            ws.send_text(json.dumps({"type": "join", "token": token}))
            st = ws.receive_json()
            assert st["you"] == 0 and [s["name"] for s in st["table"]["seats"]][:2] == ["Tessa", "Tessa (guest)"], st
    assert [s.name for s in store.seats(tid)][:2] == ["Tessa", "Tessa (guest)"]


def test_a_guest_s_mark_keeps_the_name_within_the_seat_name_limit() -> None:
    """The repro: a guest's seat under a name registered later read "<name> (guest 2)": with a name of 40 characters, 50,
    over the limit of a seat's name (the pages' layout counts on it). Now the name part is cut with "..." (a stored name's ellipsis), the mark kept
    whole, the names at the table still unique; the cut base still leads back to the account's name."""
    from sergeant_major.web.store import SEAT_NAME_LIMIT, guest_base, guest_marks, guest_name

    long = "Maximiliane-Alexandra von Hohenzollern 4"
    assert len(long) == SEAT_NAME_LIMIT
    first = guest_name(long, {long.casefold()})
    assert first == "Maximiliane-Alexandra von Hoh... (guest)" and len(first) == SEAT_NAME_LIMIT
    second = guest_name(long, {long.casefold(), first.casefold()})
    assert second.endswith("... (guest 2)") and len(second) <= SEAT_NAME_LIMIT and second != first
    assert guest_name("Ann", {"ann"}) == "Ann (guest)" and guest_name("Ann", {"ann (guest)"}) == "Ann (guest 2)"
    for marked in (first, second):
        base = guest_base(marked)
        assert base is not None and guest_marks(base, long.casefold()) and not guest_marks(base, "maximiliane")
    assert guest_marks("ANN", "ann") and not guest_marks("Ann", "anna") and not guest_marks("...", "ann")
