"""Alembic environment: runs on the connection the app hands over (``config.attributes["connection"]``)."""

from __future__ import annotations

from alembic import context

from sergeant_major.web.store import metadata

target_metadata = metadata
connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - run by the alembic command with an URL
    from sqlalchemy import create_engine

    with create_engine(context.config.get_main_option("sqlalchemy.url") or "").begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
