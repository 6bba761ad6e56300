"""The table both environments drive: a :class:`~sergeant_major.core.match.Match`, the episode's bounds, the
forced actions applied automatically, and a seat's encoded observation and action mask."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from sergeant_major.core.deal import Deal, DealResult
from sergeant_major.core.errors import IllegalActionError, SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.seeding import SEED_LIMIT
from sergeant_major.core.view import View, build_view
from sergeant_major.players import HeuristicPlayer, drive
from sergeant_major.research.action_space import NUM_ACTIONS, action_from_id, legal_ids
from sergeant_major.research.observation import (
    encode_information_state,
    encode_observation,
    information_state_size,
    observation_size,
)

EPISODES = ("deal", "match")
START_TRIES = 200
"""With ``start_deal=k > 1``: how many matches (seeds ``s``, ``s + 1``, ...) a reset plays to find one that reaches
deal ``k`` before it gives up with an error (with rules whose matches end early, a ``k`` too large would
otherwise be looked for forever)."""


def make_rules(rules: Rules | str, options: dict[str, Any]) -> Rules:
    """``rules`` (a :class:`Rules` or its string form) with rule ``options`` applied (``must_trump="on"``).

    Raises:
        RulesError: quoting an unknown preset, option or value.
    """
    r = rules if isinstance(rules, Rules) else Rules.parse(str(rules))
    if options:
        r = r.with_options(**{k: _option_text(v) for k, v in options.items()})
    return r


def _whole(value: object) -> int | None:
    """``value`` as an int when it is a whole number (an int, a NumPy integer, a 0-d integer array), else None.
    A bool is not a whole number here."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def check_seed(seed: object) -> int | None:
    """``seed`` as a Python int (``None`` stays ``None``): both environments' ``reset(seed=...)``.

    Accepts an int or a NumPy integer from 0 below 2**62 (Gymnasium's rule for seeds, from 0 up, within the range
    of ``Match`` and a record's seed); ``Match(rules, seed)`` gets the same int, so ``np.int64(3)`` deals what ``3``
    deals.

    Raises:
        SergeantMajorError: quoting a seed that is not a whole number (a float such as ``1.5``, a bool, a
            string), is negative or is ``2**62`` or more. Nothing changes.
    """
    if seed is None:
        return None
    value = _whole(seed)
    if value is None or not 0 <= value < SEED_LIMIT:
        shown = repr(seed) if value is None or value.bit_length() < 200 else f"<an int of {value.bit_length()} bits>"
        raise SergeantMajorError(f"seed={shown} must be None or a whole number from 0 below 2**62 (an int or a NumPy "
                                 "integer)")
    return value


def check_action(action: object) -> int:
    """``action`` as a Python int action id: an int, a NumPy integer or a 0-d integer array.

    Raises:
        IllegalActionError: quoting ``action`` when it is not a whole number (a float such as ``52.7``, a bool,
            a string, an array of several values). Nothing changes.
    """
    value = _whole(action)
    if value is None:
        raise IllegalActionError(f"action {action!r} is not an action id (a whole number 0..{NUM_ACTIONS - 1})", "action id")
    return value


