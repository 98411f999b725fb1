"""``learned``: bids from a table of trick-count distributions learned by simulation.

The table gives P(tricks = k | hand features) for each table size (3-7
players) and hand size, where the features of a hand are its trump count (0-4+,
or "no-trump deal"), its high trumps (ace, king, queen of trumps and the joker:
0-3+), side aces (0-3+), side kings (0-2+) and the bidding position (first
bidder, who also leads; middle; dealer).  It was fitted by simulation
(:func:`train_bid_table`, ``ohhell train-bids``): random deals, trump and
no-trump, bid with ``simple``'s count and played out with ``simple``'s greedy play in
every seat, counting each seat's tricks by its features.  To bid, the learned
distribution of the hand's cell is blended with the Poisson-binomial
distribution of ``expected_tricks``'s per-card probabilities, weighted by the
cell's number of observations against ``prior_weight`` pseudo-observations (so
rare cells, and table sizes or hand sizes beyond the table, lean on the card
table), and the strategy bids the legal bid of highest expected points under the
active scoring tables (:func:`ohhell_sim.strategies._common.best_bid`), never below its
boss trumps (a cell pools hands whose high trumps are not all sure tricks).  This is the
classic table-based (counting) bidding model, learned instead of hand-written.
The shipped table (``ohhell_sim/strategies/tables/learned_bids.npz``) covers the canonical
profile: 3-7 players, hand sizes up to the canonical start (10, 8 for six, 7
for seven).

Play is ``card_counter``'s (:mod:`ohhell_sim.strategies._counting`).

Parameters: ``prior_weight`` = 20.0.  Deterministic.

A user-trained table can back a user strategy: load it with
:func:`load_bid_table` into module globals of your own and call
:func:`learned_bid` with them from a registered ``bid`` function.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.arguments import check_seed
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.core import next_seat
from ohhell_sim.engine.rng import game_key, seed_stream
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import canonical_start
from ohhell_sim.strategies._common import (
    ACE,
    KING,
    QUEEN,
    best_bid,
    forehead_bid,
    is_forehead_bid,
    trump_mask,
)
from ohhell_sim.strategies._counting import counting_play
from ohhell_sim.strategies._playout import simulated_deal
from ohhell_sim.strategies.expected_tricks import card_probability
from ohhell_sim.strategies.tables import TABLES_DIR, save_arrays
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import lowest_card, popcount

TABLE_FILE = "learned_bids.npz"
MIN_PLAYERS = 3
MAX_PLAYERS = 7
#: Feature sizes: trump count (0-4+, 5 = no-trump deal), high trumps, side aces,
#: side kings, bidding position.
N_TRUMPS, N_HIGH, N_ACES, N_KINGS, N_POSITIONS = 6, 4, 4, 3, 3
N_CELLS = N_TRUMPS * N_HIGH * N_ACES * N_KINGS * N_POSITIONS
#: Probabilities are stored as bytes (P * 255) to keep the table small.
_QUANTUM = 255.0


@njit
def hand_cell(hand, trump, position):
    """Feature cell of ``hand`` (see the module docstring); ``position`` 0-2."""
    if trump < 0:
        n_trumps = N_TRUMPS - 1
        high = 1 if (hand >> JOKER) & 1 else 0
    else:
        trumps = hand & trump_mask(trump)
        n_trumps = min(popcount(trumps), 4)
        high = (
            ((hand >> JOKER) & 1)
            + ((hand >> (13 * trump + ACE)) & 1)
            + ((hand >> (13 * trump + KING)) & 1)
            + ((hand >> (13 * trump + QUEEN)) & 1)
        )
    aces = 0
    kings = 0
    for suit in range(4):
        if suit != trump:
            aces += (hand >> (13 * suit + ACE)) & 1
            kings += (hand >> (13 * suit + KING)) & 1
    cell = n_trumps
    cell = cell * N_HIGH + min(high, N_HIGH - 1)
    cell = cell * N_ACES + min(aces, N_ACES - 1)
    cell = cell * N_KINGS + min(kings, N_KINGS - 1)
    return cell * N_POSITIONS + position


@njit
def bid_position(seat, dealer, active, n):
    """0 for the first bidder (who leads), 2 for the dealer, 1 between."""
    if seat == dealer:
        return 2
    return 0 if seat == next_seat(dealer, active, n) else 1


@njit
def card_prior(view, out):
    """Poisson-binomial P(k tricks) of ``expected_tricks``'s per-card probabilities."""
    h = view[V.HAND_SIZE]
    trump = view[V.TRUMP]
    players = view[V.N_ACTIVE]
    out[:] = 0.0
    out[0] = 1.0
    n = 0
    for mask in (view[V.HAND], view[V.HAND2]):
        m = mask
        while m != 0:
            card = lowest_card(m)
            m &= m - 1
            p = card_probability(card, trump, h, players)
            n += 1
            for k in range(min(n, out.shape[0] - 1), 0, -1):
                out[k] = out[k] * (1.0 - p) + out[k - 1] * p
            out[0] *= 1.0 - p


