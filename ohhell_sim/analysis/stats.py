"""Estimates with confidence intervals for frames of results, in one tidy convention.

Every estimate is an :class:`~ohhell_sim.estimates.Estimate` (``estimate``,
``low``, ``high``, ``n``, ``method``) and every table of estimates is a frame with
the grouping columns followed by :data:`ESTIMATE_COLUMNS`.  This module is the
analysis layer's statistics API: the estimators on arrays of
:mod:`ohhell_sim.estimates` (which the results and the summary mode use below
it) are available here under the same names, beside the estimators of frames
defined here; the bootstrap comes from :mod:`scipy.stats`.

Deals of one game are not independent observations: the same players, scores
and seating carry over from deal to deal, one strategy may sit in several seats
of the same game, and conditions played with the same seed share the cards of
each game index.  Rates measured per deal therefore use
:func:`clustered_mean_ci` with the game as the cluster, comparisons between two
arms average each game's rows first and take a paired interval over games, and
statistics that are not means get a bootstrap over games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _scipy_stats

from ohhell_sim.estimates import (
    BOOTSTRAP_METHOD,
    CLUSTER_METHOD,
    ESTIMATE_COLUMNS,
    PAIRED_METHOD,
    STANDARDISED_METHOD,
    T_METHOD,
    WILSON_METHOD,
    Estimate,
    adjust_pvalues,
    check_confidence,
    clip_rate,
    clustered_mean_ci,
    estimate_frame,
    frequency_mean_ci,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
    standardised_influence,
    standardised_mean_ci,
    store_interval,
    t_quantile,
)

__all__ = [
    "BOOTSTRAP_METHOD",
    "CLUSTER_METHOD",
    "ESTIMATE_COLUMNS",
    "PAIRED_METHOD",
    "STANDARDISED_DIFFERENCE_METHOD",
    "STANDARDISED_METHOD",
    "T_METHOD",
    "WILSON_METHOD",
    "Estimate",
    "adjust_pvalues",
    "bootstrap_by_game",
    "bootstrap_matrix",
    "bootstrap_matrix_difference",
    "check_confidence",
    "clip_rate",
    "clustered_mean_ci",
    "estimate_frame",
    "frequency_mean_ci",
    "grouped_mean",
    "mean_ci",
    "paired_by_game",
    "paired_difference_ci",
    "per_game_difference",
    "proportion_ci",
    "standardised_difference",
    "standardised_mean",
    "standardised_mean_ci",
    "standardised_means",
    "store_interval",
    "stratum_ids",
    "t_quantile",
]


def _key_dict(by: Sequence[str], key: object) -> dict[str, object]:
    values = key if isinstance(key, tuple) else (key,)
    return dict(zip(by, values, strict=True))


def _group_arrays(frame: pd.DataFrame, by: Sequence[str], arrays: Sequence[np.ndarray]):
    """Each group of ``frame`` by ``by`` (sorted, as ``groupby``): its key and its slices of
    ``arrays`` (one entry per row of ``frame``), rows in their order in ``frame``.

    One stable sort of the group numbers, then views: iterating a ``groupby`` sorts a copy
    of every column first, several times the memory of the arrays needed.
    """
    if not by:
        yield (), arrays
        return
    grouped = frame.groupby(list(by), observed=True, sort=True)
    number = grouped.ngroup().fillna(-1).to_numpy(np.int64)
    # Rows of a missing key are numbered -1 (in no group, as ``groupby`` drops them): first.
    order = np.argsort(number, kind="stable")
    start = int(np.count_nonzero(number < 0))
    ends = start + np.cumsum(np.bincount(number[number >= 0], minlength=grouped.ngroups))
    sorted_arrays = [np.asarray(a)[order] for a in arrays]
    for key, end in zip(grouped.size().index, ends, strict=True):
        yield key, [a[start:end] for a in sorted_arrays]
        start = end


def grouped_mean(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str],
    cluster: str = "game",
    bounded: bool = False,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Mean of ``values`` per group of ``by``, with an interval clustered by ``cluster``.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows to group; holds the ``by`` columns and ``cluster``.
    values : Series or ndarray
        One value per row of ``frame``; booleans give a rate, whose interval is
        clipped to [0, 1].
    by : sequence of str
        Grouping columns (may be empty: one overall row).
    cluster : str
        Column whose equal values are one independent cluster.
    bounded : bool
        Clip the interval to [0, 1] (a share; automatic for booleans).
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then :data:`ESTIMATE_COLUMNS` (``n``: rows).
    """
    is_rate = bounded or np.asarray(values).dtype == np.bool_
    arrays = (np.asarray(values, dtype=np.float64), frame[cluster].to_numpy())
    rows = []
    for key, (value, clusters) in _group_arrays(frame, by, arrays):
        est = clustered_mean_ci(value, clusters, confidence)
        rows.append({**_key_dict(by, key), **(clip_rate(est) if is_rate else est).row()})
    return estimate_frame(rows, by)


