"""Play in the browser: a FastAPI app with websockets, stored in SQLite or PostgreSQL (the ``web`` extra).

- :mod:`.store`: the database (SQLAlchemy 2 Core; schema by the Alembic migrations in ``migrations/``).
- :mod:`.tables`: one table's state, rebuilt from its stored log of actions; the JSON views sent to browsers.
- :mod:`.app`: the FastAPI app (pages, HTTP API, the websocket protocol); see ``docs/web.md``.
"""
