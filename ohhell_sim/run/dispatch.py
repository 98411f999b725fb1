"""Generate, load and cache the compiled kernel for a seating.

The kernel actually run is a small module written to the cache folder: the
dispatch over the seating's distinct strategies (built-in or user), the constant
``GENERAL_TABLES`` (whether it plays general or only plain tables,
:func:`needs_general_tables`), and a call of :func:`ohhell_sim.engine.game.bind`
that compiles the game loop against them.  Its name hashes the sources the
kernel compiles (:func:`kernel_sources`: the game loop and the package modules
it imports), each strategy's fingerprint (everything its code reaches, with the
values of the globals it reads: :mod:`ohhell_sim.strategy.code`), module file
and tables, whether the kernel is the check mode's, and Numba's global bounds
check setting, which solves three problems at once:

* Numba caches a function only when it lives in a source file, and a user
  strategy in a notebook has none: the dispatch calls it through the functions
  handed to the module (:func:`kernel_functions`).
* Numba checks only a function's own file before reusing a cached compile, so an
  edited rule primitive or strategy would otherwise run stale machine code; a new
  hash gives a new file and a fresh compile.  Editing a module the kernel
  does not compile (the CLI, the results frames, the studies) keeps the kernels.
* The kernel holds only the strategies it plays, which keeps the compile short:
  the first run of a new set of strategies compiles its file (seconds); later
  runs, in any process, load it from Numba's on-disk cache, and every seating of
  the same strategies reuses it.

The functions the dispatch calls are each strategy's code as it is now
(:meth:`~ohhell_sim.strategy.Strategy.current_functions`): compiled copies of
the user code, never the registered dispatchers, which may hold machine code
compiled before a helper or a global changed.  Each strategy receives its view
and parameter row read-only (:mod:`ohhell_sim.engine.readonly`).

For the same reason the rule primitives are compiled on demand in each process
(they are inlined into the kernel or linked into it), and a built-in strategy
that a kernel calls keeps its own compile on disk in a folder whose name hashes
every source file and table of the package (:func:`builtin_cache_folder`): a new
kernel, after a user strategy was edited between processes, links it rather than
compiling it again.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numba

from ohhell_sim.engine import game, readonly, slots
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Seating, Strategy
from ohhell_sim.strategy.code import strategy_fingerprint, strategy_functions
from ohhell_sim.strategy.compilation import shares_arrays
from ohhell_sim.strategy.disk_cache import PACKAGE_ROOT, cache_dir, kept_on_disk

_LOADED: dict[str, ModuleType] = {}


def kernel_for(seating: Seating, rules: Rules) -> ModuleType:
    """The kernel module able to play ``seating`` under ``rules`` (see the module docstring).

    A seating in check mode (``seating.checked``) gets a kernel of its own, which
    compiles the user strategies with bounds checks.
    """
    return _generated_kernel(
        seating.distinct_strategies, needs_general_tables(rules), seating.checked
    )


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
def kernel_sources() -> tuple[Path, ...]:
    """The package's source files that a kernel compiles: the game loop, the dispatch's helpers.

    Followed through the ``import`` statements of :mod:`ohhell_sim.engine.game`,
    :mod:`ohhell_sim.engine.readonly` and :mod:`ohhell_sim.engine.slots` (which
    the written dispatches import)
    within the package (the engine, the view, the rules and error codes), and of
    those modules in turn.
    """
    found: set[Path] = set()
    todo = [Path(m.__file__).resolve() for m in (game, readonly, slots)]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            files: list[Path | None] = []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # ``from package import module`` reads that module, not the
                # package's __init__ (which imports the whole library).
                for alias in node.names:
                    module = _package_file(f"{node.module}.{alias.name}")
                    files.append(module or _package_file(node.module))
            elif isinstance(node, ast.Import):
                files = [_package_file(a.name) for a in node.names]
            todo += [p for p in files if p is not None]
    return tuple(sorted(found))


def _package_file(module: str) -> Path | None:
    # The file of ``module`` when it is one of the package's, else None.
    parts = module.split(".")
    if parts[0] != PACKAGE_ROOT.name:
        return None
    base = PACKAGE_ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _digest_of(paths: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(PACKAGE_ROOT)).encode() + b"\x00" + path.read_bytes())
    return digest.hexdigest()


# Read when the engine is imported, not when the first kernel is named: a kernel
# compiles the code in memory, and a source file edited since must not lend it
# the name that a process running the edited code would look for.  This file
# writes the kernel's text, so an edit of it names new kernels too.
_SOURCES_DIGEST = _digest_of((*kernel_sources(), Path(__file__).resolve()))


def gets_copies(strategy: Strategy, checked: bool) -> bool:
    """Whether ``strategy`` receives private copies of its view and parameter row.

    A user strategy does, but where its compiled code can only read them
    (:func:`~ohhell_sim.strategy.compilation.shares_arrays`); in check mode
    always, as check mode is for code not yet trusted.  A built-in never does.
    """
    return strategy.builtin_id is None and (checked or not shares_arrays(strategy))


def _add_strategy(digest, strategy: Strategy, checked: bool) -> None:
    # The fingerprint covers everything the code reaches (strategy.code); the
    # strategy's module file and the tables beside it are hashed too, so that a
    # built-in's package data is covered even where it is read at import.
    digest.update(strategy_fingerprint(strategy).encode())
    # How the dispatch calls it: a user strategy's parameter row is cut to its length,
    # and copied for each decision unless its code only reads the arrays.
    builtin = strategy.builtin_id is not None
    digest.update(f"builtin={builtin} params={len(strategy.params)}".encode())
    digest.update(f"copies={gets_copies(strategy, checked)}".encode())
    for function in (strategy.bid, strategy.play):
        try:
            path = Path(inspect.getfile(function.py_func)).resolve()
        except (TypeError, OSError):  # defined in a notebook or the console
            continue
        if not path.is_file():
            continue
        digest.update(path.read_bytes())
        tables = path.parent / "tables"
        if tables.is_dir():
            for table in sorted(tables.iterdir()):
                if table.is_file():
                    digest.update(table.name.encode() + b"\x00" + table.read_bytes())


def shared_kernel(rules: Rules) -> ModuleType:
    """The shared kernel able to play every strategy under ``rules``.

    Its dispatch calls each seat's strategy through the table of
    :mod:`ohhell_sim.engine.slots` (filled by :mod:`ohhell_sim.run.strategy_slots`),
    so that it names no strategy: it compiles once per machine, version of the
    sources and kind of tables, and an edited strategy recompiles only its own
    functions.  Its name hashes what :func:`kernel_name` hashes but the strategies.
    """
    general = needs_general_tables(rules)
    digest = hashlib.sha256(_SOURCES_DIGEST.encode())
    digest.update(b"general" if general else b"plain")
    digest.update(f"shared boundscheck={numba.config.BOUNDSCHECK}".encode())
    path = cache_dir() / f"ohhell_shared_{digest.hexdigest()[:20]}.py"
    return load_generated(path, lambda: _shared_source(general))


def _shared_source(general: bool) -> str:
    tables = "general" if general else "plain"
    lines = [
        f'"""Shared kernel on {tables} tables, written by ohhell_sim.run.dispatch.',
        "",
        "Its game loop is ohhell_sim/engine/game.py, bound here to a dispatch that",
        "calls each strategy through the table of ohhell_sim/engine/slots.py.",
        '"""',
        "",
        "from numba import njit",
        "",
        "from ohhell_sim.engine.game import bind as _bind",
        "from ohhell_sim.engine.slots import SLOT_BID as _SLOT_BID",
        "from ohhell_sim.engine.slots import SLOT_PLAY as _SLOT_PLAY",
        "from ohhell_sim.engine.slots import call_slot as _call_slot",
    ]
    for role in ("bid", "play"):
        lines += [
            "",
            "",
            "@njit(inline='always')",
            f"def dispatch_{role}(sid, view, params, rng, own_view, own_params):",
            f"    return _call_slot(sid, _SLOT_{role.upper()}, view, params, rng, own_view, "
            "own_params)",
        ]
    lines += ["", "", f"GENERAL_TABLES = {general}", "", "_bind(globals(), __file__)", ""]
    return "\n".join(lines)


