"""Compiled play kernels, the double-dummy solver and positions (issue 5).

* :class:`Position` - the trick phase with every hand known, and its one-line text;
* :func:`solve`, :func:`can_reach`, :class:`Solver` - the double-dummy solver (:mod:`.solver`);
* :func:`playouts` - random or cheap-policy play-outs of the remaining tricks (:mod:`.playout`).

The hot kernels are compiled with Numba when the ``fast`` extra is installed (``HAVE_NUMBA``);
otherwise the same source runs as Python, slowly.
"""

from __future__ import annotations

from sergeant_major.search.jit import HAVE_NUMBA
from sergeant_major.search.position import Position, PositionError, format_hand, parse_hand
from sergeant_major.search.solver import Solution, Solver, SolverTimeout, can_reach, card_values, default_solver, solve

__all__ = [
    "HAVE_NUMBA", "Position", "PositionError", "format_hand", "parse_hand", "Solution", "Solver", "SolverTimeout",
    "can_reach", "card_values", "default_solver", "solve",
]
