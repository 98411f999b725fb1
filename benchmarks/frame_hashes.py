"""Hashes of the frames of a fixed set of runs: the check that a refactoring changes no result.

Run it before and after a change that should not change results, and compare the
lines::

    python benchmarks/frame_hashes.py > before.txt
    ... change ...
    python benchmarks/frame_hashes.py > after.txt && diff before.txt after.txt

``--seats`` replaces the strategies cycled over the seats, ``--games`` the games
of each run and ``--tables`` the tables (comma lists), e.g. for the slow
sampling strategies, which refuse two decks::

    python benchmarks/frame_hashes.py --seats mc_bidder,pimc,card_counter --games 12 \
        --tables canonical,scoring,joker-swap-catastrophe

The set covers the canonical table and three variant tables (scoring and bidding
variants on the plain kernel; joker, swap and catastrophe, and two decks with the
tie-break, on the general kernel), in rows and summary mode, played in one call
and in resumable chunks.  Columns are hashed by their values (categoricals by
their labels), so a change of dtype alone does not change a hash, but any changed
value does.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import ohhell_sim as oh
from ohhell_sim.run.chunked import run_chunked

GAMES = 300
SEED = 11
SEATS = ("simple", "random", "card_counter")

TABLES = {
    "canonical": oh.Rules(players=4),
    "scoring": oh.Rules(players=5, hook=False, made="10*bid", zero="5+cards", over="-diff"),
    "joker-swap-catastrophe": oh.Rules(
        players=4, joker=True, swap=1, fault_limit=12, trump="CDHSN", closed_bids=True, hook=False
    ),
    "two-decks-tiebreak": oh.Rules(players=8, decks=2, tiebreak=True, no_trump_every=3),
}


def frame_digest(frame: pd.DataFrame) -> str:
    """A hash of a frame's column names and values, independent of dtypes."""
    digest = hashlib.sha256()
    for name in frame.columns:
        column = frame[name]
        digest.update(str(name).encode())
        if isinstance(column.dtype, pd.CategoricalDtype):
            values = column.astype(str).to_numpy()
        elif pd.api.types.is_bool_dtype(column) or pd.api.types.is_integer_dtype(column):
            values = column.to_numpy(dtype=np.int64)
        elif pd.api.types.is_float_dtype(column):
            values = column.to_numpy(dtype=np.float64)
        else:
            values = column.astype(str).to_numpy()
        digest.update(
            np.ascontiguousarray(values).tobytes()
            if values.dtype != object
            else "\x00".join(values).encode()
        )
    return digest.hexdigest()[:16]


def counts_digest(summary) -> str:
    """A hash of a summary's count arrays."""
    digest = hashlib.sha256()
    for name in ("outcomes", "deals", "totals", "wins"):
        digest.update(name.encode() + np.ascontiguousarray(getattr(summary.counts, name)).tobytes())
    return digest.hexdigest()[:16]


def seats_for(rules: oh.Rules, strategies: tuple[str, ...] = SEATS) -> list[str]:
    """``strategies`` cycled over the seats."""
    return [strategies[s % len(strategies)] for s in range(rules.players)]


def main(argv: list[str] | None = None) -> int:
    """Print one line per run: table, mode, executor, hash."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", default=",".join(SEATS), help="strategies cycled over the seats")
    parser.add_argument("--games", type=int, default=GAMES, help="games of each run")
    parser.add_argument("--tables", default=",".join(TABLES), help="tables to run")
    args = parser.parse_args(argv)
    strategies = tuple(args.seats.split(","))
    labels = args.tables.split(",")
    unknown = set(labels) - set(TABLES)
    if unknown:
        parser.error(
            f"--tables: unknown {', '.join(sorted(unknown))}; choose from {', '.join(TABLES)}"
        )
    games = args.games
    # Chunks of the default run's share (70 of 300 games): a chunked run resumes
    # several times at any --games.
    chunk_games = max(1, games * 70 // GAMES)
    with tempfile.TemporaryDirectory() as scratch:
        for label in labels:
            rules = TABLES[label]
            seats = seats_for(rules, strategies)
            rows = oh.simulate(rules, seats, games=games, seed=SEED)
            print(label, "rows", "local", frame_digest(rows.hands), frame_digest(rows.games))
            chunked = run_chunked(
                rules,
                seats,
                games,
                SEED,
                Path(scratch) / f"{label}-rows",
                chunk_games=chunk_games,
                progress=False,
            )
            print(
                label, "rows", "chunked", frame_digest(chunked.hands), frame_digest(chunked.games)
            )
            counts = oh.summarise(rules, seats, games=games, seed=SEED)
            print(label, "summary", "local", counts_digest(counts))
            chunked_counts = run_chunked(
                rules,
                seats,
                games,
                SEED,
                Path(scratch) / f"{label}-counts",
                chunk_games=chunk_games,
                progress=False,
                summary=True,
            )
            print(label, "summary", "chunked", counts_digest(chunked_counts))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
