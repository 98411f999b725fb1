"""Full-information playouts, for the sampling strategies.

The Monte Carlo strategies (``mc_bidder``, ``pimc``), the generator of the
``expected_tricks`` tables and the trainer of ``learned`` all need to play the
rest of a deal fast when every hand is known (the hidden hands they sample with
:mod:`ohhell_sim.strategies.sampler`).  They use one engine, written on plain arrays rather
than the view:

* :func:`play_out` finishes a deal, possibly from the middle of a trick, with
  every seat following :func:`ohhell_sim.strategies._common.greedy_card` (``simple``'s play);
  :func:`play_out_settled` may stop it once one seat surely misses its bid, and
  :func:`play_out_bids` plays a deal out for many sets of bids at once, sharing
  the cards the sets agree on (``mc_bidder``'s candidate bids);
* :func:`estimate_bids` fills in the bids not yet known with ``simple``'s count
  (:func:`fill_bids`: on a view's bids; :func:`estimate_bids_by_own_bid`: for
  every bid of one seat at once);
* :func:`simulated_deal` deals a random deal and plays it out this way, for the
  table generators.

A deal being played out is a :class:`PlayoutDeal` (its seats, trump, hands and
tricks won) and where it stands a :class:`Trick`; :func:`deal_after` and
:func:`trick_after` give both once the seat to move has played a candidate card
in a sampled deal.  Only one deck is supported here (a hand is one mask): the
strategies that sample declare two decks unsupported (``Strategy.unsupported``)
and fall back to rule-based play if they meet them anyway.  The rules are the
engine's: the hook is :func:`~ohhell_sim.engine.core.forbidden_bid`, a trick's
winner :func:`~ohhell_sim.engine.deal.trick_with`; the playout loop keeps the
engine's rules as masks per trick, which cost less than asking them per card
(:func:`~ohhell_sim.engine.core.led_suit_cards`, the cards that follow the
led suit, with :func:`~ohhell_sim.engine.deal.playable_cards`, and
:func:`~ohhell_sim.engine.core.beaters`, those that beat the card winning
it).  ``tests/test_playout.py`` checks the policy on those masks against
:func:`ohhell_sim.strategies._common.greedy_card`, and ``tests/test_trick_rules.py``
the masks against the engine's rules per card and a playout's tricks against
the engine's.

Functions that loop over whole deals are plain ``@njit``: they are too large to
gain from inlining, and, like the rest of the package apart from the generated
kernel, are not cached on disk (a cached caller would not notice an edited callee).
The exception is the loop itself (``_play_until``) and the policy it calls,
inlined into each playout function so that a playout makes no call per card.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import highest_rank_cards, lowest_rank_cards
from ohhell_sim.engine.core import (
    beaters,
    deal_cards,
    forbidden_bid,
    led_suit_cards,
    next_seat,
    trump_mask,
)
from ohhell_sim.engine.deal import playable_cards, trick_with, trick_with_beaters
from ohhell_sim.engine.rng import below
from ohhell_sim.rules import R_OVER, R_UNDER
from ohhell_sim.strategies.simple import likely_tricks
from ohhell_sim.strategy.tools import (
    highest_card,
    lowest_card,
    popcount,
)

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


class PlayoutDeal(NamedTuple):
    """A deal played out with every hand known: its scalars and its arrays."""

    n: int  # seats at the table
    active: int  # mask of the seats in the deal
    trump: int  # suit 0-3, or -1
    hands: np.ndarray  # each seat's cards, emptied as they are played
    won: np.ndarray  # tricks each seat took, incremented


class Trick(NamedTuple):
    """Where a playout stands: the trick in progress and how many were played."""

    seat: int  # to play
    j: int  # cards already in the trick
    led: int  # the led suit (-1 before the lead)
    best: int  # the card winning the trick
    best_seat: int
    t: int  # tricks finished since the playout began


class Aims(NamedTuple):
    """What each seat plays for: its bid, or for the seats of ``varying`` the ``wants``
    table of :func:`play_out_bids`."""

    bids: np.ndarray
    varying: int
    wants: np.ndarray


class Settle(NamedTuple):
    """When a playout may stop: once every member but those of ``keep``, bids of seat
    ``watch``, surely misses in a way ``flags`` (:func:`settle_flags`) names."""

    watch: int
    keep: int
    flags: int


@njit(inline="always")
def first_lead(leader):
    """The :class:`Trick` of a deal's first lead, by ``leader``."""
    return Trick(leader, 0, -1, -1, -1, 0)


