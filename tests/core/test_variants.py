"""The presets other than plain 9-5-2, rule by rule: 3-5-8 (seed 003), 9-2-5 (seeds 000/004 Variants,
"reversed targets"), and 8-5-3 complete with seed 002's alternatives (kitty procedures, no kitty).

Every expected value comes from a rules text: the seeds named in docs/rules.md (000 German 9-5-2, 004
English 9-5-2 with Variants, 002 German 8-5-3 with house variants, 003 German online 3-5-8) and
the reference in docs/rules.md (presets, options, decisions), which wins where they differ. Each test cites
its source. Seats: with dealer 0, seat 1 is the eldest hand (E) and seat 2 the third hand (M).
"""

from __future__ import annotations

import random

import pytest

from sergeant_major.core.actions import (
    Action,
    Contract,
    Discard,
    Give,
    NameContract,
    Play,
    Return,
    TakeKitty,
)
from sergeant_major.core.cards import CARDS, Card, Suit, parse_cards
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.players import HeuristicPlayer, RandomPlayer, drive

R358 = Rules.preset("3-5-8")
R925 = Rules.preset("9-2-5")
R853 = Rules.preset("8-5-3")
ALL_SIX = set(Contract)


# ---------------------------------------------------------------------------------------------- helpers
def make_deal(rules: Rules, spec: dict[int, str] | None = None, voids: dict[int, str] | None = None,
              prev: tuple[int, ...] | None = None, dealer: int = 0) -> Deal:
    """A deal (dealer 0 unless told) whose seats hold the cards of ``spec``, the rest filled in id order
    avoiding the suits in ``voids``; the kitty takes what is left."""
    spec = spec or {}
    hands: list[list[Card]] = [parse_cards(spec.get(s, "")) for s in range(rules.players)]
    used = {c.id for h in hands for c in h}
    rest = [c for c in CARDS if c.id not in used and not (rules.kitty == "none" and c.id == 0)]
    for s in sorted(range(rules.players), key=lambda s: -len((voids or {}).get(s, ""))):
        bad = {Suit.parse(x) for x in (voids or {}).get(s, "")}
        while len(hands[s]) < rules.hand_size:
            c = next(c for c in rest if c.suit not in bad)
            rest.remove(c)
            hands[s].append(c)
    return Deal(rules, dealer, hands, rest[: rules.kitty_size], prev)


def steps_until_play(deal: Deal, contract: Contract, keep: str = "") -> list[tuple[Phase, int]]:
    """Take every step before the play (naming ``contract``, discarding cards not in ``keep``, giving the
    lowest card, returning what the rules allow first) and return the (phase, seat) of each step."""
    keep_ids = {c.id for c in parse_cards(keep)}
    seen: list[tuple[Phase, int]] = []
    while deal.phase is not Phase.PLAY:
        seat = deal.to_act
        assert seat is not None
        seen.append((deal.phase, seat))
        legal = deal.legal_actions()
        act: Action
        if deal.phase is Phase.CONTRACT:
            act = NameContract(seat, contract)
        elif deal.phase is Phase.DISCARD:
            act = next(a for a in legal if isinstance(a, Discard) and a.card.id not in keep_ids)
        else:
            act = legal[0]
        deal.apply(act)
    return seen


def play_out(deal: Deal, rng: random.Random) -> None:
    """Finish ``deal`` with random legal actions."""
    while deal.result is None:
        acts = deal.legal_actions()
        deal.apply(acts[rng.randrange(len(acts))])


def compress(seen: list[tuple[Phase, int]]) -> list[tuple[Phase, int]]:
    """Consecutive equal steps merged (four discards are one step)."""
    out: list[tuple[Phase, int]] = []
    for x in seen:
        if not out or out[-1] != x:
            out.append(x)
    return out


# ---------------------------------------------------------------------------------------------- 3-5-8 (seed 003)
def test_358_targets_dealer_3_playmaker_8_third_5() -> None:
    """003 "Spieler": Austeiler 3, Spielemacher 8, dritter Spieler 5; the playmaker sits left of the dealer."""
    assert R358.targets == (3, 8, 5)
    deal = make_deal(R358, dealer=2)
    assert deal.targets == (8, 5, 3)  # seat 0 is E (left of dealer 2), seat 1 is M
    assert deal.declarer == 0


