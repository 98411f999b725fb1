"""One deal in progress, step by step: every rule of a deal written once.

The kernel's game loop (:mod:`ohhell_sim.engine.game`) and the batched
environment (:mod:`ohhell_sim.env.batched`) play a deal with these functions, the
first in one pass with a strategy's decision at each step, the second cut at
each decision of a learning seat.  A deal's arrays are bundled in
:class:`DealArrays` (the view of the seat to move and each seat's cards, bid,
tricks and points); its scalars (the seats in the deal, the hand size, the
dealer, the trump) and the cursor of the trick in progress (the seat to play,
the cards in the trick, the led suit, the winning card and its seat) are the
callers' own: locals of the kernel, kept in registers, and a row of numbers per
table in the environment.

A deal goes: :func:`start_deal`; under the swap rule :func:`begin_swap`, then
for each seat and card :func:`show_pass` and :func:`apply_pass`, then
:func:`pass_left`; :func:`begin_bidding`, then for each seat :func:`show_bid`
and :func:`apply_bid`, then :func:`end_bidding`; for each trick
:func:`start_trick`, for each seat :func:`show_card`, :func:`card_error` and
:func:`apply_card`, then :func:`end_trick`; :func:`score_deal`.  Each ``show_``
function writes what the seat to move sees into the view; each ``apply_``
function checks nothing that its caller has not (the ``_error`` functions and
the bid checks do), so that a caller reports an illegal move with its own
game and deal.

The functions are inlined where they are called: a caller that passes
compile-time constants (the kernel's ``GENERAL_TABLES``) gets the variants'
code compiled out, and the cursor stays in registers.  The rule primitives
they use (which card follows, which beats, the hook, the scoring tables) are
those of :mod:`ohhell_sim.engine.core`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import lowest_card, popcount
from ohhell_sim.engine.core import (
    add_card,
    beaters,
    beats,
    deal_cards,
    deal_points,
    fixed_trump,
    following_cards,
    forbidden_bid,
    hook_applies,
    led_suit_of,
    next_seat,
    remove_card,
)
from ohhell_sim.engine.workspace import NOT_PLAYED
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    ERR_NONE,
)
from ohhell_sim.rules.layout import (
    R_DECKS,
    R_FOREHEAD,
    R_HOOK,
    R_JOKER,
    R_NO_TRUMP_EVERY,
    R_NULLO,
    R_PLAYERS,
    R_SWAP,
    R_TRUMP_MODE,
)


class DealArrays(NamedTuple):
    """The arrays of one deal in progress at one table."""

    # what the seat to move sees (ohhell_sim.view); not "view", which Numba reserves
    seat_view: np.ndarray
    hands: np.ndarray  # each seat's cards, a bit per card (at least one copy)
    hands2: np.ndarray  # second copies of cards, under two decks
    bids: np.ndarray  # each seat's bid (NOT_PLAYED for seats out of the deal)
    tricks: np.ndarray  # tricks each seat took
    scores: np.ndarray  # each seat's points of the deal
    passed: np.ndarray  # (seats, 2): the cards each seat passed left (swap)
    passed_masks: np.ndarray  # the same, as a mask per seat
    totals: np.ndarray  # each seat's points so far in the game


@njit(inline="always")
def swap_cards(rules, hand_size, general):
    """Cards each seat passes left in a deal of ``hand_size`` (the swap rule; 0 without)."""
    return min(rules[R_SWAP], hand_size) if general else 0


@njit(inline="always")
def is_forehead(rules, hand_size, general):
    """Whether a deal of ``hand_size`` is played on the forehead (each seat sees the others')."""
    return general and rules[R_FOREHEAD] != 0 and hand_size == 1


@njit(inline="always")
def start_deal(deal, rules, rng, deck, d, hand_size, dealer, active, is_tiebreak, general):
    """Deal deal row ``d`` among the ``active`` seats and set up its view; return the trump.

    ``rng`` is the table's stream seeded for the deal, ``deck`` scratch for the
    shuffle, ``is_tiebreak`` 1 in the tie-break deal; ``general`` False compiles
    the variants of the general tables out (see
    :func:`ohhell_sim.run.dispatch.needs_general_tables`).  The trump is a suit
    0-3, or -1 for none.
    """
    view, hands = deal.seat_view, deal.hands
    n = rules[R_PLAYERS]
    no_trump_every = rules[R_NO_TRUMP_EVERY]
    no_trump = no_trump_every > 0 and hand_size % no_trump_every == 0
    mode = rules[R_TRUMP_MODE]
    turn = 1 if mode == 0 and not no_trump else 0
    deck_size = 52 * rules[R_DECKS] + rules[R_JOKER] if general else 52
    trump_card = deal_cards(
        rng, deck, deck_size, n, active, hand_size, dealer, turn, hands, deal.hands2
    )
    if turn:
        trump = -1 if trump_card == 52 else trump_card // 13
    elif no_trump:
        trump = -1
    else:
        trump = fixed_trump(mode, d)
    view[V.DEAL] = d
    view[V.DEALER] = dealer
    view[V.HAND_SIZE] = hand_size
    view[V.TRUMP] = trump
    view[V.TRUMP_CARD] = trump_card
    view[V.TRICK] = V.UNKNOWN
    view[V.LEADER] = V.UNKNOWN
    view[V.LED_SUIT] = V.UNKNOWN
    view[V.N_IN_TRICK] = 0
    view[V.PLAYED] = 0
    view[V.PLAYED2] = 0
    view[V.WINNING_SEAT] = V.UNKNOWN
    view[V.WINNING_CARD] = V.UNKNOWN
    view[V.LEGAL] = 0
    view[V.BID_TOTAL] = 0
    view[V.MAX_BID] = 0 if rules[R_NULLO] != 0 else hand_size
    view[V.ACTIVE] = active
    view[V.N_ACTIVE] = popcount(active)
    view[V.TIEBREAK] = is_tiebreak
    view[V.HOOK] = hook_applies(rules[R_HOOK], hand_size)
    for s in range(n):
        view[V.BIDS_BASE + s] = V.UNKNOWN
        view[V.TRICKS_WON_BASE + s] = 0
        view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
        view[V.VOIDS_BASE + s] = 0
        view[V.VISIBLE_BASE + s] = V.UNKNOWN
        view[V.SCORES_BASE + s] = deal.totals[s]
        deal.tricks[s] = 0
        deal.scores[s] = 0
        deal.bids[s] = NOT_PLAYED
        deal.passed_masks[s] = 0
    if is_forehead(rules, hand_size, general):
        for s in range(n):
            if (active >> s) & 1:
                view[V.VISIBLE_BASE + s] = lowest_card(hands[s])
    return trump


@njit(inline="always")
def previous_seat(seat, active, n):
    """The active seat whose next active seat is ``seat`` (the one passing to it)."""
    prev = seat - 1 if seat > 0 else n - 1
    while (active >> prev) & 1 == 0:
        prev = prev - 1 if prev > 0 else n - 1
    return prev


# --- the swap ---------------------------------------------------------------------


@njit(inline="always")
def begin_swap(deal):
    """Enter the swap: every active seat chooses its cards to pass, from the dealer's left."""
    deal.seat_view[V.PHASE] = V.PHASE_SWAP
    deal.seat_view[V.RECEIVED] = 0


@njit(inline="always")
def show_pass(deal, seat):
    """Show ``seat`` its choice of a card to pass left; return its hand (the legal cards)."""
    view, hand = deal.seat_view, deal.hands[seat]
    view[V.SEAT] = seat
    view[V.HAND] = hand
    view[V.HAND2] = deal.hands2[seat]
    view[V.LEGAL] = hand
    view[V.PASSED] = deal.passed_masks[seat]
    return hand


@njit(inline="always")
def apply_pass(deal, seat, card, i):
    """Set ``card`` aside as ``seat``'s ``i``-th card to pass (checked by :func:`card_error`)."""
    remove_card(deal.hands, deal.hands2, seat, card)
    deal.passed[seat, i] = card
    deal.passed_masks[seat] |= np.int64(1) << card


@njit(inline="always")
def pass_left(deal, dealer, active, n, k):
    """Hand every seat's ``k`` cards set aside to the next active seat on its left."""
    seat = dealer
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        left = next_seat(seat, active, n)
        for i in range(k):
            add_card(deal.hands, deal.hands2, left, deal.passed[seat, i])


# --- the bidding ------------------------------------------------------------------


@njit(inline="always")
def begin_bidding(deal):
    """Enter the bidding, from the dealer's left; the dealer bids last."""
    deal.seat_view[V.PHASE] = V.PHASE_BID
    deal.seat_view[V.LEGAL] = 0


@njit(inline="always")
def show_bid(deal, seat, dealer, hook, total, forehead, swap, active, n):
    """Show ``seat`` its bid after bids totalling ``total``; return the bid forbidden (-1: none).

    The dealer may not bid what makes the bids total the hand size under the
    ``hook``; a ``forehead`` deal hides the seat's own card from it while it
    bids (:func:`apply_bid` shows it again); ``swap`` says whether cards were
    passed.
    """
    view = deal.seat_view
    forbidden = forbidden_bid(hook, view[V.HAND_SIZE], total) if seat == dealer else -1
    view[V.SEAT] = seat
    view[V.HAND] = 0 if forehead else deal.hands[seat]
    view[V.HAND2] = deal.hands2[seat]
    view[V.FORBIDDEN_BID] = forbidden
    if swap:
        view[V.PASSED] = deal.passed_masks[seat]
        view[V.RECEIVED] = deal.passed_masks[previous_seat(seat, active, n)]
    if forehead:
        view[V.VISIBLE_BASE + seat] = V.UNKNOWN
    return forbidden


@njit(inline="always")
def bid_error(deal, bid, forbidden):
    """The error code of ``bid`` (out of range, or forbidden by the hook), or ``ERR_NONE``."""
    if bid < 0 or bid > deal.seat_view[V.MAX_BID]:
        return ERR_BID_RANGE
    if bid == forbidden:
        return ERR_BID_HOOK
    return ERR_NONE


@njit(inline="always")
def apply_bid(deal, seat, bid, total, closed, forehead):
    """Record ``seat``'s ``bid`` (checked by :func:`bid_error`); return the new total.

    Open bids are shown at once; ``closed`` bids at :func:`end_bidding`.
    """
    view = deal.seat_view
    if forehead:
        view[V.VISIBLE_BASE + seat] = lowest_card(deal.hands[seat])
    deal.bids[seat] = bid
    total += bid
    if not closed:
        view[V.BIDS_BASE + seat] = bid
        view[V.BID_TOTAL] = total
    return total


@njit(inline="always")
def end_bidding(deal, total, closed, active, n):
    """Show closed bids, and enter the play."""
    view = deal.seat_view
    if closed:
        for s in range(n):
            if (active >> s) & 1:
                view[V.BIDS_BASE + s] = deal.bids[s]
        view[V.BID_TOTAL] = total
    view[V.PHASE] = V.PHASE_PLAY
    view[V.FORBIDDEN_BID] = V.UNKNOWN


# --- the play ---------------------------------------------------------------------


@njit(inline="always")
def start_trick(deal, t, leader, n):
    """Start trick ``t``, led by ``leader``."""
    view = deal.seat_view
    view[V.TRICK] = t
    view[V.LEADER] = leader
    view[V.LED_SUIT] = V.UNKNOWN
    view[V.WINNING_SEAT] = V.UNKNOWN
    view[V.WINNING_CARD] = V.UNKNOWN
    for s in range(n):
        view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN


@njit(inline="always")
def playable_cards(hand, follow):
    """The cards of ``hand`` it may play when ``follow`` are those that follow the led suit:
    them or, when it has none (or leads), any card."""
    return follow if follow != 0 else hand


@njit(inline="always")
def legal_cards(hand, led, trump, joker):
    """``(follow, legal)``: the cards of ``hand`` that follow the ``led`` suit, and those it
    may play (:func:`playable_cards`), them or, when it has none (or leads, ``led`` -1),
    any card."""
    follow = following_cards(hand, led, trump, joker)
    return follow, playable_cards(hand, follow)


@njit(inline="always")
def show_card(deal, seat, j, led, trump, joker, plain, swap, active, n):
    """Show ``seat`` its card, ``j`` cards into the trick; return ``(hand, follow, legal)``.

    ``follow`` are its cards of the led suit, ``legal`` those it may play: them,
    or any card when it has none.  ``plain`` (one deck, every seat in, no swap)
    skips the variants' fields; ``swap`` says whether cards were passed.
    """
    view, hand = deal.seat_view, deal.hands[seat]
    follow, legal = legal_cards(hand, led, trump, joker)
    view[V.N_IN_TRICK] = j
    view[V.SEAT] = seat
    view[V.HAND] = hand
    view[V.LEGAL] = legal
    if not plain:
        view[V.HAND2] = deal.hands2[seat]
        if swap:
            view[V.PASSED] = deal.passed_masks[seat]
            view[V.RECEIVED] = deal.passed_masks[previous_seat(seat, active, n)]
    return hand, follow, legal


@njit(inline="always")
def card_error(hand, legal, card):
    """The error code of playing (or passing) ``card`` from ``hand``, or ``ERR_NONE``."""
    if card < 0 or card > 52 or (hand >> card) & 1 == 0:
        return ERR_CARD_NOT_IN_HAND
    if (legal >> card) & 1 == 0:
        return ERR_MUST_FOLLOW
    return ERR_NONE


@njit(inline="always")
def trick_with(card, seat, j, led, best, best_seat, trump, joker):
    """The trick's ``(led, best, best_seat)`` once ``seat`` plays ``card`` as its ``j``-th card.

    The first card sets the led suit and wins so far; a later one wins when it
    ``beats`` the card winning the trick.  The search players' playouts and
    their trick after a candidate card use it too.
    """
    if j == 0:
        return led_suit_of(card, trump, joker), card, seat
    if beats(card, best, trump, joker):
        return led, card, seat
    return led, best, best_seat


@njit(inline="always")
def trick_with_beaters(card, seat, j, led, best, best_seat, beat, trump):
    """:func:`trick_with` for the playouts (one deck, the joker possible), by mask.

    ``beat`` is :func:`~ohhell_sim.engine.core.beaters` of the card winning the
    trick (anything before the lead); returns ``(led, best, best_seat, beat)``
    after ``card``, so that each later card asks one bit instead of comparing
    cards.
    """
    if j == 0:
        led = led_suit_of(card, trump)
        return led, card, seat, beaters(card, led, trump)
    if (beat >> card) & 1:
        return led, card, seat, beaters(card, led, trump)
    return led, best, best_seat, beat


@njit(inline="always")
def apply_card(deal, seat, card, j, follow, led, best, best_seat, trump, joker, plain):
    """Play ``seat``'s ``card`` (checked by :func:`card_error`) into the trick.

    ``j`` cards are in the trick before it, led in suit ``led``, won so far by
    ``best`` of ``best_seat``; ``follow`` are the seat's cards of the led suit
    (:func:`show_card`).  Returns the trick's ``(led, best, best_seat)`` after it.
    A seat that does not follow the led suit shows a void in it.
    """
    view = deal.seat_view
    bit = np.int64(1) << card
    if plain:
        deal.hands[seat] ^= bit
        view[V.PLAYED] |= bit
    else:
        remove_card(deal.hands, deal.hands2, seat, card)
        if view[V.PLAYED] & bit:
            view[V.PLAYED2] |= bit
        else:
            view[V.PLAYED] |= bit
    if j > 0 and led >= 0 and follow == 0:
        view[V.VOIDS_BASE + seat] |= np.int64(1) << led
    led, best, best_seat = trick_with(card, seat, j, led, best, best_seat, trump, joker)
    if j == 0:
        view[V.LED_SUIT] = led
    view[V.TRICK_CARDS_BASE + seat] = card
    view[V.WINNING_SEAT] = best_seat
    view[V.WINNING_CARD] = best
    return led, best, best_seat


@njit(inline="always")
def next_to_play(seat, active, n, plain):
    """The seat after ``seat`` in the trick."""
    if plain:
        return seat + 1 if seat + 1 < n else 0
    return next_seat(seat, active, n)


@njit(inline="always")
def end_trick(deal, best_seat):
    """Give the trick to ``best_seat``, which leads the next."""
    deal.tricks[best_seat] += 1
    deal.seat_view[V.TRICKS_WON_BASE + best_seat] += 1


@njit(inline="always")
def score_deal(deal, rules, hand_size, active, n):
    """Score the deal for the ``active`` seats into ``scores``, ``totals`` and the view."""
    for s in range(n):
        if (active >> s) & 1:
            points = deal_points(np.int64(deal.bids[s]), np.int64(deal.tricks[s]), hand_size, rules)
            deal.scores[s] = points
            deal.totals[s] += points
            deal.seat_view[V.SCORES_BASE + s] = deal.totals[s]
