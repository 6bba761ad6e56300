"""Tests of the ``expert`` and ``oracle`` players (issue "Computer players that play well"): legality in every
preset, views only, hand-made positions with one clearly best card, determinism, the ``hint`` command."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path

import pytest
from _matchhelp import random_view
from rich.console import Console

from sergeant_major.cli.play import Game
from sergeant_major.core.actions import Action, Contract, Discard, NameContract, Play
from sergeant_major.core.cards import Card, parse_card
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View, build_view
from sergeant_major.eval.levels import LEVELS, MEASUREMENT_LEVELS, make_player
from sergeant_major.players import decision_rng
from sergeant_major.players.expert import ExpertPlayer, hint_lines, utility_table
from sergeant_major.players.oracle import OraclePlayer
from sergeant_major.search import Solver

C = parse_card


def _cards(text: str) -> list[Card]:
    return [C(w) for w in text.split()]


# ------------------------------------------------------------------------------------------- legality
RULES = ["9-5-2", "8-5-3", "9-2-5", "3-5-8", "9-5-2 must-overtrump=on", "8-5-3 give=lowest",
         "8-5-3 dealer-assigns-targets=on kitty=see-then-trump", "9-5-2 exchange-count=at-most must-trump=on",
         "8-5-3 kitty=none trump=before-exchange"]


class _Recorder:
    """Wraps a player: checks that it gets views only and that it answers with a legal action."""

    def __init__(self, inner: ExpertPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.kinds: set[str] = set()

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, View)
        a = self.inner.choose(view, rng)
        assert a in view.legal, (view.phase, a)
        self.kinds.add(type(a).__name__)
        return a


def _play_deals(rules: Rules, seed: int, deals: int, players: list[_Recorder]) -> Match:
    m = Match(rules, seed)
    while not m.over and len(m.deals) <= deals:
        f = m.forced_action()
        if f is not None:
            m.apply(f)
            continue
        s = m.to_act
        assert s is not None
        m.apply(players[s].choose(m.view(s), decision_rng(seed, s, m.deal.number, len(m.deal.history))))
    return m


@pytest.mark.slow
@pytest.mark.parametrize("text", RULES)
def test_expert_is_legal_in_every_preset(text: str) -> None:
    try:
        rules = Rules.parse(text)
    except Exception as e:  # an option not in the rules: skip loudly
        pytest.skip(f"{text!r}: {e}")
    players = [_Recorder(ExpertPlayer(f"e{s}", think=0.2)) for s in range(rules.players)]
    m = _play_deals(rules, 7, 2, players)
    assert len(m.results) >= 1
    kinds = set().union(*(p.kinds for p in players))
    assert "Play" in kinds and ("NameContract" in kinds or "Discard" in kinds)


def test_nothing_reachable_from_a_view_is_a_deal() -> None:
    m = Match(Rules.parse("9-5-2"), 3)
    seen: set[int] = set()

    def walk(x: object) -> None:
        if id(x) in seen or isinstance(x, (int, str, float, bool, type(None), Card)):
            return
        seen.add(id(x))
        assert not isinstance(x, (Deal, Match)), type(x)
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (tuple, list, set, frozenset)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)

    walk(m.view(m.to_act or 0))


def test_the_choice_depends_on_the_view_only() -> None:
    """Two different deals with the same view for the seat give the same decision."""
    from sergeant_major.search.determinization import resample

    m = Match(Rules.parse("9-5-2"), 5)
    h = make_player("heuristic")
    while m.deal.phase is not Phase.PLAY or len(m.deal.completed) < 10:
        f = m.forced_action()
        m.apply(f if f is not None else h.choose(m.view(m.to_act or 0), random.Random(0)))
    seat = m.to_act
    assert seat is not None
    v = m.view(seat)
    other = resample(v, random.Random(99))  # another deal, equal in everything the seat knows
    v2 = build_view(other, seat, v.names, v.totals, v.results, v.contracts_left)
    assert v2 == v
    e = ExpertPlayer(think=0.5)
    assert e.choose(v, random.Random(4)) == e.choose(v2, random.Random(4))


# ------------------------------------------------------------------------------------------- hand-made endings
def _ending(rules: Rules, dealer: int, hands: dict[int, str], finals: dict[int, str], kitty: str, contract: Contract,
            discards: str, winner: int, trick: list[str]) -> View:
    """Deal ``hands`` (with the ``finals``, the last two cards of each seat), name ``contract``, take the kitty and
    discard; then play 14 filler tricks that ``winner`` wins (it plays its highest card, the others their lowest,
    never a final card), then the cards of ``trick``; return the view of the seat to play."""
    n = rules.players
    dealt = [_cards(hands[s] + " " + finals[s]) for s in range(n)]
    deal = Deal(rules, dealer, dealt, _cards(kitty))
    decl = deal.declarer
    deal.apply(NameContract(decl, contract))
    to_discard = _cards(discards)
    while deal.phase is not Phase.PLAY:
        f = deal.forced_action()
        deal.apply(f if f is not None else Discard(decl, to_discard.pop()))
    final = {s: set(_cards(finals[s])) for s in range(n)}
    for _ in range(14 * n):
        s = deal.to_act
        assert s is not None
        legal = [a for a in deal.legal_actions() if isinstance(a, Play) and a.card not in final[s]]
        assert legal, (s, deal)
        pick = max if s == winner else min
        deal.apply(pick(legal, key=lambda a: (a.card.rank, -a.card.suit)))
    assert deal.tricks_won[winner] == 14 and deal.to_act == winner
    for w in trick:
        s = deal.to_act
        assert s is not None
        deal.apply(Play(s, C(w)))
    s = deal.to_act
    assert s is not None
    return build_view(deal, s, ("A", "B", "C"), (0, 0, 0), ())


def test_expert_ruffs_a_trick_the_declarer_would_win() -> None:
    # dealer and declarer: seat 2; seat 1 wins the filler; seat 0 (eldest) is void in hearts with 2S 3D and
    # plays last to 4H AH. Every unseen card is a spade: ruffing wins a trick, discarding wins none.
    v = _ending(Rules.parse("9-5-2"), 2,
                {1: "AC KC QC JC TC AD KD QD JD KH QH JH AS KS", 2: "3C 5C 7C 9C TD 9D 8D 7D TH 9H 8H 3H QS JS",
                 0: "2C 4C 6C 8C 6D 5D 4D 2D 7H 6H 5H 2H TS 9S"},
                {1: "4H 8S", 2: "AH 7S", 0: "2S 3D"}, "3S 4S 5S 6S", Contract.SPADES, "3S 4S 5S 6S", 1, ["4H", "AH"])
    assert v.seat == 0 and v.declarer == 2
    est = ExpertPlayer().estimate(v, random.Random(1))
    assert est.choice == Play(0, C("2S"))
    assert est.tricks[Play(0, C("2S"))] == 1 and est.tricks[Play(0, C("3D"))] == 0


def test_expert_keeps_the_last_trump() -> None:
    # dealer and declarer: seat 0; seat 1 leads AH, seat 2 ruffs with KS (so it has no heart left: its last card
    # is the 9D). Seat 0 must keep its 2S (the last trump) to ruff the 9D: discarding it wins nothing.
    v = _ending(Rules.parse("9-5-2"), 0,
                {1: "AS QS JS AD KD QD AC KC QC JC TC KH QH JH", 2: "TS 8S 6S JD TD 8D 9C 8C 7C 6C TH 9H 8H 4H",
                 0: "9S 7S 5S 7D 6D 5D 5C 4C 3C 2C 7H 6H 3H 2H"},
                {1: "AH 5H", 2: "KS 9D", 0: "2S 3D"}, "3S 4S 2D 4D", Contract.SPADES, "3S 4S 2D 4D", 1, ["AH", "KS"])
    assert v.seat == 0 and v.declarer == 0
    est = ExpertPlayer().estimate(v, random.Random(2))
    assert est.choice == Play(0, C("3D"))
    assert est.tricks[Play(0, C("3D"))] == 1 and est.tricks[Play(0, C("2S"))] == 0


def test_expert_ducks_in_minimum_tricks() -> None:
    # minimum tricks: seat 0 follows 5H 4H last with 3H KH; the unseen cards are spades. Ducking with the 3H lets
    # seat 1 win and the KH is thrown on the last trick (0 tricks); the KH wins this trick and the next (2).
    try:
        rules = Rules.parse("9-5-2 contracts=suits-nt-mt")
    except Exception as e:
        pytest.skip(str(e))
    v = _ending(rules, 2,
                {1: "AC KC QC JC TC AD KD QD JD AH QH JH AS KS", 2: "9C 7C 5C 3C TD 8D 6D 4D 2D TH 9H 8H QS JS",
                 0: "8C 6C 4C 2C 9D 7D 5D 3D 7H 6H 2H TS 9S 2S"},
                {1: "5H 8S", 2: "4H 7S", 0: "3H KH"}, "3S 4S 5S 6S", Contract.MINIMUM, "3S 4S 5S 6S", 1, ["5H", "4H"])
    assert v.seat == 0 and v.contract is Contract.MINIMUM
    est = ExpertPlayer().estimate(v, random.Random(3))
    assert est.choice == Play(0, C("3H"))


# ------------------------------------------------------------------------------------------- determinism
def _deal_history(seed: int, solver: Solver | None) -> list[Action]:
    rules = Rules.parse("9-5-2")
    players = [_Recorder(ExpertPlayer(think=0.3, solver=solver)) for _ in range(3)]
    m = _play_deals(rules, seed, 1, players)
    return list(m.deals[0].history)


def test_same_generator_same_game_whatever_the_solver_learnt() -> None:
    warm = Solver(tt_bits=16)
    a = _deal_history(11, Solver(tt_bits=12))
    _deal_history(12, warm)  # fill the table with another game's positions
    b = _deal_history(11, warm)
    assert a == b


def test_estimate_is_repeatable_and_think_scales_counts() -> None:
    m = Match(Rules.parse("3-5-8"), 2)
    v = m.view(m.to_act or 0)
    e = ExpertPlayer()
    assert e.estimate(v, random.Random(5)) == e.estimate(v, random.Random(5))
    assert ExpertPlayer(think=2).worlds_play == 2 * ExpertPlayer().worlds_play
    with pytest.raises(ValueError, match="think"):
        ExpertPlayer(think=0)


def test_think_before_play_scales_the_decisions_before_the_play_only() -> None:
    """``think_before_play`` multiplies the worlds and play-outs of the targets, gives, returns, contract and discards
    (on top of ``think``), and leaves those of the card play as they are."""
    base, more = ExpertPlayer(), ExpertPlayer(think_before_play=3)
    assert (more.worlds_pre, more.playouts_pre) == (3 * base.worlds_pre, 3 * base.playouts_pre) == (36, 48)
    assert (more.worlds_play, more.playouts_play) == (base.worlds_play, base.playouts_play) == (20, 10)
    both = ExpertPlayer(think=2, think_before_play=1.5)
    assert (both.worlds_pre, both.worlds_play) == (36, 40)
    m = Match(Rules.parse("3-5-8"), 2)
    v = m.view(m.to_act or 0)
    assert isinstance(v.legal[0], NameContract) and len(v.legal) > 1
    searched = [ExpertPlayer(model=None, think_before_play=t).estimate(v, random.Random(5)).worlds for t in (1, 3)]
    assert searched == [12, 36]
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError, match=r"think_before_play=.* must be > 0"):
            ExpertPlayer(think_before_play=bad)


# ------------------------------------------------------------------------------------------- levels, utility, oracle
def test_levels() -> None:
    assert "expert" in LEVELS and "oracle" not in LEVELS and "oracle" in MEASUREMENT_LEVELS
    assert isinstance(make_player("expert"), ExpertPlayer)
    assert isinstance(make_player("oracle"), OraclePlayer)


def test_the_players_registry_makes_its_own_levels_and_the_full_one_every_level() -> None:
    """``players`` holds the levels that live there (it never imports the research tier); ``eval.levels`` adds
    ``ismcts``, and ``sergeant_major.make_player`` is the full one. An unknown level's message lists every level."""
    import sergeant_major
    from sergeant_major import players
    from sergeant_major.core.errors import UnknownLevelError

    assert players.LEVELS is LEVELS and list(players.MEASUREMENT_LEVELS) == ["oracle", "expert-uniform"]
    assert list(MEASUREMENT_LEVELS) == ["oracle", "expert-uniform", "ismcts"] and sergeant_major.make_player is make_player
    assert isinstance(players.make_player("oracle"), OraclePlayer)
    with pytest.raises(UnknownLevelError, match=r"^unknown player level 'ismcts' \(one of random, beginner, heuristic, "
                                                r"expert; for measurement only: oracle, expert-uniform\)$"):
        players.make_player("ismcts")
    for make in (make_player, sergeant_major.make_player):
        with pytest.raises(UnknownLevelError, match=r"^unknown player level 'master' \(one of random, beginner, "
                                                    r"heuristic, expert; for measurement only: oracle, expert-uniform, "
                                                    r"ismcts\)$"):
            make("master")


