"""The method of a study whose one family has several parts, each judged across fields.

A study declares its family as :class:`FieldParts`: per part, the columns that name a row
within a field, and for the parts judged across the fields, the part holding the test that
the fields differ and how the report names a row (a :class:`Judged`).  This module does
the rest, the same for every such study: the family confirmed at a second seed, a verdict
per comparison over the fields' rows (the one strategy of a field, or a mixed field's
standardised row), the verdicts' table, the part tables with their adjusted p-values and
confirmation, the findings that hold in every field, the evidence sentence and the
method's sentence on the family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from ohhell_sim.analysis.findings import DEPENDS_ON_FIELD, verdicts_with_counts
from ohhell_sim.analysis.format import display_table, fmt_p, fmt_span
from ohhell_sim.analysis.report import Table
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies.design import STANDARDISED
from ohhell_sim.studies.family import CORRECTION, confirm_family, correct
from ohhell_sim.studies.runs import StudyData
from ohhell_sim.studies.unit_rates import ESTIMATE
from ohhell_sim.studies.wording import confirmation_cell

#: Tables by name: the family's parts and their verdicts.
Frames = dict[str, pd.DataFrame]
#: The columns that say whether a row of the family holds up.
HOLDS_UP = ["p_adjusted", "survives", "confirmation", "replication"]
#: The family's own columns, not shown in a part's table of :data:`ALL` its columns.
BOOKKEEPING = ("p", "correction", "established")
#: A :class:`PartTable`'s ``columns``: every column of its part but the bookkeeping.
ALL = "all"


def with_p(table: pd.DataFrame, columns: list[str], digits: int) -> pd.DataFrame:
    """``table[columns]`` as display strings, with the adjusted p-value and confirmation."""
    shown = display_table(table[columns], digits=digits)
    shown["p_adjusted"] = table["p_adjusted"].map(fmt_p).to_numpy()
    shown["confirmation"] = [confirmation_cell(r, digits) for _, r in table.iterrows()]
    return shown


def part_verdicts(table: pd.DataFrame, keys: list[str], between: pd.DataFrame) -> pd.DataFrame:
    """:func:`~ohhell_sim.analysis.findings.verdicts_with_counts` of ``table``'s field rows
    (its ``field_row`` rows where it marks them) with ``between``'s tests."""
    rows = table[table["field_row"]] if "field_row" in table else table
    rows = rows.dropna(subset=["estimate"])
    return verdicts_with_counts(rows, between, keys) if len(rows) else pd.DataFrame()


@dataclass(frozen=True)
class Judged:
    """A part of the family judged across the fields.

    Attributes
    ----------
    label : str
        How the tables name a comparison: a format of its test part's keys (the part holding
        its tests that the fields differ, :attr:`FieldParts.between`).
    unit : str
        Its unit in the findings (a format of the same keys).
    digits : int
        The digits of its estimates.
    """

    label: str
    unit: str
    digits: int


@dataclass(frozen=True)
class PartTable:
    """A part's table in the report: its title, note, digits and ``columns``: by default the
    keys of a row, its estimate and the columns that say whether it holds up (:data:`HOLDS_UP`);
    :data:`ALL`: every column but the family's bookkeeping."""

    title: str
    note: str
    digits: int
    columns: Sequence[str] | str | None = None


