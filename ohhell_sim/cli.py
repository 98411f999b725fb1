"""The ``ohhell`` command.

Subcommands: ``simulate``, ``quickstart``, ``experiment``, ``report``, ``replay``,
``bench``, ``tournament``, ``train-bids``, ``strategies``.  Every option is
checked (by the same validators as the Python API) before anything compiles or
runs; a bad option prints one line naming it and exits with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence

from ohhell_sim._version import __version__
from ohhell_sim.analysis.format import format_summary
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import check_output_folder
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import available_strategies, get_strategy
from ohhell_sim.tournament import add_tournament_parser
from strategies.learned import add_train_bids_parser
from studies.cli import add_experiment_parser, add_quickstart_parser, add_report_parser

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


def seating_from_args(args: argparse.Namespace) -> list[str]:
    """Strategy per seat: a comma list, or one name repeated for every seat."""
    names = [n.strip() for n in args.strategies.split(",") if n.strip()]
    if len(names) == 1:
        names = names * args.players
    for name in names:
        get_strategy(name)
    return names


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
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
        help="comma-separated strategy per seat, or one name for all seats (default simple)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")


def cmd_simulate(args: argparse.Namespace) -> int:
    from ohhell_sim.simulate import simulate
    from ohhell_sim.summary import summarise

    rules = rules_from_args(args)
    strategies = seating_from_args(args)
    output = check_output_folder(args.output) if args.output else None
    client = None
    if args.scheduler:
        from ohhell_sim.distributed import connect

        client = connect(args.scheduler)
    run = summarise if args.summary else simulate
    try:
        result = run(
            rules,
            strategies,
            games=args.games,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet,
            client=client,
        )
    finally:
        if client is not None:
            client.close()
    print(
        f"{args.games} games of {rules.n_deals} deals, {rules.players} players, "
        f"seed {args.seed}: {', '.join(strategies)}"
    )
    if args.summary:
        table = result.standings().join(result.table(["strategy"]))
        print(format_summary(table[_SUMMARY_COLUMNS], digits=3))
        if output is not None:
            print(f"summary written to {result.to_parquet(output)}")
        return 0
    summary = result.summary()
    print(format_summary(summary[summary["measure"].isin(_SUMMARY_MEASURES)], digits=3))
    if output is not None:
        result.to_parquet(output)
        print(f"results written to {output}/ (hands.parquet, games.parquet)")
    return 0


_SUMMARY_MEASURES = ("mean_score", "made_rate", "zero_bid_rate", "win_share")
# The count tables of a --summary run are wide (x, x_low, x_high).
_SUMMARY_COLUMNS = [
    "seats",
    *(f"{c}{s}" for c in _SUMMARY_MEASURES for s in ("", "_low", "_high")),
]


def cmd_replay(args: argparse.Namespace) -> int:
    from ohhell_sim.reference import replay

    log = replay(rules_from_args(args), seating_from_args(args), seed=args.seed, game=args.game)
    print(json.dumps(log.to_dict(), indent=1) if args.json else log)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from ohhell_sim.bench import bench

    get_strategy(args.strategy)
    result = bench(
        players=args.players,
        cards=args.cards,
        strategy=args.strategy,
        deals=args.deals,
        threads=args.threads,
        seed=args.seed,
        repeats=args.repeats,
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


def cmd_strategies(args: argparse.Namespace) -> int:
    for name in available_strategies():
        strategy = get_strategy(name)
        params = ", ".join(f"{k}={v:g}" for k, v in strategy.params.items()) or "no parameters"
        kind = "stochastic" if strategy.stochastic else "deterministic"
        print(f"{name} ({kind}; {params})")
        if args.verbose and strategy.description:
            print("    " + strategy.description.replace("\n", "\n    "))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ohhell", description="Simulate the card game Oh Hell between strategies."
    )
    parser.add_argument("--version", action="version", version=f"ohhell-sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("simulate", help="play games and print a summary per strategy")
    _add_rules_options(p)
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--output", "-o", help="folder for hands.parquet and games.parquet")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--scheduler", help="address of a Dask scheduler to run the games on")
    p.add_argument(
        "--summary",
        action="store_true",
        help="keep only summary counts, in constant memory (writes summary.parquet)",
    )
    p.set_defaults(func=cmd_simulate)

    add_quickstart_parser(sub)
    add_report_parser(sub)
    add_experiment_parser(sub)

    p = sub.add_parser("replay", help="print one game of a run, step by step")
    _add_rules_options(p)
    p.add_argument("--game", type=int, default=0, help="index of the game in the run")
    p.add_argument("--json", action="store_true", help="print the game log as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="measure kernel throughput in deals per second")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--cards", type=int, default=10, help="hand size of every deal")
    p.add_argument("--strategy", default="random", help="strategy in every seat")
    p.add_argument("--deals", type=int, default=2_000_000, help="deals per timed run")
    p.add_argument("--threads", type=int, help="Numba threads (default: all cores)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs; the best counts")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_bench)

    add_tournament_parser(sub)
    add_train_bids_parser(sub)

    p = sub.add_parser("strategies", help="list the registered strategies")
    p.add_argument("--verbose", "-v", action="store_true", help="print descriptions")
    p.set_defaults(func=cmd_strategies)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ohhell`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func
    try:
        return command(args)
    except (ValueError, TypeError) as error:
        parser.exit(2, f"ohhell {args.command}: error: {error}\n")
    except KeyboardInterrupt:
        parser.exit(130, "interrupted\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
