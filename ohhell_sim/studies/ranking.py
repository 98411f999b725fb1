"""Entries ranked per field on a score per game, compared in pairs, confirmed at another seed.

A study that ranks entries (challengers of :mod:`~ohhell_sim.studies.gauntlets`, identical
ones merged) reads each entry's value per deal set, its mean over the rotations
(:meth:`Ladder.values`); ranks the entries per field with t intervals over deal sets
(:meth:`Ladder.ranking`); compares every pair of entries in every field, paired on the
deal sets both played, with per pair the test that its difference is the same in every
field, as one Holm-adjusted family (:meth:`Ladder.family`) confirmed at a second seed in the
first run's order (:meth:`Ladder.confirmed`).  Its claims (each entry ahead of the next),
the pairs whose order depends on the field, the standard tables and the family's method are
the same for every such study.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations, pairwise

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import BETWEEN_FIELDS, between_fields
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Table
from ohhell_sim.analysis.stats import clip_rate, mean_ci, paired_difference_ci, store_interval
from ohhell_sim.studies.family import CORRECTION, confirm_family, correct
from ohhell_sim.studies.gauntlets import gauntlet_games, identical_groups, merge_identical
from ohhell_sim.studies.runs import StudyData
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

#: Columns identifying a row of the pairwise family, in the run and in its confirmation.
PAIR_KEYS = ("field", "a", "b")


def signs(part: pd.DataFrame) -> int:
    """How many signs the estimates of ``part`` take."""
    return len(set(np.sign(part["estimate"])))


def marked(row: pd.Series, digits: int = 2) -> str:
    """An interval with ``*`` when its pair is established (survives and confirms)."""
    return fmt_row(row, digits) + (" *" if row["established"] else "")


def flipped(row: pd.Series) -> pd.Series:
    """A confirmed pair row read the other way round: ``b`` minus ``a``."""
    out = row.copy()
    out["a"], out["b"] = row["b"], row["a"]
    for prefix in ("", "confirm_"):
        out[f"{prefix}estimate"] = -row[f"{prefix}estimate"]
        out[f"{prefix}low"], out[f"{prefix}high"] = -row[f"{prefix}high"], -row[f"{prefix}low"]
    return out


def ranking_claims(family: pd.DataFrame, rankings: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The family rows "a beats b": each entry against the next one down in its field's ranking."""
    rows = []
    for field, ranking in rankings.items():
        pairs = {
            (row["a"], row["b"]): row for _, row in family[family["field"] == field].iterrows()
        }
        for above, below in pairwise(ranking["strategy"].tolist()):
            found = pairs.get((above, below))
            rows.append(flipped(pairs[below, above]) if found is None else found)
    return pd.DataFrame(rows).reset_index(drop=True)


def order_changes(family: pd.DataFrame) -> pd.DataFrame:
    """Pairs whose order differs between fields (the estimate's sign is not the same in all):
    ``a``, ``b``, their rows as ``fields``, and ``resolved`` when established both ways."""
    pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
    rows = [
        (a, b, signs(part[part["established"]]) > 1, part.reset_index(drop=True))
        for (a, b), part in pairs
        if signs(part) > 1
    ]
    return pd.DataFrame(rows, columns=["a", "b", "resolved", "fields"])


@dataclass(frozen=True)
class Ranked:
    """A run's entries ranked and compared (:meth:`Ladder.rank`).

    Attributes
    ----------
    groups : list of tuple of str
        The challengers of each entry (:func:`identical_groups`).
    values : DataFrame
        Per (field, entry, deal set), each measure (:meth:`Ladder.values`).
    rankings : dict
        Per field, in the order played, its :meth:`Ladder.ranking`.
    family : DataFrame
        The pairwise family, confirmed (:meth:`Ladder.confirmed`).
    claims : DataFrame
        Its rows "a beats b" of each entry and the next one down (:func:`ranking_claims`).
    """

    groups: list[tuple[str, ...]]
    values: pd.DataFrame
    rankings: dict[str, pd.DataFrame]
    family: pd.DataFrame
    claims: pd.DataFrame

    @property
    def fields(self) -> list[str]:
        """The fields, in the order played."""
        return list(self.rankings)

    @property
    def order(self) -> list[str]:
        """The entries in the first field's ranking: the order of every pair's ``a`` and ``b``."""
        return self.rankings[self.fields[0]]["strategy"].tolist()

    @property
    def correction(self) -> str:
        """The family's correction (``"holm over 3"``)."""
        return self.family["correction"].iloc[0] if len(self.family) else f"{CORRECTION} over 0"

    @property
    def ranked(self) -> pd.DataFrame:
        """The rankings stacked, with ``field``."""
        return pd.concat([r.assign(field=f) for f, r in self.rankings.items()], ignore_index=True)


