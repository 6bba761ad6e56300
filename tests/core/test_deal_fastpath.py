"""The fast paths of the core give exactly what the plain rules give.

- the cards of every deal are those of ``random.Random(f"sergeant-major/{seed}/{number}").shuffle`` (records and
  seeds depend on them), whatever the rules' deck size and players;
- ``Match.apply`` and ``Match.legal_actions`` (which delegate to the deal) agree with ``Deal.apply`` and
  ``Deal.legal_actions`` on a twin deal, action by action, for legal and refused actions alike;
- ``Deal.apply`` (which accepts a legal card at once) is ``Deal.verify`` then the one unchecked step
  (``Deal.apply_unchecked``, ``Deal.play_unchecked`` for a card): the same states, the same refusals;
- the legal actions listed through the memos (filled as suit patterns first occur) are the plain ones (cards of
  ``legal_play_mask``, of the hand), for every seat of three and four players;
- completed tricks, kept compact and built on reading, are the tricks played, and can be set.
"""

from __future__ import annotations

import copy
import random

import pytest

from sergeant_major.core.actions import Action, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import CARDS, cards_of
from sergeant_major.core.deal import Deal, Phase, Trick
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.match import Match, deal_cards
from sergeant_major.core.rules import Rules
from sergeant_major.core.seeding import SEED_LIMIT

RULES = ("9-5-2", "8-5-3", "9-2-5", "3-5-8", "9-5-2 kitty=none", "8-5-3 players=4 deals=12",
         "8-5-3 kitty=see-then-trump must-trump=on must-overtrump=on", "9-5-2 exchange-count=at-most give=lowest")


def reference_cards(rules: Rules, seed: int, number: int, dealer: int) -> tuple[list[list[int]], list[int]]:
    """The deal as the plain standard-library shuffle gives it, one card at a time from the eldest hand."""
    deck = list(range(1, 52)) if rules.kitty == "none" else list(range(52))
    random.Random(f"sergeant-major/{seed}/{number}").shuffle(deck)
    n = rules.players
    hands: list[list[int]] = [[] for _ in range(n)]
    for j in range(n * rules.hand_size):
        hands[(dealer + 1 + j) % n].append(deck[j])
    return hands, deck[n * rules.hand_size:]


@pytest.mark.parametrize("text", ["9-5-2", "9-5-2 kitty=none", "8-5-3 players=4 deals=12"])
def test_deal_cards_are_those_of_random_shuffle(text: str) -> None:
    rules = Rules.parse(text)
    for seed in [*range(40), -7, 10**15, 2**80]:
        for number in (1, 2, 19):
            dealer = (seed + number) % rules.players
            hands, kitty = deal_cards(rules, seed, number, dealer)
            want_hands, want_kitty = reference_cards(rules, seed, number, dealer)
            assert [[c.id for c in h] for h in hands] == want_hands
            assert [c.id for c in kitty] == want_kitty
            if number == 1 and 0 <= seed < SEED_LIMIT:  # a match deals the same cards (a match's seeds: that range)
                m = Match(rules, seed, dealer=(dealer - number + 1) % rules.players)
                assert [[c.id for c in h] for h in m.deal.dealt] == want_hands
                assert [c.id for c in m.deal.kitty_dealt] == want_kitty
                # the masks a match builds from the deck (the last seat's as the rest of the deck)
                assert m.deal.hands == [sum(1 << c for c in h) for h in want_hands]
                assert m.deal.kitty == sum(1 << c for c in want_kitty)


def state(deal: Deal) -> object:
    return (tuple(deal.hands), deal.kitty, deal.kitty_seen, deal.discards, deal.targets, deal.contract, deal.trump,
            tuple(deal.exchange_log), tuple((k, tuple(q)) for k, q in deal._to_return.items()), deal.leader,
            deal.to_play, tuple(deal.trick), deal.led_suit, tuple(deal.tricks_won), tuple(deal.completed),
            tuple(deal.history), deal.result, deal.phase, deal.to_act)


def plain_legal(deal: Deal) -> list[Action] | None:
    """The legal plays and discards from the masks and hands, without the memos (None for other steps)."""
    seat = deal.to_act
    if seat is None:
        return None
    if deal.phase is Phase.PLAY:
        return [Play(seat, c) for c in cards_of(deal.legal_play_mask())]
    if deal.phase is Phase.DISCARD:
        return [Discard(seat, c) for c in cards_of(deal.hands[seat])]
    return None


def wrong(deal: Deal, rng: random.Random) -> Action:
    seat = rng.randrange(deal.n)
    if rng.random() < 0.5 and deal.to_act is not None:
        seat = deal.to_act
    return (Play if rng.random() < 0.7 else Discard)(seat, CARDS[rng.randrange(52)])