@njit
def learned_bid(view, probs, counts, max_hand, prior_weight):
    """Bid of highest expected points under the learned distribution of the hand's cell.

    ``probs`` (``uint8``, players x hand size x cell x tricks), ``counts``
    (observations per cell) and ``max_hand`` (largest hand per table size) are the
    arrays of :func:`load_bid_table`.
    """
    if is_forehead_bid(view):
        return forehead_bid(view)
    if view[V.MAX_BID] == 0:
        return 0
    h = view[V.HAND_SIZE]
    dist = np.zeros(h + 1, dtype=np.float64)
    card_prior(view, dist)
    players = view[V.N_ACTIVE]
    p = players - MIN_PLAYERS
    if 0 <= p < max_hand.shape[0] and h <= max_hand[p]:
        n = view[V.N_PLAYERS]
        position = bid_position(view[V.SEAT], view[V.DEALER], view[V.ACTIVE], n)
        cell = hand_cell(view[V.HAND] | view[V.HAND2], view[V.TRUMP], position)
        seen = counts[p, h - 1, cell]
        if seen > 0:
            row = probs[p, h - 1, cell]
            total = 0.0
            for k in range(h + 1):
                total += row[k]
            w = seen / (seen + prior_weight)
            for k in range(h + 1):
                dist[k] = (1.0 - w) * dist[k] + w * row[k] / total
    return best_bid(view, dist)


@njit
def _train_cells(players, hand_size, deals, no_trump, seed, index, counts):
    """Play ``deals`` random deals and count tricks per feature cell into ``counts``."""
    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, game_key(seed, index), 0, 0)
    deck = np.empty(53, dtype=np.int64)
    hands = np.zeros(10, dtype=np.int64)
    hands2 = np.zeros(10, dtype=np.int64)
    dealt = np.zeros(10, dtype=np.int64)
    bids = np.empty(10, dtype=np.int64)
    won = np.zeros(10, dtype=np.int64)
    active = (np.int64(1) << players) - 1
    no_record = np.empty(0, dtype=np.int64)
    for _ in range(deals):
        dealer, trump = simulated_deal(
            state, deck, hands, hands2, players, hand_size, no_trump, dealt, bids, won, no_record
        )
        for s in range(players):
            position = bid_position(s, dealer, active, players)
            counts[hand_cell(dealt[s], trump, position), won[s]] += 1


