"""What a strategy's compiled code is made of: its fingerprint, and compiles of its code now.

Numba compiles a function against what its globals and closure cells hold *at
compile time*: a helper is linked as it was compiled, a number, a tuple or an
array is frozen into the machine code.  Two things follow for a user who edits a
strategy between runs, in a notebook or across processes:

* A compiled dispatcher keeps its machine code.  Re-registering a strategy whose
  helper, global or closure changed, but whose ``bid``/``play`` objects did not,
  would run the old code.  :func:`current_functions` therefore never hands the
  engine a user's own dispatchers: it compiles *copies* of every user function
  the strategy reaches (the function objects rebuilt over a snapshot of their
  globals and cells, each helper and each user module replaced by its copy), so
  that what runs is the code and the values of the moment the copies were made.
* A kernel on disk is found by name, so its name must change whenever anything
  compiled into it changes.  :func:`fingerprint` hashes everything a strategy's
  code reaches: the bytecode of each function, recursively through the helpers
  it calls, its defaults and closure cells, and the value of every global it
  reads, followed through module attributes (``tconf.BID``, ``tconf.helper``).
  A value it cannot hash reliably (an object of a user class, a typed container)
  is refused with a :class:`~ohhell_sim.errors.StrategyError` that says where it
  is read, never guessed at.

Library code (NumPy, Numba, the standard library, installed packages) and this
package's own code are hashed by name or by code but never copied: they do not
change while a process runs.  A strategy that draws from NumPy's or Python's
global random generator is refused too: that state is shared by threads and not
seeded by the run, so its results could not be reproduced.
"""

from __future__ import annotations

import builtins
import dis
import enum
import functools
import hashlib
import random
import sys
import sysconfig
import types
from pathlib import Path

import numba
import numpy as np
from numba.core import types as numba_types

from ohhell_sim.errors import StrategyError

#: Top-level packages of this project: their code is hashed but never copied.
PACKAGE_TOPS = frozenset({"ohhell_sim", "strategies", "studies"})
#: Modules whose functions draw from a process-wide random state.
_GLOBAL_RANDOM_MODULES = ("numpy.random", "random")
_LOAD_GLOBAL = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})
_LOAD_ATTRIBUTE = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
_MISSING = object()


def is_dispatcher(value: object) -> bool:
    """Whether ``value`` is a Numba ``@njit`` function (a dispatcher)."""
    return isinstance(value, numba.core.dispatcher.Dispatcher)


@functools.cache
def _library_roots() -> tuple[str, ...]:
    # Where the interpreter's standard library and installed packages live.
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        paths.add(sysconfig.get_paths()[key])
    return tuple(sorted(str(Path(p).resolve()) for p in paths if p))


def _module_kind(name: str | None) -> str:
    """``"package"`` (this project), ``"library"`` or ``"user"`` for a module name."""
    if not name:
        return "user"
    if name.split(".")[0] in PACKAGE_TOPS:
        return "package"
    module = sys.modules.get(name)
    if module is None or name == "__main__":
        return "user"
    path = getattr(module, "__file__", None)
    if path is None:
        # Built into the interpreter (sys, math), or a module made at run time.
        return "library" if name in sys.builtin_module_names else "user"
    return _path_kind(path)


@functools.lru_cache(maxsize=4096)
def _path_kind(path: str) -> str:
    resolved = str(Path(path).resolve())
    if any(resolved.startswith(root + "/") for root in _library_roots()):
        return "library"
    return "user"


def is_user_function(function: object) -> bool:
    """Whether a Python function is user code (neither this package nor a library)."""
    return _module_kind(getattr(function, "__module__", None)) == "user"


