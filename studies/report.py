"""A study's report: Markdown with PNG files beside it, and one self-contained HTML page.

A :class:`Report` is built by a study's ``analyse`` function from its Parquet
output; this module only lays it out.  The HTML page embeds every figure as a
``data:`` URI and uses no external resource, so it can be mailed or committed on
its own.  Findings sit in a ``<section id="findings">`` (and under a
``## Findings`` heading in Markdown), so tests can check their numbers.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ohhell_sim.rules import Rules

MARKDOWN_FILE = "report.md"
HTML_FILE = "report.html"


@dataclass
class Table:
    """A table of the report: ``frame`` holds display strings (see :func:`display_table`)."""

    title: str
    frame: pd.DataFrame
    note: str = ""


@dataclass
class Figure:
    """A figure: written as ``name`` beside the Markdown, embedded in the HTML."""

    name: str
    caption: str
    png: bytes


@dataclass
class Report:
    """Everything a study report says, in order.

    Attributes
    ----------
    study : str
        The study's name.
    question : str
        The question the study answers (the title).
    setup : list of str
        Rules, strategies, sizes, seed and version, one item each.
    method : list of str
        How each quantity is estimated, one item each.
    findings : list of str
        Sentences with numbers computed from the data.
    tables, figures : list
        :class:`Table` and :class:`Figure` objects.
    command : str
        The command that reproduces the data and this report.
    """

    study: str
    question: str
    setup: list[str]
    method: list[str]
    findings: list[str]
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    command: str = ""

    @classmethod
    def from_manifest(
        cls,
        study: str,
        question: str,
        manifest: dict,
        method: list[str],
        findings: list[str],
        tables: list[Table],
        figures: list[Figure],
    ) -> Report:
        """A study's report, with the setup and the command read from its data's manifest."""
        return cls(
            study,
            question,
            setup_lines(manifest),
            method,
            findings,
            tables,
            figures,
            manifest.get("command", ""),
        )


def display_table(frame: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """Collapse interval columns into ``"estimate [low, high]"`` strings.

    The triple ``estimate``/``low``/``high`` becomes one column ``"estimate
    [95% CI]"``; any triple ``x``/``x_low``/``x_high`` becomes column ``x``.
    Other float columns are shown with ``digits`` decimals.

    Parameters
    ----------
    frame : pandas.DataFrame
        An estimate table.
    digits : int
        Decimal places.

    Returns
    -------
    pandas.DataFrame
        Strings only, index reset.
    """
    frame = frame.reset_index(drop=frame.index.name is None)
    out = {}
    columns = list(frame.columns)
    bounds = {c for c in columns for base in columns if c in (f"{base}_low", f"{base}_high")}
    for column in columns:
        if column in bounds or (column in ("low", "high") and "estimate" in columns):
            continue
        values = frame[column]
        if column == "estimate" and {"low", "high"} <= set(columns):
            out["estimate [95% CI]"] = _intervals(values, frame["low"], frame["high"], digits)
        elif f"{column}_low" in columns and f"{column}_high" in columns:
            out[column] = _intervals(
                values, frame[f"{column}_low"], frame[f"{column}_high"], digits
            )
        elif pd.api.types.is_float_dtype(values):
            out[column] = [f"{v:.{digits}f}" for v in values]
        else:
            out[column] = [str(v) for v in values]
    return pd.DataFrame(out)


def _intervals(estimate, low, high, digits: int) -> list[str]:
    return [
        "n/a" if pd.isna(e) else f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
        for e, lo, hi in zip(estimate, low, high, strict=True)
    ]


def rules_text(rules: dict) -> str:
    """The rules of a condition as the settings that differ from the canonical profile."""
    canonical = Rules(players=rules["players"]).to_dict()
    changed = [
        f"{key}={value}"
        for key, value in rules.items()
        if key not in ("players", "schedule") and canonical.get(key) != value
    ]
    if rules["schedule"] != canonical["schedule"]:
        changed.append(f"schedule={rules['schedule']}")
    return ", ".join(changed) or "canonical"


def conditions_table(manifest: dict) -> pd.DataFrame:
    """One row per condition of a study manifest: label, rules, seats, games."""
    rows = []
    for condition in manifest["conditions"]:
        rows.append(
            {
                **{k: str(v) for k, v in condition["label"].items()},
                "rules": rules_text(condition["rules"]),
                "seats": ", ".join(condition["seats"]),
                "games": str(condition["games"]),
            }
        )
    return pd.DataFrame(rows)


def _markdown_table(frame: pd.DataFrame) -> str:
    def cell(value: object) -> str:
        return str(value).replace("|", "\\|")

    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def to_markdown(report: Report) -> str:
    """The report as Markdown; figures are referenced by file name."""
    lines = [f"# {report.question}", "", "## Setup", ""]
    lines += [f"* {item}" for item in report.setup]
    lines += ["", "## Method", ""]
    lines += [f"* {item}" for item in report.method]
    lines += ["", "## Findings", "", "All intervals are 95% confidence intervals.", ""]
    lines += [f"* {item}" for item in report.findings]
    for table in report.tables:
        lines += ["", f"### {table.title}", ""]
        if table.note:
            lines += [table.note, ""]
        lines.append(_markdown_table(table.frame))
    lines += ["", "## Figures", ""]
    for figure in report.figures:
        lines += [f"![{figure.caption}]({figure.name})", "", f"*{figure.caption}*", ""]
    lines += ["## Reproduce", "", "```bash", report.command, "```", ""]
    return "\n".join(lines)


_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;"
    "line-height:1.45;color:#222}table{border-collapse:collapse;margin:.5rem 0 1.5rem;"
    "font-size:.9rem}th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}"
    "th{background:#f3f3f3}img{max-width:100%;display:block;margin:1rem 0 .2rem}"
    "figcaption{font-style:italic;margin-bottom:1.5rem}pre{background:#f6f6f6;padding:.6rem;"
    "overflow-x:auto}"
)


def to_html(report: Report) -> str:
    """The report as one self-contained HTML page (figures as ``data:`` URIs)."""
    esc = html.escape

    def items(values: list[str]) -> str:
        return "<ul>" + "".join(f"<li>{esc(v)}</li>" for v in values) + "</ul>"

    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(report.question)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{esc(report.question)}</h1>",
        f"<section id='setup'><h2>Setup</h2>{items(report.setup)}</section>",
        f"<section id='method'><h2>Method</h2>{items(report.method)}</section>",
        "<section id='findings'><h2>Findings</h2>",
        "<p>All intervals are 95% confidence intervals.</p>",
        items(report.findings),
        "</section><section id='tables'>",
    ]
    for table in report.tables:
        parts.append(f"<h3>{esc(table.title)}</h3>")
        if table.note:
            parts.append(f"<p>{esc(table.note)}</p>")
        parts.append(table.frame.to_html(index=False, border=0, escape=True))
    parts.append("</section><section id='figures'><h2>Figures</h2>")
    for figure in report.figures:
        data = base64.b64encode(figure.png).decode("ascii")
        parts.append(
            f"<figure><img alt='{esc(figure.caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{esc(figure.caption)}</figcaption></figure>"
        )
    parts.append(
        f"</section><section id='reproduce'><h2>Reproduce</h2><pre>{esc(report.command)}</pre>"
        "</section></body></html>"
    )
    return "".join(parts)


def write_report(report: Report, folder: str | Path) -> tuple[Path, Path]:
    """Write ``report.md``, its PNG figures and ``report.html`` into ``folder``.

    Returns
    -------
    (Path, Path)
        The Markdown and HTML files.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for figure in report.figures:
        (folder / figure.name).write_bytes(figure.png)
    md_path = folder / MARKDOWN_FILE
    md_path.write_text(to_markdown(report), encoding="utf-8")
    html_path = folder / HTML_FILE
    html_path.write_text(to_html(report), encoding="utf-8")
    return md_path, html_path


def setup_lines(manifest: dict) -> list[str]:
    """The setup of a study from its manifest: version, seed, sizes, strategies, rules."""
    conditions = manifest["conditions"]
    games = sorted({c["games"] for c in conditions})
    seats = sorted({seat for c in conditions for seat in c["seats"]})
    rules = sorted({rules_text(c["rules"]) for c in conditions})
    players = sorted({c["rules"]["players"] for c in conditions})
    return [
        f"ohhell-sim {manifest['version']}, seed {manifest['seed']}",
        f"{len(conditions)} conditions, {', '.join(map(str, games))} games each "
        f"({sum(c['games'] for c in conditions)} games in all)",
        f"players: {', '.join(map(str, players))}",
        f"strategies: {', '.join(seats)}",
        f"rules (besides the canonical profile): {'; '.join(rules)}",
    ]
