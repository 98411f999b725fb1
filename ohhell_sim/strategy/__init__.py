"""The strategy framework: the record, the registry, and how a strategy's code is trusted.

* :mod:`~ohhell_sim.strategy.record`: the :class:`Strategy` record, the one place a
  strategy's metadata lives (the built-ins import it, and the tools, nothing else);
* :mod:`~ohhell_sim.strategy.tools`: Numba helpers for writing strategies;
* :mod:`~ohhell_sim.strategy.registry`: registering strategies, looking them up,
  and resolving a run's seats into a :class:`Seating`;
* :mod:`~ohhell_sim.strategy.origin`: whether code is the user's, this project's
  or a library's, and where a function is defined;
* :mod:`~ohhell_sim.strategy.code`: a strategy's fingerprint and compiled copies of
  its code as it is now; :mod:`~ohhell_sim.strategy.extensions`: the Numba
  extensions that code reaches;
* :mod:`~ohhell_sim.strategy.params`, :mod:`~ohhell_sim.strategy.memory` and
  :mod:`~ohhell_sim.strategy.compilation`: the checks made when a user strategy is
  registered and compiled (the parameters it reads, whether it writes into its
  view, and a compile of it alone).

The built-ins import the record and the tools only; the registry imports the
built-ins' package on its first lookup, not when it loads.
"""

from __future__ import annotations

from ohhell_sim.strategy.code import strategy_fingerprint, strategy_functions
from ohhell_sim.strategy.record import COSTS, Strategy
from ohhell_sim.strategy.registry import (
    Seating,
    SeatSpec,
    available_strategies,
    builtin_strategies,
    check_plays,
    check_seating,
    get_strategy,
    register_strategy,
    resolve_seating,
    unregister_strategy,
)

__all__ = [
    "COSTS",
    "SeatSpec",
    "Seating",
    "Strategy",
    "available_strategies",
    "builtin_strategies",
    "check_plays",
    "check_seating",
    "get_strategy",
    "register_strategy",
    "resolve_seating",
    "strategy_fingerprint",
    "strategy_functions",
    "unregister_strategy",
]
