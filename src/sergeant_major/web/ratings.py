"""Ratings with OpenSkill (Plackett-Luce), one per preset, updated from a rated match's final ranking (see
``docs/web.md``, *Ratings*).

A match is rated when its rules are exactly a preset's, it is not a practice table (undo, hints) and every seat is held
by an account or a computer, at least one by an account (a guest's seat makes it unrated). Computer levels have fixed
ratings (:data:`COMPUTER_RATINGS`, calibrated from duplicate tournaments: ``benchmarks/calibrate_ratings.py``); they take
part in the update as they are and never change.

The number shown is a rating's ``mu`` (25 for a new account) with its interval ``± 2 sigma``: a first place raises it and
a last place lowers it, as players of Elo-rated sites expect. The conservative ordinal ``mu - 3 sigma`` is not shown: its
sigma shrinks with every match, so it could rise after a loss.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.web.store import Store, accounts_t, rated_t, rating_history_t, ratings_t

__all__ = ["LobbyRatings", "MODEL", "DEFAULT", "Rating", "COMPUTER_RATINGS", "PROVISIONAL_MATCHES", "RATED_PRESETS", "preset_of", "final_ranks",
           "rated_preset", "rated_if_filled", "was_rated", "rate_match", "rating_of", "ratings_of", "leaderboard", "rating_history", "new_ratings"]

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: openskill's defaults
PROVISIONAL_MATCHES = 10  # a rating is provisional for its first 10 matches
RATED_PRESETS: tuple[str, ...] = Rules.preset_names()

# The computer levels' fixed ratings (mu, sigma) per preset, calibrated by benchmarks/calibrate_ratings.py from duplicate
# tournaments (random, beginner, heuristic on 200 boards; beginner, heuristic, expert on 24; seed 1); the heuristic is
# anchored at mu 25, and sigma is 1 (a fixed rating: the update trusts it).
COMPUTER_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    "9-5-2": {"random": (-16.6, 1.0), "beginner": (11.9, 1.0), "heuristic": (25.0, 1.0), "expert": (40.6, 1.0)},
    "8-5-3": {"random": (-19.2, 1.0), "beginner": (14.1, 1.0), "heuristic": (25.0, 1.0), "expert": (40.1, 1.0)},
    "9-2-5": {"random": (-21.7, 1.0), "beginner": (7.4, 1.0), "heuristic": (25.0, 1.0), "expert": (31.8, 1.0)},
    "3-5-8": {"random": (-9.0, 1.0), "beginner": (18.5, 1.0), "heuristic": (25.0, 1.0), "expert": (35.7, 1.0)},
}


@dataclass(frozen=True)
class Rating:
    """A rating: OpenSkill ``mu`` and ``sigma``, rated ``matches`` and ``wins`` (a shared win counts), and whether it
    is a computer level's (fixed)."""

    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    computer: bool = False

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (0 for a new account): not shown, it may rise after a loss."""
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> float:
        """The half width of the interval shown with ``mu``: ``2 sigma`` (about 95%)."""
        return 2 * self.sigma

    def shown(self, digits: int = 4) -> dict[str, Any]:
        """The rating as the pages show it: ``rating`` (``mu``) and ``interval`` (``2 sigma``), rounded to ``digits``."""
        return {"rating": round(self.mu, digits), "interval": round(self.interval, digits)}

    @property
    def provisional(self) -> bool:
        """Whether it rests on fewer than :data:`PROVISIONAL_MATCHES` matches (a computer's never is)."""
        return not self.computer and self.matches < PROVISIONAL_MATCHES


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


@lru_cache(maxsize=256)
def preset_of(rules: Rules) -> str | None:
    """The preset whose rules ``rules`` are exactly (no option changed), or ``None`` (remembered: every state asks)."""
    for name in RATED_PRESETS:
        if Rules.preset(name) == rules:
            return name
    return None


def final_ranks(match: Match, left: Sequence[int] = ()) -> list[int]:
    """Each seat's place in a finished match, 0 best, equal places tied: the winners first (a shared win: all 0), then
    the others by total, highest first; seats in ``left`` (left the match before its end) last, by total among themselves.

    Raises:
        ValueError: when the match is not over.
    """
    if match.end is None:
        raise ValueError("the match is not over: it has no final ranking")
    n = len(match.totals)
    gone = set(left)

    def key(s: int) -> tuple[int, int, int]:
        return (1 if s in gone else 0, 0 if s in match.end.winners and s not in gone else 1, -match.totals[s])  # type: ignore[union-attr]

    keys = [key(s) for s in range(n)]
    return [sum(1 for o in range(n) if keys[o] < keys[s]) for s in range(n)]


def rated_preset(rules: Rules, practice: bool, seats: Sequence[tuple[str, int | None]]) -> str | None:
    """The preset a match is rated in, or ``None`` when it is unrated. ``seats``: ``(kind, account id)`` each, kind
    ``human`` or a computer level."""
    preset = preset_of(rules)
    if preset is None or practice or not any(a is not None for _k, a in seats):
        return None
    if any(a is None and k not in COMPUTER_RATINGS[preset] for k, a in seats):
        return None  # a guest's seat (or a level without a rating)
    return preset


def rated_if_filled(rules: Rules, practice: bool, seats: Sequence[tuple[str, int | None, bool]],
                    fill_level: str | None = None) -> str | None:
    """The preset a match is rated in if its free seats go to accounts or computers, or ``None``: what the lobby, the
    table page and the replay show. It is :func:`rated_preset`'s rule (the one that rates a match at its end), each free
    seat counted as a computer of ``fill_level`` (``heuristic`` when not set). ``seats``: ``(kind, account id, free)``
    each; a free seat is a person's seat nobody took yet (an invitation not yet opened, a lobby table's open seat)."""
    level = fill_level or "heuristic"
    return rated_preset(rules, practice, [(level, None) if free else (kind, account) for kind, account, free in seats])


def was_rated(store: Store, table_id: str) -> bool:
    """Whether the table's finished match was rated (its row in ``sm_rated``, written with the ratings)."""
    with store.engine.connect() as c:
        return c.execute(sa.select(rated_t.c.table_id).where(rated_t.c.table_id == table_id)).first() is not None


def new_ratings(before: Sequence[Rating], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """OpenSkill's update of ``before`` (one per seat) for the places ``ranks``: ``(mu, sigma)`` per seat (a
    computer's stays as it was)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    out = MODEL.rate(teams, ranks=[float(x) for x in ranks])
    return [(r.mu, r.sigma) if r.computer else (t[0].mu, t[0].sigma) for r, t in zip(before, out, strict=True)]


def _current(c: Connection, account_id: int, preset: str) -> Rating:
    r = c.execute(sa.select(ratings_t).where(ratings_t.c.account_id == account_id, ratings_t.c.preset == preset)).first()
    return DEFAULT if r is None else Rating(float(r.mu), float(r.sigma), int(r.matches), int(r.wins))


def rate_match(store: Store, table_id: str, preset: str, seats: Sequence[tuple[str, int | None]], ranks: Sequence[int]) -> bool:
    """Rate a finished match once: the accounts' ratings in ``preset`` are updated in one transaction with a row of
    ``sm_rated`` for the table (a second call for it changes nothing). ``seats``: ``(kind, account id)`` per seat;
    ``ranks``: :func:`final_ranks`. Returns whether this call rated it.

    Raises:
        SQLAlchemyError: when the database refuses (nothing is changed).
    """
    now = time.time()
    try:
        return _rate(store, table_id, preset, seats, ranks, now)
    except IntegrityError:  # rated at the same moment by another transaction (its sm_rated row came first)
        return False


def _rate(store: Store, table_id: str, preset: str, seats: Sequence[tuple[str, int | None]], ranks: Sequence[int], now: float) -> bool:
    with store.engine.begin() as c:
        if c.execute(sa.select(rated_t.c.table_id).where(rated_t.c.table_id == table_id)).first() is not None:
            return False
        c.execute(rated_t.insert().values(table_id=table_id, preset=preset, created=now))
        before = [_current(c, a, preset) if a is not None else Rating(*COMPUTER_RATINGS[preset][k], computer=True) for k, a in seats]
        after = new_ratings(before, ranks)
        for (_k, a), old, (mu, sigma), rank in zip(seats, before, after, ranks, strict=True):
            if a is None:
                continue
            values = {"mu": mu, "sigma": sigma, "matches": old.matches + 1, "wins": old.wins + (rank == 0), "updated": now}
            if old is DEFAULT:
                c.execute(ratings_t.insert().values(account_id=a, preset=preset, **values))
            else:
                c.execute(ratings_t.update().where(ratings_t.c.account_id == a, ratings_t.c.preset == preset).values(**values))
            c.execute(rating_history_t.insert().values(account_id=a, preset=preset, table_id=table_id, rank=rank, mu=mu,
                                                       sigma=sigma, created=now))
    return True


def rating_of(store: Store, account_id: int, preset: str) -> Rating:
    """An account's rating in a preset (a new account's: mu 25, sigma 25/3, no match)."""
    with store.engine.connect() as c:
        return _current(c, account_id, preset)


def ratings_of(store: Store, account_id: int) -> dict[str, Rating]:
    """An account's ratings in every preset it played rated."""
    with store.engine.connect() as c:
        return {str(r.preset): Rating(float(r.mu), float(r.sigma), int(r.matches), int(r.wins))
                for r in c.execute(sa.select(ratings_t).where(ratings_t.c.account_id == account_id))}


def leaderboard(store: Store, preset: str, limit: int = 100) -> list[tuple[str, Rating]]:
    """The accounts rated in ``preset``, highest first (at most ``limit``), each ``(name, rating)``: those past their
    provisional matches by ``mu``, then the provisional ones by ``mu`` (one lucky first match tops no list)."""
    provisional = sa.case((ratings_t.c.matches < PROVISIONAL_MATCHES, 1), else_=0)
    with store.engine.connect() as c:
        rows = c.execute(sa.select(accounts_t.c.name, ratings_t).join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                         .where(ratings_t.c.preset == preset)
                         .order_by(provisional, ratings_t.c.mu.desc(), accounts_t.c.name_key).limit(limit)).all()
    return [(str(r.name), Rating(float(r.mu), float(r.sigma), int(r.matches), int(r.wins))) for r in rows]


def rating_history(store: Store, account_id: int) -> list[tuple[str, str, int, float, float, float]]:
    """An account's rating after each rated match, oldest first: ``(preset, table id, rank, mu, sigma, time)``."""
    with store.engine.connect() as c:
        rows = c.execute(sa.select(rating_history_t).where(rating_history_t.c.account_id == account_id)
                         .order_by(rating_history_t.c.id)).all()
    return [(str(r.preset), str(r.table_id), int(r.rank), float(r.mu), float(r.sigma), float(r.created)) for r in rows]


class LobbyRatings:
    """The ratings the lobby shows next to a seated account (its :class:`~sergeant_major.web.lobby.RatingSource`):
    ``{"rating", "interval", "matches", "provisional"}`` in the table's preset, read from ``store`` and kept ``ttl`` seconds (the
    lobby message is built at every change, and a rating changes only when a match ends)."""

    def __init__(self, store: Store, ttl: float = 30.0) -> None:
        self.store = store
        self.ttl = ttl
        self.presets: dict[str, str | None] = {}
        self.cache: dict[tuple[int, str], tuple[float, dict[str, Any]]] = {}

    def lobby_rating(self, account: int | None, rules: str) -> dict[str, Any] | None:
        """The rating of ``account`` in the preset ``rules`` are (``None``: a guest, or rules that are not a preset)."""
        if account is None:
            return None
        if rules not in self.presets:
            try:
                self.presets[rules] = preset_of(Rules.parse(rules))
            except ValueError:
                self.presets[rules] = None
        preset = self.presets[rules]
        if preset is None:
            return None
        now = time.monotonic()
        got = self.cache.get((account, preset))
        if got is None or now - got[0] > self.ttl:
            r = rating_of(self.store, account, preset)
            got = (now, {**r.shown(1), "matches": r.matches, "provisional": r.provisional})
            self.cache[(account, preset)] = got
        return got[1]