def test_358_playmaker_chooses_one_of_six_contracts_first() -> None:
    """003 "Es gibt sechs Spielmethoden": four trump suits, KT (no-trump), MS/MT (minimum tricks); the
    playmaker (E) decides before anything else."""
    deal = make_deal(R358)
    assert deal.phase is Phase.CONTRACT and deal.to_act == 1
    assert {a.contract for a in deal.legal_actions() if isinstance(a, NameContract)} == ALL_SIX


def test_358_view_shows_only_the_first_six_cards_while_choosing() -> None:
    """003 "Am Anfang": "Wenn die ersten sechs Karten ausgeteilt sind, entscheidet der Spielemacher" - the
    playmaker's view holds only his first 6 cards dealt until the contract is named, then all 16."""
    m = Match(R358, seed=7)
    decl = m.deal.declarer
    v = m.view(decl)
    assert v.phase is Phase.CONTRACT
    assert set(v.hand) == set(m.deal.dealt[decl][:6]) and len(v.hand) == 6
    assert v.hand_sizes == (6, 6, 6)
    assert all(len(m.view(s).hand) == 6 for s in range(3))
    m.apply(NameContract(decl, Contract.NO_TRUMP))
    assert len(m.view(decl).hand) == 16


def test_358_each_player_is_playmaker_six_times_and_chooses_each_contract_once() -> None:
    """docs/rules.md reference presets, notes on 3-5-8: 18 deals, each player playmaker 6 times (003's "9 Mal" is an error), each
    of the six contracts chosen exactly once; 003 "Das Ende": after 18 deals the highest total wins."""
    for seed in range(3):
        m = Match(R358, seed=seed)
        drive(m, [RandomPlayer(), HeuristicPlayer(), RandomPlayer()])
        assert len(m.deals) == 18
        by_seat: dict[int, list[Contract]] = {0: [], 1: [], 2: []}
        for d, res in zip(m.deals, m.results, strict=True):
            assert d.declarer == (d.dealer + 1) % 3
            by_seat[d.declarer].append(res.contract)
        assert all(sorted(v) == sorted(ALL_SIX) for v in by_seat.values())
        assert m.end is not None
        best = max(m.totals)
        assert m.end.winners == tuple(s for s in range(3) if m.totals[s] == best)


def test_358_engine_refuses_a_contract_already_chosen() -> None:
    """docs/rules.md reference presets, notes on 3-5-8: "each player chooses each of the six contracts exactly once"; the engine
    refuses a contract he has used (Match.contracts_left)."""
    m = Match(R358, seed=3)
    first = m.deal.declarer
    m.apply(NameContract(first, Contract.HEARTS))
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    assert m.deal.number == 4 and m.deal.declarer == first
    assert m.deal.phase is Phase.CONTRACT  # the contract comes first in 3-5-8
    assert Contract.HEARTS not in m.contracts_left(first) and len(m.contracts_left(first)) == 5
    with pytest.raises(IllegalActionError) as e:
        m.apply(NameContract(first, Contract.HEARTS))
    assert e.value.rule == "contract" and "hearts" in str(e.value)
    assert m.deal.phase is Phase.CONTRACT  # unchanged


@pytest.mark.parametrize("contract", [Contract.NO_TRUMP, Contract.MINIMUM])
def test_358_no_exchange_in_nt_and_mt(contract: Contract) -> None:
    """003 "Karten austauschen": "nur in Trumpfrunden erlaubt (in KT und MT werden keine Karten ausgetauscht)"."""
    deal = make_deal(R358, prev=(-2, 2, 0))
    seen = compress(steps_until_play(deal, contract))
    assert seen == [(Phase.CONTRACT, 1), (Phase.KITTY, 1), (Phase.DISCARD, 1)]
    assert deal.exchange_log == []


def test_358_trump_deal_order_contract_exchange_kitty_discard_then_e_leads() -> None:
    """003 "Am Anfang": contract after 6 cards -> exchange -> the playmaker turns up the 4 set-aside cards,
    lays away 4 and begins the play (docs/rules.md: after the exchange E takes the kitty and discards 4; E leads)."""
    deal = make_deal(R358, prev=(-2, 2, 0))
    seen = compress(steps_until_play(deal, Contract.CLUBS))
    assert seen == [(Phase.CONTRACT, 1), (Phase.EXCHANGE, 1), (Phase.EXCHANGE, 0), (Phase.KITTY, 1), (Phase.DISCARD, 1)]
    assert deal.to_act == 1 and deal.leader == 1
    assert [len(deal.hand(s)) for s in range(3)] == [16, 16, 16]


