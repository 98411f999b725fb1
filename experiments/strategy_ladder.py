"""Run the ``strategy_ladder`` study and write its data, figures and report.

Usage: ``python experiments/strategy_ladder.py [--games N] [--seed S] [--players 4]
[--strategies a,b] [--fields simple,card_counter] [--out DIR]``, the same as
``ohhell experiment strategy_ladder ...`` (see ``ohhell_sim/studies/strategy_ladder.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiment", "strategy_ladder", *sys.argv[1:]]))
