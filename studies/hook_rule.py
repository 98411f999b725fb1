"""Study ``hook_rule``: what the dealer's hook does, measured on the same deals, in every field.

Every table size and strategy field (:data:`studies.design.FIELDS`) is played
twice with the same seed, hook on and hook off.  The cards of game *g* are the
same in both (the engine keys each shuffle by seed, game and deal), so every
on/off comparison is paired by game.

A finding about the hook should not depend on who sits at the table, so each
effect is estimated per field and per table size; a row over all table sizes is
standardised (every table size weighs the same) and labelled so, never pooled
over the raw rows, whose table sizes weigh unequally.  The effects form one
declared family, adjusted with Holm, and each is recomputed on the even and the
odd games (:func:`ohhell_sim.analysis.findings.replicate`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    HOLDS_EVERYWHERE,
    NO_FIELD,
    REPLICATED,
    adjust_family,
    field_verdicts,
    replicate,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, paired_by_game, standardised_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from studies.design import (
    FIELDS,
    MIX_FIELD,
    POSITION_ORDER,
    STANDARDISED,
    bidding_position,
    check_fields,
    field_seats,
    fields_text,
    position_label,
)
from studies.report import study_report
from studies.runs import Condition, StudyData, play_conditions

NAME = "hook_rule"
QUESTION = "What does the dealer's hook do to the game, and who pays for it?"
DEFAULT_GAMES = 1000
DEFAULT_PLAYERS = (3, 4, 5, 6, 7)
DEFAULT_FIELDS = FIELDS
#: Share of the games that the ``mc_bidder`` field plays: its bids run playouts,
#: about a hundred times the cost of the other fields' per game.
FIELD_GAMES_SHARE = {"mc_bidder": 0.25}
#: Family-wise error rate of the comparisons, adjusted with :data:`CORRECTION`.
ALPHA = 0.05
CORRECTION = "holm"

DEALER_COST = "dealer's score per deal, hook on - off"
OTHERS_COST = "other seats' score per deal, hook on - off"
EDGE_OFF = "dealer - other seats, made rate, hook off"
EDGE_ON = "dealer - other seats, made rate, hook on"
OVERBID = "over-bid deals, hook on - off"
#: The effects measured in every field, in the order of the report.
FIELD_EFFECTS = (DEALER_COST, OTHERS_COST, EDGE_OFF, EDGE_ON, OVERBID)


def win_share_effect(strategy: str) -> str:
    """Name of the effect of the hook on ``strategy``'s win share (mix field only)."""
    return f"win share of {strategy}, hook on - off"


def field_games(field: str, games: int) -> int:
    """Games played in ``field`` when the study plays ``games`` (see :data:`FIELD_GAMES_SHARE`).

    At least two, so that a paired interval exists.
    """
    return max(2, round(games * FIELD_GAMES_SHARE.get(field, 1.0)))


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """Hook on and off for every table size and strategy field (see ``field_seats``)."""
    return [
        Condition(
            {"players": n, "field": field, "hook": hook},
            Rules(players=n, hook=hook),
            field_seats(field, n),
            field_games(field, games),
        )
        for n in players
        for field in check_fields(fields)
        for hook in (True, False)
    ]


def play(
    games: int,
    seed: int,
    players: tuple[int, ...] = DEFAULT_PLAYERS,
    progress: bool = True,
    fields: Sequence[str] = DEFAULT_FIELDS,
) -> StudyData:
    """Play the study's conditions (see :func:`conditions`) with ``seed``.

    Parameters
    ----------
    games : int
        Games per condition (the ``mc_bidder`` field plays its share, :func:`field_games`).
    seed : int
        Seed shared by every condition: hook on and off see the same cards.
    players : tuple of int
        Table sizes.
    progress : bool
        Show a progress bar.
    fields : sequence of str
        Strategy fields (:data:`studies.design.FIELDS`).

    Returns
    -------
    StudyData
        Hands and games labelled ``players``, ``field`` and ``hook``.
    """
    return play_conditions(
        conditions(games, players, fields), seed, progress=progress, description=NAME
    )


