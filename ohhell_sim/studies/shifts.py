"""Shifts of each arm against a base arm, per field: tested between fields, judged across them.

A study that plays several arms (scoring tables) and a base arm (the canonical table) on the
same cards in several strategy fields reads each measure's shift, arm minus base, paired by
game, per table size and field (:meth:`Shifts.shifts`); per measure and arm, the Wald test
that the shift is the same in every field (:meth:`Shifts.between`); and per effect a verdict
over the fields (:meth:`Shifts.verdicts`), with where it is lowest and highest, whether it is
resolved on both sides of zero, and in how many fields it is established.  The tables and the
findings of those verdicts are the same in every such study.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    HOLDS_EVERYWHERE,
    between_fields,
    field_verdicts,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p
from ohhell_sim.analysis.stats import estimate_frame, paired_by_game, per_game_difference
from ohhell_sim.studies.unit_rates import ESTIMATE
from ohhell_sim.studies.wording import confirmation_cell

#: A measure's shifts tested between fields: the per-game frame, its column, the groups
#: within a field (a strategy) and the measure's name.
Job = tuple[pd.DataFrame, str, list[str], str]


def strings(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """``frame`` with the labels in ``columns`` as plain strings (not categories)."""
    return frame.assign(**{column: frame[column].astype(str) for column in columns})


def family_display(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """A family's rows for a report: the interval, the adjusted p-value, the marks."""
    if table.empty:
        return pd.DataFrame()
    shown = table[[*columns, *ESTIMATE]].copy()
    shown["p_holm"] = table["p_adjusted"].map(fmt_p)
    shown["holm"] = np.where(table["survives"], "survives", "-")
    shown["confirmation"] = [confirmation_cell(r) for _, r in table.iterrows()]
    shown["halves"] = table["replication"].to_numpy()
    return display_table(shown)


def range_text(row: object) -> str:
    """An effect's lowest and highest shift over the fields (a verdict row), signed, with where."""
    ends = [
        f"{'+' * (float(fmt_number(value)) > 0)}{fmt_number(value)} ({where})"
        for value, where in ((row.min_estimate, row.min_where), (row.max_estimate, row.max_where))
    ]
    return ends[0] if row.min_estimate == row.max_estimate else " to ".join(ends)


