"""User strategies for the tests: Numba functions that live outside the package.

Every generated kernel costs a compile of several seconds, so most tests share
one user strategy, ``tester``, whose behaviour is chosen by its first parameter
(``mode``); parameters are data, so switching modes recompiles nothing.

Modes
-----
``MODE_SCRIPTED``
    Bid ``params[1 + position]``, where ``position`` is the seat's place in the
    bidding order (0 = left of the dealer, ``n - 1`` = the dealer); play a random
    legal card.  The bid is returned as scripted even when illegal.
``MODE_BID_TOO_HIGH`` / ``MODE_NEGATIVE_BID``
    Bid ``hand size + 1`` / ``-1``.
``MODE_NOT_IN_HAND``
    A legal random bid, then play the lowest card that is *not* in the hand.
``MODE_NO_FOLLOW``
    A legal random bid; when following while holding the led suit and another
    suit, play a card of another suit (revoke); otherwise a random legal card.
``MODE_LEAD_TRUMP``
    A legal random bid; when leading, lead the highest trump held (if any);
    otherwise a random legal card.
``MODE_VIEW_HASH``
    Bid and play from a hash of the *whole* view, the parameter row and a random
    draw: any difference between the kernel's view and the reference engine's
    changes the game, so engine equivalence covers the views too.
``MODE_VIEW_CHECK``
    Random legal moves, but return ``VIEW_ERROR`` (an illegal bid or card) as soon
    as a view invariant fails, so a broken view surfaces as an ``IllegalMoveError``
    whose move is ``VIEW_ERROR``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import (
    below,
    highest_card,
    lowest_card,
    nth_card,
    popcount,
    random_legal_bid,
    random_legal_card,
    suit_mask,
)

MODE_SCRIPTED = 0
MODE_BID_TOO_HIGH = 1
MODE_NOT_IN_HAND = 2
MODE_NO_FOLLOW = 3
MODE_LEAD_TRUMP = 4
MODE_VIEW_HASH = 5
MODE_VIEW_CHECK = 6
MODE_NEGATIVE_BID = 7

#: Returned by ``MODE_VIEW_CHECK`` when the view breaks an invariant.
VIEW_ERROR = -99

FULL_DECK = (1 << 52) - 1

TESTER_PARAMS = {
    "mode": float(MODE_VIEW_HASH),
    "b0": 0.0,
    "b1": 0.0,
    "b2": 0.0,
    "b3": 0.0,
    "b4": 0.0,
    "b5": 0.0,
    "b6": 0.0,
}


def scripted(bids_by_position, mode=MODE_SCRIPTED):
    """Seat spec of ``tester`` bidding ``bids_by_position`` (0 = left of the dealer)."""
    params = {"mode": float(mode)}
    for i, b in enumerate(bids_by_position):
        params[f"b{i}"] = float(b)
    return ("tester", params)


def mode(m):
    """Seat spec of ``tester`` in mode ``m``."""
    return ("tester", {"mode": float(m)})


@njit
def _position(view):
    n = view[V.N_PLAYERS]
    return (view[V.SEAT] - view[V.DEALER] - 1 + n) % n


@njit
def _view_hash(view, params, rng):
    h = np.int64(1469598103)
    for i in range(view.shape[0]):
        h = h * np.int64(1000003) + view[i]
    for i in range(params.shape[0]):
        h = h * np.int64(1000003) + np.int64(params[i] * 1024.0)
    h = h * np.int64(1000003) + below(rng, 1 << 20)
    return (h >> np.int64(13)) & np.int64(0x7FFFFFFF)


@njit
def _bid_view_ok(view):
    n = view[V.N_PLAYERS]
    seat = view[V.SEAT]
    dealer = view[V.DEALER]
    hand = view[V.HAND]
    hand_size = view[V.HAND_SIZE]
    if view[V.PHASE] != V.PHASE_BID:
        return False
    if popcount(hand) != hand_size or hand & ~FULL_DECK != 0:
        return False
    if view[V.PLAYED] != 0 or view[V.LEGAL] != 0:
        return False
    if view[V.TRUMP] != view[V.TRUMP_CARD] // 13:
        return False
    if (hand >> view[V.TRUMP_CARD]) & 1 != 0:
        return False
    if view[V.DEAL] < 0 or view[V.DEAL] >= view[V.N_DEALS]:
        return False
    # Bids of the seats before this one are known, the others are not.
    pos = _position(view)
    total = 0
    for k in range(n):
        s = (dealer + 1 + k) % n
        b = view[V.BIDS_BASE + s]
        if k < pos:
            if b < 0 or b > hand_size:
                return False
            total += b
        elif b != V.UNKNOWN:
            return False
        if view[V.TRICKS_WON_BASE + s] != 0:
            return False
    if total != view[V.BID_TOTAL]:
        return False
    # The hook: only the dealer is restricted, and only by the missing total.
    forbidden = view[V.FORBIDDEN_BID]
    expected = -1
    if seat == dealer and view[V.HOOK] == 1:
        missing = hand_size - total
        if 0 <= missing <= hand_size:
            expected = missing
    return forbidden == expected


@njit
def _play_view_ok(view):
    n = view[V.N_PLAYERS]
    seat = view[V.SEAT]
    hand = view[V.HAND]
    legal = view[V.LEGAL]
    played = view[V.PLAYED]
    trick = view[V.TRICK]
    in_trick = view[V.N_IN_TRICK]
    if view[V.PHASE] != V.PHASE_PLAY or view[V.FORBIDDEN_BID] != V.UNKNOWN:
        return False
    if popcount(hand) != view[V.HAND_SIZE] - trick:
        return False
    if legal == 0 or legal & ~hand != 0 or hand & played != 0:
        return False
    if popcount(played) != trick * n + in_trick:
        return False
    if (played >> view[V.TRUMP_CARD]) & 1 != 0:
        return False
    if seat != (view[V.LEADER] + in_trick) % n:
        return False
    won = 0
    for s in range(n):
        won += view[V.TRICKS_WON_BASE + s]
        if view[V.BIDS_BASE + s] < 0:
            return False
    if won != trick:
        return False
    if in_trick == 0:
        if legal != hand or view[V.LED_SUIT] != V.UNKNOWN:
            return False
    else:
        led = view[V.LED_SUIT]
        follow = hand & suit_mask(led)
        if follow != 0 and legal != follow:
            return False
        if follow == 0 and legal != hand:
            return False
        leader_card = view[V.TRICK_CARDS_BASE + view[V.LEADER]]
        if leader_card < 0 or leader_card // 13 != led:
            return False
        if view[V.WINNING_SEAT] < 0 or view[V.WINNING_CARD] < 0:
            return False
        if view[V.TRICK_CARDS_BASE + view[V.WINNING_SEAT]] != view[V.WINNING_CARD]:
            return False
    return True


@njit
def tester_bid(view, params, rng):
    m = int(params[0])
    hand_size = view[V.HAND_SIZE]
    if m == MODE_SCRIPTED:
        return int(params[1 + _position(view)])
    if m == MODE_BID_TOO_HIGH:
        return hand_size + 1
    if m == MODE_NEGATIVE_BID:
        return -1
    if m == MODE_VIEW_HASH:
        most = view[V.MAX_BID]
        forbidden = view[V.FORBIDDEN_BID]
        excluded = 0 <= forbidden <= most
        b = _view_hash(view, params, rng) % (most if excluded else most + 1)
        return b + 1 if excluded and b >= forbidden else b
    if m == MODE_VIEW_CHECK and not _bid_view_ok(view):
        return VIEW_ERROR
    return random_legal_bid(view, rng)


@njit
def tester_play(view, params, rng):
    m = int(params[0])
    hand = view[V.HAND]
    legal = view[V.LEGAL]
    if m == MODE_NOT_IN_HAND:
        return lowest_card(~hand & FULL_DECK)
    if m == MODE_NO_FOLLOW:
        if view[V.N_IN_TRICK] > 0 and legal != hand:
            return lowest_card(hand & ~legal)
        return random_legal_card(view, rng)
    if m == MODE_LEAD_TRUMP:
        trump = view[V.TRUMP]
        if view[V.N_IN_TRICK] == 0 and trump >= 0:
            trumps = hand & suit_mask(trump)
            if trumps != 0:
                return highest_card(trumps)
        return random_legal_card(view, rng)
    if m == MODE_VIEW_HASH:
        return nth_card(legal, _view_hash(view, params, rng) % popcount(legal))
    if m == MODE_VIEW_CHECK and not _play_view_ok(view):
        return VIEW_ERROR
    return random_legal_card(view, rng)


def register_tester():
    """Register ``tester`` (idempotent within a process) and return it."""
    return register_strategy(
        "tester",
        tester_bid,
        tester_play,
        params=TESTER_PARAMS,
        description="Multi-mode strategy for the engine tests.",
        stochastic=True,
        replace=True,
    )


_CONSTANT_BIDDER = """
@njit
def bid(view, params, rng):
    want = min(BID, view[V.HAND_SIZE])
    if want == view[V.FORBIDDEN_BID]:
        want = want - 1 if want > 0 else want + 1
    return want


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])
"""


def make_constant_bidder(value):
    """``(bid, play)`` with identical code whose bid reads the module global ``BID``.

    Two calls with different values give functions that differ only in that global,
    as when a notebook cell defining ``BID = ...`` is edited and re-run.
    """
    namespace = {"njit": njit, "V": V, "lowest_card": lowest_card, "BID": value}
    exec(compile(_CONSTANT_BIDDER, f"<constant bidder {value}>", "exec"), namespace)
    return namespace["bid"], namespace["play"]
