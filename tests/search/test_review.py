"""The double-dummy review of a match (issue 36): costs against the brute force, the JSON against its schema, the
table's counts adding up, and the ``review`` command."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_solver import brute_values
from typer.testing import CliRunner

import sergeant_major.cli.analyze  # noqa: F401 - registers the review and analyze commands on the app
import sergeant_major.search.review as review_module
from sergeant_major import Contract, HeuristicPlayer, Match, RandomPlayer, Rules, drive
from sergeant_major.cli.app import app
from sergeant_major.core.cards import CARDS
from sergeant_major.core.rules import PRESETS
from sergeant_major.search import HAVE_NUMBA, Position, Solver
from sergeant_major.search.position import random_position
from sergeant_major.search.review import (
    REVIEW_TT_BITS,
    Mark,
    card_review,
    dd_table,
    review_match,
    review_plays,
    review_schema,
    review_solver,
    review_units,
)

runner = CliRunner()

# every preset, and each contract kind of 3-5-8 (no-trump and minimum tricks), and four players
_KINDS: list[tuple[str, Contract | None]] = [(p, None) for p in PRESETS] + [
    ("3-5-8", Contract.NO_TRUMP), ("3-5-8", Contract.MINIMUM), ("9-5-2 players=4", None)]


def _line(pos: Position, rng: random.Random) -> list[tuple[int, int, int]]:
    """Random legal cards from ``pos`` to the end: ``(trick number, seat, card id)``."""
    seq = []
    trick = 1
    while not pos.over:
        cid = rng.choice([c.id for c in pos.legal_cards()])
        seq.append((trick, pos.to_move, cid))
        pos = pos.play(cid)
        if not pos.trick:
            trick += 1
    return seq


@pytest.mark.parametrize(("rules_t", "contract"), _KINDS, ids=[f"{r}-{c.code if c else 'drawn'}" for r, c in _KINDS])
def test_review_costs_equal_brute_force(rules_t: str, contract: Contract | None) -> None:
    """Each card's cost, best cards and mark in :func:`review_plays` equal the brute-force minimax's (which shares
    nothing with the solver) on random endings of 1 to 4 tricks played out at random."""
    rules = Rules.parse(rules_t)
    rng = random.Random(f"review {rules_t} {contract}")
    solver = Solver(tt_bits=12)
    checked = 0
    for _ in range(6):
        start = random_position(rules, rng, rng.randint(1, 3 if rules.players == 4 else 4), contract=contract)
        seq = _line(start, rng)
        plays, _ = review_plays(start, seq, solver, None)
        pos = start
        for (_, seat, cid), p in zip(seq, plays, strict=True):
            value, per = brute_values(pos, seat)
            cost = per[cid] - value if pos.misere else value - per[cid]
            assert p["cost"] == cost and p["cost_range"] == [cost, cost], (pos.text(), p)
            assert p["value"] == [value, value] and p["played"] == [per[cid], per[cid]]
            assert sorted(p["best"]) == sorted(str(CARDS[c]) for c, v in per.items() if v == value), (pos.text(), p)
            assert p["mark"] == (Mark.BEST if cost == 0 else Mark.MISTAKE).value
            checked += 1
            pos = pos.play(cid)
    assert checked >= 6


@pytest.mark.parametrize(("rules_t", "contract"), _KINDS, ids=[f"{r}-{c.code if c else 'drawn'}" for r, c in _KINDS])
def test_card_review_agrees_with_every_cards_value(rules_t: str, contract: Contract | None) -> None:
    """:func:`card_review` (the value, one test per group of cards, the played card's value when it is not best)
    gives the value, the played card's value and the best cards that :meth:`Solver.solve` (every card's value)
    gives, on random positions of 5 to 7 tricks left, in and out of a trick."""
    rules = Rules.parse(rules_t)
    rng = random.Random(f"card review {rules_t} {contract}")
    solver = Solver(tt_bits=14)
    for _ in range(5):
        pos = random_position(rules, rng, rng.randint(5, 7), contract=contract, in_trick=rng.randrange(rules.players))
        full = solver.solve(pos)
        for c in pos.legal_cards():
            got = card_review(pos, pos.to_move, c.id, solver, None)
            assert (got.lower, got.upper) == (full.tricks, full.tricks), pos.text()
            assert got.card_bounds[c] == (full.cards[c], full.cards[c]), (pos.text(), c)
            assert got.best_cards() == full.best_cards(), (pos.text(), c)
            assert set(got.card_bounds) == set(full.cards)


def test_table_rows_add_up_to_the_deals_tricks() -> None:
    """A row's sure counts plus its open tricks are the deal's tricks (in minimum tricks: the counts less the
    open tricks); every count is exact without a time limit."""
    rng = random.Random(5)
    for rules_t in ("9-5-2", "3-5-8"):
        pos = random_position(Rules.parse(rules_t), rng, 5)
        t = dd_table(pos, Solver(tt_bits=14), None, jobs=1)
        assert t["total"] == 5 + sum(pos.tricks)
        for row in t["rows"]:
            sure = sum(c[0] for c in row["tricks"])
            assert row["open"][0] == row["open"][1] >= 0
            if row["contract"] == "MT":
                assert sure - row["open"][0] == t["total"], row
            else:
                assert sure + row["open"][0] == t["total"], row


def _match(seed: int = 11, rules: str = "9-5-2") -> Match:
    m = Match(Rules.parse(rules), seed=seed, names=["Ann", "Ben", "Cat"])
    drive(m, [HeuristicPlayer(), RandomPlayer(), RandomPlayer()])
    return m


def _validate(doc: dict[str, Any]) -> None:
    schema = review_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_review_of_a_match_validates_and_sums_up() -> None:
    """The review of a whole match (short time limits: some values may be ranges) validates against the shipped
    schema; progress counts every search; each seat's match figures are the sums of its deals'."""
    m = _match()
    done = [0]

    def tick(k: int) -> None:
        done[0] += k

    r = review_match(m, Solver(tt_bits=18), 0.02, table=True, progress=tick)
    _validate(r)
    assert "expert" not in r and all("expert" not in p for d in r["deals"] for p in d["plays"])
    assert done[0] == review_units(m) and len(r["deals"]) == len(m.deals)
    assert r["names"] == ["Ann", "Ben", "Cat"] and r["rules"] == "9-5-2"
    for s in range(3):
        for key in ("lost", "lost_max", "mistakes", "cards"):
            assert r["seats"][s][key] == sum(d["seats"][s][key] for d in r["deals"])
    d = r["deals"][0]
    assert len(d["plays"]) == 48 and d["tricks"] == list(m.deals[0].result.tricks)  # type: ignore[union-attr]
    assert all(p["mark"] in ("best", "mistake", "unclear") for p in d["plays"])
    assert all(p["cost_range"][0] > 0 for p in d["mistakes"])
    # a document off the schema is refused (the schema is no rubber stamp)
    bad = json.loads(json.dumps(r))
    bad["deals"][0]["plays"][0]["mark"] = "blunder"
    with pytest.raises(jsonschema.ValidationError):
        _validate(bad)
    with pytest.raises(ValueError, match="deals 1.."):
        review_match(m, deals=[len(m.deals) + 1])


def test_a_reviews_solvers_have_the_larger_table() -> None:
    """``review_solver`` (the review's and the table's solvers: the CLI's, and ``review_match``'s default) has
    ``2**REVIEW_TT_BITS`` entries with numba, more than a default ``Solver``, and so do its twins for the other
    threads; without numba (pure Python) a default solver's."""
    sv = review_solver(2)
    bits = REVIEW_TT_BITS if HAVE_NUMBA else Solver().tt_bits
    assert (sv.tt_bits, sv.threads) == (bits, 2) and REVIEW_TT_BITS > Solver().tt_bits
    assert sv.twin().tt_bits == bits


