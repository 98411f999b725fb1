"""``card_counter``: card-counting play, with ``expected_tricks`` or ``simple`` bidding.

It plays by what the table has shown: the cards played (so the trumps still
out), and the voids each player revealed by failing to follow.  Short of its bid
it wins as cheaply as possible, preferring a sure winner (no unseen higher card
or trump that a player still to play may hold); it leads high and draws trumps
when it needs many of the tricks left; when its boss trumps (trumps no unseen
card beats) make the bid on their own it ducks with its other cards and keeps
them; at its bid it ducks as high as possible,
discards its most dangerous cards when void, and leads the card most likely to
lose (so it leads low when bidding zero).  These are the play tips of the
French rules page (``001``: "count the trumps played", "lead high and draw
trumps", "lead low and never win a trick by accident") made precise with the
classic card-reading inferences of whist-family games; the details are in
:mod:`ohhell_sim.strategies._counting`.

Parameters: ``bidder`` = 1 (1: ``expected_tricks``'s bid; 0: ``simple``'s count),
``risk`` = -0.2 (the ``expected_tricks`` shift; ``simple``'s count is not shifted).
Deterministic.
"""

from __future__ import annotations

from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategies._common import legal_bid_near
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid
from ohhell_sim.strategies.simple import likely_tricks
from ohhell_sim.strategy.record import Strategy


@njit
def bid(view, params, rng):
    """``expected_tricks``'s bid (``bidder`` = 1) or ``simple``'s count (0)."""
    if params[0] != 0.0:
        return expected_bid(view, params[1])
    estimate = likely_tricks(view[V.HAND], view[V.TRUMP])
    b = int(estimate + 0.5)
    return legal_bid_near(view, b, False)


@njit
def play(view, params, rng):
    """The card-counting play of :mod:`ohhell_sim.strategies._counting`."""
    return counting_play(view, False)


STRATEGY = Strategy(
    name="card_counter",
    bid=bid,
    play=play,
    params={"bidder": 1.0, "risk": DEFAULT_RISK},
    param_bounds={"bidder": (0, 1)},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=False,
    builtin_id=4,
    colour="#56B4E9",
)
