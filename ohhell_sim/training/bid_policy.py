"""A bid policy learned with NumPy alone: REINFORCE on the batched environment.

The policy reads a few features of the hand (:func:`bid_features`) and aims at
``mu = weights · features`` tricks; it bids ``b`` with probability proportional
to ``exp(-(b - mu)^2 / (2 sigma^2))`` over the legal bids while it learns, and
the legal bid nearest ``mu`` once it plays (:func:`greedy_bid`).  Its cards are
played by a strategy (``simple`` by default), so what it learns is when to bid
what.  The features are read off a strategy's view by compiled code, so the
trained weights become a strategy's parameters unchanged (see the notebook
``notebooks/rl_bidding.ipynb``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import popcount, suit_mask
from ohhell_sim.env.batched import LEARNER, BatchedEnv
from ohhell_sim.env.observation import BID_ACTION
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import SeatSpec

#: What the features measure, in order.
FEATURE_NAMES = (
    "bias",
    "trumps held",
    "trumps from the jack up",
    "aces of other suits",
    "kings of other suits",
    "cards in the hand",
    "bids already made",
)
N_FEATURES = len(FEATURE_NAMES)
#: Cards of a suit from the jack up (rank 9 is the jack, 12 the ace).
_HIGH_RANKS = np.int64(0b1111 << 9)


@njit
def bid_features(view, out):
    """Write the features of the hand in ``view`` into ``out`` (:data:`FEATURE_NAMES`)."""
    hand = view[V.HAND]
    trump = view[V.TRUMP]
    trumps = np.int64(0)
    high = np.int64(0)
    aces = np.int64(0)
    kings = np.int64(0)
    for suit in range(4):
        cards = hand & suit_mask(suit)
        if suit == trump:
            trumps = popcount(cards)
            high = popcount(cards & (_HIGH_RANKS << (13 * suit)))
        else:
            aces += (cards >> (13 * suit + 12)) & 1
            kings += (cards >> (13 * suit + 11)) & 1
    out[0] = 1.0
    out[1] = trumps
    out[2] = high
    out[3] = aces
    out[4] = kings
    out[5] = view[V.HAND_SIZE]
    out[6] = view[V.BID_TOTAL]


@njit
def _features_of_views(views, out):
    for i in range(views.shape[0]):
        bid_features(views[i], out[i])


@njit
def _aim(features, weights):
    """``weights · features``, summed in feature order."""
    aim = 0.0
    for k in range(N_FEATURES):
        aim += weights[k] * features[k]
    return aim


@njit
def _explore(features, weights, legal, draws, sigma, chosen, centred):
    """Draw each table's bid from the exploring policy.

    Writes the bid into ``chosen`` and the bid minus its expectation under the
    policy into ``centred``.  The sums run in a fixed order in compiled code
    rather than through BLAS or NumPy's SIMD loops, whose rounding differs
    between CPUs: one bit of difference changes a draw sooner or later, and
    with it every weight learned after.
    """
    n_bids = legal.shape[1]
    weight = np.empty(n_bids)
    for i in range(features.shape[0]):
        aim = _aim(features[i], weights)
        top = -np.inf
        for b in range(n_bids):
            if legal[i, b]:
                top = max(top, -((b - aim) ** 2) / (2 * sigma**2))
        total = 0.0
        for b in range(n_bids):
            legal_b = legal[i, b]
            weight[b] = math.exp(-((b - aim) ** 2) / (2 * sigma**2) - top) if legal_b else 0.0
            total += weight[b]
        expected, running, bid, last_legal = 0.0, 0.0, -1, 0
        for b in range(n_bids):
            p = weight[b] / total
            expected += p * b
            running += p
            if legal[i, b]:
                last_legal = b
                if bid < 0 and running >= draws[i]:
                    bid = b
        # A last running total that rounds short of the draw takes the last legal bid.
        chosen[i] = bid if bid >= 0 else last_legal
        centred[i] = chosen[i] - expected


@njit
def _policy_gradient(advantage, centred, features, sigma, out):
    """Mean over tables of ``advantage * centred / sigma^2 * features``, in table order."""
    out[:] = 0.0
    for i in range(features.shape[0]):
        scale = advantage[i] * centred[i] / sigma**2
        for k in range(N_FEATURES):
            out[k] += scale * features[i, k]
    out /= features.shape[0]


@njit
def greedy_bid(view, weights):
    """The legal bid nearest the policy's aim (ties: the lower bid)."""
    features = np.empty(N_FEATURES)
    bid_features(view, features)
    aim = _aim(features, weights)
    best, best_gap = 0, np.inf
    for b in range(view[V.MAX_BID] + 1):
        if b == view[V.FORBIDDEN_BID]:
            continue
        gap = abs(b - aim)
        if gap < best_gap:
            best, best_gap = b, gap
    return best