@dataclass(frozen=True)
class Ladder:
    """What a ranking of entries measures, read from the challenger's seat of each game.

    Attributes
    ----------
    per_game : mapping
        Measure -> games column, its mean per game; the first is the score entries are
        ranked and compared on (a mean score per game).
    per_deal : mapping
        Measure -> games column counted per deal: its sum over the ``deals`` column's.
    """

    per_game: Mapping[str, str]
    per_deal: Mapping[str, str]

    @property
    def score(self) -> str:
        """The measure the entries are ranked and compared on."""
        return next(iter(self.per_game))

    def values(self, data: StudyData, groups: list[tuple[str, ...]] | None = None) -> pd.DataFrame:
        """Per (field, entry, deal set) of a run: each measure over the rotations, identical
        challengers merged (``groups``: found in the run when None; the confirmation run takes
        the first run's, so that its entries match)."""
        long = gauntlet_games(data)
        merged = merge_identical(long, identical_groups(long) if groups is None else groups)
        seats = merged[merged["challenger_seat"]]
        grouped = seats.groupby(["field", "challenger", "unit"], observed=True)
        columns = [*self.per_game.values(), "deals", *self.per_deal.values()]
        sums = grouped[columns].sum()
        count = grouped.size()
        game = {name: sums[column] / count for name, column in self.per_game.items()}
        deal = {name: sums[column] / sums["deals"] for name, column in self.per_deal.items()}
        return pd.DataFrame(game | deal).reset_index()

    def ranking(self, values: pd.DataFrame) -> pd.DataFrame:
        """Per entry of one field, best score first: each measure, t interval over deal sets
        (the rates' clipped to [0, 1])."""
        rows = []
        for name, group in values.groupby("challenger", observed=True):
            row = {"strategy": name, "deal_sets": len(group)}
            for measure in [*self.per_game, *self.per_deal]:
                est = mean_ci(group[measure].to_numpy())
                store_interval(row, measure, est if measure == self.score else clip_rate(est))
            rows.append(row)
        table = pd.DataFrame(rows).sort_values(self.score, ascending=False, ignore_index=True)
        table.insert(0, "rank", np.arange(1, len(table) + 1))
        return table

    def family(self, values: pd.DataFrame, order: list[str]) -> pd.DataFrame:
        """The declared family, Holm-adjusted: per field and pair of entries the score of ``a``
        minus ``b`` (``a`` first in ``order``), paired on the deal sets both played, and per
        pair the test that it is the same in every field (:func:`between_fields`)."""
        rows, units = [], []
        for field, part in values.groupby("field", observed=True, sort=False):
            scores = part.pivot(index="unit", columns="challenger", values=self.score)
            for a, b in combinations([name for name in order if name in scores], 2):
                both = scores[[a, b]].dropna()
                est = paired_difference_ci(both[a].to_numpy(), both[b].to_numpy())
                key = {"field": field, "a": a, "b": b}
                rows.append({**key, "deal_sets": len(both), **est._asdict()})
                units.append(pd.DataFrame({**key, "game": both.index, "value": both[a] - both[b]}))
        table = pd.DataFrame(rows, columns=[*PAIR_KEYS, "deal_sets", "estimate", "low", "high"])
        if table.empty:
            # One entry: no comparison, an empty family.
            return table.assign(p=[], p_adjusted=[], survives=[], correction=[]).astype(
                {"survives": bool}
            )
        tests = between_fields(pd.concat(units, ignore_index=True), keys=["a", "b"])
        parts = [table, tests] if len(tests) else [table]
        return correct(pd.concat(parts, ignore_index=True))

    def confirmed(
        self,
        data: StudyData,
        values: pd.DataFrame,
        order: list[str],
        groups: list[tuple[str, ...]],
    ) -> pd.DataFrame:
        """:meth:`family` of the run, its surviving rows checked in the confirmation run, whose
        pairs keep the first run's ``order``: claims chosen on its cards meet fresh ones."""

        def family_of(run: StudyData) -> dict[str, pd.DataFrame]:
            found = values if run is data else self.values(run, groups)
            return {"pairs": self.family(found, order)}

        return confirm_family(data, family_of, {"pairs": PAIR_KEYS})["pairs"]

    def rank(self, data: StudyData) -> Ranked:
        """The entries of a run (:func:`identical_groups` merged) ranked per field, every pair
        compared in the one family, confirmed in the first field's order, and its claims."""
        groups = identical_groups(gauntlet_games(data))
        values = self.values(data, groups)
        fields = [str(f) for f in pd.unique(values["field"])]
        rankings = {field: self.ranking(values[values["field"] == field]) for field in fields}
        order = rankings[fields[0]]["strategy"].tolist()
        family = self.confirmed(data, values, order, groups)
        claims = ranking_claims(family, rankings) if len(family) else family
        return Ranked(groups, values, rankings, family, claims)

    def tables(self, found: Ranked, unit: str) -> list[Table]:
        """The rankings per field, the headline claims and the pairwise family, a row per pair
        and its cells per field; ``unit``: the score's (``"points per game"``)."""
        claims, family, correction = found.claims, found.family, found.correction
        shown = pd.DataFrame(
            {
                "field": claims["field"],
                "claim": claims["a"] + " beats " + claims["b"],
                f"{unit} [95% CI]": [fmt_row(r, 2) for _, r in claims.iterrows()],
                "p (adjusted)": claims["p_adjusted"].map(fmt_p),
                f"survives {correction}": claims["survives"].map({True: "yes", False: "no"}),
                "confirmation": [confirmation_cell(r, 2) for _, r in claims.iterrows()],
            }
        )
        tests = {
            (r["a"], r["b"]): r for _, r in family[family["field"] == BETWEEN_FIELDS].iterrows()
        }
        rows = []
        cells = family[family["field"] != BETWEEN_FIELDS]
        for (a, b), part in cells.groupby(["a", "b"], sort=False):
            by_field = {row["field"]: marked(row) for _, row in part.iterrows()}
            row = {"a": a, "b": b, **{f: by_field.get(f, "n/a") for f in found.fields}}
            if (test := tests.get((a, b))) is not None:
                row["spread between fields"] = fmt_number(test["estimate"], 2)
                row["W"] = fmt_number(test["q"], 1)
                row["fields differ: p (adjusted)"] = fmt_p(test["p_adjusted"])
                row["fields differ: confirmation"] = test["confirmation"]
            rows.append(row)
        title = (
            "Pairwise: mean score per game of a minus b per field, and whether the fields differ"
        )
        return [
            Table(
                "Ranking per field (best mean score first)",
                display_table(found.ranked.set_index("field")),
                f"{self.score}: {unit}; 95% CI over deal sets.",
            ),
            Table(
                "Headline ranking claims: each entry against the next one down",
                shown,
                "Rows of the pairwise family; confirmation: the pair at the second seed.",
            ),
            Table(
                f"{title} ({correction})",
                pd.DataFrame(rows),
                "95% CI paired on the deal sets both played; * established. Spread: the highest "
                "field's estimate minus the lowest's; W: Wald statistic, chi-squared with fields "
                "- 1 df.",
            ),
        ]

    def figure(self, found: Ranked, unit: str) -> Figure:
        """Each entry's score per field, with its interval, in the first field's order."""
        score = self.score
        bounds = {score: "estimate", f"{score}_low": "low", f"{score}_high": "high"}
        plot = interval_plot(
            found.ranked.rename(columns=bounds),
            "strategy",
            series="field" if len(found.fields) > 1 else None,
            title="Score per game against each field",
            xlabel="strategy",
            ylabel=unit,
            order=found.order,
        )
        return Figure("ladder_ranking.png", "Mean score per game of each strategy, per field", plot)

    @staticmethod
    def method(correction: str, entries: int, confirmation: dict, size: str) -> list[str]:
        """The method's sentences on the merged entries, the family (its ``correction``, over
        ``entries``), its confirmation (the manifest's record; ``size``: what its games count)
        and what established means."""
        return [
            "Challengers with the same bids, tricks and total, seat by seat and deal by deal, on "
            "every game of every field both played are one entry, 'a = b'.",
            f"One comparison family, Holm-adjusted ({correction}, family-wise level 0.05): every "
            f"pair of the {entries} entries in every field, and per pair a Wald test that its "
            "difference is the same in every field (paired across fields, which play the same "
            "cards). p-values come from the paired intervals (normal approximation).",
            confirmation_method(
                confirmation,
                "the whole ladder is played again, its pairs in the order of the first run's "
                "ranking,",
                size,
            ),
            "Established ('*'): survives the correction and confirms. A pair changes order when "
            "its estimate's sign differs between fields, resolved when established both ways.",
        ]