def with_standardised(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str] = (),
    stratum: str = "players",
    bounded: bool = False,
) -> pd.DataFrame:
    """Means per field, ``stratum`` and ``by`` group, plus a row per field over every stratum.

    The row over the strata, labelled :data:`STANDARDISED` in the ``stratum``
    column, is their unweighted average
    (:func:`~ohhell_sim.analysis.stats.standardised_mean`): table sizes hold
    different numbers of seats and deals, and a mean over the raw rows would
    weigh them unequally and may contradict every one of them (Simpson's
    paradox).  Intervals are clustered by game.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with ``field``, ``stratum``, the ``by`` columns and ``game``.
    values : Series or ndarray
        One value per row (booleans give a rate).
    by : sequence of str
        Further groups estimated separately.
    stratum : str
        The column pooled with equal weights.
    bounded : bool
        Clip the per-stratum intervals to [0, 1] (a share).

    Returns
    -------
    pandas.DataFrame
        ``field``, ``stratum`` (object: its values, then :data:`STANDARDISED`),
        the ``by`` columns and the estimate columns.
    """
    if stratum not in frame.columns:
        raise InvalidArgumentError(
            f"stratum must be a column of the frame, got {stratum!r}; columns: "
            f"{', '.join(map(str, frame.columns))}"
        )
    by = ["field", *by]
    split = grouped_mean(frame, values, by=[by[0], stratum, *by[1:]], bounded=bounded)
    pooled = standardised_mean(frame, values, by=by, stratum=stratum)
    if bounded or np.asarray(values).dtype == np.bool_:
        pooled[["low", "high"]] = pooled[["low", "high"]].clip(0.0, 1.0)
    pooled.insert(1, stratum, STANDARDISED)
    split[stratum] = split[stratum].astype(object)
    out = pd.concat([split, pooled[split.columns]], ignore_index=True)
    return out.sort_values(["field", stratum], key=_order_key, kind="stable", ignore_index=True)


def per_game_difference(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    arm: str,
    first: object,
    second: object,
    keys: Sequence[str] = ("field", "players"),
) -> pd.DataFrame:
    """Per game and ``keys`` group: the mean of arm ``first`` minus that of arm ``second``.

    The frame that :func:`with_standardised` turns into a paired difference
    (one value per game, so its interval is the paired t interval of
    :func:`~ohhell_sim.analysis.stats.paired_by_game`); games missing from
    either arm are dropped.

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with the ``keys``, ``arm`` and ``game`` columns.
    values : Series or ndarray
        One value per row.
    arm : str
        Column telling the arms apart.
    first, second : object
        The values of ``arm`` compared.
    keys : sequence of str
        Groups compared separately.

    Returns
    -------
    pandas.DataFrame
        The ``keys``, ``game`` and ``value``.
    """
    keys = list(keys)
    data = frame[[*keys, arm, "game"]].copy()
    data["_value"] = np.asarray(values, dtype=np.float64)
    per_game = data.groupby([*keys, "game", arm], observed=True)["_value"].mean().unstack(arm)
    # Selected one by one: a list of boolean arm labels would be read as a mask.
    difference = (per_game[first] - per_game[second]).dropna()
    return difference.rename("value").reset_index()


