"""Checks of a strategy's code: before the long kernel compile, and after a failure inside it.

A user strategy is compiled into the game kernel, where a mistake is costly to
find: the kernel takes tens of seconds to compile, a typing error points into the
generated kernel file, a float returned as a bid would be truncated silently, and
an exception raised in compiled code surfaces as a bare ``SystemError`` of the
parallel kernel.  This module finds those mistakes and names the strategy, its
file and line:

* :func:`check_compiles` compiles a strategy's ``bid`` and ``play`` alone, with
  the argument types the kernel passes, in a second or two, and refuses a function
  that does not compile or does not return an integer.  The engine runs it on
  every user strategy before it generates a kernel.
* :func:`check_strategy` (``oh.check_strategy``) does that, then plays a few games
  with the strategy's plain-Python code through the reference engine, so that an
  exception shows the strategy's own traceback.
* :func:`diagnose_failure` turns an exception raised inside the kernel into a
  :class:`~ohhell_sim.errors.StrategyError` naming the strategy, seat, game, deal
  and line, by replaying the failing batch's games in plain Python.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from types import FunctionType

import numpy as np
from numba import types
from numba.core.errors import NumbaError

from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError, StrategyError
from ohhell_sim.reference import play_reference_game
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import Seating, Strategy, get_strategy, resolve_seating
from ohhell_sim.validation import check_seed

#: The types the kernel calls ``bid`` and ``play`` with: view, parameter row, stream.
KERNEL_ARGUMENT_TYPES = (
    types.Array(types.int64, 1, "C"),
    types.Array(types.float64, 1, "C"),
    types.Array(types.uint64, 1, "C"),
)

ROLES = ("bid", "play")

# Fingerprints of the strategies that passed check_compiles in this process.
_COMPILED_OK: set[str] = set()


def source_location(function: object) -> str:
    """``file:line`` of a (jitted) function's definition, for messages."""
    python_function = getattr(function, "py_func", function)
    try:
        path = inspect.getsourcefile(python_function) or "<unknown file>"
    except TypeError:
        path = "<unknown file>"
    return f"{path}:{python_function.__code__.co_firstlineno}"


def check_compiles(strategy: Strategy) -> None:
    """Compile ``strategy``'s functions alone and check that they return integers.

    The functions are compiled for the argument types of the kernel, so that a
    strategy the kernel calls (rather than inlines) reuses this compile.  Each
    strategy is checked once per process and code version.

    Raises
    ------
    StrategyError
        If a function does not compile (the message gives Numba's reason, with
        a hint for a helper function that is not jitted), or returns anything but
        an integer (a float, an optional value, a tuple).
    """
    key = f"{strategy.name}:{strategy.fingerprint()}"
    if key in _COMPILED_OK:
        return
    for role in ROLES:
        function = getattr(strategy, role)
        where = source_location(function)
        try:
            function.compile(KERNEL_ARGUMENT_TYPES)
        except NumbaError as error:
            raise StrategyError(
                f"strategy {strategy.name!r}: its {role} function ({where}) does not "
                f"compile with Numba: {_numba_reason(error, function)}",
                strategy=strategy.name,
                role=role,
                location=where,
            ) from error
        returned = function.overloads[KERNEL_ARGUMENT_TYPES].signature.return_type
        if not isinstance(returned, types.Integer):
            move = "a bid" if role == "bid" else "a card id"
            raise StrategyError(
                f"strategy {strategy.name!r}: its {role} function ({where}) returns "
                f"{returned}, but it must return {move} as an integer (an int, or a "
                f"NumPy integer; e.g. int(x) or np.int64(x)) on every path",
                strategy=strategy.name,
                role=role,
                location=where,
            )
    _COMPILED_OK.add(key)


def _numba_reason(error: NumbaError, function: object) -> str:
    # Numba's message runs to dozens of lines; the first paragraph says what is
    # wrong, and an untyped plain-Python helper deserves a direct hint.
    text = str(error).strip()
    first = text.split("\n\n")[0].strip().replace("\n", " ")
    namespace = getattr(getattr(function, "py_func", function), "__globals__", {})
    for name, value in namespace.items():
        is_plain_function = isinstance(value, FunctionType) and not hasattr(value, "py_func")
        if is_plain_function and f"'{name}'" in text:
            return (
                f"it calls {name}(), a plain Python function; decorate {name} with "
                f"@numba.njit so that compiled code can call it ({first})"
            )
    return first


