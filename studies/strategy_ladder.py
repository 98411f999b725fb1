"""Study ``strategy_ladder``: every built-in strategy ranked on the same cards.

A table seats at most seven players, fewer than the built-ins, so the ladder is a
duplicate *gauntlet*: each strategy in turn takes one seat against a fixed field
(``simple`` in the other seats) in a duplicate tournament
(:func:`ohhell_sim.tournament`): every deal set is played once per rotation of
the seats, so the challenger holds every hand from every seat.  All gauntlets
use the same seed and game indices, so every challenger meets the same cards
against the same opponents, and the difference between two challengers is
paired on the deal set.  Each gauntlet also compiles only the kernel of
{challenger, field}.  The Monte Carlo strategies (``mc_bidder``, ``pimc``) are
a thousand times slower and play the first deal sets only; their comparisons
use the deal sets both sides played.
"""

from __future__ import annotations

from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.analysis.figures import interval_plot, png_bytes, text_colour
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import clip_rate, mean_ci, paired_difference_ci, store_interval
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import available_strategies, get_strategy
from ohhell_sim.tournament import tournament
from studies.report import study_report
from studies.runs import Condition, StudyData

NAME = "strategy_ladder"
QUESTION = "Which built-in strategy plays Oh Hell best?"
DEFAULT_GAMES = 400
DEFAULT_PLAYERS = (4,)
FIELD = "simple"
#: Strategies that take milliseconds per decision: they play a tenth of the deal sets.
SLOW = ("mc_bidder", "pimc")
MEASURES = ("mean_total", "win_share", "made_rate", "zero_bid_rate")


def builtin_strategies() -> tuple[str, ...]:
    """The registered built-in strategies, in registry order."""
    return tuple(n for n in available_strategies() if get_strategy(n).builtin_id is not None)


def check_games(games: int, players: tuple[int, ...]) -> None:
    """Raise unless one table size is given and ``games`` fits duplicate seating."""
    if len(players) != 1:
        raise InvalidArgumentError(
            f"strategy_ladder plays one table size; got players={list(players)}"
        )
    n = players[0]
    if games % n or games < 2 * n:
        raise InvalidArgumentError(
            f"strategy_ladder plays each deal set once per rotation of {n} seats: games "
            f"must be a multiple of {n} and at least {2 * n}, got {games}"
        )


