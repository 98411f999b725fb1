"""Many tables stepped at once inside Numba, for learning at scale.

:class:`BatchedEnv` holds ``tables`` games.  Some seats learn: at every step each
table waits for one learning seat, and ``step(actions)`` takes one action per
table (the encoding of :mod:`ohhell_sim.env.observation`).  The other seats play
built-in or user strategies by name, compiled in, as in :func:`ohhell_sim.simulate`.
A table whose game ends starts its next game in the same step (its ``done`` flag
is set, and the observation returned is the new game's first).

Table ``t``'s ``k``-th game is game ``k * tables + t`` of the run seeded ``seed``:
the same cards and strategy streams as that game of :func:`ohhell_sim.simulate`,
so the arrays do not depend on how many threads step the tables.

The game is the kernel's, cut at each decision: the same deal and game steps
(:mod:`ohhell_sim.engine.deal`, :mod:`ohhell_sim.engine.rounds`), so it plays
every table the kernel plays: two decks, the joker, the swap (a pass is a card
action), the forehead deal, the catastrophe and the tie-break deal, under every
schedule, trump mode, bidding rule and scoring table.  The tests step it
against :class:`~ohhell_sim.env.seat.OhHellSeatEnv` and
:class:`~ohhell_sim.env.aec.OhHellEnv`, which play the reference engine,
observation by observation.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.arguments import check_seed
from ohhell_sim.engine.bits import popcount
from ohhell_sim.engine.core import next_seat
from ohhell_sim.engine.deal import (
    DealArrays,
    apply_bid,
    apply_card,
    apply_pass,
    begin_bidding,
    begin_swap,
    bid_error,
    card_error,
    end_bidding,
    end_trick,
    is_forehead,
    legal_cards,
    next_to_play,
    pass_left,
    score_deal,
    show_bid,
    show_card,
    show_pass,
    start_deal,
    start_trick,
    swap_cards,
)
from ohhell_sim.engine.rng import STREAM_DEAL, seed_stream
from ohhell_sim.engine.rounds import count_faults, deal_dealer, deal_seats, start_game
from ohhell_sim.engine.workspace import ERROR_FIELDS, MAX_DECK, fail
from ohhell_sim.env.observation import (
    BID_ACTION,
    ObservationLayout,
    action_count,
    encode_view,
    write_action_mask,
)
from ohhell_sim.errors import ERR_NONE, IllegalMoveError, InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.rules.layout import (
    R_CLOSED_BIDS,
    R_DECKS,
    R_FAULT_LIMIT,
    R_HOOK,
    R_JOKER,
    R_N_DEALS,
    R_PLAYERS,
    R_TIEBREAK,
)
from ohhell_sim.run import dispatch
from ohhell_sim.strategy import SeatSpec, check_seating
from ohhell_sim.strategy.disk_cache import builtin_cache_folder, cached_on_disk

#: What a learning seat is called in a seating.
LEARNER = "learner"

# Fields of a table's state row: the game, the deal's scalars and the trick's cursor.
(
    S_GAME,  # game index in the run
    S_EPISODE,  # games this table finished
    S_DEAL,  # deal row
    S_DEALER,
    S_ACTIVE,  # seats still in the game (catastrophe)
    S_LAST_ACTIVE,  # the seats in before the last deal
    S_PLAYERS,  # seats in this deal
    S_TIEBREAK,  # 1 in the tie-break deal
    S_HAND_SIZE,
    S_TRUMP,
    S_SEAT,  # seat to move
    S_MOVES,  # moves made in the phase: passes of the seat to move, or bids
    S_PASSERS,  # seats done passing (swap)
    S_BID_TOTAL,
    S_TRICK,
    S_IN_TRICK,  # cards already in the current trick
    S_LEADER,
    S_LED,
    S_BEST,
    S_BEST_SEAT,
    S_WAIT,  # what the table waits for after its last move (_LEARNER_TO_MOVE, ...)
    STATE_FIELDS,
) = range(22)


class Config(NamedTuple):
    """What every table shares."""

    seed: int
    tables: int
    rules: np.ndarray  # Rules.to_array()
    hand_sizes: np.ndarray  # each deal row's, the tie-break deal's included
    sids: np.ndarray  # each seat's strategy in the dispatch (learning seats: unused)
    params: np.ndarray
    learning: np.ndarray  # 1 for a learning seat
    bids_only: bool  # learning seats only bid; their strategy plays their cards
    starts: np.ndarray  # the observation's field starts (ObservationLayout.starts)


class Tables(NamedTuple):
    """The games in progress, one row per table."""

    state: np.ndarray  # (tables, STATE_FIELDS) int64
    keys: np.ndarray  # (tables,) uint64: each game's random key
    rngs: np.ndarray  # (tables, MAX_SEATS + 1, 4) uint64
    deck: np.ndarray  # (tables, MAX_DECK)
    views: np.ndarray  # (tables, VIEW_SIZE): the view of the seat to move
    hands: np.ndarray  # (tables, MAX_SEATS)
    hands2: np.ndarray
    bids: np.ndarray
    tricks: np.ndarray
    scores: np.ndarray  # the points of the deal in progress
    passed: np.ndarray  # (tables, MAX_SEATS, 2): the cards passed left (swap)
    passed_masks: np.ndarray
    totals: np.ndarray
    faults: np.ndarray  # each seat's misses so far (catastrophe)


class Outputs(NamedTuple):
    """What a step returns, one row per table."""

    observations: np.ndarray  # (tables, observation size) float32
    masks: np.ndarray  # (tables, actions) int8
    to_move: np.ndarray  # (tables,) the learning seat to move
    rewards: np.ndarray  # (tables, seats) float32: points of the deals ended in the step
    done: np.ndarray  # (tables,) bool: a game ended in the step
    errors: np.ndarray  # (tables, ERROR_FIELDS): an illegal move's record (code 0: none)


@njit(inline="always")
def _deal(i, tb):
    # Table i's deal in progress, as engine.deal plays it.
    return DealArrays(
        tb.views[i],
        tb.hands[i],
        tb.hands2[i],
        tb.bids[i],
        tb.tricks[i],
        tb.scores[i],
        tb.passed[i],
        tb.passed_masks[i],
        tb.totals[i],
    )


@njit(inline="always")
def _start_game(i, deal, cfg, tb, general):
    st = tb.state[i]
    n = cfg.rules[R_PLAYERS]
    st[S_GAME] = st[S_EPISODE] * cfg.tables + i
    key, dealer = start_game(
        tb.views[i], tb.rngs[i], tb.totals[i], tb.deck[i], cfg.rules, cfg.seed, st[S_GAME]
    )
    tb.keys[i] = key
    for s in range(n):
        tb.faults[i, s] = 0
    st[S_DEALER] = dealer
    st[S_ACTIVE] = (np.int64(1) << n) - 1
    st[S_LAST_ACTIVE] = st[S_ACTIVE]
    st[S_DEAL] = 0
    _next_deal(i, deal, cfg, tb, general)


@njit(inline="always")
def _next_deal(i, deal, cfg, tb, general):
    """Start the next deal row that has two players or more; False when the game is over.

    ``general`` False (plain tables: every seat in every scheduled deal, no
    tie-break deal) compiles the search for the deal's players out.
    """
    rules, st = cfg.rules, tb.state[i]
    n = rules[R_PLAYERS]
    n_deals = rules[R_N_DEALS]
    rows = n_deals + (1 if general and rules[R_TIEBREAK] != 0 else 0)
    players, hand_size, tiebreak = st[S_ACTIVE], np.int64(0), 0
    while st[S_DEAL] < rows:
        if not general:
            hand_size = cfg.hand_sizes[st[S_DEAL]]
            break
        players, hand_size, tiebreak = deal_seats(
            st[S_DEAL], n_deals, st[S_ACTIVE], st[S_LAST_ACTIVE], tb.totals[i], cfg.hand_sizes, n
        )
        if popcount(players) >= 2:
            break
        st[S_DEAL] += 1
    if st[S_DEAL] == rows:
        return False
    d = st[S_DEAL]
    dealer = deal_dealer(st[S_DEALER], players, n)
    rng = tb.rngs[i, V.MAX_SEATS]
    seed_stream(rng, tb.keys[i], STREAM_DEAL, d)
    trump = start_deal(
        deal, rules, rng, tb.deck[i], d, hand_size, dealer, players, tiebreak, general
    )
    st[S_DEALER] = dealer
    st[S_PLAYERS] = players
    st[S_TIEBREAK] = tiebreak
    st[S_HAND_SIZE] = hand_size
    st[S_TRUMP] = trump
    st[S_SEAT] = next_seat(dealer, players, n)
    st[S_MOVES] = 0
    st[S_PASSERS] = 0
    st[S_BID_TOTAL] = 0
    if swap_cards(rules, hand_size, general) > 0:
        begin_swap(deal)
    else:
        begin_bidding(deal)
    return True


@njit(inline="always")
def _start_trick(i, deal, tb, n):
    st = tb.state[i]
    start_trick(deal, st[S_TRICK], st[S_LEADER], n)
    st[S_LED] = -1
    st[S_BEST] = -1
    st[S_BEST_SEAT] = -1
    st[S_SEAT] = st[S_LEADER]
    st[S_IN_TRICK] = 0


@njit(inline="always")
def _show_decision(i, deal, cfg, tb, general):
    """Write the seat to move's fields into the table's view."""
    rules, st = cfg.rules, tb.state[i]
    n = rules[R_PLAYERS]
    seat, players, hand_size = st[S_SEAT], st[S_PLAYERS], st[S_HAND_SIZE]
    swap = swap_cards(rules, hand_size, general) > 0
    phase = deal.seat_view[V.PHASE]
    if general and phase == V.PHASE_SWAP:
        show_pass(deal, seat)
    elif phase == V.PHASE_BID:
        forehead = is_forehead(rules, hand_size, general)
        show_bid(
            deal, seat, st[S_DEALER], rules[R_HOOK], st[S_BID_TOTAL], forehead, swap, players, n
        )
    else:
        plain = _plain(rules, players, swap, n, general)
        joker = general and rules[R_JOKER] != 0
        show_card(
            deal, seat, st[S_IN_TRICK], st[S_LED], st[S_TRUMP], joker, plain, swap, players, n
        )


@njit(inline="always")
def _plain(rules, players, swap, n, general):
    # One deck, everyone in, no swap: engine.deal skips the variants' bookkeeping.
    return not general or (popcount(players) == n and rules[R_DECKS] == 1 and not swap)


@njit(inline="always")
def _end_deal(i, deal, cfg, tb, out, general):
    rules, st = cfg.rules, tb.state[i]
    n = rules[R_PLAYERS]
    players = st[S_PLAYERS]
    score_deal(deal, rules, st[S_HAND_SIZE], players, n)
    for s in range(n):
        out.rewards[i, s] += deal.scores[s]
    fault_limit = rules[R_FAULT_LIMIT] if general else 0
    if fault_limit and not st[S_TIEBREAK]:
        st[S_LAST_ACTIVE] = st[S_ACTIVE]
        st[S_ACTIVE] = count_faults(
            deal.bids,
            deal.tricks,
            tb.faults[i],
            tb.faults[i],
            False,
            st[S_ACTIVE],
            fault_limit,
            deal.seat_view,
            n,
        )
    if not st[S_TIEBREAK]:
        st[S_DEALER] = next_seat(st[S_DEALER], (np.int64(1) << n) - 1, n)
    st[S_DEAL] += 1
    if not _next_deal(i, deal, cfg, tb, general):
        out.done[i] = True
        st[S_EPISODE] += 1
        _start_game(i, deal, cfg, tb, general)


@njit(inline="always")
def _apply(i, move, deal, cfg, tb, out, general):
    """Play ``move`` for the seat to move (its view shown); return an error code."""
    rules, st = cfg.rules, tb.state[i]
    n = rules[R_PLAYERS]
    seat, players, d = st[S_SEAT], st[S_PLAYERS], st[S_DEAL]
    err = out.errors[i]
    phase = deal.seat_view[V.PHASE]
    hand = deal.hands[seat]
    k = swap_cards(rules, st[S_HAND_SIZE], general)
    if general and phase == V.PHASE_SWAP:
        code = card_error(hand, hand, move)
        if code != ERR_NONE:
            return fail(err, code, d, seat, move, -1)
        apply_pass(deal, seat, move, st[S_MOVES])
        st[S_MOVES] += 1
        if st[S_MOVES] < k:
            return ERR_NONE
        st[S_MOVES] = 0
        st[S_PASSERS] += 1
        if st[S_PASSERS] < popcount(players):
            st[S_SEAT] = next_seat(seat, players, n)
            return ERR_NONE
        pass_left(deal, st[S_DEALER], players, n, k)
        begin_bidding(deal)
        st[S_SEAT] = next_seat(st[S_DEALER], players, n)
        return ERR_NONE

    if phase == V.PHASE_BID:
        code = bid_error(deal, move, deal.seat_view[V.FORBIDDEN_BID])
        if code != ERR_NONE:
            return fail(err, code, d, seat, move, -1)
        closed = rules[R_CLOSED_BIDS] != 0
        forehead = is_forehead(rules, st[S_HAND_SIZE], general)
        st[S_BID_TOTAL] = apply_bid(deal, seat, move, st[S_BID_TOTAL], closed, forehead)
        st[S_MOVES] += 1
        if st[S_MOVES] < popcount(players):
            st[S_SEAT] = next_seat(seat, players, n)
            return ERR_NONE
        end_bidding(deal, st[S_BID_TOTAL], closed, players, n)
        st[S_LEADER] = next_seat(st[S_DEALER], players, n)
        st[S_TRICK] = 0
        _start_trick(i, deal, tb, n)
        return ERR_NONE

    joker = general and rules[R_JOKER] != 0
    follow, legal = legal_cards(hand, st[S_LED], st[S_TRUMP], joker)
    code = card_error(hand, legal, move)
    if code != ERR_NONE:
        return fail(err, code, d, seat, move, st[S_TRICK])
    plain = _plain(rules, players, k > 0, n, general)
    st[S_LED], st[S_BEST], st[S_BEST_SEAT] = apply_card(
        deal,
        seat,
        move,
        st[S_IN_TRICK],
        follow,
        st[S_LED],
        st[S_BEST],
        st[S_BEST_SEAT],
        st[S_TRUMP],
        joker,
        plain,
    )
    st[S_SEAT] = next_to_play(seat, players, n, plain)
    st[S_IN_TRICK] += 1
    if st[S_IN_TRICK] < popcount(players):
        return ERR_NONE
    end_trick(deal, st[S_BEST_SEAT])
    st[S_LEADER] = st[S_BEST_SEAT]
    st[S_TRICK] += 1
    if st[S_TRICK] < st[S_HAND_SIZE]:
        _start_trick(i, deal, tb, n)
    else:
        _end_deal(i, deal, cfg, tb, out, general)
    return ERR_NONE


# What a table waits for after its last move (S_WAIT).
_LEARNER_TO_MOVE, _STRATEGY_TO_MOVE, _FAILED = range(3)


@njit(inline="always")
def _shown(i, deal, cfg, tb, out, general):
    # Show the seat to move its decision; a learning seat gets its observation.
    _show_decision(i, deal, cfg, tb, general)
    seat = tb.state[i, S_SEAT]
    view = deal.seat_view
    if not cfg.learning[seat] or (cfg.bids_only and view[V.PHASE] != V.PHASE_BID):
        return _STRATEGY_TO_MOVE
    out.observations[i] = 0
    encode_view(view, cfg.rules[R_PLAYERS], cfg.starts, out.observations[i])
    out.masks[i] = 0
    write_action_mask(view, out.masks[i])
    out.to_move[i] = seat
    return _LEARNER_TO_MOVE


#: A move that starts the table's next game instead (:func:`_table_moves`).
_NEW_GAME = -2


def _table_moves(general: bool):
    """The tables' moves that ask no strategy, one compile for every kernel.

    ``play(first, stop, moves, cfg, tb, out)`` plays ``moves[i]`` at tables
    ``first .. stop - 1`` (``_NEW_GAME``: starts its next game), then shows
    each table's next seat its decision, and writes into ``S_WAIT`` what the
    table waits for: a learning seat's action (its observation written), a
    strategy's move, or nothing after an illegal move; it returns the first
    table that waits for something else than a learning seat (``stop`` if
    none).  The loops of every kernel call this one compile instead of
    compiling their own copy, and a learning seat's step calls nothing.
    ``general`` is a constant of the closure, so plain tables compile the
    variants out.
    """

    @njit
    def play(first, stop, moves, cfg, tb, out):
        pending = stop
        for i in range(first, stop):
            deal = _deal(i, tb)
            if moves[i] == _NEW_GAME:
                _start_game(i, deal, cfg, tb, general)
                failed = False
            else:
                failed = _apply(i, moves[i], deal, cfg, tb, out, general) != ERR_NONE
            wait = _FAILED if failed else _shown(i, deal, cfg, tb, out, general)
            tb.state[i, S_WAIT] = wait
            if wait != _LEARNER_TO_MOVE and pending == stop:
                pending = i
        return pending

    return play


#: The moves of plain tables (:func:`ohhell_sim.run.dispatch.needs_general_tables`
#: False: the variants' code compiled out) and of general tables.  The longest
#: compile of the environment and of the decision recorders (about 20 s each), so
#: kept on disk once per machine and version of the sources, as the built-ins are.
PLAIN_MOVES = cached_on_disk(_table_moves(False))
GENERAL_MOVES = cached_on_disk(_table_moves(True))


class Record(NamedTuple):
    """Decisions kept from the strategies' moves (:mod:`ohhell_sim.env.decisions`).

    Every bid, and every card choice with more than one legal card, gets a row:
    the view its seat saw, every seat's cards at that moment and the game index.
    """

    bid_views: np.ndarray  # (capacity, VIEW_SIZE) int64
    bid_hands: np.ndarray  # (capacity, MAX_SEATS) int64
    bid_games: np.ndarray  # (capacity,) int64
    card_views: np.ndarray
    card_hands: np.ndarray
    card_games: np.ndarray
    used: np.ndarray  # (2,) int64: rows filled, bids then cards


@njit(inline="always")
def _keep(record, deal, game):
    # A row of the record for the decision shown, if it is a bid or a choice of card.
    view = deal.seat_view
    if view[V.PHASE] == V.PHASE_BID:
        kind, views, hands, games = 0, record.bid_views, record.bid_hands, record.bid_games
    elif view[V.PHASE] == V.PHASE_PLAY and popcount(view[V.LEGAL]) >= 2:
        kind, views, hands, games = 1, record.card_views, record.card_hands, record.card_games
    else:
        return
    row = record.used[kind]
    if row == games.shape[0]:
        raise IndexError("the decision record is full")
    views[row] = view
    hands[row] = deal.hands
    games[row] = game
    record.used[kind] = row + 1


@njit(inline="always")
def _scratch(cfg):
    # A user strategy's own copies of its view and row (engine.readonly.private_copy),
    # which each of its decisions overwrites: one pair serves every table of a call.
    return (
        np.empty(V.VIEW_SIZE, dtype=np.int64),
        np.empty(cfg.params.shape[1], dtype=np.float64),
    )


@njit(inline="always")
def _advance(i, moves, cfg, tb, out, dispatch_bid, dispatch_play, play, own, record=None):
    """Let the strategies move while one is to move at table ``i``.

    ``play`` is the tables' :func:`_table_moves`, ``moves`` its moves and
    ``own`` is :func:`_scratch`.  With a :class:`Record` (whose branches Numba
    compiles out when it is absent), each strategy decision is kept in it, and
    the function returns when the table's game ends (it has then started the
    next one).
    """
    while tb.state[i, S_WAIT] == _STRATEGY_TO_MOVE:
        seat, view = tb.state[i, S_SEAT], tb.views[i]
        own_view, own_params = own
        if record is not None:
            _keep(record, _deal(i, tb), tb.state[i, S_GAME])
        sid, params, rng = cfg.sids[seat], cfg.params[seat], tb.rngs[i, seat]
        if view[V.PHASE] == V.PHASE_BID:
            moves[i] = dispatch_bid(sid, view, params, rng, own_view, own_params)
        else:
            moves[i] = dispatch_play(sid, view, params, rng, own_view, own_params)
        play(i, i + 1, moves, cfg, tb, out)
        if record is not None:
            if out.done[i]:
                return


@njit(inline="always")
def _strategies(first, stop, moves, cfg, tb, out, dispatch_bid, dispatch_play, play):
    # The strategies' moves after play(..., stop, moves, ...), which returned ``first``
    # (the tables before it wait for a learning seat); the first table that failed (-1).
    own = _scratch(cfg)
    failed = -1
    for i in range(first, stop):
        _advance(i, moves, cfg, tb, out, dispatch_bid, dispatch_play, play, own)
        if failed < 0 and out.errors[i, 0] != 0:
            failed = i
    return failed


@njit(inline="always")
def reset_tables(first, stop, cfg, tb, out, dispatch_bid, dispatch_play, play):
    """Start the first game of tables ``first .. stop - 1``; return the first that failed (-1)."""
    moves = np.full(stop, _NEW_GAME, dtype=np.int64)
    out.errors[first:stop] = 0
    tb.state[first:stop, S_EPISODE] = 0
    pending = play(first, stop, moves, cfg, tb, out)
    return _strategies(pending, stop, moves, cfg, tb, out, dispatch_bid, dispatch_play, play)


@njit(inline="always")
def step_tables(first, stop, actions, cfg, tb, out, dispatch_bid, dispatch_play, play):
    """Play ``actions[i]`` at tables ``first .. stop - 1``, then the strategies.

    Returns the first table where a move was illegal, or -1.
    """
    out.errors[first:stop] = 0
    out.rewards[first:stop] = 0
    out.done[first:stop] = False
    moves = np.empty(stop, dtype=np.int64)
    for i in range(first, stop):
        action = actions[i]
        if tb.views[i, V.PHASE] == V.PHASE_BID:
            moves[i] = action - BID_ACTION if action >= BID_ACTION else -1
        else:
            moves[i] = action if action < BID_ACTION else -1
    pending = play(first, stop, moves, cfg, tb, out)
    return _strategies(pending, stop, moves, cfg, tb, out, dispatch_bid, dispatch_play, play)


# A stepper module: the loops above bound to one kernel's dispatch and table kind,
# compiled with Numba's on-disk cache.  Its folder names the version of every
# source file of the package (builtin_cache_folder), its file the kernel
# (the strategies and their code), so a later run, in any process, loads the compile.
_STEPPER_SOURCE = """\
\"\"\"Batched environment's loops on {kernel}, written by ohhell_sim.env.batched.\"\"\"

