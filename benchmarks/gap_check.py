"""Do the decisions' gap terms add up to the measured duplicate gap?

Plays ``--games`` games twice on the same deals and seat streams: ``--strategy``
in every seat, then ``--takeover`` in seat 0 (the duplicate gap, seat 0's points
paired game by game), and analyses every decision with a choice of seat 0 in
the first run with the takeover player (``analyse_decisions(takeover=...)``).
Prints the measured gap, the sum of the terms, and their paired difference per
game, each per game with a 95% interval: the difference's interval should hold 0.
The reference evaluator's own search is cut to a few samples: only the terms
are read here.

Usage::

    python benchmarks/gap_check.py --strategy card_counter --takeover adaptive_pimc \\
        --players 4 --schedule 10 --games 60 --rollouts 8
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ohhell_sim as oh
from ohhell_sim.bench import machine_description
from ohhell_sim.decisions import Reference
from ohhell_sim.estimates import mean_ci
from ohhell_sim.reference import play_reference_game
from ohhell_sim.strategy import check_seating


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="card_counter")
    parser.add_argument("--takeover", default="adaptive_pimc")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--schedule", default="10", help="comma-separated hand sizes")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rules = oh.Rules(players=args.players, schedule=[int(h) for h in args.schedule.split(",")])
    own = [args.strategy] * args.players
    taken = [args.takeover, *own[1:]]
    print(f"{machine_description()}")
    start = time.perf_counter()
    frame = oh.analyse_decisions(
        rules=rules,
        strategies=own,
        seed=args.seed,
        games=args.games,
        decisions=None,
        seats=[0],
        reference=Reference(precision=100.0, batch=2, max_samples=2),
        takeover=args.takeover,
        rollouts=args.rollouts,
    )
    analysed = time.perf_counter() - start
    start = time.perf_counter()
    measured = np.empty(args.games)
    for game in range(args.games):
        a = play_reference_game(rules, check_seating(rules, own), args.seed, game).totals[0]
        b = play_reference_game(rules, check_seating(rules, taken), args.seed, game).totals[0]
        measured[game] = b - a
    played = time.perf_counter() - start
    terms = frame.groupby("game")["gap"].sum().reindex(range(args.games), fill_value=0.0)
    terms = terms.to_numpy(dtype=float)
    print(
        f"{args.strategy} vs {args.takeover} in seat 0, {args.games} games of {rules.schedule}, "
        f"seed {args.seed}: {len(frame)} decisions with a choice, {args.rollouts} rollout pairs "
        f"each ({analysed:.0f} s to analyse, {played:.0f} s to play the duplicate games)"
    )
    for name, values in (
        ("measured duplicate gap", measured),
        ("sum of the gap terms", terms),
        ("terms less measured", terms - measured),
    ):
        ci = mean_ci(values)
        print(f"  {name:24s} {ci.estimate:7.2f} [{ci.low:.2f}, {ci.high:.2f}] points per game")


if __name__ == "__main__":
    main()
