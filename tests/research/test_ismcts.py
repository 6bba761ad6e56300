"""The ``ismcts`` measurement level: OpenSpiel's Python ISMCTS bot as a player (sergeant_major.research.ismcts)."""

from __future__ import annotations

import random

import pytest
from _matchhelp import random_view

pytest.importorskip("pyspiel")

from sergeant_major.core.actions import Action  # noqa: E402
from sergeant_major.core.errors import SergeantMajorError  # noqa: E402
from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.core.view import View  # noqa: E402
from sergeant_major.eval.levels import LEVELS, MEASUREMENT_LEVELS, make_player  # noqa: E402
from sergeant_major.eval.tournament import parse_players, play_board_game  # noqa: E402
from sergeant_major.players import HeuristicPlayer, drive  # noqa: E402
from sergeant_major.search.determinization import resample  # noqa: E402

from sergeant_major.research.ismcts import SIMULATIONS, ISMCTSPlayer, state_from_view  # noqa: E402  isort: skip

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
    import sergeant_major.search.determinization as rs
    from sergeant_major.search.determinization import ResampleError

    def give_up(view: object, rng: object, **kw: object) -> object:
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


# ------------------------------------------------------------------------------------------- world budget
def test_the_worlds_of_a_decision_stay_within_their_budget() -> None:
    """9-2-5 give=lowest, match 7001, random play, deal 2 after 44 actions, seat 0 to play: resample takes 0.2-6 s
    a world here, and ISMCTS drew one per simulation with no bound (tens of seconds a decision). The worlds now
    share one budget of WORLD_STEPS * (simulations + 1) steps, a count: the same choice and counts every run."""
    from sergeant_major.research.ismcts import WORLD_STEPS

    view = random_view("9-2-5 give=lowest", 7001, 1, 2, 44, 0)
    assert view.to_act == 0 and len(view.legal) == 6
    runs = []
    for _ in range(2):
        p = ISMCTSPlayer()
        a = p.choose(view, random.Random(5))
        b = p.last_budget
        sims = p.budget(view.rules)
        assert b is not None and b.steps == WORLD_STEPS * (sims + 1) and b.used <= b.steps
        assert b.samples < sims + 1  # the budget ran out first: the bound is what stops the drawing here
        runs.append((a, b))
    assert runs[0] == runs[1] and runs[0][0] in view.legal


def test_no_world_within_the_budget_falls_back_to_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget spent before the first world: the decision is the heuristic's (as when resample gives up)."""
    import sergeant_major.research.ismcts as im

    view = random_view("9-5-2", 3, 3, 1, 20, 0)
    assert view.to_act == 0 and len(view.legal) >= 2
    monkeypatch.setattr(im, "WORLD_STEPS", 0)
    p = ISMCTSPlayer(simulations=3)
    assert p.choose(view, random.Random(2)) == HeuristicPlayer().choose(view, random.Random(2))
    assert p.last_budget is not None and p.last_budget.steps == 0 and p.last_budget.used == 0


@pytest.mark.slow
def test_ordinary_decisions_never_reach_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With budget left, resample draws exactly what it draws without one: 150 decisions of 9-5-2 (random play)
    choose the same with the budget as with an unbounded one, and none comes near it."""
    import sergeant_major.research.ismcts as im

    def choices(steps: int) -> tuple[list[Action], int]:
        monkeypatch.setattr(im, "WORLD_STEPS", steps)
        p = ISMCTSPlayer()
        out: list[Action] = []
        most = 0
        seed = 40
        while len(out) < 150:
            m, pick = Match(Rules.preset("9-5-2"), seed), random.Random(seed)
            while not m.over and len(m.results) < 2 and len(out) < 150:
                f = m.forced_action()
                if f is None:
                    s = m.to_act
                    assert s is not None
                    out.append(p.choose(m.view(s), random.Random(len(out))))
                    assert p.last_budget is not None
                    most = max(most, p.last_budget.used)
                    legal = m.legal_actions()
                    f = legal[pick.randrange(len(legal))]
                m.apply(f)
            seed += 1
        return out, most

    bounded, most = choices(im.WORLD_STEPS)
    unbounded, _ = choices(10**9)
    assert bounded == unbounded
    assert most < im.WORLD_STEPS  # a whole decision's worlds take less than one world's share


def test_resample_from_infostate_counts_in_a_budget() -> None:
    from sergeant_major.search.determinization import Budget, BudgetExhausted

    view = random_view("9-5-2", 3, 3, 1, 20, 0)
    st = state_from_view(view, resample(view, random.Random(0)))
    b = Budget(1000)
    a = st.resample_from_infostate(0, random.Random(4).random, budget=b)
    assert b.samples == 1 and 0 < b.used <= 1000
    assert a.view(0) == view and str(a) == str(st.resample_from_infostate(0, random.Random(4).random))
    with pytest.raises(BudgetExhausted):
        st.resample_from_infostate(0, random.Random(4).random, budget=Budget(0))
