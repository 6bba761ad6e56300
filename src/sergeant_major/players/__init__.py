"""Computer players: the protocol, the levels (random, beginner, heuristic, expert, oracle) and the driving loop."""

from __future__ import annotations

from sergeant_major.players.base import (
    LEVELS,
    MEASUREMENT_LEVELS,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    check_rng,
    decision_rng,
    drive,
    make_player,
    play_match,
)

__all__ = ["LEVELS", "MEASUREMENT_LEVELS", "HeuristicPlayer", "Player", "RandomPlayer", "check_rng", "decision_rng",
           "drive", "make_player", "play_match"]
