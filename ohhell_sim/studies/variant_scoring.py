"""Study ``variant_scoring``: what each scoring table does to bids and to how skill decides games,
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
    between_fields,
    field_verdicts,
    replicate,
    verdicts_across_fields,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p, fmt_span
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import (
    estimate_frame,
    grouped_mean,
    paired_by_game,
    per_game_difference,
)
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import (
    FIELDS,
    MIX_FIELD,
    check_fields,
    field_seats,
    games_to_be_ahead,
)
from ohhell_sim.studies.family import confirm_family, correct
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "variant_scoring"
QUESTION = (
    "How do the scoring tables change bids and decisiveness, "
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
FIELD_SHARES = {"mc_bidder": 0.6}

#: Built-ins whose bid reads the scoring tables (``Strategy.reads_scoring``), and the others.
SCORE_AWARE_BIDDERS = tuple(s.name for s in strategies.BUILTINS if s.reads_scoring)
SCORE_BLIND_BIDDERS = tuple(s.name for s in strategies.BUILTINS if not s.reads_scoring)

BID_COLUMNS = {"bid": "mean bid", "zero": "zero-bid rate"}
BID_MEASURES = tuple(BID_COLUMNS.values())
BID_EFFECT = "bid shift of score-maximising players"
STRONGER = "stronger seat ahead"
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
    seated = [{s if isinstance(s, str) else s[0] for s in study_field_seats(f, 3)} for f in fields]
    if not any(len(names) > 1 or names & set(SCORE_AWARE_BIDDERS) for names in seated):
        raise InvalidArgumentError(
            f"fields {list(fields)} seat no score-maximising player and no mix of strategies, "
            f"so no bid can follow the table and no skill can be measured; add one of learned, "
            f"mc_bidder, {MIX_FIELD} or {MAXIMISER_MIX}"
        )
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


def stronger_seats(games: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per mixed condition, over its pairs of seats of different strategies: per game, how often
    the stronger strategy's seat finishes ahead (``better_wins``, ties half); and the games it
    needs to be ahead 95% of the time (``games_ahead``,
    :func:`~ohhell_sim.studies.design.games_to_be_ahead` of the pairs' per-game leads)."""
    per_game, ahead = [], []
    for key, (totals, seated, played) in _mixed_blocks(games).items():
        labels = dict(zip(CONDITION_KEYS, key, strict=True))
        strong, weak = _better_pairs(totals, seated)
        lead = strong - weak
        wins = ((lead > 0) + 0.5 * (lead == 0)).mean(axis=1)
        per_game.append(pd.DataFrame({"game": played, "better_wins": wins}).assign(**labels))
        needed = games_to_be_ahead(lead.mean(), lead.std(ddof=1)) if lead.size > 1 else np.nan
        ahead.append({**labels, "games_ahead": float(needed)})
    columns = [*CONDITION_KEYS, "game", "better_wins"]
    wins = (
        pd.concat(per_game, ignore_index=True)[columns]
        if per_game
        else pd.DataFrame(columns=columns)
    )
    return wins, pd.DataFrame(ahead, columns=[*CONDITION_KEYS, "games_ahead"])


def skill_leaders(levels: pd.DataFrame) -> dict[tuple, tuple[str, str]]:
    """Per (players, mixed field): the two tables under which the stronger seat is ahead
    most often (``levels``: :func:`stronger_seats`' wins averaged per condition)."""
    return {
        key: tuple(part.sort_values("estimate", ascending=False, kind="stable")["variant"][:2])
        for key, part in levels.groupby(CONDITION_KEYS[:2], sort=False)
        if len(part) > 1
    }


def leads(better: pd.DataFrame, leaders: dict[tuple, tuple[str, str]]) -> pd.DataFrame:
    """Per (players, mixed field): how much more often the stronger seat is ahead under the
    first of its ``leaders`` than under the second (``runner_up``), paired by game."""
    parts = []
    for (players, field), (first, second) in leaders.items():
        part = better[(better["players"] == players) & (better["field"] == field)]
        lead = paired_by_game(part, part["better_wins"], "variant", first, second, ["players"])
        parts.append(lead.assign(field=field, variant=first, runner_up=second))
    if not parts:
        return estimate_frame([], [*CONDITION_KEYS, "runner_up"])
    return pd.concat(parts, ignore_index=True)[[*CONDITION_KEYS, "runner_up", *INTERVAL, "n"]]


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


