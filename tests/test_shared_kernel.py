"""The shared kernel: strategies called through the slot table, the dedicated kernel's games.

``simulate(..., kernel="shared")`` plays on one kernel compiled for every
strategy, which calls each strategy compiled alone; these tests check that it
plays the games of the dedicated kernel, follows an edit, keeps the trust checks
(writes refused, copies for code that may write, exceptions named, bounds
checks in check mode) and that ``kernel="auto"`` picks as documented.
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pandas.testing as pdt
import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.engine.slots import SLOT_COPIES, SLOT_FIELDS, SLOTS
from ohhell_sim.errors import InvalidArgumentError, StrategyError
from ohhell_sim.run.record import Run
from ohhell_sim.run.strategy_slots import strategy_slot
from ohhell_sim.run.validation import SHARED_BELOW_GAMES, kernel_mode
from ohhell_sim.strategy import resolve_seating
from ohhell_sim.strategy.tools import highest_by_power, lowest_card, winning_cards

RULES = oh.Rules(players=4, schedule=[5, 3, 1])


@njit
def ducking_bid(view, params, rng):
    bid = 1 if params[0] > 0.5 and view[V.HAND_SIZE] > 2 else 0
    return bid + 1 if bid == view[V.FORBIDDEN_BID] else bid


@njit
def ducking_play(view, params, rng):
    legal = view[V.LEGAL]
    losers = legal & ~winning_cards(view)
    if losers:
        return highest_by_power(losers, view[V.LED_SUIT], view[V.TRUMP])
    return lowest_card(legal)


@njit
def narrow_bid(view, params, rng):
    # The same bid as ducking_bid, returned as an int32.
    return np.int32(ducking_bid(view, params, rng))


@njit
def flat_writing_bid(view, params, rng):
    bid = ducking_bid(view, params, rng)
    view.flat[V.HAND] = 0  # reaches the memory past the type checker: gets copies
    return bid


@njit
def raising_play(view, params, rng):
    if view[V.HAND_SIZE] == 1:
        raise ValueError("no single cards")
    return lowest_card(view[V.LEGAL])


@njit
def overreading_bid(view, params, rng):
    return int(params[view[V.HAND_SIZE]]) * 0 + (1 if view[V.FORBIDDEN_BID] == 0 else 0)


def _play(seats, kernel, **options):
    return oh.simulate(RULES, seats, 30, seed=5, kernel=kernel, **options)


def _same_games(a, b):
    # Every column but the strategies' names.
    for frame in ("hands", "games"):
        left, right = getattr(a, frame), getattr(b, frame)
        pdt.assert_frame_equal(left.drop(columns="strategy"), right.drop(columns="strategy"))


@pytest.mark.slow
def test_the_shared_kernel_plays_the_dedicated_kernels_games(registered):
    registered("ducking", ducking_bid, ducking_play, params={"bold": 1.0})
    seats = ["ducking", "simple", "ducking[bold=0]", "simple"]
    shared = _play(seats, "shared")
    pdt.assert_frame_equal(shared.hands, _play(seats, "dedicated").hands)
    _same_games(shared, _play(seats, "dedicated"))


def test_an_int32_move_plays_as_the_int64_one(registered):
    registered("ducking", ducking_bid, ducking_play, params={"bold": 1.0})
    registered("narrow", narrow_bid, ducking_play, params={"bold": 1.0})
    _same_games(
        _play(["narrow", "simple", "random", "simple"], "shared"),
        _play(["ducking", "simple", "random", "simple"], "shared"),
    )


def test_code_that_may_write_gets_copies_and_changes_no_other_seat(registered):
    registered("ducking", ducking_bid, ducking_play, params={"bold": 1.0})
    registered("writer", flat_writing_bid, ducking_play, params={"bold": 1.0})
    writer = _play(["writer", "simple", "simple", "simple"], "shared")
    assert SLOTS[strategy_slot(oh.get_strategy("writer"), False) * SLOT_FIELDS + SLOT_COPIES]
    assert not SLOTS[strategy_slot(oh.get_strategy("ducking"), False) * SLOT_FIELDS + SLOT_COPIES]
    _same_games(writer, _play(["ducking", "simple", "simple", "simple"], "shared"))


def test_a_write_into_the_view_is_refused_before_the_run(registered):
    @njit
    def writing_bid(view, params, rng):
        view[V.HAND] = 0
        return 0

    registered("view_writer", writing_bid, ducking_play)
    with pytest.raises(StrategyError, match="writes into its view"):
        _play(["view_writer", "simple", "simple", "simple"], "shared")


def test_an_exception_names_the_strategy_and_line(registered):
    registered("raiser", ducking_bid, raising_play, params={"bold": 1.0})
    with pytest.raises(StrategyError, match="raiser") as caught:
        _play(["simple", "raiser", "simple", "simple"], "shared")
    assert caught.value.strategy == "raiser" and "test_shared_kernel.py" in caught.value.location


def test_check_mode_on_the_shared_kernel_stops_a_read_past_the_row(registered):
    registered("overreader", overreading_bid, ducking_play, params={"a": 1.0})
    with pytest.raises(StrategyError, match="overreader"):
        _play(["overreader", "simple", "simple", "simple"], "shared", check=True)


EDITED = """
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import lowest_card
from edited_helper import wanted


