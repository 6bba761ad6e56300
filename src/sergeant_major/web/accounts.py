"""Accounts: register, log in and out, change the password, delete; server-side sessions and the login throttle (see
``docs/web.md``, *Accounts and ratings*).

Passwords are hashed with Argon2id (``pwdlib``'s recommended parameters) and never stored, logged or sent back; a
session's cookie holds a random token whose SHA-256 alone is stored (table ``sm_sessions``), with a CSRF token of its
own. Failed logins are rows of ``sm_login_failures`` (per name, per client network and per pair of both), so that the
throttle holds across restarts and for every process sharing the database; a browser that logged in to an account is
remembered (``sm_devices``) and never slowed by the wrong passwords others send for its name.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import secrets
import time
from dataclasses import dataclass

import sqlalchemy as sa
from pwdlib import PasswordHash
from sqlalchemy.exc import IntegrityError

from sergeant_major.core.safetext import normal_name
from sergeant_major.web.store import (
    Store,
    accounts_t,
    devices_t,
    guest_name,
    login_failures_t,
    rating_history_t,
    ratings_t,
    reviews_t,
    seats_t,
    sessions_t,
)

GuestSeat = tuple[str, int, str]
"""A guest's seat renamed when an account took its name: ``(table id, seat, new name)``."""

__all__ = ["HASHER", "AccountStore", "AccountRefused", "Throttled", "Session", "Deleted", "GuestSeat", "DELETED_NAME", "SESSION_COOKIE", "SESSION_SECONDS",
           "DEVICE_COOKIE", "DEVICE_SECONDS", "MAX_FAILURES", "MAX_ADDRESS_FAILURES", "NAME_SLOW", "NAME_SIEGE", "NAME_DELAY",
           "FAILURE_WINDOW", "client_network", "name_refusal", "password_refusal", "token_hash"]

DELETED_NAME = "deleted player"
SESSION_COOKIE = "sm_session"
SESSION_SECONDS = 30 * 24 * 3600  # a session lasts 30 days from its login
DEVICE_COOKIE = "sm_device"
DEVICE_SECONDS = 365 * 24 * 3600  # a browser stays remembered for a year from its login
FAILURE_WINDOW = 15 * 60.0  # seconds: the failures counted are of the last 15 minutes
MAX_FAILURES = 5  # failures for one name from one network: its next attempt at the name is refused (HTTP 429)
MAX_ADDRESS_FAILURES = 20  # failures from one network, any names: its next attempt at any name is refused
NAME_SLOW = 5  # failures for a name from anywhere: a browser not remembered that failed at it waits NAME_DELAY
NAME_SIEGE = 50  # failures for a name from anywhere (10 networks at their limit): every browser not remembered waits
NAME_DELAY = 30.0  # seconds after the name's newest failure: the per-name limit only slows, never locks out
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
    whole seconds until the next attempt is read (at least 1); ``name`` the user name throttled (at most 60
    characters, as the message quotes it), ``None`` when the address's failures at any names are too many."""

    def __init__(self, wait: int, what: str, window: float = FAILURE_WINDOW, name: str | None = None) -> None:
        period = f"{window / 60:g} minutes" if window >= 60 else f"{window:g} seconds"
        super().__init__(f"Too many wrong passwords {what} in {period} (logins and password changes count alike): "
                         f"try again in {wait} s")
        self.wait = wait
        self.name = name


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


def json_kind(value: object) -> str:
    """What a JSON value that is not text is, with its article, for a message: ``"an integer"``, ``"a number"``,
    ``"a boolean"``, ``"null"``, ``"a list"``, ``"an object"`` (any other value: ``"a value of type X"``)."""
    if value is None:
        return "null"
    kinds = ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (list, "a list"), (dict, "an object"))
    return next((k for t, k in kinds if isinstance(value, t)), f"a value of type {type(value).__name__}")


def not_text(what: str, value: object, shown: bool = True) -> str:
    """The message for the field ``what`` that must be text but is ``value``, quoted (at most 60 characters) when
    ``shown`` (never a password's: its kind alone), as JSON writes it: ``the user name must be text, not an integer (42)``."""
    quoted = f" ({json.dumps(value, ensure_ascii=False, default=repr)[:60]})" if shown and value is not None else ""
    return f"{what} must be text, not {json_kind(value)}{quoted}"


