"""The rows of an effect study's family: per field and table size, standardised over
table sizes, and read in words.

The helpers a study (and :class:`~ohhell_sim.studies.effects.EffectStudy`) reads its
family with: :func:`with_standardised` makes the rows, :func:`standardised` picks an
effect's row per field over the table sizes, :func:`span`, :func:`established_in` and
:func:`detectable` say them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import BETWEEN_FIELDS, detectable_effect
from ohhell_sim.analysis.format import fmt_number, fmt_row
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies.design import FIELDS, STANDARDISED
from ohhell_sim.studies.family import ALPHA
from ohhell_sim.studies.measures import clip_shares

#: The groups of an effect: a field at a table size.
BY_TABLE = ("field", "players")
#: Verdict of an effect established with opposite signs at different table sizes: its
#: standardised row would average them away, so it is not read.
OPPOSITE_SIZES = "opposite signs at different table sizes (read the cells, not the pool)"


def order_key(column: pd.Series) -> pd.Series:
    """Sort key: fields in panel order, categories in theirs, the standardised row last."""
    if column.name == "field":
        return column.map(lambda f: FIELDS.index(f) if f in FIELDS else len(FIELDS))
    if hasattr(column, "cat"):
        return column.cat.codes
    return column.map(lambda v: np.inf if v == STANDARDISED else float(v))


def with_standardised(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str] = (),
    stratum: str = "players",
    bounded: bool = False,
) -> pd.DataFrame:
    """Means of ``values`` per field, ``stratum`` and ``by`` group (clustered by ``game``;
    booleans, or ``bounded``, give a share clipped to [0, 1]), then per field and ``by`` group
    the :data:`STANDARDISED` row: the strata's unweighted average (a raw pool would weigh them
    unequally)."""
    if stratum not in frame.columns:
        raise InvalidArgumentError(
            f"stratum must be a column of the frame, got {stratum!r}; columns: "
            f"{', '.join(map(str, frame.columns))}"
        )
    split = grouped_mean(frame, values, by=["field", stratum, *by], bounded=bounded)
    pooled = standardised_mean(frame, values, by=["field", *by], stratum=stratum)
    if bounded or np.asarray(values).dtype == np.bool_:
        clip_shares(pooled)
    pooled.insert(1, stratum, STANDARDISED)
    split[stratum] = split[stratum].astype(object)
    out = pd.concat([split, pooled[split.columns]], ignore_index=True)
    return out.sort_values(["field", stratum], key=order_key, kind="stable", ignore_index=True)


def standardised(table: pd.DataFrame, effect: str | None = None) -> pd.DataFrame:
    """The fields' standardised rows of ``table`` (of the family's ``effect`` when given)."""
    rows = table[(table["players"] == STANDARDISED) & (table["field"] != BETWEEN_FIELDS)]
    return rows if effect is None else rows[rows["effect"] == effect]


def established_cells(family: pd.DataFrame, effect: str) -> pd.DataFrame:
    """The established field x table-size cells of ``effect``."""
    cells = family[(family["effect"] == effect) & (family["players"] != STANDARDISED)]
    return cells[cells["established"]]


def established_in(rows: pd.DataFrame) -> str:
    """``"established in K of N fields"`` for a field's rows."""
    return f"established in {int(rows['established'].sum())} of {len(rows)} fields"


def span(rows: pd.DataFrame) -> str:
    """``"X (field) to Y (field)"``: the lowest and highest row of ``rows`` over the fields."""
    first, last = rows.loc[rows["estimate"].idxmin()], rows.loc[rows["estimate"].idxmax()]
    text = f"{fmt_row(first)} ({first['field']})"
    return text if len(rows) == 1 else f"{text} to {fmt_row(last)} ({last['field']})"


def detectable_sizes(family: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """Per row of ``rows``, the smallest effect the run finds at ``family``'s strictest level."""
    size = int(family["p_adjusted"].notna().sum())
    return detectable_effect(rows["low"], rows["high"], ALPHA / size)


def detectable(family: pd.DataFrame, rows: pd.DataFrame) -> str:
    """The largest of ``rows``' detectable effects, formatted."""
    return fmt_number(float(np.nanmax(detectable_sizes(family, rows))))


def field_games(manifest: dict) -> dict[str, int]:
    """Games per condition of each field of a run (its manifest)."""
    return {c["label"]["field"]: c["games"] for c in manifest["conditions"]}
