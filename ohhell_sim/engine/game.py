"""The game loop and the parallel batch kernel, compiled once per set of strategies.

``deal_and_bid`` deals one deal into its rows and takes the bids, ``play_tricks``
plays its tricks and scores it; ``run_games`` plays
a batch of games across threads, keeping their rows or adding them to summary
counts (:mod:`ohhell_sim.engine.tally`).
Games are independent and each draws only from its own random streams
(:mod:`ohhell_sim.engine.rng`), so the results do not depend on the number of
threads or on how the games are chunked.

The functions marked :func:`per_kernel` call the strategies, so each kernel
compiles its own copy: :func:`bind` makes that copy in a kernel module written
by :mod:`ohhell_sim.run.dispatch`, whose namespace supplies

``dispatch_bid``, ``dispatch_play``
    the dispatch over the kernel's strategies (by their index in ``sids``);
``GENERAL_TABLES``
    False in kernels for plain tables (see
    :func:`ohhell_sim.run.dispatch.needs_general_tables`): one deck without
    the joker, every player in every deal, no cards passed or hidden.  Numba
    compiles a module constant into the code, so the branches of the other
    variants disappear from those kernels, which makes the canonical game
    faster and compile sooner.

The definitions of those three names below only stand in for them here (the
general value; a dispatch that refuses to run); the functions of this module
are never compiled with them.  Everything that does not call a strategy
(the rule primitives, the workspace, the summary tally) is ordinary compiled
code in other modules.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.engine.bits import popcount
from ohhell_sim.engine.bundles import GameRows
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
from ohhell_sim.engine.rounds import (
    carry_faults,
    count_faults,
    deal_dealer,
    deal_seats,
    game_winners,
    start_game,
)
from ohhell_sim.engine.tally import add_to_summary
from ohhell_sim.engine.unowned import unowned
from ohhell_sim.engine.workspace import (
    CHUNK_GAMES,
    ERROR_FIELDS,
    NOT_PLAYED,
    fail,
    top_seats,
    worker_workspace,
)
from ohhell_sim.errors import ERR_NONE
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

#: Stand-in: each kernel module sets its own (see the module docstring).
GENERAL_TABLES = True


def dispatch_bid(sid, view, params, rng, own_view, own_params):
    """Stand-in for a kernel's bid dispatch (see the module docstring)."""
    raise RuntimeError("ohhell_sim.engine.game runs only when bound into a kernel")


def dispatch_play(sid, view, params, rng, own_view, own_params):
    """Stand-in for a kernel's play dispatch (see the module docstring)."""
    raise RuntimeError("ohhell_sim.engine.game runs only when bound into a kernel")


_PER_KERNEL: dict[str, dict] = {}


def per_kernel(**options):
    """Mark a function as compiled per kernel, with these ``numba.njit`` options."""

    def mark(func):
        _PER_KERNEL[func.__name__] = options
        return func

    return mark


def bind(namespace: dict, filename: str) -> None:
    """Compile-ready copies of the :func:`per_kernel` functions, into ``namespace``.

    ``namespace`` is a kernel module's, holding its dispatch and ``GENERAL_TABLES``;
    the copies look their globals up there, so they call that dispatch and each
    other.  Their code is credited to ``filename`` (the kernel's file), which is
    where Numba keeps, and checks, their on-disk cache: one per kernel.
    """
    own = {k: v for k, v in globals().items() if not k.startswith("__")}
    for name in ("GENERAL_TABLES", "dispatch_bid", "dispatch_play"):
        own.pop(name)
    for name, value in own.items():
        namespace.setdefault(name, value)
    for name, options in _PER_KERNEL.items():
        source = globals()[name]
        copy = types.FunctionType(
            source.__code__.replace(co_filename=filename),
            namespace,
            name,
            source.__defaults__,
            source.__closure__,
        )
        copy.__doc__ = source.__doc__
        copy.__qualname__ = source.__qualname__
        namespace[name] = njit(cache=True, **options)(copy)


@per_kernel()
def _swap_choice(sid, view, params, rng, own_view, own_params):
    # An ordinary call, so that the strategies are not inlined a second time.
    return dispatch_play(sid, view, params, rng, own_view, own_params)


