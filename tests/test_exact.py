"""The exact one-card solver against brute force, hand-checkable facts and the engine.

The brute force plays every deal of a small deck (every ordered choice of the
seats' cards and the turned-up card), bids them position by position with the
policy found so far and counts each information set's deals and wins directly:
no counting shortcut is shared with the solver.  The engine check plays the
solved policy as a user strategy through :func:`ohhell_sim.simulate`.
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.cards import parse_card
from ohhell_sim.engine.scoring import deal_points_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import (
    builtin_regret,
    one_card_rules,
    play_one_card,
    regret_table,
    solve_one_card,
)
from ohhell_sim.rules import Rules
from ohhell_sim.strategy.tools import lowest_card

# --- brute force over every deal of a small deck ---------------------------------


def _winners(deals: np.ndarray, trump: np.ndarray, ranks: int) -> np.ndarray:
    """Position taking the trick of each deal (row: the cards in position order)."""
    suit, rank = deals // ranks, deals % ranks
    best = np.zeros(len(deals), dtype=np.int64)
    for j in range(1, deals.shape[1]):
        top_suit = suit[np.arange(len(deals)), best]
        top_rank = rank[np.arange(len(deals)), best]
        higher = (suit[:, j] == top_suit) & (rank[:, j] > top_rank)
        trumps = (suit[:, j] == trump) & (top_suit != trump)
        best = np.where(higher | trumps, j, best)
    return best


def brute_force(rules: Rules, suits: int, ranks: int, fixed_trump: int | None = None):
    """Policy, deals, wins and expected score per position, by enumerating every deal.

    ``fixed_trump`` is the trump suit when no card is turned (-1: no trump).
    """
    n = rules.players
    cards = suits * ranks
    turns = fixed_trump is None
    deals = np.array(list(itertools.permutations(range(cards), n + int(turns))), dtype=np.int64)
    if turns:
        context, trump = deals[:, n], deals[:, n] // ranks
        contexts = cards
    else:
        context = np.zeros(len(deals), dtype=np.int64)
        trump = np.full(len(deals), fixed_trump)
        contexts = 1
    seats = deals[:, :n]
    winner = _winners(seats, trump, ranks)
    most = 0 if rules.nullo else 1
    width = 1 << (n - 1)
    policy = np.full((n, contexts, cards, width), -1, dtype=np.int64)
    totals = np.zeros((n, contexts, cards, width), dtype=np.int64)
    wins = np.zeros_like(totals)
    bids = np.zeros((len(deals), n), dtype=np.int64)
    history = np.zeros(len(deals), dtype=np.int64)  # bits of the bids made so far
    for p in range(n):
        seen = np.zeros_like(history) if rules.closed_bids else history
        np.add.at(totals[p], (context, seats[:, p], seen), 1)
        np.add.at(wins[p], (context, seats[:, p], seen), winner == p)
        for k, card, h in itertools.product(range(contexts), range(cards), range(width)):
            legal = list(range(most + 1))
            if p == n - 1 and rules.hook:
                taken = bin(h).count("1")
                legal = [b for b in legal if taken + b != 1]
            total, won = totals[p, k, card, h], wins[p, k, card, h]
            value = [
                int(deal_points_array(b, 1, 1, rules)) * won
                + int(deal_points_array(b, 0, 1, rules)) * (total - won)
                for b in legal
            ]
            policy[p, k, card, h] = legal[int(np.argmax(value))]  # first maximum: lowest bid
        bids[:, p] = policy[p, context, seats[:, p], seen]
        history = history | (bids[:, p] << p)
    taken = (winner[:, None] == np.arange(n)[None, :]).astype(np.int64)
    score = deal_points_array(bids, taken, 1, rules).mean(axis=0)
    hooked = (bids[:, :-1].sum(axis=1) <= 1).mean() if rules.hook else 0.0
    return policy, totals, wins, score, hooked


CASES = [
    # (rules, deck, fixed trump suit when no card is turned)
    (Rules(players=3, schedule=[1]), (3, 4), None),
    (Rules(players=3, schedule=[1], hook=False, made="10*bid"), (3, 4), None),
    (Rules(players=3, schedule=[1], over="-10*diff", under="-diff^2", zero="5"), (2, 5), None),
    (Rules(players=3, schedule=[1], made="5+bid", all_bonus=10, double_all=True), (3, 3), None),
    (Rules(players=3, schedule=[1], no_trump_every=1), (3, 4), -1),
    (Rules(players=4, schedule=[1]), (4, 3), None),
    (Rules.preset("online", players=4, schedule=[1]), (3, 4), None),
    (Rules(players=4, schedule=[1], hook=False, over="-diff", under="-diff"), (3, 4), None),
    (Rules(players=4, schedule=[1], trump="CDHS", zero="10+cards"), (3, 4), 0),
    (Rules(players=4, schedule=[1], closed_bids=True, hook=False), (3, 4), None),
    (Rules.preset("openspiel", players=4, schedule=[1], trick_points=3), (4, 3), None),
]


@pytest.mark.parametrize(("rules", "deck", "fixed"), CASES)
def test_solver_matches_brute_force(rules, deck, fixed):
    solution = solve_one_card(rules, deck=deck)
    policy, totals, wins, score, hooked = brute_force(rules, *deck, fixed)
    np.testing.assert_array_equal(solution.deals, totals)
    reached = totals > 0
    np.testing.assert_array_equal(solution.policy[reached], policy[reached])
    np.testing.assert_allclose(
        solution.win_probability[reached], wins[reached] / totals[reached], rtol=0, atol=1e-12
    )
    assert np.isnan(solution.win_probability[~reached]).all()
    np.testing.assert_allclose(solution.expected_score, score, rtol=0, atol=1e-12)
    assert solution.hook_rate == pytest.approx(hooked, abs=1e-12)


# --- hand-checkable facts ----------------------------------------------------------


@pytest.fixture(scope="module")
def four():
    return solve_one_card(Rules(players=4, schedule=[1]))


def test_every_deal_is_counted_once(four):
    per_context = four.deals.sum(axis=(2, 3))
    assert (per_context == math.perm(51, 4)).all()
    assert four.deals_per_context == math.perm(51, 4)
    # Someone takes the trick of every deal.
    assert four.win_rate.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_ace_of_trumps_bids_one_whenever_it_may(four):
    for turned in range(52):
        trump = turned // 13
        ace = 13 * trump + 12
        if ace == turned:
            continue
        for p in range(4):
            for h in range(1 << p):
                if four.deals[p, turned, ace, h] == 0:
                    continue
                assert four.win_probability[p, turned, ace, h] == 1.0
                forbidden_one = p == 3 and bin(h).count("1") == 0
                assert four.policy[p, turned, ace, h] == (0 if forbidden_one else 1)


def test_the_dealer_never_bids_what_the_hook_forbids(four):
    dealer = four.policy[3]
    held = dealer >= 0
    taken = np.array([bin(h).count("1") for h in range(8)])
    assert not ((dealer == 1) & held & (taken == 0)[None, None, :]).any()
    assert not ((dealer == 0) & held & (taken == 1)[None, None, :]).any()


def test_leader_win_chances_in_closed_form(four):
    # The leader's card is the led suit: a side ace loses only to a trump, and
    # 12 trumps are among the 50 unseen cards (the turned card is a trump).
    win = four.win_probability[0, parse_card("2S"), parse_card("AH"), 0]
    assert win == pytest.approx(math.comb(38, 3) / math.comb(50, 3), abs=1e-15)
    # The two of a side suit loses to any trump or higher card of its suit.
    win = four.win_probability[0, parse_card("2S"), parse_card("2H"), 0]
    assert win == pytest.approx(math.comb(26, 3) / math.comb(50, 3), abs=1e-15)
    assert four.bid(0, "2H", turned="2S") == 0
    assert four.bid(0, "AH", turned="2S") == 0  # 0.42 < 10 / 21: zero pays more
    assert four.bid(0, "KS", turned="AS") == 1  # the turned ace leaves the king on top


def test_the_hook_changes_only_the_dealer():
    on = solve_one_card(Rules(players=5, schedule=[1]))
    off = solve_one_card(Rules(players=5, schedule=[1], hook=False))
    np.testing.assert_array_equal(on.policy[:4], off.policy[:4])
    assert on.expected_score_exact[:4] == off.expected_score_exact[:4]
    assert off.expected_score_exact[4] >= on.expected_score_exact[4]


def test_nullo_bids_zero_everywhere():
    solution = solve_one_card(Rules(players=3, schedule=[1], nullo=True))
    assert set(np.unique(solution.policy)) == {-1, 0}
    np.testing.assert_allclose(solution.expected_score, 10 * (1 - solution.win_rate), atol=1e-12)


def test_fixed_trump_has_one_context_and_symmetric_values():
    clubs = solve_one_card(Rules(players=4, schedule=[1], trump="CDHS"))
    spades = solve_one_card(Rules(players=4, schedule=[1], trump="SDCH"))
    assert clubs.trump.tolist() == [0] and spades.trump.tolist() == [3]
    assert clubs.expected_score_exact == spades.expected_score_exact
    assert clubs.bid(0, "AC") == 1 and spades.bid(0, "AS") == 1


def test_bid_lookup_and_table(four):
    assert four.bid(3, "AS", [0, 0, 1], turned="TS") == 1
    assert four.bid(3, "AS", [0, 0, 0], turned="TS") == 0  # the hook forbids 1
    table = four.table()
    assert table["role"].tolist() == ["1st (leads)", "2nd", "3rd", "4th (dealer)"]
    assert table["expected_score"].tolist() == four.expected_score.tolist()


@pytest.mark.parametrize(
    ("kwargs", "deck", "message"),
    [
        ({"schedule": [3, 2]}, (4, 13), "has no one-card deal"),
        ({"schedule": [1], "decks": 2}, (4, 13), "rules.decks=2 is not handled"),
        ({"schedule": [1], "joker": True}, (4, 13), "rules.joker=True is not handled"),
        ({"schedule": [1], "swap": 1}, (4, 13), "rules.swap=1 is not handled"),
        ({"schedule": [1], "forehead": True}, (4, 13), "rules.forehead=True"),
        ({"schedule": [1], "fault_limit": 5}, (4, 13), "rules.fault_limit=5"),
        ({"schedule": [1]}, (5, 13), "deck must be a tuple (suits, ranks) with suits in 1..4"),
        ({"schedule": [1]}, (2, 2), "deck=(2, 2) holds 4 cards, too few for 4 players"),
        ({"schedule": [1], "trump": "SDCH"}, (2, 4), "makes suit 3 trump"),
    ],
)
def test_refused_rules_name_the_parameter(kwargs, deck, message):
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        solve_one_card(Rules(players=4, **kwargs), deck=deck)


def test_bad_lookups_are_refused(four):
    with pytest.raises(
        InvalidArgumentError, match=re.escape("position must be an integer in 0..3")
    ):
        four.bid(4, "AS", turned="2S")
    with pytest.raises(InvalidArgumentError, match="bids must be the 2 bids"):
        four.bid(2, "AS", [1], turned="2S")
    with pytest.raises(InvalidArgumentError, match="is the turned-up card"):
        four.bid(0, "2S", turned="2S")
    with pytest.raises(InvalidArgumentError, match="turned must be a card"):
        four.bid(0, "2S")


# --- the solved policy played by the engine ------------------------------------------

#: Rules whose solved policies the engine plays, one table each (``params[0]``).
ENGINE_RULES = (
    Rules(players=4, schedule=[1]),
    Rules.preset("online", players=4, schedule=[1]),
    Rules(players=3, schedule=[1], hook=False, made="10*bid", under="-10*diff"),
)
_SOLVED = [solve_one_card(r) for r in ENGINE_RULES]
#: [table, position, turned card, card, history]; a module constant, so that the
#: kernel's fingerprint covers it.
EXACT_TABLES = np.full((len(_SOLVED), 4, 52, 52, 8), -1, dtype=np.int8)
for _i, _solution in enumerate(_SOLVED):
    _p, _k, _c, _h = _solution.policy.shape
    EXACT_TABLES[_i, :_p, :, :, :_h] = _solution.policy


@njit
def exact_bid(view, params, rng):
    n = view[V.N_PLAYERS]
    dealer = view[V.DEALER]
    position = (view[V.SEAT] - dealer - 1) % n
    history = 0
    for q in range(position):
        history |= view[V.BIDS_BASE + (dealer + 1 + q) % n] << q
    card = lowest_card(view[V.HAND])
    return np.int64(EXACT_TABLES[np.int64(params[0]), position, view[V.TRUMP_CARD], card, history])


@njit
def only_card(view, params, rng):
    return lowest_card(view[V.LEGAL])


@pytest.fixture(scope="module")
def exact_strategy():
    oh.register_strategy(
        "ut_exact", exact_bid, only_card, params={"table": 0.0}, description="solved one-card bids"
    )
    yield "ut_exact"
    oh.unregister_strategy("ut_exact")


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(ENGINE_RULES)))
def test_engine_scores_of_the_solved_policy(exact_strategy, index):
    rules, solution = ENGINE_RULES[index], _SOLVED[index]
    hands = play_one_card(rules, [(exact_strategy, {"table": float(index)})], games=20_000, seed=3)
    # The engine's bids are the table's (the hook never refuses one) ...
    assert len(hands) == 20_000 * rules.players
    # ... and every position's mean score lies within a 99.9% interval of the exact value.
    table = regret_table(solution, hands, confidence=0.999)
    assert table["position"].tolist() == list(range(rules.players))
    assert ((table["regret_low"] <= 0) & (table["regret_high"] >= 0)).all(), table
    made = (hands["bid"] == hands["tricks"]).groupby(hands["position"]).mean().to_numpy()
    np.testing.assert_allclose(made, solution.made_rate, atol=0.02)


def test_builtin_regret_frame():
    frame = builtin_regret(Rules(players=4), ["simple"], games=400, seed=1)
    exact = solve_one_card(one_card_rules(Rules(players=4)))
    assert frame["strategy"].tolist() == ["simple"] * 4
    assert frame["position"].tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(frame["exact"], exact.expected_score)
    np.testing.assert_allclose(frame["regret"], frame["exact"] - frame["estimate"])
    assert (frame["regret_low"] <= frame["regret"]).all()
    assert (frame["n"] == 400).all()


def test_one_card_rules_keep_everything_but_the_schedule():
    rules = Rules(players=5, max_cards=7, hook=False, made="10*bid")
    one = one_card_rules(rules)
    assert one.schedule == (1,) and not one.hook and one.made == "10*bid"
    with pytest.raises(InvalidArgumentError, match="games must be an integer >= 1"):
        play_one_card(rules, ["simple"], games=0)