def test_358_void_must_trump() -> None:
    """003 "Austeilen": "Wenn ein Spieler jedoch keine Karte der richtigen Farbe hat, muss er Trumpf
    spielen, wenn er Trümpfe hat" (must-trump=on in the preset)."""
    deal = make_deal(R358, {1: "2H", 2: "AS KS 3C"}, voids={2: "H"})
    steps_until_play(deal, Contract.SPADES, keep="2H")
    deal.apply(Play(1, parse_cards("2H")[0]))
    assert deal.to_act == 2
    legal = {a.card for a in deal.legal_actions() if isinstance(a, Play)}
    assert legal == {c for c in deal.hand(2) if c.suit is Suit.SPADES} and legal
    with pytest.raises(IllegalActionError) as e:
        deal.apply(Play(2, parse_cards("3C")[0]))
    assert e.value.rule == "must trump"
    r = R358.with_options(must_trump="off")  # off: any card when void (seeds 000/004 "Playing the tricks")
    deal = make_deal(r, {1: "2H", 2: "AS KS 3C"}, voids={2: "H"})
    steps_until_play(deal, Contract.SPADES, keep="2H")
    deal.apply(Play(1, parse_cards("2H")[0]))
    assert {a.card for a in deal.legal_actions() if isinstance(a, Play)} == set(deal.hand(2))


def test_358_trump_received_may_be_answered_with_any_card() -> None:
    """003 "Karten austauschen": the down player returns the highest card of the suit received, "Dies gilt
    aber nicht für Trumpfkarten" (docs/rules.md: a trump received may be answered with any card)."""
    deal = make_deal(R358, {1: "3S 2H", 0: "AH KH 4C"}, prev=(-2, 2, 0))
    deal.apply(NameContract(1, Contract.SPADES))
    deal.apply(Give(1, parse_cards("3S")[0], 0))
    deal.apply(Give(1, parse_cards("2H")[0], 0))
    # the heart is answered first (deal.py: side suits before trumps, so a free return cannot take away
    # the card a side suit still owes), by the highest heart; then the trump, by any card
    returns = [a for a in deal.legal_actions() if isinstance(a, Return)]
    assert [str(a.card) for a in returns] == ["AH"]
    deal.apply(returns[0])
    returns = [a for a in deal.legal_actions() if isinstance(a, Return)]
    assert {a.card for a in returns} == set(deal.hand(0))  # any card for the trump received
    deal.apply(Return(0, parse_cards("4C")[0], 1))
    assert deal.phase is Phase.KITTY


def test_358_minimum_tricks_targets_become_ceilings_and_scoring_inverts() -> None:
    """003: in MT "Der Spielemacher darf höchstens 3 Stiche machen, der dritte Spieler höchstens 5 und der
    Austeiler höchstens 8"; "Bei MT ist alles genau umgekehrt"; "Die Summe der Punkte ... ist immer 0"."""
    rng = random.Random(5)
    for _ in range(5):
        deal = make_deal(R358)
        deal.apply(NameContract(1, Contract.MINIMUM))
        assert deal.targets == (8, 3, 5)  # dealer at most 8, playmaker at most 3, third at most 5
        play_out(deal, rng)
        res = deal.result
        assert res is not None and res.targets == (8, 3, 5)
        assert res.scores == tuple(t - w for w, t in zip(res.tricks, res.targets, strict=True))
        assert res.diffs == res.scores and sum(res.scores) == 0


def test_358_no_trump_keeps_the_targets() -> None:
    """003 "KT (Kein Trumpf)": no trump, each takes as many tricks as his role says (targets unchanged)."""
    deal = make_deal(R358)
    deal.apply(NameContract(1, Contract.NO_TRUMP))
    assert deal.targets == (3, 8, 5) and deal.trump_suit == -1
    play_out(deal, random.Random(1))
    assert deal.result is not None and deal.result.scores == tuple(
        w - t for w, t in zip(deal.result.tricks, (3, 8, 5), strict=True))


def test_358_exchange_after_mt_uses_the_inverted_scores() -> None:
    """docs/rules.md reference decision 3: in 3-5-8 the exchange uses the previous deal's scores (MT scores inverted as scored)."""
    m = Match(R358, seed=11)
    m.apply(NameContract(m.deal.declarer, Contract.MINIMUM))
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    res = m.results[0]
    assert res.diffs == tuple(t - w for w, t in zip(res.tricks, res.targets, strict=True))
    assert m.deal.prev_diffs == res.diffs


