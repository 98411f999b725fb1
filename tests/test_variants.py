"""Every rule variant of RULES.md §2: source examples, schedules, trump sequences,
rejected combinations, variant columns, and kernel = reference on combinations."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import examples, variant_rules_st
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_strategies import MODE_VIEW_HASH, mode

import ohhell_sim as oh
from ohhell_sim import reference
from ohhell_sim.engine.core import deal_points
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules


def both_scores(rules: Rules, bid: int, tricks: int, hand_size: int) -> tuple[int, int]:
    """Points from the kernel's scoring primitive and from the reference engine."""
    return (
        int(deal_points(bid, tricks, hand_size, rules.to_array())),
        reference.score(rules, bid, tricks, hand_size),
    )


# --- scoring: the numeric examples of the sources --------------------------------


@pytest.mark.parametrize(
    ("made", "points"),
    [("10+bid", 13), ("10*bid", 30), ("10+bid^2", 19), ("10+2*bid", 16), ("5+bid", 8)],
)
def test_made_tables_bid_three(made, points):
    # Source 004: "bid 3 made -> 13, 30, 19, 16, 8".
    assert both_scores(Rules(made=made), 3, 3, 5) == (points, points)


@pytest.mark.parametrize(
    ("zero", "points"), [("10", 10), ("5", 5), ("5+cards", 8), ("10+cards", 13)]
)
def test_zero_tables_three_cards(zero, points):
    # Source 004: "10+cards with 3 cards -> 13".
    assert both_scores(Rules(zero=zero), 0, 0, 3) == (points, points)


@pytest.mark.parametrize("tricks", [1, 5])
def test_penalty_minus_ten_per_trick(tricks):
    # Source 001: "bid 3, took 1 -> -20; bid 3, took 5 -> -20".
    rules = Rules(over="-10*diff", under="-10*diff")
    assert both_scores(rules, 3, tricks, 8) == (-20, -20)


def test_double_all_and_all_bonus():
    # Source 004: a made bid equal to the cards dealt scores double (3 of 3: 2 x 13).
    assert both_scores(Rules(double_all=True), 3, 3, 3) == (26, 26)
    assert both_scores(Rules(double_all=True), 2, 2, 3) == (12, 12)
    # Source 001 "tout réussi": +10 for bidding the whole hand and making it.
    assert both_scores(Rules(all_bonus=10), 5, 5, 5) == (25, 25)
    # Doubling comes before the bonus.
    assert both_scores(Rules(double_all=True, all_bonus=10), 3, 3, 3) == (36, 36)


@pytest.mark.parametrize(
    ("table", "bid", "tricks", "points"),
    [
        ("zero", 2, 4, 0),
        ("taken", 2, 4, 4),
        ("-diff", 2, 4, -2),
        ("-diff^2", 2, 4, -4),
        ("-10*diff", 2, 4, -20),
    ],
)
def test_over_and_under_tables_are_separate(table, bid, tricks, points):
    over = Rules(over=table)
    under = Rules(under=table)
    assert both_scores(over, bid, tricks, 6) == (points, points)
    assert both_scores(under, bid, tricks, 6) == (0, 0)  # under stays "zero"
    under_points = both_scores(under, tricks, bid, 6)  # now too few tricks
    assert under_points[0] == under_points[1]
    assert both_scores(over, tricks, bid, 6) == (0, 0)


def test_miss_scores_tricks_taken_in_online_preset():
    rules = Rules.preset("online")
    assert both_scores(rules, 3, 1, 5) == (1, 1)
    assert both_scores(rules, 1, 3, 5) == (3, 3)
    assert both_scores(rules, 2, 2, 5) == (12, 12)


def test_openspiel_points_per_trick():
    rules = Rules.preset("openspiel", trick_points=2)
    assert both_scores(rules, 3, 3, 5) == (16, 16)  # 10 + 2 x 3
    assert both_scores(rules, 3, 1, 5) == (2, 2)  # tricks x 2
    penalty = Rules.preset("openspiel", trick_points=2, over="-diff", under="-diff")
    assert both_scores(penalty, 3, 1, 5) == (-4, -4)


# --- schedules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, (*range(10, 0, -1), *range(2, 11))),
        ({"deal_order": "max-1"}, tuple(range(10, 0, -1))),
        ({"deal_order": "1-max"}, tuple(range(1, 11))),
        ({"deal_order": "1-max-1"}, (*range(1, 11), *range(9, 0, -1))),
        ({"deal_order": "1-max-1", "max_cards": 7}, (*range(1, 8), *range(6, 0, -1))),
        ({"max_cards": 7}, (*range(7, 0, -1), *range(2, 8))),
        ({"players": 3, "max_cards": "deck", "deal_order": "max-1"}, tuple(range(17, 0, -1))),
        ({"players": 6}, (*range(8, 0, -1), *range(2, 9))),
        ({"players": 7, "deal_order": "max-1"}, tuple(range(7, 0, -1))),
        ({"players": 10, "decks": 2, "deal_order": "max-1"}, tuple(range(10, 0, -1))),
        (
            {"players": 6, "decks": 2, "max_cards": "deck", "deal_order": "max-1"},
            tuple(range(17, 0, -1)),
        ),
        (
            {"players": 4, "trump": "CDHS", "max_cards": "deck", "deal_order": "max-1"},
            tuple(range(13, 0, -1)),
        ),
    ],
)
def test_schedules(kwargs, expected):
    assert Rules(**kwargs).schedule == expected


