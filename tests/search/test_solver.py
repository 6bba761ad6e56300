"""The double-dummy solver against a brute-force minimax on random endings (issue 5).

The brute force is independent of the solver: it asks the core engine (``Deal.legal_play_mask``) for the
legal cards, resolves tricks by the rule text, and memoises exact states only (no relative ranks, no
equivalent cards, no bounds). Set SERGEANT_MAJOR_LONG_TESTS=1 for the full run (thousands per contract kind).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import types
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sergeant_major import Contract, Rules
from sergeant_major.core.cards import CARDS
from sergeant_major.core.deal import Deal
from sergeant_major.search import HAVE_NUMBA, Position, PositionError, Solver, SolverTimeout
from sergeant_major.search.jit import _sw_pdep64, _sw_pext64, int_array, jit_nocache, pdep64, pext64
from sergeant_major.search.kernels import (
    BEHIND,
    CHK_SHIFT,
    PEXT6,
    PEXT7,
    behind_table_py,
    behind_tricks,
    drawn_tricks,
    exit_cycles,
    key_hash,
    killer_word,
    kills,
    pos_key,
    quick_tricks,
    run_heads,
    seat_ducks_lead,
    seat_ducks_out,
    seat_ducks_trick,
    seat_exit_losses,
    seat_exits_after,
    seat_loses_out,
    seat_takes_trick,
    seat_wins_out,
    start_bounds,
    sure_winner,
    trump_bounds,
    trumps_reach,
    tt_probe,
    tt_store,
    winner_index,
)
from sergeant_major.search.position import random_position
from sergeant_major.search.solver import KNOBS, equivalent_groups

LONG = bool(os.environ.get("SERGEANT_MAJOR_LONG_TESTS"))

# (rules, contract) per contract kind and obligation
KINDS = [
    ("9-5-2", None),  # a trump suit, must follow only
    ("3-5-8 must-trump=off", Contract.NO_TRUMP),
    ("3-5-8 must-trump=off", Contract.MINIMUM),
    ("3-5-8", Contract.SPADES),  # must-trump=on
    ("8-5-3 must-overtrump=on", None),
    ("8-5-3 must-overtrump=on must-trump=on", None),
    ("9-5-2 players=4", None),
]


def _winner(trick: tuple[tuple[int, int], ...], trump: int) -> int:
    """Seat of the winner: the highest trump, else the highest card of the suit led."""
    led = trick[0][1] // 13
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if c // 13 == trump and (best // 13 != trump or c > best):
            best_seat, best = seat, c
        elif c // 13 == led and best // 13 == led and c > best:
            best_seat, best = seat, c
    return best_seat


def brute_values(pos: Position, seat: int) -> tuple[int, dict[int, int]]:
    """Exact paranoid value for ``seat`` (total tricks) and the value after each legal card of the mover."""
    rules = pos.rules
    n = rules.players
    trump = pos.trump
    mis = pos.misere
    fake = types.SimpleNamespace(rules=rules, trump=trump)
    fake._over_trump = types.MethodType(Deal._over_trump, fake)

    def legal(hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], to: int) -> int:
        fake.hands = list(hands)
        fake.to_play = to
        fake.trick = list(trick)
        fake.led_suit = trick[0][1] // 13 if trick else -1
        return int(Deal.legal_play_mask(fake))  # type: ignore[arg-type]

    @cache
    def value(hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], to: int) -> int:
        """Tricks the seat takes from here (best for it: most, or fewest in minimum tricks)."""
        if hands[to] == 0:
            return 0
        m = legal(hands, trick, to)
        assert m, f"no legal card for seat {to} in {hands} {trick}"
        outs = []
        for c in range(52):
            if m >> c & 1:
                outs.append(child(hands, trick, to, c))
        maxing = (to == seat) != mis
        return max(outs) if maxing else min(outs)

    def child(hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], to: int, c: int) -> int:
        h = list(hands)
        h[to] &= ~(1 << c)
        t = trick + ((to, c),)
        if len(t) == n:
            w = _winner(t, trump)
            return (1 if w == seat else 0) + value(tuple(h), (), w)
        return value(tuple(h), t, (to + 1) % n)

    lead = pos.leader
    trick = tuple(((lead + i) % n, c) for i, c in enumerate(pos.trick))
    v = pos.tricks[seat] + value(pos.hands, trick, pos.to_move)
    per: dict[int, int] = {}
    m = legal(pos.hands, trick, pos.to_move)
    for c in range(52):
        if m >> c & 1:
            per[c] = pos.tricks[seat] + child(pos.hands, trick, pos.to_move, c)
    return v, per


def endings(count: int, seed: int, max_tricks: int = 5) -> list[tuple[Position, int]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rules_t, contract = KINDS[i % len(KINDS)]
        rules = Rules.parse(rules_t)
        left = rng.randint(1, min(max_tricks, 4 if rules.players == 4 else 5))
        pos = random_position(rules, rng, left, contract=contract, in_trick=rng.randrange(rules.players))
        out.append((pos, rng.randrange(rules.players)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_solver_matches_brute_force(chunk: int) -> None:
    count = 3000 if LONG else 60
    solver = Solver(tt_bits=16)
    mism = []
    for pos, seat in endings(count, 1000 + chunk):
        v, per = brute_values(pos, seat)
        sol = solver.solve(pos, seat)
        assert sol.exact
        if sol.tricks != v:
            mism.append((repr(pos), seat, v, sol.tricks))
        if seat == pos.to_move:
            got = {c.id: x for c, x in sol.cards.items()}
            if got != per:
                mism.append((repr(pos), seat, per, got))
    assert not mism, mism[:3]


def brute_mismatches(solver: Solver, count: int, seed: int) -> list[tuple[str, int, int, int]]:
    """``solver.solve`` against the brute force on ``endings(count, seed)``: the value, and each card's when the
    seat is to move; the endings where they differ."""
    mism = []
    for pos, seat in endings(count, seed):
        v, per = brute_values(pos, seat)
        sol = solver.solve(pos, seat)
        if sol.tricks != v or (seat == pos.to_move and {c.id: x for c, x in sol.cards.items()} != per):
            mism.append((repr(pos), seat, v, sol.tricks))
    return mism


def test_enhanced_transposition_cutoffs_are_exact() -> None:
    """ETC (the table looked up for every card that ends a trick before any is searched) normally runs only
    high in the tree; with ``etc_min = 2`` it runs in these small endings too, and must change no value."""
    solver = Solver(tt_bits=16)
    solver.etc_min = 2
    mism = brute_mismatches(solver, 3000 if LONG else 120, 4242)
    assert not mism, mism[:3]
    assert solver.etc_cuts > 0  # the cutoffs did happen


@pytest.mark.slow
def test_probing_is_exact() -> None:
    """Probing (a node's first card searched within a node budget, then the others within a small one, then the
    open cards in full) normally runs only high in the tree with budgets of thousands of nodes; forced into these
    small endings (``probe_min = 1``, budgets of 3 and 1 nodes: nearly every card runs out of budget, is
    searched again, and probes nest), it must change no value."""
    solver = Solver(tt_bits=16)
    solver.probe_min, solver.probe_first, solver.probe_others = 1, 3, 1
    mism = brute_mismatches(solver, 3000 if LONG else 120, 5151)
    assert not mism, mism[:3]
    plain = Solver(tt_bits=16)
    plain.probe_min = 99  # never: the same endings without probing visit other nodes (the knobs do act)
    brute_mismatches(plain, 40, 5151)
    again = Solver(tt_bits=16)
    again.probe_min, again.probe_first, again.probe_others = 1, 3, 1
    brute_mismatches(again, 40, 5151)
    assert again.nodes != plain.nodes


def test_probing_under_a_time_limit_keeps_bounds() -> None:
    """A probe's node budget inside a search's own (a time limit's slice): probing forced everywhere with tiny
    budgets, searches cut short by a clock that jumps at every look still return bounds that hold the exact
    value, and the ones that finish agree with it."""
    rng = random.Random(21)
    cut_short = 0
    for i in range(6):
        rules = Rules.parse("9-5-2" if i % 2 else "3-5-8")
        pos = random_position(rules, rng, 11)
        exact = Solver(tt_bits=16).value(pos, 0)
        for step in (1, 3):
            ticks = iter(range(0, 10**7, step))
            solver = Solver(tt_bits=16, clock=lambda t=ticks: float(next(t)))
            solver.probe_min, solver.probe_first, solver.probe_others = 1, 40, 4
            got = solver.value(pos, 0, time_limit=4.5)
            assert got.lower <= exact.tricks <= got.upper
            cut_short += not got.exact
            if got.exact:
                assert got.tricks == exact.tricks
    assert cut_short >= 3


def test_a_timed_search_goes_on_with_the_test_it_was_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit runs the zero-window tests in node-budget slices; a slice cut short says which test it was
    running (``out[2]``) and the next slice goes on with it, instead of starting again from the first guess
    (which, once the bounds had moved past it, meant bisecting from the far bound: up to five wasted tests
    on a minimum-tricks deal). The value found is the exact one."""
    from sergeant_major.search import solver as solver_module
    from sergeant_major.search.kernels import ST_ABORT

    calls: list[tuple[int, int, bool]] = []  # per slice: the guess given, the test to run next, cut short

    def run(*a: Any) -> None:
        real_run(*a)
        calls.append((int(a[11]), int(a[10][2]), bool(a[8][ST_ABORT])))

    real_run = solver_module._run
    monkeypatch.setattr(solver_module, "_run", run)
    rng = random.Random(8)
    moved = cuts = 0
    for _ in range(3):
        pos = random_position(Rules.parse("3-5-8"), rng, 11, contract=Contract.MINIMUM)
        exact = Solver(tt_bits=16).value(pos, pos.to_move)
        calls.clear()
        # a clock that stands still: no node rate is learnt, so the slices' budgets double from 20,000 nodes
        solver = Solver(tt_bits=16, clock=lambda: 0.0)
        got = solver.value(pos, pos.to_move, time_limit=1000)
        assert got.exact and got.tricks == exact.tricks
        cuts += sum(cut for _, _, cut in calls)
        for (_, nxt, cut), (given, _, _) in zip(calls, calls[1:], strict=False):
            if cut:
                assert given == nxt, calls
                moved += nxt != calls[0][0]
    assert cuts >= 4 and moved >= 1, (cuts, moved)


def test_a_timed_search_cut_short_brackets_the_value_from_both_sides() -> None:
    """Half-way through its time a timed search that has not finished tests the far ends of its window with
    small budgets (``Solver._bracket``): a search cut short then reports bounds on both sides of the value.
    Before, the tests stepping from the first guess used all the time on one side, and a minimum-tricks deal
    cut short showed the seat between its bound and all the tricks left (``analyze``: "6..16"). A clock that
    counts the solver's nodes (ten million a second) makes the run repeatable. Also: the bounds hold the exact
    value, and a search with time enough is exact."""
    pos = random_position(Rules.parse("3-5-8"), random.Random(3), 12, contract=Contract.MINIMUM)
    exact = Solver(tt_bits=18).value(pos, pos.to_move)
    assert exact.nodes > 800_000  # well above the limit below, half a million nodes
    solver = Solver(tt_bits=18)
    solver.clock = lambda: solver.nodes * 1e-7
    got = solver.value(pos, pos.to_move, time_limit=0.05)
    base = pos.tricks[pos.to_move]
    assert not got.exact
    assert base < got.lower <= exact.tricks <= got.upper < base + pos.remaining, (got, exact)
    assert solver.value(pos, pos.to_move, time_limit=10.0).tricks == exact.tricks


def test_probing_knobs_are_checked() -> None:
    """Every integer knob (``KNOBS``) outside 1..2**62 is a ``ValueError`` naming it and quoting the value, raised
    before the search changes anything (2**63 used to escape as numpy's ``OverflowError``)."""
    pos = random_position(Rules.parse("9-5-2"), random.Random(3), 6)
    bads = [("probe_min", 0), ("probe_first", -5), ("probe_others", True), ("probe_first", 2.5),
            ("probe_first", 2**63), ("etc_min", 2**64), ("parallel_min", 0), ("helper_min", "8"), ("etc_min", None)]
    assert {name for name, _ in bads} == set(KNOBS)
    for name, bad in bads:
        solver = Solver(tt_bits=10)
        solver.value(pos, 0)
        nodes = solver.nodes
        setattr(solver, name, bad)
        with pytest.raises(ValueError, match=f"{name}={bad!r}"):
            solver.value(pos, 1)
        assert solver.nodes == nodes  # nothing searched
        setattr(solver, name, 2**62)  # the largest accepted value
        assert solver.value(pos, 1).exact
    np = pytest.importorskip("numpy")
    solver = Solver(tt_bits=10)
    solver.probe_first = np.int64(5_000)  # numpy's ints are counts too
    assert solver.value(pos, 0).exact
    for name in ("guess_shade", "guess_shade_mt"):
        for bad in ("x", -1.0, 0, float("nan"), float("inf"), True):
            setattr(solver, name, bad)
            with pytest.raises(ValueError, match=f"{name}={bad!r}"):
                solver.value(pos, 1)
        setattr(solver, name, 1.0)


def test_clear_keeps_the_knobs() -> None:
    """``Solver.clear()`` empties the table and the counters but keeps the knobs set on the solver."""
    pos = random_position(Rules.parse("9-5-2"), random.Random(4), 7)
    solver = Solver(tt_bits=12)
    solver.probe_min, solver.etc_min, solver.guess_shade, solver.guess_shade_mt, solver.guess = 3, 2, 1.1, 0.7, False
    first = solver.value(pos, 0)
    assert solver.nodes > 0
    solver.clear()
    assert solver.nodes == 0 and solver.tt_hits == 0
    assert (solver.probe_min, solver.etc_min, solver.guess_shade, solver.guess_shade_mt, solver.guess) == \
        (3, 2, 1.1, 0.7, False)
    assert solver.value(pos, 0) == first
    assert solver.nodes > 0  # searched again: the table was emptied


def test_a_twin_has_the_knobs_and_an_empty_table_of_its_own() -> None:
    """``Solver.twin()``: the table size, clock and knobs of the solver, one thread, nothing learnt; the same values."""
    pos = random_position(Rules.parse("9-5-2"), random.Random(5), 7)
    solver = Solver(tt_bits=12, clock=time.process_time, threads=2)
    solver.probe_min, solver.etc_min, solver.guess_shade, solver.guess = 3, 2, 1.1, False
    first = solver.value(pos, 0)
    twin = solver.twin()
    assert (twin.tt_bits, twin.clock, twin.threads, twin.nodes) == (12, time.process_time, 1, 0)
    assert (twin.probe_min, twin.etc_min, twin.guess_shade, twin.guess) == (3, 2, 1.1, False)
    assert twin.value(pos, 0) == first and twin.nodes > 0


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="helper threads run only with numba")
def test_helper_threads_are_exact() -> None:
    """Lazy SMP: a helper thread searches the same tests on the shared table with the cards in another order.
    Forced on in these small endings (``parallel_min = helper_min = 1``: a helper for every search, every node
    reordered) with a small table (2**10 entries, replaced all the time while both threads write it), the
    values still equal the brute force's."""
    solver = Solver(tt_bits=10, threads=2)
    solver.parallel_min = 1
    solver.helper_min = 1
    mism = brute_mismatches(solver, 1500 if LONG else 120, 777)
    assert not mism, mism[:3]
    assert solver.helper_nodes > 0  # the helpers did search


