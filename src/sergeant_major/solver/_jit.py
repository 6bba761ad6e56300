"""The Numba shim: :func:`jit` compiles with ``numba.njit(cache=True)`` when numba is installed (the
``fast`` extra) and leaves the function as plain Python otherwise, so the same source runs either way.

Set the environment variable ``SERGEANT_MAJOR_NO_NUMBA=1`` before the first import to force the
pure-Python path (the tests use it to check that both paths agree).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["HAVE_NUMBA", "jit", "int_array", "int_matrix"]

F = TypeVar("F", bound=Callable[..., Any])

_njit: Any = None
if not os.environ.get("SERGEANT_MAJOR_NO_NUMBA"):
    try:
        from numba import njit as _njit
    except ImportError:  # the fast extra is not installed: run the same source as Python
        _njit = None

HAVE_NUMBA: bool = _njit is not None


def jit(f: F) -> F:
    """Compile ``f`` with ``numba.njit(cache=True)`` if numba is available, else return it unchanged."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=True)(f))


def jit_nocache(f: F) -> F:
    """As :func:`jit` without the on-disk cache (numba's cache of self-recursive functions can crash on load)."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=False)(f))


def int_array(values: list[int] | int) -> Any:
    """A 1-d int64 array: a numpy array under numba, a plain list otherwise (numpy may be absent).

    ``values`` is either the contents or a length (zeros).
    """
    vals = [0] * values if isinstance(values, int) else list(values)
    if HAVE_NUMBA:
        import numpy as np

        return np.array(vals, dtype=np.int64)
    return vals


def int_matrix(rows: int, cols: int) -> Any:
    """A ``rows x cols`` int64 matrix of zeros (numpy under numba, a list of lists otherwise)."""
    if HAVE_NUMBA:
        import numpy as np

        return np.zeros((rows, cols), dtype=np.int64)
    return [[0] * cols for _ in range(rows)]