def test_rock_and_roll_has_19_deals():
    assert Rules(deal_order="1-max-1").n_deals == 19


# --- trump sequences ------------------------------------------------------------


def mostly_random(players: int) -> list[str]:
    """``random`` in every seat but the last, ``simple`` there.

    These tests need legal play only; ``{random, simple}`` is a kernel that the
    engine tests compile anyway (on plain and general tables), where ``random``
    alone would compile two more.
    """
    return ["random"] * (players - 1) + ["simple"]


@pytest.mark.parametrize(
    ("pattern", "suits"),
    [("SDCH", [3, 1, 0, 2]), ("CDHS", [0, 1, 2, 3]), ("CDHSN", [0, 1, 2, 3, -1])],
)
def test_fixed_trump_patterns(pattern, suits):
    rules = Rules(players=4, trump=pattern)
    result = oh.simulate(rules, mostly_random(4), games=3, seed=5)
    trumps = result.hands[result.hands.seat == 0].groupby("game")["trump"].apply(list)
    expected = [suits[d % len(suits)] for d in range(rules.n_deals)]
    for game_trumps in trumps:
        assert game_trumps == expected


@pytest.mark.slow
def test_no_trump_every_k():
    rules = Rules(players=4, no_trump_every=5)
    hands = oh.simulate(rules, mostly_random(4), games=50, seed=2).hands
    no_trump = hands[hands.hand_size % 5 == 0]
    assert (no_trump.trump == -1).all()
    others = hands[hands.hand_size % 5 != 0]
    assert (others.trump >= 0).all()
    log = oh.replay(rules, mostly_random(4), seed=2, game=0)
    assert all((d.trump_card is None) == (d.hand_size % 5 == 0) for d in log.deals)


