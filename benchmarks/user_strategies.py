"""User strategies to time the engine's user path: built-ins registered again, and the docs' own.

The engine gives a user strategy copies of its view and parameter row for each
decision (``ohhell_sim.engine.readonly.private_copy``); a built-in gets the
arrays themselves.  ``user_simple`` and ``user_random`` are the built-ins'
functions registered as user strategies, so that an A/B of them against
``simple`` and ``random`` measures that cost alone; ``cautious`` is the example
of docs/writing-a-strategy.md.  Import it where a strategy is timed::

    python benchmarks/ab_interleaved.py /tmp/before . --import benchmarks/user_strategies.py \\
        --strategy user_simple
"""

from __future__ import annotations

from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import highest_by_power, lowest_by_power, winning_cards

for builtin in ("simple", "random"):
    strategy = oh.get_strategy(builtin)
    oh.register_strategy(
        f"user_{builtin}",
        strategy.bid,
        strategy.play,
        params=strategy.params,
        stochastic=strategy.stochastic,
        replace=True,
    )


@njit
def cautious_bid(view, params, rng):
    bid = 0
    if bid == view[V.FORBIDDEN_BID]:
        bid = 1
    return bid


@njit
def cautious_play(view, params, rng):
    legal = view[V.LEGAL]
    losers = legal & ~winning_cards(view)
    if losers:
        return highest_by_power(losers, view[V.LED_SUIT], view[V.TRUMP])
    return lowest_by_power(legal, view[V.LED_SUIT], view[V.TRUMP])


oh.register_strategy("cautious", cautious_bid, cautious_play, replace=True)