def standardised_mean(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str],
    stratum: str,
    cluster: str = "game",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """:func:`standardised_mean_ci` per group of ``by``: pooled over ``stratum``, equal weights.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with the ``by``, ``stratum`` and ``cluster`` columns.
    values : Series or ndarray
        One value per row.
    by : sequence of str
        Groups to estimate separately (may be empty).
    stratum : str
        Column whose values are the strata pooled with equal weight.
    cluster : str
        The independent unit.
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then :data:`ESTIMATE_COLUMNS`.
    """
    arrays = (
        np.asarray(values, dtype=np.float64),
        frame[stratum].to_numpy(),
        frame[cluster].to_numpy(),
    )
    rows = [
        {
            **_key_dict(by, key),
            **standardised_mean_ci(value, strata, clusters, confidence).row(),
        }
        for key, (value, strata, clusters) in _group_arrays(frame, by, arrays)
    ]
    return estimate_frame(rows, by)


def _arm_means_per_game(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    arm: str,
    first: object,
    second: object,
    by: Sequence[str],
    game: str,
) -> pd.DataFrame:
    """Per (``by`` group, ``game``): the mean of ``values`` in arm ``first`` and in arm
    ``second`` (columns ``first`` and ``second``), games missing from either dropped."""
    data = frame[[*by, arm, game]].copy()
    data["_value"] = np.asarray(values, dtype=np.float64)
    data = data[data[arm].isin([first, second])]
    per_game = data.groupby([*by, game, arm], observed=True)["_value"].mean().unstack(arm)
    # Selected one by one: a list of boolean arm labels would be read as a mask.
    return pd.DataFrame({"first": per_game[first], "second": per_game[second]}).dropna()


def per_game_difference(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    arm: str,
    first: object,
    second: object,
    by: Sequence[str] = (),
    game: str = "game",
) -> pd.DataFrame:
    """The differences :func:`paired_by_game` averages, one per game and ``by`` group.

    Parameters
    ----------
    frame, values, arm, first, second, by, game
        As for :func:`paired_by_game`.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, ``game`` and ``value``: the game's mean in arm ``first``
        minus its mean in arm ``second``.  A mean of ``value`` over games is the
        paired comparison; a pool of several groups' means (a standardised row)
        keeps the pairing.
    """
    pairs = _arm_means_per_game(frame, values, arm, first, second, by, game)
    return (pairs["first"] - pairs["second"]).rename("value").reset_index()


