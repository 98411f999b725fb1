"""``distilled`` beside the players it was learned from: speed, strength, one-card regret.

Three measurements, printed as tables (and written as JSON with ``--json``):

1. **deals/s**, 4 players x 10 cards, one thread, of ``distilled`` and
   ``adaptive_pimc`` in one run (:func:`ohhell_sim.bench.bench`, best of three);
2. **strength**: duplicate tournaments on the canonical schedule between
   ``distilled`` and each opponent, at 4 players two seats each and at 3 and 5
   players in alternate seats; the figure is the mean total per game of
   ``distilled`` minus the opponent's, with intervals Bonferroni-corrected over
   every comparison of the run;
3. **one-card regret** by bidding position against the exact solution
   (:func:`ohhell_sim.exact.builtin_regret`).

Usage::

    python benchmarks/distilled_targets.py --games 4000 --seed 2027
    python benchmarks/distilled_targets.py --quick      # small counts, a smoke run
"""

from __future__ import annotations

import argparse
import json
import time

import pandas as pd

import ohhell_sim as oh
from ohhell_sim.bench import bench, machine_description
from ohhell_sim.exact import builtin_regret
from ohhell_sim.tournament import tournament

OPPONENTS = ("adaptive_pimc", "mc_bidder", "learned")
TABLE_SIZES = (4, 3, 5)


def speed(quick: bool) -> list[dict]:
    """Deals/s of distilled and adaptive_pimc, 4 x 10, one thread."""
    rows = []
    for name, deals in (("distilled", 20_000), ("adaptive_pimc", 100)):
        if quick:
            deals = max(20, deals // 10)
        runs = [bench(players=4, cards=10, strategy=name, deals=deals, threads=1) for _ in range(3)]
        rows.append({"strategy": name, "deals/s": max(r["deals_per_second"] for r in runs)})
    return rows


def seats(opponent: str, players: int) -> list[str]:
    """Two seats each at 4 players; alternate seats otherwise."""
    if players == 4:
        return ["distilled", "distilled", opponent, opponent]
    return [("distilled", opponent)[s % 2] for s in range(players)]


def strength(games: int, seed: int, opponents: tuple[str, ...], sizes: tuple[int, ...]) -> list:
    """Duplicate tournaments of distilled against each opponent at each table size."""
    comparisons = len(opponents) * len(sizes)
    confidence = 1 - 0.05 / comparisons
    rows = []
    for players in sizes:
        for opponent in opponents:
            started = time.perf_counter()
            n = games - games % players
            result = tournament(
                oh.Rules(players=players),
                seats(opponent, players),
                n,
                seed=seed,
                confidence=confidence,
            )
            pair = result.pairwise.iloc[0]
            sign = 1.0 if pair["pair"].startswith("distilled") else -1.0
            low, high = sorted((sign * pair["low"], sign * pair["high"]))
            rows.append(
                {
                    "players": players,
                    "opponent": opponent,
                    "games": result.games_played,
                    "distilled minus opponent": round(sign * pair["estimate"], 2),
                    "low": round(low, 2),
                    "high": round(high, 2),
                    "seconds": round(time.perf_counter() - started),
                }
            )
            print(rows[-1], flush=True)
    return rows


def regret(games: int, seed: int) -> pd.DataFrame:
    """One-card regret by position of distilled and adaptive_pimc, 4 players."""
    frame = builtin_regret(oh.Rules(players=4), ["distilled", "adaptive_pimc"], games, seed)
    return frame[["strategy", "role", "exact", "estimate", "regret", "regret_low", "regret_high"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per tournament")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--one-card-games", type=int, default=20_000)
    parser.add_argument("--skip", default="", help="comma-separated: speed,strength,regret")
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--players", default=",".join(map(str, TABLE_SIZES)))
    parser.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    parser.add_argument("--json", help="write the tables to this JSON file")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    games = 40 if args.quick else args.games
    out: dict = {"machine": machine_description(), "seed": args.seed}
    pd.set_option("display.width", 160)
    if "speed" not in skip:
        out["speed"] = speed(args.quick)
        print(pd.DataFrame(out["speed"]).to_string(index=False))
    if "strength" not in skip:
        opponents = tuple(args.opponents.split(","))
        sizes = tuple(int(p) for p in args.players.split(","))
        out["strength"] = strength(games, args.seed, opponents, sizes)
        print(pd.DataFrame(out["strength"]).to_string(index=False))
    if "regret" not in skip:
        frame = regret(2000 if args.quick else args.one_card_games, args.seed)
        out["regret"] = frame.to_dict(orient="records")
        print(frame.to_string(index=False))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
