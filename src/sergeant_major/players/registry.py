"""The computer players by level name: the levels offered in ``play`` and those kept for measurement.

This registry holds the levels that live in :mod:`sergeant_major.players`. The measurement registry of the
tournament, :mod:`sergeant_major.eval.levels`, adds ``ismcts`` (OpenSpiel's ISMCTS, at the research tier, which
players never import).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sergeant_major.core.errors import UnknownLevelError
from sergeant_major.players.heuristic import HeuristicPlayer
from sergeant_major.players.protocol import Player
from sergeant_major.players.random_player import RandomPlayer

__all__ = ["LEVELS", "MEASUREMENT_LEVELS", "make_player", "make_player_among"]


# The beginner, expert and oracle are imported when first made: the expert loads the search (and Numba).
def _beginner() -> Player:
    from sergeant_major.players.beginner import BeginnerPlayer

    return BeginnerPlayer()


def _expert() -> Player:
    from sergeant_major.players.expert import ExpertPlayer

    return ExpertPlayer()


def _expert_uniform() -> Player:
    from sergeant_major.players.expert import ExpertPlayer

    return ExpertPlayer(name="expert-uniform", model=None)


def _oracle() -> Player:
    from sergeant_major.players.oracle import OraclePlayer

    return OraclePlayer()


LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "beginner": _beginner,
    "heuristic": HeuristicPlayer,
    "expert": _expert,
}
"""The levels offered in ``play`` (and everywhere else), by name; read at run time, so a level registered here is
seen by the tournament too."""

MEASUREMENT_LEVELS: dict[str, Callable[[], Player]] = {
    "oracle": _oracle,
    "expert-uniform": _expert_uniform,
}
"""Levels of this package for measurement only, never offered in ``play``: ``oracle`` sees every card;
``expert-uniform`` is the expert without inference (its worlds drawn uniformly from its view, as before issue 37). The
tournament's :data:`sergeant_major.eval.levels.MEASUREMENT_LEVELS` adds ``ismcts``."""


def make_player_among(level: str, measurement_levels: Mapping[str, Callable[[], Player]]) -> Player:
    """A computer player by level name: one of :data:`LEVELS` or of ``measurement_levels`` (looked up in that order).

    Raises:
        UnknownLevelError: quoting an unknown level and listing the known ones (a :class:`SergeantMajorError`).
    """
    try:
        return (LEVELS.get(level) or measurement_levels[level])()
    except KeyError:
        raise UnknownLevelError(f"unknown player level {level!r} (one of {', '.join(LEVELS)}; for measurement only: "
                                 f"{', '.join(measurement_levels)})") from None


def make_player(level: str) -> Player:
    """A computer player by level name: one of :data:`LEVELS` (``random``, ``beginner``, ``heuristic``,
    ``expert``) or of :data:`MEASUREMENT_LEVELS` (``oracle``, which needs the whole deal: tournaments only).
    ``ismcts`` is made by :func:`sergeant_major.eval.levels.make_player` (and ``sergeant_major.make_player``).

    Raises:
        UnknownLevelError: quoting an unknown level (a :class:`SergeantMajorError`).
    """
    return make_player_among(level, MEASUREMENT_LEVELS)
