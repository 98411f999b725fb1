"""Study ``hook_rule``: what the dealer's hook does, measured on the same deals, in every field.

Every table size and strategy field (:data:`ohhell_sim.studies.design.FIELDS`) is played twice
with the same seed, hook on and hook off.  The cards of game *g* are the same in both (the engine
keys each shuffle by seed, game and deal), so every on/off comparison is paired by game.  Each
effect is estimated per field and table size, and over the table sizes standardised (each weighs
the same), never pooled over the raw rows.  The effects form one family, adjusted with Holm and
confirmed at a second seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    CONFIRMED,
    DETECTION_POWER,
    HOLDS_EVERYWHERE,
    NO_FIELD,
    NOT_CONFIRMED,
    adjust_family,
    between_fields,
    detectable_effect,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row, fmt_span
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    grouped_mean,
    paired_by_game,
    per_game_difference,
    standardised_mean,
)
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
#: Columns of the bids table: exact deals (hook off: the hook binds), every bid made.
EXACT = "exact (bids = tricks)"
ALL_MADE = "every bid made"
EDGES = (EDGE_OFF, EDGE_ON)
SEAT_GAPS = (SEAT_GAP_ON, SEAT_GAP_OFF, SEAT_GAP_SHIFT)
ONE_CARD_GAPS = (ONE_CARD_ON, ONE_CARD_OFF, ONE_CARD_SHIFT)
#: The effects measured in every field, in the order of the report.
FIELD_EFFECTS = (POINTS, DEALER_COST, OTHERS_COST, *EDGES, OVERBID, *SEAT_GAPS, *ONE_CARD_GAPS)
#: The columns naming a row of the family, in the run and in its confirmation.
FAMILY_KEYS = {"effects": ("effect", "field", "players")}
#: The groups of an effect (a field at a table size), and of a gap measured hook on and off.
BY_TABLE = ("field", "players")
BY_HOOK = ("field", "players", "hook")
#: The seat roles whose final totals :func:`total_gaps` compares.
ROLES = {
    "deal_role": ("less often", "more often"),
    "one_card_role": ("one-card dealer", "other seats"),
}
#: Per game and table, hook on minus off (:func:`~ohhell_sim.analysis.stats.per_game_difference`).
_on_off = partial(per_game_difference, arm="hook", first=True, second=False, by=BY_TABLE)


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
    """Means of ``values`` per field, ``stratum`` and ``by`` group (clustered by ``game``;
    booleans, or ``bounded``, give a share clipped to [0, 1]), then per field and ``by`` group
    the :data:`STANDARDISED` row: the strata's unweighted average (a raw pool would weigh them
    unequally)."""
    if stratum not in frame.columns:
        raise InvalidArgumentError(
            f"stratum must be a column of the frame, got {stratum!r}; columns: "
            f"{', '.join(map(str, frame.columns))}"
        )
    split = grouped_mean(frame, values, by=["field", stratum, *by], bounded=bounded)
    pooled = standardised_mean(frame, values, by=["field", *by], stratum=stratum)
    if bounded or np.asarray(values).dtype == np.bool_:
        pooled[["low", "high"]] = pooled[["low", "high"]].clip(0.0, 1.0)
    pooled.insert(1, stratum, STANDARDISED)
    split[stratum] = split[stratum].astype(object)
    out = pd.concat([split, pooled[split.columns]], ignore_index=True)
    return out.sort_values(["field", stratum], key=_order_key, kind="stable", ignore_index=True)


def deal_frame(hands: pd.DataFrame) -> pd.DataFrame:
    """One row per (condition, game, deal): labels, ``hand_size``, the ``bids``' total, their
    ``excess`` over the hand size, and ``all_made`` (every seat took exactly its bid)."""
    keys = ["condition", "players", "field", "hook", "game", "deal"]
    return (
        hands.assign(_made=hands["bid"] == hands["tricks"])
        .groupby(keys, observed=True, sort=False)
        .agg(hand_size=("hand_size", "first"), bids=("bid", "sum"), all_made=("_made", "min"))
        .reset_index()
        .assign(excess=lambda deals: deals["bids"] - deals["hand_size"])
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


def total_gaps(games: pd.DataFrame, role: str) -> pd.DataFrame:
    """Per (field, players, hook, game): the mean final total of the seats whose ``role``
    column holds the first of its :data:`ROLES` pair minus that of the seats of the second."""
    return per_game_difference(games, games["total"], role, *ROLES[role], BY_HOOK)


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
    for name, hook in zip(EDGES, (False, True), strict=True):
        arm = hands[hands["hook"] == hook]
        parts[name] = per_game_difference(
            arm, arm["made"], "role", "dealer", "other seats", BY_TABLE
        )
    parts[OVERBID] = _on_off(deals, deals["excess"] > 0)
    for role, (on, off, shift) in zip(ROLES, (SEAT_GAPS, ONE_CARD_GAPS), strict=True):
        gaps = total_gaps(games, role)
        for name, hook in ((on, True), (off, False)):
            parts[name] = gaps[gaps["hook"] == hook].drop(columns="hook")
        parts[shift] = _on_off(gaps, gaps["value"])
    mixed = games[games["field"] == MIX_FIELD]
    if len(mixed):
        share = _on_off(mixed, mixed["win_share"], by=(*BY_TABLE, "strategy"))
        for strategy, part in share.groupby("strategy", observed=True, sort=False):
            parts[f"win share of {strategy}, hook on - off"] = part.drop(columns="strategy")
    out = pd.concat([part.assign(effect=name) for name, part in parts.items()], ignore_index=True)
    out["effect"] = pd.Categorical(out["effect"], categories=list(parts))
    return out


def effect_family(effects: pd.DataFrame) -> pd.DataFrame:
    """The family, adjusted as one: every effect per field and table size, the standardised
    rows, and per field effect the test between fields
    (:func:`~ohhell_sim.analysis.findings.between_fields`, games paired across fields)."""
    family = with_standardised(effects, effects["value"], by=["effect"])
    family["effect"] = family["effect"].astype(str)
    per_game = effects[effects["effect"].isin(FIELD_EFFECTS)].astype({"effect": str})
    tests = between_fields(per_game, keys=["effect"], stratum="players")
    family = pd.concat([family, tests.assign(players=STANDARDISED)], ignore_index=True)
    family = adjust_family(family, method=CORRECTION, alpha=ALPHA)
    family["effect"] = pd.Categorical(family["effect"], categories=effects["effect"].cat.categories)
    return family.sort_values(["effect", "field"], key=_order_key, kind="stable", ignore_index=True)


def study_family(data: StudyData) -> pd.DataFrame:
    """:func:`effect_family` of a run's data (the run or its confirmation)."""
    return effect_family(effect_games(*_frames(data)))