@per_kernel()
def _choose_passes(d, k, dealer, active, setup, ws, deal):
    """Swap variant: every active seat chooses ``k`` cards; then each passes them left.

    ``setup`` is the run's :class:`~ohhell_sim.engine.bundles.Setup`, ``ws`` the
    worker's :class:`~ohhell_sim.engine.workspace.Workspace` and ``deal`` the
    deal's :class:`~ohhell_sim.engine.deal.DealArrays`.
    """
    n = setup.rules[R_PLAYERS]
    begin_swap(deal)
    seat = dealer
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        for i in range(k):
            hand = show_pass(deal, seat)
            card = _swap_choice(
                setup.sids[seat],
                deal.seat_view,
                setup.params[seat],
                ws.rngs[seat],
                ws.own_view,
                ws.own_params,
            )
            code = card_error(hand, hand, card)
            if code != ERR_NONE:
                return fail(ws.err, code, d, seat, card, -1)
            apply_pass(deal, seat, card, i)
    pass_left(deal, dealer, active, n, k)
    return ERR_NONE


@per_kernel(inline="always")
def deal_and_bid(d, hand_size, dealer, active, is_tiebreak, key, setup, ws, out):
    """Deal deal row ``d`` among the ``active`` seats and take their bids.

    ``key`` is the game's random key, ``setup`` the run's
    :class:`~ohhell_sim.engine.bundles.Setup` and ``ws`` the worker's
    :class:`~ohhell_sim.engine.workspace.Workspace`.  Writes row ``d`` of the
    game's :class:`~ohhell_sim.engine.bundles.GameRows` ``out``: ``bids``
    (``NOT_PLAYED`` for seats out of the deal), ``held`` (each seat's cards as
    dealt, 0 for seats out of the deal) and, under the swap rule, ``passed``.
    Returns the deal's :class:`~ohhell_sim.engine.deal.DealArrays`, the trump
    suit (-1 for none) and an error code.  The rules of the deal are
    :mod:`ohhell_sim.engine.deal`'s; this function asks the strategies.
    """
    # The arrays of the deal's inner loops are bound once per deal (see
    # engine.bundles); the game's scratch rows cover every deal row.
    rules, sids, params, rngs, err = setup.rules, setup.sids, setup.params, ws.rngs, ws.err
    deal = DealArrays(
        ws.seat_view,
        ws.hands,
        ws.hands2,
        out.bids[d],
        out.tricks[d],
        out.scores[d],
        out.passed[d],
        ws.passed_masks,
        ws.totals,
    )
    view, held = deal.seat_view, out.held[d]
    n = rules[R_PLAYERS]
    rng = rngs[V.MAX_SEATS]
    seed_stream(rng, key, STREAM_DEAL, d)
    trump = start_deal(
        deal, rules, rng, ws.deck, d, hand_size, dealer, active, is_tiebreak, GENERAL_TABLES
    )
    # Kept only on request (record_hands): otherwise ``held`` has no seats.
    for s in range(held.shape[0]):
        held[s] = deal.hands[s] if (active >> s) & 1 else 0
    forehead = is_forehead(rules, hand_size, GENERAL_TABLES)
    k = swap_cards(rules, hand_size, GENERAL_TABLES)
    if k > 0:
        code = _choose_passes(d, k, dealer, active, setup, ws, deal)
        if code != ERR_NONE:
            return deal, trump, code

    begin_bidding(deal)
    hook, closed = rules[R_HOOK], rules[R_CLOSED_BIDS] != 0
    total = 0
    seat = dealer
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        forbidden = show_bid(deal, seat, dealer, hook, total, forehead, k > 0, active, n)
        bid = dispatch_bid(sids[seat], view, params[seat], rngs[seat], ws.own_view, ws.own_params)
        code = bid_error(deal, bid, forbidden)
        if code != ERR_NONE:
            return deal, trump, fail(err, code, d, seat, bid, -1)
        total = apply_bid(deal, seat, bid, total, closed, forehead)
    end_bidding(deal, total, closed, active, n)
    return deal, trump, ERR_NONE