@dataclass
class BidTraining:
    """What :func:`train_bid_policy` learned, and how.

    Attributes
    ----------
    weights : ndarray
        One weight per feature (:data:`FEATURE_NAMES`).
    curve : DataFrame
        One row per iteration: ``iteration``, ``deals``, ``mean_points`` (the
        learning seat's points per deal while it explores), ``made`` (share of
        bids made), ``mean_bid``.
    """

    weights: np.ndarray
    curve: pd.DataFrame


def train_bid_policy(
    rules: Rules,
    opponents: list[SeatSpec],
    *,
    seat: int = 0,
    plays: SeatSpec = "simple",
    tables: int = 1024,
    iterations: int = 300,
    learning_rate: float = 0.01,
    sigma: float = 0.7,
    seed: int = 0,
) -> BidTraining:
    """Learn bid weights for ``seat`` against ``opponents`` by REINFORCE.

    Each iteration, every table bids once for the learning seat (all tables at
    once, on :class:`~ohhell_sim.env.batched.BatchedEnv`), and the points of
    that deal are its return; the baseline is a running mean of the points per
    hand size.  The gradient of the log-probability of bid ``b`` with respect to
    the weights is ``(b - E[b]) / sigma^2 * features``.

    Parameters
    ----------
    rules : Rules
        The rules of the games (any table :class:`BatchedEnv` plays).
    opponents : list of seat specs
        The other seats, in seat order skipping ``seat``.
    seat : int
        The learning seat.
    plays : seat spec
        The strategy that plays the learning seat's cards.
    tables, iterations : int
        Deals per iteration, and iterations.
    learning_rate, sigma : float
        Step size, and the spread of the exploring policy (in tricks).
    seed : int
        The run's seed (cards, strategies, and the policy's draws).
    """
    n = rules.players
    if len(opponents) != n - 1:
        raise InvalidArgumentError(
            f"opponents must name {n - 1} strategies (one per other seat), got {opponents!r}"
        )
    if not 0 <= seat < n:
        raise InvalidArgumentError(f"seat must be a seat 0..{n - 1}, got {seat!r}")
    seats = [*opponents[:seat], LEARNER, *opponents[seat:]]
    env = BatchedEnv(rules, seats, tables=tables, learner_plays=plays)
    _, masks, _ = env.reset(seed)
    rng = np.random.default_rng(seed)
    weights = np.zeros(N_FEATURES)
    weights[1] = 0.5  # start from "half the trumps": any start learns, this one sooner
    baseline = np.zeros(rules.max_hand_size + 1)
    features = np.empty((tables, N_FEATURES))
    chosen = np.empty(tables, dtype=np.int64)
    centred = np.empty(tables)
    gradient = np.empty(N_FEATURES)
    rows = []
    for iteration in range(iterations):
        _features_of_views(env.views, features)
        hand_sizes = env.views[:, V.HAND_SIZE].copy()
        legal = masks[:, BID_ACTION:].astype(bool)
        _explore(features, weights, legal, rng.random(tables), sigma, chosen, centred)
        _, masks, _, rewards, _ = env.step(BID_ACTION + chosen)
        points = rewards[:, seat].astype(np.float64)
        advantage = points - baseline[hand_sizes]
        _policy_gradient(advantage, centred, features, sigma, gradient)
        weights += learning_rate * gradient
        for size in np.unique(hand_sizes):
            at = hand_sizes == size
            baseline[size] += 0.1 * (points[at].mean() - baseline[size])
        rows.append(
            {
                "iteration": iteration,
                "deals": tables,
                "mean_points": points.mean(),
                "made": float((points > 0).mean()),
                "mean_bid": chosen.mean(),
            }
        )
    return BidTraining(weights, pd.DataFrame(rows))
