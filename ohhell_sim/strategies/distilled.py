"""``distilled``: the Monte Carlo search's judgement, learned into two small networks.

``pimc`` and ``mc_bidder`` value a move by dealing the hidden cards at random
and playing each deal out with ``simple``'s greedy policy in every seat.  This
player learns that value instead of sampling it.  Two networks of one hidden
layer give, for a move tried, the distribution of the tricks the player will
take: one for each bid (its tricks in the deal), one for each legal card (its
tricks from this one on).  It makes the move of highest expected points under
the active scoring tables, so its bids and its play follow the table.  A card
tie goes to the weaker card.

The networks were trained (:mod:`ohhell_sim.training.distilled`, ``ohhell train
distilled``) on positions from games of the built-in players, ``adaptive_pimc``
among them.  A bid was labelled by playing it out on the real deal, whose
hidden hands are a draw from what the position's players could know; a card by
the law of its playouts over the real deal and deals sampled as ``pimc``
samples them: the search's own averaged move values.  A network fitted to these
labels estimates the playout value given what the player sees, as the search's
samples do, without the sampling noise.  It runs at engine speed: its inputs
(:mod:`ohhell_sim.strategies._distilled_features`) and the networks are plain
Numba, in single precision.

The weights ship in ``ohhell_sim/strategies/tables/distilled.npz`` with how they were
made.  In the swap phase it passes as ``card_counter`` does; in a forehead
deal it bids as the Monte Carlo players do (every other card is seen); with
two decks, which the networks never saw, it plays as ``card_counter`` and bids
as ``expected_tricks``.

In a deal of one card each it bids exactly: the bid of the solved deal
(:func:`ohhell_sim.exact.solve_one_card`), read from tables shipped beside the
weights (:mod:`ohhell_sim.strategies._one_card`), for 3-7 players and one deck,
the hook on or off, bids open or closed, any trump rule, under the canonical
scoring, each scoring table changed alone, and any scoring whose one-card points
stand in the same ratio as one of those.  After bids the solved policy never
makes, and outside the tables, the network bids.

Deterministic; no parameters.
"""

from __future__ import annotations

import json

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.core import deal_points
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import R_DECKS, R_OVER, R_UNDER
from ohhell_sim.strategies._common import best_bid_by_row, forehead_bid, is_forehead_bid
from ohhell_sim.strategies._counting import counting_play, left_to_counting
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
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid
from ohhell_sim.strategies.pimc import distinct_choices
from ohhell_sim.strategies.tables import TABLES_DIR
from ohhell_sim.strategy.record import Strategy
from ohhell_sim.strategy.tools import card_power, lowest_card

WEIGHTS_FILE = "distilled.npz"
#: The arrays of one network, by name: ``state`` (state inputs x hidden),
#: ``move`` (move inputs x hidden), ``embed`` (move indices x hidden: one
#: row per bid for the bid network, a single row for the card network),
#: ``bias`` (hidden), ``out`` (hidden x outcomes), ``out_bias`` (outcomes).
LAYERS = ("state", "move", "embed", "bias", "out", "out_bias")
NETWORKS = ("bid", "card")


@njit(inline="always")
def hidden_base(state_weights, bias, x, base):
    """Fill ``base`` with the hidden layer's input from the state: ``x @ state_weights + bias``."""
    # Element by element: a slice assignment costs more than the copy itself.
    for i in range(base.shape[0]):
        base[i] = bias[i]
    _add_product(base, state_weights, x)


@njit(inline="always")
def _add_product(acc, weights, x):
    # acc += x @ weights, a row of weights at a time: the inner loop runs along
    # the hidden units, with no reduction, so it vectorises; zero inputs (most
    # indicators) are skipped.
    for f in range(x.shape[0]):
        value = x[f]
        if value != 0.0:
            for i in range(acc.shape[0]):
                acc[i] += weights[f, i] * value


