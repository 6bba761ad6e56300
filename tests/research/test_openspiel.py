"""The ``python_sergeant_major`` OpenSpiel game: OpenSpiel's conformance test on every preset, parameters,
the action space, observations (what a player sees while the cards are dealt), the game string, pickling and
serialization, refused actions (which change nothing), ``resample_from_infostate`` and the Python ISMCTS bot."""

from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from sergeant_major.core.cards import CARDS  # noqa: E402
from sergeant_major.core.errors import SergeantMajorError  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.research import observation  # noqa: E402
from sergeant_major.research.action_space import NUM_ACTIONS, TAKE_KITTY  # noqa: E402
from sergeant_major.research.openspiel_game import (  # noqa: E402
    GAME_NAME,
    SergeantMajorGame,
    SergeantMajorState,
    format_rules_param,
    parse_rules_param,
)


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
    for bad in (2.5, True, "2", None):  # as pyspiel.load_game refuses them: no silent int(2.5) == 2
        with pytest.raises(SergeantMajorError, match=re.escape(f"deals={bad!r}")):
            SergeantMajorGame({"deals": bad})
    assert SergeantMajorGame({"deals": 2}).deals == 2 and SergeantMajorGame({"deals": np.int64(3)}).deals == 3


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


def test_an_observer_without_the_players_own_view_is_refused() -> None:
    """``make_observation`` with a public-only (``private_info=NONE``) or all-players observation type used to
    get the player's private observation, own hand included; only the player's own view is provided."""
    from open_spiel.python.observation import make_observation

    game = _load("9-5-2")
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    kinds = pyspiel.PrivateInfoType
    for public, private in ((True, kinds.NONE), (True, kinds.ALL_PLAYERS), (False, kinds.SINGLE_PLAYER)):
        for recall in (False, True):
            obs_type = pyspiel.IIGObservationType(public_info=public, perfect_recall=recall, private_info=private)
            with pytest.raises(SergeantMajorError, match="not supported"):
                make_observation(game, obs_type)
    for recall in (False, True):  # the supported types, and the default, still work
        own = make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
        expected = state.information_state_string(0) if recall else state.observation_string(0)
        assert own.string_from(state, 0) == expected
    assert make_observation(game).string_from(state, 1) == state.observation_string(1)


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


# ------------------------------------------------------------------ the game's name, pickling, serialization
@pytest.mark.parametrize(("params", "name"), [
    ({}, 'python_sergeant_major(deals=1,rules="9-5-2")'),
    ({"rules": "8-5-3 kitty=see-then-trump", "deals": 3}, "python_sergeant_major(deals=3,rules=8-5-3+kitty:see-then-trump)"),
    ({"rules": "3-5-8"}, 'python_sergeant_major(deals=1,rules="3-5-8")'),
])
def test_the_game_is_rebuilt_from_its_name_and_pickles(params: dict[str, object], name: str) -> None:
    import copy
    import pickle

    game = pyspiel.load_game(GAME_NAME, params)
    assert str(game) == name
    again = pyspiel.load_game(str(game))
    assert again == game and again.rules == game.rules and again.deals == game.deals
    assert pyspiel.load_game(GAME_NAME, again.get_parameters()) == game
    data = pickle.dumps(game)
    assert b"sergeant_major.research.openspiel_game" in data  # unpickling imports the module, which registers the game
    for other in (pickle.loads(data), copy.deepcopy(game)):
        assert isinstance(other, SergeantMajorGame)
        assert other == game and other.rules == game.rules and other.deals == game.deals
        assert sum(_random_game(other, 1, check=False).returns()) == 0


def test_format_rules_param_reads_back() -> None:
    for text in ("9-5-2", "3-5-8", "8-5-3 kitty=see-then-trump must-trump=on", "9-5-2 players=4", "9-5-2 to=20 deals=5"):
        rules = Rules.parse(text)
        assert parse_rules_param(format_rules_param(rules)) == rules
        assert pyspiel.load_game(f"{GAME_NAME}(rules={format_rules_param(rules)})").rules == rules


