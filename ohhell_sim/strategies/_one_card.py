"""The exact bid of the one-card deal, looked up in tables solved by :mod:`ohhell_sim.exact`.

In a deal of one card each the play has no choice, so the bids are the whole
game, and :func:`ohhell_sim.exact.solve_one_card` solves them: each position, in
bidding order, bids what maximises its expected points given its card, the
trump and the bids before it, knowing the solved policy of the positions before
it (the lowest of equal bids).  ``tables/one_card.npz`` holds that policy,
made by ``python -m ohhell_sim.training.one_card_tables``, and
:func:`one_card_bid` reads it from a strategy's ``view``.

What the tables cover.  The solved bid depends on the scoring tables only
through the *scoring ratio*: with ``P(b, w)`` the points of bid ``b`` with
``w`` tricks, bidding 1 beats bidding 0 exactly when
``d1 * wins + d0 * (deals - wins) > 0`` for ``d0 = P(1, 0) - P(0, 0)`` and
``d1 = P(1, 1) - P(0, 1)``, so every scoring with the same ``(d0, d1)`` up to a
positive factor has the same solution.  The tables hold the ratios of the
canonical scoring and of each scoring table changed alone (``made``, ``zero``,
``over``, ``under``, and one table for both misses), for 3-7 players, bids in
the open or closed, and every trump (a turned-up card, a fixed suit, no trump).
The hook binds the dealer alone, who bids last, so the tables are solved
without it and the dealer takes the other bid when the hook forbids the
solved one: of two bids, the only one left.

Space.  Trump is relabelled to suit 0 and the side suits, which play alike, to
suit 1 (at no trump every suit is suit 1): a context (the turned-up card's
rank, or a fixed trump, or no trump), a card class (``13 * suit + rank`` after
the relabelling), a position and the bids before it (``sum(bid_q << q)``) index
one entry: the bid, or -1 where no deal of the solved profile reaches the
entry.  There, as outside the tables' rules, :func:`one_card_bid` returns -1
and the caller bids its own way.  The entries are packed four to a byte (the
bid plus one in two bits), which keeps the tables under Numba's limit for an
array frozen into cached code (1 MB).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import deal_points
from ohhell_sim.rules import R_CLOSED_BIDS, R_DECKS, R_FAULT_LIMIT, R_FOREHEAD, R_JOKER, R_SWAP
from ohhell_sim.strategies.tables import TABLES_DIR
from ohhell_sim.strategy.tools import lowest_card

TABLE_FILE = "one_card.npz"
#: Table sizes the tables hold (one deck).
MIN_PLAYERS = 3
MAX_PLAYERS = 7
RANKS = 13
#: Contexts: the turned-up card's rank (0-12), a fixed trump suit, no trump.
CONTEXT_FIXED = RANKS
CONTEXT_NO_TRUMP = RANKS + 1
CONTEXTS = RANKS + 2
#: Card classes: the trump suit's ranks, then a side suit's.
CLASSES = 2 * RANKS


@njit
def scoring_ratio(rules):
    """``(d0, d1)`` of a one-card deal under the kernel's ``rules`` array, in lowest terms.

    ``d0`` is what bidding 1 instead of 0 gains when the card loses (a loss
    in every ratio the tables hold), ``d1`` when it wins.  Both 0 when the
    bid never matters.
    """
    d0 = deal_points(1, 0, 1, rules) - deal_points(0, 0, 1, rules)
    d1 = deal_points(1, 1, 1, rules) - deal_points(0, 1, 1, rules)
    a, b = abs(d0), abs(d1)
    while b != 0:
        a, b = b, a % b
    if a == 0:
        return 0, 0
    return d0 // a, d1 // a


@njit
def table_index(ratios, d0, d1):
    """The row of ``ratios`` holding the ratio ``(d0, d1)``, or -1."""
    for t in range(ratios.shape[0]):
        if ratios[t, 0] == d0 and ratios[t, 1] == d1:
            return t
    return -1


@njit
def entry_index(players, position, context, card_class, history, closed):
    """Offset of an entry in one ``(ratio, closed, players)`` block of the flat policy."""
    width = 1 if closed else 1 << (players - 1)
    return ((position * CONTEXTS + context) * CLASSES + card_class) * width + history


@njit
def card_context(card, trump, turned):
    """``(context, card class)`` of a seat's ``card`` under ``trump`` and the ``turned`` card."""
    rank = card % RANKS
    if turned >= 0:
        context = turned % RANKS
    elif trump >= 0:
        context = CONTEXT_FIXED
    else:
        context = CONTEXT_NO_TRUMP
    if trump >= 0 and card // RANKS == trump:
        return context, rank
    return context, RANKS + rank


