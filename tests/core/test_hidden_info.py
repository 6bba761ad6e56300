"""Hidden information: a seat's view depends only on what that seat may know (DESIGN.md convention 7).

Property: for random games of every preset, at every step of the first deals and for every seat, a state
that differs only in cards the seat cannot see gives the identical :class:`View`. The other state is made by
relabelling the unseen cards with a random permutation (optionally suit-preserving, which keeps every
follow-suit constraint of the history true) applied consistently to the dealt hands, the kitty, the hands
now, the discards, the exchange log and the history. Seen cards (own hand and dealt cards, cards played,
own exchange cards, and for the declarer the kitty once taken or seen and the discards) stay fixed.
Sources: 000/004 ("Kitty: four spare cards that only the dealer may use", exchange "face down"), docs/rules.md
reference decision 4 (the kitty and the discards are never seen by E or M).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sergeant_major.core.actions import Action, Discard, Give, NameContract, Play, Return
from sergeant_major.core.cards import CARDS, Card, cards_of, ids_of
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.players import HeuristicPlayer, Player, RandomPlayer, decision_rng

PRESETS = Rules.preset_names()


def seen_cards(deal: Deal, v: int) -> set[int]:
    """Card ids seat ``v`` may know the place of, now."""
    r = deal.rules
    if r.contract_after and deal.contract is None:
        return {c.id for c in deal.dealt[v][: r.contract_after]}
    seen = set(ids_of(deal.hands[v])) | {c.id for c in deal.dealt[v]}
    seen |= {c.id for t in deal.completed for _, c in t.cards} | {c for _, c in deal.trick}
    seen |= {e.card.id for e in deal.exchange_log if v in (e.giver, e.receiver) and e.card is not None}
    if v == deal.declarer:
        seen |= set(ids_of(deal.discards))
        if deal.kitty_seen:
            seen |= {c.id for c in deal.kitty_dealt}
    return seen


def relabel(deal: Deal, perm: dict[int, int]) -> Deal:
    """A copy of ``deal`` with every card id ``c`` replaced by ``perm.get(c, c)`` (the original is untouched)."""

    def card(c: Card) -> Card:
        return CARDS[perm.get(c.id, c.id)]

    def mask(m: int) -> int:
        out = 0
        for i in ids_of(m):
            out |= 1 << perm.get(i, i)
        return out

    def action(a: Action) -> Action:
        if isinstance(a, (Play, Discard, Give, Return)):
            return dataclasses.replace(a, card=card(a.card))
        return a

    other = copy.copy(deal)
    other.dealt = tuple(tuple(card(c) for c in h) for h in deal.dealt)
    other.kitty_dealt = tuple(card(c) for c in deal.kitty_dealt)
    other.hands = [mask(h) for h in deal.hands]
    other.kitty = mask(deal.kitty)
    other.discards = mask(deal.discards)
    other.exchange_log = [dataclasses.replace(e, card=None if e.card is None else card(e.card)) for e in deal.exchange_log]
    other._to_return = {k: [perm.get(i, i) for i in q] for k, q in deal._to_return.items()}
    other.history = [action(a) for a in deal.history]
    other.trick = [(s, perm.get(c, c)) for s, c in deal.trick]
    return other


def random_perm(unseen: list[int], rng: random.Random, suit_preserving: bool) -> dict[int, int]:
    perm: dict[int, int] = {}
    groups = [[c for c in unseen if c // 13 == s] for s in range(4)] if suit_preserving else [list(unseen)]
    for g in groups:
        shuffled = g[:]
        rng.shuffle(shuffled)
        perm.update(zip(g, shuffled, strict=True))
    return perm


def view_of(match: Match, deal: Deal, seat: int) -> View:
    left = tuple(match.contracts_left(s) for s in range(match.rules.players)) if match.rules.contract_once else ()
    return build_view(deal, seat, match.names, tuple(match.totals), tuple(match.results), left)


def check_views(match: Match, rng: random.Random, suit_preserving: bool) -> bool:
    """Check every seat's view against a relabelled state; return whether some hidden card moved."""
    deal = match.deal
    moved = False
    assert view_of(match, deal, 0) == match.view(0)
    for v in range(deal.n):
        seen = seen_cards(deal, v)
        located = {c.id for h in deal.dealt for c in h} | {c.id for c in deal.kitty_dealt}
        unseen = sorted(located - seen)
        perm = random_perm(unseen, rng, suit_preserving)
        other = relabel(deal, perm)
        assert view_of(match, other, v) == view_of(match, deal, v), f"seat {v} sees a hidden card ({deal!r})"
        moved |= any(perm[c] != c for c in unseen)
        # the relabelled state is still a whole deck, split as before
        assert [h.bit_count() for h in other.hands] == [h.bit_count() for h in deal.hands]
        check_view_contents(match, deal, v)
    return moved


