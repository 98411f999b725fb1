"""The report model: what a report says, rendered to Markdown and to one HTML page.

A :class:`Report` is built by an analysis (a study's ``analyse``, or
:func:`~ohhell_sim.analysis.run_report.run_report` for a plain run) and holds
display-ready text: setup, method, findings, tables of strings and PNG figures.
:func:`write_report` lays it out as ``report.md`` (figures as PNG files beside
it) and a self-contained ``report.html`` (figures as ``data:`` URIs, one
stylesheet, no external resource).  :func:`save_analysis` stores the report
itself (``analysis.json`` and the figures) next to the data, so that
:func:`load_analysis` can render it again in seconds without redoing the
analysis.  Findings sit in a ``<section id="findings">`` (and under a
``## Findings`` heading in Markdown), so tests can check their numbers.
"""

from __future__ import annotations

import base64
import html
import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ohhell_sim.rules import PRESETS, Rules

MARKDOWN_FILE = "report.md"
HTML_FILE = "report.html"
#: The saved analysis of a report (its text and tables; figures are the PNG files beside it).
ANALYSIS_FILE = "analysis.json"


@dataclass
class Table:
    """A table of the report: ``frame`` holds display strings (see :func:`~ohhell_sim.analysis.format.display_table`)."""  # noqa: E501

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
    """Everything a report says, in order.

    Attributes
    ----------
    question : str
        The question the report answers (its title).
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
    study : str
        The study's name (empty for a plain run).
    in_short : list of str
        The answer first, in whole sentences with units, one paragraph each:
        what it means for a player or a designer, how strong the evidence is and
        where it depends on who plays.  Shown before everything else.
    lead_tables : int
        How many of ``tables`` are shown right after the In short, before the setup:
        the answer as a table (a verdict per rule), not after the method.
    """

    question: str
    setup: list[str]
    method: list[str]
    findings: list[str]
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    command: str = ""
    study: str = ""
    in_short: list[str] = field(default_factory=list)
    lead_tables: int = 0


@dataclass(frozen=True)
class WrittenReport:
    """The files :func:`write_report` wrote."""

    markdown: Path
    html: Path
    figures: tuple[Path, ...]
    #: Where the report's content came from, when worth saying.
    note: str = ""

    def describe(self) -> str:
        """What was written (and from what), for the terminal."""
        files = [self.markdown.name, self.html.name]
        if self.figures:
            files.append(f"{len(self.figures)} PNG figures")
        text = f"report written to {self.markdown.parent}/ ({', '.join(files)})"
        return f"{text}, {self.note}" if self.note else text


# --- commands ------------------------------------------------------------------------


def command_path(path: str | Path) -> str:
    """``path`` as a report's Reproduce command shows it: relative, and quoted for the shell.

    A path inside the current folder is written relative to it; any other
    absolute path as its last part (the command run from the folder above it).
    So no committed command holds an absolute path of the machine it ran on.
    """
    path = Path(path)
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            path = Path(path.name)
    return shlex.quote(str(path))


# --- rules as a table -------------------------------------------------------------


def preset_of(rules: dict) -> str:
    """The name of the preset whose rules these are, or ``"custom"``."""
    players = rules["players"]
    # Saved by an older version, the rules may lack a parameter added since: its default.
    complete = Rules.from_dict(rules).to_dict()
    for name in PRESETS:
        if Rules.preset(name, players=players).to_dict() == complete:
            return name
    return "custom"


def rules_differences(rules: dict) -> dict[str, object]:
    """The settings of ``rules`` (a :meth:`Rules.to_dict`) that differ from canonical."""
    canonical = Rules(players=rules["players"]).to_dict()
    return {
        key: value for key, value in rules.items() if key != "players" and canonical[key] != value
    }


def rules_text(rules: dict) -> str:
    """The rules as the settings that differ from the canonical profile, or ``canonical``;
    a schedule as players write it (:func:`schedule_text`)."""
    changed = rules_differences(rules)
    if "schedule" in changed:
        changed["schedule"] = schedule_text(changed["schedule"])
    return ", ".join(f"{key}={value}" for key, value in changed.items()) or "canonical"


