"""Turn clocks kept in the database: each seat's reserve left and timeouts in a row, written with the decision that
changed them, so a restart resumes the clocks instead of refilling them.

Tables stored before have no rows: their seats' reserves are whole once more (as a restart made them before).

Revision ID: 0007_clocks
Revises: 0006_multiproc
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_clocks"
down_revision = "0006_multiproc"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_clocks",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("reserve", sa.Float, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sm_clocks")
