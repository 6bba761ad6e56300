"""Seats: ``claimed``, whether a join with the seat's token has taken it (the first join does, atomically).

Seats stored before are not claimed yet: the next join with their token takes them (as every join did before).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sm_seats") as batch:
        batch.add_column(sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("sm_seats") as batch:
        batch.drop_column("claimed")
