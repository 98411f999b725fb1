"""Which arm lets skill decide the game: how often the stronger seat of a mixed field is ahead.

In a field of several strategies, each pair of seats of different strategies has a stronger
one (by the two strategies' mean totals in that condition); per game, the share of those pairs
in which the stronger finishes ahead (ties half) measures how much skill decides the game,
whatever the sign of the totals.  Per table size and field the arms (scoring tables, say) are
ranked by it, and the first's lead over the second is tested, paired by game.  Every function
takes the condition's ``keys``: its table size, its field and its arm column, in this order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import replicate
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_span
from ohhell_sim.analysis.report import Figure
from ohhell_sim.analysis.stats import estimate_frame, grouped_mean, paired_by_game
from ohhell_sim.studies.design import games_to_be_ahead
from ohhell_sim.studies.unit_rates import ESTIMATE, triple

#: The column of how often the stronger seat is ahead in a game (ties half).
WINS = "better_wins"
#: The measure's name in a report.
STRONGER = "stronger seat ahead"


def _mixed_blocks(games: pd.DataFrame, keys: Sequence[str]) -> dict[tuple, tuple[np.ndarray, ...]]:
    """Per mixed condition: its totals (games x seats), seats' strategies and games."""
    blocks = {}
    for _, block in games.groupby("condition", observed=True, sort=True):
        if block["strategy"].nunique() > 1:
            block = block.sort_values(["game", "seat"])
            seats = int(block["seat"].max()) + 1
            totals = block["total"].to_numpy(np.float64).reshape(-1, seats)
            strategies = block["strategy"].astype(str).to_numpy()[:seats]
            key = tuple(block.iloc[0][k] for k in keys)
            blocks[key] = (totals, strategies, block["game"].to_numpy()[::seats])
    return blocks