@dataclass(frozen=True)
class StrategyCheck:
    """What :func:`check_strategy` tried.

    Attributes
    ----------
    strategy : str
        The strategy checked.
    rules : Rules
        The rules its games were played under.
    games : int
        Games played through the reference engine, the strategy in every seat.
    decisions : int
        Bids and cards it chose in them (passes too, under the swap rule).
    """

    strategy: str
    rules: Rules
    games: int
    decisions: int


def check_strategy(
    strategy: str | Strategy,
    rules: Rules | None = None,
    *,
    games: int = 3,
    seed: int = 0,
) -> StrategyCheck:
    """Check a strategy in seconds, without compiling a kernel.

    First its ``bid`` and ``play`` are compiled alone (:func:`check_compiles`).
    Then ``games`` games are played through the plain-Python reference engine
    with the strategy in every seat, calling its Python code, so that an
    exception or an illegal move shows up with the strategy's own file and line.

    Parameters
    ----------
    strategy : str or Strategy
        A registered name, or a :class:`~ohhell_sim.strategy.Strategy`.
    rules : Rules, optional
        Rules to play (default: the canonical profile with 4 players).
    games : int
        Games to play, 1 to 100.
    seed : int
        Seed of those games.

    Returns
    -------
    StrategyCheck
        How many games and decisions were tried.

    Raises
    ------
    StrategyError
        If a function does not compile, returns a non-integer, or raises.
    IllegalMoveError
        If the strategy makes an illegal move in one of the games.
    """
    chosen = strategy if isinstance(strategy, Strategy) else get_strategy(strategy)
    rules = Rules(players=4) if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules object, got {rules!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 100:
        raise InvalidArgumentError(f"games must be an integer in 1..100, got {games!r}")
    seed = check_seed(seed)
    check_compiles(chosen)
    seating = resolve_seating([chosen] * rules.players, rules.players)
    decisions = _CountingCalls()
    counted = _python_seating(seating, decisions)
    for game in range(games):
        play_reference_game(rules, counted, seed, game)
    return StrategyCheck(chosen.name, rules, games, decisions.count)


def diagnose_failure(
    rules: Rules,
    seating: Seating,
    seed: int,
    first_game: int,
    games: int,
    error: BaseException,
    *,
    most_games: int = 200,
) -> BaseException:
    """The error to raise for an exception that compiled strategy code raised in a run.

    Replays games ``first_game ..`` (at most ``most_games`` of the ``games``) in
    plain Python until one fails the same way, and returns a
    :class:`~ohhell_sim.errors.StrategyError` naming that strategy, seat, game, deal
    and the line that raised.  Returns a less precise ``StrategyError`` if none
    fails in Python (Numba's arithmetic and bounds differ from Python's).
    """
    python_seating = _python_seating(seating, _CountingCalls())
    cause = error.__cause__ or error.__context__ or error
    for game in range(first_game, first_game + min(games, most_games)):
        try:
            play_reference_game(rules, python_seating, seed, game)
        except StrategyError as found:
            return found
        except IllegalMoveError:
            continue
    names = ", ".join(sorted(set(seating.names)))
    return StrategyError(
        f"a strategy raised {type(cause).__name__}({cause}) inside the compiled kernel, "
        f"in games {first_game}..{first_game + games - 1} of seed {seed}; the strategies "
        f"of this run are {names}. Replaying those games in plain Python did not "
        f"reproduce it; oh.check_strategy(name) checks one strategy on its own",
        strategy=None,
        role=None,
        location=None,
    )


class _CountingCalls:
    # Counts the decisions made through the wrapped Python functions.
    def __init__(self) -> None:
        self.count = 0


def _python_seating(seating: Seating, counter: _CountingCalls) -> Seating:
    """``seating`` with each strategy's functions replaced by their Python code."""
    strategies = tuple(
        dataclasses.replace(
            strategy,
            bid=_PythonDecision(strategy, "bid", counter),
            play=_PythonDecision(strategy, "play", counter),
        )
        for strategy in seating.strategies
    )
    return Seating(strategies=strategies, params=seating.params)


class _PythonDecision:
    """A strategy's decision run as plain Python, its exceptions named."""

    def __init__(self, strategy: Strategy, role: str, counter: _CountingCalls) -> None:
        self.strategy = strategy
        self.role = role
        self.function = getattr(strategy, role).py_func
        self.counter = counter

    def __call__(self, view, params, rng):
        self.counter.count += 1
        try:
            # Compiled code raises on a division by zero; NumPy scalars only warn.
            with np.errstate(divide="raise", invalid="raise"):
                return self.function(view, params, rng)
        except Exception as error:  # any exception is the strategy's to report
            raise StrategyError.raised_by(self.strategy.name, self.role, error) from error
