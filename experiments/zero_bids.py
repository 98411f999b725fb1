"""Run the ``zero_bids`` study and write its data, figures and report.

Usage: ``python experiments/zero_bids.py [--games N] [--seed S] [--players 3,4]
[--fields simple,mix] [--out DIR]``,
the same as ``ohhell experiment zero_bids ...`` (see ``ohhell_sim/studies/zero_bids.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiment", "zero_bids", *sys.argv[1:]]))
