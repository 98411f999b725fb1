"""Tests of ohhell_sim.analysis.stats against table values and hand computations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ohhell_sim.analysis.format import format_summary
from ohhell_sim.analysis.stats import (
    ESTIMATE_COLUMNS,
    STANDARDISED_DIFFERENCE_METHOD,
    adjust_pvalues,
    bootstrap_by_game,
    bootstrap_matrix,
    bootstrap_matrix_difference,
    clustered_mean_ci,
    grouped_mean,
    mean_ci,
    paired_by_game,
    paired_difference_ci,
    proportion_ci,
    standardised_difference,
    standardised_mean,
    standardised_mean_ci,
    standardised_means,
    stratum_ids,
    t_quantile,
)
from ohhell_sim.results import SUMMARY_MEASURES, strategy_summary

T975_1 = 12.706204736174707  # t(0.975, 1) = tan(0.475 pi)


# --- t_quantile ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        (0.975, 1, 12.706),
        (0.975, 2, 4.303),
        (0.975, 5, 2.571),
        (0.975, 10, 2.228),
        (0.975, 30, 2.042),
        (0.975, 120, 1.980),
        (0.95, 2, 2.920),
        (0.95, 20, 1.725),
        (0.995, 10, 3.169),
        (0.9995, 1, 636.619),
        (0.9, 4, 1.533),
    ],
)
def test_t_quantile_matches_table(p: float, df: float, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=5e-4)


def test_t_quantile_infinite_df_is_normal() -> None:
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959963984540054, rel=1e-14)
    assert t_quantile(0.995, math.inf) == pytest.approx(2.5758293035489004, rel=1e-14)
    assert t_quantile(0.975, 1e8) == pytest.approx(1.959963984540054, rel=1e-7)


def _t5_cdf(t: float) -> float:
    """Closed-form CDF of t with 5 degrees of freedom."""
    theta = math.atan(t / math.sqrt(5.0))
    c, s = math.cos(theta), math.sin(theta)
    return 0.5 + (theta + s * c * (1.0 + 2.0 / 3.0 * c * c)) / math.pi


@given(st.floats(min_value=1e-6, max_value=1 - 1e-6))
def test_t_quantile_closed_forms(p: float) -> None:
    # df = 1 (Cauchy) and df = 2 have closed-form quantiles; df = 5 a closed-form CDF.
    assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-9, abs=1e-12)
    closed_2 = (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    assert t_quantile(p, 2) == pytest.approx(closed_2, rel=1e-9, abs=1e-12)
    assert _t5_cdf(t_quantile(p, 5)) == pytest.approx(p, rel=1e-9, abs=1e-13)


def test_t_quantile_symmetry_and_fractional_df() -> None:
    assert t_quantile(0.5, 3) == 0.0
    assert t_quantile(0.025, 7) == pytest.approx(-t_quantile(0.975, 7), rel=1e-14)
    assert t_quantile(0.975, 3) < t_quantile(0.975, 2.5) < t_quantile(0.975, 2)


@pytest.mark.parametrize(("p", "df"), [(0.0, 5), (1.0, 5), (-0.1, 5), (math.nan, 5), (0.5, 0)])
def test_t_quantile_rejects_bad_arguments(p: float, df: float) -> None:
    with pytest.raises(ValueError, match="must be"):
        t_quantile(p, df)


# --- mean_ci ------------------------------------------------------------------


def test_mean_ci_hand_computed() -> None:
    # mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764451051977987
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])[:3]
    half = 2.7764451051977987 * math.sqrt(2.5 / 5)
    assert (mean, low, high) == pytest.approx((3.0, 3.0 - half, 3.0 + half), rel=1e-12)


def test_mean_ci_small_samples() -> None:
    assert mean_ci([4.0]).estimate == 4.0
    assert all(math.isnan(v) for v in mean_ci([4.0])[1:3])
    assert all(math.isnan(v) for v in mean_ci([])[:3])
    assert mean_ci([2.0, 2.0, 2.0])[:3] == (2.0, 2.0, 2.0)


def test_mean_ci_coverage() -> None:
    # n = 5 is small enough that a normal quantile would cover only about 88 %.
    samples = np.random.default_rng(0).normal(3.0, 2.0, size=(2000, 5))
    covered = 0
    for sample in samples:
        _, low, high = mean_ci(sample)[:3]
        covered += low <= 3.0 <= high
    assert 0.93 <= covered / len(samples) <= 0.97


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5, -0.2, math.nan])
def test_confidence_must_be_in_open_unit_interval(confidence: float) -> None:
    for call in (
        lambda: mean_ci([1.0, 2.0], confidence),
        lambda: proportion_ci(1, 2, confidence),
        lambda: paired_difference_ci([1.0, 2.0], [0.0, 1.0], confidence),
        lambda: clustered_mean_ci([1.0, 2.0], [0, 1], confidence),
        lambda: strategy_summary(*_small_frames(), confidence=confidence),
    ):
        with pytest.raises(ValueError, match=r"confidence must be in \(0, 1\)"):
            call()


def test_mean_ci_rejects_two_dimensional_input() -> None:
    with pytest.raises(ValueError, match="values must be one-dimensional"):
        mean_ci(np.ones((2, 3)))


# --- proportion_ci ------------------------------------------------------------


def test_wilson_hand_computed() -> None:
    assert proportion_ci(8, 10)[:3] == pytest.approx((0.8, 0.4902, 0.9433), abs=5e-5)


def test_wilson_edges() -> None:
    z2 = 1.959963984540054**2
    assert proportion_ci(0, 10)[:3] == pytest.approx((0.0, 0.0, z2 / (10 + z2)), abs=1e-14)
    assert proportion_ci(10, 10)[:3] == pytest.approx((1.0, 10 / (10 + z2), 1.0), abs=1e-14)
    assert all(math.isnan(v) for v in proportion_ci(0, 0)[:3])


def test_wilson_vectorised() -> None:
    p_hat, low, high = proportion_ci(np.array([8, 0, 3]), np.array([10, 0, 3]))[:3]
    assert isinstance(p_hat, np.ndarray)
    assert p_hat.shape == (3,)
    assert (p_hat[0], low[0], high[0]) == pytest.approx(proportion_ci(8, 10)[:3])
    assert np.isnan([p_hat[1], low[1], high[1]]).all()
    assert high[2] == 1.0


def test_wilson_coverage() -> None:
    successes = np.random.default_rng(0).binomial(50, 0.3, size=2000)
    _, low, high = proportion_ci(successes, 50)[:3]
    assert 0.93 <= np.mean((low <= 0.3) & (0.3 <= high)) <= 0.97


@pytest.mark.parametrize(
    ("successes", "trials", "message"),
    [(11, 10, "must not exceed"), (-1, 10, "non-negative"), (0, -1, "non-negative")],
)
def test_wilson_rejects_bad_counts(successes: int, trials: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        proportion_ci(successes, trials)


# --- paired_difference_ci -----------------------------------------------------


def test_paired_is_narrower_for_correlated_data() -> None:
    rng = np.random.default_rng(0)
    shared = rng.normal(0.0, 5.0, size=200)
    a = shared + rng.normal(0.0, 1.0, size=200) + 0.5
    b = shared + rng.normal(0.0, 1.0, size=200)
    mean, low, high = paired_difference_ci(a, b)[:3]
    assert mean == pytest.approx(np.mean(a - b))
    assert low > 0.0  # pairing detects the shift...
    _, a_low, a_high = mean_ci(a)[:3]
    _, b_low, b_high = mean_ci(b)[:3]
    unpaired_half = math.hypot(a_high - a_low, b_high - b_low) / 2
    assert unpaired_half > 0.5  # ...that independent intervals could not
    assert high - low < 0.5 * unpaired_half


def test_paired_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="a and b must have the same length, got 3 and 2"):
        paired_difference_ci([1.0, 2.0, 3.0], [1.0, 2.0])


# --- clustered_mean_ci --------------------------------------------------------


def test_clustered_equals_t_ci_for_singleton_clusters() -> None:
    rng = np.random.default_rng(1)
    values = rng.normal(size=37)
    clusters = rng.permutation(37)
    assert clustered_mean_ci(values, clusters)[:3] == pytest.approx(mean_ci(values)[:3], rel=1e-12)


def test_clustered_equal_sizes_is_t_ci_of_cluster_means() -> None:
    rng = np.random.default_rng(2)
    values = rng.normal(size=(12, 4))
    labels = np.repeat([f"g{i}" for i in range(12)], 4)
    expected = mean_ci(values.mean(axis=1), 0.9)[:3]
    assert clustered_mean_ci(values.ravel(), labels, 0.9)[:3] == pytest.approx(expected, rel=1e-12)


def test_clustered_hand_computed_unequal_sizes() -> None:
    # Cluster sums 10 (size 2) and 21 (size 4): ratio 31/6, residuals -1/3 and 1/3,
    # variance 2/1 * (2/9) / 6**2.
    mean, low, high = clustered_mean_ci([0, 10, 0, 10, 11, 0], [7, 7, 9, 9, 9, 9])[:3]
    half = T975_1 * math.sqrt(4 / 324)
    assert (mean, low, high) == pytest.approx((31 / 6, 31 / 6 - half, 31 / 6 + half), rel=1e-12)


def test_clustered_coverage_where_naive_interval_fails() -> None:
    # 40 games of 5 deals, intra-game correlation 0.5: design effect 3.
    rng = np.random.default_rng(0)
    clusters = np.repeat(np.arange(40), 5)
    clustered = naive = 0
    for _ in range(1000):
        values = np.repeat(rng.normal(size=40), 5) + rng.normal(size=200)
        _, low, high = clustered_mean_ci(values, clusters)[:3]
        clustered += low <= 0.0 <= high
        _, low, high = mean_ci(values)[:3]
        naive += low <= 0.0 <= high
    assert 0.93 <= clustered / 1000 <= 0.97
    assert naive / 1000 < 0.85


def test_clustered_degenerate_and_errors() -> None:
    assert clustered_mean_ci([1.0, 3.0], [5, 5]).estimate == 2.0
    assert math.isnan(clustered_mean_ci([1.0, 3.0], [5, 5]).low)
    assert all(math.isnan(v) for v in clustered_mean_ci([], [])[:3])
    with pytest.raises(ValueError, match="must have the same length"):
        clustered_mean_ci([1.0, 2.0], [0, 1, 2])


# --- strategy_summary ---------------------------------------------------------


def _small_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two 3-seat games of two deals (2 cards, then 1); strategy C never plays.

    Game 0 seats A, A, B; game 1 seats A, B, B.  Scores are 10 + bid when made.
    """
    strategy = pd.CategoricalDtype(["A", "B", "C"])
    # game, deal, seat, strategy, bid, tricks, score
    rows = [
        (0, 0, 0, "A", 1, 1, 11),
        (0, 0, 1, "A", 0, 0, 10),
        (0, 0, 2, "B", 0, 1, 0),
        (0, 1, 0, "A", 1, 0, 0),
        (0, 1, 1, "A", 0, 1, 0),
        (0, 1, 2, "B", 0, 0, 10),
        (1, 0, 0, "A", 2, 2, 12),
        (1, 0, 1, "B", 1, 0, 0),
        (1, 0, 2, "B", 0, 0, 10),
        (1, 1, 0, "A", 0, 0, 10),
        (1, 1, 1, "B", 1, 1, 11),
        (1, 1, 2, "B", 1, 0, 0),
    ]
    hands = pd.DataFrame(
        rows, columns=["game", "deal", "seat", "strategy", "bid", "tricks", "score"]
    )
    hands = hands.astype(
        {
            "game": "int32",
            "deal": "int8",
            "seat": "int8",
            "strategy": strategy,
            "bid": "int8",
            "tricks": "int8",
            "score": "int16",
        }
    )
    hands["dealer"] = hands["game"].astype("int8")
    hands["hand_size"] = (2 - hands["deal"]).astype("int8")
    hands["trump"] = np.int8(0)
    games = pd.DataFrame(
        {
            "game": np.array([0, 0, 0, 1, 1, 1], dtype="int32"),
            "seat": np.array([0, 1, 2, 0, 1, 2], dtype="int8"),
            "strategy": pd.Categorical(list("AABABB"), dtype=strategy),
            "total": np.array([10, 20, 30, 40, 40, 10], dtype="int32"),
            "win_share": [0.0, 0.0, 1.0, 0.5, 0.5, 0.0],
        }
    )
    return hands, games


