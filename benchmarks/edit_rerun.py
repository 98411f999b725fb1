"""Time the edit-and-run loop of a strategy author, and what each kernel costs per decision.

A user strategy is written to a module file (the ``template`` strategy's code,
played against three ``simple`` seats), imported and played for ``--games``
games; then the file is edited (its bid scale changes), imported again and
played again, in the same process, as a notebook author would.  Prints the
wall and CPU seconds of each run (on a busy machine the CPU seconds say what
an idle one would take).  Run it in a fresh process with an empty kernel cache to
time a first compile::

    OHHELL_CACHE_DIR=$(mktemp -d) python benchmarks/edit_rerun.py --games 1000 --edits 2

With ``--rate GAMES`` it then times the two kernels of ``simulate``'s ``kernel``
argument on the edited strategy, alternating, ``--rounds`` times each, one
thread, and prints the deals per second of each and the extra nanoseconds a
decision costs on the shared kernel (which calls every seat's strategy)::

    taskset -c 1 python benchmarks/edit_rerun.py --edits 0 --rate 20000 --rounds 5
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

import ohhell_sim as oh

_SOURCE = """
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import highest_by_power, lowest_by_power, popcount, winning_cards

SCALE = {scale}


@njit
def mine_bid(view, params, rng):
    hand, trump = view[V.HAND], view[V.TRUMP]
    count = 0
    for suit in range(4):
        cards = (hand >> (suit * 13)) & 8191
        count += popcount(cards >> (9 if suit == trump else 11))
    bid = min(max(int(round(SCALE * params[0] * count)), 0), view[V.MAX_BID])
    if bid == view[V.FORBIDDEN_BID]:
        bid = bid + 1 if bid < view[V.MAX_BID] else bid - 1
    return bid


@njit
def mine_play(view, params, rng):
    seat = view[V.SEAT]
    needed = view[V.BIDS_BASE + seat] - view[V.TRICKS_WON_BASE + seat]
    legal, led, trump = view[V.LEGAL], view[V.LED_SUIT], view[V.TRUMP]
    winners = winning_cards(view)
    if needed > 0 and winners:
        return lowest_by_power(winners, led, trump)
    losers = legal & ~winners
    if losers:
        return highest_by_power(losers, led, trump)
    return lowest_by_power(legal, led, trump)


oh.register_strategy("mine", mine_bid, mine_play, params={{"boldness": 1.0}}, replace=True)
"""


def main(argv: list[str] | None = None) -> None:
    """Time a first run and ``--edits`` edited runs of a user strategy (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=2)
    parser.add_argument("--kernel", default=None, help="simulate's kernel= (default: its own)")
    parser.add_argument("--rate", type=int, default=0, help="games per timed run (0: none)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ohhell-edit-"))
    sys.path.insert(0, str(folder))
    path = folder / "mine_strategy.py"
    rules = oh.Rules(players=4)
    seats = ["mine", "simple", "simple", "simple"]
    options = {} if args.kernel is None else {"kernel": args.kernel}
    module = None
    for run in range(args.edits + 1):
        path.write_text(_SOURCE.format(scale=1.0 + 0.25 * run), encoding="utf-8")
        start, cpu = time.perf_counter(), time.process_time()
        if module is None:
            module = importlib.import_module("mine_strategy")
        else:
            importlib.invalidate_caches()
            importlib.reload(module)
        result = oh.simulate(rules, seats, args.games, seed=1, **options)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        label = "first run" if run == 0 else f"edit {run}"
        mean_bid = result.hands.query("seat == 0")["bid"].mean()
        print(
            f"{label}: {seconds:.2f} s wall, {cpu:.2f} s CPU (seat 0 mean bid {mean_bid:.3f})",
            flush=True,
        )
    if args.rate:
        _rates(rules, seats, args.rate, args.rounds)


def _rates(rules: oh.Rules, seats: list[str], games: int, rounds: int) -> None:
    # Deals per second on each kernel, alternating; every seat makes a bid and
    # a card per trick in every deal, and the shared kernel calls every seat.
    kernels = ("dedicated", "shared")
    for kernel in kernels:  # compile or load outside the clock
        oh.simulate(rules, seats, 10, seed=1, threads=1, kernel=kernel)
    seconds: dict[str, list[float]] = {k: [] for k in kernels}
    for _ in range(rounds):
        for kernel in kernels:
            start = time.perf_counter()
            oh.simulate(rules, seats, games, seed=2, threads=1, kernel=kernel)
            seconds[kernel].append(time.perf_counter() - start)
    deals = games * rules.n_deals
    decisions = games * len(seats) * (rules.n_deals + int(rules.hand_sizes().sum()))
    best = {k: min(v) for k, v in seconds.items()}
    for kernel in kernels:
        print(f"{kernel}: {deals / best[kernel] / 1e6:.3f} M deals/s (best of {rounds})")
    extra = (best["shared"] - best["dedicated"]) / decisions * 1e9
    print(
        f"shared / dedicated speed: {best['dedicated'] / best['shared']:.2f}; "
        f"{extra:.0f} ns more per decision"
    )


if __name__ == "__main__":
    main()
