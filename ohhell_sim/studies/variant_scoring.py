"""Study ``variant_scoring``: what each scoring table does to bids, rankings and games,
each compared with the canonical table on the same cards, in several strategy fields."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim import strategies
from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    FIELD_VERDICT_NOTE,
    HOLDS_EVERYWHERE,
    SOME_FIELDS,
    adjust_parts,
    between_fields,
    column_variance_share,
    equal_statistics_test,
    field_verdicts,
    replicate,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p, fmt_span
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    bootstrap_matrix,
    bootstrap_matrix_difference,
    estimate_frame,
    grouped_mean,
    mean_ci,
    paired_by_game,
    per_game_difference,
    standardised_mean,
)
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import (
    FIELDS,
    MIX_FIELD,
    STANDARDISED,
    check_fields,
    field_seats,
    games_to_be_ahead,
)
from ohhell_sim.studies.family import CORRECTION, confirm_family
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "variant_scoring"
QUESTION = (
    "How do the scoring tables change bids, rankings and decisiveness, "
    "in fields of players that do and do not re-optimise for the table?"
)
DEFAULT_GAMES = 2000
DEFAULT_PLAYERS = (4,)
BASELINE = "canonical"

#: Scoring variant name -> (preset, overrides).
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    BASELINE: ("canonical", {}),
    "made=10*bid": ("canonical", {"made": "10*bid"}),
    "made=10+bid^2": ("canonical", {"made": "10+bid^2"}),
    "made=10+2*bid": ("canonical", {"made": "10+2*bid"}),
    "made=5+bid": ("canonical", {"made": "5+bid"}),
    "zero=5": ("canonical", {"zero": "5"}),
    "zero=5+cards": ("canonical", {"zero": "5+cards"}),
    "zero=10+cards": ("canonical", {"zero": "10+cards"}),
    "miss=-10*diff (penalty)": ("canonical", {"over": "-10*diff", "under": "-10*diff"}),
    "miss=-diff": ("canonical", {"over": "-diff", "under": "-diff"}),
    "miss=-diff^2": ("canonical", {"over": "-diff^2", "under": "-diff^2"}),
    "all_bonus=10": ("canonical", {"all_bonus": 10}),
    "double_all": ("canonical", {"double_all": True}),
    "online preset": ("online", {}),
    "openspiel preset": ("openspiel", {}),
}

#: The study's own mixed field: players that all bid for the active scoring table, in turn.
MAXIMISER_MIX = "maximiser_mix"
MAXIMISER_MIX_STRATEGIES = ("distilled", "mc_bidder", "learned")
KNOWN_FIELDS = (*FIELDS, MAXIMISER_MIX)
DEFAULT_FIELDS = KNOWN_FIELDS
#: Bootstrap resamples of a skill share: enough to resolve the p-values that Holm over
#: the report's family asks for (p < 0.05 / m needs more than m / 0.05 resamples).
SKILL_RESAMPLES = 2000
FIELD_SHARES = {"mc_bidder": 0.6}

#: Built-ins whose bid reads the scoring tables (``Strategy.reads_scoring``), and the others.
SCORE_AWARE_BIDDERS = tuple(s.name for s in strategies.BUILTINS if s.reads_scoring)
SCORE_BLIND_BIDDERS = tuple(s.name for s in strategies.BUILTINS if not s.reads_scoring)

BID_COLUMNS = {"bid": "mean bid", "zero": "zero-bid rate"}
BID_MEASURES = tuple(BID_COLUMNS.values())
BID_EFFECT = "bid shift of score-maximising players"
LEADER, STRONGER, SKILL = "leader's win share", "stronger seat ahead", "skill share of totals"
CONDITION_KEYS = ["players", "field", "variant"]
INTERVAL = ["estimate", "low", "high"]


def study_field_seats(field: str, players: int) -> tuple:
    """The seats of ``field`` at a table of ``players``; :data:`MAXIMISER_MIX` seats
    :data:`MAXIMISER_MIX_STRATEGIES` in turn."""
    if field != MAXIMISER_MIX:
        return field_seats(field, players)
    names = (MAXIMISER_MIX_STRATEGIES[i % len(MAXIMISER_MIX_STRATEGIES)] for i in range(players))
    return tuple(field_seats(name, 1)[0] for name in names)


def variant_rules(players: int) -> dict[str, Rules]:
    """Every scoring variant's rules at ``players``; variants whose :meth:`Rules.to_dict` are
    equal are one, named by their names joined with ``" = "`` in :data:`VARIANTS` order."""
    merged: dict[str, tuple[list[str], Rules]] = {}
    for name, (preset, overrides) in VARIANTS.items():
        rules = Rules.preset(preset, players=players, **overrides)
        key = repr(sorted(rules.to_dict().items()))
        merged.setdefault(key, ([], rules))[0].append(name)
    return {" = ".join(names): rules for names, rules in merged.values()}


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = DEFAULT_FIELDS
) -> list[Condition]:
    """Every distinct scoring variant in every field at every table size."""
    fields = check_fields(fields, KNOWN_FIELDS)
    return [
        Condition(
            {"players": n, "field": field, "variant": name},
            rules,
            study_field_seats(field, n),
            SPEC.field_games(field, games),
        )
        for n in players
        for field in fields
        for name, rules in variant_rules(n).items()
    ]


# --- per-game frames ---------------------------------------------------------------


def _strings(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """``frame`` with the labels in ``columns`` as plain strings (not categories)."""
    return frame.assign(**{column: frame[column].astype(str) for column in columns})


def per_game_bids(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, variant, strategy, game): mean bid and zero-bid rate."""
    keys = [*CONDITION_KEYS, "strategy", "game"]
    bids = hands["bid"].to_numpy()
    frame = hands[keys].assign(bid=bids.astype(np.float64), zero=(bids == 0).astype(np.float64))
    means = frame.groupby(keys, observed=True, sort=True)[["bid", "zero"]].mean().reset_index()
    return _strings(means, "field", "variant", "strategy")


