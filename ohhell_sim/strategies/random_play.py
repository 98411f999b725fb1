"""``random``: a uniformly random legal bid and a uniformly random legal card.

The baseline every other strategy should beat; also the engine's speed yardstick,
since it does the least work per decision.
"""

from __future__ import annotations

from numba import njit

from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import random_legal_bid, random_legal_card


@njit
def bid(view, params, rng):
    """Bid uniformly among the legal bids."""
    return random_legal_bid(view, rng)


@njit
def play(view, params, rng):
    """Play uniformly among the legal cards."""
    return random_legal_card(view, rng)


STRATEGY = Strategy(
    name="random",
    bid=bid,
    play=play,
    params={},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    builtin_id=0,
    colour="#999999",
)
