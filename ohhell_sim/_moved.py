"""Forwarding for modules whose names moved: the old module keeps resolving them.

An old module sets ``__getattr__ = forward_names(__name__, new_module)``; every
public name of the new module then resolves through the old one, with a
:class:`DeprecationWarning` that names the new home.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any


def forward_names(old: str, new: ModuleType) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``old`` that forwards to ``new`` (see the module docstring)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__") or not hasattr(new, name):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(
            f"{old}.{name} moved to {new.__name__}.{name}", DeprecationWarning, stacklevel=2
        )
        return getattr(new, name)

    return __getattr__
