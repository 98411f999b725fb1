"""Tests of the sampler of hidden hands of the search players (``ohhell_sim.strategies._playout``).

Every sample must be a deal consistent with the view (hand sizes, shown voids,
the cards seen and those known to be in a hand), and every consistent deal must
be equally likely.  Small positions with several voided seats, with and without
a stock, are enumerated in plain Python and the samples' counts tested against
the uniform distribution (chi-square); positions from real play are sampled and
each sample checked.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare
from test_strategies_common import make_view, rng

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER, card_code, parse_cards
from ohhell_sim.reference import drive, game_steps, seat_streams
from ohhell_sim.rules import R_JOKER, Rules
from ohhell_sim.strategies.sampler import PLAN_SIZE, PLAN_TABLE, draw_sample, prepare_sample
from ohhell_sim.strategy import get_strategy

#: A sampler that is right fails a chi-square test at this level once in a thousand.
ALPHA = 1e-3


def position(rules, hand, unseen, trump, turned, voids, hand_size, trick_index, **kw):
    """A view in play whose unseen cards are ``unseen``, every other card played."""
    kept = set(parse_cards(hand + " " + unseen + " " + " ".join(kw.get("trick", ()))))
    if turned:
        kept.add(parse_cards(turned)[0])
    deck = JOKER + 1 if rules.joker else JOKER
    played = " ".join(card_code(c) for c in range(deck) if c not in kept)
    return make_view(
        hand,
        trump,
        rules=rules,
        phase=V.PHASE_PLAY,
        hand_size=hand_size,
        trick_index=trick_index,
        played=played,
        voids=voids,
        trump_card=turned,
        **kw,
    )


# 4 players, 12 cards each: three cards in the stock.  Seat 3 has led this trick.
THREE_VOIDS_AND_STOCK = position(
    Rules(players=4),
    "AS 7D 2C",
    "KS 5S TH JH 3H 2D TD 9C 8C 4C",
    "S",
    "QS",
    {1: "H", 2: "SD", 3: "C"},
    12,
    9,
    trick=["KD"],
    dealer=2,
)
# 13 cards each, a no-trump deal with no stock; seats 2 and 3 void alike; our
# left neighbour still holds the two cards we passed it.
PASSED_CARDS_NO_STOCK = position(
    Rules(players=4, no_trump_every=13, swap=2, schedule=[13]),
    "AS 7D 2C 3C",
    "KS 5S TH JH 3H 2D TD 9C 8C 4C QD 7H",
    None,
    None,
    {1: "S", 2: "D", 3: "D"},
    13,
    9,
    passed="QD 7H",
    dealer=3,
)
# 3 players, 16 cards and a joker: four cards in the stock; a void in trump
# rules the joker out.
JOKER_AND_STOCK = position(
    Rules(players=3, joker=True),
    "AS 7D",
    "JK KS 5S TH JH 3H 2D TD 9C 8C",
    "S",
    "QS",
    {1: "S", 2: "HD"},
    16,
    14,
    dealer=2,
)
# 5 players, 10 cards: one card in the stock, four seats void differently.
FOUR_VOIDS = position(
    Rules(players=5),
    "AS 2C",
    "KS 5S TH 3H 2D TD 9C 8C 4C",
    "H",
    "QH",
    {1: "S", 2: "HD", 3: "C", 4: "DC"},
    10,
    8,
    dealer=4,
)


def seat_needs(view):
    """Cards each other active seat still holds, by the view's counts."""
    n, me = view[V.N_PLAYERS], view[V.SEAT]
    done = view[V.TRICK]
    return {
        s: view[V.HAND_SIZE] - done - (view[V.TRICK_CARDS_BASE + s] >= 0)
        for s in range(n)
        if s != me and (view[V.ACTIVE] >> s) & 1
    }


def unseen_cards(view):
    """The cards we cannot see: not held, not played, not turned up."""
    deck = JOKER + 1 if view[V.RULES_BASE + R_JOKER] else JOKER
    seen = view[V.HAND] | view[V.PLAYED]
    if view[V.TRUMP_CARD] >= 0:
        seen |= 1 << view[V.TRUMP_CARD]
    return [c for c in range(deck) if not (seen >> c) & 1]


def may_hold(view, seat, card):
    """Whether ``seat``'s shown voids allow it ``card`` (the joker is a trump)."""
    suit = view[V.TRUMP] if card == JOKER else card // 13
    return suit < 0 or not (view[V.VOIDS_BASE + seat] >> suit) & 1


