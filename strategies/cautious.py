"""``cautious``: bids zero and ducks (the example of the docs' "Writing a strategy").

Play it from the command line with
``--strategies strategies/cautious.py:cautious,simple,simple,random``,
or copy it as a start for your own.
"""

from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import highest_by_power, lowest_by_power, winning_cards


@njit
def cautious_bid(view, params, rng):
    bid = 0  # always promise nothing...
    if bid == view[V.FORBIDDEN_BID]:  # ...unless the hook forbids it
        bid = 1
    return bid


@njit
def cautious_play(view, params, rng):
    legal = view[V.LEGAL]
    losers = legal & ~winning_cards(view)
    if losers:  # duck with the highest card that loses
        return highest_by_power(losers, view[V.LED_SUIT], view[V.TRUMP])
    return lowest_by_power(legal, view[V.LED_SUIT], view[V.TRUMP])


oh.register_strategy(
    "cautious", cautious_bid, cautious_play, description="Bids zero and ducks.", replace=True
)

if __name__ == "__main__":  # run as a script or a notebook cell; `--import` only registers
    seats = ["cautious", "simple", "simple", "random"]
    result = oh.simulate(oh.Rules(players=4), seats, games=5000)
