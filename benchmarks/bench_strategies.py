"""Speed and strength of the built-in strategies.

Three measurements, each printed as a table (and written as JSON with ``--json``):

1. **deals/s** of every built-in strategy in all four seats, 4 players x 10
   cards, one thread, through :func:`ohhell_sim.bench.bench` (kernel time only,
   best of three runs after a warm-up);
2. **decisions/s** of the sampling strategies at their default samples:
   ``mc_bidder`` bids (4 per deal; its card play is the cheap counting play) and
   ``pimc`` card choices (40 per deal, with ``bid_samples=0`` so that its bids
   are the cheap ``expected_tricks`` ones);
3. **strength vs samples**: duplicate tournaments of ``mc_bidder`` and ``pimc``
   at several sample counts against three ``card_counter`` seats; the figure is
   the mean score per game of the sampler minus that of the ``card_counter``
   seats, with its paired 95% interval.

Usage::

    python benchmarks/bench_strategies.py            # the full run (minutes)
    python benchmarks/bench_strategies.py --quick    # smaller counts, for a smoke run
    python benchmarks/bench_strategies.py --skip strength --strategies mc_bidder,pimc
"""

from __future__ import annotations

import argparse
import json
import time

import ohhell_sim as oh
from ohhell_sim.analysis.stats import mean_ci
from ohhell_sim.bench import bench, machine_description
from ohhell_sim.run.pipeline import numba_threads
from ohhell_sim.strategies import BUILTINS
from ohhell_sim.strategy import get_strategy
from ohhell_sim.tournament import tournament

#: Deals per timed run: the sampling (heavy) strategies are three to four orders
#: slower; ``mc_bidder``, which samples for its bids only, a few times faster than
#: the others.
_DEALS = {"mc_bidder": 400}
_HEAVY_DEALS = 100
_RULE_BASED_DEALS = 200_000


def deals_per_second(quick: bool, only: set[str] | None = None) -> list[dict]:
    """Measurement 1: deals/s of every built-in at 4 players x 10 cards, 1 thread.

    ``only`` limits it to the built-ins of those names.
    """
    rows = []
    for strategy in BUILTINS:
        if only and strategy.name not in only:
            continue
        deals = _DEALS.get(strategy.name, _HEAVY_DEALS if strategy.heavy else _RULE_BASED_DEALS)
        if quick:
            deals = max(20, deals // 10)
        result = bench(players=4, cards=10, strategy=strategy.name, deals=deals, threads=1)
        rows.append(
            {
                "strategy": strategy.name,
                "deals_per_second": result["deals_per_second"],
                "deals": deals,
            }
        )
        print(f"{strategy.name:16s} {result['deals_per_second']:>14,.0f} deals/s", flush=True)
    return rows


def _time_games(seats: list, games: int) -> float:
    rules = oh.Rules(players=4, schedule=[10])
    with numba_threads(1):
        oh.simulate(rules, seats, games=max(2, games // 10), seed=1, kernel="dedicated")  # warm-up
        start = time.perf_counter()
        oh.simulate(rules, seats, games=games, seed=2, kernel="dedicated")
        return time.perf_counter() - start


def decisions_per_second(quick: bool) -> list[dict]:
    """Measurement 2: decisions/s of mc_bidder and pimc at their default samples."""
    rows = []
    mc_samples = get_strategy("mc_bidder").params["samples"]
    deals = 100 if quick else 1000
    seconds = _time_games(["mc_bidder"] * 4, deals)
    rows.append(
        {
            "strategy": "mc_bidder",
            "decision": "bid",
            "samples": mc_samples,
            "decisions_per_second": 4 * deals / seconds,
        }
    )
    pimc_samples = get_strategy("pimc").params["samples"]
    deals = 20 if quick else 200
    seats = [("pimc", {"bid_samples": 0.0})] * 4
    seconds = _time_games(seats, deals)
    rows.append(
        {
            "strategy": "pimc",
            "decision": "card",
            "samples": pimc_samples,
            "decisions_per_second": 40 * deals / seconds,
        }
    )
    for row in rows:
        print(
            f"{row['strategy']:10s} {row['decision']:5s} samples={row['samples']:g}: "
            f"{row['decisions_per_second']:,.0f} decisions/s",
            flush=True,
        )
    return rows


def strength_vs_samples(quick: bool) -> list[dict]:
    """Measurement 3: tournament score of the samplers against card_counter, by samples."""
    rules = oh.Rules(players=4, schedule=[8, 6, 4, 2, 1])
    rows = []
    plans = [
        ("mc_bidder", "samples", (4, 16, 64, 256), 400),
        ("pimc", "samples", (2, 8, 24, 64), 200),
    ]
    for name, param, counts, games in plans:
        if quick:
            counts, games = counts[:2], 40
        for count in counts:
            seats = [(name, {param: float(count)}), "card_counter", "card_counter", "card_counter"]
            start = time.perf_counter()
            result = tournament(rules, seats, games=games, seed=11, threads=1)
            units = (
                result.games.assign(ours=result.games["strategy"] == f"{name}")
                .groupby(["unit", "ours"])["total"]
                .mean()
                .unstack()
            )
            diff = units[True] - units[False]
            mean, low, high = mean_ci(diff.to_numpy())[:3]
            rows.append(
                {
                    "strategy": name,
                    param: count,
                    "games": games,
                    "score_minus_card_counter": mean,
                    "low": low,
                    "high": high,
                    "seconds": time.perf_counter() - start,
                }
            )
            print(
                f"{name:10s} {param}={count:<4d} {mean:+7.2f} [{low:+.2f}, {high:+.2f}] "
                f"per game vs card_counter ({games} games)",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (smoke run)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument(
        "--skip", default="", help="comma list of parts to skip: deals,decisions,strength"
    )
    parser.add_argument(
        "--strategies",
        default="",
        help="comma list of the built-ins measurement 1 times (default: all)",
    )
    args = parser.parse_args(argv)
    skip = set(args.skip.split(","))
    only = {name for name in args.strategies.split(",") if name}
    unknown = only - {strategy.name for strategy in BUILTINS}
    if unknown:
        parser.error(
            f"--strategies: {', '.join(sorted(unknown))} is not a built-in; "
            f"choose from {', '.join(strategy.name for strategy in BUILTINS)}"
        )
    print(machine_description(), flush=True)
    out: dict = {"machine": machine_description()}
    if "deals" not in skip:
        out["deals_per_second"] = deals_per_second(args.quick, only)
    if "decisions" not in skip:
        out["decisions_per_second"] = decisions_per_second(args.quick)
    if "strength" not in skip:
        out["strength_vs_samples"] = strength_vs_samples(args.quick)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=1)


if __name__ == "__main__":
    main()
