"""Remembered devices: the browsers that logged in to an account (the SHA-256 of their ``sm_device`` cookie's token),
exempt from the login throttle's per-name delay.

Revision ID: 0010_devices
Revises: 0009_computer_names
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_devices"
down_revision = "0009_computer_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sm_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sm_devices")
