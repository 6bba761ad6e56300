"""The lobby: opening a public table, joining it, quick play, computers filling the free seats, the live list
(``/ws/lobby``), and every bad form refused with a quote of it and nothing changed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import FakeWS, connect, make_hub, new_table, send, write_while_loading  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.lobby import Lobby, lobby_request  # noqa: E402
from sergeant_major.web.protocol import TableRefused  # noqa: E402
from sergeant_major.web.store import seats_t  # noqa: E402


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}"))


def test_quick_play_seats_two_people_at_one_table_and_computers_fill_the_rest(tmp_path: Path) -> None:
    with _client(tmp_path) as cl, cl.websocket_connect("/ws/lobby") as lw:
        assert json.loads(lw.receive_text())["tables"] == []
        a = cl.post("/api/lobby/quick", json={"name": "Ann", "rules": "9-5-2", "wait": 60, "level": "random"}).json()
        m = json.loads(lw.receive_text())
        assert m["v"] == a["lobby_v"] and [t["id"] for t in m["tables"]] == [a["id"]]
        listed = m["tables"][0]
        assert listed["free"] == 2 and listed["seats"][0] == {"seat": 0, "name": "Ann", "free": False, "rating": None}
        assert "token" not in json.dumps(m) and a["token"] not in json.dumps(m)
        b = cl.post("/api/lobby/quick", json={"name": "ann", "rules": "9-5-2", "wait": 0}).json()
        assert b["id"] == a["id"] and b["seat"] == 1 and b["token"] != a["token"]
        # Bea chose "at once": the computer (the opener's level) takes the last seat and the table leaves the lobby
        while True:
            m = json.loads(lw.receive_text())
            if not m["tables"]:
                break
        with cl.websocket_connect(f"/ws/{a['id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": b["token"]}))
            st = json.loads(ws.receive_text())
        seats = st["table"]["seats"]
        assert [s["name"] for s in seats] == ["Ann", "ann 2", "Random 3"] and [s["kind"] for s in seats] == ["human", "human", "random"]
        assert st["you"] == 1 and st["table"]["public"] is True
        # another quick play of the preset opens a table of its own
        c = cl.post("/api/lobby/quick", json={"name": "Cy", "rules": "9-5-2"}).json()
        assert c["id"] != a["id"] and c["seat"] == 0


def _seats(cl: TestClient, tid: str) -> list[dict[str, Any]]:
    with cl.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_text(json.dumps({"type": "join", "token": None}))
        out: list[dict[str, Any]] = json.loads(ws.receive_text())["table"]["seats"]
        return out


def test_the_computers_names_come_from_their_level_in_every_page_s_language(tmp_path: Path) -> None:
    """The repro: the German lobby's computers were named "Zufall 3" from the names its form sent, kept in memory only:
    after a restart (or filled by another process) they were "Random 3". Now every computer that fills a lobby table is
    stored under the server's name (``Random 3``) and marked with its level (``name_level``), which each page writes in
    its language, whoever filled the seats and when; a person's name is never marked."""
    de = {"random": "Zufall", "heuristic": "Heuristik"}
    with _client(tmp_path) as cl:
        a = cl.post("/api/lobby/quick", json={"name": "Ann", "rules": "9-5-2", "wait": 60, "level": "random"}).json()
        b = cl.post("/api/lobby/quick", json={"name": "Jörg", "rules": "9-5-2", "wait": 0, "level_names": de}).json()
        assert b["id"] == a["id"]
        seats = _seats(cl, a["id"])
        assert [(s["name"], s["name_level"]) for s in seats] == [("Ann", None), ("Jörg", None), ("Random 3", "random")]
        d = cl.post("/api/lobby/open", json={"name": "Ann", "rules": "9-2-5", "wait": 120, "level": "heuristic",
                                             "level_names": de}).json()
        with cl.app.state.hub.store.engine.begin() as conn:  # a person named as a computer is, before such names were refused
            conn.execute(seats_t.update().where(seats_t.c.table_id == d["id"], seats_t.c.seat == 0).values(name="Heuristic 2"))
    with _client(tmp_path) as cl:  # a restart: the German form's names are gone, the table waits on (read from the database)
        assert cl.get("/api/lobby").json()["tables"][0]["id"] == d["id"]
        cl.portal.call(cl.app.state.lobby.fill, d["id"])  # its computers come (their time is not waited for)
        seats = _seats(cl, d["id"])
        # a person named as a computer would be: the computer's name gets a "'"; the person's is not marked
        assert [(s["name"], s["name_level"]) for s in seats] == [("Heuristic 2", None), ("Heuristic 2'", "heuristic"),
                                                                 ("Heuristic 3", "heuristic")]
        history = cl.post("/api/history", json={"tokens": [d["token"]]}).json()["games"]
        assert history[0]["names"] == ["Heuristic 2", "Heuristic 2'", "Heuristic 3"]
        assert history[0]["name_levels"] == [None, "heuristic", "heuristic"]


