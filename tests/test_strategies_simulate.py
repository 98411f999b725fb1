"""Every built-in strategy plays whole games legally, at several table sizes and variants.

The kernel raises :class:`~ohhell_sim.errors.IllegalMoveError` on any illegal
bid or card, so a run that completes is the check.  The sampling strategies run
with few samples here: legality does not depend on the sample count, and speed
does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim import strategies
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategy import COSTS, check_seating


def quick_seat(strategy: oh.Strategy) -> str | tuple[str, dict]:
    """A seat for ``strategy`` at its quick settings (few samples for the samplers)."""
    return (strategy.name, dict(strategy.quick_params)) if strategy.quick_params else strategy.name


CHEAP_MC = quick_seat(oh.get_strategy("mc_bidder"))
CHEAP_PIMC = quick_seat(oh.get_strategy("pimc"))
#: Every built-in but the two baselines, in dispatch-id order, each at its quick settings.
NEW = [s for s in strategies.BUILTINS if s.name not in ("random", "simple")]
ALL = [quick_seat(s) for s in NEW]
RULE_BASED = [s.name for s in NEW if not s.heavy]
# Every distinct set of strategies in a seating compiles a kernel of its own (tens
# of seconds; twice when played on plain and general tables), so the four-seat
# tests share the sets of four in turn: ``seats_for(4, k)`` for k in OFFSETS.
OFFSETS = range(0, len(ALL), 4)
SETS = [[ALL[(k + i) % len(ALL)] for i in range(4)] for k in OFFSETS]


def seats_for(players: int, offset: int = 0, pool: list | None = None) -> list:
    """A seating cycling through ``pool`` (default: every new strategy), from ``offset``."""
    pool = pool or ALL
    return [pool[(offset + i) % len(pool)] for i in range(players)]


def estimates(result) -> pd.DataFrame:
    """The summary's estimates, one row per strategy and one column per measure."""
    return result.summary().pivot(index="strategy", columns="measure", values="estimate")


def test_builtin_ids_are_positions_and_stable():
    names = [s.name for s in strategies.BUILTINS]
    assert names[:2] == ["random", "simple"]
    assert names == [
        "random",
        "simple",
        "sure_tricks",
        "expected_tricks",
        "card_counter",
        "zero",
        "mc_bidder",
        "pimc",
        "learned",
        "bayes_pimc",
        "adaptive_pimc",
        "distilled",
        "guided_pimc",
        "distilled_search",
    ]
    assert [s.builtin_id for s in strategies.BUILTINS] == list(range(len(names)))


def test_every_strategy_documents_itself():
    for strategy in strategies.BUILTINS[2:]:
        assert len(strategy.description) > 200, strategy.name
        module = __import__(strategy.bid.py_func.__module__, fromlist=["_"])
        doc = module.__doc__
        assert doc.startswith(f"``{strategy.name}``"), strategy.name
        for param in strategy.params:
            assert f"``{param}``" in doc, (strategy.name, param)
        assert ("Stochastic" in doc) == strategy.stochastic, strategy.name


def test_every_builtin_declares_its_metadata():
    # Registered eagerly by importing the package: the registry holds each record as is.
    assert all(oh.get_strategy(s.name) is s for s in strategies.BUILTINS)
    for strategy in strategies.BUILTINS:
        assert strategy.cost in COSTS and strategy.supports(oh.Rules()), strategy.name
        # Only the samplers are costly per decision, and only they refuse two decks.
        sampler = strategy.name in (
            "mc_bidder",
            "pimc",
            "bayes_pimc",
            "adaptive_pimc",
            "guided_pimc",
            "distilled_search",
        )
        assert strategy.heavy == sampler, strategy.name
        assert strategy.supports(oh.Rules(players=8, decks=2)) != sampler, strategy.name


