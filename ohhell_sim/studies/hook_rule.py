"""Study ``hook_rule``: what the dealer's hook does, measured on the same deals, in every field.

Every table size and strategy field (:data:`ohhell_sim.studies.design.FIELDS`) is played
twice with the same seed, hook on and hook off.  The cards of game *g* are the
same in both (the engine keys each shuffle by seed, game and deal), so every
on/off comparison is paired by game.

Each effect is estimated per field and table size, and over the table sizes
standardised (each weighs the same), never pooled over the raw rows.  The
effects form one family, adjusted with Holm and confirmed at a second seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    CONFIRMED,
    DEPENDS_ON_FIELD,
    DETECTION_POWER,
    HOLDS_EVERYWHERE,
    NO_FIELD,
    NOT_CONFIRMED,
    adjust_family,
    between_fields,
    detectable_effect,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, paired_by_game, standardised_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import (
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
from ohhell_sim.studies.family import ALPHA, CORRECTION, confirm_family
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "hook_rule"
QUESTION = "What does the dealer's hook do to the game, and who pays for it?"
DEFAULT_GAMES = 1000
DEFAULT_PLAYERS = (3, 4, 5, 6, 7)
DEFAULT_FIELDS = FIELDS
#: Share of the games that the ``mc_bidder`` field plays: its bids run playouts,
#: about a hundred times the cost of the other fields' per game.
FIELD_SHARES = {"mc_bidder": 0.25}

POINTS = "points per player per game, hook on - off"
DEALER_COST = "dealer's score per deal, hook on - off"
OTHERS_COST = "other seats' score per deal, hook on - off"
EDGE_OFF = "dealer - other seats, made rate, hook off"
EDGE_ON = "dealer - other seats, made rate, hook on"
OVERBID = "over-bid deals, hook on - off"
SEAT_GAP_ON = "seats dealing less often - more often, points per game, hook on"
SEAT_GAP_OFF = "seats dealing less often - more often, points per game, hook off"
SEAT_GAP_SHIFT = "seat gap (dealing less often - more often), hook on - off"
ONE_CARD_ON = "one-card deal's dealer - other seats, points per game, hook on"
ONE_CARD_OFF = "one-card deal's dealer - other seats, points per game, hook off"
ONE_CARD_SHIFT = "one-card dealer's gap, hook on - off"
SEAT_GAPS = (SEAT_GAP_ON, SEAT_GAP_OFF, SEAT_GAP_SHIFT)
ONE_CARD_GAPS = (ONE_CARD_ON, ONE_CARD_OFF, ONE_CARD_SHIFT)
#: The effects measured in every field, in the order of the report.
FIELD_EFFECTS = (
    POINTS,
    DEALER_COST,
    OTHERS_COST,
    EDGE_OFF,
    EDGE_ON,
    OVERBID,
    *SEAT_GAPS,
    *ONE_CARD_GAPS,
)
#: Columns identifying a row of the family (in the run and in its confirmation).
FAMILY_KEYS = ("effect", "field", "players")
#: The groups of a per-game gap measured with the hook on and off.
BY_HOOK = ("field", "players", "hook")


def win_share_effect(strategy: str) -> str:
    """Name of the effect of the hook on ``strategy``'s win share (mix field only)."""
    return f"win share of {strategy}, hook on - off"


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """Hook on and off for every table size and strategy field (see ``field_seats``)."""
    return [
        Condition(
            {"players": n, "field": field, "hook": hook},
            Rules(players=n, hook=hook),
            field_seats(field, n),
            SPEC.field_games(field, games),
        )
        for n in players
        for field in check_fields(fields)
        for hook in (True, False)
    ]