def _wide(summary: pd.DataFrame) -> pd.DataFrame:
    """A tidy summary indexed by (strategy, measure), for reading single values."""
    return summary.set_index(["strategy", "measure"])


def test_strategy_summary_exact_values() -> None:
    summary = strategy_summary(*_small_frames())
    assert list(summary.columns) == ["strategy", "measure", *ESTIMATE_COLUMNS]
    assert summary["strategy"].drop_duplicates().tolist() == ["A", "B"]
    assert summary["measure"].tolist() == list(SUMMARY_MEASURES) * 2
    s = _wide(summary)
    a, b = s.loc["A"], s.loc["B"]
    # Game-level measures count games, per-deal ones (game, deal, seat) rows.
    assert a.loc["mean_total", "n"] == 2 and a.loc["made_rate", "n"] == 6
    assert a.loc["mean_total", "method"] == "Student t"
    assert a.loc["made_rate", "method"].startswith("cluster-robust t")
    # A: per-game seat averages 15 and 40 (not the seat mean 70/3); B: 30 and 25.
    assert a.loc["mean_total", "estimate"] == 27.5
    assert tuple(a.loc["mean_total", ["low", "high"]]) == pytest.approx(
        (27.5 - T975_1 * 12.5, 27.5 + T975_1 * 12.5), rel=1e-12
    )
    assert b.loc["mean_total", "estimate"] == 27.5
    assert b.loc["mean_total", "high"] == pytest.approx(27.5 + T975_1 * 2.5, rel=1e-12)
    assert (a.loc["win_share", "estimate"], b.loc["win_share", "estimate"]) == (0.25, 0.625)

    assert a.loc["mean_score", "estimate"] == pytest.approx(43 / 6)
    assert b.loc["mean_score", "estimate"] == pytest.approx(31 / 6)
    half = T975_1 * math.sqrt(4 / 324)
    assert tuple(b.loc["mean_score", ["low", "high"]]) == pytest.approx(
        (31 / 6 - half, 31 / 6 + half), rel=1e-12
    )
    assert a.loc["made_rate", "estimate"] == pytest.approx(4 / 6)
    assert b.loc["made_rate", "estimate"] == pytest.approx(3 / 6)
    # A bids zero in exactly half its deals of both games: zero cluster variance.
    assert tuple(a.loc["zero_bid_rate", ["estimate", "low", "high"]]) == pytest.approx(
        (0.5, 0.5, 0.5)
    )
    # With two games the rate intervals are wide and clipped to [0, 1].
    assert tuple(a.loc["made_rate", ["low", "high"]]) == (0.0, 1.0)
    assert tuple(a.loc["win_share", ["low", "high"]]) == (0.0, 1.0)


