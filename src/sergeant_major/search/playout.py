"""Play-outs of the remaining tricks from any position: uniform random cards or a cheap greedy policy.

The kernel (:func:`._kernels.playout`) obeys the same obligations as the core engine (must follow;
``must-trump``; ``must-overtrump``, docs/rules.md reference options) for every contract (a trump suit, no-trump,
minimum tricks) and is compiled with Numba when the ``fast`` extra is installed. Its random numbers
come from its own xorshift generator seeded by ``seed``, so a seed gives the same play-outs with or
without numba.
"""

from __future__ import annotations

from sergeant_major.search.jit import int_array, int_list
from sergeant_major.search.kernels import deal_and_play
from sergeant_major.search.kernels import playouts as _playouts
from sergeant_major.search.position import Position, PositionError

__all__ = ["POLICIES", "playouts", "mean_tricks", "random_deal_playouts"]

POLICIES = {"random": 0, "greedy": 1}
"""Play-out policies: ``random`` (each legal card equally likely) and ``greedy`` (win the trick with the
lowest card that beats it, else play the lowest card, non-trumps first; lead the highest card of a
random suit)."""


def _policy(policy: str) -> int:
    try:
        return POLICIES[policy]
    except KeyError:
        raise PositionError(f"unknown play-out policy {policy!r} (one of {', '.join(POLICIES)})") from None


def playouts(pos: Position, count: int, *, seed: int = 0, policy: str = "random") -> list[tuple[int, ...]]:
    """Play the deal out ``count`` times from ``pos``.

    Returns:
        one tuple per play-out: each seat's tricks for the whole deal (taken ones included).

    Raises:
        PositionError: for an unknown ``policy`` or a negative ``count``.
    """
    if count < 0:
        raise PositionError(f"count={count!r} must be >= 0")
    pol = _policy(policy)
    n = pos.n
    hands = int_array(list(pos.hands) + [0] * (4 - n))
    trick = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
    out = int_array(count * n)
    _playouts(hands, n, trick, len(pos.trick), pos.leader, pos.trump, int(pos.rules.must_trump),
              int(pos.rules.must_overtrump), pol, count, seed, out)
    base = pos.tricks
    won = int_list(out)
    return [tuple([b + t for b, t in zip(base, won[i * n:i * n + n], strict=True)]) for i in range(count)]


def mean_tricks(pos: Position, count: int, *, seed: int = 0, policy: str = "random") -> tuple[float, ...]:
    """Each seat's mean tricks (whole deal) over ``count`` play-outs from ``pos``.

    Raises:
        PositionError: for an unknown ``policy`` or ``count < 1``.
    """
    if count < 1:
        raise PositionError(f"count={count!r} must be >= 1")
    res = playouts(pos, count, seed=seed, policy=policy)
    return tuple(sum(r[s] for r in res) / count for s in range(pos.n))


def random_deal_playouts(count: int, *, players: int = 3, tricks: int = 16, trump: int = 0, must_trump: bool = False,
                         must_overtrump: bool = False, policy: str = "random", seed: int = 1) -> int:
    """Benchmark loop: shuffle and deal ``count`` deals of ``players`` hands of ``tricks`` cards and play each out
    from the opening lead. Returns the sum of seat 0's tricks (a checksum).

    Raises:
        PositionError: for an unknown ``policy`` or sizes that do not fit a deck.
    """
    if players not in (3, 4) or not 1 <= tricks <= 52 // players or count < 0:
        raise PositionError(f"players={players}, tricks={tricks}, count={count}: not a deal of a 52-card deck")
    return int(deal_and_play(count, players, tricks, trump, int(must_trump), int(must_overtrump), _policy(policy), seed))
