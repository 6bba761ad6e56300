"""The steps of a deal before the play: their kinds, their order under the rules, and who exchanges with whom.

A deal (:class:`sergeant_major.core.deal.Deal`) keeps the steps still to come as a stack; the rules' explanation
(:meth:`sergeant_major.core.rules.Rules.explain`) says the same order in words. Both read it from here.

This module reads a rule set only through :class:`StepRules` (the few options that order the steps), so that it
sits below :mod:`sergeant_major.core.rules` and :mod:`sergeant_major.core.deal` without importing either.

Sources: docs/rules.md reference presets (kitty order per preset), "Options" (kitty procedure, trump timing) and "Decisions
on ambiguities" (2, 3, 5: who exchanges first, and how many cards).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Protocol

from sergeant_major.core.rule_options import KittyTiming, TrumpTiming, TwoUp

__all__ = ["Step", "StepRules", "step_plan", "exchange_rounds"]


class Step(IntEnum):
    """A kind of step before the play (and the last step of a scored deal).

    The numbers order the kinds so that the exchange's kinds are one range, ``EXCHANGE <= kind <= RETURN``:
    the kinds a deal expands into single gives and returns, or skips, as it goes.
    """

    ASSIGN = 0  # the dealer assigns the targets (dealer-assigns-targets=on)
    CONTRACT = 1  # the declarer names trump or the contract
    EXCHANGE = 2  # the whole exchange: every give, then the returns that answer it
    GIVES = 3  # every up player's gives (trump=mid-exchange names trump after them)
    RETURNS = 4  # every down player's returns for the gives
    GIVE = 5  # one card from an up player to a down player
    RETURN = 6  # one card back from a down player to an up player
    KITTY = 7  # the declarer takes the kitty
    DISCARD = 8  # the declarer discards one card face down
    SCORED = 9  # the deal is scored: nothing comes next


class StepRules(Protocol):
    """The options of a rule set that order the steps (:class:`sergeant_major.core.rules.Rules` has them)."""

    @property
    def kitty(self) -> str: ...

    @property
    def kitty_timing(self) -> str: ...

    @property
    def trump_timing(self) -> str: ...

    @property
    def dealer_assigns(self) -> bool: ...

    @property
    def two_up(self) -> str: ...


def _kitty_steps(rules: StepRules) -> list[Step]:
    """The kitty procedure as steps, with :attr:`Step.CONTRACT` marking when trump is named (docs/rules.md reference options)."""
    k = rules.kitty
    if k in ("take-then-discard", "blind-trump"):
        return [Step.CONTRACT, Step.KITTY] + [Step.DISCARD] * 4
    if k == "discard-then-take":
        return [Step.CONTRACT] + [Step.DISCARD] * 4 + [Step.KITTY]
    if k == "see-then-trump":
        return [Step.KITTY, Step.CONTRACT] + [Step.DISCARD] * 4
    return [Step.CONTRACT]


def step_plan(rules: StepRules, exchange: bool) -> list[Step]:
    """The order of steps before the play for ``rules`` (exchange on or off for this deal).

    Source: docs/rules.md reference presets (kitty order per preset) and reference options (kitty procedure, trump timing).
    With ``kitty-timing=before-exchange`` (9-2-5, seeds 000/004 Variants "reversed targets") the declarer
    takes the kitty and discards first and names trump later, also in a deal without exchange (the
    first deal): kitty -> discard -> trump. With ``trump=before-exchange`` too, the kitty procedure keeps
    its own order before the exchange (so ``kitty=blind-trump`` names trump before the kitty is seen).
    """
    ks = _kitty_steps(rules)
    ci = ks.index(Step.CONTRACT)
    pre: list[Step] = [Step.ASSIGN] if rules.dealer_assigns else []
    if rules.kitty_timing is KittyTiming.BEFORE_EXCHANGE and rules.trump_timing is TrumpTiming.BEFORE_EXCHANGE:
        return pre + ks + ([Step.EXCHANGE] if exchange else [])
    if rules.kitty_timing is KittyTiming.BEFORE_EXCHANGE and not exchange:
        return pre + [s for s in ks if s != Step.CONTRACT] + [Step.CONTRACT]
    if not exchange:
        return pre + ks
    if rules.kitty_timing is KittyTiming.BEFORE_EXCHANGE:
        kitty_part = [s for s in ks if s != Step.CONTRACT]
        if rules.trump_timing is TrumpTiming.MID_EXCHANGE:
            return pre + kitty_part + [Step.GIVES, Step.CONTRACT, Step.RETURNS]
        return pre + kitty_part + [Step.EXCHANGE, Step.CONTRACT]
    if rules.trump_timing is TrumpTiming.BEFORE_EXCHANGE:
        return pre + ks[: ci + 1] + [Step.EXCHANGE] + ks[ci + 1:]
    if rules.trump_timing is TrumpTiming.MID_EXCHANGE:  # only with kitty=none (validated)
        return pre + [Step.GIVES, Step.CONTRACT, Step.RETURNS]
    return pre + [Step.EXCHANGE] + ks


def exchange_rounds(rules: StepRules, diffs: tuple[int, ...], targets: tuple[int, ...]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Who gives how many cards to whom, in order: ``[(up_seat, [(down_seat, count), ...]), ...]``.

    ``diffs`` are the previous deal's over/under-tricks by seat (docs/rules.md reference decision 3: by player, whatever
    seat role they hold now); ``targets`` the coming deal's targets by seat. With two up, the one with
    the higher coming target exchanges first (decision 2; ``two-up=most-up``: the most up first).
    Each up player gives one card per over-trick to the down players, highest coming target first, each
    receiving at most his under-tricks (decision 5). A player who made his target exactly takes no part.
    """
    n = len(diffs)
    ups = [s for s in range(n) if diffs[s] > 0]
    downs = [s for s in range(n) if diffs[s] < 0]
    if rules.two_up is TwoUp.MOST_UP:
        ups.sort(key=lambda s: (-diffs[s], -targets[s], s))
    else:
        ups.sort(key=lambda s: (-targets[s], -diffs[s], s))
    downs.sort(key=lambda s: (-targets[s], s))
    room = {d: -diffs[d] for d in downs}
    rounds: list[tuple[int, list[tuple[int, int]]]] = []
    for u in ups:
        left = diffs[u]
        parts: list[tuple[int, int]] = []
        for d in downs:
            k = min(left, room[d])
            if k > 0:
                parts.append((d, k))
                room[d] -= k
                left -= k
        if parts:
            rounds.append((u, parts))
    return rounds