def name_refusal(name: object) -> str | None:
    """Why ``name`` cannot be a user name (quoted as typed), or ``None``: once normalised
    (:func:`~sergeant_major.core.safetext.normal_name`, as stored), 3 to 20 letters or digits, with ``.``, ``_`` or ``-``
    inside."""
    if not isinstance(name, str):
        return not_text("the user name", name)
    if NAME_RE.fullmatch(normal_name(name)) is None:  # the name as stored (:meth:`AccountStore.register_account`)
        return (f"the user name {name[:60]!r} is refused: use 3 to 20 letters or digits (with . _ - inside, "
                "no spaces)")
    return None


def password_refusal(password: object) -> str | None:
    """Why ``password`` cannot be a password (its length, never its text), or ``None``: 8 to 128 characters."""
    if not isinstance(password, str):
        return not_text("the password", password, shown=False)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"the password has {len(password)} characters: use {MIN_PASSWORD} to {MAX_PASSWORD}"
    if not password.strip():
        return "the password is only spaces: choose one with other characters"
    return None


def client_network(addr: str) -> str:
    """The network the throttle counts a client address in: an IPv4 address itself, an IPv6 address's /64 (one
    household or host holds a whole /64), any other text (``testclient``, ``unknown``) itself; at most 60 characters."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr[:60]
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped) if ip.ipv4_mapped is not None else str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _failure_keys(name: str, addr: str) -> tuple[str, str, str]:
    """The ``sm_login_failures`` keys of a failure for ``name`` from ``addr``: the name's, the network's, the pair's."""
    name_key, net = name.casefold()[:60], client_network(addr)
    pair = hashlib.sha256(f"{name_key}\n{net}".encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"name:{name_key}", f"addr:{net}", f"pair:{pair}"


def _device_key(name: str, device: str) -> str:
    """The ``sm_login_failures`` key of a failure for ``name`` on the browser whose ``sm_device`` token is ``device``."""
    return "dev:" + hashlib.sha256(f"{name.casefold()[:60]}\n{device}".encode("utf-8", "surrogatepass")).hexdigest()[:40]


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
        """Make an account; returns its id (see :meth:`register_account`)."""
        return self.register_account(name, password)[0]

    def register_account(self, name: object, password: object) -> tuple[int, list[GuestSeat]]:
        """Make an account; returns its id and the guests' seats renamed in the same transaction: every seat of a
        person bound to no account whose name is the new account's (letter case aside) gets the guest mark
        (``Ann (guest)``), so that no table, lobby, history or replay shows a guest as the account; the stored reviews of
        their tables (which hold the names) are dropped.

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
        name = normal_name(name)  # fullwidth letters or a soft hyphen never make a second "Ann"
        hashed = HASHER.hash(password)
        try:
            with self.engine.begin() as c:
                r = c.execute(accounts_t.insert().values(name=name, name_key=name.casefold(), password_hash=hashed,
                                                         created=time.time()))
                key = r.inserted_primary_key
                marked = self._mark_guests(c, name)
        except IntegrityError:
            raise AccountRefused("name_taken", f"the user name {name!r} is taken (letter case aside): choose another") from None
        assert key is not None
        return int(key[0]), marked

    def _mark_guests(self, c: sa.Connection, name: str) -> list[GuestSeat]:
        """The guests' seats named ``name`` (letter case aside) renamed on ``c`` as guests' (:func:`~.store.guest_name`:
        ``Ann (guest)``, or ``Ann (guest 2)`` where a seat of the table has that name)."""
        key = name.casefold()
        q = sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.name).where(seats_t.c.account_id.is_(None),
                                                                               seats_t.c.kind == "human")
        # ASCII: SQL's lower() finds them (SQLite's folds ASCII only); else the names of that length, folded here
        q = q.where(sa.func.lower(seats_t.c.name) == key) if name.isascii() else q.where(sa.func.length(seats_t.c.name) == len(name))
        found = [(str(r.table_id), int(r.seat), str(r.name)) for r in c.execute(q) if str(r.name).casefold() == key]
        taken: dict[str, set[str]] = {}  # per table, its seats' names (casefolded): a mark never repeats another seat's
        for tid in sorted({tid for tid, _, _ in found}):
            taken[tid] = {str(r.name).casefold() for r in c.execute(sa.select(seats_t.c.name).where(seats_t.c.table_id == tid))}
        marked: list[GuestSeat] = []
        for tid, seat, old in found:
            new = guest_name(old, taken[tid])
            taken[tid].add(new.casefold())
            marked.append((tid, seat, new))
        for tid, seat, new in marked:
            c.execute(seats_t.update().where(seats_t.c.table_id == tid, seats_t.c.seat == seat).values(name=new))
        tids = sorted({tid for tid, _, _ in marked})
        if tids:
            c.execute(reviews_t.delete().where(reviews_t.c.table_id.in_(tids)))
        for tid in tids:  # many processes: the copies loaded elsewhere read the seats renamed
            self.store.notify_seats(c, tid)
        return marked

    def throttle_wait(self, name: str, addr: str, remembered: bool = False, device: str | None = None) -> None:
        """Raise :class:`Throttled` when an attempt at ``name`` from ``addr`` must wait (the failures of the last
        :data:`FAILURE_WINDOW` seconds count):

        - ``device`` (the ``sm_device`` token of a browser remembered for this very account): only
          :data:`MAX_FAILURES` failures for the name on that browser, until the oldest leaves the window; others' wrong
          passwords, from its address or anywhere, never make it wait;
        - :data:`MAX_FAILURES` failures for the name from the address's network (:func:`client_network`), or
          :data:`MAX_ADDRESS_FAILURES` from the network for any names: until the oldest that counts leaves the window;
        - unless ``remembered`` (a browser that logged in to the account, or one logged in to it now), when the name has
          :data:`NAME_SLOW` failures from anywhere and this network failed at it too, or :data:`NAME_SIEGE` failures:
          until :data:`NAME_DELAY` seconds after the name's newest failure. So others' wrong passwords slow a name's
          owner by at most that, and never from a browser that logged in before.
        """
        now = time.time()
        name_key, addr_key, pair_key = _failure_keys(name, addr)
        dev_key = _device_key(name, device) if device is not None else ""
        with self.engine.connect() as c:
            times = {key: sorted(float(r.at) for r in c.execute(sa.select(login_failures_t.c.at).where(
                login_failures_t.c.key == key, login_failures_t.c.at > now - FAILURE_WINDOW)))
                for key in (name_key, addr_key, pair_key, dev_key) if key}
        quoted = name[:60]
        limits = (((dev_key, MAX_FAILURES, f"for the name {quoted!r} on this browser", quoted),) if device is not None else
                  ((pair_key, MAX_FAILURES, f"for the name {quoted!r} from your address", quoted),
                   (addr_key, MAX_ADDRESS_FAILURES, "from your address", None)))
        for key, limit, what, who in limits:
            if len(times[key]) >= limit:
                wait = times[key][len(times[key]) - limit] + FAILURE_WINDOW - now
                raise Throttled(max(1, int(wait + 0.999)), what, name=who)
        named = times[name_key]
        if not remembered and (len(named) >= NAME_SIEGE or (len(named) >= NAME_SLOW and times[pair_key])):
            wait = named[-1] + NAME_DELAY - now
            if wait > 0:
                raise Throttled(max(1, int(wait + 0.999)), f"for the name {quoted!r} from many addresses", NAME_DELAY, quoted)

    def _failed(self, name: str, addr: str, device: str | None = None) -> None:
        now = time.time()
        keys = [*_failure_keys(name, addr), *([_device_key(name, device)] if device is not None else [])]
        with self.engine.begin() as c:
            c.execute(login_failures_t.delete().where(login_failures_t.c.at < now - FAILURE_WINDOW))
            c.execute(login_failures_t.insert(), [{"key": key, "at": now} for key in keys])

    def remembered(self, device: str | None, name: str) -> bool:
        """Whether the ``sm_device`` cookie's token ``device`` is of a browser that logged in to the account called
        ``name`` (letter case aside) and is not expired."""
        if not device or len(device) > 200:
            return False
        with self.engine.connect() as c:
            return c.execute(sa.select(devices_t.c.token_hash).join(accounts_t, accounts_t.c.id == devices_t.c.account_id)
                             .where(devices_t.c.token_hash == token_hash(device), devices_t.c.expires > time.time(),
                                    accounts_t.c.name_key == name.casefold()[:40])).first() is not None

    def remember(self, account_id: int, device: str | None) -> str:
        """Remember this browser for the account: its ``sm_device`` token (``device`` when it is one of the account's
        already, else a new one; a secret: never logged), valid :data:`DEVICE_SECONDS` from now."""
        now = time.time()
        with self.engine.begin() as c:
            c.execute(devices_t.delete().where(devices_t.c.expires < now))
            if device and len(device) <= 200:
                done = c.execute(devices_t.update().where(devices_t.c.token_hash == token_hash(device),
                                                          devices_t.c.account_id == account_id)
                                 .values(expires=now + DEVICE_SECONDS))
                if done.rowcount:
                    return device
            device = secrets.token_urlsafe(32)
            c.execute(devices_t.insert().values(token_hash=token_hash(device), account_id=account_id, created=now,
                                                expires=now + DEVICE_SECONDS))
        return device

    def login(self, name: object, password: object, addr: str, device: str | None = None) -> tuple[Session, str]:
        """Check a name and password and open a session; returns it and its cookie's token (a secret: never logged).
        ``device``: the browser's ``sm_device`` cookie (a browser remembered for this account waits only for its own failures).

        Raises:
            Throttled: too many failures (:meth:`throttle_wait`, checked before the password is).
            AccountRefused: ``body`` for a name or password that is not text, ``login`` for a wrong pair (the same
                message for an unknown name and a wrong password); each counts as a failure.

        The name is found normalised (:func:`~sergeant_major.core.safetext.normal_name`, as registered), or exactly as
        typed (letter case aside) for an account registered before names were normalised.
        """
        if not isinstance(name, str):
            raise AccountRefused("body", not_text("the user name", name))
        if not isinstance(password, str):
            raise AccountRefused("body", not_text("the password", password, shown=False))
        typed, name = name, normal_name(name)  # as registered
        # an account registered before names were normalised (a fullwidth "Ａｎｎ") is stored as typed then: the name
        # typed exactly finds it first, else the name normalised as registered now
        keys = list(dict.fromkeys([typed.casefold()[:40], name.casefold()[:40]]))
        with self.engine.connect() as c:
            rows = {str(r.name_key): r for r in c.execute(sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.name_key,
                                                                    accounts_t.c.password_hash).where(accounts_t.c.name_key.in_(keys)))}
        row = next((rows[k] for k in keys if k in rows), None)
        # remembered for this account (its name as stored: a legacy one too)
        mine = device if device is not None and self.remembered(device, str(row.name) if row is not None else name) else None
        self.throttle_wait(name, addr, mine is not None, mine)
        ok = HASHER.verify(password[:MAX_PASSWORD], row.password_hash if row is not None else _dummy_hash())
        if row is None or not ok:
            self._failed(name, addr, mine)
            raise AccountRefused("login", f"no account has the user name {name[:60]!r} with this password; nothing was changed")
        name_key, _addr_key, pair_key = _failure_keys(name, addr)
        forget = [name_key, pair_key, *([_device_key(name, mine)] if mine is not None else [])]
        with self.engine.begin() as c:  # a good login forgets the name's failures and this network's at it (its others stay)
            c.execute(login_failures_t.delete().where(login_failures_t.c.key.in_(forget)))
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
            Throttled: too many failures for the account's name from ``addr``'s network or from it (checked before the
                password is; logged in, the name's failures from elsewhere never slow it).
        """
        if not isinstance(current, str):
            raise AccountRefused("body", not_text("the current password", current, shown=False))
        why = password_refusal(new)
        if why is not None:
            raise AccountRefused("password", f"the new {why[4:]}; the password was not changed")
        assert isinstance(new, str)
        with self.engine.connect() as c:
            r = c.execute(sa.select(accounts_t.c.name, accounts_t.c.password_hash).where(accounts_t.c.id == account_id)).first()
        if r is None:
            raise AccountRefused("current_password", "the account is gone: the password was not changed")
        self.throttle_wait(str(r.name), addr, remembered=True)
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
            c.execute(login_failures_t.delete().where(login_failures_t.c.key.in_(_failure_keys(str(r.name), addr)[::2])))
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
            c.execute(devices_t.delete().where(devices_t.c.account_id == account_id))
            c.execute(login_failures_t.delete().where(login_failures_t.c.key == f"name:{r.name_key}"))
            c.execute(accounts_t.delete().where(accounts_t.c.id == account_id))
        return Deleted(tids, ended)
