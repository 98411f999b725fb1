"""The report of a verdict study: its tables, figures, findings and method.

:class:`VerdictReport` (part of :class:`~ohhell_sim.studies.verdicts.VerdictStudy`)
lays out a judged run (:class:`~ohhell_sim.studies.verdict_effects.Judged`): the
verdict table first, the effects per table size, the appendices (pooled effects,
the family, the tests between fields), the two figures, and the method's sentences
the framework owns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_p
from ohhell_sim.analysis.report import Figure, Table
from ohhell_sim.studies.family import ALPHA, CORRECTION
from ohhell_sim.studies.pairs import Played
from ohhell_sim.studies.report import in_order
from ohhell_sim.studies.verdict_effects import DETECT, Judged, family_size, in_points, short
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method


class VerdictReport:
    """The tables, figures, findings and method text of a
    :class:`~ohhell_sim.studies.verdicts.VerdictStudy`'s report."""

    def tables(
        self, j: Judged, design: Played, verdict: pd.DataFrame, own: Sequence[Table]
    ) -> list[Table]:
        """The report's tables: the verdicts, the study's ``own``, the effects per table size
        and the appendices (the pooled effects, the family, the tests between fields)."""
        source, sizes = j.source, j.sizes
        return [
            Table(
                f"One verdict per rule against the {design.base} (established effects, sizes "
                f"from {source}; field in brackets)",
                verdict,
            ),
            *own,
            Table(
                f"Each rule's effect per table size ({source}; unadjusted 95% CI, for reading "
                "the cells)",
                display_table(self.ordered(sizes[sizes["measure"].isin(self.tested)], design)),
            ),
            Table(
                f"Appendix: every effect judged, {source}: the sizes of the verdicts and findings",
                self.headline_display(j.headline, design),
                "Standardised over table sizes; shares in points of percentage. Games to detect "
                "it: games per condition at which the effect seen would be found (80% power at "
                "the family's strictest level).",
            ),
            Table(
                f"Appendix: every effect, rule minus {design.base}, standardised over table sizes",
                self.family_display(j.found, design),
                f"Holm over the family of {family_size(j.parts)} comparisons (these and the tests "
                "between fields); established: survives and confirmed on fresh cards. Estimates "
                "from the run that chose them (the verdicts quote both runs pooled).",
            ),
            Table(
                "Appendix: do the fields differ? A paired test per rule and measure",
                self.between_display(j.parts["fields differ"], design),
            ),
        ]

    def design_method(self, design: Played) -> list[str]:
        """The method's sentences on the fields and skill: the pairs in alternate seats, the
        seats exchanged, which fields judge a scoring rule."""
        fields = "; ".join(
            f"{f}: {' and '.join(design.pairs[f])} in alternate seats" for f in design.fields
        )
        blind = sorted({f for _, f in design.unjudged})
        scoring = (
            f"The players of the {', '.join(blind)} field bid alike under every scoring table: "
            "a rule that changes only the scoring is judged only in the fields whose players bid "
            "for the table in play (the appendix still shows its effects there)."
            if blind
            else "Every field's players bid for the scoring table in play."
        )
        return [
            f"Fields: {fields}. Every game is played twice, the second time with the two "
            f"strategies' seats exchanged, on the same cards; a game's values are the mean of "
            f"the two. {scoring}",
            "Skill: over every pair of a stronger and a weaker seat of a game, the share in "
            "which the stronger finishes ahead (a tie counts half). Games to be ahead 95% of "
            "the time: (1.645 sd / mean)^2 of a pair's per-game difference, a normal "
            "approximation.",
        ]

    def method(self, manifest: dict, j: Judged, design: Played) -> list[str]:
        """The method's sentences the framework owns: the effects, the family, the
        confirmation, and where the sizes quoted come from."""
        return [
            f"Effects: each rule's per-game value minus the {design.base}'s on the same cards, "
            "averaged with equal weight per table size (clustered by game). A fairness effect "
            "counts as fairer when it brings the base game's gap closer to zero. Where an "
            "effect's table sizes disagree in sign (unadjusted intervals), it is shown per size "
            "instead of pooled.",
            f"One family ({CORRECTION}, {ALPHA:g}) of {family_size(j.parts)} comparisons: the "
            "effects per field and, per rule and measure, a paired Wald test that the fields "
            "differ (clustered by game, since both fields play the same cards).",
            confirmation_method(
                manifest.get("confirmation") or {},
                "the whole study is played again",
                "games per condition",
            ),
            f"Which effects are established comes from the run and its confirmation; the sizes "
            f"quoted in the verdicts, the In short and the figures come from {j.source}, since "
            "an estimate read from the run that chose it is biased away from zero. An effect not "
            f'established is not shown to be absent: the verdicts say "not established at '
            f'{design.games} games" and at about how many games per condition the effect seen '
            "would be found (80% power at the family's strictest level, from its standard "
            "error; of an aspect's several measures, the one found with the fewest games).",
        ]

    def ordered(self, table: pd.DataFrame, design: Played) -> pd.DataFrame:
        """``table`` in the order of the rules played and of the measures."""
        orders = {"rule": design.rules, "measure": self.measures}
        return in_order(table, ("rule", "measure", "field", "players"), orders)

    def family_display(self, found: pd.DataFrame, design: Played) -> pd.DataFrame:
        """The family's effects as the appendix shows them."""
        shown = self.ordered(found, design).assign(
            p_adjusted=lambda t: t["p_adjusted"].map(fmt_p),
            confirmation=lambda t: [confirmation_cell(r) for _, r in t.iterrows()],
        )
        columns = ["rule", "measure", "field", "n", "estimate", "low", "high", "p_adjusted"]
        return display_table(shown[[*columns, "confirmation", "established"]])

    def headline_display(self, headline: pd.DataFrame, design: Played) -> pd.DataFrame:
        """The pooled effects, in their units, with the games that would detect each."""
        shown = in_points(self.ordered(headline, design))
        shown["unit"] = [
            "pp" if "share" in m else "per game" if m in self.per_game else "points"
            for m in shown["measure"]
        ]
        shown[DETECT] = [
            "" if np.isnan(g) else ("never" if np.isinf(g) else f"{g:,.0f}") for g in shown[DETECT]
        ]
        columns = ["rule", "measure", "field", "n", "estimate", "low", "high", "unit"]
        return display_table(shown[[*columns, "established", DETECT]], digits=2)

    def between_display(self, between: pd.DataFrame, design: Played) -> pd.DataFrame:
        """The tests that the fields differ."""
        shown = between.assign(
            p=between["p"].map(fmt_p), p_adjusted=between["p_adjusted"].map(fmt_p)
        )
        columns = ["rule", "measure", "spread", "q", "df", "p", "p_adjusted", "established"]
        return display_table(self.ordered(shown, design)[columns])

    def effects_figure(self, found: pd.DataFrame, design: Played) -> Figure:
        """Each rule's effect on every measure judged, one panel per measure (:attr:`panels`)."""
        rows = self.ordered(found, design)
        rows = in_points(rows).assign(on=rows["measure"].map(self.panels))
        return Figure(
            "effects_by_rule.png",
            f"Each rule's effect on every measure judged, rule minus the {design.base} "
            "(standardised over table sizes; shares in points of percentage).",
            interval_plot(
                rows,
                "rule",
                series="field",
                panels="on",
                title="Every effect of each rule",
                xlabel="house rule",
                ylabel="rule - base",
                zero_line=True,
                order=design.variants,
                horizontal=True,
            ),
        )

    def skill_figure(self, found: pd.DataFrame, design: Played) -> Figure:
        """The change in how often the stronger finishes ahead, per rule and field."""
        rows = self.ordered(found[found["measure"] == self.skill], design)
        return Figure(
            "skill_by_rule.png",
            "How often the stronger of two players finishes ahead of the weaker, each rule minus "
            f"the {design.base} (standardised over table sizes; both runs pooled when a "
            "confirmation run was played).",
            interval_plot(
                in_points(rows),
                "rule",
                series="field",
                title="Skill: change in how often the stronger finishes ahead",
                xlabel="house rule",
                ylabel=f"percentage points, rule - {design.base}",
                zero_line=True,
                order=design.variants,
                horizontal=True,
            ),
        )

    def base_display(self, j: Judged, design: Played) -> pd.DataFrame:
        """The base game's measures per field and table size (shares in percent), with the
        games the stronger needs to be ahead 95% of the time over all table sizes."""
        by = ["field", "players"]
        table = j.base.groupby(by, observed=True)[list(self.measures)].mean().reset_index()
        shares = [m for m in self.measures if "share" in m]
        table[shares] *= 100
        table = table.rename(columns={share: f"{short(share)} (%)" for share in shares})
        games = j.ahead[j.ahead["rule"] == design.base].set_index("field")["games"]
        table["games to be ahead 95% (all sizes)"] = table["field"].map(games)
        return display_table(table, digits=2)

    def findings(self, found: pd.DataFrame, headline: pd.DataFrame, design: Played) -> list[str]:
        """How many effects are established, and per aspect the largest of them (or, if none
        is, the largest seen), with its interval from the pooled runs."""
        shown = self.ordered(found[found["established"].astype(bool)], design)
        lines = [
            f"{len(shown)} of {len(found)} effects are established (survive {CORRECTION} over "
            "the family and confirm on fresh cards); the appendix lists every effect, rule "
            f"minus the {design.base}, and the first table what each means."
        ]
        for aspect, measures in self.aspects.items():
            rows = headline[headline["measure"].isin(measures)]
            established = rows[rows["established"].astype(bool)]
            pool = established if len(established) else rows
            if pool.empty:
                continue
            top = pool.loc[pool["estimate"].abs().idxmax()]
            scale = 100.0 if "share" in top["measure"] else 1.0
            value = fmt_ci(*(top[c] * scale for c in ("estimate", "low", "high")), digits=2)
            unit = " pp" if scale == 100.0 else ""
            which = "largest established" if len(established) else "none established; largest seen"
            lines.append(
                f"{aspect.capitalize()}: {len(established)} established; {which}: "
                f"{top['rule']}, {short(top['measure'])}, {top['field']} field, {value}{unit}."
            )
        return lines
