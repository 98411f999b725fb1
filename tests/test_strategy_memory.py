"""Which strategies are handed their view and parameter row themselves, and which get copies.

A strategy whose compiled code can reach the two arrays' memory only to read it
plays on them directly; any other path (``.flat``, ``np.ascontiguousarray``,
``np.nditer``, a helper that takes one of those, a container holding the array)
keeps its private copies.  The runs that prove the copies private are in
``test_check_mode.py``; here, the judgement itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy.compilation import KERNEL_ARGUMENT_TYPES
from ohhell_sim.strategy.memory import shares_memory_safely
from ohhell_sim.strategy.tools import lowest_card


@njit
def reader(view, params, rng):
    part = view[V.SCORES_BASE : V.SCORES_BASE + 4]
    total = 0
    for x in part:
        total += x
    total += part.sum() + np.max(part) + len(part) + part.shape[0] + (part + 1)[0]
    total += part.copy()[0] + lowest_card(view[V.LEGAL])
    return int(total * params[0]) * 0


@njit
def flat_writer(view, params, rng):
    view.flat[V.PASSED] = 7
    return 0


@njit
def contiguous_writer(view, params, rng):
    alias = np.ascontiguousarray(view)
    alias[V.PASSED] = 7
    return 0


@njit
def nditer_writer(view, params, rng):
    for x in np.nditer(view):
        x[...] = 7
    return 0


@njit
def _reading_helper(values, row):
    return values[0] + int(row[0])


@njit
def passes_to_a_reading_helper(view, params, rng):
    return _reading_helper(view, params) * 0


@njit
def _writing_helper(values):
    values.flat[0] = 7
    return 0


@njit
def _passing_helper(values):
    return _writing_helper(values)


@njit
def passes_to_a_writing_helper(view, params, rng):
    return _passing_helper(view[1:])


@njit
def keeps_in_a_tuple(view, params, rng):
    pair = (view, 1)
    return pair[1]


def _judged(function) -> bool:
    function.compile(KERNEL_ARGUMENT_TYPES)
    return shares_memory_safely(function.overloads[KERNEL_ARGUMENT_TYPES].type_annotation)


@pytest.mark.parametrize("function", [reader, passes_to_a_reading_helper])
def test_code_that_only_reads_gets_the_arrays_themselves(function):
    assert _judged(function)


@pytest.mark.parametrize(
    "function",
    [flat_writer, contiguous_writer, nditer_writer, passes_to_a_writing_helper, keeps_in_a_tuple],
)
def test_any_other_path_to_the_memory_keeps_the_copies(function):
    assert not _judged(function)


def test_a_compile_from_numbas_cache_without_typed_ir_keeps_the_copies():
    from ohhell_sim.strategy.memory import shares_memory_safely

    # Numba hands back a placeholder string, not a TypeAnnotation, for a cached compile.
    assert shares_memory_safely("<annotation not available>") is False
