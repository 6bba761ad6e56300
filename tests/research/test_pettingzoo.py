"""The PettingZoo AEC environment and the Gymnasium single-seat environment (``sergeant_major.research.envs``).

Conformance: ``pettingzoo.test.api_test`` and ``seed_test`` on every preset (deal and match episodes),
gymnasium's ``check_env`` on the single-seat wrapper; the action masks agree with the core's legal actions
on thousands of random states; rewards are the deals' scores; seeds reproduce the cards of ``Match``.
"""

from __future__ import annotations

import random
import re
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from sergeant_major.core.deal import role_name  # noqa: E402
from sergeant_major.core.errors import IllegalActionError, RulesError, SergeantMajorError  # noqa: E402
from sergeant_major.core.match import Match  # noqa: E402
from sergeant_major.core.rules import Rules  # noqa: E402
from sergeant_major.research.action_space import NUM_ACTIONS, describe_id, legal_ids  # noqa: E402
from sergeant_major.research.envs import SingleSeatEnv, env, raw_env  # noqa: E402
from sergeant_major.research.observation import (  # noqa: E402
    OBSERVATION_VERSION,
    information_state_size,
    layout_table,
    observation_size,
)

PRESETS = Rules.preset_names()


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # api_test warns that Dict observations are "not a NumPy array" (as for PettingZoo's own classic envs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("preset", PRESETS)
def test_api_and_seed_tests_pass(preset: str) -> None:
    api_test(env(preset), num_cycles=1000)
    seed_test(lambda: env(preset), num_cycles=500)


@pytest.mark.parametrize("preset", PRESETS)
def test_api_test_passes_for_match_episodes(preset: str) -> None:
    api_test(env(preset, episode="match", max_deals=6), num_cycles=1000)
    seed_test(lambda: env(preset, episode="match", max_deals=3), num_cycles=500)


@pytest.mark.parametrize("text", ["9-5-2 players=4", "8-5-3 kitty=see-then-trump exchange-count=at-most dealer-assigns-targets=on"])
def test_api_test_passes_for_variants(text: str) -> None:
    api_test(env(text, episode="match", max_deals=4), num_cycles=1000)
    api_test(env(text, information_state=True), num_cycles=200)


@pytest.mark.parametrize("preset", ["9-5-2", "3-5-8"])
def test_later_deal_episodes_reach_the_exchange(preset: str) -> None:
    api_test(env(preset, start_deal=2), num_cycles=200)
    e = raw_env(preset, start_deal=2)
    phases = set()
    for seed in range(6):
        e.reset(seed=seed)
        assert e.match.deal.number == 2 and len(e.match.results) == 1
        while e.agents:
            obs, _, term, trunc, _ = e.last()
            phases.add(e._table.deal.phase.value)
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert "exchange" in phases


def test_spaces() -> None:
    for rules in ("9-5-2", "9-5-2 players=4"):
        e = raw_env(rules, information_state=False)
        r = Rules.parse(rules)
        assert e.possible_agents == [f"player_{i}" for i in range(r.players)]
        sp = e.observation_space("player_0")
        assert sp["observation"].shape == (observation_size(r),) and sp["observation"].dtype == np.float32
        assert sp["action_mask"].shape == (NUM_ACTIONS,) and sp["action_mask"].dtype == np.int8
        assert e.action_space("player_1").n == NUM_ACTIONS
    e = raw_env("3-5-8", information_state=True)
    assert e.observation_space("player_2")["observation"].shape == (information_state_size(Rules.preset("3-5-8")),)


def test_docstring_is_the_page() -> None:
    doc = raw_env.__doc__ or ""
    assert OBSERVATION_VERSION in doc and "sergeant_major_v0" in doc
    assert layout_table() in doc and layout_table(info=True) in doc
    assert "| 0..51 |" in doc


@pytest.mark.parametrize("rules", [*PRESETS, "9-5-2 players=4", "8-5-3 exchange-count=at-most dealer-assigns-targets=on give=lowest"])
def test_masks_agree_with_the_core(rules: str) -> None:
    e = raw_env(rules, episode="match", max_deals=4)
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        e.reset(seed=seed)
        while e.agents:
            agent = e.agent_selection
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            deal = e._table.deal
            # only real decisions reach the agents, and the returns under trump-return=free (see below)
            assert deal.publicly_forced_action() is None
            assert agent == f"player_{deal.to_act}"
            ids = [int(i) for i in np.flatnonzero(obs["action_mask"])]
            assert ids == legal_ids(deal)
            assert len(ids) == len(deal.legal_actions()) > 0
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            checked += 1
            e.step(rng.choice(ids))
    assert checked > 400


