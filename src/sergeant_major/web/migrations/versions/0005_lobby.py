"""The lobby: a table may be public (listed in ``/lobby`` while it waits for players), have a turn clock (seconds per
decision and a reserve) and computers that fill its free seats at a time (quick play's wait).

Revision ID: 0005_lobby
Revises: 0004_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_lobby"
down_revision = "0004_accounts"  # the file 0004_accounts.py
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sm_tables") as b:
        b.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        b.add_column(sa.Column("clock_turn", sa.Integer, nullable=False, server_default="0"))
        b.add_column(sa.Column("clock_reserve", sa.Integer, nullable=False, server_default="0"))
        b.add_column(sa.Column("fill_level", sa.String(20), nullable=True))
        b.add_column(sa.Column("fill_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sm_tables") as b:
        for name in ("fill_at", "fill_level", "clock_reserve", "clock_turn", "public"):
            b.drop_column(name)
