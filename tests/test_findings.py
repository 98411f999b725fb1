"""Comparison families, replication on halves of the games, verdicts across strategy fields,
and the variance share: ``ohhell_sim.analysis.findings``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    HOLDS_EVERYWHERE,
    NO_FIELD,
    NOT_REPLICATED,
    REPLICATED,
    SAME_DIRECTION,
    adjust_family,
    field_verdicts,
    half_of,
    p_value,
    replicate,
    replication_mark,
    variance_share,
    variance_share_of,
)
from ohhell_sim.analysis.stats import grouped_mean, mean_ci


def test_p_value_from_an_interval_agrees_with_the_t_test():
    rng = np.random.default_rng(1)
    values = rng.normal(0.1, 1.0, size=800)
    est = mean_ci(values)
    expected = scipy_stats.ttest_1samp(values, 0.0).pvalue
    assert p_value(est.estimate, est.low, est.high) == pytest.approx(expected, rel=0.02)
    assert p_value(0.0, 0.0, 0.0) == 1.0
    assert np.isnan(p_value(1.0, np.nan, np.nan))


def test_a_family_is_adjusted_by_holm_and_marks_what_survives():
    # Intervals built from known z statistics: z = estimate / se with se = 1.
    z975 = scipy_stats.norm.ppf(0.975)
    z = np.array([3.5, 2.2, 0.5, np.nan])
    table = pd.DataFrame({"name": list("abcd"), "estimate": z})
    table["low"], table["high"] = z - z975, z + z975
    out = adjust_family(table)
    raw = 2 * scipy_stats.norm.sf(z[:3])
    assert out["p"][:3].to_numpy() == pytest.approx(raw)
    # Holm over 3: the smallest p times 3, the next times 2 (made monotone), the last times 1.
    order = np.argsort(raw)
    holm = np.maximum.accumulate(raw[order] * np.array([3, 2, 1]))
    assert out["p_adjusted"][:3].to_numpy()[order] == pytest.approx(np.minimum(holm, 1))
    assert out["survives"].tolist() == [True, False, False, False]
    # z = 2.2 alone would pass at 5%; the correction is what removes it.
    assert out.loc[1, "p"] < 0.05 < out.loc[1, "p_adjusted"]
    assert (out["correction"] == "holm over 3").all()
    assert np.isnan(out.loc[3, "p_adjusted"])


def test_half_of_splits_games_by_parity():
    assert half_of(pd.Series([0, 1, 2, 3, 10])).tolist() == [0, 1, 0, 1, 0]


@pytest.mark.parametrize(
    ("full", "first", "second", "mark"),
    [
        (1.0, (1.0, 0.5, 1.5), (0.9, 0.2, 1.6), REPLICATED),
        (-1.0, (-1.0, -1.5, -0.5), (-0.9, -1.6, -0.2), REPLICATED),
        (1.0, (1.0, 0.5, 1.5), (0.3, -0.2, 0.8), SAME_DIRECTION),
        (1.0, (1.0, 0.5, 1.5), (-0.3, -0.8, 0.2), NOT_REPLICATED),
        (0.0, (0.1, -0.5, 0.7), (0.1, -0.5, 0.7), NOT_REPLICATED),
    ],
)
def test_replication_marks(full, first, second, mark):
    def row(t):
        return pd.Series(dict(zip(("estimate", "low", "high"), t, strict=True)))

    assert replication_mark(full, row(first), row(second)) == mark


def test_replicate_recomputes_on_each_half():
    rng = np.random.default_rng(2)
    games = np.repeat(np.arange(2000), 2)
    arm = np.tile(["x", "y"], 2000)
    # x is ahead by 0.5 (a real effect), y is pure noise around 0.
    values = rng.normal(size=games.size) + np.where(arm == "x", 0.5, 0.0)
    frame = pd.DataFrame({"game": games, "arm": arm, "value": values})

    def compute(part):
        return grouped_mean(part, part["value"], ["arm"])

    out = replicate(frame, compute, ["arm"]).set_index("arm")
    assert out.loc["x", "replication"] == REPLICATED
    assert out.loc["y", "replication"] != REPLICATED
    for prefix, h in (("even", 0), ("odd", 1)):
        part = frame[(frame["game"] % 2 == h) & (frame["arm"] == "x")]
        assert out.loc["x", f"{prefix}_estimate"] == pytest.approx(part["value"].mean())
    assert out.loc["x", "estimate"] == pytest.approx(frame[frame["arm"] == "x"]["value"].mean())


def test_field_verdicts():
    rows = [
        ("hook cost", "simple", -0.2, -0.3, -0.1),
        ("hook cost", "learned", -0.9, -1.0, -0.8),
        ("ranking change", "simple", 0.1, -0.1, 0.3),
        ("ranking change", "learned", 0.6, 0.4, 0.8),
        ("noise", "simple", 0.0, -0.1, 0.1),
        ("noise", "learned", 0.05, -0.1, 0.2),
    ]
    table = pd.DataFrame(rows, columns=["effect", "field", "estimate", "low", "high"])
    out = field_verdicts(table, ["effect"]).set_index("effect")
    assert out.loc["hook cost", "verdict"] == HOLDS_EVERYWHERE
    assert out.loc["hook cost", "min_estimate"] == -0.9
    assert out.loc["hook cost", "min_field"] == "learned"
    assert out.loc["hook cost", "max_field"] == "simple"
    assert out.loc["ranking change", "verdict"] == DEPENDS_ON_FIELD
    assert out.loc["ranking change", "significant_in"] == "learned"
    assert out.loc["noise", "verdict"] == NO_FIELD
    # Opposite signs, both significant: the effect depends on the field.
    flip = table.iloc[:2].assign(estimate=[-0.2, 0.9], low=[-0.3, 0.8], high=[-0.1, 1.0])
    assert field_verdicts(flip, [])["verdict"].item() == DEPENDS_ON_FIELD


def test_variance_share_ignores_where_zero_lies():
    rng = np.random.default_rng(3)
    groups = np.repeat(["a", "b", "c"], 300)
    values = rng.normal(size=900) + np.repeat([0.0, 1.0, 2.0], 300)
    share = variance_share_of(values, groups)
    # Between-group variance 2/3 against a within variance of about 1.
    assert share == pytest.approx((2 / 3) / (2 / 3 + 1), abs=0.05)
    # The same spread around negative or near-zero totals gives the same share.
    assert variance_share_of(values - 100.0, groups) == pytest.approx(share)
    assert variance_share_of(values * -3.0, groups) == pytest.approx(share)
    assert np.isnan(variance_share_of(np.ones(4), ["a", "a", "b", "b"]))  # nothing varies
    assert variance_share_of(np.array([1.0, 1.0, 2.0, 2.0]), ["a", "a", "b", "b"]) == 1.0


def test_variance_share_interval_over_games():
    rng = np.random.default_rng(4)
    games = np.repeat(np.arange(200), 4)
    strategy = np.tile(["a", "a", "b", "b"], 200)
    total = rng.normal(size=800) + np.where(strategy == "a", 1.0, 0.0)
    frame = pd.DataFrame({"game": games, "strategy": strategy, "total": total})
    est = variance_share(frame, "total", "strategy", resamples=100)
    assert est.low < est.estimate < est.high
    assert est.estimate == pytest.approx(variance_share_of(total, strategy))
    assert 0.1 < est.estimate < 0.35
