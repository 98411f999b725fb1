"""Study ``hook_rule``: what the dealer's hook does, measured on the same deals, in every field.

Every table size and strategy field (:data:`ohhell_sim.studies.design.FIELDS`) is played twice
with the same seed, hook on and hook off.  The cards of game *g* are the same in both (the engine
keys each shuffle by seed, game and deal), so every on/off comparison is paired by game.  The
study declares its effects and its words; the method (standardised rows, the family, its
correction and confirmation, verdicts, tables) is
:class:`~ohhell_sim.studies.effects.EffectStudy`'s.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    CONFIRMED,
    HOLDS_EVERYWHERE,
    NOT_CONFIRMED,
)
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_row, fmt_span
from ohhell_sim.analysis.report import Figure, Table
from ohhell_sim.analysis.stats import grouped_mean, paired_by_game, per_game_difference
from ohhell_sim.rules import Rules
from ohhell_sim.studies import measures, position_rows
from ohhell_sim.studies.design import FIELDS, MIX_FIELD, POSITION_ORDER

# The notebook reads the standardised rows' label here.
from ohhell_sim.studies.design import STANDARDISED as STANDARDISED
from ohhell_sim.studies.effect_rows import (
    BY_TABLE,
    detectable,
    established_cells,
    established_in,
    order_key,
    span,
    standardised,
    with_standardised,
)
from ohhell_sim.studies.effects import EffectStudy, Words
from ohhell_sim.studies.runs import StudyData

NAME = "hook_rule"
DEFAULT_FIELDS = FIELDS

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
#: The groups of a gap measured hook on and off.
BY_HOOK = ("field", "players", "hook")
#: The seat roles whose final totals :func:`total_gaps` compares.
ROLES = {
    "deal_role": ("less often", "more often"),
    "one_card_role": ("one-card dealer", "other seats"),
}


#: The condition labels every deal row keeps.
LABELS = ("players", "field", "hook")
#: A row per deal instead of every hand (:func:`~ohhell_sim.studies.position_rows.deal_rows`).
deal_rows = partial(position_rows.deal_rows, labels=LABELS)


def deals_of(data: StudyData) -> pd.DataFrame:
    """:func:`deal_rows` of a run: its hands as kept, or reduced here when the run kept
    every hand (``--keep-hands``)."""
    return position_rows.deals_of(data.hands, LABELS)


def total_gaps(games: pd.DataFrame, role: str) -> pd.DataFrame:
    """Per (field, players, hook, game): the mean final total of the seats whose ``role``
    column holds the first of its :data:`ROLES` pair minus that of the seats of the second."""
    return per_game_difference(games, games["total"], role, *ROLES[role], BY_HOOK)


def effects(data: StudyData) -> dict[str, pd.DataFrame]:
    """Every effect of the family as one value per (field, players, game) per effect; the
    win-share effects exist in the mix field only."""
    roles, _, deals, games = _frames(data)
    on_off = STUDY.difference
    dealer = roles["role"] == "dealer"
    parts = {
        POINTS: on_off(games, games["total"]),
        DEALER_COST: on_off(roles[dealer], roles.loc[dealer, "score"]),
        OTHERS_COST: on_off(roles[~dealer], roles.loc[~dealer, "score"]),
    }
    for name, hook in zip(EDGES, (False, True), strict=True):
        arm = roles[roles["hook"] == hook]
        parts[name] = per_game_difference(
            arm, arm["made"], "role", *position_rows.ROLE_NAMES, BY_TABLE
        )
    parts[OVERBID] = on_off(deals, deals["excess"] > 0)
    for role, (on, off, shift) in zip(ROLES, (SEAT_GAPS, ONE_CARD_GAPS), strict=True):
        gaps = total_gaps(games, role)
        for name, hook in ((on, True), (off, False)):
            parts[name] = gaps[gaps["hook"] == hook].drop(columns="hook")
        parts[shift] = on_off(gaps, gaps["value"])
    mixed = games[games["field"] == MIX_FIELD]
    if len(mixed):
        share = on_off(mixed, mixed["win_share"], by=(*BY_TABLE, "strategy"))
        for strategy, part in share.groupby("strategy", observed=True, sort=False):
            parts[f"win share of {strategy}, hook on - off"] = part.drop(columns="strategy")
    return parts


def _frames(data: StudyData) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Per game: the ``score`` and ``made`` means of each role's hands (dealer, other seats)
    and of each bidding position's (as means over the hands, to the bit: sums of whole
    numbers over their counts); the deals (:func:`deals_of`); the games with the seats'
    :data:`ROLES`."""
    deals = deals_of(data)
    roles, positions = position_rows.role_and_position_means(deals, [*BY_HOOK, "game"])
    dealing = deals[["condition", "game", "hand_size", "dealer"]].assign(seat=deals["dealer"])
    games = measures.with_deals_dealt(data.games, dealing)
    games = measures.with_one_card_dealer(games, dealing)
    deals = deals.drop(columns=[*position_rows.POSITION_COLUMNS, "dealer", "trump"])
    for frame in (deals, games):
        frame["field"] = frame["field"].astype(str)
    return roles, positions, deals, games