def kernel_name(strategies_used: tuple[Strategy, ...], general: bool, checked: bool) -> str:
    """The module name of the kernel for these strategies (see the module docstring)."""
    digest = hashlib.sha256(_SOURCES_DIGEST.encode())
    for strategy in strategies_used:
        _add_strategy(digest, strategy, checked)
    digest.update(b"general" if general else b"plain")
    # NUMBA_BOUNDSCHECK=1 compiles every function with bounds checks: a kernel of
    # its own, not one compiled without them.
    digest.update(f"checked={checked} boundscheck={numba.config.BOUNDSCHECK}".encode())
    return f"ohhell_kernel_{digest.hexdigest()[:20]}"


def kernel_path(strategies_used: tuple[Strategy, ...], general: bool, checked: bool) -> Path:
    """The file of that kernel in :func:`cache_dir` (it may not exist yet)."""
    return cache_dir() / f"{kernel_name(strategies_used, general, checked)}.py"


# The compiled functions each kernel module dispatches to, by kernel name: set
# just before the module runs, which takes them (kernel_functions).
_FUNCTIONS: dict[str, tuple] = {}


def kernel_functions(name: str) -> tuple:
    """The dispatchers of kernel module ``name``: ``bid``, ``play`` of each strategy in turn."""
    return _FUNCTIONS[name]


