"""The ``ohhell`` parser and entry point.

Subcommands: ``simulate``, ``quickstart``, ``experiment``, ``report``, ``replay``,
``analyse``, ``advise``, ``bench``, ``tournament``, ``openspiel-match``, ``train``,
``train-bids``, ``rules``, ``strategies``.  Every option is checked (by the same
validators as the Python API) before anything compiles, runs or prints; a bad
option prints one line naming it and exits with status 2.  A failure of a run
that is not the package's own (a strategy's code raised or made an illegal move,
a file or a scheduler cannot be reached) prints one line too and exits with
status 1; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence

from ohhell_sim._version import __version__
from ohhell_sim.cli import (
    bench,
    decisions,
    listing,
    openspiel,
    replay,
    rules,
    simulate,
    studies,
    tournament,
    train,
    train_bids,
)
from ohhell_sim.errors import IllegalMoveError, StrategyError

_DEBUG_HELP = "show the traceback of an error instead of its one-line message"
#: Failures that are the user's or the machine's, not the package's: one line each.
#: Bad options are ValueError/TypeError (InvalidArgumentError is both); strategy
#: code that raises or moves illegally, a scheduler that cannot be reached, and a
#: folder that cannot be read are RuntimeError and OSError.
_USER_ERRORS = (ValueError, TypeError, RuntimeError, OSError, MemoryError)


def build_parser() -> argparse.ArgumentParser:
    """The ``ohhell`` argument parser, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="ohhell", description="Simulate the card game Oh Hell between strategies."
    )
    parser.add_argument("--version", action="version", version=f"ohhell-sim {__version__}")
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    for group in (
        simulate,
        studies,
        replay,
        decisions,
        bench,
        tournament,
        openspiel,
        train,
        train_bids,
        rules,
        listing,
    ):
        group.add_parsers(sub)
    for command in sub.choices.values():
        # Also after the command (ohhell simulate ... --debug); unset, it leaves the top's.
        command.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP
        )
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
    except KeyboardInterrupt as stopped:
        message = _one_line(stopped) if str(stopped) else "interrupted"
        if getattr(stopped, "stuck", 0):
            # A thread in a decision that never returns cannot be joined: leave at once.
            sys.stderr.write(f"ohhell {args.command}: {message}\n")
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(130)
        parser.exit(130, f"ohhell {args.command}: {message}\n")
    except _USER_ERRORS as error:
        if args.debug:
            raise
        status = 2 if isinstance(error, ValueError | TypeError) else 1
        parser.exit(status, f"ohhell {args.command}: error: {_one_line(error)}\n")
    finally:
        package_logger.setLevel(level)
    return 1


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    if isinstance(error, MemoryError):
        return f"out of memory ({text}); play fewer games, or keep counts only with --summary"
    if isinstance(error, RuntimeError) and not isinstance(error, StrategyError | IllegalMoveError):
        return f"{text} (--debug shows the traceback)"
    return text