def with_standardised(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    by: Sequence[str] = (),
    stratum: str = "players",
    bounded: bool = False,
) -> pd.DataFrame:
    """Means per field, ``stratum`` and ``by`` group, then per field the :data:`STANDARDISED`
    row: the strata's unweighted average (a raw pool would weigh them unequally).

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with ``field``, ``stratum``, the ``by`` columns and ``game`` (the cluster).
    values : Series or ndarray
        One value per row (booleans give a rate).
    by : sequence of str
        Further groups estimated separately.
    stratum : str
        The column pooled with equal weights.
    bounded : bool
        Clip the intervals to [0, 1] (a share).
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
    """Per game and ``keys`` group: the mean of ``arm`` ``first`` minus that of ``second``.

    One ``value`` per game, so :func:`with_standardised` of it gives the paired
    interval of :func:`~ohhell_sim.analysis.stats.paired_by_game`; games missing
    from either arm are dropped.
    """
    keys = list(keys)
    data = frame[[*keys, arm, "game"]].copy()
    data["_value"] = np.asarray(values, dtype=np.float64)
    per_game = data.groupby([*keys, "game", arm], observed=True)["_value"].mean().unstack(arm)
    # Selected one by one: a list of boolean arm labels would be read as a mask.
    difference = (per_game[first] - per_game[second]).dropna()
    return difference.rename("value").reset_index()


def _on_off(
    frame: pd.DataFrame, values: pd.Series | np.ndarray, keys: Sequence[str] = ("field", "players")
) -> pd.DataFrame:
    """:func:`per_game_difference` of hook on minus hook off."""
    return per_game_difference(frame, values, "hook", True, False, keys)


def deal_frame(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per (condition, game, deal): labels, ``hand_size``, the ``bids``' total, their
    ``excess`` over the hand size, and ``all_made`` (every seat took exactly its bid)."""
    keys = ["condition", "players", "field", "hook", "game", "deal"]
    deals = (
        hands.assign(_made=hands["bid"] == hands["tricks"])
        .groupby(keys, observed=True, sort=False)
        .agg(hand_size=("hand_size", "first"), bids=("bid", "sum"), all_made=("_made", "min"))
        .reset_index()
    )
    deals["excess"] = deals["bids"] - deals["hand_size"]
    return deals


def _with_positions(hands: pd.DataFrame) -> pd.DataFrame:
    labels = position_label(bidding_position(hands), hands["players"].to_numpy())
    return hands.assign(
        position=pd.Categorical(labels, categories=POSITION_ORDER),
        role=np.where(labels == "dealer", "dealer", "other seats"),
        made=hands["bid"] == hands["tricks"],
    )


