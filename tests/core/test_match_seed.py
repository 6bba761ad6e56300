"""The seed of a match: a whole number from 0 below 2**62 (an int or a NumPy integer) deals its cards; anything else
is refused when the match is made, quoting it, instead of failing at the first computer's decision or making a
match whose record the record check refuses."""

from __future__ import annotations

import re

import pytest

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.seeding import SEED_LIMIT
from sergeant_major.players import HeuristicPlayer, RandomPlayer, drive
from sergeant_major.records import check_record, match_to_record


@pytest.mark.parametrize("seed", [1.5, 7.0, "7", True, None, [7]])
def test_a_seed_that_is_no_whole_number_is_refused_quoting_it(seed: object) -> None:
    # 1.5 and "7" used to make a match whose first computer decision raised a TypeError (decision_rng's '&')
    with pytest.raises(SergeantMajorError, match=re.escape(f"Match: seed={seed!r} is not a whole number from 0 below 2**62")):
        Match(Rules.parse("9-5-2"), seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, -5, SEED_LIMIT, 2**70])
def test_a_seed_outside_the_records_range_is_refused_up_front(seed: int) -> None:
    """The repro: ``Match(rules, seed=-1)`` played a whole match, and the record check then refused its record
    ("seed: -1 is not a non-negative integer below 2**62"). The match now refuses the seed itself, quoting it."""
    with pytest.raises(ValueError, match=re.escape(f"Match: seed={seed} is not a whole number from 0 below 2**62")):
        Match(Rules.parse("9-5-2"), seed=seed)


def test_a_seed_of_thousands_of_digits_is_quoted_by_its_size() -> None:
    # repr() refuses an int of more than 4300 digits: the message was Python's "Exceeds the limit"
    with pytest.raises(SergeantMajorError, match=re.escape("seed=<an int of about 5000 digits> is not a whole number")):
        Match(Rules.parse("9-5-2"), seed=10**5000)


def test_whole_number_seeds_still_deal_and_play_and_their_records_check() -> None:
    np = pytest.importorskip("numpy")
    rules = Rules.parse("9-5-2 deals=1")
    assert Match(rules, seed=np.int64(3)).deal.dealt == Match(rules, seed=3).deal.dealt
    assert type(Match(rules, seed=np.int64(3)).seed) is int
    for seed in (0, 3, SEED_LIMIT - 1):  # the ends of the range: what a record's seed may be
        m = Match(rules, seed=seed)
        drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
        assert m.over
        check_record(match_to_record(m, ["heuristic", "random", "random"]))
