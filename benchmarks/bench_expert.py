"""Decision time of the ``expert`` player over whole games (issue "Computer players that play well": median at
most 0.3 s and 95th percentile at most 1 s per decision, one process).

Plays whole matches (``--games``, seeds 0, 1, ...; each ends by the rules or after ``--max-deals``) with the expert
in seat 0 against two ``heuristic`` players and times every decision the expert is asked for (forced steps are
not decisions and are not asked). Times are CPU time of this process (``time.process_time``: fair on a shared,
loaded machine) and wall time. The expert's kernels are compiled or loaded before the first match (as ``play`` does
before a match), and the first decision is left out: with an empty numba cache the search, first used with 27
cards left, compiled inside that decision (18-23 s of CPU in one card of deal 1 of seed 0).

Run: ``python benchmarks/bench_expert.py [--rules 9-5-2] [--games 4] [--think 1.0] [--think-before-play 1.0]
[--max-deals 6] [--uniform]``
(``--uniform``: the expert without inference, level ``expert-uniform``, for the same figures side by side).
Prints a table per phase and one JSON line at the end.

Calibrating the ``ismcts`` level (equal time per decision, issue "Computer players that play well"):
``--boards B --ismcts 5 10 20`` plays tournament boards ``0..B-1`` of ``--seed`` instead of matches
(:func:`sergeant_major.eval.tournament.make_board`: deal 2 after a heuristic deal 1, the expert in seat
``b mod 3``, heuristic players elsewhere) and asks :class:`~sergeant_major.research.ismcts.ISMCTSPlayer` with each
simulation count for the **same** views the expert is asked (its answer is not played), so that the mean CPU
time per decision of the expert and of each count are measured side by side on the same decisions.

Checking it in the games of a figure: ``--players expert,ismcts,ismcts --boards B [--first-board F]`` plays
tournament boards ``F+1..F+B`` (board ``F`` first, untimed, as a warm-up) in every arrangement, exactly as
``tournament`` does, and reports each level's mean and median CPU time per decision.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sergeant_major.core.actions import Action
from sergeant_major.core.match import Match
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.players import HeuristicPlayer, Player, decision_rng
from sergeant_major.players.expert import ExpertPlayer
from sergeant_major.players.expert import warm_up as expert_warm_up
from sergeant_major.search.solver import warm_up as solver_warm_up


def _q(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(rules: Rules, games: int, think: float, max_deals: int, uniform: bool = False,
        think_before_play: float = 1.0) -> dict[str, object]:
    model = {"model": None} if uniform else {}
    expert = ExpertPlayer(think=think, think_before_play=think_before_play, **model)
    heur = HeuristicPlayer()
    expert_warm_up()  # the play-outs here; with an empty numba cache the search compiles in another process
    solver_warm_up()  # waits for that process and loads the search: no decision is charged its compile
    cpu: dict[str, list[float]] = {}
    wall: list[float] = []
    first = True
    deals = 0
    for seed in range(games):
        m = Match(rules, seed)
        players = [expert] + [heur] * (rules.players - 1)
        while not m.over and len(m.deals) <= max_deals:
            f = m.forced_action()
            if f is not None:
                m.apply(f)
                continue
            s = m.to_act
            assert s is not None
            v = m.view(s)
            rng = decision_rng(seed, s, m.deal.number, len(m.deal.history))
            c0, w0 = time.process_time(), time.perf_counter()
            a = players[s].choose(v, rng)
            c1, w1 = time.process_time(), time.perf_counter()
            if s == 0 and not first:
                cpu.setdefault(v.phase.value, []).append(c1 - c0)
                wall.append(w1 - w0)
            first = first and s != 0
            m.apply(a)
        deals += len(m.results)
    every = [x for xs in cpu.values() for x in xs]
    out: dict[str, object] = {
        "rules": str(rules), "games": games, "deals": deals, "think": think, "think_before_play": think_before_play,
        "uniform": uniform, "decisions": len(every),
        "cpu_median": statistics.median(every), "cpu_p95": _q(every, 0.95), "cpu_max": max(every),
        "wall_median": statistics.median(wall), "wall_p95": _q(wall, 0.95),
        "phases": {k: {"n": len(v), "median": statistics.median(v), "p95": _q(v, 0.95), "max": max(v)} for k, v in cpu.items()},
    }
    return out


def calibrate(rules: Rules, boards: int, seed: int, think: float, counts: list[int]) -> dict[str, object]:
    """Mean CPU seconds per decision of the expert and of ISMCTS with each of ``counts`` simulations, on the
    same views (tournament boards ``0..boards-1`` of ``seed``, the expert in seat ``b mod n``)."""
    from sergeant_major.eval.tournament import _play_board, make_board
    from sergeant_major.research.ismcts import ISMCTSPlayer

    expert = ExpertPlayer(think=think)
    bots = {k: ISMCTSPlayer(simulations=k) for k in counts}
    times: dict[str, list[float]] = {"expert": [], **{f"ismcts{k}": [] for k in counts}}
    first = [True]

    class Timed(ExpertPlayer):
        def choose(self, view: View, rng: random.Random) -> Action:
            before = rng.getstate()
            c0 = time.process_time()
            a = expert.choose(view, rng)
            c1 = time.process_time()
            for k, b in bots.items():
                r = random.Random()
                r.setstate(before)  # the generator the expert got: as in a tournament game
                t0 = time.process_time()
                b.choose(view, r)
                if not first[0]:
                    times[f"ismcts{k}"].append(time.process_time() - t0)
            if not first[0]:
                times["expert"].append(c1 - c0)
            first[0] = False
            return a

    n = rules.players
    for b in range(boards):
        board = make_board(rules, seed, b)
        players: list[Player] = [HeuristicPlayer() for _ in range(n)]
        players[b % n] = Timed(think=think)
        _play_board(rules, board, players, None)
    return {"rules": str(rules), "boards": boards, "seed": seed, "think": think, "decisions": len(times["expert"]),
            **{f"{k}_mean": statistics.fmean(v) for k, v in times.items() if v},
            **{f"{k}_median": statistics.median(v) for k, v in times.items() if v}}


def in_tournament(rules: Rules, levels: list[str], boards: int, first: int, seed: int) -> dict[str, object]:
    """Mean CPU seconds per decision of each level in the tournament's own games: boards
    ``first..first+boards-1`` of ``seed`` played in every arrangement (:func:`tournament.play_board_game`, as
    ``tournament --players ...`` plays them), every decision of every level timed (the ``oracle`` is not)."""
    import sergeant_major.eval.tournament as tm
    from sergeant_major.eval.levels import make_player
    from sergeant_major.players.oracle import OraclePlayer

    times: dict[str, list[float]] = {}

    class Timed:
        def __init__(self, level: str) -> None:
            self.inner = make_player(level)
            self.name = self.inner.name
            self.level = level

        def choose(self, view: View, rng: random.Random) -> Action:
            c0 = time.process_time()
            a = self.inner.choose(view, rng)
            times.setdefault(self.level, []).append(time.process_time() - c0)
            return a

    def timed_player(level: str) -> Player:
        p = make_player(level)
        return p if isinstance(p, OraclePlayer) else Timed(level)

    tm.make_player = timed_player  # type: ignore[assignment]
    tm.play_board_game(rules, levels, seed, first)  # warm-up (numba loads its kernels), not counted
    times.clear()
    for b in range(first + 1, first + 1 + boards):
        tm.play_board_game(rules, levels, seed, b)
    return {"rules": str(rules), "players": ",".join(levels), "boards": boards, "first": first + 1, "seed": seed,
            **{f"{k}_decisions": len(v) for k, v in times.items()},
            **{f"{k}_mean": statistics.fmean(v) for k, v in times.items()},
            **{f"{k}_median": statistics.median(v) for k, v in times.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="9-5-2")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--think-before-play", type=float, default=1.0,
                    help="multiplies the counts of the decisions before the play only (ExpertPlayer(think_before_play=...))")
    ap.add_argument("--max-deals", type=int, default=6, help="stop a match after this many deals")
    ap.add_argument("--uniform", action="store_true", help="time expert-uniform (no inference) instead of the expert")
    ap.add_argument("--boards", type=int, default=0, help="with --ismcts or --players: tournament boards to play (0: 10)")
    ap.add_argument("--seed", type=int, default=1, help="with --ismcts or --players: the tournament seed of the boards")
    ap.add_argument("--ismcts", type=int, nargs="*", default=[], help="ISMCTS simulation counts to time on the expert's views")
    ap.add_argument("--players", default="", help="with --boards: time every level's decisions in these tournament games")
    ap.add_argument("--first-board", type=int, default=0, help="with --players: the first board (a warm-up, not timed)")
    a = ap.parse_args()
    if a.players:
        rules = Rules.parse(a.rules)
        levels = a.players.split(",")
        from sergeant_major.eval.levels import make_player
        if len(levels) != rules.players:
            ap.error(f"--players {a.players!r}: give {rules.players} levels, one per seat, for {rules}")
        from sergeant_major.core.errors import SergeantMajorError
        for lv in sorted(set(levels)):
            try:
                make_player(lv)
            except SergeantMajorError as e:  # quotes the unknown level
                ap.error(f"--players {a.players!r}: {e}")
        if a.boards < 0 or a.first_board < 0:
            ap.error(f"--boards {a.boards} / --first-board {a.first_board}: use whole numbers >= 0")
        res = in_tournament(rules, levels, a.boards or 10, a.first_board, a.seed)
        for k, v in res.items():
            print(f"{k:20} {v:.4f}" if isinstance(v, float) else f"{k:20} {v}")
        print(json.dumps(res))
        return
    if a.ismcts:
        cal = calibrate(Rules.parse(a.rules), a.boards or 10, a.seed, a.think, a.ismcts)
        for k, v in cal.items():
            print(f"{k:16} {v:.4f}" if isinstance(v, float) else f"{k:16} {v}")
        print(json.dumps(cal))
        return
    res = run(Rules.parse(a.rules), a.games, a.think, a.max_deals, a.uniform, a.think_before_play)
    print(f"{res['rules']}: {res['decisions']} {'expert-uniform' if a.uniform else 'expert'} decisions over "
          f"{res['deals']} deals, think={res['think']}, think_before_play={res['think_before_play']}")
    print(f"{'phase':10} {'n':>5} {'median s':>9} {'p95 s':>7} {'max s':>7}   (CPU time)")
    for k, v in res["phases"].items():  # type: ignore[attr-defined]
        print(f"{k:10} {v['n']:5d} {v['median']:9.3f} {v['p95']:7.3f} {v['max']:7.3f}")
    print(f"{'all':10} {res['decisions']:5d} {res['cpu_median']:9.3f} {res['cpu_p95']:7.3f} {res['cpu_max']:7.3f}"
          f"   wall: median {res['wall_median']:.3f} p95 {res['wall_p95']:.3f}")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
