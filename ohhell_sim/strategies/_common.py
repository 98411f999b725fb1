"""Numba helpers shared by the built-in strategies.

Everything here reads the ``view`` array of :mod:`ohhell_sim.view` and follows the
engine's own rule primitives (:func:`ohhell_sim.engine.core.beats` and friends), so
that the joker, two decks and no-trump deals are handled in one place:

* bids: a legal bid near an estimate (:func:`legal_bid_near`), the bid of highest
  expected score for a distribution of trick counts (:func:`best_bid`, and
  :func:`best_bid_by_row` for one distribution per bid), and the
  exact bid of the one-card forehead deal, where a player sees every card but
  their own (:func:`forehead_bid`);
* card knowledge: the cards of which a copy may still be in another hand
  (:func:`unseen_mask`), the cards that would beat a card (the engine's
  :func:`~ohhell_sim.engine.core.beaters`, kept here too),
  whether the players still to play a trick could hold one (:func:`threats`),
  and the trumps held that no unseen card beats, each a sure trick
  (:func:`boss_trumps`, :func:`sure_trump_tricks`), below which no bid goes;
* the greedy play of ``simple`` (:func:`greedy_card`), also the fast policy of the
  Monte Carlo playouts; the cards to duck with while the boss trumps alone make
  the bid (:func:`spare_cards`); and the choice of the cards to pass in the
  swap variant (:func:`swap_card`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.cards import JOKER
from ohhell_sim.engine.bits import highest_card, highest_rank_cards
from ohhell_sim.engine.core import JOKER_BIT, beaters, beats, deal_points, next_seat, trump_mask
from ohhell_sim.rules import R_DECKS, R_JOKER, R_OVER, R_UNDER
from ohhell_sim.strategy.tools import (
    highest_by_power,
    lowest_by_power,
    lowest_card,
    popcount,
    suit_mask,
)

ACE = 12
KING = 11
QUEEN = 10
#: Every card of one 52-card deck.
FULL_DECK = (np.int64(1) << np.int64(52)) - np.int64(1)
#: Rank the swap prefers to pass: cards around the jack are the hardest to count.
_AMBIGUOUS_RANK = 9


# --- bids -----------------------------------------------------------------------


@njit
def legal_bid_near(view, bid, up):
    """``bid`` clamped to ``sure..MAX_BID``, moved one step if the hook forbids it.

    The step goes up when ``up`` (the caller's realistic count lies above the
    bid), else down; the other way when that side is out of range.  This is the
    001 tip: move one away from the realistic count, to the more likely side.
    ``sure`` is :func:`sure_trump_tricks`: a bid below it can only be missed, so
    neither the clamp nor the step goes below it while a bid at or above it is
    legal (the hooked dealer holding the ace of trumps does not drop to zero).
    """
    most = view[V.MAX_BID]
    sure = min(sure_trump_tricks(view), most)
    b = min(max(bid, sure), most)
    if b != view[V.FORBIDDEN_BID]:
        return b
    if (up or b - 1 < sure) and b + 1 <= most:
        return b + 1
    if b >= 1:
        return b - 1
    return b + 1 if b + 1 <= most else b


@njit
def eligible_bids(view, allowed):
    """The bids :func:`best_bid_by_row` chooses among, as a bool per bid ``0..MAX_BID``.

    The legal bids of ``allowed`` (entries past its end are not allowed), less
    those below :func:`sure_trump_tricks` while one at or above it is eligible
    (:func:`best_bid_by_row` says why).
    """
    most = view[V.MAX_BID]
    forbidden = view[V.FORBIDDEN_BID]
    top = min(most + 1, allowed.shape[0])
    eligible = np.zeros(most + 1, dtype=np.bool_)
    for b in range(top):
        eligible[b] = b != forbidden and allowed[b]
    sure = min(sure_trump_tricks(view), top)
    for b in range(sure, top):
        if eligible[b]:
            eligible[:sure] = False
            break
    return eligible


@njit
def best_bid_by_row(view, probs, allowed):
    """The legal, ``allowed`` bid ``b`` of highest expected points.

    ``probs[b, k]`` is P(k tricks) when bidding ``b`` (a table with a single row
    serves every bid).  Points are those of
    :func:`ohhell_sim.strategy.tools.points`, so the choice follows the active
    scoring tables.  Ties go to the lower bid; -1 when no bid is allowed.
    Bids below :func:`sure_trump_tricks` are left out while one at or above it
    is allowed: such a bid can only be missed, by more than the sure count
    is, so it scores no more under any scoring table, but a distribution that
    gives it weight (a table cell pooling weaker hands) or a tie of zero
    values could prefer it.
    """
    eligible = eligible_bids(view, allowed)
    hand_size = view[V.HAND_SIZE]
    # The scoring rules are sliced once: ``points`` would slice them per call.
    rules = view[V.RULES_BASE :]
    # With the canonical miss tables only the made bid scores: one term a bid.
    misses_score_nothing = rules[R_OVER] == 0 and rules[R_UNDER] == 0
    best = -1
    best_value = -np.inf
    for b in range(eligible.shape[0]):
        if not eligible[b]:
            continue
        row = probs[b if probs.shape[0] > 1 else 0]
        if misses_score_nothing:
            value = row[b] * deal_points(b, b, hand_size, rules) if b < row.shape[0] else 0.0
        else:
            value = 0.0
            for k in range(row.shape[0]):
                if row[k] > 1e-12:
                    value += row[k] * deal_points(b, k, hand_size, rules)
        if value > best_value + 1e-9:
            best_value = value
            best = b
    return best


@njit
def best_bid(view, probs):
    """The legal bid of highest expected points when ``probs[k]`` = P(k tricks)."""
    allowed = np.ones(view[V.MAX_BID] + 1, dtype=np.bool_)
    return best_bid_by_row(view, probs.reshape(1, probs.shape[0]), allowed)


@njit
def is_forehead_bid(view):
    """Whether this is a forehead bid: one card each, and our own card hidden from us."""
    return view[V.PHASE] == V.PHASE_BID and view[V.HAND] == 0 and view[V.HAND2] == 0


@njit
def forehead_bid(view):
    """Bid in the one-card forehead deal from the cards we see on the others.

    Every other card is known, so each card we might hold decides the trick
    alone.  Our card is one of the copies not seen (the others' cards and the
    turned-up card); counting the copies that would win gives P(one trick)
    exactly, and :func:`best_bid` turns it into the bid of highest expected score.
    """
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    trump = view[V.TRUMP]
    decks = view[V.RULES_BASE + R_DECKS]
    copies = np.zeros(53, dtype=np.int64)
    for c in range(52):
        copies[c] = decks
    copies[JOKER] = view[V.RULES_BASE + R_JOKER]
    if view[V.TRUMP_CARD] >= 0:
        copies[view[V.TRUMP_CARD]] -= 1
    for s in range(n):
        if s != me and (active >> s) & 1 and view[V.VISIBLE_BASE + s] >= 0:
            copies[view[V.VISIBLE_BASE + s]] -= 1
    leader = next_seat(view[V.DEALER], active, n)
    wins = 0
    total = 0
    for own in range(53):
        if copies[own] <= 0:
            continue
        total += copies[own]
        seat = leader
        best = -1
        best_seat = -1
        for _ in range(view[V.N_ACTIVE]):
            card = own if seat == me else view[V.VISIBLE_BASE + seat]
            if best < 0 or beats(card, best, trump):
                best = card
                best_seat = seat
            seat = next_seat(seat, active, n)
        if best_seat == me:
            wins += copies[own]
    probs = np.zeros(2)
    p = wins / total if total > 0 else 0.0
    probs[0] = 1.0 - p
    probs[1] = p
    return best_bid(view, probs)


# --- what is known about the cards ------------------------------------------------


@njit
def deck_mask(view):
    """The card ids in play: 52 cards, and the joker when it is in the deck."""
    return FULL_DECK | (JOKER_BIT if view[V.RULES_BASE + R_JOKER] != 0 else np.int64(0))


@njit
def unseen_mask(view):
    """Cards of which a copy may still be in another player's hand (or the stock).

    A card is seen when we hold it, it was played, or it is the turned-up card;
    with two decks it stays unseen until both copies are accounted for.
    """
    turned = view[V.TRUMP_CARD]
    turned_bit = np.int64(1) << turned if turned >= 0 else np.int64(0)
    if view[V.RULES_BASE + R_DECKS] == 1:
        return deck_mask(view) & ~(view[V.HAND] | view[V.PLAYED] | turned_bit)
    # Bit-parallel count of the known copies: ``twice`` collects the cards seen
    # at least twice.  The single joker is gone once seen.
    once = view[V.HAND]
    twice = view[V.HAND2]
    for seen in (view[V.PLAYED], view[V.PLAYED2], turned_bit):
        twice |= once & seen
        once |= seen
    return deck_mask(view) & ~(twice | (once & JOKER_BIT))


@njit
def seat_may_hold(view, seat, trump):
    """Cards ``seat`` may hold given the voids it showed (a void in trump rules out the joker)."""
    voids = view[V.VOIDS_BASE + seat]
    allowed = np.int64(-1)
    for suit in range(4):
        if (voids >> suit) & 1:
            allowed &= ~suit_mask(suit)
            if suit == trump:
                allowed &= ~JOKER_BIT
    return allowed


@njit
def later_may_hold(view, trump):
    """Union of the cards the players still to play this trick may hold, by their voids."""
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    seat = view[V.SEAT]
    out = np.int64(0)
    for _ in range(view[V.N_ACTIVE] - view[V.N_IN_TRICK] - 1):
        seat = next_seat(seat, active, n)
        out |= seat_may_hold(view, seat, trump)
    return out


@njit
def threats(card, led, trump, unseen, may_hold):
    """Unseen cards that beat ``card`` and that a player still to play may hold.

    When empty, ``card`` wins the trick if it is winning when played: a sure
    winner.  ``led`` is the led suit, or the suit ``card`` calls for when it leads.
    """
    return beaters(card, led, trump) & unseen & may_hold


@njit
def boss_trumps(view):
    """Held cards that win any trick they are played to: trumps no unseen card beats.

    A trump (or the joker) is a boss when every card above it is seen (held,
    played or turned up), and, with two decks, when no other copy of it is
    unseen either (of two equal cards the first played wins).  Each boss takes
    exactly one trick whenever it is played; a boss held twice takes two.
    """
    trumps = trump_mask(view[V.TRUMP])
    held = view[V.HAND] & trumps
    out = unseen_mask(view) & trumps
    if held == 0 or out == 0:
        return held
    # Trumps rank by bit within the trump mask (the joker, bit 52, highest), so the
    # bosses are the held trumps above the highest one still out; a held card whose
    # other copy is out (two decks) is itself out, so it is no boss.
    return held & ~((np.int64(2) << highest_card(out)) - 1)


@njit
def sure_trump_tricks(view):
    """Tricks the seated player takes whatever happens: its bosses, copies counted."""
    bosses = boss_trumps(view)
    return popcount(bosses) + popcount(bosses & view[V.HAND2])


# --- play -------------------------------------------------------------------------


@njit
def beating_cards(legal, best, trump):
    """Cards of ``legal`` that beat ``best``, the card winning the trick so far."""
    # ``best`` is a trump or of the led suit (or the joker), so ``beaters`` with
    # its own suit as the led one gives exactly the cards that beat it.
    if best == JOKER:
        return np.int64(0)
    return legal & beaters(best, best // 13, trump)


@njit
def danger_card(mask, trump):
    """The card of ``mask`` most likely to take an unwanted trick later.

    The highest rank; of equal ranks the trump (or the joker, above all), which
    wins wherever it is played; of equal off-suit ranks, the lowest card id.
    """
    if (mask >> JOKER) & 1:
        return JOKER
    if mask == 0:
        return -1
    top = highest_rank_cards(mask)
    trumps = top & suit_mask(trump) if trump >= 0 else np.int64(0)
    return lowest_card(trumps if trumps != 0 else top)


@njit
def keep_trump_card(mask, trump):
    """Highest rank of ``mask``, keeping trumps on equal rank (they may still be needed).

    Of equal off-suit ranks, the lowest card id; never the joker (-1 for it alone).
    """
    cards = mask & ~JOKER_BIT
    if cards == 0:
        return -1
    top = highest_rank_cards(cards)
    side = top & ~suit_mask(trump) if trump >= 0 else top
    return lowest_card(side if side != 0 else top)


@njit
def greedy_card(legal, led, trump, n_in_trick, best, wants):
    """``simple``'s play, also the fast policy of the Monte Carlo playouts.

    While ``wants`` more tricks: lead the strongest card; follow with the cheapest
    card that takes the trick, else throw the weakest.  Otherwise: lead the
    weakest card; duck with the highest card that still loses (dangerous high
    cards leave the hand while it is safe); when every card wins, take the trick
    with the highest one.
    """
    if n_in_trick == 0:
        if wants:
            return highest_by_power(legal, -1, trump)
        return lowest_by_power(legal, -1, trump)
    winners = beating_cards(legal, best, trump)
    if wants:
        if winners != 0:
            return lowest_by_power(winners, led, trump)
        return lowest_by_power(legal, led, trump)
    losers = legal & ~winners
    if losers != 0:
        return keep_trump_card(losers, trump)
    return highest_by_power(legal, led, trump)


@njit
def swap_card(view, dangerous):
    """A card to pass left in the swap variant (from ``view[LEGAL]``).

    With ``dangerous`` (a player aiming at zero tricks) the strongest card goes.
    Otherwise the side card nearest the middle ranks (around the jack) goes:
    aces and low cards are easy to count, middling cards are what make a count
    uncertain; with only trumps, the lowest trump.
    """
    legal = view[V.LEGAL]
    trump = view[V.TRUMP]
    if dangerous:
        return highest_by_power(legal, -1, trump)
    side = legal & ~trump_mask(trump)
    if side == 0:
        return lowest_by_power(legal, -1, trump)
    best = -1
    best_key = 99
    m = side
    while m != 0:
        card = lowest_card(m)
        m &= m - 1
        key = 2 * abs(card % 13 - _AMBIGUOUS_RANK) - (1 if card % 13 > _AMBIGUOUS_RANK else 0)
        if key < best_key:
            best_key = key
            best = card
    return best


@njit
def spare_cards(view, legal):
    """Following, the cards of ``legal`` to lose with when the bosses make the bid; else 0.

    When the seated player still needs ``need`` >= 1 tricks and holds at least
    ``need`` :func:`boss_trumps`, the bosses make the bid whenever they are
    played, and any trick another card takes is one too many.  Following a
    trick, the spare cards are the legal cards other than bosses that lose it
    (they do not beat the card winning it, so they cannot win it): playing one
    keeps the bosses and leaves the lead to the others, where taking the trick
    with a boss would leave the player on lead with a card that may win (duck
    now, win later).  Empty when leading: a lead may win whatever it is.
    """
    seat = view[V.SEAT]
    need = view[V.BIDS_BASE + seat] - view[V.TRICKS_WON_BASE + seat]
    held = view[V.HAND] & trump_mask(view[V.TRUMP])
    # Cheap tests first: this runs at every card a counting player follows with.
    if (
        need < 1
        or view[V.N_IN_TRICK] == 0
        or popcount(held) + popcount(held & view[V.HAND2]) < need
    ):
        return np.int64(0)
    bosses = boss_trumps(view)
    if popcount(bosses) + popcount(bosses & view[V.HAND2]) < need:
        return np.int64(0)
    others = legal & ~bosses
    return others & ~beating_cards(others, view[V.WINNING_CARD], view[V.TRUMP])


@njit
def wants_tricks(view):
    """Whether the seated player is still short of their bid."""
    seat = view[V.SEAT]
    return view[V.TRICKS_WON_BASE + seat] < view[V.BIDS_BASE + seat]
