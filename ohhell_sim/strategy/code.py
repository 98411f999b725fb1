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
  globals and cells, each helper, each ``@register_jitable`` function and each
  user module replaced by its copy), so that what runs is the code and the
  values of the moment the copies were made.
* A kernel on disk is found by name, so its name must change whenever anything
  compiled into it changes.  :func:`fingerprint` hashes everything a strategy's
  code reaches: the bytecode of each function, recursively through the helpers
  it calls, its defaults and closure cells, and the value of every global it
  reads, followed through module attributes (``tconf.BID``, ``tconf.helper``).
  A module the code holds as a value (in a closure cell, a local alias
  ``c = tconf``, a tuple) has every attribute hashed that the code could read off
  a value (``c.BID``, ``getattr(c, "BID")``).  The Numba extensions the code
  reaches (``@overload``, ``@overload_method``, ``@intrinsic``: see
  :mod:`ohhell_sim.strategy.extensions`) are hashed by their implementations;
  as Numba keeps their compiles for the life of a process, one edited after it
  compiled is refused.  A value it cannot hash reliably (an object of a user
  class, a typed container) is refused with a
  :class:`~ohhell_sim.errors.StrategyError` that says where it is read, never
  guessed at.

Library code (NumPy, Numba, the standard library, installed packages) and this
package's own code are hashed by name or by code but never copied: they do not
change while a process runs (:mod:`ohhell_sim.strategy.origin`).  A strategy that
draws from NumPy's or Python's global random generator is refused too: that
state is shared by threads and not seeded by the run, so its results could not
be reproduced.
"""

from __future__ import annotations

import builtins
import dis
import enum
import functools
import hashlib
import random
import sys
import types
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba.core import types as numba_types

from ohhell_sim.errors import StrategyError
from ohhell_sim.strategy.extensions import (
    Extension,
    check_current,
    extensions_of,
    method_extensions,
)
from ohhell_sim.strategy.origin import (
    is_dispatcher,
    is_user_function,
    module_kind,
    source_location,
)

if TYPE_CHECKING:
    from ohhell_sim.strategy.record import Strategy

#: Modules whose functions draw from a process-wide random state.
_GLOBAL_RANDOM_MODULES = ("numpy.random", "random")
_LOAD_GLOBAL = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})
_LOAD_ATTRIBUTE = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
_MISSING = object()


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
    return f"{function.__qualname__} ({source_location(function)})"


@functools.cache
def _attribute_names(code: types.CodeType) -> frozenset[str]:
    """Names ``code`` may read off any value: ``x.NAME``, ``getattr(x, "NAME")``.

    What compiled code can read off a module that it holds in a closure cell or
    a local variable, where no chain of :func:`_references` starts.
    """
    names = {i.argval for i in dis.get_instructions(code) if i.opname in _LOAD_ATTRIBUTE}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _attribute_names(const)
        elif isinstance(const, str) and const.isidentifier():
            names.add(const)
    return frozenset(names)


def _draws_global_random(value: object, module: object = None) -> bool:
    # np.random.random and random.random are methods of a process-wide generator;
    # a class or default_rng makes a generator of its own.
    if not callable(value) or isinstance(value, type) or value is np.random.default_rng:
        return False
    owner = getattr(value, "__self__", None)
    if isinstance(owner, np.random.RandomState | random.Random):
        return True
    name = getattr(module, "__name__", None) or getattr(value, "__module__", None) or ""
    return any(name == m or name.startswith(m + ".") for m in _GLOBAL_RANDOM_MODULES)


_RANDOM_REFUSAL = (
    "draws from a global random state, which is shared by the threads and not seeded by "
    "the run, so the results could not be reproduced; draw from the rng argument instead "
    "(ohhell_sim.strategy.tools: below, uniform)"
)


def _follows_attributes(module: types.ModuleType) -> bool:
    # Modules whose attributes, read off a module held as a value, are hashed one by
    # one: the user's and this project's (libraries do not change while a process
    # runs), and the random modules, whose global draws are refused.
    return module_kind(module.__name__) != "library" or module.__name__ in _GLOBAL_RANDOM_MODULES


class _Fingerprint:
    """One walk over the code a strategy reaches, hashing as it goes.

    :meth:`finish` completes it: the attributes of the modules that the code
    holds as values, and the method overloads of the names it reads.
    """

    def __init__(self, strategy: str) -> None:
        self.strategy = strategy
        self.parts: list[bytes] = [strategy.encode()]
        self.seen: set[int] = set()
        # Where the functions are defined: not part of the hash (a notebook's file
        # name changes with every session), but of which copies may be reused.
        self.places: list[tuple[str, str]] = []
        # Every name the code may read off a value, and the modules it holds as
        # values (a closure cell, a local alias, a tuple item): their attributes of
        # those names are hashed by finish().
        self.names: set[str] = set()
        self.modules: dict[int, tuple[types.ModuleType, str, str]] = {}
        # The Numba extensions reached, each with the function that reaches it.
        self.extensions: dict[type, tuple[Extension, str]] = {}
        # Every module the code reads a name off (``tconf.BID``) or holds as a value.
        self.reached_modules: dict[str, types.ModuleType] = {}

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
        self.names |= _attribute_names(code)
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
                self.reached_modules.setdefault(value.__name__, value)
                module, value = value, getattr(value, attribute, _MISSING)
                read += f".{attribute}"
            if _draws_global_random(value, module):
                self.refuse(where, read, _RANDOM_REFUSAL)
            self.update("global", read)
            self.value(value, where, read)

    def extension(self, extension: Extension, where: str) -> None:
        if extension.template in self.extensions:
            return
        self.extensions[extension.template] = (extension, where)
        self.update("extension", extension.kind, repr(extension.options))
        self.function(extension.implementation)
        # An @overload_method compiles through a function template of its own,
        # keyed on its implementation.
        self.reached_extensions(extension.implementation, where)

    def reached_extensions(self, value: object, where: str) -> None:
        for extension in extensions_of(value):
            self.extension(extension, where)

    def value(self, value: object, where: str, read: str) -> None:
        if _draws_global_random(value):
            self.refuse(where, read, _RANDOM_REFUSAL)
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
            self.update("intrinsic", value._name)
            self.function(value._defn)
            self.reached_extensions(value, where)
        elif isinstance(value, types.FunctionType) and module_kind(value.__module__) != "library":
            self.function(value)
            self.reached_extensions(value, where)
        elif isinstance(value, types.ModuleType):
            self.update("module", value.__name__)
            self.reached_modules.setdefault(value.__name__, value)
            if _follows_attributes(value):
                self.modules.setdefault(id(value), (value, where, read))
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
            self.reached_extensions(value, where)
        else:
            kind = f"{type(value).__module__}.{type(value).__qualname__}"
            self.refuse(
                where,
                read,
                f"is a {kind}, a value the engine cannot fingerprint, so it could not tell "
                "when a kernel compiled with it is stale; make it a module constant (a "
                "number, a tuple or a NumPy array), or pass it as a strategy parameter",
            )

    def finish(self) -> None:
        """Hash what the code may read that no chain of globals names.

        The attributes, of every name the code reads off a value, of each module it
        holds as a value (``cfg.BID`` with ``cfg`` a closure cell or ``c = kcfg``),
        and the ``@overload_method`` / ``@overload_attribute`` of those names;
        repeated until nothing new is reached, since what they reach may read more.
        """
        done: set[tuple[int, str]] = set()
        methods_done: set[str] = set()
        while True:
            pending = [
                (key, name)
                for key in list(self.modules)
                for name in sorted(self.names)
                if (key, name) not in done and name in vars(self.modules[key][0])
            ]
            methods = sorted(self.names - methods_done)
            if not pending and not methods:
                return
            for key, name in pending:
                done.add((key, name))
                module, where, read = self.modules[key]
                self.update("attribute", module.__name__, name)
                attribute = vars(module)[name]
                path = f"{module.__name__}.{name} (through {read})"
                if _draws_global_random(attribute, module):
                    self.refuse(where, path, _RANDOM_REFUSAL)
                self.value(attribute, where, path)
            for name in methods:
                methods_done.add(name)
                for extension in method_extensions(name):
                    self.extension(extension, f"code that reads .{name}")

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
    return module == "builtins" or module_kind(module) in ("library", "package")


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
        If the code reads a value that cannot be hashed reliably, draws from a
        global random state, or reaches a Numba extension that changed after
        Numba compiled it in this process (see the module docstring).
    """
    return _walk(name, functions).hexdigest()


