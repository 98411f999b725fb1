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

The game is the kernel's (:func:`ohhell_sim.engine.game.play_deal`) cut at each
decision, on the same rule primitives (:mod:`ohhell_sim.engine.core`); it covers
the plain tables (one deck without the joker; no swap, forehead, catastrophe or
tie-break) under every schedule, trump mode, bidding rule and scoring table.
The tests step it against :class:`~ohhell_sim.env.seat.OhHellSeatEnv`, which
plays the reference engine, observation by observation.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.arguments import check_seed
from ohhell_sim.engine.core import (
    beats,
    cut_for_dealer,
    deal_cards,
    deal_points,
    fixed_trump,
    following_cards,
    forbidden_bid,
    led_suit_of,
    next_seat,
)
from ohhell_sim.engine.rng import STREAM_CUT, STREAM_DEAL, STREAM_SEAT, game_key, seed_stream
from ohhell_sim.engine.workspace import ERROR_FIELDS, MAX_DECK, NOT_PLAYED, fail
from ohhell_sim.env.observation import (
    BID_ACTION,
    ObservationLayout,
    action_count,
    encode_view,
    write_action_mask,
)
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    ERR_NONE,
    IllegalMoveError,
    InvalidArgumentError,
)
from ohhell_sim.rules import Rules
from ohhell_sim.rules.layout import (
    R_CLOSED_BIDS,
    R_HOOK,
    R_N_DEALS,
    R_NO_TRUMP_EVERY,
    R_NULLO,
    R_PLAYERS,
    R_TRUMP_MODE,
    RULES_SIZE,
)
from ohhell_sim.run import dispatch
from ohhell_sim.strategy import SeatSpec, check_seating

#: What a learning seat is called in a seating.
LEARNER = "learner"

# Fields of a table's state row.
(
    S_GAME,  # game index in the run
    S_EPISODE,  # games this table finished
    S_DEAL,
    S_DEALER,
    S_SEAT,  # seat to move
    S_TRICK,
    S_IN_TRICK,  # cards already in the current trick
    S_LEADER,
    S_LED,
    S_BEST,
    S_BEST_SEAT,
    S_BID_TOTAL,
    S_BIDS_MADE,
    S_TRUMP,
    S_HAND_SIZE,
    S_PLAYED,  # mask of the cards played this deal
    STATE_FIELDS,
) = range(17)


class Config(NamedTuple):
    """What every table shares."""

    seed: int
    tables: int
    rules: np.ndarray  # Rules.to_array()
    hand_sizes: np.ndarray
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
    totals: np.ndarray


class Outputs(NamedTuple):
    """What a step returns, one row per table."""

    observations: np.ndarray  # (tables, observation size) float32
    masks: np.ndarray  # (tables, actions) int8
    to_move: np.ndarray  # (tables,) the learning seat to move
    rewards: np.ndarray  # (tables, seats) float32: points of the deals ended in the step
    done: np.ndarray  # (tables,) bool: a game ended in the step
    errors: np.ndarray  # (tables, ERROR_FIELDS): an illegal move's record (code 0: none)