@pytest.mark.parametrize("text", RULES)
def test_match_and_deal_agree_action_by_action(text: str) -> None:
    rules = Rules.parse(text)
    rng = random.Random(text)
    for seed in range(3):
        match = Match(rules, seed)
        twin = match.deal.clone()
        deals = 0
        while not match.over and deals < 4:
            legal = match.legal_actions()
            assert legal == twin.legal_actions()
            plain = plain_legal(twin)
            assert plain is None or plain == legal
            if rng.random() < 0.3:  # a refused action: the same rule, nothing changed
                bad = wrong(twin, rng)
                if bad not in legal:
                    before = state(twin)
                    with pytest.raises(IllegalActionError) as on_match:
                        match.apply(bad)
                    with pytest.raises(IllegalActionError) as on_twin:
                        twin.apply(bad)
                    assert on_match.value.rule == on_twin.value.rule
                    assert state(match.deal) == state(twin) == before
            action = legal[rng.randrange(len(legal))]
            deal = match.deal
            res = match.apply(action)
            twin.apply(action)
            assert state(deal) == state(twin)
            assert (res is None) == (twin.result is None)
            if res is not None:
                assert res == twin.result
                deals += 1
                if not match.over:
                    twin = match.deal.clone()
        if match.over:
            assert match.legal_actions() == []
            with pytest.raises(IllegalActionError) as info:
                match.apply(legal[0])
            assert info.value.rule == "match over"


@pytest.mark.parametrize("text", RULES)
def test_apply_is_verify_then_the_unchecked_step(text: str) -> None:
    rules = Rules.parse(text)
    rng = random.Random(text + "/steps")
    for seed in range(3):
        match = Match(rules, seed)
        while not match.over and len(match.deals) <= 3:
            deal = match.deal
            checked, stepped, played = deal.clone(), deal.clone(), deal.clone()
            legal = deal.legal_actions()
            bad = wrong(deal, rng)
            if bad not in legal:  # refused by apply and by verify alike, naming the same rule, nothing changed
                before = state(checked)
                with pytest.raises(IllegalActionError) as on_apply:
                    checked.apply(bad)
                with pytest.raises(IllegalActionError) as on_verify:
                    stepped.verify(bad)
                assert on_apply.value.rule == on_verify.value.rule
                assert str(on_apply.value) == str(on_verify.value)
                assert state(checked) == state(stepped) == before
            action = legal[rng.randrange(len(legal))]
            checked.apply(action)
            stepped.verify(action)
            stepped.apply_unchecked(action)
            assert state(checked) == state(stepped)
            if isinstance(action, Play):
                played.play_unchecked(action.card.id)
                assert state(played) == state(checked)
            match.apply(action)
            if match.deal is deal:
                assert state(deal) == state(checked)


def test_completed_tricks_are_built_from_the_play_and_can_be_set() -> None:
    rules = Rules.parse("9-5-2")
    match = Match(rules, 5)
    deal = match.deal
    rng = random.Random(1)
    while deal.phase is not Phase.PLAY:
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    live = deal.completed
    for _ in range(7):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    plays = [a for a in deal.history if isinstance(a, Play)]
    assert deal.completed is live and len(live) == 2  # the same list, brought up to date when read
    for k, t in enumerate(live):
        assert isinstance(t, Trick)
        assert t.cards == tuple((p.seat, p.card) for p in plays[3 * k: 3 * k + 3])
        assert t.leader == t.cards[0][0]
    assert live[1].leader == live[0].winner and deal.trick == [(plays[6].seat, plays[6].card.id)]
    other = copy.copy(deal)
    other.completed = list(deal.completed[:1])
    assert other.completed == deal.completed[:1] and len(deal.completed) == 2
    probe = deal.clone()
    while probe.result is None:
        legal = probe.legal_actions()
        probe.apply(legal[rng.randrange(len(legal))])
    assert len(probe.completed) == rules.tricks and len(deal.completed) == 2
    assert sum(probe.result.tricks) == rules.tricks


@pytest.mark.parametrize("text", RULES)
def test_as_dealt_is_the_deal_before_its_first_action(text: str) -> None:
    """``as_dealt`` (not checked again) is the deal the constructor makes of the same cards and context, at any
    point of the deal, and replaying the history on it gives the deal back."""
    rules = Rules.parse(text)
    rng = random.Random(text)
    for seed in range(2):
        match = Match(rules, seed)
        while not match.over and len(match.deals) <= 3:
            d = match.deal
            fresh = d.as_dealt()
            made = Deal(rules, d.dealer, d.dealt, d.kitty_dealt, d.prev_diffs, d.allowed_contracts, d.number)
            assert state(fresh) == state(made) and fresh.history == []
            for a in d.history:
                fresh.apply(a)
            assert state(fresh) == state(d)
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])


def test_deals_that_played_the_same_trick_share_its_value() -> None:
    """A completed trick is one immutable Trick for every deal that played it (the search's worlds compare their
    views with the real one), and the same cards won by another seat (another trump) are another Trick."""
    rules = Rules.parse("9-5-2")
    tricks = {}
    for contract in (Contract.CLUBS, Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES):
        deal = Match(rules, 5).deal
        twin = deal.clone()
        for d in (deal, twin):
            while d.phase is not Phase.PLAY:
                f = d.forced_action()
                d.apply(f if f is not None else next(a for a in d.legal_actions()
                                                     if not isinstance(a, NameContract) or a.contract is contract))
            for _ in range(6):
                d.play_unchecked(d.legal_play_mask().bit_length() - 1)  # the highest legal card
        assert deal.completed == twin.completed
        assert all(a is b for a, b in zip(deal.completed, twin.completed, strict=True))
        for t in deal.completed:
            tricks.setdefault(t.cards, set()).add((id(t), t.winner))
    assert all(len({w for _, w in seen}) == len(seen) for seen in tricks.values())
