"""Two seats of one table never share a name (the score sheet, the record and the end reason could not tell them
apart): a table made with two equal names is refused with code ``seat_name_taken``, and a ``join`` whose name is
another seat's is refused with code ``name_taken``, the seat not taken and nothing changed (docs/web.md)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

import sqlalchemy as sa  # noqa: E402
from _webhelp import ME_FRIEND_COMPUTER, connect, json_text, make_hub, new_table, play_out, send  # noqa: E402

from sergeant_major.web.app import create_app, create_table  # noqa: E402
from sergeant_major.web.protocol import TableRefused  # noqa: E402
from sergeant_major.web.store import seats_t, tables_t  # noqa: E402


def test_a_table_of_two_equal_seat_names_is_refused(tmp_path: Path) -> None:
    hub = make_hub(tmp_path)
    body = {"rules": "9-5-2", "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "ann "},
                                        {"kind": "computer"}]}
    with pytest.raises(TableRefused) as e:
        create_table(hub.store, body)
    assert e.value.code == "seat_name_taken" and e.value.seat == 2, (e.value.code, e.value.seat)
    assert "'ann'" in str(e.value) and "seat 1's" in str(e.value), str(e.value)
    # a default name counts too: "Me" given to the friend
    with pytest.raises(TableRefused):
        create_table(hub.store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": "ME"}, {"kind": "computer"}]})
    with hub.store.engine.begin() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar() == 0  # no table was made
    # two unnamed "me" seats are "Me" and "Me 2"
    made = create_table(hub.store, {"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "computer"}]})
    assert [x["name"] for x in made["seats"]][:2] == ["Me", "Me 2"], made
    # distinct names are fine
    assert create_table(hub.store, {**body, "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bo"},
                                           {"kind": "computer"}]})["id"]


def test_a_join_with_another_seats_name_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"], "name": "Al"})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "al"})
        err = [m for m in map(json.loads, b.ws.frames) if m["type"] == "error"]  # type: ignore[attr-defined]
        assert err and err[-1]["code"] == "name_taken" and err[-1]["reason"] == ('the name "al" is already seat 1\'s ("Al") at this table; '
                                                                    'choose another (nothing was changed)'), err
        assert b.seat is None  # the seat is not taken
        gt = hub.tables[tid]
        assert [s.name for s in gt.seats][:2] == ["Al", "Friend 1"]
        # another name joins; its own name again (a reconnect) is fine too
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bo"})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bo"})
        st = b.ws.last()  # type: ignore[attr-defined]
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Bo"
        # a computer's name is taken too
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": gt.seats[2].name})
        assert json.loads(b.ws.frames[-1])["code"] == "name_taken"  # type: ignore[attr-defined]
    asyncio.run(run())


EVIL = "\x1b]0;pwned\x07\x1b[2JBen"


@pytest.mark.parametrize("name", [EVIL, "Ann\u202eevil", "Bob\x9b2J", "Cat\u2066x"])
def test_names_with_control_characters_are_refused_at_creation(tmp_path: Path, name: str) -> None:
    """A seat's or the table's name holding control characters (Cc) or bidi overrides is refused, quoted with repr,
    and no table is made."""

    db = tmp_path / "n.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app) as cl:
        for body in ({"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": name}, {"kind": "computer"}]},
                     {"rules": "9-5-2", "name": name, "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]}):
            r = cl.post("/api/tables", json=body)
            assert r.status_code == 400, r.text
            err = r.json()["error"]
            assert repr(name) in err and "control character" in err
            assert not any(ch in err for ch in "\x1b\x07\x9b\u202e\u2066")
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT COUNT(*) FROM sm_tables").fetchone() == (0,)
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "Zoë 🂡"}, {"kind": "friend"},
                                                                      {"kind": "computer"}]})
        assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Zoë 🂡"


def test_a_join_with_a_control_character_name_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: a friend joins with escape sequences in the name; refused with ``bad_message`` quoting it, the
    seat not taken and its name unchanged; the record never holds it."""
    app = create_app(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]})
        out = r.json()
        tid = out["id"]
        tok = out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": EVIL}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert repr(EVIL)[:40] in err["reason"] and "control character" in err["reason"]
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": 7}))
            assert ws.receive_json()["code"] == "bad_message"
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}  # still connected, still not seated
            hub = app.state.hub
            gt = hub.load(tid)
            assert gt is not None and gt.seats[1].name == "Friend 1" and gt.match.names[1] == "Friend 1"
            assert all(c.seat is None for c in hub.conns[tid])
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "Ben"}))
            st = ws.receive_json()
            assert st["type"] == "state" and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Ben"


