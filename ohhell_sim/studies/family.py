"""A study's one family of comparisons, corrected and confirmed alike in every study.

A study declares its comparisons as parts (tables whose rows have ``estimate``,
``low`` and ``high``, or a test's own ``p``) and adjusts them as one family with
:func:`correct` (:data:`CORRECTION` at level :data:`ALPHA`, the same in every study);
:func:`confirm_family`, every study's one confirmation step, makes the same family of the
confirmation run (another seed, so other cards), carries the surviving rows to it and
marks the established ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import (
    adjust_family,
    adjust_parts,
    confirm,
    detectable_effect,
    established,
)
from ohhell_sim.studies.runs import StudyData

#: The correction of every study's family: Holm's, which holds the family-wise
#: error rate under any dependence between the comparisons.
CORRECTION = "holm"
#: The family-wise error rate.
ALPHA = 0.05


def correct(
    family: pd.DataFrame | Mapping[str, pd.DataFrame],
) -> pd.DataFrame | dict[str, pd.DataFrame]:
    """``family`` adjusted as one with :data:`CORRECTION` at :data:`ALPHA`: a table of
    comparisons, or parts of different columns (name -> table), returned alike.

    Every study's family is corrected here, so that none picks another method or level.
    """
    if isinstance(family, pd.DataFrame):
        return adjust_family(family, method=CORRECTION, alpha=ALPHA)
    return adjust_parts(dict(family), method=CORRECTION, alpha=ALPHA)


def confirm_parts(
    parts: Mapping[str, pd.DataFrame],
    second: Mapping[str, pd.DataFrame] | None,
    keys: Mapping[str, Sequence[str]],
) -> dict[str, pd.DataFrame]:
    """Each part of the run (adjusted as one family), its surviving rows checked in the
    same part of the confirmation run ``second`` (None, or a part it lacks: not played),
    with ``established``; ``keys`` names per part the columns that name a row in both runs.
    """
    out = {}
    for name, table in parts.items():
        again = None if second is None else second.get(name)
        confirmed = confirm(table, again, keys[name], method=CORRECTION, alpha=ALPHA)
        found = established(confirmed) if len(confirmed) else np.zeros(0, dtype=bool)
        out[name] = confirmed.assign(established=found)
    return out


def confirm_family(
    data: StudyData,
    family_of: Callable[[StudyData], Mapping[str, pd.DataFrame]],
    keys: Mapping[str, Sequence[str]],
) -> dict[str, pd.DataFrame]:
    """The parts ``family_of`` makes of the run, confirmed on ``data.confirmation``.

    ``family_of`` maps the data of one run to its parts, adjusted as one
    family; it is applied to the run and, when one was played, to the
    confirmation run, which must make the same choices (orders, pairs, fitted
    rules) as the run: pass them in ``family_of``'s closure.
    """
    second = None if data.confirmation is None else family_of(data.confirmation)
    return confirm_parts(family_of(data), second, keys)


def confirm_filled(
    data: StudyData,
    parts: Mapping[str, pd.DataFrame],
    parts_of: Callable[[StudyData], Mapping[str, pd.DataFrame]],
    keys: Mapping[str, Sequence[str]],
) -> dict[str, pd.DataFrame]:
    """:func:`confirm_family` of the run's ``parts`` with rows (``parts_of`` makes the
    confirmation's, unadjusted), each run's adjusted as one family; a part with no rows is
    left as it is."""

    def adjusted(run: StudyData) -> dict[str, pd.DataFrame]:
        found = parts if run is data else parts_of(run)
        return correct({name: table for name, table in found.items() if not table.empty})

    confirmed = confirm_family(data, adjusted, keys)
    return {name: confirmed.get(name, table) for name, table in parts.items()}


def games_to_detect(found: pd.DataFrame, games: int, family: int) -> np.ndarray:
    """Games per condition at which each row's observed effect would be found with 80% power
    at the family's strictest level (Holm over ``family`` comparisons): ``games`` times the
    squared ratio of the effect the run could detect to the one it saw, to two figures."""
    detect = detectable_effect(found["low"], found["high"], ALPHA / max(family, 1))
    seen = found["estimate"].abs().to_numpy(dtype=float)
    ratio = np.divide(detect, seen, out=np.full(len(found), np.inf), where=seen > 0)
    needed = games * ratio**2
    digits = np.floor(np.log10(np.where(np.isfinite(needed) & (needed > 0), needed, 1.0)))
    scale = 10.0 ** np.maximum(digits - 1, 0)
    return np.where(np.isfinite(needed), np.ceil(needed / scale) * scale, np.inf)


def games_text(games: float) -> str:
    """``"about 1,100 games would detect"``: the games of :func:`games_to_detect`, in words."""
    if not np.isfinite(games):
        return "no number of games would detect"
    return f"about {games:,.0f} games would detect"
