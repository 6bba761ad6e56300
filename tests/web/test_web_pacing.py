"""The computers' moves on the event loop: with ``--delay`` paced alike whatever the number of choices, players and
spectators answered while the computers play or think, long matches of computers only never holding up the server,
and what spectators of a table of computers are sent."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette's notice about httpx, not about this code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.core.actions import Action  # noqa: E402
from sergeant_major.core.view import View  # noqa: E402
from sergeant_major.players import RandomPlayer  # noqa: E402
from sergeant_major.web.app import create_app  # noqa: E402


def test_a_long_match_of_computers_only_does_not_stop_the_server(tmp_path: Path) -> None:
    """The repro: anyone could make a table of three computers with ``deals=300`` (or 100000) and open it: without a
    delay the whole match was played in one go on the event loop, and the server answered nothing else meanwhile
    (``/api/options`` took 4 s for 300 deals). Now the event loop runs between deals, each deal stored first."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 to=off instant-win=off deals=30", ["random", "beginner", "random"], seed=9)
        gt = hub.load(t["id"])
        assert gt is not None
        seen: list[int] = []

        async def other_work() -> None:  # stands for every other table and request of the server
            while not gt.match.over:
                seen.append(gt.released)
                await asyncio.sleep(0)

        w = asyncio.create_task(other_work())
        await send(hub, connect(hub, t["id"]), {"type": "join", "token": None})  # a spectator: the match is played
        await w
        assert gt.match.over and gt.released == 30
        assert len(set(seen)) >= 25, seen  # it ran between the deals
        got = hub.store.table(t["id"])
        assert got is not None and [e.data for e in got[2]] == [e.data for e in gt.log]  # all stored

    asyncio.run(run())


@pytest.mark.slow
def test_spectators_of_a_table_of_computers_see_the_match_as_it_is_played(tmp_path: Path) -> None:
    """The repro: with a delay (``serve`` has 0.6 s), opening a table of three computers showed nothing until the match
    was over: the websocket took the server's due actions, the whole match, before reading the ``join``; a second
    spectator waited for the table's lock as long. Now both get the state at once and every action after it."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", delay=0.03)
    with TestClient(app) as cl:
        out = cl.post("/api/tables", json={"rules": "9-5-2 deals=2", "seed": 4, "seats": [
            {"kind": "computer", "level": "random"}, {"kind": "computer", "level": "beginner"},
            {"kind": "computer", "level": "random"}]}).json()
        with cl.websocket_connect(f"/ws/{out['id']}") as ws1:
            ws1.send_text(json.dumps({"type": "join", "token": None}))
            first = ws1.receive_json()
            assert first["type"] == "state" and not first["over"] and first["v"] <= 2, (first["over"], first["v"])
            vs = [ws1.receive_json()["v"] for _ in range(5)]
            assert vs == sorted(vs) and vs[-1] > first["v"]  # each action shown as it comes
            with cl.websocket_connect(f"/ws/{out['id']}") as ws2:
                ws2.send_text(json.dumps({"type": "join", "token": None}))
                st = ws2.receive_json()
                assert st["type"] == "state" and not st["over"] and st["view"]["hand"] == [], (st["over"], st["v"])
                while not st["over"]:
                    st = ws2.receive_json()
                assert st["end"] is not None and st["view"]["deal"] == 2


def test_a_table_of_computers_waits_between_deals_while_nobody_watches(tmp_path: Path) -> None:
    """With ``deals=1000000000`` a table of computers, once opened, went on playing (and filling the database) for ever
    after its spectators had gone. Now it waits at the next deal until a spectator joins again (40 deals here, so
    that the test fails rather than running for ever without the fix)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 to=off instant-win=off deals=40", ["random", "beginner", "random"], seed=9)
        tid = t["id"]

        def leave_at_deal_3(text: str) -> None:  # shown when deal 2 is over
            if json.loads(text)["view"]["deal"] >= 3:
                hub.drop(c)  # the tab is closed

        c = connect(hub, tid, on_send=leave_at_deal_3)
        await send(hub, c, {"type": "join", "token": None})
        gt = hub.tables[tid]
        assert gt.released == 2 and gt.waiting_start and gt.match.deal.number == 3 and not gt.match.over
        got = hub.store.table(tid)
        assert got is not None and len(got[2]) == len(gt.log)  # stored
        d = connect(hub, tid, on_send=lambda text: json.loads(text)["view"]["deal"] >= 5 and hub.drop(d))
        await send(hub, d, {"type": "join", "token": None})  # watched again: it goes on
        assert gt.released == 4 and gt.waiting_start

    asyncio.run(run())


