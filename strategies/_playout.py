"""Full-information playouts and the sampling of hidden hands, for the sampling strategies.

The Monte Carlo strategies (``mc_bidder``, ``pimc``), the generator of the
``expected_tricks`` tables and the trainer of ``learned`` all need to play the
rest of a deal fast when every hand is known.  They use one engine, written on
plain arrays rather than the view:

* :func:`play_out` finishes a deal, possibly from the middle of a trick, with
  every seat following :func:`strategies._common.greedy_card` (``simple``'s play);
* :func:`estimate_bids` fills in the bids not yet known with ``simple``'s count;
* :func:`sample_hidden` deals the cards a player cannot see to the other seats,
  consistent with what the view shows: hand counts, shown voids, the cards this
  seat passed left in the swap, the others' cards in a forehead deal;
* :func:`simulated_deal` deals a random deal and plays it out this way, for the
  table generators.

Only one deck is supported here (a hand is one mask): the strategies that sample
declare two decks unsupported (``Strategy.unsupported``) and fall back to
rule-based play if they meet them anyway.  The engine's rule primitives
(``beats``, ``following_cards``, ``led_suit_of``, ``next_seat``) decide tricks and
legality, so playouts follow the same rules as the kernel.

Functions that loop over whole deals are plain ``@njit``: they are too large to
gain from inlining, and, like the rest of the package apart from the generated
kernel, are not cached on disk (a cached caller would not notice an edited callee).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import beats, deal_cards, following_cards, led_suit_of, next_seat
from ohhell_sim.engine.rng import below
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategy_tools import lowest_card, popcount
from strategies._common import greedy_card, seat_may_hold, unseen_mask
from strategies.simple import likely_tricks

#: Tries at a void-respecting sample before the voids are dropped for one sample.
_SAMPLE_TRIES = 16


@njit
def quick_bid(hand, trump, most, forbidden):
    """``simple``'s bid for a known hand: its rounded count, off the forbidden bid."""
    b = min(max(int(likely_tricks(hand, trump) + 0.5), 0), most)
    if b == forbidden:
        b = b - 1 if b > 0 else b + 1
    return b


@njit
def estimate_bids(n, active, dealer, hand_size, most, hook, trump, hands, bids):
    """Replace the unknown (negative) entries of ``bids`` by ``simple``'s bids.

    Seats bid in order from the dealer's left; the dealer's estimate respects the
    hook given the other bids (known or estimated).
    """
    total = 0
    seat = dealer
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        if bids[seat] < 0:
            forbidden = -1
            if seat == dealer and hook != 0:
                forbidden = hand_size - total
            bids[seat] = quick_bid(hands[seat], trump, most, forbidden)
        total += bids[seat]


@njit
def play_out(
    n,
    active,
    trump,
    hands,
    bids,
    won,
    turn,
    n_in_trick,
    led,
    best,
    best_seat,
    tricks_left,
    winning_cards,
):
    """Finish a deal with the greedy policy for every seat.

    ``turn`` is the seat to play next and ``n_in_trick`` the cards already in the
    current trick (0 to start a trick), whose led suit and winning card and seat
    are ``led``, ``best`` and ``best_seat``.  ``tricks_left`` counts the current
    trick.  ``hands`` (one mask per seat) are emptied and ``won`` is incremented;
    ``winning_cards[t]`` receives the card that took the ``t``-th trick played here
    when the array is long enough (pass an empty array otherwise).
    """
    n_active = popcount(active)
    seat = turn
    j = n_in_trick
    for t in range(tricks_left):
        while j < n_active:
            hand = hands[seat]
            if j == 0:
                legal = hand
            else:
                follow = following_cards(hand, led, trump)
                legal = follow if follow != 0 else hand
            card = greedy_card(legal, led, trump, j, best, won[seat] < bids[seat])
            hands[seat] = hand ^ (np.int64(1) << card)
            if j == 0:
                led = led_suit_of(card, trump)
                best = card
                best_seat = seat
            elif beats(card, best, trump):
                best = card
                best_seat = seat
            seat = next_seat(seat, active, n)
            j += 1
        won[best_seat] += 1
        if t < winning_cards.shape[0]:
            winning_cards[t] = best
        seat = best_seat
        j = 0


@njit
def _may_take(view, seat, card, trump):
    # Whether ``seat`` may hold ``card`` given its shown voids.
    return (seat_may_hold(view, seat, trump) >> card) & 1 != 0


