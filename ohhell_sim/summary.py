"""Summary runs: counts aggregated inside the kernel, in memory that does not grow.

:func:`summarise` plays games like :func:`ohhell_sim.simulate` but keeps no
per-deal rows: each Numba thread adds every finished game into its own set of
count arrays, and the sets are summed at the end.  All counts are integers, so
the sum is the same whatever the threads and the batching; memory depends on the
rules (hand sizes, seats), never on the number of games.

The count arrays (:class:`SummaryCounts`) hold everything the studies need:

``outcomes[hand_size, position, seat, bid, tricks]``
    deals played by ``seat`` at ``position`` (0 = first to bid, the dealer's
    left; ``players - 1`` = the dealer) with that bid and trick count.  Bids,
    tricks, made and zero-bid rates follow, and so do scores, which are a
    function of bid, tricks and hand size under every scoring table.
``deals[hand_size, dealer_bid, others_total]``
    deals by the dealer's bid and the sum of the other bids: the hook's
    forbidden bid, how often it binds, and over- and under-bid totals.
``totals[seat, total - total_low]``
    histogram of game totals (tie-break points included).
``wins[seat, k]``
    games the seat won as one of ``k`` tied winners (its win share is 1/k).

Only scheduled deals are counted in ``outcomes`` and ``deals``; the tie-break
deal of that variant shows in the totals and wins.  A seat eliminated under the
catastrophe rule counts no deals after its elimination, and its position is
still its distance from the dealer round the table.

:meth:`RunSummary.from_result` computes the same counts from a full
:class:`~ohhell_sim.results.SimulationResult`, with NumPy instead of the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from ohhell_sim.arguments import check_flag
from ohhell_sim.results import (
    SUMMARY_FILE,
)
from ohhell_sim.rules import Rules
from ohhell_sim.run.counts import SummaryCounts, total_bounds
from ohhell_sim.run.executors import play_run
from ohhell_sim.run.run_summary import TABLE_KEYS, RunSummary
from ohhell_sim.run.sinks import Counts
from ohhell_sim.run.validation import check_mode, check_run, kernel_mode
from ohhell_sim.strategy import SeatSpec

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["SUMMARY_FILE", "TABLE_KEYS", "RunSummary", "SummaryCounts", "summarise", "total_bounds"]


def summarise(
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
    kernel: str = "auto",
) -> RunSummary:
    """Play ``games`` games like :func:`ohhell_sim.simulate`, keeping only summary counts.

    The games, and so the counts, are exactly those of ``simulate`` with the same
    arguments (:meth:`RunSummary.from_result` of its result is equal), but memory
    stays flat however many games are played: use it for runs of 10**7 deals and
    more.

    Parameters
    ----------
    rules : Rules
        The rules to play.
    strategies : sequence
        One spec per seat, as for :func:`ohhell_sim.simulate`.
    games : int
        Number of games, at least 1.
    seed : int
        Seed of the run, ``0 .. 2**63 - 1``.
    first_game : int
        Index of the first game.
    threads : int, optional
        Threads to use (default: all that Numba has).
    progress : bool
        Show a progress bar (terminal or Jupyter) with deals per second.
    client : distributed.Client, optional
        Play on this Dask cluster instead, in chunks of games, and add up the
        chunks' counts; the result is identical.
    check : bool
        The check mode, as for :func:`ohhell_sim.simulate` (the first games are
        compared with the reference engine before the counting starts).
    kernel : {"auto", "dedicated", "shared"}
        The compiled kernel that plays the games, as for :func:`ohhell_sim.simulate`.

    Returns
    -------
    RunSummary

    Raises
    ------
    ValueError, TypeError
        For bad arguments, before anything is compiled or played.
    IllegalMoveError
        When a strategy returns an illegal bid or card (the first such game).
    StrategyError
        When a strategy's code raises, or cannot be compiled or followed.
    RunInterrupted
        At Ctrl-C (a ``KeyboardInterrupt``), within a second or two, even while a
        strategy's decision never returns.
    """
    run = check_run(rules, strategies, first_game, games, seed, threads)
    run = kernel_mode(check_mode(run, check, client), kernel)
    progress = check_flag("progress", progress)
    sink = play_run(run, partial(Counts.empty, run.rules), client=client, progress=progress)
    return RunSummary(
        run.rules, run.seating.labels, run.seed, run.first_game, run.games, sink.counts
    )
