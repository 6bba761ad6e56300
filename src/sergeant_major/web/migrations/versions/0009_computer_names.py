"""Computers named by a German home page are named by their level: an invitation table's unnamed computer was stored as
the German page wrote it (``Heuristik 2``) until the page left the name to the server, which stores ``Heuristic 2`` and
every page writes in its own language; so English players at such a table read German names. Every computer seat whose
name is its level's German name and its seat number (from 1) gets the server's name, with a ``'`` added while another
seat of the table has that name (as the lobby does); a stored review of the table (which holds the names) is renamed
alike. Any other name (one chosen for a computer, a person's) stays.

The German names are written here as the page had them: a migration does what it did when it was written.

Revision ID: 0009_computer_names
Revises: 0008_account_ids
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009_computer_names"
down_revision = "0008_account_ids"
branch_labels = None
depends_on = None

GERMAN = {"random": "Zufall", "beginner": "Anfänger", "heuristic": "Heuristik", "expert": "Experte"}

seats = sa.table("sm_seats", sa.column("table_id", sa.String), sa.column("seat", sa.Integer), sa.column("name", sa.String),
                 sa.column("kind", sa.String))
reviews = sa.table("sm_reviews", sa.column("table_id", sa.String), sa.column("data", sa.Text))


def _renamed(review: dict[str, Any], new: dict[int, tuple[str, str]]) -> dict[str, Any]:
    """``review`` with the names of the seats in ``new`` (seat: (old name, new name)) replaced where they are the old one."""
    out = dict(review)
    if isinstance(out.get("names"), list):
        out["names"] = [new[i][1] if i in new and n == new[i][0] else n for i, n in enumerate(out["names"])]
    if isinstance(out.get("seats"), list):
        out["seats"] = [{**s, "name": new[s["seat"]][1]} if isinstance(s, dict) and s.get("seat") in new
                        and s.get("name") == new[s["seat"]][0] else s for s in out["seats"]]
    return out


def upgrade() -> None:
    bind = op.get_bind()
    old = {(str(r.table_id), int(r.seat)): (str(r.name), str(r.kind)) for r in bind.execute(
        sa.select(seats.c.table_id, seats.c.seat, seats.c.name, seats.c.kind).where(seats.c.kind.in_(sorted(GERMAN))))
        if str(r.name) == f"{GERMAN[str(r.kind)]} {int(r.seat) + 1}"}
    for tid in sorted({t for t, _ in old}):
        names = {int(r.seat): str(r.name) for r in bind.execute(sa.select(seats.c.seat, seats.c.name).where(seats.c.table_id == tid))}
        new: dict[int, tuple[str, str]] = {}
        for (t, seat), (name, kind) in sorted(old.items()):
            if t != tid:
                continue
            english = f"{kind.capitalize()} {seat + 1}"
            while any(n.casefold() == english.casefold() for s, n in names.items() if s != seat):
                english += "'"
            names[seat] = english
            new[seat] = (name, english)
            bind.execute(seats.update().where(seats.c.table_id == tid, seats.c.seat == seat).values(name=english))
        data = bind.execute(sa.select(reviews.c.data).where(reviews.c.table_id == tid)).scalar()
        if data is not None:
            bind.execute(reviews.update().where(reviews.c.table_id == tid)
                         .values(data=json.dumps(_renamed(json.loads(data), new), separators=(",", ":"))))


def downgrade() -> None:
    """Nothing: the names by level are read by every version (the German ones are not made again)."""
