"""Sequential sampling (``strategies._sequential``) and ``adaptive_pimc``, the player built on it.

The stopping rule is checked on score tables built by hand; the player's bid
and card on hand-built views, where the random stream it leaves behind tells
how many samples it drew; and whole games, against ``pimc`` it reduces to.
"""

from __future__ import annotations

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.rules import Rules
from ohhell_sim.strategies import adaptive_pimc
from ohhell_sim.strategies._sequential import BATCH, FIRST_TEST, choice_is_open, time_to_test
from tests.test_strategies_common import SEARCH_VIEWS, card, decide, make_view, rng

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow

PARAMS = adaptive_pimc.STRATEGY.param_row()


def open_after(scores: np.ndarray, eps: float, drop: float = 0.0) -> tuple[bool, np.ndarray]:
    alive = np.ones(scores.shape[1], dtype=np.bool_)
    return choice_is_open(scores, scores.shape[0], scores.sum(axis=0), alive, eps, drop), alive


def test_tests_come_every_batch_from_the_first_test_on():
    tested = [j for j in range(60) if time_to_test(j, 0.1)]
    assert tested == list(range(FIRST_TEST, 60, BATCH))
    assert not any(time_to_test(j, 0.0) for j in range(60))


def test_a_clear_leader_closes_the_choice():
    rng = np.random.default_rng(0)
    scores = np.column_stack([10 + rng.normal(0, 1, 16), rng.normal(0, 1, 16)])
    is_open, alive = open_after(scores, 0.05)
    assert not is_open and alive.all()


def test_options_alike_so_far_stay_open_on_few_samples():
    # Equal on 16 samples is no proof of equal: the prior spread keeps it open.
    scores = np.full((16, 3), 5.0)
    assert open_after(scores, 0.05)[0]
    # On enough samples the expected loss falls below eps: 0.4 / sqrt(n) < 0.05.
    assert not open_after(np.full((80, 3), 5.0), 0.05)[0]


def test_a_close_call_stays_open_and_only_the_far_behind_are_dropped():
    # The runner-up trails by 0.1 on average, +-1 sample by sample: too close to
    # call on 24 samples; the third trails by 5 points on every sample.
    leader = 5 + np.random.default_rng(1).normal(0, 3, 24)
    runner_up = leader - np.tile([1.1, -0.9], 12)
    scores = np.column_stack([leader, runner_up, leader - 5])
    is_open, alive = open_after(scores, 0.05, drop=2.0)
    assert is_open
    assert alive.tolist() == [True, True, False]
    # Without drop nobody leaves the race.
    assert open_after(scores, 0.05)[1].all()


def _draws_of(decision, samples: int) -> np.ndarray:
    # The random stream after a decision: it advances with every sample drawn.
    state = rng(3)
    decision(samples, state)
    return state


def _with(samples: int, **settings: float) -> np.ndarray:
    # adaptive_pimc's row with ``samples`` as both limits: its entries run pimc's
    # search with these settings (eps 0: the fixed one) and link the compile the
    # suite keeps on disk, where a direct call compiles in each process.
    return adaptive_pimc.STRATEGY.param_row(
        {"samples": samples, "bid_samples": samples, **settings}
    )


def test_an_obvious_bid_stops_at_the_first_test():
    # Five top trumps: every sample takes five tricks, bid five at once.
    view = make_view("AS KS QS JS TS", "S", seat=0, dealer=3, hand_size=5)

    def sequential(samples, state):
        assert decide(adaptive_pimc.bid, view, _with(samples, bid_eps=0.05), state) == 5

    def fixed(samples, state):
        assert decide(adaptive_pimc.bid, view, _with(samples, bid_eps=0.0), state) == 5

    assert (_draws_of(sequential, 512) == _draws_of(fixed, FIRST_TEST)).all()
    assert not (_draws_of(fixed, 512) == _draws_of(fixed, FIRST_TEST)).all()


def test_an_obvious_card_stops_at_the_first_test():
    # One trick needed, two to go, last to a heart trick: the ace of hearts takes
    # this one for sure, while ducking with the two of clubs leaves the last
    # trick to the ace, which a lead in another suit beats.
    view = make_view(
        "AH 2C",
        "S",
        seat=3,
        dealer=3,
        phase=V.PHASE_PLAY,
        hand_size=5,
        trick_index=3,
        bids=[1, 1, 1, 1],
        won=[1, 1, 1, 0],
        trick=["QH", "5H", "6H"],
        played="2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    )

    def sequential(samples, state):
        assert decide(adaptive_pimc.play, view, _with(samples, eps=0.05, drop=1.5), state) == card(
            "AH"
        )

    def fixed(samples, state):
        assert decide(adaptive_pimc.play, view, _with(samples, eps=0.0, drop=0.0), state) == card(
            "AH"
        )

    assert (_draws_of(sequential, 512) == _draws_of(fixed, FIRST_TEST)).all()


@pytest.mark.parametrize("name", sorted(SEARCH_VIEWS))
def test_choices_are_legal(name):
    view = SEARCH_VIEWS[name]
    for seed in range(6):
        if view[V.PHASE] == V.PHASE_BID:
            bid = decide(adaptive_pimc.bid, view, PARAMS, rng(seed))
            assert 0 <= bid <= view[V.MAX_BID] and bid != view[V.FORBIDDEN_BID]
        else:
            assert (view[V.LEGAL] >> decide(adaptive_pimc.play, view, PARAMS, rng(seed))) & 1


def test_the_hooked_dealer_is_never_offered_the_forbidden_bid():
    # Bids so far total 4 of 5: the dealer may not bid 1, which a lone ace of
    # trumps would otherwise make the obvious bid.
    view = make_view("AS 2H 3D 4C 6H", "S", seat=3, dealer=3, hand_size=5, bids=[2, 1, 1, -1])
    assert view[V.FORBIDDEN_BID] == 1
    for seed in range(8):
        assert decide(adaptive_pimc.bid, view, PARAMS, rng(seed)) != 1


def test_without_eps_it_plays_as_pimc():
    rules = Rules(players=4, schedule=(5, 3, 1))
    like_pimc = ("adaptive_pimc", {"samples": 6.0, "bid_samples": 6.0, "eps": 0.0, "bid_eps": 0.0})
    mine = oh.simulate(rules, [like_pimc, "card_counter", like_pimc, "random"], 8, seed=4).hands
    seats = [("pimc", {"samples": 6.0, "bid_samples": 6.0}), "card_counter"]
    theirs = oh.simulate(rules, [*seats, seats[0], "random"], 8, seed=4).hands
    columns = ["game", "deal", "seat", "bid", "tricks", "score"]
    assert mine[columns].equals(theirs[columns])


def test_plays_whole_games_reproducibly():
    rules = Rules(players=5, schedule=(6, 2))
    seats = ["adaptive_pimc", "pimc", "card_counter", "adaptive_pimc", "random"]
    one = oh.simulate(rules, seats, 4, seed=2, threads=1).hands
    two = oh.simulate(rules, seats, 4, seed=2, threads=2).hands
    assert one.equals(two)
    mine = one[one["strategy"] == "adaptive_pimc"]
    assert len(mine) == 4 * 2 * 2
    assert ((mine["bid"] >= 0) & (mine["bid"] <= mine["hand_size"])).all()