@pytest.mark.skipif(not HAVE_NUMBA, reason="helper threads run only with numba")
@pytest.mark.parametrize("rules_t,contract", KINDS)
def test_helper_threads_agree_on_larger_positions(rules_t: str, contract: Contract | None) -> None:
    """Positions of 9 to 11 tricks (helpers start at ``parallel_min`` = 10 by default; 9 runs alone): two
    threads and one give the same values, with and without a time limit that does not run out."""
    rules = Rules.parse(rules_t)
    rng = random.Random(4040)
    one, two = Solver(tt_bits=18), Solver(tt_bits=18, threads=2)
    for left in (9, 10, 11, 10):
        pos = random_position(rules, rng, left, contract=contract, in_trick=rng.randrange(rules.players))
        seat = rng.randrange(rules.players)
        a = one.value(pos, seat)
        b = two.value(pos, seat, time_limit=600)
        assert (a.tricks, a.exact) == (b.tricks, b.exact), repr(pos)
    assert two.helper_nodes > 0


@pytest.mark.skipif(not HAVE_NUMBA, reason="helper threads run only with numba")
def test_threads_added_during_a_search_join_it_and_keep_the_values() -> None:
    """``set_threads`` from another thread while a search runs starts its helper at once, on the running slice
    (a late helper runs the same tests from the slice's start on the table the main thread has filled): the
    values stay those of one thread, timed or not, and the helper searches; a bad count is refused, quoted."""
    rules = Rules.parse("9-5-2")
    rng = random.Random(3636)
    one = Solver(tt_bits=18)
    joined = 0
    for k in range(8):
        pos = random_position(rules, rng, 12 + k % 3, contract=None)
        seat = rng.randrange(rules.players)
        want = one.value(pos, seat)
        late = Solver(tt_bits=18)
        late.helper_min = 1  # every node reordered: the helper takes other paths than the main thread
        timer = threading.Timer(0.002 * (k % 4), late.set_threads, args=(2,))
        timer.start()
        got = late.value(pos, seat, time_limit=600 if k % 2 else None)
        timer.join()
        assert (got.tricks, got.exact) == (want.tricks, want.exact), repr(pos)
        joined += late.helper_nodes > 0
        late.set_threads(1)
        assert late.value(pos, seat).tricks == want.tricks
    assert joined > 0
    with pytest.raises(ValueError, match="threads=0"):
        Solver().set_threads(0)


