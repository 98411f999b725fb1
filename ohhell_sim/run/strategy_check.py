"""Checks of a strategy's code: before the long kernel compile, and after a failure inside it.

A user strategy is compiled into the game kernel, where a mistake is costly to
find: the kernel takes tens of seconds to compile, a typing error points into the
generated kernel file, a float returned as a bid would be truncated silently, and
an exception raised in compiled code surfaces as a bare ``SystemError`` of the
parallel kernel.  This module finds those mistakes and names the strategy, its
file and line:

* :func:`~ohhell_sim.strategy.compilation.check_compiles` compiles a strategy's
  ``bid`` and ``play`` alone, in a second or two, and refuses a function that
  does not compile or does not return an integer.  The engine runs it on every
  user strategy before it generates a kernel.
* :func:`check_strategy` (``oh.check_strategy``) does that with bounds checks on,
  then plays a few games through the reference engine, calling both the compiled
  code and the strategy's plain-Python code at every decision: an exception shows
  the strategy's own traceback, an index out of range is named with its line, and
  a decision on which the two disagree (uninitialised memory, an overflow) is
  named with its seat, game and deal.
* :func:`check_against_reference` compares the kernel's rows of some games with
  the reference engine's, for the check mode of a run (``check=True``).
* :func:`diagnose_failure` turns an exception raised inside the kernel into a
  :class:`~ohhell_sim.errors.StrategyError` naming the strategy, seat, game, deal
  and line, by replaying the failing batch's games in plain Python.
"""

from __future__ import annotations

