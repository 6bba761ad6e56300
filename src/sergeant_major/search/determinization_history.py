"""Completing a world into a history: step (3) of the method described in :mod:`sergeant_major.search.determinization`.

:func:`complete_history` walks the public history of a plan backwards from a drawn world, choosing what the viewer
cannot see (the kitty's cards, unseen discards, the cards of exchanges it did not take part in), then builds the
deal as dealt and replays it forwards with the checked engine; ``None`` when the choice breaks a rule.
"""

from __future__ import annotations

import random
from math import comb

from sergeant_major.core.actions import Action, Discard, Give, Return
from sergeant_major.core.cards import CARDS, SUIT_MASKS, Card, mask_of
from sergeant_major.core.deal import Deal
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.rule_options import GiveRule, ReturnRule, TrumpReturn
from sergeant_major.core.view import build_view
from sergeant_major.search.determinization_budget import Budget
from sergeant_major.search.determinization_plan import (
    DISCARD,
    GIVE,
    GIVE_OR_RETURN,
    KITTY,
    OUT,
    RETURN,
    SEAT_PLACES,
    TAKE_KITTY,
    TWIN_PLACES,
    Plan,
    Slot,
    card_ids,
    overall_order,
)

RETURN_STEPS = 512
"""Choices tried per run of unseen returns walked back together (``return=suit``) before the completion fails."""


