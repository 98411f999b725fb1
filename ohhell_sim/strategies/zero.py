"""``zero``: the zero specialist; bids nothing whenever its hand allows and ducks everything.

A made zero scores like any made bid (10 points under the canonical table), and
the French rules page (``001``) calls zero "often the safest bid": lead low,
play your weakest card, never take a trick by accident.  This strategy bids 0
whenever its expected trick count (``expected_tricks``'s table) is at most
``threshold`` and it holds no boss trump (a trump no unseen card beats, such
as the king under a turned-up ace: a sure trick), otherwise it falls back to
``expected_tricks``'s bid; as dealer forbidden to bid 0 it takes that
fallback.  In play it is ``card_counter``: at its bid (so from the first
trick when it bid 0) it ducks with its highest losing card, discards its most
dangerous cards when void, leads the card most likely to lose, and when
forced to win as last player it sheds its highest card.  In the swap variant
it passes its strongest cards.

Parameters: ``threshold`` = 0.9 (largest expected count still bid as zero;
0.9 scored best of 0.5-1.1 in duplicate tournaments against ``card_counter``),
``risk`` = -0.2 (the fallback's ``expected_tricks`` shift).  Deterministic.
"""

from __future__ import annotations

from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategies._common import forehead_bid, is_forehead_bid, sure_trump_tricks
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid, expected_tricks
from ohhell_sim.strategy.record import Strategy


@njit
def bid(view, params, rng):
    """Zero when the expected count is at most ``threshold`` (0 legal, no boss trump)."""
    if is_forehead_bid(view):
        return forehead_bid(view)
    if (
        view[V.FORBIDDEN_BID] != 0
        and expected_tricks(view) <= params[0]
        and sure_trump_tricks(view) == 0
    ):
        return 0
    return expected_bid(view, params[1])


@njit
def play(view, params, rng):
    """Card-counting play; passes its strongest cards in the swap."""
    return counting_play(view, True)


STRATEGY = Strategy(
    name="zero",
    bid=bid,
    play=play,
    params={"threshold": 0.9, "risk": DEFAULT_RISK},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=False,
    builtin_id=5,
    colour="#009E73",
)
