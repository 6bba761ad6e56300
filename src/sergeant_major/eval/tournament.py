"""Duplicate tournaments: the same deals played with the players in every seat arrangement.

Library entry point :func:`tournament` (returns a :class:`TournamentResult`) and the command
``sergeant-major tournament`` (registered on :data:`sergeant_major.cli.app.app` when this module is imported).
The method, and figures measured with it, are in ``docs/tournament.md``.

Slots and arrangements
    The players are given as a list of levels, one *slot* per seat (``expert,heuristic,heuristic``: slot 1
    is the expert). An *arrangement* is a permutation ``p`` of the slots: seat ``s`` is played by slot
    ``p[s]``. Every board is played in all ``n!`` arrangements (6 with three players; 24 with four), also
    when two slots hold the same level, so every slot sits in every seat (dealer, eldest hand, third)
    exactly ``(n-1)!`` times on every board and holds every hand of the board equally often.

Boards
    A *board* is one deal: the cards (hands and kitty, from :func:`~sergeant_major.core.match.deal_cards` with
    the board's seed), the dealer, and the exchange situation. By default a board is *deal 2 of a seeded
    match* whose deal 1 was played by three ``heuristic`` players: the previous deal's over- and
    under-tricks (by seat) decide the exchange exactly as in a match (seeds 000/004 "Exchanging cards";
    RULES.md decisions 2, 3, 5), and the views carry that deal's result and totals. So boards include the
    exchange with the frequency and sizes that real play produces, and every arrangement meets the same
    exchange situation (the same seats are up and down). ``first_deals=True`` plays boards as first deals
    (no exchange). Boards are independent single deals: match-level rules (``contract-once`` in 3-5-8,
    the game end) do not apply to them, so in 3-5-8 the playmaker may choose any contract on every board;
    whole matches (``matches``) play them in full.

Players and generators
    Each game (a board in one arrangement, or a match in one arrangement) gets fresh player objects
    from :data:`~sergeant_major.players.LEVELS`, read at run time, so any level registered there can
    play. A player's generator for a decision is :func:`~sergeant_major.players.decision_rng` of the
    board (or match) seed, the *seat*, the deal number and the number of actions taken: it does not
    depend on the arrangement, so identical players produce identical games in every arrangement and
    the difference between them is exactly zero on every board.

Saving games
    Two arrangements that put the same levels in the same seats play the identical game (the players are
    deterministic functions of their view and the seat's generator). So each distinct assignment of levels
    to seats is played once per board or match and its result counted for every arrangement that gives it
    (``memo=True``): ``expert,heuristic,heuristic`` costs 3 games a board instead of 6, with exactly the
    figures of playing all ``n!``. This requires every level to budget by counts, never by wall time, and to
    draw randomness only from the generator it is given; ``memo=False`` plays every arrangement.

Oracle players (measurement only)
    A player that also has ``choose_with_state(deal, view, rng)`` (:class:`OraclePlayer`) is given a copy
    of the whole :class:`~sergeant_major.core.deal.Deal` (every hand and the kitty) with its view, for
    measuring how far a player is from perfect information. This happens only here, never in ``play``.

Statistics
    Per slot, per level and per pair of levels: the mean score per deal and the mean over-tricks per deal
    (``tricks - target``, inverted in minimum tricks as the exchange counts them, RULES.md decision 3),
    with 95% confidence intervals over boards. The unit is the board: a slot's mean over the ``n!``
    arrangements of one board (the arrangements of a board share its cards and are not independent;
    different boards are). The interval is ``mean +- t(0.975, B-1) * sd / sqrt(B)`` over the ``B`` board
    means (Student's t; 1.96 for large ``B``). Whole-match win rates (``matches`` seeded matches, each in
    every arrangement; a win shared by ``k`` players counts ``1/k``) use the match seed as the unit, with a
    Wilson score interval (:func:`~sergeant_major.eval.stats.share_interval`: inside 0..1, and not of width 0 when
    no match, or every match, was won).

Determinism
    Board ``b`` uses seed :func:`board_seed` ``(seed, b)`` and match ``m`` seed :func:`match_seed`
    ``(seed, m)`` (48 bits, BLAKE2b). The work is split over ``workers`` processes and merged in order,
    so the result is the same whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import itertools
import json
import math
import os
import random
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

from sergeant_major.core.actions import Action, Contract
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import Deal, DealResult
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match, deal_cards
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import quote, visible
from sergeant_major.core.view import View, build_view
from sergeant_major.eval.stats import share_interval, t975
from sergeant_major.eval.workers import worker_pool
from sergeant_major.players import LEVELS, MEASUREMENT_LEVELS, HeuristicPlayer, Player, decision_rng, make_player
from sergeant_major.records.files import FileTooLarge, NotRegularFile, file_mode, read_regular_file, renamed_onto
from sergeant_major.records.format import RECORD_FORMAT
from sergeant_major.records.pretty import quote_json
from sergeant_major.records.validation import loads_keys_once

__all__ = [
    "OraclePlayer", "Board", "BoardOutcome", "MatchOutcome", "Estimate", "SlotStats", "LevelStats", "Difference",
    "TournamentResult", "tournament", "tournament_iter", "summarize", "make_board", "play_board", "play_board_game",
    "play_match_game", "arrangements", "board_seed", "match_seed", "parse_players", "mean_ci", "share_ci", "merge_json",
    "read_result_file",
]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called in the calling process after each finished board or match, in order."""


