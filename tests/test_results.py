"""Result frames: dtypes, memory per row, win shares, Parquet round trips with metadata."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import ohhell_sim as oh
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import GAMES_FILE, HANDS_FILE, METADATA_KEY
from ohhell_sim.rules import Rules

RULES = Rules(players=4, hook=True)
SEATS = ["simple", "random", ("simple", {"scale": 0.8}), "random"]
LABELS = ["simple", "random", "simple[scale=0.8]", "random"]
GAMES = 500
SEED = 77


@pytest.fixture(scope="module")
def result():
    return oh.simulate(RULES, SEATS, games=GAMES, seed=SEED, first_game=3)


HANDS_DTYPES = {
    "game": np.int32,
    "deal": np.int8,
    "seat": np.int8,
    "dealer": np.int8,
    "hand_size": np.int8,
    "trump": np.int8,
    "bid": np.int8,
    "tricks": np.int8,
    "score": np.int16,
}


def test_hands_columns_and_dtypes(result):
    hands = result.hands
    for column, dtype in HANDS_DTYPES.items():
        assert hands[column].dtype == dtype, column
    assert isinstance(hands["strategy"].dtype, pd.CategoricalDtype)
    assert set(hands.columns) == set(HANDS_DTYPES) | {"strategy"}
    assert len(hands) == GAMES * RULES.n_deals * RULES.players
    assert hands["game"].min() == 3 and hands["game"].max() == GAMES + 2


def test_strategy_labels_per_seat(result):
    # Seat 2 plays simple with another scale: a label of its own.
    hands = result.hands
    names = hands.groupby("seat", observed=True)["strategy"].agg(lambda s: set(s.astype(str)))
    assert names.to_dict() == {
        0: {"simple"},
        1: {"random"},
        2: {"simple[scale=0.8]"},
        3: {"random"},
    }
    assert sorted(hands["strategy"].cat.categories) == ["random", "simple", "simple[scale=0.8]"]
    assert result.strategies == LABELS


def test_memory_per_row(result):
    hands = result.hands
    per_row = hands.memory_usage(deep=True).sum() / len(hands)
    assert per_row <= 16, per_row


def test_games_frame(result):
    games = result.games
    assert len(games) == GAMES * RULES.players
    assert games["game"].dtype == np.int32
    assert games["seat"].dtype == np.int8
    assert isinstance(games["strategy"].dtype, pd.CategoricalDtype)
    assert np.issubdtype(games["total"].dtype, np.integer)
    assert games["win_share"].dtype == np.float64
    share = games.groupby("game")["win_share"].sum()
    np.testing.assert_allclose(share.to_numpy(), 1.0)
    totals = result.hands.groupby(["game", "seat"])["score"].sum()
    np.testing.assert_array_equal(totals.to_numpy(), games["total"].to_numpy())
    top = games.groupby("game")["total"].transform("max") == games["total"]
    k = top.groupby(games["game"]).transform("sum")
    np.testing.assert_allclose(games["win_share"], np.where(top, 1.0 / k, 0.0))


def test_attrs_hold_rules_seed_version(result):
    for frame in (result.hands, result.games):
        attrs = frame.attrs
        assert attrs["seed"] == SEED
        assert attrs["version"] == oh.__version__
        assert Rules.from_dict(attrs["rules"]) == RULES
        assert attrs["strategies"] == LABELS
        assert attrs["first_game"] == 3
        json.dumps(attrs)  # serialisable


def test_parquet_round_trip(result, tmp_path):
    folder = result.to_parquet(tmp_path / "run")
    assert (folder / HANDS_FILE).exists() and (folder / GAMES_FILE).exists()
    hands, games = oh.read_results(folder)
    pd.testing.assert_frame_equal(hands, result.hands)
    pd.testing.assert_frame_equal(games, result.games)
    for read, original in ((hands, result.hands), (games, result.games)):
        assert read.attrs == original.attrs
        assert Rules.from_dict(read.attrs["rules"]) == RULES
        assert read.attrs["seed"] == SEED
        assert read.attrs["version"] == oh.__version__
    # The metadata is in the Parquet file itself, readable without pandas attrs.
    meta = pq.read_schema(folder / HANDS_FILE).metadata[METADATA_KEY]
    assert json.loads(meta)["seed"] == SEED
    # No temporary files are left behind.
    assert sorted(p.name for p in folder.iterdir()) == sorted([HANDS_FILE, GAMES_FILE])


def test_parquet_round_trip_keeps_dtypes(result, tmp_path):
    result.to_parquet(tmp_path)
    hands = oh.read_frame(tmp_path / HANDS_FILE)
    for column, dtype in HANDS_DTYPES.items():
        assert hands[column].dtype == dtype, column
    assert isinstance(hands["strategy"].dtype, pd.CategoricalDtype)


def test_to_parquet_replaces_a_run_only_when_told(result, tmp_path):
    small = oh.simulate(RULES, SEATS, games=2, seed=1)
    small.to_parquet(tmp_path)
    with pytest.raises(InvalidArgumentError, match=r"holds another run.*overwrite"):
        result.to_parquet(tmp_path)
    assert len(oh.read_results(tmp_path)[0]) == len(small.hands)
    result.to_parquet(tmp_path, overwrite=True)
    hands, _ = oh.read_results(tmp_path)
    assert len(hands) == len(result.hands)


def test_long_schedule_uses_a_wider_deal_column():
    rules = Rules(players=3, schedule=[1] * 130)
    result = oh.simulate(rules, ["random", "simple", "random"], games=2, seed=0)
    deal = result.hands["deal"]
    assert deal.max() == 129
    assert (deal.to_numpy().reshape(2, 130, 3)[:, :, 0] == np.arange(130)).all()


def test_repr_mentions_run(result):
    text = repr(result)
    assert "500 games" in text and str(SEED) in text


def test_replay_text_counts_deals_and_tricks_from_zero_like_the_frames(result):
    game = 5
    log = oh.replay(RULES, SEATS, seed=SEED, game=game)
    text = str(log).splitlines()
    deal_lines = [line for line in text if line.startswith("Deal ")]
    last = RULES.n_deals - 1
    assert deal_lines[0].startswith(f"Deal 0 (of 0..{last}): 10 card(s)")
    assert deal_lines[-1].startswith(f"Deal {last} (of 0..{last})")
    rows = result.hands[(result.hands.game == game) & (result.hands.seat == 0)]
    for line, (_, row) in zip(deal_lines, rows.iterrows(), strict=True):
        assert line.startswith(f"Deal {row.deal} ") and f"dealer seat {row.dealer}," in line
    tricks = [line.split(":")[0].strip() for line in text if line.startswith("  trick ")]
    assert tricks[:10] == [f"trick {t}" for t in range(10)]
    assert "trick 10" not in tricks
