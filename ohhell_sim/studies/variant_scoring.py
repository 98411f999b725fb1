"""Study ``variant_scoring``: what each scoring table does to bids and to how skill decides games,
each compared with the canonical table on the same cards, in several strategy fields."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import pandas as pd

from ohhell_sim import strategies
from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    FIELD_VERDICT_NOTE,
    SOME_FIELDS,
    replicate,
)
from ohhell_sim.analysis.report import Report, Table
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import FIELDS, MIX_FIELD, check_fields, field_seats
from ohhell_sim.studies.family import confirm_filled
from ohhell_sim.studies.measures import bid_totals, per_game_bids
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.shifts import Shifts, family_display, strings
from ohhell_sim.studies.skill import (
    STRONGER,
    WINS,
    ahead_text,
    first_place,
    leader_findings,
    ranking_display,
    ranking_figures,
    skill_parts,
    skill_ranking,
)
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_method

NAME = "variant_scoring"
QUESTION = (
    "How do the scoring tables change bids and decisiveness, "
    "in fields of players that do and do not re-optimise for the table?"
)
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
BID_EFFECT = "bid shift of score-maximising players"
#: The arms: each scoring table against the canonical one; a condition's columns.
SHIFTS = Shifts("variant", BASELINE)
CONDITION_KEYS = SHIFTS.keys


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


#: The parts of the report's one family, and the columns naming a row of each.
FAMILY_PARTS = {
    "bid shifts": [*CONDITION_KEYS, "strategy", "measure"],
    "stronger seat": CONDITION_KEYS,
    "lead": [*CONDITION_KEYS, "runner_up"],
    "between fields": SHIFTS.effect_keys,
}


def family_parts(
    hands: pd.DataFrame,
    games: pd.DataFrame,
    names: list[str],
    leaders: dict[tuple, tuple[str, str]] | None = None,
) -> tuple[dict[str, pd.DataFrame], dict]:
    """The family's parts of one run, unadjusted, and their frames; ``leaders``: the pairs
    of tables whose lead is tested (default: the run's own)."""
    games = strings(games, "variant", "field", "strategy")
    per_game = per_game_bids(hands[hands["strategy"].isin(SCORE_AWARE_BIDDERS)], CONDITION_KEYS)
    bid_shifts = pd.DataFrame()
    if len(per_game):
        shifts = partial(SHIFTS.measures, columns=BID_COLUMNS, by=["strategy"], arms=names)
        bid_shifts = replicate(per_game, shifts, FAMILY_PARTS["bid shifts"])
    skill = partial(SHIFTS.shifts, column=WINS, by=[], arms=names)
    parts, frames = skill_parts(games, CONDITION_KEYS, skill, leaders)
    # Tests, not estimates: not split into halves.
    bids = [(per_game, c, ["strategy"], measure) for c, measure in BID_COLUMNS.items()]
    between = SHIFTS.between([*bids, (frames["better"], WINS, [], STRONGER)], names)
    family = {"bid shifts": bid_shifts, **parts, "between fields": between}
    return family, {**frames, "bids": per_game}


def analyse(data: StudyData) -> Report:
    """The report of a ``variant_scoring`` run, every number computed from ``data``."""
    labels = [c["label"] for c in data.manifest["conditions"]]
    fields = list(dict.fromkeys(label["field"] for label in labels))
    names = list(dict.fromkeys([BASELINE, *(label["variant"] for label in labels)]))
    family, frames = family_parts(data.hands, data.games, names)

    def parts_of(run: StudyData) -> dict[str, pd.DataFrame]:
        # The confirmation tests the run's pairs of leading tables.
        return family_parts(run.hands, run.games, names, frames["leaders"])[0]

    family = confirm_filled(data, family, parts_of, FAMILY_PARTS)
    bids, between = family["bid shifts"], family["between fields"]
    decisiveness = family["stronger seat"].assign(measure=STRONGER)
    bid_rows = bids.assign(player=bids["strategy"] + " in " + bids["field"]) if len(bids) else bids
    effects = [(bid_rows, "player", BID_EFFECT), (decisiveness, "field", "decisiveness")]
    verdicts = SHIFTS.effect_verdicts(effects, between)
    skill = pd.DataFrame(columns=CONDITION_KEYS)
    if not decisiveness.empty:
        skill = skill_ranking(frames["levels"], frames["ahead"], decisiveness, CONDITION_KEYS)
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
        else pd.DataFrame(columns=SHIFTS.verdict_columns),
    }
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, results),
        SHIFTS.findings(results["verdicts"])
        + leader_findings(results["skill"], results["lead"], CONDITION_KEYS),
        _tables(results),
        ranking_figures(
            results["skill"], CONDITION_KEYS, names, "scoring variant", "scoring table"
        ),
        in_short=_in_short(results, data.manifest),
    )


# --- the report -----------------------------------------------------------------------


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
        shown = ranking_display(skill, CONDITION_KEYS, BASELINE, "scoring table")
        tables.append(Table(title, shown, note))
    if len(lead):
        title = "Does the first table lead the second? Stronger seat ahead, first minus second"
        shown = family_display(lead, ["players", "field", "variant", "runner_up"])
        tables.append(
            Table(title, shown, "A table ranks first only where its lead is established.")
        )
    verdicts = SHIFTS.verdict_display(results["verdicts"], between)
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
    for measure in BID_COLUMNS.values() if len(bids) else ():
        title = f"Shift of the {measure} of score-maximising players (family: bid shifts)"
        shown = family_display(bids[bids["measure"] == measure], columns)
        tables.append(Table(title, shown, "Variant minus canonical, paired by game."))
    title = "Decisiveness against the canonical table (part of the report's one family)"
    shown = family_display(results["decisiveness"], ["players", "measure", "field", "variant"])
    note = "Variant minus canonical, paired by game."
    return [*tables, Table(title, shown, note)]


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


def _in_short(results: dict, manifest: dict) -> list[str]:
    """The answer first: which table lets skill decide most, and how bids move."""
    skill, verdicts, lead = results["skill"], results["verdicts"], results["lead"]
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
            f", against {ahead_text(canonical.iloc[0])} under the canonical table"
            if len(canonical) and top["variant"] != BASELINE
            else ""
        )
        text.append(
            f"At {players} players, among players that all bid for the table, "
            f"{first_place(top, lead, CONDITION_KEYS, players, MAXIMISER_MIX)}: the stronger "
            f"strategy's seat finishes ahead of another's in {ahead_text(top)}{base}. Established "
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
            f"at {p} players {first_place(part.iloc[0], lead, CONDITION_KEYS, p, MIX_FIELD)}"
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
    return [*text, SHIFTS.evidence(verdicts, bool(confirmed))]


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    analyse=analyse,
    default_games=2000,
    default_players=(4,),
    default_fields=DEFAULT_FIELDS,
    known_fields=KNOWN_FIELDS,
    field_shares=FIELD_SHARES,
    reduce_hands=partial(bid_totals, labels=CONDITION_KEYS),
)
