"""Agent steps per second: the batched environment beside OpenSpiel's ``oh_hell``, in one run.

Every environment plays single-deal games of 4 players × 10 tricks with random
legal actions, on one core; an agent step is one bid or card chosen by an
agent.  Measured, each for ``--seconds``:

* ``BatchedEnv`` (``ohhell_sim.env.batched``), every seat learning, ``--tables``
  tables, actions drawn in NumPy from the masks (figure with and without that
  draw);
* OpenSpiel's ``oh_hell`` stepped from Python (``num_tricks_fixed=10``), chance
  nodes sampled, with and without reading the mover's information-state tensor
  (its ``oh_hell`` has no observation tensor);
* the PettingZoo AEC environment ``OhHellEnv`` (the reference engine).

    python benchmarks/bench_env.py [--seconds 5] [--tables 4096]

OpenSpiel is optional (``pip install open-spiel``); without it its rows are skipped.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import numpy as np

import ohhell_sim as oh
from ohhell_sim.env import OhHellEnv
from ohhell_sim.env.batched import LEARNER, BatchedEnv

RULES = oh.Rules(players=4, schedule=(10,))


def batched(seconds: float, tables: int) -> tuple[float, float]:
    env = BatchedEnv(RULES, [LEARNER] * 4, tables=tables)
    _, masks, _ = env.reset(seed=1)
    env.step(np.argmax(masks, axis=1))  # compiled in reset; warm the step too
    rng = np.random.default_rng(0)
    steps, in_step, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = np.argmax(masks * rng.random(masks.shape, dtype=np.float32), axis=1)
        before = time.perf_counter()
        _, masks, _, _, _ = env.step(actions)
        in_step += time.perf_counter() - before
        steps += tables
    return steps / (time.perf_counter() - start), steps / in_step


def openspiel(seconds: float, observe: bool) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            if observe:
                state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def aec(seconds: float) -> float:
    env = OhHellEnv(RULES)
    rng = np.random.default_rng(0)
    steps, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=4096)
    args = parser.parse_args()
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    overall, stepping = batched(args.seconds, args.tables)
    print(
        f"BatchedEnv, {args.tables} tables: {overall:,.0f} agent steps/s "
        f"({stepping:,.0f} in step(), without drawing the actions)"
    )
    for observe in (False, True):
        rate = openspiel(args.seconds, observe)
        what = "with" if observe else "without"
        if rate is None:
            print("OpenSpiel oh_hell: not installed (pip install open-spiel)")
            break
        label = f"OpenSpiel oh_hell from Python, {what} information-state tensors"
        print(f"{label}: {rate:,.0f} agent steps/s")
    print(f"OhHellEnv (PettingZoo AEC, reference engine): {aec(args.seconds):,.0f} agent steps/s")


if __name__ == "__main__":
    main()