import ctypes
import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.arguments import check_seed
from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError, StrategyError
from ohhell_sim.reference import DealLog, play_reference_game
from ohhell_sim.results import RunArrays
from ohhell_sim.rules import Rules
from ohhell_sim.run.record import Run
from ohhell_sim.strategy import Strategy, get_strategy, resolve_seating
from ohhell_sim.strategy.code import strategy_functions
from ohhell_sim.strategy.compilation import ROLES, check_compiles
from ohhell_sim.strategy.origin import source_location


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
    time_limit: float | None = None,
) -> StrategyCheck:
    """Check a strategy in seconds, without compiling a kernel.

    First its ``bid`` and ``play`` are compiled alone (:func:`check_compiles`),
    with bounds checks.  Then ``games`` games are played through the plain-Python
    reference engine with the strategy in every seat, each decision made by its
    Python code and by its compiled code on the same read-only view: an exception
    or an illegal move shows up with the strategy's own file and line, and so does
    a write into the view or the parameters, an index out of range (past its own
    parameters included), a decision on which the compiled code and the Python
    code disagree, and, with ``time_limit``, a decision that does not return.

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
    time_limit : float, optional
        Seconds a decision may take, in Python or compiled; a decision that takes
        longer (a loop that never ends) is named with its seat, game and deal.
        Compiled code cannot be stopped from outside: a compiled decision that
        never returns keeps a thread busy until Python exits.

    Returns
    -------
    StrategyCheck
        How many games and decisions were tried.

    Raises
    ------
    StrategyError
        If a function does not compile, returns a non-integer, raises, writes
        into its view or parameters, indexes out of range, decides otherwise
        compiled than in Python, or takes longer than ``time_limit``.
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
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not 0 < time_limit < math.inf
    ):
        raise InvalidArgumentError(
            f"time_limit must be None or a positive number of seconds, got {time_limit!r}"
        )
    check_compiles(chosen, checked=True)
    seating = resolve_seating([chosen] * rules.players, rules.players)
    watch = _Watch()
    compared = tuple(
        _ComparedDecision(chosen.name, role, function, watch)
        for role, function in zip(ROLES, strategy_functions(chosen, checked=True), strict=True)
    )

    def play() -> None:
        for game in range(games):
            watch.game = game
            play_reference_game(rules, seating, seed, game, [compared] * rules.players)

    _run_watched(play, watch, time_limit, chosen.name)
    return StrategyCheck(chosen.name, rules, games, watch.count)


def diagnose_failure(run: Run, error: BaseException, *, most_games: int = 200) -> BaseException:
    """The error to raise for an exception that compiled strategy code raised in ``run``.

    Replays the run's games (at most ``most_games`` of them) in
    plain Python until one fails the same way, and returns a
    :class:`~ohhell_sim.errors.StrategyError` naming that strategy, seat, game, deal
    and the line that raised.  Returns a less precise ``StrategyError`` if none
    fails in Python (Numba's arithmetic and bounds differ from Python's).
    """
    seating = run.seating
    functions = [
        tuple(
            _PythonDecision(strategy.name, role, function)
            for role, function in zip(ROLES, strategy_functions(strategy), strict=True)
        )
        for strategy in seating.strategies
    ]
    cause = error.__cause__ or error.__context__ or error
    for game in range(run.first_game, run.first_game + min(run.games, most_games)):
        try:
            play_reference_game(run.rules, seating, run.seed, game, functions)
        except StrategyError as found:
            return found
        except IllegalMoveError:
            continue
    names = ", ".join(sorted(set(seating.names)))
    return StrategyError(
        f"a strategy raised {type(cause).__name__}({cause}) inside the compiled kernel, "
        f"in games {run.first_game}..{run.first_game + run.games - 1} of seed {run.seed}; "
        "the strategies "
        f"of this run are {names}. Replaying those games in plain Python did not "
        f"reproduce it; oh.check_strategy(name) checks one strategy on its own",
        strategy=None,
        role=None,
        location=None,
    )


def check_against_reference(run: Run, arrays: RunArrays) -> None:
    """Check that the kernel's rows ``arrays`` are the reference engine's games of ``run``.

    Game ``i`` of ``arrays`` is game ``run.first_game + i``; the reference engine
    plays it again with the same compiled strategies (bounds-checked under the check
    mode).  Both give every strategy the same views, parameters and streams, so the
    games can differ only when a strategy decides on something else: memory outside
    its arrays, an uninitialised array, a global random state.

    Raises
    ------
    StrategyError
        At the first deal in which the two differ, naming the game, the deal, what
        differs and the strategies at the table (the strategy of the seat when a
        bid differs).
    """
    rules, seating, seed = run.rules, run.seating, run.seed
    for row in range(arrays.bids.shape[0]):
        game = run.first_game + row
        log = play_reference_game(rules, seating, seed, game)
        for deal in log.deals:
            found = _difference(arrays, row, deal)
            if found is None:
                continue
            what, seat = found
            suspect = seating.names[seat] if seat is not None else None
            who = (
                f"strategy {suspect!r} (seat {seat})"
                if suspect is not None
                else f"one of the strategies {', '.join(sorted(set(seating.names)))}"
            )
            raise StrategyError(
                f"check: game {game} of seed {seed} is not the same in the compiled kernel "
                f"and the reference engine: in deal {deal.index}, {what}. Both gave every "
                f"seat the same views, parameters and random streams, so {who} decides "
                f"on something else: memory outside its arrays, an uninitialised array "
                f"(np.empty) or a global random state. oh.check_strategy(name) compares "
                f"a strategy's compiled and Python code decision by decision",
                strategy=suspect,
                role="bid" if seat is not None else None,
                location=None,
                game=game,
                deal=deal.index,
                seat=seat,
            )


def _difference(arrays: RunArrays, row: int, deal: DealLog) -> tuple[str, int | None] | None:
    # What differs first between the kernel's row and the reference's deal, and the
    # seat whose bid it is when it is a bid.
    d = deal.index
    if int(arrays.dealers[row, d]) != deal.dealer:
        return f"the dealer is seat {arrays.dealers[row, d]} in the kernel, {deal.dealer}", None
    for seat, bid in enumerate(deal.bids):
        kernel_bid = int(arrays.bids[row, d, seat])
        if bid is not None and kernel_bid != bid:
            return f"seat {seat} bid {kernel_bid} in the kernel and {bid} in the reference", seat
    for label, kernel, reference in (
        ("tricks taken", arrays.tricks[row, d], deal.tricks_won),
        ("scores", arrays.scores[row, d], deal.scores),
    ):
        if [int(x) for x in kernel] != list(reference):
            return f"the {label} are {kernel.tolist()} in the kernel, {list(reference)}", None
    return None


class _Watch:
    """The decisions made so far, and the one in progress (for the time limit)."""

    def __init__(self) -> None:
        self.count = 0
        self.game = 0
        self.started: float | None = None
        self.decision: tuple[str, str, object, np.ndarray] | None = None

    def begin(self, code: str, role: str, function: object, view: np.ndarray) -> None:
        self.decision = (code, role, function, view)
        self.started = time.monotonic()

    def end(self) -> None:
        self.started = None

    def overdue(self, time_limit: float | None) -> bool:
        started = self.started
        return (
            time_limit is not None
            and started is not None
            and (time.monotonic() - started > time_limit)
        )


class _Abandoned(BaseException):
    """Raised into the checking thread to stop its Python code (never seen by a user)."""


def _run_watched(play, watch: _Watch, time_limit: float | None, strategy: str) -> None:
    # The games run on a thread of their own, so that this one can stop at the time
    # limit, or at Ctrl-C, even while a compiled decision (released from the GIL)
    # does not return.  It waits on an event: a Thread.join that Ctrl-C interrupts
    # marks a running thread as finished.
    raised: list[BaseException] = []
    finished = threading.Event()

    def work() -> None:
        try:
            play()
        except BaseException as error:  # re-raised by the waiting thread
            raised.append(error)
        finally:
            finished.set()

    thread = threading.Thread(target=work, name="ohhell-check", daemon=True)
    thread.start()
    try:
        while not finished.wait(0.05):
            if watch.overdue(time_limit):
                _abandon(thread)
                raise _too_long(watch, time_limit, strategy)
    except KeyboardInterrupt:
        _abandon(thread)
        raise
    if raised and not isinstance(raised[0], _Abandoned):
        raise raised[0]


def _abandon(thread: threading.Thread) -> None:
    # Python code stops at its next instruction; compiled code runs on until it returns.
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned)
    )


def _too_long(watch: _Watch, time_limit: float, strategy: str) -> StrategyError:
    code, role, function, view = watch.decision
    where = source_location(function)
    seat, deal = int(view[V.SEAT]), int(view[V.DEAL])
    left = (
        "; compiled code cannot be stopped, so its thread runs on until Python exits"
        if code == "compiled"
        else ""
    )
    return StrategyError(
        f"strategy {strategy!r}: its {code} {role} function ({where}) did not return "
        f"within {time_limit:g} s (seat {seat}, game {watch.game}, deal {deal}): a loop "
        f"that never ends?{left}",
        strategy=strategy,
        role=role,
        location=where,
        game=watch.game,
        deal=deal,
        seat=seat,
    )


class _PythonDecision:
    """A strategy's decision run as plain Python, its exceptions named."""

    def __init__(self, strategy: str, role: str, compiled: object) -> None:
        self.strategy = strategy
        self.role = role
        # The Python code of the current copy, whose helpers are current too.
        self.function = compiled.py_func

    def __call__(self, view, params, rng):
        try:
            # Compiled code raises on a division by zero; NumPy scalars only warn.
            with np.errstate(divide="raise", invalid="raise"):
                return self.function(view, params, rng)
        except Exception as error:  # any exception is the strategy's to report
            raise StrategyError.raised_by(self.strategy, self.role, error) from error


