"""Confidence intervals and per-strategy summaries of simulation results.

Everything here is plain numpy/pandas: the Student-t quantile comes from a
regularised incomplete beta function (continued fraction) inverted by bisection,
so the package needs no scipy.

Deals of one game are not independent observations: the same players, scores and
seating carry over from deal to deal, and one strategy may sit in several seats of
the same game.  Rates measured per deal therefore use :func:`clustered_mean_ci`
with the game as the cluster, and per-game quantities are first averaged over the
seats a strategy holds in each game.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from functools import lru_cache

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "clustered_mean_ci",
    "format_summary",
    "frequency_mean_ci",
    "mean_ci",
    "paired_difference_ci",
    "proportion_ci",
    "store_interval",
    "strategy_summary",
    "t_quantile",
]

_EPS = 1e-15
_TINY = 1e-300
_MAX_CF_TERMS = 100_000

#: Columns that :func:`strategy_summary` reports with a confidence interval.
_INTERVAL_COLUMNS = ("mean_total", "mean_score", "made_rate", "zero_bid_rate", "win_share")
#: Of those, the ones that are probabilities, whose intervals are clipped to [0, 1].
_RATE_COLUMNS = ("made_rate", "zero_bid_rate", "win_share")
_SUMMARY_COLUMNS = (
    "seats",
    *(f"{base}{suffix}" for base in _INTERVAL_COLUMNS for suffix in ("", "_low", "_high")),
)
_HANDS_COLUMNS = ("game", "strategy", "bid", "tricks", "score")
_GAMES_COLUMNS = ("game", "strategy", "total", "win_share")

_NAN3 = (math.nan, math.nan, math.nan)

_FloatArray = NDArray[np.float64]


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_CF_TERMS):
        # Each m contributes an even and an odd term of the fraction.
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge ({a}, {b}, {x})")


def _regularized_beta(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta function I_x(a, b) for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    # The fraction converges fast only left of the mode; use the symmetry
    # I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def _t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for t >= 0 and Student-t T with ``df`` degrees of freedom."""
    if math.isinf(df):
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    return 0.5 * _regularized_beta(0.5 * df, 0.5, df / (df + t * t))


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t distribution.

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
        The value ``t`` with ``P(T <= t) = p``, accurate to a few units in the
        last place of the tail probability.

    Raises
    ------
    ValueError
        If ``p`` is not in (0, 1) or ``df`` is not positive.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p!r}")
    if not df > 0.0:
        raise ValueError(f"df must be positive, got {df!r}")
    if p == 0.5:
        return 0.0
    tail = min(p, 1.0 - p)
    hi = 1.0
    while _t_upper_tail(hi, df) > tail:
        hi *= 2.0
    lo = 0.0 if hi == 1.0 else hi / 2.0
    # Bisect to full double precision: stop when the midpoint is no longer
    # strictly inside the bracket.
    while True:
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            break
        if _t_upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return hi if p > 0.5 else -hi


