"""Full-information playouts and the sampling of hidden hands, for the sampling strategies.

The Monte Carlo strategies (``mc_bidder``, ``pimc``), the generator of the
``expected_tricks`` tables and the trainer of ``learned`` all need to play the
rest of a deal fast when every hand is known.  They use one engine, written on
plain arrays rather than the view:

* :func:`play_out` finishes a deal, possibly from the middle of a trick, with
  every seat following :func:`strategies._common.greedy_card` (``simple``'s play);
  :func:`play_out_settled` may stop it once one seat surely misses its bid, and
  :func:`play_out_bids` plays a deal out for many sets of bids at once, sharing
  the cards the sets agree on (``mc_bidder``'s candidate bids);
* :func:`estimate_bids` fills in the bids not yet known with ``simple``'s count
  (:func:`estimate_bids_by_own_bid`: for every bid of one seat at once);
* :func:`sample_hidden` deals the cards a player cannot see to the other seats,
  consistent with what the view shows (hand counts, shown voids, the cards this
  seat passed left in the swap, the others' cards in a forehead deal), every
  consistent deal with the same chance; :func:`prepare_sample` and
  :func:`draw_sample` do the same for many samples of one view, deriving what
  they share once;
* :func:`simulated_deal` deals a random deal and plays it out this way, for the
  table generators.

Only one deck is supported here (a hand is one mask): the strategies that sample
declare two decks unsupported (``Strategy.unsupported``) and fall back to
rule-based play if they meet them anyway.  The engine's rule primitives
(``following_cards``, ``led_suit_of``, ``next_seat``) decide legality, and
:func:`strategies._common.beaters` (the cards that ``beats`` a card, as one mask)
the tricks, so playouts follow the same rules as the kernel.

Functions that loop over whole deals are plain ``@njit``: they are too large to
gain from inlining, and, like the rest of the package apart from the generated
kernel, are not cached on disk (a cached caller would not notice an edited callee).
The exception is the loop itself (``_play_until``) and the policy it calls,
inlined into each playout function so that a playout makes no call per card.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.bits import highest_rank_cards, lowest_rank_cards
from ohhell_sim.engine.core import deal_cards, following_cards, led_suit_of, next_seat
from ohhell_sim.engine.rng import below, uniform
from ohhell_sim.rules import R_DECKS, R_OVER, R_UNDER
from ohhell_sim.strategy_tools import (
    highest_card,
    lowest_card,
    popcount,
)
from strategies._common import beaters, seat_may_hold, trump_mask, unseen_mask
from strategies.simple import likely_tricks

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
_P_TABLE = _P_CARDS + _CARDS  # the rest: the table, float64 entries
#: Entries of a sampling plan.  Past its header it holds the table of counts,
#: ``(restricted cards + 1) x states`` entries (:func:`prepare_sample`): most
#: positions need a few dozen; the largest of 60,000 card choices of ``simple``
#: players at 3 to 7 players needed 31,104.
PLAN_SIZE = _P_TABLE + 32768

# k! for the multinomial counts, as float64: 53! is about 4e69.
_FACTORIALS = np.array([math.factorial(k) for k in range(_CARDS + 1)], dtype=np.float64)

# What :func:`_play_until` stopped at.
_DONE = 0
_FORK = 1

#: Flags of the outcomes a playout may stop at (see :func:`settle_flags`): a bid
#: taken over, a bid out of reach.
SETTLE_OVER = 1
SETTLE_UNDER = 2

# Stack rows of :func:`play_out_bids`: the trick state, then the hands, then the tricks won.
_S_HANDS = 8
_S_WON = _S_HANDS + V.MAX_SEATS
#: Entries of one row of the stack of :func:`play_out_bids`.
STACK_ROW = _S_WON + V.MAX_SEATS


@njit(inline="always")
def _greedy_card(legal, j, following, beat, trumps, wants):
    # The playouts' policy: ``_common.greedy_card(legal, led, trump, j, best,
    # wants)``, from what the playout keeps per trick: ``beat``, the cards that
    # beat the card winning it, and whether ``legal`` follows the led suit; and
    # ``trumps``, the trump suit with the joker.  Within one suit, and within
    # the trumps (the joker highest), power order is card order, so every case
    # is a few bit operations where comparing powers branches on suits: a seat
    # following suit plays within one suit, a void seat's winners are trumps.
    # Inlined: as a call the policy took about a third of a playout's time.
    if j == 0:
        if wants:
            # The highest trump, else the highest side rank.
            high = legal & trumps
            return highest_card(high) if high != 0 else lowest_card(highest_rank_cards(legal))
        winners = np.int64(0)
    else:
        winners = legal & beat
        if following:
            if wants:
                return lowest_card(winners if winners != 0 else legal)
            losers = legal & ~winners
            return highest_card(losers if losers != 0 else legal)
        if not wants:
            losers = legal & ~winners
            if losers == 0:
                return highest_card(legal)
            # The highest rank, a side card before a trump of that rank.
            top = highest_rank_cards(losers)
            side = top & ~trumps
            return lowest_card(side if side != 0 else top)
    # Leading to lose, or void and wanting the trick: the cheapest winner (a
    # trump), else the lowest side rank, else the lowest trump.
    if winners != 0:
        return lowest_card(winners)
    plain = legal & ~trumps
    return lowest_card(lowest_rank_cards(plain)) if plain != 0 else lowest_card(legal)


# The ``wants`` table of a playout in which no seat's bid varies.
_NO_WANTS = np.zeros((1, 1), dtype=np.int64)


@njit(inline="always")
def _off_forbidden(bid, forbidden):
    # One step off a bid the hook forbids: down, or up from zero.
    if bid == forbidden:
        return bid - 1 if bid > 0 else bid + 1
    return bid


@njit
def quick_bid(hand, trump, most, forbidden):
    """``simple``'s bid for a known hand: its rounded count, off the forbidden bid."""
    return _off_forbidden(min(max(int(likely_tricks(hand, trump) + 0.5), 0), most), forbidden)


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
def estimate_bids_by_own_bid(
    n, active, dealer, hand_size, most, hook, trump, hands, bids, me, wants
):
    """:func:`estimate_bids` for every bid ``0..most`` of seat ``me`` at once.

    ``bids`` holds the bids made so far (``me``'s is ignored); the other unknown
    entries are filled with their estimates.  The result is the ``wants`` table
    of :func:`play_out_bids` whose members are ``me``'s bids: ``wants[seat, w]``,
    for every seat and ``w = 0..hand_size``, is set to the bids ``b`` of ``me``
    (as a bit mask) under which that seat's bid exceeds ``w`` (it still wants a
    trick after taking ``w``).  Only the dealer's estimate can depend on ``me``'s
    bid (through the hook); the seats whose bids depend on it are returned as a
    seat mask: ``me``, and the dealer when its estimate varies.
    """
    members = (np.int64(1) << (most + 1)) - 1
    dealer_unknown = dealer != me and (active >> dealer) & 1 != 0 and bids[dealer] < 0
    bids[me] = 0
    estimate_bids(n, active, dealer, hand_size, most, hook, trump, hands, bids)
    for s in range(n):
        for w in range(hand_size + 1):
            wants[s, w] = members if (active >> s) & 1 and w < bids[s] else 0
    for w in range(hand_size + 1):
        wants[me, w] = members & ~((np.int64(2) << w) - 1)
    varying = np.int64(1) << me
    if not dealer_unknown or hook == 0:
        return varying
    others = 0
    for s in range(n):
        if (active >> s) & 1 and s != me and s != dealer:
            others += bids[s]
    count = quick_bid(hands[dealer], trump, most, -1)
    for w in range(hand_size + 1):
        wants[dealer, w] = 0
    for b in range(most + 1):
        bid = _off_forbidden(count, hand_size - others - b)
        if bid != count:
            varying |= np.int64(1) << dealer
        for w in range(min(bid, hand_size + 1)):
            wants[dealer, w] |= np.int64(1) << b
    return varying


