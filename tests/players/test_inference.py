"""Tests of the expert's inference (issue 37): the likelihood of the other players' choices in a sampled world,
the choice of worlds by weight, and the expert that uses them (reproducible; ``expert-uniform`` is the expert
without it)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from _matchhelp import drive, random_choice, random_view
from hypothesis import given, settings
from hypothesis import strategies as st

from sergeant_major.core.actions import Action, AssignTargets, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import Card, parse_card
from sergeant_major.core.deal import Deal
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.eval.levels import make_player
from sergeant_major.players import HeuristicPlayer, RandomPlayer, decision_rng, inference
from sergeant_major.players.expert import MIN_ESS, WEIGHT_FLOOR, ExpertPlayer
from sergeant_major.players.inference import (
    ALL_KINDS,
    DEFAULT_MODEL,
    ChoiceKind,
    ChoiceModel,
    card_group,
    card_group_counts,
    choice_factors,
    likelihood,
    pick_worlds,
    temper,
)
from sergeant_major.search.determinization import resample

H = HeuristicPlayer()


def _cards(text: str) -> list[Card]:
    return [parse_card(w) for w in text.split()]


def _reference_factors(world: Deal, view: View, model: ChoiceModel) -> list[tuple[ChoiceKind, float]]:
    """The factors the slow way: every decision of another seat replayed with a whole view and the heuristic."""
    d = Deal(world.rules, world.dealer, world.dealt, world.kitty_dealt, world.prev_diffs, world.allowed_contracts,
             world.number)
    out: list[tuple[ChoiceKind, float]] = []
    for a in world.history:
        if a.seat != view.seat and d.forced_action() is None:
            legal = d.legal_actions()
            if len(legal) > 1:
                v = build_view(d, a.seat, view.names, view.totals, view.results, view.contracts_left)
                if isinstance(a, Play):
                    kind = (ChoiceKind.LEAD if not v.trick else ChoiceKind.FOLLOW
                            if any(c.suit == v.trick[0][1].suit for c in v.hand) else ChoiceKind.VOID)
                elif isinstance(a, (NameContract, AssignTargets)):
                    kind = ChoiceKind.CONTRACT
                elif isinstance(a, Discard):
                    kind = ChoiceKind.DISCARD
                else:
                    kind = ChoiceKind.EXCHANGE
                if kind in model.kinds:
                    h = H.choose(v, random.Random(0))
                    if isinstance(a, Play) and isinstance(h, Play):
                        mask = sum(1 << x.card.id for x in legal if isinstance(x, Play))
                        out.append((kind, model.card_factor(kind, mask, h.card.id, a.card.id, d.trump)))
                    else:
                        out.append((kind, model.factor(h == a, len(legal), kind)))
        d.apply(a)
    return out


def _played_match(rules: Rules, seed: int, mixed: bool) -> list[tuple[Deal, View]]:
    """(true deal, view) for every decision of deal 2 of a match: heuristic players, or a mix of heuristic and
    random choices (``mixed``)."""
    rng = random.Random(seed)
    out: list[tuple[Deal, View]] = []

    def keep(m: Match, v: View) -> None:
        if m.deal.number == 2:
            out.append((m.deal.clone(), m.view((v.seat + 1) % rules.players)))

    drive(Match(rules, seed), lambda m: m.over or len(m.deals) > 2,
          lambda m, v: (RandomPlayer() if mixed and rng.random() < 0.3 else H).choose(v, rng), keep)
    return out


def _hearts_worlds() -> tuple[list[Deal], View]:
    """9-5-2, seat 1's view after the dealer named hearts, and two worlds that agree with it: the dealer holding
    nine hearts, or the other player holding them."""
    rules = Rules.parse("9-5-2")
    me = _cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D")
    rest = [c for c in (Card(i) for i in range(52)) if c not in me]
    hearts = [c for c in rest if c.suit == 2]
    others = [c for c in rest if c.suit != 2]  # ten diamonds (5D..AD) and 13 spades
    strong = hearts[4:] + others[:7]  # nine hearts (6H..AH) and seven diamonds (5D..JD)
    weak = hearts[:4] + others[7:]  # four low hearts, QD KD AD and 13 spades
    worlds = []
    for dealer_hand, other_hand in ((strong, weak[:16]), (weak[:16], strong)):
        d = Deal(rules, 0, [dealer_hand, me, other_hand], weak[16:])
        d.apply(NameContract(0, Contract.HEARTS))
        worlds.append(d)
    view = build_view(worlds[0], 1, ("a", "b", "c"), (0, 0, 0), ())
    assert build_view(worlds[1], 1, ("a", "b", "c"), (0, 0, 0), ()) == view  # both agree with the view
    return worlds, view


# ------------------------------------------------------------------------------------------- the likelihood
@pytest.mark.parametrize("text", ["9-5-2", "3-5-8", "8-5-3 give=lowest", "9-5-2 players=4 must-overtrump=on"])
@pytest.mark.parametrize("model", [ChoiceModel(0.25), DEFAULT_MODEL], ids=["flat", "fitted"])
def test_the_fast_replay_scores_what_a_whole_view_and_the_heuristic_score(text: str, model: ChoiceModel) -> None:
    """choice_factors builds no view for a card, a discard, a give, a return or the contract: it gives exactly the
    factors of replaying every decision of the other seats with its whole view and asking the heuristic."""
    rules = Rules.parse(text)
    checked = 0
    for seed in (1, 2):
        for world, view in _played_match(rules, seed, mixed=True)[::4]:
            assert choice_factors(world, view, model) == _reference_factors(world, view, model)
            checked += 1
    assert checked >= 10


def test_the_contract_named_rules_a_world_in_or_out() -> None:
    """9-5-2: the dealer names hearts. In a world where he holds nine hearts the heuristic names them too
    (probability 1 - eps); where the hearts sit with the other player it would not (eps / 3)."""
    worlds, view = _hearts_worlds()
    model = ChoiceModel(0.3)
    assert choice_factors(worlds[0], view, model) == [(ChoiceKind.CONTRACT, 0.7)]
    assert choice_factors(worlds[1], view, model) == [(ChoiceKind.CONTRACT, pytest.approx(0.1))]
    assert likelihood(worlds[0], view, model) > 5 * likelihood(worlds[1], view, model)
    # the declarer's own view scores nothing: its choices are its own
    assert choice_factors(worlds[1], build_view(worlds[1], 0, ("a", "b", "c"), (0, 0, 0), ()), model) == []
    # a model that leaves the contract out scores nothing either
    assert choice_factors(worlds[1], view, ChoiceModel(0.3, ALL_KINDS - {ChoiceKind.CONTRACT})) == []


def test_the_fitted_model_learns_within_a_deal_who_plays_like_the_heuristic() -> None:
    """The default model mixes, per seat, a heuristic player (its choice 1 - heuristic_eps) and the fitted model of
    strong players, half and half: the dealer's hearts in the world where the heuristic names them too weigh
    0.5 * 0.98 + 0.5 * (1 - eps_contract); in the other 0.5 * 0.02 / 3 + 0.5 * eps_contract / 3."""
    worlds, view = _hearts_worlds()
    m = DEFAULT_MODEL
    eps = dict(m.kind_eps)[ChoiceKind.CONTRACT]
    assert choice_factors(worlds[0], view, m) == [(ChoiceKind.CONTRACT, pytest.approx(1 - eps))]
    assert likelihood(worlds[0], view, m) == pytest.approx(0.5 * 0.98 + 0.5 * (1 - eps))
    assert likelihood(worlds[1], view, m) == pytest.approx(0.5 * 0.02 / 3 + 0.5 * eps / 3)
    assert likelihood(worlds[0], view, replace(m, heuristic_share=0.0)) == pytest.approx(1 - eps)


@settings(max_examples=200, deadline=None)
@given(legal=st.integers(1, 2**52 - 1).filter(lambda x: x & (x - 1) != 0), pick=st.integers(0, 51),
       trump=st.integers(-1, 3), kind=st.sampled_from([ChoiceKind.LEAD, ChoiceKind.FOLLOW, ChoiceKind.VOID]))
def test_the_card_softmax_is_a_distribution_over_the_legal_cards(legal: int, pick: int, trump: int,
                                                                 kind: ChoiceKind) -> None:
    """Whatever the legal cards and the heuristic's card among them, the fitted card probabilities are in (0, 1)
    and sum to 1 over the legal cards; each card other than the heuristic's is counted in its own group."""
    ids = [c for c in range(52) if legal >> c & 1]
    h = ids[pick % len(ids)]
    ps = [DEFAULT_MODEL.card_factor(kind, legal, h, c, trump) for c in ids]
    assert all(0.0 < p < 1.0 for p in ps) and math.fsum(ps) == pytest.approx(1.0)
    counts = card_group_counts(legal, h, trump)
    assert sum(counts) == len(ids) - 1
    assert all(counts[card_group(c, legal, h, trump)] > 0 for c in ids if c != h)


