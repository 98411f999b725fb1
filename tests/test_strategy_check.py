"""A strategy's mistakes are named: non-integer moves, uncompilable code, exceptions.

A float bid used to be truncated into the bid rows while the fractional total
moved the hook's forbidden bid off every integer, so that whole deals broke the
hook silently.  These tests check that every such strategy stops the run with an
error naming it, before the kernel compiles where that can be known.
"""

from __future__ import annotations

import linecache
import pickle
import time

import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import ERR_BID_NOT_INTEGER, ERR_CARD_NOT_INTEGER, StrategyError
from ohhell_sim.reference import play_reference_game
from ohhell_sim.strategy import resolve_seating
from ohhell_sim.strategy.tools import lowest_card

RULES = oh.Rules(players=4, schedule=[5, 3, 1])


@njit
def half_bid(view, params, rng):
    return 0.5


@njit
def zero_or_one_bid(view, params, rng):
    return 1 if view[V.FORBIDDEN_BID] == 0 else 0


@njit
def lowest_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


@njit
def float_play(view, params, rng):
    return lowest_card(view[V.LEGAL]) * 1.0


@njit
def sometimes_none_bid(view, params, rng):
    if view[V.HAND_SIZE] > 3:
        return None
    return 0 if view[V.FORBIDDEN_BID] != 0 else 1


def plain_helper(x):
    return x


@njit
def helper_bid(view, params, rng):
    return plain_helper(0)


@njit
def divide_play(view, params, rng):
    # Raises in the third trick of a deal: 1 // 0.
    step = 1 // (view[V.TRICK] - 2)
    return lowest_card(view[V.LEGAL]) + 0 * step


@pytest.mark.parametrize(
    ("bid", "play", "role", "returned"),
    [
        (half_bid, lowest_play, "bid", "float64"),
        (zero_or_one_bid, float_play, "play", "float64"),
        (sometimes_none_bid, lowest_play, "bid", "OptionalType"),
    ],
)
def test_non_integer_moves_are_refused_before_the_kernel_compiles(
    registered, bid, play, role, returned
):
    name = registered("ut_badtype", bid, play)
    started = time.perf_counter()
    with pytest.raises(StrategyError) as caught:
        oh.simulate(RULES, [name, "random", "random", "random"], games=20)
    # Compiling the two functions alone takes a second or two, not a kernel's tens.
    assert time.perf_counter() - started < 15
    error = caught.value
    assert (error.strategy, error.role) == ("ut_badtype", role)
    assert "test_strategy_check.py" in error.location
    assert returned in str(error) and "integer" in str(error)


def test_a_plain_python_helper_is_named(registered):
    name = registered("ut_helper", helper_bid, lowest_play)
    with pytest.raises(StrategyError, match=r"calls plain_helper\(\).*@numba.njit"):
        oh.check_strategy(name)


def test_check_strategy_names_the_line_that_raises(registered):
    name = registered("ut_divide", zero_or_one_bid, divide_play)
    with pytest.raises(StrategyError) as caught:
        oh.check_strategy(name, RULES)
    error = caught.value
    assert (error.strategy, error.role, error.game, error.deal) == ("ut_divide", "play", 0, 0)
    assert error.seat in range(4)
    assert "test_strategy_check.py" in error.location and "1 // (view[V.TRICK] - 2)" in str(error)


def test_check_strategy_counts_what_it_tried(registered):
    name = registered("ut_fine", zero_or_one_bid, lowest_play)
    check = oh.check_strategy(name, RULES, games=2)
    # Two games of 5 + 3 + 1 cards: each of 4 seats bids 3 times and plays 9 cards per game.
    assert (check.strategy, check.games, check.decisions) == ("ut_fine", 2, 2 * 4 * (3 + 9))


@pytest.mark.slow
def test_an_exception_in_the_kernel_names_strategy_seat_game_and_line(registered):
    name = registered("ut_divide", zero_or_one_bid, divide_play)
    with pytest.raises(StrategyError) as caught:
        oh.simulate(RULES, ["random", name, "random", name], games=30, seed=3)
    error = caught.value
    assert (error.strategy, error.role, error.game, error.deal) == ("ut_divide", "play", 0, 0)
    assert error.seat in (1, 3)
    assert "test_strategy_check.py" in error.location
    assert isinstance(caught.value.__cause__, FloatingPointError | ZeroDivisionError)


@pytest.mark.parametrize(
    ("role", "code"), [("bid", ERR_BID_NOT_INTEGER), ("play", ERR_CARD_NOT_INTEGER)]
)
def test_the_reference_engine_refuses_non_integer_moves(registered, role, code):
    bid, play = (half_bid, lowest_play) if role == "bid" else (zero_or_one_bid, float_play)
    name = registered("ut_badtype", bid, play)
    # replay refuses the strategy before it plays (its compile check); the
    # reference engine's own check stops a non-integer move of any other code.
    with pytest.raises(StrategyError, match="must return"):
        oh.replay(RULES, [name] * 4, seed=0, game=0)
    seating = resolve_seating([name] * 4, 4)
    python = [(bid.py_func, play.py_func)] * 4
    with pytest.raises(oh.IllegalMoveError) as caught:
        play_reference_game(RULES, seating, 0, 0, python)
    assert caught.value.code == code
    assert "must be an integer" in str(caught.value)


def test_strategy_error_pickles_with_its_fields():
    error = StrategyError(
        "boom", strategy="x", role="play", location="f.py:3", game=1, deal=2, seat=3
    )
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == "boom"
    assert (copy.strategy, copy.role, copy.location, copy.game, copy.deal, copy.seat) == (
        "x",
        "play",
        "f.py:3",
        1,
        2,
        3,
    )


def test_a_function_of_a_notebook_cell_is_located_by_its_cell(registered):
    # Jupyter compiles a cell under a file name of its own, kept in linecache: the
    # location gives that name and the cell's line, not "<unknown file>".
    cell = "/tmp/ipykernel_4242/1234567.py"
    source = "\n@njit\ndef cell_bid(view, params, rng):\n    return 0.5\n"
    linecache.cache[cell] = (len(source), None, source.splitlines(True), cell)
    namespace = {"njit": njit}
    try:
        exec(compile(source, cell, "exec"), namespace)
        name = registered("ut_cell", namespace["cell_bid"], lowest_play)
        with pytest.raises(StrategyError) as caught:
            oh.check_strategy(name, RULES)
    finally:
        del linecache.cache[cell]
    where = f"{cell}:2 (a notebook cell: def cell_bid(view, params, rng):)"
    assert where in str(caught.value) and "unknown file" not in str(caught.value)