# ---------------------------------------------------------------------------------------------- 9-2-5 (000/004 Variants)
def test_925_targets() -> None:
    """004 Variants "Reversed targets": dealer 9, left (eldest) 2, right (third) 5."""
    assert R925.targets == (9, 2, 5)


def test_925_kitty_and_discard_before_gives_then_trump_then_returns() -> None:
    """004 Variants: "the dealer takes the kitty and discards before the exchange, then players who were up
    pass their cards, then the dealer names trumps, and only then do the players who were down give back
    their highest cards"."""
    deal = make_deal(R925, prev=(2, -2, 0))
    seen = compress(steps_until_play(deal, Contract.HEARTS))
    assert seen == [(Phase.KITTY, 0), (Phase.DISCARD, 0), (Phase.EXCHANGE, 0), (Phase.CONTRACT, 0), (Phase.EXCHANGE, 1)]
    kinds = [e.kind for e in deal.exchange_log]
    assert kinds == ["give", "give", "return", "return"]


def test_925_first_deal_kitty_before_trump() -> None:
    """Decision (docs/rules.md, 9-2-5): the dealer takes the kitty and discards before naming trump also in
    a deal without exchange - the order of 004's reversed-targets variant with the exchange left out."""
    deal = make_deal(R925)
    seen = compress(steps_until_play(deal, Contract.HEARTS))
    assert seen == [(Phase.KITTY, 0), (Phase.DISCARD, 0), (Phase.CONTRACT, 0)]


def test_925_returns_follow_the_trump_named_after_the_gives() -> None:
    """004 Variants: the returns come after trump is named; the return is still the highest of the suit
    received (docs/rules.md reference decision 1) - here a trump received is answered by the highest trump."""
    deal = make_deal(R925, {0: "3S", 1: "AS QS"}, prev=(1, -1, 0))
    deal.apply(TakeKitty(0))
    for _ in range(4):
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Discard) and str(a.card) != "3S"))
    deal.apply(Give(0, parse_cards("3S")[0], 1))
    assert deal.phase is Phase.CONTRACT
    deal.apply(NameContract(0, Contract.SPADES))
    assert [str(a.card) for a in deal.legal_actions() if isinstance(a, Return)] == ["AS"]


def test_925_game_ends_at_plus_or_minus_15_highest_wins() -> None:
    """004 Variants: "The game ends when someone reaches +15 or -15; the highest total wins"."""
    for seed in range(6):
        m = Match(R925, seed=seed)
        drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
        totals = [0, 0, 0]
        for i, res in enumerate(m.results):
            totals = [t + s for t, s in zip(totals, res.scores, strict=True)]
            if i < len(m.results) - 1:
                assert max(abs(t) for t in totals) < 15
        assert max(abs(t) for t in totals) >= 15 and totals == m.totals
        assert m.end is not None and m.end.winners == tuple(s for s in range(3) if totals[s] == max(totals))


@pytest.mark.parametrize("contract", [Contract.NO_TRUMP, Contract.MINIMUM])
def test_925_with_nt_mt_the_cards_given_before_the_contract_are_returned(contract: Contract) -> None:
    """004 Variants (reversed targets): the up players pass their cards, then the dealer names the contract,
    "and only then do the players who were down give back their highest cards"; docs/rules.md reference decision 1: for k
    cards received in suit S the receiver returns the k highest S cards he holds. 003's "no exchange in KT and
    MT" presumes the contract is known before any card is passed (docs/rules.md reference decision 3: the exchange is skipped
    in 3-5-8, where it is); here the gives come first, so they are answered. Hand-worked: the dealer (up 2)
    gives 2C 3D to the eldest (down 2), who holds AC 9C QD 7D in those suits and returns AC and QD; every
    hand has 16 cards again."""
    r = R925.with_options(contracts="suits-nt-mt")
    deal = make_deal(r, {0: "2C 3D", 1: "AC 9C QD 7D"}, voids={1: "CD"}, prev=(2, -2, 0))
    deal.apply(TakeKitty(0))
    for _ in range(4):
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Discard) and str(a.card) not in ("2C", "3D")))
    deal.apply(Give(0, parse_cards("2C")[0], 1))
    deal.apply(Give(0, parse_cards("3D")[0], 1))
    assert deal.phase is Phase.CONTRACT
    deal.apply(NameContract(0, contract))
    assert deal.phase is Phase.EXCHANGE and deal.to_act == 1
    returned = []
    while deal.phase is Phase.EXCHANGE:
        f = deal.forced_action()
        assert isinstance(f, Return)
        returned.append(str(f.card))
        deal.apply(f)
    assert returned == ["AC", "QD"]
    assert deal.phase is Phase.PLAY and [len(deal.hand(s)) for s in range(3)] == [16, 16, 16]
    play_out(deal, random.Random(2))
    assert deal.result is not None and sum(deal.result.tricks) == 16


