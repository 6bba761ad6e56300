"""Accounts, sessions, the login throttle's failures, ratings per preset and their history; seats bound to an account.

Seats stored before are bound to no account (a guest's, as they were).

Revision ID: 0004_accounts
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_accounts"
down_revision = "0003"  # the file 0003_reviews.py
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), primary_key=True),
        sa.Column("preset", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_rated",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    with op.batch_alter_table("sm_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_index("ix_sm_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("sm_seats") as batch:
        batch.drop_index("ix_sm_seats_account_id")
        batch.drop_column("account_id")
    for t in ("sm_rated", "sm_rating_history", "sm_ratings", "sm_login_failures", "sm_sessions", "sm_accounts"):
        op.drop_table(t)
