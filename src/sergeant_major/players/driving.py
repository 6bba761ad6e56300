"""Driving a match with computer players: each decision's own generator, and the loop that asks the players.

The runner seeds a player's generator from ``(match seed, seat, deal, decision)``, so how a player thinks never
changes the cards or the other players, and a resumed match continues exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.players.protocol import Player

__all__ = ["decision_rng", "drive", "play_match"]


def decision_rng(seed: int, seat: int, deal: int, ply: int) -> random.Random:
    """The generator a player gets for one decision: seeded from the match seed, its seat, the deal
    number and the number of actions already taken in the deal."""
    return random.Random((((seed & 0xFFFFFFFFFFFF) * 8 + seat) * 4096 + deal) * 1024 + ply)


def drive(match: Match, players: Sequence[Player], until_deal_end: bool = False) -> None:
    """Play ``match`` on with ``players`` (by seat): forced actions are applied, each decision goes to
    the seat's player with its own generator, until the match (or, with ``until_deal_end``, the deal) ends.

    Raises:
        SergeantMajorError: when a player returns an illegal action (the player's name and the action quoted).
    """
    start = len(match.deals)
    while not match.over:
        if until_deal_end and len(match.deals) != start:
            return
        forced = match.forced_action()
        if forced is not None:
            match.apply(forced)
            continue
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        deal = match.deal
        action = players[seat].choose(view, decision_rng(match.seed, seat, deal.number, len(deal.history)))
        if action not in view.legal:
            raise SergeantMajorError(f"player {players[seat].name!r} at seat {seat} chose an illegal action {action!r}")
        match.apply(action)


def play_match(rules: Rules, players: Sequence[Player], seed: int = 0, names: Sequence[str] | None = None) -> Match:
    """Play a whole match between computer ``players`` (by seat) and return it."""
    match = Match(rules, seed, list(names) if names else [p.name for p in players])
    drive(match, players)
    return match
