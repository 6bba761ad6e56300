"""The HTTP API and the pages: table creation (fields, names, seeds chosen or random), request bodies refused by
their content (lone surrogates, deep nesting) or size (over 64 KiB), ``/api/history`` bodies, the 404 pages of unknown
tables; in-process (TestClient) and through the real server."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import ME_FRIEND_COMPUTER, TWO_COMPUTERS, Server, http_json, json_text, make_hub, new_table, receive  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.web.app import create_app, create_table  # noqa: E402


def test_history_body_errors_and_unknown_table_page(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'h.sqlite3'}")
    with TestClient(app) as cl:
        for bad in ({"tokens": "x"}, {"tokens": [1]}, {"tokens": None}, [1], "x", {}):
            r = cl.post("/api/history", json=bad)
            assert r.status_code == 400 and "tokens" in r.json()["error"], bad
        assert cl.post("/api/history", content=b"{{").status_code == 400
        assert cl.post("/api/history", json={"tokens": []}).json() == {"games": []}
        r = cl.get("/t/nonexist")
        assert r.status_code == 404 and "table.js" in r.text  # the page still explains itself
        r = cl.get("/t/bad$id")
        assert r.status_code == 404
        made = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]})
        assert cl.get(f"/t/{made.json()['id']}").status_code == 200


DEEP = "[" * 990 + "]" * 990


def test_request_bodies_with_a_lone_surrogate_or_deep_nesting_are_refused_with_400(tmp_path: Path) -> None:
    """The repro: ``{"tokens": ["\\ud800"]}`` to ``/api/history`` and a seat kind ``"\\ud800"`` were answered HTTP 500
    (the database or the error message could not encode it), ``[[[...]]]`` too (RecursionError)."""
    db = tmp_path / "s.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app) as cl:
        tables = [json_text({"name": "\ud800", "seats": ME_FRIEND_COMPUTER}),
                  json_text({"seats": [{"kind": "me", "name": "\udfff"}, {"kind": "friend"}, {"kind": "computer"}]}),
                  json_text({"seats": [{"kind": "\ud800"}, {}, {}]}),
                  json_text({"seats": [{"kind": "computer", "level": "\ud83d"}, {}, {}]}),
                  json_text({"seats": ME_FRIEND_COMPUTER, "rules": "9-5-2 \ud800"}),
                  json_text({"seats": ME_FRIEND_COMPUTER})[:-1] + ', "x": ' + DEEP + "}",
                  "[" * 30_000 + "]" * 30_000]  # under the 64 KiB a body may have
        for body in tables:
            r = cl.post("/api/tables", content=body)
            assert r.status_code == 400, (body[:80], r.status_code, r.text)
            assert "not JSON" in r.json()["error"], r.text
        for body in (json_text({"tokens": ["\ud800"]}), json_text({"tokens": "\ud800"}), '{"tokens": ' + DEEP + "}"):
            r = cl.post("/api/history", content=body)
            assert r.status_code == 400 and "not JSON" in r.json()["error"], (body[:80], r.text)
        r = cl.post("/api/tables", content=json_text({"name": "\U0001f44d", "seats": ME_FRIEND_COMPUTER}))  # escaped as a pair: text
        assert r.status_code == 200 and r.json()["id"]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT name FROM sm_tables").fetchall() == [("\U0001f44d",)]


def test_a_tables_random_seed_cannot_be_searched_for(tmp_path: Path) -> None:
    """The repro: the seed of a table made without one was ``secrets.randbits(31)``; every hand and kitty of the match
    follows from it, so a player could try the 2**31 seeds until one deals his own cards (hours on one core in pure
    Python, far less in C or on several cores) and then know the others' hands. Now 62 bits."""
    hub = make_hub(tmp_path)
    seeds = []
    for _ in range(16):
        out = create_table(hub.store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]})
        gt = hub.load(out["id"])
        assert gt is not None
        seeds.append(gt.row.seed)
    assert len(set(seeds)) == 16 and all(0 <= s < 2**62 for s in seeds)
    assert max(seeds) >= 2**48, seeds  # 16 draws of 62 bits all below 2**48: about 2**-224
    assert len(gt.match.deal.hand(0)) == 16  # a 62-bit seed deals like any other


