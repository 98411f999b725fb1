"""``distilled_search``: ``distilled``'s networks, with a search where they are unsure.

It bids as ``distilled`` does (the bid network, and the solved bid of a
one-card deal).  To play, the card network values every legal card (its
expected points under the active scoring tables).  When the best card leads
the next by more than ``sure`` points it is played at once, without a search
(about three fifths of the choices between two cards or more, more in small
hands).  Otherwise the cards more than ``cut`` points
below the best are set aside and ``adaptive_pimc``'s search plays the others
out on deals sampled consistently with what it knows (``simple``'s greedy
policy in every seat, sampling stopped once the choice is settled, at most
``samples`` deals).  A card's value is then its average playout points with
the network's value counted as ``prior`` samples more: the network, fitted to
many deals like these, steadies the search's few, and the search corrects
the network on the deal at hand.  A tie goes to the weaker card.

The network's values are those ``distilled`` plays by: with ``sure`` = 0
it plays ``distilled``'s card wherever the network tells the cards apart, and
with ``sure`` infinite, ``cut`` = 0 and ``prior`` = 0 it plays as
``adaptive_pimc``.  Its bids take microseconds and its searches fewer
candidates, so a deal takes less time than ``adaptive_pimc``'s.  With two
decks (declared unsupported) it plays as ``card_counter`` and bids as
``expected_tricks``.

Parameters: ``samples`` = 48 (most deals per searched card choice), ``eps`` =
0.08 and ``drop`` = 1.5 (``adaptive_pimc``'s stopping rule), ``sure`` = 0.25
(points), ``cut`` = 3 (points; 0: no cut), ``prior`` = 16 (samples).
Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim.strategies import distilled
from ohhell_sim.strategies._counting import counting_play, left_to_counting
from ohhell_sim.strategies._move_scores import card_points
from ohhell_sim.strategies.distilled import network_values
from ohhell_sim.strategies.mc_bidder import ONE_DECK_ONLY
from ohhell_sim.strategies.pimc import best_average_card, candidate_cards
from ohhell_sim.strategy.record import Strategy


@njit
def lead_over_next(values):
    """How far the best of ``values`` is above the next best (inf with one value)."""
    best = -np.inf
    second = -np.inf
    for value in values:
        if value > best:
            second = best
            best = value
        elif value > second:
            second = value
    return best - second


@njit
def searched_card(view, samples, rng, eps, drop, sure, cut, prior):
    """The network's card where it is sure, else the searched card (module docstring)."""
    if left_to_counting(view):
        return counting_play(view, False)
    cards = candidate_cards(view)
    if cards.shape[0] == 1:
        return cards[0]
    values = network_values(view, cards)
    if samples < 1 or lead_over_next(values) > sure:
        return best_average_card(view, cards, values)
    if cut > 0.0:
        keep = values >= values.max() - cut
        cards = cards[keep]
        values = values[keep]
        if cards.shape[0] == 1:
            return cards[0]
    n_choices = cards.shape[0]
    totals = np.zeros(n_choices, dtype=np.float64)
    alive = np.ones(n_choices, dtype=np.bool_)
    scores = np.empty((samples, n_choices), dtype=np.float64)
    drawn = card_points(view, cards, samples, rng, totals, alive, scores, eps, drop, False)
    if drawn < 0:  # no deal the sampler supports: the network's card
        return best_average_card(view, cards, values)
    for i in range(n_choices):
        if alive[i]:
            totals[i] = (totals[i] + prior * values[i]) / (drawn + prior)
        else:
            totals[i] = -np.inf
    return best_average_card(view, cards, totals)


@njit
def bid(view, params, rng):
    """Thin entry: ``distilled``'s bid."""
    return distilled.bid(view, params, rng)


@njit
def play(view, params, rng):
    """Thin entry: the network's card, searched where it is unsure."""
    return searched_card(
        view, np.int64(params[0]), rng, params[1], params[2], params[3], params[4], params[5]
    )


STRATEGY = Strategy(
    name="distilled_search",
    bid=bid,
    play=play,
    params={"samples": 48.0, "eps": 0.08, "drop": 1.5, "sure": 0.25, "cut": 3.0, "prior": 16.0},
    param_bounds={
        "samples": (0, None),
        "eps": (0, None),
        "drop": (0, None),
        "sure": (0, None),
        "cut": (0, None),
        "prior": (0, None),
    },
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=ONE_DECK_ONLY,
    builtin_id=13,
    colour="#882255",
    reads_scoring=True,
    quick_params={"samples": 3.0},
)
