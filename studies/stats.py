"""Grouped estimates with 95% intervals, as the studies' tables need them.

The game is the independent unit everywhere: rows of one game share players,
scores and seating, and conditions played with the same seed share the cards of
each game index.  Per-row rates are therefore estimated with
:func:`~ohhell_sim.analysis.stats.clustered_mean_ci` clustered by game index,
and comparisons between two arms average each game's rows first and take a
Student-t interval over the per-game differences.  Statistics that are not means
(a standard deviation, a decision rule's rate) get a bootstrap over games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.stats import clustered_mean_ci, mean_ci

#: Columns of every estimate table: the estimate and its interval.
CI_COLUMNS = ("estimate", "low", "high")


def _key_dict(by: Sequence[str], key: object) -> dict[str, object]:
    values = key if isinstance(key, tuple) else (key,)
    return dict(zip(by, values, strict=True))


def grouped_mean(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str],
    cluster: str = "game",
    bounded: bool = False,
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

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, ``n`` (rows), ``estimate``, ``low`` and ``high``.
    """
    data = frame[[*by, cluster]].copy()
    is_rate = bounded or np.asarray(values).dtype == np.bool_
    data["_value"] = np.asarray(values, dtype=np.float64)
    rows = []
    groups = data.groupby(list(by), observed=True, sort=True) if by else [((), data)]
    for key, group in groups:
        estimate, low, high = clustered_mean_ci(
            group["_value"].to_numpy(), group[cluster].to_numpy()
        )
        if is_rate:
            # The t interval of a rate can cross 0 or 1 in small samples.
            low, high = max(low, 0.0), min(high, 1.0)
        rows.append(
            {**_key_dict(by, key), "n": len(group), "estimate": estimate, "low": low, "high": high}
        )
    return pd.DataFrame(rows, columns=[*by, "n", *CI_COLUMNS])


def paired_by_game(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    arm: str,
    first: object,
    second: object,
    by: Sequence[str] = (),
    game: str = "game",
) -> pd.DataFrame:
    """Difference ``first - second`` of a per-game mean between two arms, paired by game.

    Each game's rows of one arm are averaged (pooling whatever the ``by`` columns
    do not split, e.g. several seatings of the same game), the two arms' averages
    of the same game are subtracted, and the differences get a Student-t
    interval over games.  Games missing from either arm are dropped.

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

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, ``pairs`` (games paired), ``estimate``, ``low``, ``high``.
    """
    data = frame[[*by, arm, game]].copy()
    data["_value"] = np.asarray(values, dtype=np.float64)
    data = data[data[arm].isin([first, second])]
    per_game = data.groupby([*by, game, arm], observed=True)["_value"].mean().unstack(arm)
    diff = (per_game[first] - per_game[second]).dropna()
    rows = []
    groups = diff.groupby(level=list(by), sort=True) if by else [((), diff)]
    for key, series in groups:
        estimate, low, high = mean_ci(series.to_numpy())
        rows.append(
            {
                **_key_dict(by, key),
                "pairs": len(series),
                "estimate": estimate,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(rows, columns=[*by, "pairs", *CI_COLUMNS])


def bootstrap_by_game(
    frame: pd.DataFrame,
    statistic: Callable[[pd.DataFrame], float],
    *,
    game: str = "game",
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    description: str | None = None,
) -> tuple[float, float, float]:
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
    tuple of float
        ``(statistic(frame), low, high)``.
    """
    from tqdm.auto import trange

    estimate = float(statistic(frame))
    games = frame[game].to_numpy()
    labels, inverse = np.unique(games, return_inverse=True)
    rows_of = np.split(np.argsort(inverse, kind="stable"), np.cumsum(np.bincount(inverse))[:-1])
    rng = np.random.default_rng(seed)
    replicates = np.empty(resamples)
    for r in trange(resamples, desc=description, disable=description is None, leave=False):
        drawn = rng.integers(0, labels.size, labels.size)
        index = np.concatenate([rows_of[g] for g in drawn])
        sample = frame.iloc[index].copy()
        sample[game] = np.repeat(np.arange(labels.size), [rows_of[g].size for g in drawn])
        replicates[r] = statistic(sample)
    tail = (1.0 - confidence) / 2.0
    low, high = np.nanquantile(replicates, [tail, 1.0 - tail])
    return estimate, float(low), float(high)


def bootstrap_matrix(
    matrix: np.ndarray,
    statistic: Callable[[np.ndarray], float],
    *,
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
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
    tuple of float
        ``(statistic(matrix), low, high)``.
    """
    rng = np.random.default_rng(seed)
    rows = matrix.shape[0]
    replicates = [statistic(matrix[rng.integers(0, rows, rows)]) for _ in range(resamples)]
    tail = (1.0 - confidence) / 2.0
    low, high = np.nanquantile(replicates, [tail, 1.0 - tail])
    return float(statistic(matrix)), float(low), float(high)


def fmt_ci(estimate: float, low: float, high: float, digits: int = 3) -> str:
    """``"0.123 [0.110, 0.136]"``: an estimate and its interval, ``digits`` decimals."""
    return f"{estimate:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def fmt_row(row: pd.Series | dict, digits: int = 3) -> str:
    """:func:`fmt_ci` of a table row with ``estimate``, ``low`` and ``high``."""
    return fmt_ci(row["estimate"], row["low"], row["high"], digits)


def excludes_zero(row: pd.Series | dict) -> bool:
    """Whether the interval of ``row`` lies entirely on one side of zero."""
    return bool(row["low"] > 0 or row["high"] < 0)
