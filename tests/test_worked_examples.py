"""The worked examples of RULES.md §1, on the reference functions, the Numba primitives,
and end to end through ``simulate`` and ``replay`` with scripted user strategies."""

from __future__ import annotations

import numpy as np
import pytest
import scripted_strategies as ss
from conftest import kernel_forbidden_bid, kernel_score, reference_score

import ohhell_sim as oh
from ohhell_sim import reference
from ohhell_sim.cards import parse_card, parse_cards
from ohhell_sim.engine import core
from ohhell_sim.errors import ERR_BID_HOOK
from ohhell_sim.rules import Rules

HEARTS = 2
HOOK_RULES = Rules(players=4, schedule=[5])
NO_HOOK_RULES = Rules(players=4, schedule=[5], hook=False)

# --- the hook example: 4 players, 5 cards, bids 1, 2, 0 then the dealer ----------


def test_hook_example_reference_forbids_two():
    assert reference.forbidden_dealer_bid(HOOK_RULES, 5, 1 + 2 + 0) == 2
    assert reference.forbidden_dealer_bid(NO_HOOK_RULES, 5, 3) is None


def test_hook_example_numba_forbids_two():
    assert kernel_forbidden_bid(HOOK_RULES, 5, 3) == 2
    assert kernel_forbidden_bid(NO_HOOK_RULES, 5, 3) == -1


@pytest.mark.parametrize("rules", [HOOK_RULES, NO_HOOK_RULES])
@pytest.mark.parametrize("hand_size", [1, 2, 5, 10, 17])
def test_forbidden_bid_primitives_agree_everywhere(rules, hand_size):
    for others in range(0, 7 * hand_size + 1):
        ref = reference.forbidden_dealer_bid(rules, hand_size, others)
        got = kernel_forbidden_bid(rules, hand_size, others)
        assert got == (-1 if ref is None else ref), (hand_size, others)
        if rules.hook and others <= hand_size:
            assert ref == hand_size - others
        else:
            # Others already bid more than the tricks: any dealer bid is allowed.
            assert ref is None


def test_hook_example_scores():
    bids = [1, 2, 0, 1]
    tricks = [1, 3, 0, 1]
    assert sum(bids) == 4 and sum(tricks) == 5
    expected = [11, 0, 10, 11]
    assert [reference_score(HOOK_RULES, b, t, 5) for b, t in zip(bids, tricks, strict=True)] == (
        expected
    )
    assert [kernel_score(HOOK_RULES, b, t, 5) for b, t in zip(bids, tricks, strict=True)] == (
        expected
    )


def _by_position(values, dealer, n=4):
    """Reorder per-seat ``values`` into bidding order (left of the dealer first)."""
    return [values[(dealer + 1 + k) % n] for k in range(n)]


@pytest.mark.slow
def test_hook_example_end_to_end(tester):
    """Scripted bids 1, 2, 0 and a dealer bid of 1 are accepted; when random play
    happens to give tricks 1, 3, 0, 1 the scores are 11, 0, 10, 11."""
    seats = [ss.scripted([1, 2, 0, 1])] * 4
    result = oh.simulate(HOOK_RULES, seats, games=3000, seed=2024)
    hands = result.hands
    bids = hands["bid"].to_numpy().reshape(-1, 4)
    tricks = hands["tricks"].to_numpy().reshape(-1, 4)
    scores = hands["score"].to_numpy().reshape(-1, 4)
    dealers = hands["dealer"].to_numpy().reshape(-1, 4)[:, 0]
    examples = 0
    for g in range(len(dealers)):
        assert _by_position(bids[g], dealers[g]) == [1, 2, 0, 1]
        assert tricks[g].sum() == 5
        if _by_position(tricks[g], dealers[g]) == [1, 3, 0, 1]:
            assert _by_position(scores[g], dealers[g]) == [11, 0, 10, 11]
            examples += 1
    assert examples > 0  # the seed yields the example several times
    # And the reference engine agrees on one of those games.
    game = next(
        g for g in range(len(dealers)) if _by_position(tricks[g], dealers[g]) == [1, 3, 0, 1]
    )
    log = oh.replay(HOOK_RULES, seats, seed=2024, game=game)
    deal = log.deals[0]
    assert deal.forbidden_bid == 2
    assert _by_position(deal.bids, deal.dealer) == [1, 2, 0, 1]
    assert _by_position(deal.tricks_won, deal.dealer) == [1, 3, 0, 1]
    assert _by_position(deal.scores, deal.dealer) == [11, 0, 10, 11]


def _first_dealer(seed, game, players=4):
    return reference.cut_for_dealer(reference.Stream(seed, game, 0, 0), players)


@pytest.mark.parametrize("engine", ["simulate", "replay"])
def test_dealer_insisting_on_the_forbidden_bid_is_an_error(tester, engine):
    seats = [ss.scripted([1, 2, 0, 2])] * 4
    dealer = _first_dealer(7, 0)
    with pytest.raises(oh.IllegalMoveError) as info:
        if engine == "simulate":
            oh.simulate(HOOK_RULES, seats, games=1, seed=7)
        else:
            oh.replay(HOOK_RULES, seats, seed=7, game=0)
    err = info.value
    assert (err.strategy, err.seat, err.game, err.deal, err.move) == ("tester", dealer, 0, 0, 2)
    assert err.code == ERR_BID_HOOK
    message = str(err)
    assert "'tester'" in message
    assert f"seat {dealer}" in message
    assert "game 0" in message
    assert "deal 0" in message
    assert "bid 2" in message
    assert "hook" in message


