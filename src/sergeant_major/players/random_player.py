"""The ``random`` level: a legal action drawn uniformly."""

from __future__ import annotations

import random

from sergeant_major.core.actions import Action
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View
from sergeant_major.players.protocol import check_decision

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, view: View, rng: random.Random) -> Action:
        """A legal action drawn uniformly with ``rng``.

        Raises:
            SergeantMajorError: when the seat is not to act (``view.legal`` is empty), or quoting ``rng`` when it is
                not a ``random.Random``.
        """
        check_decision(view)
        check_rng(rng, "RandomPlayer.choose")
        return view.legal[rng.randrange(len(view.legal))]
