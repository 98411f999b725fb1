"""ohhell-sim: fast, reproducible simulation of the card game Oh Hell.

>>> import ohhell_sim as oh
>>> result = oh.simulate(oh.Rules(players=4), ["simple", "random", "simple", "random"], games=100)
>>> result.games.groupby("strategy", observed=True)["total"].mean()  # doctest: +SKIP
"""

# Registers the built-in strategies.  Python runs this file before any module of
# the package, so the registry (ohhell_sim.strategy, a leaf the built-ins import)
# holds them by the time any code looks a name up.
from ohhell_sim import strategies  # noqa: F401
from ohhell_sim._version import __version__
from ohhell_sim.decisions import advise, analyse_decisions
from ohhell_sim.errors import IllegalMoveError, RunInterrupted, StrategyError
from ohhell_sim.reference import GameLog, replay
from ohhell_sim.results import SimulationResult, read_frame, read_results
from ohhell_sim.rules import Rules
from ohhell_sim.run.strategy_check import StrategyCheck, check_strategy
from ohhell_sim.simulate import simulate
from ohhell_sim.strategy import (
    Strategy,
    available_strategies,
    get_strategy,
    register_strategy,
    unregister_strategy,
)
from ohhell_sim.summary import RunSummary, summarise
from ohhell_sim.tournament import TournamentResult, tournament

__all__ = [
    "GameLog",
    "IllegalMoveError",
    "Rules",
    "RunInterrupted",
    "RunSummary",
    "SimulationResult",
    "Strategy",
    "StrategyCheck",
    "StrategyError",
    "TournamentResult",
    "__version__",
    "advise",
    "analyse_decisions",
    "available_strategies",
    "check_strategy",
    "get_strategy",
    "read_frame",
    "read_results",
    "register_strategy",
    "replay",
    "simulate",
    "summarise",
    "tournament",
    "unregister_strategy",
]
