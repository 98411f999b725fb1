"""The strategy report of a plain run (`ohhell simulate --output DIR`, `ohhell report DIR`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot, legend_outside, png_bytes, strategy_colour
from ohhell_sim.analysis.format import fmt_row, interval_table
from ohhell_sim.analysis.report import Figure, Report, Table, rules_table
from ohhell_sim.analysis.stats import grouped_mean
from ohhell_sim.results import SUMMARY_MEASURES, strategy_summary

__all__ = ["made_rate_by_hand_size", "run_report"]


def made_rate_by_hand_size(hands: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Made rate per (strategy, hand size), clustered by game: a tidy estimate table."""
    return grouped_mean(
        hands, hands["bid"] == hands["tricks"], ["strategy", "hand_size"], confidence=confidence
    )


def _totals_figure(games: pd.DataFrame) -> bytes:
    fig, ax = plt.subplots(figsize=(7.5, 4))
    for strategy, group in games.groupby("strategy", observed=True):
        ax.hist(
            group["total"],
            bins=40,
            histtype="step",
            linewidth=1.5,
            color=strategy_colour(strategy),
            label=str(strategy),
        )
    ax.set_xlabel("final total per game")
    ax.set_ylabel("games")
    ax.set_title("Distribution of final totals")
    legend_outside(ax, title="strategy")
    fig.tight_layout()
    return png_bytes(fig)


def run_report(hands: pd.DataFrame, games: pd.DataFrame, *, title: str, command: str) -> Report:
    """The report of one run: per-strategy estimates, made rate by hand size, totals.

    Parameters
    ----------
    hands, games : pandas.DataFrame
        The run's frames (their ``attrs`` carry rules, seed and version).
    title : str
        The question the run answers.
    command : str
        The command that reproduces the report.

    Returns
    -------
    Report
    """
    summary = strategy_summary(hands, games)
    by_size = made_rate_by_hand_size(hands)
    meta = hands.attrs
    rules = meta.get("rules", {})
    shares = summary[summary["measure"] == "win_share"]
    best = shares.loc[shares["estimate"].idxmax()]
    made = summary[(summary["strategy"] == best["strategy"]) & (summary["measure"] == "made_rate")]
    setup = [
        f"ohhell-sim {meta.get('version', '?')}, seed {meta.get('seed', '?')}",
        f"{meta.get('games', '?')} games, {rules.get('players', '?')} players",
        f"seats: {', '.join(map(str, meta.get('strategies', [])))}",
    ]
    findings = [
        f"{best['strategy']} has the highest win share, {fmt_row(best)}, and makes its bid in "
        f"{fmt_row(made.iloc[0])} of its deals."
    ]
    method = [
        "The game is the independent unit: mean total and win share average each game's "
        "seats of a strategy and take a Student-t interval over games; per-deal scores and "
        "rates get a cluster-robust interval clustered by game.",
    ]
    tables = [
        Table(
            "Per strategy",
            interval_table(summary, "strategy", "measure", order=SUMMARY_MEASURES),
            "mean_total: final total per game; mean_score: points per deal; made_rate: "
            "share of deals with bid = tricks; win_share: games won (ties shared).",
        )
    ]
    if rules:
        tables.insert(
            0, Table("Rules (settings that differ from the canonical profile)", rules_table(rules))
        )
    figures = [
        Figure(
            "made_rate_by_hand_size.png",
            "Made rate by hand size and strategy",
            interval_plot(
                by_size,
                "hand_size",
                series="strategy",
                title="Made rate by hand size (clustered by game)",
                xlabel="hand size (cards)",
                ylabel="made rate (bid = tricks)",
            ),
        ),
        Figure("totals.png", "Distribution of final totals", _totals_figure(games)),
    ]
    return Report(title, setup, method, findings, tables, figures, command)
