"""``ohhell train-bids``: fit the ``learned`` strategy's bid table."""

from __future__ import annotations

import argparse

from ohhell_sim.cli.options import parse_int_list


def cmd_train_bids(args: argparse.Namespace) -> int:
    """Train the bid table and save it."""
    from ohhell_sim.results import check_output_file
    from ohhell_sim.strategies.learned import TABLE_FILE, save_bid_table, train_bid_table

    players = parse_int_list(args.players, "--players")
    output = args.output or TABLE_FILE
    check_output_file(output, ".npz")
    table = train_bid_table(players, deals=args.deals, seed=args.seed, max_hand=args.max_hand)
    path = save_bid_table(table, output)
    size = path.stat().st_size
    print(f"bid table for players {players} written to {path} ({size:,} bytes)")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell train-bids``."""
    p = sub.add_parser(
        "train-bids",
        help="fit the learned strategy's bid table by simulation",
        description="Fit the table of trick-count distributions of the learned strategy's "
        "bids by simulation.",
    )
    p.add_argument(
        "--players", default="3,4,5,6,7", help="table sizes, comma-separated (default 3-7)"
    )
    p.add_argument("--deals", type=int, default=200_000, help="deals per table size and hand size")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-hand", type=int, help="largest hand size (default: canonical start)")
    p.add_argument(
        "--output",
        "-o",
        help="output .npz file (default: the file the strategy reads, in the current folder)",
    )
    p.set_defaults(func=cmd_train_bids)
