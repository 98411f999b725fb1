"""Array views that skip Numba's reference counting, for the kernel's inner loops.

Every slice or call argument of a Numba array updates the reference count of its
memory with an atomic instruction; in the game loop (a row of the outputs per
deal, a seat's random stream and parameters per decision) these came to about an
eighth of a ``random`` game's time.  A view from :func:`unowned` carries no
owner, so taking slices of it and passing it around costs nothing; the memory
must then be kept alive by its owner for as long as the view is used: an argument
of the calling Python code (the kernel's workspaces and outputs are).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _drop_owner(context, builder, value_type, value):
    if isinstance(value_type, types.Array):
        view = context.make_array(value_type)(context, builder, value=value)
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    if isinstance(value_type, types.BaseTuple):
        items = [
            _drop_owner(context, builder, item, builder.extract_value(value, i))
            for i, item in enumerate(value_type)
        ]
        return context.make_tuple(builder, value_type, items)
    return value  # a scalar owns nothing


def _holds_arrays(value_type) -> bool:
    if isinstance(value_type, types.Array):
        return True
    if isinstance(value_type, types.BaseTuple):
        return any(_holds_arrays(item) for item in value_type)
    return False


@intrinsic
def unowned(typingctx, arrays):
    """The same array, or (named) tuple of arrays, without an owner (see the module docstring).

    Tuples may nest, and may hold scalars, which pass through unchanged.
    """
    if not _holds_arrays(arrays):
        return None

    def codegen(context, builder, sig, args):
        return _drop_owner(context, builder, sig.args[0], args[0])

    return arrays(arrays), codegen