class _ComparedDecision(_PythonDecision):
    """A decision made by the Python code and by the compiled code, which must agree."""

    def __init__(self, strategy: str, role: str, compiled: object, watch: _Watch) -> None:
        super().__init__(strategy, role, compiled)
        self.compiled = compiled
        self.watch = watch

    def __call__(self, view, params, rng):
        self.watch.count += 1
        python_rng = rng.copy()
        self.watch.begin("Python", self.role, self.function, view)
        expected = super().__call__(view, params, python_rng)
        where = source_location(self.compiled)
        self.watch.begin("compiled", self.role, self.compiled, view)
        try:
            move = self.compiled(view, params, rng)
        except Exception as error:  # the bounds checks raise IndexError
            raise StrategyError(
                f"strategy {self.strategy!r}: its compiled {self.role} function ({where}) "
                f"raised {type(error).__name__}: {error}, where its Python code chose "
                f"{expected}",
                strategy=self.strategy,
                role=self.role,
                location=where,
            ) from error
        self.watch.end()
        if move != expected or not np.array_equal(rng, python_rng):
            drew = "" if move != expected else " (the same move, but other random draws)"
            raise StrategyError(
                f"strategy {self.strategy!r}: its compiled {self.role} function ({where}) "
                f"chose {move} where its Python code chose {expected} on the same view{drew}: "
                f"compiled code reads something else (an uninitialised array from np.empty, "
                f"memory outside an array), or computes otherwise (integer overflow, "
                f"fastmath)",
                strategy=self.strategy,
                role=self.role,
                location=where,
            )
        return move
