"""The ``hook_rule`` study's design and analysis: fields, standardised pooling, the family."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    CONFIRMED,
    NO_CONFIRMATION,
    NOT_CONFIRMED,
    NOT_TESTED,
)
from ohhell_sim.analysis.format import fmt_span
from ohhell_sim.analysis.stats import paired_by_game, per_game_difference
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies import hook_rule, measures, position_rows
from ohhell_sim.studies.design import (
    FIELDS,
    POSITION_ORDER,
    STANDARDISED,
    bidding_position,
    position_categories,
    position_labels,
)
from ohhell_sim.studies.effect_rows import BY_TABLE, OPPOSITE_SIZES, with_standardised


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
    edge = per_game_difference(hands, hands["made"], "role", "dealer", "other seats", BY_TABLE)
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
    difference = per_game_difference(frame, frame["score"], "hook", True, False, BY_TABLE)
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
    assert games == {"simple": 400, "mc_bidder": hook_rule.SPEC.field_games("mc_bidder", 400)}
    assert games["mc_bidder"] < 400
    assert all(c.rules.hook == c.label["hook"] for c in conditions)
    assert hook_rule.DEFAULT_FIELDS == FIELDS
    with pytest.raises(InvalidArgumentError, match="unknown field 'nope'"):
        hook_rule.conditions(10, (4,), fields=("nope",))


def test_with_standardised_names_a_missing_stratum():
    frame = pd.DataFrame({"field": ["simple"], "game": [0], "value": [1.0]})
    with pytest.raises(InvalidArgumentError, match="stratum must be a column"):
        with_standardised(frame, frame["value"])


def test_spans_state_what_the_tables_print():
    # The In short's ranges: the lowest and highest cell as printed, a share as a percentage.
    assert fmt_span([0.2, 0.125], percent=True) == "12.5% to 20.0%"
    assert fmt_span(-pd.Series([1.1424, 5.6851])) == "-5.685 to -1.142"
    assert fmt_span([22.71, 19.34], 1) == "19.3 to 22.7"
    assert fmt_span([1.0, 1.0002]) == "1.000"
    assert fmt_span([np.nan]) == fmt_span([]) == "n/a"


@pytest.fixture(scope="module")
def small_run():
    # Every hand kept, for the tests that count them; a run keeps deal_rows of them.
    return hook_rule.SPEC.run(
        16, seed=5, players=(3, 4), progress=False, fields=("simple", "mix"), keep_hands=True
    )


def test_a_run_keeps_a_row_per_deal_and_is_judged_as_one_that_kept_every_hand(small_run):
    reduced = hook_rule.SPEC.run(
        16, seed=5, players=(3, 4), progress=False, fields=("simple", "mix")
    )
    deals = reduced.hands
    assert len(deals) == small_run.hands.groupby(["condition", "game", "deal"]).ngroups
    pd.testing.assert_frame_equal(deals, hook_rule.deal_rows(small_run.hands), check_exact=True)
    # The family, to the bit: the means over hands are sums of whole numbers over counts.
    pd.testing.assert_frame_equal(
        hook_rule.study_family(reduced), hook_rule.study_family(small_run), check_exact=True
    )


def test_deal_rows_hold_each_bidding_positions_hand(small_run):
    hands = small_run.hands
    deals = hook_rule.deal_rows(hands).set_index(["condition", "game", "deal"])
    position = bidding_position(hands)
    at = deals.loc[list(zip(hands["condition"], hands["game"], hands["deal"], strict=True))]
    rows = np.arange(len(hands))
    scores = at[list(position_rows.POSITION_SCORES)].to_numpy()[rows, position]
    made = at[list(position_rows.POSITION_MADE)].to_numpy()[rows, position]
    assert (scores == hands["score"].to_numpy()).all()
    assert (made == (hands["bid"] == hands["tricks"]).to_numpy()).all()
    assert (at["dealer"].to_numpy() == hands["dealer"].to_numpy()).all()
    # Past the table's size a position holds nothing.
    three = deals[deals["players"] == 3]
    assert (three[list(position_rows.POSITION_SCORES[3:])] == 0).all().all()


def test_role_and_position_means_are_the_means_over_the_hands(small_run):
    hands = small_run.hands
    keys = [*hook_rule.BY_HOOK, "game"]
    position = position_categories(hands)
    made = (hands["bid"] == hands["tricks"]).astype(float)
    role = np.where(position == "dealer", "dealer", "other seats")
    expected_roles = (
        hands[keys]
        .assign(role=role, score=hands["score"].astype(float), made=made)
        .groupby([*keys, "role"], observed=True)[["score", "made"]]
        .mean()
    )
    expected_positions = (
        hands[keys]
        .assign(position=position, score=hands["score"].astype(float))
        .groupby([*keys, "position"], observed=True)["score"]
        .mean()
    )
    deals = hook_rule.deal_rows(hands)
    # Any order of the rows gives the same means.
    for rows in (deals, deals.sample(frac=1.0, random_state=3)):
        roles, positions = position_rows.role_and_position_means(rows, keys)
        got_roles = roles.astype({"role": str}).set_index([*keys, "role"])[["score", "made"]]
        pd.testing.assert_frame_equal(
            got_roles.sort_index(), expected_roles.sort_index(), check_exact=True
        )
        got_positions = positions.set_index([*keys, "position"])["score"]
        pd.testing.assert_series_equal(
            got_positions.sort_index(),
            expected_positions.sort_index(),
            check_exact=True,
            check_index_type=False,
        )


def test_role_and_position_means_refuse_keys_that_join_games(small_run):
    deals = hook_rule.deal_rows(small_run.hands)
    with pytest.raises(InvalidArgumentError, match="keys must name one game"):
        position_rows.role_and_position_means(deals, ["players", "game"])


def test_the_family_is_adjusted_tested_between_fields_and_judged_per_field(small_run):
    family = hook_rule.study_family(small_run)
    effects = len(hook_rule.FIELD_EFFECTS)
    # Each field effect in two fields, at two sizes plus the standardised row; the three
    # strategies' win shares in the mix field; one test between fields per field effect.
    assert len(family) == effects * 2 * 3 + 3 * 3 + effects
    assert (family["correction"] == f"holm over {len(family)}").all()
    assert (family["p_adjusted"] >= family["p"]).all()
    between = family[family["field"] == BETWEEN_FIELDS]
    assert set(between["effect"]) == set(hook_rule.FIELD_EFFECTS)
    # Test rows carry the paired Wald statistic and its own p-value, no interval.
    assert between["low"].isna().all() and between["q"].notna().all()
    share = family[family["effect"].astype(str).str.startswith("win share")]
    assert set(share["field"]) == {"mix"}
    # The hook forbids one bid, which never raises the over-bid share.
    overbid = family[(family["effect"] == hook_rule.OVERBID) & family["low"].notna()]
    assert (overbid["estimate"] >= 0).all()


def test_surviving_rows_are_carried_to_the_confirmation_run(small_run):
    without = hook_rule.confirmed_family(small_run)
    assert (without["confirmation"] == NO_CONFIRMATION).all()
    assert without["established"].equals(without["survives"])
    second = hook_rule.SPEC.run(
        16, seed=6, players=(3, 4), progress=False, fields=("simple", "mix")
    )
    confirmed = hook_rule.confirmed_family(replace(small_run, confirmation=second))
    tested = confirmed["survives"]
    assert set(confirmed.loc[~tested, "confirmation"]) <= {NOT_TESTED}
    assert set(confirmed.loc[tested, "confirmation"]) <= {CONFIRMED, NOT_CONFIRMED}
    assert confirmed["established"].equals(confirmed["confirmation"] == CONFIRMED)
    # The confirmation's estimates are the second run's, not the first's.
    assert not np.allclose(
        confirmed.loc[tested, "confirm_estimate"], confirmed.loc[tested, "estimate"]
    )
    verdict = hook_rule.verdicts(confirmed)
    assert list(verdict["effect"]) == list(hook_rule.FIELD_EFFECTS)
    assert (verdict["fields"] == 2).all()


def test_cells_of_opposite_sign_are_not_pooled_into_a_verdict(small_run):
    family = hook_rule.confirmed_family(small_run)
    gap = (family["effect"] == hook_rule.SEAT_GAP_ON) & (family["field"] == "simple")
    three = gap & (family["players"] == 3)
    four = gap & (family["players"] == 4)
    family.loc[three, ["estimate", "established"]] = [2.0, True]
    family.loc[four, ["estimate", "established"]] = [-2.0, True]
    verdict = hook_rule.verdicts(family).set_index("effect")
    assert verdict.loc[hook_rule.SEAT_GAP_ON, "verdict"] == OPPOSITE_SIZES
    family.loc[four, "established"] = False
    again = hook_rule.verdicts(family).set_index("effect")
    assert again.loc[hook_rule.SEAT_GAP_ON, "verdict"] != OPPOSITE_SIZES


def test_deals_dealt_count_every_deal_once_and_split_the_seats(small_run):
    games = measures.with_deals_dealt(small_run.games, small_run.hands)
    per_game = games.groupby(["condition", "game"], observed=True)
    deals = small_run.hands.groupby(["condition", "game"], observed=True)["deal"].nunique()
    assert (per_game["dealt"].sum() == deals).all()
    # 19 deals at 3 and 4 players: one seat deals 7 times at 3 players, one 4 times at 4.
    counts = games.groupby(["players", "deal_role"], observed=True)["dealt"].unique()
    assert list(counts[(3, "less often")]) == [6] and list(counts[(3, "more often")]) == [7]
    assert list(counts[(4, "less often")]) == [4] and list(counts[(4, "more often")]) == [5]
    gaps = hook_rule.total_gaps(games, "deal_role")
    assert len(gaps) == games.groupby(["condition", "game"], observed=True).ngroups


def test_the_one_card_dealer_is_the_dealer_of_the_one_card_deal(small_run):
    games = measures.with_one_card_dealer(small_run.games, small_run.hands)
    marked = games[games["one_card_role"] == "one-card dealer"]
    # One seat a game, and it dealt the deal of one card (the tenth of 10..1..10).
    assert (marked.groupby(["condition", "game"], observed=True).size() == 1).all()
    assert len(marked) == games.groupby(["condition", "game"], observed=True).ngroups
    one_card = small_run.hands[small_run.hands["hand_size"] == 1]
    dealers = one_card[one_card["seat"] == one_card["dealer"]]
    assert set(zip(marked["condition"], marked["game"], marked["seat"], strict=True)) == set(
        zip(dealers["condition"], dealers["game"], dealers["seat"], strict=True)
    )
    assert (dealers["deal"] == 9).all()
    # Its gap: that seat's final total minus the others' mean, per game.
    gaps = hook_rule.total_gaps(games, "one_card_role")
    row = gaps.iloc[0]
    game = games[
        (games["field"] == row["field"])
        & (games["players"] == row["players"])
        & (games["hook"] == row["hook"])
        & (games["game"] == row["game"])
    ]
    dealer = game["one_card_role"] == "one-card dealer"
    expected = game.loc[dealer, "total"].mean() - game.loc[~dealer, "total"].mean()
    assert row["value"] == pytest.approx(expected)


def test_no_deal_ends_with_every_bid_made_under_the_hook(small_run):
    deals = measures.deal_frame(small_run.hands, hook_rule.LABELS)
    assert not deals.loc[deals["hook"], "all_made"].any()
    assert deals.loc[~deals["hook"], "all_made"].any()
    margins = measures.winning_margins(small_run.games, hook_rule.BY_HOOK)
    assert (margins["margin"] >= 0).all()
    assert len(margins) == small_run.games.groupby(["condition", "game"]).ngroups


def test_deals_are_the_hands_grouped_by_every_key(small_run):
    hands = small_run.hands
    keys = ["condition", "players", "field", "hook", "game", "deal"]
    expected = (
        hands.assign(_made=hands["bid"] == hands["tricks"])
        .groupby(keys, observed=True, sort=False)
        .agg(hand_size=("hand_size", "first"), bids=("bid", "sum"), all_made=("_made", "min"))
        .reset_index()
        .assign(excess=lambda deals: deals["bids"] - deals["hand_size"])
    )
    pd.testing.assert_frame_equal(
        measures.deal_frame(hands, hook_rule.LABELS), expected, check_exact=True
    )


def test_deals_refuse_a_label_that_changes_within_a_condition(small_run):
    with pytest.raises(InvalidArgumentError, match="seat change within a condition"):
        measures.deal_frame(small_run.hands, labels=("players", "seat"))


def test_position_categories_name_each_bidding_position(small_run):
    hands = small_run.hands
    position, players = bidding_position(hands), hands["players"].to_numpy()
    names = np.array(POSITION_ORDER[:-1], dtype=object)[np.minimum(position, 5)]
    expected = np.where(position == players - 1, "dealer", names)
    assert (np.asarray(position_categories(hands), dtype=object) == expected).all()
    assert (position_labels(hands) == expected).all()
    assert {"1st (leads)", "2nd", "3rd", "dealer"} <= set(expected)
    with pytest.raises(InvalidArgumentError, match=r"players must be at most 7.*got 8"):
        position_categories(hands.assign(players=8))


def test_report_has_no_raw_pooled_rows(small_run):
    small_run.manifest.update(command="test")
    report = hook_rule.analyse(small_run)
    for table in report.tables:
        if "players" in table.frame:
            assert "all" not in set(table.frame["players"]), table.title
    assert any(STANDARDISED in set(t.frame.get("players", [])) for t in report.tables)
    assert report.tables[0].title.startswith("Should we play with the hook?")
    # One effect table holds every row of the family; the verdicts carry the tests between fields.
    effects = next(t.frame for t in report.tables if t.title.startswith("Effects:"))
    assert set(hook_rule.FIELD_EFFECTS) < set(effects["effect"])
    verdict = next(t.frame for t in report.tables if t.title.startswith("Does each effect"))
    assert {"W", "I²", "between fields, p (adjusted)"} <= set(verdict.columns)
    # The verdict first, in at most 200 words; no confirmation run: said so.
    assert report.in_short[0].startswith("The hook rules out the deals in which every player")
    assert len(" ".join(report.in_short).split()) <= 200
    assert "(no confirmation run)" in report.in_short[-1]
    method = " ".join(report.method)
    assert "holm over" in method and "Holm's method" in method
    assert "No confirmation run was played" in method
