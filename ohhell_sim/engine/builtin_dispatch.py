"""Dispatch from a strategy id to the built-in strategies' compiled functions.

An if/elif over integer ids compiles once, caches on disk and lets LLVM inline
each strategy into the game loop; the ids are positions in ``strategies.BUILTINS``
(a test checks the two agree).
"""

from __future__ import annotations

from numba import njit

from strategies import random_play, simple

N_BUILTIN = 2


@njit(cache=True, inline="always")
def dispatch_bid(sid, view, params, rng):
    """Call strategy ``sid``'s bid function."""
    if sid == 0:
        return random_play.bid(view, params, rng)
    return simple.bid(view, params, rng)


@njit(cache=True, inline="always")
def dispatch_play(sid, view, params, rng):
    """Call strategy ``sid``'s play function."""
    if sid == 0:
        return random_play.play(view, params, rng)
    return simple.play(view, params, rng)
