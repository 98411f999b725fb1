"""The card pickers used by the strategies equal their plain definitions.

``lowest_by_power``, ``highest_by_power``, ``danger_card`` and ``keep_trump_card``
find their card with bit tricks; each is checked here against a loop over the
cards that states what it picks, on drawn masks (with and without the joker),
led suits and trumps, no trump included.
"""

from __future__ import annotations

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell_sim.cards import JOKER
from ohhell_sim.engine.bits import (
    cards_of_rank,
    highest_rank_cards,
    lowest_rank_cards,
    ranks_held,
)
from ohhell_sim.strategies._common import danger_card, keep_trump_card
from ohhell_sim.strategy.tools import card_power, highest_by_power, lowest_by_power

masks_st = st.integers(min_value=0, max_value=(1 << 53) - 1)
suits_st = st.integers(min_value=-1, max_value=3)


def _cards(mask: int) -> list[int]:
    return [card for card in range(JOKER + 1) if (mask >> card) & 1]


def _first_with_best_key(mask: int, key, highest: bool) -> int:
    # The first card, in card order, whose key is the best: ties keep the lowest id.
    best, best_key = -1, None
    for card in _cards(mask):
        k = key(card)
        if best_key is None or (k > best_key if highest else k < best_key):
            best, best_key = card, k
    return best


@settings(max_examples=examples(400))
@given(masks_st, suits_st, suits_st)
def test_power_pickers_match_their_definition(mask, led, trump):
    def power(card):
        return card_power(card, led, trump)

    assert lowest_by_power(mask, led, trump) == _first_with_best_key(mask, power, False)
    assert highest_by_power(mask, led, trump) == _first_with_best_key(mask, power, True)


@settings(max_examples=examples(400))
@given(masks_st, suits_st)
def test_danger_and_keep_trump_cards_match_their_definition(mask, trump):
    def danger(card):
        return 99 if card == JOKER else 2 * (card % 13) + (card // 13 == trump)

    def keep_trump(card):
        return 2 * (card % 13) + (card // 13 != trump)

    assert danger_card(mask, trump) == _first_with_best_key(mask, danger, True)
    # The joker is never the card to keep a trump with.
    expected = _first_with_best_key(mask & ~(1 << JOKER), keep_trump, True)
    assert keep_trump_card(mask, trump) == expected


@settings(max_examples=examples(200))
@given(masks_st, st.integers(min_value=0, max_value=12))
def test_rank_helpers(mask, rank):
    suited = [card for card in _cards(mask) if card != JOKER]
    held = {card % 13 for card in suited}
    assert ranks_held(mask) == sum(1 << r for r in held)
    assert _cards(cards_of_rank(mask, rank)) == [c for c in suited if c % 13 == rank]
    top = [c for c in suited if c % 13 == max(held)] if held else []
    bottom = [c for c in suited if c % 13 == min(held)] if held else []
    assert _cards(highest_rank_cards(mask)) == top
    assert _cards(lowest_rank_cards(mask)) == bottom