def check_view_contents(match: Match, deal: Deal, v: int) -> None:
    view = match.view(v)
    r = deal.rules
    if r.contract_after and deal.contract is None:
        assert set(view.hand) == set(deal.dealt[v][: r.contract_after])
    else:
        assert set(view.hand) == set(deal.hand(v)), "a view's hand is the seat's hand"
    if v != deal.declarer:
        assert view.kitty is None and view.discards is None, "only the declarer sees the kitty and the discards"
    else:
        assert view.discards == tuple(cards_of(deal.discards))
        assert view.kitty == (tuple(deal.kitty_dealt) if deal.kitty_seen else None)
    for e_view, e in zip(view.exchange, deal.exchange_log, strict=True):
        assert (e_view.kind, e_view.giver, e_view.receiver) == (e.kind, e.giver, e.receiver)
        assert e_view.card == (e.card if v in (e.giver, e.receiver) else None), "exchange cards: giver and receiver only"
    assert view.legal == (tuple(deal.legal_actions()) if deal.to_act == v else ())


def play_and_check(rules: Rules, seed: int, kinds: tuple[str, ...], max_deals: int, suit_preserving: bool) -> tuple[set[Phase], bool]:
    players: list[Player] = [RandomPlayer() if kinds[s % len(kinds)] == "random" else HeuristicPlayer() for s in range(rules.players)]
    match = Match(rules, seed)
    rng = random.Random(seed)
    phases: set[Phase] = set()
    moved = False
    while not match.over and len(match.deals) <= max_deals:
        phases.add(match.deal.phase)
        moved |= check_views(match, rng, suit_preserving)
        action = match.forced_action()
        if action is None:
            seat = match.to_act
            assert seat is not None
            action = players[seat].choose(match.view(seat), decision_rng(seed, seat, match.deal.number, len(match.deal.history)))
        match.apply(action)
    return phases, moved


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@given(
    seed=st.integers(0, 2**32),
    kinds=st.tuples(*[st.sampled_from(["random", "heuristic"])] * 3),
    suit_preserving=st.booleans(),
)
def test_views_ignore_what_a_seat_cannot_see(preset: str, seed: int, kinds: tuple[str, ...], suit_preserving: bool) -> None:
    phases, moved = play_and_check(Rules.preset(preset), seed, kinds, max_deals=2, suit_preserving=suit_preserving)
    assert moved, "the relabelling never moved a hidden card: the test would be vacuous"
    assert {Phase.CONTRACT, Phase.PLAY} <= phases


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    ["9-5-2 kitty=see-then-trump", "8-5-3 kitty=blind-trump", "9-5-2 dealer-assigns-targets=on give=lowest",
     "8-5-3 players=4 deals=12", "9-5-2 kitty=none", "9-5-2 exchange-count=at-most return=overall"],
)
@settings(max_examples=10)
@given(seed=st.integers(0, 2**32))
def test_views_ignore_hidden_cards_with_options(text: str, seed: int) -> None:
    rules = Rules.parse(text)
    phases, moved = play_and_check(rules, seed, ("heuristic", "random", "heuristic"), max_deals=2, suit_preserving=True)
    assert moved


