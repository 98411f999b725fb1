"""The game loop's constants, scratch arrays and the small helpers that call no strategy.

Everything here compiles once per process, whatever the strategies; the
functions that call a strategy are compiled per kernel in
:mod:`ohhell_sim.engine.game`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V

#: Games per work unit of a thread; each unit allocates its workspace once.
CHUNK_GAMES = 64
#: Fields of an error record: code, deal, seat, move (bid or card), trick (-1 before play).
ERROR_FIELDS = 5
#: ``bids`` entry of a seat that did not play a deal (eliminated, or not in a tie-break).
NOT_PLAYED = -1
#: Largest deck: two decks and the joker.
MAX_DECK = 105


class Workspace(NamedTuple):
    """One worker's scratch arrays for the games it plays (``run_games``)."""

    rngs: np.ndarray  # (MAX_SEATS + 1, 4): a random stream per seat, and the table's
    deck: np.ndarray
    # what the seat to move sees (ohhell_sim.view); not "view", which Numba reserves
    seat_view: np.ndarray
    hands: np.ndarray  # each seat's cards, a bit per card
    hands2: np.ndarray  # second copies of cards, under two decks
    passed_masks: np.ndarray  # cards each seat passed (swap variant)
    totals: np.ndarray  # each seat's points so far in the game
    err: np.ndarray  # the error record (ERROR_FIELDS) of an illegal move
    # A user strategy's own copies of its view and parameter row, made for each of
    # its decisions (engine.readonly.private_copy): whatever its code writes into
    # them, no other seat and no other game reads it.
    own_view: np.ndarray
    own_params: np.ndarray


def new_workspaces(workers: int, params_width: int) -> Workspace:
    """Fresh scratch arrays for ``workers`` workers, parameter rows ``params_width`` wide.

    Each field of the :class:`Workspace` has a leading axis, one entry per
    worker (:func:`worker_workspace`).  Made by the caller in NumPy, which
    owns them for as long as the kernel runs: a kernel that allocated them
    would compile NumPy's allocators with it (a second of a first compile).
    """
    return Workspace(
        np.zeros((workers, V.MAX_SEATS + 1, 4), dtype=np.uint64),
        np.zeros((workers, MAX_DECK), dtype=np.int64),
        np.full((workers, V.VIEW_SIZE), V.UNKNOWN, dtype=np.int64),
        np.zeros((workers, V.MAX_SEATS), dtype=np.int64),
        np.zeros((workers, V.MAX_SEATS), dtype=np.int64),
        np.zeros((workers, V.MAX_SEATS), dtype=np.int64),
        np.zeros((workers, V.MAX_SEATS), dtype=np.int64),
        np.zeros((workers, ERROR_FIELDS), dtype=np.int64),
        np.zeros((workers, V.VIEW_SIZE), dtype=np.int64),
        np.zeros((workers, params_width), dtype=np.float64),
    )


@njit(inline="always")
def worker_workspace(workspaces, worker):
    """The :class:`Workspace` of worker ``worker`` among ``workspaces`` (:func:`new_workspaces`)."""
    return Workspace(
        workspaces.rngs[worker],
        workspaces.deck[worker],
        workspaces.seat_view[worker],
        workspaces.hands[worker],
        workspaces.hands2[worker],
        workspaces.passed_masks[worker],
        workspaces.totals[worker],
        workspaces.err[worker],
        workspaces.own_view[worker],
        workspaces.own_params[worker],
    )


@njit(inline="always")
def fail(err, code, deal, seat, move, trick):
    """Write an illegal move's record into ``err``; return its code."""
    err[0] = code
    err[1] = deal
    err[2] = seat
    err[3] = move
    err[4] = trick
    return code


@njit
def top_seats(points, candidates, n):
    """Seat mask of the ``candidates`` (a seat mask) with the most ``points``."""
    top = -(1 << 62)
    for s in range(n):
        if (candidates >> s) & 1 and points[s] > top:
            top = points[s]
    best = np.int64(0)
    for s in range(n):
        if (candidates >> s) & 1 and points[s] == top:
            best |= np.int64(1) << s
    return best
