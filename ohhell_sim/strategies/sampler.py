"""The hidden hands of a position, sampled: every deal the player cannot tell apart, equally likely.

The search players (``mc_bidder``, ``pimc``, ``bayes_pimc``, ``adaptive_pimc``),
the trainer of ``distilled`` and the OpenSpiel bots' fair resampler deal the
cards a player cannot see to the other seats, consistently with what the view
shows: each seat gets as many cards as it still holds, none of a suit it has
shown void in (a void in trump rules out the joker), the cards this seat passed
left in the swap stay with that neighbour, the others' cards shown in a
forehead deal stay put, and the rest of the unseen cards are the stock.

* :func:`sample_hidden` deals one sample of a view;
* :func:`prepare_sample` derives once what the samples of one view share (a
  *plan*, :data:`PLAN_SIZE` entries, and a pool of cards), and
  :func:`draw_sample` deals one sample from it: faster for many samples.

Every deal consistent with the view has the same chance: the seats whose voids
restrict them are grouped, and a table of counts (past :data:`PLAN_TABLE` in
the plan) weighs how the restricted cards may fall.  Only one deck is supported
(a hand is one mask): a view of two decks is refused.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.core import next_seat
from ohhell_sim.engine.rng import below, uniform
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategies._common import seat_may_hold, unseen_mask
from ohhell_sim.strategy.tools import highest_card, lowest_card, popcount

#: Deals drawn at most for one sample when some seats' voids are checked after
#: the deal (a position whose table does not fit the plan).
_CHECK_TRIES = 10_000

#: Card ids of one deck with the joker: the most cards a pool holds.
_CARDS = JOKER + 1

# A sampling plan (:func:`prepare_sample`): what a sample of the hidden cards needs
# from the view, derived once so that the many samples of one decision share it.
# The seats lacking cards whose shown voids rule some card of the pool out are
# grouped by the pool cards they may hold (the seats of a group are alike to the
# sampler, and a group needs its seats' cards together); the table counts, for
# the groups' needs, the ways to deal the rest of the pool (see prepare_sample).
_P_N = 0  # seats at the table
_P_SEAT = 1  # our seat
_P_HAND = 2  # our hand
_P_POOL = 3  # entries of the pool: the shared cards, then those no group may hold
_P_SHARED = 4  # the first entries of the pool: the cards every group may hold
_P_RESTRICTED = 5  # mask: the cards some groups may hold and others not
_P_GROUPS = 6  # groups in the table
_P_STATES = 7  # states of the groups' needs, the entries of one row of the table
_P_OPEN = 8  # seat mask: the seats lacking cards that are in no group
_P_CHECK = 9  # seat mask: of those, the seats whose voids a deal is checked against
_P_NEED = 10  # MAX_SEATS entries: cards each seat lacks
_P_FIXED = _P_NEED + V.MAX_SEATS  # MAX_SEATS entries: cards known to be in a hand
_P_ALLOWED = _P_FIXED + V.MAX_SEATS  # MAX_SEATS entries: cards a seat may hold by its voids
_P_G_NEED = _P_ALLOWED + V.MAX_SEATS  # per group: the cards its seats lack
_P_G_STRIDE = _P_G_NEED + V.MAX_SEATS  # per group: the place of its need in a state index
_P_G_CARDS = _P_G_STRIDE + V.MAX_SEATS  # per group: the pool cards it may hold
_P_G_SEATS = _P_G_CARDS + V.MAX_SEATS  # per group: its seats, as a mask
_P_G_LEFT = _P_G_SEATS + V.MAX_SEATS  # per group, scratch: its need left
_P_G_TAKEN = _P_G_LEFT + V.MAX_SEATS  # per group, scratch: the cards dealt to it
_P_CARDS = _P_G_TAKEN + V.MAX_SEATS  # _CARDS entries of scratch: cards to share out
PLAN_TABLE = _P_CARDS + _CARDS  # the rest: the table, float64 entries
#: Entries of a sampling plan.  Past its header it holds the table of counts,
#: ``(restricted cards + 1) x states`` entries (:func:`prepare_sample`): most
#: positions need a few dozen; the largest of 60,000 card choices of ``simple``
#: players at 3 to 7 players needed 31,104.
PLAN_SIZE = PLAN_TABLE + 32768

# k! for the multinomial counts, as float64: 53! is about 4e69.
_FACTORIALS = np.array([math.factorial(k) for k in range(_CARDS + 1)], dtype=np.float64)


@njit
def prepare_sample(view, plan, pool):
    """Derive from the view what :func:`draw_sample` needs, for many samples of one view.

    Fills ``plan`` (an int64 array, :data:`PLAN_SIZE` entries) and the first
    entries of ``pool`` (at least 53) and returns True, or False when the view
    is not one the sampler supports (two decks) or no deal is consistent with it
    (hand counts that do not add up, a card known to be in a hand of a suit it
    has shown void in, voids that leave too few cards for a hand).

    The sample is exact (:func:`sample_hidden`).  Voids matter only for the
    seats lacking cards that may not hold some pool card; grouped by the pool
    cards they may hold, their groups' needs index the states of a table of
    counts: the ways to deal the cards of the pool that some group may hold and
    another may not (the restricted cards, one row each, lowest first) and then
    the cards every group may hold, so that each group gets its need.  The other
    seats and the stock take any card; how they share what the groups leave
    does not change the count.  When the table does not fit in ``plan``, the
    groups needing the fewest cards leave it until it does: their seats are
    dealt as if they had shown no void, and :func:`draw_sample` draws again a
    deal that breaks their voids (exact, slower).  A shorter ``plan`` than
    :data:`PLAN_SIZE` holds a smaller table.
    """
    if view[V.RULES_BASE + R_DECKS] != 1:
        return False
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    trump = view[V.TRUMP]
    in_play = view[V.PHASE] == V.PHASE_PLAY
    done = max(view[V.TRICK], 0) if in_play else 0
    unseen = unseen_mask(view)
    for s in range(V.MAX_SEATS):
        plan[_P_NEED + s] = 0
        plan[_P_FIXED + s] = 0
        plan[_P_ALLOWED + s] = -1
    for s in range(n):
        if s == me or (active >> s) & 1 == 0:
            continue
        plan[_P_ALLOWED + s] = seat_may_hold(view, s, trump)
        plan[_P_NEED + s] = view[V.HAND_SIZE] - done
        if in_play and view[V.TRICK_CARDS_BASE + s] >= 0:
            plan[_P_NEED + s] -= 1
        shown = view[V.VISIBLE_BASE + s]
        if shown >= 0 and (unseen >> shown) & 1:
            plan[_P_FIXED + s] |= np.int64(1) << shown
    passed = view[V.PASSED] & unseen
    if passed != 0:
        plan[_P_FIXED + next_seat(me, active, n)] |= passed
    free = unseen
    wanted = 0
    for s in range(n):
        fixed = plan[_P_FIXED + s]
        plan[_P_NEED + s] -= popcount(fixed)
        free &= ~fixed
        if plan[_P_NEED + s] < 0 or fixed & ~plan[_P_ALLOWED + s] != 0:
            return False
        wanted += plan[_P_NEED + s]
    if popcount(free) < wanted:
        return False
    plan[_P_N] = n
    plan[_P_SEAT] = me
    plan[_P_HAND] = view[V.HAND]
    _group_seats(plan, free)
    _fit_table(plan, free, plan.shape[0] - PLAN_TABLE)
    _fill_pool(plan, pool, free)
    return _count_deals(plan)


@njit
def _group_seats(plan, free):
    # The groups of the seats lacking cards that may not hold some free card.
    groups = 0
    for s in range(plan[_P_N]):
        cards = plan[_P_ALLOWED + s] & free
        if plan[_P_NEED + s] == 0 or cards == free:
            continue
        g = 0
        while g < groups and plan[_P_G_CARDS + g] != cards:
            g += 1
        if g == groups:
            plan[_P_G_CARDS + g] = cards
            plan[_P_G_NEED + g] = 0
            plan[_P_G_SEATS + g] = 0
            groups += 1
        plan[_P_G_NEED + g] += plan[_P_NEED + s]
        plan[_P_G_SEATS + g] |= np.int64(1) << s
    plan[_P_GROUPS] = groups


@njit
def _shared_and_restricted(plan, free):
    # The free cards every group may hold, and those some may and some may not.
    shared = free
    union = np.int64(0)
    for g in range(plan[_P_GROUPS]):
        shared &= plan[_P_G_CARDS + g]
        union |= plan[_P_G_CARDS + g]
    if plan[_P_GROUPS] == 0:
        return free, np.int64(0)
    return shared, union & ~shared


@njit
def _fit_table(plan, free, room):
    # Drop the groups of fewest cards from the table until it fits in ``room``
    # entries; their seats' voids are checked after each deal instead.
    check = np.int64(0)
    while plan[_P_GROUPS] > 0:
        groups = plan[_P_GROUPS]
        states = 1
        for g in range(groups):
            states *= plan[_P_G_NEED + g] + 1
        _, restricted = _shared_and_restricted(plan, free)
        if (popcount(restricted) + 1) * states <= room:
            break
        drop = 0
        for g in range(1, groups):
            if plan[_P_G_NEED + g] < plan[_P_G_NEED + drop]:
                drop = g
        check |= plan[_P_G_SEATS + drop]
        last = groups - 1
        plan[_P_G_NEED + drop] = plan[_P_G_NEED + last]
        plan[_P_G_CARDS + drop] = plan[_P_G_CARDS + last]
        plan[_P_G_SEATS + drop] = plan[_P_G_SEATS + last]
        plan[_P_GROUPS] = last
    grouped = np.int64(0)
    for g in range(plan[_P_GROUPS]):
        grouped |= plan[_P_G_SEATS + g]
    lacking = np.int64(0)
    for s in range(plan[_P_N]):
        if plan[_P_NEED + s] > 0:
            lacking |= np.int64(1) << s
    plan[_P_OPEN] = lacking & ~grouped
    plan[_P_CHECK] = check


@njit
def _fill_pool(plan, pool, free):
    # The pool: the shared cards, then the cards no group may hold.
    shared, restricted = _shared_and_restricted(plan, free)
    plan[_P_SHARED] = _list_cards(shared, pool, 0)
    plan[_P_POOL] = _list_cards(free & ~(shared | restricted), pool, plan[_P_SHARED])
    plan[_P_RESTRICTED] = restricted


@njit(inline="always")
def _list_cards(mask, cards, start):
    # Write the cards of ``mask`` to ``cards`` from ``start`` on; returns the end.
    i = start
    m = mask
    while m != 0:
        cards[i] = lowest_card(m)
        m &= m - 1
        i += 1
    return i


@njit(inline="always")
def _next_state(plan, groups):
    # Step the groups' needs (the digits in _P_G_LEFT) to the next state index.
    for g in range(groups):
        digit = plan[_P_G_LEFT + g] + 1
        if digit <= plan[_P_G_NEED + g]:
            plan[_P_G_LEFT + g] = digit
            return
        plan[_P_G_LEFT + g] = 0


@njit
def _count_deals(plan):
    # Fill the table; True when some deal is consistent with the view.  Row i,
    # entry x: the ways to deal the restricted cards from the i-th on, then the
    # shared cards, so that each group gets the need its digit of x says (the
    # others taking the rest).  A state is indexed in mixed radix, a group's
    # digit counting its stride, so that one card less for group g is x - stride.
    groups = plan[_P_GROUPS]
    plan[_P_STATES] = 1
    if groups == 0:
        return True
    states = 1
    for g in range(groups):
        plan[_P_G_STRIDE + g] = states
        states *= plan[_P_G_NEED + g] + 1
    plan[_P_STATES] = states
    table = plan.view(np.float64)
    restricted = plan[_P_RESTRICTED]
    rows = popcount(restricted)
    shared = plan[_P_SHARED]
    # The last row: multinomial counts of the shared cards among the groups and the rest.
    row = PLAN_TABLE + rows * states
    for g in range(groups):
        plan[_P_G_LEFT + g] = 0
    for x in range(states):
        taken = 0
        ways = _FACTORIALS[shared]
        for g in range(groups):
            taken += plan[_P_G_LEFT + g]
            ways /= _FACTORIALS[plan[_P_G_LEFT + g]]
        table[row + x] = ways / _FACTORIALS[shared - taken] if taken <= shared else 0.0
        _next_state(plan, groups)
    # Each restricted card goes to the rest or to a group that may hold it and lacks cards.
    m = restricted
    for _ in range(rows):
        card = highest_card(m)
        m ^= np.int64(1) << card
        after = row
        row -= states
        for x in range(states):
            ways = table[after + x]
            for g in range(groups):
                if plan[_P_G_LEFT + g] > 0 and (plan[_P_G_CARDS + g] >> card) & 1:
                    ways += table[after + x - plan[_P_G_STRIDE + g]]
            table[row + x] = ways
            _next_state(plan, groups)
    return table[PLAN_TABLE + states - 1] > 0.0


@njit(inline="always")
def _deal_blocks(plan, cards, rng, hands, start, end, seats):
    # Deal cards[start:end] to ``seats``, each the cards it lacks, with no void
    # to respect; returns where the cards left over (the stock's) begin.  The
    # front of the shuffled cards dealt out in blocks gives every split of
    # these cards into hands of the right sizes the same chance.
    i = start
    m = seats
    while m != 0:
        s = lowest_card(m)
        m &= m - 1
        hands[s] |= _draw_cards(cards, i, end, plan[_P_NEED + s], rng)
        i += plan[_P_NEED + s]
    return i


@njit(inline="always")
def _draw_cards(cards, start, end, k, rng):
    # Draw k cards uniformly from cards[start:end] to the front of that range;
    # returns their mask.
    drawn = np.int64(0)
    for i in range(start, start + k):
        j = i + below(rng, end - i)
        card = cards[j]
        cards[j] = cards[i]
        cards[i] = card
        drawn |= np.int64(1) << card
    return drawn


@njit
def _deal_to_groups(plan, pool, rng, hands):
    # One deal by the table: each restricted card in turn, lowest first, goes to
    # the rest or to a group with the chance of the ways to deal the others
    # after it; then each group takes what it still lacks of the shared cards.
    # Every assignment of the pool to groups and rest comes out equally likely;
    # the groups' and the rest's cards are then split uniformly over their seats.
    groups = plan[_P_GROUPS]
    states = plan[_P_STATES]
    table = plan.view(np.float64)
    cards = plan[_P_CARDS : _P_CARDS + _CARDS]
    for g in range(groups):
        plan[_P_G_LEFT + g] = plan[_P_G_NEED + g]
        plan[_P_G_TAKEN + g] = 0
    x = states - 1
    rest = 0
    row = PLAN_TABLE + states
    m = plan[_P_RESTRICTED]
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        taker = -1
        if x != 0:
            to_rest = table[row + x]
            total = to_rest
            for g in range(groups):
                if plan[_P_G_LEFT + g] > 0 and (plan[_P_G_CARDS + g] >> card) & 1:
                    total += table[row + x - plan[_P_G_STRIDE + g]]
            r = uniform(rng) * total
            if r >= to_rest:
                r -= to_rest
                for g in range(groups):
                    if plan[_P_G_LEFT + g] > 0 and (plan[_P_G_CARDS + g] >> card) & 1:
                        ways = table[row + x - plan[_P_G_STRIDE + g]]
                        if ways > 0.0:
                            # The last possible group takes a draw rounded up to the total.
                            taker = g
                            if r < ways:
                                break
                            r -= ways
        if taker < 0:
            cards[rest] = card
            rest += 1
        else:
            plan[_P_G_LEFT + taker] -= 1
            plan[_P_G_TAKEN + taker] |= np.int64(1) << card
            x -= plan[_P_G_STRIDE + taker]
        row += states
    shared = plan[_P_SHARED]
    i = 0
    for g in range(groups):
        plan[_P_G_TAKEN + g] |= _draw_cards(pool, i, shared, plan[_P_G_LEFT + g], rng)
        i += plan[_P_G_LEFT + g]
    for j in range(i, plan[_P_POOL]):
        cards[rest] = pool[j]
        rest += 1
    _deal_blocks(plan, cards, rng, hands, 0, rest, plan[_P_OPEN])
    for g in range(groups):
        seats = plan[_P_G_SEATS + g]
        last = highest_card(seats)
        if seats == np.int64(1) << last:
            hands[last] |= plan[_P_G_TAKEN + g]
            continue
        k = _list_cards(plan[_P_G_TAKEN + g], cards, 0)
        # The group's last seat takes what the others leave.
        dealt = _deal_blocks(plan, cards, rng, hands, 0, k, seats ^ (np.int64(1) << last))
        for j in range(dealt, k):
            hands[last] |= np.int64(1) << cards[j]


@njit
def _keeps_voids(plan, hands):
    # Whether the seats dealt without their voids (see _fit_table) respect them.
    m = plan[_P_CHECK]
    while m != 0:
        s = lowest_card(m)
        m &= m - 1
        if hands[s] & ~plan[_P_ALLOWED + s] != 0:
            return False
    return True


@njit
def draw_sample(plan, pool, rng, hands):
    """One sample of the hidden cards by a plan of :func:`prepare_sample`.

    Fills ``hands`` as :func:`sample_hidden` does and returns True; False only
    when the plan's table did not hold every void (:func:`prepare_sample`) and 10,000 deals
    in a row broke one of the others (no consistent deal, or almost none).
    """
    n = plan[_P_N]
    tries = 1 if plan[_P_CHECK] == 0 else _CHECK_TRIES
    for _ in range(tries):
        for s in range(n):
            hands[s] = plan[_P_FIXED + s]
        if plan[_P_GROUPS] == 0:
            _deal_blocks(plan, pool, rng, hands, 0, plan[_P_POOL], plan[_P_OPEN])
        else:
            _deal_to_groups(plan, pool, rng, hands)
        if _keeps_voids(plan, hands):
            hands[plan[_P_SEAT]] = plan[_P_HAND]
            return True
    return False


@njit
def sample_hidden(view, rng, hands, pool):
    """Deal the cards we cannot see to the other seats, consistent with the view.

    Fills ``hands`` (one mask per seat; ours is ``view[HAND]``) and returns True,
    or False when the view is not one this sampler supports (two decks) or no
    deal is consistent with it (see :func:`prepare_sample`).  Each other active
    seat gets as many cards as it still holds, none of a suit it has shown void
    in (a void in trump rules out the joker); the rest of the unseen cards stay
    in the stock.  Fixed first: the cards we passed left in the swap (still held
    by that neighbour unless played) and the others' cards shown in a forehead
    deal.  Every deal consistent with the view has the same chance.  ``pool`` is
    scratch space of at least 53 entries.  To draw many samples of one view,
    :func:`prepare_sample` once and :func:`draw_sample` for each is faster.
    """
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    return prepare_sample(view, plan, pool) and draw_sample(plan, pool, rng, hands)
