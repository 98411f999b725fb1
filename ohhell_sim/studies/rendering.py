"""The report of a study's output: built from its data, loaded from its saved analysis,
rendered into a folder (``ohhell report``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ohhell_sim.analysis.report import (
    ANALYSIS_FILE,
    HTML_FILE,
    MARKDOWN_FILE,
    Report,
    Table,
    WrittenReport,
    command_path,
    load_analysis,
    save_analysis,
    write_report,
)
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import check_output_folder
from ohhell_sim.studies.report import conditions_table
from ohhell_sim.studies.runs import MANIFEST_FILE, StudyData, read_manifest, read_study
from ohhell_sim.studies.spec import StudySpec, get_study


def build_report(data: StudyData, study: StudySpec | None = None) -> Report:
    """The report of a study's data by ``study`` (default: the study its manifest names)."""
    study = get_study(data.manifest.get("study")) if study is None else study
    report = study.analyse(data)
    report.tables.append(Table("Conditions played", conditions_table(data.manifest)))
    return report


def load_report(folder: str | Path) -> tuple[Report, str]:
    """The report of the study output in ``folder``, and a note on where it came from.

    Read from the saved analysis (``analysis.json`` and the figures) when there
    is one; otherwise the data are analysed and the analysis is saved there.
    """
    folder = Path(folder)
    if (folder / ANALYSIS_FILE).is_file():
        return load_analysis(folder), f"from the saved analysis {folder / ANALYSIS_FILE}"
    study = get_study(read_manifest(folder).get("study"))
    report = build_report(read_study(folder, study.reduce_hands), study)
    path = save_analysis(report, folder)
    return report, f"analysis recomputed from the data and saved to {path}"


def _study_of(folder: Path) -> object:
    """The study whose output or saved analysis ``folder`` holds (read from its manifest)."""
    if not (folder / MANIFEST_FILE).is_file() and (folder / ANALYSIS_FILE).is_file():
        return load_analysis(folder).study
    return read_manifest(folder).get("study")


def render_report(
    folder: str | Path,
    out: str | Path | None = None,
    name: str | None = None,
    *,
    overwrite: bool = False,
) -> WrittenReport:
    """Render the report of the study output in ``folder`` into ``out`` (default: ``folder``).

    The report is read from the analysis saved beside the data (seconds; see
    :func:`load_report`); a folder holding a saved analysis without its data (a
    committed report) renders from the analysis alone.  The returned files' ``note``
    says whether the analysis was reused.

    Raises
    ------
    InvalidArgumentError
        When the folder holds another study than ``name`` (if given), or ``out`` is not
        ``folder`` and holds another report while ``overwrite`` is false.
    """
    folder = Path(folder)
    found = _study_of(folder)
    if name is not None and found != name:
        get_study(name)
        raise InvalidArgumentError(
            f"--input {str(folder)!r} holds output of study {found!r}, not {name!r}"
        )
    target = check_output_folder(folder if out is None else Path(out))
    elsewhere = target.resolve() != folder.resolve()
    existing = [f for f in (MARKDOWN_FILE, HTML_FILE) if (target / f).exists()]
    if elsewhere and existing and not overwrite:
        raise InvalidArgumentError(
            f"--out {str(target)!r} already holds a report ({', '.join(existing)}) that was "
            f"not rendered from {str(folder)!r}; give an empty folder, leave out --out to "
            "write beside the data, or delete that report first"
        )
    report, note = load_report(folder)
    if elsewhere:
        report.command += (
            f"\nohhell report {found} --input {command_path(folder)} --out {command_path(target)}"
        )
    return replace(write_report(report, target), note=note)
