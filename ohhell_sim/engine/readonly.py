"""Arrays typed read-only, so that compiled code which writes into them does not compile.

The kernel hands every strategy its ``view`` and parameter row through
:func:`read_only`: the same memory, typed ``readonly array``, so that a strategy
that assigns to ``view[...]`` or ``params[...]`` (and would thereby change what
the seats after it see, or the parameters of other games) is refused by Numba's
type checker when its kernel compiles, naming the line.  The cast costs nothing
at run time.
"""

from __future__ import annotations

from numba import types
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
