"""Rule primitives compiled by Numba: the dealer cut, the deal, legal cards, tricks, scores.

These functions know nothing of strategies; :mod:`ohhell_sim.engine.game` strings
them into games.  :mod:`ohhell_sim.reference` implements the same rules again in
plain Python, and the tests compare the two.

Hands are two masks per seat: ``hands`` holds the cards held at least once and
``hands2`` those held twice (only possible with two decks).  The joker is card 52.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim.cards import JOKER
from ohhell_sim.engine.bits import lowest_card, suit_mask
from ohhell_sim.engine.rng import below
from ohhell_sim.rules.layout import (
    HOOK_NOT_ONE_CARD,
    HOOK_OFF,
    R_ALL_BONUS,
    R_DOUBLE_ALL,
    R_MADE,
    R_OVER,
    R_TRICK_POINTS,
    R_UNDER,
    R_ZERO,
)

DECK_SIZE = 52
JOKER_BIT = np.int64(1) << JOKER
#: Trump suit of each deal under the fixed patterns (mode 1-3 of ``TRUMP_MODES``).
_PATTERN_SDCH = (3, 1, 0, 2)
_PATTERN_CDHS = (0, 1, 2, 3)
_PATTERN_CDHSN = (0, 1, 2, 3, -1)


@njit
def cut_for_dealer(state, n_players, deck):
    """Choose the first dealer: the highest cut deals; tied highest cuts cut again.

    Each round, the players still in contention cut one card each, in seat order,
    from a freshly shuffled 52-card deck (cards drawn without replacement).
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


@njit
def next_seat(seat, active, n_players):
    """The next seat clockwise from ``seat`` that is in the ``active`` mask."""
    seat = seat + 1 if seat + 1 < n_players else 0
    while (active >> seat) & 1 == 0:
        seat = seat + 1 if seat + 1 < n_players else 0
    return seat


@njit
def add_card(hands, hands2, seat, card):
    """Put ``card`` into ``seat``'s hand (a second copy goes to ``hands2``)."""
    bit = np.int64(1) << card
    if hands[seat] & bit:
        hands2[seat] |= bit
    else:
        hands[seat] |= bit


@njit
def remove_card(hands, hands2, seat, card):
    """Take one copy of ``card`` out of ``seat``'s hand."""
    bit = np.int64(1) << card
    if hands2[seat] & bit:
        hands2[seat] ^= bit
    else:
        hands[seat] ^= bit


@njit
def deal_cards(state, deck, deck_size, n_players, active, hand_size, dealer, turn, hands, hands2):
    """Deal ``hand_size`` cards to each active seat; return the turned-up card or -1.

    ``deck_size`` cards (52 per deck, then the joker) are shuffled; cards go one at
    a time clockwise from the dealer's left to the active seats, and when ``turn``
    the next card is turned up.  Only the cards dealt are shuffled into place (a
    partial Fisher-Yates shuffle of a fresh deck), which draws them uniformly; the
    cut of a uniformly shuffled deck changes nothing and is not simulated.
    """
    plain = deck_size == DECK_SIZE
    if plain:
        for i in range(DECK_SIZE):
            deck[i] = i
    else:
        for i in range(deck_size):
            deck[i] = i % DECK_SIZE if i < deck_size - (deck_size % DECK_SIZE) else JOKER
    for s in range(n_players):
        hands[s] = 0
        hands2[s] = 0
    n_active = 0
    for s in range(n_players):
        n_active += (active >> s) & 1
    # The common table (one deck, everyone in) takes the short path.
    simple_table = plain and n_active == n_players
    n_dealt = n_active * hand_size
    seat = dealer
    for i in range(n_dealt + turn):
        j = i + below(state, deck_size - i)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        if i < n_dealt:
            if simple_table:
                seat = seat + 1 if seat + 1 < n_players else 0
                hands[seat] |= np.int64(1) << card
            else:
                seat = next_seat(seat, active, n_players)
                add_card(hands, hands2, seat, card)
    return deck[n_dealt] if turn else -1


@njit
def fixed_trump(mode, deal):
    """Trump suit of deal ``deal`` under fixed pattern ``mode`` (1 SDCH, 2 CDHS, 3 CDHSN)."""
    if mode == 1:
        return _PATTERN_SDCH[deal % 4]
    if mode == 2:
        return _PATTERN_CDHS[deal % 4]
    return _PATTERN_CDHSN[deal % 5]


# ``joker`` below: whether the joker may be in play.  The kernel passes a
# compile-time False for decks without it, which compiles its checks out.


@njit
def led_suit_of(card, trump, joker=True):
    """The suit a lead calls for: the card's suit; trump for the joker (-1 at no trump)."""
    return trump if joker and card == JOKER else card // 13


# The rules of a trick come twice: per card (:func:`following_cards`,
# :func:`beats`), for the engine, and as masks kept per trick
# (:func:`led_suit_cards`, :func:`beaters`), for the search players' playouts;
# ``following_cards`` is built on its mask, and ``tests/test_trick_rules.py``
# holds ``beats`` to ``beaters`` on every card, led suit, trump and deck.


@njit
def led_suit_cards(led_suit, trump, joker=True):
    """Every card that follows ``led_suit`` (the joker follows trump); none before a lead (-1)."""
    if led_suit < 0:
        return np.int64(0)
    if joker and led_suit == trump:
        return suit_mask(led_suit) | JOKER_BIT
    return suit_mask(led_suit)


@njit
def following_cards(hand, led_suit, trump, joker=True):
    """Cards of ``hand`` that follow ``led_suit`` (the joker follows trump)."""
    return hand & led_suit_cards(led_suit, trump, joker)


@njit
def trump_mask(trump):
    """The trump suit with the joker (which follows trump), or just the joker at no trump."""
    if trump < 0:
        return JOKER_BIT
    return suit_mask(trump) | JOKER_BIT


@njit
def beaters(card, led, trump):
    """The cards that would beat ``card`` in a trick led in suit ``led``: :func:`beats` as a mask.

    Empty for the joker, and for an off-suit card that is no trump (it cannot
    win, so nothing needs to beat it); without the card itself, as the first of
    two identical cards (two decks) stays ahead.
    """
    if card == JOKER:
        return np.int64(0)
    suit = card // 13
    above = suit_mask(suit) & ~((np.int64(2) << card) - 1)
    if suit == trump:
        return above | JOKER_BIT
    if suit == led:
        return above | trump_mask(trump)
    return np.int64(0)


@njit
def beats(card, best, trump, joker=True):
    """Whether ``card`` beats ``best``, the card currently winning the trick.

    Of two identical cards (two decks) the first played stays ahead.
    """
    if joker:
        if best == JOKER:
            return False
        if card == JOKER:
            return True
    # ``best`` is always of the led suit or a trump, so an off-suit card that is
    # not a trump never wins.
    suit = card // 13
    if suit == best // 13:
        return card > best
    return suit == trump


@njit
def hook_applies(hook, hand_size):
    """1 when the hook binds the dealer of a deal of ``hand_size`` cards, else 0.

    ``hook`` is a code of ``R_HOOK`` (``HOOK_*``), or the view's ``HOOK`` field.
    """
    if hook == HOOK_OFF or (hook == HOOK_NOT_ONE_CARD and hand_size == 1):
        return 0
    return 1


@njit
def forbidden_bid(hook, hand_size, bid_total):
    """The bid the hook (as in :func:`hook_applies`) forbids a dealer after ``bid_total``
    from the others, or -1."""
    if hook_applies(hook, hand_size) == 0:
        return -1
    missing = hand_size - bid_total
    return missing if 0 <= missing <= hand_size else -1


@njit
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
