"""Actions: small frozen values, one per decision or forced step of a deal.

Seats are absolute table positions ``0..players-1``; roles (dealer, eldest, third) rotate with the deal.
Every action names the seat that takes it. Text form (records, logs): see :func:`action_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from sergeant_major.core.cards import Card, Suit

__all__ = [
    "Contract",
    "AssignTargets",
    "NameContract",
    "Give",
    "EndGive",
    "Return",
    "TakeKitty",
    "Discard",
    "Play",
    "Action",
    "action_text",
]


class Contract(IntEnum):
    """What the declarer names: a trump suit (0..3, same numbers as :class:`Suit`), no-trump or minimum tricks.

    No-trump and minimum tricks exist only with ``contracts=suits-nt-mt`` (seed 003).
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMP = 4
    MINIMUM = 5

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` for no-trump and minimum tricks."""
        return _TRUMP_OF[self.value]

    @property
    def code(self) -> str:
        """Short text: ``C D H S NT MT``."""
        return "CDHS"[self.value] if self.value < 4 else ("NT" if self is Contract.NO_TRUMP else "MT")

    @property
    def word(self) -> str:
        """Long text: ``clubs``, ... ``no-trump``, ``minimum tricks``."""
        if self.value < 4:
            return Suit(self.value).word
        return "no-trump" if self is Contract.NO_TRUMP else "minimum tricks"

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``S``, ``spades``, ``♠``, ``NT``, ``no-trump``, ``MT``, ``misere``, ``minimum`` (any case).

        Raises:
            CardParseError: quoting ``text``.
        """
        t = text.strip().lower()
        if t in ("nt", "no-trump", "notrump", "no trump", "kt"):
            return cls.NO_TRUMP
        if t in ("mt", "minimum", "minimum tricks", "misere", "ms"):
            return cls.MINIMUM
        return cls(Suit.parse(text).value)


_TRUMP_OF: tuple[Suit | None, ...] = (*Suit, None, None)
""":attr:`Contract.trump` by contract value, looked up: calling ``Suit(value)`` took a few microseconds, and the search
asks it for every position it builds."""


@dataclass(frozen=True, slots=True)
class AssignTargets:
    """The dealer assigns the preset's targets to the seats (``dealer-assigns-targets=on``, seed 002).

    ``targets[s]`` is seat ``s``'s target; a permutation of the preset's targets."""

    seat: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NameContract:
    """The declarer names trump (or, in 3-5-8, the contract)."""

    seat: int
    contract: Contract


@dataclass(frozen=True, slots=True)
class Give:
    """An up player gives ``card`` to the down player ``to`` (exchange, seeds 000/004)."""

    seat: int
    card: Card
    to: int


@dataclass(frozen=True, slots=True)
class EndGive:
    """With ``exchange-count=at-most``: the up player gives no more cards to ``to``."""

    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class Return:
    """A down player returns ``card`` to the up player ``to`` for a card received."""

    seat: int
    card: Card
    to: int


@dataclass(frozen=True, slots=True)
class TakeKitty:
    """The declarer takes the kitty into his hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Discard:
    """The declarer discards ``card`` face down (it never counts as a trick; docs/rules.md reference decision 4)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: int
    card: Card


Action = AssignTargets | NameContract | Give | EndGive | Return | TakeKitty | Discard | Play


def action_text(action: Action, names: list[str] | None = None) -> str:
    """A one-line text for logs and replays, e.g. ``'seat 1 plays QS'``."""
    who = names[action.seat] if names else f"seat {action.seat}"

    def other(s: int) -> str:
        return names[s] if names else f"seat {s}"

    s = "" if who.strip().lower() == "you" else "s"  # the default human's name is "You": "You play", not "You plays"
    if isinstance(action, Play):
        return f"{who} play{s} {action.card}"
    if isinstance(action, Discard):
        return f"{who} discard{s} {action.card}"
    if isinstance(action, TakeKitty):
        return f"{who} take{s} the kitty"
    if isinstance(action, NameContract):
        return f"{who} name{s} {action.contract.word}"
    if isinstance(action, Give):
        return f"{who} give{s} {action.card} to {other(action.to)}"
    if isinstance(action, Return):
        return f"{who} return{s} {action.card} to {other(action.to)}"
    if isinstance(action, EndGive):
        return f"{who} give{s} no more to {other(action.to)}"
    return f"{who} assign{s} targets {'-'.join(map(str, action.targets))}"
