"""Regressions of the web table's background runs and messages: a run of the computers' moves that keeps failing for a
reason other than the database is given up after a few tries (the table is stopped, its seats told, nothing stored is
lost); a table is read from the database in a worker thread (two loads at once give one table); a failure is told only
to the connections that joined the table; a spectator's join is shown the state once; one invitation taken by two
people at once seats one of them."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web import tables  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402


def _stored(hub: Hub, tid: str) -> list[tuple[int, str, int | None, dict[str, Any]]]:
    got = hub.store.table(tid)
    assert got is not None
    return [(e.idx, e.kind, e.seat, e.data) for e in got[2]]


def _errors(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m["type"] == "error"]


class _Broken:
    """A computer player with a bug: every decision raises."""

    def choose(self, view: Any, rng: Any) -> Any:
        raise ZeroDivisionError("a bug in the player")


def test_a_run_failing_for_a_bug_is_given_up_after_a_few_tries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro: a run of the computers' moves that failed for a reason other than the database (a bug in a player)
    was tried again by itself after a backoff, up to every 30 s, for as long as anyone was at the table: forever, each
    try telling the seats "tried again in 30 s". Now after :data:`MAX_SERVER_FAILURES` tries in a row the table is
    stopped: its seats are told once (code ``stopped``), no retry is pending, what was stored is kept; the next join
    tries once more (it may work after the server is fixed) and is told the same when it fails."""
    monkeypatch.setattr(tables, "make_player", lambda level: _Broken())
    from sergeant_major.web.runner import MAX_SERVER_FAILURES

    async def run() -> None:
        hub = make_hub(tmp_path)
        hub.retry_first, hub.retry_max = 0.005, 0.02
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: the computers act first
        tid = t["id"]
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        await asyncio.wait_for(hub.idle(tid), 10)  # it waited forever: the retries never ended
        told = _errors(a.ws.frames)
        assert [m["code"] for m in told] == ["server"] * (MAX_SERVER_FAILURES - 1) + ["stopped"], told
        assert "retry" not in told[-1]
        assert told[-1]["reason"] == (f"the computers' moves could not be taken (ZeroDivisionError) {MAX_SERVER_FAILURES} "
                                      "times in a row: the table is stopped; what was stored is kept, and the moves are "
                                      "tried again when someone joins the table anew"), told[-1]
        assert hub.retries == {} and hub.runs == {} and hub.advancing == {}
        assert [e[1] for e in _stored(hub, tid)] == ["start"]  # the start is kept
        # a join anew tries once more, and is told the same (no retry started)
        b = connect(hub, tid)
        await send(hub, b, {"type": "join", "token": t["seats"][0]["token"]})
        await asyncio.wait_for(hub.idle(tid), 10)
        assert [m["code"] for m in _errors(b.ws.frames)] == ["stopped"] and hub.retries == {}
        # once the player works again, a join takes the moves
        monkeypatch.setattr(tables, "make_player", lambda level: tables.HeuristicPlayer())
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await asyncio.wait_for(hub.idle(tid), 10)
        st = c.ws.last()
        assert st is not None and st["view"]["to_act"] == 0 and hub.failures == {}

    asyncio.run(run())


def test_a_failure_is_told_only_to_those_who_joined_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro: a failed run's error was sent to every websocket open at the table, also to one that had not joined
    it (no seat, not a spectator: it was shown nothing of the table). Now only the joined ones are told; and what they
    are told names the exception's type only (no card of any hand)."""
    monkeypatch.setattr(tables, "make_player", lambda level: _Broken())

    async def run() -> None:
        hub = make_hub(tmp_path)
        hub.retry_first, hub.retry_max = 0.005, 0.02
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        tid = t["id"]
        lurker = connect(hub, tid)  # connected, never joined
        watcher = connect(hub, tid)
        await send(hub, watcher, {"type": "join", "token": None})
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        await asyncio.wait_for(hub.idle(tid), 10)
        assert lurker.ws.frames == []
        for c in (a, watcher):
            told = _errors(c.ws.frames)
            assert told and {m["code"] for m in told} <= {"server", "stopped"}, told
            for m in told:
                assert "ZeroDivisionError" in m["reason"] and not re.search(r"\b[2-9TJQKA][CDHS]\b", m["reason"]), m

    asyncio.run(run())


