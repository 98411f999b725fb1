"""What a strategy receives: its view and parameter row, typed read-only, and its own copies.

The kernel hands every strategy its ``view`` and parameter row through
:func:`read_only`: the same memory, typed ``readonly array``, so that a strategy
that assigns to ``view[...]`` or ``params[...]`` (and would thereby change what
the seats after it see, or the parameters of other games) is refused by Numba's
type checker when its kernel compiles, naming the line.  The cast costs nothing
at run time.

The type checker does not see every write: ``view.flat[i] = x`` compiles, and so
does a write through a pointer.  A user strategy whose compiled code may take
such a path (:func:`ohhell_sim.strategy.compilation.shares_arrays`), and every user
strategy in check mode, therefore gets copies (:func:`private_copy`), made for
each of its decisions, which no other seat and no other game reads; the
built-ins, whose code never writes into them, and user code that only reads
them get the arrays themselves.
"""

from __future__ import annotations

from numba import njit, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic


@intrinsic
def read_only(typingctx, array):
    """``array`` itself, typed read-only (see the module docstring)."""
    if not isinstance(array, types.Array):
        return None
    result = array.copy(readonly=True)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, result, args[0])

    return result(array), codegen


@njit(inline="always")
def private_copy(source, scratch, length):
    """``source`` copied into ``scratch``; its first ``length`` entries, typed read-only.

    ``scratch`` is as long as ``source``.  A parameter row is cut to the
    strategy's own parameters (``length``), so that bounds-checked code reading
    past them raises instead of reading the padding of a wider neighbour's row.
    """
    # An explicit loop: Numba's slice assignment (scratch[:] = source) costs three
    # times as much here, about 45 ns for a view.  Inlined: as a call, a user
    # strategy's decisions cost a further 20% (the compile, a second less).
    for i in range(source.shape[0]):
        scratch[i] = source[i]
    return read_only(scratch[:length])
