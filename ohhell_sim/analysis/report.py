"""Strategy reports: Markdown and self-contained HTML with figures, from a run's frames.

Every number in a report is computed here from the frames it is given; figures
are PNG files beside ``report.md`` and embedded (base64) in ``report.html``.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # reports are written without a display
import matplotlib.pyplot as plt
import pandas as pd

from ohhell_sim.analysis.stats import clustered_mean_ci, format_summary, strategy_summary


def made_rate_by_hand_size(hands: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Made rate per (strategy, hand size) with a CI clustered by game."""
    rows = []
    for (strategy, size), group in hands.groupby(["strategy", "hand_size"], observed=True):
        made = (group["bid"] == group["tricks"]).to_numpy(dtype=float)
        mean, low, high = clustered_mean_ci(made, group["game"].to_numpy(), confidence)
        rows.append(
            {
                "strategy": strategy,
                "hand_size": int(size),
                "made_rate": mean,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(rows)


def _figure_made_rate(table: pd.DataFrame) -> bytes:
    fig, ax = plt.subplots(figsize=(7, 4))
    for strategy, group in table.groupby("strategy"):
        group = group.sort_values("hand_size")
        ax.errorbar(
            group["hand_size"],
            group["made_rate"],
            yerr=[group["made_rate"] - group["low"], group["high"] - group["made_rate"]],
            marker="o",
            capsize=3,
            label=str(strategy),
        )
    ax.set_xlabel("hand size (cards)")
    ax.set_ylabel("made rate (bid = tricks)")
    ax.set_title("Made rate by hand size (95% CI, clustered by game)")
    ax.legend()
    return png_bytes(fig)


def _figure_totals(games: pd.DataFrame) -> bytes:
    fig, ax = plt.subplots(figsize=(7, 4))
    for strategy, group in games.groupby("strategy", observed=True):
        ax.hist(group["total"], bins=40, histtype="step", linewidth=1.5, label=str(strategy))
    ax.set_xlabel("final total per game")
    ax.set_ylabel("games")
    ax.set_title("Distribution of final totals")
    ax.legend()
    return png_bytes(fig)


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes (layout tightened); the figure is closed."""
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return buffer.getvalue()


def write_report(
    hands: pd.DataFrame, games: pd.DataFrame, folder: str | Path, *, title: str, command: str
) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` (with figures) about one run into ``folder``.

    Parameters
    ----------
    hands, games : pandas.DataFrame
        The run's frames (their ``attrs`` carry rules, seed and version).
    folder : path
        Where the report and its PNG figures go.
    title : str
        The question the run answers.
    command : str
        The command that reproduces the run.

    Returns
    -------
    (Path, Path)
        The Markdown and HTML files.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    summary = strategy_summary(hands, games)
    by_size = made_rate_by_hand_size(hands)
    figures = {
        "made_rate_by_hand_size.png": _figure_made_rate(by_size),
        "totals.png": _figure_totals(games),
    }
    for name, data in figures.items():
        (folder / name).write_bytes(data)

    meta = hands.attrs
    rules = meta.get("rules", {})
    best = summary["win_share"].idxmax()
    setup = (
        f"{meta.get('games', '?')} games, {rules.get('players', '?')} players, "
        f"schedule {rules.get('schedule')}, seats {meta.get('strategies')}, seed "
        f"{meta.get('seed')}, ohhell-sim {meta.get('version')}"
    )
    finding = (
        f"{best} has the highest win share, {summary.loc[best, 'win_share']:.3f} "
        f"[{summary.loc[best, 'win_share_low']:.3f}, {summary.loc[best, 'win_share_high']:.3f}], "
        f"and makes its bid in {summary.loc[best, 'made_rate']:.3f} of its deals."
    )
    table = format_summary(summary[[c for c in summary.columns if not c.startswith("mean_total")]])
    markdown = "\n".join(
        [
            f"# {title}",
            "",
            "## Setup",
            "",
            setup,
            "",
            "Rules: `" + json.dumps(rules) + "`",
            "",
            "## Findings (95% confidence intervals)",
            "",
            finding,
            "",
            "```",
            table,
            "```",
            "",
            "## Figures",
            "",
            *(f"![{name}]({name})" for name in figures),
            "",
            "## Reproduce",
            "",
            "```",
            command,
            "```",
            "",
        ]
    )
    md_path = folder / "report.md"
    md_path.write_text(markdown, encoding="utf-8")
    images = "".join(
        f'<img alt="{name}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        for name, data in figures.items()
    )
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title></head><body>"
        f"<h1>{html.escape(title)}</h1><h2>Setup</h2><p>{html.escape(setup)}</p>"
        f"<p>Rules: <code>{html.escape(json.dumps(rules))}</code></p>"
        f"<h2>Findings (95% confidence intervals)</h2><p>{html.escape(finding)}</p>"
        f"<pre>{html.escape(table)}</pre><h2>Figures</h2>{images}"
        f"<h2>Reproduce</h2><pre>{html.escape(command)}</pre></body></html>"
    )
    html_path = folder / "report.html"
    html_path.write_text(page, encoding="utf-8")
    return md_path, html_path
