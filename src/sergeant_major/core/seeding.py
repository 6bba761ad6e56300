"""Checks of the random generators that players and searches are given.

Every random choice in the package (a player's decision, a determinization's world) draws from a
``random.Random`` the caller seeds, so that a game replays exactly from its seed.
"""

from __future__ import annotations

import operator
import random

from sergeant_major.core.errors import SergeantMajorError

__all__ = ["SEED_LIMIT", "SEED_RANGE", "check_rng", "check_seed", "check_whole"]

SEED_LIMIT = 2**62
"""Seeds of simulations, tournaments, ``--seed`` options and web tables are whole numbers ``0 <= seed < SEED_LIMIT``."""
SEED_RANGE = "a non-negative integer below 2**62"
"""The words that name :data:`SEED_LIMIT`'s range in help texts and refusals."""

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
        raise SergeantMajorError(f"{who}: rng={_shown(rng)} is not a random.Random (give random.Random(seed))")


def _whole(value: object) -> int | None:
    """``value`` as an ``int`` when it is a whole number (an ``int`` or a NumPy integer, not a ``bool``), else ``None``."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def check_seed(seed: object, who: str) -> int:
    """``seed`` as an ``int`` when it is a whole number ``0 <= seed < SEED_LIMIT``.

    A seed is hashed as its text, so ``1.5``, ``True`` (not ``1``) or ``-1`` gave silent results of their own.

    Raises:
        SergeantMajorError: ``"<who>: seed=<repr> is not a whole number from 0 below 2**62"``.
    """
    value = _whole(seed)
    if value is None or not 0 <= value < SEED_LIMIT:
        raise SergeantMajorError(f"{who}: seed={_shown(seed)} is not a whole number from 0 below 2**62")
    return value


def check_whole(value: object, name: str, who: str) -> int:
    """``value`` as an ``int`` when it is a whole number (a count of boards, games, workers...; its range is the
    caller's to check): ``True`` or ``2.0`` were taken as counts.

    Raises:
        SergeantMajorError: ``"<who>: <name>=<repr> is not a whole number"``.
    """
    whole = _whole(value)
    if whole is None:
        raise SergeantMajorError(f"{who}: {name}={_shown(value)} is not a whole number")
    return whole


def _shown(value: object) -> str:
    """``repr(value)``, cut to :data:`_SHOWN_CHARACTERS`; a very long whole number as its first digits and their count
    (``repr`` refuses an int of more than 4300 digits)."""
    whole = _whole(value)
    if whole is not None and abs(whole).bit_length() >= 14_000:  # 4214 digits at most below this: repr() takes them
        return f"<{'-' if whole < 0 else ''}an int of about {int(abs(whole).bit_length() * 0.30103)} digits>"
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARACTERS else text[:_SHOWN_CHARACTERS - 3] + "..."
