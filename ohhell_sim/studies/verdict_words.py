"""What a verdict study's established effects mean to a player, rule by rule.

:class:`VerdictWords` (part of :class:`~ohhell_sim.studies.verdicts.VerdictStudy`)
turns the family's effects into judgements (more skill, fairer, wider margins...)
with their sizes, one verdict per rule and aspect, and its costs; an effect not
established is said to be so, with the games that would find it.  :func:`advice`
groups the rules by what they do for a skilful, fair game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from ohhell_sim.analysis.format import fmt_number
from ohhell_sim.studies.family import games_text
from ohhell_sim.studies.pairs import Played
from ohhell_sim.studies.verdict_effects import DETECT, Judged, short, where

#: A claim withheld because the table sizes disagree.
OPPOSITE_SIZES = "opposite at different table sizes"
#: The judgements that make a game more skilful or fairer, and those that make it less so.
GAINS = ("more skill", "fairer")
LOSSES = ("more luck", "less fair")


class VerdictWords:
    """The judgements and verdicts of a :class:`~ohhell_sim.studies.verdicts.VerdictStudy`,
    from the measures, aspects, words and costs it declares."""

    def judgements(
        self, found: pd.DataFrame, baseline: pd.Series, sizes: pd.DataFrame, design: Played
    ) -> pd.DataFrame:
        """What each established effect means: per (rule, measure, judged field), its
        :meth:`direction`, the ``shift`` and its size in words (``size``)."""
        rows = []
        for rule in design.variants:
            for measure in self.tested:
                for field in design.judged_fields(rule):
                    word = self.direction(found, baseline, sizes, rule, measure, field)
                    if not word:
                        continue
                    shift = float(
                        where(found, rule=rule, measure=measure, field=field)["estimate"].iloc[0]
                    )
                    if word == OPPOSITE_SIZES:
                        cells = where(sizes, rule=rule, measure=measure, field=field)
                        size = self.per_size(cells, measure)
                        if self.explain is not None:
                            size += self.explain(cells, design, rule, measure)
                    elif measure in self.words:
                        size = f"{_arrow(shift)} {self.amount(measure, shift)}"
                    else:
                        gap = float(baseline.loc[(measure, field)])
                        size = f"{_arrow(shift)} {gap:+.2f} → {gap + shift:+.2f} points"
                    rows.append(
                        {"rule": rule, "measure": measure, "field": field, "word": word}
                        | {"shift": shift, "size": size}
                    )
        return pd.DataFrame(rows, columns=["rule", "measure", "field", "word", "shift", "size"])

    def amount(self, measure: str, value: float) -> str:
        """A change of ``measure`` in its unit: points of percentage for a share."""
        if "share" in measure:
            return f"{value * 100:+.1f} pp"
        unit = "per game" if measure in self.per_game else "points"
        return f"{value:+.2f} {unit}"

    def per_size(self, cells: pd.DataFrame, measure: str) -> str:
        """The table sizes whose cells exclude zero, each with its change: ``"+0.40 points
        at 3, -0.80 points at 7 players"``."""
        shown = cells[(cells["low"] > 0) | (cells["high"] < 0)].sort_values("players")
        said = [
            f"{self.amount(measure, r['estimate'])} at {r['players']}" for _, r in shown.iterrows()
        ]
        return ", ".join(said) + " players"

    def direction(
        self,
        found: pd.DataFrame,
        baseline: pd.Series,
        sizes: pd.DataFrame,
        rule: str,
        measure: str,
        field: str,
    ) -> str:
        """What the established effect of ``rule`` on ``measure`` in ``field`` means, or "":
        judged against the base game's ``baseline``, withheld where the per-size ``sizes``
        disagree."""
        hit = where(found, rule=rule, measure=measure, field=field)
        if hit.empty or not bool(hit["established"].iloc[0]):
            return ""
        cells = where(sizes, rule=rule, measure=measure, field=field)
        if (cells["low"] > 0).any() and (cells["high"] < 0).any():
            return OPPOSITE_SIZES
        shift = float(hit["estimate"].iloc[0])
        if measure not in self.words:
            gap = float(baseline.loc[(measure, field)])
            return "fairer" if abs(gap + shift) < abs(gap) else "less fair"
        return self.words[measure][0 if shift > 0 else 1]

    def verdicts(
        self,
        judged: pd.DataFrame,
        found: pd.DataFrame,
        design: Played,
        notes: Callable[[str, str], list[str]] | None = None,
        ahead: pd.DataFrame | None = None,
        sizes: pd.DataFrame | None = None,
    ) -> pd.DataFrame:
        """One row per rule: per aspect what its :meth:`judgements` say, with their sizes,
        or that nothing was established and at how many games it would be (:meth:`unsettled`,
        reading the table sizes' ``sizes``); the fields judged.  ``notes(rule, measure)``:
        what the study adds after a measure's phrases; where skill changed, the games to be
        ahead (``ahead``, :func:`games_ahead_by_rule`)."""
        rows = []
        for rule in design.variants:
            row = {"rule": rule}
            for aspect, measures in self.aspects.items():
                said = []
                for measure in measures:
                    said += self.in_fields(measure, where(judged, rule=rule, measure=measure))
                    if notes is not None:
                        said += notes(rule, measure)
                if self.skill in measures and ahead is not None:
                    said += self.games_ahead_change(judged, ahead, design, rule)
                row[aspect] = "; ".join(said) or self.unsettled(
                    found, design, rule, measures, sizes
                )
            row["judged in"] = judged_in(design, rule)
            rows.append(row)
        return pd.DataFrame(rows)

    def games_ahead_change(
        self, judged: pd.DataFrame, ahead: pd.DataFrame, design: Played, rule: str
    ) -> list[str]:
        """Where skill changed: the games the stronger needs to be ahead 95% of the time,
        base game to rule, per field."""
        fields = where(judged, rule=rule, measure=self.skill)
        fields = fields.loc[fields["word"].isin(self.words[self.skill]), "field"]
        said = []
        for field in fields:
            before, after = (
                float(where(ahead, rule=r, field=field)["games"].iloc[0])
                for r in (design.base, rule)
            )
            said.append(f"{fmt_number(before, 0)} → {fmt_number(after, 0)} games ({field})")
        return [f"games to be ahead 95% of the time: {', '.join(said)}"] if said else []

    def in_fields(self, measure: str, mine: pd.DataFrame) -> list[str]:
        """``"fairer, one-card dealer's gap: ↑ -2.11 → -0.20 points (weak), ..."``: one
        phrase per judgement, each field's size beside it."""
        what = "" if measure in self.words else f", {short(measure)}"
        out = []
        for word in pd.unique(mine["word"]):
            rows = mine[mine["word"] == word]
            sizes = ", ".join(f"{r['size']} ({r['field']})" for _, r in rows.iterrows())
            out.append(f"{word}{what}: {sizes}")
        return out

    def unsettled(
        self,
        found: pd.DataFrame,
        design: Played,
        rule: str,
        measures: Sequence[str],
        sizes: pd.DataFrame | None = None,
    ) -> str:
        """What a verdict says where no effect was established: at how many games, and per
        field about how many would find the effect seen (of several measures, the one found
        soonest, named); never that nothing changes.  Where the table sizes of an effect
        (``sizes``, unadjusted intervals) disagree in sign, which its average over them
        hides, it says so, per size, with the reason where :attr:`explain` sees one."""
        rows = where(found, rule=rule)
        rows = rows[rows["measure"].isin(measures) & ~rows["established"].astype(bool)]
        if rows.empty:
            return "not judged: no field's players bid for the scoring table"
        rows = rows.assign(_field=rows["field"].map(design.fields.index))
        soonest = rows.sort_values(["_field", DETECT], kind="stable").drop_duplicates("_field")
        named = len(measures) > 1
        needed = [
            f"{games_text(r[DETECT])} the {self.amount(r['measure'], r['estimate'])} seen"
            + f" ({short(r['measure']) + ', ' if named else ''}{r['field']})"
            for _, r in soonest.iterrows()
        ]
        text = f"not established at {design.games} games; {', '.join(needed)}"
        split = []
        for _, r in rows.sort_values("_field", kind="stable").iterrows():
            if sizes is None:
                break
            measure = r["measure"]
            cells = where(sizes, rule=rule, measure=measure, field=r["field"])
            if (cells["low"] > 0).any() and (cells["high"] < 0).any():
                why = self.explain(cells, design, rule, measure) if self.explain else ""
                what = f"{short(measure)}, {r['field']}"
                split.append(f"{self.per_size(cells, measure)}{why} ({what})")
        if split:
            text += f"; table sizes of opposite sign (unadjusted): {'; '.join(split)}"
        return text

    def cost_of(self, judged: pd.DataFrame, lengths: pd.Series, design: Played) -> pd.Series:
        """Per rule, what it costs (established, per field) and its change in length."""
        out = {}
        for rule in design.variants:
            mine = where(judged, rule=rule)
            mine = mine[mine["word"].isin(self.costs)]
            said = [
                f"{word} ({', '.join(mine.loc[mine['word'] == word, 'field'])})"
                for word in pd.unique(mine["word"])
            ]
            if lengths[rule] != "same deals":
                said.append(lengths[rule])
            out[rule] = "; ".join(said) or "none established"
        return pd.Series(out)

    def verdict_table(
        self, j: Judged, design: Played, notes: Callable[[str, str], list[str]] | None = None
    ) -> pd.DataFrame:
        """The :meth:`verdicts` of a judged run, with each rule's change in length and its
        costs (:meth:`cost_of`) after the aspects."""
        verdict = self.verdicts(j.judged, j.headline, design, notes, j.ahead, j.sizes)
        deals = j.deals
        lengths = pd.Series(
            {r: deals_text(deals["fewest"][r], deals["most"][r]) for r in design.variants}
        )
        after = 1 + len(self.aspects)
        verdict.insert(after, "length", verdict["rule"].map(lengths))
        verdict.insert(
            after + 1, "cost", verdict["rule"].map(self.cost_of(j.judged, lengths, design))
        )
        return verdict


