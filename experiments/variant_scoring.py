"""Run the ``variant_scoring`` study and write its data, figures and report.

Usage: ``python experiments/variant_scoring.py [--games N] [--seed S] [--players 3,4] [--out DIR]``,
the same as ``ohhell experiment variant_scoring ...``
(see ``ohhell_sim/studies/variant_scoring.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiment", "variant_scoring", *sys.argv[1:]]))