_INTERRUPT_SCRIPT = r"""
import os, random, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal, even when started in the background
from sergeant_major import Rules
from sergeant_major.search import Solver
from sergeant_major.search.position import random_position
rng = random.Random(2042)
deals = [random_position(Rules.parse("9-5-2"), rng, 16) for _ in range(14)]
hard, easy = deals[13], deals[1]  # about 5 s of search, and 0.4 s (value 5)
s = Solver(threads=int(sys.argv[1]))
s.value(easy, easy.to_move)  # compiled, and its value in the table
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t = time.perf_counter()
try:
    s.value(hard, hard.to_move)
    print("not interrupted")
except KeyboardInterrupt:
    print(round(time.perf_counter() - t, 3))
print(s.value(easy, easy.to_move).tricks, s.value(deals[3], deals[3].to_move).tricks)
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="long searches run in a thread of their own only with numba")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_search_at_once(threads: int) -> None:
    """A long compiled search runs in a thread while the caller waits in short joins: SIGINT (Ctrl-C) raises
    KeyboardInterrupt at once, not when the search ends (seconds later), and the solver is right afterwards."""
    out = subprocess.run([sys.executable, "-c", _INTERRUPT_SCRIPT, str(threads)], capture_output=True, text=True,
                         timeout=300, check=True).stdout.split("\n")
    assert out[0] != "not interrupted" and float(out[0]) < 1.5, out
    assert out[1] == "5 6", out


def test_torn_table_entry_matches_no_key() -> None:
    """Two threads may write one entry at once, word by word. An entry mixed from the stores of two different
    positions - even with the same bounds - must match neither of them nor the position its mixed key words
    name (else that position would get another one's bounds); one mixed from two stores of the same position
    holds bounds valid for it."""
    a = (5 << 52 | 12345, 7 << 56 | 999, 3 << 52 | 42)
    b = (5 << 52 | 12346, 7 << 56 | 998, 3 << 52 | 43)

    def chk(k: tuple[int, int, int]) -> int:
        return int(key_hash(*k)) >> CHK_SHIFT

    def entry(k: tuple[int, int, int], target: int, result: bool) -> list[int]:
        tt = int_array(4 * 8)
        tt_store(tt, 1, *k, chk(k), target, 9, result, 0)
        return [int(x) for x in tt[8:12]]

    ea, eb = entry(a, 4, True), entry(b, 4, True)  # the same bounds word: lower bound 4 of 9 tricks
    assert ea[3] & 0xFFFF == eb[3] & 0xFFFF and chk(a) != chk(b)
    tt = int_array(4 * 8)
    tt[8:12] = int_array(ea)
    assert tt_probe(tt, 1, *a, chk(a)) == 4 | (9 << 8)
    for mask in range(1, 15):  # word i from b when bit i is set; 0 and 15 are the whole entries
        torn = [eb[i] if mask >> i & 1 else ea[i] for i in range(4)]
        tt[8:12] = int_array(torn)
        mixed = (torn[0], torn[1], torn[2])
        for k in (a, b, mixed):
            assert tt_probe(tt, 1, *k, chk(k)) == -1, (mask, k)
    # the same position stored twice (lower bound 4, then also upper bound 6): any mix holds valid bounds
    e1 = entry(a, 4, True)
    t2 = int_array(4 * 8)
    t2[8:12] = int_array(e1)
    tt_store(t2, 1, *a, chk(a), 7, 9, False, 0)
    e2 = [int(x) for x in t2[8:12]]
    for mask in range(16):
        t2[8:12] = int_array([e2[i] if mask >> i & 1 else e1[i] for i in range(4)])
        assert tt_probe(t2, 1, *a, chk(a)) in (4 | (9 << 8), 4 | (6 << 8))
    with pytest.raises(ValueError, match="threads=0"):
        Solver(threads=0)


def test_table_keeps_the_position_with_more_cards_in_a_full_bucket() -> None:
    """In a search, a new position with fewer cards in play than the bucket's first entry takes the second slot, so
    an entry of a big subtree is not pushed out by small ones; one with as many cards or more goes first and moves
    the first entry second (the old second is dropped). An entry of an earlier search (generation) gives way as an
    empty slot would, so that each search fills the table as a fresh one."""
    def key(cards: int, low: int) -> tuple[int, int, int]:  # suit lengths: k1 holds suits 0 and 1, k2 suits 2 and 3
        a, b = min(cards, 13), max(cards - 13, 0)
        return (5 << 52 | low, a << 52 | 999, b << 52)

    def chk(k: tuple[int, int, int]) -> int:
        return int(key_hash(*k)) >> CHK_SHIFT

    def store(k: tuple[int, int, int], target: int, left: int, result: bool, gen: int) -> None:
        tt_store(tt, 1, *k, chk(k), target, left, result, gen)

    def probe(k: tuple[int, int, int]) -> int:
        return int(tt_probe(tt, 1, *k, chk(k)))

    deep, small1, small2, big = key(24, 1), key(12, 2), key(12, 3), key(27, 4)
    tt = int_array(4 * 8)
    store(deep, 3, 8, True, 7)
    store(small1, 1, 4, True, 7)
    store(small2, 1, 4, False, 7)
    assert probe(deep) == 3 | (8 << 8)
    assert probe(small1) == -1  # the second slot is the one replaced
    assert probe(small2) == 0 | (0 << 8)
    store(big, 2, 9, False, 7)
    assert probe(big) == 0 | (1 << 8) and probe(deep) == 3 | (8 << 8) and probe(small2) == -1
    store(small1, 1, 4, True, 8)  # the next search: the entries of the last one give way
    assert probe(small1) == 1 | (4 << 8) and probe(big) == 0 | (1 << 8) and probe(deep) == -1
    store(deep, 3, 8, True, 8)
    assert probe(deep) == 3 | (8 << 8) and probe(small1) == 1 | (4 << 8) and probe(big) == -1


def test_table_key_matches_a_plain_renumbering() -> None:
    """``pos_key`` (table look-ups that pack each hand's cards among the remaining ones, suit after suit)
    against a loop that renumbers the cards and packs them one by one, for three and four players; two
    positions get the same key exactly when their hands are equal in relative ranks."""
    assert len(PEXT7) == 1 << 14 and len(PEXT6) == 1 << 12
    rng = random.Random(9)
    seen: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, ...], ...]]] = {}
    for _ in range(600):
        n = rng.choice((3, 4))
        deck = rng.sample(range(52), rng.randint(0, 52 if n == 4 else rng.choice((6, 51))))
        hands = [0, 0, 0, 0]
        for c in deck:
            hands[rng.randrange(n)] |= 1 << c
        leader = rng.randrange(n)
        cfg = rng.randrange(256) << 54
        want = [0, 0, 0]
        pos = 0
        rel: list[tuple[int, ...]] = []
        for suit in range(4):
            owners = [s for r in range(13) for s in range(n) if hands[s] >> (13 * suit + r) & 1]
            rel.append(tuple(owners))
            for k, s in enumerate(owners):
                if s < n - 1:
                    want[s] |= 1 << (pos + k)
            pos += len(owners)
        want[0] |= leader << 52 | cfg
        want[1] |= len(rel[0]) << 52 | len(rel[1]) << 56
        want[2] |= len(rel[2]) << 52 | len(rel[3]) << 56
        key = tuple(pos_key(int_array(hands), n, leader, cfg))
        assert key == tuple(want)
        assert all(0 <= k < 1 << 62 for k in key)
        ident = (n, tuple(rel))
        assert seen.setdefault(key, (leader, ident))[1] == ident  # type: ignore[comparison-overlap]
        # moving the highest card up to an absent higher rank of its suit keeps the key (absent ranks do not count)
        if deck:
            gap = [c for c in range(52) if not any(h >> c & 1 for h in hands)]
            if gap:
                c = max(deck)
                g = [x for x in gap if x // 13 == c // 13 and x > c]
                if g:
                    moved = list(hands)
                    for s in range(n):
                        if moved[s] >> c & 1:
                            moved[s] = moved[s] & ~(1 << c) | 1 << g[0]
                    assert tuple(pos_key(int_array(moved), n, leader, cfg)) == key


@pytest.mark.slow
def test_can_reach_matches_brute_force() -> None:
    solver = Solver(tt_bits=16)
    for pos, seat in endings(150 if not LONG else 1500, 77):
        v, _ = brute_values(pos, seat)
        for t in range(pos.tricks[seat], pos.tricks[seat] + pos.remaining + 1):
            want = (v <= t) if pos.misere else (v >= t)
            assert solver.can_reach(pos, seat, t) == want, (repr(pos), seat, t, v)


def test_kills_is_a_maximum_matching() -> None:
    """``kills(x, y)``: how many cards of ``y`` the cards of ``x`` beat, one each (bit r = rank r)."""
    assert kills(0b0111, 0b1000) == 0  # every x card is below the y card
    assert kills(0b1000, 0b0111) == 1  # one x card beats one card
    assert kills(0b1010, 0b0101) == 2
    assert kills(0b0101, 0b1010) == 1  # only x's rank 2 beats something (y's rank 1)
    assert kills(0, 0b1111) == 0 and kills(0b1111, 0) == 0
    # against brute force: the largest set of disjoint pairs (x card above y card)
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(range(13), rng.randint(0, 10))
        cut = rng.randint(0, len(cards))
        x = sum(1 << r for r in cards[:cut])
        y = sum(1 << r for r in cards[cut:])
        xs, ys = sorted(cards[:cut]), sorted(cards[cut:])
        best, j = 0, 0  # greedy from the low end: each x card takes the lowest y card below it still free
        for c in xs:
            if j < len(ys) and ys[j] < c:
                best += 1
                j += 1
        assert kills(x, y) == best, (xs, ys)


def test_bit_compress_and_run_heads_match_their_definitions() -> None:
    """``pext64``/``pdep64`` (BMI2 instructions where the CPU runs them fast, loops elsewhere) against the
    loops that define them, and ``run_heads`` (one card per run of equivalent cards) against a scan that looks
    at each legal card's next card up in play."""
    def both(x: int, m: int) -> tuple[int, int]:
        return pext64(x, m), pdep64(x, m)

    compiled = jit_nocache(both)  # the intrinsics run only inside compiled code
    rng = random.Random(11)
    for _ in range(2000):
        x = rng.getrandbits(52)
        m = rng.getrandbits(52) & rng.getrandbits(52)
        packed, spread = compiled(x, m)
        assert (packed, spread) == (_sw_pext64(x, m), _sw_pdep64(x, m))
        assert compiled(packed, m)[1] == x & m
        pv = rng.getrandbits(13)
        lv = pv & rng.getrandbits(13)
        ranks = [r for r in range(13) if pv >> r & 1]
        want = 0
        for k, r in enumerate(ranks):
            if lv >> r & 1 and (k + 1 == len(ranks) or not lv >> ranks[k + 1] & 1):
                want |= 1 << r
        assert run_heads(lv, pv) == want, (bin(lv), bin(pv))


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "3-5-8", "8-5-3 must-overtrump=on", "9-5-2 players=4", "3-5-8 must-trump=off"])
def test_trick_start_bounds_hold(rules_t: str) -> None:
    """The bounds that cut the search at a trick start never contradict the brute-force value: the trump
    counts (each side's trumps minus those the other side can beat one each) and, added to them, the
    leader's quick tricks in the side suits."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 1000)
    checked = 0
    for _ in range(40 if not LONG else 400):
        left = rng.randint(2, 4 if rules.players == 4 else 5)
        pos = random_position(rules, rng, left)
        if pos.misere:
            continue
        seat = rng.randrange(rules.players)
        v = brute_values(pos, seat)[0] - pos.tricks[seat]  # tricks to come
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        sure, lost, _ = trump_bounds(hands, pos.n, seat, pos.trump) if pos.trump >= 0 else (0, 0, 0)
        qt = quick_tricks(hands, pos.n, pos.leader, pos.trump)
        assert sure <= v <= pos.remaining - lost, (repr(pos), seat, v, sure, lost)
        if pos.leader == seat:
            assert sure + qt <= v, (repr(pos), seat, v, sure, qt)
            if pos.trump >= 0:
                drawn = drawn_tricks(hands, pos.n, seat, pos.trump)  # -1: the trumps cannot be drawn
                assert drawn <= v, (repr(pos), seat, v, drawn)
        else:
            assert v <= pos.remaining - lost - qt, (repr(pos), seat, v, lost, qt)
        checked += 1
    assert checked >= 20


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "3-5-8", "8-5-3 must-overtrump=on", "9-5-2 players=4", "3-5-8 must-trump=off"])
def test_start_bounds_match_the_separate_counts(rules_t: str) -> None:
    """``start_bounds``, the search's trick-start test (the counts computed only as far as needed), decides
    exactly as the separate counts in their order: the trump count (or the trumps behind the only other trumps,
    without must-trump and must-overtrump, when more) plus the quick tricks or the drawn trumps on
    lead; the third count (the seat's trumps over the others' with its masters, whoever leads), and the leader's
    quick tricks with the others' trump count when another player leads - for every seat and every target."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 983)
    decided = 0
    for _ in range(150):
        pos = random_position(rules, rng, rng.randint(2, min(rules.tricks, 10)))
        if pos.misere:
            continue
        n, trump = pos.n, pos.trump
        hands = int_array(list(pos.hands) + [0] * (4 - n))
        obliged = int(rules.must_trump or rules.must_overtrump)
        for seat in range(n):
            tb1, tb2, tbx = trump_bounds(hands, n, seat, trump) if trump >= 0 else (0, 0, 0)
            if trump >= 0 and not obliged:  # the seat's trumps behind every other trump, when that counts more
                mt = (pos.hands[seat] >> (13 * trump)) & 0x1FFF
                ot = 0
                for o in range(n):
                    if o != seat:
                        ot |= (pos.hands[o] >> (13 * trump)) & 0x1FFF
                if mt and ot:
                    tb1 = max(tb1, behind_tricks(hands, n, seat, trump, mt, ot))
                    tbx = max(tbx, tb1)
            for target in range(1, pos.remaining + 1):
                want = -1
                if pos.leader == seat:
                    if tb1 + quick_tricks(hands, n, seat, trump) >= target or \
                            (trump >= 0 and drawn_tricks(hands, n, seat, trump) >= target) or tbx >= target:
                        want = 1
                    elif pos.remaining - tb2 < target:
                        want = 0
                elif tbx >= target:
                    want = 1
                elif pos.remaining - tb2 - quick_tricks(hands, n, pos.leader, trump) < target:
                    want = 0
                got = start_bounds(hands, n, pos.leader, seat, trump, pos.remaining, target, obliged)
                assert got == want, (repr(pos), seat, target, got, want)
                decided += want >= 0
    assert decided >= 100


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "8-5-3 must-overtrump=on",
                                     "9-5-2 players=4", "3-5-8", "3-5-8 must-trump=off"])
