"""Findings that hold up: comparison families, replication on halves, verdicts across fields.

The estimates of :mod:`ohhell_sim.analysis.stats` answer one question each.  A
study asks many, in several strategy fields, and a reader should know which of
its claims survive that.  Three tools, each on tidy tables (``estimate``,
``low``, ``high`` per row):

* :func:`adjust_family`: the p-values of a declared family of comparisons,
  adjusted for their number (Holm by default, :func:`~ohhell_sim.analysis.stats.adjust_pvalues`),
  and which comparisons survive;
* :func:`replicate`: an estimate computed again on two independent halves of the
  games (even and odd game indices), with a mark that says whether it replicated;
* :func:`field_verdicts`: whether an effect holds in every strategy field or
  depends on the field, with its range.

And one measure of how decisive a game is that works whatever the sign of the
totals: :func:`variance_share`, the share of the variance of a per-seat outcome
that a grouping (the strategy) explains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _scipy_stats

from ohhell_sim.analysis.stats import Estimate, adjust_pvalues, bootstrap_by_game

#: Marks of :func:`replicate`.
REPLICATED = "replicated"
SAME_DIRECTION = "same direction only"
NOT_REPLICATED = "not replicated"
#: Verdicts of :func:`field_verdicts`.
HOLDS_EVERYWHERE = "holds in every field"
DEPENDS_ON_FIELD = "depends on the field"
NO_FIELD = "in no field"
#: Names of the two halves of :func:`half_of`.
HALVES = ("even games", "odd games")
VARIANCE_SHARE_METHOD = "share of variance between groups (eta squared), bootstrap over games"


def p_value(estimate: float, low: float, high: float, confidence: float = 0.95) -> float:
    """Two-sided p-value of ``estimate = 0`` read off its confidence interval.

    The standard error is the interval's half-width over the normal quantile, so
    this is the Wald test of the interval's normal approximation: for the
    t intervals of the studies, with hundreds of games, the two agree to the
    third decimal.  NaN for a missing or degenerate interval of a non-zero
    estimate; 1 for a zero estimate with a zero-width interval.
    """
    if not (np.isfinite(estimate) and np.isfinite(low) and np.isfinite(high)):
        return float("nan")
    z = _scipy_stats.norm.ppf(0.5 + confidence / 2)
    se = (high - low) / (2 * z)
    if se <= 0:
        return 1.0 if estimate == 0 else float("nan")
    return float(2 * _scipy_stats.norm.sf(abs(estimate) / se))


def adjust_family(
    table: pd.DataFrame, method: str = "holm", alpha: float = 0.05, confidence: float = 0.95
) -> pd.DataFrame:
    """The comparisons of ``table``, one family: p-values adjusted for their number.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per comparison, with ``estimate``, ``low`` and ``high``.
    method : str
        Any method of :func:`statsmodels.stats.multitest.multipletests`;
        ``"holm"`` controls the family-wise error rate under any dependence.
    alpha : float
        Family-wise level.
    confidence : float
        Coverage of the intervals in ``table``.

    Returns
    -------
    pandas.DataFrame
        ``table`` with ``p`` (unadjusted), ``p_adjusted``, ``survives``
        (``p_adjusted <= alpha``) and ``correction`` (the method and the family
        size, e.g. ``"holm over 13"``).  Rows whose p-value is undefined get NaN
        and do not survive; they do not count in the family.
    """
    out = table.copy()
    p = np.array(
        [
            p_value(e, lo, hi, confidence)
            for e, lo, hi in out[["estimate", "low", "high"]].to_numpy(dtype=float)
        ],
        dtype=float,
    )
    adjusted = np.full(p.shape, np.nan)
    defined = ~np.isnan(p)
    adjusted[defined] = adjust_pvalues(p[defined], method=method)
    out["p"] = p
    out["p_adjusted"] = adjusted
    out["survives"] = defined & (np.nan_to_num(adjusted, nan=1.0) <= alpha)
    out["correction"] = f"{method} over {int(defined.sum())}"
    return out


def half_of(games: pd.Series | np.ndarray) -> np.ndarray:
    """Which half a game falls in: 0 for even game indices, 1 for odd (see :data:`HALVES`).

    Games are independent and their cards do not depend on their index's parity,
    so the halves are two independent samples of the same conditions, paired
    comparisons staying within a game.
    """
    return np.asarray(games, dtype=np.int64) % 2


def replication_mark(full: float, first: pd.Series, second: pd.Series) -> str:
    """:data:`REPLICATED` when both halves' intervals exclude zero on the side of ``full``;
    :data:`SAME_DIRECTION` when both halves' estimates only share its sign;
    :data:`NOT_REPLICATED` otherwise."""
    sign = np.sign(full)
    if sign == 0 or np.isnan(sign):
        return NOT_REPLICATED
    halves = (first, second)
    if all(np.sign(h["estimate"]) == sign for h in halves):
        if all((h["low"] > 0) if sign > 0 else (h["high"] < 0) for h in halves):
            return REPLICATED
        return SAME_DIRECTION
    return NOT_REPLICATED


def replicate(
    frame: pd.DataFrame,
    compute: Callable[[pd.DataFrame], pd.DataFrame],
    keys: Sequence[str],
    game: str = "game",
) -> pd.DataFrame:
    """``compute`` on all of ``frame`` and on each half of its games, with a replication mark.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with a ``game`` column.
    compute : callable
        Frame -> tidy table with the ``keys`` columns and ``estimate``, ``low``,
        ``high`` (e.g. a paired difference per table size).
    keys : sequence of str
        Columns that identify a row of ``compute``'s table.
    game : str
        The game column.

    Returns
    -------
    pandas.DataFrame
        ``compute(frame)`` with ``even_estimate``/``even_low``/``even_high``,
        the same for ``odd``, and ``replication`` (:func:`replication_mark`);
        a row missing from a half is :data:`NOT_REPLICATED`.
    """
    keys = list(keys)
    full = compute(frame).reset_index(drop=True)
    half = half_of(frame[game])
    halves = []
    for h, prefix in enumerate(("even", "odd")):
        part = compute(frame[half == h])[[*keys, "estimate", "low", "high"]]
        halves.append(
            part.rename(columns={c: f"{prefix}_{c}" for c in ("estimate", "low", "high")})
        )
    out = full.merge(halves[0], on=keys, how="left").merge(halves[1], on=keys, how="left")

    def mark(row: pd.Series) -> str:
        first = pd.Series({c: row[f"even_{c}"] for c in ("estimate", "low", "high")})
        second = pd.Series({c: row[f"odd_{c}"] for c in ("estimate", "low", "high")})
        if first.isna().any() or second.isna().any():
            return NOT_REPLICATED
        return replication_mark(row["estimate"], first, second)

    out["replication"] = [mark(row) for _, row in out.iterrows()] if len(out) else []
    return out


def field_verdicts(table: pd.DataFrame, keys: Sequence[str], field: str = "field") -> pd.DataFrame:
    """Whether each effect of ``table`` holds in every strategy field, one row per ``keys``.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (effect, field), with the ``keys`` and ``field`` columns and
        ``estimate``, ``low``, ``high``.
    keys : sequence of str
        Columns naming the effect (may be empty: one effect).
    field : str
        The column naming the strategy field.

    Returns
    -------
    pandas.DataFrame
        The ``keys``, then ``fields`` (how many), ``verdict``
        (:data:`HOLDS_EVERYWHERE`: every field's interval excludes zero on the
        same side; :data:`NO_FIELD`: no field's does; else
        :data:`DEPENDS_ON_FIELD`), ``min_estimate``/``max_estimate`` with the
        fields where they occur, and ``significant_in`` (the fields whose
        interval excludes zero).
    """
    keys = list(keys)
    rows = []
    groups = table.groupby(keys, sort=False, observed=True) if keys else [((), table)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        above = part["low"] > 0
        below = part["high"] < 0
        if above.all() or below.all():
            verdict = HOLDS_EVERYWHERE
        elif not (above | below).any():
            verdict = NO_FIELD
        else:
            verdict = DEPENDS_ON_FIELD
        low_row = part.loc[part["estimate"].idxmin()]
        high_row = part.loc[part["estimate"].idxmax()]
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "fields": len(part),
                "verdict": verdict,
                "min_estimate": float(low_row["estimate"]),
                "min_field": low_row[field],
                "max_estimate": float(high_row["estimate"]),
                "max_field": high_row[field],
                "significant_in": ", ".join(map(str, part.loc[above | below, field])),
            }
        )
    return pd.DataFrame(rows)


def variance_share_of(values: np.ndarray, groups: np.ndarray) -> float:
    """Share of the variance of ``values`` between the means of ``groups`` (eta squared).

    0 when the groups' means are equal, 1 when every value equals its group's
    mean; NaN when ``values`` do not vary.  Unlike a spread over the mean total,
    it does not depend on where zero lies, so it works for tables whose totals
    are negative or near zero.
    """
    values = np.asarray(values, dtype=np.float64)
    _, group_of = np.unique(np.asarray(groups), return_inverse=True)
    total = float(((values - values.mean()) ** 2).sum())
    if total == 0:
        return float("nan")
    counts = np.bincount(group_of)
    means = np.bincount(group_of, weights=values) / counts
    between = float((counts * (means - values.mean()) ** 2).sum())
    return between / total


def variance_share(
    frame: pd.DataFrame,
    value: str,
    group: str,
    game: str = "game",
    resamples: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> Estimate:
    """:func:`variance_share_of` of ``frame[value]`` by ``frame[group]``, interval over games.

    E.g. the share of the variance of the seats' final totals that their
    strategies explain: how much skill, rather than the cards, decides a table.
    """
    estimate = bootstrap_by_game(
        frame,
        lambda f: variance_share_of(f[value].to_numpy(), f[group].to_numpy()),
        game=game,
        resamples=resamples,
        seed=seed,
        confidence=confidence,
    )
    return estimate._replace(method=VARIANCE_SHARE_METHOD)


__all__ = [
    "DEPENDS_ON_FIELD",
    "HALVES",
    "HOLDS_EVERYWHERE",
    "NOT_REPLICATED",
    "NO_FIELD",
    "REPLICATED",
    "SAME_DIRECTION",
    "adjust_family",
    "field_verdicts",
    "half_of",
    "p_value",
    "replicate",
    "replication_mark",
    "variance_share",
    "variance_share_of",
]
