"""The engine's speed figures quoted on the benchmarks page (docs/benchmarks.md).

Run with ``python benchmarks/run_benchmarks.py [--deals N] [--json OUT]``.  It
measures, on this machine:

* kernel throughput (``ohhell bench``) for ``random`` and ``simple``, 4 players x
  10 cards, on 1 and on 2 threads;
* the cold start (empty kernel cache) and the warm start of a small
  ``ohhell simulate``, each in a fresh process;
* the cost of a user strategy: the first run compiles its kernel, later runs load it,
  and in one process (a notebook) a run after an edit of the strategy compiles again;
* the memory of the ``hands`` frame per row.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

SMALL_RUN = [
    sys.executable,
    "-m",
    "ohhell_sim.cli",
    "simulate",
    "--games",
    "200",
    "--quiet",
    "--strategies",
    "simple,random,simple,random",
]

USER_STRATEGY = textwrap.dedent(
    """
    import ohhell_sim as oh
    from numba import njit
    from ohhell_sim import view as V
    from ohhell_sim.strategy.tools import random_legal_card

    @njit
    def bid(view, params, rng):
        return 1 if view[V.FORBIDDEN_BID] == 0 else 0

    @njit
    def play(view, params, rng):
        return random_legal_card(view, rng)

    oh.register_strategy("bench_user", bid, play)
    oh.simulate(oh.Rules(players=4), ["bench_user", "simple", "random", "simple"], games=200)
    """
)


#: Runs the user strategy, edits the global it reads, runs again; prints that run's seconds.
EDIT_AND_RERUN = textwrap.dedent(
    """
    import time
    import ohhell_sim as oh
    from numba import njit
    from ohhell_sim import view as V
    from ohhell_sim.strategy.tools import random_legal_card

    RISK = 0

    @njit
    def bid(view, params, rng):
        return RISK if view[V.FORBIDDEN_BID] != RISK else 1 - RISK

    @njit
    def play(view, params, rng):
        return random_legal_card(view, rng)

    seats = ["bench_user", "simple", "random", "simple"]
    oh.register_strategy("bench_user", bid, play)
    oh.simulate(oh.Rules(players=4), seats, games=200)
    RISK = 1
    start = time.perf_counter()
    oh.simulate(oh.Rules(players=4), seats, games=200)
    print(time.perf_counter() - start)
    """
)


def timed(command: list[str], cache: str) -> float:
    """Wall time of ``command`` in a fresh process using kernel cache ``cache``."""
    env = {**os.environ, "OHHELL_CACHE_DIR": cache}
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2_000_000, help="deals per timed run")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()

    import ohhell_sim as oh
    from ohhell_sim.bench import bench, machine_description

    figures: dict[str, object] = {"machine": machine_description()}
    for strategy in ("random", "simple"):
        for threads in (1, 2):
            result = bench(strategy=strategy, threads=threads, deals=args.deals)
            figures[f"{strategy}_{threads}t_deals_per_second"] = round(result["deals_per_second"])
    with tempfile.TemporaryDirectory() as cache:
        figures["cold_start_seconds"] = round(timed(SMALL_RUN, cache), 1)
        figures["warm_start_seconds"] = round(timed(SMALL_RUN, cache), 1)
        user = [sys.executable, "-c", USER_STRATEGY]
        figures["user_strategy_first_run_seconds"] = round(timed(user, cache), 1)
        figures["user_strategy_later_run_seconds"] = round(timed(user, cache), 1)
        rerun = subprocess.run(
            [sys.executable, "-c", EDIT_AND_RERUN],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "OHHELL_CACHE_DIR": cache},
        )
        figures["user_strategy_edit_and_rerun_seconds"] = round(float(rerun.stdout), 1)
    hands = oh.simulate(oh.Rules(players=4), ["simple"] * 4, games=2000).hands
    figures["hands_bytes_per_row"] = round(hands.memory_usage(deep=True).sum() / len(hands), 2)
    for key, value in figures.items():
        print(f"{key:38s} {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
