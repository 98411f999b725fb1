"""Dispatch from a strategy id to the built-in strategies' compiled functions.

An if/elif over integer ids compiles once and caches on disk; the ids are
positions in ``strategies.BUILTINS`` (a test checks the two agree).  ``random``
and ``simple`` are inlined into the game loop; the others sit behind one ordinary
call (``_other_bid``/``_other_play``, see below).  Their own entries are thin:
the sampling strategies (``mc_bidder``, ``pimc``, and ``learned``'s table
look-up) and the card-counting play call non-inlined work functions, since
inlining their large loops would cost compile time and gain nothing.
"""

from __future__ import annotations

from numba import njit

from strategies import (
    card_counter,
    expected_tricks,
    learned,
    mc_bidder,
    pimc,
    random_play,
    simple,
    sure_tricks,
    zero,
)
from strategies._counting import counting_play

N_BUILTIN = 9
#: Dispatch id of ``zero``, whose card-counting play passes its strongest cards.
ZERO_ID = zero.STRATEGY.builtin_id
PIMC_ID = pimc.STRATEGY.builtin_id


@njit(inline="always")
def dispatch_bid(sid, view, params, rng):
    """Call strategy ``sid``'s bid function."""
    if sid == 0:
        return random_play.bid(view, params, rng)
    if sid == 1:
        return simple.bid(view, params, rng)
    return _other_bid(sid, view, params, rng)


@njit(inline="always")
def dispatch_play(sid, view, params, rng):
    """Call strategy ``sid``'s play function."""
    if sid == 0:
        return random_play.play(view, params, rng)
    if sid == 1:
        return simple.play(view, params, rng)
    return _other_play(sid, view, params, rng)


# Only the two cheapest strategies are inlined at the game loop's call sites; the
# others are compiled once, behind an ordinary call.  Inlining all of them
# multiplied the kernel's compile time (over two minutes of CPU, measured) for a
# few nanoseconds on decisions that take far longer.


@njit
def _other_bid(sid, view, params, rng):
    """Call strategy ``sid``'s bid function."""
    if sid == 0:
        return random_play.bid(view, params, rng)
    if sid == 1:
        return simple.bid(view, params, rng)
    if sid == 2:
        return sure_tricks.bid(view, params, rng)
    if sid == 3:
        return expected_tricks.bid(view, params, rng)
    if sid == 4:
        return card_counter.bid(view, params, rng)
    if sid == 5:
        return zero.bid(view, params, rng)
    if sid == 6:
        return mc_bidder.bid(view, params, rng)
    if sid == 7:
        return pimc.bid(view, params, rng)
    return learned.bid(view, params, rng)


@njit
def _other_play(sid, view, params, rng):
    """Call strategy ``sid``'s play function.

    The strategies whose ``play`` is the card-counting play
    (:func:`strategies._counting.counting_play`: ``sure_tricks``,
    ``expected_tricks``, ``card_counter``, ``zero``, ``mc_bidder``, ``learned``)
    share one inlined copy of it, rather than a copy each at every call site of
    the kernel; a test checks that each of them plays as its own ``play``.
    """
    if sid == 0:
        return random_play.play(view, params, rng)
    if sid == 1:
        return simple.play(view, params, rng)
    if sid == PIMC_ID:
        return pimc.play(view, params, rng)
    return counting_play(view, sid == ZERO_ID)
