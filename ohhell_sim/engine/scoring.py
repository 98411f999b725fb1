"""The scoring tables and the hook over whole arrays, for analysis after a run.

Every rule is written once, in :mod:`ohhell_sim.engine.core`: the kernel scores
one player at a time with :func:`~ohhell_sim.engine.core.deal_points` and
forbids the dealer's bid with :func:`~ohhell_sim.engine.core.forbidden_bid`.
The functions here apply those same functions element by element to NumPy
arrays (broadcast together), for code that scores outcomes after a run: the
summaries, the exact solver, the bounds of the studies.  The reference engine
keeps its own plain scoring: it is the independent oracle of the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import ArrayLike

from ohhell_sim.engine.core import deal_points, forbidden_bid
from ohhell_sim.rules.layout import R_HOOK
from ohhell_sim.rules.model import Rules


@njit
def _points_each(bids, tricks, hand_sizes, rules, out):
    for i in range(out.shape[0]):
        out[i] = deal_points(bids[i], tricks[i], hand_sizes[i], rules)


@njit
def _forbidden_each(hook, hand_sizes, totals, out):
    for i in range(out.shape[0]):
        out[i] = forbidden_bid(hook, hand_sizes[i], totals[i])


def _flat_int64(*arrays: ArrayLike) -> tuple[tuple[int, ...], list[np.ndarray]]:
    # Broadcast, then lay each out flat and contiguous for the loops above.
    broadcast = np.broadcast_arrays(*(np.asarray(a, dtype=np.int64) for a in arrays))
    shape = broadcast[0].shape
    return shape, [np.ascontiguousarray(a).reshape(-1) for a in broadcast]


def deal_points_array(
    bid: ArrayLike, tricks: ArrayLike, hand_size: ArrayLike, rules: Rules
) -> np.ndarray:
    """Points of a player who bid ``bid`` and took ``tricks`` in a deal of ``hand_size`` cards.

    Parameters
    ----------
    bid, tricks, hand_size : array_like of int
        Broadcast together.
    rules : Rules
        The scoring tables (``made``, ``zero``, ``over``, ``under``, ``all_bonus``,
        ``double_all``, ``trick_points``).

    Returns
    -------
    numpy.ndarray
        ``int64`` points, of the broadcast shape.

    Examples
    --------
    >>> int(deal_points_array(3, 3, 10, Rules()))
    13
    >>> deal_points_array([2, 2], [4, 1], 5, Rules(over="-diff")).tolist()
    [-2, 0]
    """
    shape, (bids, taken, sizes) = _flat_int64(bid, tricks, hand_size)
    out = np.empty(bids.shape[0], dtype=np.int64)
    _points_each(bids, taken, sizes, rules.to_array(), out)
    return out.reshape(shape)


def forbidden_bid_array(hand_size: ArrayLike, others_total: ArrayLike, rules: Rules) -> np.ndarray:
    """The bid the hook forbids a dealer after the others bid ``others_total``; -1 if none.

    Parameters
    ----------
    hand_size, others_total : array_like of int
        Broadcast together.
    rules : Rules
        Whether and where the hook binds (``rules.hook``, ``rules.hook_one_card``).

    Returns
    -------
    numpy.ndarray
        ``int64``: ``hand_size - others_total`` when the hook binds a deal of
        ``hand_size`` cards and that is a possible bid (``0..hand_size``), else -1.

    Examples
    --------
    >>> forbidden_bid_array(5, [3, 6], Rules()).tolist()
    [2, -1]
    >>> forbidden_bid_array([1, 2], 0, Rules(hook_one_card=False)).tolist()
    [-1, 2]
    """
    shape, (sizes, totals) = _flat_int64(hand_size, others_total)
    out = np.empty(sizes.shape[0], dtype=np.int64)
    _forbidden_each(rules.to_array()[R_HOOK], sizes, totals, out)
    return out.reshape(shape)
