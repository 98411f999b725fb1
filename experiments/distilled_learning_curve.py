"""The learning curve of ``distilled``: strength against training games and network size.

Trains ``distilled`` (:mod:`ohhell_sim.training.distilled`, the recipe of ``ohhell
train distilled``) from one seed at several numbers of training games with the
default networks, and at several network sizes at one number of games, then
measures each trained player by one duplicate tournament against a fixed
opponent: 4 players, two seats each, the canonical schedule, the same deal sets
and seed for every player (:func:`ohhell_sim.tournament`; the strength is the
tournament's paired difference of points per game, with its 95% interval).  A
network size is the card network's hidden units, the bid network's scaled in
proportion from the default (24 bid and 20 card units).  The positions of one
number of games are collected and labelled once, and every network size is
fitted to them.  Each trained player is played as a strategy of its own
(:func:`ohhell_sim.training.distilled.register_weights`).

Writes ``curve.csv`` into ``--out``: one row per trained player and sweep
(``games``: the default networks at each number of games; ``hidden``: each size
at ``--hidden-games``; the point in both is measured once), with its training
times, and ``meta.json`` with the command and the machine.  With ``--shipped``,
the point of the shipped weights' own recipe (the default command, ``ohhell
train distilled``) is measured on the shipped file instead of training it again
(the command gives those weights bit for bit), its times read from the file.

Usage::

    python experiments/distilled_learning_curve.py --games 375,750,1500,3000 \\
        --hidden 4,8,12,20 --hidden-games 750 --match-games 1600 --out DIR
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

import ohhell_sim as oh
from ohhell_sim.strategies.distilled import WEIGHTS_FILE, weights_meta
from ohhell_sim.strategies.tables import TABLES_DIR
from ohhell_sim.training.distilled import (
    HIDDEN,
    WORLDS,
    collect_positions,
    fit_weights,
    labelled_samples,
    register_weights,
    save_weights,
)

#: The columns of ``curve.csv``, in order.
COLUMNS = (
    "sweep",
    "games",
    "bid_hidden",
    "card_hidden",
    "seed",
    "epochs",
    "worlds",
    "bid_positions",
    "card_positions",
    "weights",
    "collect_seconds",
    "label_seconds",
    "fit_seconds",
    "train_seconds",
    "opponent",
    "match_games",
    "deal_sets",
    "match_seed",
    "advantage",
    "low",
    "high",
    "points_per_game",
    "points_low",
    "points_high",
)


def network_size(card_units: int) -> dict[str, int]:
    """Hidden units of both networks: ``card_units`` for the card network, the bid
    network's scaled in proportion from the default (:data:`HIDDEN`)."""
    return {"bid": round(card_units * HIDDEN["bid"] / HIDDEN["card"]), "card": card_units}


def strength(name: str, opponent: str, games: int, seed: int, threads: int) -> dict:
    """The duplicate match of ``name`` against ``opponent`` (two seats each, 4 players):
    its advantage in points per game and its own points per game, with 95% intervals."""
    result = oh.tournament(
        oh.Rules(players=4), [name, opponent, name, opponent], games, seed, threads=threads
    )
    (pair,) = result.pairwise.itertuples()
    sign = 1.0 if pair.pair == f"{name} - {opponent}" else -1.0
    low, high = sorted((sign * pair.low, sign * pair.high))
    ranking = result.ranking.set_index(["strategy", "measure"])
    own = ranking.loc[(name, "mean_total")]
    return {
        "opponent": opponent,
        "match_games": result.games_played,
        "deal_sets": result.units,
        "match_seed": seed,
        "advantage": sign * pair.estimate,
        "low": low,
        "high": high,
        "points_per_game": own["estimate"],
        "points_low": own["low"],
        "points_high": own["high"],
    }


def shipped_point(args: argparse.Namespace) -> dict | None:
    """The training row of the shipped weights, when ``--shipped`` and they were made by
    the recipe asked for at some ``--games`` with the default networks; else None."""
    meta = weights_meta()
    same = (
        meta.get("seed") == args.seed
        and meta.get("epochs") == args.epochs
        and meta.get("worlds") == args.worlds
        and meta.get("hidden") == HIDDEN
        and meta.get("games") in args.games
    )
    if not (args.shipped and same):
        return None
    collect = meta["collect_seconds"]
    return {
        "games": meta["games"],
        "bid_positions": meta["bid_positions"],
        "card_positions": meta["card_positions"],
        "weights": "shipped",
        "collect_seconds": collect,
        "label_seconds": None,
        "fit_seconds": None,
        "train_seconds": meta["total_seconds"],
        "path": TABLES_DIR / WEIGHTS_FILE,
    }


