"""A strategy's functions compiled alone, before the long kernel compile.

A user strategy is compiled into the game kernel, where a mistake is costly to
find: the kernel takes tens of seconds to compile, a typing error points into the
generated kernel file, and a float returned as a bid would be truncated silently.
:func:`check_compiles` compiles a strategy's ``bid`` and ``play`` alone, with the
argument types the kernel passes, in a second or two, and refuses a function
that does not compile (naming the reason: a plain-Python helper, a write into the
read-only view or parameters) or does not return an integer.  The engine runs it
on every user strategy before it generates a kernel, and the reference engine
before it calls one.
"""

from __future__ import annotations

import re
from types import FunctionType

from numba import types
from numba.core.errors import NumbaError

from ohhell_sim.engine.slots import CALL_ARGUMENTS
from ohhell_sim.errors import StrategyError
from ohhell_sim.strategy.code import strategy_fingerprint, strategy_functions
from ohhell_sim.strategy.memory import shares_memory_safely
from ohhell_sim.strategy.origin import is_library_path, source_location
from ohhell_sim.strategy.record import Strategy

#: The types the kernel calls ``bid`` and ``play`` with: the view and the parameter
#: row read-only (see :mod:`ohhell_sim.engine.readonly`), the seat's stream.
KERNEL_ARGUMENT_TYPES = CALL_ARGUMENTS

ROLES = ("bid", "play")

# Strategies (name, fingerprint, checked) that passed check_compiles in this process,
# with whether their code may be given the view and parameter row themselves.
_COMPILED_OK: dict[tuple[str, str, bool], bool] = {}


def check_compiles(strategy: Strategy, *, checked: bool = False) -> None:
    """Compile ``strategy``'s functions alone and check that they return integers.

    What is compiled is the code as it is now (:meth:`Strategy.current_functions`),
    for the argument types of the kernel, so that a strategy the kernel calls
    (rather than inlines) reuses this compile.  Each strategy is checked once per
    process and code version.

    Parameters
    ----------
    strategy : Strategy
        The strategy.
    checked : bool
        Compile its user code with bounds checks (the check mode of a run).

    Raises
    ------
    StrategyError
        If a function does not compile (the message gives Numba's reason, with
        a hint for a helper function that is not jitted, or for a write into the
        read-only view or parameters), returns anything but an integer (a float,
        an optional value, a tuple), or reads a value that cannot be
        fingerprinted.
    """
    key = (strategy.name, strategy_fingerprint(strategy), checked)
    if key in _COMPILED_OK:
        return
    shares = True
    for role, function in zip(ROLES, strategy_functions(strategy, checked=checked), strict=True):
        where = source_location(function)
        try:
            function.compile(KERNEL_ARGUMENT_TYPES)
        except NumbaError as error:
            raise StrategyError(
                f"strategy {strategy.name!r}: its {role} function ({where}) does not "
                f"compile with Numba: {_numba_reason(error, function)}",
                strategy=strategy.name,
                role=role,
                location=where,
            ) from error
        returned = function.overloads[KERNEL_ARGUMENT_TYPES].signature.return_type
        if not isinstance(returned, types.Integer):
            move = "a bid" if role == "bid" else "a card id"
            raise StrategyError(
                f"strategy {strategy.name!r}: its {role} function ({where}) returns "
                f"{returned}, but it must return {move} as an integer (an int, or a "
                f"NumPy integer; e.g. int(x) or np.int64(x)) on every path",
                strategy=strategy.name,
                role=role,
                location=where,
            )
        annotation = function.overloads[KERNEL_ARGUMENT_TYPES].type_annotation
        shares = shares and shares_memory_safely(annotation)
    _COMPILED_OK[key] = shares


def shares_arrays(strategy: Strategy) -> bool:
    """Whether the kernel may hand ``strategy`` its view and parameter row themselves.

    True when the compiled code of both its functions can reach the two arrays'
    memory only to read it (:func:`ohhell_sim.strategy.memory.shares_memory_safely`);
    otherwise it receives private copies for each decision
    (:func:`ohhell_sim.engine.readonly.private_copy`).  Compiles the functions
    first (:func:`check_compiles`) where this process has not.
    """
    check_compiles(strategy)
    return _COMPILED_OK[(strategy.name, strategy_fingerprint(strategy), False)]


def _numba_reason(error: NumbaError, function: object) -> str:
    # Numba's message runs to dozens of lines; the first paragraph says what is
    # wrong, and three common mistakes deserve a direct hint.
    text = str(error).strip()
    first = text.split("\n\n")[0].strip().replace("\n", " ")
    if "Cannot modify readonly array" in text:
        return _readonly_reason(text)
    if "'default_rng'" in text:
        return (
            "Numba cannot make a NumPy generator (np.random.default_rng) in compiled code; "
            "draw from the rng argument with ohhell_sim.strategy.tools.below or uniform, "
            f"which the run seeds per seat ({first})"
        )
    namespace = getattr(getattr(function, "py_func", function), "__globals__", {})
    for name, value in namespace.items():
        is_plain_function = isinstance(value, FunctionType) and not hasattr(value, "py_func")
        if is_plain_function and f"'{name}'" in text:
            return (
                f"it calls {name}(), a plain Python function; decorate {name} with "
                f"@numba.njit so that compiled code can call it ({first})"
            )
    return first


_TYPING_AT = re.compile(
    r"During: (?:typing of [\w ]+?|lowering \".*?\") at (?P<file>[^\n]+?) \((?P<line>\d+)\)"
)


def _readonly_reason(text: str) -> str:
    # Numba names each statement it was typing or lowering, "During: typing of
    # setitem at FILE (LINE)", innermost first; a method that writes (view.fill, view.sort) fails
    # inside Numba's own code, so the line to show is the first outside a library.
    places = [m for m in _TYPING_AT.finditer(text) if not is_library_path(m["file"])]
    at = f" at {places[0]['file']}:{places[0]['line']}" if places else ""
    which = "its parameter row" if "readonly array(float64" in text else "its view"
    return (
        f"it writes into {which}{at}. The view and the parameters are read-only: the "
        f"view is what every seat sees and the parameter row is shared by the games, "
        f"so a write would change other seats' play; work on a copy (view.copy())"
    )
