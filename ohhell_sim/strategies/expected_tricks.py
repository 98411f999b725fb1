"""``expected_tricks``: bid the sum of each card's chance of taking a trick.

Every card of the hand contributes its probability of taking a trick, read from
a table indexed by players at the table (3-7), hand size, the card's kind (side
suit or trump of a trump deal, any suit of a no-trump deal) and rank.  The table
(``ohhell_sim/strategies/tables/trick_tables.npy``) is made by simulation with
``python -m ohhell_sim.strategies.tables.make_trick_tables``: random deals played out with
``simple``'s bids and play in every seat, counting the tricks each (kind, rank)
took.  It turns the 001 tip "count sure winners, not hoped-for ones" into
numbers for every card, not only aces and kings; the idea of summing per-card
trick probabilities is the usual "quick tricks" hand evaluation of trick-taking
games.  The sum is shifted by ``risk`` and rounded, and never below the boss trumps
held (trumps no unseen card beats, each a sure trick); as dealer it steps off
a forbidden bid toward the side the unrounded sum lies on, up when down would
go below the boss trumps.  The joker counts as a
sure trick; more than 7 seats (two decks) read the 7-player table, and hands
larger than the table's read its largest hand.

Play is ``card_counter``'s card-counting play (:mod:`ohhell_sim.strategies._counting`).

Parameters: ``risk`` = -0.2 (added to the expected count before rounding;
positive bids higher; -0.2 scored best, by about 2.5 points a game over 0, in
duplicate tournaments against ``card_counter`` seats at the canonical rules).
Deterministic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.strategies._common import forehead_bid, is_forehead_bid, legal_bid_near
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategies.tables import TABLES_DIR
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import lowest_card

#: P(card takes a trick) by [players - 3, hand size - 1, kind, rank]; numba
#: freezes this global into the compiled code.
TRICK_TABLE = np.load(TABLES_DIR / "trick_tables.npy").astype(np.float64)
_MIN_PLAYERS = 3
_MAX_PLAYERS = _MIN_PLAYERS + TRICK_TABLE.shape[0] - 1
_MAX_HAND = TRICK_TABLE.shape[1]
KIND_SIDE, KIND_TRUMP, KIND_NO_TRUMP = 0, 1, 2
#: Default ``risk``, shared by the strategies that bid with :func:`expected_bid`.
DEFAULT_RISK = -0.2


@njit
def card_probability(card, trump, hand_size, players):
    """P(``card`` takes a trick) in a deal of ``hand_size`` cards at ``players`` seats."""
    if card == JOKER:
        return 1.0
    p = min(max(players, _MIN_PLAYERS), _MAX_PLAYERS) - _MIN_PLAYERS
    h = min(max(hand_size, 1), _MAX_HAND) - 1
    if trump < 0:
        kind = KIND_NO_TRUMP
    elif card // 13 == trump:
        kind = KIND_TRUMP
    else:
        kind = KIND_SIDE
    return TRICK_TABLE[p, h, kind, card % 13]


@njit
def _mask_sum(mask, trump, hand_size, players):
    total = 0.0
    m = mask
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        total += card_probability(card, trump, hand_size, players)
    return total


@njit
def expected_tricks(view):
    """Expected tricks of the seated player's hand (both copies count with two decks)."""
    trump = view[V.TRUMP]
    h = view[V.HAND_SIZE]
    p = view[V.N_ACTIVE]
    return _mask_sum(view[V.HAND], trump, h, p) + _mask_sum(view[V.HAND2], trump, h, p)


@njit
def expected_bid(view, risk):
    """The rounded expected count shifted by ``risk``, legal (reusable by other strategies)."""
    if is_forehead_bid(view):
        return forehead_bid(view)
    estimate = expected_tricks(view) + risk
    b = int(np.floor(estimate + 0.5))
    return legal_bid_near(view, b, estimate > b)


@njit
def bid(view, params, rng):
    """Bid the rounded sum of the cards' trick probabilities plus ``risk``."""
    return expected_bid(view, params[0])


@njit
def play(view, params, rng):
    """Play like ``card_counter``."""
    return counting_play(view, False)


STRATEGY = Strategy(
    name="expected_tricks",
    bid=bid,
    play=play,
    params={"risk": DEFAULT_RISK},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=False,
    builtin_id=3,
    colour="#CC79A7",
)
