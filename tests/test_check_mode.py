"""A strategy cannot corrupt a run, and the check mode finds what compiled code hides.

The kernel hands every strategy its view and parameter row typed read-only, so
that code writing into them does not compile, and a user strategy copies of its
own, so that a write the type checks miss (``view.flat``) reaches no other seat;
``check_strategy`` calls the Python code on read-only arrays, and compares its
decisions with the compiled code's; ``simulate(check=True)`` compiles user code
with bounds checks, gives each seat a parameter row of its own length, and
compares the first games with the reference engine.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import InvalidArgumentError, StrategyError
from ohhell_sim.run.pipeline import run_kernel
from ohhell_sim.run.sinks import Rows
from ohhell_sim.run.strategy_check import check_against_reference
from ohhell_sim.run.validation import check_run
from ohhell_sim.strategy.tools import lowest_card

RULES = oh.Rules(players=4, schedule=[3, 2, 1])
SOURCE_LINES = Path(__file__).read_text(encoding="utf-8").splitlines()


@njit
def hooked(bid, view):
    # ``bid``, or one off it where the hook forbids it.
    if bid == view[V.FORBIDDEN_BID]:
        return bid - 1 if bid > 0 else 1
    return bid


@njit
def fine_bid(view, params, rng):
    return hooked(0, view)


@njit
def lowest_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


@njit
def scores_writing_bid(view, params, rng):
    view[V.SCORES_BASE + 1] = 0  # another seat's score
    return hooked(0, view)


@njit
def params_writing_bid(view, params, rng):
    params[0] = 1.0
    return hooked(0, view)


@njit
def sort_in_place(values):
    values.sort()  # a method that writes: the error is in Numba's code, the line is here
    return values[0]


@njit
def filling_bid(view, params, rng):
    view.fill(0)
    return hooked(0, view)


@njit
def sorting_bid(view, params, rng):
    return hooked(sort_in_place(view) * 0, view)


@njit
def flat_writing_bid(view, params, rng):
    # Numba's type checks let a write through .flat pass.
    view.flat[V.PASSED] = 7
    return hooked(0, view)


@njit
def out_of_range_bid(view, params, rng):
    if view[V.HAND_SIZE] == 2:
        return hooked(view[V.VIEW_SIZE + 40] * 0, view)
    return hooked(0, view)


@njit
def overflowing_bid(view, params, rng):
    # int() of a multiple of 1e19 is exact in Python, out of int64's range compiled.
    big = int(view[V.HAND_SIZE] * 1e19)
    return hooked(0 if big % 1000 == 0 else 1, view)


@njit
def faulty_bid(view, params, rng):
    """Fine with mode 0; mode 1 reads past the view's end in 2-card deals; mode 2
    writes into the view through .flat (which the type checks miss) and bids 1
    if it ever sees what it wrote: it never does, its view is its own."""
    mode = params[0]
    if mode == 1 and view[V.HAND_SIZE] == 2:
        return hooked(view[V.VIEW_SIZE + 40] * 0, view)
    if mode == 2:
        seen = view[V.PASSED]
        view.flat[V.PASSED] = 7
        return hooked(1 if seen == 7 else 0, view)
    return hooked(0, view)


@pytest.mark.parametrize(
    ("bid", "written", "line"),
    [
        (scores_writing_bid, "its view", "view[V.SCORES_BASE + 1] = 0"),
        (params_writing_bid, "its parameter row", "params[0] = 1.0"),
        (filling_bid, "its view", "view.fill(0)"),
        (sorting_bid, "its view", "values.sort()"),
    ],
)
def test_a_write_into_the_view_or_params_is_refused_before_the_kernel_compiles(
    registered, bid, written, line
):
    name = registered("ut_writer", bid, lowest_play)
    # The user's line, not a line of Numba's code the write ended in.
    number = next(i for i, text in enumerate(SOURCE_LINES, 1) if line in text)
    where = f"writes into {written} at .*test_check_mode.py:{number}"
    started = time.perf_counter()
    with pytest.raises(StrategyError, match=where):
        oh.simulate(RULES, [name, "random", "random", "random"], games=5)
    assert time.perf_counter() - started < 15  # compiled alone, not in a kernel
    with pytest.raises(StrategyError, match=f"writes into {written}"):
        oh.check_strategy(name, RULES)
    # The reference engine calls the same compiled code, so it refuses it too.
    with pytest.raises(StrategyError, match=f"writes into {written}"):
        oh.replay(RULES, [name] * 4, seed=0, game=0)


def test_check_strategy_catches_a_write_that_numba_lets_through(registered):
    name = registered("ut_flat", flat_writing_bid, lowest_play)
    with pytest.raises(StrategyError, match=r"read-only.*view.flat\[V.PASSED\] = 7") as caught:
        oh.check_strategy(name, RULES)
    assert (caught.value.strategy, caught.value.role) == ("ut_flat", "bid")


@njit
def looping_bid(view, params, rng):
    x = 0
    while view[V.DEAL] >= 1:  # never returns from the second deal on
        x += 1
    return hooked(0, view)


def test_check_strategy_names_a_decision_that_does_not_return_in_time(registered):
    name = registered("ut_loop", looping_bid, lowest_play)
    started = time.perf_counter()
    with pytest.raises(StrategyError, match=r"did not return within 0.5 s") as caught:
        oh.check_strategy(name, RULES, time_limit=0.5)
    assert time.perf_counter() - started < 10
    error = caught.value
    assert (error.strategy, error.role, error.game, error.deal) == ("ut_loop", "bid", 0, 1)
    assert "test_check_mode.py" in error.location
    with pytest.raises(InvalidArgumentError, match="time_limit must be"):
        oh.check_strategy(name, RULES, time_limit=0)


def test_check_strategy_names_an_index_out_of_range(registered):
    name = registered("ut_range", out_of_range_bid, lowest_play)
    with pytest.raises(StrategyError, match=r"IndexError.*view\[V.VIEW_SIZE \+ 40\]") as caught:
        oh.check_strategy(name, RULES)
    error = caught.value
    assert (error.strategy, error.role, error.deal) == ("ut_range", "bid", 1)
    assert "test_check_mode.py" in error.location


def test_check_strategy_finds_compiled_code_that_decides_otherwise(registered):
    name = registered("ut_overflow", overflowing_bid, lowest_play)
    with pytest.raises(StrategyError, match=r"compiled bid function .* chose 1 where its Python"):
        oh.check_strategy(name, RULES)


def test_check_is_refused_on_a_dask_cluster_and_must_be_a_bool():
    with pytest.raises(InvalidArgumentError, match="check must be True or False"):
        oh.simulate(RULES, ["random"] * 4, games=2, check="yes")
    with pytest.raises(InvalidArgumentError, match="not on a Dask cluster"):
        oh.simulate(RULES, ["random"] * 4, games=2, check=True, client=object())


@pytest.mark.slow
def test_the_check_mode_finds_reads_out_of_range_and_a_write_stays_in_its_own_view(registered):
    name = registered("ut_faulty", faulty_bid, lowest_play, params={"mode": 0.0})
    seats = [name, "random", (name, {"mode": 0.0}), "zero"]

    def run(mode, **options):
        seats[0] = (name, {"mode": float(mode)})
        return oh.simulate(RULES, seats, games=30, seed=4, **options)

    # A correct strategy: the same games as the normal kernel's.
    plain = run(0)
    checked = run(0, check=True)
    assert checked.hands.equals(plain.hands)
    assert checked.games.equals(plain.games)
    with pytest.raises(StrategyError) as caught:
        run(1, check=True)
    error = caught.value
    assert (error.strategy, error.role, error.seat) == (name, "bid", 0)
    assert "IndexError" in str(error) and "test_check_mode.py" in error.location
    # A write through .flat lands in the seat's own copy of its view: no later
    # decision of any seat sees it, in the kernel as in the reference engine, so
    # the games are those of the strategy that writes nothing.
    for options in ({}, {"check": True}):
        written = run(2, **options)
        for frame, expected in ((written.hands, plain.hands), (written.games, plain.games)):
            # The same games; only the label of seat 0 differs ("ut_faulty[mode=2]").
            assert frame.drop(columns="strategy").equals(expected.drop(columns="strategy"))


def test_the_check_mode_names_a_game_the_kernel_played_otherwise():
    # The comparison itself, on kernel rows doctored after the run: the check mode
    # stops at the first deal that differs and names the seat whose bid it is.
    run = check_run(RULES, ["zero", "random", "zero", "random"], 0, 3, 5, None)
    rows = Rows.empty(run.rules, run.games)
    run_kernel(run, rows.kernel_sink(0, run.games))
    check_against_reference(run, rows.arrays)
    rows.arrays.bids[1, 2, 3] += 1
    with pytest.raises(StrategyError, match="not the same in the compiled kernel") as caught:
        check_against_reference(run, rows.arrays)
    assert (caught.value.strategy, caught.value.seat, caught.value.game) == ("random", 3, 1)
    assert caught.value.deal == 2


@njit
def one_parameter_bid(view, params, rng):
    # Reads a second parameter it does not declare, at an index known only when it runs
    # (a constant index is refused when the strategy is registered).
    second = 1 if view[V.N_PLAYERS] > 0 else 0
    return hooked(int(params[0] + params[second]) % 2, view)


@pytest.mark.slow
def test_a_read_past_the_declared_parameters_is_named_beside_a_wider_row(registered):
    # zero has two parameters, so the seating's rows are two wide; the one-parameter
    # strategy gets its own row, one long, and bounds-checked code raises.
    name = registered("ut_one_param", one_parameter_bid, lowest_play, params={"k": 0.0})
    with pytest.raises(StrategyError, match=r"IndexError.*params\[second\]") as caught:
        oh.simulate(RULES, [name, "zero", name, "zero"], games=4, seed=1, check=True)
    assert (caught.value.strategy, caught.value.role) == (name, "bid")
    with pytest.raises(StrategyError, match=r"IndexError"):
        oh.check_strategy(name, RULES)
