"""A Gymnasium single-agent environment: one seat against the package's computer players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.players import Player, decision_rng, make_player
from sergeant_major.research.action_space import NUM_ACTIONS, action_id
from sergeant_major.research.envs.table import Table, check_action, check_seed, illegal_penalty, make_rules
from sergeant_major.research.observation import observation_string

__all__ = ["SingleSeatEnv"]

Obs = dict[str, Any]  # {"observation": float32[size], "action_mask": int8[84]}


class SingleSeatEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of Sergeant Major against computer players (``players.make_player`` levels or
    :class:`~sergeant_major.players.Player` objects), as a Gymnasium environment.

    Spaces: action ``Discrete(84)`` (``sergeant_major.research.action_space``); observation ``Dict``
    with ``observation`` Box(0, 1, (size,), float32) (``smobs-v1``, see ``docs/research.md``) and
    ``action_mask`` Box(0, 1, (84,), int8). :meth:`action_masks` gives the mask as booleans (for
    maskable-policy libraries).

    Args:
        rules: a preset or the rules string form (default ``"9-5-2"``).
        seat: the learner's seat, ``0..players-1``.
        opponents: one per other seat, in seat order from ``seat + 1`` round the table.
        episode: ``"deal"`` (one deal) or ``"match"`` (a whole match; rewards at the end of each deal).
        max_deals: with ``episode="match"``, truncate after this many deals.
        information_state: observe the perfect-recall information state instead.
        illegal_reward: an action outside the mask ends the episode with this reward (default ``-tricks``)
            and ``info["illegal_action"]``.
        render_mode: ``None``, ``"human"`` (print) or ``"ansi"`` (return the text).
        start_deal: the episode starts at this deal of the match (the deals before it played by heuristic
            computer players); ``2`` gives deal episodes with an exchange.
        **options: rule options, e.g. ``must_trump="on"``.

    Rewards: the seat's score of each deal finished during the step. ``reset(seed=s)`` deals the cards of
    ``Match(rules, s)``; the opponents draw from generators seeded from the match seed, so an episode
    replays exactly from its seed and actions.

    Raises:
        SergeantMajorError: quoting a bad seat, opponents (a string, a wrong count, one that is neither a level
            nor a Player), episode,
            ``max_deals``, ``start_deal``, ``information_state`` (not a bool), ``illegal_reward`` (not a finite
            number) or render mode.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules: Rules | str = "9-5-2", seat: int = 0,
                 opponents: Sequence[str | Player] = ("heuristic", "heuristic"), episode: str = "deal",
                 max_deals: int | None = None, information_state: bool = False,
                 illegal_reward: float | None = None, render_mode: str | None = None, start_deal: int = 1,
                 **options: Any) -> None:
        self.rules = make_rules(rules, options)
        n = self.rules.players
        if isinstance(seat, np.integer):  # a seat drawn with NumPy (rng.integers) is a seat too, as a NumPy seed is
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise SergeantMajorError(f"seat={seat!r} is not a seat 0..{n - 1}")
        if isinstance(opponents, str):
            raise SergeantMajorError(f"opponents={opponents!r} is a string: give one level (or Player) per other seat, "
                                     f"e.g. opponents={tuple(['heuristic'] * (n - 1))!r}")
        if len(opponents) != n - 1:
            raise SergeantMajorError(f"{len(opponents)} opponents given for the {n - 1} other seats")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SergeantMajorError(f"render_mode={render_mode!r} is not one of None, human, ansi")
        self.seat = seat
        self.render_mode = render_mode
        self.players: dict[int, Player] = {}
        for k, o in enumerate(opponents):
            if not isinstance(o, (str, Player)):  # it failed only at the first decision (no attribute 'choose')
                raise SergeantMajorError(f"opponent {o!r} (for seat {(seat + 1 + k) % n}) is neither a player level "
                                         "nor a Player (an object with a name and choose(view, rng))")
            self.players[(seat + 1 + k) % n] = make_player(o) if isinstance(o, str) else o
        self._table = Table(self.rules, episode, max_deals, information_state, start_deal)
        self.illegal_reward = illegal_penalty(self.rules, illegal_reward)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self._table.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self._over = True

    def _obs(self) -> Obs:
        obs, mask = self._table.observe(self.seat)
        if self._over:
            mask[:] = 0
        return {"observation": obs, "action_mask": mask}

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions now, as a bool array of length 84."""
        mask: np.ndarray[Any, Any] = self._obs()["action_mask"]
        return mask.astype(bool)

    def _opponents(self) -> float:
        """Let the other seats act until the learner is to act or the episode ends; the learner's rewards."""
        t = self._table
        reward = 0.0
        while t.done is None and t.to_act != self.seat:
            s = t.to_act
            view = t.view(s)
            d = t.deal
            action = self.players[s].choose(view, decision_rng(t.match.seed, s, d.number, len(d.history)))
            if action not in view.legal:
                raise SergeantMajorError(f"opponent {self.players[s].name!r} at seat {s} chose an illegal action {action!r}")
            res = t.step(action_id(action, d))
            if res is not None:
                reward += res.scores[self.seat]
        return reward

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal anew (``seed``: the cards of ``Match(rules, seed)``); the opponents act until the seat's turn.

        Raises:
            SergeantMajorError: quoting a seed that is not a whole number from 0 up (an int or a NumPy
                integer; ``1.5`` and ``True`` are refused, ``np.int64(3)`` is ``3``), or ``start_deal`` when no
                match from this seed on reaches it. Nothing changes.
        """
        seed = check_seed(seed)
        gen, gen_seed = self._np_random, self._np_random_seed
        gen_state = None if gen is None else gen.bit_generator.state
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(0, 2**62))
        try:
            self._table.new(match_seed)
        except SergeantMajorError:  # a refused reset leaves the generator as it was
            self._np_random, self._np_random_seed = gen, gen_seed
            if gen is not None and gen_state is not None:
                gen.bit_generator.state = gen_state
            raise
        self._over = False
        self._opponents()
        self._over = self._table.done is not None
        if self.render_mode == "human":
            self.render()
        return self._obs(), {}

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Take ``action`` (an id) for the seat, then let the opponents act.

        Returns ``(observation, reward, terminated, truncated, info)``; an action outside the mask ends
        the episode with ``illegal_reward`` and ``info["illegal_action"] = action``.

        Raises:
            SergeantMajorError: once the episode is over (call ``reset()``).
            IllegalActionError: quoting ``action`` when it is not a whole number (``52.7``, ``True``); nothing
                changes.
        """
        if self._over:
            raise SergeantMajorError("the episode is over: call reset()")
        t = self._table
        aid = check_action(action)
        _, mask = t.observe(self.seat)
        if not 0 <= aid < NUM_ACTIONS or not mask[aid]:
            self._over = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": aid}
        reward = 0.0
        res = t.step(aid)
        if res is not None:
            reward += res.scores[self.seat]
        reward += self._opponents()
        self._over = t.done is not None
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, t.done == "terminated", t.done == "truncated", {}

    def render(self) -> str | None:
        """``human``: print the seat's view; ``ansi``: return it as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = observation_string(self._table.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text
