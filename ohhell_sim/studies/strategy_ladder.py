"""Study ``strategy_ladder``: every built-in strategy ranked on the same cards, in several fields.

Each strategy in turn, the *challenger*, takes one seat against a *field* (one
strategy of :data:`ohhell_sim.studies.design.FIELDS` in the other seats) in a duplicate
tournament (:func:`ohhell_sim.tournament`): every deal set is played once per rotation
of the seats.  All gauntlets share the seed and game indices, so two challengers are
paired on the deal set; the Monte Carlo strategies (:data:`SLOW`) play the first deal
sets only.  Challengers that make the same bids and plays are merged into one entry
(:func:`identical_groups`); the pairwise family, with a test per pair that its
difference is the same in every field, is Holm-adjusted and its surviving rows
confirmed at another seed (:func:`confirmed_family`).  Section "Exact one-card play"
sets each challenger's one-card scores beside :func:`ohhell_sim.exact.solve_one_card`.
"""

from __future__ import annotations

from itertools import combinations, pairwise

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.analysis.figures import interval_plot, png_bytes, text_colour
from ohhell_sim.analysis.findings import (
    BETWEEN_FIELDS,
    adjust_family,
    between_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table, rules_text
from ohhell_sim.analysis.stats import (
    clip_rate,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
    store_interval,
)
from ohhell_sim.engine.scoring import forbidden_bid_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import (
    one_card_rules,
    play_one_card,
    position_role,
    regret_table,
    solve_one_card,
)
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import available_strategies, get_strategy
from ohhell_sim.studies.design import check_fields, field_seats
from ohhell_sim.studies.family import CORRECTION, confirm_family
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method
from ohhell_sim.tournament import tournament

NAME = "strategy_ladder"
QUESTION = "Which built-in strategy plays Oh Hell best, and does the answer depend on the field?"
DEFAULT_GAMES = 400
DEFAULT_PLAYERS = (4,)
#: The fields the ladder is played in by default: the original field, a stronger one
#: and the strongest fast player.
DEFAULT_FIELDS = ("simple", "card_counter", "distilled")
#: Strategies that take milliseconds per decision: they play a tenth of the deal sets.
SLOW = ("mc_bidder", "pimc", "bayes_pimc", "adaptive_pimc")
MEASURES = ("mean_total", "win_share", "made_rate", "zero_bid_rate")
#: One-card games per challenger, per game of its gauntlet: a one-card deal is cheap.
ONE_CARD_FACTOR = 10
#: Joins the names of identical challengers into the name of their ladder entry.
SAME = " = "
#: Columns identifying a row of the pairwise family, in the run and in its confirmation.
PAIR_KEYS = ("field", "a", "b")
#: What identical challengers must agree on, row by row (one row per game x rotation x seat).
DECISIONS = ("bids", "tricks", "total")
#: The label of the one-card conditions' field column: the challenger holds every seat.
ONE_CARD_FIELD = "none (challenger in every seat)"


def builtin_strategies() -> tuple[str, ...]:
    """The registered built-in strategies, in registry order."""
    return tuple(n for n in available_strategies() if get_strategy(n).builtin_id is not None)


def confirmation_games(games: int, players: tuple[int, ...]) -> int:
    """Games of the confirmation run: half of ``games``, a whole number of rotations."""
    n = players[0]
    return max(2 * n, games // 2 // n * n)


def check_games(games: int, players: tuple[int, ...]) -> None:
    """Raise unless one table size is given and ``games`` fits duplicate seating."""
    if len(players) != 1:
        raise InvalidArgumentError(
            f"strategy_ladder plays one table size; got players={list(players)}"
        )
    n = players[0]
    if games % n or games < 2 * n:
        raise InvalidArgumentError(
            f"strategy_ladder plays each deal set once per rotation of {n} seats: games "
            f"must be a multiple of {n} and at least {2 * n}, got {games}"
        )


def slow_games(games: int, players: int) -> int:
    """Games of a slow strategy's gauntlet: a tenth, a multiple of ``players``, at least 2 sets."""
    return max(2 * players, games // 10 // players * players)


def deal_records(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (rotation, game, seat) of :attr:`ohhell_sim.TournamentResult.hands`, the seat's
    ``bids`` and ``tricks`` in deal order, as comma-separated text."""
    ordered = hands.sort_values(["rotation", "game", "seat", "deal"])
    grouped = ordered.groupby(["rotation", "game", "seat"], sort=False)[["bid", "tricks"]]
    joined = grouped.agg(lambda values: ",".join(map(str, values.tolist())))
    return joined.rename(columns={"bid": "bids"}).reset_index()


def play(
    games: int,
    seed: int,
    players: tuple[int, ...] = DEFAULT_PLAYERS,
    progress: bool = True,
    strategies: tuple[str, ...] | None = None,
    fields: tuple[str, ...] = DEFAULT_FIELDS,
) -> StudyData:
    """Play one duplicate gauntlet per strategy and field, and the one-card deals.

    Parameters
    ----------
    games : int
        Games per gauntlet (a multiple of the table size; :func:`slow_games` for :data:`SLOW`).
    seed : int
        Seed shared by every gauntlet.
    players : tuple of int
        One table size.
    progress : bool
        Show a progress bar over the gauntlets.
    strategies : tuple of str, optional
        The challengers (default: every built-in).
    fields : tuple of str
        The fields, one gauntlet per challenger in each.

    Returns
    -------
    StudyData
        ``games``: every gauntlet's long frame with ``field``, ``challenger``,
        ``challenger_seat`` and :func:`deal_records`; ``hands``: the one-card deals
        (:func:`ohhell_sim.exact.play_one_card`), each challenger in every seat.

    Raises
    ------
    InvalidArgumentError
        For bad games, players, strategies or fields, before anything is played.
    """
    from tqdm.auto import tqdm

    check_games(games, players)
    fields = check_fields(fields)
    n = players[0]
    names = builtin_strategies() if strategies is None else tuple(strategies)
    if not names:
        raise InvalidArgumentError("strategies must name at least one strategy, got none")
    for name in names:
        get_strategy(name)
        if names.count(name) > 1:
            raise InvalidArgumentError(f"strategies names {name!r} twice, in {list(names)}")
    rules = Rules(players=n)
    plan = [
        Condition(
            {"field": field, "challenger": name},
            rules,
            (name, *field_seats(field, n)[1:]),
            slow_games(games, n) if name in SLOW else games,
        )
        for field in fields
        for name in names
    ]
    one = one_card_rules(rules)
    one_games = games * ONE_CARD_FACTOR
    one_plan = [
        Condition(
            {"field": ONE_CARD_FIELD, "challenger": f"{name} (one-card deals, every seat)"},
            one,
            (name,) * n,
            one_games,
        )
        for name in names
    ]
    frames = []
    one_card = []
    total = sum(c.games for c in plan + one_plan)
    with tqdm(total=total, unit="game", desc=NAME, disable=not progress) as bar:
        for condition in plan:
            result = tournament(
                rules, list(condition.seats), condition.games, seed, keep_hands=True
            )
            frame = result.games.assign(**condition.label)
            frame["challenger_seat"] = frame["strategy"] == result.labels[0]
            frame["strategy"] = frame["strategy"].astype(str)
            frames.append(frame.merge(deal_records(result.hands), on=["rotation", "game", "seat"]))
            bar.update(condition.games)
        for condition in one_plan:
            one_card.append(play_one_card(one, condition.seats[:1], condition.games, seed))
            bar.update(condition.games)
    long = pd.concat(frames, ignore_index=True)
    # Categories in the order played, so that tables list the fields as given.
    long["field"] = pd.Categorical(long["field"], categories=list(fields))
    long["challenger"] = pd.Categorical(long["challenger"], categories=list(names))
    manifest = {
        "version": __version__,
        "seed": seed,
        "fields": list(fields),
        "challengers": list(names),
        "conditions": [c.describe() for c in plan + one_plan],
        "one_card": {"rules": one.to_dict(), "games": one_games},
    }
    return StudyData(pd.concat(one_card, ignore_index=True), long, manifest)


def _fields_of(long: pd.DataFrame) -> list[str]:
    return [str(f) for f in pd.unique(long["field"])]


def identical_groups(long: pd.DataFrame) -> list[tuple[str, ...]]:
    """Challengers of ``long`` (:func:`play`'s ``games``) that make the same bids and plays
    on the same cards, one tuple per ladder entry, in the order played.

    Identical: in every field and on every (deal set, rotation, seat) both played
    (a slow challenger: the deal sets it played), every seat's bids and tricks deal
    by deal and its total are the same.
    """
    names = [str(c) for c in pd.unique(long["challenger"])]
    if not set(DECISIONS) <= set(long.columns):
        # Output written before the per-deal records existed: nothing to compare.
        return [(name,) for name in names]
    key = ["field", "unit", "rotation", "seat"]
    records = {
        name: part.set_index(key)[list(DECISIONS)].sort_index()
        for name, part in long.groupby("challenger", observed=True, sort=False)
    }
    fields = {name: set(part.index.get_level_values("field")) for name, part in records.items()}

    def same(first: str, name: str) -> bool:
        shared = records[first].index.intersection(records[name].index)
        return fields[first] == fields[name] == set(shared.get_level_values("field")) and (
            records[first].loc[shared].equals(records[name].loc[shared])
        )

    return _alike(names, same)


def _alike(names, same) -> list[tuple[str, ...]]:
    """``names`` in groups, in order: each joins the first group whose first member is
    ``same`` as it."""
    groups: list[list[str]] = []
    for name in names:
        for group in groups:
            if same(group[0], name):
                group.append(name)
                break
        else:
            groups.append([name])
    return [tuple(group) for group in groups]


def entry_name(group: tuple[str, ...]) -> str:
    """The ladder entry of identical challengers, e.g. ``"card_counter = expected_tricks"``."""
    return SAME.join(group)


def merge_identical(long: pd.DataFrame, groups: list[tuple[str, ...]]) -> pd.DataFrame:
    """``long`` with one challenger per group of :func:`identical_groups`, named by the group.

    The group's member with the most rows (the others' data is the same where
    they overlap) carries the entry; the other members' rows are dropped.
    """
    rows = long["challenger"].astype(str)
    counts = rows.value_counts()
    keep = {}
    for group in groups:
        carrier = max(group, key=lambda name: (counts.get(name, 0), -group.index(name)))
        keep[carrier] = entry_name(group)
    out = long[rows.isin(keep)].copy()
    out["challenger"] = pd.Categorical(
        out["challenger"].astype(str).map(keep), categories=[entry_name(g) for g in groups]
    ).remove_unused_categories()
    return out


def unit_values(long: pd.DataFrame) -> pd.DataFrame:
    """Per (field, challenger, deal set): the challenger's score per game, win share, made and
    zero-bid rates, over the rotations of that deal set."""
    rows = long[long["challenger_seat"]]
    keys = ["field", "challenger", "unit"]
    sums = rows.groupby(keys, observed=True)[
        ["total", "win_share", "deals", "made", "zero_bids"]
    ].sum()
    count = rows.groupby(keys, observed=True).size()
    return pd.DataFrame(
        {
            "mean_total": sums["total"] / count,
            "win_share": sums["win_share"] / count,
            "made_rate": sums["made"] / sums["deals"],
            "zero_bid_rate": sums["zero_bids"] / sums["deals"],
        }
    ).reset_index()


def ranking_table(values: pd.DataFrame) -> pd.DataFrame:
    """Per challenger of one field, best mean score first: each measure with a t interval
    over deal sets."""
    rows = []
    for name, group in values.groupby("challenger", observed=True):
        row = {"strategy": name, "deal_sets": len(group)}
        for measure in MEASURES:
            est = mean_ci(group[measure].to_numpy())
            store_interval(row, measure, est if measure == "mean_total" else clip_rate(est))
        rows.append(row)
    table = pd.DataFrame(rows).sort_values("mean_total", ascending=False, ignore_index=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table


def _paired_scores(values: pd.DataFrame, order: list[str]):
    """Per field and pair of ``order`` (``a`` before ``b``) played there: the field, ``a``,
    ``b`` and their mean scores per game on the deal sets both played."""
    for field, part in values.groupby("field", observed=True, sort=False):
        scores = part.pivot(index="unit", columns="challenger", values="mean_total")
        for a, b in combinations(order, 2):
            if a in scores and b in scores:
                yield field, a, b, scores[[a, b]].dropna()


def pairwise_family(values: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """The declared family: every pair of distinct ladder entries in every field, and per
    pair the test that its difference is the same in every field.

    A pair's row is the mean score per game of ``a`` minus ``b`` (``a`` before ``b``
    in ``order``), paired on the deal sets both played.  The test rows (``field``
    :data:`~ohhell_sim.analysis.findings.BETWEEN_FIELDS`, no interval, the spread
    between fields as ``estimate``) are a Wald test of the pair's differences on the
    deal sets, paired across fields, which play the same cards
    (:func:`~ohhell_sim.analysis.findings.between_fields`).  Holm-adjusted over the
    whole family (:func:`~ohhell_sim.analysis.findings.adjust_family`).

    Returns
    -------
    pandas.DataFrame
        ``field``, ``a``, ``b``, ``deal_sets``, ``estimate``, ``low``, ``high`` (plus
        the test rows, with ``q``), ``p``, ``p_adjusted``, ``survives`` and ``correction``.
    """
    rows, units = [], []
    for field, a, b, both in _paired_scores(values, order):
        est = paired_difference_ci(both[a].to_numpy(), both[b].to_numpy())
        rows.append({"field": field, "a": a, "b": b, "deal_sets": len(both), **est._asdict()})
        diff = (both[a] - both[b]).to_numpy()
        units.append(
            pd.DataFrame({"field": field, "a": a, "b": b, "game": both.index, "value": diff})
        )
    table = pd.DataFrame(rows, columns=[*PAIR_KEYS, "deal_sets", "estimate", "low", "high"])
    if table.empty:
        # One entry: no comparison, an empty family.
        return table.assign(p=[], p_adjusted=[], survives=[], correction=[]).astype(
            {"survives": bool}
        )
    tests = between_fields(pd.concat(units, ignore_index=True), keys=["a", "b"])
    parts = [table, tests] if len(tests) else [table]
    return adjust_family(pd.concat(parts, ignore_index=True), method=CORRECTION)


def ladder_values(data: StudyData, groups: list[tuple[str, ...]] | None = None) -> pd.DataFrame:
    """:func:`unit_values` of a run, identical challengers merged (``groups``: found in it
    when None; the confirmation run takes the first run's, so that its entries match)."""
    long = _long(data)
    groups = identical_groups(long) if groups is None else groups
    return unit_values(merge_identical(long, groups))


def confirmed_family(
    data: StudyData, values: pd.DataFrame, order: list[str], groups
) -> pd.DataFrame:
    """:func:`pairwise_family` of the run, its surviving rows checked in the confirmation run.

    The pairs keep the orientation of ``order`` (the first field's ranking in
    the first run), so a ranking claim chosen on the first run's cards is tested
    on fresh ones.
    """

    def family_of(run: StudyData) -> dict[str, pd.DataFrame]:
        found = values if run is data else ladder_values(run, groups)
        return {"pairs": pairwise_family(found, order)}

    return confirm_family(data, family_of, {"pairs": PAIR_KEYS})["pairs"]


def _long(data: StudyData) -> pd.DataFrame:
    """The games frame of a run, its fields as categories in the order played."""
    long = data.games
    if "field" not in long.columns:
        # Output written before the ladder had fields: its one field is in the manifest.
        long = long.assign(field=data.manifest.get("field", "simple"))
    # Fields in the order played (a category's own order may be alphabetical).
    return long.assign(field=pd.Categorical(long["field"].astype(str), categories=_fields_of(long)))


def flipped(row: pd.Series) -> pd.Series:
    """A pair row read the other way round: ``b`` minus ``a``."""
    out = row.copy()
    out["a"], out["b"] = row["b"], row["a"]
    for prefix in ("", "confirm_"):
        if f"{prefix}estimate" in row:
            out[f"{prefix}estimate"] = -row[f"{prefix}estimate"]
            out[f"{prefix}low"], out[f"{prefix}high"] = -row[f"{prefix}high"], -row[f"{prefix}low"]
    return out


def ranking_claims(family: pd.DataFrame, rankings: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The headline claims "X beats Y": each entry against the next in its field's ranking,
    one family row per (field, neighbouring pair), ``a`` ranked above ``b``."""
    rows = []
    for field, ranking in rankings.items():
        pairs = {
            (row["a"], row["b"]): row for _, row in family[family["field"] == field].iterrows()
        }
        for above, below in pairwise(ranking["strategy"].tolist()):
            found = pairs.get((above, below))
            rows.append(flipped(pairs[below, above]) if found is None else found)
    return pd.DataFrame(rows).reset_index(drop=True)


def order_changes(family: pd.DataFrame) -> pd.DataFrame:
    """Pairs whose order differs between fields (the estimate's sign is not the same in all):
    ``a``, ``b``, their rows as ``fields``, and ``resolved`` when established both ways."""
    pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
    rows = [
        (a, b, _signs(part[part["established"]]) > 1, part.reset_index(drop=True))
        for (a, b), part in pairs
        if _signs(part) > 1
    ]
    return pd.DataFrame(rows, columns=["a", "b", "resolved", "fields"])


def _signs(part: pd.DataFrame) -> int:
    """How many signs the estimates of ``part`` take."""
    return len(set(np.sign(part["estimate"])))


def _marked(row: pd.Series, digits: int = 2) -> str:
    """An interval with ``*`` when its pair is established (survives and confirms)."""
    return fmt_row(row, digits) + (" *" if row["established"] else "")


#: Most strategies whose pairwise cells hold their intervals; a larger matrix
#: shows the estimates only (its cells would be too narrow), the table the intervals.
MAX_INTERVAL_CELLS = 6
#: How the pairwise matrix writes its cells.
CELL_TEXT = {"ha": "center", "va": "center", "fontsize": 8}


def _pairwise_figure(pairs: pd.DataFrame, order: list[str], field: str, family: str) -> bytes:
    size = len(order)
    matrix = np.full((size, size), np.nan)
    with_intervals = size <= MAX_INTERVAL_CELLS
    cell = 1.05 if with_intervals else 0.62  # inches: room for the text at 8 points
    fig, ax = plt.subplots(figsize=(cell * size + 3.3, cell * size + 2.2))
    cells = []
    for _, row in pairs.iterrows():
        i, j = order.index(row["a"]), order.index(row["b"])
        survives = bool(row["established"])
        for r, c, sign in ((i, j, 1), (j, i, -1)):
            matrix[r, c] = sign * row["estimate"]
            low, high = sorted((sign * row["low"], sign * row["high"]))
            text = fmt_number(matrix[r, c], 1) + (" *" if survives else "")
            if with_intervals:
                text += f"\n[{fmt_number(low, 1)}, {fmt_number(high, 1)}]"
            cells.append((r, c, text, survives))
    limit = np.nanmax(np.abs(matrix)) if size > 1 and np.isfinite(matrix).any() else 1.0
    image = ax.imshow(matrix, cmap="RdBu", vmin=-limit, vmax=limit)
    for r, c, text, survives in cells:
        # Dark cells at either end of the scale need light text.
        colour = text_colour(image.cmap(image.norm(matrix[r, c])))
        weight, style = ("bold", "normal") if survives else ("normal", "italic")
        ax.text(c, r, text, color=colour, fontweight=weight, fontstyle=style, **CELL_TEXT)
    labels = [name.replace(SAME, " =\n") for name in order]
    ax.set_xticks(range(size), labels, rotation=30, ha="right", fontsize=9)
    ax.set_yticks(range(size), labels, fontsize=9)
    ax.set(xlabel="column strategy", ylabel="row strategy")
    fig.colorbar(image, label="row minus column, points per game")
    shown = "95% CI, paired on deal sets" if with_intervals else "intervals in the table"
    ax.set_title(
        f"Against {field}: row minus column per game ({shown})\n"
        f"* and bold: survives {family} and confirms",
        fontsize=10,
    )
    return png_bytes(fig)


def analyse(data: StudyData) -> Report:
    """The report of a ``strategy_ladder`` run, every number computed from ``data``."""
    long = _long(data)
    groups = identical_groups(long)
    values = ladder_values(data, groups)
    fields = [str(f) for f in pd.unique(values["field"])]
    rankings = {field: ranking_table(values[values["field"] == field]) for field in fields}
    order = rankings[fields[0]]["strategy"].tolist()
    family = confirmed_family(data, values, order, groups)
    correction = family["correction"].iloc[0] if len(family) else f"{CORRECTION} over 0"
    claims = ranking_claims(family, rankings) if len(family) else family
    changes = order_changes(family)

    findings = _findings(rankings, family, claims, changes, groups, correction)
    in_short = _in_short(rankings, family, claims, changes, data.manifest)
    figures = [_ranking_figure(rankings, order)] + [
        Figure(
            f"ladder_pairwise_{field}.png",
            f"Pairwise score differences against {field}",
            _pairwise_figure(
                family[family["field"] == field], ranking["strategy"].tolist(), field, correction
            ),
        )
        for field, ranking in rankings.items()
        if len(order) > 1
    ]
    method = _method(fields, correction, len(order), data.manifest.get("confirmation") or {})
    tables = [_identical_table(groups, long)] if any(len(g) > 1 for g in groups) else []
    tables.append(_rank_table(rankings, order))
    tables += [
        Table(f"Ranking against {field} (best mean score first)", display_table(ranking))
        for field, ranking in rankings.items()
    ]
    tables.append(_claims_table(claims, correction))
    tables.append(_family_table(family, fields, correction))
    if (family["field"] == BETWEEN_FIELDS).any():
        tables.append(_between_table(family))
    if len(changes):
        tables.append(_changes_table(changes, fields))
    # Output written before the one-card runs existed has no such section.
    if "one_card" in data.manifest and len(data.hands):
        one_hands = _merged_one_card(data.hands, groups)
        one_method, one_findings, one_tables = exact_one_card_section(
            one_hands, data.manifest["one_card"]
        )
        method += one_method
        findings += one_findings
        tables += one_tables
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, figures, in_short=in_short
    )


def one_card_twins(hands: pd.DataFrame) -> list[tuple[str, ...]]:
    """Strategies whose one-card rows (:func:`play`'s ``hands``) have the same bids and
    scores in every game and seat: groups of two or more, in the order played."""
    columns = ["game", "seat", "bid", "score"]
    tables = {
        str(name): part.sort_values(["game", "seat"])[columns].reset_index(drop=True)
        for name, part in hands.groupby("strategy", observed=True, sort=False)
    }
    groups = _alike(tables, lambda first, name: tables[first].equals(tables[name]))
    return [group for group in groups if len(group) > 1]


def _merged_one_card(hands: pd.DataFrame, groups: list[tuple[str, ...]]) -> pd.DataFrame:
    """The one-card rows with each group of identical challengers shown once, by its first
    member's rows (identical in the gauntlets, they are identical in one-card deals)."""
    names = hands["strategy"].astype(str)
    rename = {group[0]: entry_name(group) for group in groups}
    dropped = {name for group in groups for name in group[1:]}
    out = hands[~names.isin(dropped)].copy()
    out["strategy"] = out["strategy"].astype(str).map(lambda s: rename.get(s, s))
    return out


def _method(fields: list[str], correction: str, entries: int, confirmation: dict) -> list[str]:
    return [
        "Each strategy plays a duplicate tournament in one seat against a field (one "
        "strategy in all the other seats): every deal set once per rotation of "
        "the seats, so it holds every hand from every seat. All tournaments share the seed "
        "and game indices, hence the cards and, within a field, the opponents. Fields: "
        + ", ".join(fields)
        + ".",
        "A strategy's value on a deal set is its average over the rotations; rankings get "
        "Student-t intervals over deal sets, and pairwise differences are paired on the "
        "deal sets both strategies played.",
        "The Monte Carlo strategies (" + ", ".join(SLOW) + ") play a tenth of the deal "
        "sets (they take milliseconds per decision), so their intervals are wider.",
        "Identical strategies: every gauntlet records each seat's bids and tricks deal by "
        "deal and its total; two challengers that agree on every row of every field they "
        "both played (same cards, same opponents) make the same bids and plays, and are "
        "one ladder entry, named 'a = b'. Pairs are counted after this merge.",
        f"Comparison family, one for the whole report: the mean score per game of every pair "
        f"of the {entries} distinct entries in every field, and per pair the test that its "
        "difference is the same in every field (a Wald test on the deal sets' differences, "
        "paired across the fields, which play the same cards): "
        f"{correction} comparisons. p-values are read off the paired intervals (normal "
        f"approximation) and adjusted with the {CORRECTION.capitalize()} method "
        "(statsmodels' multipletests), family-wise level 0.05; they are printed to three "
        "decimals, '< 0.001' below.",
        confirmation_method(
            confirmation,
            "the whole ladder is played again, its pairs in the order of the first run's ranking,",
            "games per gauntlet (the Monte Carlo strategies their share)",
        ),
        "Order changes: a pair changes order between fields when its estimate has a "
        "different sign in different fields; the change is resolved when the pair is "
        "established in both directions. '*' marks the established pairs.",
    ]


def _ranking_figure(rankings: dict[str, pd.DataFrame], order: list[str]) -> Figure:
    table = pd.concat(
        [r.assign(field=field) for field, r in rankings.items()], ignore_index=True
    ).rename(columns={"mean_total": "estimate", "mean_total_low": "low", "mean_total_high": "high"})
    return Figure(
        "ladder_ranking.png",
        "Mean score per game of each strategy, per field",
        interval_plot(
            table,
            "strategy",
            series="field" if len(rankings) > 1 else None,
            title="Score per game against each field",
            xlabel="strategy",
            ylabel="points per game",
            order=order,
        ),
    )


def _identical_table(groups: list[tuple[str, ...]], long: pd.DataFrame) -> Table:
    rows = []
    challenger = long["challenger"].astype(str)
    for group in (group for group in groups if len(group) > 1):
        played = long[challenger.isin(group)]
        compared = played.groupby(["field", "unit", "rotation", "seat"], observed=True).size()
        rows.append(
            {
                "entry": entry_name(group),
                "challengers": ", ".join(group),
                "fields": ", ".join(_fields_of(played)),
                "rows compared (game x seat, every deal)": str(int((compared == len(group)).sum())),
            }
        )
    return Table(
        "Identical strategies, merged into one entry",
        pd.DataFrame(rows),
        "Same bids and tricks on every deal and the same total, seat by seat, on every game "
        "both played, in every field.",
    )


def _interval(row: pd.Series, measure: str, digits: int = 3) -> str:
    """:func:`fmt_ci` of ``measure`` and its ``_low`` and ``_high`` columns in ``row``."""
    return fmt_ci(row[measure], row[f"{measure}_low"], row[f"{measure}_high"], digits)


def _rank_table(rankings: dict[str, pd.DataFrame], order: list[str]) -> Table:
    rows = []
    for name in order:
        row = {"strategy": name}
        for field, ranking in rankings.items():
            hit = ranking[ranking["strategy"] == name].iloc[0]
            row[f"rank against {field}"] = str(int(hit["rank"]))
            row[f"points per game against {field}"] = _interval(hit, "mean_total", 2)
        rows.append(row)
    return Table(
        "Ranking per field",
        pd.DataFrame(rows),
        "Ordered by the ranking against the first field; 95% CI over deal sets.",
    )


def _claims_table(claims: pd.DataFrame, correction: str) -> Table:
    rows = [
        {
            "field": r["field"],
            "claim": f"{r['a']} beats {r['b']}",
            "points per game [95% CI]": fmt_row(r, 2),
            "p (adjusted)": fmt_p(r["p_adjusted"]),
            f"survives {correction}": "yes" if r["survives"] else "no",
            "confirmation": confirmation_cell(r, 2),
        }
        for _, r in claims.iterrows()
    ]
    return Table(
        "Headline ranking claims: each entry against the next one down",
        pd.DataFrame(rows),
        "From the pairwise family; the confirmation replays the pair at the second seed "
        "(its estimate and interval shown).",
    )


def _field_cells(part: pd.DataFrame, fields: list[str]) -> dict[str, str]:
    """One pair's rows of the family as a cell per field (:func:`_marked`; ``n/a``: not played)."""
    cells = {row["field"]: _marked(row) for _, row in part.iterrows()}
    return {field: cells.get(field, "n/a") for field in fields}


def _family_table(family: pd.DataFrame, fields: list[str], correction: str) -> Table:
    pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
    rows = [{"a": a, "b": b, **_field_cells(part, fields)} for (a, b), part in pairs]
    return Table(
        f"Pairwise: mean score per game of a minus b, per field ({correction})",
        pd.DataFrame(rows),
        "95% CI paired on the deal sets both played; * established: survives the Holm "
        "correction over the whole family and confirms at the second seed.",
    )


def _between_table(family: pd.DataFrame) -> Table:
    rows = family[family["field"] == BETWEEN_FIELDS]
    return Table(
        "Does a pair's difference depend on the field? A paired test per pair",
        pd.DataFrame(
            {
                "a": rows["a"].to_numpy(),
                "b": rows["b"].to_numpy(),
                "spread between fields": [fmt_number(e, 2) for e in rows["estimate"]],
                "W": [fmt_number(q, 1) for q in rows["q"]],
                "p (adjusted)": [fmt_p(p) for p in rows["p_adjusted"]],
                "confirmation": rows["confirmation"].to_numpy(),
            }
        ),
        "Part of the family. W: the Wald statistic of the fields' differences, their "
        "covariance estimated on the deal sets every field played (the same cards), "
        "chi-squared with fields - 1 degrees of freedom. Spread: the highest field's "
        "estimate minus the lowest's, points per game.",
    )


def _changes_table(changes: pd.DataFrame, fields: list[str]) -> Table:
    rows = [
        {
            "a": change["a"],
            "b": change["b"],
            **_field_cells(change["fields"], fields),
            "resolved": "yes" if change["resolved"] else "no",
        }
        for _, change in changes.iterrows()
    ]
    return Table(
        "Where the order changes between fields",
        pd.DataFrame(rows, columns=["a", "b", *fields, "resolved"]),
        "Pairs whose estimate (a minus b, points per game) changes sign between fields; "
        "resolved: it is established in both directions.",
    )


def exact_one_card_section(
    hands: pd.DataFrame, one_card: dict
) -> tuple[list[str], list[str], list[Table]]:
    """Section "Exact one-card play": each challenger's score per bidding position in the
    one-card deals of :func:`play` (``hands``) beside the exact values, and the regret.

    ``one_card`` is the manifest's record (the rules played and the games).  Returns the
    section's method lines, findings (naming the :func:`one_card_twins`) and two tables.
    """
    rules = Rules.from_dict(one_card["rules"])
    solution = solve_one_card(rules)
    n = rules.players
    described = f"{n} players, the canonical profile but {rules_text(one_card['rules'])}"
    by_role = {position_role(p, n): fmt_number(v) for p, v in enumerate(solution.expected_score)}
    # Averages over seats: each game's seats averaged, a t interval over games.
    groups = {"before the dealer": np.arange(n - 1), "table mean": np.arange(n)}
    exact_groups = {k: float(solution.expected_score[v].mean()) for k, v in groups.items()}
    scores = [
        {
            "strategy": "exact",
            **by_role,
            **{k: fmt_number(v) for k, v in exact_groups.items()},
            "dealer restricted": fmt_number(solution.hook_rate),
        }
    ]
    regrets, before_regret, dealer_above = [], {}, {}
    for name, group in regret_table(solution, hands).groupby("strategy", sort=False):
        row = {"strategy": name}
        loss = {"strategy": name}
        for _, r in group.iterrows():
            row[r["role"]] = fmt_row(r)
            loss[r["role"]] = fmt_ci(r["regret"], r["regret_low"], r["regret_high"])
        dealer_above[name] = bool(group["regret_high"].iloc[-1] < 0)
        played = hands[hands["strategy"] == name]
        for key, positions in groups.items():
            seats = played[played["position"].isin(positions)]
            est = mean_ci(seats.groupby("game")["score"].mean().to_numpy())
            exact = exact_groups[key]
            row[key] = fmt_ci(est.estimate, est.low, est.high)
            loss[key] = fmt_ci(exact - est.estimate, exact - est.high, exact - est.low)
            if key == "before the dealer":
                before_regret[name] = exact - est.estimate
        # The hook forbids the dealer a bid when the bids before it total 0 or 1.
        before = played[played["position"] < n - 1].groupby("game")["bid"].sum().to_numpy()
        restricted = forbidden_bid_array(1, before, rules) >= 0
        row["dealer restricted"] = fmt_row(
            proportion_ci(int(restricted.sum()), len(restricted))._asdict()
        )
        scores.append(row)
        regrets.append(loss)
    tables = [
        Table(
            "Exact one-card play: points per deal by bidding position",
            pd.DataFrame(scores),
            "Row exact: the solved policy in every seat; the others: the strategy in every "
            "seat, mean [95% CI]. Positions count from the dealer's left; the dealer bids last.",
        ),
        Table(
            "Exact one-card play: regret (exact minus measured) by bidding position",
            pd.DataFrame(regrets),
            "Points per deal, 95% CI; negative where the strategy's seat scores more than "
            "the exact policy's would (its earlier seats bid differently).",
        ),
    ]
    method = [
        f"Exact one-card play: one-card deals ({described}), "
        f"{one_card['games']} games per strategy with the strategy in every seat, on the same "
        "cards; each bidding position's mean score per deal gets a Student-t interval over "
        "the games (independent deals).",
        "The exact values come from ohhell_sim.exact.solve_one_card: each position in "
        "bidding order bids what maximises its expected points in the deal given its card, "
        "the turned-up card and the bids before it, with the cards of the earlier seats "
        "weighted by the solved policy (Bayes); the dealer is bound by the hook; of equal "
        "bids it takes the lowest. Counted exactly over every deal.",
        "Regret = exact minus measured, per position; a strategy's seat can score more than "
        "the exact value (negative regret), because its earlier seats play the strategy and "
        "not the solved policy, which changes what later seats learn and when the hook binds.",
    ]
    ranked = sorted(regrets, key=lambda r: before_regret[r["strategy"]])
    best, worst = ranked[0], ranked[-1]
    above = [name for name, yes in dealer_above.items() if yes]
    findings = [
        f"Exact one-card play ({described}): the solved policy scores, per bidding position, "
        + ", ".join(f"{role} {text}" for role, text in by_role.items())
        + f" points per deal, {fmt_number(exact_groups['table mean'])} per seat on average.",
        f"Over the seats before the dealer, {best['strategy']} comes closest to the exact "
        f"values, with a regret of {best['before the dealer']} points per deal per seat"
        + (
            f"; {worst['strategy']} is furthest, {worst['before the dealer']}."
            if worst is not best
            else "."
        ),
        f"{len(above)} of {len(regrets)} strategies' dealers score more than the exact "
        "dealer (regret interval below zero); under the solved policy the bids before the "
        f"dealer leave it a forbidden bid in {fmt_number(solution.hook_rate)} of deals.",
    ] + [
        f"{' and '.join(twins)} make the same bids in every one-card deal, where "
        "there is no card to choose; their gauntlets differ, so they stay separate "
        "entries (identical in one-card deals only)."
        for twins in one_card_twins(hands)
    ]
    return method, findings, tables


def _claim_text(row: pd.Series, correction: str) -> str:
    survives = f"survives {correction}" if row["survives"] else f"does not survive {correction}"
    return f"{fmt_row(row, 2)} points per game ({survives}; {confirmation_cell(row, 2)})"


def _opponents(manifest: dict) -> str:
    """How many of the field's seats face the challenger, in words where short."""
    seats = int(manifest.get("players", DEFAULT_PLAYERS)[0]) - 1
    return {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}.get(seats, str(seats))


def _in_short(
    rankings: dict[str, pd.DataFrame],
    family: pd.DataFrame,
    claims: pd.DataFrame,
    changes: pd.DataFrame,
    manifest: dict,
) -> list[str]:
    """The answer first: who is best, by how much, whether the field changes it."""
    fields = list(rankings)
    firsts = {field: ranking.iloc[0] for field, ranking in rankings.items()}
    names = {str(row["strategy"]) for row in firsts.values()}
    leads = claims.groupby("field", sort=False).head(1) if len(claims) else claims
    settled = len(leads) == len(fields) and leads["established"].all()
    if len(names) == 1:
        best = f"{names.pop()} {'plays best' if settled else 'ranks first'} against every field"
    else:
        best = "The best strategy depends on the field: " + ", ".join(
            f"{row['strategy']} against {field}" for field, row in firsts.items()
        )
    text = [
        f"{best}, scoring {_span([row['mean_total'] for row in firsts.values()])} points per "
        f"game by field (its one seat against {_opponents(manifest)} of the field's)."
    ]
    if len(claims):
        steps = [
            f"{int(part['established'].sum())} of {len(part)} against {field}"
            for field, part in claims.groupby("field", sort=False)
        ]
        confirmed = (manifest.get("confirmation") or {}).get("games")
        text.append(
            f"The lead over the runner-up ({', '.join(pd.unique(leads['b']))}) is "
            f"{_span(leads['estimate'])} points per game (established against "
            f"{int(leads['established'].sum())} of {len(leads)} fields). Of the ranking's steps "
            "(each entry ahead of the next), " + ", ".join(steps) + " are established "
            "(surviving one correction over all comparisons"
            + (" and confirmed at a second seed)." if confirmed else "; no confirmation run).")
        )
    between = family[family["field"] == BETWEEN_FIELDS]
    if len(fields) > 1 and len(family):
        resolved = int(changes["resolved"].sum())
        sized = int(between["established"].sum())
        order = (
            f"{len(changes)} pairs change order between fields ({resolved} established both "
            "ways; the findings name them)"
            if len(changes)
            else "No pair changes order between the fields"
        )
        text.append(
            f"Does the field matter? {order}; a pair's difference "
            f"depends on the field for {sized} of {len(between)} pairs"
            + (
                ": the field changes the size of the leads more often than the order."
                if sized > resolved
                else "."
            )
        )
    return text


def _span(values) -> str:
    """``"X to Y"``: the lowest and highest of ``values`` as the tables print them."""
    ends = [fmt_number(v, 2) for v in (min(values), max(values))]
    return ends[0] if ends[0] == ends[1] else f"{ends[0]} to {ends[1]}"


def _findings(
    rankings: dict[str, pd.DataFrame],
    family: pd.DataFrame,
    claims: pd.DataFrame,
    changes: pd.DataFrame,
    groups: list[tuple[str, ...]],
    correction: str,
) -> list[str]:
    fields = list(rankings)
    orders = {field: ranking["strategy"].tolist() for field, ranking in rankings.items()}
    out = []
    if len(fields) > 1:
        if all(o == orders[fields[0]] for o in orders.values()):
            out.append(
                f"The ranking is the same in every field ({', '.join(fields)}): "
                + " > ".join(orders[fields[0]])
                + "."
            )
        if len(family):
            pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
            held = sum(
                bool(part["established"].all() and _signs(part) == 1) and len(part) == len(fields)
                for _, part in pairs
            )
            between = family[family["field"] == BETWEEN_FIELDS]
            out.append(
                f"{held} of {pairs.ngroups} pairs are established in the same direction in "
                f"every field ({correction}, confirmed at the second seed); the test between "
                f"fields is established for {int(between['established'].sum())} of "
                f"{len(between)} pairs."
            )
        for _, change in changes.iterrows():
            part = change["fields"]
            where = "; ".join(f"against {r['field']} {_marked(r)}" for _, r in part.iterrows())
            verdict = (
                "a resolved change of order"
                if change["resolved"]
                else "not resolved in both directions"
            )
            out.append(
                f"The order of {change['a']} and {change['b']} depends on the field "
                f"({change['a']} minus {change['b']}: {where}): {verdict}."
            )
        if not len(changes):
            out.append("No pair changes order between the fields.")
    for field in fields:
        ranking = rankings[field]
        best = ranking.iloc[0]
        text = (
            f"Against {field}: {best['strategy']} ranks first with "
            f"{_interval(best, 'mean_total')} points per game and a win share of "
            f"{_interval(best, 'win_share')}"
        )
        mine = claims[claims["field"] == field] if len(claims) else claims
        if len(mine):
            lead = mine.iloc[0]
            text += f"; its lead over {lead['b']} is {_claim_text(lead, correction)}"
        out.append(text + ".")
        if len(ranking) > 1:
            last = ranking.iloc[-1]
            out.append(
                f"Against {field}: {last['strategy']} ranks last with "
                f"{_interval(last, 'mean_total')} points per game."
            )
        if len(mine):
            firm = mine[mine["established"]]
            weak = mine[~mine["established"]]
            text = (
                f"Against {field}, {len(firm)} of the {len(mine)} steps of the ranking (each "
                f"entry beats the next) survive {correction} and confirm at the second seed"
            )
            if len(weak):
                text += "; not established: " + "; ".join(
                    f"{r['a']} beats {r['b']} by {_claim_text(r, correction)}"
                    for _, r in weak.iterrows()
                )
            out.append(text + ".")
    if len(family):
        field_part = family[family["field"] == fields[0]]
        resolved = int(field_part["established"].sum())
        out.append(
            f"Against {fields[0]}, {resolved} of {len(field_part)} pairwise differences are "
            f"established (survive {correction} and confirm at the second seed)."
        )
    merged = [g for g in groups if len(g) > 1]
    for group in merged:
        out.append(
            f"{' and '.join(group)} make the same bids and plays on every deal they both "
            f"played, in every field: one ladder entry, '{entry_name(group)}', counted once "
            "in the pairwise family."
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
    takes_strategies=True,
    check_games=check_games,
    confirmation_games=confirmation_games,
)
