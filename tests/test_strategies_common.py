"""Tests of the helpers shared by the built-in strategies, and a builder of views.

:func:`make_view` builds the ``view`` array a strategy would receive, from a
readable description, so that scripted tests can call a strategy's compiled
``bid``/``play`` directly on a position whose right move is known.  The other
strategy test modules import it from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from ohhell_sim import view as V
from ohhell_sim.cards import mask_of, parse_card, parse_cards
from ohhell_sim.engine.core import beats, following_cards, forbidden_bid, led_suit_of
from ohhell_sim.rules import Rules
from ohhell_sim.strategies import _common as C

SUITS = {"C": 0, "D": 1, "H": 2, "S": 3}


def make_view(
    hand: str,
    trump: str | None,
    *,
    rules: Rules | None = None,
    seat: int = 0,
    dealer: int | None = None,
    hand_size: int | None = None,
    phase: int = V.PHASE_BID,
    bids: Sequence[int] | None = None,
    won: Sequence[int] | None = None,
    trick: Sequence[str] = (),
    played: str = "",
    trick_index: int = 0,
    voids: Mapping[int, str] | None = None,
    trump_card: str | None = None,
    visible: Mapping[int, str] | None = None,
    passed: str = "",
) -> np.ndarray:
    """The view of ``seat`` for a described position.

    Parameters
    ----------
    hand : str
        Cards held, e.g. ``"AS KS 2H"`` (``""`` for a forehead bid).
    trump : str or None
        Trump suit letter (``"S"``), or None for a no-trump deal.
    rules : Rules, optional
        Default: canonical rules for 4 players.
    seat, dealer : int
        The seat deciding, and the dealer (default: the seat before ``seat``,
        so that ``seat`` bids and leads first).
    hand_size : int, optional
        Cards dealt each (default: cards in ``hand`` plus tricks done).
    phase : int
        ``view.PHASE_BID``, ``PHASE_PLAY`` or ``PHASE_SWAP``.
    bids, won : sequence of int, optional
        Per seat (``-1`` for not yet bid).
    trick : sequence of str
        Cards already in the current trick, in play order from its leader (the
        leader is the seat ``len(trick)`` seats before ``seat``).
    played : str
        Cards played in earlier tricks.
    trick_index : int
        Index of the current trick.
    voids : mapping, optional
        Seat -> suit letters it has shown void in.
    trump_card : str, optional
        The turned-up card (default: none turned).
    visible : mapping, optional
        Forehead deal: seat -> its card, as seen by the others.
    passed : str
        Cards this seat passed left in the swap.
    """
    rules = rules or Rules(players=4)
    n = rules.players
    view = np.full(V.VIEW_SIZE, V.UNKNOWN, dtype=np.int64)
    view[V.RULES_BASE :] = rules.to_array()
    dealer = (seat - 1) % n if dealer is None else dealer
    cards = parse_cards(hand) if hand.strip() else []
    hand_mask = mask_of(cards)
    in_trick = parse_cards(" ".join(trick)) if trick else []
    played_mask = mask_of(parse_cards(played) if played.strip() else []) | mask_of(in_trick)
    size = hand_size if hand_size is not None else max(len(cards), 1) + trick_index
    trump_suit = -1 if trump is None else SUITS[trump.upper()]
    view[V.SEAT] = seat
    view[V.HAND] = hand_mask
    view[V.HAND2] = 0
    view[V.PASSED] = mask_of(parse_cards(passed)) if passed else 0
    view[V.RECEIVED] = 0
    view[V.PHASE] = phase
    view[V.N_PLAYERS] = n
    view[V.DEALER] = dealer
    view[V.HAND_SIZE] = size
    view[V.TRUMP] = trump_suit
    view[V.TRUMP_CARD] = parse_card(trump_card) if trump_card else V.UNKNOWN
    view[V.DEAL] = 0
    view[V.N_DEALS] = rules.n_deals
    view[V.MAX_BID] = 0 if rules.nullo else size
    view[V.ACTIVE] = (1 << n) - 1
    view[V.N_ACTIVE] = n
    view[V.HOOK] = int(rules.hook)
    view[V.TIEBREAK] = 0
    view[V.PLAYED] = played_mask
    view[V.PLAYED2] = 0
    bids = list(bids) if bids is not None else [V.UNKNOWN] * n
    won = list(won) if won is not None else [0] * n
    total = 0
    for s in range(n):
        view[V.BIDS_BASE + s] = bids[s]
        view[V.TRICKS_WON_BASE + s] = won[s]
        view[V.VOIDS_BASE + s] = 0
        view[V.SCORES_BASE + s] = 0
        view[V.FAULTS_BASE + s] = 0
        view[V.VISIBLE_BASE + s] = V.UNKNOWN
        total += max(bids[s], 0)
    for s, suits in (voids or {}).items():
        view[V.VOIDS_BASE + s] = sum(1 << SUITS[c.upper()] for c in suits)
    for s, card in (visible or {}).items():
        view[V.VISIBLE_BASE + s] = parse_card(card)
    view[V.BID_TOTAL] = total
    view[V.FORBIDDEN_BID] = V.UNKNOWN
    view[V.LEGAL] = 0
    if phase == V.PHASE_BID:
        if seat == dealer:
            view[V.FORBIDDEN_BID] = forbidden_bid(int(rules.hook), size, total)
    elif phase == V.PHASE_SWAP:
        view[V.LEGAL] = hand_mask
    else:
        leader = (seat - len(in_trick)) % n
        view[V.TRICK] = trick_index
        view[V.LEADER] = leader
        view[V.N_IN_TRICK] = len(in_trick)
        led = -1
        best = -1
        best_seat = -1
        for j, card in enumerate(in_trick):
            s = (leader + j) % n
            view[V.TRICK_CARDS_BASE + s] = card
            if j == 0:
                led = led_suit_of(card, trump_suit)
                best, best_seat = card, s
            elif beats(card, best, trump_suit):
                best, best_seat = card, s
        view[V.LED_SUIT] = led
        view[V.WINNING_CARD] = best
        view[V.WINNING_SEAT] = best_seat
        follow = following_cards(hand_mask, led, trump_suit) if in_trick else 0
        view[V.LEGAL] = follow if follow else hand_mask
    return view


def params_of(name: str, **overrides: float) -> np.ndarray:
    """The parameter row of built-in strategy ``name``."""
    from ohhell_sim.strategy import get_strategy

    return get_strategy(name).param_row(overrides)


def decide(function, view: np.ndarray, params: np.ndarray, stream: np.ndarray) -> int:
    """A built-in's compiled ``bid`` or ``play`` called as the shared kernel calls it.

    The view and the parameter row go in read-only, the kernel's argument types, so the
    call links the compile kept on disk for the package's sources
    (:func:`~ohhell_sim.strategy.disk_cache.cached_on_disk`): a search player compiles once per
    machine, not once per test process and argument type.
    """
    from ohhell_sim.strategy.disk_cache import cached_on_disk

    view = np.array(view, dtype=np.int64)
    params = np.array(params, dtype=np.float64)
    view.flags.writeable = params.flags.writeable = False
    return int(cached_on_disk(function)(view, params, stream))


def rng(seed: int = 1) -> np.ndarray:
    """A seat's random stream for direct calls."""
    from ohhell_sim.engine.rng import seed_stream

    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, np.uint64(seed), 2, 0)
    return state


