"""``pimc`` stops playing out the cards that can no longer win, and changes nothing by it.

A card whose total cannot reach the leader's over the samples still to come is
taken out (:func:`~ohhell_sim.strategies.pimc.drop_hopeless`); the samples are
still drawn, so the random stream a card choice leaves behind, and with it every
later choice, is the one a choice playing every card out would leave.  The
decision analysis's move scorer runs the same loops: it draws the players'
samples and, summed, picks the player's card.
"""

from __future__ import annotations

import numpy as np
import pytest

from ohhell_sim import view as V
from ohhell_sim.strategies import pimc
from ohhell_sim.strategies._move_scores import card_scores
from ohhell_sim.strategies.pimc import best_average_card, candidate_cards, drop_hopeless
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from tests.test_strategies_common import SEARCH_VIEWS, decide, rng

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow


def test_only_the_cards_that_cannot_catch_up_are_dropped():
    totals = np.array([10.0, 30.0, 25.0, 29.0])
    alive = np.ones(4, dtype=np.bool_)
    drop_hopeless(totals, alive, 10.0)
    assert alive.tolist() == [False, True, True, True]
    # With no sample to come, only the totals below the best go; equal ones stay.
    totals[3] = 30.0
    drop_hopeless(totals, alive, 0.0)
    assert alive.tolist() == [False, True, False, True]


@pytest.mark.parametrize("name", ["lead", "follow", "void"])
def test_a_card_choice_draws_every_sample(name):
    view = SEARCH_VIEWS[name]
    assert candidate_cards(view).shape[0] > 1
    samples = 24
    for seed in range(3):
        played = rng(seed)
        card = decide(pimc.play, view, pimc.STRATEGY.param_row({"samples": samples}), played)
        assert (view[V.LEGAL] >> card) & 1
        drawn = rng(seed)
        plan = np.empty(PLAN_SIZE, dtype=np.int64)
        pool = np.empty(53, dtype=np.int64)
        hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
        assert prepare_sample(view, plan, pool)
        for _ in range(samples):
            assert draw_sample(plan, pool, drawn, hands)
        np.testing.assert_array_equal(played, drawn)


@pytest.mark.parametrize("name", ["lead", "follow", "void"])
def test_the_move_scorer_draws_the_players_samples(name):
    view = SEARCH_VIEWS[name]
    played, scored = rng(4), rng(4)
    cards = candidate_cards(view)
    card = decide(pimc.play, view, pimc.STRATEGY.param_row({"samples": 40}), played)
    out = np.empty((40, cards.shape[0]))
    assert card_scores(view, cards, scored, out)
    assert card == best_average_card(view, cards, out.sum(axis=0))
    np.testing.assert_array_equal(played, scored)
