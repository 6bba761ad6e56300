"""Each rule of the 9-5-2 and 8-5-3 presets, with the expected value taken from the rules texts.

Sources (cited in every test): seeds 000 (German 9-5-2), 004 (English 9-5-2 with Variants), 002 (German
8-5-3), the rules texts named in docs/rules.md, and the reference in docs/rules.md, which wins where they differ.

Positions are built by hand: :func:`build_hands` fills chosen hands, :func:`scripted_deal` builds a deal
in which the tricks go to chosen seats (every trick is three cards of one suit, the highest held by the
chosen winner; the four aces are dealt to the dealer, who discards them).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from sergeant_major.core.actions import (
    Action,
    Contract,
    Discard,
    EndGive,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
)
from sergeant_major.core.cards import CARDS, Card, Suit, parse_card, parse_cards
from sergeant_major.core.deal import Deal, Phase, exchange_rounds
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.match import Match, deal_cards
from sergeant_major.core.rules import Rules
from sergeant_major.players import RandomPlayer, drive

R952 = Rules.preset("9-5-2")
R853 = Rules.preset("8-5-3")
D, E, M = 0, 1, 2  # roles: dealer, eldest, third


# ---------------------------------------------------------------------------------------------- helpers
def cs(text: str) -> list[Card]:
    return parse_cards(text)


def build_hands(
    spec: dict[int, str], kitty: str | None = None, voids: dict[int, str] | None = None, rules: Rules = R952
) -> tuple[list[list[Card]], list[Card]]:
    """Hands with the cards of ``spec`` (by seat), the rest filled in id order avoiding the suits in ``voids``."""
    hands: list[list[Card]] = [cs(spec.get(s, "")) for s in range(3)]
    k = cs(kitty) if kitty else []
    used = {c.id for h in hands for c in h} | {c.id for c in k}
    assert len(used) == sum(len(h) for h in hands) + len(k), "a card is given twice in the spec"
    rest = [c for c in CARDS if c.id not in used]
    order = sorted(range(3), key=lambda s: -len((voids or {}).get(s, "")))
    for s in order:
        bad = {Suit.parse(x) for x in (voids or {}).get(s, "")}
        while len(hands[s]) < rules.hand_size:
            c = next(c for c in rest if c.suit not in bad)
            rest.remove(c)
            hands[s].append(c)
    k += rest[: rules.kitty_size - len(k)]
    assert len(k) == rules.kitty_size
    return hands, k


def to_play_phase(deal: Deal, trump: Contract = Contract.SPADES, discard: Callable[[list[Card]], Card] | None = None) -> None:
    """Name ``trump``, take the kitty and discard (aces first, else the last cards) until the play begins."""
    while deal.phase is not Phase.PLAY:
        seat = deal.to_act
        assert seat is not None
        if deal.phase is Phase.CONTRACT:
            deal.apply(NameContract(seat, trump))
        elif deal.phase is Phase.KITTY:
            deal.apply(TakeKitty(seat))
        elif deal.phase is Phase.DISCARD:
            hand = deal.hand(seat)
            pick = discard(hand) if discard else next((c for c in hand if c.rank == 12), hand[-1])
            deal.apply(Discard(seat, pick))
        else:
            raise AssertionError(f"unexpected phase {deal.phase}")


def scripted_cards(dealer: int, winners: list[int]) -> tuple[list[list[Card]], list[Card], list[dict[int, Card]]]:
    """Cards for a deal in which trick ``t`` is won by the seat of role ``winners[t]``.

    Trick ``t`` is three cards of one suit (ranks 2..K), the highest held by the winner. The four aces go to the
    dealer, who discards them; four of the dealer's planned cards make the kitty.
    Returns ``(hands, kitty, plan)`` with ``plan[t][seat]`` the card ``seat`` plays to trick ``t``.
    """
    assert len(winners) == 16
    triples = [[CARDS[s * 13 + r] for r in range(3 * j, 3 * j + 3)] for s in range(4) for j in range(4)]
    plan: list[dict[int, Card]] = []
    for t, w in enumerate(winners):
        lo, mid, hi = triples[t]
        ws = (dealer + w) % 3
        others = [s for s in range(3) if s != ws]
        plan.append({ws: hi, others[0]: lo, others[1]: mid})
    planned = [[p[s] for p in plan] for s in range(3)]
    kitty = planned[dealer][-4:]
    hands = [list(h) for h in planned]
    hands[dealer] = planned[dealer][:-4] + [CARDS[s * 13 + 12] for s in range(4)]
    return hands, kitty, plan


def scripted_deal(rules: Rules, dealer: int, winners: list[int]) -> tuple[Deal, list[dict[int, Card]]]:
    hands, kitty, plan = scripted_cards(dealer, winners)
    deal = Deal(rules, dealer, hands, kitty)
    to_play_phase(deal)
    return deal, plan


def play_plan(apply: Callable[[Action], object], to_play: Callable[[], int], plan: list[dict[int, Card]], tricks: range) -> None:
    for t in tricks:
        for _ in range(3):
            s = to_play()
            apply(Play(s, plan[t][s]))


def winners_for(counts_by_role: tuple[int, int, int]) -> list[int]:
    out = [D] * counts_by_role[0] + [E] * counts_by_role[1] + [M] * counts_by_role[2]
    assert len(out) == 16
    random.Random(sum(counts_by_role)).shuffle(out)
    return out


def snapshot(deal: Deal) -> object:
    """Everything that makes up a deal's state, deep-copied for comparison."""
    keys = ("hands", "kitty", "kitty_seen", "discards", "targets", "contract", "trump", "exchange_log", "_to_return",
            "leader", "to_play", "trick", "led_suit", "tricks_won", "completed", "history", "result", "_steps")
    return copy.deepcopy({k: getattr(deal, k) for k in keys}) | {"phase": deal.phase, "to_act": deal.to_act}


