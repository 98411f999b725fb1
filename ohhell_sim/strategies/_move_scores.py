"""The Monte Carlo search's sampling loops, shared by its players and the move scorer.

One loop values the candidate cards (:func:`card_points`), one the bids
(:func:`bid_points`).  Each deals the hidden cards with the project's sampler
(:mod:`ohhell_sim.strategies.sampler`), consistently with the deciding seat's
view only, and plays every candidate out on the same sample with the playout
policy of :mod:`ohhell_sim.strategies._playout` (``simple``'s greedy play in
every seat, each aiming at its bid; the bids not yet made, or hidden, estimated
by ``simple``'s count on the sample).  The players (``pimc``'s
:func:`~ohhell_sim.strategies.pimc.pimc_card`, ``mc_bidder``'s
:func:`~ohhell_sim.strategies.mc_bidder.mc_bid`, so ``adaptive_pimc`` too) keep
running totals and may stop early; the move scorer of the decision analysis
(:func:`card_scores`, :func:`bid_scores`, called by
:mod:`ohhell_sim.decisions.evaluate`) keeps every sample's points of every
candidate and decides itself how many samples to draw.  Both draw the same
samples from the same random stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import next_seat
from ohhell_sim.strategies._common import eligible_bids
from ohhell_sim.strategies._playout import (
    STACK_ROW,
    PlayoutDeal,
    deal_after,
    estimate_bids_by_own_bid,
    fill_bids,
    play_out_bids,
    play_out_settled,
    settle_flags,
    trick_after,
)
from ohhell_sim.strategies._sequential import choice_is_open, time_to_test
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategy.tools import points


@njit
def drop_hopeless(totals, alive, spread):
    """Take out of ``alive`` the cards that can no longer have the best total.

    ``spread`` is the most the samples still to come can add to one card's
    total beyond what they add to another's.  A card is out when its total,
    plus ``spread``, stays more than half a point below the leader's: the
    totals are sums of points, whole numbers, so it ends below the leader's.
    """
    lead = -np.inf
    for i in range(totals.shape[0]):
        if alive[i] and totals[i] > lead:
            lead = totals[i]
    for i in range(totals.shape[0]):
        if alive[i] and totals[i] + spread < lead - 0.5:
            alive[i] = False


@njit
def _sampler_for(view):
    # The sampler's plan and pool for the view, and whether it supports the view.
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    return plan, pool, prepare_sample(view, plan, pool)


@njit
def card_points(view, cards, samples, rng, totals, alive, out, eps, drop, prune):
    """Play every ``alive`` card of ``cards`` out on up to ``samples`` sampled deals.

    Adds each card's points in the deal (under the view's scoring tables) to
    ``totals[i]``, and, when ``out`` has rows, writes them to ``out[j, i]`` for
    sample ``j``.  With ``eps`` > 0 the sampling is sequential
    (:mod:`ohhell_sim.strategies._sequential`, reading ``out``): it stops once no
    card could beat the leading one by more than ``eps`` points in expectation,
    taking out of ``alive`` the cards more than ``drop`` standard errors
    behind.  With ``prune`` it takes out of ``alive`` the cards that can no
    longer end with the best total (:func:`drop_hopeless`); every sample is
    still drawn, so that the random stream goes on as it would.

    Returns
    -------
    int
        The samples drawn, or -1 when the view is not one the sampler supports
        or no deal is consistent with it.
    """
    plan, pool, supported = _sampler_for(view)
    if not supported:
        return -1
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    n_choices = cards.shape[0]
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    tricks_left = view[V.HAND_SIZE] - view[V.TRICK]
    my_bid = view[V.BIDS_BASE + me]
    # Derived once, not per playout: the trick after each card, and our points
    # by the tricks we end with (the scoring tables branch).
    after = [trick_after(view, cards[i]) for i in range(n_choices)]
    score = np.empty(view[V.HAND_SIZE] + 1, dtype=np.float64)
    for k in range(score.shape[0]):
        score[k] = points(view, my_bid, k)
    # The spread of one playout's points: over the trick counts it can end at.
    taken = view[V.TRICKS_WON_BASE + me]
    reachable = score[taken : taken + tricks_left + 1]
    spread = reachable.max() - reachable.min()
    # A playout stops once our bid is surely missed: its points are known then.
    settle = settle_flags(view)
    # Bids are public in play, but closed bids hide them: those are estimated
    # on each sample's hands.
    hidden_bids = False
    for s in range(n):
        bids[s] = view[V.BIDS_BASE + s]
        hidden_bids |= (active >> s) & 1 != 0 and bids[s] < 0
    keep = out.shape[0] > 0
    for j in range(samples):
        if time_to_test(j, eps) and not choice_is_open(out, j, totals, alive, eps, drop):
            return j
        if not draw_sample(plan, pool, rng, hands):
            return -1
        if hidden_bids:
            fill_bids(view, hands, bids, -1)
        for i in range(n_choices):
            if not alive[i]:
                continue
            deal = deal_after(view, hands, cards[i], work, won)
            play_out_settled(deal, bids, after[i], tricks_left, me, settle)
            totals[i] += score[won[me]]
            if keep:
                out[j, i] = score[won[me]]
        if prune:
            drop_hopeless(totals, alive, spread * (samples - 1 - j))
    return samples


@njit
def candidate_bids(counts, aim):
    """The bids worth evaluating, one bool per bid ``0..counts.shape[0] - 1``.

    They are ``aim``, zero, and the bids from one below the fewest to one above
    the most tricks taken aiming at ``aim``: ``counts[aim, k]`` counts the
    samples on which the playout aiming at ``aim`` took ``k`` tricks.
    """
    reached = counts[aim]
    low = reached.shape[0] - 1
    high = 0
    for k in range(reached.shape[0]):
        if reached[k] > 0.0:
            low = min(low, k)
            high = max(high, k)
    tried = np.zeros(counts.shape[0], dtype=np.bool_)
    for b in range(counts.shape[0]):
        tried[b] = b == aim or b == 0 or low - 1 <= b <= high + 1
    return tried


@njit
def bid_points(view, samples, rng, eps, aim, counts, out, deals=None):
    """Play every bid ``0 .. MAX_BID`` out on up to ``samples`` sampled deals.

    Adds to ``counts[b, k]`` the samples on which bidding ``b`` took ``k``
    tricks (a playout that stops once ``b`` is surely missed counts where it
    stopped, which scores alike), and, when ``out`` has rows, writes the
    points of bid ``b`` on sample ``j`` to ``out[j, b]``.  On each sample the
    seats after us bid ``simple``'s count on the sample, the dealer off the bid
    the hook forbids given ours, and the playouts of all bids are played as
    one, forking only where the bids make a play differ
    (:func:`ohhell_sim.strategies._playout.play_out_bids`); those aiming at
    ``aim`` are played whole.  With ``eps`` > 0 the sampling is sequential
    (reading ``out``): it stops once no legal bid among :func:`candidate_bids`
    could beat the leading one by more than ``eps`` points in expectation.
    ``deals``, when given, holds the hands of each sample (one row per sample,
    as the sampler deals them), played instead of the sampler's draws.

    Returns
    -------
    int
        The samples drawn, or -1 as :func:`card_points`.
    """
    plan, pool, supported = _sampler_for(view)
    if not supported:
        return -1
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
    every_bid = (np.int64(1) << (most + 1)) - 1
    settle = settle_flags(view)
    # Points per sample are kept only when asked for: the playouts then go to
    # ``drawn``, one sample at a time, and are scored per bid.
    keep = out.shape[0] > 0
    rows = most + 1 if keep else 0
    drawn = np.zeros((rows, h + 1), dtype=np.float64)
    worth = np.empty((rows, h + 1), dtype=np.float64)
    for b in range(rows):
        for k in range(h + 1):
            worth[b, k] = points(view, b, k)
    totals = np.zeros(rows, dtype=np.float64)
    for j in range(samples):
        if time_to_test(j, eps):
            alive = eligible_bids(view, candidate_bids(counts, aim))
            if not choice_is_open(out, j, totals, alive, eps, 0.0):
                return j
        if deals is None:
            if not draw_sample(plan, pool, rng, hands):
                return -1
        else:
            hands[:] = deals[j]
        for s in range(V.MAX_SEATS):
            bids[s] = view[V.BIDS_BASE + s] if s < n else -1
            won[s] = 0
        estimate_bids_by_own_bid(
            n, active, view[V.DEALER], h, most, view[V.HOOK], trump, hands, bids, me, wants
        )
        play_out_bids(
            PlayoutDeal(n, active, trump, hands, won),
            first,
            h,
            wants,
            every_bid,
            me,
            drawn if keep else counts,
            stack,
            np.int64(1) << aim,
            settle,
        )
        if keep:
            counts += drawn
            for b in range(rows):
                value = 0.0
                for k in range(h + 1):
                    value += drawn[b, k] * worth[b, k]
                out[j, b] = value
                totals[b] += value
            drawn[:, :] = 0.0
    return samples


@njit
def card_scores(view, cards, rng, out):
    """Fill ``out[j, i]``: our points in the deal after card ``cards[i]`` on sample ``j``.

    Draws ``out.shape[0]`` samples (:func:`card_points`, every card played out
    on every sample); returns False when the view is not one the sampler
    supports or no deal is consistent with it.
    """
    totals = np.zeros(cards.shape[0], dtype=np.float64)
    alive = np.ones(cards.shape[0], dtype=np.bool_)
    return card_points(view, cards, out.shape[0], rng, totals, alive, out, 0.0, 0.0, False) >= 0


@njit
def bid_scores(view, rng, out):
    """Fill ``out[j, b]``: our points in the deal bidding ``b`` on sample ``j``.

    Every bid ``0 .. MAX_BID`` is played out (:func:`bid_points`; the forbidden
    one too: the caller leaves it out).  Returns False as :func:`card_scores`.
    """
    most = view[V.MAX_BID]
    aim = min(max(expected_bid(view, DEFAULT_RISK), 0), most)
    counts = np.zeros((most + 1, view[V.HAND_SIZE] + 1), dtype=np.float64)
    return bid_points(view, out.shape[0], rng, 0.0, aim, counts, out) >= 0