def test_925_rules_text_says_every_give_comes_before_the_returns() -> None:
    """004 Variants: "players who were up pass their cards, then the dealer names trumps, and only then do the
    players who were down give back" - so with one up and two down, or two up, every give comes before any
    return. `sergeant-major rules 9-2-5` says so (not 9-5-2's "exchanges first ... completes"), and the engine
    does it: two up (dealer 0, target 9, and third 2, target 5) give in that order, then trump, then the returns
    in the same order."""
    text = " ".join(R925.explain())
    assert "Every up player gives before any card comes back" in text
    assert "Every up player gives before any card comes back" not in " ".join(Rules.preset("9-5-2").explain())
    deal = make_deal(R925, {0: "2C", 2: "3C", 1: "AC KC"}, voids={1: "C"}, prev=(1, -2, 1))
    steps = compress(steps_until_play(deal, Contract.HEARTS, keep="2C"))
    assert steps[2:] == [(Phase.EXCHANGE, 0), (Phase.EXCHANGE, 2), (Phase.CONTRACT, 0), (Phase.EXCHANGE, 1)]
    assert [(e.kind, e.giver, e.receiver) for e in deal.exchange_log] == [
        ("give", 0, 1), ("give", 2, 1), ("return", 1, 0), ("return", 1, 2)]


def test_925_with_mt_the_returns_keep_the_order_of_the_gives() -> None:
    """docs/rules.md reference decision 2: with two up, the up player with the higher target in the coming deal exchanges
    first - in 9-2-5 (004 Variants) both give, the contract is named, then the returns come in that same order.
    Naming MT turns the targets into ceilings (003; dealer 9 -> at most 2), which must not reorder returns
    already owed. Dealer 0 (target 9) and third 2 (target 5) were up 1, eldest 1 down 2; eldest holds AC KC as
    his only clubs; dealer gives 2C, third 3C: the dealer is answered first with the AC, the third with the KC."""
    r = R925.with_options(contracts="suits-nt-mt")
    deal = make_deal(r, {0: "2C", 2: "3C", 1: "AC KC"}, voids={1: "C"}, prev=(1, -2, 1))
    deal.apply(TakeKitty(0))
    for _ in range(4):
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Discard) and str(a.card) != "2C"))
    deal.apply(Give(0, parse_cards("2C")[0], 1))
    deal.apply(Give(2, parse_cards("3C")[0], 1))
    deal.apply(NameContract(0, Contract.MINIMUM))
    assert deal.targets == (2, 9, 5)
    while deal.phase is Phase.EXCHANGE:
        f = deal.forced_action()
        assert f is not None
        deal.apply(f)
    assert [(e.receiver, str(e.card)) for e in deal.exchange_log if e.kind == "return"] == [(0, "AC"), (2, "KC")]


def test_nt_mt_exchange_only_skipped_when_the_contract_comes_first() -> None:
    """docs/rules.md reference decision 3 skips the exchange in NT and MT deals of 3-5-8, where the contract is named before
    it (003 "Am Anfang"). With the contract named after the exchange (9-5-2's order, 004 "Trumps and the
    kitty") nothing is known yet when the cards pass, so the exchange takes place; `sergeant-major rules`
    says so instead of claiming there is none (docs/rules.md decision 12)."""
    assert "No exchange in NT and MT deals (seed 003)." in R358.explain()
    for text in ("9-5-2 contracts=suits-nt-mt", "9-2-5 contracts=suits-nt-mt"):
        r = Rules.parse(text)
        assert "No exchange in NT and MT deals (seed 003)." not in r.explain()
        assert any("in NT and MT deals too" in line for line in r.explain())
    deal = make_deal(Rules.parse("9-5-2 contracts=suits-nt-mt"), prev=(2, -2, 0))
    seen = compress(steps_until_play(deal, Contract.NO_TRUMP))
    assert seen == [(Phase.EXCHANGE, 0), (Phase.EXCHANGE, 1), (Phase.CONTRACT, 0), (Phase.KITTY, 0), (Phase.DISCARD, 0)]
    assert [e.kind for e in deal.exchange_log] == ["give", "give", "return", "return"]


