"""``ohhell analyse`` and ``ohhell advise``: where a strategy loses its points, and what to play.

The analysis and the search are imported inside the commands, so that the
parser (``ohhell --help``) loads neither.
"""

from __future__ import annotations

import argparse

from ohhell_sim.cli.options import (
    add_rules_options,
    import_modules,
    parse_int_list,
    rules_from_args,
    seats_from_args,
)
from ohhell_sim.errors import InvalidArgumentError


def _reference(args: argparse.Namespace):
    from ohhell_sim.decisions import Reference

    return Reference(precision=args.precision, max_samples=args.max_samples)


def _decision_places(texts: list[str] | None) -> list[tuple[int, ...]] | None:
    if not texts:
        return None
    places = [tuple(parse_int_list(text, "--decision")) for text in texts]
    for place in places:
        if len(place) != 4:
            raise InvalidArgumentError(
                f"--decision expects GAME,DEAL,SEAT,STEP (four integers), got {place!r}"
            )
    return places


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyse the sampled decisions of a run; print the costliest situations."""
    from ohhell_sim.analysis.format import display_table, fmt_ci
    from ohhell_sim.analysis.report import write_report
    from ohhell_sim.decisions import analyse_decisions, cost_by, decision_report
    from ohhell_sim.results import check_output_file, write_frame

    reference = _reference(args)
    output = check_output_file(args.output, ".parquet") if args.output else None
    seats = parse_int_list(args.seats, "--seats") if args.seats else None
    places = _decision_places(args.decision)
    decisions = places if places is not None else args.decisions
    common = dict(
        games=args.games,
        decisions=decisions,
        seats=seats,
        reference=reference,
        takeover=args.takeover,
        rollouts=args.rollouts,
    )
    if args.run:
        import_modules(args)
        frame = analyse_decisions(args.run, **common)
    else:
        rules = rules_from_args(args)
        specs = [seat.spec for seat in seats_from_args(args, rules)]
        frame = analyse_decisions(rules=rules, strategies=specs, seed=args.seed, **common)
    if frame.empty:
        print("no decision with a choice in these games and seats")
        return 0
    total = cost_by(frame.assign(all="all"), "all").iloc[0]
    print(
        f"{len(frame)} decisions analysed of {frame.attrs['choices']} with a choice; cost "
        f"{fmt_ci(total['estimate'], total['low'], total['high'], 2)} points per seat per game"
    )
    if args.takeover:
        gap = cost_by(frame.assign(all="all"), "all", column="gap").iloc[0]
        print(
            f"taking the seat over, {frame.attrs['takeover']['player']} would gain "
            f"{fmt_ci(gap['estimate'], gap['low'], gap['high'], 2)} points per seat per game"
        )
    table = cost_by(frame, "situation").head(10)
    keep = ["situation", "decisions", "mean_cost", "estimate", "low", "high", "share"]
    print(display_table(table[keep], digits=2).to_string(index=False))
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_frame(frame, output)
        print(f"decisions written to {output}")
    if args.report:
        report = decision_report(frame, command=_analyse_command(args))
        written = write_report(report, args.report)
        print(written.describe())
    return 0


def _analyse_command(args: argparse.Namespace) -> str:
    """The command that reproduces the analysis, for the report."""
    import shlex

    from ohhell_sim.analysis.report import command_path

    parts = ["ohhell analyse"]
    if args.run:
        parts.append(f"--from {command_path(args.run)}")
    else:
        parts.append(f"--players {args.players} --preset {args.preset}")
        if args.schedule:
            parts.append(f"--schedule {args.schedule}")
        parts.extend(f"--rule {shlex.quote(rule)}" for rule in args.rule or ())
        parts.append(f"--strategies {shlex.quote(args.strategies)} --seed {args.seed}")
    parts.extend(f"--import {shlex.quote(ref)}" for ref in args.imports or ())
    parts.append(f"--games {args.games} --decisions {args.decisions}")
    parts.extend(f"--decision {place}" for place in args.decision or ())
    if args.seats:
        parts.append(f"--seats {args.seats}")
    parts.append(f"--precision {args.precision} --max-samples {args.max_samples}")
    if args.takeover:
        parts.append(f"--takeover {shlex.quote(args.takeover)} --rollouts {args.rollouts}")
    parts.append(f"--report {command_path(args.report)}")
    return " ".join(parts)


def cmd_advise(args: argparse.Namespace) -> int:
    """Print every legal bid or card of the position with its expected points."""
    from ohhell_sim.analysis.format import fmt_ci
    from ohhell_sim.decisions import advise

    rules = rules_from_args(args)
    bids = parse_int_list(args.bids, "--bids") if args.bids else []
    frame = advise(
        args.hand,
        position=args.position,
        trump=args.trump,
        turned=args.turned,
        bids=bids,
        played=args.played or (),
        rules=rules,
        reference=_reference(args),
        seed=args.seed,
    )
    attrs = frame.attrs
    samples = f", {attrs['samples']} samples" if attrs["samples"] else ""
    print(f"{attrs['phase']}: expected points in this deal ({attrs['reference']}{samples})")
    for _, row in frame.iterrows():
        value = fmt_ci(row["value"], row["value_low"], row["value_high"], 2)
        loss = fmt_ci(row["loss"], row["loss_low"], row["loss_high"], 2)
        mark = "  <- best" if row["best"] else ""
        print(f"  {row['move']!s:>4}  {value}   loses {loss}{mark}")
    return 0


def _add_search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--precision",
        type=float,
        default=0.2,
        help="widest interval on a cost either side of its estimate, in points (default 0.2)",
    )
    p.add_argument(
        "--max-samples", type=int, default=16384, help="most samples per decision (default 16384)"
    )


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell analyse`` and ``ohhell advise``."""
    p = sub.add_parser(
        "analyse",
        help="value a run's decisions against a reference: where a strategy loses its points",
        description="Replay games of a run, sample their decisions and value every legal move "
        "from the deciding seat's view with the reference (adaptive_pimc's search; the exact "
        "solver for one-card bids); print the costliest situations.",
    )
    add_rules_options(p)
    p.add_argument(
        "--from",
        dest="run",
        metavar="PATH",
        help="a run's Parquet results (folder or file): rules, seats and seed from its metadata",
    )
    p.add_argument("--games", type=int, default=10, help="games replayed (default 10)")
    p.add_argument("--decisions", type=int, default=1000, help="decisions analysed (default 1000)")
    p.add_argument(
        "--decision",
        action="append",
        metavar="GAME,DEAL,SEAT,STEP",
        help="analyse this decision (repeatable; step 0 is the bid, t+1 the card to trick t)",
    )
    p.add_argument("--seats", help="comma-separated seats analysed (default all)")
    p.add_argument(
        "--takeover",
        metavar="STRATEGY",
        help="also give each decision its term of the gap to this player (e.g. adaptive_pimc): "
        "the terms add up to the measured duplicate gap",
    )
    p.add_argument(
        "--rollouts", type=int, default=16, help="with --takeover: rollout pairs (default 16)"
    )
    _add_search_options(p)
    p.add_argument("--output", "-o", help="write the decisions to this Parquet file")
    p.add_argument("--report", metavar="DIR", help="write report.md and report.html here")
    p.set_defaults(func=cmd_analyse)

    q = sub.add_parser(
        "advise",
        help="expected points of each legal bid or card of a position",
        description="Value every legal bid or card of a position with the reference search, "
        "under the rules' scoring. Positions count from the dealer's left (0 bids first and "
        "leads); cards as players write them, e.g. 'AS KH 10D'.",
    )
    q.add_argument("--players", type=int, default=4, help="players, 3-10 (default 4)")
    q.add_argument("--preset", default="canonical", help="rules profile (default canonical)")
    q.add_argument("--rule", action="append", metavar="NAME=VALUE", help="a rule, e.g. made=10*bid")
    q.add_argument("--hand", required=True, help="the cards held now, e.g. 'AS KH 10D'")
    q.add_argument("--position", type=int, required=True, help="0 = dealer's left")
    q.add_argument("--trump", help="trump suit (S, H, D, C) or N; default the turned card's")
    q.add_argument("--turned", help="the turned-up card, e.g. 7S")
    q.add_argument("--bids", help="bids so far in bidding order, e.g. 1,0")
    q.add_argument("--played", help="cards played so far in order from the first lead")
    q.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    _add_search_options(q)
    q.set_defaults(func=cmd_advise, schedule=None)
