"""``guided_pimc``: ``adaptive_pimc``'s search with deals weighted by the bids and cards cut.

Its pieces are checked on hand-built views: the bid network reads a strong
hand as likely to need many tricks, the cut keeps the network's best card, and
with both guides off the card is ``adaptive_pimc``'s on the same random stream.
"""

from __future__ import annotations

import numpy as np
import pytest

from ohhell_sim import view as V
from ohhell_sim.cards import mask_of, parse_cards
from ohhell_sim.strategies import adaptive_pimc, guided_pimc
from ohhell_sim.strategies._distilled_features import N_BID_MOVE, N_BID_STATE, N_OUTCOMES
from ohhell_sim.strategies.distilled import BID_BIAS
from ohhell_sim.strategies.pimc import candidate_cards
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from tests.test_strategies_common import SEARCH_VIEWS, decide, make_view, rng

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow

PARAMS = guided_pimc.STRATEGY.param_row()

# Four tricks left of five; seat 0 led the king of hearts and needs all of them.
MID_DEAL = make_view(
    "7C 4D 9S 2S",
    "S",
    seat=1,
    dealer=3,
    phase=V.PHASE_PLAY,
    hand_size=5,
    trick_index=1,
    bids=[5, 1, 0, 1],
    won=[1, 0, 0, 0],
    trick=["KH"],
    played="3H 4H 5H 6H",
)


@pytest.mark.parametrize("name", sorted(SEARCH_VIEWS))
def test_choices_are_legal(name):
    view = SEARCH_VIEWS[name]
    params = PARAMS.copy()
    params[list(guided_pimc.STRATEGY.params).index("cut")] = 2.0
    for seed in range(4):
        if view[V.PHASE] == V.PHASE_BID:
            bid = decide(guided_pimc.bid, view, params, rng(seed))
            assert 0 <= bid <= view[V.MAX_BID] and bid != view[V.FORBIDDEN_BID]
        else:
            assert (view[V.LEGAL] >> decide(guided_pimc.play, view, params, rng(seed))) & 1


def test_the_needs_read_are_those_in_play():
    seats, views = guided_pimc.reading_views(MID_DEAL)
    # Seat 0 needs 4 of the 4 tricks left, seats 2 and 3 need 0 and 1.
    assert seats.tolist() == [0, 2, 3]
    for k, seat in enumerate(seats):
        row = views[k]
        assert row[V.SEAT] == seat and row[V.HAND_SIZE] == 4 and row[V.PHASE] == V.PHASE_BID
    assert [views[0][V.BIDS_BASE + s] for s in range(4)] == [4, 1, 0, 1]


def test_a_strong_hand_makes_a_high_need_likely():
    _, views = guided_pimc.reading_views(MID_DEAL)
    scratch = np.empty(N_BID_STATE + N_BID_MOVE + 2 * BID_BIAS.shape[0], dtype=BID_BIAS.dtype)
    probs = np.empty(N_OUTCOMES, dtype=BID_BIAS.dtype)
    strong = mask_of(parse_cards("AS KS QS AD"))
    weak = mask_of(parse_cards("3C 5D 6D 3S"))
    need_all = views[0]  # seat 0, needing all four tricks
    like = guided_pimc.need_likelihood
    assert like(need_all.copy(), strong, scratch, probs) > 5 * like(
        need_all.copy(), weak, scratch, probs
    )
    need_none = views[1]  # seat 2, needing none
    assert like(need_none.copy(), weak, scratch, probs) > like(
        need_none.copy(), strong, scratch, probs
    )


def test_the_cut_keeps_the_networks_best_cards():
    view = SEARCH_VIEWS["lead"]
    cards = candidate_cards(view)
    values = guided_pimc.network_values(view, cards)
    kept = guided_pimc.cut_candidates(view, cards, 1e-6)
    assert kept.tolist() == cards[values >= values.max() - 1e-6].tolist()
    assert guided_pimc.cut_candidates(view, cards, 1e6).tolist() == cards.tolist()


def test_without_guides_it_plays_as_adaptive_pimc():
    # Through the strategies' entries, whose compiles the other tests share.
    unguided = guided_pimc.STRATEGY.param_row({"sharpness": 0.0, "oversample": 1.0, "cut": 0.0})
    searched = adaptive_pimc.STRATEGY.param_row()
    for name in ("lead", "follow", "void"):
        view = SEARCH_VIEWS[name]
        for seed in range(4):
            mine = decide(guided_pimc.play, view, unguided, rng(seed))
            theirs = decide(adaptive_pimc.play, view, searched, rng(seed))
            assert mine == theirs, (name, seed)


def test_deals_read_from_a_high_bid_give_that_bidder_more_trumps():
    # Seat 0 bid all five tricks with spades trump: the deals read from the bid
    # give it more spades than the uniform deals do.
    view = make_view("2H 3D 5C 7C 9D", "S", seat=1, dealer=3, hand_size=5, bids=[5, -1, -1, -1])
    reading, read = guided_pimc.make_reading(view, 1.0, 8)
    assert read
    spades = sum(1 << (13 * 3 + r) for r in range(13))
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    assert prepare_sample(view, plan, pool)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    state = rng(0)
    counts = {"read": 0, "uniform": 0}
    for _ in range(300):
        assert guided_pimc.draw_read(plan, pool, state, hands, reading)
        counts["read"] += bin(int(hands[0]) & spades).count("1")
        assert draw_sample(plan, pool, state, hands)
        counts["uniform"] += bin(int(hands[0]) & spades).count("1")
    assert counts["read"] > 1.3 * counts["uniform"]