def refused(deal: Deal, action: Action, rule: str) -> None:
    """``action`` raises IllegalActionError naming ``rule`` and changes nothing."""
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert snapshot(deal) == before
    assert not deal.can_apply(action)


# ---------------------------------------------------------------------------------------------- setup
@pytest.mark.parametrize("rules", [R952, R853], ids=str)
def test_deal_is_16_16_16_and_a_4_card_kitty(rules: Rules) -> None:
    """000/004 "Setup": 16 cards to each player, the last 4 face down as the kitty; 002 "Vorbereitung" the same."""
    for seed in range(5):
        for dealer in range(3):
            hands, kitty = deal_cards(rules, seed, 1, dealer)
            assert [len(h) for h in hands] == [16, 16, 16]
            assert len(kitty) == 4
            assert sorted([c.id for h in hands for c in h] + [c.id for c in kitty]) == list(range(52))
    assert rules.tricks == 16 and rules.hand_size == 16 and rules.kitty_size == 4
    m = Match(rules, seed=3)
    assert [len(m.deal.hand(s)) for s in range(3)] == [16, 16, 16]
    assert m.deal.kitty.bit_count() == 4


@pytest.mark.parametrize(("rules", "targets"), [(R952, (9, 5, 2)), (R853, (8, 5, 3))], ids=["9-5-2", "8-5-3"])
def test_targets_by_seat_and_rotation_with_the_deal(rules: Rules, targets: tuple[int, int, int]) -> None:
    """docs/rules.md worked example "Rotation": A deals (A 9, B 5, C 2) -> B deals (B 9, C 5, A 2) -> C deals
    (C 9, A 5, B 2); 000/004 "Setup" 1: after each deal the player to the left deals. 8-5-3 the same with 8/5/3
    (004 Variants; 002 "Ziel")."""
    d, e, m = targets
    exact = [D] * d + [E] * e + [M] * m  # everyone makes his target: no exchange, totals stay 0

    def cards(number: int, dealer: int) -> tuple[list[list[Card]], list[Card]]:
        hands, kitty, _ = scripted_cards(dealer, exact)
        return hands, kitty

    match = Match(rules, seed=1, names=["A", "B", "C"], dealer=0, cards=cards)
    expected = [(0, (d, e, m)), (1, (m, d, e)), (2, (e, m, d)), (0, (d, e, m))]
    for number, (dealer, tg) in enumerate(expected, start=1):
        deal = match.deal
        assert deal.number == number
        assert deal.dealer == dealer
        assert deal.targets == tg
        assert match.view(0).targets == tg
        to_play_phase(deal)
        _, _, plan = scripted_cards(dealer, exact)
        play_plan(match.apply, lambda: match.deal.to_play, plan, range(16))
        assert match.results[-1].tricks == tg
    assert match.totals == [0, 0, 0]


# ---------------------------------------------------------------------------------------------- exchange
def test_no_exchange_on_the_first_deal_only_from_the_second() -> None:
    """000/004 "Exchanging cards": on the first deal there is no exchange; from the second deal on, the players
    first exchange cards according to the previous deal."""
    hands, kitty = build_hands({})
    assert Deal(R952, 0, hands, kitty).phase is Phase.CONTRACT
    assert Deal(R952, 0, hands, kitty, prev_diffs=(0, 0, 0)).phase is Phase.CONTRACT  # nobody up or down
    assert Deal(R952, 0, hands, kitty, prev_diffs=(1, -1, 0)).phase is Phase.EXCHANGE
    for seed in range(4):
        match = Match(R952, seed=seed, dealer=0)
        assert match.deal.phase is Phase.CONTRACT
        drive(match, [RandomPlayer()] * 3, until_deal_end=True)
        if match.over:
            continue
        prev = match.results[0].diffs
        assert match.deal.prev_diffs == prev
        assert match.deal.phase is (Phase.EXCHANGE if any(prev) else Phase.CONTRACT)


