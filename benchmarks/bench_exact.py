"""Time the exact one-card solver and print its values, 3 to 7 players.

For each table size, solves the one-card deal of the canonical rules
(``Rules(players=n, schedule=[1])``: turned-up trump, hook, 10 + bid) with
:func:`ohhell_sim.exact.solve_one_card` and prints the wall time and every
bidding position's exact expected points per deal (position 1 leads, the last
is the dealer)::

    python benchmarks/bench_exact.py            # canonical scoring
    python benchmarks/bench_exact.py --rule hook=false --rule made=10*bid
"""

from __future__ import annotations

import argparse
import time

import ohhell_sim as oh
from ohhell_sim.exact import solve_one_card
from ohhell_sim.rules import parse_rule_assignment


def main() -> None:
    """Parse the options, solve each table size and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="3,4,5,6,7", help="table sizes, comma-separated")
    parser.add_argument("--rule", action="append", default=[], help="NAME=VALUE, repeatable")
    args = parser.parse_args()
    overrides = dict(parse_rule_assignment(text) for text in args.rule)
    print("players  seconds  expected points per deal by bidding position (dealer last)")
    for n in (int(v) for v in args.players.split(",")):
        rules = oh.Rules(players=n, schedule=[1], **overrides)
        start = time.perf_counter()
        solution = solve_one_card(rules)
        seconds = time.perf_counter() - start
        values = "  ".join(f"{v:.3f}" for v in solution.expected_score)
        print(f"{n:7d}  {seconds:7.2f}  {values}")


if __name__ == "__main__":
    main()