@dataclass(frozen=True)
class Shifts:
    """The arms of a study, compared with its base arm.

    Attributes
    ----------
    arm : str
        The label column of the arms (``"variant"``).
    base : str
        The base arm's value (``"canonical"``).
    """

    arm: str
    base: str

    @property
    def keys(self) -> list[str]:
        """The columns of a condition: its table size, field and arm."""
        return ["players", "field", self.arm]

    @property
    def effect_keys(self) -> list[str]:
        """The columns naming an effect over the fields."""
        return ["players", "measure", self.arm]

    @property
    def verdict_columns(self) -> list[str]:
        """The columns of a verdicts table, in order."""
        return [
            *("players", "effect", "measure", self.arm, "fields", "verdict"),
            *("min_estimate", "min_where", "max_estimate", "max_where"),
            *("opposite", "established_in", "headline"),
        ]

    def shifts(
        self,
        frame: pd.DataFrame,
        column: str,
        by: Sequence[str],
        arms: Sequence[str],
        per_game: bool = False,
    ) -> pd.DataFrame:
        """``column`` under each of ``arms`` minus the base, paired by game: its mean and
        interval, or with ``per_game`` each game's difference as ``value``."""
        keys = ["players", "field", *by]
        present = set(frame[self.arm]) if len(frame) else set()
        names = [v for v in arms if v != self.base and v in present and self.base in present]
        how = per_game_difference if per_game else paired_by_game
        parts = [
            how(frame, frame[column], self.arm, v, self.base, keys).assign(**{self.arm: v})
            for v in names
        ]
        if per_game:
            empty = pd.DataFrame(columns=[*keys, "game", "value", self.arm])
            return pd.concat(parts, ignore_index=True) if parts else empty
        if not parts:
            return estimate_frame([], [*self.keys, *by])
        return pd.concat(parts, ignore_index=True)[[*self.keys, *by, *ESTIMATE, "n", "method"]]

    def measures(
        self,
        frame: pd.DataFrame,
        columns: Mapping[str, str],
        by: Sequence[str],
        arms: Sequence[str],
    ) -> pd.DataFrame:
        """:meth:`shifts` of each of ``columns`` (column -> the measure's name), with
        ``measure``."""
        tables = [
            self.shifts(frame, column, by, arms).assign(measure=measure)
            for column, measure in columns.items()
        ]
        return pd.concat(tables, ignore_index=True)

    def between(self, jobs: Sequence[Job], arms: Sequence[str]) -> pd.DataFrame:
        """Per (players, measure, arm): the test that the shift is equal in every field (a
        job with groups within a field: in every group of every field)."""
        tests = []
        for frame, column, by, measure in jobs:
            if not len(frame):
                continue
            values = self.shifts(frame, column, by, arms, per_game=True)
            if by:
                values["field"] = values[by[0]].astype(str) + " in " + values["field"].astype(str)
            tests.append(between_fields(values, ["players", self.arm]).assign(measure=measure))
        tests = [t for t in tests if len(t)]
        if not tests:
            return pd.DataFrame()
        return pd.concat(tests, ignore_index=True).drop(columns="field", errors="ignore")

    def verdicts(self, table: pd.DataFrame, field: str, between: pd.DataFrame) -> pd.DataFrame:
        """Per effect (players, measure, arm), whether it holds in every ``field``, by
        ``between``'s tests where there are some."""
        keys = self.effect_keys
        tested = table["measure"].isin(set(between["measure"]) if len(between) else set())
        parts = []
        if tested.any():
            parts.append(verdicts_across_fields(table[tested], between, keys, field=field))
        if (~tested).any():
            parts.append(field_verdicts(table[~tested], keys, field=field))
        grouped = table.groupby(keys, observed=True, sort=False)
        found, rows = grouped["established"].sum(), grouped["established"].size()
        counts = pd.DataFrame(
            {
                # An effect resolved on both sides of zero in different fields.
                "opposite": (grouped["low"].max() > 0) & (grouped["high"].min() < 0),
                "established_in": [
                    f"{int(s)} of {int(z)}" for s, z in zip(found, rows, strict=True)
                ],
                "headline": found == rows,
            }
        )
        out = pd.concat(parts, ignore_index=True).merge(counts.reset_index(), on=keys, how="left")
        out["headline"] &= out["verdict"] == HOLDS_EVERYWHERE
        return out.rename(columns={"min_field": "min_where", "max_field": "max_where"})

    def effect_verdicts(
        self, effects: Sequence[tuple[pd.DataFrame, str, str]], between: pd.DataFrame
    ) -> list[pd.DataFrame]:
        """:meth:`verdicts` of each effect with rows: its family rows, the column of the units
        it is judged over (fields, players in fields) and its name (``effect``)."""
        return [
            self.verdicts(rows, field, between).assign(effect=effect)
            for rows, field, effect in effects
            if not rows.empty
        ]

    def evidence(self, verdicts: pd.DataFrame, confirmed: bool) -> str:
        """The In short's sentence on the evidence: the effects that hold in every field."""
        heads = int(verdicts["headline"].astype(bool).sum())
        return (
            f"Evidence: {heads} of {len(verdicts)} effects hold in every field, each surviving "
            "one correction over all comparisons"
            + (" and confirmed at a second seed." if confirmed else " (no confirmation run).")
        )

    def verdict_display(self, verdicts: pd.DataFrame, between: pd.DataFrame) -> pd.DataFrame:
        """The verdicts for a report, with each effect's test between the fields."""
        shown = display_table(verdicts[self.verdict_columns])
        if not len(between):
            return shown
        keys = self.effect_keys
        test = between[keys].assign(
            compared=between["n"].astype(int).astype(str),
            W=[fmt_number(q, 1) for q in between["q"]],
            spread=[fmt_number(e) for e in between["estimate"]],
            **{"between fields, p (adjusted)": [fmt_p(p) for p in between["p_adjusted"]]},
            **{"between fields, confirmation": between["confirmation"]},
        )
        return shown.merge(test.astype({"players": str}), on=keys, how="left").fillna("-")

    def findings(self, verdicts: pd.DataFrame) -> list[str]:
        """Per table size and effect, what holds in every field and what depends on it."""
        out = []
        kinds = {
            "holds in every field, established in each": verdicts["headline"].astype(bool),
            "depends on the field": verdicts["verdict"] == DEPENDS_ON_FIELD,
        }
        for kind, mask in kinds.items():
            for (n, effect, measure), rows in verdicts[mask].groupby(
                ["players", "effect", "measure"], sort=False
            ):
                each = "; ".join(
                    f"{getattr(r, self.arm)} {range_text(r)}"
                    + (" (significant in opposite directions)" if r.opposite else "")
                    for r in rows.itertuples()
                )
                out.append(f"{n} players, {measure} ({effect}), {kind}: {each}.")
        return out