def test_utility_values_winning_the_match() -> None:
    r = Rules.parse("9-5-2")
    u = utility_table(r, 0, 9, False, (9, 0, 0), 5)
    assert u[9] == 0 and u[10] > u[9] + 1.5  # +1 reaches the target total of 10: worth more than a point
    u0 = utility_table(r, 0, 9, False, (0, 0, 0), 5)
    assert u0[12] - u0[11] > 1.5  # 12 tricks win at once
    mt = utility_table(Rules.parse("3-5-8"), 0, 3, True, (0, 0, 0), 1)
    assert mt[0] > mt[3] > mt[5]


def test_oracle_uses_the_true_deal() -> None:
    m = Match(Rules.parse("9-5-2"), 4)
    h = make_player("heuristic")
    while m.deal.phase is not Phase.PLAY or len(m.deal.completed) < 12:
        f = m.forced_action()
        m.apply(f if f is not None else h.choose(m.view(m.to_act or 0), random.Random(0)))
    seat = m.to_act
    assert seat is not None
    o = OraclePlayer()
    a = o.choose_with_state(m.deal.clone(), m.view(seat), random.Random(1))
    assert a in m.view(seat).legal
    with pytest.raises(ValueError):
        o.choose_with_state(m.deal.clone(), m.view((seat + 1) % 3), random.Random(1))