def test_strategy_summary_matches_direct_calls_on_larger_data() -> None:
    rng = np.random.default_rng(3)
    n_games, seats, deals = 60, 4, 5
    game = np.repeat(np.arange(n_games), deals * seats)
    strategy = rng.choice(["x", "y"], size=(n_games, seats))
    hands = pd.DataFrame(
        {
            "game": game.astype("int32"),
            "strategy": pd.Categorical(np.repeat(strategy, deals, axis=0).ravel()),
            "bid": rng.integers(0, 3, size=game.size).astype("int8"),
            "tricks": rng.integers(0, 3, size=game.size).astype("int8"),
            "score": rng.integers(0, 13, size=game.size).astype("int16"),
        }
    )
    games = pd.DataFrame(
        {
            "game": np.repeat(np.arange(n_games), seats).astype("int32"),
            "strategy": pd.Categorical(strategy.ravel()),
            "total": rng.integers(0, 100, size=n_games * seats).astype("int32"),
            "win_share": rng.random(n_games * seats),
        }
    )
    summary = _wide(strategy_summary(hands, games, confidence=0.9))
    x_hands = hands[hands["strategy"] == "x"]
    expected = clustered_mean_ci(x_hands["bid"] == x_hands["tricks"], x_hands["game"], 0.9)
    assert tuple(summary.loc[("x", "made_rate"), ["estimate", "low", "high"]]) == (
        pytest.approx(expected[:3])
    )
    assert summary.loc[("x", "made_rate"), "n"] == len(x_hands)
    per_game = games[games["strategy"] == "x"].groupby("game")["total"].mean()
    assert tuple(summary.loc[("x", "mean_total"), ["estimate", "low", "high"]]) == (
        pytest.approx(mean_ci(per_game, 0.9)[:3])
    )


