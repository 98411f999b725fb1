"""ohhell-sim: fast, reproducible simulation of the card game Oh Hell.

>>> import ohhell_sim as oh
>>> result = oh.simulate(oh.Rules(players=4), ["simple", "random", "simple", "random"], games=100)
>>> result.games.groupby("strategy", observed=True)["total"].mean()  # doctest: +SKIP

The public names below are imported when first used, so that importing the
package (or the ``ohhell`` command, to print its help) loads neither Numba nor
pandas.  The registry (:mod:`ohhell_sim.strategy`) registers the built-in
strategies before its first lookup.
"""

from __future__ import annotations

import importlib
import sys
import types

from ohhell_sim._version import __version__ as __version__

#: Public name -> the module that defines it.
_EXPORTS = {
    "GameLog": "ohhell_sim.reference",
    "IllegalMoveError": "ohhell_sim.errors",
    "Rules": "ohhell_sim.rules",
    "RunInterrupted": "ohhell_sim.errors",
    "RunSummary": "ohhell_sim.summary",
    "SimulationResult": "ohhell_sim.results",
    "Strategy": "ohhell_sim.strategy",
    "StrategyCheck": "ohhell_sim.run.strategy_check",
    "StrategyError": "ohhell_sim.errors",
    "TournamentResult": "ohhell_sim.tournament",
    "advise": "ohhell_sim.decisions",
    "analyse_decisions": "ohhell_sim.decisions",
    "available_strategies": "ohhell_sim.strategy",
    "check_strategy": "ohhell_sim.run.strategy_check",
    "get_strategy": "ohhell_sim.strategy",
    "read_frame": "ohhell_sim.results",
    "read_results": "ohhell_sim.results",
    "register_strategy": "ohhell_sim.strategy",
    "replay": "ohhell_sim.reference",
    "simulate": "ohhell_sim.simulate",
    "summarise": "ohhell_sim.summary",
    "tournament": "ohhell_sim.tournament",
    "unregister_strategy": "ohhell_sim.strategy",
}

__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str) -> object:
    """Import a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ohhell_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


class _Package(types.ModuleType):
    """The package: ``simulate`` and ``tournament`` stay the functions.

    Importing a submodule sets it as an attribute of its package; the modules
    ``ohhell_sim.simulate`` and ``ohhell_sim.tournament`` would then hide the
    functions of the same name.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == value.__name__:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
