"""One learning seat as a Gymnasium environment (``pip install ohhell-sim[rl]``).

The agent plays seat ``seat``; the other seats play registered strategies
(built-in or user), exactly as they would in :func:`ohhell_sim.simulate`: same
parameters, same random streams.  Observations are the vectors of
:class:`~ohhell_sim.env.observation.ObservationLayout`; the legal actions are
``info["action_mask"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ohhell_sim import view as V
from ohhell_sim.env.observation import (
    ObservationLayout,
    action_count,
    action_mask,
    move_of_action,
)
from ohhell_sim.env.stepper import GameStepper, check_episode, next_game, render_game
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.reference import strategy_answer
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import SeatSpec, check_seating

#: The name of the learning seat in the game log.
AGENT_NAME = "agent"


class OhHellSeatEnv(gymnasium.Env):
    """Oh Hell from one seat, against strategies in the others.

    Parameters
    ----------
    rules : Rules, optional
        The game (default: the canonical game of four players).
    opponents : sequence of seat specs, optional
        One strategy per other seat, in seat order skipping ``seat``, as for
        :func:`ohhell_sim.simulate` (default: ``"simple"`` everywhere).
    seat : int
        The agent's seat.
    episode : {"game", "deal"}
        An episode is a whole game, or its first deal only.
    illegal_reward : float
        An illegal action ends the episode with this reward and
        ``info["illegal_action"]`` set (a learner meets no exception mid-batch).
    render_mode : {"ansi", "human"}, optional

    Notes
    -----
    The reward of a step is the agent's points in the deals that ended during
    it.  ``reset(seed=s)`` starts game 0 of run ``s``; a later ``reset()``
    without a seed starts the run's next game; ``reset(options={"game": g})``
    starts game ``g``.
    """

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        rules: Rules | None = None,
        opponents: Sequence[SeatSpec] | None = None,
        seat: int = 0,
        episode: str = "game",
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = Rules(players=4) if rules is None else rules
        n = self.rules.players
        check_episode(episode)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidArgumentError(f"seat must be a seat 0..{n - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        others = ["simple"] * (n - 1) if opponents is None else list(opponents)
        if len(others) != n - 1:
            raise InvalidArgumentError(
                f"opponents must name one strategy per other seat ({n - 1}), got {others!r}"
            )
        # The agent's own seat needs a placeholder in the seating; it is never asked.
        self.seating = check_seating(self.rules, [*others[:seat], "random", *others[seat:]])
        self.seat = seat
        self.episode = episode
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.layout = ObservationLayout(self.rules)
        self.observation_space = spaces.Box(*self.layout.bounds(), (self.layout.size,), np.float32)
        self.action_space = spaces.Discrete(action_count(self.rules))
        self._names = [
            AGENT_NAME if s == seat else name for s, name in enumerate(self.seating.names)
        ]
        self._run_seed: int | None = None
        self._game = -1
        self._over = True
        self.stepper: GameStepper | None = None

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and play up to the agent's first decision."""
        super().reset(seed=seed)
        self._run_seed, self._game = next_game(self._run_seed, self._game, seed, options)
        others = [s for s in range(self.rules.players) if s != self.seat]
        self.stepper = GameStepper(
            self.rules,
            self._names,
            self._run_seed,
            self._game,
            auto=strategy_answer(self.seating, self._run_seed, self._game),
            auto_seats=others,
            one_deal=self.episode == "deal",
        )
        self._over = False
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play ``action``; the other seats move until the agent's next decision."""
        decision = None if self._over else self.stepper.decision
        if decision is None:
            raise RuntimeError("the episode is over; call reset()")
        mask = action_mask(decision.view, self.rules)
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            self._over = True
            info = self._info()
            info["illegal_action"] = int(action)
            return self._observation(), self.illegal_reward, True, False, info
        self.stepper.move(move_of_action(int(action), int(decision.view[V.PHASE])))
        reward = float(self.stepper.take_points()[self.seat])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self.stepper.done, False, self._info()

    def render(self) -> str | None:
        """The deals so far in words ("ansi"), or print them ("human")."""
        return render_game(self.stepper, self.render_mode)

    def _observation(self) -> np.ndarray:
        decision = self.stepper.decision
        if decision is None:
            return np.zeros(self.layout.size, np.float32)
        return self.layout.encode(decision.view)

    def _info(self) -> dict[str, Any]:
        decision = self.stepper.decision
        if decision is None:
            return {"action_mask": np.zeros(action_count(self.rules), np.int8)}
        return {"action_mask": action_mask(decision.view, self.rules)}


gymnasium.register(id="ohhell_sim/OhHellSeat-v0", entry_point=OhHellSeatEnv)