def _play(state: pyspiel.State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("steps", [10, 60, 200])
def test_serialize_game_and_state_and_pickle_a_state(steps: int) -> None:
    import pickle

    game = pyspiel.load_game('python_sergeant_major(rules="3-5-8",deals=2)')
    state = game.new_initial_state()
    _play(state, random.Random(steps), steps)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    state3 = pickle.loads(pickle.dumps(state))
    assert game2 == game
    for other in (state2, state3):
        assert isinstance(other, SergeantMajorState)
        assert str(other) == str(state) and other.history() == state.history() and other.rewards() == state.rewards()
        assert [other.information_state_string(p) for p in range(3)] == [state.information_state_string(p) for p in range(3)]
        _play(other, random.Random(9), 10_000)
        assert other.is_terminal()
    _play(state, random.Random(9), 10_000)
    assert state2.returns() == state3.returns() == state.returns()


def test_random_sim_test_with_serialization() -> None:
    pyspiel.random_sim_test(pyspiel.load_game('python_sergeant_major(rules="3-5-8",deals=2)'), num_sims=1,
                            serialize=True, verbose=False)


# ------------------------------------------------------------------ what a player sees while the cards are dealt
def _cards_so_far(text: str) -> set[str]:
    assert "dealing" in text
    return set(text.split("cards so far:")[1].split())


@pytest.mark.parametrize("rules", ["3-5-8", "9-5-2", "9-5-2 players=4"])
def test_the_deal_shows_a_player_only_what_it_may_see(rules: str) -> None:
    # docs/rules.md (3-5-8): "While he chooses, every seat sees only its first 6 cards"; the contract comes after
    # the whole deal, so no string or tensor during the deal may show more, and perfect recall must hold.
    r = Rules.parse(rules)
    game = _load(rules)
    n = r.players
    limit = r.contract_after or r.hand_size
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        seen: list[set[str]] = [set() for _ in range(n)]
        while state.is_chance_node():
            dealt = state.history()
            dealer = state._match.deal.dealer
            for p in range(n):
                mine = [str(CARDS[c]) for j, c in enumerate(dealt[:n * r.hand_size]) if (dealer + 1 + j) % n == p]
                info, obs = state.information_state_string(p), state.observation_string(p)
                assert _cards_so_far(info) == _cards_so_far(obs) == set(mine[:limit])
                assert seen[p] <= _cards_so_far(info)  # perfect recall during the deal
                seen[p] = _cards_so_far(info)
                assert not any(state.information_state_tensor(p)) and not any(state.observation_tensor(p))
            if len(dealt) % 17 == 5:  # resampling keeps what the player sees, and only that
                for p in range(n):
                    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert other.information_state_string(p) == state.information_state_string(p)
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        for p in range(n):  # the first decision shows at least what the deal showed (3-5-8: exactly that)
            view = state.view(p)
            assert view is not None
            hand = {str(c) for c in view.hand}
            assert seen[p] <= hand and len(seen[p]) == limit
            if r.contract_after:
                assert hand == seen[p]


# ------------------------------------------------------------------ refused actions change nothing
def _snapshot(state: pyspiel.State) -> tuple[object, ...]:
    n = state.num_players()
    return (str(state), state.history(), state.rewards(), state.returns(), state.current_player(),
            state.chance_outcomes() if state.is_chance_node() else state.legal_actions(),
            [state.information_state_string(p) for p in range(n)])


def test_a_bad_chance_action_is_refused_at_once() -> None:
    state = _load("9-5-2").new_initial_state()
    state.apply_action(5)
    before = _snapshot(state)
    with pytest.raises(SergeantMajorError, match=r"chance action 5 \(7C\) refused: 7C was already dealt"):
        state.apply_action(5)
    assert _snapshot(state) == before
    with pytest.raises(SergeantMajorError, match="chance action 99 is not a card"):
        state.apply_action(99)
    assert _snapshot(state) == before
    rng = random.Random(1)
    while state.is_chance_node():  # the deal goes on normally
        with pytest.raises(SergeantMajorError, match="already dealt"):
            state.apply_action(state.history()[-1])
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert len(state.history()) == 52 and len(set(state.history())) == 52

    none = _load("9-5-2 kitty=none").new_initial_state()
    with pytest.raises(SergeantMajorError, match=r"chance action 0 \(2C\) is not a card of the 51-card deck"):
        none.apply_action(0)
    assert none.history() == [] and len(none.chance_outcomes()) == 51


def test_a_refused_action_changes_nothing() -> None:
    game = _load("9-5-2", 3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        if len(state._match.results) == 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert any(state.rewards())  # the first deal's scores, kept until the next player action
    before = _snapshot(state)
    illegal = next(a for a in range(NUM_ACTIONS + 20) if a not in state.legal_actions())
    for bad in (1000, illegal):
        with pytest.raises(SergeantMajorError, match=str(bad)):
            state.apply_action(bad)
        assert _snapshot(state) == before
    end = _random_game(game, 4)
    before = _snapshot(end)
    with pytest.raises(SergeantMajorError, match="the game is over"):
        end.apply_action(0)
    assert _snapshot(end) == before


@pytest.mark.parametrize(("rules", "deals"), [("9-5-2", 1), ("8-5-3", 2), ("3-5-8", 1)])
def test_the_terminal_state_of_a_capped_game_shows_the_last_deal_scored(rules: str, deals: int) -> None:
    # with deals=k the match goes on past deal k, but the game ends there: its terminal state is the last deal,
    # scored (it used to show deal k+1 as "dealing", with placeholder hands in str(state) and zero tensors)
    game = _load(rules, deals)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state._match.over is False  # the cap ended the game, not the rules
    assert f"deal {deals} scored" in str(state) and "dealing" not in str(state)
    for p in range(game.num_players()):
        view = state.view(p)
        assert view is not None and view.deal_number == deals and view.to_act is None
        assert view.hand == () and len(view.completed) == Rules.parse(rules).tricks
        for text in (state.observation_string(p), state.information_state_string(p)):
            assert f"deal: {deals}" in text and "phase: scored" in text and "dealing" not in text
        assert any(state.observation_tensor(p)) and any(state.information_state_tensor(p))
    assert state.legal_actions() == [] and state.returns() == [float(t) for t in state._match.totals]


def test_action_to_string_refuses_an_id_outside_the_action_space() -> None:
    # -3 was shown as "Card QS" (a negative index into the deck), 99 as "Assign targets #39", chance 52 an IndexError
    state = _load("9-5-2").new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 50) == "Deal KS"
    for bad in (52, -1):
        with pytest.raises(SergeantMajorError, match=rf"^action {bad} is not a chance outcome \(0..51\)$"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, bad)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()
    assert state.action_to_string(p, 52) == "Name clubs"
    for bad in (-3, NUM_ACTIONS, 99):
        with pytest.raises(SergeantMajorError, match=rf"^action {bad} is not an action id \(0..83\)$"):
            state.action_to_string(p, bad)


def test_free_trump_returns_are_all_decisions_so_current_player_hides_the_gives() -> None:
    """trump-return=free (3-5-8, seed 003): a forced return (a card of another suit received) applied by the game
    itself would show, through current_player, whether trumps were given; every return is the returner's move."""
    from sergeant_major.core.actions import Return

    rng = random.Random(3)
    game = _load("3-5-8", deals=2)
    chosen = total = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
                continue
            deal = state._match.deal
            before = len(deal.history)
            state.apply_action(rng.choice(state.legal_actions()))
            if len(deal.history) > before and type(deal.history[before]) is Return:
                chosen += 1
        total += sum(type(a) is Return for d in state._match.deals for a in d.history)
    assert total > 0 and chosen == total


def test_a_player_that_is_not_a_seat_and_chance_outcomes_off_a_chance_node_are_refused() -> None:
    state = _load("9-5-2").new_initial_state()
    for bad in (-1, 3, True, 1.5):  # -1 was the last seat's hand (view) or a failed draw; 3 an IndexError
        with pytest.raises(SergeantMajorError, match=re.escape(f"player {bad!r} is not a player of this game")):
            state.resample_from_infostate(bad, lambda: 0.5)
        with pytest.raises(SergeantMajorError, match=re.escape(f"player {bad!r} is not a player")):
            state.dealt_so_far(bad)
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for bad in (-1, 3, True, 1.5):
        with pytest.raises(SergeantMajorError, match=re.escape(f"player {bad!r} is not a player of this game")):
            state.view(bad)
        with pytest.raises(SergeantMajorError, match=re.escape(f"player {bad!r} is not a player")):
            state.resample_from_infostate(bad, lambda: 0.5)
    assert state.view(np.int64(2)) == state.view(2)
    # a bare AssertionError before (gone under python -O)
    with pytest.raises(SergeantMajorError, match="not a chance node: player 0 is to act"):
        state.chance_outcomes()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(SergeantMajorError, match="not a chance node: the game is over"):
        state.chance_outcomes()


def test_load_game_takes_the_one_line_form_openspiel_refuses() -> None:
    """The repro: ``pyspiel.load_game("python_sergeant_major(rules=9-5-2)")`` stops in OpenSpiel's own parameter
    parser (``game_parameters.cc CHECK_TRUE(success)``: it reads ``9-5-2`` as a number) before the game sees it.
    ``openspiel_game.load_game`` takes that form, and a rules string with its spaces and ``=``, and refuses what is
    not this game's string quoting it."""
    from sergeant_major.core.errors import RulesError
    from sergeant_major.research.openspiel_game import load_game

    with pytest.raises(pyspiel.SpielError, match="CHECK"):  # OpenSpiel's, out of our reach: documented
        pyspiel.load_game("python_sergeant_major(rules=9-5-2)")
    for text, same in (("python_sergeant_major(rules=9-5-2)", 'python_sergeant_major(rules="9-5-2")'),
                       ("python_sergeant_major(deals=3, rules=8-5-3 kitty=see-then-trump)",
                        "python_sergeant_major(deals=3,rules=8-5-3+kitty:see-then-trump)"),
                       ('python_sergeant_major(rules="3-5-8")', 'python_sergeant_major(rules="3-5-8")'),
                       ("python_sergeant_major", "python_sergeant_major")):
        game = load_game(text)
        assert str(game) == str(pyspiel.load_game(same)), text
        assert str(pyspiel.load_game(str(game))) == str(game)
    for text, said in (("sergeant_major(rules=9-5-2)", "'sergeant_major' is not this game; it is registered as "
                                                       "'python_sergeant_major'"),
                       ("python_sergeant_major(rules=9-5-2", "is not a game string such as"),
                       ("python_sergeant_major(rules=9-5-2,seed=3)", "'seed=3' is not a parameter of python_sergeant_major"),
                       ("python_sergeant_major(deals=0)", "deals='0' is not a whole number of 1 or more"),
                       ("python_sergeant_major(rules=9-5-2,rules=3-5-8)", "rules is given twice")):
        with pytest.raises(SergeantMajorError, match=re.escape(said)):
            load_game(text)
    with pytest.raises(RulesError, match="'7-7-7'"):
        load_game("python_sergeant_major(rules=7-7-7)")
