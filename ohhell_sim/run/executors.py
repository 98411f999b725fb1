"""Choose the executor of a run: this machine's threads, or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ohhell_sim.run.local import play_local
from ohhell_sim.run.pipeline import Sink
from ohhell_sim.run.record import Run

if TYPE_CHECKING:
    from distributed import Client


def play_run(
    run: Run,
    new_sink: Callable[[int], Sink],
    *,
    client: Client | None = None,
    progress: bool = False,
) -> Sink:
    """Play ``run`` into ``new_sink(run.games)`` and return that sink.

    On ``client``'s Dask cluster when given (:mod:`ohhell_sim.run.dask`, which
    is imported only then), else on this machine's threads
    (:func:`~ohhell_sim.run.local.play_local`); the sink's contents are the same.
    """
    if client is not None:
        from ohhell_sim.run.dask import play_on_client

        return play_on_client(client, run, new_sink, progress=progress)
    sink = new_sink(run.games)
    play_local(run, sink, progress=progress)
    return sink
