"""The method of a study that judges rule sets against a base game, owned once.

A :class:`VerdictStudy` declares the measures a study takes per game, which of them
it tests and on what aspect of the game (skill, fairness, tension), and what an
established rise or fall of each means to a player; a measure without words is a gap
(a seat's lead or lag), judged fairer when a rule brings the base game's gap closer to
zero.  The study plays every rule set and the base on the same cards (:class:`Played`
reads which from a run's manifest); this module does the rest, the same for every
such study:

* the effects: each rule's per-game value of a measure minus the base's on the same
  game, standardised over table sizes (each weighs the same), per field;
* one family: those rows and, per rule and measure, the test that the fields differ,
  corrected as one and confirmed at a second seed;
* the sizes quoted from both runs pooled (an estimate read off the run that chose it
  is biased away from zero), the games that would detect what was not established;
* per rule, a verdict per aspect (an effect whose table sizes disagree in sign shown
  per size), its costs in tension and length, and the advice: adopt, one field only,
  weigh, avoid;
* the appendix tables and the effects figure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import heterogeneity
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.studies.effects import Words
from ohhell_sim.studies.family import (
    ALPHA,
    CORRECTION,
    confirm_family,
    correct,
    games_text,
    games_to_detect,
)
from ohhell_sim.studies.measures import clip_shares
from ohhell_sim.studies.pairs import (
    Played,
    games_ahead_by_rule,
    pair_conditions,
    pair_fields,
    played,
    studied_rules,
)
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.runs import Condition, StudyData, condition_batches
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

#: A claim withheld because the table sizes disagree.
OPPOSITE_SIZES = "opposite at different table sizes"
#: The column of the games per condition that would detect an effect not established.
DETECT = "games to detect it"
#: The columns naming a row of each part of the family, in the run and its confirmation.
FAMILY_KEYS = {"effects": ("rule", "measure", "field"), "fields differ": ("rule", "measure")}
#: The judgements that make a game more skilful or fairer, and those that make it less so.
GAINS = ("more skill", "fairer")
LOSSES = ("more luck", "less fair")


def where(frame: pd.DataFrame, **equal: object) -> pd.DataFrame:
    """The rows of ``frame`` whose columns equal the values given."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in equal.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def short(measure: str) -> str:
    """A measure's name without its unit in brackets."""
    return measure.split(" (")[0]