def deal_frame(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per (condition, game, deal): labels, hand size and the bids' total."""
    keys = ["condition", "players", "field", "hook", "game", "deal"]
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
    """Per (field, players, game): whether the winning seats differ between hook on and off."""
    won = games[games["win_share"] > 0]
    masks = (
        won.assign(bit=np.left_shift(1, won["seat"].to_numpy(dtype=np.int64)))
        .groupby(["field", "players", "game", "hook"], observed=True)["bit"]
        .sum()
        .unstack("hook")
    )
    return pd.DataFrame({"changed": masks[True] != masks[False]}).reset_index()


def effect_games(hands: pd.DataFrame, deals: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Every effect of the family as one value per (effect, field, players, game).

    ``hands`` carries the positions of :func:`_with_positions`; the win-share
    effects exist in the mix field only (a uniform field has one strategy).
    """
    dealer = hands["role"] == "dealer"
    parts = {
        DEALER_COST: per_game_difference(
            hands[dealer], hands.loc[dealer, "score"], "hook", True, False
        ),
        OTHERS_COST: per_game_difference(
            hands[~dealer], hands.loc[~dealer, "score"], "hook", True, False
        ),
    }
    for name, hook in ((EDGE_OFF, False), (EDGE_ON, True)):
        arm = hands[hands["hook"] == hook]
        parts[name] = per_game_difference(arm, arm["made"], "role", "dealer", "other seats")
    parts[OVERBID] = per_game_difference(deals, deals["excess"] > 0, "hook", True, False)
    mixed = games[games["field"] == MIX_FIELD]
    if len(mixed):
        share = per_game_difference(
            mixed, mixed["win_share"], "hook", True, False, keys=("field", "players", "strategy")
        )
        for strategy, part in share.groupby("strategy", observed=True, sort=False):
            parts[win_share_effect(str(strategy))] = part.drop(columns="strategy")
    frames = [part.assign(effect=name) for name, part in parts.items()]
    out = pd.concat(frames, ignore_index=True)
    out["effect"] = pd.Categorical(out["effect"], categories=list(parts))
    out["field"] = out["field"].astype(str)
    return out


def effect_family(effects: pd.DataFrame) -> pd.DataFrame:
    """The declared family: every effect per field and table size, plus standardised rows.

    Each row is recomputed on the even and the odd games
    (:func:`~ohhell_sim.analysis.findings.replicate`) and the whole family is
    adjusted together (:data:`CORRECTION`, :func:`~ohhell_sim.analysis.findings.adjust_family`).
    """

    def compute(frame: pd.DataFrame) -> pd.DataFrame:
        return with_standardised(frame, frame["value"], by=["effect"])

    family = replicate(effects, compute, keys=["effect", "field", "players"])
    family = adjust_family(family, method=CORRECTION, alpha=ALPHA)
    family["effect"] = pd.Categorical(family["effect"], categories=effects["effect"].cat.categories)
    return family.sort_values(["effect", "field"], key=_field_key, kind="stable", ignore_index=True)


def verdicts(family: pd.DataFrame) -> pd.DataFrame:
    """Per field effect: :func:`~ohhell_sim.analysis.findings.field_verdicts` of its
    standardised rows, with how many of its cells survive the correction and how
    many fields' standardised rows replicate."""
    rows = family[family["effect"].isin(FIELD_EFFECTS)].copy()
    rows["effect"] = rows["effect"].astype(str)
    standardised = rows[rows["players"] == STANDARDISED]
    out = field_verdicts(standardised, keys=["effect"])
    cells = rows[rows["players"] != STANDARDISED].groupby("effect", sort=False)["survives"]
    by_effect = standardised.groupby("effect", sort=False)
    out["survive in every field"] = out["effect"].map(by_effect["survives"].all())
    surviving = standardised[standardised["survives"]].groupby("effect", sort=False)["field"]
    out["surviving in"] = out["effect"].map(surviving.agg(", ".join)).fillna("")
    out["cells surviving"] = out["effect"].map(
        cells.sum().astype(int).astype(str) + " of " + cells.size().astype(str)
    )
    out["replicated fields"] = out["effect"].map(
        by_effect["replication"].apply(lambda marks: int((marks == REPLICATED).sum())).astype(str)
        + " of "
        + by_effect.size().astype(str)
    )
    return out


def analyse(data: StudyData) -> Report:
    """The report of a ``hook_rule`` run, every number computed from ``data``."""
    raw = data.hands
    games = data.games.copy(deep=False)
    games["field"] = games["field"].astype(str)
    hands = _with_positions(raw)
    hands["field"] = hands["field"].astype(str)
    deals = deal_frame(raw)
    deals["field"] = deals["field"].astype(str)
    off = deals[~deals["hook"]]

    binds = with_standardised(off, off["excess"] == 0, bounded=True)
    binds_by_size = _in_field_order(
        grouped_mean(off, off["excess"] == 0, by=["field", "players", "hand_size"])
    )

    role = with_standardised(hands, hands["made"], ["hook", "role"], bounded=True)
    role_score = with_standardised(hands, hands["score"], ["hook", "role"])
    role_table = role[["field", "players", "hook", "role", "n"]].assign(
        made_rate=role["estimate"],
        made_rate_low=role["low"],
        made_rate_high=role["high"],
        mean_score=role_score["estimate"],
        mean_score_low=role_score["low"],
        mean_score_high=role_score["high"],
    )

    family = effect_family(effect_games(hands, deals, games))
    verdict = verdicts(family)
    by_position = _in_field_order(
        paired_by_game(
            hands,
            hands["score"],
            arm="hook",
            first=True,
            second=False,
            by=["field", "players", "position"],
        )
    )

    shares = {
        name: with_standardised(deals, deals["excess"].pipe(test), ["hook"], bounded=True)
        for name, test in (
            ("over-bid (bids > tricks)", lambda e: e > 0),
            ("exact (bids = tricks)", lambda e: e == 0),
            ("under-bid (bids < tricks)", lambda e: e < 0),
        )
    }
    over_under = shares["over-bid (bids > tricks)"][["field", "players", "hook", "n"]].copy()
    for name, table in shares.items():
        over_under[name] = table["estimate"]
        over_under[f"{name}_low"] = table["low"]
        over_under[f"{name}_high"] = table["high"]

    changed = winners_changed(games)
    changed_table = with_standardised(changed, changed["changed"], bounded=True)
    winners = _mix_win_shares(games)

    findings = _findings(binds, role, family, verdict, changed_table)
    tables = [
        Table(
            "Does each effect hold in every field? Verdicts over the fields' standardised rows",
            _verdict_display(verdict),
            f"An effect holds in every field when every field's standardised interval "
            f"excludes zero on the same side. Surviving: adjusted p <= {ALPHA} "
            f"({_correction(family)}). Replicated: both halves' intervals (even and odd "
            "games) exclude zero on the side of the whole.",
        ),
        *[
            Table(
                f"Effect: {effect}",
                _family_display(family[family["effect"] == effect]),
                _effect_note(effect),
            )
            for effect in family["effect"].cat.categories
            if (family["effect"] == effect).any()
        ],
        Table(
            "How often the hook binds (hook off: the bids total the hand size)",
            display_table(binds),
            "Share of hook-off deals in which the dealer's free bid is the one the hook "
            "would forbid; n = deals. A rate, not a comparison: not in the family.",
        ),
        Table(
            "Dealer against the other seats: made rate and mean score per deal",
            display_table(role_table),
        ),
        Table(
            "Bids against tricks: share of deals over-bid, exact and under-bid",
            display_table(over_under),
        ),
        Table(
            "Does the hook change the winner? Share of games whose winning seats change",
            display_table(changed_table),
            "A rate, not a comparison: not in the family.",
        ),
    ]
    if len(winners):
        tables.append(
            Table(
                "Win share per seat of each strategy in the mix field, hook on and off",
                display_table(winners),
                "A strategy's win share averaged over the seats it holds.",
            )
        )
    dealer_rows = family[family["effect"] == DEALER_COST]
    figures = [
        Figure(
            "hook_cost_by_field.png",
            "The dealer's cost of the hook, per field and table size",
            interval_plot(
                # Table sizes as labels: the axis shows 3..7, not 3.5.
                dealer_rows[dealer_rows["players"] != STANDARDISED].assign(
                    players=lambda f: f["players"].astype(str)
                ),
                "players",
                series="field",
                title="Dealer's score per deal, hook on minus off, paired by game",
                xlabel="players",
                ylabel="points per deal",
                zero_line=True,
            ),
        ),
        Figure(
            "hook_binds_by_hand_size.png",
            "How often the hook binds, by hand size, per field",
            interval_plot(
                binds_by_size,
                "hand_size",
                series="players",
                panels="field",
                title="Hook binds (bids total the hand size, hook off)",
                xlabel="hand size",
                ylabel="share of deals",
            ),
        ),
        Figure(
            "hook_cost_by_position.png",
            "Mean score per deal, hook on minus off, by bidding position, per field",
            interval_plot(
                by_position,
                "position",
                series="players",
                panels="field",
                title="Hook on minus off, paired by game",
                xlabel="bidding position",
                ylabel="points per deal",
                zero_line=True,
                order=POSITION_ORDER,
            ),
        ),
    ]
    return study_report(
        NAME, QUESTION, data.manifest, _method(data.manifest, family), findings, tables, figures
    )


def _mix_win_shares(games: pd.DataFrame) -> pd.DataFrame:
    mixed = games[games["field"] == MIX_FIELD]
    if not len(mixed):
        return mixed
    share = with_standardised(mixed, mixed["win_share"], ["hook", "strategy"], bounded=True)
    on = share[share["hook"]].reset_index(drop=True)
    off = share[~share["hook"]].reset_index(drop=True)
    return on[["field", "players", "strategy"]].assign(
        hook_on=on["estimate"],
        hook_on_low=on["low"],
        hook_on_high=on["high"],
        hook_off=off["estimate"],
        hook_off_low=off["low"],
        hook_off_high=off["high"],
    )


def _method(manifest: dict, family: pd.DataFrame) -> list[str]:
    games = {
        c["label"]["field"]: c["games"]
        for c in manifest["conditions"]
        if isinstance(c.get("label"), dict) and "field" in c["label"]
    }
    sizes = ", ".join(f"{field} {count}" for field, count in games.items())
    share = (
        " (the mc_bidder field plays a share of the games: its bids run playouts)"
        if "mc_bidder" in games
        else ""
    )
    mix_effect = ""
    if MIX_FIELD in games:
        mix_effect = "; and in the mix field the change of each strategy's win share"
    return [
        "Each table size is played in every strategy field, with the hook on and off, with "
        "the same seed and game indices, hence the same cards; on/off differences are "
        "averaged per game and get a Student-t interval over games (paired).",
        f"Fields ({fields_text(games)}). Games per condition: {sizes}{share}.",
        "Rates and means per deal get intervals clustered by game index. A row over all table "
        f"sizes ('{STANDARDISED}') is the unweighted average of the table sizes' estimates: "
        "pooling the raw rows would weigh the table sizes by their numbers of seats and "
        "deals, and can reverse the comparison within every table size (Simpson's "
        "paradox). No row pools fields.",
        f"Family of comparisons: {len(family)} rows, every effect of the 'Effect' tables "
        "(the hook's change of the dealer's and of the other seats' score, the dealer's "
        "made-rate edge over the other seats with and without the hook, the hook's change "
        f"of the over-bid share, per field and table size plus the standardised rows{mix_effect}). "
        "Each p-value is read off "
        "its interval (normal approximation) and the family is adjusted with Holm's method "
        f"(statsmodels multipletests), family-wise error {ALPHA}: {_correction(family)}. "
        "Rates (how often the hook binds, how often the winners change) are estimates, not "
        "comparisons, and are not in the family.",
        "Replication: every row of the family is computed again on the even and on the odd "
        "games (independent halves); 'replicated' means both halves' intervals exclude zero "
        "on the side of the whole.",
        "A verdict says whether an effect holds in every field (every field's standardised "
        "interval excludes zero on the same side) or depends on the field, with the range.",
        "The hook binds when, without it, the dealer's bid makes the bids total the hand "
        "size: exactly the bid the hook forbids. Bidding position 1st bids first and leads "
        "the first trick; the dealer bids last.",
    ]


def _correction(family: pd.DataFrame) -> str:
    return str(family["correction"].iloc[0]) if len(family) else f"{CORRECTION} over 0"


def _effect_note(effect: str) -> str:
    if effect.startswith("win share of"):
        return "Mix field only, paired by game. Part of the family."
    if effect in (EDGE_OFF, EDGE_ON):
        return (
            "Within each game: the dealer's made rate minus the other seats'. Part of the family."
        )
    return "Paired by game: the same cards with and without the hook. Part of the family."


def _p_text(p: float) -> str:
    if np.isnan(p):
        return "n/a"
    return "<0.001" if p < 0.001 else fmt_number(p, 3)


def _family_display(rows: pd.DataFrame) -> pd.DataFrame:
    shown = display_table(rows[["field", "players", "n", "estimate", "low", "high"]])
    shown["p (adjusted)"] = [_p_text(p) for p in rows["p_adjusted"]]
    shown["survives"] = np.where(rows["survives"], "yes", "no")
    shown["halves"] = rows["replication"].to_numpy()
    return shown


def _verdict_display(verdict: pd.DataFrame) -> pd.DataFrame:
    return display_table(
        verdict[
            [
                "effect",
                "verdict",
                "min_estimate",
                "min_field",
                "max_estimate",
                "max_field",
                "significant_in",
                "surviving in",
                "cells surviving",
                "replicated fields",
            ]
        ]
    )


def _in_field_order(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its fields in the order of :data:`~studies.design.FIELDS` (the panels')."""
    return table.sort_values("field", key=_order_key, kind="stable", ignore_index=True)


def _order_key(column: pd.Series) -> pd.Series:
    if column.name == "field":
        return column.map(lambda f: FIELDS.index(f) if f in FIELDS else len(FIELDS))
    return column.map(lambda v: np.inf if v == STANDARDISED else float(v))


def _field_key(column: pd.Series) -> pd.Series:
    if column.name == "field":
        return _order_key(column)
    return column.cat.codes if hasattr(column, "cat") else column


def _pick(table: pd.DataFrame, **where) -> pd.Series:
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column] == value).to_numpy()
    return table[mask].iloc[0]


def _range(
    table: pd.DataFrame, digits: int = 3, where: Callable[[pd.DataFrame], pd.Series] | None = None
) -> str:
    """The lowest and highest standardised row of ``table`` over the fields, as text."""
    rows = table[table["players"] == STANDARDISED]
    if where is not None:
        rows = rows[where(rows)]
    low = rows.loc[rows["estimate"].idxmin()]
    high = rows.loc[rows["estimate"].idxmax()]
    if len(rows) == 1:
        return f"is {fmt_row(low, digits)} ({low['field']})"
    return (
        f"ranges from {fmt_row(low, digits)} ({low['field']}) to {fmt_row(high, digits)} "
        f"({high['field']})"
    )


def _at_size(table: pd.DataFrame, players: int) -> str:
    """The lowest and highest field at one table size of ``table``, as text."""
    rows = table[table["players"] == players]
    low = rows.loc[rows["estimate"].idxmin()]
    high = rows.loc[rows["estimate"].idxmax()]
    return f"{fmt_row(low)} ({low['field']}) to {fmt_row(high)} ({high['field']})"


def _findings(binds, role, family, verdict, changed) -> list[str]:
    headline, dependent, failing = [], [], []
    for _, row in verdict.iterrows():
        effect = row["effect"]
        rows = family[family["effect"] == effect]
        if row["verdict"] == HOLDS_EVERYWHERE and row["survive in every field"]:
            headline.append(
                f"Holds in every field: {effect} {_range(rows)} (standardised over table "
                "sizes; the fields at the extremes named); it survives the correction "
                f"({_correction(family)}) in every field's standardised row and in "
                f"{row['cells surviving']} field x table-size cells; replicated in both "
                f"halves of the games in {row['replicated fields']} fields."
            )
        elif row["verdict"] == NO_FIELD:
            failing.append(effect)
        else:
            label = (
                "Same sign in every field, but not surviving the correction in every field"
                if row["verdict"] == HOLDS_EVERYWHERE
                else "Depends on the field"
            )
            surviving = (
                f"in the standardised rows of {row['surviving in']} only"
                if row["surviving in"]
                else "in no field's standardised row"
            )
            dependent.append(
                f"{label}: {effect} {_range(rows)} (standardised); it survives the "
                f"correction {surviving}, and in {row['cells surviving']} field x "
                "table-size cells."
            )
    sizes = sorted(p for p in pd.unique(binds["players"]) if p != STANDARDISED)
    spread = (
        f"; at {sizes[0]} players it ranges from {_at_size(binds, sizes[0])}, at {sizes[-1]} "
        f"from {_at_size(binds, sizes[-1])}"
        if len(sizes) > 1 and binds["field"].nunique() > 1
        else ""
    )
    out = [
        *headline,
        "How often the hook binds (without it, the dealer's bid makes the bids total the "
        f"hand size, the bid the hook forbids) {_range(binds)} of deals by field, "
        f"standardised over table sizes{spread}: a rate that depends on who plays.",
        *dependent,
    ]

    def made(field: str, who: str) -> str:
        return fmt_row(_pick(role, field=field, players=STANDARDISED, hook=False, role=who))

    edges = "; ".join(
        f"{field} dealer {made(field, 'dealer')}, others {made(field, 'other seats')}"
        for field in pd.unique(role["field"])
    )
    out.append(
        "Made rate without the hook, standardised over table sizes (a raw pool would weigh "
        f"the table sizes by their numbers of seats): {edges}."
    )
    out.append(
        f"The share of games whose winning seats change under the hook {_range(changed)} "
        "by field, standardised over table sizes (a rate, not in the family)."
    )
    shares = family[family["effect"].astype(str).str.startswith("win share of")]
    shares = shares[shares["players"] == STANDARDISED]
    if len(shares):
        moved = "; ".join(
            f"{r['effect']} {fmt_row(r)}" for _, r in shares[shares["survives"]].iterrows()
        )
        out.append(
            "In the mix field, standardised over table sizes, "
            + (
                f"the hook moves win shares after the correction: {moved}."
                if moved
                else "no strategy's win share moves under the hook after the correction "
                f"({len(shares)} strategies)."
            )
        )
    if failing:
        out.append(
            f"In no field does the interval exclude zero for: {'; '.join(failing)} (not claimed)."
        )
    return out
