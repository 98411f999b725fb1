"""The game loop and the parallel batch kernel.

``play_game`` plays one whole game into per-deal output rows; ``run_games`` plays a
batch of games across threads.  Games are independent and each draws only from its
own random streams (:mod:`ohhell_sim.engine.rng`), so the results do not depend on
the number of threads or on how the games are chunked.

This module is also a template: for seatings with user strategies,
:mod:`ohhell_sim.engine.dispatch` writes a copy of it whose dispatch import (the
line marked ``dispatch-import``) is replaced by a dispatch that includes them.  It
must therefore use absolute imports only.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ohhell_sim import view as V
from ohhell_sim.engine.builtin_dispatch import dispatch_bid, dispatch_play  # dispatch-import
from ohhell_sim.engine.core import (
    beats,
    cut_for_dealer,
    deal_cards,
    deal_points,
    forbidden_bid,
    legal_cards,
)
from ohhell_sim.engine.rng import STREAM_CUT, STREAM_DEAL, STREAM_SEAT, game_key, seed_stream
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    ERR_NONE,
)
from ohhell_sim.rules import R_HOOK, R_N_DEALS, R_PLAYERS, RULES_SIZE

#: Games per work unit of a thread; each unit allocates its workspace once.
CHUNK_GAMES = 64
#: Fields of an error record: code, deal, seat, move (bid or card), trick (-1 in bidding).
ERROR_FIELDS = 5


@njit(cache=True)
def _fail(err, code, deal, seat, move, trick):
    err[0] = code
    err[1] = deal
    err[2] = seat
    err[3] = move
    err[4] = trick
    return code


@njit(cache=True)
def play_game(
    game,
    seed,
    rules,
    schedule,
    sids,
    params,
    rngs,
    deck,
    view,
    hands,
    dealers,
    trumps,
    bids,
    tricks,
    scores,
    err,
):
    """Play game number ``game`` and write its deals into the output rows.

    ``dealers``/``trumps`` have one entry per deal; ``bids``/``tricks``/``scores``
    are ``(deals, seats)``.  ``rngs`` is ``(MAX_SEATS + 1, 4)``: one stream per seat
    and one for the cut and the deals.  Returns an error code (0 when the game
    completed); on error, ``err`` holds the record described by ``ERROR_FIELDS``.
    """
    n = rules[R_PLAYERS]
    hook = rules[R_HOOK]
    table = rngs[V.MAX_SEATS]
    key = game_key(seed, game)
    for s in range(n):
        seed_stream(rngs[s], key, STREAM_SEAT, s)
        view[V.SCORES_BASE + s] = 0
    seed_stream(table, key, STREAM_CUT, 0)
    dealer = cut_for_dealer(table, n, deck)

    view[V.N_PLAYERS] = n
    view[V.N_DEALS] = rules[R_N_DEALS]
    view[V.HOOK] = hook
    for i in range(RULES_SIZE):
        view[V.RULES_BASE + i] = rules[i]
    for d in range(rules[R_N_DEALS]):
        hand_size = schedule[d]
        seed_stream(table, key, STREAM_DEAL, d)
        trump_card = deal_cards(table, deck, n, hand_size, dealer, hands)
        trump = trump_card // 13
        dealers[d] = dealer
        trumps[d] = trump

        view[V.DEAL] = d
        view[V.DEALER] = dealer
        view[V.HAND_SIZE] = hand_size
        view[V.TRUMP] = trump
        view[V.TRUMP_CARD] = trump_card
        view[V.PHASE] = V.PHASE_BID
        view[V.TRICK] = V.UNKNOWN
        view[V.LEADER] = V.UNKNOWN
        view[V.LED_SUIT] = V.UNKNOWN
        view[V.N_IN_TRICK] = 0
        view[V.PLAYED] = 0
        view[V.WINNING_SEAT] = V.UNKNOWN
        view[V.WINNING_CARD] = V.UNKNOWN
        view[V.LEGAL] = 0
        view[V.BID_TOTAL] = 0
        for s in range(n):
            view[V.BIDS_BASE + s] = V.UNKNOWN
            view[V.TRICKS_WON_BASE + s] = 0
            view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
            view[V.VOIDS_BASE + s] = 0
            tricks[d, s] = 0

        # Bidding, from the dealer's left; the dealer bids last.
        total = 0
        seat = dealer
        for _ in range(n):
            seat = seat + 1 if seat + 1 < n else 0
            forbidden = forbidden_bid(hook, hand_size, total) if seat == dealer else -1
            view[V.SEAT] = seat
            view[V.HAND] = hands[seat]
            view[V.FORBIDDEN_BID] = forbidden
            bid = dispatch_bid(sids[seat], view, params[seat], rngs[seat])
            if bid < 0 or bid > hand_size:
                return _fail(err, ERR_BID_RANGE, d, seat, bid, -1)
            if bid == forbidden:
                return _fail(err, ERR_BID_HOOK, d, seat, bid, -1)
            bids[d, seat] = bid
            total += bid
            view[V.BIDS_BASE + seat] = bid
            view[V.BID_TOTAL] = total

        # Play: the dealer's left leads the first trick, each winner the next.
        view[V.PHASE] = V.PHASE_PLAY
        view[V.FORBIDDEN_BID] = V.UNKNOWN
        leader = dealer + 1 if dealer + 1 < n else 0
        played = np.int64(0)
        for t in range(hand_size):
            view[V.TRICK] = t
            view[V.LEADER] = leader
            view[V.LED_SUIT] = V.UNKNOWN
            view[V.WINNING_SEAT] = V.UNKNOWN
            view[V.WINNING_CARD] = V.UNKNOWN
            for s in range(n):
                view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
            led = -1
            best = -1
            best_seat = -1
            seat = leader
            for j in range(n):
                view[V.N_IN_TRICK] = j
                hand = hands[seat]
                legal = legal_cards(hand, led)
                view[V.SEAT] = seat
                view[V.HAND] = hand
                view[V.LEGAL] = legal
                card = dispatch_play(sids[seat], view, params[seat], rngs[seat])
                if card < 0 or card >= 52 or (hand >> card) & 1 == 0:
                    return _fail(err, ERR_CARD_NOT_IN_HAND, d, seat, card, t)
                if (legal >> card) & 1 == 0:
                    return _fail(err, ERR_MUST_FOLLOW, d, seat, card, t)
                bit = np.int64(1) << card
                hands[seat] = hand ^ bit
                played |= bit
                if j == 0:
                    led = card // 13
                    best = card
                    best_seat = seat
                    view[V.LED_SUIT] = led
                else:
                    if card // 13 != led:
                        view[V.VOIDS_BASE + seat] |= np.int64(1) << led
                    if beats(card, best, trump):
                        best = card
                        best_seat = seat
                view[V.TRICK_CARDS_BASE + seat] = card
                view[V.PLAYED] = played
                view[V.WINNING_SEAT] = best_seat
                view[V.WINNING_CARD] = best
                seat = seat + 1 if seat + 1 < n else 0
            tricks[d, best_seat] += 1
            view[V.TRICKS_WON_BASE + best_seat] += 1
            leader = best_seat

        for s in range(n):
            points = deal_points(np.int64(bids[d, s]), np.int64(tricks[d, s]), hand_size, rules)
            scores[d, s] = points
            view[V.SCORES_BASE + s] += points
        dealer = dealer + 1 if dealer + 1 < n else 0
    return ERR_NONE


@njit(cache=True)
def new_workspace():
    """Scratch arrays for ``play_game``: streams, deck, view, hands."""
    rngs = np.zeros((V.MAX_SEATS + 1, 4), dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    view = np.full(V.VIEW_SIZE, V.UNKNOWN, dtype=np.int64)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    return rngs, deck, view, hands


@njit(cache=True, parallel=True)
def run_games(
    first_game,
    seed,
    rules,
    schedule,
    sids,
    params,
    dealers,
    trumps,
    bids,
    tricks,
    scores,
    errors,
    abort,
):
    """Play games ``first_game .. first_game + len(bids) - 1`` into the output arrays.

    Outputs: ``dealers``/``trumps`` ``(games, deals)``; ``bids``/``tricks``/``scores``
    ``(games, deals, seats)``; ``errors`` ``(games, ERROR_FIELDS)``, zero where a
    game completed.  ``abort`` (one element) is raised by the first failing game so
    that the others stop early.
    """
    n_games = bids.shape[0]
    n_chunks = (n_games + CHUNK_GAMES - 1) // CHUNK_GAMES
    for c in prange(n_chunks):
        rngs, deck, view, hands = new_workspace()
        stop = min(n_games, (c + 1) * CHUNK_GAMES)
        for g in range(c * CHUNK_GAMES, stop):
            if abort[0] != 0:
                break
            code = play_game(
                first_game + g,
                seed,
                rules,
                schedule,
                sids,
                params,
                rngs,
                deck,
                view,
                hands,
                dealers[g],
                trumps[g],
                bids[g],
                tricks[g],
                scores[g],
                errors[g],
            )
            if code != ERR_NONE:
                abort[0] = 1
