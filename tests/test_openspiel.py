"""The ``python_sergeant_major`` OpenSpiel game: OpenSpiel's conformance test on every preset, parameters,
the action space, observations, ``resample_from_infostate`` and the Python ISMCTS bot."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from sergeant_major.errors import SergeantMajorError  # noqa: E402
from sergeant_major.research import observation  # noqa: E402
from sergeant_major.research.action_space import NUM_ACTIONS, TAKE_KITTY  # noqa: E402
from sergeant_major.research.openspiel_game import GAME_NAME, SergeantMajorState, parse_rules_param  # noqa: E402
from sergeant_major.rules import Rules  # noqa: E402


def _load(rules: str, deals: int = 1) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "deals": deals})


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_random_sim_test_every_preset(preset: str) -> None:
    pyspiel.random_sim_test(_load(preset), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("text", ['python_sergeant_major(rules="9-5-2",deals=3)',
                                  "python_sergeant_major(rules=8-5-3+kitty:see-then-trump+must-trump:on,deals=2)",
                                  'python_sergeant_major(rules=9-5-2+players:4)'])
def test_random_sim_test_matches_and_options(text: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(text), num_sims=1, serialize=False, verbose=False)


def test_parameters() -> None:
    assert parse_rules_param("8-5-3+kitty:see-then-trump") == Rules.parse("8-5-3 kitty=see-then-trump")
    assert parse_rules_param('"3-5-8"') == Rules.preset("3-5-8")
    g = _load("3-5-8")
    assert g.num_players() == 3 and g.num_distinct_actions() == NUM_ACTIONS
    assert g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert _load("9-5-2 players=4").num_players() == 4
    with pytest.raises(SergeantMajorError, match="9-9-9"):
        _load("9-9-9")
    with pytest.raises(SergeantMajorError, match="deals=0"):
        _load("9-5-2", 0)


def _random_game(game: pyspiel.Game, seed: int, check: bool = True) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        if check:
            assert legal == sorted(legal) and all(0 <= a < NUM_ACTIONS for a in legal)
            assert TAKE_KITTY not in legal  # forced: applied inside the game
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def test_a_whole_deal_scores_and_sums_to_zero() -> None:
    for preset in ("9-5-2", "3-5-8"):
        state = _random_game(_load(preset), 3)
        assert sum(state.returns()) == 0 and any(state.returns())


def test_observations_come_from_the_view() -> None:
    game = _load("8-5-3")
    rules = Rules.preset("8-5-3")
    assert game.information_state_tensor_shape() == [observation.information_state_size(rules)]
    assert game.observation_tensor_shape() == [observation.observation_size(rules)]
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    p = state.current_player()
    assert isinstance(state, SergeantMajorState)
    view = state.view(p)
    assert view is not None
    assert state.information_state_string(p) == observation.information_state_string(view)
    assert state.observation_string(p) == observation.observation_string(view)
    assert list(state.information_state_tensor(p)) == pytest.approx(observation.encode_information_state(view))


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = _load("9-5-2", 2)
    rng = random.Random(4)
    state = game.new_initial_state()
    seen = 0
    k = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        k += 1
        p = state.current_player()
        if k % 9 == 0:
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
            seen += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 5


def test_ismcts_plays_a_whole_deal() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("9-5-2")
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions >= 16 and sum(state.returns()) == 0
