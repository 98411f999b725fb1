"""The run pipeline: play games ``[first_game, first_game + games)`` into a sink.

:func:`play` is the one loop over kernel batches that every executor runs (this
machine's threads, each Dask task, each chunk of a resumable run), and
:func:`run_kernel` the one place where the compiled kernel is called.  A game's
cards and every random choice depend only on ``(seed, game index)``, so any
split of the games over batches, threads, tasks and chunks gives the same games.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from types import ModuleType
from typing import Protocol

import numba
import numpy as np
from numba.core.errors import NumbaError

from ohhell_sim.engine.bundles import Failures, RunRows, Setup, Tally
from ohhell_sim.engine.workspace import CHUNK_GAMES, ERROR_FIELDS, Workspace, new_workspaces
from ohhell_sim.errors import IllegalMoveError, RunInterrupted
from ohhell_sim.results import RunArrays
from ohhell_sim.rules import Rules
from ohhell_sim.run import dispatch
from ohhell_sim.run.progress import compile_kernel
from ohhell_sim.run.record import Run
from ohhell_sim.run.sinks import CountTarget, Rows
from ohhell_sim.run.strategy_check import check_against_reference, diagnose_failure
from ohhell_sim.run.strategy_slots import seating_slots
from ohhell_sim.strategy import Seating
from ohhell_sim.strategy.compilation import check_compiles

#: Games per kernel call: the progress bar advances between calls.
BATCH_GAMES = 1 << 16
#: Games of a run in check mode that the reference engine plays again first.
CHECK_GAMES = 20


class Sink(Protocol):
    """What :func:`play` needs of a sink (see :mod:`ohhell_sim.run.sinks`)."""

    def kernel_sink(self, offset: int, count: int) -> RunArrays | CountTarget: ...

    def close(self) -> None: ...


@contextmanager
def numba_threads(threads: int | None):
    """Run the enclosed kernels on ``threads`` threads (all when None)."""
    if threads is None:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def play(run: Run, sink: Sink, advance: Callable[[int], object] | None = None) -> None:
    """Play the games of ``run`` into games ``0 ..`` of ``sink``.

    Plays in batches of :data:`BATCH_GAMES` on the current
    Numba threads, calling ``advance(n)`` after each batch of ``n`` games, then
    closes the sink.

    Raises
    ------
    IllegalMoveError
        For the first game in which a strategy made an illegal move.
    """
    for offset in range(0, run.games, BATCH_GAMES):
        count = min(BATCH_GAMES, run.games - offset)
        run_kernel(run.part(offset, count), sink.kernel_sink(offset, count))
        if advance is not None:
            advance(count)
    sink.close()


def load_kernel(seating: Seating, rules: Rules) -> ModuleType:
    """The seating's kernel module, its user strategies checked first (not compiled yet).

    The shared kernel when ``seating.shared``, else the kernel of its strategies.
    """
    # A user strategy's mistakes are found in seconds, before the kernel compile.
    for strategy in seating.user_strategies:
        check_compiles(strategy, checked=seating.checked)
    if seating.shared:
        return dispatch.shared_kernel(rules)
    return dispatch.kernel_for(seating, rules)


def prepare_kernel(seating: Seating, rules: Rules, sink: Sink) -> None:
    """Compile, or load from the cache, the kernel that :func:`play` will call for ``sink``.

    User strategies are checked first (:func:`load_kernel`), so that their
    mistakes show in seconds rather than after the compile.  Done before a
    progress bar starts, so that its clock measures the games; a compile (not a
    load) says so, with its time (see :func:`~ohhell_sim.run.progress.compile_kernel`).
    """
    kernel = load_kernel(seating, rules)
    args = (0, 0, 0, 1, *_kernel_args(seating, rules, 0, sink.kernel_sink(0, 0), 0))
    strategies = seating.distinct_strategies
    heavy = sum(s.heavy for s in strategies)
    if seating.shared:
        names, heavy = ["all strategies (the shared kernel)"], 0
    else:
        names = [s.name for s in strategies]
    compile_kernel(kernel.run_games, args, names, heavy)


def check_first_games(run: Run) -> None:
    """The check mode's comparison: the run's first games, kernel against reference engine.

    Plays the run's first games (at most :data:`CHECK_GAMES` of them) on the
    seating's kernel and again through the reference engine, with the same
    compiled strategies, before the run proper starts.

    Raises
    ------
    StrategyError
        At the first deal in which the two differ
        (:func:`~ohhell_sim.run.strategy_check.check_against_reference`).
    """
    first = run.part(0, min(run.games, CHECK_GAMES))
    sink = Rows.empty(run.rules, first.games)
    run_kernel(first, sink.kernel_sink(0, first.games))
    check_against_reference(first, sink.arrays)


def run_kernel(run: Run, kernel_sink: RunArrays | CountTarget) -> None:
    """Play the games of ``run`` on its seating's kernel, on the current Numba threads.

    Game ``first_game + i`` goes to game ``i`` of ``kernel_sink``.

    Raises
    ------
    IllegalMoveError
        For the first game in which a strategy made an illegal move.
    """
    seating, rules, first_game, count = run.seating, run.rules, run.first_game, run.games
    kernel = load_kernel(seating, rules)
    bundles = _kernel_args(seating, rules, run.seed, kernel_sink, count)
    try:
        _run_workers(kernel.run_games, first_game, count, bundles, numba.get_num_threads())
    except NumbaError:
        raise
    except Exception as error:
        # Raised by strategy code inside the compiled kernel: find which.
        diagnosed = diagnose_failure(run, error)
        # The Python exception that reproduced it says more than the kernel's SystemError.
        raise diagnosed from (diagnosed.__cause__ or error)
    errors, abort = bundles[-1]
    if abort[0] < count:
        slot = int(np.argmin(errors[:, ERROR_FIELDS]))
        record = errors[slot]
        raise illegal_move(seating, rules, first_game + int(record[ERROR_FIELDS]), record)


#: Seconds the threads get to finish their game after Ctrl-C before they are left behind.
STOP_SECONDS = 1.0
#: How often the waiting thread wakes to let Ctrl-C in.
_WAKE_SECONDS = 0.1
# Threads left running a decision that never returned, with the arrays they use
# (the kernel holds no references of its own to them): kept for as long as they run.
_LEFT_RUNNING: list[tuple[list[threading.Event], tuple]] = []


def _run_workers(run_games, first_game: int, count: int, bundles: tuple, workers: int) -> None:
    # The kernel releases the GIL: each worker plays its share of the games on a
    # thread of its own (see engine.game.run_games), while this thread waits where
    # Ctrl-C can reach it, even when a strategy's decision never returns.  It waits
    # on events, not Thread.join: a join that Ctrl-C interrupts marks a running
    # thread as finished.
    workers = max(1, min(workers, -(-count // CHUNK_GAMES)))
    raised: list[BaseException] = []
    finished = [threading.Event() for _ in range(workers)]

    def work(worker: int) -> None:
        try:
            run_games(first_game, count, worker, workers, *bundles)
        except BaseException as error:  # re-raised by the waiting thread
            raised.append(error)
        finally:
            finished[worker].set()

    for worker in range(workers):
        name = f"ohhell-kernel-{worker}"
        threading.Thread(target=work, args=(worker,), name=name, daemon=True).start()
    try:
        for done in finished:
            while not done.wait(_WAKE_SECONDS):
                pass
    except KeyboardInterrupt:
        raise _stop(finished, bundles) from None
    if raised:
        raise raised[0]


def _stop(finished: list[threading.Event], bundles: tuple) -> RunInterrupted:
    # Every worker stops before its next game (engine.game.run_games reads abort).
    _, abort = bundles[-1]
    abort[0] = -1
    deadline = time.monotonic() + STOP_SECONDS
    for done in finished:
        done.wait(max(0.0, deadline - time.monotonic()))
    running = [done for done in finished if not done.is_set()]
    _LEFT_RUNNING[:] = [(r, b) for r, b in _LEFT_RUNNING if not all(e.is_set() for e in r)]
    if not running:
        return RunInterrupted("run stopped by Ctrl-C")
    _LEFT_RUNNING.append((running, bundles))
    return RunInterrupted(
        f"run stopped by Ctrl-C; a strategy's decision has not returned after "
        f"{STOP_SECONDS:g} s (a loop that never ends?): {len(running)} thread(s) run on "
        "until Python exits; oh.check_strategy(name, time_limit=1) finds the decision",
        stuck=len(running),
    )


def _kernel_args(
    seating: Seating,
    rules: Rules,
    seed: int,
    kernel_sink: RunArrays | CountTarget,
    count: int,
) -> tuple[Setup, RunRows, Tally, Workspace, Failures]:
    """The bundles that engine.game.run_games plays ``count`` games into, after its
    first four arguments (the first game, the count, the worker and the workers)."""
    if isinstance(kernel_sink, CountTarget):
        rows = kernel_sink.scratch
        slots = kernel_sink.slots
        tally = Tally(kernel_sink.total_low, slots.outcomes, slots.deals, slots.totals, slots.wins)
    else:
        rows = kernel_sink
        # Counts with no slots: the kernel keeps the rows.
        tally = Tally(0, *(np.zeros((0,) * ndim, np.int64) for ndim in (6, 4, 3, 3)))
    # A variant's arrays that the run does not keep get one row of scratch, so
    # that every run of the kernel shares one compiled signature.
    trailing = rows.bids.shape[1:]
    faults = rows.faults if len(rows.faults) else np.zeros((1, *trailing), np.int16)
    passed = rows.passed if len(rows.passed) else np.zeros((1, *trailing, 2), np.int8)
    held = rows.held if len(rows.held) else np.zeros((1, trailing[0], 0), np.uint64)
    run_rows = RunRows(
        rows.dealers,
        rows.trumps,
        rows.bids,
        rows.tricks,
        rows.scores,
        rows.winners,
        faults,
        passed,
        held,
    )
    # One record per worker; there are at most as many workers as Numba threads.
    errors = np.zeros((numba.config.NUMBA_NUM_THREADS, ERROR_FIELDS + 1), dtype=np.int64)
    errors[:, ERROR_FIELDS] = count
    failures = Failures(errors, np.full(1, count, dtype=np.int64))
    workspaces = new_workspaces(numba.config.NUMBA_NUM_THREADS, seating.params.shape[1])
    sids = seating_slots(seating) if seating.shared else seating.dispatch_ids()
    setup = Setup(seed, rules.to_array(), rules.hand_sizes(), sids, seating.params)
    return setup, run_rows, tally, workspaces, failures


def illegal_move(seating: Seating, rules: Rules, game: int, record: np.ndarray) -> IllegalMoveError:
    """The error for the kernel's error ``record`` (``ERROR_FIELDS`` values) of ``game``."""
    code, deal, seat, move, trick = (int(x) for x in record[:ERROR_FIELDS])
    return IllegalMoveError(
        seating.strategies[seat].name,
        game,
        deal,
        seat,
        move,
        code,
        trick,
        int(rules.hand_sizes()[deal]),
    )
