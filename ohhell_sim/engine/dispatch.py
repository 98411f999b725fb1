"""Generate, load and cache the compiled kernel for a seating.

The kernel actually run is a file written to the cache folder: the source of the
template :mod:`ohhell_sim.engine.kernel`, followed by a dispatch over the
seating's distinct strategies (built-in or user) and whether it plays general or
only plain tables (:func:`needs_general_tables`).  Its name hashes the source of
the whole package (and the strategies' tables), each strategy's code and that
choice, which solves three problems at once:

* Numba caches a function only when it lives in a source file, and a user
  strategy in a notebook has none: the dispatch refers to it through the registry.
* Numba checks only a function's own file before reusing a cached compile, so an
  edited rule primitive or strategy would otherwise run stale machine code; a new
  source hash gives a new file and a fresh compile.
* The kernel holds only the strategies it plays, which keeps the compile short:
  the first run of a new set of strategies compiles its file (seconds); later
  runs, in any process, load it from Numba's on-disk cache, and every seating of
  the same strategies reuses it.

For the same reason only the generated kernel is cached on disk: every other
jitted function of the package (the rule primitives and the strategies, which are
inlined into the kernel) is compiled on demand in each process.
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
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Seating, Strategy

_LOADED: dict[str, ModuleType] = {}


def cache_dir() -> Path:
    """Folder for generated kernels: ``$OHHELL_CACHE_DIR`` or ``~/.cache/ohhell-sim``."""
    root = os.environ.get("OHHELL_CACHE_DIR")
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ohhell-sim"


def kernel_for(seating: Seating, rules: Rules) -> ModuleType:
    """The kernel module able to play ``seating`` under ``rules`` (see the module docstring)."""
    return _generated_kernel(seating.distinct_strategies, needs_general_tables(rules))


def needs_general_tables(rules: Rules) -> bool:
    """Whether ``rules`` need the kernel's general tables, or a plain-table kernel does.

    A plain table has one deck without the joker, no cards passed (swap) or hidden
    from their holder (forehead), and every player in every deal (no catastrophe
    elimination, no tie-break deal among the leaders).  Scoring, bidding, trump and
    schedule variants all play on plain tables.  A plain-table kernel leaves the
    other variants' code out: on the canonical 10-card deal, 24-29% more deals
    per second for ``random`` and 2-9% for ``simple`` than the general kernel.  A
    strategy set used under both kinds of rules compiles two kernels.
    """
    return (
        rules.decks > 1
        or rules.joker
        or rules.swap > 0
        or rules.forehead
        or rules.fault_limit > 0
        or rules.tiebreak
    )


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


def _generated_kernel(strategies_used: tuple[Strategy, ...], general: bool) -> ModuleType:
    template = Path(template_kernel.__file__).read_text(encoding="utf-8")
    digest = hashlib.sha256(_package_digest().encode())
    for strategy in strategies_used:
        digest.update(strategy.fingerprint().encode())
    digest.update(b"general" if general else b"plain")
    name = f"ohhell_kernel_{digest.hexdigest()[:20]}"
    if name in _LOADED:
        return _LOADED[name]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists():
        dispatch = _dispatch_source(strategies_used)
        source = (
            f"{template}\n\n# --- generated ---\n\n"
            f"GENERAL_TABLES = {general}\n\n{dispatch}\n"
        )
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


#: Kernels of at most this many distinct strategies inline every one of them.
INLINE_ALL_UP_TO = 2


def _dispatch_source(strategies_used: tuple[Strategy, ...]) -> str:
    # Inlining a strategy into the game loop saves a call per decision (card_counter:
    # 0.69-0.74 M deals/s inlined, 0.54-0.56 M called, one thread), but costs
    # compile time.  So a strategy declared @njit(inline="always") is always
    # inlined, and in a kernel of few strategies (a benchmark, a head-to-head, a
    # big single-strategy study) every strategy is, but for heavy ones (Monte
    # Carlo: a call is nothing beside a decision, and inlining one more than
    # doubles the compile); a larger mix (a tournament) calls the others, and
    # compiles in a fraction of the time.
    inline_all = len(strategies_used) <= INLINE_ALL_UP_TO
    lines = [
        "from numba import njit",
        "",
        "from ohhell_sim.strategy import get_strategy as _get_strategy",
        "",
    ]
    for i, strategy in enumerate(strategies_used):
        lines.append(f"_s{i} = _get_strategy({strategy.name!r})")
        for role in ("bid", "play"):
            function = getattr(strategy, role)
            declared = function.targetoptions.get("inline") == "always"
            if inline_all and not declared and not strategy.heavy:
                lines.append(f"_s{i}_{role} = njit(inline='always')(_s{i}.{role}.py_func)")
            else:
                lines.append(f"_s{i}_{role} = _s{i}.{role}")
    for role in ("bid", "play"):
        lines += ["", "", "@njit(inline='always')", f"def dispatch_{role}(sid, view, params, rng):"]
        last = len(strategies_used) - 1
        for i in range(last):
            lines += [f"    if sid == {i}:", f"        return _s{i}_{role}(view, params, rng)"]
        lines.append(f"    return _s{last}_{role}(view, params, rng)")
    return "\n".join(lines)