@functools.cache
def _references(code: types.CodeType) -> tuple[tuple[str, ...], ...]:
    """The globals ``code`` reads, as attribute chains: ``("tconf", "BID")``, ``("helper",)``.

    A chain is a global name followed by the attributes read off it at once;
    nested code objects (inner functions, comprehensions) are included.
    """
    chains: list[tuple[str, ...]] = []
    chain: list[str] | None = None
    for instruction in dis.get_instructions(code):
        if instruction.opname in _LOAD_GLOBAL:
            if chain:
                chains.append(tuple(chain))
            chain = [instruction.argval]
        elif instruction.opname in _LOAD_ATTRIBUTE and chain is not None:
            chain.append(instruction.argval)
        else:
            if chain:
                chains.append(tuple(chain))
            chain = None
    if chain:
        chains.append(tuple(chain))
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            chains.extend(_references(const))
    return tuple(dict.fromkeys(chains))


def _lookup(function: types.FunctionType, name: str) -> object:
    namespace = function.__globals__
    if name in namespace:
        return namespace[name]
    return getattr(builtins, name, _MISSING)


@functools.cache
def _code_bytes(code: types.CodeType) -> bytes:
    # Bytecode, names and constants only: file names and line numbers change with
    # every notebook session and must not force a recompile.
    parts = [
        code.co_code,
        repr(code.co_names).encode(),
        repr(code.co_varnames).encode(),
        repr(code.co_freevars).encode(),
    ]
    for const in code.co_consts:
        is_code = isinstance(const, types.CodeType)
        parts.append(_code_bytes(const) if is_code else repr(const).encode())
    return b"\x00".join(parts)


def _where(function: types.FunctionType) -> str:
    code = function.__code__
    return f"{function.__qualname__} ({code.co_filename}:{code.co_firstlineno})"


def _draws_global_random(value: object, module: object = None) -> bool:
    # np.random.random and random.random are methods of a process-wide generator.
    owner = getattr(value, "__self__", None)
    if isinstance(owner, np.random.RandomState | random.Random):
        return True
    name = getattr(module, "__name__", None) or getattr(value, "__module__", None) or ""
    return any(name == m or name.startswith(m + ".") for m in _GLOBAL_RANDOM_MODULES)


_RANDOM_REFUSAL = (
    "draws from a global random state, which is shared by the threads and not seeded by "
    "the run, so the results could not be reproduced; draw from the rng argument instead "
    "(ohhell_sim.strategy_tools: below, uniform)"
)


