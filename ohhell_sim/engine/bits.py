"""Bit-mask helpers for card sets held in ``int64`` (see :mod:`ohhell_sim.cards`).

``popcount`` and ``lowest_card`` lower to single LLVM intrinsics (``ctpop``,
``cttz``), ``nth_card`` to x86's ``pdep`` where the CPU has a fast one; the rest
are built on them.  All are usable from strategy code.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
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


@intrinsic
def _pdep(typingctx, source, mask):
    # x86 BMI2 parallel bit deposit: the low bits of ``source`` go, in order, to
    # the set bits of ``mask``.
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64"
        )
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


def pdep_available() -> bool:
    """Whether Numba compiles for a CPU with a fast ``pdep`` instruction.

    BMI2 is required, and AMD's Zen 1 and 2 are left out: they have it, in slow
    microcode.  A target CPU or feature list forced through Numba's settings
    (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``, e.g. for a portable cache) is
    respected.
    """
    if config.CPU_FEATURES is not None:
        return "+bmi2" in config.CPU_FEATURES.split(",")
    if config.CPU_NAME not in (None, "host"):
        return False
    if llvm.get_host_cpu_name() in ("znver1", "znver2"):
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2", False))


@njit(inline="always")
def _nth_card_pdep(mask, n):
    # Deposit a single bit at the n-th set bit of the mask: no loop, no branch.
    return _cttz(_pdep(np.int64(1) << np.int64(n), np.int64(mask)))


@njit(inline="always")
def _nth_card_loop(mask, n):
    m = np.int64(mask)
    for _ in range(n):
        m &= m - 1
    return _cttz(m)


#: The ``n``-th lowest card (0-based) of ``mask``; ``n`` must be below its size.
#: One ``pdep`` instruction where the CPU has a fast one, else a loop clearing the
#: lowest card ``n`` times (its data-dependent exit mispredicts: a random legal
#: card took about a third of a ``random`` game's time that way).
nth_card = _nth_card_pdep if pdep_available() else _nth_card_loop


#: One card of each suit at rank 0 (the two of every suit); shifted left by a rank,
#: the cards of that rank.
RANK_IN_EVERY_SUIT = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)


@njit(inline="always")
def ranks_held(mask):
    """The ranks (bits 0-12) of which ``mask`` holds a card of a suit (the joker is no rank)."""
    m = np.int64(mask)
    return (m | (m >> 13) | (m >> 26) | (m >> 39)) & FULL_SUIT


@njit(inline="always")
def cards_of_rank(mask, rank):
    """The cards of ``mask`` of rank ``rank`` (0-12), in any suit."""
    return np.int64(mask) & (RANK_IN_EVERY_SUIT << np.int64(rank))


@njit(inline="always")
def highest_rank_cards(mask):
    """The cards of ``mask`` of its highest rank, in any suit (empty for none; no joker)."""
    ranks = ranks_held(mask)
    return cards_of_rank(mask, highest_card(ranks)) if ranks != 0 else np.int64(0)


@njit(inline="always")
def lowest_rank_cards(mask):
    """The cards of ``mask`` of its lowest rank, in any suit (empty for none; no joker)."""
    ranks = ranks_held(mask)
    return cards_of_rank(mask, lowest_card(ranks)) if ranks != 0 else np.int64(0)


@njit(inline="always")
def suit_mask(suit):
    """Mask of every card of ``suit`` (0-3)."""
    return np.int64(FULL_SUIT) << np.int64(13 * suit)
