"""Throughput benchmark of the kernel: deals per second for one strategy at one table.

Used by ``ohhell bench`` and ``benchmarks/run_benchmarks.py``.  Timing covers the
kernel only (games of a single deal of ``cards`` cards), after the kernel is
compiled or loaded and a warm-up run; building frames is not timed.
"""

from __future__ import annotations

import os
import platform
import time

import numba

from ohhell_sim._version import __version__
from ohhell_sim.arguments import check_count, check_flag, check_seed, check_threads
from ohhell_sim.results import check_rows_fit
from ohhell_sim.rules import Rules
from ohhell_sim.run.pipeline import numba_threads, play, prepare_kernel
from ohhell_sim.run.record import Run
from ohhell_sim.run.sinks import Rows
from ohhell_sim.strategy import SeatSpec, check_seating


def machine_description() -> str:
    """CPU model and core count, for quoting benchmark figures."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs, {platform.system()}"


def bench(
    players: int = 4,
    cards: int = 10,
    strategy: SeatSpec = "random",
    deals: int = 2_000_000,
    threads: int | None = None,
    seed: int = 0,
    repeats: int = 3,
    progress: bool = False,
) -> dict:
    """Time the kernel on ``deals`` single-deal games; return the best of ``repeats``.

    Parameters
    ----------
    players, cards : int
        Table size and hand size.
    strategy : str or seat spec
        Strategy in every seat, as a seat of :func:`ohhell_sim.simulate` takes it
        (``"random"``, ``"simple[scale=1.5]"``).
    deals : int
        Deals per timed run.
    threads : int, optional
        Numba threads (default: all).
    seed : int
        Seed of the run.
    repeats : int
        Timed runs; the fastest counts (the others absorb noise from the machine).
    progress : bool
        Say so on stderr when the kernel compiles (its first run on this machine).

    Returns
    -------
    dict
        ``deals_per_second``, ``deals``, ``threads``, ``strategy``, ``players``,
        ``cards``, ``seconds`` and a description of the machine and versions.

    Raises
    ------
    InvalidArgumentError
        For a bad argument, before anything compiles.
    """
    rules = Rules(players=players, schedule=[cards])
    seating = check_seating(rules, [strategy] * players)
    deals = check_count("deals", deals)
    repeats = check_count("repeats", repeats)
    threads = check_threads(threads)
    seed = check_seed(seed)
    check_flag("progress", progress)
    check_rows_fit(rules, deals)
    with numba_threads(threads):
        used_threads = numba.get_num_threads()
        prepare_kernel(seating, rules, Rows.empty(rules, 0))
        run = Run(rules, seating, seed, 0, deals, threads)
        play(run.part(0, 1000), Rows.empty(rules, 1000))
        best = float("inf")
        for _ in range(repeats):
            sink = Rows.empty(rules, deals)
            start = time.perf_counter()
            play(run, sink)
            best = min(best, time.perf_counter() - start)
    return {
        "deals_per_second": deals / best,
        "deals": deals,
        "threads": used_threads,
        "strategy": seating.labels[0],
        "players": players,
        "cards": cards,
        "seconds": best,
        "machine": machine_description(),
        "numba": numba.__version__,
        "ohhell_sim": __version__,
    }