def _check_confidence(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return float(confidence)


def _as_1d(values: ArrayLike, name: str) -> _FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    return array


def mean_ci(values: ArrayLike, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with a Student-t confidence interval.

    Parameters
    ----------
    values : array_like
        One-dimensional sample of independent observations.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    tuple of float
        ``(mean, low, high)``.  With fewer than two observations the bounds are
        NaN (and so is the mean of an empty sample).

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1) or ``values`` is not one-dimensional.
    """
    confidence = _check_confidence(confidence)
    x = _as_1d(values, "values")
    if x.size == 0:
        return _NAN3
    mean = float(x.mean())
    if x.size < 2:
        return mean, math.nan, math.nan
    return _t_interval(mean, float(x.std(ddof=1)), x.size, confidence)


def frequency_mean_ci(
    values: ArrayLike, counts: ArrayLike, confidence: float = 0.95
) -> tuple[float, float, float]:
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
    tuple of float
        ``(mean, low, high)``, NaN as in :func:`mean_ci` for fewer than two
        observations.

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1), the arrays differ in shape or a count
        is negative.
    """
    confidence = _check_confidence(confidence)
    v = _as_1d(values, "values")
    c = _as_1d(counts, "counts")
    if v.shape != c.shape:
        raise ValueError(f"values and counts must have the same shape, got {v.shape} and {c.shape}")
    if np.any(c < 0):
        raise ValueError("counts must be non-negative")
    n = float(c.sum())
    if n == 0:
        return _NAN3
    mean = float((v * c).sum() / n)
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(float((c * (v - mean) ** 2).sum()) / (n - 1.0))
    return _t_interval(mean, sd, n, confidence)


def _t_interval(mean: float, sd: float, n: float, confidence: float) -> tuple[float, float, float]:
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def proportion_ci(
    successes: ArrayLike, trials: ArrayLike, confidence: float = 0.95
) -> tuple[float, float, float] | tuple[_FloatArray, _FloatArray, _FloatArray]:
    """Proportion with a Wilson score confidence interval.

    Parameters
    ----------
    successes, trials : array_like
        Counts of independent Bernoulli trials; broadcast elementwise.
    confidence : float, default 0.95
        Coverage of the two-sided interval, in (0, 1).

    Returns
    -------
    tuple
        ``(p_hat, low, high)``: floats for scalar inputs, arrays of the broadcast
        shape otherwise.  Entries with ``trials == 0`` are NaN.

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 1), a count is negative, or
        ``successes > trials``.
    """
    confidence = _check_confidence(confidence)
    s, n = np.broadcast_arrays(
        np.asarray(successes, dtype=np.float64), np.asarray(trials, dtype=np.float64)
    )
    if np.any(n < 0) or np.any(s < 0):
        raise ValueError("successes and trials must be non-negative")
    if np.any(s > n):
        raise ValueError("successes must not exceed trials")
    z = t_quantile(0.5 + confidence / 2.0, math.inf)
    empty = n == 0
    n_safe = np.where(empty, 1.0, n)
    p_hat = s / n_safe
    denom = 1.0 + z * z / n_safe
    centre = (p_hat + z * z / (2.0 * n_safe)) / denom
    half = z * np.sqrt(p_hat * (1.0 - p_hat) / n_safe + z * z / (4.0 * n_safe**2)) / denom
    # The bounds are 0 and 1 exactly when s is 0 or n; clipping removes rounding.
    low = np.clip(centre - half, 0.0, 1.0)
    high = np.clip(centre + half, 0.0, 1.0)
    result = tuple(np.where(empty, np.nan, v) for v in (p_hat, low, high))
    if s.ndim == 0:
        return float(result[0]), float(result[1]), float(result[2])
    return result[0], result[1], result[2]


def paired_difference_ci(
    a: ArrayLike, b: ArrayLike, confidence: float = 0.95
) -> tuple[float, float, float]:
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
    tuple of float
        ``(mean_difference, low, high)``, as :func:`mean_ci` of ``a - b``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length or ``confidence`` is not in (0, 1).
    """
    x = _as_1d(a, "a")
    y = _as_1d(b, "b")
    if x.size != y.size:
        raise ValueError(f"a and b must have the same length, got {x.size} and {y.size}")
    return mean_ci(x - y, confidence)


def clustered_mean_ci(
    values: ArrayLike, clusters: ArrayLike, confidence: float = 0.95
) -> tuple[float, float, float]:
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
    tuple of float
        ``(mean, low, high)``; the bounds are NaN with fewer than two clusters.

    Raises
    ------
    ValueError
        If ``values`` and ``clusters`` differ in length or ``confidence`` is not
        in (0, 1).
    """
    confidence = _check_confidence(confidence)
    x = _as_1d(values, "values")
    labels = np.asarray(clusters)
    if labels.shape != x.shape:
        raise ValueError(
            f"values and clusters must have the same length, got {x.size} and {labels.size}"
        )
    if x.size == 0:
        return _NAN3
    _, cluster_of = np.unique(labels, return_inverse=True)
    sums = np.bincount(cluster_of, weights=x)
    sizes = np.bincount(cluster_of)
    n_clusters = sums.size
    mean = float(sums.sum() / x.size)
    if n_clusters < 2:
        return mean, math.nan, math.nan
    residuals = sums - mean * sizes
    variance = n_clusters / (n_clusters - 1) * float(residuals @ residuals) / x.size**2
    half = t_quantile(0.5 + confidence / 2.0, n_clusters - 1) * math.sqrt(variance)
    return mean, mean - half, mean + half


def _require_columns(frame: pd.DataFrame, name: str, columns: Iterable[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing columns {missing}")


def strategy_summary(
    hands: pd.DataFrame, games: pd.DataFrame, confidence: float = 0.95
) -> pd.DataFrame:
    """Per-strategy means and rates with confidence intervals.

    Observations of one game are correlated: its deals share players and
    seating, and one strategy may sit in several of its seats.  The game is
    therefore the independent unit throughout:

    * ``mean_total`` and ``win_share`` average each game's rows of the strategy
      first (one value per game, so every game weighs the same), then take a
      Student-t interval over games;
    * ``mean_score``, ``made_rate`` and ``zero_bid_rate`` are per-deal
      quantities estimated by :func:`clustered_mean_ci` over the strategy's
      (game, deal, seat) rows, clustered by game.

    Intervals of the rates (``made_rate``, ``zero_bid_rate``, ``win_share``) are
    clipped to [0, 1].

    Parameters
    ----------
    hands : pandas.DataFrame
        One row per (game, deal, seat) with at least the columns ``game``,
        ``strategy``, ``bid``, ``tricks`` and ``score``.
    games : pandas.DataFrame
        One row per (game, seat) with at least the columns ``game``,
        ``strategy``, ``total`` and ``win_share``.
    confidence : float, default 0.95
        Coverage of every two-sided interval, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        One row per strategy present in the data (unused categories are
        dropped), indexed by ``strategy``, with the column ``seats`` (number of
        (game, seat) rows) followed by ``mean_total``, ``mean_score``,
        ``made_rate``, ``zero_bid_rate`` and ``win_share``, each with ``_low``
        and ``_high`` bounds.  A strategy found in only one frame gets NaN for
        the other frame's columns.

    Raises
    ------
    ValueError
        If a required column is missing or ``confidence`` is not in (0, 1).
    """
    confidence = _check_confidence(confidence)
    _require_columns(hands, "hands", _HANDS_COLUMNS)
    _require_columns(games, "games", _GAMES_COLUMNS)

    rows: dict[Hashable, dict[str, float]] = {}

    per_game = games.groupby(["strategy", "game"], observed=True, sort=True)[
        ["total", "win_share"]
    ].agg(["mean", "size"])
    for strategy, block in per_game.groupby(level="strategy", observed=True, sort=True):
        row = rows.setdefault(strategy, {})
        row["seats"] = int(block[("total", "size")].sum())
        for column, base in (("total", "mean_total"), ("win_share", "win_share")):
            store_interval(row, base, mean_ci(block[(column, "mean")].to_numpy(), confidence))

    for strategy, block in hands.groupby("strategy", observed=True, sort=True):
        row = rows.setdefault(strategy, {})
        game = block["game"].to_numpy()
        bid = block["bid"].to_numpy()
        for base, values in (
            ("mean_score", block["score"].to_numpy()),
            ("made_rate", bid == block["tricks"].to_numpy()),
            ("zero_bid_rate", bid == 0),
        ):
            store_interval(row, base, clustered_mean_ci(values, game, confidence))

    summary = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=list(_SUMMARY_COLUMNS))
    summary.index.name = "strategy"
    summary["seats"] = summary["seats"].fillna(0).astype(np.int64)
    for base in _RATE_COLUMNS:
        for column in (f"{base}_low", f"{base}_high"):
            summary[column] = summary[column].clip(0.0, 1.0)
    return summary


def store_interval(row: dict[str, float], base: str, interval: tuple[float, float, float]) -> None:
    """Put ``(estimate, low, high)`` into ``row`` as ``base``, ``base_low``, ``base_high``."""
    row[base], row[f"{base}_low"], row[f"{base}_high"] = (float(x) for x in interval)


def format_summary(summary: pd.DataFrame, digits: int = 3) -> str:
    """Render a summary as a plain-text table for the terminal.

    Every column ``x`` that has companions ``x_low`` and ``x_high`` becomes one
    cell ``"value [low, high]"``; other columns are shown as they are.

    Parameters
    ----------
    summary : pandas.DataFrame
        Typically the output of :func:`strategy_summary`.
    digits : int, default 3
        Decimal places of floating-point values.

    Returns
    -------
    str
        Header line plus one line per row, columns separated by two spaces,
        without a trailing newline.
    """
    columns = [str(c) for c in summary.columns]
    bounded = {c for c in columns if f"{c}_low" in columns and f"{c}_high" in columns}
    shown = [c for c in columns if not any(c in (f"{b}_low", f"{b}_high") for b in bounded)]

    def number(value: object) -> str:
        if isinstance(value, (int, np.integer)):
            return str(value)
        return f"{float(value):.{digits}f}"

    table = [[str(summary.index.name or ""), *shown]]
    for label, record in zip(summary.index, summary.to_dict("records"), strict=True):
        cells = [str(label)]
        for c in shown:
            cell = number(record[c])
            if c in bounded:
                cell += f" [{number(record[f'{c}_low'])}, {number(record[f'{c}_high'])}]"
            cells.append(cell)
        table.append(cells)
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in table
    )
