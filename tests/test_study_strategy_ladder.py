"""The ladder's hygiene: identical strategies merged once, fields, the pairwise family.

The merge is checked on hand-made frames (no kernel) and on a tiny gauntlet in
which a user strategy registered with ``simple``'s own functions plays beside
``simple`` and ``random``: the alias must be merged with ``simple``, ``random``
must not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategies import simple
from ohhell_sim.strategy import register_strategy, unregister_strategy
from ohhell_sim.studies import gauntlets, ranking
from ohhell_sim.studies import strategy_ladder as ladder
from ohhell_sim.studies.one_card import one_card_twins
from ohhell_sim.studies.runs import StudyData


def _rows(challenger: str, field: str, tricks: str, total: int, units=(0, 1)) -> pd.DataFrame:
    """Rows of a fake gauntlet: two seats per deal set and rotation, the first the challenger's."""
    rows = []
    for unit in units:
        for rotation in (0, 1):
            for seat in (0, 1):
                challenger_seat = seat == rotation
                rows.append(
                    {
                        "field": field,
                        "challenger": challenger,
                        "unit": unit,
                        "rotation": rotation,
                        "game": unit,
                        "seat": seat,
                        "challenger_seat": challenger_seat,
                        "bids": "1,0",
                        "tricks": tricks,
                        "total": total + unit if challenger_seat else 20,
                        "win_share": 0.5,
                        "deals": 2,
                        "made": 1,
                        "zero_bids": 1,
                    }
                )
    return pd.DataFrame(rows)


def test_challengers_with_the_same_decisions_are_one_entry():
    long = pd.concat(
        [
            _rows("a", "simple", "1,0", 30),
            _rows("b", "simple", "1,0", 30),
            # c differs in one trick of one deal: not the same plays.
            _rows("c", "simple", "1,1", 30),
        ],
        ignore_index=True,
    )
    assert gauntlets.identical_groups(long) == [("a", "b"), ("c",)]
    merged = gauntlets.merge_identical(long, gauntlets.identical_groups(long))
    assert list(merged["challenger"].cat.categories) == ["a = b", "c"]
    assert len(merged) == 2 * len(long) // 3


def test_challengers_identical_in_one_field_only_are_kept_apart():
    long = pd.concat(
        [
            _rows("a", "simple", "1,0", 30),
            _rows("b", "simple", "1,0", 30),
            _rows("a", "card_counter", "1,0", 30),
            _rows("b", "card_counter", "0,0", 25),
        ],
        ignore_index=True,
    )
    assert gauntlets.identical_groups(long) == [("a",), ("b",)]


def test_a_slow_challenger_is_compared_on_the_deal_sets_it_played():
    long = pd.concat(
        [_rows("a", "simple", "1,0", 30), _rows("slow", "simple", "1,0", 30, units=(0,))],
        ignore_index=True,
    )
    groups = gauntlets.identical_groups(long)
    assert groups == [("a", "slow")]
    # The member with more deal sets carries the entry.
    merged = gauntlets.merge_identical(long, groups)
    assert sorted(merged["unit"].unique()) == [0, 1]


def test_the_merge_reads_a_category_column_as_its_names():
    # The one-card deals keep their strategy as a category (millions of rows); the merge
    # of such a column equals the merge of its names, a missing value dropped in both.
    long = pd.DataFrame({"strategy": ["b", "a", "c", "a", None, "c", "c"], "x": range(7)})
    groups = [("a", "c"), ("b",), ("absent",)]
    merged_names = pd.Categorical(["b", "a = c", "a = c", "a = c"], ["a = c", "b"])
    expected = pd.DataFrame({"strategy": merged_names, "x": [0, 2, 5, 6]}, index=[0, 2, 5, 6])
    coded = long.astype({"strategy": pd.CategoricalDtype(["c", "unused", "b", "a"])})
    for frame in (long, coded):
        merged = gauntlets.merge_identical(frame, groups, "strategy")
        pd.testing.assert_frame_equal(merged, expected)
    # Nothing dropped: the other columns are the frame's own, not copies.
    full = coded.dropna()
    whole = gauntlets.merge_identical(full, [("a",), ("b",), ("c",)], "strategy")
    assert whole["strategy"].astype(str).tolist() == full["strategy"].astype(str).tolist()
    assert np.shares_memory(whole["x"].to_numpy(), full["x"].to_numpy())


