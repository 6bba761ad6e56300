"""Whole random deals per second: sergeant-major's public API against OpenSpiel's ``oh_hell`` through pyspiel.

Run (OpenSpiel is in the ``bench`` extra; without it only our figures are printed)::

    pip install -e '.[bench]'
    python benchmarks/bench_deals.py [--seconds 3] [--repeats 5] [--rules 9-5-2] [--seed 0] [--warmup 3]

What is timed, per side, for ``--seconds`` per repeat, ``--repeats`` times (median reported):

- ours, checked: whole 9-5-2 matches through :class:`sergeant_major.Match` (a new match, seed+1, when one
  ends, so deals 2+ have the exchange): the cards dealt, then ``legal_actions()``, a uniform random choice
  and the checked ``apply()`` for every step (exchange gives and returns, trump, the kitty, 4 discards,
  48 cards played), scoring included. One deal = one completed :class:`~sergeant_major.DealResult`.
- ours, unchecked: the same, but the 48 cards of the play go through the fast path
  (:meth:`Deal.legal_play_mask` + a random set bit + :meth:`Match.play_unchecked`); the steps before the
  play stay checked.
- OpenSpiel: ``pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 16})`` driven from Python:
  ``new_initial_state()``, then until terminal: at chance nodes a uniform pick among ``chance_outcomes()``
  (they are uniform in oh_hell: the dealer, each of the 48 cards dealt and the trump card), else a uniform
  pick among ``legal_actions()`` (bids and cards), ``apply_action``. One deal = one terminal state.

The same ``random.Random`` drives both sides; the repeats alternate between the sides. Before the timed
repeats each side runs ``--warmup`` seconds untimed: our engine fills its memos of legal-action lists (one
tuple per seat and suit pattern) over the first tens of thousands of deals, and a long simulation runs with them warm. Times are CPU time
(``time.process_time``) of this process, so other load on the machine slows both sides alike only roughly:
the per-repeat ratios are printed too, and their median is the figure least moved by load that drifts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from sergeant_major import Match, Phase, Rules


def ours_checked(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    """Deals per second through the checked API, and the share of deals that had an exchange."""
    rng = random.Random(seed)
    randrange = rng.randrange
    match = Match(rules, seed, dealer=0)
    deals = exchanged = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(200):
            legal = match.legal_actions()
            if match.apply(legal[randrange(len(legal))]) is not None:
                deals += 1
                if match.deals[-2 if not match.over else -1].exchange_log:
                    exchanged += 1
                if match.over:
                    seed += 1
                    match = Match(rules, seed, dealer=0)
        if time.process_time() >= end:
            break
    return deals / (time.process_time() - t0), exchanged / max(deals, 1)


def ours_unchecked(rules: Rules, seconds: float, seed: int) -> float:
    """Deals per second with the card play on the unchecked fast path."""
    rng = random.Random(seed)
    randrange = rng.randrange
    match = Match(rules, seed, dealer=0)
    plays = rules.tricks * rules.players
    deals = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(10):
            deal = match.deal
            while deal.phase is not Phase.PLAY:
                legal = deal.legal_actions()
                match.apply(legal[randrange(len(legal))])
            for _ in range(plays):
                mask = deal.legal_play_mask()
                for _ in range(randrange(mask.bit_count())):
                    mask &= mask - 1
                match.play_unchecked((mask & -mask).bit_length() - 1)
            deals += 1
            if match.over:
                seed += 1
                match = Match(rules, seed, dealer=0)
        if time.process_time() >= end:
            break
    return deals / (time.process_time() - t0)


def openspiel(seconds: float, seed: int) -> float:
    """Deals per second of OpenSpiel's oh_hell (3 players, 16 tricks) driven through pyspiel."""
    import pyspiel  # the bench extra

    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 16})
    rng = random.Random(seed)
    randrange = rng.randrange
    deals = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[randrange(len(legal))])
            deals += 1
        if time.process_time() >= end:
            break
    return deals / (time.process_time() - t0)


def check_openspiel_chance_is_uniform() -> int:
    """Play one oh_hell deal and check every chance node is uniform; returns the actions in the deal."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 16})
    state = game.new_initial_state()
    rng = random.Random(0)
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outs = state.chance_outcomes()
            assert max(p for _, p in outs) - min(p for _, p in outs) < 1e-12, "non-uniform chance node"
            state.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return steps




def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per side per repeat (default 3)")
    ap.add_argument("--repeats", type=int, default=5, help="repeats; the median is reported (default 5)")
    ap.add_argument("--rules", default="9-5-2", help="our rules string (default 9-5-2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warmup", type=float, default=3.0, help="untimed seconds per side before the repeats (default 3)")
    args = ap.parse_args(argv)
    rules = Rules.parse(args.rules)
    try:
        import pyspiel  # noqa: F401
        have_osp = True
    except ImportError:
        have_osp = False
        print("pyspiel not installed (pip install -e '.[bench]'): OpenSpiel side skipped", file=sys.stderr)
    if have_osp:
        steps = check_openspiel_chance_is_uniform()
        print(f"OpenSpiel oh_hell(players=3, num_tricks_fixed=16): {steps} actions per deal incl. chance, chance uniform")
    if args.warmup > 0:
        ours_checked(rules, args.warmup, args.seed + 10**6)
        ours_unchecked(rules, args.warmup, args.seed + 10**6)
        if have_osp:
            openspiel(args.warmup, args.seed + 10**6)
    checked: list[float] = []
    unchecked: list[float] = []
    spiel: list[float] = []
    shares: list[float] = []
    for r in range(args.repeats):
        rate, share = ours_checked(rules, args.seconds, args.seed + 1000 * r)
        checked.append(rate)
        shares.append(share)
        unchecked.append(ours_unchecked(rules, args.seconds, args.seed + 1000 * r))
        if have_osp:
            spiel.append(openspiel(args.seconds, args.seed + r))
        line = f"repeat {r + 1}: ours checked {checked[-1]:,.0f}/s, unchecked {unchecked[-1]:,.0f}/s"
        if have_osp:
            line += f", OpenSpiel {spiel[-1]:,.0f}/s (ratios {checked[-1] / spiel[-1]:.2f}, {unchecked[-1] / spiel[-1]:.2f})"
        print(line, flush=True)
    mc, mu = statistics.median(checked), statistics.median(unchecked)
    print()
    print(f"rules {rules}; {args.repeats} repeats x {args.seconds:g} s per side; medians:")
    print(f"  ours, checked API (legal_actions + apply): {mc:10,.0f} deals/s  ({100 * statistics.median(shares):.0f}% of deals with an exchange)")
    print(f"  ours, unchecked play (play_unchecked):     {mu:10,.0f} deals/s")
    if have_osp:
        ms = statistics.median(spiel)
        print(f"  OpenSpiel oh_hell via pyspiel:              {ms:10,.0f} deals/s")
        print(f"  ratio ours/OpenSpiel: checked {mc / ms:.2f}, unchecked {mu / ms:.2f}")
        rc = statistics.median(c / o for c, o in zip(checked, spiel, strict=True))
        ru = statistics.median(u / o for u, o in zip(unchecked, spiel, strict=True))
        print(f"  median of the per-repeat ratios: checked {rc:.2f}, unchecked {ru:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