@runtime_checkable
class OraclePlayer(Protocol):
    """A player that may be given the whole state, for measurement only (the ``oracle`` level).

    The tournament calls :meth:`choose_with_state` instead of ``choose`` for such a player, with a copy of
    the deal (changing it changes nothing) and the seat's view; it must return one of ``view.legal``.
    """

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal`` from the view alone."""
        ...

    def choose_with_state(self, deal: Deal, view: View, rng: random.Random) -> Action:
        """Return one of ``view.legal``, knowing every card of ``deal``."""
        ...


# ---------------------------------------------------------------------------------------------- seeds, seats
def _seed48(*parts: object) -> int:
    text = "/".join(str(p) for p in ("sergeant-major", "tournament", *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")


def board_seed(seed: int, board: int) -> int:
    """The seed of board ``board`` (0-based) of a tournament with ``seed``: 48 bits, from BLAKE2b."""
    return _seed48(seed, "board", board)


def match_seed(seed: int, match: int) -> int:
    """The seed of whole match ``match`` (0-based) of a tournament with ``seed``: 48 bits, from BLAKE2b."""
    return _seed48(seed, "match", match)


def arrangements(n: int) -> tuple[tuple[int, ...], ...]:
    """Every seat arrangement of ``n`` slots: ``p[seat] = slot``, all ``n!`` permutations in lexicographic order."""
    return tuple(itertools.permutations(range(n)))


def parse_players(text: str | Sequence[str], players: int) -> tuple[str, ...]:
    """Player levels from ``'expert,heuristic,heuristic'`` (or a list), one per slot, checked against
    :data:`~sergeant_major.players.LEVELS` as it is now, or the measurement-only
    :data:`~sergeant_major.players.MEASUREMENT_LEVELS` (``oracle``, which tournaments give the whole deal).

    Raises:
        SergeantMajorError: quoting an unknown or empty level or a wrong count.
    """
    items = [w.strip() for w in text.split(",")] if isinstance(text, str) else [str(w).strip() for w in text]
    known = [*LEVELS, *MEASUREMENT_LEVELS]
    for w in items:
        if w == "" and isinstance(text, str):  # 'heuristic,random,random,' or 'heuristic,,random': was "unknown level ''"
            what = "names no player level" if not text.strip() else "has an empty player level (a comma too many?)"
            raise SergeantMajorError(f"{text!r} {what}; give LEVEL,LEVEL,... "
                                     f"(levels: {', '.join(known)})")
        if w not in known:
            raise SergeantMajorError(f"unknown player level {w!r} in {text!r} (levels: {', '.join(known)})")
    if len(items) != players:
        raise SergeantMajorError(f"{len(items)} player{'' if len(items) == 1 else 's'} given in {text!r}; these rules need {players}")
    return tuple(items)


# ---------------------------------------------------------------------------------------------- boards
@dataclass(frozen=True)
class Board:
    """One board: a deal to be played in every arrangement.

    Attributes:
        index: the board number, 0-based.
        seed: the board seed (cards of the board and of its previous deal, players' generators).
        dealer: the dealer's seat.
        number: the deal number the board is played as (2 after a previous deal, else 1).
        hands: each seat's cards in the order dealt.
        kitty: the kitty's cards.
        prev: the previous deal's result (played by ``heuristic`` players), or ``None`` for a first deal.
    """

    index: int
    seed: int
    dealer: int
    number: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    prev: DealResult | None


def _play_deal(rules: Rules, deal: Deal, players: Sequence[Player], seed: int, names: tuple[str, ...],
               totals: tuple[int, ...], results: tuple[DealResult, ...],
               left: tuple[tuple[Contract, ...], ...]) -> DealResult:
    while deal.result is None:
        forced = deal.forced_action()
        if forced is not None:
            deal.apply(forced)
            continue
        seat = deal.to_act
        assert seat is not None
        view = build_view(deal, seat, names, totals, results, left)
        rng = decision_rng(seed, seat, deal.number, len(deal.history))
        action = _decide(players[seat], deal, view, rng)
        if action not in view.legal:
            raise SergeantMajorError(f"player {players[seat].name!r} at seat {seat} chose an illegal action {action!r}")
        deal.apply(action)
    return deal.result


def _decide(player: Player, deal: Deal, view: View, rng: random.Random) -> Action:
    if isinstance(player, OraclePlayer):
        return player.choose_with_state(deal.clone(), view, rng)
    return player.choose(view, rng)


def make_board(rules: Rules, seed: int, index: int, first_deals: bool = False, dealer: int | None = None) -> Board:
    """Board ``index`` of a tournament with ``seed``.

    The dealer is seat ``index % n`` unless ``dealer`` is given. Unless ``first_deals``, the board is
    deal 2 of the match with the board seed: deal 1 (dealt by the seat before) is played by ``heuristic``
    players and its over- and under-tricks decide the board's exchange (module doc, "Boards").
    """
    n = rules.players
    bs = board_seed(seed, index)
    if dealer is None:
        dealer = index % n
    prev: DealResult | None = None
    number = 1
    if not first_deals:
        d0 = (dealer - 1) % n
        hands, kitty = deal_cards(rules, bs, 1, d0)
        first = Deal(rules, d0, hands, kitty, None, None, 1)
        names = tuple("heuristic" for _ in range(n))
        prev = _play_deal(rules, first, [HeuristicPlayer() for _ in range(n)], bs, names, (0,) * n, (), ())
        number = 2
    hands, kitty = deal_cards(rules, bs, number, dealer)
    return Board(index, bs, dealer, number, tuple(tuple(h) for h in hands), tuple(kitty), prev)


def _contracts_left(rules: Rules, board: Board) -> tuple[tuple[Contract, ...], ...]:
    if not rules.contract_once:
        return ()
    every = tuple(Contract) if rules.has_nt_mt else tuple(Contract)[:4]
    used: list[list[Contract]] = [[] for _ in range(rules.players)]
    if board.prev is not None:
        used[(board.dealer - 1 + rules.declarer_role) % rules.players].append(board.prev.contract)
    return tuple(tuple(c for c in every if c not in u) for u in used)


def play_board(rules: Rules, board: Board, players: Sequence[Player], names: Sequence[str] | None = None) -> DealResult:
    """Play ``board`` once with ``players`` by seat and return the deal's result (by seat).

    Raises:
        SergeantMajorError: when a player returns an illegal action.
    """
    res = _play_board(rules, board, players, names).result
    assert res is not None
    return res


def _play_board(rules: Rules, board: Board, players: Sequence[Player], names: Sequence[str] | None) -> Deal:
    n = rules.players
    prev = board.prev
    left = _contracts_left(rules, board)
    deal = Deal(rules, board.dealer, board.hands, board.kitty, prev.diffs if prev else None,
                left[(board.dealer + rules.declarer_role) % n] if left else None, board.number)
    nm = tuple(names) if names else tuple(p.name for p in players)
    totals = prev.scores if prev else (0,) * n
    _play_deal(rules, deal, players, board.seed, nm, totals, (prev,) if prev else (), left)
    return deal


# ---------------------------------------------------------------------------------------------- outcomes
@dataclass(frozen=True)
class BoardOutcome:
    """One board played in every arrangement, by slot (sums over the ``n!`` arrangements, exact integers).

    Attributes:
        index: the board number, 0-based.
        seed: the board seed.
        exchange: whether cards were exchanged in the board's deal (in at least one arrangement: in 3-5-8
            the exchange also depends on the contract chosen).
        scores: each slot's total score over the arrangements.
        over: each slot's total over-tricks (``tricks - target``; negative: under-tricks).
        tricks: each slot's total tricks.
    """

    index: int
    seed: int
    exchange: bool
    scores: tuple[int, ...]
    over: tuple[int, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True)
class MatchOutcome:
    """One seeded match played in every arrangement, by slot.

    Attributes:
        index: the match number, 0-based.
        seed: the match seed.
        wins: each slot's wins summed over the arrangements (a win shared by ``k`` counts ``1/k``).
        deals: deals played, summed over the arrangements.
    """

    index: int
    seed: int
    wins: tuple[float, ...]
    deals: int


def play_board_game(rules: Rules, levels: Sequence[str], seed: int, index: int, first_deals: bool = False,
                    duplicate: bool = True, memo: bool = True) -> BoardOutcome:
    """Play board ``index`` in every arrangement of the ``levels`` (fresh players for every game).

    With ``duplicate=False`` (for comparison only) each arrangement gets its own cards: arrangement ``a``
    plays the cards of board ``index * n! + a``, with the dealer still at seat ``index % n`` so that every
    slot deals equally often.

    With ``memo`` (the default; module doc, "Saving games"), each distinct assignment of levels to seats is
    played once and its result counted for every arrangement that gives it: ``expert,heuristic,heuristic``
    costs 3 games a board instead of 6. The outcome is identical to ``memo=False``, which plays all ``n!``
    games, because every level is a deterministic function of the view and the seat's generator.
    """
    n = rules.players
    arrs = arrangements(n)
    scores = [0] * n
    over = [0] * n
    tricks = [0] * n
    exchange = False
    board = make_board(rules, seed, index, first_deals) if duplicate else None
    played: dict[tuple[str, ...], tuple[DealResult, bool]] = {}
    for a, perm in enumerate(arrs):
        seating = tuple(levels[perm[s]] for s in range(n))
        if board is not None and memo and seating in played:
            res, ex = played[seating]  # the same levels in the same seats on the same cards: the same game
        else:
            b = board if board is not None else make_board(rules, seed, index * len(arrs) + a, first_deals, index % n)
            players = [make_player(seating[s]) for s in range(n)]
            names = tuple(f"{perm[s] + 1}:{levels[perm[s]]}" for s in range(n))
            deal = _play_board(rules, b, players, names)
            assert deal.result is not None
            res, ex = deal.result, bool(deal.exchange_log)
            played[seating] = (res, ex)
        exchange = exchange or ex
        for s in range(n):
            slot = perm[s]
            scores[slot] += res.scores[s]
            over[slot] += res.diffs[s]
            tricks[slot] += res.tricks[s]
    return BoardOutcome(index, board.seed if board is not None else board_seed(seed, index * len(arrs)),
                        exchange, tuple(scores), tuple(over), tuple(tricks))


def _drive(match: Match, players: Sequence[Player]) -> None:
    while not match.over:
        forced = match.forced_action()
        if forced is not None:
            match.apply(forced)
            continue
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        deal = match.deal
        action = _decide(players[seat], deal, view, decision_rng(match.seed, seat, deal.number, len(deal.history)))
        if action not in view.legal:
            raise SergeantMajorError(f"player {players[seat].name!r} at seat {seat} chose an illegal action {action!r}")
        match.apply(action)


def play_match_game(rules: Rules, levels: Sequence[str], seed: int, index: int, memo: bool = True) -> MatchOutcome:
    """Play whole match ``index`` (seed :func:`match_seed`) in every arrangement of the ``levels``.

    The first dealer is drawn from the match seed, the same in every arrangement; players' generators are
    those of :func:`~sergeant_major.players.drive`, so each game equals ``play_match`` with those players.
    ``memo`` plays each distinct assignment of levels to seats once, as in :func:`play_board_game`.
    """
    n = rules.players
    ms = match_seed(seed, index)
    wins = [0.0] * n
    deals = 0
    played: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}
    for perm in arrangements(n):
        seating = tuple(levels[perm[s]] for s in range(n))
        if not memo or seating not in played:
            match = Match(rules, ms, [f"{perm[s] + 1}:{levels[perm[s]]}" for s in range(n)])
            _drive(match, [make_player(seating[s]) for s in range(n)])
            assert match.end is not None
            played[seating] = (tuple(match.end.winners), len(match.results))
        winners, k = played[seating]
        deals += k
        for s in winners:
            wins[perm[s]] += 1 / len(winners)
    return MatchOutcome(index, ms, tuple(wins), deals)


def _task(rules: Rules, levels: tuple[str, ...], seed: int, first_deals: bool, duplicate: bool, memo: bool,
          job: tuple[str, int]) -> BoardOutcome | MatchOutcome:
    kind, i = job
    if kind == "board":
        return play_board_game(rules, levels, seed, i, first_deals, duplicate, memo)
    return play_match_game(rules, levels, seed, i, memo)


# ---------------------------------------------------------------------------------------------- statistics
@dataclass(frozen=True)
class Estimate:
    """A mean over independent units and its 95% confidence interval.

    Attributes:
        mean: the mean.
        ci95: half-width of the 95% interval (Student's t), ``None`` with fewer than 2 units; for an interval
            of its own (:attr:`bounds`), half its width.
        units: the number of independent units (boards or match seeds).
        bounds: ``(low, high)`` of an interval that is not ``mean +- ci95`` (win rates: Wilson's score interval,
            inside 0..1), else ``None``.
    """

    mean: float
    ci95: float | None
    units: int
    bounds: tuple[float, float] | None = None

    @property
    def low(self) -> float | None:
        """Lower end of the interval."""
        if self.bounds is not None:
            return self.bounds[0]
        return None if self.ci95 is None else self.mean - self.ci95

    @property
    def high(self) -> float | None:
        """Upper end of the interval."""
        if self.bounds is not None:
            return self.bounds[1]
        return None if self.ci95 is None else self.mean + self.ci95

    def text(self, digits: int = 3) -> str:
        """``'+0.412 ± 0.051'``; with :attr:`bounds`, ``'+0.412 (+0.371 .. +0.455)'``."""
        if self.bounds is not None:
            lo, hi = self.bounds
            return f"{self.mean:+.{digits}f} ({lo:+.{digits}f} .. {hi:+.{digits}f})"
        return f"{self.mean:+.{digits}f}" + ("" if self.ci95 is None else f" ± {self.ci95:.{digits}f}")


def share_ci(shares: Sequence[float], cluster: int) -> Estimate:
    """Mean of ``shares`` (one proportion 0..1 per independent unit, each over ``cluster`` correlated results)
    with its 95% Wilson score interval (:func:`~sergeant_major.eval.stats.share_interval`): ``bounds`` inside 0..1,
    of positive width also when the mean is 0 or 1; no interval with fewer than 2 units.

    Raises:
        SergeantMajorError: when ``shares`` is empty, a share is outside 0..1 or ``cluster`` is below 1.
    """
    k = len(shares)
    if k == 0:
        raise SergeantMajorError("no values to average")
    try:
        bounds = share_interval(shares, cluster)
    except ValueError as e:
        raise SergeantMajorError(str(e)) from None
    mean = math.fsum(shares) / k
    if bounds is None:
        return Estimate(mean, None, k)
    return Estimate(mean, (bounds[1] - bounds[0]) / 2, k, bounds)


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean of ``values`` (independent units) with the 95% interval ``t(0.975, k-1) * sd / sqrt(k)``.

    Raises:
        SergeantMajorError: when ``values`` is empty.
    """
    k = len(values)
    if k == 0:
        raise SergeantMajorError("no values to average")
    mean = math.fsum(values) / k
    if k < 2:
        return Estimate(mean, None, k)
    var = math.fsum((v - mean) ** 2 for v in values) / (k - 1)
    return Estimate(mean, t975(k - 1) * math.sqrt(var / k), k)


@dataclass(frozen=True)
class SlotStats:
    """One slot's figures. Scores are per deal, in the units of the rules' scoring.

    Attributes:
        slot: 1-based slot number, as given in the players list.
        level: the player level.
        score: mean score per deal.
        over: mean over-tricks per deal (``tricks - target``; negative: under-tricks).
        tricks: mean tricks per deal.
        wins: whole-match win rate (0..1), ``None`` when no matches were played.
    """

    slot: int
    level: str
    score: Estimate
    over: Estimate
    tricks: float
    wins: Estimate | None

    @property
    def label(self) -> str:
        """``'1:expert'``."""
        return f"{self.slot}:{self.level}"


@dataclass(frozen=True)
class LevelStats:
    """A level's figures: its slots' per-board mean (so two heuristic slots count as one player).

    Attributes:
        level: the level.
        slots: its 1-based slot numbers.
        score: mean score per deal.
        over: mean over-tricks per deal.
        wins: whole-match win rate per slot (0..1), ``None`` without matches.
    """

    level: str
    slots: tuple[int, ...]
    score: Estimate
    over: Estimate
    wins: Estimate | None


@dataclass(frozen=True)
class Difference:
    """``a - b`` per board, with its interval: ``a`` and ``b`` are levels (or slot labels when all levels
    are the same). A positive score difference whose interval lies above zero: ``a`` is stronger.

    Attributes:
        a: the first level or slot label.
        b: the second.
        score: mean score difference per deal.
        over: mean over-trick difference per deal.
    """

    a: str
    b: str
    score: Estimate
    over: Estimate


@dataclass(frozen=True)
class TournamentResult:
    """The result of :func:`tournament`: the same for the same arguments, whatever the workers.

    Attributes:
        rules: the rules' string form.
        levels: the player levels by slot.
        seed: the tournament seed.
        boards: boards played (each in ``arrangements`` seat arrangements).
        arrangements: seat arrangements per board or match (``n!``).
        duplicate: whether every arrangement of a board had the same cards.
        first_deals: whether boards were first deals (no exchange).
        deals: deals played for the board figures (``boards * arrangements``).
        exchange_boards: boards whose deal had an exchange of cards (in at least one arrangement).
        matches: seeded matches played (each in every arrangement).
        match_deals: deals played in those matches.
        slots: figures by slot.
        levels_stats: figures by level (in order of first appearance).
        differences: per pair of levels (or slots when all levels are equal), ``a - b``.
        board_outcomes: every board's sums by slot.
        match_outcomes: every match's wins by slot.
    """

    rules: str
    levels: tuple[str, ...]
    seed: int
    boards: int
    arrangements: int
    duplicate: bool
    first_deals: bool
    deals: int
    exchange_boards: int
    matches: int
    match_deals: int
    slots: tuple[SlotStats, ...]
    levels_stats: tuple[LevelStats, ...]
    differences: tuple[Difference, ...]
    board_outcomes: tuple[BoardOutcome, ...]
    match_outcomes: tuple[MatchOutcome, ...]

    def to_json(self, include_boards: bool = True) -> dict[str, Any]:
        """A JSON-ready dict; ``include_boards`` adds every board's and match's sums by slot."""

        def est(e: Estimate | None) -> dict[str, Any] | None:
            if e is None or e.units == 0:
                return None
            return {"mean": e.mean, "ci95": e.ci95, "low": e.low, "high": e.high, "units": e.units}

        d: dict[str, Any] = {
            "rules": self.rules, "levels": list(self.levels), "seed": self.seed, "boards": self.boards,
            "arrangements": self.arrangements, "duplicate": self.duplicate, "first_deals": self.first_deals,
            "deals": self.deals, "exchange_boards": self.exchange_boards, "matches": self.matches,
            "match_deals": self.match_deals,
            "slots": [{"slot": s.slot, "level": s.level, "label": s.label, "score": est(s.score), "over": est(s.over),
                       "tricks": None if math.isnan(s.tricks) else s.tricks, "wins": est(s.wins)} for s in self.slots],
            "by_level": [{"level": v.level, "slots": list(v.slots), "score": est(v.score), "over": est(v.over),
                          "wins": est(v.wins)} for v in self.levels_stats],
            "differences": [{"a": x.a, "b": x.b, "score": est(x.score), "over": est(x.over)} for x in self.differences],
        }
        if include_boards:
            d["board_outcomes"] = [{"index": b.index, "seed": b.seed, "exchange": b.exchange, "scores": list(b.scores),
                                    "over": list(b.over), "tricks": list(b.tricks)} for b in self.board_outcomes]
            d["match_outcomes"] = [{"index": m.index, "seed": m.seed, "wins": list(m.wins), "deals": m.deals}
                                   for m in self.match_outcomes]
        return d


def summarize(rules: Rules, levels: Sequence[str], seed: int, boards: Sequence[BoardOutcome],
              matches: Sequence[MatchOutcome] = (), duplicate: bool = True, first_deals: bool = False) -> TournamentResult:
    """Merge board and match outcomes (in order) into a :class:`TournamentResult` (statistics: module doc).

    Raises:
        SergeantMajorError: when there are neither boards nor matches.
    """
    if not boards and not matches:
        raise SergeantMajorError("no boards or matches to summarize")
    n = rules.players
    a = math.factorial(n)
    lv = tuple(levels)

    def est(values: list[float]) -> Estimate:
        return mean_ci(values) if values else Estimate(math.nan, None, 0)

    def per_board(get: Callable[[BoardOutcome], tuple[int, ...]], slots: Sequence[int]) -> list[float]:
        return [sum(get(b)[i] for i in slots) / (a * len(slots)) for b in boards]

    def win_rates(slots: Sequence[int]) -> Estimate | None:
        if not matches:
            return None
        shares = [min(1.0, max(0.0, sum(m.wins[i] for i in slots) / (a * len(slots)))) for m in matches]
        return share_ci(shares, a * len(slots))

    slots = tuple(
        SlotStats(i + 1, lv[i], est(per_board(lambda b: b.scores, [i])), est(per_board(lambda b: b.over, [i])),
                  math.fsum(per_board(lambda b: b.tricks, [i])) / len(boards) if boards else math.nan, win_rates([i]))
        for i in range(n))
    order = list(dict.fromkeys(lv))
    groups = {v: [i for i in range(n) if lv[i] == v] for v in order}
    by_level = tuple(LevelStats(v, tuple(i + 1 for i in g), est(per_board(lambda b: b.scores, g)),
                                est(per_board(lambda b: b.over, g)), win_rates(g)) for v, g in groups.items())
    pairs: list[tuple[str, str, list[int], list[int]]]
    if len(order) > 1:
        pairs = [(x, y, groups[x], groups[y]) for x, y in itertools.combinations(order, 2)]
    else:
        pairs = [(f"{i + 1}:{lv[i]}", f"{j + 1}:{lv[j]}", [i], [j]) for i, j in itertools.combinations(range(n), 2)]
    diffs = []
    for x, y, gx, gy in pairs:
        ds = [p - q for p, q in zip(per_board(lambda b: b.scores, gx), per_board(lambda b: b.scores, gy), strict=True)]
        do = [p - q for p, q in zip(per_board(lambda b: b.over, gx), per_board(lambda b: b.over, gy), strict=True)]
        diffs.append(Difference(x, y, est(ds), est(do)))
    return TournamentResult(
        rules=str(rules), levels=lv, seed=seed, boards=len(boards), arrangements=a, duplicate=duplicate,
        first_deals=first_deals, deals=len(boards) * a, exchange_boards=sum(1 for b in boards if b.exchange),
        matches=len(matches), match_deals=sum(m.deals for m in matches), slots=slots, levels_stats=by_level,
        differences=tuple(diffs), board_outcomes=tuple(boards), match_outcomes=tuple(matches))


RESULT_FILE = "not a tournament result (--json of 'sergeant-major tournament')"
"""What a document that :func:`merge_json` cannot take at all is said to be."""
MAX_RESULT_FILE = 1 << 30
"""The largest ``--merge`` file read, in bytes (1 GiB: some five million boards)."""
_RESULT_KEYS = ("rules", "levels", "seed", "duplicate", "first_deals", "boards", "matches", "board_outcomes",
                "match_outcomes")


def _what(v: Any) -> str:
    """A JSON value as a message shows it: ``'x'``, ``3.5``, ``true``, ``null``, ``a list``, ``an object``."""
    if isinstance(v, str):
        return quote(v if len(v) <= 40 else v[:40] + "...")
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int | float):
        return repr(v) if len(repr(v)) <= 40 else f"a number of {len(repr(v))} digits"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    return "an object" if isinstance(v, dict) else type(v).__name__


