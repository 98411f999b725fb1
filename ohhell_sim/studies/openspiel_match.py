"""Study ``openspiel_match``: our strategies against OpenSpiel's bots, on OpenSpiel's own game.

The matches are played and kept by :mod:`ohhell_sim.interop.openspiel_matches`.
A strategy's *advantage* in a match is its points per deal minus the mean of the
opponents' seats, on the same cards.  Every match's advantage and every worth of
the undealt cards are one family, corrected like every study's.  The bots do not
replay from their seeds, so there is no confirmation run: a grid at another seed
is reported beside the first as other deals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import INTERVAL_HEADER, display_table, fmt_ci, fmt_number, fmt_p
from ohhell_sim.analysis.report import Figure, Report, Table, WrittenReport, save_analysis
from ohhell_sim.analysis.report import write_report as write_report_files
from ohhell_sim.analysis.stats import clustered_mean_ci
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.interop.openspiel import MATCH_METHOD, advantage, advantage_by_deal, match_summary
from ohhell_sim.interop.openspiel_matches import (
    BOT_KINDS,
    MATCH_KEY,
    RUNS_FILE,
    STUDY,
    TOLD_STOCK,
    is_openspiel_bot,
    read_matches,
)
from ohhell_sim.results import check_output_folder
from ohhell_sim.studies.family import ALPHA, CORRECTION, correct

NAME = STUDY
QUESTION = "How strong are our strategies against OpenSpiel's search bots in its oh_hell?"


def match_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per match: our points per deal, the advantage (95% CI) and time per decision.

    Columns: the match key, ``table`` (``"4x5"``, or ``"4x5 seed 1"`` for any seed
    but the folder's first), ``deal_sets``, ``points`` (``points_low``/``points_high``),
    ``estimate``/``low``/``high`` (the advantage), ``ms_ours`` and ``ms_theirs``.
    """
    out = []
    first_seed = rows["seed"].min()
    for key, part in rows.groupby(list(MATCH_KEY), sort=False):
        match = dict(zip(MATCH_KEY, key, strict=True))
        summary = match_summary(part).set_index("entrant")
        ours = summary.loc[match["strategy"]]
        out.append(
            {
                **match,
                "table": _table_label(match, first_seed),
                "deal_sets": int(part["deal"].nunique()),
                "points": ours["estimate"],
                "points_low": ours["low"],
                "points_high": ours["high"],
                **advantage(part, match["strategy"])[["estimate", "low", "high"]],
                "ms_ours": ours["ms_per_decision"],
                "ms_theirs": float(summary.drop(index=match["strategy"])["ms_per_decision"].mean()),
            }
        )
    return pd.DataFrame(out)


