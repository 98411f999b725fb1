"""Invariants of the rules on larger runs: cards, tricks, the hook, scores, win shares,
dealer rotation, and the distributions of the first dealer and the trump suit."""

from __future__ import annotations

import numpy as np
import pytest
import scripted_strategies as ss

import ohhell_sim as oh
from ohhell_sim import reference
from ohhell_sim.rules import Rules

# Chi-square critical values at p = 1e-6 by degrees of freedom (runs are seeded, so a
# failure means a broken distribution, not bad luck).
CHI2_1E6 = {2: 27.6, 3: 30.7, 4: 33.4, 6: 38.5}

RUNS = {
    "4p-hook": (Rules(players=4), ["simple", "random", "random", "simple"], 2000),
    "4p-nohook": (Rules(players=4, hook=False), ["random"] * 3 + ["simple"], 1000),
    "3p": (Rules(players=3), ["random", "simple", "random"], 600),
    "7p": (Rules(players=7), ["simple", "random"] * 3 + ["random"], 600),
}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run(request):
    rules, seats, games = RUNS[request.param]
    result = oh.simulate(rules, seats, games=games, seed=4242)
    n, d = rules.players, rules.n_deals
    hands = result.hands

    def cube(column):
        return hands[column].to_numpy().astype(np.int64).reshape(games, d, n)

    return {
        "name": request.param,
        "rules": rules,
        "seats": seats,
        "games": games,
        "result": result,
        "bids": cube("bid"),
        "tricks": cube("tricks"),
        "scores": cube("score"),
        "dealers": cube("dealer")[:, :, 0],
        "trumps": cube("trump")[:, :, 0],
        "hand_size": cube("hand_size"),
    }


def test_frame_layout(run):
    rules, games = run["rules"], run["games"]
    n, d = rules.players, rules.n_deals
    hands = run["result"].hands
    assert len(hands) == games * d * n
    assert (hands["game"].to_numpy().reshape(games, -1) == np.arange(games)[:, None]).all()
    assert (hands["deal"].to_numpy().reshape(games, d, n) == np.arange(d)[None, :, None]).all()
    assert (hands["seat"].to_numpy().reshape(games, d, n) == np.arange(n)).all()
    assert (run["hand_size"] == np.array(rules.schedule)[None, :, None]).all()
    # Per-deal columns are the same for every seat of a deal.
    for column in ("dealer", "trump", "hand_size"):
        cube = hands[column].to_numpy().reshape(games, d, n)
        assert (cube == cube[:, :, :1]).all(), column


def test_tricks_sum_to_hand_size(run):
    sums = run["tricks"].sum(axis=2)
    assert (sums == np.array(run["rules"].schedule)[None, :]).all()
    assert (run["tricks"] >= 0).all()


def test_bids_in_range(run):
    bids, size = run["bids"], run["hand_size"]
    assert (bids >= 0).all() and (bids <= size).all()


def test_hook_bids_never_total_the_tricks(run):
    totals = run["bids"].sum(axis=2)
    equal = totals == np.array(run["rules"].schedule)[None, :]
    if run["rules"].hook:
        assert not equal.any()
    else:
        # Without the hook random bidders sometimes make the total exact.
        assert equal.any()
        assert equal.mean() < 0.5


def test_scores_are_ten_plus_bid_when_exact(run):
    bids, tricks, scores = run["bids"], run["tricks"], run["scores"]
    assert (scores == np.where(bids == tricks, 10 + bids, 0)).all()
    assert (bids == tricks).any() and (bids != tricks).any()


def test_totals_and_win_shares(run):
    games_frame = run["result"].games
    n, games = run["rules"].players, run["games"]
    totals = games_frame["total"].to_numpy().reshape(games, n)
    assert (totals == run["scores"].sum(axis=1)).all()
    share = games_frame["win_share"].to_numpy().reshape(games, n)
    np.testing.assert_allclose(share.sum(axis=1), 1.0)
    top = totals == totals.max(axis=1, keepdims=True)
    k = top.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(share, np.where(top, 1.0 / k, 0.0))
    assert (games_frame["game"].to_numpy().reshape(games, n) == np.arange(games)[:, None]).all()


