"""The house rule ``hook_one_card=False``: the hook binds every deal but the one-card deals.

The rule's values and its kernel code, from Python and from text; the dealer's
bid the hook would forbid, legal in a one-card deal and illegal in a longer one,
in the kernel, the batched environment's bookkeeping and the reference engine
alike; and whole games of both engines, equal with the rule on.
"""

from __future__ import annotations

import numpy as np
import pytest
import scripted_strategies as ss
from conftest import assert_result_matches_replays, examples, seeds_st
from hypothesis import given, settings
from hypothesis import strategies as st

import ohhell_sim as oh
from ohhell_sim import reference
from ohhell_sim import view as V
from ohhell_sim.cli import build_parser, main, rules_from_args
from ohhell_sim.engine.core import forbidden_bid, hook_applies
from ohhell_sim.errors import ERR_BID_HOOK, InvalidArgumentError
from ohhell_sim.rules import R_HOOK, Rules, rules_from_options
from ohhell_sim.rules.layout import HOOK_EVERY_DEAL, HOOK_NOT_ONE_CARD, HOOK_OFF

HOUSE = {"hook": True, "hook_one_card": False}


# --- the parameter -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hook", "hook_one_card", "code", "binds_one", "binds_two"),
    [
        (True, True, HOOK_EVERY_DEAL, True, True),
        (True, False, HOOK_NOT_ONE_CARD, False, True),
        (False, True, HOOK_OFF, False, False),
        (False, False, HOOK_OFF, False, False),
    ],
)
def test_kernel_code_and_where_the_hook_binds(hook, hook_one_card, code, binds_one, binds_two):
    rules = Rules(hook=hook, hook_one_card=hook_one_card)
    assert rules.to_array()[R_HOOK] == code
    assert (rules.hook_applies(1), rules.hook_applies(2)) == (binds_one, binds_two)
    assert (hook_applies(code, 1), hook_applies(code, 2)) == (int(binds_one), int(binds_two))
    # The others bid 0: the hook forbids the dealer the whole hand where it binds.
    assert forbidden_bid(code, 1, 0) == (1 if binds_one else -1)
    assert forbidden_bid(code, 2, 0) == (2 if binds_two else -1)


def test_without_the_hook_the_one_card_switch_changes_nothing():
    # hook=False, hook_one_card=False is accepted as plain hook=False, so that
    # dataclasses.replace(house_rules, hook=False) turns the hook off.
    off = Rules(hook=False, hook_one_card=False)
    np.testing.assert_array_equal(off.to_array(), Rules(hook=False).to_array())
    assert Rules(hook=False, hook_one_card=False, closed_bids=True).closed_bids


def test_house_rule_keeps_the_hook_that_closed_bids_exclude():
    with pytest.raises(InvalidArgumentError) as info:
        Rules(**HOUSE, closed_bids=True)
    assert "closed_bids" in str(info.value) and "hook" in str(info.value)


def test_bad_value_names_the_parameter():
    with pytest.raises(InvalidArgumentError, match="hook_one_card must be True or False"):
        Rules(hook_one_card="no")
    with pytest.raises(InvalidArgumentError, match=r"hook_one_card.*'maybe'"):
        rules_from_options(assignments=["hook_one_card=maybe"])


def test_from_text_and_the_command_line(capsys):
    house = Rules(**HOUSE)
    assert rules_from_options(assignments=["hook_one_card=off"]) == house
    assert rules_from_options(assignments=["hook-one-card=no"]) == house
    args = build_parser().parse_args(["simulate", "--rule", "hook_one_card=false"])
    assert rules_from_args(args) == house
    assert house.to_dict()["hook_one_card"] is False
    assert Rules.from_dict(house.to_dict()) == house
    assert main(["rules"]) == 0
    assert "hook_one_card" in capsys.readouterr().out


def test_openspiel_preset_hooks_one_card_deals():
    assert Rules.preset("openspiel", schedule=[1]).hook_applies(1)


# --- the dealer's bid in both engines ----------------------------------------------


def _dealer_completes(rules: Rules) -> list:
    """Seats bidding 0, the dealer bidding the whole hand: the bid the hook forbids."""
    size = rules.schedule[0]
    return [ss.scripted([0] * (rules.players - 1) + [size])] * rules.players


def test_one_card_dealer_may_complete_the_bids(tester):
    rules = Rules(players=4, schedule=[1, 1], **HOUSE)
    seats = _dealer_completes(rules)
    result = oh.simulate(rules, seats, games=6, seed=5)
    hands = result.hands
    dealer = hands[hands.seat == hands.dealer]
    assert (dealer.bid == 1).all() and (hands[hands.seat != hands.dealer].bid == 0).all()
    assert_result_matches_replays(result, rules, seats, 5, range(6))
    log = oh.replay(rules, seats, seed=5, game=0)
    assert [d.forbidden_bid for d in log.deals] == [None, None]


@pytest.mark.parametrize("rules", [Rules(players=4, schedule=[2], **HOUSE), Rules(schedule=[1])])
def test_completing_the_bids_is_illegal_where_the_hook_binds(tester, rules):
    seats = _dealer_completes(rules)
    with pytest.raises(oh.IllegalMoveError) as kernel:
        oh.simulate(rules, seats, games=3, seed=5, threads=1)
    with pytest.raises(oh.IllegalMoveError) as replayed:
        oh.replay(rules, seats, seed=5, game=kernel.value.game)
    for err in (kernel.value, replayed.value):
        assert err.code == ERR_BID_HOOK and err.move == rules.schedule[0]
    assert str(replayed.value) == str(kernel.value)


def test_views_say_where_the_hook_binds():
    rules = Rules(players=3, schedule=[2, 1, 2], **HOUSE)
    seen = {}
    for deal in oh.replay(rules, ["simple"] * 3, seed=1, game=0).deals:
        table = reference.new_table(
            rules, deal.index, deal.dealer, deal.hands, deal.trump_card, [0, 1, 2], [0] * 3, [0] * 3
        )
        view = reference.view_of(table, deal.dealer, V.PHASE_BID, None, None)
        seen[deal.hand_size] = int(view[V.HOOK])
        assert view[V.RULES_BASE + R_HOOK] == HOOK_NOT_ONE_CARD
    assert seen == {2: 1, 1: 0}


# --- whole games --------------------------------------------------------------------


@settings(max_examples=examples(20), deadline=None)
@given(
    st.integers(3, 7),
    st.lists(st.sampled_from([1, 1, 2, 3]), min_size=1, max_size=5),
    seeds_st,
    st.sampled_from([ss.MODE_VIEW_HASH, ss.MODE_VIEW_CHECK]),
)
def test_kernel_equals_reference_under_the_house_rule(tester, players, schedule, seed, mode):
    # Every decision of the view-hash mode hangs on the whole view (HOOK and
    # FORBIDDEN_BID included); the view-check mode plays illegally when HOOK and
    # FORBIDDEN_BID disagree.
    rules = Rules(players=players, schedule=schedule, **HOUSE)
    seats = [ss.mode(mode)] * (players - 1) + ["simple"]
    result = oh.simulate(rules, seats, games=3, seed=seed)
    assert_result_matches_replays(result, rules, seats, seed, range(3))
