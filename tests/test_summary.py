"""Summary mode: the kernel's in-place counts equal the counts of the full frames."""

from __future__ import annotations

import dataclasses

import numba
import numpy as np
import pandas as pd
import pytest
import scripted_strategies as ss

import ohhell_sim as oh
from ohhell_sim.rules import Rules
from ohhell_sim.summary import RunSummary, SummaryCounts, summarise, total_bounds

SEATS = ["simple", "random", "simple", "random"]
GAMES = 400
SEED = 2024

# Rule sets that change what the summary must count: eliminated seats and a
# tie-break deal, negative scores, zero-only bids, swaps and two decks.
RULE_SETS = {
    "canonical": Rules(players=4),
    "catastrophe-tiebreak": Rules(players=4, fault_limit=6, tiebreak=True),
    "penalty-no-hook": Rules(players=4, hook=False, over="-10*diff", under="-diff^2"),
    "nullo": Rules(players=4, nullo=True, hook=False, schedule=[1, 3, 5]),
    "scoring-mix": Rules(players=4, made="10*bid", zero="10+cards", double_all=True, all_bonus=5),
    "swap-joker": Rules(players=4, swap=2, joker=True, trump="CDHSN"),
}


@pytest.fixture(scope="module", params=sorted(RULE_SETS))
def run_pair(request):
    rules = RULE_SETS[request.param]
    full = oh.simulate(rules, SEATS, games=GAMES, seed=SEED)
    summary = summarise(rules, SEATS, games=GAMES, seed=SEED)
    return rules, full, summary


def test_summary_equals_the_aggregate_of_the_full_frames(run_pair):
    _, full, summary = run_pair
    assert summary.counts == RunSummary.from_result(full).counts
    assert summary.counts.outcomes.sum() == len(full.hands[full.hands["deal"] < full.rules.n_deals])
    assert summary.counts.totals.sum() == len(full.games)


def test_summary_tables_match_the_frames(run_pair):
    rules, full, summary = run_pair
    hands = full.hands[full.hands["deal"] < rules.n_deals]
    table = summary.table(["strategy", "hand_size"])
    by_frame = hands.assign(made=hands["bid"] == hands["tricks"]).groupby(
        ["strategy", "hand_size"], observed=True
    )
    np.testing.assert_allclose(table["made_rate"].to_numpy(), by_frame["made"].mean().to_numpy())
    np.testing.assert_allclose(table["mean_score"].to_numpy(), by_frame["score"].mean().to_numpy())
    np.testing.assert_array_equal(table["deals"].to_numpy(), by_frame.size().to_numpy())
    assert (table["made_rate_low"] <= table["made_rate"]).all()
    assert (table["made_rate"] <= table["made_rate_high"]).all()

    standings = summary.standings()
    per_strategy = full.games.groupby("strategy", observed=True)
    np.testing.assert_allclose(
        standings.loc[list(per_strategy.groups), "mean_total"],
        per_strategy["total"].mean(),
    )
    np.testing.assert_allclose(
        standings.loc[list(per_strategy.groups), "win_share"],
        per_strategy["win_share"].mean(),
    )


def test_totals_stay_inside_their_bounds(run_pair):
    rules, full, _ = run_pair
    low, high = total_bounds(rules)
    assert full.games["total"].between(low, high).all()


def test_hook_binding_matches_the_rule():
    rules = RULE_SETS["canonical"]
    summary = summarise(rules, SEATS, games=200, seed=3)
    deals = summary.deals
    # With the hook the dealer's bid never equals the forbidden one...
    assert not (deals["dealer_bid"] == deals["forbidden"]).any()
    # ...which is hand size minus the others' total, binding when that is a bid.
    bound = deals[deals["hook_binds"]]
    assert (bound["forbidden"] == bound["hand_size"] - bound["others_total"]).all()
    assert (bound["over"] != 0).all()
    free = summarise(dataclasses.replace(rules, hook=False), SEATS, games=200, seed=3).deals
    assert not free["hook_binds"].any()
    assert (free["over"] == 0).any()


def test_counts_do_not_depend_on_threads_or_splits():
    rules = Rules(players=5)
    seats = ["simple", "random", "simple", "random", "simple"]
    whole = summarise(rules, seats, games=300, seed=9, threads=1)
    first = summarise(rules, seats, games=130, seed=9)
    second = summarise(rules, seats, games=170, seed=9, first_game=130)
    assert whole.counts == first.counts + second.counts
    if numba.config.NUMBA_NUM_THREADS >= 2:
        assert summarise(rules, seats, games=300, seed=9, threads=2).counts == whole.counts


def test_parquet_round_trip(tmp_path):
    summary = summarise(Rules(players=4, made="10+bid^2"), SEATS, games=50, seed=4)
    path = summary.to_parquet(tmp_path)
    back = RunSummary.read_parquet(path.parent)
    assert back.counts == summary.counts
    assert back.rules == summary.rules
    assert (back.strategies, back.seed, back.games) == (SEATS, 4, 50)
    pd.testing.assert_frame_equal(back.outcomes, summary.outcomes)


def test_illegal_move_reports_the_first_failing_game(tester):
    rules = Rules(players=4, schedule=[3, 2])
    seats = ["random", ss.scripted([0, 0, 0, 3]), "random", "simple"]
    with pytest.raises(oh.IllegalMoveError) as full:
        oh.simulate(rules, seats, games=40, seed=12)
    with pytest.raises(oh.IllegalMoveError) as summary:
        summarise(rules, seats, games=40, seed=12)
    assert str(summary.value) == str(full.value)


def test_bad_arguments_fail_before_any_work():
    with pytest.raises(ValueError, match="games"):
        summarise(Rules(players=4), SEATS, games=0)
    with pytest.raises(ValueError, match="by must name"):
        summarise(Rules(players=4), SEATS, games=5).table(["colour"])


def test_no_games_give_empty_frames():
    rules = Rules(players=3)
    empty = RunSummary(rules, ["random"] * 3, 0, 0, 0, SummaryCounts.zeros(rules))
    assert empty.outcomes.empty and empty.deals.empty and empty.totals.empty
    assert empty.deals_played == 0
