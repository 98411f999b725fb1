"""The shared kernel's strategy table: each strategy reached through a function pointer.

The shared kernel (:mod:`ohhell_sim.run.shared`) is compiled once per machine
and version of the sources, for every strategy: its dispatch does not name the
strategies it calls but reads, for a seat's strategy, a *slot* of the table
:data:`SLOTS`, which this process fills at run time.  A slot holds

``SLOT_BID``, ``SLOT_PLAY``
    the addresses of the strategy's ``bid`` and ``play``, compiled alone, in
    Numba's own calling convention (so that an exception a strategy raises
    reaches the caller as from any compiled call), for the argument types of
    :data:`ohhell_sim.strategy.compilation.KERNEL_ARGUMENT_TYPES`, returning
    ``int64``;
``SLOT_PARAMS``
    the length of its parameter row (-1: the whole row, as a built-in gets it);
``SLOT_COPIES``
    1 when it receives private copies of its view and parameter row
    (:func:`ohhell_sim.engine.readonly.private_copy`), 0 for the arrays themselves.

The kernel's machine code reaches the table through the symbol
:data:`SYMBOL`, bound to this process's table when this module is imported:
the compile kept on disk holds no address, and a slot's content never
changes once written, so a run can never call a function written for another.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ohhell_sim.engine.readonly import private_copy, read_only

#: Fields of a slot (see the module docstring).
SLOT_BID, SLOT_PLAY, SLOT_PARAMS, SLOT_COPIES = range(4)
SLOT_FIELDS = 4
#: Slots of a process: one per strategy and version of its code played on the shared kernel.
MAX_SLOTS = 4096
#: The table, ``MAX_SLOTS * SLOT_FIELDS`` int64 values, written by :mod:`ohhell_sim.run.shared`.
SLOTS = np.zeros(MAX_SLOTS * SLOT_FIELDS, dtype=np.int64)
#: The name by which compiled code finds :data:`SLOTS`.
SYMBOL = "ohhell_sim_strategy_slots"
binding.add_symbol(SYMBOL, SLOTS.ctypes.data)

#: What a strategy is called with: its view and parameter row read-only, its stream.
CALL_ARGUMENTS = (
    types.Array(types.int64, 1, "C", readonly=True),
    types.Array(types.float64, 1, "C", readonly=True),
    types.Array(types.uint64, 1, "C"),
)


def _table(builder: ir.IRBuilder) -> ir.GlobalVariable:
    # The table, declared in the module being compiled (defined by the process).
    module = builder.module
    try:
        return module.get_global(SYMBOL)
    except KeyError:
        table = ir.GlobalVariable(module, ir.ArrayType(ir.IntType(64), 0), SYMBOL)
        table.linkage = "external"
        return table


def _entry(builder: ir.IRBuilder, index: ir.Value) -> ir.Value:
    zero = ir.Constant(ir.IntType(64), 0)
    return builder.load(builder.gep(_table(builder), [zero, index]))


@intrinsic
def slot_value(typingctx, index):
    """Entry ``index`` of the strategy table (an ``int64``)."""
    if not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        position = context.cast(builder, args[0], signature.args[0], types.int64)
        return _entry(builder, position)

    return types.int64(index), codegen


@intrinsic
def call_entry(typingctx, index, view, params, rng):
    """Call the function whose address is entry ``index`` with ``(view, params, rng)``."""
    if (view, params, rng) != CALL_ARGUMENTS or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        position = context.cast(builder, args[0], signature.args[0], types.int64)
        address = _entry(builder, position)
        function_type = context.call_conv.get_function_type(types.int64, CALL_ARGUMENTS)
        function = builder.inttoptr(address, function_type.as_pointer())
        status, result = context.call_conv.call_function(
            builder, function, types.int64, CALL_ARGUMENTS, args[1:]
        )
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result

    return types.int64(index, *CALL_ARGUMENTS), codegen


@njit(inline="always")
def call_slot(slot, field, view, params, rng, own_view, own_params):
    """Play ``field`` (``SLOT_BID`` or ``SLOT_PLAY``) of strategy ``slot`` (see the module)."""
    base = slot * SLOT_FIELDS
    length = slot_value(base + SLOT_PARAMS)
    if length < 0:
        length = params.shape[0]
    if slot_value(base + SLOT_COPIES):
        return call_entry(
            base + field,
            private_copy(view, own_view, view.shape[0]),
            private_copy(params, own_params, length),
            rng,
        )
    return call_entry(base + field, read_only(view), read_only(params[:length]), rng)
