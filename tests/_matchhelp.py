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


def at_last_card(rules_text: str, seed: int, names: list[str]) -> Match:
    """Match ``seed`` played by the heuristic for every seat to seat 0's last card of the deal that ends it (what
    is left to play is forced, so the match ends as the heuristic's whole match does)."""
    from sergeant_major.players import HeuristicPlayer, decision_rng, drive

    whole = Match(Rules.parse(rules_text), seed, names)
    drive(whole, [HeuristicPlayer()] * whole.rules.players)
    m = Match(Rules.parse(rules_text), seed, names)
    p = HeuristicPlayer()
    while not (m.deal.number == whole.deal.number and m.to_act == 0 and m.deal.hands[0].bit_count() == 1):
        f = m.forced_action()
        m.apply(f if f is not None else p.choose(m.view(m.to_act), decision_rng(m.seed, m.to_act, m.deal.number,
                                                                               len(m.deal.history))))
    return m
