"""Study ``zero_bids``: who bids zero, when it works, and when it should be bid.

Every part is played in each strategy field of :data:`ohhell_sim.studies.design.FIELDS`
with one seed, so that game *g* deals the same cards in every field and condition:

``observed``
    Each field at each table size, canonical rules: zero-bid rates and success by hand
    size, table size, bidding position, trump holding and strategy, and what each field
    bids 0 too seldom to tell (``simple`` on ten-card hands with three trumps).
``probe``
    A counterfactual measured, not guessed, under each zero table (``Rules.zero``).  Seat 0
    plays the ``zero`` strategy in two arms on the same cards, the other seats the field's:
    ``zero`` (bids 0 whenever 0 is legal and it holds no boss trump, a sure trick) and
    ``alternative`` (always bids ``expected_tricks``'s rounded count).  Both arms play
    alike, so on a hand where the two bids differ (:func:`probe_pairs`) the difference of
    seat 0's scores is the effect of bidding 0 instead, the other seats reacting as they
    would; only seat 0's rows of the probe are kept.

Pooled rows give each stratum (table size, hand size, the mixed table's strategies) the
same weight (:func:`standardised_rates`, :func:`standardised_difference`).  The zero rule is
fitted on the even games and judged on the odd ones (:func:`rule_evaluation`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from itertools import product

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    DEPENDS_ON_FIELD,
    HOLDS_EVERYWHERE,
    NO_CONFIRMATION,
    REPLICATED,
    adjust_parts,
    equal_estimates_test,
    half_of,
    replicate,
    replication_mark,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    STANDARDISED_METHOD,
    Estimate,
    grouped_mean,
    standardised_mean,
    standardised_mean_ci,
)
from ohhell_sim.estimates import standardised_influence
from ohhell_sim.rules import ZERO_TABLES, Rules
from ohhell_sim.studies.design import (
    FIELDS,
    POSITION_ORDER,
    STANDARDISED,
    bidding_position,
    check_fields,
    field_seats,
    fields_text,
    position_label,
)
from ohhell_sim.studies.family import ALPHA, CORRECTION, confirm_parts
from ohhell_sim.studies.holdings import trump_holdings
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData, play_conditions
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
DIFFERENCE_METHOD = "difference of stratum-standardised means over common strata, clustered by game"


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """The observed fields, then the probe arms under each zero table (see the module doc)."""

    def condition(field, n, part="observed", table=CANONICAL_ZERO_TABLE, arm="-") -> Condition:
        seats = field_seats(field, n)
        if part == "probe":
            # Seat 0 plays ``zero`` with the arm's threshold, the other seats the field's.
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
    """Play the study's conditions (:func:`conditions`) in ``fields`` with ``seed``: the
    observed part, then each field's probe, of which only seat 0's rows are kept, with
    ``others_bids`` (the other seats' bids in total: when 0 was the dealer's forbidden bid).
    """
    fields = check_fields(fields)
    design = conditions(games, players, fields)
    parts: dict[str, list[Condition]] = {}
    for c in design:
        name = "observed" if c.label["part"] == "observed" else f"probe {c.label['field']}"
        parts.setdefault(name, []).append(c)
    hands, games_played, offset = [], [], 0
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
    return StudyData(_restack(hands), _restack(games_played), manifest)


def _restack(frames: list[pd.DataFrame]) -> pd.DataFrame:
    stacked = pd.concat(frames, ignore_index=True)
    # Categories that differ between the parts stack as objects: categorical again.
    for column in stacked.columns:
        if stacked[column].dtype == object:
            stacked[column] = stacked[column].astype("category")
    return stacked


def _three_plus(counts: np.ndarray) -> np.ndarray:
    """Counts as ``"0"``, ``"1"``, ``"2"``, ``"3+"``."""
    return np.where(counts >= 3, "3+", counts.astype(str))


def observed_rows(data: StudyData) -> pd.DataFrame:
    """The observed part with ``position``, ``zero``, ``made``, ``trumps``, ``trump_holding``,
    and the hand-size band (``band``, ``band_rank``: the size's place in its band)."""
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
    hands["trump_holding"] = _three_plus(hands["trumps"].to_numpy(dtype=np.int64))
    bands = {size: band for band, sizes in HAND_BANDS.items() for size in sizes}
    ranks = {size: rank for sizes in HAND_BANDS.values() for rank, size in enumerate(sizes)}
    hands["band"] = hands["hand_size"].map(bands).fillna("")
    hands["band_rank"] = hands["hand_size"].map(ranks).fillna(-1).astype(np.int64)
    return hands


def _stratum_ids(frame: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    if not columns:
        return np.zeros(len(frame), dtype=np.int64)
    return frame.groupby(list(columns), observed=True, sort=False).ngroup().to_numpy()


def _enough(frame: pd.DataFrame, columns: Sequence[str], minimum: int) -> pd.DataFrame:
    """The rows of ``frame`` whose group of ``columns`` holds at least ``minimum`` rows."""
    if minimum <= 1:
        return frame
    size = frame.groupby(list(columns), observed=True, sort=False)["game"].transform("size")
    return frame[size.to_numpy() >= minimum]


def _standardised(
    frame: pd.DataFrame, values: pd.Series, by: list[str], strata: list[str], name: str
) -> pd.DataFrame:
    """The rate of ``values`` per ``by`` group standardised over ``strata``, as ``name`` (with
    ``_low``/``_high``, clipped to [0, 1]), and ``strata``: how many strata it pools."""
    frame = frame.assign(_stratum=_stratum_ids(frame, strata))
    table = standardised_mean(frame, values, by, "_stratum")
    strata_counts = frame.groupby(by, observed=True)["_stratum"].nunique()
    return pd.DataFrame(
        {
            **{c: table[c] for c in by},
            name: table["estimate"],
            f"{name}_low": table["low"].clip(0.0, 1.0),
            f"{name}_high": table["high"].clip(0.0, 1.0),
            "strata": strata_counts.to_numpy() if len(table) else [],
        }
    )


def units(hands: pd.DataFrame) -> Iterator[tuple[str, str, bool, pd.DataFrame]]:
    """``(field, strategy, field_row, rows)`` per unit a table reports: each field's strategies,
    and for a field of several strategies its :data:`STANDARDISED` row; ``field_row`` marks the
    one row of each field that speaks for the whole field."""
    for field, rows in hands.groupby("field", observed=True, sort=False):
        strategies = list(pd.unique(rows["strategy"]))
        if len(strategies) > 1:
            yield field, STANDARDISED, True, rows
        for strategy in strategies:
            yield field, strategy, len(strategies) == 1, rows[rows["strategy"] == strategy]


def standardised_rates(hands: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Zero-bid rate and zero-bid success per field, strategy and ``by`` group (may be none) of
    ``hands`` (:func:`observed_rows`).

    Every rate is pooled over the :data:`STRATA` not in ``by`` with equal weight per stratum,
    so a pooled row follows its strata whatever their sizes; success rates leave out strata
    with fewer than :data:`MIN_ZERO_BIDS` zero bids.  Columns: ``field``, ``strategy``,
    ``field_row``, the ``by`` columns, ``deals``, ``zero_bid_rate`` (with ``_low``/``_high``),
    ``zero_bids``, ``zero_made_rate`` (with ``_low``/``_high``) and ``success_strata`` (strata
    behind the success rate).
    """
    by = list(by)
    strata = [c for c in STRATA if c not in by]
    groups = by or ["_all"]  # one group of all the rows when ``by`` is empty
    out = []
    for field, strategy, field_row, rows in units(hands.assign(_all=0)):
        zeros = _enough(rows[rows["zero"]], [*groups, *strata], MIN_ZERO_BIDS)
        rate = _standardised(rows, rows["zero"], groups, strata, "zero_bid_rate")
        success = _standardised(zeros, zeros["made"], groups, strata, "zero_made_rate")
        table = (
            rows.groupby(groups, observed=True)["zero"]
            .agg(deals="size", zero_bids="sum")
            .reset_index()
            .merge(rate.drop(columns="strata"), on=groups, how="left")
            .merge(success.rename(columns={"strata": "success_strata"}), on=groups, how="left")
        )
        success_strata = table["success_strata"].fillna(0).astype(int)
        out.append(
            table.assign(
                field=field, strategy=strategy, field_row=field_row, success_strata=success_strata
            )
        )
    columns = ["field", "strategy", "field_row", *by, "deals", *_triple("zero_bid_rate")]
    columns += ["zero_bids", *_triple("zero_made_rate"), "success_strata"]
    return pd.concat(out, ignore_index=True)[columns]


def standardised_difference(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    column: str,
    first: object,
    second: object,
    strata: Sequence[str],
    min_rows: int = 1,
    cluster: str = "game",
) -> Estimate:
    """Standardised mean of ``values`` where ``column == first`` minus where it is ``second``.

    Both means give equal weight to the strata of ``strata`` found on both sides with at
    least ``min_rows`` rows each; the interval is clustered by ``cluster``, the two sides'
    rows of one game being correlated.  NaN when no stratum is common to both sides.
    """
    inputs = difference_inputs(frame, values, column, first, second, strata, min_rows, cluster)
    if inputs is None:
        return Estimate(np.nan, np.nan, np.nan, 0, DIFFERENCE_METHOD)
    est = standardised_mean_ci(*inputs)
    return Estimate(2 * est.estimate, 2 * est.low, 2 * est.high, len(inputs[0]), DIFFERENCE_METHOD)


def difference_inputs(
    frame: pd.DataFrame,
    values: pd.Series | np.ndarray,
    column: str,
    first: object,
    second: object,
    strata: Sequence[str],
    min_rows: int = 1,
    cluster: str = "game",
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The signed values, strata and clusters whose standardised mean is half of
    :func:`standardised_difference`; None when no stratum is common to both sides."""
    side = frame[column].to_numpy()
    mask = (side == first) | (side == second)
    part = frame[mask]
    x = np.asarray(values, dtype=np.float64)[mask]
    is_first = (part[column].to_numpy() == first).astype(np.int64)
    stratum = _stratum_ids(part, strata)
    counts = np.zeros((int(stratum.max()) + 1 if len(stratum) else 0, 2), dtype=np.int64)
    np.add.at(counts, (stratum, is_first), 1)
    common = (counts >= max(min_rows, 1)).all(axis=1)
    keep = common[stratum] if len(stratum) else np.zeros(0, dtype=bool)
    if not keep.any():
        return None
    signed = np.where(is_first[keep] == 1, x[keep], -x[keep])
    return signed, 2 * stratum[keep] + is_first[keep], part[cluster].to_numpy()[keep]


def comparison_specs(hands: pd.DataFrame) -> list[tuple[str, str, object, object, list[str]]]:
    """The comparisons of every unit: ``(name, column, first, second, strata)``."""
    sizes = sorted(pd.unique(hands["players"]))
    specs = [
        ("dealer vs first bidder", "position", "dealer", "1st (leads)", list(STRATA)),
        (
            "8-10 vs 1-3 cards",
            "band",
            "8-10 cards",
            "1-3 cards",
            ["players", "band_rank", "strategy"],
        ),
        ("1 trump vs none", "trump_holding", "1", "0", list(STRATA)),
    ]
    if len(sizes) > 1:
        name = f"{sizes[-1]} vs {sizes[0]} players"
        specs.insert(0, (name, "players", sizes[-1], sizes[0], ["hand_size", "strategy"]))
    return specs


def _differences(hands: pd.DataFrame, field_rows: bool = False) -> Iterator[tuple[dict, tuple]]:
    """Per unit (only the field rows with ``field_rows``), measure and comparison: its key
    and the arguments of :func:`standardised_difference`; zero-bid success compares the
    strata with at least :data:`MIN_ZERO_BIDS` zero bids on each side."""
    specs = comparison_specs(hands)
    for field, strategy, field_row, part in units(hands):
        if field_rows and not field_row:
            continue
        zeros = part[part["zero"]]
        for measure, frame, values, minimum in (
            (RATE, part, part["zero"], 1),
            (SUCCESS, zeros, zeros["made"], MIN_ZERO_BIDS),
        ):
            for name, column, first, second, strata in specs:
                key = {"field": field, "strategy": strategy, "field_row": field_row}
                yield (
                    {**key, "measure": measure, "comparison": name},
                    (frame, values, column, first, second, strata, minimum),
                )


def comparisons(hands: pd.DataFrame) -> pd.DataFrame:
    """The study's rate comparisons per unit (:func:`units`), standardised: ``field``,
    ``strategy``, ``field_row``, ``measure``, ``comparison``, then the estimate's columns."""
    return pd.DataFrame(
        [{**key, **standardised_difference(*args).row()} for key, args in _differences(hands)]
    )


def probe_pairs(data: StudyData) -> pd.DataFrame:
    """Seat 0's deals in both probe arms side by side, one row per (field, players, table,
    game, deal): ``hand_size``, ``alt_bid``, ``alt_score``, ``zero_arm_bid``, ``zero_score``,
    ``diff`` (zero minus alternative), ``decision`` (the alternative bid is not 0 and the
    zero arm bid 0) and ``alt_bid_label``."""
    hands = data.hands
    probe = hands[(hands["part"] == "probe") & (hands["seat"] == 0)]
    keys = ["field", "players", "zero_table", "game", "deal"]
    alt, zero = (
        probe[probe["arm"] == arm].astype({"field": str, "zero_table": str}).set_index(keys)
        for arm in ("alternative", "zero")
    )
    pairs = (
        alt[["hand_size"]]
        .assign(
            alt_bid=alt["bid"],
            alt_score=alt["score"],
            zero_arm_bid=zero["bid"],
            zero_score=zero["score"],
        )
        .reset_index()
    )
    pairs["diff"] = pairs["zero_score"] - pairs["alt_score"]
    pairs["decision"] = (pairs["alt_bid"] > 0) & (pairs["zero_arm_bid"] == 0)
    pairs["alt_bid_label"] = _three_plus(pairs["alt_bid"].to_numpy())
    return pairs


def _decisions(pairs: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The hands of ``pairs`` that could choose, in (table size, ``by``) strata with at least
    :data:`MIN_ZERO_BIDS` of them."""
    return _enough(pairs[pairs["decision"]], [*by, "players"], MIN_ZERO_BIDS)


def gain_cells(pairs: pd.DataFrame, by: Sequence[str] = ("alt_bid_label",)) -> pd.DataFrame:
    """Score of bidding 0 minus the alternative per field, zero table and ``by``, on the hands
    that could choose (:func:`_decisions`): equal weight per table size, and within a table
    size the hands as dealt."""
    by = ["field", "zero_table", *by]
    # Every field and zero table holds the same probe hands (the same cards), so their
    # cells weigh the hand sizes alike, by how often such hands are dealt: no compared
    # row mixes hand sizes differently from another.
    decisions = _decisions(pairs, by)
    decisions = decisions.assign(_stratum=_stratum_ids(decisions, ["players"]))
    return standardised_mean(decisions, decisions["diff"], by, "_stratum")


RULE_CELLS = ["players", "hand_size", "alt_bid"]


def fit_rule(pairs: pd.DataFrame) -> pd.Series:
    """The zero rule fitted on ``pairs`` (one field and zero table): per (table size, hand
    size, alternative bid) cell, whether bidding 0 scored more on average there."""
    decisions = pairs[pairs["decision"]]
    return decisions.groupby(RULE_CELLS, observed=True)["diff"].mean() > 0


def apply_rule(pairs: pd.DataFrame, rule: pd.Series) -> pd.DataFrame:
    """``pairs`` with ``rule_zero`` (the rule bids 0: the alternative is 0, or the hand could
    choose and its cell favours 0; a cell the fit never saw keeps the alternative) and
    ``rule_gain`` (the rule's score minus the alternative's on that deal)."""
    favoured = pairs.join(rule.rename("_favoured"), on=RULE_CELLS)["_favoured"]
    favoured = favoured.fillna(False).astype(bool).to_numpy()
    chosen = pairs["decision"].to_numpy() & favoured
    return pairs.assign(
        rule_zero=(pairs["alt_bid"].to_numpy() == 0) | chosen,
        rule_gain=np.where(chosen, pairs["diff"].to_numpy(), 0),
    )


def _mean(frame: pd.DataFrame, values: pd.Series, name: str | None = None) -> dict:
    """The mean of ``values`` over all of ``frame``, clustered by game, as ``estimate``,
    ``low`` and ``high`` (``name``, ``name_low`` and ``name_high`` when named)."""
    mean = grouped_mean(frame, values, [])[["estimate", "low", "high"]].iloc[0]
    return dict(zip(_triple(name) if name else mean.index, mean, strict=True))


def rule_evaluation(pairs: pd.DataFrame) -> pd.DataFrame:
    """The zero rule per field and zero table, fitted on one half of the games, judged on both.

    One row per (field, zero_table, fit, evaluated), halves ``"even"`` or ``"odd"``:
    ``gain`` (with ``_low``/``_high``) is the rule's score per deal minus always bidding the
    alternative, ``zero_share`` the share of hands it sends to 0; a fit judged on its own
    half is the in-sample figure, on the other half the held-out one.
    """
    rows = []
    names = ("even", "odd")
    for (field, table), part in pairs.groupby(["field", "zero_table"], sort=False):
        half = half_of(part["game"])
        rules = {h: fit_rule(part[half == h]) for h in (0, 1)}
        for fit, evaluated in product((0, 1), repeat=2):
            judged = apply_rule(part[half == evaluated], rules[fit])
            rows.append(
                {
                    "field": field,
                    "zero_table": table,
                    "fit": names[fit],
                    "evaluated": names[evaluated],
                    "held_out": fit != evaluated,
                    "hands": len(judged),
                    **_mean(judged, judged["rule_gain"], "gain"),
                    **_mean(judged, judged["rule_zero"], "zero_share"),
                    "alternative_zero_share": _mean(judged, judged["alt_bid"] == 0)["estimate"],
                }
            )
    return pd.DataFrame(rows)


def rule_summary(evaluation: pd.DataFrame) -> pd.DataFrame:
    """One row per field and zero table: in-sample and held-out gain of the rule fitted on the
    even games, and the replication mark of the held-out gain (the fit on the odd games judged
    on the even ones is the second half)."""

    def gain(row: pd.Series, names: Sequence[str] = ("estimate", "low", "high")) -> dict:
        return dict(zip(names, row[_triple("gain")], strict=True))

    rows = []
    for (field, table), part in evaluation.groupby(["field", "zero_table"], sort=False):
        index = part.set_index(["fit", "evaluated"])
        inside, held, other = (
            index.loc[k] for k in [("even", "even"), ("even", "odd"), ("odd", "even")]
        )
        rows.append(
            {
                "field": field,
                "zero_table": table,
                **gain(inside, _triple("in_sample_gain")),
                **gain(held),
                **held[[*_triple("zero_share"), "alternative_zero_share"]],
                **gain(other, _triple("other_fold_gain")),
                "replication": replication_mark(held["gain"], gain(held), gain(other)),
            }
        )
    return pd.DataFrame(rows)


def _influence(values: np.ndarray, strata: np.ndarray, games: np.ndarray, scale: float = 1.0):
    mean, labels, z = standardised_influence(values, strata, games)
    return scale * mean, pd.Series(scale * z, index=labels)


def _test_rows(fitted: dict[tuple, list], names: Sequence[str]) -> pd.DataFrame:
    """One test row per effect of ``fitted`` (effect -> the field rows' estimates and
    influences): :func:`~ohhell_sim.analysis.findings.equal_estimates_test`."""
    rows = []
    for key, pairs in fitted.items():
        test = equal_estimates_test([e for e, _ in pairs], [z for _, z in pairs])
        rows.append({**dict(zip(names, key, strict=True)), "field": BETWEEN_FIELDS, **test})
    out = pd.DataFrame(rows, columns=[*names, "field", "fields", "q", "df", "p", "spread"])
    out = out[out["fields"] > 1]
    return out.assign(estimate=np.nan, low=np.nan, high=np.nan).reset_index(drop=True)


def rate_tests(hands: pd.DataFrame) -> pd.DataFrame:
    """Per rate comparison, the paired test that the fields' rows (each field's one row that
    speaks for it) are equal: the fields play the same cards, so their rows are correlated."""
    fitted: dict[tuple, list] = {}
    for key, args in _differences(hands, field_rows=True):
        inputs = difference_inputs(*args)
        if inputs is not None:
            effect = key["measure"], key["comparison"]
            fitted.setdefault(effect, []).append(_influence(*inputs, scale=2.0))
    return _test_rows(fitted, ["measure", "comparison"])


def gain_tests(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per zero table and alternative bid, the paired test that the fields' gains of bidding
    0 (:func:`gain_cells`) are equal."""
    by = ["field", "zero_table", "alt_bid_label"]
    fitted: dict[tuple, list] = {}
    for (_, table, alt), part in _decisions(pairs, by).groupby(by, sort=False, observed=True):
        values = part["diff"].to_numpy(dtype=float)
        inputs = values, _stratum_ids(part, ["players"]), part["game"].to_numpy()
        fitted.setdefault((table, alt), []).append(_influence(*inputs))
    return _test_rows(fitted, ["zero_table", "alt_bid_label"])


def _own_rules(
    fitted: pd.DataFrame, judged: pd.DataFrame
) -> Iterator[tuple[str, str, pd.DataFrame]]:
    """Per field and zero table of ``judged``: its pairs judged by the rule of that field and
    table fitted on all of ``fitted``'s pairs (:func:`apply_rule`)."""
    for (field, table), part in judged.groupby(["field", "zero_table"], sort=False):
        mine = fitted[(fitted["field"] == field) & (fitted["zero_table"] == table)]
        yield field, table, apply_rule(part, fit_rule(mine))


def rule_tests(fitted_on: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """Per zero table, the paired test that each field's own rule, fitted on ``fitted_on``'s
    pairs, gains the same on ``judged``'s (the family's held-out rows)."""
    found: dict[tuple, list] = {}
    for _, table, applied in _own_rules(fitted_on, judged):
        inputs = applied["rule_gain"].to_numpy(dtype=float), np.zeros(len(applied))
        found.setdefault((table,), []).append(_influence(*inputs, applied["game"].to_numpy()))
    return _test_rows(found, ["zero_table"])


def field_tests(
    hands: pd.DataFrame, pairs: pd.DataFrame, fitted_on: pd.DataFrame, judged: pd.DataFrame
) -> dict[str, pd.DataFrame]:
    """The family's tests between the fields, by part: the rate comparisons of ``hands``, the
    gains of bidding 0 in ``pairs``, and the rules fitted on ``fitted_on`` judged on
    ``judged`` (the run's even and odd games; the run and its confirmation)."""
    return {
        "rates differ": rate_tests(hands),
        "gains differ": gain_tests(pairs),
        "rule differs": rule_tests(fitted_on, judged),
    }


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


def confirmed_parts(
    adjusted: dict[str, pd.DataFrame], pairs: pd.DataFrame, confirmation: StudyData | None
) -> dict[str, pd.DataFrame]:
    """The family's parts, their surviving rows checked in the confirmation run: computed
    again on its cards, the rules (each field's and the one offered) chosen on all the games
    of the run and judged on its hands, which they never saw."""
    second = None
    if confirmation is not None:
        other = probe_pairs(confirmation)
        hands = observed_rows(confirmation)
        second = adjust_parts(
            {
                "rates": comparisons(hands),
                "counterfactual": gain_cells(other),
                "fitted rule": rule_on(pairs, other),
                "offered rule": offered_rule_gains(pairs, other),
                **field_tests(hands, other, pairs, other),
            },
            method=CORRECTION,
            alpha=ALPHA,
        )
    keys = {name: ["field", *FAMILY_KEYS[name]] for name in adjusted}
    return confirm_parts(adjusted, second, keys)


def rule_on(fitted: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """Per field and zero table: the rule fitted on all of ``fitted``'s pairs, its gain per
    deal over always bidding the alternative on ``judged``'s pairs (clustered by game)."""
    return pd.DataFrame(
        [
            {"field": field, "zero_table": table, **_mean(applied, applied["rule_gain"])}
            for field, table, applied in _own_rules(fitted, judged)
        ]
    )


def field_rules(pairs: pd.DataFrame) -> pd.DataFrame:
    """The zero rule of each field of ``pairs`` (one zero table), a column per field
    (:func:`fit_rule`; a cell a field's fit never saw does not favour 0 there)."""
    fits = {
        field: fit_rule(rows) for field, rows in pairs.groupby("field", sort=False, observed=True)
    }
    if not fits:
        return pd.DataFrame(dtype=bool)
    return pd.concat(fits, axis=1).fillna(False).astype(bool)


def offered_rule(pairs: pd.DataFrame) -> pd.Series:
    """The zero rule offered to players, for one zero table: the cells that the rules of
    more than half of the fields favour (:func:`field_rules`)."""
    votes = field_rules(pairs)
    return votes.mean(axis=1) > 0.5 if votes.shape[1] else pd.Series(dtype=bool)


def offered_rule_gains(fitted: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """Per field and zero table: the gain per deal over always bidding the alternative of
    the rule offered to players (:func:`offered_rule`, one for every field, chosen on all the
    fields of ``fitted``) on ``judged``'s pairs of that field, games it was not chosen on."""
    rows = []
    for table, chosen in fitted.groupby("zero_table", sort=False, observed=True):
        rule = offered_rule(chosen)
        mine = judged[judged["zero_table"] == table]
        for field, part in mine.groupby("field", sort=False, observed=True):
            applied = apply_rule(part, rule)
            rows.append(
                {
                    "field": field,
                    "zero_table": table,
                    "hands": len(applied),
                    **_mean(applied, applied["rule_gain"]),
                }
            )
    return pd.DataFrame(rows, columns=["field", "zero_table", "hands", "estimate", "low", "high"])


def held_out_offered_gains(pairs: pd.DataFrame) -> pd.DataFrame:
    """:func:`offered_rule_gains` of the rule chosen on the run's even games, judged on its
    odd games (the family's row; the confirmation judges the rule chosen on every game)."""
    half = half_of(pairs["game"])
    return offered_rule_gains(pairs[half == 0], pairs[half == 1])


def verdicts(table: pd.DataFrame, keys: list[str], between: pd.DataFrame) -> pd.DataFrame:
    """:func:`~ohhell_sim.analysis.findings.verdicts_across_fields` of the field rows of
    ``table`` with ``between``, the family's tests that the fields differ; with in how many
    fields the effect survives Holm, is confirmed at the second seed (``established_in``)
    and replicates on the halves, and whether it is established in every field with one
    sign (``headline``)."""
    rows = table[table["field_row"]] if "field_row" in table else table
    rows = rows.dropna(subset=["estimate"])
    if rows.empty:
        return pd.DataFrame()
    grouped = rows.groupby(keys, sort=False, observed=True)
    counts = pd.DataFrame(
        {
            "survives_in": grouped["survives"].sum(),
            "established_in": grouped["established"].sum(),
            "replicated_in": grouped["replication"].agg(lambda r: int((r == REPLICATED).sum())),
        }
    )
    out = verdicts_across_fields(rows, between, keys).drop(columns="established in")
    out = out.merge(counts.reset_index(), on=keys)
    out["headline"] = (out["verdict"] == HOLDS_EVERYWHERE) & (
        out["established_in"] == out["fields"]
    )
    return out


def _tests_display(parts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The tests between the fields, one row each, with what they compare."""
    what = {
        "rates differ": "{measure}: {comparison}",
        "gains differ": "bid 0, zero table {zero_table}, {alt_bid_label}",
        "rule differs": "fitted rule, zero table {zero_table}",
    }
    shown = [
        parts[name].assign(
            comparison=[text.format(**r) for r in parts[name].astype(str).to_dict("records")]
        )
        for name, text in what.items()
        if len(parts[name])
    ]
    if not shown:
        return pd.DataFrame()
    tests = pd.concat(shown, ignore_index=True)
    tests = tests.assign(p=tests["p"].map(fmt_p), p_adjusted=tests["p_adjusted"].map(fmt_p))
    return display_table(
        tests[["comparison", "fields", "spread", "q", "df", "p", "p_adjusted", "established"]]
    )


def coverage(hands: pd.DataFrame, column: str) -> pd.DataFrame:
    """Zero bids per unit and value of ``column``; a value marked ``*`` has fewer than
    :data:`MIN_ZERO_BIDS` at some table size, so its success rate there is left out."""
    rows = []
    for field, strategy, _, part in units(hands):
        if strategy == STANDARDISED:
            continue
        zeros = part[part["zero"]]
        counts = zeros.groupby([column, "players"], observed=True).size()
        row = {"field": field, "strategy": strategy}
        for value in sorted(pd.unique(hands[column])):
            per_size = [int(counts.get((value, n), 0)) for n in sorted(pd.unique(part["players"]))]
            mark = "*" if min(per_size) < MIN_ZERO_BIDS else ""
            row[str(value)] = f"{sum(per_size)}{mark}"
        rows.append(row)
    return pd.DataFrame(rows)


def _in_order(table: pd.DataFrame, fields: list[str]) -> pd.DataFrame:
    """``table`` in the order of the fields and of :data:`ZERO_TABLES` (one colour and one
    panel order per field and table in every figure)."""
    rank = {f: i for i, f in enumerate(fields)} | {t: i for i, t in enumerate(ZERO_TABLES)}
    return table.sort_values(
        ["field", "zero_table"], key=lambda c: c.map(rank), kind="stable"
    ).reset_index(drop=True)


def _rename_rate(table: pd.DataFrame, base: str) -> pd.DataFrame:
    return table.rename(columns={base: "estimate", f"{base}_low": "low", f"{base}_high": "high"})


#: The tables of zero bids by one column, with what the column is.
RATES_BY = {
    "players": "table size",
    "hand_size": "hand size",
    "position": "bidding position",
    "trump_holding": "trump holding",
}
#: The columns that say whether a row of the family holds up.
HOLDS_UP = ["p_adjusted", "survives", "confirmation", "replication"]


def analyse(data: StudyData) -> Report:
    """The report of a ``zero_bids`` run, every number computed from ``data``."""
    hands = observed_rows(data)
    pairs = probe_pairs(data)
    fields = list(pd.unique(hands["field"]))
    by_unit = standardised_rates(hands, [])
    by = {column: standardised_rates(hands, [column]) for column in RATES_BY}
    by["position"] = by["position"].sort_values(
        ["field", "strategy", "position"],
        key=lambda c: c.map(POSITION_ORDER.index) if c.name == "position" else c,
        kind="stable",
    )
    rate_keys = ["field", "strategy", "measure", "comparison"]
    gain_keys = ["field", "zero_table", "alt_bid_label"]
    half = half_of(pairs["game"])
    adjusted = adjust_parts(
        {
            "rates": replicate(hands, comparisons, rate_keys),
            "counterfactual": replicate(pairs, gain_cells, gain_keys),
            "fitted rule": rule_summary(rule_evaluation(pairs)),
            "offered rule": held_out_offered_gains(pairs),
            **field_tests(hands, pairs, pairs[half == 0], pairs[half == 1]),
        },
        method=CORRECTION,
        alpha=ALPHA,
    )
    parts = confirmed_parts(adjusted, pairs, data.confirmation)
    compared, rule, offered = parts["rates"], parts["fitted rule"], parts["offered rule"]
    rule_verdicts = verdicts(rule, ["zero_table"], parts["rule differs"])
    gain_verdicts = verdicts(parts["counterfactual"], gain_keys[1:], parts["gains differ"])
    rate_verdicts = verdicts(compared, ["measure", "comparison"], parts["rates differ"])
    gains = _in_order(parts["counterfactual"], fields)
    player_rule = rule_in_words(pairs)
    correction = compared["correction"].iloc[0] if len(compared) else CORRECTION
    tables = [
        Table(
            f"The zero rule as a player's rule (zero table {CANONICAL_ZERO_TABLE})",
            player_rule,
            "Fitted on all the games of the run: bid 0 instead of the count your hand is worth "
            "(what expected_tricks would bid) in the table sizes and hand sizes listed, when you "
            "hold no boss trump (a sure trick) and 0 is legal. 'most fields': the cells where "
            "bidding 0 scored more in more than half of the fields; 'every field': in all of them.",
        ),
        Table(
            "Rate comparisons: verdicts across fields",
            display_table(rate_verdicts),
            "One row per comparison, over the field rows (a one-strategy field, or the mixed "
            f"field's {STANDARDISED} row).  survives_in / replicated_in: fields in which the "
            f"comparison survives Holm ({correction}) / replicates in both halves of the games; "
            f"'{DEPENDS_ON_FIELD}': the family's paired test that the field rows are equal "
            "(below) is established.",
        ),
        Table(
            "Do the fields differ? A paired test per comparison",
            _tests_display(parts),
            "A Wald test that every field's row of a comparison is the same, its covariance "
            "clustered by game, since every field plays the same cards; part of the family "
            "(p_adjusted: Holm) and confirmed on fresh cards.",
        ),
        Table(
            "Rate comparisons per field and strategy (difference of standardised rates)",
            _with_p(compared, [*rate_keys, "n", "estimate", "low", "high", *HOLDS_UP], 3),
            "first minus second group; equal weight per table size, hand size and strategy over "
            f"the strata both groups have (success: strata with at least {MIN_ZERO_BIDS} zero bids "
            "on each side); intervals clustered by game; p_adjusted: Holm over the study's family; "
            "replication: the even and the odd games' intervals both exclude 0 on the same side.",
        ),
        Table(
            "Zero bids by field and strategy",
            display_table(by_unit.drop(columns="field_row")),
            "deals: deals played; zero_bids: deals bid 0; zero_made_rate: share of zero bids "
            "that took no trick.  Rates standardised: equal weight per table size, hand size "
            f"and (the {STANDARDISED} row) strategy; success_strata: the strata with at least "
            f"{MIN_ZERO_BIDS} zero bids behind the success rate.",
        ),
        *(
            Table(f"Zero bids by {words}", display_table(by[column].drop(columns="field_row")))
            for column, words in RATES_BY.items()
        ),
        Table(
            "What each field can tell: zero bids by hand size",
            coverage(hands, "hand_size"),
            f"*: fewer than {MIN_ZERO_BIDS} zero bids at some table size; the field's "
            "success rate there is not estimated (its strategy seldom bids 0 on such hands).",
        ),
        Table(
            "What each field can tell: zero bids by trump holding", coverage(hands, "trump_holding")
        ),
        Table(
            "Bidding 0 instead of the alternative bid: verdicts across fields",
            display_table(gain_verdicts, digits=2),
        ),
        Table(
            "Bidding 0 instead of the alternative bid: score difference per deal",
            _with_p(gains, [*gain_keys, "n", "estimate", "low", "high", *HOLDS_UP], 2),
            "Probe seat, hands whose alternative bid is not 0 and that may bid 0; paired on "
            "the same cards; equal weight per table size (strata with at least "
            f"{MIN_ZERO_BIDS} such hands), within one the hands as dealt, which are the same "
            "hands in every field and zero table; intervals clustered by game.",
        ),
        Table(
            "The fitted zero rule: in sample and held out, per field",
            _with_p(
                rule,
                [
                    c
                    for c in rule.columns
                    if c not in ("p", "correction", "established") and not c.startswith("confirm_")
                ],
                3,
            ),
            "Fitted on the even games: bid 0 in each (table size, hand size, alternative bid) "
            "cell where bidding 0 scored more there.  estimate: its score per deal minus "
            "always bidding the alternative, on the odd games (held out); in_sample_gain: on "
            "the even games it was fitted to; other_fold_gain: fitted on the odd games, "
            "judged on the even; zero_share: share of held-out hands it sends to 0.",
        ),
        Table("The fitted zero rule: verdicts across fields", display_table(rule_verdicts)),
        Table(
            "The rule offered to players (the cells most fields favour), judged where it was "
            "not chosen",
            _with_p(offered, ["field", "zero_table", "hands", "estimate", "low", "high"], 3),
            "One rule for every field, as a player would take it: bid 0 in the (table size, "
            "hand size, alternative bid) cells whose rule is favoured in more than half of "
            "the fields. estimate: its score per deal minus always bidding the alternative "
            "in each field, the rule chosen on the even games and judged on the odd ones; "
            "confirmation: chosen on every game of the run, judged on the confirmation run's "
            "fresh cards. Part of the family.",
        ),
    ]
    findings = _findings(
        fields, by_unit, rate_verdicts, compared, gain_verdicts, gains, rule, rule_verdicts, hands
    )
    in_short = _in_short(
        by_unit, gains, rate_verdicts, gain_verdicts, player_rule, compared, offered
    )
    figures = _figures(by["hand_size"], _in_order(gain_cells(pairs, ["hand_size"]), fields), rule)
    method = _method(data, fields, correction)
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, figures, in_short=in_short
    )


def _figures(by_size: pd.DataFrame, gain_by_size: pd.DataFrame, rule: pd.DataFrame) -> list[Figure]:
    """The zero-bid rate and success and the gain of bidding 0 by hand size, and the fitted
    rule's gain; none of an empty table (a tiny run may leave every stratum too thin)."""

    def plot(name: str, caption: str, table: pd.DataFrame, **options) -> list[Figure]:
        return [] if table.empty else [Figure(name, caption, interval_plot(table, **options))]

    field_rows = by_size[by_size["field_row"]]
    by_hand = {"x": "hand_size", "series": "field", "xlabel": "hand size"}
    gain = {"panels": "zero_table", "ylabel": "points per deal", "zero_line": True}
    judged = pd.concat(
        [
            rule[["field", "zero_table", "estimate", "low", "high"]].assign(judged="held out"),
            _rename_rate(
                rule[["field", "zero_table", *_triple("in_sample_gain")]], "in_sample_gain"
            ).assign(judged="in sample"),
        ],
        ignore_index=True,
    )
    return [
        *plot(
            "zero_rate_by_hand_size.png",
            "Zero-bid rate by hand size and field",
            _rename_rate(field_rows, "zero_bid_rate"),
            title="Zero-bid rate (standardised over table size)",
            ylabel="share of deals",
            **by_hand,
        ),
        *plot(
            "zero_success_by_hand_size.png",
            "Zero-bid success by hand size and field",
            _rename_rate(field_rows, "zero_made_rate").dropna(subset=["estimate"]),
            title="Zero bids made (standardised over table size)",
            ylabel="share of zero bids",
            **by_hand,
        ),
        *plot(
            "zero_gain_by_hand_size.png",
            "Score of bidding 0 minus the alternative bid, by hand size, field and zero table",
            gain_by_size.dropna(subset=["low"]),
            title="Bid 0 instead (probe, same cards)",
            **by_hand,
            **gain,
        ),
        *plot(
            "rule_gain.png",
            "The fitted zero rule's gain per deal, in sample and held out",
            judged.dropna(subset=["low"]),
            x="field",
            series="judged",
            title="Fitted rule minus the alternative bid",
            xlabel="field",
            **gain,
        ),
    ]


#: The rows of :func:`rule_in_words` that speak for several fields.
MOST_FIELDS = "most fields"
EVERY_FIELD = "every field"


def rule_in_words(pairs: pd.DataFrame, table: str = CANONICAL_ZERO_TABLE) -> pd.DataFrame:
    """The zero rule of each field, and of :data:`MOST_FIELDS` (the cells favoured in more
    than half of them) and :data:`EVERY_FIELD`, under zero table ``table``: per table size
    and alternative bid (``instead of``), the hand sizes that bid 0 (``bid 0 with``)."""
    votes = field_rules(pairs[pairs["zero_table"] == table])
    fitted = dict(votes.items())
    if fitted:
        fitted[MOST_FIELDS] = votes.mean(axis=1) > 0.5
        fitted[EVERY_FIELD] = votes.all(axis=1)
    rows = [
        {
            "field": field,
            "players": int(players),
            "instead of": int(alt),
            "bid 0 with": f"{_ranges(sorted(cells['hand_size'].astype(int)))} cards",
        }
        for field, rule in fitted.items()
        for (players, alt), cells in rule[rule].reset_index().groupby(["players", "alt_bid"])
    ]
    return pd.DataFrame(rows, columns=["field", "players", "instead of", "bid 0 with"])


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``"1-3, 5"``."""
    parts, start = [], None
    for i, value in enumerate(values):
        if start is None:
            start = value
        if i + 1 == len(values) or values[i + 1] != value + 1:
            parts.append(str(start) if start == value else f"{start}-{value}")
            start = None
    return ", ".join(parts)


def _in_short(by_unit, gains, rate_verdicts, gain_verdicts, player_rule, compared, offered):
    """The answer first: which hands should bid 0 and what that gains, then how zero bids
    fare by hand, how often fields bid 0 and make it, and the strength of the evidence."""
    most, every = (
        player_rule[player_rule["field"] == f].drop(columns="field").reset_index(drop=True)
        for f in (MOST_FIELDS, EVERY_FIELD)
    )
    table = f"Under the canonical zero table ({CANONICAL_ZERO_TABLE} points for a made 0)"
    if len(most):
        hands = "; ".join(
            f"{r['bid 0 with']} at {r['players']} players (instead of {r['instead of']})"
            for _, r in most.iterrows()
        )
        agreed = "all" if most.equals(every) else "part" if len(every) else "none"
        verdict = (
            f"{table}, bid 0, when it is legal and you hold no boss trump, only with {hands}; "
            f"elsewhere bid what the hand is worth (most fields' rule; every field favours "
            f"{agreed} of it)."
        )
    else:
        verdict = f"{table}, bid what the hand is worth: no hand favours 0 in most fields."
    rows = offered[offered["zero_table"] == CANONICAL_ZERO_TABLE] if len(offered) else offered
    if len(rows):
        found = rows.loc[rows["established"].astype(bool), "estimate"]
        verdict += (
            f" On games it was not chosen on, it changes the score by {_span(rows['estimate'])} "
            f"points per deal against bidding the hand's worth (a gain established in "
            f"{int((found > 0).sum())} and a loss in {int((found < 0).sum())} of {len(rows)} "
            "fields)."
        )
    text = [verdict]
    canonical = gains[(gains["zero_table"] == CANONICAL_ZERO_TABLE) & gains["low"].notna()]
    parts = [part for _, part in canonical.groupby("alt_bid_label", sort=True)]
    if parts:
        text.append(
            "Bidding 0 instead changes the score of a hand "
            + "; ".join(
                f"worth {p['alt_bid_label'].iloc[0]} by {_span(p['estimate'], 2)}" for p in parts
            )
            + " points per deal (established in "
            + ", ".join(f"{int(p['established'].sum())} of {len(p)}" for p in parts)
            + " fields)."
        )
    fields = by_unit[by_unit["field_row"]]
    text.append(
        f"Fields bid 0 in {_span(fields['zero_bid_rate'], percent=True)} of deals and make "
        f"{_span(fields['zero_made_rate'].dropna(), percent=True)} of those bids "
        "(standardised over table and hand sizes)."
    )
    headlines = int(rate_verdicts["headline"].sum()) + int(gain_verdicts["headline"].sum())
    confirmed = (
        "(no confirmation run)"
        if (compared["confirmation"] == NO_CONFIRMATION).all()
        else "and confirmed at the second seed"
    )
    text.append(
        f"Evidence: {headlines} of the {len(rate_verdicts) + len(gain_verdicts)} comparisons "
        f"hold in every field, surviving one correction over all comparisons {confirmed}; the "
        "tables give each field."
    )
    return text


def _span(values: pd.Series, digits: int = 3, percent: bool = False) -> str:
    """``"X to Y"``: the lowest and highest of ``values`` as the tables print them, a share
    as a percentage of the same digits; ``n/a`` for none (a tiny run may estimate none)."""
    if values.empty:
        return "n/a"
    ends = [fmt_number(v, digits) for v in (values.min(), values.max())]
    ends = [f"{Decimal(v).scaleb(2)}%" if percent else v for v in ends]
    return ends[0] if ends[0] == ends[1] else f"{ends[0]} to {ends[1]}"


def _with_p(table: pd.DataFrame, columns: list[str], digits: int) -> pd.DataFrame:
    """``table[columns]`` as display strings, the adjusted p-values to their precision and the
    confirmation with its estimate."""
    shown = display_table(table[columns], digits=digits)
    shown["p_adjusted"] = table["p_adjusted"].map(fmt_p).to_numpy()
    shown["confirmation"] = [confirmation_cell(r, digits) for _, r in table.iterrows()]
    return shown


def _triple(base: str) -> list[str]:
    return [base, f"{base}_low", f"{base}_high"]


def _method(data: StudyData, fields: list[str], correction: str) -> list[str]:
    games = {
        c["label"]["field"]: c["games"]
        for c in data.manifest["conditions"]
        if c["label"]["part"] == "observed"
    }
    sizes = ", ".join(f"{f} {games[f]}" for f in fields)
    share = (
        " (mc_bidder samples deals for every bid and costs far more per game)"
        if "mc_bidder" in fields
        else ""
    )
    return [
        f"Fields ({fields_text(fields)}).  Games per condition: {sizes}{share}.  All conditions "
        "share the seed, so game g deals the same cards in every field, part and zero table.",
        "Observed part: canonical rules; zero-bid rates and success per deal with intervals "
        "clustered by game.  No row pools strata of unequal weight: every rate pooled over "
        "table sizes, hand sizes or the mixed field's strategies gives each the same weight "
        f"({STANDARDISED_METHOD}), and a success rate leaves out strata with fewer than "
        f"{MIN_ZERO_BIDS} zero bids (what a field cannot tell, listed per field).",
        "Trump holdings are not in the results: the games are replayed with the hands "
        "recorded (a canonical deal's cards do not depend on the strategies; checked "
        "against the recorded dealer and trump suit).",
        "Comparisons of rates: difference of two standardised rates over the strata both "
        "groups have (largest vs smallest table, dealer vs first bidder, 8-10-card vs 1-3-card "
        "hands matched size by size, one trump vs none), per field and strategy.",
        "Probe part: seat 0 plays the zero strategy in two arms on the same cards, bidding 0 "
        "whenever legal (unless it holds a boss trump, a sure trick) or always bidding "
        "expected_tricks's count (the alternative), the other seats the field's; only hands "
        "where the two bids differ are compared.  Both arms play alike, so the score difference"
        " per deal is the measured effect of bidding 0 on that hand, with the other seats "
        "reacting as they would.  Per field, zero table and alternative bid, with equal weight "
        "per table size; within a table size each hand counts once, as dealt: every field and "
        "zero table holds the same probe hands, so no compared row weighs the hand sizes "
        "differently from another (the figure shows the gain per hand size).",
        "The zero rule: fitted on the even games of each field and zero table (bid 0 in each "
        "(table size, hand size, alternative bid) cell where bidding 0 scored more there), "
        "judged on the odd games (held out: the headline) and, for comparison, on the even "
        "games it was fitted to (in sample, biased upwards by the fit); the fit on the odd "
        "games judged on the even ones is the replication.",
        f"One family of comparisons for the whole report: every rate comparison, every "
        f"counterfactual cell and every held-out rule gain, p-values read off their intervals "
        f"(normal approximation), and per comparison a paired Wald test that the fields' rows "
        "are equal (each estimate's influence per game, the covariance clustered by game: "
        f"every field plays the same cards), adjusted by Holm ({correction}, statsmodels); "
        "p-values are printed to three decimals, '< 0.001' below.  A finding is claimed only "
        f"where it survives, and '{DEPENDS_ON_FIELD}' only where its test does.",
        confirmation_method(
            data.manifest.get("confirmation") or {},
            "every part is played again",
            "games per condition (each field its share); the zero rule fitted on all of "
            "the first run's games is judged on the confirmation's hands, which it never saw",
        ),
        "Headline findings hold in every field: they survive Holm and are confirmed in every "
        "field.  The tables also keep a replication mark from the even and the odd games "
        "('replicated': both halves' intervals exclude 0 on the side of the full estimate); "
        "it guards only against a few influential games.",
        "Strata: a success rate, and a counterfactual cell, leave out the strata (table "
        f"size, hand size, strategy) holding fewer than {MIN_ZERO_BIDS} zero bids, a floor "
        "fixed before the data; which strata pass depends on the run, so the confirmation, "
        "which applies the same floor to other cards, is what a claim rests on.",
    ]


def _field_cis(table: pd.DataFrame, digits: int = 3) -> str:
    rows = table[table["field_row"]] if "field_row" in table else table
    return "; ".join(f"{r['field']} {fmt_row(r, digits)}" for _, r in rows.iterrows())


def _matching(table: pd.DataFrame, row: pd.Series, keys: list[str]) -> pd.DataFrame:
    """The rows of ``table`` whose ``keys`` are those of ``row``."""
    return table[(table[keys] == row[keys]).all(axis=1)]


def _not_headline(v: pd.Series, n_fields: int, digits: int = 3) -> str:
    """What a verdict row that is no headline says: where it holds, its range, Holm, halves."""
    where = f" (estimable in {v['fields']} of {n_fields} fields)" if v["fields"] < n_fields else ""
    return (
        f"{v['verdict']}{where}, from {fmt_number(v['min_estimate'], digits)} ({v['min_field']})"
        f" to {fmt_number(v['max_estimate'], digits)} ({v['max_field']}); survives Holm in "
        f"{v['survives_in']} and is established (confirmed) in {v['established_in']} of "
        f"{v['fields']} fields."
    )


def _within(row: pd.Series) -> str:
    if row["strategy"] == STANDARDISED:
        return " (all its strategies, standardised)"
    return "" if row["strategy"] == row["field"] else f" ({row['strategy']})"


def _findings(
    fields, by_unit, rate_verdicts, compared, gain_verdicts, gains, rule, rule_verdicts, hands
):
    """The effects that hold in every field first, then the others, each field's rates, what
    each field cannot tell and how many comparisons fail Holm."""
    n_fields = len(fields)
    headline, depends, rules, other_rules = [], [], [], []
    for _, v in rate_verdicts.iterrows():
        part = _matching(compared, v, ["measure", "comparison"])
        text = f"{v['measure'].capitalize()}, {v['comparison']} (difference of standardised rates)"
        if v["headline"] and v["fields"] == n_fields:
            headline.append(
                f"{text}: {'higher' if v['min_estimate'] > 0 else 'lower'} in all {n_fields} "
                f"fields, survives Holm and is confirmed in each: {_field_cis(part)}."
            )
        else:
            depends.append(f"{text}: {_not_headline(v, n_fields)}")
    for _, v in gain_verdicts.iterrows():
        part = _matching(gains, v, ["zero_table", "alt_bid_label"])
        text = (
            f"Zero table {v['zero_table']}, hands whose alternative bid is "
            f"{v['alt_bid_label']}: bidding 0 instead"
        )
        if v["headline"] and v["fields"] == n_fields:
            sign = "scores less" if v["max_estimate"] < 0 else "scores more"
            headline.append(
                f"{text} {sign} in all {n_fields} fields (survives Holm, confirmed): "
                f"{_field_cis(part, 2)} points per deal."
            )
        else:
            depends.append(f"{text}: {_not_headline(v, n_fields, 2)} (points per deal)")
    verdict_of = rule_verdicts.set_index("zero_table")
    for table in pd.unique(rule["zero_table"]):
        v = verdict_of.loc[table]
        everywhere = bool(v["headline"]) and v["fields"] == n_fields
        held = "; ".join(
            f"{r['field']} {fmt_row(r)} ("
            + ("survives Holm" if r["survives"] else "does not survive Holm")
            + f"; {confirmation_cell(r)}; in sample {fmt_ci(*r[_triple('in_sample_gain')])})"
            for _, r in rule[rule["zero_table"] == table].iterrows()
        )
        (rules if everywhere else other_rules).append(
            f"Zero table {table}: the zero rule fitted on the even games gains, held out on the "
            f"odd games, per deal over always bidding the alternative"
            f" ({HOLDS_EVERYWHERE if everywhere else v['verdict']}): {held}."
        )
    levels = [
        f"In the {r['field']} field{_within(r)}, "
        f"players bid 0 in {fmt_ci(*r[_triple('zero_bid_rate')])} of deals and make "
        f"{fmt_ci(*r[_triple('zero_made_rate')])} of those zero bids (standardised)."
        for _, r in by_unit.iterrows()
    ]
    family = (compared, gains, rule)
    failed = sum(int((~part["survives"]).sum()) for part in family)
    summary = (
        f"{failed} of the family's {sum(map(len, family))} comparisons do not survive Holm; "
        "none of them is claimed (see the tables)."
    )
    return [*headline, *rules, *depends, *other_rules, *levels, *_cannot_tell(hands), summary]


def _cannot_tell(hands: pd.DataFrame) -> list[str]:
    """Per unit, the hand sizes whose zero bids are too few somewhere (:func:`coverage`)."""
    table = coverage(hands, "hand_size")
    out = []
    for _, row in table.iterrows():
        thin = [c for c in table.columns[2:] if row[c].endswith("*")]
        if thin:
            own = "" if row["strategy"] == row["field"] else f"'s {row['strategy']}"
            out.append(
                f"The {row['field']} field{own} bids 0 too seldom (fewer than {MIN_ZERO_BIDS} "
                f"at some table size) on {', '.join(thin)}-card hands: it cannot tell how such "
                "zero bids fare; the probe measures every hand in every field."
            )
    return out


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
