"""Choose the executor of a run: this machine's threads, or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ohhell_sim.rules import Rules
from ohhell_sim.run.local import play_local
from ohhell_sim.run.pipeline import Sink
from ohhell_sim.strategy import Seating

if TYPE_CHECKING:
    from distributed import Client


def play_run(
    seating: Seating,
    rules: Rules,
    seed: int,
    first_game: int,
    games: int,
    new_sink: Callable[[int], Sink],
    *,
    client: Client | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> Sink:
    """Play a validated run into ``new_sink(games)`` and return that sink.

    On ``client``'s Dask cluster when given (:mod:`ohhell_sim.run.dask`, which
    is imported only then), else on this machine's threads
    (:func:`~ohhell_sim.run.local.play_local`); the sink's contents are the same.
    """
    if client is not None:
        from ohhell_sim.run.dask import play_on_client

        return play_on_client(
            client,
            rules,
            seating,
            games,
            seed,
            new_sink,
            first_game=first_game,
            threads=threads,
            progress=progress,
        )
    sink = new_sink(games)
    play_local(seating, rules, seed, first_game, games, sink, threads=threads, progress=progress)
    return sink