def test_strategy_summary_reports_missing_columns() -> None:
    hands, games = _small_frames()
    with pytest.raises(ValueError, match=r"hands is missing columns \['score'\]"):
        strategy_summary(hands.drop(columns="score"), games)
    with pytest.raises(ValueError, match=r"games is missing columns \['win_share'\]"):
        strategy_summary(hands, games.drop(columns="win_share"))


# --- format_summary -----------------------------------------------------------


def test_format_summary() -> None:
    summary = strategy_summary(*_small_frames())
    lines = format_summary(summary).splitlines()
    assert len(lines) == 3
    assert lines[0].split() == ["strategy", *SUMMARY_MEASURES]
    low = 27.5 - T975_1 * 12.5
    assert lines[1].startswith("A ")
    assert f"27.500 [{low:.3f}, " in lines[1]
    assert "0.500 [0.500, 0.500]" in lines[1]
    assert "0.6 [0.0, 1.0]" in format_summary(summary, digits=1).splitlines()[2]
    assert len({len(line) for line in lines}) == 1  # columns are aligned


def test_format_summary_of_a_wide_table_and_without_intervals() -> None:
    frame = pd.DataFrame({"n": [1, 20], "x": [0.5, 2.25]}, index=pd.Index(["p", "q"], name="k"))
    assert format_summary(frame, digits=2) == "k   n     x\np   1  0.50\nq  20  2.25"
    wide = pd.DataFrame({"x": [0.5], "x_low": [0.25], "x_high": [0.75]}, index=["p"])
    assert format_summary(wide, digits=2).splitlines()[1] == "p  0.50 [0.25, 0.75]"


