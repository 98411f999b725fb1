"""The game loop and the parallel batch kernel, compiled once per set of strategies.

``play_deal`` deals, bids and plays one deal into its rows; ``run_games`` plays
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
from ohhell_sim.engine.bits import lowest_card, popcount
from ohhell_sim.engine.bundles import GameRows
from ohhell_sim.engine.core import (
    add_card,
    beats,
    cut_for_dealer,
    deal_cards,
    deal_points,
    fixed_trump,
    following_cards,
    forbidden_bid,
    led_suit_of,
    next_seat,
    remove_card,
)
from ohhell_sim.engine.rng import STREAM_CUT, STREAM_DEAL, STREAM_SEAT, game_key, seed_stream
from ohhell_sim.engine.tally import add_to_summary
from ohhell_sim.engine.unowned import keep_alive, unowned
from ohhell_sim.engine.workspace import (
    CHUNK_GAMES,
    ERROR_FIELDS,
    NOT_PLAYED,
    fail,
    new_workspace,
    previous_seat,
    top_seats,
)
from ohhell_sim.errors import (
    ERR_BID_HOOK,
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    ERR_NONE,
)
from ohhell_sim.rules.layout import (
    R_CLOSED_BIDS,
    R_DECKS,
    R_FAULT_LIMIT,
    R_FOREHEAD,
    R_HOOK,
    R_JOKER,
    R_N_DEALS,
    R_NO_TRUMP_EVERY,
    R_NULLO,
    R_PLAYERS,
    R_SWAP,
    R_TIEBREAK,
    R_TRUMP_MODE,
    RULES_SIZE,
    TIEBREAK_HAND_SIZE,
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
def _choose_passes(d, k, dealer, active, setup, ws, passed_out):
    """Swap variant: every active seat chooses ``k`` cards; then each passes them left.

    ``setup`` is the run's :class:`~ohhell_sim.engine.bundles.Setup`, ``ws`` the
    worker's :class:`~ohhell_sim.engine.workspace.Workspace`; the cards passed go
    to ``passed_out`` ``(seats, 2)``.
    """
    n = setup.rules[R_PLAYERS]
    sids, params, rngs, view = setup.sids, setup.params, ws.rngs, ws.seat_view
    hands, hands2, passed_masks = ws.hands, ws.hands2, ws.passed_masks
    view[V.PHASE] = V.PHASE_SWAP
    view[V.RECEIVED] = 0
    seat = dealer
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        passed_masks[seat] = 0
        for i in range(k):
            hand = hands[seat]
            view[V.SEAT] = seat
            view[V.HAND] = hand
            view[V.HAND2] = hands2[seat]
            view[V.LEGAL] = hand
            view[V.PASSED] = passed_masks[seat]
            card = _swap_choice(
                sids[seat], view, params[seat], rngs[seat], ws.own_view, ws.own_params
            )
            if card < 0 or card > 52 or (hand >> card) & 1 == 0:
                return fail(ws.err, ERR_CARD_NOT_IN_HAND, d, seat, card, -1)
            remove_card(hands, hands2, seat, card)
            passed_out[seat, i] = card
            passed_masks[seat] |= np.int64(1) << card
    for _ in range(popcount(active)):
        seat = next_seat(seat, active, n)
        left = next_seat(seat, active, n)
        for i in range(k):
            add_card(hands, hands2, left, passed_out[seat, i])
    return ERR_NONE


@per_kernel(inline="always")
def play_deal(d, hand_size, dealer, active, is_tiebreak, key, setup, ws, out):
    """Deal, bid and play deal row ``d`` among the ``active`` seats; score it.

    ``key`` is the game's random key, ``setup`` the run's
    :class:`~ohhell_sim.engine.bundles.Setup` and ``ws`` the worker's
    :class:`~ohhell_sim.engine.workspace.Workspace`.  Writes row ``d`` of the
    game's :class:`~ohhell_sim.engine.bundles.GameRows` ``out``: ``bids``,
    ``tricks``, ``scores`` (``NOT_PLAYED`` bids for seats out of the deal),
    ``held`` (each seat's cards as dealt, 0 for seats out of the deal) and, under
    the swap rule, ``passed``; adds the points to the workspace's ``totals``.
    Returns the trump suit (-1 for none) and an error code.
    """
    # The arrays of the deal's inner loops are bound once per deal (see
    # engine.bundles); the game's scratch rows cover every deal row.
    rules, sids, params = setup.rules, setup.sids, setup.params
    rngs, deck, view, hands, hands2 = ws.rngs, ws.deck, ws.seat_view, ws.hands, ws.hands2
    passed_masks, totals, err = ws.passed_masks, ws.totals, ws.err
    bids, tricks, scores, held = out.bids[d], out.tricks[d], out.scores[d], out.held[d]
    n = rules[R_PLAYERS]
    hook = rules[R_HOOK]
    closed = rules[R_CLOSED_BIDS]
    n_active = popcount(active)
    table = rngs[V.MAX_SEATS]
    joker = GENERAL_TABLES and rules[R_JOKER] != 0

    no_trump_every = rules[R_NO_TRUMP_EVERY]
    no_trump = no_trump_every > 0 and hand_size % no_trump_every == 0
    mode = rules[R_TRUMP_MODE]
    turn = 1 if mode == 0 and not no_trump else 0
    deck_size = 52 * rules[R_DECKS] + rules[R_JOKER] if GENERAL_TABLES else 52
    seed_stream(table, key, STREAM_DEAL, d)
    trump_card = deal_cards(
        table, deck, deck_size, n, active, hand_size, dealer, turn, hands, hands2
    )
    # Kept only on request (record_hands): otherwise ``held`` has no seats.
    for s in range(held.shape[0]):
        held[s] = hands[s] if (active >> s) & 1 else 0
    if turn:
        trump = -1 if trump_card == 52 else trump_card // 13
    elif no_trump:
        trump = -1
    else:
        trump = fixed_trump(mode, d)
    forehead = GENERAL_TABLES and rules[R_FOREHEAD] != 0 and hand_size == 1

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
    view[V.ACTIVE] = active
    view[V.N_ACTIVE] = n_active
    view[V.TIEBREAK] = is_tiebreak
    for s in range(n):
        view[V.BIDS_BASE + s] = V.UNKNOWN
        view[V.TRICKS_WON_BASE + s] = 0
        view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
        view[V.VOIDS_BASE + s] = 0
        view[V.VISIBLE_BASE + s] = V.UNKNOWN
        view[V.SCORES_BASE + s] = totals[s]
        tricks[s] = 0
        scores[s] = 0
        bids[s] = NOT_PLAYED
        passed_masks[s] = 0
    if forehead:
        for s in range(n):
            if (active >> s) & 1:
                view[V.VISIBLE_BASE + s] = lowest_card(hands[s])

    k = min(rules[R_SWAP], hand_size) if GENERAL_TABLES else 0
    # One deck, everyone in, no swap: the play loop skips the variants' bookkeeping.
    plain = not GENERAL_TABLES or (n_active == n and rules[R_DECKS] == 1 and k == 0)
    if k > 0:
        code = _choose_passes(d, k, dealer, active, setup, ws, out.passed[d])
        if code != ERR_NONE:
            return trump, code

    # Bidding, from the dealer's left; the dealer bids last.
    view[V.PHASE] = V.PHASE_BID
    view[V.LEGAL] = 0
    most = view[V.MAX_BID]
    total = 0
    seat = dealer
    for _ in range(n_active):
        seat = next_seat(seat, active, n)
        forbidden = forbidden_bid(hook, hand_size, total) if seat == dealer else -1
        view[V.SEAT] = seat
        view[V.HAND] = 0 if forehead else hands[seat]
        view[V.HAND2] = hands2[seat]
        view[V.FORBIDDEN_BID] = forbidden
        if k > 0:
            view[V.PASSED] = passed_masks[seat]
            view[V.RECEIVED] = passed_masks[previous_seat(seat, active, n)]
        if forehead:
            own = view[V.VISIBLE_BASE + seat]
            view[V.VISIBLE_BASE + seat] = V.UNKNOWN
        bid = dispatch_bid(
            sids[seat], view, params[seat], rngs[seat], ws.own_view, ws.own_params
        )
        if forehead:
            view[V.VISIBLE_BASE + seat] = own
        if bid < 0 or bid > most:
            return trump, fail(err, ERR_BID_RANGE, d, seat, bid, -1)
        if bid == forbidden:
            return trump, fail(err, ERR_BID_HOOK, d, seat, bid, -1)
        bids[seat] = bid
        total += bid
        if closed == 0:
            view[V.BIDS_BASE + seat] = bid
            view[V.BID_TOTAL] = total
    if closed != 0:
        for s in range(n):
            if (active >> s) & 1:
                view[V.BIDS_BASE + s] = bids[s]
        view[V.BID_TOTAL] = total

    # Play: the dealer's left leads the first trick, each winner the next.
    view[V.PHASE] = V.PHASE_PLAY
    view[V.FORBIDDEN_BID] = V.UNKNOWN
    leader = next_seat(dealer, active, n)
    played = np.int64(0)
    played2 = np.int64(0)
    for t in range(hand_size):
        view[V.TRICK] = t
        view[V.LEADER] = leader
        view[V.LED_SUIT] = V.UNKNOWN
        view[V.WINNING_SEAT] = V.UNKNOWN
        view[V.WINNING_CARD] = V.UNKNOWN
        for s in range(n):
            view[V.TRICK_CARDS_BASE + s] = V.UNKNOWN
        led = -1
        best = -1
        best_seat = -1
        seat = leader
        for j in range(n_active):
            view[V.N_IN_TRICK] = j
            hand = hands[seat]
            follow = following_cards(hand, led, trump, joker)
            legal = follow if follow != 0 else hand
            view[V.SEAT] = seat
            view[V.HAND] = hand
            view[V.LEGAL] = legal
            if not plain:
                view[V.HAND2] = hands2[seat]
                if k > 0:
                    view[V.PASSED] = passed_masks[seat]
                    view[V.RECEIVED] = passed_masks[previous_seat(seat, active, n)]
            card = dispatch_play(
                sids[seat], view, params[seat], rngs[seat], ws.own_view, ws.own_params
            )
            if card < 0 or card > 52 or (hand >> card) & 1 == 0:
                return trump, fail(err, ERR_CARD_NOT_IN_HAND, d, seat, card, t)
            if (legal >> card) & 1 == 0:
                return trump, fail(err, ERR_MUST_FOLLOW, d, seat, card, t)
            bit = np.int64(1) << card
            if plain:
                hands[seat] = hand ^ bit
                played |= bit
            else:
                remove_card(hands, hands2, seat, card)
                if played & bit:
                    played2 |= bit
                else:
                    played |= bit
                view[V.PLAYED2] = played2
            if j == 0:
                led = led_suit_of(card, trump, joker)
                best = card
                best_seat = seat
                view[V.LED_SUIT] = led
            else:
                if led >= 0 and follow == 0:
                    view[V.VOIDS_BASE + seat] |= np.int64(1) << led
                if beats(card, best, trump, joker):
                    best = card
                    best_seat = seat
            view[V.TRICK_CARDS_BASE + seat] = card
            view[V.PLAYED] = played
            view[V.WINNING_SEAT] = best_seat
            view[V.WINNING_CARD] = best
            if plain:
                seat = seat + 1 if seat + 1 < n else 0
            else:
                seat = next_seat(seat, active, n)
        tricks[best_seat] += 1
        view[V.TRICKS_WON_BASE + best_seat] += 1
        leader = best_seat

    for s in range(n):
        if (active >> s) & 1:
            points = deal_points(np.int64(bids[s]), np.int64(tricks[s]), hand_size, rules)
            scores[s] = points
            totals[s] += points
            view[V.SCORES_BASE + s] = totals[s]
    return trump, ERR_NONE


@per_kernel(nogil=True)
def run_games(first_game, n_games, worker, workers, setup, rows, tally, failures):
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
    its next game (Ctrl-C).

    A game is played here, not in a function of its own: a call would pass some
    160 machine words of array fields per game (single-deal games run 11-24%
    faster without it, full games 6-9%), and Numba's inlining of such a function
    copies its whole variable table once per block, which added five seconds to
    every kernel's compile.  :func:`play_deal`, one call site, is inlined.  The
    games see the arrays through :func:`~ohhell_sim.engine.unowned.unowned`
    views (no reference counts shared between the threads): the caller owns the
    arguments, and the workspace is kept alive until the last game.
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
    workspace = new_workspace(setup.params.shape[1])
    ws = unowned(workspace)
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
            key = game_key(setup.seed, first_game + g)
            for s in range(n):
                seed_stream(ws.rngs[s], key, STREAM_SEAT, s)
                ws.totals[s] = 0
                ws.seat_view[V.FAULTS_BASE + s] = 0
            seed_stream(ws.rngs[V.MAX_SEATS], key, STREAM_CUT, 0)
            dealer = cut_for_dealer(ws.rngs[V.MAX_SEATS], n, ws.deck)
            ws.seat_view[V.N_PLAYERS] = n
            ws.seat_view[V.N_DEALS] = n_deals
            ws.seat_view[V.HOOK] = setup.rules[R_HOOK]
            for i in range(RULES_SIZE):
                ws.seat_view[V.RULES_BASE + i] = setup.rules[i]
            ws.seat_view[V.PASSED] = 0
            ws.seat_view[V.RECEIVED] = 0
            ws.seat_view[V.HAND2] = 0

            active = everyone
            last_active = active
            winners = np.int64(0)
            code = ERR_NONE
            # One call site for play_deal: the scheduled deals, then the
            # tie-break deal (its own row) when that variant is on.
            for d in range(n_deals + tiebreak_deal):
                tiebreak = 1 if d == n_deals else 0
                if tiebreak:
                    # Eliminated players cannot win; if the last deal eliminated
                    # everyone left, those players are the candidates.
                    winners = top_seats(ws.totals, active if active != 0 else last_active, n)
                    players = winners
                    hand_size = TIEBREAK_HAND_SIZE
                else:
                    players = active
                    hand_size = setup.hand_sizes[d]
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
                            out.faults[d, s] = out.faults[d - 1, s]
                    continue
                if (players >> dealer) & 1 == 0:
                    dealer = next_seat(dealer, players, n)
                trump, code = play_deal(
                    d, hand_size, dealer, players, tiebreak, key, setup, ws, out
                )
                if code != ERR_NONE:
                    break
                out.dealers[d] = dealer
                out.trumps[d] = trump
                if fault_limit:
                    if not tiebreak:
                        last_active = active
                    for s in range(n):
                        count = np.int64(out.faults[d - 1, s]) if d > 0 else np.int64(0)
                        missed = out.bids[d, s] != out.tricks[d, s]
                        if not tiebreak and (active >> s) & 1 and missed:
                            count += abs(np.int64(out.bids[d, s]) - np.int64(out.tricks[d, s]))
                            if count >= fault_limit:
                                active &= ~(np.int64(1) << s)
                        out.faults[d, s] = count
                        ws.seat_view[V.FAULTS_BASE + s] = count
                if tiebreak:
                    winners = top_seats(out.scores[d], winners, n)
                else:
                    dealer = next_seat(dealer, everyone, n)
            if code != ERR_NONE:
                if g < errors[slot, ERROR_FIELDS]:
                    errors[slot, :ERROR_FIELDS] = ws.err
                    errors[slot, ERROR_FIELDS] = g
                # A lost race between two failures only stops the others later.
                if g < abort[0]:
                    abort[0] = g
                continue
            if not tiebreak_deal:
                winners = top_seats(ws.totals, active if active != 0 else last_active, n)
            if summary:
                add_to_summary(setup.rules, setup.hand_sizes, out, winners, tally, slot)
            else:
                rows.winners[g] = winners
    keep_alive(workspace)
