"""Study ``zero_bids``: who bids zero, when it works, and when it should be bid.

Each field of :data:`~ohhell_sim.studies.design.FIELDS` plays, with one seed (game *g* deals
the same cards everywhere), ``observed`` (canonical rules) and ``probe``: under each zero table
seat 0 plays ``zero`` in two arms, bidding 0 whenever legal without a boss trump, or
``expected_tricks``'s count; where the bids differ the score difference is the effect of bid 0.
The study declares its columns, parts and words; the method is the framework's (its rates:
:mod:`~ohhell_sim.studies.unit_rates`, rule: :mod:`~ohhell_sim.studies.cell_rule`, family:
:mod:`~ohhell_sim.studies.field_parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_span
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import STANDARDISED_METHOD
from ohhell_sim.rules import ZERO_TABLES, Rules
from ohhell_sim.studies.cell_rule import EVERY_FIELD, MOST_FIELDS, CellRule
from ohhell_sim.studies.design import (
    FIELDS,
    check_fields,
    count_label,
    field_seats,
    fields_text,
    hand_bands,
    position_labels,
)
from ohhell_sim.studies.field_parts import ALL, FieldParts, Frames, Judged, PartTable
from ohhell_sim.studies.holdings import with_trumps
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.unit_rates import ESTIMATE, Comparison, Event, triple
from ohhell_sim.studies.wording import confirmation_method

NAME = "zero_bids"
QUESTION = "When do players bid zero, when does it work, and which hands should bid it?"
#: Thresholds of the ``zero`` strategy's two probe arms (expected tricks at most this: bid 0).
PROBE_ARMS = {"zero": 1e9, "alternative": -1.0}
CANONICAL_ZERO_TABLE = "10"
#: Strata of every pooled rate: those a table does not split by get equal weight.
STRATA = ("players", "hand_size", "strategy")
#: A stratum with fewer zero bids than this is left out of a zero-bid success rate
#: (its rate would be noise, and a one-bid stratum has no variance to estimate).
MIN_ZERO_BIDS = 30
#: The hand-size bands of the hand-size comparison, matched size by size.
HAND_BANDS = {"1-3 cards": (1, 2, 3), "8-10 cards": (8, 9, 10)}
#: The observed part's zero bids and their success, per field and strategy.
EVENT = Event(
    column="zero", outcome="made", minimum=MIN_ZERO_BIDS, strata=STRATA, rows="deals",
    count="zero_bids", rate="zero_bid_rate", success="zero_made_rate",
    rate_measure="zero-bid rate", success_measure="zero-bid success",
)  # fmt: skip
#: The zero rule of the probe: bid 0 in the (table size, hand size, alternative bid) cells
#: where it scored more.
RULE = CellRule(
    name="zero", cells=("players", "hand_size", "alt_bid"), within="zero_table",
    label="alt_bid_label", alternative="alt_bid", choice=0, minimum=MIN_ZERO_BIDS,
)  # fmt: skip
#: How the tables name a row of the probe's cells.
BID_ZERO = "bid 0, zero table {zero_table}, {alt_bid_label}"
#: The study's one family: the rates' parts and the rule's, the parts with a verdict across
#: fields (their test, name in the tables, unit in the findings, digits) and their tables.
FAMILY = FieldParts(
    keys={**EVENT.keys, **RULE.keys},
    between={**EVENT.between, **RULE.between},
    judged={
        "rates": Judged("{measure}: {comparison}", "difference of standardised rates", 3),
        "counterfactual": Judged(BID_ZERO, "points per deal vs bidding {alt_bid_label}", 2),
        "fitted rule": Judged("fitted rule, zero table {zero_table}", "held-out gain", 3),
    },
    tables={
        "rates": PartTable(
            "Rate comparisons per field and strategy (difference of standardised rates)",
            "First minus second group, over the strata both have.",
            3,
        ),
        "counterfactual": PartTable(
            "Bidding 0 instead of the alternative bid: score difference per deal",
            "Probe seat, hands whose alternative bid is not 0 and that may bid 0.",
            2,
        ),
        "fitted rule": PartTable(
            "The fitted zero rule: in sample and held out, per field",
            "estimate: held-out gain per deal over the alternative; in_sample_gain: on its own "
            "games; other_fold_gain: fitted on the odd games, judged on the even; zero_share: "
            "held-out hands sent to 0.",
            3,
            ALL,
        ),
        "offered rule": PartTable(
            "The rule offered to players, judged where it was not chosen",
            "Chosen on the even games, judged on the odd ones (as the fitted rule).",
            3,
            ["field", "zero_table", "hands", *ESTIMATE],
        ),
    },
)
#: The columns that order the tables and figures of the counterfactual: fields, zero tables.
ORDER = ("field", "zero_table")


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = FIELDS
) -> list[Condition]:
    """The observed fields, then the probe arms under each zero table (see the module doc)."""
    fields = check_fields(fields)

    def condition(field, n, part="observed", table=CANONICAL_ZERO_TABLE, arm="-") -> Condition:
        seats = field_seats(field, n)
        if part == "probe":
            seats = (("zero", {"threshold": PROBE_ARMS[arm]}), *seats[1:])
        label = {"part": part, "field": field, "players": n, "zero_table": table, "arm": arm}
        return Condition(label, Rules(players=n, zero=table), seats, SPEC.field_games(field, games))

    return [condition(field, n) for field, n in product(fields, players)] + [
        condition(field, n, "probe", table, arm)
        for field, n, table, arm in product(fields, players, ZERO_TABLES, PROBE_ARMS)
    ]


def _seat_0(part: str, rows: pd.DataFrame) -> pd.DataFrame:
    """A probe's rows of seat 0, with ``others_bids`` (the other seats' total: when 0 was the
    dealer's forbidden bid); the observed part's as they are."""
    if part == "observed":
        return rows
    totals = rows.groupby(["condition", "game", "deal"], observed=True)["bid"]
    rows = rows.assign(others_bids=(totals.transform("sum") - rows["bid"]).astype(np.int16))
    return rows[rows["seat"] == 0]


def observed_rows(data: StudyData) -> pd.DataFrame:
    """The observed part with ``position``, ``zero``, ``made``, ``trumps``, ``trump_holding``,
    ``band`` and ``band_rank`` (the hand size's place in its :data:`HAND_BANDS` band)."""
    hands = data.hands[data.hands["part"] == "observed"].astype(
        {"field": str, "strategy": str, "players": np.int64, "hand_size": np.int64}
    )
    hands["position"] = position_labels(hands)
    hands["zero"] = hands["bid"] == 0
    hands["made"] = hands["bid"] == hands["tricks"]
    hands = with_trumps(hands, data.manifest["seed"])
    hands["trump_holding"] = count_label(hands["trumps"].to_numpy(dtype=np.int64))
    hands["band"], hands["band_rank"] = hand_bands(hands["hand_size"], HAND_BANDS)
    return hands


def compared(hands: pd.DataFrame) -> list[Comparison]:
    """The comparisons of the rates: table sizes (when several), positions, bands, trumps."""
    sizes = sorted(pd.unique(hands["players"]))
    matched = ["players", "band_rank", "strategy"]  # hand sizes matched size by size
    specs = [
        ("dealer vs first bidder", "position", "dealer", "1st (leads)", list(STRATA)),
        ("8-10 vs 1-3 cards", "band", "8-10 cards", "1-3 cards", matched),
        ("1 trump vs none", "trump_holding", "1", "0", list(STRATA)),
    ]
    if len(sizes) > 1:
        name = f"{sizes[-1]} vs {sizes[0]} players"
        specs.insert(0, (name, "players", sizes[-1], sizes[0], ["hand_size", "strategy"]))
    return specs


def probe_pairs(data: StudyData) -> pd.DataFrame:
    """Seat 0's deals in both probe arms side by side, with ``diff`` (zero minus alternative
    score) and ``decision`` (the alternative bid is not 0 and the zero arm bid 0)."""
    hands = data.hands
    probe = hands[(hands["part"] == "probe") & (hands["seat"] == 0)]
    keys = ["field", "players", "zero_table", "game", "deal"]
    alt, zero = (
        probe[probe["arm"] == arm].astype({"field": str, "zero_table": str}).set_index(keys)
        for arm in ("alternative", "zero")
    )
    pairs = alt[["hand_size"]].assign(alt_bid=alt["bid"], alt_score=alt["score"])
    pairs = pairs.assign(zero_arm_bid=zero["bid"], zero_score=zero["score"]).reset_index()
    pairs["diff"] = pairs["zero_score"] - pairs["alt_score"]
    pairs["decision"] = (pairs["alt_bid"] > 0) & (pairs["zero_arm_bid"] == 0)
    pairs["alt_bid_label"] = count_label(pairs["alt_bid"])
    return pairs


def analyse(data: StudyData) -> Report:
    """The report of a ``zero_bids`` run, every number computed from ``data``."""
    hands, pairs = observed_rows(data), probe_pairs(data)
    fields = list(pd.unique(hands["field"]))
    by_unit, by_size = (EVENT.rates(hands, by) for by in ([], ["hand_size"]))

    def family_of(run: StudyData) -> Frames:
        # The run's rules are fitted on its even games, judged on its odd ones; the
        # confirmation judges the rules fitted on the run's pairs.
        fitted = None if run is data else pairs
        rows, found = (hands, pairs) if run is data else (observed_rows(run), probe_pairs(run))
        rates = EVENT.parts(rows, compared, replicated=fitted is None)
        return FAMILY.adjusted({**rates, **RULE.parts(found, fitted)})

    parts = FAMILY.confirmed(data, family_of)
    confirmed = data.confirmation is not None
    verdict_of = FAMILY.verdicts(parts)
    # One colour and panel order per field and zero table in every table and figure.
    orders = {"field": fields, "zero_table": ZERO_TABLES}
    parts["counterfactual"] = in_order(parts["counterfactual"], ORDER, orders)
    names = ["players", "instead of", "bid 0 with"]
    player_rule = RULE.in_words(pairs, CANONICAL_ZERO_TABLE, "hand_size", "cards", names)
    tables = [
        Table(
            f"The zero rule as a player's rule (zero table {CANONICAL_ZERO_TABLE})",
            player_rule,
            "Fitted on all the games: bid 0 instead of expected_tricks's bid at the sizes listed "
            "(when legal, holding no boss trump); 'most fields' / 'every field': the cells where 0 "
            "scored more in most / all fields.",
        ),
        FAMILY.verdict_table(verdict_of),
        FAMILY.table(parts, "rates"),
        Table(
            "Zero bids by field and strategy",
            display_table(by_unit.drop(columns="field_row")),
            "zero_made_rate: share of zero bids that took no trick, over the success_strata.",
        ),
        Table("Zero bids by hand size", display_table(by_size.drop(columns="field_row"))),
        *(FAMILY.table(parts, part) for part in ("counterfactual", "fitted rule", "offered rule")),
    ]
    field_rows = by_unit[by_unit["field_row"]]
    in_short = _in_short(field_rows, parts, verdict_of, player_rule, confirmed)
    figures = _figures(by_size, in_order(RULE.gain_cells(pairs, ["hand_size"]), ORDER, orders))
    method = _method(data, fields, parts)
    levels = [
        f"In the {r['field']} field, players bid 0 in {fmt_ci(*r[triple('zero_bid_rate')])} of "
        f"deals and make {fmt_ci(*r[triple('zero_made_rate')])} of those zero bids (standardised)."
        for _, r in field_rows.iterrows()
    ]
    findings = FAMILY.findings(verdict_of, parts, len(field_rows), confirmed, levels)
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, figures, in_short=in_short
    )