def confirmed_family(data: StudyData) -> pd.DataFrame:
    """The family of ``data``, its surviving rows checked in the confirmation run."""
    family = confirm_family(data, lambda d: {"effects": study_family(d)}, FAMILY_KEYS)["effects"]
    family["effect"] = pd.Categorical(family["effect"], categories=family["effect"].unique())
    return family


#: Verdict of an effect established with opposite signs at different table sizes: its
#: standardised row would average them away, so it is not read.
OPPOSITE_SIZES = "opposite signs at different table sizes (read the cells, not the pool)"


def verdicts(family: pd.DataFrame) -> pd.DataFrame:
    """Per field effect: :func:`~ohhell_sim.analysis.findings.verdicts_across_fields` of its
    standardised rows and its test between fields, with how many of its cells are established;
    :data:`OPPOSITE_SIZES` where established cells of different table sizes differ in sign."""
    rows = family[family["effect"].isin(FIELD_EFFECTS)].astype({"effect": str})
    between = rows[rows["field"] == BETWEEN_FIELDS]
    out = verdicts_across_fields(_standardised(rows), between, keys=["effect"])
    signs = [set(np.sign(_established_cells(family, e)["estimate"])) for e in out["effect"]]
    out.loc[[{-1.0, 1.0} <= sign for sign in signs], "verdict"] = OPPOSITE_SIZES
    cells = rows[rows["players"] != STANDARDISED].groupby("effect", sort=False)["established"]
    out["cells established"] = out["effect"].map(
        cells.sum().astype(int).astype(str) + " of " + cells.size().astype(str)
    )
    test = between.set_index("effect")
    out["W"] = out["effect"].map(test["q"]).map(lambda q: fmt_number(q, 1))
    out["I²"] = out["effect"].map(test["i_squared"]).map(lambda i: fmt_number(i, 2))
    out["between fields, p (adjusted)"] = out["effect"].map(test["p_adjusted"]).map(fmt_p)
    out["detectable (standardised)"] = [
        _detectable(family, _standardised(family, e)) for e in out["effect"]
    ]
    return out


