"""Figures of every report, in one style: one colour per strategy, legends beside the data.

Every figure is rendered to PNG bytes (:func:`png_bytes`), never shown.  A
strategy keeps its colour in every figure of every report
(:func:`strategy_colour`), legends sit to the right of the axes
(:func:`legend_outside`).

A report page shows a figure at its pixel size, so :func:`png_bytes` makes
every figure legible there: at most :data:`MAX_WIDTH_PX` wide, legends
included (within the page's column at a 1280 px window, and within a Markdown
viewer's), with no text under :data:`MIN_FONT_PT` points (11 px at
:data:`DPI`).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # figures are rendered to PNG bytes, never shown
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.text import Text

from ohhell_sim.strategy import available_strategies, get_strategy

__all__ = [
    "interval_plot",
    "legend_outside",
    "png_bytes",
    "series_colours",
    "strategy_colour",
]

#: Pixels per inch of every figure's PNG.
DPI = 100
#: The widest a figure's PNG may be, in pixels.
MAX_WIDTH_PX = 960
#: The smallest text of any figure, in points.
MIN_FONT_PT = 8.0
#: Panels side by side in a row of :func:`interval_plot`; more go on further rows.
PANELS_PER_ROW = 3

#: Colours of other strategy names and of series that are not strategies.
_OTHER_COLOURS = ("#117733", "#882255", "#44AA99", "#AA4499", "#DDCC77", "#661100", "#6699CC")


def strategy_colour(name: object) -> str:
    """The colour of strategy ``name`` in every figure.

    A registered strategy with a colour (:attr:`Strategy.colour
    <ohhell_sim.strategy.Strategy>`; every built-in has one) is drawn in it; a
    numbered entrant such as ``"simple#2"`` or a parametrised seat
    (``"simple[scale=1.5]"``, ``"zero(threshold=1)"``) takes its base
    strategy's colour; any other name a colour chosen by a stable hash of it.
    """
    text = str(name)
    base = text.split("#", 1)[0].split("(", 1)[0].split("[", 1)[0]
    if base in available_strategies():
        colour = get_strategy(base).colour
        if colour is not None:
            return colour
    return _OTHER_COLOURS[zlib.crc32(text.encode()) % len(_OTHER_COLOURS)]


def series_colours(column: str | None, keys: Sequence[object]) -> list[str | None]:
    """Colours of the series ``keys`` of ``column``: strategies by name, others in turn."""
    if column == "strategy":
        return [strategy_colour(k) for k in keys]
    return [_OTHER_COLOURS[i % len(_OTHER_COLOURS)] for i in range(len(keys))]


def legend_outside(ax, title: str | None = None, axes: Sequence | None = None) -> None:
    """A legend to the right of ``ax``, where it covers no data.

    With ``axes``, it lists every labelled series of those axes once (a series
    may be missing from some panels), in the order first met.
    """
    handles: dict[str, object] = {}
    for each in axes if axes is not None else [ax]:
        for handle, label in zip(*each.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    ax.legend(
        list(handles.values()),
        list(handles),
        title=title,
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        frameon=False,
    )


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes (layout tightened, legends included); the figure is closed.

    Text smaller than :data:`MIN_FONT_PT` is raised to it, and a figure wider
    than :data:`MAX_WIDTH_PX` is narrowed (its axes, not its text) until it fits.
    """
    fig.canvas.draw()  # creates the tick labels, so that their sizes can be read
    for text in fig.findobj(Text):
        if text.get_fontsize() < MIN_FONT_PT:
            text.set_fontsize(MIN_FONT_PT)
    _fit_width(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def _fit_width(fig, tries: int = 6) -> None:
    # The saved PNG spans the tight box of everything drawn plus savefig's padding
    # (0.1 in each side); legends outside the axes make it wider than the figure.
    limit = MAX_WIDTH_PX / DPI - 2 * plt.rcParams["savefig.pad_inches"]
    for _ in range(tries):
        width = fig.get_tightbbox(fig.canvas.get_renderer()).width
        if width <= limit:
            return
        size = fig.get_size_inches()
        fig.set_size_inches(max(size[0] - (width - limit) - 0.05, 1.0), size[1])
        fig.tight_layout()
        fig.canvas.draw()


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
    horizontal: bool = False,
) -> bytes:
    """Estimates with error bars from a table with ``estimate``, ``low``, ``high``.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per point.
    x : str
        Column on the horizontal axis (numbers, or labels shown in order).
    series : str, optional
        Column whose values get one line each (with a legend beside the axes);
        a ``strategy`` series, or an ``x`` that is ``strategy``, takes the
        strategies' colours.
    title, xlabel, ylabel : str
        Texts of the figure; " (95% CI)" is added to the title.
    zero_line : bool
        Draw a horizontal line at 0 (for differences).
    panels : str, optional
        Column whose values get one panel each, side by side
        (:data:`PANELS_PER_ROW` to a row).
    order : sequence, optional
        Order of the labels of a non-numeric ``x`` (default: as they come).
    horizontal : bool
        Lay a non-numeric ``x`` out top to bottom, its labels read across (for many
        or long labels); ``xlabel`` then names the vertical axis and ``ylabel`` the
        horizontal one.

    Returns
    -------
    bytes
        The PNG image.
    """
    panel_keys = list(pd.unique(table[panels])) if panels else [None]
    columns = min(len(panel_keys), PANELS_PER_ROW)
    rows_of_panels = -(-len(panel_keys) // columns)
    numeric = pd.api.types.is_numeric_dtype(table[x]) and not pd.api.types.is_bool_dtype(table[x])
    horizontal = horizontal and not numeric
    # A horizontal panel is as tall as its labels are many.
    height = 0.32 * table[x].nunique() + 1.0 if horizontal else 3.4
    fig, grid = plt.subplots(
        rows_of_panels,
        columns,
        figsize=(3.4 * columns + 2.6, height * rows_of_panels + 0.6),
        squeeze=False,
    )
    axes = grid.ravel()[: len(panel_keys)]
    for unused in grid.ravel()[len(panel_keys) :]:
        unused.set_visible(False)
    if series is None and x == "strategy":
        # One point per strategy: each in its own colour, at its own tick.
        series = x
    present = set(table[x])
    categories = [v for v in order if v in present] if order else list(pd.unique(table[x]))
    series_keys = list(pd.unique(table[series])) if series else [None]
    colours = series_colours(series, series_keys)
    width = 0.8 / max(len(series_keys), 1)
    for index, (ax, key) in enumerate(zip(axes, panel_keys, strict=True)):
        # Side by side, horizontal panels share their labels: only the first of a row shows them.
        labelled = not horizontal or index % columns == 0
        part = table if key is None else table[table[panels] == key]
        for i, (name, colour) in enumerate(zip(series_keys, colours, strict=True)):
            rows = part if name is None else part[part[series] == name]
            if rows.empty:
                continue
            if numeric:
                xs = rows[x].to_numpy(dtype=float)
            else:
                # Categories side by side, series offset within each category.
                xs = np.array([categories.index(v) for v in rows[x]], dtype=float)
                if series != x:
                    xs += (i - (len(series_keys) - 1) / 2) * width
            est = rows["estimate"].to_numpy(dtype=float)
            low, high = rows["low"].to_numpy(float), rows["high"].to_numpy(float)
            error = np.vstack([est - low, high - est])
            points, bars = ((est, xs), "xerr") if horizontal else ((xs, est), "yerr")
            ax.errorbar(
                *points,
                **{bars: error},
                marker="o",
                capsize=3,
                linestyle="-" if numeric else "none",
                color=colour,
                label=None if name is None else str(name),
            )
        labels = [str(c) for c in categories]
        if horizontal:
            ax.set_yticks(range(len(categories)), labels if labelled else [""] * len(labels))
            ax.invert_yaxis()
        elif not numeric:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels(labels, rotation=30, ha="right")
        if zero_line:
            (ax.axvline if horizontal else ax.axhline)(0.0, color="grey", linewidth=0.8)
        (ax.set_ylabel if horizontal else ax.set_xlabel)(xlabel if labelled else "")
        ax.set_title(f"{panels} = {key}" if key is not None else "")
        ax.grid(alpha=0.3)
    if horizontal:
        for ax in axes:
            ax.set_xlabel(ylabel)
    else:
        for row in grid:
            row[0].set_ylabel(ylabel)
    if series and series != x:
        legend_outside(grid[0][-1], title=series, axes=axes)
    fig.suptitle(f"{title} (95% CI)")
    fig.tight_layout()
    return png_bytes(fig)
