"""``ohhell replay``: print one game of a run, step by step."""

from __future__ import annotations

import argparse
import json

from ohhell_sim.cli.options import add_rules_options, rules_from_args, seats_from_args


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay game ``--game`` of the run and print its log."""
    from ohhell_sim.reference import replay

    rules = rules_from_args(args)
    seats = [seat.spec for seat in seats_from_args(args, rules)]
    log = replay(rules, seats, seed=args.seed, game=args.game)
    print(json.dumps(log.to_dict(), indent=1) if args.json else log)
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell replay``."""
    p = sub.add_parser("replay", help="print one game of a run, step by step")
    add_rules_options(p)
    p.add_argument("--game", type=int, default=0, help="index of the game in the run")
    p.add_argument("--json", action="store_true", help="print the game log as JSON")
    p.set_defaults(func=cmd_replay)