def test_every_phase_is_covered() -> None:
    """The property above meets the exchange (deal 2 on), kitty and discard phases, in every preset."""
    for preset in PRESETS:
        seen: set[Phase] = set()
        for seed in range(3):
            phases, _ = play_and_check(Rules.preset(preset), seed, ("heuristic",) * 3, max_deals=2, suit_preserving=False)
            seen |= phases
        assert {Phase.EXCHANGE, Phase.CONTRACT, Phase.KITTY, Phase.DISCARD, Phase.PLAY} <= seen, preset


def test_the_check_detects_a_leak() -> None:
    """Moving one of the seat's own cards changes its view, so equal views above are not an accident."""
    match = Match(Rules.preset("9-5-2"), seed=4)
    deal = match.deal
    mine = cards_of(deal.hands[0])[0]
    theirs = next(c for c in cards_of(deal.hands[1]) if c.suit != mine.suit)
    other = relabel(deal, {mine.id: theirs.id, theirs.id: mine.id})
    assert view_of(match, other, 0) != view_of(match, deal, 0)
    assert view_of(match, other, 2) == view_of(match, deal, 2)


_ALLOWED_LEAVES = (int, str, float, bool, type(None), Card, enum.Enum, Rules)


def walk(obj: object, path: str, seen: set[int]) -> None:
    """Fail if anything reachable from ``obj`` is a Deal or Match, a mutable container or an unknown object."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    assert not isinstance(obj, (Deal, Match)), f"{path} leads to the state: {type(obj).__name__}"
    assert not isinstance(obj, (list, dict, set, bytearray)), f"{path} is a mutable {type(obj).__name__} (shared with the state?)"
    if isinstance(obj, _ALLOWED_LEAVES):
        if isinstance(obj, Rules):
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name), f"{path}.{f.name}", seen)
        return
    if isinstance(obj, (tuple, frozenset)):
        for i, x in enumerate(obj):
            walk(x, f"{path}[{i}]", seen)
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            walk(getattr(obj, f.name), f"{path}.{f.name}", seen)
        return
    raise AssertionError(f"{path}: unexpected object {type(obj).__name__} reachable from a view")


@pytest.mark.parametrize("preset", PRESETS)
def test_nothing_reachable_from_a_view_leads_to_the_state(preset: str) -> None:
    match = Match(Rules.preset(preset), seed=11)
    players = [HeuristicPlayer(), RandomPlayer(), HeuristicPlayer()]
    kinds_seen: set[type] = set()
    while not match.over and len(match.deals) <= 2:
        for s in range(match.rules.players):
            view = match.view(s)
            walk(view, "view", set())
            kinds_seen |= {type(a) for a in view.legal}
        action = match.forced_action()
        if action is None:
            seat = match.to_act
            assert seat is not None
            action = players[seat].choose(match.view(seat), random.Random(len(match.deal.history)))
        match.apply(action)
    assert {Play, NameContract} <= kinds_seen


@pytest.mark.parametrize("seat", [-1, -3, 3, True, 1.0, "0", None])
def test_a_view_of_no_seat_is_refused_quoting_it(seat: object) -> None:
    # -1 used to index the hands from the end (the last seat's hand under "seat -1"), 3 to raise an IndexError
    m = Match(Rules.parse("9-5-2"), seed=1)
    before = m.view(2)
    with pytest.raises(SergeantMajorError, match=re.escape(f"seat {seat!r} is not a seat")):
        m.view(seat)  # type: ignore[arg-type]
    with pytest.raises(SergeantMajorError, match="0..2"):
        build_view(m.deal, seat, m.names, (0, 0, 0), ())  # type: ignore[arg-type]
    assert m.view(2) == before and [m.view(s).seat for s in range(3)] == [0, 1, 2]
