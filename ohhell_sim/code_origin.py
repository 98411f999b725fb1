"""Where code comes from: this project, an installed library, or the user.

Strategy code is followed differently by origin (:mod:`ohhell_sim.strategy_code`):
library code (NumPy, Numba, the standard library, installed packages) does not
change while a process runs and is hashed by name; this project's code is
hashed by its code but never copied; the user's code (a script, a notebook, a
module in the current folder) is hashed and copied.
"""

from __future__ import annotations

import functools
import linecache
import re
import sys
import sysconfig
from pathlib import Path

#: Top-level packages of this project: their code is hashed but never copied.
PACKAGE_TOPS = frozenset({"ohhell_sim"})


@functools.cache
def _library_roots() -> tuple[str, ...]:
    # Where the interpreter's standard library and installed packages live.
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        paths.add(sysconfig.get_paths()[key])
    return tuple(sorted(str(Path(p).resolve()) for p in paths if p))


def module_kind(name: str | None) -> str:
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
    return "library" if is_library_path(path) else "user"


@functools.lru_cache(maxsize=4096)
def is_library_path(path: str) -> bool:
    """Whether a source file lies among the interpreter's libraries and installed packages."""
    resolved = str(Path(path).resolve())
    return any(resolved.startswith(root + "/") for root in _library_roots())


def is_user_function(function: object) -> bool:
    """Whether a Python function is user code (neither this package nor a library)."""
    return module_kind(getattr(function, "__module__", None)) == "user"


def is_library_function(function: object) -> bool:
    """Whether a Python function is a library's (neither this project's nor user code)."""
    return module_kind(getattr(function, "__module__", None)) == "library"


# The file names that IPython and Jupyter give the code of a cell.
_CELL_FILE = re.compile(r"(^<ipython-input-\d+-[0-9a-f]+>$)|(/ipykernel_\d+/\d+\.py$)")


def source_location(function: object) -> str:
    """``file:line`` of a (jitted) function's definition, for messages.

    A function defined in a notebook cell or by ``exec`` has no file on disk: its
    code's file name is given (``<string>``, the cell's name), followed for a
    cell by ``(a notebook cell: def ...)``, its ``def`` line, to find it by.
    """
    code = getattr(getattr(function, "py_func", function), "__code__", None)
    if code is None:
        return repr(function)
    path, line = code.co_filename, code.co_firstlineno
    where = f"{path}:{line}"
    if _CELL_FILE.search(path):
        first = linecache.getline(path, line).strip()
        while first.startswith("@"):  # the decorators, then the def
            line += 1
            first = linecache.getline(path, line).strip()
        where += f" (a notebook cell: {first})" if first else " (a notebook cell)"
    return where