@njit
def sample_hidden(view, rng, hands, pool):
    """Deal the cards we cannot see to the other seats, consistent with the view.

    Fills ``hands`` (one mask per seat; ours is ``view[HAND]``) and returns True,
    or False when the view is not one this sampler supports (two decks, or hand
    counts that do not add up).  Each other active seat gets as many cards as it
    still holds; the rest of the unseen cards stay in the stock.  Fixed first: the
    cards we passed left in the swap (still held by that neighbour unless played)
    and the others' cards shown in a forehead deal.  Then the unseen cards are
    shuffled and dealt one by one to a seat drawn in proportion to the cards it
    still lacks, among the seats that have not shown a void in the card's suit
    (the stock takes any card).  A dead end is retried, and after
    ``_SAMPLE_TRIES`` failures the voids are ignored for this sample.
    ``pool`` is scratch space of at least 53 entries.
    """
    if view[V.RULES_BASE + R_DECKS] != 1:
        return False
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    trump = view[V.TRUMP]
    in_play = view[V.PHASE] == V.PHASE_PLAY
    done = max(view[V.TRICK], 0) if in_play else 0
    need = np.zeros(V.MAX_SEATS + 1, dtype=np.int64)
    fixed = np.zeros(V.MAX_SEATS, dtype=np.int64)
    unseen = unseen_mask(view)
    for s in range(n):
        hands[s] = 0
        if s == me or (active >> s) & 1 == 0:
            continue
        need[s] = view[V.HAND_SIZE] - done
        if in_play and view[V.TRICK_CARDS_BASE + s] >= 0:
            need[s] -= 1
        shown = view[V.VISIBLE_BASE + s]
        if shown >= 0 and (unseen >> shown) & 1:
            fixed[s] |= np.int64(1) << shown
    passed = view[V.PASSED] & unseen
    if passed != 0:
        fixed[next_seat(me, active, n)] |= passed
    free = unseen
    for s in range(n):
        if fixed[s] != 0:
            need[s] -= popcount(fixed[s])
            free &= ~fixed[s]
            if need[s] < 0:
                return False
    n_pool = 0
    m = free
    while m != 0:
        pool[n_pool] = lowest_card(m)
        m &= m - 1
        n_pool += 1
    wanted = 0
    for s in range(n):
        wanted += need[s]
    stock = n_pool - wanted
    if stock < 0:
        return False
    left = need.copy()
    for attempt in range(_SAMPLE_TRIES + 1):
        use_voids = attempt < _SAMPLE_TRIES
        for s in range(n):
            hands[s] = fixed[s]
            left[s] = need[s]
        left[V.MAX_SEATS] = stock
        ok = True
        for i in range(n_pool):
            j = i + below(rng, n_pool - i)
            card = pool[j]
            pool[j] = pool[i]
            pool[i] = card
            weight = left[V.MAX_SEATS]
            for s in range(n):
                if left[s] > 0 and (not use_voids or _may_take(view, s, card, trump)):
                    weight += left[s]
            if weight == 0:
                ok = False
                break
            r = below(rng, weight)
            taker = V.MAX_SEATS
            if r >= left[V.MAX_SEATS]:
                r -= left[V.MAX_SEATS]
                for s in range(n):
                    if left[s] > 0 and (not use_voids or _may_take(view, s, card, trump)):
                        if r < left[s]:
                            taker = s
                            break
                        r -= left[s]
            left[taker] -= 1
            if taker < V.MAX_SEATS:
                hands[taker] |= np.int64(1) << card
        if ok:
            hands[me] = view[V.HAND]
            return True
    return False


@njit
def simulated_deal(
    state, deck, hands, hands2, players, hand_size, no_trump, dealt, bids, won, winning_cards
):
    """Deal a random deal and play it out with ``simple``'s bids and greedy play.

    Draws the dealer, then the deal (the engine's :func:`deal_cards`, with a card
    turned up for trump unless ``no_trump``), from the stream ``state``.  Fills
    ``dealt`` (each seat's hand as dealt), ``bids``, ``won`` (tricks taken) and
    ``winning_cards`` (the card that took each trick, when long enough); ``deck``,
    ``hands`` and ``hands2`` are scratch.  Returns ``(dealer, trump)``.
    """
    active = (np.int64(1) << players) - 1
    dealer = below(state, players)
    turned = deal_cards(
        state, deck, 52, players, active, hand_size, dealer, 0 if no_trump else 1, hands, hands2
    )
    trump = -1 if no_trump else turned // 13
    for s in range(players):
        bids[s] = -1
        won[s] = 0
        dealt[s] = hands[s]
    estimate_bids(players, active, dealer, hand_size, hand_size, 1, trump, hands, bids)
    first = next_seat(dealer, active, players)
    play_out(
        players, active, trump, hands, bids, won, first, 0, -1, -1, -1, hand_size, winning_cards
    )
    return dealer, trump