def in_points(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with a share's estimate and interval in points of percentage."""
    share = rows["measure"].str.contains("share").to_numpy()
    scaled = rows.copy()
    for column in ("estimate", "low", "high"):
        scaled[column] = np.where(share, rows[column] * 100, rows[column])
    return scaled


def value_text(row: pd.Series, measure: str) -> str:
    """An estimate and its interval: a share in percent with one decimal, the rest with two."""
    scale, digits, unit = (100.0, 1, "%") if "share" in measure else (1.0, 2, "")
    estimate, low, high = (fmt_number(row[c] * scale, digits) for c in ("estimate", "low", "high"))
    return f"{estimate}{unit} [{low}, {high}]"


def long_measures(measures: pd.DataFrame) -> pd.DataFrame:
    """``measures`` as one row per (rule, field, players, game, measure) with ``value``; the
    rule, field and measure as categories (each name held once, not on every row)."""
    ids = ["rule", "field", "players", "game"]
    labelled = measures.astype({"rule": "category", "field": "category"})
    long = labelled.melt(id_vars=ids, var_name="measure").dropna(subset=["value"])
    return long.astype({"measure": "category"})


def _row_keys(frame: pd.DataFrame, fields: pd.Index) -> np.ndarray:
    # One integer per (field, players, game): the field's code, the table size, the game.
    code = pd.Categorical(frame["field"], categories=fields).codes.astype(np.int64)
    players = frame["players"].to_numpy(np.int64)
    return (code * 64 + players) * 2**32 + frame["game"].to_numpy(np.int64)


def effects_by_measure(
    measures: pd.DataFrame, base: str, names: Sequence[str] | None = None
) -> Iterator[tuple[str, pd.DataFrame]]:
    """Per measure, in the order of the columns: its name and, per (rule, field, players,
    game), the rule's value minus the ``base`` rule's on the same game.

    One frame a measure (of ``names``; default every one), each row where both values
    exist, with the columns of :func:`long_measures` (the rule, field and measure as
    categories, the same for every measure).  Each row is matched to its base row by one
    integer key; a measure at a time, so that only one measure's rows are held: the rows
    of every measure at once were most of a large study's memory.
    """
    ids = ["field", "players", "game"]
    columns = [c for c in measures.columns if c not in ("rule", *ids)]
    rules = measures["rule"].astype("category").cat.categories
    fields = measures["field"].astype("category").cat.categories
    is_base = (measures["rule"] == base).to_numpy()
    reference, others = measures[is_base], measures[~is_base]
    position = pd.Index(_row_keys(reference, fields)).get_indexer(_row_keys(others, fields))
    found = position >= 0
    rule = pd.Categorical(others["rule"], categories=rules)
    field = pd.Categorical(others["field"], categories=fields)
    kinds = pd.CategoricalDtype(sorted(n for n in columns if measures[n].notna().any()))
    players, game = others["players"].to_numpy(), others["game"].to_numpy()
    for name in columns if names is None else [c for c in columns if c in names]:
        base_value = np.full(len(others), np.nan)
        base_value[found] = reference[name].to_numpy(np.float64)[position[found]]
        value = others[name].to_numpy(np.float64)
        keep = ~np.isnan(value) & ~np.isnan(base_value)
        code = kinds.categories.get_loc(name) if name in kinds.categories else 0
        measure = pd.Categorical.from_codes(np.full(keep.sum(), code, np.int8), dtype=kinds)
        yield (
            name,
            pd.DataFrame(
                {
                    "rule": rule[keep],
                    "field": field[keep],
                    "players": players[keep],
                    "game": game[keep],
                    "measure": measure,
                    "value": value[keep] - base_value[keep],
                }
            ),
        )


def stacked(
    estimates: Sequence[pd.DataFrame],
    like: pd.DataFrame | None = None,
    by: Sequence[str] = (),
) -> pd.DataFrame:
    """The per-measure ``estimates`` as one frame, in the row order one ``groupby`` of
    every measure's rows by ``by`` gives (sorted, the categorical columns of ``like``
    by their categories); without ``by``, in the measures' order."""
    frame = pd.concat([e for e in estimates if len(e)] or estimates[:1], ignore_index=True)
    if not by:
        return frame
    codes = [
        pd.Categorical(frame[c], dtype=like[c].dtype).codes
        if isinstance(like[c].dtype, pd.CategoricalDtype)
        else frame[c].to_numpy()
        for c in by
    ]
    return frame.iloc[np.lexsort(codes[::-1])].reset_index(drop=True)


def family_size(parts: Mapping[str, pd.DataFrame]) -> int:
    """The comparisons of a family's parts (rows with a p-value)."""
    return int(sum(part["p"].notna().sum() for part in parts.values()))


def design_games(data: StudyData) -> int:
    """Games per condition of the run (its manifest)."""
    return int(data.manifest.get("games") or max(c["games"] for c in data.manifest["conditions"]))


def pooled_runs(
    data: StudyData, measures: pd.DataFrame, again: pd.DataFrame | None
) -> tuple[pd.DataFrame, list[pd.DataFrame], str, int]:
    """The run's per-game measures with the confirmation run's (its games numbered after the
    run's; ``again``, the confirmation's measures), the games of each run, which runs they
    are in words, and their games per condition."""
    run = data.confirmation
    if run is None or again is None:
        source = "the run alone (no confirmation run was played)"
        return measures, [data.games], source, design_games(data)
    offset = int(data.games["game"].max()) + 1
    pooled = pd.concat([measures, again.assign(game=again["game"] + offset)], ignore_index=True)
    first, second = design_games(data), design_games(run)
    source = f"both runs pooled, {first} + {second} games per condition"
    return pooled, [data.games, run.games], source, first + second


@dataclass(frozen=True)
class Judged:
    """One run judged (:meth:`VerdictStudy.judge`): every frame its report is made of.

    ``parts``: the confirmed family; ``found``: its effects with the games to detect
    each; ``headline``: the effects from both runs' per-game measures pooled (or the
    run's alone, :func:`pooled_runs`), with ``established``; ``sizes``: per table size;
    ``deals``: per rule, the ``fewest`` and ``most`` deals a game it changes (of the
    length measure); ``base``: the base game's per-game measures; ``baseline``: its
    standardised values; ``judged``: the :meth:`VerdictStudy.judgements`; ``source``:
    which runs, in words; ``ahead``: per rule and field, the games a stronger seat
    needs to be ahead 95% of the time (:func:`games_ahead_by_rule`).
    """

    parts: dict[str, pd.DataFrame]
    found: pd.DataFrame
    headline: pd.DataFrame
    sizes: pd.DataFrame
    deals: pd.DataFrame
    base: pd.DataFrame
    baseline: pd.DataFrame
    judged: pd.DataFrame
    source: str
    ahead: pd.DataFrame


@dataclass(frozen=True)
class VerdictStudy:
    """The judging of rule sets against a base, declared.

    Attributes
    ----------
    measures : tuple of str
        Every per-game measure, in the order of the report.
    aspects : mapping
        The measures tested, by aspect (``{"skill": (...), ...}``).
    words : mapping
        What an established rise and fall of a measure mean (``(rise, fall)``); a tested
        measure without words is a gap, judged against the base game's.
    costs : tuple of str
        The words that name a cost.
    per_game : tuple of str
        The measures counted per game (the others are points, or shares).
    length : str
        The measure of a game's length (deals per game): a cost, not tested.
    skill : str
        The measure of skill: how often a stronger seat finishes ahead of a weaker one.
    measures_by_order : callable
        ``measures_by_order(hands, games) -> DataFrame``: of whole conditions' rows (each
        one seat order), one row per (condition, game) with its ``rule``, ``field``,
        ``players`` and ``game`` and a column per measure (:meth:`game_measures` averages
        the orders).
    name, question : str
        The study's name (``ohhell experiment NAME``) and the question its report answers.
    rules : mapping
        The rules a run plays when given no ``variants``: name -> its :class:`Rules`
        keywords at a table size (``n -> dict``), the base first.
    pairs : mapping
        The fields it knows: name -> (stronger, weaker) strategy.
    answer : callable
        ``answer(judged, design) -> Words``: the study's In short and its own tables
        (placed after the verdicts).
    default_games, default_players
        What a run plays when not told.
    panels : mapping
        The effects figure's panels: measure -> a word or two.
    read_played : callable
        ``read_played(manifest) -> Played`` (default :func:`played`).
    notes : callable, optional
        ``notes(found, design) -> notes(rule, measure) -> list of str``: what the study adds
        to a rule's verdict after a measure's judgements.
    explain : callable, optional
        ``explain(cells, design, rule, measure) -> str``: why an effect's table sizes
        disagree, where the study can see it ("" where not).
    method_notes : callable, optional
        ``method_notes(manifest) -> list of str``: the method's sentences on the study's
        own measures.
    reduce_hands : callable, optional
        As in :class:`~ohhell_sim.studies.spec.StudySpec`.
    """

    measures: tuple[str, ...]
    aspects: Mapping[str, tuple[str, ...]]
    words: Mapping[str, tuple[str, str]]
    costs: tuple[str, ...]
    per_game: tuple[str, ...]
    length: str
    skill: str
    measures_by_order: Callable[[pd.DataFrame, pd.DataFrame], pd.DataFrame]
    name: str
    question: str
    rules: Mapping[str, Callable[[int], dict[str, object]]]
    pairs: Mapping[str, tuple[str, str]]
    answer: Callable[[Judged, Played], Words]
    default_games: int
    default_players: tuple[int, ...]
    panels: Mapping[str, str] = dataclasses.field(default_factory=dict)
    read_played: Callable[[dict], Played] = played
    notes: Callable[[pd.DataFrame, Played], Callable[[str, str], list[str]]] | None = None
    explain: Callable[[pd.DataFrame, Played, str, str], str] | None = None
    method_notes: Callable[[dict], list[str]] | None = None
    reduce_hands: Callable[[pd.DataFrame], pd.DataFrame] | None = None

    @property
    def tested(self) -> tuple[str, ...]:
        """The measures tested, aspect by aspect."""
        return tuple(measure for measures in self.aspects.values() for measure in measures)

    # --- the design -------------------------------------------------------------------

    def field_names(self, fields: object) -> tuple[str, ...]:
        """``fields`` checked (:func:`pair_fields`): names of :attr:`pairs`, or
        ``STRONGER/WEAKER`` pairs of registered strategies."""
        return pair_fields(fields, self.pairs)

    def conditions(
        self,
        games: int,
        players: tuple[int, ...],
        fields: Sequence[str] | None = None,
        variants: Sequence[str] | None = None,
        base: str | None = None,
    ) -> list[Condition]:
        """Every rule of :func:`studied_rules` (:attr:`rules`, or the ``variants`` on top of
        ``base``), table size, field and seat order (:func:`pair_conditions`)."""
        studied = studied_rules(players, variants, base, self.rules)
        fields = tuple(self.pairs) if fields is None else fields
        return pair_conditions(games, players, self.field_names(fields), studied, self.pairs)

    def spec(self) -> StudySpec:
        """The declaration ``ohhell experiment`` plays."""
        return StudySpec(
            name=self.name,
            question=self.question,
            conditions=self.conditions,
            analyse=self.analyse,
            default_games=self.default_games,
            default_players=self.default_players,
            default_fields=tuple(self.pairs),
            known_fields=tuple(self.pairs),
            takes_rule_sets=True,
            field_names=self.field_names,
            reduce_hands=self.reduce_hands,
        )

    # --- the family -------------------------------------------------------------------

    def game_measures(self, hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
        """One row per (rule, field, players, game): every measure, averaged over the two
        seat orders; measured a batch of conditions at a time (:attr:`measures_by_order`,
        :func:`~ohhell_sim.studies.runs.condition_batches`)."""
        per_order = pd.concat(
            [self.measures_by_order(*batch) for batch in condition_batches(hands, games)],
            ignore_index=True,
        ).astype({"rule": str, "field": str})
        by = ["rule", "field", "players", "game"]
        return per_order.groupby(by, sort=True)[list(self.measures)].mean().reset_index()

    def family_parts(
        self,
        measures: pd.DataFrame,
        base: str,
        unjudged: frozenset[tuple[str, str]] = frozenset(),
    ) -> dict[str, pd.DataFrame]:
        """The family of one run's effects (:func:`effects_by_measure`, one run's per-game
        ``measures`` against the ``base`` rule's): each tested effect per field,
        standardised over table sizes, and per (rule, measure) the test that the fields
        differ; the ``unjudged`` (rule, field) pairs (:attr:`Played.unjudged`) left out."""
        keys = ["rule", "measure", "field"]
        rows, between, tested = [], [], None
        for _, tested in effects_by_measure(measures, base, self.tested):
            if unjudged:
                pairs = pd.MultiIndex.from_frame(tested[["rule", "field"]].astype(str))
                tested = tested[~pairs.isin(list(unjudged))]
            rows.append(standardised_mean(tested, tested["value"], keys, "players"))
            between.append(heterogeneity(tested, ["rule", "measure"], "field", stratum="players"))
        between = stacked(between)
        between = between[between["fields"] > 1].assign(estimate=np.nan, low=np.nan, high=np.nan)
        return correct({"effects": stacked(rows, tested, keys), "fields differ": between})

    def judge(self, data: StudyData, design: Played) -> Judged:
        """The run and its confirmation judged: the family confirmed, the sizes pooled, the
        base game's values and every judgement."""
        measures = self.game_measures(data.hands, data.games)
        run = data.confirmation
        again = None if run is None else self.game_measures(run.hands, run.games)

        def family_of(one: StudyData) -> dict[str, pd.DataFrame]:
            return self.family_parts(
                measures if one is data else again, design.base, design.unjudged
            )

        parts = confirm_family(data, family_of, FAMILY_KEYS)
        found = parts["effects"]
        # The numbers quoted: both runs pooled, not the run that chose the findings.
        pooled, runs, source, games_per_condition = pooled_runs(data, measures, again)
        ahead = games_ahead_by_rule(runs)
        keys = ["rule", "measure", "field"]
        standardised, sizes, deals, effects = [], [], None, None
        for name, effects in effects_by_measure(pooled, design.base):
            if name in self.tested:
                standardised.append(standardised_mean(effects, effects["value"], keys, "players"))
            sizes.append(grouped_mean(effects, effects["value"], [*keys, "players"]))
            if name == self.length:
                deals = effects.groupby("rule", sort=False)["value"]
                deals = pd.DataFrame({"fewest": deals.min(), "most": deals.max()})
        headline = found[[*keys, "established"]].merge(
            stacked(standardised, effects, keys), on=keys
        )
        needed = games_to_detect(headline, games_per_condition, family_size(parts))
        headline[DETECT] = np.where(headline["established"].astype(bool), np.nan, needed)
        found = found.merge(headline[[*keys, DETECT]], on=keys, how="left")
        sizes = stacked(sizes, effects, [*keys, "players"])
        base = pooled[pooled["rule"] == design.base]
        canonical = long_measures(base)
        baseline = standardised_mean(canonical, canonical["value"], ["measure", "field"], "players")
        # A share's interval stays within [0, 1], which a t-interval over few games can leave.
        clip_shares(baseline, baseline["measure"].str.contains("share"))
        judged = self.judgements(
            headline, baseline.set_index(["measure", "field"])["estimate"], sizes, design
        )
        return Judged(parts, found, headline, sizes, deals, base, baseline, judged, source, ahead)

    def analyse(self, data: StudyData) -> Report:
        """The report: one verdict per rule, the study's own answer, every effect and test."""
        design = self.read_played(data.manifest)
        j = self.judge(data, design)
        notes = None if self.notes is None else self.notes(j.headline, design)
        own = self.answer(j, design)
        own_method = [] if self.method_notes is None else self.method_notes(data.manifest)
        return study_report(
            self.name,
            self.question,
            data.manifest,
            [*self.design_method(design), *own_method, *self.method(data.manifest, j, design)],
            self.findings(j.found, j.headline, design),
            self.tables(j, design, self.verdict_table(j, design, notes), own.tables),
            [self.skill_figure(j.headline, design), self.effects_figure(j.headline, design)],
            in_short=own.in_short,
            lead_tables=1,
        )

    # --- the judgements ---------------------------------------------------------------

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

    # --- the verdicts -----------------------------------------------------------------

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

    # --- the tables and figures -------------------------------------------------------

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
