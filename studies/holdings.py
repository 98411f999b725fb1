"""The cards behind a run's rows: trump holdings recomputed from the deal streams.

The result frames record bids, tricks and scores but not the cards.  A deal's
cards depend only on ``(seed, game, deal)``, the table size and the dealer (never
on the strategies or the scoring), so the reference engine's deal function
recreates them exactly from those; the trump suit it finds is checked against
the frame's ``trump`` column, so a mismatch stops the analysis instead of
mislabelling rows.  This uses the reference engine's stream and deal functions,
which is plain Python: a few thousand deals per second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim import reference
from ohhell_sim.rules import Rules

#: Purpose code of the deal streams in the engine's RNG keying (see ``reference``).
_DEAL_PURPOSE = reference._DEAL


def trump_holdings(hands: pd.DataFrame, seed: int, players: int) -> pd.DataFrame:
    """Trumps held per (game, deal, seat) for the deals of a canonical table.

    Parameters
    ----------
    hands : pandas.DataFrame
        Rows of one table size with ``game``, ``deal``, ``hand_size``, ``dealer``
        and ``trump`` (each distinct (game, deal) is dealt once).
    seed : int
        The run's seed.
    players : int
        Table size.

    Returns
    -------
    pandas.DataFrame
        ``game``, ``deal``, ``seat``, ``trumps`` (cards of the trump suit held;
        the canonical profile always turns up a trump).

    Raises
    ------
    AssertionError
        If a recreated deal's trump suit differs from the frame's.
    """
    rules = Rules(players=players)
    seats = list(range(players))
    deals = hands.drop_duplicates(["game", "deal"])[
        ["game", "deal", "hand_size", "dealer", "trump"]
    ].to_numpy(dtype=np.int64)
    rows = np.empty((len(deals) * players, 4), dtype=np.int64)
    for i, (game, deal, size, dealer, trump) in enumerate(deals):
        stream = reference.Stream(seed, int(game), _DEAL_PURPOSE, int(deal))
        cards, turned = reference.deal(stream, rules, seats, int(size), int(dealer), True)
        found = reference.trump_of_deal(rules, int(deal), int(size), turned)
        if found != trump:
            raise AssertionError(
                f"recreated deal {deal} of game {game} has trump {found}, the run {trump}"
            )
        for seat, hand in enumerate(cards):
            rows[i * players + seat] = (game, deal, seat, sum(c // 13 == trump for c in hand))
    return pd.DataFrame(rows, columns=["game", "deal", "seat", "trumps"])