def _expected(where: str, what: str, v: Any) -> SergeantMajorError:
    return SergeantMajorError(f"{where}: expected {what}, got {_what(v)}")


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fields(d: Any, where: str, keys: Sequence[str], what: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise _expected(where, what, d)
    for k in keys:
        if k not in d:
            raise SergeantMajorError(f"{where}: missing key {k!r}")
    return d


DEFAULT_DEALS = 100
"""Boards of ``sergeant-major tournament`` without ``--deals``."""

_LARGEST = 1 << 53
"""The largest size of a number by slot in a ``--merge`` file (exact as a float; a real result's sums are far below)."""


def _numbers(v: Any, where: str, n: int, whole: bool = True) -> tuple[Any, ...]:
    what = f"a list of {n} {'whole ' if whole else ''}numbers (one per slot)"
    if not isinstance(v, list) or len(v) != n:
        raise _expected(where, what, v)
    for x in v:
        ok = _whole(x) if whole else (isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x))
        if not ok:
            raise _expected(where, what, v) from None
        if abs(x) > _LARGEST:  # the figures divide these as floats: 10**400 was an OverflowError traceback
            raise SergeantMajorError(f"{where}: {_what(x)} is out of range (a result's sums are at most 2**53 in size)")
    return tuple(v)


class _Run(NamedTuple):
    """A checked :meth:`TournamentResult.to_json` document (:func:`_check_result`)."""

    rules: Rules
    levels: tuple[str, ...]
    seed: int
    duplicate: bool
    first_deals: bool
    boards: list[BoardOutcome]
    matches: list[MatchOutcome]


