"""What a seat's view says about the cards it cannot see: the plan of a determinization.

Step (1) of the method described in :mod:`sergeant_major.search.determinization`. :func:`prepare_plan` reads a
:class:`~sergeant_major.core.view.View` into a :class:`Plan`: the actions before the play in order (:class:`Slot`,
of a :class:`SlotKind`), the places an unseen card can be now (:class:`PlaceKind`) with their sizes, the places each
unseen card is allowed in (shown voids, the exchange, seen returns), one :class:`PlaceConstraints` per choice of the
thresholds, and facts of the public history (:class:`HistoryFacts`). Cards are ids ``0..51`` (``suit * 13 + rank``);
a set of cards is an int mask with bit ``id`` set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from sergeant_major.core.actions import (
    Action,
    AssignTargets,
    Contract,
    EndGive,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
)
from sergeant_major.core.cards import CARDS, FULL_DECK, SUIT_MASKS, id_list, mask_of
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.rule_options import ExchangeCount, GiveRule, KittyProcedure, ReturnRule, TrumpReturn
from sergeant_major.core.rules import Rules, minimum_ceilings
from sergeant_major.core.view import View
from sergeant_major.search.determinization_budget import ResampleError


def overall_order(card: int, trump: int) -> tuple[int, int, int]:
    """Sort key of card id ``card`` for ``return=overall`` and ``give=lowest``: rank, then trump (``trump``: the
    trump suit 0..3, or -1), then suit (deal.py ``_rank_key_high``)."""
    suit = card // 13
    return (card % 13, 1 if suit == trump else 0, suit)


card_ids = id_list
"""The card ids of a mask, rising (a fresh list): :func:`sergeant_major.core.cards.id_list`."""


class SlotKind(Enum):
    """The kind of an action of the deal before the play (a :class:`Slot`)."""

    ASSIGN = "assign"  # the targets assigned
    NAME_CONTRACT = "contract"
    TAKE_KITTY = "kitty"
    DISCARD = "discard"
    GIVE = "give"  # a card an up player gives a down player
    END_GIVE = "endgive"  # an up player gives no more (exchange-count=at-most)
    RETURN = "return"  # a card a down player returns for one he was given


class PlaceKind(Enum):
    """Where a card the viewer cannot see can be now; a place is ``(kind, owner)`` (:attr:`Plan.places`)."""

    HAND = "hand"  # owner: the seat
    LATE = "late"  # owner: the seat; cards that can only have reached it late (after a threshold, a seen return)
    KITTY = "kitty"  # the kitty still in the middle; owner -1
    OUT = "out"  # discards the viewer did not see; owner -1
    OWN_REST = "rest"  # 3-5-8 before the contract: the viewer's own cards not yet shown; owner: the viewer
    LOW = "low"  # owner: the place it twins; its cards at or below the single up player's threshold
    OUT_LOW = "outlow"  # owner: the OUT place; discards at or below the declaring up player's threshold


# The members bound to module names: on CPython 3.11 ``SlotKind.GIVE`` is a slow lookup (the enum's metaclass has a
# __getattr__, about 0.4 us), and the kinds are compared in every loop over the history
ASSIGN, NAME_CONTRACT = SlotKind.ASSIGN, SlotKind.NAME_CONTRACT
TAKE_KITTY, DISCARD = SlotKind.TAKE_KITTY, SlotKind.DISCARD


GIVE, END_GIVE, RETURN = SlotKind.GIVE, SlotKind.END_GIVE, SlotKind.RETURN


GIVE_OR_RETURN = (GIVE, RETURN)


HAND, LATE, KITTY, OUT, OWN_REST = PlaceKind.HAND, PlaceKind.LATE, PlaceKind.KITTY, PlaceKind.OUT, PlaceKind.OWN_REST


LOW, OUT_LOW = PlaceKind.LOW, PlaceKind.OUT_LOW


SEAT_PLACES = (HAND, LATE)


TWIN_PLACES = (LOW, OUT_LOW)


@dataclass
class Slot:
    """One action of the deal before the play, in order: what kind, who, and the card if the seat saw it."""

    kind: SlotKind
    seat: int
    to: int = -1  # the receiver of a give or a return
    card: int = -1  # -1: not seen by the viewer
    action: Action | None = None  # the fixed public action (assign, contract, kitty, endgive)
    trump: int = -1  # the trump suit known at that moment


@dataclass
class Plan:
    """Everything derived from one view (:func:`prepare_plan`); the sampler draws worlds and histories from it."""

    view: View
    slots: list[Slot]  # the actions before the play, in order
    plays: list[tuple[int, int]]  # (seat, card id) of every card played, in order
    own_cards: int  # mask of the viewer's known own cards now
    own_rest_hidden: bool  # 3-5-8 before the contract: the rest of the viewer's hand is unknown
    places: list[tuple[PlaceKind, int]]  # (kind, owner) of every place an unseen card can be
    threshold_choices: list[PlaceConstraints]  # one per choice of the thresholds (a single one without them)
    known_out: int  # cards out of play known to the viewer (its discards; the 2C with kitty=none)
    facts: HistoryFacts  # facts of the public history per slot, computed once
    from_viewer: dict[int, int] = field(default_factory=dict)  # card -> seat the viewer gave it to
    above_seen_return: dict[int, int] = field(default_factory=dict)  # seat -> cards above a return it made to the viewer
    lowest_rounds: dict[int, list[int]] = field(default_factory=dict)  # give=lowest: up seat -> its slots (gives, returns)
    world_counts: list[int] | None = None  # assignment counts per (threshold choice, variant), filled on the first draw
    return_checks: list[tuple[int, int, int]] = field(default_factory=list)  # (down, up, returns) of find_return_checks
    never_from_others: int = 0  # cards the viewer knows no other seat held at the exchange (its own, not received, or given)
    play_actions: list[Play] = field(default_factory=list)  # the Play of each of plays, made once for every world

    def __post_init__(self) -> None:
        self.play_actions = [Play(seat, CARDS[card]) for seat, card in self.plays]


@dataclass
class PlaceConstraints:
    """The place constraints for one choice of thresholds: ``thresholds[seat]`` is the highest card the up
    player at ``seat`` gave (``give=lowest``), so that every card he held then and kept is above it (with
    ``return=overall``: the lowest card a down player returned unseen, so that he kept none above it)."""

    thresholds: dict[int, int]
    variants: list[tuple[int, ...]]  # the sizes of the places, one tuple per split of the late places
    groups: list[tuple[int, list[int]]]  # (mask of the allowed places, card ids), largest group last
    weights: list[int]  # per variant: LATE_ODDS ** (cards fewer in the up players' late places than at most)
    counter: Callable[[int, tuple[int, ...]], int] | None = None  # memoised assignment counts
    # draw_world's splits of a group and their weights, by (group, sizes left): the same for every world drawn
    splits: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int], int]] = field(default_factory=dict)


@lru_cache(maxsize=64)
def prepare_plan(view: View) -> Plan:
    """The plan of ``view``: its slots, the places of the unseen cards and their constraints, one set per choice
    of thresholds (cached for the last 64 views).

    Raises:
        ResampleError: when the view admits no consistent deal (its unseen cards do not add up to its places, a
            card has no allowed place, or the exchange does not follow the rules' order).
    """
    rules = view.rules
    viewer = view.seat
    declarer = view.declarer
    slots, stand_in_sizes, kitty_left = _public_slots(view)
    plays = ([(seat, card.id) for trick in view.completed for seat, card in trick.cards]
             + [(seat, card.id) for seat, card in view.trick])
    played = 0
    for _, card in plays:
        played |= 1 << card
    deck = FULL_DECK & ~1 if rules.kitty is KittyProcedure.NONE else FULL_DECK
    own_rest_hidden = bool(rules.contract_after) and view.contract is None
    own_cards = mask_of(view.hand)
    known_out = (deck ^ FULL_DECK) | (mask_of(view.discards) if view.discards is not None else 0)
    unseen = deck & ~own_cards & ~played & ~known_out
    # returns the viewer saw: the returner held no higher card then (docs/rules.md reference decision 1). A card above it
    # that he holds now must have reached him later (a later give, the kitty): at most ``late_most[seat]`` of them.
    above_seen_return: dict[int, int] = {}
    first_seen_return: dict[int, int] = {}
    for index, slot in enumerate(slots):
        if slot.kind is not RETURN or slot.to != viewer or slot.card < 0:
            continue
        returner = slot.seat
        first_seen_return.setdefault(returner, index)
        received = _received_for(slots, index, rules.trump_return)
        above_seen_return[returner] = above_seen_return.get(returner, 0) | _return_forbidden(
            slot.card, received, slot.trump, rules.return_rule, rules.trump_return)
    # A card above a seen return that reaches him by a later give is itself answered by a return of the highest
    # card of its suit (or overall): it comes back out. What can leave such cards with him: the kitty, and a
    # trump received under trump-return=free (answered by any card). With return=overall that free answer can
    # be a trump received with the card, which then stays; with return=suit only the free trump itself can
    # stay, so it counts only when the seen returns rule out trumps (a return made before the trump was known).
    late_most: dict[int, int] = {}
    free_trump_return = rules.trump_return is TrumpReturn.FREE
    for returner, first in first_seen_return.items():
        later = slots[first + 1:]
        late_most[returner] = (
            sum(1 for x in later if free_trump_return and x.kind is GIVE and x.to == returner
                and (rules.return_rule is ReturnRule.OVERALL
                     or (x.trump >= 0 and above_seen_return[returner] & SUIT_MASKS[x.trump] != 0)))
            + sum(rules.kitty_size for x in later if x.kind is TAKE_KITTY and x.seat == returner))
    # give=lowest (seed 002 house variant; deal.py _give_mask): each card an up player gave was his lowest
    # then, so every card he kept is above the highest card he gave (his threshold). A card at or below it
    # that he holds after his gives (now, or played since) reached him later: a return or the kitty.
    lowest_rounds: dict[int, list[int]] = {}
    up_late_most: dict[int, int] = {}
    if rules.give is GiveRule.LOWEST:
        for slot in slots:
            if slot.kind is GIVE and slot.seat != viewer:
                lowest_rounds.setdefault(slot.seat, [])
        for up in lowest_rounds:
            round_slots = [i for i, slot in enumerate(slots)
                           if (slot.kind is GIVE and slot.seat == up) or (slot.kind is RETURN and slot.to == up)]
            lowest_rounds[up] = round_slots
            first = round_slots[0]
            up_late_most[up] = (sum(1 for i in round_slots if slots[i].kind is RETURN)
                                + sum(rules.kitty_size for x in slots[first + 1:] if x.kind is TAKE_KITTY and x.seat == up))
    # return=overall: a down player's unseen returns to another seat were his highest cards then, so he kept
    # nothing above the lowest of them (his threshold); a card above it that he holds came later (the kitty)
    overall_downs: dict[int, tuple[int, int, int]] = {}  # seat -> (returns, at most late, trump then)
    if rules.return_rule is ReturnRule.OVERALL and rules.trump_return is not TrumpReturn.FREE:
        for index, slot in enumerate(slots):
            down = slot.seat
            if (slot.kind is not RETURN or slot.card >= 0 or down == viewer or down in above_seen_return
                    or slot.to == viewer):
                continue
            returns_before, _, _ = overall_downs.get(down, (0, 0, 0))
            if not returns_before:  # what may reach him after his first such return: the kitty, later gives
                later = slots[index + 1:]
                most = (sum(rules.kitty_size for x in later if x.kind is TAKE_KITTY and x.seat == down)
                        + sum(1 for x in later if x.kind is GIVE and x.to == down))
            overall_downs[down] = (returns_before + 1, most if not returns_before else overall_downs[down][1], slot.trump)
    # places and their sizes; a seat with such cards gets a second place for them, of size 0..late_most[seat]
    places: list[tuple[PlaceKind, int]] = []
    sizes: list[int] = []
    late_splits: list[tuple[int, int, int]] = []  # (hand place, its late place, at most)
    for seat in range(view.players):
        if seat == viewer:
            continue
        places.append((HAND, seat))
        sizes.append(stand_in_sizes[seat] if own_rest_hidden else view.hand_sizes[seat])
        above = above_seen_return.get(seat, 0) & unseen
        if (above and late_most.get(seat, 0)) or seat in lowest_rounds or seat in overall_downs:
            places.append((LATE, seat))
            sizes.append(0)
            if seat not in lowest_rounds and seat not in overall_downs:
                late_splits.append((len(places) - 2, len(places) - 1, min(late_most[seat], sizes[-2], above.bit_count())))
    if kitty_left:
        places.append((KITTY, -1))
        sizes.append(kitty_left)
    discards = sum(1 for slot in slots if slot.kind is DISCARD)
    if viewer != declarer and discards:
        places.append((OUT, -1))
        sizes.append(discards)
    if own_rest_hidden:
        places.append((OWN_REST, viewer))
        sizes.append(stand_in_sizes[viewer] - len(view.hand))
    # one up player with unseen gives: the cards he gave are at or below his threshold and went to his down
    # players; a twin place of each place they cannot have reached counts the low cards there
    twin_of: dict[int, int] = {}
    if len(lowest_rounds) == 1:
        (single_up, its_slots), = lowest_rounds.items()
        downs = {slots[i].to for i in its_slots if slots[i].kind is GIVE}
        for place, (kind, owner) in enumerate(list(places)):
            if kind in (KITTY, OWN_REST) or (kind in SEAT_PLACES and owner not in downs and owner != single_up):
                places.append((LOW, place))
                sizes.append(0)
                twin_of[place] = len(places) - 1
    # give=lowest, the declarer an up player who discards after his gives (the viewer not seeing the discards):
    # a discard at or below his threshold was in his hand after his gives, so it reached him later like a low card
    # he holds or played (a return; the kitty only if taken before that discard). A twin place of OUT holds them
    out_place = next((i for i, (kind, _) in enumerate(places) if kind is OUT), -1)
    out_low_place = -1
    out_low_most = -1  # at most this many (the returns before the discards) when the kitty comes after them; -1: no cap
    if declarer in lowest_rounds and out_place >= 0:
        first_give = lowest_rounds[declarer][0]
        discards_after = [i for i, slot in enumerate(slots) if slot.kind is DISCARD and i > first_give]
        if discards_after:
            places.append((OUT_LOW, out_place))
            sizes.append(0)
            out_low_place = len(places) - 1
            if not any(slot.kind is TAKE_KITTY and slot.seat == declarer and first_give < i < discards_after[-1]
                       for i, slot in enumerate(slots)):
                out_low_most = sum(1 for i in lowest_rounds[declarer]
                                   if slots[i].kind is RETURN and i < discards_after[-1])
    if unseen.bit_count() != sum(sizes):
        raise ResampleError(f"the view of seat {viewer} does not add up: {unseen.bit_count()} unseen cards for "
                            f"{sum(sizes)} places")
    hand_place = {owner: i for i, (kind, owner) in enumerate(places) if kind is HAND}
    late_place = {owner: i for i, (kind, owner) in enumerate(places) if kind is LATE}
    # seat -> mask of its places (hand, late, and their twins)
    seat_places = {seat: 1 << p | (1 << late_place[seat] if seat in late_place else 0) for seat, p in hand_place.items()}
    for seat in seat_places:
        for p in (hand_place[seat], late_place.get(seat, -1)):
            if p in twin_of:
                seat_places[seat] |= 1 << twin_of[p]
    late_places = (sum(1 << p for p in late_place.values()) | sum(1 << p for p in twin_of.values())
                   | (1 << out_low_place if out_low_place >= 0 else 0))
    allowed = dict.fromkeys(card_ids(unseen), ((1 << len(places)) - 1) & ~late_places)  # card -> mask of places
    for seat, above in above_seen_return.items():  # cards above a seen return: only in the seat's late place
        for card in card_ids(above & unseen):
            allowed[card] &= ~(1 << hand_place[seat])
            if seat in late_place:
                allowed[card] |= 1 << late_place[seat]
    # shown voids and what the play reveals
    trump = view.trump
    for index, (seat, card) in enumerate(plays):
        if seat == viewer:
            continue
        in_trick = len(plays) - len(view.trick)
        trick_start = index - index % view.players if index < in_trick else in_trick
        forbidden = _play_forbidden(card, plays[trick_start:index], trump, rules.must_trump, rules.must_overtrump)
        its_places = seat_places[seat]
        for unseen_card in card_ids(forbidden & unseen):
            allowed[unseen_card] &= ~its_places
    # cards the viewer gave: where they can have gone since. One another seat played since is placed already,
    # but the history still has to carry it from the receiver to the player (completion: _hidden_return)
    from_viewer: dict[int, int] = {}
    played_by_others = 0
    for seat, card in plays:
        if seat != viewer:
            played_by_others |= 1 << card
    for index, slot in enumerate(slots):
        if slot.kind not in GIVE_OR_RETURN or slot.seat != viewer or slot.card < 0:
            continue
        if played_by_others >> slot.card & 1:
            from_viewer[slot.card] = slot.to
        if not unseen >> slot.card & 1:
            continue
        from_viewer[slot.card] = slot.to
        holders = {slot.to}
        discarded = False
        for later_slot in slots[index + 1:]:
            if later_slot.kind in GIVE_OR_RETURN and later_slot.seat in holders and later_slot.card < 0:
                holders.add(later_slot.to)
            elif later_slot.kind is DISCARD and declarer in holders:
                discarded = True
        can_be = 0
        for holder in holders:
            if holder in hand_place:
                can_be |= seat_places[holder]
        if discarded and out_place >= 0:
            can_be |= 1 << out_place
        allowed[slot.card] &= can_be
    variants = [tuple(sizes)]
    for hand, late, most in late_splits:
        variants = _grow(variants, hand, late, most)
    return_checks = find_return_checks(rules, slots)
    combos = _threshold_options(view, slots, lowest_rounds, up_late_most, plays, own_cards, known_out, unseen, deck,
                                overall_downs, return_checks)
    threshold_choices: list[PlaceConstraints] = []
    for combo in combos:
        allowed_here = dict(allowed)
        variants_here = variants
        for seat, (_threshold, most, below, low_given, slack) in combo.items():
            hand_bit, late_bit = 1 << hand_place[seat], 1 << late_place[seat]
            for card in card_ids(below & unseen):
                if allowed_here[card] & hand_bit:
                    allowed_here[card] = (allowed_here[card] & ~hand_bit) | late_bit
            if seat == declarer and out_low_place >= 0:
                for card in card_ids(below & unseen):
                    if allowed_here[card] >> out_place & 1:
                        allowed_here[card] = (allowed_here[card] & ~(1 << out_place)) | 1 << out_low_place
                variants_here = _grow_sum(variants_here, [(hand_place[seat], late_place[seat]), (out_place, out_low_place)],
                                          most)
                if out_low_most >= 0:
                    variants_here = [sizes for sizes in variants_here if sizes[out_low_place] <= out_low_most]
            else:
                variants_here = _grow(variants_here, hand_place[seat], late_place[seat], min(most, sizes[hand_place[seat]]))
            if twin_of and seat in lowest_rounds and slack < low_given.bit_count():
                for card in card_ids(low_given):
                    for place, twin in twin_of.items():
                        if allowed_here[card] >> place & 1:
                            allowed_here[card] = (allowed_here[card] & ~(1 << place)) | 1 << twin
                variants_here = _grow_sum(variants_here, list(twin_of.items()), slack)
        # penalise low cards in a late place only where the gives were unseen (they may be the hidden returns)
        unseen_givers = [seat for seat in combo if seat in lowest_rounds
                         and any(slots[i].kind is GIVE and slots[i].card < 0 for i in lowest_rounds[seat])]
        late_lows = [sum(sizes[late_place[seat]] + (sizes[out_low_place] if seat == declarer and out_low_place >= 0 else 0)
                         for seat in unseen_givers) for sizes in variants_here]
        threshold_choices.append(PlaceConstraints({seat: x[0] for seat, x in combo.items()}, variants_here,
                                                  group_cards(allowed_here, viewer), late_lows))
    # the weight of a world is LATE_ODDS ** -(its low cards in late places), in integers: scaled by one power for all
    # the threshold choices (scaling each choice by its own largest power favoured the choices that allow many
    # late cards - the lowest thresholds - by up to LATE_ODDS ** 7, and most of their worlds have no history)
    most_lows = max((lows for choice in threshold_choices for lows in choice.weights), default=0)
    for choice in threshold_choices:
        choice.weights = [LATE_ODDS ** (most_lows - lows) for lows in choice.weights]
    return Plan(view, slots, plays, own_cards, own_rest_hidden, places, threshold_choices, known_out,
                HistoryFacts(view, slots), from_viewer, above_seen_return, lowest_rounds,
                return_checks=return_checks,
                never_from_others=_never_others(slots, plays, own_cards, known_out, viewer))


def _never_others(slots: list[Slot], plays: list[tuple[int, int]], own_cards: int, known_out: int, viewer: int) -> int:
    """Cards no other seat can have given in the exchange: the viewer's own, played or known-out cards that it
    was not given or returned, and every card it gave or returned."""
    played_by_viewer = sum(1 << card for seat, card in plays if seat == viewer)
    received = sum(1 << slot.card for slot in slots if slot.to == viewer and slot.card >= 0 and slot.kind in GIVE_OR_RETURN)
    gave = sum(1 << slot.card for slot in slots if slot.seat == viewer and slot.card >= 0 and slot.kind in GIVE_OR_RETURN)
    return ((own_cards | played_by_viewer | known_out) & ~received) | gave


def _grow(variants: list[tuple[int, ...]], hand: int, late: int, most: int) -> list[tuple[int, ...]]:
    """Every split of place ``hand`` of each size vector into itself and its late place ``late``, with 0..``most``
    cards in ``late``."""
    grown = []
    for sizes in variants:
        for moved in range(min(most, sizes[hand]) + 1):
            split_sizes = list(sizes)
            split_sizes[hand] -= moved
            split_sizes[late] += moved
            grown.append(tuple(split_sizes))
    return grown


def _grow_sum(variants: list[tuple[int, ...]], pairs: list[tuple[int, int]], most: int) -> list[tuple[int, ...]]:
    """Every split of each place into itself and its twin (``pairs`` of place indexes), ``most`` cards in the twins
    together at most."""
    out: list[tuple[int, ...]] = []

    def split_from(sizes: list[int], pair: int, left: int) -> None:
        if pair == len(pairs):
            out.append(tuple(sizes))
            return
        place, twin = pairs[pair]
        for moved in range(min(left, sizes[place]) + 1):
            split_sizes = list(sizes)
            split_sizes[place] -= moved
            split_sizes[twin] += moved
            split_from(split_sizes, pair + 1, left - moved)

    for sizes in variants:
        split_from(list(sizes), 0, most)
    return out


def group_cards(allowed: dict[int, int], viewer: int) -> list[tuple[int, list[int]]]:
    """The cards grouped by their mask of allowed places (``allowed``: card id -> mask), as ``(mask, card ids)``,
    smallest group first.

    Raises:
        ResampleError: naming the card and seat ``viewer`` when a card is allowed nowhere.
    """
    by_mask: dict[int, list[int]] = {}
    for card in sorted(allowed):
        if allowed[card] == 0:
            raise ResampleError(f"card {CARDS[card]} has no place consistent with the view of seat {viewer}")
        by_mask.setdefault(allowed[card], []).append(card)
    return sorted(by_mask.items(), key=lambda group: (len(group[1]), group[0]))


LATE_ODDS = 32
"""``give=lowest``: each card at or below an up player's threshold that the drawn world leaves in his hand
(it must have come back as a return, which is rarely a low card) makes the world this many times less
likely to be drawn. A heuristic weight, not the exact posterior (see the module docstring)."""


MAX_THRESHOLD_CHOICES = 2000
"""Cap on the combinations of ``give=lowest`` thresholds of several up players (4 players): the later up players'
choices are cut to their lowest when the product exceeds it, and a real threshold cut off cannot be drawn. At 120
(until 2026-12-02) two up players of about 40 choices each kept only the 3 lowest of the second, and views whose
real one was above gave up; 2,000 keeps every combination of two such players (about 1,300 in the views seen)."""


def _threshold_options(view: View, slots: list[Slot], lowest_rounds: dict[int, list[int]], up_late_most: dict[int, int],
                       plays: list[tuple[int, int]], own_cards: int, known_out: int, unseen: int,
                       deck: int, overall_downs: dict[int, tuple[int, int, int]] | None = None,
                       return_checks: list[tuple[int, int, int]] | None = None,
                       ) -> list[dict[int, tuple[int, int, int, int, int]]]:
    """For ``give=lowest``: per up player (not the viewer), the possible thresholds ``t`` (the highest card he gave)
    as ``(t, most, below, low_given, slack)``: at most ``most`` unseen cards at or below ``t`` (mask ``below``) can
    be in his hand, since each reached him after his gives; of the unseen cards at or below ``t`` that he may have
    given (mask ``low_given``), at most ``slack`` can be where no card he gave can be (the kitty, a seat that took
    no part). A ``t`` whose gives to a down player of ``return_checks`` cannot all be answered in any world
    (:func:`answerable_under_caps`, with what the play shows: the down player's returns were above every card of
    their suit he played, and are with the up player or unseen) is left out. With ``return=overall``, per down
    player of ``overall_downs`` the lowest card he may have returned, likewise. Returns the combinations, one dict
    seat -> option each (``[{}]`` when none).

    Raises:
        ResampleError: when a seat has no possible threshold.
    """
    if not lowest_rounds and not overall_downs:
        return [{}]
    viewer = view.seat
    played_by = [0] * view.players
    for seat, card in plays:
        played_by[seat] |= 1 << card
    received = sum(1 << slot.card for slot in slots if slot.to == viewer and slot.card >= 0 and slot.kind in GIVE_OR_RETURN)
    never = _never_others(slots, plays, own_cards, known_out, viewer)
    per_seat: list[list[tuple[int, tuple[int, int, int, int, int]]]] = []
    for up, round_slots in lowest_rounds.items():
        gives = [slots[i] for i in round_slots if slots[i].kind is GIVE]
        gives_trump = gives[0].trump
        order = sorted(range(52), key=lambda card: overall_order(card, gives_trump))
        position = {card: i for i, card in enumerate(order)}
        seen_gives = [give.card for give in gives if give.card >= 0]
        seen_mask = sum(1 << card for card in seen_gives)
        lowest_seen = max((position[card] for card in seen_gives), default=-1)
        last_give = gives[-1].card
        options: list[tuple[int, tuple[int, int, int, int, int]]] = []
        downs = {give.to for give in gives}
        reach = received | played_by[up]
        for down in downs:
            reach |= played_by[down]
        below = 0
        for threshold in order:
            below |= 1 << threshold
            played_below = (below & played_by[up]).bit_count()
            if played_below > up_late_most[up]:
                break
            if (position[threshold] < lowest_seen or not deck >> threshold & 1
                    or (last_give >= 0 and threshold != last_give) or (last_give < 0 and never >> threshold & 1)):
                continue
            if ((below & deck & ~never) | seen_mask).bit_count() < len(gives):
                continue
            low_given = below & unseen & ~never & ~seen_mask
            slack = (seen_mask | (reach & below & ~unseen)).bit_count() + low_given.bit_count() - len(gives)
            if slack < 0:
                continue
            if any(
                check_up == up
                and not answerable_under_caps(
                    [slots[i] for i in round_slots if slots[i].kind is GIVE],
                    down,
                    threshold,
                    below & deck & ~never & ~seen_mask,
                    played_by[down],
                    unseen | played_by[up],
                    below & played_by[up] if only_returns_from(slots, round_slots[0], up, down) else 0,
                )
                for down, check_up, _ in return_checks or []
            ):
                continue
            # returns the viewer made above the threshold take no low threshold back to him
            high_returns_back = sum(
                1
                for i in round_slots
                if slots[i].kind is RETURN and slots[i].card >= 0 and not below >> slots[i].card & 1
            )
            options.append((up, (threshold, up_late_most[up] - played_below - high_returns_back, below, low_given, slack)))
            if last_give >= 0:
                break
        if not options:
            raise ResampleError(
                f"the gives of seat {up} in the view of seat {viewer} cannot have been his lowest cards"
            )
        per_seat.append(options)
    for down, (returns, late_most, trump) in (overall_downs or {}).items():
        order = sorted(range(52), key=lambda card: overall_order(card, trump), reverse=True)
        down_options: list[tuple[int, tuple[int, int, int, int, int]]] = []
        above = 0
        for threshold in order:  # the lowest card he returned: he holds no card from it up, but late ones
            above |= 1 << threshold
            played_above = (above & played_by[down]).bit_count()
            if played_above > late_most:
                break
            if not deck >> threshold & 1 or never >> threshold & 1 or (above & deck & ~never).bit_count() < returns:
                continue
            down_options.append((down, (threshold, late_most - played_above, above, 0, 0)))
        if not down_options:
            raise ResampleError(
                f"the returns of seat {down} in the view of seat {viewer} cannot have been his highest cards"
            )
        per_seat.append(down_options)
    combos: list[dict[int, tuple[int, int, int, int, int]]] = [{}]
    for options in per_seat:
        keep = max(1, MAX_THRESHOLD_CHOICES // max(1, len(combos)))
        combos = [{**combo, up: option} for combo in combos for up, option in options[:keep]]
    return combos


def _answered_give(slots: list[Slot], return_index: int, trump_return: str) -> int:
    """Index of the give that the return at ``ret_idx`` answers, or -1. The oldest card received is answered
    first, except that with ``trump-return=free`` cards of other suits are answered before trumps
    (deal.py ``_receipt_index``); a give the viewer did not see counts as a non-trump here."""
    down, up = slots[return_index].seat, slots[return_index].to
    queue = [
        i for i, slot in enumerate(slots[:return_index]) if slot.kind is GIVE and slot.seat == up and slot.to == down
    ]
    for index in range(return_index + 1):
        slot = slots[index]
        if slot.kind is not RETURN or slot.seat != down or slot.to != up:
            continue
        if not queue:
            return -1
        position = 0
        if trump_return == "free" and slot.trump >= 0:
            position = next(
                (
                    at
                    for at, give_index in enumerate(queue)
                    if slots[give_index].card < 0 or slots[give_index].card // 13 != slot.trump
                ),
                0,
            )
        give_index = queue.pop(position)
        if index == return_index:
            return give_index
    return -1


def _received_for(slots: list[Slot], return_index: int, trump_return: str) -> int:
    """The card id (or -1) that the return at ``ret_idx`` answers."""
    give_index = _answered_give(slots, return_index, trump_return)
    return slots[give_index].card if give_index >= 0 else -1


def _return_forbidden(returned: int, received: int, trump: int, rule: str, trump_return: str) -> int:
    """Mask of the cards the returner cannot have held when he returned ``returned`` for ``received`` (-1: unseen),
    ``trump`` the trump suit then (docs/rules.md reference decision 1)."""
    suit = (received if received >= 0 else returned) // 13
    if trump_return == "free" and suit == trump:
        return 0
    if rule == "overall":
        returned_order = overall_order(returned, trump)
        return sum(1 << card for card in range(52) if overall_order(card, trump) > returned_order)
    return SUIT_MASKS[returned // 13] & ~((1 << (returned + 1)) - 1)


def _play_forbidden(
    card: int, before: list[tuple[int, int]], trump: int, must_trump: bool, must_overtrump: bool
) -> int:
    """Mask of the cards the player of ``card`` cannot have held, given the trick so far ``before`` ((seat, card id)
    pairs) (deal.legal_play_mask)."""
    if not before:
        return 0
    led = before[0][1] // 13
    trumps = SUIT_MASKS[trump] if trump >= 0 else 0
    highest_trump = (
        max((forbidden for _, forbidden in before if forbidden // 13 == trump), default=-1) if trump >= 0 else -1
    )
    higher_trumps = trumps & ~((1 << (highest_trump + 1)) - 1) if highest_trump >= 0 else trumps
    suit = card // 13
    if suit == led:
        if trump == led and must_overtrump and not higher_trumps >> card & 1:
            return higher_trumps
        return 0
    forbidden = SUIT_MASKS[led]
    if trump >= 0:
        if must_overtrump:
            if must_trump:
                forbidden |= (higher_trumps if not higher_trumps >> card & 1 else 0) if suit == trump else trumps
            elif suit == trump and highest_trump >= 0 and not higher_trumps >> card & 1:
                forbidden |= (FULL_DECK & ~trumps) | higher_trumps
        elif must_trump and suit != trump:
            forbidden |= trumps
    return forbidden


def _public_slots(view: View) -> tuple[list[Slot], list[int], int]:
    """Walk a stand-in deal through the public history of ``view`` to list the actions taken before the
    play, in order. Returns the slots, every seat's hand size at the stop and the kitty cards left."""
    rules = view.rules
    players = view.players
    deck = list(range(1, 52)) if rules.kitty is KittyProcedure.NONE else list(range(52))
    hand_size = rules.hand_size
    hands = [[CARDS[deck[seat * hand_size + k]] for k in range(hand_size)] for seat in range(players)]
    kitty = [CARDS[card] for card in deck[players * hand_size :]]
    allowed = view.contracts_left[view.declarer] if view.contracts_left else None
    stand_in = Deal(rules, view.dealer, hands, kitty, view.prev_diffs, allowed, view.deal_number)
    slots: list[Slot] = []
    exchange = view.exchange
    next_entry = 0
    declarer = view.declarer
    while stand_in.phase not in (Phase.PLAY, Phase.SCORED):
        phase = stand_in.phase
        trump = stand_in.trump
        legal = stand_in.legal_actions()
        taken: Action
        if phase == Phase.ASSIGN:
            if view.phase == Phase.ASSIGN:
                break
            targets = view.targets
            minimum = view.contract is Contract.MINIMUM
            taken = next(
                candidate
                for candidate in legal
                if isinstance(candidate, AssignTargets)
                and (minimum_ceilings(candidate.targets) if minimum else candidate.targets) == targets
            )
            slots.append(Slot(ASSIGN, taken.seat, action=taken))
        elif phase == Phase.CONTRACT:
            if view.contract is None:
                break
            taken = NameContract(declarer, view.contract)
            slots.append(Slot(NAME_CONTRACT, declarer, action=taken))
        elif phase == Phase.KITTY:
            if view.kitty_count:
                break
            taken = TakeKitty(declarer)
            slots.append(Slot(TAKE_KITTY, declarer, action=taken, trump=trump))
        elif phase == Phase.DISCARD:
            if view.phase == Phase.DISCARD and stand_in.hands[declarer].bit_count() == view.hand_sizes[declarer]:
                break
            taken = legal[0]
            slots.append(Slot(DISCARD, declarer, trump=trump))
        else:
            first = legal[0]
            if isinstance(first, (Give, EndGive)):
                up, down = first.seat, first.to
                if (
                    next_entry < len(exchange)
                    and exchange[next_entry].kind == "give"
                    and exchange[next_entry].giver == up
                    and exchange[next_entry].receiver == down
                ):
                    card = exchange[next_entry].card
                    slots.append(Slot(GIVE, up, down, card.id if card is not None else -1, trump=trump))
                    next_entry += 1
                    taken = next(candidate for candidate in legal if isinstance(candidate, Give))
                elif (up, down) in view.ended_gives and rules.exchange_count is ExchangeCount.AT_MOST:
                    taken = EndGive(up, down)
                    slots.append(Slot(END_GIVE, up, down, action=taken))
                else:
                    break
            else:
                assert isinstance(first, Return)
                down, up = first.seat, first.to
                if (
                    next_entry < len(exchange)
                    and exchange[next_entry].kind == "return"
                    and exchange[next_entry].giver == down
                    and exchange[next_entry].receiver == up
                ):
                    card = exchange[next_entry].card
                    slots.append(Slot(RETURN, down, up, card.id if card is not None else -1, trump=trump))
                    next_entry += 1
                    taken = first
                else:
                    break
        stand_in.apply(taken)
    if next_entry != len(exchange):
        raise ResampleError(f"the exchange in the view of seat {view.seat} does not follow the rules' order")
    sizes = [hand.bit_count() for hand in stand_in.hands]
    return slots, sizes, stand_in.kitty.bit_count()


class HistoryFacts:
    """Facts of the public history before the play, per slot index, each computed once per plan (a plan serves
    every sample of its view). ``slot_index`` is an index into the plan's slots; the returner is that slot's seat."""

    def __init__(self, view: View, slots: list[Slot]) -> None:
        self.view = view
        self.slots = slots
        self._answered: dict[int, int] = {}
        self._declarer_forbidden: dict[int, int] = {}
        self._banned: dict[int, int] = {}
        self._passed: dict[int, int] = {}
        self._gives_first: dict[int, bool] = {}
        self._early_forbidden: dict[int, int] = {}
        self._unseen_returns: dict[int, int] = {}

    def answered_give(self, slot_index: int) -> int:
        """The slot index of the give that the return at ``slot_index`` answers, or -1 (:func:`_answered_give`)."""
        got = self._answered.get(slot_index)
        if got is None:
            got = self._answered[slot_index] = _answered_give(self.slots, slot_index, self.view.rules.trump_return)
        return got

    def declarer_forbidden(self, before: int) -> int:
        """Mask of the cards the declarer cannot have held at the returns he made to the viewer before slot
        ``before`` (docs/rules.md reference decision 1)."""
        got = self._declarer_forbidden.get(before)
        if got is None:
            rules = self.view.rules
            got = 0
            for index, slot in enumerate(self.slots[:before]):
                if (
                    slot.kind is RETURN
                    and slot.seat == self.view.declarer
                    and slot.to == self.view.seat
                    and slot.card >= 0
                ):
                    got |= _return_forbidden(
                        slot.card,
                        _received_for(self.slots, index, rules.trump_return),
                        slot.trump,
                        rules.return_rule,
                        rules.trump_return,
                    )
            self._declarer_forbidden[before] = got
        return got

    def banned(self, slot_index: int) -> int:
        """Mask of the cards the returner cannot have held, from its returns to the viewer since it last received a
        card."""
        got = self._banned.get(slot_index)
        if got is None:
            slots = self.slots
            rules = self.view.rules
            returner = slots[slot_index].seat
            got = 0
            for earlier in range(slot_index - 1, -1, -1):
                slot = slots[earlier]
                if slot.kind is GIVE and slot.to == returner:
                    break
                if slot.kind is RETURN and slot.seat == returner and slot.card >= 0:
                    received = _received_for(slots, earlier, rules.trump_return)
                    got |= _return_forbidden(slot.card, received, slot.trump, rules.return_rule, rules.trump_return)
            self._banned[slot_index] = got
        return got

    def passed_to_viewer(self, slot_index: int) -> int:
        """Mask of the cards the returner passed on to the viewer after the give this return answers: that give may
        have been one of them."""
        got = self._passed.get(slot_index)
        if got is None:
            returner = self.slots[slot_index].seat
            give_index = self.answered_give(slot_index)
            got = 0
            if give_index >= 0:
                for slot in self.slots[give_index + 1 : slot_index]:
                    if slot.kind in GIVE_OR_RETURN and slot.seat == returner and slot.card >= 0:
                        got |= 1 << slot.card
            self._passed[slot_index] = got
        return got

    def gives_first(self, slot_index: int) -> bool:
        """Whether every give of the returner's partner to him came before his first return to that partner."""
        got = self._gives_first.get(slot_index)
        if got is None:
            slots = self.slots
            down, up = slots[slot_index].seat, slots[slot_index].to
            first_return = min(
                index for index, slot in enumerate(slots) if slot.kind is RETURN and slot.seat == down and slot.to == up
            )
            got = self._gives_first[slot_index] = all(
                index < first_return
                for index, slot in enumerate(slots)
                if slot.kind is GIVE and slot.seat == up and slot.to == down
            )
        return got

    def early_forbidden(self, slot_index: int) -> int:
        """Mask of the cards the returner cannot have held, from its returns to the viewer since a card last reached
        it from anyone but the receiver of this return (or from the kitty)."""
        got = self._early_forbidden.get(slot_index)
        if got is None:
            slots = self.slots
            rules = self.view.rules
            down, up = slots[slot_index].seat, slots[slot_index].to
            got = 0
            for earlier in range(slot_index - 1, -1, -1):
                slot = slots[earlier]
                if (slot.kind in GIVE_OR_RETURN and slot.to == down and slot.seat != up) or (
                    slot.kind is TAKE_KITTY and slot.seat == down
                ):
                    break  # something reached him from elsewhere: a card above an earlier return may have come with it
                if slot.kind is RETURN and slot.seat == down and slot.to == self.view.seat and slot.card >= 0:
                    received = _received_for(slots, earlier, rules.trump_return)
                    got |= _return_forbidden(slot.card, received, slot.trump, rules.return_rule, rules.trump_return)
            self._early_forbidden[slot_index] = got
        return got

    def unseen_returns_until(self, slot_index: int) -> int:
        """1 + the unseen returns between the same two seats before ``slot_index``: how many returns, this one
        included, can still take back a card the viewer gave."""
        got = self._unseen_returns.get(slot_index)
        if got is None:
            down, up = self.slots[slot_index].seat, self.slots[slot_index].to
            got = self._unseen_returns[slot_index] = 1 + sum(
                1
                for slot in self.slots[:slot_index]
                if slot.kind is RETURN and slot.seat == down and slot.to == up and slot.card < 0
            )
        return got


def find_return_checks(rules: Rules, slots: list[Slot]) -> list[tuple[int, int, int]]:
    """``(down, up, returns)`` for each unseen exchange whose ``returns`` returns from ``down`` to ``up`` a world must
    be able to explain: with ``return=suit`` every one of them was the highest card of its suit in the down player's
    hand then (no free trump answer), so it beats every card he still holds or has played since in its suit,
    provided nothing reached him after his first return to ``up``; and it is in the up player's hand or played by
    him, provided he passed nothing on since. Only exchanges the viewer saw none of qualify."""
    out: list[tuple[int, int, int]] = []
    if rules.return_rule is ReturnRule.SUIT:
        exchanges = {(slot.seat, slot.to) for slot in slots if slot.kind is RETURN}
        for down, up in sorted(exchanges):
            returns = [i for i, slot in enumerate(slots) if slot.kind is RETURN and slot.seat == down and slot.to == up]
            gives = [i for i, slot in enumerate(slots) if slot.kind is GIVE and slot.seat == up and slot.to == down]
            if any(slots[i].card >= 0 for i in returns + gives):
                continue
            if rules.trump_return is TrumpReturn.FREE and any(slots[i].trump >= 0 for i in returns):
                continue
            first = returns[0]
            later = slots[first + 1 :]
            if any(
                (slot.kind in GIVE_OR_RETURN and slot.to == down)
                or (slot.kind is TAKE_KITTY and slot.seat == down)
                or (slot.kind in (GIVE, RETURN, DISCARD) and slot.seat == up)
                for slot in later
            ):
                continue
            out.append((down, up, len(returns)))
    return out


def only_returns_from(slots: list[Slot], first: int, up: int, down: int) -> bool:
    """Whether every card that reached ``up`` after slot ``first`` (his first give) was a return from ``down``."""
    return all(
        slot.kind is RETURN and slot.seat == down
        for slot in slots[first + 1 :]
        if (slot.kind in GIVE_OR_RETURN and slot.to == up) or (slot.kind is TAKE_KITTY and slot.seat == up)
    )


def answerable_under_caps(
    gives: list[Slot], down: int, threshold: int, candidates: int, down_cards: int, up_cards: int, up_low: int
) -> bool:
    """Whether the up player's gives to ``down`` (``gives``: all his give slots, rising, the last one ``threshold``)
    can be chosen among ``candidates`` (cards at or below ``threshold``) so that the down player's unseen returns
    answer them (``return=suit``, no free trump answer, nothing reaching him after his first return nor leaving the
    up player: :func:`find_return_checks`). Each give of suit S was answered by the down player's highest S card
    then, which is above every S card in ``down_cards`` (cards he holds or has played, all in his hand then) and is
    still in ``up_cards`` (cards the up player holds or has played, or may): so there are at most that many gives of
    suit S. ``threshold`` is one of them when the last give went to ``down`` unseen. ``up_low``: cards at or below
    ``threshold`` surely with the up player (held or played), when every card that reached him since his first give
    was a return of the down player's (else ``0``): each is such a return, so above the down player's cards of its
    suit, and there are at least that many gives of its suit. All card sets are masks."""
    given = sum(1 for give in gives if give.to == down)
    threshold_to_down = gives[-1].card < 0 and gives[-1].to == down
    if threshold_to_down and not candidates >> threshold & 1:
        return False
    least = most = 0
    for suit in range(4):
        ranks_to_top = (down_cards >> (13 * suit) & 0x1FFF).bit_length()
        above_down = up_cards >> (13 * suit + ranks_to_top) & (0x1FFF >> ranks_to_top)
        came_back = up_low >> (13 * suit) & 0x1FFF
        if came_back & ~(above_down << ranks_to_top):
            return False  # a low card of his that is no return of the down player's
        most_here = min(above_down.bit_count(), (candidates & SUIT_MASKS[suit]).bit_count())
        least_here = max(came_back.bit_count(), 1 if threshold_to_down and threshold // 13 == suit else 0)
        if least_here > most_here:
            return False
        least += least_here
        most += most_here
    return least <= given <= most