# ---------------------------------------------------------------------------------------------- 8-5-3 (004 Variants, 002)
def test_853_dealer_discards_then_takes_the_kitty() -> None:
    """004 Variants: "The dealer names trumps, then discards 4 cards first and only then takes the kitty"
    (docs/rules.md reference presets: trump named -> D discards 4 -> D takes kitty)."""
    deal = make_deal(R853)
    seen = compress(steps_until_play(deal, Contract.CLUBS))
    assert seen == [(Phase.CONTRACT, 0), (Phase.DISCARD, 0), (Phase.KITTY, 0)]
    assert len(deal.hand(0)) == 16 and deal.discards.bit_count() == 4


def test_853_counters_and_12_tricks_end() -> None:
    """004 Variants: counters (a down player pays one per under-trick, an up player receives one per
    over-trick); "The game ends when someone takes 12 or more tricks in one deal" - and only then."""
    for seed in range(4):
        m = Match(R853, seed=seed)
        drive(m, [HeuristicPlayer(), HeuristicPlayer(), RandomPlayer()])
        for res in m.results:
            assert res.scores == tuple(w - t for w, t in zip(res.tricks, res.targets, strict=True)) and sum(res.scores) == 0
        assert all(max(r.tricks) < 12 for r in m.results[:-1])
        assert max(m.results[-1].tricks) >= 12
        assert m.end is not None and m.end.winners == (m.results[-1].tricks.index(max(m.results[-1].tricks)),)


@pytest.mark.parametrize(("kitty", "order"), [
    ("see-then-trump", [Phase.KITTY, Phase.CONTRACT, Phase.DISCARD]),  # 002 Vorbereitung 5-6
    ("blind-trump", [Phase.CONTRACT, Phase.KITTY, Phase.DISCARD]),     # 002 Blinder Skat
    ("take-then-discard", [Phase.CONTRACT, Phase.KITTY, Phase.DISCARD]),  # 000/004 Trumps and the kitty
    ("discard-then-take", [Phase.CONTRACT, Phase.DISCARD, Phase.KITTY]),  # 004 Variants
])
def test_853_kitty_procedures(kitty: str, order: list[Phase]) -> None:
    """002 "Vorbereitung": the dealer looks at the kitty, names trump, takes it and discards 4 (see-then-trump);
    002 "Blinder Skat": trump named BEFORE seeing the kitty; docs/rules.md reference options (kitty procedure)."""
    deal = make_deal(R853.with_options(kitty=kitty))
    assert [p for p, _ in compress(steps_until_play(deal, Contract.CLUBS))] == order


def test_853_see_then_trump_view_shows_the_kitty_before_trump() -> None:
    """002 "Vorbereitung" 5: the dealer sees the kitty (hidden from the others) before naming trump."""
    m = Match(R853.with_options(kitty="see-then-trump"), seed=2)
    d = m.deal.dealer
    m.apply(TakeKitty(d))
    assert m.deal.phase is Phase.CONTRACT
    assert m.view(d).kitty is not None and len(m.view(d).hand) == 20
    assert all(m.view(s).kitty is None for s in range(3) if s != d)


def test_853_no_kitty_51_cards_17_each_targets_9_5_3() -> None:
    """002 "Kein Skat (Strikt 51)": the 2C removed, 17 each, no kitty, trump named from the dealt hand;
    docs/rules.md reference decision 5: balanced targets 9-5-3 by default."""
    r = Rules.parse("8-5-3 kitty=none")
    assert (r.tricks, r.hand_size, r.kitty_size, r.targets) == (17, 17, 0, (9, 5, 3))
    m = Match(r, seed=4)
    assert all(len(h) == 17 for h in m.deal.dealt) and CARDS[0] not in {c for h in m.deal.dealt for c in h}
    assert m.deal.phase is Phase.CONTRACT
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    assert sum(m.results[0].tricks) == 17 and sum(m.results[0].scores) == 0


def test_853_no_kitty_with_the_seed_targets_needs_unbalanced() -> None:
    """docs/rules.md reference decision 5: 002's 8-5-3 with 17 tricks only with unbalanced-targets=on; the scores of a deal
    then add up to 17 - 16 = +1 (running/counters)."""
    r = Rules.parse("8-5-3 kitty=none unbalanced-targets=on")
    assert r.targets == (8, 5, 3) and r.score_sum() == 1
    assert Rules.parse(str(r)) == r
    m = Match(r, seed=1)
    drive(m, [RandomPlayer()] * 3, until_deal_end=True)
    assert sum(m.results[0].scores) == 1
