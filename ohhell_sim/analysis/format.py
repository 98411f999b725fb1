"""Numbers and intervals as text: the one formatter of every table, finding and terminal line.

Estimate tables follow :mod:`ohhell_sim.analysis.stats`' tidy convention
(``estimate``, ``low``, ``high``, ``n``, ``method``); here an estimate and its
interval become one cell ``"0.123 [0.110, 0.136]"``.  A value that rounds to
zero is printed without a sign (never ``-0.00``) and a missing one as ``n/a``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal

import numpy as np
import pandas as pd

__all__ = [
    "display_table",
    "excludes_zero",
    "fmt_ci",
    "fmt_number",
    "fmt_p",
    "fmt_row",
    "fmt_span",
    "format_summary",
    "interval_table",
]

#: Header of the collapsed ``estimate``/``low``/``high`` column of a display table.
INTERVAL_HEADER = "estimate [95% CI]"


def fmt_number(value: object, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals; integers as they are, NaN as ``n/a``, no ``-0.000``."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(value)
    number = float(value)  # type: ignore[arg-type]
    if math.isnan(number):
        return "n/a"
    text = f"{number:.{digits}f}"
    # A negative number that rounds to zero would print as -0.000.
    return text[1:] if text.startswith("-") and float(text) == 0.0 else text


def fmt_p(p: float) -> str:
    """A p-value to the precision its method has: three decimals, ``< 0.001`` below that.

    The studies read p-values off normal approximations and bootstraps, which
    say nothing reliable about tail areas far below 0.001; ``n/a`` when missing.
    """
    if pd.isna(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else fmt_number(p, 3)


def fmt_ci(estimate: float, low: float, high: float, digits: int = 3) -> str:
    """``"0.123 [0.110, 0.136]"``: an estimate and its interval; ``n/a`` for a missing estimate."""
    if pd.isna(estimate):
        return "n/a"
    return f"{fmt_number(estimate, digits)} [{fmt_number(low, digits)}, {fmt_number(high, digits)}]"


def fmt_row(row: pd.Series | dict, digits: int = 3) -> str:
    """:func:`fmt_ci` of a table row with ``estimate``, ``low`` and ``high``."""
    return fmt_ci(row["estimate"], row["low"], row["high"], digits)


def fmt_span(values: Iterable[float], digits: int = 3, percent: bool = False) -> str:
    """``"X to Y"``: the lowest and highest of ``values`` as the tables print them.

    One number when both print alike, ``n/a`` for none (missing values are left
    out); ``percent`` writes a share as a percentage of the same digits (the
    cell 0.125 as 12.5%), so the text states exactly what a table shows.
    """
    values = pd.Series(list(values), dtype=np.float64).dropna()
    if values.empty:
        return "n/a"
    ends = [fmt_number(v, digits) for v in (values.min(), values.max())]
    ends = [f"{Decimal(v).scaleb(2)}%" if percent else v for v in ends]
    return ends[0] if ends[0] == ends[1] else f"{ends[0]} to {ends[1]}"


def excludes_zero(row: pd.Series | dict) -> bool:
    """Whether the interval of ``row`` lies entirely on one side of zero."""
    return bool(row["low"] > 0 or row["high"] < 0)


def display_table(frame: pd.DataFrame, digits: int = 3, keep: Sequence[str] = ()) -> pd.DataFrame:
    """An estimate table as display strings: each interval becomes one cell.

    The triple ``estimate``/``low``/``high`` becomes the column
    :data:`INTERVAL_HEADER`; any wide triple ``x``/``x_low``/``x_high`` becomes
    column ``x``.  The ``method`` column is dropped (reports state the methods)
    unless named in ``keep``; other numbers go through :func:`fmt_number`.

    Parameters
    ----------
    frame : pandas.DataFrame
        An estimate table.
    digits : int
        Decimal places.
    keep : sequence of str
        Columns shown even though a report would drop them (``method``).

    Returns
    -------
    pandas.DataFrame
        Strings only, index reset.
    """
    frame = frame.reset_index(drop=frame.index.name is None)
    columns = [c for c in frame.columns if c != "method" or "method" in keep]
    tidy = {"estimate", "low", "high"} <= set(columns)
    bounds = {c for c in columns for base in columns if c in (f"{base}_low", f"{base}_high")}
    out = {}
    for column in columns:
        if column in bounds or (tidy and column in ("low", "high")):
            continue
        if tidy and column == "estimate":
            out[INTERVAL_HEADER] = _intervals(frame, "estimate", "low", "high", digits)
        elif f"{column}_low" in columns and f"{column}_high" in columns:
            out[column] = _intervals(frame, column, f"{column}_low", f"{column}_high", digits)
        elif pd.api.types.is_numeric_dtype(frame[column]):
            out[column] = [fmt_number(v, digits) for v in frame[column]]
        else:
            out[column] = [str(v) for v in frame[column]]
    return pd.DataFrame(out)


def _intervals(frame: pd.DataFrame, estimate: str, low: str, high: str, digits: int) -> list[str]:
    return [
        fmt_ci(e, lo, hi, digits)
        for e, lo, hi in zip(frame[estimate], frame[low], frame[high], strict=True)
    ]


def interval_table(
    tidy: pd.DataFrame, index: str, columns: str, digits: int = 3, order: Sequence[str] = ()
) -> pd.DataFrame:
    """A tidy estimate table pivoted for reading: one row per ``index``, one column per ``columns``.

    Each cell is ``"estimate [low, high]"``.

    Parameters
    ----------
    tidy : pandas.DataFrame
        With the columns ``index``, ``columns``, ``estimate``, ``low``, ``high``.
    index, columns : str
        The row and column keys (e.g. ``"strategy"`` and ``"measure"``).
    digits : int
        Decimal places.
    order : sequence of str, optional
        The columns to show, in order (default: all, as they first appear).

    Returns
    -------
    pandas.DataFrame
        Strings; ``index`` is the first column; missing cells are ``n/a``.
    """
    cells = tidy.assign(_cell=_intervals(tidy, "estimate", "low", "high", digits))
    wide = cells.pivot(index=index, columns=columns, values="_cell")
    shown = list(order) if order else list(pd.unique(tidy[columns]))
    wide = wide.reindex(index=list(pd.unique(tidy[index])), columns=shown).fillna("n/a")
    wide.columns.name = None
    return wide.reset_index()


def format_summary(summary: pd.DataFrame, digits: int = 3, index: str | None = None) -> str:
    """Render an estimate table as a plain-text table for the terminal.

    A tidy per-strategy table (``strategy``, ``measure``, ``estimate``, ...) is
    first pivoted by :func:`interval_table`; other tables go through
    :func:`display_table` (``index`` names the key column of a tidy table of
    another shape, e.g. ``"pair"``).

    Parameters
    ----------
    summary : pandas.DataFrame
        Typically :meth:`SimulationResult.summary` or a tournament's tables.
    digits : int, default 3
        Decimal places of floating-point values.
    index : str, optional
        Key column of a tidy table; defaults to ``strategy`` when a ``measure``
        column is present.

    Returns
    -------
    str
        Header line plus one line per row, columns separated by two spaces,
        without a trailing newline.
    """
    if "measure" in summary.columns:
        table = interval_table(summary, index or "strategy", "measure", digits)
    else:
        if not isinstance(summary.index, pd.RangeIndex):
            # Row labels are shown, named or not.
            summary = summary.rename_axis(summary.index.name or "")
        table = display_table(summary, digits)
    lines = [[str(c) for c in table.columns], *(list(map(str, r)) for r in table.to_numpy())]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )
