"""Tests of :func:`ohhell_sim.tournament.tournament` and its command-line glue."""

from __future__ import annotations

import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim.analysis.stats import ESTIMATE_COLUMNS
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.tournament import tournament

SHORT = oh.Rules(players=4, schedule=[5, 3, 1, 3, 5])
# card_counter with simple's bid count: it plays like expected_tricks and differs
# in bidding only (with its default bidder the two are the same strategy).
FOUR = [("card_counter", {"bidder": 0.0}), "simple", "expected_tricks", "random"]


@pytest.fixture(scope="module")
def duplicate():
    return tournament(SHORT, FOUR, games=400, seed=5, seating="duplicate")


@pytest.fixture(scope="module")
def random_seating():
    return tournament(SHORT, FOUR, games=400, seed=5, seating="random")


def test_duplicate_rotates_every_strategy_through_every_seat(duplicate):
    games = duplicate.games
    assert len(games) == 400 * 4
    assert set(games["rotation"]) == {0, 1, 2, 3}
    assert games["unit"].nunique() == 100
    seats = games.groupby(["unit", "strategy"], observed=True)["seat"].agg(sorted)
    assert all(list(s) == [0, 1, 2, 3] for s in seats)
    # Each rotation replays the same game indices.
    per_rotation = games.groupby("rotation")["game"].agg(lambda g: tuple(sorted(set(g))))
    assert per_rotation.nunique() == 1


def test_duplicate_deals_identical_cards_to_every_rotation():
    # Four copies of one deterministic strategy: every rotation plays the same
    # cards from the same seats, so seat totals repeat exactly.
    result = tournament(SHORT, ["simple"] * 4, games=40, seed=2)
    totals = result.games.pivot_table(index=["unit", "seat"], columns="rotation", values="total")
    assert (totals.nunique(axis=1) == 1).all()
    assert list(result.labels) == ["simple#1", "simple#2", "simple#3", "simple#4"]


def test_random_seating_is_deterministic_and_mixed(random_seating):
    games = random_seating.games
    assert len(games) == 400 * 4 and games["unit"].nunique() == 400
    first_seat = games[games["seat"] == 0]["strategy"].value_counts()
    assert (first_seat > 50).all()
    again = tournament(SHORT, FOUR, games=400, seed=5, seating="random")
    assert again.games.equals(games)


def test_ranking_and_pairwise_tables(duplicate):
    ranking = duplicate.ranking
    assert list(ranking.columns) == ["strategy", "measure", *ESTIMATE_COLUMNS]
    order = list(pd.unique(ranking["strategy"]))
    assert order[-1] == "random"
    assert (ranking["low"] <= ranking["estimate"]).all()
    assert (ranking["estimate"] <= ranking["high"]).all()
    wide = ranking.set_index(["strategy", "measure"])["estimate"].unstack("measure")
    assert wide["win_share"].sum() == pytest.approx(1.0)
    # Best first: by mean score.
    assert wide.loc[order, "mean_total"].is_monotonic_decreasing
    assert len(duplicate.pairwise) == 6
    pairs = duplicate.pairwise.set_index("pair")
    row = pairs.loc[f"{order[0]} - {order[-1]}"]
    assert row["low"] > 0 and row["method"] == "paired t over games"
    assert (pairs["n"] == duplicate.games["unit"].nunique()).all()
    text = duplicate.format()
    assert "duplicate tournament" in text and "card_counter" in text
    assert f"{order[0]} - {order[-1]}" in text


def test_duplicate_seating_narrows_the_interval_of_a_difference(duplicate, random_seating):
    # Equal game counts (400): duplicate seating cancels the luck of the cards,
    # which random seating leaves in every game.  card_counter (here with
    # simple's bid) and expected_tricks play alike and differ in bidding, so
    # their difference is the one where the cards' luck weighs most.
    def width(result, a="card_counter", b="expected_tricks"):
        table = result.pairwise.set_index("pair")
        row = table.loc[f"{a} - {b}"] if f"{a} - {b}" in table.index else table.loc[f"{b} - {a}"]
        return row["high"] - row["low"]

    # Not the same strategy twice, whose difference would be exactly zero.
    assert width(duplicate) > 0

    # Measured at this seed: 0.91 and 0.79 of random seating's width.  The
    # pairs' difference is taken within each game under both seatings, so most
    # of the cards' luck is shared already; duplicate seating removes the rest
    # (who held which hand), a modest gain at 4 players.
    assert width(duplicate) < 0.95 * width(random_seating)
    assert width(duplicate, "card_counter", "simple") < 0.9 * width(
        random_seating, "card_counter", "simple"
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(games=10), "multiple of 4"),
        (dict(games=8, seating="round robin"), "seating"),
        (dict(games=8, strategies=["simple"] * 3), "one strategy per seat"),
        (dict(games=8, confidence=1.5), "confidence"),
    ],
)
def test_bad_arguments(kwargs, match):
    args = dict(rules=SHORT, strategies=FOUR, games=8) | kwargs
    with pytest.raises(InvalidArgumentError, match=match):
        tournament(**args)


def test_tournament_refuses_rules_a_strategy_cannot_play():
    rules = oh.Rules(players=5, decks=2, max_cards=5)
    with pytest.raises(InvalidArgumentError, match="mc_bidder"):
        tournament(rules, ["mc_bidder", "simple", "simple", "simple", "simple"], games=10)


def test_cli_plays_the_same_tournament(duplicate, capsys, tmp_path):
    # FOUR through the command line, card_counter's parameter in brackets: the
    # long frame written is the fixture's, row for row.
    out = tmp_path / "t.parquet"
    argv = ["tournament", "--players", "4", "--schedule", "5,3,1,3,5", "--games", "400"]
    seats = "card_counter[bidder=0],simple,expected_tricks,random"
    assert main([*argv, "--seed", "5", "--strategies", seats, "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("duplicate tournament, 400 games (100 deal sets)")
    assert "card_counter - simple" in printed
    frame = oh.read_frame(out)
    assert list(frame["strategy"].astype(str).unique()) == duplicate.labels
    pd.testing.assert_frame_equal(
        frame.astype({"strategy": str}), duplicate.games.astype({"strategy": str})
    )
