"""The solver on positions that differ only in who holds a few low cards (issue 5).

A transposition table that generalises over cards (relative ranks today; "winning ranks" tried, see
benchmarks/results/solver-history.md) must answer a position only when the cards it ignores cannot change the result.
The hardest cases for that are positions that share a table with a close variant: the same hands except that
two of the lowest cards of a suit changed owners (same suit lengths). Each is solved after the original with
one solver, and every value and every card's value is checked against the brute force of tests/search/test_solver.py.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from test_solver import KINDS, brute_values

from sergeant_major import Rules
from sergeant_major.search import Position, Solver
from sergeant_major.search.position import random_position


def low_swaps(pos: Position) -> list[Position]:
    """The positions that differ from ``pos`` only in who holds two of the three lowest remaining cards of one
    suit, held by different seats (so every suit length stays)."""
    out = []
    for suit in range(4):
        owners = [(r, s) for r in range(13) for s in range(pos.n) if pos.hands[s] >> (13 * suit + r) & 1][:3]
        for i in range(len(owners)):
            for j in range(i + 1, len(owners)):
                (ra, sa), (rb, sb) = owners[i], owners[j]
                if sa == sb:
                    continue
                swap = (1 << (13 * suit + ra)) | (1 << (13 * suit + rb))
                hands = list(pos.hands)
                hands[sa] ^= swap
                hands[sb] ^= swap
                out.append(dataclasses.replace(pos, hands=tuple(hands)))
    return out


def test_low_swaps_keep_the_suit_lengths() -> None:
    pos = Position.parse("9-5-2 | H | 0 | 4-4-2 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    variants = low_swaps(pos)
    assert variants and pos not in variants
    for v in variants:
        for s in range(3):
            for suit in range(4):
                assert bin(v.hands[s] >> (13 * suit) & 0x1FFF).count("1") == bin(pos.hands[s] >> (13 * suit) & 0x1FFF).count("1")
        assert sum(bin(a ^ b).count("1") for a, b in zip(v.hands, pos.hands, strict=True)) == 4  # two cards moved


@pytest.mark.slow
def test_low_card_variants_match_brute_force() -> None:
    """Every contract kind and obligation, endings of 2 to 4 tricks, at a trick start or inside a trick: the
    original first (its results enter the table), then up to six variants, with one solver throughout."""
    rng = random.Random(17)
    solver = Solver(tt_bits=12)
    bad = []
    checked = 0
    for i in range(35):
        rules_t, contract = KINDS[i % len(KINDS)]
        rules = Rules.parse(rules_t)
        pos = random_position(rules, rng, rng.randint(2, 3 if rules.players == 4 else 4), contract=contract,
                              in_trick=rng.randrange(rules.players) if i % 2 else 0)
        seat = rng.randrange(rules.players)
        for p in [pos, *low_swaps(pos)[:6]]:
            v, per = brute_values(p, seat)
            sol = solver.solve(p, seat)
            checked += 1
            if sol.tricks != v or (seat == p.to_move and {c.id: x for c, x in sol.cards.items()} != per):
                bad.append((repr(p), seat, v, sol.tricks))
    assert not bad, bad[:3]
    assert checked > 100
