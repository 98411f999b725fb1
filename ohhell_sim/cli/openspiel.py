"""``ohhell openspiel-match``: our strategies against OpenSpiel's bots in its ``oh_hell``."""

from __future__ import annotations

import argparse

from ohhell_sim.cli.options import add_import_option, import_modules, parse_int_list
from ohhell_sim.cli.seats import SEAT_SYNTAX, parse_seat
from ohhell_sim.seat_text import split_seats

#: The grid a match plays when not told (``ohhell_sim.interop.openspiel_matches``'s
#: defaults, which a test keeps equal to these).
DEFAULT_OPPONENTS = ("ismcts:1000", "ismcts:10000")
DEFAULT_PLAYERS = (3, 4, 5)
DEFAULT_TRICKS = (5, 10)
DEFAULT_DEALS = 20


def cmd_openspiel_match(args: argparse.Namespace) -> int:
    """Play the grid of matches the folder does not hold yet, then write its report."""
    from ohhell_sim.arguments import check_count
    from ohhell_sim.interop.openspiel_matches import (
        is_openspiel_bot,
        match_command,
        plan_matches,
        record_run,
        run_matches,
    )
    from ohhell_sim.studies.openspiel_match import write_match_report

    import_modules(args)
    strategies = texts = None
    if args.strategies is not None:
        texts = split_seats(args.strategies, "--strategies", SEAT_SYNTAX)
        strategies = [text if is_openspiel_bot(text) else parse_seat(text).label for text in texts]
    check_count("--jobs", args.jobs)
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    players = parse_int_list(args.players, "--players")
    tricks = parse_int_list(args.tricks, "--tricks")
    matches = plan_matches(
        strategies, opponents, players, tricks, args.deals, args.seed, args.told_stock
    )
    if not args.report_only:
        command = match_command(
            texts,
            opponents,
            players,
            tricks,
            args.deals,
            args.seed,
            args.out,
            args.told_stock,
        )
        run_matches(
            matches,
            args.out,
            command=command,
            note=args.note,
            progress=not args.quiet,
            jobs=args.jobs,
        )
    elif args.note:
        record_run(args.out, "", 0, 0, args.note)
    print(write_match_report(args.out).describe())
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell openspiel-match``."""
    p = sub.add_parser(
        "openspiel-match",
        help="duplicate matches against OpenSpiel's bots (needs the openspiel extra)",
        description="Each strategy in one seat against OpenSpiel bots in the others, in "
        "OpenSpiel's oh_hell, every deal set replayed with the seats rotated. Matches the "
        "output folder already holds are not played again; the report covers every match "
        "the folder holds.",
    )
    p.add_argument(
        "--strategies",
        help="our strategies, comma-separated seats as in simulate (default: every built-in); "
        "an OpenSpiel bot (ismcts:N, mcts:N, random) here plays the seat as a baseline",
    )
    p.add_argument(
        "--opponents",
        default=",".join(DEFAULT_OPPONENTS),
        help="OpenSpiel bots: random, ismcts:N, mcts:N, fair_ismcts:N (ISMCTS dealing its "
        "worlds fairly), py_ismcts:N (its control) (default %(default)s)",
    )
    p.add_argument(
        "--players",
        default=",".join(map(str, DEFAULT_PLAYERS)),
        help="table sizes, 3-7 (default %(default)s)",
    )
    p.add_argument(
        "--tricks",
        default=",".join(map(str, DEFAULT_TRICKS)),
        help="tricks per deal (default %(default)s)",
    )
    p.add_argument(
        "--deals", type=int, default=DEFAULT_DEALS, help="deal sets per match (default %(default)s)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the cards and bots (default 0)")
    p.add_argument(
        "--told-stock",
        action="store_true",
        help="also play each strategy of ours told which cards are undealt, as OpenSpiel's "
        "resampler tells its ISMCTS, to measure what that is worth (not a fair player)",
    )
    add_import_option(p)
    p.add_argument("--out", "-o", default="runs/openspiel_match", help="output folder")
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="matches played at once, each in its own process (default 1)",
    )
    p.add_argument(
        "--report-only", action="store_true", help="play nothing; write the folder's report"
    )
    p.add_argument(
        "--note",
        default="",
        help="a note kept with the run and shown in the report (e.g. which code played)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_openspiel_match)
