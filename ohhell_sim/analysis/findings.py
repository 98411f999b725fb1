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
* :func:`field_verdicts` and :func:`verdicts_across_fields`: whether an effect
  holds in every strategy field, with its range; "depends on the field" only
  where a test between the fields (:func:`heterogeneity`) or opposite signs
  say so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _scipy_stats

from ohhell_sim.analysis.stats import adjust_pvalues, stratum_ids
from ohhell_sim.estimates import standardised_influence

#: Marks of :func:`replicate`.
REPLICATED = "replicated"
SAME_DIRECTION = "same direction only"
NOT_REPLICATED = "not replicated"
#: Verdicts of :func:`field_verdicts`.
HOLDS_EVERYWHERE = "holds in every field"
DEPENDS_ON_FIELD = "depends on the field"
NO_FIELD = "in no field"
#: Verdict of :func:`verdicts_across_fields` for an effect established in some fields
#: only, where the test between fields finds no difference.
SOME_FIELDS = "in some fields; no evidence that the fields differ"
#: Verdict of :func:`field_verdicts` for an effect found in some fields only, where
#: no test between the fields was made.
SOME_FIELDS_UNTESTED = "in some fields; whether the fields differ is not tested"
#: What the verdicts of :func:`field_verdicts` mean, for a table's note.
FIELD_VERDICT_NOTE = (
    f"verdict: '{HOLDS_EVERYWHERE}' when the effect is established (survives the correction "
    f"and is confirmed at the second seed) in every field with one sign; '{DEPENDS_ON_FIELD}' "
    f"when it is established with opposite signs in two fields; '{SOME_FIELDS_UNTESTED}' "
    f"when it is established in some fields only; '{NO_FIELD}' when in none."
)
#: Marks of :func:`confirm`.
CONFIRMED = "confirmed"
NOT_CONFIRMED = "not confirmed"
#: A row that did not survive in the run itself is not carried to the confirmation.
NOT_TESTED = "not tested (did not survive)"
#: Every row's mark when no confirmation run was played.
NO_CONFIRMATION = "no confirmation run"
#: Power at which :func:`detectable_effect` sizes the effects a run could have found.
DETECTION_POWER = 0.8
#: Names of the two halves of :func:`half_of`.
HALVES = ("even games", "odd games")


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


def adjust_parts(
    parts: dict[str, pd.DataFrame], method: str = "holm", alpha: float = 0.05
) -> dict[str, pd.DataFrame]:
    """Tables of different shapes adjusted as one family (:func:`adjust_family`).

    A report's comparisons come in tables of different columns (rate
    differences, counterfactual cells, tests between fields); one family over all of
    them keeps one error rate for the report.  Each table comes back with
    ``p``, ``p_adjusted``, ``survives`` and ``correction`` (the size of the whole
    family).
    """
    columns = ["estimate", "low", "high"]
    stacked = pd.concat(
        [
            t[columns + (["p"] if "p" in t.columns else [])].assign(_part=name)
            for name, t in parts.items()
        ],
        ignore_index=True,
    )
    adjusted = adjust_family(stacked, method=method, alpha=alpha)
    out = {}
    for name, table in parts.items():
        rows = adjusted[adjusted["_part"] == name]
        out[name] = table.assign(
            **{c: rows[c].to_numpy() for c in ("p", "p_adjusted", "survives", "correction")}
        )
    return out