def test_a_table_is_read_from_the_database_in_a_worker_thread_once(tmp_path: Path) -> None:
    """The repro: a table not in memory (after a restart, or everyone gone) was read from the database and replayed on
    the event loop, at a client's first message: a slow database (or a long match replayed) held every other table of
    the server meanwhile. Now it is read in a worker thread: the event loop answers another table's ping during the
    read; and two clients' joins at once make one read and are seated at one table (not two copies)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        other = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=4)
        tid = t["id"]
        o = connect(hub, other["id"])
        await send(hub, o, {"type": "join", "token": other["seats"][0]["token"]})
        real = hub.store.table
        reads: list[str] = []
        go = threading.Event()
        waited: list[bool] = []

        def table(table_id: str) -> Any:
            reads.append(table_id)
            if table_id == tid:
                waited.append(go.wait(3))  # False: the event loop was blocked (it sets go once it has served the ping)
            return real(table_id)

        hub.store.table = table  # type: ignore[method-assign]
        a, b = connect(hub, tid), connect(hub, tid)
        ja = asyncio.create_task(send(hub, a, {"type": "join", "token": t["seats"][0]["token"]}))
        jb = asyncio.create_task(send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"}))
        await asyncio.sleep(0.05)
        await send(hub, o, {"type": "ping"})  # another table is served while this one is read
        assert json.loads(o.ws.frames[-1]) == {"type": "pong"}
        go.set()
        await asyncio.wait_for(asyncio.gather(ja, jb), 10)
        assert waited == [True], "the event loop was blocked by the read"
        assert reads.count(tid) == 1, reads
        sa, sb = a.ws.last(), b.ws.last()
        assert sa is not None and sb is not None and sa["you"] == 0 and sb["you"] == 1
        # one table: each sees the other online, and Bob's name
        assert sa["table"]["seats"][1] == sb["table"]["seats"][1] == {"name": "Bob", "kind": "human", "online": True,
                                                                       "away": False}
        assert hub.tables[tid].seats[1].name == "Bob" and hub.loading == {} and hub.installed == set()

    asyncio.run(run())


def test_a_read_older_than_a_copy_installed_and_forgotten_meanwhile_is_read_anew(tmp_path: Path) -> None:
    """While a read of a table was in flight, a copy of it installed (by :meth:`Hub.load`), changed and forgotten again
    must not leave the older read installed: it is read anew."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        tid = t["id"]
        real = hub.store.table
        go = threading.Event()
        reads: list[int] = []

        def table(table_id: str) -> Any:
            got = real(table_id)
            reads.append(len(got[2]) if got else -1)
            if len(reads) == 1:
                go.wait(3)
            return got

        hub.store.table = table  # type: ignore[method-assign]
        reading = asyncio.create_task(hub.fetch(tid))
        await asyncio.sleep(0.05)
        copy = hub.load(tid)  # installed meanwhile, a start stored, forgotten
        assert copy is not None
        async with hub.lock(tid):
            await hub.append(copy, "start", 0, {"deal": 1})
        hub.reload(tid, copy)
        go.set()
        gt = await asyncio.wait_for(reading, 10)
        assert gt is not None and len(gt.log) == 1 and gt.released == 1, (reads, gt and len(gt.log))

    asyncio.run(run())


def _states(frames: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, frames) if m["type"] == "state"]


def test_a_spectator_is_shown_the_state_once_when_he_joins(tmp_path: Path) -> None:
    """The repro: with ``--delay``, a spectator joining a table where a computer is to act (no run of its moves going
    on: the table just read from the database, after a restart) was sent the same state twice: once for his join, and
    again by the run, which shows the state before each paced decision. Now a client is never sent a state message the
    same as the last message it was sent; every state is still shown (each move's)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        hub.delay = 0.01
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: the computers act first
        tid = t["id"]
        hub.store.append(tid, 0, "start", 0, {"deal": 1})  # stored before a restart: a computer is to act
        s = connect(hub, tid)
        await send(hub, s, {"type": "join", "token": None})
        await asyncio.wait_for(hub.idle(tid), 10)
        states = _states(s.ws.frames)
        vs = [m["v"] for m in states]
        assert vs == sorted(set(vs)), vs  # each state once, in order (a forced action is shown with the next move)
        gt = hub.tables[tid]
        assert vs[0] == 1 and vs[-1] == gt.version and len(vs) > 2 and gt.match.to_act == 0, vs

    asyncio.run(run())
