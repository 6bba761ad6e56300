"""Computer players: the protocol, the levels (random, beginner, heuristic, expert, oracle) and the driving loop.

A player receives a :class:`~sergeant_major.core.view.View` (never the state) and a random generator of its
own for this decision, and returns one of ``view.legal``. The runner seeds that generator from
``(match seed, seat, deal, decision)``, so how a player thinks never changes the cards or the other
players, and a resumed match continues exactly.

One concern a module: :mod:`.protocol` (the :class:`Player` interface and the checks of a decision),
:mod:`.registry` (the levels by name), :mod:`.driving` (the match loop and each decision's generator), and one
level a file: :mod:`.random_player`, :mod:`.beginner`, :mod:`.heuristic`, :mod:`.expert`, :mod:`.oracle`. The
``ismcts`` level lives at the research tier; the registry of every level is :mod:`sergeant_major.eval.levels`.
"""

from __future__ import annotations

from sergeant_major.core.seeding import check_rng
from sergeant_major.players.driving import decision_rng, drive, play_match
from sergeant_major.players.heuristic import HeuristicPlayer
from sergeant_major.players.protocol import Player
from sergeant_major.players.random_player import RandomPlayer
from sergeant_major.players.registry import LEVELS, MEASUREMENT_LEVELS, make_player

__all__ = ["LEVELS", "MEASUREMENT_LEVELS", "HeuristicPlayer", "Player", "RandomPlayer", "check_rng", "decision_rng",
           "drive", "make_player", "play_match"]
