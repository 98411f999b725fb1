"""Where a strategy loses its points: decision analysis, and an advisor.

* :func:`analyse_decisions` values sampled decisions of a run against a
  reference evaluator (:mod:`ohhell_sim.decisions.evaluate`) and gives the cost
  of each choice with an interval;
* :func:`cost_by` and :func:`decision_report` say where the points go, by
  situation;
* :func:`advise` values every legal bid or card of a position typed by hand.
"""

from ohhell_sim.decisions.analyse import analyse_decisions
from ohhell_sim.decisions.evaluate import Evaluation, Reference, evaluate_view

__all__ = ["Evaluation", "Reference", "analyse_decisions", "evaluate_view"]
