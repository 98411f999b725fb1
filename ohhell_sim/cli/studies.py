"""``ohhell experiment``, ``report`` and ``quickstart``: the studies and their reports.

The parsers read the studies' names and options from :mod:`ohhell_sim.studies.catalog`;
a study is imported when a command runs it.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from ohhell_sim.cli.options import add_import_option, import_modules, scheduler_client
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies.catalog import (
    DEFAULT_STUDY,
    SHARED_FIELDS,
    STUDY_NAMES,
    TAKES_FIELD_PAIRS,
    TAKES_RULE_SETS,
    TAKES_STRATEGIES,
    known_fields,
)

if TYPE_CHECKING:
    from ohhell_sim.analysis.report import WrittenReport

#: The saved analysis of a study (:data:`ohhell_sim.analysis.report.ANALYSIS_FILE`; a
#: test keeps them equal).
ANALYSIS_FILE = "analysis.json"

#: The quick start's size: a small version of the default study that finishes in
#: about a minute on a fresh machine, kernel compile included.
QUICKSTART_GAMES = 400
QUICKSTART_PLAYERS = (4, 5)
#: The quick start's strategy fields: two uniform fields and the mixed table, three
#: kernels to compile (the full study's ``mc_bidder`` field alone would take minutes).
QUICKSTART_FIELDS = ("simple", "card_counter", "mix")


def _parse_players(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InvalidArgumentError(
            f"--players expects comma-separated table sizes, e.g. 3,4,5; got {text!r}"
        ) from None


def _parse_names(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _done(written: WrittenReport, data: bool = False) -> int:
    from ohhell_sim.studies.runs import GAMES_FILE, HANDS_FILE, MANIFEST_FILE

    if data:
        print(
            f"data and analysis written to {written.markdown.parent}/ ({HANDS_FILE}, "
            f"{GAMES_FILE}, {MANIFEST_FILE}, {ANALYSIS_FILE})"
        )
    print(written.describe())
    return 0


def cmd_experiment(args: argparse.Namespace) -> int:
    """Run one study and write its data and report."""
    from ohhell_sim.studies.experiment import run_experiment
    from ohhell_sim.studies.spec import check_cluster

    import_modules(args)
    out = args.out or f"runs/{args.name}"
    players = _parse_players(args.players)
    if args.scheduler:
        # A study that cannot play on a cluster is refused before connecting.
        check_cluster(args.name)
    with scheduler_client(args.scheduler) as client:
        written = run_experiment(
            args.name,
            out,
            args.games,
            args.seed,
            players=players,
            progress=not args.quiet,
            strategies=_parse_names(args.strategies),
            fields=_parse_names(args.fields),
            confirm_games=args.confirm_games,
            confirm_seed=args.confirm_seed,
            variants=None if args.variant is None else tuple(args.variant),
            base=args.base,
            keep_hands=args.keep_hands,
            client=client,
        )
    return _done(written, data=True)


def cmd_report(args: argparse.Namespace) -> int:
    """Render a study's report from its data, or the strategy report of a plain run."""
    from ohhell_sim.analysis.report import command_path, write_report
    from ohhell_sim.analysis.run_report import run_report
    from ohhell_sim.results import check_output_folder, read_results
    from ohhell_sim.studies.rendering import render_report
    from ohhell_sim.studies.runs import MANIFEST_FILE
    from ohhell_sim.summary import SUMMARY_FILE

    target = args.target
    if args.out:
        check_output_folder(args.out)
    if target in STUDY_NAMES:
        folder = Path(args.input or f"runs/{target}")
        if not ((folder / MANIFEST_FILE).is_file() or (folder / ANALYSIS_FILE).is_file()):
            raise InvalidArgumentError(
                f"{'--input' if args.input else 'the default folder'} {str(folder)!r} holds no "
                f"output of a study ({MANIFEST_FILE} and {ANALYSIS_FILE} are missing); write "
                f"it with `ohhell "
                f"experiment {target} --out {shlex.quote(str(folder))}`"
            )
        return _done(render_report(folder, args.out, name=target))
    folder = Path(args.input or target)
    if (folder / MANIFEST_FILE).is_file() or (folder / ANALYSIS_FILE).is_file():
        return _done(render_report(folder, args.out))
    if (folder / "hands.parquet").is_file():
        hands, games = read_results(folder)
        out = Path(args.out) if args.out else folder
        report = run_report(
            hands, games, title=args.title, command=f"ohhell report {command_path(folder)}"
        )
        return _done(write_report(report, out))
    if (folder / SUMMARY_FILE).is_file():
        raise InvalidArgumentError(
            f"{str(folder)!r} holds the counts of a --summary run ({SUMMARY_FILE}), which "
            "have no report; write one from a full run (ohhell simulate --output DIR, "
            "without --summary) or from study output"
        )
    raise InvalidArgumentError(
        f"report target {target!r} is neither a study ({', '.join(STUDY_NAMES)}) nor a "
        f"folder holding study output, a saved analysis ({ANALYSIS_FILE}) or "
        "hands.parquet/games.parquet"
    )