@per_kernel(inline="always")
def play_tricks(deal, d, hand_size, dealer, active, trump, setup, ws):
    """Play the tricks of deal row ``d``, its bids taken (:func:`deal_and_bid`); score it.

    Writes ``tricks`` and ``scores`` of the deal's
    :class:`~ohhell_sim.engine.deal.DealArrays` ``deal`` and adds the points to
    the workspace's ``totals``.  Returns an error code.
    """
    rules, sids, params, rngs, err = setup.rules, setup.sids, setup.params, ws.rngs, ws.err
    view = deal.seat_view
    n = rules[R_PLAYERS]
    n_active = popcount(active)
    joker = GENERAL_TABLES and rules[R_JOKER] != 0
    k = swap_cards(rules, hand_size, GENERAL_TABLES)
    # One deck, everyone in, no swap: the play loop skips the variants' bookkeeping.
    plain = not GENERAL_TABLES or (n_active == n and rules[R_DECKS] == 1 and k == 0)
    # The dealer's left leads the first trick, each winner the next.
    leader = next_seat(dealer, active, n)
    for t in range(hand_size):
        start_trick(deal, t, leader, n)
        led = -1
        best = -1
        best_seat = -1
        seat = leader
        for j in range(n_active):
            hand, follow, legal = show_card(
                deal, seat, j, led, trump, joker, plain, k > 0, active, n
            )
            card = dispatch_play(
                sids[seat], view, params[seat], rngs[seat], ws.own_view, ws.own_params
            )
            code = card_error(hand, legal, card)
            if code != ERR_NONE:
                return fail(err, code, d, seat, card, t)
            led, best, best_seat = apply_card(
                deal, seat, card, j, follow, led, best, best_seat, trump, joker, plain
            )
            seat = next_to_play(seat, active, n, plain)
        end_trick(deal, best_seat)
        leader = best_seat
    score_deal(deal, rules, hand_size, active, n)
    return ERR_NONE