@njit(inline="always")
def _play_until(
    n,
    active,
    trump,
    hands,
    bids,
    won,
    seat,
    j,
    led,
    best,
    best_seat,
    t,
    tricks,
    winning_cards,
    varying,
    wants,
    group,
    forced,
    watch,
    keep,
    settle,
):
    # The playout engine.  Plays greedy cards from trick ``t`` (with ``j`` cards
    # already in it) to trick ``tricks``, the first card being ``forced`` when not
    # negative.  A seat of the mask ``varying`` aims by the ``wants`` table over
    # the members ``group`` (see play_out_bids) instead of by ``bids``; when its
    # members disagree on whether to take a trick and so on the card, it returns
    # _FORK before that card, with the members that want a trick, their card and
    # the others' card.  Otherwise it returns _DONE at the end of the deal, or
    # earlier with ``settle``: the members are then bids of seat ``watch``, and
    # it stops once every member not in ``keep`` surely misses, taken over (with
    # ``settle & SETTLE_OVER``) or out of reach (``SETTLE_UNDER``).  Returns
    # (status, seat, j, led, best, best_seat, t, wanting or group, card,
    # other_card).
    n_active = popcount(active)
    trumps = trump_mask(trump)
    # Per trick: the cards that follow its led suit (none after the joker led at
    # no trump) and those that beat the card winning it.
    led_cards = following_cards(np.int64(-1), led, trump)
    beat = beaters(best, led, trump) if j > 0 else np.int64(0)
    while t < tricks:
        while j < n_active:
            hand = hands[seat]
            follow = hand & led_cards
            legal = follow if follow != 0 and j > 0 else hand
            following = follow != 0
            # A single legal card takes no shortcut: the policy returns it, and
            # testing for it cost more than it saved.
            if forced >= 0:
                card = forced
                forced = -1
            elif (varying >> seat) & 1:
                wanting = group & wants[seat, won[seat]]
                card = _greedy_card(legal, j, following, beat, trumps, wanting != 0)
                if wanting != 0 and wanting != group:
                    other = _greedy_card(legal, j, following, beat, trumps, False)
                    if other != card:
                        return _FORK, seat, j, led, best, best_seat, t, wanting, card, other
            else:
                card = _greedy_card(legal, j, following, beat, trumps, won[seat] < bids[seat])
            hands[seat] = hand ^ (np.int64(1) << card)
            if j == 0:
                led = led_suit_of(card, trump)
                led_cards = following_cards(np.int64(-1), led, trump)
                best = card
                best_seat = seat
                beat = beaters(card, led, trump)
            elif (beat >> card) & 1:
                best = card
                best_seat = seat
                beat = beaters(card, led, trump)
            seat = next_seat(seat, active, n)
            j += 1
        won[best_seat] += 1
        if t < winning_cards.shape[0]:
            winning_cards[t] = best
        seat = best_seat
        j = 0
        t += 1
        if settle != 0:
            # A miss stays a miss of the same kind: the count where the last
            # member settles scores as the full count would for all of them.
            taken = won[watch]
            missed = np.int64(0)
            if settle & SETTLE_OVER:
                missed |= (np.int64(1) << taken) - 1
            if settle & SETTLE_UNDER:
                missed |= ~((np.int64(2) << (taken + tricks - t)) - 1)
            if group & ~(missed & ~keep) == 0:
                break
    return _DONE, seat, j, led, best, best_seat, t, group, -1, -1


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
    _play_until(
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
        0,
        tricks_left,
        winning_cards,
        0,
        _NO_WANTS,
        0,
        -1,
        -1,
        0,
        0,
    )


