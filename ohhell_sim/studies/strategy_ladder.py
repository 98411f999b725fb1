"""Study ``strategy_ladder``: every built-in strategy ranked on the same cards, in several fields.

Each strategy in turn, the *challenger*, takes one seat against a *field* (one strategy
of :data:`ohhell_sim.studies.design.FIELDS` in the other seats) in a duplicate tournament
(:func:`ohhell_sim.tournament`); all share the seed, so challengers are paired on the deal
set.  Identical challengers are merged (:func:`identical_groups`); the pairwise family is
Holm-adjusted and confirmed at another seed (:func:`confirmed_family`).  Each challenger's
one-card scores are set beside :func:`ohhell_sim.exact.solve_one_card`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations, pairwise

import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import BETWEEN_FIELDS, between_fields
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row, fmt_span
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
from ohhell_sim.studies.family import CORRECTION, confirm_family, correct
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
SLOW = ("mc_bidder", "pimc", "bayes_pimc", "adaptive_pimc", "guided_pimc")
#: One-card games per challenger, per game of its gauntlet: a one-card deal is cheap.
ONE_CARD_FACTOR = 10
#: Joins the names of identical challengers into the name of their ladder entry.
SAME = " = "
#: Columns identifying a row of the pairwise family, in the run and in its confirmation.
PAIR_KEYS = ("field", "a", "b")
#: What identical challengers must agree on, row by row (one row per game x rotation x seat).
DECISIONS = ("bids", "tricks", "total")
ONE_CARD_FIELD = "none (challenger in every seat)"


def confirmation_games(games: int, players: tuple[int, ...]) -> int:
    """Games of the confirmation run: half of ``games``, a whole number of rotations."""
    return max(2 * players[0], games // 2 // players[0] * players[0])


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


def deal_records(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (rotation, game, seat) of tournament hands: ``bids``, ``tricks`` in deal order, "1,0"."""
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
    """Play one duplicate gauntlet per challenger (default: every built-in) and field, on one
    seed, and each challenger's one-card deals in every seat; bad arguments raise first.

    Returns ``games``: the gauntlets with ``field``, ``challenger``, ``challenger_seat`` and
    :func:`deal_records`; ``hands``: the one-card deals (:func:`ohhell_sim.exact.play_one_card`).
    """
    from tqdm.auto import tqdm

    check_games(games, players)
    fields = check_fields(fields)
    n = players[0]
    if strategies is None:
        registered = available_strategies()
        strategies = tuple(name for name in registered if get_strategy(name).builtin_id is not None)
    names = tuple(strategies)
    if not names:
        raise InvalidArgumentError("strategies must name at least one strategy, got none")
    for name in names:
        get_strategy(name)
        if names.count(name) > 1:
            raise InvalidArgumentError(f"strategies names {name!r} twice, in {list(names)}")
    rules = Rules(players=n)
    one, one_games = one_card_rules(rules), games * ONE_CARD_FACTOR
    plan = [
        Condition(
            {"field": field, "challenger": name},
            rules,
            (name, *field_seats(field, n)[1:]),
            # A tenth of the deal sets, whole rotations, at least two.
            max(2 * n, games // 10 // n * n) if name in SLOW else games,
        )
        for field in fields
        for name in names
    ]
    # The challenger holds every seat of its one-card deals.
    one_plan = [
        Condition(
            {"field": ONE_CARD_FIELD, "challenger": f"{name} (one-card deals, every seat)"},
            one,
            (name,) * n,
            one_games,
        )
        for name in names
    ]
    frames, one_card = [], []
    total = sum(c.games for c in plan + one_plan)
    with tqdm(total=total, unit="game", desc=NAME, disable=not progress) as bar:
        for c in plan:
            result = tournament(rules, list(c.seats), c.games, seed, keep_hands=True)
            frame = result.games.assign(
                **c.label, challenger_seat=result.games["strategy"] == result.labels[0]
            )
            frame["strategy"] = frame["strategy"].astype(str)
            frames.append(frame.merge(deal_records(result.hands), on=["rotation", "game", "seat"]))
            bar.update(c.games)
        for c in one_plan:
            one_card.append(play_one_card(one, c.seats[:1], c.games, seed))
            bar.update(c.games)
    long = pd.concat(frames, ignore_index=True)
    # Categories in the order played, so that tables list the fields as given.
    long["field"] = pd.Categorical(long["field"], categories=list(fields))
    long["challenger"] = pd.Categorical(long["challenger"], categories=list(names))
    manifest = {
        "version": __version__,
        "seed": seed,
        "conditions": [c.describe() for c in plan + one_plan],
        "one_card": {"rules": one.to_dict(), "games": one_games},
    }
    return StudyData(pd.concat(one_card, ignore_index=True), long, manifest)


def identical_groups(long: pd.DataFrame) -> list[tuple[str, ...]]:
    """Challengers of ``long`` with the same bids and tricks deal by deal and total, seat by seat,
    on every (field, deal set, rotation) both played, in the same fields: one tuple per entry."""
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


def _alike(names: Iterable[str], same: Callable[[str, str], bool]) -> list[tuple[str, ...]]:
    """``names`` in groups, in order: each joins the first group whose first is ``same``."""
    groups: list[list[str]] = []
    for name in names:
        for group in groups:
            if same(group[0], name):
                group.append(name)
                break
        else:
            groups.append([name])
    return [tuple(group) for group in groups]


def merge_identical(
    long: pd.DataFrame, groups: list[tuple[str, ...]], column: str = "challenger"
) -> pd.DataFrame:
    """``long`` with one ``column`` value per group of :func:`identical_groups`, named by the
    group: its member with the most rows (the first on a tie) carries it, the others dropped."""
    rows = long[column].astype(str)
    counts = rows.value_counts()
    keep = {}
    for group in groups:
        carrier = max(group, key=lambda name: (counts.get(name, 0), -group.index(name)))
        keep[carrier] = SAME.join(group)
    out = long[rows.isin(keep)].copy()
    out[column] = pd.Categorical(
        out[column].astype(str).map(keep), categories=[SAME.join(g) for g in groups]
    ).remove_unused_categories()
    return out


def ladder_values(data: StudyData, groups: list[tuple[str, ...]] | None = None) -> pd.DataFrame:
    """Per (field, entry, deal set) of a run: score per game, win share, made and zero-bid rates
    over the rotations, identical challengers merged (``groups``: found in the run when None;
    the confirmation run takes the first run's, so that its entries match)."""
    long = _long(data)
    merged = merge_identical(long, identical_groups(long) if groups is None else groups)
    seats = merged[merged["challenger_seat"]]
    grouped = seats.groupby(["field", "challenger", "unit"], observed=True)
    sums = grouped[["total", "win_share", "deals", "made", "zero_bids"]].sum()
    count = grouped.size()
    return pd.DataFrame(
        {
            "mean_total": sums["total"] / count,
            "win_share": sums["win_share"] / count,
            "made_rate": sums["made"] / sums["deals"],
            "zero_bid_rate": sums["zero_bids"] / sums["deals"],
        }
    ).reset_index()


def ranking_table(values: pd.DataFrame) -> pd.DataFrame:
    """Per entry of one field, best mean score first: each measure, t interval over deal sets."""
    rows = []
    for name, group in values.groupby("challenger", observed=True):
        row = {"strategy": name, "deal_sets": len(group)}
        for measure in ("mean_total", "win_share", "made_rate", "zero_bid_rate"):
            est = mean_ci(group[measure].to_numpy())
            store_interval(row, measure, est if measure == "mean_total" else clip_rate(est))
        rows.append(row)
    table = pd.DataFrame(rows).sort_values("mean_total", ascending=False, ignore_index=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table


def pairwise_family(values: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """The declared family, Holm-adjusted: per field and pair of entries the mean score per game
    of ``a`` minus ``b`` (``a`` first in ``order``), paired on the deal sets both played, and per
    pair the test that it is the same in every field (:func:`between_fields`)."""
    rows, units = [], []
    for field, part in values.groupby("field", observed=True, sort=False):
        scores = part.pivot(index="unit", columns="challenger", values="mean_total")
        for a, b in combinations([name for name in order if name in scores], 2):
            both = scores[[a, b]].dropna()
            est = paired_difference_ci(both[a].to_numpy(), both[b].to_numpy())
            key = {"field": field, "a": a, "b": b}
            rows.append({**key, "deal_sets": len(both), **est._asdict()})
            units.append(pd.DataFrame({**key, "game": both.index, "value": both[a] - both[b]}))
    table = pd.DataFrame(rows, columns=[*PAIR_KEYS, "deal_sets", "estimate", "low", "high"])
    if table.empty:
        # One entry: no comparison, an empty family.
        return table.assign(p=[], p_adjusted=[], survives=[], correction=[]).astype(
            {"survives": bool}
        )
    tests = between_fields(pd.concat(units, ignore_index=True), keys=["a", "b"])
    parts = [table, tests] if len(tests) else [table]
    return correct(pd.concat(parts, ignore_index=True))


def confirmed_family(
    data: StudyData, values: pd.DataFrame, order: list[str], groups: list[tuple[str, ...]]
) -> pd.DataFrame:
    """:func:`pairwise_family` of the run, its surviving rows checked in the confirmation run,
    whose pairs keep the first run's ``order``: claims chosen on its cards meet fresh ones."""

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
    fields = [str(f) for f in pd.unique(long["field"])]
    return long.assign(field=pd.Categorical(long["field"].astype(str), categories=fields))


def flipped(row: pd.Series) -> pd.Series:
    """A confirmed pair row read the other way round: ``b`` minus ``a``."""
    out = row.copy()
    out["a"], out["b"] = row["b"], row["a"]
    for prefix in ("", "confirm_"):
        out[f"{prefix}estimate"] = -row[f"{prefix}estimate"]
        out[f"{prefix}low"], out[f"{prefix}high"] = -row[f"{prefix}high"], -row[f"{prefix}low"]
    return out


def ranking_claims(family: pd.DataFrame, rankings: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The family rows "a beats b": each entry against the next one down in its field's ranking."""
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


def analyse(data: StudyData) -> Report:
    """The report of a ``strategy_ladder`` run, every number computed from ``data``."""
    groups = identical_groups(_long(data))
    values = ladder_values(data, groups)
    fields = [str(f) for f in pd.unique(values["field"])]
    rankings = {field: ranking_table(values[values["field"] == field]) for field in fields}
    order = rankings[fields[0]]["strategy"].tolist()
    family = confirmed_family(data, values, order, groups)
    correction = family["correction"].iloc[0] if len(family) else f"{CORRECTION} over 0"
    claims = ranking_claims(family, rankings) if len(family) else family
    ranked = pd.concat([r.assign(field=f) for f, r in rankings.items()], ignore_index=True)
    method = [
        "Each strategy plays a duplicate tournament in one seat against a field (one "
        "strategy in the other seats): every deal set once per rotation of the seats, all on "
        f"the same seed, hence the same cards. Fields: {', '.join(fields)}. The Monte Carlo "
        f"strategies ({', '.join(SLOW)}) play a tenth of the deal sets. A strategy's value on "
        "a deal set is its mean over the rotations; rankings get Student-t intervals over "
        "deal sets; pairwise differences are paired on the deal sets both played.",
        "Challengers with the same bids, tricks and total, seat by seat and deal by deal, on "
        "every game of every field both played are one entry, 'a = b'.",
        f"One comparison family, Holm-adjusted ({correction}, family-wise level 0.05): every "
        f"pair of the {len(order)} entries in every field, and per pair a Wald test that its "
        "difference is the same in every field (paired across fields, which play the same "
        "cards). p-values come from the paired intervals (normal approximation).",
        confirmation_method(
            data.manifest.get("confirmation") or {},
            "the whole ladder is played again, its pairs in the order of the first run's ranking,",
            "games per gauntlet (the Monte Carlo strategies their share)",
        ),
        "Established ('*'): survives the correction and confirms. A pair changes order when "
        "its estimate's sign differs between fields, resolved when established both ways.",
    ]
    in_short, findings = _words(rankings, family, claims, groups, data.manifest)
    tables = [
        Table(
            "Ranking per field (best mean score first)",
            display_table(ranked.set_index("field")),
            "mean_total: points per game; 95% CI over deal sets.",
        ),
        Table(
            "Headline ranking claims: each entry against the next one down",
            pd.DataFrame(
                {
                    "field": claims["field"],
                    "claim": claims["a"] + " beats " + claims["b"],
                    "points per game [95% CI]": [fmt_row(r, 2) for _, r in claims.iterrows()],
                    "p (adjusted)": claims["p_adjusted"].map(fmt_p),
                    f"survives {correction}": claims["survives"].map({True: "yes", False: "no"}),
                    "confirmation": [confirmation_cell(r, 2) for _, r in claims.iterrows()],
                }
            ),
            "Rows of the pairwise family; confirmation: the pair at the second seed.",
        ),
    ]
    # The pairwise table: a row per pair, its cells per field, then its test between fields.
    tests = {(r["a"], r["b"]): r for _, r in family[family["field"] == BETWEEN_FIELDS].iterrows()}
    rows = []
    for (a, b), part in family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False):
        cells = {row["field"]: _marked(row) for _, row in part.iterrows()}
        row = {"a": a, "b": b, **{field: cells.get(field, "n/a") for field in fields}}
        if (test := tests.get((a, b))) is not None:
            row["spread between fields"] = fmt_number(test["estimate"], 2)
            row["W"] = fmt_number(test["q"], 1)
            row["fields differ: p (adjusted)"] = fmt_p(test["p_adjusted"])
            row["fields differ: confirmation"] = test["confirmation"]
        rows.append(row)
    title = "Pairwise: mean score per game of a minus b per field, and whether the fields differ"
    note = (
        "95% CI paired on the deal sets both played; * established. Spread: the highest field's "
        "estimate minus the lowest's; W: Wald statistic, chi-squared with fields - 1 df."
    )
    tables.append(Table(f"{title} ({correction})", pd.DataFrame(rows), note))
    # Output written before the one-card runs existed has no such section.
    if "one_card" in data.manifest and len(data.hands):
        # Identical in the gauntlets, a group's members are identical in one-card deals.
        one_hands = merge_identical(data.hands, groups, "strategy").astype({"strategy": str})
        line, more, table = exact_one_card_section(one_hands, data.manifest["one_card"])
        method.append(line)
        findings += more
        tables.append(table)
    bounds = {"mean_total": "estimate", "mean_total_low": "low", "mean_total_high": "high"}
    plot = interval_plot(
        ranked.rename(columns=bounds),
        "strategy",
        series="field" if len(fields) > 1 else None,
        title="Score per game against each field",
        xlabel="strategy",
        ylabel="points per game",
        order=order,
    )
    figure = Figure("ladder_ranking.png", "Mean score per game of each strategy, per field", plot)
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, [figure], in_short=in_short
    )


def one_card_twins(hands: pd.DataFrame) -> list[tuple[str, ...]]:
    """Groups of two or more strategies with the same one-card bids and scores in every deal."""
    columns = ["game", "seat", "bid", "score"]
    tables = {
        str(name): part.sort_values(["game", "seat"])[columns].reset_index(drop=True)
        for name, part in hands.groupby("strategy", observed=True, sort=False)
    }
    groups = _alike(tables, lambda first, name: tables[first].equals(tables[name]))
    return [group for group in groups if len(group) > 1]


def exact_one_card_section(hands: pd.DataFrame, one_card: dict) -> tuple[str, list[str], Table]:
    """Section "Exact one-card play" (method line, findings, table): each entry's one-card score
    per bidding position beside the exact values; ``one_card``: the manifest's record."""
    rules = Rules.from_dict(one_card["rules"])
    solution = solve_one_card(rules)
    n = rules.players
    by_role = {position_role(p, n): fmt_number(v) for p, v in enumerate(solution.expected_score)}
    # Averages over seats: each game's seats averaged, a t interval over games.
    groups = {"before the dealer": np.arange(n - 1), "table mean": np.arange(n)}
    exact = {k: float(solution.expected_score[v].mean()) for k, v in groups.items()}
    rows = [{"strategy": "exact", **by_role} | {k: fmt_number(v) for k, v in exact.items()}]
    rows[0]["dealer restricted"] = fmt_number(solution.hook_rate)
    before, dealer_above = {}, []
    for name, group in regret_table(solution, hands).groupby("strategy", sort=False):
        row = {"strategy": name, **{r["role"]: fmt_row(r) for _, r in group.iterrows()}}
        if group["regret_high"].iloc[-1] < 0:
            dealer_above.append(name)
        played = hands[hands["strategy"] == name]
        for key, positions in groups.items():
            seats = played[played["position"].isin(positions)]
            row[key] = mean_ci(seats.groupby("game")["score"].mean().to_numpy())._asdict()
        before[name] = row["before the dealer"]
        row |= {key: fmt_row(row[key]) for key in groups}
        # The hook forbids the dealer a bid when the bids before it total 0 or 1.
        bids = played[played["position"] < n - 1].groupby("game")["bid"].sum().to_numpy()
        restricted = forbidden_bid_array(1, bids, rules) >= 0
        share = proportion_ci(int(restricted.sum()), len(restricted))
        row["dealer restricted"] = fmt_row(share._asdict())
        rows.append(row)
    table = Table(
        "Exact one-card play: points per deal by bidding position",
        pd.DataFrame(rows),
        "Row exact: the solved policy in every seat. Positions count from the dealer's left.",
    )
    method = (
        f"Exact one-card play: {one_card['games']} one-card deals ({n} players, the canonical "
        f"profile but {rules_text(one_card['rules'])}) per strategy, in every seat, on the same "
        "cards; Student-t intervals over the games. The exact values (ohhell_sim.exact."
        "solve_one_card): each position bids its best given its card, the turned-up card and "
        "the earlier bids read through the solved policy; the hook binds the dealer (bids last)."
    )
    ranked = sorted(before, key=lambda name: exact["before the dealer"] - before[name]["estimate"])
    best, worst = ranked[0], ranked[-1]
    findings = [
        "Exact one-card play: the solved policy scores "
        + ", ".join(f"{role} {text}" for role, text in by_role.items())
        + f" points per deal, {fmt_number(exact['table mean'])} per seat on average.",
        f"Before the dealer, {best} comes closest to the exact "
        f"{fmt_number(exact['before the dealer'])} points per deal per seat, with "
        + fmt_row(before[best])
        + (f"; {worst} is furthest, {fmt_row(before[worst])}." if worst != best else ".")
        + f" {len(dealer_above)} of {len(before)} strategies' dealers score more than the exact "
        "dealer (their earlier seats bid otherwise); the solved policy's bids forbid the dealer "
        f"a bid in {fmt_number(solution.hook_rate)} of deals.",
    ] + [
        f"{' and '.join(twins)} make the same bids in every one-card deal (no card to choose) "
        "but not in the gauntlets, so they stay separate entries."
        for twins in one_card_twins(hands)
    ]
    return method, findings, table


def _words(
    rankings: dict[str, pd.DataFrame],
    family: pd.DataFrame,
    claims: pd.DataFrame,
    groups: list[tuple[str, ...]],
    manifest: dict,
) -> tuple[list[str], list[str]]:
    """The In short (who is best, by how much, whether the field changes it) and the findings."""
    fields, changes = list(rankings), order_changes(family)
    firsts = {field: ranking.iloc[0] for field, ranking in rankings.items()}
    names = {str(row["strategy"]) for row in firsts.values()}
    leads = claims.groupby("field", sort=False).head(1)
    settled = len(leads) == len(fields) and leads["established"].all()
    if len(names) == 1:
        best = f"{names.pop()} {'plays best' if settled else 'ranks first'} against every field"
    else:
        best = "The best strategy depends on the field: " + ", ".join(
            f"{row['strategy']} against {field}" for field, row in firsts.items()
        )
    opponents = int(manifest.get("players", DEFAULT_PLAYERS)[0]) - 1
    text = [
        f"{best}, scoring {fmt_span([row['mean_total'] for row in firsts.values()])} points per "
        f"game by field (its one seat against {opponents} of the field's)."
    ]
    if len(claims):
        steps = [
            f"{int(part['established'].sum())} of {len(part)} against {field}"
            for field, part in claims.groupby("field", sort=False)
        ]
        confirmed = (manifest.get("confirmation") or {}).get("games")
        text.append(
            f"The lead over the runner-up ({', '.join(pd.unique(leads['b']))}) is "
            f"{fmt_span(leads['estimate'], 2)} points per game (established against "
            f"{int(leads['established'].sum())} of {len(leads)} fields). Of the ranking's steps "
            "(each entry ahead of the next), " + ", ".join(steps) + " are established "
            "(surviving one correction over all comparisons"
            + (" and confirmed at a second seed)." if confirmed else "; no confirmation run).")
        )
    pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
    between = family[family["field"] == BETWEEN_FIELDS]
    findings = []
    if len(fields) > 1 and len(family):
        resolved, sized = int(changes["resolved"].sum()), int(between["established"].sum())
        order = (
            f"{len(changes)} pairs change order between fields ({resolved} established both "
            "ways; the findings name them)"
            if len(changes)
            else "No pair changes order between the fields"
        )
        sizes = ": the field changes the size of the leads more often than the order."
        text.append(
            f"Does the field matter? {order}; a pair's difference depends on the field for "
            f"{sized} of {len(between)} pairs" + (sizes if sized > resolved else ".")
        )
        held = sum(
            bool(part["established"].all() and _signs(part) == 1) and len(part) == len(fields)
            for _, part in pairs
        )
        findings.append(
            f"{held} of {pairs.ngroups} pairs are established in the same direction in every field."
        )
    for _, c in changes.iterrows():
        where = "; ".join(f"against {r['field']} {_marked(r)}" for _, r in c["fields"].iterrows())
        findings.append(
            f"The order of {c['a']} and {c['b']} depends on the field ({c['a']} minus "
            f"{c['b']}: {where}): "
            + ("resolved." if c["resolved"] else "not resolved in both directions.")
        )
    for field, ranking in rankings.items():
        shown = display_table(ranking)
        first, last = shown.iloc[0], shown.iloc[-1]
        line = (
            f"Against {field}: {first['strategy']} ranks first with {first['mean_total']} "
            f"points per game (win share {first['win_share']})"
        )
        if len(ranking) > 1:
            line += f" and {last['strategy']} last with {last['mean_total']}"
        weak = claims[(claims["field"] == field) & ~claims["established"]]
        if len(weak):
            line += "; ranking steps not established: " + "; ".join(
                f"{r['a']} beats {r['b']} by {fmt_row(r, 2)}" for _, r in weak.iterrows()
            )
        findings.append(line + ".")
    findings += [
        f"{' and '.join(group)} make the same bids and plays on every deal they both played, "
        f"in every field: one ladder entry, '{SAME.join(group)}', counted once in the family."
        for group in groups
        if len(group) > 1
    ]
    return text, findings


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