def test_seat_takes_trick_holds(rules_t: str) -> None:
    """``seat_takes_trick``, which decides a node in the middle of a trick the seat has not played to yet: where
    it says the seat makes ``t`` more tricks (it holds a card that beats whatever the others still to play can
    play, and then its sure tricks on lead make ``t - 1``), the brute force agrees - for every ``t``, the seat
    playing next, after another player or last, in trump and no-trump contracts and every obligation. It must also
    say so often, both for ``t = 1`` (taking the trick is enough) and for larger ``t`` (the sure tricks after
    it), or the check proves nothing."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 997)
    fired_one = fired_more = 0
    for _ in range(500 if not LONG else 5000):
        left = rng.randint(2, 4 if rules.players == 4 else 5)
        pos = random_position(rules, rng, left, in_trick=rng.randint(1, rules.players - 1))
        if pos.misere:
            continue
        n, tlen = pos.n, len(pos.trick)
        seat = (pos.leader + rng.randrange(tlen, n)) % n  # a seat that has not played to this trick
        sp = (seat - pos.leader) % n
        if pos.rules.must_overtrump and sp != tlen:
            continue  # the search asks only for the seat to move then
        hands = int_array(list(pos.hands) + [0] * (4 - n))
        tk = int_array(list(pos.trick) + [0] * (4 - tlen))
        says = [t for t in range(1, pos.remaining + 1)
                if seat_takes_trick(hands, n, tk, 0, tlen, pos.leader, seat, pos.trump, int(pos.rules.must_trump),
                                    int(pos.rules.must_overtrump), t)]
        assert list(hands[:n]) == list(pos.hands)  # left as it was
        if not says:
            continue
        v = brute_values(pos, seat)[0] - pos.tricks[seat]  # tricks to come, this one included
        assert max(says) <= v, (repr(pos), seat, says, v)
        fired_one += 1
        fired_more += max(says) >= 2
    assert fired_one >= 40 and fired_more >= 10, (fired_one, fired_more)


def _wins_whatever_follows(pos: Position, seat: int, taken: int) -> bool:
    """Does ``seat`` (having played to the trick in progress of ``pos``, ``taken`` tricks before it) win that trick
    whatever legal cards the players after it play?"""
    if not pos.trick:
        return pos.tricks[seat] > taken
    return all(_wins_whatever_follows(pos.play_unchecked(c.id), seat, taken) for c in pos.legal_cards())


def _kernel_hands_and_winner(pos: Position) -> tuple[Any, int]:
    """The kernels' hands array of ``pos`` (four hands) and the card winning its trick in progress so far."""
    hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
    tk = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
    return hands, int(tk[winner_index(tk, len(pos.trick), pos.trump)])


@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "9-5-2 players=4", "3-5-8"])
def test_sure_winner_is_the_cheapest_card_that_surely_takes_the_trick(rules_t: str) -> None:
    """``sure_winner``, the card the seat tries first in the middle of a trick with players after it: a legal card
    that takes the trick whatever those players play, of the suit led when one such is, and in the run of
    equivalent cards of the lowest such card of its suit (the run's head, as the move list names it). With
    must-follow only it finds one whenever the seat holds one. It must find one often, or this proves nothing."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 991)
    found = 0
    for _ in range(400):
        pos = random_position(rules, rng, rng.randint(2, 5), in_trick=rng.randint(1, rules.players - 2))
        if pos.misere:
            continue
        n, tlen, seat = pos.n, len(pos.trick), pos.to_move
        hands, bc = _kernel_hands_and_winner(pos)
        kc = int(sure_winner(hands, n, tlen, pos.leader, seat, pos.trump, int(pos.rules.must_trump),
                             int(pos.rules.must_overtrump), pos.trick[0] // 13, bc))
        sure = [c.id for c in pos.legal_cards()
                if _wins_whatever_follows(pos.play_unchecked(c.id), seat, pos.tricks[seat])]
        plain = [c for c in sure if c // 13 == pos.trick[0] // 13 and c // 13 != pos.trump]
        want = min(plain) if plain else min(sure, default=-1)
        if kc < 0:
            if not pos.rules.must_trump and not pos.rules.must_overtrump:
                assert want < 0, (repr(pos), want)
            continue
        found += 1
        assert kc in sure and kc // 13 == want // 13 and kc >= want, (repr(pos), kc, want)
        present = 0
        for h in pos.hands:
            present |= h
        between = present & ~pos.hands[seat] & (((1 << kc) - 1) ^ ((2 << want) - 1))
        assert between == 0, (repr(pos), kc, want)  # kc heads the run of want
    assert found >= 60, found


def _loses_whatever_follows(pos: Position, seat: int, taken: int) -> bool:
    """Does ``seat`` (``taken`` tricks before the trick in progress of ``pos``) lose that trick whatever legal cards
    the players still to play to it play?"""
    if not pos.trick:
        return pos.tricks[seat] == taken
    return all(_loses_whatever_follows(pos.play_unchecked(c.id), seat, taken) for c in pos.legal_cards())


@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "9-5-2 players=4"])
def test_sure_winner_against_the_seat_alone(rules_t: str) -> None:
    """``sure_winner`` for an opponent of the seat with the seat still to play after it (``threats`` the seat
    alone), the card an opponent tries first when the seat could beat the trick's winner so far: a legal card after
    which the seat loses the trick whatever is played (the opponent's partners may still take it). It must find
    one often, or this proves nothing."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 983)
    found = 0
    for _ in range(400):
        pos = random_position(rules, rng, rng.randint(2, 5), in_trick=rng.randint(1, rules.players - 2))
        if pos.misere:
            continue
        n, tlen, mover = pos.n, len(pos.trick), pos.to_move
        seat = (pos.leader + rng.randrange(tlen + 1, n)) % n  # a seat that plays after the mover
        hands, bc = _kernel_hands_and_winner(pos)
        kc = int(sure_winner(hands, n, tlen, pos.leader, mover, pos.trump, int(pos.rules.must_trump),
                             int(pos.rules.must_overtrump), pos.trick[0] // 13, bc, 1 << seat))
        if kc < 0:
            continue
        found += 1
        assert kc in [c.id for c in pos.legal_cards()], (repr(pos), kc)
        assert _loses_whatever_follows(pos.play_unchecked(kc), seat, pos.tricks[seat]), (repr(pos), seat, kc)
    assert found >= 60, found


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "8-5-3 must-overtrump=on",
                                     "9-5-2 players=4", "3-5-8"])
def test_trumps_reach_holds(rules_t: str) -> None:
    """``trumps_reach``, which decides a node in the middle of a trick by the seat's trump counts: where it says the
    seat makes ``t`` more tricks (this one included), the brute force agrees - for every ``t``, the seat having played
    to the trick or still to play (then as the player to move under must-overtrump, as the search asks). It must
    say so often for both, or the check proves nothing."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 953)
    fired = [0, 0]
    for _ in range(500 if not LONG else 5000):
        left = rng.randint(2, 4 if rules.players == 4 else 5)
        pos = random_position(rules, rng, left, in_trick=rng.randint(1, rules.players - 1))
        if pos.misere or pos.trump < 0:
            continue
        n, tlen = pos.n, len(pos.trick)
        seat = (pos.leader + rng.randrange(n)) % n
        played = (seat - pos.leader) % n < tlen
        if not played and pos.rules.must_overtrump and (seat - pos.leader) % n != tlen:
            continue  # the search asks only for the seat to move then
        hands = int_array(list(pos.hands) + [0] * (4 - n))
        tk = int_array(list(pos.trick) + [0] * (4 - tlen))
        bc = tk[winner_index(tk, tlen, pos.trump)]
        says = [t for t in range(1, pos.remaining + 1)
                if trumps_reach(hands, n, seat, pos.trump, t, int(pos.rules.must_trump), int(pos.rules.must_overtrump),
                                pos.trick[0] // 13, bc, played)]
        assert list(hands[:n]) == list(pos.hands)  # left as it was
        if not says:
            continue
        v = brute_values(pos, seat)[0] - pos.tricks[seat]  # tricks to come, this one included
        assert max(says) <= v, (repr(pos), seat, played, says, v)
        fired[played] += 1
    assert min(fired) >= 20, fired


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["3-5-8 must-trump=off", "3-5-8", "9-5-2 players=4 contracts=suits-nt-mt"])
def test_seat_ducks_trick_holds(rules_t: str) -> None:
    """``seat_ducks_trick``, which decides a minimum-tricks node in the middle of a trick the seat has not played
    to yet when the seat needs the others to take one more trick: where it says the seat can play under the
    trick's winner, the seat's best result (the fewest tricks it can hold itself to, brute force) leaves it at
    least one trick fewer than the tricks left; where the seat holds only cards that beat the winner, the check
    must say no (found at least once, or the check would prove nothing)."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 991)
    said = refused = 0
    for _ in range(400 if not LONG else 4000):
        left = rng.randint(1, 4 if rules.players == 4 else 5)
        pos = random_position(rules, rng, left, contract=Contract.MINIMUM, in_trick=rng.randint(1, rules.players - 1))
        assert pos.misere
        n, tlen = pos.n, len(pos.trick)
        seat = (pos.leader + rng.randrange(tlen, n)) % n
        if pos.rules.must_overtrump and (seat - pos.leader) % n != tlen:
            continue
        hands = int_array(list(pos.hands) + [0] * (4 - n))
        tk = int_array(list(pos.trick) + [0] * (4 - tlen))
        if seat_ducks_trick(hands, n, tk, 0, tlen, seat, pos.trump, int(pos.rules.must_trump),
                            int(pos.rules.must_overtrump)):
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]  # the seat's tricks to come, at best
            assert fewest <= pos.remaining - 1, (repr(pos), seat, fewest)
            said += 1
        else:
            refused += 1
    assert said >= 40 and refused >= 1, (said, refused)


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["3-5-8 must-trump=off", "3-5-8", "9-5-2 players=4 contracts=suits-nt-mt"])
def test_seat_ducks_lead_holds(rules_t: str) -> None:
    """``seat_ducks_lead``, which decides a minimum-tricks trick start when the seat needs the others to take
    one more trick: where it says the seat surely loses this trick (on lead or not), the seat's best result
    (brute force) leaves it at least one trick fewer than the tricks left. It must say so often, and say no
    sometimes, both on lead and not."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 983)
    said = [0, 0]
    refused = [0, 0]
    for _ in range(400 if not LONG else 4000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5), contract=Contract.MINIMUM)
        assert pos.misere and pos.trump < 0
        seat = rng.randrange(pos.n)
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        on_lead = int(seat == pos.leader)
        if seat_ducks_lead(hands, pos.n, pos.leader, seat):
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert fewest <= pos.remaining - 1, (repr(pos), seat, fewest)
            said[on_lead] += 1
        else:
            refused[on_lead] += 1
    assert min(said) >= 10 and min(refused) >= 1, (said, refused)


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["3-5-8", "3-5-8 players=4 deals=24", "9-5-2 contracts=suits-nt-mt"])
def test_seat_wins_or_loses_out_holds(rules_t: str) -> None:
    """``seat_loses_out`` and ``seat_wins_out``, which decide a minimum-tricks trick start whatever the target:
    where the first says the seat surely loses every trick left, its fewest tricks (brute force) are none; where
    the second says the seat on lead wins them all, its fewest are all the tricks left. Each must say so often,
    on lead and not, and refuse sometimes."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 991)
    loses = [0, 0]
    wins = 0
    refused = [0, 0]
    for _ in range(600 if not LONG else 6000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5), contract=Contract.MINIMUM)
        assert pos.misere and pos.trump < 0
        seat = rng.randrange(pos.n)
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        on_lead = int(seat == pos.leader)
        said_loses = bool(seat_loses_out(hands, pos.n, pos.leader, seat))
        said_wins = bool(on_lead and seat_wins_out(hands, pos.n, seat))
        assert not (said_loses and said_wins), (repr(pos), seat)
        if said_loses or said_wins:
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert fewest == (pos.remaining if said_wins else 0), (repr(pos), seat, said_wins, fewest)
            loses[on_lead] += said_loses
            wins += said_wins
        else:
            refused[on_lead] += 1
    assert min(loses) >= 10 and wins >= 10 and min(refused) >= 10, (loses, wins, refused)



