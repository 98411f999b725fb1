"""Our strategies against OpenSpiel's bots in its ``oh_hell``: duplicate matches.

Each strategy sits in one seat against ``players - 1`` copies of an OpenSpiel
bot (``ismcts:N`` for information-set MCTS with N simulations and random
rollouts, or ``random``); every deal set is replayed with the seats rotated.
Prints, per strategy, its points per deal, its advantage over the opponents'
seats on the same cards (95% intervals, clustered by deal set) and the time per
decision of each side, and writes the rows to ``--out`` (CSV).

Usage::

    python experiments/openspiel_match.py --strategies simple,card_counter \\
        --opponent ismcts:1000 --players 4 --tricks 5 --deals 100 --seed 0 --out runs/os.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
import pyspiel

from ohhell_sim.interop.openspiel import (
    advantage,
    ismcts_bot,
    match_summary,
    play_duplicate,
    strategy_bot,
)


def opponent_factory(spec: str):
    """A bot maker for ``random`` or ``ismcts:N``."""
    if spec == "random":
        return lambda p, s: pyspiel.make_uniform_random_bot(p, s)
    kind, _, budget = spec.partition(":")
    if kind != "ismcts" or not budget.isdigit():
        raise SystemExit(f"--opponent must be random or ismcts:N, got {spec!r}")
    return lambda p, s: ismcts_bot(p, s, simulations=int(budget))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default="simple,card_counter")
    parser.add_argument("--opponent", default="ismcts:1000")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    game = pyspiel.load_game("oh_hell", {"players": args.players, "num_tricks_fixed": args.tricks})
    make_opponent = opponent_factory(args.opponent)
    frames = []
    for name in args.strategies.split(","):
        entrants = {name: lambda p, s, name=name: strategy_bot(game, p, name, s)}
        for k in range(1, args.players):
            entrants[f"{args.opponent}#{k}"] = make_opponent
        rows = play_duplicate(game, entrants, args.deals, args.seed)
        rows.insert(0, "strategy", name)
        frames.append(rows)
        summary = match_summary(rows)
        edge = advantage(rows, name)
        theirs = summary[summary["entrant"] != name]["ms_per_decision"].mean()
        print(
            f"{name}: {summary.iloc[0]['estimate']:.2f} points per deal, advantage over "
            f"{args.opponent} {edge['estimate']:+.2f} [{edge['low']:+.2f}, {edge['high']:+.2f}]; "
            f"{summary.iloc[0]['ms_per_decision']:.2f} ms per decision vs {theirs:.2f} ms"
        )
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        pd.concat(frames).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
