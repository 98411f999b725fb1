"""Tests of the playout engine of the sampling strategies (``ohhell_sim.strategies._playout``).

The shared playouts of ``mc_bidder`` (:func:`play_out_bids`) must give every bid
the trick count a playout of its own would give, and the playouts that stop at
a settled miss must score as the full ones.  The sampler of hidden hands has
its tests in ``test_sampler.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from test_strategies_common import make_view, rng

from ohhell_sim import view as V
from ohhell_sim.engine.core import beats, following_cards, led_suit_of, next_seat
from ohhell_sim.engine.rng import below, seed_stream
from ohhell_sim.rules import Rules
from ohhell_sim.strategies._common import beaters, greedy_card, trump_mask
from ohhell_sim.strategies._playout import (
    SETTLE_OVER,
    SETTLE_UNDER,
    STACK_ROW,
    PlayoutDeal,
    _greedy_card,
    estimate_bids,
    estimate_bids_by_own_bid,
    first_lead,
    play_out,
    play_out_bids,
    play_out_settled,
    settle_flags,
)
from ohhell_sim.strategies.sampler import sample_hidden
from ohhell_sim.strategy.tools import points, popcount

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow


@njit
def _counts_both_ways(view, samples, state, aim, settle):
    # For each sample: the trick counts of every bid of ours, by one playout per
    # bid (reference) and by the shared playouts.
    n = view[V.N_PLAYERS]
    h = view[V.HAND_SIZE]
    most = view[V.MAX_BID]
    me = view[V.SEAT]
    active = view[V.ACTIVE]
    trump = view[V.TRUMP]
    dealer = view[V.DEALER]
    first = next_seat(dealer, active, n)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    reference = np.zeros((samples, most + 1, h + 1))
    shared = np.zeros((samples, most + 1, h + 1))
    varied = 0
    for i in range(samples):
        sample_hidden(view, state, hands, pool)
        for b in range(most + 1):
            bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
            for s in range(n):
                bids[s] = view[V.BIDS_BASE + s]
            bids[me] = b
            estimate_bids(n, active, dealer, h, most, view[V.HOOK], trump, hands, bids)
            won = np.zeros(V.MAX_SEATS, dtype=np.int64)
            deal = PlayoutDeal(n, active, trump, hands.copy(), won)
            play_out(deal, bids, first_lead(first), h, won[:0])
            reference[i, b, won[me]] += 1.0
        bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
        for s in range(n):
            bids[s] = view[V.BIDS_BASE + s]
        wants = np.zeros((V.MAX_SEATS, h + 1), dtype=np.int64)
        varying = estimate_bids_by_own_bid(
            n, active, dealer, h, most, view[V.HOOK], trump, hands, bids, me, wants
        )
        if varying != np.int64(1) << me:
            varied += 1
        stack = np.empty((most + 1, STACK_ROW), dtype=np.int64)
        won = np.zeros(V.MAX_SEATS, dtype=np.int64)
        play_out_bids(
            PlayoutDeal(n, active, trump, hands.copy(), won),
            first,
            h,
            wants,
            (np.int64(1) << (most + 1)) - 1,
            me,
            shared[i],
            stack,
            np.int64(1) << aim,
            settle,
        )
    return reference, shared, varied


# Seat 1 bids after seat 0 and before the dealer (seat 3), whose estimate then
# depends on our bid through the hook.
BID_VIEW = dict(seat=1, dealer=3, bids=[2, -1, -1, -1])


def test_shared_playouts_give_every_bid_its_own_count():
    view = make_view("AS KS 7S AH 9H 4D 3D QC 8C 2C", "S", **BID_VIEW)
    reference, shared, varied = _counts_both_ways(view, 40, rng(3), 2, 0)
    np.testing.assert_array_equal(shared, reference)
    assert varied > 0  # the dealer's hook was exercised


def test_shared_playouts_without_hook_agree():
    view = make_view(
        "AS KS 7S AH 9H 4D 3D QC 8C 2C", "S", rules=Rules(players=4, hook=False), **BID_VIEW
    )
    reference, shared, varied = _counts_both_ways(view, 40, rng(4), 1, 0)
    np.testing.assert_array_equal(shared, reference)
    assert varied == 0


def test_settled_playouts_score_as_the_full_ones():
    view = make_view("AS KS 7S AH 9H 4D 3D QC 8C 2C", "S", **BID_VIEW)
    aim = 3
    settle = SETTLE_OVER | SETTLE_UNDER
    assert settle_flags(view) == settle
    reference, shared, _ = _counts_both_ways(view, 40, rng(5), aim, settle)
    # The aimed-at bid keeps its whole counts; every bid keeps its made count
    # and its number of playouts, which is all the canonical tables score.
    np.testing.assert_array_equal(shared[:, aim], reference[:, aim])
    for b in range(reference.shape[1]):
        np.testing.assert_array_equal(shared[:, b, b], reference[:, b, b])
    np.testing.assert_array_equal(shared.sum(axis=2), reference.sum(axis=2))
    assert np.any(shared != reference)  # some playouts did stop early


def test_settle_flags_follow_the_miss_tables():
    assert settle_flags(make_view("AS", "S")) == SETTLE_OVER | SETTLE_UNDER
    view = make_view("AS", "S", rules=Rules(players=4, over="-10*diff"))
    assert settle_flags(view) == SETTLE_UNDER
    view = make_view("AS", "S", rules=Rules(players=4, over="-10*diff", under="-10*diff"))
    assert settle_flags(view) == 0


@njit
def _points_both_ways(view, samples, state, bid, settle):
    n = view[V.N_PLAYERS]
    me = view[V.SEAT]
    active = view[V.ACTIVE]
    trump = view[V.TRUMP]
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    out = np.zeros((samples, 2))
    stopped = 0
    for i in range(samples):
        sample_hidden(view, state, hands, pool)
        bids = np.full(V.MAX_SEATS, 1, dtype=np.int64)
        bids[me] = bid
        for k in range(2):
            work = hands.copy()
            won = np.zeros(V.MAX_SEATS, dtype=np.int64)
            first = next_seat(view[V.DEALER], active, n)
            tricks = view[V.HAND_SIZE]
            deal = PlayoutDeal(n, active, trump, work, won)
            if k == 0:
                play_out(deal, bids, first_lead(first), tricks, won[:0])
            else:
                play_out_settled(deal, bids, first_lead(first), tricks, me, settle)
                if popcount(work[me]) > 0:
                    stopped += 1
            out[i, k] = points(view, bid, won[me])
    return out, stopped


@pytest.mark.parametrize("bid", [0, 2, 6])
def test_play_out_settled_scores_as_play_out(bid):
    view = make_view("AS KS 7S AH 9H 4D 3D QC 8C 2C", "S", seat=1, dealer=3)
    out, stopped = _points_both_ways(view, 60, rng(6), bid, settle_flags(view))
    np.testing.assert_array_equal(out[:, 1], out[:, 0])
    assert stopped > 0


@njit
def _policy_mismatches(state, trials):
    """Random trick states on which the playouts' mask policy and ``greedy_card`` differ."""
    mismatches = 0
    deck = np.arange(53)
    for _ in range(trials):
        for i in range(53):
            j = i + below(state, 53 - i)
            deck[i], deck[j] = deck[j], deck[i]
        trump = below(state, 5) - 1  # -1: no trump
        in_trick = below(state, 4)
        led, best = -1, -1
        for k in range(in_trick):
            card = deck[k]
            if k == 0:
                led, best = led_suit_of(card, trump), card
            elif beats(card, best, trump):
                best = card
        hand = np.int64(0)
        for k in range(1 + below(state, 12)):
            hand |= np.int64(1) << deck[in_trick + k]
        follow = following_cards(hand, led, trump) if in_trick > 0 else np.int64(0)
        legal = follow if follow != 0 else hand
        beat = beaters(best, led, trump) if in_trick > 0 else np.int64(0)
        for wants in (False, True):
            expected = greedy_card(legal, led, trump, in_trick, best, wants)
            got = _greedy_card(legal, in_trick, follow != 0, beat, trump_mask(trump), wants)
            mismatches += expected != got
    return mismatches


def test_the_playouts_mask_policy_is_greedy_card():
    # The playouts inline their own bit-mask form of the greedy policy for speed;
    # it must choose the card greedy_card chooses, joker and no-trump deals included.
    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, np.uint64(9), 2, 0)
    assert _policy_mismatches(state, 200_000) == 0
