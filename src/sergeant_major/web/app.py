"""The FastAPI app (:func:`create_app`): the pages, the HTTP API and the websocket endpoint (see ``docs/web.md``).

The routes only read requests and answer them: what a message means is the :class:`~sergeant_major.web.hub.Hub`'s (the
loaded tables and the server's own actions: :mod:`.runner`; the clients: :mod:`.connections`), what a message may hold
is checked by :mod:`.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from sergeant_major.core.rules import Rules
from sergeant_major.players import LEVELS
from sergeant_major.records import dumps_record
from sergeant_major.web.account_api import add_account_routes, cross_site, session_of
from sergeant_major.web.accounts import SESSION_COOKIE, AccountStore, Session
from sergeant_major.web.bodies import request_json
from sergeant_major.web.chat import CHAT_PHRASES
from sergeant_major.web.clocks import CLOCK_CHOICES
from sergeant_major.web.cluster import Cluster
from sergeant_major.web.connections import Conn
from sergeant_major.web.hub import Hub
from sergeant_major.web.lobby import MAX_WAIT, Lobby, lobby_request
from sergeant_major.web.protocol import (
    PONG,
    TABLE_ID_RE,
    TableRefused,
    error_message,
    history_tokens,
    new_table_json,
    parse_new_table,
    quote,
    read_json,
)
from sergeant_major.web.ratings import LobbyRatings, was_rated
from sergeant_major.web.review import ReviewJobs
from sergeant_major.web.session_sockets import SessionSockets
from sergeant_major.web.store import Store, default_db_url
from sergeant_major.web.tables import GameTable, end_json, history_game, match_length, name_levels, ranked_winners, replay_steps

__all__ = ["create_app", "create_table", "STATIC"]

STATIC = Path(__file__).with_name("static")


def create_table(store: Store, body: Any, account: int | None = None, account_name: str | None = None) -> dict[str, Any]:
    """Create a table from the home page's form (``body``: the request's JSON) and store it; the answer to
    ``POST /api/tables`` (:func:`~sergeant_major.web.protocol.new_table_json`). With ``account`` (the creator is logged
    in) the creator's seat (the first *me* seat) is bound to that account, named ``account_name`` unless the form
    names it (an account's name only that seat's, when it is the creator's).

    Raises:
        TableRefused: (a ``ValueError``, with its code) with a message for the user quoting the bad input; nothing is
            stored then.
        SQLAlchemyError: when the database refuses the table.
    """
    new = parse_new_table(body, account_name if account is not None else None, account, store.account_named)
    if account is not None and new.mine:
        first = min(new.mine)
        new = replace(new, seats=[replace(s, account=account) if s.seat == first else s for s in new.seats])
    store.create_table(new.row, new.seats)
    return new_table_json(new)


def create_app(db_url: str | None = None, delay: float = 0.0, store: Store | None = None, check_every: float = 1.0,
               cluster: bool | None = None, review_jobs: int | None = None) -> FastAPI:
    """The web app.

    Args:
        db_url: SQLAlchemy URL (default: an SQLite file in the user data directory).
        delay: seconds computers wait before each decision (0 in tests).
        store: an already migrated store (overrides ``db_url``).
        check_every: seconds between checks for absent players (stand-ins).
        cluster: run as one of many processes on the database (:mod:`.cluster`); default: on PostgreSQL, so that any
            number of processes may share it.
        review_jobs: threads a finished match's background review runs in (default: the cores less one,
            :func:`sergeant_major.web.review.review_jobs`).

    Raises:
        ValueError: ``review_jobs`` below 1.
    """
    if store is None:
        store = Store(db_url or default_db_url())
        store.migrate()
    hub = Hub(store, delay)
    hub.reviews = ReviewJobs(store, review_jobs)
    lobby = Lobby(hub, ratings=LobbyRatings(store))
    many = store.notify if cluster is None else cluster
    if many and not store.notify:
        raise ValueError("many processes need PostgreSQL (LISTEN/NOTIFY): SQLite serves one process")
    shared = Cluster(hub) if many else None
    accounts = AccountStore(hub.store)
    sockets = SessionSockets()  # the open websockets of each login session: closed when it ends

    async def check_sessions() -> None:
        """Close the websockets whose session ended elsewhere (another process, or expired)."""
        watched = sockets.confirmed()
        if watched:
            live = await asyncio.to_thread(accounts.live_sessions, watched)
            await sockets.end(watched - live)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async def watch() -> None:
            while True:
                await asyncio.sleep(check_every)
                try:
                    await hub.check_away()
                    await check_sessions()
                    await asyncio.to_thread(hub.store.checkpoint)
                except Exception:  # noqa: BLE001 - the watcher must never stop
                    pass

        # database writes run in worker threads: enough of them that commits of many tables overlap
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=32, thread_name_prefix="sm-db"))
        await lobby.start()
        task = asyncio.create_task(watch())
        if shared is not None:
            shared.start()
        # many processes: each lobby reads the tables the others open, join and fill
        lobby_watch = asyncio.create_task(lobby.watch()) if shared is not None else None
        try:
            yield
        finally:
            task.cancel()
            if shared is not None:
                await shared.stop()
            pending = [task, *hub.background_tasks(), *lobby.tasks(), *([lobby_watch] if lobby_watch else [])]
            for run in pending:
                run.cancel()
            # waited for, so that none is still cleaning up (or writing) once the app is gone and its store closed
            await asyncio.gather(*pending, return_exceptions=True)
            if hub.reviews is not None:
                hub.reviews.shutdown()

    app = FastAPI(title="Sergeant Major", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.lobby = lobby
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/")
    async def home() -> FileResponse:
        return page("index.html")

    async def table_page_of(table_id: str, name: str) -> FileResponse:
        """The page ``name`` of a table: HTTP 404 for an unknown id (the page itself still says "no such table")."""
        known = table_id in hub.tables or (TABLE_ID_RE.match(table_id) is not None and await asyncio.to_thread(hub.store.exists, table_id))
        resp = page(name)
        if not known:
            resp.status_code = 404
        return resp

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return await table_page_of(table_id, "table.html")  # its websocket is closed with 4404 for an unknown id

    @app.get("/api/health")
    async def health() -> Response:
        """200 ``{"ok": true}`` when this process can read its database (with many processes also ``"process"``: this
        one's id, as in the leases), else 503 (a proxy's health check)."""
        try:
            await asyncio.to_thread(hub.store.ping)
        except SQLAlchemyError as e:
            return JSONResponse({"ok": False, "error": f"the database cannot be read ({type(e).__name__})"}, status_code=503)
        return JSONResponse({"ok": True, **({"process": hub.holder} if hub.holder is not None else {})})

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/history")
    async def history_page() -> FileResponse:
        return page("history.html")

    @app.get("/replay/{table_id}")
    async def replay_page(table_id: str) -> FileResponse:
        return await table_page_of(table_id, "replay.html")  # its /api/tables/ID/replay says why, also for an unknown id

    app.state.accounts = accounts
    app.state.sockets = sockets
    add_account_routes(app, hub, accounts, page, sockets)

    async def session_socket(websocket: WebSocket, on_end: Callable[[], None] | None = None) -> tuple[str | None, Session | None]:
        """The session of a websocket's cookie (``None``: a guest), its websocket counted under it first (so that a
        session ended while it is read still closes it: :mod:`.session_sockets`); returns the key it is counted under."""
        key = sockets.add(websocket.cookies.get(SESSION_COOKIE), websocket, on_end)
        if key is None:
            return None, None
        try:
            session = await asyncio.to_thread(accounts.session, websocket.cookies.get(SESSION_COOKIE))
        except SQLAlchemyError:
            session = None
        if sockets.is_ended(websocket):  # ended while it was read: closed already (the caller stops)
            return key, None
        if session is None:  # a stale cookie: a guest's websocket, never closed as logged out
            sockets.remove(key, websocket)
            return None, None
        sockets.confirm(key, websocket)
        return key, session

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {"presets": list(Rules.preset_names()), "levels": list(LEVELS), "clocks": [list(c) for c in CLOCK_CHOICES],
                "max_wait": MAX_WAIT, "chat": list(CHAT_PHRASES)}

    @app.get("/lobby")
    async def lobby_page() -> FileResponse:
        return page("lobby.html")

    @app.get("/api/lobby")
    async def lobby_now() -> dict[str, Any]:
        """The lobby message (the waiting public tables) once; ``/ws/lobby`` pushes it at every change."""
        return lobby.message()

    async def lobby_form(request: Request, kind: str) -> Response:
        """``POST /api/lobby/open``, ``/quick`` or ``/join``: the seat taken (``id``, ``seat``, ``token``, ``url``,
        ``lobby_v``), or 400 with the refusal (``error`` quoting the bad input, ``code``), 503 when not stored."""
        body = await request_json(request)
        if isinstance(body, Response):
            return body
        # logged in: the seat is the account's, under its name (rated, history on any device); cross-site: a guest's
        session = None if cross_site(request) is not None else await session_of(accounts, request)
        if session is not None and isinstance(body, dict):
            body = {**body, "name": session.name}
        account = None if session is None else session.account_id
        try:
            # a worker thread: the name is looked up among the accounts (a guest may not take one's)
            req = await asyncio.to_thread(lobby_request, body, "open" if kind == "open" else "quick" if kind == "quick" else "join",
                                          hub.store.account_named, account)
            seated = await (lobby.open(req, account) if kind == "open" else lobby.quick(req, account) if kind == "quick"
                            else lobby.join(req, account=account))
        except TableRefused as e:
            return JSONResponse({"error": str(e), "code": e.code}, status_code=400)
        except SQLAlchemyError as e:
            return JSONResponse({"error": f"the table could not be stored ({type(e).__name__}); nothing was changed",
                                 "code": "storage"}, status_code=503)
        return JSONResponse(seated.json())

    @app.post("/api/lobby/open")
    async def lobby_open(request: Request) -> Response:
        return await lobby_form(request, "open")

    @app.post("/api/lobby/quick")
    async def lobby_quick(request: Request) -> Response:
        return await lobby_form(request, "quick")

    @app.post("/api/lobby/join")
    async def lobby_join(request: Request) -> Response:
        return await lobby_form(request, "join")

    @app.websocket("/ws/lobby")
    async def lobby_ws(websocket: WebSocket) -> None:
        """The lobby pushed at every change; a client may send ``{"type": "ping"}`` (answered ``pong``), nothing else."""
        await websocket.accept()
        key, _session = await session_socket(websocket)  # the lobby shows the same to all; closed at its session's end
        if sockets.is_ended(websocket):
            sockets.remove(key, websocket)
            return
        await lobby.add(websocket)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect" or sockets.is_ended(websocket):
                    break
                text = message.get("text") or ""
                try:
                    msg = read_json(text[:4096])
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and msg.get("type") == "ping" and len(msg) == 1:
                    await websocket.send_text(json.dumps(PONG))
                else:
                    if isinstance(msg, dict) and "token" in msg:  # a token is a secret: never quoted back
                        msg = {**msg, "token": "<hidden>"}
                    said = quote(msg) if msg is not None else quote(text[:80])
                    await websocket.send_text(json.dumps(error_message(
                        "bad_message", f"the lobby takes only {{\"type\": \"ping\"}}, not {said}; nothing was changed")))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            lobby.drop(websocket)
            sockets.remove(key, websocket)

    @app.post("/api/tables")
    async def create(request: Request) -> Response:
        body = await request_json(request)
        if isinstance(body, Response):
            return body
        # a logged-in creator's seat is bound to the account; a cross-site request makes a guest's table
        session = None if cross_site(request) is not None else await session_of(accounts, request)
        try:
            # a commit: never on the event loop
            out = await asyncio.to_thread(create_table, hub.store, body, None if session is None else session.account_id,
                                          None if session is None else session.name)
        except TableRefused as e:  # the code (and seat) for the page to write the refusal in its language
            return JSONResponse({"error": str(e), "code": e.code, **({"seat": e.seat} if e.seat else {})}, status_code=400)
        except ValueError as e:
            return JSONResponse({"error": str(e), "code": "other"}, status_code=400)
        except SQLAlchemyError as e:
            return JSONResponse({"error": f"the table could not be stored ({type(e).__name__})", "code": "storage"},
                                status_code=503)
        return JSONResponse(out)

    @app.post("/api/history")
    async def history(request: Request) -> Response:
        body = await request_json(request, '; send {"tokens": [...]}')
        if isinstance(body, Response):
            return body
        try:
            tokens = history_tokens(body)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        found = await asyncio.to_thread(hub.store.tables_of_tokens, tokens[:500])
        session = await session_of(accounts, request)
        if session is not None:  # a logged-in player's seats on any device, with their tokens (continue takes the seat)
            known = {tid for tid, _s, _t in found}
            found += [f for f in await asyncio.to_thread(hub.store.seats_of_account, session.account_id) if f[0] not in known]
        # the tables in memory are read here, on the event loop that changes them; the others (up to 500 whole matches)
        # are replayed from the database in a worker thread, which reads only the store and keeps nothing
        games = [history_game(gt, seat, tok) for tid, seat, tok in found if (gt := hub.tables.get(tid)) is not None]
        rest = [(tid, seat, tok) for tid, seat, tok in found if tid not in hub.tables]

        def replay_rest() -> list[dict[str, Any]]:
            return [history_game(gt, seat, tok) for tid, seat, tok in rest if (gt := hub.replayed(tid)) is not None]

        games += await asyncio.to_thread(replay_rest)
        games.sort(key=lambda g: -float(g["created"]))
        return JSONResponse({"games": games})

    def finished(table_id: str) -> GameTable | Response:
        gt = hub.peek(table_id)
        if gt is None:
            return JSONResponse({"error": f"there is no table {table_id[:40]!r}"}, status_code=404)
        if not gt.match.over:
            return JSONResponse({"error": "the record is shown once the match is over (it holds every hand)"}, status_code=403)
        return gt

    # record and replay replay a whole match (0.1 s for 18 deals): plain functions, which FastAPI runs in worker
    # threads, so that requests for them never hold up the tables' websockets
    @app.get("/api/tables/{table_id}/record")
    def record(table_id: str) -> Response:
        gt = finished(table_id)
        if isinstance(gt, Response):
            return gt
        return Response(dumps_record(gt.record()), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="sergeant-major-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    def replay(table_id: str) -> Response:
        gt = finished(table_id)
        if isinstance(gt, Response):
            return gt
        # rated: as stored when its ratings were written (a deleted account since changes nothing), else the rule's answer
        rated = was_rated(store, table_id) or gt.rated()
        return JSONResponse({"names": [s.name for s in gt.seats], "name_levels": name_levels(gt.seats), "rules": str(gt.rules), "practice": gt.row.practice,
                             "length": match_length(gt.rules), "rated": rated, "steps": replay_steps(gt), "end": end_json(gt.match.end, ranked_winners(gt)) if gt.match.end else None})

    @app.get("/api/tables/{table_id}/review")
    def review(table_id: str) -> Response:
        """The review of a finished match (search/review_schema.json): 200 ``{"status": "ready", "review"}``, or 202
        ``{"status": "queued" | "running", "done", "total"}`` while it is computed (started now if it was not),
        500 ``{"status": "failed", "error"}`` (asked again, it is tried again)."""
        gt = finished(table_id)
        if isinstance(gt, Response):
            return gt
        jobs = hub.reviews
        assert jobs is not None
        got = jobs.status(table_id)
        if got is None or got["status"] == "failed":
            if got is not None:
                jobs.forget_failed(table_id)
            hub.review_match(gt)
            got = got if got is not None else jobs.status(table_id) or {"status": "queued", "done": 0, "total": 0}
        code = 200 if got["status"] == "ready" else 500 if got["status"] == "failed" else 202
        return JSONResponse(got, status_code=code)

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        c = Conn(websocket, table_id)

        def session_ended() -> None:  # at once: no card played, no chat sent, no seat bound for the account any more
            c.account, c.joined = None, False

        # a logged-in player's seat is bound to the account at its join
        key, session = await session_socket(websocket, session_ended)
        if sockets.is_ended(websocket):  # its session ended while it was read: closed already
            sockets.remove(key, websocket)
            return
        c.account = None if session is None else session.account_id
        try:
            gt = await hub.fetch(table_id)
        except SQLAlchemyError as e:  # the database cannot be read: said, and the client may try again (1011: server error)
            await hub.clients.send(c, error_message("storage", f"the table could not be read ({type(e).__name__}); try again later"))
            await websocket.close(code=1011)
            sockets.remove(key, websocket)
            return
        if gt is None:
            await hub.clients.send(c, error_message("unknown_table", f"there is no table {table_id[:40]!r}"))
            await websocket.close(code=4404)
            sockets.remove(key, websocket)
            return
        if sockets.is_ended(websocket):  # its session ended while the table was read: closed already
            sockets.remove(key, websocket)
            return
        hub.clients.add(c)
        try:  # the server's own actions that are due (after a restart) are taken at the join, once it can be shown them
            while True:
                message = await websocket.receive()
                if sockets.is_ended(websocket):  # a message sent as the session ended is not acted on
                    break
                if message["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
                text = message.get("text")
                if text is None:  # a binary frame: answered like any other malformed message, the connection kept
                    size = len(message.get("bytes") or b"")
                    await hub.clients.send(c, error_message("bad_message", f"a binary frame ({size} bytes) is not accepted: send "
                                                                           "each message as JSON text (a text frame)"))
                    continue
                try:
                    await hub.handle(c, text)
                except WebSocketDisconnect:
                    raise
                except Exception as e:  # noqa: BLE001 - one bad message must never take the table down
                    await hub.clients.send(c, error_message("server", f"the message could not be handled ({type(e).__name__})"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sockets.remove(key, websocket)
            was = c.seat
            hub.clients.drop(c)
            with contextlib.suppress(SQLAlchemyError):
                await hub.left(table_id)  # many processes: the others learn the seat is gone; a lease unused is given up
            async with hub.lock(table_id):
                g = hub.tables.get(table_id)
                if g is not None and not hub.clients.conns.get(table_id):
                    hub.reload(table_id, g)  # nobody at the table: free the memory; the database has it all
                elif g is not None and was is not None:
                    await hub.clients.broadcast(g)

    return app
