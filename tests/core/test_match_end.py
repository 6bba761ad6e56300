"""The match end as data: every end rule gives its kind and facts, and the words alone (a record) give them back."""

from __future__ import annotations

import pytest

from sergeant_major import Rules
from sergeant_major.core.match import MatchEnd
from sergeant_major.players import RandomPlayer, play_match

CASES = [
    # (rules, end kind that must occur in some seed's match)
    ("9-5-2", {"target", "instant"}),
    ("8-5-3", {"target", "instant"}),
    ("3-5-8", {"deals"}),
    ("8-5-3 traditional=on", {"traditional"}),
    ("9-2-5", {"bound", "target", "instant"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "kinds"), CASES)
def test_end_kind_and_facts_round_trip_through_the_words(text: str, kinds: set[str]) -> None:
    rules = Rules.parse(text)
    seen: set[str] = set()
    for seed in range(40):
        m = play_match(rules, [RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=seed)
        end = m.end
        assert end is not None and end.kind != "other", end
        facts = dict(end.facts)
        if end.kind == "target":  # seeds 000/004 "Winning the game": the winner's total reached the target total
            assert facts["limit"] == rules.target_total and m.totals[end.winners[0]] == facts["total"] >= facts["limit"]
        if end.kind == "instant":  # 12+ tricks in one deal wins at once (9-5-2; 8-5-3 too)
            assert facts["tricks"] >= 12 and facts["limit"] == rules.instant_win
        if end.kind == "deals":  # seed 003: 18 deals
            assert facts["deals"] == len(m.deals) == rules.deals and max(m.totals) == facts["total"]
        assert MatchEnd.from_reason(end.winners, end.reason) == end
        seen.add(end.kind)
    assert kinds & seen, (text, seen)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "kinds"), CASES)
