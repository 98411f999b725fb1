"""``pimc``: perfect-information Monte Carlo play, with the Monte Carlo bid.

At every card it must choose, it deals the cards it cannot see at random,
``samples`` times, consistently with the play so far: each player gets as many
cards as they still hold, no card of a suit they have shown void in, and the
neighbour on its left keeps the cards it passed in the swap, every such deal
equally likely.  For every sample
and every legal card (cards that are equivalent, adjacent in a suit with no
unseen card between them, are tried once), it plays the card and plays the rest
of the deal out with a fast policy (``simple``'s greedy play for every seat,
each aiming at its bid), and scores the deal for itself under the active
scoring tables (a playout stops once its bid is surely missed, where the tables
give every such miss the same points).  It plays the card with the best
average score; the same samples serve every card.  This is Ginsberg's
determinized Monte Carlo search of the bridge program GIB (2001), the baseline
of most trick-taking game programs; its known flaw (it assumes it will know
the hidden cards later, "strategy fusion") matters little when the playout
policy is itself a simple one.

It bids with ``mc_bidder``'s :func:`ohhell_sim.strategies.mc_bidder.mc_bid`
(``bid_samples`` samples).  With two decks (declared unsupported, as for
``mc_bidder``) it falls back to ``card_counter``'s play and ``expected_tricks``'s bid.

Parameters: ``samples`` = 24 (deals sampled per card choice), ``bid_samples``
= 64.  Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategies import mc_bidder
from ohhell_sim.strategies._common import unseen_mask
from ohhell_sim.strategies._counting import counting_play, left_to_counting
from ohhell_sim.strategies._move_scores import card_points
from ohhell_sim.strategies._move_scores import drop_hopeless as drop_hopeless  # re-exported
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import card_power, lowest_card, popcount


@njit
def distinct_cards(legal, live):
    """``legal`` less the cards equivalent to a lower legal card of the same suit.

    Two cards are equivalent when no ``live`` card (one that might still be
    played against them) lies between them in rank.
    """
    out = np.int64(0)
    prev = -1
    m = legal
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        if prev >= 0 and prev // 13 == card // 13 and card < 52:
            between = ((np.int64(1) << card) - 1) & ~((np.int64(2) << prev) - 1)
            if live & between == 0:
                prev = card
                continue
        out |= np.int64(1) << card
        prev = card
    return out


@njit
def distinct_choices(view, unseen):
    """The legal cards less those equivalent to a lower one (:func:`distinct_cards`), as a mask.

    The live cards that can separate two legal cards are ``unseen``
    (:func:`ohhell_sim.strategies._common.unseen_mask`) and those in the current trick.
    """
    in_trick = np.int64(0)
    for s in range(view[V.N_PLAYERS]):
        if view[V.TRICK_CARDS_BASE + s] >= 0:
            in_trick |= np.int64(1) << view[V.TRICK_CARDS_BASE + s]
    return distinct_cards(view[V.LEGAL], unseen | in_trick)


@njit
def candidate_cards(view):
    """The legal cards worth searching, weakest first: one of each run of equivalent cards.

    Cards still in other hands or in the current trick are the live ones that can
    separate two legal cards (:func:`distinct_cards`).
    """
    choices = distinct_choices(view, unseen_mask(view))
    cards = np.empty(popcount(choices), dtype=np.int64)
    for i in range(cards.shape[0]):
        cards[i] = lowest_card(choices)
        choices &= choices - 1
    return cards


@njit
def best_average_card(view, cards, totals):
    """The card of ``cards`` with the highest total; on ties the weaker card.

    ``cards`` are scanned weakest first, as :func:`distinct_cards` lists them.
    """
    led_now = view[V.LED_SUIT]
    trump = view[V.TRUMP]
    choice = -1
    for i in range(cards.shape[0]):
        if (
            choice < 0
            or totals[i] > totals[choice] + 1e-9
            or (
                abs(totals[i] - totals[choice]) <= 1e-9
                and card_power(cards[i], led_now, trump) < card_power(cards[choice], led_now, trump)
            )
        ):
            choice = i
    return cards[choice]


@njit
def pimc_card(view, samples, rng, eps=0.0, drop=0.0):
    """The card of best average playout score (module docstring).

    With ``eps`` > 0 the sampling is sequential (:mod:`ohhell_sim.strategies._sequential`):
    ``samples`` is the most it draws, and it stops once no card could beat the
    leading one by more than ``eps`` points in expectation, dropping on the way
    the cards more than ``drop`` standard errors behind (0: none).  With
    ``eps`` = 0 it draws all ``samples``, and stops playing out a card once it
    cannot end with the best total (:func:`drop_hopeless`); the samples are
    still drawn, so that the random stream goes on as it would.
    """
    if left_to_counting(view) or samples < 1:
        return counting_play(view, False)
    cards = candidate_cards(view)
    n_choices = cards.shape[0]
    if n_choices == 1:
        return cards[0]
    totals = np.zeros(n_choices, dtype=np.float64)
    alive = np.ones(n_choices, dtype=np.bool_)
    # The scores per sample, kept for the stopping rule only.
    scores = np.empty((samples if eps > 0.0 else 0, n_choices), dtype=np.float64)
    if card_points(view, cards, samples, rng, totals, alive, scores, eps, drop, eps <= 0.0) < 0:
        return counting_play(view, False)
    for i in range(n_choices):
        if not alive[i]:
            totals[i] = -np.inf
    return best_average_card(view, cards, totals)


@njit
def bid(view, params, rng):
    """Thin entry: ``mc_bidder``'s bid with ``bid_samples`` samples."""
    return mc_bidder.mc_bid(view, np.int64(params[1]), rng)


@njit
def play(view, params, rng):
    """Thin entry: the Monte Carlo card with ``samples`` samples."""
    return pimc_card(view, np.int64(params[0]), rng)


STRATEGY = Strategy(
    name="pimc",
    bid=bid,
    play=play,
    params={"samples": 24.0, "bid_samples": 64.0},
    param_bounds={"samples": (0, None), "bid_samples": (0, None)},
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=mc_bidder.ONE_DECK_ONLY,
    builtin_id=7,
    colour="#332288",
    reads_scoring=True,
    quick_params={"samples": 3.0, "bid_samples": 3.0},
)
