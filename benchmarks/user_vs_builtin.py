"""A user strategy beside the same code built in: deals per second, alternating runs, one thread.

``benchmarks/user_strategies.py`` registers the built-ins ``simple`` and
``random`` again as the user strategies ``user_simple`` and ``user_random``;
this script times each built-in and its user twin in turn, round after round,
in one process (pin it to a core: ``taskset -c 1``), and prints the median of
the per-round ratios user / built-in with its quartiles::

    taskset -c 1 python benchmarks/user_vs_builtin.py --rounds 10
"""

from __future__ import annotations

import argparse
import runpy
import statistics
from pathlib import Path

from ohhell_sim.bench import bench

PAIRS = (("simple", "user_simple"), ("random", "user_random"))


def _speed(strategy: str, deals: int) -> float:
    return bench(strategy=strategy, deals=deals, threads=1, repeats=1, progress=False)[
        "deals_per_second"
    ]


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--deals", type=int, default=200_000, help="deals per timed run")
    args = parser.parse_args(argv)
    runpy.run_path(str(Path(__file__).with_name("user_strategies.py")))
    for builtin, user in PAIRS:
        for strategy in (builtin, user):
            _speed(strategy, 20_000)  # compile or load the kernel outside the clock
        ratios, speeds = [], {builtin: [], user: []}
        for _ in range(args.rounds):
            for strategy in (builtin, user):
                speeds[strategy].append(_speed(strategy, args.deals))
            ratios.append(speeds[user][-1] / speeds[builtin][-1])
        low, _, high = statistics.quantiles(ratios, n=4)
        print(
            f"{user} / {builtin}: {statistics.median(ratios):.3f} (quartiles {low:.3f}-"
            f"{high:.3f}); {builtin} {statistics.median(speeds[builtin]) / 1e6:.3f} M deals/s, "
            f"{user} {statistics.median(speeds[user]) / 1e6:.3f} M deals/s; {args.rounds} rounds",
            flush=True,
        )


if __name__ == "__main__":
    main()