# ------------------------------------------------------------------------------------------- hint
def test_hint_command_in_play(tmp_path: Path) -> None:
    m = Match(Rules.parse("9-5-2"), 1, ["You", "Bob", "Cleo"])
    h = make_player("heuristic")
    while m.to_act != 0 or m.deal.phase is not Phase.PLAY or len(m.view(0).legal) < 2:
        f = m.forced_action()
        s = m.to_act or 0
        m.apply(f if f is not None else h.choose(m.view(s), decision_rng(1, s, m.deal.number, len(m.deal.history))))
    buf = io.StringIO()
    con = Console(file=buf, width=120, force_terminal=False, color_system=None)
    answers = iter(["hint", "quit"])
    g = Game(m, ["human", "heuristic", "heuristic"], tmp_path / "m.json", con, lambda p: next(answers))
    g.run()
    out = buf.getvalue()
    assert "Hint: the expert would choose" in out and "tricks" in out
    v = m.view(0)
    lines = hint_lines(v, random.Random(0))
    cards = {str(a.card) for a in v.legal if isinstance(a, Play)}
    shown = {ln.split()[0] for ln in lines[1:] if not ln.strip().startswith("(")}
    assert shown == cards and len(cards) > 1
    assert lines[-1].strip().startswith("(points: the expert's utility")


