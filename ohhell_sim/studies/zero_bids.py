"""Study ``zero_bids``: who bids zero, when it works, and when it should be bid.

Each field of :data:`~ohhell_sim.studies.design.FIELDS` plays, with one seed (game *g* deals
the same cards everywhere), ``observed`` (canonical rules) and ``probe``: under each zero table
seat 0 plays ``zero`` in two arms, bidding 0 whenever legal without a boss trump, or
``expected_tricks``'s count; where the bids differ the score difference is the effect of bid 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    equal_estimates_rows,
    equal_standardised_means_rows,
    half_of,
    replicate,
    replication_mark,
    verdicts_with_counts,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_p, fmt_span
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    STANDARDISED_METHOD,
    Estimate,
    grouped_mean,
    standardised_difference,
    standardised_mean,
    standardised_means,
)
from ohhell_sim.rules import ZERO_TABLES, Rules
from ohhell_sim.studies.design import (
    FIELDS,
    STANDARDISED,
    bidding_position,
    check_fields,
    field_seats,
    fields_text,
    position_label,
)
from ohhell_sim.studies.family import CORRECTION, confirm_family, correct
from ohhell_sim.studies.holdings import trump_holdings
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.runs import Condition, StudyData, play_conditions, stack_frames
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "zero_bids"
QUESTION = "When do players bid zero, when does it work, and which hands should bid it?"
DEFAULT_GAMES = 2000
DEFAULT_PLAYERS = (3, 4, 5)
DEFAULT_FIELDS = FIELDS
#: Share of the games a field plays (``mc_bidder`` samples deals for every bid and
#: costs far more per game than the other fields); see :meth:`StudySpec.field_games`.
FIELD_SHARES = {"mc_bidder": 0.25}
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
RATE = "zero-bid rate"
SUCCESS = "zero-bid success"
ESTIMATE = ["estimate", "low", "high"]
#: Tables by name: the family's parts and their verdicts.
Frames = dict[str, pd.DataFrame]


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """The observed fields, then the probe arms under each zero table (see the module doc)."""

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


def play(
    games: int,
    seed: int,
    players: tuple[int, ...] = DEFAULT_PLAYERS,
    progress: bool = True,
    fields: Sequence[str] = DEFAULT_FIELDS,
) -> StudyData:
    """Play :func:`conditions`: the observed part, then each field's probe, keeping seat 0's
    rows with ``others_bids`` (the other seats' total: when 0 was the dealer's forbidden bid)."""
    design = conditions(games, players, check_fields(fields))
    hands, games_played, offset = [], [], 0
    parts: dict[str, list[Condition]] = {}
    for c in design:
        name = "observed" if c.label["part"] == "observed" else f"probe {c.label['field']}"
        parts.setdefault(name, []).append(c)
    for description, part in parts.items():
        data = play_conditions(part, seed, progress=progress, description=f"{NAME} {description}")
        rows = data.hands
        if description != "observed":
            totals = rows.groupby(["condition", "game", "deal"], observed=True)["bid"]
            rows = rows.assign(others_bids=(totals.transform("sum") - rows["bid"]).astype(np.int16))
            rows = rows[rows["seat"] == 0]
        # The conditions are numbered on from part to part.
        for frame, out in ((rows, hands), (data.games, games_played)):
            out.append(frame.assign(condition=(frame["condition"] + offset).astype(np.int16)))
        offset += len(part)
    manifest = {**data.manifest, "conditions": [c.describe() for c in design]}
    # Categories that differ between the parts stack as objects: categorical again.
    return StudyData(stack_frames(hands), stack_frames(games_played), manifest)


def observed_rows(data: StudyData) -> pd.DataFrame:
    """The observed part with ``position``, ``zero``, ``made``, ``trumps``, ``trump_holding``,
    ``band`` and ``band_rank`` (the hand size's place in its :data:`HAND_BANDS` band)."""
    hands = data.hands[data.hands["part"] == "observed"].astype(
        {"field": str, "strategy": str, "players": np.int64, "hand_size": np.int64}
    )
    hands["position"] = position_label(bidding_position(hands), hands["players"].to_numpy())
    hands["zero"] = hands["bid"] == 0
    hands["made"] = hands["bid"] == hands["tricks"]
    # Canonical cards depend on the seed, game and deal only: every field shares them.
    holdings = [
        trump_holdings(table, data.manifest["seed"], int(n)).assign(players=int(n))
        for n, table in hands.groupby("players", observed=True)
    ]
    hands = hands.merge(pd.concat(holdings), on=["players", "game", "deal", "seat"], how="left")
    trumps = hands["trumps"].to_numpy(dtype=np.int64)
    hands["trump_holding"] = np.where(trumps >= 3, "3+", trumps.astype(str))
    bands = {size: band for band, sizes in HAND_BANDS.items() for size in sizes}
    ranks = {size: rank for sizes in HAND_BANDS.values() for rank, size in enumerate(sizes)}
    hands["band"] = hands["hand_size"].map(bands).fillna("")
    hands["band_rank"] = hands["hand_size"].map(ranks).fillna(-1).astype(np.int64)
    return hands


def _enough(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """The rows of ``frame`` whose group of ``columns`` holds at least :data:`MIN_ZERO_BIDS`."""
    size = frame.groupby(list(columns), observed=True, sort=False)["game"].transform("size")
    return frame[size.to_numpy() >= MIN_ZERO_BIDS]


def units(hands: pd.DataFrame) -> Iterator[tuple[str, str, bool, pd.DataFrame]]:
    """``(field, strategy, field_row, rows)`` per field's strategy and a mixed field's
    :data:`STANDARDISED` row; ``field_row`` marks the one row that speaks for the field."""
    for field, rows in hands.groupby("field", observed=True, sort=False):
        strategies = list(pd.unique(rows["strategy"]))
        if len(strategies) > 1:
            yield field, STANDARDISED, True, rows
        for strategy in strategies:
            yield field, strategy, len(strategies) == 1, rows[rows["strategy"] == strategy]


def standardised_rates(hands: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Zero-bid rate and success per :func:`units` row and ``by`` group (may be none), each
    stratum of the :data:`STRATA` not in ``by`` weighing the same; success pools only the
    ``success_strata``, those with :data:`MIN_ZERO_BIDS` zero bids or more."""
    by = list(by)
    strata = [c for c in STRATA if c not in by]
    groups = by or ["_all"]  # one group of all the rows when ``by`` is empty
    out = []
    for field, strategy, field_row, rows in units(hands.assign(_all=0)):
        zeros = _enough(rows[rows["zero"]], [*groups, *strata])
        table = rows.groupby(groups, observed=True)["zero"].agg(deals="size", zero_bids="sum")
        rate, made = (
            standardised_means(frame, frame[column], groups, strata, bounded=True).set_index(groups)
            for frame, column in ((rows, "zero"), (zeros, "made"))
        )
        table[_triple("zero_bid_rate")] = rate[ESTIMATE]
        table[_triple("zero_made_rate")] = made[ESTIMATE]
        # Only the success rate's strata are shown (the rate's are all of them).
        table["success_strata"] = made["strata"].reindex(table.index).fillna(0).astype(int)
        table = table.reset_index()
        out.append(table.assign(field=field, strategy=strategy, field_row=field_row))
    columns = ["field", "strategy", "field_row", *by, "deals", *_triple("zero_bid_rate")]
    columns += ["zero_bids", *_triple("zero_made_rate"), "success_strata"]
    return pd.concat(out, ignore_index=True)[columns]


def _differences(hands: pd.DataFrame) -> Iterator[tuple[dict, tuple[Estimate, pd.Series]]]:
    """Per :func:`units` row, measure and comparison: its key and standardised difference."""
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
    for field, strategy, field_row, part in units(hands):
        zeros = part[part["zero"]]
        for measure, frame, values, minimum in (
            (RATE, part, part["zero"], 1),
            (SUCCESS, zeros, zeros["made"], MIN_ZERO_BIDS),
        ):
            for name, *spec in specs:
                key = {"field": field, "strategy": strategy, "field_row": field_row}
                found = standardised_difference(frame, values, *spec, min_rows=minimum)
                yield {**key, "measure": measure, "comparison": name}, found


def comparisons(hands: pd.DataFrame) -> pd.DataFrame:
    """The rate comparisons of :func:`_differences`, a row each."""
    return pd.DataFrame([{**key, **found.row()} for key, (found, _) in _differences(hands)])


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
    pairs["alt_bid_label"] = np.where(pairs["alt_bid"] >= 3, "3+", pairs["alt_bid"].astype(str))
    return pairs


def gain_cells(pairs: pd.DataFrame, by: Sequence[str] = ("alt_bid_label",)) -> pd.DataFrame:
    """Score of bidding 0 minus the alternative per field, zero table and ``by``, each table
    size weighing the same, on the hands that could choose (:data:`MIN_ZERO_BIDS` per stratum)."""
    by = ["field", "zero_table", *by]
    # Every field and zero table holds the same probe cards, so no compared cell mixes hand
    # sizes differently from another.
    decisions = _enough(pairs[pairs["decision"]], [*by, "players"])
    return standardised_mean(decisions, decisions["diff"], by, "players")


RULE_CELLS = ["players", "hand_size", "alt_bid"]


def fit_rule(pairs: pd.DataFrame) -> pd.Series:
    """Per :data:`RULE_CELLS` cell of ``pairs``, whether bidding 0 scored more on average."""
    decisions = pairs[pairs["decision"]]
    return decisions.groupby(RULE_CELLS, observed=True)["diff"].mean() > 0


def apply_rule(pairs: pd.DataFrame, rule: pd.Series) -> pd.DataFrame:
    """``pairs`` with ``rule_zero`` (the alternative is 0, or the hand could choose and its
    cell favours 0: an unseen cell does not) and ``rule_gain`` (minus the alternative's)."""
    favoured = pairs.join(rule.rename("_favoured"), on=RULE_CELLS)["_favoured"]
    favoured = favoured.fillna(False).astype(bool).to_numpy()
    chosen = pairs["decision"].to_numpy() & favoured
    return pairs.assign(
        rule_zero=(pairs["alt_bid"].to_numpy() == 0) | chosen,
        rule_gain=np.where(chosen, pairs["diff"].to_numpy(), 0),
    )


def _mean(frame: pd.DataFrame, values: pd.Series, name: str | None = None) -> dict:
    """The mean of ``values``, clustered by game, as :data:`ESTIMATE` or ``_triple(name)``."""
    mean = grouped_mean(frame, values, [])[ESTIMATE].iloc[0]
    return dict(zip(_triple(name) if name else mean.index, mean, strict=True))


def rule_summary(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per field and zero table, the gain per deal over the alternative of the rule fitted on the
    even games, in sample and on the odd games, and of the odd games' rule on the even ones."""
    rows = []
    for (field, table), part in pairs.groupby(["field", "zero_table"], sort=False):
        half = half_of(part["game"])
        even, odd = part[half == 0], part[half == 1]
        inside, held, other = (
            apply_rule(judged, fit_rule(fitted))
            for fitted, judged in ((even, even), (even, odd), (odd, even))
        )
        gain, second = _mean(held, held["rule_gain"]), _mean(other, other["rule_gain"])
        rows.append(
            {"field": field, "zero_table": table}
            | _mean(inside, inside["rule_gain"], "in_sample_gain")
            | gain
            | _mean(held, held["rule_zero"], "zero_share")
            | {"alternative_zero_share": _mean(held, held["alt_bid"] == 0)["estimate"]}
            | dict(zip(_triple("other_fold_gain"), second.values(), strict=True))
            | {"replication": replication_mark(gain["estimate"], gain, second)}
        )
    return pd.DataFrame(rows)


def rate_tests(hands: pd.DataFrame) -> pd.DataFrame:
    """Per rate comparison, the paired test that the fields' ``field_row`` rows are equal (the
    same cards make them correlated)."""
    fitted: dict[tuple, list] = {}
    for key, (found, influence) in _differences(hands):
        if key["field_row"] and found.n:
            effect = key["measure"], key["comparison"]
            fitted.setdefault(effect, []).append((found.estimate, influence))
    return equal_estimates_rows(fitted, ["measure", "comparison"])


def gain_tests(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per zero table and alternative bid, the paired test that the fields' gains are equal."""
    keys = ["zero_table", "alt_bid_label"]
    decisions = _enough(pairs[pairs["decision"]], ["field", *keys, "players"])
    return equal_standardised_means_rows(decisions, decisions["diff"], keys, ["players"])


def _judged(
    fitted: pd.DataFrame, judged: pd.DataFrame, offered: bool = False
) -> Iterator[tuple[str, str, pd.DataFrame]]:
    """Per zero table and field, ``judged``'s pairs under the rule fitted on ``fitted``'s: the
    field's own or, with ``offered``, the one offered to players (:data:`MOST_FIELDS`)."""
    for table, chosen in fitted.groupby("zero_table", sort=False, observed=True):
        common = field_rules(chosen)[MOST_FIELDS] if offered else None
        mine = judged[judged["zero_table"] == table]
        for field, part in mine.groupby("field", sort=False, observed=True):
            own = common if offered else fit_rule(chosen[chosen["field"] == field])
            yield field, table, apply_rule(part, own)


def rule_tests(fitted_on: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """Per zero table, the paired test that the fields' own rules gain alike (:func:`_judged`)."""
    applied = [rows for *_, rows in _judged(fitted_on, judged)]
    applied = pd.concat(applied) if applied else judged.iloc[:0].assign(rule_gain=0.0)
    return equal_standardised_means_rows(applied, applied["rule_gain"], ["zero_table"])


def rule_gains(fitted: pd.DataFrame, judged: pd.DataFrame, offered: bool = False) -> pd.DataFrame:
    """Per field and zero table, the gain per deal over the alternative of :func:`_judged`."""
    rows = [
        {"field": field, "zero_table": table, "hands": len(applied)}
        | _mean(applied, applied["rule_gain"])
        for field, table, applied in _judged(fitted, judged, offered)
    ]
    return pd.DataFrame(rows, columns=["field", "zero_table", "hands", "estimate", "low", "high"])


def field_rules(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per field of ``pairs`` (one zero table) its :func:`fit_rule`, then :data:`MOST_FIELDS`
    (cells favoured in more than half of them) and :data:`EVERY_FIELD` (in all)."""
    fits = {f: fit_rule(rows) for f, rows in pairs.groupby("field", sort=False, observed=True)}
    votes = pd.concat(fits, axis=1).fillna(False).astype(bool) if fits else pd.DataFrame()
    return votes.assign(**{MOST_FIELDS: votes.mean(axis=1) > 0.5, EVERY_FIELD: votes.all(axis=1)})


#: The columns of :func:`field_rules` that speak for several fields.
MOST_FIELDS = "most fields"
EVERY_FIELD = "every field"

#: The comparison families' keys: what names one comparison within a field.
FAMILY_KEYS = {
    "rates": ["strategy", "measure", "comparison"],
    "counterfactual": ["zero_table", "alt_bid_label"],
    "fitted rule": ["zero_table"],
    "offered rule": ["zero_table"],
    "rates differ": ["measure", "comparison"],
    "gains differ": ["zero_table", "alt_bid_label"],
    "rule differs": ["zero_table"],
}


def family(hands: pd.DataFrame, pairs: pd.DataFrame, fitted: pd.DataFrame | None = None) -> Frames:
    """The study's one family (:data:`FAMILY_KEYS`), adjusted together: of the run (rules fitted
    on its even games, judged on its odd ones) or, given ``fitted`` (the run's pairs), of its
    confirmation, judged by the rules fitted on ``fitted``."""
    if fitted is None:
        half = half_of(pairs["game"])
        fitted, judged = pairs[half == 0], pairs[half == 1]
        rates = replicate(hands, comparisons, ["field", *FAMILY_KEYS["rates"]])
        gains = replicate(pairs, gain_cells, ["field", *FAMILY_KEYS["gains differ"]])
        rule = rule_summary(pairs)
    else:
        judged = pairs
        rates, gains, rule = comparisons(hands), gain_cells(pairs), rule_gains(fitted, pairs)
    parts = {
        "rates": rates,
        "counterfactual": gains,
        "fitted rule": rule,
        "offered rule": rule_gains(fitted, judged, offered=True),
        "rates differ": rate_tests(hands),
        "gains differ": gain_tests(pairs),
        "rule differs": rule_tests(fitted, judged),
    }
    return correct(parts)


def verdicts(table: pd.DataFrame, keys: list[str], between: pd.DataFrame) -> pd.DataFrame:
    """:func:`verdicts_with_counts` of ``table``'s field rows with ``between``'s tests."""
    rows = table[table["field_row"]] if "field_row" in table else table
    rows = rows.dropna(subset=["estimate"])
    return verdicts_with_counts(rows, between, keys) if len(rows) else pd.DataFrame()


#: The columns that order the tables and figures of the counterfactual: fields, zero tables.
ORDER = ("field", "zero_table")
#: The columns that say whether a row of the family holds up.
HOLDS_UP = ["p_adjusted", "survives", "confirmation", "replication"]
#: How the tables name a row of the probe's cells.
BID_ZERO = "bid 0, zero table {zero_table}, {alt_bid_label}"
#: The parts of the family with a verdict across fields: their test that the fields differ,
#: how the tables name a comparison, its unit in the findings and the digits of its estimates.
VERDICT_PARTS = {
    "rates": ("rates differ", "{measure}: {comparison}", "difference of standardised rates", 3),
    "counterfactual": ("gains differ", BID_ZERO, "points per deal vs bidding {alt_bid_label}", 2),
    "fitted rule": ("rule differs", "fitted rule, zero table {zero_table}", "held-out gain", 3),
}


def analyse(data: StudyData) -> Report:
    """The report of a ``zero_bids`` run, every number computed from ``data``."""
    hands, pairs = observed_rows(data), probe_pairs(data)
    fields = list(pd.unique(hands["field"]))
    by_unit, by_size = (standardised_rates(hands, by) for by in ([], ["hand_size"]))
    keys = {name: ["field", *columns] for name, columns in FAMILY_KEYS.items()}

    def family_of(run: StudyData) -> Frames:
        # The confirmation judges the rules fitted on the run's pairs.
        if run is data:
            return family(hands, pairs)
        return family(observed_rows(run), probe_pairs(run), pairs)

    parts = confirm_family(data, family_of, keys)
    confirmed = data.confirmation is not None
    verdict_of = {
        name: verdicts(parts[name], FAMILY_KEYS[test], parts[test])
        for name, (test, *_) in VERDICT_PARTS.items()
    }
    # One colour and panel order per field and zero table in every table and figure.
    orders = {"field": fields, "zero_table": ZERO_TABLES}
    parts["counterfactual"] = in_order(parts["counterfactual"], ORDER, orders)
    compared, gains, rule = parts["rates"], parts["counterfactual"], parts["fitted rule"]
    player_rule = rule_in_words(pairs)
    hidden = ("p", "correction", "established")
    tables = [
        Table(
            f"The zero rule as a player's rule (zero table {CANONICAL_ZERO_TABLE})",
            player_rule,
            "Fitted on all the games: bid 0 instead of expected_tricks's bid at the sizes listed "
            "(when legal, holding no boss trump); 'most fields' / 'every field': the cells where 0 "
            "scored more in most / all fields.",
        ),
        Table(
            "Comparisons: verdicts across fields",
            _gathered(verdict_of),
            f"Over the field rows (one strategy, or the mix's {STANDARDISED} row). survives_in / "
            "established_in / replicated_in: fields where it survives Holm / is also confirmed / "
            "replicates in both halves; size differs: the fields' paired test is established.",
        ),
        Table(
            "Rate comparisons per field and strategy (difference of standardised rates)",
            _with_p(compared, [*keys["rates"], "n", *ESTIMATE, *HOLDS_UP], 3),
            "First minus second group, over the strata both have.",
        ),
        Table(
            "Zero bids by field and strategy",
            display_table(by_unit.drop(columns="field_row")),
            "zero_made_rate: share of zero bids that took no trick, over the success_strata.",
        ),
        Table("Zero bids by hand size", display_table(by_size.drop(columns="field_row"))),
        Table(
            "Bidding 0 instead of the alternative bid: score difference per deal",
            _with_p(gains, [*keys["counterfactual"], "n", *ESTIMATE, *HOLDS_UP], 2),
            "Probe seat, hands whose alternative bid is not 0 and that may bid 0.",
        ),
        Table(
            "The fitted zero rule: in sample and held out, per field",
            _with_p(rule, [c for c in rule.columns if c not in hidden and c[:8] != "confirm_"], 3),
            "estimate: held-out gain per deal over the alternative; in_sample_gain: on its own "
            "games; other_fold_gain: fitted on the odd games, judged on the even; zero_share: "
            "held-out hands sent to 0.",
        ),
        Table(
            "The rule offered to players, judged where it was not chosen",
            _with_p(parts["offered rule"], ["field", "zero_table", "hands", *ESTIMATE], 3),
            "Chosen on the even games, judged on the odd ones (as the fitted rule).",
        ),
    ]
    field_rows = by_unit[by_unit["field_row"]]
    in_short = _in_short(field_rows, parts, verdict_of, player_rule, confirmed)
    figures = _figures(by_size, in_order(gain_cells(pairs, ["hand_size"]), ORDER, orders))
    correction = compared["correction"].iloc[0] if len(compared) else CORRECTION
    method = _method(data, fields, correction)
    findings = _findings(verdict_of, parts, field_rows, confirmed)
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, figures, in_short=in_short
    )


def _gathered(verdict_of: Frames) -> pd.DataFrame:
    """The verdicts of :data:`VERDICT_PARTS` in one display table, named by ``comparison``."""
    shown = []
    for name, table in verdict_of.items():
        test, label, _, digits = VERDICT_PARTS[name]
        if len(table):
            keys = FAMILY_KEYS[test]
            named = [label.format(**r) for r in table[keys].astype(str).to_dict("records")]
            shown.append(display_table(table.drop(columns=keys), digits).assign(comparison=named))
    out = pd.concat(shown, ignore_index=True) if shown else pd.DataFrame(columns=["comparison"])
    return out[["comparison", *out.columns[:-1]]]


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
        renamed = rows.rename(columns=dict(zip(_triple(rate), ESTIMATE, strict=True)))
        # A rate is shown wherever estimated, a gain where it has an interval.
        table = renamed.dropna(subset=["estimate"]) if rate else gain_by_size.dropna(subset=["low"])
        if len(table):
            options |= {"title": title, "xlabel": "hand size", "ylabel": ylabel}
            plot = interval_plot(table, "hand_size", series="field", **options)
            figures.append(Figure(name, f"{title} by hand size and field", plot))
    return figures


def rule_in_words(pairs: pd.DataFrame, table: str = CANONICAL_ZERO_TABLE) -> pd.DataFrame:
    """Each column of :func:`field_rules` under zero table ``table``: per table size and
    alternative bid (``instead of``), the hand sizes that bid 0 (``bid 0 with``)."""
    rows = [
        (field, int(players), int(alt), f"{_ranges(sorted(cells['hand_size'].astype(int)))} cards")
        for field, rule in field_rules(pairs[pairs["zero_table"] == table]).items()
        for (players, alt), cells in rule[rule].reset_index().groupby(["players", "alt_bid"])
    ]
    return pd.DataFrame(rows, columns=["field", "players", "instead of", "bid 0 with"])


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``"1-3, 5"``."""
    runs = np.split(np.asarray(values), np.flatnonzero(np.diff(values) != 1) + 1)
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


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
    judged = [v for v in verdict_of.values() if len(v)]
    checked = "and confirmed at the second seed" if confirmed else "(no confirmation run)"
    return [
        *text,
        f"Fields bid 0 in {fmt_span(fields['zero_bid_rate'], percent=True)} of deals and make "
        f"{fmt_span(fields['zero_made_rate'], percent=True)} of those bids (standardised over "
        "table and hand sizes).",
        f"Evidence: {sum(int(v['headline'].sum()) for v in judged)} of the "
        f"{sum(map(len, judged))} comparisons hold in every field, surviving one correction "
        f"over all comparisons {checked}; the tables give each field.",
    ]


def _with_p(table: pd.DataFrame, columns: list[str], digits: int) -> pd.DataFrame:
    """``table[columns]`` as display strings, with the adjusted p-value and confirmation."""
    shown = display_table(table[columns], digits=digits)
    shown["p_adjusted"] = table["p_adjusted"].map(fmt_p).to_numpy()
    shown["confirmation"] = [confirmation_cell(r, digits) for _, r in table.iterrows()]
    return shown


def _triple(base: str) -> list[str]:
    return [base, f"{base}_low", f"{base}_high"]


def _method(data: StudyData, fields: list[str], correction: str) -> list[str]:
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
        f"One family ({correction}): every rate comparison, counterfactual cell and rule gain "
        "(p-values read off the intervals) and, per comparison, a paired Wald test that the "
        "fields' rows are equal (clustered by game). A finding is claimed only where it "
        f"survives, '{DEPENDS_ON_FIELD}' only where its test does; a headline survives and is "
        "confirmed in every field. 'replicated': the even and the odd games' intervals both "
        "exclude 0 on the estimate's side.",
        confirmation_method(
            data.manifest.get("confirmation") or {},
            "every part is played again",
            "games per condition (each field its share); the zero rule fitted on all of "
            "the first run's games is judged on the confirmation's hands, which it never saw",
        ),
    ]


def _findings(
    verdict_of: Frames, parts: Frames, fields: pd.DataFrame, confirmed: bool
) -> list[str]:
    """What holds in every field (``fields``: their rows), where they differ, each field's rates."""
    headline, depends = [], []
    checked = "and is confirmed in each" if confirmed else "in each (no confirmation run)"
    for name, (test, label, unit, digits) in VERDICT_PARTS.items():
        for _, v in verdict_of[name].iterrows():
            words = v[FAMILY_KEYS[test]].astype(str)
            what = label.format(**words)
            if v["headline"] and v["fields"] == len(fields):
                span = fmt_span(v[["min_estimate", "max_estimate"]], digits)
                sign = "higher" if v["min_estimate"] > 0 else "lower"
                headline.append(
                    f"{what[0].upper()}{what[1:]} ({unit.format(**words)}): {sign} in all "
                    f"{len(fields)} fields ({span}), survives Holm {checked}."
                )
            elif v["verdict"] == DEPENDS_ON_FIELD:
                depends.append(what)
    others = sum(map(len, verdict_of.values())) - len(headline)
    differ = f"; the fields differ in {'; '.join(depends)}" if depends else ""
    levels = [
        f"In the {r['field']} field, players bid 0 in {fmt_ci(*r[_triple('zero_bid_rate')])} of "
        f"deals and make {fmt_ci(*r[_triple('zero_made_rate')])} of those zero bids (standardised)."
        for _, r in fields.iterrows()
    ]
    # The family's comparisons are its rows with a p-value (the correction's count).
    tested = pd.concat([part[["p", "survives"]] for part in parts.values()]).dropna()
    return [
        *headline,
        f"The other {others} comparisons do not hold in every field (see the verdicts){differ}.",
        *levels,
        f"{int((~tested['survives']).sum())} of the family's {len(tested)} comparisons do not "
        "survive Holm; none of them is claimed.",
    ]


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    play=play,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=DEFAULT_FIELDS,
    field_shares=FIELD_SHARES,
)
