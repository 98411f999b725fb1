"""The public entry point: validate, play games on the Numba kernel, frame the results."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba.core.errors import NumbaError

from ohhell_sim.engine.dispatch import kernel_for
from ohhell_sim.engine.kernel import ERROR_FIELDS
from ohhell_sim.errors import IllegalMoveError
from ohhell_sim.results import RunArrays, SimulationResult
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Seating, SeatSpec
from ohhell_sim.strategy_check import check_compiles, diagnose_failure
from ohhell_sim.validation import check_run

if TYPE_CHECKING:
    from distributed import Client

#: Games per kernel call: the progress bar advances, and Ctrl-C lands, between calls.
BATCH_GAMES = 1 << 16


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


def play_into(
    seating: Seating,
    rules: Rules,
    seed: int,
    first_game: int,
    arrays: RunArrays,
    offset: int,
    count: int,
) -> None:
    """Play games ``first_game + offset ..`` into rows ``offset .. offset + count`` of ``arrays``.

    Raises
    ------
    IllegalMoveError
        When a strategy made an illegal move in one of these games.
    """
    run_kernel(
        seating, rules, seed, first_game + offset, count, arrays.rows(offset, offset + count)
    )


def load_kernel(seating: Seating, rules: Rules) -> ModuleType:
    """The seating's kernel module, its user strategies checked first (not compiled yet)."""
    # A user strategy's mistakes are found in seconds, before the kernel compile.
    for strategy in seating.user_strategies:
        check_compiles(strategy)
    return kernel_for(seating, rules)


def prepare_kernel(seating: Seating, rules: Rules, *, announce: bool) -> ModuleType:
    """The seating's kernel, compiled now if Numba's cache does not hold it yet.

    User strategies are checked first (:func:`load_kernel`), so that their
    mistakes show in seconds rather than after the compile.  With ``announce``,
    a compile is announced on standard error with the strategies it is for, and
    its time reported after it: the first run of a new set of strategies spends
    tens of seconds there, before any game is played, and a progress bar
    created after this call measures play alone.
    """
    kernel = load_kernel(seating, rules)
    if kernel.run_games.signatures or is_cached(kernel):
        return kernel
    names = ", ".join(s.name for s in seating.distinct_strategies)
    if announce:
        print(
            f"compiling the kernel for {names} (first run only, usually 20-60 s)...",
            file=sys.stderr,
            flush=True,
        )
    started = time.perf_counter()
    # No games: the call compiles the kernel's one signature and returns.
    run_kernel(seating, rules, 0, 0, 0, RunArrays.empty(0, rules))
    if announce:
        elapsed = time.perf_counter() - started
        print(f"compiled the kernel for {names} in {elapsed:.0f} s", file=sys.stderr, flush=True)
    return kernel


def is_cached(kernel: ModuleType) -> bool:
    """Whether Numba's on-disk cache holds a compile of ``kernel``'s batch loop."""
    source = Path(kernel.__file__)
    index = source.parent / "__pycache__"
    return any(index.glob(f"{source.stem}.run_games-*.nbi"))