def test_one_up_two_down_gives_to_both_before_any_return() -> None:
    """004 "In detail": one player up, two down: the up player gives each of the others as many cards as that
    player's under-tricks, all at the same time; docs/rules.md reference decision 2: he commits all cards to both down players
    before any card comes back."""
    hands, kitty = build_hands({0: "2C 3C 4C", 1: "AC KC", 2: "QC JC"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(3, -1, -2))
    assert exchange_rounds(R952, (3, -1, -2), deal.targets) == [(0, [(1, 1), (2, 2)])]
    kinds = []
    for card, to in (("2C", 1), ("3C", 2), ("4C", 2)):
        assert deal.phase is Phase.EXCHANGE and deal.to_act == 0
        assert all(isinstance(a, Give) and a.to == to for a in deal.legal_actions())
        deal.apply(Give(0, parse_card(card), to))
        kinds.append("give")
    while deal.phase is Phase.EXCHANGE:
        forced = deal.forced_action()
        assert isinstance(forced, Return)
        deal.apply(forced)
        kinds.append("return")
    assert kinds == ["give"] * 3 + ["return"] * 3
    assert [(e.kind, e.giver, e.receiver, str(e.card)) for e in deal.exchange_log] == [
        ("give", 0, 1, "2C"), ("give", 0, 2, "3C"), ("give", 0, 2, "4C"),
        ("return", 1, 0, "AC"), ("return", 2, 0, "QC"), ("return", 2, 0, "JC"),
    ]
    assert deal.phase is Phase.CONTRACT


def test_two_up_one_down_higher_coming_target_first_and_completes_first() -> None:
    """004 "In detail": two up, one down: each gives the down player as many cards as his own over-tricks; the
    one with the higher target in the coming deal exchanges first. docs/rules.md reference decision 2: he completes his
    exchange (gives and returns) before the other starts. Here seat 1 was more up (+2) but seat 0 deals the
    coming deal (target 9 > 5), so seat 0 goes first."""
    hands, kitty = build_hands({0: "2D", 1: "2H 3H", 2: "AD AH KH"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(1, 2, -3))
    assert deal.targets == (9, 5, 2)
    steps: list[tuple[str, int, int]] = []
    script: list[Action] = [Give(0, parse_card("2D"), 2), Give(1, parse_card("2H"), 2), Give(1, parse_card("3H"), 2)]
    while deal.phase is Phase.EXCHANGE:
        action = deal.forced_action() or script.pop(0)
        deal.apply(action)
        assert isinstance(action, (Give, Return))
        steps.append((type(action).__name__, action.seat, action.to))
    assert steps == [("Give", 0, 2), ("Return", 2, 0), ("Give", 1, 2), ("Give", 1, 2), ("Return", 2, 1), ("Return", 2, 1)]
    assert [str(e.card) for e in deal.exchange_log if e.kind == "return"] == ["AD", "AH", "KH"]


def test_exact_player_takes_no_part_one_up_one_down() -> None:
    """004 "In detail": a player who made his target exactly neither gives nor receives (000 "Wer sein Soll
    genau erfüllt hat, gibt und bekommt nichts")."""
    hands, kitty = build_hands({0: "2S 3S", 1: "AS KS"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(2, -2, 0))
    third_before = deal.hands[2]
    actors = set()
    while deal.phase is Phase.EXCHANGE:
        assert deal.to_act != 2
        actors.add(deal.to_act)
        deal.apply(deal.forced_action() or Give(0, deal.hand(0)[0], 1))
    assert actors == {0, 1}
    assert deal.hands[2] == third_before
    assert all(2 not in (e.giver, e.receiver) for e in deal.exchange_log)


def test_return_is_highest_of_the_suit_and_may_be_the_card_just_received() -> None:
    """000/004 "Exchanging cards": for each card received the down player gives back the highest card he holds
    in that suit; if the card just received is the highest, he gives that one back. docs/rules.md reference decision 1."""
    # seat 1 holds 2C 5C and aces elsewhere; receiving KC he must return the KC itself
    hands, kitty = build_hands({0: "KC", 1: "2C 5C AS AH AD"}, voids={1: "C"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(1, -1, 0))
    deal.apply(Give(0, parse_card("KC"), 1))
    assert deal.legal_actions() == [Return(1, parse_card("KC"), 0)]
    assert deal.forced_action() == Return(1, parse_card("KC"), 0)
    refused(deal, Return(1, parse_card("AS"), 0), "return highest")  # not the highest overall
    refused(deal, Return(1, parse_card("5C"), 0), "return highest")
    deal.apply(Return(1, parse_card("KC"), 0))
    assert parse_card("KC") in deal.hand(0)


def test_several_cards_of_one_suit_return_the_k_highest() -> None:
    """docs/rules.md reference decision 1: for k cards received in suit S, the receiver returns the k highest S cards he holds
    after receiving them."""
    hands, kitty = build_hands({0: "3C 4C 5D", 1: "AC 9C 8C 6C QD"}, voids={1: "CD"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(3, -3, 0))
    for c in ("3C", "4C", "5D"):
        deal.apply(Give(0, parse_card(c), 1))
    while deal.phase is Phase.EXCHANGE:
        f = deal.forced_action()
        assert f is not None
        deal.apply(f)
    returned = sorted(str(e.card) for e in deal.exchange_log if e.kind == "return")
    assert returned == sorted(["AC", "9C", "QD"])
    # a received card can come back when it is among the k highest
    hands, kitty = build_hands({0: "QH KH", 1: "2H"}, voids={1: "H"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(2, -2, 0))
    deal.apply(Give(0, parse_card("QH"), 1))
    deal.apply(Give(0, parse_card("KH"), 1))
    while deal.phase is Phase.EXCHANGE:
        f = deal.forced_action()
        assert f is not None
        deal.apply(f)
    assert sorted(str(e.card) for e in deal.exchange_log if e.kind == "return") == ["KH", "QH"]


def test_worked_example_of_the_exchange() -> None:
    """docs/rules.md worked example "Exchange" (000/004 "Exchanging cards" example): A needed 9 took 11 (+2), B needed
    5 took 3 (-2), C needed 2 took 2 (0). A gives B 3C 4D; B, holding AC 9C 5C QD 7D in those suits, returns
    AC QD. C takes no part. The next deal is dealt by B (rotation)."""
    a, b, c = 0, 1, 2
    hands, kitty = build_hands({a: "3C 4D", b: "AC 9C 5C QD 7D"}, voids={b: "CD"})
    c_before = list(hands[c])
    deal = Deal(R952, b, hands, kitty, prev_diffs=(2, -2, 0), number=2)
    assert deal.targets == (2, 9, 5)  # B deals: B 9, C 5, A 2
    assert deal.phase is Phase.EXCHANGE and deal.to_act == a
    deal.apply(Give(a, parse_card("3C"), b))
    deal.apply(Give(a, parse_card("4D"), b))
    assert deal.forced_action() == Return(b, parse_card("AC"), a)
    deal.apply(Return(b, parse_card("AC"), a))
    assert deal.forced_action() == Return(b, parse_card("QD"), a)
    deal.apply(Return(b, parse_card("QD"), a))
    assert deal.phase is Phase.CONTRACT and deal.to_act == b
    assert {"AC", "QD"} <= {str(x) for x in deal.hand(a)}
    assert {"3C", "4D", "9C", "5C", "7D"} <= {str(x) for x in deal.hand(b)}
    assert not {"AC", "QD"} & {str(x) for x in deal.hand(b)}
    assert deal.hand(c) == sorted(c_before, key=lambda x: x.id)
    assert [len(deal.hand(s)) for s in range(3)] == [16, 16, 16]
    assert [type(h).__name__ for h in deal.history] == ["Give", "Give", "Return", "Return"]


# ---------------------------------------------------------------------------------------------- trump and kitty
@pytest.mark.parametrize("rules", [R952, R853], ids=str)
def test_trump_from_the_four_suits_only(rules: Rules) -> None:
    """000/004 "Trumps and the kitty": the dealer names clubs, diamonds, hearts or spades; "no trumps" isn't
    allowed (000: "ohne Trumpf ist nicht erlaubt")."""
    hands, kitty = build_hands({})
    deal = Deal(rules, 1, hands, kitty)
    assert deal.phase is Phase.CONTRACT and deal.to_act == 1  # the dealer names trump
    assert deal.legal_actions() == [NameContract(1, Contract(s)) for s in range(4)]
    refused(deal, NameContract(1, Contract.NO_TRUMP), "contract")
    refused(deal, NameContract(1, Contract.MINIMUM), "contract")
    refused(deal, NameContract(2, Contract.HEARTS), "turn")
    deal.apply(NameContract(1, Contract.HEARTS))
    assert deal.trump_suit == Suit.HEARTS


def phases_until_play(deal: Deal) -> list[str]:
    seen: list[str] = []
    while deal.phase is not Phase.PLAY:
        seen.append(deal.phase.value)
        seat = deal.to_act
        assert seat is not None
        if deal.phase is Phase.EXCHANGE:
            deal.apply(deal.forced_action() or deal.legal_actions()[0])
        elif deal.phase is Phase.CONTRACT:
            deal.apply(NameContract(seat, Contract.SPADES))
        elif deal.phase is Phase.KITTY:
            deal.apply(TakeKitty(seat))
        else:
            deal.apply(deal.legal_actions()[0])
    return seen


def test_kitty_order_9_5_2_trump_then_take_then_discard() -> None:
    """000/004 "Trumps and the kitty": after any exchange the dealer names trump, then picks up the kitty and
    discards any 4 cards (docs/rules.md reference presets, 9-5-2: trump named -> D takes kitty -> D discards 4)."""
    hands, kitty = build_hands({})
    assert phases_until_play(Deal(R952, 0, hands, kitty)) == ["contract", "kitty"] + ["discard"] * 4
    assert phases_until_play(Deal(R952, 0, hands, kitty, prev_diffs=(1, -1, 0))) == (
        ["exchange"] * 2 + ["contract", "kitty"] + ["discard"] * 4)
    deal = Deal(R952, 0, hands, kitty)
    deal.apply(NameContract(0, Contract.SPADES))
    refused(deal, Discard(0, hands[0][0]), "phase")  # the kitty comes first
    deal.apply(TakeKitty(0))
    assert {a.card for a in deal.legal_actions() if isinstance(a, Discard)} == set(hands[0]) | set(kitty)  # any 4 of 20
    for c in kitty:
        deal.apply(Discard(0, c))
    assert deal.phase is Phase.PLAY and deal.discards.bit_count() == 4


def test_kitty_order_8_5_3_trump_then_discard_then_take() -> None:
    """004 Variants (Sergeant Major 8-5-3): the dealer names trumps, then discards 4 cards first and only then
    takes the kitty (docs/rules.md reference presets, 8-5-3: trump -> D discards 4 -> D takes kitty)."""
    hands, kitty = build_hands({})
    assert phases_until_play(Deal(R853, 0, hands, kitty)) == ["contract"] + ["discard"] * 4 + ["kitty"]
    assert phases_until_play(Deal(R853, 0, hands, kitty, prev_diffs=(1, -1, 0))) == (
        ["exchange"] * 2 + ["contract"] + ["discard"] * 4 + ["kitty"])
    deal = Deal(R853, 0, hands, kitty)
    deal.apply(NameContract(0, Contract.SPADES))
    # discards come from the 16 cards dealt: the kitty is not yet in hand
    assert {a.card for a in deal.legal_actions() if isinstance(a, Discard)} == set(hands[0])
    refused(deal, Discard(0, kitty[0]), "card not held")
    refused(deal, TakeKitty(0), "phase")
    for c in hands[0][:4]:
        deal.apply(Discard(0, c))
    assert deal.phase is Phase.KITTY and len(deal.hand(0)) == 12
    deal.apply(TakeKitty(0))
    assert deal.phase is Phase.PLAY and set(deal.hand(0)) == set(hands[0][4:]) | set(kitty)


# ---------------------------------------------------------------------------------------------- the play
@pytest.mark.parametrize("rules", [R952, R853], ids=str)
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_eldest_leads_the_first_trick(rules: Rules, dealer: int) -> None:
    """000/004 "Playing the tricks": the player to the dealer's left leads to the first trick (002 "Stichspiel" 1)."""
    hands, kitty = build_hands({})
    deal = Deal(rules, dealer, hands, kitty)
    to_play_phase(deal)
    assert deal.phase is Phase.PLAY
    assert deal.to_act == deal.leader == (dealer + 1) % 3
    refused(deal, Play(dealer, deal.hand(dealer)[0]), "turn")


def test_follow_suit_if_able_otherwise_any_card_no_forced_trump() -> None:
    """000/004 "Playing the tricks": you must follow suit if you can; if you can't, play any card - a trump or
    any other card (no forced trump in 9-5-2)."""
    # dealer 0, eldest 1 leads 2H; seat 2 holds hearts; seat 0 is void in hearts and holds trumps (spades)
    hands, kitty = build_hands({1: "2H", 2: "3H 4H", 0: "AS KS 2D"}, kitty="5H 6H 7H 8H", voids={0: "H"})
    deal = Deal(R952, 0, hands, kitty)
    to_play_phase(deal, Contract.SPADES, discard=lambda h: next(c for c in h if c.suit is Suit.HEARTS))
    deal.apply(Play(1, parse_card("2H")))
    hearts2 = {c for c in deal.hand(2) if c.suit is Suit.HEARTS}
    assert {a.card for a in deal.legal_actions() if isinstance(a, Play)} == hearts2
    refused(deal, Play(2, next(c for c in deal.hand(2) if c.suit is not Suit.HEARTS)), "follow suit")
    deal.apply(Play(2, parse_card("4H")))
    assert {a.card for a in deal.legal_actions() if isinstance(a, Play)} == set(deal.hand(0))  # void: any card
    deal.apply(Play(0, parse_card("2D")))  # a discard, not a trump, although trumps are held
    assert deal.completed[-1].winner == 2  # highest heart; the off-suit 2D cannot win


def test_trick_winner() -> None:
    """000/004 "Playing the tricks": the highest trump wins the trick; if no trump was played, the highest card
    of the suit led wins (an off-suit card, even an ace, never wins)."""
    trump = Contract.SPADES
    # trick 1 (E leads): 5H, AC (M void in hearts, off-suit ace), KH by the dealer -> the dealer wins with KH
    # trick 2 (dealer leads): 9D, 2S (E void in diamonds, trumps), 3S (M trumps higher) -> M wins
    # trick 3 (M leads): 4C, 5C (dealer), 6C (E) -> E wins (highest of suit led, no trump)
    hands, kitty = build_hands(
        {1: "5H 2S 6C", 2: "AC 3S 4C", 0: "KH 9D 5C"}, kitty="AH QH JH TH", voids={2: "HD", 1: "D"})
    deal = Deal(R952, 0, hands, kitty)
    to_play_phase(deal, trump, discard=lambda h: next(c for c in h if c.suit is Suit.HEARTS and c.rank >= 8 and str(c) != "KH"))
    for seat, card in [(1, "5H"), (2, "AC"), (0, "KH")]:
        deal.apply(Play(seat, parse_card(card)))
    assert deal.completed[-1].winner == 0 and deal.to_play == 0
    for seat, card in [(0, "9D"), (1, "2S"), (2, "3S")]:
        deal.apply(Play(seat, parse_card(card)))
    assert deal.completed[-1].winner == 2 and deal.to_play == 2
    for seat, card in [(2, "4C"), (0, "5C"), (1, "6C")]:
        deal.apply(Play(seat, parse_card(card)))
    assert deal.completed[-1].winner == 1
    assert deal.tricks_won == [1, 1, 1]


def test_winner_of_a_trick_leads_the_next_and_all_16_are_played() -> None:
    """000/004 "Basic terms"/"Playing the tricks": the winner of a trick leads to the next one; play all 16 tricks."""
    winners = winners_for((9, 5, 2))
    deal, plan = scripted_deal(R952, 2, winners)
    play_plan(deal.apply, lambda: deal.to_play, plan, range(16))
    assert len(deal.completed) == 16
    assert [t.winner for t in deal.completed] == [(2 + w) % 3 for w in winners]
    assert deal.completed[0].leader == 0
    for prev, nxt in zip(deal.completed, deal.completed[1:], strict=False):
        assert nxt.leader == prev.winner
    assert deal.phase is Phase.SCORED


# ---------------------------------------------------------------------------------------------- scoring
def test_scoring_worked_example() -> None:
    """docs/rules.md worked example "Scoring" (000/004 "Scoring" example): the dealer (target 9) takes 7, E (target 5)
    takes 6, M (target 2) takes 3 -> -2, +1, +1."""
    dealer = 1
    deal, plan = scripted_deal(R952, dealer, winners_for((7, 6, 3)))
    play_plan(deal.apply, lambda: deal.to_play, plan, range(16))
    res = deal.result
    assert res is not None
    d, e, m = dealer, (dealer + 1) % 3, (dealer + 2) % 3
    assert (res.tricks[d], res.tricks[e], res.tricks[m]) == (7, 6, 3)
    assert (res.scores[d], res.scores[e], res.scores[m]) == (-2, 1, 1)
    assert sum(res.scores) == 0


@pytest.mark.parametrize("counts", [(9, 5, 2), (16, 0, 0), (0, 16, 0), (0, 0, 16), (3, 3, 10), (12, 1, 3), (5, 10, 1)])
def test_scores_are_over_and_under_tricks_and_add_up_to_zero(counts: tuple[int, int, int]) -> None:
    """000/004 "Scoring": +1 per trick over the target, -1 per trick under, 0 for exactly the target; the three
    scores of a deal always add up to 0."""
    deal, plan = scripted_deal(R952, 0, winners_for(counts))
    play_plan(deal.apply, lambda: deal.to_play, plan, range(16))
    assert deal.result is not None
    assert deal.result.scores == (counts[0] - 9, counts[1] - 5, counts[2] - 2)
    assert sum(deal.result.scores) == 0


def test_8_5_3_counters() -> None:
    """004 Variants: 8-5-3 is played for counters: each player who was down pays one counter per under-trick, each
    player who was up receives one per over-trick (002 "Wertung pro Hand": tricks - 8, - 5, - 3)."""
    deal, plan = scripted_deal(R853, 0, winners_for((6, 7, 3)))
    play_plan(deal.apply, lambda: deal.to_play, plan, range(16))
    assert R853.scoring == "counters"
    assert deal.result is not None
    assert deal.result.targets == (8, 5, 3)
    assert deal.result.scores == (-2, 2, 0)
    assert deal.result.diffs == (-2, 2, 0)


# ---------------------------------------------------------------------------------------------- game end
def end_match(rules: Rules, counts: tuple[int, int, int], totals: list[int], dealer: int = 0) -> Match:
    """A match whose deal 1 gives ``counts`` tricks by role; ``totals`` are set before its last trick."""
    winners = winners_for(counts)

    def cards(number: int, dl: int) -> tuple[list[list[Card]], list[Card]]:
        hands, kitty, _ = scripted_cards(dl, winners)
        return hands, kitty

    match = Match(rules, seed=0, dealer=dealer, cards=cards)
    to_play_phase(match.deal)
    _, _, plan = scripted_cards(dealer, winners)
    play_plan(match.apply, lambda: match.deal.to_play, plan, range(15))
    match.totals = list(totals)
    play_plan(match.apply, lambda: match.deal.to_play, plan, range(15, 16))
    return match


def test_game_ends_when_a_total_reaches_10() -> None:
    """000/004 "Winning the game": the game ends as soon as a player's total reaches the agreed target - usually 10 -
    and that player wins."""
    m = end_match(R952, (9, 7, 0), [0, 8, -8])  # E +2 -> 10
    assert m.over and m.end is not None and m.end.winners == (1,)
    assert m.totals == [0, 10, -10]
    m = end_match(R952, (9, 6, 1), [0, 8, -8])  # E +1 -> 9: play on
    assert not m.over and len(m.deals) == 2


def test_game_to_20() -> None:
    """000/004 "Winning the game": a longer game ends at 20."""
    rules = R952.with_options(to="20")
    m = end_match(rules, (9, 7, 0), [0, 8, -8])  # 10 is not enough
    assert not m.over
    m = end_match(rules, (9, 7, 0), [0, 18, -18])
    assert m.end is not None and m.end.winners == (1,)


def test_two_reach_the_target_in_the_same_deal_higher_total_wins() -> None:
    """000/004 "Winning the game": if two players get there in the same deal, the higher total wins (docs/rules.md
    reference decision 6)."""
    m = end_match(R952, (6, 6, 4), [-18, 9, 9])  # E +1 -> 10, M +2 -> 11: M wins
    assert m.totals == [-21, 10, 11]
    assert m.end is not None and m.end.winners == (2,)
    m = end_match(R952, (6, 7, 3), [-18, 9, 9])  # E +2 -> 11, M +1 -> 10: E wins
    assert m.totals == [-21, 11, 10]
    assert m.end is not None and m.end.winners == (1,)


def test_two_equal_totals_at_the_target_play_another_deal() -> None:
    """000/004 "Winning the game": on a tie, play another deal (docs/rules.md reference decision 6)."""
    m = end_match(R952, (7, 6, 3), [-18, 9, 9])
    assert not m.over and m.totals == [-20, 10, 10]
    assert len(m.deals) == 2 and m.deal.phase in (Phase.EXCHANGE, Phase.CONTRACT)


def test_12_tricks_win_at_once_and_beat_a_total_reaching_the_target() -> None:
    """000/004 "Winning the game": a player who takes 12 or more tricks in one deal wins the game at once;
    docs/rules.md reference decision 6: this beats a total reaching +10 in the same deal."""
    m = end_match(R952, (1, 12, 3), [0, -9, 9])  # M +1 -> 10, E takes 12 tricks
    assert m.totals == [-8, -2, 10]
    assert m.end is not None and m.end.winners == (1,)
    m = end_match(R952, (12, 2, 2), [0, 0, 0])  # 12 tricks with a total of only +3
    assert m.end is not None and m.end.winners == (0,)
    m = end_match(R952, (11, 3, 2), [0, 0, 0])  # 11 is not enough
    assert not m.over


def test_8_5_3_ends_only_at_12_tricks() -> None:
    """004 Variants: 8-5-3 ends when someone takes 12 or more tricks in one deal (docs/rules.md: no target total)."""
    m = end_match(R853, (6, 5, 5), [-30, 0, 30])  # M +2 -> 32: no end in 8-5-3
    assert not m.over
    m = end_match(R853, (2, 12, 2), [0, 0, 0])
    assert m.end is not None and m.end.winners == (1,)


def test_9_2_5_ends_at_plus_or_minus_15_and_the_highest_total_wins() -> None:
    """004 Variants (reversed targets): "The game ends when someone reaches +15 or -15; the highest total wins"
    (docs/rules.md reference presets, 9-2-5: "a total reaches +15 or -15; highest total wins"); equal highest totals share the
    win (docs/rules.md decision 9). Targets by role: dealer 9, eldest 2, third 5; tricks by role below."""
    r925 = Rules.preset("9-2-5")
    m = end_match(r925, (8, 3, 5), [-14, 7, 7])  # dealer -1 -> -15 ends it; eldest +1 -> 8 is highest
    assert m.totals == [-15, 8, 7] and m.end is not None and m.end.winners == (1,) and m.end.kind == "bound"
    m = end_match(r925, (10, 1, 5), [14, 0, -14])  # dealer +1 -> +15 ends it and is highest
    assert m.totals == [15, -1, -14] and m.end is not None and m.end.winners == (0,)
    m = end_match(r925, (8, 3, 5), [-14, 6, 7])  # -15 reached with the other two equal highest: shared
    assert m.totals == [-15, 7, 7] and m.end is not None and m.end.winners == (1, 2)
    m = end_match(r925, (8, 3, 5), [-13, 6, 7])  # -14, 7, 7: nobody at 15, play on
    assert m.totals == [-14, 7, 7] and not m.over and len(m.deals) == 2


def scripted_match(rules: Rules, counts: list[tuple[int, int, int]]) -> Match:
    """A match (first dealer seat 0) whose deal ``k`` gives the dealer, eldest and third the tricks ``counts[k]``
    (by role), played until it ends or the counts run out. Needs ``exchange=off`` (the scripted hands stay as
    dealt)."""
    assert not rules.exchange

    def cards(number: int, dealer: int) -> tuple[list[list[Card]], list[Card]] | None:
        if number > len(counts):
            return None  # the deal after the script: shuffled from the seed
        hands, kitty, _ = scripted_cards(dealer, winners_for(counts[number - 1]))
        return hands, kitty

    match = Match(rules, seed=1, dealer=0, cards=cards)
    for number, tg in enumerate(counts, start=1):
        if match.over:
            break
        deal = match.deal
        assert deal.number == number
        to_play_phase(deal)
        _, _, plan = scripted_cards(deal.dealer, winners_for(tg))
        play_plan(match.apply, lambda: match.deal.to_play, plan, range(16))
        res = match.results[-1]
        assert res.tricks == tuple(tg[(s - deal.dealer) % 3] for s in range(3))
    return match


TRAD_ON = Rules.parse("8-5-3 traditional=on instant-win=off exchange=off")
TRAD_STRICT = TRAD_ON.with_options(traditional="strict")


def test_traditional_end_waits_for_the_deal_to_go_round_then_the_first_dealer_who_made_his_target_wins() -> None:
    """002 "Gewinnen": "Das traditionelle Spiel endet, wenn das Geberrecht einmal um den Tisch gegangen ist UND ein
    Spieler sein Ziel als Geber erfüllt (oder übertroffen) hat"; docs/rules.md reference options (game end): "traditional (after one
    full rotation, the first dealer who makes (or, strict, beats) his target wins)". Dealers are seats 0, 1, 2
    (the deal passes to the left, docs/rules.md reference decision 7); targets 8/5/3 by role.

    Deal 1: dealer 0 takes 7 of 8 (down). Deal 2: dealer 1 takes exactly 8 (made). Deal 3: dealer 2 takes 9 (beat).
    The game cannot end after deal 2 (the deal has not gone round); after deal 3: with ``on`` seat 1 wins (the first
    dealer who made his target, in deal 2), with ``strict`` seat 2 (the first dealer who beat it, in deal 3)."""
    counts = [(7, 6, 3), (8, 5, 3), (9, 4, 3)]
    m = scripted_match(TRAD_ON, counts[:2])
    assert not m.over and len(m.deals) == 3  # deal 2's dealer made his target, but the deal has not gone round
    m = scripted_match(TRAD_ON, counts)
    assert m.end is not None and m.end.winners == (1,) and m.end.kind == "traditional"
    assert dict(m.end.facts) == {"verb": "made", "deal": 2}
    m = scripted_match(TRAD_STRICT, counts)
    assert m.end is not None and m.end.winners == (2,)
    assert dict(m.end.facts) == {"verb": "beat", "deal": 3}


def test_traditional_end_plays_on_until_a_dealer_makes_his_target() -> None:
    """002 "Gewinnen": "Hat kein Geber sein Ziel nach der ersten Rotation erreicht, wird weitergespielt, bis einer es
    schafft." Deals 1-3: every dealer takes 7 of 8 (down); deal 4 (dealer seat 0 again) takes 8: with ``on`` he
    wins after deal 4; with ``strict`` 8 is not enough and the game goes on to deal 5, where dealer seat 1 takes
    10 and wins."""
    down = (7, 6, 3)
    m = scripted_match(TRAD_ON, [down, down, down, (8, 5, 3)])
    assert m.end is not None and m.end.winners == (0,) and dict(m.end.facts)["deal"] == 4
    m = scripted_match(TRAD_STRICT, [down, down, down, (8, 5, 3)])
    assert not m.over and len(m.deals) == 5
    m = scripted_match(TRAD_STRICT, [down, down, down, (8, 5, 3), (10, 3, 3)])
    assert m.end is not None and m.end.winners == (1,) and dict(m.end.facts)["deal"] == 5


# ---------------------------------------------------------------------------------------------- checked apply
def test_every_illegal_action_is_refused_with_its_rule_and_changes_nothing() -> None:
    """Checked apply (DESIGN.md convention 6): IllegalActionError naming the rule; the state is unchanged."""
    hands, kitty = build_hands({0: "2C 3C", 1: "AC KC 5H", 2: "2H"}, voids={1: "C"})
    deal = Deal(R952, 0, hands, kitty, prev_diffs=(2, -2, 0))
    # exchange phase: seat 0 gives
    refused(deal, NameContract(0, Contract.SPADES), "phase")
    refused(deal, Play(1, parse_card("AC")), "phase")
    refused(deal, Give(1, parse_card("AC"), 0), "turn")
    refused(deal, Give(0, parse_card("AC"), 1), "card not held")
    refused(deal, Give(0, parse_card("2C"), 2), "exchange")  # C made his target exactly
    refused(deal, Return(0, parse_card("2C"), 1), "exchange")
    refused(deal, EndGive(0, 1), "exchange count")
    deal.apply(Give(0, parse_card("2C"), 1))
    deal.apply(Give(0, parse_card("3C"), 1))
    refused(deal, Return(1, parse_card("KC"), 0), "return highest")
    refused(deal, Return(1, parse_card("5H"), 0), "return highest")
    refused(deal, Return(1, parse_card("2H"), 0), "card not held")
    refused(deal, Give(1, parse_card("AC"), 0), "exchange")
    deal.apply(Return(1, parse_card("AC"), 0))
    deal.apply(Return(1, parse_card("KC"), 0))
    # contract
    refused(deal, NameContract(0, Contract.NO_TRUMP), "contract")
    refused(deal, NameContract(1, Contract.SPADES), "turn")
    refused(deal, TakeKitty(0), "phase")
    deal.apply(NameContract(0, Contract.CLUBS))
    refused(deal, TakeKitty(1), "turn")
    deal.apply(TakeKitty(0))
    refused(deal, Discard(0, parse_card("2H")), "card not held")
    refused(deal, Discard(1, deal.hand(1)[0]), "turn")
    for c in deal.hand(0)[:4]:
        deal.apply(Discard(0, c))
    # play: eldest (1) leads 5H
    refused(deal, Play(0, deal.hand(0)[0]), "turn")
    refused(deal, Play(1, parse_card("2H")), "card not held")
    refused(deal, Discard(0, deal.hand(0)[0]), "phase")
    deal.apply(Play(1, parse_card("5H")))
    off = next(c for c in deal.hand(2) if c.suit is not Suit.HEARTS)
    refused(deal, Play(2, off), "follow suit")
    refused(deal, Play(2, parse_card("5H")), "card not held")  # already played
    deal.apply(Play(2, parse_card("2H")))
    assert len(deal.history) == 12


def test_a_scored_deal_and_an_ended_match_refuse_everything() -> None:
    """After the last trick nothing more can be applied; the match refuses actions once over."""
    deal, plan = scripted_deal(R952, 0, winners_for((9, 5, 2)))
    play_plan(deal.apply, lambda: deal.to_play, plan, range(16))
    refused(deal, Play(1, CARDS[0]), "phase")
    assert deal.legal_actions() == []
    m = end_match(R952, (12, 2, 2), [0, 0, 0])
    with pytest.raises(IllegalActionError) as info:
        m.apply(Play(1, CARDS[0]))
    assert info.value.rule == "match over"


def test_match_apply_is_checked_and_unchanged_on_refusal() -> None:
    """Match.apply refuses like Deal.apply and changes neither the deal nor the match."""
    m = Match(R952, seed=5, dealer=0)
    before = (snapshot(m.deal), list(m.totals), len(m.deals))
    for action, rule in [(Play(1, m.deal.hand(1)[0]), "phase"), (NameContract(1, Contract.SPADES), "turn"),
                         (NameContract(0, Contract.NO_TRUMP), "contract")]:
        with pytest.raises(IllegalActionError) as info:
            m.apply(action)
        assert info.value.rule == rule
        assert (snapshot(m.deal), list(m.totals), len(m.deals)) == before


def test_free_trump_return_never_takes_a_card_still_owed() -> None:
    """Seed 003 (3-5-8): the down player returns the highest card of the suit received, "does not apply to trump
    cards" (docs/rules.md reference presets, notes on 3-5-8). Regression: a trump received first and answered freely could give away the
    only heart, leaving nothing for the heart received after it (the engine crashed). Cards of other suits are
    now answered before the trumps."""
    rules = Rules.preset("3-5-8")
    hands, kitty = build_hands({1: "AS 2H", 0: "KS QS"}, voids={0: "H"}, rules=rules)
    deal = Deal(rules, 0, hands, kitty, prev_diffs=(-2, 2, 0))
    assert deal.phase is Phase.CONTRACT and deal.to_act == 1  # 3-5-8: the playmaker E names first
    deal.apply(NameContract(1, Contract.SPADES))
    deal.apply(Give(1, parse_card("AS"), 0))
    deal.apply(Give(1, parse_card("2H"), 0))
    assert deal.legal_actions() == [Return(0, parse_card("2H"), 1)]  # the heart first: the highest heart
    deal.apply(Return(0, parse_card("2H"), 1))
    free = deal.legal_actions()
    assert {a.card for a in free if isinstance(a, Return)} == set(deal.hand(0))  # then any card for the trump
    deal.apply(Return(0, parse_card("KS"), 1))
    assert deal.phase is not Phase.EXCHANGE


def test_free_trump_return_keeps_what_another_up_player_is_owed() -> None:
    """docs/rules.md reference decision 1: for k cards received in suit S the down player returns his k highest S cards; a trump
    received is answered freely (seed 003, trump-return=free). With trump named mid-exchange (9-2-5) both up
    players give before any return, so a free answer to the first must not take the cards owed to the second:
    here seat 2 received 5S 3S (trumps) from seat 0 and 4D 2D from seat 1, and holds no other diamond. Before,
    answering a spade with 4D left nothing for seat 1's diamonds and the engine crashed."""
    from sergeant_major.players import decision_rng

    m = Match(Rules.parse("9-2-5 trump-return=free"), 384623814)
    while not (len(m.deals) == 3 and len(m.deal.history) == 11):
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        s = m.to_act
        assert s is not None
        rng = decision_rng(m.seed, s, m.deal.number, len(m.deal.history))
        legal = m.view(s).legal
        m.apply(legal[rng.randrange(len(legal))])
    deal = m.deal
    assert deal.trump == Suit.SPADES and deal.to_act == 2
    assert {c for c in deal.hand(2) if c.suit is Suit.DIAMONDS} == set(parse_cards("4D 2D"))
    returns = {a.card for a in deal.legal_actions() if isinstance(a, Return) and a.to == 0}
    assert returns == set(deal.hand(2)) - set(parse_cards("4D 2D"))
    refused(deal, Return(2, parse_card("4D"), 0), "return highest")
    with pytest.raises(IllegalActionError, match="still owed"):
        deal.apply(Return(2, parse_card("2D"), 0))
    drive(m, [RandomPlayer()] * 3)  # the match plays on to its end
    assert m.over


def test_malformed_actions_are_refused_cleanly() -> None:
    """Bad input of any kind gets a clear IllegalActionError (rule ``action``) and changes nothing."""
    hands, kitty = build_hands({})
    deal = Deal(R952, 0, hands, kitty)
    refused(deal, NameContract(0, 3), "action")  # type: ignore[arg-type]
    refused(deal, NameContract(0, "S"), "action")  # type: ignore[arg-type]
    refused(deal, "NameContract S", "action")  # type: ignore[arg-type]
    deal.apply(NameContract(0, Contract.SPADES))
    deal.apply(TakeKitty(0))
    refused(deal, Discard(0, "QS"), "action")  # type: ignore[arg-type]
    refused(deal, Discard(0, 51), "action")  # type: ignore[arg-type]