def test_rewards_are_the_deal_scores_and_totals() -> None:
    e = raw_env("9-5-2", episode="match")
    e.reset(seed=12)
    rng = random.Random(0)
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    m = e.match
    assert m.over
    assert [got[f"player_{s}"] for s in range(3)] == [float(t) for t in m.totals]

    d = raw_env("8-5-3")
    d.reset(seed=4)
    for agent in d.agent_iter():
        obs, reward, term, trunc, _ = d.last()
        if term:
            assert reward == d.match.results[0].scores[int(agent[-1])]
        d.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    assert len(d.match.results) == 1


def test_seed_deals_the_cards_of_match() -> None:
    e = raw_env("9-2-5")
    e.reset(seed=77)
    assert e.match.deal.dealt == Match(Rules.preset("9-2-5"), 77).deal.dealt
    first = e.observe(e.agent_selection)["observation"].copy()
    e.reset()
    e.reset(seed=77)
    assert (e.observe(e.agent_selection)["observation"] == first).all()


def test_illegal_actions() -> None:
    raw = raw_env("9-5-2")
    raw.reset(seed=1)
    agent = raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = raw.observe(agent)["observation"].copy()
    with pytest.raises(IllegalActionError, match=str(bad)):
        raw.step(bad)
    assert (raw.observe(agent)["observation"] == before).all() and raw.agent_selection == agent

    wrapped = env("9-5-2")
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(bad)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -16.0


def test_bad_arguments_are_quoted() -> None:
    with pytest.raises(SergeantMajorError, match="'season'"):
        raw_env(episode="season")
    with pytest.raises(SergeantMajorError, match="-2"):
        raw_env(max_deals=-2, episode="match")
    # a deal episode is one deal: max_deals=3 there did nothing, silently
    with pytest.raises(SergeantMajorError, match="max_deals=3 caps episodes of whole matches: give episode='match'"):
        raw_env(max_deals=3)
    with pytest.raises(RulesError, match="'colour'"):
        raw_env(colour="red")
    with pytest.raises(RulesError, match="'9-9-9'"):
        raw_env("9-9-9")
    with pytest.raises(SergeantMajorError, match="start_deal=0"):
        raw_env(start_deal=0)
    with pytest.raises(SergeantMajorError, match="start_deal=19 must be a deal number from 1 to 18"):
        raw_env("3-5-8", start_deal=19)
    with pytest.raises(SergeantMajorError, match="'movie'"):
        raw_env(render_mode="movie")
    assert raw_env("9-5-2", must_trump="on").rules.must_trump


def test_render_shows_only_the_agent_to_act() -> None:
    e = raw_env("9-5-2", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str) and OBSERVATION_VERSION in text
    seat = int(e.agent_selection[-1])
    # the heading says whose view follows, in words ("... player_1 (eldest) to see" read as a chore)
    assert text.splitlines()[0].endswith(f", as {e.agent_selection} ({role_name(e.match.deal.role(seat))}) sees it")
    other = (seat + 1) % 3
    hidden = [str(c) for c in e.match.deal.hand(other)]
    hand_line = next(line for line in text.splitlines() if line.startswith("hand:"))
    assert not any(c in hand_line.split() for c in hidden)


# ------------------------------------------------------------------------------------------ gymnasium
@pytest.mark.parametrize("rules", ["9-5-2", "3-5-8", "9-5-2 players=4"])
def test_gymnasium_checker(rules: str) -> None:
    n = Rules.parse(rules).players
    check_env(SingleSeatEnv(rules, seat=1, opponents=("heuristic",) * (n - 1)), skip_render_check=True)


def test_single_seat_plays_against_computer_players() -> None:
    e = SingleSeatEnv("9-5-2", seat=2, opponents=("heuristic", "random"), episode="match", max_deals=5)
    totals = []
    for _ in range(2):
        obs, _ = e.reset(seed=9)
        total = 0.0
        steps = 0
        while True:
            assert e.action_masks().any()
            obs, reward, term, trunc, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            total += float(reward)
            steps += 1
            if term or trunc:
                break
        assert total == e._table.match.totals[2]
        totals.append((total, steps))
    assert totals[0] == totals[1]  # reproducible from the seed


