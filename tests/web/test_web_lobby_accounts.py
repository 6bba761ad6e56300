"""The lobby with accounts: a logged-in player's quick play takes a seat bound to the account under its name, the lobby
shows its rating, and the match of two accounts and a computer from quick play is rated (openskill's update)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import httpx  # noqa: E402
from _webhelp import connect, play_out, send  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.ratings import COMPUTER_RATINGS, DEFAULT, MODEL, final_ranks  # noqa: E402
from sergeant_major.web.store import Store  # noqa: E402


def test_quick_play_of_two_accounts_is_bound_shown_with_ratings_and_rated(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")
    store.migrate()
    app = create_app(store=store)
    hub = app.state.hub

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        ann, ben, guest = (httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(3))
        for http, name in ((ann, "ann"), (ben, "ben")):
            r = await http.post("/api/account/register", json={"name": name, "password": "a good password"})
            assert r.status_code == 200, r.text
        form = {"name": "typed name", "rules": "9-5-2", "level": "heuristic", "wait": 120}
        a = (await ann.post("/api/lobby/quick", json=form)).json()
        lobby = (await guest.get("/api/lobby")).json()
        seats = next(t for t in lobby["tables"] if t["id"] == a["id"])["seats"]
        assert seats[0]["name"] == "ann"  # the account's name, not the one typed
        assert seats[0]["rating"] == {"rating": 25.0, "interval": 16.7, "matches": 0, "provisional": True}
        b = (await ben.post("/api/lobby/quick", json={**form, "wait": 0})).json()
        assert b["id"] == a["id"] and b["seat"] == 1
        for _ in range(500):  # ben's wait of 0 s: a computer takes the last seat at once, and the table leaves the lobby
            if a["id"] not in {t["id"] for t in (await guest.get("/api/lobby")).json()["tables"]}:
                break
            await asyncio.sleep(0.01)
        g = (await guest.post("/api/lobby/quick", json={**form, "name": "Gus"})).json()
        assert g["id"] != a["id"]  # full: the guest opens another table
        rows = store.table(a["id"])
        assert rows is not None
        accounts = [s.account for s in rows[1]]
        assert accounts[0] is not None and accounts[1] is not None and accounts[2] is None and rows[1][2].kind == "heuristic"
        conns = []
        for s, token in ((0, a["token"]), (1, b["token"])):
            c = connect(hub, a["id"])
            c.account = accounts[s]
            await send(hub, c, {"type": "join", "token": token})
            conns.append(c)
        await play_out(hub, conns)
        gt = hub.tables[a["id"]]
        ranks = final_ranks(gt.match)
        expected = MODEL.rate([[MODEL.create_rating([DEFAULT.mu, DEFAULT.sigma])],
                               [MODEL.create_rating([DEFAULT.mu, DEFAULT.sigma])],
                               [MODEL.create_rating(list(COMPUTER_RATINGS["9-5-2"]["heuristic"]))]], ranks=ranks)
        for name, seat in (("ann", 0), ("ben", 1)):
            got = (await guest.get(f"/api/players/{name}")).json()["ratings"]["9-5-2"]
            assert got["matches"] == 1
            assert abs(got["mu"] - expected[seat][0].mu) < 1e-3 and abs(got["sigma"] - expected[seat][0].sigma) < 1e-3
        for http in (ann, ben, guest):
            await http.aclose()

    asyncio.run(run())


def test_an_account_pressing_quick_play_or_join_again_gets_its_own_seat_back(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")
    store.migrate()
    app = create_app(store=store)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as ann:
            r = await ann.post("/api/account/register", json={"name": "ann", "password": "a good password"})
            assert r.status_code == 200, r.text
            form = {"name": "ann", "rules": "9-5-2", "wait": 120}
            first = (await ann.post("/api/lobby/quick", json=form)).json()
            again = (await ann.post("/api/lobby/quick", json=form)).json()
            joined = (await ann.post("/api/lobby/join", json={**form, "table": first["id"]})).json()
            assert again == {**first, "lobby_v": again["lobby_v"]} and joined["token"] == first["token"]
            seats = next(t for t in (await ann.get("/api/lobby")).json()["tables"] if t["id"] == first["id"])["seats"]
            assert [s["free"] for s in seats] == [False, True, True]  # not a second, unbound "ann 2" seat

    asyncio.run(run())


def test_the_lobby_says_whether_a_waiting_table_will_be_rated(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")
    store.migrate()
    app = create_app(store=store)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        ann, guest = (httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(2))
        assert (await ann.post("/api/account/register", json={"name": "ann", "password": "a good password"})).status_code == 200

        async def rated(tid: str) -> bool:
            return bool(next(t for t in (await guest.get("/api/lobby")).json()["tables"] if t["id"] == tid)["rated"])

        form = {"name": "x", "rules": "9-5-2", "wait": 120}
        a = (await ann.post("/api/lobby/quick", json=form)).json()
        assert await rated(a["id"])  # an account, and computers or accounts to come
        o = (await ann.post("/api/lobby/open", json={**form, "rules": "9-5-2 deals=1"})).json()
        assert not await rated(o["id"])  # an option changed: not a preset
        await guest.post("/api/lobby/join", json={**form, "name": "Gus", "table": a["id"]})
        assert not await rated(a["id"])  # a guest seated
        for http in (ann, guest):
            await http.aclose()

    asyncio.run(run())


def test_a_deleted_accounts_waiting_seat_is_nobodys_and_not_given_to_a_new_account(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")
    store.migrate()
    app = create_app(store=store)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        old, new, guest = (httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(3))
        account = {"name": "dan", "password": "a good password"}
        assert (await old.post("/api/account/register", json=account)).status_code == 200
        form = {"name": "x", "rules": "9-5-2", "wait": 120}
        first = (await old.post("/api/lobby/quick", json=form)).json()
        csrf = (await old.get("/api/account")).json()["csrf"]
        r = await old.post("/api/account/delete", json={"password": account["password"]}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        seat = next(t for t in (await guest.get("/api/lobby")).json()["tables"] if t["id"] == first["id"])["seats"][0]
        assert seat["name"] == "deleted player" and seat["rating"] is None
        assert (await new.post("/api/account/register", json=account)).status_code == 200  # the name is free again
        again = (await new.post("/api/lobby/quick", json=form)).json()
        assert again["token"] != first["token"] and again["seat"] == 1
        for http in (old, new, guest):
            await http.aclose()

    asyncio.run(run())
