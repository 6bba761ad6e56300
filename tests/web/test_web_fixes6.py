"""Regressions from a new user's test of the browser play, through the real server (``sergeant-major serve`` as a
subprocess, HTTP and websockets on loopback): a creator-chosen seed refused at a table with invited players (it
gave the creator every hand and the kitty); an action copied from the state's ``legal`` list (it carries the
seat) accepted, another seat refused quoting it, nothing changed; the article in "an act message"; the replay page
of an unknown table answering HTTP 404 like the table page."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from _webhelp import Server  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402

COMPUTERS = [{"kind": "computer", "level": "heuristic"}, {"kind": "computer", "level": "heuristic"}]


def _http(server: Server, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, body: JSON when it is JSON, else text) of a GET, or of a POST of ``body`` as JSON."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode()


def _tables(server: Server) -> int:
    with sqlite3.connect(server.db.removeprefix("sqlite:///")) as db:
        return int(db.execute("SELECT COUNT(*) FROM sm_tables").fetchone()[0])


def _recv(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if m["type"] == kind:
            return m
        assert m["type"] != "error", m


def _my_turn(ws: Any, st: dict[str, Any] | None = None) -> dict[str, Any]:
    """The first state from ``st`` on (else the next one) where seat 0 has legal actions (starting a deal that waits)."""
    while True:
        st = st or _recv(ws, "state")
        assert not st["over"]
        if st["waiting_start"]:
            ws.send(json.dumps({"type": "start", "v": st["v"]}))
        elif st["view"]["legal"]:
            return st
        st = None


def test_a_chosen_seed_is_refused_at_a_table_with_invited_players(server: Server) -> None:
    """The repro: ``{"seed": 7, "seats": [me, friend, computer]}`` made a table whose friend was dealt
    ``Match(Rules.parse('9-5-2'), seed=7).deal.hands[1]``, which the creator could compute. Now HTTP 400 quoting the
    seed and saying why, no table made; also with two *me* seats (the second token is passed on to a person) and with
    a friend alone against computers (the creator would know the friend's cards). A
    practice table still takes a seed, and the table of friends without one is dealt from a random seed."""
    for seats in ([{"kind": "me"}, {"kind": "friend"}, COMPUTERS[0]], [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}],
                  [{"kind": "me"}, {"kind": "me"}, COMPUTERS[0]], [{"kind": "friend"}, *COMPUTERS]):
        before = _tables(server)
        for seed in (7, 0):
            status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seed": seed, "seats": seats})
            assert status == 400, (seats, out)
            assert out["error"].startswith(f"seed {seed}: ") and "work out the others' cards" in out["error"], out
            assert "random seed" in out["error"]
        assert _tables(server) == before  # nothing was made
    # a bad seed is still refused for what it is, quoted
    status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seed": "7", "seats": [{"kind": "me"}, *COMPUTERS]})
    assert status == 400 and '"7"' in out["error"], out

    # without a seed the friends' table is made, its deal not the one of seed 7
    status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, COMPUTERS[0]]})
    assert status == 200, out
    tok = out["seats"][1]["invite"].split("#token=")[1]
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": tok}))
        hand = _recv(ws, "state")["view"]["hand"]
    seeded = Match(Rules.parse("9-5-2"), seed=7).deal.dealt[1]
    assert sorted(hand) != sorted(str(c) for c in seeded)

    # a practice table (one person against computers) still deals from the seed it is given
    status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seed": 7, "seats": [COMPUTERS[0], {"kind": "me"}, COMPUTERS[1]]})
    assert status == 200 and out["practice"], out
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": out["seats"][1]["token"]}))
        hand = _recv(ws, "state")["view"]["hand"]
    assert sorted(hand) == sorted(str(c) for c in seeded)


def test_an_action_copied_from_legal_is_accepted_and_another_seat_refused(server: Server) -> None:
    """The repro: sending back ``{"seat": 0, "play": "4C"}`` from ``legal`` got ``bad_action: an action names no seat``.
    Now the sender's own seat is accepted; any other (1, ``false``, ``"0"``, ``null``) is ``bad_action`` quoting it and
    nothing changes (the same action on the same version is accepted afterwards). An unknown field beside a message's
    fields is reported "in an act message"."""
    status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, *COMPUTERS]})
    assert status == 200, out
    with ws_connect(server.url.replace("http", "ws") + f"/ws/{out['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": out["seats"][0]["token"]}))
        st = _my_turn(ws)
        legal = st["view"]["legal"][0]
        assert legal["seat"] == 0
        for seat in (1, False, "0", None):
            ws.send(json.dumps({"type": "act", "v": st["v"], "action": {**legal, "seat": seat}}))
            err = _recv(ws, "error")
            assert err["code"] == "bad_action", err
            assert f"seat {json.dumps(seat)} is not yours" in err["reason"] and "nothing was changed" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": {**legal, "colour": "red"}}))
        err = _recv(ws, "error")
        assert err["code"] == "bad_action" and "unknown key 'colour'" in err["reason"] and "'seat'" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": legal, "seat": 0}))
        err = _recv(ws, "error")
        assert err["code"] == "bad_message" and "in an act message" in err["reason"], err
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": legal}))  # copied from legal as it is
        nxt = _recv(ws, "state")
        assert nxt["v"] > st["v"]
        st = _my_turn(ws, nxt)  # and again, with the seat left out, as before
        a = {k: v for k, v in st["view"]["legal"][0].items() if k != "seat"}
        ws.send(json.dumps({"type": "act", "v": st["v"], "action": a}))
        assert _recv(ws, "state")["v"] > st["v"]


def test_the_replay_page_of_an_unknown_table_is_404(server: Server) -> None:
    """The repro: ``/replay/nope`` answered HTTP 200 while ``/t/nope`` answered 404. Both now 404 (the page still
    explains itself), both 200 for a table that exists."""
    for path in ("/replay/nope", "/replay/bad$id", "/t/nope", "/replay/" + "x" * 40):
        status, text = _http(server, path)
        assert status == 404, (path, status)
        assert "<html" in str(text).lower(), path
    status, out = _http(server, "/api/tables", {"rules": "9-5-2", "seats": [{"kind": "me"}, *COMPUTERS]})
    assert status == 200
    for path in (f"/replay/{out['id']}", f"/t/{out['id']}"):
        assert _http(server, path)[0] == 200, path
