"""Training ``distilled``: positions from real games, labelled by playouts of sampled deals.

The recipe, reproducible from a seed (``ohhell train distilled``):

1. **Positions.** Games of the built-in players (:data:`FIELDS`, ``adaptive_pimc``
   in most of them) at 3 to 7 players, with and without the hook, with no-trump
   deals and with the ``10*bid`` table, are played in Numba on the engine's
   deal and game steps (:func:`ohhell_sim.env.decisions.record_decisions`);
   every bid, and every card choice with more than one legal card, is kept with
   the view its player saw and the hands every seat held.  These are the
   reference engine's games (:func:`ohhell_sim.reference.game_steps`), which
   the tests check position by position, bit for bit.
2. **Labels.** Each move of a position is played out with ``simple``'s greedy
   policy in every seat, as ``pimc`` and ``mc_bidder`` play out their sampled
   deals (:mod:`ohhell_sim.strategies._playout`).  A bid's label is the tricks
   its bidder took on the real deal.  A card's label is the law of the tricks
   its player takes from there on over the real deal and :data:`WORLDS` deals
   drawn as ``pimc`` draws them from what the player sees: ``pimc``'s own
   averaged move values, with the real deal among the draws, so the card
   network learns the search's value with little of one playout's noise.
3. **Networks.** Two networks of one hidden layer
   (:mod:`ohhell_sim.strategies.distilled`) are fitted to the labels by minibatch Adam on
   the cross-entropy of the outcome distributions against the labels' laws, in
   NumPy: they are small enough that a training library would bring nothing.  The
   card network's loss adds a decision loss over each position's cards
   (:meth:`_Network.loss_and_grads`), which spends its few units on what tells
   the cards apart.  A share of the games is held out; the weights kept are
   those of the epoch of best held-out loss.

The positions are collected by ``workers`` threads, each playing whole games,
and put back in game order, so the data do not depend on the worker count; the
fit is seeded.  Collecting the 3,000 games of the shipped weights takes about
half a minute once the recorder is compiled (its compile is kept on disk, see
:mod:`ohhell_sim.env.decisions`), against several minutes in the reference
engine before; the labelling functions' compiles are kept on disk too
(:func:`ohhell_sim.strategy.disk_cache.cached_on_disk`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.arguments import check_seed
from ohhell_sim.engine.core import deal_points, next_seat
from ohhell_sim.engine.rng import game_key, seed_stream
from ohhell_sim.env.decisions import GameSet, record_decisions
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategies._common import unseen_mask
from ohhell_sim.strategies._distilled_features import (
    N_BID_MOVE,
    N_BID_STATE,
    N_CARD_MOVE,
    N_CARD_STATE,
    N_OUTCOMES,
    bid_move,
    bid_state,
    card_context,
    card_move,
    card_state,
)
from ohhell_sim.strategies._one_card import one_card_bid
from ohhell_sim.strategies._playout import (
    STACK_ROW,
    PlayoutDeal,
    deal_after,
    estimate_bids,
    estimate_bids_by_own_bid,
    play_out,
    play_out_bids,
    trick_after,
)
from ohhell_sim.strategies.distilled import (
    LAYERS,
    NETWORKS,
    STRATEGY,
    load_weights,
    network_bid,
    network_card,
)
from ohhell_sim.strategies.pimc import distinct_choices
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategies.tables import save_arrays
from ohhell_sim.strategy.disk_cache import cached_on_disk
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.registry import register_strategy
from ohhell_sim.strategy.tools import lowest_card, popcount

#: Seatings the positions come from, one game after another; a seating of
#: fewer names than players repeats them around the table.
FIELDS = (
    ("adaptive_pimc",),
    ("adaptive_pimc", "simple"),
    ("adaptive_pimc", "card_counter", "mc_bidder"),
    ("adaptive_pimc",),
    ("pimc", "learned"),
)
#: Table sizes, one game after another.
TABLE_SIZES = (4, 3, 5, 4, 6, 4, 7, 5, 3)
#: Rule sets, one game after another (keywords of :class:`ohhell_sim.rules.Rules`).
RULE_SETS = (
    {},
    {"hook": False},
    {},
    {"no_trump_every": 3},
    {"made": "10*bid"},
)

#: The purpose of the random streams of the labels' sampled deals (the
#: engine's streams are 0..2).
STREAM_LABEL = 3


@dataclass(frozen=True)
class Positions:
    """Decisions kept from games: views and every seat's hand at the decision."""

    bid_views: np.ndarray
    bid_hands: np.ndarray
    bid_games: np.ndarray
    card_views: np.ndarray
    card_hands: np.ndarray
    card_games: np.ndarray


