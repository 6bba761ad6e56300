"""Regressions of the background runs of the computers' moves (``Hub.runs``): a run that failed (the database refused a
write) is tried again by itself once the store works, storing each action once; a failed run forgets only the copy of
the table it ran on; a join that waited for the lock while a run failed is shown the stored state; and a friend's
name is stored in a worker thread, before it is shown."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from sergeant_major.web import tables  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402
from sergeant_major.web.store import SeatRow  # noqa: E402


def _refusal() -> OperationalError:
    return OperationalError("INSERT INTO sm_log ...", {}, Exception("database is locked"))


def _stored(hub: Hub, tid: str) -> list[tuple[int, str, int | None, dict[str, Any]]]:
    got = hub.store.table(tid)
    assert got is not None
    return [(e.idx, e.kind, e.seat, e.data) for e in got[2]]


def _flaky(hub: Hub, refuse: set[int]) -> list[int]:
    """Make ``hub.store.append_many`` refuse its calls numbered (from 1) in ``refuse``; the numbers of the calls made."""
    real = hub.store.append_many
    calls: list[int] = []

    def append_many(table_id: str, entries: list[tuple[int, str, int | None, dict[str, Any]]]) -> None:
        calls.append(len(calls) + 1)
        if calls[-1] in refuse:
            raise _refusal()
        real(table_id, entries)

    hub.store.append_many = append_many  # type: ignore[method-assign]
    return calls


def _blocking_refusal(hub: Hub, at: int) -> tuple[threading.Event, threading.Event]:
    """Make ``hub.store.append_many``'s call number ``at`` (from 1) set ``blocked``, wait for ``go`` (at most 5 s) and
    then refuse; the other calls store. Returns ``(blocked, go)``."""
    real = hub.store.append_many
    blocked, go = threading.Event(), threading.Event()
    calls: list[int] = []

    def append_many(table_id: str, entries: list[Any]) -> None:
        calls.append(1)
        if len(calls) == at:
            blocked.set()
            go.wait(5)
            raise _refusal()
        real(table_id, entries)

    hub.store.append_many = append_many  # type: ignore[method-assign]
    return blocked, go


async def _computers_blocked_at(tmp_path: Path, at: int) -> tuple[Hub, str, Any, threading.Event, Any]:
    """A paced table of three computers (9-5-2, one deal, seed 5) whose first spectator has joined, its run of moves
    now blocked in the store's call number ``at`` (:func:`_blocking_refusal`). Returns the hub, the table id, the
    store's real ``append_many``, the event that lets the call go on (and refuse) and the spectator."""
    hub = make_hub(tmp_path)
    hub.delay, hub.retry_first = 0.005, 0.01
    t = new_table(hub, "9-5-2 deals=1", ["heuristic", "heuristic", "heuristic"], seed=5)
    tid = t["id"]
    real = hub.store.append_many
    blocked, go = _blocking_refusal(hub, at)
    c = connect(hub, tid)
    await send(hub, c, {"type": "join", "token": None})
    while not blocked.is_set():
        await asyncio.sleep(0.005)
    return hub, tid, real, go, c


def _codes(frames: list[str]) -> list[str]:
    return [m.get("code", m["type"]) for m in map(json.loads, frames)]


def test_a_failed_paced_run_goes_on_by_itself_once_the_store_works(tmp_path: Path) -> None:
    """The repro: with ``--delay``, the database refusing a write in the middle of a table's computers' moves (a locked
    SQLite file, PostgreSQL restarting) left the table stopped: its clients were told (``storage``) and nothing took the
    moves again until someone joined or reloaded the page. Now the run is tried again by itself (after 0.02 s, then 0.04
    s, 0.08 s: the backoff doubles), replayed from the database: once the store works the match goes on to its end, each
    action stored once and none lost (the same log as a run that never failed), and the clients are shown it."""
    async def run(refuse: set[int], sub: str) -> tuple[list[Any], list[str], Hub, str]:
        (tmp_path / sub).mkdir()
        hub = make_hub(tmp_path / sub)
        hub.delay, hub.retry_first = 0.005, 0.02
        t = new_table(hub, "9-5-2 deals=1", ["heuristic", "heuristic", "heuristic"], seed=5)
        tid = t["id"]
        calls = _flaky(hub, refuse)
        c = connect(hub, tid)
        await send(hub, c, {"type": "join", "token": None})  # a table of computers: its first spectator starts it
        await asyncio.wait_for(hub.idle(tid), 30)
        assert set(refuse) <= set(calls)
        gt = hub.tables[tid]
        assert gt.match.over
        assert [e.idx for e in gt.log] == list(range(len(gt.log)))
        assert [(e.idx, e.kind, e.seat, e.data) for e in gt.log] == _stored(hub, tid)
        last = c.ws.last()
        assert last is not None and last["over"] and last["v"] == gt.version
        return _stored(hub, tid), [f for f in c.ws.frames if json.loads(f)["type"] == "error"], hub, tid

    stored, errors, hub, tid = asyncio.run(run({5, 6, 7}, "f"))
    reference, none, _, _ = asyncio.run(run(set(), "n"))
    assert stored == reference and none == []
    # each failure told once, with the time of the next try (it said "reload the page to go on")
    reasons = [json.loads(f)["reason"] for f in errors]
    assert [json.loads(f)["code"] for f in errors] == ["storage"] * 3, reasons
    assert [json.loads(f)["retry"] for f in errors] == [0.02, 0.04, 0.08]  # the page says it in its language
    assert reasons == [f"the computers' moves could not be taken (OperationalError); they are tried again in {w} s"
                       for w in ("0.02", "0.04", "0.08")], reasons
    assert hub.retries == {} and hub.failures == {} and hub.runs == {} and hub.advancing == {}


