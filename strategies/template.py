"""``template``: a strategy to copy and make your own.

It bids the cards likely to take a trick (aces and kings of side suits, trumps
from the queen up, scaled by a parameter) and plays to make its bid exactly:
while it still needs tricks it wins as cheaply as it can, once it has them it
ducks with its highest card that loses.

Copy the file, rename the strategy (the name given to ``register_strategy``
and the file name, so that ``--strategies my_file.py:my_name`` finds it), and
change ``template_bid`` and ``template_play``.  Check it in seconds with
``oh.check_strategy("my_name")`` before a long run, and play it with::

    ohhell simulate --players 4 --strategies strategies/template.py:template,simple,simple,simple

Everything a player may know is in ``view`` (``ohhell_sim/view.py`` lists its
fields); ``params`` is the seat's parameter row, in the order they are declared
below; ``rng`` is the seat's own random stream, for ``ohhell_sim.strategy.tools.below``.
"""

from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import (
    highest_by_power,
    lowest_by_power,
    popcount,
    winning_cards,
)

RANKS = 13
ACE = RANKS - 1
KING = RANKS - 2
QUEEN = RANKS - 3


@njit
def likely_winners(hand, trump):
    """The cards of ``hand`` that usually take a trick: high side cards and high trumps."""
    count = 0
    for suit in range(4):
        cards = (hand >> (suit * RANKS)) & ((1 << RANKS) - 1)
        if suit == trump:
            count += popcount(cards >> QUEEN)  # queen, king, ace of trumps
        else:
            count += popcount(cards >> KING)  # king and ace
    return count


@njit
def template_bid(view, params, rng):
    boldness = params[0]
    bid = round(boldness * likely_winners(view[V.HAND], view[V.TRUMP]))
    bid = min(max(bid, 0), view[V.MAX_BID])
    if bid == view[V.FORBIDDEN_BID]:  # the hook: the dealer may not make the total fit
        bid = bid + 1 if bid < view[V.MAX_BID] else bid - 1
    return bid


@njit
def template_play(view, params, rng):
    seat = view[V.SEAT]
    needed = view[V.BIDS_BASE + seat] - view[V.TRICKS_WON_BASE + seat]
    legal = view[V.LEGAL]
    led, trump = view[V.LED_SUIT], view[V.TRUMP]
    winners = winning_cards(view)
    if needed > 0 and winners:
        return lowest_by_power(winners, led, trump)  # win as cheaply as possible
    losers = legal & ~winners
    if losers:
        return highest_by_power(losers, led, trump)  # shed the card most likely to win later
    return lowest_by_power(legal, led, trump)


oh.register_strategy(
    "template",
    template_bid,
    template_play,
    params={"boldness": 1.0},
    param_bounds={"boldness": (0.0, None)},
    description="Bids its high cards and plays to make the bid exactly: a strategy to copy.",
    replace=True,
)
