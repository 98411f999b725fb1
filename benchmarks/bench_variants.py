"""Deals per second of the canonical rules and of the heaviest variant combination.

Run with ``python benchmarks/bench_variants.py [--games N] [--threads T]``.  Both
play full games (the whole schedule) between ``simple`` players; the figure is
scheduled deals per second, after a warm-up run that compiles the kernel.
"""

from __future__ import annotations

import argparse
import time

import ohhell_sim as oh

PROFILES = {
    "canonical (4 players)": oh.Rules(players=4),
    "heaviest (8 players, two decks, joker, swap 2, no trump every 3, closed bids, "
    "catastrophe 20, tie-break, scoring tables)": oh.Rules(
        players=8,
        decks=2,
        joker=True,
        swap=2,
        no_trump_every=3,
        closed_bids=True,
        hook=False,
        fault_limit=20,
        tiebreak=True,
        made="10+bid^2",
        zero="10+cards",
        double_all=True,
        all_bonus=10,
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    for name, rules in PROFILES.items():
        seats = ["simple"] * rules.players
        oh.simulate(rules, seats, games=100, threads=args.threads, kernel="dedicated")
        start = time.perf_counter()
        oh.simulate(rules, seats, games=args.games, threads=args.threads, kernel="dedicated")
        seconds = time.perf_counter() - start
        print(f"{args.games * rules.n_deals / seconds:12,.0f} deals/s  {name}")


if __name__ == "__main__":
    main()
