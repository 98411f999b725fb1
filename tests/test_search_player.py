"""Scripted tests of ``bayes_pimc``, the search player that reads the bids.

Its ``bid`` and ``play`` are called on hand-built views (:func:`make_view`): the
choices must be legal, a position with one right card must get it, and the
inference must tell an impossible bid (a random player) from a plausible one.
"""

from __future__ import annotations

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.cards import mask_of, parse_cards
from ohhell_sim.rules import Rules
from ohhell_sim.strategies import bayes_pimc
from tests.test_strategies_common import SEARCH_VIEWS, card, decide, make_view, rng

# Each compiles the sampling players' code in this process: tens of seconds.
pytestmark = pytest.mark.slow

PARAMS = bayes_pimc.STRATEGY.param_row()


@pytest.mark.parametrize("name", sorted(SEARCH_VIEWS))
def test_choices_are_legal(name):
    view = SEARCH_VIEWS[name]
    for seed in range(4):
        if view[V.PHASE] == V.PHASE_BID:
            bid = decide(bayes_pimc.bid, view, PARAMS, rng(seed))
            assert 0 <= bid <= view[V.MAX_BID] and bid != view[V.FORBIDDEN_BID]
        else:
            chosen = decide(bayes_pimc.play, view, PARAMS, rng(seed))
            assert (view[V.LEGAL] >> chosen) & 1, (name, chosen)


def test_search_ducks_now_to_win_the_last_trick_for_sure():
    # Two tricks left, one more needed; hearts led, we are last and void in hearts.
    # Trumping with the ace of spades risks a second trick with the two of
    # diamonds; the two of diamonds loses now and the ace of trumps takes the last
    # trick whatever is led.  Greedy play would take the trick now.
    played = "2C 3C 4C 5C 6C 7C 8C 9C TC 2H 3H 4H"
    view = make_view(
        "AS 2D",
        "S",
        seat=3,
        dealer=3,
        phase=V.PHASE_PLAY,
        hand_size=5,
        trick_index=3,
        bids=[1, 1, 0, 1],
        won=[1, 1, 1, 0],
        trick=["QH", "5H", "6H"],
        played=played,
    )
    assert view[V.LEGAL] == mask_of(parse_cards("AS 2D"))
    for seed in range(4):
        assert decide(bayes_pimc.play, view, PARAMS, rng(seed)) == card("2D")


def _random_share(view, prior: float) -> float:
    # The share of deals in which every opponent is drawn as a random player.
    count = 200
    hands = np.zeros((count, V.MAX_SEATS), dtype=np.int64)
    types = np.zeros(count, dtype=np.int64)
    weights = np.ones(count, dtype=np.float64)
    ok = bayes_pimc.inferred_samples(
        view, count, 4, 0.6, prior, True, rng(0), hands, types, weights
    )
    assert ok
    others = sum(1 << s for s in range(4) if s != view[V.SEAT])
    return float(np.mean(types == others))


def test_bids_no_hand_explains_read_as_a_random_field():
    # Three opponents bid all five tricks: the dealer sees the ace and king of
    # trumps in its own hand, so no competent player could hold such hands.
    wild = make_view("AS KS 2H 3D 5C", "S", seat=3, dealer=3, hand_size=5, bids=[5, 5, 5, -1])
    plausible = make_view("AS KS 2H 3D 5C", "S", seat=3, dealer=3, hand_size=5, bids=[1, 0, 1, -1])
    assert _random_share(wild, 0.5) > 0.95
    assert _random_share(plausible, 0.5) < 0.3
    # A certain prior is left alone by any evidence.
    assert _random_share(plausible, 1.0) == 1.0
    assert _random_share(wild, 0.0) == 0.0


def test_a_strong_hand_makes_a_high_need_likely():
    strong = mask_of(parse_cards("AS KS QS AH AD"))
    weak = mask_of(parse_cards("2C 3D 4H 5C 6D"))
    like = bayes_pimc.competent_likelihood
    assert like(4, strong, 3, 5, 4, 0, 5, 0.6) > like(0, strong, 3, 5, 4, 0, 5, 0.6)
    assert like(0, weak, 3, 5, 4, 0, 5, 0.6) > like(4, weak, 3, 5, 4, 0, 5, 0.6)
    # Normalised over the needs a bid can give.
    total = sum(like(k, strong, 3, 4, 4, 1, 5, 0.6) for k in range(-1, 5))
    assert total == pytest.approx(1.0)


def test_plays_whole_games_in_simulate():
    rules = Rules(players=4, schedule=(5, 3, 1))
    result = oh.simulate(rules, ["bayes_pimc", "pimc", "card_counter", "random"], 6, seed=3)
    hands = result.hands
    assert len(hands) == 6 * 3 * 4
    mine = hands[hands["strategy"] == "bayes_pimc"]
    assert ((mine["bid"] >= 0) & (mine["bid"] <= mine["hand_size"])).all()
    assert (
        hands.groupby(["game", "deal"])["tricks"].sum()
        == hands.groupby(["game", "deal"])["hand_size"].first()
    ).all()
