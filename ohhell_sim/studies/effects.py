"""The method of a study of a rule's effects, owned once: a study says what it compares.

An :class:`EffectStudy` declares its two arms (a label column and the two values of
it whose rules are compared, ``hook`` on and off), its measures (per game values of
each effect per field and table size), and its own words; this module does the rest,
the same for every such study:

* the design: both arms at every table size in every strategy field, on the same
  cards (one seed for all, so every arm-against-arm comparison is paired by game),
  each field with its share of the games;
* every effect per field and table size, and over the table sizes standardised (each
  weighs the same: a raw pool would weigh them by their seats and deals), never
  pooled over fields;
* per effect measured in every field, the Wald test that its size is the same in
  every field (:func:`~ohhell_sim.analysis.findings.between_fields`);
* one family of all those rows with one correction (:data:`CORRECTION` at
  :data:`ALPHA`), its surviving rows confirmed at a second seed;
* the verdicts over the fields, with the effect a run would have detected where none
  was established, and effects whose table sizes disagree in sign read per cell;
* the verdict and effect tables, the method's sentences, and the report.

The family's rows and their words are :mod:`~ohhell_sim.studies.effect_rows`'; the
report's parts, :class:`~ohhell_sim.studies.effect_report.EffectReport`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import BETWEEN_FIELDS, between_fields, verdicts_across_fields
from ohhell_sim.analysis.format import fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Table
from ohhell_sim.analysis.stats import per_game_difference
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import FIELDS, STANDARDISED, check_fields, field_seats
from ohhell_sim.studies.effect_report import EffectReport
from ohhell_sim.studies.effect_rows import (
    BY_TABLE,
    OPPOSITE_SIZES,
    detectable,
    established_cells,
    field_games,
    order_key,
    standardised,
    with_standardised,
)
from ohhell_sim.studies.family import confirm_family, correct, games_text, games_to_detect
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec, share_of_games

#: The columns naming a row of the family, in the run and in its confirmation.
FAMILY_KEYS = {"effects": ("effect", "field", "players")}


@dataclass(frozen=True)
class Words:
    """What a study adds to the report the framework makes of its family.

    ``in_short`` opens the report; ``lead_tables`` come before the framework's verdict and
    effect tables, ``tables`` after them; ``findings`` follow the framework's one finding per
    effect; ``figures`` are the study's own.
    """

    in_short: list[str]
    findings: list[str] = field(default_factory=list)
    lead_tables: list[Table] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


@dataclass(frozen=True)
class EffectStudy(EffectReport):
    """A study of what changing a rule does, declared; :meth:`spec` is what the command plays.

    Attributes
    ----------
    name, question : str
        The study's name (``ohhell experiment NAME``) and the question its report answers.
    arm : str
        The label column of the two arms (``"hook"``); ``arms`` its two values, the first
        the one compared against the second (``(True, False)``: hook on - off).
    rules : callable
        ``rules(players, value) -> Rules``: the table of an arm.
    effects : callable
        ``effects(data) -> {effect name: frame}``: each effect's per game values, one row
        per ``field``, ``players`` and ``game`` with its ``value``
        (:meth:`difference` makes one of an arm-against-arm comparison).
    words : callable
        ``words(data, family, verdict) -> Words``: the study's own answer, tables and figures
        from the confirmed family and the verdicts.
    field_effects : tuple of str, optional
        The effects measured in every field, tested between fields and given a verdict
        (default: every effect).
    design, outside_family, effects_note : str
        The method's first sentence (what is played); what the report shows that is not in
        the family; the note under the effect table.
    notes : list of str
        The method's last sentences (the study's own terms).
    default_games, default_players, default_fields, field_shares, reduce_hands
        As in :class:`~ohhell_sim.studies.spec.StudySpec`.
    """

    name: str
    question: str
    arm: str
    arms: tuple[object, object]
    rules: Callable[[int, object], Rules]
    effects: Callable[[StudyData], dict[str, pd.DataFrame]]
    words: Callable[[StudyData, pd.DataFrame, pd.DataFrame], Words]
    design: str
    default_games: int
    default_players: tuple[int, ...]
    default_fields: tuple[str, ...] = FIELDS
    field_shares: Mapping[str, float] = field(default_factory=dict)
    field_effects: tuple[str, ...] | None = None
    outside_family: str = ""
    effects_note: str = ""
    notes: tuple[str, ...] = ()
    reduce_hands: Callable[[pd.DataFrame], pd.DataFrame] | None = None

    def __post_init__(self) -> None:
        if len(self.arms) != 2 or self.arms[0] == self.arms[1]:
            raise InvalidArgumentError(
                f"arms of study {self.name!r} must be two different values of {self.arm!r}, "
                f"got {self.arms!r}"
            )

    # --- the design ---------------------------------------------------------------

    def conditions(
        self, games: int, players: tuple[int, ...], fields: Sequence[str] | None = None
    ) -> list[Condition]:
        """Both arms for every table size and strategy field (see ``field_seats``)."""
        fields = self.default_fields if fields is None else fields
        return [
            Condition(
                {"players": n, "field": name, self.arm: value},
                self.rules(n, value),
                field_seats(name, n),
                share_of_games(games, self.field_shares.get(name, 1.0)),
            )
            for n in players
            for name in check_fields(fields)
            for value in self.arms
        ]

    def difference(
        self, frame: pd.DataFrame, values: pd.Series | np.ndarray, by: Sequence[str] = BY_TABLE
    ) -> pd.DataFrame:
        """Per game and ``by`` group, the first arm's mean of ``values`` minus the second's."""
        first, second = self.arms
        return per_game_difference(frame, values, self.arm, first, second, by)

    # --- the family ---------------------------------------------------------------

    def effect_games(self, data: StudyData) -> pd.DataFrame:
        """Every effect as one value per (effect, field, players, game)."""
        parts = self.effects(data)
        needed = {"field", "players", "game", "value"}
        if not parts:
            raise InvalidArgumentError(f"effects of study {self.name!r} returned no effect")
        for name, part in parts.items():
            if not needed <= set(part.columns):
                raise InvalidArgumentError(
                    f"effect {name!r} of study {self.name!r} lacks the columns "
                    f"{', '.join(sorted(needed - set(part.columns)))}: each effect is one row "
                    "per field, players and game with its value"
                )
        out = pd.concat(
            [part.assign(effect=name) for name, part in parts.items()], ignore_index=True
        )
        out["effect"] = pd.Categorical(out["effect"], categories=list(parts))
        return out

    def family(self, data: StudyData) -> pd.DataFrame:
        """The family of one run, adjusted as one: every effect per field and table size, the
        standardised rows, and per field effect the test between fields (games paired across
        fields)."""
        effects = self.effect_games(data)
        family = with_standardised(effects, effects["value"], by=["effect"])
        family["effect"] = family["effect"].astype(str)
        measured = self._field_effects(effects["effect"].cat.categories)
        per_game = effects[effects["effect"].isin(measured)].astype({"effect": str})
        tests = between_fields(per_game, keys=["effect"], stratum="players")
        family = pd.concat([family, tests.assign(players=STANDARDISED)], ignore_index=True)
        family = correct(family)
        categories = effects["effect"].cat.categories
        family["effect"] = pd.Categorical(family["effect"], categories=categories)
        return family.sort_values(
            ["effect", "field"], key=order_key, kind="stable", ignore_index=True
        )

    def confirmed_family(self, data: StudyData) -> pd.DataFrame:
        """The family of ``data``, its surviving rows checked in the confirmation run."""
        family = confirm_family(data, lambda d: {"effects": self.family(d)}, FAMILY_KEYS)
        family = family["effects"]
        family["effect"] = pd.Categorical(family["effect"], categories=family["effect"].unique())
        return family

    def verdicts(self, family: pd.DataFrame) -> pd.DataFrame:
        """Per field effect: :func:`~ohhell_sim.analysis.findings.verdicts_across_fields` of
        its standardised rows and its test between fields, with how many of its cells are
        established; :data:`OPPOSITE_SIZES` where established cells of different table sizes
        differ in sign."""
        measured = self._field_effects(family["effect"].cat.categories)
        rows = family[family["effect"].isin(measured)].astype({"effect": str})
        between = rows[rows["field"] == BETWEEN_FIELDS]
        out = verdicts_across_fields(standardised(rows), between, keys=["effect"])
        signs = [set(np.sign(established_cells(family, e)["estimate"])) for e in out["effect"]]
        out.loc[[{-1.0, 1.0} <= sign for sign in signs], "verdict"] = OPPOSITE_SIZES
        cells = rows[rows["players"] != STANDARDISED].groupby("effect", sort=False)["established"]
        out["cells established"] = out["effect"].map(
            cells.sum().astype(int).astype(str) + " of " + cells.size().astype(str)
        )
        test = between.set_index("effect")
        out["W"] = out["effect"].map(test["q"]).map(lambda q: fmt_number(q, 1))
        out["I²"] = out["effect"].map(test["i_squared"]).map(lambda i: fmt_number(i, 2))
        out["between fields, p (adjusted)"] = out["effect"].map(test["p_adjusted"]).map(fmt_p)
        out["detectable (standardised)"] = [
            detectable(family, standardised(family, e)) for e in out["effect"]
        ]
        return out

    def headlines(self, data: StudyData, family: pd.DataFrame) -> pd.DataFrame:
        """Each field effect's row per field to quote: over both runs pooled (the confirmation's
        games after the run's; a headline read off the run that chose it is biased up), with
        ``established`` from the family, ``games`` pooled per condition, and ``games to
        detect`` (:func:`~ohhell_sim.studies.family.games_to_detect`) where not established.
        """
        effects, games = self.effect_games(data), field_games(data.manifest)
        if data.confirmation is not None:
            again = self.effect_games(data.confirmation)
            again["game"] += int(effects["game"].max()) + 1
            effects = pd.concat([effects, again], ignore_index=True)
            more = field_games(data.confirmation.manifest)
            games = {name: count + more.get(name, 0) for name, count in games.items()}
        measured = self._field_effects(family["effect"].cat.categories)
        effects = effects[effects["effect"].isin(measured)].astype({"effect": str})
        rows = standardised(with_standardised(effects, effects["value"], by=["effect"]))
        chosen = standardised(family)[["effect", "field", "established"]].astype({"effect": str})
        rows = rows.merge(chosen, on=["effect", "field"], how="left")
        rows["established"] = rows["established"].fillna(False).astype(bool)
        rows["games"] = rows["field"].map(games)
        size = int(family["p_adjusted"].notna().sum())
        needed = games_to_detect(rows, rows["games"].to_numpy(dtype=float), size)
        rows["games to detect"] = np.where(rows["established"], np.nan, needed)
        order = {effect: i for i, effect in enumerate(measured)}
        return rows.sort_values("effect", key=lambda c: c.map(order), kind="stable").reset_index(
            drop=True
        )

    def _field_effects(self, effects: Sequence[str]) -> tuple[str, ...]:
        return tuple(effects) if self.field_effects is None else self.field_effects

    def spec(self) -> StudySpec:
        """The declaration ``ohhell experiment`` plays."""
        return StudySpec(
            name=self.name,
            question=self.question,
            conditions=self.conditions,
            analyse=self.analyse,
            default_games=self.default_games,
            default_players=self.default_players,
            default_fields=self.default_fields,
            field_shares=self.field_shares,
            reduce_hands=self.reduce_hands,
        )


def claim(row: pd.Series) -> str:
    """A headline row of :meth:`EffectStudy.headlines` in words: its pooled estimate where
    established, else at how many games it was not, and about how many would detect it."""
    if row["established"]:
        return f"{fmt_row(row)} (both runs pooled, {row['games']} games per condition)"
    seen = fmt_number(abs(row["estimate"]))
    return (
        f"not established at {row['games']} games per condition; "
        f"{games_text(row['games to detect'])} an effect of {seen}"
    )
