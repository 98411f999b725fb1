"""Where the package's own compiled code is kept on disk, once per machine and version.

A kernel, a built-in strategy called by a kernel or by the reference engine, a
decision recorder: each compiles once per version of the package's sources and
is then read from :func:`builtin_cache_folder` by every process.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba
from numba.core.caching import FunctionCache, NullCache

from ohhell_sim.strategy.record import Strategy

#: The folder of the package (``ohhell_sim``).
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def cache_dir() -> Path:
    """Folder for generated kernels: ``$OHHELL_CACHE_DIR`` or ``~/.cache/ohhell-sim``."""
    root = os.environ.get("OHHELL_CACHE_DIR")
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ohhell-sim"


#: Subpackages no compiled code can read: the import contract (pyproject.toml)
#: puts them above the engine, the strategies and the environments, and they
#: hold no Numba code; an edit of a study need not recompile the built-ins.
_NEVER_COMPILED = ("studies", "analysis", "cli", "decisions")


def _tree_digest() -> str:
    # Every source file and table of the package, its built-in strategies included.
    digest = hashlib.sha256()
    for path in sorted(p for p in PACKAGE_ROOT.rglob("*") if p.suffix in (".py", ".npz")):
        if path.relative_to(PACKAGE_ROOT).parts[0] in _NEVER_COMPILED:
            continue
        name = str(path.relative_to(PACKAGE_ROOT.parent))
        digest.update(name.encode() + b"\x00" + path.read_bytes())
    return digest.hexdigest()


# Read at import, not when the first compile is kept: the compiles are of the code in memory.
_TREE_DIGEST = _tree_digest()


def builtin_cache_folder() -> Path:
    """Where the built-in strategies' own compiles are kept: a folder per version of the sources.

    Numba checks only a function's own file before it reuses a cached compile,
    and a built-in's helpers live in other files; so the folder's name hashes
    every source file and table of the package that compiled code may read (its
    strategies included; not the studies, the analysis or the command).  The
    decision recorders of :mod:`ohhell_sim.env.decisions` and the searches of
    :mod:`ohhell_sim.decisions` are kept there too.
    """
    return cache_dir() / f"builtins-{_TREE_DIGEST[:16]}"


def cached_on_disk(function):
    """``function`` (a Numba dispatcher of the package's own code) with its compile kept on disk.

    A built-in called by the kernel compiles once per machine and version of
    the sources (:func:`builtin_cache_folder`), not once per process: a new
    kernel (a user strategy edited between runs) links the cached compile.
    The folder is the one :func:`cache_dir` names when the function first
    compiles or loads, so that a decorator applied at import follows an
    ``OHHELL_CACHE_DIR`` set afterwards.
    """
    if isinstance(function._cache, NullCache):
        function._cache = _FolderCache(function.py_func)
    return function


class _FolderCache:
    """Numba's on-disk cache of one function, in the folder of the day it is first used."""

    def __init__(self, py_func):
        self._py_func = py_func
        self._cache: FunctionCache | None = None

    def __getattr__(self, name: str):
        # Called only for the attributes of Numba's cache (load_overload, save_overload, ...).
        if self._cache is None:
            before = numba.config.CACHE_DIR
            numba.config.CACHE_DIR = str(builtin_cache_folder())
            try:
                self._cache = FunctionCache(self._py_func)
            finally:
                numba.config.CACHE_DIR = before
        return getattr(self._cache, name)


def kept_on_disk(strategy: Strategy, functions: tuple) -> tuple:
    """``functions`` (a strategy's compiled ``bid`` and ``play``), each :func:`cached_on_disk`
    when ``strategy`` is a built-in; a user's code compiles in its process, where edits
    are followed."""
    if strategy.builtin_id is None:
        return functions
    return tuple(cached_on_disk(f) for f in functions)
