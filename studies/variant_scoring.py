"""Study ``variant_scoring``: what each scoring table does to bids, rankings and games.

Every scoring variant is played with the same seed, seats and schedule, so game
*g* has the same cards under every table and each variant is compared with the
canonical table game by game.  ``learned`` bids the legal bid of highest
expected points under the active tables, so its bids show how score-maximising
bids shift; ``simple`` and ``zero`` ignore the scoring and show what a player
who does not adapt gains or loses.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import bootstrap_matrix, grouped_mean, paired_by_game
from ohhell_sim.rules import Rules
from studies.design import MIX_STRATEGIES
from studies.report import study_report
from studies.runs import Condition, StudyData, play_conditions

NAME = "variant_scoring"
QUESTION = "How do the scoring tables change bids, rankings, score spread and decisiveness?"
DEFAULT_GAMES = 2000
DEFAULT_PLAYERS = (4,)
BASELINE = "canonical"

#: Scoring variant name -> (preset, overrides).
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    BASELINE: ("canonical", {}),
    "made=10*bid": ("canonical", {"made": "10*bid"}),
    "made=10+bid^2": ("canonical", {"made": "10+bid^2"}),
    "made=10+2*bid": ("canonical", {"made": "10+2*bid"}),
    "made=5+bid": ("canonical", {"made": "5+bid"}),
    "zero=5": ("canonical", {"zero": "5"}),
    "zero=5+cards": ("canonical", {"zero": "5+cards"}),
    "zero=10+cards": ("canonical", {"zero": "10+cards"}),
    "miss=-10*diff (penalty)": ("canonical", {"over": "-10*diff", "under": "-10*diff"}),
    "miss=-diff": ("canonical", {"over": "-diff", "under": "-diff"}),
    "miss=-diff^2": ("canonical", {"over": "-diff^2", "under": "-diff^2"}),
    "all_bonus=10": ("canonical", {"all_bonus": 10}),
    "double_all": ("canonical", {"double_all": True}),
    "online preset": ("online", {}),
    "openspiel preset": ("openspiel", {}),
}


def seats_for(players: int) -> tuple[str, ...]:
    """The seating of every variant: :data:`MIX_STRATEGIES` in turn around the table."""
    return tuple(MIX_STRATEGIES[i % len(MIX_STRATEGIES)] for i in range(players))


def conditions(games: int, players: tuple[int, ...]) -> list[Condition]:
    """Every scoring variant at every table size, one seating."""
    return [
        Condition(
            {"players": n, "variant": name},
            Rules.preset(preset, players=n, **overrides),
            seats_for(n),
            games,
        )
        for n in players
        for name, (preset, overrides) in VARIANTS.items()
    ]


def play(
    games: int, seed: int, players: tuple[int, ...] = DEFAULT_PLAYERS, progress: bool = True
) -> StudyData:
    """Play the study's conditions (see :func:`conditions`) with ``seed``."""
    return play_conditions(conditions(games, players), seed, progress=progress, description=NAME)