# --- tidy tables, pooling, many comparisons, bootstrap ----------------------------


def _kidney_stones() -> pd.DataFrame:
    """Simpson's paradox: treatment a succeeds more often within each stratum, less overall.

    Small stones: a 81/87, b 234/270; large stones: a 192/263, b 55/80.
    """
    cells = [
        ("a", "small", 81, 87),
        ("b", "small", 234, 270),
        ("a", "large", 192, 263),
        ("b", "large", 55, 80),
    ]
    rows = [
        (arm, size, outcome)
        for arm, size, hits, n in cells
        for outcome in [1.0] * hits + [0.0] * (n - hits)
    ]
    frame = pd.DataFrame(rows, columns=["arm", "size", "success"])
    frame["game"] = np.arange(len(frame))  # every patient is an independent unit
    return frame


def test_standardised_pooling_follows_the_strata_not_the_crude_totals() -> None:
    frame = _kidney_stones()
    crude = frame.groupby("arm")["success"].mean()
    assert crude["a"] < crude["b"]  # the paradox: pooled rows favour b
    within = frame.groupby(["size", "arm"])["success"].mean().unstack("arm")
    assert (within["a"] > within["b"]).all()  # ...though a wins in every stratum
    pooled = standardised_mean(frame, frame["success"], ["arm"], "size").set_index("arm")
    assert list(pooled.columns) == list(ESTIMATE_COLUMNS)
    # Equal weight per stratum: the average of the two strata's rates.
    assert pooled.loc["a", "estimate"] == pytest.approx((81 / 87 + 192 / 263) / 2, rel=1e-12)
    assert pooled.loc["b", "estimate"] == pytest.approx((234 / 270 + 55 / 80) / 2, rel=1e-12)
    assert pooled.loc["a", "estimate"] > pooled.loc["b", "estimate"]
    # Independent rows: the variance is the sum of the strata's (n - 1 denominators
    # aside), so the half-width is close to the z-combination of the strata's s.e.
    sizes = frame[frame["arm"] == "a"].groupby("size")["success"].agg(["var", "size"])
    se = math.sqrt((sizes["var"] / sizes["size"]).sum()) / 2
    half = (pooled.loc["a", "high"] - pooled.loc["a", "low"]) / 2
    assert half == pytest.approx(1.96 * se, rel=0.01)


def test_standardised_with_one_stratum_is_the_clustered_mean() -> None:
    rng = np.random.default_rng(4)
    values, clusters = rng.normal(size=90), np.repeat(np.arange(30), 3)
    one = standardised_mean_ci(values, np.zeros(90), clusters)
    assert one[:3] == pytest.approx(clustered_mean_ci(values, clusters)[:3], rel=1e-12)


