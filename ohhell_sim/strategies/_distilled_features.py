"""What ``distilled`` reads off the view: the inputs of its two networks.

Both networks (:mod:`ohhell_sim.strategies.distilled`) take a vector of the decision's
state and a vector of the move tried (a bid, or a card).  The functions here
fill them from the view alone, so that the trainer
(:mod:`ohhell_sim.training.distilled`) and the player compute the same inputs
by the same code.  Each entry is scaled to about 0..1.

Only what a seated player may know enters: the hand, the trump, the bids, the
tricks won, the cards seen and the voids shown.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.core import beats, led_suit_of, next_seat
from ohhell_sim.strategies._common import (
    ACE,
    KING,
    QUEEN,
    beaters,
    trump_mask,
    unseen_mask,
)
from ohhell_sim.strategies.expected_tricks import card_probability
from ohhell_sim.strategies.simple import likely_tricks
from ohhell_sim.strategy.tools import (
    card_power,
    highest_by_power,
    highest_card,
    lowest_by_power,
    lowest_card,
    popcount,
    suit_mask,
)

#: Entries of the bid state vector, of the features of one bid, of the card
#: state vector and of the features of one card.
N_BID_STATE = 28
N_BID_MOVE = 4
N_CARD_STATE = 34
N_CARD_MOVE = 25
JACK = 9
TEN = 8
#: Aces and kings of every suit.
_HIGH = np.int64(sum((1 << (13 * suit + ACE)) | (1 << (13 * suit + KING)) for suit in range(4)))
#: The cards of rank nine and below of every suit.
_LOW = np.int64(sum(((1 << 8) - 1) << (13 * suit) for suit in range(4)))
#: Outcomes the networks give a distribution over: 0..10 tricks.
N_OUTCOMES = 11


@njit
def expected_tricks_of(view):
    """Sum of ``expected_tricks``'s per-card probabilities for the hand."""
    total = 0.0
    m = view[V.HAND]
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        total += card_probability(card, view[V.TRUMP], view[V.HAND_SIZE], view[V.N_ACTIVE])
    return total


@njit
def _bids_before(view):
    # (bids made before ours, their total): bidding goes clockwise from the dealer's left.
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    seat = next_seat(view[V.DEALER], active, n)
    made = 0
    total = 0
    while seat != view[V.SEAT]:
        b = view[V.BIDS_BASE + seat]
        if b >= 0:
            made += 1
            total += b
        seat = next_seat(seat, active, n)
    return made, total


@njit
def bid_state(view, out):
    """Fill ``out`` (:data:`N_BID_STATE` entries) with the state of a bid decision."""
    h = view[V.HAND_SIZE]
    players = view[V.N_ACTIVE]
    trump = view[V.TRUMP]
    hand = view[V.HAND]
    made, total = _bids_before(view)
    out[:] = 0.0
    out[0] = h / 10.0
    out[1] = players / 7.0
    out[2] = made / max(players - 1, 1)
    out[3] = 1.0 if view[V.SEAT] == view[V.DEALER] else 0.0
    out[4] = 1.0 if made == 0 else 0.0
    out[5] = total / h
    out[6] = total / h - made / players
    out[7] = 1.0 if trump < 0 else 0.0
    out[8] = 1.0 if view[V.HOOK] != 0 else 0.0
    out[9] = 1.0 if h == 1 else 0.0
    trumps = hand & trump_mask(trump)
    n_trumps = popcount(trumps)
    out[10] = n_trumps / h
    if trump >= 0:
        base = 13 * trump
        out[11] = (hand >> (base + ACE)) & 1
        out[12] = (hand >> (base + KING)) & 1
        out[13] = (hand >> (base + QUEEN)) & 1
        out[14] = (hand >> (base + JACK)) & 1
        out[15] = (hand >> (base + TEN)) & 1
        out[16] = popcount(trumps & ((np.int64(1) << (base + TEN)) - 1)) / 4.0
    out[17] = (hand >> JOKER) & 1
    longest = 0
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand & suit_mask(suit)
        length = popcount(cards)
        longest = max(longest, length)
        base = 13 * suit
        out[18] += ((cards >> (base + ACE)) & 1) / 3.0
        out[19] += ((cards >> (base + KING)) & 1) / 3.0
        out[20] += ((cards >> (base + QUEEN)) & 1) / 3.0
        if (cards >> (base + KING)) & 1 and length >= 2:
            out[21] += 1.0 / 3.0
        if length == 0:
            out[22] += 1.0 / 3.0
        elif length == 1:
            out[23] += 1.0 / 3.0
    out[24] = longest / h
    estimate = expected_tricks_of(view)
    out[25] = estimate / h
    out[26] = (likely_tricks(hand, trump) if trump >= 0 else likely_tricks(hand, -1)) / h
    out[27] = (players - 1 - made) / max(players - 1, 1)
    return estimate