def halftime_decisiveness(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per (players, variant, game): the win share of the leader after half the deals.

    The leaders are the seats with the highest total after the first
    ``n_deals // 2`` deals; the value is their mean final win share (1 when the
    one leader wins outright, 1/2 when it shares the win with one other player).
    """
    keys = ["players", "variant", "game"]
    n_deals = hands.groupby("condition", observed=True)["deal"].transform("max") + 1
    half = hands["deal"] < n_deals // 2
    totals = hands[half].groupby([*keys, "seat"], observed=True)["score"].sum()
    leading = totals == totals.groupby(level=keys, observed=True).transform("max")
    share = games.set_index([*keys, "seat"])["win_share"]
    leaders = share[leading[leading].index]
    return leaders.groupby(level=keys, observed=True).mean().rename("decisive").reset_index()


def _sd(totals: np.ndarray) -> float:
    return float(totals.std(ddof=1))


def _sd_relative(totals: np.ndarray) -> float:
    # Scale-free spread: totals can be negative on average under penalties.
    return _sd(totals) / float(np.abs(totals).mean())


def analyse(data: StudyData) -> Report:
    """The report of a ``variant_scoring`` run, every number computed from ``data``."""
    hands, games = data.hands, data.games
    names = [v for v in VARIANTS if v in set(hands["variant"].astype(str))]
    hands = hands.assign(
        variant=hands["variant"].astype(str),
        zero=hands["bid"] == 0,
        made=hands["bid"] == hands["tricks"],
    )
    games = games.assign(variant=games["variant"].astype(str))

    bids = grouped_mean(hands, hands["bid"], ["players", "variant", "strategy"])
    shift = pd.concat(
        [
            paired_by_game(
                hands, hands["bid"], "variant", name, BASELINE, by=["players", "strategy"]
            ).assign(variant=name)
            for name in names
            if name != BASELINE
        ],
        ignore_index=True,
    )
    zero = grouped_mean(hands, hands["zero"], ["players", "variant", "strategy"])
    bid_table = (
        bids[["players", "variant", "strategy"]]
        .assign(
            mean_bid=bids["estimate"],
            mean_bid_low=bids["low"],
            mean_bid_high=bids["high"],
            zero_bid_rate=zero["estimate"],
            zero_bid_rate_low=zero["low"],
            zero_bid_rate_high=zero["high"],
        )
        .merge(
            shift.rename(
                columns={
                    "estimate": "shift_vs_canonical",
                    "low": "shift_vs_canonical_low",
                    "high": "shift_vs_canonical_high",
                }
            ).drop(columns=["n", "method"]),
            on=["players", "variant", "strategy"],
            how="left",
        )
    )

    wins = grouped_mean(games, games["win_share"], ["players", "variant", "strategy"], bounded=True)
    totals = grouped_mean(games, games["total"], ["players", "variant", "strategy"])
    ranking = wins[["players", "variant", "strategy"]].assign(
        win_share=wins["estimate"],
        win_share_low=wins["low"],
        win_share_high=wins["high"],
        mean_total=totals["estimate"],
        mean_total_low=totals["low"],
        mean_total_high=totals["high"],
    )
    orders = {
        key: " > ".join(rows.sort_values("win_share", ascending=False)["strategy"])
        for key, rows in ranking.groupby(["players", "variant"], sort=False)
    }

    decisive = halftime_decisiveness(hands, games)
    spread_rows = []
    for (n, name), rows in games.groupby(["players", "variant"], sort=False):
        # One row of seat totals per game: games are the resampling unit.
        totals = rows.sort_values(["game", "seat"])["total"].to_numpy(float)
        totals = totals.reshape(rows["game"].nunique(), -1)
        sd = bootstrap_matrix(totals, _sd)
        relative = bootstrap_matrix(totals, _sd_relative)
        per_game = decisive[(decisive["players"] == n) & (decisive["variant"] == name)]
        dec = grouped_mean(per_game, per_game["decisive"], [], bounded=True)
        spread_rows.append(
            {
                "players": n,
                "variant": name,
                "games": rows["game"].nunique(),
                "sd_total": sd[0],
                "sd_total_low": sd[1],
                "sd_total_high": sd[2],
                "sd_relative": relative[0],
                "sd_relative_low": relative[1],
                "sd_relative_high": relative[2],
                "leader_wins": dec["estimate"][0],
                "leader_wins_low": dec["low"][0],
                "leader_wins_high": dec["high"][0],
                "ranking": orders[(n, name)],
            }
        )
    spread = pd.DataFrame(spread_rows)
    decisive_diff = pd.concat(
        [
            paired_by_game(
                decisive, decisive["decisive"], "variant", name, BASELINE, by=["players"]
            ).assign(variant=name)
            for name in names
            if name != BASELINE
        ],
        ignore_index=True,
    )

    order = {name: i for i, name in enumerate(names)}
    bid_table = bid_table.sort_values(
        ["players", "variant"],
        key=lambda c: c.map(order) if c.name == "variant" else c,
        kind="stable",
    )
    ranking = ranking.sort_values(
        ["players", "variant"],
        key=lambda c: c.map(order) if c.name == "variant" else c,
        kind="stable",
    )
    findings = _findings(data, bid_table, spread, decisive_diff)
    learned_shift = shift[shift["strategy"] == "learned"]
    tables = [
        Table(
            "Bids per deal by scoring variant and strategy",
            display_table(bid_table),
            "shift_vs_canonical: mean bid minus the canonical table's on the same games "
            "(paired by game).",
        ),
        Table("Win share and mean final total per seat", display_table(ranking)),
        Table(
            "Spread and decisiveness of the game",
            display_table(spread),
            "sd_total: standard deviation of final totals (bootstrap interval over "
            "games); sd_relative: the same divided by the mean absolute total; leader_wins: mean "
            "final win share of the leader(s) after half the deals.",
        ),
        Table(
            "Decisiveness against the canonical table (paired by game)",
            display_table(
                decisive_diff[["players", "variant", "n", "estimate", "low", "high"]].rename(
                    columns={"n": "pairs"}
                )
            ),
        ),
    ]
    figures = [
        Figure(
            "learned_bid_shift.png",
            "Mean bid of learned minus the canonical table's",
            interval_plot(
                learned_shift,
                "variant",
                series="players",
                title="Score-maximising bids (learned) vs canonical",
                xlabel="scoring variant",
                ylabel="bid shift per deal",
                zero_line=True,
                order=names,
            ),
        ),
        Figure(
            "win_share_by_variant.png",
            "Win share per seat by scoring variant",
            interval_plot(
                wins,
                "variant",
                series="strategy",
                panels="players",
                title="Win share",
                xlabel="scoring variant",
                ylabel="win share per seat",
                order=names,
            ),
        ),
        Figure(
            "leader_wins_by_variant.png",
            "Win share of the half-game leader",
            interval_plot(
                spread.rename(
                    columns={
                        "leader_wins": "estimate",
                        "leader_wins_low": "low",
                        "leader_wins_high": "high",
                    }
                ),
                "variant",
                series="players",
                title="Decisiveness",
                xlabel="scoring variant",
                ylabel="leader's win share",
                order=names,
            ),
        ),
    ]
    method = [
        "Every variant is played with the same seed, seats and schedule: the same cards in "
        "every game, so differences from the canonical table are paired by game (per-game "
        "means, Student-t interval over games).",
        "learned bids the legal bid of highest expected points under the active scoring "
        "tables; simple and zero do not look at the scoring. Seats: "
        + ", ".join(seats_for(min(data.manifest["players"])))
        + " (in turn around the table).",
        "Per-deal means are clustered by game; win shares are per seat; the spread of "
        "final totals gets a bootstrap interval over games (200 resamples).",
        "Decisiveness: the leaders after half the deals (integer half of the schedule); "
        "each game scores their mean final win share.",
        "Intervals are per comparison: among many variants, about one in twenty intervals "
        "excludes zero by chance alone.",
    ]
    return study_report(NAME, QUESTION, data.manifest, method, findings, tables, figures)


def _ci(row: pd.Series, base: str, digits: int = 3) -> str:
    return fmt_ci(row[base], row[f"{base}_low"], row[f"{base}_high"], digits)


def _findings(data: StudyData, bid_table, spread, decisive_diff) -> list[str]:
    out = []
    rules = {c["label"]["variant"]: c["rules"] for c in data.manifest["conditions"]}
    same = [
        (a, b) for i, a in enumerate(rules) for b in list(rules)[i + 1 :] if rules[a] == rules[b]
    ]
    for a, b in same:
        out.append(f"{b} and {a} are the same rules here, hence the same results.")
    learned = bid_table[(bid_table["strategy"] == "learned")].dropna(subset=["shift_vs_canonical"])
    up = learned.loc[learned["shift_vs_canonical"].idxmax()]
    down = learned.loc[learned["shift_vs_canonical"].idxmin()]
    out.append(
        f"Score-maximising bids (learned) move most under {up['variant']} "
        f"({_ci(up, 'shift_vs_canonical')} tricks per deal against the canonical table, "
        f"{up['players']} players) and {down['variant']} ({_ci(down, 'shift_vs_canonical')})."
    )
    for n, rows in spread.groupby("players", sort=False):
        base = rows[rows["variant"] == BASELINE].iloc[0]
        changed = rows[rows["ranking"] != base["ranking"]]
        names = ", ".join(changed["variant"]) if len(changed) else "no variant"
        out.append(
            f"{n} players: the canonical win-share ranking is {base['ranking']}; "
            f"it changes under {names}."
        )
        tight = rows.loc[rows["sd_relative"].idxmin()]
        loose = rows.loc[rows["sd_relative"].idxmax()]
        out.append(
            f"{n} players: relative to their mean size, final totals spread least under "
            f"{tight['variant']} (sd / mean |total| {_ci(tight, 'sd_relative')}) and most under "
            f"{loose['variant']} ({_ci(loose, 'sd_relative')})."
        )
        out.append(
            f"{n} players: the half-game leader takes {_ci(base, 'leader_wins')} of the win "
            "under the canonical table."
        )
        diffs = decisive_diff[decisive_diff["players"] == n]
        resolved = diffs[(diffs["low"] > 0) | (diffs["high"] < 0)]
        for _, row in resolved.iterrows():
            word = "more" if row["estimate"] > 0 else "less"
            out.append(
                f"{n} players: {row['variant']} makes the game {word} decisive: "
                f"{fmt_row(row)} win share for the half-game leader (paired by game)."
            )
        if resolved.empty:
            out.append(f"{n} players: no variant changes decisiveness measurably.")
    return out