def test_a_card_factor_does_not_depend_on_what_the_model_was_asked_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """card_factor remembers its answers (per kind, up to CARD_MEMO, then it starts again): a model asked many
    questions, each twice, with a memo small enough to fill and clear, answers each as a new model does, to the
    bit; arguments that differ only in the trump, the card or the heuristic's card get their own answers."""
    monkeypatch.setattr(inference, "CARD_MEMO", 7)
    rng = random.Random(5)
    shared = replace(DEFAULT_MODEL)
    asked = []
    for _ in range(300):
        legal = rng.getrandbits(52) & rng.getrandbits(52) | 1 << rng.randrange(52)
        ids = [c for c in range(52) if legal >> c & 1]
        if len(ids) < 2:
            continue
        kind = rng.choice([ChoiceKind.LEAD, ChoiceKind.FOLLOW, ChoiceKind.VOID])
        asked.append((kind, legal, rng.choice(ids), rng.choice(ids), rng.randrange(-1, 4)))
    asked += [(ChoiceKind.VOID, 0b111 << 13 | 1, 0, 13, t) for t in (-1, 0, 1)]  # trump: its own group
    for args in asked + asked[::-1]:
        assert shared.card_factor(*args) == replace(DEFAULT_MODEL).card_factor(*args)
    assert len({shared.card_factor(*a) for a in asked[-3:]}) == 2  # a trump of clubs (the heuristic's suit) or not


