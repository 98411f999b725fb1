"""A strategy cannot corrupt a run, and the check mode finds what compiled code hides.

The kernel hands every strategy its view and parameter row typed read-only, so
that code writing into them does not compile; ``check_strategy`` calls the
Python code on read-only arrays, and compares its decisions with the compiled
code's; ``simulate(check=True)`` compiles user code with bounds checks and
compares the first games with the reference engine.
"""

from __future__ import annotations

import time

import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import InvalidArgumentError, StrategyError
from ohhell_sim.strategy_tools import lowest_card

RULES = oh.Rules(players=4, schedule=[3, 2, 1])


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
    writes into the view through .flat (which the type checks miss), so that in
    the kernel its later bids see the 7 it left there."""
    mode = params[0]
    if mode == 1 and view[V.HAND_SIZE] == 2:
        return hooked(view[V.VIEW_SIZE + 40] * 0, view)
    if mode == 2:
        seen = view[V.PASSED]
        view.flat[V.PASSED] = 7
        return hooked(1 if seen == 7 else 0, view)
    return hooked(0, view)


@pytest.mark.parametrize(
    ("bid", "written"),
    [(scores_writing_bid, "its view"), (params_writing_bid, "its parameter row")],
)
def test_a_write_into_the_view_or_params_is_refused_before_the_kernel_compiles(
    registered, bid, written
):
    name = registered("ut_writer", bid, lowest_play)
    started = time.perf_counter()
    with pytest.raises(StrategyError, match=f"writes into {written} at .*test_check_mode.py"):
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
def test_the_check_mode_finds_reads_out_of_range_and_kernels_that_differ(registered):
    name = registered("ut_faulty", faulty_bid, lowest_play, params={"mode": 0.0})
    seats = [name, "random", (name, {"mode": 0.0}), "zero"]

    def run(mode, **options):
        seats[0] = (name, {"mode": float(mode)})
        return oh.simulate(RULES, seats, games=30, seed=4, **options)

    # A correct strategy: the same games as the normal kernel's.
    checked = run(0, check=True)
    assert checked.hands.equals(run(0).hands)
    assert checked.games.equals(run(0).games)
    with pytest.raises(StrategyError) as caught:
        run(1, check=True)
    error = caught.value
    assert (error.strategy, error.role, error.seat) == (name, "bid", 0)
    assert "IndexError" in str(error) and "test_check_mode.py" in error.location
    with pytest.raises(StrategyError, match="not the same in the compiled kernel") as caught:
        run(2, check=True)
    assert (caught.value.strategy, caught.value.seat, caught.value.game) == (name, 0, 0)