def test_a_stored_name_with_control_characters_is_shown_escaped(tmp_path: Path) -> None:
    """A name stored before names were checked still loads: escaped, never raw (and valid in a record)."""
    hub = make_hub(tmp_path)
    t = new_table(hub, "9-5-2", ["me", "friend", "random"], seed=4)
    with hub.store.engine.begin() as conn:  # as an earlier version stored it
        conn.execute(seats_t.update().where(seats_t.c.table_id == t["id"], seats_t.c.seat == 1).values(name=EVIL))
    gt = hub.load(t["id"])
    assert gt is not None
    assert gt.match.names[1] == "\\x1b]0;pwned\\x07\\x1b[2JBen" and "\x1b" not in json.dumps(gt.state_message(0, set()))


def test_a_join_with_a_lone_surrogate_name_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "name": "\\ud800"}`` was answered with the undocumented code
    ``server`` ("UnicodeEncodeError") after the connection had been seated; now ``bad_json`` quoting it, not seated."""
    app = create_app(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    with TestClient(app) as cl:
        out = cl.post("/api/tables", json={"seats": ME_FRIEND_COMPUTER}).json()
        tid = out["id"]
        tok = out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            text = json_text({"type": "join", "token": tok, "name": "Ben\ud800"})
            ws.send_text(text)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_json", err
            assert "surrogate" in err["reason"] and repr(text[:60]) in err["reason"]
            ws.send_text('{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}")
            err = ws.receive_json()
            assert err["code"] == "bad_json" and "nested" in err["reason"], err
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}  # still connected, still not seated
            hub = app.state.hub
            gt = hub.load(tid)
            assert gt is not None and gt.seats[1].name == "Friend 1"
            assert all(c.seat is None and not c.joined for c in hub.conns[tid])
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "Ben"}))
            st = ws.receive_json()
            assert st["type"] == "state" and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Ben"


def test_a_join_with_a_name_over_40_characters_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "name": "A" * 45}`` seated the client and renamed the seat to 40 "A"s,
    while creating a table with a seat name of 41 characters is refused. Now ``bad_message`` naming the limit and
    quoting the name's start; the connection is neither seated nor moved, the seat not renamed."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        gt = hub.load(tid)
        assert gt is not None
        c = connect(hub, tid)
        for seated in (None, 0):
            if seated is not None:
                await send(hub, c, {"type": "join", "token": t["seats"][seated]["token"]})
            n, frames = len(gt.log), len(c.ws.frames)
            await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "Benjamin" + "B" * 33})
            assert len(c.ws.frames) == frames + 1, c.ws.frames[frames:]
            err = json.loads(c.ws.frames[-1])
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert "at most 40 characters" in err["reason"] and '"BenjaminBBB' in err["reason"], err
            assert "nothing was changed" in err["reason"]
            assert c.seat == seated and c.joined == (seated is not None) and len(gt.log) == n
            assert [s.name for s in gt.seats] == ["Me", "Friend 1", "Heuristic 3"]
            got = hub.store.table(tid)
            assert got is not None and [s.name for s in got[1]] == ["Me", "Friend 1", "Heuristic 3"]
        await send(hub, c, {"type": "join", "token": t["seats"][1]["token"], "name": "B" * 40})
        st = c.ws.last()
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "B" * 40

    asyncio.run(run())


def test_a_spectators_join_with_a_bad_name_is_refused(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": null, "name": 5}`` (or a name with an escape sequence, or over 40
    characters) was taken silently as a spectator's join, while the same name with a token is refused. Now it is
    refused alike, quoting it, and the connection is not made a spectator."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        for name in (5, "\x1b]0;pwned\x07", "x" * 41):
            s = connect(hub, t["id"])
            await send(hub, s, {"type": "join", "token": None, "name": name})
            assert [json.loads(f)["code"] for f in s.ws.frames] == ["bad_message"], s.ws.frames
            assert not s.joined
        s = connect(hub, t["id"])
        await send(hub, s, {"type": "join", "token": None, "name": "Zoe"})  # a good name: watching, the name unused
        st = s.ws.last()
        assert st is not None and st["you"] is None

    asyncio.run(run())


def test_a_name_sent_after_the_match_is_over_leaves_the_record_alone(tmp_path: Path) -> None:
    """The repro: once a match was over, ``{"type": "join", "token": T, "name": "Someone else"}`` renamed the seat, so the
    finished match's record (downloaded again) named another player than the one its end reason names ("Bo took 12
    tricks in one deal"), and the history showed the new name. Now the name is kept once the match is over."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"], "name": "Al"})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bo"})
        await play_out(hub, [a, b])
        gt = hub.tables[tid]
        before = json.dumps(gt.record())
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Someone else"})
        st = b.ws.last()  # type: ignore[attr-defined]
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Bo"
        assert json.dumps(hub.tables[tid].record()) == before
        stored = hub.store.table(tid)
        assert stored is not None and [s.name for s in stored[1]] == ["Al", "Bo", "Heuristic 3"]

    asyncio.run(run())


