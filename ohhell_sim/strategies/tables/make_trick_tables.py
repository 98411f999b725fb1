"""Generate ``trick_tables.npy``: P(a card takes a trick), for ``expected_tricks``.

For every table size (3-7 players), hand size (1 to the most a 52-card deck
allows with a turned-up card) and deal kind (trump deal or no-trump deal), random
deals are played out with ``simple``'s bids and play in every seat (the fast
playout of :mod:`ohhell_sim.strategies._playout`), and every card dealt is counted by kind
(a side suit or the trump suit of a trump deal, or any suit at no trump) and rank,
with the tricks it took.  The table holds the ratio.

Run from the repository root (a minute or so)::

    python -m ohhell_sim.strategies.tables.make_trick_tables [--deals 50000] [--seed 2024]

It writes ``trick_tables.npy`` (``float32``, shape ``(5, 17, 3, 13)``: players
3-7, hand size 1-17, kind side/trump/no-trump, rank 2..A; entries beyond the
largest hand of a table size are copies of that largest hand) and
``trick_tables.json`` (how it was made) beside this file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from numba import njit

from ohhell_sim.engine.rng import game_key, seed_stream
from ohhell_sim.strategies._playout import simulated_deal
from ohhell_sim.strategies.tables import TABLES_DIR
from ohhell_sim.strategy.tools import lowest_card

MIN_PLAYERS = 3
MAX_PLAYERS = 7
MAX_HAND = 17
KIND_SIDE, KIND_TRUMP, KIND_NO_TRUMP = 0, 1, 2
TABLE_FILE = "trick_tables.npy"


def largest_hand(players: int) -> int:
    """Largest hand of a 52-card deal with a turned-up card."""
    return (52 - 1) // players


@njit
def _count_tricks(players, hand_size, no_trump, deals, seed, index, dealt, took):
    """Play ``deals`` random deals; add cards dealt and tricks taken per (kind, rank)."""
    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, game_key(seed, index), 0, 0)
    deck = np.empty(53, dtype=np.int64)
    hands = np.zeros(10, dtype=np.int64)
    hands2 = np.zeros(10, dtype=np.int64)
    held = np.zeros(10, dtype=np.int64)
    bids = np.empty(10, dtype=np.int64)
    won = np.zeros(10, dtype=np.int64)
    winners = np.empty(hand_size, dtype=np.int64)
    for _ in range(deals):
        _, trump = simulated_deal(
            state, deck, hands, hands2, players, hand_size, no_trump, held, bids, won, winners
        )
        for s in range(players):
            m = held[s]
            while m != 0:
                card = lowest_card(m)
                m &= m - 1
                dealt[_kind(card, trump), card % 13] += 1
        for t in range(hand_size):
            took[_kind(winners[t], trump), winners[t] % 13] += 1


@njit(inline="always")
def _kind(card, trump):
    if trump < 0:
        return KIND_NO_TRUMP
    return KIND_TRUMP if card // 13 == trump else KIND_SIDE


def make_tables(deals: int = 50_000, seed: int = 2024) -> np.ndarray:
    """Simulate and return the table (see the module docstring)."""
    table = np.zeros((MAX_PLAYERS - MIN_PLAYERS + 1, MAX_HAND, 3, 13), dtype=np.float64)
    for p in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        most = largest_hand(p)
        for h in range(1, most + 1):
            for no_trump in (0, 1):
                dealt = np.zeros((3, 13), dtype=np.int64)
                took = np.zeros((3, 13), dtype=np.int64)
                index = 1000 * p + 10 * h + no_trump
                _count_tricks(p, h, no_trump, deals, seed, index, dealt, took)
                kinds = [KIND_NO_TRUMP] if no_trump else [KIND_SIDE, KIND_TRUMP]
                for kind in kinds:
                    table[p - MIN_PLAYERS, h - 1, kind] = took[kind] / np.maximum(dealt[kind], 1)
        table[p - MIN_PLAYERS, most:] = table[p - MIN_PLAYERS, most - 1]
    return table.astype(np.float32)


def main(argv: list[str] | None = None) -> None:
    """Command line: write the table and its provenance beside this file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50_000, help="deals per cell group")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--output", type=Path, default=TABLES_DIR / TABLE_FILE)
    args = parser.parse_args(argv)
    table = make_tables(args.deals, args.seed)
    np.save(args.output, table)
    provenance = {
        "what": "P(card takes a trick) by players 3-7, hand size 1-17, kind, rank",
        "kinds": ["side suit", "trump", "no-trump deal"],
        "policy": "simple's bids and play in every seat (ohhell_sim.strategies._playout)",
        "deals_per_cell_group": args.deals,
        "seed": args.seed,
        "made_by": "python -m ohhell_sim.strategies.tables.make_trick_tables",
    }
    args.output.with_suffix(".json").write_text(json.dumps(provenance, indent=1) + "\n")
    print(f"wrote {args.output} {table.shape}")


if __name__ == "__main__":
    main()
