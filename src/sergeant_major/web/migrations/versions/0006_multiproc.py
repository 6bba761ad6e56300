"""Many server processes on one database: each table's lease (which process runs its computers and clocks) and each
process's clients per seat (who is online at a table, whichever process they are connected to).

Revision ID: 0006_multiproc
Revises: 0005_lobby
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_multiproc"
down_revision = "0005_lobby"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "sm_presence",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("holder", sa.String(64), primary_key=True),
        sa.Column("conns", sa.Integer, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sm_presence")
    op.drop_table("sm_leases")
