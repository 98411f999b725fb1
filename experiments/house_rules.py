"""Run the ``house_rules`` study and write its data, figures and report.

Usage: ``python experiments/house_rules.py [--games N] [--seed S] [--players 3,4]
[--fields weak,strong] [--out DIR]``,
the same as ``ohhell experiment house_rules ...`` (see ``ohhell_sim/studies/house_rules.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiment", "house_rules", *sys.argv[1:]]))