@njit
def play_out_bids(
    n,
    active,
    trump,
    hands,
    won,
    first,
    tricks,
    wants,
    members,
    record,
    counts,
    stack,
    keep,
    settle,
):
    """Play a deal out from its first lead once for each of several sets of bids.

    The members (the bits of ``members``) are alternative sets of bids: a seat
    that has taken ``w`` tricks wants one more under the members of
    ``wants[seat, w]`` (see :func:`estimate_bids_by_own_bid`).  For each
    member the result is that of :func:`play_out` with its bids, but the members
    share every card until their plays differ, where the playout forks.  Each
    member ``m`` adds one to ``counts[m, k]``, ``k`` being the tricks seat
    ``record`` took under it.  ``hands`` and ``won`` (the tricks taken before the
    first lead, usually none) are consumed; ``first`` leads, ``tricks`` are played
    and ``stack`` (``popcount(members)`` rows of :data:`STACK_ROW`) is scratch.

    When the members are bids of seat ``record`` (as with
    :func:`estimate_bids_by_own_bid`), ``settle`` (:func:`settle_flags`) lets a
    playout stop once each of its members other than those of ``keep`` surely
    misses its bid: the count is then that of the trick it stopped after, which
    scores as the full count would (the scoring tables give every such miss the
    same points), but is not the full count.  With ``settle`` 0 every count is
    the full one.
    """
    top = 0
    seat = first
    j = 0
    led = -1
    best = -1
    best_seat = -1
    t = 0
    group = members
    forced = -1
    while True:
        status, seat, j, led, best, best_seat, t, wanting, card, other = _play_until(
            n,
            active,
            trump,
            hands,
            won,  # no seat aims by ``bids``: all do by the table
            won,
            seat,
            j,
            led,
            best,
            best_seat,
            t,
            tricks,
            won[:0],
            -1,
            wants,
            group,
            forced,
            record,
            keep,
            settle,
        )
        if status == _FORK:
            # Set the members that do not want a trick aside, with their card.
            row = stack[top]
            row[0] = seat
            row[1] = j
            row[2] = led
            row[3] = best
            row[4] = best_seat
            row[5] = t
            row[6] = group & ~wanting
            row[7] = other
            for s in range(n):
                row[_S_HANDS + s] = hands[s]
                row[_S_WON + s] = won[s]
            top += 1
            group = wanting
            forced = card
            continue
        k = won[record]
        m = group
        while m != 0:
            counts[lowest_card(m), k] += 1.0
            m &= m - 1
        if top == 0:
            return
        top -= 1
        row = stack[top]
        seat = row[0]
        j = row[1]
        led = row[2]
        best = row[3]
        best_seat = row[4]
        t = row[5]
        group = row[6]
        forced = row[7]
        for s in range(n):
            hands[s] = row[_S_HANDS + s]
            won[s] = row[_S_WON + s]