@pytest.mark.parametrize("rules_t", ["3-5-8", "3-5-8 players=4 deals=24", "9-5-2 contracts=suits-nt-mt"])
def test_exit_losses_hold(rules_t: str) -> None:
    """``seat_exit_losses``, which decides a minimum-tricks trick start where the seat's exits lose the tricks
    asked: where it says the seat surely loses ``k`` of the tricks left, the fewest tricks the seat can hold itself
    to (brute force) leave at least ``k`` to the others, on lead and not. It must say so often, and 2 or more
    sometimes (with three players; four hands of at most 4 cards seldom allow 2)."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 983)
    said = [0, 0]
    two = 0
    for _ in range(200 if not LONG else 4000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5), contract=Contract.MINIMUM)
        assert pos.misere and pos.trump < 0
        seat = rng.randrange(pos.n)
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        k = int(seat_exit_losses(hands, pos.n, pos.leader, seat, pos.remaining))
        assert 0 <= k <= pos.remaining
        if k:
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert pos.remaining - fewest >= k, (repr(pos), seat, k, fewest)
            said[int(seat == pos.leader)] += 1
            two += k >= 2
    assert min(said) >= 10 and two >= (rules.players == 3), (said, two)


@pytest.mark.parametrize("rules_t", ["3-5-8", "3-5-8 players=4 deals=24", "9-5-2 contracts=suits-nt-mt"])
def test_exits_after_a_lost_trick_hold(rules_t: str) -> None:
    """``seat_exits_after``, which decides a minimum-tricks node in the middle of a trick the seat surely loses (it
    has played and another card wins, or it can play under the winning card) where its exits after it lose the
    tricks asked: where it says the others take ``k`` of the tricks left (this one included), the fewest tricks the
    seat can hold itself to (brute force) leave them at least ``k``, the seat to play and not. It must say so
    often, 2 or more sometimes, and leave the hands as they were."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 977)
    said = [0, 0]
    two = 0
    for _ in range(300 if not LONG else 5000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5), contract=Contract.MINIMUM,
                              in_trick=rng.randrange(1, rules.players))
        if not pos.trick:
            continue
        assert pos.misere and pos.trump < 0
        seat = rng.randrange(pos.n)
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        tk = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
        wi = int(winner_index(tk, len(pos.trick), -1))
        k = int(seat_exits_after(hands, pos.n, len(pos.trick), pos.leader, seat, pos.trick[0] // 13,
                                 pos.trick[wi], (pos.leader + wi) % pos.n, pos.remaining - 1))
        assert 0 <= k <= pos.remaining
        assert [int(h) for h in hands[:pos.n]] == list(pos.hands)
        if k:
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert pos.remaining - fewest >= k, (repr(pos), seat, k, fewest)
            to_play = (seat - pos.leader) % pos.n >= len(pos.trick)
            said[int(to_play)] += 1
            two += k >= 2
    assert min(said) >= 10 and two >= 5, (said, two)


def test_exit_losses_count_the_cycles() -> None:
    """Seat 0 holds the 2 and 3 of spades under seat 1's five spades: each time the others make it win a trick,
    it leads a low spade and seat 1 must take it, so it loses at least two of the five tricks when another player
    leads, and when it leads itself (one exit at once, one more cycle of the four tricks left); with its 3 of
    spades gone, one exit and so one trick fewer. The brute force agrees."""
    pos = Position.parse("3-5-8 | MT | 1 | 4-4-3 | 32.AK.A. / AKQJT... / 9854.Q.. | -")
    hands = int_array(list(pos.hands) + [0])
    assert seat_exit_losses(hands, 3, 1, 0, 5) == 2
    assert seat_exit_losses(hands, 3, 0, 0, 5) == 2
    assert exit_cycles(hands, 3, 0, 0, 5) == 2
    assert exit_cycles(hands, 3, 0, 1, 4) == 1
    assert pos.remaining - (brute_values(pos, 0)[0] - pos.tricks[0]) >= 2
    fewer = Position.parse("3-5-8 | MT | 1 | 4-4-3 | 2.AK.AK. / AKQJT... / 9854.Q.. | -")
    assert seat_exit_losses(int_array(list(fewer.hands) + [0]), 3, 1, 0, 5) == 1

@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["3-5-8", "3-5-8 players=4 deals=24", "9-5-2 contracts=suits-nt-mt"])
def test_seat_ducks_out_holds(rules_t: str) -> None:
    """``seat_ducks_out``, which decides a minimum-tricks node in the middle of a trick whatever the target:
    where it says the seat, still to play to the trick, surely loses it and every trick after, its fewest tricks
    (brute force) are none. It must say so often and refuse sometimes, and leave the hands as they were."""
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 997)
    said = refused = 0
    for _ in range(500 if not LONG else 5000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5), contract=Contract.MINIMUM,
                              in_trick=rng.randrange(1, rules.players))
        if not pos.trick:
            continue
        seat = (pos.to_move + rng.randrange(pos.n - len(pos.trick))) % pos.n  # a seat still to play
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        tk = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
        if seat_ducks_out(hands, pos.n, tk, 0, len(pos.trick), seat):
            fewest = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert fewest == 0, (repr(pos), seat, fewest)
            said += 1
        else:
            refused += 1
        assert [int(h) for h in hands[:pos.n]] == list(pos.hands)
    assert said >= 20 and refused >= 20, (said, refused)


def test_seat_loses_out_on_lead_needs_the_order_after_its_lead() -> None:
    """On lead, the seat's suits all in order (its i-th lowest card below the others' i-th lowest) do not make it
    lose every trick: here seat 0 leads the 2 of spades and seat 1 must take it, but with the 9 - keeping its
    3 to lead later under the seat's 4 and 5, so that the seat must win a trick. ``seat_loses_out`` refuses
    this position (its second-lowest spade is above the others' lowest), and the brute force finds the trick."""
    pos = Position.parse("3-5-8 | MT | 0 | 5-1-5 | QJ542... / AK93.6.. / ...KQT74 | -")
    hands = int_array(list(pos.hands) + [0])
    assert not seat_loses_out(hands, 3, pos.leader, 0)
    assert brute_values(pos, 0)[0] - pos.tricks[0] == 1
    # seat 1 on lead instead: the seat follows under every card led, so it loses them all
    other = Position.parse("3-5-8 | MT | 1 | 5-1-5 | QJ542... / AK93.6.. / ...KQT74 | -")
    assert seat_loses_out(hands, 3, other.leader, 0)
    assert brute_values(other, 0)[0] - other.tricks[0] == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "9-5-2 players=4", "3-5-8"])
def test_untrumpable_seat_bound_holds_when_another_leads(rules_t: str) -> None:
    """When nobody else holds a trump, a seat holding one makes its trumps and its top side cards even with another
    player on lead (``trump_bounds``' third count is that count then) - checked against the brute force where it
    applies. Without that condition the same count is not a bound (the others ruff or make it discard): the check
    finds such endings too, so the condition is needed."""
    rules = Rules.parse(rules_t)
    rng = random.Random(57)
    checked = 0
    unsound_elsewhere = 0
    for _ in range(1500 if not LONG else 15000):
        pos = random_position(rules, rng, rng.randint(2, 3 if rules.players == 4 else 4 if not LONG else 5))
        if pos.misere or pos.trump < 0:
            continue
        seat = (pos.leader + rng.randrange(1, pos.n)) % pos.n
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        sure, _, vs_lead = trump_bounds(hands, pos.n, seat, pos.trump)
        count = sure + quick_tricks(hands, pos.n, seat, pos.trump)
        if count <= sure:
            continue
        others = 0
        for s in range(pos.n):
            if s != seat:
                others |= pos.hands[s]
        v = brute_values(pos, seat)[0] - pos.tricks[seat]
        if not (others >> (13 * pos.trump)) & 0x1FFF:
            if sure == 0:
                continue
            assert vs_lead == count, (repr(pos), seat, vs_lead, count)
            assert count <= v, (repr(pos), seat, v, count)
            checked += 1  # here the count is above the trump count alone
        elif count > v:
            unsound_elsewhere += 1
    assert checked >= 30, checked
    assert unsound_elsewhere > 0


def _trumps_and_masters(pos: Position, seat: int) -> tuple[int, int, int]:
    """``trump_bounds``' third count written out again: the seat's trumps, the others' trumps together, and the
    seat's side-suit cards above every other card of their suit."""
    lane = 0x1FFF
    others = 0
    for s in range(pos.n):
        if s != seat:
            others |= pos.hands[s]
    mine = bin((pos.hands[seat] >> (13 * pos.trump)) & lane).count("1")
    oth = bin((others >> (13 * pos.trump)) & lane).count("1")
    masters = 0
    for suit in range(4):
        if suit != pos.trump:
            top = ((others >> (13 * suit)) & lane).bit_length()  # above the others' highest card of the suit
            masters += bin(((pos.hands[seat] >> (13 * suit)) & lane) >> top).count("1")
    return mine, oth, masters


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "3-5-8", "8-5-3", "8-5-3 must-overtrump=on",
                                     "8-5-3 must-overtrump=on must-trump=on", "9-5-2 players=4"])
