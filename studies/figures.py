"""Figures of estimate tables: every point carries its 95% interval as an error bar."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # figures are rendered to PNG bytes, never shown
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ohhell_sim.analysis.report import png_bytes


def interval_plot(
    table: pd.DataFrame,
    x: str,
    *,
    series: str | None = None,
    title: str,
    xlabel: str,
    ylabel: str,
    zero_line: bool = False,
    panels: str | None = None,
    order: Sequence[object] | None = None,
) -> bytes:
    """Estimates with error bars from a table with ``estimate``, ``low``, ``high``.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per point.
    x : str
        Column on the horizontal axis (numbers, or labels shown in order).
    series : str, optional
        Column whose values get one line each (with a legend).
    title, xlabel, ylabel : str
        Texts of the figure; " (95% CI)" is added to the title.
    zero_line : bool
        Draw a horizontal line at 0 (for differences).
    panels : str, optional
        Column whose values get one panel each, side by side.
    order : sequence, optional
        Order of the labels of a non-numeric ``x`` (default: as they come).

    Returns
    -------
    bytes
        The PNG image.
    """
    panel_keys = list(pd.unique(table[panels])) if panels else [None]
    fig, axes = plt.subplots(
        1, len(panel_keys), figsize=(min(4.2 * len(panel_keys) + 2.5, 14), 4), squeeze=False
    )
    numeric = pd.api.types.is_numeric_dtype(table[x]) and not pd.api.types.is_bool_dtype(table[x])
    present = set(table[x])
    categories = [v for v in order if v in present] if order else list(pd.unique(table[x]))
    series_keys = list(pd.unique(table[series])) if series else [None]
    width = 0.8 / max(len(series_keys), 1)
    for ax, key in zip(axes[0], panel_keys, strict=True):
        part = table if key is None else table[table[panels] == key]
        for i, name in enumerate(series_keys):
            rows = part if name is None else part[part[series] == name]
            if rows.empty:
                continue
            if numeric:
                xs = rows[x].to_numpy(dtype=float)
            else:
                # Categories side by side, series offset within each category.
                xs = np.array([categories.index(v) for v in rows[x]], dtype=float)
                xs += (i - (len(series_keys) - 1) / 2) * width
            est = rows["estimate"].to_numpy(dtype=float)
            low, high = rows["low"].to_numpy(float), rows["high"].to_numpy(float)
            yerr = np.vstack([est - low, high - est])
            ax.errorbar(
                xs,
                est,
                yerr=yerr,
                marker="o",
                capsize=3,
                linestyle="-" if numeric else "none",
                label=None if name is None else str(name),
            )
        if not numeric:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels([str(c) for c in categories], rotation=30, ha="right")
        if zero_line:
            ax.axhline(0.0, color="grey", linewidth=0.8)
        ax.set_xlabel(xlabel)
        ax.set_title(f"{panels} = {key}" if key is not None else "")
        if series:
            ax.legend(title=series, fontsize="small")
    axes[0][0].set_ylabel(ylabel)
    fig.suptitle(f"{title} (95% CI)")
    return png_bytes(fig)
