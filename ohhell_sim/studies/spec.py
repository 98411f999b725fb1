"""What a study is, declared once: its question, the defaults of its design, and its two steps.

Every study module ends with a :class:`StudySpec` named ``SPEC``; the
machinery that plays a study (:mod:`ohhell_sim.studies.experiment`: the
arguments, the run, the confirmation run, the saved data and the report)
reads that and nothing else of the module, so that no study is handled by its
name.  A study that declares its conditions is played by :meth:`StudySpec.run`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ohhell_sim.analysis.report import Report
from ohhell_sim.studies.design import FIELDS
from ohhell_sim.studies.runs import Condition, StudyData, play_conditions

#: Games a run plays at least, however small its share: two, so that a paired
#: interval over games exists.
MIN_SHARE_GAMES = 2


def share_of_games(games: int, share: float) -> int:
    """``share`` of ``games``, rounded, and at least :data:`MIN_SHARE_GAMES`: the games
    of a slow field, or of a confirmation run."""
    return max(MIN_SHARE_GAMES, round(games * share))


@dataclass(frozen=True)
class StudySpec:
    """A study's declaration, read by :func:`~ohhell_sim.studies.experiment.run_experiment`.

    Attributes
    ----------
    name : str
        The name ``ohhell experiment`` takes.
    question : str
        The question its report answers (the report's title).
    conditions : callable, optional
        ``conditions(games, players, fields=...) -> list of Condition``: the
        design, which :meth:`run` plays with
        :func:`~ohhell_sim.studies.runs.play_conditions` (the same seed for all).
    play : callable, optional
        ``play(games, seed, players, progress, fields=..., [strategies=...])
        -> StudyData``, for a study that plays more than its conditions (a
        probe, one-card deals); it replaces ``conditions``.
    analyse : callable
        ``analyse(StudyData) -> Report``, the run and its confirmation read together.
    default_games, default_players, default_fields
        What a run plays when not told: games per condition, table sizes, and
        strategy fields.
    known_fields : tuple of str
        The fields it can play (:data:`~ohhell_sim.studies.design.FIELDS`
        and, for a study with fields of its own, those).
    field_shares : mapping of str to float
        The share of the games per condition a slow field plays (the others
        play them all); see :meth:`field_games`.
    takes_strategies : bool
        Whether it plays the strategies it is given (``--strategies``); a study
        of fixed fields refuses them.
    check_games : callable, optional
        ``check_games(games, players)`` raises for a number of games its design
        cannot play (the ladder's rotations).
    confirmation_games : callable, optional
        ``confirmation_games(games, players)``: the confirmation run's games
        when the default share does not fit the design.
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
    check_games: Callable[[int, tuple[int, ...]], None] | None = None
    confirmation_games: Callable[[int, tuple[int, ...]], int] | None = None
    conditions: Callable[..., list[Condition]] | None = None
    play: Callable[..., StudyData] | None = None

    def __post_init__(self) -> None:
        if (self.conditions is None) == (self.play is None):
            raise TypeError(f"study {self.name!r} must declare one of conditions and play")

    def run(
        self, games: int, seed: int, players: tuple[int, ...], progress: bool = True, **options
    ) -> StudyData:
        """The study played once at ``seed``: its ``play``, or its ``conditions`` played."""
        if self.play is not None:
            return self.play(games, seed, players, progress=progress, **options)
        design = self.conditions(games, players, **options)
        return play_conditions(design, seed, progress=progress, description=self.name)

    def field_games(self, field_name: str, games: int) -> int:
        """Games per condition of ``field_name`` when the study plays ``games`` (its share)."""
        return share_of_games(games, self.field_shares.get(field_name, 1.0))