def test_dealer_insisting_is_reported_in_the_first_game_single_thread(tester):
    seats = [ss.scripted([1, 2, 0, 2])] * 4
    with pytest.raises(oh.IllegalMoveError) as info:
        oh.simulate(HOOK_RULES, seats, games=50, seed=7, threads=1, first_game=10)
    assert info.value.game == 10
    assert info.value.seat == _first_dealer(7, 10)


def test_without_hook_the_dealer_may_make_the_total(tester):
    seats = [ss.scripted([1, 2, 0, 2])] * 4
    result = oh.simulate(NO_HOOK_RULES, seats, games=20, seed=7)
    bids = result.hands["bid"].to_numpy().reshape(-1, 4)
    assert (bids.sum(axis=1) == 5).all()
    log = oh.replay(NO_HOOK_RULES, seats, seed=7, game=3)
    assert log.deals[0].forbidden_bid is None
    assert sum(log.deals[0].bids) == 5


def test_only_the_dealer_is_hooked(tester):
    # The first bidder takes all 5 (making the total 5 early is allowed), the dealer
    # then may not bid 0 and bids 1; when others overbid, the dealer is free.
    for script in ([5, 0, 0, 1], [3, 2, 1, 0], [0, 0, 0, 4]):
        seats = [ss.scripted(script)] * 4
        result = oh.simulate(HOOK_RULES, seats, games=20, seed=1)
        bids = result.hands["bid"].to_numpy().reshape(-1, 4)
        dealers = result.hands["dealer"].to_numpy().reshape(-1, 4)[:, 0]
        for g in range(20):
            assert _by_position(bids[g], dealers[g]) == script
    with pytest.raises(oh.IllegalMoveError):
        oh.simulate(HOOK_RULES, [ss.scripted([5, 0, 0, 0])] * 4, games=1, seed=1)


# --- the trick example: hearts trump, clubs led: A♣ 4♣ 2♥ K♣ --------------------

TRICK = parse_cards("A♣ 4♣ 2♥ K♣")


def test_trick_example_reference():
    assert reference.trick_winner(TRICK, HEARTS) == 2


def test_trick_example_numba_beats():
    ace_clubs, four_clubs, two_hearts, king_clubs = TRICK
    assert not core.beats(four_clubs, ace_clubs, HEARTS)
    assert core.beats(two_hearts, ace_clubs, HEARTS)
    assert not core.beats(king_clubs, two_hearts, HEARTS)
    best, winner = TRICK[0], 0
    for i, card in enumerate(TRICK[1:], start=1):
        if core.beats(card, best, HEARTS):
            best, winner = card, i
    assert winner == 2 and best == parse_card("2H")


def test_trick_example_without_the_trump():
    # With spades trump, the ace of clubs keeps the trick (2♥ is a discard).
    assert reference.trick_winner(TRICK, 3) == 0
    assert not core.beats(parse_card("2H"), parse_card("AC"), 3)


def test_trick_winner_and_beats_agree_on_random_tricks():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        n = int(rng.integers(3, 8))
        cards = [int(c) for c in rng.choice(52, size=n, replace=False)]
        trump = int(rng.integers(0, 4))
        best, winner = cards[0], 0
        for i, card in enumerate(cards[1:], start=1):
            if core.beats(card, best, trump):
                best, winner = card, i
        assert winner == reference.trick_winner(cards, trump), (cards, trump)


# --- the FAQ ---------------------------------------------------------------------


def test_faq_missing_under_or_over_scores_zero():
    for rules in (HOOK_RULES, NO_HOOK_RULES):
        for bid in range(0, 6):
            for tricks in range(0, 6):
                if tricks == bid:
                    continue
                assert reference_score(rules, bid, tricks, 5) == 0
                assert kernel_score(rules, bid, tricks, 5) == 0
        assert reference_score(rules, 3, 1, 5) == reference_score(rules, 3, 5, 5) == 0
        assert kernel_score(rules, 3, 1, 5) == kernel_score(rules, 3, 5, 5) == 0
        assert reference_score(rules, 0, 0, 5) == kernel_score(rules, 0, 0, 5) == 10
        assert reference_score(rules, 5, 5, 5) == kernel_score(rules, 5, 5, 5) == 15


def test_faq_leading_trump_at_once_is_legal(tester):
    rules = Rules(players=4)
    seats = [ss.mode(ss.MODE_LEAD_TRUMP), "random", ss.mode(ss.MODE_LEAD_TRUMP), "simple"]
    result = oh.simulate(rules, seats, games=300, seed=11)
    assert len(result.hands) == 300 * 19 * 4
    first_trick_trump_leads = 0
    for game in range(6):
        log = oh.replay(rules, seats, seed=11, game=game)
        for deal in log.deals:
            for t, trick in enumerate(deal.tricks):
                lead = trick.cards[0]
                if trick.leader in (0, 2):
                    hand_trumps = [c for c in deal.hands[trick.leader] if c // 13 == deal.trump]
                    if t == 0 and hand_trumps:
                        # The tester leads its highest trump, even on the first trick.
                        assert lead == max(hand_trumps)
                        first_trick_trump_leads += 1
    assert first_trick_trump_leads > 0
