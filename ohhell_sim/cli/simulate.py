"""``ohhell simulate``: play games and print a summary per strategy."""

from __future__ import annotations

import argparse

from ohhell_sim.cli.options import (
    add_rules_options,
    rules_from_args,
    scheduler_client,
    seats_from_args,
)

_SUMMARY_MEASURES = ("mean_score", "made_rate", "zero_bid_rate", "win_share")
# The count tables of a --summary run are wide (x, x_low, x_high).
_SUMMARY_COLUMNS = [
    "seats",
    *(f"{c}{s}" for c in _SUMMARY_MEASURES for s in ("", "_low", "_high")),
]


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play the games, print the summary table, write the results if asked."""
    from ohhell_sim.analysis.format import format_summary
    from ohhell_sim.analysis.report import rules_text
    from ohhell_sim.results import check_run_folder
    from ohhell_sim.simulate import simulate
    from ohhell_sim.summary import summarise

    rules = rules_from_args(args)
    seats = seats_from_args(args, rules)
    output = check_run_folder(args.output, args.overwrite) if args.output else None
    run = summarise if args.summary else simulate
    with scheduler_client(args.scheduler) as client:
        result = run(
            rules,
            [seat.spec for seat in seats],
            games=args.games,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet,
            client=client,
            check=args.check,
            kernel=args.kernel,
        )
    print(
        f"{args.games} games of {rules.n_deals} deals, {rules.players} players, "
        f"seed {args.seed}: {', '.join(seat.label for seat in seats)}; "
        f"rules: {rules_text(rules.to_dict())}"
    )
    if args.summary:
        table = result.standings().join(result.table(["strategy"]))
        print(format_summary(table[_SUMMARY_COLUMNS], digits=3))
        if output is not None:
            print(f"summary written to {result.to_parquet(output, overwrite=args.overwrite)}")
        return 0
    summary = result.summary()
    print(format_summary(summary[summary["measure"].isin(_SUMMARY_MEASURES)], digits=3))
    if output is not None:
        result.to_parquet(output, overwrite=args.overwrite)
        print(f"results written to {output}/ (hands.parquet, games.parquet)")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell simulate``."""
    p = sub.add_parser("simulate", help="play games and print a summary per strategy")
    add_rules_options(p)
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--output", "-o", help="folder for hands.parquet and games.parquet")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the run the --output folder holds (refused without this)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--scheduler", help="address of a Dask scheduler to run the games on")
    p.add_argument(
        "--summary",
        action="store_true",
        help="keep only summary counts, in constant memory (writes summary.parquet)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="check mode for a new strategy: user code compiled with bounds checks, and the "
        "first games compared with the reference engine (slower)",
    )
    p.add_argument(
        "--kernel",
        choices=("auto", "dedicated", "shared"),
        default="auto",
        help="dedicated: compiled for these strategies, fastest per decision; shared: compiled "
        "once for every strategy, a new or edited strategy plays in seconds; auto (default): "
        "shared for under 1,000,000 games (same games either way)",
    )
    p.set_defaults(func=cmd_simulate)
