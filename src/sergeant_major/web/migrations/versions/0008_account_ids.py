"""An account's id is never given again (SQLite): ``sm_accounts`` is made an ``AUTOINCREMENT`` table, so a new account
never gets the id of a deleted one (without it SQLite gives the largest id in use plus one, the deleted account's when it
was the newest). PostgreSQL's sequence never gives an id twice already: nothing to do there.

The ids of accounts deleted before this migration are not known any more; from it on, an id is the largest ever given
plus one.

Revision ID: 0008_account_ids
Revises: 0007_clocks
"""

from __future__ import annotations

from alembic import op

revision = "0008_account_ids"
down_revision = "0007_clocks"
branch_labels = None
depends_on = None


def _rebuild(autoincrement: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    # the copy drops the old table, which sessions, ratings and their history refer to: their keys must not be checked at
    # the drop but once the new table holds every id again. In a transaction that is PRAGMA defer_foreign_keys (checked
    # at the commit); outside one (the driver has not begun one yet) the keys are off for the copy, then checked here,
    # and the store's connections are opened anew after the migrations (they turn the keys on again)
    raw = bind.connection.dbapi_connection
    deferred = bool(getattr(raw, "in_transaction", False))
    op.execute("PRAGMA defer_foreign_keys = ON" if deferred else "PRAGMA foreign_keys = OFF")
    with op.batch_alter_table("sm_accounts", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}):
        pass
    bad = bind.exec_driver_sql("PRAGMA foreign_key_check").all()
    if bad:
        raise RuntimeError(f"rows refer to accounts that are not there after the copy of sm_accounts: {bad[:5]!r}")


def upgrade() -> None:
    _rebuild(True)


def downgrade() -> None:
    _rebuild(False)