def known_cards(view):
    """Unseen cards known to be in a hand: those we passed left, a forehead deal's."""
    unseen = set(unseen_cards(view))
    n, me = view[V.N_PLAYERS], view[V.SEAT]
    known = {s: set() for s in range(n)}
    left = next(s for s in [(me + k) % n for k in range(1, n)] if (view[V.ACTIVE] >> s) & 1)
    known[left] |= {c for c in unseen if (view[V.PASSED] >> c) & 1}
    for s in range(n):
        if view[V.VISIBLE_BASE + s] in unseen:
            known[s].add(view[V.VISIBLE_BASE + s])
    return known


def consistent_deals(view):
    """Every deal of the unseen cards consistent with the view: (seats, deals).

    A deal is a tuple of hand masks, one per seat of ``seats``; the stock takes
    the rest.
    """
    needs = seat_needs(view)
    seats = sorted(needs)
    known = known_cards(view)
    deals = []

    def deal(i, left, hands):
        if i == len(seats):
            deals.append(tuple(hands))
            return
        s = seats[i]
        if not known[s] <= left or not all(may_hold(view, s, c) for c in known[s]):
            return
        free = sorted(c for c in left - known[s] if may_hold(view, s, c))
        for chosen in itertools.combinations(free, needs[s] - len(known[s])):
            hand = set(chosen) | known[s]
            deal(i + 1, left - hand, [*hands, sum(1 << c for c in hand)])

    deal(0, set(unseen_cards(view)), [])
    return seats, deals