def train_bid_table(
    players: Sequence[int] = (3, 4, 5, 6, 7),
    deals: int = 200_000,
    seed: int = 0,
    max_hand: int | None = None,
) -> dict[str, np.ndarray]:
    """Fit the table of trick-count distributions by simulation.

    Parameters
    ----------
    players : sequence of int
        Table sizes to fit, within 3-7; the table spans 3 up to the largest.
    deals : int
        Trump deals simulated per (table size, hand size); a quarter as many
        no-trump deals are added.
    seed : int
        Seed of the simulation.
    max_hand : int, optional
        Largest hand size fitted, at most what a deck deals the smallest table
        (17 at 3 players; a larger table stops at its own limit).  Default: the
        canonical start of each table size, 10, 8 with six players, 7 with seven.

    Returns
    -------
    dict
        ``probs`` (``uint8``, P * 255), ``counts`` (``uint32`` observations per
        cell), ``max_hand`` (``int64`` per table size; 0 where not fitted) and
        ``meta`` (a JSON string of how it was made), as :func:`load_bid_table`
        reads them.
    """
    sizes = sorted({int(p) for p in players})
    if not sizes or sizes[0] < MIN_PLAYERS or sizes[-1] > MAX_PLAYERS:
        raise InvalidArgumentError(
            f"players must be table sizes in {MIN_PLAYERS}..{MAX_PLAYERS}, got {list(players)}"
        )
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidArgumentError(f"deals must be a positive integer, got {deals!r}")
    seed = check_seed(seed)
    largest = _deck_limit(sizes[0])
    if max_hand is not None and (
        isinstance(max_hand, bool) or not isinstance(max_hand, int) or not 1 <= max_hand <= largest
    ):
        raise InvalidArgumentError(
            f"max_hand must be an integer in 1..{largest} (the most cards a deck deals each "
            f"of {sizes[0]} players), got {max_hand!r}"
        )
    span = sizes[-1] - MIN_PLAYERS + 1
    most = np.zeros(span, dtype=np.int64)
    for p in sizes:
        most[p - MIN_PLAYERS] = min(_deck_limit(p), max_hand or canonical_start(p))
    top = int(most.max())
    probs = np.zeros((span, top, N_CELLS, top + 1), dtype=np.uint8)
    counts = np.zeros((span, top, N_CELLS), dtype=np.uint32)
    for p in sizes:
        for h in range(1, most[p - MIN_PLAYERS] + 1):
            cell_counts = np.zeros((N_CELLS, h + 1), dtype=np.int64)
            index = 1000 * p + 10 * h
            _train_cells(p, h, deals, False, seed, index, cell_counts)
            _train_cells(p, h, max(1, deals // 4), True, seed, index + 1, cell_counts)
            seen = cell_counts.sum(axis=1)
            counts[p - MIN_PLAYERS, h - 1] = np.minimum(seen, np.iinfo(np.uint32).max)
            shares = cell_counts / np.maximum(seen, 1)[:, None]
            probs[p - MIN_PLAYERS, h - 1, :, : h + 1] = np.rint(shares * _QUANTUM)
    meta = {
        "players": sizes,
        "deals": deals,
        "no_trump_deals": max(1, deals // 4),
        "seed": seed,
        "policy": "simple's bids and greedy play in every seat (ohhell_sim.strategies._playout)",
        "features": "trumps 0-4+/no-trump, high trumps 0-3+, side aces 0-3+, "
        "side kings 0-2+, position first/middle/dealer",
        "made_by": f"ohhell train-bids --players {','.join(map(str, sizes))} --deals {deals} "
        f"--seed {seed}" + (f" --max-hand {max_hand}" if max_hand else ""),
    }
    return {
        "probs": probs,
        "counts": counts,
        "max_hand": most,
        "meta": np.array(json.dumps(meta)),
    }


def _deck_limit(players: int) -> int:
    # One deck, one card turned up for the trump.
    return (52 - 1) // players


def save_bid_table(table: dict[str, np.ndarray], path: str | Path) -> Path:
    """Write a table from :func:`train_bid_table` to a compressed ``.npz`` file.

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not end in ``.npz``, which NumPy would append.
    """
    return save_arrays(table, path, "a bid table file")


def load_bid_table(path: str | Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(probs, counts, max_hand)`` of a table file, as :func:`learned_bid` takes them.

    Raises
    ------
    InvalidArgumentError
        If the file lacks one of the arrays.
    """
    with np.load(path) as data:
        missing = {"probs", "counts", "max_hand"} - set(data.files)
        if missing:
            raise InvalidArgumentError(
                f"{str(path)!r} is not a bid table: it lacks {sorted(missing)}"
            )
        return data["probs"], data["counts"].astype(np.int64), data["max_hand"]


def _shipped_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    path = TABLES_DIR / TABLE_FILE
    if path.exists():
        return load_bid_table(path)
    # No table yet (while making it): every bid falls back to the card prior.
    return (
        np.zeros((0, 1, N_CELLS, 2), dtype=np.uint8),
        np.zeros((0, 1, N_CELLS), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
    )


#: The shipped table; numba freezes these globals into the compiled code.
PROBS, COUNTS, MAX_HAND = _shipped_table()


@njit
def _shipped_bid(view, prior_weight):
    return learned_bid(view, PROBS, COUNTS, MAX_HAND, prior_weight)


@njit
def bid(view, params, rng):
    """Thin entry: the learned bid from the shipped table."""
    return _shipped_bid(view, params[0])


@njit
def play(view, params, rng):
    """Play like ``card_counter``."""
    return counting_play(view, False)


STRATEGY = Strategy(
    name="learned",
    bid=bid,
    play=play,
    params={"prior_weight": 20.0},
    param_bounds={"prior_weight": (0, None)},
    description=__doc__.split("\n\n", 1)[1].split("\n\nA user-trained")[0].strip(),
    stochastic=False,
    builtin_id=8,
    colour="#D55E00",
    reads_scoring=True,
)
