"""The seed of a match: any int (or NumPy integer) deals its cards; anything else is refused when the match is made,
quoting it, instead of failing at the first computer's decision."""

from __future__ import annotations

import re

import pytest

from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.players import HeuristicPlayer, RandomPlayer, drive


@pytest.mark.parametrize("seed", [1.5, 7.0, "7", True, None, [7]])
def test_a_seed_that_is_no_whole_number_is_refused_quoting_it(seed: object) -> None:
    # 1.5 and "7" used to make a match whose first computer decision raised a TypeError (decision_rng's '&')
    with pytest.raises(SergeantMajorError, match=re.escape(f"seed {seed!r} is not a whole number")):
        Match(Rules.parse("9-5-2"), seed=seed)  # type: ignore[arg-type]


def test_whole_number_seeds_still_deal_and_play() -> None:
    np = pytest.importorskip("numpy")
    rules = Rules.parse("9-5-2 deals=1")
    assert Match(rules, seed=np.int64(3)).deal.dealt == Match(rules, seed=3).deal.dealt
    for seed in (0, 3, 2**70, -1):  # any int, as before
        m = Match(rules, seed=seed)
        drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
        assert m.over