@njit
def _start_deal(i, cfg, tb):
    rules, st, view = cfg.rules, tb.state[i], tb.views[i]
    n = rules[R_PLAYERS]
    d = st[S_DEAL]
    hand_size = cfg.hand_sizes[d]
    everyone = (np.int64(1) << n) - 1
    no_trump_every = rules[R_NO_TRUMP_EVERY]
    no_trump = no_trump_every > 0 and hand_size % no_trump_every == 0
    mode = rules[R_TRUMP_MODE]
    turn = 1 if mode == 0 and not no_trump else 0
    table = tb.rngs[i, V.MAX_SEATS]
    seed_stream(table, tb.keys[i], STREAM_DEAL, d)
    dealer = st[S_DEALER]
    trump_card = deal_cards(
        table, tb.deck[i], 52, n, everyone, hand_size, dealer, turn, tb.hands[i], tb.hands2[i]
    )
    if turn:
        trump = -1 if trump_card == 52 else trump_card // 13
    elif no_trump:
        trump = -1
    else:
        trump = fixed_trump(mode, d)
    view[V.DEAL] = d
    view[V.DEALER] = dealer
    view[V.HAND_SIZE] = hand_size
    view[V.TRUMP] = trump
    view[V.TRUMP_CARD] = trump_card
    view[V.TRICK] = V.UNKNOWN
    view[V.LEADER] = V.UNKNOWN
    view[V.LED_SUIT] = V.UNKNOWN
    view[V.N_IN_TRICK] = 0
    view[V.PLAYED] = 0
    view[V.PLAYED2] = 0
    view[V.WINNING_SEAT] = V.UNKNOWN
    view[V.WINNING_CARD] = V.UNKNOWN
    view[V.LEGAL] = 0
    view[V.BID_TOTAL] = 0
    view[V.MAX_BID] = 0 if rules[R_NULLO] != 0 else hand_size
    view[V.ACTIVE] = everyone
    view[V.N_ACTIVE] = n
    view[V.TIEBREAK] = 0
    for s in range(n):
        view[V.BIDS_BASE + s] = V.UNKNOWN
        view[V.TRICKS_WON_BASE + s] = 0
        view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
        view[V.VOIDS_BASE + s] = 0
        view[V.VISIBLE_BASE + s] = V.UNKNOWN
        view[V.SCORES_BASE + s] = tb.totals[i, s]
        tb.tricks[i, s] = 0
        tb.bids[i, s] = NOT_PLAYED
    view[V.PHASE] = V.PHASE_BID
    st[S_TRUMP] = trump
    st[S_HAND_SIZE] = hand_size
    st[S_BID_TOTAL] = 0
    st[S_BIDS_MADE] = 0
    st[S_PLAYED] = 0
    st[S_SEAT] = next_seat(dealer, everyone, n)


@njit
def _start_game(i, cfg, tb):
    rules, st, view = cfg.rules, tb.state[i], tb.views[i]
    n = rules[R_PLAYERS]
    st[S_GAME] = st[S_EPISODE] * cfg.tables + i
    key = game_key(cfg.seed, st[S_GAME])
    tb.keys[i] = key
    for s in range(n):
        seed_stream(tb.rngs[i, s], key, STREAM_SEAT, s)
        tb.totals[i, s] = 0
        view[V.FAULTS_BASE + s] = 0
    table = tb.rngs[i, V.MAX_SEATS]
    seed_stream(table, key, STREAM_CUT, 0)
    st[S_DEALER] = cut_for_dealer(table, n, tb.deck[i])
    view[V.N_PLAYERS] = n
    view[V.N_DEALS] = rules[R_N_DEALS]
    view[V.HOOK] = rules[R_HOOK]
    for k in range(RULES_SIZE):
        view[V.RULES_BASE + k] = rules[k]
    view[V.PASSED] = 0
    view[V.RECEIVED] = 0
    view[V.HAND2] = 0
    st[S_DEAL] = 0
    _start_deal(i, cfg, tb)


@njit
def _start_trick(st, view, n):
    view[V.TRICK] = st[S_TRICK]
    view[V.LEADER] = st[S_LEADER]
    view[V.LED_SUIT] = V.UNKNOWN
    view[V.WINNING_SEAT] = V.UNKNOWN
    view[V.WINNING_CARD] = V.UNKNOWN
    for s in range(n):
        view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
    st[S_LED] = -1
    st[S_BEST] = -1
    st[S_BEST_SEAT] = -1
    st[S_SEAT] = st[S_LEADER]
    st[S_IN_TRICK] = 0


@njit
def _show_decision(i, cfg, tb):
    """Write the seat to move's private fields into the table's view."""
    st, view = tb.state[i], tb.views[i]
    seat = st[S_SEAT]
    hand = tb.hands[i, seat]
    view[V.SEAT] = seat
    view[V.HAND] = hand
    if view[V.PHASE] == V.PHASE_BID:
        view[V.HAND2] = tb.hands2[i, seat]
        dealer = st[S_DEALER]
        hook = cfg.rules[R_HOOK]
        view[V.FORBIDDEN_BID] = (
            forbidden_bid(hook, st[S_HAND_SIZE], st[S_BID_TOTAL]) if seat == dealer else -1
        )
    else:
        view[V.N_IN_TRICK] = st[S_IN_TRICK]
        follow = following_cards(hand, st[S_LED], st[S_TRUMP], False)
        view[V.LEGAL] = follow if follow != 0 else hand