def card(text: str) -> int:
    """Card id of ``text``."""
    return parse_card(text)


# --- the shared helpers --------------------------------------------------------------


#: Positions every search player must answer with a legal bid or card.
SEARCH_VIEWS = {
    "first bid": make_view("AH 7C 4D 9S 2H", "S", seat=0, dealer=3, hand_size=5),
    "dealer bid, hook": make_view(
        "AS KS 2H 3D 5C", "S", seat=3, dealer=3, hand_size=5, bids=[1, 1, 1, -1]
    ),
    "lead": make_view(
        "AH 7C 4D 9S 2H", "S", seat=0, dealer=3, phase=V.PHASE_PLAY, bids=[1, 2, 0, 1]
    ),
    "follow": make_view(
        "AH 7C 4D 9S 2H",
        "S",
        seat=2,
        dealer=3,
        phase=V.PHASE_PLAY,
        bids=[1, 2, 0, 1],
        trick=["KH", "3H"],
    ),
    "void": make_view(
        "7C 4D 9S",
        "S",
        seat=1,
        dealer=3,
        phase=V.PHASE_PLAY,
        hand_size=5,
        trick_index=2,
        bids=[1, 2, 0, 1],
        won=[1, 1, 0, 0],
        trick=["KH"],
        played="2H 3H 4H 5H 6C 7D 8D 9D",
    ),
}


def test_legal_bid_near_steps_toward_the_likely_side():
    # Dealer (seat 3) after bids 1, 1, 0 in a 4-card deal: 2 is forbidden.
    view = make_view("AH KD 2H 3D", "S", seat=3, dealer=3, bids=[1, 1, 0, -1])
    assert view[V.FORBIDDEN_BID] == 2
    assert C.legal_bid_near(view, 2, True) == 3
    assert C.legal_bid_near(view, 2, False) == 1
    assert C.legal_bid_near(view, 9, False) == 4  # clamped to the hand size
    # The ace and king of trumps are two tricks for sure: 1 can only be missed.
    sure = make_view("AS KS 2H 3D", "S", seat=3, dealer=3, bids=[1, 1, 0, -1])
    assert C.legal_bid_near(sure, 2, False) == 3
    assert C.legal_bid_near(sure, 0, False) == 3
    nullo = make_view("AS KS", "S", rules=Rules(players=4, nullo=True))
    assert C.legal_bid_near(nullo, 2, True) == 0