def test_a_lead_or_a_follow_is_likeliest_where_the_heuristic_plays_it() -> None:
    """The fitted scores of leads and cards that follow suit are all below the heuristic's 0: its card is the
    likeliest of the legal ones (strong players agree with it most of the time; when void they ruff more often
    than it does, so a low trump can be likelier than its discard)."""
    scores = dict(DEFAULT_MODEL.card_scores)
    assert max(scores[ChoiceKind.LEAD]) < 0 and max(scores[ChoiceKind.FOLLOW]) < 0
    legal = 0b1011011 | 0b111 << 13 | 1 << 40  # clubs 2 3 5 6 8, diamonds 2 3 4, a spade
    for h in (0, 6, 13, 40):
        p = {c: DEFAULT_MODEL.card_factor(ChoiceKind.LEAD, legal, h, c, 2) for c in range(52) if legal >> c & 1}
        assert max(p, key=lambda c: p[c]) == h


def test_the_model_refuses_parameters_it_cannot_use_quoting_them() -> None:
    with pytest.raises(ValueError, match=r"^heuristic_share=1\.0 must be in \[0, 1\)$"):
        ChoiceModel(heuristic_share=1.0)
    with pytest.raises(ValueError, match=r"^heuristic_eps=0\.0 must be in \(0, 1\)$"):
        ChoiceModel(heuristic_eps=0.0)
    with pytest.raises(ValueError, match=r"^kind_eps lead=1\.5 must be in \(0, 1\)$"):
        ChoiceModel(kind_eps=((ChoiceKind.LEAD, 1.5),))
    with pytest.raises(ValueError, match=r"^card_scores contract=\(0\.0,\) must be 9 finite numbers"):
        ChoiceModel(card_scores=((ChoiceKind.CONTRACT, (0.0,)),))
    with pytest.raises(ValueError, match=r"^card_scores lead=.*nan.* must be 9 finite numbers"):
        ChoiceModel(card_scores=((ChoiceKind.LEAD, (math.nan,) * 9),))