def _figures(by_size: pd.DataFrame, gain_by_size: pd.DataFrame) -> list[Figure]:
    """The zero-bid rate, success and gain of bidding 0 by hand size; none of an empty table."""
    rows = by_size[by_size["field_row"]]
    plots = {
        "zero_rate_by_hand_size.png": ("zero_bid_rate", "Zero-bid rate", "share of deals"),
        "zero_success_by_hand_size.png": ("zero_made_rate", "Zero bids made", "share of zero bids"),
        "zero_gain_by_hand_size.png": ("", "Bid 0 minus the alternative bid", "points per deal"),
    }
    figures = []
    for name, (rate, title, ylabel) in plots.items():
        options = {} if rate else {"panels": "zero_table", "zero_line": True}
        renamed = rows.rename(columns=dict(zip(triple(rate), ESTIMATE, strict=True)))
        # A rate is shown wherever estimated, a gain where it has an interval.
        table = renamed.dropna(subset=["estimate"]) if rate else gain_by_size.dropna(subset=["low"])
        if len(table):
            options |= {"title": title, "xlabel": "hand size", "ylabel": ylabel}
            plot = interval_plot(table, "hand_size", series="field", **options)
            figures.append(Figure(name, f"{title} by hand size and field", plot))
    return figures


def _in_short(
    fields: pd.DataFrame, parts: Frames, verdict_of: Frames, rule: pd.DataFrame, confirmed: bool
) -> list[str]:
    """The answer first (which hands should bid 0), then the gains, rates and evidence."""
    most, every = (
        rule[rule["field"] == f].drop(columns="field").reset_index(drop=True)
        for f in (MOST_FIELDS, EVERY_FIELD)
    )
    hands = "; ".join(
        f"{r['bid 0 with']} at {r['players']} players (instead of {r['instead of']})"
        for _, r in most.iterrows()
    )
    agreed = "all" if most.equals(every) else "part" if len(every) else "none"
    verdict = f"Under the canonical zero table ({CANONICAL_ZERO_TABLE} points for a made 0), " + (
        f"bid 0, when it is legal and you hold no boss trump, only with {hands}; elsewhere bid "
        f"what the hand is worth (most fields' rule; every field favours {agreed} of it)."
        if len(most)
        else "bid what the hand is worth: no hand favours 0 in most fields."
    )
    gains, offered = parts["counterfactual"], parts["offered rule"]
    rows = offered[offered["zero_table"] == CANONICAL_ZERO_TABLE]
    if len(rows):
        found = rows.loc[rows["established"].astype(bool), "estimate"]
        verdict += (
            f" On games it was not chosen on, it changes the score by {fmt_span(rows['estimate'])}"
            " points per deal against bidding the hand's worth (a gain established in "
            f"{int((found > 0).sum())} and a loss in {int((found < 0).sum())} of {len(rows)} "
            "fields)."
        )
    canonical = gains[(gains["zero_table"] == CANONICAL_ZERO_TABLE) & gains["low"].notna()]
    worth = dict(list(canonical.groupby("alt_bid_label", sort=True)))
    text = [verdict]
    if worth:
        by_worth = "; ".join(f"worth {b} by {fmt_span(p['estimate'], 2)}" for b, p in worth.items())
        found_in = ", ".join(f"{int(p['established'].sum())} of {len(p)}" for p in worth.values())
        text.append(
            f"Bidding 0 instead changes the score of a hand {by_worth} points per deal "
            f"(established in {found_in} fields)."
        )
    return [
        *text,
        f"Fields bid 0 in {fmt_span(fields['zero_bid_rate'], percent=True)} of deals and make "
        f"{fmt_span(fields['zero_made_rate'], percent=True)} of those bids (standardised over "
        "table and hand sizes).",
        FAMILY.evidence(verdict_of, confirmed),
    ]


