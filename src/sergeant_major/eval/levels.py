"""Every computer player level by name, for measurement: the players' levels and OpenSpiel's ``ismcts``.

:data:`LEVELS` is :data:`sergeant_major.players.LEVELS` itself (a level registered there is seen here);
:data:`MEASUREMENT_LEVELS` adds ``ismcts`` (:mod:`sergeant_major.research.ismcts`, which needs the ``openspiel``
extra) to the players' ``oracle``. The tournament and ``sergeant_major.make_player`` use this registry.
"""

from __future__ import annotations

from collections.abc import Callable

from sergeant_major.players.protocol import Player
from sergeant_major.players.registry import LEVELS, make_player_among
from sergeant_major.players.registry import MEASUREMENT_LEVELS as PLAYERS_MEASUREMENT_LEVELS

__all__ = ["LEVELS", "MEASUREMENT_LEVELS", "make_player"]


def _ismcts() -> Player:
    # imported when first made: it loads OpenSpiel
    from sergeant_major.research.ismcts import ISMCTSPlayer

    return ISMCTSPlayer()


MEASUREMENT_LEVELS: dict[str, Callable[[], Player]] = {
    **PLAYERS_MEASUREMENT_LEVELS,
    "ismcts": _ismcts,
}
"""Levels for measurement only, never offered in ``play``: ``oracle`` sees every card; ``ismcts`` is OpenSpiel's
ISMCTS bot (needs the ``openspiel`` extra; :mod:`sergeant_major.research.ismcts`). The tournament may use them."""


def make_player(level: str) -> Player:
    """A computer player by level name: one of :data:`LEVELS` (``random``, ``beginner``, ``heuristic``,
    ``expert``) or of :data:`MEASUREMENT_LEVELS` (``oracle``, which needs the whole deal, and ``ismcts``, which
    needs the ``openspiel`` extra: tournaments only).

    Raises:
        UnknownLevelError: quoting an unknown level (a :class:`SergeantMajorError`).
    """
    return make_player_among(level, MEASUREMENT_LEVELS)
