"""Comparison families, replication on halves of the games, verdicts across strategy fields,
and the variance share: ``ohhell_sim.analysis.findings``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    CONFIRMED,
    DEPENDS_ON_FIELD,
    HOLDS_EVERYWHERE,
    NO_CONFIRMATION,
    NO_FIELD,
    NOT_CONFIRMED,
    NOT_REPLICATED,
    NOT_TESTED,
    REPLICATED,
    SAME_DIRECTION,
    SOME_FIELDS,
    SOME_FIELDS_UNTESTED,
    adjust_family,
    confirm,
    detectable_effect,
    equal_estimates_rows,
    equal_estimates_test,
    equal_standardised_means_rows,
    established,
    field_verdicts,
    half_of,
    heterogeneity,
    p_value,
    replicate,
    replication_mark,
    verdicts_across_fields,
    verdicts_with_counts,
)
from ohhell_sim.analysis.format import fmt_p
from ohhell_sim.analysis.stats import grouped_mean, mean_ci
from ohhell_sim.estimates import standardised_influence, standardised_mean_ci


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
    # Found in one field only: without a test between the fields, not "depends".
    assert out.loc["ranking change", "verdict"] == SOME_FIELDS_UNTESTED
    assert out.loc["ranking change", "significant_in"] == "learned"
    assert out.loc["noise", "verdict"] == NO_FIELD
    # Found with opposite signs: the fields do differ.
    opposite = table.assign(estimate=[-0.2, 0.9, 0, 0, 0, 0], low=[-0.3, 0.8, 0, 0, 0, 0])
    opposite["high"] = [-0.1, 1.0, 0, 0, 0, 0]
    assert field_verdicts(opposite[:2], ["effect"]).iloc[0]["verdict"] == DEPENDS_ON_FIELD
    # A family's table counts the rows established, not the raw intervals.
    judged = table.assign(survives=[True, False, False, False, False, False])
    again = field_verdicts(judged, ["effect"]).set_index("effect")
    assert again.loc["hook cost", "verdict"] == SOME_FIELDS_UNTESTED
    assert again.loc["ranking change", "verdict"] == NO_FIELD
    # Opposite signs, both significant: the effect depends on the field.
    flip = table.iloc[:2].assign(estimate=[-0.2, 0.9], low=[-0.3, 0.8], high=[-0.1, 1.0])
    assert field_verdicts(flip, [])["verdict"].item() == DEPENDS_ON_FIELD


def _rows(estimates, se, effect="e"):
    estimates, se = np.asarray(estimates, float), np.asarray(se, float)
    z = scipy_stats.norm.ppf(0.975)
    return pd.DataFrame(
        {
            "effect": effect,
            "field": [f"f{i}" for i in range(len(estimates))],
            "estimate": estimates,
            "low": estimates - z * se,
            "high": estimates + z * se,
        }
    )


def _per_game(columns: dict, stratum=None) -> pd.DataFrame:
    # One effect, a column of per-game values per field (NaN: a game not played).
    frames = [
        pd.DataFrame({"field": name, "game": np.arange(len(v)), "value": v})
        for name, v in columns.items()
    ]
    out = pd.concat(frames, ignore_index=True).dropna().assign(effect="e")
    return out if stratum is None else out.assign(players=stratum)


def test_two_fields_on_the_same_cards_are_tested_as_a_paired_t_test():
    draws = np.random.default_rng(3)
    shared = draws.normal(0.0, 3.0, 200)  # the cards: common to both fields
    x, y = shared + draws.normal(0.0, 0.5, 200), shared + 0.2 + draws.normal(0.0, 0.5, 200)
    test = heterogeneity(_per_game({"x": x, "y": y}), keys=["effect"]).iloc[0]
    assert test["df"] == 1 and test["fields"] == 2
    assert test["q"] == pytest.approx(scipy_stats.ttest_rel(x, y).statistic ** 2)
    assert test["p"] == pytest.approx(scipy_stats.chi2.sf(test["q"], 1))
    assert test["spread"] == pytest.approx(abs(x.mean() - y.mean()))
    # The same difference read as independent fields (Cochran's Q) is lost in
    # the cards' spread: the pairing is what finds it.
    se = np.hypot(x.std(ddof=1), y.std(ddof=1)) / np.sqrt(200)
    assert test["p"] < 1e-3 < 2 * scipy_stats.norm.sf(abs(x.mean() - y.mean()) / se)


def test_fields_that_differ_only_by_noise_are_not_found_to_differ():
    draws = np.random.default_rng(4)
    shared = draws.normal(0.0, 3.0, (400, 1))
    values = shared + draws.normal(0.0, 1.0, (400, 3))
    test = heterogeneity(
        _per_game({f: values[:, i] for i, f in enumerate("xyz")}), keys=["effect"]
    ).iloc[0]
    assert test["df"] == 2 and test["p"] > 0.05


def test_a_field_that_played_fewer_games_is_paired_on_the_games_it_played():
    draws = np.random.default_rng(5)
    shared = draws.normal(0.0, 3.0, 300)
    x = shared + draws.normal(0.0, 0.5, 300)
    y = np.where(np.arange(300) < 100, shared + 1.0 + draws.normal(0.0, 0.5, 300), np.nan)
    test = heterogeneity(_per_game({"x": x, "y": y}), keys=["effect"]).iloc[0]
    assert test["spread"] == pytest.approx(np.nanmean(y) - x.mean())
    # Each field's estimate is over the games it played; they covary through
    # the 100 games both played.
    rx, ry = x - x.mean(), y[:100] - np.nanmean(y)
    covariance = (rx[:100] * ry).sum() / (300 * 100) * 100 / 99
    variance = x.var(ddof=1) / 300 + ry.var(ddof=1) / 100 - 2 * covariance
    assert test["q"] == pytest.approx((np.nanmean(y) - x.mean()) ** 2 / variance)


def test_estimates_with_their_influence_are_tested_as_the_per_game_test():
    draws = np.random.default_rng(3)
    shared = draws.normal(0.0, 3.0, 200)
    x, y = shared + draws.normal(0.0, 0.5, 200), shared + 0.2 + draws.normal(0.0, 0.5, 200)
    games = np.arange(200)
    fitted = [standardised_influence(v, np.zeros(200), games) for v in (x, y)]
    test = equal_estimates_test(
        [mean for mean, _, _ in fitted], [pd.Series(z, index=g) for _, g, z in fitted]
    )
    assert test["q"] == pytest.approx(scipy_stats.ttest_rel(x, y).statistic ** 2)
    assert test["df"] == 1 and test["spread"] == pytest.approx(abs(x.mean() - y.mean()))


def test_standardised_rates_sharing_games_across_strata_keep_their_covariance():
    # Two fields' rates over hand-size strata that every game plays (rows per game
    # and stratum vary): the test's variance of the difference is that of the
    # difference's own standardised estimator.
    draws = np.random.default_rng(8)
    games = np.repeat(np.arange(300), 6)
    strata = np.tile([1, 1, 2, 2, 2, 3], 300)
    luck = draws.normal(0.0, 1.0, 300)[games]
    x = (luck + draws.normal(0.0, 1.0, games.size) > 0).astype(float)
    y = (luck + 0.15 + draws.normal(0.0, 1.0, games.size) > 0).astype(float)
    fitted = [standardised_influence(v, strata, games) for v in (x, y)]
    test = equal_estimates_test(
        [mean for mean, _, _ in fitted], [pd.Series(z, index=g) for _, g, z in fitted]
    )
    both = standardised_mean_ci(
        np.concatenate([x, -y]), np.concatenate([strata, strata + 10]), np.tile(games, 2)
    )
    difference, se = 2 * both.estimate, (both.high - both.low) / 2 / scipy_stats.t.ppf(0.975, 299)
    assert test["q"] == pytest.approx((difference / (2 * se)) ** 2)
    assert test["p"] < 0.05


def test_strata_are_pooled_with_equal_weights_and_add_their_variances():
    draws = np.random.default_rng(6)
    parts = []
    for stratum, (n, shift) in {3: (100, 0.3), 4: (400, -0.1)}.items():
        shared = draws.normal(0.0, 2.0, n)
        x, y = shared + draws.normal(0, 1, n), shared + shift + draws.normal(0, 1, n)
        parts.append((x, y))
        frame = _per_game({"x": x, "y": y}, stratum=stratum)
        frame["game"] += 1000 * stratum
        parts[-1] = (x, y, frame)
    frame = pd.concat([p[2] for p in parts], ignore_index=True)
    test = heterogeneity(frame, keys=["effect"], stratum="players").iloc[0]
    difference = np.mean([(x - y).mean() for x, y, _ in parts])
    variance = sum((x - y).var(ddof=1) / len(x) for x, y, _ in parts) / 4
    assert test["q"] == pytest.approx(difference**2 / variance)
    # One field: nothing to compare.
    alone = heterogeneity(frame[frame["field"] == "x"], keys=["effect"], stratum="players")
    assert np.isnan(alone.iloc[0]["p"])


def test_a_family_takes_the_p_values_of_its_test_rows():
    rows = pd.concat(
        [
            _rows([0.0, 3.0], [1.0, 1.0]),
            pd.DataFrame({"effect": ["e"], "field": ["between"], "estimate": [3.0], "p": [0.01]}),
        ],
        ignore_index=True,
    )
    family = adjust_family(rows)
    assert family.loc[2, "p"] == 0.01
    # Second smallest of three (3.0 with se 1 has p = 0.0027): Holm multiplies it by 2.
    assert family.loc[2, "p_adjusted"] == pytest.approx(0.02)
    assert family.loc[2, "correction"] == "holm over 3"
    assert family.loc[1, "p"] == pytest.approx(p_value(3.0, *rows.loc[1, ["low", "high"]]))


def test_confirm_carries_only_the_surviving_rows_and_needs_the_same_sign():
    first = adjust_family(_rows([3.0, 3.0, 3.0, 0.1], [0.5, 0.5, 0.5, 0.5]))
    second = adjust_family(_rows([2.5, -2.5, 0.2, 3.0], [0.5, 0.5, 0.5, 0.5]))
    out = confirm(first, second, keys=["effect", "field"])
    assert list(out["confirmation"]) == [CONFIRMED, NOT_CONFIRMED, NOT_CONFIRMED, NOT_TESTED]
    assert out.loc[0, "confirm_estimate"] == 2.5
    # Holm over the three rows carried over, not over the whole family.
    # Holm's last step leaves the largest p-value as it is.
    assert out.loc[2, "confirm_p_adjusted"] == pytest.approx(
        p_value(0.2, *second.loc[2, ["low", "high"]])
    )
    assert out.loc[0, "confirm_p_adjusted"] == pytest.approx(3 * second.loc[0, "p"])
    assert list(established(out)) == [True, False, False, False]
    alone = confirm(first, None, keys=["effect", "field"])
    assert (alone["confirmation"] == NO_CONFIRMATION).all()
    assert established(alone).equals(alone["survives"])


def test_field_dependence_is_claimed_only_on_the_test_between_fields():
    rows = pd.DataFrame(
        {
            "effect": ["a", "a", "b", "b", "c", "c", "d", "d"],
            "field": ["x", "y"] * 4,
            "estimate": [1.0, 2.0, 1.0, 0.1, 1.0, 0.9, 0.1, -0.1],
            "low": [0.5, 1.5, 0.5, -0.4, 0.5, -0.1, -0.4, -0.6],
            "high": [1.5, 2.5, 1.5, 0.6, 1.5, 1.9, 0.6, 0.4],
            "established": [True, True, True, False, True, False, False, False],
        }
    )
    between = pd.DataFrame(
        {"effect": ["a", "b", "c", "d"], "established": [True, True, False, False]}
    )
    verdict = verdicts_across_fields(rows, between, keys=["effect"]).set_index("effect")
    assert verdict.loc["a", "verdict"] == HOLDS_EVERYWHERE
    assert verdict.loc["a", "size differs"] == "yes"
    assert verdict.loc["b", "verdict"] == DEPENDS_ON_FIELD
    # Significant in one field and not the other, but no test says the fields differ.
    assert verdict.loc["c", "verdict"] == SOME_FIELDS
    assert verdict.loc["d", "verdict"] == NO_FIELD
    assert verdict.loc["b", "established in"] == "x"


def test_detectable_effect_is_the_size_found_with_the_stated_power():
    se = 0.5
    z = scipy_stats.norm.ppf(0.975)
    size = detectable_effect(np.array([-z * se]), np.array([z * se]), alpha=0.05)[0]
    assert size == pytest.approx((z + scipy_stats.norm.ppf(0.8)) * se)
    # An effect of that size, measured with that standard error, is found 80% of the time.
    assert scipy_stats.norm.sf(z - size / se) == pytest.approx(0.8, abs=1e-3)
    assert (
        detectable_effect([-1.0], [1.0], alpha=0.001)[0] > detectable_effect([-1.0], [1.0], 0.05)[0]
    )


@pytest.mark.parametrize(
    ("p", "text"), [(0.04321, "0.043"), (0.001, "0.001"), (0.00099, "< 0.001"), (1e-300, "< 0.001")]
)
def test_p_values_are_printed_to_the_precision_they_have(p, text):
    assert fmt_p(p) == text
    assert fmt_p(float("nan")) == "n/a"


def test_equal_standardised_means_rows_test_the_fields_standardised_means():
    # Two fields on the same games: the games' luck is shared, field g gains 0.5 in e2 only.
    rng = np.random.default_rng(4)
    games = np.tile(np.arange(300), 4)
    frame = pd.DataFrame(
        {
            "game": games,
            "field": np.repeat(["f", "g", "f", "g"], 300),
            "effect": np.repeat(["e1", "e1", "e2", "e2"], 300),
            "size": games % 3,
        }
    )
    gain = np.where((frame["field"] == "g") & (frame["effect"] == "e2"), 0.5, 0.0)
    shared = rng.normal(size=300)[games]
    frame["value"] = shared + gain + frame["size"] + rng.normal(scale=0.1, size=len(frame))
    rows = equal_standardised_means_rows(frame, frame["value"], ["effect"], ["size"])
    assert rows["effect"].tolist() == ["e1", "e2"] and (rows["field"] == BETWEEN_FIELDS).all()
    assert rows.loc[0, "p"] > 0.01 and rows.loc[1, "p"] < 1e-6
    assert rows.loc[1, "spread"] == pytest.approx(0.5, abs=0.05)
    assert rows[["estimate", "low", "high"]].isna().all().all()
    # Each field's standardised mean with its influence per game, as equal_estimates_test takes.
    pairs = []
    for field in ("f", "g"):
        part = frame[(frame["field"] == field) & (frame["effect"] == "e2")]
        mean, labels, z = standardised_influence(part["value"], part["size"], part["game"])
        pairs.append((mean, pd.Series(z, index=labels)))
    expected = equal_estimates_test([m for m, _ in pairs], [z for _, z in pairs])
    assert rows.loc[1, "q"] == pytest.approx(expected["q"])
    direct = equal_estimates_rows({("e2",): pairs}, ["effect"])
    pd.testing.assert_frame_equal(direct, rows.iloc[1:].reset_index(drop=True))
    # An effect of one field has nothing to compare.
    assert equal_estimates_rows({("e2",): pairs[:1]}, ["effect"]).empty


def test_verdicts_with_counts_count_the_fields_where_an_effect_holds_up():
    rows = pd.DataFrame(
        {
            "effect": ["a", "a", "b", "b"],
            "field": ["f", "g", "f", "g"],
            "estimate": [1.0, 2.0, 1.0, -1.0],
            "low": [0.5, 1.0, 0.5, -2.0],
            "high": [1.5, 3.0, 1.5, -0.5],
            "survives": [True, True, True, True],
            "established": [True, True, True, False],
            "replication": [REPLICATED, SAME_DIRECTION, REPLICATED, REPLICATED],
        }
    )
    between = pd.DataFrame({"effect": ["a", "b"], "established": [False, False]})
    out = verdicts_with_counts(rows, between, ["effect"]).set_index("effect")
    assert out.loc["a", "verdict"] == HOLDS_EVERYWHERE and out.loc["a", "headline"]
    counts = ["survives_in", "established_in", "replicated_in"]
    assert out.loc["a", counts].tolist() == [2, 2, 1]
    assert out.loc["b", counts].tolist() == [2, 1, 2]
    assert out.loc["b", "verdict"] == SOME_FIELDS and not out.loc["b", "headline"]
    assert "established in" not in out.columns