def user_modules(name: str, functions: tuple[object, ...]) -> dict[str, types.ModuleType]:
    """The user's modules that the ``functions`` of strategy ``name`` reach, by name.

    Those defining a function the code calls, and those it reads a value off or
    holds as a value: what a process without them (a Dask worker) must receive to
    run the code as it is here.  ``__main__`` and modules that are not loaded are
    left out.
    """
    walk = _walk(name, functions)
    names = [module for module, _ in walk.places] + list(walk.reached_modules)
    found = {}
    for module in dict.fromkeys(names):
        loaded = walk.reached_modules.get(module) or sys.modules.get(module)
        if loaded is not None and module != "__main__" and module_kind(module) == "user":
            found[module] = loaded
    return found


def _walk(name: str, functions: tuple[object, ...]) -> _Fingerprint:
    walk = _Fingerprint(name)
    for role, function in zip(("bid", "play"), functions, strict=True):
        walk.update(role)
        walk.value(function, f"strategy {name!r}", f"its {role} function")
    walk.finish()
    # Copies replace the register_jitable functions; the other user extensions'
    # compiles live in Numba's templates, so they must still be the code of now.
    for extension, where in walk.extensions.values():
        if not extension.jitable and is_user_function(extension.implementation):
            alone = _Fingerprint("extension")
            alone.function(extension.implementation)
            alone.finish()
            check_current(extension, alone.hexdigest(), name, where)
    return walk


