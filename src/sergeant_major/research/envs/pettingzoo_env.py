"""PettingZoo AEC environment ``sergeant_major_v0`` (the page is :class:`raw_env`'s docstring)."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from sergeant_major.core.deal import role_name
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.research.action_space import ASSIGN_BASE, CONTRACT_BASE, END_GIVE, NUM_ACTIONS, TAKE_KITTY
from sergeant_major.research.envs.table import Table, check_action, check_seed, illegal_penalty, make_rules
from sergeant_major.research.observation import OBSERVATION_VERSION, layout_table, observation_string

__all__ = ["env", "raw_env", "ENV_NAME"]

ENV_NAME = "sergeant_major_v0"

_DOC = """Sergeant Major (9-5-2, 8-5-3, 9-2-5, 3-5-8) as a PettingZoo AEC environment: ``{name}``.

| | |
|---|---|
| Import | ``from sergeant_major.research.envs import env`` (extra ``pettingzoo``) |
| Actions | Discrete({num_actions}) |
| Agents | ``player_0`` .. ``player_2`` (``player_3`` with ``players=4``) |
| Observation | Dict: ``observation`` Box(0, 1, (size,), float32), ``action_mask`` Box(0, 1, ({num_actions},), int8) |
| Observation version | ``{obs_version}`` (size 660 for the 3-player presets, 792 with 4 players) |
| State | ``state()``: every seat's observation, player_0's first: Box(0, 1, (players * size,), float32), ``state_space`` |

Three players (or four) each try to take their target of tricks (dealer 9, eldest 5, third 2 in 9-5-2);
over-tricks are paid back in the exchange of the next deal. ``env(rules="8-5-3", must_trump="on")``:
``rules`` is a preset or the rules string form (``"9-5-2 to=20"``), and keyword options other than the
environment's own are rule options (``Rules.with_options``).

Arguments: ``rules`` (preset or string form, default ``"9-5-2"``); ``render_mode`` (``None``, ``"human"``
prints, ``"ansi"`` returns the text); ``episode`` (``"deal"``: one deal, the first of a new match, the
default; ``"match"``: a whole match, rewards at the end of each deal, terminations when the match ends);
``max_deals`` (with ``episode="match"``: truncate after this many deals); ``start_deal`` (default 1:
the episode starts at this deal of the match, the deals before it played by the heuristic computer
players, so that ``start_deal=2`` gives deal episodes with an exchange); ``information_state``
(``True``: the observation is the perfect-recall information state, ``encode_information_state``);
``illegal_reward`` (``env()`` only: the reward of an agent that plays an illegal action, which ends the
episode; default ``-tricks``).

Turn order and forced actions: only real decisions reach the agents. Taking the kitty, a return the
rules fix and the give of the lowest card (``give=lowest``) are applied automatically; ``agent_selection``
is the seat whose decision comes next (the exchange and the kitty phases are not in seat order). Under
``trump-return=free`` (3-5-8) every return reaches the returner, a one-card mask when it is forced: a return
is forced for a card of another suit received and free for a trump, so applying the forced ones would show
every agent whether trumps were given (``Deal.publicly_forced_action``).

Seeding: ``reset(seed=s)`` deals the same cards as ``Match(rules, s)``; a reset without a seed draws the
match seed from the generator set by the last seeded reset.

Rewards: at the end of a deal each agent receives its score of the deal under the rules' scoring (running:
tricks minus target, so over-tricks positive, under-tricks negative; the scores add up to 0).

### Action space (``sergeant_major.research.action_space``)

| ids | action |
|---|---|
| 0..51 | a card (id = suit*13 + rank, suits C D H S, ranks 2..A): give, return, discard or play, by the phase |
| {contract_base}..{contract_end} | name a contract: clubs, diamonds, hearts, spades, no-trump, minimum tricks |
| {take_kitty} | take the kitty (always forced: never in a mask) |
| {end_give} | give no more cards (``exchange-count=at-most``) |
| {assign_base}..{assign_end} | assign targets: permutation number k of the preset's targets (``dealer-assigns-targets``) |

### Observation (``{obs_version}``, 9-5-2; seats relative to the agent: 0 me, 1 left, 2 right)

{obs_table}

### Information state (``information_state=True``)

