"""Every computer player level by name, for measurement: the players' levels and OpenSpiel's ``ismcts``.

:data:`LEVELS` is :data:`sergeant_major.players.LEVELS` itself (a level registered there is seen here);
:data:`MEASUREMENT_LEVELS` adds ``ismcts`` (:mod:`sergeant_major.research.ismcts`, which needs the ``openspiel``
extra) to the players' ``oracle``. The tournament and ``sergeant_major.make_player`` use this registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import visible
from sergeant_major.core.seeding import check_seed
from sergeant_major.players.protocol import Player
from sergeant_major.players.registry import LEVELS, make_player_among
from sergeant_major.players.registry import MEASUREMENT_LEVELS as PLAYERS_MEASUREMENT_LEVELS

__all__ = ["LEVELS", "MEASUREMENT_LEVELS", "make_player", "parse_levels", "run_inputs"]


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


def parse_levels(text: str | Sequence[str], players: int, known: Iterable[str] = LEVELS) -> tuple[str, ...]:
    """Player levels from ``'heuristic,random,random'`` (or a list), one per seat, each one of ``known`` (by default
    :data:`LEVELS`; a tournament adds :data:`MEASUREMENT_LEVELS`).

    Raises:
        SergeantMajorError: quoting an unknown or empty level or a wrong count.
    """
    known = list(known)
    items = [w.strip() for w in text.split(",")] if isinstance(text, str) else [str(w).strip() for w in text]
    for w in items:
        if w == "" and isinstance(text, str):  # 'heuristic,random,random,' or 'heuristic,,random': was "unknown level ''"
            what = "names no player level" if not text.strip() else "has an empty player level (a comma too many?)"
            raise SergeantMajorError(f"{text!r} {what}; give LEVEL,LEVEL,... "
                                     f"(levels: {', '.join(known)})")
        if w not in known:
            raise SergeantMajorError(f"unknown player level {w!r} in {text!r} (levels: {', '.join(known)})")
    if len(items) != players:
        raise SergeantMajorError(f"{len(items)} player{'' if len(items) == 1 else 's'} given in {text!r}; these rules need {players}")
    return tuple(items)


def run_inputs(rules: Rules | str, levels: str | Sequence[str], seed: int, command: str,
               known: Iterable[str] = LEVELS) -> tuple[Rules, tuple[str, ...], int]:
    """The rules (a rules string is parsed), the levels (``'a,b,c'`` or a list, each one of ``known``) and the seed of a
    ``command`` (``simulate``, ``tournament``) called from Python, checked.

    Raises:
        SergeantMajorError: quoting bad rules, levels or a seed that is not a whole number ``0 <= seed < 2**62``.
    """
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    elif not isinstance(rules, Rules):
        raise SergeantMajorError(f"{command}: rules={visible(repr(rules))[:60]} is not a Rules nor a rules string")
    lv = parse_levels(levels if isinstance(levels, str) else list(levels), rules.players, known)
    return rules, lv, check_seed(seed, command)
