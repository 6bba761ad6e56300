"""Where the expert loses: players that see every card in one phase only, head to head against the expert.

Each level plays as the ``oracle`` (:class:`~sergeant_major.players.oracle.OraclePlayer`: the same search on the true
deal) in one phase and as the ``expert`` everywhere else:

* ``pre-oracle``: every decision before the play (targets, gives and returns, the contract, discards);
* ``early-oracle``: card play while more than ``DDS_CARDS`` (27) cards are in the hands (the expert plays those out);
* ``late-oracle``: card play from then on (the expert solves each world double dummy there).

Each is a tournament (:func:`sergeant_major.eval.tournament.tournament`, boards ``--first-board`` on of ``--seed``,
every board in all arrangements) of ``LEVEL,expert,expert``, so the difference ``LEVEL - expert`` is what seeing the
cards in that phase is worth a deal: an upper bound of what reading the table better can gain there (a perfect
reading is seeing the cards), and a pointer to where a better search could gain. The result is the same whatever
the machine's load (counts, not time).

Run: ``python benchmarks/bench_phase_oracles.py [--rules 9-5-2] [--levels pre-oracle early-oracle] [--boards 20]
[--first-board 0] [--seed 1] [--json PREFIX]``. About 7 s of CPU a board and level. Prints one line per level and,
with ``--json``, writes each level's tournament result to ``PREFIX-LEVEL.json`` (chunks of boards run apart merge
with :func:`sergeant_major.eval.tournament.merge_json`).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from sergeant_major.core.actions import Action
from sergeant_major.core.deal import Deal, Phase
from sergeant_major.core.errors import SergeantMajorError
from sergeant_major.core.rules import Rules
from sergeant_major.core.view import View
from sergeant_major.eval import levels
from sergeant_major.eval.tournament import tournament
from sergeant_major.players.oracle import DDS_CARDS, OraclePlayer


def _cards_left(deal: Deal) -> int:
    return sum(h.bit_count() for h in deal.hands)


PHASES: dict[str, Callable[[Deal], bool]] = {
    "pre-oracle": lambda d: d.phase is not Phase.PLAY,
    "early-oracle": lambda d: d.phase is Phase.PLAY and _cards_left(d) > DDS_CARDS,
    "late-oracle": lambda d: d.phase is Phase.PLAY and _cards_left(d) <= DDS_CARDS,
}
"""Per level, the decisions in which it sees every card (given the true deal)."""


class PhaseOracle(OraclePlayer):
    """The oracle in the decisions ``sees(deal)`` picks, the expert (from the view alone) in the others."""

    def __init__(self, name: str, sees: Callable[[Deal], bool]) -> None:
        super().__init__(name)
        self.sees = sees

    def choose_with_state(self, deal: Deal, view: View, rng: random.Random) -> Action:
        """The oracle's choice when this phase sees the cards, else the expert's from ``view``."""
        if self.sees(deal):
            return super().choose_with_state(deal, view, rng)
        return self.choose(view, rng)


LEVEL_HELP = {
    "pre-oracle": "sees every card before the play (targets, gives and returns, the contract, discards)",
    "early-oracle": f"sees every card in the play while more than {DDS_CARDS} cards are in the hands",
    "late-oracle": f"sees every card in the play from {DDS_CARDS} cards in the hands on",
}
"""Per level, what ``--help`` says it sees (the expert's own choices everywhere else)."""


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="levels (each the expert but for one phase, played as LEVEL,expert,expert in every arrangement): "
        + "; ".join(f"{k}: {v}" for k, v in LEVEL_HELP.items())
        + ". Prints LEVEL - expert, the score a deal with its 95% interval. About 7 s of CPU a board and level.")
    ap.add_argument("--rules", default="9-5-2", help="rules string, e.g. '8-5-3 must-trump=on' (default: %(default)s)")
    ap.add_argument("--levels", nargs="+", default=["pre-oracle", "early-oracle"], choices=list(PHASES),
                    metavar="LEVEL", help="levels to measure, one tournament each: %(choices)s "
                    "(default: pre-oracle early-oracle)")
    ap.add_argument("--boards", type=int, default=20, help="boards per level, each in every seat arrangement "
                    "(default: %(default)s)")
    ap.add_argument("--first-board", type=int, default=0, help="the first board's number, to run chunks of "
                    "boards apart (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="the tournament seed (default: %(default)s)")
    ap.add_argument("--json", default=None, metavar="PREFIX", help="write each level's result to PREFIX-LEVEL.json")
    args = ap.parse_args()
    # refused here, quoted, before minutes of play: a blank --rules read as the default preset unseen, and
    # --boards 0 ended in a traceback from the tournament
    if not args.rules.strip():
        ap.error(f"--rules {args.rules!r} names no rules: give a preset and options, e.g. '9-5-2'")
    try:
        rules = str(Rules.parse(args.rules))
    except SergeantMajorError as e:
        ap.error(f"--rules {args.rules!r}: {e}")
    if args.boards < 1 or args.first_board < 0:
        ap.error(f"--boards {args.boards} --first-board {args.first_board}: play at least one board, from board 0 on")
    for name, sees in PHASES.items():
        levels.MEASUREMENT_LEVELS[name] = (lambda n, s: (lambda: PhaseOracle(n, s)))(name, sees)
    for name in args.levels:
        t0 = time.process_time()
        r = tournament(rules, [name, "expert", "expert"], args.boards, seed=args.seed, first_board=args.first_board)
        d = next(x for x in r.differences if x.a == name)
        ci = "" if d.score.ci95 is None else f" ({d.score.low:+.2f} .. {d.score.high:+.2f})"
        print(f"{rules} {name} - expert: {d.score.mean:+.3f}{ci} a deal over {r.boards} boards "
              f"({time.process_time() - t0:.0f} s CPU)", flush=True)
        if args.json:
            with open(f"{args.json}-{name}.json", "w", encoding="utf-8") as f:
                json.dump(r.to_json(), f)


if __name__ == "__main__":
    main()