def standard_error(
    low: np.ndarray | pd.Series, high: np.ndarray | pd.Series, confidence: float = 0.95
) -> np.ndarray:
    """The standard errors behind normal-approximation intervals ``[low, high]``."""
    z = _scipy_stats.norm.ppf(0.5 + confidence / 2)
    return (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / (2 * z)


def detectable_effect(
    low: np.ndarray | pd.Series,
    high: np.ndarray | pd.Series,
    alpha: float,
    power: float = DETECTION_POWER,
    confidence: float = 0.95,
) -> np.ndarray:
    """The smallest effect each interval's run finds with probability ``power`` at level ``alpha``.

    ``(z(1 - alpha / 2) + z(power)) * se``, the standard error read off the
    interval: an effect that did not survive is evidence only against effects of
    this size or larger.  Pass the level a row must meet in its family (for
    Holm over *m* rows, ``alpha / m`` is the strictest step).
    """
    z = _scipy_stats.norm.ppf(1 - alpha / 2) + _scipy_stats.norm.ppf(power)
    return z * standard_error(low, high, confidence)


def heterogeneity(
    per_game: pd.DataFrame,
    keys: Sequence[str],
    field: str = "field",
    stratum: str | None = None,
) -> pd.DataFrame:
    """A Wald test, per effect, that the effect has the same size in every field.

    The fields of a study play the same cards (game ``g`` deals the same hands in
    every field), so their estimates are correlated and a test that treats
    them as independent runs (Cochran's Q) misjudges their difference.  This
    test keeps the pairing: each field's estimate is the mean of its per-game
    values (with ``stratum``, the unweighted mean over the strata of their
    per-stratum means, as the standardised rows are), and the covariance of the
    field estimates is estimated from the games every pair of fields played,
    clustered by game; strata (table sizes) play separate games and are
    independent.  ``W = d' (C V C')^+ d``, with ``d`` the differences of each
    field's estimate from the last field's, is chi-squared with as many degrees
    of freedom as the rank of ``C V C'`` when the effect is the same everywhere.
    "Depends on the field" is a claim this test must support, not the mere mix
    of significant and non-significant fields.

    Parameters
    ----------
    per_game : pandas.DataFrame
        One value per (effect, field, [stratum], game): the ``keys``, ``field``,
        ``stratum``, ``game`` and ``value`` columns.
    keys : sequence of str
        Columns naming the effect.
    field : str
        The column naming the field.
    stratum : str, optional
        The column of independent strata pooled with equal weights.

    Returns
    -------
    pandas.DataFrame
        The ``keys``, ``fields``, ``q`` (the statistic ``W``), ``df``, ``p``
        (NaN with fewer than two fields or no variance), ``i_squared`` (the
        share of the spread beyond chance, ``max(0, (W - df) / W)``) and
        ``spread`` (the highest field's estimate minus the lowest's).
    """
    keys = list(keys)
    rows = []
    for key, part in per_game.groupby(keys, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        means, covariance = _field_means(part, field, stratum)
        rows.append({**dict(zip(keys, key, strict=True)), **_wald(means, covariance)})
    return pd.DataFrame(rows)


def equal_estimates_test(estimates: Sequence[float], influences: Sequence[pd.Series]) -> dict:
    """A Wald test that estimates made on the same clusters are equal, as :func:`heterogeneity`.

    For estimators that are not means of per-game values (a standardised rate, a
    standardised difference): each brings its influence per cluster
    (:func:`~ohhell_sim.estimates.standardised_influence`), and their covariance
    is ``G / (G - 1)`` times the sum over clusters of the products, so fields
    played on the same cards are compared with their correlation kept.

    Parameters
    ----------
    estimates : sequence of float
        One estimate per field.
    influences : sequence of pandas.Series
        Per estimate, its influence ``z_g`` indexed by cluster (game); a
        cluster absent from an estimate has no influence on it.

    Returns
    -------
    dict
        ``fields``, ``q``, ``df``, ``p``, ``i_squared`` and ``spread``, as the
        rows of :func:`heterogeneity`.
    """
    means = np.asarray(estimates, dtype=float)
    if len(means) < 2:
        return _wald(means, np.zeros((len(means), len(means))))
    z = pd.concat(list(influences), axis=1, join="outer").fillna(0.0).to_numpy()
    clusters = len(z)
    covariance = clusters / max(clusters - 1, 1) * (z.T @ z)
    return _wald(means, covariance)


def _wald(means: np.ndarray, covariance: np.ndarray) -> dict:
    # Each field against the last: W = d' (C V C')^+ d on the rank of C V C'.
    q, df, p, i_squared = np.nan, 0, np.nan, np.nan
    if len(means) > 1:
        contrast = np.hstack([np.eye(len(means) - 1), -np.ones((len(means) - 1, 1))])
        d = contrast @ means
        v = contrast @ covariance @ contrast.T
        df = int(np.linalg.matrix_rank(v))
        if df >= 1:
            q = float(d @ np.linalg.pinv(v) @ d)
            p = float(_scipy_stats.chi2.sf(q, df))
            i_squared = max(0.0, (q - df) / q) if q > 0 else 0.0
    return {
        "fields": len(means),
        "q": q,
        "df": df,
        "p": p,
        "i_squared": i_squared,
        "spread": float(means.max() - means.min()) if len(means) else np.nan,
    }


def _field_means(
    part: pd.DataFrame, field: str, stratum: str | None
) -> tuple[np.ndarray, np.ndarray]:
    # Each field's estimate and their covariance, clustered by game within a
    # stratum; the strata are pooled with equal weights.
    strata = [part] if stratum is None else [s for _, s in part.groupby(stratum, observed=True)]
    fields = list(dict.fromkeys(part[field]))
    means = np.zeros(len(fields))
    covariance = np.zeros((len(fields), len(fields)))
    for piece in strata:
        # pivot_table's means, without its overhead (a few ms a call, hundreds of calls).
        table = piece.groupby(["game", field], observed=True)["value"].mean().unstack(field)
        table = table.reindex(columns=fields)
        values = table.to_numpy(dtype=float)
        played = ~np.isnan(values)
        counts = played.sum(axis=0)
        mean = np.nanmean(values, axis=0)
        residual = np.where(played, values - mean, 0.0)
        # Pairs of fields: the games both played, each game one cluster.
        shared = played.T.astype(float) @ played.astype(float)
        cross = residual.T @ residual
        small_sample = np.where(shared > 1, shared / np.maximum(shared - 1, 1), 0.0)
        means += mean
        covariance += cross * small_sample / np.outer(counts, counts)
    return means / len(strata), covariance / len(strata) ** 2


#: The ``field`` of a test row of :func:`between_fields`.
BETWEEN_FIELDS = "between fields"


def between_fields(
    per_game: pd.DataFrame, keys: Sequence[str], field: str = "field", stratum: str | None = None
) -> pd.DataFrame:
    """The :func:`heterogeneity` tests of ``per_game``'s effects as rows of a family.

    One row per effect with two or more fields: the ``keys``, ``field`` set to
    :data:`BETWEEN_FIELDS`, ``n`` (the fields), the spread between the extreme
    fields as ``estimate``, no interval, and the test's ``p``, ``q`` and
    ``i_squared``; so that :func:`adjust_family` (or :func:`adjust_parts`)
    adjusts the tests with the effects and :func:`confirm` carries them to the
    confirmation run.
    """
    keys = list(keys)
    tests = heterogeneity(per_game, keys, field=field, stratum=stratum)
    tests = tests[tests["fields"] > 1]
    return pd.DataFrame(
        {
            **{k: tests[k].to_numpy() for k in keys},
            field: BETWEEN_FIELDS,
            "n": tests["fields"].to_numpy(),
            "estimate": tests["spread"].to_numpy(),
            "low": np.nan,
            "high": np.nan,
            "p": tests["p"].to_numpy(),
            "q": tests["q"].to_numpy(),
            "i_squared": tests["i_squared"].to_numpy(),
        }
    )


def adjust_family(
    table: pd.DataFrame, method: str = "holm", alpha: float = 0.05, confidence: float = 0.95
) -> pd.DataFrame:
    """The comparisons of ``table``, one family: p-values adjusted for their number.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per comparison, with ``estimate``, ``low`` and ``high``; a row
        whose test is not an interval's (a :func:`heterogeneity` test) brings
        its own ``p``, which is used where it is not NaN.
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
    if "p" in out.columns:
        given = out["p"].to_numpy(dtype=float)
        p = np.where(np.isnan(given), p, given)
    adjusted = np.full(p.shape, np.nan)
    defined = ~np.isnan(p)
    adjusted[defined] = adjust_pvalues(p[defined], method=method)
    out["p"] = p
    out["p_adjusted"] = adjusted
    out["survives"] = defined & (np.nan_to_num(adjusted, nan=1.0) <= alpha)
    out["correction"] = f"{method} over {int(defined.sum())}"
    return out


def confirm(
    family: pd.DataFrame,
    confirmation: pd.DataFrame | None,
    keys: Sequence[str],
    method: str = "holm",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Check the surviving rows of ``family`` in the confirmation run, at fresh cards.

    A row that survived its family's correction is confirmed when the same row
    of the confirmation run (another seed, so other deals) has the same sign and
    its p-value, adjusted over the rows carried over (``method``), is at most
    ``alpha``.  This protects against what a split of the same games cannot: a
    choice of rows, strata or definitions tuned, knowingly or not, on the first
    run's cards.

    Parameters
    ----------
    family : pandas.DataFrame
        :func:`adjust_family` output of the run.
    confirmation : pandas.DataFrame or None
        The same family computed on the confirmation run (its ``p`` unadjusted
        is used); None when no confirmation run was played.
    keys : sequence of str
        Columns identifying a row in both.
    method, alpha : str, float
        The correction over the rows carried over, and its level.

    Returns
    -------
    pandas.DataFrame
        ``family`` with ``confirm_estimate``, ``confirm_low``, ``confirm_high``,
        ``confirm_p_adjusted`` and ``confirmation`` (:data:`CONFIRMED`,
        :data:`NOT_CONFIRMED`, :data:`NOT_TESTED` or :data:`NO_CONFIRMATION`).
        A row with no interval (a heterogeneity test) confirms on its p-value alone.
    """
    keys = list(keys)
    out = family.reset_index(drop=True).copy()
    if confirmation is None:
        for column in ("estimate", "low", "high", "p_adjusted"):
            out[f"confirm_{column}"] = np.nan
        out["confirmation"] = NO_CONFIRMATION
        return out
    second = confirmation[[*keys, "estimate", "low", "high", "p"]].rename(
        columns={c: f"confirm_{c}" for c in ("estimate", "low", "high", "p")}
    )
    out = out.merge(second, on=keys, how="left")
    tested = out["survives"].to_numpy(dtype=bool)
    p = out["confirm_p"].to_numpy(dtype=float)
    adjusted = np.full(len(out), np.nan)
    carried = tested & ~np.isnan(p)
    if carried.any():
        adjusted[carried] = adjust_pvalues(p[carried], method=method)
    has_interval = np.isfinite(out["low"].to_numpy(dtype=float))
    same_sign = np.sign(out["estimate"].to_numpy(dtype=float)) == np.sign(
        out["confirm_estimate"].to_numpy(dtype=float)
    )
    passed = carried & (np.nan_to_num(adjusted, nan=1.0) <= alpha) & (same_sign | ~has_interval)
    out["confirm_p_adjusted"] = adjusted
    out["confirmation"] = np.where(tested, np.where(passed, CONFIRMED, NOT_CONFIRMED), NOT_TESTED)
    return out.drop(columns="confirm_p")


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

    An effect counts in a field where it is established (:func:`established`:
    survives its family's correction, and is confirmed when a confirmation run
    was played) or, for a table without a ``survives`` column, where its
    interval excludes zero.  Without a test between the fields (see
    :func:`verdicts_across_fields`) an effect found in some fields only is not
    said to depend on the field: the others may simply lack the power to find
    it.  Found with opposite signs in two fields, it does.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (effect, field), with the ``keys`` and ``field`` columns and
        ``estimate``, ``low``, ``high`` (and ``survives``, ``confirmation``).
    keys : sequence of str
        Columns naming the effect (may be empty: one effect).
    field : str
        The column naming the strategy field.

    Returns
    -------
    pandas.DataFrame
        The ``keys``, then ``fields`` (how many), ``verdict``
        (:data:`HOLDS_EVERYWHERE`: found in every field with one sign;
        :data:`DEPENDS_ON_FIELD`: found with opposite signs; :data:`NO_FIELD`:
        found in none; else :data:`SOME_FIELDS_UNTESTED`),
        ``min_estimate``/``max_estimate`` with the fields where they occur, and
        ``significant_in`` (the fields whose interval excludes zero, unadjusted).
    """
    keys = list(keys)
    rows = []
    groups = table.groupby(keys, sort=False, observed=True) if keys else [((), table)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        above = part["low"] > 0
        below = part["high"] < 0
        found = established(part) if "survives" in part.columns else above | below
        signs = np.sign(part.loc[found, "estimate"])
        if found.all() and signs.nunique() == 1:
            verdict = HOLDS_EVERYWHERE
        elif signs.nunique() > 1:
            verdict = DEPENDS_ON_FIELD
        elif not found.any():
            verdict = NO_FIELD
        else:
            verdict = SOME_FIELDS_UNTESTED
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "fields": len(part),
                "verdict": verdict,
                **_extremes(part, field),
                "significant_in": ", ".join(map(str, part.loc[above | below, field])),
            }
        )
    return pd.DataFrame(rows)


def _extremes(part: pd.DataFrame, field: str) -> dict:
    """The lowest and highest estimate of an effect's field rows, with their fields."""
    low_row = part.loc[part["estimate"].idxmin()]
    high_row = part.loc[part["estimate"].idxmax()]
    return {
        "min_estimate": float(low_row["estimate"]),
        "min_field": low_row[field],
        "max_estimate": float(high_row["estimate"]),
        "max_field": high_row[field],
    }


def established(family: pd.DataFrame) -> pd.Series:
    """Rows of a family that count as findings: surviving, and confirmed when a
    confirmation run was played (:func:`confirm`)."""
    survives = family["survives"].astype(bool)
    if "confirmation" not in family.columns:
        return survives
    return survives & family["confirmation"].isin([CONFIRMED, NO_CONFIRMATION])


def verdicts_across_fields(
    rows: pd.DataFrame, between: pd.DataFrame, keys: Sequence[str], field: str = "field"
) -> pd.DataFrame:
    """Whether each effect holds in every field, with "depends on the field" a tested claim.

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per (effect, field): the ``keys``, ``field``, ``estimate``,
        ``low``, ``high`` and ``established`` (see :func:`established`).
    between : pandas.DataFrame
        One row per effect: the ``keys`` and ``established``, whether its
        :func:`heterogeneity` test survived (and confirmed).
    keys : sequence of str
        Columns naming the effect.
    field : str
        The column naming the field.

    Returns
    -------
    pandas.DataFrame
        The ``keys``, ``fields``, ``verdict`` (:data:`HOLDS_EVERYWHERE`:
        established in every field with one sign; :data:`DEPENDS_ON_FIELD`: the
        fields differ, by the test; :data:`NO_FIELD`: established in none; else
        :data:`SOME_FIELDS`), ``size differs`` (the test's result, also for an
        effect that holds everywhere), ``min_estimate``/``max_estimate`` with
        their fields and ``established in``.
    """
    keys = list(keys)
    differs = between.set_index(keys)["established"]
    out = []
    for key, part in rows.groupby(keys, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        found = part["established"].astype(bool)
        signs = np.sign(part.loc[found, "estimate"])
        size_differs = bool(differs.get(key[0] if len(key) == 1 else key, False))
        if found.all() and signs.nunique() == 1:
            verdict = HOLDS_EVERYWHERE
        elif size_differs:
            verdict = DEPENDS_ON_FIELD
        elif not found.any():
            verdict = NO_FIELD
        else:
            verdict = SOME_FIELDS
        out.append(
            {
                **dict(zip(keys, key, strict=True)),
                "fields": len(part),
                "verdict": verdict,
                "size differs": "yes" if size_differs else "no",
                **_extremes(part, field),
                "established in": ", ".join(map(str, part.loc[found, field])),
            }
        )
    return pd.DataFrame(out)


def equal_estimates_rows(
    effects: Mapping[tuple, Sequence[tuple[float, pd.Series]]],
    keys: Sequence[str],
    field: str = "field",
) -> pd.DataFrame:
    """The :func:`equal_estimates_test` of each effect's estimates as rows of a family.

    The counterpart of :func:`between_fields` for estimates that bring their influence
    per cluster rather than per-game values.

    Parameters
    ----------
    effects : mapping
        Per effect (a tuple of its ``keys``' values), one ``(estimate, influence)`` pair
        per field, as :func:`equal_estimates_test` takes them.
    keys : sequence of str
        The columns naming an effect.
    field : str, default "field"
        The column set to :data:`BETWEEN_FIELDS`.

    Returns
    -------
    pandas.DataFrame
        One row per effect with two or more fields: the ``keys``, ``field``, the test's
        ``fields``, ``q``, ``df``, ``p`` and ``spread``, and ``estimate``, ``low`` and
        ``high`` left NaN, so that :func:`adjust_parts` adjusts the tests with the effects.
    """
    rows = []
    for key, pairs in effects.items():
        test = equal_estimates_test([e for e, _ in pairs], [z for _, z in pairs])
        rows.append({**dict(zip(keys, key, strict=True)), field: BETWEEN_FIELDS, **test})
    out = pd.DataFrame(rows, columns=[*keys, field, "fields", "q", "df", "p", "spread"])
    out = out[out["fields"] > 1]
    return out.assign(estimate=np.nan, low=np.nan, high=np.nan).reset_index(drop=True)


def equal_standardised_means_rows(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    keys: Sequence[str],
    strata: Sequence[str] = (),
    field: str = "field",
    cluster: str = "game",
) -> pd.DataFrame:
    """:func:`equal_estimates_rows` of the fields' standardised means of ``values`` per effect.

    Each (``field``, effect) group's estimate is the mean of its ``values`` standardised
    over the groups of its ``strata`` columns (each weighing the same,
    :func:`~ohhell_sim.estimates.standardised_mean_ci`), its influence per ``cluster``
    what :func:`equal_estimates_test` needs to keep the fields' correlation.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with ``field``, the ``keys``, the ``strata`` columns and ``cluster``.
    values : Series or ndarray
        One value per row of ``frame``.
    keys : sequence of str
        The columns naming an effect.
    strata : sequence of str
        The columns whose groups are pooled with equal weight (none: a plain mean).
    field : str, default "field"
        The column naming the field.
    cluster : str, default "game"
        The independent unit, shared by the fields (the same cards).

    Returns
    -------
    pandas.DataFrame
        As :func:`equal_estimates_rows`.
    """
    keys = list(keys)
    data = frame.assign(_value=np.asarray(values, dtype=np.float64))
    effects: dict[tuple, list[tuple[float, pd.Series]]] = {}
    for key, part in data.groupby([field, *keys], sort=False, observed=True):
        ids = stratum_ids(part, strata)
        mean, labels, z = standardised_influence(part["_value"].to_numpy(), ids, part[cluster])
        effects.setdefault(tuple(key[1:]), []).append((mean, pd.Series(z, index=labels)))
    return equal_estimates_rows(effects, keys, field)


def verdicts_with_counts(
    rows: pd.DataFrame, between: pd.DataFrame, keys: Sequence[str], field: str = "field"
) -> pd.DataFrame:
    """:func:`verdicts_across_fields` with, per effect, in how many fields it holds up.

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per (effect, field), as :func:`verdicts_across_fields` takes them, with
        ``survives`` (:func:`adjust_family`) and ``replication`` (:func:`replicate`).
    between, keys, field
        As for :func:`verdicts_across_fields`.

    Returns
    -------
    pandas.DataFrame
        Its table without ``established in``, with ``survives_in``, ``established_in`` and
        ``replicated_in`` (the fields where the effect survives the correction, is
        established, is :data:`REPLICATED`) and ``headline`` (it holds in every field and
        is established in each).
    """
    keys = list(keys)
    rows = rows.assign(replicated=rows["replication"] == REPLICATED)
    marks = rows.groupby(keys, sort=False, observed=True)[["survives", "established", "replicated"]]
    out = verdicts_across_fields(rows, between, keys, field).drop(columns="established in")
    out = out.merge(marks.sum().add_suffix("_in").reset_index(), on=keys)
    everywhere = (out["verdict"] == HOLDS_EVERYWHERE) & (out["established_in"] == out["fields"])
    return out.assign(headline=everywhere)


__all__ = [
    "BETWEEN_FIELDS",
    "CONFIRMED",
    "DEPENDS_ON_FIELD",
    "DETECTION_POWER",
    "FIELD_VERDICT_NOTE",
    "HALVES",
    "HOLDS_EVERYWHERE",
    "NOT_CONFIRMED",
    "NOT_REPLICATED",
    "NOT_TESTED",
    "NO_CONFIRMATION",
    "NO_FIELD",
    "REPLICATED",
    "SAME_DIRECTION",
    "SOME_FIELDS",
    "SOME_FIELDS_UNTESTED",
    "adjust_family",
    "adjust_parts",
    "between_fields",
    "confirm",
    "detectable_effect",
    "equal_estimates_rows",
    "equal_standardised_means_rows",
    "established",
    "field_verdicts",
    "half_of",
    "heterogeneity",
    "p_value",
    "replicate",
    "replication_mark",
    "standard_error",
    "verdicts_across_fields",
    "verdicts_with_counts",
]
