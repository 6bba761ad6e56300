"""The double-dummy solver: every hand known, one seat against the other players together.

For a chosen seat the value of a :class:`~.position.Position` is the most tricks (already taken ones
included) that seat can make when the others combine against it (the "paranoid" value); in a
minimum-tricks deal it is the fewest tricks it can hold itself to. The obligations of the rules in force
apply (must follow; ``must-trump`` and ``must-overtrump``, docs/rules.md reference options).

Technique (see docs/solver.md): zero-window searches "can the seat reach ``t`` tricks?" narrowed by
bisection (as MTD(f) narrows with null windows), alpha-beta with a transposition table of trick-start
positions keyed by relative ranks (positions equal up to cards already played share an entry, and one
table serves every seat, contract and position), equivalent cards (touching cards of one hand once
played cards are removed) searched once, quick-trick and trump-count bounds and move ordering. The search is compiled
with Numba when the ``fast`` extra is installed and runs as Python otherwise. With ``threads`` > 1, helper threads
search the same tests on the shared table (Lazy SMP).
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sergeant_major.core.cards import CARDS, Card
from sergeant_major.search.jit import HAVE_NUMBA, compile_claimed, int_array
from sergeant_major.search.kernels import (
    ETC_MIN,
    FRAME,
    GEN_MASK,
    MOVES_PER_DEPTH,
    PROBE_FIRST,
    PROBE_MIN,
    PROBE_OTHERS,
    ST_ABORT,
    ST_BUDGET,
    ST_ETC,
    ST_ETCCUTS,
    ST_GEN,
    ST_HELPER,
    ST_KILLERS,
    ST_NODES,
    ST_PFIRST,
    ST_POTHER,
    ST_PROBE,
    ST_ROT,
    ST_SIZE,
    ST_TAKES,
    ST_TTHITS,
    TT_WAYS,
    TT_WORDS,
    WARM_UP_KERNELS,
    solve_bounds,
)
from sergeant_major.search.playout import playouts
from sergeant_major.search.position import Position, PositionError

__all__ = ["Solver", "Solution", "SolverTimeout", "solve", "can_reach", "card_values", "default_solver", "warm_up",
           "start_warm_up"]

#: The solver's integer knobs (attributes of :class:`Solver`): each an int in 1..2**62, checked at every search.
KNOBS = ("parallel_min", "helper_min", "etc_min", "probe_min", "probe_first", "probe_others")
_SETTINGS = ("guess", "guess_shade", "guess_shade_mt", *KNOBS)  # what clear() keeps and twin() copies


class SolverTimeout(TimeoutError):
    """:func:`can_reach` ran out of time before an answer. ``lower``/``upper`` bound the seat's value."""

    def __init__(self, message: str, lower: int, upper: int) -> None:
        super().__init__(message)
        self.lower = lower
        self.upper = upper


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one seat.

    Attributes:
        seat: the seat solved for.
        tricks: its value in tricks for the whole deal (taken + to come); when not ``exact`` the bound the
            search had reached on its side (``lower`` normally, ``upper`` in minimum tricks).
        lower, upper: bounds on the value (equal when ``exact``).
        exact: ``False`` when the time limit stopped the search first (for :meth:`Solver.solve` also when
            the value is known but some card's value was left open: then ``lower == upper``).
        cards: when the seat is to move, the value after each of its legal cards (empty otherwise).
        nodes: search nodes visited.
        misere: whether the contract is minimum tricks (then the best cards are those with the lowest value).
        card_bounds: when the seat is to move, ``(lo, hi)`` bounds on the value after each legal card - equal
            to ``cards[c]`` for a card whose value was found, the bounds reached (or the trivial ones,
            narrowed by the seat's overall value) for a card the time limit left open. Every legal card
            is a key, so no card is dropped when the time runs out.
    """

    seat: int
    tricks: int
    lower: int
    upper: int
    exact: bool
    cards: dict[Card, int] = field(default_factory=dict)
    nodes: int = 0
    misere: bool = False
    card_bounds: dict[Card, tuple[int, int]] = field(default_factory=dict)

    def best_cards(self) -> list[Card]:
        """The legal cards that surely keep the value (best for the seat), ascending id: a card is surely best when
        its lower bound in :attr:`card_bounds` is at least every other card's upper bound, capped by the value's
        ``upper`` (no card beats the value); in minimum tricks when its upper bound is at most every other card's
        lower bound, raised to the value's ``lower``. With exact values: the cards of the best value. When the time
        limit left open a card that may beat every other, none is surely best and the list is empty (it held the
        best of the cards found, which that open card may beat). Empty too when the seat is not to move."""
        bounds = self.card_bounds or {c: (x, x) for c, x in self.cards.items()}
        out = []
        for c, (lo, hi) in bounds.items():
            others = [b for d, b in bounds.items() if d != c]
            if self.misere:
                if all(hi <= max(b[0], self.lower) for b in others):
                    out.append(c)
            elif all(lo >= min(b[1], self.upper) for b in others):
                out.append(c)
        return sorted(out)


class Solver:
    """A double-dummy solver with its own transposition table, kept between calls (re-use one solver for
    many positions: the table is keyed by relative ranks, so what one search learns serves the next).

    Args:
        tt_bits: the table holds ``2**tt_bits`` entries of 32 bytes, two to a 64-byte bucket (default 21
            with numba: 64 MB; 15 without).
        clock: the clock time limits are measured with (default ``time.perf_counter``, wall time;
            benchmarks on a shared machine pass ``time.process_time``).
        threads: search threads per search, 1 to 64 (default 1). With more, a search of at least
            ``parallel_min`` tricks (default 10) starts ``threads - 1`` helper threads that run the same
            zero-window tests on the shared table with the cards of the top nodes in another order (Lazy
            SMP); the first thread to finish gives the answer (it is exact either way) and stops the others.
            On two cores a whole 9-5-2 deal takes about 0.6 of the time (docs/solver.md). Only with numba
            (pure Python holds the GIL: the helpers are not started). With ``clock=time.process_time`` a
            time limit counts the CPU time of every thread.

    Raises:
        ValueError: ``tt_bits`` outside 8..26 or ``threads`` outside 1..64.

    Attributes (counters and knobs, read or set between calls): ``nodes`` (search nodes so far, of every
    thread), ``helper_nodes`` (those of helper threads), ``parallel_min`` and ``helper_min`` (helpers start for
    searches of at least ``parallel_min`` tricks and reorder the nodes with at least ``helper_min`` tricks left;
    defaults 10 and 8), ``tt_hits`` (of the main thread)
    (table look-ups that found their position), ``etc_cuts`` (enhanced transposition cutoffs), ``take_cuts``
    (of the main thread: nodes in the middle of a trick decided because the seat surely takes the trick and then
    has enough sure tricks, :func:`._kernels.seat_takes_trick`, or its trump counts make the tricks it needs,
    :func:`._kernels.trumps_reach`; in minimum tricks, because it can play under
    the trick's winner when it needs one more trick taken by the others, the trick starts where it surely
    loses the trick, :func:`._kernels.seat_ducks_lead`, and the nodes where it surely loses or wins every trick
    left, :func:`._kernels.seat_loses_out`, :func:`._kernels.seat_ducks_out`, :func:`._kernels.seat_wins_out`,
    or loses enough by its exits, :func:`._kernels.seat_exit_losses`, also after a trick it surely loses,
    :func:`._kernels.seat_exits_after`),
    ``guess`` and ``guess_shade`` / ``guess_shade_mt`` (the zero-window tests step from a first guess, the
    mean of greedy play-outs times this factor - default 0.9, and 1.3 in minimum tricks, where guessing high
    took fewer nodes - or bisect with ``guess = False``; positive finite numbers), ``etc_min``
    (those cutoffs are tried where a trick ends with at least this many tricks left, counting that trick;
    default 10 - lower values cost more per node than they save; tests set 2 to exercise them),
    ``probe_min``, ``probe_first``, ``probe_others`` (probing, technique 8 in docs/solver.md: a node with at
    least ``probe_min`` tricks left, default 12, searches its first card within ``probe_first`` nodes, default
    20,000; if that runs out, each other card within ``probe_others``, default 1,000, so that a cheap cutoff
    is found before the first card's whole subtree is searched; then its open cards in full). The knobs change
    no value, only the work. Each of ``KNOBS`` must be an int in 1..2**62, else the next search raises
    ``ValueError`` before it starts; :meth:`clear` keeps the knobs.
    """

    def __init__(self, tt_bits: int | None = None, clock: Callable[[], float] = time.perf_counter,
                 threads: int = 1) -> None:
        if tt_bits is None:
            tt_bits = 21 if HAVE_NUMBA else 15
        if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 8 <= tt_bits <= 26:
            raise ValueError(f"tt_bits={tt_bits!r} is not a table size: give an int in 8..26")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise ValueError(f"threads={threads!r} is not a number of threads: give an int in 1..64")
        if not callable(clock):
            raise ValueError(f"clock={clock!r} is not a clock: give a function returning seconds, like time.perf_counter")
        self.tt_bits = tt_bits
        self.clock = clock
        self.threads = threads
        self.parallel_min = 10
        self.helper_min = 8
        self._shared = int_array(2)
        self._helpers: list[tuple[Any, Any, Any, Any, Any]] = []
        self._threads: list[threading.Event] = []  # the "done" events of the running search's threads
        # the running slice's helper start (``_start_helpers``' arguments) while its threads search, so that
        # ``set_threads`` can add helpers to it; guarded by ``_live_lock`` with the helpers started
        self._live: tuple[Any, ...] | None = None
        self._live_lock = threading.Lock()
        self._live_helpers = 0
        self._interrupted = False
        size = 1 << tt_bits
        self._tt = int_array(size * TT_WORDS)
        self._moves = int_array(64 * MOVES_PER_DEPTH)
        self._frames = int_array(64 * FRAME)
        self._tk = int_array(4 * 20)
        self._stats = int_array(ST_SIZE)
        self.nodes = 0
        self.helper_nodes = 0
        self.tt_hits = 0
        self.etc_cuts = 0
        self.take_cuts = 0
        self.guess = True
        self.guess_shade = 0.9
        self.guess_shade_mt = 1.3
        self.etc_min = ETC_MIN
        self.probe_min = PROBE_MIN
        self.probe_first = PROBE_FIRST
        self.probe_others = PROBE_OTHERS
        self._rate = 0.0  # search nodes per clock second, learnt by timed searches
        self._killers_of: tuple[int, ...] = ()  # (trump, misere, seat) of the searches the killer leads come from
        self._gen = 0  # the generation of the search: table entries of earlier ones give way first

    def interrupt(self) -> None:
        """Make the search this solver runs in another thread return soon (within about 1,024 nodes) with the
        bounds it reached (``exact=False``), and its later searches at once, until :meth:`resume`. For a caller
        that gives up while threads search (``analyze`` on Ctrl-C while its table's cells run in parallel)."""
        self._interrupted = True
        self._shared[0] = 1

    def resume(self) -> None:
        """Let searches run again after :meth:`interrupt`."""
        self._interrupted = False

    def clear(self) -> None:
        """Forget everything learnt: empties the transposition table and the killer leads, and resets the
        counters (``nodes`` ...) and the node rate learnt for time limits. The knobs (``guess``,
        ``guess_shade``, ``guess_shade_mt`` and those of :data:`KNOBS`) keep the values they were given."""
        knobs = {k: getattr(self, k) for k in _SETTINGS}
        self.__init__(self.tt_bits, self.clock, self.threads)  # type: ignore[misc]
        for k, v in knobs.items():
            setattr(self, k, v)

    def set_threads(self, threads: int) -> None:
        """Search with ``threads`` threads from now on (1..64), also from another thread while this solver searches:
        more threads join the running search at once as helpers (when it is big enough to have them, ``parallel_min``);
        fewer take effect from its next slice (a search cut short resumes in slices, a new search starts one).
        For a caller whose other searches have ended and left cores idle (:func:`sergeant_major.search.review.run_tasks`).

        Raises:
            ValueError: ``threads`` outside 1..64.
        """
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise ValueError(f"threads={threads!r} is not a number of threads: give an int in 1..64")
        with self._live_lock:
            self.threads = threads
            if self._live is not None:
                self._add_helpers(*self._live)

    def twin(self) -> Solver:
        """A new solver with this one's table size, clock and knobs (its own empty table, one thread): for a
        search that runs beside this one's (:func:`sergeant_major.search.review.run_tasks`)."""
        other = Solver(self.tt_bits, self.clock)
        for k in _SETTINGS:
            setattr(other, k, getattr(self, k))
        return other

    def _check_knobs(self) -> None:
        """Raise ``ValueError`` (quoting it) for a knob of :data:`KNOBS` that is not an int in 1..2**62 (numpy's
        ints count), or a ``guess_shade`` or ``guess_shade_mt`` that is not a positive finite number, before
        a search changes anything: a bad value would change no answer but could make every node re-search its
        cards, and one of 2**63 or more does not fit the kernel's 64-bit counters."""
        for name in KNOBS:
            v = getattr(self, name)
            try:
                iv = None if isinstance(v, bool) else operator.index(v)  # numpy's ints too
            except TypeError:
                iv = None
            if iv is None or not 1 <= iv <= 1 << 62:
                raise ValueError(f"{name}={v!r} is not a count: give an int in 1..2**62")
        for name in ("guess_shade", "guess_shade_mt"):
            g = getattr(self, name)
            if isinstance(g, bool) or not isinstance(g, (int, float)) or not 0 < g < math.inf:
                raise ValueError(f"{name}={g!r} is not a factor: give a positive finite number")

    # ------------------------------------------------------------------ core
    def _bounds(self, pos: Position, seat: int, lo: int, hi: int, deadline: float | None,
                guess: int | None = None) -> tuple[int, int, bool, int]:
        """Narrow the maximiser's remaining-trick count to ``lo..hi``; returns ``(lo, hi, exact, next test)``,
        the test to go on from when the search was cut short (``guess`` of a later call that resumes it, in place
        of the first guess from play-outs; one outside the bounds is ignored: the tests bisect).

        Untimed (``deadline`` None): one run of zero-window tests stepping from the first guess. Timed: the
        tests run in node-budget slices (the kernel cannot look at a clock), the budget being the time left
        times the node rate learnt from earlier slices, so that a search that fits its time runs in one slice
        instead of a doubling series of restarts; an aborted slice's next one goes on with the test it was
        running (the table keeps what it learnt). When half the time has gone (a window of at least 3 tricks),
        :meth:`_bracket` narrows the far ends of ``lo..hi`` by cheap tests before the rest of the time goes to
        the test near the guess (outside the new bounds the tests bisect), so that a search cut short reports
        bounds on both sides of the value instead of one side and the trivial other."""
        if lo >= hi:
            return lo, hi, True, -1
        self._check_knobs()
        hands = int_array(list(pos.hands) + [0] * (4 - pos.n))
        trick = int_array(list(pos.trick) + [0] * (4 - len(pos.trick)))
        self._gen = (self._gen + 1) & GEN_MASK
        if guess is None:
            guess = self._guess(pos, seat, lo, hi) if self.guess else -1
        # a timed search spends its first half on the tests from the guess, then brackets (``mid``: None when
        # done or not wanted)
        mid = None if deadline is None or hi - lo < 3 else self._now() + (deadline - self._now()) / 2
        if deadline is None:
            budget = 1 << 62
        elif self._rate > 0:
            budget = min(1 << 62, max(10_000, int(self._rate * self._span(mid, deadline))))
        else:
            budget = 20_000
        while True:
            if self._interrupted:
                return lo, hi, lo >= hi, guess
            lo, hi, guess, aborted = self._slice(pos, seat, hands, trick, lo, hi, guess, budget, deadline is not None)
            if not aborted or lo >= hi:
                return lo, hi, lo >= hi, guess
            if self._interrupted:
                return lo, hi, False, guess
            assert deadline is not None
            if mid is not None and self._rate > 0 and self._now() >= mid:
                mid = None
                lo, hi = self._bracket(pos, seat, hands, trick, lo, hi, guess, deadline)
                if lo >= hi:
                    return lo, hi, True, guess
                if self._interrupted:
                    return lo, hi, False, guess
            if deadline - self._now() <= 0:
                return lo, hi, False, guess
            budget = min(1 << 62, max(budget * 2, 10_000) if self._rate <= 0
                         else max(10_000, int(self._rate * self._span(mid, deadline))))

    def _span(self, mid: float | None, deadline: float) -> float:
        """Seconds until ``mid`` (the bracketing point of a timed search) or, after it, ``deadline``."""
        return max((deadline if mid is None else mid) - self._now(), 0.0)

    def _bracket(self, pos: Position, seat: int, hands: Any, trick: Any, lo: int, hi: int, pending: int,
                 deadline: float) -> tuple[int, int]:
        """A timed search cut short on its test of ``pending`` (``lo < pending <= hi``): single zero-window
        tests move in from the ends of ``lo..hi`` (``hi``, then 1, 2, 4 ... tricks lower while above
        ``pending``; ``lo + 1``, then 1, 2, 4 ... higher while below it), each within a sixteenth of the time
        left. A test far from the value is cheap; each side stops at its first test that runs out of budget
        or crosses the value. Returns the narrowed ``(lo, hi)``."""
        for down in (True, False):
            step = 1
            t = hi if down else lo + 1
            while lo < hi and not self._interrupted and (t > pending if down else t < pending) and lo < t <= hi:
                left = deadline - self._now()
                if left <= 0:
                    return lo, hi
                budget = max(10_000, int(self._rate * left / 16))
                lo2, hi2, _, aborted = self._slice(pos, seat, hands, trick, t - 1, t, t, budget, True)
                if aborted:
                    break
                if lo2 >= t:  # the maximiser makes t: at least t
                    lo = max(lo, t)
                    if down:
                        break
                    t += step
                else:
                    hi = min(hi, t - 1)
                    if not down:
                        break
                    t -= step
                step *= 2
        return lo, hi

    def _slice(self, pos: Position, seat: int, hands: Any, trick: Any, lo: int, hi: int, guess: int, budget: int,
               learn: bool) -> tuple[int, int, int, bool]:
        """One run of zero-window tests on ``lo..hi`` from ``guess`` within ``budget`` nodes (per thread), in
        the helper threads too when the position is big enough. Returns ``(lo, hi, next test, aborted)``; with
        ``learn`` the node rate of a slice of at least 10,000 nodes (and 10 ms unless cut short) is learnt for the
        budgets of timed slices."""
        stats = self._stats
        kind = (pos.trump, int(pos.misere), seat)
        if kind != self._killers_of:  # leads that cut under another trump or for another seat mislead the ordering
            for st in [stats] + [helper[3] for helper in self._helpers]:
                for i in range(ST_KILLERS, ST_TAKES):
                    st[i] = 0
            self._killers_of = kind
        out = int_array(3)
        stats[ST_NODES] = 0
        stats[ST_ABORT] = 0
        stats[ST_TTHITS] = 0
        stats[ST_ETCCUTS] = 0
        stats[ST_TAKES] = 0
        stats[ST_BUDGET] = budget
        stats[ST_ETC] = self.etc_min
        stats[ST_GEN] = self._gen
        self._set_probing(stats)
        t0 = self._now()
        args = (pos.n, len(pos.trick), pos.leader, pos.trump, int(pos.rules.must_trump),
                int(pos.rules.must_overtrump), seat, int(pos.misere), lo, hi, pos.remaining)
        tt_mask = (1 << self.tt_bits) // TT_WAYS - 1
        for ev in self._threads:  # threads of a call cut short (by an exception): told to stop, wait for them
            ev.wait()
        # a stop flag of this slice's own: a thread of an earlier slice can never stop this one
        shared = int_array(2)
        self._shared = shared
        if self._interrupted:  # interrupt() came between the caller's test and the new flag
            shared[0] = 1
        workers: list[threading.Event] = []  # the threads' "done" events: the helpers', then the main search's
        self._threads = workers
        with self._live_lock:
            self._live_helpers = 0
        try:
            self._start_helpers(workers, hands, trick, args, tt_mask, guess, lo, hi)
            main_args = (hands, trick, args, self._tt, tt_mask, self._moves, self._frames, self._tk, stats, shared,
                         out, guess)
            if HAVE_NUMBA and pos.remaining >= self.parallel_min:
                # a long compiled search runs in a thread of its own while this one waits in short waits, so
                # that Ctrl-C (KeyboardInterrupt) stops it at once instead of when it ends. Its "done" event,
                # not Thread.join, says when it has ended: Python 3.11 can mark a thread stopped when a join of
                # it is interrupted while it still runs.
                done = threading.Event()
                workers.append(done)
                threading.Thread(target=_search_thread, args=(*main_args, done), daemon=True).start()
                while not done.wait(0.05):
                    pass
            else:
                _run(*main_args)
        finally:
            with self._live_lock:  # no helper joins after this: every one started is in ``workers``
                self._live = None
                helpers = self._live_helpers
            shared[0] = 1  # stop the other threads (also when a search or a thread's start raised)
            for ev in workers:
                ev.wait()
        for k in range(helpers):
            _, _, _, hstats, hout = self._helpers[k]
            self.nodes += int(hstats[ST_NODES])
            self.helper_nodes += int(hstats[ST_NODES])
            out[0] = max(out[0], hout[0])  # a helper that finished first has the exact value
            out[1] = min(out[1], hout[1])
        self.nodes += int(stats[ST_NODES])
        dt = self._now() - t0
        self.tt_hits += int(stats[ST_TTHITS])
        self.etc_cuts += int(stats[ST_ETCCUTS])
        self.take_cuts += int(stats[ST_TAKES])
        aborted = bool(stats[ST_ABORT])
        if learn and dt > (0.0 if aborted else 0.01) and stats[ST_NODES] >= 10_000:
            r = stats[ST_NODES] / dt
            self._rate = r if self._rate <= 0 else 0.5 * (self._rate + r)
        return int(out[0]), int(out[1]), int(out[2]), aborted

    def _set_probing(self, stats: Any) -> None:
        """Copy the probing knobs (checked by :meth:`_check_knobs`) into a search thread's ``stats``."""
        stats[ST_PROBE] = self.probe_min
        stats[ST_PFIRST] = self.probe_first
        stats[ST_POTHER] = self.probe_others

    def _start_helpers(self, workers: list[threading.Event], hands: Any, trick: Any, args: tuple[int, ...],
                       tt_mask: int, guess: int, lo: int, hi: int) -> None:
        """Start the helper threads of one search, the "done" event of each added to ``workers`` before it
        starts (none for fewer than ``parallel_min`` tricks, one thread or no numba)."""
        remaining = args[-1]
        if not HAVE_NUMBA or remaining < self.parallel_min:
            return
        if self.threads > 1:
            warm_up()  # compiled once, before two threads want it (a helper added later finds the search running)
        with self._live_lock:  # the hands as they are at the start: the main thread's search plays in its array
            self._live = (workers, int_array(list(hands)), trick, args, tt_mask, guess, lo, hi)
            self._add_helpers(*self._live)

    def _add_helpers(self, workers: list[threading.Event], hands: Any, trick: Any, args: tuple[int, ...],
                     tt_mask: int, guess: int, lo: int, hi: int) -> None:
        """Start helper threads of the running slice up to ``threads - 1`` in all (``_live_lock`` held): a late
        one runs the same tests from the slice's start, on a table the others have filled."""
        while len(self._helpers) < self.threads - 1:
            self._helpers.append((int_array(64 * MOVES_PER_DEPTH), int_array(64 * FRAME), int_array(4 * 20),
                                  int_array(ST_SIZE), int_array(3)))
        while self._live_helpers < self.threads - 1:
            k = self._live_helpers
            moves, frames, tk, stats, out = self._helpers[k]
            stats[ST_NODES] = 0
            stats[ST_ABORT] = 0
            stats[ST_BUDGET] = 1 << 62  # stopped by the main thread through the shared flag
            stats[ST_ETC] = self.etc_min
            stats[ST_GEN] = self._gen
            self._set_probing(stats)
            stats[ST_HELPER] = self.helper_min
            stats[ST_ROT] = k + 1
            out[0] = lo
            out[1] = hi
            done = threading.Event()
            th = threading.Thread(target=_search_thread, daemon=True, args=(
                int_array(list(hands)), trick, args, self._tt, tt_mask, moves, frames, tk, stats, self._shared, out,
                guess, done))
            workers.append(done)
            self._live_helpers += 1
            try:
                th.start()
            except BaseException:
                done.set()  # never started: nothing to wait for
                raise

    @staticmethod
    def _limit(time_limit: float | None) -> float | None:
        """``time_limit`` checked: seconds as a float, or ``None`` for no limit (also for an infinite one, or a
        year and more). Zero or less: the search runs one short slice, 10,000 to 20,000 nodes per thread, and
        returns the bounds it reached.

        Raises:
            ValueError: ``time_limit`` is not a number (NaN, a string, ...).
        """
        if time_limit is None:
            return None
        if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
            raise ValueError(f"time_limit={time_limit!r} is not a number of seconds")
        try:
            limit = float(time_limit)
        except OverflowError:  # an int beyond floats: no limit, or (negative) one short slice
            return None if time_limit > 0 else 0.0
        if math.isnan(limit):
            raise ValueError(f"time_limit={time_limit!r} is not a number of seconds")
        return None if limit >= _NO_LIMIT else limit  # a deadline a year away would overflow the node budget

    def _deadline(self, time_limit: float | None) -> float | None:
        """The clock reading at which a search with ``time_limit`` seconds (checked by :meth:`_limit`) stops.

        Raises:
            ValueError: the solver's ``clock`` returned something other than a finite number of seconds.
        """
        if time_limit is None:
            return None
        return self._now() + time_limit

    def _now(self) -> float:
        """The solver's clock, read and checked.

        Raises:
            ValueError: the ``clock`` returned something other than a finite number of seconds (a str was a bare
                ``TypeError`` from deep in the search).
        """
        now = self.clock()
        if isinstance(now, bool) or not isinstance(now, numbers.Real) or not math.isfinite(now):
            raise ValueError(f"clock {self.clock!r} returned {now!r}, not a finite number of seconds")
        return float(now)

    def _guess(self, pos: Position, seat: int, lo: int, hi: int) -> int:
        """A first guess of the maximiser's count: the mean of a few greedy play-outs, shaded towards the
        side of the seat's opponents (who play together in the search), and one trick less outside minimum
        tricks: greedy play-outs overestimate the paranoid value (by 1 to 3 tricks on 74 of the benchmark's
        100 deals), and starting one lower cut the median deal's nodes by 8 % on two sets of 9-5-2 deals
        (docs/solver.md, ninth round). In minimum tricks it cost 10 % more nodes, so there it is not lowered,
        and the factor is ``guess_shade_mt`` (1.3): guessing high there took 10 to 20 % fewer nodes than 0.9 on
        whole deals of 13 and 16 tricks (docs/solver.md, twelfth round)."""
        res = playouts(pos, 16, seed=12345, policy="greedy")
        base = pos.tricks[seat]
        mean = sum(r[seat] - base for r in res) / len(res)
        if pos.misere:
            mean = pos.remaining - mean
            return max(lo + 1, min(hi, int(mean * self.guess_shade_mt + 0.5)))
        return max(lo + 1, min(hi, int(mean * self.guess_shade + 0.5) - 1))

    def _check(self, pos: Position, seat: int | None) -> int:
        if not isinstance(pos, Position):
            raise PositionError(f"{pos!r} is not a Position")
        s = pos.to_move if seat is None else seat
        if not isinstance(s, bool) and not isinstance(s, int) and hasattr(s, "__index__") and hasattr(s, "dtype"):
            s = s.__index__()  # a NumPy integer (an environment's agent index), as can_reach's t and the envs take
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < pos.n:
            raise PositionError(f"seat {s!r} is not a seat: give an int in 0..{pos.n - 1}")
        return s

    def value(self, pos: Position, seat: int | None = None, *, time_limit: float | None = None) -> Solution:
        """The seat's paranoid value (no per-card values); ``seat`` defaults to the seat to move.

        Args:
            time_limit: seconds; when it runs out the bounds reached so far are returned (``exact=False``).

        Raises:
            PositionError: when ``seat`` is not a seat of the position.
            ValueError: when ``time_limit`` is not a number (NaN, a string; an infinite one, or a year or more, is no limit).
        """
        s = self._check(pos, seat)
        time_limit = self._limit(time_limit)
        if time_limit is not None:
            warm_up()
        deadline = self._deadline(time_limit)
        n0 = self.nodes
        lo, hi, exact, _ = self._bounds(pos, s, 0, pos.remaining, deadline)
        return self._solution(pos, s, lo, hi, exact, {}, self.nodes - n0)

    def _solution(self, pos: Position, s: int, lo: int, hi: int, exact: bool, cards: dict[Card, int], nodes: int) -> Solution:
        base = pos.tricks[s]
        rem = pos.remaining
        if pos.misere:  # maximiser's count = tricks the seat loses
            low, up = base + rem - hi, base + rem - lo
            best = up
        else:
            low, up = base + lo, base + hi
            best = low
        return Solution(s, best, low, up, exact, cards, nodes, pos.misere)

    def solve(self, pos: Position, seat: int | None = None, *, cards: bool = True,
              time_limit: float | None = None) -> Solution:
        """The seat's value and, when it is to move and ``cards`` is true, the value after each legal card.

        Equivalent cards (touching once played cards are removed) are searched once and share a value.

        Args:
            seat: the seat solved for (default: the seat to move).
            time_limit: seconds for the whole call, shared over the cards (:meth:`_group_values`) so that a hard
                card does not starve the others: each group of equivalent cards in turn gets the time left
                divided by the number of groups still to search plus one (a share kept back), then the groups
                cut short resume, on the bounds they reached, in passes over the time left. The overall value,
                the best card's, lies within the cards' bounds; it is searched last, within them, in what time
                remains (one short slice when none does), and not at all when they settle it. When the time runs
                out: the bounds reached (``exact=False``), the card values found, and bounds for every legal
                card (``card_bounds``).

        Raises:
            PositionError: when ``seat`` is not a seat of the position.
            ValueError: when ``time_limit`` is not a number (NaN, a string; an infinite one, or a year or more, is no limit).
        """
        s = self._check(pos, seat)
        time_limit = self._limit(time_limit)
        if time_limit is not None:
            warm_up()
        deadline = self._deadline(time_limit)
        n0 = self.nodes
        values: dict[Card, int] = {}
        bounds: dict[Card, tuple[int, int]] = {}
        open_groups: list[list[int]] = []
        exact = True
        base, top = pos.tricks[s], pos.tricks[s] + pos.remaining
        lower, upper = base, top  # the seat's value, from the cards' bounds
        if cards and s == pos.to_move and not pos.over:
            groups = equivalent_groups(pos)
            found = self._group_values(pos, s, groups, deadline)
            for group, sol in zip(groups, found, strict=True):
                if sol is None:  # not searched: no time left
                    exact = False
                    open_groups.append(group)
                    continue
                if not sol.exact:
                    exact = False
                    for c in group:
                        bounds[CARDS[c]] = (sol.lower, sol.upper)
                    continue
                for c in group:
                    values[CARDS[c]] = sol.tricks
                    bounds[CARDS[c]] = (sol.tricks, sol.tricks)
            # the value is the best card's (in minimum tricks the lowest): a card not searched may be anything
            card_los = [b[0] for b in bounds.values()] + [base] * len(open_groups)
            card_his = [b[1] for b in bounds.values()] + [top] * len(open_groups)
            pick = min if pos.misere else max
            lower, upper = pick(card_los), pick(card_his)
        if exact and values:
            v = (min if pos.misere else max)(values.values())
            return Solution(s, v, v, v, True, values, self.nodes - n0, pos.misere,
                            dict(sorted(bounds.items(), key=lambda kv: kv[0].id)))
        # the overall value's search, in the maximiser's count of the tricks left, within what the cards proved
        # (none when they settle it; when the time is up, one short slice, as ``value`` runs then)
        lo_m, hi_m = (top - upper, top - lower) if pos.misere else (lower - base, upper - base)
        lo_m, hi_m, found_exact, _ = self._bounds(pos, s, lo_m, hi_m, deadline)
        sol = self._solution(pos, s, lo_m, hi_m, found_exact, {}, 0)
        lower, upper = sol.lower, sol.upper
        # a card not searched in time: the trivial bounds, narrowed by the seat's overall value (the best
        # card's value: no card is better for the seat than the value, in minimum tricks none lower)
        for group in open_groups:
            for c in group:
                bounds[CARDS[c]] = (lower, top) if pos.misere else (base, upper)
        # a card cut short: no card is better for the seat than the value, so its bounds narrow by it too
        for card, (lo_c, hi_c) in bounds.items():
            bounds[card] = (max(lo_c, lower), hi_c) if pos.misere else (lo_c, min(hi_c, upper))
        return Solution(s, upper if pos.misere else lower, lower, upper, sol.exact and exact, values,
                        self.nodes - n0, pos.misere,
                        dict(sorted(bounds.items(), key=lambda kv: kv[0].id)))

    def _group_values(self, pos: Position, s: int, groups: list[list[int]], deadline: float | None) -> list[Solution | None]:
        """The seat's value after the first card of each group (one table serves them all: the positions
        after the cards share most of their subtrees); ``None``: not searched, the time ran out.

        Untimed, each group in turn. Timed, the time is shared so that one hard card does not starve the others:
        a first pass gives each group in turn the time left divided by the number of groups still to search
        plus one (the one a share kept back for the groups cut short and for the overall value, which
        :meth:`solve` searches last); time a group leaves unused goes to the later ones. Then passes over the
        groups cut short give each in turn the time left divided by the number of them still to resume in the
        pass, until none is open or the time is up; each resumes on the bounds it reached, from the test it was
        cut short on (the table keeps what it learnt)."""
        children = [pos.play_unchecked(group[0]) for group in groups]
        # per group, the maximiser's count of the tricks left after its card: (lo, hi, exact, next test), and
        # the nodes spent; None: not searched
        found: list[tuple[int, int, bool, int] | None] = [None] * len(groups)
        nodes = [0] * len(groups)
        for i, child in enumerate(children):
            n0 = self.nodes
            if deadline is None:
                found[i] = self._bounds(child, s, 0, child.remaining, None)
            else:
                left = deadline - self._now()
                if left <= 0 or self._interrupted:
                    break
                found[i] = self._bounds(child, s, 0, child.remaining, self._now() + left / (len(groups) - i + 1))
            nodes[i] = self.nodes - n0
        while deadline is not None:
            cut = [i for i, f in enumerate(found) if f is not None and not f[2]]
            start = self._now()
            for j, i in enumerate(cut):
                left = deadline - self._now()
                if left <= 0 or self._interrupted:
                    break
                f = found[i]
                assert f is not None
                lo, hi, _, test = f
                n0 = self.nodes
                found[i] = self._bounds(children[i], s, lo, hi, self._now() + left / (len(cut) - j), test)
                nodes[i] += self.nodes - n0
            # another pass while time is left (the last group of a pass finished early), unless the clock
            # stood still (a pass that found no group to resume, or a clock that does not count this search)
            if not cut or self._interrupted or deadline - self._now() <= 0 or self._now() <= start:
                break
        return [None if f is None else self._solution(child, s, f[0], f[1], f[2], {}, n)
                for child, f, n in zip(children, found, nodes, strict=True)]

    def can_reach(self, pos: Position, seat: int, t: int, *, time_limit: float | None = None) -> bool:
        """Whether ``seat`` can make at least ``t`` tricks in the deal (taken ones included) against the others
        together; in minimum tricks, whether it can hold itself to at most ``t`` tricks.

        Raises:
            PositionError: when ``seat`` is not a seat of the position.
            SolverTimeout: when ``time_limit`` (seconds) runs out first; it carries the bounds found.
            ValueError: when ``t`` is not an int, or ``time_limit`` is not a number (an infinite one is no limit).
        """
        s = self._check(pos, seat)
        time_limit = self._limit(time_limit)
        if isinstance(t, bool):
            raise ValueError(f"t={t!r} is not a trick count: give an int")
        try:
            t = operator.index(t)
        except TypeError:
            raise ValueError(f"t={t!r} is not a trick count: give an int") from None
        rem = pos.remaining
        base = pos.tricks[s]
        need = (rem - (t - base)) if pos.misere else (t - base)
        if need <= 0:
            return True
        if need > rem:
            return False
        if time_limit is not None:
            warm_up()
        deadline = self._deadline(time_limit)
        lo, hi, exact, _ = self._bounds(pos, s, need - 1, need, deadline)
        if not exact:
            # the search only tested ``need``: lo..hi above was its window, not bounds - nothing is known
            sol = self._solution(pos, s, 0, rem, False, {}, 0)
            raise SolverTimeout(f"no answer within {time_limit} s; the value lies in {sol.lower}..{sol.upper}",
                                sol.lower, sol.upper)
        return lo >= need


def _search_thread(hands: Any, trick: Any, args: tuple[int, ...], tt: Any, tt_mask: int, moves: Any, frames: Any,
                   tk: Any, stats: Any, shared: Any, out: Any, guess: int, done: threading.Event) -> None:
    """A thread of a search (a helper, :meth:`Solver._start_helpers`, or the main search of a long one): the
    tests, then stop the others and say it is done (the last thing it does: the solver's arrays are free)."""
    try:
        _run(hands, trick, args, tt, tt_mask, moves, frames, tk, stats, shared, out, guess)
    finally:
        shared[0] = 1
        done.set()


def _run(hands: Any, trick: Any, args: tuple[int, ...], tt: Any, tt_mask: int, moves: Any, frames: Any, tk: Any,
         stats: Any, shared: Any, out: Any, guess: int) -> None:
    """:func:`._kernels.solve_bounds` on ``args`` = ``(n, tlen, leader, trump, must_trump, must_over, seat, misere,
    lo, hi, remaining)``."""
    n, tlen, leader, trump, must_trump, must_over, seat, misere, lo, hi, remaining = args
    if _BACKGROUND:  # another process compiles the search: wait for it (in every thread) and load it, not compile it twice
        _BACKGROUND[0].wait()
        warm_up()
    solve_bounds(hands, n, trick, tlen, leader, trump, must_trump, must_over, seat, misere, lo, hi, remaining, tt,
                 tt_mask, moves, frames, tk, stats, shared, out, guess)


def equivalent_groups(pos: Position) -> list[list[int]]:
    """The legal cards of the seat to move, grouped into runs of equivalent cards (touching in one suit
    once the cards played in earlier tricks are removed; cards in the trick in progress still separate).
    Each group is high to low."""
    legal = pos.legal_mask()
    present = 0
    for h in pos.hands:
        present |= h
    for c in pos.trick:
        present |= 1 << c
    groups: list[list[int]] = []
    for suit in range(4):
        cur: list[int] = []
        for r in range(12, -1, -1):
            c = 13 * suit + r
            if not present >> c & 1:
                continue
            if legal >> c & 1:
                cur.append(c)
            elif cur:
                groups.append(cur)
                cur = []
        if cur:
            groups.append(cur)
    return groups


_WARM: list[bool] = []
# held by the thread warming up: another thread's warm_up waits until the search is loaded (its time limits start then)
_WARM_LOCK = threading.RLock()
_NO_LIMIT = 365.0 * 24 * 3600  # seconds: a time limit this long or longer is no limit (a deadline past it overflows)


_BACKGROUND: list[subprocess.Popen[bytes]] = []  # the process compiling the search for numba's on-disk cache, if any
# niced: the process that started it plays on meanwhile (the expert's first cards)
_WARM_CODE = "import os; os.nice(10); from sergeant_major.search.solver import warm_up; warm_up()"
# the second compiling process: its share of WARM_UP_KERNELS (sys.argv[1] the folder of claims, which it removes once
# this process has said its next step or ended), then the search if this process asks for it on stdin (start_warm_up),
# then the kernels of compile_also named in sys.argv[2:]
_HELPERS_CODE = ("import importlib, shutil, sys\n"
                 "from sergeant_major.search.jit import compile_claimed, compile_declared\n"
                 "from sergeant_major.search.kernels import WARM_UP_KERNELS, solve_bounds\n"
                 "try:\n"
                 "    compile_claimed(WARM_UP_KERNELS[::-1], sys.argv[1])\n"
                 "    print('ready', flush=True)\n"  # this process gone: a broken pipe, and the end below
                 "    step = sys.stdin.readline().strip()\n"
                 "finally:\n"
                 "    shutil.rmtree(sys.argv[1], ignore_errors=True)\n"
                 "if step == 'search':\n"
                 "    compile_declared(solve_bounds)\n"
                 "for a in sys.argv[2:]:\n"
                 "    for k in getattr(importlib.import_module(a.split(':')[0]), a.split(':')[1]): compile_declared(k)")
_TINY = "9-5-2 | H | 0 | 6-5-3 | AK... / QJ... / T9... | -"  # two tricks left: runs the search, guess and play-outs
_READY_WAIT = 60.0  # seconds warm_up waits at most for the second process's share before compiling it itself
_COMPILING: list[subprocess.Popen[bytes]] = []  # warm_up's second process, compiling the kernels of compile_also
_ALSO: list[str] = []  # "module:name" of kernel tuples the second compiling process compiles after its share


def compile_also(module: str, name: str) -> None:
    """Have :func:`warm_up`'s second compiling process compile, after its share of the search's kernels, the
    :func:`~.jit.jit` kernels of the tuple ``name`` in ``module`` (by their declared argument types,
    :func:`~.jit.compile_declared`): how a layer above this one (the expert player) gets its kernels compiled beside
    the search without this layer importing it."""
    entry = f"{module}:{name}"
    if entry not in _ALSO:
        _ALSO.append(entry)


def wait_for_compile_also() -> None:
    """Wait until :func:`warm_up`'s second process has compiled the kernels registered with :func:`compile_also`
    (it does after the search's share, while this process compiles the search), so that this process loads them
    from numba's on-disk cache instead of compiling them too. Returns at once when no such process runs."""
    while _COMPILING:
        _COMPILING[0].wait()
        _COMPILING.pop(0)


def _start(code: str, *args: str, pipes: bool = False) -> subprocess.Popen[bytes] | None:
    """A Python process running ``code`` (with ``args`` in its ``sys.argv[1:]``) with this package importable, or
    None if none can be started. ``pipes``: its stdin and stdout are pipes to this process (else closed)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds sergeant_major/
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
    pipe = subprocess.PIPE if pipes else subprocess.DEVNULL
    try:
        return subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdin=pipe, stdout=pipe,
                                stderr=subprocess.DEVNULL)
    except OSError:  # no way to start a process: the compile runs here
        return None


def _tell(proc: subprocess.Popen[bytes], what: str) -> None:
    """Send :data:`_HELPERS_CODE`'s process its next step (``search`` or nothing) and close its input."""
    stdin = proc.stdin
    assert stdin is not None
    try:
        stdin.write(what.encode() + b"\n")
        stdin.close()
    except OSError:  # it has died: whatever it has not cached is compiled here when needed
        pass


def _share_out(search_there: bool) -> tuple[subprocess.Popen[bytes] | None, str]:
    """With an empty numba cache, start the second compiling process (:data:`_HELPERS_CODE`) and compile this
    process's share of :data:`~.kernels.WARM_UP_KERNELS`; that process compiles the kernels of :func:`compile_also`
    after its share unless ``search_there`` (then they compile where first used). Returns the process (None when
    the cache holds the search, or no process starts) and the folder of claims."""
    if _BACKGROUND or kernels_cached():
        return None, ""
    claims = tempfile.mkdtemp(prefix="sm-compile-")
    proc = _start(_HELPERS_CODE, claims, *([] if search_there else _ALSO), pipes=True)
    if proc is None:
        shutil.rmtree(claims, ignore_errors=True)
        return None, ""
    Position.parse(_TINY).legal_mask()  # the legal cards of a Position (its own specialization)
    compile_claimed(WARM_UP_KERNELS, claims)
    return proc, claims


def _ready(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait at most ``timeout`` seconds for ``proc`` (:data:`_HELPERS_CODE`) to say it has compiled its share;
    False if it did not (it failed, or is too slow)."""
    said: list[bytes] = []
    stdout = proc.stdout
    assert stdout is not None
    reader = threading.Thread(target=lambda: said.append(stdout.readline()), name="sm-compile-ready", daemon=True)
    reader.start()
    reader.join(timeout)
    return bool(said) and said[0].strip() == b"ready"


def kernels_cached() -> bool:
    """Does numba's on-disk cache hold the compiled search for the current source (so that :func:`warm_up`
    takes about a second, not tens)? False without numba, and when the cache cannot be read (then one assumes a
    compile)."""
    if not HAVE_NUMBA:
        return False
    try:  # numba's cache index of the search kernel (not public API: any surprise means "unknown")
        index = solve_bounds._cache._cache_file._load_index()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a numba without these attributes, an unreadable index
        return False
    return bool(index)


def warm_up_in_background() -> bool:
    """Start compiling the search kernels in another Python process, which fills numba's on-disk cache, unless
    they are cached already, this process has them, or numba is absent. Returns whether it started one.

    For a caller that needs the double-dummy search only later (the expert player searches double dummy from 27
    cards left, its first cards use play-outs): its first decisions do not wait for the compile (tens of seconds
    with a cold cache), and :func:`warm_up` then waits for that process and loads the cache. The process runs
    on after this one exits, to finish the cache for the next run."""
    if not HAVE_NUMBA or _WARM or _BACKGROUND or kernels_cached():
        return False
    proc = _start(_WARM_CODE)
    if proc is None:  # warm_up compiles here when the search is first needed
        return False
    _BACKGROUND.append(proc)
    return True


def warm_up() -> None:
    """Compile the search kernels (numba) by solving a tiny position once per process, so that the
    compilation (seconds with a cold numba cache) is not charged to a caller's time limit. Called by
    :class:`Solver` before a timed search starts; a no-op after the first call and without numba. If
    :func:`warm_up_in_background` or :func:`start_warm_up` started a compile, waits for it first and then loads
    its cache (or compiles here, if that process failed). With an empty cache, shares the kernels out with a
    second process (docs/solver.md, "The first run"). Thread-safe: a call while another thread warms up returns
    when that one has finished."""
    with _WARM_LOCK:
        _warm_up()


def _warm_up() -> None:
    """:func:`warm_up`'s work, under its lock (a call from the thread warming up, through the tiny search, returns)."""
    if _WARM:
        return
    _WARM.append(True)
    for proc in _BACKGROUND:
        proc.wait()
    if not HAVE_NUMBA:
        return
    helper, claims = _share_out(False)
    ready = helper is not None and _ready(helper, _READY_WAIT)
    if helper is not None:
        shutil.rmtree(claims, ignore_errors=True)
        if ready:  # it compiles on the kernels of compile_also (the expert's), for this process to load
            _tell(helper, "")
            _COMPILING.append(helper)
        else:  # what it has not finished, this process compiles and caches
            helper.kill()
            helper.wait()
    tiny = Position.parse(_TINY)
    solver = Solver(tt_bits=8)
    solver.solve(tiny, 0)
    solver.value(tiny, 1)


def start_warm_up() -> None:
    """Begin :func:`warm_up` and return before the search is compiled, for a caller with other work first (a
    review's expert estimates, which need the play-outs): with an empty numba cache, this process compiles the
    play-outs and its share of the search's helpers, and the second process its share and then the search; the
    first search (its :func:`warm_up`) waits for that process and loads the search from numba's on-disk cache. The
    kernels of :func:`compile_also` compile where first used (the expert's minimum-tricks play-outs: only for a
    minimum-tricks deal). Otherwise the same as :func:`warm_up`."""
    if _WARM or not HAVE_NUMBA:
        return
    for proc in _BACKGROUND:
        proc.wait()
    helper, _ = _share_out(True)
    if helper is None:
        warm_up()
        return
    _tell(helper, "search")  # it removes the claims once it has finished its share
    _BACKGROUND.append(helper)


_DEFAULT: list[Solver] = []


def default_solver() -> Solver:
    """The shared solver used by the module-level functions (created on first use)."""
    if not _DEFAULT:
        _DEFAULT.append(Solver())
    return _DEFAULT[0]


def solve(pos: Position, seat: int | None = None, *, cards: bool = True, time_limit: float | None = None) -> Solution:
    """:meth:`Solver.solve` on the shared solver."""
    return default_solver().solve(pos, seat, cards=cards, time_limit=time_limit)


def can_reach(pos: Position, seat: int, t: int, *, time_limit: float | None = None) -> bool:
    """:meth:`Solver.can_reach` on the shared solver."""
    return default_solver().can_reach(pos, seat, t, time_limit=time_limit)


def card_values(pos: Position, seat: int | None = None) -> dict[Card, int]:
    """The value for ``seat`` (default: the one to move) after each of its legal cards."""
    return default_solver().solve(pos, seat).cards
