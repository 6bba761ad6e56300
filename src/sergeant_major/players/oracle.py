"""The ``oracle`` player: sees every card, for measurement only (never offered in ``play``).

It searches the true deal instead of sampled worlds: the double-dummy solver on the real position once at
most :data:`DDS_CARDS` cards are left in the hands, and play-outs of the real deal before that (for card play
and for every decision before the play, continued by the ``heuristic`` up to the first lead, as the expert
does; :mod:`.expert`). Its figures bound from above what a player who only sees his view can reach with the
same machinery (issue "Computer players that play well": (expert - heuristic) / (oracle - heuristic)).

The tournament calls :meth:`OraclePlayer.choose_with_state` with a copy of the deal
(:class:`sergeant_major.eval.tournament.OraclePlayer`); :meth:`OraclePlayer.choose` from a view alone plays as the
expert.
"""

from __future__ import annotations

import random

from sergeant_major.core.actions import Action
from sergeant_major.core.deal import Deal
from sergeant_major.core.view import View
from sergeant_major.players.expert import ExpertPlayer

__all__ = ["OraclePlayer", "DDS_CARDS"]

DDS_CARDS = 27
"""The oracle solves the real position double-dummy once at most this many cards are left in the hands."""
_PLAYOUT_FACTOR = 8
"""With one world instead of many, each candidate gets this many times the expert's play-outs."""


class OraclePlayer(ExpertPlayer):
    """The ``oracle`` level (measurement only).

    Args:
        name: the player's name.
        think: as :class:`~.expert.ExpertPlayer` (scales the play-outs).
    """

    def __init__(self, name: str = "oracle", think: float = 1.0) -> None:
        super().__init__(name, think)
        self.playouts_play *= _PLAYOUT_FACTOR
        self.playouts_pre *= _PLAYOUT_FACTOR

    def choose_with_state(self, deal: Deal, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal``, searching the true ``deal`` (not changed).

        Raises:
            ValueError: when the seat of ``view`` is not to act in ``deal``.
        """
        if deal.to_act != view.seat:
            raise ValueError(f"the view is seat {view.seat}'s but seat {deal.to_act} is to act in the deal")
        return self.estimate(view, rng, worlds=[deal.clone()]).choice