def corrected(table: pd.DataFrame, worth: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The matches' advantages and the stock's worths, adjusted as one family."""
    parts = {"matches": table} if worth.empty else {"matches": table, "worth": worth}
    adjusted = correct(parts)
    return adjusted["matches"], adjusted.get("worth", worth)


def _table_label(match: dict, first_seed: int) -> str:
    table = f"{match['players']}x{match['tricks']}"
    return table if match["seed"] == first_seed else f"{table} seed {match['seed']}"


def stock_worth(rows: pd.DataFrame) -> pd.DataFrame:
    """What being told the undealt cards is worth, for each strategy played both ways.

    The advantage told minus the advantage on the seat's own information, on the
    same deals, paired by (deal set, rotation) and clustered by deal set.  Columns:
    the match key, ``table``, ``own``, ``told`` and ``estimate``/``low``/``high``.
    """
    out = []
    matches = dict(list(rows.groupby(list(MATCH_KEY))))
    for told_label in [s for s in pd.unique(rows["strategy"]) if s.endswith(TOLD_STOCK)]:
        label = told_label[: -len(TOLD_STOCK)]
        for key, told in rows[rows["strategy"] == told_label].groupby(list(MATCH_KEY[1:])):
            own = matches.get((label, *key))
            if own is None:
                continue
            match = dict(zip(MATCH_KEY[1:], key, strict=True))
            gain = (advantage_by_deal(told, told_label) - advantage_by_deal(own, label)).dropna()
            worth = clustered_mean_ci(gain.to_numpy(), gain.index.get_level_values("deal"))
            out.append(
                {
                    "strategy": label,
                    **match,
                    "table": _table_label(match, rows["seed"].min()),
                    "own": advantage(own, label)["estimate"],
                    "told": advantage(told, told_label)["estimate"],
                    "estimate": worth.estimate,
                    "low": worth.low,
                    "high": worth.high,
                }
            )
    return pd.DataFrame(out)


def _display(shown: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """``shown`` as the report prints it (two decimals), its columns renamed by ``names``."""
    shown = shown.assign(p_adjusted=[fmt_p(p) for p in shown["p_adjusted"]])
    return display_table(shown, 2).rename(columns={**names, "p_adjusted": "p (adjusted)"})


def _worth_table(worth: pd.DataFrame) -> pd.DataFrame:
    shown = worth.sort_values(["opponent", "players", "tricks", "seed", "strategy"])
    columns = ["opponent", "table", "strategy", "own", "told", "estimate", "low", "high"]
    names = {
        "own": "advantage, own information",
        "told": "advantage, told the stock",
        INTERVAL_HEADER: "worth (95% CI)",
    }
    return _display(shown[[*columns, "p_adjusted"]], names)


def _tables_in_order(table: pd.DataFrame) -> list[str]:
    return list(pd.unique(table.sort_values(["players", "tricks", "seed"])["table"]))


def _opponent_order(opponents: Iterable[str]) -> list[str]:
    def rank(spec: str) -> tuple:
        kind, _, budget = spec.partition(":")
        return (("random", *BOT_KINDS).index(kind), int(budget or 0))

    return sorted(set(opponents), key=rank)


def _grid_table(table: pd.DataFrame, opponent: str) -> pd.DataFrame:
    part = table[table["opponent"] == opponent].sort_values(["players", "tricks", "seed"])
    cells = display_table(part[["strategy", "table", "estimate", "low", "high"]], 2)
    wide = cells.pivot(index="strategy", columns="table", values=INTERVAL_HEADER)
    wide = wide[list(pd.unique(part["table"]))]
    order = part.groupby("strategy")["estimate"].mean().sort_values(ascending=False).index
    return wide.loc[order].fillna("").reset_index()


def _detail_table(table: pd.DataFrame) -> pd.DataFrame:
    shown = table.sort_values(
        ["opponent", "players", "tricks", "estimate"], ascending=[True, True, True, False]
    )
    columns = ["opponent", "table", "strategy", "deal_sets", "points", "points_low", "points_high"]
    columns += ["estimate", "low", "high", "p_adjusted", "ms_ours", "ms_theirs"]
    names = {
        "deal_sets": "deal sets",
        "points": "our points per deal",
        INTERVAL_HEADER: "advantage",
        "ms_ours": "ms/decision ours",
        "ms_theirs": "ms/decision theirs",
    }
    return _display(shown[columns], names)


def _findings(table: pd.DataFrame, worth: pd.DataFrame) -> list[str]:
    lines = []
    # The comparisons with a p-value, as adjust_family counts them.
    family = sum(int(part["p"].notna().sum()) for part in (table, worth) if "p" in part)
    baseline = table["strategy"].map(is_openspiel_bot)
    told = table["strategy"].str.endswith(TOLD_STOCK)
    ours_all = table[~baseline & ~told]
    for opponent in _opponent_order(table["opponent"]):
        part = ours_all[ours_all["opponent"] == opponent]
        if part.empty:
            continue
        ahead = part[part["survives"] & (part["estimate"] > 0)]
        behind = part[part["survives"] & (part["estimate"] < 0)]
        best = part.loc[part.groupby("table", sort=False)["estimate"].idxmax()]
        tops = "; ".join(
            f"{row.table}: {row.strategy} {fmt_ci(row.estimate, row.low, row.high, 2)}"
            for row in best.sort_values(["players", "tricks", "seed"]).itertuples()
        )
        lines += [
            f"Against {opponent}, the best of ours per table (advantage in points per deal, "
            f"95% CI; on the seat's own information): {tops}.",
            f"Against {opponent}: {len(ahead)} of {len(part)} matches have our strategy ahead "
            f"and {len(behind)} behind after the correction for all {family} "
            f"comparisons (tables {', '.join(_tables_in_order(part))}).",
        ]
    for row in table[told].sort_values(["opponent", "players", "tricks", "seed"]).itertuples():
        lines.append(
            f"Told the stock, {row.strategy[: -len(TOLD_STOCK)]} against {row.opponent} at "
            f"{row.table}: {fmt_ci(row.estimate, row.low, row.high, 2)} points per deal."
        )
    for row in worth.itertuples():
        lines.append(
            f"Knowing the undealt cards is worth {fmt_ci(row.estimate, row.low, row.high, 2)} "
            f"points per deal to {row.strategy} against {row.opponent} at {row.table} "
            f"(paired on the same deals; adjusted p {fmt_p(row.p_adjusted)})."
        )
    for row in table[baseline].sort_values(["opponent", "players", "tricks"]).itertuples():
        lines.append(
            f"Baseline: {row.strategy} in our seat against {row.opponent} at {row.table}: "
            f"{fmt_ci(row.estimate, row.low, row.high, 2)} points per deal."
        )
    if not ours_all.empty:
        slow = ours_all.loc[ours_all["ms_ours"].idxmax()]
        lines.append(
            f"Time per decision: ours from {fmt_number(ours_all['ms_ours'].min(), 2)} to "
            f"{fmt_number(ours_all['ms_ours'].max(), 2)} ms ({slow.strategy} at {slow.table} "
            f"the slowest); the OpenSpiel bots' from {fmt_number(table['ms_theirs'].min(), 2)} "
            f"to {fmt_number(table['ms_theirs'].max(), 2)} ms."
        )
    return lines


def analyse(rows: pd.DataFrame, runs: Sequence[dict] = ()) -> Report:
    """The report of the matches ``rows`` (see :func:`run_matches`)."""
    if rows.empty:
        raise InvalidArgumentError("no matches to analyse: play some with run_matches first")
    table, worth = corrected(match_table(rows), stock_worth(rows))
    opponents = _opponent_order(table["opponent"])
    tables = [
        Table(
            f"Advantage over {o}, points per deal (95% CI), by table (players x tricks)",
            _grid_table(table, o),
            "Our strategy in one seat, the OpenSpiel bot in the others; positive: ours "
            "scores more.",
        )
        for o in opponents
    ]
    # The figure shows the first seed's grid; the other seeds' matches are in the tables.
    grid = table[table["seed"] == table["seed"].min()]
    grid = grid.assign(opponent=pd.Categorical(grid["opponent"], _opponent_order(grid["opponent"])))
    figures = [
        Figure(
            "advantage_by_table.png",
            "Advantage of each strategy per table, by OpenSpiel bot (the first seed's grid)",
            interval_plot(
                grid.sort_values(["opponent", "players", "tricks"]),
                "table",
                series="strategy",
                panels="opponent",
                title="Advantage over the OpenSpiel bots, one panel per bot",
                xlabel="table (players x tricks)",
                ylabel="points per deal",
                zero_line=True,
                order=_tables_in_order(grid),
            ),
        )
    ]
    if not worth.empty:
        tables.append(
            Table(
                "What knowing the undealt cards is worth, points per deal",
                _worth_table(worth),
                "The same strategy on the same deals, on its own information and told which "
                "cards are undealt (what OpenSpiel's resampler tells ISMCTS); worth: the "
                "second advantage minus the first, paired by deal.",
            )
        )
        figures.append(
            Figure(
                "stock_worth.png",
                "What knowing the undealt cards is worth, by strategy, opponent and table",
                interval_plot(
                    worth.assign(match=worth["opponent"] + " at " + worth["table"]),
                    "match",
                    series="strategy",
                    title="Advantage told the stock minus on own information, paired by deal",
                    xlabel="opponent and table",
                    ylabel="points per deal",
                    zero_line=True,
                ),
            )
        )
    tables.append(Table("Every match", _detail_table(table)))
    seeds = sorted(table["seed"].unique())
    setup = [
        f"ohhell-sim {__version__}; OpenSpiel's oh_hell with num_tricks_fixed, our "
        "`openspiel` preset (tricks taken, plus 10 for an exact bid; the dealer's hook)",
        f"tables (players x tricks): {', '.join(_tables_in_order(table))}",
        f"opponents: {', '.join(opponents)}; seed {', '.join(map(str, seeds))}",
        f"deal sets per match: {', '.join(map(str, sorted(table['deal_sets'].unique())))}, "
        "each played once per rotation of the seats",
        "times per decision are wall-clock on the machine that ran the matches, while other "
        "work shared it: compare them within a match",
        *(f"note: {note}" for note in dict.fromkeys(r["note"] for r in runs if r.get("note"))),
    ]
    method = [
        "Duplicate seating: each deal set is dealt once and played with the entrants rotated "
        "over the seats, so our strategy and the bots hold the same hands from the same seats.",
        "Advantage: our points in a deal minus the mean of the opponents' seats in the same "
        f"deal; mean over deals, interval {MATCH_METHOD}.",
        "Every match's advantage and every worth of the undealt cards form one family: their "
        f"p-values, read off the intervals, are adjusted by {CORRECTION.capitalize()}'s method "
        f"at a family-wise error of {ALPHA}, and a match counts as ahead or behind only when "
        "its adjusted p-value is within that. The bots do not replay from their seeds, so "
        "there is no confirmation run; a grid at another seed is shown beside the first.",
        "ismcts:N is OpenSpiel's ISMCTSBot (uct_c 2, N simulations, one random rollout per "
        "leaf, the move of most visits); mcts:N is its MCTSBot with random rollouts, which "
        "searches the true state and so sees every hand; random is its uniform random bot.",
        "fair_ismcts:N is the same search in OpenSpiel's Python port of ISMCTSBot, its worlds "
        "dealt by a fair sampler (the cards its seat cannot see, dealt at random over the "
        "other hands and the stock, consistent with the voids shown); py_ismcts:N is the "
        "Python port with OpenSpiel's resampler, the control for the port.",
        "Our strategies see OpenSpiel's state through the reference engine's view builder: "
        "the same information as in our own simulator.",
        "ISMCTS knows more than its seat may: OpenSpiel's oh_hell resampler, which its ISMCTS "
        "uses to sample the worlds it searches, deals the opponents only cards they truly "
        "hold, never the undealt stock (`python experiments/openspiel_resample_leak.py`: "
        "share 1.000 at 4 players x 5 tricks, where uniform sampling gives 0.326). So it "
        "knows which cards are out, though not who holds which.",
        f"A seat marked{TOLD_STOCK} is ours told the same: the undealt cards are marked seen "
        "in its view. It measures what the knowledge is worth; it is not a fair player.",
        "OpenSpiel's ISMCTSBot (open-spiel 2.0.2) does not replay from its seed: two runs of "
        "the same match, fresh bots with the same seeds, differ from the first card played, "
        "so a re-run of a match against ISMCTS gives other (equally valid) numbers. Ours "
        "replay exactly: a match of ours against random bots repeats to the point.",
    ]
    commands = "\n".join(r["command"] for r in runs if r.get("command"))
    return Report(QUESTION, setup, method, _findings(table, worth), tables, figures, commands, NAME)


def write_match_report(folder: str | Path, out: str | Path | None = None) -> WrittenReport:
    """Analyse the matches in ``folder`` and write the report into ``out`` (default ``folder``)."""
    folder = Path(folder)
    runs_path = folder / RUNS_FILE
    runs = json.loads(runs_path.read_text()) if runs_path.is_file() else []
    report = analyse(read_matches(folder), runs)
    target = check_output_folder(folder if out is None else out)
    save_analysis(report, target)
    return write_report_files(report, target)


__all__ = ["analyse", "corrected", "match_table", "stock_worth", "write_match_report"]