def trained_points(args: argparse.Namespace, games: int, sizes: list[int], folder: Path):
    """Collect and label the positions of ``games`` games once, fit each network size."""
    started = time.perf_counter()
    positions = collect_positions(args.seed, games, args.workers)
    collected = time.perf_counter()
    samples = labelled_samples(positions, args.seed, args.worlds)
    labelled = time.perf_counter()
    for units in sizes:
        hidden = network_size(units)
        fit_start = time.perf_counter()
        weights = fit_weights(positions, args.seed, args.epochs, args.worlds, None, hidden, samples)
        fit = time.perf_counter() - fit_start
        path = save_weights(weights, folder / f"distilled_g{games}_h{units}.npz")
        yield {
            "games": games,
            "bid_positions": len(positions.bid_views),
            "card_positions": len(positions.card_views),
            "weights": "trained",
            "collect_seconds": round(collected - started, 1),
            "label_seconds": round(labelled - collected, 1),
            "fit_seconds": round(fit, 1),
            # The time to train this player alone: its games, their labels, its fit.
            "train_seconds": round(labelled - started + fit, 1),
            "path": path,
            "units": units,
        }


def machine() -> str:
    """The processor and the cores this process may use."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {len(os.sched_getaffinity(0))} cores, {platform.system()}"


def run(args: argparse.Namespace, folder: Path, log, save) -> pd.DataFrame:
    """Train and measure every point of the curve (module docstring); ``save`` is
    handed the curve so far after each point."""
    default_units = HIDDEN["card"]
    plan: dict[int, list[int]] = {g: [default_units] for g in args.games}
    plan.setdefault(args.hidden_games, [])
    plan[args.hidden_games] = sorted({*plan[args.hidden_games], *args.hidden})
    shipped = shipped_point(args)
    rows = []
    for games in sorted(plan):
        if shipped and games == shipped["games"] and plan[games] == [default_units]:
            points = [{**shipped, "units": default_units}]
        else:
            log(f"training on {games} games, card hidden units {plan[games]}")
            points = trained_points(args, games, plan[games], folder)
        for point in points:
            units = point.pop("units")
            name = f"distilled_g{games}_h{units}"
            register_weights(name, point.pop("path"), replace=True)
            log(f"  {name}: trained in {point['train_seconds']} s; measuring")
            measured = strength(
                name, args.opponent, args.match_games, args.match_seed, args.threads
            )
            log(
                f"  {name}: {measured['advantage']:+.2f} [{measured['low']:+.2f}, "
                f"{measured['high']:+.2f}] points per game over {args.opponent}"
            )
            hidden = network_size(units)
            base = {
                **point,
                **measured,
                "bid_hidden": hidden["bid"],
                "card_hidden": hidden["card"],
                "seed": args.seed,
                "epochs": args.epochs,
                "worlds": args.worlds,
            }
            if games in args.games and units == default_units:
                rows.append({**base, "sweep": "games"})
            if games == args.hidden_games and units in args.hidden:
                rows.append({**base, "sweep": "hidden"})
            save(pd.DataFrame(rows, columns=list(COLUMNS)))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(
            f"expected positive integers separated by commas, got {text!r}"
        )
    return sizes


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command's arguments."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--games",
        type=_sizes,
        default=[375, 750, 1500, 3000],
        help="training games of the default networks' points",
    )
    p.add_argument(
        "--hidden",
        type=_sizes,
        default=[4, 8, 12, 20],
        help="card network hidden units of the size points",
    )
    p.add_argument(
        "--hidden-games", type=int, default=750, help="training games of the size points"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the training")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--worlds", type=int, default=WORLDS)
    p.add_argument("--workers", type=int, default=2, help="threads collecting positions")
    p.add_argument("--opponent", default="mc_bidder", help="the fixed opponent")
    p.add_argument(
        "--match-games",
        type=int,
        default=1600,
        help="games asked of each tournament (a multiple of 4)",
    )
    p.add_argument("--match-seed", type=int, default=7301, help="seed of the tournaments")
    p.add_argument("--threads", type=int, default=2, help="threads of the tournaments")
    p.add_argument(
        "--shipped",
        action="store_true",
        help="measure the shipped weights for their own recipe instead of training it",
    )
    p.add_argument("--weights", type=Path, help="keep the weights files in this folder")
    p.add_argument("--out", type=Path, default=Path("reports/distilled_learning_curve"))
    args = p.parse_args(argv)
    if args.hidden_games < 1:
        p.error(f"--hidden-games must be a positive integer, got {args.hidden_games}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the experiment and write ``curve.csv`` and ``meta.json`` into ``--out``."""
    args = parse(argv)
    command = shlex.join(
        [
            "python",
            "experiments/distilled_learning_curve.py",
            *(sys.argv[1:] if argv is None else argv),
        ]
    )
    started = datetime.datetime.now(datetime.UTC)
    clock = time.perf_counter()

    def log(line: str) -> None:
        print(f"[{time.perf_counter() - clock:7.0f} s] {line}", file=sys.stderr, flush=True)

    args.out.mkdir(parents=True, exist_ok=True)

    def save(curve: pd.DataFrame) -> None:
        curve.to_csv(args.out / "curve.csv", index=False)

    with tempfile.TemporaryDirectory() as scratch:
        folder = args.weights or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        curve = run(args, folder, log, save)
    meta = {
        "command": command,
        "machine": machine(),
        "started": started.isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - clock),
        "version": oh.__version__,
        "default_hidden": HIDDEN,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {args.out / 'curve.csv'} ({len(curve)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
