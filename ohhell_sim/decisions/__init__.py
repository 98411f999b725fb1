"""Where a strategy loses its points: decision analysis, and an advisor.

* :func:`analyse_decisions` values sampled decisions of a run against a
  reference evaluator (:mod:`ohhell_sim.decisions.evaluate`) and gives the cost
  of each choice with an interval;
* :func:`cost_by` and :func:`decision_report` say where the points go, by
  situation;
* :func:`advise` values every legal bid or card of a position typed by hand.
"""

from ohhell_sim.decisions.advise import advise
from ohhell_sim.decisions.analyse import analyse_decisions
from ohhell_sim.decisions.evaluate import Evaluation, Reference, evaluate_view
from ohhell_sim.decisions.report import cost_by, decision_report

__all__ = [
    "Evaluation",
    "Reference",
    "advise",
    "analyse_decisions",
    "cost_by",
    "decision_report",
    "evaluate_view",
]
