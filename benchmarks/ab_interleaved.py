"""Interleaved A/B of the kernel's speed between two checkouts, robust to a drifting machine.

Two worker processes, one per checkout (each imports ``ohhell_sim`` from its own
folder), are pinned to the same core and time a run in turn, round after round;
the figure is the median of the per-round ratios B/A, with its quartiles.  Slow
drift of the machine hits both sides of a round alike, which timing A then B
minutes apart does not.  Check the method with the same checkout on both sides
(an A/A run gives a ratio near 1)::

    git worktree add /tmp/before <commit>
    python benchmarks/ab_interleaved.py /tmp/before . --strategy random
    python benchmarks/ab_interleaved.py /tmp/before . --strategy simple --mode summary
    python benchmarks/ab_interleaved.py /tmp/before . --import benchmarks/user_strategies.py \
        --strategy user_simple

``--mode bench`` times single-deal games as ``ohhell bench`` does (4 players,
10 cards); ``--mode summary`` times canonical 4-player games in summary mode;
``--mode env`` times the batched environment's ``step`` (1,024 tables of 4
learning seats, 10 cards, actions drawn from the masks outside the clock; the
figure is agent steps per second, ``--deals`` steps a timed run).
With ``--clock cpu`` the bench and summary modes are timed by each worker's CPU
time instead of the wall clock: on a machine busy with other jobs a worker's
wall time counts the time it waited for the core, its CPU time does not.
``--kernel shared`` times the bench and summary modes on the shared kernel (the one
runs under 1,000,000 games play on, each strategy called through a function pointer)
instead of the strategies' dedicated kernel.
Kernels are cached in ``$OHHELL_CACHE_DIR`` (both checkouts may share it: their
kernel files differ by name when their sources do).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _worker(
    mode: str,
    strategy: str,
    deals: int,
    threads: int,
    imports: list[str],
    clock: str,
    kernel: str,
) -> None:
    # Runs inside one checkout: answers each line on stdin with deals per second.
    import runpy

    import ohhell_sim as oh
    from ohhell_sim.bench import bench

    for path in imports:  # modules that register user strategies
        runpy.run_path(path)

    rules = oh.Rules(players=4)
    games = max(1, deals // rules.n_deals)

    if mode == "env":
        import numpy as np

        from ohhell_sim.env.batched import LEARNER, BatchedEnv

        tables = 1024
        env = BatchedEnv(oh.Rules(players=4, schedule=(10,)), [LEARNER] * 4, tables=tables)
        draws = np.random.default_rng(0)

    def once() -> float:
        if mode == "env":
            # Agent steps per second inside step(), actions drawn outside the clock.
            _, masks, _ = env.reset(seed=1)
            elapsed, steps = 0.0, 0
            while steps < deals:
                actions = np.argmax(masks * draws.random(masks.shape), axis=1)
                start = time.perf_counter()
                _, masks, _, _, _ = env.step(actions)
                elapsed += time.perf_counter() - start
                steps += tables
            return steps / elapsed
        if mode == "bench" and clock == "wall" and kernel == "dedicated":
            result = bench(strategy=strategy, threads=threads, deals=deals, repeats=1)
            return result["deals_per_second"]
        timer = time.perf_counter if clock == "wall" else time.process_time
        start = timer()
        if mode == "bench":
            # The games of ``ohhell bench``, timed by the chosen clock.
            single = oh.Rules(players=4, schedule=[10])
            oh.simulate(single, [strategy] * 4, games=deals, threads=threads, kernel=kernel)
            return deals / (timer() - start)
        oh.summarise(rules, [strategy] * 4, games=games, threads=threads, kernel=kernel)
        return games * rules.n_deals / (timer() - start)

    once()  # compile or load the kernel, warm up
    print("ready", flush=True)
    for _ in sys.stdin:
        print(once(), flush=True)


def _start(folder: Path, args: argparse.Namespace) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(folder))
    command = [
        sys.executable,
        __file__,
        "--worker",
        "--mode",
        args.mode,
        "--strategy",
        args.strategy,
        "--deals",
        str(args.deals),
        "--threads",
        str(args.threads),
        "--clock",
        args.clock,
        "--kernel",
        args.kernel,
        *(f"--import={path}" for path in args.imports),
    ]
    if args.core is not None:
        command = ["taskset", "-c", str(args.core), *command]
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    if process.stdout.readline().strip() != "ready":
        raise SystemExit(f"the worker in {folder} did not start")
    return process


def _time(process: subprocess.Popen) -> float:
    process.stdin.write("go\n")
    process.stdin.flush()
    return float(process.stdout.readline())


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", type=Path, help="checkout A (the baseline)")
    parser.add_argument("b", nargs="?", type=Path, help="checkout B (the change)")
    parser.add_argument("--mode", choices=("bench", "summary", "env"), default="bench")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--deals", type=int, default=200_000, help="deals per timed run")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--core", type=int, default=1, help="CPU to pin both workers to")
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        type=lambda path: str(Path(path).resolve()),
        help="a .py file that registers user strategies, run in both workers (repeatable)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time by the wall clock, or by the worker's CPU time (bench and summary modes; "
        "steadier on a machine busy with other jobs)",
    )
    parser.add_argument(
        "--kernel",
        choices=("dedicated", "shared"),
        default="dedicated",
        help="the kernel the bench and summary modes play on (default: dedicated)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mode == "env" and args.clock == "cpu":
        parser.error("--clock cpu times the bench and summary modes only")
    if args.worker:
        _worker(
            args.mode,
            args.strategy,
            args.deals,
            args.threads,
            args.imports,
            args.clock,
            args.kernel,
        )
        return
    if args.a is None or args.b is None:
        parser.error("give the two checkouts A and B")
    if args.threads > 1:
        args.core = None  # several threads need several cores
    a, b = _start(args.a.resolve(), args), _start(args.b.resolve(), args)
    times_a, times_b = [], []
    for i in range(args.rounds):
        # Alternate which side goes first, so that neither always runs second.
        pairs = ((a, times_a), (b, times_b)) if i % 2 == 0 else ((b, times_b), (a, times_a))
        for process, times in pairs:
            times.append(_time(process))
    for process in (a, b):
        process.stdin.close()
        process.wait()
    ratios = [y / x for x, y in zip(times_a, times_b, strict=True)]
    low, _, high = statistics.quantiles(ratios, n=4)
    unit = "agent steps/s" if args.mode == "env" else "deals/s"
    print(
        f"{args.mode} {args.strategy if args.mode != 'env' else 'learners'}, "
        f"{args.threads} thread(s), {args.rounds} rounds: "
        f"A median {_rate(statistics.median(times_a), unit)}, "
        f"B median {_rate(statistics.median(times_b), unit)}, "
        f"B/A median ratio {statistics.median(ratios):.3f} (quartiles {low:.3f}-{high:.3f})"
    )


def _rate(per_second: float, unit: str) -> str:
    # Millions for the engine's rates, whole deals for the sampling strategies'.
    if per_second >= 1e5:
        return f"{per_second / 1e6:.3f} M {unit}"
    return f"{per_second:,.0f} {unit}"


if __name__ == "__main__":
    main()
