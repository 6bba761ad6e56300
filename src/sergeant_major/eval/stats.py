"""Small statistics shared by ``simulate`` and ``tournament`` (no third-party dependency)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sergeant_major.core.errors import SergeantMajorError

__all__ = ["t975", "share_interval", "wilson", "cluster_ratio_ci", "Estimate", "share_ci", "mean_ci"]

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


def cluster_ratio_ci(totals: Sequence[int], sizes: Sequence[int]) -> tuple[float, float | None]:
    """The cluster ratio estimate ``sum(totals) / sum(sizes)`` and the half-width of its 95% interval.

    ``totals[m]`` is a cluster's total (a slot's score over match ``m``) and ``sizes[m]`` its size (the match's
    deals). The standard error is cluster-robust, ``sqrt(M/(M-1) * sum((T_m - mean*D_m)^2)) / sum(D_m)`` over the
    ``M`` clusters, and the half-width ``t975(M-1)`` times it; ``None`` with fewer than 2 clusters.

    Raises:
        ZeroDivisionError: ``sizes`` add up to 0.
    """
    m = len(totals)
    dsum = sum(sizes)
    mean = sum(totals) / dsum
    if m < 2:
        return mean, None
    ss = sum((t - mean * d) ** 2 for t, d in zip(totals, sizes, strict=True))
    se = math.sqrt(m / (m - 1) * ss) / dsum
    return mean, t975(m - 1) * se


@dataclass(frozen=True)
class Estimate:
    """A mean over independent units and its 95% confidence interval.

    Attributes:
        mean: the mean.
        ci95: half-width of the 95% interval (Student's t), ``None`` with fewer than 2 units; for an interval
            of its own (:attr:`bounds`), half its width.
        units: the number of independent units (boards or match seeds).
        bounds: ``(low, high)`` of an interval that is not ``mean +- ci95`` (win rates: Wilson's score interval,
            inside 0..1), else ``None``.
    """

    mean: float
    ci95: float | None
    units: int
    bounds: tuple[float, float] | None = None

    @property
    def low(self) -> float | None:
        """Lower end of the interval."""
        if self.bounds is not None:
            return self.bounds[0]
        return None if self.ci95 is None else self.mean - self.ci95

    @property
    def high(self) -> float | None:
        """Upper end of the interval."""
        if self.bounds is not None:
            return self.bounds[1]
        return None if self.ci95 is None else self.mean + self.ci95

    def text(self, digits: int = 3) -> str:
        """``'+0.412 ± 0.051'``; with :attr:`bounds`, ``'+0.412 (+0.371 .. +0.455)'``."""
        if self.bounds is not None:
            lo, hi = self.bounds
            return f"{self.mean:+.{digits}f} ({lo:+.{digits}f} .. {hi:+.{digits}f})"
        return f"{self.mean:+.{digits}f}" + ("" if self.ci95 is None else f" ± {self.ci95:.{digits}f}")


def share_ci(shares: Sequence[float], cluster: int) -> Estimate:
    """Mean of ``shares`` (one proportion 0..1 per independent unit, each over ``cluster`` correlated results)
    with its 95% Wilson score interval (:func:`~sergeant_major.eval.stats.share_interval`): ``bounds`` inside 0..1,
    of positive width also when the mean is 0 or 1; no interval with fewer than 2 units.

    Raises:
        SergeantMajorError: when ``shares`` is empty, a share is outside 0..1 or ``cluster`` is below 1.
    """
    k = len(shares)
    if k == 0:
        raise SergeantMajorError("no values to average")
    try:
        bounds = share_interval(shares, cluster)
    except ValueError as e:
        raise SergeantMajorError(str(e)) from None
    mean = math.fsum(shares) / k
    if bounds is None:
        return Estimate(mean, None, k)
    return Estimate(mean, (bounds[1] - bounds[0]) / 2, k, bounds)


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean of ``values`` (independent units) with the 95% interval ``t(0.975, k-1) * sd / sqrt(k)``.

    Raises:
        SergeantMajorError: when ``values`` is empty.
    """
    k = len(values)
    if k == 0:
        raise SergeantMajorError("no values to average")
    mean = math.fsum(values) / k
    if k < 2:
        return Estimate(mean, None, k)
    var = math.fsum((v - mean) ** 2 for v in values) / (k - 1)
    return Estimate(mean, t975(k - 1) * math.sqrt(var / k), k)
