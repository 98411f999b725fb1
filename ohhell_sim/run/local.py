"""The local executor: play a run on this machine's Numba threads."""

from __future__ import annotations

from ohhell_sim.run.pipeline import (
    Sink,
    check_first_games,
    numba_threads,
    play,
    prepare_kernel,
)
from ohhell_sim.run.progress import progress_bar
from ohhell_sim.run.record import Run


def play_local(run: Run, sink: Sink, *, progress: bool = False) -> None:
    """Play the games of ``run`` into ``sink`` on this machine's threads (``run.threads``).

    With ``progress``, a first compile of the kernel says so, and then a bar
    counts the deals; its clock starts after the compile.  A seating in check
    mode first compares the run's first games with the reference engine
    (:func:`~ohhell_sim.run.pipeline.check_first_games`).

    Raises
    ------
    IllegalMoveError
        For the first game in which a strategy made an illegal move.
    StrategyError
        When strategy code raised, or, in check mode, indexed out of range or
        played otherwise than in the reference engine.
    """
    with numba_threads(run.threads):
        prepare_kernel(run.seating, run.rules, sink)
        if run.seating.checked:
            check_first_games(run)
        with progress_bar(progress, run.games, run.rules.n_deals) as advance:
            play(run, sink, advance)
