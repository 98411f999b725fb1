"""The trick rules of the search players' playouts are the engine's.

The engine asks its rules per card (:func:`~ohhell_sim.engine.core.following_cards`,
:func:`~ohhell_sim.engine.core.beats`, :func:`~ohhell_sim.engine.deal.trick_with`);
the playouts keep them as masks per trick
(:func:`~ohhell_sim.engine.core.led_suit_cards` with
:func:`~ohhell_sim.engine.deal.playable_cards`, and
:func:`~ohhell_sim.engine.core.beaters` through
:func:`~ohhell_sim.engine.deal.trick_with_beaters`).  These tests hold the two
forms to each other on every card, led suit and trump, with and without the
joker and with the repeated cards of two decks, hold both to the plain-Python
reference, and check that a playout's tricks are the engine's on the same cards
and moves.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from ohhell_sim import reference
from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.core import beaters, beats, led_suit_cards, next_seat
from ohhell_sim.engine.deal import legal_cards, playable_cards, trick_with, trick_with_beaters
from ohhell_sim.engine.rng import below, seed_stream
from ohhell_sim.strategies._common import greedy_card
from ohhell_sim.strategies._playout import PlayoutDeal, Trick, play_out

# The playout test compiles the sampling players' playouts: tens of seconds.
pytestmark = pytest.mark.slow

TRUMPS = (-1, 0, 1, 2, 3)


@njit
def _step_mismatches(card, j, state, masks, trump, joker, top):
    # One card more in a trick, by the engine (``state``: led, best, best seat)
    # and by masks (``masks``: the same and the beaters): the mismatches of the
    # two, and of ``beats`` against a bit of ``beaters`` for the cards below ``top``.
    led, best, best_seat = trick_with(card, j, j, state[0], state[1], state[2], trump, joker)
    m_led, m_best, m_seat, beat = trick_with_beaters(
        card, j, j, masks[0], masks[1], masks[2], masks[3], trump
    )
    state[0], state[1], state[2] = led, best, best_seat
    masks[0], masks[1], masks[2], masks[3] = m_led, m_best, m_seat, beat
    mismatches = int((m_led, m_best, m_seat) != (led, best, best_seat))
    mismatches += beat != beaters(best, led, trump)
    for other in range(top):
        mismatches += beats(other, best, trump, joker) != ((beat >> other) & 1 == 1)
    return mismatches


@njit
def _trick_state_mismatches(trump, joker):
    # Every trick of up to three cards (repeats included: two decks) led under
    # ``trump``, card by card; ``beats`` against every card after one and two.
    top = 53 if joker else 52
    mismatches = 0
    start = np.array([-1, -1, -1], dtype=np.int64)
    start_masks = np.array([-1, -1, -1, 0], dtype=np.int64)
    for first in range(top):
        state1, masks1 = start.copy(), start_masks.copy()
        mismatches += _step_mismatches(first, 0, state1, masks1, trump, joker, top)
        for second in range(top):
            state2, masks2 = state1.copy(), masks1.copy()
            mismatches += _step_mismatches(second, 1, state2, masks2, trump, joker, top)
            for third in range(top):
                state3, masks3 = state2.copy(), masks2.copy()
                mismatches += _step_mismatches(third, 2, state3, masks3, trump, joker, 0)
    return mismatches


def test_trick_masks_are_the_engines_on_every_trick_start():
    for trump in TRUMPS:
        for joker in (True, False):
            assert _trick_state_mismatches(trump, joker) == 0, (trump, joker)


@njit
def _winners(cards, trump):
    # The index of the card that takes the trick, by the engine and by masks.
    led, best, best_seat = -1, -1, -1
    m_led, m_best, m_seat, beat = -1, -1, -1, np.int64(0)
    for j in range(cards.shape[0]):
        led, best, best_seat = trick_with(cards[j], j, j, led, best, best_seat, trump, True)
        m_led, m_best, m_seat, beat = trick_with_beaters(
            cards[j], j, j, m_led, m_best, m_seat, beat, trump
        )
    return best_seat, m_seat


@st.composite
def _tricks(draw):
    # A trick of 2-10 cards from two decks with one joker, and a trump.
    size = draw(st.integers(2, 10))
    cards = draw(st.lists(st.integers(0, 51), min_size=size, max_size=size))
    if draw(st.booleans()):
        cards[draw(st.integers(0, size - 1))] = JOKER
    return cards, draw(st.sampled_from(TRUMPS))


@settings(max_examples=300, deadline=None)
@given(_tricks())
def test_a_tricks_winner_by_masks_is_the_references(trick):
    cards, trump = trick
    engine, masks = _winners(np.array(cards, dtype=np.int64), trump)
    assert engine == masks == reference.trick_winner(cards, None if trump < 0 else trump)


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.integers(0, 52), min_size=1, max_size=13),
    st.sampled_from((-1, 0, 1, 2, 3)),
    st.sampled_from(TRUMPS),
)
def test_legal_cards_by_mask_are_the_references(hand, led, trump):
    mask = np.int64(sum(1 << c for c in hand))
    by_mask = int(playable_cards(mask, mask & led_suit_cards(led, trump)))
    _, engine = legal_cards(mask, led, trump, True)
    expected = reference.legal_cards(
        sorted(hand), None if led < 0 else led, None if trump < 0 else trump
    )
    assert by_mask == int(engine) == sum(1 << c for c in expected)


@njit
def _playout_mismatches(state, deals):
    # Random deals (3-7 seats, one sitting out now and then, the joker in half
    # of them, every trump), started from a random point of a trick that the
    # engine played: the playout's winning cards and tricks won against the
    # engine replaying the same policy from the same point.
    mismatches = 0
    deck = np.arange(53)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    replay = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.zeros(V.MAX_SEATS, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    won_replay = np.zeros(V.MAX_SEATS, dtype=np.int64)
    winning = np.zeros(13, dtype=np.int64)
    for _ in range(deals):
        n = 3 + below(state, 5)
        active = (np.int64(1) << n) - 1
        if below(state, 4) == 0:
            active ^= np.int64(1) << below(state, n)
        seats = 0
        for s in range(n):
            seats += (active >> s) & 1
        top = 52 + below(state, 2)
        size = 1 + below(state, (top // seats) if top // seats < 10 else 10)
        trump = below(state, 5) - 1
        for i in range(top):
            k = i + below(state, top - i)
            deck[i], deck[k] = deck[k], deck[i]
        i = 0
        for s in range(n):
            hands[s] = 0
            won[s] = 0
            bids[s] = below(state, size + 1)
            if (active >> s) & 1:
                for _ in range(size):
                    hands[s] |= np.int64(1) << deck[i]
                    i += 1
        # The engine plays the first few cards of the first trick.
        seat = next_seat(below(state, n), active, n)
        led, best, best_seat = -1, -1, -1
        j = below(state, seats)
        for k in range(j):
            _, legal = legal_cards(hands[seat], led if k > 0 else -1, trump, True)
            card = greedy_card(legal, led, trump, k, best, bids[seat] > 0)
            hands[seat] ^= np.int64(1) << card
            led, best, best_seat = trick_with(card, seat, k, led, best, best_seat, trump, True)
            seat = next_seat(seat, active, n)
        for s in range(n):
            replay[s] = hands[s]
            won_replay[s] = 0
        winning[:] = -1
        deal = PlayoutDeal(n, active, trump, hands, won)
        play_out(deal, bids, Trick(seat, j, led, best, best_seat, 0), size, winning)
        # The engine finishes the deal with the same policy.
        for t in range(size):
            while j < seats:
                _, legal = legal_cards(replay[seat], led if j > 0 else -1, trump, True)
                wants = won_replay[seat] < bids[seat]
                card = greedy_card(legal, led, trump, j, best, wants)
                replay[seat] ^= np.int64(1) << card
                led, best, best_seat = trick_with(card, seat, j, led, best, best_seat, trump, True)
                seat = next_seat(seat, active, n)
                j += 1
            won_replay[best_seat] += 1
            if winning[t] != best:
                mismatches += 1
            seat = best_seat
            j = 0
        for s in range(n):
            if won[s] != won_replay[s] or hands[s] != 0 or replay[s] != 0:
                mismatches += 1
    return mismatches


def test_a_playouts_tricks_are_the_engines():
    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, np.uint64(43), 0, 0)
    assert _playout_mismatches(state, 3000) == 0
