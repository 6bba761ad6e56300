"""The match end as data: every end rule gives its kind and facts, and the words alone (a record) give them back."""

from __future__ import annotations

import pytest

from sergeant_major import Rules
from sergeant_major.match import MatchEnd
from sergeant_major.players import RandomPlayer, play_match

CASES = [
    # (rules, end kind that must occur in some seed's match)
    ("9-5-2", {"target", "instant"}),
    ("8-5-3", {"target", "instant"}),
    ("3-5-8", {"deals"}),
    ("8-5-3 traditional=on", {"traditional"}),
    ("9-2-5", {"bound", "target", "instant"}),
]


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
    from sergeant_major import record

    m = play_match(Rules.parse("9-5-2"), [RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=3)
    assert m.end is not None and m.end.kind != "other"
    rec = record.loads_record(record.dumps_record(record.match_to_record(m, ["random"] * 3)))
    assert record._parse(rec).end == m.end  # the end as the file states it, read back from its words
    assert record.match_from_record(rec).end == m.end  # and as the replay finds it