def test_the_searches_run_in_the_jobs_asked_for_on_twins_of_the_solver() -> None:
    """``review_match(..., jobs=N)`` spreads the searches over N solvers: the caller's and twins with its knobs; the
    values are those of one job; ``jobs`` below 1 is refused, quoted."""
    m = _match()
    deals = [1]
    seen: dict[int, tuple[int, int, int]] = {}
    original = review_module.run_tasks

    def spy(tasks: list[Any], solver: Solver, jobs: int) -> None:
        def wrap(task: Any) -> Any:
            def run(sv: Solver) -> None:
                seen[id(sv)] = (sv.etc_min, sv.probe_first, jobs)
                task(sv)
            return run
        original([wrap(t) for t in tasks], solver, jobs)

    solver = Solver(tt_bits=16)
    solver.etc_min, solver.probe_first = 4, 5_000
    one = review_match(m, Solver(tt_bits=16), None, table=True, deals=deals, jobs=1)
    review_module.run_tasks = spy
    try:
        two = review_match(m, solver, None, table=True, deals=deals, jobs=2)
    finally:
        review_module.run_tasks = original
    assert len(seen) == 2 and set(seen.values()) == {(4, 5_000, 2)}
    assert two == one
    with pytest.raises(ValueError, match="jobs=0"):
        review_match(m, jobs=0)


