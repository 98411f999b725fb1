"""``mc_bidder``: Monte Carlo bidder; bids the legal bid of highest expected score.

To bid, it deals the cards it cannot see at random, ``samples`` times,
consistently with what it knows (its hand, the turned-up card, the cards it
passed in the swap); fills in the bids not yet made with ``simple``'s count on
the sampled hands (the dealer respecting the hook); and plays every sample out
with a fast policy (``simple``'s greedy play in every seat, its own seat aiming
at the candidate bid).  The trick counts it reaches give, for each candidate
bid ``b``, a distribution P(k tricks | bid b), and it bids the legal ``b`` that
maximises the expected points sum_k P(k | b) * points(b, k) under the active
scoring tables (:func:`ohhell_sim.strategy.tools.points`), so it bids higher
under ``made="10*bid"`` than under ``"10+bid"``.  The candidates are the bids
within one of the trick counts reached when aiming at ``expected_tricks``'s
bid, and zero; the same samples serve every candidate (common random numbers),
and on each sample the playouts of all bids are played as one, forking only
where the bids make a play differ (:func:`ohhell_sim.strategies._playout.play_out_bids`),
and ending once every bid but the aimed-at one is surely missed (under scoring
tables that give every miss the same points).
This is the determinized ("perfect information") Monte Carlo evaluation of
Ginsberg's GIB for bridge bidding and play, applied to the bid alone.  In a
forehead deal the bid is exact (:func:`ohhell_sim.strategies._common.forehead_bid`).

It plays like ``card_counter`` (:mod:`ohhell_sim.strategies._counting`).  Any other play
policy pairs with it: a strategy may bid with :func:`mc_bid` (``pimc`` does) and
play as it likes.

Only one deck is sampled: the record declares ``decks=2`` unsupported, so a
seating with it is refused for two decks; should the kernel meet two decks
anyway, the bid falls back to ``expected_tricks``'s.

Parameters: ``samples`` = 64 (deals sampled per bid; 0 falls back to
``expected_tricks``).  Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategies._common import (
    best_bid_by_row,
    forehead_bid,
    is_forehead_bid,
    legal_bid_near,
)
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategies._move_scores import bid_points, candidate_bids
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid
from ohhell_sim.strategy.record import Strategy

#: The sampler deals hidden cards from one deck (a hand is one mask).
ONE_DECK_ONLY = {"decks": (2,)}


@njit
def mc_bid(view, samples, rng, eps=0.0, deals=None):
    """The Monte Carlo bid of the module docstring (callable by any strategy).

    ``samples`` deals are sampled; with none, or a view the sampler does not
    support, the bid is ``expected_tricks``'s.  With ``eps`` > 0 the sampling is
    sequential (:mod:`ohhell_sim.strategies._sequential`): ``samples`` is the most it
    draws, and it stops once no candidate bid could beat the leading one by
    more than ``eps`` points in expectation.  A caller may deal the samples
    its own way: row ``j`` of ``deals`` (every seat's hand) is then sample
    ``j``, in place of a draw of :func:`ohhell_sim.strategies.sampler.draw_sample`
    (``guided_pimc`` passes deals read from the bids made).
    """
    if is_forehead_bid(view):
        return forehead_bid(view)
    most = view[V.MAX_BID]
    if most == 0:
        return 0
    if samples < 1 or view[V.RULES_BASE + R_DECKS] != 1:
        return expected_bid(view, DEFAULT_RISK)
    h = view[V.HAND_SIZE]
    # The counts aiming at expected_tricks's bid bound the candidates.
    aim = min(max(expected_bid(view, DEFAULT_RISK), 0), most)
    counts = np.zeros((most + 1, h + 1), dtype=np.float64)
    # Sequential sampling reads the points of every bid on every sample.
    scores = np.empty((samples if eps > 0.0 else 0, most + 1), dtype=np.float64)
    used = bid_points(view, samples, rng, eps, aim, counts, scores, deals)
    if used < 0:
        return expected_bid(view, DEFAULT_RISK)
    best = best_bid_by_row(view, counts / used, candidate_bids(counts, aim))
    if best < 0:
        return legal_bid_near(view, aim, False)
    return best


@njit
def bid(view, params, rng):
    """Thin entry: the Monte Carlo bid with ``samples`` = ``params[0]``."""
    return mc_bid(view, np.int64(params[0]), rng)


@njit
def play(view, params, rng):
    """Play like ``card_counter``."""
    return counting_play(view, False)


STRATEGY = Strategy(
    name="mc_bidder",
    bid=bid,
    play=play,
    params={"samples": 64.0},
    param_bounds={"samples": (0, None)},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=ONE_DECK_ONLY,
    builtin_id=6,
    colour="#8C564B",
    reads_scoring=True,
    quick_params={"samples": 6.0},
)
