"""Where a seat bids in a deal: its position counted from the dealer's left."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def bidding_position(seat: ArrayLike, dealer: ArrayLike, players: ArrayLike) -> np.ndarray:
    """Position of ``seat`` in the bidding of a deal dealt by ``dealer``.

    Position 0 bids first and leads the first trick (the dealer's left);
    ``players - 1`` is the dealer, who bids last.  Counted around the whole
    table: a seat eliminated under ``fault_limit`` still counts.

    Parameters
    ----------
    seat, dealer, players : array_like of int
        Broadcast together.

    Returns
    -------
    numpy.ndarray
        ``int64`` positions in ``0..players-1``.

    Examples
    --------
    >>> bidding_position([0, 1, 2, 3], 3, 4).tolist()
    [0, 1, 2, 3]
    """
    seat, dealer, players = (np.asarray(a, dtype=np.int64) for a in (seat, dealer, players))
    return (seat - dealer - 1) % players
