"""Counting and drawing worlds: step (2) of the method described in :mod:`sergeant_major.search.determinization`.

A world is one mask of cards per place of a :class:`~sergeant_major.search.determinization_plan.Plan`.
:func:`draw_world` draws one exactly uniformly among the assignments that a plan's place constraints allow
(counted by :func:`count_assignments`); :func:`returns_possible` and :func:`gives_possible` drop at once a world
that can have no history.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import comb, factorial

from sergeant_major.core.cards import FULL_DECK, mask_of
from sergeant_major.search.determinization_budget import ResampleError
from sergeant_major.search.determinization_plan import (
    DISCARD,
    GIVE,
    GIVE_OR_RETURN,
    OUT,
    OWN_REST,
    SEAT_PLACES,
    TWIN_PLACES,
    Plan,
    answerable_under_caps,
    card_ids,
    only_returns_from,
    overall_order,
)


def count_assignments(groups: list[tuple[int, list[int]]], n_places: int) -> Callable[[int, tuple[int, ...]], int]:
    """A memoised counter ``count(group, sizes)``: the assignments of the cards of ``groups[group:]`` (each group
    ``(mask of its allowed places, card ids)``) to the ``n_places`` places that fill the place ``sizes`` exactly."""
    memo: dict[tuple[int, tuple[int, ...]], int] = {}
    last_group = len(groups) - 1

    def count(group: int, sizes: tuple[int, ...]) -> int:
        if group > last_group:
            return 1 if not any(sizes) else 0
        key = (group, sizes)
        known = memo.get(key)
        if known is not None:
            return known
        allowed, cards = groups[group]
        total = 0
        if group == last_group:
            if all(sizes[b] == 0 for b in range(n_places) if not allowed >> b & 1) and sum(sizes) == len(cards):
                total = multinomial(len(cards), sizes)
        elif group == last_group - 1:  # the two largest groups at once, without listing the splits of the first
            total = _two_groups(len(cards), allowed, len(groups[last_group][1]), groups[last_group][0], sizes)
        else:
            for split_sizes in place_splits(len(cards), allowed, sizes, n_places):
                rest = tuple(c - s for c, s in zip(sizes, split_sizes, strict=True))
                rest_count = count(group + 1, rest)
                if rest_count:
                    total += multinomial(len(cards), split_sizes) * rest_count
        memo[key] = total
        return total

    return count


def _two_groups(n1: int, m1: int, n2: int, m2: int, caps: tuple[int, ...]) -> int:
    """Assignments of ``n1`` cards allowed in the places of mask ``m1`` and ``n2`` cards allowed in ``m2`` that fill
    ``caps`` exactly: the sum over the splits of the first group of the product of the two multinomials, in closed
    form. A place only one group allows takes that group's cards; of the room ``S`` of the places both allow, the
    first group fills any ``r1`` (Vandermonde: the sum over the splits of ``r1`` of the products of
    ``comb(caps[b], y_b)`` is ``comb(S, r1)``), so the count is ``n1! n2! comb(S, r1) / prod(caps[b]!)``. The
    same number as listing the splits (``place_splits``), which with 4 players and ``give=lowest`` meant hundreds of
    thousands of splits per view (seconds to a minute before the first sample)."""
    r1, r2, shared, den = n1, n2, 0, 1
    for b, c in enumerate(caps):
        if not c:
            continue
        if (m1 & m2) >> b & 1:
            shared += c
        elif m1 >> b & 1:
            r1 -= c
        elif m2 >> b & 1:
            r2 -= c
        else:
            return 0
        den *= factorial(c)
    if r1 < 0 or r2 < 0 or r1 + r2 != shared:
        return 0
    return factorial(n1) * factorial(n2) * comb(shared, r1) // den


def multinomial(n: int, parts: tuple[int, ...] | list[int]) -> int:
    """The ways to split ``n`` distinct cards into places of the sizes ``parts`` (``n! / prod(part!)`` when they
    add up to ``n``)."""
    out = 1
    left = n
    for p in parts:
        out *= comb(left, p)
        left -= p
    return out


def place_splits(n: int, mask: int, sizes: tuple[int, ...], n_places: int) -> list[tuple[int, ...]]:
    """Every way to put ``n`` cards into the places of mask ``mask`` within their ``sizes`` (``n_places`` places):
    the cards per place, one tuple per way."""
    allowed = [place for place in range(n_places) if mask >> place & 1]
    out: list[tuple[int, ...]] = []
    split = [0] * n_places

    def fill_from(position: int, left: int) -> None:
        if position == len(allowed) - 1:
            place = allowed[position]
            if left <= sizes[place]:
                split[place] = left
                out.append(tuple(split))
                split[place] = 0
            return
        place = allowed[position]
        for taken in range(min(left, sizes[place]) + 1):
            split[place] = taken
            fill_from(position + 1, left - taken)
        split[place] = 0

    if allowed:
        fill_from(0, n)
    elif n == 0:
        out.append(tuple(split))
    return out


def draw_world(plan: Plan, rng: random.Random) -> tuple[list[int], dict[int, int]]:
    """Masks of cards per place, uniformly among the assignments allowed by one of the plan's place
    constraints (a threshold choice drawn in proportion to its count), and that choice's thresholds."""
    n_places = len(plan.places)
    if plan.world_counts is None:
        counts = []
        for choice in plan.threshold_choices:
            if choice.counter is None:
                choice.counter = count_assignments(choice.groups, n_places)
            counts += [choice.counter(0, sizes) * weight
                       for sizes, weight in zip(choice.variants, choice.weights, strict=True)]
        plan.world_counts = counts
    counts = plan.world_counts
    if not any(counts):
        raise ResampleError(f"no deal is consistent with the view of seat {plan.view.seat}")
    pick = rng.randrange(sum(counts))
    index = 0
    while pick >= counts[index]:
        pick -= counts[index]
        index += 1
    for choice in plan.threshold_choices:
        if index < len(choice.variants):
            break
        index -= len(choice.variants)
    count = choice.counter
    assert count is not None
    sizes = choice.variants[index]
    world = [0] * n_places
    for group, (allowed, cards) in enumerate(choice.groups):
        if group == len(choice.groups) - 1:
            split: tuple[int, ...] = sizes
        else:
            known = choice.splits.get((group, sizes))
            if known is None:  # the first world to reach these sizes: the splits and weights are the same for all
                split_weights = []
                splits = place_splits(len(cards), allowed, sizes, n_places)
                for split_sizes in splits:
                    rest = tuple(size - taken for size, taken in zip(sizes, split_sizes, strict=True))
                    split_weights.append(multinomial(len(cards), split_sizes) * count(group + 1, rest))
                known = choice.splits[group, sizes] = (splits, split_weights, sum(split_weights))
            splits, split_weights, total = known
            pick = rng.randrange(total)
            index = 0
            while pick >= split_weights[index]:
                pick -= split_weights[index]
                index += 1
            split = splits[index]
        shuffled = list(cards)
        rng.shuffle(shuffled)
        dealt = 0
        for place in range(n_places):
            for card in shuffled[dealt : dealt + split[place]]:
                world[place] |= 1 << card
            dealt += split[place]
        sizes = tuple(size - taken for size, taken in zip(sizes, split, strict=True))
    return world, choice.thresholds


