"""The shared kernel's slots: each strategy's code as it is now, compiled alone.

The shared kernel (:func:`ohhell_sim.run.dispatch.shared_kernel`) calls each
seat's strategy through a slot of the table of :mod:`ohhell_sim.engine.slots`.
:func:`seating_slots` gives a seating's strategies their slots, writing a slot
the first time this process plays a strategy at a version of its code: the
strategy's fingerprint (:func:`~ohhell_sim.strategy.code.strategy_fingerprint`,
which follows every function and value its code reaches) names the slot, and the
slot's functions are the compiled copies of that code
(:func:`~ohhell_sim.strategy.code.strategy_functions`), the same compiles that
:func:`~ohhell_sim.strategy.compilation.check_compiles` made.  An edit gives a
new fingerprint, so new copies and a new slot, compiled in a second or two; a
slot is never rewritten, so no run calls a version of the code other than its own.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit, types

from ohhell_sim.engine.slots import (
    MAX_SLOTS,
    SLOT_BID,
    SLOT_COPIES,
    SLOT_FIELDS,
    SLOT_PARAMS,
    SLOT_PLAY,
    SLOTS,
)
from ohhell_sim.errors import StrategyError
from ohhell_sim.run.dispatch import gets_copies
from ohhell_sim.strategy import Seating, Strategy
from ohhell_sim.strategy.code import strategy_functions
from ohhell_sim.strategy.compilation import KERNEL_ARGUMENT_TYPES, check_compiles
from ohhell_sim.strategy.disk_cache import kept_on_disk

# The slot of each (name, bid, play, checked), and the dispatchers whose machine
# code the table points to (kept for the life of the process).
_SLOT_OF: dict[tuple[str, str, bool], int] = {}
_KEPT: list[tuple] = []
_LOCK = threading.Lock()


def seating_slots(seating: Seating) -> np.ndarray:
    """The slot of each seat's strategy, at its code of now (``int64``, one per seat).

    Raises
    ------
    StrategyError
        If a strategy does not compile (see
        :func:`~ohhell_sim.strategy.compilation.check_compiles`), or when this
        process has written every slot (:data:`~ohhell_sim.engine.slots.MAX_SLOTS`
        versions of strategies).
    """
    by_name = {s.name: strategy_slot(s, seating.checked) for s in seating.distinct_strategies}
    return np.array([by_name[s.name] for s in seating.strategies], dtype=np.int64)


def strategy_slot(strategy: Strategy, checked: bool) -> int:
    """The slot of ``strategy`` at its code of now (see the module docstring)."""
    builtin = strategy.builtin_id is not None
    if not builtin:
        check_compiles(strategy, checked=checked)
    # The dispatchers compiling the code of now: kept per fingerprint and file
    # (strategy.code), and kept alive here, so their identity names the version.
    functions = strategy_functions(strategy, checked=checked and not builtin)
    key = (strategy.name, id(functions[0]), id(functions[1]), checked)
    with _LOCK:
        slot = _SLOT_OF.get(key)
        if slot is not None:
            return slot
        slot = len(_SLOT_OF)
        if slot >= MAX_SLOTS:
            raise StrategyError(
                f"strategy {strategy.name!r}: this process has played {MAX_SLOTS} versions "
                "of strategies on the shared kernel, all it holds; restart Python (the "
                "notebook's kernel), or pass kernel='dedicated'",
                strategy=strategy.name,
                role=None,
                location=None,
            )
        on_disk = kept_on_disk(strategy, functions)
        called = tuple(_returning_int64(f) for f in on_disk)
        base = slot * SLOT_FIELDS
        SLOTS[base + SLOT_BID] = _address(called[0])
        SLOTS[base + SLOT_PLAY] = _address(called[1])
        SLOTS[base + SLOT_PARAMS] = -1 if builtin else len(strategy.params)
        SLOTS[base + SLOT_COPIES] = gets_copies(strategy, checked)
        _KEPT.append((functions, called))
        _SLOT_OF[key] = slot
        return slot


def _returning_int64(function):
    # The table's functions return int64; a strategy returning another integer
    # type (checked by check_compiles) is called through a conversion, as the
    # dedicated kernel converts its move where it stores it.
    function.compile(KERNEL_ARGUMENT_TYPES)
    returned = function.overloads[KERNEL_ARGUMENT_TYPES].signature.return_type
    if returned == types.int64:
        return function

    @njit
    def as_int64(view, params, rng):
        return np.int64(function(view, params, rng))

    as_int64.compile(KERNEL_ARGUMENT_TYPES)
    return as_int64


def _address(function) -> int:
    # The function's entry in Numba's calling convention (engine.slots calls it so).
    compiled = function.overloads[KERNEL_ARGUMENT_TYPES]
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