def complete_history(plan: Plan, world: list[int], thresholds: dict[int, int], rng: random.Random,
                     budget: Budget | None = None) -> Deal | None:
    """Build one history for ``world`` backwards, replay it forwards; ``None`` when it breaks a rule.

    ``world``: a mask of cards per place of ``plan`` (:func:`~sergeant_major.search.determinization_worlds.draw_world`),
    ``thresholds``: seat -> threshold card id of the world's threshold choice. Returns a :class:`Deal` whose view for
    the plan's viewer is the plan's view.

    Raises:
        BudgetExhausted: when ``budget`` runs out (a step per draw of unseen gives or return walked back).
    """
    view = plan.view
    rules = view.rules
    players = view.players
    viewer = view.seat
    declarer = view.declarer
    hands = [0] * players
    hands[viewer] = plan.own_cards
    kitty_left = 0
    discarded = 0
    own_rest = 0
    for (place_kind, owner), cards in zip(plan.places, world, strict=True):
        if place_kind in TWIN_PLACES:
            place_kind, owner = plan.places[owner]
        if place_kind in SEAT_PLACES:
            hands[owner] |= cards
        elif place_kind is KITTY:
            kitty_left |= cards
        elif place_kind is OUT:
            discarded |= cards
        else:
            own_rest |= cards
    if plan.own_rest_hidden:
        hands[viewer] |= own_rest
    if viewer == declarer and view.discards is not None:
        discarded = mask_of(view.discards)
    for owner, card in plan.plays:
        hands[owner] |= 1 << card
    slots = plan.slots
    chosen = [slot.card for slot in slots]
    # the cards the viewer gave: in another hand, the viewer knows they came from elsewhere
    from_viewer = plan.from_viewer
    kitty_taken = 0
    discard_order = card_ids(discarded)
    rng.shuffle(discard_order)
    # hidden give -> chosen card, filled when its return is walked back
    planned: set[int] = set()
    walked: set[int] = set()  # unseen returns already walked back by _walk_returns
    for index in range(len(slots) - 1, -1, -1):
        slot = slots[index]
        kind = slot.kind
        if plan.lowest_rounds and kind in GIVE_OR_RETURN:
            up = slot.seat if kind is GIVE else slot.to
            if up in plan.lowest_rounds and up not in planned:
                planned.add(up)
                if not _plan_round(plan, up, thresholds[up], hands, chosen, rng, budget):
                    return None
        if kind is DISCARD:
            if viewer == declarer:
                card = chosen[index]
                if card < 0:
                    card = discard_order.pop(0) if discard_order else -1
            else:
                card = discard_order.pop() if discard_order else -1
            if card < 0:
                return None
            chosen[index] = card
            hands[declarer] |= 1 << card
        elif kind is TAKE_KITTY:
            if viewer == declarer and view.kitty is not None:
                kitty_mask = mask_of(view.kitty)
            else:
                candidates = [card for card in card_ids(hands[declarer]) if from_viewer.get(card) != declarer]
                # cards a return the viewer saw says the declarer did not hold then: usually from the kitty
                declarer_forbidden = plan.facts.declarer_forbidden(index)
                needed = [card for card in candidates if declarer_forbidden >> card & 1]
                if declarer in plan.lowest_rounds and declarer in thresholds and plan.lowest_rounds[declarer][0] < index:
                    # give=lowest: cards at or below his threshold came back by a return or from the kitty
                    round_slots = plan.lowest_rounds[declarer]
                    gives_trump = slots[round_slots[0]].trump
                    threshold_order = overall_order(thresholds[declarer], gives_trump)
                    low_candidates = [
                        card
                        for card in candidates
                        if overall_order(card, gives_trump) <= threshold_order and card not in needed
                    ]
                    low_returns = sum(
                        1
                        for i in round_slots
                        if slots[i].kind is RETURN
                        and (slots[i].card < 0 or overall_order(slots[i].card, gives_trump) <= threshold_order)
                    )
                    if len(low_candidates) > low_returns:
                        needed += rng.sample(low_candidates, len(low_candidates) - low_returns)
                if len(candidates) < rules.kitty_size or len(needed) > rules.kitty_size:
                    return None
                if needed and rng.random() < 0.9:
                    others = [card for card in candidates if card not in needed]
                    picked = needed + rng.sample(others, rules.kitty_size - len(needed))
                else:
                    picked = rng.sample(candidates, rules.kitty_size)
                kitty_mask = mask_of(CARDS[card] for card in picked)
            if hands[declarer] & kitty_mask != kitty_mask:
                return None
            hands[declarer] &= ~kitty_mask
            kitty_taken = kitty_mask
        elif kind is RETURN:
            down, up = slot.seat, slot.to
            give_index = plan.facts.answered_give(index)
            if index in walked:
                continue
            if chosen[index] >= 0:
                card = chosen[index]
            elif not plan.lowest_rounds and plan.view.rules.return_rule is ReturnRule.SUIT:
                # the unseen returns from here back, chosen together with backtracking (_walk_returns)
                run = [index]
                while run[-1] > 0 and slots[run[-1] - 1].kind is RETURN and chosen[run[-1] - 1] < 0:
                    run.append(run[-1] - 1)
                if not _walk_returns(plan, hands, chosen, run, rng, budget):
                    return None
                walked.update(run)
                continue
            else:
                pair = _hidden_return(plan, hands, down, up, index, chosen, plan.above_seen_return.get(down, 0), rng)
                if pair is None:
                    return None
                card, answered = pair
                chosen[index] = card
                if give_index >= 0:
                    chosen[give_index] = answered
            if not hands[up] >> card & 1:
                return None
            hands[up] &= ~(1 << card)
            hands[down] |= 1 << card
        elif kind is GIVE:
            up, down = slot.seat, slot.to
            card = chosen[index]
            if card < 0:  # a give whose return is still to come: any card the receiver holds from the giver
                candidates = [
                    candidate
                    for candidate in card_ids(hands[down])
                    if candidate not in from_viewer and candidate not in chosen
                ]
                if not candidates:
                    return None
                card = rng.choice(candidates)
                chosen[index] = card
            if not hands[down] >> card & 1:
                return None
            hands[down] &= ~(1 << card)
            hands[up] |= 1 << card
            if (
                rules.give is GiveRule.LOWEST
                and min(card_ids(hands[up]), key=lambda candidate: overall_order(candidate, slot.trump)) != card
            ):
                return None  # not his lowest card then
    kitty = kitty_left | kitty_taken
    hand_size = rules.hand_size
    if any(hand.bit_count() != hand_size for hand in hands) or kitty.bit_count() != rules.kitty_size:
        return None
    dealt: list[list[Card]] = []
    for owner in range(players):
        dealt_ids = card_ids(hands[owner])
        if owner == viewer and plan.own_rest_hidden:
            first_dealt = mask_of(view.hand)
            dealt_ids = [card for card in dealt_ids if first_dealt >> card & 1] + [
                card for card in dealt_ids if not first_dealt >> card & 1
            ]
        elif plan.own_rest_hidden or rules.contract_after:
            rng.shuffle(dealt_ids)
        dealt.append([CARDS[card] for card in dealt_ids])
    contracts_allowed = view.contracts_left[declarer] if view.contracts_left else None
    try:
        kitty_cards = list(view.kitty) if view.kitty is not None else [CARDS[card] for card in card_ids(kitty)]
        deal = Deal(rules, view.dealer, dealt, kitty_cards, view.prev_diffs, contracts_allowed, view.deal_number)
        for index, slot in enumerate(slots):
            deal.apply(_slot_action(slot, chosen[index]))
        for play in plan.play_actions:
            deal.apply(play)
    except IllegalActionError:
        return None
    if build_view(deal, viewer, view.names, view.totals, view.results, view.contracts_left) != view:
        return None
    return deal


