"""Run the ``hook_rule`` study and write its data, figures and report.

Usage: ``python experiments/hook_rule.py [--games N] [--seed S] [--players 3,4] [--out DIR]``,
the same as ``ohhell experiment hook_rule ...`` (see ``ohhell_sim/studies/hook_rule.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiment", "hook_rule", *sys.argv[1:]]))
