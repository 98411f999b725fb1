"""Summary mode: add a finished game's rows to a thread's count arrays.

See :mod:`ohhell_sim.summary` for the arrays' layout.  Integer counts, so their
sum over threads does not depend on which thread played which game.
"""

from __future__ import annotations

from numba import njit

from ohhell_sim.engine.bits import popcount
from ohhell_sim.engine.workspace import NOT_PLAYED
from ohhell_sim.rules.layout import R_N_DEALS, R_PLAYERS


@njit
def add_to_summary(rules, hand_sizes, game, winners, tally, slot):
    """Add one game's rows to slot ``slot`` of a summary's counts.

    ``game`` is the game's :class:`~ohhell_sim.engine.bundles.GameRows`,
    ``winners`` its seat mask and ``tally`` the
    :class:`~ohhell_sim.engine.bundles.Tally` (see :mod:`ohhell_sim.summary` for
    the arrays).  Scheduled deals only go into ``outcomes`` and ``deals``; a
    tie-break deal's points count in the game totals, as in the results frames.
    """
    dealers, bids, tricks, scores = game.dealers, game.bids, game.tricks, game.scores
    outcomes, deals = tally.outcomes[slot], tally.deals[slot]
    totals, wins, total_low = tally.totals[slot], tally.wins[slot], tally.total_low
    n = rules[R_PLAYERS]
    for d in range(rules[R_N_DEALS]):
        dealer = dealers[d]
        if dealer < 0:
            continue
        h = hand_sizes[d]
        others = 0
        for s in range(n):
            bid = bids[d, s]
            if bid == NOT_PLAYED:
                continue
            position = s - dealer - 1 if s > dealer else s - dealer - 1 + n
            outcomes[h, position, s, bid, tricks[d, s]] += 1
            if s != dealer:
                others += bid
        deals[h, bids[d, dealer], others] += 1
    for s in range(n):
        total = 0
        for d in range(scores.shape[0]):
            total += scores[d, s]
        totals[s, total - total_low] += 1
    tied = popcount(winners)
    for s in range(n):
        if (winners >> s) & 1:
            wins[s, tied] += 1