def pack_policy(entries: np.ndarray) -> np.ndarray:
    """Entries of -1, 0 or 1 packed four to a ``uint8``.

    Entry ``i`` is ``(packed[i // 4] >> 2 * (i % 4)) & 3``, less one.
    """
    codes = np.zeros(-(-entries.size // 4) * 4, dtype=np.uint8)
    codes[: entries.size] = entries.astype(np.int64) + 1
    quads = codes.reshape(-1, 4)
    return (quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6).astype(np.uint8)


def unpack_policy(packed: np.ndarray) -> np.ndarray:
    """The ``int8`` entries of :func:`pack_policy`'s bytes (four a byte)."""
    shifts = np.arange(4, dtype=np.uint8) * 2
    return ((packed[:, None] >> shifts) & 3).astype(np.int8).ravel() - 1


@njit
def policy_entry(packed, index):
    """Entry ``index`` of a packed policy: the bid, or -1."""
    return np.int64((packed[index >> 2] >> (2 * (index & 3))) & 3) - 1


@njit
def lookup_bid(policy, offsets, ratios, view):
    """The exact bid of ``view`` in the tables ``(policy, offsets, ratios)``, or -1.

    ``policy`` is packed (:func:`pack_policy`).

    -1 outside the tables: not a one-card bid with a choice, rules the solver
    does not model (two decks, the joker, the swap, the forehead deal, faults),
    seats out of the deal, a table size or scoring ratio not solved, or a bid
    history the solved policy never makes.
    """
    if view[V.PHASE] != V.PHASE_BID or view[V.HAND_SIZE] != 1 or view[V.MAX_BID] != 1:
        return -1
    rules = view[V.RULES_BASE :]
    if (
        rules[R_DECKS] != 1
        or rules[R_JOKER] != 0
        or rules[R_SWAP] != 0
        or rules[R_FOREHEAD] != 0
        or rules[R_FAULT_LIMIT] != 0
    ):
        return -1
    n = view[V.N_PLAYERS]
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or view[V.N_ACTIVE] != n:
        return -1
    d0, d1 = scoring_ratio(rules)
    table = table_index(ratios, d0, d1)
    if table < 0:
        return -1
    dealer = view[V.DEALER]
    position = (view[V.SEAT] - dealer - 1) % n
    # Under closed bids the solved seat sees no bid before its own.
    closed = rules[R_CLOSED_BIDS] != 0
    history = 0
    if not closed:
        for q in range(position):
            b = view[V.BIDS_BASE + (dealer + 1 + q) % n]
            if b != 0 and b != 1:
                return -1
            history |= b << q
    context, card_class = card_context(lowest_card(view[V.HAND]), view[V.TRUMP], view[V.TRUMP_CARD])
    start = offsets[table, int(closed), n - MIN_PLAYERS]
    if start < 0:
        return -1
    bid = policy_entry(
        policy, start + entry_index(n, position, context, card_class, history, closed)
    )
    if bid >= 0 and bid == view[V.FORBIDDEN_BID]:
        return 1 - bid
    return bid


def load_tables(path=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(policy, offsets, ratios)`` of a tables file (default: the shipped one).

    ``policy`` is the flat policy, packed (:func:`pack_policy`),
    ``offsets[ratio, closed, players - 3]`` the entry where each block starts
    (-1: not solved), ``ratios`` the ``(d0, d1)`` of each ratio row.  A missing
    file covers nothing.
    """
    path = path or TABLES_DIR / TABLE_FILE
    if not Path(path).exists():
        # While no tables exist yet (making the first ones): nothing is covered.
        return (
            np.zeros(1, dtype=np.uint8),
            np.zeros((0, 2, MAX_PLAYERS - MIN_PLAYERS + 1), dtype=np.int64),
            np.zeros((0, 2), dtype=np.int64),
        )
    with np.load(path) as data:
        return (
            np.ascontiguousarray(data["policy"], dtype=np.uint8),
            np.ascontiguousarray(data["offsets"], dtype=np.int64),
            np.ascontiguousarray(data["ratios"], dtype=np.int64),
        )


#: The shipped tables; numba freezes these globals into the compiled code.
POLICY, OFFSETS, RATIOS = load_tables()


@njit
def one_card_bid(view):
    """The exact bid of a one-card deal from the shipped tables, or -1 outside them.

    See :func:`lookup_bid`.  A strategy calls it first and bids its own way on -1.
    """
    return lookup_bid(POLICY, OFFSETS, RATIOS, view)
