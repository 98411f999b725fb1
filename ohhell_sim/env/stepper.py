"""One game, stepped one decision at a time, for the environments.

The game is the reference engine's coroutine
(:func:`ohhell_sim.reference.game_steps`): the same rules code that
:func:`ohhell_sim.replay` runs, so a game stepped here with the moves of a run
is that run's game.  Seats named in ``auto_seats`` are answered by ``auto``
(for instance the seats' strategies, :func:`ohhell_sim.reference.strategy_answer`);
the stepper stops at every other seat's decision.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np

from ohhell_sim.arguments import check_seed
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.reference import DealLog, DealPlayed, Decision, GameLog, game_steps
from ohhell_sim.rules import Rules

EPISODES = ("game", "deal")


def check_episode(episode: str) -> None:
    """Refuse an episode kind other than "game" or "deal"."""
    if episode not in EPISODES:
        raise InvalidArgumentError(f"episode must be one of {EPISODES}, got {episode!r}")


def next_game(
    run_seed: int | None, game: int, seed: int | None, options: dict | None
) -> tuple[int, int]:
    """The run seed and game index an environment's ``reset(seed, options)`` starts.

    A seed starts game 0 of that run (or game ``options["game"]``); no seed
    starts the run's next game, in a run of a fresh random seed if none was given.
    """
    chosen = (options or {}).get("game")
    if chosen is not None and (
        isinstance(chosen, bool) or not isinstance(chosen, int | np.integer) or chosen < 0
    ):
        raise InvalidArgumentError(f"options['game'] must be a game index >= 0, got {chosen!r}")
    if seed is not None:
        check_seed(seed)
        return int(seed), 0 if chosen is None else int(chosen)
    if run_seed is None:
        run_seed = int(np.random.SeedSequence().entropy % (1 << 32))
    return run_seed, game + 1 if chosen is None else int(chosen)


class GameStepper:
    """Game ``game`` of the run seeded ``seed``, waiting at each agent's decision.

    Parameters
    ----------
    rules : Rules
    names : sequence of str
        The seats' names, for the log.
    seed, game : int
        Which game: the cards and the strategies' random streams are those of
        game ``game`` of :func:`ohhell_sim.simulate` with this seed.
    auto : callable, optional
        Answers the decisions of ``auto_seats``.
    auto_seats : collection of int
        Seats that ``auto`` plays.
    one_deal : bool
        End after the first deal.

    Attributes
    ----------
    decision : Decision or None
        The decision waiting for a move; None once the game is over.
    deals : list of DealLog
        The deals played so far.
    log : GameLog or None
        The whole game, once it is over (None when ``one_deal`` cut it short).
    """

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        seed: int,
        game: int,
        *,
        auto: Callable[[Decision], object] | None = None,
        auto_seats: Collection[int] = (),
        one_deal: bool = False,
    ) -> None:
        self.rules = rules
        self.names = list(names)
        self.seed, self.game = seed, game
        self._steps = game_steps(rules, names, seed, game)
        self._auto, self._auto_seats = auto, frozenset(auto_seats)
        self._one_deal = one_deal
        self.decision: Decision | None = None
        self.deals: list[DealLog] = []
        self.log: GameLog | None = None
        self._points = [0] * rules.players
        self._advance(None)

    @property
    def done(self) -> bool:
        """True once the game (or its one deal) is over."""
        return self.decision is None

    def move(self, move: int) -> None:
        """Answer :attr:`decision` with ``move`` (a bid or a card id) and go on.

        Raises
        ------
        IllegalMoveError
            When the move is not legal.
        """
        if self.decision is None:
            raise RuntimeError("the game is over; start a new one")
        self._advance(move)

    def take_points(self) -> list[int]:
        """Points each seat scored in the deals finished since the last call."""
        points, self._points = self._points, [0] * self.rules.players
        return points

    def text(self) -> str:
        """The readable log of the deals played so far (:class:`GameLog`'s text)."""
        if self.log is not None:
            return str(self.log)
        first_dealer = self.deals[0].dealer if self.deals else -1
        partial = GameLog(
            self.rules, self.names, self.seed, self.game, first_dealer, self.deals, []
        )
        lines = str(partial).splitlines()[:-1]  # no final totals yet
        if self.decision is not None:
            d = self.decision
            lines.append(f"Deal {d.deal}: seat {d.seat} to {d.role}")
        return "\n".join(lines)

    def _advance(self, move: object) -> None:
        self.decision = None
        while True:
            try:
                step = self._steps.send(move)
            except StopIteration as finished:
                self.log = finished.value
                return
            move = None
            if isinstance(step, DealPlayed):
                self.deals.append(step.log)
                self._points = [p + s for p, s in zip(self._points, step.log.scores, strict=True)]
                if self._one_deal:
                    self._steps.close()
                    return
            elif step.seat in self._auto_seats:
                move = self._auto(step)
            else:
                self.decision = step
                return


def render_game(stepper: GameStepper | None, render_mode: str | None) -> str | None:
    """An environment's ``render()``: the log so far as text ("ansi"), printed ("human")."""
    if render_mode is None:
        return None
    text = stepper.text() if stepper is not None else ""
    if render_mode == "human":
        print(text)
        return None
    return text
