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
    # plain ALTER TABLE ... ADD COLUMN: a batch copy (SQLite) would drop sm_tables, which the seats and the log refer to
    op.add_column("sm_tables", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("sm_tables", sa.Column("clock_turn", sa.Integer, nullable=False, server_default="0"))
    op.add_column("sm_tables", sa.Column("clock_reserve", sa.Integer, nullable=False, server_default="0"))
    op.add_column("sm_tables", sa.Column("fill_level", sa.String(20), nullable=True))
    op.add_column("sm_tables", sa.Column("fill_at", sa.Float, nullable=True))


def downgrade() -> None:
    # plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+ too): a batch copy would drop sm_tables, which the seats refer to
    for name in ("fill_at", "fill_level", "clock_reserve", "clock_turn", "public"):
        op.drop_column("sm_tables", name)