def test_names_holding_other_ends_words_do_not_fool_the_reading(text: str, kinds: set[str]) -> None:
    """A player's name is part of the words; names made of another end's words still give the true end back."""
    rules = Rules.parse(text)
    names = ["Al reached 99 (target total 5)", "Bo beat his target as dealer of deal 1, the first dealer",
             "Cy took 16 tricks in one deal (12+ wins at once) x"]
    seen: set[str] = set()
    for seed in range(12):
        m = play_match(rules, [RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=seed, names=names)
        assert m.end is not None and m.end.kind != "other"
        assert MatchEnd.from_reason(m.end.winners, m.end.reason) == m.end, m.end.reason
        seen.add(m.end.kind)
    assert seen


def test_unknown_words_are_kept_as_other() -> None:
    end = MatchEnd.from_reason((0, 2), "agreed draw")
    assert end.kind == "other" and end.facts == () and end.winners == (0, 2)


def test_a_record_keeps_the_structured_end() -> None:
    from sergeant_major.records import format as record_format
    from sergeant_major.records import validation

    m = play_match(Rules.parse("9-5-2"), [RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=3)
    assert m.end is not None and m.end.kind != "other"
    rec = validation.loads_record(record_format.dumps_record(record_format.match_to_record(m, ["random"] * 3)))
    assert validation._parse(rec).end == m.end  # the end as the file states it, read back from its words
    assert validation.match_from_record(rec).end == m.end  # and as the replay finds it



# ---------------------------------------------------------------------------------------------- precedence of the ends
def _end_after(text: str, deals: list[tuple[int, tuple[int, ...]]], names: tuple[str, ...] = ()) -> MatchEnd | None:
    """The end the engine finds after the last of ``deals`` (``(dealer, tricks by seat)`` each, suit contracts,
    3 players, targets dealer 9, eldest 5, third 2): Match._check_end on a hand-made history, running scores."""
    from types import SimpleNamespace

    from sergeant_major.core.actions import Contract
    from sergeant_major.core.deal import DealResult
    from sergeant_major.core.match import Match

    rules = Rules.parse(text)
    m = Match(rules, seed=0, names=names) if names else Match(rules, seed=0)
    past, results, totals = [], [], [0, 0, 0]
    for k, (dealer, tricks) in enumerate(deals, 1):
        assert sum(tricks) == 16
        targets = tuple(rules.targets[(s - dealer) % 3] for s in range(3))
        diffs = tuple(t - g for t, g in zip(tricks, targets, strict=True))
        past.append(SimpleNamespace(number=k, dealer=dealer))
        results.append(DealResult(tricks, targets, diffs, diffs, Contract.SPADES))
        totals = [t + d for t, d in zip(totals, diffs, strict=True)]
    m.deals, m.results, m.totals = past, results, totals  # type: ignore[assignment]
    return m._check_end(past[-1], results[-1])  # type: ignore[arg-type]


# Worked by hand. Deal 1 dealer seat 0 (targets 9/5/2 for seats 0/1/2), deal 2 dealer 1 (2/9/5), deal 3 dealer 2 (5/2/9).
# REACH: (13, 3, 0) -> +4 -2 -2; (5, 8, 3) -> +3 -1 -2; (9, 2, 5) -> +4 0 -4: totals 11, -3, -8.
REACH = [(0, (13, 3, 0)), (1, (5, 8, 3)), (2, (9, 2, 5))]
# TIE: (10, 6, 0) -> +1 +1 -2; (4, 12, 0) -> +2 +3 -5; (10, 6, 0) -> +5 +4 -9: totals 8, 8, -16.
TIE = [(0, (10, 6, 0)), (1, (4, 12, 0)), (2, (10, 6, 0))]
# TRAD: (9, 7, 0) -> 0 +2 -2 (dealer 0 made 9 of 9); (2, 8, 6) -> 0 -1 +1 (dealer 1 down);
# (0, 11, 5) -> -5 +9 -4 (dealer 2 down): totals -5, 10, -5.
TRAD = [(0, (9, 7, 0)), (1, (2, 8, 6)), (2, (0, 11, 5))]
# SWEEP: (9, 5, 2) -> 0 0 0 (dealer 0 made his 9); (2, 9, 5) -> 0 0 0; (2, 2, 12) -> -3 0 +3: seat 2 took 12.
SWEEP = [(0, (9, 5, 2)), (1, (2, 9, 5)), (2, (2, 2, 12))]


@pytest.mark.parametrize(("text", "deals", "kind", "winners", "reason"), [
    # a fixed-length game whose last deal also takes seat 0 to 11 >= to=10: the target total is checked before the
    # fixed deals, so seat 0 wins by the target total, not "after 3 deals"
    ("9-5-2 deals=3 instant-win=off", REACH, "target", (0,), "Player 1 reached 11 (target total 10)"),
    # the last deal leaves two totals equal at the target: the target total ends nothing (docs/rules.md reference decision 6: play
    # another deal), the fixed deals then end the game and the two share the win (decision 6, fixed length)
    ("9-5-2 deals=3 to=8 instant-win=off", TIE, "deals", (0, 1), "after 3 deals the highest total (8) wins (shared)"),
    # a match of one deal says "deal", not "deals"
    ("9-5-2 deals=1 to=8 instant-win=off", TIE[:1], "deals", (0, 1), "after 1 deal the highest total (1) wins (shared)"),
    # not the last deal: the same totals end nothing (another deal)
    ("9-5-2 deals=4 to=8 instant-win=off", TIE, None, (), ""),
    # traditional before the target total: seat 1 has reached 10, but seat 0 made his target as dealer of deal 1,
    # the first dealer to do so once the deal has gone round: seat 0 wins
    ("9-5-2 traditional=on instant-win=off", TRAD, "traditional", (0,),
     "Player 1 made his target as dealer of deal 1, the first dealer to do so once the deal had gone round the table "
     "(traditional end)"),
    # without the traditional end the same deals end by the target total, for seat 1
    ("9-5-2 instant-win=off", TRAD, "target", (1,), "Player 2 reached 10 (target total 10)"),
    # the instant win before all: seat 2 took 12 tricks in the last deal of a fixed-length traditional game in which
    # seat 0 made his target as dealer of deal 1
    ("9-5-2 deals=3 traditional=on", SWEEP, "instant", (2,), "Player 3 took 12 tricks in one deal (12+ wins at once)"),
    # the target total before the bound: 11 is past both to=10 and bound=8; the target total names seat 0
    ("9-5-2 bound=8 instant-win=off", REACH, "target", (0,), "Player 1 reached 11 (target total 10)"),
    # equal totals at to=8 and -16 past bound=15: the target total ends nothing, the bound ends the game, shared
    ("9-5-2 to=8 bound=15 instant-win=off", TIE, "bound", (0, 1), "a total reached +-15; the highest total (8) wins"),
])
def test_the_order_of_the_game_ends(text: str, deals: list[tuple[int, tuple[int, ...]]], kind: str | None,
                                    winners: tuple[int, ...], reason: str) -> None:
    """docs/rules.md decision 14: after each deal the ends are checked in the order instant win, traditional, target
    total, bound, fixed number of deals; the first that ends the game decides the winners and the reason."""
    end = _end_after(text, deals)
    if kind is None:
        assert end is None
    else:
        assert end is not None and (end.kind, end.winners, end.reason) == (kind, winners, reason)


def test_sergeant_major_rules_states_the_order() -> None:
    """decision 14 in ``sergeant-major rules``: the ends are listed in the order checked, and said so when several."""
    lines = Rules.parse("9-5-2 traditional=on bound=15 deals=12").explain()
    end = next(ln for ln in lines if ln.startswith("Game end: "))
    words = ["wins at once", "first dealer who", "first total to reach", "+15 or -15", "after 12 deals"]
    assert [end.index(w) for w in words] == sorted(end.index(w) for w in words)
    assert any("checked in the order given" in ln for ln in lines)
    assert not any("checked in the order given" in ln for ln in Rules.parse("8-5-3").explain())


def test_a_one_deal_end_reads_back_in_both_spellings() -> None:
    """The end of a one-deal match says "after 1 deal"; records written before said "after 1 deals" and still read as
    the same end kind (web replays and ``replay`` structure the end from these words)."""
    from sergeant_major.core.match import MatchEnd
    for reason in ("after 1 deal the highest total (4) wins", "after 1 deals the highest total (4) wins"):
        end = MatchEnd.from_reason((1,), reason)
        assert end.kind == "deals" and dict(end.facts)["deals"] == 1, (reason, end)
    assert any("after 1 deal the highest" in ln for ln in Rules.parse("9-5-2 deals=1").explain())


def test_the_traditional_end_addresses_you_as_you() -> None:
    """The terminal's person is called You: the traditional end says "You made your target", not "You made his target";
    the words still read back as the traditional end."""
    from sergeant_major.core.match import MatchEnd
    end = _end_after("9-5-2 traditional=on instant-win=off", TRAD, ("You", "Bob", "Cleo"))
    assert end is not None and end.reason.startswith("You made your target as dealer of deal 1,"), end
    back = MatchEnd.from_reason(end.winners, end.reason)
    assert back.kind == "traditional" and dict(back.facts) == {"verb": "made", "deal": 1}, back