def between_field_tests(frames: dict[str, pd.DataFrame], variants: Sequence[str]) -> pd.DataFrame:
    """Per (players, measure, variant): the test that the shift is equal in every field
    (bids: for every score-maximising player), from :func:`family_parts`' ``frames``."""
    bids = [(frames["bids"], c, ["strategy"], measure) for c, measure in BID_COLUMNS.items()]
    jobs = [*bids, (frames["better"], "better_wins", [], STRONGER)]
    tests = []
    for frame, column, by, measure in jobs:
        if not len(frame):
            continue
        values = _shifts(frame, column, by, variants, per_game=True)
        if by:
            values["field"] = values["strategy"].astype(str) + " in " + values["field"].astype(str)
        tests.append(between_fields(values, ["players", "variant"]).assign(measure=measure))
    tests = [t for t in tests if len(t)]
    if not tests:
        return pd.DataFrame()
    return pd.concat(tests, ignore_index=True).drop(columns="field", errors="ignore")


def bid_shifts(per_game: pd.DataFrame, variants: Sequence[str]) -> pd.DataFrame:
    """Bid shifts from the canonical table per strategy and field."""
    tables = [
        _shifts(per_game, column, ["strategy"], variants).assign(measure=measure)
        for column, measure in BID_COLUMNS.items()
    ]
    return pd.concat(tables, ignore_index=True)


def _wide(table: pd.DataFrame, name: str, keys: Sequence[str] = CONDITION_KEYS) -> pd.DataFrame:
    """The ``keys`` of an estimate table and its interval, named :func:`_triple` of ``name``."""
    columns = dict(zip(INTERVAL, _triple(name), strict=True))
    return table.rename(columns=columns)[[*keys, *_triple(name)]]


def _triple(*names: str) -> list[str]:
    """Each name's ``name``, ``name_low`` and ``name_high``."""
    return [c for name in names for c in (name, f"{name}_low", f"{name}_high")]


# --- the analysis ---------------------------------------------------------------------


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
    "stronger seat": CONDITION_KEYS,
    "lead": [*CONDITION_KEYS, "runner_up"],
    "between fields": ["players", "measure", "variant"],
}