# --- rejected combinations --------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 8}, ["players", "8", "decks=2"]),
        ({"players": 11, "decks": 2}, ["players", "11"]),
        ({"players": 6, "max_cards": 10}, ["max_cards", "61", "52"]),
        ({"schedule": [13]}, ["schedule[0]", "53"]),
        ({"players": 10, "decks": 2, "max_cards": 11}, ["max_cards", "111", "104"]),
        ({"closed_bids": True}, ["closed_bids", "hook"]),
        (
            {"forehead": True, "deal_order": "max-1", "max_cards": 5, "schedule": [5, 4]},
            ["schedule"],
        ),
        ({"forehead": True, "schedule": [3, 2]}, ["forehead", "hand size 1"]),
        ({"forehead": True, "swap": 1}, ["forehead", "swap"]),
        ({"fault_limit": 20, "over": "taken"}, ["fault_limit", "over"]),
        ({"made": "10+bid^3"}, ["made", "10+bid^3"]),
        ({"trump": "HSDC"}, ["trump", "HSDC"]),
        ({"deal_order": "up"}, ["deal_order", "up"]),
        ({"swap": 3}, ["swap", "3"]),
        ({"decks": 3}, ["decks", "3"]),
        ({"joker": "yes"}, ["joker", "yes"]),
    ],
)
def test_rejected_combinations_name_parameters(kwargs, words):
    with pytest.raises(InvalidArgumentError) as info:
        Rules(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_unknown_preset_and_parameter():
    with pytest.raises(InvalidArgumentError, match=r"unknown preset 'house'.*canonical"):
        Rules.preset("house")
    with pytest.raises(InvalidArgumentError, match="colour"):
        Rules.preset("online", colour=3)


def test_nullo_with_hook_is_playable():
    rules = Rules(players=4, nullo=True)
    hands = oh.simulate(rules, ["random", "simple", "random", "simple"], games=20, seed=1).hands
    assert (hands.bid == 0).all()


def test_two_decks_and_joker_deck_limits():
    assert Rules(players=10, decks=2).deck_size == 104
    assert Rules(players=3, joker=True, max_cards="deck").schedule[0] == 17
    assert Rules(players=4, decks=2, joker=True).deck_size == 105


# --- variant columns of the frames ------------------------------------------------


@pytest.mark.slow
def test_swap_columns_hold_cards_passed_left():
    rules = Rules(players=4, swap=2, schedule=[5, 1])
    result = oh.simulate(rules, mostly_random(4), games=5, seed=3)
    hands = result.hands
    assert {"passed1", "passed2"} <= set(hands.columns)
    one_card = hands[hands.hand_size == 1]
    assert (one_card.passed2 == -1).all() and (one_card.passed1 >= 0).all()
    log = oh.replay(rules, mostly_random(4), seed=3, game=4)
    rows = hands[(hands.game == 4) & (hands.deal == 0)]
    passed = [[reference.card_code(c) for c in p] for p in log.deals[0].passed]
    assert [
        [reference.card_code(int(a)), reference.card_code(int(b))]
        for a, b in zip(rows.passed1, rows.passed2, strict=True)
    ] == passed
    # What a seat passed, its left neighbour holds after the swap (and played).
    for seat in range(4):
        left = (seat + 1) % 4
        played_by_left = {
            c
            for t in log.deals[0].tricks
            for s, c in zip(t.seats, t.cards, strict=True)
            if s == left
        }
        assert set(log.deals[0].passed[seat]) <= played_by_left


def test_canonical_frames_have_no_variant_columns():
    result = oh.simulate(Rules(players=4), mostly_random(4), games=2)
    assert list(result.hands.columns) == [
        "game",
        "deal",
        "seat",
        "dealer",
        "hand_size",
        "trump",
        "strategy",
        "bid",
        "tricks",
        "score",
    ]
    assert list(result.games.columns) == ["game", "seat", "strategy", "total", "win_share"]


def test_catastrophe_faults_and_elimination():
    rules = Rules(players=5, fault_limit=6)
    result = oh.simulate(rules, mostly_random(5), games=200, seed=4)
    hands, games = result.hands, result.games
    assert "faults" in hands.columns and "eliminated" in games.columns
    # Misses score nothing, and faults grow by |bid - tricks|.
    misses = hands[hands.bid != hands.tricks]
    assert (misses.score == 0).all()
    eliminated = games[games.eliminated]
    assert len(eliminated) > 0
    assert (eliminated.win_share == 0).all() or eliminated.game.duplicated().any()
    # An eliminated seat plays no later deal.
    for row in eliminated.head(20).itertuples():
        seat_rows = hands[(hands.game == row.game) & (hands.seat == row.seat)]
        first_out = seat_rows.index[seat_rows.faults >= 6][0]
        assert seat_rows.loc[first_out:].shape[0] == 1
    # Win shares still sum to one per game.
    assert np.allclose(games.groupby("game").win_share.sum(), 1.0)


def test_tiebreak_deal_decides_ties():
    rules = Rules(players=3, schedule=[1], tiebreak=True)
    result = oh.simulate(rules, mostly_random(3), games=300, seed=9)
    hands, games = result.hands, result.games
    tie_rows = hands[hands.deal == 1]
    assert len(tie_rows) > 0 and (tie_rows.hand_size == 3).all()
    assert games.tiebreak.any()
    assert np.allclose(games.groupby("game").win_share.sum(), 1.0)
    for game in tie_rows.game.unique()[:30]:
        log = oh.replay(rules, mostly_random(3), seed=9, game=int(game))
        assert log.deals[-1].tiebreak
        players = [s for s in range(3) if log.deals[-1].bids[s] is not None]
        assert set(log.winners) <= set(players)


# --- kernel = reference on combinations of variants -------------------------------


def assert_kernel_equals_reference(rules: Rules, seats, seed: int, games: int) -> None:
    result = oh.simulate(rules, seats, games=games, seed=seed)
    hands, frame_games = result.hands, result.games
    for game in range(games):
        log = oh.replay(rules, seats, seed=seed, game=game)
        expected = [
            (
                d.index,
                s,
                d.dealer,
                d.hand_size,
                -1 if d.trump is None else d.trump,
                d.bids[s],
                d.tricks_won[s],
                d.scores[s],
            )
            for d in log.deals
            for s in range(rules.players)
            if d.bids[s] is not None
        ]
        rows = hands[hands.game == game]
        got = [
            tuple(int(x) for x in row)
            for row in zip(
                rows.deal,
                rows.seat,
                rows.dealer,
                rows.hand_size,
                rows.trump,
                rows.bid,
                rows.tricks,
                rows.score,
                strict=True,
            )
        ]
        assert got == expected, (rules, game)
        shares = np.zeros(rules.players)
        shares[log.winners] = 1 / len(log.winners)
        frame = frame_games[frame_games.game == game]
        assert list(frame.total) == log.totals
        assert np.allclose(frame.win_share, shares)


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(rules=variant_rules_st(), seed=st.integers(0, 2**63 - 1), data=st.data())
def test_kernel_equals_reference_on_variant_combinations(tester, rules, seed, data):
    # The view-hash tester makes every move depend on every field of its view, so
    # the two engines must also show identical views.
    # Every draw seats all three, so that all the examples share two kernels (plain
    # and general tables) instead of compiling one per subset of the pool.
    pool = ["random", "simple", mode(MODE_VIEW_HASH)]
    extra = [data.draw(st.sampled_from(pool)) for _ in range(rules.players - len(pool))]
    seats = data.draw(st.permutations(pool + extra))
    assert_kernel_equals_reference(rules, seats, seed, games=2)
