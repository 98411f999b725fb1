"""Where a player's time goes: its decisions by kind, and the parts of the costly ones.

Positions are collected from games of the player in every seat (4 players x 10
cards, the reference engine), then each kind of decision is timed on one thread
in a compiled loop over them, best of three by the process's CPU time (steadier than
the wall clock on a machine busy with other jobs):

* every player: bids, card choices with two or more legal cards, forced cards,
  and the microseconds a deal spends in each (their counts per deal times their
  times);
* ``distilled``: of a card choice, its inputs (the context, the state vector and
  every distinct card's move vector), the rest being the networks;
* ``pimc``: of a card choice, the hidden-hand draws alone, and the draws with
  their playouts (one per sample and distinct card); of a bid, the draws, the
  draws with the others' estimated bids, and with the playouts of the bid
  aimed at alone or of every bid;
* with ``--hidden``: ``distilled``'s bids and card choices with networks of
  other hidden sizes (random weights: the time does not depend on their values),
  the cost of a decision against the network's size.

Usage::

    python benchmarks/decision_costs.py                     # distilled and pimc
    python benchmarks/decision_costs.py --players distilled --games 100
    python benchmarks/decision_costs.py --players distilled --hidden 4,12,20
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.bench import machine_description
from ohhell_sim.engine.core import next_seat
from ohhell_sim.reference import Decision, game_steps, seat_streams
from ohhell_sim.strategies import _distilled_features as features
from ohhell_sim.strategies import distilled
from ohhell_sim.strategies._playout import (
    STACK_ROW,
    PlayoutDeal,
    deal_after,
    estimate_bids_by_own_bid,
    play_out_bids,
    play_out_settled,
    settle_flags,
    trick_after,
)
from ohhell_sim.strategies.expected_tricks import DEFAULT_RISK, expected_bid
from ohhell_sim.strategies.pimc import candidate_cards, distinct_choices
from ohhell_sim.strategies.sampler import PLAN_SIZE, draw_sample, prepare_sample
from ohhell_sim.strategy.tools import lowest_card

SEATS, CARDS, SEED = 4, 10, 1


def positions(name: str, games: int) -> dict[str, np.ndarray]:
    """The views of every decision of ``games`` games of ``name`` in every seat, by kind."""
    rules = oh.Rules(players=SEATS, schedule=[CARDS])
    strategy = oh.get_strategy(name)
    params = np.array(list(strategy.params.values()) or [0.0], dtype=np.float64)
    found: dict[str, list[np.ndarray]] = {"bid": [], "choice": [], "forced": []}
    for game in range(games):
        steps = game_steps(rules, [name] * SEATS, SEED, game)
        streams = seat_streams(SEED, game, SEATS)
        step = next(steps)
        try:
            while True:
                if not isinstance(step, Decision):
                    step = steps.send(None)
                    continue
                view = step.view
                if step.role == "bid":
                    kind, decide = "bid", strategy.bid
                else:
                    several = bin(int(view[V.LEGAL])).count("1") > 1
                    kind, decide = ("choice" if several else "forced"), strategy.play
                found[kind].append(view.copy())
                step = steps.send(int(decide(view, params, streams[step.seat])))
        except StopIteration:
            pass
    return {kind: np.array(views) for kind, views in found.items()}


def best_time(loop, views: np.ndarray, *args) -> float:
    """CPU nanoseconds per view of ``loop(views, *args)``, best of three after a warm-up."""
    loop(views[:2], *args)
    times = []
    for _ in range(3):
        start = time.process_time()
        loop(views, *args)
        times.append(time.process_time() - start)
    return min(times) / len(views) * 1e9


def decisions_loop(decide):
    """A compiled loop calling ``decide(view, params, rng)`` on every view."""

    @njit
    def loop(views, params):
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        total = 0
        for i in range(views.shape[0]):
            total += decide(views[i], params, rng)
        return total

    return loop


@njit
def distilled_inputs(views):
    """Every input vector a ``distilled`` card choice computes, and nothing else; with the
    number of cards tried (one move vector each)."""
    state = np.zeros(features.N_CARD_STATE)
    move = np.zeros(features.N_CARD_MOVE)
    total = 0.0
    tried = 0
    for i in range(views.shape[0]):
        context = features.card_context(views[i])
        features.card_state(views[i], context, state)
        choices = distinct_choices(views[i], context[0])
        while choices != 0:
            card = lowest_card(choices)
            choices &= choices - 1
            features.card_move(views[i], card, context, move)
            total += move[0]
            tried += 1
        total += state[0]
    return total, tried


@njit
def pimc_parts(views, samples, playouts):
    """The hidden-hand draws of ``pimc`` card choices, and with ``playouts`` their
    playouts too (one per sample and distinct card); with the number of playouts."""
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    work = np.zeros(V.MAX_SEATS, dtype=np.int64)
    won = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.zeros(V.MAX_SEATS, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    total = 0
    count = 0
    for i in range(views.shape[0]):
        view = views[i]
        prepare_sample(view, plan, pool)
        cards = candidate_cards(view)
        for s in range(view[V.N_PLAYERS]):
            bids[s] = view[V.BIDS_BASE + s]
        left = view[V.HAND_SIZE] - view[V.TRICK]
        for _ in range(samples):
            draw_sample(plan, pool, rng, hands)
            total += hands[0] & 1
            if not playouts:
                continue
            for card in cards:
                deal = deal_after(view, hands, card, work, won)
                trick = trick_after(view, card)
                play_out_settled(deal, bids, trick, left, view[V.SEAT], settle_flags(view))
                total += won[view[V.SEAT]]
                count += 1
    return total, count


@njit
def pimc_bid_parts(views, samples, upto):
    """Parts of ``pimc``'s bids: the draws (``upto`` 0), with the others' estimated
    bids (1), with the playouts of the bid aimed at alone (2) or of every bid (3)."""
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    pool = np.empty(53, dtype=np.int64)
    hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
    bids = np.empty(V.MAX_SEATS, dtype=np.int64)
    won = np.empty(V.MAX_SEATS, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    total = 0.0
    for i in range(views.shape[0]):
        view = views[i]
        n, h, most, me = view[V.N_PLAYERS], view[V.HAND_SIZE], view[V.MAX_BID], view[V.SEAT]
        active, trump = view[V.ACTIVE], view[V.TRUMP]
        prepare_sample(view, plan, pool)
        aim = min(max(expected_bid(view, DEFAULT_RISK), 0), most)
        wants = np.zeros((V.MAX_SEATS, h + 1), dtype=np.int64)
        stack = np.empty((most + 1, STACK_ROW), dtype=np.int64)
        counts = np.zeros((most + 1, h + 1))
        members = (np.int64(1) << (most + 1)) - 1 if upto == 3 else np.int64(1) << aim
        settle = settle_flags(view)
        for _ in range(samples):
            draw_sample(plan, pool, rng, hands)
            total += hands[0] & 1
            if upto == 0:
                continue
            for s in range(V.MAX_SEATS):
                bids[s] = view[V.BIDS_BASE + s] if s < n else -1
                won[s] = 0
            estimate_bids_by_own_bid(
                n, active, view[V.DEALER], h, most, view[V.HOOK], trump, hands, bids, me, wants
            )
            if upto == 1:
                continue
            deal = PlayoutDeal(n, active, trump, hands, won)
            first = next_seat(view[V.DEALER], active, n)
            keep = np.int64(1) << aim
            play_out_bids(deal, first, h, wants, members, me, counts, stack, keep, settle)
        total += counts.sum()
    return total


@njit
def distilled_decisions(views, bidding, state, move, embed, bias, out, out_bias):
    """``distilled``'s decision on every view, with the networks given."""
    total = 0
    for i in range(views.shape[0]):
        if bidding:
            total += distilled.network_bid(views[i], state, move, embed, bias, out, out_bias)
        else:
            total += distilled.network_card(views[i], state, move, embed, bias, out, out_bias)
    return total