def _better_pairs(totals: np.ndarray, strategies: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Totals of pairs of seats of different strategies: the stronger one's, the other's."""
    mean = {s: totals[:, strategies == s].mean() for s in set(strategies)}
    pairs = [
        (i, j) if mean[strategies[i]] >= mean[strategies[j]] else (j, i)
        for i, j in itertools.combinations(range(len(strategies)), 2)
        if strategies[i] != strategies[j]
    ]
    return totals[:, [p[0] for p in pairs]], totals[:, [p[1] for p in pairs]]


def stronger_seats(games: pd.DataFrame, keys: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per mixed condition, over its pairs of seats of different strategies: per game, how often
    the stronger strategy's seat finishes ahead (:data:`WINS`, ties half); and the games it
    needs to be ahead 95% of the time (``games_ahead``,
    :func:`~ohhell_sim.studies.design.games_to_be_ahead` of the pairs' per-game leads)."""
    keys = list(keys)
    per_game, ahead = [], []
    for key, (totals, seated, played) in _mixed_blocks(games, keys).items():
        labels = dict(zip(keys, key, strict=True))
        strong, weak = _better_pairs(totals, seated)
        lead = strong - weak
        wins = ((lead > 0) + 0.5 * (lead == 0)).mean(axis=1)
        per_game.append(pd.DataFrame({"game": played, WINS: wins}).assign(**labels))
        needed = games_to_be_ahead(lead.mean(), lead.std(ddof=1)) if lead.size > 1 else np.nan
        ahead.append({**labels, "games_ahead": float(needed)})
    columns = [*keys, "game", WINS]
    wins = (
        pd.concat(per_game, ignore_index=True)[columns]
        if per_game
        else pd.DataFrame(columns=columns)
    )
    return wins, pd.DataFrame(ahead, columns=[*keys, "games_ahead"])


def skill_leaders(levels: pd.DataFrame, keys: Sequence[str]) -> dict[tuple, tuple[str, str]]:
    """Per table size and mixed field: the two arms under which the stronger seat is ahead
    most often (``levels``: :func:`stronger_seats`' wins averaged per condition)."""
    size, field, arm = keys
    return {
        key: tuple(part.sort_values("estimate", ascending=False, kind="stable")[arm][:2])
        for key, part in levels.groupby([size, field], sort=False)
        if len(part) > 1
    }


def leads(
    better: pd.DataFrame, leaders: dict[tuple, tuple[str, str]], keys: Sequence[str]
) -> pd.DataFrame:
    """Per table size and mixed field: how much more often the stronger seat is ahead under the
    first of its ``leaders`` than under the second (``runner_up``), paired by game."""
    size, field, arm = keys
    parts = []
    for (players, name), (first, second) in leaders.items():
        part = better[(better[size] == players) & (better[field] == name)]
        lead = paired_by_game(part, part[WINS], arm, first, second, [size])
        parts.append(lead.assign(**{field: name, arm: first, "runner_up": second}))
    if not parts:
        return estimate_frame([], [*keys, "runner_up"])
    return pd.concat(parts, ignore_index=True)[[*keys, "runner_up", *ESTIMATE, "n"]]


def wide(table: pd.DataFrame, name: str, keys: Sequence[str]) -> pd.DataFrame:
    """The ``keys`` of an estimate table and its interval, named :func:`triple` of ``name``."""
    columns = dict(zip(ESTIMATE, triple(name), strict=True))
    return table.rename(columns=columns)[[*keys, *triple(name)]]


def skill_ranking(
    levels: pd.DataFrame, ahead: pd.DataFrame, change: pd.DataFrame, keys: Sequence[str]
) -> pd.DataFrame:
    """Per table size and mixed field, the arms ranked by how often the stronger seat is ahead
    (``levels``, as ``stronger_ahead``), with the games it needs (``ahead``) and the family's
    change from the base arm (``change``, as ``stronger_change``, with ``established``)."""
    keys = list(keys)
    changed = wide(change, "stronger_change", keys)
    changed["stronger_change_established"] = change["established"].to_numpy()
    rows = wide(levels, "stronger_ahead", keys).merge(ahead, how="left")
    rows = rows.merge(changed, on=keys, how="left")
    rows = rows.sort_values([*keys[:2], "stronger_ahead"], ascending=[True, True, False])
    rows["rank"] = rows.groupby(keys[:2]).cumcount() + 1
    return rows.reset_index(drop=True)


def ranking_display(
    skill: pd.DataFrame, keys: Sequence[str], base: str, arm_name: str
) -> pd.DataFrame:
    """The :func:`skill_ranking` for a report (the arm column called ``arm_name``), each change
    against the ``base`` arm marked * when established."""
    size, field, arm = keys
    shown = skill[[size, field, "rank", arm]].join(
        display_table(skill[triple("stronger_ahead", "stronger_change")])
    )
    marked = shown["stronger_change"] + np.where(skill["stronger_change_established"], " *", "")
    missing = np.where(skill[arm] == base, "reference", "n/a")
    shown["stronger_change"] = np.where(skill["stronger_change"].isna(), missing, marked)
    shown["games to be ahead 95%"] = [fmt_number(g, 0) for g in skill["games_ahead"]]
    named = {arm: arm_name, "stronger_ahead": STRONGER, "stronger_change": "change"}
    return shown.rename(columns=named)


def skill_parts(
    games: pd.DataFrame,
    keys: Sequence[str],
    shifts: Callable[[pd.DataFrame], pd.DataFrame],
    leaders: dict[tuple, tuple[str, str]] | None = None,
) -> tuple[dict[str, pd.DataFrame], dict]:
    """The skill's parts of one run's family, each with its halves (:func:`replicate`): the
    ``stronger seat``'s ``shifts`` against the base arm and the ``lead`` of the first arm over
    the second, ``leaders`` (default: the run's own :func:`skill_leaders`); and the frames they
    are made of (``better``, ``ahead``, ``levels`` of the run, ``leaders``)."""
    better, ahead = stronger_seats(games, keys)
    frames = {"better": better, "ahead": ahead}
    if leaders is None:
        frames["levels"] = grouped_mean(better, better[WINS], keys, bounded=True)
        leaders = skill_leaders(frames["levels"], keys)
    parts = {
        "stronger seat": replicate(better, shifts, keys),
        "lead": replicate(better, lambda f: leads(f, leaders, keys), [*keys, "runner_up"]),
    }
    return parts, {**frames, "leaders": leaders}


def ranking_figures(
    skill: pd.DataFrame, keys: Sequence[str], order: Sequence[str], name: str, arms: str
) -> list[Figure]:
    """How often the stronger seat is ahead per arm (``order``, called ``arms`` in the
    caption), one series per field and a panel per table size; none of an empty ranking."""
    size, field, arm = keys
    if not len(skill):
        return []
    rows = skill.rename(columns=dict(zip(triple("stronger_ahead"), ESTIMATE, strict=True)))
    plot = interval_plot(
        rows,
        arm,
        series=field,
        order=order,
        panels=size if rows[size].nunique() > 1 else None,
        horizontal=True,
        title="Stronger strategy's seat ahead of another's",
        xlabel=name,
        ylabel="share of games (ties half)",
    )
    caption = f"How often the stronger strategy's seat finishes ahead, by {arms}"
    return [Figure(f"stronger_ahead_by_{arm}.png", caption, plot)]


def ahead_text(row: pd.Series) -> str:
    """How often a ranking row's stronger seat finishes ahead, and the games it needs."""
    games = fmt_number(row["games_ahead"], 0)
    ahead = fmt_span([row["stronger_ahead"]], percent=True)
    return f"{ahead} of games ({games} games to be ahead 95% of the time)"


def _lead_of(lead: pd.DataFrame, keys: Sequence[str], players: int, name: str) -> pd.DataFrame:
    """The rows of ``lead`` at a table size and field."""
    size, field, _ = keys
    return lead[(lead[size] == players) & (lead[field] == name)] if len(lead) else lead


def first_place(
    top: pd.Series, lead: pd.DataFrame, keys: Sequence[str], players: int, field: str
) -> str:
    """``top`` lets skill decide most in ``field``, or ties for it, by the test of its lead."""
    arm = keys[2]
    lead = _lead_of(lead, keys, players, field)
    if not len(lead):
        return f"{top[arm]} lets skill decide the game most (its lead is not tested)"
    first, second = lead.iloc[0][[arm, "runner_up"]]
    if lead.iloc[0]["established"] and lead.iloc[0]["estimate"] > 0:
        return f"{first} lets skill decide the game most, ahead of {second}"
    return (
        f"{first} and {second} tie for letting skill decide the game most "
        "(the first's lead is not established)"
    )


def leader_findings(skill: pd.DataFrame, lead: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """Per table size and mixed field: the arm under which the stronger seat is ahead most
    often, and the test of its lead."""
    size, field, arm = keys
    out = []
    for (n, name), rows in skill.groupby([size, field], sort=False) if len(skill) else []:
        top = rows.iloc[0]
        out.append(
            f"{n} players, {name}: the stronger seat is ahead most often under "
            f"{top[arm]}, {fmt_ci(*top[triple('stronger_ahead')])}"
            + "".join(
                f"; the lead of {getattr(r, arm)} over {r.runner_up}: "
                f"{fmt_ci(r.estimate, r.low, r.high)}"
                f" ({'established' if r.established else 'not established'})"
                for r in _lead_of(lead, keys, n, name).itertuples()
            )
            + "."
        )
    return out
