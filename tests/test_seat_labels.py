"""Seats are labelled by their full spec, so that the frames and summaries say what was played.

A seat's label is its strategy's name with the parameters that differ from the
defaults in brackets (``simple[scale=1.5]``); seats with one label pool, seats
with different parameters do not.  The Python API reads the command line's
``NAME[PARAM=VALUE,...]`` seats.
"""

from __future__ import annotations

import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.seat_text import number_text, parse_seat_text, seat_label, split_seats
from ohhell_sim.strategy import resolve_seating
from ohhell_sim.summary import summarise

RULES = oh.Rules(players=4, schedule=[3, 1, 3])
# The example: one strategy, two parameter values, as the command line gives them.
SEATS = ["simple[scale=1.5]", "simple", "simple[scale=1.5]", "simple"]
GAMES = 60


@pytest.fixture(scope="module")
def result():
    return oh.simulate(RULES, SEATS, games=GAMES, seed=4)


def test_seats_with_other_parameters_get_their_own_rows(result):
    assert result.strategies == SEATS
    assert list(result.hands["strategy"].cat.categories) == ["simple[scale=1.5]", "simple"]
    summary = result.summary().set_index(["strategy", "measure"])
    assert set(summary.index.get_level_values("strategy")) == {"simple[scale=1.5]", "simple"}
    # Each label pools its two seats: two seat-games per game, averaged within the game.
    totals = result.games.groupby(["strategy", "game"], observed=True)["total"].mean()
    for label in ("simple[scale=1.5]", "simple"):
        row = summary.loc[(label, "mean_total")]
        assert row["n"] == GAMES
        assert row["estimate"] == pytest.approx(totals[label].mean())
    # The two parametrisations play differently on these cards.
    assert totals["simple[scale=1.5]"].to_numpy().tolist() != totals["simple"].to_numpy().tolist()


def test_the_api_reads_seat_strings_as_the_tuples_they_stand_for(result):
    tuples = [("simple", {"scale": 1.5}), "simple", ("simple", {"scale": 1.5}), "simple"]
    again = oh.simulate(RULES, tuples, games=GAMES, seed=4)
    pd.testing.assert_frame_equal(again.hands, result.hands)
    assert again.games.attrs["strategies"] == SEATS


def test_a_seat_at_its_defaults_is_labelled_by_the_plain_name(result):
    # Identical specs pool, however they are written.
    same = oh.simulate(
        RULES,
        ["simple[scale=1.5]", "simple[scale=1]", ("simple", {"scale": 1.5}), ("simple", {})],
        games=GAMES,
        seed=4,
    )
    assert same.strategies == SEATS
    pd.testing.assert_frame_equal(same.games, result.games)


def test_summary_runs_label_their_seats_too(result):
    counts = summarise(RULES, SEATS, games=GAMES, seed=4)
    standings = counts.standings()
    assert list(standings.index) == ["simple[scale=1.5]", "simple"]
    assert (standings["seats"] == 2 * GAMES).all()
    assert counts.counts == oh.RunSummary.from_result(result).counts


def test_the_command_line_prints_one_row_per_label(capsys):
    argv = ["simulate", "--players", "4", "--schedule", "3,1,3", "--games", str(GAMES)]
    seats = "simple[scale=1.5],simple,simple[ scale=1.50 ],simple[scale=1]"
    assert main([*argv, "--seed", "4", "--quiet", "--strategies", seats]) == 0
    out = capsys.readouterr().out
    assert f"seed 4: {', '.join(SEATS)};" in out
    rows = [line.split()[0] for line in out.splitlines()[2:] if line.strip()]
    assert rows == ["simple", "simple[scale=1.5]"]


def test_labels_read_back_as_their_seats():
    specs = [
        ("card_counter", {"risk": 0.5, "bidder": 0.0}),
        ("pimc", {"samples": 8}),
        ("zero", {"threshold": 1e9}),
        ("simple", {"scale": 0.1}),
    ]
    seating = resolve_seating(specs, 4)
    assert seating.labels == [
        "card_counter[bidder=0,risk=0.5]",
        "pimc[samples=8]",
        "zero[threshold=1000000000]",
        "simple[scale=0.1]",
    ]
    again = resolve_seating(seating.labels, 4)
    assert again.labels == seating.labels
    assert (again.params == seating.params).all()


def test_seat_text_syntax():
    assert parse_seat_text(" pimc[ samples = 8 , bid_samples=16 ] ") == (
        "pimc",
        {"samples": "8", "bid_samples": "16"},
    )
    assert parse_seat_text("simple[]") == ("simple", {})
    assert split_seats("simple[scale=2],random, pimc[samples=8,bid_samples=16]") == [
        "simple[scale=2]",
        "random",
        "pimc[samples=8,bid_samples=16]",
    ]
    assert seat_label("simple", []) == "simple"
    numbers = [number_text(v) for v in (1.5, 16.0, -1.0, 0.1, 1e20)]
    assert numbers == ["1.5", "16", "-1", "0.1", "1e+20"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("simple[scale]", ["'simple[scale]'", "PARAM=VALUE"]),
        ("simple[scale=]", ["PARAM=VALUE"]),
        ("simple[=2]", ["PARAM=VALUE"]),
        ("simple[scale=1,scale=2]", ["'scale'", "twice"]),
        ("simple[scale=1]x", ["cannot read seat"]),
        ("[scale=1]", ["cannot read seat"]),
        ("simple[scale=x]", ["'scale'", "finite number", "'x'"]),
        ("simple[scale=nan]", ["'scale'", "finite number", "'nan'"]),
        ("simple[scale=inf]", ["'scale'", "finite number", "'inf'"]),
        ("simple[scal=2]", ["'scal'", "its parameters: scale"]),
        ("mymod:cautious", ["module", "'cautious'"]),
        ("nosuch[scale=1]", ["unknown strategy 'nosuch'"]),
    ],
)
def test_bad_seat_strings_are_refused_by_the_api(text, words):
    with pytest.raises(InvalidArgumentError) as info:
        resolve_seating([text] * 4, 4)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