def _check_result(doc: Any) -> _Run:
    """The run of a :meth:`TournamentResult.to_json` dict (with boards) read and checked field by field: its rules,
    levels, seed, ``duplicate``, ``first_deals``, board outcomes and match outcomes. Every board and match must
    carry the seed that the run's seed gives its index, and ``boards`` and ``matches`` must count them.

    Raises:
        SergeantMajorError: naming the field (``board_outcomes[3].scores: expected a list of 3 whole numbers (one
            per slot), got 'x'``), or :data:`RESULT_FILE` for what is not such a dict at all.
    """
    if not isinstance(doc, dict):
        raise SergeantMajorError(f"{RESULT_FILE}: expected a JSON object, got {_what(doc)}")
    for k in _RESULT_KEYS:
        if k not in doc:
            raise SergeantMajorError(f"{RESULT_FILE}: missing key {k!r}")
    if not isinstance(doc["rules"], str):
        raise _expected("rules", "a rules string such as '9-5-2'", doc["rules"])
    try:  # results already played: read even rules whose game end can practically never come (docs/rules.md decision 13)
        rules = Rules.parse(doc["rules"], check_end=False)
    except SergeantMajorError as e:
        raise SergeantMajorError(f"rules: {e}") from None
    n = rules.players
    a = math.factorial(n)
    lv = doc["levels"]
    if not isinstance(lv, list) or len(lv) != n or not all(isinstance(x, str) and x for x in lv):
        raise _expected("levels", f"a list of {n} player levels (the rules' players)", lv)
    seed = doc["seed"]
    if not _whole(seed):
        raise _expected("seed", "an integer", seed)
    for k in ("duplicate", "first_deals"):
        if not isinstance(doc[k], bool):
            raise _expected(k, "true or false", doc[k])
    duplicate: bool = doc["duplicate"]
    boards: list[BoardOutcome] = []
    if not isinstance(doc["board_outcomes"], list):
        raise _expected("board_outcomes", "a list of boards", doc["board_outcomes"])
    for i, b in enumerate(doc["board_outcomes"]):
        where = f"board_outcomes[{i}]"
        _fields(b, where, ("index", "seed", "exchange", "scores", "over", "tricks"), "a board (an object)")
        index = b["index"]
        if not _whole(index) or index < 0:
            raise _expected(f"{where}.index", "a board number (0 or more)", index)
        want = board_seed(seed, index) if duplicate else board_seed(seed, index * a)
        if b["seed"] != want or not _whole(b["seed"]):
            raise SergeantMajorError(f"{where}.seed: {_what(b['seed'])} is not the seed of board {index} of a run with "
                                     f"seed {seed} ({want})")
        if not isinstance(b["exchange"], bool):
            raise _expected(f"{where}.exchange", "true or false", b["exchange"])
        tricks = _numbers(b["tricks"], f"{where}.tricks", n)
        if min(tricks) < 0:
            raise _expected(f"{where}.tricks", f"a list of {n} whole numbers 0 or more", b["tricks"])
        boards.append(BoardOutcome(index, want, b["exchange"], _numbers(b["scores"], f"{where}.scores", n),
                                   _numbers(b["over"], f"{where}.over", n), tricks))
    matches: list[MatchOutcome] = []
    if not isinstance(doc["match_outcomes"], list):
        raise _expected("match_outcomes", "a list of matches", doc["match_outcomes"])
    for i, m in enumerate(doc["match_outcomes"]):
        where = f"match_outcomes[{i}]"
        _fields(m, where, ("index", "seed", "wins", "deals"), "a match (an object)")
        index = m["index"]
        if not _whole(index) or index < 0:
            raise _expected(f"{where}.index", "a match number (0 or more)", index)
        want = match_seed(seed, index)
        if m["seed"] != want or not _whole(m["seed"]):
            raise SergeantMajorError(f"{where}.seed: {_what(m['seed'])} is not the seed of match {index} of a run with "
                                     f"seed {seed} ({want})")
        wins = _numbers(m["wins"], f"{where}.wins", n, whole=False)
        if min(wins) < 0 or abs(math.fsum(wins) - a) > 1e-6:
            raise SergeantMajorError(f"{where}.wins: {_what(m['wins'])} do not share out the {a} arrangements' wins "
                                     f"(each 0 or more, adding up to {a})")
        if not _whole(m["deals"]) or m["deals"] < a:
            raise _expected(f"{where}.deals", f"a whole number of deals, {a} or more (one per arrangement at least)",
                            m["deals"])
        matches.append(MatchOutcome(index, want, tuple(float(w) for w in wins), m["deals"]))
    for k, one, got in (("boards", "board", boards), ("matches", "match", matches)):
        if not _whole(doc[k]):
            raise _expected(k, f"the number of {k} in {one}_outcomes ({len(got)})", doc[k])
        if doc[k] != len(got):
            raise SergeantMajorError(f"{k}: {doc[k]}, but {one}_outcomes holds {len(got)}")
    return _Run(rules, tuple(lv), seed, duplicate, doc["first_deals"], boards, matches)


