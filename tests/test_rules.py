"""Rules: canonical schedules, custom schedules, serialisation, immutability, validation."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from conftest import CANONICAL_START, max_hand_size, rules_st
from hypothesis import given

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules


def _down_up(start):
    return tuple(range(start, 0, -1)) + tuple(range(2, start + 1))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_canonical_schedule_3_to_5_players(players):
    rules = Rules(players=players)
    assert rules.schedule == (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert rules.n_deals == 19
    assert rules.max_hand_size == 10
    assert rules.hook is True


def test_canonical_schedule_6_players():
    rules = Rules(players=6)
    assert rules.schedule == (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
    assert rules.n_deals == 15


def test_canonical_schedule_7_players():
    rules = Rules(players=7)
    assert rules.schedule == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)
    assert rules.n_deals == 13


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_canonical_schedule_shape(players):
    schedule = Rules(players=players).schedule
    assert schedule == _down_up(CANONICAL_START[players])
    assert schedule.count(1) == 1
    assert len(schedule) == 2 * CANONICAL_START[players] - 1
    # Every canonical deal fits in the deck with the turned-up trump.
    assert players * max(schedule) + 1 <= 52


def test_default_rules_are_the_canonical_profile():
    rules = Rules()
    assert rules.players == 4
    assert rules.hook is True
    assert rules.schedule == _down_up(10)


def test_custom_schedule():
    rules = Rules(players=5, schedule=[3, 1, 4, 1, 5])
    assert rules.schedule == (3, 1, 4, 1, 5)
    assert isinstance(rules.schedule, tuple)
    assert rules.n_deals == 5
    assert rules.max_hand_size == 5
    np.testing.assert_array_equal(rules.schedule_array(), [3, 1, 4, 1, 5])
    assert rules.schedule_array().dtype == np.int64


def test_replace_derives_a_derived_schedule_again():
    canonical = Rules(players=4)
    assert dataclasses.replace(canonical, players=6).schedule == Rules(players=6).schedule
    assert dataclasses.replace(canonical, players=7).schedule == Rules(players=7).schedule
    up = dataclasses.replace(canonical, deal_order="1-max", max_cards=7)
    assert up.schedule == tuple(range(1, 8))
    # A schedule that was given stays, and a too-large one still fails clearly.
    given = Rules(players=4, schedule=[5, 2])
    assert dataclasses.replace(given, players=6).schedule == (5, 2)
    with pytest.raises(InvalidArgumentError, match="schedule"):
        dataclasses.replace(Rules(players=4, schedule=[12]), players=5)
    # Derived or given, equal schedules give equal rules.
    assert canonical == Rules(players=4, schedule=list(canonical.schedule))
    assert Rules.from_dict(json.loads(json.dumps(canonical.to_dict()))) == canonical


def test_single_deal_schedule_and_numpy_inputs():
    assert Rules(players=4, schedule=[5]).n_deals == 1
    rules = Rules(players=np.int64(3), schedule=np.array([17, 2]), hook=np.bool_(False))
    assert rules.players == 3 and type(rules.players) is int
    assert rules.schedule == (17, 2)
    assert all(type(size) is int for size in rules.schedule)
    assert rules.hook is False


def test_largest_hands_fit_the_deck():
    assert Rules(players=3, schedule=[17]).schedule == (17,)
    assert Rules(players=4, schedule=[12]).schedule == (12,)
    assert Rules(players=5, schedule=[10]).schedule == (10,)
    assert Rules(players=6, schedule=[8]).schedule == (8,)
    assert Rules(players=7, schedule=[7]).schedule == (7,)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_one_card_over_the_deck_is_rejected(players):
    too_big = max_hand_size(players) + 1
    with pytest.raises(ValueError, match=rf"\b{too_big}\b"):
        Rules(players=players, schedule=[too_big])


def test_to_array():
    arr = Rules(players=6, hook=False).to_array()
    assert arr.dtype == np.int64
    from ohhell_sim.rules import R_HOOK, R_N_DEALS, R_PLAYERS

    assert arr[R_PLAYERS] == 6
    assert arr[R_N_DEALS] == 15
    assert arr[R_HOOK] == 0


@given(rules_st())
def test_to_dict_from_dict_round_trip(rules):
    data = rules.to_dict()
    again = Rules.from_dict(data)
    assert again == rules
    assert hash(again) == hash(rules)
    # The dict survives JSON (it travels in Parquet metadata).
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules
    assert data["players"] == rules.players
    assert list(data["schedule"]) == list(rules.schedule)
    assert data["hook"] == rules.hook


def test_rules_are_frozen_and_hashable():
    rules = Rules(players=4, schedule=[2, 1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.schedule = (3,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.hook = False
    assert {rules: 1}[Rules(players=4, schedule=(2, 1))] == 1
    assert rules != Rules(players=4, schedule=[2, 1], hook=False)


def _raises_naming(match_parameter: str, value_text: str, **kwargs):
    with pytest.raises((ValueError, TypeError)) as info:
        Rules(**kwargs)
    message = str(info.value)
    assert match_parameter in message, message
    assert value_text in message, message
    return message


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2, "2"),
        (8, "8"),
        (0, "0"),
        (-4, "-4"),
        (4.5, "4.5"),
        (True, "True"),
        ("4", "'4'"),
        (None, "None"),
    ],
)
def test_bad_players(value, shown):
    message = _raises_naming("players", shown, players=value)
    assert "3.." in message  # the allowed range is stated


def test_bad_players_types():
    with pytest.raises(TypeError):
        Rules(players=4.5)
    with pytest.raises(TypeError):
        Rules(players=True)
    with pytest.raises(TypeError):
        Rules(players="4")
    with pytest.raises(ValueError):
        Rules(players=2)
    with pytest.raises(ValueError):
        Rules(players=8)


def test_empty_schedule():
    _raises_naming("schedule", "at least one", schedule=[])
    with pytest.raises(ValueError):
        Rules(schedule=())


def test_schedule_with_zero():
    _raises_naming("schedule[1]", "0", schedule=[3, 0, 3])


def test_schedule_needing_53_cards_for_4_players():
    message = _raises_naming("schedule[2]", "13", players=4, schedule=[1, 2, 13])
    assert "4 players" in message


def test_schedule_17_ok_18_not_for_3_players():
    assert Rules(players=3, schedule=[17]).max_hand_size == 17
    message = _raises_naming("schedule[0]", "18", players=3, schedule=[18])
    assert "3 players" in message


@pytest.mark.parametrize(
    ("schedule", "parameter", "shown"),
    [
        ([3, -2], "schedule[1]", "-2"),
        ([2.5], "schedule[0]", "2.5"),
        ([True], "schedule[0]", "True"),
        (["3"], "schedule[0]", "'3'"),
        ("10", "schedule", "'10'"),
        (5, "schedule", "5"),
    ],
)
def test_bad_schedule_entries(schedule, parameter, shown):
    _raises_naming(parameter, shown, schedule=schedule)


@pytest.mark.parametrize(("value", "shown"), [("yes", "'yes'"), (1, "1"), (None, "None")])
def test_bad_hook(value, shown):
    with pytest.raises(TypeError) as info:
        Rules(hook=value)
    message = str(info.value)
    assert "hook" in message and shown in message


def test_error_message_is_readable():
    with pytest.raises(ValueError) as info:
        Rules(players=8)
    assert re.search(r"players .*3\.\.7.*8", str(info.value))