def canonical_seatings(players: int) -> list[list]:
    """Seatings for a canonical table of ``players``: every new strategy at 4-7 seats
    (each shared set), three of them at 3 seats."""
    if players == 3:
        return [seats_for(players, players)]
    return [seats_for(players, 0, seats) for seats in SETS]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_new_strategies_play_canonical_games_legally(players):
    rules = oh.Rules(players=players)
    for seats in canonical_seatings(players):
        result = oh.simulate(rules, seats, games=200, seed=players)
        made = estimates(result)["made_rate"]
        assert (made > 0.2).all(), (seats, made)


def test_rule_based_strategies_beat_random_and_simple_holds_its_own():
    rules = oh.Rules(players=4, schedule=[7, 5, 3, 1])
    result = oh.simulate(
        rules, ["card_counter", "random", "expected_tricks", "simple"], games=400, seed=3
    )
    mean = estimates(result)["mean_total"]
    assert mean["card_counter"] > mean["random"] + 10
    assert mean["expected_tricks"] > mean["random"] + 10


VARIANTS = {
    "nullo": dict(nullo=True),
    "joker": dict(joker=True),
    "joker_no_trump": dict(joker=True, trump="CDHSN"),
    "no_trump_every_2": dict(no_trump_every=2),
    "swap_2": dict(swap=2),
    "swap_1_joker": dict(swap=1, joker=True),
    "forehead": dict(forehead=True),
    "closed_bids": dict(closed_bids=True, hook=False),
    "no_hook": dict(hook=False),
    "catastrophe": dict(fault_limit=6),
    "tiebreak": dict(tiebreak=True),
    "scoring": dict(made="10*bid", zero="5+cards", over="-diff", under="-10*diff"),
    "online": dict(over="taken", under="taken", all_bonus=10, double_all=True),
}


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_new_strategies_play_every_variant_legally(variant):
    rules = oh.Rules(players=4, max_cards=6, **VARIANTS[variant])
    pool = [seat for strategy, seat in zip(NEW, ALL, strict=True) if strategy.supports(rules)]
    for offset in range(0, len(pool), 4):
        oh.simulate(rules, seats_for(4, offset, pool), games=40, seed=offset + 11)


@pytest.mark.slow
@pytest.mark.parametrize("players", [5, 8])
def test_rule_based_strategies_play_two_decks_legally(players):
    rules = oh.Rules(players=players, decks=2, joker=True, max_cards=8)
    oh.simulate(rules, seats_for(players, 0, RULE_BASED), games=60, seed=players)


def test_sampling_strategies_refuse_two_decks():
    rules = oh.Rules(players=5, decks=2, max_cards=5)
    with pytest.raises(InvalidArgumentError, match="pimc"):
        check_seating(rules, ["simple", "simple", "pimc", "simple", "simple"])
    check_seating(oh.Rules(players=4, joker=True), ["mc_bidder", "pimc", "simple", "simple"])
    # simulate refuses such a seating before compiling anything.
    with pytest.raises(InvalidArgumentError, match="mc_bidder"):
        oh.simulate(rules, seats_for(5, 0, [CHEAP_MC, CHEAP_PIMC, "zero"]), games=20, seed=1)


def test_pimc_and_mc_bidder_are_reproducible():
    rules = oh.Rules(players=4, schedule=[5, 3])
    seats = SETS[1]  # the samplers' set
    a = oh.simulate(rules, seats, games=30, seed=9)
    b = oh.simulate(rules, seats, games=30, seed=9)
    assert np.array_equal(a.hands["bid"], b.hands["bid"])
    assert np.array_equal(a.hands["tricks"], b.hands["tricks"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    ["canonical", "joker", "swap_2", "forehead", "closed_bids", "nullo"],
)
def test_kernel_and_reference_engine_agree_on_the_new_strategies(variant):
    """The reference engine builds its own views; the strategies must play the same."""
    from conftest import assert_result_matches_replays

    rules = oh.Rules(players=4, schedule=[4, 1, 3], **VARIANTS.get(variant, {}))
    for offset in OFFSETS:
        seats = seats_for(4, offset)
        result = oh.simulate(rules, seats, games=2, seed=21 + offset)
        assert_result_matches_replays(result, rules, seats, 21 + offset, [0, 1])
