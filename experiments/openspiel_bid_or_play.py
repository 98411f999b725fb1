"""Where our strategies lose to OpenSpiel's ISMCTS: in the bids or in the play?

Plays three duplicate matches per strategy against ISMCTS in every other seat, on
the same deals: our strategy whole; our strategy's bids with ISMCTS's play; and
ISMCTS's bids with our strategy's play.  The hybrid seats' advantages say which
half of the game the gap comes from (an ISMCTS seat would score 0 on average).

Usage::

    python experiments/openspiel_bid_or_play.py --strategies pimc --players 4 --tricks 5 \\
        --deals 50 --simulations 1000 --seed 1
"""

from __future__ import annotations

import argparse

import pyspiel

from ohhell_sim.interop.openspiel import advantage, ismcts_bot, play_duplicate, strategy_bot


class Hybrid(pyspiel.Bot):
    """A bot that bids with one bot and plays its cards with another."""

    def __init__(self, bidder, player) -> None:
        pyspiel.Bot.__init__(self)
        self.bidder, self.player = bidder, player

    def step(self, state) -> int:
        bidding = state.legal_actions()[0] >= 52  # bid actions follow the 52 card actions
        return (self.bidder if bidding else self.player).step(state)

    def restart_at(self, state) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default="pimc")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("oh_hell", {"players": args.players, "num_tricks_fixed": args.tricks})
    n, sims = args.players, args.simulations

    def search(p, s):
        return ismcts_bot(p, s, simulations=sims)

    print(
        f"{n} players x {args.tricks} tricks, ISMCTS({sims}) in the other seats, "
        f"{args.deals} deal sets x {n} rotations, seed {args.seed}; advantage in points "
        "per deal, 95% CI clustered by deal set"
    )
    for strategy in args.strategies.split(","):

        def ours(p, s, strategy=strategy):
            return strategy_bot(game, p, strategy, s)

        seats = {
            "whole": ours,
            "our bids, ISMCTS play": lambda p, s, ours=ours: Hybrid(ours(p, s), search(p, s)),
            "ISMCTS bids, our play": lambda p, s, ours=ours: Hybrid(search(p, s), ours(p, s)),
        }
        play_duplicate(game, {f"warm-up#{k}": ours for k in range(n)}, 1, args.seed)
        for label, make in seats.items():
            entrants = {"ours": make}
            for k in range(1, n):
                entrants[f"ismcts#{k}"] = search
            rows = play_duplicate(game, entrants, args.deals, args.seed)
            a = advantage(rows, "ours")
            print(f"{strategy:>12} {label:>22}: {a.estimate:+.2f} [{a.low:+.2f}, {a.high:+.2f}]")


if __name__ == "__main__":
    main()
