"""Card-counting play, shared by ``card_counter``, ``sure_tricks``, ``expected_tricks``,
``zero`` and (as their fallback) the sampling strategies.

It follows the play tips of the French rules page (``001``) with what the view
shows about the cards: every card played (``PLAYED``), hence the trumps still out,
and the voids each player has shown (``VOIDS_BASE``).  A card's *threats* are the
unseen cards that would beat it and that a player still to play the trick may
hold (see :func:`ohhell_sim.strategies._common.threats`); a card without threats that is
winning when played is a sure winner.

* Short of the bid, leading: a sure winner if there is one (side suits before
  trumps, which stay useful); else, when the tricks still needed are at least
  half of those left and trumps are out, the highest trump, to draw the others'
  trumps ("lead high and draw trumps when you bid many"); else the card with
  the fewest threats.
* Short of the bid, following: the winning card with the fewest threats,
  cheapest on ties, so a sure winner when there is one and never more than
  needed; the last player wins with its cheapest winner; with no winning card,
  the weakest card goes.
* Short of the bid by no more than its boss trumps (trumps no unseen card
  beats, which take a trick whenever they are played,
  :func:`ohhell_sim.strategies._common.boss_trumps`), following: when another card
  loses the trick, play the most dangerous such card, as at the bid, and keep
  the bosses for later (duck now, win later), rather than take the trick with
  a boss and be left on lead with a card that may win.
* At (or over) the bid: lead the card with the most threats ("lead low, never
  win a trick by accident"); follow with the most dangerous card that loses
  (duck as high as possible; when void, discard the highest card, trumps first
  on equal rank); when every card wins, the last player takes the trick with its
  highest card, the others play the winner most likely to be overtaken.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import led_suit_of
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategies._common import (
    beating_cards,
    danger_card,
    later_may_hold,
    spare_cards,
    swap_card,
    threats,
    trump_mask,
    unseen_mask,
    wants_tricks,
)
from ohhell_sim.strategy.tools import (
    card_power,
    highest_by_power,
    lowest_by_power,
    lowest_card,
    popcount,
)


@njit
def by_threats(mask, led, trump, unseen, may_hold, fewest):
    """The card of ``mask`` with the fewest (or most) threats; the weaker on ties.

    ``led < 0`` means the cards are leads: each is judged in the suit it calls for.
    """
    best = -1
    best_key = 0
    m = mask
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        suit = led if led >= 0 else led_suit_of(card, trump)
        n = popcount(threats(card, suit, trump, unseen, may_hold))
        # One key orders by threat count, then by power (weaker first).
        key = (n if fewest else 64 - n) * 64 + card_power(card, suit, trump)
        if best < 0 or key < best_key:
            best_key = key
            best = card
    return best


@njit
def _lead(view, legal, trump, unseen, wants):
    may_hold = later_may_hold(view, trump)
    if not wants:
        return by_threats(legal, -1, trump, unseen, may_hold, False)
    sure = np.int64(0)
    m = legal
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if threats(card, led_suit_of(card, trump), trump, unseen, may_hold) == 0:
            sure |= np.int64(1) << card
    if sure != 0:
        # Power ignoring the led suit puts side cards below trumps.
        return lowest_by_power(sure, -1, trump)
    seat = view[V.SEAT]
    need = view[V.BIDS_BASE + seat] - view[V.TRICKS_WON_BASE + seat]
    left = view[V.HAND_SIZE] - view[V.TRICK]
    trumps = legal & trump_mask(trump)
    if trump >= 0 and trumps != 0 and 2 * need >= left and unseen & trump_mask(trump) != 0:
        return highest_by_power(trumps, -1, trump)
    return by_threats(legal, -1, trump, unseen, may_hold, True)


@njit
def _follow_by_threats(view, winners, trump, unseen, wants):
    # The follows that weigh threats: win with the safest card, or, forced to win
    # at the bid, with the card most likely to be overtaken.
    may_hold = later_may_hold(view, trump)
    return by_threats(winners, view[V.LED_SUIT], trump, unseen, may_hold, wants)


@njit
def counting_play(view, pass_dangerous):
    """The card-counting play of the module docstring; any phase that asks for a card.

    In the swap phase it passes :func:`ohhell_sim.strategies._common.swap_card` (the most
    dangerous card when ``pass_dangerous``, for players aiming at zero).  The
    cheap cases are decided here, inline; leads and the follows that weigh
    threats call the compiled helpers.
    """
    if view[V.PHASE] == V.PHASE_SWAP:
        return swap_card(view, pass_dangerous)
    legal = view[V.LEGAL]
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    trump = view[V.TRUMP]
    spare = spare_cards(view, legal)
    if spare != 0:
        # The bosses make the bid on their own: lose this trick with another card.
        return danger_card(spare, trump)
    wants = wants_tricks(view)
    if view[V.N_IN_TRICK] == 0:
        return _lead(view, legal, trump, unseen_mask(view), wants)
    led = view[V.LED_SUIT]
    winners = beating_cards(legal, view[V.WINNING_CARD], trump)
    last = view[V.N_IN_TRICK] == view[V.N_ACTIVE] - 1
    if wants:
        if winners == 0:
            return lowest_by_power(legal, led, trump)
        if last or winners & (winners - 1) == 0:
            return lowest_by_power(winners, led, trump)
    else:
        losers = legal & ~winners
        if losers != 0:
            return danger_card(losers, trump)
        if last:
            return highest_by_power(legal, led, trump)
    return _follow_by_threats(view, winners, trump, unseen_mask(view), wants)


@njit
def left_to_counting(view):
    """Whether a player that searches or weighs its cards leaves this one to :func:`counting_play`.

    Outside the play phase (the swap), with one legal card, and with two decks
    (which the samplers and the networks do not model) there is nothing for
    them to weigh.
    """
    legal = view[V.LEGAL]
    return (
        view[V.PHASE] != V.PHASE_PLAY
        or legal & (legal - 1) == 0
        or view[V.RULES_BASE + R_DECKS] != 1
    )
