"""Default table names told from chosen ones: ``sm_tables.name_default`` is true for a table named by default (``Table``,
the lobby's ``Ann's table``), which each page writes in its language (``Tisch``, ``Tisch von Ann``); a name its creator
chose is shown as typed, even one equal to a default (a table called ``Table`` by its creator stays ``Table``).

Tables stored before could not be told apart: those whose name is a default name as the pages wrote them then are
marked default (the pages localised them before), any other name is a chosen one.

Revision ID: 0011_table_name_default
Revises: 0010_devices
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_table_name_default"
down_revision = "0010_devices"
branch_labels = None
depends_on = None

tables = sa.table("sm_tables", sa.column("name", sa.String), sa.column("name_default", sa.Boolean))


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite too): a batch would copy sm_tables, which the seats' foreign keys refuse
    op.add_column("sm_tables", sa.Column("name_default", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(tables.update().where(sa.or_(tables.c.name.in_(["Table", "Tisch"]), tables.c.name.like("%'s table"),
                                            tables.c.name.like("Tisch von %"))).values(name_default=True))


def downgrade() -> None:
    op.drop_column("sm_tables", "name_default")
