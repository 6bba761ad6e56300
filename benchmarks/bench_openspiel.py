"""Random games per second through the ``python_sergeant_major`` OpenSpiel game, beside the core engine.

One game is one deal (the game's default): chance deals the cards one by one, every decision is a uniformly
random legal action through the pyspiel API (``legal_actions`` / ``apply_action``), forced actions are
applied inside the game. The core figure plays random deals through :class:`Match` (checked ``apply``,
forced actions included as actions). Also: determinizations per second (``resample`` on mid-play views).
CPU time (``time.process_time``). Needs the ``openspiel`` extra.

    python benchmarks/bench_openspiel.py --seconds 3 --rules 9-5-2

Part A's ``bench_envs.py`` imports :func:`deals_per_second` (and :func:`openspiel_games_per_second`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from sergeant_major import Match, Rules


def openspiel_games_per_second(seconds: float, rules: str = "9-5-2", seed: int = 0) -> float:
    """Whole random games (deals) per CPU second through the OpenSpiel game via the pyspiel API."""
    import pyspiel

    from sergeant_major.research import openspiel_game

    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"rules": rules, "deals": 1})
    rng = random.Random(seed)
    games = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        games += 1
    return games / (time.process_time() - t0)


def deals_per_second(rules: Rules, seconds: float, seed: int) -> float:
    """The hook ``bench_envs.py`` looks for: :func:`openspiel_games_per_second` for ``rules``."""
    return openspiel_games_per_second(seconds, str(rules), seed)


def core_deals_per_second(seconds: float, rules: str = "9-5-2", seed: int = 0) -> float:
    """Random deals per CPU second through the core engine (:class:`Match`, checked ``apply``)."""
    r = Rules.parse(rules)
    rng = random.Random(seed)
    deals = 0
    match = Match(r, seed, dealer=0)
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        for _ in range(100):
            legal = match.legal_actions()
            if match.apply(legal[rng.randrange(len(legal))]) is not None:
                deals += 1
                if match.over:
                    seed += 1
                    match = Match(r, seed, dealer=0)
    return deals / (time.process_time() - t0)


def resamples_per_second(seconds: float, rules: str = "9-5-2", seed: int = 0) -> float:
    """Determinizations per CPU second on views taken every few decisions of random matches."""
    from sergeant_major.search.determinization import resample

    r = Rules.parse(rules)
    rng = random.Random(seed)
    views = []
    match = Match(r, seed)
    while len(views) < 200:
        if match.over:
            match = Match(r, rng.randrange(1 << 30))
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        if not match.over and rng.random() < 0.2:
            views.append(match.view(rng.randrange(r.players)))
    n = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        resample(views[n % len(views)], rng)
        n += 1
    return n / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--rules", default="9-5-2")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print('pyspiel is not installed: pip install ".[openspiel]" in the source folder', file=sys.stderr)
        return 2
    core = core_deals_per_second(a.seconds, a.rules, a.seed)
    osp = openspiel_games_per_second(a.seconds, a.rules, a.seed)
    rs = resamples_per_second(a.seconds, a.rules, a.seed)
    print(f"rules {a.rules!r}, {a.seconds:g} CPU seconds each")
    print(f"core engine (Match, checked):      {core:9.1f} random deals/s")
    print(f"OpenSpiel game (pyspiel API):      {osp:9.1f} random games (deals)/s  ({osp / core:.2f}x core)")
    print(f"resample (determinizations):       {rs:9.1f} samples/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
