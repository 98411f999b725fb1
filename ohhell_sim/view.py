"""What a strategy sees: the layout of the ``view`` array.

A strategy's ``bid`` and ``play`` functions receive ``view``, an ``int64`` array
indexed by the constants below.  It holds exactly what the seated player may know:
their own hand, the trump, the public bids, the cards played so far, the current
trick, everyone's tricks won and scores, shown voids, and the bid the hook forbids
them.  It never holds another player's hand.

Per-seat blocks start at the ``*_BASE`` constants and hold one entry per seat, in
seat order: ``view[BIDS_BASE + s]`` is seat ``s``'s bid (``UNKNOWN`` before it is
made).  Card sets are bit masks (bit ``c`` set for card ``c``, see
:mod:`ohhell_sim.cards`).

The kernel overwrites every field before it is read, so a strategy that writes
into ``view`` harms only itself; treat it as read-only all the same.
"""

from __future__ import annotations

from ohhell_sim.rules import RULES_SIZE

#: Largest table the engine lays out (room for the two-deck variants).
MAX_SEATS = 10
#: Marks a bid not yet made, a trick card not yet played, no forbidden bid, no trump.
UNKNOWN = -1

PHASE_BID = 0
PHASE_PLAY = 1

# Private to the seated player, rewritten before every decision.
SEAT = 0
HAND = 1
LEGAL = 2  # play phase: the cards that may be played now
FORBIDDEN_BID = 3  # bid phase: the bid the hook forbids, or UNKNOWN
PHASE = 4

# Public state of the deal.
N_PLAYERS = 5
DEALER = 6
HAND_SIZE = 7
TRUMP = 8  # suit 0-3, or UNKNOWN for no trump
TRUMP_CARD = 9  # the turned-up card, or UNKNOWN
DEAL = 10  # index of this deal in the schedule
N_DEALS = 11
TRICK = 12  # index of the current trick (play phase)
LEADER = 13  # seat that led the current trick
LED_SUIT = 14  # UNKNOWN while the lead is still to be played
N_IN_TRICK = 15  # cards already in the current trick
PLAYED = 16  # mask of every card played this deal, current trick included
WINNING_SEAT = 17  # seat winning the current trick so far, or UNKNOWN
WINNING_CARD = 18
BID_TOTAL = 19  # sum of the bids visible so far
HOOK = 20  # 1 when the hook rule is in force

BIDS_BASE = 24
TRICKS_WON_BASE = BIDS_BASE + MAX_SEATS
TRICK_CARDS_BASE = TRICKS_WON_BASE + MAX_SEATS  # card each seat played to this trick
VOIDS_BASE = TRICK_CARDS_BASE + MAX_SEATS  # 4-bit suit mask of voids each seat has shown
SCORES_BASE = VOIDS_BASE + MAX_SEATS  # totals before this deal
#: The rules array of :meth:`ohhell_sim.rules.Rules.to_array` (indexed by its ``R_*``).
RULES_BASE = SCORES_BASE + MAX_SEATS
VIEW_SIZE = RULES_BASE + RULES_SIZE

FIELD_NAMES = {
    SEAT: "seat",
    HAND: "hand",
    LEGAL: "legal",
    FORBIDDEN_BID: "forbidden_bid",
    PHASE: "phase",
    N_PLAYERS: "n_players",
    DEALER: "dealer",
    HAND_SIZE: "hand_size",
    TRUMP: "trump",
    TRUMP_CARD: "trump_card",
    DEAL: "deal",
    N_DEALS: "n_deals",
    TRICK: "trick",
    LEADER: "leader",
    LED_SUIT: "led_suit",
    N_IN_TRICK: "n_in_trick",
    PLAYED: "played",
    WINNING_SEAT: "winning_seat",
    WINNING_CARD: "winning_card",
    BID_TOTAL: "bid_total",
    HOOK: "hook",
}


def describe(view) -> dict:
    """Return the fields of ``view`` as a dict (for debugging a strategy in Python)."""
    n = int(view[N_PLAYERS])
    out = {name: int(view[idx]) for idx, name in FIELD_NAMES.items()}
    for base, name in (
        (BIDS_BASE, "bids"),
        (TRICKS_WON_BASE, "tricks_won"),
        (TRICK_CARDS_BASE, "trick_cards"),
        (VOIDS_BASE, "voids"),
        (SCORES_BASE, "scores"),
    ):
        out[name] = [int(view[base + s]) for s in range(n)]
    return out
