"""The interface of a computer player, and the checks every player makes of a decision it is asked for.

A player receives a :class:`~sergeant_major.core.view.View` (never the state) and a random generator of its
own for this decision, and returns one of ``view.legal`` (:mod:`.driving` seeds that generator).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from sergeant_major.core.actions import Action
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View

__all__ = ["Player", "check_decision", "check_rng"]


@runtime_checkable
class Player(Protocol):
    """What the match runner asks of a player."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal`` for ``view.seat``."""
        ...


def check_decision(view: View) -> None:
    """Raise :class:`SergeantMajorError` (a ``ValueError``) naming the seat and phase when ``view`` has no legal
    action: a view of a seat that is not to act (the computer players failed with ``empty range for
    randrange()`` or ``tuple index out of range``).

    Raises:
        SergeantMajorError: ``"seat <seat> has no decision to make (phase <phase>)"``.
    """
    if not view.legal:
        raise SergeantMajorError(f"seat {view.seat} has no decision to make (phase {view.phase.value})")