def test_holm_adjustment() -> None:
    # Sorted 0.01, 0.03, 0.04 times 3, 2, 1, then made monotone: 0.03, 0.06, 0.06.
    assert adjust_pvalues([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert adjust_pvalues([0.01, 0.04], method="bonferroni") == pytest.approx([0.02, 0.08])
    with pytest.raises(ValueError, match=r"pvalues must lie in \[0, 1\]"):
        adjust_pvalues([0.5, 1.5])


def test_grouped_mean_is_tidy_and_clips_rates() -> None:
    frame = pd.DataFrame({"g": ["x"] * 3 + ["y"] * 3, "game": [0, 1, 2, 0, 1, 2]})
    table = grouped_mean(frame, np.array([True, True, False, True, True, True]), ["g"])
    assert list(table.columns) == ["g", *ESTIMATE_COLUMNS]
    x, y = table.iloc[0], table.iloc[1]
    assert x["estimate"] == pytest.approx(2 / 3) and x["n"] == 3
    assert x["high"] == 1.0  # the t interval of a rate is clipped at 1
    assert (y["low"], y["high"]) == (1.0, 1.0)


def test_grouped_and_standardised_means_are_those_of_each_groupby_group() -> None:
    # Sorted groups of a string, an integer and a categorical key (an unused
    # category, rows of a missing key left out, as groupby leaves them), each
    # group's rows in their order in the frame.
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "a": rng.choice(np.array(["x", "y", None], dtype=object), 400),
            "b": rng.integers(0, 3, 400),
            "c": pd.Categorical(rng.choice(["p", "q"], 400), categories=["q", "p", "r"]),
            "players": rng.integers(3, 5, 400),
            "game": rng.integers(0, 50, 400),
        }
    )
    values = rng.normal(size=400)
    data = frame.assign(v=values)
    for by in (["a"], ["a", "b"], ["c", "b"], []):
        groups = data.groupby(by, observed=True, sort=True) if by else [((), data)]
        means = grouped_mean(frame, values, by)
        standardised = standardised_mean(frame, values, by, "players")
        assert len(means) == len(standardised) == len(groups)
        for i, (key, group) in enumerate(groups):
            key = key if isinstance(key, tuple) else (key,)
            assert tuple(means.iloc[i][by]) == key == tuple(standardised.iloc[i][by])
            clustered = clustered_mean_ci(group["v"].to_numpy(), group["game"].to_numpy())
            pooled = standardised_mean_ci(
                group["v"].to_numpy(), group["players"].to_numpy(), group["game"].to_numpy()
            )
            assert means.iloc[i]["estimate"] == clustered.estimate
            assert means.iloc[i]["low"] == clustered.low
            assert standardised.iloc[i]["estimate"] == pooled.estimate
            assert standardised.iloc[i]["high"] == pooled.high


def test_paired_by_game_averages_each_game_then_pairs() -> None:
    rng = np.random.default_rng(5)
    games = np.repeat(np.arange(20), 2)
    frame = pd.DataFrame({"arm": ["on", "off"] * 20, "game": games})
    values = rng.normal(size=40) + np.where(frame["arm"] == "on", 1.0, 0.0)
    table = paired_by_game(frame, values, "arm", "on", "off")
    expected = paired_difference_ci(values[0::2], values[1::2])
    assert table.loc[0, "n"] == 20
    assert tuple(table.loc[0, ["estimate", "low", "high"]]) == pytest.approx(expected[:3])
    assert table.loc[0, "method"] == expected.method
    # Boolean arm labels (hook on/off) are labels, not a mask.
    flags = frame.assign(arm=frame["arm"] == "on")
    by_flag = paired_by_game(flags, values, "arm", True, False)
    assert tuple(by_flag.loc[0, ["estimate", "low", "high"]]) == pytest.approx(expected[:3])


def test_bootstrap_by_game_is_reproducible_and_close_to_the_t_interval() -> None:
    rng = np.random.default_rng(6)
    frame = pd.DataFrame({"game": np.repeat(np.arange(300), 2), "x": rng.normal(size=600)})

    def mean_of_games(f: pd.DataFrame) -> float:
        return float(f.groupby("game")["x"].mean().mean())

    first = bootstrap_by_game(frame, mean_of_games, resamples=300, seed=1)
    assert first == bootstrap_by_game(frame, mean_of_games, resamples=300, seed=1)
    assert first.estimate == mean_of_games(frame) and first.n == 300
    t = mean_ci(frame.groupby("game")["x"].mean().to_numpy())
    assert first.high - first.low == pytest.approx(t.high - t.low, rel=0.2)
    fast = bootstrap_matrix(
        frame["x"].to_numpy().reshape(300, 2), lambda m: m.mean(), resamples=300, seed=1
    )
    assert fast.estimate == pytest.approx(first.estimate)
    assert fast.high - fast.low == pytest.approx(t.high - t.low, rel=0.2)


