"""Tests of ohhell_sim.analysis.stats against table values and hand computations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ohhell_sim.analysis.stats import (
    clustered_mean_ci,
    format_summary,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
    strategy_summary,
    t_quantile,
)

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
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.7764451051977987 * math.sqrt(2.5 / 5)
    assert (mean, low, high) == pytest.approx((3.0, 3.0 - half, 3.0 + half), rel=1e-12)


def test_mean_ci_small_samples() -> None:
    assert mean_ci([4.0])[0] == 4.0
    assert all(math.isnan(v) for v in mean_ci([4.0])[1:])
    assert all(math.isnan(v) for v in mean_ci([]))
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)


def test_mean_ci_coverage() -> None:
    # n = 5 is small enough that a normal quantile would cover only about 88 %.
    samples = np.random.default_rng(0).normal(3.0, 2.0, size=(2000, 5))
    covered = 0
    for sample in samples:
        _, low, high = mean_ci(sample)
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
    assert proportion_ci(8, 10) == pytest.approx((0.8, 0.4902, 0.9433), abs=5e-5)


def test_wilson_edges() -> None:
    z2 = 1.959963984540054**2
    assert proportion_ci(0, 10) == pytest.approx((0.0, 0.0, z2 / (10 + z2)), abs=1e-14)
    assert proportion_ci(10, 10) == pytest.approx((1.0, 10 / (10 + z2), 1.0), abs=1e-14)
    assert all(math.isnan(v) for v in proportion_ci(0, 0))


def test_wilson_vectorised() -> None:
    p_hat, low, high = proportion_ci(np.array([8, 0, 3]), np.array([10, 0, 3]))
    assert isinstance(p_hat, np.ndarray)
    assert p_hat.shape == (3,)
    assert (p_hat[0], low[0], high[0]) == pytest.approx(proportion_ci(8, 10))
    assert np.isnan([p_hat[1], low[1], high[1]]).all()
    assert high[2] == 1.0


def test_wilson_coverage() -> None:
    successes = np.random.default_rng(0).binomial(50, 0.3, size=2000)
    _, low, high = proportion_ci(successes, 50)
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
    mean, low, high = paired_difference_ci(a, b)
    assert mean == pytest.approx(np.mean(a - b))
    assert low > 0.0  # pairing detects the shift...
    _, a_low, a_high = mean_ci(a)
    _, b_low, b_high = mean_ci(b)
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
    assert clustered_mean_ci(values, clusters) == pytest.approx(mean_ci(values), rel=1e-12)


def test_clustered_equal_sizes_is_t_ci_of_cluster_means() -> None:
    rng = np.random.default_rng(2)
    values = rng.normal(size=(12, 4))
    labels = np.repeat([f"g{i}" for i in range(12)], 4)
    expected = mean_ci(values.mean(axis=1), 0.9)
    assert clustered_mean_ci(values.ravel(), labels, 0.9) == pytest.approx(expected, rel=1e-12)


def test_clustered_hand_computed_unequal_sizes() -> None:
    # Cluster sums 10 (size 2) and 21 (size 4): ratio 31/6, residuals -1/3 and 1/3,
    # variance 2/1 * (2/9) / 6**2.
    mean, low, high = clustered_mean_ci([0, 10, 0, 10, 11, 0], [7, 7, 9, 9, 9, 9])
    half = T975_1 * math.sqrt(4 / 324)
    assert (mean, low, high) == pytest.approx((31 / 6, 31 / 6 - half, 31 / 6 + half), rel=1e-12)


def test_clustered_coverage_where_naive_interval_fails() -> None:
    # 40 games of 5 deals, intra-game correlation 0.5: design effect 3.
    rng = np.random.default_rng(0)
    clusters = np.repeat(np.arange(40), 5)
    clustered = naive = 0
    for _ in range(1000):
        values = np.repeat(rng.normal(size=40), 5) + rng.normal(size=200)
        _, low, high = clustered_mean_ci(values, clusters)
        clustered += low <= 0.0 <= high
        _, low, high = mean_ci(values)
        naive += low <= 0.0 <= high
    assert 0.93 <= clustered / 1000 <= 0.97
    assert naive / 1000 < 0.85


def test_clustered_degenerate_and_errors() -> None:
    assert clustered_mean_ci([1.0, 3.0], [5, 5])[0] == 2.0
    assert math.isnan(clustered_mean_ci([1.0, 3.0], [5, 5])[1])
    assert all(math.isnan(v) for v in clustered_mean_ci([], []))
    with pytest.raises(ValueError, match="values and clusters must have the same length"):
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


def test_strategy_summary_exact_values() -> None:
    summary = strategy_summary(*_small_frames())
    assert list(summary.index) == ["A", "B"]
    assert summary.index.name == "strategy"
    assert list(summary.columns[:4]) == ["seats", "mean_total", "mean_total_low", "mean_total_high"]
    assert summary.shape[1] == 16
    assert summary["seats"].tolist() == [3, 3]

    a, b = summary.loc["A"], summary.loc["B"]
    # A: per-game seat averages 15 and 40 (not the seat mean 70/3); B: 30 and 25.
    assert a["mean_total"] == 27.5
    assert (a["mean_total_low"], a["mean_total_high"]) == pytest.approx(
        (27.5 - T975_1 * 12.5, 27.5 + T975_1 * 12.5), rel=1e-12
    )
    assert b["mean_total"] == 27.5
    assert b["mean_total_high"] == pytest.approx(27.5 + T975_1 * 2.5, rel=1e-12)
    assert (a["win_share"], b["win_share"]) == (0.25, 0.625)

    assert a["mean_score"] == pytest.approx(43 / 6)
    assert b["mean_score"] == pytest.approx(31 / 6)
    half = T975_1 * math.sqrt(4 / 324)
    assert (b["mean_score_low"], b["mean_score_high"]) == pytest.approx(
        (31 / 6 - half, 31 / 6 + half), rel=1e-12
    )
    assert (a["made_rate"], b["made_rate"]) == pytest.approx((4 / 6, 3 / 6))
    assert (a["zero_bid_rate"], b["zero_bid_rate"]) == pytest.approx((0.5, 0.5))
    # A bids zero in exactly half its deals of both games: zero cluster variance.
    assert (a["zero_bid_rate_low"], a["zero_bid_rate_high"]) == pytest.approx((0.5, 0.5))
    # With two games the rate intervals are wide and clipped to [0, 1].
    assert (a["made_rate_low"], a["made_rate_high"]) == (0.0, 1.0)
    assert (a["win_share_low"], a["win_share_high"]) == (0.0, 1.0)


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
    summary = strategy_summary(hands, games, confidence=0.9)
    x_hands = hands[hands["strategy"] == "x"]
    expected = clustered_mean_ci(x_hands["bid"] == x_hands["tricks"], x_hands["game"], 0.9)
    assert tuple(summary.loc["x", ["made_rate", "made_rate_low", "made_rate_high"]]) == (
        pytest.approx(expected)
    )
    per_game = games[games["strategy"] == "x"].groupby("game")["total"].mean()
    assert tuple(summary.loc["x", ["mean_total", "mean_total_low", "mean_total_high"]]) == (
        pytest.approx(mean_ci(per_game, 0.9))
    )
    assert summary["seats"].sum() == n_games * seats


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
    assert lines[0].split() == [
        "strategy",
        "seats",
        "mean_total",
        "mean_score",
        "made_rate",
        "zero_bid_rate",
        "win_share",
    ]
    low = 27.5 - T975_1 * 12.5
    assert lines[1].startswith("A ")
    assert f"27.500 [{low:.3f}, " in lines[1]
    assert "0.500 [0.500, 0.500]" in lines[1]
    assert "0.6 [0.0, 1.0]" in format_summary(summary, digits=1).splitlines()[2]
    assert len({len(line) for line in lines}) == 1  # columns are aligned


def test_format_summary_without_intervals() -> None:
    frame = pd.DataFrame({"n": [1, 20], "x": [0.5, 2.25]}, index=pd.Index(["p", "q"], name="k"))
    assert format_summary(frame, digits=2) == "k   n     x\np   1  0.50\nq  20  2.25"
