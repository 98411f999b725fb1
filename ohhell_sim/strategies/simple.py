"""``simple``: count likely winners to bid, then play to make the bid exactly.

Bidding follows the counting tips of the French rules page (``001``): a side-suit
ace is almost always a trick, the ace and king of trumps are tricks (so is the
joker), the queen of trumps is one with two more trumps beside it, a king is good
with support (at least one other card of its suit), and every trump beyond the
third is a trick by length.  The count is scaled by the ``scale`` parameter and rounded.  As dealer,
when the hook forbids the count, it moves one away (down when it can); it never
bids below its boss trumps (trumps no unseen card beats, the ace of trumps
first: each takes a trick wherever it is played, so a lower bid is a sure miss).

Play: while short of its bid it tries to win (lead its strongest card; follow with
the cheapest card that takes the trick, else throw its weakest), except that,
following, when its boss trumps alone make the bid it loses the trick with
another card and keeps them (duck now, win later).  Once the bid is
made it tries to lose (lead its weakest card; duck with the highest card that still
loses, so dangerous high cards leave the hand while they are safe; when every legal
card wins, take the trick with the highest one).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import RANK_IN_EVERY_SUIT
from ohhell_sim.engine.core import JOKER_BIT
from ohhell_sim.strategies._common import greedy_card, legal_bid_near, spare_cards
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import (
    popcount,
    suit_mask,
)

ACE = 12
KING = 11
QUEEN = 10


#: One card of each suit at the rank of the ace, the king, the queen.
_ACES = RANK_IN_EVERY_SUIT << ACE
_KINGS = RANK_IN_EVERY_SUIT << KING
_QUEENS = RANK_IN_EVERY_SUIT << QUEEN


@njit
def likely_tricks(hand, trump):
    """Count the likely winners in ``hand`` (see the module docstring)."""
    # Counted by masks, a suit at a time: a loop over the cards branches on
    # each card, and the sampling strategies count three hands per sample.
    trumps = suit_mask(trump) if trump >= 0 else np.int64(0)
    n_trumps = popcount(hand & trumps)
    high = _ACES | _KINGS | (_QUEENS if n_trumps >= 3 else np.int64(0))
    count = popcount(hand & JOKER_BIT) + popcount(hand & trumps & high)
    side = hand & ~trumps & ~JOKER_BIT
    count += popcount(side & _ACES)
    for suit in range(4):
        cards = side & suit_mask(suit)
        # A king with support: another card of its suit beside it.
        if cards & _KINGS != 0 and cards & (cards - 1) != 0:
            count += 1
    if n_trumps > 3:
        count += n_trumps - 3
    return float(count)


@njit
def bid(view, params, rng):
    """Bid the scaled count of likely winners, stepping off a forbidden bid."""
    estimate = int(likely_tricks(view[V.HAND], view[V.TRUMP]) * params[0] + 0.5)
    return legal_bid_near(view, estimate, False)


@njit
def play(view, params, rng):
    """Win while short of the bid (unless the bosses make it), lose once it is made."""
    legal = view[V.LEGAL]
    spare = spare_cards(view, legal)
    if spare != 0:
        # The boss trumps make the bid on their own: lose with the other cards.
        legal = spare
    seat = view[V.SEAT]
    wants = spare == 0 and view[V.TRICKS_WON_BASE + seat] < view[V.BIDS_BASE + seat]
    return greedy_card(
        legal,
        view[V.LED_SUIT],
        view[V.TRUMP],
        view[V.N_IN_TRICK],
        view[V.WINNING_CARD],
        wants,
    )


STRATEGY = Strategy(
    name="simple",
    bid=bid,
    play=play,
    params={"scale": 1.0},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=False,
    builtin_id=1,
    colour="#0072B2",
)
