"""The ``hook_rule`` study's design and analysis: fields, standardised pooling, the family."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.analysis.stats import paired_by_game
from ohhell_sim.errors import InvalidArgumentError
from studies import hook_rule
from studies.design import FIELDS
from studies.hook_rule import STANDARDISED, per_game_difference, with_standardised


def _exact(rate: float, size: int) -> np.ndarray:
    """``size`` zeros and ones with exactly ``round(rate * size)`` ones, in a fixed shuffle."""
    ones = round(rate * size)
    values = np.array([1.0] * ones + [0.0] * (size - ones))
    return np.random.default_rng(size).permutation(values)


def _simpson_hands(games: int = 400) -> pd.DataFrame:
    """Made bids per seat: the dealer makes more than the others at every table size,
    but a raw pool over table sizes says the opposite (the larger table, where every
    seat makes more, holds far more non-dealer rows)."""
    rates = {3: (0.46, 0.45), 7: (0.71, 0.70)}  # players -> (dealer, other seats)
    rows = []
    for players, (dealer, other) in rates.items():
        for role, rate, seats in (("dealer", dealer, 1), ("other seats", other, players - 1)):
            made = _exact(rate, games * seats)
            rows.append(
                pd.DataFrame(
                    {
                        "field": "simple",
                        "players": players,
                        "role": role,
                        "game": np.repeat(np.arange(games), seats),
                        "made": made,
                    }
                )
            )
    return pd.concat(rows, ignore_index=True)


def test_standardised_rows_follow_the_table_sizes_not_the_raw_pool():
    hands = _simpson_hands()
    crude = hands.groupby("role")["made"].mean()
    assert crude["dealer"] < crude["other seats"]  # the paradox is there...
    within = hands.groupby(["players", "role"])["made"].mean().unstack("role")
    assert (within["dealer"] > within["other seats"]).all()  # ...against every stratum

    table = with_standardised(hands, hands["made"], ["role"]).set_index(["players", "role"])
    pooled = table.loc[STANDARDISED]
    assert pooled.loc["dealer", "estimate"] > pooled.loc["other seats", "estimate"]
    assert pooled.loc["dealer", "estimate"] == pytest.approx((0.46 + 0.71) / 2)
    # The per-table-size rows are the plain means, the standardised row comes last.
    assert table.loc[(3, "dealer"), "estimate"] == pytest.approx(0.46)
    assert list(table.index.get_level_values("players"))[-1] == STANDARDISED

    # The same through the paired path: the per-game edge is positive in each stratum,
    # so its standardised row is too.
    edge = per_game_difference(hands, hands["made"], "role", "dealer", "other seats")
    edges = with_standardised(edge, edge["value"]).set_index("players")
    assert (edges.loc[[3, 7], "estimate"] > 0).all()
    assert edges.loc[STANDARDISED, "estimate"] == pytest.approx(0.01)


def test_per_game_differences_give_the_paired_interval():
    rng = np.random.default_rng(3)
    n = 300
    frame = pd.DataFrame(
        {
            "field": np.repeat(["simple", "mix"], 2 * n),
            "players": 4,
            "hook": np.tile(np.repeat([True, False], n), 2),
            "game": np.tile(np.arange(n), 4),
        }
    )
    frame["score"] = rng.normal(5, 3, len(frame)) - 0.5 * frame["hook"]
    difference = per_game_difference(frame, frame["score"], "hook", True, False)
    ours = with_standardised(difference, difference["value"])
    ours = ours[ours["players"] != STANDARDISED].set_index("field")
    paired = paired_by_game(frame, frame["score"], "hook", True, False, by=["field"])
    paired = paired.set_index("field")
    for column in ("estimate", "low", "high"):
        assert ours.loc[paired.index, column].to_numpy() == pytest.approx(paired[column].to_numpy())


def test_conditions_cover_fields_sizes_and_both_hooks():
    conditions = hook_rule.conditions(400, (3, 5), fields=("simple", "mc_bidder"))
    labels = {(c.label["players"], c.label["field"], c.label["hook"]) for c in conditions}
    assert labels == {
        (n, f, h) for n in (3, 5) for f in ("simple", "mc_bidder") for h in (True, False)
    }
    games = {c.label["field"]: c.games for c in conditions}
    assert games == {"simple": 400, "mc_bidder": hook_rule.field_games("mc_bidder", 400)}
    assert games["mc_bidder"] < 400
    assert all(c.rules.hook == c.label["hook"] for c in conditions)
    assert hook_rule.DEFAULT_FIELDS == FIELDS
    with pytest.raises(InvalidArgumentError, match="unknown field 'nope'"):
        hook_rule.conditions(10, (4,), fields=("nope",))


def test_with_standardised_names_a_missing_stratum():
    frame = pd.DataFrame({"field": ["simple"], "game": [0], "value": [1.0]})
    with pytest.raises(InvalidArgumentError, match="stratum must be a column"):
        with_standardised(frame, frame["value"])


@pytest.fixture(scope="module")
def small_run():
    return hook_rule.play(16, seed=5, players=(3, 4), progress=False, fields=("simple", "mix"))


def test_the_family_is_adjusted_replicated_and_judged_per_field(small_run):
    hands = hook_rule._with_positions(small_run.hands)
    hands["field"] = hands["field"].astype(str)
    deals = hook_rule.deal_frame(small_run.hands)
    deals["field"] = deals["field"].astype(str)
    games = small_run.games.assign(field=small_run.games["field"].astype(str))
    family = hook_rule.effect_family(hook_rule.effect_games(hands, deals, games))
    # Five effects in each of two fields, at two sizes plus the standardised row, and
    # the three strategies' win shares in the mix field.
    assert len(family) == 5 * 2 * 3 + 3 * 3
    assert (family["correction"] == f"holm over {len(family)}").all()
    assert {"p_adjusted", "survives", "replication", "even_estimate", "odd_low"} <= set(family)
    assert (family["p_adjusted"] >= family["p"]).all()
    share = family[family["effect"].astype(str).str.startswith("win share")]
    assert set(share["field"]) == {"mix"}
    verdict = hook_rule.verdicts(family)
    assert list(verdict["effect"]) == list(hook_rule.FIELD_EFFECTS)
    assert (verdict["fields"] == 2).all()
    # The hook forbids one bid, which never raises the over-bid share.
    dealer = family[(family["effect"] == hook_rule.OVERBID)]
    assert (dealer["estimate"] >= 0).all()


def test_report_has_no_raw_pooled_rows(small_run):
    small_run.manifest.update(command="test")
    report = hook_rule.analyse(small_run)
    for table in report.tables:
        if "players" in table.frame:
            assert "all" not in set(table.frame["players"]), table.title
    assert any(STANDARDISED in set(t.frame.get("players", [])) for t in report.tables)
    assert report.tables[0].title.startswith("Does each effect hold in every field?")
    method = " ".join(report.method)
    assert "holm over" in method and "Holm's method" in method