def returns_possible(plan: Plan, world: list[int], checks: list[tuple[int, int, int]]) -> bool:
    """Whether ``world`` leaves, for every check ``(down, up, returns)`` of :func:`find_return_checks`, at least
    ``returns`` cards with the up player (held or played, none the viewer gave anyone but the down player) above all
    of the down player's cards of their suit, among them every card the viewer gave the down player that the up
    player holds: if not, the world has no history and its completions need not be tried."""
    held: dict[int, int] = {}
    for (kind, owner), cards in zip(plan.places, world, strict=True):
        if kind in TWIN_PLACES:
            kind, owner = plan.places[owner]
        if kind in SEAT_PLACES:
            held[owner] = held.get(owner, 0) | cards
    for owner, card in plan.plays:
        held[owner] = held.get(owner, 0) | 1 << card
    for down, up, returns in checks:
        down_cards = held.get(down, 0)
        up_cards = held.get(up, 0)
        # the viewer's gifts to the down player that the up player holds: they can only have come back as his returns
        gifts_back = 0
        for card, receiver in plan.from_viewer.items():
            if receiver != down:  # any other gift of the viewer's is not a return of the down player's
                up_cards &= ~(1 << card)
            elif up_cards >> card & 1:
                gifts_back |= 1 << card
        above_down = 0
        for suit in range(4):
            ranks_to_top = (
                down_cards >> (13 * suit) & 0x1FFF
            ).bit_length()  # ranks at or below the down player's highest: 0..ranks_to_top-1
            higher = up_cards >> (13 * suit + ranks_to_top) & (0x1FFF >> ranks_to_top)
            if (gifts_back >> (13 * suit) & 0x1FFF) & ~(higher << ranks_to_top):
                return False  # such a gift is not above the down player's cards of its suit: it was no return
            above_down += higher.bit_count()
        if above_down < returns:
            return False
    return True