def test_single_seat_errors() -> None:
    with pytest.raises(SergeantMajorError, match="seat=5"):
        SingleSeatEnv(seat=5)
    with pytest.raises(SergeantMajorError, match="1 opponents"):
        SingleSeatEnv(opponents=("random",))
    with pytest.raises(SergeantMajorError, match="'genius'"):
        SingleSeatEnv(opponents=("random", "genius"))
    e = SingleSeatEnv()
    obs, _ = e.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = e.step(bad)
    assert term and reward == -16.0 and info["illegal_action"] == bad
    with pytest.raises(SergeantMajorError, match="reset"):
        e.step(0)



def test_single_seat_takes_a_numpy_seat_as_its_int() -> None:
    """A seat drawn with NumPy (``rng.integers(3)``) was refused (``seat=np.int64(1) is not a seat 0..2``), though a
    NumPy seed is taken: it plays the seat of that number; a NumPy bool or float is still refused."""
    a, b = SingleSeatEnv(seat=np.int64(1)), SingleSeatEnv(seat=1)
    assert a.seat == 1 and type(a.seat) is int
    assert a.reset(seed=4)[0]["observation"].tolist() == b.reset(seed=4)[0]["observation"].tolist()
    for bad in (np.bool_(True), np.float64(1.0)):
        with pytest.raises(SergeantMajorError, match="is not a seat 0..2"):
            SingleSeatEnv(seat=bad)


# ------------------------------------------------------------------------------------------ bad input
def test_a_non_integer_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("9-5-2")
    e.reset(seed=42)
    agent = e.agent_selection
    obs = e.observe(agent)
    assert obs["action_mask"][52]  # a contract: 52.7 used to be applied as 52 (clubs)
    for bad in (52.7, np.float64(52.0), True, "52", np.array([52])):
        with pytest.raises(IllegalActionError, match=re.escape(repr(bad))):
            e.step(bad)
        assert e.match.deal.contract is None and e.agent_selection == agent
        assert (e.observe(agent)["observation"] == obs["observation"]).all()
    e.step(np.int64(52))  # NumPy integers (what action_space.sample() returns) are ids
    assert e.match.deal.contract is not None

    s = SingleSeatEnv("9-5-2", seat=0)
    o, _ = s.reset(seed=3)
    legal = int(np.flatnonzero(o["action_mask"])[0])
    with pytest.raises(IllegalActionError, match=re.escape(f"{legal + 0.5}")):
        s.step(legal + 0.5)
    assert (s._obs()["observation"] == o["observation"]).all()
    s.step(np.int64(legal))


def test_a_refused_action_keeps_the_rewards() -> None:
    e = raw_env("9-5-2", episode="match", max_deals=3)
    e.reset(seed=5)
    rng = random.Random(1)
    while not e.match.results:  # play to the end of the first deal
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    agent = e.agent_selection
    _, reward, _, _, _ = e.last()
    assert reward == e.match.results[0].scores[int(agent[-1])] != 0
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    rewards, cumulative = dict(e.rewards), dict(e._cumulative_rewards)
    with pytest.raises(IllegalActionError, match=str(bad)):
        e.step(bad)
    assert e.last()[1] == reward and e.rewards == rewards and e._cumulative_rewards == cumulative


@pytest.mark.parametrize("make", [raw_env, SingleSeatEnv])
def test_seeds_are_whole_numbers(make: Any) -> None:
    a, b = make("9-5-2"), make("9-5-2")
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a._table.match.seed == 3 and type(a._table.match.seed) is int
    assert a._table.match.deal.dealt == b._table.match.deal.dealt
    before = a._table.match
    for bad in (1.5, True, -1, "3", np.float64(2.0)):
        with pytest.raises(SergeantMajorError, match=re.escape(f"seed={bad!r}")):
            a.reset(seed=bad)
        assert a._table.match is before
    # a seed of 2**62 or more was taken and played a match whose record the record check refuses (Match's range)
    for bad in (2**62, np.uint64(2**63)):
        with pytest.raises(SergeantMajorError, match=re.escape(f"seed={bad!r} must be None or a whole number from 0 below 2**62")):
            a.reset(seed=bad)
        assert a._table.match is before
    a.reset(seed=2**62 - 1)
    assert a._table.match.seed == 2**62 - 1


