"""The local executor: play a run on this machine's Numba threads."""

from __future__ import annotations

from ohhell_sim.rules import Rules
from ohhell_sim.run.pipeline import (
    Sink,
    check_first_games,
    numba_threads,
    play,
    prepare_kernel,
)
from ohhell_sim.run.progress import progress_bar
from ohhell_sim.strategy import Seating


def play_local(
    seating: Seating,
    rules: Rules,
    seed: int,
    first_game: int,
    games: int,
    sink: Sink,
    *,
    threads: int | None = None,
    progress: bool = False,
) -> None:
    """Play games ``first_game .. first_game + games - 1`` into ``sink`` (validated arguments).

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
    with numba_threads(threads):
        prepare_kernel(seating, rules, sink)
        if seating.checked:
            check_first_games(seating, rules, seed, first_game, games)
        with progress_bar(progress, games, rules.n_deals) as advance:
            play(seating, rules, seed, first_game, games, sink, advance)
