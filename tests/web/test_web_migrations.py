"""The Alembic migrations make the schema the code declares (``store.metadata``), and 0004_accounts upgrades a database
made by 0003 with its tables and seats kept (bound to no account), up to the newest migration."""

from __future__ import annotations

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


def test_the_migrations_make_the_declared_schema(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    store.migrate()
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_0004_upgrades_a_0003_database_keeping_its_seats(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_module.__file__).with_name("migrations")))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        conn.execute(sa.text("INSERT INTO sm_tables VALUES ('t1', 'T', '9-5-2', 1, 0, 60, 0.0)"))
        conn.execute(sa.text("INSERT INTO sm_seats (table_id, seat, name, kind, token, claimed) VALUES ('t1', 0, 'Ann', 'human', 'tok', 1)"))
    store.migrate()
    got = store.table("t1")
    assert got is not None and got[1][0].name == "Ann" and got[1][0].account is None
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == ScriptDirectory.from_config(cfg).get_current_head()