@njit(inline="always")
def bid_move(view, bid, estimate, out):
    """Fill ``out`` (:data:`N_BID_MOVE` entries) with the features of bidding ``bid``."""
    h = view[V.HAND_SIZE]
    out[0] = bid / h
    out[1] = (bid - estimate) / 3.0
    out[2] = out[1] * out[1]
    out[3] = 1.0 if bid == 0 else 0.0


@njit(inline="always")
def _need_of(view, seat):
    return view[V.BIDS_BASE + seat] - view[V.TRICKS_WON_BASE + seat]


@njit(inline="always")
def card_context(view):
    """What every card's features share, derived once per card decision.

    ``(unseen, later, later_void, others_void, later_seats, weakest,
    strongest)``: the cards that may be in another hand, those the players
    still to play this trick may hold (by their voids), the 4-bit masks of the
    suits some player still to play, and some other player, has shown void in,
    per suit ``s`` the count of the players still to play who may follow it
    (bits ``4 s`` up) and of those void in it who may hold a trump (bits
    ``16 + 4 s`` up), and once a suit is led the power of the weakest and the
    strongest legal card (-1 when we lead: it depends on the card led).
    """
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    trump = view[V.TRUMP]
    later = view[V.N_ACTIVE] - view[V.N_IN_TRICK] - 1
    later_void = 0
    all_void = 15  # the suits every player still to play is void in
    others_void = 0
    later_seats = np.int64(0)
    seat = view[V.SEAT]
    for k in range(view[V.N_ACTIVE] - 1):
        seat = next_seat(seat, active, n)
        voids = view[V.VOIDS_BASE + seat]
        others_void |= voids
        if k < later:
            later_void |= voids
            all_void &= voids
            for suit in range(4):
                if (voids >> suit) & 1 == 0:
                    later_seats += np.int64(1) << (4 * suit)
                elif trump >= 0 and (voids >> trump) & 1 == 0:
                    later_seats += np.int64(1) << (16 + 4 * suit)
    # As ohhell_sim.strategies._common.later_may_hold: a card is ruled out when every player
    # still to play has shown void in its suit (the joker, in trump).
    may_hold = np.int64(0)
    if later > 0:
        may_hold = ~np.int64(0)
        for suit in range(4):
            if (all_void >> suit) & 1:
                may_hold &= ~suit_mask(suit)
                if suit == trump:
                    may_hold &= ~(np.int64(1) << JOKER)
    weakest = -1
    strongest = -1
    if view[V.N_IN_TRICK] > 0:
        led = view[V.LED_SUIT]
        legal = view[V.LEGAL]
        weakest = card_power(lowest_by_power(legal, led, trump), led, trump)
        strongest = card_power(highest_by_power(legal, led, trump), led, trump)
    return unseen_mask(view), may_hold, later_void, others_void, later_seats, weakest, strongest


@njit(inline="always")
def card_state(view, context, out):
    """Fill ``out`` (:data:`N_CARD_STATE` entries) with the state of a card decision."""
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    players = view[V.N_ACTIVE]
    me = view[V.SEAT]
    h = view[V.HAND_SIZE]
    left = h - view[V.TRICK]
    j = view[V.N_IN_TRICK]
    trump = view[V.TRUMP]
    need = _need_of(view, me)
    out[:] = 0.0
    out[0] = left / 10.0
    out[1] = need / 10.0
    out[2] = 1.0 if need == 0 else 0.0
    out[3] = 1.0 if need < 0 else 0.0
    out[4] = 1.0 if need > left else 0.0
    out[5] = 1.0 if need == left else 0.0
    out[6] = min(max(need, 0), left) / left
    out[7] = j / max(players - 1, 1)
    out[8] = 1.0 if j == 0 else 0.0
    out[9] = 1.0 if j == players - 1 else 0.0
    out[10] = players / 7.0
    others = 0
    wanting = 0
    full = 0
    seat = next_seat(me, active, n)
    while seat != me:
        other = _need_of(view, seat)
        others += max(other, 0)
        wanting += other > 0
        full += other == 0
        seat = next_seat(seat, active, n)
    out[11] = others / left
    out[12] = (left - max(need, 0) - others) / left
    if j > 0:
        winner_need = _need_of(view, view[V.WINNING_SEAT])
        out[13] = 1.0 if winner_need > 0 else 0.0
        out[14] = 1.0 if winner_need == 0 else 0.0
    seat = me
    for _ in range(players - 1 - j):
        seat = next_seat(seat, active, n)
        if _need_of(view, seat) > 0:
            out[15] += 1.0 / max(players - 1, 1)
    out[16] = 1.0 if trump < 0 else 0.0
    hand = view[V.HAND]
    trumps = trump_mask(trump)
    out[17] = popcount(hand & trumps) / left
    unseen = context[0]
    sure = 0
    m = hand
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if beaters(card, led_suit_of(card, trump), trump) & unseen == 0:
            sure += 1
    out[18] = sure / left
    out[19] = h / 10.0
    out[20] = view[V.TRICKS_WON_BASE + me] / h
    out[21] = 1.0 if _need_of(view, next_seat(me, active, n)) > 0 else 0.0
    out[22] = popcount(unseen & trumps) / 13.0
    out[23] = wanting / max(players - 1, 1)
    out[24] = full / max(players - 1, 1)
    if trump >= 0:
        out[25] = ((context[3] >> trump) & 1) * 1.0
    out[26] = popcount(hand & _HIGH) / left
    # What the next three players still need, in turn (a surplus counts as 0).
    seat = me
    for k in range(min(players - 1, 3)):
        seat = next_seat(seat, active, n)
        out[27 + k] = min(max(_need_of(view, seat), 0), left) / left
    low_safe = 0
    void_with_trumps = 0
    low = 0
    for suit in range(4):
        mine = hand & suit_mask(suit)
        if suit == trump:
            continue
        if mine == 0:
            if trump >= 0 and hand & trumps != 0:
                void_with_trumps += 1
            continue
        # Our lowest card of a side suit with no unseen card under it ducks any lead.
        lowest = lowest_card(mine)
        if unseen & suit_mask(suit) & ((np.int64(1) << lowest) - 1) == 0:
            low_safe += 1
        low += popcount(mine & _LOW)
    out[30] = low_safe / 3.0
    out[31] = void_with_trumps / 3.0
    out[32] = low / left
    # Our trumps above every unseen trump.
    my_trumps = hand & trumps
    unseen_trumps = unseen & trumps
    if unseen_trumps == 0:
        out[33] = popcount(my_trumps) / left
    else:
        out[33] = popcount(my_trumps & ~((np.int64(2) << highest_card(unseen_trumps)) - 1)) / left


