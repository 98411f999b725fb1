"""Oh Hell as a PettingZoo AEC environment (``pip install ohhell-sim[rl]``).

:func:`env` and :func:`raw_env` are the factories of PettingZoo's convention:
``raw_env(**kwargs)`` is the bare :class:`OhHellEnv`, ``env(**kwargs)`` the same
behind the wrappers PettingZoo's own classic environments use.

Agents ``player_0 .. player_{n-1}`` sit in seats ``0 .. n-1`` and take turns as
the game asks them: bids from the dealer's left, then cards.  Every variant of
:class:`~ohhell_sim.rules.Rules` plays.  Each agent observes a dict:
``"observation"``, the vector of :class:`~ohhell_sim.env.observation.ObservationLayout`
(what that player may know, no more), and ``"action_mask"``, its legal actions
(:func:`~ohhell_sim.env.observation.action_mask`).  The reward is the points each
player scores in a deal, given when the deal ends.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ohhell_sim import view as V
from ohhell_sim.env.observation import (
    ObservationLayout,
    action_count,
    action_mask,
    move_of_action,
)
from ohhell_sim.env.stepper import GameStepper, check_episode, next_game, render_game
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules


class OhHellEnv(AECEnv):
    """Oh Hell for ``rules.players`` agents, one game (or one deal) per episode.

    Parameters
    ----------
    rules : Rules, optional
        The game (default: the canonical game of four players).
    episode : {"game", "deal"}
        An episode is a whole game, or its first deal only.
    render_mode : {"ansi", "human"}, optional
        ``render()`` returns the readable log of the deals so far ("ansi") or
        prints it ("human").

    Notes
    -----
    ``reset(seed=s)`` starts game 0 of the run seeded ``s``; each later
    ``reset()`` without a seed starts the run's next game;
    ``reset(options={"game": g})`` starts game ``g``.  Game ``g`` of seed
    ``s`` deals the cards of game ``g`` of ``ohhell_sim.simulate(..., seed=s)``.
    """

    metadata: ClassVar[dict] = {
        "name": "ohhell_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: Rules | None = None, episode: str = "game", render_mode: str | None = None
    ) -> None:
        super().__init__()
        check_episode(episode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        self.rules = Rules(players=4) if rules is None else rules
        self.episode = episode
        self.render_mode = render_mode
        self.layout = ObservationLayout(self.rules)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(*self.layout.bounds(), (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (action_count(self.rules),), np.int8),
            }
        )
        self._action_space = spaces.Discrete(action_count(self.rules))
        self._run_seed: int | None = None
        self._game = -1
        self.stepper: GameStepper | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same for every agent: the vector and the action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """Cards ``0..52``, then bids ``53 + b``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game: game 0 of run ``seed``, or the run's next game."""
        self._run_seed, self._game = next_game(self._run_seed, self._game, seed, options)
        self.stepper = GameStepper(
            self.rules,
            self.possible_agents,
            self._run_seed,
            self._game,
            one_deal=self.episode == "deal",
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._last_seen: dict[str, np.ndarray] = {}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now: its view of the table, and its legal actions.

        An agent that is not to move sees the table as of its last decision
        (all zeros before its first); its mask is all zeros.
        """
        decision = self.stepper.decision
        if decision is not None and decision.seat == self._seats[agent]:
            return {
                "observation": self.layout.encode(decision.view),
                "action_mask": action_mask(decision.view, self.rules),
            }
        seen = self._last_seen.get(agent)
        observation = np.zeros(self.layout.size, np.float32) if seen is None else seen
        return {
            "observation": observation,
            "action_mask": np.zeros(action_count(self.rules), np.int8),
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (``None`` for a finished agent).

        Raises
        ------
        IllegalMoveError
            For an action its mask does not allow.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.stepper.decision
        self._last_seen[agent] = self.layout.encode(decision.view)
        self._cumulative_rewards[agent] = 0
        self.stepper.move(move_of_action(int(action), int(decision.view[V.PHASE])))
        points = self.stepper.take_points()
        for name, seat in self._seats.items():
            self.rewards[name] = points[seat]
        if self.stepper.done:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deals so far in words (``render_mode`` "ansi"), or print them ("human")."""
        return render_game(self.stepper, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def _select(self) -> None:
        decision = self.stepper.decision
        if decision is None:
            # The game is over: finished agents step out in seat order.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[decision.seat]


def raw_env(**kwargs) -> OhHellEnv:
    """The bare environment, as PettingZoo's ``raw_env``: ``OhHellEnv(**kwargs)``.

    Parameters
    ----------
    **kwargs
        ``rules``, ``episode`` and ``render_mode`` of :class:`OhHellEnv`.
    """
    return OhHellEnv(**kwargs)


def env(illegal_reward: float = -100.0, **kwargs) -> AECEnv:
    """The environment as PettingZoo's own ``env()``: :func:`raw_env` behind the standard wrappers.

    ``TerminateIllegalWrapper`` ends the game at an action the mask forbids
    (the mover gets ``illegal_reward``, the others 0) instead of raising,
    ``AssertOutOfBoundsWrapper`` refuses an action outside the action space and
    ``OrderEnforcingWrapper`` a step before ``reset()``.

    Parameters
    ----------
    illegal_reward : float
        Reward of an agent that plays an action its mask forbids.
    **kwargs
        ``rules``, ``episode`` and ``render_mode`` of :class:`OhHellEnv`.

    Raises
    ------
    InvalidArgumentError
        For an ``illegal_reward`` that is not a number, or a bad argument of
        :class:`OhHellEnv`.
    """
    if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, numbers.Real):
        raise InvalidArgumentError(f"illegal_reward must be a number, got {illegal_reward!r}")
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
