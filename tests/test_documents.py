"""What the repository publishes: committed reports as the renderer writes them, and
product documents free of the machine's paths and of internal issue numbers."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ohhell_sim.analysis.report import HTML_FILE, MARKDOWN_FILE, load_analysis, to_html, to_markdown

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted(p.parent.name for p in (ROOT / "reports").glob("*/analysis.json"))
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "reports").rglob("*.md")),
]


def test_every_committed_report_has_its_saved_analysis():
    folders = sorted(p.parent.name for p in (ROOT / "reports").glob(f"*/{MARKDOWN_FILE}"))
    assert folders and folders == REPORTS


@pytest.mark.parametrize("name", REPORTS)
def test_committed_report_is_its_saved_analysis_as_rendered_now(name):
    # A change of the renderer re-renders them: `ohhell report reports/NAME`.
    folder = ROOT / "reports" / name
    report = load_analysis(folder)
    assert (folder / MARKDOWN_FILE).read_text(encoding="utf-8") == to_markdown(report)
    assert (folder / HTML_FILE).read_text(encoding="utf-8") == to_html(report)


@pytest.mark.parametrize("name", REPORTS)
def test_committed_reproduce_commands_hold_no_absolute_path(name):
    command = load_analysis(ROOT / "reports" / name).command
    assert command.startswith("ohhell ")
    for line in command.splitlines():
        absolute = [word for word in shlex.split(line) if word.startswith(("/", "~"))]
        assert not absolute, line


#: An internal reference: "issue 14", "issues 3", "#12" (not a seat label such as simple#2).
INTERNAL_REFERENCE = re.compile(r"\bissues? #?\d+|(?<![\w#&])#\d+\b", re.IGNORECASE)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_product_documents_name_no_internal_issue_numbers(path):
    text = path.read_text(encoding="utf-8")
    assert INTERNAL_REFERENCE.findall(text) == []