def test_excess_trumps_and_masters_bound_holds(rules_t: str) -> None:
    """``trump_bounds``' third count: a seat holding more trumps than the others together (``T > O``) makes at least
    ``T - O`` plus its side-suit masters, whoever leads - checked against the brute force where it says more than
    the trump count, with the seat on lead and not (must-trump, must-overtrump or neither). With ``T = O`` the same
    count is not a bound (the others ruff the masters, or strip the seat until it must throw one): the check finds
    such endings too, so the condition is needed."""
    rules = Rules.parse(rules_t)
    rng = random.Random(83)
    checked = [0, 0]  # another player on lead, the seat on lead
    unsound_without = 0
    for _ in range(4000 if not LONG else 15000):
        pos = random_position(rules, rng, rng.randint(2, 3 if rules.players == 4 else 5))
        if pos.misere or pos.trump < 0:
            continue
        seat = rng.randrange(pos.n)
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        sure, _, vs_lead = trump_bounds(hands, pos.n, seat, pos.trump)
        mine, oth, masters = _trumps_and_masters(pos, seat)
        assert vs_lead == (max(sure, mine - oth + masters) if mine > oth else sure), (repr(pos), seat)
        if vs_lead > sure:
            v = brute_values(pos, seat)[0] - pos.tricks[seat]
            assert vs_lead <= v, (repr(pos), seat, v, vs_lead)
            checked[seat == pos.leader] += 1
        elif 0 < mine == oth and masters > sure and not unsound_without:
            unsound_without += brute_values(pos, seat)[0] - pos.tricks[seat] < masters
        if min(checked) >= (150 if LONG else 30) and (unsound_without or rules_t != "9-5-2"):
            break
    assert min(checked) >= 30, checked
    if rules_t == "9-5-2":
        assert unsound_without > 0


def _trumps_to_the_player_before(pos: Position, seat: int, rng: random.Random) -> Position:
    """``pos`` with every trump of the players other than ``seat`` and the one before it (or, at random, only those
    above the seat's lowest trump) swapped for a random side card of the one before it (while it holds one), so
    that those two often hold every trump in play, or every one above the seat's lowest."""
    n, trump = pos.n, pos.trump
    p = (seat - 1) % n
    hands = list(pos.hands)
    lane = 0x1FFF << (13 * trump)
    mine = hands[seat] & lane
    low = (mine & -mine).bit_length() - 1 if mine else 52
    keep_low = rng.random() < 0.5
    for o in range(n):
        if o in (seat, p):
            continue
        for c in [c for c in range(52) if hands[o] >> c & 1 and lane >> c & 1 and (c > low or not keep_low)]:
            side = [d for d in range(52) if hands[p] >> d & 1 and not lane >> d & 1]
            if not side:
                break
            d = rng.choice(side)
            hands[o] ^= (1 << c) | (1 << d)
            hands[p] ^= (1 << c) | (1 << d)
    return Position(pos.rules, pos.contract, pos.to_move, pos.tricks, tuple(hands), pos.trick)


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "9-5-2 players=4", "8-5-3"])
def test_trumps_behind_the_only_other_trumps_bound_holds(rules_t: str) -> None:
    """``behind_tricks``: every other trump above the seat's lowest held by the player before the seat (who plays
    after it only when it leads), the seat's trumps win at least ``BEHIND``'s count - checked against the brute
    force where it says more than the trump count, with the seat on lead and not, the third player holding low
    trumps and not (the search uses it only without must-trump and must-overtrump, which would make the seat spend
    trumps)."""
    rules = Rules.parse(rules_t)
    rng = random.Random(47)
    checked = [0, 0]  # another player on lead, the seat on lead
    need = 15 if rules.players == 4 else 30
    for _ in range(8000 if not LONG else 60000):
        pos = random_position(rules, rng, rng.randint(3, 4 if rules.players == 4 else 5))
        if pos.misere or pos.trump < 0:
            continue
        seat = rng.randrange(pos.n)
        pos = _trumps_to_the_player_before(pos, seat, rng)
        n, sh = pos.n, 13 * pos.trump
        hands = int_array(list(pos.hands) + [0] * (4 - n))
        mt = (pos.hands[seat] >> sh) & 0x1FFF
        ot = 0
        for o in range(n):
            if o != seat:
                ot |= (pos.hands[o] >> sh) & 0x1FFF
        b = behind_tricks(hands, n, seat, pos.trump, mt, ot) if mt else 0
        rest = ot & ~(pos.hands[(seat - 1) % n] >> sh)
        if mt == 0 or rest.bit_length() > (mt & -mt).bit_length():  # a trump of another above the seat's lowest
            assert b == 0
            continue
        if b <= bin(mt).count("1") - kills(ot, mt):
            continue
        v = brute_values(pos, seat)[0] - pos.tricks[seat]
        assert b <= v, (repr(pos), seat, v, b)
        checked[seat == pos.leader] += 1
        if min(checked) >= (8 * need if LONG else need):
            break
    assert min(checked) >= need, checked


def test_trumps_behind_table_small_cases() -> None:
    """``BEHIND`` on small holdings (bit ``i`` of the pattern: the seat holds the ``i``-th lowest of the trumps in
    play, the player before it the others): the king and queen behind the ace win one trick, the king alone behind
    the ace none, nor the king and a small one behind the ace and queen (the seat may have to lead them);
    ``KQT543`` behind ``AJ986`` three (the trump count says one)."""
    def pattern(seat: str, before: str) -> int:
        ranks = "23456789TJQKA"
        cards = sorted([(ranks.index(r), 1) for r in seat] + [(ranks.index(r), 0) for r in before])
        return (1 << len(cards)) | sum(b << i for i, (_, b) in enumerate(cards))

    assert BEHIND[pattern("KQ", "A")] == 1
    assert BEHIND[pattern("K", "A")] == 0
    assert BEHIND[pattern("K3", "AQ")] == 0
    assert BEHIND[pattern("KQ", "")] == 2
    assert BEHIND[pattern("KQT543", "AJ986")] == 3
    assert BEHIND[pattern("", "AK")] == 0
    assert [int(v) for v in BEHIND] == behind_table_py()  # numpy's table is the plain one
    assert behind_table_py(low=True) == behind_table_py()  # trumps led under the seat's change no count


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "8-5-3 must-overtrump=on must-trump=on", "9-5-2 players=4"])
def test_drawing_trumps_bound_holds(rules_t: str) -> None:
    """``drawn_tricks``: the seat on lead whose top trumps draw every other trump makes at least all its trumps
    and its top side cards - checked against the brute force on endings where the bound applies."""
    rules = Rules.parse(rules_t)
    rng = random.Random(31)
    checked = 0
    stronger = 0
    for _ in range(20000):
        pos = random_position(rules, rng, rng.randint(2, 4 if rules.players == 4 else 5))
        seat = pos.leader
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        if pos.misere or pos.trump < 0 or (drawn := drawn_tricks(hands, pos.n, seat, pos.trump)) < 0:
            continue
        v = brute_values(pos, seat)[0] - pos.tricks[seat]
        sure, _, _ = trump_bounds(hands, pos.n, seat, pos.trump)
        assert sure <= drawn <= v, (repr(pos), v, drawn)
        stronger += drawn > sure + quick_tricks(hands, pos.n, seat, pos.trump)
        checked += 1
        if checked >= (300 if LONG else 30):
            break
    assert checked >= 30
    assert stronger >= 5  # it adds to the older bounds (15 to 21 of the first 30 here)


def test_contract_kinds_are_all_exercised() -> None:
    kinds = {(p.contract.trump is None, p.misere, p.rules.must_trump, p.rules.must_overtrump) for p, _ in endings(30, 5)}
    assert (False, False, False, False) in kinds  # trump, must follow
    assert (True, False, False, False) in kinds  # no-trump
    assert (True, True, False, False) in kinds  # minimum tricks
    assert (False, False, True, False) in kinds  # must trump
    assert (False, False, False, True) in kinds  # must over-trump


def test_equivalent_groups_cover_the_legal_cards() -> None:
    for pos, _ in endings(100, 3, max_tricks=8):
        groups = equivalent_groups(pos)
        flat = sorted(c for g in groups for c in g)
        assert flat == [c.id for c in pos.legal_cards()]


def test_time_limit_returns_bounds() -> None:
    rng = random.Random(11)
    pos = random_position(Rules.preset("9-5-2"), rng, 16)
    solver = Solver(tt_bits=12)
    sol = solver.solve(pos, 0, cards=False, time_limit=0.0)
    assert not sol.exact
    assert 0 <= sol.lower <= sol.upper <= 16
    with pytest.raises(SolverTimeout) as cut:
        solver.can_reach(pos, 0, 8, time_limit=0.0)
    # only t = 8 was being tested, so nothing is known: the bounds carried are the trivial ones (they once were
    # the test's window 7..8, which need not hold the value)
    assert (cut.value.lower, cut.value.upper) == (0, 16)


def test_bad_time_limits_targets_and_clocks_are_refused() -> None:
    """A time limit that is not a number, a ``can_reach`` target that is not an int and a clock that cannot be
    called are ``ValueError``s naming them, before any search (no half-done work); a huge finite limit is no
    limit (it once overflowed the node budget: ``OverflowError`` from ``int(rate * 1e303)``)."""
    pos = random_position(Rules.preset("9-5-2"), random.Random(1), 4)
    solver = Solver(tt_bits=10)
    for bad in ("1", True, None.__class__, [1.0]):
        for call in (lambda b: solver.value(pos, 0, time_limit=b), lambda b: solver.solve(pos, 0, time_limit=b),
                     lambda b: solver.can_reach(pos, 0, 2, time_limit=b)):
            with pytest.raises(ValueError, match=re.escape(f"time_limit={bad!r} is not a number of seconds")):
                call(bad)
    for bad_t in (float("nan"), 7.5, 1.5, "5", None, True):
        with pytest.raises(ValueError, match=re.escape(f"t={bad_t!r} is not a trick count")):
            solver.can_reach(pos, 0, bad_t)  # type: ignore[arg-type]
    for bad_clock in (None, 5, "perf_counter"):
        with pytest.raises(ValueError, match=re.escape(f"clock={bad_clock!r} is not a clock")):
            Solver(tt_bits=10, clock=bad_clock)  # type: ignore[arg-type]
    assert solver.nodes == 0
    big = random_position(Rules.preset("9-5-2"), random.Random(11), 16)
    timed = Solver(tt_bits=18)
    timed.value(big, 0, time_limit=0.0)  # learns a node rate: the next limit is turned into a node budget
    assert timed._rate > 0
    exact = Solver(tt_bits=18).value(big, 0)
    short = timed.value(big, 0, time_limit=-(10**400))  # one short slice: bounds that hold the value
    assert short.lower <= exact.lower <= short.upper
    for huge in (1e303, 1e308, 10**400):
        sol = timed.value(big, 0, time_limit=huge)
        assert sol.exact and (sol.lower, sol.upper) == (exact.lower, exact.upper)
    assert timed.can_reach(big, 0, exact.lower, time_limit=1e308)


