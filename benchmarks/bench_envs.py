"""Random deals per second through the research interfaces, beside the core engine, same machine, same run.

Run (the environments need the ``pettingzoo`` extra; OpenSpiel the ``bench`` extra)::

    pip install -e '.[pettingzoo]'
    python benchmarks/bench_envs.py [--seconds 3] [--repeats 3] [--rules 9-5-2] [--seed 0]

What is timed (CPU time, ``--seconds`` per repeat, median of ``--repeats``):

- core: whole deals through :class:`sergeant_major.Match` (checked ``apply``, ``legal_actions()`` and a
  uniform random choice at every step; a new match, seed+1, when one ends, so later deals have the
  exchange). One deal = one scored deal.
- pettingzoo: ``env(rules, episode="match")`` (the wrapped AEC environment): for every agent step,
  ``last()`` (the observation tensor ``smobs-v1`` and the action mask built as numpy arrays), a uniform
  random choice among the mask's ids, ``step()``; a new episode (``reset()``) when a match ends.
- pettingzoo (deal episodes): the same with ``episode="deal"``: every deal is the first of a new match
  (``reset()`` each deal, no exchange).
- openspiel: the figure of :func:`bench_openspiel` (the hook for part B; ``None`` when not available).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from sergeant_major import Match, Rules


def bench_core(rules: Rules, seconds: float, seed: int) -> float:
    """Deals per second through the core engine's checked API."""
    rng = random.Random(seed)
    match = Match(rules, seed)
    deals = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(100):
            legal = match.legal_actions()
            if match.apply(legal[rng.randrange(len(legal))]) is not None:
                deals += 1
                if match.over:
                    seed += 1
                    match = Match(rules, seed)
        if time.process_time() >= end:
            break
    return deals / (time.process_time() - t0)


def bench_pettingzoo(rules: Rules, seconds: float, seed: int, episode: str = "match") -> float:
    """Deals per second through the wrapped PettingZoo AEC environment, random legal actions from the mask."""
    import numpy as np

    from sergeant_major.research.envs import env

    rng = random.Random(seed)
    e = env(str(rules), episode=episode)
    e.reset(seed=seed)
    unwrapped = e.unwrapped
    deals = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(100):
            if not e.agents:
                e.reset()
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            done_before = unwrapped._table.deals_done
            e.step(int(ids[rng.randrange(len(ids))]))
            deals += unwrapped._table.deals_done - done_before
        if time.process_time() >= end:
            break
    return deals / (time.process_time() - t0)


def bench_openspiel(rules: Rules, seconds: float, seed: int) -> float | None:
    """HOOK FOR PART B (OpenSpiel game): random deals per second through the OpenSpiel game of this package.

    Uses ``benchmarks/bench_openspiel.py`` when it exists and defines ``deals_per_second(rules, seconds,
    seed) -> float``; returns ``None`` when it (or pyspiel) is not available.
    """
    try:
        import importlib.util
        from pathlib import Path

        path = Path(__file__).with_name("bench_openspiel.py")
        if not path.exists():
            return None
        spec = importlib.util.spec_from_file_location("bench_openspiel", path)
        if spec is None or spec.loader is None:
            return None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        fn = getattr(mod, "deals_per_second", None)
        if fn is None:
            return None
        return float(fn(rules, seconds, seed))
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rules", default="9-5-2")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    rules = Rules.parse(a.rules)
    sides: dict[str, Callable[[], float | None]] = {
        "core (Match, checked)": lambda: bench_core(rules, a.seconds, a.seed),
        "pettingzoo env, match episodes": lambda: bench_pettingzoo(rules, a.seconds, a.seed, "match"),
        "pettingzoo env, deal episodes": lambda: bench_pettingzoo(rules, a.seconds, a.seed, "deal"),
        "openspiel game (part B)": lambda: bench_openspiel(rules, a.seconds, a.seed),
    }
    results: dict[str, list[float]] = {k: [] for k in sides}
    for _ in range(a.repeats):  # alternate the sides within each repeat
        for name, fn in sides.items():
            v = fn()
            if v is not None:
                results[name].append(v)
    print(f"rules: {rules}; {a.repeats} x {a.seconds:g} s CPU per side; random legal actions; deals per second (median)")
    core = statistics.median(results["core (Match, checked)"])
    for name, vals in results.items():
        if not vals:
            print(f"  {name:34s}  not available")
            continue
        med = statistics.median(vals)
        print(f"  {name:34s}  {med:9.1f}  ({med / core:5.2f} x core)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
