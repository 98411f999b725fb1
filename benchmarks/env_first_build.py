"""Seconds to build and reset a batched environment in this process, one seating after another.

Run it in a fresh process on a kernel cache that already holds other seatings'
compiles, to time what a new seating costs::

    python benchmarks/env_first_build.py random random random
    python benchmarks/env_first_build.py sure_tricks random random

The first command fills the cache; the second times a seating it has not seen.
"""

from __future__ import annotations

import argparse
import time

import ohhell_sim as oh
from ohhell_sim.env import LEARNER, BatchedEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("others", nargs="+", help="the strategies beside one learning seat")
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    rules = oh.Rules(players=len(args.others) + 1)
    start = time.perf_counter()
    BatchedEnv(rules, [LEARNER, *args.others], tables=args.tables).reset(1)
    print(f"built and reset in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
