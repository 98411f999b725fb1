"""The kernel's arguments, bundled by what they are for.

Numba passes a named tuple of arrays as its arrays, one by one, so a bundle
costs nothing at a call; it keeps each function's argument list short and lets
the callers hand on a bundle rather than mirror a list of two dozen names.

A field read into a local variable is a new reference to its array: Numba
updates its reference count when the local is bound and again when it dies
(a call into the runtime each time, even for the kernel's unowned arrays), so
the game loop reads a field where it uses it, except in a deal's inner loops.
Every field is an array or an integer; the bundles are built in Python by
:mod:`ohhell_sim.run.pipeline` (:class:`Setup`, :class:`RunRows`,
:class:`Tally`, the workers' :class:`~ohhell_sim.engine.workspace.Workspace`,
:class:`Failures`) and in the kernel (a worker's ``Workspace``, :class:`GameRows`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Setup(NamedTuple):
    """What every game of a run shares."""

    seed: int
    rules: np.ndarray  # Rules.to_array()
    hand_sizes: np.ndarray  # cards per scheduled deal
    sids: np.ndarray  # each seat's strategy, by its index in the kernel's dispatch
    params: np.ndarray  # each seat's parameter row


class RunRows(NamedTuple):
    """Output rows of a run's games, fields as :class:`ohhell_sim.results.RunArrays`.

    ``faults``, ``passed`` and ``held`` may hold one row of scratch when their
    variant is off or the hands are not kept.
    """

    dealers: np.ndarray
    trumps: np.ndarray
    bids: np.ndarray
    tricks: np.ndarray
    scores: np.ndarray
    winners: np.ndarray
    faults: np.ndarray
    passed: np.ndarray
    held: np.ndarray


class GameRows(NamedTuple):
    """One game's deal rows: a row of each :class:`RunRows` field but ``winners``."""

    dealers: np.ndarray  # (deal rows,)
    trumps: np.ndarray  # (deal rows,)
    bids: np.ndarray  # (deal rows, seats)
    tricks: np.ndarray  # (deal rows, seats)
    scores: np.ndarray  # (deal rows, seats)
    faults: np.ndarray  # (deal rows, seats), or one game's scratch
    passed: np.ndarray  # (deal rows, seats, 2), or one game's scratch
    held: np.ndarray  # (deal rows, seats), or one game's scratch


class Tally(NamedTuple):
    """Summary counts, one slot per worker (see :mod:`ohhell_sim.summary`).

    A run that keeps its rows passes counts with no slots.
    """

    total_low: int  # the lowest game total: offset of the totals histogram
    outcomes: np.ndarray
    deals: np.ndarray
    totals: np.ndarray
    wins: np.ndarray


class Failures(NamedTuple):
    """Where the workers report illegal moves (see ``run_games``)."""

    errors: np.ndarray  # (workers, ERROR_FIELDS + 1)
    abort: np.ndarray  # (1,)