@njit(inline="always")
def outcome_probabilities(base, move_weights, embed, index, out, out_bias, x, top, hidden, probs):
    """Fill ``probs[0..top]`` with the network's outcome distribution for one move.

    ``base`` is :func:`hidden_base`'s; ``x`` the move's inputs, ``index`` its
    row of ``embed`` (-1: none, ``base`` holds it already); outcomes above
    ``top`` get no weight.  ``hidden`` is scratch of the hidden layer's size.
    """
    if index >= 0:
        for i in range(hidden.shape[0]):
            hidden[i] = base[i] + embed[index, i]
    else:
        for i in range(hidden.shape[0]):
            hidden[i] = base[i]
    _add_product(hidden, move_weights, x)
    # The units rectified in place, then one running sum an outcome over them
    # all: the sums of skipping the units at or below zero, in the same order
    # (adding a zero changes no sum), kept in a register instead of stored
    # and reloaded at every unit.
    zero = hidden.dtype.type(0.0)
    for i in range(hidden.shape[0]):
        hidden[i] = max(hidden[i], zero)
    for k in range(top + 1):
        total = out_bias[k]
        for i in range(hidden.shape[0]):
            total += out[i, k] * hidden[i]
        probs[k] = total
    most = probs[0]
    for k in range(1, top + 1):
        most = max(most, probs[k])
    norm = 0.0
    for k in range(top + 1):
        probs[k] = np.exp(probs[k] - most)
        norm += probs[k]
    for k in range(top + 1):
        probs[k] /= norm


#: Bids tried around ``expected_tricks``'s estimate, below and above it (and
#: zero): the networks' distributions make a bid further off worth less.
BIDS_BELOW = 2
BIDS_ABOVE = 3


@njit
def network_bid(view, state, move, embed, bias, out, out_bias):
    """The legal bid of highest expected points by the bid network's distributions."""
    if is_forehead_bid(view):
        return forehead_bid(view)
    most = view[V.MAX_BID]
    if most == 0:
        return 0
    if view[V.RULES_BASE + R_DECKS] != 1:
        return expected_bid(view, DEFAULT_RISK)
    h = view[V.HAND_SIZE]
    hidden_size = bias.shape[0]
    top = min(h, N_OUTCOMES - 1)
    # One allocation for the scratch of the decision, sliced.
    scratch = np.empty(N_BID_STATE + N_BID_MOVE + 2 * hidden_size, dtype=bias.dtype)
    x = scratch[:N_BID_STATE]
    xm = scratch[N_BID_STATE : N_BID_STATE + N_BID_MOVE]
    base = scratch[N_BID_STATE + N_BID_MOVE : N_BID_STATE + N_BID_MOVE + hidden_size]
    hidden = scratch[N_BID_STATE + N_BID_MOVE + hidden_size :]
    estimate = bid_state(view, x)
    hidden_base(state, bias, x, base)
    probs = np.zeros((most + 1, top + 1), dtype=bias.dtype)
    allowed = np.zeros(most + 1, dtype=np.bool_)
    low = max(int(estimate) - BIDS_BELOW, 0)
    for b in range(most + 1):
        if b != 0 and not low <= b <= estimate + BIDS_ABOVE:
            continue
        allowed[b] = True
        bid_move(view, b, estimate, xm)
        outcome_probabilities(
            base,
            move,
            embed,
            min(b, embed.shape[0] - 1),
            out,
            out_bias,
            xm,
            top,
            hidden,
            probs[b],
        )
    best = best_bid_by_row(view, probs, allowed)
    if best < 0:
        return best_bid_by_row(view, probs, np.ones(most + 1, dtype=np.bool_))
    return best


