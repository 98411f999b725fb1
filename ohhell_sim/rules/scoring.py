"""The scoring rules and the hook, vectorised with NumPy, for analysis.

The kernel scores with :func:`ohhell_sim.engine.core.deal_points` (Numba, one
player at a time, reading the rules array); this is its twin over whole arrays,
for code that scores outcomes after a run (summaries, bounds, studies), and
``tests/test_rule_params.py`` checks the two agree on every bid, trick count and
hand size under every scoring table.  The reference engine keeps its own plain
scoring: it is the independent oracle of the tests.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ohhell_sim.rules.model import Rules


def deal_points(
    rules: Rules, bid: ArrayLike, tricks: ArrayLike, hand_size: ArrayLike
) -> np.ndarray:
    """Points of a player who bid ``bid`` and took ``tricks`` in a deal of ``hand_size`` cards.

    Parameters
    ----------
    rules : Rules
        The scoring tables (``made``, ``zero``, ``over``, ``under``, ``all_bonus``,
        ``double_all``, ``trick_points``).
    bid, tricks, hand_size : array_like of int
        Broadcast together.

    Returns
    -------
    numpy.ndarray
        ``int64`` points, of the broadcast shape.

    Examples
    --------
    >>> int(deal_points(Rules(), 3, 3, 10))
    13
    >>> deal_points(Rules(over="-diff"), [2, 2], [4, 1], 5).tolist()
    [-2, 0]
    """
    bid, tricks, hand_size = np.broadcast_arrays(
        *(np.asarray(a, dtype=np.int64) for a in (bid, tricks, hand_size))
    )
    k = rules.trick_points
    made = {
        "10+bid": lambda: 10 + k * bid,
        "10*bid": lambda: 10 * bid,
        "10+bid^2": lambda: 10 + bid * bid,
        "10+2*bid": lambda: 10 + 2 * bid,
        "5+bid": lambda: 5 + bid,
    }[rules.made]()
    whole = bid == hand_size
    made = np.where(whole, made * (2 if rules.double_all else 1) + rules.all_bonus, made)
    zero = {
        "10": lambda: np.full_like(hand_size, 10),
        "5": lambda: np.full_like(hand_size, 5),
        "5+cards": lambda: 5 + hand_size,
        "10+cards": lambda: 10 + hand_size,
    }[rules.zero]()
    diff = np.abs(bid - tricks)
    miss = {
        "zero": lambda: np.zeros_like(diff),
        "taken": lambda: k * tricks,
        "-diff": lambda: -k * diff,
        "-diff^2": lambda: -diff * diff,
        "-10*diff": lambda: -10 * diff,
    }
    over = miss[rules.over]()
    under = miss[rules.under]()
    exact = np.where(bid == 0, zero, made)
    return np.where(bid == tricks, exact, np.where(tricks > bid, over, under))


def forbidden_dealer_bid(rules: Rules, hand_size: ArrayLike, others_total: ArrayLike) -> np.ndarray:
    """The bid the hook forbids a dealer after the others bid ``others_total``; -1 if none.

    Parameters
    ----------
    rules : Rules
        Whether the hook is on (``rules.hook``).
    hand_size, others_total : array_like of int
        Broadcast together.

    Returns
    -------
    numpy.ndarray
        ``int64``: ``hand_size - others_total`` when the hook is on and that is a
        possible bid (``0..hand_size``), else -1.
    """
    hand_size, others_total = np.broadcast_arrays(
        np.asarray(hand_size, dtype=np.int64), np.asarray(others_total, dtype=np.int64)
    )
    missing = hand_size - others_total
    possible = (missing >= 0) & (missing <= hand_size) & rules.hook
    return np.where(possible, missing, -1)
