"""Initial schema: tables, seats, log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("rules", sa.String(500), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("practice", sa.Boolean, nullable=False),
        sa.Column("away_timeout", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("token", sa.String(64), nullable=True, unique=True),
    )
    op.create_table(
        "sm_log",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sm_log")
    op.drop_table("sm_seats")
    op.drop_table("sm_tables")
