"""Duplicate tournaments: the same deals played with the players in every seat arrangement.

Library entry point :func:`tournament` (returns a :class:`TournamentResult`); :func:`merge_json` merges the
``--json`` results of a run played in chunks, checked against ``tournament_result_schema.json``. The command
``sergeant-major tournament`` is :mod:`sergeant_major.cli.tournament`; the statistics are
:mod:`sergeant_major.eval.stats`.
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
    docs/rules.md reference decisions 2, 3, 5), and the views carry that deal's result and totals. So boards include the
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
    (``tricks - target``, inverted in minimum tricks as the exchange counts them, docs/rules.md reference decision 3),
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

import functools
import hashlib
import itertools
import json
import math
import random
import stat
import sys
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple, Protocol, runtime_checkable

from sergeant_major.core.actions import Action, Contract
from sergeant_major.core.cards import Card
from sergeant_major.core.deal import Deal, DealResult
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match, deal_cards
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import quote, visible
from sergeant_major.core.seeding import check_whole
from sergeant_major.core.view import View, build_view
from sergeant_major.eval.levels import LEVELS, MEASUREMENT_LEVELS, make_player, parse_levels, run_inputs
from sergeant_major.eval.stats import Estimate, mean_ci, share_ci
from sergeant_major.eval.workers import worker_pool
from sergeant_major.players import HeuristicPlayer, Player, decision_rng
from sergeant_major.records.files import FileTooLarge, NotRegularFile, read_regular_file
from sergeant_major.records.format import RECORD_FORMAT
from sergeant_major.records.pretty import quote_json
from sergeant_major.records.schema import SchemaChecker
from sergeant_major.records.validation import loads_keys_once

__all__ = [
    "OraclePlayer", "Board", "BoardOutcome", "MatchOutcome", "Estimate", "SlotStats", "LevelStats", "Difference",
    "TournamentResult", "tournament", "tournament_iter", "summarize", "make_board", "play_board", "play_board_game",
    "play_match_game", "arrangements", "board_seed", "match_seed", "parse_players", "mean_ci", "share_ci", "merge_json",
    "read_result_file", "result_schema_path", "DEFAULT_DEALS", "RESULT_FILE", "MAX_RESULT_FILE", "MAX_BOARDS",
    "MAX_MATCHES",
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
    return parse_levels(text, players, [*LEVELS, *MEASUREMENT_LEVELS])


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


def result_schema_path() -> Path:
    """The path of ``tournament_result_schema.json``: the JSON Schema (draft 2020-12) of the fields of a
    ``tournament --json`` result that ``--merge`` reads."""
    return Path(__file__).with_name("tournament_result_schema.json")


@functools.cache
def _result_checker() -> SchemaChecker:
    return SchemaChecker.from_file(result_schema_path(), quote=_what, missing_key_at_object=True)


DEFAULT_DEALS = 100
"""Boards of ``sergeant-major tournament`` without ``--deals``."""
MAX_BOARDS = 1_000_000
"""The most boards one run plays (``--deals``): six million deals with three players, days of play on one machine;
more asked was a ``MemoryError`` traceback while the jobs were listed. Longer runs go in chunks (``--first-board``)
that merge (``--merge``)."""
MAX_MATCHES = 1_000_000
"""The most seeded whole matches one run plays (``--matches``), each in every seat arrangement."""


class _Run(NamedTuple):
    """A checked :meth:`TournamentResult.to_json` document (:func:`_check_result`)."""

    rules: Rules
    levels: tuple[str, ...]
    seed: int
    duplicate: bool
    first_deals: bool
    boards: list[BoardOutcome]
    matches: list[MatchOutcome]


def _message_fields(doc: Any, players: int | None) -> dict[str, str]:
    """The template fields of the result schema's messages: the slots and arrangements of the rules' players and
    the number of board and match outcomes given."""
    fields = {"slots": "3 or 4", "arrangements": "6 or 24"}
    if players is not None:
        fields.update(slots=str(players), arrangements=str(math.factorial(players)))
    for key, what in (("board_count", "board_outcomes"), ("match_count", "match_outcomes")):
        given = doc.get(what) if isinstance(doc, dict) else None
        fields[key] = str(len(given)) if isinstance(given, list) else "?"
    return fields


def _per_slot(values: list[Any], where: str, players: int, what: str) -> tuple[Any, ...]:
    """``values`` (numbers the schema accepted), one per slot of ``players``."""
    if len(values) != players:
        raise SergeantMajorError(f"{where}: expected a list of {players} {what}, got {_what(values)}")
    return tuple(values)


def _check_result(doc: Any) -> _Run:
    """The run of a :meth:`TournamentResult.to_json` dict (with boards) read and checked: against
    ``tournament_result_schema.json`` (:func:`result_schema_path`, with ``jsonschema``), then what the schema cannot
    say: the rules text, one number per slot of its players, every board and match carrying the seed that the run's
    seed gives its index, match wins sharing out the arrangements, ``boards`` and ``matches`` counting them, and each
    figure given (:data:`_FIGURES`: ``deals``, ``slots``...) equal to the one the outcomes give.

    Raises:
        SergeantMajorError: naming the field (``board_outcomes[3].scores: expected a list of 3 whole numbers (one
            per slot), got 'x'``), or :data:`RESULT_FILE` for what is not such a dict at all.
    """
    rules: Rules | None = None
    rules_error: SergeantMajorError | None = None
    if isinstance(doc, dict) and isinstance(doc.get("rules"), str):
        try:  # results already played: read even rules whose game end can practically never come (docs/rules.md decision 13)
            rules = Rules.parse(doc["rules"], check_end=False)
        except SergeantMajorError as e:
            rules_error = e
    checker = _result_checker()
    if not checker.is_valid(doc):
        fault = checker.first_fault(doc, "", _message_fields(doc, rules.players if rules is not None else None))
        if fault is not None:
            raise SergeantMajorError(f"{fault.where or RESULT_FILE}: {fault.message}")
    if rules is None:
        raise SergeantMajorError(f"rules: {rules_error}")
    n = rules.players
    a = math.factorial(n)
    levels = _per_slot(doc["levels"], "levels", n, "player levels (the rules' players)")
    seed: int = doc["seed"]
    duplicate: bool = doc["duplicate"]
    boards: list[BoardOutcome] = []
    for i, b in enumerate(doc["board_outcomes"]):
        where = f"board_outcomes[{i}]"
        index: int = b["index"]
        want = board_seed(seed, index) if duplicate else board_seed(seed, index * a)
        if b["seed"] != want:
            raise SergeantMajorError(f"{where}.seed: {_what(b['seed'])} is not the seed of board {index} of a run with "
                                     f"seed {seed} ({want})")
        whole = "whole numbers (one per slot)"
        boards.append(BoardOutcome(index, want, b["exchange"], _per_slot(b["scores"], f"{where}.scores", n, whole),
                                   _per_slot(b["over"], f"{where}.over", n, whole),
                                   _per_slot(b["tricks"], f"{where}.tricks", n, "whole numbers 0 or more")))
    matches: list[MatchOutcome] = []
    for i, m in enumerate(doc["match_outcomes"]):
        where = f"match_outcomes[{i}]"
        index = m["index"]
        want = match_seed(seed, index)
        if m["seed"] != want:
            raise SergeantMajorError(f"{where}.seed: {_what(m['seed'])} is not the seed of match {index} of a run with "
                                     f"seed {seed} ({want})")
        wins = _per_slot(m["wins"], f"{where}.wins", n, "numbers (one per slot)")
        if min(wins) < 0 or abs(math.fsum(wins) - a) > 1e-6:
            raise SergeantMajorError(f"{where}.wins: {_what(m['wins'])} do not share out the {a} arrangements' wins "
                                     f"(each 0 or more, adding up to {a})")
        if m["deals"] < a:
            raise SergeantMajorError(f"{where}.deals: expected a whole number of deals, {a} or more (one per arrangement "
                                     f"at least), got {_what(m['deals'])}")
        matches.append(MatchOutcome(index, want, tuple(float(w) for w in wins), m["deals"]))
    for k, one, got in (("boards", "board", boards), ("matches", "match", matches)):
        if doc[k] != len(got):
            raise SergeantMajorError(f"{k}: {doc[k]}, but {one}_outcomes holds {len(got)}")
    if boards or matches:  # no outcomes: merge_json refuses the merge as a whole
        figures = summarize(rules, levels, seed, boards, matches, duplicate, doc["first_deals"]).to_json(False)
        for key in _FIGURES:
            if key in doc:
                _same_figure(doc[key], figures[key], key)
    return _Run(rules, levels, seed, duplicate, doc["first_deals"], boards, matches)


_FIGURES: Final = ("arrangements", "deals", "exchange_boards", "match_deals", "slots", "by_level", "differences")
"""The keys of a result computed from its outcomes: when a file gives one, it must be what its outcomes give."""


def _same_figure(given: Any, computed: Any, where: str) -> None:
    """Check that the figure ``given`` (a file's, of a shape the schema accepted) is ``computed`` (what the outcomes
    give), numbers to within rounding (a relative 1e-9).

    Raises:
        SergeantMajorError: naming the first place that differs and quoting both values.
    """
    if isinstance(computed, dict) and isinstance(given, dict):
        for k in computed:
            _same_figure(given.get(k), computed[k], f"{where}.{k}")
        return
    if isinstance(computed, list) and isinstance(given, list) and len(given) == len(computed):
        for i, (g, c) in enumerate(zip(given, computed, strict=True)):
            _same_figure(g, c, f"{where}[{i}]")
        return
    numbers = (isinstance(given, int | float) and isinstance(computed, int | float)
               and not isinstance(given, bool) and not isinstance(computed, bool))
    if numbers and isinstance(computed, float) and math.isclose(given, computed, rel_tol=1e-9, abs_tol=1e-12):
        return
    if given == computed and type(given) is type(computed) or (numbers and given == computed):
        return
    raise SergeantMajorError(f"{where}: the file gives {_what(given)}, but its outcomes give {_what(computed)} "
                             "(a figure or an outcome edited by hand?)")


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
        odd = [f"{k} {_what(this[k])} in {name}, {_what(first[k])} in {label[0]}" for k in first if this[k] != first[k]]
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


def _first_line_is_a_record(data: bytes) -> bool:
    """Whether the first non-blank line of ``data`` is a JSON object of the game record format."""
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    end = len(data)
    while start < len(data):  # line by line, not the whole file (up to a gigabyte) at once
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if data[start:end].strip():
            break
        start = end + 1
    try:
        doc = json.loads(data[start:end].decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT


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
        if _first_line_is_a_record(data):  # simulate --out's JSON Lines: it was "not JSON (... Extra data)"
            raise SergeantMajorError(f"{name}: {RESULT_FILE}: it holds game records, one a line (simulate --out; "
                                     "sergeant-major check reads them)") from None
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
def _count_text(value: int) -> str:
    """A count as a message quotes it: its digits, or its first 20 and how many there are when longer."""
    text = str(value)
    return text if len(text) <= 20 else f"{text[:20]}... ({len(text)} digits)"


def _check(rules: Rules, levels: Sequence[str], boards: int, matches: int, workers: int,
           first_board: int = 0, cluster: bool = False) -> tuple[str, ...]:
    lv = parse_players(list(levels), rules.players)
    for name, value in (("boards", boards), ("matches", matches), ("workers", workers), ("first_board", first_board)):
        check_whole(value, name, "tournament")
    if boards < 0 or matches < 0:
        raise SergeantMajorError(f"boards={boards}, matches={matches}: neither may be negative")
    if first_board < 0:
        raise SergeantMajorError(f"first_board={first_board}: may not be negative")
    if boards > MAX_BOARDS:
        raise SergeantMajorError(f"boards={_count_text(boards)}: at most {MAX_BOARDS:,} in one run; play more in "
                                 "chunks (first_board) and merge them (merge_json)")
    if matches > MAX_MATCHES:
        raise SergeantMajorError(f"matches={_count_text(matches)}: at most {MAX_MATCHES:,} in one run")
    if boards == 0 and matches == 0:
        raise SergeantMajorError("boards=0 and matches=0: play at least one board or one match")
    if cluster and workers < 0:
        raise SergeantMajorError(f"workers={workers}: use 0 (one per CPU of the cluster) or more")
    if not cluster and workers < 1:
        raise SergeantMajorError(f"workers={workers}: use at least 1 worker")
    return lv


def tournament_iter(rules: Rules | str, levels: str | Sequence[str], boards: int, seed: int = 0, workers: int | None = None, matches: int = 0,
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
    rules, levels, seed = run_inputs(rules, levels, seed, "tournament", [*LEVELS, *MEASUREMENT_LEVELS])
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


def tournament(rules: Rules | str, levels: str | Sequence[str], boards: int, seed: int = 0, workers: int | None = None, matches: int = 0,
               first_deals: bool = False, duplicate: bool = True, progress: Progress | None = None, first_board: int = 0,
               memo: bool = True, ray_address: str | None = None) -> TournamentResult:
    """A duplicate tournament between computer players.

    Args:
        rules: the rules in force (any preset or option set), or their string form (``"3-5-8"``).
        levels: player levels by slot, one per seat, from :data:`~sergeant_major.players.LEVELS` (a list, or
            ``"expert,heuristic,heuristic"``).
        boards: boards (deals) to play, each in all ``n!`` seat arrangements (>= 0).
        seed: the tournament seed, a whole number ``0 <= seed < 2**62``; the same seed gives the same result.
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
        SergeantMajorError: bad rules, levels or seed, counts that are not whole numbers or negative, nothing to
            play, ``workers < 1`` (``< 0`` on a cluster), a player returning an illegal action; with
            ``ray_address``: ray not installed, no cluster answering there.
    """
    rules, levels, seed = run_inputs(rules, levels, seed, "tournament", [*LEVELS, *MEASUREMENT_LEVELS])
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
