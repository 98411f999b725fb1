"""One name means one strategy in a run, in the Python API and on the command line.

The kernel dispatches, the results label and pool, and the workers of a cluster
register strategies by name, so two different strategies under one name in one
seating (one registered again with ``replace=True`` after the other was taken,
or two files that register the same name) would play the later one's code in
both seats and pool both under one label.  Such a seating is refused before
anything compiles; the oracle of the tests that do play is the bids that each
strategy's code implies, replayed by the reference engine (which compiles no
kernel).
"""

from __future__ import annotations

import json

import pytest
from scripted_strategies import make_constant_bidder

import ohhell_sim as oh
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError

RULES = oh.Rules(players=4, schedule=[3, 2])
REFUSED = "two different strategies named 'ut_named'"


def _implied_bid(k: int, deal: dict, seat: int) -> int:
    # The oracle: what a constant bidder of k bids in a deal of a game log (to_dict
    # form): k, at most the hand size, one off where the hook forbids it.
    b = min(k, deal["hand_size"])
    if seat == deal["dealer"] and b == deal["forbidden_bid"]:
        b = b - 1 if b > 0 else 1
    return b


def _check_bids(log: dict, seat: int, k: int) -> None:
    for deal in log["deals"]:
        assert deal["bids"][seat] == _implied_bid(k, deal, seat), (seat, deal)


@pytest.fixture
def two_of_one_name(registered):
    """``(first, second)``: ``ut_named`` bidding 0, then registered again bidding 2."""
    registered("ut_named", *make_constant_bidder(0))
    first = oh.get_strategy("ut_named")
    registered("ut_named", *make_constant_bidder(2))
    return first, oh.get_strategy("ut_named")


ENTRY_POINTS = {
    "simulate": lambda seats: oh.simulate(RULES, seats, games=4),
    "summarise": lambda seats: oh.summarise(RULES, seats, games=4),
    "tournament": lambda seats: oh.tournament(RULES, seats, games=8),
    "replay": lambda seats: oh.replay(RULES, seats, seed=1, game=0),
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_two_strategies_of_one_name_are_refused_by_every_entry_point(two_of_one_name, entry):
    first, second = two_of_one_name
    for seats in ([first, second, "simple", "random"], [first, "simple", "ut_named", "random"]):
        with pytest.raises(InvalidArgumentError, match=REFUSED) as refused:
            ENTRY_POINTS[entry](seats)
        message = str(refused.value)
        assert "register one of them under another name" in message
        # Where each is defined.
        assert "<constant bidder 0>:2" in message and "<constant bidder 2>:2" in message


def test_one_object_in_several_seats_plays_its_own_code(two_of_one_name):
    # The first registration, taken before the second replaced it, still plays
    # its own code in every seat it holds.
    first, _ = two_of_one_name
    seats = [first, "simple", first, "random"]
    log = oh.replay(RULES, seats, seed=3, game=2).to_dict()
    for seat in (0, 2):
        _check_bids(log, seat, 0)


def test_the_same_code_registered_again_is_one_strategy(registered):
    # Running a notebook cell again makes new functions of equal code: no refusal.
    registered("ut_named", *make_constant_bidder(1))
    before = oh.get_strategy("ut_named")
    registered("ut_named", *make_constant_bidder(1))
    log = oh.replay(RULES, [before, "ut_named", "simple", "random"], seed=3, game=1).to_dict()
    _check_bids(log, 0, 1)
    _check_bids(log, 1, 1)


def test_other_settings_under_one_name_are_two_strategies(registered):
    bid, play = make_constant_bidder(1)
    registered("ut_named", bid, play, params={"x": 1.0})
    before = oh.get_strategy("ut_named")
    registered("ut_named", bid, play, params={"x": 2.0})
    with pytest.raises(InvalidArgumentError, match=REFUSED):
        oh.replay(RULES, [before, "ut_named", "simple", "random"], seed=3, game=1)


def _module(bid: int) -> str:
    # The docs' example, bidding ``bid``, registered with replace=True.
    return f"""
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import lowest_card


@njit
def cautious_bid(view, params, rng):
    b = min({bid}, view[V.HAND_SIZE])
    if b == view[V.FORBIDDEN_BID]:
        b = b - 1 if b > 0 else 1
    return b


@njit
def cautious_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


oh.register_strategy("ut_named", cautious_bid, cautious_play, replace=True)
"""


@pytest.mark.parametrize("command", ["simulate", "tournament", "replay"])
def test_two_files_registering_one_name_are_refused_on_the_command_line(
    user_modules, capsys, command
):
    user_modules("v1_cautious", _module(0))
    user_modules("v2_cautious", _module(2))
    seats = "v1_cautious.py:ut_named,v2_cautious.py:ut_named,simple,random"
    extra = {"simulate": ["--games", "4"], "tournament": ["--games", "8"], "replay": []}
    with pytest.raises(SystemExit) as stopped:
        main([command, "--strategies", seats, "--schedule", "3,2", *extra[command]])
    assert stopped.value.code == 2
    message = capsys.readouterr().err
    assert REFUSED in message and "v1_cautious.py" in message and "v2_cautious.py" in message


def test_a_seat_plays_what_its_own_module_registered(user_modules, capsys):
    # The first module's strategy is still what its seats play after the second
    # module registered the name again, in the same process.
    user_modules("v1_cautious", _module(0))
    user_modules("v2_cautious", _module(2))
    replay = ["replay", "--schedule", "3,2", "--seed", "4", "--game", "1", "--json"]
    for module, k in (("v1_cautious", 0), ("v2_cautious", 2), ("v1_cautious", 0)):
        seats = f"{module}.py:ut_named,simple,{module}.py:ut_named,random"
        assert main([*replay, "--strategies", seats]) == 0
        log = json.loads(capsys.readouterr().out)
        _check_bids(log, 0, k)
        _check_bids(log, 2, k)
