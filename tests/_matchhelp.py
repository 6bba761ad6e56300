"""Helpers shared by the test files: matches driven decision by decision, and views of real matches of random play."""

from __future__ import annotations

import random
from collections.abc import Callable

from sergeant_major import Action, Match, Rules, View


def heuristic_choice(m: Match, v: View) -> Action:
    """The heuristic's choice at ``v`` (the seat to act's view), drawn as the package's ``drive`` draws it."""
    from sergeant_major.players import HeuristicPlayer, decision_rng

    return HeuristicPlayer().choose(v, decision_rng(m.seed, v.seat, m.deal.number, len(m.deal.history)))


def random_choice(rng: random.Random) -> Callable[[Match, View], Action]:
    """A choice uniform over the match's legal actions, from ``rng``."""
    def choose(m: Match, v: View) -> Action:
        legal = m.legal_actions()
        return legal[rng.randrange(len(legal))]
    return choose


def drive(m: Match, until: Callable[[Match], bool], choose: Callable[[Match, View], Action] = heuristic_choice,
          hook: Callable[[Match, View], None] | None = None) -> Match:
    """Play ``m`` until ``until(m)``: a forced action applied as it is, a decision ``choose(m, view)`` (the heuristic's
    by default) after ``hook(m, view)`` (a test's look at each decision), ``view`` the seat to act's. Returns ``m``."""
    while not until(m):
        f = m.forced_action()
        if f is None:
            s = m.to_act
            assert s is not None
            v = m.view(s)
            if hook is not None:
                hook(m, v)
            f = choose(m, v)
        m.apply(f)
    return m


def random_view(rules_text: str, seed: int, picks: int, deal: int, actions: int, seat: int) -> View:
    """Seat ``seat``'s view in match ``seed`` of random play (every non-forced decision uniform from
    ``random.Random(picks)``) once deal ``deal``'s history holds ``actions`` actions."""
    m = drive(Match(Rules.parse(rules_text), seed), lambda m: m.deal.number == deal and len(m.deal.history) == actions,
              random_choice(random.Random(picks)))
    return m.view(seat)


def at_last_card(rules_text: str, seed: int, names: list[str]) -> Match:
    """Match ``seed`` played by the heuristic for every seat to seat 0's last card of the deal that ends it (what
    is left to play is forced, so the match ends as the heuristic's whole match does)."""
    from sergeant_major.players import HeuristicPlayer
    from sergeant_major.players import drive as drive_all

    whole = Match(Rules.parse(rules_text), seed, names)
    drive_all(whole, [HeuristicPlayer()] * whole.rules.players)
    return drive(Match(Rules.parse(rules_text), seed, names),
                 lambda m: m.deal.number == whole.deal.number and m.to_act == 0 and m.deal.hands[0].bit_count() == 1)