@njit
def edited_bid(view, params, rng):
    bid = min(wanted() + {offset}, view[V.HAND_SIZE])
    if bid == view[V.FORBIDDEN_BID]:
        bid = bid - 1 if bid > 0 else 1
    return bid


@njit
def edited_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


register_strategy("edited", edited_bid, edited_play, replace=True)
"""


def test_edits_of_the_module_and_of_a_helper_module_are_played(user_modules):
    def bids(helper: int, offset: int) -> set[int]:
        user_modules(
            "edited_helper",
            f"from numba import njit\n\n\n@njit\ndef wanted():\n    return {helper}\n",
        )
        folder = user_modules("edited_strategy", EDITED.format(offset=offset)).parent
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))  # the fixture restores sys.path
        importlib.invalidate_caches()
        for name in ("edited_helper", "edited_strategy"):
            module = importlib.import_module(name)
            importlib.reload(module)
        result = _play(["edited", "simple", "simple", "simple"], "shared")
        mine = result.hands.query("seat == 0 and seat != dealer and hand_size == 5")
        return set(mine["bid"].tolist())

    assert bids(1, 0) == {1}
    assert bids(1, 2) == {3}  # the strategy's module edited
    assert bids(2, 2) == {4}  # the helper's module edited


def test_kernel_must_be_one_of_the_three(no_kernel):
    with pytest.raises(InvalidArgumentError, match=r"kernel must be one of .*'fast'"):
        oh.simulate(RULES, ["simple"] * 4, 5, kernel="fast")


@pytest.mark.parametrize(
    ("seats", "games", "kernel", "shared"),
    [
        (["cautious_t", "simple", "simple", "simple"], 1_000, "auto", True),
        (["cautious_t", "simple", "simple", "simple"], SHARED_BELOW_GAMES, "auto", False),
        (["simple"] * 4, 1_000, "auto", True),
        (["simple"] * 4, SHARED_BELOW_GAMES, "auto", False),
        (["simple"] * 4, SHARED_BELOW_GAMES, "shared", True),
        (["cautious_t", "simple", "simple", "simple"], 1_000, "dedicated", False),
    ],
)
def test_auto_picks_the_shared_kernel_for_a_short_run(registered, seats, games, kernel, shared):
    registered("cautious_t", ducking_bid, ducking_play, params={"bold": 1.0})
    run = Run(RULES, resolve_seating(seats, 4), 0, 0, games)
    assert kernel_mode(run, kernel).seating.shared is shared