def merge_json(docs: Sequence[Any], names: Sequence[str] | None = None) -> TournamentResult:
    """Merge the board and match outcomes of :meth:`TournamentResult.to_json` dicts (with boards) of one
    tournament run in chunks (``first_board``) into one result, boards and matches sorted by index. Each document
    is checked first, field by field.

    Args:
        docs: the documents (parsed JSON).
        names: what to call each document in an error (its file name); default ``result 1``, ``result 2``...

    Raises:
        SergeantMajorError: no documents; a malformed document (``NAME: field: reason``); documents of different
            rules, players, seed or schedule; a board or match index that appears twice.
    """
    if not docs:
        raise SergeantMajorError("no results to merge")
    label = list(names) if names is not None else [f"result {i + 1}" for i in range(len(docs))]
    runs: list[_Run] = []
    for name, doc in zip(label, docs, strict=True):
        try:
            runs.append(_check_result(doc))
        except SergeantMajorError as e:
            raise SergeantMajorError(f"{name}: {e}") from None

    def run_of(r: _Run) -> dict[str, Any]:
        return {"rules": str(r.rules), "players": ",".join(r.levels), "seed": r.seed, "duplicate": r.duplicate,
                "first_deals": r.first_deals}

    first = run_of(runs[0])
    for name, run in zip(label[1:], runs[1:], strict=True):
        this = run_of(run)
        odd = [f"{k} {json.dumps(this[k])}, not {json.dumps(first[k])}" for k in first if this[k] != first[k]]
        if odd:
            raise SergeantMajorError(f"{name}: not of the same run as {label[0]} (results of different runs do not "
                                     f"merge): {'; '.join(odd)}")
    seen: dict[tuple[str, int], int] = {}  # (board or match, index) -> the document that holds it
    for j, run in enumerate(runs):
        for what, outcomes in (("board", run.boards), ("match", run.matches)):
            for o in outcomes:
                other = seen.get((what, o.index))
                seen[(what, o.index)] = j
                if other is not None:
                    raise SergeantMajorError(f"{label[j]}: {what} {o.index} is in more than one result"
                                             + (f" (also in {label[other]})" if other != j else " (twice in it)"))
    bs = sorted((b for run in runs for b in run.boards), key=lambda b: b.index)
    ms = sorted((m for run in runs for m in run.matches), key=lambda m: m.index)
    if not bs and not ms:
        raise SergeantMajorError(f"no boards or matches to merge in {', '.join(label)}")
    rules, levels, seed, duplicate, first_deals = runs[0][:5]
    return summarize(rules, levels, seed, bs, ms, duplicate, first_deals)


