"""The reference search's playouts, one sample at a time, every move scored.

These are ``adaptive_pimc``'s evaluations (:mod:`ohhell_sim.strategies.pimc`,
:mod:`ohhell_sim.strategies.mc_bidder`) with the per-sample points of every
candidate kept instead of a running total: the hidden cards are dealt by the
project's sampler (:mod:`ohhell_sim.strategies.sampler`), consistently with the
deciding seat's view only, and each candidate is played out on the same sample
with the playout policy of :mod:`ohhell_sim.strategies._playout` (``simple``'s
greedy play in every seat, each aiming at its bid; the bids not yet made, or
hidden, estimated by ``simple``'s count on the sample).  The caller
(:mod:`ohhell_sim.decisions.evaluate`) decides how many samples to draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import next_seat
from ohhell_sim.strategies._playout import (
    STACK_ROW,
    PlayoutDeal,
    deal_after,
    estimate_bids,
    estimate_bids_by_own_bid,
    play_out_bids,
    play_out_settled,
    settle_flags,
    trick_after,
)
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategy.tools import points


@njit
def card_scores(view, cards, rng, out):
    """Fill ``out[j, i]``: our points in the deal after card ``cards[i]`` on sample ``j``.

    Draws ``out.shape[0]`` samples of the hidden cards; returns False when the
    view is not one the sampler supports or no deal is consistent with it.
    """
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return False
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    tricks_left = view[V.HAND_SIZE] - view[V.TRICK]
    my_bid = view[V.BIDS_BASE + me]
    score = np.empty(view[V.HAND_SIZE] + 1, dtype=np.float64)
    for k in range(score.shape[0]):
        score[k] = points(view, my_bid, k)
    settle = settle_flags(view)
    for j in range(out.shape[0]):
        if not draw_sample(plan, pool, rng, hands):
            return False
        for s in range(V.MAX_SEATS):
            bids[s] = view[V.BIDS_BASE + s] if s < n else -1
        # Closed bids are estimated on each sample's hands, as pimc does.
        estimate_bids(
            n,
            active,
            view[V.DEALER],
            view[V.HAND_SIZE],
            view[V.MAX_BID],
            view[V.HOOK],
            view[V.TRUMP],
            hands,
            bids,
        )
        for i in range(cards.shape[0]):
            deal = deal_after(view, hands, cards[i], work, won)
            play_out_settled(deal, bids, trick_after(view, cards[i]), tricks_left, me, settle)
            out[j, i] = score[won[me]]
    return True


@njit
def bid_scores(view, rng, out):
    """Fill ``out[j, b]``: our points in the deal bidding ``b`` on sample ``j``.

    Every bid ``0 .. MAX_BID`` is played out (the forbidden one too: the
    caller leaves it out); the seats after us bid ``simple``'s count on the
    sample, the dealer off the bid the hook forbids given ours.  Returns False
    as :func:`card_scores` does.
    """
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return False
    n = view[V.N_PLAYERS]
    h = view[V.HAND_SIZE]
    most = view[V.MAX_BID]
    me = view[V.SEAT]
    active = view[V.ACTIVE]
    trump = view[V.TRUMP]
    first = next_seat(view[V.DEALER], active, n)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.empty(V.MAX_SEATS, dtype=np.int64)
    won = np.empty(V.MAX_SEATS, dtype=np.int64)
    wants = np.zeros((V.MAX_SEATS, h + 1), dtype=np.int64)
    stack = np.empty((most + 1, STACK_ROW), dtype=np.int64)
    drawn = np.zeros((most + 1, h + 1), dtype=np.float64)
    worth = np.empty((most + 1, h + 1), dtype=np.float64)
    for b in range(most + 1):
        for k in range(h + 1):
            worth[b, k] = points(view, b, k)
    every_bid = (np.int64(1) << (most + 1)) - 1
    settle = settle_flags(view)
    for j in range(out.shape[0]):
        if not draw_sample(plan, pool, rng, hands):
            return False
        for s in range(V.MAX_SEATS):
            bids[s] = view[V.BIDS_BASE + s] if s < n else -1
            won[s] = 0
        estimate_bids_by_own_bid(
            n, active, view[V.DEALER], h, most, view[V.HOOK], trump, hands, bids, me, wants
        )
        drawn[:, :] = 0.0
        play_out_bids(
            PlayoutDeal(n, active, trump, hands, won),
            first,
            h,
            wants,
            every_bid,
            me,
            drawn,
            stack,
            np.int64(0),
            settle,
        )
        for b in range(most + 1):
            value = 0.0
            for k in range(h + 1):
                value += drawn[b, k] * worth[b, k]
            out[j, b] = value
    return True
