"""Counter-keyed random streams (splitmix64 seeding, xoshiro256** generation).

Every random decision of a game draws from a stream keyed by
``(seed, game, purpose, index)``, never from a generator shared between games.
A game therefore plays the same whatever thread runs it, however the games are
chunked, and on whichever machine of a cluster; and the deal of hand ``d`` does not
depend on how many numbers strategies drew before it, so changing strategies or
rules leaves the cards unchanged (common random numbers for paired comparisons).

A stream state is a ``uint64[4]`` array.  ``ohhell_sim.reference`` holds a
plain-Python twin of these functions; the tests check that both agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U5 = np.uint64(5)
_U9 = np.uint64(9)

#: Stream purposes: the dealer cut, the shuffle of one deal, one seat's strategy.
STREAM_CUT = 0
STREAM_DEAL = 1
STREAM_SEAT = 2


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def mix64(z):
    """Finalise ``z`` with the splitmix64 mixer (after adding the golden gamma)."""
    z = z + GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def game_key(seed, game):
    """The key of game ``game`` of a run seeded with ``seed``; all its streams derive from it."""
    return mix64(mix64(np.uint64(seed)) ^ np.uint64(game))


@njit(inline="always")
def seed_stream(state, key, purpose, index):
    """Fill ``state`` (``uint64[4]``) with stream ``(purpose, index)`` of the game ``key``."""
    k = mix64(key ^ ((np.uint64(purpose) << np.uint64(32)) | np.uint64(index)))
    for i in range(4):
        k = k + GOLDEN
        state[i] = mix64(k)


@njit(inline="always")
def next_u64(state):
    """Advance ``state`` and return the next 64 random bits (xoshiro256**)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * _U5, 7) * _U9
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(inline="always")
def below(state, n):
    """Return a random integer in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift)."""
    r = next_u64(state) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@njit(inline="always")
def uniform(state):
    """Return a random float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