from numba import njit

from {kernel} import GENERAL_TABLES, dispatch_bid, dispatch_play
from ohhell_sim.env.batched import GENERAL_MOVES, PLAIN_MOVES
from ohhell_sim.env.batched import reset_tables as _reset_tables
from ohhell_sim.env.batched import step_tables as _step_tables

play = GENERAL_MOVES if GENERAL_TABLES else PLAIN_MOVES


@njit(cache=True, nogil=True)
def reset_tables(first, stop, cfg, tb, out):
    return _reset_tables(first, stop, cfg, tb, out, dispatch_bid, dispatch_play, play)


@njit(cache=True, nogil=True)
def step_tables(first, stop, actions, cfg, tb, out):
    return _step_tables(first, stop, actions, cfg, tb, out, dispatch_bid, dispatch_play, play)
"""


def _stepper(kernel: ModuleType) -> ModuleType:
    # The stepper module of this kernel (written, then compiled, on first use).
    name = kernel.__name__.replace("ohhell_kernel_", "ohhell_env_")
    path = builtin_cache_folder() / f"{name}.py"
    return dispatch.load_generated(path, lambda: _STEPPER_SOURCE.format(kernel=kernel.__name__))


class BatchedEnv:
    """``tables`` games of Oh Hell stepped together, some seats learning.

    Parameters
    ----------
    rules : Rules
        Any table (see the module docstring).
    seats : sequence of seat specs
        One per seat: ``"learner"`` for a learning seat, else a strategy as for
        :func:`ohhell_sim.simulate` (name, ``Strategy`` or ``(name, params)``).
    tables : int
        Games stepped at once.
    threads : int
        Threads that share the tables (the arrays do not depend on it).
    learner_plays : seat spec, optional
        When given, the learning seats only bid, and this strategy plays their
        cards (with the seat's random stream, as in ``simulate``).

    Attributes
    ----------
    layout : ObservationLayout
        The observation vector's fields.
    n_actions : int

    Notes
    -----
    :meth:`reset` and :meth:`step` return the environment's own buffers, which
    the next step overwrites (copying 12 MB of observations per step of 4,096
    tables would cost more than the step): copy what you keep.
    """

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[SeatSpec],
        tables: int = 1024,
        threads: int = 1,
        learner_plays: SeatSpec | None = None,
    ) -> None:
        for name, value in (("tables", tables), ("threads", threads)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise InvalidArgumentError(f"{name} must be a positive integer, got {value!r}")
        seats = list(seats)
        learning = [seat == LEARNER for seat in seats]
        if not any(learning):
            raise InvalidArgumentError(f"seats must hold at least one {LEARNER!r}, got {seats!r}")
        # Without learner_plays, a learning seat's placeholder strategy is never asked.
        stand_in = "random" if learner_plays is None else learner_plays
        self.seating = check_seating(
            rules, [stand_in if x else s for s, x in zip(seats, learning, strict=True)]
        )
        self._bids_only = learner_plays is not None
        self.rules, self.tables, self.threads = rules, int(tables), int(threads)
        self.layout = ObservationLayout(rules)
        self.n_actions = action_count(rules)
        self._names = [
            LEARNER if x else s.name for s, x in zip(self.seating.strategies, learning, strict=True)
        ]
        self._learning = np.array(learning, dtype=np.int64)
        self._loops = _stepper(dispatch.kernel_for(self.seating, rules))
        self._config: Config | None = None
        self._tables = _new_tables(self.tables)
        self._out = Outputs(
            observations=np.zeros((self.tables, self.layout.size), np.float32),
            masks=np.zeros((self.tables, self.n_actions), np.int8),
            to_move=np.zeros(self.tables, np.int64),
            rewards=np.zeros((self.tables, rules.players), np.float32),
            done=np.zeros(self.tables, np.bool_),
            errors=np.zeros((self.tables, ERROR_FIELDS), np.int64),
        )

    def reset(self, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every table's first game of the run seeded ``seed``.

        Returns
        -------
        observations : ndarray, (tables, layout.size) float32
        masks : ndarray, (tables, n_actions) int8
        to_move : ndarray, (tables,) int64
            The learning seat each table waits for.
        """
        check_seed(seed)
        self._config = Config(
            int(seed),
            self.tables,
            self.rules.to_array(),
            self.rules.hand_sizes(),
            self.seating.dispatch_ids(),
            self.seating.params,
            self._learning,
            self._bids_only,
            self.layout.starts,
        )
        self._run(self._loops.reset_tables)
        out = self._out
        return out.observations, out.masks, out.to_move

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action per table; the strategies move until a learning seat is to move.

        Returns
        -------
        observations, masks, to_move
            As :meth:`reset`; a table whose game ended shows its next game.
        rewards : ndarray, (tables, seats) float32
            Points each seat scored in the deals that ended in this step.
        done : ndarray, (tables,) bool
            Whether the table's game ended in this step.

        Raises
        ------
        IllegalMoveError
            For an action its mask does not allow (or an illegal strategy move),
            naming the table's game.
        """
        if self._config is None:
            raise RuntimeError("call reset(seed) before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.tables,) or actions.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"actions must be {self.tables} integers, one per table; got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        self._run(self._loops.step_tables, actions.astype(np.int64, copy=False))
        out = self._out
        return out.observations, out.masks, out.to_move, out.rewards, out.done

    @property
    def views(self) -> np.ndarray:
        """Each table's view of the seat to move (:mod:`ohhell_sim.view`), read-only."""
        views = self._tables.views.view()
        views.flags.writeable = False
        return views

    @property
    def seat_streams(self) -> np.ndarray:
        """Each table's per-seat random streams (for a strategy played from outside)."""
        return self._tables.rngs

    @property
    def games(self) -> np.ndarray:
        """The game index (in the run) each table is playing."""
        return self._tables.state[:, S_GAME].copy()

    def _run(self, loop, *actions: np.ndarray) -> None:
        out, cfg, tb = self._out, self._config, self._tables
        workers = min(self.threads, self.tables)
        if workers == 1:
            failed = [loop(0, self.tables, *actions, cfg, tb, out)]
        else:
            bounds = np.linspace(0, self.tables, workers + 1).astype(int)
            with ThreadPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(loop, int(a), int(b), *actions, cfg, tb, out)
                    for a, b in itertools.pairwise(bounds)
                ]
                failed = [future.result() for future in futures]
        failed = [table for table in failed if table >= 0]
        if failed:
            table = failed[0]
            code, deal, seat, move, trick = (int(x) for x in out.errors[table])
            game = int(tb.state[table, S_GAME])
            hand_size = int(self.rules.hand_sizes()[deal])
            raise IllegalMoveError(
                self._names[seat], game, deal, seat, move, code, trick, hand_size
            )


def _new_tables(tables: int) -> Tables:
    n = V.MAX_SEATS
    return Tables(
        state=np.zeros((tables, STATE_FIELDS), np.int64),
        keys=np.zeros(tables, np.uint64),
        rngs=np.zeros((tables, n + 1, 4), np.uint64),
        deck=np.zeros((tables, MAX_DECK), np.int64),
        views=np.full((tables, V.VIEW_SIZE), V.UNKNOWN, np.int64),
        hands=np.zeros((tables, n), np.int64),
        hands2=np.zeros((tables, n), np.int64),
        bids=np.zeros((tables, n), np.int64),
        tricks=np.zeros((tables, n), np.int64),
        scores=np.zeros((tables, n), np.int64),
        passed=np.zeros((tables, n, 2), np.int64),
        passed_masks=np.zeros((tables, n), np.int64),
        totals=np.zeros((tables, n), np.int64),
        faults=np.zeros((tables, n), np.int64),
    )
