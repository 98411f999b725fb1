"""Numba helpers for writing strategies.

Every function here is ``@njit`` and may be called from a strategy's ``bid`` or
``play``.  They read the ``view`` array described in :mod:`ohhell_sim.view`.
"""

from __future__ import annotations

from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.bits import (
    highest_card,
    highest_rank_cards,
    lowest_card,
    lowest_rank_cards,
    nth_card,
    popcount,
    suit_mask,
)
from ohhell_sim.engine.core import JOKER_BIT, beats, deal_points
from ohhell_sim.engine.rng import below, uniform

__all__ = [
    "below",
    "card_power",
    "cards_held",
    "highest_by_power",
    "highest_card",
    "lowest_by_power",
    "lowest_card",
    "nth_card",
    "points",
    "popcount",
    "random_legal_bid",
    "random_legal_card",
    "suit_mask",
    "uniform",
    "winning_cards",
]


@njit(inline="always")
def card_power(card, led_suit, trump):
    """How strong ``card`` is in a trick: joker, trumps, the led suit, then the rest.

    Higher means stronger; cards of one suit keep their rank order.  Off-suit,
    non-trump cards can never win, but their rank still orders them for discards.
    """
    if card == JOKER:
        return 39
    suit = card // 13
    rank = card % 13
    if suit == trump:
        return 26 + rank
    if suit == led_suit:
        return 13 + rank
    return rank


# The two functions below find the card without looping over the mask (a loop's
# data-dependent branches mispredict); ``tests/test_strategy_tools.py`` checks
# them against the plain definition by ``card_power``.


@njit(inline="always")
def lowest_by_power(mask, led_suit, trump):
    """The weakest card of a non-empty ``mask`` by :func:`card_power` (-1 when empty).

    Of equal powers (off-suit cards of one rank), the lowest card id.
    """
    special = JOKER_BIT
    if trump >= 0:
        special |= suit_mask(trump)
    if led_suit >= 0:
        special |= suit_mask(led_suit)
    plain = mask & ~special
    if plain != 0:
        return lowest_card(lowest_rank_cards(plain))
    if led_suit >= 0 and mask & suit_mask(led_suit) != 0:
        return lowest_card(mask & suit_mask(led_suit))
    if trump >= 0 and mask & suit_mask(trump) != 0:
        return lowest_card(mask & suit_mask(trump))
    return JOKER if mask != 0 else -1


@njit(inline="always")
def highest_by_power(mask, led_suit, trump):
    """The strongest card of a non-empty ``mask`` by :func:`card_power` (-1 when empty).

    Of equal powers (off-suit cards of one rank), the lowest card id.
    """
    if (mask >> JOKER) & 1:
        return JOKER
    if trump >= 0 and mask & suit_mask(trump) != 0:
        return highest_card(mask & suit_mask(trump))
    if led_suit >= 0 and mask & suit_mask(led_suit) != 0:
        return highest_card(mask & suit_mask(led_suit))
    if mask == 0:
        return -1
    return lowest_card(highest_rank_cards(mask))


@njit(inline="always")
def winning_cards(view):
    """Legal cards that would win the current trick if nobody after played higher.

    When leading, every legal card qualifies.
    """
    legal = view[V.LEGAL]
    if view[V.N_IN_TRICK] == 0:
        return legal
    best = view[V.WINNING_CARD]
    trump = view[V.TRUMP]
    out = 0
    m = legal
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if beats(card, best, trump):
            out |= 1 << card
    return out


@njit(inline="always")
def cards_held(view):
    """Number of cards in the seated player's hand (both copies count with two decks)."""
    return popcount(view[V.HAND]) + popcount(view[V.HAND2])


@njit(inline="always")
def points(view, bid, tricks):
    """Points this deal would give for ``bid`` and ``tricks`` under the active scoring rules."""
    return deal_points(bid, tricks, view[V.HAND_SIZE], view[V.RULES_BASE :])


@njit(inline="always")
def random_legal_bid(view, rng):
    """A bid drawn uniformly from the legal bids (0..``MAX_BID``, less the forbidden one)."""
    most = view[V.MAX_BID]
    forbidden = view[V.FORBIDDEN_BID]
    if forbidden < 0 or forbidden > most:
        return below(rng, most + 1)
    bid = below(rng, most)
    return bid + 1 if bid >= forbidden else bid


@njit(inline="always")
def random_legal_card(view, rng):
    """A card drawn uniformly from the legal cards."""
    legal = view[V.LEGAL]
    return nth_card(legal, below(rng, popcount(legal)))
