"""Play in the browser: a FastAPI app with websockets, stored in SQLite or PostgreSQL (the ``web`` extra).

- :mod:`.app`: the FastAPI app (:func:`~.app.create_app`): pages, the HTTP API, the websocket endpoint; see ``docs/web.md``.
- :mod:`.protocol`: the messages: limits, reading a client's JSON, the client messages' shapes, the checks of an action
  and of a new table, the refusals.
- :mod:`.hub`: the server's state, and each client message handled against a table's state (join, act, start, undo...).
- :mod:`.runner`: the loaded tables, loading them from the store, the server's own moves (pacing, retries, stand-ins).
- :mod:`.connections`: the websocket clients of each table, their seats' presence, sending and broadcast.
- :mod:`.tables`: one table's state, rebuilt from its stored log of actions; the JSON views sent to browsers.
- :mod:`.store`: the database (SQLAlchemy 2 Core; schema by the Alembic migrations in ``migrations/``).
"""