@njit(inline="always")
def outcome_worth(view, top, worth):
    """Fill ``worth[r]`` with the deciding seat's points for ``r`` more tricks, ``r <= top``.

    Returns whether any of them is not zero.
    """
    me = view[V.SEAT]
    won = view[V.TRICKS_WON_BASE + me]
    bid = view[V.BIDS_BASE + me]
    rules = view[V.RULES_BASE :]
    if rules[R_OVER] == 0 and rules[R_UNDER] == 0:
        # The canonical miss tables: only the made bid scores.
        worth[:] = 0.0
        need = bid - won
        if 0 <= need <= top:
            worth[need] = deal_points(bid, bid, view[V.HAND_SIZE], rules)
    else:
        for r in range(top + 1):
            worth[r] = deal_points(bid, won + r, view[V.HAND_SIZE], rules)
    scores = False
    for r in range(top + 1):
        scores |= worth[r] != 0.0
    return scores


@njit
def network_card(view, state, move, embed, bias, out, out_bias):
    """The legal card of highest expected points by the card network's distributions."""
    if left_to_counting(view):
        return counting_play(view, False)
    context = card_context(view)
    choices = distinct_choices(view, context[0])
    if choices & (choices - 1) == 0:
        return lowest_card(choices)
    top = min(view[V.HAND_SIZE] - view[V.TRICK], N_OUTCOMES - 1)
    hidden_size = bias.shape[0]
    # One allocation for the scratch of the decision, sliced.
    scratch = np.empty(N_CARD_STATE + N_CARD_MOVE + 2 * hidden_size + 2 * (top + 1), bias.dtype)
    x = scratch[:N_CARD_STATE]
    at = N_CARD_STATE
    xm = scratch[at : at + N_CARD_MOVE]
    at += N_CARD_MOVE
    base = scratch[at : at + hidden_size]
    at += hidden_size
    hidden = scratch[at : at + hidden_size]
    at += hidden_size
    probs = scratch[at : at + top + 1]
    worth = scratch[at + top + 1 :]
    # With nothing left to score (a canonical bid already missed) every card is
    # worth 0 and the weakest is chosen: the networks need not run.
    scores = outcome_worth(view, top, worth)
    if scores:
        card_state(view, context, x)
        hidden_base(state, bias, x, base)
        # Every card shares the embedding's one row: added once, as each card would.
        for i in range(hidden_size):
            base[i] += embed[0, i]
    led = view[V.LED_SUIT]
    trump = view[V.TRUMP]
    choice = -1
    choice_value = -np.inf
    while choices != 0:
        card = lowest_card(choices)
        choices &= choices - 1
        value = 0.0
        if scores:
            card_move(view, card, context, xm)
            outcome_probabilities(base, move, embed, -1, out, out_bias, xm, top, hidden, probs)
            for r in range(top + 1):
                value += probs[r] * worth[r]
        if (
            choice < 0
            or value > choice_value + 1e-9
            or (
                abs(value - choice_value) <= 1e-9
                and card_power(card, led, trump) < card_power(choice, led, trump)
            )
        ):
            choice = card
            choice_value = value
    return choice


@njit
def network_values(view, cards):
    """The card network's expected points of each of ``cards`` (legal, in play)."""
    top = min(view[V.HAND_SIZE] - view[V.TRICK], N_OUTCOMES - 1)
    worth = np.empty(top + 1, dtype=np.float64)
    values = np.zeros(cards.shape[0], dtype=np.float64)
    if not outcome_worth(view, top, worth):
        return values
    context = card_context(view)
    hidden_size = CARD_BIAS.shape[0]
    x = np.empty(N_CARD_STATE, dtype=CARD_BIAS.dtype)
    xm = np.empty(N_CARD_MOVE, dtype=CARD_BIAS.dtype)
    base = np.empty(hidden_size, dtype=CARD_BIAS.dtype)
    hidden = np.empty(hidden_size, dtype=CARD_BIAS.dtype)
    probs = np.empty(top + 1, dtype=CARD_BIAS.dtype)
    card_state(view, context, x)
    hidden_base(CARD_STATE, CARD_BIAS, x, base)
    for i in range(hidden_size):
        base[i] += CARD_EMBED[0, i]
    for c in range(cards.shape[0]):
        card_move(view, cards[c], context, xm)
        outcome_probabilities(
            base, CARD_MOVE, CARD_EMBED, -1, CARD_OUT, CARD_OUT_BIAS, xm, top, hidden, probs
        )
        for r in range(top + 1):
            values[c] += probs[r] * worth[r]
    return values