def family_parts(
    hands: pd.DataFrame,
    games: pd.DataFrame,
    names: list[str],
    leaders: dict[tuple, tuple[str, str]] | None = None,
) -> tuple[dict[str, pd.DataFrame], dict]:
    """The family's parts of one run, unadjusted, and their frames; ``leaders``: the pairs
    of tables whose lead is tested (default: the run's own :func:`skill_leaders`)."""
    games = _strings(games, "variant", "field", "strategy")
    per_game = per_game_bids(hands[hands["strategy"].isin(SCORE_AWARE_BIDDERS)])
    better, ahead = stronger_seats(games)
    frames = {"better": better, "ahead": ahead, "bids": per_game}
    if leaders is None:
        frames["levels"] = grouped_mean(better, better["better_wins"], CONDITION_KEYS, bounded=True)
        leaders = skill_leaders(frames["levels"])
    jobs = {
        "bid shifts": (per_game, lambda f: bid_shifts(f, names)) if len(per_game) else None,
        "stronger seat": (better, lambda f: _shifts(f, "better_wins", [], names)),
        "lead": (better, lambda f: leads(f, leaders)),
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
        return correct({k: t for k, t in parts.items() if not t.empty})

    # A part with no rows is left as it is.
    confirmed = confirm_family(data, adjusted, FAMILY_PARTS)
    family = {name: confirmed.get(name, table) for name, table in family.items()}
    bids, between = family["bid shifts"], family["between fields"]
    decisiveness = family["stronger seat"].assign(measure=STRONGER)
    verdicts = []
    if not bids.empty:
        rows = bids.assign(player=bids["strategy"] + " in " + bids["field"])
        verdicts.append(_verdicts(rows, "player", between).assign(effect=BID_EFFECT))
    if not decisiveness.empty:
        verdicts.append(_verdicts(decisiveness, "field", between).assign(effect="decisiveness"))
    skill = pd.DataFrame(columns=CONDITION_KEYS)
    if not decisiveness.empty:
        skill = skill_ranking(frames["levels"], frames["ahead"], decisiveness)
    # Tables by table size, then by field and variant in the orders of the design.
    orders = {"field": fields, "variant": names}
    results = {
        "names": names,
        "bids": in_order(bids, CONDITION_KEYS, orders) if not bids.empty else bids,
        "decisiveness": in_order(decisiveness, CONDITION_KEYS, orders),
        "skill": skill,
        "lead": family["lead"],
        "between": between,
        "verdicts": in_order(pd.concat(verdicts, ignore_index=True), CONDITION_KEYS, orders)
        if verdicts
        else pd.DataFrame(columns=VERDICT_COLUMNS),
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


def skill_ranking(
    levels: pd.DataFrame, ahead: pd.DataFrame, decisiveness: pd.DataFrame
) -> pd.DataFrame:
    """Per (players, mixed field), the tables ranked by how often the stronger seat is ahead
    (``levels``), with the games it needs (``ahead``) and the change from the canonical table."""
    change = _wide(decisiveness, "stronger_change")
    change["stronger_change_established"] = decisiveness["established"].to_numpy()
    rows = _wide(levels, "stronger_ahead").merge(ahead, how="left")
    rows = rows.merge(change, on=CONDITION_KEYS, how="left")
    rows = rows.sort_values(["players", "field", "stronger_ahead"], ascending=[True, True, False])
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
    """The tables ranked by how often the stronger seat is ahead, each change against the
    canonical table marked * when established."""
    shown = skill[["players", "field", "rank", "variant"]].join(
        display_table(skill[_triple("stronger_ahead", "stronger_change")])
    )
    marked = shown["stronger_change"] + np.where(skill["stronger_change_established"], " *", "")
    missing = np.where(skill["variant"] == BASELINE, "reference", "n/a")
    shown["stronger_change"] = np.where(skill["stronger_change"].isna(), missing, marked)
    shown["games to be ahead 95%"] = [fmt_number(g, 0) for g in skill["games_ahead"]]
    columns = {"variant": "scoring table", "stronger_ahead": STRONGER, "stronger_change": "change"}
    return shown.rename(columns=columns)


def _tables(results: dict) -> list[Table]:
    """The report's tables, the ranking of the tables by skill first."""
    skill, lead, bids, between = (results[k] for k in ("skill", "lead", "bids", "between"))
    tables = []
    if len(skill):
        title = "Which scoring table lets skill decide the game? Tables ranked by skill"
        note = (
            "Mixed fields. stronger seat ahead: how often the stronger strategy's seat "
            "finishes ahead of another strategy's (ties half); games to be ahead 95%: "
            "(1.645 sd / mean)^2 of those pairs' per-game leads. change: against the canonical "
            f"table, * when established. {MAXIMISER_MIX} "
            f"({', '.join(MAXIMISER_MIX_STRATEGIES)}) bids for the table; {MIX_FIELD}'s simple "
            "and zero ignore it."
        )
        tables.append(Table(title, _skill_display(skill), note))
    if len(lead):
        title = "Does the first table lead the second? Stronger seat ahead, first minus second"
        shown = _family_display(lead, ["players", "field", "variant", "runner_up"])
        tables.append(
            Table(title, shown, "A table ranks first only where its lead is established.")
        )
    verdicts = display_table(results["verdicts"][VERDICT_COLUMNS])
    if len(between):
        test = between[["players", "measure", "variant"]].assign(
            compared=between["n"].astype(int).astype(str),
            W=[fmt_number(q, 1) for q in between["q"]],
            spread=[fmt_number(e) for e in between["estimate"]],
            **{"between fields, p (adjusted)": [fmt_p(p) for p in between["p_adjusted"]]},
            **{"between fields, confirmation": between["confirmation"]},
        )
        keys = ["players", "measure", "variant"]
        verdicts = verdicts.merge(test.astype({"players": str}), on=keys, how="left").fillna("-")
    note = (
        f"Over the fields (bids: the score-maximising players). '{DEPENDS_ON_FIELD}' needs the "
        f"test between the fields, else '{SOME_FIELDS}'; with a single field, "
        f"{FIELD_VERDICT_NOTE} opposite: 95% intervals on both sides of zero. The test: "
        "compared, the score-maximising players (bids) or the fields; W, the Wald statistic of "
        "their shifts, clustered by game, chi-squared on compared - 1 degrees of freedom; "
        "spread, highest minus lowest."
    )
    title = "Does each effect hold in every field? Verdicts, with the test between the fields"
    tables.append(Table(title, verdicts, note))
    columns = ["players", "field", "strategy", "variant"]
    for measure in BID_MEASURES if len(bids) else ():
        title = f"Shift of the {measure} of score-maximising players (family: bid shifts)"
        shown = _family_display(bids[bids["measure"] == measure], columns)
        tables.append(Table(title, shown, "Variant minus canonical, paired by game."))
    title = "Decisiveness against the canonical table (part of the report's one family)"
    shown = _family_display(results["decisiveness"], ["players", "measure", "field", "variant"])
    note = "Variant minus canonical, paired by game."
    return [*tables, Table(title, shown, note)]


def _figures(results: dict) -> list[Figure]:
    """How often the stronger seat is ahead by scoring variant, a panel per table size."""
    skill = results["skill"]
    if not len(skill):
        return []
    rows = skill.rename(columns=dict(zip(_triple("stronger_ahead"), INTERVAL, strict=True)))
    plot = interval_plot(
        rows,
        "variant",
        series="field",
        order=results["names"],
        panels="players" if rows["players"].nunique() > 1 else None,
        horizontal=True,
        title="Stronger strategy's seat ahead of another's",
        xlabel="scoring variant",
        ylabel="share of games (ties half)",
    )
    caption = "How often the stronger strategy's seat finishes ahead, by scoring table"
    return [Figure("stronger_ahead_by_variant.png", caption, plot)]


def _method(manifest: dict, results: dict) -> list[str]:
    """The report's method: the design, the fields, the measures, the family and its checks."""
    merged = ", ".join(n for n in results["names"] if " = " in n) or "none at these table sizes"
    parts = (results["bids"], results["decisiveness"])
    found = (str(t["correction"].iloc[0]) for t in parts if len(t) and "correction" in t)
    return [
        "Every variant is played with the same seed, seats and schedule as the canonical table, "
        "so their differences are paired by game (Student-t interval over games). Identical "
        f"rule sets (equal `Rules.to_dict()`) are merged: {merged}.",
        f"Score-maximising players (their bid reads the table): {', '.join(SCORE_AWARE_BIDDERS)}; "
        f"the others ignore it ({', '.join(SCORE_BLIND_BIDDERS)}).",
        "Skill, in mixed fields and whatever the sign of the totals: how often the stronger "
        "strategy's seat (by the two strategies' mean totals under that table in that run) "
        "finishes ahead of another strategy's, ties half, per game.",
        f"One family, adjusted with Holm's method ({next(found, 'holm over 0')}, family-wise 5%): "
        "every shift against the canonical table (the bids of every score-maximising player in "
        "every field; how often the stronger seat is ahead), the lead of the first table over "
        "the second (the confirmation tests the first run's pair again), and per measure and "
        "variant a Wald test that the shift is the same in every field, games paired across "
        "fields. p-values are read off the 95% intervals.",
        confirmation_method(
            manifest.get("confirmation") or {},
            "every variant is played again in every field",
            "games per condition (each field its share)",
        ),
        "A headline effect holds in every field and is established in each. halves: "
        "replication on the even and the odd games.",
    ]


def _findings(results: dict) -> list[str]:
    """The findings in words: the headline effects and the skill leaders."""
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
            f"{n} players, {field}: the stronger seat is ahead most often under "
            f"{top['variant']}, {fmt_ci(*top[_triple('stronger_ahead')])}"
            + "".join(
                f"; the lead of {r.variant} over {r.runner_up}: {fmt_ci(r.estimate, r.low, r.high)}"
                f" ({'established' if r.established else 'not established'})"
                for r in mine.itertuples()
            )
            + "."
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
        above = part[part["stronger_change"].notna() & part["stronger_change_established"]]
        more, less = (
            ", ".join(above[side]["variant"]) or "none"
            for side in (above["stronger_change"] > 0, above["stronger_change"] < 0)
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
