"""The web app's database: tables, seats and each table's append-only log (the source of truth).

SQLAlchemy 2 Core over SQLite (default: a file in the user data directory) or PostgreSQL
(``postgresql+psycopg://user:pass@host/db``). The schema is made by the Alembic migrations shipped in
``sergeant_major/web/migrations`` and run by :meth:`Store.migrate` at start.

A table's state is the replay of its log (see :mod:`.tables`): entries are numbered ``idx`` from 0 per
table, and ``(table_id, idx)`` is the primary key, so one entry can never be stored twice. Every entry is
committed before anything is sent to a browser.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

__all__ = ["metadata", "tables_t", "seats_t", "log_t", "reviews_t", "accounts_t", "sessions_t", "devices_t", "login_failures_t", "ratings_t",
           "rating_history_t", "rated_t", "leases_t", "presence_t", "clocks_t", "Store", "ClockSeat", "LogEntry", "SeatRow", "TableRow", "Presence",
           "default_db_url", "CHANNEL", "GUEST_SUFFIX", "SEAT_NAME_LIMIT", "guest_name", "guest_base", "guest_marks"]

# the PostgreSQL channel of the many-process mode: ``L <table id> <log length>`` (entries stored), ``P <table id>`` (a seat
# taken or renamed, a client came or went), ``R <table id>`` (a lease given up): NOTIFYed in the transaction of the change
CHANNEL = "sm_table"

# added to a guest's seat name when an account takes that name (letter case aside), so that the seat is never taken for
# the account's; dropped again when the account itself binds the seat (accounts.py, Store.bind_seat)
GUEST_SUFFIX = " (guest)"
_GUEST_RE = re.compile(r"(.*) \(guest(?: [1-9][0-9]*)?\)", re.DOTALL)


SEAT_NAME_LIMIT = 40
"""A seat's name is at most this many characters (a person's as typed; a guest's mark included)."""


def guest_name(name: str, taken: set[str]) -> str:
    """A guest's seat ``name`` marked as a guest's: ``Ann (guest)``, else the first of ``Ann (guest 2)``,
    ``Ann (guest 3)``... not in ``taken`` (the table's other names, casefolded): names at a table stay unique. At most
    :data:`SEAT_NAME_LIMIT` characters: a name too long for its mark is cut, ending in ``...`` (as names are stored:
    NFKC writes an ellipsis so), the mark kept whole."""
    n = 1
    while True:
        mark = GUEST_SUFFIX if n == 1 else f" (guest {n})"
        base = name if len(name) + len(mark) <= SEAT_NAME_LIMIT else name[:SEAT_NAME_LIMIT - len(mark) - 3].rstrip() + "..."
        new = base + mark
        if new.casefold() not in taken:
            return new
        n += 1


def guest_marks(base: str, key: str) -> bool:
    """Whether a guest's mark's ``base`` (:func:`guest_base`) was made from the account name ``key`` (casefolded):
    equal, letter case aside, or its beginning cut with ``...`` (:func:`guest_name`)."""
    folded = base.casefold()
    return folded == key or (folded.endswith("...") and len(folded) > 3 and key.startswith(folded[:-3]))


def guest_base(name: str) -> str | None:
    """The name a seat named as a guest's (:func:`guest_name`: ``Ann (guest)``, ``Ann (guest 2)``) was marked from
    (``Ann``), else ``None``."""
    m = _GUEST_RE.fullmatch(name)
    return None if m is None else m.group(1)

metadata = sa.MetaData()