@njit(inline="always")
def card_move(view, card, context, out):
    """Fill ``out`` (:data:`N_CARD_MOVE` entries) with the features of playing ``card``.

    ``context`` is :func:`card_context`'s for the decision.
    """
    trump = view[V.TRUMP]
    j = view[V.N_IN_TRICK]
    players = view[V.N_ACTIVE]
    hand = view[V.HAND]
    legal = view[V.LEGAL]
    unseen = context[0]
    out[:] = 0.0
    is_trump = card == JOKER or card // 13 == trump
    out[0] = 1.0 if is_trump else 0.0
    out[1] = (13 if card == JOKER else card % 13) / 12.0
    if j == 0:
        led = led_suit_of(card, trump)
        wins_now = True
    else:
        led = view[V.LED_SUIT]
        wins_now = beats(card, view[V.WINNING_CARD], trump)
    out[2] = 1.0 if wins_now else 0.0
    threat = beaters(card, led, trump) & unseen
    later = threat & context[1]
    out[3] = min(popcount(threat), 5) / 5.0
    out[4] = 1.0 if wins_now and later == 0 else 0.0
    out[5] = 1.0 if wins_now and j == players - 1 else 0.0
    if card != JOKER:
        suit = card // 13
        mine = hand & suit_mask(suit)
        out[6] = popcount(mine) / 10.0
        out[7] = popcount(unseen & suit_mask(suit)) / 13.0
        above = suit_mask(suit) & ~((np.int64(2) << card) - 1)
        below = suit_mask(suit) & ((np.int64(1) << card) - 1)
        out[8] = popcount(mine & above) / 5.0
        out[9] = min(popcount(unseen & above), 5) / 5.0
        out[16] = min(popcount(unseen & below), 5) / 5.0
        out[17] = 1.0 if unseen & above == 0 else 0.0
        out[18] = ((context[2] >> suit) & 1) * 1.0
        out[19] = ((context[3] >> suit) & 1) * 1.0
        if j > 0:
            out[10] = 1.0 if suit == led else 0.0
            out[11] = 1.0 if suit != led and is_trump else 0.0
            out[12] = 1.0 if suit != led and not is_trump else 0.0
        else:
            # Leading from a suit we would then be void in lets us trump it later.
            out[20] = 1.0 if popcount(mine) == 1 and not is_trump else 0.0
    power = card_power(card, led, trump)
    weakest = context[5]
    strongest = context[6]
    if j == 0:
        weakest = card_power(lowest_by_power(legal, led, trump), led, trump)
        strongest = card_power(highest_by_power(legal, led, trump), led, trump)
    out[13] = 1.0 if weakest == power else 0.0
    out[14] = 1.0 if strongest == power else 0.0
    out[15] = 1.0 if wins_now and later != 0 else 0.0
    # The players still to play: who may follow the led suit, who may trump it.
    others = max(players - 1, 1)
    if led >= 0:
        out[21] = ((context[4] >> (4 * led)) & 15) / others
        if led != trump:
            out[22] = ((context[4] >> (16 + 4 * led)) & 15) / others
    if card != JOKER:
        out[23] = 1.0 if out[8] == 0.0 else 0.0
        # Our cards of the suit above every unseen one (its sure winners).
        live = unseen & suit_mask(suit)
        if live == 0:
            out[24] = popcount(mine) / 5.0
        else:
            out[24] = popcount(mine & ~((np.int64(2) << highest_card(live)) - 1)) / 5.0
