"""How much OpenSpiel's ``oh_hell`` resampler tells about the hidden cards.

OpenSpiel's ISMCTS samples the worlds it searches with
``state.resample_from_infostate(player, rng)``.  Uniform sampling of the cards a
player cannot see would deal the opponents' hands from every unseen card, the
undealt stock included; this script measures which cards the resampled
opponents' hands are drawn from, at the first bid of random deals.  A share of
1.0 means the resampler deals only the cards the opponents truly hold, so the
bot knows which cards are out (not who holds which); uniform sampling would
give ``opponents' cards / unseen cards``.

Usage::

    python experiments/openspiel_resample_leak.py --players 4 --tricks 5 --deals 300
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel


def hands_of(state) -> dict[int, set[str]]:
    """Each player's dealt cards, read from the state's text (``Player: p`` blocks)."""
    out = {}
    for block in str(state).split("Trump")[0].split("Player: ")[1:]:
        lines = block.strip().split("\n")
        cards = set()
        for line in lines[1:]:
            if ":" in line:
                suit, ranks = line.strip().split(":")
                cards |= {suit + rank for rank in ranks.strip()}
        out[int(lines[0])] = cards
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tricks", type=int, default=5)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game("oh_hell", {"players": args.players, "num_tricks_fixed": args.tricks})
    rng = np.random.default_rng(args.seed)
    sampler = random.Random(args.seed)
    shares = []
    for _ in range(args.deals):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        me = state.current_player()
        world = state.resample_from_infostate(me, sampler.random)
        truth, sampled = hands_of(state), hands_of(world)
        held = set().union(*(truth[p] for p in truth if p != me))
        dealt = set().union(*(sampled[p] for p in sampled if p != me))
        shares.append(len(held & dealt) / len(dealt))
    opponents = (args.players - 1) * args.tricks
    unseen = 52 - args.tricks - 1
    print(
        f"share of resampled opponent cards that the opponents truly hold: {np.mean(shares):.3f} "
        f"({args.deals} deals); uniform sampling: {opponents / unseen:.3f}"
    )


if __name__ == "__main__":
    main()