def game_setup(game: int):
    """The rules and seat specs of training game ``game`` (a pure function of ``game``)."""
    players = TABLE_SIZES[game % len(TABLE_SIZES)]
    rules = Rules(players=players, **RULE_SETS[(game // len(TABLE_SIZES)) % len(RULE_SETS)])
    field = FIELDS[game % len(FIELDS)]
    seats = [field[(game + s) % len(field)] for s in range(players)]
    return rules, seats


def collect_positions(seed: int, games: int, workers: int = 1) -> Positions:
    """Play ``games`` training games (:func:`game_setup`) and keep their decisions.

    The games are played in Numba, grouped by their setup
    (:func:`ohhell_sim.env.decisions.record_decisions`), and their positions are
    put back in game order: those the reference engine's games show, bit for
    bit (``tests/test_distilled.py`` compares them).  ``workers`` threads share
    the games; the result does not depend on ``workers``.
    """
    groups: dict[tuple, list[int]] = {}
    for game in range(games):
        rules, seats = game_setup(game)
        groups.setdefault((rules, tuple(seats)), []).append(game)
    setups = [GameSet(rules, list(seats), found) for (rules, seats), found in groups.items()]
    parts = record_decisions(setups, seed, threads=workers)
    fields = Positions.__dataclass_fields__
    if not parts:
        empty = {"views": (0, V.VIEW_SIZE), "hands": (0, V.MAX_SEATS), "games": (0,)}
        return Positions(**{f: np.zeros(empty[f.split("_")[1]], np.int64) for f in fields})
    merged = {f: np.concatenate([getattr(p, f) for p in parts]) for f in fields}
    # A game's decisions are in one part, in order: a stable sort by game restores the run.
    order = {k: np.argsort(merged[f"{k}_games"], kind="stable") for k in ("bid", "card")}
    return Positions(**{f: a[order[f.split("_")[0]]] for f, a in merged.items()})


# --- labels -----------------------------------------------------------------------


@njit
def _public_bids(view):
    # The bids the view shows, -1 for the others, and whether an active seat's is hidden.
    bids = np.full(V.MAX_SEATS, -1, dtype=np.int64)
    hidden = False
    for s in range(view[V.N_PLAYERS]):
        bids[s] = view[V.BIDS_BASE + s]
        hidden |= (view[V.ACTIVE] >> s) & 1 != 0 and bids[s] < 0
    return bids, hidden


@cached_on_disk
@njit
def label_bids(views, hands):
    """Tricks each bid would take on the real deal: ``(positions, 11)``, -1 past the hand.

    The bids after the bidder's are ``simple``'s count, as in ``mc_bidder``'s playouts.
    """
    out = np.full((views.shape[0], N_OUTCOMES), -1, dtype=np.int64)
    for i in range(views.shape[0]):
        view = views[i]
        most = view[V.MAX_BID]
        h = view[V.HAND_SIZE]
        if most == 0 or h >= N_OUTCOMES:
            continue
        n = view[V.N_PLAYERS]
        me = view[V.SEAT]
        active = view[V.ACTIVE]
        trump = view[V.TRUMP]
        bids, _ = _public_bids(view)
        won = np.zeros(V.MAX_SEATS, dtype=np.int64)
        wants = np.zeros((V.MAX_SEATS, h + 1), dtype=np.int64)
        work = hands[i].copy()
        estimate_bids_by_own_bid(
            n, active, view[V.DEALER], h, most, view[V.HOOK], trump, work, bids, me, wants
        )
        counts = np.zeros((most + 1, h + 1), dtype=np.float64)
        stack = np.empty((most + 1, STACK_ROW), dtype=np.int64)
        every_bid = (np.int64(1) << (most + 1)) - 1
        first = next_seat(view[V.DEALER], active, n)
        deal = PlayoutDeal(n, active, trump, work, won)
        play_out_bids(deal, first, h, wants, every_bid, me, counts, stack, 0, 0)
        for b in range(most + 1):
            for k in range(h + 1):
                if counts[b, k] > 0.0:
                    out[i, b] = k
    return out


@njit
def _card_outcomes(view, hands, cards, bids, hidden, work, won, dist, weight):
    # Play each card of ``cards`` out on the deal ``hands``; add ``weight`` to
    # the count of the tricks it takes from here on, in its row of ``dist``.
    if hidden:
        for s in range(view[V.N_PLAYERS]):
            bids[s] = view[V.BIDS_BASE + s]
        estimate_bids(
            view[V.N_PLAYERS],
            view[V.ACTIVE],
            view[V.DEALER],
            view[V.HAND_SIZE],
            view[V.MAX_BID],
            view[V.HOOK],
            view[V.TRUMP],
            hands.copy(),
            bids,
        )
    me = view[V.SEAT]
    left = view[V.HAND_SIZE] - view[V.TRICK]
    for k in range(cards.shape[0]):
        deal = deal_after(view, hands, cards[k], work, won)
        before = won[me]
        play_out(deal, bids, trick_after(view, cards[k]), left, won[:0])
        dist[k, won[me] - before] += weight


@cached_on_disk
@njit
def label_cards(views, hands, worlds=0, seed=0):
    """Each distinct legal card of each position, and the law of the tricks it leads to.

    A card's tricks from this one on are counted on the real deal and on
    ``worlds`` deals drawn as ``pimc`` draws them, consistent with what the
    player sees (:func:`ohhell_sim.strategies.sampler.draw_sample`), each deal
    played out as ``pimc`` plays its samples; every deal counts alike.  The
    position of row ``i`` of ``views`` draws from its own stream ``(seed, i)``.
    Returns ``rows`` (``(position, card)``) and ``dist``, their laws over
    0..10 tricks (rows summing to one).
    """
    n_rows = 0
    for i in range(views.shape[0]):
        if views[i, V.HAND_SIZE] - views[i, V.TRICK] < N_OUTCOMES:
            n_rows += popcount(distinct_choices(views[i], unseen_mask(views[i])))
    rows = np.empty((n_rows, 2), dtype=np.int64)
    dist = np.zeros((n_rows, N_OUTCOMES), dtype=np.float64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    sample = np.zeros(V.MAX_SEATS, dtype=np.int64)
    plan = np.empty(PLAN_SIZE if worlds > 0 else 1, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    rng = np.empty(4, dtype=np.uint64)
    key = game_key(seed, 0)
    used = 0
    for i in range(views.shape[0]):
        view = views[i]
        if view[V.HAND_SIZE] - view[V.TRICK] >= N_OUTCOMES:
            continue
        bids, hidden = _public_bids(view)
        choices = distinct_choices(view, unseen_mask(view))
        cards = np.empty(popcount(choices), dtype=np.int64)
        for k in range(cards.shape[0]):
            cards[k] = lowest_card(choices)
            choices &= choices - 1
            rows[used + k, 0] = i
            rows[used + k, 1] = cards[k]
        out = dist[used : used + cards.shape[0]]
        _card_outcomes(view, hands[i], cards, bids, hidden, work, won, out, 1.0)
        drawn = 1
        if worlds > 0 and prepare_sample(view, plan, pool):
            seed_stream(rng, key, STREAM_LABEL, i)
            for _ in range(worlds):
                if draw_sample(plan, pool, rng, sample):
                    _card_outcomes(view, sample, cards, bids, hidden, work, won, out, 1.0)
                    drawn += 1
        out /= drawn
        used += cards.shape[0]
    return rows, dist


@cached_on_disk
@njit
def outcome_points(views, owner):
    """The points each outcome of a card's row is worth to its player: ``(rows, 11)``.

    Row ``j`` is the card of position ``owner[j]``; column ``r`` holds the points
    of the deal if the player takes ``r`` more tricks, under the position's
    scoring tables (0 past the tricks left).  The card network's decision loss
    compares the cards of a position by these.
    """
    out = np.zeros((owner.shape[0], N_OUTCOMES))
    for j in range(owner.shape[0]):
        view = views[owner[j]]
        me = view[V.SEAT]
        bid = view[V.BIDS_BASE + me]
        won = view[V.TRICKS_WON_BASE + me]
        top = min(view[V.HAND_SIZE] - view[V.TRICK], N_OUTCOMES - 1)
        rules = view[V.RULES_BASE :]
        for r in range(top + 1):
            out[j, r] = deal_points(bid, won + r, view[V.HAND_SIZE], rules)
    return out


# --- inputs -----------------------------------------------------------------------


@cached_on_disk
@njit
def bid_inputs(views, labels):
    """Network inputs of every labelled bid: state rows, move rows, bid, label, top, position."""
    total = 0
    for i in range(views.shape[0]):
        for b in range(N_OUTCOMES):
            total += labels[i, b] >= 0
    states = np.empty((views.shape[0], N_BID_STATE), dtype=np.float64)
    moves = np.empty((total, N_BID_MOVE), dtype=np.float64)
    index = np.empty(total, dtype=np.int64)
    target = np.empty(total, dtype=np.int64)
    top = np.empty(total, dtype=np.int64)
    owner = np.empty(total, dtype=np.int64)
    j = 0
    for i in range(views.shape[0]):
        estimate = bid_state(views[i], states[i])
        for b in range(N_OUTCOMES):
            if labels[i, b] < 0:
                continue
            bid_move(views[i], b, estimate, moves[j])
            index[j] = b
            target[j] = labels[i, b]
            top[j] = views[i, V.HAND_SIZE]
            owner[j] = i
            j += 1
    return states, moves, index, target, top, owner


@cached_on_disk
@njit
def card_inputs(views, rows):
    """Network inputs of every labelled card (``rows`` of :func:`label_cards`): state rows,
    move rows, top, position."""
    states = np.empty((views.shape[0], N_CARD_STATE), dtype=np.float64)
    for i in range(views.shape[0]):
        card_state(views[i], card_context(views[i]), states[i])
    moves = np.empty((rows.shape[0], N_CARD_MOVE), dtype=np.float64)
    top = np.empty(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[0]):
        view = views[rows[j, 0]]
        card_move(view, rows[j, 1], card_context(view), moves[j])
        top[j] = view[V.HAND_SIZE] - view[V.TRICK]
    return states, moves, top, rows[:, 0].copy()


@dataclass(frozen=True)
class Samples:
    """Inputs and labels of one network: one row per labelled move.

    A position's moves are consecutive rows (``owner`` never decreases).
    """

    states: np.ndarray  # one row per position
    moves: np.ndarray
    index: np.ndarray  # the move's column of the embedding
    target: np.ndarray  # the law of the outcome: one row of N_OUTCOMES per move
    top: np.ndarray  # the largest possible outcome
    owner: np.ndarray  # the move's position (a row of ``states``)
    games: np.ndarray  # the game of each position
    n_embed: int
    #: Points of each outcome to the mover, for the decision loss (None: no such loss).
    worth: np.ndarray | None = None


def bid_samples(positions: Positions) -> Samples:
    """The bid network's samples of ``positions``."""
    labels = label_bids(positions.bid_views, positions.bid_hands)
    states, moves, index, label, top, owner = bid_inputs(positions.bid_views, labels)
    target = np.zeros((label.shape[0], N_OUTCOMES))
    target[np.arange(label.shape[0]), label] = 1.0
    return Samples(states, moves, index, target, top, owner, positions.bid_games, N_OUTCOMES)


def card_samples(positions: Positions, worlds: int = 0, seed: int = 0) -> Samples:
    """The card network's samples of ``positions``: each card's law over the real deal
    and ``worlds`` sampled ones (:func:`label_cards`, drawing from ``seed``), and
    the points of each outcome (:func:`outcome_points`)."""
    rows, target = label_cards(positions.card_views, positions.card_hands, worlds, seed)
    states, moves, top, owner = card_inputs(positions.card_views, rows)
    index = np.zeros(target.shape[0], dtype=np.int64)
    worth = outcome_points(positions.card_views, owner)
    return Samples(states, moves, index, target, top, owner, positions.card_games, 1, worth)


# --- the fit ----------------------------------------------------------------------

#: Weight of the decision loss against the outcome loss, and its temperature in
#: points (:meth:`_Network.loss_and_grads`).
DECISION_WEIGHT = 20.0
TEMPERATURE = 1.0


def _group_softmax(values: np.ndarray, starts: np.ndarray, groups: np.ndarray) -> np.ndarray:
    # Softmax of ``values`` within each run of rows that ``starts`` begins.
    most = np.maximum.reduceat(values, starts)
    e = np.exp(values - most[groups])
    return e / np.add.reduceat(e, starts)[groups]


class _Network:
    """One hidden layer over [state, move, one-hot index]; masked softmax outcomes."""

    def __init__(self, n_state: int, n_move: int, n_embed: int, hidden: int, rng) -> None:
        n_in = n_state + n_move + n_embed
        scale = np.sqrt(2.0 / n_in)
        self.n_state, self.n_move = n_state, n_move
        self.params = {
            "w1": rng.normal(0.0, scale, (n_in, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0.0, np.sqrt(1.0 / hidden), (hidden, N_OUTCOMES)).astype(np.float32),
            "b2": np.zeros(N_OUTCOMES, np.float32),
        }

    def loss_and_grads(self, batch: _Batch, decision_weight: float, want_grads: bool = True):
        """The loss of ``batch`` and its gradients.

        The outcome loss is the cross-entropy of the outcome laws against the
        labels', per move.  With ``decision_weight`` > 0 and the points of each
        outcome, a decision loss is added, per position: the cross-entropy
        between a softmax over the position's moves of the labels' expected
        points and the same of the network's (both over :data:`TEMPERATURE`
        points).  It spends the network's capacity on what separates the moves
        of a position, which decides the move, rather than on what they share.
        """
        p = self.params
        pre = batch.x @ p["w1"] + p["b1"]
        hidden = np.maximum(pre, 0.0)
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(batch.mask, logits, -1e30)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * batch.mask
        probs = e / e.sum(axis=1, keepdims=True)
        n = batch.x.shape[0]
        loss = -np.sum(batch.target * np.log(probs + 1e-12)) / n
        d_logits = (probs - batch.target) / n
        if decision_weight > 0.0 and batch.worth is not None:
            value = (probs * batch.worth).sum(axis=1)
            chosen = _group_softmax(value / TEMPERATURE, batch.starts, batch.groups)
            wanted = _group_softmax(
                (batch.target * batch.worth).sum(axis=1) / TEMPERATURE, batch.starts, batch.groups
            )
            positions = batch.starts.shape[0]
            loss += decision_weight * -np.sum(wanted * np.log(chosen + 1e-12)) / positions
            d_value = decision_weight * (chosen - wanted) / (TEMPERATURE * positions)
            d_logits += d_value[:, None] * probs * (batch.worth - value[:, None])
        if not want_grads:
            return float(loss), None
        d_hidden = (d_logits @ p["w2"].T) * (pre > 0.0)
        grads = {
            "w2": hidden.T @ d_logits,
            "b2": d_logits.sum(axis=0),
            "w1": batch.x.T @ d_hidden,
            "b1": d_hidden.sum(axis=0),
        }
        return float(loss), grads

    def layers(self) -> tuple[np.ndarray, ...]:
        """The arrays of the player's ``LAYERS``, as the player reads them."""
        w1 = self.params["w1"]
        s, m = self.n_state, self.n_move
        return (
            np.ascontiguousarray(w1[:s]),
            np.ascontiguousarray(w1[s : s + m]),
            np.ascontiguousarray(w1[s + m :]),
            self.params["b1"].copy(),
            np.ascontiguousarray(self.params["w2"]),
            self.params["b2"].copy(),
        )


@dataclass(frozen=True)
class _Batch:
    """The rows of whole positions, ready for the network."""

    x: np.ndarray
    target: np.ndarray
    mask: np.ndarray
    worth: np.ndarray | None
    starts: np.ndarray  # the first row of each position
    groups: np.ndarray  # each row's position, 0.. within the batch


def _position_rows(samples: Samples) -> tuple[np.ndarray, np.ndarray]:
    # The first row and the row count of each position with moves.
    starts = np.flatnonzero(np.r_[True, samples.owner[1:] != samples.owner[:-1]])
    return starts, np.diff(np.r_[starts, samples.owner.shape[0]])


def _batch(samples: Samples, starts: np.ndarray, counts: np.ndarray) -> _Batch:
    rows = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
    one_hot = np.zeros((rows.shape[0], samples.n_embed), np.float32)
    one_hot[np.arange(rows.shape[0]), samples.index[rows]] = 1.0
    x = np.hstack([samples.states[samples.owner[rows]], samples.moves[rows], one_hot])
    mask = np.arange(N_OUTCOMES)[None, :] <= samples.top[rows][:, None]
    return _Batch(
        x=x.astype(np.float32),
        target=samples.target[rows].astype(np.float32),
        mask=mask,
        worth=None if samples.worth is None else samples.worth[rows].astype(np.float32),
        starts=np.cumsum(counts) - counts,
        groups=np.repeat(np.arange(counts.shape[0]), counts),
    )


@dataclass(frozen=True)
class Fit:
    """A fitted network and its learning curve (held-out loss per epoch)."""

    layers: tuple[np.ndarray, ...]
    curve: list[dict]
    train_rows: int
    held_out_rows: int


def fit_network(
    samples: Samples,
    hidden: int,
    epochs: int,
    seed: int,
    held_out: float = 0.1,
    batch: int = 128,
    learning_rate: float = 2e-3,
    decision_weight: float = 0.0,
    log: Callable[[str], None] | None = None,
) -> Fit:
    """Fit one network by minibatch Adam; keep the epoch of best held-out loss.

    A minibatch is ``batch`` whole positions (every move of each).  The
    held-out share is a share of the games (every position of a game on the
    same side), chosen by ``seed``.  ``decision_weight`` weighs the decision
    loss (:meth:`_Network.loss_and_grads`; needs ``samples.worth``).  The fit
    computes in single precision, in a fixed order: the same samples and seed
    give the same weights.
    """
    rng = np.random.default_rng(seed)
    games = np.unique(samples.games)
    held = rng.choice(games, size=max(1, int(len(games) * held_out)), replace=False)
    starts, counts = _position_rows(samples)
    is_held = np.isin(samples.games[samples.owner[starts]], held)
    train = np.flatnonzero(~is_held)
    test = np.flatnonzero(is_held)
    net = _Network(samples.states.shape[1], samples.moves.shape[1], samples.n_embed, hidden, rng)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in net.params.items()}
    held_batch = _batch(samples, starts[test], counts[test])
    best_loss, best_layers, curve, step = np.inf, net.layers(), [], 0
    beta1, beta2 = 0.9, 0.999
    for epoch in range(epochs):
        order = rng.permutation(train)
        for at in range(0, order.shape[0], batch):
            chosen = order[at : at + batch]
            _, grads = net.loss_and_grads(
                _batch(samples, starts[chosen], counts[chosen]), decision_weight
            )
            step += 1
            for k, g in grads.items():
                first, second = moments[k]
                first *= beta1
                first += (1 - beta1) * g
                second *= beta2
                second += (1 - beta2) * g * g
                corrected = first / (1 - beta1**step)
                spread = np.sqrt(second / (1 - beta2**step)) + 1e-8
                net.params[k] -= (learning_rate * corrected / spread).astype(np.float32)
        loss, _ = net.loss_and_grads(held_batch, decision_weight, want_grads=False)
        curve.append({"epoch": epoch + 1, "held_out_loss": loss})
        if log:
            log(f"  epoch {epoch + 1}: held-out loss {loss:.4f}")
        if loss < best_loss:
            best_loss, best_layers = loss, net.layers()
    return Fit(best_layers, curve, int(counts[train].sum()), int(counts[test].sum()))


# --- the whole recipe -------------------------------------------------------------

#: Sampled deals beside the real one that label each card.
WORLDS = 32
#: Hidden units of the bid and card networks.
HIDDEN = {"bid": 24, "card": 20}


def train_distilled(
    seed: int = 0,
    games: int = 3000,
    epochs: int = 10,
    workers: int = 1,
    worlds: int = WORLDS,
    log: Callable[[str], None] | None = None,
    hidden: Mapping[str, int] = HIDDEN,
) -> dict[str, np.ndarray]:
    """Collect positions, label them and fit both networks (module docstring).

    ``worlds`` sampled deals beside the real one label each card (:func:`label_cards`);
    ``hidden`` gives the hidden units of each network (:data:`HIDDEN`).

    Returns the arrays of a weights file (:func:`save_weights`), with ``meta``:
    how it was made, its sample counts, learning curves and times.
    """
    seed = check_seed(seed)
    hidden = check_hidden(hidden)
    for name, value in (("games", games), ("epochs", epochs), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidArgumentError(f"{name} must be a positive integer, got {value!r}")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 0:
        raise InvalidArgumentError(f"worlds must be a non-negative integer, got {worlds!r}")
    say = log or (lambda _: None)
    started = time.perf_counter()
    say(f"collecting positions from {games} games ({workers} worker(s))")
    positions = collect_positions(seed, games, workers)
    collected = time.perf_counter()
    say(
        f"  {len(positions.bid_views)} bids, {len(positions.card_views)} card choices "
        f"in {collected - started:.0f} s"
    )
    weights = fit_weights(positions, seed, epochs, worlds, log, hidden)
    meta = json.loads(str(weights["meta"]))
    if hidden == HIDDEN:
        made_by = (
            f"ohhell train distilled --seed {seed} --games {games} --epochs {epochs} "
            f"--worlds {worlds}"
        )
    else:  # the command has no option for the sizes
        made_by = (
            f"train_distilled(seed={seed}, games={games}, epochs={epochs}, worlds={worlds}, "
            f"hidden={hidden})"
        )
    meta.update(
        games=games,
        made_by=made_by,
        collect_seconds=round(collected - started, 1),
        total_seconds=round(time.perf_counter() - started, 1),
    )
    weights["meta"] = np.array(json.dumps(meta))
    return weights


def check_hidden(hidden: Mapping[str, int]) -> dict[str, int]:
    """``hidden`` as a dict, checked: a positive unit count for each of :data:`NETWORKS`.

    Raises
    ------
    InvalidArgumentError
        If a network is missing or unknown, or a count is not a positive integer.
    """
    if not isinstance(hidden, Mapping) or set(hidden) != set(NETWORKS):
        raise InvalidArgumentError(
            f"hidden must map each network {list(NETWORKS)} to its hidden units, got {hidden!r}"
        )
    for net, units in hidden.items():
        if isinstance(units, bool) or not isinstance(units, int | np.integer) or units < 1:
            raise InvalidArgumentError(f"hidden[{net!r}] must be a positive integer, got {units!r}")
    return {net: int(hidden[net]) for net in NETWORKS}


def labelled_samples(positions: Positions, seed: int, worlds: int = WORLDS) -> dict[str, Samples]:
    """The samples of both networks of ``positions`` (:func:`bid_samples`,
    :func:`card_samples`): labelled once, they may be fitted at several sizes."""
    return {"bid": bid_samples(positions), "card": card_samples(positions, worlds, seed)}


def fit_weights(
    positions: Positions,
    seed: int,
    epochs: int,
    worlds: int = WORLDS,
    log: Callable[[str], None] | None = None,
    hidden: Mapping[str, int] = HIDDEN,
    samples: Mapping[str, Samples] | None = None,
) -> dict[str, np.ndarray]:
    """Label ``positions`` and fit both networks: the arrays of a weights file.

    ``hidden`` gives each network's hidden units; ``samples``, when given, are
    those :func:`labelled_samples` made of the same ``positions``, ``seed`` and
    ``worlds`` (labelled once for fits of several sizes).
    """
    hidden = check_hidden(hidden)
    if samples is None:
        samples = labelled_samples(positions, seed, worlds)
    out: dict[str, np.ndarray] = {}
    meta: dict = {
        "seed": seed,
        "epochs": epochs,
        "worlds": worlds,
        "hidden": hidden,
        "decision_weight": {"card": DECISION_WEIGHT, "temperature": TEMPERATURE},
        "fields": [list(f) for f in FIELDS],
        "table_sizes": list(TABLE_SIZES),
        "rule_sets": list(RULE_SETS),
        "bid_positions": len(positions.bid_views),
        "card_positions": len(positions.card_views),
    }
    for net in NETWORKS:
        if log:
            log(f"fitting the {net} network on {len(samples[net].target)} labelled moves")
        fit = fit_network(
            samples[net],
            hidden[net],
            epochs,
            seed + 1 + NETWORKS.index(net),
            decision_weight=DECISION_WEIGHT if net == "card" else 0.0,
            log=log,
        )
        for layer, array in zip(LAYERS, fit.layers, strict=True):
            out[f"{net}_{layer}"] = array
        meta[net] = {
            "curve": fit.curve,
            "train_rows": fit.train_rows,
            "held_out_rows": fit.held_out_rows,
        }
    out["meta"] = np.array(json.dumps(meta))
    return out


def save_weights(weights: dict[str, np.ndarray], path: str | Path) -> Path:
    """Write the arrays of :func:`train_distilled` to a compressed ``.npz`` file.

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not end in ``.npz``, which NumPy would append.
    """
    return save_arrays(weights, path, "a weights file")


def register_weights(name: str, path: str | Path, *, replace: bool = False) -> Strategy:
    """Register, as ``name``, ``distilled`` playing the networks of the weights file ``path``.

    The built-in reads the shipped file (compiled into it); this plays any file
    :func:`train_distilled` wrote (``ohhell train distilled -o FILE``), with
    ``distilled``'s bids and cards otherwise: the exact one-card bids, the same
    fallbacks.  The networks' arrays are frozen into its compiled code, which
    the kernel cache tells apart by their values, so it plays on the shared and
    the dedicated kernels alike.  The shipped file's variant plays exactly as
    ``distilled``.

    Parameters
    ----------
    name : str
        The strategy's name (:func:`ohhell_sim.register_strategy`).
    path : str or Path
        A weights file (:func:`save_weights`).
    replace : bool
        Allow registering ``name`` again (another file, or a notebook cell run again).

    Returns
    -------
    Strategy

    Raises
    ------
    InvalidArgumentError
        If ``path`` is not a weights file, or ``name`` is taken (see
        :func:`ohhell_sim.register_strategy`).
    """
    if not Path(path).is_file():
        raise InvalidArgumentError(f"path: no weights file at {str(path)!r}")
    weights = load_weights(path)
    b_state, b_move, b_embed, b_bias, b_out, b_out_bias = weights["bid"]
    c_state, c_move, c_embed, c_bias, c_out, c_out_bias = weights["card"]
    # The networks take the arrays as arguments: compiled once per machine and
    # version of the sources, not once per process and file (10-20 s each).
    solved_bid = cached_on_disk(one_card_bid)
    bid_network = cached_on_disk(network_bid)
    card_network = cached_on_disk(network_card)

    @njit
    def bid(view, params, rng):
        exact = solved_bid(view)
        if exact >= 0:
            return exact
        return bid_network(view, b_state, b_move, b_embed, b_bias, b_out, b_out_bias)

    @njit
    def play(view, params, rng):
        return card_network(view, c_state, c_move, c_embed, c_bias, c_out, c_out_bias)

    return register_strategy(
        name,
        bid,
        play,
        description=f"distilled playing the networks of {Path(path).name}",
        stochastic=False,
        reads_scoring=STRATEGY.reads_scoring,
        replace=replace,
    )