COMPUTER_LIKE = ["Heuristic 3", "heuristik 2", "Zufall 3'", "EXPERT 12", "Anfänger  1", "Experte 4", "Random\u00a02",
                 # a level's name alone: the computers' names at a table where one level plays once
                 "Random", "expert", "Heuristik", "Beginner'",
                 # a computer seat's role line, as the pages write it in English and German
                 "Computer (Heuristic)", "computer (zufall)", "Computer(Experte)", "COMPUTER ( Beginner )"]


@pytest.mark.parametrize("name", COMPUTER_LIKE)
def test_a_person_s_name_written_as_a_computer_s_is_refused_everywhere_and_changes_nothing(tmp_path: Path, name: str) -> None:
    """The repro: a person could name his seat "Heuristic 3" (at creation, with an invitation, in the lobby), as a
    computer of the table is named and shown (in English, or "Heuristik 3" in German): two "Heuristic 3" at one table.
    Now a person's name that is a computer level's name in a language of the site and a number is refused (code
    ``computer_name``), quoted, through each real endpoint, and nothing changes; so is one written as a computer seat's
    role line, "Computer (Heuristic)" (it was taken)."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    with TestClient(app) as cl:
        store = app.state.hub.store
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": name},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 400 and r.json()["code"] == "computer_name" and r.json()["seat"] == 2, r.json()
        assert repr(name) in r.json()["error"] and "computer" in r.json()["error"], r.json()
        with store.engine.begin() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar() == 0  # no table was made
        out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER}).json()
        tid, tok = out["id"], out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": name}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "computer_name" and repr(name) in err["reason"], err
            assert [(s.name, s.claimed) for s in store.seats(tid)][1] == ("Friend 1", False)  # the seat not taken
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "Ben"}))
            st = ws.receive_json()
            assert st["type"] == "state" and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Ben"
        for kind in ("open", "quick"):
            r = cl.post(f"/api/lobby/{kind}", json={"name": name, "rules": "9-5-2"})
            assert r.status_code == 400 and r.json()["code"] == "computer_name" and repr(name) in r.json()["error"], r.json()
        assert cl.get("/api/lobby").json()["tables"] == []


def test_names_only_like_a_computer_s_are_a_person_s(tmp_path: Path) -> None:
    """Another word and a number, a level's name inside a longer word, a computer seat's own default: all taken (a
    level's name alone is refused: ``COMPUTER_LIKE``)."""
    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "Heuristics"},
                                                                     {"kind": "friend", "name": "Expertin 2"},
                                                                     {"kind": "computer", "level": "random", "name": "Random 3"}]})
        assert r.status_code == 200 and [s["name"] for s in r.json()["seats"]] == ["Heuristics", "Expertin 2", "Random 3"], r.json()
        a = cl.post("/api/lobby/quick", json={"name": "Randy", "rules": "9-5-2", "wait": 120}).json()
        b = cl.post("/api/lobby/quick", json={"name": "randy", "rules": "9-5-2", "wait": 120}).json()
        assert b["id"] == a["id"] and b["seat"] == 1
        assert [s.name for s in app.state.hub.store.seats(a["id"])][:2] == ["Randy", "randy 2"]


FREE_SEAT_LIKE = ["Free seat 3", "free seat", "FREE  SEAT 2'", "Freier Platz 2", "freier platz", "Free seat2"]


