"""The heuristic's choices from a deal's masks (``choice_in_deal``, what the expert's search asks in its worlds) are
the choices ``HeuristicPlayer`` makes from the seat's whole view."""

from __future__ import annotations

import random

import pytest
from _matchhelp import drive, random_choice

from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.players import HeuristicPlayer
from sergeant_major.players.heuristic import choice_in_deal

H = HeuristicPlayer()


@pytest.mark.parametrize("text", ["9-5-2", "3-5-8", "8-5-3", "9-2-5", "9-5-2 exchange-count=at-most",
                                  "8-5-3 give=lowest return=overall", "9-5-2 players=4", "9-5-2 dealer-assigns-targets=on"])
def test_the_choice_from_masks_is_the_choice_from_the_view(text: str) -> None:
    """Every decision before the play of random matches (every seat, several deals, so with exchanges)."""
    rules = Rules.parse(text)
    compared = 0

    def compare(m: Match, v: View) -> None:
        nonlocal compared
        if m.deal.phase.value != "play":
            got = choice_in_deal(m.deal, m.deal.legal_actions(), lambda: v)
            assert got == H.choose(v, random.Random(0)), (text, m.seed, m.deal.history)
            compared += 1

    for seed in range(6):
        drive(Match(rules, seed), lambda m: m.over or len(m.deals) > 4, random_choice(random.Random(seed)), compare)
    assert compared >= 30