def gives_possible(plan: Plan, world: list[int], thresholds: dict[int, int]) -> bool:
    """``give=lowest``: whether ``world`` can hold the gives of every up player with unseen gives, for his drawn
    threshold ``t`` (``thresholds``: seat -> card id): they are ``t`` and cards below it, so ``t`` and as many cards
    at or below it as he gave must be where those cards can be now - with him, his down players, or a seat one of
    them passed a card to
    since (the discards, when the declarer is one of them), held or played. If not, the world has no history and
    its completions need not be tried (a necessary condition: dropping such a world changes only the time)."""
    slots = plan.slots
    view = plan.view
    viewer = view.seat
    cards_of: dict[int, int] = {}
    out_cards = 0
    for (kind, owner), cards in zip(plan.places, world, strict=True):
        if kind in TWIN_PLACES:
            kind, owner = plan.places[owner]
        if kind in SEAT_PLACES:
            cards_of[owner] = cards_of.get(owner, 0) | cards
        elif kind is OUT:
            out_cards |= cards
        elif kind is OWN_REST:
            cards_of[viewer] = cards_of.get(viewer, 0) | cards
    cards_of[viewer] = cards_of.get(viewer, 0) | plan.own_cards
    for owner, card in plan.plays:
        cards_of[owner] = cards_of.get(owner, 0) | 1 << card
    if view.discards is not None:
        out_cards |= mask_of(view.discards)
    for up, round_slots in plan.lowest_rounds.items():
        threshold = thresholds.get(up, -1)
        if threshold < 0:
            continue
        gives = [i for i in round_slots if slots[i].kind is GIVE]
        holders = {up} | {slots[i].to for i in gives}
        reaches_out = False
        for slot in slots[gives[0] + 1 :]:
            if slot.kind in GIVE_OR_RETURN and slot.seat in holders:
                holders.add(slot.to)
            elif slot.kind is DISCARD and slot.seat in holders:
                reaches_out = True
        reach = out_cards if reaches_out else 0
        for holder in holders:
            reach |= cards_of.get(holder, 0)
        if not reach >> threshold & 1:
            return False
        threshold_order = overall_order(threshold, slots[gives[0]].trump)
        if sum(1 for card in card_ids(reach) if overall_order(card, slots[gives[0]].trump) <= threshold_order) < len(
            gives
        ):
            return False
        for down, check_up, _ in plan.return_checks:
            if check_up == up and not _gives_answerable(plan, cards_of, reach, gives, down, up, threshold):
                return False
    return True


def _gives_answerable(
    plan: Plan, cards_of: dict[int, int], reach: int, gives: list[int], down: int, up: int, threshold: int
) -> bool:
    """``give=lowest`` with one of :func:`find_return_checks`' unseen exchanges ``(down, up, returns)``, in a drawn
    world (``cards_of``: seat -> cards held or played): whether the up player's gives to ``down`` (slot indexes
    ``gives``) can be cards of ``reach`` at or below ``threshold`` that the viewer cannot have held, answered by the
    down player's returns (:func:`answerable_under_caps`). A necessary condition: a
    world failing it has no history."""
    slots = plan.slots
    gives_trump = slots[gives[0]].trump
    threshold_order = overall_order(threshold, gives_trump)
    seen_gives = sum(1 << slots[give].card for give in gives if slots[give].card >= 0)
    at_or_below = sum(1 << card for card in card_ids(FULL_DECK) if overall_order(card, gives_trump) <= threshold_order)
    up_low = cards_of.get(up, 0) & at_or_below if only_returns_from(slots, gives[0], up, down) else 0
    return answerable_under_caps(
        [slots[give] for give in gives],
        down,
        threshold,
        reach & at_or_below & ~plan.never_from_others & ~seen_gives,
        cards_of.get(down, 0),
        cards_of.get(up, 0),
        up_low,
    )