tables_t = sa.Table(
    "sm_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("rules", sa.String(500), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("practice", sa.Boolean, nullable=False),
    sa.Column("away_timeout", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # the lobby (migration 0005_lobby): listed there while it waits for players; a turn clock (seconds per decision and
    # a reserve; 0: no clock); computers of ``fill_level`` take the free seats at ``fill_at`` (epoch s; null: never)
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("clock_turn", sa.Integer, nullable=False, server_default="0"),
    sa.Column("clock_reserve", sa.Integer, nullable=False, server_default="0"),
    sa.Column("fill_level", sa.String(20), nullable=True),
    sa.Column("fill_at", sa.Float, nullable=True),
    # the name is a default one (migration 0011_table_name_default: "Table", "Ann's table"), which each page writes in its
    # language; false: chosen by its creator, shown as typed
    sa.Column("name_default", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats_t = sa.Table(
    "sm_seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("token", sa.String(64), nullable=True, unique=True),
    # whether a join with the seat's token has taken it (migration 0002): the first one does, in one conditional
    # UPDATE (:meth:`Store.claim_seat`), so two joins of one invitation at once cannot both name the seat
    sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()),
    # the account the seat is bound to (migration 0004_accounts): its creator's or the first join's while logged in
    sa.Column("account_id", sa.Integer, nullable=True, index=True),
)

log_t = sa.Table(
    "sm_log", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

# the review of a finished match (migration 0003): its JSON (search/review_schema.json), stored once computed
reviews_t = sa.Table(
    "sm_reviews", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)


# accounts (migration 0004_accounts): a user name (unique letter case aside: ``name_key`` is its casefold) and the Argon2
# hash of its password; never the password itself
accounts_t = sa.Table(
    "sm_accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # SQLite: AUTOINCREMENT (migration 0008_account_ids), so a deleted account's id is never given to a new one
    sqlite_autoincrement=True,
)

# a logged-in browser: the SHA-256 of its cookie's token (the token itself is never stored) and its CSRF token
sessions_t = sa.Table(
    "sm_sessions", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

# remembered devices: a browser that logged in to the account (the SHA-256 of its ``sm_device`` cookie's token); such a
# browser is exempt from the login throttle's per-name delay, so that others' wrong passwords never keep its owner out
devices_t = sa.Table(
    "sm_devices", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

# failed logins, one row each: ``key`` is ``name:<casefolded name>``, ``addr:<client network>`` or ``pair:<hash of both>``
# (the throttle: accounts.py)
login_failures_t = sa.Table(
    "sm_login_failures", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(80), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
)

# an account's current rating per preset (OpenSkill Plackett-Luce mu, sigma), its rated matches and wins
ratings_t = sa.Table(
    "sm_ratings", metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), primary_key=True),
    sa.Column("preset", sa.String(20), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

# an account's rating after each rated match (the chart of the player's page)
rating_history_t = sa.Table(
    "sm_rating_history", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("sm_accounts.id"), nullable=False, index=True),
    sa.Column("preset", sa.String(20), nullable=False),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

# the rated matches: one row each, written in the transaction that updates the ratings (so a match is rated once)
rated_t = sa.Table(
    "sm_rated", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
    sa.Column("preset", sa.String(20), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

# which process runs a table's computers (and clocks) now (migration 0006_multiproc): taken when free or expired, renewed by its holder
leases_t = sa.Table(
    "sm_leases", metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("holder", sa.String(64), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

# each process's connected clients per seat (migration 0006_multiproc): a seat is online when some live process has one
presence_t = sa.Table(
    "sm_presence", metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("holder", sa.String(64), primary_key=True),
    sa.Column("conns", sa.Integer, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
)

# each seat's turn clock (migration 0007_clocks): the reserve left (seconds) and the timeouts in a row, written with the
# decision that changed them (a seat without a row has its table's whole reserve and no timeout)
clocks_t = sa.Table(
    "sm_clocks", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("sm_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("reserve", sa.Float, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

# the database's clock (epoch seconds): leases and presence are compared on one clock whatever the machines' clocks say
_DB_NOW: sa.ColumnElement[float] = sa.literal_column("extract(epoch from clock_timestamp())::float8", type_=sa.Float)


@dataclass(frozen=True)
class Presence:
    """One process's clients at one seat: the table, the seat, the process (``holder``), how many clients (``conns``),
    when that was last confirmed (``seen``) and the database's time of the read (``now``), epoch seconds."""

    table_id: str
    seat: int
    holder: str
    conns: int
    seen: float
    now: float


@dataclass(frozen=True)
class TableRow:
    """A stored table: id, name, rules text, seed, practice flag, away timeout (seconds, < 0: never), created (epoch s);
    whether the lobby lists it (``public``), its turn clock (``clock_turn`` seconds per decision plus a ``clock_reserve``
    of seconds per seat; 0: no clock), the computer level that takes its free seats at ``fill_at`` (epoch s), and
    whether its name is a default one (``name_default``: each page writes it in its language), not its creator's choice."""

    id: str
    name: str
    rules: str
    seed: int
    practice: bool
    away_timeout: int
    created: float
    public: bool = False
    clock_turn: int = 0
    clock_reserve: int = 0
    fill_level: str | None = None
    fill_at: float | None = None
    name_default: bool = False


@dataclass(frozen=True)
class SeatRow:
    """A stored seat: number ``0..players-1``, name, kind (``human`` or a computer level), token (humans only),
    whether a join with the token has taken it yet (``claimed``), and the account it is bound to (``None``: a guest's)."""

    seat: int
    name: str
    kind: str
    token: str | None
    claimed: bool = False
    account: int | None = None


@dataclass(frozen=True)
class LogEntry:
    """One log entry: ``idx`` from 0, ``kind`` (``start``, ``act``, ``undo``, ``away``, ``back``), the seat, JSON data, and
    when it was stored (epoch s; 0: not read from the database)."""

    idx: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    created: float = field(default=0.0, compare=False)  # the same entry read back or kept in memory compares equal


@dataclass(frozen=True)
class ClockSeat:
    """One seat's turn clock as stored: its ``reserve`` left (seconds) and its timeouts in a row (``streak``)."""

    seat: int
    reserve: float
    streak: int


def default_db_url() -> str:
    """``sqlite:///<user data dir>/sergeant-major/web.sqlite3`` (the folder is created)."""
    import platformdirs

    d = Path(platformdirs.user_data_dir("sergeant-major"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'web.sqlite3'}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # a commit is in the file before it returns: safe from kill -9
    cur.execute("PRAGMA synchronous=NORMAL")
    # Checkpoints (the only fsyncs in WAL mode) are run by :meth:`Store.checkpoint` off the event loop;
    # the automatic one is only a safety net for a WAL grown past ~40 MB.
    cur.execute("PRAGMA wal_autocheckpoint=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class Store:
    """The database. Methods are synchronous and short (one transaction each).

    Args:
        url: an SQLAlchemy URL (``sqlite:///path`` or ``postgresql+psycopg://...``).
        pool: PostgreSQL: the most connections open at once (3/5 kept open, the rest opened when needed).

    Raises:
        ValueError: for a URL SQLAlchemy cannot use (the URL quoted, password hidden).
    """

    def __init__(self, url: str, pool: int = 40) -> None:
        refused = url_refusal(url)
        if refused is not None:  # before SQLAlchemy, whose words ("Can't load plugin") name no way out
            raise ValueError(refused)
        try:
            sqlite = url.startswith("sqlite")
            if sqlite:
                self.engine: Engine = sa.create_engine(url, connect_args={"check_same_thread": False})
            else:
                kept = max(1, pool * 3 // 5)
                self.engine = sa.create_engine(url, pool_pre_ping=True, pool_size=kept, max_overflow=max(0, pool - kept))
        except Exception as e:  # noqa: BLE001 - any parse/driver error becomes one clear message
            raise ValueError(f"cannot use the database URL {_hide(url)!r}: {e}") from None
        self.url = url
        # PostgreSQL: every change is announced on :data:`CHANNEL` in its own transaction (the many-process mode listens)
        self.notify = self.engine.dialect.name == "postgresql"
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)

    def migrate(self) -> None:
        """Bring the schema up to date with the Alembic migrations (idempotent)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as conn:
            if self.notify:  # processes started together: one migrates, the others wait for it and find it done
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(2025003504)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        if not self.notify:  # SQLite: a migration may turn the foreign keys off on its connection; new ones turn them on
            self.engine.dispose()

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file (``PRAGMA wal_checkpoint(PASSIVE)``),
        which fsyncs; meant to run in a worker thread so the event loop never waits for the disk. No-op otherwise."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def ping(self) -> None:
        """Read from the database once (``SELECT 1``).

        Raises:
            SQLAlchemyError: when it cannot be read.
        """
        with self.engine.connect() as c:
            c.exec_driver_sql("SELECT 1")

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table and its seats in one transaction."""
        with self.engine.begin() as c:
            c.execute(tables_t.insert().values(id=row.id, name=row.name, rules=row.rules, seed=row.seed,
                                               practice=row.practice, away_timeout=row.away_timeout, created=row.created,
                                               public=row.public, clock_turn=row.clock_turn, clock_reserve=row.clock_reserve,
                                               fill_level=row.fill_level, fill_at=row.fill_at, name_default=row.name_default))
            # a creator's account deleted meanwhile: the seat is a guest's (checked in this transaction, after the write above
            # on SQLite, and with the account's row locked to share on PostgreSQL, so that a deletion waits or is seen)
            kept = {a for a in {s.account for s in seats if s.account is not None} if _account_kept(c, a)}
            c.execute(seats_t.insert(), [{"table_id": row.id, "seat": s.seat, "name": s.name, "kind": s.kind, "token": s.token,
                                          "claimed": s.claimed, "account_id": s.account if s.account in kept else None}
                                         for s in seats])

    def append(self, table_id: str, idx: int, kind: str, seat: int | None, data: dict[str, Any],
               clock: ClockSeat | None = None) -> None:
        """Append log entry ``idx`` (committed when this returns), and with ``clock`` that seat's turn clock as the
        entry (a decision) leaves it, in the same transaction: a restart finds both or neither.

        Raises:
            sqlalchemy.exc.IntegrityError: when entry ``idx`` exists already (a second server wrote it).
        """
        now = time.time()
        with self.engine.begin() as c:
            c.execute(log_t.insert().values(table_id=table_id, idx=idx, kind=kind, seat=seat,
                                            data=json.dumps(data, separators=(",", ":")), created=now))
            if clock is not None:  # delete and insert: one way on SQLite and PostgreSQL alike
                where = (clocks_t.c.table_id == table_id, clocks_t.c.seat == clock.seat)
                c.execute(clocks_t.delete().where(*where))
                c.execute(clocks_t.insert().values(table_id=table_id, seat=clock.seat, reserve=clock.reserve,
                                                   streak=clock.streak, updated=now))
            self._notify(c, f"L {table_id} {idx + 1}")

    def append_many(self, table_id: str, entries: list[tuple[int, str, int | None, dict[str, Any]]]) -> None:
        """Append several log entries ``(idx, kind, seat, data)`` in one transaction (all or none)."""
        if not entries:
            return
        now = time.time()
        with self.engine.begin() as c:
            c.execute(log_t.insert(), [{"table_id": table_id, "idx": i, "kind": k, "seat": s,
                                        "data": json.dumps(d, separators=(",", ":")), "created": now}
                                       for i, k, s, d in entries])
            self._notify(c, f"L {table_id} {entries[-1][0] + 1}")

    def _notify(self, c: sa.Connection, payload: str) -> None:
        """PostgreSQL: NOTIFY ``payload`` on :data:`CHANNEL`, delivered when (and only if) ``c``'s transaction commits."""
        if self.notify:
            c.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def notify_seats(self, c: sa.Connection, table_id: str) -> None:
        """PostgreSQL: NOTIFY ``P <table id>`` (its seats changed: every process's copy reads them again) with ``c``'s
        transaction."""
        self._notify(c, f"P {table_id}")

    def claim_seat(self, table_id: str, seat: int, name: str | None) -> tuple[bool, SeatRow]:
        """Take a seat not yet taken (an invitation's first join), naming it ``name`` (``None``: the name is kept): one
        conditional UPDATE (``... WHERE claimed is false``), so of two joins at once, also on two servers sharing the
        database, exactly one takes it. Returns whether this call took it, and the seat as stored now (when it did
        not: the one who took it, by name).

        Raises:
            LookupError: for a seat not stored; SQLAlchemyError: when the database refuses (nothing is changed).
        """
        where = (seats_t.c.table_id == table_id, seats_t.c.seat == seat)
        values: dict[str, Any] = {"claimed": True} if name is None else {"claimed": True, "name": name}
        with self.engine.begin() as c:
            won = c.execute(seats_t.update().where(*where, seats_t.c.claimed == sa.false()).values(**values)).rowcount == 1
            r = c.execute(sa.select(seats_t).where(*where)).first()
            if won:
                self.notify_seats(c, table_id)
        if r is None:
            raise LookupError(f"table {table_id!r} has no seat {seat}")
        return won, _seat_row(r)

    def bind_seat(self, table_id: str, seat: int, account_id: int) -> bool:
        """Bind a seat not bound yet to an account, unless that account holds another seat of the table already: one
        conditional UPDATE. Returns whether it was bound now. A seat named as a guest of the account's name
        (``Ann (guest)``, ``Ann (guest 2)``: :func:`guest_name`) gets the name back (``Ann``): it is that account's now."""
        with self.engine.begin() as c:
            if not _account_kept(c, account_id):  # deleted (while its browser joined): the seat stays a guest's
                return False
            other = c.execute(sa.select(seats_t.c.seat).where(seats_t.c.table_id == table_id, seats_t.c.account_id == account_id)).first()
            if other is not None:
                return False
            # the account checked again in the UPDATE itself: on SQLite, where the SELECTs above lock nothing
            bound = c.execute(seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                                                     seats_t.c.account_id.is_(None), _account_exists(account_id))
                              .values(account_id=account_id)).rowcount == 1
            if bound:  # many processes: the others read the seats again (the account rates the match wherever it ends)
                row = c.execute(sa.select(seats_t.c.name, accounts_t.c.name, accounts_t.c.name_key.label("key"))
                                .join(accounts_t, accounts_t.c.id == seats_t.c.account_id)
                                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)).first()
                base = None if row is None else guest_base(str(row[0]))
                if row is not None and base is not None and guest_marks(base, str(row.key)):
                    # its spelling as typed, or the account's where the mark cut it
                    c.execute(seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                              .values(name=base if base.casefold() == str(row.key) else str(row[1])))
                self.notify_seats(c, table_id)
            return bound

    def save_review(self, table_id: str, review: dict[str, Any]) -> None:
        """Store the review of a finished match under its seats' names as they are now (its ``names`` and each seat's
        ``name`` replaced: a review computed before an account's deletion never keeps the deleted name); a second one for
        the same table replaces nothing: the first stays.

        Raises:
            SQLAlchemyError: when the database refuses (nothing is changed).
        """
        with self.engine.begin() as c:
            if c.execute(sa.select(reviews_t.c.table_id).where(reviews_t.c.table_id == table_id)).first() is not None:
                return
            # written first, then named: on SQLite the write holds the database's lock, so the names read next are the
            # newest; on PostgreSQL the seats are read locked to share, so an account's deletion (which renames its seats,
            # then drops their tables' reviews) is either committed and read here, or waits for this commit and drops this
            c.execute(reviews_t.insert().values(table_id=table_id, data=json.dumps(review, separators=(",", ":")),
                                                created=time.time()))
            names = [str(r.name) for r in c.execute(sa.select(seats_t.c.name).where(seats_t.c.table_id == table_id)
                                                     .order_by(seats_t.c.seat).with_for_update(read=True))]
            named = _named_review(review, names)
            if named != review:
                c.execute(reviews_t.update().where(reviews_t.c.table_id == table_id)
                          .values(data=json.dumps(named, separators=(",", ":"))))

    # ------------------------------------------------------------------ many processes (PostgreSQL)
    def take_leases(self, holder: str, table_ids: list[str], ttl: float) -> set[str]:
        """Take or renew the leases of ``table_ids`` for process ``holder`` until ``ttl`` seconds from now (the database's
        clock), each only when it is free, expired or ``holder``'s already: one statement. Returns the ids held now.

        Raises:
            SQLAlchemyError: when the database refuses (nothing is taken).
        """
        if not table_ids:
            return set()
        from sqlalchemy.dialects.postgresql import insert

        ins = insert(leases_t).values([{"table_id": t, "holder": holder, "expires": _DB_NOW + ttl} for t in sorted(set(table_ids))])
        stmt = ins.on_conflict_do_update(
            index_elements=[leases_t.c.table_id],
            set_={"holder": ins.excluded.holder, "expires": _DB_NOW + ttl},
            where=sa.or_(leases_t.c.expires < _DB_NOW, leases_t.c.holder == ins.excluded.holder),
        ).returning(leases_t.c.table_id)
        with self.engine.begin() as c:
            return {str(r.table_id) for r in c.execute(stmt)}

    def release_leases(self, holder: str, table_ids: list[str]) -> None:
        """Give up ``holder``'s leases of ``table_ids`` (``R`` is NOTIFYed for each, so another process takes it at once)."""
        if not table_ids:
            return
        with self.engine.begin() as c:
            gone = c.execute(leases_t.delete().where(leases_t.c.holder == holder, leases_t.c.table_id.in_(table_ids))
                             .returning(leases_t.c.table_id)).all()
            for r in gone:
                self._notify(c, f"R {r.table_id}")

    def lease_holders(self, table_ids: list[str]) -> dict[str, tuple[str, float]]:
        """``{table id: (holder, seconds left)}`` of the unexpired leases among ``table_ids`` (for tests and checks)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(leases_t.c.table_id, leases_t.c.holder, (leases_t.c.expires - _DB_NOW).label("left"))
                             .where(leases_t.c.table_id.in_(table_ids))).all()
        return {str(r.table_id): (str(r.holder), float(r.left)) for r in rows if float(r.left) > 0}

    def set_presence(self, table_id: str, holder: str, conns: dict[int, int]) -> None:
        """Store how many clients process ``holder`` has at each seat of the table (seats missing: none), and NOTIFY ``P``."""
        from sqlalchemy.dialects.postgresql import insert

        with self.engine.begin() as c:
            c.execute(presence_t.update().where(presence_t.c.table_id == table_id, presence_t.c.holder == holder,
                                                presence_t.c.seat.not_in(list(conns)), presence_t.c.conns > 0)
                      .values(conns=0, seen=_DB_NOW))
            if conns:
                ins = insert(presence_t).values([{"table_id": table_id, "seat": s, "holder": holder, "conns": n, "seen": _DB_NOW}
                                                 for s, n in sorted(conns.items())])
                c.execute(ins.on_conflict_do_update(index_elements=[presence_t.c.table_id, presence_t.c.seat, presence_t.c.holder],
                                                    set_={"conns": ins.excluded.conns, "seen": _DB_NOW}))
            self.notify_seats(c, table_id)

    def heartbeat(self, holder: str) -> None:
        """Process ``holder`` still has its clients: their presence rows are seen now."""
        with self.engine.begin() as c:
            c.execute(presence_t.update().where(presence_t.c.holder == holder, presence_t.c.conns > 0).values(seen=_DB_NOW))

    def presence(self, table_ids: list[str]) -> list[Presence]:
        """Every process's clients at the seats of ``table_ids``."""
        if not table_ids:
            return []
        with self.engine.connect() as c:
            rows = c.execute(sa.select(presence_t, _DB_NOW.label("now")).where(presence_t.c.table_id.in_(table_ids))).all()
        return [Presence(str(r.table_id), int(r.seat), str(r.holder), int(r.conns), float(r.seen), float(r.now)) for r in rows]

    def log_lengths(self, table_ids: list[str]) -> dict[str, int]:
        """The number of stored log entries of each of ``table_ids`` (tables without any are left out)."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(sa.select(log_t.c.table_id, sa.func.max(log_t.c.idx)).where(log_t.c.table_id.in_(table_ids))
                             .group_by(log_t.c.table_id)).all()
        return {str(r[0]): int(r[1]) + 1 for r in rows}

    # ------------------------------------------------------------------ reads
    def entries_from(self, table_id: str, idx: int) -> list[LogEntry]:
        """The table's log entries from ``idx`` on, in order (what another process stored since this one read up to ``idx``)."""
        with self.engine.connect() as c:
            return [LogEntry(r.idx, r.kind, r.seat, json.loads(r.data), float(r.created)) for r in
                    c.execute(sa.select(log_t).where(log_t.c.table_id == table_id, log_t.c.idx >= idx).order_by(log_t.c.idx))]

    def clock_seats(self, table_id: str) -> list[ClockSeat]:
        """The table's stored turn clocks by seat (seats never timed yet are missing)."""
        with self.engine.connect() as c:
            return [ClockSeat(int(r.seat), float(r.reserve), int(r.streak)) for r in
                    c.execute(sa.select(clocks_t).where(clocks_t.c.table_id == table_id).order_by(clocks_t.c.seat))]

    def seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats by number (empty for an unknown id)."""
        with self.engine.connect() as c:
            return [SeatRow(r.seat, r.name, r.kind, r.token, bool(r.claimed)) for r in
                    c.execute(sa.select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))]

    def review(self, table_id: str) -> dict[str, Any] | None:
        """The stored review of a table's match, or ``None``."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(reviews_t.c.data).where(reviews_t.c.table_id == table_id)).first()
        if r is None:
            return None
        out: dict[str, Any] = json.loads(r.data)
        return out

    def table(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[LogEntry]] | None:
        """The table, its seats by number and its whole log in order, or ``None`` for an unknown id."""
        with self.engine.connect() as c:
            t = c.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if t is None:
                return None
            seats = [_seat_row(r) for r in
                     c.execute(sa.select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))]
            log = [LogEntry(r.idx, r.kind, r.seat, json.loads(r.data), float(r.created)) for r in
                   c.execute(sa.select(log_t).where(log_t.c.table_id == table_id).order_by(log_t.c.idx))]
        return _table_row(t), seats, log

    def waiting_tables(self) -> list[tuple[TableRow, list[SeatRow]]]:
        """The public tables with a seat nobody took yet (the lobby's, read at start), oldest first."""
        with self.engine.connect() as c:
            free = sa.select(seats_t.c.table_id).where(seats_t.c.claimed == sa.false(), seats_t.c.kind == "human")
            rows = c.execute(sa.select(tables_t).where(tables_t.c.public == sa.true(), tables_t.c.id.in_(free))
                             .order_by(tables_t.c.created)).all()
            out: list[tuple[TableRow, list[SeatRow]]] = []
            for t in rows:
                seats = [_seat_row(r) for r in
                         c.execute(sa.select(seats_t).where(seats_t.c.table_id == t.id).order_by(seats_t.c.seat))]
                out.append((_table_row(t), seats))
        return out

    def fill_seats(self, table_id: str, level: str, names: dict[int, str]) -> list[int]:
        """Computers of ``level`` take the table's seats nobody took yet (``names``: the name for each such seat), each in
        one conditional UPDATE (``... WHERE claimed is false``: a join at the same moment wins its seat or loses it whole),
        and the table's fill time is cleared (and ``P`` NOTIFYed when any was). Returns the seats filled.

        Raises:
            SQLAlchemyError: when the database refuses (nothing is changed).
        """
        filled: list[int] = []
        with self.engine.begin() as c:
            for seat, name in sorted(names.items()):
                done = c.execute(seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                                                        seats_t.c.claimed == sa.false())
                                 .values(kind=level, token=None, claimed=True, name=name)).rowcount
                if done == 1:
                    filled.append(seat)
            c.execute(tables_t.update().where(tables_t.c.id == table_id).values(fill_at=None))
            if filled:  # many processes: a copy loaded elsewhere (whose own fill took none) reads the computers' seats
                self.notify_seats(c, table_id)
        return filled

    def set_fill(self, table_id: str, level: str, at: float) -> None:
        """Set when computers of ``level`` take the table's free seats (epoch s)."""
        with self.engine.begin() as c:
            c.execute(tables_t.update().where(tables_t.c.id == table_id).values(fill_level=level, fill_at=at))

    def exists(self, table_id: str) -> bool:
        """Whether a table with this id is stored."""
        with self.engine.connect() as c:
            return c.execute(sa.select(tables_t.c.id).where(tables_t.c.id == table_id)).first() is not None

    def account_named(self, name: str) -> int | None:
        """The id of the account called ``name`` (letter case and outer spaces aside), or ``None``: a person may take
        that name only logged in as it."""
        key = name.strip().casefold()
        if not key or len(key) > 40:
            return None
        with self.engine.connect() as c:
            r = c.execute(sa.select(accounts_t.c.id).where(accounts_t.c.name_key == key)).first()
        return None if r is None else int(r.id)

    def seats_of_account(self, account_id: int, limit: int = 500) -> list[tuple[str, int, str]]:
        """``(table id, seat, token)`` of the seats bound to an account, the newest tables first (at most ``limit``)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.token)
                             .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                             .where(seats_t.c.account_id == account_id).order_by(tables_t.c.created.desc()).limit(limit)).all()
        return [(r.table_id, int(r.seat), str(r.token or "")) for r in rows]

    def tables_of_tokens(self, tokens: list[str]) -> list[tuple[str, int, str]]:
        """``(table id, seat, token)`` for each known token among ``tokens``."""
        if not tokens:
            return []
        with self.engine.connect() as c:
            rows = c.execute(sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.token)
                             .where(seats_t.c.token.in_(tokens))).all()
        return [(r.table_id, int(r.seat), str(r.token)) for r in rows]


def _account_exists(account_id: int) -> sa.ColumnElement[bool]:
    """The condition that the account ``account_id`` exists (in a statement: read where it runs)."""
    return sa.exists().where(accounts_t.c.id == account_id)


def _account_kept(c: sa.Connection, account_id: int) -> bool:
    """Whether the account exists, its row locked to share until the transaction ends (PostgreSQL; SQLite locks the whole
    database at a transaction's first write): a deletion, which locks the row first (:meth:`AccountStore.delete`),
    waits for this transaction, or this one for it and finds the account gone."""
    return c.execute(sa.select(accounts_t.c.id).where(accounts_t.c.id == account_id).with_for_update(read=True)).first() is not None


def _named_review(review: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``review`` (search/review_schema.json) with its ``names`` and each seat's ``name`` those of ``names`` (by seat)."""
    out = dict(review)
    if isinstance(out.get("names"), list):
        out["names"] = [names[i] if i < len(names) else n for i, n in enumerate(out["names"])]
    if isinstance(out.get("seats"), list):
        out["seats"] = [{**s, "name": names[s["seat"]]} if isinstance(s, dict) and "name" in s and isinstance(s.get("seat"), int)
                        and 0 <= s["seat"] < len(names) else s for s in out["seats"]]
    return out


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(int(r.seat), r.name, r.kind, r.token, bool(r.claimed), None if r.account_id is None else int(r.account_id))
def _table_row(t: Any) -> TableRow:
    """A ``sm_tables`` row as a :class:`TableRow`."""
    return TableRow(t.id, t.name, t.rules, int(t.seed), bool(t.practice), int(t.away_timeout), float(t.created),
                    bool(t.public), int(t.clock_turn), int(t.clock_reserve), t.fill_level,
                    None if t.fill_at is None else float(t.fill_at), bool(t.name_default))


DATABASE_KINDS = "SQLite (sqlite:///path/to/file.sqlite3) or PostgreSQL (postgresql+psycopg://user:password@host/dbname)"
"""The databases :class:`Store` takes, as ``serve --db`` names them."""

_DRIVERS = {"sqlite": ("", "pysqlite"), "postgresql": ("", "psycopg")}  # the drivers the ``web`` extra installs


def url_refusal(url: str) -> str | None:
    """Why ``url`` is no database URL that :class:`Store` takes (it quoted, password hidden), or ``None``: SQLite or
    PostgreSQL through psycopg (:data:`DATABASE_KINDS`)."""
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", url)
    said = f"cannot use the database URL {_hide(url)!r}"
    if m is None:
        return f"{said}: it is not a URL (no 'kind://'); serve takes {DATABASE_KINDS}"
    backend, _, driver = m.group(1).lower().partition("+")
    if backend not in _DRIVERS:
        return f"{said}: serve takes {DATABASE_KINDS}, not {m.group(1)!r}"
    if driver not in _DRIVERS[backend]:
        return f"{said}: the driver {driver!r} is not installed with serve; it takes {DATABASE_KINDS}"
    return None


def _hide(url: str) -> str:
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a URL SQLAlchemy cannot read: its password hidden by hand
        return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
