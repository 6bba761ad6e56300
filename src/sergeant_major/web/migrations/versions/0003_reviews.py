"""Reviews: the double-dummy review of a finished match (``sergeant_major.search.review``), computed once in the
background after the match ends and stored as JSON, one row per table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sm_reviews")