def read_result_file(path: str) -> Any:
    """The parsed JSON of the ``--merge`` file ``path``: a regular file of at most :data:`MAX_RESULT_FILE` bytes,
    UTF-8 JSON (not yet checked: :func:`merge_json` does).

    Raises:
        SergeantMajorError: ``PATH: reason`` (no such file, a folder, not readable, not UTF-8, not JSON, a key
            given twice in one object: its path and the key quoted).
    """
    name = visible(path) if path.strip() else repr(path)  # an empty name would leave nothing before the colon
    folder = SergeantMajorError(f"{name}: is a folder; give a file that tournament --json wrote")
    try:
        data = read_regular_file(path, MAX_RESULT_FILE)
    except FileNotFoundError:
        raise SergeantMajorError(f"{name}: no such file") from None
    except IsADirectoryError:  # os.fdopen refuses a folder before fstat sees it
        raise folder from None
    except NotRegularFile as e:
        if stat.S_ISDIR(e.mode):
            raise folder from None
        raise SergeantMajorError(f"{name}: not a regular file; give a file that tournament --json wrote") from None
    except FileTooLarge:
        raise SergeantMajorError(f"{name}: larger than {MAX_RESULT_FILE:,} bytes, more than a result file holds") from None
    except OSError as e:
        raise SergeantMajorError(f"{name}: cannot read it: {e.strerror or e}") from None
    except MemoryError:
        raise SergeantMajorError(f"{name}: too large to read in the memory this process may use") from None
    if not data.removeprefix(b"\xef\xbb\xbf").strip():  # json said 'Expecting value' at line 1 column 1
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: the file is empty")
    try:
        doc, twice = loads_keys_once(data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: not JSON (line {e.lineno} column {e.colno}: {e.msg})") from None
    except ValueError:  # a number of more digits than int() converts (json's only other ValueError)
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: a number of more than {sys.get_int_max_str_digits()} "
                                 f"digits") from None
    except RecursionError:
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: JSON nested too deeply") from None
    except MemoryError:
        raise SergeantMajorError(f"{name}: too large to read in the memory this process may use") from None
    if isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT:  # it was "missing key 'levels'"
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: it is a game record (sergeant-major check or replay "
                                 "reads it)")
    if twice is not None:  # json keeps the last value: a merge would read what another reader of the file does not
        raise SergeantMajorError(f"{name}: {RESULT_FILE}: {twice[0]}: the key {quote_json(twice[1])} is given twice in "
                                 "one object (tournament --json writes each key once)")
    return doc


# ---------------------------------------------------------------------------------------------- runner
def _check(rules: Rules, levels: Sequence[str], boards: int, matches: int, workers: int,
           first_board: int = 0, cluster: bool = False) -> tuple[str, ...]:
    lv = parse_players(list(levels), rules.players)
    if boards < 0 or matches < 0:
        raise SergeantMajorError(f"deals={boards}, matches={matches}: neither may be negative")
    if first_board < 0:
        raise SergeantMajorError(f"first_board={first_board}: may not be negative")
    if boards == 0 and matches == 0:
        raise SergeantMajorError("deals=0 and matches=0: play at least one deal or one match")
    if cluster and workers < 0:
        raise SergeantMajorError(f"workers={workers}: use 0 (one per CPU of the cluster) or more")
    if not cluster and workers < 1:
        raise SergeantMajorError(f"workers={workers}: use at least 1 worker")
    return lv