def paired_by_game(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    arm: str,
    first: object,
    second: object,
    by: Sequence[str] = (),
    game: str = "game",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Difference ``first - second`` of a per-game mean between two arms, paired by game.

    Each game's rows of one arm are averaged (pooling whatever the ``by`` columns
    do not split, e.g. several seatings of the same game), and the two arms'
    averages of the same game go to :func:`paired_difference_ci`.  Games missing
    from either arm are dropped.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows of both arms, with the columns ``arm``, ``by`` and ``game``.
    values : Series or ndarray
        One value per row.
    arm : str
        Column telling the arms apart.
    first, second : object
        Values of ``arm`` to compare.
    by : sequence of str
        Groups to compare separately.
    game : str
        The pairing unit.
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then :data:`ESTIMATE_COLUMNS` (``n``: games paired).
    """
    pairs = _arm_means_per_game(frame, values, arm, first, second, by, game)
    rows = []
    groups = pairs.groupby(level=list(by), sort=True) if by else [((), pairs)]
    for key, block in groups:
        est = paired_difference_ci(
            block["first"].to_numpy(), block["second"].to_numpy(), confidence
        )
        rows.append({**_key_dict(by, key), **est.row()})
    return estimate_frame(rows, by)


def _bootstrap_units(
    units: int,
    statistic_of: Callable[[np.ndarray], float],
    resamples: int,
    seed: int,
    confidence: float,
    description: str | None,
) -> Estimate:
    """Percentile bootstrap (``scipy.stats.bootstrap``) of a statistic of resampled unit indices."""
    from tqdm.auto import tqdm

    confidence = check_confidence(confidence)
    estimate = float(statistic_of(np.arange(units)))
    with tqdm(total=resamples, desc=description, disable=description is None, leave=False) as bar:

        def counted(indices: np.ndarray) -> float:
            bar.update(1)
            return statistic_of(indices)

        result = _scipy_stats.bootstrap(
            (np.arange(units),),
            counted,
            n_resamples=resamples,
            vectorized=False,
            confidence_level=confidence,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
    interval = result.confidence_interval
    return Estimate(estimate, float(interval.low), float(interval.high), units, BOOTSTRAP_METHOD)


def bootstrap_by_game(
    frame: pd.DataFrame,
    statistic: Callable[[pd.DataFrame], float],
    *,
    game: str = "game",
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    description: str | None = None,
) -> Estimate:
    """A statistic of ``frame`` with a percentile bootstrap interval over games.

    Games (all their rows together) are drawn with replacement; a game drawn
    twice appears twice, its rows relabelled so that it counts as two games.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with a ``game`` column.
    statistic : callable
        Frame -> float.
    game : str
        The resampling unit.
    resamples : int
        Bootstrap replicates.
    seed : int
        Seed of the resampling (the interval is reproducible).
    confidence : float
        Coverage of the interval.
    description : str, optional
        Show a progress bar over the replicates with this label (slow statistics).

    Returns
    -------
    Estimate
        ``statistic(frame)`` and its interval; ``n`` counts the games.
    """
    labels, inverse = np.unique(frame[game].to_numpy(), return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    rows_of = np.split(order, np.cumsum(np.bincount(inverse))[:-1])

    def of_games(drawn: np.ndarray) -> float:
        if np.array_equal(drawn, np.arange(labels.size)):
            return float(statistic(frame))
        sample = frame.iloc[np.concatenate([rows_of[g] for g in drawn])].copy()
        sample[game] = np.repeat(np.arange(drawn.size), [rows_of[g].size for g in drawn])
        return float(statistic(sample))

    return _bootstrap_units(labels.size, of_games, resamples, seed, confidence, description)


def bootstrap_matrix(
    matrix: np.ndarray,
    statistic: Callable[[np.ndarray], float],
    *,
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> Estimate:
    """:func:`bootstrap_by_game` for data already shaped one row per game (fast path).

    Parameters
    ----------
    matrix : ndarray
        One row per game (e.g. the seats' final totals).
    statistic : callable
        Array of rows -> float.
    resamples, seed, confidence
        As for :func:`bootstrap_by_game`.

    Returns
    -------
    Estimate
    """
    return _bootstrap_units(
        matrix.shape[0],
        lambda rows: float(statistic(matrix[rows])),
        resamples,
        seed,
        confidence,
        None,
    )


STANDARDISED_DIFFERENCE_METHOD = (
    "difference of stratum-standardised means over common strata, clustered by game"
)


def standardised_means(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str],
    strata: Sequence[str],
    cluster: str = "game",
    bounded: bool = False,
) -> pd.DataFrame:
    """:func:`standardised_mean` per group of ``by``, pooled over the groups of several columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with the ``by``, ``strata`` and ``cluster`` columns.
    values : Series or ndarray
        One value per row.
    by : sequence of str
        Groups to estimate separately.
    strata : sequence of str
        The columns whose groups (:func:`stratum_ids`) are the strata pooled with equal
        weight (none: one stratum).
    cluster : str, default "game"
        The independent unit.
    bounded : bool, default False
        Clip the intervals to [0, 1] (a share).

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, :data:`ESTIMATE_COLUMNS` and ``strata``: how many strata each
        group pools.
    """
    data = frame.assign(_stratum=stratum_ids(frame, strata))
    table = standardised_mean(data, values, by, "_stratum", cluster)
    if bounded:
        table[["low", "high"]] = table[["low", "high"]].clip(0.0, 1.0)
    pooled = data.groupby(list(by), observed=True)["_stratum"].nunique()
    table["strata"] = pooled.to_numpy() if len(table) else []
    return table


def stratum_ids(frame: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """The stratum of each row of ``frame``: its group of ``columns``, numbered in order of
    first appearance (all 0 for no columns)."""
    if not columns:
        return np.zeros(len(frame), dtype=np.int64)
    return frame.groupby(list(columns), observed=True, sort=False).ngroup().to_numpy()


def standardised_difference(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    column: str,
    first: object,
    second: object,
    strata: Sequence[str] = (),
    min_rows: int = 1,
    cluster: str = "game",
) -> tuple[Estimate, pd.Series]:
    """The standardised mean of ``values`` where ``column`` is ``first`` minus that where it
    is ``second``, over the strata both sides share, with its influence per cluster.

    Both means are :func:`standardised_mean_ci`'s over the same strata: the groups of the
    ``strata`` columns holding at least ``min_rows`` rows of each side, each weighing the
    same.  The interval is clustered by ``cluster``, so that the two sides' rows of one
    cluster (one game) keep their correlation.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with ``column``, the ``strata`` columns and ``cluster``.
    values : Series or ndarray
        One value per row of ``frame``.
    column : str
        The column that names the side of a row.
    first, second : object
        The values of ``column`` compared; rows with other values are left out.
    strata : sequence of str
        The columns whose groups are pooled with equal weight (none: one stratum).
    min_rows : int, default 1
        The rows a stratum needs on each side to count.
    cluster : str, default "game"
        The independent unit.

    Returns
    -------
    tuple of Estimate and pandas.Series
        The difference (NaN with ``n`` 0 when no stratum is shared) and each cluster's
        influence on it (:func:`~ohhell_sim.estimates.standardised_influence`), indexed by
        cluster, for :func:`~ohhell_sim.analysis.findings.equal_estimates_test`.
    """
    side = frame[column].to_numpy()
    mask = (side == first) | (side == second)
    part = frame[mask]
    x = np.asarray(values, dtype=np.float64)[mask]
    is_first = (part[column].to_numpy() == first).astype(np.int64)
    stratum = stratum_ids(part, strata)
    counts = np.zeros((int(stratum.max()) + 1 if len(stratum) else 0, 2), dtype=np.int64)
    np.add.at(counts, (stratum, is_first), 1)
    common = (counts >= max(min_rows, 1)).all(axis=1)
    keep = common[stratum] if len(stratum) else np.zeros(0, dtype=bool)
    if not keep.any():
        none = Estimate(np.nan, np.nan, np.nan, 0, STANDARDISED_DIFFERENCE_METHOD)
        return none, pd.Series(dtype=float)
    # Each side of each stratum its own stratum, the second side's values negated: the
    # standardised mean of these is half the difference of the two sides' means.
    signed = np.where(is_first[keep] == 1, x[keep], -x[keep])
    inputs = signed, 2 * stratum[keep] + is_first[keep], part[cluster].to_numpy()[keep]
    half = standardised_mean_ci(*inputs)
    _, labels, z = standardised_influence(*inputs)
    doubled = 2 * half.estimate, 2 * half.low, 2 * half.high
    estimate = Estimate(*doubled, signed.size, STANDARDISED_DIFFERENCE_METHOD)
    return estimate, pd.Series(2 * z, index=labels)


def bootstrap_matrix_difference(
    first: np.ndarray,
    second: np.ndarray,
    statistic: Callable[[np.ndarray], float],
    *,
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> Estimate:
    """``statistic(first) - statistic(second)`` for two matrices paired row by row (the
    same games), by :func:`bootstrap_matrix` resampling the pairs of rows together.

    Parameters
    ----------
    first, second : ndarray
        One row per game each, the same number of rows and columns.
    statistic : callable
        Array of rows -> float.
    resamples, seed, confidence
        As for :func:`bootstrap_by_game`.

    Returns
    -------
    Estimate
    """
    columns = first.shape[1]
    return bootstrap_matrix(
        np.hstack([first, second]),
        lambda m: statistic(m[:, :columns]) - statistic(m[:, columns:]),
        resamples=resamples,
        seed=seed,
        confidence=confidence,
    )