def words(data: StudyData, family: pd.DataFrame, verdict: pd.DataFrame) -> Words:
    """The study's own answer, tables and figures: the rates, the bids and the winners."""
    _, positions, deals, games = _frames(data)
    off = deals[~deals["hook"]]
    binds_by_size = grouped_mean(off, off["excess"] == 0, by=["field", "players", "hand_size"])
    margins = measures.winning_margins(games, BY_HOOK)
    margin = with_standardised(margins, margins["margin"], by=["hook"])
    by_position = paired_by_game(
        positions, positions["score"], "hook", True, False, ["field", "players", "position"]
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
    changed = measures.winners_changed(games, "hook", STUDY.arms, BY_TABLE)
    changed_table = with_standardised(changed, changed["changed"], bounded=True)
    # The fields' standardised rows the words are made of (the rates and the margin hook off).
    off_rows = {"binds": shares[EXACT], "all_made": shares[ALL_MADE], "margin": margin}
    rates = {name: standardised(t[~t["hook"]]) for name, t in off_rows.items()}
    rates["changed"] = standardised(changed_table)
    # One panel per field (in the order of FIELDS), one series per table size.
    grid = {"series": "players", "panels": "field"}
    figures = [
        Figure(name, caption, interval_plot(rows, x, title=title, ylabel=ylabel, **options))
        for name, caption, rows, x, title, ylabel, options in (
            (
                "hook_binds_by_hand_size.png",
                "How often the hook binds, by hand size, per field",
                binds_by_size.sort_values("field", key=order_key, kind="stable"),
                "hand_size",
                "Hook binds (bids total the hand size, hook off)",
                "share of deals",
                {**grid, "xlabel": "hand size"},
            ),
            (
                "hook_cost_by_position.png",
                "Mean score per deal, hook on minus off, by bidding position, per field",
                by_position.sort_values("field", key=order_key, kind="stable"),
                "position",
                "Hook on minus off, paired by game",
                "points per deal",
                {**grid, "xlabel": "bidding position", "zero_line": True, "order": POSITION_ORDER},
            ),
        )
    ]
    cost = STUDY.cells_figure(
        family,
        DEALER_COST,
        "hook_cost_by_field.png",
        "The dealer's cost of the hook, per field and table size",
        "Dealer's score per deal, hook on minus off, paired by game",
        "points per deal",
    )
    return Words(
        in_short=_in_short(family, verdict, rates),
        findings=[
            f"How often the hook binds: {span(rates['binds'])} of the deals by field, "
            "standardised over table sizes (a rate, not in the family)."
        ],
        lead_tables=[
            Table(
                "Should we play with the hook? The answer's numbers, per field",
                _answer_table(family, rates),
                "Standardised over the table sizes. Points: final totals per player per game; "
                "the margin: the winner's final total minus the runner-up's.",
            )
        ],
        tables=[
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
        ],
        figures=[cost, *figures],
    )


def _answer_table(family: pd.DataFrame, rates: dict[str, pd.DataFrame]) -> pd.DataFrame:
    points = standardised(family, POINTS)
    table = points[["field"]].reset_index(drop=True)
    for name, rows, digits in (
        (POINTS, points, 3),
        ("winning margin, hook off (points)", rates["margin"], 1),
        ("every bid made, hook off (share of deals)", rates["all_made"], 3),
        ("games whose winners change", rates["changed"], 3),
        (DEALER_COST, standardised(family, DEALER_COST), 3),
    ):
        table[name] = [fmt_row(rows.set_index("field").loc[f], digits) for f in table["field"]]
    return table


def _in_short(
    family: pd.DataFrame, verdict: pd.DataFrame, rates: dict[str, pd.DataFrame]
) -> list[str]:
    points, dealer = standardised(family, POINTS), standardised(family, DEALER_COST)
    shares = standardised(family[~family["effect"].isin(FIELD_EFFECTS)])  # the win shares
    moved = shares.loc[shares["established"], "effect"].astype(str)
    answer = (
        "The hook rules out the deals in which every player makes their bid (without it "
        f"{fmt_span(rates['all_made']['estimate'], percent=True)} of deals) and costs each player "
        f"{fmt_span(-points['estimate'])} points per game by field ({established_in(points)}), "
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
            f"of {detectable(family, shares)})"
        )
    loss = f"the dealer loses {fmt_span(-dealer['estimate'])} points per deal"
    if dealer["established"].all() and (dealer["estimate"] < 0).all():
        answer += (
            ". Play with it to rule out those deals; play without it to keep the dealer's seat "
            f"even with the others: under it {loss}."
        )
    else:
        answer += f". Under it {loss} ({established_in(dealer)})."
    gaps = established_cells(family, ONE_CARD_ON)
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


STUDY = EffectStudy(
    name=NAME,
    question="What does the dealer's hook do to the game, and who pays for it?",
    arm="hook",
    arms=(True, False),
    rules=lambda players, hook: Rules(players=players, hook=hook),
    effects=effects,
    words=words,
    field_effects=FIELD_EFFECTS,
    default_games=1000,
    default_players=(3, 4, 5, 6, 7),
    default_fields=DEFAULT_FIELDS,
    # The mc_bidder field's bids run playouts, about a hundred times the others' cost a game.
    field_shares={"mc_bidder": 0.25},
    reduce_hands=deal_rows,
    design=(
        "Each table size is played in every strategy field with the hook on and off on the "
        "same cards (same seed and game indices): on - off differences are averaged per game "
        "and get a paired Student-t interval over games; rates and means per deal get "
        "intervals clustered by game."
    ),
    outside_family="Rates and the winning margin are estimates, not in the family.",
    effects_note=(
        "Gaps with the hook on or off compare final totals within each game: of the seats "
        "that deal less often (a game's deals seldom divide evenly) against the others, "
        "and of the one-card deal's dealer (under the hook, forced off a bid where one "
        "trick is at stake) against the others' mean. Detectable: as in the method."
    ),
    notes=(
        "The hook binds when, without it, the dealer's bid makes the bids total the hand "
        "size: exactly the bid the hook forbids. Bidding position 1st bids first and leads "
        "the first trick; the dealer bids last.",
    ),
)
SPEC = STUDY.spec()
conditions = STUDY.conditions
study_family = STUDY.family
confirmed_family = STUDY.confirmed_family
verdicts = STUDY.verdicts
analyse = STUDY.analyse