class _Fingerprint:
    """One walk over the code a strategy reaches, hashing as it goes."""

    def __init__(self, strategy: str) -> None:
        self.strategy = strategy
        self.parts: list[bytes] = [strategy.encode()]
        self.seen: set[int] = set()
        # Where the functions are defined: not part of the hash (a notebook's file
        # name changes with every session), but of which copies may be reused.
        self.places: list[tuple[str, str]] = []

    def update(self, *parts: object) -> None:
        # Each part with its length, so that no two sequences of parts run together.
        for part in parts:
            data = part if isinstance(part, bytes) else str(part).encode()
            self.parts.append(len(data).to_bytes(8, "little"))
            self.parts.append(data)

    def refuse(self, where: str, read: str, why: str) -> None:
        raise StrategyError(
            f"strategy {self.strategy!r}: {where} reads {read}, which {why}",
            strategy=self.strategy,
            role=None,
            location=where,
        )

    def function(self, function: types.FunctionType) -> None:
        if id(function) in self.seen:
            self.update("again", function.__qualname__)
            return
        self.seen.add(id(function))
        code = function.__code__
        where = _where(function)
        self.places.append((function.__module__, code.co_filename))
        self.update("function", function.__qualname__, _code_bytes(code))
        for i, default in enumerate(function.__defaults__ or ()):
            self.value(default, where, f"the default of its argument {i}")
        for name, cell in zip(code.co_freevars, function.__closure__ or (), strict=True):
            try:
                contents = cell.cell_contents
            except ValueError:  # a cell not filled yet
                contents = _MISSING
            self.update("cell", name)
            self.value(contents, where, f"{name!r} of its closure")
        for chain in _references(code):
            value = _lookup(function, chain[0])
            module = None
            read = chain[0]
            for attribute in chain[1:]:
                if not isinstance(value, types.ModuleType):
                    break
                module, value = value, getattr(value, attribute, _MISSING)
                read += f".{attribute}"
            if _draws_global_random(value, module):
                self.refuse(where, read, _RANDOM_REFUSAL)
            self.update("global", read)
            self.value(value, where, read)

    def value(self, value: object, where: str, read: str) -> None:
        if value is _MISSING:
            self.update("missing")
        elif value is None or isinstance(value, bool | int | float | complex | str | bytes):
            self.update(type(value).__name__, repr(value))
        elif isinstance(value, np.generic):
            self.update(value.dtype.str, value.tobytes())
        elif isinstance(value, enum.Enum):
            self.update("enum", type(value).__qualname__, value.name, repr(value.value))
        elif isinstance(value, tuple):
            self.update("tuple", type(value).__qualname__, len(value))
            for i, item in enumerate(value):
                self.value(item, where, f"{read}[{i}]")
        elif isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                self.refuse(where, read, "is an array of Python objects, which Numba cannot use")
            self.update("array", value.dtype.str, value.shape)
            self.update(np.ascontiguousarray(value).tobytes())
        elif isinstance(value, np.dtype):
            self.update("dtype", value.str)
        elif is_dispatcher(value):
            options = {k: v for k, v in value.targetoptions.items() if k != "cache"}
            self.update("jit", sorted(options.items()))
            self.function(value.py_func)
        elif isinstance(value, numba.core.extending._Intrinsic):
            self.function(value._defn)
        elif isinstance(value, types.FunctionType) and _module_kind(value.__module__) != "library":
            self.function(value)
        elif isinstance(value, types.ModuleType):
            self.update("module", value.__name__)
        elif isinstance(value, numba_types.Type):
            self.update("numba type", str(value))
        elif isinstance(value, type) and issubclass(value, enum.Enum):
            self.update("enum class", value.__qualname__)
            for member in value:
                self.update(member.name, repr(member.value))
        elif _is_library_callable(value):
            module = getattr(value, "__module__", None) or "builtins"
            name = getattr(value, "__qualname__", None) or getattr(value, "__name__", "")
            self.update("library", module, name or type(value).__qualname__)
        else:
            kind = f"{type(value).__module__}.{type(value).__qualname__}"
            self.refuse(
                where,
                read,
                f"is a {kind}, a value the engine cannot fingerprint, so it could not tell "
                "when a kernel compiled with it is stale; make it a module constant (a "
                "number, a tuple or a NumPy array), or pass it as a strategy parameter",
            )

    def hexdigest(self) -> str:
        return hashlib.sha256(b"".join(self.parts)).hexdigest()