@njit
def _end_deal(i, cfg, tb, out):
    rules, st, view = cfg.rules, tb.state[i], tb.views[i]
    n = rules[R_PLAYERS]
    hand_size = st[S_HAND_SIZE]
    for s in range(n):
        points = deal_points(tb.bids[i, s], tb.tricks[i, s], hand_size, rules)
        tb.totals[i, s] += points
        view[V.SCORES_BASE + s] = tb.totals[i, s]
        out.rewards[i, s] += points
    st[S_DEALER] = next_seat(st[S_DEALER], (np.int64(1) << n) - 1, n)
    st[S_DEAL] += 1
    if st[S_DEAL] == rules[R_N_DEALS]:
        out.done[i] = True
        st[S_EPISODE] += 1
        _start_game(i, cfg, tb)
    else:
        _start_deal(i, cfg, tb)


@njit
def _apply(i, move, cfg, tb, out):
    """Play ``move`` for the seat to move (its view shown); return an error code."""
    rules, st, view = cfg.rules, tb.state[i], tb.views[i]
    n = rules[R_PLAYERS]
    seat = st[S_SEAT]
    err = out.errors[i]
    if view[V.PHASE] == V.PHASE_BID:
        if move < 0 or move > view[V.MAX_BID]:
            return fail(err, ERR_BID_RANGE, st[S_DEAL], seat, move, -1)
        if move == view[V.FORBIDDEN_BID]:
            return fail(err, ERR_BID_HOOK, st[S_DEAL], seat, move, -1)
        tb.bids[i, seat] = move
        st[S_BID_TOTAL] += move
        closed = rules[R_CLOSED_BIDS] != 0
        if not closed:
            view[V.BIDS_BASE + seat] = move
            view[V.BID_TOTAL] = st[S_BID_TOTAL]
        st[S_BIDS_MADE] += 1
        if st[S_BIDS_MADE] < n:
            st[S_SEAT] = seat + 1 if seat + 1 < n else 0
            return ERR_NONE
        if closed:
            for s in range(n):
                view[V.BIDS_BASE + s] = tb.bids[i, s]
            view[V.BID_TOTAL] = st[S_BID_TOTAL]
        view[V.PHASE] = V.PHASE_PLAY
        view[V.FORBIDDEN_BID] = V.UNKNOWN
        st[S_LEADER] = next_seat(st[S_DEALER], (np.int64(1) << n) - 1, n)
        st[S_TRICK] = 0
        _start_trick(st, view, n)
        return ERR_NONE

    hand = tb.hands[i, seat]
    trump = st[S_TRUMP]
    follow = following_cards(hand, st[S_LED], trump, False)
    legal = follow if follow != 0 else hand
    if move < 0 or move > 52 or (hand >> move) & 1 == 0:
        return fail(err, ERR_CARD_NOT_IN_HAND, st[S_DEAL], seat, move, st[S_TRICK])
    if (legal >> move) & 1 == 0:
        return fail(err, ERR_MUST_FOLLOW, st[S_DEAL], seat, move, st[S_TRICK])
    bit = np.int64(1) << move
    tb.hands[i, seat] = hand ^ bit
    st[S_PLAYED] |= bit
    if st[S_IN_TRICK] == 0:
        st[S_LED] = led_suit_of(move, trump, False)
        st[S_BEST] = move
        st[S_BEST_SEAT] = seat
        view[V.LED_SUIT] = st[S_LED]
    else:
        if st[S_LED] >= 0 and follow == 0:
            view[V.VOIDS_BASE + seat] |= np.int64(1) << st[S_LED]
        if beats(move, st[S_BEST], trump, False):
            st[S_BEST] = move
            st[S_BEST_SEAT] = seat
    view[V.TRICK_CARDS_BASE + seat] = move
    view[V.PLAYED] = st[S_PLAYED]
    view[V.WINNING_SEAT] = st[S_BEST_SEAT]
    view[V.WINNING_CARD] = st[S_BEST]
    st[S_SEAT] = seat + 1 if seat + 1 < n else 0
    st[S_IN_TRICK] += 1
    if st[S_IN_TRICK] < n:
        return ERR_NONE
    winner = st[S_BEST_SEAT]
    tb.tricks[i, winner] += 1
    view[V.TRICKS_WON_BASE + winner] += 1
    st[S_LEADER] = winner
    st[S_TRICK] += 1
    if st[S_TRICK] < st[S_HAND_SIZE]:
        _start_trick(st, view, n)
    else:
        _end_deal(i, cfg, tb, out)
    return ERR_NONE


