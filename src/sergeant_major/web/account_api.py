"""The account, leaderboard and player routes (:func:`add_account_routes`; see ``docs/web.md``, *Accounts and ratings*).

Cross-site requests: every state-changing post here is refused (HTTP 403, nothing changed) when the browser says it
comes from another site (``Sec-Fetch-Site: cross-site`` or ``same-site``, or an ``Origin`` whose host is not this
server's); the posts of a logged-in browser (log out, change the password, delete) also need the session's CSRF token in the
``X-CSRF-Token`` header (given by ``GET /api/account`` to the site's own pages only: a JSON answer other sites cannot read).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.core.safetext import normal_name
from sergeant_major.web.accounts import (
    DEVICE_COOKIE,
    DEVICE_SECONDS,
    SESSION_COOKIE,
    SESSION_SECONDS,
    AccountRefused,
    AccountStore,
    Session,
    Throttled,
    name_refusal,
    token_hash,
)
from sergeant_major.web.bodies import request_json
from sergeant_major.web.hub import Hub
from sergeant_major.web.player_stats import player_stats
from sergeant_major.web.ratings import COMPUTER_RATINGS, RATED_PRESETS, Rating, leaderboard
from sergeant_major.web.session_sockets import SessionSockets
from sergeant_major.web.tables import person_name_refusal

__all__ = ["add_account_routes", "cross_site", "session_of", "AccountOut", "ErrorOut", "LeaderboardOut", "PlayerOut"]


class AccountOut(BaseModel):
    """Who is logged in on this browser (``name`` and ``csrf`` are ``null`` for a guest)."""

    name: str | None
    csrf: str | None


class ErrorOut(BaseModel):
    """A refusal: the reason quoting the bad input, a code for the page, and for a throttled login the seconds to wait
    and the user name throttled (``null`` when the address's failures at any names are too many)."""

    error: str
    code: str
    retry_after: int | None = None
    name: str | None = None


class RatingOut(BaseModel):
    """One row of the leaderboard: an account's (or a computer level's) rating."""

    name: str
    computer: bool
    rating: float = Field(description="the rating shown: mu")
    interval: float = Field(description="shown as rating ± interval: 2 sigma")
    mu: float
    sigma: float
    matches: int
    wins: int
    provisional: bool


class LeaderboardOut(BaseModel):
    """``GET /api/leaderboard``: the presets, the one shown, its accounts by rating and the computers' fixed ratings."""

    presets: list[str]
    preset: str
    players: list[RatingOut]
    computers: list[RatingOut]


class PlayerOut(BaseModel):
    """``GET /api/players/NAME``: see :func:`~sergeant_major.web.player_stats.player_stats`."""

    name: str
    start: float = Field(description="a new account's rating, where the chart's lines start")
    ratings: dict[str, dict[str, Any]]
    history: list[dict[str, Any]]
    matches: int
    wins: int
    in_play: int
    left: int
    roles: list[dict[str, Any]]
    dealer_target: dict[str, int]
    contracts: list[dict[str, Any]]
    recent: list[dict[str, Any]]


def cross_site(request: Request) -> str | None:
    """Why a state-changing request is refused as coming from another site, or ``None``: ``Sec-Fetch-Site`` other than
    ``same-origin`` or ``none``, or an ``Origin`` whose host and port are not the request's ``Host``."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"a request from another site (Sec-Fetch-Site: {site[:40]!r}) is refused; nothing was changed"
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
            return f"a request from another origin ({origin[:80]!r}) is refused; nothing was changed"
    return None


def _secure(request: Request) -> bool:
    """Whether the browser reached us over https (directly, or through a proxy that says so in X-Forwarded-Proto)."""
    proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or proto == "https"


async def session_of(accounts: AccountStore, request: Request) -> Session | None:
    """The session of the request's cookie, or ``None`` (a guest; also when the database cannot be read)."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    try:
        return await asyncio.to_thread(accounts.session, token)
    except SQLAlchemyError:
        return None


def _refused(code: str, message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "code": code, **extra}, status_code=status)


def _rating_out(name: str, r: Rating) -> dict[str, Any]:
    return {"name": name, "computer": r.computer, **r.shown(), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
            "matches": r.matches, "wins": r.wins, "provisional": r.provisional}