def load_weights(path) -> dict[str, tuple[np.ndarray, ...]]:
    """The two networks of a weights file: ``{"bid": layers, "card": layers}``.

    Each is the tuple of :data:`LAYERS`, as :func:`network_bid` and
    :func:`network_card` take them, in single precision: the player computes
    in the weights' precision, twice the numbers to a vector instruction.

    Raises
    ------
    InvalidArgumentError
        If the file lacks an array.
    """
    with np.load(path) as data:
        wanted = {f"{net}_{layer}" for net in NETWORKS for layer in LAYERS}
        missing = wanted - set(data.files)
        if missing:
            raise InvalidArgumentError(
                f"{str(path)!r} is not a distilled weights file: it lacks {sorted(missing)}"
            )
        return {
            net: tuple(
                np.ascontiguousarray(data[f"{net}_{layer}"], dtype=np.float32) for layer in LAYERS
            )
            for net in NETWORKS
        }


def weights_meta(path=None) -> dict:
    """How a weights file (default: the shipped one) was made, as a dict."""
    with np.load(path or TABLES_DIR / WEIGHTS_FILE) as data:
        return json.loads(str(data["meta"]))


def _zero_network(n_state: int, n_move: int, n_embed: int) -> tuple[np.ndarray, ...]:
    # While no weights exist yet (making the first ones): every move ties.
    hidden = 1
    return (
        np.zeros((n_state, hidden)),
        np.zeros((n_move, hidden)),
        np.zeros((n_embed, hidden)),
        np.zeros(hidden),
        np.zeros((hidden, N_OUTCOMES)),
        np.zeros(N_OUTCOMES),
    )


def _shipped_weights() -> dict[str, tuple[np.ndarray, ...]]:
    path = TABLES_DIR / WEIGHTS_FILE
    if path.exists():
        return load_weights(path)
    return {
        "bid": _zero_network(N_BID_STATE, N_BID_MOVE, N_OUTCOMES),
        "card": _zero_network(N_CARD_STATE, N_CARD_MOVE, 1),
    }


_WEIGHTS = _shipped_weights()
#: The shipped networks; numba freezes these globals into the compiled code.
BID_STATE, BID_MOVE, BID_EMBED, BID_BIAS, BID_OUT, BID_OUT_BIAS = _WEIGHTS["bid"]
CARD_STATE, CARD_MOVE, CARD_EMBED, CARD_BIAS, CARD_OUT, CARD_OUT_BIAS = _WEIGHTS["card"]


@njit
def bid(view, params, rng):
    """Thin entry: the exact bid of a one-card deal where solved, else the bid network's bid."""
    exact = one_card_bid(view)
    if exact >= 0:
        return exact
    return network_bid(view, BID_STATE, BID_MOVE, BID_EMBED, BID_BIAS, BID_OUT, BID_OUT_BIAS)


@njit
def play(view, params, rng):
    """Thin entry: the card network's card."""
    return network_card(view, CARD_STATE, CARD_MOVE, CARD_EMBED, CARD_BIAS, CARD_OUT, CARD_OUT_BIAS)


STRATEGY = Strategy(
    name="distilled",
    bid=bid,
    play=play,
    params={},
    description=__doc__.split("\n\n", 1)[1].split("\n\nThe weights ship")[0].strip(),
    stochastic=False,
    builtin_id=11,
    colour="#999933",
    reads_scoring=True,
)