def test_best_bid_follows_the_scoring_table():
    probs = np.array([0.3, 0.4, 0.3])
    canonical = make_view("AD KD", "S")
    assert C.best_bid(canonical, probs) == 1
    # Under 10*bid a made zero still scores 10 but a made two scores 20.
    ten_times = make_view("AD KD", "S", rules=Rules(players=4, made="10*bid"))
    assert C.best_bid(ten_times, probs) == 2
    # All or nothing: the whole hand is worth more than a zero...
    split = np.array([0.5, 0.0, 0.0, 0.5])
    assert C.best_bid(make_view("AD KD QD", "S"), split) == 3
    # ...unless falling short costs 10 a trick while overshooting is free.
    harsh = make_view("AD KD QD", "S", rules=Rules(players=4, under="-10*diff"))
    assert C.best_bid(harsh, split) == 0
    # Per-bid rows, and bids left out.
    rows = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 1.0]])
    allowed = np.array([True, True, False, False])
    assert C.best_bid_by_row(make_view("AD KD QD", "S"), rows, allowed) == 1
    # Bids below the boss trumps held are left out while one at or above is
    # allowed; with none allowed there, every allowed bid is weighed.
    assert C.best_bid(make_view("AS KS", "S"), probs) == 2
    assert C.best_bid_by_row(make_view("AS KS QS", "S"), rows, allowed) == 1


def test_unseen_mask_one_and_two_decks():
    view = make_view("AS KS", "S", phase=V.PHASE_PLAY, played="2C 3C", trump_card="4C")
    unseen = C.unseen_mask(view)
    for gone in ("AS", "KS", "2C", "3C", "4C"):
        assert not (unseen >> card(gone)) & 1
    assert bin(unseen).count("1") == 47
    two = make_view("AS KS", "S", rules=Rules(players=4, decks=2), phase=V.PHASE_PLAY, played="2C")
    unseen2 = C.unseen_mask(two)
    # One copy of each is seen; the other may be anywhere.
    assert (unseen2 >> card("AS")) & 1 and (unseen2 >> card("2C")) & 1
    two[V.HAND2] = 1 << card("AS")
    two[V.PLAYED2] = 1 << card("2C")
    unseen2 = C.unseen_mask(two)
    assert not (unseen2 >> card("AS")) & 1 and not (unseen2 >> card("2C")) & 1


def test_threats_respect_voids_and_trumps():
    # Hearts led, we play the king; the ace of hearts and trumps are out.
    view = make_view(
        "KH 2C",
        "S",
        seat=1,
        phase=V.PHASE_PLAY,
        trick=["5H"],
        played="AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    )
    unseen = C.unseen_mask(view)
    may = C.later_may_hold(view, 3)
    assert C.threats(card("KH"), 2, 3, unseen, may) == 1 << card("AH")
    view[V.VOIDS_BASE + 2] = 1 << 2
    view[V.VOIDS_BASE + 3] = 1 << 2
    may = C.later_may_hold(view, 3)
    assert C.threats(card("KH"), 2, 3, unseen, may) == 0


def test_forehead_bid_counts_the_winning_cards():
    rules = Rules(players=3, schedule=[1], forehead=True)
    # We see the two of clubs and the three of clubs; trump is spades (turned 4S).
    # We lead (the dealer is seat 2): almost any card of ours wins.
    view = make_view(
        "",
        "S",
        rules=rules,
        seat=0,
        dealer=2,
        hand_size=1,
        visible={1: "2C", 2: "3C"},
        trump_card="4S",
    )
    assert C.forehead_bid(view) == 1
    # Facing the ace of trumps we cannot win.
    view = make_view(
        "",
        "S",
        rules=rules,
        seat=0,
        dealer=2,
        hand_size=1,
        visible={1: "AS", 2: "3C"},
        trump_card="4S",
    )
    assert C.forehead_bid(view) == 0


@pytest.mark.parametrize("dangerous, expected", [(True, "AS"), (False, "JH")])
def test_swap_card(dangerous, expected):
    view = make_view("AS 2S JH 3D", "S", phase=V.PHASE_SWAP)
    assert C.swap_card(view, dangerous) == card(expected)


def test_greedy_card_wins_cheaply_and_ducks_high():
    view = make_view("AH KH 3H", "S", seat=1, phase=V.PHASE_PLAY, trick=["QH"], bids=[0, 1, 0, 0])
    args = (view[V.LEGAL], view[V.LED_SUIT], 3, 1, view[V.WINNING_CARD])
    assert C.greedy_card(*args, True) == card("KH")
    assert C.greedy_card(*args, False) == card("3H")
