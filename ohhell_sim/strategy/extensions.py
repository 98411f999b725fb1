"""Numba extensions in a strategy's code: ``@overload``, ``@register_jitable``, ``@intrinsic``.

``numba.extending`` lets code call functions that no global name holds as
compiled code: a plain Python function decorated ``@register_jitable``, a stub
given an implementation by ``@overload`` (or a method or attribute of a Numba
type by ``@overload_method`` and ``@overload_attribute``), an ``@intrinsic``.
Numba finds each through a typing template in its registry and compiles the
implementation when a caller is typed, against the globals of that moment, then
keeps the compile in the template for the life of the process.

:mod:`ohhell_sim.strategy.code` needs two things of them:

* the function a template runs, to hash what it reads (:class:`Extension`,
  :func:`extensions_of` for a function or intrinsic the code reaches,
  :func:`method_extensions` for a method or attribute name it reads);
* whether a template's compile is still the code of today
  (:func:`check_current`).  A ``register_jitable`` function is compiled from
  copies instead (it is plain code, jitted like a helper), but the other kinds
  cannot be swapped for copies; when one changes after Numba compiled it in this
  process, the run is refused rather than played with the old compile.
"""

from __future__ import annotations

import types
from dataclasses import dataclass

from numba.core.typing.templates import builtin_registry

from ohhell_sim.errors import StrategyError
from ohhell_sim.strategy.origin import is_library_function, source_location

#: ``kind`` of an :class:`Extension`.
KINDS = ("overload", "register_jitable", "intrinsic", "method")


@dataclass(frozen=True)
class Extension:
    """One Numba typing template whose implementation is not a library's.

    Attributes
    ----------
    template : type
        Numba's template class (it holds the compiles).
    kind : str
        One of :data:`KINDS`.
    implementation : function
        What Numba calls or compiles: the ``@overload`` function (which returns
        the implementation), the ``@register_jitable`` function itself, the
        ``@intrinsic`` definition.
    options : tuple
        The template's settings (jit options, inlining, strictness), hashed too.
    """

    template: type
    kind: str
    implementation: types.FunctionType
    options: tuple

    @property
    def jitable(self) -> bool:
        """A ``register_jitable`` function: plain code that copies can jit directly."""
        return self.kind == "register_jitable"

    def describe(self) -> str:
        """``@overload of stub (file:line)`` for messages."""
        return (
            f"the @{self.kind} {self.implementation.__qualname__} "
            f"({source_location(self.implementation)})"
        )


def _implementation(template: type) -> tuple[str, types.FunctionType] | None:
    # The user function behind a template, or None for a library's template.
    if hasattr(template, "_definition_func"):
        kind, function = "intrinsic", template._definition_func
    elif hasattr(template, "_overload_func"):
        function = template._overload_func
        kind = "method" if hasattr(template, "_attr") else "overload"
        if function.__qualname__.startswith("register_jitable.") and function.__closure__:
            # register_jitable wraps the user's function in an overload that returns it.
            kind, function = "register_jitable", function.__closure__[0].cell_contents
    else:
        return None
    if not isinstance(function, types.FunctionType) or is_library_function(function):
        return None
    return kind, function


def _options(template: type) -> tuple:
    inline = getattr(template, "_inline", None)
    return (
        tuple(sorted((getattr(template, "_jit_options", None) or {}).items())),
        getattr(inline, "_inline", inline) if not callable(inline) else "callable",
        getattr(template, "_strict", None),
        getattr(template, "prefer_literal", None),
    )


# Templates by the id of their key (functions, intrinsics) and by attribute name
# (methods, attributes), rebuilt when Numba's registry grows.
_BY_KEY: dict[int, list[Extension]] = {}
_BY_ATTRIBUTE: dict[str, list[Extension]] = {}
_INDEXED = [-1, -1]


def _index() -> None:
    sizes = [len(builtin_registry.functions), len(builtin_registry.attributes)]
    if sizes == _INDEXED:
        return
    _BY_KEY.clear()
    _BY_ATTRIBUTE.clear()
    for template in (*builtin_registry.functions, *builtin_registry.attributes):
        found = _implementation(template)
        if found is None:
            continue
        extension = Extension(template, found[0], found[1], _options(template))
        if extension.kind == "method":
            _BY_ATTRIBUTE.setdefault(template._attr, []).append(extension)
        else:
            _BY_KEY.setdefault(id(template.key), []).append(extension)
    _INDEXED[:] = sizes


def extensions_of(value: object) -> list[Extension]:
    """The non-library templates that give ``value`` (a function, an intrinsic) compiled code."""
    _index()
    found = _BY_KEY.get(id(value), [])
    return [e for e in found if e.template.key is value]


def method_extensions(name: str) -> list[Extension]:
    """The non-library ``@overload_method`` / ``@overload_attribute`` templates named ``name``."""
    _index()
    return list(_BY_ATTRIBUTE.get(name, []))


# The digest of each template's implementation when this process last checked it.
_CHECKED: dict[type, str] = {}


def check_current(extension: Extension, digest: str, strategy: str, where: str) -> None:
    """Refuse an extension whose code changed after Numba compiled it in this process.

    ``digest`` hashes what the implementation reaches now.  An extension seen for
    the first time with compiles already in its template (compiled before the
    strategy was registered) has them dropped, so that it compiles afresh from
    the code of now.

    Raises
    ------
    StrategyError
        If the digest differs from the last check and the template has compiled
        since: Numba would link the old compile.
    """
    template = extension.template
    before = _CHECKED.get(template)
    if before == digest:
        return
    compiled = bool(getattr(template, "_impl_cache", None))
    if compiled and before is not None:
        raise StrategyError(
            f"strategy {strategy!r}: {where} reaches {extension.describe()}, whose code or "
            "values changed after Numba compiled it in this process; Numba keeps that "
            "compile for the life of the process, so the run would play the old code. "
            "Restart Python (the notebook's kernel) to play the new code, or make the "
            "helper an @njit function, which is followed in the same process",
            strategy=strategy,
            role=None,
            location=where,
        )
    if compiled:
        for cache in ("_impl_cache", "_compiled_overloads", "_inline_overloads", "_overload_cache"):
            getattr(template, cache, {}).clear()
    _CHECKED[template] = digest
