"""The game around its deals: its start, who plays each deal, the faults, the winners.

The kernel's game loop (:mod:`ohhell_sim.engine.game`) and the batched
environment (:mod:`ohhell_sim.env.batched`) play a game with these functions and
each deal with :mod:`ohhell_sim.engine.deal`.  A game starts
(:func:`start_game`: the streams of game ``g``, the cut for the first dealer);
before each deal row :func:`deal_seats` says who plays it and with how many
cards (every seat still in, or, in the tie-break deal, the leaders) and
:func:`deal_dealer` who deals it; after it, under the catastrophe rule,
:func:`count_faults` puts out the seats whose misses reach the limit; the
game's winners are :func:`game_winners` (or, after a tie-break deal, the
winners of that deal among the leaders).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import cut_for_dealer, next_seat
from ohhell_sim.engine.rng import STREAM_CUT, STREAM_SEAT, game_key, seed_stream
from ohhell_sim.engine.workspace import top_seats
from ohhell_sim.rules.layout import (
    R_N_DEALS,
    R_PLAYERS,
    RULES_SIZE,
    TIEBREAK_HAND_SIZE,
)


@njit(inline="always")
def start_game(seat_view, rngs, totals, deck, rules, seed, game):
    """Start game ``game`` of the run seeded ``seed``; return ``(key, dealer)``.

    Seeds each seat's stream and the table's from the game's ``key``, sets the
    totals and the shown faults to 0 and the view's game fields, and cuts for
    the first dealer.
    """
    n = rules[R_PLAYERS]
    key = game_key(seed, game)
    for s in range(n):
        seed_stream(rngs[s], key, STREAM_SEAT, s)
        totals[s] = 0
        seat_view[V.FAULTS_BASE + s] = 0
    table = rngs[V.MAX_SEATS]
    seed_stream(table, key, STREAM_CUT, 0)
    dealer = cut_for_dealer(table, n, deck)
    seat_view[V.N_PLAYERS] = n
    seat_view[V.N_DEALS] = rules[R_N_DEALS]
    for i in range(RULES_SIZE):
        seat_view[V.RULES_BASE + i] = rules[i]
    seat_view[V.PASSED] = 0
    seat_view[V.RECEIVED] = 0
    seat_view[V.HAND2] = 0
    return key, dealer


@njit(inline="always")
def deal_seats(d, n_deals, active, last_active, totals, hand_sizes, n):
    """Who plays deal row ``d`` and with how many cards: ``(players, hand_size, tiebreak)``.

    The scheduled deals are played by the ``active`` seats; row ``n_deals`` is
    the tie-break deal (``tiebreak`` 1), played by the seats with the most
    points among those still in (if the last deal put everyone out, among the
    seats in before it, ``last_active``), with :data:`TIEBREAK_HAND_SIZE`
    cards.  A deal of fewer than two players is not played.
    """
    if d == n_deals:
        players = top_seats(totals, active if active != 0 else last_active, n)
        return players, TIEBREAK_HAND_SIZE, 1
    return active, hand_sizes[d], 0


@njit(inline="always")
def deal_dealer(dealer, players, n):
    """The dealer of a deal: ``dealer``, or the next of the ``players`` when it is out."""
    if (players >> dealer) & 1 == 0:
        return next_seat(dealer, players, n)
    return dealer


@njit(inline="always")
def count_faults(bids, tricks, before, faults, first, active, fault_limit, seat_view, n):
    """Catastrophe: add a scheduled deal's misses to the faults; return the seats still in.

    ``before`` are the faults before the deal (ignored for the ``first`` deal,
    which starts from none), ``faults`` receives them after it (the same array
    may be both).  A seat whose faults reach ``fault_limit`` is out.
    """
    for s in range(n):
        count = np.int64(before[s]) if not first else np.int64(0)
        if (active >> s) & 1 and bids[s] != tricks[s]:
            count += abs(np.int64(bids[s]) - np.int64(tricks[s]))
            if count >= fault_limit:
                active &= ~(np.int64(1) << s)
        faults[s] = count
        seat_view[V.FAULTS_BASE + s] = count
    return active


@njit(inline="always")
def carry_faults(before, faults, first, seat_view, n):
    """The faults after a deal that counts none (a tie-break deal, one not played)."""
    for s in range(n):
        count = np.int64(before[s]) if not first else np.int64(0)
        faults[s] = count
        seat_view[V.FAULTS_BASE + s] = count


@njit(inline="always")
def game_winners(totals, active, last_active, n):
    """The seats with the most points among those still in (all out: those of the last deal)."""
    return top_seats(totals, active if active != 0 else last_active, n)
