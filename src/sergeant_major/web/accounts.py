"""Accounts: register, log in and out, change the password, delete; server-side sessions and the login throttle (see
``docs/web.md``, *Accounts and ratings*).

Passwords are hashed with Argon2id (``pwdlib``'s recommended parameters) and never stored, logged or sent back; a
session's cookie holds a random token whose SHA-256 alone is stored (table ``sm_sessions``), with a CSRF token of its
own. Failed logins are rows of ``sm_login_failures`` (per name and per client address), so that the throttle holds
across restarts and for every process sharing the database.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

import sqlalchemy as sa
from pwdlib import PasswordHash
from sqlalchemy.exc import IntegrityError

from sergeant_major.web.store import (
    Store,
    accounts_t,
    login_failures_t,
    rating_history_t,
    ratings_t,
    reviews_t,
    seats_t,
    sessions_t,
)

__all__ = ["HASHER", "AccountStore", "AccountRefused", "Throttled", "Session", "Deleted", "DELETED_NAME", "SESSION_COOKIE", "SESSION_SECONDS",
           "MAX_FAILURES", "FAILURE_WINDOW", "name_refusal", "password_refusal", "token_hash"]

DELETED_NAME = "deleted player"
SESSION_COOKIE = "sm_session"
SESSION_SECONDS = 30 * 24 * 3600  # a session lasts 30 days from its login
MAX_FAILURES = 5  # failed logins for a name or from an address within FAILURE_WINDOW: the next is refused (HTTP 429)
FAILURE_WINDOW = 15 * 60.0  # seconds
NAME_RE = re.compile(r"[^\W_][\w.-]{1,18}[^\W_]|[^\W_]{3}")  # 3..20 letters, digits and . _ - inside, a letter or digit at each end
MIN_PASSWORD, MAX_PASSWORD = 8, 128

HASHER = PasswordHash.recommended()
"""The password hasher: Argon2id with pwdlib's recommended parameters (64 MiB, 3 passes). Read at each use, so that
tests may put a cheaper one in its place."""
_DUMMIES: dict[int, str] = {}


def _dummy_hash() -> str:
    """A hash of no one's password, verified for an unknown name so that it takes as long as a real one."""
    got = _DUMMIES.get(id(HASHER))
    if got is None:
        got = _DUMMIES[id(HASHER)] = HASHER.hash("not a password of anyone")
    return got


