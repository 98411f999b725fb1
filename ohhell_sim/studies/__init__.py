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

from __future__ import annotations

import importlib

from ohhell_sim.studies.catalog import DEFAULT_STUDY as DEFAULT_STUDY
from ohhell_sim.studies.catalog import STUDY_NAMES as STUDY_NAMES

#: Public name -> its module, imported on first use: the studies' modules load
#: pandas and Matplotlib, which the command's help does not need.
_EXPORTS = {
    "StudySpec": "ohhell_sim.studies.spec",
    "build_report": "ohhell_sim.studies.rendering",
    "get_study": "ohhell_sim.studies.spec",
    "load_report": "ohhell_sim.studies.rendering",
    "render_report": "ohhell_sim.studies.rendering",
    "run_experiment": "ohhell_sim.studies.experiment",
}

__all__ = sorted(["DEFAULT_STUDY", "STUDY_NAMES", *_EXPORTS])


def __getattr__(name: str) -> object:
    """Import a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ohhell_sim.studies' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