def _generated_kernel(
    strategies_used: tuple[Strategy, ...], general: bool, checked: bool
) -> ModuleType:
    path = kernel_path(strategies_used, general, checked)
    if path.stem not in _LOADED:
        _FUNCTIONS[path.stem] = tuple(
            f for s in strategies_used for f in _kernel_copies(s, strategies_used, checked)
        )
    return load_generated(path, lambda: _kernel_source(strategies_used, general, checked))


def load_generated(path: Path, source: Callable[[], str]) -> ModuleType:
    """Import the generated module ``path``, writing it from ``source()`` if it is missing.

    The module is named by its file's stem and imported once per process.  Its
    name must say everything it compiles (as :func:`kernel_name` does), since
    Numba reuses the on-disk cache of an unchanged file.
    """
    name = path.stem
    if name in _LOADED:
        return _LOADED[name]
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # Write then rename, so that a concurrent process never imports half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source(), encoding="utf-8")
        tmp.replace(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _LOADED[name] = module
    return module


def _kernel_source(strategies_used: tuple[Strategy, ...], general: bool, checked: bool) -> str:
    names = ", ".join(s.name for s in strategies_used)
    tables = "general" if general else "plain"
    return "\n".join(
        [
            f'"""Kernel for {names} on {tables} tables, written by ohhell_sim.run.dispatch.',
            "",
            "Its game loop is ohhell_sim/engine/game.py, bound here to this dispatch;",
            "Numba's messages give that file's line numbers under this file's name.",
            '"""',
            "",
            _dispatch_source(strategies_used, checked),
            "",
            "",
            f"GENERAL_TABLES = {general}",
            "",
            "_bind(globals(), __file__)",
            "",
        ]
    )


#: Kernels of at most this many distinct strategies inline every one of them.
INLINE_ALL_UP_TO = 2


def _kernel_copies(strategy: Strategy, strategies_used: tuple[Strategy, ...], checked: bool):
    # Inlining a strategy into the game loop saves a call per decision (card_counter:
    # 0.69-0.74 M deals/s inlined, 0.54-0.56 M called, one thread), but costs
    # compile time.  So a strategy declared @njit(inline="always") is always
    # inlined, and in a kernel of few strategies (a benchmark, a head-to-head, a
    # big single-strategy study) every strategy is, but for heavy ones (Monte
    # Carlo: a call is nothing beside a decision, and inlining one more than
    # doubles the compile); a larger mix (a tournament) calls the others, and
    # compiles in a fraction of the time.  Checked user code is never inlined:
    # inlined code would be compiled without its bounds checks.
    inline = len(strategies_used) <= INLINE_ALL_UP_TO and not strategy.heavy
    return kept_on_disk(strategy, strategy_functions(strategy, checked=checked, inline=inline))


def _dispatch_source(strategies_used: tuple[Strategy, ...], checked: bool) -> str:
    # Every strategy sees its view and parameter row read-only, a user strategy's
    # row cut to its parameters; one whose code may reach their memory otherwise
    # than to read it sees copies of its own (engine.readonly).
    functions = ", ".join(f"_s{i}_bid, _s{i}_play" for i in range(len(strategies_used)))
    lines = [
        "from numba import njit",
        "",
        "from ohhell_sim.run.dispatch import kernel_functions as _kernel_functions",
        "from ohhell_sim.engine.game import bind as _bind",
        "from ohhell_sim.engine.readonly import private_copy as _private_copy",
        "from ohhell_sim.engine.readonly import read_only as _read_only",
        "",
        f"({functions},) = _kernel_functions(__name__)",
    ]
    calls = []
    for strategy in strategies_used:
        if strategy.builtin_id is not None:
            calls.append("(_read_only(view), _read_only(params), rng)")
        elif not gets_copies(strategy, checked):
            calls.append(f"(_read_only(view), _read_only(params[:{len(strategy.params)}]), rng)")
        else:
            calls.append(
                "(_private_copy(view, own_view, view.shape[0]), "
                f"_private_copy(params, own_params, {len(strategy.params)}), rng)"
            )
    for role in ("bid", "play"):
        lines += [
            "",
            "",
            "@njit(inline='always')",
            f"def dispatch_{role}(sid, view, params, rng, own_view, own_params):",
        ]
        last = len(strategies_used) - 1
        for i in range(last):
            lines += [f"    if sid == {i}:", f"        return _s{i}_{role}{calls[i]}"]
        lines.append(f"    return _s{last}_{role}{calls[last]}")
    return "\n".join(lines)
