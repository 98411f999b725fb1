"""The analysis layer, above the runs and their frames, below the studies and the CLI.

``stats`` (estimates with intervals, tidy tables), ``format`` (numbers and
intervals as text), ``figures`` (one style, one colour per strategy), ``report``
(the :class:`~ohhell_sim.analysis.report.Report` model, its Markdown and HTML,
its saved form) and ``run_report`` (the report of a plain run).  Nothing here
imports the command line.
"""
