"""The ``ohhell`` command: the top layer, argparse only.

One module per command group (:mod:`~ohhell_sim.cli.simulate`, ``replay``,
``bench``, ``tournament``, ``studies``, ``train_bids``, ``rules``, ``listing``), each adding
its subcommands with ``add_parsers(sub)``; :mod:`~ohhell_sim.cli.options` holds the
options they share (rules, seats, ``--import``).  The command imports the library;
nothing in the library imports the command.
"""

from ohhell_sim.cli.app import build_parser, main
from ohhell_sim.cli.options import rules_from_args

__all__ = ["build_parser", "main", "rules_from_args"]