def test_bad_seat_is_refused() -> None:
    pos = random_position(Rules.preset("9-5-2"), random.Random(1), 2)
    with pytest.raises(PositionError, match="seat 5"):
        Solver(tt_bits=10).solve(pos, 5)
    for bad in (True, 1.5, "1"):
        with pytest.raises(PositionError, match=f"seat {bad!r} is not a seat"):
            Solver(tt_bits=10).value(pos, bad)  # type: ignore[arg-type]
    # a NumPy integer seat (an environment's agent index) is a seat, as can_reach's t is a number of tricks
    import numpy as np
    assert Solver(tt_bits=10).value(pos, np.int64(1)) == Solver(tt_bits=10).value(pos, 1)  # type: ignore[arg-type]
    assert Solver(tt_bits=10).can_reach(pos, np.int64(2), 1) == Solver(tt_bits=10).can_reach(pos, 2, 1)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="seat np.int64\\(7\\) is not a seat|seat 7 is not a seat"):
        Solver(tt_bits=10).value(pos, np.int64(7))  # type: ignore[arg-type]
    for kw in ({"threads": 1.5}, {"threads": "2"}, {"tt_bits": 21.5}):
        with pytest.raises(ValueError, match=f"{next(iter(kw))}={next(iter(kw.values()))!r} is not"):
            Solver(**kw)  # type: ignore[arg-type]


_BRUTE_SCRIPT = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
from test_solver import endings, brute_values
from sergeant_major.search import HAVE_NUMBA, Solver
from sergeant_major.search.jit import FAST_BMI2
assert (HAVE_NUMBA, FAST_BMI2) == {"pure": (False, False), "no-bmi2": (True, False)}[sys.argv[3]]
solver = Solver(tt_bits=12)
bad = []
for pos, seat in endings(int(sys.argv[2]), int(sys.argv[4]), max_tricks=int(sys.argv[5])):
    v, per = brute_values(pos, seat)
    sol = solver.solve(pos, seat)
    got = {c.id: x for c, x in sol.cards.items()}
    if sol.tricks != v or (seat == pos.to_move and got != per):
        bad.append(repr(pos))
print(json.dumps(bad))
"""


def brute_in_subprocess(env: dict[str, str], mode: str, count: int, seed: int, max_tricks: int) -> list[str]:
    """The positions of ``count`` random endings on which a solver run in a fresh process with ``env`` differs
    from the brute force (``mode``: which kernels that process must have, "pure" or "no-bmi2")."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, "-c", _BRUTE_SCRIPT, here, str(count), mode, str(seed), str(max_tricks)],
                         env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    bad: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return bad


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the compiled path needs numba (the fast extra)")
def test_compiled_path_without_bmi2_matches_brute_force(tmp_path: Path) -> None:
    """The compiled search where the CPU lacks fast ``pext``/``pdep`` (the table key, runs of equivalent cards and
    ``kills`` by loops): Numba told to compile for a generic x86-64 (``NUMBA_CPU_NAME=generic``, no BMI2), with a
    cache directory of its own. (Before the CPU was read from Numba's settings, this crashed in LLVM.)"""
    env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    assert brute_in_subprocess(env, "no-bmi2", 600 if LONG else 150, 4343, 5) == []


def test_pure_python_path_matches_brute_force() -> None:
    env = dict(os.environ, SERGEANT_MAJOR_NO_NUMBA="1")
    assert brute_in_subprocess(env, "pure", 150 if LONG else 40, 4242, 3) == []


@pytest.mark.slow
def test_numba_disable_jit_takes_the_pure_python_path() -> None:
    """Numba's debugging switch ``NUMBA_DISABLE_JIT=1`` runs the pure-Python path (it used to fail: numba's
    intrinsics cannot run outside compiled code); ``NUMBA_DISABLE_JIT=0`` is numba's default."""
    env = {k: v for k, v in os.environ.items() if k != "SERGEANT_MAJOR_NO_NUMBA"}
    assert brute_in_subprocess(dict(env, NUMBA_DISABLE_JIT="1"), "pure", 20, 4646, 3) == []
    code = "from sergeant_major.search import HAVE_NUMBA; print(HAVE_NUMBA)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, NUMBA_DISABLE_JIT="0"), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(HAVE_NUMBA)


def test_time_limit_keeps_every_legal_card_with_bounds() -> None:
    """A search cut short still gives every legal card, with bounds that hold the exact value."""
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    pos = Position.parse(text)
    exact = Solver(tt_bits=12).solve(pos)
    assert exact.exact and {c for c, (lo, hi) in exact.card_bounds.items() if lo == hi} == set(exact.cards)
    ticks = iter(range(10**6))
    # a clock that jumps 1 s at every look: the second card group already finds the time up
    cut = Solver(tt_bits=12, clock=lambda: float(next(ticks))).solve(pos, time_limit=1.5)
    assert not cut.exact
    legal = set(pos.legal_cards())
    assert set(cut.card_bounds) == legal == set(exact.cards)
    assert len(cut.cards) < len(legal)
    for c, (lo, hi) in cut.card_bounds.items():
        assert lo <= exact.cards[c] <= hi


def test_a_hard_first_card_does_not_starve_the_others() -> None:
    """Under a time limit ``solve`` shares the time over the groups of equivalent cards (a fair share each in
    turn, then the groups cut short resume in the time left), so one hard card no longer takes it all. Here the
    first group (the clubs) needs about 120 K nodes and the limit is 100 K (a clock counting the solver's nodes,
    ten million a second, makes the run repeatable): the old code spent the whole limit on the clubs and left
    every other card at the trivial 2..14 with no value found; now every card has bounds of two tricks at most,
    the cheap cards (hearts and spades) their exact values, and every bound holds the exact value."""
    pos = Position.parse("9-5-2 | C | 2 | 0-2-2 | AT97642.3.KQJ2. / 5.Q954.A43.KQ63 / QJ83.T2.T7.J987 | -")
    seat, base, top = pos.to_move, pos.tricks[pos.to_move], pos.tricks[pos.to_move] + pos.remaining
    groups = equivalent_groups(pos)
    costs = []
    for g in groups:
        alone = Solver(tt_bits=18)
        alone.value(pos.play_unchecked(g[0]), seat)
        costs.append(alone.nodes)
    assert costs[0] > 110_000 > 50_000 > max(costs[2:])  # a hard first group, cheap groups from the third on
    exact = Solver(tt_bits=18).solve(pos)
    assert exact.exact
    solver = Solver(tt_bits=18)
    solver.clock = lambda: solver.nodes * 1e-7
    cut = solver.solve(pos, time_limit=0.01)
    assert not cut.exact
    assert cut.lower <= exact.tricks <= cut.upper
    assert set(cut.card_bounds) == set(exact.cards)
    for c, (lo, hi) in cut.card_bounds.items():
        assert lo <= exact.cards[c] <= hi, (c, lo, hi, exact.cards[c])
        assert hi - lo <= 2 and (lo, hi) != (base, top), (c, lo, hi)
    cheap = {CARDS[c] for g in groups[2:] for c in g}
    assert {c: cut.cards.get(c) for c in cheap} == {c: exact.cards[c] for c in cheap}
    assert all(cut.card_bounds[c] == (v, v) for c, v in cut.cards.items())


@pytest.mark.slow
@pytest.mark.parametrize("rules_t", ["9-5-2", "3-5-8"])
def test_cut_value_agrees_with_the_cards_found(rules_t: str) -> None:
    """When the time limit cuts ``solve`` short, its value bounds still contain the exact value and agree with
    the card values found: at least the best found card's (in minimum tricks at most), as the value is the
    best card's."""
    rules = Rules.parse(rules_t)
    rng = random.Random(8)
    checked = 0
    for _ in range(12):
        pos = random_position(rules, rng, 12)
        exact = Solver(tt_bits=16).solve(pos)
        for step in (1, 2, 3):
            ticks = iter(range(0, 10**7, step))
            cut = Solver(tt_bits=16, clock=lambda t=ticks: float(next(t))).solve(pos, time_limit=4.5)
            assert cut.lower <= exact.tricks <= cut.upper
            if cut.lower == cut.upper or not cut.cards:
                continue
            checked += 1  # the value's own search was cut short too, after some cards were found
            if pos.misere:
                assert cut.upper <= min(cut.cards.values())
            else:
                assert cut.lower >= max(cut.cards.values())
            for c, (lo, hi) in cut.card_bounds.items():
                assert lo <= exact.cards[c] <= hi
                # no card is better for the seat than its value: a card's bounds lie within the value's side
                assert (lo >= cut.lower) if pos.misere else (hi <= cut.upper)
    assert checked >= 5