@dataclass(frozen=True)
class FieldParts:
    """A study's one family, declared: per part the columns naming a row within a field
    (``keys``), per judged part the part of its tests between fields (``between``), the parts
    judged across the fields (``judged``, in the report's order) and the parts' tables
    (``tables``)."""

    keys: Mapping[str, Sequence[str]]
    between: Mapping[str, str]
    judged: Mapping[str, Judged]
    tables: Mapping[str, PartTable]

    def __post_init__(self) -> None:
        named = {*self.between, *self.between.values(), *self.judged, *self.tables}
        unknown = sorted(named - set(self.keys))
        if unknown:
            raise InvalidArgumentError(
                f"parts {unknown} are not parts of the family; its parts: {', '.join(self.keys)}"
            )
        untested = sorted(set(self.judged) - set(self.between))
        if untested:
            raise InvalidArgumentError(
                f"judged parts {untested} name no part of tests between fields in between"
            )

    def row_keys(self, part: str) -> list[str]:
        """The columns naming a row of ``part`` in the run and its confirmation."""
        return ["field", *self.keys[part]]

    def confirmed(self, data: StudyData, family_of: Callable[[StudyData], Frames]) -> Frames:
        """The parts ``family_of`` makes of each run (adjusted as one), confirmed."""
        return confirm_family(data, family_of, {part: self.row_keys(part) for part in self.keys})

    def adjusted(self, found: Frames) -> Frames:
        """The parts of one run, ``found`` by name, adjusted as one family in :attr:`keys`'
        order."""
        return correct({part: found[part] for part in self.keys})

    def table(self, parts: Frames, part: str) -> Table:
        """A part's table of :attr:`tables` (:func:`with_p`)."""
        shown = self.tables[part]
        table = parts[part]
        if shown.columns == ALL:
            columns = [c for c in table.columns if c not in BOOKKEEPING and c[:8] != "confirm_"]
        else:
            columns = [*self.row_keys(part), "n", *ESTIMATE, *HOLDS_UP]
            columns = columns if shown.columns is None else list(shown.columns)
        return Table(shown.title, with_p(table, columns, shown.digits), shown.note)

    def verdicts(self, parts: Frames) -> Frames:
        """Per judged part, the verdict of each comparison over the fields."""
        return {
            name: part_verdicts(parts[name], self._test_keys(name), parts[self.between[name]])
            for name in self.judged
        }

    def verdict_table(self, verdict_of: Frames) -> Table:
        """The verdicts in one table, each comparison named by its part's label."""
        shown = []
        for name, table in verdict_of.items():
            judged = self.judged[name]
            if len(table):
                keys = self._test_keys(name)
                named = [
                    judged.label.format(**r) for r in table[keys].astype(str).to_dict("records")
                ]
                shown.append(
                    display_table(table.drop(columns=keys), judged.digits).assign(comparison=named)
                )
        out = pd.concat(shown, ignore_index=True) if shown else pd.DataFrame(columns=["comparison"])
        return Table(
            "Comparisons: verdicts across fields",
            out[["comparison", *out.columns[:-1]]],
            f"Over the field rows (one strategy, or the mix's {STANDARDISED} row). survives_in / "
            "established_in / replicated_in: fields where it survives Holm / is also confirmed / "
            "replicates in both halves; size differs: the fields' paired test is established.",
        )

    def findings(
        self, verdict_of: Frames, parts: Frames, fields: int, confirmed: bool, levels: list[str]
    ) -> list[str]:
        """What holds in all ``fields``, where they differ, the study's ``levels``, and what
        does not survive the correction."""
        headline, depends = [], []
        checked = "and is confirmed in each" if confirmed else "in each (no confirmation run)"
        for name, judged in self.judged.items():
            for _, v in verdict_of[name].iterrows():
                words = v[self._test_keys(name)].astype(str)
                what = judged.label.format(**words)
                if v["headline"] and v["fields"] == fields:
                    span = fmt_span(v[["min_estimate", "max_estimate"]], judged.digits)
                    sign = "higher" if v["min_estimate"] > 0 else "lower"
                    headline.append(
                        f"{what[0].upper()}{what[1:]} ({judged.unit.format(**words)}): {sign} in "
                        f"all {fields} fields ({span}), survives Holm {checked}."
                    )
                elif v["verdict"] == DEPENDS_ON_FIELD:
                    depends.append(what)
        others = sum(map(len, verdict_of.values())) - len(headline)
        differ = f"; the fields differ in {'; '.join(depends)}" if depends else ""
        # The family's comparisons are its rows with a p-value (the correction's count).
        tested = pd.concat([part[["p", "survives"]] for part in parts.values()]).dropna()
        return [
            *headline,
            f"The other {others} comparisons do not hold in every field (see the verdicts)"
            f"{differ}.",
            *levels,
            f"{int((~tested['survives']).sum())} of the family's {len(tested)} comparisons do "
            "not survive Holm; none of them is claimed.",
        ]

    def _test_keys(self, part: str) -> list[str]:
        """The columns naming a comparison of a judged ``part`` (those of its tests)."""
        return list(self.keys[self.between[part]])

    def evidence(self, verdict_of: Frames, confirmed: bool) -> str:
        """The In short's sentence on the evidence: the comparisons that hold in every field."""
        judged = [v for v in verdict_of.values() if len(v)]
        checked = "and confirmed at the second seed" if confirmed else "(no confirmation run)"
        return (
            f"Evidence: {sum(int(v['headline'].sum()) for v in judged)} of the "
            f"{sum(map(len, judged))} comparisons hold in every field, surviving one correction "
            f"over all comparisons {checked}; the tables give each field."
        )

    def method(self, parts: Frames, members: str) -> str:
        """The method's sentence on the family of ``members`` (what its comparisons are)."""
        first = next(iter(parts.values()))
        correction = first["correction"].iloc[0] if len(first) else CORRECTION
        return (
            f"One family ({correction}): {members} (p-values read off the intervals) and, per "
            "comparison, a paired Wald test that the fields' rows are equal (clustered by game). "
            f"A finding is claimed only where it survives, '{DEPENDS_ON_FIELD}' only where its "
            "test does; a headline survives and is confirmed in every field. 'replicated': the "
            "even and the odd games' intervals both exclude 0 on the estimate's side."
        )