def test_a_spectators_join_sends_the_players_nothing_when_nothing_is_due(tmp_path: Path) -> None:
    """A spectator's join takes the server's due actions; when there are none the players get no new state (a state
    message clears the hint or error text on their page)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        n = len(a.ws.frames)
        s = connect(hub, t["id"])
        await send(hub, s, {"type": "join", "token": None})
        assert len(s.ws.frames) == 1 and len(a.ws.frames) == n

    asyncio.run(run())


def test_a_player_is_seated_at_once_while_the_computers_wait_out_their_delay(tmp_path: Path) -> None:
    """The repro: with ``--delay`` (0.6 s by default) the table's lock was held while each computer waited before its
    move, so a player reconnecting (or opening a second tab) while the computers played saw nothing until all of them
    had moved: with five computer moves due, three seconds. Now the lock is free during the wait: she is seated and
    shown the stored state at once, and the computers' moves are the same."""
    async def run() -> list[object]:
        hub = make_hub(tmp_path)
        hub.delay = 0.2
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        tok = t["seats"][0]["token"]
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": tok})
        started = asyncio.create_task(send(hub, a, {"type": "start", "v": 0}))
        await asyncio.sleep(0.05)  # the first computer waits its delay now
        got_at: list[float] = []
        b = connect(hub, t["id"], on_send=lambda _text: got_at.append(time.monotonic()))
        t0 = time.monotonic()
        await send(hub, b, {"type": "join", "token": tok})
        answered = time.monotonic() - t0
        waited = got_at[0] - t0
        first = b.ws.last()
        assert first is not None and first["you"] == 0
        assert waited < 0.15, waited  # it was 1 s: five delays of 0.2 s
        assert answered < 0.15, answered  # and its join is done: the run going on takes the computers' moves
        await started
        await hub.idle(t["id"])  # the computers' paced moves are taken in the background
        gt = hub.tables[t["id"]]
        assert [by for _a, by in gt.acts] == ["computer", "forced", "computer", "computer", "computer", "computer"]
        assert a.ws.last() == b.ws.last() and gt.match.to_act == 0
        got = hub.store.table(t["id"])
        assert got is not None and [e.data for e in got[2]] == [e.data for e in gt.log]
        return [e.data for e in gt.log]

    with_delay = asyncio.run(run())

    async def undelayed() -> list[object]:
        hub = make_hub(tmp_path / "0")
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        return [e.data for e in hub.tables[t["id"]].log]

    (tmp_path / "0").mkdir()
    assert asyncio.run(undelayed()) == with_delay


class _Thinking:
    """A computer that thinks ``think`` seconds over a decision with more than one legal choice and answers at once
    when there is one (as the expert does: a forced return at once, a free one after a search); it notes the number
    of choices of each decision in order."""

    def __init__(self, think: float, seen: list[int]) -> None:
        self.think = think
        self.seen = seen

    def choose(self, view: View, rng: random.Random) -> Action:
        self.seen.append(len(view.legal))
        if len(view.legal) > 1:
            time.sleep(self.think)
        return RandomPlayer().choose(view, rng)


