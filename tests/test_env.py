"""The game-AI environments: PettingZoo's and Gymnasium's own checks, and equivalence.

A game driven through an environment with the moves of a run's strategies is
that run's game (:func:`ohhell_sim.replay`, itself checked against the kernel in
``test_engine_equivalence.py``), under drawn rules of every variant.  Random
actions drawn from the action masks never meet an illegal-move error, so the
masks allow only legal moves; the engine's own checks would raise otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import examples, seeds_st, variant_rules_st
from hypothesis import given, settings
from hypothesis import strategies as st

pettingzoo_test = pytest.importorskip("pettingzoo.test")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")

import ohhell_sim as oh  # noqa: E402
from ohhell_sim import view as V  # noqa: E402
from ohhell_sim.env import (  # noqa: E402
    BID_ACTION,
    ObservationLayout,
    OhHellEnv,
    OhHellSeatEnv,
    action_count,
    action_mask,
    action_of_move,
    env,
    raw_env,
)
from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError  # noqa: E402
from ohhell_sim.reference import Decision, strategy_answer  # noqa: E402
from ohhell_sim.rules import TIEBREAK_HAND_SIZE, Rules  # noqa: E402
from ohhell_sim.strategy import check_seating  # noqa: E402

SMALL = Rules(players=3, schedule=(3, 1, 2))
SEATS = ["simple", "random", "simple", "random"]


def _log_without_names(log) -> dict:
    data = log.to_dict()
    data.pop("strategies")
    return data


def _play_with_strategies(env: OhHellEnv, seats, seed: int, game: int) -> None:
    """Answer every decision of ``env``'s game with the strategies' moves, as actions."""
    answer = strategy_answer(check_seating(env.rules, seats), seed, game)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        decision: Decision = env.stepper.decision
        action = action_of_move(int(answer(decision)), int(decision.view[V.PHASE]))
        assert observation["action_mask"][action] == 1
        env.step(action)


# --- PettingZoo ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        SMALL,
        Rules(players=4, schedule=(2, 1), swap=1, closed_bids=True, hook=False),
        Rules(players=5, schedule=(1, 3), decks=2, joker=True, forehead=True),
        Rules(players=3, schedule=(3, 3, 3), fault_limit=2, tiebreak=True, nullo=True),
    ],
    ids=["small", "swap-closed", "two-decks-joker-forehead", "catastrophe-tiebreak-nullo"],
)
@pytest.mark.parametrize("make", [OhHellEnv, raw_env, env], ids=["class", "raw_env", "env"])
def test_pettingzoo_api_test_passes(rules, make):
    made = make(rules) if make is OhHellEnv else make(rules=rules)
    pettingzoo_test.api_test(made, num_cycles=300)


@pytest.mark.parametrize("make", [OhHellEnv, env], ids=["class", "env"])
def test_pettingzoo_seed_test_passes(make):
    pettingzoo_test.seed_test(
        lambda: make(SMALL) if make is OhHellEnv else make(rules=SMALL), num_cycles=200
    )


def test_env_wraps_raw_env_as_pettingzoos_classic_environments_do():
    from pettingzoo.utils import wrappers

    made = env(rules=SMALL, episode="deal", render_mode="ansi")
    chain = [type(made)]
    inner = made
    while isinstance(inner, wrappers.BaseWrapper):
        inner = inner.env
        chain.append(type(inner))
    assert chain == [
        wrappers.OrderEnforcingWrapper,
        wrappers.AssertOutOfBoundsWrapper,
        wrappers.TerminateIllegalWrapper,
        OhHellEnv,
    ]
    assert made.unwrapped.episode == "deal" and made.metadata["name"] == "ohhell_v0"
    assert isinstance(raw_env(rules=SMALL), OhHellEnv)
    with pytest.raises(AssertionError, match="reset"):
        made.step(0)  # before reset()
    made.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        made.step(action_count(SMALL))
    assert "Deal 0" in made.render()


def test_env_ends_the_game_at_an_action_the_mask_forbids():
    made = env(rules=SMALL, illegal_reward=-7)
    made.reset(seed=0)
    mover = made.agent_selection
    observation, *_ = made.last()
    made.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    finals = {}
    for agent in made.agent_iter():
        _, reward, terminated, truncated, _ = made.last()
        assert terminated or truncated
        finals[agent] = reward
        made.step(None)
    assert finals == {a: (-7 if a == mover else 0) for a in made.possible_agents}


def test_env_refuses_a_reward_that_is_not_a_number():
    with pytest.raises(InvalidArgumentError, match="illegal_reward must be a number, got 'x'"):
        env(rules=SMALL, illegal_reward="x")
    with pytest.raises(InvalidArgumentError, match="episode"):
        env(rules=SMALL, episode="trick")


def test_without_the_rl_extra_the_factories_name_it(monkeypatch):
    import ohhell_sim.env as package

    monkeypatch.delitem(sys.modules, "ohhell_sim.env.aec")
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    for name in ("env", "raw_env"):
        with pytest.raises(ImportError, match=r"pip install \"ohhell-sim\[rl\]\""):
            getattr(package, name)


@settings(max_examples=examples(25), deadline=None)
@given(rules=variant_rules_st(), seed=seeds_st, data=st.data())
def test_aec_game_driven_by_strategies_equals_replay(rules, seed, data):
    seats = data.draw(
        st.lists(
            st.sampled_from(["random", "simple"]), min_size=rules.players, max_size=rules.players
        )
    )
    env = OhHellEnv(rules)
    env.reset(seed=seed)
    _play_with_strategies(env, seats, seed, 0)
    expected = oh.replay(rules, seats, seed=seed, game=0)
    assert _log_without_names(env.stepper.log) == _log_without_names(expected)


@settings(max_examples=examples(25), deadline=None)
@given(rules=variant_rules_st(), seed=st.integers(0, 2**32 - 1))
def test_random_masked_actions_finish_every_game(rules, seed):
    env = OhHellEnv(rules, episode="game")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    log = env.stepper.log
    assert log is not None
    # The rewards add up to each seat's points in the game.
    assert [totals[f"player_{s}"] for s in range(rules.players)] == log.totals


def test_rewards_are_each_deals_points_when_it_ends():
    env = OhHellEnv(SMALL)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    rewards_seen = []
    for _agent in env.agent_iter():
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        deals_before = len(env.stepper.deals)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if len(env.stepper.deals) > deals_before:
            rewards_seen.append([env.rewards[f"player_{s}"] for s in range(3)])
    assert rewards_seen == [d.scores for d in env.stepper.log.deals]


def test_one_deal_episodes_deal_each_game_of_the_run_in_turn():
    env = OhHellEnv(SMALL, episode="deal", render_mode="ansi")
    hands = []
    for episode in range(3):
        env.reset(seed=11 if episode == 0 else None)
        _play_with_strategies(env, ["random"] * 3, 11, episode)
        assert len(env.stepper.deals) == 1
        hands.append(env.stepper.deals[0].hands)
        # The first deal of game g of the run.
        assert hands[-1] == oh.replay(SMALL, ["random"] * 3, seed=11, game=episode).deals[0].hands
        assert "Deal 0" in env.render()
    assert hands[0] != hands[1]


def test_an_action_the_mask_forbids_raises_the_engines_error():
    env = OhHellEnv(SMALL)
    env.reset(seed=0)
    observation, *_ = env.last()
    forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        env.step(forbidden)


def test_bad_arguments_name_the_parameter():
    with pytest.raises(InvalidArgumentError, match="episode"):
        OhHellEnv(SMALL, episode="trick")
    with pytest.raises(InvalidArgumentError, match="render_mode"):
        OhHellEnv(SMALL, render_mode="rgb_array")


# --- the observation and the mask -------------------------------------------------


def test_observation_holds_the_own_hand_and_relative_seats():
    env = OhHellEnv(SMALL)
    env.reset(seed=3)
    layout = env.layout
    decision = env.stepper.decision
    observation = env.observe(env.agent_selection)["observation"]
    held = np.flatnonzero(observation[layout["hand"]])
    view_hand = [c for c in range(52) if (int(decision.view[V.HAND]) >> c) & 1]
    assert held.tolist() == view_hand
    # The dealer bids last: the first bidder's dealer is the seat to its right,
    # n - 1 places to its left.
    dealer = np.flatnonzero(observation[layout["dealer"]]).tolist()
    assert dealer == [SMALL.players - 1]
    assert observation[layout["phase"]].tolist() == [1, 0, 0]


def test_the_hook_removes_the_dealers_forbidden_bid_from_the_mask():
    rules = Rules(players=3, schedule=(3,))
    view = np.full(V.VIEW_SIZE, V.UNKNOWN, dtype=np.int64)
    view[V.PHASE] = V.PHASE_BID
    view[V.MAX_BID] = 3
    view[V.FORBIDDEN_BID] = 1
    mask = action_mask(view, rules)
    assert np.flatnonzero(mask).tolist() == [BID_ACTION + b for b in (0, 2, 3)]


def test_layout_table_lists_every_field_once():
    layout = ObservationLayout(SMALL)
    table = layout.table()
    assert all(f"`{f.name}`" in table for f in layout.fields)
    assert sum(f.length for f in layout.fields) == layout.size


# --- Gymnasium ----------------------------------------------------------------------


def test_gymnasium_check_env_passes():
    env_checker.check_env(OhHellSeatEnv(SMALL, opponents=["simple", "random"], seat=1))


@settings(max_examples=examples(15), deadline=None)
@given(rules=variant_rules_st(), seed=seeds_st, data=st.data())
def test_seat_game_driven_by_its_strategy_equals_replay(rules, seed, data):
    n = rules.players
    seats = data.draw(st.lists(st.sampled_from(["random", "simple"]), min_size=n, max_size=n))
    seat = data.draw(st.integers(0, n - 1))
    env = OhHellSeatEnv(rules, opponents=seats[:seat] + seats[seat + 1 :], seat=seat)
    _, info = env.reset(seed=seed)
    answer = strategy_answer(check_seating(rules, seats), seed, 0)
    points, done = 0.0, env.stepper.done
    while not done:
        decision = env.stepper.decision
        action = action_of_move(int(answer(decision)), int(decision.view[V.PHASE]))
        assert info["action_mask"][action] == 1
        _, reward, done, _, info = env.step(action)
        points += reward
    expected = oh.replay(rules, seats, seed=seed, game=0)
    assert _log_without_names(env.stepper.log) == _log_without_names(expected)
    assert points == expected.totals[seat]


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = OhHellSeatEnv(SMALL, opponents=["random", "random"], illegal_reward=-7)
    _, info = env.reset(seed=0)
    forbidden = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(forbidden)
    assert (reward, terminated, info["illegal_action"]) == (-7, True, forbidden)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_seat_env_bad_arguments_name_the_parameter():
    with pytest.raises(InvalidArgumentError, match="seat"):
        OhHellSeatEnv(SMALL, seat=3)
    with pytest.raises(InvalidArgumentError, match="opponents"):
        OhHellSeatEnv(SMALL, opponents=["simple"])
    with pytest.raises(InvalidArgumentError, match="nope"):
        OhHellSeatEnv(SMALL, opponents=["simple", "nope"])


# --- the documentation page ----------------------------------------------------------

RL_PAGE = Path(__file__).resolve().parents[1] / "docs" / "rl.md"


def _rl_section() -> str:
    return RL_PAGE.read_text(encoding="utf-8")


def test_docs_show_the_observation_layout_of_four_players():
    assert ObservationLayout(Rules(players=4)).table() in _rl_section()


@pytest.mark.slow
def test_docs_examples_run(capsys):
    section = _rl_section()
    blocks = [part.split("```", 1)[0] for part in section.split("```python")[1:]]
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), namespace)
    assert "Final totals" in capsys.readouterr().out
    assert namespace["rewards"].shape == (4096, 4)


def test_the_action_space_holds_the_bids_of_a_tiebreak_deal_larger_than_the_schedule():
    rules = Rules(players=3, schedule=(1, 2), tiebreak=True)
    assert action_count(rules) == BID_ACTION + TIEBREAK_HAND_SIZE + 1


def test_the_seat_environment_renders_the_game_so_far():
    env = OhHellSeatEnv(SMALL, opponents=["random", "random"], render_mode="ansi")
    env.reset(seed=2)
    assert "seat 0 agent" in env.render()
    assert OhHellSeatEnv(SMALL, opponents=["random", "random"]).render() is None
