"""Speed of the search players: deals, decisions and nominal playouts per second.

Each of ``mc_bidder``, ``pimc``, ``bayes_pimc`` and ``adaptive_pimc`` (and
``distilled``, the player learned from them, and ``card_counter`` as the yardstick)
plays every seat of single-deal games, 4 players x 10 cards, on one thread,
through :func:`ohhell_sim.bench.bench` (kernel time only, best of ``--repeats``
after a warm-up).  Printed per player:

* deals per second: the figure a change of the playouts is held to;
* decisions per second: 44 a deal (4 bids, 40 cards);
* nominal playouts per second: the deals per second times the samples its
  settings ask for each decision (``samples`` per card, ``bid_samples`` per bid;
  ``mc_bidder`` samples for its bids only).  ``adaptive_pimc`` stops sampling a
  decision early when one card is clearly best, so its figure is an upper bound.

Compare two checkouts with the interleaved A/B (robust to a drifting machine)::

    python benchmarks/bench_search.py [--deals 1500] [--json out.json]
    python benchmarks/ab_interleaved.py /tmp/before . --strategy pimc --deals 1500 --rounds 8
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import ohhell_sim as oh
from ohhell_sim.bench import bench, machine_description

PLAYERS = ("mc_bidder", "pimc", "bayes_pimc", "adaptive_pimc", "distilled", "card_counter")
SEATS, CARDS = 4, 10


def nominal_playouts(name: str) -> int:
    """Playouts one deal asks for at the player's default settings (0 if it does not sample)."""
    params = oh.get_strategy(name).params
    cards, bids = SEATS * CARDS, SEATS
    if name == "mc_bidder":
        return int(bids * params["samples"])
    if "samples" not in params:
        return 0
    return int(cards * params["samples"] + bids * params.get("bid_samples", 0))


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1500, help="deals per timed run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", default=",".join(PLAYERS), help="players to time")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    rows = []
    for name in args.players.split(","):
        # The rule-based yardstick plays a thousand times as many deals.
        deals = args.deals * (1000 if oh.get_strategy(name).cost == "light" else 1)
        if name == "distilled":
            deals = args.deals * 40
        result = bench(
            players=SEATS, cards=CARDS, strategy=name, deals=deals, threads=1, repeats=args.repeats
        )
        rate = result["deals_per_second"]
        row = {
            "player": name,
            "deals_per_second": round(rate, 1),
            "decisions_per_second": round(rate * (SEATS + SEATS * CARDS)),
            "nominal_playouts_per_second": round(rate * nominal_playouts(name)),
        }
        rows.append(row)
        print(
            f"{name:14s} {row['deals_per_second']:>12,.1f} deals/s "
            f"{row['decisions_per_second']:>12,} decisions/s "
            f"{row['nominal_playouts_per_second']:>14,} playouts/s (nominal)",
            flush=True,
        )
    print(f"machine: {machine_description()}, one thread, {SEATS} players x {CARDS} cards")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine_description(), "rows": rows}))


if __name__ == "__main__":
    main()