def _method(data: StudyData, fields: list[str], parts: Frames) -> list[str]:
    """The method's sentences: the fields, the observed and probe parts, the family."""
    return [
        f"Fields ({fields_text(fields)}). All conditions share the seed: game g deals the same "
        "cards in every field, part and zero table.",
        "Observed part (canonical rules): zero-bid rate and success per deal, intervals "
        "clustered by game; a row pooled over table sizes, hand sizes or the mix's strategies "
        f"gives each the same weight ({STANDARDISED_METHOD}), and two groups are compared over "
        "the strata both have. A success rate or counterfactual cell leaves out strata with "
        f"fewer than {MIN_ZERO_BIDS} zero bids, a floor fixed before the data.",
        "Probe part: seat 0 plays each hand twice on the same cards, bidding 0 whenever legal "
        "without a boss trump, or expected_tricks's count (the alternative); where the bids "
        "differ, the score difference is the effect of bidding 0, per field, zero table and "
        "alternative bid (each table size weighing the same, the hands within one as dealt). "
        "The zero rule bids 0 in the (table size, hand size, alternative bid) cells where 0 "
        "scored more on the even games and is judged on the odd ones; the rule offered to "
        "players takes the cells most fields' rules favour.",
        FAMILY.method(parts, "every rate comparison, counterfactual cell and rule gain"),
        confirmation_method(
            data.manifest.get("confirmation") or {},
            "every part is played again",
            "games per condition (each field its share); the zero rule fitted on all of "
            "the first run's games is judged on the confirmation's hands, which it never saw",
        ),
    ]


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    part_of=lambda c: "observed" if c.label["part"] == "observed" else f"probe {c.label['field']}",
    keep_part=_seat_0,
    analyse=analyse,
    default_games=2000,
    default_players=(3, 4, 5),
    default_fields=FIELDS,
    # mc_bidder samples deals for every bid: far more per game than the other fields.
    field_shares={"mc_bidder": 0.25},
)