class _Copier:
    """Copies of the user functions a strategy reaches, over snapshots of their globals.

    ``names`` are the attribute names the code may read off a value: a module
    that it holds as a value is shadowed with copies of those attributes.
    """

    def __init__(self, options: dict, names: set[str]) -> None:
        self.options = options
        self.names = names
        self.copies: dict[int, object] = {}
        self.shadows: dict[int, types.ModuleType] = {}
        self.filled: set[tuple[int, str, tuple[str, ...]]] = set()

    def dispatcher(self, dispatcher, extra: dict | None = None):
        if not is_user_function(dispatcher.py_func):
            return dispatcher
        options = {k: v for k, v in dispatcher.targetoptions.items() if k != "cache"}
        return self._jitted(dispatcher.py_func, options, id(dispatcher), extra)

    def jitable(self, function: types.FunctionType, extension: Extension):
        # A register_jitable function is compiled like an @njit helper.
        jit_options, inline = extension.options[0], extension.options[1]
        options = {k: v for k, v in jit_options if k != "no_cpython_wrapper"}
        if isinstance(inline, str):
            options["inline"] = inline
        return self._jitted(function, options, id(function), None)

    def _jitted(self, function: types.FunctionType, options: dict, key: int, extra):
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
        options = {**options, **self.options, **(extra or {})}
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
        if isinstance(value, types.FunctionType) and is_user_function(value):
            jitable = [e for e in extensions_of(value) if e.jitable]
            return self.jitable(value, jitable[0]) if jitable else value
        if isinstance(value, tuple) and not attributes:
            items = [self.replace(item, ()) for item in value]
            if all(new is old for new, old in zip(items, value, strict=True)):
                return value
            return value._make(items) if hasattr(value, "_make") else tuple(items)
        if isinstance(value, types.ModuleType) and module_kind(value.__name__) == "user":
            # A snapshot of the module, so that ``tconf.helper`` is the copy and
            # ``tconf.BID`` the value hashed when the copy was made; a module held
            # as a value (no attribute chain) gets every name the code may read.
            shadow = self.shadows.get(id(value))
            if shadow is None:
                shadow = types.ModuleType(value.__name__, value.__doc__)
                shadow.__dict__.update(value.__dict__)
                self.shadows[id(value)] = shadow
            if attributes:
                self._fill(value, shadow, attributes[0], attributes[1:])
            else:
                for name in sorted(self.names):
                    self._fill(value, shadow, name, ())
            return shadow
        return value

    def _fill(self, module, shadow, name: str, rest: tuple[str, ...]) -> None:
        key = (id(module), name, rest)
        if key in self.filled or name not in vars(module):
            return
        self.filled.add(key)
        shadow.__dict__[name] = self.replace(vars(module)[name], rest)


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
    if not inline and not any(is_user_function(f.py_func) for f in (bid, play)):
        # The package's functions are called as they are, whatever they reach: no
        # copies to key by a walk of their code (which takes milliseconds a call).
        return bid, play
    walk = _walk(name, (bid, play))
    # The same code defined elsewhere gets copies of its own, which name its file.
    key = (name, walk.hexdigest(), tuple(walk.places), checked, inline)
    found = _CURRENT.get(key)
    if found is None:
        # Checked code releases the GIL, so that check_strategy can time a decision.
        checked_options = {"boundscheck": True, "nogil": True}
        copier = _Copier(checked_options if checked else {}, walk.names)
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


def strategy_fingerprint(strategy: Strategy) -> str:
    """A short hash of everything ``strategy``'s code compiles into a kernel.

    :func:`fingerprint` of its two functions, cut to 16 hex digits: a changed
    strategy gets a new kernel.

    Raises
    ------
    StrategyError
        If the code reads a value that cannot be fingerprinted, or draws from
        a global random state.
    """
    return fingerprint(strategy.name, (strategy.bid, strategy.play))[:16]


def strategy_functions(
    strategy: Strategy, *, checked: bool = False, inline: bool = False
) -> tuple[object, object]:
    """``(bid, play)`` of ``strategy`` compiling its code as it is now (:func:`current_functions`).

    What the engine calls, never the registered objects themselves, which may
    hold machine code compiled before a helper or a global changed.
    """
    return current_functions(
        strategy.name, strategy.bid, strategy.play, checked=checked, inline=inline
    )