def _is_library_callable(value: object) -> bool:
    # Functions, classes and ufuncs of libraries: the same for the life of a process
    # (a method of a library object holds that object's state, so it is not one).
    if not callable(value):
        return False
    owner = getattr(value, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        return False
    module = getattr(value, "__module__", None) or "builtins"
    return module == "builtins" or _module_kind(module) in ("library", "package")


def fingerprint(name: str, functions: tuple[object, ...]) -> str:
    """A hash of everything the ``functions`` of strategy ``name`` compile into a kernel.

    Parameters
    ----------
    name : str
        The strategy's name (part of the hash, and named in errors).
    functions : tuple of dispatchers
        Its ``bid`` and ``play``.

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    StrategyError
        If the code reads a value that cannot be hashed reliably, or draws from a
        global random state (see the module docstring).
    """
    return _walk(name, functions).hexdigest()


def _walk(name: str, functions: tuple[object, ...]) -> _Fingerprint:
    walk = _Fingerprint(name)
    for role, function in zip(("bid", "play"), functions, strict=True):
        walk.update(role)
        walk.value(function, f"strategy {name!r}", f"its {role} function")
    return walk


class _Copier:
    """Copies of the user functions a strategy reaches, over snapshots of their globals."""

    def __init__(self, options: dict) -> None:
        self.options = options
        self.copies: dict[int, object] = {}
        self.modules: dict[int, types.ModuleType] = {}

    def dispatcher(self, dispatcher, extra: dict | None = None):
        function = dispatcher.py_func
        if not is_user_function(function):
            return dispatcher
        key = id(dispatcher)
        if extra is None and key in self.copies:
            return self.copies[key]
        code = function.__code__
        # Cells are copied as they are, then filled with copies: a cell may hold
        # the function itself (a recursive closure).
        cells = tuple(types.CellType() for _ in code.co_freevars)
        namespace = dict(function.__globals__)
        copy = types.FunctionType(code, namespace, function.__name__, function.__defaults__, cells)
        copy.__qualname__ = function.__qualname__
        copy.__doc__ = function.__doc__
        copy.__kwdefaults__ = function.__kwdefaults__
        options = {k: v for k, v in dispatcher.targetoptions.items() if k != "cache"}
        options.update(self.options)
        options.update(extra or {})
        jitted = numba.jit(**options)(copy)
        if extra is None:
            self.copies[key] = jitted
        for cell, original in zip(cells, function.__closure__ or (), strict=True):
            try:
                cell.cell_contents = self.replace(original.cell_contents, ())
            except ValueError:  # the original cell is empty too
                pass
        for chain in _references(code):
            if chain[0] in namespace:
                namespace[chain[0]] = self.replace(namespace[chain[0]], chain[1:])
        return jitted

    def replace(self, value: object, attributes: tuple[str, ...]) -> object:
        if is_dispatcher(value):
            return self.dispatcher(value)
        if isinstance(value, tuple) and not attributes:
            items = [self.replace(item, ()) for item in value]
            if all(new is old for new, old in zip(items, value, strict=True)):
                return value
            return value._make(items) if hasattr(value, "_make") else tuple(items)
        if isinstance(value, types.ModuleType) and attributes:
            if _module_kind(value.__name__) != "user":
                return value
            shadow = self.modules.get(id(value))
            if shadow is None:
                # A snapshot of the module, so that ``tconf.helper`` is the copy and
                # ``tconf.BID`` the value hashed when the copy was made.
                shadow = types.ModuleType(value.__name__, value.__doc__)
                shadow.__dict__.update(value.__dict__)
                self.modules[id(value)] = shadow
            name = attributes[0]
            if name in shadow.__dict__:
                shadow.__dict__[name] = self.replace(shadow.__dict__[name], attributes[1:])
            return shadow
        return value


_CURRENT: dict[tuple, tuple[object, object]] = {}


def current_functions(
    name: str,
    bid: object,
    play: object,
    *,
    checked: bool = False,
    inline: bool = False,
) -> tuple[object, object]:
    """Dispatchers that compile the strategy's code as it is now.

    User code is copied (see the module docstring); the package's and libraries'
    functions are returned as they are.  The copies are kept per fingerprint:
    asked again for unchanged code (defined in the same files), the same
    dispatchers (and their compiles) are returned.

    Parameters
    ----------
    name : str
        The strategy's name.
    bid, play : dispatcher
        Its functions as registered.
    checked : bool
        Compile the user code with bounds checks (an index out of range raises
        ``IndexError`` instead of reading or writing other memory); the top-level
        user functions are then never inlined, since inlined code would be
        compiled with its caller's options.
    inline : bool
        ``bid`` and ``play`` declared ``inline="always"``, for Numba to inline
        into their caller (but checked user code).

    Returns
    -------
    tuple
        ``(bid, play)``.
    """
    walk = _walk(name, (bid, play))
    # The same code defined elsewhere gets copies of its own, which name its file.
    key = (name, walk.hexdigest(), tuple(walk.places), checked, inline)
    found = _CURRENT.get(key)
    if found is None:
        copier = _Copier({"boundscheck": True} if checked else {})
        found = tuple(_top_copy(copier, f, checked=checked, inline=inline) for f in (bid, play))
        _CURRENT[key] = found
    return found


def _top_copy(copier: _Copier, function, *, checked: bool, inline: bool):
    if is_user_function(function.py_func):
        if checked:
            return copier.dispatcher(function, {"inline": "never"})
        return copier.dispatcher(function, {"inline": "always"} if inline else None)
    if inline and function.targetoptions.get("inline") != "always":
        # The package's code is not copied, but inlining needs a dispatcher so declared.
        return numba.njit(inline="always")(function.py_func)
    return function