@njit
def _deal_keys(view, draws, state, cards, seats, plan_size):
    # Each sample as one number: the owner of each unseen card (0 for the stock,
    # else 1 + the seat's index in ``seats``) in base len(seats) + 1.  -1: the
    # plan was refused, -2: a draw failed.
    plan = np.empty(plan_size, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    keys = np.full(draws, -1, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return keys
    for d in range(draws):
        if not draw_sample(plan, pool, state, hands):
            keys[d] = -2
            continue
        key = 0
        for i in range(cards.shape[0] - 1, -1, -1):
            owner = 0
            for j in range(seats.shape[0]):
                if (hands[seats[j]] >> cards[i]) & 1:
                    owner = j + 1
            key = key * (seats.shape[0] + 1) + owner
        keys[d] = key
    return keys


def deal_key(deal, cards):
    """The number :func:`_deal_keys` gives the deal (a tuple of hand masks)."""
    key = 0
    for card in reversed(cards):
        owner = next((j + 1 for j, hand in enumerate(deal) if (hand >> card) & 1), 0)
        key = key * (len(deal) + 1) + owner
    return key


def sample_counts(view, draws, seed, plan_size=PLAN_SIZE):
    """How often each consistent deal was drawn, and the draws that were none of them."""
    seats, deals = consistent_deals(view)
    cards = unseen_cards(view)
    expected = np.array(sorted(deal_key(deal, cards) for deal in deals), dtype=np.int64)
    keys = _deal_keys(
        view, draws, rng(seed), np.array(cards), np.array(seats, dtype=np.int64), plan_size
    )
    found = np.isin(keys, expected)
    counts = np.zeros(expected.shape[0])
    values, times = np.unique(keys[found], return_counts=True)
    counts[np.searchsorted(expected, values)] = times
    return counts, int(np.count_nonzero(~found))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("view", "draws", "size"),
    [
        (THREE_VOIDS_AND_STOCK, 1_000_000, 1092),
        (JOKER_AND_STOCK, 1_000_000, 163),
        (PASSED_CARDS_NO_STOCK, 200_000, 70),
        (FOUR_VOIDS, 200_000, 372),
    ],
    ids=["three voids, stock", "joker, stock", "passed cards, no stock", "four voids"],
)
def test_every_consistent_deal_is_equally_likely(view, draws, size):
    counts, inconsistent = sample_counts(view, draws, seed=21)
    assert counts.shape[0] == size  # the enumeration is the one meant
    assert inconsistent == 0
    assert chisquare(counts).pvalue > ALPHA


@pytest.mark.slow
@pytest.mark.parametrize("room", [0, 100])
@pytest.mark.parametrize(
    "view",
    [THREE_VOIDS_AND_STOCK, PASSED_CARDS_NO_STOCK, FOUR_VOIDS],
    ids=["three voids", "passed cards", "four voids"],
)
def test_a_table_too_large_for_the_plan_stays_exact(view, room):
    # A plan with room for a small table (or none) checks some seats' voids
    # after the deal instead, and draws again a deal that breaks them.
    counts, inconsistent = sample_counts(view, 200_000, seed=22, plan_size=PLAN_TABLE + room)
    assert inconsistent == 0
    assert chisquare(counts).pvalue > ALPHA


def test_an_impossible_position_is_refused():
    # The three hearts left can only go to seat 1, which holds the two cards we
    # passed it and lacks only four: no deal is consistent.
    view = position(
        Rules(players=4),
        "AS 7D 2C 3C",
        "KS 5S TH JH 3H 2D TD 9C 8C 4C QD 7H",
        None,
        None,
        {1: "S", 2: "H", 3: "H"},
        13,
        9,
        passed="QD 7H",
        dealer=3,
    )
    assert consistent_deals(view)[1] == []
    keys = _deal_keys(view, 1, rng(23), np.arange(1), np.arange(1), PLAN_SIZE)
    assert keys[0] == -1
    # A card we passed cannot be held by a seat void in its suit since.
    shown_void = position(
        Rules(players=4),
        "AS 7D 2C 3C",
        "KS 5S TH JH 3H 2D TD 9C 8C 4C QD 7H",
        None,
        None,
        {1: "H"},
        13,
        9,
        passed="7H",
        dealer=3,
    )
    keys = _deal_keys(shown_void, 1, rng(23), np.arange(1), np.arange(1), PLAN_SIZE)
    assert keys[0] == -1


@njit
def _draw_many(view, samples, state):
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    out = np.zeros((samples, V.MAX_SEATS), dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return out, False
    for i in range(samples):
        if not draw_sample(plan, pool, state, out[i]):
            return out, False
    return out, True


def test_samples_respect_sizes_voids_and_fixed_cards():
    # Mid-deal: seat 2 has shown a void in hearts, seat 3 in clubs and spades
    # (trump: a void in trump rules the joker out too, there is none here).
    view = make_view(
        "AS 7S 9H 4D 3D QC 2C",
        "S",
        seat=0,
        dealer=3,
        phase=V.PHASE_PLAY,
        hand_size=10,
        bids=[2, 3, 1, 2],
        won=[1, 1, 0, 1],
        played="KS 5S 2S 3S JH TH 4H 2D 9S 8H 7H 6H",
        trick_index=3,
        voids={2: "H", 3: "CS"},
    )
    samples, ok = _draw_many(view, 400, rng(7))
    assert ok
    for row in samples:
        assert row[0] == view[V.HAND]
        for s in (1, 2, 3):
            assert popcount(row[s]) == 7
        hearts = 0x1FFF << 26
        clubs, spades = 0x1FFF, 0x1FFF << 39
        assert row[2] & hearts == 0
        assert row[3] & (clubs | spades) == 0
        assert row[1] & row[2] == 0 and row[1] & row[3] == 0 and row[2] & row[3] == 0
        assert (row[1] | row[2] | row[3]) & (view[V.HAND] | view[V.PLAYED]) == 0
    # Every hand is a different draw: the sampler is not stuck on one deal.
    assert len({tuple(row[:4]) for row in samples}) > 300


def test_sample_refuses_two_decks():
    view = make_view("AS KS", "S", rules=Rules(players=4, decks=2))
    _, ok = _draw_many(view, 1, rng(8))
    assert not ok


def popcount(mask):
    return bin(int(mask)).count("1")


def play_views(rules, games, seed):
    """The views of every card choice in ``games`` games of ``simple`` players."""
    strategy = get_strategy("simple")
    params = strategy.param_row({})
    names = ["simple"] * rules.players
    views = []
    for game in range(games):
        streams = seat_streams(seed, game, rules.players)

        def answer(decision, streams=streams):
            if decision.view[V.PHASE] == V.PHASE_PLAY:
                views.append(decision.view.copy())
            return getattr(strategy, decision.role)(decision.view, params, streams[decision.seat])

        drive(game_steps(rules, names, seed, game), answer)
    return views


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3, schedule=[17, 16]),
        Rules(players=4, schedule=[12, 9]),
        Rules(players=4, joker=True, swap=1, schedule=[10, 6]),
        Rules(players=5, schedule=[10, 7]),
        Rules(players=7, schedule=[7, 6]),
        Rules(players=4, forehead=True, schedule=[1, 2, 1]),
    ],
    ids=["3x17", "4x12", "4 joker swap", "5x10", "7x7", "4 forehead"],
)
def test_samples_of_real_play_are_consistent_deals(rules):
    views = play_views(rules, 2, seed=31)
    constrained = 0
    for i, view in enumerate(views):
        samples, ok = _draw_many(view, 12, rng(100 + i))
        assert ok
        needs = seat_needs(view)
        unseen = sum(1 << c for c in unseen_cards(view))
        known = known_cards(view)
        constrained += any(view[V.VOIDS_BASE + s] or known[s] for s in needs)
        for row in samples:
            assert row[view[V.SEAT]] == view[V.HAND]
            dealt = 0
            for s, need in needs.items():
                hand = int(row[s])
                assert popcount(hand) == need
                assert hand & dealt == 0
                assert hand & ~unseen == 0
                assert all(may_hold(view, s, c) for c in range(JOKER + 1) if (hand >> c) & 1)
                assert all((hand >> c) & 1 for c in known[s])
                dealt |= hand
    assert constrained > len(views) // 4  # voids or known cards were exercised