def tournament_iter(rules: Rules, levels: Sequence[str], boards: int, seed: int = 0, workers: int | None = None, matches: int = 0,
                    first_deals: bool = False, duplicate: bool = True, first_board: int = 0,
                    memo: bool = True, ray_address: str | None = None,
                    started: Callable[[str, int], None] | None = None) -> Generator[BoardOutcome | MatchOutcome, None, None]:
    """Play the boards, then the matches, and yield their outcomes in that order (arguments: :func:`tournament`).

    ``started(description, processes)``, if given, is called once before the first outcome with what runs the
    jobs and how many processes play them (``'2 local processes'``, or ``'ray cluster at 10.0.0.5:6379,
    16 CPUs, 16 worker processes'``).

    Raises:
        SergeantMajorError: bad levels or counts; with ``ray_address``, ray missing or no cluster there.
    """
    if workers is None:
        workers = 0 if ray_address is not None else 1
    lv = _check(rules, levels, boards, matches, workers, first_board, ray_address is not None)
    jobs = [("board", i) for i in range(first_board, first_board + boards)] + [("match", i) for i in range(matches)]
    work = functools.partial(_task, rules, lv, seed, first_deals, duplicate, memo)
    if ray_address is not None:
        from sergeant_major.eval.cluster import ray_imap  # imports ray: only here

        yield from ray_imap(ray_address, work, jobs, workers, started)
        return
    workers = min(workers, len(jobs))
    if started is not None:
        started(f"{workers} local process{'es' if workers > 1 else ''}", workers)
    if workers == 1:
        for j in jobs:
            yield work(j)
        return
    with worker_pool(workers) as pool:  # workers quiet on Ctrl-C and hang-up, ended when this generator stops
        yield from pool.imap(work, jobs, chunksize=max(1, min(16, len(jobs) // (workers * 8))))


def tournament(rules: Rules, levels: Sequence[str], boards: int, seed: int = 0, workers: int | None = None, matches: int = 0,
               first_deals: bool = False, duplicate: bool = True, progress: Progress | None = None, first_board: int = 0,
               memo: bool = True, ray_address: str | None = None) -> TournamentResult:
    """A duplicate tournament between computer players.

    Args:
        rules: the rules in force (any preset or option set).
        levels: player levels by slot, one per seat, from :data:`~sergeant_major.players.LEVELS`.
        boards: boards (deals) to play, each in all ``n!`` seat arrangements (>= 0).
        seed: the tournament seed; the same seed gives the same result.
        workers: processes to use (>= 1; ``None``: 1); the result does not depend on it. With ``ray_address``:
            at most this many processes on the cluster (``None`` or 0: one per CPU of the cluster).
        matches: seeded whole matches to play, each in every arrangement, for win rates (>= 0).
        first_deals: play boards as first deals (no exchange) instead of deal 2 after a heuristic deal 1.
        duplicate: ``False`` gives every arrangement its own cards (only to show what duplicate saves).
        progress: optional ``progress(done, total)`` callback.
        first_board: the index of the first board (>= 0): boards ``first_board .. first_board + boards - 1``
            are played, so runs of the same seed in chunks ``[0, k), [k, 2k), ...`` hold exactly the boards
            of one run, and their outcomes merge with :func:`summarize` (or ``merge_json``).
        memo: play each distinct assignment of levels to seats once per board or match (module doc,
            "Saving games"); ``False`` plays every arrangement (the same result, for tests).
        ray_address: run the jobs on the ray cluster at this address (``HOST:PORT`` of its head, or ``auto``:
            the cluster this machine is part of) instead of local processes: the same result (the ``cluster``
            extra; :mod:`sergeant_major.eval.cluster`).

    Raises:
        SergeantMajorError: bad levels, negative counts, nothing to play, ``workers < 1`` (``< 0`` on a
            cluster), a player returning an illegal action; with ``ray_address``: ray not installed, no cluster
            answering there.
    """
    bs: list[BoardOutcome] = []
    ms: list[MatchOutcome] = []
    total = boards + matches
    for o in tournament_iter(rules, levels, boards, seed, workers, matches, first_deals, duplicate, first_board, memo,
                             ray_address):
        if isinstance(o, BoardOutcome):
            bs.append(o)
        else:
            ms.append(o)
        if progress is not None:
            progress(len(bs) + len(ms), total)
    return summarize(rules, levels, seed, bs, ms, duplicate, first_deals)


# ---------------------------------------------------------------------------------------------- command
def _register() -> None:
    import typer
    from rich import box
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.table import Table
    from rich.text import Text

    from sergeant_major.cli.app import app, count, parse_seed, parse_whole_number, stop_on_signals

    @app.command("tournament")
    def tournament_command(
        players: str | None = typer.Option(None, "--players", "-p",
                                           help=f"Player levels by slot, comma separated ({', '.join(LEVELS)} ...). Default: heuristic "
                                                "and a random player in every other seat of the rules."),
        deals: int = typer.Option(DEFAULT_DEALS, "--deals", "-n", parser=parse_whole_number, help="Boards (deals) to play, each in every seat arrangement."),
        duplicate: bool = typer.Option(True, "--duplicate/--no-duplicate",
                                       help="Same cards in every arrangement (default). --no-duplicate only shows what duplicate saves."),
        rules: str = typer.Option("9-5-2", "--rules", "-r", help="Rules string, e.g. '3-5-8' or '8-5-3 must-trump=on'."),
        seed_text: str = typer.Option("0", "--seed", "-s", help="Tournament seed, an integer: the same seed gives the same result."),
        workers: int = typer.Option(0, "--workers", "-w", parser=parse_whole_number, help="Processes to use (0: one per core). The result does not depend on it."),
        matches: int = typer.Option(0, "--matches", "-m", parser=parse_whole_number, help="Also play this many seeded whole matches in every arrangement, for win rates."),
        first_deals: bool = typer.Option(False, "--first-deals",
                                         help="Play boards as first deals (no exchange) instead of deal 2 after a heuristic deal 1."),
        json_file: str | None = typer.Option(None, "--json", help="Also write the result as JSON to this file ('-': to stdout, no table)."),
        first_board: int = typer.Option(0, "--first-board", parser=parse_whole_number,
                                        help="Index of the first board (to run one seed in chunks that merge: --merge)."),
        merge: list[str] | None = typer.Option(None, "--merge",  # noqa: B008
                                               help="Merge the boards of these --json files (same rules, players, seed; "
                                                    "repeatable) instead of playing."),
        ray_address: str | None = typer.Option(None, "--ray", metavar="ADDRESS",
                                               help="Run on the ray cluster at ADDRESS (HOST:PORT of its head, or 'auto': the "
                                                    "cluster of this machine); --workers then caps the processes (0: one per "
                                                    "CPU of the cluster). Needs the cluster extra. The result does not depend on it."),
    ) -> None:
        """Duplicate tournament: the same deals played with the players in every seat arrangement.

        Each board is played in all n! seat arrangements (6 with three players) so the luck of the cards
        cancels. Shows the mean score and over-tricks per deal per player with 95% confidence intervals
        over boards, the differences between levels, and, with --matches, whole-match win rates.
        """
        def fail(msg: str) -> None:
            typer.echo(f"error: {msg}", err=True)
            raise typer.Exit(2)

        try:
            r = Rules.parse(rules)
            lv = parse_players(players if players is not None else ",".join(["heuristic"] + ["random"] * (r.players - 1)),
                               r.players)
            seed = parse_seed(seed_text)
        except SergeantMajorError as e:
            fail(str(e))
            return
        if deals < 0:
            fail(f"--deals {deals}: may not be negative")
        if matches < 0:
            fail(f"--matches {matches}: may not be negative")
        if first_board < 0:
            fail(f"--first-board {first_board}: may not be negative")
        if json_file == "":  # Path('') is the current folder: it was "cannot write '': Is a directory"
            fail("--json '' is empty: give a file name, or '-' for standard output")
        if deals == 0 and matches == 0 and not merge:
            fail("--deals 0 and --matches 0: play at least one deal or one match")
        if workers < 0:
            fail(f"--workers {workers}: use 0 (one per core) or more")
        if ray_address is not None and merge:
            fail(f"--ray {ray_address!r} with --merge: merging plays nothing; leave out --ray")
        if merge:  # the boards, their schedule and the matches come from the files: an option for playing is refused
            given = [opt for opt, used in (("--deals", deals != DEFAULT_DEALS), ("--first-board", first_board != 0), ("--matches", matches != 0),
                                           ("--first-deals", first_deals), ("--no-duplicate", not duplicate),
                                           ("--workers", workers != 0)) if used]
            if given:
                fail(f"{', '.join(given)} with --merge: merging plays nothing (the boards, their schedule and the matches "
                     f"come from the files); leave out {', '.join(given)}")
        # the JSON goes to a temporary file beside --json, renamed to it once written: a refused, failed or
        # interrupted run (Ctrl-C) leaves --json as it was, and never an empty or half-written file
        # SIGTERM and SIGHUP (a closed terminal) stop the run as Ctrl-C does (status 143, 129; Ctrl-C: 130)
        with stop_on_signals(f"--json {json_file!r}" if json_file is not None and json_file != "-" else ""):
            tmp: str | None = None
            dest: str | None = None  # what tmp is renamed to; None: --json is a device or a pipe, written directly
            try:
                if json_file is not None and json_file != "-":
                    try:
                        if Path(json_file).is_dir():
                            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
                        dest = renamed_onto(json_file)  # a link's file, not the link; /dev/null is not replaced
                        if dest is not None:
                            target = Path(dest)
                            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
                            os.fchmod(fd, file_mode(target))
                            os.close(fd)
                    except OSError as e:
                        fail(f"cannot write {json_file!r}: {e.strerror or e}")
                k = workers or os.cpu_count() or 1
                if ray_address is not None:
                    k = workers  # 0: one per CPU of the cluster
                backend = ""
                to_stdout = json_file == "-"
                # the progress bar appears once the run has started: a refusal before it (no ray cluster at
                # --ray's address, ray missing) is then its one line on stderr, without an empty bar above it
                err_console = Console(stderr=True)
                # off a terminal a transient bar still left a blank line on stderr: with the JSON on stdout it is off
                bar = Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                               TimeRemainingColumn(), console=err_console, transient=to_stdout,
                               disable=to_stdout and not err_console.is_terminal)

                def started(description: str, processes: int) -> None:
                    nonlocal backend, k
                    backend, k = description, processes
                    bar.start()

                def stop_bar() -> None:
                    if bar.live.is_started:  # Progress.stop() prints an empty line even then, off a terminal
                        bar.stop()

                bs: list[BoardOutcome] = []
                ms: list[MatchOutcome] = []
                t0 = time.perf_counter()
                if merge:
                    seen: dict[tuple[int, int], str] = {}
                    for f in merge:  # the same file twice: it was "board 0 is in more than one result (also in t.json)"
                        with contextlib.suppress(OSError):  # a file that cannot be read is named below, as before
                            st = os.stat(f)
                            first = seen.setdefault((st.st_dev, st.st_ino), f)
                            if first != f or merge.count(f) > 1:
                                again = f"twice ({quote(first)} and {quote(f)} are one file)" if first != f else "twice"
                                fail(f"--merge {quote(f)} is given {again}: give each part once")
                    try:
                        res = merge_json([read_result_file(f) for f in merge], [visible(f) for f in merge])
                    except SergeantMajorError as e:
                        fail(str(e))
                        return
                    if res.rules != str(r) or res.levels != lv or res.seed != seed:
                        fail(f"--merge files hold {res.rules!r} {','.join(res.levels)} seed {res.seed}; "
                             f"give the same --rules, --players and --seed")
                else:
                    try:
                        task = bar.add_task("boards", total=deals + matches)
                        with contextlib.closing(tournament_iter(r, lv, deals, seed, k, matches, first_deals, duplicate,
                                                                first_board, ray_address=ray_address,
                                                                started=started)) as outcomes:
                            for o in outcomes:
                                if isinstance(o, BoardOutcome):
                                    bs.append(o)
                                else:
                                    ms.append(o)
                                bar.advance(task)
                    except SergeantMajorError as e:
                        stop_bar()  # before the error line
                        fail(str(e))
                    finally:
                        stop_bar()
                    res = summarize(r, lv, seed, bs, ms, duplicate, first_deals)
                elapsed = time.perf_counter() - t0
                if json_file is not None:
                    d = res.to_json()
                    d["seconds"] = round(elapsed, 3)
                    if not merge:  # a merge plays nothing: no processes, no backend
                        d["workers"] = k
                        d["backend"] = backend
                    text = json.dumps(d, indent=1) + "\n"
                    if to_stdout:
                        sys.stdout.write(text)
                        return
                    try:
                        if dest is None:
                            Path(json_file).write_text(text, encoding="utf-8")
                        else:
                            assert tmp is not None
                            Path(tmp).write_text(text, encoding="utf-8")
                            os.replace(tmp, dest)
                            tmp = None
                    except OSError as e:
                        fail(f"cannot write {json_file!r}: {e.strerror or e}")
            finally:
                if tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
        # from the result, not the options: --merge takes the schedule from its files (--first-deals and
        # --no-duplicate need not be given again)
        how = "duplicate" if res.duplicate else "NOT duplicate"
        what = "first deals" if res.first_deals else f"deal 2 after a heuristic deal 1, {res.exchange_boards} with an exchange"
        title = (f"{count(res.boards, 'board')} of {res.rules} x {res.arrangements} seat arrangements ({how}; {what}), seed {seed}"
                 if res.boards else
                 f"{count(res.matches, 'match', 'matches')} of {res.rules} x {res.arrangements} seat arrangements, seed {seed}")
        # the title and the notes are lines of their own, wrapped at the terminal's width: as the table's title and
        # caption they were wrapped at the table's (about 58 columns: 'JSON written to' / 'part1.json')
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        table.add_column("player", no_wrap=True)
        if res.boards:
            table.add_column("score/deal", justify="right", no_wrap=True)
            table.add_column("over/deal", justify="right", no_wrap=True)
            table.add_column("tricks", justify="right")
        if res.matches:
            table.add_column("match win %", justify="right", no_wrap=True)

        def pct(e: Estimate | None) -> str:
            if e is None:
                return "-"
            if e.low is None or e.high is None:
                return f"{100 * e.mean:.1f}"
            return f"{100 * e.mean:.1f} ({100 * e.low:.1f} .. {100 * e.high:.1f})"

        for s in res.slots:
            row = [s.label]
            if res.boards:
                row += [s.score.text(2), s.over.text(2), f"{s.tricks:.2f}"]
            if res.matches:
                row.append(pct(s.wins))
            table.add_row(*row)
        if len(res.levels_stats) < len(res.slots):
            table.add_section()
            for v in res.levels_stats:
                row = [f"{v.level} ({len(v.slots)} slots)" if len(v.slots) > 1 else v.level]
                if res.boards:
                    row += [v.score.text(2), v.over.text(2), ""]
                if res.matches:
                    row.append(pct(v.wins))
                table.add_row(*row)
        if res.boards:
            table.add_section()
            for x in res.differences:
                row = [f"{x.a} - {x.b}", x.score.text(2), x.over.text(2), ""]
                if res.matches:
                    row.append("")
                table.add_row(*row)
        notes = ["score/deal, over/deal: means per deal ± 95% CI over boards (a board's mean over its arrangements is the unit)"]
        if res.matches:
            notes.append(f"match win %: {count(res.matches, 'seeded match', 'seeded matches')} x {res.arrangements} "
                         f"arrangements ({count(res.match_deals, 'deal')}); a shared win counts 1/k; (low .. high): 95% Wilson interval, match seeds as units")
        played = res.deals + res.match_deals
        notes.append((f"merged from {count(len(merge), 'file')}" if merge else
                      f"{elapsed:.1f} s on {backend}, {played / elapsed:.0f} deals/s")
                     + (f"; JSON written to {visible(json_file)}" if json_file is not None else ""))
        con = Console()
        con.print(Text(title))
        con.print(table)
        for note in notes:
            con.print(Text(note))


try:
    _register()
except ModuleNotFoundError as _e:  # the cli extra (typer, rich) is not installed: the library still works
    if _e.name not in ("typer", "rich"):
        raise
