"""The public entry point: validate, play games into rows, frame the results.

A front end of the run pipeline (:mod:`ohhell_sim.run`): the games go into a
:class:`~ohhell_sim.run.sinks.Rows` sink on this machine's threads, or on a Dask
cluster with ``client=``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from ohhell_sim.arguments import check_flag
from ohhell_sim.results import SimulationResult, check_rows_fit
from ohhell_sim.rules import Rules
from ohhell_sim.run.executors import play_run
from ohhell_sim.run.sinks import Rows
from ohhell_sim.run.validation import check_mode, check_run, kernel_mode
from ohhell_sim.strategy import SeatSpec

if TYPE_CHECKING:
    from distributed import Client


def simulate(
    rules: Rules,
    strategies: Sequence[SeatSpec],
    games: int,
    seed: int = 0,
    *,
    first_game: int = 0,
    threads: int | None = None,
    progress: bool = False,
    client: Client | None = None,
    check: bool = False,
    record_hands: bool = False,
    kernel: str = "auto",
) -> SimulationResult:
    """Play ``games`` games between ``strategies`` on the compiled kernel.

    Game ``i`` of the run is game ``first_game + i``; its cards and every random
    choice depend only on ``(seed, first_game + i)``, so results are the same for
    any thread count and any split of the games into runs, and
    :func:`ohhell_sim.replay` reproduces any game step by step.

    Parameters
    ----------
    rules : Rules
        The rules to play.
    strategies : sequence
        One per seat: a registered name, the same with parameter values in
        brackets (``"simple[scale=1.5]"``, as on the command line), a
        :class:`~ohhell_sim.strategy.Strategy`, or ``(name, {param: value})``.
        The frames' ``strategy`` column labels each seat by its name and the
        parameters that differ from the defaults (``simple[scale=1.5]``).
    games : int
        Number of games, at least 1.
    seed : int
        Seed of the run, ``0 .. 2**63 - 1``.
    first_game : int
        Index of the first game (to continue or split a run).
    threads : int, optional
        Threads to use (default: all that Numba has).
    progress : bool
        Show a progress bar (terminal or Jupyter), after a line saying so when
        the kernel for these strategies compiles (their first run on this machine).
    client : distributed.Client, optional
        Play on this Dask cluster instead, in chunks of games (see
        :mod:`ohhell_sim.run.dask`); the result is identical.  ``threads`` is
        then the Numba threads per task on the workers.
    check : bool
        The check mode, for a new or edited strategy: user code compiled with
        bounds checks (an index out of range stops the run with a
        :class:`~ohhell_sim.errors.StrategyError` naming the line), and the first
        games played again by the reference engine and compared, deal by deal.
        The kernel is separate from the normal one and slower.
    record_hands : bool
        Also keep each seat's cards as dealt, in ``result.arrays.held``
        (a ``uint64`` card mask per game, deal and seat).
    kernel : {"auto", "dedicated", "shared"}
        The compiled kernel that plays the games, which gives the same games:
        ``"dedicated"`` compiles one for these strategies (fastest per decision;
        10-40 s of compile for each new set of strategies or edit of one),
        ``"shared"`` plays every strategy on one kernel compiled once per
        machine, compiling only the strategies' own functions (an edit and a
        re-run in seconds; decisions a call dearer).  ``"auto"``: shared for a
        run of fewer than 1,000,000 games, else dedicated.

    Returns
    -------
    SimulationResult
        With ``.hands`` and ``.games`` frames and ``.to_parquet()``.

    Raises
    ------
    ValueError, TypeError
        For bad arguments, before anything is compiled or played.
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    StrategyError
        When a strategy's code raises, or cannot be compiled or followed.
    RunInterrupted
        At Ctrl-C (a ``KeyboardInterrupt``), within a second or two, even while a
        strategy's decision never returns; no games are kept
        (:func:`ohhell_sim.run.chunked.run_chunked` keeps its finished chunks).
    """
    run = check_run(rules, strategies, first_game, games, seed, threads)
    run = kernel_mode(check_mode(run, check, client), kernel)
    record_hands = check_flag("record_hands", record_hands)
    progress = check_flag("progress", progress)
    check_rows_fit(run.rules, run.games, hands=record_hands)
    new_sink = partial(Rows.empty, run.rules, hands=record_hands)
    sink = play_run(run, new_sink, client=client, progress=progress)
    seating = run.seating
    return SimulationResult(
        run.rules, seating.labels, seating.params, run.seed, run.first_game, sink.arrays
    )