def test_bootstrap_matrix_difference_resamples_the_paired_rows_together() -> None:
    rng = np.random.default_rng(5)
    first = rng.normal(size=(80, 3))
    second = first + 1.0 + rng.normal(scale=0.01, size=(80, 3))
    est = bootstrap_matrix_difference(first, second, np.mean, resamples=300)
    # The pairs move together, so the interval of the difference is narrow around -1.
    assert est.estimate == pytest.approx(-1.0, abs=0.01)
    assert -1.01 < est.low <= est.estimate <= est.high < -0.99
    joint = bootstrap_matrix(
        np.hstack([first, second]), lambda m: m[:, :3].mean() - m[:, 3:].mean(), resamples=300
    )
    assert est == joint


def test_stratum_ids_number_the_groups_in_order_of_appearance() -> None:
    frame = pd.DataFrame({"a": [2, 1, 2, 1], "b": ["x", "x", "x", "y"]})
    assert stratum_ids(frame, ["a", "b"]).tolist() == [0, 1, 0, 2]
    assert stratum_ids(frame, []).tolist() == [0, 0, 0, 0]


def test_standardised_means_pool_the_groups_of_several_columns() -> None:
    rng = np.random.default_rng(8)
    frame = pd.DataFrame(
        {
            "arm": np.repeat(["a", "b"], 200),
            "s1": rng.choice([0, 1], size=400),
            "s2": rng.choice(["u", "v"], size=400),
            "game": np.arange(400) // 2,
        }
    )
    values = rng.random(400) < np.where(frame["s1"] == 1, 0.9, 0.1)
    table = standardised_means(frame, values, ["arm"], ["s1", "s2"], bounded=True)
    one_column = frame.assign(s=frame["s1"].astype(str) + frame["s2"])
    expected = standardised_mean(one_column, values, ["arm"], "s")
    assert table["estimate"].to_numpy() == pytest.approx(expected["estimate"].to_numpy())
    assert table["strata"].tolist() == [4, 4]
    assert (table["low"] >= 0).all() and (table["high"] <= 1).all()


def test_standardised_difference_is_the_difference_of_the_means_over_common_strata() -> None:
    rng = np.random.default_rng(5)
    n = 4000
    frame = pd.DataFrame(
        {
            "group": rng.choice(["x", "y"], size=n, p=[0.3, 0.7]),
            "size": rng.choice([1, 5, 9], size=n),
            "game": np.arange(n),
        }
    )
    frame["value"] = rng.normal(size=n) + (frame["group"] == "x") * 0.4 + frame["size"] * 0.1
    frame.loc[(frame["group"] == "y") & (frame["size"] == 9), "size"] = 7  # y lacks size 9
    est, influence = standardised_difference(frame, frame["value"], "group", "x", "y", ["size"])
    common = frame[frame["size"].isin([1, 5])]
    sides = {
        g: standardised_mean_ci(part["value"], part["size"], part["game"])
        for g, part in common.groupby("group")
    }
    # Only the strata both groups have count, each with the same weight.
    assert est.estimate == pytest.approx(sides["x"].estimate - sides["y"].estimate)
    assert est.n == len(common) and est.method == STANDARDISED_DIFFERENCE_METHOD
    # Independent rows: the variance is the sum of the two sides' variances.
    half = math.hypot(*((s.high - s.low) / 2 for s in sides.values()))
    assert (est.high - est.low) / 2 == pytest.approx(half, rel=0.01)
    # The influences carry that variance: G / (G - 1) times their sum of squares.
    games = len(influence)
    se = math.sqrt(games / (games - 1) * float((influence**2).sum()))
    assert (est.high - est.low) / 2 == pytest.approx(t_quantile(0.975, games - 1) * se)
    thin, none = standardised_difference(
        frame, frame["value"], "group", "x", "y", ["size"], min_rows=n
    )
    assert math.isnan(thin.estimate) and thin.n == 0 and none.empty
    missing, _ = standardised_difference(frame, frame["value"], "group", "x", "nope", ["size"])
    assert math.isnan(missing.estimate)
