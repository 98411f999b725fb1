"""Studies: experiments that answer players' and designers' questions, with reports.

Each study is a module that declares itself in a
:class:`~ohhell_sim.studies.spec.StudySpec` named ``SPEC``; :func:`run_experiment`
(``ohhell experiment NAME``) plays one, writes its Parquet data and its analysis
(``analysis.json``) and renders its report, and :func:`render_report` (``ohhell report
NAME``) renders the report again from the saved analysis in seconds.

No compiled code reads a study, so an edit of one recompiles nothing: the
kernels are named by the engine's sources and the strategies' code only, and
the built-ins' compiles by every source file but those of the studies, the
analysis and the command.
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
from ohhell_sim.studies.spec import StudySpec

__all__ = [
    "DEFAULT_STUDY",
    "STUDY_NAMES",
    "StudySpec",
    "build_report",
    "get_study",
    "load_report",
    "render_report",
    "run_experiment",
]