def slow_games(games: int, players: int) -> int:
    """Games of a slow strategy's gauntlet: a tenth, a multiple of ``players``, at least 2 sets."""
    return max(2 * players, games // 10 // players * players)


def play(
    games: int,
    seed: int,
    players: tuple[int, ...] = DEFAULT_PLAYERS,
    progress: bool = True,
    strategies: tuple[str, ...] | None = None,
    field: str = FIELD,
) -> StudyData:
    """Play one duplicate gauntlet per strategy against ``field`` (see the module doc).

    Parameters
    ----------
    games : int
        Games per gauntlet (a multiple of the table size).
    seed : int
        Seed shared by every gauntlet.
    players : tuple of int
        One table size.
    progress : bool
        Show a progress bar over the gauntlets.
    strategies : tuple of str, optional
        The challengers (default: every built-in).
    field : str
        The strategy in the other seats.

    Returns
    -------
    StudyData
        ``games`` holds every gauntlet's long frame (see
        :class:`ohhell_sim.TournamentResult`) with a ``challenger`` column and
        ``challenger_seat`` (the row is the challenger's); ``hands`` is empty.
    """
    from tqdm.auto import tqdm

    check_games(games, players)
    n = players[0]
    names = builtin_strategies() if strategies is None else tuple(strategies)
    for name in (*names, field):
        get_strategy(name)
    rules = Rules(players=n)
    plan = [
        Condition(
            {"challenger": name},
            rules,
            (name, *(field,) * (n - 1)),
            slow_games(games, n) if name in SLOW else games,
        )
        for name in names
    ]
    frames = []
    total = sum(c.games for c in plan)
    with tqdm(total=total, unit="game", desc=NAME, disable=not progress) as bar:
        for condition in plan:
            result = tournament(rules, list(condition.seats), condition.games, seed)
            frame = result.games.assign(challenger=condition.label["challenger"])
            frame["challenger_seat"] = frame["strategy"] == result.labels[0]
            frame["strategy"] = frame["strategy"].astype(str)
            frames.append(frame)
            bar.update(condition.games)
    long = pd.concat(frames, ignore_index=True)
    long["challenger"] = long["challenger"].astype("category")
    manifest = {
        "version": __version__,
        "seed": seed,
        "field": field,
        "conditions": [c.describe() for c in plan],
    }
    return StudyData(pd.DataFrame(), long, manifest)


def unit_values(long: pd.DataFrame) -> pd.DataFrame:
    """Per (challenger, deal set): the challenger's score per game, win share, made and
    zero-bid rates, over the rotations of that deal set."""
    rows = long[long["challenger_seat"]]
    sums = rows.groupby(["challenger", "unit"], observed=True)[
        ["total", "win_share", "deals", "made", "zero_bids"]
    ].sum()
    count = rows.groupby(["challenger", "unit"], observed=True).size()
    return pd.DataFrame(
        {
            "mean_total": sums["total"] / count,
            "win_share": sums["win_share"] / count,
            "made_rate": sums["made"] / sums["deals"],
            "zero_bid_rate": sums["zero_bids"] / sums["deals"],
        }
    ).reset_index()


def ranking_table(values: pd.DataFrame) -> pd.DataFrame:
    """Per challenger, best mean score first: each measure with a t interval over deal sets."""
    rows = []
    for name, group in values.groupby("challenger", observed=True):
        row = {"strategy": name, "deal_sets": len(group)}
        for measure in MEASURES:
            est = mean_ci(group[measure].to_numpy())
            store_interval(row, measure, est if measure == "mean_total" else clip_rate(est))
        rows.append(row)
    return pd.DataFrame(rows).sort_values("mean_total", ascending=False, ignore_index=True)


def pairwise_table(values: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Mean score per game of ``a`` minus ``b`` for every pair, paired on shared deal sets;
    ``identical`` marks pairs equal on every deal set."""
    scores = values.pivot(index="unit", columns="challenger", values="mean_total")
    rows = []
    for a, b in combinations(order, 2):
        both = scores[[a, b]].dropna()
        diff, low, high, _, _ = paired_difference_ci(both[a].to_numpy(), both[b].to_numpy())
        rows.append(
            {
                "a": a,
                "b": b,
                "deal_sets": len(both),
                "estimate": diff,
                "low": low,
                "high": high,
                "identical": bool((both[a] == both[b]).all()),
            }
        )
    return pd.DataFrame(rows)


def _pairwise_figure(pairs: pd.DataFrame, order: list[str]) -> bytes:
    size = len(order)
    matrix = np.full((size, size), np.nan)
    fig, ax = plt.subplots(figsize=(1.1 * size + 3, 0.9 * size + 2))
    cells = []
    for _, row in pairs.iterrows():
        i, j = order.index(row["a"]), order.index(row["b"])
        for r, c, sign in ((i, j, 1), (j, i, -1)):
            matrix[r, c] = sign * row["estimate"]
            low, high = sorted((sign * row["low"], sign * row["high"]))
            cells.append(
                (
                    r,
                    c,
                    f"{fmt_number(matrix[r, c], 1)}\n[{fmt_number(low, 1)}, {fmt_number(high, 1)}]",
                )
            )
    limit = np.nanmax(np.abs(matrix)) if size > 1 else 1.0
    image = ax.imshow(matrix, cmap="RdBu", vmin=-limit, vmax=limit)
    for r, c, text in cells:
        # Dark cells at either end of the scale need light text.
        colour = text_colour(image.cmap(image.norm(matrix[r, c])))
        ax.text(c, r, text, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(size))
    ax.set_xticklabels(order, rotation=30, ha="right")
    ax.set_yticks(range(size))
    ax.set_yticklabels(order)
    ax.set_xlabel("column strategy")
    ax.set_ylabel("row strategy")
    fig.colorbar(image, label="row minus column, points per game")
    ax.set_title("Pairwise score difference per game (95% CI, paired on deal sets)")
    return png_bytes(fig)


def analyse(data: StudyData) -> Report:
    """The report of a ``strategy_ladder`` run, every number computed from ``data``."""
    values = unit_values(data.games)
    ranking = ranking_table(values)
    order = ranking["strategy"].tolist()
    pairs = pairwise_table(values, order)
    field = data.manifest["field"]

    findings = _findings(ranking, pairs)
    score_plot = ranking.rename(
        columns={"mean_total": "estimate", "mean_total_low": "low", "mean_total_high": "high"}
    )
    figures = [
        Figure(
            "ladder_ranking.png",
            "Mean score per game of each strategy against the field",
            interval_plot(
                score_plot,
                "strategy",
                title=f"Score per game against {field}",
                xlabel="strategy",
                ylabel="points per game",
                order=order,
            ),
        ),
    ]
    if len(order) > 1:
        figures.append(
            Figure(
                "ladder_pairwise.png", "Pairwise score differences", _pairwise_figure(pairs, order)
            )
        )
    method = [
        f"Each strategy plays a duplicate tournament in one seat against {field} in the "
        "others: every deal set once per rotation of the seats, so it holds every hand from "
        "every seat. All tournaments share the seed and game indices, hence the cards and "
        "the opponents.",
        "A strategy's value on a deal set is its average over the rotations; rankings get "
        "Student-t intervals over deal sets, and pairwise differences are paired on the "
        "deal sets both strategies played.",
        "The Monte Carlo strategies (" + ", ".join(SLOW) + ") play a tenth of the deal "
        "sets (they take milliseconds per decision), so their intervals are wider.",
    ]
    tables = [
        Table("Ranking (best mean score first)", display_table(ranking)),
        Table(
            "Pairwise: mean score per game of a minus b",
            display_table(pairs.drop(columns="identical"), digits=2),
            "Paired on the deal sets both played.",
        ),
    ]
    return study_report(NAME, QUESTION, data.manifest, method, findings, tables, figures)


def _findings(ranking: pd.DataFrame, pairs: pd.DataFrame) -> list[str]:
    best = ranking.iloc[0]
    out = [
        f"{best['strategy']} ranks first with "
        f"{fmt_ci(best['mean_total'], best['mean_total_low'], best['mean_total_high'], 3)} "
        f"points per game and a win share of "
        f"{fmt_ci(best['win_share'], best['win_share_low'], best['win_share_high'])}."
    ]
    if len(ranking) > 1:
        second = ranking.iloc[1]
        gap = pairs[(pairs["a"] == best["strategy"]) & (pairs["b"] == second["strategy"])].iloc[0]
        verdict = "a resolved lead" if gap["low"] > 0 else "not a resolved lead"
        out.append(
            f"Its lead over {second['strategy']} is {fmt_row(gap, 2)} points per game on the "
            f"same deal sets: {verdict}."
        )
        last = ranking.iloc[-1]
        out.append(
            f"{last['strategy']} ranks last with "
            f"{fmt_ci(last['mean_total'], last['mean_total_low'], last['mean_total_high'])} "
            "points per game."
        )
        resolved = int(((pairs["low"] > 0) | (pairs["high"] < 0)).sum())
        out.append(f"{resolved} of {len(pairs)} pairwise differences exclude zero.")
        for _, twin in pairs[pairs["identical"]].iterrows():
            out.append(
                f"{twin['a']} and {twin['b']} score the same on every one of the "
                f"{twin['deal_sets']} deal sets: they make the same decisions here."
            )
    return out