def test_hint_at_the_discard_shows_each_set_whole() -> None:
    """The repro: at the discard the hint listed one card per line ("JS 11.50 tricks +5.17", "AS ...") and said each
    line was "the best set holding that card", though the other three cards of the set were nowhere (each line was
    keyed by its set's highest card). Now each line is a whole set of discards, the card to discard now first."""
    from sergeant_major.core.deal import Phase as DealPhase

    m = Match(Rules.parse("9-5-2"), 4, ["You", "Bob", "Cleo"])
    h = make_player("heuristic")
    while not (m.deal.phase is DealPhase.DISCARD and m.to_act == m.deal.declarer):
        f = m.forced_action()
        s = m.to_act or 0
        m.apply(f if f is not None else h.choose(m.view(s), decision_rng(4, s, m.deal.number, len(m.deal.history))))
    v = m.view(m.deal.declarer)
    lines = hint_lines(v, random.Random(0))
    rows = [ln.split() for ln in lines[1:] if not ln.strip().startswith("(")]
    k = v.rules.kitty_size
    hand = {str(c) for c in v.hand}
    assert rows and all(len(r) >= k + 4 for r in rows), lines  # k cards, then "x.xx tricks +y.yy points"
    for r in rows:
        cards = r[:k]
        assert len(set(cards)) == k and set(cards) <= hand, (r, lines)
    choice = lines[0].removeprefix("Hint: the expert would choose ").split(" ")[0].rstrip(".")
    assert rows[0][0] == choice, lines
    assert any("each line is a whole set" in ln for ln in lines), lines


