"""Studies: experiments that answer players' and designers' questions, with reports.

Each study is a module with ``NAME``, ``QUESTION``, ``DEFAULT_GAMES``,
``DEFAULT_PLAYERS``, ``play(games, seed, players, progress) -> StudyData`` and
``analyse(StudyData) -> Report``; :func:`run_experiment` plays one, writes its
Parquet data and its analysis (``analysis.json``, the report's content) and renders
its report, and :func:`render_report` renders the report again from the saved
analysis in seconds.  ``ohhell experiment NAME`` and ``experiments/NAME.py`` call
:func:`run_experiment`; ``ohhell report NAME`` calls :func:`render_report`.

The package lives beside ``ohhell_sim`` rather than inside it because the
engine names its compiled kernels by a hash of every source file of
``ohhell_sim``: analysis code inside it would recompile every kernel on each edit.
"""

from ohhell_sim.studies.experiment import (
    DEFAULT_STUDY,
    STUDY_NAMES,
    build_report,
    get_study,
    load_report,
    render_report,
    run_experiment,
)

__all__ = [
    "DEFAULT_STUDY",
    "STUDY_NAMES",
    "build_report",
    "get_study",
    "load_report",
    "render_report",
    "run_experiment",
]