@pytest.mark.parametrize("name", FREE_SEAT_LIKE)
def test_a_person_s_name_written_as_a_free_seat_s_is_refused_everywhere_and_changes_nothing(tmp_path: Path, name: str) -> None:
    """The repro: a guest could take the name "Free seat 3" (in the lobby, with an invitation, at creation), as the
    pages name a seat nobody took yet (German "Freier Platz 3"): the others would take his seat for a free one. Now it
    is refused (code ``free_seat_name``), quoted, through each real endpoint, and nothing changes."""
    app = create_app(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    with TestClient(app) as cl:
        store = app.state.hub.store
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": name},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 400 and r.json()["code"] == "free_seat_name" and r.json()["seat"] == 2, r.json()
        assert repr(name) in r.json()["error"] and "free" in r.json()["error"], r.json()
        for kind in ("open", "quick"):
            r = cl.post(f"/api/lobby/{kind}", json={"name": name, "rules": "9-5-2"})
            assert r.status_code == 400 and r.json()["code"] == "free_seat_name" and repr(name) in r.json()["error"], r.json()
        assert cl.get("/api/lobby").json()["tables"] == []
        a = cl.post("/api/lobby/quick", json={"name": "Ann", "rules": "9-5-2", "wait": 120}).json()  # seats 2 and 3 free
        tid = a["id"]
        assert [s.name for s in store.seats(tid)][1:] == ["Free seat 2", "Free seat 3"]
        out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER}).json()
        tid, tok = out["id"], out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": name}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "free_seat_name" and repr(name) in err["reason"], err
            assert [(s.name, s.claimed) for s in store.seats(tid)][1] == ("Friend 1", False)  # the seat not taken


@pytest.mark.usefixtures("fast_argon2")
@pytest.mark.parametrize("name", ["Random", "Expert", "heuristik"])
def test_an_account_named_as_a_computer_is_refused(tmp_path: Path, name: str) -> None:
    """An account's name is its seats' name: a level's name alone would pass its player off as a computer."""
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/account/register", json={"name": name, "password": "a good password"})
        assert r.status_code == 400 and r.json()["code"] == "computer_name" and repr(name) in r.json()["error"], r.json()
        assert cl.get("/api/account").json()["name"] is None
        assert cl.post("/api/account/register", json={"name": name + "fan", "password": "a good password"}).status_code == 200


def test_a_name_numbered_already_counts_on_in_the_lobby_letter_case_aside(tmp_path: Path) -> None:
    """The repro: "ann 2" took a seat, then someone typed "Ann 2" and sat as "Ann 2 2". Now the number counts on:
    "Ann 3", then "Ann 4"; a name taken letter case aside is taken."""
    app = create_app(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    with TestClient(app) as cl:
        form = {"rules": "9-5-2 to=17", "wait": 120}
        a = cl.post("/api/lobby/open", json={**form, "name": "ann 2"}).json()
        b = cl.post("/api/lobby/join", json={**form, "name": "Ann 2", "table": a["id"]}).json()
        c = cl.post("/api/lobby/join", json={**form, "name": "ANN 2 ", "table": a["id"]}).json()
        assert (b["seat"], c["seat"]) == (1, 2)
        assert [s.name for s in app.state.hub.store.seats(a["id"])] == ["ann 2", "Ann 3", "ANN 4"]


DISGUISED = ["Random\u200b", "Ex\u00adpert", "\uff32andom", "Heuristic\u200b 3", "Random\u3000 2", "\u2060Beginner"]


@pytest.mark.usefixtures("fast_argon2")
@pytest.mark.parametrize("name", DISGUISED)
def test_a_computer_s_name_disguised_by_invisible_or_fullwidth_characters_is_refused_everywhere(tmp_path: Path, name: str) -> None:
    """The repro: "Random\\u200b" (a zero-width space), "Ex\\u00adpert" (a soft hyphen) and fullwidth "Ｒandom" passed
    as a person's name and showed as the computer's. Now every name entry normalises the name (NFKC, no format
    characters, one space) before checking it: refused (``computer_name``) at creation, with an invitation, in the
    lobby and as an account, nothing changed."""
    app = create_app(f"sqlite:///{tmp_path / 'z.sqlite3'}")
    with TestClient(app) as cl:
        store = app.state.hub.store
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": name},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 400 and r.json()["code"] == "computer_name" and r.json()["seat"] == 2, r.json()
        out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER}).json()
        tid, tok = out["id"], out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": name}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "computer_name", err
            assert [(s.name, s.claimed) for s in store.seats(tid)][1] == ("Friend 1", False)  # the seat not taken
        for kind in ("open", "quick"):
            r = cl.post(f"/api/lobby/{kind}", json={"name": name, "rules": "9-5-2"})
            assert r.status_code == 400 and r.json()["code"] == "computer_name", r.json()
        assert cl.get("/api/lobby").json()["tables"] == []
        if " " not in name and "\u3000" not in name:  # a user name has no spaces: those are refused as such
            r = cl.post("/api/account/register", json={"name": name, "password": "a good password"})
            assert r.status_code == 400 and r.json()["code"] == "computer_name", r.json()
            assert cl.get("/api/account").json()["name"] is None


