"""Oh Hell for game-AI research: PettingZoo, Gymnasium and a batched Numba environment.

``BatchedEnv`` (:mod:`ohhell_sim.env.batched`) steps thousands of tables at once
inside Numba, with strategies in the seats that do not learn.
``OhHellEnv`` (:mod:`ohhell_sim.env.aec`) seats one agent per player, and
``env()`` / ``raw_env()`` make it as PettingZoo's own environments are made
(``env()`` with PettingZoo's standard wrappers);
``OhHellSeatEnv`` (:mod:`ohhell_sim.env.seat`, registered with Gymnasium as
``ohhell_sim/OhHellSeat-v0``) seats one learning agent against strategies.  Both
need the ``rl`` extra (``pip install "ohhell-sim[rl]"``).  Both step the
reference engine's game (:func:`ohhell_sim.reference.game_steps`), so a game
played through them with the moves of a run is that run's game; observations
and actions are laid out in :mod:`ohhell_sim.env.observation`.
"""

from __future__ import annotations

from importlib import import_module

from ohhell_sim.env.batched import LEARNER, BatchedEnv
from ohhell_sim.env.observation import (
    BID_ACTION,
    N_CARDS,
    ObservationLayout,
    action_count,
    action_mask,
    action_of_move,
    move_of_action,
)
from ohhell_sim.env.stepper import GameStepper

_NEEDS_EXTRA = {
    "OhHellEnv": "ohhell_sim.env.aec",
    "OhHellSeatEnv": "ohhell_sim.env.seat",
    "env": "ohhell_sim.env.aec",
    "raw_env": "ohhell_sim.env.aec",
}

__all__ = [
    "BID_ACTION",
    "LEARNER",
    "N_CARDS",
    "BatchedEnv",
    "GameStepper",
    "ObservationLayout",
    "OhHellEnv",
    "OhHellSeatEnv",
    "action_count",
    "action_mask",
    "action_of_move",
    "env",
    "move_of_action",
    "raw_env",
]


def __getattr__(name: str):
    # The environments import PettingZoo and Gymnasium, which only the rl extra installs.
    if name not in _NEEDS_EXTRA:
        raise AttributeError(f"module 'ohhell_sim.env' has no attribute {name!r}")
    try:
        module = import_module(_NEEDS_EXTRA[name])
    except ModuleNotFoundError as missing:
        raise ImportError(
            f"ohhell_sim.env.{name} needs {missing.name!r}: "
            'pip install "ohhell-sim[rl]" (PettingZoo and Gymnasium)'
        ) from missing
    return getattr(module, name)
