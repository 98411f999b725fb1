"""The ``ohhell`` command: the top layer, argparse only.

One module per command group (:mod:`~ohhell_sim.cli.simulate`, ``replay``,
``bench``, ``tournament``, ``studies``, ``train_bids``, ``rules``, ``listing``), each adding
its subcommands with ``add_parsers(sub)``; :mod:`~ohhell_sim.cli.options` holds the
options they share (rules, seats, ``--import``).  The command imports the library;
nothing in the library imports the command.

The parser is light, so that ``ohhell --help`` answers at once: a command module
imports at its top only the standard library and the light modules the parser
needs (``ohhell_sim.cli.options``, ``ohhell_sim.cli.seats``, ``ohhell_sim.errors``,
``ohhell_sim.seat_text``, ``ohhell_sim.studies.catalog``), and imports what its
command runs (the engine, pandas, a study) inside its ``cmd_*`` function.  A
name its help shows from a heavy module is kept beside the parser, and a test
keeps the two equal (``tests/test_cli_light.py``, which also fails when building
the parser imports Numba, pandas or a study).  A new command adds its module to
the list in :func:`ohhell_sim.cli.app.build_parser`.
"""

from ohhell_sim.cli.app import build_parser, main
from ohhell_sim.cli.options import rules_from_args

__all__ = ["build_parser", "main", "rules_from_args"]
