"""The Numba engine and the plain-Python reference engine play every game identically.

Primitive by primitive (cut, deal, legal cards, scoring) and game by game:
``simulate`` frames equal ``replay`` logs (dealer, trump, bids, tricks, scores,
totals, win share) for drawn rules, strategy mixes, seeds and game indices.  The
``tester`` user strategy in view-hash mode makes every decision depend on the whole
view, so any difference between the kernel's view and the reference's changes the
game and fails these tests.
"""

from __future__ import annotations

import numpy as np
import scripted_strategies as ss
from conftest import (
    assert_result_matches_replays,
    examples,
    game_indices_st,
    kernel_deal,
    kernel_legal,
    kernel_score,
    max_hand_size,
    players_st,
    reference_deal,
    reference_legal,
    reference_score,
    rules_st,
    seating_st,
    seeds_st,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import ohhell_sim as oh
from ohhell_sim import reference
from ohhell_sim.engine import core, rng
from ohhell_sim.rules import Rules


def _numba_stream(seed, game, purpose, index):
    state = np.zeros(4, dtype=np.uint64)
    rng.seed_stream(state, np.uint64(rng.game_key(seed, game)), purpose, index)
    return state


# --- primitives ------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(seeds_st, game_indices_st, players_st)
def test_cut_for_dealer_matches_reference(seed, game, players):
    ref_stream = reference.Stream(seed, game, rng.STREAM_CUT, 0)
    state = _numba_stream(seed, game, rng.STREAM_CUT, 0)
    deck = np.empty(52, dtype=np.int64)
    dealer = core.cut_for_dealer(state, players, deck)
    assert dealer == reference.cut_for_dealer(ref_stream, players)
    assert 0 <= dealer < players
    # Both consumed the same number of draws (ties cut again in both).
    assert [int(x) for x in state] == ref_stream.state


@settings(max_examples=examples(80))
@given(seeds_st, game_indices_st, st.data())
def test_deal_matches_reference(seed, game, data):
    players = data.draw(players_st)
    rules = Rules(players=players, hook=data.draw(st.booleans()))
    hand_size = data.draw(st.integers(1, max_hand_size(players)))
    dealer = data.draw(st.integers(0, players - 1))
    deal_index = data.draw(st.integers(0, 30))
    ref_hands, ref_trump = reference_deal(
        reference.Stream(seed, game, rng.STREAM_DEAL, deal_index), rules, hand_size, dealer
    )
    hands, trump = kernel_deal(
        _numba_stream(seed, game, rng.STREAM_DEAL, deal_index), rules, hand_size, dealer
    )
    assert trump == ref_trump
    assert hands == ref_hands
    assert all(len(h) == hand_size for h in hands)
    seen = [c for h in ref_hands for c in h] + [ref_trump]
    assert len(set(seen)) == players * hand_size + 1
    assert all(0 <= c < 52 for c in seen)


@settings(max_examples=examples(80))
@given(
    st.sets(st.integers(0, 51), min_size=1, max_size=17),
    st.integers(-1, 3),
    st.integers(-1, 3),
)
def test_legal_cards_match_reference(hand, led, trump):
    mask = sum(1 << c for c in hand)
    got = kernel_legal(mask, led, trump)
    ref = reference_legal(sorted(hand), None if led < 0 else led, None if trump < 0 else trump)
    assert got == sum(1 << c for c in ref)
    assert got & ~mask == 0 and got != 0
    following = [c for c in hand if led >= 0 and c // 13 == led]
    assert sorted(ref) == sorted(following or hand)


@settings(max_examples=examples(100))
@given(rules_st(scoring=True), st.data())
def test_scoring_primitives_match_reference(rules, data):
    hand_size = data.draw(st.integers(1, rules.max_hand_size))
    bid = data.draw(st.integers(0, hand_size))
    tricks = data.draw(st.integers(0, hand_size))
    assert kernel_score(rules, bid, tricks, hand_size) == reference_score(
        rules, bid, tricks, hand_size
    )


# --- whole games -------------------------------------------------------------------


@settings(max_examples=examples(40))
@given(
    rules_st(max_deals=5),
    st.data(),
    seeds_st,
    game_indices_st,
    st.integers(min_value=1, max_value=3),
)
def test_simulate_equals_replay_builtin(rules, data, seed, first_game, games):
    seats = data.draw(seating_st(rules.players))
    kernel = data.draw(st.sampled_from(["dedicated", "shared"]))
    result = oh.simulate(rules, seats, games=games, seed=seed, first_game=first_game, kernel=kernel)
    assert_result_matches_replays(result, rules, seats, seed, range(first_game, first_game + games))


@settings(max_examples=examples(30))
@given(rules_st(max_deals=5), st.data(), seeds_st, game_indices_st)
def test_simulate_equals_replay_with_user_strategy(tester, rules, data, seed, first_game):
    seats = data.draw(seating_st(rules.players, user=True))
    assert any(isinstance(s, tuple) and s[0] == "tester" for s in seats)
    result = oh.simulate(rules, seats, games=2, seed=seed, first_game=first_game)
    assert_result_matches_replays(result, rules, seats, seed, [first_game, first_game + 1])


def test_view_hash_games_match_across_chunk_boundaries(tester):
    # Every seat decides from a hash of its whole view; games 40..119 cross the
    # kernel's work-unit boundary at game 64 and run on both threads.
    rules = Rules(players=4)
    seats = [ss.mode(ss.MODE_VIEW_HASH)] * 2 + ["random", "simple"]
    result = oh.simulate(rules, seats, games=80, seed=99, first_game=40)
    assert_result_matches_replays(result, rules, seats, 99, [40, 63, 64, 65, 100, 119])


def test_view_hash_all_table_sizes(tester):
    for players in (3, 5, 6, 7):
        rules = Rules(players=players, hook=players % 2 == 1)
        seats = [ss.mode(ss.MODE_VIEW_HASH)] * players
        result = oh.simulate(rules, seats, games=4, seed=players)
        assert_result_matches_replays(result, rules, seats, players, range(4))


def test_canonical_mixed_table_many_games():
    rules = Rules(players=4)
    seats = ["simple", "random", ("simple", {"scale": 0.7}), "random"]
    result = oh.simulate(rules, seats, games=200, seed=31337)
    assert_result_matches_replays(result, rules, seats, 31337, range(0, 200, 13))


def test_largest_seed_and_far_game_index():
    rules = Rules(players=3, schedule=[17, 1])
    seats = ["random", "simple", "random"]
    seed, first = 2**63 - 1, 2**31 - 10
    result = oh.simulate(rules, seats, games=3, seed=seed, first_game=first)
    assert_result_matches_replays(result, rules, seats, seed, range(first, first + 3))