@per_kernel(nogil=True)
def run_games(first_game, n_games, worker, workers, setup, rows, tally, workspaces, failures):
    """Play this worker's share of games ``first_game .. first_game + n_games - 1``.

    The games are cut into work units of ``CHUNK_GAMES``; worker ``worker`` of
    ``workers`` plays units ``worker, worker + workers, ...``.  The caller runs
    the workers on threads of its own (the function releases the GIL), each
    worker with its own ``worker`` index: the games, and so the results, do not
    depend on how many workers there are.  Numba's ``prange`` would do the same
    but costs a quarter of the kernel's compile time.

    ``setup`` is the run's :class:`~ohhell_sim.engine.bundles.Setup`.  Rows
    (``tally`` without slots): game ``g`` of the run goes to game ``g`` of
    ``rows``, a :class:`~ohhell_sim.engine.bundles.RunRows`.  Summary (``tally``
    with a slot per worker, :class:`~ohhell_sim.engine.bundles.Tally`): the row
    arrays have one game per worker, scratch for the game that worker is
    playing, and each finished game is added to the worker's slot of the
    counts.  The caller sums the slots: integer counts, so the sum does not
    depend on which worker played which game, and memory does not grow with
    ``n_games``.  A game's winners are a seat mask (``rows.winners``).

    ``failures.errors`` ``(workers, ERROR_FIELDS + 1)`` keeps each worker's
    lowest failing game (last field; ``n_games`` when none) and its error
    record.  ``failures.abort`` (one element, ``n_games`` on entry) receives the
    index of a failing game, and games after it stop early; every game before
    the first failure still runs, so the lowest recorded failure is the first,
    whatever the workers.  The caller sets it to -1 to stop every worker before
    its next game (Ctrl-C).  ``workspaces`` holds every worker's scratch
    arrays (:func:`~ohhell_sim.engine.workspace.new_workspaces`); this one
    uses its own entry.

    A game is played here, not in a function of its own: a call would pass some
    160 machine words of array fields per game (single-deal games run 11-24%
    faster without it, full games 6-9%), and Numba's inlining of such a function
    copies its whole variable table once per block, which added five seconds to
    every kernel's compile.  A deal's two halves, :func:`deal_and_bid` and
    :func:`play_tricks`, are inlined, each at one call site: Numba's inlining
    copies the variable table of the function it inlines once per block of it,
    so two halves cost half of what the whole deal did (about a second of every
    kernel's compile).  The
    games see the arrays through :func:`~ohhell_sim.engine.unowned.unowned`
    views (no reference counts shared between the threads): the caller owns the
    arguments, and keeps them alive until the last game.
    """
    setup = unowned(setup)
    rows = unowned(rows)
    tally = unowned(tally)
    errors, abort = failures
    summary = tally.outcomes.shape[0] > 0
    with_faults = rows.faults.shape[0] == rows.bids.shape[0]
    with_passed = rows.passed.shape[0] == rows.bids.shape[0]
    with_held = rows.held.shape[0] == rows.bids.shape[0]
    n_chunks = (n_games + CHUNK_GAMES - 1) // CHUNK_GAMES
    slot = worker
    ws = worker_workspace(unowned(workspaces), worker)
    # Fields are read where used, not bound to locals (see engine.bundles).
    n = setup.rules[R_PLAYERS]
    n_deals = setup.rules[R_N_DEALS]
    fault_limit = setup.rules[R_FAULT_LIMIT] if GENERAL_TABLES else 0
    tiebreak_deal = GENERAL_TABLES and setup.rules[R_TIEBREAK] != 0
    everyone = (np.int64(1) << n) - 1
    for c in range(worker, n_chunks, workers):
        stop = min(n_games, (c + 1) * CHUNK_GAMES)
        for g in range(c * CHUNK_GAMES, stop):
            if g > abort[0]:
                break
            row = slot if summary else g
            # The game's rows (faults, passed and held may be one game of scratch
            # when their variant is off or the hands are not kept).
            out = GameRows(
                rows.dealers[row],
                rows.trumps[row],
                rows.bids[row],
                rows.tricks[row],
                rows.scores[row],
                rows.faults[row if with_faults else 0],
                rows.passed[row if with_passed else 0],
                rows.held[row if with_held else 0],
            )
            key, dealer = start_game(
                ws.seat_view, ws.rngs, ws.totals, ws.deck, setup.rules, setup.seed, first_game + g
            )
            active = everyone
            last_active = active
            winners = np.int64(0)
            code = ERR_NONE
            # One call site for a deal: the scheduled deals, then the
            # tie-break deal (its own row) when that variant is on.
            for d in range(n_deals + tiebreak_deal):
                players, hand_size, tiebreak = deal_seats(
                    d, n_deals, active, last_active, ws.totals, setup.hand_sizes, n
                )
                if tiebreak:
                    winners = players
                if popcount(players) < 2:
                    # Nobody to play: too few players left (catastrophe variant),
                    # or a single winner needs no tie-break.
                    out.dealers[d] = -1
                    out.trumps[d] = -1
                    for s in range(n):
                        out.bids[d, s] = NOT_PLAYED
                        out.tricks[d, s] = 0
                        out.scores[d, s] = 0
                    if fault_limit:
                        carry_faults(out.faults[d - 1], out.faults[d], d == 0, ws.seat_view, n)
                    continue
                dealer = deal_dealer(dealer, players, n)
                deal, trump, code = deal_and_bid(
                    d, hand_size, dealer, players, tiebreak, key, setup, ws, out
                )
                if code == ERR_NONE:
                    code = play_tricks(deal, d, hand_size, dealer, players, trump, setup, ws)
                if code != ERR_NONE:
                    break
                out.dealers[d] = dealer
                out.trumps[d] = trump
                if fault_limit and tiebreak:
                    carry_faults(out.faults[d - 1], out.faults[d], d == 0, ws.seat_view, n)
                elif fault_limit:
                    last_active = active
                    active = count_faults(
                        out.bids[d],
                        out.tricks[d],
                        out.faults[d - 1],
                        out.faults[d],
                        d == 0,
                        active,
                        fault_limit,
                        ws.seat_view,
                        n,
                    )
                if tiebreak:
                    winners = top_seats(out.scores[d], winners, n)
                else:
                    dealer = next_seat(dealer, everyone, n)
            if code != ERR_NONE:
                if g < errors[slot, ERROR_FIELDS]:
                    # A loop: a slice assignment compiles Numba's shape-mismatch
                    # message (two seconds of every kernel's first compile).
                    for f in range(ERROR_FIELDS):
                        errors[slot, f] = ws.err[f]
                    errors[slot, ERROR_FIELDS] = g
                # A lost race between two failures only stops the others later.
                if g < abort[0]:
                    abort[0] = g
                continue
            if not tiebreak_deal:
                winners = game_winners(ws.totals, active, last_active, n)
            if summary:
                add_to_summary(setup.rules, setup.hand_sizes, out, winners, tally, slot)
            else:
                rows.winners[g] = winners
