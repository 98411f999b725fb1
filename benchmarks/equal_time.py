"""Time per deal of strategies against a baseline, interleaved: the check of "at equal time".

Each strategy plays every seat of a table, one thread, round after round, in
turn with the baseline (the first strategy); the figure is the median over
rounds of the ratio of its deals per second to the baseline's, with the
quartiles.  A ratio of 1 or more means no more time per decision than the
baseline takes.  Timing in turn, in one process, cancels the slow drift of a
shared machine, which timing one strategy and then the other minutes apart does
not (see also ``ab_interleaved.py``, which compares two checkouts)::

    python benchmarks/equal_time.py --strategies pimc,adaptive_pimc
    python benchmarks/equal_time.py --strategies pimc,adaptive_pimc --schedule 5 --games 600

The default table is the canonical one for 4 players (the 10..1..10 schedule),
the table of the strategy ladder.  Pin the process to one core on a shared
machine (``taskset -c 1 python ...``).
"""

from __future__ import annotations

import argparse
import statistics
import time

import ohhell_sim as oh
from ohhell_sim.bench import machine_description
from ohhell_sim.seat_text import split_seats


def deals_per_second(rules: oh.Rules, seat, games: int, seed: int) -> float:
    """Deals per second of ``games`` games with ``seat`` in every seat, one thread."""
    start = time.perf_counter()
    oh.simulate(
        rules, [seat] * rules.players, games=games, seed=seed, threads=1, kernel="dedicated"
    )
    return games * rules.n_deals / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--strategies", required=True, help="the baseline, then the strategies to time against it"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--schedule", help="hand sizes, e.g. 5 or 8,6,4 (default: the canonical schedule)"
    )
    parser.add_argument("--games", type=int, default=20, help="games per timed run")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    seats = split_seats(args.strategies, "--strategies")
    if len(seats) < 2:
        parser.error("give the baseline and at least one strategy to time against it")
    if args.rounds < 2:
        parser.error(f"--rounds must be at least 2 (quartiles), got {args.rounds}")
    schedule = {"schedule": tuple(map(int, args.schedule.split(",")))} if args.schedule else {}
    rules = oh.Rules(players=args.players, **schedule)
    for seat in seats:  # compile or load the kernels, warm up
        deals_per_second(rules, seat, 1, 999)
    rates = [[] for _ in seats]
    for r in range(args.rounds):
        for i, seat in enumerate(seats):
            rates[i].append(deals_per_second(rules, seat, args.games, r))
    print(
        f"{args.players} players, schedule {list(rules.schedule)}, {args.games} games x "
        f"{args.rounds} rounds, 1 thread, {machine_description()}"
    )
    for name, series in zip(seats, rates, strict=True):
        ratios = [x / y for x, y in zip(series, rates[0], strict=True)]
        low, _, high = statistics.quantiles(ratios, n=4)
        print(
            f"{name:45s} {statistics.median(series):9,.0f} deals/s   ratio to {seats[0]}: "
            f"{statistics.median(ratios):.3f} (quartiles {low:.3f}-{high:.3f})"
        )


if __name__ == "__main__":
    main()
