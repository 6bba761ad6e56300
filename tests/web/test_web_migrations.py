"""The Alembic migrations make the schema the code declares (``store.metadata``), and 0004_accounts upgrades a database
made by 0003 with its tables and seats kept (bound to no account), up to the newest migration."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from alembic import command  # noqa: E402
from alembic.autogenerate import compare_metadata  # noqa: E402
from alembic.config import Config  # noqa: E402
from alembic.migration import MigrationContext  # noqa: E402
from alembic.script import ScriptDirectory  # noqa: E402

from sergeant_major.web import store as store_module  # noqa: E402
from sergeant_major.web.store import Store, metadata  # noqa: E402
from sergeant_major.web.tables import name_levels  # noqa: E402


def test_the_migrations_make_the_declared_schema(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    store.migrate()
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def _at_revision(conn: sa.Connection, revision: str) -> Config:
    """Migrate the database on ``conn`` only up to ``revision``, as an older server left it; the config."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_module.__file__).with_name("migrations")))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, revision)
    return cfg


def test_0004_upgrades_a_0003_database_keeping_its_seats(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    with store.engine.begin() as conn:
        cfg = _at_revision(conn, "0003")
        conn.execute(sa.text("INSERT INTO sm_tables VALUES ('t1', 'T', '9-5-2', 1, 0, 60, 0.0)"))
        conn.execute(sa.text("INSERT INTO sm_seats (table_id, seat, name, kind, token, claimed) VALUES ('t1', 0, 'Ann', 'human', 'tok', 1)"))
    store.migrate()
    got = store.table("t1")
    assert got is not None and got[1][0].name == "Ann" and got[1][0].account is None
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == ScriptDirectory.from_config(cfg).get_current_head()


def test_0008_makes_account_ids_never_given_twice_keeping_the_accounts_and_what_refers_to_them(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'ids.sqlite3'}")
    with store.engine.begin() as conn:
        cfg = _at_revision(conn, "0007_clocks")
        for i, name in ((1, "ann"), (2, "ben")):
            conn.execute(sa.text(f"INSERT INTO sm_accounts VALUES ({i}, '{name}', '{name}', 'h', 0.0)"))
        conn.execute(sa.text("INSERT INTO sm_sessions VALUES ('th', 2, 'csrf', 0.0, 9e9)"))
        conn.execute(sa.text("INSERT INTO sm_ratings VALUES (2, '9-5-2', 25.0, 8.3, 1, 0, 0.0)"))
    store.migrate()

    def new_account(name: str) -> int:
        with store.engine.begin() as conn:
            return int(conn.execute(sa.text(f"INSERT INTO sm_accounts (name, name_key, password_hash, created) "
                                            f"VALUES ('{name}', '{name}', 'h', 0.0) RETURNING id")).scalar_one())

    with store.engine.begin() as conn:
        assert conn.execute(sa.text("SELECT id, name FROM sm_accounts ORDER BY id")).all() == [(1, "ann"), (2, "ben")]
        assert conn.execute(sa.text("SELECT account_id FROM sm_sessions")).scalar() == 2
        assert conn.execute(sa.text("SELECT account_id FROM sm_ratings")).scalar() == 2
        assert conn.execute(sa.text("PRAGMA foreign_key_check")).all() == []
        assert conn.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1  # on again for the store's connections
        conn.execute(sa.text("DELETE FROM sm_sessions"))
        conn.execute(sa.text("DELETE FROM sm_ratings"))
        conn.execute(sa.text("DELETE FROM sm_accounts WHERE id = 2"))
    assert new_account("cat") == 3  # not 2 again (before 0008: 2)
    with store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM sm_accounts WHERE id = 3"))
    assert new_account("dan") == 4
    with store.engine.begin() as conn:  # and back: the accounts kept
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0007_clocks")
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT id FROM sm_accounts ORDER BY id")).scalars().all() == [1, 4]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database's URL: an SQLite file, or a PostgreSQL database of its own (``SM_TEST_POSTGRES_URL``'s server)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'names.sqlite3'}"
        return
    from _clusterhelp import postgres_database

    url, drop = postgres_database()
    try:
        yield url
    finally:
        drop()


def test_0009_names_the_computers_a_german_home_page_stored_by_their_level(empty_db: str) -> None:
    """The repro: the German home page stored an invitation table's unnamed computers as it wrote them ("Heuristik 2"),
    so an English player at that table read German names, also after the page stopped sending them. 0009 turns every
    computer's name that is its level's German name and its seat into the server's name (``Heuristic 2``, which each
    page writes in its language), a "'" added while a person at the table has it; other names (a computer's chosen
    name, another seat's number, a person's) stay, and so does a stored review's, but for the computers renamed."""
    store = Store(empty_db)
    with store.engine.begin() as conn:
        _at_revision(conn, "0008_account_ids")
        for tid in ("t1", "t2"):
            conn.execute(sa.text(f"INSERT INTO sm_tables (id, name, rules, seed, practice, away_timeout, created) "
                                 f"VALUES ('{tid}', 'Tisch', '9-5-2', 1, false, 60, 0.0)"))
        rows = [("t1", 0, "Ich", "human"), ("t1", 1, "Heuristik 2", "heuristic"), ("t1", 2, "Zufall 3", "random"),
                ("t2", 0, "Heuristic 2", "human"), ("t2", 1, "Heuristik 2", "heuristic"), ("t2", 2, "Heuristik", "expert"),
                ("t3", 0, "Ann", "human"), ("t3", 1, "Experte 3", "expert"), ("t3", 2, "Anfänger 3", "beginner")]
        conn.execute(sa.text("INSERT INTO sm_tables (id, name, rules, seed, practice, away_timeout, created) "
                             "VALUES ('t3', 'T', '9-5-2', 1, false, 60, 0.0)"))
        for tid, seat, name, kind in rows:
            conn.execute(sa.text("INSERT INTO sm_seats (table_id, seat, name, kind, claimed) VALUES (:t, :s, :n, :k, true)"),
                         {"t": tid, "s": seat, "n": name, "k": kind})
        review = {"names": ["Ich", "Heuristik 2", "Zufall 3"], "seats": [{"seat": s, "name": n} for s, n in enumerate(["Ich", "Heuristik 2", "Zufall 3"])]}
        conn.execute(sa.text("INSERT INTO sm_reviews (table_id, data, created) VALUES ('t1', :d, 0.0)"), {"d": json.dumps(review)})
    store.migrate()
    try:
        names = {tid: [s.name for s in store.seats(tid)] for tid in ("t1", "t2", "t3")}
        assert names == {"t1": ["Ich", "Heuristic 2", "Random 3"],
                         "t2": ["Heuristic 2", "Heuristic 2'", "Heuristik"],  # a person has the name; a chosen name
                         "t3": ["Ann", "Experte 3", "Beginner 3"]}  # another seat's number: chosen, kept
        assert name_levels(store.table("t1")[1]) == [None, "heuristic", "random"]  # type: ignore[index]
        assert name_levels(store.table("t2")[1]) == [None, "heuristic", None]  # type: ignore[index]
        stored = store.review("t1")
        assert stored is not None and stored["names"] == ["Ich", "Heuristic 2", "Random 3"]
        assert [s["name"] for s in stored["seats"]] == ["Ich", "Heuristic 2", "Random 3"]
    finally:
        store.dispose()


def test_0011_marks_the_default_table_names_stored_before(empty_db: str) -> None:
    """Tables stored before 0011 could not tell a default name from a chosen one: those named as the pages wrote the
    defaults then ("Table", "Tisch", "Ann's table", "Tisch von Ann") are marked default, as the pages took them; any
    other name is a chosen one."""
    store = Store(empty_db)
    names = {"t1": "Table", "t2": "Tisch", "t3": "Ann's table", "t4": "Tisch von Ann", "t5": "Poker night", "t6": "Tables"}
    with store.engine.begin() as conn:
        _at_revision(conn, "0010_devices")
        for tid, name in names.items():
            conn.execute(sa.text("INSERT INTO sm_tables (id, name, rules, seed, practice, away_timeout, created) "
                                 "VALUES (:t, :n, '9-5-2', 1, false, 60, 0.0)"), {"t": tid, "n": name})
    store.migrate()
    try:
        marked = {tid: store.table(tid)[0].name_default for tid in names}  # type: ignore[index]
        assert marked == {"t1": True, "t2": True, "t3": True, "t4": True, "t5": False, "t6": False}, marked
    finally:
        store.dispose()