def test_invitation_tables_stay_out_of_the_lobby(tmp_path: Path) -> None:
    with _client(tmp_path) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]})
        assert r.status_code == 200
        assert cl.get("/api/lobby").json()["tables"] == []
        assert cl.post("/api/lobby/join", json={"name": "Eve", "table": r.json()["id"]}).status_code == 400


def test_open_a_table_with_options_and_join_it(tmp_path: Path) -> None:
    with _client(tmp_path) as cl:
        o = cl.post("/api/lobby/open", json={"name": "Ann", "rules": "8-5-3 to=20", "clock_turn": 20, "clock_reserve": 60,
                                             "table_name": "Evening", "wait": 120}).json()
        listed = cl.get("/api/lobby").json()["tables"]
        assert listed[0]["name"] == "Evening" and listed[0]["rules"] == "8-5-3 to=20" and listed[0]["clock"] == [20, 60]
        j = cl.post("/api/lobby/join", json={"name": "Bo", "table": o["id"]}).json()
        assert j["seat"] == 1
        k = cl.post("/api/lobby/join", json={"name": "Cy", "table": o["id"]}).json()
        assert k["seat"] == 2
        assert cl.get("/api/lobby").json()["tables"] == []  # full: it waits no more
        r = cl.post("/api/lobby/join", json={"name": "Di", "table": o["id"]})
        assert r.status_code == 400 and r.json()["code"] == "table" and o["id"] in r.json()["error"]


BAD_FORMS: list[tuple[str, Any, str, str]] = [
    ("quick", {"name": "Ann", "rules": "9-5-2 to=twenty"}, "rules", "twenty"),
    ("open", {"name": "Ann", "rules": "9-5-2 to=zz"}, "rules", "zz"),
    ("open", {"name": "", "rules": "9-5-2"}, "seat_name", '""'),
    ("open", {"name": "A\u202eB"}, "seat_name", "A"),
    ("open", {"name": "Ann", "clock_turn": 3}, "clock", "3"),
    ("open", {"name": "Ann", "clock_turn": 20, "clock_reserve": -5}, "clock", "-5"),
    ("open", {"name": "Ann", "wait": 121}, "wait", "121"),
    ("open", {"name": "Ann", "wait": "10"}, "wait", '"10"'),
    ("open", {"name": "Ann", "level": "grandmaster"}, "level", "grandmaster"),
    ("open", {"name": "Ann", "colour": "red"}, "body", "colour"),
    ("open", ["Ann"], "body", '["Ann"]'),
    ("open", {"name": "Ann", "level_names": {"grandmaster": "Großmeister"}}, "level", "grandmaster"),
    ("open", {"name": "Ann", "level_names": {"random": "Zu\u202efall"}}, "level", "Zu"),
    ("open", {"name": "Ann", "level_names": ["Zufall"]}, "level", '["Zufall"]'),
    ("join", {"name": "Ann", "table": "../etc"}, "table", "../etc"),
    ("join", {"name": "Ann"}, "table", "null"),
]


