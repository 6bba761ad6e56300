"""Two seats of one table never share a name (the score sheet, the record and the end reason could not tell them
apart): a table made with two equal names is refused with code ``seat_name_taken``, and a ``join`` whose name is
another seat's is refused with code ``name_taken``, the seat not taken and nothing changed (docs/web.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa  # noqa: E402
from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.app import create_table  # noqa: E402
from sergeant_major.web.protocol import TableRefused  # noqa: E402
from sergeant_major.web.store import tables_t  # noqa: E402


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
        assert err and err[-1]["code"] == "name_taken" and err[-1]["reason"] == ('the name "al" is already seat 0\'s ("Al") at this table (seats count from 0); '
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