def halftime_decisiveness(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per (players, field, variant, game): the mean final win share of the seats with the
    highest total after the first ``n_deals // 2`` deals."""
    keys = [*CONDITION_KEYS, "game"]
    n_deals = hands.groupby("condition", observed=True)["deal"].transform("max") + 1
    half = hands["deal"] < n_deals // 2
    totals = hands[half].groupby([*keys, "seat"], observed=True)["score"].sum()
    leading = totals == totals.groupby(level=keys, observed=True).transform("max")
    share = games.set_index([*keys, "seat"])["win_share"]
    leaders = share[leading[leading].index]
    decisive = leaders.groupby(level=keys, observed=True).mean().rename("decisive").reset_index()
    return _strings(decisive, "field", "variant")


def _mixed_blocks(games: pd.DataFrame) -> dict[tuple, tuple[np.ndarray, ...]]:
    """Per mixed condition: its totals (games x seats), seats' strategies and games."""
    blocks = {}
    for _, block in games.groupby("condition", observed=True, sort=True):
        if block["strategy"].nunique() > 1:
            block = block.sort_values(["game", "seat"])
            seats = int(block["seat"].max()) + 1
            totals = block["total"].to_numpy(np.float64).reshape(-1, seats)
            strategies = block["strategy"].astype(str).to_numpy()[:seats]
            key = tuple(block.iloc[0][k] for k in CONDITION_KEYS)
            blocks[key] = (totals, strategies, block["game"].to_numpy()[::seats])
    return blocks


def _better_pairs(totals: np.ndarray, strategies: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Totals of pairs of seats of different strategies: the stronger one's, the other's."""
    mean = {s: totals[:, strategies == s].mean() for s in set(strategies)}
    pairs = [
        (i, j) if mean[strategies[i]] >= mean[strategies[j]] else (j, i)
        for i, j in itertools.combinations(range(len(strategies)), 2)
        if strategies[i] != strategies[j]
    ]
    return totals[:, [p[0] for p in pairs]], totals[:, [p[1] for p in pairs]]


def better_seat_wins(games: pd.DataFrame) -> pd.DataFrame:
    """Per mixed (players, field, variant, game): how often the stronger strategy's seat
    finishes ahead of another strategy's (ties half)."""
    columns, parts = [*CONDITION_KEYS, "game", "better_wins"], []
    for key, (totals, seated, played) in _mixed_blocks(games).items():
        strong, weak = _better_pairs(totals, seated)
        wins = ((strong > weak) + 0.5 * (strong == weak)).mean(axis=1)
        frame = pd.DataFrame({"game": played, "better_wins": wins})
        parts.append(frame.assign(**dict(zip(CONDITION_KEYS, key, strict=True)))[columns])
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def games_ahead(games: pd.DataFrame) -> pd.DataFrame:
    """Per mixed condition: :func:`~ohhell_sim.studies.design.games_to_be_ahead` of the
    stronger strategy's seat over another's."""
    rows = []
    for key, (totals, seated, _) in _mixed_blocks(games).items():
        strong, weak = _better_pairs(totals, seated)
        lead = (strong - weak).ravel()
        ahead = games_to_be_ahead(lead.mean(), lead.std(ddof=1)) if lead.size > 1 else np.nan
        rows.append({**dict(zip(CONDITION_KEYS, key, strict=True)), "games_ahead": float(ahead)})
    return pd.DataFrame(rows, columns=[*CONDITION_KEYS, "games_ahead"])


def skill_shares(games: pd.DataFrame, resamples: int = SKILL_RESAMPLES) -> pd.DataFrame:
    """Per mixed condition: the variance share of final totals by strategy, bootstrapped."""
    rows = []
    for key, (totals, seated, _) in _mixed_blocks(games).items():
        if totals.shape[0] > 1:
            est = bootstrap_matrix(totals, column_variance_share(seated), resamples=resamples)
            rows.append({**dict(zip(CONDITION_KEYS, key, strict=True)), **est.row()})
    return estimate_frame(rows, CONDITION_KEYS)


def skill_share_shifts(
    games: pd.DataFrame,
    leaders: dict[tuple, tuple[str, str]] | None = None,
    resamples: int = SKILL_RESAMPLES,
) -> pd.DataFrame:
    """Skill share of one table minus another's on the same games (paired bootstrap): each
    variant minus the canonical, or the pairs of ``leaders`` (with ``runner_up``)."""
    blocks, tested = _mixed_blocks(games), leaders is not None
    if not tested:
        leaders = {k: (k[2], BASELINE) for k in blocks if k[2] != BASELINE}
    rows = []
    for key, (first, second) in leaders.items():
        one, two = blocks.get((*key[:2], first)), blocks.get((*key[:2], second))
        if one is None or two is None or len(one[0]) < 2 or one[0].shape != two[0].shape:
            continue
        share = column_variance_share(one[1])
        est = bootstrap_matrix_difference(one[0], two[0], share, resamples=resamples)
        names = {"players": key[0], "field": key[1], "variant": first, "runner_up": second}
        rows.append(names | est.row())
    table = estimate_frame(rows, [*CONDITION_KEYS, "runner_up"])
    return table if tested else table.drop(columns="runner_up")


def skill_leaders(shares: pd.DataFrame) -> dict[tuple, tuple[str, str]]:
    """Per (players, mixed field): the two tables of highest skill share."""
    return {
        key: tuple(part.sort_values("estimate", ascending=False, kind="stable")["variant"][:2])
        for key, part in shares.dropna(subset=["estimate"]).groupby(CONDITION_KEYS[:2], sort=False)
        if len(part) > 1
    }


# --- comparisons against the canonical table ------------------------------------------


def _shifts(
    frame: pd.DataFrame,
    column: str,
    by: Sequence[str],
    variants: Sequence[str],
    per_game: bool = False,
) -> pd.DataFrame:
    """``column`` under each variant minus the canonical, paired by game: its mean and
    interval, or with ``per_game`` each game's difference as ``value``."""
    keys = ["players", "field", *by]
    present = set(frame["variant"]) if len(frame) else set()
    names = [v for v in variants if v != BASELINE and v in present and BASELINE in present]
    how = per_game_difference if per_game else paired_by_game
    parts = [
        how(frame, frame[column], "variant", v, BASELINE, keys).assign(variant=v) for v in names
    ]
    if per_game:
        empty = pd.DataFrame(columns=[*keys, "game", "value", "variant"])
        return pd.concat(parts, ignore_index=True) if parts else empty
    if not parts:
        return estimate_frame([], [*CONDITION_KEYS, *by])
    return pd.concat(parts, ignore_index=True)[[*CONDITION_KEYS, *by, *INTERVAL, "n", "method"]]


def skill_share_tests(
    mixed_games: pd.DataFrame, resamples: int = SKILL_RESAMPLES, seed: int = 0
) -> pd.DataFrame:
    """Per (players, variant): the test that the skill share's shift is equal in every mixed
    field, by one bootstrap of their shared games."""
    blocks = _mixed_blocks(mixed_games)
    rows = []
    for n, variant in dict.fromkeys((k[0], k[2]) for k in blocks if k[2] != BASELINE):
        fields = [k[1] for k in blocks if k[::2] == (n, variant) and (n, k[1], BASELINE) in blocks]
        pairs = [(blocks[(n, f, variant)], blocks[(n, f, BASELINE)][0]) for f in fields]
        games = min((t.shape[0] for (t, _, _), _ in pairs), default=0)
        if len(pairs) < 2 or games < 2:
            continue
        shares = [(t, b, column_variance_share(seated)) for (t, seated, _), b in pairs]
        shifts = [lambda rows, t=t, b=b, f=f: f(t[rows]) - f(b[rows]) for t, b, f in shares]
        test = equal_statistics_test(shifts, games, resamples, seed)
        test |= {"players": n, "variant": variant, "n": test["fields"], "estimate": test["spread"]}
        shown = ("players", "variant", "n", "estimate", "low", "high", "p", "q", "i_squared")
        rows.append({k: test.get(k, np.nan) for k in shown} | {"measure": SKILL})
    return pd.DataFrame(rows)


def between_field_tests(frames: dict[str, pd.DataFrame], variants: Sequence[str]) -> pd.DataFrame:
    """Per (players, measure, variant): the test that the shift is equal in every field
    (bids: for every score-maximising player), from :func:`family_parts`' ``frames``."""
    bids = [(frames["bids"], c, ["strategy"], measure) for c, measure in BID_COLUMNS.items()]
    jobs = [*bids, (frames["decisive"], "decisive", [], LEADER)]
    jobs.append((frames["better"], "better_wins", [], STRONGER))
    tests = []
    for frame, column, by, measure in jobs:
        if not len(frame):
            continue
        values = _shifts(frame, column, by, variants, per_game=True)
        if by:
            values["field"] = values["strategy"].astype(str) + " in " + values["field"].astype(str)
        tests.append(between_fields(values, ["players", "variant"]).assign(measure=measure))
    if len(frames["mixed_games"]):
        tests.append(skill_share_tests(frames["mixed_games"]))
    tests = [t for t in tests if len(t)]
    if not tests:
        return pd.DataFrame()
    return pd.concat(tests, ignore_index=True).drop(columns="field", errors="ignore")


def bid_shifts(per_game: pd.DataFrame, variants: Sequence[str]) -> pd.DataFrame:
    """Bid shifts from the canonical table per strategy and field, and pooled over them
    (:data:`~ohhell_sim.studies.design.STANDARDISED`), each weighing the same."""
    players = per_game.assign(player=per_game["strategy"] + " in " + per_game["field"])
    tables = [
        _shifts(per_game, column, ["strategy"], variants).assign(measure=measure)
        for column, measure in BID_COLUMNS.items()
    ]
    for (column, measure), name in itertools.product(BID_COLUMNS.items(), variants):
        if name != BASELINE:
            keys = ["players", "player"]
            diffs = per_game_difference(players, players[column], "variant", name, BASELINE, keys)
            pooled = standardised_mean(diffs, diffs["value"], ["players"], "player")
            tables.append(pooled.assign(variant=name, measure=measure, field=STANDARDISED))
    table = pd.concat(tables, ignore_index=True)
    return table.assign(strategy=table["strategy"].fillna("score-maximising players"))


def ranking_gaps(games: pd.DataFrame, canonical: bool = False) -> pd.DataFrame:
    """Per mixed field, variant (``canonical``: the canonical only) and pair ``a - b``
    adjacent in the canonical win-share order: their per-game win-share difference."""
    rows = []
    for (n, field), part in games.groupby(["players", "field"], observed=True, sort=False):
        base = part[part["variant"] == BASELINE]
        if part["strategy"].nunique() < 2 or base.empty:
            continue
        wins = base.groupby("strategy", observed=True)["win_share"].mean()
        order = wins.sort_values(ascending=False, kind="stable").index.astype(str).tolist()
        for variant, block in part.groupby("variant", observed=True, sort=False):
            if (variant == BASELINE) != canonical:
                continue
            per_game = block.pivot_table(
                index="game", columns="strategy", values="win_share", observed=True
            )
            for a, b in itertools.pairwise(order):
                est = mean_ci((per_game[a] - per_game[b]).to_numpy())
                key = {"players": n, "field": field, "variant": variant, "pair": f"{a} - {b}"}
                rows.append({**key, **est.row()})
    return estimate_frame(rows, [*CONDITION_KEYS, "pair"])


def _wide(table: pd.DataFrame, name: str, keys: Sequence[str] = CONDITION_KEYS) -> pd.DataFrame:
    """The ``keys`` of an estimate table and its interval, named :func:`_triple` of ``name``."""
    columns = dict(zip(INTERVAL, _triple(name), strict=True))
    return table.rename(columns=columns)[[*keys, *_triple(name)]]


def _triple(*names: str) -> list[str]:
    """Each name's ``name``, ``name_low`` and ``name_high``."""
    return [c for name in names for c in (name, f"{name}_low", f"{name}_high")]


def rankings(mixed_games: pd.DataFrame) -> pd.DataFrame:
    """Per condition of a mixed field: win share and mean total per strategy."""
    keys = [*CONDITION_KEYS, "strategy"]
    wins = grouped_mean(mixed_games, mixed_games["win_share"], keys, bounded=True)
    totals = grouped_mean(mixed_games, mixed_games["total"], keys)
    return _wide(wins, "win_share", keys).join(_wide(totals, "mean_total", []))


# --- the analysis ---------------------------------------------------------------------


def _ordered(frame: pd.DataFrame, names: Sequence[str], fields: Sequence[str]) -> pd.DataFrame:
    """``frame`` sorted by table size, then by field and variant in the orders given."""
    ranks = {k: {v: i for i, v in enumerate(o)} for k, o in (("field", fields), ("variant", names))}
    keys = [c for c in CONDITION_KEYS if c in frame.columns]
    frame = frame.sort_values(
        keys, key=lambda c: c.map(ranks[c.name]) if c.name in ranks else c, kind="stable"
    )
    return frame.reset_index(drop=True)


def _verdicts(table: pd.DataFrame, field: str, between: pd.DataFrame) -> pd.DataFrame:
    """Per effect (players, measure, variant), whether it holds in every ``field``, by
    ``between``'s tests where there are some."""
    keys = ["players", "measure", "variant"]
    tested = table["measure"].isin(set(between["measure"]) if len(between) else set())
    parts = []
    if tested.any():
        parts.append(verdicts_across_fields(table[tested], between, keys, field=field))
    if (~tested).any():
        parts.append(field_verdicts(table[~tested], keys, field=field))
    grouped = table.groupby(keys, observed=True, sort=False)
    found, rows = grouped["established"].sum(), grouped["established"].size()
    counts = pd.DataFrame(
        {
            # An effect resolved on both sides of zero in different fields.
            "opposite": (grouped["low"].max() > 0) & (grouped["high"].min() < 0),
            "established_in": [f"{int(s)} of {int(z)}" for s, z in zip(found, rows, strict=True)],
            "headline": found == rows,
        }
    )
    verdicts = pd.concat(parts, ignore_index=True).merge(counts.reset_index(), on=keys, how="left")
    verdicts["headline"] &= verdicts["verdict"] == HOLDS_EVERYWHERE
    return verdicts.rename(columns={"min_field": "min_where", "max_field": "max_where"})


#: The parts of the report's one family, and the columns naming a row of each.
FAMILY_PARTS = {
    "bid shifts": [*CONDITION_KEYS, "strategy", "measure"],
    "leader": CONDITION_KEYS,
    "stronger seat": CONDITION_KEYS,
    "skill share": CONDITION_KEYS,
    "skill lead": [*CONDITION_KEYS, "runner_up"],
    "ranking gaps": [*CONDITION_KEYS, "pair"],
    "between fields": ["players", "measure", "variant"],
}


def family_parts(
    hands: pd.DataFrame,
    games: pd.DataFrame,
    names: list[str],
    leaders: dict[tuple, tuple[str, str]] | None = None,
) -> tuple[dict[str, pd.DataFrame], dict]:
    """The family's parts of one run, unadjusted, and their frames; ``leaders``: the pairs
    whose skill lead is tested (default: the run's own)."""
    games = _strings(games, "variant", "field", "strategy")
    per_game = per_game_bids(hands[hands["strategy"].isin(SCORE_AWARE_BIDDERS)])

    decisive = halftime_decisiveness(hands, games)
    mixed_games = games[
        games.groupby(["players", "field"], observed=True)["strategy"].transform("nunique") > 1
    ]
    better = better_seat_wins(mixed_games)
    frames = {"mixed_games": mixed_games, "better": better, "bids": per_game, "decisive": decisive}
    if leaders is None:
        frames["shares"] = skill_shares(mixed_games)
        leaders = skill_leaders(frames["shares"])
    jobs = {
        "bid shifts": (per_game, lambda f: bid_shifts(f, names)) if len(per_game) else None,
        "leader": (decisive, lambda f: _shifts(f, "decisive", [], names)),
        "stronger seat": (better, lambda f: _shifts(f, "better_wins", [], names)),
        "skill share": (mixed_games, skill_share_shifts),
        "skill lead": (mixed_games, lambda f: skill_share_shifts(f, leaders)),
        "ranking gaps": (mixed_games, ranking_gaps),
    }
    family = {
        name: pd.DataFrame() if job is None else replicate(*job, FAMILY_PARTS[name])
        for name, job in jobs.items()
    }
    # Tests, not estimates: not split into halves.
    family["between fields"] = between_field_tests(frames, names)
    return family, {**frames, "leaders": leaders}


def analyse(data: StudyData) -> Report:
    """The report of a ``variant_scoring`` run, every number computed from ``data``."""
    labels = [c["label"] for c in data.manifest["conditions"]]
    fields = list(dict.fromkeys(label["field"] for label in labels))
    names = list(dict.fromkeys([BASELINE, *(label["variant"] for label in labels)]))
    family, frames = family_parts(data.hands, data.games, names)

    def adjusted(run: StudyData) -> dict[str, pd.DataFrame]:
        # The confirmation tests the run's pairs of :func:`skill_leaders`.
        leaders = frames["leaders"]
        parts = family if run is data else family_parts(run.hands, run.games, names, leaders)[0]
        return adjust_parts({k: t for k, t in parts.items() if not t.empty}, CORRECTION)

    # A part with no rows is left as it is.
    confirmed = confirm_family(data, adjusted, FAMILY_PARTS)
    family = {name: confirmed.get(name, table) for name, table in family.items()}
    mixed_games, better = frames["mixed_games"], frames["better"]
    bids, between = family["bid shifts"], family["between fields"]

    levels = pd.DataFrame(columns=CONDITION_KEYS)
    if not better.empty:
        stronger = grouped_mean(better, better["better_wins"], CONDITION_KEYS, bounded=True)
        levels = _wide(stronger, "stronger_ahead").merge(games_ahead(mixed_games), how="left")
        levels = levels.merge(_wide(frames["shares"], "skill_share"), how="left")
    measures = {"leader": LEADER, "stronger seat": STRONGER, "skill share": SKILL}
    parts = [family[p].assign(measure=m) for p, m in measures.items() if not family[p].empty]
    decisiveness = pd.concat(parts, ignore_index=True)
    verdicts = [_verdicts(decisiveness, "field", between).assign(effect="decisiveness")]
    if not bids.empty:
        rows = bids[bids["field"] != STANDARDISED]
        rows = rows.assign(player=rows["strategy"] + " in " + rows["field"])
        verdicts.insert(0, _verdicts(rows, "player", between).assign(effect=BID_EFFECT))
    levels = _ordered(levels, names, fields)
    decisiveness = _ordered(decisiveness, names, fields)
    results = {
        "names": names,
        "bids": _ordered(bids, names, [*fields, STANDARDISED]) if not bids.empty else bids,
        "decisiveness": decisiveness,
        "levels": levels,
        "ranking": _ordered(rankings(mixed_games), names, fields),
        "gaps": _ordered(family["ranking gaps"], names, fields),
        "canonical_gaps": ranking_gaps(mixed_games, canonical=True),
        "skill": skill_ranking(levels, decisiveness),
        "lead": family["skill lead"],
        "between": between,
        "verdicts": _ordered(pd.concat(verdicts, ignore_index=True), names, fields),
    }
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, results),
        _findings(results),
        _tables(results),
        _figures(results),
        in_short=_in_short(results, data.manifest),
    )


