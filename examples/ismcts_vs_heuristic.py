"""OpenSpiel's Python ISMCTS bot against the heuristic player, through the ``python_sergeant_major`` game.

Needs the ``openspiel`` extra (``pip install ".[openspiel]"`` in the source folder). Each deal is one game; the ISMCTS
bot takes each seat in turn (seat ``d % players`` in deal ``d``), the heuristic player the others. ISMCTS draws
its worlds with ``state.resample_from_infostate`` (our :func:`sergeant_major.search.determinization.resample`,
seeded from ``--seed``, so a run is reproducible) and evaluates leaves with random rollouts. Prints each deal
and the mean score per deal of each side. The ``ismcts`` tournament level (:mod:`sergeant_major.research.ismcts`)
wraps the same bot as a player.

    python examples/ismcts_vs_heuristic.py --deals 6 --simulations 100 --rules 9-5-2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.players import HeuristicPlayer
from sergeant_major.research import openspiel_game
from sergeant_major.research.action_space import action_id


def play_deal(game: pyspiel.Game, bot_seat: int, simulations: int, seed: int) -> list[float]:
    """One deal: the ISMCTS bot at ``bot_seat``, heuristic players elsewhere. Returns the scores by seat."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rs,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    # OpenSpiel's default resampler seeds each world from pyspiel.UniformProbabilitySampler, which is seeded
    # from the clock: draw the worlds from a seeded generator instead, so that the same seed gives the same deal
    worlds = random.Random(seed + 1)
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, worlds.random))
    heuristic = HeuristicPlayer()
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.randrange(len(outcomes))])
            continue
        seat = state.current_player()
        if seat == bot_seat:
            action = bot.step(state)
        else:
            view = state.view(seat)
            assert view is not None
            action = action_id(heuristic.choose(view, rng), state._match.deal)
        state.apply_action(action)
    return list(state.returns())


MAX_SEED = 4_000_000  # deal d of seed s seeds NumPy's generator with s * 1000 + d, which must stay below 2**32
MAX_DEALS = 100_000


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number ``low..high``; anything else is refused quoting it (exit 2, no traceback)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {low}..{high}")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="9-5-2", help="rules string form, e.g. '8-5-3 kitty=see-then-trump'")
    parser.add_argument("--deals", type=whole_number(1, MAX_DEALS), default=6, help="deals to play (default 6)")
    parser.add_argument("--simulations", type=whole_number(1, 10**9), default=100,
                        help="ISMCTS simulations per decision (default 100)")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=1, help="the run's seed (default 1)")
    args = parser.parse_args(argv)
    try:
        game = pyspiel.load_game(openspiel_game.GAME_NAME, {"rules": args.rules, "deals": 1})
    except SergeantMajorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    n = game.num_players()
    bot_scores: list[float] = []
    heur_scores: list[float] = []
    for d in range(args.deals):
        seat = d % n
        scores = play_deal(game, seat, args.simulations, args.seed * 1000 + d)
        bot_scores.append(scores[seat])
        heur_scores += [scores[s] for s in range(n) if s != seat]
        print(f"deal {d + 1}: ISMCTS at seat {seat}; scores {scores}")
    print(f"mean score per deal: ISMCTS {sum(bot_scores) / len(bot_scores):+.2f}, "
          f"heuristic {sum(heur_scores) / len(heur_scores):+.2f} ({args.deals} deals, {args.simulations} simulations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