@njit
def _advance(i, cfg, tb, out, dispatch_bid, dispatch_play):
    """Let the strategies move until a learning seat is to move; show it its decision."""
    # A user strategy's own copies of its view and row (engine.readonly.private_copy).
    own_view = np.empty(V.VIEW_SIZE, dtype=np.int64)
    own_params = np.empty(cfg.params.shape[1], dtype=np.float64)
    while True:
        _show_decision(i, cfg, tb)
        seat = tb.state[i, S_SEAT]
        view = tb.views[i]
        if cfg.learning[seat] and (not cfg.bids_only or view[V.PHASE] == V.PHASE_BID):
            break
        sid, params, rng = cfg.sids[seat], cfg.params[seat], tb.rngs[i, seat]
        if view[V.PHASE] == V.PHASE_BID:
            move = dispatch_bid(sid, view, params, rng, own_view, own_params)
        else:
            move = dispatch_play(sid, view, params, rng, own_view, own_params)
        if _apply(i, move, cfg, tb, out) != ERR_NONE:
            return
    out.observations[i] = 0
    encode_view(tb.views[i], cfg.rules[R_PLAYERS], cfg.starts, out.observations[i])
    out.masks[i] = 0
    write_action_mask(tb.views[i], out.masks[i])
    out.to_move[i] = seat


@njit(nogil=True)
def reset_tables(first, stop, cfg, tb, out, dispatch_bid, dispatch_play):
    """Start the first game of tables ``first .. stop - 1``."""
    for i in range(first, stop):
        tb.state[i, S_EPISODE] = 0
        _start_game(i, cfg, tb)
        _advance(i, cfg, tb, out, dispatch_bid, dispatch_play)


@njit(nogil=True)
def step_tables(first, stop, actions, cfg, tb, out, dispatch_bid, dispatch_play):
    """Play ``actions[i]`` at tables ``first .. stop - 1``, then the strategies."""
    for i in range(first, stop):
        out.rewards[i] = 0
        out.done[i] = False
        action = actions[i]
        phase = tb.views[i, V.PHASE]
        if phase == V.PHASE_BID:
            move = action - BID_ACTION if action >= BID_ACTION else -1
        else:
            move = action if action < BID_ACTION else -1
        if _apply(i, move, cfg, tb, out) != ERR_NONE:
            continue
        _advance(i, cfg, tb, out, dispatch_bid, dispatch_play)


class BatchedEnv:
    """``tables`` games of Oh Hell stepped together, some seats learning.

    Parameters
    ----------
    rules : Rules
        A plain table (see the module docstring).
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
        _check_plain(rules)
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
        kernel = dispatch.kernel_for(self.seating, rules)
        self._dispatch = (kernel.dispatch_bid, kernel.dispatch_play)
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
        self._run(reset_tables)
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
        if actions.shape != (self.tables,) or not np.issubdtype(actions.dtype, np.integer):
            raise InvalidArgumentError(
                f"actions must be {self.tables} integers, one per table; got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        self._run(step_tables, actions.astype(np.int64))
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

    def _run(self, kernel, *actions: np.ndarray) -> None:
        out, cfg, tb = self._out, self._config, self._tables
        out.errors[:] = 0
        workers = min(self.threads, self.tables)
        bounds = np.linspace(0, self.tables, workers + 1).astype(int)
        jobs = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        if workers == 1:
            kernel(0, self.tables, *actions, cfg, tb, out, *self._dispatch)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(kernel, a, b, *actions, cfg, tb, out, *self._dispatch)
                    for a, b in jobs
                ]
                for future in futures:
                    future.result()
        failed = np.flatnonzero(out.errors[:, 0])
        if len(failed):
            table = int(failed[0])
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
        totals=np.zeros((tables, n), np.int64),
    )


def _check_plain(rules: Rules) -> None:
    """Refuse the variants the batched environment does not play, naming them."""
    unplayed = {
        "decks": rules.decks != 1,
        "joker": rules.joker,
        "swap": rules.swap != 0,
        "forehead": rules.forehead,
        "fault_limit": rules.fault_limit != 0,
        "tiebreak": rules.tiebreak,
    }
    named = [name for name, on in unplayed.items() if on]
    if named:
        raise InvalidArgumentError(
            f"BatchedEnv plays plain tables; these rules set {', '.join(named)}. "
            "Use OhHellEnv or OhHellSeatEnv for them."
        )