def test_creating_a_table_refuses_unknown_fields_and_a_name_that_is_no_text(tmp_path: Path) -> None:
    """The repro: ``"away_timout": -1`` (misspelt) made a table with the default timeout, a seat's ``"levle"`` one with
    the default level, and ``"name": 0`` or ``false`` one called "Table", all with HTTP 200. Now 400 naming the field,
    and no table is made."""
    db = tmp_path / "f.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app) as cl:
        for body, words in (({"seats": ME_FRIEND_COMPUTER, "away_timout": -1}, "unknown field(s) away_timout"),
                            ({"seats": ME_FRIEND_COMPUTER, "Seed": 3, "extra": 1}, "unknown field(s) Seed, extra"),
                            ({"seats": [{"kind": "me"}, {"kind": "computer", "levle": "expert"}, {"kind": "friend"}]},
                             "seat 2: unknown field(s) levle"),
                            ({"seats": ME_FRIEND_COMPUTER, "name": 0}, "the table name must be text"),
                            ({"seats": ME_FRIEND_COMPUTER, "name": False}, "the table name must be text"),
                            ({"seats": ME_FRIEND_COMPUTER, "name": []}, "the table name must be text")):
            r = cl.post("/api/tables", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT COUNT(*) FROM sm_tables").fetchone() == (0,)
        r = cl.post("/api/tables", json={"name": "", "rules": "", "seats": [{"kind": "me", "name": ""}, {"kind": "friend", "level": "x"},
                                                                              {"kind": "computer", "level": "random", "name": None}]})
        assert r.status_code == 200, r.text
        assert r.json()["rules"] == "9-5-2" and [s["name"] for s in r.json()["seats"]] == ["Me", "Friend 1", "Random 3"]


def _post_raw(app: Any, path: str, chunks: int, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[str, Any], int]:
    """POST to ``app`` (plain ASGI) a body of ``chunks`` chunks of 16 KiB of spaces; the status, the JSON answer and how
    many chunks the app read."""
    read = 0
    out: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks:
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": b" " * 16384, "more_body": read < chunks}

    async def reply(msg: dict[str, Any]) -> None:
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
        elif msg["type"] == "http.response.body":
            out["body"] = out.get("body", b"") + msg.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 9),
             "server": ("t", 80), "headers": [(b"host", b"t"), (b"content-type", b"application/json"), *headers]}
    asyncio.run(app(scope, receive, reply))
    return out["status"], json.loads(out["body"]), read


def test_request_bodies_over_64_kib_are_refused_with_413_without_being_read(tmp_path: Path) -> None:
    """The repro: ``POST /api/history`` with a body of 20 MB (``{"tokens": [...]}``) was read whole into memory and
    answered 200, ``/api/tables`` with a 10 MB name read whole too: anyone could make the server hold any number of
    bytes. Now a body over 64 KiB is HTTP 413: by its Content-Length before anything is read, else (a chunked body, no
    length) once 64 KiB have been read; no table is made. The largest real body, 500 tokens, is taken."""
    import httpx

    from sergeant_major.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    hub = app.state.hub
    t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
    for path in ("/api/tables", "/api/history"):
        status, out, read = _post_raw(app, path, 4000, [(b"content-length", str(4000 * 16384).encode())])  # 64 MB
        assert status == 413 and out["error"] == "a request body of 65536000 bytes is refused (at most 65536 bytes)", out
        assert read == 0
        status, out, read = _post_raw(app, path, 4000, [])  # no length: read until past the limit only
        assert status == 413 and out["error"] == "a request body of more than 65536 bytes is refused (at most 65536 bytes)", out
        assert read == 5  # 4 chunks are 64 KiB
        status, out, read = _post_raw(app, path, 4, [])  # 64 KiB exactly: read, then refused as no JSON
        assert status == 400 and "not JSON" in out["error"] and read == 4, out

    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as cl:
            r = await cl.post("/api/tables", json={"name": "x" * 70_000, "seats": []})
            assert r.status_code == 413 and "at most 65536 bytes" in r.json()["error"], r.text
            tokens = [t["seats"][0]["token"], *(f"{i:022d}" for i in range(499))]  # as many as are read, of a token's length
            r = await cl.post("/api/history", json={"tokens": tokens})
            assert r.status_code == 200 and [g["id"] for g in r.json()["games"]] == [t["id"]], r.text

    asyncio.run(run())
    with sqlite3.connect(tmp_path / "b.sqlite3") as con:
        assert con.execute("SELECT id FROM sm_tables").fetchall() == [(t["id"],)]  # no table made


def _tables(server: Server) -> int:
    with sqlite3.connect(server.db.removeprefix("sqlite:///")) as db:
        return int(db.execute("SELECT COUNT(*) FROM sm_tables").fetchone()[0])