def schedule_text(schedule: Sequence[int]) -> str:
    """Hand sizes as players write them: a run of deals one card apart as its ends and
    turns, other deals after a comma.

    Examples
    --------
    >>> schedule_text([3, 2, 1, 2, 3, 3])
    '3→1→3, 3'
    >>> schedule_text([2, 1, 1, 1, 2])
    '2→1, 1, 1→2'
    """
    runs: list[list[int]] = []
    for cards in schedule:
        if runs and abs(cards - runs[-1][-1]) == 1:
            runs[-1].append(cards)
        else:
            runs.append([cards])
    written = []
    for run in runs:
        turns = [run[0]]
        for before, here, after in zip(run, run[1:], run[2:], strict=False):
            if (here - before) != (after - here):
                turns.append(here)
        if len(run) > 1:
            turns.append(run[-1])
        written.append("→".join(map(str, turns)))
    return ", ".join(written)


def rules_table(rules: dict) -> pd.DataFrame:
    """The rules as rows ``setting``/``value``: the preset, the players, then what differs."""
    rows = [("preset", preset_of(rules)), ("players", rules["players"])]
    rows += list(rules_differences(rules).items())
    return pd.DataFrame({"setting": [r[0] for r in rows], "value": [str(r[1]) for r in rows]})


# --- rendering --------------------------------------------------------------------------

_NUMBER = r"(?:[<>≤≥] ?)?[+\-−]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:e[+\-]?\d+)?%?"
#: A cell that reads as a number: ``0.5``, ``-1,234``, ``< 0.001``, ``12%``, ``25 of 25``,
#: an estimate with its interval ``0.12 [0.10, 0.14]``, a mark `` *`` after either.
_NUMERIC_CELL = re.compile(
    rf"{_NUMBER}(?: of {_NUMBER})?(?: \[{_NUMBER}, {_NUMBER}\])?(?: \*)?", re.IGNORECASE
)
#: Cells that say a number is missing; they do not make a column text.
_MISSING = {"", "n/a", "nan", "-", "—"}


def numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """Whether each column of a display table holds numbers (right-aligned) or text (left).

    A column is numeric when every cell that is not missing reads as a number
    or an estimate with its interval, and at least one does.
    """
    flags = []
    for column in frame.columns:
        cells = [str(v).strip() for v in frame[column]]
        present = [c for c in cells if c.lower() not in _MISSING]
        flags.append(bool(present) and all(_NUMERIC_CELL.fullmatch(c) for c in present))
    return flags


def _plain(text: object) -> str:
    """``text`` for Markdown as written: a ``*`` outside code spans escaped, so that a rule
    such as ``made=10*bid, 10+2*bid`` does not turn into emphasis."""
    pieces = re.split(r"(`[^`]+`)", str(text))
    return "".join(p if p.startswith("`") else p.replace("*", "\\*") for p in pieces)


def _markdown_table(frame: pd.DataFrame) -> str:
    def cell(value: object) -> str:
        return _plain(value).replace("|", "\\|")

    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---:" if num else "---" for num in numeric_columns(frame)) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def _markdown_section(table: Table) -> list[str]:
    lines = ["", f"### {_plain(table.title)}", ""]
    if table.note:
        lines += [_plain(table.note), ""]
    return [*lines, _markdown_table(table.frame)]