def test_start_deal_goes_on_from_the_last_seed_to_seed_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match from the last seed (2**62 - 1) that ends before ``start_deal`` is followed by seed 0's, not 2**62's."""
    from sergeant_major.research.envs import table as _table

    monkeypatch.setattr(_table, "START_TRIES", 3)
    e = raw_env("9-5-2", start_deal=200)
    with pytest.raises(SergeantMajorError, match=re.escape(f"(seeds {2**62 - 1} to 1) reached deal 200")):
        e.reset(seed=2**62 - 1)


def test_a_refused_non_card_action_is_named_in_words() -> None:
    raw = raw_env("9-5-2")
    raw.reset(seed=1)
    agent = raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    assert raw.match.deal.phase.value == "contract" and mask[55] and not mask[58]
    with pytest.raises(IllegalActionError, match=re.escape("action id 58 (take the kitty) is not legal now")):
        raw.step(58)
    raw.step(55)  # name spades
    while raw.match.deal.phase.value != "play":
        agent = raw.agent_selection
        raw.step(legal_ids(raw.match.deal)[0])
    agent = raw.agent_selection
    with pytest.raises(IllegalActionError, match=re.escape("action id 55 (name spades) is not legal now")):
        raw.step(55)
    with pytest.raises(IllegalActionError, match=re.escape("action id 60 (assign targets #0) is not legal now")):
        raw.step(60)
    assert raw.agent_selection == agent
    assert [describe_id(i) for i in (0, 51, 52, 56, 57, 59, 83, 84, -1)] == [
        "2C", "AS", "name clubs", "name no-trump", "name minimum tricks", "give no more cards", "assign targets #23",
        "not an action id", "not an action id"]


@pytest.mark.parametrize("make", ["pettingzoo", "gymnasium"])
def test_human_render_mode_draws_the_table_at_reset(make: str, capsys: pytest.CaptureFixture[str]) -> None:
    if make == "pettingzoo":
        raw_env("9-5-2", render_mode="human").reset(seed=3)
    else:
        SingleSeatEnv("9-5-2", seat=0, opponents=("random", "random"), render_mode="human").reset(seed=3)
    out = capsys.readouterr().out
    assert OBSERVATION_VERSION in out and "hand:" in out


def test_a_start_deal_no_match_reaches_is_refused_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # 9-5-2 matches of heuristic players end after a few deals: start_deal=200 made reset() look for one that
    # lasts 200 deals forever (it never returned); now it gives up after START_TRIES seeds, naming start_deal
    from sergeant_major.research.envs import table as _table

    assert _table.START_TRIES == 200
    monkeypatch.setattr(_table, "START_TRIES", 20)  # the same refusal, sooner
    e = raw_env("9-5-2", start_deal=200)
    state = e._rng.getstate()
    with pytest.raises(SergeantMajorError, match=r"^start_deal=200: none of 20 matches of 9-5-2 played by heuristic "
                                                 r"players \(seeds 7 to 26\) reached deal 200; give a smaller start_deal$"):
        e.reset(seed=7)
    with pytest.raises(SergeantMajorError, match="^start_deal=200: none of 20 matches"):
        e.reset()
    assert e._rng.getstate() == state and e._table.match.seed == 0 and len(e._table.match.results) == 0
    g = SingleSeatEnv("9-5-2", start_deal=200, opponents=("random", "random"))
    for seed in (5, None):
        with pytest.raises(SergeantMajorError, match="^start_deal=200: none of 20 matches"):
            g.reset(seed=seed)
        assert g._np_random is None
    ok = raw_env("9-5-2", start_deal=3)  # a start_deal some matches reach still works
    ok.reset(seed=7)
    assert ok.match.deal.number == 3


def test_bad_flags_rewards_and_opponents_are_quoted() -> None:
    # information_state="no" turned the information state on (any non-empty string is true); illegal_reward="x"
    # was a bare ValueError and NaN was taken; opponents="ab" was read as the levels 'a' and 'b'
    for bad in ("no", 1, None):
        with pytest.raises(SergeantMajorError, match=re.escape(f"information_state={bad!r} must be True or False")):
            raw_env("9-5-2", information_state=bad)
        with pytest.raises(SergeantMajorError, match=re.escape(f"information_state={bad!r}")):
            SingleSeatEnv("9-5-2", information_state=bad)
    assert raw_env("9-5-2", information_state=np.bool_(True))._table.information_state is True
    for bad in ("x", "-3", float("nan"), float("inf"), True, [1]):
        with pytest.raises(SergeantMajorError, match=re.escape(f"illegal_reward={bad!r} must be a finite number or None")):
            env("9-5-2", illegal_reward=bad)
        with pytest.raises(SergeantMajorError, match=re.escape(f"illegal_reward={bad!r}")):
            SingleSeatEnv("9-5-2", illegal_reward=bad)
    assert SingleSeatEnv("9-5-2", illegal_reward=np.float32(-2.5)).illegal_reward == -2.5
    assert SingleSeatEnv("9-5-2", illegal_reward=-3).illegal_reward == -3.0
    with pytest.raises(SergeantMajorError, match=re.escape("opponents='ab' is a string: give one level (or Player) per "
                                                           "other seat, e.g. opponents=('heuristic', 'heuristic')")):
        SingleSeatEnv("9-5-2", opponents="ab")
    # an opponent that is neither a level nor a Player was taken and failed at the first decision (AttributeError)
    for bad in (5, None, object):
        with pytest.raises(SergeantMajorError, match=re.escape(f"opponent {bad!r} (for seat 0) is neither a player level")):
            SingleSeatEnv("9-5-2", seat=2, opponents=(bad, "random"))
    from sergeant_major.players import RandomPlayer

    SingleSeatEnv("9-5-2", seat=2, opponents=(RandomPlayer(), "random")).reset(seed=1)


def test_free_trump_returns_are_all_decisions_so_the_turn_order_hides_the_gives() -> None:
    """With trump-return=free (3-5-8, seed 003) a return is forced for a card of another suit received and free
    for a trump: applied by the env when forced, the returner's turn would show every other agent, through
    agent_selection and to_act, whether trumps were given. Every return reaches the returner instead (a one-card
    mask when forced); with trump-return=highest every return is forced and none does."""
    from sergeant_major.core.actions import Give, Return

    for rules, all_decisions in (("3-5-8", True), ("3-5-8 trump-return=highest", False)):
        e = raw_env(rules, start_deal=2)
        rng = random.Random(5)
        chosen = total = 0
        gives_seen: set[bool] = set()  # was a trump given (per deal)
        for seed in range(12):
            e.reset(seed=seed)
            while e.agents:
                obs, _, term, trunc, _ = e.last()
                deal = e._table.deal
                before = len(deal.history)
                e.step(None if term or trunc else rng.choice([int(a) for a in np.flatnonzero(obs["action_mask"])]))
                if len(deal.history) > before and type(deal.history[before]) is Return:
                    chosen += 1
            deal = e.match.deals[1]
            total += sum(type(a) is Return for a in deal.history)
            gives_seen.add(any(type(a) is Give and a.card.suit == deal.trump for a in deal.history))
        assert total > 0 and gives_seen == {True, False}
        assert chosen == (total if all_decisions else 0), rules


def test_an_agent_that_is_not_one_is_refused_quoting_it() -> None:
    """``observe``, ``observation_space`` and ``action_space`` of a name that is no agent raised a bare ``KeyError``."""
    e = raw_env(rules="9-5-2")
    e.reset(seed=1)
    for call in (e.observe, e.observation_space, e.action_space):
        with pytest.raises(SergeantMajorError, match=r"'player_9' is not an agent of this environment \(one of player_0"):
            call("player_9")
    assert e.action_space("player_0").n == NUM_ACTIONS


@pytest.mark.parametrize("text", ["9-5-2", "3-5-8", "9-5-2 players=4"])
def test_state_is_every_seats_observation_in_its_space(text: str) -> None:
    """PettingZoo's ``state()`` (the global state of its AECEnv API) raised NotImplementedError. It is now every
    seat's observation in seat order, ``state_space`` Box(0, 1, (players * size,)); PettingZoo's own state tests
    pass, through the wrappers too."""
    from pettingzoo.test.state_test import test_state, test_state_space

    rules = Rules.parse(text)
    n, size = rules.players, observation_size(rules)
    e = raw_env(text)
    assert e.state_space.shape == (n * size,) and e.state_space.dtype == np.float32
    e.reset(seed=4)
    rng = random.Random(4)
    while e.agents:
        state = e.state()
        assert e.state_space.contains(state)
        want = np.concatenate([e.observe(f"player_{i}")["observation"] for i in range(n)])
        assert np.array_equal(state, want)
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert e.state_space.contains(e.state())
    info = raw_env(text, information_state=True)
    info.reset(seed=4)
    assert info.state().shape == (n * information_state_size(rules),) == info.state_space.shape
    wrapped = env(text)
    test_state_space(wrapped)
    test_state(wrapped, num_cycles=100)
