"""The observation and information-state encodings (``sergeant_major.research.observation``, smobs-v1).

- the layout is pinned: its digest is stored next to the version name, the docs table is generated from it;
- no leak: for every phase and every seat, two states that differ only in cards the seat cannot see give
  identical tensors and strings; a public difference changes them; the seats' observations differ;
- seat symmetry: the same deal rotated round the table gives the rotated seat the same observation.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from sergeant_major.core.actions import Action, AssignTargets, Discard, EndGive, Give, Play, Return
from sergeant_major.core.cards import CARDS, Card
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import IllegalActionError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.research.observation import (
    INFO_BLOCKS,
    LAYOUT_HASHES,
    OBS_BLOCKS,
    OBSERVATION_VERSION,
    encode_information_state,
    encode_observation,
    information_state_layout,
    information_state_size,
    information_state_string,
    layout_hash,
    layout_table,
    observation_layout,
    observation_size,
    observation_string,
)

ROOT = Path(__file__).resolve().parents[2]
PRESETS = Rules.preset_names()
VARIANTS = [Rules.preset(p) for p in PRESETS] + [
    Rules.parse("9-5-2 players=4"),
    Rules.parse("8-5-3 kitty=see-then-trump exchange-count=at-most dealer-assigns-targets=on"),
    Rules.parse("9-5-2 give=lowest return=overall"),
]


# ------------------------------------------------------------------------------------------ layout
def test_layout_is_pinned_to_the_version() -> None:
    # Changing any block (name, size, meaning) changes the digest: add a new version name with its digest.
    assert layout_hash() == LAYOUT_HASHES[OBSERVATION_VERSION]
    assert len(set(LAYOUT_HASHES.values())) == len(LAYOUT_HASHES)
    assert OBSERVATION_VERSION == "smobs-v1"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_layout_is_contiguous(rules: Rules) -> None:
    for layout, size, blocks in ((observation_layout(rules), observation_size(rules), OBS_BLOCKS),
                                 (information_state_layout(rules), information_state_size(rules), INFO_BLOCKS)):
        assert [row[0] for row in layout] == [b.name for b in blocks]
        off = 0
        for _, o, k, _ in layout:
            assert o == off and k > 0
            off += k
        assert off == size
    assert information_state_layout(rules)[0][2] == observation_size(rules)


def test_sizes() -> None:
    assert {observation_size(Rules.preset(p)) for p in PRESETS} == {660}
    assert observation_size(Rules.parse("9-5-2 players=4")) == 792


def test_docs_table_is_the_layout() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert layout_table() in text
    assert layout_table(info=True) in text
    assert f"`{OBSERVATION_VERSION}`" in text


# ------------------------------------------------------------------------------------------ helpers
def states(rules: Rules, seed: int, deals: int = 2) -> list[Deal]:
    """Snapshots (clones) of the deal at every step of the first ``deals`` deals of a random match, and scored."""
    rng = random.Random(seed)
    m = Match(rules, seed)
    out: list[Deal] = []
    while not m.over and m.deal.number <= deals:
        f = m.forced_action()
        if f is not None:  # forced steps too (taking the kitty...): every phase is a state a seat may observe
            out.append(m.deal.clone())
            m.apply(f)
            continue
        d = m.deal
        out.append(d.clone())
        m.apply(rng.choice(m.legal_actions()))
        if d.result is not None:
            out.append(d.clone())
    return out


def view_of(deal: Deal, seat: int) -> View:
    n = deal.n
    return build_view(deal, seat, tuple(f"p{i}" for i in range(n)), (3, -1, -2, 0)[:n], (), ())


def encodings(deal: Deal, seat: int) -> tuple[list[float], list[float], str, str]:
    v = view_of(deal, seat)
    return encode_observation(v), encode_information_state(v), observation_string(v), information_state_string(v)


def hidden_from(deal: Deal, seat: int) -> list[int]:
    """Card ids whose place ``seat`` cannot know now (never played, not its own, not its exchange cards)."""
    r = deal.rules
    named = {a.card.id for a in deal.history if isinstance(a, Play)}
    named |= {a.card.id for a in deal.history if isinstance(a, (Give, Return)) and seat in (a.seat, a.to)}
    if r.contract_after and deal.contract is None:
        seen = {c.id for c in deal.dealt[seat][: r.contract_after]}
    else:
        seen = {c.id for c in deal.dealt[seat]} | {c.id for c in deal.hand(seat)}
        if seat == deal.declarer and deal.kitty_seen:
            seen |= {c.id for c in deal.kitty_dealt}
    return sorted(c.id for c in CARDS if c.id not in seen and c.id not in named and (r.kitty != "none" or c.id != 0))


def swapped(deal: Deal, x: int, y: int) -> Deal | None:
    """The same deal with cards ``x`` and ``y`` exchanged in the dealing and in the actions that name them
    (discards, gives and returns), the history replayed (checked); ``None`` when it is not legal any more."""
    swap = {x: CARDS[y], y: CARDS[x]}
    piles = [list(h) for h in deal.dealt] + [list(deal.kitty_dealt)]
    where = {c.id: (i, j) for i, p in enumerate(piles) for j, c in enumerate(p)}
    (a, i), (b, j) = where[x], where[y]
    piles[a][i], piles[b][j] = CARDS[y], CARDS[x]
    other = Deal(deal.rules, deal.dealer, piles[:-1], piles[-1], deal.prev_diffs, deal.allowed_contracts, deal.number)
    try:
        for act in deal.history:
            if isinstance(act, (Discard, Give, Return)) and act.card.id in swap:
                act = dataclasses.replace(act, card=swap[act.card.id])
            other.apply(act)
    except IllegalActionError:
        return None
    return other


# ------------------------------------------------------------------------------------------ no leak
@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_hidden_cards_do_not_change_the_encodings(rules: Rules) -> None:
    rng = random.Random(7)
    phases: set[Phase] = set()
    checked = 0
    for seed in range(3):
        by_phase: dict[Phase, list[Deal]] = {}
        for d in states(rules, seed):
            by_phase.setdefault(d.phase, []).append(d)
        picked = [d for group in by_phase.values() for d in rng.sample(group, min(len(group), 8))]
        for deal in picked:
            for seat in range(deal.n):
                hidden = hidden_from(deal, seat)
                pairs = [(x, y) for x in hidden for y in hidden if x < y]
                rng.shuffle(pairs)
                for x, y in pairs[:12]:
                    other = swapped(deal, x, y)
                    if other is None or (other.dealt, other.kitty_dealt) == (deal.dealt, deal.kitty_dealt):
                        continue
                    assert encodings(other, seat) == encodings(deal, seat), (str(rules), seat, CARDS[x], CARDS[y])
                    phases.add(deal.phase)
                    checked += 1
                    break
    assert checked > 50
    assert phases >= {Phase.CONTRACT, Phase.PLAY, Phase.SCORED}
    if rules.kitty_size:
        assert {Phase.KITTY, Phase.DISCARD} <= phases
    if rules.dealer_assigns:
        assert Phase.ASSIGN in phases
    if rules.give == "chosen" and not rules.has_nt_mt:  # else the exchange may hold no decision in these deals
        assert Phase.EXCHANGE in phases


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_public_differences_change_the_encodings_and_seats_differ(rules: Rules) -> None:
    for deal in states(rules, 11)[::3]:
        encs = [encodings(deal, s) for s in range(deal.n)]
        for s in range(deal.n):
            for t in range(s + 1, deal.n):
                assert encs[s][0] != encs[t][0] and encs[s][2] != encs[t][2]
        legal = deal.legal_actions()
        if not legal:
            continue
        # every action changes what every seat sees (a card played, a contract, a hand size, a count passed)
        succ = []
        for act in legal[:2]:
            nxt = deal.clone()
            nxt.apply(act)
            succ.append(nxt)
            # EndGive is seen by the others only when the turn moves on (the View has no "gives to whom" for them)
            for s in range(deal.n) if not isinstance(act, EndGive) else [act.seat]:
                before, after = encs[s], encodings(nxt, s)
                assert all(b != a for b, a in zip(before, after, strict=True)), (act, s)
        if len(succ) == 2 and isinstance(legal[0], Play):
            for s in range(deal.n):  # two different cards played: a public difference for every seat
                assert encodings(succ[0], s) != encodings(succ[1], s)


def test_values_are_in_range_and_sizes_fixed() -> None:
    for rules in VARIANTS:
        size, isize = observation_size(rules), information_state_size(rules)
        for deal in states(rules, 3)[::5]:
            for s in range(deal.n):
                v = view_of(deal, s)
                o, i = encode_observation(v), encode_information_state(v)
                assert len(o) == size and len(i) == isize
                assert all(0.0 <= x <= 1.0 for x in i)
                assert i[:size] == o


def test_blocks_hold_what_the_seat_knows() -> None:
    rules = Rules.preset("9-5-2")
    deal = next(d for d in states(rules, 5) if d.phase is Phase.PLAY and len(d.completed) >= 2 and d.trick)
    seat = deal.declarer
    v = view_of(deal, seat)
    o = encode_observation(v)
    lay = {name: (off, k) for name, off, k, _ in observation_layout(rules)}

    def block(name: str) -> list[float]:
        off, k = lay[name]
        return o[off: off + k]

    assert [i for i, x in enumerate(block("hand")) if x] == sorted(c.id for c in v.hand)
    assert [i for i, x in enumerate(block("discards")) if x] == sorted(c.id for c in v.discards or ())
    assert sum(block("discards")) == 4 and sum(block("kitty")) == 4
    trick = block("trick")
    for pos, (_, c) in enumerate(v.trick):
        assert trick[52 * pos + c.id] == 1.0
    assert block("phase") == [0, 0, 0, 0, 0, 1, 0]
    assert block("tricks_won") == [v.tricks_won[(seat + i) % 3] / 16 for i in range(3)]
    # a defender sees neither the kitty nor the discards
    d = (seat + 1) % 3
    od = encode_observation(view_of(deal, d))
    off, k = lay["kitty"]
    assert sum(od[off: off + 2 * 52]) == 0
    assert "discards: ?" in observation_string(view_of(deal, d))


# ------------------------------------------------------------------------------------------ symmetry
def rotate_action(a: Action, n: int) -> Action:
    if isinstance(a, AssignTargets):
        return AssignTargets((a.seat + 1) % n, tuple(a.targets[(s - 1) % n] for s in range(n)))
    if isinstance(a, (Give, Return, EndGive)):
        return dataclasses.replace(a, seat=(a.seat + 1) % n, to=(a.to + 1) % n)
    return dataclasses.replace(a, seat=(a.seat + 1) % n)


@pytest.mark.parametrize("preset", PRESETS)
def test_rotating_the_table_gives_the_same_observation(preset: str) -> None:
    rules = Rules.preset(preset)
    n = rules.players
    for deal in states(rules, 21)[::4]:
        prev = None if deal.prev_diffs is None else tuple(deal.prev_diffs[(s - 1) % n] for s in range(n))
        hands: list[list[Card]] = [list(deal.dealt[(s - 1) % n]) for s in range(n)]
        rot = Deal(rules, (deal.dealer + 1) % n, hands, list(deal.kitty_dealt), prev, deal.allowed_contracts, deal.number)
        for a in deal.history:
            rot.apply(rotate_action(a, n))
        for s in range(n):
            v = build_view(deal, s, ("a", "b", "c"), (1, 2, 3), (), ())
            w = build_view(rot, (s + 1) % n, ("c", "a", "b"), (3, 1, 2), (), ())
            assert encode_information_state(v) == encode_information_state(w)
            assert information_state_string(v) == information_state_string(w)


def test_a_non_view_or_an_action_without_its_deal_is_refused_quoting_it() -> None:
    from sergeant_major.core.actions import AssignTargets
    from sergeant_major.core.errors import SergeantMajorError
    from sergeant_major.research.action_space import action_id
    from sergeant_major.research.observation import encode_information_state, encode_observation, observation_string

    for fn in (encode_observation, encode_information_state, observation_string):
        with pytest.raises(SergeantMajorError, match=r"takes a View .*not 'seat 0'"):
            fn("seat 0")  # type: ignore[arg-type]
    with pytest.raises(SergeantMajorError, match="needs the deal"):
        action_id(AssignTargets(0, (9, 5, 2)))
    with pytest.raises(SergeantMajorError, match="'QS' is not an action"):
        action_id("QS")  # type: ignore[arg-type]


def test_sizes_take_a_rules_string_and_refuse_what_is_no_rules() -> None:
    """``observation_size("9-5-2")`` (the environments take rules as text) raised AttributeError; it is now the size
    of the parsed rules, and a value that is no rules is refused quoting it."""
    from sergeant_major.core.errors import RulesError, SergeantMajorError

    for text in ("9-5-2", "3-5-8", "9-5-2 players=4"):
        rules = Rules.parse(text)
        assert observation_size(text) == observation_size(rules)
        assert information_state_size(text) == information_state_size(rules)
        assert layout_table(text, info=True) == layout_table(rules, info=True)
    with pytest.raises(RulesError, match="'9-5-3'"):
        observation_size("9-5-3")
    with pytest.raises(SergeantMajorError, match="information_state_size takes rules .*, not 5$"):
        information_state_size(5)  # type: ignore[arg-type]
