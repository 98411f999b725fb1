"""Find the compiled kernel for a seating, generating one for user strategies.

Seatings of built-in strategies use :mod:`ohhell_sim.engine.kernel`, cached in the
package.  A seating with user strategies needs a dispatch that can call them, and
Numba caches a function only when it lives in a source file, so this module
writes one: a copy of the kernel module whose dispatch import is replaced by an
if/elif over the built-ins and the user strategies, saved in the cache folder
under a name that hashes the package version and each user strategy's code.
The first run of a new set of user strategies compiles that file (about as long
as the package kernel's first compile); later runs, in any process, load it from
Numba's on-disk cache.  Other seatings of the same strategies reuse it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from ohhell_sim.engine import kernel as builtin_kernel
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
    users = seating.user_strategies
    if not users:
        return builtin_kernel
    return _user_kernel(users)


def _user_kernel(users: tuple[Strategy, ...]) -> ModuleType:
    from ohhell_sim import __version__

    template = Path(builtin_kernel.__file__).read_text(encoding="utf-8")
    digest = hashlib.sha256(__version__.encode() + template.encode())
    for strategy in users:
        digest.update(strategy.fingerprint().encode())
    name = f"ohhell_kernel_{digest.hexdigest()[:20]}"
    if name in _LOADED:
        return _LOADED[name]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists():
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