class AccountRefused(ValueError):
    """A refused account request: ``code`` for the page (``name``, ``password``, ``name_taken``, ``login``,
    ``current_password``, ``body``), the message quoting the bad input (never a password: its length only)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Throttled(Exception):
    """Too many wrong passwords (failed logins and wrong current passwords of a password change alike): ``wait`` is the
    whole seconds until the next attempt is read (at least 1)."""

    def __init__(self, wait: int, what: str) -> None:
        super().__init__(f"Too many wrong passwords {what} in {FAILURE_WINDOW / 60:g} minutes (logins and password changes "
                         f"count alike): try again in {wait} s")
        self.wait = wait


@dataclass(frozen=True)
class Session:
    """A logged-in browser: its account's id and name and the session's CSRF token."""

    account_id: int
    name: str
    csrf: str


@dataclass(frozen=True)
class Deleted:
    """An account deleted: the ids of the tables its seats were at and the token hashes of the sessions that ended."""

    tables: list[str]
    sessions: list[str]


def name_refusal(name: object) -> str | None:
    """Why ``name`` cannot be a user name (quoted), or ``None``: 3 to 20 letters or digits, with ``.``, ``_`` or ``-``
    inside."""
    if not isinstance(name, str):
        return f"the user name must be a text, not {name!r:.60}"
    if NAME_RE.fullmatch(name) is None:
        return (f"the user name {name[:60]!r} is refused: use 3 to 20 letters or digits (with . _ - inside, "
                "no spaces)")
    return None


def password_refusal(password: object) -> str | None:
    """Why ``password`` cannot be a password (its length, never its text), or ``None``: 8 to 128 characters."""
    if not isinstance(password, str):
        return f"the password must be a text, not a {type(password).__name__}"
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"the password has {len(password)} characters: use {MIN_PASSWORD} to {MAX_PASSWORD}"
    if not password.strip():
        return "the password is only spaces: choose one with other characters"
    return None


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a session token: what is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class AccountStore:
    """The accounts, sessions and login failures in the app's database (methods are synchronous: one transaction each).

    Args:
        store: the migrated store.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def register(self, name: object, password: object) -> int:
        """Make an account; returns its id.

        Raises:
            AccountRefused: a bad name or password, or a name taken (letter case aside); nothing is stored then.
        """
        why = name_refusal(name)
        if why is not None:
            raise AccountRefused("name", why)
        why = password_refusal(password)
        if why is not None:
            raise AccountRefused("password", why)
        assert isinstance(name, str) and isinstance(password, str)
        hashed = HASHER.hash(password)
        try:
            with self.engine.begin() as c:
                r = c.execute(accounts_t.insert().values(name=name, name_key=name.casefold(), password_hash=hashed,
                                                         created=time.time()))
                key = r.inserted_primary_key
        except IntegrityError:
            raise AccountRefused("name_taken", f"the user name {name!r} is taken (letter case aside): choose another") from None
        assert key is not None
        return int(key[0])

    def throttle_wait(self, name: str, addr: str) -> None:
        """Raise :class:`Throttled` when the name or the address had :data:`MAX_FAILURES` failed logins within the last
        :data:`FAILURE_WINDOW` seconds; the wait is until the oldest failure that counts leaves the window."""
        now = time.time()
        with self.engine.connect() as c:
            for key, what in ((f"name:{name.casefold()[:60]}", f"for the name {name[:60]!r}"), (f"addr:{addr[:60]}", "from your address")):
                times = sorted(r.at for r in c.execute(sa.select(login_failures_t.c.at).where(
                    login_failures_t.c.key == key, login_failures_t.c.at > now - FAILURE_WINDOW)))
                if len(times) >= MAX_FAILURES:
                    wait = times[len(times) - MAX_FAILURES] + FAILURE_WINDOW - now
                    raise Throttled(max(1, int(wait + 0.999)), what)

    def _failed(self, name: str, addr: str) -> None:
        now = time.time()
        with self.engine.begin() as c:
            c.execute(login_failures_t.delete().where(login_failures_t.c.at < now - FAILURE_WINDOW))
            c.execute(login_failures_t.insert(), [{"key": f"name:{name.casefold()[:60]}", "at": now},
                                                  {"key": f"addr:{addr[:60]}", "at": now}])

    def login(self, name: object, password: object, addr: str) -> tuple[Session, str]:
        """Check a name and password and open a session; returns it and its cookie's token (a secret: never logged).

        Raises:
            Throttled: too many failures for the name or from ``addr`` (checked before the password is).
            AccountRefused: ``body`` for a name or password that is not a text, ``login`` for a wrong pair (the same
                message for an unknown name and a wrong password); each counts as a failure.
        """
        if not isinstance(name, str):
            raise AccountRefused("body", f"the user name must be a text, not {name!r:.60}")
        if not isinstance(password, str):
            raise AccountRefused("body", f"the password must be a text, not a {type(password).__name__}")
        self.throttle_wait(name, addr)
        with self.engine.connect() as c:
            row = c.execute(sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.password_hash)
                            .where(accounts_t.c.name_key == name.casefold()[:40])).first()
        ok = HASHER.verify(password[:MAX_PASSWORD], row.password_hash if row is not None else _dummy_hash())
        if row is None or not ok:
            self._failed(name, addr)
            raise AccountRefused("login", f"no account has the user name {name[:60]!r} with this password; nothing was changed")
        with self.engine.begin() as c:  # a good login forgets the name's failures (the address's stay)
            c.execute(login_failures_t.delete().where(login_failures_t.c.key == f"name:{name.casefold()[:60]}"))
        return self.open_session(int(row.id), str(row.name))

    def open_session(self, account_id: int, name: str) -> tuple[Session, str]:
        """A new session of an account: it and its cookie's token."""
        token, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(24), time.time()
        with self.engine.begin() as c:
            c.execute(sessions_t.delete().where(sessions_t.c.expires < now))
            c.execute(sessions_t.insert().values(token_hash=token_hash(token), account_id=account_id, csrf=csrf, created=now,
                                                 expires=now + SESSION_SECONDS))
        return Session(account_id, name, csrf), token

    def session(self, token: str | None) -> Session | None:
        """The session of a cookie's token, or ``None`` (no token, an unknown or expired one)."""
        if not token or len(token) > 200:
            return None
        with self.engine.connect() as c:
            r = c.execute(sa.select(sessions_t.c.account_id, sessions_t.c.csrf, accounts_t.c.name)
                          .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                          .where(sessions_t.c.token_hash == token_hash(token), sessions_t.c.expires > time.time())).first()
        return None if r is None else Session(int(r.account_id), str(r.name), str(r.csrf))

    def live_sessions(self, hashes: set[str]) -> set[str]:
        """Which of the token ``hashes`` are of sessions still stored and not expired."""
        if not hashes:
            return set()
        with self.engine.connect() as c:
            return {str(r.token_hash) for r in c.execute(sa.select(sessions_t.c.token_hash).where(
                sessions_t.c.token_hash.in_(sorted(hashes)), sessions_t.c.expires > time.time()))}

    def logout(self, token: str) -> None:
        """End a session (its row is deleted)."""
        with self.engine.begin() as c:
            c.execute(sessions_t.delete().where(sessions_t.c.token_hash == token_hash(token)))

    def change_password(self, account_id: int, current: object, new: object, addr: str, keep_token: str) -> list[str]:
        """Check an account's current password and store the Argon2id hash of ``new``; every session of the account but
        the one of ``keep_token`` ends (their token hashes are returned). A wrong current password counts as a failed
        login (the same throttle).

        Raises:
            AccountRefused: ``body`` for a password that is not a text, ``password`` for a new one that does not fit
                (as when registering), ``current_password`` for a wrong current one; nothing is changed then.
            Throttled: too many failed logins for the account's name or from ``addr`` (checked before the password is).
        """
        if not isinstance(current, str):
            raise AccountRefused("body", f"the current password must be a text, not a {type(current).__name__}")
        why = password_refusal(new)
        if why is not None:
            raise AccountRefused("password", f"the new {why[4:]}; the password was not changed")
        assert isinstance(new, str)
        with self.engine.connect() as c:
            r = c.execute(sa.select(accounts_t.c.name, accounts_t.c.password_hash).where(accounts_t.c.id == account_id)).first()
        if r is None:
            raise AccountRefused("current_password", "the account is gone: the password was not changed")
        self.throttle_wait(str(r.name), addr)
        if not HASHER.verify(current[:MAX_PASSWORD], r.password_hash):
            self._failed(str(r.name), addr)
            raise AccountRefused("current_password", "the current password is wrong: the password was not changed")
        hashed = HASHER.hash(new)
        with self.engine.begin() as c:  # the other sessions end with the old password: a thief's stolen cookie too
            c.execute(accounts_t.update().where(accounts_t.c.id == account_id).values(password_hash=hashed))
            ended = [str(x.token_hash) for x in c.execute(sa.select(sessions_t.c.token_hash).where(
                sessions_t.c.account_id == account_id, sessions_t.c.token_hash != token_hash(keep_token)))]
            c.execute(sessions_t.delete().where(sessions_t.c.account_id == account_id,
                                                sessions_t.c.token_hash != token_hash(keep_token)))
            c.execute(login_failures_t.delete().where(login_failures_t.c.key == f"name:{str(r.name).casefold()[:60]}"))
        return ended

    def account_id(self, name: str) -> tuple[int, str] | None:
        """``(id, name as registered)`` of the account called ``name`` (letter case aside), or ``None``."""
        if not isinstance(name, str) or len(name) > 40:
            return None
        with self.engine.connect() as c:
            r = c.execute(sa.select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.name_key == name.casefold())).first()
        return None if r is None else (int(r.id), str(r.name))

    def delete(self, account_id: int, password: object) -> Deleted:
        """Delete an account after checking its password: its password hash, sessions, ratings and their history go;
        its seats keep their tables' records, named :data:`DELETED_NAME` and bound to no account (the stored reviews of
        those tables, which hold the names, are dropped: recomputed when asked). Returns the ids of those tables and the token
        hashes of the sessions ended.

        Raises:
            AccountRefused: ``password`` when it is wrong (nothing is changed).
        """
        with self.engine.connect() as c:
            r = c.execute(sa.select(accounts_t.c.password_hash, accounts_t.c.name_key).where(accounts_t.c.id == account_id)).first()
        if r is None or not isinstance(password, str) or not HASHER.verify(password[:MAX_PASSWORD], r.password_hash):
            raise AccountRefused("password", "the password is wrong: the account was not deleted")
        with self.engine.begin() as c:
            # the account's row locked first (PostgreSQL): a seat bound to it at the same time (Store.bind_seat, create_table
            # lock it to share) is either stored before, and renamed below, or waits and finds the account gone
            c.execute(sa.select(accounts_t.c.id).where(accounts_t.c.id == account_id).with_for_update())
            # the seats renamed and their tables read in one statement (SQLite: the transaction's first write locks it)
            renamed = c.execute(seats_t.update().where(seats_t.c.account_id == account_id).values(name=DELETED_NAME, account_id=None)
                                .returning(seats_t.c.table_id))
            tids = list(dict.fromkeys(str(x.table_id) for x in renamed))
            if tids:
                c.execute(reviews_t.delete().where(reviews_t.c.table_id.in_(tids)))
            for tid in tids:  # many processes: the copies loaded elsewhere read the seats renamed
                self.store.notify_seats(c, tid)
            ended = [str(x.token_hash) for x in c.execute(sa.select(sessions_t.c.token_hash).where(sessions_t.c.account_id == account_id))]
            c.execute(sessions_t.delete().where(sessions_t.c.account_id == account_id))
            c.execute(rating_history_t.delete().where(rating_history_t.c.account_id == account_id))
            c.execute(ratings_t.delete().where(ratings_t.c.account_id == account_id))
            c.execute(login_failures_t.delete().where(login_failures_t.c.key == f"name:{r.name_key}"))
            c.execute(accounts_t.delete().where(accounts_t.c.id == account_id))
        return Deleted(tids, ended)
