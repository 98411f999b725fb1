"""Summary mode at scale: wall time and peak memory as the number of deals grows.

Run with ``python benchmarks/bench_summary.py [--deals 1e6 1e7 1e8] [--threads 2]``.
Each size runs :func:`ohhell_sim.summarise` (canonical rules, 4 players, ``simple``
in every seat) in a fresh process, which warms up by loading the kernel compiled
beforehand in a process of its own; it reports the timed run's deals per second
and the process's peak resident memory.  Flat memory means the peak does not grow
with the deals.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from ohhell_sim.bench import machine_description

CHILD = """
import json, resource, sys, time
import ohhell_sim as oh
from ohhell_sim.summary import summarise

deals, threads = int(sys.argv[1]), int(sys.argv[2])
rules = oh.Rules(players=4)
seats = ["simple"] * 4
summarise(rules, seats, games=100, seed=1, threads=threads, kernel="dedicated")
games = -(-deals // rules.n_deals)
start = time.perf_counter()
summary = summarise(rules, seats, games=games, seed=1, threads=threads, kernel="dedicated")
seconds = time.perf_counter() - start
print(json.dumps({
    "deals": summary.deals_played,
    "games": games,
    "threads": threads,
    "seconds": seconds,
    "deals_per_second": summary.deals_played / seconds,
    "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def run_child(deals: int, threads: int) -> dict:
    """Figures of one summary run of ``deals`` deals, in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(deals), str(threads)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=float, nargs="+", default=[1e6, 1e7, 1e8])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    print(machine_description())
    # Compile the kernel into the on-disk cache first, so every measured process
    # only loads it and the peaks compare like with like.
    run_child(1000, args.threads)
    rows = []
    for deals in args.deals:
        row = run_child(int(deals), args.threads)
        rows.append(row)
        print(
            f"{row['deals']:>12,} deals  {row['seconds']:8.1f} s  "
            f"{row['deals_per_second'] / 1e6:6.2f} M deals/s  "
            f"peak RSS {row['peak_rss_mib']:7.1f} MiB  ({row['threads']} threads)",
            flush=True,
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": machine_description(), "runs": rows}, f, indent=2)


if __name__ == "__main__":
    main()
