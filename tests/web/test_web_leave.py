"""Leaving a match before its end: a ``left`` entry, a computer plays the seat to the end, the leaver ranks last
(:func:`final_ranking`); a second or stale leave, and a leaver's action, are refused and change nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, play_to_the_end, send  # noqa: E402

from sergeant_major.records import dumps_record, loads_record  # noqa: E402
from sergeant_major.records.validation import check_record  # noqa: E402
from sergeant_major.web.tables import final_ranking, ranked_winners  # noqa: E402


def test_a_leaver_is_played_by_a_computer_and_ranks_last(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=3", ["me", "friend", "heuristic"], seed=11)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": a.ws.last()["v"]})
        gt = hub.tables[tid]
        with pytest.raises(ValueError, match="not over"):
            final_ranking(gt)
        v = b.ws.last()["v"]
        await send(hub, b, {"type": "leave", "v": v - 1})  # stale: refused
        assert b.ws.last("error")["code"] == "stale" and 1 not in gt.left
        await send(hub, b, {"type": "leave", "v": v})
        assert gt.log[-1].kind == "left" and gt.log[-1].seat == 1 and 1 in gt.left
        left = b.ws.last()
        assert left["you"] is None and left["view"]["hand"] == [] and left["table"]["seats"][1]["left"] is True
        n = len(gt.log)
        await send(hub, b, {"type": "leave", "v": b.ws.last()["v"]})  # twice: refused
        assert b.ws.last("error")["code"] == "not_seated" and len(gt.log) == n
        again = connect(hub, tid)  # the leaver's token again (a reload): watching, the seat is the computer's
        await send(hub, again, {"type": "join", "token": t["seats"][1]["token"]})
        assert again.ws.last()["you"] is None and 1 in gt.left
        st = a.ws.last()
        assert st["table"]["seats"][1]["left"] is True
        # Ann plays on alone with two computers (one the leaver's seat)
        end = await play_to_the_end(hub, a)
        assert end["over"]
        ranks = final_ranking(gt)
        assert ranks[1] == 3 and sorted(ranks[:1] + ranks[2:]) in ([1, 1], [1, 2])
        # the end dialog's winners are the ranking's, as every page names them (the leaver never among them)
        assert end["end"]["winners"] == ranked_winners(gt) == [s for s, r in enumerate(ranks) if r == 1]
        rec = gt.record()
        assert [x["seat"] for x in rec["meta"]["left"]] == [1]
        check_record(loads_record(dumps_record(rec)))
        await send(hub, a, {"type": "leave", "v": a.ws.last()["v"]})
        assert a.ws.last("error")["code"] == "over"

    asyncio.run(run())


def test_a_leaver_cannot_act_for_the_seat(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path, )
        hub.delay = 0.3  # the computer playing the leaver's seat thinks: the leaver's card comes first
        t = new_table(hub, "9-5-2 deals=2", ["me", "heuristic", "heuristic"], seed=5)
        tid = t["id"]
        a = connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "start", "v": a.ws.last()["v"]})
        gt = hub.tables[tid]
        for _ in range(50):
            if gt.match.to_act == 0 and tid not in hub.advancing:
                break
            await asyncio.sleep(0.05)
        st = a.ws.last()
        legal = dict(st["view"]["legal"][0])
        legal.pop("seat")
        tab = connect(hub, tid)  # a second tab of the same seat, still open after the leave
        await send(hub, tab, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, a, {"type": "leave", "v": st["v"]})
        n = len(gt.acts)
        await send(hub, tab, {"type": "act", "v": gt.version, "action": legal})
        err = tab.ws.last("error")
        assert err is not None and err["code"] == "left" and json.dumps(legal) in err["reason"]
        await send(hub, a, {"type": "act", "v": gt.version, "action": legal})
        assert a.ws.last("error")["code"] == "not_seated"
        assert all(by != "human" for _, by in gt.acts[n:])
        await hub.idle(tid)

    asyncio.run(run())


def test_final_ranking_ties_a_shared_win() -> None:
    from types import SimpleNamespace

    from sergeant_major.core.match import MatchEnd

    m = SimpleNamespace(end=MatchEnd((0, 2), "shared"), totals=[5, 1, 5], rules=SimpleNamespace(players=3))
    gt = SimpleNamespace(match=m, left=set(), row=SimpleNamespace(id="x"))
    assert final_ranking(gt) == [1, 3, 1]  # type: ignore[arg-type]
    gt.left = {0}
    assert final_ranking(gt) == [3, 2, 1]  # type: ignore[arg-type]


def test_when_every_person_has_gone_the_match_plays_to_its_end(tmp_path: Path) -> None:
    """Bea leaves, then Ann leaves too: nobody would start the next deal, so the match would stay unfinished and Bea's
    leaving would never count. The deals now start by themselves and the match ends, both leavers last."""
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2 deals=3", ["me", "friend", "heuristic"], seed=11)
        tid = t["id"]
        a, b = connect(hub, tid), connect(hub, tid)
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "start", "v": a.ws.last()["v"]})
        gt = hub.tables[tid]
        await send(hub, b, {"type": "leave", "v": b.ws.last()["v"]})
        assert not gt.everyone_gone
        await send(hub, a, {"type": "leave", "v": a.ws.last()["v"]})
        for _ in range(500):
            if gt.match.over:
                break
            await asyncio.sleep(0.01)
        assert gt.match.over and gt.match.deal.number == 3
        ranks = final_ranking(gt)
        assert ranks[2] == 1 and sorted(ranks[:2]) in ([2, 2], [2, 3])  # the computer first, the leavers after it
        check_record(loads_record(dumps_record(gt.record())))

    asyncio.run(run())


def test_a_person_left_alone_and_away_finds_the_next_deal_waiting(tmp_path: Path) -> None:
    """Nobody left for good: a person whose seat a stand-in holds (away) is not 'gone', so the next deal waits for them."""
    hub = make_hub(tmp_path)
    t = new_table(hub, "9-5-2 deals=3", ["me", "friend", "heuristic"], seed=11)
    gt = hub.load(t["id"])
    assert gt is not None
    gt.released = 1
    gt.away = {0, 1}
    assert not gt.everyone_gone
    gt.left = {1}
    assert gt.everyone_gone
