"""Checks of plain arguments (seeds, counts, game indices, flags, threads): clear errors early.

A leaf of the package, so that any layer may check its arguments the same way;
the checks of the rules, the seats and a whole run live with what they check
(:func:`ohhell_sim.rules.check_rules`, :func:`ohhell_sim.strategy.check_seating`,
:mod:`ohhell_sim.run.validation`).
"""

from __future__ import annotations

import numbers

import numba
import numpy as np

from ohhell_sim.argument_error import InvalidArgumentError

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
