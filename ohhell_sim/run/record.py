"""The record of a run: which games of which table, from which seed, on how many threads."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Seating


@dataclass(frozen=True)
class Run:
    """Games ``first_game .. first_game + games - 1`` of ``seating`` under ``rules``.

    Made by :func:`ohhell_sim.run.validation.check_run` from a user's arguments, and
    taken as it is by the pipeline (:func:`~ohhell_sim.run.pipeline.play`) and
    every executor: game *g* of any run with the same rules, seating and seed is
    the same game, whatever the range, the threads or the executor.

    Attributes
    ----------
    rules : Rules
    seating : Seating
        One strategy and parameter row per seat.
    seed : int
        The run's seed.
    first_game, games : int
        The range of games played.
    threads : int or None
        Numba threads to play on (``None``: all that Numba has); on a Dask
        cluster, the threads per task.
    """

    rules: Rules
    seating: Seating
    seed: int
    first_game: int
    games: int
    threads: int | None = None

    def part(self, start: int, count: int) -> Run:
        """Games ``start .. start + count - 1`` of this run, counted from its first game."""
        return dataclasses.replace(self, first_game=self.first_game + start, games=count)
