"""Study ``hook_rule``: what the dealer's hook does, measured on the same deals.

Every table size and strategy mix is played twice with the same seed, hook on and
hook off.  The cards of game *g* are the same in both (the engine keys each
shuffle by seed, game and deal), so every on/off comparison is paired by game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import display_table, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, paired_by_game
from ohhell_sim.rules import Rules
from studies.design import MIX_STRATEGIES, POSITION_ORDER, bidding_position, mixes, position_label
from studies.report import study_report
from studies.runs import Condition, StudyData, play_conditions

NAME = "hook_rule"
QUESTION = "What does the dealer's hook do to the game, and who pays for it?"
DEFAULT_GAMES = 1000
DEFAULT_PLAYERS = (3, 4, 5, 6, 7)
ALL = "all"


def conditions(games: int, players: tuple[int, ...]) -> list[Condition]:
    """Hook on and off for every table size and mix (:func:`studies.design.mixes`)."""
    return [
        Condition(
            {"players": n, "mix": mix, "hook": hook}, Rules(players=n, hook=hook), seats, games
        )
        for n in players
        for mix, seats in mixes(n).items()
        for hook in (True, False)
    ]


def play(
    games: int, seed: int, players: tuple[int, ...] = DEFAULT_PLAYERS, progress: bool = True
) -> StudyData:
    """Play the study's conditions (see :func:`conditions`) with ``seed``."""
    return play_conditions(conditions(games, players), seed, progress=progress, description=NAME)


def with_pooled(
    frame: pd.DataFrame,
    values,
    by: list[str],
    pooled: str = "players",
    estimator=grouped_mean,
    **kwargs,
) -> pd.DataFrame:
    """``estimator`` per ``by`` group, plus rows pooled over ``pooled`` labelled ``"all"``."""
    split = estimator(frame, values, by=by, **kwargs)
    rest = [c for c in by if c != pooled]
    total = estimator(frame, values, by=rest, **kwargs)
    total.insert(0, pooled, ALL)
    split[pooled] = split[pooled].astype(object)
    return pd.concat([split, total[split.columns]], ignore_index=True)