def _frames(data: StudyData) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The hands (with bidding position, role and made bid), deals and games (with the seats'
    :data:`ROLES`) of ``data``."""
    hands, deals = data.hands, deal_frame(data.hands)
    labels = position_label(bidding_position(hands), hands["players"].to_numpy())
    hands = hands.assign(
        position=pd.Categorical(labels, categories=POSITION_ORDER),
        role=np.where(labels == "dealer", "dealer", "other seats"),
        made=hands["bid"] == hands["tricks"],
    )
    games = with_one_card_dealer(with_deals_dealt(data.games, data.hands), data.hands)
    for frame in (hands, deals, games):
        frame["field"] = frame["field"].astype(str)
    return hands, deals, games


def analyse(data: StudyData) -> Report:
    """The report of a ``hook_rule`` run, every number computed from ``data``."""
    hands, deals, games = _frames(data)
    off = deals[~deals["hook"]]
    binds_by_size = grouped_mean(off, off["excess"] == 0, by=["field", "players", "hand_size"])
    margins = winning_margins(games)
    margin = with_standardised(margins, margins["margin"], by=["hook"])
    family = confirmed_family(data)
    verdict = verdicts(family)
    by_position = paired_by_game(
        hands, hands["score"], "hook", True, False, ["field", "players", "position"]
    )
    sign = np.sign(deals["excess"])
    shares = {
        name: with_standardised(deals, values, ["hook"], bounded=True)
        for name, values in (
            ("over-bid (bids > tricks)", sign == 1),
            (EXACT, sign == 0),
            ("under-bid (bids < tricks)", sign == -1),
            (ALL_MADE, deals["all_made"]),
        )
    }
    # The shares side by side, each as the columns name, name_low and name_high.
    over_under = shares[EXACT][[*BY_HOOK, "n"]].assign(
        **{
            f"{name}{suffix}": table[column].to_numpy()
            for name, table in shares.items()
            for suffix, column in (("", "estimate"), ("_low", "low"), ("_high", "high"))
        }
    )
    changed = winners_changed(games)
    changed_table = with_standardised(changed, changed["changed"], bounded=True)
    # The fields' standardised rows the words are made of (the rates and the margin hook off).
    off_rows = {"binds": shares[EXACT], "all_made": shares[ALL_MADE], "margin": margin}
    rates = {name: _standardised(t[~t["hook"]]) for name, t in off_rows.items()}
    rates["changed"] = _standardised(changed_table)
    tables = [
        Table(
            "Should we play with the hook? The answer's numbers, per field",
            _answer_table(family, rates),
            "Standardised over the table sizes. Points: final totals per player per game; the "
            "margin: the winner's final total minus the runner-up's.",
        ),
        Table(
            "Does each effect hold in every field? Verdicts over the fields' standardised rows",
            _verdict_display(verdict),
            "Verdicts as in the method; detectable: the largest over the fields. W: the Wald "
            "statistic of the test between fields (chi-squared, fields - 1 degrees of "
            "freedom); I²: the share of the fields' spread beyond chance.",
        ),
        Table(
            "Effects: each comparison of the family, per field and table size",
            _family_display(family[family["field"] != BETWEEN_FIELDS], family),
            "Gaps with the hook on or off compare final totals within each game: of the seats "
            "that deal less often (a game's deals seldom divide evenly) against the others, "
            "and of the one-card deal's dealer (under the hook, forced off a bid where one "
            "trick is at stake) against the others' mean. Detectable: as in the method.",
        ),
        Table(
            "Bids against tricks: share of deals over-bid, exact, under-bid, every bid made",
            display_table(over_under.rename(columns={"n": "deals"})),
            "Exact with the hook off: how often the hook binds. Every bid made: each player "
            "takes exactly their bid, which the hook rules out.",
        ),
        Table(
            "Does the hook change the winner? Share of games whose winning seats change",
            display_table(changed_table.rename(columns={"n": "games"})),
        ),
    ]
    # The tests between fields are standardised rows: not among the cells.
    dealer_cells = family[(family["effect"] == DEALER_COST) & (family["players"] != STANDARDISED)]
    # One panel per field (in the order of FIELDS), one series per table size.
    grid = {"series": "players", "panels": "field"}
    figures = [
        Figure(name, caption, interval_plot(rows, x, title=title, ylabel=ylabel, **options))
        for name, caption, rows, x, title, ylabel, options in (
            (
                "hook_cost_by_field.png",
                "The dealer's cost of the hook, per field and table size",
                # Table sizes as labels: the axis shows 3..7, not 3.5.
                dealer_cells.assign(players=dealer_cells["players"].astype(str)),
                "players",
                "Dealer's score per deal, hook on minus off, paired by game",
                "points per deal",
                {"series": "field", "xlabel": "players", "zero_line": True},
            ),
            (
                "hook_binds_by_hand_size.png",
                "How often the hook binds, by hand size, per field",
                binds_by_size.sort_values("field", key=_order_key, kind="stable"),
                "hand_size",
                "Hook binds (bids total the hand size, hook off)",
                "share of deals",
                {**grid, "xlabel": "hand size"},
            ),
            (
                "hook_cost_by_position.png",
                "Mean score per deal, hook on minus off, by bidding position, per field",
                by_position.sort_values("field", key=_order_key, kind="stable"),
                "position",
                "Hook on minus off, paired by game",
                "points per deal",
                {**grid, "xlabel": "bidding position", "zero_line": True, "order": POSITION_ORDER},
            ),
        )
    ]
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, family),
        _findings(family, verdict, rates),
        tables,
        figures,
        in_short=_in_short(family, verdict, rates),
    )


def _method(manifest: dict, family: pd.DataFrame) -> list[str]:
    games = {c["label"]["field"]: c["games"] for c in manifest["conditions"]}
    sizes = ", ".join(f"{field} {count}" for field, count in games.items())
    share = " (mc_bidder fewer: its bids run playouts)" if "mc_bidder" in games else ""
    correction = family["correction"].iloc[0] if len(family) else f"{CORRECTION} over 0"
    return [
        "Each table size is played in every strategy field with the hook on and off on the "
        "same cards (same seed and game indices): on - off differences are averaged per game "
        "and get a paired Student-t interval over games; rates and means per deal get "
        "intervals clustered by game.",
        f"Fields ({fields_text(games)}). Games per condition: {sizes}{share}.",
        f"A row over all table sizes ('{STANDARDISED}') is the unweighted average of the "
        "table sizes' estimates: a raw pool would weigh them by their numbers of seats and "
        "deals, and can reverse the comparison within every table size (Simpson's paradox). "
        "No row pools fields.",
        f"Family, one for the whole report: {len(family)} rows, those of the effect table and "
        "per effect a Wald test that its size is the same in every field (games paired "
        "across fields). p-values are read off the intervals (normal approximation) and "
        f"adjusted with Holm's method, family-wise error {ALPHA}: {correction}. Rates and "
        "the winning margin are estimates, not in the family.",
        confirmation_method(
            manifest.get("confirmation") or {},
            "the whole study is played again",
            "games per condition (each field its share)",
        ),
        "Established: surviving the correction, and confirmed. Over the fields' standardised "
        "rows, an effect 'holds in every field' when established in each with one sign, "
        "'depends on the field' when the test between fields is established, is 'in some "
        "fields' when established in some without it; where established cells of different "
        "table sizes disagree in sign, the standardised row, which averages them, is not "
        "read. 'Detectable': the smallest effect the run would have found with probability "
        f"{DETECTION_POWER:.0%} at the family's strictest level ({ALPHA} over the family's "
        "size); absence of evidence is not evidence of absence below that size.",
        "The hook binds when, without it, the dealer's bid makes the bids total the hand "
        "size: exactly the bid the hook forbids. Bidding position 1st bids first and leads "
        "the first trick; the dealer bids last.",
    ]


def _family_display(rows: pd.DataFrame, family: pd.DataFrame) -> pd.DataFrame:
    columns = ["effect", "field", "players", "n", "estimate", "low", "high"]
    shown = display_table(rows[columns]).rename(columns={"n": "games"})
    shown["p (adjusted)"] = [fmt_p(p) for p in rows["p_adjusted"]]
    shown["detectable"] = [fmt_number(d) for d in _detectable_sizes(family, rows)]
    shown["survives"] = np.where(rows["survives"], "yes", "no")
    shown["confirmation"] = [confirmation_cell(row) for _, row in rows.iterrows()]
    return shown


def _verdict_display(verdict: pd.DataFrame) -> pd.DataFrame:
    first = ["effect", "verdict", "size differs", "W", "I²", "between fields, p (adjusted)"]
    return display_table(verdict[[*first, *verdict.columns.drop([*first, "fields"])]])


def _answer_table(family: pd.DataFrame, rates: dict[str, pd.DataFrame]) -> pd.DataFrame:
    points = _standardised(family, POINTS)
    table = points[["field"]].reset_index(drop=True)
    for name, rows, digits in (
        (POINTS, points, 3),
        ("winning margin, hook off (points)", rates["margin"], 1),
        ("every bid made, hook off (share of deals)", rates["all_made"], 3),
        ("games whose winners change", rates["changed"], 3),
        (DEALER_COST, _standardised(family, DEALER_COST), 3),
    ):
        table[name] = [fmt_row(rows.set_index("field").loc[f], digits) for f in table["field"]]
    return table


def _order_key(column: pd.Series) -> pd.Series:
    """Sort key: fields in panel order, categories in theirs, the standardised row last."""
    if column.name == "field":
        return column.map(lambda f: FIELDS.index(f) if f in FIELDS else len(FIELDS))
    if hasattr(column, "cat"):
        return column.cat.codes
    return column.map(lambda v: np.inf if v == STANDARDISED else float(v))


def _standardised(table: pd.DataFrame, effect: str | None = None) -> pd.DataFrame:
    """The fields' standardised rows of ``table`` (of the family's ``effect`` when given)."""
    rows = table[(table["players"] == STANDARDISED) & (table["field"] != BETWEEN_FIELDS)]
    return rows if effect is None else rows[rows["effect"] == effect]


def _span(rows: pd.DataFrame) -> str:
    """``"X (field) to Y (field)"``: the lowest and highest row of ``rows`` over the fields."""
    first, last = rows.loc[rows["estimate"].idxmin()], rows.loc[rows["estimate"].idxmax()]
    span = f"{fmt_row(first)} ({first['field']})"
    return span if len(rows) == 1 else f"{span} to {fmt_row(last)} ({last['field']})"


def _detectable_sizes(family: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """Per row of ``rows``, the smallest effect the run finds at ``family``'s strictest level."""
    size = int(family["p_adjusted"].notna().sum())
    return detectable_effect(rows["low"], rows["high"], ALPHA / size)