def _slot_action(slot: Slot, card_id: int) -> Action:
    """The action of ``slot`` with card id ``card_id`` (the slot's own action when it has no card)."""
    if slot.action is not None:
        return slot.action
    card = CARDS[card_id]
    if slot.kind is DISCARD:
        return Discard(slot.seat, card)
    if slot.kind is GIVE:
        return Give(slot.seat, card, slot.to)
    return Return(slot.seat, card, slot.to)


def _walk_returns(
    plan: Plan, hands: list[int], chosen: list[int], run: list[int], rng: random.Random, budget: Budget | None = None
) -> bool:
    """Walk back the unseen returns at slots ``run`` (descending, consecutive): choose each one's card and the
    card it answered (:func:`_hidden_return`), moving the card from the receiver's hand back to the returner's.
    A dead end (no allowed pair for a return) undoes the return walked just before it and tries another card for
    it, with a card it answered drawn again (depth first, at most :data:`RETURN_STEPS` choices; the cards answered
    are not searched), instead of failing the whole completion: after a large unseen exchange most first choices
    lead to one. The first choice at every step is the one a single
    random walk would make. ``False`` (``hands`` and ``chosen`` restored) when no history was found."""
    slots = plan.slots
    tried: list[set[int]] = [set() for _ in run]  # the returned cards tried at each step
    placed: list[tuple[int, int, int]] = [(0, 0, 0)] * len(run)  # (card, answered give, its previous card)
    steps = 0
    level = 0
    while level < len(run):
        index = run[level]
        slot = slots[index]
        down, up = slot.seat, slot.to
        pair = None
        if steps < RETURN_STEPS:
            steps += 1
            if budget is not None:
                budget.take_step()
            pair = _hidden_return(
                plan, hands, down, up, index, chosen, plan.above_seen_return.get(down, 0), rng, tried[level]
            )
        if pair is None:
            tried[level] = set()
            level -= 1
            if level < 0:
                return False
            card, give_index, previous = placed[level]
            placed_index = run[level]
            hands[slots[placed_index].seat] &= ~(1 << card)
            hands[slots[placed_index].to] |= 1 << card
            chosen[placed_index] = -1
            if give_index >= 0:
                chosen[give_index] = previous
            continue
        card, answered = pair
        tried[level].add(card)
        give_index = plan.facts.answered_give(index)
        placed[level] = (card, give_index, chosen[give_index] if give_index >= 0 else -1)
        chosen[index] = card
        if give_index >= 0:
            chosen[give_index] = answered
        hands[up] &= ~(1 << card)
        hands[down] |= 1 << card
        level += 1
    return True


