"""How often ``distilled_search`` plays its network's card without a search.

It plays the card network's best card at once where that card's value leads the
next card's by more than ``sure`` points, and searches otherwise.  This script
counts, over the card choices between two distinct cards or more in the games of
the training recipe (:func:`ohhell_sim.training.distilled.collect_positions`,
3-7 players, several fields and rule sets), the share that each ``sure`` plays at
once, overall and by tricks left in the deal::

    python benchmarks/distilled_search_sure.py --sure 0.25,1 --seed 4242 --games 300
"""

from __future__ import annotations

import argparse

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.strategies._counting import left_to_counting
from ohhell_sim.strategies.distilled import network_values
from ohhell_sim.strategies.distilled_search import lead_over_next
from ohhell_sim.strategies.pimc import candidate_cards
from ohhell_sim.training.distilled import collect_positions


def leads_by_tricks_left(views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per card choice between two distinct cards or more that the player searches or
    plays from its network: the network's lead of its best card over the next, and the
    tricks left in the deal (this one included)."""
    leads, left = [], []
    for view in views:
        if left_to_counting(view):
            continue
        cards = candidate_cards(view)
        if cards.shape[0] < 2:
            continue
        leads.append(lead_over_next(network_values(view, cards)))
        left.append(int(view[V.HAND_SIZE] - view[V.TRICK]))
    return np.array(leads), np.array(left)


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sure", default="0.25,1", help="values of sure, comma-separated")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args(argv)
    sures = [float(s) for s in args.sure.split(",")]
    leads, left = leads_by_tricks_left(collect_positions(args.seed, args.games).card_views)
    print(
        f"{len(leads):,} card choices between two distinct cards or more, "
        f"collect_positions({args.seed}, {args.games})"
    )
    print("tricks left  choices  " + "  ".join(f"sure={s:g}" for s in sures))
    for tricks in [*np.unique(left), None]:
        rows = leads if tricks is None else leads[left == tricks]
        shares = "  ".join(f"{np.mean(rows > s):>{len(f'sure={s:g}')}.1%}" for s in sures)
        print(f"{'all' if tricks is None else tricks:>11}  {len(rows):>7,}  {shares}")


if __name__ == "__main__":
    main()
