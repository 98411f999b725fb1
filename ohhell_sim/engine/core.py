"""Rule primitives compiled by Numba: the dealer cut, the deal, legal cards, tricks, scores.

These functions know nothing of strategies; :mod:`ohhell_sim.engine.kernel` strings
them into games.  :mod:`ohhell_sim.reference` implements the same rules again in
plain Python, and the tests compare the two.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim.engine.bits import lowest_card, suit_mask
from ohhell_sim.engine.rng import below
from ohhell_sim.rules import (
    R_ALL_BONUS,
    R_DOUBLE_ALL,
    R_MADE,
    R_OVER,
    R_TRICK_POINTS,
    R_UNDER,
    R_ZERO,
)

DECK_SIZE = 52


@njit(cache=True)
def cut_for_dealer(state, n_players, deck):
    """Choose the first dealer: the highest cut deals; tied highest cuts cut again.

    Each round, the players still in contention cut one card each, in seat order,
    from a freshly shuffled deck (cards drawn without replacement).
    """
    tied = (np.int64(1) << n_players) - 1
    while tied & (tied - 1) != 0:
        for i in range(DECK_SIZE):
            deck[i] = i
        best = -1
        next_tied = np.int64(0)
        i = 0
        for seat in range(n_players):
            if (tied >> seat) & 1 == 0:
                continue
            j = i + below(state, DECK_SIZE - i)
            card = deck[j]
            deck[j] = deck[i]
            deck[i] = card
            i += 1
            rank = card % 13
            if rank > best:
                best = rank
                next_tied = 0
            if rank == best:
                next_tied |= np.int64(1) << seat
        tied = next_tied
    return lowest_card(tied)


@njit(cache=True, inline="always")
def deal_cards(state, deck, n_players, hand_size, dealer, hands):
    """Deal ``hand_size`` cards to each seat and return the turned-up card.

    Cards go one at a time clockwise from the dealer's left; the next card is
    turned up for trump.  Only the cards dealt are shuffled into place (a partial
    Fisher-Yates shuffle of a fresh deck), which draws them uniformly; the cut of a
    uniformly shuffled deck changes nothing and is not simulated.
    """
    for i in range(DECK_SIZE):
        deck[i] = i
    for s in range(n_players):
        hands[s] = 0
    n_dealt = n_players * hand_size
    seat = dealer
    for i in range(n_dealt + 1):
        j = i + below(state, DECK_SIZE - i)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        if i < n_dealt:
            seat += 1
            if seat == n_players:
                seat = 0
            hands[seat] |= np.int64(1) << card
    return deck[n_dealt]


@njit(cache=True, inline="always")
def legal_cards(hand, led_suit):
    """Cards of ``hand`` that may be played: the led suit if held, else any."""
    if led_suit < 0:
        return hand
    follow = hand & suit_mask(led_suit)
    return follow if follow != 0 else hand


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """Whether ``card`` beats ``best``, the card currently winning the trick."""
    # ``best`` is always of the led suit or a trump, so an off-suit card that is
    # not a trump never wins.
    suit = card // 13
    if suit == best // 13:
        return card > best
    return suit == trump


@njit(cache=True, inline="always")
def forbidden_bid(hook, hand_size, bid_total):
    """The bid the hook forbids a dealer after ``bid_total`` from the others, or -1."""
    if hook == 0:
        return -1
    missing = hand_size - bid_total
    return missing if 0 <= missing <= hand_size else -1


@njit(cache=True, inline="always")
def deal_points(bid, tricks, hand_size, rules):
    """Points for one player in one deal under the scoring rules in ``rules``.

    ``rules`` is the kernel's rules array (:meth:`ohhell_sim.rules.Rules.to_array`);
    the tables are those of :mod:`ohhell_sim.rules`.  The canonical rules give
    10 + bid for an exact bid and 0 for any miss.
    """
    k = rules[R_TRICK_POINTS]
    if bid == tricks:
        if bid == 0:
            table = rules[R_ZERO]
            if table == 0:
                return 10
            if table == 1:
                return 5
            return (5 if table == 2 else 10) + hand_size
        table = rules[R_MADE]
        if table == 0:
            points = 10 + k * bid
        elif table == 1:
            points = 10 * bid
        elif table == 2:
            points = 10 + bid * bid
        elif table == 3:
            points = 10 + 2 * bid
        else:
            points = 5 + bid
        if bid == hand_size:
            if rules[R_DOUBLE_ALL] != 0:
                points *= 2
            points += rules[R_ALL_BONUS]
        return points
    table = rules[R_OVER] if tricks > bid else rules[R_UNDER]
    diff = abs(bid - tricks)
    if table == 0:
        return 0
    if table == 1:
        return k * tricks
    if table == 2:
        return -k * diff
    if table == 3:
        return -diff * diff
    return -10 * diff
