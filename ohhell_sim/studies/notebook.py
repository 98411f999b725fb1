"""Show a study's report in Jupyter: the cells every study notebook shares.

Each function displays one part of a :class:`~ohhell_sim.analysis.report.Report` with
IPython's rich display, so that a notebook is its parameters, one call per section,
and the prose and extra analysis particular to its study.
"""

from __future__ import annotations

from pathlib import Path

from ohhell_sim.analysis.report import Report, Table


def repository_root() -> Path:
    """The repository folder, wherever the notebook runs from.

    The first folder, from the current one upwards, that holds ``pyproject.toml`` and
    ``ohhell_sim/studies/``; failing that, the folder above the imported ``ohhell_sim``
    package when it holds a ``pyproject.toml`` (a source checkout), else the current one.
    """
    here = Path.cwd()
    for folder in (here.resolve(), *here.resolve().parents):
        if (folder / "pyproject.toml").exists() and (folder / "ohhell_sim/studies").exists():
            return folder
    package_parent = Path(__file__).resolve().parents[2]
    if (package_parent / "pyproject.toml").is_file():
        return package_parent
    return here


def open_study(
    name: str,
    data_dir: str | Path | None,
    out_dir: str | Path | None,
    games: int | None,
    seed: int,
    **options: object,
) -> tuple[Path, Report]:
    """The folder of study ``name``'s output and its saved report, for a notebook.

    With ``data_dir`` the study's output is read from there; without, the study
    is run here first (``games``, ``seed`` and the study's ``options``, as for
    :func:`~ohhell_sim.studies.run_experiment`) into ``out_dir``, by default
    ``runs/notebook_NAME`` in the :func:`repository_root`.  The report is the saved
    analysis: nothing is computed again.
    """
    from ohhell_sim.studies.experiment import run_experiment
    from ohhell_sim.studies.rendering import load_report

    if data_dir is None:
        data_dir = out_dir or repository_root() / "runs" / f"notebook_{name}"
        run_experiment(name, data_dir, games, seed, **options)
    report, _ = load_report(data_dir)
    return Path(data_dir), report


def _display():
    # Imported when called: IPython is only needed inside a notebook.
    from IPython.display import Image, Markdown, display

    return Image, Markdown, display


#: The characters Markdown reads as emphasis or code: a rule such as ``made=10*bid`` keeps
#: its ``*`` instead of turning the text between two of them into italics.
_MARKDOWN_MARKS = str.maketrans({mark: f"\\{mark}" for mark in "*_"})


def plain(text: str) -> str:
    """``text`` with its Markdown marks escaped, to be shown as written.

    Examples
    --------
    >>> plain("made=10*bid, 10+2*bid")
    'made=10\\\\*bid, 10+2\\\\*bid'
    """
    return text.translate(_MARKDOWN_MARKS)


def show_in_short(report: Report) -> None:
    """Display the report's answer in words (its "In short"), one paragraph each."""
    _, markdown, display = _display()
    display(markdown("\n\n".join(plain(line) for line in report.in_short)))


def show_setup(report: Report) -> None:
    """Display the report's setup (version, seed, sizes, rules, strategies) as a list."""
    _, markdown, display = _display()
    display(markdown("\n".join(f"* {plain(item)}" for item in report.setup)))


def show_findings(report: Report) -> None:
    """Display the findings, each with its 95% confidence interval, as a list."""
    _, markdown, display = _display()
    display(markdown("\n".join(f"* {plain(finding)}" for finding in report.findings)))


def show_table(table: Table) -> None:
    """Display one table: its title and note, then the frame, every cell whole (pandas
    would cut a long one with "…") and no index column."""
    from IPython.display import HTML

    _, markdown, display = _display()
    display(markdown(f"### {plain(table.title)}\n\n{plain(table.note)}"))
    display(HTML(table.frame.to_html(index=False, na_rep="")))


def show_tables(report: Report) -> None:
    """Display every table with :func:`show_table`."""
    for table in report.tables:
        show_table(table)


def show_figures(report: Report) -> None:
    """Display every figure under its caption."""
    image, markdown, display = _display()
    for figure in report.figures:
        display(markdown(f"**{figure.caption}**"))
        display(image(figure.png))
