"""Our strategies against OpenSpiel's bots in its ``oh_hell``: duplicate matches and their report.

Usage: ``python experiments/openspiel_match.py [--strategies simple,pimc] [--opponents
ismcts:1000,random] [--players 3,4,5] [--tricks 5,10] [--deals N] [--seed S] [--out DIR]``,
the same as ``ohhell openspiel-match ...`` (see ``ohhell_sim/interop/openspiel_matches.py``).
"""

import sys

from ohhell_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["openspiel-match", *sys.argv[1:]]))
