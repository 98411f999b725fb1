"""Where code comes from: this project, an installed library, or the user.

Strategy code is followed differently by origin (:mod:`ohhell_sim.strategy.code`):
library code (NumPy, Numba, the standard library, installed packages) does not
change while a process runs and is hashed by name; this project's code is
hashed by its code but never copied; the user's code (a script, a notebook, a
module in the current folder) is hashed and copied.

A file is a library's when it is the interpreter's standard library, lies in a
folder where installers put packages (the environment's and the user's
site-packages), or is a file of an installed distribution (its ``RECORD``; a
``pip install --target`` folder on ``PYTHONPATH``).  Where a file lies under the
environment's prefix says nothing more: a project may hold its environment
(``python -m venv .``), and its own code stays the user's.
"""

from __future__ import annotations

import functools
import importlib.metadata
import linecache
import re
import site
import sys
import sysconfig
from pathlib import Path

import numba

#: Top-level packages of this project: their code is hashed but never copied.
PACKAGE_TOPS = frozenset({"ohhell_sim"})


@functools.cache
def _library_roots() -> tuple[str, ...]:
    # The standard library, and the folders installers put packages in.
    paths = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.update(site.getsitepackages() if hasattr(site, "getsitepackages") else ())
    paths.add(site.getusersitepackages())
    return tuple(sorted(str(Path(p).resolve()) for p in paths if p))


@functools.cache
def _installed_tops() -> dict[str, frozenset[str]]:
    """Folder holding installed distributions -> the top-level names their files make.

    Only distributions with a ``RECORD`` (what an installer wrote): an
    ``.egg-info`` beside a project's sources lists those sources, which stay the
    user's, and an editable install records only its finder.
    """
    tops: dict[str, set[str]] = {}
    for dist in importlib.metadata.distributions():
        if dist.read_text("RECORD") is None:
            continue
        names = tops.setdefault(str(Path(dist.locate_file("")).resolve()), set())
        for file in dist.files or ():
            top = file.parts[0] if file.parts else ""
            if top and top not in ("..", "__pycache__") and not top.endswith(".dist-info"):
                names.add(top)
    return {folder: frozenset(names) for folder, names in tops.items()}


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
    """Whether a source file is the standard library's or an installed package's (see above)."""
    resolved = str(Path(path).resolve())
    if any(resolved.startswith(root + "/") for root in _library_roots()):
        return True
    for folder, names in _installed_tops().items():
        if resolved.startswith(folder + "/"):
            top = resolved[len(folder) + 1 :].split("/", 1)[0]
            if top in names:
                return True
    return False


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


def is_dispatcher(value: object) -> bool:
    """Whether ``value`` is a Numba ``@njit`` function (a dispatcher)."""
    return isinstance(value, numba.core.dispatcher.Dispatcher)