def with_deals_dealt(games: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """``games`` with ``dealt`` (deals the seat dealt in its game) and ``deal_role``: ``"less
    often"`` for the seats that deal fewest, ``"more often"`` for the others, ``"evenly"`` in
    a game whose deals divide evenly among the players."""
    dealing = hands[hands["seat"] == hands["dealer"]]
    dealt = dealing.groupby(["condition", "game", "seat"], observed=True).size().rename("dealt")
    out = games.merge(dealt.reset_index(), on=["condition", "game", "seat"], how="left")
    out["dealt"] = out["dealt"].fillna(0).astype(np.int64)
    by_game = out.groupby(["condition", "game"], observed=True)["dealt"]
    fewest, most = by_game.transform("min"), by_game.transform("max")
    out["deal_role"] = np.where(
        fewest == most, "evenly", np.where(out["dealt"] == fewest, "less often", "more often")
    )
    return out


def with_one_card_dealer(games: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """``games`` with ``one_card_role``: ``"one-card dealer"`` for the seat that dealt the
    game's one-card deal, ``"other seats"`` for the others."""
    dealt = hands[(hands["hand_size"] == 1) & (hands["seat"] == hands["dealer"])]
    dealer = dealt[["condition", "game", "seat"]].drop_duplicates().assign(_dealt=True)
    out = games.merge(dealer, on=["condition", "game", "seat"], how="left")
    out["one_card_role"] = np.where(out["_dealt"].notna(), "one-card dealer", "other seats")
    return out.drop(columns="_dealt")


def one_card_gaps(games: pd.DataFrame) -> pd.DataFrame:
    """Per (field, players, hook, game): the one-card deal's dealer's final total minus the
    mean of the other seats' (:func:`with_one_card_dealer` rows)."""
    return per_game_difference(
        games, games["total"], "one_card_role", "one-card dealer", "other seats", BY_HOOK
    )


def seat_gaps(games: pd.DataFrame) -> pd.DataFrame:
    """Per (field, players, hook, game): the mean final total of the seats that deal less
    often minus that of the seats that deal more often (:func:`with_deals_dealt` rows)."""
    uneven = games[games["deal_role"] != "evenly"]
    return per_game_difference(
        uneven, uneven["total"], "deal_role", "less often", "more often", BY_HOOK
    )


def winning_margins(games: pd.DataFrame) -> pd.DataFrame:
    """Per (field, players, hook, game): the winner's final total minus the runner-up's."""
    keys = [*BY_HOOK, "game"]
    ordered = games.sort_values([*keys, "total"], ascending=False)
    ranked = ordered.groupby(keys, observed=True)["total"]
    margin = ranked.nth(0).to_numpy() - ranked.nth(1).to_numpy()
    return ordered.drop_duplicates(keys)[keys].assign(margin=margin)


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
    """Every effect of the family as one value per (effect, field, players, game), from the
    frames of :func:`_frames`; the win-share effects exist in the mix field only."""
    dealer = hands["role"] == "dealer"
    parts = {
        POINTS: _on_off(games, games["total"]),
        DEALER_COST: _on_off(hands[dealer], hands.loc[dealer, "score"]),
        OTHERS_COST: _on_off(hands[~dealer], hands.loc[~dealer, "score"]),
    }
    for name, hook in ((EDGE_OFF, False), (EDGE_ON, True)):
        arm = hands[hands["hook"] == hook]
        parts[name] = per_game_difference(arm, arm["made"], "role", "dealer", "other seats")
    parts[OVERBID] = _on_off(deals, deals["excess"] > 0)
    for gaps, (on, off, shift) in (
        (seat_gaps(games), SEAT_GAPS),
        (one_card_gaps(games), ONE_CARD_GAPS),
    ):
        for name, hook in ((on, True), (off, False)):
            parts[name] = gaps[gaps["hook"] == hook].drop(columns="hook")
        parts[shift] = _on_off(gaps, gaps["value"])
    mixed = games[games["field"] == MIX_FIELD]
    if len(mixed):
        share = _on_off(mixed, mixed["win_share"], ("field", "players", "strategy"))
        for strategy, part in share.groupby("strategy", observed=True, sort=False):
            parts[win_share_effect(str(strategy))] = part.drop(columns="strategy")
    out = pd.concat([part.assign(effect=name) for name, part in parts.items()], ignore_index=True)
    out["effect"] = pd.Categorical(out["effect"], categories=list(parts))
    out["field"] = out["field"].astype(str)
    return out


def effect_family(effects: pd.DataFrame) -> pd.DataFrame:
    """The family, adjusted as one: every effect per field and table size, the standardised
    rows, and per field effect the test between fields
    (:func:`~ohhell_sim.analysis.findings.between_fields`, games paired across fields)."""
    family = with_standardised(effects, effects["value"], by=["effect"])
    family["effect"] = family["effect"].astype(str)
    per_game = effects[effects["effect"].isin(FIELD_EFFECTS)]
    per_game = per_game.assign(effect=per_game["effect"].astype(str))
    tests = between_fields(per_game, keys=["effect"], stratum="players")
    family = pd.concat([family, tests.assign(players=STANDARDISED)], ignore_index=True)
    family = adjust_family(family, method=CORRECTION, alpha=ALPHA)
    family["effect"] = pd.Categorical(family["effect"], categories=effects["effect"].cat.categories)
    return family.sort_values(["effect", "field"], key=_field_key, kind="stable", ignore_index=True)


def study_family(data: StudyData) -> pd.DataFrame:
    """:func:`effect_family` of a run's data (the run or its confirmation)."""
    return effect_family(effect_games(*_frames(data)))


def confirmed_family(data: StudyData) -> pd.DataFrame:
    """The family of ``data``, its surviving rows checked in the confirmation run."""
    family = confirm_family(data, lambda d: {"effects": study_family(d)}, {"effects": FAMILY_KEYS})
    family = family["effects"]
    family["effect"] = pd.Categorical(family["effect"], categories=family["effect"].unique())
    return family


#: Verdict of an effect established with opposite signs at different table sizes: its
#: standardised row would average them away, so it is not read.
OPPOSITE_SIZES = "opposite signs at different table sizes (read the cells, not the pool)"


def verdicts(family: pd.DataFrame) -> pd.DataFrame:
    """Per field effect: :func:`~ohhell_sim.analysis.findings.verdicts_across_fields` of
    its standardised rows and its test between fields, with how many of its cells are
    established; :data:`OPPOSITE_SIZES` instead where established cells of different
    table sizes have opposite signs."""
    rows = family[family["effect"].isin(FIELD_EFFECTS)].copy()
    rows["effect"] = rows["effect"].astype(str)
    between = rows[rows["field"] == BETWEEN_FIELDS]
    rows = rows[rows["field"] != BETWEEN_FIELDS]
    standardised = rows[rows["players"] == STANDARDISED]
    out = verdicts_across_fields(standardised, between, keys=["effect"])
    opposite = [_signs_differ(family, effect) for effect in out["effect"]]
    out.loc[opposite, "verdict"] = OPPOSITE_SIZES
    cells = rows[rows["players"] != STANDARDISED].groupby("effect", sort=False)["established"]
    out["cells established"] = out["effect"].map(
        cells.sum().astype(int).astype(str) + " of " + cells.size().astype(str)
    )
    test = between.set_index("effect")
    out["between fields, p (adjusted)"] = out["effect"].map(test["p_adjusted"]).map(fmt_p)
    size = standardised.assign(detectable=_detectable_sizes(family, standardised))
    out["detectable (standardised)"] = out["effect"].map(
        size.groupby("effect")["detectable"].max().map(fmt_number)
    )
    return out


def _frames(data: StudyData) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The hands (with positions), deals and games (with deals dealt) of ``data``."""
    hands, deals = _with_positions(data.hands), deal_frame(data.hands)
    games = with_one_card_dealer(with_deals_dealt(data.games, data.hands), data.hands)
    for frame in (hands, deals, games):
        frame["field"] = frame["field"].astype(str)
    return hands, deals, games


def analyse(data: StudyData) -> Report:
    """The report of a ``hook_rule`` run, every number computed from ``data``."""
    hands, deals, games = _frames(data)
    off = deals[~deals["hook"]]

    binds = with_standardised(off, off["excess"] == 0, bounded=True)
    binds_by_size = _in_field_order(
        grouped_mean(off, off["excess"] == 0, by=["field", "players", "hand_size"])
    )
    all_made = with_standardised(off, off["all_made"], bounded=True)
    margins = winning_margins(games)
    margin = with_standardised(margins, margins["margin"], by=["hook"])

    role = with_standardised(hands, hands["made"], ["hook", "role"], bounded=True)
    role_score = with_standardised(hands, hands["score"], ["hook", "role"])
    role_table = _side_by_side(
        {"made_rate": role, "mean_score": role_score}, ["field", "players", "hook", "role", "n"]
    )

    family = confirmed_family(data)
    verdict = verdicts(family)
    by_position = _in_field_order(
        paired_by_game(hands, hands["score"], "hook", True, False, ["field", "players", "position"])
    )

    sign = np.sign(deals["excess"])
    names = ("over-bid (bids > tricks)", "exact (bids = tricks)", "under-bid (bids < tricks)")
    shares = {
        name: with_standardised(deals, sign == side, ["hook"], bounded=True)
        for name, side in zip(names, (1, 0, -1), strict=True)
    }
    over_under = _side_by_side(shares, [*BY_HOOK, "n"])

    changed = winners_changed(games)
    changed_table = with_standardised(changed, changed["changed"], bounded=True)
    winners = _mix_win_shares(games)
    facts = Facts(
        family,
        verdict,
        *map(_standardised, (binds, all_made, margin[~margin["hook"]], changed_table)),
        _standardised(role[~role["hook"]]).set_index(["field", "role"]),
    )

    cells = family[family["field"] != BETWEEN_FIELDS]
    tables = [
        Table(
            "Should we play with the hook? The answer's numbers, per field",
            _answer_table(facts),
            f"Standardised over the table sizes played ({STANDARDISED}: each weighs the "
            "same). Points are final totals per player per game; the margin is the winner's "
            "final total minus the runner-up's, without the hook.",
        ),
        Table(
            "Seat fairness: seats that deal less often against seats that deal more often, "
            "and the one-card deal's dealer against the other seats",
            _seat_table(cells, games),
            "The deals of a game seldom divide evenly among the players, so some seats deal "
            "once more than others. Hook on, off, on - off: the mean final total of the seats "
            "that deal less often minus that of the others, points per game. One-card "
            "dealer: the final total of the seat that deals the one-card deal minus the "
            "other seats' mean; with the hook it is the one seat forced off a bid in the "
            "deal where a single trick is at stake. n = games. Part of the family.",
        ),
        Table(
            "Does each effect hold in every field? Verdicts over the fields' standardised rows",
            _verdict_display(verdict),
            "Established: survives the correction "
            f"({_correction(family)}) and is confirmed at the second seed. Holds in every "
            "field: established in every field, with one sign. Depends on the field: the "
            "test between fields (a Wald test of the fields' standardised effects, games "
            "paired across fields, part of the family) is established. In some fields: "
            "established in some, with no evidence that the fields differ. Opposite signs "
            "at different table sizes: established cells disagree in sign, so the "
            "standardised row, which averages them, is not read. Detectable: the "
            "smallest effect a field's standardised "
            f"row would have found with probability {DETECTION_POWER:.0%} at the family's "
            "strictest level (the largest over the fields).",
        ),
        Table(
            "Do the fields differ? A paired test per effect",
            _between_display(family),
            "W: the Wald statistic of the fields' standardised estimates, their covariance "
            "estimated from the per-game effects, clustered by game (every field plays the "
            "same cards, so their estimates are correlated), chi-squared with fields - 1 "
            "degrees of freedom; I² is the share of their spread beyond chance; spread is "
            "the highest field's estimate minus the lowest's.",
        ),
        *[
            Table(f"Effect: {effect}", _family_display(rows, family), _effect_note(effect))
            for effect, rows in cells.groupby("effect", observed=True)
        ],
        Table(
            "How often the hook binds (hook off: the bids total the hand size)",
            display_table(binds.rename(columns={"n": "deals"})),
            "Share of hook-off deals in which the dealer's free bid is the one the hook "
            "would forbid. A rate, not a comparison: not in the family.",
        ),
        Table(
            "Deals in which every player makes their bid (hook off)",
            display_table(all_made.rename(columns={"n": "deals"})),
            "With the hook no such deal exists: the bids never total the hand size. A rate, "
            "not in the family.",
        ),
        Table(
            "Dealer against the other seats: made rate and mean score per deal",
            display_table(role_table.rename(columns={"n": "seat-deals"})),
        ),
        Table(
            "Bids against tricks: share of deals over-bid, exact and under-bid",
            display_table(over_under.rename(columns={"n": "deals"})),
        ),
        Table(
            "Does the hook change the winner? Share of games whose winning seats change",
            display_table(changed_table.rename(columns={"n": "games"})),
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
    # The tests between fields are standardised rows: not among the cells.
    dealer_cells = family[(family["effect"] == DEALER_COST) & (family["players"] != STANDARDISED)]
    figures = [
        Figure(
            "hook_cost_by_field.png",
            "The dealer's cost of the hook, per field and table size",
            interval_plot(
                # Table sizes as labels: the axis shows 3..7, not 3.5.
                dealer_cells.assign(players=dealer_cells["players"].astype(str)),
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
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, family),
        _findings(facts),
        tables,
        figures,
        in_short=_in_short(facts),
    )


@dataclass(frozen=True)
class Facts:
    """The estimates the report's words are made of (see :func:`analyse`): the family, the
    verdicts, and the fields' standardised rows of the rates, of the margin and of the
    made rates (by field and role) without the hook."""

    family: pd.DataFrame
    verdict: pd.DataFrame
    binds: pd.DataFrame
    all_made: pd.DataFrame
    margin: pd.DataFrame
    changed: pd.DataFrame
    role: pd.DataFrame


def _mix_win_shares(games: pd.DataFrame) -> pd.DataFrame:
    mixed = games[games["field"] == MIX_FIELD]
    if not len(mixed):
        return mixed
    share = with_standardised(mixed, mixed["win_share"], ["hook", "strategy"], bounded=True)
    arms = {"hook_on": share[share["hook"]], "hook_off": share[~share["hook"]]}
    return _side_by_side(arms, ["field", "players", "strategy"])


def _side_by_side(tables: dict[str, pd.DataFrame], keys: Sequence[str]) -> pd.DataFrame:
    """The ``keys`` of the first of ``tables`` (whose rows match), then each table's estimate
    and interval as the columns ``name``, ``name_low`` and ``name_high``."""
    columns = {
        f"{name}{suffix}": table[column].to_numpy()
        for name, table in tables.items()
        for suffix, column in (("", "estimate"), ("_low", "low"), ("_high", "high"))
    }
    return next(iter(tables.values()))[list(keys)].reset_index(drop=True).assign(**columns)


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
    confirmation = manifest.get("confirmation") or {}
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
        f"Family of comparisons, one for the whole report: {len(family)} rows, every effect "
        "of the 'Effect' tables (the hook's change of the points per player and of the "
        "dealer's and the other seats' score, the dealer's made-rate edge over the other "
        "seats with and without the hook, the hook's change of the over-bid share, the gap "
        "between seats that deal less and more often and that of the one-card deal's "
        "dealer against the other seats, each with and without the hook and its change, per "
        f"field and table size plus the standardised rows{mix_effect}), and per "
        "effect the test that its size is the same in every field (a Wald test on the "
        "per-game effects, games paired across fields). Each "
        "p-value of an interval is read off it (normal approximation); the family is "
        f"adjusted with Holm's method (statsmodels multipletests), family-wise error {ALPHA}: "
        f"{_correction(family)}. p-values are printed to three decimals, '< 0.001' below. "
        "Rates (how often the hook binds, how often every bid is made, how often the "
        "winners change) and the winning margin are estimates, not comparisons, and are "
        "not in the family.",
        confirmation_method(
            confirmation,
            "the whole study is played again",
            "games per condition (each field its share)",
        ),
        "'Depends on the field' is claimed only when the test between fields is established; "
        "an effect established in some fields without it is 'in some fields'. Where an "
        "effect is not established, the report gives the smallest effect the run would have "
        f"found with probability {DETECTION_POWER:.0%} at the family's strictest level "
        f"({ALPHA} over the family's size): absence of evidence is not evidence of an "
        "effect's absence below that size.",
        "The hook binds when, without it, the dealer's bid makes the bids total the hand "
        "size: exactly the bid the hook forbids. Bidding position 1st bids first and leads "
        "the first trick; the dealer bids last.",
    ]


def _correction(family: pd.DataFrame) -> str:
    return str(family["correction"].iloc[0]) if len(family) else f"{CORRECTION} over 0"


def _effect_note(effect: str) -> str:
    if effect.startswith("win share of"):
        design = "Mix field only, paired by game."
    elif effect in (EDGE_OFF, EDGE_ON, SEAT_GAP_ON, SEAT_GAP_OFF, ONE_CARD_ON, ONE_CARD_OFF):
        design = "Within each game; n = games."
    else:
        design = "Paired by game: the same cards with and without the hook; n = games."
    return (
        f"{design} Part of the family. Detectable: the smallest effect the row would have found "
        f"with probability {DETECTION_POWER:.0%} at the family's strictest level."
    )


def _family_display(rows: pd.DataFrame, family: pd.DataFrame) -> pd.DataFrame:
    shown = display_table(rows[["field", "players", "n", "estimate", "low", "high"]]).rename(
        columns={"n": "games"}
    )
    shown["p (adjusted)"] = [fmt_p(p) for p in rows["p_adjusted"]]
    shown["detectable"] = [fmt_number(d) for d in _detectable_sizes(family, rows)]
    shown["survives"] = np.where(rows["survives"], "yes", "no")
    shown["confirmation"] = [confirmation_cell(row) for _, row in rows.iterrows()]
    return shown


def _between_display(family: pd.DataFrame) -> pd.DataFrame:
    rows = family[family["field"] == BETWEEN_FIELDS]
    return pd.DataFrame(
        {
            "effect": rows["effect"].astype(str).to_numpy(),
            "fields": rows["n"].astype(int).to_numpy(),
            "W": [fmt_number(q, 1) for q in rows["q"]],
            "I²": [fmt_number(i, 2) for i in rows["i_squared"]],
            "spread": [fmt_number(e) for e in rows["estimate"]],
            "p (adjusted)": [fmt_p(p) for p in rows["p_adjusted"]],
            "confirmation": rows["confirmation"].to_numpy(),
        }
    )


def _verdict_display(verdict: pd.DataFrame) -> pd.DataFrame:
    test = "between fields, p (adjusted)"
    shown = verdict.drop(columns=["fields", test])
    shown.insert(3, test, verdict[test])
    return display_table(shown)


def _answer_table(facts: Facts) -> pd.DataFrame:
    points = _standardised(facts.family, POINTS)
    table = points[["field"]].reset_index(drop=True)
    for name, rows, digits in (
        (POINTS, points, 3),
        ("winning margin, hook off (points)", facts.margin, 1),
        ("every bid made, hook off (share of deals)", facts.all_made, 3),
        ("games whose winners change", facts.changed, 3),
        (DEALER_COST, _standardised(facts.family, DEALER_COST), 3),
    ):
        table[name] = [fmt_row(rows.set_index("field").loc[f], digits) for f in table["field"]]
    return table


def _seat_table(cells: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for effect, column in (
        (SEAT_GAP_ON, "hook on"),
        (SEAT_GAP_OFF, "hook off"),
        (SEAT_GAP_SHIFT, "on - off"),
        (ONE_CARD_ON, "one-card dealer, hook on"),
        (ONE_CARD_OFF, "one-card dealer, hook off"),
    ):
        for _, row in cells[cells["effect"] == effect].iterrows():
            # Marked * when established (survives and confirms).
            cell = fmt_row(row) + (" *" if row["established"] else "")
            rows.append({"field": row["field"], "players": row["players"], column: cell})
    table = pd.DataFrame(rows).groupby(["field", "players"], sort=False).first().reset_index()
    table = table.sort_values(["field", "players"], key=_order_key, kind="stable")
    # Per table size, the deals of the seats that deal less and more often.
    uneven = games[games["deal_role"] != "evenly"]
    dealt = uneven.groupby(["players", "deal_role"], observed=True)["dealt"].first().unstack()
    counts = {p: f"{int(d['less often'])} / {int(d['more often'])}" for p, d in dealt.iterrows()}
    table.insert(
        2, "deals dealt (less / more often)", [counts.get(p, "n/a") for p in table["players"]]
    )
    return table.reset_index(drop=True)


def _in_field_order(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its fields in the order of the panels (``design.FIELDS``)."""
    return table.sort_values("field", key=_order_key, kind="stable", ignore_index=True)


def _order_key(column: pd.Series) -> pd.Series:
    if column.name == "field":
        return column.map(lambda f: FIELDS.index(f) if f in FIELDS else len(FIELDS))
    return column.map(lambda v: np.inf if v == STANDARDISED else float(v))


def _field_key(column: pd.Series) -> pd.Series:
    if column.name == "field":
        return _order_key(column)
    return column.cat.codes if hasattr(column, "cat") else column


def _standardised(table: pd.DataFrame, effect: str | None = None) -> pd.DataFrame:
    """The fields' standardised rows of ``table`` (of the family's ``effect`` when given)."""
    rows = table[(table["players"] == STANDARDISED) & (table["field"] != BETWEEN_FIELDS)]
    return rows if effect is None else rows[rows["effect"] == effect]


def _span(rows: pd.DataFrame) -> str:
    """``"X (field) to Y (field)"``: the lowest and highest row of ``rows`` over the fields."""
    first, last = rows.loc[rows["estimate"].idxmin()], rows.loc[rows["estimate"].idxmax()]
    span = f"{fmt_row(first)} ({first['field']})"
    return span if len(rows) == 1 else f"{span} to {fmt_row(last)} ({last['field']})"


def _between(rows: pd.DataFrame, scale: int = 1, digits: int = 3, percent: bool = False) -> str:
    """``"X to Y"``: the lowest and highest estimate over the fields as the tables print them;
    ``scale`` -1 for a cost as a positive number, ``percent`` for a share as a percentage."""
    values = [fmt_number(v, digits) for v in sorted(scale * rows["estimate"])]
    values = [f"{Decimal(v).scaleb(2)}%" if percent else v for v in values]
    return values[0] if values[0] == values[-1] else f"{values[0]} to {values[-1]}"


def _detectable_sizes(family: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """Per row of ``rows``, the smallest effect the run would have found at the strictest
    level of ``family`` (the tables' ``detectable``)."""
    size = int(family["p_adjusted"].notna().sum())
    return detectable_effect(rows["low"], rows["high"], ALPHA / size)


def _detectable(family: pd.DataFrame, rows: pd.DataFrame) -> str:
    """The largest of :func:`_detectable_sizes` over ``rows``."""
    return fmt_number(float(np.nanmax(_detectable_sizes(family, rows))))


def _in_short(facts: Facts) -> list[str]:
    family, verdict = facts.family, facts.verdict
    points, dealer = _standardised(family, POINTS), _standardised(family, DEALER_COST)
    answer = (
        "Play with the hook if you want no deal in which every bid is made: it costs each "
        f"player {_between(points, -1)} points per game by field ({_established(points)}), "
        f"against a typical winning margin of {_between(facts.margin, digits=1)} points. "
        f"Without it every player makes their bid in {_between(facts.all_made, percent=True)} "
        f"of deals. It changes the winning seat in {_between(facts.changed, percent=True)} of "
        "games"
    )
    shares = _standardised(family)
    shares = shares[shares["effect"].astype(str).str.startswith("win share of")]
    moved = shares[shares["established"]]
    if len(moved):
        names = ", ".join(pd.unique(moved["effect"].astype(str).str[len("win share of ") :]))
        answer += f", and in the mix field it moves the win share of {names}"
    elif len(shares):
        answer += (
            " but no strategy's win share in the mix field (the run would find a change "
            f"of {_detectable(family, shares)})"
        )
    loss = f"the dealer loses {_between(dealer, -1)} points per deal"
    if dealer["established"].all() and (dealer["estimate"] < 0).all():
        answer += f". Play without it if you want the dealer's seat no worse than others: {loss}."
    else:
        answer += f". Under it {loss} ({_established(dealer)})."
    gaps = _established_cells(family, ONE_CARD_ON)
    if len(gaps):
        widest = gaps.loc[gaps["estimate"].abs().idxmax()]
        side = "behind" if widest["estimate"] < 0 else "ahead of"
        seats = (
            "Under the hook the seat that deals the one-card deal is not even with the others, "
            f"by up to {fmt_number(abs(widest['estimate']))} points per game ({side} them at "
            f"{widest['players']} players, {widest['field']}); to even it out, play as many "
            "games as players, passing the first deal round."
        )
    else:
        seats = (
            "The run established no gap between the seat that deals the one-card deal and "
            "the others under the hook."
        )
    holds = verdict[verdict["verdict"] == HOLDS_EVERYWHERE]
    among = " (the cost among them)" if POINTS in set(holds["effect"]) else ""
    confirmed = family["confirmation"].isin([CONFIRMED, NOT_CONFIRMED]).any()
    evidence = (
        f"Evidence: {len(holds)} of the {len(verdict)} effects measured in every field hold in "
        f"every field{among}, each surviving one correction over all comparisons "
        f"{'and confirmed at the second seed' if confirmed else '(no confirmation run)'}; "
        f"{int((verdict['size differs'] == 'yes').sum())} of the {len(verdict)} differ in size "
        "between fields."
    )
    return [answer, seats, evidence]


def _established(rows: pd.DataFrame) -> str:
    return f"established in {int(rows['established'].sum())} of {len(rows)} fields"


def _established_cells(family: pd.DataFrame, effect: str) -> pd.DataFrame:
    """The established field x table-size cells of ``effect``."""
    cells = family[(family["effect"] == effect) & (family["players"] != STANDARDISED)]
    return cells[cells["established"]]


def _signs_differ(family: pd.DataFrame, effect: str) -> bool:
    """Whether established cells of ``effect`` (table sizes) have both signs."""
    estimate = _established_cells(family, effect)["estimate"]
    return estimate.gt(0).any() and estimate.lt(0).any()


def _findings(facts: Facts) -> list[str]:
    family, verdict = facts.family, facts.verdict
    out = []
    for _, row in verdict.iterrows():
        effect = row["effect"]
        rows = _standardised(family, effect)
        size = (
            f"; its size depends on the field (test between fields: adjusted p "
            f"{row['between fields, p (adjusted)']})"
            if row["size differs"] == "yes"
            else ""
        )
        if row["verdict"] == HOLDS_EVERYWHERE:
            out.append(
                f"Holds in every field: {effect}, {_span(rows)} (standardised over table "
                f"sizes), established in {row['cells established']} field x table-size "
                f"cells{size}."
            )
        elif row["verdict"] == DEPENDS_ON_FIELD:
            out.append(
                f"Depends on the field: {effect}, {_span(rows)} (standardised); established "
                f"in {row['established in'] or 'no field'}{size}."
            )
        elif row["verdict"] == OPPOSITE_SIZES:
            out.append(
                f"Opposite signs at different table sizes: {effect}; established in "
                f"{row['cells established']} field x table-size cells (the seat-fairness and "
                "effect tables give each); its standardised row, "
                f"{_span(rows)}, averages them and is not read."
            )
        elif row["verdict"] == NO_FIELD:
            out.append(
                f"Not established in any field's standardised row: {effect}, {_span(rows)}; "
                f"the run would have found an effect of {_detectable(family, rows)} or more "
                f"there. Established in {row['cells established']} field x table-size cells."
            )
        else:
            out.append(
                f"In some fields only ({row['established in']}): {effect}, {_span(rows)} "
                "(standardised); the test between fields finds no difference, and "
                f"{row['cells established']} field x table-size cells are established."
            )
    role = facts.role
    edges = "; ".join(
        f"{field} dealer {fmt_row(role.loc[(field, 'dealer')])}, "
        f"others {fmt_row(role.loc[(field, 'other seats')])}"
        for field in pd.unique(role.index.get_level_values("field"))
    )
    return [
        *out,
        "How often the hook binds (without it, the dealer's bid makes the bids total the "
        f"hand size, the bid the hook forbids): {_span(facts.binds)} of the deals by field, "
        "standardised over table sizes (a rate, not in the family).",
        "Made rate without the hook, standardised over table sizes (a raw pool would weigh "
        f"the table sizes by their numbers of seats): {edges}.",
        f"The share of games whose winning seats change under the hook: {_span(facts.changed)} by "
        "field, standardised over table sizes (a rate, not in the family).",
    ]


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=DEFAULT_FIELDS,
    field_shares=FIELD_SHARES,
)