@pytest.mark.parametrize(("kind", "body", "code", "quoted"), BAD_FORMS, ids=[f"{k}-{c}-{i}" for i, (k, _, c, _) in enumerate(BAD_FORMS)])
def test_bad_forms_are_refused_quoting_them_and_change_nothing(tmp_path: Path, kind: str, body: Any, code: str, quoted: str) -> None:
    with _client(tmp_path) as cl:
        r = cl.post(f"/api/lobby/{kind}", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["code"] == code and quoted in r.json()["error"], r.json()
        assert cl.get("/api/lobby").json()["tables"] == []


def test_a_body_that_is_not_json_and_a_bad_lobby_message(tmp_path: Path) -> None:
    with _client(tmp_path) as cl:
        r = cl.post("/api/lobby/quick", content=b"{nope", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "json"
        with cl.websocket_connect("/ws/lobby") as lw:
            lw.receive_text()
            lw.send_text('{"type": "join", "token": "x"}')
            m = json.loads(lw.receive_text())
            assert m["type"] == "error" and '"join"' in m["reason"]
            lw.send_text('{"type": "ping"}')
            assert json.loads(lw.receive_text()) == {"type": "pong"}


def test_two_joins_at_once_for_the_last_seat_seat_exactly_one(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        lobby = Lobby(hub)
        a = await lobby.open(lobby_request({"name": "Ann", "wait": 120}, "open"))
        await lobby.join(lobby_request({"name": "Bo", "table": a.table}, "join"))
        got = await asyncio.gather(*(lobby.join(lobby_request({"name": f"P{i}", "table": a.table}, "join")) for i in range(4)),
                                   return_exceptions=True)
        won = [g for g in got if not isinstance(g, BaseException)]
        assert len(won) == 1 and all(isinstance(g, TableRefused) for g in got if g not in won)
        stored = hub.store.table(a.table)
        assert stored is not None and [s.name for s in stored[1]][:2] == ["Ann", "Bo"] and stored[1][2].name.startswith("P")
        assert all(s.claimed for s in stored[1])
        for task in lobby.tasks():
            task.cancel()

    asyncio.run(run())



@pytest.mark.parametrize("change", ["fill", "join"])
def test_a_table_loading_while_the_lobby_seats_someone_shows_that_seat(tmp_path: Path, change: str) -> None:
    """A table's first websocket loads it from the database while the lobby's computers take its free seat (or a person
    joins): a load that read the seats before that write and was installed after it kept the seat free in memory, so
    the table never started ("nobody holds seat 2"). The load is held between its read and its install while the
    write is done (:func:`write_while_loading`)."""

    async def run() -> None:
        hub = make_hub(tmp_path)
        lobby = Lobby(hub)
        a = await lobby.open(lobby_request({"name": "Ann", "wait": 120, "level": "random"}, "open"))
        await lobby.join(lobby_request({"name": "Bo", "table": a.table, "wait": 120}, "join"))

        async def write() -> Any:
            if change == "fill":
                return await lobby.fill(a.table)
            return await lobby.join(lobby_request({"name": "Cy", "table": a.table}, "join"))

        gt = await write_while_loading(hub, a.table, write)
        want = ["Ann", "Bo", "Random 3" if change == "fill" else "Cy"]
        stored = hub.store.table(a.table)
        assert stored is not None
        assert [s.name for s in gt.seats] == want and [s.name for s in stored[1]] == want
        assert [s.kind for s in gt.seats][2] == ("random" if change == "fill" else "human")
        for task in lobby.tasks():
            task.cancel()

    asyncio.run(run())

def test_the_fill_time_survives_a_restart_and_the_computers_come(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        lobby = Lobby(hub)
        a = await lobby.open(lobby_request({"name": "Ann", "wait": 1, "level": "beginner"}, "open"))
        for task in lobby.tasks():
            task.cancel()  # the server stops before the wait is over
        again = Lobby(hub)
        await again.start()
        assert list(again.waiting) == [a.table]
        listener = FakeWS()
        await again.add(listener)  # type: ignore[arg-type]
        c = connect(hub, a.table)
        await send(hub, c, {"type": "join", "token": a.token})
        for _ in range(100):
            if not again.waiting:
                break
            await asyncio.sleep(0.05)
        assert not again.waiting
        st = c.ws.last()
        assert st is not None and [s["kind"] for s in st["table"]["seats"]] == ["human", "beginner", "beginner"]
        await asyncio.sleep(0.01)
        assert json.loads(listener.frames[-1])["tables"] == []

    asyncio.run(run())


def test_invitation_table_is_not_read_as_waiting(tmp_path: Path) -> None:
    hub = make_hub(tmp_path)
    new_table(hub, "9-5-2", ["me", "friend", "heuristic"])
    assert hub.store.waiting_tables() == []


@pytest.mark.postgres
def test_lobby_store_on_postgresql() -> None:
    """On PostgreSQL: a lobby table is stored public with its clock and fill time, read back as waiting, joined by
    several at once (one seat each, never one seat twice), and filled by computers (the fill time cleared)."""
    import os

    url = os.environ.get("SM_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")
    pytest.importorskip("psycopg")
    from sergeant_major.web.hub import Hub
    from sergeant_major.web.store import Store

    store = Store(url)
    store.migrate()

    async def run() -> None:
        hub = Hub(store, 0.0)
        lobby = Lobby(hub)
        a = await lobby.open(lobby_request({"name": "Ann", "rules": "8-5-3 players=4 deals=4", "clock_turn": 20, "clock_reserve": 60,
                                            "wait": 120, "level": "random"}, "open"))
        waiting = {row.id: (row, seats) for row, seats in store.waiting_tables()}
        row, seats = waiting[a.table]
        assert row.public and (row.clock_turn, row.clock_reserve, row.fill_level) == (20, 60, "random") and row.fill_at
        assert [s.claimed for s in seats] == [True, False, False, False]
        got = await asyncio.gather(*(lobby.join(lobby_request({"name": f"P{i}", "table": a.table}, "join")) for i in range(5)),
                                   return_exceptions=True)
        seated = [g for g in got if not isinstance(g, BaseException)]
        assert sorted(g.seat for g in seated) == [1, 2, 3] and len({g.token for g in seated}) == 3
        b = await lobby.open(lobby_request({"name": "Bo", "wait": 120, "level": "random"}, "open"))
        assert await lobby.fill(b.table) == [1, 2]
        stored = store.table(b.table)
        assert stored is not None and [s.kind for s in stored[1]] == ["human", "random", "random"] and stored[0].fill_at is None
        assert b.table not in {r.id for r, _ in store.waiting_tables()}
        for task in lobby.tasks():
            task.cancel()

    try:
        asyncio.run(run())
    finally:
        store.dispose()


def test_migration_0004_keeps_the_tables_of_an_older_database_private(tmp_path: Path) -> None:
    """A database made by the migrations up to 0003, holding a table, upgraded to the head: the table is private, has no
    clock and no fill time, and loads as before; the downgrade takes the columns away again."""
    from alembic import command
    from alembic.config import Config

    from sergeant_major.web.hub import Hub
    from sergeant_major.web.store import Store

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = Store(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).resolve().parents[2] / "src" / "sergeant_major" / "web" / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url)
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        conn.exec_driver_sql("INSERT INTO sm_tables (id, name, rules, seed, practice, away_timeout, created) "
                             "VALUES ('old1', 'Old', '9-5-2', 5, 1, 60, 1.0)")
        conn.exec_driver_sql("INSERT INTO sm_seats (table_id, seat, name, kind, token, claimed) VALUES "
                             "('old1', 0, 'Me', 'human', 'tok-old', 0), ('old1', 1, 'H', 'heuristic', NULL, 1), "
                             "('old1', 2, 'R', 'random', NULL, 1)")
    store.migrate()
    got = store.table("old1")
    assert got is not None
    row = got[0]
    assert (row.public, row.clock_turn, row.clock_reserve, row.fill_level, row.fill_at) == (False, 0, 0, None, None)
    assert store.waiting_tables() == []
    gt = Hub(store, 0.0).load("old1")
    assert gt is not None and gt.state_message(0, set())["clock"] is None
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
        cols = [r[1] for r in conn.exec_driver_sql("PRAGMA table_info(sm_tables)")]
    assert "public" not in cols and "fill_at" not in cols
    store.dispose()


def test_a_lobby_table_starts_without_a_seated_player_who_went_but_not_with_a_free_seat(tmp_path: Path) -> None:
    """Quick play: the opener took a seat and closed the page; the one who joined can start once no seat is free (the
    opener's seat gets a stand-in after the table's timeout), never while a seat is free."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        lobby = Lobby(hub)
        a = await lobby.open(lobby_request({"name": "Ann", "wait": 120}, "open"))
        b = await lobby.join(lobby_request({"name": "Bea", "table": a.table}, "join"))
        c = connect(hub, a.table)
        await send(hub, c, {"type": "join", "token": b.token})
        await send(hub, c, {"type": "start", "v": c.ws.last()["v"]})
        err = c.ws.last("error")
        assert err is not None and err["code"] == "empty_seat" and "Free seat 3" in err["reason"] and "Ann" not in err["reason"]
        await lobby.fill(a.table)
        await send(hub, c, {"type": "start", "v": c.ws.last()["v"]})
        gt = hub.tables[a.table]
        assert gt.released == 1 and not gt.waiting_start

    asyncio.run(run())


def test_a_lobby_lists_and_joins_the_tables_another_process_opened(tmp_path: Path) -> None:
    """Two servers on one database (as with many processes): a table opened through one is joined through the other,
    which lists it after a refresh; once full it leaves both lobbies."""
    from sergeant_major.web.hub import Hub

    async def run() -> None:
        first = make_hub(tmp_path)
        second = Hub(first.store, 0.0)
        here, there = Lobby(first), Lobby(second)
        await there.start()
        form = {"name": "Ann", "rules": "9-5-2", "wait": 120, "level": "random"}
        a = await here.open(lobby_request(form, "open"))
        assert there.message()["tables"] == []  # not read yet
        await there.refresh()
        assert [t["id"] for t in there.message()["tables"]] == [a.table]
        b = await there.join(lobby_request({**form, "name": "Bea", "table": a.table}, "join"))
        c = await there.join(lobby_request({**form, "name": "Cy", "table": a.table}, "join"))
        assert (b.table, b.seat, c.seat) == (a.table, 1, 2)
        assert there.message()["tables"] == []
        await here.refresh()
        assert here.message()["tables"] == []
        for lobby in (here, there):
            for task in lobby.tasks():
                task.cancel()

    asyncio.run(run())
