"""``bayes_pimc``: determinized Monte Carlo search reading hands and opponent types from the bids.

``pimc`` deals the hidden cards uniformly and assumes every opponent plays
``simple``'s greedy game.  This player reasons about who it is playing as well
as what they hold.  Each opponent is one of two types: *competent* (its bid is
its hand's expected trick count, as ``expected_tricks`` counts it, give or take
a noise of scale ``tau``; it plays greedily towards its bid) or *random* (any bid
is as likely, and it plays a uniformly random legal card).  ``prior`` is the
prior probability of the random type.

Evidence.  A bid speaks about the hand it was made on.  Mid-deal, the statistic
read is the seat's *need*, its bid less the tricks it has won: a competent
player's need is close to the expected count of the cards it still holds (the
``expected_tricks`` tables at the tricks left), P(need | hand) proportional to
exp(-|need - count| / ``tau``) over the needs its bid could give; a random
player's bid is uniform, so is its need.  A need below zero (a player past its
bid) is unlikely for a competent player and as likely as any for a random one,
so over-taking players are read as random.  With ``pooled`` = 1 the opponents
share one type (the field is either competent or random), so the bids of all
of them are pooled; with 0 each seat has its own.

Search.  To bid, it deals ``oversample`` x ``bid_samples`` candidate deals as
``pimc`` does (hand counts, shown voids, the cards passed in the swap), weights
each by the likelihood of every opponent's observed bid under the mixture of
types, and draws ``bid_samples`` of them by systematic resampling, each with the
opponents' types drawn from their posterior given that deal.  At each card it
deals ``samples`` deals the same way but keeps their importance weights rather
than oversampling, so that a card costs about what ``pimc``'s does.  Each legal
card (one of every run of equivalent cards) is then played out on those samples
with each opponent following its type (greedy or random) and itself greedy, and
the card of best average score under the active scoring tables is played.  The
bid is searched the same way: the earlier seats' bids weight the deals, later
seats bid ``simple``'s count, and the legal bid of highest expected score over
the playouts is made, as ``mc_bidder`` does.  With no opponent's bid to read
(the first to bid), or with ``bid_search`` = 0, it bids with ``mc_bidder``'s
:func:`ohhell_sim.strategies.mc_bidder.mc_bid` itself.  Against a competent field the bids
look competent and it plays like ``pimc`` on better-informed deals; against
random players its playouts are the random players' own game, which is what
information-set MCTS with random rollouts exploits.

The ideas are those of the Skat programs (Buro, Long, Furtak and Sturtevant,
2009: deals weighted by how likely each player's bidding is given its cards)
with a mixture model of the opponents in the manner of opponent modelling in
poker.  With two decks (declared unsupported) it falls back to ``card_counter``.

Parameters: ``samples`` = 24 (deals searched per card), ``bid_samples`` = 64,
``oversample`` = 4, ``tau`` = 0.6, ``prior`` = 0.2, ``pooled`` = 1, ``bid_search`` = 1.
Stochastic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import next_seat
from ohhell_sim.engine.deal import legal_cards, trick_with
from ohhell_sim.engine.rng import below, uniform
from ohhell_sim.rules import R_DECKS
from ohhell_sim.strategies._common import (
    best_bid_by_row,
    forehead_bid,
    greedy_card,
    is_forehead_bid,
    legal_bid_near,
)
from ohhell_sim.strategies._counting import counting_play, left_to_counting
from ohhell_sim.strategies._playout import (
    PlayoutDeal,
    deal_after,
    fill_bids,
    first_lead,
    trick_after,
)
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, _mask_sum, expected_bid
from ohhell_sim.strategies.mc_bidder import ONE_DECK_ONLY, mc_bid
from ohhell_sim.strategies.pimc import best_average_card, candidate_cards
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import nth_card, points, popcount

# --- the opponent model -------------------------------------------------------


@njit
def competent_likelihood(need, hand, trump, tricks_left, players, won, hand_size, tau):
    """P(``need`` | ``hand``) for a competent player (module docstring).

    ``hand`` holds the cards it still has for the ``tricks_left`` tricks left;
    ``need`` is its bid less the ``won`` tricks it has taken, so it ranges over
    ``-won .. hand_size - won``, and the likelihood is normalised over that range.
    """
    count = _mask_sum(hand, trump, tricks_left, players) + DEFAULT_RISK
    count = min(max(count, 0.0), float(tricks_left))
    # The normaliser sum_k exp(-|k - count| / tau) over -won..hand_size-won, as two
    # geometric series on either side of floor(count), which lies in that range.
    r = np.exp(-1.0 / tau)
    f = np.floor(count)
    d = count - f
    below_terms = f + won + 1.0
    above_terms = hand_size - won - f
    z = (
        np.exp(-d / tau) * (1.0 - r**below_terms) + np.exp((d - 1.0) / tau) * (1.0 - r**above_terms)
    ) / (1.0 - r)
    return np.exp(-abs(need - count) / tau) / z


@njit
def type_weights(view, hands, tau, prior, pooled, like_random, like_competent):
    """Likelihood of the observed bids under each type, per opponent, for one deal.

    Fills ``like_random[s]`` and ``like_competent[s]`` for every opponent with a
    known bid (1 for the others, which carry no evidence) and returns the deal's
    weight: the mixture likelihood of all the bids, per seat or pooled.
    """
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    trump = view[V.TRUMP]
    hand_size = view[V.HAND_SIZE]
    in_play = view[V.PHASE] == V.PHASE_PLAY
    tricks_left = hand_size - view[V.TRICK] if in_play else hand_size
    players = view[V.N_ACTIVE]
    prod_random = 1.0
    prod_competent = 1.0
    weight = 1.0
    for s in range(n):
        like_random[s] = 1.0
        like_competent[s] = 1.0
        if s == me or (active >> s) & 1 == 0 or view[V.BIDS_BASE + s] < 0:
            continue
        won = view[V.TRICKS_WON_BASE + s] if in_play else 0
        hand = hands[s]
        if in_play and view[V.TRICK_CARDS_BASE + s] >= 0:
            hand |= np.int64(1) << view[V.TRICK_CARDS_BASE + s]
        need = view[V.BIDS_BASE + s] - won
        like_random[s] = 1.0 / (hand_size + 1)
        like_competent[s] = competent_likelihood(
            need, hand, trump, tricks_left, players, won, hand_size, tau
        )
        prod_random *= like_random[s]
        prod_competent *= like_competent[s]
        weight *= prior * like_random[s] + (1.0 - prior) * like_competent[s]
    if pooled:
        return prior * prod_random + (1.0 - prior) * prod_competent
    return weight


@njit
def draw_types(view, prior, pooled, like_random, like_competent, rng):
    """Draw the random-type opponents of one deal from their posterior; a seat mask."""
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    mask = np.int64(0)
    if pooled:
        a = prior
        b = 1.0 - prior
        for s in range(n):
            a *= like_random[s]
            b *= like_competent[s]
        if uniform(rng) * (a + b) < a:
            for s in range(n):
                if s != me and (active >> s) & 1:
                    mask |= np.int64(1) << s
        return mask
    for s in range(n):
        if s == me or (active >> s) & 1 == 0:
            continue
        a = prior * like_random[s]
        b = (1.0 - prior) * like_competent[s]
        if uniform(rng) * (a + b) < a:
            mask |= np.int64(1) << s
    return mask


@njit
def _bids_to_read(view):
    # Whether an opponent's bid is known.
    for s in range(view[V.N_PLAYERS]):
        if s != view[V.SEAT] and (view[V.ACTIVE] >> s) & 1 and view[V.BIDS_BASE + s] >= 0:
            return True
    return False


@njit
def inferred_samples(
    view, count, oversample, tau, prior, pooled, rng, hands_out, random_out, weights_out
):
    """Deals and opponent types from the posterior given the bids (module docstring).

    Fills the first ``count`` rows of ``hands_out``, entries of ``random_out``
    (the mask of random-type seats of each deal) and ``weights_out`` (the deal's
    weight, averaging 1) and returns True, or False when the sampler does not
    support the view.  With ``oversample`` > 1, ``oversample`` x ``count``
    candidates are resampled down to ``count`` of equal weight; with 1, the
    ``count`` deals keep their importance weights.
    """
    # Without a bid to read, or with a certain type, every deal weighs the same.
    n_cand = count * max(oversample, 1) if _bids_to_read(view) and prior < 1.0 else count
    cand = np.zeros((n_cand, V.MAX_SEATS), dtype=np.int64)
    weights = np.empty(n_cand, dtype=np.float64)
    like_random = np.ones((n_cand, V.MAX_SEATS), dtype=np.float64)
    like_competent = np.ones((n_cand, V.MAX_SEATS), dtype=np.float64)
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    if not prepare_sample(view, plan, pool):
        return False
    total = 0.0
    for i in range(n_cand):
        if not draw_sample(plan, pool, rng, cand[i]):
            return False
        weights[i] = type_weights(
            view, cand[i], tau, prior, pooled, like_random[i], like_competent[i]
        )
        total += weights[i]
    if total <= 0.0:
        weights[:] = 1.0
        total = float(n_cand)
    if n_cand == count:
        for j in range(count):
            hands_out[j, :] = cand[j]
            random_out[j] = draw_types(view, prior, pooled, like_random[j], like_competent[j], rng)
            weights_out[j] = weights[j] * count / total
        return True
    # Systematic resampling: one uniform offset, ``count`` evenly spaced pointers.
    step = total / count
    pointer = uniform(rng) * step
    acc = weights[0]
    i = 0
    for j in range(count):
        while acc < pointer and i < n_cand - 1:
            i += 1
            acc += weights[i]
        hands_out[j, :] = cand[i]
        random_out[j] = draw_types(view, prior, pooled, like_random[i], like_competent[i], rng)
        weights_out[j] = 1.0
        pointer += step
    return True


# --- playouts with a policy per seat -------------------------------------------


@njit
def typed_play_out(deal, bids, trick, tricks_left, random_seats, rng):
    """Finish a deal: the seats of ``random_seats`` play a uniformly random legal
    card, the others ``simple``'s greedy card towards their bids.

    The arguments are those of :func:`ohhell_sim.strategies._playout.play_out` (without the
    record of winning cards), plus the seat mask and the random stream.
    """
    n, active, trump, hands, won = deal
    seat, j, led, best, best_seat, _ = trick
    n_active = popcount(active)
    for _ in range(tricks_left):
        while j < n_active:
            hand = hands[seat]
            _, legal = legal_cards(hand, led if j > 0 else -1, trump, True)
            if (random_seats >> seat) & 1:
                card = nth_card(legal, below(rng, popcount(legal)))
            else:
                card = greedy_card(legal, led, trump, j, best, won[seat] < bids[seat])
            hands[seat] = hand ^ (np.int64(1) << card)
            led, best, best_seat = trick_with(card, seat, j, led, best, best_seat, trump, True)
            seat = next_seat(seat, active, n)
            j += 1
        won[best_seat] += 1
        seat = best_seat
        j = 0


# --- decisions -------------------------------------------------------------------


@njit
def search_card(view, samples, oversample, tau, prior, pooled, rng):
    """The card of best average playout score over the inferred deals."""
    if left_to_counting(view) or samples < 1:
        return counting_play(view, False)
    me = view[V.SEAT]
    cards = candidate_cards(view)
    n_choices = cards.shape[0]
    if n_choices == 1:
        return cards[0]
    sampled = np.zeros((samples, V.MAX_SEATS), dtype=np.int64)
    random_seats = np.zeros(samples, dtype=np.int64)
    weight = np.ones(samples, dtype=np.float64)
    if not inferred_samples(
        view, samples, oversample, tau, prior, pooled, rng, sampled, random_seats, weight
    ):
        return counting_play(view, False)

    totals = np.zeros(n_choices, dtype=np.float64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    tricks_left = view[V.HAND_SIZE] - view[V.TRICK]
    my_bid = view[V.BIDS_BASE + me]
    for k in range(samples):
        fill_bids(view, sampled[k], bids, -1)
        for i in range(n_choices):
            deal = deal_after(view, sampled[k], cards[i], work, won)
            trick = trick_after(view, cards[i])
            typed_play_out(deal, bids, trick, tricks_left, random_seats[k], rng)
            totals[i] += weight[k] * points(view, my_bid, won[me])
    return best_average_card(view, cards, totals)


@njit
def search_bid(view, samples, oversample, tau, prior, pooled, rng):
    """The legal bid of highest expected score over playouts of the inferred deals."""
    most = view[V.MAX_BID]
    if most == 0:
        return 0
    if samples < 1 or view[V.RULES_BASE + R_DECKS] != 1:
        return expected_bid(view, DEFAULT_RISK)
    n = view[V.N_PLAYERS]
    active = view[V.ACTIVE]
    me = view[V.SEAT]
    h = view[V.HAND_SIZE]
    trump = view[V.TRUMP]
    sampled = np.zeros((samples, V.MAX_SEATS), dtype=np.int64)
    random_seats = np.zeros(samples, dtype=np.int64)
    weight = np.ones(samples, dtype=np.float64)
    if not inferred_samples(
        view, samples, oversample, tau, prior, pooled, rng, sampled, random_seats, weight
    ):
        return expected_bid(view, DEFAULT_RISK)
    counts = np.zeros((most + 1, h + 1), dtype=np.float64)
    tried = np.zeros(most + 1, dtype=np.bool_)
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    first = next_seat(view[V.DEALER], active, n)
    aim = min(max(expected_bid(view, DEFAULT_RISK), 0), most)
    low = h
    high = 0
    # First pass at expected_tricks's bid; its spread of trick counts bounds the
    # candidates worth evaluating (as in ``mc_bidder``).
    for rnd in range(2):
        for b in range(most + 1):
            if (
                tried[b]
                or (rnd == 0 and b != aim)
                or (rnd == 1 and not (b == 0 or low - 1 <= b <= high + 1))
            ):
                continue
            for k in range(samples):
                fill_bids(view, sampled[k], bids, b)
                work[:] = sampled[k]
                won[:] = 0
                deal = PlayoutDeal(n, active, trump, work, won)
                typed_play_out(deal, bids, first_lead(first), h, random_seats[k], rng)
                counts[b, won[me]] += weight[k]
                low = min(low, won[me])
                high = max(high, won[me])
            tried[b] = True
    best = best_bid_by_row(view, counts / samples, tried)
    if best < 0:
        return legal_bid_near(view, aim, False)
    return best


@njit
def bid(view, params, rng):
    """Thin entry: the searched bid with ``bid_samples`` samples."""
    if is_forehead_bid(view):
        return forehead_bid(view)
    if params[6] == 0 or not _bids_to_read(view):
        return mc_bid(view, np.int64(params[1]), rng)
    return search_bid(
        view, np.int64(params[1]), np.int64(params[2]), params[3], params[4], params[5] != 0, rng
    )


@njit
def play(view, params, rng):
    """Thin entry: the searched card on ``samples`` importance-weighted deals."""
    # No oversampling in play: a card then costs about what pimc's does.
    return search_card(
        view, np.int64(params[0]), np.int64(1), params[3], params[4], params[5] != 0, rng
    )


STRATEGY = Strategy(
    name="bayes_pimc",
    bid=bid,
    play=play,
    params={
        "samples": 24.0,
        "bid_samples": 64.0,
        "oversample": 4.0,
        "tau": 0.6,
        "prior": 0.2,
        "pooled": 1.0,
        "bid_search": 1.0,
    },
    # tau divides in the likelihood: 0.01 already makes a competent bid all but exact.
    param_bounds={
        "samples": (0, None),
        "bid_samples": (0, None),
        "oversample": (1, None),
        "tau": (0.01, None),
        "prior": (0, 1),
        "pooled": (0, 1),
        "bid_search": (0, 1),
    },
    description=__doc__.split("\n\n", 1)[1].strip(),
    stochastic=True,
    cost="heavy",
    unsupported=ONE_DECK_ONLY,
    builtin_id=9,
    colour="#AA3377",
    reads_scoring=True,
    quick_params={"samples": 3.0, "bid_samples": 3.0},
)