def to_markdown(report: Report) -> str:
    """The report as Markdown; figures are referenced by file name."""
    lines = [f"# {report.question}", ""]
    if report.in_short:
        lines += ["## In short", ""]
        for paragraph in report.in_short:
            lines += [_plain(paragraph), ""]
    for table in report.tables[: report.lead_tables]:
        lines += [*_markdown_section(table)[1:], ""]
    lines += ["## Setup", ""]
    lines += [f"* {_plain(item)}" for item in report.setup]
    lines += ["", "## Method", ""]
    lines += [f"* {_plain(item)}" for item in report.method]
    lines += ["", "## Findings", "", "All intervals are 95% confidence intervals.", ""]
    lines += [f"* {_plain(item)}" for item in report.findings]
    for table in report.tables[report.lead_tables :]:
        lines += _markdown_section(table)
    lines += ["", "## Figures", ""]
    for figure in report.figures:
        caption = _plain(figure.caption)
        lines += [f"![{caption}]({figure.name})", "", f"*{caption}*", ""]
    lines += ["## Reproduce", "", "```bash", report.command, "```", ""]
    return "\n".join(lines)


#: The one stylesheet of every report page.  The column is 64rem (1024 px) wide:
#: a table wider than it scrolls inside its own box, never the page, and a figure
#: is shown at its pixel size (see :data:`~ohhell_sim.analysis.figures.DPI`), which
#: the figures keep within the column.  A word longer than a line (a path) breaks
#: rather than widen the page on a phone.
STYLE = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:64rem;"
    "overflow-wrap:break-word;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#222;"
    "background:#fff}"
    "h1{font-size:1.6rem;border-bottom:2px solid #0072B2;padding-bottom:.3rem}"
    "h2{font-size:1.25rem;margin-top:2rem;color:#0b3d62}h3{font-size:1.05rem;margin-top:1.5rem}"
    "code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;"
    "background:#f0f3f6;padding:0 .2em;border-radius:3px}"
    ".table{overflow-x:auto;margin:.5rem 0 1.5rem}"
    "table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}"
    "th,td{border:1px solid #d0d7de;padding:.25rem .45rem;text-align:left;vertical-align:top}"
    "th{background:#f0f3f6}.num{text-align:right}.nw{white-space:nowrap}"
    "tr:nth-child(even) td{background:#fafbfc}"
    "figure{margin:1rem 0 1.5rem;overflow-x:auto}img{display:block;margin-bottom:.2rem}"
    "figcaption{font-style:italic;color:#555}"
    "pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;border-radius:4px}"
    "#findings li{margin:.25rem 0}"
)

_CODE_SPAN = re.compile(r"`([^`]+)`")


def inline_html(text: object) -> str:
    """``text`` escaped for HTML, its Markdown code spans (`` `x` ``) as ``<code>``."""
    return _CODE_SPAN.sub(r"<code>\1</code>", html.escape(str(text)))


def _header_html(name: object) -> str:
    # A long snake_case header may wrap after an underscore instead of widening its table.
    return inline_html(name).replace("_", "_<wbr>")


def _number_html(value: object) -> str:
    # An estimate and its interval may wrap between them, never inside either.
    estimate, bracket, interval = str(value).partition(" [")
    parts = [estimate, bracket.strip() + interval] if bracket else [estimate]
    return " ".join(f"<span class='nw'>{inline_html(part)}</span>" for part in parts)


