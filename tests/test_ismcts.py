"""The ``ismcts`` measurement level: OpenSpiel's Python ISMCTS bot as a player (sergeant_major.bots.ismcts)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from sergeant_major.actions import Action  # noqa: E402
from sergeant_major.errors import SergeantMajorError  # noqa: E402
from sergeant_major.match import Match  # noqa: E402
from sergeant_major.players import LEVELS, MEASUREMENT_LEVELS, HeuristicPlayer, drive, make_player  # noqa: E402
from sergeant_major.research.resample import resample  # noqa: E402
from sergeant_major.rules import Rules  # noqa: E402
from sergeant_major.tournament import parse_players, play_board_game  # noqa: E402
from sergeant_major.view import View  # noqa: E402

from sergeant_major.bots.ismcts import SIMULATIONS, ISMCTSPlayer, state_from_view  # noqa: E402  isort: skip

PRESETS = ("9-5-2", "8-5-3", "9-2-5", "3-5-8")


class _Recording:
    """Wraps a player: every action it chooses, in order."""

    def __init__(self, player: ISMCTSPlayer) -> None:
        self.player, self.name = player, player.name
        self.chosen: list[Action] = []

    def choose(self, view: View, rng: random.Random) -> Action:
        a = self.player.choose(view, rng)
        assert a in view.legal
        self.chosen.append(a)
        return a


def _play(rules: Rules, seed: int, bot: ISMCTSPlayer, deals: int) -> list[object]:
    """A match of at most ``deals`` deals with the bot at seat 0 (heuristic players elsewhere, the match
    runner :func:`drive` checks every action against the view); every action the bot chose."""
    m = Match(rules, seed)
    rec = _Recording(bot)
    for _ in range(deals):
        if not m.over:
            drive(m, [rec, HeuristicPlayer(), HeuristicPlayer()], until_deal_end=True)
    return list(rec.chosen)


@pytest.mark.parametrize("preset", PRESETS)
def test_ismcts_plays_legal_actions_on_every_preset(preset: str) -> None:
    """Two deals (the second with an exchange): every decision the bot makes is legal (checked by apply too)."""
    assert _play(Rules.preset(preset), 3, ISMCTSPlayer(simulations=3), deals=2)


def test_ismcts_is_a_function_of_view_and_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SIMULATIONS, "9-5-2", 2)  # the level's calibrated count, made small for speed
    rules = Rules.preset("9-5-2")
    a = _play(rules, 5, ISMCTSPlayer(simulations=4), deals=1)
    b = _play(rules, 5, ISMCTSPlayer(simulations=4), deals=1)
    assert a == b
    levels = ("ismcts", "heuristic", "heuristic")
    assert play_board_game(rules, levels, 2, 0) == play_board_game(rules, levels, 2, 0, memo=False)


def test_state_from_view_matches_the_view_and_hides_nothing_it_should_not() -> None:
    rules = Rules.preset("3-5-8")
    m = Match(rules, 8)
    heur = HeuristicPlayer()
    checked = 0
    while not m.over and len(m.results) < 2:
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        s = m.to_act
        assert s is not None
        v = m.view(s)
        world = resample(v, random.Random(checked))
        st = state_from_view(v, world)
        assert st.view(s) == v and st.current_player() == s and not st.is_terminal()
        checked += 1
        m.apply(heur.choose(v, random.Random(0)))
    assert checked > 20
    seat = m.to_act
    assert seat is not None
    other = m.view((seat + 1) % rules.players)  # another seat's view: the world drawn for `seat` does not fit it
    with pytest.raises(SergeantMajorError, match="not consistent"):
        state_from_view(other, resample(m.view(seat), random.Random(1)))


def test_ismcts_is_a_measurement_level_only() -> None:
    assert "ismcts" not in LEVELS and "ismcts" in MEASUREMENT_LEVELS
    p = make_player("ismcts")
    assert isinstance(p, ISMCTSPlayer)
    assert p.budget(Rules.preset("9-5-2")) == SIMULATIONS["9-5-2"] and ISMCTSPlayer(simulations=7).budget(Rules.preset("3-5-8")) == 7
    assert parse_players("expert,ismcts,ismcts", 3) == ("expert", "ismcts", "ismcts")


@pytest.mark.parametrize("bad", [0, -2, 1.5])
def test_bad_budget_is_a_clear_error(bad: object) -> None:
    with pytest.raises(SergeantMajorError, match=repr(bad)):
        ISMCTSPlayer(simulations=bad)  # type: ignore[arg-type]


def test_a_view_resample_gives_up_on_still_gets_a_legal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """resample may give up on a rare view (seen once in 3-5-8): the search reuses its first world, and without
    any world the decision is the heuristic's."""
    import sergeant_major.research.openspiel_game as og
    import sergeant_major.research.resample as rs
    from sergeant_major.research.resample import ResampleError

    def give_up(view: object, rng: object) -> object:
        raise ResampleError("gave up")

    rules = Rules.preset("3-5-8")
    m = Match(rules, 2)
    while m.forced_action() is not None:
        m.apply(m.forced_action())  # type: ignore[arg-type]
    seat = m.to_act
    assert seat is not None
    v = m.view(seat)
    monkeypatch.setattr(og, "resample", give_up)  # every simulation's world: the first world again
    assert ISMCTSPlayer(simulations=3).choose(v, random.Random(1)) in v.legal
    monkeypatch.setattr(rs, "resample", give_up)  # not even a first world: the heuristic's choice
    assert ISMCTSPlayer(simulations=3).choose(v, random.Random(1)) == HeuristicPlayer().choose(v, random.Random(1))