def _hidden_return(
    plan: Plan,
    hands: list[int],
    down: int,
    up: int,
    index: int,
    chosen: list[int],
    prefer: int,
    rng: random.Random,
    exclude: set[int] | None = None,
) -> tuple[int, int] | None:
    """Choose the unseen return at slot ``index`` (a card now in ``up``'s hand) and the unseen card it answered, so
    that the return obeys the return rule in ``down``'s hand of that moment: at random among the allowed pairs
    ``(returned, answered)`` whose returned card is not in ``exclude``, mostly among those whose answered card is in
    ``prefer`` (a mask of the cards the down player cannot have held at an earlier return). ``None`` when no pair is
    allowed."""
    slots = plan.slots
    from_viewer = plan.from_viewer
    rules = plan.view.rules
    return_rule = rules.return_rule
    trump_return = rules.trump_return
    trump = slots[index].trump
    # unseen gives already matched to a later return: each card is given once
    matched = {chosen[i] for i, slot in enumerate(slots) if slot.kind is GIVE and slot.card < 0 and chosen[i] >= 0}
    # the down player returned a card to the viewer before, with nothing received since: it held no card above that
    # return then, so neither the card it returns now nor the card it answers can be such a card
    banned = plan.facts.banned(index)
    early = plan.facts.early_forbidden(index) if return_rule == "suit" else 0
    # a card the viewer gave the down player that the up player now holds can only have come back with one of these
    # returns
    up_cards = card_ids(hands[up])
    gifts_back = [card for card in up_cards if from_viewer.get(card) == down]
    returns_left = plan.facts.unseen_returns_until(index)
    if len(gifts_back) > returns_left:
        return None
    if len(gifts_back) < returns_left:
        gifts_back = []  # this return may or may not be one of them: an earlier unseen return can take it back
    # the same pairs, in the same order, as testing every (returned, answered): answered ascending among the cards the
    # down player held, not given twice, not the viewer's gifts, not banned; a received trump (trump-return=free)
    # answers anything, any other answered needs returned to be the down player's highest card (of answered's suit
    # with return=suit, overall otherwise)
    free_trumps = SUIT_MASKS[trump] if trump_return == "free" and 0 <= trump < 4 else 0
    gifts = 0  # the cards the viewer gave
    for card in from_viewer:
        gifts |= 1 << card
    # the card answered need not be in the down player's hand now: the down player may have passed it on to the viewer
    # since (a card the up player gave the down player that he returned to the viewer before answering the up player);
    # he held it then, so "banned" does not apply to it
    passed = plan.facts.passed_to_viewer(index) & ~gifts
    never_answered = (banned | gifts) & ~passed  # never answered by this return: banned, or a card the viewer gave
    matched_mask = 0  # answered by an earlier give unless it is the returned card itself
    for card in matched:
        matched_mask |= 1 << card
    if free_trumps and plan.facts.gives_first(index) and _later_non_trump(plan, index, chosen, trump):
        # with trump-return=free the non-trumps received are answered before the trumps (deal.py _receipt_index): when
        # every give of the up player to the down player came before this return and a later return answers a
        # non-trump, this one answers a non-trump too (the replay would refuse the history otherwise)
        never_answered |= free_trumps
        free_trumps = 0
    rows: list[tuple[int, int]] = []  # (returned card, mask of the cards it can answer), rising
    for returned in gifts_back or up_cards:
        if from_viewer.get(returned) == up or banned >> returned & 1:
            continue
        down_then = hands[down] | 1 << returned
        answers = (down_then | passed) & ~never_answered & ~(matched_mask & ~(1 << returned))
        if return_rule == "overall":
            highest = max(card_ids(down_then), key=lambda card: overall_order(card, trump))
            answers &= -1 if highest == returned else free_trumps
        else:
            suit = SUIT_MASKS[returned // 13]
            answers &= (suit if (down_then & suit).bit_length() - 1 == returned else 0) | free_trumps
        if exclude and returned in exclude:
            continue
        if early >> returned & 1:
            # the down player held no such card before the up player's gives: returned is one of them, and (returns of
            # a suit answer its gives in any order) the one it answers can be taken to be returned itself
            answers &= 1 << returned
        if answers:
            rows.append((returned, answers))
    if not rows:
        return None
    if return_rule == "overall":
        pairs = [(returned, answered) for returned, answers in rows for answered in card_ids(answers)]
        if rng.random() < 0.8:
            # walking back, the returns rise: an earlier one was above this one, so keep the high cards for it
            lowest = min(overall_order(pair[0], trump) for pair in pairs)
            pairs = [pair for pair in pairs if overall_order(pair[0], trump) == lowest]
        preferred = [pair for pair in pairs if prefer >> pair[1] & 1]
        if preferred and rng.random() < 0.9:
            return rng.choice(preferred)
        return rng.choice(pairs)
    # the pairs are not listed: the k-th pair of the rows (or of the rows' answered cards in ``prefer``) is drawn with
    # ``rng.choice(range(count))``, which draws as ``rng.choice`` of the listed pairs would
    n_preferred = sum((answers & prefer).bit_count() for _, answers in rows)
    if n_preferred and rng.random() < 0.9:
        return _kth_pair([(returned, answers & prefer) for returned, answers in rows], rng.choice(range(n_preferred)))
    return _kth_pair(rows, rng.choice(range(sum(answers.bit_count() for _, answers in rows))))


def _later_non_trump(plan: Plan, index: int, chosen: list[int], trump: int) -> bool:
    """Whether an unseen return after slot ``index`` between the same two seats answers a non-trump (as chosen
    so far, walking back)."""
    slots = plan.slots
    down, up = slots[index].seat, slots[index].to
    for later in range(index + 1, len(slots)):
        slot = slots[later]
        if slot.kind is RETURN and slot.seat == down and slot.to == up and slot.card < 0:
            give_index = plan.facts.answered_give(later)
            if give_index >= 0 and chosen[give_index] >= 0 and chosen[give_index] // 13 != trump:
                return True
    return False


def _kth_pair(rows: list[tuple[int, int]], k: int) -> tuple[int, int]:
    """The ``k``-th (from 0) pair ``(returned, answered)`` of ``rows`` (returned card, mask of the cards it can
    answer) listed in order, each row's answered cards rising."""
    for returned, answers in rows:
        count = answers.bit_count()
        if k < count:
            while k:
                answers &= answers - 1
                k -= 1
            return returned, (answers & -answers).bit_length() - 1
        k -= count
    raise AssertionError("k is below the number of pairs")


def _plan_round(
    plan: Plan,
    up: int,
    threshold: int,
    hands: list[int],
    chosen: list[int],
    rng: random.Random,
    budget: Budget | None = None,
) -> bool:
    """``give=lowest``: choose the cards of the exchange of the up player at ``up`` that the viewer did not see, from
    the hands right after it (``hands``, walked back so far), and write them into ``chosen`` (a card id per slot).

    The gives are his lowest cards, so they rise in order of giving, the highest is the ``threshold`` drawn with
    the world, and every card he kept is above it: a card at or below the threshold that he holds now came back
    as a return. The gives are drawn uniformly among the rising sequences of cards at or below the threshold
    that the receiver (or the up player, for one that came back) holds; the returns are then walked back from
    the last, each the card the return rule forces in the down player's hand of that moment, preferring
    cards that must have come back. Returns ``False`` when this draw finds no consistent exchange."""
    slots = plan.slots
    round_slots = plan.lowest_rounds[up]
    gives = [i for i in round_slots if slots[i].kind is GIVE]
    gives_trump = slots[gives[0]].trump
    threshold_order = overall_order(threshold, gives_trump)
    from_viewer = plan.from_viewer
    up_hand = hands[up]
    # candidates per give, in the order of giving; the last give is the threshold itself. A card the viewer saw in
    # another exchange may be one of them: a card the down player later passed on to the viewer (a return of the
    # viewer's exchange with him) can have come from the up player's give; the cards the viewer gave are never the up
    # player's (from_viewer), and the hands walked back to this point hold every card where it lay then
    candidates: list[list[int]] = []
    for j, give_index in enumerate(gives):
        if chosen[give_index] >= 0:
            candidates.append([chosen[give_index]])
            continue
        pool = hands[slots[give_index].to] | up_hand
        if j == len(gives) - 1:
            candidates.append([threshold] if pool >> threshold & 1 and threshold not in from_viewer else [])
        else:
            candidates.append(
                [
                    card
                    for card in card_ids(pool)
                    if overall_order(card, gives_trump) < threshold_order and card not in from_viewer
                ]
            )
        candidates[-1].sort(key=lambda card: overall_order(card, gives_trump))
    # count the rising sequences from the back, then draw one from the front
    ways: list[dict[int, int]] = [{} for _ in gives]
    for j in range(len(gives) - 1, -1, -1):
        for card in candidates[j]:
            if j == len(gives) - 1:
                ways[j][card] = 1
            else:
                order = overall_order(card, gives_trump)
                ways[j][card] = sum(
                    count for next_card, count in ways[j + 1].items() if overall_order(next_card, gives_trump) > order
                )
    if not any(ways[0].values()):
        return False
    # how many forced returns each down player can make to the up player, per suit (return=suit) or in all (overall)
    rules = plan.view.rules
    room: dict[tuple[int, int], int] = {}
    for down in {slots[i].to for i in gives}:
        trump = next(
            (slots[i].trump for i in round_slots if slots[i].kind is RETURN and slots[i].seat == down), gives_trump
        )
        if rules.return_rule is ReturnRule.OVERALL:
            top = max(card_ids(hands[down]), key=lambda card: overall_order(card, trump), default=-1)
            top_order = overall_order(top, trump) if top >= 0 else (-1, -1, -1)
            room[down, -1] = sum(1 for card in card_ids(hands[up]) if overall_order(card, trump) > top_order)
        else:
            for suit in range(4):
                highest = (hands[down] & SUIT_MASKS[suit]).bit_length() - 1
                room[down, suit] = sum(1 for card in card_ids(hands[up] & SUIT_MASKS[suit]) if card > highest)
    capped = None
    downs = {slots[i].to for i in gives}
    if rules.trump_return is not TrumpReturn.FREE and len(downs) == 1 and all(chosen[i] < 0 for i in round_slots):
        capped = _capped_gives(candidates, gives, room, downs.pop(), rules.return_rule is ReturnRule.OVERALL)
        if capped is None:
            return False
    for _ in range(PLAN_TRIES):
        if budget is not None:
            budget.take_step()
        got = _try_round(
            plan,
            up,
            threshold_order,
            gives_trump,
            gives,
            round_slots,
            candidates,
            ways,
            room,
            hands,
            chosen,
            rng,
            capped,
        )
        if got is not None:
            for i, card in got.items():
                chosen[i] = card
            return True
    return False


_Capped = tuple[list[tuple[int, ...]], list[int], list[list[int]]]


def _capped_gives(
    candidates: list[list[int]], gives: list[int], room: dict[tuple[int, int], int], down: int, overall: bool
) -> _Capped | None:
    """The unseen gives of one up player to one down player ``down`` (no free trump returns, the viewer saw none of
    the round), drawn directly among those that pass the room check of :func:`_try_round`: each give is answered by
    a forced return, the down player's highest card of its suit (or ``overall``), so at most ``room[down, suit]``
    (``room[down, -1]``) of them can be of a suit. The gives are the threshold and a set of ``len(gives) - 1`` cards
    of the pool below it (a rising sequence is a set): returns the vectors of cards per suit of that set allowed by
    the room, their numbers of sets, and the pool per suit; ``None`` when no set is allowed. Drawing a vector by its number, then
    the cards of each suit uniformly, is drawing uniformly among the rising sequences that pass the room check -
    what rejecting the others does, without the rejections."""
    threshold = candidates[-1][0] if candidates[-1] else -1
    if threshold < 0:
        return None
    pool = candidates[0] if len(gives) > 1 else []
    per_suit = [[card for card in pool if card // 13 == suit] for suit in range(4)]
    below_threshold = len(gives) - 1
    if overall:
        if len(gives) > room.get((down, -1), 0):
            return None
        most_per_suit = [len(cards) for cards in per_suit]
    else:
        most_per_suit = [
            min(len(per_suit[suit]), room.get((down, suit), 0) - (1 if threshold // 13 == suit else 0))
            for suit in range(4)
        ]
        if most_per_suit[threshold // 13] < 0:  # no room for the threshold itself
            return None
    vectors: list[tuple[int, ...]] = []
    counts: list[int] = []
    for n0 in range(max(0, most_per_suit[0]) + 1):
        for n1 in range(max(0, most_per_suit[1]) + 1):
            for n2 in range(max(0, most_per_suit[2]) + 1):
                n3 = below_threshold - n0 - n1 - n2
                if 0 <= n3 <= most_per_suit[3]:
                    suit_counts = (n0, n1, n2, n3)
                    vectors.append(suit_counts)
                    counts.append(_multinomial_sets(per_suit, suit_counts))
    if not any(counts):
        return None
    return vectors, counts, per_suit


def _multinomial_sets(per_suit: list[list[int]], suit_counts: tuple[int, ...]) -> int:
    """The number of sets with ``suit_counts[suit]`` cards of each ``per_suit[suit]``."""
    out = 1
    for cards, count in zip(per_suit, suit_counts, strict=True):
        out *= comb(len(cards), count)
    return out


PLAN_TRIES = 100
"""Draws of the unseen gives per :func:`_plan_round` call before the completion is retried."""


def _try_round(
    plan: Plan,
    up: int,
    threshold_order: tuple[int, int, int],
    gives_trump: int,
    gives: list[int],
    round_slots: list[int],
    candidates: list[list[int]],
    ways: list[dict[int, int]],
    room: dict[tuple[int, int], int],
    hands: list[int],
    chosen: list[int],
    rng: random.Random,
    capped: _Capped | None = None,
) -> dict[int, int] | None:
    """One draw for :func:`_plan_round`: the gives (a rising sequence, uniformly; with ``capped`` uniformly among
    those that pass the room check, :func:`_capped_gives`), then the returns, walked back from the last. Returns the
    chosen card per slot, or ``None``."""
    rules = plan.view.rules
    slots = plan.slots
    from_viewer = plan.from_viewer
    given: list[int] = []
    previous_order: tuple[int, int, int] | None = None
    if capped is not None:
        vectors, counts, per_suit = capped
        pick = rng.randrange(sum(counts))
        index = 0
        while pick >= counts[index]:
            pick -= counts[index]
            index += 1
        for cards, count in zip(per_suit, vectors[index], strict=True):
            given += rng.sample(cards, count)
        given.sort(key=lambda card: overall_order(card, gives_trump))
        given.append(candidates[-1][0])
    for j in range(len(gives) if capped is None else 0):
        options = [
            (card, count)
            for card, count in ways[j].items()
            if count and (previous_order is None or overall_order(card, gives_trump) > previous_order)
        ]
        total = sum(count for _, count in options)
        if not total:
            return None
        pick = rng.randrange(total)
        index = 0
        while pick >= options[index][1]:
            pick -= options[index][1]
            index += 1
        given.append(options[index][0])
        previous_order = overall_order(options[index][0], gives_trump)
    give_cards = dict(zip(gives, given, strict=True))
    # which give each return answers (deal.py _receipt_index), simulated forwards
    queues: dict[int, list[int]] = {}
    answers: dict[int, int] = {}
    for i in round_slots:
        slot = slots[i]
        if slot.kind is GIVE:
            queues.setdefault(slot.to, []).append(give_cards[i])
            continue
        queue = queues.get(slot.seat, [])
        if not queue:
            return None
        position = 0
        if rules.trump_return is TrumpReturn.FREE and slot.trump >= 0:
            position = next((index for index, card in enumerate(queue) if card // 13 != slot.trump), 0)
        answers[i] = queue.pop(position)
    # a quick check before the walk: each down player holds fewer cards of a suit than the up player above his
    room_used: dict[tuple[int, int], int] = {}
    for i, answered in answers.items():
        slot = slots[i]
        if chosen[i] < 0 and not (rules.trump_return is TrumpReturn.FREE and slot.trump >= 0 and answered // 13 == slot.trump):
            key = (slot.seat, -1 if rules.return_rule is ReturnRule.OVERALL else answered // 13)
            room_used[key] = room_used.get(key, 0) + 1
            if room_used[key] > room.get(key, 0):
                return None
    hands_now = list(hands)
    returns = [i for i in round_slots if slots[i].kind is RETURN]
    for i in returns:  # the returns the viewer made
        if chosen[i] >= 0:
            card, down = chosen[i], slots[i].seat
            if not hands_now[up] >> card & 1:
                return None
            hands_now[up] &= ~(1 << card)
            hands_now[down] |= 1 << card
    came_back = [
        card for card in card_ids(hands_now[up]) if overall_order(card, gives_trump) <= threshold_order
    ]  # he kept only cards above the threshold: these came back
    got: dict[int, int] = dict(give_cards)
    # returns the viewer made are fixed; free returns (a trump received, trump-return=free) come last for
    # each down player and may be any card; the others are forced: walk back the free ones first, then
    # choose each down player's forced returns as a set and hand them out highest first
    forced: dict[int, list[int]] = {}
    for i in reversed(returns):
        slot = slots[i]
        down, answered, trump = slot.seat, answers[i], slot.trump
        if chosen[i] >= 0:
            continue
        if rules.trump_return is TrumpReturn.FREE and trump >= 0 and answered // 13 == trump:
            free_options = [
                card
                for card in card_ids(hands_now[up])
                if from_viewer.get(card) != up and (hands_now[down] | 1 << card) >> answered & 1
            ]
            if not free_options:
                return None
            preferred = [card for card in free_options if card in came_back]
            returned = rng.choice(preferred or free_options)
            got[i] = returned
            hands_now[up] &= ~(1 << returned)
            hands_now[down] |= 1 << returned
        else:
            forced.setdefault(down, []).append(i)
    to_place = [card for card in came_back if not any(got.get(i) == card for i in returns)]
    rng.shuffle(to_place)
    for down, forced_returns in forced.items():
        forced_returns.reverse()  # in the order of time
        trump = slots[forced_returns[0]].trump
        if rules.return_rule is ReturnRule.OVERALL:
            top = max(card_ids(hands_now[down]), key=lambda card: overall_order(card, trump), default=-1)
            top_order = overall_order(top, trump) if top >= 0 else (-1, -1, -1)
            classes = {-1: forced_returns}
            available = {
                -1: [
                    card
                    for card in card_ids(hands_now[up])
                    if overall_order(card, trump) > top_order and from_viewer.get(card) != up
                ]
            }
        else:
            classes = {}
            for i in forced_returns:
                classes.setdefault(answers[i] // 13, []).append(i)
            available = {}
            for suit in classes:
                highest = (hands_now[down] & SUIT_MASKS[suit]).bit_length() - 1
                available[suit] = [
                    card
                    for card in card_ids(hands_now[up] & SUIT_MASKS[suit])
                    if card > highest and from_viewer.get(card) != up
                ]
        for suit_class, class_returns in classes.items():
            pool = available[suit_class]
            if len(pool) < len(class_returns):
                return None
            needed = [card for card in to_place if card in pool]
            # cards this down player was given and holds no more must be among his returns
            needed += [
                answers[i] for i in class_returns if not hands_now[down] >> answers[i] & 1 and answers[i] not in needed
            ]
            if len(needed) > len(class_returns) or any(card not in pool for card in needed):
                return None
            others = [card for card in pool if card not in needed]
            picked = needed + rng.sample(others, len(class_returns) - len(needed))
            to_place = [card for card in to_place if card not in picked]
            trump_then = slots[class_returns[0]].trump
            picked.sort(key=lambda card: overall_order(card, trump_then), reverse=True)
            for i, card in zip(class_returns, picked, strict=True):
                got[i] = card
                hands_now[up] &= ~(1 << card)
                hands_now[down] |= 1 << card
    if any(overall_order(card, gives_trump) <= threshold_order for card in card_ids(hands_now[up])):
        return None  # he kept a card at or below his threshold
    for give_index, answered in give_cards.items():
        if not hands_now[slots[give_index].to] >> answered & 1:
            return None
    return got
