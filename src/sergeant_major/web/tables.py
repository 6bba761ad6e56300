"""One table's game state, rebuilt from its stored log, and the JSON messages built from views.

The log (see :mod:`.store`) is the source of truth; entries (``data`` is JSON):

- ``start`` ``{"deal": n}``: a player released deal ``n`` (the first deal, or "next deal" after a result).
- ``act`` ``{"action": <record action>, "by": "human"|"computer"|"standin"|"forced"}``: an action applied
  through the rules (:func:`~sergeant_major.records.action_to_json` form).
- ``undo`` ``{"n": k}``: practice mode: the last ``k`` actions are taken back.
- ``away`` / ``back``: a computer stands in for an absent human at ``seat`` / the human is back; an ``away`` with
  ``{"clock": true}``: the seat's turn clock ran out three times in a row (:mod:`.clocks`).
- ``left`` ``{}``: the human at ``seat`` left the match before its end; a computer plays the seat to the end and the
  leaver ranks last (:func:`final_ranking`).
- an ``act`` with ``"by": "clock"``: the seat's turn clock ran out and a computer made that one decision.

The state version is the number of ``start``, ``act`` and ``undo`` entries: every client action carries
the version it was made on and is refused when it differs. Messages to browsers are built only from
:meth:`Match.view` of the client's seat, or from a public view for spectators (no hand, kitty,
discards or exchanged cards).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sergeant_major.core.actions import Action, Play, action_text
from sergeant_major.core.deal import Trick
from sergeant_major.core.match import Match, MatchEnd
from sergeant_major.core.rules import Rules
from sergeant_major.core.safetext import mixed_scripts, name_problem, normal_name, visible
from sergeant_major.core.view import View
from sergeant_major.players import LEVELS, HeuristicPlayer, decision_rng, make_player
from sergeant_major.records import action_from_json, action_to_json, match_to_record
from sergeant_major.web.accounts import DELETED_NAME
from sergeant_major.web.ratings import final_ranks, rated_if_filled
from sergeant_major.web.store import ClockSeat, LogEntry, SeatRow, TableRow

__all__ = ["GameTable", "LEVEL_NAMES", "computer_like", "role_like", "free_seat_like", "COMPUTER_WORDS", "FREE_SEAT_WORDS", "person_name_refusal", "view_json", "end_json", "match_length", "shown_seat", "history_game", "replay_steps", "final_ranking", "ranked_winners", "HUMAN",
           "STANDIN_LEVEL", "CLOCK"]

HUMAN = "human"
STANDIN_LEVEL = "heuristic"
CLOCK = "clock"  # the ``by`` of a decision a computer made because the seat's turn clock ran out
GAME_KINDS = ("start", "act", "undo", "left")
FAST_LEVELS = frozenset({"random", "beginner", "heuristic"})  # a decision in well under a millisecond or so


def shown_seat(s: SeatRow) -> SeatRow:
    """The seat as a table shows it: a name stored before names were checked (control characters) escaped, never raw."""
    return s if name_problem(s.name) is None else replace(s, name=visible(s.name))


@dataclass
class GameTable:
    """The state of one table: rows from the store plus the match replayed from the log.

    Attributes:
        row: the stored table; seats: the stored seats by number.
        log: every stored entry in order (``len(log)`` is the next entry's ``idx``).
        match: the match after the effective actions.
        acts: the effective actions with who took them (``by``), after undos.
        released: how many deals have been started by a ``start`` entry.
        version: the state version (count of ``start``, ``act`` and ``undo`` entries).
        away: seats where a computer stands in for an absent human now.
        left: seats whose human left the match before its end (a computer plays them to the end).
        clock: the turn clock shown in the state messages (set by :class:`~sergeant_major.web.clocks.Clocks`): ``seat``
            to decide, ``turn`` seconds per decision, each seat's ``reserve`` left (seconds) and ``deadline`` (epoch s).
        clock_seats: the turn clocks stored in the database when the table was read (the runner's clock starts from them).
    """

    row: TableRow
    seats: list[SeatRow]
    log: list[LogEntry] = field(default_factory=list)
    match: Match = field(init=False)
    acts: list[tuple[Action, str]] = field(default_factory=list)
    released: int = 0
    version: int = 0
    away: set[int] = field(default_factory=set)
    standins: list[dict[str, Any]] = field(default_factory=list)
    rating_done: bool = False  # the finished match was rated (or found unrated) by this copy: not tried again
    left: set[int] = field(default_factory=set)
    leavings: list[dict[str, Any]] = field(default_factory=list)
    clock: dict[str, Any] | None = None
    clock_seats: list[ClockSeat] = field(default_factory=list)

    def __post_init__(self) -> None:
        # a name stored before names were checked may hold control characters: shown escaped, never raw
        self.seats = [shown_seat(s) for s in self.seats]
        # a table stored before rules whose game end can practically never come were refused still loads
        # (docs/rules.md decision 13); new tables are checked when created (protocol.parse_new_table)
        self.rules = Rules.parse(self.row.rules, check_end=False)
        self.rules_text = str(self.rules)  # str() of rules is not free; every message carries it
        self.length = match_length(self.rules)
        self.match = Match(self.rules, self.row.seed, [s.name for s in self.seats])
        entries = list(self.log)
        self.log = []
        for e in entries:
            self.apply_entry(e)

    # ------------------------------------------------------------------ replay
    def _rebuild(self) -> None:
        self.match = Match(self.rules, self.row.seed, [s.name for s in self.seats])
        for a, _ in self.acts:
            self.match.apply(a)

    def apply_entry(self, e: LogEntry) -> None:
        """Apply one stored entry to the state (no checks beyond the rules': entries were checked when stored)."""
        self.log.append(e)
        if e.kind in GAME_KINDS:
            self.version += 1
        if e.kind == "start":
            self.released = max(self.released, int(e.data["deal"]))
        elif e.kind == "act":
            a = action_from_json(e.data["action"], self.rules.players)
            self.match.apply(a)
            self.acts.append((a, str(e.data.get("by", HUMAN))))
        elif e.kind == "undo":
            k = int(e.data["n"])
            del self.acts[len(self.acts) - k:]
            self._rebuild()
        elif e.kind == "away" and e.seat is not None:
            self.away.add(e.seat)
            self.standins.append({"seat": e.seat, "level": STANDIN_LEVEL, "from": self._where(), "to": None})
        elif e.kind == "left" and e.seat is not None:
            self.left.add(e.seat)
            self.away.discard(e.seat)
            self.leavings.append({"seat": e.seat, **self._where()})
        elif e.kind == "back" and e.seat is not None:
            self.away.discard(e.seat)
            for s in reversed(self.standins):
                if s["seat"] == e.seat and s["to"] is None:
                    s["to"] = self._where()
                    break

    def _where(self) -> dict[str, int]:
        return {"deal": self.match.deal.number, "action": len(self.match.deal.history)}

    # ------------------------------------------------------------------ questions
    def is_human(self, seat: int) -> bool:
        """Whether ``seat`` is played by a person (who may be away)."""
        return self.seats[seat].kind == HUMAN

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or ``None``."""
        for s in self.seats:
            if s.token is not None and s.token == token:
                return s.seat
        return None

    @property
    def waiting_start(self) -> bool:
        """Whether the current deal waits for a ``start`` (the first deal, or the next deal after a result)."""
        return not self.match.over and self.match.deal.number > self.released

    @property
    def no_person(self) -> bool:
        """Whether computers hold every seat (the table starts its deals itself)."""
        return not any(s.kind == HUMAN for s in self.seats)

    @property
    def everyone_gone(self) -> bool:
        """Whether, after deal 1 began, someone left the match and every other person's seat is left too or held by a
        stand-in: the next deals start by themselves and the match is played to its end (so a leaver cannot stop it, and
        ranks last). A person merely away, with nobody gone for good, finds the next deal waiting on return."""
        people = [s.seat for s in self.seats if s.kind == HUMAN]
        return (self.released > 0 and any(p in self.left for p in people)
                and all(p in self.left or p in self.away for p in people))

    def computer_of(self, seat: int) -> str | None:
        """The level playing ``seat`` now: its own level, the stand-in's for an away human, else ``None``."""
        kind = self.seats[seat].kind
        if kind != HUMAN:
            return kind
        return STANDIN_LEVEL if seat in self.away or seat in self.left else None

    def rated(self) -> bool:
        """Whether the match is rated, or will be if its free seats (a person's seat nobody took yet, bound to no account)
        go to accounts or computers: :func:`~sergeant_major.web.ratings.rated_if_filled`, the rule the lobby shows and,
        at the end, :func:`~sergeant_major.web.ratings.rated_preset` applies to the seats as taken."""
        seats = [(s.kind, s.account, s.kind == HUMAN and not s.claimed and s.account is None) for s in self.seats]
        return rated_if_filled(self.rules, self.row.practice, seats, self.row.fill_level) is not None

    def person_to_decide(self) -> int | None:
        """The seat whose person must decide now (the turn clock runs for it), or ``None``: no deal in play, an action
        the rules force, or a computer's (a stand-in's) turn."""
        m = self.match
        if m.over or self.waiting_start or m.to_act is None or m.publicly_forced_action() is not None:
            return None
        return m.to_act if self.computer_of(m.to_act) is None else None

    def stand_in_decision(self) -> Action:
        """The stand-in's decision for the seat to act now (its turn clock ran out), made on that seat's view.

        Raises:
            ValueError: when no person is to decide now."""
        seat = self.person_to_decide()
        if seat is None:
            raise ValueError("no person is to decide now")
        deal = self.match.deal
        return HeuristicPlayer().choose(self.match.view(seat), decision_rng(self.match.seed, seat, deal.number, len(deal.history)))

    def decision_next(self) -> bool:
        """Whether the next server action is a decision of a computer or a stand-in (not an action the rules force
        where everyone can know it, :meth:`Match.publicly_forced_action`): one the app paces with its ``--delay``
        (whatever the number of legal choices, which the others may not know)."""
        m = self.match
        if m.over or self.waiting_start or m.to_act is None or m.publicly_forced_action() is not None:
            return False
        return self.computer_of(m.to_act) is not None

    def slow_decision_next(self) -> bool:
        """Whether the next server action is a decision by a level that thinks long (not in :data:`FAST_LEVELS`):
        the app then computes it in a worker thread, so other tables are served meanwhile."""
        seat = self.match.to_act
        if seat is None or not self.decision_next():
            return False
        level = self.computer_of(seat)
        return level is not None and level not in FAST_LEVELS

    def next_machine_decision(self) -> tuple[Callable[[], Action], str] | None:
        """The next action the server takes itself (as :meth:`next_machine_action`), as a function that computes it and
        who takes it (``"forced"``, ``"computer"``, ``"standin"``), or ``None`` when a person must act, the deal waits
        for a start or the match is over. The function decides on the seat's :class:`View` taken now (a frozen
        snapshot): it may run in a worker thread, the table's lock released, while the table changes (the app then
        drops its answer when it did)."""
        m = self.match
        if m.over or self.waiting_start:
            return None
        forced = m.publicly_forced_action()
        if forced is not None:
            return (lambda: forced), "forced"
        seat = m.to_act
        assert seat is not None
        level = self.computer_of(seat)
        if level is None:
            return None
        player = make_player(level) if level in LEVELS else HeuristicPlayer()
        deal = m.deal
        view, rng = m.view(seat), decision_rng(m.seed, seat, deal.number, len(deal.history))
        return (lambda: player.choose(view, rng)), ("computer" if self.seats[seat].kind != HUMAN else "standin")

    def next_machine_action(self) -> tuple[Action, str] | None:
        """The next action the server takes itself (forced, or a computer's/stand-in's decision), or ``None``
        when a person must act, the deal waits for a start or the match is over."""
        got = self.next_machine_decision()
        if got is None:
            return None
        decide, by = got
        return decide(), by

    def undo_count(self, seat: int) -> int:
        """Practice mode: how many actions an undo of ``seat``'s last card takes back (0: nothing to undo).
        Only cards of the current deal, and only when every other seat is a computer."""
        if not self.row.practice or self.match.over or any(s.kind == HUMAN for s in self.seats if s.seat != seat):
            return 0  # (a table stored as practice with two people: an undo would take back the other's cards)
        deal = self.match.deal
        hist = deal.history
        for i in range(len(hist) - 1, -1, -1):
            a = hist[i]
            if isinstance(a, Play) and a.seat == seat:
                return len(hist) - i
        return 0

    def record(self) -> dict[str, Any]:
        """The match's record (full information: only for finished matches), with the stand-ins in ``meta``."""
        kinds = [s.kind for s in self.seats]
        meta: dict[str, Any] = {"program": "sergeant-major serve", "table": self.row.id, "name": self.row.name,
                                "practice": self.row.practice, "standins": [dict(s) for s in self.standins]}
        timeouts = self.timeouts()
        if timeouts or self.row.clock_turn:
            meta["clock"] = {"turn": self.row.clock_turn, "reserve": self.row.clock_reserve, "timeouts": timeouts}
        if self.leavings:
            meta["left"] = [dict(x) for x in self.leavings]
        return match_to_record(self.match, kinds, meta)

    def timeouts(self) -> list[dict[str, int]]:
        """The decisions a computer made because a turn clock ran out: ``seat``, ``deal`` and ``action`` (its index in the
        deal's actions, from 0), in order."""
        out: list[dict[str, int]] = []
        m = Match(self.rules, self.row.seed, [s.name for s in self.seats])
        for a, by in self.acts:
            if by == CLOCK:
                out.append({"seat": a.seat, "deal": m.deal.number, "action": len(m.deal.history)})
            m.apply(a)
        return out

    # ------------------------------------------------------------------ messages
    def _clock_json(self) -> dict[str, Any] | None:
        """The turn clock for a state message: ``turn`` and ``reserve`` seconds (the table's), each seat's reserve left,
        and for the seat to decide (``seat``; ``None``: nobody's clock runs) the seconds ``left`` now (to 0.1 s)."""
        if not self.row.clock_turn:
            return None
        c = self.clock or {}
        seat = c.get("seat")
        left = None if seat is None else max(0.0, round(float(c["deadline"]) - time.time(), 1))
        reserves = c.get("reserves") or [self.row.clock_reserve] * len(self.seats)
        return {"turn": self.row.clock_turn, "reserve": self.row.clock_reserve, "reserves": [round(x, 1) for x in reserves],
                "seat": seat, "left": left}

    def state_message(self, seat: int | None, online: set[int]) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator), built from that seat's view only."""
        m = self.match
        view = m.view(0 if seat is None else seat)
        vj = view_json(view, public=seat is None)
        if self.waiting_start and seat is not None:
            vj["legal"] = []
        prev: dict[str, Any] | None = None
        if len(m.deals) >= 2 or m.over:
            d = m.deals[-2] if not m.over else m.deals[-1]
            if d.result is not None:
                prev = {"number": d.number, "result": _result_json(d.result),
                        "last_trick": _trick_json(d.completed[-1]) if d.completed else None}
        return {
            "type": "state",
            "v": self.version,
            "you": seat,
            "table": {
                "id": self.row.id, "name": self.row.name, "name_default": self.row.name_default, "rules": self.rules_text, "practice": self.row.practice,
                "length": self.length,  # the deals and the total that end the match, for "Deal 3 of 18 · to 10"
                "seats": [{"name": s.name, "kind": s.kind, "online": s.seat in online, "away": s.seat in self.away,
                           "left": s.seat in self.left, "free": self.row.public and s.kind == HUMAN and not s.claimed,
                           "name_level": lv}  # a computer's server name: the page writes it in its language
                          for s, lv in zip(self.seats, name_levels(self.seats), strict=True)],
                "public": self.row.public,
                "rated": self.rated(),  # rated, or will be if the free seats go to accounts or computers
                # when computers take the free seats of a lobby table (epoch s; null: never, or none is free)
                "fill_in": None if self.row.fill_at is None or not any(s.kind == HUMAN and not s.claimed for s in self.seats)
                else max(0.0, round(self.row.fill_at - time.time(), 1)),
            },
            "clock": self._clock_json(),
            "waiting_start": self.waiting_start,
            "over": m.over,
            "end": None if m.end is None else end_json(m.end, ranked_winners(self)),
            "can_undo": seat is not None and self.undo_count(seat) > 0,
            "prev": prev,
            "view": vj,
        }


def final_ranking(gt: GameTable) -> list[int]:
    """Each seat's place in the finished match, 1 = best, competition ranking (``[1, 1, 3]``): the winners first (a
    shared win ties), then by total, every seat whose person left (``left`` entries) last: :func:`.ratings.final_ranks`
    plus one.

    Raises:
        ValueError: when the match is not over."""
    return [r + 1 for r in final_ranks(gt.match, sorted(gt.left))]


def match_length(rules: Rules) -> dict[str, Any]:
    """How long the match plays, for the pages to say it as the terminal's top line does ("Deal 3 of 18", "to 10",
    "to ±15"): ``deals`` (the number of deals, ``deals=N``, or ``None``) and ``end``, the total that may end it before
    its last deal, ``{"kind": "to" | "bound", "total": N}`` or ``None`` (:attr:`Rules.early_end`: none in a match of
    one deal)."""
    end = rules.early_end
    return {"deals": rules.deals, "end": None if end is None else {"kind": end[0].value, "total": end[1]}}


def end_json(end: MatchEnd, winners: list[int] | None = None) -> dict[str, Any]:
    """The match's end for a client: ``winners`` (seats: ``winners``, the table's :func:`ranked_winners`, else the
    match's), ``reached`` (the match's winners, whom the reason names: a winner who left ranks last and has not
    won), ``reason`` (English text, as in the record) and the same reason as structured data for a translation:
    ``kind`` (``instant``, ``traditional``, ``target``, ``bound``, ``deals`` or ``other``) and its facts (``tricks``,
    ``limit``, ``deal``, ``total``, ``deals``; ``verb``: ``beat`` or ``made``; ``two``: two seats past the target), from
    :class:`MatchEnd`."""
    out: dict[str, Any] = {"winners": list(end.winners if winners is None else winners), "reached": list(end.winners), "reason": end.reason, "kind": end.kind}
    out.update(end.facts)
    return out


def ranked_winners(gt: GameTable) -> list[int]:
    """The seats that won the finished match as its :func:`final_ranking` says (a winner who left ranks last: the best of
    the others won), as every page names them: the end dialog, the replay, My games, a player's page.

    Raises:
        ValueError: when the match is not over."""
    return [s for s, r in enumerate(final_ranking(gt)) if r == 1]


def _trick_json(t: Trick) -> dict[str, Any]:
    return {"leader": t.leader, "cards": [[s, str(c)] for s, c in t.cards], "winner": t.winner}


def _result_json(r: Any) -> dict[str, Any]:
    return {"tricks": list(r.tricks), "targets": list(r.targets), "diffs": list(r.diffs), "scores": list(r.scores),
            "contract": r.contract.code}


def view_json(view: View, public: bool = False) -> dict[str, Any]:
    """The JSON form of ``view``. With ``public``, everything a seat alone may know is removed (hand,
    kitty, discards, exchanged cards, legal actions): what a spectator sees."""
    return {
        "seat": None if public else view.seat,
        "names": list(view.names),
        "deal": view.deal_number,
        "dealer": view.dealer,
        "declarer": view.declarer,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "targets": list(view.targets),
        "contract": None if view.contract is None else view.contract.code,
        "trump": view.trump,
        "hand": [] if public else [str(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "kitty_count": view.kitty_count,
        "kitty": None if public or view.kitty is None else [str(c) for c in view.kitty],
        "discards": None if public or view.discards is None else [str(c) for c in view.discards],
        "trick": [[s, str(c)] for s, c in view.trick],
        "leader": view.leader,
        "tricks_won": list(view.tricks_won),
        "completed": [_trick_json(t) for t in view.completed],
        "exchange": [{"kind": e.kind, "giver": e.giver, "receiver": e.receiver,
                      "card": None if public or e.card is None else str(e.card)} for e in view.exchange],
        "legal": [] if public else [action_to_json(a) for a in view.legal],
        "totals": list(view.totals),
        "results": [_result_json(r) for r in view.results],
        "contracts_left": [[c.code for c in cl] for cl in view.contracts_left],
        "prev_diffs": None if view.prev_diffs is None else list(view.prev_diffs),
        "ended_gives": [list(p) for p in view.ended_gives],
    }


def computer_name(level: str, seat: int) -> str:
    """The server's name of a computer of ``level`` in ``seat`` (from 0): ``Heuristic 3``, stored in English; the pages
    write it in their language (:func:`name_levels`)."""
    return f"{level.capitalize()} {seat + 1}"


LEVEL_NAMES: dict[str, tuple[str, ...]] = {"random": ("Random", "Zufall"), "beginner": ("Beginner", "Anfänger"),
                                           "heuristic": ("Heuristic", "Heuristik"), "expert": ("Expert", "Experte")}
"""Each computer level's name in every language of the site (English, German: ``lv_`` in ``static/i18n.js``), as the
pages write the computers' names (:func:`computer_name` in the page's language)."""

COMPUTER_WORDS = ("Computer",)
"""The word the pages write before a computer's level in its seat's role line (``computer`` in ``static/i18n.js``, in
every language of the site): ``Computer (Heuristic)``, ``Computer (Heuristik)``."""

FREE_SEAT_WORDS = ("Free seat", "Freier Platz")
"""How the pages name a seat nobody took yet, before its number (``freeSeatN`` in ``static/i18n.js``, in every language of
the site): ``Free seat 3``, ``Freier Platz 3``; the lobby stores the English one (``lobby.FREE_NAME``)."""

_WORDS = "|".join(re.escape(w.casefold()) for ws in LEVEL_NAMES.values() for w in ws)
_COMPUTER_LIKE = re.compile(rf"(?:{_WORDS})(?:\s+\d+)?'*")  # casefolded
_FREE_SEAT_LIKE = re.compile(rf"(?:{'|'.join(re.escape(w.casefold()) for w in FREE_SEAT_WORDS)})(?:\s*\d+)?'*")
_ROLE_LIKE = re.compile(rf"(?:{'|'.join(re.escape(w.casefold()) for w in COMPUTER_WORDS)})\s*\(\s*(?:{_WORDS})\s*\)'*")


def computer_like(name: str) -> bool:
    """Whether ``name`` is written as a computer's name is in some language of the site: a level's name, alone or with a
    number, letter case and the ``'`` the server adds aside (``Heuristic 3``, ``zufall 2``, ``Experte 4'``, ``Random``)."""
    return _COMPUTER_LIKE.fullmatch(name.strip().casefold()) is not None


def role_like(name: str) -> bool:
    """Whether ``name`` is written as a computer seat's role line in some language of the site: the word computer and a
    level's name in brackets, letter case and spaces aside (``Computer (Heuristic)``, ``computer (zufall)``)."""
    return _ROLE_LIKE.fullmatch(name.strip().casefold()) is not None


def free_seat_like(name: str) -> bool:
    """Whether ``name`` is written as the pages name a seat nobody took yet, in some language of the site: its words,
    alone or with a number, letter case and spaces aside (``Free seat 3``, ``freier platz``, ``Free seat2``)."""
    return _FREE_SEAT_LIKE.fullmatch(" ".join(name.casefold().split())) is not None


def person_name_refusal(what: str, name: str, holder: int | None = None, me: int | None = None) -> tuple[str, str] | None:
    """The refusal of a person's name that would pass him off as someone else, ``(code, message)`` quoting it with
    ``repr`` (code ``computer_name``, ``free_seat_name``, ``mixed_script_name`` or ``account_name``, for the pages to write
    it in their language), else ``None``: written as a computer's name (:func:`computer_like`) or role line
    (:func:`role_like`), or as a free seat's name (:func:`free_seat_like`), which every page writes itself, in its
    language; mixing Latin, Cyrillic or Greek letters (:func:`~sergeant_major.core.safetext.mixed_scripts`); an account's name
    (``holder``: that account's id, as the store finds it letter case aside) unless the person is logged in as it
    (``me``: his account's id); or :data:`DELETED_NAME`, which a deleted account's seats show. The one check of a
    person's name for it: a seat's at creation, the first join of an invitation, the lobby's, a new account's. ``name``
    as typed (quoted so), checked as stored: normalised (:func:`~sergeant_major.core.safetext.normal_name`)."""
    typed, name = name, normal_name(name)
    if computer_like(name):
        return "computer_name", (f"{what} {typed[:60]!r} is refused: it is written as a computer player's name (a level, alone or "
                "with a number, as Heuristic, Heuristic 3 or Zufall 2): the others would take its player for a computer; "
                "choose another")
    if role_like(name):
        return "computer_name", (f"{what} {typed[:60]!r} is refused: it is written as a computer seat's role (computer and a level, as "
                "Computer (Heuristic) or Computer (Zufall)): the others would take its player for a computer; choose "
                "another")
    if free_seat_like(name):
        return "free_seat_name", (f"{what} {typed[:60]!r} is refused: it is written as the pages name a seat nobody took yet (as "
                "Free seat 3 or Freier Platz 3): the others would take the seat for a free one; choose another")
    mixed = mixed_scripts(name)
    if mixed:  # a Cyrillic "А" in "Аnn" passes for Latin: another person's name, or a computer's, in disguise
        letters = " and ".join(f"{script} ({ch!r})" for script, ch in mixed)
        return "mixed_script_name", (f"{what} {typed[:60]!r} is refused: it mixes {letters} letters, which look alike: "
                                     "the others could take it for another name; write it in one alphabet")
    if name.strip().casefold() == DELETED_NAME.casefold():
        return "account_name", (f"{what} {typed[:60]!r} is refused: it is the name a deleted account's seats show: the others would "
                "take its player for one; choose another")
    if holder is not None and holder != me:
        return "account_name", (f"{what} {typed[:60]!r} is refused: it is a registered player's name (letter case aside), and only "
                "who is logged in as that account plays under it; log in, or choose another")
    return None


def name_levels(seats: list[SeatRow]) -> list[str | None]:
    """Per seat, the computer level whose server name (:func:`computer_name`, with the ``'`` added when a person at the
    table has that name) the seat bears, else ``None``: a page writes such a name in its language from the level and
    the seat, so that it is right whoever named it (another process, before a restart)."""
    return [s.kind if s.kind != HUMAN and s.kind in LEVELS and s.name.rstrip("'") == computer_name(s.kind, s.seat) else None
            for s in seats]


def history_game(gt: GameTable, seat: int, token: str) -> dict[str, Any]:
    """One game of *My games* (``/api/history``): the table, the seat of the token (and the token, which the browser
    sent: its *continue* link takes that seat) and the match's score."""
    m = gt.match
    return {"id": gt.row.id, "name": gt.row.name, "name_default": gt.row.name_default, "rules": str(gt.rules), "length": match_length(gt.rules), "seat": seat,
            "token": token, "over": m.over,
            "names": [s.name for s in gt.seats], "name_levels": name_levels(gt.seats), "totals": list(m.totals), "deal": m.deal.number,
            "winners": ranked_winners(gt) if m.end else [], "created": gt.row.created}


def replay_steps(gt: GameTable) -> list[dict[str, Any]]:
    """Every position of a finished match, action by action, with all hands and the kitty while it is not taken (for the
    replay viewer)."""
    rules = gt.rules
    m = Match(rules, gt.row.seed, [s.name for s in gt.seats])

    def snap(text: str) -> dict[str, Any]:
        deal = m.deal
        return {"text": text, "deal": deal.number, "dealer": deal.dealer, "declarer": deal.declarer,
                "contract": None if deal.contract is None else deal.contract.code,
                "hands": [[str(c) for c in deal.hand(s)] for s in range(rules.players)],
                "kitty": [str(c) for c in deal.kitty_dealt] if deal.kitty else [],
                "trick": [[s, str(c)] for s, c in deal.current_trick()],
                "last": None if not deal.completed else {"cards": [[s, str(c)] for s, c in deal.completed[-1].cards],
                                                         "winner": deal.completed[-1].winner},
                "tricks_won": list(deal.tricks_won), "targets": list(deal.targets), "totals": list(m.totals)}

    steps = [{**snap("deal 1"), "action": None}]
    names = [s.name for s in gt.seats]
    for a, _by in gt.acts:
        before = m.deal
        m.apply(a)
        text = f"deal {before.number}: {action_text(a, names)}"
        aj = action_to_json(a)  # the client writes the step in its language from this
        if m.deal is not before and before.result is not None:
            # show the finished deal's last trick before the next deal's cards
            steps.append({**snap(text), "action": aj, "deal": before.number, "hands": [[] for _ in names], "trick": [], "kitty": [],
                          "last": {"cards": [[s, str(c)] for s, c in before.completed[-1].cards],
                                   "winner": before.completed[-1].winner},
                          "tricks_won": list(before.tricks_won), "contract": before.contract.code if before.contract is not None else None})
        else:
            steps.append({**snap(text), "action": aj})
    return steps
