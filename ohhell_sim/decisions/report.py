"""Where the points go: a decision analysis summed by situation, and its report.

A frame of :func:`~ohhell_sim.decisions.analyse_decisions` holds a sample of the
decisions with a choice.  :func:`cost_by` scales it to the *points per seat per
game* each situation costs: a decision's cost counts ``choices / rows`` times
(the decisions with a choice in the games and seats analysed, over those
analysed), over the games times the seats analysed; the interval is a
Student-t interval over the sampled decisions (the search's own interval on
each cost is at most the reference's precision, and averages out).
:func:`decision_report` lays it out as a :class:`~ohhell_sim.analysis.report.Report`
(Markdown and HTML through :func:`~ohhell_sim.analysis.report.write_report`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number
from ohhell_sim.analysis.report import Figure, Report, Table, rules_table
from ohhell_sim.cards import card_pretty, parse_card
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.estimates import mean_ci

__all__ = ["FACTORS", "cost_by", "decision_report", "per_game_scale"]

#: The columns :func:`decision_report` splits the cost by, with their captions.
FACTORS = {
    "phase": "phase",
    "role": "bid, lead, follow or void (cannot follow)",
    "hand_size": "hand size (cards)",
    "bid_position": "position in the bidding (0 = dealer's left)",
    "trick_position": "cards already in the trick",
    "trump_deal": "deal with a trump suit",
    "need_band": "tricks still needed (bid less tricks taken)",
}


def per_game_scale(frame: pd.DataFrame) -> float:
    """What one analysed decision's cost counts for, in points per seat per game.

    ``choices / (rows * games * seats)`` from the frame's ``attrs``.

    Raises
    ------
    InvalidArgumentError
        If the frame lacks the attrs of :func:`~ohhell_sim.decisions.analyse_decisions`.
    """
    attrs = frame.attrs
    if not {"choices", "games", "seats"} <= set(attrs) or len(frame) == 0:
        raise InvalidArgumentError(
            "frame must be a non-empty result of analyse_decisions (its attrs name the "
            "choices, games and seats)"
        )
    return attrs["choices"] / (len(frame) * len(attrs["games"]) * len(attrs["seats"]))


def _with_bands(frame: pd.DataFrame) -> pd.DataFrame:
    need = pd.to_numeric(frame["need"], errors="coerce").to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        band = np.select(
            [np.isnan(need), need > 0, need == 0], ["(bid)", "needs tricks", "made"], "over its bid"
        )
    return frame.assign(need_band=band)


def cost_by(
    frame: pd.DataFrame, by: str | Sequence[str], confidence: float = 0.95, column: str = "cost"
) -> pd.DataFrame:
    """The points per seat per game that the decisions of each group cost.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of :func:`~ohhell_sim.decisions.analyse_decisions`.
    by : str or sequence of str
        Columns to group by (``"situation"``, ``"phase"``, ``"hand_size"``,
        ...; ``"need_band"`` bands ``need`` as in the report).
    confidence : float, default 0.95
        Coverage of the intervals.
    column : str, default "cost"
        What is summed: ``"cost"`` (against the reference's evaluation), or
        ``"gap"`` (the terms of the gap to a takeover player, which add up to
        the measured gap; see :func:`~ohhell_sim.decisions.analyse_decisions`).

    Returns
    -------
    pandas.DataFrame
        One row per group, costliest first: the group's columns, ``decisions``
        (rows analysed), ``mean_cost`` (points per decision), then the cost per
        seat per game (``estimate``, ``low``, ``high``, ``n``, ``method``) and
        ``share`` of the total.
    """
    keys = [by] if isinstance(by, str) else list(by)
    data = _with_bands(frame)
    missing = set(keys) - set(data.columns)
    if missing:
        raise InvalidArgumentError(f"by must name columns of the frame; unknown: {sorted(missing)}")
    if column not in ("cost", "gap") or column not in data.columns:
        raise InvalidArgumentError(
            f"column must be 'cost', or 'gap' for a frame analysed with a takeover player; "
            f"got {column!r}"
        )
    scale = per_game_scale(frame)
    cost = data[column].to_numpy(dtype=float)
    total = cost.sum()
    rows = []
    for key, group in data.groupby(keys, sort=False, observed=True):
        inside = np.zeros(len(data))
        inside[data.index.get_indexer(group.index)] = 1.0
        estimate = mean_ci(cost * inside * scale * len(data), confidence)
        rows.append(
            {
                **dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
                "decisions": len(group),
                "mean_cost": float(group[column].mean()),
                **estimate.row(),
                "share": float(group[column].sum() / total) if total > 0 else 0.0,
            }
        )
    out = pd.DataFrame(rows)
    return out.sort_values("estimate", ascending=False, kind="stable", ignore_index=True)


def _example(group: pd.DataFrame) -> str:
    worst = group.loc[group["cost"].idxmax()]
    trick = f"; trick so far {worst['trick_cards']}" if worst["trick_cards"] else ""
    bids = worst["bids_seen"] or "none"
    return (
        f"game {worst['game']}, deal {worst['deal']}, seat {worst['seat']}, step {worst['step']}: "
        f"hand {worst['hand']}; trump {worst['trump']}; bids {bids}{trick}; "
        f"chose {_move(worst, 'chosen')} ({fmt_number(worst['chosen_value'], 2)}), best "
        f"{_move(worst, 'best')} ({fmt_number(worst['best_value'], 2)})"
    )


def _move(row: pd.Series, column: str) -> str:
    text = row[column]
    return text if row["phase"] == "bid" else card_pretty(parse_card(text))


def _bars(table: pd.DataFrame, label: str, ax, title: str) -> None:
    y = np.arange(len(table))
    ax.barh(y, table["estimate"], color="#4477AA")
    ax.errorbar(
        table["estimate"],
        y,
        xerr=[table["estimate"] - table["low"], table["high"] - table["estimate"]],
        fmt="none",
        ecolor="black",
        capsize=2,
    )
    # -1: no trick (a bid), in the trick columns.
    ax.set_yticks(y, ["(bid)" if str(v) == "-1" else str(v) for v in table[label]])
    ax.invert_yaxis()
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_title(title)
    ax.set_xlabel("points per seat per game")


def _situation_figure(table: pd.DataFrame) -> bytes:
    # Matplotlib loads with the first figure, not with the package.
    import matplotlib.pyplot as plt

    from ohhell_sim.analysis.figures import png_bytes

    fig, ax = plt.subplots(figsize=(8, 0.35 * len(table) + 1.5))
    _bars(table, "situation", ax, "Cost of the decisions, by situation")
    fig.tight_layout()
    return png_bytes(fig)


def _factor_figure(frame: pd.DataFrame, confidence: float) -> bytes:
    import matplotlib.pyplot as plt

    from ohhell_sim.analysis.figures import png_bytes

    fig, axes = plt.subplots(
        (len(FACTORS) + 2) // 3, 3, figsize=(9.5, 3.2 * ((len(FACTORS) + 2) // 3))
    )
    flat = axes.ravel()
    for ax, (column, caption) in zip(flat, FACTORS.items(), strict=False):
        table = cost_by(frame, column, confidence)
        table = table.sort_values(column, kind="stable", ignore_index=True)
        _bars(table, column, ax, caption)
    for ax in flat[len(FACTORS) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return png_bytes(fig)


def decision_report(
    frame: pd.DataFrame, *, title: str | None = None, command: str = "", confidence: float = 0.95
) -> Report:
    """The report of a decision analysis: where the points go.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of :func:`~ohhell_sim.decisions.analyse_decisions`.
    title : str, optional
        The question (default: where the analysed seats lose their points).
    command : str
        The command that reproduces the analysis.
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    Report
        Setup, method, findings, the ten costliest situations with an example
        deal each (the costliest decision of the situation, as cards), the cost
        by each factor, and two figures.
    """
    attrs = frame.attrs
    per_game_scale(frame)
    seats = attrs["seats"]
    labels = attrs.get("strategies", [])
    names = sorted({labels[s] for s in seats}) if labels else []
    title = title or f"Where does {', '.join(names) or 'the player'} lose its points?"
    reference = attrs.get("reference", {})
    situations = cost_by(frame, "situation", confidence)
    total = cost_by(frame.assign(_all="all"), "_all", confidence).iloc[0]
    phases = cost_by(frame, "phase", confidence)
    imprecise = int((~frame["precise"].astype(bool)).sum())
    setup = [
        f"ohhell-sim {attrs.get('version', '?')}, run seed {attrs.get('seed', '?')}",
        f"{len(attrs['games'])} games replayed, seats {', '.join(map(str, seats))} "
        f"({', '.join(names)})",
        f"{len(frame)} decisions analysed of the {attrs['choices']} with a choice",
        f"reference: {reference.get('name', '?')} (precision {reference.get('precision', '?')} "
        f"points, confidence {reference.get('confidence', '?')}, at most "
        f"{reference.get('max_samples', '?')} samples); bids of one-card deals: "
        f"{reference.get('one_card', '?')}",
    ]
    method = [
        "Each decision is valued from the deciding seat's own view only: every legal move's "
        "expected points in the deal under the reference, the best move, and the cost of the "
        "choice (the best move's expected points less the chosen one's).",
        f"The search samples the hidden cards consistently with the view and continues the deal "
        f"after each move with the {reference.get('continuation', 'playout policy')}; it draws "
        "samples until the cost's interval reaches at most the precision on either side.",
        "Costs per seat per game scale each analysed decision by the decisions with a choice "
        "it stands for; intervals are Student-t over the sampled decisions.",
    ]
    top = situations.iloc[0]
    findings = [
        f"The analysed seats lose {fmt_ci(total['estimate'], total['low'], total['high'], 2)} "
        "points per seat per game against the reference.",
        "By phase: "
        + "; ".join(
            f"{row['phase']} {fmt_ci(row['estimate'], row['low'], row['high'], 2)}"
            for _, row in phases.iterrows()
        )
        + ".",
        f"The costliest situation is '{top['situation']}': "
        f"{fmt_ci(top['estimate'], top['low'], top['high'], 2)} points per seat per game, "
        f"{top['share']:.0%} of the cost, {fmt_number(top['mean_cost'], 2)} points per decision.",
    ]
    takeover = attrs.get("takeover")
    if takeover and "gap" in frame.columns:
        gap = cost_by(frame.assign(_all="all"), "_all", confidence, "gap").iloc[0]
        gap_phases = cost_by(frame, "phase", confidence, "gap")
        findings.append(
            f"Taking the seat over, {takeover['player']} would gain "
            f"{fmt_ci(gap['estimate'], gap['low'], gap['high'], 2)} points per seat per game "
            "(by phase: "
            + "; ".join(
                f"{row['phase']} {fmt_ci(row['estimate'], row['low'], row['high'], 2)}"
                for _, row in gap_phases.iterrows()
            )
            + "): the decisions' terms of the gap, which add up to the measured duplicate gap."
        )
    if imprecise:
        findings.append(
            f"{imprecise} of the {len(frame)} decisions stopped at the sample cap before their "
            "interval met the precision."
        )
    costliest = situations.head(10)
    examples = [_example(frame[frame["situation"] == s]) for s in costliest["situation"]]
    shown = display_table(
        costliest[["situation", "decisions", "mean_cost", "estimate", "low", "high", "share"]],
        digits=2,
    ).assign(example=examples)
    tables = [
        Table(
            "The ten costliest situations",
            shown,
            "Cost per seat per game with its interval; the example is the costliest decision "
            "of the situation, named by (game, deal, seat, step).",
        )
    ]
    if takeover and "gap" in frame.columns:
        by = cost_by(frame, "situation", confidence, "gap").head(10)
        keep = ["situation", "decisions", "mean_cost", "estimate", "low", "high", "share"]
        tables.append(
            Table(
                f"The gap to {takeover['player']}, by situation",
                display_table(by[keep], digits=2),
                f"What {takeover['player']} gains per seat per game by taking the seat over at "
                f"these decisions ({takeover['rollouts']} rollout pairs each); mean_cost is "
                "per decision.",
            )
        )
    for column, caption in FACTORS.items():
        by = cost_by(frame, column, confidence).sort_values(column, kind="stable")
        keep = [column, "decisions", "mean_cost", "estimate", "low", "high", "share"]
        tables.append(Table(f"Cost by {caption}", display_table(by[keep], digits=2)))
    if attrs.get("rules"):
        tables.insert(
            0,
            Table(
                "Rules (settings that differ from the canonical profile)",
                rules_table(attrs["rules"]),
            ),
        )
    figures = [
        Figure(
            "cost_by_situation.png",
            f"Cost per seat per game by situation, with {confidence:.0%} intervals",
            _situation_figure(situations),
        ),
        Figure(
            "cost_by_factor.png",
            f"Cost per seat per game split by each factor, with {confidence:.0%} intervals",
            _factor_figure(frame, confidence),
        ),
    ]
    return Report(title, setup, method, findings, tables, figures, command)
