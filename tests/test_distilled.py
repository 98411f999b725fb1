"""``distilled``: its labels, its fit, its shipped weights and its training command.

Legality in every variant and agreement with the reference engine are checked
with the other built-ins (``tests/test_strategies_simulate.py``); its strength
and speed are measured by ``benchmarks/`` (the strategies page quotes them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategies import distilled
from ohhell_sim.strategies._distilled_features import N_CARD_STATE, N_OUTCOMES
from ohhell_sim.training import distilled as distilled_training
from ohhell_sim.training.distilled import (
    Positions,
    Samples,
    bid_samples,
    card_samples,
    collect_positions,
    fit_network,
    game_setup,
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


def _reference_positions(seed: int, games: Sequence[int]) -> Positions:
    """The positions of ``games`` played by the reference engine: the collection's oracle.

    The decisions of each deal are kept when the deal ends, with the hands
    dealt, less the cards played before each card decision.
    """
    from ohhell_sim import reference as R
    from ohhell_sim.strategy import resolve_seating

    def masks(hands):
        out = np.zeros(V.MAX_SEATS, dtype=np.int64)
        for seat, hand in enumerate(hands):
            for card in hand:
                out[seat] |= np.int64(1) << np.int64(card)
        return out

    kept = {f: [] for f in Positions.__dataclass_fields__}
    for game in games:
        rules, seats = game_setup(game)
        seating = resolve_seating(seats, rules.players)
        steps = R.game_steps(rules, seating.names, seed, game)
        answer = R.strategy_answer(seating, seed, game)
        bids_here, cards_here, plays, move = [], [], 0, None
        while True:
            try:
                step = steps.send(move)
            except StopIteration:
                break
            if isinstance(step, R.DealPlayed):
                start = masks(step.log.hands)
                order = [
                    (s, c) for t in step.log.tricks for s, c in zip(t.seats, t.cards, strict=True)
                ]
                for view in bids_here:
                    kept["bid_views"].append(view)
                    kept["bid_hands"].append(start)
                    kept["bid_games"].append(game)
                for index, view in cards_here:
                    hands = start.copy()
                    for seat, card in order[:index]:
                        hands[seat] &= ~(np.int64(1) << np.int64(card))
                    kept["card_views"].append(view)
                    kept["card_hands"].append(hands)
                    kept["card_games"].append(game)
                bids_here, cards_here, plays, move = [], [], 0, None
                continue
            view = step.view
            if step.role == "bid":
                bids_here.append(view.copy())
            elif view[V.PHASE] == V.PHASE_PLAY:
                legal = int(view[V.LEGAL])
                if legal & (legal - 1):
                    cards_here.append((plays, view.copy()))
                plays += 1
            move = answer(step)
    shape = {"views": (-1, V.VIEW_SIZE), "hands": (-1, V.MAX_SEATS), "games": (-1,)}
    return Positions(
        **{f: np.array(rows, np.int64).reshape(shape[f.split("_")[1]]) for f, rows in kept.items()}
    )


def _assert_same_positions(got: Positions, want: Positions) -> None:
    for field in Positions.__dataclass_fields__:
        a, b = getattr(got, field), getattr(want, field)
        assert a.dtype == b.dtype and a.shape == b.shape, field
        np.testing.assert_array_equal(a, b, err_msg=field)


#: Cheap fields of three strategy sets, all on one kernel (``simple``, ``card_counter``).
CHEAP_FIELDS = (("simple", "card_counter"), ("card_counter",), ("simple",))


@pytest.mark.slow
def test_positions_are_the_reference_engines_bit_for_bit(monkeypatch):
    # Games 0..44 hold every rule set (the canonical one, the hook off, no-trump
    # deals, 10*bid) at 3 to 7 players; two threads share them.
    monkeypatch.setattr(distilled_training, "FIELDS", CHEAP_FIELDS)
    games = 45
    tables = [rules for rules, _ in map(game_setup, range(games))]
    assert {r.players for r in tables} == {3, 4, 5, 6, 7}
    assert {(r.hook, r.no_trump_every, r.made) for r in tables} == {
        (True, 0, "10+bid"),
        (False, 0, "10+bid"),
        (True, 3, "10+bid"),
        (True, 0, "10*bid"),
    }
    got = collect_positions(seed=4, games=games, workers=2)
    _assert_same_positions(got, _reference_positions(4, range(games)))
    assert len(np.unique(got.card_games)) == games


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


@pytest.mark.parametrize("worlds", [0, 6])
@pytest.mark.slow
def test_card_labels_count_tricks_from_here(positions, worlds):
    rows, dist = label_cards(positions.card_views, positions.card_hands, worlds, 3)
    views = positions.card_views[rows[:, 0]]
    left = views[:, V.HAND_SIZE] - views[:, V.TRICK]
    # A law over the tricks still to play; on the real deal alone, one count.
    assert np.allclose(dist.sum(axis=1), 1.0) and (dist >= 0).all()
    assert (dist[np.arange(N_OUTCOMES)[None, :] > left[:, None]] == 0).all()
    if worlds == 0:
        assert set(np.unique(dist)) == {0.0, 1.0}
    else:
        # The sampled deals differ from the real one: some laws spread.
        assert ((dist > 0).sum(axis=1) > 1).mean() > 0.2
    # Each labelled card is legal, and a position has at least two distinct cards
    # unless its legal cards are equivalent.
    assert ((views[:, V.LEGAL] >> rows[:, 1]) & 1 == 1).all()
    # Last to play, a card that beats the trick's best card takes it, on every
    # deal: the label counts the tricks from the current one on.
    from ohhell_sim.engine.core import beats

    last = views[:, V.N_IN_TRICK] == views[:, V.N_ACTIVE] - 1
    checked = 0
    for row, law, view in zip(rows[last], dist[last], views[last], strict=True):
        if beats(row[1], view[V.WINNING_CARD], view[V.TRUMP]):
            assert law[0] == 0.0
            checked += 1
        else:
            assert law[view[V.HAND_SIZE] - view[V.TRICK]] == 0.0
    assert checked > 10


@pytest.mark.slow
def test_sampled_card_labels_depend_on_the_seed_only(positions):
    views, hands = positions.card_views, positions.card_hands
    rows, dist = label_cards(views, hands, 4, 7)
    again_rows, again = label_cards(views, hands, 4, 7)
    assert (rows == again_rows).all() and (dist == again).all()
    assert not np.array_equal(label_cards(views, hands, 4, 8)[1], dist)


@pytest.mark.slow
def test_samples_have_inputs_in_range_and_valid_targets(positions):
    for samples in (bid_samples(positions), card_samples(positions)):
        assert np.isfinite(samples.states).all() and np.isfinite(samples.moves).all()
        # Scaled to about 0..1; the square of a bid's distance from the estimate
        # reaches (10 / 3) ** 2.
        assert np.abs(samples.states).max() <= 3 and np.abs(samples.moves).max() <= 12
        beyond = np.arange(N_OUTCOMES)[None, :] > samples.top[:, None]
        assert (samples.target[beyond] == 0).all() and np.allclose(samples.target.sum(axis=1), 1)
        assert samples.owner.max() < samples.states.shape[0]


@pytest.mark.slow
def test_the_fit_learns_a_known_distribution():
    # One binary input decides the outcome's law; the fit must find both laws.
    # Enough positions and games that the held-out share's entropy is the laws'.
    rng = np.random.default_rng(0)
    n = 12_000
    flag = rng.integers(0, 2, n)
    states = np.zeros((n, 3))
    states[:, 0] = flag
    label = np.where(flag == 1, rng.choice([2, 3], n), rng.choice([0, 1], n, p=[0.8, 0.2]))
    target = np.zeros((n, N_OUTCOMES))
    target[np.arange(n), label] = 1.0
    samples = Samples(
        states=states,
        moves=np.zeros((n, 2)),
        index=np.zeros(n, dtype=np.int64),
        target=target,
        top=np.full(n, 4),
        owner=np.arange(n),
        games=np.arange(n) % 400,
        n_embed=1,
    )
    fit = fit_network(samples, hidden=8, epochs=15, seed=1, batch=64)
    # Entropy of the true laws: half ln 2, half that of (0.8, 0.2).
    floor = 0.5 * np.log(2) + 0.5 * -(0.8 * np.log(0.8) + 0.2 * np.log(0.2))
    assert fit.curve[-1]["held_out_loss"] < floor + 0.05
    assert fit.curve[0]["held_out_loss"] > fit.curve[-1]["held_out_loss"]
    probs = np.zeros(N_OUTCOMES)
    state, move, embed, bias, out, out_bias = fit.layers
    x = np.zeros(3)
    x[0] = 1.0
    base = np.empty(bias.shape[0])
    distilled.hidden_base(state, bias, x, base)
    hidden = np.empty(bias.shape[0])
    distilled.outcome_probabilities(
        base, move, embed, 0, out, out_bias, np.zeros(2), 4, hidden, probs
    )
    assert probs[2] + probs[3] > 0.95 and abs(probs[2] - 0.5) < 0.1


def _two_move_samples(n_positions: int, rng) -> Samples:
    # Positions of two moves each: the move input decides which of two laws
    # the outcome follows; the better move (by the points) is random.
    states = rng.normal(size=(n_positions, 3))
    moves = rng.normal(size=(2 * n_positions, 2))
    target = rng.dirichlet(np.ones(4), size=2 * n_positions)
    target = np.hstack([target, np.zeros((2 * n_positions, N_OUTCOMES - 4))])
    worth = np.zeros((2 * n_positions, N_OUTCOMES))
    worth[:, :4] = rng.uniform(0, 12, size=(2 * n_positions, 4))
    return Samples(
        states=states,
        moves=moves,
        index=np.zeros(2 * n_positions, dtype=np.int64),
        target=target,
        top=np.full(2 * n_positions, 3),
        owner=np.repeat(np.arange(n_positions), 2),
        games=np.arange(n_positions) % 20,
        n_embed=1,
        worth=worth,
    )


def test_the_decision_loss_gradient_matches_finite_differences():
    rng = np.random.default_rng(3)
    samples = _two_move_samples(12, rng)
    net = distilled_training._Network(3, 2, 1, 5, rng)
    net.params = {k: v.astype(np.float64) for k, v in net.params.items()}
    starts, counts = distilled_training._position_rows(samples)
    batch = distilled_training._batch(samples, starts, counts)
    batch = distilled_training._Batch(
        **{
            f: (v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype == np.float32 else v)
            for f, v in batch.__dict__.items()
        }
    )
    _, grads = net.loss_and_grads(batch, decision_weight=3.0)
    for name in ("w1", "w2", "b1"):
        flat = net.params[name].reshape(-1)
        for i in rng.choice(flat.shape[0], size=5, replace=False):
            saved = flat[i]
            flat[i] = saved + 1e-6
            up, _ = net.loss_and_grads(batch, 3.0, want_grads=False)
            flat[i] = saved - 1e-6
            down, _ = net.loss_and_grads(batch, 3.0, want_grads=False)
            flat[i] = saved
            numeric = (up - down) / 2e-6
            assert abs(numeric - grads[name].reshape(-1)[i]) < 1e-5 + 1e-4 * abs(numeric), name


def test_the_fit_is_the_same_from_the_same_seed():
    samples = _two_move_samples(400, np.random.default_rng(5))
    first, second = (
        fit_network(samples, hidden=6, epochs=2, seed=9, batch=32, decision_weight=5.0)
        for _ in range(2)
    )
    for a, b in zip(first.layers, second.layers, strict=True):
        assert np.array_equal(a, b)


def test_outcome_points_are_the_deal_points_of_each_outcome(positions):
    from ohhell_sim.engine.core import deal_points

    samples = card_samples(positions)
    views = positions.card_views
    for j in range(0, samples.owner.shape[0], 97):
        view = views[samples.owner[j]]
        me = view[V.SEAT]
        bid, won = view[V.BIDS_BASE + me], view[V.TRICKS_WON_BASE + me]
        left = view[V.HAND_SIZE] - view[V.TRICK]
        for r in range(N_OUTCOMES):
            expected = (
                deal_points(bid, won + r, view[V.HAND_SIZE], view[V.RULES_BASE :])
                if r <= left
                else 0
            )
            assert samples.worth[j, r] == expected


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
    code = main(
        ["train", "distilled", "--games", "6", "--epochs", "2", "--worlds", "3", "-o", str(out)]
    )
    assert code == 0 and out.exists()
    weights = distilled.load_weights(out)
    assert weights["card"][0].shape == (N_CARD_STATE, distilled_training.HIDDEN["card"])
    meta = distilled.weights_meta(out)
    assert meta["games"] == 6 and len(meta["bid"]["curve"]) == 2 and meta["worlds"] == 3
    assert json.loads(json.dumps(meta))["seed"] == 0
    assert "written to" in capsys.readouterr().out


def test_train_refuses_bad_sizes_before_playing():
    with pytest.raises(InvalidArgumentError, match="games must be a positive integer"):
        distilled_training.train_distilled(games=0)
    with pytest.raises(InvalidArgumentError, match="worlds must be a non-negative integer"):
        distilled_training.train_distilled(worlds=-1)


@pytest.mark.slow
@pytest.mark.parametrize("kernel", ["shared", "dedicated"])
def test_a_registered_weights_file_plays_as_the_player_of_those_weights(kernel):
    from ohhell_sim.strategies.tables import TABLES_DIR

    distilled_training.register_weights(
        "distilled_shipped_file", TABLES_DIR / distilled.WEIGHTS_FILE, replace=True
    )
    try:
        rules = oh.Rules(players=4, max_cards=5)
        games = {
            name: oh.simulate(
                rules, [name, "simple"] * 2, games=3, seed=11, kernel=kernel
            ).hands.drop(columns="strategy")
            for name in ("distilled_shipped_file", "distilled")
        }
        assert games["distilled"].equals(games["distilled_shipped_file"])
    finally:
        oh.unregister_strategy("distilled_shipped_file")


def test_register_weights_and_the_hidden_sizes_refuse_bad_input(tmp_path):
    with pytest.raises(InvalidArgumentError, match="path: no weights file"):
        distilled_training.register_weights("x_weights", tmp_path / "none.npz")
    with pytest.raises(InvalidArgumentError, match=r"hidden\['card'\] must be a positive"):
        distilled_training.train_distilled(hidden={"bid": 4, "card": 0})
    with pytest.raises(InvalidArgumentError, match="hidden must map each network"):
        distilled_training.train_distilled(hidden={"card": 4})