def _arrow(shift: float) -> str:
    return "↑" if shift > 0 else "↓"


def judged_in(design: Played, rule: str) -> str:
    """The fields that judge ``rule``, and why any other does not."""
    fields = design.judged_fields(rule)
    text = ", ".join(fields) or "none"
    left = [f for f in design.fields if f not in fields]
    if left:
        text += f" ({', '.join(left)}: its players bid alike under every scoring table)"
    return text


#: The most rules the advice names in one group; the others are counted.
NAMED = 4


def advice_text(advised: Mapping[str, list[str]]) -> str:
    """The :func:`advice` in a sentence: what to adopt, what helps in one field only, what
    to weigh and what to avoid."""

    def listed(rules: list[str]) -> str:
        more = f" and {len(rules) - NAMED} more (first table)" if len(rules) > NAMED else ""
        return ", ".join(rules[:NAMED]) + more

    text = (
        f"For a skilful, fair game adopt {listed(advised['adopt']) or 'none of the rules studied'}"
    )
    if advised["one field"]:
        text += f"; {listed(advised['one field'])} help in one field only"
    if advised["weigh"]:
        text += f"; weigh {listed(advised['weigh'])}: better in one way, worse in another"
    if advised["avoid"]:
        text += f"; avoid {listed(advised['avoid'])}"
    return text + ". The first table gives each rule's effects and costs."