{info_table}
"""


def _doc() -> str:
    return _DOC.format(
        name=ENV_NAME, num_actions=NUM_ACTIONS, obs_version=OBSERVATION_VERSION, contract_base=CONTRACT_BASE,
        contract_end=CONTRACT_BASE + 5, take_kitty=TAKE_KITTY, end_give=END_GIVE, assign_base=ASSIGN_BASE,
        assign_end=NUM_ACTIONS - 1, obs_table=layout_table(), info_table=layout_table(info=True),
    )


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": ENV_NAME, "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: Rules | str = "9-5-2", render_mode: str | None = None, episode: str = "deal",
                 max_deals: int | None = None, information_state: bool = False, start_deal: int = 1,
                 **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SergeantMajorError(f"render_mode={render_mode!r} is not one of None, human, ansi")
        self.rules = make_rules(rules, options)
        self.render_mode = render_mode
        self._table = Table(self.rules, episode, max_deals, information_state, start_deal)
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self._table.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            })
            for a in self.possible_agents
        }
        # state(): every seat's observation, player_0's first (PettingZoo's global state, for centralized critics)
        self.state_space = spaces.Box(0.0, 1.0, (n * self._table.size,), np.float32)
        self._rng = random.Random()
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def _agent(self, agent: Any) -> str:
        """``agent`` when it is one of ``possible_agents``; else a :class:`SergeantMajorError` quoting it."""
        if not isinstance(agent, str) or agent not in self._seat:
            raise SergeantMajorError(f"{agent!r} is not an agent of this environment (one of {', '.join(self.possible_agents)})")
        return agent

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call).

        Raises:
            SergeantMajorError: quoting ``agent`` when it is not one of ``possible_agents``.
        """
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(NUM_ACTIONS)`` (the same object every call).

        Raises:
            SergeantMajorError: quoting ``agent`` when it is not one of ``possible_agents``.
        """
        return self.action_spaces[self._agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal anew: ``seed`` gives the cards of ``Match(rules, seed)``; ``None`` draws a seed.

        Raises:
            SergeantMajorError: quoting a seed that is not a whole number from 0 up (an int or a NumPy
                integer; ``1.5`` and ``True`` are refused, ``np.int64(3)`` is ``3``), or ``start_deal`` when no
                match from this seed on reaches it (:meth:`Table.new <sergeant_major.research.envs.table.Table.new>`).
                Nothing changes.
        """
        match_seed = check_seed(seed)
        rng = self._rng if match_seed is None else random.Random(match_seed)
        before = rng.getstate()
        if match_seed is None:
            match_seed = rng.getrandbits(62)
        try:
            self._table.new(match_seed)
        except SergeantMajorError:
            rng.setstate(before)  # an unseeded reset that failed leaves the next seed as it was
            raise
        self._rng = rng
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._table.to_act]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``{"observation": float32[size], "action_mask": int8[NUM_ACTIONS]}`` of ``agent``.

        Raises:
            SergeantMajorError: quoting ``agent`` when it is not one of ``possible_agents``.
        """
        obs, mask = self._table.observe(self._seat[self._agent(agent)])
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray[Any, Any]:
        """The global state (PettingZoo's ``state()``): the observations of every seat in seat order, player_0's
        first, each as :meth:`observe` gives it (the information state with ``information_state=True``).

        Shape ``(players * size,)`` float32 in ``[0, 1]``, :attr:`state_space` (1980 for the 3-player presets: 3 x
        660; 3168 with 4 players). It holds every seat's hand: for centralized training (a critic), never an
        agent's input. Cards no seat has seen yet (a kitty before it is taken) are not in it.
        """
        return np.concatenate([self._table.observe(seat)[0] for seat in range(self.rules.players)])

    def step(self, action: int | None) -> None:
        """Play the action id ``action`` for ``agent_selection`` (``None`` for an agent already done).

        ``action`` is an int, a NumPy integer or a 0-d integer array.

        Raises:
            IllegalActionError: quoting the id when it is not in the action mask (``raw_env`` only;
                ``env()`` ends the episode with ``illegal_reward`` instead), or quoting a value that is not
                a whole number (``52.7``, ``True``). A refused action changes nothing (rewards included).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise SergeantMajorError(f"{agent} is to act: None is not an action")
        res = self._table.step(check_action(action))  # checked: raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if res is not None:
            for a in self.agents:
                self.rewards[a] = float(res.scores[self._seat[a]])
        done = self._table.done
        if done == "terminated":
            self.terminations = dict.fromkeys(self.agents, True)
        elif done == "truncated":
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._table.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``human``: print the table as ``agent_selection`` sees it; ``ansi``: return that text."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        seat = self._seat[self.agent_selection]
        d = self._table.deal
        head = (f"{ENV_NAME} {self.rules}: deal {d.number}, dealer player_{d.dealer}, "
                f"as player_{seat} ({role_name(d.role(seat))}) sees it")
        text = head + "\n" + observation_string(self._table.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    @property
    def match(self) -> Any:
        """The :class:`~sergeant_major.core.match.Match` being played (the full state: for tests and tools, not for agents)."""
        return self._table.match


raw_env.__doc__ = _doc()


def env(rules: Rules | str = "9-5-2", render_mode: str | None = None, illegal_reward: float | None = None,
        **options: Any) -> Any:
    """The wrapped environment (illegal action ends the episode with ``illegal_reward`` for the offender,
    out-of-bounds actions assert, order enforced). See :class:`raw_env` for the arguments and the page.

    Raises:
        SergeantMajorError: quoting an ``illegal_reward`` that is not a finite number (or ``None``), or a bad
            argument of :class:`raw_env`.
        RulesError: quoting a bad preset, option or value."""
    e: Any = raw_env(rules, render_mode, **options)
    penalty = illegal_penalty(e.rules, illegal_reward)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=penalty)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


env.__doc__ = (env.__doc__ or "") + "\n\n" + _doc()
