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


#: The kernels a run may play on (see :func:`kernel_mode`).
KERNELS = ("auto", "dedicated", "shared")
#: Under ``kernel="auto"``, runs of fewer games than this play on the shared
#: kernel (see docs/writing-a-strategy.md): one thread on the shared kernel costs
#: some 90 ns more per decision, 512 decisions per canonical 4-player game, so
#: about 45 s per million games, less than a dedicated compile for a new set of
#: strategies took beside it (``benchmarks/edit_rerun.py``, busy 2-core machine);
#: with more threads the games cost less and the compile the same.
SHARED_BELOW_GAMES = 1_000_000


def kernel_mode(run: Run, kernel: object) -> Run:
    """``run`` with its seating on the kernel that ``kernel`` names (see :attr:`Seating.shared`).

    ``"dedicated"``: a kernel compiled for the run's strategies, which inlines
    them where that pays: the fastest games, after a compile of 10-40 s for each
    new set of strategies and each edit of one.  ``"shared"``: one kernel for
    every strategy, compiled once per machine and version of the package, which
    calls each strategy compiled alone: an edit recompiles that strategy only,
    in a second or two, and its decisions cost a call more.  ``"auto"``: the
    shared kernel for a run of fewer than :data:`SHARED_BELOW_GAMES` games
    (exploring, where a compile for each new set of strategies outweighs the
    games), the dedicated one otherwise.  The games are the same on both.

    Raises
    ------
    InvalidArgumentError
        If ``kernel`` is not one of :data:`KERNELS`.
    """
    shared = chosen_kernel(run.games, kernel) == "shared"
    return dataclasses.replace(run, seating=dataclasses.replace(run.seating, shared=shared))


def chosen_kernel(games: int, kernel: object = "auto") -> str:
    """``"shared"`` or ``"dedicated"``: the kernel that ``kernel`` names for a run of ``games``.

    A front end that compiles its kernel before its runs (a tournament, a study)
    names this one to each of them, so that it compiles the kernel they play on.

    Raises
    ------
    InvalidArgumentError
        If ``kernel`` is not one of :data:`KERNELS`.
    """
    if not isinstance(kernel, str) or kernel not in KERNELS:
        allowed = ", ".join(repr(k) for k in KERNELS)
        raise InvalidArgumentError(f"kernel must be one of {allowed}, got {kernel!r}")
    if kernel == "auto":
        return "shared" if games < SHARED_BELOW_GAMES else "dedicated"
    return kernel
