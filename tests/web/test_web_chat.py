"""The quick chat: a phrase id from a seated player is shown to everyone at the table (players and spectators), never to
another table; a bad id, a spectator's phrase and a flood are refused quoting what was sent, and nothing is shown."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from _webhelp import connect, make_hub, new_table, send  # noqa: E402

from sergeant_major.web.chat import CHAT_BURST, CHAT_PHRASES  # noqa: E402


def _chats(c: Any) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, c.ws.frames) if m["type"] == "chat"]


def test_a_phrase_reaches_the_table_and_only_the_table(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=2)
        other = new_table(hub, "9-5-2", ["me", "heuristic", "heuristic"], seed=3)
        a, b, spec = connect(hub, t["id"]), connect(hub, t["id"]), connect(hub, t["id"])
        elsewhere = connect(hub, other["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, spec, {"type": "join", "token": None})
        await send(hub, elsewhere, {"type": "join", "token": other["seats"][0]["token"]})
        await send(hub, a, {"type": "chat", "id": "good_luck"})
        want = {"type": "chat", "seat": 0, "name": "Me", "id": "good_luck", "text": "Good luck"}
        assert _chats(a) == _chats(b) == _chats(spec) == [want]
        assert _chats(elsewhere) == []
        gt = hub.tables[t["id"]]
        assert all(e.kind != "chat" for e in gt.log)  # the chat is not part of the match (nor of its record)

    asyncio.run(run())


@pytest.mark.parametrize("bad", ["idiot", 3, None, ["good_luck"], "GOOD_LUCK", "good_luck "])
def test_a_bad_phrase_id_is_refused_quoting_it(tmp_path: Path, bad: Any) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=2)
        a, b = connect(hub, t["id"]), connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, b, {"type": "join", "token": t["seats"][1]["token"]})
        await send(hub, a, {"type": "chat", "id": bad})
        err = a.ws.last("error")
        assert err is not None and err["code"] == "bad_chat" and json.dumps(bad) in err["reason"]
        assert _chats(a) == _chats(b) == []

    asyncio.run(run())


def test_spectators_read_but_do_not_send_and_a_flood_is_cut(tmp_path: Path) -> None:
    async def run() -> None:
        hub = make_hub(tmp_path)
        t = new_table(hub, "9-5-2", ["me", "friend", "heuristic"], seed=2)
        a, spec = connect(hub, t["id"]), connect(hub, t["id"])
        await send(hub, a, {"type": "join", "token": t["seats"][0]["token"]})
        await send(hub, spec, {"type": "join", "token": None})
        await send(hub, spec, {"type": "chat", "id": "hello"})
        assert spec.ws.last("error")["code"] == "not_seated" and _chats(a) == []
        await send(hub, a, {"type": "chat", "id": "hello", "extra": 1})
        assert a.ws.last("error")["code"] == "bad_message" and "extra" in a.ws.last("error")["reason"]
        for _ in range(CHAT_BURST + 2):
            await send(hub, a, {"type": "chat", "id": "nice_trick"})
        assert len(_chats(spec)) == CHAT_BURST
        # the phrase as the player saw it (not its id), and its id for the page to write it in its language
        err = a.ws.last("error")
        assert err["code"] == "chat_flood" and '"Nice trick" was not sent' in err["reason"] and err["id"] == "nice_trick"

    asyncio.run(run())


def test_every_phrase_has_an_english_and_a_german_text() -> None:
    text = (Path(__file__).resolve().parents[2] / "src" / "sergeant_major" / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
    for pid in CHAT_PHRASES:
        assert text.count(f"chat_{pid}:") == 2, pid
