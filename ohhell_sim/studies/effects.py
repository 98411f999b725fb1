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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    DETECTION_POWER,
    HOLDS_EVERYWHERE,
    NO_FIELD,
    between_fields,
    detectable_effect,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, per_game_difference, standardised_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import FIELDS, STANDARDISED, check_fields, field_seats, fields_text
from ohhell_sim.studies.family import (
    ALPHA,
    CORRECTION,
    confirm_family,
    correct,
    games_text,
    games_to_detect,
)
from ohhell_sim.studies.measures import clip_shares
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec, share_of_games
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

#: The groups of an effect: a field at a table size.
BY_TABLE = ("field", "players")
#: The columns naming a row of the family, in the run and in its confirmation.
FAMILY_KEYS = {"effects": ("effect", "field", "players")}
#: Verdict of an effect established with opposite signs at different table sizes: its
#: standardised row would average them away, so it is not read.
OPPOSITE_SIZES = "opposite signs at different table sizes (read the cells, not the pool)"


def order_key(column: pd.Series) -> pd.Series:
    """Sort key: fields in panel order, categories in theirs, the standardised row last."""
    if column.name == "field":
        return column.map(lambda f: FIELDS.index(f) if f in FIELDS else len(FIELDS))
    if hasattr(column, "cat"):
        return column.cat.codes
    return column.map(lambda v: np.inf if v == STANDARDISED else float(v))


def with_standardised(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str] = (),
    stratum: str = "players",
    bounded: bool = False,
) -> pd.DataFrame:
    """Means of ``values`` per field, ``stratum`` and ``by`` group (clustered by ``game``;
    booleans, or ``bounded``, give a share clipped to [0, 1]), then per field and ``by`` group
    the :data:`STANDARDISED` row: the strata's unweighted average (a raw pool would weigh them
    unequally)."""
    if stratum not in frame.columns:
        raise InvalidArgumentError(
            f"stratum must be a column of the frame, got {stratum!r}; columns: "
            f"{', '.join(map(str, frame.columns))}"
        )
    split = grouped_mean(frame, values, by=["field", stratum, *by], bounded=bounded)
    pooled = standardised_mean(frame, values, by=["field", *by], stratum=stratum)
    if bounded or np.asarray(values).dtype == np.bool_:
        clip_shares(pooled)
    pooled.insert(1, stratum, STANDARDISED)
    split[stratum] = split[stratum].astype(object)
    out = pd.concat([split, pooled[split.columns]], ignore_index=True)
    return out.sort_values(["field", stratum], key=order_key, kind="stable", ignore_index=True)


def standardised(table: pd.DataFrame, effect: str | None = None) -> pd.DataFrame:
    """The fields' standardised rows of ``table`` (of the family's ``effect`` when given)."""
    rows = table[(table["players"] == STANDARDISED) & (table["field"] != BETWEEN_FIELDS)]
    return rows if effect is None else rows[rows["effect"] == effect]


def established_cells(family: pd.DataFrame, effect: str) -> pd.DataFrame:
    """The established field x table-size cells of ``effect``."""
    cells = family[(family["effect"] == effect) & (family["players"] != STANDARDISED)]
    return cells[cells["established"]]


def established_in(rows: pd.DataFrame) -> str:
    """``"established in K of N fields"`` for a field's rows."""
    return f"established in {int(rows['established'].sum())} of {len(rows)} fields"


def span(rows: pd.DataFrame) -> str:
    """``"X (field) to Y (field)"``: the lowest and highest row of ``rows`` over the fields."""
    first, last = rows.loc[rows["estimate"].idxmin()], rows.loc[rows["estimate"].idxmax()]
    text = f"{fmt_row(first)} ({first['field']})"
    return text if len(rows) == 1 else f"{text} to {fmt_row(last)} ({last['field']})"


