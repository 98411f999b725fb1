"""Tests of :func:`ohhell_sim.tournament.tournament` and its command-line glue."""

from __future__ import annotations

import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim.analysis.stats import ESTIMATE_COLUMNS
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.tournament import distinct_rotations, tournament

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
    # Every rotation of a deal set plays the same deals: same dealer, same trump.
    result = tournament(SHORT, FOUR, games=40, seed=2, keep_hands=True)
    deals = result.hands.groupby(["unit", "deal"])[["dealer", "trump"]].nunique()
    assert set(result.hands["rotation"]) == {0, 1, 2, 3}
    assert (deals == 1).all().all()


def test_rotations_that_repeat_a_seating_are_played_once():
    # The example, pimc,adaptive_pimc,pimc,adaptive_pimc, in cheap strategies:
    # rotations 2 and 3 would replay rotations 0 and 1.
    assert distinct_rotations(["pimc", "adaptive_pimc", "pimc", "adaptive_pimc"]) == [0, 1]
    assert distinct_rotations(["simple"] * 4) == [0]
    assert distinct_rotations(["a", "a", "b", "b"]) == [0, 1, 2, 3]
    assert distinct_rotations(["a", "b", "a", "b", "a", "b"]) == [0, 1]
    result = tournament(SHORT, ["simple", "random", "simple", "random"], games=40, seed=3)
    games = result.games
    assert set(games["rotation"]) == {0, 1}
    assert (result.games_played, result.units) == (20, 10)
    assert len(games.drop_duplicates(["unit", "rotation"])) == 20
    assert result.format().startswith(
        "duplicate tournament, 20 games (10 deal sets, each in the 2 distinct seatings of the "
        "4 rotations)"
    )
    # One entry per strategy, both seats of a strategy pooled; each visits every seat.
    assert result.labels == ["simple", "random"]
    seats = games.groupby(["unit", "strategy"], observed=True)["seat"].agg(sorted)
    assert all(list(s) == [0, 1, 2, 3] for s in seats)
    # The unit is the deal set: a strategy's value is its mean over its rows of the
    # deal set, the ranking's estimate the mean of those, its n the deal sets.
    ranking = result.ranking.set_index(["strategy", "measure"])
    per_unit = games.groupby(["strategy", "unit"], observed=True)["total"].mean()
    for label in result.labels:
        row = ranking.loc[(label, "mean_total")]
        assert row["n"] == 10
        assert row["estimate"] == pytest.approx(per_unit[label].mean())
    pair = result.pairwise.iloc[0]
    assert pair["pair"] == "simple - random" and pair["n"] == 10
    difference = per_unit["simple"] - per_unit["random"]
    assert pair["estimate"] == pytest.approx(difference.mean())


def test_a_repeated_seating_changes_no_deal_sets_value():
    # Playing all four rotations (the duplicates included) gives every deal set
    # the values that the two distinct seatings give.
    result = tournament(SHORT, ["simple", "random", "simple", "random"], games=40, seed=3)
    frames = []
    seats = ["simple", "random", "simple", "random"]
    for rotation in range(4):
        order = seats[rotation:] + seats[:rotation]
        games = oh.simulate(SHORT, order, games=10, seed=3).games
        frames.append(games.assign(strategy=games["strategy"].astype(str)))
    every = pd.concat(frames).groupby(["strategy", "game"])["total"].mean()
    played = result.games.assign(strategy=result.games["strategy"].astype(str))
    distinct = played.groupby(["strategy", "unit"])["total"].mean()
    assert every.to_numpy() == pytest.approx(distinct.to_numpy())


def test_entries_with_other_parameters_are_other_strategies():
    seats = ["simple", "random", "simple[scale=1.5]", "random"]
    result = tournament(SHORT, seats, games=40, seed=3)
    assert result.labels == ["simple", "random", "simple[scale=1.5]"]
    assert set(result.games["rotation"]) == {0, 1, 2, 3}
    assert result.games_played == 40
    assert "simple - simple[scale=1.5]" in set(result.pairwise["pair"]) | {
        "simple[scale=1.5] - simple"
    }


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
    def width(result, a="card_counter[bidder=0]", b="expected_tricks"):
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
    assert width(duplicate, "card_counter[bidder=0]", "simple") < 0.9 * width(
        random_seating, "card_counter[bidder=0]", "simple"
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(games=10), "multiple of 4"),
        (dict(games=8, seating="round robin"), "seating"),
        (dict(games=8, strategies=["simple"] * 3), "one strategy per seat"),
        (dict(games=8, confidence=1.5), "confidence"),
        (dict(games=8, confidence="high"), "confidence"),
        (dict(games=8, strategies=None), "one strategy per seat"),
        (dict(games=8, strategies=4), "one strategy per seat"),
        (dict(games=8, keep_hands="yes"), "keep_hands"),
        (dict(games=8, threads=0), "threads"),
        (dict(games=8, seed=2**64), "seed"),
    ],
)
def test_bad_arguments(no_kernel, kwargs, match):
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
    assert "card_counter[bidder=0] - simple" in printed
    frame = oh.read_frame(out)
    assert list(frame["strategy"].astype(str).unique()) == duplicate.labels
    pd.testing.assert_frame_equal(
        frame.astype({"strategy": str}), duplicate.games.astype({"strategy": str})
    )
