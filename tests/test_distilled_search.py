"""``distilled_search``: ``distilled``'s card where its network is sure, a search elsewhere.

Checked on hand-built views against the two players it is made of: with no
room for the search it plays ``distilled``'s card, with the network out of the
search it plays ``adaptive_pimc``'s on the same random stream, and its bid is
``distilled``'s.
"""

from __future__ import annotations

import numpy as np
import pytest

from ohhell_sim import view as V
from ohhell_sim.strategies import adaptive_pimc, distilled, distilled_search, pimc
from ohhell_sim.strategies.distilled import network_values
from tests.test_strategies_common import SEARCH_VIEWS, decide, rng

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow

PLAYS = ("lead", "follow", "void")
BIDS = ("first bid", "dealer bid, hook")


def params(**overrides: float) -> np.ndarray:
    return distilled_search.STRATEGY.param_row(overrides)


def test_lead_over_next():
    lead = distilled_search.lead_over_next
    assert lead(np.array([1.0, 4.0, 2.5])) == pytest.approx(1.5)
    assert lead(np.array([3.0, 3.0, 1.0])) == 0.0
    assert lead(np.array([2.0])) == np.inf


@pytest.mark.parametrize("name", sorted(SEARCH_VIEWS))
def test_choices_are_legal(name):
    view = SEARCH_VIEWS[name]
    for seed in range(4):
        if view[V.PHASE] == V.PHASE_BID:
            bid = decide(distilled_search.bid, view, params(), rng(seed))
            assert 0 <= bid <= view[V.MAX_BID] and bid != view[V.FORBIDDEN_BID]
        else:
            card = decide(distilled_search.play, view, params(), rng(seed))
            assert (view[V.LEGAL] >> card) & 1


def test_it_bids_as_distilled():
    for name in BIDS:
        view = SEARCH_VIEWS[name]
        none = distilled.STRATEGY.param_row()
        assert decide(distilled_search.bid, view, params(), rng(0)) == decide(
            distilled.bid, view, none, rng(0)
        )


def test_where_the_network_is_sure_it_plays_distilleds_card():
    none = distilled.STRATEGY.param_row()
    for name in PLAYS:
        view = SEARCH_VIEWS[name]
        values = network_values(view, pimc.candidate_cards(view))
        assert distilled_search.lead_over_next(values) > 0.0, name
        for seed in range(3):
            mine = decide(distilled_search.play, view, params(sure=0.0), rng(seed))
            assert mine == decide(distilled.play, view, none, rng(seed)), (name, seed)


def test_without_the_network_it_plays_as_adaptive_pimc():
    theirs_params = adaptive_pimc.STRATEGY.param_row()
    for name in PLAYS:
        view = SEARCH_VIEWS[name]
        for seed in range(4):
            mine = decide(
                distilled_search.play, view, params(sure=1e9, cut=0.0, prior=0.0), rng(seed)
            )
            theirs = decide(adaptive_pimc.play, view, theirs_params, rng(seed))
            assert mine == theirs, (name, seed)


def test_the_cut_leaves_the_networks_best_card_alone():
    # Searched (no card is sure), but every card but the network's best is cut.
    for name in PLAYS:
        view = SEARCH_VIEWS[name]
        cards = pimc.candidate_cards(view)
        best = cards[np.argmax(network_values(view, cards))]
        mine = decide(distilled_search.play, view, params(sure=1e9, cut=1e-6), rng(0))
        assert mine == best, name