def check_flag(name: str, value: object) -> bool:
    """``value`` of the on/off argument ``name`` (``information_state``): ``True``, ``False`` or a NumPy bool.

    Raises:
        SergeantMajorError: quoting any other value (a string such as ``"no"`` would have read as on).
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise SergeantMajorError(f"{name}={value!r} must be True or False")


def illegal_penalty(rules: Rules, value: object) -> float:
    """The reward of an illegal action: ``value`` as a float (``None``: minus the rules' tricks per deal).

    Raises:
        SergeantMajorError: quoting a value that is not a finite real number (a string, a bool, NaN, an infinity).
    """
    if value is None:
        return -float(rules.tricks)
    if not isinstance(value, (bool, np.bool_, str, bytes)):
        try:
            reward = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            pass
        else:
            if math.isfinite(reward):
                return reward
    raise SergeantMajorError(f"illegal_reward={value!r} must be a finite number or None (None: -{rules.tricks}, "
                             "minus the tricks per deal)")


def _option_text(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if v is None:
        return "off"
    return str(v)


class Table:
    """One episode's state.

    Args:
        rules: the rules in force.
        episode: ``"deal"`` (one deal, the first of a new match) or ``"match"`` (a whole match).
        start_deal: the episode starts at this deal of the match; the deals before it are played by
            heuristic computer players (default 1: the first deal, which has no exchange).
        max_deals: with ``episode="match"``, truncate after this many deals (``None``: play to the end).
        information_state: encode the perfect-recall information state instead of the observation.

    Raises:
        SergeantMajorError: quoting a bad ``episode``, ``max_deals`` (also ``max_deals`` without ``episode="match"``),
            ``start_deal`` or ``information_state`` (not a bool).
    """

    def __init__(self, rules: Rules, episode: str = "deal", max_deals: int | None = None,
                 information_state: bool = False, start_deal: int = 1) -> None:
        if isinstance(start_deal, bool) or not isinstance(start_deal, int) or start_deal < 1 or (
                rules.deals is not None and start_deal > rules.deals):
            raise SergeantMajorError(f"start_deal={start_deal!r} must be a deal number from 1"
                                     + (f" to {rules.deals}" if rules.deals is not None else ""))
        if episode not in EPISODES:
            raise SergeantMajorError(f"episode={episode!r} is not one of {', '.join(EPISODES)}")
        if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals <= 0):
            raise SergeantMajorError(f"max_deals={max_deals!r} must be a positive whole number or None")
        if max_deals is not None and episode != "match":  # a deal episode is one deal: the cap would do nothing
            raise SergeantMajorError(f"max_deals={max_deals!r} caps episodes of whole matches: give episode='match' "
                                     f"(an episode={episode!r} is one deal)")
        self.rules = rules
        self.episode = episode
        self.max_deals = max_deals
        self.information_state = information_state = check_flag("information_state", information_state)
        self.start_deal = start_deal
        self.size = information_state_size(rules) if information_state else observation_size(rules)
        self.names = tuple(f"player_{i}" for i in range(rules.players))
        self.match = Match(rules, 0, self.names)
        self.deal: Deal = self.match.deal
        self.deals_done = 0
        self.done: str | None = None  # None, "terminated" or "truncated"
        self._last_seat = 0
        self._cache: dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = {}

    def new(self, seed: int) -> None:
        """Start a new episode: a new match with ``seed`` (the same cards as ``Match(rules, seed)``).

        With ``start_deal=k > 1`` the deals before deal ``k`` are played by heuristic computer players
        (so deal ``k`` has a real exchange and real totals); a match that ends before deal ``k`` is
        replaced by the one with seed + 1 (0 after 2**62 - 1), and so on (reproducible), up to :data:`START_TRIES` matches.

        Raises:
            SergeantMajorError: quoting ``start_deal`` when none of the :data:`START_TRIES` matches from
                ``seed`` on reaches deal ``k`` (the rules' matches end sooner). Nothing changes.
        """
        match = Match(self.rules, seed, self.names)
        first = seed
        tries = 1
        while self.start_deal > 1:
            players = [HeuristicPlayer() for _ in self.names]
            while not match.over and match.deal.number < self.start_deal:
                drive(match, players, until_deal_end=True)
            if not match.over:
                break
            if tries >= START_TRIES:
                longest = "" if not self.rules.deals else f" (at most {self.rules.deals} deals)"
                raise SergeantMajorError(
                    f"start_deal={self.start_deal!r}: none of {START_TRIES} matches of {self.rules}{longest} played by "
                    f"heuristic players (seeds {first} to {seed}) reached deal {self.start_deal}; "
                    "give a smaller start_deal")
            tries += 1
            seed = (seed + 1) % SEED_LIMIT  # the last seed's next is 0: Match takes no seed of 2**62 or more
            match = Match(self.rules, seed, self.names)
        self.match = match
        self.deal = self.match.deal
        self.deals_done = 0
        self.done = None
        self._last_seat = 0
        self._cache.clear()
        self._forced()

    @property
    def to_act(self) -> int:
        """The seat whose decision comes next (the last one to act once the episode is over)."""
        t = self.deal.to_act
        return self._last_seat if t is None else t

    def _forced(self) -> None:
        while not self.match.over:
            f = self.match.publicly_forced_action()
            if f is None:
                return
            self.match.apply(f)

    def step(self, aid: int) -> DealResult | None:
        """Apply the decision with action id ``aid`` for the seat to act, then the forced actions that follow.

        Returns:
            the deal's result when this action finished a deal, else ``None``.

        Raises:
            IllegalActionError: quoting ``aid`` when it is not legal now (nothing changes).
        """
        action = action_from_id(self.deal, aid)
        self._last_seat = action.seat
        self._cache.clear()
        res = self.match.apply(action)
        if res is not None:
            self.deals_done += 1
            if self.episode == "deal" or self.match.over:
                self.done = "terminated"
            elif self.max_deals is not None and self.deals_done >= self.max_deals:
                self.done = "truncated"
            else:
                self.deal = self.match.deal
        if self.done is None:
            self._forced()
        return res

    def view(self, seat: int) -> View:
        """``seat``'s view of the episode's current (or, once over, last) deal."""
        m = self.match
        left = tuple(m.contracts_left(s) for s in range(self.rules.players)) if self.rules.contract_once else ()
        return build_view(self.deal, seat, m.names, tuple(m.totals), tuple(m.results), left)

    def observe(self, seat: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``(observation float32[size], action_mask int8[NUM_ACTIONS])`` of ``seat``; the mask is all 0
        unless ``seat`` is to act in a running episode."""
        hit = self._cache.get(seat)
        if hit is not None:
            return hit[0].copy(), hit[1].copy()
        v = self.view(seat)
        enc = encode_information_state(v) if self.information_state else encode_observation(v)
        obs = np.asarray(enc, dtype=np.float32)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.done is None and self.deal.to_act == seat:
            mask[legal_ids(self.deal)] = 1
        self._cache[seat] = (obs, mask)
        return obs.copy(), mask.copy()
