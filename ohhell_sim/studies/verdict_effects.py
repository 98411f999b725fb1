"""A verdict study's effects against its base game, matched game by game and pooled.

Each rule's per-game value of a measure minus the base rule's on the same cards
(:func:`effects_by_measure`), the estimates of every measure stacked in one order
(:func:`stacked`), the run and its confirmation pooled for the sizes quoted
(:func:`pooled_runs`), and the record of one judged run (:class:`Judged`), for
:class:`~ohhell_sim.studies.verdicts.VerdictStudy`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.format import fmt_number
from ohhell_sim.studies.runs import StudyData

#: The column of the games per condition that would detect an effect not established.
DETECT = "games to detect it"


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


def _row_keys(field_codes: np.ndarray, frame: pd.DataFrame) -> np.ndarray:
    # One integer per (field, players, game): the field's code, the table size, the game.
    players = frame["players"].to_numpy(np.int64)
    return (field_codes.astype(np.int64) * 64 + players) * 2**32 + frame["game"].to_numpy(np.int64)


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
    # Each column read once, and the rule's and base's rows taken by position: a copy of
    # the frame's base and other rows would hold every measure twice more.
    rule_labels = measures["rule"].astype("category")
    field_labels = measures["field"].astype("category")
    rules, fields = rule_labels.cat.categories, field_labels.cat.categories
    is_base = (measures["rule"] == base).to_numpy()
    base_rows, other_rows = np.flatnonzero(is_base), np.flatnonzero(~is_base)
    keys = _row_keys(field_labels.cat.codes.to_numpy(), measures)
    position = pd.Index(keys[base_rows]).get_indexer(keys[other_rows])
    found = position >= 0
    matched = base_rows[position[found]]
    del keys, base_rows
    rule = pd.Categorical.from_codes(rule_labels.cat.codes.to_numpy()[other_rows], rules)
    field = pd.Categorical.from_codes(field_labels.cat.codes.to_numpy()[other_rows], fields)
    kinds = pd.CategoricalDtype(sorted(n for n in columns if measures[n].notna().any()))
    players = measures["players"].to_numpy()[other_rows]
    game = measures["game"].to_numpy()[other_rows]
    for name in columns if names is None else [c for c in columns if c in names]:
        values = measures[name].to_numpy(np.float64)
        base_value = np.full(len(other_rows), np.nan)
        base_value[found] = values[matched]
        value = values[other_rows]
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