def cmd_quickstart(args: argparse.Namespace) -> int:
    """Run a small version of the default study and write its report."""
    from ohhell_sim.analysis.report import command_path
    from ohhell_sim.arguments import check_count, check_seed
    from ohhell_sim.results import check_output_folder
    from ohhell_sim.studies.experiment import run_experiment

    # Checked before the first line is printed, so a bad option prints only its error.
    check_count("games", args.games)
    check_seed(args.seed)
    check_output_folder(args.output)
    command = (
        f"ohhell quickstart --games {args.games} --seed {args.seed} "
        f"--output {command_path(args.output)}"
    )
    print(
        f"Running study {DEFAULT_STUDY} on {args.games} games per condition "
        f"({', '.join(map(str, QUICKSTART_PLAYERS))} players; fields "
        f"{', '.join(QUICKSTART_FIELDS)}), seed {args.seed}"
    )
    written = run_experiment(
        DEFAULT_STUDY,
        args.output,
        args.games,
        args.seed,
        players=QUICKSTART_PLAYERS,
        command=command,
        fields=QUICKSTART_FIELDS,
    )
    text = written.markdown.read_text(encoding="utf-8")
    answer = text.split("## In short", 1)[1].split("\n## ", 1)[0]
    print(answer.strip())
    return _done(written, data=True)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``ohhell quickstart``, ``report`` and ``experiment``."""
    _add_quickstart_parser(sub)
    _add_report_parser(sub)
    _add_experiment_parser(sub)


def _fields_help() -> str:
    # The shared fields, then each study's own: beside them, or instead of them.
    own = []
    for name in STUDY_NAMES:
        known = known_fields(name)
        extra = ",".join(f for f in known if f not in SHARED_FIELDS)
        if extra:
            shared = set(SHARED_FIELDS) <= set(known)
            own.append(f"{name} {'also ' if shared else 'only '}{extra}")
    own += [
        f"{name} also STRONGER/WEAKER, two strategies in alternate seats"
        for name in TAKES_FIELD_PAIRS
    ]
    return "; ".join([f"all: {','.join(SHARED_FIELDS)}", *own])


def _add_experiment_parser(sub: argparse._SubParsersAction) -> None:
    takers = TAKES_STRATEGIES
    p = sub.add_parser(
        "experiment",
        help="run a study, write its Parquet data, figures and report",
        description="Studies: " + ", ".join(STUDY_NAMES) + ".",
    )
    p.add_argument("name", help="the study: " + ", ".join(STUDY_NAMES))
    p.add_argument("--games", type=int, help="games per condition (default: the study's)")
    p.add_argument("--seed", type=int, default=0, help="seed of every condition (default 0)")
    p.add_argument("--players", help="table sizes, e.g. 3,4,5 (default: the study's)")
    p.add_argument(
        "--strategies",
        help=f"{', '.join(takers)} only: the strategies played, e.g. simple,random "
        "(default: every built-in)",
    )
    p.add_argument(
        "--fields",
        help="strategy fields to play each condition in, e.g. simple,mix (default: the "
        f"study's; {_fields_help()})",
    )
    rule_takers = ", ".join(TAKES_RULE_SETS)
    p.add_argument(
        "--variant",
        action="append",
        metavar="RULES",
        help=f"{rule_takers} only, repeatable: a rule set to judge instead of the study's own, "
        "NAME=VALUE rules joined by commas, e.g. --variant hook=false --variant "
        "'made=10*bid,zero=5' (see `ohhell rules`)",
    )
    p.add_argument(
        "--base",
        metavar="RULES",
        help=f"{rule_takers} only: the rule set every --variant is played on top of and "
        "judged against (default: the canonical game), e.g. --base hook=false",
    )
    p.add_argument(
        "--confirm-games",
        type=int,
        help="games per condition of the confirmation run at a second seed, where the "
        "headlines are confirmed (default: half of --games; 0: none)",
    )
    p.add_argument(
        "--confirm-seed",
        type=int,
        help="seed of the confirmation run (default: --seed plus 1; fresh cards)",
    )
    p.add_argument(
        "--keep-hands",
        action="store_true",
        help="keep every deal in hands.parquet where the study needs a few rows per game "
        "of them (by default house_rules keeps one row per seat and game, variant_scoring "
        "one per strategy and game)",
    )
    p.add_argument(
        "--scheduler",
        help="address of a Dask scheduler to play every condition and the confirmation run "
        "on: the same data and report as on this machine (not strategy_ladder, which plays "
        "its own games here)",
    )
    add_import_option(p)
    p.add_argument("--out", "-o", help="output folder (default runs/NAME)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_experiment)


def _add_report_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="write report.md and report.html for a study or a run folder",
        description="ohhell report NAME --input DIR renders a study's report from its data; "
        "ohhell report DIR does the same for a folder of study output or of a saved "
        f"analysis ({ANALYSIS_FILE}, e.g. a committed report under reports/), or writes the "
        "strategy report of a plain `ohhell simulate --output DIR` run.",
    )
    p.add_argument("target", help="a study name, or a folder of study or simulate output")
    p.add_argument("--input", "-i", help="folder of the study's data (default runs/NAME)")
    p.add_argument("--out", "-o", help="folder for the report (default: the input folder)")
    p.add_argument(
        "--title",
        default="Strategy report",
        help="the question a plain run answers (simulate output only)",
    )
    p.set_defaults(func=cmd_report)


def _add_quickstart_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("quickstart", help=f"run a small {DEFAULT_STUDY} study and its report")
    p.add_argument(
        "--games",
        type=int,
        default=QUICKSTART_GAMES,
        help=f"games per condition (default {QUICKSTART_GAMES})",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--output", "-o", default="runs/quickstart", help="output folder")
    p.set_defaults(func=cmd_quickstart)
