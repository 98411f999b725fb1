"""The checks of a run's arguments into a :class:`~ohhell_sim.run.record.Run` record.

The plain arguments are checked by :mod:`ohhell_sim.arguments`, the rules by
:func:`ohhell_sim.rules.check_rules` and the seats by
:func:`ohhell_sim.strategy.check_seating`; this module, above them and the run
record, puts a run together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ohhell_sim.arguments import check_game_range, check_seed, check_threads
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import check_rules
from ohhell_sim.run.record import Run
from ohhell_sim.strategy import SeatSpec, check_seating


def check_run(
    rules: object,
    strategies: Sequence[SeatSpec],
    first_game: object,
    games: object,
    seed: object,
    threads: object,
) -> Run:
    """The checks of a run's arguments, as :func:`ohhell_sim.simulate` takes them.

    Returns
    -------
    Run
        The run's record, checked and resolved, which the executors take.

    Raises
    ------
    InvalidArgumentError
        For the first bad argument, naming it, its value and what is allowed.
    """
    rules = check_rules(rules)
    seating = check_seating(rules, strategies)
    first_game, games = check_game_range(first_game, games)
    return Run(rules, seating, check_seed(seed), first_game, games, check_threads(threads))


def check_mode(run: Run, check: object, client: object) -> Run:
    """``run`` with its seating in the check mode when ``check`` (see :attr:`Seating.checked`).

    Raises
    ------
    InvalidArgumentError
        If ``check`` is not a bool, or is combined with a Dask ``client`` (the
        check runs its kernels and the reference engine on this machine).
    """
    if not isinstance(check, bool):
        raise InvalidArgumentError(f"check must be True or False, got {check!r}")
    if check and client is not None:
        raise InvalidArgumentError(
            "check=True runs on this machine's threads, not on a Dask cluster: drop client= "
            "for the check run, then run on the cluster without check"
        )
    if not check:
        return run
    return dataclasses.replace(run, seating=dataclasses.replace(run.seating, checked=True))