@pytest.mark.usefixtures("fast_argon2")
def test_names_are_stored_normalised_and_one_of_nothing_visible_is_refused_quoting_it(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    with TestClient(app) as cl:
        store = app.state.hub.store
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me", "name": "\uff21nn\u00ad"},
                                                                     {"kind": "friend", "name": " Bo \u00a0 Li\u200b "},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 200 and [s["name"] for s in r.json()["seats"]][:2] == ["Ann", "Bo Li"], r.json()
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": "\u200b\u00ad"},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 400 and r.json()["code"] == "seat_name" and repr("\u200b\u00ad") in r.json()["error"], r.json()
        r = cl.post("/api/lobby/open", json={"name": "\u200b", "rules": "9-5-2"})
        assert r.status_code == 400 and r.json()["code"] == "seat_name" and repr("\u200b") in r.json()["error"], r.json()
        a = cl.post("/api/lobby/open", json={"name": "Cleo\u200b", "rules": "9-5-2", "wait": 120}).json()
        assert store.seats(a["id"])[0].name == "Cleo"
        out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER}).json()
        tid, tok = out["id"], out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "\u200b"}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_message" and "\\u200b" in err["reason"], err
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": "D\u00adee"}))
            st = ws.receive_json()
            assert st["type"] == "state" and st["table"]["seats"][1]["name"] == "Dee", st
        r = cl.post("/api/account/register", json={"name": "\u200b\u200b\u200b", "password": "a good password"})
        assert r.status_code == 400 and r.json()["code"] == "name" and repr("\u200b\u200b\u200b") in r.json()["error"], r.json()
        r = cl.post("/api/account/register", json={"name": "\uff25va\u00ad", "password": "a good password"})
        assert r.status_code == 200 and r.json()["name"] == "Eva", r.json()
        cl.cookies.clear()
        assert cl.post("/api/account/login", json={"name": "\uff25va", "password": "a good password"}).json()["name"] == "Eva"


MIXED = ["\u0410nn", "B\u0435a", "\u039flga", "Ann \u0410nn"]  # a Cyrillic A, a Cyrillic e, a Greek Omicron


@pytest.mark.parametrize("name", MIXED)
def test_a_name_mixing_latin_with_cyrillic_or_greek_is_refused_everywhere_and_changes_nothing(tmp_path: Path, name: str) -> None:
    """The repro: "Аnn" with a Cyrillic А passed for Ann (at creation, with an invitation, in the lobby, as a user
    name): another person, or another person's account, in disguise. Now it is refused (code ``mixed_script_name``),
    quoted with the letters' scripts, through each real endpoint, and nothing changes."""
    app = create_app(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    with TestClient(app) as cl:
        store = app.state.hub.store
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "friend", "name": name},
                                                                     {"kind": "computer"}]})
        assert r.status_code == 400 and r.json()["code"] == "mixed_script_name" and r.json()["seat"] == 2, r.json()
        assert repr(name) in r.json()["error"] and "Latin" in r.json()["error"], r.json()
        for kind in ("open", "quick"):
            r = cl.post(f"/api/lobby/{kind}", json={"name": name, "rules": "9-5-2"})
            assert r.status_code == 400 and r.json()["code"] == "mixed_script_name" and repr(name) in r.json()["error"], r.json()
        assert cl.get("/api/lobby").json()["tables"] == []
        out = cl.post("/api/tables", json={"rules": "9-5-2", "seats": ME_FRIEND_COMPUTER}).json()
        tid, tok = out["id"], out["seats"][1]["invite"].split("#token=")[1]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok, "name": name}))
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "mixed_script_name" and repr(name) in err["reason"], err
            assert [(s.name, s.claimed) for s in store.seats(tid)][1] == ("Friend 1", False)  # the seat not taken


@pytest.mark.usefixtures("fast_argon2")
def test_a_user_name_mixing_scripts_is_refused_and_one_script_alone_passes(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'u.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/account/register", json={"name": "\u0410nn", "password": "a good password"})
        assert r.status_code == 400 and r.json()["code"] == "mixed_script_name" and "'\u0410nn'" in r.json()["error"], r.json()
        assert cl.get("/api/account").json()["name"] is None
        for name in ("\u0410\u043d\u043d\u0430", "\u0391\u03bd\u03bd\u03b1", "J\u00fcrgen"):  # Cyrillic, Greek, Latin alone
            r = cl.post("/api/account/register", json={"name": name, "password": "a good password"})
            assert r.status_code == 200, r.text
