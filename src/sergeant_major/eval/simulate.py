"""Simulation: many whole matches between computer players, with statistics per player.

Library entry point :func:`simulate` (returns a :class:`SimulationSummary`); the command
``sergeant-major simulate`` is :mod:`sergeant_major.cli.simulate`.

Seat and role balance
    The players are given as a list of levels, one *slot* per seat (``heuristic,random,random``: slot 0
    is the heuristic player). The first dealer of every match is seat 0 (not drawn from the seed), and
    :func:`seat_slots` puts the slots in the seats: game ``g`` (0-based) takes the cyclic order number
    ``(g // n) % (n-1)!`` of the slots (slot 0 first, then a permutation of the others; for 3 players
    ``0 1 2`` and ``0 2 1``) and rotates it by ``r = g % n``: seat ``s`` is played by ``order[(s + r) % n]``.
    So every block of ``n`` consecutive games puts every slot once in each seat, and so makes it the
    *first* dealer exactly once; as the deal passes to the left after every deal (docs/rules.md reference decision 7),
    each slot then holds each seat role (dealer, eldest hand, third) equally often up to the last,
    unfinished rotation of each match. Every block of ``n!`` games also balances who sits to whose left
    (with a fixed cyclic order, one random player would always sit to the left of the heuristic one and
    be eldest hand whenever it deals). Use a number of games that is a multiple of ``n!`` (6 for 3 players)
    for an exact balance.

Determinism
    Game ``g`` plays the match with seed :func:`game_seed` ``(seed, g)`` (48 bits, derived by BLAKE2b from
    the simulation seed and ``g``); the players' own generators derive from that match seed
    (:func:`~sergeant_major.players.decision_rng`). The games are split over ``workers`` processes in
    chunks and merged in game order, so the summary (and the ``--out`` file) is the same whatever the
    number of workers.

Statistics
    Per slot: matches won (a win shared by ``k`` players counts ``1/k`` to each; outright and shared wins
    are also counted separately), the mean score per deal with a 95% confidence interval, the mean
    over-tricks per deal (``tricks - target``; negative: under-tricks; inverted in minimum tricks,
    docs/rules.md reference decision 3), the mean tricks taken in each seat role, and the matches won by taking the
    rules' ``instant-win`` number of tricks (12+) in one deal. The win rate has a 95% Wilson score interval
    over the matches (each an independent trial, a shared win counting ``1/k``; :func:`~sergeant_major.eval.stats.share_interval`),
    inside 0..100% also at 0 or all wins. Deals of one match are not independent
    (the exchange carries over), so the confidence intervals treat each match as one cluster: the
    ratio estimator ``sum(T_m) / sum(D_m)`` with the cluster-robust standard error
    ``sqrt(M/(M-1) * sum((T_m - mean*D_m)^2)) / sum(D_m)`` over the ``M`` matches (``T_m``: the slot's
    total in match ``m``, ``D_m``: its deals); the interval is ``mean +- t * se`` with Student's ``t(0.975, M-1)``
    (12.7 for 2 matches, 2.04 for 31, 1.96 for many: 1.96 for any ``M`` made the intervals of a few matches too narrow).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Generator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sergeant_major.core.deal import ROLE_NAMES
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.seeding import check_whole
from sergeant_major.eval.levels import parse_levels, run_inputs
from sergeant_major.eval.stats import cluster_ratio_ci, share_interval
from sergeant_major.eval.workers import worker_pool
from sergeant_major.players import drive, make_player

__all__ = ["simulate", "MAX_GAMES", "SimulationSummary", "PlayerStats", "GameOutcome", "play_game", "game_seed", "parse_levels", "default_levels",
           "seat_slots", "result_schema_path"]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called in the calling process after each finished match, in game order."""


# ---------------------------------------------------------------------------------------------- one game
@dataclass(frozen=True)
class GameOutcome:
    """The statistics of one finished match, by player slot (not by seat).

    Attributes:
        game: the game index ``0..games-1``.
        seed: the match seed (:func:`game_seed`).
        rotation: ``game % players``: how far the slots' cyclic order was turned (:func:`seat_slots`).
        slots: the slot at each seat (:func:`seat_slots`).
        deals: deals played in the match (>= 1).
        winners: the winning slots (several on a shared win).
        reason: the end in words (:class:`~sergeant_major.core.match.MatchEnd`).
        instant: the slot that won by the ``instant-win`` trick count in one deal, else ``None``.
        score: each slot's total score over the match (the sum of its deal scores).
        over: each slot's total over-tricks as the exchange counts them (:attr:`DealResult.diffs`: ``tricks - target``,
            inverted in minimum tricks), summed over deals; negative: under-tricks.
        role_tricks: per slot, the tricks taken in each seat role (0 dealer, 1 eldest, 2 third, ...).
        role_deals: per slot, the deals played in each seat role.
    """

    game: int
    seed: int
    rotation: int
    slots: tuple[int, ...]
    deals: int
    winners: tuple[int, ...]
    reason: str
    instant: int | None
    score: tuple[int, ...]
    over: tuple[int, ...]
    role_tricks: tuple[tuple[int, ...], ...]
    role_deals: tuple[tuple[int, ...], ...]


