"""Small statistics shared by ``simulate`` and ``tournament`` (no third-party dependency)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["t975", "share_interval", "wilson"]

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """Student's t quantile at 0.975 for ``df`` >= 1 degrees of freedom: the factor of a 95% interval's half-width
    over the standard error (12.706 for 1, 2.042 for 30, within 0.002 of the exact value above 30, 1.96 in the limit).

    Raises:
        ValueError: ``df`` below 1.
    """
    if df < 1:
        raise ValueError(f"df={df!r}: a t quantile needs at least 1 degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    return 1.959964 + 2.4 / df


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of a proportion ``p`` (0..1) seen in ``n`` > 0 trials, for the
    normal quantile ``z`` (1.96 for 95%): always inside ``[0, 1]``, and of positive width at ``p = 0`` or ``1``.

    Raises:
        ValueError: ``p`` outside 0..1, or ``n`` or ``z`` not positive.
    """
    if not 0.0 <= p <= 1.0 or not n > 0 or not z > 0:
        raise ValueError(f"wilson(p={p!r}, n={n!r}, z={z!r}): needs 0 <= p <= 1, n > 0 and z > 0")
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def share_interval(shares: Sequence[float], cluster: int) -> tuple[float, float] | None:
    """95% Wilson score interval ``(low, high)``, inside ``[0, 1]``, of the mean of ``shares``: one proportion
    (0..1) per independent unit, each the mean of ``cluster`` >= 1 correlated results (a match seed's
    share of wins over its seat arrangements). ``None`` with fewer than 2 units.

    The interval is Wilson's with the effective number of trials ``p (1 - p) / se**2`` (Kish), ``se`` the
    standard error of the mean over the units, kept between the number of units ``M`` and ``M * cluster``
    (a design effect between 1 and ``cluster``); at ``p = 0`` or ``1``, where the spread cannot be estimated,
    ``M`` (the cautious end). ``z`` is Student's ``t(0.975, M - 1)``, as for the other intervals.

    Raises:
        ValueError: a share outside 0..1, or ``cluster`` below 1.
    """
    m = len(shares)
    if cluster < 1 or any(not 0.0 <= x <= 1.0 for x in shares):
        raise ValueError(f"share_interval: shares must lie in 0..1 and cluster={cluster!r} be at least 1")
    if m < 2:
        return None
    p = min(1.0, max(0.0, math.fsum(shares) / m))
    var = math.fsum((x - p) ** 2 for x in shares) / (m - 1) / m  # the squared standard error of the mean
    if p <= 0.0 or p >= 1.0:
        n_eff = float(m)
    elif var <= 0.0:
        n_eff = float(m * cluster)
    else:
        n_eff = min(float(m * cluster), max(float(m), p * (1.0 - p) / var))
    return wilson(p, n_eff, t975(m - 1))
