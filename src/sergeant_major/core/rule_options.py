"""The kinds of the rule options whose value is one of a few words (docs/rules.md "Reference options").

Each is a ``StrEnum``: its value is the word of the string form (``kitty=none``), so a member prints and
compares as that word; :class:`sergeant_major.core.rules.Rules` holds members.
"""

from __future__ import annotations

import enum

__all__ = ["Declarer", "ContractSet", "KittyProcedure", "KittyTiming", "GiveRule", "ReturnRule", "TrumpReturn",
           "ExchangeCount", "TwoUp", "TrumpTiming", "Scoring", "Traditional"]


class Declarer(enum.StrEnum):
    """Who names trump or the contract and uses the kitty (option ``declarer``; docs/rules.md reference options)."""

    DEALER = "dealer"
    ELDEST = "eldest"


class ContractSet(enum.StrEnum):
    """What the declarer may name (option ``contracts``): a trump suit, or also no-trump and minimum tricks."""

    SUITS = "suits"
    SUITS_NT_MT = "suits-nt-mt"


class KittyProcedure(enum.StrEnum):
    """How the declarer uses the kitty (option ``kitty``; docs/rules.md reference options)."""

    TAKE_THEN_DISCARD = "take-then-discard"
    DISCARD_THEN_TAKE = "discard-then-take"
    SEE_THEN_TRUMP = "see-then-trump"
    BLIND_TRUMP = "blind-trump"
    NONE = "none"


class KittyTiming(enum.StrEnum):
    """Whether the kitty is taken after the exchange or before it (option ``kitty-timing``)."""

    AFTER_EXCHANGE = "after-exchange"
    BEFORE_EXCHANGE = "before-exchange"


class GiveRule(enum.StrEnum):
    """What the up player gives in the exchange (option ``give``)."""

    CHOSEN = "chosen"
    LOWEST = "lowest"


class ReturnRule(enum.StrEnum):
    """What the down player returns in the exchange (option ``return``)."""

    SUIT = "suit"
    OVERALL = "overall"


class TrumpReturn(enum.StrEnum):
    """How a trump received in the exchange is answered (option ``trump-return``)."""

    HIGHEST = "highest"
    FREE = "free"


class ExchangeCount(enum.StrEnum):
    """Exactly one card per over-trick, or at most that many (option ``exchange-count``)."""

    EXACT = "exact"
    AT_MOST = "at-most"


class TwoUp(enum.StrEnum):
    """With two players up, who exchanges first (option ``two-up``)."""

    HIGHER_TARGET = "higher-target"
    MOST_UP = "most-up"


class TrumpTiming(enum.StrEnum):
    """When trump is named relative to the exchange (option ``trump``)."""

    AFTER_EXCHANGE = "after-exchange"
    BEFORE_EXCHANGE = "before-exchange"
    MID_EXCHANGE = "mid-exchange"


class Scoring(enum.StrEnum):
    """How a deal's over- and under-tricks are scored (option ``scoring``)."""

    RUNNING = "running"
    COUNTERS = "counters"
    CHIPS = "chips"


class Traditional(enum.StrEnum):
    """The traditional game end: off, the first dealer who made (on) or beat (strict) his target (option ``traditional``)."""

    OFF = "off"
    ON = "on"
    STRICT = "strict"