def game_seed(seed: int, game: int) -> int:
    """The match seed of game ``game`` of a simulation with ``seed``: 48 bits of BLAKE2b of both."""
    digest = hashlib.blake2b(f"sergeant-major/simulate/{seed}/{game}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def seat_slots(players: int, game: int) -> tuple[int, ...]:
    """The player slot at each seat in game ``game`` (module doc, "Seat and role balance").

    Games ``0..n-1`` are the rotations of ``(0, 1, ..., n-1)``: seat ``s`` gets slot ``(s + g) % n``;
    the next blocks of ``n`` games rotate the other cyclic orders (for 3 players: ``(0, 2, 1)``).
    """
    orders = _cyclic_orders(players)
    order = orders[(game // players) % len(orders)]
    r = game % players
    return tuple(order[(s + r) % players] for s in range(players))


@functools.cache
def _cyclic_orders(players: int) -> tuple[tuple[int, ...], ...]:
    return tuple((0, *p) for p in itertools.permutations(range(1, players)))


def play_game(rules: Rules, levels: Sequence[str], seed: int, game: int) -> tuple[GameOutcome, Match]:
    """Play game ``game`` of a simulation: the match with seed :func:`game_seed` ``(seed, game)``, the first
    dealer at seat 0, the slots rotated through the seats as :func:`seat_slots` says.

    Returns:
        the outcome (by slot) and the finished match (by seat; names ``'<slot+1>:<level>'``).

    Raises:
        SergeantMajorError: an unknown level, or a level count that is not the rules' player count.
    """
    n = rules.players
    if len(levels) != n:
        raise SergeantMajorError(f"{len(levels)} player{'' if len(levels) == 1 else 's'} given ({','.join(levels)}) for rules with {n} players")
    slots = seat_slots(n, game)
    players = [make_player(levels[slots[s]]) for s in range(n)]
    names = [f"{slots[s] + 1}:{levels[slots[s]]}" for s in range(n)]
    mseed = game_seed(seed, game)
    match = Match(rules, mseed, names, dealer=0)
    drive(match, players)
    end = match.end
    assert end is not None
    score = [0] * n
    over = [0] * n
    role_tricks = [[0] * n for _ in range(n)]
    role_deals = [[0] * n for _ in range(n)]
    for deal, res in zip(match.deals, match.results, strict=True):
        for s in range(n):
            i = slots[s]
            role = (s - deal.dealer) % n
            score[i] += res.scores[s]
            over[i] += res.diffs[s]
            role_tricks[i][role] += res.tricks[s]
            role_deals[i][role] += 1
    instant: int | None = None
    last = match.results[-1]
    if rules.instant_win is not None and len(end.winners) == 1 and last.tricks[end.winners[0]] >= rules.instant_win:
        instant = slots[end.winners[0]]
    outcome = GameOutcome(
        game=game, seed=mseed, rotation=game % n, slots=slots, deals=len(match.results),
        winners=tuple(sorted(slots[s] for s in end.winners)), reason=end.reason, instant=instant,
        score=tuple(score), over=tuple(over),
        role_tricks=tuple(tuple(r) for r in role_tricks), role_deals=tuple(tuple(r) for r in role_deals),
    )
    return outcome, match


def _worker(rules: Rules, levels: tuple[str, ...], seed: int, records: bool, game: int) -> tuple[GameOutcome, str | None]:
    outcome, match = play_game(rules, levels, seed, game)
    line = None
    if records:
        from sergeant_major.records.format import match_to_record

        n = rules.players
        slots = outcome.slots
        meta = {"program": "sergeant-major simulate", "simulation_seed": seed, "game": game,
                "slots": [slots[s] + 1 for s in range(n)]}
        rec = match_to_record(match, [levels[slots[s]] for s in range(n)], meta)
        line = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
    return outcome, line


# ---------------------------------------------------------------------------------------------- summary
@dataclass(frozen=True)
class PlayerStats:
    """Statistics of one player slot over a simulation.

    Attributes:
        slot: the slot number, 1-based, as given in the ``--players`` list.
        level: the player level (``heuristic``, ``random``).
        matches: matches played.
        wins: matches won, a win shared by ``k`` players counting ``1/k``.
        outright_wins: matches won alone.
        shared_wins: matches whose win was shared with another player.
        instant_wins: matches won by taking the ``instant-win`` tricks (12+) in one deal; ``None`` when the
            rules have no instant win.
        deals: deals played.
        mean_score: mean score per deal (units of the rules' scoring: points, counters or chips).
        score_ci95: half-width of the 95% confidence interval of :attr:`mean_score` (``None`` below 2 matches).
        mean_over: mean over-tricks per deal (:attr:`DealResult.diffs`: ``tricks - target``, inverted in minimum
            tricks; negative: under-tricks).
        over_ci95: half-width of the 95% confidence interval of :attr:`mean_over`.
        win_pct_ci95: ``(low, high)``, the 95% Wilson score interval of the win rate in percent (0..100),
            ``None`` below 2 matches.
        mean_tricks_by_role: mean tricks per deal in each seat role, ``{"dealer": 8.1, "eldest": ...}``
            (``None`` for a role never held).
    """

    slot: int
    level: str
    matches: int
    wins: float
    outright_wins: int
    shared_wins: int
    instant_wins: int | None
    deals: int
    mean_score: float
    score_ci95: float | None
    mean_over: float
    over_ci95: float | None
    mean_tricks_by_role: dict[str, float | None]
    win_pct_ci95: tuple[float, float] | None = None

    @property
    def label(self) -> str:
        """``'1:heuristic'``: slot and level."""
        return f"{self.slot}:{self.level}"


@dataclass(frozen=True)
class SimulationSummary:
    """The result of :func:`simulate`: the same for the same rules, levels, games and seed, whatever the workers.

    Attributes:
        rules: the rules' string form.
        levels: the player levels by slot.
        games: matches played.
        seed: the simulation seed.
        deals: deals played in all.
        mean_deals: mean deals per match.
        players: statistics by slot.
    """

    rules: str
    levels: tuple[str, ...]
    games: int
    seed: int
    deals: int
    mean_deals: float
    players: tuple[PlayerStats, ...]

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict (``label`` added to each player; lists, no tuples), a document of
        ``simulate_result_schema.json`` (:func:`result_schema_path`)."""
        d = asdict(self)
        d["levels"] = list(self.levels)
        d["players"] = list(d["players"])  # lists, as json.loads gives them back (the schema says array)
        for p, pd in zip(self.players, d["players"], strict=True):
            pd["label"] = p.label
            if pd["win_pct_ci95"] is not None:
                pd["win_pct_ci95"] = list(pd["win_pct_ci95"])
        return d


def result_schema_path() -> Path:
    """The path of ``simulate_result_schema.json``: the JSON Schema (draft 2020-12) of :meth:`SimulationSummary.to_json`,
    which ``sergeant-major simulate --json`` prints."""
    return Path(__file__).with_name("simulate_result_schema.json")


def summarize(rules: Rules, levels: Sequence[str], seed: int, outcomes: Sequence[GameOutcome]) -> SimulationSummary:
    """Merge game outcomes (in game order) into a :class:`SimulationSummary`.

    Raises:
        SergeantMajorError: when ``outcomes`` is empty.
    """
    if not outcomes:
        raise SergeantMajorError("no games to summarize")
    n = rules.players
    sizes = [o.deals for o in outcomes]
    stats: list[PlayerStats] = []
    for i in range(n):
        wins = 0.0
        outright = shared = instant = 0
        for o in outcomes:
            if i in o.winners:
                wins += 1 / len(o.winners)
                if len(o.winners) == 1:
                    outright += 1
                else:
                    shared += 1
            if o.instant == i:
                instant += 1
        iv = share_interval([1 / len(o.winners) if i in o.winners else 0.0 for o in outcomes], 1)
        win_ci = None if iv is None else (round(100 * iv[0], 3), round(100 * iv[1], 3))
        mean_score, score_ci = cluster_ratio_ci([o.score[i] for o in outcomes], sizes)
        mean_over, over_ci = cluster_ratio_ci([o.over[i] for o in outcomes], sizes)
        by_role: dict[str, float | None] = {}
        for role in range(n):
            t = sum(o.role_tricks[i][role] for o in outcomes)
            d = sum(o.role_deals[i][role] for o in outcomes)
            by_role[ROLE_NAMES[role]] = t / d if d else None
        stats.append(PlayerStats(
            slot=i + 1, level=levels[i], matches=len(outcomes), wins=wins, outright_wins=outright, shared_wins=shared,
            instant_wins=instant if rules.instant_win is not None else None, deals=sum(sizes),
            mean_score=mean_score, score_ci95=score_ci, mean_over=mean_over, over_ci95=over_ci,
            mean_tricks_by_role=by_role, win_pct_ci95=win_ci,
        ))
    return SimulationSummary(rules=str(rules), levels=tuple(levels), games=len(outcomes), seed=seed, deals=sum(sizes),
                             mean_deals=sum(sizes) / len(outcomes), players=tuple(stats))


def default_levels(players: int) -> str:
    """The default line-up for ``players`` seats (2..4): one heuristic player and random ones in the other
    seats, e.g. ``'heuristic,random,random'`` for three."""
    return ",".join(["heuristic"] + ["random"] * (players - 1))


MAX_GAMES = 1_000_000
"""The most matches ``sergeant-major simulate --games`` plays in one run: at a few hundred matches a second per core
already hours of play, and the outcomes kept for the statistics (about 650 bytes each) stay below a gigabyte.
More asked is refused at once rather than run for days (or until the memory is gone); a run with another
``--seed`` gives more matches."""


def _chunks(games: int, workers: int) -> int:
    return max(1, min(32, games // (workers * 8)))


def simulate_iter(rules: Rules | str, levels: str | Sequence[str], games: int, seed: int = 0, workers: int = 1,
                  records: bool = False, first: int = 0) -> Generator[tuple[GameOutcome, str | None], None, None]:
    """Play games ``first .. first+games-1`` and yield ``(outcome, record line or None)`` in game order.

    ``records=True`` adds each match's record as one line of compact JSON (:func:`~sergeant_major.records.match_to_record`).
    ``workers > 1`` spreads the games over that many processes (chunks, results merged in game order).

    Raises:
        SergeantMajorError: bad rules, levels or seed, counts that are not whole numbers, ``games < 1`` or
            ``workers < 1``.
    """
    rules, lv, seed = run_inputs(rules, levels, seed, "simulate")
    for name, value in (("games", games), ("workers", workers), ("first", first)):
        check_whole(value, name, "simulate")
    if games < 1:
        raise SergeantMajorError(f"games={games}: play at least 1 game")
    if workers < 1:
        raise SergeantMajorError(f"workers={workers}: use at least 1 worker")
    if first < 0:
        raise SergeantMajorError(f"first={first}: game indices start at 0")
    work = functools.partial(_worker, rules, lv, seed, records)
    workers = min(workers, games)
    if workers == 1:
        for g in range(first, first + games):
            yield work(g)
        return
    with worker_pool(workers) as pool:  # workers quiet on Ctrl-C and hang-up, ended when this generator stops
        yield from pool.imap(work, range(first, first + games), chunksize=_chunks(games, workers))


def simulate(rules: Rules | str, levels: str | Sequence[str], games: int, seed: int = 0, workers: int = 1,
             progress: Progress | None = None) -> SimulationSummary:
    """Play ``games`` whole matches between computer players and summarize them by player slot.

    Args:
        rules: the rules in force, or their string form (``"3-5-8"``).
        levels: player levels by slot (``["heuristic", "random", "random"]`` or ``"heuristic,random,random"``), one
            per seat; they rotate through the seats (module doc).
        games: number of matches (>= 1).
        seed: the simulation seed, a whole number ``0 <= seed < 2**62``; game ``g`` uses match seed
            ``game_seed(seed, g)``.
        workers: processes to use (>= 1); the result does not depend on it.
        progress: optional ``progress(done, total)`` callback.

    Raises:
        SergeantMajorError: bad rules, levels or seed, counts that are not whole numbers, ``games < 1`` or
            ``workers < 1``.
    """
    rules, levels, seed = run_inputs(rules, levels, seed, "simulate")
    outcomes: list[GameOutcome] = []
    for outcome, _ in simulate_iter(rules, levels, games, seed, workers):
        outcomes.append(outcome)
        if progress is not None:
            progress(len(outcomes), games)
    return summarize(rules, levels, seed, outcomes)
