"""``ohhell tournament``: strategies against each other, with confidence intervals."""

from __future__ import annotations

import argparse

from ohhell_sim.cli.options import add_rules_options, rules_from_args, seats_from_args

#: The seatings of :func:`ohhell_sim.tournament` (its ``SEATINGS``; a test keeps them equal).
SEATINGS = ("duplicate", "random")


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play the tournament, print its ranking and pairwise table, write the long frame."""
    from ohhell_sim.results import check_output_file, write_frame
    from ohhell_sim.tournament import tournament

    rules = rules_from_args(args)
    seats = seats_from_args(args, rules)
    output = check_output_file(args.output, ".parquet") if args.output else None
    result = tournament(
        rules,
        [seat.spec for seat in seats],
        games=args.games,
        seed=args.seed,
        seating=args.seating,
        threads=args.threads,
        progress=not args.quiet,
    )
    print(result.format())
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_frame(result.games, output)
        print(f"long frame written to {output}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell tournament``."""
    p = sub.add_parser(
        "tournament",
        help="play strategies against each other (duplicate or random seating)",
        description="Play a tournament and print the ranking and pairwise differences "
        "with confidence intervals.",
    )
    add_rules_options(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no word of a kernel compile")
    p.add_argument("--games", type=int, default=400, help="games in all (default 400)")
    p.add_argument("--seating", choices=SEATINGS, default="duplicate", help="default duplicate")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--output", "-o", help="write the long frame to this Parquet file")
    p.set_defaults(func=cmd_tournament)
