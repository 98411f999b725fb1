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

The effects against the base are :mod:`~ohhell_sim.studies.verdict_effects`'; what they
mean to a player, :class:`~ohhell_sim.studies.verdict_words.VerdictWords`; the report's
parts, :class:`~ohhell_sim.studies.verdict_report.VerdictReport`.  This module plays and
judges.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import heterogeneity
from ohhell_sim.analysis.report import Report
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.studies.effects import Words
from ohhell_sim.studies.family import confirm_family, correct, games_to_detect
from ohhell_sim.studies.measures import clip_shares
from ohhell_sim.studies.pairs import (
    Played,
    games_ahead_by_rule,
    pair_conditions,
    pair_fields,
    played,
    studied_rules,
)
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData, condition_batches
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.verdict_effects import (
    DETECT,
    Judged,
    effects_by_measure,
    family_size,
    long_measures,
    pooled_runs,
    stacked,
)
from ohhell_sim.studies.verdict_report import VerdictReport
from ohhell_sim.studies.verdict_words import VerdictWords

#: The columns naming a row of each part of the family, in the run and its confirmation.
FAMILY_KEYS = {"effects": ("rule", "measure", "field"), "fields differ": ("rule", "measure")}


@dataclass(frozen=True)
class VerdictStudy(VerdictWords, VerdictReport):
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
        )
        labels = {"rule": str, "field": str}
        # Grouped on the labels' codes, their categories in the order of their text, and
        # made text after: a row per game and seat order is millions of rows.
        for column in labels:
            if isinstance(per_order[column].dtype, pd.CategoricalDtype):
                per_order[column] = per_order[column].cat.reorder_categories(
                    sorted(per_order[column].cat.categories, key=str)
                )
        by = ["rule", "field", "players", "game"]
        grouped = per_order.groupby(by, sort=True, observed=True)
        return grouped[list(self.measures)].mean().reset_index().astype(labels)

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