@njit
def trick_after(view, card):
    """The :class:`Trick` once the seat to move has played ``card`` to the view's trick."""
    me = view[V.SEAT]
    led, best, best_seat = trick_with(
        card,
        me,
        view[V.N_IN_TRICK],
        view[V.LED_SUIT],
        view[V.WINNING_CARD],
        view[V.WINNING_SEAT],
        view[V.TRUMP],
        True,
    )
    following = next_seat(me, view[V.ACTIVE], view[V.N_PLAYERS])
    return Trick(following, view[V.N_IN_TRICK] + 1, led, best, best_seat, 0)


@njit(inline="always")
def deal_after(view, hands, card, work, won):
    """The :class:`PlayoutDeal` of a sampled deal once the seat to move has played ``card``.

    ``hands`` are every seat's cards in the sample (the seat's own included);
    they are copied into ``work``, less ``card``, and the tricks won so far into
    ``won``, so that a playout may consume them.
    """
    n = view[V.N_PLAYERS]
    for s in range(n):
        work[s] = hands[s]
        won[s] = view[V.TRICKS_WON_BASE + s]
    work[view[V.SEAT]] ^= np.int64(1) << card
    return PlayoutDeal(n, view[V.ACTIVE], view[V.TRUMP], work, won)


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
            forbidden = forbidden_bid(hook, hand_size, total) if seat == dealer else -1
            bids[seat] = quick_bid(hands[seat], trump, most, forbidden)
        total += bids[seat]


@njit
def fill_bids(view, hands, bids, my_bid):
    """Fill ``bids`` for the sampled ``hands``: the view's bids, ``my_bid`` for the
    seat to move when it is >= 0, and :func:`estimate_bids`'s for the others unknown."""
    n = view[V.N_PLAYERS]
    for s in range(n):
        bids[s] = view[V.BIDS_BASE + s]
    if my_bid >= 0:
        bids[view[V.SEAT]] = my_bid
    estimate_bids(
        n,
        view[V.ACTIVE],
        view[V.DEALER],
        view[V.HAND_SIZE],
        view[V.MAX_BID],
        view[V.HOOK],
        view[V.TRUMP],
        hands,
        bids,
    )


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
        bid = _off_forbidden(count, forbidden_bid(hook, hand_size, others + b))
        if bid != count:
            varying |= np.int64(1) << dealer
        for w in range(min(bid, hand_size + 1)):
            wants[dealer, w] |= np.int64(1) << b
    return varying


@njit(inline="always")
def _play_until(deal, trick, tricks, winning_cards, aims, group, forced, settle):
    # The playout engine.  Plays greedy cards from ``trick`` to trick ``tricks``,
    # the first card being ``forced`` when not negative.  A seat of the mask
    # ``aims.varying`` aims by ``aims.wants`` over the members ``group`` (see
    # play_out_bids) instead of by ``aims.bids``; when its members disagree on
    # whether to take a trick and so on the card, it returns _FORK before that
    # card, with the members that want a trick, their card and the others'
    # card.  Otherwise it returns _DONE at the end of the deal, or earlier with
    # ``settle.flags``: the members are then bids of seat ``settle.watch``, and
    # it stops once every member not in ``settle.keep`` surely misses, taken
    # over (SETTLE_OVER) or out of reach (SETTLE_UNDER).  Returns (status,
    # trick, wanting or group, card, other_card).
    n, active, trump, hands, won = deal
    bids, varying, wants = aims
    watch, keep, flags = settle
    seat, j, led, best, best_seat, t = trick
    n_active = popcount(active)
    trumps = trump_mask(trump)
    # Per trick: the cards that follow its led suit (none before the lead, and
    # none after the joker led at no trump) and those that beat the card
    # winning it: a trick's rules (engine.deal.legal_cards, trick_with) as
    # masks kept per trick, which cost less than asking them per card.
    led_cards = led_suit_cards(led if j > 0 else -1, trump)
    beat = beaters(best, led, trump) if j > 0 else np.int64(0)
    while t < tricks:
        if j == 0 and t == tricks - 1 and forced < 0:
            # The last trick: every seat holds one card, the policy's only choice.
            for _ in range(n_active):
                hand = hands[seat]
                card = lowest_card(hand)
                hands[seat] = hand ^ (np.int64(1) << card)
                led, best, best_seat, beat = trick_with_beaters(
                    card, seat, j, led, best, best_seat, beat, trump
                )
                seat = next_seat(seat, active, n)
                j += 1
        while j < n_active:
            hand = hands[seat]
            follow = hand & led_cards
            legal = playable_cards(hand, follow)
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
                        here = Trick(seat, j, led, best, best_seat, t)
                        return _FORK, here, wanting, card, other
            else:
                card = _greedy_card(legal, j, following, beat, trumps, won[seat] < bids[seat])
            hands[seat] = hand ^ (np.int64(1) << card)
            led, best, best_seat, beat = trick_with_beaters(
                card, seat, j, led, best, best_seat, beat, trump
            )
            if j == 0:
                led_cards = led_suit_cards(led, trump)
            seat = next_seat(seat, active, n)
            j += 1
        won[best_seat] += 1
        if t < winning_cards.shape[0]:
            winning_cards[t] = best
        seat = best_seat
        j = 0
        led_cards = np.int64(0)
        t += 1
        if flags != 0:
            # A miss stays a miss of the same kind: the count where the last
            # member settles scores as the full count would for all of them.
            taken = won[watch]
            missed = np.int64(0)
            if flags & SETTLE_OVER:
                missed |= (np.int64(1) << taken) - 1
            if flags & SETTLE_UNDER:
                missed |= ~((np.int64(2) << (taken + tricks - t)) - 1)
            if group & ~(missed & ~keep) == 0:
                break
    return _DONE, Trick(seat, j, led, best, best_seat, t), group, -1, -1


