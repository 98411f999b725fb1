"""Options shared by the subcommands: the rules, the seats and ``--import``."""

from __future__ import annotations

import argparse
import dataclasses

from ohhell_sim.cli.seats import SEAT_SYNTAX, Seat, import_strategy_module, parse_seats
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules

_RULE_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def parse_rule(text: str) -> tuple[str, object]:
    """Parse ``NAME=VALUE`` into a :class:`Rules` keyword, typed like the field's default."""
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or name not in _RULE_FIELDS:
        known = ", ".join(n for n in _RULE_FIELDS if n not in ("players", "schedule"))
        raise InvalidArgumentError(
            f"--rule expects NAME=VALUE with NAME one of: {known}; got {text!r}"
        )
    default = _RULE_FIELDS[name].default
    raw = raw.strip()
    if isinstance(default, bool):
        lowered = raw.lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise InvalidArgumentError(f"--rule {name} expects true or false, got {raw!r}")
        return name, lowered in ("true", "1", "yes", "on")
    if isinstance(default, int):
        try:
            return name, int(raw)
        except ValueError:
            raise InvalidArgumentError(f"--rule {name} expects an integer, got {raw!r}") from None
    return name, raw


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
    kwargs: dict[str, object] = {"players": args.players}
    if args.schedule:
        kwargs["schedule"] = parse_int_list(args.schedule, "--schedule")
    for item in args.rule or []:
        name, value = parse_rule(item)
        kwargs[name] = value
    return Rules.preset(args.preset, **kwargs)


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


def seats_from_args(args: argparse.Namespace) -> list[Seat]:
    """Import the ``--import`` modules, then read one :class:`Seat` per player."""
    import_modules(args)
    return parse_seats(args.strategies, args.players)


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
        help="a rule switch, e.g. hook=false or made=10*bid (repeatable)",
    )
    parser.add_argument(
        "--strategies",
        default="simple",
        help=f"comma-separated seats, one per player or one for all (default simple); a seat "
        f"is {SEAT_SYNTAX}, e.g. simple, mymod:cautious or 'simple[scale=2]'",
    )
    add_import_option(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
