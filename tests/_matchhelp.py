"""Helpers shared by the test files: views of real matches of random play."""

from __future__ import annotations

import random

from sergeant_major import Match, Rules, View


def random_view(rules_text: str, seed: int, picks: int, deal: int, actions: int, seat: int) -> View:
    """Seat ``seat``'s view in match ``seed`` of random play (every non-forced decision uniform from
    ``random.Random(picks)``) once deal ``deal``'s history holds ``actions`` actions."""
    m = Match(Rules.parse(rules_text), seed)
    rng = random.Random(picks)
    while not (m.deal.number == deal and len(m.deal.history) == actions):
        f = m.forced_action()
        if f is None:
            legal = m.legal_actions()
            f = legal[rng.randrange(len(legal))]
        m.apply(f)
    return m.view(seat)
