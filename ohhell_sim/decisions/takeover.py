"""The gap to a reference player, decision by decision: what taking over the seat gains.

The cost of :mod:`ohhell_sim.decisions.evaluate` says how a choice compares with
the best one by the reference's *evaluation*; those costs do not add up to
what a stronger player would score in the seat, since each assumes the deal
goes on under the evaluation's playout policy.  This module gives each decision
a term that does add up.  For the strategy's decision at position ``s`` of its
own game, choosing ``a``:

* ``W(s)``: the seat's expected points in the deal when the reference *player*
  takes the seat over at this decision (its move here and at every later
  decision of the seat in the deal);
* ``Q(s, a)``: the same when the strategy makes its move ``a`` here and the
  reference player takes over from the seat's next decision;
* the term is ``W(s) - Q(s, a)``: zero when the reference would choose ``a``.

The rest of the table plays as it did in the run: each other seat's strategy
with its random stream as it stood at the decision, on the deal as it was dealt
(the rollouts play the real deal; the reference still decides from its own view
only).  The expectation is over the reference's random stream; both rollouts of
a pair share it after the decision.

Why they add up: in the strategy's own game the position after its move ``a_t``
and the other seats' moves is its next decision's, so ``Q(s_t, a_t) =
W(s_{t+1})``, and after its last decision of the deal the points are its own.
The terms of a seat's decisions in a deal therefore telescope to ``W(s_0)`` less
the strategy's points, and ``W(s_0)``, the reference taking the seat over from
the deal's first decision, is the reference's expected points in the seat of a
duplicate game.  The terms of every decision of a seat (those without a choice
are zero) sum to its measured duplicate gap to the reference, deal by deal,
when the seats' play in a deal does not depend on the earlier deals' results
(the built-ins' does not; a fault limit or a tie-break deal, which do, break
the equality).  The decisions the analysis leaves out (the swap's choices, the
forehead deal's bids) stay the strategy's: the sum leaves out what the
reference would gain on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.estimates import t_quantile
from ohhell_sim.reference import (
    DealLog,
    DealPlayed,
    SeatFunctions,
    Stream,
    new_table,
    read_only,
    table_steps,
)
from ohhell_sim.rules import Rules

__all__ = ["DealStart", "Takeover", "takeover_term"]

#: The purpose of the takeover's streams (the engine's are 0-2, the search's 0xA5).
_TAKEOVER = 0xA6


@dataclass(frozen=True)
class DealStart:
    """What rebuilds a deal of a replayed game: its log, its seats, the totals and
    faults before it, and every move of the deal in order (the swap's, bids, cards)."""

    log: DealLog
    seats: tuple[int, ...]
    totals: tuple[int, ...]
    faults: tuple[int, ...]
    moves: tuple[int, ...]


@dataclass(frozen=True)
class Takeover:
    """The reference player and the game around it.

    Attributes
    ----------
    rules : Rules
        The rules of the run.
    names : list of str
        The seats' names, for the engine's messages.
    functions : list of (bid, play)
        Each seat's strategy functions, as in the run.
    params : list of numpy.ndarray
        Each seat's parameters.
    reference : (bid, play)
        The reference player's functions.
    reference_params : numpy.ndarray
        Its parameters.
    rollouts : int
        Pairs of rollouts per decision (1 for a reference that draws no random numbers).
    confidence : float
        Coverage of the intervals.
    label : str
        The reference player's label.
    """

    rules: Rules
    names: list[str]
    functions: list[SeatFunctions]
    params: list[np.ndarray]
    reference: SeatFunctions
    reference_params: np.ndarray
    rollouts: int
    confidence: float
    label: str


def takeover_stream(seed: int, game: int, place: int, part: int, k: int) -> np.ndarray:
    """The reference's stream for rollout pair ``k`` of a decision: ``part`` 0 for its
    move at the decision, 1 after it; ``place`` keys the decision in the game."""
    return Stream(seed, game, _TAKEOVER | (part << 8) | (k << 9), place).as_array()


def takeover_term(
    setup: Takeover,
    start: DealStart,
    index: int,
    view: np.ndarray,
    streams: tuple[np.ndarray, ...],
    key: tuple[int, int, int],
) -> tuple[float, float, float]:
    """``W(s) - Q(s, a)`` of the decision (module docstring), with its interval.

    Parameters
    ----------
    setup : Takeover
        The reference player and the game.
    start : DealStart
        The decision's deal.
    index : int
        The decision's place among the deal's moves; ``start.moves[index]`` is
        the strategy's move.
    view : numpy.ndarray
        The deciding seat's view.
    streams : tuple of numpy.ndarray
        Every seat's random stream as it stood before the decision.
    key : (seed, game, place)
        What keys the reference's streams.

    Returns
    -------
    (float, float, float)
        The term's mean over the rollout pairs and its interval (zero width
        with one pair).
    """
    seed, game, place = key
    seat = int(view[V.SEAT])
    chosen = start.moves[index]
    decide = setup.reference[0 if view[V.PHASE] == V.PHASE_BID else 1]
    params = read_only(setup.reference_params)
    terms = np.zeros(setup.rollouts)
    for k in range(setup.rollouts):
        own = decide(read_only(view), params, takeover_stream(seed, game, place, 0, k))
        if int(own) == chosen:
            continue  # the same move: the two rollouts are one
        after = takeover_stream(seed, game, place, 1, k)
        taken = _rollout(setup, start, index, int(own), streams, after.copy(), seat)
        kept = _rollout(setup, start, index, chosen, streams, after, seat)
        terms[k] = taken - kept
    mean = float(terms.mean())
    if setup.rollouts < 2:
        return mean, mean, mean
    half = t_quantile(0.5 + setup.confidence / 2, setup.rollouts - 1) / math.sqrt(setup.rollouts)
    spread = float(terms.std(ddof=1)) * half
    return mean, mean - spread, mean + spread


def _rollout(
    setup: Takeover,
    start: DealStart,
    index: int,
    move: int,
    streams: tuple[np.ndarray, ...],
    after: np.ndarray,
    seat: int,
) -> int:
    """The seat's points in the deal replayed to the decision, ``move`` made there and
    the reference playing the seat from then on."""
    log = start.log
    table = new_table(
        setup.rules,
        log.index,
        log.dealer,
        log.hands,
        log.trump_card,
        list(start.seats),
        list(start.totals),
        list(start.faults),
        log.tiebreak,
    )
    steps = table_steps(table, setup.names)
    own = [s.copy() for s in streams]
    answer = None
    i = 0
    while True:
        step = steps.send(answer)
        if isinstance(step, DealPlayed):
            return int(step.log.scores[seat])
        if i < index:
            answer = start.moves[i]
        elif i == index:
            answer = move
        else:
            role = 0 if step.role == "bid" else 1
            if step.seat == seat:
                function, params, stream = setup.reference[role], setup.reference_params, after
            else:
                s = step.seat
                function, params, stream = setup.functions[s][role], setup.params[s], own[s]
            answer = int(function(read_only(step.view), read_only(params), stream))
        i += 1
