"""The quick chat: preset phrases only, sent as an id and shown to the table's players and spectators (the page writes
each phrase in its language: ``static/i18n.js``, ``chat_<id>``), so that nothing needs moderating; at most
:data:`CHAT_BURST` phrases per :data:`CHAT_WINDOW` seconds from one connection."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sergeant_major.web.protocol import Refusal, quote

__all__ = ["CHAT_PHRASES", "CHAT_BURST", "CHAT_WINDOW", "ChatLimit", "chat_phrase", "chat_message"]

CHAT_PHRASES: dict[str, str] = {
    "hello": "Hello", "good_luck": "Good luck", "well_played": "Well played", "thanks": "Thanks", "oops": "Oops",
    "sorry": "Sorry", "nice_trick": "Nice trick", "one_moment": "One moment, please", "good_game": "Good game",
    "bye": "Bye",
}
CHAT_BURST = 4
CHAT_WINDOW = 10.0


def chat_phrase(raw: Any) -> str:
    """The phrase id of a ``chat`` message (``raw``: its ``"id"``).

    Raises:
        Refusal: ``bad_chat`` quoting ``raw`` when it is not one of :data:`CHAT_PHRASES`."""
    if not isinstance(raw, str) or raw not in CHAT_PHRASES:
        raise Refusal("bad_chat", f"{quote(raw)} is not a quick-chat phrase (one of {', '.join(CHAT_PHRASES)}); nothing was sent")
    return raw


def chat_message(seat: int, name: str, phrase: str) -> dict[str, Any]:
    """The ``chat`` message shown to the table: who (``seat``, ``name``) said which phrase (``id``, English ``text``)."""
    return {"type": "chat", "seat": seat, "name": name, "id": phrase, "text": CHAT_PHRASES[phrase]}


@dataclass
class ChatLimit:
    """When one connection's last phrases were sent (monotonic seconds)."""

    sent: deque[float] = field(default_factory=deque)

    def allow(self) -> bool:
        """Whether one more phrase may go now (counted when it may)."""
        now = time.monotonic()
        while self.sent and now - self.sent[0] > CHAT_WINDOW:
            self.sent.popleft()
        if len(self.sent) >= CHAT_BURST:
            return False
        self.sent.append(now)
        return True
