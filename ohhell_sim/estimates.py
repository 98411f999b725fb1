"""Estimates with confidence intervals on arrays, in one tidy convention.

Every estimate is an :class:`Estimate` (``estimate``, ``low``, ``high``, ``n``,
``method``) and every table of estimates is a frame with the grouping columns
followed by :data:`ESTIMATE_COLUMNS`.  Quantiles and the Wilson interval come
from :mod:`scipy.stats` and :mod:`statsmodels`; corrections for many
comparisons from :mod:`statsmodels.stats.multitest`.  The estimators of
frames (per group, paired by game, bootstrapped over games) are in
:mod:`ohhell_sim.analysis.stats`, above the results; these are below them, so
that the results and the summary mode can put intervals on what they count.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import stats as _scipy_stats

from ohhell_sim.errors import InvalidArgumentError

#: Columns every table of estimates ends with.
ESTIMATE_COLUMNS = ("n", "estimate", "low", "high", "method")

T_METHOD = "Student t"
PAIRED_METHOD = "paired t over games"
CLUSTER_METHOD = "cluster-robust t (clustered by game)"
WILSON_METHOD = "Wilson score"
BOOTSTRAP_METHOD = "percentile bootstrap over games"
STANDARDISED_METHOD = "stratum-standardised mean, cluster-robust t"

_FloatArray = NDArray[np.float64]


class Estimate(NamedTuple):
    """An estimate with its two-sided confidence interval.

    Attributes
    ----------
    estimate, low, high : float
        The point estimate and the interval's bounds (NaN when undefined).
    n : int
        Observations behind it (rows, or pairs for a paired difference).
    method : str
        How the interval was computed.
    """

    estimate: float
    low: float
    high: float
    n: int
    method: str

    def row(self) -> dict[str, object]:
        """The estimate as a dict with the keys of :data:`ESTIMATE_COLUMNS`."""
        return {
            "n": self.n,
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "method": self.method,
        }


def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t distribution (``scipy.stats.t.ppf``).

    Parameters
    ----------
    p : float
        Probability, strictly between 0 and 1.
    df : float
        Degrees of freedom, positive; need not be an integer.  ``math.inf`` gives
        the standard normal quantile.

    Returns
    -------
    float
        The value ``t`` with ``P(T <= t) = p``.

    Raises
    ------
    ValueError
        If ``p`` is not in (0, 1) or ``df`` is not positive.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p!r}")
    if not df > 0.0:
        raise ValueError(f"df must be positive, got {df!r}")
    if math.isinf(df):
        return float(_scipy_stats.norm.ppf(p))
    return float(_scipy_stats.t.ppf(p, df))


def check_confidence(confidence: object) -> float:
    """Return ``confidence`` as a float, or raise unless it is a number in (0, 1)."""
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, numbers.Real)
        or not 0.0 < confidence < 1.0
    ):
        raise InvalidArgumentError(
            f"confidence must be in (0, 1), a number such as 0.95, got {confidence!r}"
        )
    return float(confidence)


def _as_1d(values: ArrayLike, name: str) -> _FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    return array


def _t_estimate(
    mean: float, se: float, df: float, n: int, confidence: float, method: str
) -> Estimate:
    half = t_quantile(0.5 + confidence / 2.0, df) * se
    return Estimate(mean, mean - half, mean + half, n, method)


def mean_ci(values: ArrayLike, confidence: float = 0.95) -> Estimate:
    """Mean with a Student-t confidence interval.

    Parameters
    ----------
    values : array_like
        One-dimensional sample of independent observations.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate
        With fewer than two observations the bounds are NaN (and so is the mean
        of an empty sample).

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1) or ``values`` is not one-dimensional.
    """
    confidence = check_confidence(confidence)
    x = _as_1d(values, "values")
    if x.size < 2:
        mean = float(x.mean()) if x.size else math.nan
        return Estimate(mean, math.nan, math.nan, x.size, T_METHOD)
    se = float(x.std(ddof=1)) / math.sqrt(x.size)
    return _t_estimate(float(x.mean()), se, x.size - 1, x.size, confidence, T_METHOD)


def frequency_mean_ci(values: ArrayLike, counts: ArrayLike, confidence: float = 0.95) -> Estimate:
    """Mean with a Student-t confidence interval, for a sample given as a histogram.

    The same interval as :func:`mean_ci` on the sample in which ``values[i]``
    occurs ``counts[i]`` times, computed without expanding it (a summary run's
    histograms hold millions of observations).

    Parameters
    ----------
    values : array_like
        One-dimensional distinct observed values.
    counts : array_like
        Non-negative integer count of each value, same length.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate
        NaN as in :func:`mean_ci` for fewer than two observations.

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1), the arrays differ in shape or a count
        is negative.
    """
    confidence = check_confidence(confidence)
    v = _as_1d(values, "values")
    c = _as_1d(counts, "counts")
    if v.shape != c.shape:
        raise ValueError(f"values and counts must have the same shape, got {v.shape} and {c.shape}")
    if np.any(c < 0):
        raise ValueError("counts must be non-negative")
    n = float(c.sum())
    if n < 2:
        mean = float((v * c).sum() / n) if n else math.nan
        return Estimate(mean, math.nan, math.nan, int(n), T_METHOD)
    mean = float((v * c).sum() / n)
    sd = math.sqrt(float((c * (v - mean) ** 2).sum()) / (n - 1.0))
    return _t_estimate(mean, sd / math.sqrt(n), n - 1, int(n), confidence, T_METHOD)


def proportion_ci(successes: ArrayLike, trials: ArrayLike, confidence: float = 0.95) -> Estimate:
    """Proportion with a Wilson score confidence interval (``statsmodels``).

    Parameters
    ----------
    successes, trials : array_like
        Counts of independent Bernoulli trials; broadcast elementwise.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate
        Floats for scalar inputs, arrays of the broadcast shape otherwise (``n``
        too).  Entries with ``trials == 0`` are NaN.

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1), a count is negative, or
        ``successes > trials``.
    """
    from statsmodels.stats.proportion import proportion_confint

    confidence = check_confidence(confidence)
    s, n = np.broadcast_arrays(
        np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    )
    if np.any(n < 0) or np.any(s < 0):
        raise ValueError("successes and trials must be non-negative")
    if np.any(s > n):
        raise ValueError("successes must not exceed trials")
    empty = n == 0
    n_safe = np.where(empty, 1.0, n)
    low, high = proportion_confint(s, n_safe, alpha=1.0 - confidence, method="wilson")
    values = [np.where(empty, np.nan, v) for v in (s / n_safe, low, high)]
    if s.ndim == 0:
        return clip_rate(Estimate(*(float(v) for v in values), int(n), WILSON_METHOD))
    return clip_rate(Estimate(*values, n.astype(np.int64), WILSON_METHOD))


def clip_rate(estimate: Estimate) -> Estimate:
    """The estimate with its bounds clipped to [0, 1], for a rate or a share.

    A Student-t interval of a rate can cross 0 or 1 in small samples, and a
    Wilson bound may miss 0 or 1 by rounding; array fields are clipped
    elementwise.
    """
    low, high = np.clip(estimate.low, 0.0, 1.0), np.clip(estimate.high, 0.0, 1.0)
    if np.ndim(low) == 0:
        low, high = float(low), float(high)
    return estimate._replace(low=low, high=high)


def paired_difference_ci(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Estimate:
    """Mean of ``a - b`` with a Student-t interval over the paired differences.

    Use it when ``a[i]`` and ``b[i]`` share their randomness (e.g. the same seeds
    played by two strategies): pairing removes the shared variance.

    Parameters
    ----------
    a, b : array_like
        One-dimensional samples of equal length; ``(a[i], b[i])`` is one pair.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate
        As :func:`mean_ci` of ``a - b``; ``n`` counts the pairs.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length or ``confidence`` is not in (0, 1).
    """
    x = _as_1d(a, "a")
    y = _as_1d(b, "b")
    if x.size != y.size:
        raise ValueError(f"a and b must have the same length, got {x.size} and {y.size}")
    return mean_ci(x - y, confidence)._replace(method=PAIRED_METHOD)


def clustered_mean_ci(values: ArrayLike, clusters: ArrayLike, confidence: float = 0.95) -> Estimate:
    """Mean with a cluster-robust confidence interval.

    The observations of one cluster may be correlated; clusters are independent.
    The mean is the ratio estimator ``sum(y_g) / sum(m_g)`` of the cluster sums
    ``y_g`` and sizes ``m_g``, and its variance is estimated by linearisation,
    ``G / (G - 1) * sum((y_g - mean * m_g)**2) / (sum(m_g))**2`` for ``G``
    clusters, with a Student-t quantile on ``G - 1`` degrees of freedom.  When
    every cluster holds one observation this is exactly :func:`mean_ci`.

    Parameters
    ----------
    values : array_like
        One-dimensional observations (use 0/1 values for a rate).
    clusters : array_like
        Cluster label of each observation, e.g. the game number; any sortable
        labels.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate
        The bounds are NaN with fewer than two clusters.

    Raises
    ------
    ValueError
        If ``values`` and ``clusters`` differ in length or ``confidence`` is not
        in (0, 1).
    """
    return standardised_mean_ci(values, np.zeros(np.shape(values)), clusters, confidence)._replace(
        method=CLUSTER_METHOD
    )


def standardised_mean_ci(
    values: ArrayLike, strata: ArrayLike, clusters: ArrayLike, confidence: float = 0.95
) -> Estimate:
    """Mean standardised over strata (each stratum weighs the same), cluster-robust interval.

    The estimate is the unweighted average of the strata's means, so a pooled
    comparison of two groups follows the comparisons within strata even when
    the groups' rows are spread over the strata unequally (Simpson's paradox).
    Its variance is estimated by linearisation over clusters, which may span
    several strata: cluster ``g`` contributes ``z_g = sum_s (y_gs - mean_s *
    m_gs) / (S * M_s)`` for its sum ``y_gs`` and count ``m_gs`` in stratum ``s``
    of ``M_s`` rows, and the variance is ``G / (G - 1) * sum(z_g**2)`` with a
    Student-t quantile on ``G - 1`` degrees of freedom.  With one stratum this is
    :func:`clustered_mean_ci`.

    Parameters
    ----------
    values : array_like
        One-dimensional observations.
    strata : array_like
        Stratum label of each observation.
    clusters : array_like
        Cluster label of each observation (the game).
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    Estimate

    Raises
    ------
    ValueError
        If the arrays differ in length or ``confidence`` is not in (0, 1).
    """
    confidence = check_confidence(confidence)
    x = _as_1d(values, "values")
    strata, clusters = np.asarray(strata), np.asarray(clusters)
    if strata.shape != x.shape or clusters.shape != x.shape:
        raise ValueError(
            f"values, strata and clusters must have the same length, got {x.size}, "
            f"{strata.size} and {clusters.size}"
        )
    if x.size == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, STANDARDISED_METHOD)
    mean, _, z = standardised_influence(x, strata, clusters)
    n_clusters = z.size
    if n_clusters < 2:
        return Estimate(mean, math.nan, math.nan, x.size, STANDARDISED_METHOD)
    variance = n_clusters / (n_clusters - 1) * float(z @ z)
    return _t_estimate(
        mean, math.sqrt(variance), n_clusters - 1, x.size, confidence, STANDARDISED_METHOD
    )


def standardised_influence(
    values: ArrayLike, strata: ArrayLike, clusters: ArrayLike
) -> tuple[float, np.ndarray, _FloatArray]:
    """The standardised mean of :func:`standardised_mean_ci` and each cluster's influence on it.

    Returns
    -------
    tuple
        ``(mean, labels, z)``: the mean, the distinct cluster labels (sorted) and
        each one's ``z_g``, whose sum of squares (times ``G / (G - 1)``) is the
        mean's variance.  Two estimates over the same clusters (two strategy
        fields played on the same cards) have the covariance ``sum(z1 * z2)``
        (times ``G / (G - 1)``), which a test comparing them needs.
    """
    x = np.asarray(values, dtype=np.float64)
    _, stratum_of = np.unique(np.asarray(strata), return_inverse=True)
    labels, cluster_of = np.unique(np.asarray(clusters), return_inverse=True)
    sizes = np.bincount(stratum_of).astype(np.float64)
    means = np.bincount(stratum_of, weights=x) / sizes
    residual = (x - means[stratum_of]) / (sizes.size * sizes[stratum_of])
    return float(means.mean()), labels, np.bincount(cluster_of, weights=residual)


def adjust_pvalues(pvalues: ArrayLike, method: str = "holm") -> _FloatArray:
    """P-values adjusted for many comparisons (``statsmodels.stats.multitest``).

    Parameters
    ----------
    pvalues : array_like
        One-dimensional raw p-values, in [0, 1].
    method : str, default "holm"
        Any method of :func:`statsmodels.stats.multitest.multipletests`, e.g.
        ``"holm"`` (family-wise error, valid under any dependence),
        ``"bonferroni"`` or ``"fdr_bh"`` (false discovery rate).

    Returns
    -------
    ndarray
        Adjusted p-values in the order given; reject a hypothesis at level
        ``alpha`` when its adjusted p-value is at most ``alpha``.

    Raises
    ------
    ValueError
        If a p-value is outside [0, 1] or ``method`` is unknown.
    """
    from statsmodels.stats.multitest import multipletests

    p = _as_1d(pvalues, "pvalues")
    if np.any((p < 0) | (p > 1)) or np.any(np.isnan(p)):
        raise ValueError("pvalues must lie in [0, 1]")
    if p.size == 0:
        return p
    return multipletests(p, method=method)[1]


def estimate_frame(rows: Iterable[dict[str, object]], by: Sequence[str]) -> pd.DataFrame:
    """A tidy table: the ``by`` columns, then :data:`ESTIMATE_COLUMNS`, one row per dict."""
    return pd.DataFrame(list(rows), columns=[*by, *ESTIMATE_COLUMNS])


def store_interval(row: dict[str, float], base: str, interval: Estimate) -> None:
    """Put an estimate into a wide ``row`` as ``base``, ``base_low``, ``base_high``.

    The wide layout of :class:`~ohhell_sim.summary.SummaryResult`'s count tables.
    """
    row[base], row[f"{base}_low"], row[f"{base}_high"] = (
        float(interval.estimate),
        float(interval.low),
        float(interval.high),
    )