def detectable_sizes(family: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """Per row of ``rows``, the smallest effect the run finds at ``family``'s strictest level."""
    size = int(family["p_adjusted"].notna().sum())
    return detectable_effect(rows["low"], rows["high"], ALPHA / size)


def detectable(family: pd.DataFrame, rows: pd.DataFrame) -> str:
    """The largest of ``rows``' detectable effects, formatted."""
    return fmt_number(float(np.nanmax(detectable_sizes(family, rows))))


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
class EffectStudy:
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
    default_games, default_players, default_fields, field_shares
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
        effects, games = self.effect_games(data), _field_games(data.manifest)
        if data.confirmation is not None:
            again = self.effect_games(data.confirmation)
            again["game"] += int(effects["game"].max()) + 1
            effects = pd.concat([effects, again], ignore_index=True)
            more = _field_games(data.confirmation.manifest)
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

    # --- the report -----------------------------------------------------------------

    def analyse(self, data: StudyData) -> Report:
        """The report of a run, every number computed from ``data``."""
        family = self.confirmed_family(data)
        verdict = self.verdicts(family)
        own = self.words(data, family, verdict)
        tables = [
            *own.lead_tables,
            Table(
                "Does each effect hold in every field? Verdicts over the fields' standardised rows",
                _verdict_display(verdict),
                "Verdicts as in the method; detectable: the largest over the fields. W: the "
                "Wald statistic of the test between fields (chi-squared, fields - 1 degrees of "
                "freedom); I²: the share of the fields' spread beyond chance.",
            ),
            Table(
                "Effects: each comparison of the family, per field and table size",
                _family_display(family[family["field"] != BETWEEN_FIELDS], family),
                self.effects_note,
            ),
            *own.tables,
        ]
        return study_report(
            self.name,
            self.question,
            data.manifest,
            self.method(data.manifest, family),
            [*self.findings(family, verdict), *own.findings],
            tables,
            own.figures,
            in_short=own.in_short,
        )

    def method(self, manifest: dict, family: pd.DataFrame) -> list[str]:
        """The method's sentences: the design, the fields, the standardised rows, the family
        and its correction, the confirmation, what counts as established, the study's notes."""
        games = _field_games(manifest)
        sizes = ", ".join(f"{name} {count}" for name, count in games.items())
        share = " (mc_bidder fewer: its bids run playouts)" if "mc_bidder" in games else ""
        correction = family["correction"].iloc[0] if len(family) else f"{CORRECTION} over 0"
        outside = f" {self.outside_family}" if self.outside_family else ""
        return [
            self.design,
            f"Fields ({fields_text(games)}). Games per condition: {sizes}{share}.",
            f"A row over all table sizes ('{STANDARDISED}') is the unweighted average of the "
            "table sizes' estimates: a raw pool would weigh them by their numbers of seats and "
            "deals, and can reverse the comparison within every table size (Simpson's "
            "paradox). No row pools fields.",
            f"Family, one for the whole report: {len(family)} rows, those of the effect table "
            "and per effect a Wald test that its size is the same in every field (games paired "
            "across fields). p-values are read off the intervals (normal approximation) and "
            f"adjusted with Holm's method, family-wise error {ALPHA}: {correction}.{outside}",
            confirmation_method(
                manifest.get("confirmation") or {},
                "the whole study is played again",
                "games per condition (each field its share)",
            ),
            "Established: surviving the correction, and confirmed. Over the fields' "
            "standardised rows, an effect 'holds in every field' when established in each with "
            "one sign, 'depends on the field' when the test between fields is established, is "
            "'in some fields' when established in some without it; where established cells of "
            "different table sizes disagree in sign, the standardised row, which averages "
            "them, is not read. 'Detectable': the smallest effect the run would have found "
            f"with probability {DETECTION_POWER:.0%} at the family's strictest level ({ALPHA} "
            "over the family's size); absence of evidence is not evidence of absence below "
            "that size.",
            *self.notes,
        ]

    def findings(self, family: pd.DataFrame, verdict: pd.DataFrame) -> list[str]:
        """One finding per field effect: its verdict, its standardised rows over the fields,
        its established cells, and the effect it would have detected where none was found."""
        out = []
        for _, row in verdict.iterrows():
            effect, rows = row["effect"], standardised(family, row["effect"])
            # Which fields, where the verdict does not already say (all, or read per cell).
            whole = row["verdict"] in (HOLDS_EVERYWHERE, OPPOSITE_SIZES)
            where = "" if whole else row["established in"]
            text = (
                f"{effect[0].upper()}{effect[1:]}: {row['verdict']}"
                f"{f' (established in {where})' if where else ''}. Standardised over table "
                f"sizes: {span(rows)}; established in {row['cells established']} field x "
                "table-size cells"
            )
            if row["size differs"] == "yes":
                text += f"; the fields differ (adjusted p {row['between fields, p (adjusted)']})"
            if row["verdict"] == NO_FIELD:
                text += (
                    f"; the run would have found an effect of {detectable(family, rows)} or more"
                )
            out.append(f"{text}.")
        return out

    def cells_figure(
        self, family: pd.DataFrame, effect: str, name: str, caption: str, title: str, unit: str
    ) -> Figure:
        """A figure of ``effect``'s cells: one series per field, table sizes along the axis."""
        # The tests between fields are standardised rows: not among the cells.
        cells = family[(family["effect"] == effect) & (family["players"] != STANDARDISED)]
        # Table sizes as labels: the axis shows 3..7, not 3.5.
        rows = cells.assign(players=cells["players"].astype(str))
        plot = interval_plot(
            rows,
            "players",
            title=title,
            ylabel=unit,
            series="field",
            xlabel="players",
            zero_line=True,
        )
        return Figure(name, caption, plot)

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


def _field_games(manifest: dict) -> dict[str, int]:
    """Games per condition of each field of a run (its manifest)."""
    return {c["label"]["field"]: c["games"] for c in manifest["conditions"]}


def _family_display(rows: pd.DataFrame, family: pd.DataFrame) -> pd.DataFrame:
    columns = ["effect", "field", "players", "n", "estimate", "low", "high"]
    shown = display_table(rows[columns]).rename(columns={"n": "games"})
    shown["p (adjusted)"] = [fmt_p(p) for p in rows["p_adjusted"]]
    shown["detectable"] = [fmt_number(d) for d in detectable_sizes(family, rows)]
    shown["survives"] = np.where(rows["survives"], "yes", "no")
    shown["confirmation"] = [confirmation_cell(row) for _, row in rows.iterrows()]
    return shown


def _verdict_display(verdict: pd.DataFrame) -> pd.DataFrame:
    first = ["effect", "verdict", "size differs", "W", "I²", "between fields, p (adjusted)"]
    return display_table(verdict[[*first, *verdict.columns.drop([*first, "fields"])]])
