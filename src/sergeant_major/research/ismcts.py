"""The ``ismcts`` level: OpenSpiel's Python ISMCTS bot as a player, for measurement only (extra ``openspiel``).

Issue "Computer players that play well" asks how the ``expert`` does against an established search given the
same time per decision. This module wraps ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (information-set
Monte Carlo tree search, UCT with ``uct_c``, the final action by visit count) with a random-rollout evaluator
(``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator``, one rollout per leaf) as a
:class:`~sergeant_major.players.Player`: at every decision it builds a ``python_sergeant_major`` game state
(:mod:`sergeant_major.research.openspiel_game`) consistent with the view and asks the bot for an action.

The state: the current deal is one world drawn by :func:`~sergeant_major.search.determinization.resample` from
the view, wrapped in a match with the view's names, totals, previous results and contracts left, so that the
state's view for the seat equals the given view (checked). The search stops at the end of the current deal
(the state is terminal then); the returns are the match totals, i.e. the deal's score plus a constant, so
the bot maximises its score for the deal. Each simulation draws a new world with the same ``resample``
(OpenSpiel's ``resample_from_infostate``, the game's own), seeded from the player's generator: the bot
never sees a hidden card.

Budget and determinism: the budget is a **count** of simulations (``simulations``), never wall time, and
every random choice (worlds, tree policy ties, rollouts, the final draw) comes from generators seeded from
the ``rng`` the caller passes to :meth:`ISMCTSPlayer.choose`. So the same view and generator give the same
action on any machine (tested), which the duplicate tournament relies on (``tournament`` module doc).
(OpenSpiel's default resampler draws its seeds from ``pyspiel.UniformProbabilitySampler``, seeded from the
clock; we install our own with ``ISMCTSBot.set_resampler``.) The worlds of one decision (the first and one per
simulation) share one :class:`~sergeant_major.search.determinization.Budget` of :data:`WORLD_STEPS` resample steps
per world (a count too, as the ``expert``'s worlds do): some ``give=lowest`` views take seconds a world. When
``resample`` gives up on a view (rare, after its budget of draws; seen once in 3-5-8) or the budget runs out,
a simulation searches the first world again, and when not even the first world is found the decision is the
``heuristic``'s. With budget left every world is the one drawn without a budget, so ordinary decisions are
unchanged.

The level is registered in :data:`sergeant_major.eval.levels.MEASUREMENT_LEVELS` (never offered in ``play``):
it is slow and needs the ``openspiel`` extra. :data:`SIMULATIONS` is calibrated so that its mean time per
decision matches the ``expert``'s on this machine (docs/players.md, "`ismcts`").
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sergeant_major.core.actions import Action, Contract
from sergeant_major.core.cards import CARDS
from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import SergeantMajorError, install_hint
from sergeant_major.core.match import Match
from sergeant_major.core.rule_options import KittyProcedure
from sergeant_major.core.rules import Rules
from sergeant_major.core.seeding import check_rng
from sergeant_major.core.view import View
from sergeant_major.players.heuristic import HeuristicPlayer
from sergeant_major.players.protocol import check_decision

if TYPE_CHECKING:
    from sergeant_major.search.determinization import Budget

__all__ = ["ISMCTSPlayer", "SIMULATIONS", "DEFAULT_SIMULATIONS", "UCT_C", "WORLD_STEPS", "state_from_view"]

SIMULATIONS: dict[str, int] = {"9-5-2": 7, "3-5-8": 9}
"""Simulations per decision of the ``ismcts`` level by rules (string form), calibrated so that its mean CPU time
per decision is at least the ``expert``'s in the tournament's own games (``benchmarks/bench_expert.py --players
expert,ismcts,ismcts --boards 12``: 9-5-2, 7 simulations 12.0 ms against the expert's 10.9 ms; 3-5-8, 9
simulations 14.0 ms against 10.5 ms; docs/players.md "`ismcts`"); other rules use :data:`DEFAULT_SIMULATIONS`."""
DEFAULT_SIMULATIONS = 6
"""Simulations per decision for rules not in :data:`SIMULATIONS`."""
UCT_C = 2.0
"""The UCT exploration constant (OpenSpiel's examples use 2.0; scores are in tricks, -9..+9 or so)."""
WORLD_STEPS = 5000
"""The resample work one decision's worlds may cost, in :class:`~sergeant_major.search.determinization.Budget` steps per
world (the first world and one per simulation: ``WORLD_STEPS * (simulations + 1)`` in all; the ``expert``'s
``WORLD_STEPS`` too). A step is ~20-50 us, so at most about 1-2 s for 7 simulations; ordinary views take 2-20
steps a world and never reach it."""
_HEURISTIC = HeuristicPlayer()


def _openspiel() -> tuple[Any, Any, Any]:
    """``(pyspiel, ismcts, mcts)``, importing the ``python_sergeant_major`` game (registers it).

    Raises:
        SergeantMajorError: when the ``openspiel`` extra is not installed.
    """
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from sergeant_major.research import openspiel_game  # noqa: F401  (registers python_sergeant_major)
    except ImportError as e:  # ModuleNotFoundError, or openspiel_game naming what it misses
        raise SergeantMajorError(f"the 'ismcts' player needs OpenSpiel ({e}); install the extra: "
                                 + install_hint("openspiel")) from None
    return pyspiel, ismcts, mcts


@lru_cache(maxsize=16)
def _game(rules_text: str) -> Any:
    pyspiel, _, _ = _openspiel()
    from sergeant_major.research.openspiel_game import GAME_NAME

    return pyspiel.load_game(GAME_NAME, {"rules": rules_text, "deals": 1})


def _placeholder_deal(rules: Rules, dealer: int, number: int) -> Deal:
    deck = list(range(1, 52)) if rules.kitty is KittyProcedure.NONE else list(range(52))
    hs = rules.hand_size
    hands = [[CARDS[c] for c in deck[s * hs:(s + 1) * hs]] for s in range(rules.players)]
    return Deal(rules, dealer, hands, [CARDS[c] for c in deck[rules.players * hs:]], None, None, number)


def state_from_view(view: View, world: Deal) -> Any:
    """A ``python_sergeant_major`` state whose current deal is ``world`` (a deal consistent with ``view``,
    e.g. from :func:`~sergeant_major.search.determinization.resample`; not copied) and whose match context (names,
    totals, previous results, contracts left) is the view's. The state is terminal once this deal ends.

    Raises:
        SergeantMajorError: when the state's view for ``view.seat`` differs from ``view`` (``world`` is not
            consistent with it), or the ``openspiel`` extra is missing.
    """
    rules = view.rules
    n = rules.players
    game = _game(str(rules))
    state = game.new_initial_state()
    from sergeant_major.research.openspiel_game import SearchMatch  # a match that pyspiel.clone copies fast
    m: Match = SearchMatch.__new__(SearchMatch)
    m._cards = lambda number, dealer: None  # a following deal is never played: the state is terminal then
    m.rules = rules
    m.seed = 0
    m.names = view.names
    m.first_dealer = (view.dealer - (view.deal_number - 1)) % n
    m.totals = list(view.totals)
    m.results = list(view.results)
    m.deals = [_placeholder_deal(rules, m.dealer_of(i + 1), i + 1) for i in range(len(view.results))] + [world]
    every = tuple(Contract) if rules.has_nt_mt else tuple(Contract)[:4]
    left = view.contracts_left if rules.contract_once and view.contracts_left else tuple(every for _ in range(n))
    m.contracts_used = [[c for c in every if c not in left[s]] for s in range(n)]
    m.end = None
    state._match = m
    state._dealing = None
    state._cap = len(view.results) + 1
    state._rewards = [0.0] * n
    if state.view(view.seat) != view:
        raise SergeantMajorError(f"the world is not consistent with seat {view.seat}'s view (deal {view.deal_number}, "
                                 f"phase {view.phase.value})")
    return state


class ISMCTSPlayer:
    """OpenSpiel's Python ``ISMCTSBot`` with random rollouts, as a player (module doc).

    Args:
        name: the player's name.
        simulations: simulations per decision (>= 1): the budget, a count. ``None``: the calibrated count of
            the rules of the view (:data:`SIMULATIONS`, else :data:`DEFAULT_SIMULATIONS`).
        uct_c: the UCT exploration constant.

    Attributes:
        last_budget: the last searched decision's :class:`~sergeant_major.search.determinization.Budget` of
            ``WORLD_STEPS * (simulations + 1)`` steps (steps used, worlds drawn, completions, samples); ``None``
            before the first (a decision with one legal action searches nothing).

    Raises:
        SergeantMajorError: quoting a bad ``simulations`` or ``uct_c``, or when the ``openspiel`` extra is missing.
    """

    def __init__(self, name: str = "ismcts", simulations: int | None = None, uct_c: float = UCT_C) -> None:
        if simulations is not None and (not isinstance(simulations, int) or simulations < 1):
            raise SergeantMajorError(f"simulations={simulations!r}: use a whole number >= 1")
        if not uct_c >= 0:
            raise SergeantMajorError(f"uct_c={uct_c!r}: use a number >= 0")
        _openspiel()
        self.name = name
        self.simulations = simulations
        self.uct_c = uct_c
        self.last_budget: Budget | None = None

    def budget(self, rules: Rules) -> int:
        """Simulations per decision under ``rules``."""
        if self.simulations is not None:
            return self.simulations
        return SIMULATIONS.get(str(rules), DEFAULT_SIMULATIONS)

    def choose(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal``: the bot's choice after :attr:`simulations` simulations (module doc).

        Raises:
            SergeantMajorError: when the seat is not to act (``view.legal`` is empty), or quoting ``rng`` when it is
                not a ``random.Random``.
        """
        check_decision(view)
        check_rng(rng, "ISMCTSPlayer.choose")
        if len(view.legal) == 1:
            return view.legal[0]
        import numpy as np

        from sergeant_major.research.action_space import action_from_id
        from sergeant_major.search.determinization import Budget, ResampleError, resample

        _, ismcts, mcts = _openspiel()
        simulations = self.budget(view.rules)
        self.last_budget = budget = Budget(WORLD_STEPS * (simulations + 1))
        rs = np.random.RandomState(rng.getrandbits(32))
        world_rng = random.Random(rng.getrandbits(64))
        try:
            state = state_from_view(view, resample(view, world_rng, budget=budget))
        except ResampleError:  # rare: resample gave up or the budget ran out; no world to search: the heuristic's choice
            return _HEURISTIC.choose(view, rng)

        def resampler(st: Any, player: int) -> Any:
            try:
                return st.resample_from_infostate(player, world_rng.random, budget=budget)
            except ResampleError:  # rare: gave up, or the budget ran out (BudgetExhausted): the first world again
                return st.clone()

        bot = ismcts.ISMCTSBot(state.get_game(), mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                               uct_c=self.uct_c, max_simulations=simulations, random_state=rs,
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(resampler)
        aid = int(bot.step(state))
        action = action_from_id(state._match.deal, aid)
        if action not in view.legal:  # the world's legal actions are the view's: a bug if this happens
            raise SergeantMajorError(f"ISMCTS chose {action!r}, not legal for seat {view.seat}")
        return action