def test_hint_at_the_targets_prompt_names_the_numbers_to_type() -> None:
    # the hint said "assign targets 2-9-5" where the prompt takes a number 1..6 ("2: You 2, Bob 9, Cleo 5"),
    # and the choice could be listed below an equal candidate
    from sergeant_major.cli import tui
    from sergeant_major.core.match import first_dealer

    seed = next(s for s in range(100) if first_dealer(s, 3) == 0)
    m = Match(Rules.parse("9-5-2 dealer-assigns-targets=on"), seed, ["You", "Bob", "Cleo"])
    v = m.view(0)
    assert tui.prompt_word(v) == "targets"
    lines = hint_lines(v, random.Random(0))
    choices = tui.assign_choices(v)
    head = lines[0].removeprefix("Hint: the expert would choose ").split(" (")[0].rstrip(".")
    assert head in choices, lines[0]
    rows = [" ".join(ln.split()[:7]) for ln in lines[1:] if not ln.strip().startswith("(")]  # "2: You 2, Bob 9, Cleo 5", ...
    assert sorted(rows) == sorted(choices) and rows[0] == head, lines


def test_every_level_refuses_a_view_with_no_decision_naming_the_seat() -> None:
    """A view of a seat that is not to act: the random, beginner and heuristic players failed with 'empty range for
    randrange()' or 'tuple index out of range'; every level now says which seat has no decision (a ValueError)."""
    m = Match(Rules.parse("9-5-2"), 1)
    idle = (m.deal.to_act + 1) % 3
    view = m.view(idle)
    for level in (*LEVELS, *MEASUREMENT_LEVELS):
        with pytest.raises(ValueError, match=f"seat {idle} (has no decision to make|is not to act)"):
            make_player(level).choose(view, random.Random(0))


def test_players_refuse_an_rng_that_is_not_a_random_random_quoting_it() -> None:
    """``RandomPlayer().choose(view, None)`` and the beginner and ISMCTS players given a NumPy generator failed with a bare
    ``AttributeError``; they now say what is wrong, quoting it, as the expert and resample do."""
    import random

    import numpy as np

    from sergeant_major.core.errors import SergeantMajorError
    from sergeant_major.core.match import Match
    from sergeant_major.eval.levels import make_player

    m = Match(Rules.parse("9-5-2"), seed=3)
    view = m.view(m.to_act)
    for level in ("random", "beginner", "ismcts"):
        for bad in (None, np.random.default_rng(1)):
            with pytest.raises(SergeantMajorError, match=r"rng=.* is not a random\.Random"):
                make_player(level).choose(view, bad)  # type: ignore[arg-type]
        assert make_player(level).choose(view, random.Random(1)) in view.legal


