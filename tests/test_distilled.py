"""``distilled``: its labels, its fit, its shipped weights and its training command.

Legality in every variant and agreement with the reference engine are checked
with the other built-ins (``tests/test_strategies_simulate.py``); its strength
and speed are measured by ``benchmarks/`` (the strategies page quotes them).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import InvalidArgumentError
from strategies import distilled, distilled_training
from strategies._distilled_features import N_CARD_MOVE, N_CARD_STATE, N_OUTCOMES
from strategies.distilled_training import (
    Samples,
    bid_samples,
    card_samples,
    collect_positions,
    fit_network,
    label_bids,
    label_cards,
)


@pytest.fixture(scope="module")
def positions():
    """Positions of a few cheap games (the training fields are the costly players)."""
    saved = distilled_training.FIELDS
    distilled_training.FIELDS = (("simple", "card_counter"),)
    try:
        return collect_positions(seed=4, games=6)
    finally:
        distilled_training.FIELDS = saved


def _trick_winner(cards, trump):
    # Plain one-deck rules, no joker: the highest trump, else the highest of the led suit.
    best = cards[0]
    for card in cards[1:]:
        suit, best_suit = card // 13, best // 13
        if (suit == trump and best_suit != trump) or (suit == best_suit and card > best):
            best = card
    return cards.index(best)


def test_positions_hold_every_decision_with_the_hands_then(positions):
    views, hands = positions.card_views, positions.card_hands
    assert len(views) > 100 and len(positions.bid_views) > 100
    for view, held in zip(views, hands, strict=True):
        me = view[V.SEAT]
        # The seat's own hand is the view's; no card is in two hands or was played.
        assert held[me] == view[V.HAND]
        assert popcount_all(held) == bin(int(np.bitwise_or.reduce(held))).count("1")
        assert int(np.bitwise_or.reduce(held)) & int(view[V.PLAYED]) == 0
        # Only choices are kept.
        assert bin(int(view[V.LEGAL])).count("1") >= 2


def popcount_all(masks) -> int:
    return sum(bin(int(m)).count("1") for m in masks)


@pytest.mark.slow
def test_one_card_bid_labels_are_the_trick_on_the_real_deal(positions):
    # With one card each there is no choice of play: bidding 0 or 1, the bidder
    # takes the trick exactly when its card wins it.
    one = np.flatnonzero(positions.bid_views[:, V.HAND_SIZE] == 1)
    assert len(one) > 5
    labels = label_bids(positions.bid_views[one], positions.bid_hands[one])
    for row, i in zip(labels, one, strict=True):
        view, hands = positions.bid_views[i], positions.bid_hands[i]
        n, dealer = view[V.N_PLAYERS], view[V.DEALER]
        order = [(dealer + 1 + k) % n for k in range(n)]
        cards = [int(hands[s]).bit_length() - 1 for s in order]
        trump = view[V.TRUMP]
        taken = int(order[_trick_winner(cards, trump)] == view[V.SEAT])
        assert row[0] == row[1] == taken
        assert (row[2:] == -1).all()


@pytest.mark.slow
def test_card_labels_count_tricks_from_here(positions):
    rows = label_cards(positions.card_views, positions.card_hands)
    views = positions.card_views[rows[:, 0]]
    left = views[:, V.HAND_SIZE] - views[:, V.TRICK]
    assert (rows[:, 2] >= 0).all() and (rows[:, 2] <= left).all()
    # Each labelled card is legal, and a position has at least two distinct cards
    # unless its legal cards are equivalent.
    assert ((views[:, V.LEGAL] >> rows[:, 1]) & 1 == 1).all()
    # Last to play, a card that beats the trick's best card takes it: the label
    # counts the tricks from the current one on.
    from ohhell_sim.engine.core import beats

    last = views[:, V.N_IN_TRICK] == views[:, V.N_ACTIVE] - 1
    checked = 0
    for row, view in zip(rows[last], views[last], strict=True):
        if beats(row[1], view[V.WINNING_CARD], view[V.TRUMP]):
            assert row[2] >= 1
            checked += 1
        else:
            assert row[2] <= view[V.HAND_SIZE] - view[V.TRICK] - 1
    assert checked > 10


@pytest.mark.slow
def test_samples_have_inputs_in_range_and_valid_targets(positions):
    for samples in (bid_samples(positions), card_samples(positions)):
        assert np.isfinite(samples.states).all() and np.isfinite(samples.moves).all()
        # Scaled to about 0..1; the square of a bid's distance from the estimate
        # reaches (10 / 3) ** 2.
        assert np.abs(samples.states).max() <= 3 and np.abs(samples.moves).max() <= 12
        assert (samples.target <= samples.top).all() and (samples.target >= 0).all()
        assert samples.owner.max() < samples.states.shape[0]


def test_the_fit_learns_a_known_distribution():
    # One binary input decides the outcome's law; the fit must find both laws.
    rng = np.random.default_rng(0)
    n = 4000
    flag = rng.integers(0, 2, n)
    states = np.zeros((n, N_CARD_STATE))
    states[:, 0] = flag
    target = np.where(flag == 1, rng.choice([2, 3], n), rng.choice([0, 1], n, p=[0.8, 0.2]))
    samples = Samples(
        states=states,
        moves=np.zeros((n, N_CARD_MOVE)),
        index=np.zeros(n, dtype=np.int64),
        target=target,
        top=np.full(n, 4),
        owner=np.arange(n),
        games=np.arange(n) % 50,
        n_embed=1,
    )
    fit = fit_network(samples, hidden=8, epochs=40, seed=1, batch=64)
    # Entropy of the true laws: half ln 2, half that of (0.8, 0.2).
    floor = 0.5 * np.log(2) + 0.5 * -(0.8 * np.log(0.8) + 0.2 * np.log(0.2))
    assert fit.curve[-1]["held_out_loss"] < floor + 0.05
    assert fit.curve[0]["held_out_loss"] > fit.curve[-1]["held_out_loss"]
    probs = np.zeros(N_OUTCOMES)
    state, move, embed, bias, out, out_bias = fit.layers
    x = np.zeros(N_CARD_STATE)
    x[0] = 1.0
    base = np.empty(bias.shape[0])
    distilled.hidden_base(state, bias, x, base)
    hidden = np.empty(bias.shape[0])
    distilled.outcome_probabilities(
        base, move, embed, 0, out, out_bias, np.zeros(N_CARD_MOVE), 4, hidden, probs
    )
    assert probs[2] + probs[3] > 0.95 and abs(probs[2] - 0.5) < 0.1


def test_shipped_weights_say_how_they_were_made():
    meta = distilled.weights_meta()
    assert meta["made_by"].startswith("ohhell train distilled --seed ")
    for net in distilled.NETWORKS:
        assert meta[net]["train_rows"] > 100_000, net
        assert len(meta[net]["curve"]) == meta["epochs"]


def test_a_weights_file_missing_an_array_is_refused(tmp_path):
    path = tmp_path / "bad.npz"
    np.savez(path, bid_state=np.zeros((2, 2)))
    with pytest.raises(InvalidArgumentError, match="card_out"):
        distilled.load_weights(path)


@pytest.mark.slow
def test_bids_follow_the_scoring_table():
    # Paying 10 a trick for a made bid and nothing for zero pushes bids up, as
    # for mc_bidder (the tables the README's strategy table describes).
    canonical = oh.Rules(players=4, max_cards=7)
    greedy = oh.Rules(players=4, max_cards=7, made="10*bid")
    seats = ["distilled"] * 4
    mean = {
        name: oh.simulate(rules, seats, games=200, seed=5).hands["bid"].mean()
        for name, rules in (("canonical", canonical), ("10*bid", greedy))
    }
    assert mean["10*bid"] > mean["canonical"] + 0.1, mean


@pytest.mark.slow
def test_train_command_writes_a_weights_file_the_player_reads(tmp_path, monkeypatch, capsys):
    from ohhell_sim.cli.app import main

    monkeypatch.setattr(distilled_training, "FIELDS", (("simple", "card_counter"),))
    out = tmp_path / "w.npz"
    code = main(["train", "distilled", "--games", "6", "--epochs", "2", "-o", str(out)])
    assert code == 0 and out.exists()
    weights = distilled.load_weights(out)
    assert weights["card"][0].shape == (N_CARD_STATE, distilled_training.HIDDEN["card"])
    meta = distilled.weights_meta(out)
    assert meta["games"] == 6 and len(meta["bid"]["curve"]) == 2
    assert json.loads(json.dumps(meta))["seed"] == 0
    assert "written to" in capsys.readouterr().out


def test_train_refuses_bad_sizes_before_playing():
    with pytest.raises(InvalidArgumentError, match="games must be a positive integer"):
        distilled_training.train_distilled(games=0)