# What a playout that never stops early settles on.
_NO_SETTLE = Settle(-1, 0, 0)


@njit
def play_out(deal, bids, trick, tricks_left, winning_cards):
    """Finish a deal with the greedy policy for every seat, aiming at ``bids``.

    ``trick`` is where it stands (:class:`Trick`, ``trick.t`` 0); ``tricks_left``
    counts the trick in progress.  ``deal.hands`` are emptied and ``deal.won``
    incremented; ``winning_cards[t]`` receives the card that took the ``t``-th
    trick played here when the array is long enough (pass an empty array
    otherwise).
    """
    aims = Aims(bids, 0, _NO_WANTS)
    _play_until(deal, trick, tricks_left, winning_cards, aims, 0, -1, _NO_SETTLE)


@njit
def play_out_bids(deal, first, tricks, wants, members, record, counts, stack, keep, flags):
    """Play a deal out from its first lead once for each of several sets of bids.

    The members (the bits of ``members``) are alternative sets of bids: a seat
    that has taken ``w`` tricks wants one more under the members of
    ``wants[seat, w]`` (see :func:`estimate_bids_by_own_bid`).  For each
    member the result is that of :func:`play_out` with its bids, but the members
    share every card until their plays differ, where the playout forks.  Each
    member ``m`` adds one to ``counts[m, k]``, ``k`` being the tricks seat
    ``record`` took under it.  ``deal.hands`` and ``deal.won`` (the tricks taken
    before the first lead, usually none) are consumed; ``first`` leads,
    ``tricks`` are played and ``stack`` (``popcount(members)`` rows of
    :data:`STACK_ROW`) is scratch.

    When the members are bids of seat ``record`` (as with
    :func:`estimate_bids_by_own_bid`), ``flags`` (:func:`settle_flags`) lets a
    playout stop once each of its members other than those of ``keep`` surely
    misses its bid: the count is then that of the trick it stopped after, which
    scores as the full count would (the scoring tables give every such miss the
    same points), but is not the full count.  With ``flags`` 0 every count is
    the full one.
    """
    n, hands, won = deal.n, deal.hands, deal.won
    # No seat aims by a bid: every one does by the table.
    aims = Aims(won, -1, wants)
    settle = Settle(record, keep, flags)
    top = 0
    trick = first_lead(first)
    group = members
    forced = -1
    while True:
        status, trick, wanting, card, other = _play_until(
            deal, trick, tricks, won[:0], aims, group, forced, settle
        )
        if status == _FORK:
            # Set the members that do not want a trick aside, with their card.
            row = stack[top]
            row[0], row[1], row[2], row[3], row[4], row[5] = trick
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
        trick = Trick(row[0], row[1], row[2], row[3], row[4], row[5])
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
def play_out_settled(deal, bids, trick, tricks_left, watch, flags):
    """:func:`play_out` that may stop once seat ``watch`` surely misses its bid.

    ``flags`` (:func:`settle_flags`) says which misses stop it: with the view's
    flags, the points of ``watch`` for ``deal.won[watch]`` are those the full
    playout would give, though the count may be lower than the full one.
    ``deal.hands`` and ``deal.won`` are left as they are where it stops.
    """
    aims = Aims(bids, 0, _NO_WANTS)
    settle = Settle(watch, 0, flags)
    group = np.int64(1) << bids[watch]
    _play_until(deal, trick, tricks_left, deal.won[:0], aims, group, -1, settle)


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
    deal = PlayoutDeal(players, active, trump, hands, won)
    play_out(deal, bids, first_lead(next_seat(dealer, active, players)), hand_size, winning_cards)
    return dealer, trump
