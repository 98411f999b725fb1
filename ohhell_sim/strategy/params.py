"""Which parameters a strategy's code reads: the constant indices of its parameter row.

A strategy receives its parameter row cut to the parameters it declares; code
that reads an index past them would read nothing it was given (and, compiled
without bounds checks, whatever lies beyond).  :func:`check_declared_params`
reads ``bid`` and ``play`` as Numba reads them (their untyped IR, no compile), with
the helpers they hand the row to, and refuses a read ``params[k]`` whose constant
``k`` lies past the declared count, naming the line.  An index computed at run
time is left to the check mode, whose bounds-checked code raises on it.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

from numba.core import ir
from numba.core.compiler import run_frontend

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategy.origin import is_dispatcher

#: Where ``bid`` and ``play`` take their parameter row: ``(view, params, rng)``.
PARAMS_ARGUMENT = 1


def constant_param_reads(function: object) -> list[tuple[int, str]]:
    """``(index, "file:line")`` of each read of the parameter row at a constant index.

    Parameters
    ----------
    function : dispatcher
        A strategy's ``bid`` or ``play``; the helpers it passes its row to (as
        an argument of a call to another ``@njit`` function) are read too.

    Returns
    -------
    list of (int, str)
        In the order of the code; an index may be negative (``params[-1]``).
    """
    reads: list[tuple[int, str]] = []
    seen: set[tuple[object, int]] = set()
    pending = [(function, PARAMS_ARGUMENT)]
    while pending:
        dispatcher, position = pending.pop()
        key = (dispatcher.py_func.__code__, position)
        if key in seen:
            continue
        seen.add(key)
        for index, where, callee in _reads(dispatcher.py_func, position):
            if callee is None:
                reads.append((index, where))
            else:
                pending.append((callee, index))
    return reads


def _reads(function: object, position: int) -> Iterator[tuple[int, str, object]]:
    """Reads of argument ``position`` at a constant index ``(k, where, None)``, and calls
    handing it on ``(argument, where, callee)``."""
    try:
        body = run_frontend(function)
    except Exception:  # code Numba cannot read: its compile names the fault
        return
    definitions: dict[str, object] = {}
    for block in body.blocks.values():
        for statement in block.body:
            if isinstance(statement, ir.Assign):
                definitions[statement.target.name] = statement.value
    row = {n for n, v in definitions.items() if isinstance(v, ir.Arg) and v.index == position}
    grown = True
    while grown:  # copies of the row: p = params
        copies = {n for n, v in definitions.items() if isinstance(v, ir.Var) and v.name in row}
        grown = not copies <= row
        row |= copies
    for block in body.blocks.values():
        for statement in block.body:
            expr = statement.value if isinstance(statement, ir.Assign) else None
            if not isinstance(expr, ir.Expr):
                continue
            where = f"{statement.loc.filename}:{statement.loc.line}"
            if expr.op in ("getitem", "static_getitem") and expr.value.name in row:
                index = _constant(expr.index, definitions)
                if isinstance(index, numbers.Integral) and not isinstance(index, bool):
                    yield int(index), where, None
            elif expr.op == "call":
                callee = _constant(expr.func, definitions)
                if is_dispatcher(callee):
                    for i, argument in enumerate(expr.args):
                        if argument.name in row:
                            yield i, where, callee


def _constant(value: object, definitions: dict[str, object]) -> object:
    """What ``value`` (an IR variable or constant) holds when it is known before running:
    a constant, a global (``SCALE``) or a module's attribute (``cfg.SCALE``)."""
    for _ in range(8):
        if not isinstance(value, ir.Var):
            return value
        value = definitions.get(value.name)
        if isinstance(value, ir.Const | ir.Global | ir.FreeVar):
            return value.value
        if isinstance(value, ir.Expr) and value.op == "getattr":
            owner = _constant(value.value, definitions)
            return getattr(owner, value.attr, None) if owner is not None else None
        if not isinstance(value, ir.Var):
            return None  # computed while running
    return None


def check_declared_params(name: str, functions: dict[str, object], declared: list[str]) -> None:
    """Refuse code that reads the parameter row past the ``declared`` parameters.

    Parameters
    ----------
    name : str
        The strategy, for the message.
    functions : dict of str to dispatcher
        ``{"bid": bid, "play": play}``.
    declared : list of str
        Its parameters, in the order of the row.

    Raises
    ------
    InvalidArgumentError
        Naming the read, its line and the parameters declared.
    """
    count = len(declared)
    for role, function in functions.items():
        for index, where in constant_param_reads(function):
            if index >= count or index < -count:
                have = f"declares {count} ({', '.join(declared)})" if count else "declares none"
                raise InvalidArgumentError(
                    f"strategy {name!r}: its {role} reads params[{index}] ({where}), but the "
                    f"strategy {have}; declare every parameter the code reads, e.g. "
                    "params={'name': default}, in the order of the row"
                )
