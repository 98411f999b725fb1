"""Scripted tests: each built-in strategy on positions where the right move is known.

The strategies' compiled ``bid``/``play`` are called directly on views built by
:func:`test_strategies_common.make_view`.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_strategies_common import card, decide, make_view, params_of, rng

from ohhell_sim import view as V
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategies import (
    card_counter,
    expected_tricks,
    learned,
    mc_bidder,
    pimc,
    sure_tricks,
    zero,
)
from ohhell_sim.strategy.registry import check_plays

BIDDERS = {
    "sure_tricks": sure_tricks,
    "expected_tricks": expected_tricks,
    "card_counter": card_counter,
    "zero": zero,
    "mc_bidder": mc_bidder,
    "pimc": pimc,
    "learned": learned,
}


def bid_of(name: str, view: np.ndarray, **params: float) -> int:
    return decide(BIDDERS[name].bid, view, params_of(name, **params), rng())


def play_of(name: str, view: np.ndarray, **params: float) -> int:
    return decide(BIDDERS[name].play, view, params_of(name, **params), rng())


# --- bids every strategy should agree on ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BIDDERS))
def test_one_card_deal_ace_of_trumps_bids_one(name):
    view = make_view("AS", "S", seat=0, dealer=3)
    assert bid_of(name, view) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BIDDERS))
def test_one_card_deal_low_side_card_bids_zero(name):
    view = make_view("3D", "S", seat=1, dealer=0)
    assert bid_of(name, view) == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BIDDERS))
def test_dealer_steps_off_the_forbidden_bid(name):
    # 1-card deal: the others bid 0, 0, 1, so the dealer may not bid 0 (total 1).
    view = make_view("3D", "S", seat=3, dealer=3, bids=[0, 0, 1, -1])
    assert view[V.FORBIDDEN_BID] == 0
    assert bid_of(name, view) == 1
    # The ace of trumps facing bids totalling 0: bidding 1 is forbidden.
    view = make_view("AS", "S", seat=3, dealer=3, bids=[0, 0, 0, -1])
    assert bid_of(name, view) == 0


@pytest.mark.parametrize("name", sorted(BIDDERS))
def test_nullo_bids_zero(name):
    view = make_view("AS KS QS", "S", rules=Rules(players=4, nullo=True))
    assert bid_of(name, view) == 0


@pytest.mark.parametrize("name", sorted(BIDDERS))
def test_forehead_bid_reads_the_others_cards(name):
    rules = Rules(players=3, schedule=[1], forehead=True)
    view = make_view(
        "",
        "S",
        rules=rules,
        seat=0,
        dealer=2,
        hand_size=1,
        visible={1: "AS", 2: "KS"},
        trump_card="4S",
    )
    assert bid_of(name, view) == 0


# --- sure_tricks ------------------------------------------------------------------------


def test_sure_tricks_counts_the_tips():
    # Side aces 2, trump A and K 2, side king with the ace 0.5 (KD with AD): 4.5 -> 5
    view = make_view("AD KD AC AS KS 2H 3H 4H 5H 6H", "S")
    assert bid_of("sure_tricks", view) == 5
    assert bid_of("sure_tricks", view, king_value=0.0) == 4
    # An 8-9-10 of a side suit counts nothing.
    view = make_view("8H 9H TH 2C 3C", "S")
    assert bid_of("sure_tricks", view) == 0


def test_sure_tricks_small_hands_are_zero_or_one():
    view = make_view("AD AC", "S")
    assert bid_of("sure_tricks", view) == 1
    assert bid_of("sure_tricks", view, small_hand=1.0) == 2
    # Two boss trumps are two tricks whatever happens: the cap does not apply.
    assert bid_of("sure_tricks", make_view("AS KS", "S")) == 2


@pytest.mark.parametrize(
    "hand, trump, threshold, expected",
    [
        ("6H", "S", 12, 0),
        ("AH", "S", 12, 1),
        ("TH", "S", 12, 0),
        ("TH", "S", 8, 1),
        ("2S", "S", 12, 1),
        ("2S", "S", 14, 0),
    ],
)
def test_sure_tricks_one_card_threshold(hand, trump, threshold, expected):
    view = make_view(hand, trump, seat=1, dealer=0)
    assert bid_of("sure_tricks", view, one_card_threshold=threshold) == expected


# --- expected_tricks ---------------------------------------------------------------------


def test_expected_tricks_risk_shifts_the_bid():
    view = make_view("AD KD AC AS KS 2H 3H 4H 5H 6H", "S")
    base = bid_of("expected_tricks", view, risk=0.0)
    assert 3 <= base <= 6
    assert bid_of("expected_tricks", view, risk=1.0) == base + 1
    assert bid_of("expected_tricks", view, risk=-1.0) == base - 1


def test_expected_tricks_table_is_monotone_in_rank():
    table = expected_tricks.TRICK_TABLE
    assert table.shape[2:] == (3, 13)
    for p in range(table.shape[0]):
        for h in range(table.shape[1]):
            trumps = table[p, h, expected_tricks.KIND_TRUMP]
            assert trumps[-1] > 0.9 and trumps[-1] >= trumps[0]


# --- card_counter --------------------------------------------------------------------------


@pytest.mark.slow
def test_card_counter_wins_with_the_cheapest_sure_winner():
    # Hearts led; the ace of hearts is gone and nobody can trump (all spades out).
    played = "AH AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    view = make_view(
        "KH QH 2C",
        "S",
        seat=1,
        phase=V.PHASE_PLAY,
        trick=["5H"],
        played=played,
        bids=[0, 2, 0, 0],
        hand_size=5,
        trick_index=2,
    )
    # KH and QH are both sure winners (the jack is below the queen): take it with the queen.
    assert play_of("card_counter", view) == card("QH")


@pytest.mark.slow
def test_card_counter_ducks_as_high_as_possible_at_its_bid():
    view = make_view(
        "KH 9H 2H",
        "S",
        seat=1,
        phase=V.PHASE_PLAY,
        trick=["TH"],
        bids=[0, 1, 0, 0],
        won=[0, 1, 0, 0],
        hand_size=4,
        trick_index=1,
    )
    assert play_of("card_counter", view) == card("9H")


@pytest.mark.slow
def test_card_counter_draws_trumps_when_it_needs_many():
    view = make_view("KS QS JS 4D 5C", "S", seat=0, phase=V.PHASE_PLAY, bids=[5, 0, 0, 0])
    assert play_of("card_counter", view) == card("KS")


def test_card_counter_leads_a_sure_side_winner_first():
    view = make_view(
        "AD KS 4C",
        "S",
        seat=0,
        phase=V.PHASE_PLAY,
        bids=[1, 0, 0, 0],
        played="AS",
        hand_size=4,
        trick_index=1,
    )
    # AD may be trumped, KS (the ace of spades gone) cannot be beaten.
    assert play_of("card_counter", view) == card("KS")


def test_card_counter_leads_low_when_bidding_zero():
    view = make_view("AD KS 4C 2H", "S", seat=0, phase=V.PHASE_PLAY, bids=[0, 1, 1, 1])
    assert play_of("card_counter", view) in (card("4C"), card("2H"))


def test_card_counter_discards_its_most_dangerous_card_when_void():
    view = make_view(
        "AD KS 2H", "S", seat=2, phase=V.PHASE_PLAY, trick=["5C", "9C"], bids=[1, 1, 0, 1]
    )
    assert play_of("card_counter", view) == card("AD")


# --- zero -------------------------------------------------------------------------------


def test_zero_bids_zero_with_a_weak_hand_and_not_with_a_strong_one():
    weak = make_view("2H 5D 7C 3S 9D", "S")
    assert bid_of("zero", weak) == 0
    strong = make_view("AS KS QS AD AC", "S")
    assert bid_of("zero", strong) >= 3


@pytest.mark.slow
def test_zero_bidder_holding_the_lowest_card_of_the_led_suit_plays_it():
    view = make_view(
        "KH 9H 2H AS", "S", seat=1, phase=V.PHASE_PLAY, trick=["5H"], bids=[1, 0, 1, 1]
    )
    assert play_of("zero", view) == card("2H")


def test_zero_passes_its_strongest_card():
    view = make_view("2H AS 5D", "S", phase=V.PHASE_SWAP)
    assert play_of("zero", view) == card("AS")


# --- mc_bidder, pimc, learned ----------------------------------------------------------------


def test_mc_bidder_bid_moves_with_the_scoring_table():
    # A hand worth about one trick: 10*bid rewards bidding two, a rich made zero
    # (10 + cards, against 5 + bid for the rest) rewards bidding nothing.
    hand = "QD 3C 7H 2H AH 3S"
    bids = {}
    for made, zero_table in (("10+bid", "10"), ("10*bid", "10"), ("5+bid", "10+cards")):
        rules = Rules(players=4, made=made, zero=zero_table)
        view = make_view(hand, "S", seat=0, dealer=3, rules=rules)
        bids[made] = bid_of("mc_bidder", view, samples=256)
    assert bids["5+bid"] < bids["10+bid"] < bids["10*bid"]


def test_mc_bidder_refuses_two_decks():
    with pytest.raises(InvalidArgumentError, match="'mc_bidder' does not support decks=2"):
        check_plays(mc_bidder.STRATEGY, Rules(players=8, decks=2))
    assert not mc_bidder.STRATEGY.supports(Rules(players=8, decks=2))
    check_plays(mc_bidder.STRATEGY, Rules(players=4, joker=True))
    # In the kernel it still bids legally, with expected_tricks's bid.
    view = make_view("AS KS 2H", "S", rules=Rules(players=8, decks=2))
    assert 0 <= bid_of("mc_bidder", view) <= 3


@pytest.mark.slow
def test_pimc_trumps_when_short_and_discards_when_made():
    # Hearts led, pimc (seat 1) is void in hearts with a trump and a diamond left,
    # one trick short of its bid of 2: ruff now rather than hope for the last trick.
    kwargs = dict(
        seat=1, phase=V.PHASE_PLAY, trick=["5H"], hand_size=3, trick_index=1, played="KH 2C 3C 4C"
    )
    view = make_view("2S 3D", "S", bids=[0, 2, 0, 0], won=[1, 1, 0, 0], **kwargs)
    assert play_of("pimc", view) == card("2S")
    # At its bid, it throws the diamond instead of taking the trick.
    view = make_view("2S 3D", "S", bids=[0, 1, 0, 0], won=[1, 1, 0, 0], **kwargs)
    assert play_of("pimc", view) == card("3D")


def test_pimc_distinct_cards_merges_touching_cards():
    # QH and JH touch (nothing live between them); 9H and JH do not (TH is out).
    legal = (1 << card("QH")) | (1 << card("JH")) | (1 << card("9H"))
    live = 1 << card("TH")
    out = pimc.distinct_cards(legal, live)
    assert out == (1 << card("JH")) | (1 << card("9H"))


def test_learned_table_moves_the_bid_off_the_card_prior():
    # A weak hand: the card table's Poisson-binomial prefers one trick, but the
    # learned distribution of its (well-populated) cell puts zero first.
    view = make_view("QH 9C 8D 5S 4H 3C 2D", "S")
    prior = np.zeros(8)
    learned.card_prior(view, prior)
    assert abs(prior.sum() - 1.0) < 1e-9 and prior.argmax() == 1
    assert bid_of("learned", view) == 0
    assert bid_of("learned", view, prior_weight=1e12) == 1


def test_learned_table_shape_and_cells():
    probs, counts, max_hand = learned.PROBS, learned.COUNTS, learned.MAX_HAND
    assert probs.shape[:3] == (5, 10, learned.N_CELLS)
    assert list(max_hand) == [10, 10, 10, 8, 7]
    assert counts[1, 9].sum() > 0
    cells = {learned.hand_cell(1 << c, 3, 0) for c in range(52)}
    assert max(cells) < learned.N_CELLS


@pytest.mark.slow
def test_train_bids_fits_saves_and_loads(tmp_path, capsys):
    table = learned.train_bid_table(players=[3], deals=300, seed=1, max_hand=2)
    assert table["probs"].shape == (1, 2, learned.N_CELLS, 3)
    assert list(table["max_hand"]) == [2]
    # Each seen cell's distribution sums to one (up to the byte rounding).
    seen = table["counts"][0, 1] > 0
    sums = table["probs"][0, 1][seen].sum(axis=1) / 255.0
    assert np.allclose(sums, 1.0, atol=0.02)
    out = tmp_path / "bids.npz"
    argv = ["train-bids", "--players", "3", "--deals", "200", "--max-hand", "2", "-o", str(out)]
    assert main(argv) == 0
    assert "written" in capsys.readouterr().out
    probs, counts, max_hand = learned.load_bid_table(out)
    assert probs.shape[:2] == (1, 2) and counts.sum() == 3 * 200 * 2 + 3 * 50 * 2
    view = make_view("AS KS", "S", rules=Rules(players=3))
    assert learned.learned_bid(view, probs, counts, max_hand, 20.0) in (1, 2)
    with pytest.raises(InvalidArgumentError, match="players"):
        learned.train_bid_table(players=[2])
