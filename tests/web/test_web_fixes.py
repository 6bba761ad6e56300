"""Regressions from a fresh-eyes review of the browser play, on the server side: actions with fields beyond
their kind, ``/api/history`` with a malformed body, the 404 page of an unknown table, the structured end of a
match (for a translated reason), the replay's steps as actions, the ``web`` extra installing the CLI."""

from __future__ import annotations

import asyncio
import json
import tomllib
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from sergeant_major.core.match import MatchEnd  # noqa: E402
from sergeant_major.web.app import create_app  # noqa: E402
from sergeant_major.web.tables import end_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_web_extra_includes_the_cli() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "sergeant-major[cli]" in extras["web"]  # `serve` is a typer command


def test_actions_with_extra_or_seat_fields_are_refused(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "random"], seed=3)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        gt = hub.tables[t["id"]]
        st = c.ws.last()
        a = dict(st["view"]["legal"][0])
        a.pop("seat")
        n = len(gt.log)
        # a seat other than the sender's is refused; the sender's own is accepted (test_web_fixes6.py)
        for bad in ({**a, "seat": 1}, {**a, "seat": False}, {**a, "extra": True}, {**a, "to": 2} if "to" not in a else {**a, "card": "AS"}):
            await send(hub, c, {"type": "act", "v": st["v"], "action": bad})
            err = c.ws.last("error")
            assert err["code"] == "bad_action", (bad, err)
            assert len(gt.log) == n
        await send(hub, c, {"type": "act", "v": st["v"], "action": a})  # the same action without the extra field
        assert len(gt.log) > n

    asyncio.run(run())


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


@pytest.mark.parametrize(("reason", "kind", "fields"), [
    ("Ann took 13 tricks in one deal (13+ wins at once)", "instant", {"tricks": 13, "limit": 13}),
    ("Bo made his target as dealer of deal 3, the first dealer to do so once the deal had gone round the table (traditional end)",
     "traditional", {"verb": "made", "deal": 3}),
    ("Bo beat his target as dealer of deal 4, the first dealer to do so once the deal had gone round the table (traditional end)",
     "traditional", {"verb": "beat", "deal": 4}),
    ("Cy reached 21 (target total 20)", "target", {"total": 21, "limit": 20, "two": False}),
    ("Cy reached 22 (target total 20); with two past the target, the higher total wins", "target", {"total": 22, "two": True}),
    ("a total reached +-15; the highest total (-3) wins", "bound", {"limit": 15, "total": -3}),
    ("after 2 deals the highest total (4) wins (shared)", "deals", {"deals": 2, "total": 4}),
    ("something new", "other", {}),
])
def test_end_is_structured_for_translation(reason: str, kind: str, fields: dict[str, object]) -> None:
    out = end_json(MatchEnd.from_reason((1,), reason))
    assert out["kind"] == kind and out["winners"] == [1] and out["reason"] == reason
    for k, v in fields.items():
        assert out[k] == v, (k, out)


def test_replay_steps_carry_actions(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2 deals=1", "seed": 5,
                                         "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]})
        tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "join", "token": tok}))
            st = ws.receive_json()
            ws.send_text(json.dumps({"type": "start", "v": st["v"]}))
            while True:
                st = ws.receive_json()
                if st["type"] != "state":
                    continue
                if st["over"]:
                    break
                if st["view"]["legal"]:
                    a = dict(st["view"]["legal"][0])
                    a.pop("seat")
                    ws.send_text(json.dumps({"type": "act", "v": st["v"], "action": a}))
        assert st["end"]["kind"] == "deals" and st["end"]["deals"] == 1
        rep = cl.get(f"/api/tables/{tid}/replay").json()
        assert rep["steps"][0]["action"] is None
        assert all(isinstance(s["action"], dict) and "seat" in s["action"] for s in rep["steps"][1:])
        assert rep["end"]["kind"] == "deals"


def test_large_message_gets_too_large_on_the_real_server(tmp_path: Path) -> None:
    from _webhelp import Server
    from websockets.sync.client import connect as ws_connect

    srv = Server(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    srv.start()
    try:
        app_url = srv.url
        import urllib.request

        req = urllib.request.Request(app_url + "/api/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"},
                                                                                  {"kind": "computer"}]}).encode())
        with urllib.request.urlopen(req) as r:
            tid = json.loads(r.read())["id"]
        with ws_connect(f"ws://127.0.0.1:{srv.port}/ws/{tid}") as ws:
            ws.send(json.dumps({"type": "ping", "pad": "x" * 100_000}))  # over 64 KB: once closed the socket silently
            err = json.loads(ws.recv(timeout=10))
            assert err["type"] == "error" and err["code"] == "too_large"
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}  # still connected
    finally:
        srv.stop()


def test_replay_names_a_clubs_contract_after_a_finished_deal() -> None:
    """The replay's step that shows a finished deal's last trick carries its contract's code: ``"C"`` for clubs
    (``Contract.CLUBS == 0`` is falsy: it was ``None``)."""
    from types import SimpleNamespace

    from sergeant_major import Contract, Match, Rules
    from sergeant_major.core.actions import NameContract
    from sergeant_major.web.tables import replay_steps

    rules = Rules.parse("9-5-2 deals=2")
    names = ["Ann", "Bea", "Cy"]
    m = Match(rules, 11, names)
    acts = []
    while m.deal.number == 1:
        legal = m.legal_actions()
        clubs = [a for a in legal if isinstance(a, NameContract) and a.contract is Contract.CLUBS]
        a = clubs[0] if clubs else legal[0]
        acts.append((a, "seat"))
        m.apply(a)
    gt = SimpleNamespace(rules=rules, row=SimpleNamespace(seed=11), seats=[SimpleNamespace(name=x) for x in names],
                         acts=acts)
    steps = replay_steps(gt)  # type: ignore[arg-type]
    ends = [s for s in steps if s["deal"] == 1 and s["last"] is not None and not any(s["hands"])]
    assert ends and ends[-1]["contract"] == "C"


# ---------------------------------------------------------------------------------------------- second review
EVIL = "\x1b]0;pwned\x07\x1b[2JBen"


@pytest.mark.parametrize("name", [EVIL, "Ann\u202eevil", "Bob\x9b2J", "Cat\u2066x"])
def test_names_with_control_characters_are_refused_at_creation(tmp_path: Path, name: str) -> None:
    """A seat's or the table's name holding control characters (Cc) or bidi overrides is refused, quoted with repr,
    and no table is made."""
    import sqlite3

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
    hub.store.rename_seat(t["id"], 1, EVIL)
    gt = hub.load(t["id"])
    assert gt is not None
    assert gt.match.names[1] == "\\x1b]0;pwned\\x07\\x1b[2JBen" and "\x1b" not in json.dumps(gt.state_message(0, set()))


def test_a_binary_frame_is_answered_and_the_connection_kept(tmp_path: Path) -> None:
    """A binary websocket frame gets a ``bad_message`` error saying to send JSON text; the connection stays open."""
    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    with TestClient(app) as cl:
        r = cl.post("/api/tables", json={"rules": "9-5-2", "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "computer"}]})
        tid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        with cl.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_bytes(b'{"type":"ping"}')
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_message"
            assert "binary" in err["reason"] and "JSON text" in err["reason"]
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text(json.dumps({"type": "join", "token": tok}))
            assert ws.receive_json()["type"] == "state"