def deal_frame(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per (condition, game, deal): labels, hand size and the bids' total."""
    keys = ["condition", "players", "mix", "hook", "game", "deal"]
    deals = (
        hands.groupby(keys, observed=True, sort=False)
        .agg(hand_size=("hand_size", "first"), bids=("bid", "sum"))
        .reset_index()
    )
    deals["excess"] = deals["bids"] - deals["hand_size"]
    return deals


def _with_positions(hands: pd.DataFrame) -> pd.DataFrame:
    hands = hands.copy()
    position = bidding_position(hands)
    hands["position"] = pd.Categorical(
        position_label(position, hands["players"].to_numpy()), categories=POSITION_ORDER
    )
    hands["role"] = np.where(hands["position"] == "dealer", "dealer", "other seats")
    hands["made"] = hands["bid"] == hands["tricks"]
    return hands


def winners_changed(games: pd.DataFrame) -> pd.DataFrame:
    """Per (players, mix, game): whether the winning seats differ between hook on and off."""
    won = games.assign(won=games["win_share"] > 0)
    masks = (
        won[won["won"]]
        .assign(bit=lambda f: np.left_shift(1, f["seat"].to_numpy(dtype=np.int64)))
        .groupby(["players", "mix", "game", "hook"], observed=True)["bit"]
        .sum()
        .unstack("hook")
    )
    return pd.DataFrame({"changed": masks[True] != masks[False]}).reset_index()


def analyse(data: StudyData) -> Report:
    """The report of a ``hook_rule`` run, every number computed from ``data``."""
    hands = _with_positions(data.hands)
    deals = deal_frame(data.hands)
    off = deals[~deals["hook"]]

    binds = with_pooled(off, off["excess"] == 0, ["players"])
    binds_by_size = grouped_mean(off, off["excess"] == 0, by=["players", "hand_size"])

    role = with_pooled(hands, hands["made"], ["players", "hook", "role"])
    role_score = with_pooled(hands, hands["score"], ["players", "hook", "role"])
    role_table = role[["players", "hook", "role", "n"]].assign(
        made_rate=role["estimate"],
        made_rate_low=role["low"],
        made_rate_high=role["high"],
        mean_score=role_score["estimate"],
        mean_score_low=role_score["low"],
        mean_score_high=role_score["high"],
    )

    cost = with_pooled(
        hands,
        hands["score"],
        ["players", "position"],
        estimator=paired_by_game,
        arm="hook",
        first=True,
        second=False,
    )
    cost = cost.sort_values(["players", "position"], key=_position_key, kind="stable")

    shares = {
        name: with_pooled(deals, deals["excess"].pipe(test), ["players", "hook"])
        for name, test in (
            ("over-bid (bids > tricks)", lambda e: e > 0),
            ("exact (bids = tricks)", lambda e: e == 0),
            ("under-bid (bids < tricks)", lambda e: e < 0),
        )
    }
    over_under = shares["over-bid (bids > tricks)"][["players", "hook", "n"]].copy()
    for name, table in shares.items():
        over_under[name] = table["estimate"]
        over_under[f"{name}_low"] = table["low"]
        over_under[f"{name}_high"] = table["high"]
    excess_by_size = grouped_mean(deals, deals["excess"], by=["players", "hook", "hand_size"])

    changed = winners_changed(data.games)
    changed_table = with_pooled(changed, changed["changed"], ["players"])
    share_on = with_pooled(
        data.games[data.games["hook"]],
        data.games.loc[data.games["hook"], "win_share"],
        ["players", "strategy"],
        bounded=True,
    )
    share_off = with_pooled(
        data.games[~data.games["hook"]],
        data.games.loc[~data.games["hook"], "win_share"],
        ["players", "strategy"],
        bounded=True,
    )
    share_diff = with_pooled(
        data.games,
        data.games["win_share"],
        ["players", "strategy"],
        estimator=paired_by_game,
        arm="hook",
        first=True,
        second=False,
    )
    winners = share_on[["players", "strategy"]].assign(
        hook_on=share_on["estimate"],
        hook_on_low=share_on["low"],
        hook_on_high=share_on["high"],
        hook_off=share_off["estimate"],
        hook_off_low=share_off["low"],
        hook_off_high=share_off["high"],
        on_minus_off=share_diff["estimate"],
        on_minus_off_low=share_diff["low"],
        on_minus_off_high=share_diff["high"],
    )

    findings = _findings(binds, role, role_score, cost, shares, changed_table, winners)
    tables = [
        Table(
            "How often the hook binds (hook off: the bids total the hand size)",
            display_table(binds),
            "Share of hook-off deals in which the dealer's free bid is the one the hook "
            "would forbid; n = deals.",
        ),
        Table(
            "Dealer against the other seats: made rate and mean score per deal",
            display_table(role_table),
        ),
        Table(
            "Who pays for the hook: mean score per deal, hook on minus off, by bidding position",
            display_table(cost, digits=2),
            "Paired by game: the same cards with and without the hook.",
        ),
        Table(
            "Bids against tricks: share of deals over-bid, exact and under-bid",
            display_table(over_under),
        ),
        Table(
            "Does the hook change the winner? Share of games whose winning seats change",
            display_table(changed_table),
        ),
        Table(
            "Win share per seat of each strategy, hook on and off",
            display_table(winners),
            "A strategy's win share averaged over the seats it holds; the difference "
            "is paired by game.",
        ),
    ]
    figures = [
        Figure(
            "hook_binds_by_hand_size.png",
            "How often the hook binds, by hand size",
            interval_plot(
                binds_by_size,
                "hand_size",
                series="players",
                title="Hook binds (bids total the hand size, hook off)",
                xlabel="hand size",
                ylabel="share of deals",
            ),
        ),
        Figure(
            "hook_cost_by_position.png",
            "Mean score per deal, hook on minus off, by bidding position",
            interval_plot(
                cost[cost["players"] != ALL],
                "position",
                series="players",
                title="Hook on minus off, paired by game",
                xlabel="bidding position",
                ylabel="points per deal",
                zero_line=True,
                order=POSITION_ORDER,
            ),
        ),
        Figure(
            "bids_minus_tricks_by_hand_size.png",
            "Total bids minus tricks per deal, by hand size",
            interval_plot(
                excess_by_size,
                "hand_size",
                series="hook",
                panels="players",
                title="Total bids minus hand size",
                xlabel="hand size",
                ylabel="bids - tricks",
                zero_line=True,
            ),
        ),
    ]
    method = [
        "Each table size and strategy mix is played with the hook on and off, with the same "
        "seed and game indices, hence the same cards; on/off differences are averaged per "
        "game and get a Student-t interval over games (paired).",
        "Rates and means per deal get intervals clustered by game index (the deals of one "
        "game, and the same game under several mixes, are not independent).",
        "The hook binds when, without it, the dealer's bid makes the bids total the hand "
        "size: exactly the bid the hook forbids.",
        "Bidding position 1st bids first and leads the first trick; the dealer bids last.",
        f"Strategies: every seating draws from {', '.join(MIX_STRATEGIES)} (one seat each, "
        "the remaining seats filled with one of them: the mix).",
    ]
    return study_report(NAME, QUESTION, data.manifest, method, findings, tables, figures)


def _position_key(column: pd.Series) -> pd.Series:
    if column.name == "position":
        return column.map(lambda p: POSITION_ORDER.index(p))
    return column.map(lambda p: 99 if p == ALL else int(p))


def _pick(table: pd.DataFrame, **where) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column] == value).to_numpy()
    return table[mask].iloc[0]