def advice(judged: pd.DataFrame, design: Played) -> dict[str, list[str]]:
    """The rules by what they do for a skilful, fair game: ``adopt`` (a gain in every field
    that judges it, no loss), ``one field`` (a gain in some, no loss), ``weigh`` (both) and
    ``avoid`` (losses)."""
    out: dict[str, list[str]] = {"adopt": [], "one field": [], "weigh": [], "avoid": []}
    for rule in design.variants:
        mine = where(judged, rule=rule)
        better = set(mine.loc[mine["word"].isin(GAINS), "field"])
        worse = set(mine.loc[mine["word"].isin(LOSSES), "field"])
        if better and worse:
            out["weigh"].append(rule)
        elif worse:
            out["avoid"].append(rule)
        elif better:
            every = better == set(design.judged_fields(rule))
            out["adopt" if every else "one field"].append(rule)
    return out


def deals_text(fewest: float, most: float) -> str:
    """The change in deals per game over the table sizes: ``"+1 to +3 deals per game"``."""
    fewest, most = round(float(fewest)), round(float(most))
    if fewest == most == 0:
        return "same deals"
    span = f"{fewest:+d}" if fewest == most else f"{fewest:+d} to {most:+d}"
    return f"{span} deal{'' if fewest == most and abs(most) == 1 else 's'} per game"
