"""``sure_tricks``: the bidding tips of the French rules page (``001``), taken literally.

"Count sure winners, not hoped-for ones": a side-suit ace is a trick, the ace
and king of trumps are tricks (the joker too), and a side king counts
``king_value`` (half a trick by default) when the suit also holds the ace or the
queen ("a king is good if you hold strong cards in the same suit"); nothing
else counts ("an 8-9-10 of a side suit is rarely a trick").  "Small hands bet
everything on 0 or 1": with at most ``small_hand`` cards the bid is 0 or 1, and
in the one-card deal it is 1 exactly when the card's strength (its rank 0-12,
plus 13 for a trump, 26 for the joker) reaches ``one_card_threshold``: a 2-6
bids 0 and an ace bids 1, as the page says, and the threshold decides the cards
between (by default any trump or an ace).  As dealer, when the hook forbids the
count, it moves one away, toward the side its unrounded count lies on, and up
on an exact count, since a count of sure winners errs low.  No bid goes below
its boss trumps (the trumps no unseen card beats: each is a trick wherever it
is played), the small-hand cap included.  In a forehead deal
it bids from the cards it sees (:func:`ohhell_sim.strategies._common.forehead_bid`).

Play is ``card_counter``'s card-counting play (:mod:`ohhell_sim.strategies._counting`),
which also follows the page's play tips.

Parameters: ``king_value`` = 0.5, ``one_card_threshold`` = 12, ``small_hand`` = 3.
Deterministic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.strategies._common import (
    ACE,
    KING,
    QUEEN,
    forehead_bid,
    is_forehead_bid,
    legal_bid_near,
)
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import lowest_card


@njit
def _count_mask(mask, hand, trump, king_value):
    count = 0.0
    m = mask
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if card == JOKER:
            count += 1.0
            continue
        suit = card // 13
        rank = card % 13
        if suit == trump:
            if rank >= KING:
                count += 1.0
        elif rank == ACE:
            count += 1.0
        elif rank == KING:
            base = 13 * suit
            if (hand >> (base + ACE)) & 1 or (hand >> (base + QUEEN)) & 1:
                count += king_value
    return count


@njit
def sure_count(hand, hand2, trump, king_value):
    """Sure winners in a hand (``hand2``: second copies, two decks)."""
    return _count_mask(hand, hand, trump, king_value) + _count_mask(hand2, hand, trump, king_value)


@njit
def one_card_strength(card, trump):
    """Rank 0-12, plus 13 for a trump; 26 for the joker."""
    if card == JOKER:
        return 26
    return card % 13 + (13 if card // 13 == trump else 0)


@njit
def bid(view, params, rng):
    """Bid the count of sure winners (see the module docstring)."""
    if is_forehead_bid(view):
        return forehead_bid(view)
    hand = view[V.HAND]
    trump = view[V.TRUMP]
    hand_size = view[V.HAND_SIZE]
    if hand_size == 1:
        strong = one_card_strength(lowest_card(hand), trump) >= params[1]
        estimate = 1.0 if strong else 0.0
    else:
        estimate = sure_count(hand, view[V.HAND2], trump, params[0])
    if hand_size <= params[2]:
        estimate = min(estimate, 1.0)
    b = int(np.floor(estimate + 0.5))
    return legal_bid_near(view, b, estimate >= b)


@njit
def play(view, params, rng):
    """The card-counting play of :mod:`ohhell_sim.strategies._counting`."""
    return counting_play(view, False)


STRATEGY = Strategy(
    name="sure_tricks",
    bid=bid,
    play=play,
    params={"king_value": 0.5, "one_card_threshold": 12.0, "small_hand": 3.0},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=False,
    builtin_id=2,
    colour="#E69F00",
)