def _detectable(family: pd.DataFrame, rows: pd.DataFrame) -> str:
    return fmt_number(float(np.nanmax(_detectable_sizes(family, rows))))


def _in_short(
    family: pd.DataFrame, verdict: pd.DataFrame, rates: dict[str, pd.DataFrame]
) -> list[str]:
    points, dealer = _standardised(family, POINTS), _standardised(family, DEALER_COST)
    shares = _standardised(family[~family["effect"].isin(FIELD_EFFECTS)])  # the win shares
    moved = shares.loc[shares["established"], "effect"].astype(str)
    answer = (
        "The hook rules out the deals in which every player makes their bid (without it "
        f"{fmt_span(rates['all_made']['estimate'], percent=True)} of deals) and costs each player "
        f"{fmt_span(-points['estimate'])} points per game by field ({_established(points)}), "
        f"against a typical winning margin of {fmt_span(rates['margin']['estimate'], 1)} points. "
        f"It changes the winning seat in {fmt_span(rates['changed']['estimate'], percent=True)} "
        "of games"
    )
    if len(moved):
        names = moved.str.removeprefix("win share of ").str.removesuffix(", hook on - off")
        answer += f", and in the mix field it moves the win share of {', '.join(names)}"
    elif len(shares):
        answer += (
            " but no strategy's win share in the mix field (the run would find a change "
            f"of {_detectable(family, shares)})"
        )
    loss = f"the dealer loses {fmt_span(-dealer['estimate'])} points per deal"
    if dealer["established"].all() and (dealer["estimate"] < 0).all():
        answer += (
            ". Play with it to rule out those deals; play without it to keep the dealer's seat "
            f"even with the others: under it {loss}."
        )
    else:
        answer += f". Under it {loss} ({_established(dealer)})."
    gaps = _established_cells(family, ONE_CARD_ON)
    seats = (
        "The run established no gap between the seat that deals the one-card deal and the "
        "others under the hook."
    )
    if len(gaps):
        widest = gaps.loc[gaps["estimate"].abs().idxmax()]
        side = "behind" if widest["estimate"] < 0 else "ahead of"
        seats = (
            "Under the hook the seat that deals the one-card deal is not even with the others, "
            f"by up to {fmt_number(abs(widest['estimate']))} points per game ({side} them at "
            f"{widest['players']} players, {widest['field']}); to even it out, play as many "
            "games as players, passing the first deal round."
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


def _findings(
    family: pd.DataFrame, verdict: pd.DataFrame, rates: dict[str, pd.DataFrame]
) -> list[str]:
    out = []
    for _, row in verdict.iterrows():
        effect, rows = row["effect"], _standardised(family, row["effect"])
        # Which fields, where the verdict does not already say (all, or read per cell).
        whole = row["verdict"] in (HOLDS_EVERYWHERE, OPPOSITE_SIZES)
        where = "" if whole else row["established in"]
        text = (
            f"{effect[0].upper()}{effect[1:]}: {row['verdict']}"
            f"{f' (established in {where})' if where else ''}. Standardised over table sizes: "
            f"{_span(rows)}; established in {row['cells established']} field x table-size cells"
        )
        if row["size differs"] == "yes":
            text += f"; the fields differ (adjusted p {row['between fields, p (adjusted)']})"
        if row["verdict"] == NO_FIELD:
            text += f"; the run would have found an effect of {_detectable(family, rows)} or more"
        out.append(f"{text}.")
    return [
        *out,
        f"How often the hook binds: {_span(rates['binds'])} of the deals by field, standardised "
        "over table sizes (a rate, not in the family).",
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
