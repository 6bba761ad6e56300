"""Regressions of the web table: deal 1 waits for every person's seat (a start refused with ``empty_seat`` while an
invited friend has not joined); with ``--delay`` the computers' moves are shown at the same pace whether a move had
one legal choice or many (a timing channel: an expert answers a forced return at once and thinks over a free one, which
told the others whether a trump was given); and with ``--delay`` the player whose action made the computers' moves due
is answered at once, her next messages too (her websocket was busy until all of them had moved)."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.core.actions import Action  # noqa: E402
from sergeant_major.core.view import View  # noqa: E402
from sergeant_major.players import RandomPlayer  # noqa: E402


def test_deal_one_waits_until_every_persons_seat_is_taken(tmp_path: Path) -> None:
    """The repro: at a table of Ann and an invited friend, Ann's ``start`` dealt deal 1 before the friend had opened his
    link (and with a timeout a stand-in then played his cards). Now the start is refused (``empty_seat``, naming the
    seat; nothing changes) until every person's seat is held; then it is taken. Practice tables and tables of
    computers start as before; a later deal is not held up by a player away (a stand-in plays for him)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tid = t["id"]
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        gt = hub.tables[tid]
        await send(hub, a, {"type": "start", "v": 0})
        err = a.ws.last("error")
        assert err is not None and err["code"] == "empty_seat", err
        assert "seat 1 (\"Friend 1\")" in err["reason"] and "nothing was changed" in err["reason"], err
        assert gt.waiting_start and gt.version == 0 and len(gt.log) == 0
        assert hub.store.table(tid)[2] == []  # type: ignore[index]  # nothing stored
        f = connect(hub, tid)
        await send(hub, f, {"type": "join", "token": t["seats"][1]["token"], "name": "Bob"})
        # the friend's seat is shown held to Ann: her page enables its start then
        st = a.ws.last()
        assert st is not None and [s["online"] for s in st["table"]["seats"]] == [True, True, False]
        await send(hub, a, {"type": "start", "v": 0})
        assert not gt.waiting_start and gt.released == 1
        # deal 1 played out; the friend then went away (his phone locked): the next deal is not held up by him
        conns = {0: a, 1: f}
        while not gt.waiting_start:
            seat = gt.match.to_act
            assert seat in conns, seat
            st = conns[seat].ws.last()
            assert st is not None and st["view"]["legal"], st
            legal = dict(st["view"]["legal"][0])
            legal.pop("seat", None)
            await send(hub, conns[seat], {"type": "act", "v": st["v"], "action": legal})
            assert conns[seat].ws.last()["type"] == "state", conns[seat].ws.last()  # type: ignore[index]
        assert gt.released == 1 and gt.match.deal.number == 2
        hub.drop(f)
        assert 1 not in hub.online(tid)
        await send(hub, a, {"type": "start", "v": gt.version})
        assert not gt.waiting_start and gt.released == 2, a.ws.last("error")

        # a practice table, and a table of two "me" seats once both are held
        p = new_table(hub, "9-5-2", ["me", "random", "random"], seed=2)
        pc = connect(hub, p["id"])
        await send(hub, pc, {"type": "join", "token": p["seats"][0]["token"]})
        await send(hub, pc, {"type": "start", "v": 0})
        assert hub.tables[p["id"]].released == 1
        two = new_table(hub, "9-5-2", ["me", "me", "random"], seed=2)
        m1, m2 = connect(hub, two["id"]), connect(hub, two["id"])
        await send(hub, m1, {"type": "join", "token": two["seats"][0]["token"]})
        await send(hub, m1, {"type": "start", "v": 0})
        assert m1.ws.last("error")["code"] == "empty_seat"  # type: ignore[index]
        await send(hub, m2, {"type": "join", "token": two["seats"][1]["token"]})
        await send(hub, m2, {"type": "start", "v": 0})
        assert hub.tables[two["id"]].released == 1

    asyncio.run(run())


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
        assert time.monotonic() - t0 < 0.15  # it was 1 s: five delays of 0.2 s
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
            assert time.monotonic() - t0 < 0.15
        await hub.idle(t["id"])
        gt = hub.tables[t["id"]]
        assert gt.match.to_act == 0 and a.ws.last()["view"]["to_act"] == 0  # type: ignore[index]
        return [e.data for e in gt.log]

    assert asyncio.run(run(0.2, "d")) == asyncio.run(run(0.0, "n"))


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