def _html_table(frame: pd.DataFrame) -> str:
    numeric = numeric_columns(frame)
    kinds = [" class='num'" if num else "" for num in numeric]
    head = "".join(
        f"<th{k}>{_header_html(c)}</th>" for k, c in zip(kinds, frame.columns, strict=True)
    )
    rows = [
        "<tr>"
        + "".join(
            f"<td{k}>{_number_html(v) if num else inline_html(v)}</td>"
            for k, num, v in zip(kinds, numeric, row, strict=True)
        )
        + "</tr>"
        for row in frame.itertuples(index=False)
    ]
    return (
        f"<div class='table'><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _html_section(table: Table) -> str:
    note = f"<p>{inline_html(table.note)}</p>" if table.note else ""
    return f"<h3>{inline_html(table.title)}</h3>{note}{_html_table(table.frame)}"


def to_html(report: Report) -> str:
    """The report as one self-contained HTML page (figures as ``data:`` URIs)."""

    def items(values: list[str]) -> str:
        return "<ul>" + "".join(f"<li>{inline_html(v)}</li>" for v in values) + "</ul>"

    title = html.escape(report.question)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{title}</title><style>{STYLE}</style></head><body>",
        f"<h1>{inline_html(report.question)}</h1>",
        *(
            ["<section id='in-short'><h2>In short</h2>"]
            + [f"<p>{inline_html(p)}</p>" for p in report.in_short]
            + ["</section>"]
            if report.in_short
            else []
        ),
        *(_html_section(table) for table in report.tables[: report.lead_tables]),
        f"<section id='setup'><h2>Setup</h2>{items(report.setup)}</section>",
        f"<section id='method'><h2>Method</h2>{items(report.method)}</section>",
        "<section id='findings'><h2>Findings</h2>",
        "<p>All intervals are 95% confidence intervals.</p>",
        items(report.findings),
        "</section><section id='tables'>",
    ]
    parts += [_html_section(table) for table in report.tables[report.lead_tables :]]
    parts.append("</section><section id='figures'><h2>Figures</h2>")
    for figure in report.figures:
        data = base64.b64encode(figure.png).decode("ascii")
        alt = html.escape(figure.caption.replace("`", ""), quote=True)
        parts.append(
            f"<figure><img alt='{alt}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{inline_html(figure.caption)}</figcaption></figure>"
        )
    parts.append(
        "</section><section id='reproduce'><h2>Reproduce</h2>"
        f"<pre>{html.escape(report.command)}</pre></section></body></html>"
    )
    return "".join(parts)


def write_report(report: Report, folder: str | Path) -> WrittenReport:
    """Write ``report.md``, its PNG figures and ``report.html`` into ``folder`` (created).

    Returns
    -------
    WrittenReport
        The files written.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    figures = []
    for figure in report.figures:
        path = folder / figure.name
        path.write_bytes(figure.png)
        figures.append(path)
    md_path = folder / MARKDOWN_FILE
    md_path.write_text(to_markdown(report), encoding="utf-8")
    html_path = folder / HTML_FILE
    html_path.write_text(to_html(report), encoding="utf-8")
    return WrittenReport(md_path, html_path, tuple(figures))


# --- saved analysis -----------------------------------------------------------------------


def save_analysis(report: Report, folder: str | Path) -> Path:
    """Store ``report`` as ``analysis.json`` plus its figures' PNG files in ``folder``.

    Returns
    -------
    Path
        The ``analysis.json`` written.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for figure in report.figures:
        (folder / figure.name).write_bytes(figure.png)
    record = {
        "study": report.study,
        "question": report.question,
        "in_short": report.in_short,
        "setup": report.setup,
        "method": report.method,
        "findings": report.findings,
        "tables": [
            {
                "title": t.title,
                "note": t.note,
                "columns": [str(c) for c in t.frame.columns],
                "rows": t.frame.astype(str).to_numpy().tolist(),
            }
            for t in report.tables
        ],
        "figures": [{"name": f.name, "caption": f.caption} for f in report.figures],
        "command": report.command,
    }
    if report.lead_tables:
        record["lead_tables"] = report.lead_tables
    path = folder / ANALYSIS_FILE
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return path


def load_analysis(folder: str | Path) -> Report:
    """The report stored by :func:`save_analysis` in ``folder``.

    Raises
    ------
    FileNotFoundError
        If ``folder`` holds no ``analysis.json`` or a figure it names is missing.
    """
    folder = Path(folder)
    record = json.loads((folder / ANALYSIS_FILE).read_text(encoding="utf-8"))
    tables = [
        Table(t["title"], pd.DataFrame(t["rows"], columns=t["columns"]), t["note"])
        for t in record["tables"]
    ]
    figures = [
        Figure(f["name"], f["caption"], (folder / f["name"]).read_bytes())
        for f in record["figures"]
    ]
    return Report(
        record["question"],
        record["setup"],
        record["method"],
        record["findings"],
        tables,
        figures,
        record["command"],
        record["study"],
        record.get("in_short", []),
        record.get("lead_tables", 0),
    )
