"""``adaptive_pimc``: ``pimc``'s search, with its samples spent where the choice is close.

It bids and plays as ``pimc`` does (deals sampled consistently with the play
so far, every candidate played out on the same deals with ``simple``'s greedy
policy in every seat, the candidate of best average score chosen), but samples
sequentially (:mod:`ohhell_sim.strategies._sequential`): in batches of eight, testing
from the sixteenth sample on, it stops once no candidate could beat the
leading one by more than a few hundredths of a point in expectation, and it
stops playing out the cards already far behind.  A clear choice stops at
sixteen samples, a close one draws up to ``samples`` (cards) or
``bid_samples`` (bids).  At the defaults it takes about the time per deal
that ``pimc`` takes at its own on the canonical schedule (more on ten-card
deals, where close choices are common, less on five-card ones) and scores
more against it in duplicate play (the README's "Which built-in is
strongest" has the measurements).

A card choice stops once the expected loss of keeping the leading card is
below ``eps`` points against every other card, each card more than ``drop``
standard errors behind the leader being dropped; a bid once the same holds,
with ``bid_eps``, among ``mc_bidder``'s candidate bids
(:func:`ohhell_sim.strategies.mc_bidder.mc_bid`).  With ``eps`` = ``bid_eps`` = 0 it is
``pimc`` with ``samples`` and ``bid_samples``.  With two decks (declared
unsupported, as for ``pimc``) it falls back to ``card_counter``'s play and
``expected_tricks``'s bid.

Parameters: ``samples`` = 48 (most deals per card choice), ``bid_samples`` =
64 (most per bid), ``eps`` = 0.08, ``bid_eps`` = 0.05 (points), ``drop`` = 1.5
(standard errors).  Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim.strategies.mc_bidder import ONE_DECK_ONLY, mc_bid
from ohhell_sim.strategies.pimc import pimc_card
from ohhell_sim.strategy.record import Strategy


@njit
def bid(view, params, rng):
    """Thin entry: the sequential Monte Carlo bid."""
    return mc_bid(view, np.int64(params[1]), rng, params[3])


@njit
def play(view, params, rng):
    """Thin entry: the sequential Monte Carlo card."""
    return pimc_card(view, np.int64(params[0]), rng, params[2], params[4])


STRATEGY = Strategy(
    name="adaptive_pimc",
    bid=bid,
    play=play,
    params={"samples": 48.0, "bid_samples": 64.0, "eps": 0.08, "bid_eps": 0.05, "drop": 1.5},
    param_bounds={
        "samples": (0, None),
        "bid_samples": (0, None),
        "eps": (0, None),
        "bid_eps": (0, None),
        "drop": (0, None),
    },
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=ONE_DECK_ONLY,
    builtin_id=10,
    colour="#BB5566",
    reads_scoring=True,
    quick_params={"samples": 3.0, "bid_samples": 3.0},
)