def test_a_card_the_heuristic_would_not_play_makes_the_world_less_likely() -> None:
    """Heuristic players: in the true deal every scored choice is the heuristic's (1 - eps each); a sampled world
    in which some other seat's card was not the heuristic's gets eps / (k - 1) for it, so a lower weight."""
    rules = Rules.parse("9-5-2")
    model = ChoiceModel(0.2)
    found = 0
    for world, view in _played_match(rules, 3, mixed=False)[20::6]:
        fs = choice_factors(world, view, model)
        assert fs and all(f == 0.8 for _, f in fs)
        rng = random.Random(5)
        for _ in range(5):
            w = resample(view, rng)
            lw = likelihood(w, view, model)
            if any(f < 0.8 for _, f in choice_factors(w, view, model)):
                assert lw < likelihood(world, view, model)
                found += 1
    assert found >= 3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 60), eps=st.floats(0.01, 0.99), text=st.sampled_from(
    ["9-5-2", "3-5-8", "8-5-3"]))
def test_the_true_world_never_gets_zero_weight(seed: int, actions: int, eps: float, text: str) -> None:
    """Whatever the players chose (random play here), the true deal and a sampled world get a weight in (0, 1]:
    with eps > 0 no world consistent with the view is ruled out entirely."""
    m = drive(Match(Rules.parse(text), seed), lambda m: len(m.deal.history) >= actions or m.deal.result is not None,
              random_choice(random.Random(seed)))
    model = ChoiceModel(eps)
    for seat in range(m.rules.players):
        view = m.view(seat)
        for w in (m.deal, resample(view, random.Random(seed))):
            fs = choice_factors(w, view, model)
            assert all(0.0 < f < 1.0 for _, f in fs)
            assert 0.0 < likelihood(w, view, model) <= 1.0


def test_the_model_refuses_an_eps_outside_0_1_quoting_it() -> None:
    for bad in (0.0, 1.0, -0.5, math.nan):
        with pytest.raises(ValueError, match=r"^eps=.* must be in \(0, 1\)$"):
            ChoiceModel(bad)


# ------------------------------------------------------------------------------------------- picking worlds
@settings(max_examples=200, deadline=None)
@given(weights=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40).filter(lambda ws: any(w > 0 for w in ws)),
       count=st.integers(1, 30), seed=st.integers(0, 2**32))
def test_pick_worlds_draws_in_proportion_to_the_weights(weights: list[float], count: int, seed: int) -> None:
    picked = pick_worlds(weights, count, random.Random(seed))
    assert len(picked) == count and picked == sorted(picked)
    assert all(weights[i] > 0 for i in picked)  # a world of weight 0 is never kept
    total = math.fsum(weights)
    for i, w in enumerate(weights):  # systematic resampling: floor or ceil of the expected count (float slack)
        expected = count * w / total
        assert math.floor(expected - 1e-9) <= picked.count(i) <= math.ceil(expected + 1e-9)
    assert pick_worlds(weights, count, random.Random(seed)) == picked  # same generator, same worlds


def test_pick_worlds_refuses_weights_it_cannot_draw_from() -> None:
    for bad in ([0.0, 0.0], [1.0, -1.0], [math.inf], [math.nan, 1.0]):
        with pytest.raises(ValueError, match="weights must be finite"):
            pick_worlds(bad, 3, random.Random(0))


# ------------------------------------------------------------------------------------------- the expert
def test_the_expert_infers_by_default_and_expert_uniform_does_not() -> None:
    e = make_player("expert")
    u = make_player("expert-uniform")
    assert isinstance(e, ExpertPlayer) and e.model == DEFAULT_MODEL
    assert isinstance(u, ExpertPlayer) and u.model is None and u.name == "expert-uniform"
    with pytest.raises(ValueError, match=r"^oversample=0 must be >= 1$"):
        ExpertPlayer(oversample=0)