def test_a_failed_run_after_a_players_card_goes_on_by_itself(tmp_path: Path) -> None:
    """The repro without a delay: Ann's start was stored, the computers' moves after it were refused by the database;
    she was told (``server``) and the table then waited for the computers for good (her card refused: not her turn).
    Now the moves are tried again by themselves and she is shown the state once they are stored, her turn come."""
    async def run(refuse: set[int], sub: str) -> tuple[list[Any], list[str]]:
        (tmp_path / sub).mkdir()
        hub = make_hub(tmp_path / sub)
        hub.retry_first = 0.02
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        tid = t["id"]
        _flaky(hub, refuse)
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})  # answered: no exception out of the handler
        await asyncio.wait_for(hub.idle(tid), 10)
        st = a.ws.last()
        assert st is not None and st["view"]["to_act"] == 0 and not st["waiting_start"]
        return _stored(hub, tid), _codes(a.ws.frames)

    stored, codes = asyncio.run(run({1, 2}, "f"))
    reference, ref_codes = asyncio.run(run(set(), "n"))
    assert stored == reference
    assert "error" not in str(ref_codes) and codes.count("storage") == 2 and codes[-1] == "state", codes


def test_a_failed_run_forgets_only_the_copy_it_ran_on(tmp_path: Path) -> None:
    """The repro (a race): a run whose store call failed forgot the table by its id; had the table been opened anew as a
    new copy meanwhile (everyone gone, someone back), that copy was dropped, its clients told of a failure not theirs.
    Now a run only touches the copy it was started for: the new copy stays, nobody is told, no retry is made, and the
    new copy goes on to the same log."""
    async def run() -> None:
        hub, tid, real, go, c = await _computers_blocked_at(tmp_path, 3)
        old = hub.tables.pop(tid)  # the table opened anew while the old run's write is failing
        new = hub.load(tid)
        assert new is not None and new is not old
        go.set()
        while tid in hub.runs:
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)
        assert hub.tables.get(tid) is new, "the new copy was dropped"
        assert "storage" not in _codes(c.ws.frames) and tid not in hub.retries
        hub.store.append_many = real  # type: ignore[method-assign]
        async with hub.lock(tid):
            await hub.advance(new)
        await asyncio.wait_for(hub.idle(tid), 30)
        assert new.match.over and hub.tables.get(tid) is new
        stored = _stored(hub, tid)
        assert [e[0] for e in stored] == list(range(len(stored)))
        assert [(e.idx, e.kind, e.seat, e.data) for e in new.log] == stored

    asyncio.run(run())


def test_a_join_that_waited_for_a_failing_run_is_shown_the_stored_state(tmp_path: Path) -> None:
    """The repro: a spectator's join waiting for the table's lock while the computers' run of moves failed to store was
    then shown the forgotten copy - moves the database never stored - and the table was advanced from it. Now the join
    takes the copy replayed from the database; the match goes on from there, each action stored once."""
    async def run() -> None:
        hub, tid, real, go, c = await _computers_blocked_at(tmp_path, 4)
        stored_v = sum(1 for e in _stored(hub, tid) if e[1] in ("start", "act", "undo"))
        s = connect(hub, tid)
        joining = asyncio.create_task(send(hub, s, {"type": "join", "token": None}))
        await asyncio.sleep(0.05)  # the join waits for the lock, held by the run's write
        assert not joining.done()
        go.set()
        await joining
        first = s.ws.last()
        assert first is not None and first["v"] == stored_v, (first and first["v"], stored_v)
        hub.store.append_many = real  # type: ignore[method-assign]
        await asyncio.wait_for(hub.idle(tid), 30)
        gt = hub.tables[tid]
        assert gt.match.over
        stored = _stored(hub, tid)
        assert [e[0] for e in stored] == list(range(len(stored)))
        assert [(e.idx, e.kind, e.seat, e.data) for e in gt.log] == stored

    asyncio.run(run())


