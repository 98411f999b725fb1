"""Bit-mask helpers for card sets held in ``int64`` (see :mod:`ohhell_sim.cards`).

``popcount`` and ``lowest_bit`` lower to single LLVM intrinsics (``ctpop``,
``cttz``); the rest are built on them.  All are usable from strategy code.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

N_RANKS = 13
FULL_SUIT = (1 << N_RANKS) - 1
SUIT_MASKS = np.array([FULL_SUIT << (13 * s) for s in range(4)], dtype=np.int64)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit(inline="always")
def popcount(mask):
    """Number of cards in ``mask``."""
    return _ctpop(np.int64(mask))


@njit(inline="always")
def lowest_card(mask):
    """Lowest card id in a non-empty ``mask`` (64 when empty)."""
    return _cttz(np.int64(mask))


@njit(inline="always")
def highest_card(mask):
    """Highest card id in a non-empty ``mask`` (-1 when empty)."""
    return 63 - _ctlz(np.int64(mask))


@njit(inline="always")
def nth_card(mask, n):
    """The ``n``-th lowest card (0-based) of ``mask``; ``n`` must be below its size."""
    m = np.int64(mask)
    for _ in range(n):
        m &= m - 1
    return _cttz(m)


@njit(inline="always")
def suit_mask(suit):
    """Mask of every card of ``suit`` (0-3)."""
    return np.int64(FULL_SUIT) << np.int64(13 * suit)