def test_hint_at_a_give_says_which_cards_it_compared() -> None:
    """The repro (``play --seed 11 --opponents random``, deal 4, seat 0 up 1): at ``give>`` with 16 legal cards the
    hint listed 4 (6H, 3S, 5D, 4C) while the README promised "its estimate for each legal card"; it now says that
    it compares the lowest card of each suit and the heuristic's choice, and lists exactly those."""
    from sergeant_major.core.actions import Give

    h = make_player("heuristic")
    for seed in range(40):
        m = Match(Rules.parse("9-5-2"), seed, ["You", "Bob", "Cleo"])
        while not m.over and not (m.to_act == 0 and any(isinstance(a, Give) for a in m.view(0).legal)):
            f = m.forced_action()
            s = m.to_act or 0
            m.apply(f if f is not None else h.choose(m.view(s), decision_rng(seed, s, m.deal.number, len(m.deal.history))))
        if not m.over and len(m.view(0).legal) > 5:
            break
    else:
        pytest.fail("no give with more than 5 legal cards for seat 0 in 40 seeds")
    v = m.view(0)
    lines = hint_lines(v, random.Random(0))
    rows = [ln.split()[0] for ln in lines[1:] if not ln.strip().startswith("(")]
    gives = [a for a in v.legal if isinstance(a, Give)]
    lowest = {str(min((a for a in gives if a.card.suit == s), key=lambda a: a.card.rank).card)
              for s in range(4) if any(a.card.suit == s for a in gives)}
    assert lowest <= set(rows) and len(rows) <= len(lowest) + 1 < len(v.legal), lines
    note = f"(of the {len(v.legal)} legal choices the expert compares these: the lowest card of each suit"
    assert any(ln.strip().startswith(note) for ln in lines), lines


# ------------------------------------------------------------------------------------------- world budget
@pytest.mark.slow
def test_the_worlds_of_a_decision_stay_within_their_budget() -> None:
    """9-2-5 give=lowest, match 7001, random play, deal 2 after 44 actions, seat 0 to play (after an exchange it saw
    little of): resample took 0.2-6 s a sample, and the expert's 20 worlds ~1.1M steps (~35 s) with no bound. The
    worlds now share one budget of WORLD_STEPS * 20 steps (a count: the same choice on any machine); the search
    uses those found within it."""
    from sergeant_major.players.expert import WORLD_STEPS

    view = random_view("9-2-5 give=lowest", 7001, 1, 2, 44, 0)
    assert view.to_act == 0 and len(view.legal) == 6
    runs = []
    for _ in range(2):
        p = ExpertPlayer()
        est = p.estimate(view, random.Random(7))  # 5 until 2026-12-02: its first world now costs more than the budget
        b = p.last_budget
        assert b is not None and b.steps == WORLD_STEPS * p.worlds_play
        assert b.used <= b.steps and b.samples == est.worlds
        runs.append((est, b))
    (est, b), (est2, b2) = runs
    assert 1 <= est.worlds < 20  # the budget ran out first: the bound is what stops the drawing here
    assert est == est2 and b == b2 and est.choice in view.legal


def test_no_world_within_the_budget_falls_back_to_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget spent before the first world: the decision is the heuristic's (as when resample gives up)."""
    import sergeant_major.players.expert as expert

    m = Match(Rules.parse("9-5-2"), 3)
    while m.deal.phase is not Phase.PLAY or len(m.legal_actions()) < 2:
        f = m.forced_action()
        m.apply(f if f is not None else m.legal_actions()[0])
    seat = m.to_act
    assert seat is not None
    view = m.view(seat)
    monkeypatch.setattr(expert, "WORLD_STEPS", 0)
    p = ExpertPlayer()
    est = p.estimate(view, random.Random(2))
    assert est.method == "heuristic" and est.worlds == 0 and est.choice in view.legal
    assert p.last_budget is not None and p.last_budget.used == 0
    assert est.choice == make_player("heuristic").choose(view, random.Random(2))


def test_the_hint_says_how_the_sampled_deals_were_valued_in_plain_words() -> None:
    """The repro: the hint's head ended "(estimated over 24 sampled deals, play-outs)", the method's name put after a
    comma. Now it says what was done to each sampled deal."""
    m = Match(Rules.parse("9-5-2"), 5, ["You", "Bob", "Cleo"])
    head = hint_lines(m.view(m.to_act or 0), random.Random(0), think=0.2)[0]
    assert re.fullmatch(r"Hint: the expert would choose \w+ \(estimated over \d+ sampled deals, each (played out|solved "
                        r"double dummy)\)\.", head), head