def test_order_changes_are_the_pairs_whose_sign_differs_between_fields():
    family = pd.DataFrame(
        {
            "field": ["simple", "card_counter", "simple", "card_counter"],
            "a": ["x", "x", "x", "x"],
            "b": ["y", "y", "z", "z"],
            "estimate": [2.0, -1.5, 3.0, 1.0],
            "low": [1.0, -2.5, 2.0, 0.5],
            "high": [3.0, -0.5, 4.0, 1.5],
            "established": [True, True, True, False],
        }
    )
    changes = ranking.order_changes(family)
    assert changes[["a", "b", "resolved"]].to_dict("records") == [
        {"a": "x", "b": "y", "resolved": True}
    ]
    # Surviving without confirming does not resolve a change of order; test rows are
    # not fields.
    unconfirmed = family.assign(established=[True, False, True, False])
    between = pd.DataFrame({"field": ["between fields"], "a": ["x"], "b": ["y"], "estimate": [9.0]})
    changes = ranking.order_changes(pd.concat([unconfirmed, between], ignore_index=True))
    assert changes[["a", "b", "resolved"]].to_dict("records") == [
        {"a": "x", "b": "y", "resolved": False}
    ]


def test_the_pairwise_family_tests_each_pair_between_fields_and_confirms_the_first_order():
    rng = np.random.default_rng(0)
    units = np.arange(200)
    values = pd.concat(
        [
            pd.DataFrame(
                {
                    "field": field,
                    "challenger": name,
                    "unit": units,
                    "mean_total": rng.normal(mean + shift, 5.0, len(units)),
                }
            )
            for field, shift in (("simple", 0.0), ("card_counter", 4.0))
            for name, mean in (("x", 10.0), ("y", 0.0))
        ],
        ignore_index=True,
    )
    family = ladder.LADDER.family(values, ["x", "y"])
    assert list(family["field"]) == ["simple", "card_counter", ladder.BETWEEN_FIELDS]
    assert (family["correction"] == "holm over 3").all()
    between = family.iloc[2]
    assert np.isnan(between["low"]) and between["q"] >= 0
    assert between["estimate"] == pytest.approx(
        abs(family.loc[0, "estimate"] - family.loc[1, "estimate"])
    )


def test_bad_fields_are_refused_before_anything_is_played():
    with pytest.raises(InvalidArgumentError, match="unknown field 'nobody' in fields"):
        ladder.play(8, 0, strategies=("simple",), fields=("simple", "nobody"), progress=False)


@pytest.fixture(scope="module")
def alias_run() -> StudyData:
    """A tiny ladder in which ``simple_alias`` is ``simple`` under another name."""
    register_strategy("simple_alias", simple.bid, simple.play, params={"scale": 1.0})
    try:
        yield ladder.play(
            8,
            3,
            strategies=("simple", "simple_alias", "random"),
            progress=False,
            fields=("simple",),
        )
    finally:
        unregister_strategy("simple_alias")


@pytest.mark.slow
def test_a_registered_alias_is_merged_and_a_different_strategy_is_not(alias_run):
    games = alias_run.games
    assert set(games["field"].unique()) == {"simple"}
    # Each seat's deal-by-deal bids and tricks are recorded.
    assert games["bids"].str.count(",").min() > 0
    assert gauntlets.identical_groups(games) == [("simple", "simple_alias"), ("random",)]
    # The one-card deals keep each strategy's label as a category, its positions as bytes.
    hands = alias_run.hands
    assert list(hands["strategy"].cat.categories) == ["simple", "simple_alias", "random"]
    assert hands["position"].dtype == np.int8 and set(hands["position"]) == {0, 1, 2, 3}


def test_the_report_counts_merged_pairs_once(alias_run):
    report = ladder.analyse(alias_run)
    findings = "\n".join(report.findings)
    assert "one ladder entry, 'simple = simple_alias'" in findings
    titles = {t.title: t for t in report.tables}
    family = next(t for title, t in titles.items() if title.startswith("Pairwise"))
    # Two entries, one pair: the family counts one comparison, not three.
    assert len(family.frame) == 1
    assert "holm over 1" in family.title
    assert set(family.frame.columns) == {"a", "b", "simple"}
    ranks = titles["Ranking per field (best mean score first)"].frame
    assert list(ranks["strategy"]) == ["simple = simple_alias", "random"]
    claims = next(t for title, t in titles.items() if title.startswith("Headline")).frame
    assert claims[["field", "claim"]].values.tolist() == [
        ["simple", "simple = simple_alias beats random"]
    ]
    # The one-card section shows the merged entry once too.
    one_card = titles["Exact one-card play: points per deal by bidding position"].frame
    assert list(one_card["strategy"]) == ["exact", "simple = simple_alias", "random"]


def test_strategies_that_bid_alike_in_one_card_deals_are_named_there():
    def one_card(strategy: str, bids: list[int]) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "strategy": strategy,
                "game": [0, 0, 1, 1],
                "seat": [0, 1, 0, 1],
                "bid": bids,
                "score": [10 + b for b in bids],
            }
        )

    hands = pd.concat(
        [one_card("a", [0, 1, 1, 0]), one_card("b", [0, 1, 1, 0]), one_card("c", [1, 1, 1, 0])],
        ignore_index=True,
    )
    assert one_card_twins(hands) == [("a", "b")]
