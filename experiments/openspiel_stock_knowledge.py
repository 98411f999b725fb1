"""What knowing the undealt cards is worth against OpenSpiel's ISMCTS.

OpenSpiel's ``oh_hell`` resampler tells its ISMCTS which cards are out
(``experiments/openspiel_resample_leak.py``).  This script plays the same duplicate
match twice per strategy: once with the seat's own information, once with the
undealt cards marked seen (``strategy_bot(..., sees_stock=True)``), which is what
ISMCTS gets.  Both runs use the same deals and bot seeds, so the paired
difference measures the knowledge, and the second run says how our strategy does
against ISMCTS on equal information.

Usage::

    python experiments/openspiel_stock_knowledge.py --strategies pimc,bayes_pimc \\
        --players 4 --tricks 5 --deals 50 --simulations 1000 --seed 1
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import pyspiel

from ohhell_sim.analysis.stats import clustered_mean_ci
from ohhell_sim.interop.openspiel import advantage, ismcts_bot, play_duplicate, strategy_bot


def match(game, strategy: str, simulations: int, deals: int, seed: int, sees_stock: bool):
    """Rows of one duplicate match: ``strategy`` in one seat, ISMCTS in the others."""
    ours = lambda p, s: strategy_bot(game, p, strategy, s, sees_stock=sees_stock)  # noqa: E731
    play_duplicate(game, {f"warm-up#{k}": ours for k in range(game.num_players())}, 1, seed)
    entrants = {"ours": ours}
    for k in range(1, game.num_players()):
        entrants[f"ismcts#{k}"] = lambda p, s: ismcts_bot(p, s, simulations=simulations)
    return play_duplicate(game, entrants, deals, seed)


def advantage_by_deal(rows: pd.DataFrame) -> pd.Series:
    """Our points minus the mean of the ISMCTS seats, per (deal, rotation)."""
    table = rows.pivot_table(index=["deal", "rotation"], columns="entrant", values="points")
    return table["ours"] - table.drop(columns="ours").mean(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default="pimc,bayes_pimc")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("oh_hell", {"players": args.players, "num_tricks_fixed": args.tricks})
    print(
        f"{args.players} players x {args.tricks} tricks, ISMCTS({args.simulations}) in the other "
        f"seats, {args.deals} deal sets x {args.players} rotations, seed {args.seed}; "
        "advantage in points per deal, 95% CI clustered by deal set"
    )
    for strategy in args.strategies.split(","):
        fair = match(game, strategy, args.simulations, args.deals, args.seed, False)
        told = match(game, strategy, args.simulations, args.deals, args.seed, True)
        gain = advantage_by_deal(told) - advantage_by_deal(fair)
        deals = gain.index.get_level_values("deal")
        worth = clustered_mean_ci(gain.to_numpy(), np.asarray(deals), 0.95)
        a, b = advantage(fair, "ours"), advantage(told, "ours")
        print(
            f"{strategy:>12}: own information {a.estimate:+.2f} [{a.low:+.2f}, {a.high:+.2f}]; "
            f"told the stock {b.estimate:+.2f} [{b.low:+.2f}, {b.high:+.2f}]; "
            f"worth {worth.estimate:+.2f} [{worth.low:+.2f}, {worth.high:+.2f}]"
        )


if __name__ == "__main__":
    main()
