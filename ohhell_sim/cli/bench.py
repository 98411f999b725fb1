"""``ohhell bench``: kernel throughput in deals per second."""

from __future__ import annotations

import argparse
import json

from ohhell_sim.cli.options import add_import_option, import_modules
from ohhell_sim.cli.seats import SEAT_SYNTAX, parse_seat
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.seat_text import split_seats


def cmd_bench(args: argparse.Namespace) -> int:
    """Time the kernel and print deals per second."""
    from ohhell_sim.bench import bench

    import_modules(args)
    seats = split_seats(args.strategy, "--strategy", SEAT_SYNTAX)
    if len(seats) != 1:
        raise InvalidArgumentError(
            f"--strategy takes one seat, the strategy of every seat ({SEAT_SYNTAX}), got "
            f"{len(seats)}: {args.strategy!r}"
        )
    seat = parse_seat(seats[0], "--strategy")
    result = bench(
        players=args.players,
        cards=args.cards,
        strategy=seat.spec,
        deals=args.deals,
        threads=args.threads,
        seed=args.seed,
        repeats=args.repeats,
        progress=not args.quiet,
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['deals_per_second']:,.0f} deals/s ({result['strategy']}, "
            f"{result['players']} players x {result['cards']} cards, "
            f"{result['threads']} thread(s), {result['machine']})"
        )
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell bench``."""
    p = sub.add_parser("bench", help="measure kernel throughput in deals per second")
    p.add_argument("--quiet", "-q", action="store_true", help="no word of a kernel compile")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--cards", type=int, default=10, help="hand size of every deal")
    p.add_argument("--strategy", default="random", help=f"strategy in every seat, {SEAT_SYNTAX}")
    add_import_option(p)
    p.add_argument("--deals", type=int, default=2_000_000, help="deals per timed run")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs; the best counts")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_bench)