def _findings(binds, role, role_score, cost, shares, changed, winners) -> list[str]:
    pooled_binds = _pick(binds, players=ALL)
    per_table = binds[binds["players"] != ALL]
    low_row = per_table.loc[per_table["estimate"].idxmin()]
    high_row = per_table.loc[per_table["estimate"].idxmax()]
    out = [
        f"Without the hook, the dealer's bid makes the bids total the hand size in "
        f"{fmt_row(pooled_binds)} of deals (all table sizes), from {fmt_row(low_row)} with "
        f"{low_row['players']} players to {fmt_row(high_row)} with {high_row['players']}: "
        "that is how often the hook binds."
    ]
    for hook, word in ((True, "With"), (False, "Without")):
        dealer = _pick(role, players=ALL, hook=hook, role="dealer")
        other = _pick(role, players=ALL, hook=hook, role="other seats")
        d_score = _pick(role_score, players=ALL, hook=hook, role="dealer")
        o_score = _pick(role_score, players=ALL, hook=hook, role="other seats")
        out.append(
            f"{word} the hook the dealer makes {fmt_row(dealer)} of bids and scores "
            f"{fmt_row(d_score)} points per deal; the other seats make {fmt_row(other)} "
            f"and score {fmt_row(o_score)}."
        )
    dealer_cost = _pick(cost, players=ALL, position="dealer")
    first_cost = _pick(cost, players=ALL, position="1st (leads)")
    out.append(
        f"Paired on the same cards, the hook changes the dealer's score by "
        f"{fmt_row(dealer_cost, 2)} points per deal and the first bidder's by "
        f"{fmt_row(first_cost, 2)}."
    )
    for hook, word in ((True, "With"), (False, "Without")):
        over = _pick(shares["over-bid (bids > tricks)"], players=ALL, hook=hook)
        under = _pick(shares["under-bid (bids < tricks)"], players=ALL, hook=hook)
        out.append(
            f"{word} the hook, {fmt_row(over)} of deals are over-bid (more tricks bid than "
            f"there are) and {fmt_row(under)} under-bid."
        )
    pooled_change = _pick(changed, players=ALL)
    pooled = winners[winners["players"] == ALL]
    best_on = pooled.loc[pooled["hook_on"].idxmax()]
    best_off = pooled.loc[pooled["hook_off"].idxmax()]
    same = "the same strategy" if best_on["strategy"] == best_off["strategy"] else "a different one"
    out.append(
        f"The hook changes the winning seats in {fmt_row(pooled_change)} of games. The highest "
        f"win share per seat goes to {best_on['strategy']} with the hook "
        f"({best_on['hook_on']:.3f} [{best_on['hook_on_low']:.3f}, "
        f"{best_on['hook_on_high']:.3f}]) and to {best_off['strategy']} without it "
        f"({best_off['hook_off']:.3f} [{best_off['hook_off_low']:.3f}, "
        f"{best_off['hook_off_high']:.3f}]): {same}."
    )
    return out