def run_kernel(
    seating: Seating,
    rules: Rules,
    seed: int,
    first_game: int,
    count: int,
    rows: RunArrays,
    counts: Sequence[np.ndarray] | None = None,
    total_low: int = 0,
) -> None:
    """Play games ``first_game .. first_game + count - 1`` on the seating's kernel.

    Without ``counts`` game ``i`` goes to row ``i`` of ``rows``.  With ``counts``
    (the per-thread ``outcomes, deals, totals, wins`` of
    :class:`~ohhell_sim.summary.SummaryCounts`) the games are added to them, and
    ``rows`` is scratch with one row per Numba thread.

    Raises
    ------
    IllegalMoveError
        For the first game in which a strategy made an illegal move.
    """
    kernel = load_kernel(seating, rules)
    # Off variants and the unused mode get stand-ins, so that both modes and all
    # rules share one compiled signature.
    trailing = rows.bids.shape[1:]
    faults = rows.faults if len(rows.faults) else np.zeros((1, *trailing), np.int16)
    passed = rows.passed if len(rows.passed) else np.zeros((1, *trailing, 2), np.int8)
    summary = counts is not None
    if counts is None:
        counts = [np.zeros((1,) * ndim, np.int64) for ndim in (6, 4, 3, 3)]
    # numba.get_thread_id() ranges over the whole pool, whatever set_num_threads says.
    errors = np.zeros((numba.config.NUMBA_NUM_THREADS, ERROR_FIELDS + 1), dtype=np.int64)
    errors[:, ERROR_FIELDS] = count
    abort = np.full(1, count, dtype=np.int64)
    try:
        kernel.run_games(
            first_game,
            count,
            seed,
            rules.to_array(),
            rules.hand_sizes(),
            seating.dispatch_ids(),
            seating.params,
            rows.dealers,
            rows.trumps,
            rows.bids,
            rows.tricks,
            rows.scores,
            faults,
            passed,
            rows.winners,
            summary,
            total_low,
            *counts,
            errors,
            abort,
        )
    except NumbaError:
        raise
    except Exception as error:
        # Raised by strategy code inside the compiled kernel: find which.
        diagnosed = diagnose_failure(rules, seating, seed, first_game, count, error)
        # The Python exception that reproduced it says more than the kernel's SystemError.
        raise diagnosed from (diagnosed.__cause__ or error)
    if abort[0] < count:
        slot = int(np.argmin(errors[:, ERROR_FIELDS]))
        raise illegal_move(
            seating, rules, first_game + int(errors[slot, ERROR_FIELDS]), errors[slot]
        )


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
        One per seat: a registered name, a :class:`~ohhell_sim.strategy.Strategy`, or
        ``(name, {param: value})``.
    games : int
        Number of games, at least 1.
    seed : int
        Seed of the run, ``0 .. 2**63 - 1``.
    first_game : int
        Index of the first game (to continue or split a run).
    threads : int, optional
        Threads to use (default: all that Numba has).
    progress : bool
        Show a progress bar (terminal or Jupyter).
    client : distributed.Client, optional
        Play on this Dask cluster instead, in chunks of games (see
        :mod:`ohhell_sim.distributed`); the result is identical.  ``threads`` is
        then the Numba threads per task on the workers.

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
    """
    rules, seating, first_game, games, seed, threads = check_run(
        rules, strategies, first_game, games, seed, threads
    )
    if client is not None:
        from ohhell_sim.distributed import run_on_client

        return run_on_client(
            client,
            rules,
            seating,
            games,
            seed,
            first_game=first_game,
            threads=threads,
            progress=progress,
        )

    arrays = RunArrays.empty(games, rules)
    prepare_kernel(seating, rules, announce=progress)
    with numba_threads(threads), progress_bar(progress, games, rules.n_deals) as advance:
        for offset in range(0, games, BATCH_GAMES):
            count = min(BATCH_GAMES, games - offset)
            play_into(seating, rules, seed, first_game, arrays, offset, count)
            advance(count)
    return SimulationResult(rules, seating.names, seating.params, seed, first_game, arrays)


@contextmanager
def progress_bar(enabled: bool, games: int, deals_per_game: int, done: int = 0):
    """Yield ``advance(games)``, which moves a bar counting deals (with rate and time left).

    ``done`` games of the ``games`` are finished already (a resumed run).
    """
    # tqdm.auto picks the Jupyter widget or the terminal bar; imported late as it is slow.
    from tqdm.auto import tqdm

    with tqdm(
        total=games * deals_per_game,
        initial=done * deals_per_game,
        unit="deal",
        unit_scale=True,
        disable=not enabled,
        smoothing=0.1,
    ) as bar:
        yield lambda finished: bar.update(finished * deals_per_game)
