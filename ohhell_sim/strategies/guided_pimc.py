"""``guided_pimc``: ``adaptive_pimc``'s search, guided by ``distilled``'s networks.

It bids and plays as ``adaptive_pimc`` does (deals sampled consistently with
what it knows, every candidate played out on the same deals with ``simple``'s
greedy policy in every seat, sampling stopped once the choice is settled), with
two uses of the networks that ``distilled`` learned from the search:

* **Deals read from the bids.**  An opponent's bid says what it holds.  Every
  opponent whose bid is still in play (its bid less the tricks it has won, its
  *need*, between 0 and the tricks left, two tricks or more left) is read as if
  it had just bid its need on the cards it holds: ``distilled``'s bid network
  gives the law of the tricks such a hand takes on such a bid, and the chance
  it gives to exactly the need (at least 0.01) is that opponent's likelihood.
  A deal's weight is the product of these likelihoods to the power
  ``sharpness``.  Each sample is then one of ``oversample`` (cards) or
  ``bid_oversample`` (bids) deals drawn as ``adaptive_pimc`` draws them, kept
  with a chance proportional to its weight (sampling-importance-resampling):
  the samples come near the deals the bids make likely, and each counts the
  same.  To bid, it reads the bids made before its own, on the dealt hands.
* **Candidates cut by the card network.**  ``distilled``'s card network values
  every legal card (its expected points under the active scoring tables); of
  three or more candidates, the cards more than ``cut`` points below the best
  of them are not searched, so that the samples go to the others.

With ``oversample`` = ``bid_oversample`` = 1 (or ``sharpness`` = 0) and
``cut`` = 0 it plays as ``adaptive_pimc``.  Reading a deal costs a network
evaluation per opponent read, many playouts' worth: at the defaults it takes
about 3.5 times ``adaptive_pimc``'s time per deal, with ``bid_oversample`` = 1
about its time (the docs' strategy page has the measurements).  With two decks (declared
unsupported) it falls back to ``card_counter``'s play and ``expected_tricks``'s
bid.

Parameters: ``samples`` = 48, ``bid_samples`` = 64, ``eps`` = 0.08,
``bid_eps`` = 0.05, ``drop`` = 1.5 (as ``adaptive_pimc``), ``sharpness`` = 1,
``oversample`` = 1, ``bid_oversample`` = 8, ``cut`` = 3 (points; 0: no cut).
Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.rng import uniform
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategies import adaptive_pimc
from ohhell_sim.strategies._common import is_forehead_bid
from ohhell_sim.strategies._counting import counting_play, left_to_counting
from ohhell_sim.strategies._distilled_features import (
    N_BID_MOVE,
    N_BID_STATE,
    N_OUTCOMES,
    bid_move,
    bid_state,
)
from ohhell_sim.strategies._playout import (
    deal_after,
    estimate_bids,
    play_out_settled,
    settle_flags,
    trick_after,
)
from ohhell_sim.strategies._sequential import choice_is_open, time_to_test
from ohhell_sim.strategies.distilled import (
    BID_BIAS,
    BID_EMBED,
    BID_MOVE,
    BID_OUT,
    BID_OUT_BIAS,
    BID_STATE,
    hidden_base,
    network_values,
    outcome_probabilities,
)
from ohhell_sim.strategies.mc_bidder import ONE_DECK_ONLY, mc_bid
from ohhell_sim.strategies.pimc import best_average_card, candidate_cards
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import points

# --- the bids read on a sampled deal --------------------------------------------

#: The least likelihood an opponent's need gives a deal.
LIKELIHOOD_FLOOR = 0.01


@njit
def reading_views(view):
    """One view per opponent whose need can be read, as if it now bid its need.

    Returns ``(seats, views)``: the seats read (the opponents whose need lies
    between 0 and the tricks left, when more than one trick is left) and a view
    per seat: that seat to bid, its need as its bid and every seat's need as
    theirs, the tricks left as the hand size.  Only the hand is left to fill
    (:func:`need_likelihood`).
    """
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    left = view[V.HAND_SIZE] - view[V.TRICK]
    seats = np.empty(n, dtype=np.int64)
    count = 0
    if left >= 2:
        for s in range(n):
            need = view[V.BIDS_BASE + s] - view[V.TRICKS_WON_BASE + s]
            if s != me and (active >> s) & 1 and view[V.BIDS_BASE + s] >= 0 and 0 <= need <= left:
                seats[count] = s
                count += 1
    views = np.empty((count, view.shape[0]), dtype=view.dtype)
    for k in range(count):
        row = views[k]
        row[:] = view
        row[V.SEAT] = seats[k]
        row[V.PHASE] = V.PHASE_BID
        row[V.HAND_SIZE] = left
        row[V.MAX_BID] = left
        for s in range(n):
            if view[V.BIDS_BASE + s] >= 0:
                row[V.BIDS_BASE + s] = max(view[V.BIDS_BASE + s] - view[V.TRICKS_WON_BASE + s], 0)
    return seats[:count], views


@njit
def need_likelihood(row, hand, scratch, probs):
    """The bid network's chance that ``hand`` takes exactly the bid of ``row`` (a reading view).

    ``scratch`` holds the network's inputs and hidden layer; ``probs`` its outcomes.
    """
    hidden_size = BID_BIAS.shape[0]
    x = scratch[:N_BID_STATE]
    xm = scratch[N_BID_STATE : N_BID_STATE + N_BID_MOVE]
    base = scratch[N_BID_STATE + N_BID_MOVE : N_BID_STATE + N_BID_MOVE + hidden_size]
    hidden = scratch[N_BID_STATE + N_BID_MOVE + hidden_size :]
    row[V.HAND] = hand
    need = row[V.BIDS_BASE + row[V.SEAT]]
    top = min(row[V.HAND_SIZE], N_OUTCOMES - 1)
    if need > top:
        return 1.0
    estimate = bid_state(row, x)
    hidden_base(BID_STATE, BID_BIAS, x, base)
    bid_move(row, need, estimate, xm)
    index = min(need, BID_EMBED.shape[0] - 1)
    outcome_probabilities(
        base, BID_MOVE, BID_EMBED, index, BID_OUT, BID_OUT_BIAS, xm, top, hidden, probs
    )
    return probs[need]


@njit
def deal_weight(view, seats, views, hands, sharpness, scratch, probs):
    """A sampled deal's weight: the product of the read needs' likelihoods, to ``sharpness``."""
    weight = 1.0
    for k in range(seats.shape[0]):
        s = seats[k]
        hand = hands[s]
        if view[V.TRICK_CARDS_BASE + s] >= 0:
            hand |= np.int64(1) << view[V.TRICK_CARDS_BASE + s]
        # A floor: a need the network deems all but impossible still leaves the
        # deal some weight, against the network's errors and other opponents.
        weight *= max(need_likelihood(views[k], hand, scratch, probs), LIKELIHOOD_FLOOR)
    return weight**sharpness


# --- the card network's values ------------------------------------------------


@njit
def cut_candidates(view, cards, cut):
    """``cards`` less those the card network puts more than ``cut`` points below its best."""
    if cut <= 0.0 or cards.shape[0] <= 2:
        return cards
    values = network_values(view, cards)
    best = values.max()
    keep = values >= best - cut
    return cards[keep]


# --- the card and the bid --------------------------------------------------------


@njit
def draw_read(plan, pool, rng, hands, reading):
    """Deal a sample as :func:`ohhell_sim.strategies.sampler.draw_sample` does, read from the bids.

    ``reading`` is :func:`make_reading`'s.  Of its ``oversample`` deals, one
    is kept with a chance proportional to its weight (:func:`deal_weight`):
    sampling-importance-resampling, so that the samples come near the deals
    the bids make likely and every sample counts the same.
    """
    view, seats, views, sharpness, deals, cumulative, scratch, probs = reading
    total = 0.0
    for c in range(deals.shape[0]):
        if not draw_sample(plan, pool, rng, deals[c]):
            return False
        total += deal_weight(view, seats, views, deals[c], sharpness, scratch, probs)
        cumulative[c] = total
    pick = uniform(rng) * total
    c = 0
    while c < deals.shape[0] - 1 and cumulative[c] <= pick:
        c += 1
    hands[:] = deals[c]
    return True


@njit
def make_reading(view, sharpness, oversample):
    """What :func:`draw_read` needs for the view, and whether there is a bid to read."""
    seats, views = reading_views(view)
    deals = np.zeros((max(oversample, 1), V.MAX_SEATS), dtype=np.int64)
    scratch = np.empty(N_BID_STATE + N_BID_MOVE + 2 * BID_BIAS.shape[0], dtype=BID_BIAS.dtype)
    probs = np.empty(N_OUTCOMES, dtype=BID_BIAS.dtype)
    reading = (view, seats, views, sharpness, deals, np.empty(deals.shape[0]), scratch, probs)
    return reading, seats.shape[0] > 0 and oversample > 1 and sharpness > 0.0


@njit
def guided_card(view, samples, rng, eps, drop, sharpness, oversample, cut):
    """The card of best average playout score over deals read from the bids (module docstring)."""
    if left_to_counting(view) or samples < 1:
        return counting_play(view, False)
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    cards = cut_candidates(view, candidate_cards(view), cut)
    n_choices = cards.shape[0]
    if n_choices == 1:
        return cards[0]
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return counting_play(view, False)
    reading, read = make_reading(view, sharpness, oversample)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    tricks_left = view[V.HAND_SIZE] - view[V.TRICK]
    my_bid = view[V.BIDS_BASE + me]
    after = [trick_after(view, cards[i]) for i in range(n_choices)]
    score = np.empty(view[V.HAND_SIZE] + 1, dtype=np.float64)
    for k in range(score.shape[0]):
        score[k] = points(view, my_bid, k)
    settle = settle_flags(view)
    hidden_bids = False
    for s in range(n):
        bids[s] = view[V.BIDS_BASE + s]
        hidden_bids |= (active >> s) & 1 != 0 and bids[s] < 0
    scores = np.empty((samples, n_choices), dtype=np.float64)
    totals = np.zeros(n_choices, dtype=np.float64)
    alive = np.ones(n_choices, dtype=np.bool_)
    for j in range(samples):
        if time_to_test(j, eps) and not choice_is_open(scores, j, totals, alive, eps, drop):
            break
        dealt = (
            draw_read(plan, pool, rng, hands, reading)
            if read
            else draw_sample(plan, pool, rng, hands)
        )
        if not dealt:
            return counting_play(view, False)
        if hidden_bids:
            for s in range(n):
                bids[s] = view[V.BIDS_BASE + s]
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
        for i in range(n_choices):
            if not alive[i]:
                continue
            deal = deal_after(view, hands, cards[i], work, won)
            play_out_settled(deal, bids, after[i], tricks_left, me, settle)
            scores[j, i] = score[won[me]]
            totals[i] += score[won[me]]
    for i in range(n_choices):
        if not alive[i]:
            totals[i] = -np.inf
    return best_average_card(view, cards, totals)


@njit
def guided_bid(view, samples, rng, eps, sharpness, oversample):
    """``adaptive_pimc``'s bid, on deals read from the bids made before (module docstring)."""
    reading, read = make_reading(view, sharpness, oversample)
    if not read or samples < 1 or view[V.RULES_BASE + R_DECKS] != 1 or is_forehead_bid(view):
        return mc_bid(view, samples, rng, eps)
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return mc_bid(view, samples, rng, eps)
    deals = np.zeros((samples, V.MAX_SEATS), dtype=np.int64)
    for j in range(samples):
        if not draw_read(plan, pool, rng, deals[j], reading):
            return mc_bid(view, samples, rng, eps)
    return mc_bid(view, samples, rng, eps, deals)


@njit
def bid(view, params, rng):
    """Thin entry: the sequential Monte Carlo bid on deals read from the bids."""
    return guided_bid(view, np.int64(params[1]), rng, params[3], params[5], np.int64(params[7]))


@njit
def play(view, params, rng):
    """Thin entry: the guided sequential Monte Carlo card."""
    return guided_card(
        view,
        np.int64(params[0]),
        rng,
        params[2],
        params[4],
        params[5],
        np.int64(params[6]),
        params[8],
    )


STRATEGY = Strategy(
    name="guided_pimc",
    bid=bid,
    play=play,
    # adaptive_pimc's parameters first, in its order (the play reads them by index).
    params={
        **adaptive_pimc.STRATEGY.params,
        "sharpness": 1.0,
        "oversample": 1.0,
        "bid_oversample": 8.0,
        "cut": 3.0,
    },
    param_bounds={
        **adaptive_pimc.STRATEGY.param_bounds,
        "sharpness": (0, None),
        "oversample": (1, None),
        "bid_oversample": (1, None),
        "cut": (0, None),
    },
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=ONE_DECK_ONLY,
    builtin_id=12,
    colour="#44AA99",
    reads_scoring=True,
    quick_params=adaptive_pimc.STRATEGY.quick_params,
)
