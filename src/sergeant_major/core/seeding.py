"""Checks of the random generators that players and searches are given.

Every random choice in the package (a player's decision, a determinization's world) draws from a
``random.Random`` the caller seeds, so that a game replays exactly from its seed.
"""

from __future__ import annotations

import random

from sergeant_major.core.errors import SergeantMajorError

__all__ = ["check_rng"]

_SHOWN_CHARACTERS = 60
"""A bad generator's ``repr`` is quoted up to this many characters."""


def check_rng(rng: object, who: str) -> None:
    """Raise :class:`SergeantMajorError` quoting ``rng`` when it is not a ``random.Random``.

    ``None`` or a NumPy generator gave a bare ``AttributeError`` deep in a player; ``who`` names the caller in the
    message (e.g. ``"RandomPlayer.choose"``).

    Raises:
        SergeantMajorError: ``"<who>: rng=<repr, at most 60 characters> is not a random.Random (give
            random.Random(seed))"``.
    """
    if not isinstance(rng, random.Random):
        text = repr(rng)
        shown = text if len(text) <= _SHOWN_CHARACTERS else text[:_SHOWN_CHARACTERS - 3] + "..."
        raise SergeantMajorError(f"{who}: rng={shown} is not a random.Random (give random.Random(seed))")