@njit
def settle_flags(view):
    """The misses of a bid after which a playout may stop, for the view's scoring.

    :data:`SETTLE_OVER` when every count over a bid scores alike (the table for
    tricks over a bid gives nothing), :data:`SETTLE_UNDER` likewise under it.
    """
    flags = 0
    if view[V.RULES_BASE + R_OVER] == 0:
        flags |= SETTLE_OVER
    if view[V.RULES_BASE + R_UNDER] == 0:
        flags |= SETTLE_UNDER
    return flags


@njit
def play_out_settled(
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
    watch,
    settle,
):
    """:func:`play_out` that may stop once seat ``watch`` surely misses its bid.

    ``settle`` (:func:`settle_flags`) says which misses stop it: with the view's
    flags, the points of ``watch`` for ``won[watch]`` are those the full playout
    would give, though the count may be lower than the full one.  ``hands`` and
    ``won`` are left as they are where it stops.
    """
    _play_until(
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
        0,
        tricks_left,
        won[:0],
        0,
        _NO_WANTS,
        np.int64(1) << bids[watch],
        -1,
        watch,
        0,
        settle,
    )


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
    _fit_table(plan, free, plan.shape[0] - _P_TABLE)
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
    row = _P_TABLE + rows * states
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
    return table[_P_TABLE + states - 1] > 0.0


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
    row = _P_TABLE + states
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