@pytest.mark.slow
def test_a_chosen_seed_is_refused_at_a_table_with_invited_players(server: Server) -> None:
    """The repro: ``{"seed": 7, "seats": [me, friend, computer]}`` made a table whose friend was dealt
    ``Match(Rules.parse('9-5-2'), seed=7).deal.hands[1]``, which the creator could compute. Now HTTP 400 quoting the
    seed and saying why, no table made; also with two *me* seats (the second token is passed on to a person) and with
    a friend alone against computers (the creator would know the friend's cards). A
    practice table still takes a seed, and the table of friends without one is dealt from a random seed."""
    for seats in ([{"kind": "me"}, {"kind": "friend"}, TWO_COMPUTERS[0]], [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}],
                  [{"kind": "me"}, {"kind": "me"}, TWO_COMPUTERS[0]], [{"kind": "friend"}, *TWO_COMPUTERS]):
        before = _tables(server)
        for seed in (7, 0):
            status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seed": seed, "seats": seats})
            assert status == 400, (seats, out)
            assert out["error"].startswith(f"seed {seed}: ") and "work out the others' cards" in out["error"], out
            assert "random seed" in out["error"]
        assert _tables(server) == before  # nothing was made
    # a bad seed is still refused for what it is, quoted
    status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seed": "7", "seats": [{"kind": "me"}, *TWO_COMPUTERS]})
    assert status == 400 and '"7"' in out["error"], out

    # without a seed the friends' table is made, its deal not the one of seed 7
    status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, TWO_COMPUTERS[0]]})
    assert status == 200, out
    tok = out["seats"][1]["invite"].split("#token=")[1]
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": tok}))
        hand = receive(ws, "state")["view"]["hand"]
    seeded = Match(Rules.parse("9-5-2"), seed=7).deal.dealt[1]
    assert sorted(hand) != sorted(str(c) for c in seeded)

    # a practice table (one person against computers) still deals from the seed it is given
    status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seed": 7, "seats": [TWO_COMPUTERS[0], {"kind": "me"}, TWO_COMPUTERS[1]]})
    assert status == 200 and out["practice"], out
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": out["seats"][1]["token"]}))
        hand = receive(ws, "state")["view"]["hand"]
    assert sorted(hand) == sorted(str(c) for c in seeded)


@pytest.mark.slow
def test_the_replay_page_of_an_unknown_table_is_404(server: Server) -> None:
    """The repro: ``/replay/nope`` answered HTTP 200 while ``/t/nope`` answered 404. Both now 404 (the page still
    explains itself), both 200 for a table that exists."""
    for path in ("/replay/nope", "/replay/bad$id", "/t/nope", "/replay/" + "x" * 40):
        status, text = http_json(server, path)
        assert status == 404, (path, status)
        assert "<html" in str(text).lower(), path
    status, out = http_json(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, *TWO_COMPUTERS]})
    assert status == 200
    for path in (f"/replay/{out['id']}", f"/t/{out['id']}"):
        assert http_json(server, path)[0] == 200, path


def test_a_default_table_name_is_told_from_one_its_creator_chose(tmp_path: Path) -> None:
    """The repro: a table its creator named "Table" was shown "Tisch" on German pages: the pages could not tell it from
    the default name. Now the server says which names are default (``name_default``), in the table's state, the lobby,
    *My games*; a name sent (even "Table", or a lobby table's "Ann's table") is the creator's, none the default."""
    app = create_app(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    seats = [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]
    with TestClient(app) as cl:
        made = {}
        for name in (None, "", "Table", "Tisch", "Poker night"):
            body = {"rules": "9-5-2", "seats": seats, **({} if name is None else {"name": name})}
            out = cl.post("/api/tables", json=body).json()
            made[name] = out
            with cl.websocket_connect(f"/ws/{out['id']}") as ws:
                ws.send_text(json.dumps({"type": "join", "token": out["seats"][0]["token"]}))
                st = ws.receive_json()
            assert st["type"] == "state", st
            assert (st["table"]["name"], st["table"]["name_default"]) == ((name or "Table"), not name), (name, st["table"])
        games = cl.post("/api/history", json={"tokens": [o["seats"][0]["token"] for o in made.values()]}).json()["games"]
        assert sorted((g["name"], g["name_default"]) for g in games) == [("Poker night", False), ("Table", False), ("Table", True),
                                                                      ("Table", True), ("Tisch", False)]
        cl.post("/api/lobby/open", json={"name": "Ann", "rules": "9-5-2", "wait": 120})
        cl.post("/api/lobby/open", json={"name": "Bea", "rules": "9-5-2", "wait": 120, "table_name": "Bea's table"})
        listed = {t["name"]: t["name_default"] for t in cl.get("/api/lobby").json()["tables"]}
        assert listed == {"Ann's table": True, "Bea's table": False}, listed