@pytest.mark.slow
def test_computers_moves_are_paced_alike_whatever_their_number_of_choices(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro: with ``--delay`` a computer's move was shown its think time plus the delay after the move before it,
    and an expert thinks over a free return (a trump received, trump-return=free) and not over a forced one (the card
    is the rule's): the others saw by the pace whether a trump had been given. Now a move is shown ``delay`` seconds
    after the state before it was shown, however long the decision took within that (here 0.04 s of 0.07 s): the
    moves with one choice and with several come at the same pace."""
    import sergeant_major.web.tables as tables_mod

    delay, think = 0.07, 0.04
    seen: list[int] = []
    monkeypatch.setattr(tables_mod, "make_player", lambda _level: _Thinking(think, seen))

    async def run() -> list[tuple[float, int]]:
        hub = make_hub(tmp_path)
        hub.delay = delay
        t = new_table(hub, "9-5-2 deals=1", ["heuristic", "heuristic", "heuristic"], seed=5)
        tid = t["id"]
        frames: list[tuple[float, int]] = []  # (when, how many computers' moves had been taken then)

        def shown(text: str) -> None:
            if json.loads(text)["type"] == "state" and tid in hub.tables:
                frames.append((time.monotonic(), sum(1 for _a, by in hub.tables[tid].acts if by == "computer")))

        c = connect(hub, tid, on_send=shown)
        await send(hub, c, {"type": "join", "token": None})
        await hub.idle(tid)
        assert hub.tables[tid].match.over
        return frames

    frames = asyncio.run(run())
    # the time between two states shown, one move apart, by the number of choices of the move shown and of the move
    # decided next (the one a slow think before the broadcast gave away before: the state was shown after it)
    for nxt in (0, 1):
        gaps: dict[bool, list[float]] = {True: [], False: []}
        for (t0, m0), (t1, m1) in zip(frames, frames[1:], strict=False):
            if m0 and m1 == m0 + 1 and m1 + nxt <= len(seen):
                gaps[seen[m1 - 1 + nxt] == 1].append(t1 - t0)
        assert len(gaps[True]) >= 3 and len(gaps[False]) >= 10, {k: len(v) for k, v in gaps.items()}
        one, many = statistics.median(gaps[True]), statistics.median(gaps[False])
        # before: one choice ~0.07 s, several ~0.11 s (the think time showed)
        assert abs(many - one) < 0.02, (nxt, one, many)
        assert one >= delay - 0.005, one


def test_with_a_delay_the_player_is_answered_while_the_computers_play(tmp_path: Path) -> None:
    """The repro: with ``--delay`` (0.6 s by default) the message that made the computers' moves due (a start, a card)
    was handled until all of them had moved, and the player's websocket read nothing else meanwhile: a card clicked
    out of turn was refused, a ping answered, seconds later. Now the paced moves go on in the background: the start is
    answered at once, and so are her next messages; the moves are those of a run without delay."""
    async def run(delay: float, sub: str) -> list[Any]:
        (tmp_path / sub).mkdir()
        hub = make_hub(tmp_path / sub)
        hub.delay = delay
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        t0 = time.monotonic()
        await send(hub, a, {"type": "start", "v": 0})
        if delay:  # it was five delays: the answer waited for the computers' five paced moves
            assert time.monotonic() - t0 < 5 * delay
        st = a.ws.last()
        assert st is not None and not st["waiting_start"]
        if delay:
            assert st["view"]["to_act"] != 0  # the computers are still to move
            t0 = time.monotonic()
            await send(hub, a, {"type": "ping"})
            assert json.loads(a.ws.frames[-1]) == {"type": "pong"}
            card = st["view"]["hand"][0]
            await send(hub, a, {"type": "act", "v": st["v"], "action": {"play": card}})
            assert a.ws.last("error")["code"] in ("turn", "stale")  # type: ignore[index]
            assert time.monotonic() - t0 < 5 * delay
        await hub.idle(t["id"])
        gt = hub.tables[t["id"]]
        assert gt.match.to_act == 0 and a.ws.last()["view"]["to_act"] == 0  # type: ignore[index]
        return [e.data for e in gt.log]

    assert asyncio.run(run(0.2, "d")) == asyncio.run(run(0.0, "n"))


@pytest.mark.slow
def test_a_message_is_not_held_up_while_a_paced_computer_thinks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro (a timing channel left by the pacing): a paced computer decided with the table's lock held, so a
    player's message that needs the lock (here a card on a stale version; a card out of turn, a join alike) was
    answered only when the thinking ended: by the latency of a refusal she measured the computer's think time (the
    expert answers a forced return at once and searches a free one: whether a trump was given). Now the decision is
    made with the lock released, as the rest of the delay is waited out: the refusal comes at once, and the moves are
    those of a run without delay."""
    import sergeant_major.web.tables as tables_mod

    think = 0.4

    class Slow:
        def choose(self, view: View, rng: random.Random) -> Action:
            time.sleep(think)
            return RandomPlayer().choose(view, rng)

    async def run(delay: float, sub: str) -> list[Any]:
        (tmp_path / sub).mkdir()
        hub = make_hub(tmp_path / sub)
        hub.delay = delay
        t = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)  # seed 3: five computer moves before hers
        a = connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": 0})
        if delay:
            await asyncio.sleep(0.1)  # the first computer is thinking now
            lags = []
            for _ in range(2):
                t0 = time.monotonic()
                await send(hub, a, {"type": "act", "v": -1, "action": {"play": "2C"}})
                lags.append(time.monotonic() - t0)
                assert a.ws.last("error")["code"] == "stale"  # type: ignore[index]
                await asyncio.sleep(0.15)
            assert max(lags) < 0.1, lags  # it was the rest of the think time: about 0.3 s
        await hub.idle(t["id"])
        gt = hub.tables[t["id"]]
        assert gt.match.to_act == 0
        return [e.data for e in gt.log]

    monkeypatch.setattr(tables_mod, "make_player", lambda _level: Slow())
    monkeypatch.setattr(tables_mod, "FAST_LEVELS", frozenset())  # thought in a worker thread, as the expert
    paced = asyncio.run(run(0.05, "d"))
    assert paced == asyncio.run(run(0.0, "n"))


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