@pytest.mark.parametrize("text,actions", [("9-5-2", 40), ("3-5-8", 35), ("9-5-2", 12)])
def test_same_seed_and_view_same_choice(text: str, actions: int) -> None:
    """Reproducible: the same view and generator give the same estimate, from a fresh player or the same one."""
    view = random_view(text, 11, 4, 2, actions, 0)
    if not view.legal:
        view = next(random_view(text, 11, 4, 2, actions, s) for s in range(3)
                    if random_view(text, 11, 4, 2, actions, s).legal)
    first = ExpertPlayer().estimate(view, random.Random(9))
    again = ExpertPlayer()
    for _ in range(2):
        est = again.estimate(view, random.Random(9))
        assert (est.choice, est.values, est.worlds) == (first.choice, first.values, first.worlds)


def test_inference_searches_the_likely_worlds_with_their_weights() -> None:
    """With inference the expert searches the drawn worlds that count, each with its tempered weight (in
    [floor, 1], an effective sample size at least MIN_ESS times the uniform count); resampling them instead searches at most the
    uniform count of distinct worlds, weighted by how often each was drawn; the uniform expert searches its count."""
    rules = Rules.parse("9-5-2")
    decisions = _played_match(rules, 4, mixed=False)[25:40:3]
    for _, view in decisions:
        e = ExpertPlayer()
        worlds, weights = e._weighted_worlds(view, e.worlds_play, random.Random(1))
        assert weights is not None and len(worlds) == len(weights) <= e.worlds_play * e.oversample
        assert all(WEIGHT_FLOOR <= w <= 1.0 for w in weights) and max(weights) == 1.0
        assert math.fsum(weights) ** 2 / math.fsum(w * w for w in weights) >= MIN_ESS * e.worlds_play * 0.95  # the floor drops a little
        r = ExpertPlayer(resample_worlds=True, min_ess=0.5)
        worlds_r, weights_r = r._weighted_worlds(view, r.worlds_play, random.Random(1))
        assert weights_r is not None and len(worlds_r) == len(weights_r) <= r.worlds_play
        assert sum(weights_r) == r.worlds_play and all(w >= 1 for w in weights_r)
        u = ExpertPlayer(model=None)
        worlds_u, weights_u = u._weighted_worlds(view, u.worlds_play, random.Random(1))
        assert weights_u is None and len(worlds_u) == u.worlds_play


def test_the_expert_plays_a_whole_deal_reproducibly() -> None:
    """A deal played by the expert against heuristic players twice with the same seeds: the same actions."""
    rules = Rules.parse("3-5-8")

    def play() -> list[Action]:
        players = [ExpertPlayer(), H, H]
        m = drive(Match(rules, 21), lambda m: len(m.deals) > 1 or m.over,
                  lambda m, v: players[v.seat].choose(v, decision_rng(21, v.seat, m.deal.number, len(m.deal.history))))
        return list(m.deals[0].history) if m.deals else []

    assert play() == play()


@settings(max_examples=200, deadline=None)
@given(logs=st.lists(st.floats(-200.0, 0.0), min_size=1, max_size=60), share=st.floats(0.0, 1.0))
def test_tempered_weights_keep_enough_worlds(logs: list[float], share: float) -> None:
    """Weights in (0, 1], the likeliest world 1, the effective sample size at least what was asked (up to the
    bisection's step), and the order of the worlds' likelihoods kept."""
    min_ess = share * len(logs)
    ws = temper(logs, min_ess)
    assert len(ws) == len(logs) and all(0.0 < w <= 1.0 for w in ws) and max(ws) == 1.0
    assert math.fsum(ws) ** 2 / math.fsum(w * w for w in ws) >= min_ess * 0.99 - 1e-9
    for i in range(len(logs) - 1):  # a likelier world never weighs less
        if logs[i] < logs[i + 1]:
            assert ws[i] <= ws[i + 1]
    if math.fsum(w * w for w in (math.exp(x - max(logs)) for x in logs)) ** -1 * math.fsum(
            math.exp(x - max(logs)) for x in logs) ** 2 >= min_ess:
        assert ws == [math.exp(x - max(logs)) for x in logs]  # enough worlds already: the likelihoods themselves