def test_ties_share_the_win():
    # Single one-card deals with many players tie often.
    rules = Rules(players=7, schedule=[1])
    result = oh.simulate(rules, ["random"] * 6 + ["simple"], games=500, seed=3)
    totals = result.games["total"].to_numpy().reshape(-1, 7)
    share = result.games["win_share"].to_numpy().reshape(-1, 7)
    k = (totals == totals.max(axis=1, keepdims=True)).sum(axis=1)
    assert (k > 1).any() and (k == 1).any()
    for g in np.flatnonzero(k > 1)[:20]:
        winners = totals[g] == totals[g].max()
        np.testing.assert_allclose(share[g][winners], 1.0 / k[g])
        assert (share[g][~winners] == 0).all()


def test_dealer_rotates_clockwise(run):
    n = run["rules"].players
    dealers = run["dealers"]
    assert ((dealers[:, 1:] - dealers[:, :-1]) % n == 1).all()
    assert ((dealers >= 0) & (dealers < n)).all()


def test_first_dealer_uniform(run):
    n = run["rules"].players
    counts = np.bincount(run["dealers"][:, 0], minlength=n)
    expected = run["games"] / n
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < CHI2_1E6[n - 1], counts


def test_trump_suit_uniform(run):
    counts = np.bincount(run["trumps"].ravel(), minlength=4)
    assert len(counts) == 4  # suits 0-3 only: every canonical deal turns up a trump
    expected = run["trumps"].size / 4
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < CHI2_1E6[3], counts


def test_replayed_deals_use_each_card_once(run):
    rules, seats = run["rules"], run["seats"]
    n = rules.players
    for game in (0, 1, run["games"] // 2, run["games"] - 1):
        log = oh.replay(rules, seats, seed=4242, game=game)
        assert log.first_dealer == run["dealers"][game, 0]
        for d, deal in enumerate(log.deals):
            h = deal.hand_size
            dealt = [c for hand in deal.hands for c in hand]
            assert all(len(hand) == h for hand in deal.hands)
            assert len(set(dealt)) == n * h
            assert deal.trump_card not in dealt
            assert 0 <= deal.trump_card < 52
            assert deal.trump == deal.trump_card // 13 == run["trumps"][game, d]
            # Every dealt card is played exactly once, each trick has one card per seat.
            played = [c for trick in deal.tricks for c in trick.cards]
            assert sorted(played) == sorted(dealt)
            assert len(deal.tricks) == h
            leader = (deal.dealer + 1) % n
            won = [0] * n
            gone = set()
            for trick in deal.tricks:
                assert trick.leader == leader
                assert len(trick.cards) == n
                led = trick.cards[0] // 13
                for j, card in enumerate(trick.cards):
                    seat = (leader + j) % n
                    assert card in deal.hands[seat]
                    # Follow suit when possible: a seat that did not follow has none
                    # of the led suit left at that point.
                    assert card not in gone
                    if card // 13 != led:
                        remaining = set(deal.hands[seat]) - gone
                        assert all(c // 13 != led for c in remaining)
                gone.update(trick.cards)
                winner = (leader + reference.trick_winner(trick.cards, deal.trump)) % n
                assert trick.winner == winner
                won[winner] += 1
                leader = winner
            assert won == deal.tricks_won == run["tricks"][game, d].tolist()


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=4),
        Rules(players=3, hook=False),
        Rules(players=7),
        Rules(players=6, schedule=[8, 1, 3]),
    ],
    ids=["4p", "3p-nohook", "7p", "6p-custom"],
)
def test_views_satisfy_invariants(tester, rules):
    """The ``tester`` view checker returns an illegal move on any broken invariant,
    so a clean run means every view the kernel and the reference built was sound."""
    n = rules.players
    seats = [ss.mode(ss.MODE_VIEW_CHECK)] * (n - 2) + ["simple", "random"]
    result = oh.simulate(rules, seats, games=300, seed=77)
    assert len(result.games) == 300 * n
    for game in (0, 299):
        oh.replay(rules, seats, seed=77, game=game)
