"""The report of an effect study: its verdict and effect tables, findings and method.

:class:`EffectReport` (part of :class:`~ohhell_sim.studies.effects.EffectStudy`) makes
the report of a run from its confirmed family and verdicts, with the study's own words.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    DETECTION_POWER,
    HOLDS_EVERYWHERE,
    NO_FIELD,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.studies.design import STANDARDISED, fields_text
from ohhell_sim.studies.effect_rows import (
    OPPOSITE_SIZES,
    detectable,
    detectable_sizes,
    field_games,
    span,
    standardised,
)
from ohhell_sim.studies.family import ALPHA, CORRECTION
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import StudyData
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method


class EffectReport:
    """The report of an :class:`~ohhell_sim.studies.effects.EffectStudy`: its tables,
    findings, method and figures, from the family and verdicts the study computes."""

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
        games = field_games(manifest)
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