def skill_ranking(levels: pd.DataFrame, decisiveness: pd.DataFrame) -> pd.DataFrame:
    """Per (players, mixed field), the tables ranked by skill share, with the family's changes."""
    if "skill_share" not in levels:
        return pd.DataFrame()
    rows = levels.dropna(subset=["skill_share"])
    for measure, prefix in ((SKILL, "skill_change"), (STRONGER, "stronger_change")):
        part = decisiveness[decisiveness["measure"] == measure]
        change = _wide(part, prefix).assign(**{f"{prefix}_established": part["established"]})
        rows = rows.merge(change, on=CONDITION_KEYS, how="left")
    rows = rows.sort_values(["players", "field", "skill_share"], ascending=[True, True, False])
    rows["rank"] = rows.groupby(["players", "field"]).cumcount() + 1
    return rows.reset_index(drop=True)


# --- the report -----------------------------------------------------------------------

VERDICT_COLUMNS = [
    *("players", "effect", "measure", "variant", "fields", "verdict"),
    *("min_estimate", "min_where", "max_estimate", "max_where"),
    *("opposite", "established_in", "headline"),
]


def _family_display(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """A family's rows for a report: the interval, the adjusted p-value, the marks."""
    if table.empty:
        return pd.DataFrame()
    shown = table[[*columns, *INTERVAL]].copy()
    shown["p_holm"] = table["p_adjusted"].map(fmt_p)
    shown["holm"] = np.where(table["survives"], "survives", "-")
    shown["confirmation"] = [confirmation_cell(r) for _, r in table.iterrows()]
    shown["halves"] = table["replication"].to_numpy()
    return display_table(shown)


def _skill_display(skill: pd.DataFrame) -> pd.DataFrame:
    """The tables ranked by skill share, each change against the canonical table marked *
    when established."""
    names = ("skill_share", "skill_change", "stronger_ahead", "stronger_change")
    keys = skill[["players", "field", "rank", "variant"]]
    shown = keys.join(display_table(skill[_triple(*names)]))
    for change in names[1::2]:
        marked = shown[change] + np.where(skill[f"{change}_established"].eq(True), " *", "")
        missing = np.where(skill["variant"] == BASELINE, "reference", "n/a")
        shown[change] = np.where(skill[change].isna(), missing, marked)
    shown["games to be ahead 95%"] = [fmt_number(g, 0) for g in skill["games_ahead"]]
    columns = ("scoring table", "skill share", "change", "stronger seat ahead", "change ")
    return shown.rename(columns=dict(zip(["variant", *names], columns, strict=True)))


def _tables(results: dict) -> list[Table]:
    """The report's tables, the ranking of the tables by skill share first."""
    skill, lead, bids, between = (results[k] for k in ("skill", "lead", "bids", "between"))
    tables = []
    if len(skill):
        title = "Which scoring table lets skill decide the game? Tables ranked by skill share"
        note = (
            "Mixed fields. Skill share: the share of the variance of final totals that the "
            "strategy explains; stronger seat ahead: how often the stronger strategy's seat "
            "finishes ahead of another strategy's (ties half); games to be ahead 95%: "
            "(1.645 sd / mean)^2 of those pairs' per-game leads. change: against the canonical "
            f"table, * when established. {MAXIMISER_MIX} "
            f"({', '.join(MAXIMISER_MIX_STRATEGIES)}) bids for the table; {MIX_FIELD}'s simple "
            "and zero ignore it."
        )
        tables.append(Table(title, _skill_display(skill), note))
    if len(lead):
        title = "Does the first table lead the second? Skill share of the first minus the second"
        shown = _family_display(lead, ["players", "field", "variant", "runner_up"])
        tables.append(
            Table(title, shown, "A table ranks first only where its lead is established.")
        )
    note = (
        f"Over the fields (bids: the score-maximising players). '{DEPENDS_ON_FIELD}' needs the "
        f"test between the fields (next table), else '{SOME_FIELDS}'; with a single field, "
        f"{FIELD_VERDICT_NOTE} opposite: 95% intervals on both sides of zero."
    )
    verdicts = display_table(results["verdicts"][VERDICT_COLUMNS])
    tables.append(Table("Verdicts across fields", verdicts, note))
    if len(between):
        shown = between[["players", "measure", "variant"]].assign(
            compared=between["n"].astype(int),
            W=[fmt_number(q, 1) for q in between["q"]],
            spread=[fmt_number(e) for e in between["estimate"]],
            **{"p (adjusted)": [fmt_p(p) for p in between["p_adjusted"]]},
            confirmation=between["confirmation"],
        )
        title = "Does a shift differ between fields? A paired test per measure and variant"
        note = (
            "compared: the score-maximising players (bids) or the fields. W: the Wald statistic "
            "of their shifts, clustered by game (skill share: one bootstrap of the shared games), "
            "chi-squared on compared - 1 degrees of freedom; spread: highest minus lowest."
        )
        tables.append(Table(title, shown, note))
    columns = ["players", "field", "strategy", "variant"]
    for measure in BID_MEASURES if len(bids) else ():
        title = f"Shift of the {measure} of score-maximising players (family: bid shifts)"
        shown = _family_display(bids[bids["measure"] == measure], columns)
        note = (
            f"Variant minus canonical, paired by game; {STANDARDISED}: each player weighs the same."
        )
        tables.append(Table(title, shown, note))
    return [
        *tables,
        Table(
            "Decisiveness against the canonical table (part of the report's one family)",
            _family_display(results["decisiveness"], ["players", "measure", "field", "variant"]),
            "Variant minus canonical on the same games; skill share: paired bootstrap.",
        ),
        Table(
            "Win share and mean final total per strategy (mixed fields)",
            display_table(results["ranking"]),
        ),
        Table(
            "Ranking gaps against the canonical order (family: ranking)",
            _family_display(results["gaps"], ["players", "field", "variant", "pair"]),
            "Win share of the first strategy minus the second's, per game, adjacent in the "
            "canonical order; a negative gap that survives is a reversal.",
        ),
    ]


def _figure(file: str, caption: str, rows: pd.DataFrame, **options) -> Figure:
    """An interval plot of ``rows`` by scoring variant, in one panel per table size when
    there are several, unless ``options`` name other panels."""
    if "panels" not in options and rows["players"].nunique() > 1:
        options["panels"] = "players"
    return Figure(
        file, caption, interval_plot(rows, "variant", xlabel="scoring variant", **options)
    )


def _figures(results: dict) -> list[Figure]:
    """The shifts of the bids and the skill shares, by scoring variant."""
    names, bids, levels = (results[k] for k in ("names", "bids", "levels"))
    shifts = {"order": [n for n in names if n != BASELINE], "zero_line": True}
    figures = []
    for measure, file in zip(BID_MEASURES, ("bid_shift.png", "zero_rate_shift.png"), strict=True):
        if len(bids):
            rows = bids[bids["measure"] == measure]
            player = rows["strategy"] + " in " + rows["field"]
            rows = rows.assign(player=player.where(rows["field"] != STANDARDISED, STANDARDISED))
            caption = f"Shift of the {measure} of score-maximising players from the canonical"
            title, ylabel = f"{measure}: variant minus canonical", f"shift of the {measure}"
            options = {"series": "player", "title": title, "ylabel": ylabel, **shifts}
            figures.append(_figure(file, caption, rows, **options))
    if "skill_share" in levels.columns:
        caption = "Share of the variance of final totals explained by the strategy (mixed fields)"
        rows = levels.dropna(subset=["skill_share"])
        rows = rows.rename(columns=dict(zip(_triple("skill_share"), INTERVAL, strict=True)))
        options = {"title": "Skill share of final totals", "ylabel": "variance share (eta squared)"}
        options |= {"series": "field", "order": names}
        figures.append(_figure("skill_share_by_variant.png", caption, rows, **options))
    return figures


def _method(manifest: dict, results: dict) -> list[str]:
    """The report's method: the design, the fields, the measures, the family and its checks."""
    merged = ", ".join(n for n in results["names"] if " = " in n) or "none at these table sizes"
    parts = (results["bids"], results["decisiveness"], results["gaps"])
    found = (str(t["correction"].iloc[0]) for t in parts if len(t) and "correction" in t)
    correction = next(found, "holm over 0")
    return [
        "Every variant is played with the same seed, seats and schedule, so on the same cards "
        "as the canonical table: their differences are paired by game (Student-t interval over "
        f"games). Identical rule sets (equal `Rules.to_dict()`) are merged: {merged}.",
        f"Score-maximising players (their bid reads the table): {', '.join(SCORE_AWARE_BIDDERS)}; "
        f"the others ignore it ({', '.join(SCORE_BLIND_BIDDERS)}).",
        "Decisiveness, whatever the sign of the totals: the half-game leader's final win share; "
        "in mixed fields, how often the stronger strategy's seat finishes ahead of another's, "
        "and the skill share (eta squared of final totals by strategy, bootstrap over games, "
        f"{SKILL_RESAMPLES:,} resamples).",
        f"One family of comparisons, adjusted with Holm's method ({correction}, "
        "family-wise 5%): every shift against the canonical table (the bids of every "
        f"score-maximising player and their pool, '{STANDARDISED}', weighing each equally; "
        "the three decisiveness measures), the ranking gaps, the lead of the first table by "
        "skill share, and per measure and variant a Wald test that the shift is the same in "
        "every field (bids: for every player), games paired across fields. p-values are read "
        "off the 95% intervals (the bootstrap's for the skill share).",
        confirmation_method(
            manifest.get("confirmation") or {},
            "every variant is played again in every field",
            "games per condition (each field its share)",
        ),
        "A headline effect holds in every field and is established in each. Each run reads "
        "the canonical ranking and the stronger strategy off its own canonical table; the "
        "skill lead tests the first run's two leading tables again. halves: replication on "
        "the even and the odd games.",
    ]


def _findings(results: dict) -> list[str]:
    """The findings in words: the headline effects, the skill leaders, the rankings."""
    verdicts, out = results["verdicts"], []
    kinds = {
        "holds in every field, established in each": verdicts["headline"].astype(bool),
        "depends on the field": verdicts["verdict"] == DEPENDS_ON_FIELD,
    }
    for kind, mask in kinds.items():
        for (n, effect, measure), rows in verdicts[mask].groupby(
            ["players", "effect", "measure"], sort=False
        ):
            each = "; ".join(
                f"{r.variant} {_range(r)}"
                + (" (significant in opposite directions)" if r.opposite else "")
                for r in rows.itertuples()
            )
            out.append(f"{n} players, {measure} ({effect}), {kind}: {each}.")
    skill, lead = results["skill"], results["lead"]
    for (n, field), rows in skill.groupby(["players", "field"], sort=False) if len(skill) else []:
        top = rows.iloc[0]
        mine = lead[(lead["players"] == n) & (lead["field"] == field)] if len(lead) else lead
        out.append(
            f"{n} players, {field}: the highest skill share is under {top['variant']}, "
            f"{fmt_ci(*top[_triple('skill_share')])}"
            + "".join(
                f"; the lead of {r.variant} over {r.runner_up}: {fmt_ci(r.estimate, r.low, r.high)}"
                f" ({'established' if r.established else 'not established'})"
                for r in mine.itertuples()
            )
            + "."
        )
    return out + _ranking_findings(results)


def _ranking_findings(results: dict) -> list[str]:
    """Per mixed field, the canonical ranking and the variants that reverse it."""
    gaps, canonical = results["gaps"], results["canonical_gaps"]
    out = []
    for (n, field), rows in results["ranking"].groupby(["players", "field"], sort=False):
        base = rows[rows["variant"] == BASELINE]
        if base.empty:
            continue
        order = base.sort_values("win_share", ascending=False, kind="stable")["strategy"]
        mine = gaps[(gaps["players"] == n) & (gaps["field"] == field)] if len(gaps) else gaps
        reversed_ = mine[mine["survives"] & (mine["estimate"] < 0)] if len(mine) else mine
        base_gaps = canonical[(canonical["players"] == n) & (canonical["field"] == field)]
        unresolved = "" if (base_gaps["low"] > 0).all() else " (not every adjacent gap resolved)"
        each = ", ".join(
            f"{r.variant} ({r.pair} {fmt_ci(r.estimate, r.low, r.high)}, {r.replication})"
            for r in reversed_.itertuples()
        )
        reversals = f"reversed (Holm) under {each}" if each else "no variant reverses it"
        out.append(
            f"{n} players, {field}: the canonical win-share ranking is {' > '.join(order)}"
            f"{unresolved}; {reversals}."
        )
    return out


def _range(row: object) -> str:
    """An effect's lowest and highest shift over the fields (a verdict row), signed, with where."""
    ends = [
        f"{'+' * (float(fmt_number(value)) > 0)}{fmt_number(value)} ({where})"
        for value, where in ((row.min_estimate, row.min_where), (row.max_estimate, row.max_where))
    ]
    return ends[0] if row.min_estimate == row.max_estimate else " to ".join(ends)


def _stronger(row: pd.Series) -> str:
    """How often a skill-ranking row's stronger seat finishes ahead, and the games it needs."""
    games = fmt_number(row["games_ahead"], 0)
    ahead = fmt_span([row["stronger_ahead"]], percent=True)
    return f"{ahead} of games ({games} games to be ahead 95% of the time)"


def _first_place(top: pd.Series, lead: pd.DataFrame, players: int, field: str) -> str:
    """``top`` lets skill decide most in ``field``, or ties for it, by the test of its lead."""
    lead = lead[(lead["players"] == players) & (lead["field"] == field)] if len(lead) else lead
    if not len(lead):
        return f"{top['variant']} lets skill decide the game most (its lead is not tested)"
    first, second = lead.iloc[0][["variant", "runner_up"]]
    if lead.iloc[0]["established"] and lead.iloc[0]["estimate"] > 0:
        return f"{first} lets skill decide the game most, ahead of {second}"
    return (
        f"{first} and {second} tie for letting skill decide the game most "
        "(the first's lead is not established)"
    )


def _in_short(results: dict, manifest: dict) -> list[str]:
    """The answer first: which table lets skill decide most, and how bids move."""
    skill, verdicts = results["skill"], results["verdicts"]
    adapting = skill[skill["field"] == MAXIMISER_MIX] if len(skill) else skill
    text = []
    for players, part in adapting.groupby("players", sort=True):
        canonical, top = part[part["variant"] == BASELINE], part.iloc[0]
        above = part[part["skill_change"].notna() & part["skill_change_established"]]
        more, less = (
            ", ".join(above[side]["variant"]) or "none"
            for side in (above["skill_change"] > 0, above["skill_change"] < 0)
        )
        base = (
            f", against {_stronger(canonical.iloc[0])} under the canonical table"
            if len(canonical) and top["variant"] != BASELINE
            else ""
        )
        text.append(
            f"At {players} players, among players that all bid for the table, "
            f"{_first_place(top, results['lead'], players, MAXIMISER_MIX)}: the stronger "
            f"strategy's seat finishes ahead of another's in {_stronger(top)}{base}. Established "
            f"against the canonical table: more skill under {more}; less under {less}."
        )
    if not len(adapting):
        text.append(
            "This run cannot say which scoring table lets skill decide the game: it played no "
            f"field of players that all bid for the table ({MAXIMISER_MIX})."
        )
    blind = skill[skill["field"] == MIX_FIELD] if len(skill) else skill
    if len(blind) and len(adapting):
        each = "; ".join(
            f"at {p} players {_first_place(part.iloc[0], results['lead'], p, MIX_FIELD)}"
            for p, part in blind.groupby("players")
        )
        text.append(f"In the {MIX_FIELD} field, whose simple and zero ignore the table, {each}.")
    heads = verdicts[verdicts["headline"].astype(bool)]
    bid_heads = heads[heads["effect"] == BID_EFFECT]
    if len(bid_heads):
        text.append(
            f"Bids follow the table: {len(bid_heads)} bid shifts (of the mean bid or the "
            "zero-bid rate) hold for every score-maximising player in every field (the "
            "findings list them)."
        )
    confirmed = (manifest.get("confirmation") or {}).get("games")
    text.append(
        f"Evidence: {len(heads)} of {len(verdicts)} effects hold in every field, each surviving "
        "one correction over all comparisons"
        + (" and confirmed at a second seed." if confirmed else " (no confirmation run).")
    )
    return text


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=DEFAULT_FIELDS,
    known_fields=KNOWN_FIELDS,
    field_shares=FIELD_SHARES,
)