def add_account_routes(app: FastAPI, hub: Hub, accounts: AccountStore, page: Callable[[str], FileResponse],
                       sockets: SessionSockets) -> None:
    """Add the pages ``/account``, ``/leaderboard``, ``/players/NAME`` and their API to ``app`` (``page(file)``: a
    static page's response; ``sockets``: the open websockets of each session, closed when it ends)."""
    responses: dict[int | str, dict[str, Any]] = {c: {"model": ErrorOut} for c in (400, 401, 403, 404, 413, 429, 503)}

    async def json_body(request: Request) -> dict[str, Any] | Response:
        body = await request_json(request)
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict):
            return _refused("body", f"the request body must be a JSON object, not {str(body)[:60]!r}")
        return body

    def fields(body: dict[str, Any], allowed: tuple[str, ...]) -> Response | None:
        extra = sorted(set(body) - set(allowed))
        if extra:
            return _refused("body", f"unknown field(s) {', '.join(repr(x[:40]) for x in extra[:5])} (send {', '.join(allowed)})")
        missing = [k for k in allowed if k not in body]
        if missing:
            return _refused("body", f"missing field(s) {', '.join(missing)}")
        return None

    async def logged_in(request: Request, resp: JSONResponse, session: Session, token: str) -> JSONResponse:
        old = request.cookies.get(SESSION_COOKIE)
        if old:  # the session this browser had (another account's, or the same one's) ends: one session a browser
            try:
                await asyncio.to_thread(accounts.logout, old)
            except SQLAlchemyError:
                pass
            else:
                await sockets.end([token_hash(old)])
        resp.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="lax", secure=_secure(request),
                        path="/")
        try:  # this browser remembered for the account: others' wrong passwords never slow its next login
            device = await asyncio.to_thread(accounts.remember, session.account_id, request.cookies.get(DEVICE_COOKIE))
        except SQLAlchemyError:
            return resp
        resp.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_SECONDS, httponly=True, samesite="strict",
                        secure=_secure(request), path="/api/account")
        return resp

    def logged_out(resp: JSONResponse) -> JSONResponse:
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    async def checked_session(request: Request) -> Session | Response:
        """The session of a logged-in same-site post: refused cross-site (403), without a session (401), or without
        its CSRF token (403)."""
        why = cross_site(request)
        if why is not None:
            return _refused("cross_site", why, 403)
        session = await session_of(accounts, request)
        if session is None:
            return _refused("not_logged_in", "you are not logged in: nothing was changed", 401)
        sent = request.headers.get("x-csrf-token", "")
        if not secrets.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode()):
            return _refused("csrf", "the form's CSRF token is missing or wrong (reload the page): nothing was changed", 403)
        return session

    def throttled(e: Throttled) -> JSONResponse:
        """HTTP 429 for too many failed logins, with the seconds to wait (``retry_after``, ``Retry-After``) and the name
        throttled (``name``, as the message quotes it; ``null`` for the address's failures at any names)."""
        return JSONResponse({"error": str(e), "code": "throttled", "retry_after": e.wait, "name": e.name}, status_code=429,
                            headers={"Retry-After": str(e.wait)})

    async def session_and_body(request: Request, allowed: tuple[str, ...]) -> tuple[Session, dict[str, Any]] | Response:
        """The session of a logged-in same-site post (:func:`checked_session`) and its JSON object with only the
        fields ``allowed``, or the refusal."""
        session = await checked_session(request)
        if isinstance(session, Response):
            return session
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        bad = fields(body, allowed)
        return (session, body) if bad is None else bad

    @app.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return page("account.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(preset: str | None = None) -> FileResponse:
        resp = page("leaderboard.html")
        if preset is not None and preset not in RATED_PRESETS:
            resp.status_code = 404  # the page itself says so and offers the presets, from its API call
        return resp

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        resp = page("player.html")
        if await asyncio.to_thread(accounts.account_id, name) is None:
            resp.status_code = 404  # the page itself says so, from its API call
        return resp

    @app.get("/api/account", response_model=AccountOut)
    async def who(request: Request) -> dict[str, Any]:
        s = await session_of(accounts, request)
        return {"name": None, "csrf": None} if s is None else {"name": s.name, "csrf": s.csrf}

    async def name_and_password(request: Request) -> dict[str, Any] | Response:
        """The ``{"name", "password"}`` body of a same-site post, or the refusal (403 cross-site, 400 a bad body)."""
        why = cross_site(request)
        if why is not None:
            return _refused("cross_site", why, 403)
        body = await json_body(request)
        if isinstance(body, Response):
            return body
        bad = fields(body, ("name", "password"))
        return body if bad is None else bad

    @app.post("/api/account/register", response_model=AccountOut, responses=responses)
    async def register(request: Request) -> Response:
        body = await name_and_password(request)
        if isinstance(body, Response):
            return body
        name = body["name"]  # a user name that fits (no spaces) may still be a level's name alone: code computer_name
        like = person_name_refusal("the user name", name) if isinstance(name, str) and name_refusal(name) is None else None
        if like is not None:  # an account's name is its seats': never one the pages write for a computer
            return _refused(like[0], f"{like[1]}; nothing was changed")
        try:
            aid, marked = await asyncio.to_thread(accounts.register_account, name, body["password"])
            session, token = await asyncio.to_thread(accounts.open_session, aid, normal_name(name))  # as stored
        except AccountRefused as e:
            return _refused(e.code, str(e))
        except SQLAlchemyError as e:
            return _refused("storage", f"the account could not be stored ({type(e).__name__}); nothing was changed", 503)
        if marked:  # guests' seats under the new name: "Ann (guest)" in the loaded tables and the lobby too
            await hub.guests_marked(marked)
            lobby = getattr(request.app.state, "lobby", None)
            if lobby is not None:
                lobby.guests_marked(marked)
        return await logged_in(request, JSONResponse({"name": session.name, "csrf": session.csrf}), session, token)

    @app.post("/api/account/login", response_model=AccountOut, responses=responses)
    async def login(request: Request) -> Response:
        body = await name_and_password(request)
        if isinstance(body, Response):
            return body
        addr = request.client.host if request.client is not None else "unknown"
        try:
            session, token = await asyncio.to_thread(accounts.login, body["name"], body["password"], addr,
                                                     request.cookies.get(DEVICE_COOKIE))
        except Throttled as e:
            return throttled(e)
        except AccountRefused as e:
            return _refused(e.code, str(e), 401 if e.code == "login" else 400)
        except SQLAlchemyError as e:
            return _refused("storage", f"the login could not be checked ({type(e).__name__}); nothing was changed", 503)
        return await logged_in(request, JSONResponse({"name": session.name, "csrf": session.csrf}), session, token)

    @app.post("/api/account/logout", response_model=AccountOut, responses=responses)
    async def logout(request: Request) -> Response:
        session = await checked_session(request)
        if isinstance(session, Response):
            return session
        token = request.cookies.get(SESSION_COOKIE, "")
        try:
            await asyncio.to_thread(accounts.logout, token)
        except SQLAlchemyError as e:
            return _refused("storage", f"the session could not be ended ({type(e).__name__})", 503)
        await sockets.end([token_hash(token)])  # this browser's open tables and lobby: logged out at once
        return logged_out(JSONResponse({"name": None, "csrf": None}))

    @app.post("/api/account/password", response_model=AccountOut, responses=responses)
    async def change_password(request: Request) -> Response:
        got = await session_and_body(request, ("current", "new"))
        if isinstance(got, Response):
            return got
        session, body = got
        addr = request.client.host if request.client is not None else "unknown"
        try:
            ended = await asyncio.to_thread(accounts.change_password, session.account_id, body["current"], body["new"], addr,
                                            request.cookies.get(SESSION_COOKIE, ""))
        except Throttled as e:
            return throttled(e)
        except AccountRefused as e:
            return _refused(e.code, str(e), 401 if e.code == "current_password" else 400)
        except SQLAlchemyError as e:
            return _refused("storage", f"the password could not be changed ({type(e).__name__}); nothing was changed", 503)
        await sockets.end(ended)  # the other devices' open tables and lobby: logged out at once (a thief's too)
        return JSONResponse({"name": session.name, "csrf": session.csrf})

    @app.post("/api/account/delete", response_model=AccountOut, responses=responses)
    async def delete(request: Request) -> Response:
        got = await session_and_body(request, ("password",))
        if isinstance(got, Response):
            return got
        session, body = got
        try:
            deleted = await asyncio.to_thread(accounts.delete, session.account_id, body["password"])
        except AccountRefused as e:
            return _refused(e.code, str(e), 401)
        except SQLAlchemyError as e:
            return _refused("storage", f"the account could not be deleted ({type(e).__name__}); nothing was changed", 503)
        await sockets.end(deleted.sessions)  # its browsers' open tables and lobby: logged out at once
        await hub.account_deleted(session.account_id, deleted.tables)  # the loaded tables show the new names, no account
        for conns in hub.clients.conns.values():  # its browsers' open tables: a join there binds no seat to it any more
            for conn in conns:
                if conn.account == session.account_id:
                    conn.account = None
        lobby = getattr(request.app.state, "lobby", None)
        if lobby is not None:  # the waiting tables' seats too (kept in the lobby's memory)
            lobby.forget_account(session.account_id)
        return logged_out(JSONResponse({"name": None, "csrf": None}))

    @app.get("/api/leaderboard", response_model=LeaderboardOut, responses=responses)
    async def board(preset: str = "9-5-2") -> Response:
        if preset not in RATED_PRESETS:
            return _refused("preset", f"there is no rated preset {preset[:40]!r} (the presets: {', '.join(RATED_PRESETS)})")
        rows = await asyncio.to_thread(leaderboard, hub.store, preset)
        comps = sorted(COMPUTER_RATINGS[preset].items(), key=lambda kv: -kv[1][0])
        return JSONResponse({"presets": list(RATED_PRESETS), "preset": preset, "players": [_rating_out(n, r) for n, r in rows],
                             "computers": [_rating_out(level, Rating(mu, sigma, computer=True)) for level, (mu, sigma) in comps]})

    @app.get("/api/players/{name}", response_model=PlayerOut, responses=responses)
    async def player(name: str) -> Response:
        got = await asyncio.to_thread(accounts.account_id, name)
        if got is None:
            return _refused("unknown_player", f"there is no player {name[:40]!r}", 404)
        aid, real = got
        return JSONResponse(await asyncio.to_thread(player_stats, hub.store, aid, real))
