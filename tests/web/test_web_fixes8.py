"""Regressions from a fifth fresh-eyes run on the web server (an in-process hub with fake websockets): a name sent in a
join after the match is over leaves the finished record alone; a join's token is not quoted back in a refusal; refusals
for the turn, a match over or a deal not started quote the action; a contract that is none lists this table's
contracts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.connections import Conn  # noqa: E402
from sergeant_major.web.hub import Hub  # noqa: E402


def _errors(c: Conn) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, c.ws.frames) if m["type"] == "error"]  # type: ignore[attr-defined]


async def _play_out(hub: Hub, conns: list[Conn]) -> None:
    """Both seated players take their first legal action (and start every deal) until the match is over."""
    for _ in range(2000):
        st = conns[0].ws.last()  # type: ignore[attr-defined]
        assert st is not None
        if st["over"]:
            return
        for c in conns:
            s = c.ws.last()  # type: ignore[attr-defined]
            if s["waiting_start"]:
                await send(hub, c, {"type": "start", "v": s["v"]})
                break
            if s["view"]["to_act"] == s["you"] and s["view"]["legal"]:
                await send(hub, c, {"type": "act", "v": s["v"], "action": s["view"]["legal"][0]})
                break
    raise AssertionError("the match did not end")


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
        await _play_out(hub, [a, b])
        gt = hub.tables[tid]
        before = json.dumps(gt.record())
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Someone else"})
        st = b.ws.last()  # type: ignore[attr-defined]
        assert st is not None and st["you"] == 1 and st["table"]["seats"][1]["name"] == "Bo"
        assert json.dumps(hub.tables[tid].record()) == before
        stored = hub.store.table(tid)
        assert stored is not None and [s.name for s in stored[1]] == ["Al", "Bo", "Heuristic 3"]

    asyncio.run(run())


def test_a_refused_join_does_not_quote_its_token_back(tmp_path: Path) -> None:
    """The repro: ``{"type": "join", "token": T, "extra": 1}`` was refused quoting the whole message, the seat's secret
    token with it (a wrong token is said by its length only, so that it ends up nowhere the messages are kept)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=3)
        tok = t["seats"][0]["token"]
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": tok, "extra": 1})
        (err,) = _errors(c)
        assert err["code"] == "bad_message" and "extra" in err["reason"], err
        assert tok not in err["reason"] and f"a token of {len(tok)} characters" in err["reason"], err
        assert not c.joined

    asyncio.run(run())


def test_refusals_of_the_turn_the_start_and_the_end_quote_the_action(tmp_path: Path) -> None:
    """The repro: an action out of turn was answered "it is not your turn", one before the start "deal 1 has not started
    yet" and one after the end "the match is over", none quoting the action refused (nor saying who is to act)."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=1", ["me", "friend", "heuristic"], seed=3)
        a, b = connect(hub, t["id"]), connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"], "name": "Al"})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"], "name": "Bo"})
        await send(hub, a, {"type": "act", "v": 0, "action": {"contract": "S"}})
        await send(hub, a, {"type": "start", "v": 0})
        st = a.ws.last()  # type: ignore[attr-defined]
        assert st is not None
        waiting = 1 - st["view"]["to_act"]  # a seated player who is not to act (seat 0 or 1)
        w = [a, b][waiting]
        await send(hub, w, {"type": "act", "v": st["v"], "action": {"contract": "S"}})
        await _play_out(hub, [a, b])
        await send(hub, a, {"type": "act", "v": a.ws.last()["v"], "action": {"play": "AS"}})  # type: ignore[attr-defined]
        errs = _errors(a) + _errors(b)
        by_code = {e["code"]: e["reason"] for e in errs}
        assert '{"contract": "S"}' in by_code["not_started"], errs
        assert '{"contract": "S"}' in by_code["turn"] and f"seat {st['view']['to_act']}" in by_code["turn"], errs
        assert '{"play": "AS"}' in by_code["over"], errs

    asyncio.run(run())


@pytest.mark.parametrize(("rules", "listed"), [("9-5-2", "one of C, D, H, S)"), ("3-5-8", "one of C, D, H, S, NT, MT)")])
def test_a_contract_that_is_none_lists_the_contracts_of_the_table(tmp_path: Path, rules: str, listed: str) -> None:
    """The repro: ``{"contract": "X"}`` at a 9-5-2 table was refused as "not a contract (one of C, D, H, S, NT, MT)",
    offering no-trump and minimum tricks, which 9-5-2 does not have."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, rules, ["me", "heuristic", "heuristic"], seed=3)
        c = connect(hub, t["id"])
        await send(hub, c, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, c, {"type": "start", "v": 0})
        v = c.ws.last()["v"]  # type: ignore[attr-defined]
        await send(hub, c, {"type": "act", "v": v, "action": {"contract": "X"}})
        (err,) = _errors(c)
        assert err["code"] == "bad_action" and '"X"' in err["reason"] and err["reason"].endswith(f'{listed} ({{"contract": "X"}})'), err
        assert c.ws.last()["v"] == v  # type: ignore[attr-defined]

    asyncio.run(run())