def random_network(n_state: int, n_move: int, n_embed: int, hidden: int) -> tuple:
    """A network of ``distilled``'s layers with ``hidden`` units and random weights."""
    rng = np.random.default_rng(hidden)
    shapes = ((n_state, hidden), (n_move, hidden), (n_embed, hidden), (hidden,))
    shapes += ((hidden, features.N_OUTCOMES), (features.N_OUTCOMES,))
    return tuple((0.3 * rng.standard_normal(shape)).astype(np.float32) for shape in shapes)


def by_hidden_size(views: dict[str, np.ndarray], games: int, sizes: list[int]) -> None:
    """Print ``distilled``'s decision times with networks of each hidden size."""
    print("\ndistilled by hidden units (both networks; random weights):")
    for hidden in sizes:
        nets = {
            "bid": random_network(features.N_BID_STATE, features.N_BID_MOVE, 11, hidden),
            "choice": random_network(features.N_CARD_STATE, features.N_CARD_MOVE, 1, hidden),
        }
        per_deal = 0.0
        each = {}
        for kind in ("bid", "choice"):
            each[kind] = best_time(distilled_decisions, views[kind], kind == "bid", *nets[kind])
            per_deal += len(views[kind]) / games * each[kind] / 1000
        print(
            f"  {hidden:3d}: bid {each['bid']:6.0f} ns, card choice {each['choice']:6.0f} ns, "
            f"{per_deal:5.1f} us a deal in bids and choices"
        )


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="distilled,pimc", help="players to take apart")
    parser.add_argument("--games", type=int, default=60, help="games whose positions are timed")
    parser.add_argument(
        "--hidden", default="", help="distilled: hidden sizes to time, comma list (e.g. 4,12,20)"
    )
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.hidden.split(",") if size]
    if any(size < 1 for size in sizes):
        parser.error(f"--hidden must list positive integers, got {args.hidden!r}")
    print(f"{SEATS} players x {CARDS} cards, one thread, {machine_description()}")
    for name in args.players.split(","):
        views = positions(name, args.games)
        strategy = oh.get_strategy(name)
        params = np.array(list(strategy.params.values()) or [0.0], dtype=np.float64)
        per_deal = 0.0
        each = {}
        print(f"\n{name}:")
        for kind in ("bid", "choice", "forced"):
            decide = strategy.bid if kind == "bid" else strategy.play
            ns = each[kind] = best_time(decisions_loop(decide), views[kind], params)
            count = len(views[kind]) / args.games
            per_deal += count * ns / 1000
            print(
                f"  {kind:7s} {count:5.1f} a deal  {ns:9.0f} ns each  "
                f"{count * ns / 1000:7.1f} us a deal"
            )
        print(f"  decisions: {per_deal:.1f} us a deal ({1e6 / per_deal:,.0f} deals/s at most)")
        choices = views["choice"]
        if name == "distilled":
            ns = best_time(distilled_inputs, choices)
            tried = distilled_inputs(choices)[1] / len(choices)
            rest = (each["choice"] - ns) / tried
            print(
                f"  of a card choice: inputs {ns:.0f} ns; {tried:.2f} cards tried, "
                f"{rest:.0f} ns each for the rest (the networks and the choice)"
            )
            if sizes:
                by_hidden_size(views, args.games, sizes)
        if name == "pimc":
            samples = int(strategy.params["samples"])
            draws = best_time(pimc_parts, choices, samples, False)
            both = best_time(pimc_parts, choices, samples, True)
            playouts = pimc_parts(choices, samples, True)[1] / len(choices)
            print(
                f"  of a card choice: draws {draws / 1000:.1f} us, "
                f"playouts {(both - draws) / 1000:.1f} us ({playouts:.1f} of "
                f"{(both - draws) / playouts:.0f} ns each)"
            )
            bid_samples = int(strategy.params["bid_samples"])
            parts = [best_time(pimc_bid_parts, views["bid"], bid_samples, k) for k in range(4)]
            print(
                f"  of a bid: draws {parts[0] / 1000:.1f} us, estimated bids "
                f"{(parts[1] - parts[0]) / 1000:.1f} us, playouts of the bid aimed at "
                f"{(parts[2] - parts[1]) / 1000:.1f} us, of every bid "
                f"{(parts[3] - parts[1]) / 1000:.1f} us"
            )


if __name__ == "__main__":
    main()
