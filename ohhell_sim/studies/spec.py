"""What a study is, declared once: its question, the defaults of its design, and its two steps.

Every study module ends with a :class:`StudySpec` named ``SPEC``; the machinery that
plays a study (:mod:`ohhell_sim.studies.experiment`) reads that and nothing else of
the module (:func:`get_study`), so that no study is handled by its name.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

import pandas as pd

from ohhell_sim.analysis.report import Report
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies.catalog import STUDY_NAMES
from ohhell_sim.studies.design import FIELDS
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.study_play import play_conditions, play_parts

if TYPE_CHECKING:
    from distributed import Client

#: What a study's ``hands.parquet`` holds when its hands were reduced (its manifest says).
REDUCED_HANDS = "a few rows per game: what the analysis needs (--keep-hands keeps every deal)"

#: Games a run plays at least, however small its share: two, so that a paired
#: interval over games exists.
MIN_SHARE_GAMES = 2


def share_of_games(games: int, share: float) -> int:
    """``share`` of ``games``, rounded, at least :data:`MIN_SHARE_GAMES` (a slow field, a
    confirmation run)."""
    return max(MIN_SHARE_GAMES, round(games * share))


@dataclass(frozen=True)
class StudySpec:
    """A study's declaration, read by :func:`~ohhell_sim.studies.experiment.run_experiment`.

    Attributes
    ----------
    name, question : str
        The name ``ohhell experiment`` takes; the question its report answers (its title).
    conditions : callable, optional
        ``conditions(games, players, fields=...) -> list of Condition``: the design,
        which :meth:`run` plays with one seed for all.
    play : callable, optional
        ``play(games, seed, players, progress, fields=..., [strategies=...]) -> StudyData``,
        instead of ``conditions``, for a study that plays more (one-card deals); it
        takes ``client=`` too when it can play on a Dask cluster
        (:attr:`plays_on_cluster`).
    part_of, keep_part : callable, optional
        ``part_of(condition) -> str``: the conditions are played part by part, each with its
        own progress bar (:func:`~ohhell_sim.studies.study_play.play_parts`), and
        ``keep_part(part, hands) -> DataFrame`` what is kept of a part's hands (a probe's
        seat).
    analyse : callable
        ``analyse(StudyData) -> Report``, the run and its confirmation read together.
    default_games, default_players, default_fields
        What a run plays when not told: games per condition, table sizes, strategy fields.
    known_fields, field_shares
        The fields it can play; the share of the games a slow field plays (:meth:`field_games`).
    takes_strategies : bool
        Whether it plays the strategies it is given (``--strategies``).
    takes_rule_sets : bool
        Whether it plays the rule sets it is given (``--variant``, ``--base``).
    reduce_hands : callable, optional
        ``reduce_hands(hands) -> DataFrame``: what the analysis needs of the hands of
        whole games (a chunk of a condition's games as they are played, or a batch of a
        kept run's games as they are read: a few rows per game), kept instead of every deal
        unless a run asks for the hands (``keep_hands``): a study's memory then grows by
        those rows per game.
    field_names : callable, optional
        ``field_names(fields) -> tuple of str``: the fields checked, raising for a bad one,
        when the study takes fields of its own making (``STRONGER/WEAKER`` pairs) besides
        ``known_fields``.
    check_games, confirmation_games : callable, optional
        ``(games, players)``: raise for games its design cannot play; the confirmation
        run's games when the default share does not fit (the ladder's rotations).
    """

    name: str
    question: str
    analyse: Callable[[StudyData], Report]
    default_games: int
    default_players: tuple[int, ...]
    default_fields: tuple[str, ...]
    known_fields: tuple[str, ...] = FIELDS
    field_shares: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    takes_strategies: bool = False
    takes_rule_sets: bool = False
    field_names: Callable[[object], tuple[str, ...]] | None = None
    reduce_hands: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    check_games: Callable[[int, tuple[int, ...]], None] | None = None
    confirmation_games: Callable[[int, tuple[int, ...]], int] | None = None
    conditions: Callable[..., list[Condition]] | None = None
    play: Callable[..., StudyData] | None = None
    part_of: Callable[[Condition], str] | None = None
    keep_part: Callable[[str, pd.DataFrame], pd.DataFrame] | None = None

    def __post_init__(self) -> None:
        if (self.conditions is None) == (self.play is None):
            raise TypeError(f"study {self.name!r} must declare one of conditions and play")
        if self.part_of is not None and self.conditions is None:
            raise TypeError(f"study {self.name!r}: part_of splits conditions; it declares none")
        if self.keep_part is not None and self.part_of is None:
            raise TypeError(f"study {self.name!r}: keep_part needs part_of, the parts it keeps")

    @property
    def plays_on_cluster(self) -> bool:
        """Whether :meth:`run` can play on a Dask cluster: its ``conditions`` can (each is
        played through :func:`~ohhell_sim.simulate`), a ``play`` of its own when it takes
        ``client``."""
        return self.play is None or "client" in inspect.signature(self.play).parameters

    def run(
        self,
        games: int,
        seed: int,
        players: tuple[int, ...],
        progress: bool = True,
        keep_hands: bool = False,
        client: Client | None = None,
        **options,
    ) -> StudyData:
        """The study played once at ``seed``: its ``play``, or its ``conditions`` played, part
        by part when it names them (``part_of``), else each condition's hands reduced by
        ``reduce_hands`` unless ``keep_hands``; on ``client``'s Dask cluster when given
        (see :attr:`plays_on_cluster`)."""
        if self.play is not None:
            on = {} if client is None else {"client": client}
            return self.play(games, seed, players, progress=progress, **on, **options)
        design = self.conditions(games, players, **options)
        if self.part_of is not None:
            return play_parts(
                design,
                self.part_of,
                seed,
                progress=progress,
                description=self.name,
                keep=self.keep_part,
                client=client,
            )
        reduce = None if keep_hands else self.reduce_hands
        data = play_conditions(
            design, seed, progress=progress, description=self.name, reduce=reduce, client=client
        )
        if reduce is not None:
            data.manifest["hands"] = REDUCED_HANDS
        return data

    def field_games(self, field_name: str, games: int) -> int:
        """Games per condition of ``field_name`` when the study plays ``games`` (its share)."""
        return share_of_games(games, self.field_shares.get(field_name, 1.0))


def get_study(name: object) -> StudySpec:
    """The declaration of study ``name`` (its module's ``SPEC``; a :class:`StudySpec` is
    returned as it is); an unknown name raises, listing the studies."""
    if isinstance(name, StudySpec):
        return name
    if name not in STUDY_NAMES:
        raise InvalidArgumentError(f"unknown study {name!r}; studies: {', '.join(STUDY_NAMES)}")
    return importlib.import_module(f"ohhell_sim.studies.{name}").SPEC


def check_cluster(name: object) -> StudySpec:
    """The declaration of study ``name`` (as :func:`get_study`) when it can play on a Dask
    cluster (:attr:`StudySpec.plays_on_cluster`); otherwise raise, naming the studies that
    can."""
    study = get_study(name)
    if not study.plays_on_cluster:
        able = [s for s in STUDY_NAMES if get_study(s).plays_on_cluster]
        raise InvalidArgumentError(
            f"a Dask cluster (--scheduler, client=) runs {', '.join(able)} only; study "
            f"{study.name!r} plays its own games, on this machine"
        )
    return study
