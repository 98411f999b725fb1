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

from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.strategy import Strategy
from ohhell_sim.strategy_tools import (
    lowest_card,
    popcount,
    suit_mask,
)
from strategies._common import greedy_card, legal_bid_near, spare_cards

ACE = 12
KING = 11
QUEEN = 10


@njit
def likely_tricks(hand, trump):
    """Count the likely winners in ``hand`` (see the module docstring)."""
    count = 0.0
    n_trumps = popcount(hand & suit_mask(trump)) if trump >= 0 else 0
    m = hand
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if card == JOKER:
            count += 1.0
            continue
        suit = card // 13
        rank = card % 13
        if suit == trump:
            if rank >= KING or (rank == QUEEN and n_trumps >= 3):
                count += 1.0
        elif rank == ACE:
            count += 1.0
        elif rank == KING and popcount(hand & suit_mask(suit)) >= 2:
            count += 1.0
    if n_trumps > 3:
        count += n_trumps - 3
    return count


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
)
