"""One stable integer action space for every preset (OpenSpiel style).

| ids | action |
|---|---|
| 0..51 | a card (``Card.id``): give, return, discard or play, by the phase |
| 52..57 | name a contract: clubs, diamonds, hearts, spades, no-trump, minimum tricks |
| 58 | take the kitty (always forced) |
| 59 | give no more cards (``exchange-count=at-most``) |
| 60..83 | assign targets: permutation number ``k`` of the preset's targets (``dealer-assigns-targets``) |

The encoding of a card action does not depend on its kind: the phase tells which kind it is.
"""

from __future__ import annotations

import itertools
from typing import Final

from sergeant_major.core.actions import (
    Action,
    AssignTargets,
    Contract,
    Discard,
    EndGive,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
)
from sergeant_major.core.cards import CARDS
from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import IllegalActionError, SergeantMajorError

__all__ = ["NUM_ACTIONS", "CONTRACT_BASE", "TAKE_KITTY", "END_GIVE", "ASSIGN_BASE", "action_id", "action_from_id", "describe_id", "legal_ids"]

CONTRACT_BASE: Final = 52
TAKE_KITTY: Final = 58
END_GIVE: Final = 59
ASSIGN_BASE: Final = 60
NUM_ACTIONS: Final = 84


def _perms(targets: tuple[int, ...]) -> list[tuple[int, ...]]:
    return sorted(set(itertools.permutations(targets)))


def action_id(action: Action, deal: Deal | None = None) -> int:
    """The integer id of ``action`` (``0 <= id < NUM_ACTIONS``). ``deal`` is needed only for AssignTargets.

    Raises:
        SergeantMajorError: quoting ``action`` when it is not an action, or an AssignTargets without ``deal``.
    """
    if isinstance(action, (Play, Discard, Give, Return)):
        return action.card.id
    if isinstance(action, NameContract):
        return CONTRACT_BASE + int(action.contract)
    if isinstance(action, TakeKitty):
        return TAKE_KITTY
    if isinstance(action, EndGive):
        return END_GIVE
    if not isinstance(action, AssignTargets):
        raise SergeantMajorError(f"{action!r} is not an action (Play, Discard, Give, Return, NameContract, TakeKitty, "
                                 "EndGive or AssignTargets)")
    if deal is None:
        raise SergeantMajorError(f"{action!r}: an AssignTargets needs the deal to number its permutation (deal=...)")
    by_role = tuple(action.targets[(deal.dealer + r) % deal.n] for r in range(deal.n))
    return ASSIGN_BASE + _perms(deal.rules.targets).index(by_role)


def legal_ids(deal: Deal) -> list[int]:
    """Sorted ids of the legal actions of the seat to act."""
    return sorted(action_id(a, deal) for a in deal.legal_actions())


def action_from_id(deal: Deal, aid: int) -> Action:
    """The legal action of the seat to act with id ``aid``.

    Raises:
        IllegalActionError: quoting ``aid`` when no legal action has that id.
    """
    for a in deal.legal_actions():
        if action_id(a, deal) == aid:
            return a
    raise IllegalActionError(f"action id {aid} ({describe_id(aid)}) is not legal now (phase {deal.phase.value})", "action")


_CONTRACT_WORDS: Final = ("clubs", "diamonds", "hearts", "spades", "no-trump", "minimum tricks")


def describe_id(aid: int) -> str:
    """What action id ``aid`` stands for, in words: ``'QS'``, ``'name spades'``, ``'take the kitty'``,
    ``'give no more cards'``, ``'assign targets #3'``; ``'not an action id'`` outside ``0..NUM_ACTIONS-1``."""
    if 0 <= aid < CONTRACT_BASE:
        return str(CARDS[aid])
    if CONTRACT_BASE <= aid < TAKE_KITTY:
        return f"name {_CONTRACT_WORDS[aid - CONTRACT_BASE]}"
    if aid == TAKE_KITTY:
        return "take the kitty"
    if aid == END_GIVE:
        return "give no more cards"
    if ASSIGN_BASE <= aid < NUM_ACTIONS:
        return f"assign targets #{aid - ASSIGN_BASE}"
    return "not an action id"


_ = Contract
