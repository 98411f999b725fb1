"""Find the compiled kernel for a seating, generating one for user strategies.

The kernel actually run is a copy of :mod:`ohhell_sim.engine.kernel` written to
the cache folder, under a name that hashes the source of the whole package (and
of the built-in strategies) and the code of any user strategies.  Two problems
are solved at once:

* Numba caches a function only when it lives in a source file, and a seating
  with user strategies needs a dispatch that can call them: in the copy, the
  dispatch import (the line marked ``dispatch-import``) is replaced by an if/elif
  over the built-ins and the user strategies.
* Numba checks only the caller's own file before reusing a cached compile, so an
  edited rule primitive or strategy would otherwise run stale machine code; a new
  source hash gives a new file and a fresh compile.

The first run of a new package version or a new set of user strategies compiles
its file (a few seconds); later runs, in any process, load it from Numba's
on-disk cache, and every seating of the same strategies reuses it.

For the same reason only the generated kernel is cached on disk: every other
jitted function of the package (the rule primitives and the strategies, which are
inlined into the kernel anyway) is compiled on demand in each process.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import ohhell_sim
import strategies
from ohhell_sim.engine import kernel as template_kernel
from ohhell_sim.engine.builtin_dispatch import N_BUILTIN
from ohhell_sim.strategy import Seating, Strategy

_MARKER = "# dispatch-import"
_LOADED: dict[str, ModuleType] = {}


def cache_dir() -> Path:
    """Folder for generated kernels: ``$OHHELL_CACHE_DIR`` or ``~/.cache/ohhell-sim``."""
    root = os.environ.get("OHHELL_CACHE_DIR")
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ohhell-sim"


def kernel_for(seating: Seating) -> ModuleType:
    """The kernel module able to play ``seating`` (see the module docstring)."""
    return _generated_kernel(seating.user_strategies)


@functools.cache
def _package_digest() -> str:
    digest = hashlib.sha256()
    for package in (ohhell_sim, strategies):
        root = Path(package.__file__).parent
        # Sources, and the tables that strategies load into compiled constants.
        paths = [p for p in root.rglob("*") if p.suffix in (".py", ".npy", ".npz", ".json")]
        for path in sorted(paths):
            digest.update(str(path.relative_to(root)).encode() + b"\x00" + path.read_bytes())
    return digest.hexdigest()


def _generated_kernel(users: tuple[Strategy, ...]) -> ModuleType:
    template = Path(template_kernel.__file__).read_text(encoding="utf-8")
    digest = hashlib.sha256(_package_digest().encode())
    for strategy in users:
        digest.update(strategy.fingerprint().encode())
    name = f"ohhell_kernel_{digest.hexdigest()[:20]}"
    if name in _LOADED:
        return _LOADED[name]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists():
        source = template
        if users:
            source = template.replace(_dispatch_import_line(template), _dispatch_source(users))
        # Write then rename, so that a concurrent process never imports half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        tmp.replace(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _LOADED[name] = module
    return module


def _dispatch_import_line(template: str) -> str:
    for line in template.splitlines():
        if line.rstrip().endswith(_MARKER):
            return line
    raise RuntimeError("kernel template lost its dispatch-import marker")


def _dispatch_source(users: tuple[Strategy, ...]) -> str:
    # User functions are re-jitted with inline="always" from their Python source,
    # so they are inlined into the game loop exactly like the built-ins.
    lines = [
        "from ohhell_sim.engine.builtin_dispatch import dispatch_bid as _builtin_bid",
        "from ohhell_sim.engine.builtin_dispatch import dispatch_play as _builtin_play",
        "from ohhell_sim.strategy import get_strategy as _get_strategy",
        "",
    ]
    for i, strategy in enumerate(users):
        lines += [
            f"_user_{i} = _get_strategy({strategy.name!r})",
            f"_user_{i}_bid = njit(inline='always')(_user_{i}.bid.py_func)",
            f"_user_{i}_play = njit(inline='always')(_user_{i}.play.py_func)",
        ]
    for role in ("bid", "play"):
        lines += [
            "",
            "",
            "@njit(cache=True, inline='always')",
            f"def dispatch_{role}(sid, view, params, rng):",
            f"    if sid < {N_BUILTIN}:",
            f"        return _builtin_{role}(sid, view, params, rng)",
        ]
        for i in range(len(users)):
            keyword = "if" if i == 0 else "elif"
            lines += [
                f"    {keyword} sid == {N_BUILTIN + i}:",
                f"        return _user_{i}_{role}(view, params, rng)",
            ]
        lines.append("    return -1")
    return "\n".join(lines)