def test_a_friends_name_is_stored_in_a_worker_thread_before_it_is_shown(tmp_path: Path) -> None:
    """The repro: a friend's join with his name wrote it to the database on the event loop (a slow disk held every table
    of the server meanwhile). Now it is written in a worker thread, as every other write: another client is answered
    meanwhile; the name is stored before any state shows it; a name the database refuses is not shown."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        real = hub.store.claim_seat  # a friend's first join takes the seat and stores his name (one UPDATE)
        where: list[bool] = []

        def claim_seat(table_id: str, seat: int, name: str | None) -> tuple[bool, SeatRow]:
            try:
                asyncio.get_running_loop()
                where.append(True)  # on the event loop
            except RuntimeError:
                where.append(False)
            time.sleep(0.3)
            if name == "Refused":
                raise _refusal()
            return real(table_id, seat, name)

        hub.store.claim_seat = claim_seat  # type: ignore[method-assign]
        shown_stored: list[bool] = []

        def seen(text: str) -> None:
            m = json.loads(text)
            if m["type"] == "state" and m["table"]["seats"][1]["name"] == "Bob":
                got = hub.store.table(tid)
                shown_stored.append(got is not None and got[1][1].name == "Bob")

        a = connect(hub, tid, on_send=seen)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        f = connect(hub, tid)
        joining = asyncio.create_task(send(hub, f, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"}))
        await asyncio.sleep(0.05)
        t0 = time.monotonic()
        await send(hub, a, {"type": "ping"})
        assert json.loads(a.ws.frames[-1]) == {"type": "pong"}
        assert time.monotonic() - t0 < 0.15  # it waited for the write: 0.3 s
        await joining
        assert where == [False, False]  # seat 0 taken by its join, then seat 1 (Bob): both in a worker thread
        assert shown_stored and all(shown_stored), shown_stored
        st = f.ws.last()
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Bob"
        # a refused name (another table's friend): the seat is taken, the name stays the stored one
        t2 = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        g = connect(hub, t2["id"])
        await send(hub, g, {"type": "join", "token": t2["seats"][1]["token"], "name": "Refused"})
        st = g.ws.last()
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Friend 1"
        assert hub.store.table(t2["id"])[1][1].name == "Friend 1"  # type: ignore[index]
        # and he is told so, quoting both names (he was seated silently under the old one)
        told = [json.loads(x) for x in g.ws.frames if json.loads(x)["type"] == "error"]
        assert [m["code"] for m in told] == ["storage_name"], told
        assert told[0]["reason"] == 'the name "Refused" could not be stored (OperationalError); you play as "Friend 1"', told

    asyncio.run(run())


def test_idle_ends_for_a_run_cancelled_before_it_started(tmp_path: Path) -> None:
    """``Hub.idle`` waited forever (a busy loop) for a run cancelled before it ran: its ``finally``, which removes it
    from ``Hub.runs``, never ran, so the finished task stayed there. Now a finished task is removed and idle ends."""
    async def run() -> None:
        hub = make_hub(tmp_path)

        async def never() -> None:
            await asyncio.sleep(10)

        task = asyncio.create_task(never())
        task.cancel()
        hub.runs["t1"] = task
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(hub.idle("t1"), 2)
        assert "t1" not in hub.runs

    asyncio.run(run())


def test_a_failure_while_a_retry_is_pending_says_the_time_left(tmp_path: Path) -> None:
    """A second failure while a retry was pending (a client's own message failed meanwhile) told the clients the whole
    wait again ("tried again in 1 s" 0.3 s after the first said 1 s); it now says the pending retry's time left."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        hub.retry_first = 1.0
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        tid = t["id"]
        c = connect(hub, tid)
        c.joined = True  # a failure is told to the clients that joined the table
        hub.tables.pop(tid, None)  # the failed run's copy is forgotten, as after a failure
        await hub._failed(tid, _refusal())
        await asyncio.sleep(0.3)
        await hub._failed(tid, _refusal())
        told = [m for m in map(json.loads, c.ws.frames) if m["type"] == "error"]
        assert [m["retry"] for m in told][:1] == [1.0] and len(told) == 2, told
        assert 0.5 <= told[1]["retry"] <= 0.75, told
        assert told[1]["reason"].endswith(f"they are tried again in {told[1]['retry']:g} s"), told
        for task in hub.retries.values():
            task.cancel()

    asyncio.run(run())


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
