"""Argument checks shared by the public functions: clear errors before any work starts."""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Sequence

import numba
import numpy as np

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.run.record import Run
from ohhell_sim.strategy import Seating, SeatSpec, resolve_seating

MAX_SEED = 2**63 - 1


def check_seed(seed: object, name: str = "seed") -> int:
    """Return ``seed`` as an int, or raise (naming it ``name``) unless it is in ``0..2**63-1``."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer in 0..{MAX_SEED}, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise InvalidArgumentError(f"{name} must be an integer in 0..{MAX_SEED}, got {seed}")
    return int(seed)


def check_count(name: str, value: object, minimum: int = 1) -> int:
    """Return ``value`` as an int, or raise if it is not an integer ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if int(value) < minimum:
        raise InvalidArgumentError(f"{name} must be an integer >= {minimum}, got {value}")
    return int(value)


#: Largest game index: frames store ``game`` as int32.
MAX_GAME = 2**31 - 1


def check_game_range(first_game: object, games: object) -> tuple[int, int]:
    """Return ``(first_game, games)`` or raise if the games do not fit the int32 index."""
    games = check_count("games", games)
    first_game = check_count("first_game", first_game, minimum=0)
    if first_game + games - 1 > MAX_GAME:
        what = f"first_game={first_game} with games={games}" if first_game else f"games={games}"
        raise InvalidArgumentError(
            f"{what} goes past game {MAX_GAME}, the largest game index the frames hold "
            f"(int32): a run plays games 0..{MAX_GAME}; give fewer games"
            + (" or a smaller first_game" if first_game else "")
        )
    return first_game, games


def check_game(game: object) -> int:
    """Return ``game`` as an int, or raise unless it is a game index a run can hold."""
    if isinstance(game, bool) or not isinstance(game, numbers.Integral):
        raise InvalidArgumentError(f"game must be an integer in 0..{MAX_GAME}, got {game!r}")
    if not 0 <= int(game) <= MAX_GAME:
        # The engine keys games by uint64 and would wrap larger ones round to others.
        raise InvalidArgumentError(
            f"game must be an integer in 0..{MAX_GAME} (the game indices of a run), got {game}"
        )
    return int(game)


def check_flag(name: str, value: object) -> bool:
    """Return ``value`` or raise unless it is True or False (NumPy's bools too)."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_rules(rules: object) -> Rules:
    """Return ``rules`` if it is a :class:`Rules`, else raise."""
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be an ohhell_sim.Rules, got {type(rules).__name__}")
    return rules


def check_threads(threads: object) -> int | None:
    """Return ``threads`` (None: all Numba threads) or raise if out of range."""
    if threads is None:
        return None
    most = numba.config.NUMBA_NUM_THREADS
    if (
        isinstance(threads, bool)
        or not isinstance(threads, numbers.Integral)
        or not (1 <= int(threads) <= most)
    ):
        raise InvalidArgumentError(
            f"threads must be an integer in 1..{most} (NUMBA_NUM_THREADS), got {threads!r}"
        )
    return int(threads)


def check_seating(rules: Rules, specs: Sequence[SeatSpec]) -> Seating:
    """Resolve one strategy spec per seat and check that each strategy plays ``rules``.

    Raises
    ------
    InvalidArgumentError
        For a wrong number of seats, an unknown strategy or parameter, or a
        strategy that refuses a variant of ``rules`` (the message names both).
    """
    seating = resolve_seating(specs, rules.players)
    for strategy in seating.strategies:
        strategy.check_rules(rules)
    return seating


def check_run(
    rules: object,
    strategies: Sequence[SeatSpec],
    first_game: object,
    games: object,
    seed: object,
    threads: object,
) -> Run:
    """The checks of a run's arguments, as :func:`ohhell_sim.simulate` takes them.

    Returns
    -------
    Run
        The run's record, checked and resolved, which the executors take.

    Raises
    ------
    InvalidArgumentError
        For the first bad argument, naming it, its value and what is allowed.
    """
    rules = check_rules(rules)
    seating = check_seating(rules, strategies)
    first_game, games = check_game_range(first_game, games)
    return Run(rules, seating, check_seed(seed), first_game, games, check_threads(threads))


def check_mode(run: Run, check: object, client: object) -> Run:
    """``run`` with its seating in the check mode when ``check`` (see :attr:`Seating.checked`).

    Raises
    ------
    InvalidArgumentError
        If ``check`` is not a bool, or is combined with a Dask ``client`` (the
        check runs its kernels and the reference engine on this machine).
    """
    if not isinstance(check, bool):
        raise InvalidArgumentError(f"check must be True or False, got {check!r}")
    if check and client is not None:
        raise InvalidArgumentError(
            "check=True runs on this machine's threads, not on a Dask cluster: drop client= "
            "for the check run, then run on the cluster without check"
        )
    if not check:
        return run
    return dataclasses.replace(run, seating=dataclasses.replace(run.seating, checked=True))
