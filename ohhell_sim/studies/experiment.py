"""Running a study end to end: check the arguments, play, write the data, render the report."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from ohhell_sim.analysis.report import WrittenReport, command_path, save_analysis, write_report
from ohhell_sim.arguments import check_count, check_seed
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import check_output_folder
from ohhell_sim.studies.catalog import STUDY_NAMES
from ohhell_sim.studies.design import check_fields, check_players
from ohhell_sim.studies.rendering import build_report
from ohhell_sim.studies.runs import write_study
from ohhell_sim.studies.spec import StudySpec, check_cluster, get_study, share_of_games

if TYPE_CHECKING:
    from distributed import Client

#: Share of the games per condition that the confirmation run plays by default.
CONFIRMATION_SHARE = 0.5


def experiment_command(
    name: str,
    games: int,
    seed: int,
    out: Path,
    players: tuple[int, ...],
    strategies: tuple[str, ...] | None,
    fields: tuple[str, ...] | None = None,
    confirmation: tuple[int, int] | None = None,
    variants: tuple[str, ...] | None = None,
    base: str | None = None,
    keep_hands: bool = False,
) -> str:
    """The ``ohhell experiment`` command line that reproduces a run.

    ``confirmation`` is ``(games, seed)`` of the confirmation run when they are
    not the defaults (``(0, ...)`` when none was played).  A study of one's own (not in
    :data:`STUDY_NAMES`) is reproduced by its :func:`run_experiment` call instead.
    """
    if name not in STUDY_NAMES:
        given = {"fields": fields, "strategies": strategies, "variants": variants, "base": base}
        extra = "".join(f", {key}={value!r}" for key, value in given.items() if value)
        if confirmation is not None:
            extra += f", confirm_games={confirmation[0]}, confirm_seed={confirmation[1]}"
        return (
            f"run_experiment({name}, {command_path(out)!r}, games={games}, seed={seed}, "
            f"players={players!r}{extra}{', keep_hands=True' if keep_hands else ''})"
        )
    chosen = f" --strategies {','.join(strategies)}" if strategies else ""
    if fields:
        chosen += f" --fields {shlex.quote(','.join(fields))}"
    if base is not None:
        chosen += f" --base {shlex.quote(base)}"
    for variant in variants or ():
        chosen += f" --variant {shlex.quote(variant)}"
    if keep_hands:
        chosen += " --keep-hands"
    if confirmation is not None:
        chosen += f" --confirm-games {confirmation[0]}"
        if confirmation[0]:
            chosen += f" --confirm-seed {confirmation[1]}"
    return (
        f"ohhell experiment {name} --games {games} --seed {seed} "
        f"--players {','.join(map(str, players))}{chosen} --out {command_path(out)}"
    )


def run_experiment(
    name: str | StudySpec,
    out: str | Path,
    games: int | None = None,
    seed: int = 0,
    *,
    players: object = None,
    progress: bool = True,
    command: str | None = None,
    strategies: tuple[str, ...] | None = None,
    fields: tuple[str, ...] | None = None,
    confirm_games: int | None = None,
    confirm_seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    base: str | None = None,
    keep_hands: bool = False,
    client: Client | None = None,
) -> WrittenReport:
    """Play study ``name``, write its data and analysis into ``out`` and render its report there.

    The study is played twice: at ``seed`` with ``games`` per condition, where
    the findings are made, and at ``confirm_seed`` (fresh cards) with
    ``confirm_games``, where its headlines are confirmed or not.

    Parameters
    ----------
    name : str or StudySpec
        One of :data:`STUDY_NAMES`, or a study of one's own (a :class:`StudySpec`, such as
        :meth:`~ohhell_sim.studies.effects.EffectStudy.spec` makes).
    out : path
        Output folder (created): ``hands.parquet``, ``games.parquet``,
        ``study.json``, the saved analysis ``analysis.json``, ``report.md``,
        ``report.html`` and the figures.
    games, players, fields : optional
        Games per condition, table sizes and strategy fields
        (:data:`ohhell_sim.studies.design.FIELDS`); the study's defaults when None.
    seed : int
        Seed of every condition (common random numbers).
    progress : bool
        Show a progress bar.
    command : str, optional
        The command recorded in the report (the equivalent ``ohhell experiment``
        line when None).
    strategies : tuple of str, optional
        The strategies a study that takes them plays (``strategy_ladder``'s
        challengers; default: every built-in); a study of fixed strategy fields
        refuses them.
    confirm_games, confirm_seed : int, optional
        The confirmation run's games per condition (0 plays none, and the report
        says its headlines are unconfirmed) and seed (it must differ from ``seed``);
        defaults: :data:`CONFIRMATION_SHARE` of the games, ``seed + 1``.
    variants, base : optional
        For a study that takes rule sets (``house_rules``): the rule sets judged, each
        ``NAME=VALUE`` rules joined by commas (``"made=10*bid,zero=5"``), instead of the
        study's own; each is played on top of ``base`` (default: the canonical game),
        against which it is judged on the same cards.
    keep_hands : bool
        Keep every deal in ``hands.parquet`` even where the study needs only a few rows
        per game of them (``house_rules``, ``variant_scoring``, whose memory then grows
        with their deals).
    client : distributed.Client, optional
        Play every condition, and the confirmation run, on this Dask cluster
        (``simulate(..., client=)``): the same data and report as a run on this machine.
        A study that plays its own games (``strategy_ladder``) refuses it.

    Raises
    ------
    InvalidArgumentError
        For a bad argument, before anything is played.
    """
    study = get_study(name) if client is None else check_cluster(name)
    name = study.name
    games = check_count("games", study.default_games if games is None else games)
    seed = check_seed(seed)
    players = check_players(study.default_players if players is None else players)
    if study.check_games is not None:
        study.check_games(games, players)
    confirmation = _check_confirmation(study, games, seed, players, confirm_games, confirm_seed)
    options = {}
    if strategies is not None:
        if not study.takes_strategies:
            takers = [s for s in STUDY_NAMES if get_study(s).takes_strategies]
            raise InvalidArgumentError(
                f"strategies applies to {', '.join(takers)} only; study {name!r} plays fixed "
                "strategy fields"
            )
        options["strategies"] = tuple(strategies)
    if fields is not None:
        # A study may play fields of its own besides the shared ones.
        if study.field_names is not None:
            fields = study.field_names(fields)
        else:
            fields = check_fields(fields, study.known_fields)
        options["fields"] = fields
    if variants is not None or base is not None:
        if not study.takes_rule_sets:
            takers = [s for s in STUDY_NAMES if get_study(s).takes_rule_sets]
            raise InvalidArgumentError(
                f"variants and base apply to {', '.join(takers)} only; study {name!r} plays "
                "its own rules"
            )
        variants = (variants,) if isinstance(variants, str) else variants
        options.update(variants=None if variants is None else tuple(variants), base=base)
    if study.conditions is not None:
        # The design is built (every rule set at every table size) before the folder is made.
        study.conditions(games, players, **options)
    if client is not None:
        from ohhell_sim.run.dask import check_client

        client = check_client(client)
    out = check_output_folder(out)
    data = study.run(
        games, seed, players, progress=progress, keep_hands=keep_hands, client=client, **options
    )
    chosen = (confirm_games, confirm_seed) != (None, None)
    command = command or experiment_command(
        name,
        games,
        seed,
        out,
        players,
        strategies,
        fields,
        confirmation if chosen else None,
        options.get("variants"),
        base,
        keep_hands,
    )
    data.manifest.update(study=name, games=games, players=list(players), command=command)
    confirm_games, confirm_seed = confirmation
    data.manifest["confirmation"] = {"games": confirm_games, "seed": confirm_seed}
    if confirm_games:
        data.confirmation = study.run(
            confirm_games,
            confirm_seed,
            players,
            progress=progress,
            keep_hands=keep_hands,
            client=client,
            **options,
        )
        data.confirmation.manifest.update(
            study=name, games=confirm_games, players=list(players), command=command
        )
    write_study(data, out)
    report = build_report(data, study)
    save_analysis(report, out)
    return write_report(report, out)


def _check_confirmation(
    study: StudySpec,
    games: int,
    seed: int,
    players: tuple[int, ...],
    confirm_games: object,
    confirm_seed: object,
) -> tuple[int, int]:
    """``(games, seed)`` of the confirmation run, defaults filled in, or raise naming the value.

    By default it plays :data:`CONFIRMATION_SHARE` of ``games`` (or the study's own
    ``confirmation_games``) at ``seed + 1``: every shuffle is keyed by seed, game and
    deal, so it shares no deal with the run it confirms.
    """
    if confirm_games is None:
        if study.confirmation_games is not None:
            confirm_games = study.confirmation_games(games, players)
        else:
            confirm_games = share_of_games(games, CONFIRMATION_SHARE)
    confirm_games = check_count("confirm_games", confirm_games, minimum=0)
    if confirm_seed is None:
        confirm_seed = seed + 1
    confirm_seed = check_seed(confirm_seed, "confirm_seed")
    if confirm_games and confirm_seed == seed:
        raise InvalidArgumentError(
            f"confirm_seed must differ from seed ({seed}): at the same seed the confirmation "
            "would replay the cards of the run it confirms"
        )
    if confirm_games and study.check_games is not None:
        study.check_games(confirm_games, players)
    return confirm_games, confirm_seed
