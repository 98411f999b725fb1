"""What a strategy sees: the layout of the ``view`` array.

A strategy's ``bid`` and ``play`` functions receive ``view``, an ``int64`` array
indexed by the constants below.  It holds exactly what the seated player may know:
their own hand, the trump, the public bids, the cards played so far, the current
trick, everyone's tricks won and scores, shown voids, and the bid the hook forbids
them.  It never holds another player's hand.

Masks of cards use bit 52 for the joker (joker variant).  With two decks a card
id may be held twice: ``HAND`` holds the cards held at least once, ``HAND2`` those
held twice.

Per-seat blocks start at the ``*_BASE`` constants and hold one entry per seat, in
seat order: ``view[BIDS_BASE + s]`` is seat ``s``'s bid (``UNKNOWN`` before it is
made).  Card sets are bit masks (bit ``c`` set for card ``c``, see
:mod:`ohhell_sim.cards`).

The view is shared by the seats, so strategies receive it read-only (and the
parameter row too): code that assigns to ``view[...]`` does not compile, and the
error names the line (:mod:`ohhell_sim.engine.readonly`).  Work on a copy
(``view.copy()``) to change one.  Legality, scores, faults and winners come from
the kernel's own state in any case.
"""

from __future__ import annotations

from ohhell_sim.rules.layout import RULES_SIZE

#: Largest table the engine lays out (room for the two-deck variants).
MAX_SEATS = 10
#: Marks a bid not yet made, a trick card not yet played, no forbidden bid, no trump.
UNKNOWN = -1

PHASE_BID = 0
PHASE_PLAY = 1
PHASE_SWAP = 2  # choosing a card to pass left (swap variant); LEGAL holds the choices

# Private to the seated player, rewritten before every decision.
SEAT = 0
HAND = 1  # cards held (at least one copy); 0 while bidding in a forehead deal
LEGAL = 2  # play and swap phases: the cards that may be chosen now
FORBIDDEN_BID = 3  # bid phase: the bid the hook forbids, or UNKNOWN
PHASE = 4
HAND2 = 5  # cards held twice (two decks only)
PASSED = 6  # cards this seat passed left in the swap of this deal
RECEIVED = 7  # cards this seat received from the right in the swap

# Public state of the deal.
N_PLAYERS = 8  # seats at the table
DEALER = 9
HAND_SIZE = 10
TRUMP = 11  # suit 0-3, or UNKNOWN for no trump
TRUMP_CARD = 12  # the turned-up card, or UNKNOWN when no card is turned
DEAL = 13  # index of this deal in the schedule (n_deals for a tie-break deal)
N_DEALS = 14
TRICK = 15  # index of the current trick (play phase)
LEADER = 16  # seat that led the current trick
LED_SUIT = 17  # UNKNOWN while the lead is still to be played (or a joker led at no trump)
N_IN_TRICK = 18  # cards already in the current trick
PLAYED = 19  # mask of every card played this deal, current trick included
PLAYED2 = 20  # cards of which both copies were played (two decks only)
WINNING_SEAT = 21  # seat winning the current trick so far, or UNKNOWN
WINNING_CARD = 22
BID_TOTAL = 23  # sum of the bids visible so far
MAX_BID = 24  # largest legal bid: the hand size, or 0 under nullo
ACTIVE = 25  # mask of the seats playing this deal (eliminated or not in a tie-break: out)
N_ACTIVE = 26
# 1 when the hook binds the dealer of this deal: hook=True, and not a one-card deal
# under hook_one_card=False (the rules block holds the code: RULES_BASE + R_HOOK).
HOOK = 27
TIEBREAK = 28  # 1 in the sudden-death tie-break deal

BIDS_BASE = 32
TRICKS_WON_BASE = BIDS_BASE + MAX_SEATS
TRICK_CARDS_BASE = TRICKS_WON_BASE + MAX_SEATS  # card each seat played to this trick
VOIDS_BASE = TRICK_CARDS_BASE + MAX_SEATS  # 4-bit suit mask of voids each seat has shown
SCORES_BASE = VOIDS_BASE + MAX_SEATS  # totals before this deal
FAULTS_BASE = SCORES_BASE + MAX_SEATS  # fault counters (catastrophe variant)
VISIBLE_BASE = FAULTS_BASE + MAX_SEATS  # others' cards in a forehead deal, else UNKNOWN
#: The rules array of :meth:`ohhell_sim.rules.Rules.to_array` (indexed by its ``R_*``).
RULES_BASE = VISIBLE_BASE + MAX_SEATS
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
    HAND2: "hand2",
    PASSED: "passed",
    RECEIVED: "received",
    PLAYED2: "played2",
    MAX_BID: "max_bid",
    ACTIVE: "active",
    N_ACTIVE: "n_active",
    TIEBREAK: "tiebreak",
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
        (FAULTS_BASE, "faults"),
        (VISIBLE_BASE, "visible"),
    ):
        out[name] = [int(view[base + s]) for s in range(n)]
    return out
