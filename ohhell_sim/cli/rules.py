"""``ohhell rules``: every rule parameter, its values, default and variants."""

from __future__ import annotations

import argparse
import json


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rule parameters as text, or as JSON with ``--json``."""
    from ohhell_sim.rules.listing import format_params, param_records

    print(json.dumps(param_records(), indent=1) if args.json else format_params())
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``rules``."""
    p = sub.add_parser("rules", help="list the rule parameters, their values and variants")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.set_defaults(func=cmd_rules)