def _record(tmp_path: Path) -> Path:
    from sergeant_major.records import write_record

    path = tmp_path / "m.json"
    write_record(_match(), path, ["heuristic", "random", "random"])
    return path


@pytest.mark.slow
def test_review_command_text_and_json(tmp_path: Path) -> None:
    """``review FILE`` prints each deal's table with its open tricks, the cards and mistakes, per player and deal
    the tricks lost, and the match's totals; ``--json`` validates; ``analyze FILE`` is the same review."""
    path = _record(tmp_path)
    r = runner.invoke(app, ["review", str(path), "-t", "0.05"], env={"COLUMNS": "120"})
    assert r.exit_code == 0, r.output
    for words in ("Double-dummy table", "Open", "Cards and their double-dummy cost", "Per player: Ann took",
                  "Tricks lost to mistakes", "Open: the rest of the 16 tricks", "Expert", "Lost, expert's estimate"):
        assert words in " ".join(r.stdout.split()), words
    r = runner.invoke(app, ["review", str(path), "--json", "--no-table", "-t", "0.05", "--no-expert"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    _validate(doc)
    assert "table" not in doc["deals"][0]
    r = runner.invoke(app, ["analyze", str(path), "--json", "--no-table", "-t", "0.05"])
    assert r.exit_code == 0, r.output
    again = json.loads(r.stdout)
    _validate(again)
    assert again["expert"] == {"think": 1.0, "seed": 0} and all("expert" in p for p in again["deals"][0]["plays"])
    assert [p["card"] for p in again["deals"][0]["plays"]] == [p["card"] for p in doc["deals"][0]["plays"]]


def test_review_command_refuses_bad_input(tmp_path: Path) -> None:
    """A deal the match does not have, a position text and a missing file: status 2, the input quoted; a record whose
    totals the play does not give: reviewed from its actions, then the difference named, status 1 (as replay)."""
    path = _record(tmp_path)
    r = runner.invoke(app, ["review", str(path), "--deal", "99"])
    assert r.exit_code == 2 and "--deal 99" in r.stderr and "has deals 1.." in r.stderr
    r = runner.invoke(app, ["review", "9-5-2 | H | 0 | 5-5-5 | AS / KS / QS | -"])
    assert r.exit_code == 2 and "error:" in r.stderr
    r = runner.invoke(app, ["review", str(tmp_path / "nope.json")])
    assert r.exit_code == 2 and r.stderr.count("nope.json") == 1 and "cannot read the record" in r.stderr, r.stderr
    rec = json.loads(path.read_text())
    rec["totals"] = [t + 1 for t in rec["totals"]]  # a damaged record: totals that the play does not give
    path.write_text(json.dumps(rec))
    r = runner.invoke(app, ["review", str(path), "--deal", "1", "-t", "0.05", "--no-table", "--no-expert", "--json"])
    assert r.exit_code == 1 and "the record gives totals" in r.stderr and "a damaged record" in r.stderr, r.output
    _validate(json.loads(r.stdout))  # reviewed from its actions, as replay shows it, then the fault named



def test_analyze_json_of_a_deal_and_of_a_position_validates(tmp_path: Path) -> None:
    """Every ``--json`` of ``analyze`` validates against the shipped schema, as ``review``'s does: one deal of a
    record (with its players' names), a position at the opening lead (with its table) and one later in the play."""
    path = _record(tmp_path)
    r = runner.invoke(app, ["analyze", str(path), "--deal", "1", "--json", "--no-table", "-t", "0.05"])
    assert r.exit_code == 0, r.output
    deal = json.loads(r.stdout)
    _validate(deal)
    assert deal["deal"] == 1 and deal["names"] == ["Ann", "Ben", "Cat"]
    opening = "9-5-2 | S | 1 | 0-0-0 | AKJT972..AQ64.AQJ42 / Q843.T843.K532.9873 / 65.AQJ95.JT987.KT65 | -"
    later = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    for text in (opening, later):
        r = runner.invoke(app, ["analyze", text, "--json", "-t", "0.05"])
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
        _validate(doc)
        assert doc["position"] == text and ("table" in doc) == (text == opening)
    deal["names"] = "Ann"  # the schema is no rubber stamp
    with pytest.raises(jsonschema.ValidationError):
        _validate(deal)


def test_review_of_a_position_text_names_analyze(tmp_path: Path) -> None:
    """``review`` given a position text, or a file holding one, says it is no record and which command analyses it
    (it said 'No such file or directory', or 'not valid JSON')."""
    text = "9-5-2 | H | 2 | 2-4-4 | 42..JT98. / ..AQ.AJ94 / 53.T4..T3 | -"
    r = runner.invoke(app, ["review", text])
    assert r.exit_code == 2 and f"{text!r} is a position text, not a game record" in r.stderr, r.output
    assert "sergeant-major analyze '9-5-2 | H" in r.stderr
    path = tmp_path / "pos.txt"
    path.write_text(text + "\n", encoding="utf-8")
    r = runner.invoke(app, ["review", str(path)])
    assert r.exit_code == 2 and f"{str(path)!r} holds a position text" in r.stderr, r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(("rules_t", "contract"), [("8-5-3 players=4 deals=2", "S"), ("3-5-8", "MT")])
def test_open_tricks_of_a_row_cut_short_are_never_negative(rules_t: str, contract: str) -> None:
    """Cells cut short whose upper bounds add up to more than the tricks gave a row ``Open -3..7``: the values add
    up to at most the tricks (minimum tricks: at least), so the open tricks are 0 at least."""
    rules = Rules.parse(rules_t)
    pos = random_position(rules, random.Random(5), tricks_left=rules.tricks, contract=Contract.parse(contract))
    n, total = pos.n, pos.remaining
    wide = [(0, total)] * (len(review_module.table_cells(pos)))  # every cell cut short at once: nothing known
    t = review_module.table_rows(pos, wide, tuple(range(n)), None)
    for row in t["rows"]:
        assert 0 == row["open"][0] <= row["open"][1], row


def test_a_seat_s_tricks_lost_never_exceed_the_deal_s_tricks_when_searches_are_cut_short() -> None:
    """The repro: without numba the searches were cut short and a player with one mistake had "tricks lost 1-49" (the
    high ends of his cards' cost ranges added up, in a deal of 16 tricks). Now a card's cost reaches at most the tricks
    left when it was played, a seat's ``lost_max`` at most the deal's tricks, and the cards whose cost is a range are
    counted (``unsettled``) rather than added; ``lost`` is only what mistakes surely cost."""
    m = _match()
    r = review_match(m, Solver(tt_bits=12), 1e-4, table=False, deals=[1], jobs=1)  # every search cut short at once
    _validate(r)
    d = r["deals"][0]
    total = m.rules.tricks
    for p in d["plays"]:
        assert 0 <= p["cost_range"][0] <= p["cost_range"][1] <= total - p["trick"] + 1, p
    for st in d["seats"]:
        mine = [p for p in d["plays"] if p["seat"] == st["seat"]]
        assert st["unsettled"] == sum(1 for p in mine if p["cost_range"][0] < p["cost_range"][1])
        assert st["lost"] == sum(p["cost_range"][0] for p in mine) <= st["lost_max"] <= total, st
    assert sum(st["unsettled"] for st in d["seats"]) > 0  # the searches were cut short: some costs are ranges
    assert [st["unsettled"] for st in r["seats"]] == [st["unsettled"] for st in d["seats"]]
    exact = review_match(m, Solver(tt_bits=16), None, table=False, deals=[1], jobs=1)
    assert all(st["unsettled"] == 0 and st["lost"] == st["lost_max"] for st in exact["seats"]), exact["seats"]


@pytest.mark.slow
def test_review_without_numba_says_so_once_and_counts_unsettled_cards(tmp_path: Path) -> None:
    """The repro: without numba ``review FILE`` ran for minutes and then said "lost 1..49". Now it says once, before the
    searches, that without numba they run in pure Python (how many, and for how long each at most) and that the costs
    of searches cut short stay ranges; each player's tricks lost are what mistakes surely cost, with the cards whose
    cost is a range counted as unsettled (a column of the match's table, explained under it), never a sum of ranges."""
    path = _record(tmp_path)
    env = {**os.environ, "SERGEANT_MAJOR_NO_NUMBA": "1", "COLUMNS": "200"}  # pure Python, as without the fast extra
    r = subprocess.run([sys.executable, "-m", "sergeant_major", "review", str(path), "--deal", "1", "--no-table",
                        "--no-expert", "-t", "0.0001"], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    err = " ".join(r.stderr.split())
    assert err.count("numba is not available") == 1 and "pure Python" in err, err
    assert "this review of 48 searches, each cut short after 0.0001 s, may take many minutes" in err, err
    assert "ranges lo..hi, counted as unsettled cards, not as tricks lost" in err, err
    out = " ".join(r.stdout.split())
    per_player = out[out.index("Per player:"):]
    assert "cards unsettled" in per_player and not re.search(r"lost \d+\.\.\d+", per_player), per_player
    assert "Unsettled cards" in out and "Unsettled: cards whose cost the time limit left a range" in out, out
    match_table = out[out.index("Tricks lost to mistakes"):]
    assert not re.search(r"\d+\.\.\d+", match_table), match_table  # the tricks lost are no ranges