def test_timed_search_warms_the_kernels_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JIT compilation is not charged to a time limit: a timed call warms the kernels up first."""
    from sergeant_major.search import solver as solver_module

    calls: list[int] = []
    monkeypatch.setattr(solver_module, "warm_up", lambda: calls.append(1))
    pos = Position.parse("9-5-2 | H | 0 | 6-5-3 | AK... / QJ... / T9... | -")
    Solver(tt_bits=8).solve(pos, 0)
    assert calls == []
    Solver(tt_bits=8).solve(pos, 0, time_limit=5)
    Solver(tt_bits=8).value(pos, 1, time_limit=5)
    Solver(tt_bits=8).can_reach(pos, 0, 7, time_limit=5)
    assert len(calls) >= 3
    monkeypatch.undo()
    solver_module.warm_up()  # the real one: runs (or is a no-op without numba) and may be called again
    solver_module.warm_up()


def test_best_cards_are_only_those_surely_best_when_a_card_was_left_open() -> None:
    """A solve cut short by its time limit: a card found at 5 is not surely best while another card's value lies in
    4..7 (it was listed as the best card, and analyze showed it as "best" next to a card that may beat it)."""
    from sergeant_major.search import Solution

    a, b, c = CARDS[0], CARDS[1], CARDS[2]
    open_ = Solution(0, 5, 5, 7, False, {a: 5, c: 3}, 0, False, {a: (5, 5), b: (4, 7), c: (3, 3)})
    assert open_.best_cards() == []
    settled = Solution(0, 5, 5, 5, False, {a: 5, c: 3}, 0, False, {a: (5, 5), b: (4, 5), c: (3, 3)})
    assert settled.best_cards() == [a]  # b may tie but not beat it
    mis = Solution(0, 2, 2, 3, False, {a: 5, c: 3}, 0, True, {a: (5, 5), b: (2, 7), c: (3, 3)})
    assert mis.best_cards() == []
    mis_settled = Solution(0, 3, 3, 3, False, {a: 5, c: 3}, 0, True, {a: (5, 5), b: (3, 7), c: (3, 3)})
    assert mis_settled.best_cards() == [c]
    exact = Solution(0, 5, 5, 5, True, {a: 5, b: 5, c: 3}, 0, False, {a: (5, 5), b: (5, 5), c: (3, 3)})
    assert exact.best_cards() == [a, b]
    assert Solution(0, 5, 5, 5, True, {a: 5, b: 5, c: 3}).best_cards() == [a, b]  # no bounds given: the values
    # the value is known (3) and a card's bounds 3..5 reach above it: no card beats the value, so it is best (4
    # players, -t 1: analyze showed a card of cost 0 but no best card)
    capped = Solution(0, 3, 3, 3, False, {c: 2}, 0, False, {a: (3, 5), b: (1, 5), c: (2, 2)})
    assert capped.best_cards() == [a]
    mis_capped = Solution(0, 3, 3, 3, False, {c: 4}, 0, True, {a: (1, 3), b: (1, 5), c: (4, 4)})
    assert mis_capped.best_cards() == [a]
    assert Solution(0, 3, 3, 3, True).best_cards() == []  # not to move


def test_a_clock_that_returns_no_number_is_a_clear_error() -> None:
    """``Solver(clock=...)`` takes a function: one returning a str, None or NaN was a bare TypeError from deep in the
    search (or a search that never ended for NaN); it is a ValueError naming what it returned."""
    pos = Position.parse("9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -")
    for bad in ("x", None, float("nan"), True):
        solver = Solver(tt_bits=10, clock=lambda bad=bad: bad)  # type: ignore[misc]
        for kwargs in ({"time_limit": 1.0}, {}):
            with pytest.raises(ValueError, match=re.escape(f"returned {bad!r}, not a finite number of seconds")):
                solver.value(pos, 0, **kwargs)
            with pytest.raises(ValueError, match=re.escape(f"returned {bad!r}, not a finite number of seconds")):
                solver.solve(pos, **kwargs)
    assert Solver(tt_bits=10, clock=lambda: 5).value(pos, 2, time_limit=1.0).tricks == 7  # an int clock is fine


def _reference_moves(hands: list[int], n: int, trick: list[int], leader: int, trump: int, must_trump: int,
                     must_over: int, seat: int, misere: bool) -> list[int]:
    """The move order of ``gen_moves`` as first written: a score per run head, suit by suit and the high ranks
    first, inserted after the cards that score as much (plain Python, the trick's winner from the trick)."""
    from sergeant_major.search.kernels import LANE, legal_mask, winner_index

    tlen = len(trick)
    to = (leader + tlen) % n
    legal = legal_mask(hands[to], int_array(trick + [0] * (4 - tlen)), tlen, trump, must_trump, must_over)
    maxing = to == seat
    present = hands[0] | hands[1] | hands[2] | hands[3]
    order: list[tuple[int, int]] = []

    def insert(c: int, sc: int) -> None:
        j = len(order)
        while j > 0 and order[j - 1][1] < sc:
            j -= 1
        order.insert(j, (c, sc))

    def heads(suit: int) -> list[int]:
        lv = (legal >> (13 * suit)) & LANE
        pv = (present >> (13 * suit)) & LANE
        return [r for r in range(12, -1, -1) if lv >> r & 1 and not (pv >> (r + 1) and
                                                                        lv >> (r + 1 + ((pv >> (r + 1)) & -(pv >> (r + 1))).bit_length() - 1) & 1)]

    if tlen == 0:
        sv_all = hands[seat]
        seat_trumps = (sv_all >> (13 * trump)) & LANE if trump >= 0 else 0
        ruffable = 0
        if maxing and not misere and trump >= 0:
            for o in range(n):
                if o != seat and (hands[o] >> (13 * trump)) & LANE:
                    ruffable |= sum(1 << s for s in range(4) if (hands[o] >> (13 * s)) & LANE == 0)
        for suit in range(4):
            lv = (legal >> (13 * suit)) & LANE
            pv = (present >> (13 * suit)) & LANE
            slen = bin(lv).count("1")
            sv = (sv_all >> (13 * suit)) & LANE
            oth_top = (pv & ~lv).bit_length() - 1
            seat_top, side_top = sv.bit_length() - 1, (pv & ~sv).bit_length() - 1
            for hb in heads(suit):
                if misere:
                    # the seat leads a card below another hand's lowest of the suit first, the highest first
                    lows = [(hands[o] >> (13 * suit)) & LANE for o in range(n) if o != seat]
                    mlo = max(((h & -h).bit_length() - 1 for h in lows if h), default=-1)
                    sc = (50 + hb if hb < mlo else 30 - hb) if maxing else 30 + hb
                elif not maxing:
                    if sv == 0 and suit != trump and seat_trumps != 0:
                        sc = 5 - (hb >> 2)
                    elif side_top > seat_top:
                        sc = 60 + hb if hb == side_top else 45 - (hb >> 1)
                    else:
                        sc = 20 + slen - (hb >> 1)
                else:
                    ruff = suit != trump and ruffable >> suit & 1
                    if hb > oth_top:
                        sc = 40 if ruff else 60 + slen
                    elif suit == trump:
                        sc = 45 + (hb >> 1)
                    else:
                        sc = 20 + slen + (hb >> 1) - (15 if ruff else 0)
                insert(13 * suit + hb, sc)
        return [c for c, _ in order]
    bi = winner_index(int_array(trick + [0] * (4 - tlen)), tlen, trump)
    bc = trick[bi]
    led, btr = trick[0] // 13, bc // 13 == trump
    present |= 1 << bc
    cur_good = ((leader + bi) % n == seat) != misere
    good_to = maxing != misere
    last = tlen == n - 1
    seat_played = (seat - leader) % n < tlen
    for suit in range(4):
        if suit == trump:
            win = LANE if not btr else LANE & ~((2 << (bc % 13)) - 1)
        elif suit == led and not btr:
            win = LANE & ~((2 << (bc % 13)) - 1)
        else:
            win = 0
        ruffing = suit == trump and suit != led
        for hb in heads(suit):
            if win >> hb & 1:
                if cur_good == maxing and seat_played:
                    sc = 40 - hb
                elif maxing == good_to:
                    sc = 70 + hb if maxing and not last else 70 - hb + (10 if last else 0) - (5 if ruffing else 0)
                elif not maxing and seat_played:  # minimum tricks, the seat lost the trick: the highest first
                    sc = 30 + hb
                else:  # minimum tricks, a card that takes the trick: the seat's lowest with players after it
                    sc = 5 - hb if maxing and not last else 5 + hb
            elif cur_good == maxing:
                sc = 60 + hb if misere else 60 - hb
                if misere and maxing and suit != led:  # a discard from a suit the others can lead under it
                    ov = (present & ~hands[seat]) >> (13 * suit) & LANE
                    sv = hands[seat] >> (13 * suit) & LANE
                    if ov and (ov & -ov) < (sv & -sv):
                        sc += 13
            else:
                sc = (30 + hb if misere else 30 - hb) - (10 if ruffing and not misere else 0)
            insert(13 * suit + hb, sc)
    return [c for c, _ in order]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_move_order_is_the_scored_order(kind: tuple[str, Contract | None]) -> None:
    """``gen_moves`` (the trick's suit led, winning card and its seat given, the cards inserted by sort keys in
    runs) lists the same cards in the same order as the plain scored insertion it replaced, for every seat, at
    leads and at every card of a trick, under every obligation and in minimum tricks: the search's nodes depend on
    that order."""
    import zlib

    from sergeant_major.search.kernels import gen_moves, winner_index

    rules_t, contract = kind
    rules = Rules.parse(rules_t)
    rng = random.Random(zlib.crc32(rules_t.encode()) % 1009 + (contract is not None))
    moves = int_array(2 * 16)
    compared = 0
    for _ in range(150 if not LONG else 1500):
        pos = random_position(rules, rng, rng.randint(1, rules.tricks), contract=contract,
                              in_trick=rng.randrange(rules.players))
        n, tlen = pos.n, len(pos.trick)
        hands4 = list(pos.hands) + [0] * (4 - n)
        trick = list(pos.trick)
        bi = winner_index(int_array(trick + [0] * (4 - tlen)), tlen, pos.trump) if tlen else 0
        led, bc, ws = (trick[0] // 13, trick[bi], (pos.leader + bi) % n) if tlen else (0, 0, 0)
        mt, mo = int(pos.rules.must_trump), int(pos.rules.must_overtrump)
        for seat in range(n):
            want = _reference_moves(hands4, n, trick, pos.leader, pos.trump, mt, mo, seat, pos.misere)
            nm = gen_moves(int_array(hands4), n, tlen, pos.leader, led, bc, ws, (pos.leader + tlen) % n, pos.trump,
                           mt, mo, seat, int(pos.misere), moves, 0)
            assert [int(moves[2 * j]) for j in range(nm)] == want, (repr(pos), seat)
            compared += 1
    assert compared >= 300


def test_killer_leads_of_another_trump_or_seat_do_not_carry_over() -> None:
    """A solver's killer leads (learnt by its searches, kept for the next) are forgotten when a search is under
    another trump or for another seat: there a lead that cut misorders the cards (a table's cell after one of
    another contract searched up to three times the nodes). So such a search visits the nodes it would on a
    fresh solver, and finds the same value."""
    clubs = Position.parse("9-5-2 | C | 0 | 4-0-1 | KJ8.AK.Q87543. / A762..9.QJ9543 / QT9.4.K62.T876 | -")
    hearts = Position(clubs.rules, Contract.HEARTS, clubs.to_move, clubs.tricks, clubs.hands, clubs.trick)
    fresh = Solver(tt_bits=16)
    value = fresh.value(clubs, 0)
    for before, seat in ((hearts, 1), (clubs, 1)):
        solver = Solver(tt_bits=16)
        solver.value(before, seat)
        n0 = solver.nodes
        again = solver.value(clubs, 0)
        assert (again.lower, again.upper, again.exact) == (value.lower, value.upper, True)
        assert solver.nodes - n0 == fresh.nodes


def test_killer_word_keeps_the_last_two_leads_that_cut() -> None:
    """A killer slot keeps the last two leads that cut there (``1 + card`` in 6 bits each, the later first): a new
    card goes first and the one it displaces second; the first card cutting again changes nothing; the second
    cutting again goes first."""
    kw = killer_word(0, 0)
    assert kw == 1
    kw = killer_word(kw, 51)
    assert (kw & 63, kw >> 6) == (52, 1)
    assert killer_word(kw, 51) == kw
    kw = killer_word(kw, 0)
    assert (kw & 63, kw >> 6) == (1, 52)
    kw = killer_word(kw, 7)
    assert (kw & 63, kw >> 6) == (8, 1)
