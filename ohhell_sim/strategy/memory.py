"""Whether a strategy's compiled code can reach the memory of its view or parameter row.

The kernel hands a strategy its view and parameter row typed read-only, so that
Numba's type checker refuses a write (:mod:`ohhell_sim.engine.readonly`); a few
paths escape that type (``view.flat``, ``np.ascontiguousarray(view)``, a
pointer, an intrinsic), and a strategy that takes one receives private copies,
made for every decision.  :func:`shares_memory_safely` reads a compiled
function's typed IR and follows every value that may point into the two arrays:
when each one only flows into reads (an element, a read-only slice, its shape),
new arrays (arithmetic, ``.copy()``, a reduction) and this package's own
functions, no write can reach them, and the strategy gets the arrays
themselves, at no cost.  Anything else (any other attribute, call, container
or return of them) keeps the copies: the test allows, never refuses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba.core import ir, types

from ohhell_sim.strategy.origin import module_kind

#: Attributes of an array that hold no pointer into it.
_PLAIN_ATTRIBUTES = frozenset({"shape", "size", "ndim", "dtype", "itemsize", "nbytes", "strides"})
#: Array methods whose result is new memory or a number.
_NEW_MEMORY_METHODS = frozenset(
    {"copy", "sum", "prod", "max", "min", "argmax", "argmin", "any", "all", "mean", "argsort"}
)
#: Functions whose result is new memory or a number, whatever array they read.
_NEW_MEMORY_FUNCTIONS = frozenset(
    {
        len,
        int,
        float,
        bool,
        abs,
        np.sum,
        np.prod,
        np.max,
        np.amax,
        np.min,
        np.amin,
        np.argmax,
        np.argmin,
        np.any,
        np.all,
        np.count_nonzero,
        np.mean,
        np.copy,
        np.flatnonzero,
        np.nonzero,
        np.argsort,
        np.sort,
    }
)
#: The arguments that are the view and the parameter row: ``(view, params, rng)``.
SHARED_ARGUMENTS = (0, 1)


def shares_memory_safely(
    annotation: object,
    shared_arguments: tuple[int, ...] = SHARED_ARGUMENTS,
    _judged: dict[tuple[int, tuple[int, ...]], bool] | None = None,
) -> bool:
    """Whether compiled code may be given the view and parameter row themselves.

    Parameters
    ----------
    annotation : numba TypeAnnotation
        The typed IR of a compiled ``bid`` or ``play``
        (``dispatcher.overloads[signature].type_annotation``), or of a helper
        they give the arrays to.
    shared_arguments : tuple of int
        The arguments that may point into the arrays.

    Returns
    -------
    bool
        True when every value that may point into the two arrays flows only into
        reads, new arrays and this package's functions (see the module docstring).
    """
    if not hasattr(annotation, "typemap"):
        # A compile loaded from Numba's own cache keeps no typed IR (its
        # annotation is a placeholder string): nothing is known, so copies stay.
        return False
    judged = {} if _judged is None else _judged
    key = (id(annotation), shared_arguments)
    if key in judged:
        # Judged already, or being judged: a recursive call is judged by the
        # statements of the function it is in.
        return judged[key]
    judged[key] = True
    context = _Context(annotation.typemap, annotation.calltypes, {}, shared_arguments, judged)
    judged[key] = _judge(annotation, context)
    return judged[key]


def _judge(annotation: object, context: _Context) -> bool:
    assigns = []
    others = []
    for block in annotation.blocks.values():
        for statement in block.body:
            (assigns if isinstance(statement, ir.Assign) else others).append(statement)
    shared: set[str] = set()
    grown = True
    while grown:  # until no assignment shares more (loops assign before they read)
        grown = False
        for statement in assigns:
            name = statement.target.name
            if name in shared:
                continue
            if _assigned(statement, shared, context) == _SHARED:
                shared.add(name)
                grown = True
                if isinstance(statement.value, ir.Expr) and statement.value.op == "getattr":
                    context.methods[name] = statement.value.attr
    if any(_assigned(s, shared, context) == _UNSAFE for s in assigns):
        return False
    # A store, a return or a raise of a shared value is a path not followed.
    return not any(
        _names(s.list_vars()) & shared
        for s in others
        if not isinstance(s, ir.Del | ir.Jump | ir.Branch | ir.Print)
    )


_SHARED = "shared"  # the value may point into the arrays (typed read-only)
_NEW = "new"  # a number, or new memory
_UNSAFE = "unsafe"  # a path this test does not follow


def _names(variables: Iterable[ir.Var]) -> set[str]:
    return {v.name for v in variables}


@dataclass
class _Context:
    """What the judgement of one function reads: its types, its calls' signatures,
    the bound methods of shared arrays by variable, its shared arguments."""

    typemap: dict
    calltypes: dict
    methods: dict[str, str]
    shared_arguments: tuple[int, ...]
    judged: dict[tuple[int, tuple[int, ...]], bool]


def _assigned(statement: ir.Assign, shared: set[str], context: _Context) -> str:
    """What ``statement`` makes of its target: shared, new, or a path not followed."""
    value = statement.value
    result = context.typemap.get(statement.target.name)
    if isinstance(value, ir.Arg):
        return _SHARED if value.index in context.shared_arguments else _NEW
    if isinstance(value, ir.Var):
        return _SHARED if value.name in shared else _NEW
    if not isinstance(value, ir.Expr):
        return _NEW  # a constant, a global, a free variable
    if not _names(value.list_vars()) & shared:
        return _NEW
    op = value.op
    if op in ("binop", "unary", "arrayexpr", "pair_second"):
        return _NEW  # arithmetic and comparisons make new values
    if op in ("phi", "getiter", "iternext"):
        return _SHARED
    if op in ("getitem", "static_getitem", "typed_getitem"):
        if value.value.name not in shared:
            return _NEW  # a shared value as an index: a number read
        return _read(result)
    if op == "pair_first":
        return _read(result)
    if op == "getattr":
        if value.attr in _PLAIN_ATTRIBUTES:
            return _NEW
        # A bound method is judged where it is called.
        return _SHARED if value.attr in _NEW_MEMORY_METHODS else _UNSAFE
    if op == "call":
        return _call(value, shared, context, result)
    return _UNSAFE


def _read(result: object) -> str:
    # An element read is a number; a slice of a read-only array stays read-only.
    if isinstance(result, types.Number | types.Boolean):
        return _NEW
    if isinstance(result, types.BaseTuple) and all(
        isinstance(item, types.Number | types.Boolean) for item in result
    ):
        return _NEW
    if isinstance(result, types.Array) and not result.mutable:
        return _SHARED
    return _UNSAFE


def _call(value: ir.Expr, shared: set[str], context: _Context, result: object) -> str:
    function = value.func.name
    if function in shared:
        # A method of a shared array: the allowed ones make new memory or a number.
        return _NEW if context.methods.get(function) in _NEW_MEMORY_METHODS else _UNSAFE
    callee = context.typemap.get(function)
    if isinstance(callee, types.Function) and callee.typing_key in _NEW_MEMORY_FUNCTIONS:
        return _NEW
    if isinstance(callee, types.NumberClass):
        return _NEW  # np.int64(x): a number
    if isinstance(callee, types.Dispatcher):
        py_func = callee.dispatcher.py_func
        if module_kind(getattr(py_func, "__module__", None)) == "package":
            # This package's functions never write into what they are given; what
            # they return is judged as a read.
            return _read(result)
        if _helper_only_reads(callee.dispatcher, value, shared, context):
            return _read(result)
    return _UNSAFE


def _helper_only_reads(dispatcher: object, value: ir.Expr, shared: set[str], context) -> bool:
    # A helper of the user's given shared arrays (as positional arguments): its own
    # compile, made with its caller's, judged with those arguments shared.
    if value.kws or value.vararg is not None:
        return False
    signature = context.calltypes.get(value)
    compiled = dispatcher.overloads.get(tuple(signature.args)) if signature else None
    if compiled is None:
        return False
    positions = tuple(i for i, a in enumerate(value.args) if a.name in shared)
    return shares_memory_safely(compiled.type_annotation, positions, context.judged)
