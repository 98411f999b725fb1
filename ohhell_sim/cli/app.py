"""The ``ohhell`` parser and entry point.

Subcommands: ``simulate``, ``quickstart``, ``experiment``, ``report``, ``replay``,
``bench``, ``tournament``, ``openspiel-match``, ``train-bids``, ``rules``,
``strategies``.  Every option is checked (by the same validators as the Python
API) before anything compiles, runs or prints; a bad option prints one line
naming it and exits with status 2.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable, Sequence

from ohhell_sim._version import __version__
from ohhell_sim.cli import (
    bench,
    listing,
    openspiel,
    replay,
    rules,
    simulate,
    studies,
    tournament,
    train_bids,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``ohhell`` argument parser, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="ohhell", description="Simulate the card game Oh Hell between strategies."
    )
    parser.add_argument("--version", action="version", version=f"ohhell-sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for group in (
        simulate,
        studies,
        replay,
        bench,
        tournament,
        openspiel,
        train_bids,
        rules,
        listing,
    ):
        group.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ohhell`` console script.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit status; a bad option exits with status 2 (``SystemExit``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func
    # --quiet also silences the word of a kernel compile (ohhell_sim.run.progress).
    package_logger = logging.getLogger("ohhell_sim")
    level = package_logger.level
    if getattr(args, "quiet", False):
        package_logger.setLevel(logging.WARNING)
    try:
        return command(args)
    except (ValueError, TypeError) as error:
        parser.exit(2, f"ohhell {args.command}: error: {error}\n")
    except KeyboardInterrupt:
        parser.exit(130, "interrupted\n")
    finally:
        package_logger.setLevel(level)
    return 1
