"""Options shared by the subcommands: the rules, the seats, ``--import`` and ``--scheduler``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ohhell_sim.cli.seats import SEAT_SYNTAX, Seat, import_strategy_module, parse_seats
from ohhell_sim.errors import InvalidArgumentError

if TYPE_CHECKING:
    from distributed import Client

    from ohhell_sim.rules import Rules


def parse_int_list(text: str, option: str) -> list[int]:
    """Parse ``"10,9,8"`` into integers, naming ``option`` in the error."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InvalidArgumentError(
            f"{option} expects comma-separated integers, got {text!r}"
        ) from None


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Build :class:`Rules` from ``--preset``, ``--players``, ``--schedule`` and ``--rule``."""
    from ohhell_sim.rules import rules_from_options

    return rules_from_options(args.preset, args.players, args.schedule, args.rule or ())


def add_import_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--import MODULE`` (repeatable): modules that register strategies."""
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        metavar="MODULE",
        help="import a module (name, or path to a .py file) that registers strategies, "
        "before the strategy names are read (repeatable)",
    )


def import_modules(args: argparse.Namespace) -> None:
    """Import the modules of ``--import``, in order."""
    for ref in args.imports or []:
        import_strategy_module(ref, "--import")


@contextmanager
def scheduler_client(address: str | None) -> Iterator[Client | None]:
    """The Dask client connected to ``address`` (``--scheduler``; its workers checked by
    :func:`ohhell_sim.run.dask.connect`), closed on leaving; None without an address."""
    if not address:
        yield None
        return
    from ohhell_sim.run.dask import connect

    client = connect(address)
    try:
        yield client
    finally:
        client.close()


def seats_from_args(args: argparse.Namespace, rules: Rules) -> list[Seat]:
    """Import the ``--import`` modules, then read one :class:`Seat` per player of ``rules``.

    The players are the rules' (``--rule players=5`` counts as ``--players 5``).
    """
    import_modules(args)
    return parse_seats(args.strategies, rules.players)


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """Add the rules options, ``--strategies``, ``--import`` and ``--seed``."""
    parser.add_argument("--players", type=int, default=4, help="players, 3-10 (default 4)")
    parser.add_argument(
        "--preset", default="canonical", help="rules profile: canonical, online, openspiel"
    )
    parser.add_argument(
        "--schedule", help="hand size of each deal, e.g. 10,9,8 (default: canonical 10..1..10)"
    )
    parser.add_argument(
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="a rule parameter, e.g. hook=false or max_cards=7 (repeatable; see ohhell rules)",
    )
    parser.add_argument(
        "--strategies",
        default="simple",
        help=f"comma-separated seats, one per player or one for all (default simple); a seat "
        f"is {SEAT_SYNTAX}, e.g. simple, mymod:cautious or 'simple[scale=2]'",
    )
    add_import_option(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
