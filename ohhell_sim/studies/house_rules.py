"""Study ``house_rules``: one verdict per house rule, on skill, fairness, tension and length.

Every house rule (the hook's forms, schedules, each scoring table of the sources) is played
against the canonical game on the same cards, at every table size, in a weak and a strong
field of two strategies in alternate seats, each game again with their seats exchanged; the
effects and the tests that the fields differ form one family, confirmed at a second seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import adjust_parts, heterogeneity
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import bidding_position, check_fields, games_to_be_ahead
from ohhell_sim.studies.family import ALPHA, CORRECTION, confirm_parts
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.wording import confirmation_cell, confirmation_method

NAME = "house_rules"
QUESTION = "Which house rules make Oh Hell a game of skill, fair and tense, and what do they cost?"
DEFAULT_GAMES = 500
DEFAULT_PLAYERS = (3, 4, 5, 6, 7)
#: Each field: its stronger strategy, then its weaker one, in alternate seats.
FIELD_PAIRS = {"weak": ("card_counter", "simple"), "strong": ("distilled", "learned")}
FIELDS = tuple(FIELD_PAIRS)
CANONICAL = "canonical game"


def _fixed(**overrides: object) -> Callable[[int], dict[str, object]]:
    return lambda players: dict(overrides)


def even_schedule(players: int) -> dict[str, object]:
    """The canonical schedule with deals of the most cards added at its end until its
    length is a multiple of ``players``: every seat deals equally often."""
    schedule = Rules(players=players).schedule
    return {"schedule": schedule + (max(schedule),) * (-len(schedule) % players)}


def one_card_round(players: int) -> dict[str, object]:
    """The canonical schedule with its one-card deal played ``players`` times in a row."""
    schedule = Rules(players=players).schedule
    middle = schedule.index(1)
    return {"schedule": schedule[:middle] + (1,) * players + schedule[middle + 1 :]}


#: The rules studied, each against the canonical game: name -> its overrides at a table of n.
HOUSE_RULES: dict[str, Callable[[int], dict[str, object]]] = {
    CANONICAL: _fixed(),
    "no hook": _fixed(hook=False),
    "no hook on the one-card deal": _fixed(hook_one_card=False),
    "every seat deals equally often": even_schedule,
    "every seat deals a one-card deal": one_card_round,
    "schedule 1 to most to 1": _fixed(deal_order="1-max-1"),
    "short game, most down to 1": _fixed(deal_order="max-1"),
    **{f"made = {t}": _fixed(made=t) for t in ("10*bid", "10+bid^2", "10+2*bid", "5+bid")},
    **{f"zero = {t}": _fixed(zero=t) for t in ("5", "5+cards", "10+cards")},
    **{f"miss = {t}": _fixed(over=t, under=t) for t in ("taken", "-diff", "-diff^2", "-10*diff")},
    "+10 for bidding the whole hand": _fixed(all_bonus=10),
    "double for bidding the whole hand": _fixed(double_all=True),
}
RULE_NAMES = tuple(HOUSE_RULES)

AHEAD = "stronger ahead of weaker (share of games)"
AHEAD_GAMES = "games for the stronger to be ahead 95% of the time"
SKILL_POINTS = "stronger - weaker (points per game)"
FIRST_SEAT = "first bidder's gap (points per game)"
ONE_CARD = "one-card dealer's gap (points per game)"
GAP_CHANGE = f"{ONE_CARD}, change"
LEAD_CHANGES = "lead changes per game"
MARGIN = "winning margin (points)"
TIES = "tie for first (share of games)"
DEALS = "deals per game"
#: The measures tested, by aspect.
ASPECTS = {
    "skill": (AHEAD,),
    "fairness": (FIRST_SEAT, ONE_CARD),
    "tension": (LEAD_CHANGES, MARGIN, TIES),
}
#: What an established rise and an established fall of a skill or tension measure
#: mean to a player (a fairness measure is judged against the canonical gap).
WORDS = {
    AHEAD: ("more skill", "more luck"),
    LEAD_CHANGES: ("more lead changes", "fewer lead changes"),
    MARGIN: ("wider margins", "closer finishes"),
    TIES: ("more ties for first", "fewer ties for first"),
}
#: The words that name a cost in tension.
COSTS = ("fewer lead changes", "wider margins", "fewer ties for first")
#: The judgements that make a game more skilful or fairer, and those that make it less so.
GAINS = ("more skill", "fairer")
LOSSES = ("more luck", "less fair")
#: A claim withheld because the table sizes disagree.
OPPOSITE_SIZES = "opposite at different table sizes"
TESTED = tuple(measure for measures in ASPECTS.values() for measure in measures)
MEASURES = (AHEAD, SKILL_POINTS, FIRST_SEAT, ONE_CARD, LEAD_CHANGES, MARGIN, TIES, DEALS)
FAMILY_KEYS = {"effects": ("rule", "measure", "field"), "fields differ": ("rule", "measure")}


def conditions(
    games: int, players: tuple[int, ...], fields: Sequence[str] = FIELDS
) -> list[Condition]:
    """Every house rule, table size, field and seat order (see :data:`FIELD_PAIRS`)."""
    out = []
    for field in check_fields(fields, FIELDS):
        stronger, weaker = FIELD_PAIRS[field]
        for n in players:
            for order, first in enumerate(((stronger, weaker), (weaker, stronger))):
                seats = tuple(first[i % 2] for i in range(n))
                label = {"players": n, "field": field, "order": order}
                out += [
                    Condition({**label, "rule": rule}, Rules(players=n, **rules(n)), seats, games)
                    for rule, rules in HOUSE_RULES.items()
                ]
    return out


def game_measures(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per (rule, field, players, game): every measure of :data:`MEASURES` (defined
    in the report's method), averaged over the two seat orders."""
    keys = ["condition", "game"]
    seats = _seats(games).merge(_roles(hands), on=[*keys, "seat"], how="left")
    grouped = seats.groupby(keys, observed=True, sort=True)
    top = grouped["total"].transform("max")
    second = seats[grouped["total"].rank(method="first", ascending=False) == 2]
    ties = (seats["total"] == top).groupby([seats[k] for k in keys]).sum() > 1
    lead = _lead_changes(hands)
    out = pd.DataFrame(
        {
            AHEAD: _pairs(seats).groupby(keys)["ahead"].mean(),
            SKILL_POINTS: _role_gap(seats, "stronger"),
            FIRST_SEAT: _role_gap(seats, "first"),
            ONE_CARD: _role_gap(seats, "one_card"),
            LEAD_CHANGES: lead["changes"],
            MARGIN: grouped["total"].max() - second.set_index(keys)["total"],
            TIES: ties.astype(float),
            DEALS: lead["deals"],
        }
    )
    per_order = grouped[["players", "field", "rule"]].first().join(out).reset_index()
    per_order = per_order.astype({"rule": str, "field": str})
    by = ["rule", "field", "players", "game"]
    return per_order.groupby(by, sort=True)[list(MEASURES)].mean().reset_index()


def _seats(games: pd.DataFrame) -> pd.DataFrame:
    """The seats' final totals with ``stronger``: the seat holds its field's stronger strategy."""
    columns = ["condition", "game", "players", "field", "rule", "seat", "total"]
    stronger = games["field"].map({f: pair[0] for f, pair in FIELD_PAIRS.items()})
    return games[columns].assign(stronger=games["strategy"].astype(str) == stronger.astype(str))


def _roles(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (condition, game, seat): whether it bids first in the first deal (``first``) and
    whether it deals a one-card deal (``one_card``)."""
    keys = ["condition", "game", "seat"]
    first = hands[hands["deal"] == 0]
    dealt = hands.loc[(hands["hand_size"] == 1) & (hands["seat"] == hands["dealer"]), keys]
    one_card = pd.MultiIndex.from_frame(first[keys]).isin(pd.MultiIndex.from_frame(dealt))
    return first[keys].assign(first=bidding_position(first) == 0, one_card=one_card)


def _role_gap(seats: pd.DataFrame, role: str) -> pd.Series:
    """Per (condition, game): the seats in ``role`` minus the others, in mean total; NaN if
    every seat or none is in it."""
    keys = ["condition", "game", role]
    means = seats.groupby(keys, observed=True)["total"].mean().unstack(role)
    if True not in means.columns or False not in means.columns:
        return pd.Series(np.nan, index=means.index)
    return means[True] - means[False]


def _pairs(seats: pd.DataFrame) -> pd.DataFrame:
    """Every (stronger seat, weaker seat) pair of a game: ``diff``, the stronger's total
    minus the weaker's, and ``ahead``: 1, a half for a tie, or 0."""
    columns = ["condition", "game", "rule", "field", "players", "total"]
    strong = seats.loc[seats["stronger"], columns]
    weak = seats.loc[~seats["stronger"], ["condition", "game", "total"]]
    pairs = strong.merge(weak, on=["condition", "game"], suffixes=("", "_weaker"))
    pairs["diff"] = pairs["total"] - pairs["total_weaker"]
    pairs["ahead"] = (np.sign(pairs["diff"]) + 1) / 2
    return pairs.set_index(["condition", "game"])


def _lead_changes(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (condition, game): deals, and how often a player other than the last to lead
    alone takes the lead alone after a deal (running totals)."""
    out = []
    for condition, part in hands.groupby("condition", observed=True, sort=True):
        part = part.sort_values(["game", "deal", "seat"])
        games = part["game"].unique()
        n = int(part["players"].iloc[0])
        running = part["score"].to_numpy(dtype=np.int64).reshape(len(games), -1, n).cumsum(axis=1)
        last = np.full(len(games), -1)
        changes = np.zeros(len(games), dtype=np.int64)
        for deal in range(running.shape[1]):
            totals = running[:, deal]
            alone = (totals == totals.max(axis=1, keepdims=True)).sum(axis=1) == 1
            leader = np.where(alone, totals.argmax(axis=1), last)
            changes += (leader != last) & (last >= 0)
            last = leader
        index = pd.MultiIndex.from_arrays([np.full(len(games), condition), games])
        out.append(pd.DataFrame({"changes": changes, "deals": running.shape[1]}, index=index))
    return pd.concat(out).rename_axis(["condition", "game"])


def games_ahead_by_rule(games: pd.DataFrame) -> pd.DataFrame:
    """Per (rule, field): :func:`~ohhell_sim.studies.design.games_to_be_ahead` of a stronger
    seat's per-game lead over a weaker one, its mean and sd averaged over table sizes."""
    diff = _pairs(_seats(games)).groupby(["rule", "field", "players"], observed=True)["diff"]
    pooled = diff.agg(["mean", "std"]).groupby(["rule", "field"], observed=True).mean()
    return pooled.assign(games=games_to_be_ahead(pooled["mean"], pooled["std"])).reset_index()


def _long(measures: pd.DataFrame) -> pd.DataFrame:
    """``measures`` as one row per (rule, field, players, game, measure) with ``value``."""
    long = measures.melt(id_vars=["rule", "field", "players", "game"], var_name="measure")
    return long.dropna(subset=["value"])


def effects(measures: pd.DataFrame) -> pd.DataFrame:
    """Per (rule, measure, field, players, game): the rule's value minus the canonical game's."""
    long = _long(measures)
    base = long[long["rule"] == CANONICAL].drop(columns="rule")
    paired = long[long["rule"] != CANONICAL].merge(
        base, on=["field", "players", "game", "measure"], suffixes=("", "_canonical")
    )
    paired["value"] -= paired.pop("value_canonical")
    return paired


def family_parts(diffs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The family of one run's :func:`effects`: each tested effect per field, standardised
    over table sizes, and per (rule, measure) the test that the fields differ."""
    tested = diffs[diffs["measure"].isin(TESTED)]
    rows = standardised_mean(tested, tested["value"], ["rule", "measure", "field"], "players")
    between = heterogeneity(tested, ["rule", "measure"], "field", stratum="players")
    between = between[between["fields"] > 1].assign(estimate=np.nan, low=np.nan, high=np.nan)
    return adjust_parts({"effects": rows, "fields differ": between}, CORRECTION, ALPHA)


def judgements(found: pd.DataFrame, baseline: pd.Series, sizes: pd.DataFrame) -> pd.DataFrame:
    """What each established effect means: per (rule, measure, field), its :func:`_direction`."""
    rows = [
        {"rule": rule, "measure": measure, "field": field, "word": word}
        for rule in RULE_NAMES[1:]
        for measure in TESTED
        for field in FIELDS
        if (word := _direction(found, baseline, sizes, rule, measure, field))
    ]
    return pd.DataFrame(rows, columns=["rule", "measure", "field", "word"])


def verdicts(judged: pd.DataFrame, found: pd.DataFrame) -> pd.DataFrame:
    """One row per rule: per aspect what its :func:`judgements` say, in both fields."""
    rows = []
    for rule in RULE_NAMES[1:]:
        row = {"rule": rule}
        for aspect, measures in ASPECTS.items():
            said = []
            for measure in measures:
                mine = _where(judged, rule=rule, measure=measure)
                said += _in_fields(measure, dict(zip(mine["field"], mine["word"], strict=True)))
                if measure == ONE_CARD and _where(found, rule=rule, measure=ONE_CARD).empty:
                    said.append("no one-card dealer's gap: every seat deals a one-card deal")
            row[aspect] = "; ".join(said) or "no change found"
        rows.append(row)
    return pd.DataFrame(rows)


def _in_fields(measure: str, words: dict[str, str]) -> list[str]:
    """``"fairer (one-card dealer's gap, both fields)"``, or one phrase per field."""
    what = "" if measure in WORDS else f"{_short(measure)}, "
    if len(words) == len(FIELDS) and len(set(words.values())) == 1:
        return [f"{next(iter(words.values()))} ({what}both fields)"]
    return [f"{word} ({what}{field} field)" for field, word in words.items()]


def _direction(
    found: pd.DataFrame,
    baseline: pd.Series,
    sizes: pd.DataFrame,
    rule: str,
    measure: str,
    field: str,
) -> str:
    """What the established effect of ``rule`` on ``measure`` in ``field`` means, or "": judged
    against the canonical ``baseline``, withheld where the per-size ``sizes`` disagree."""
    hit = _where(found, rule=rule, measure=measure, field=field)
    if hit.empty or not bool(hit["established"].iloc[0]):
        return ""
    cells = _where(sizes, rule=rule, measure=measure, field=field)
    if (cells["low"] > 0).any() and (cells["high"] < 0).any():
        return OPPOSITE_SIZES
    shift = float(hit["estimate"].iloc[0])
    if measure not in WORDS:
        gap = float(baseline.loc[(measure, field)])
        return "fairer" if abs(gap + shift) < abs(gap) else "less fair"
    return WORDS[measure][0 if shift > 0 else 1]


def _short(measure: str) -> str:
    return measure.split(" (")[0]


def costs(verdict: pd.DataFrame) -> pd.Series:
    """Per rule, what it costs in tension and length, in words."""
    out = {}
    for _, row in verdict.iterrows():
        said = [part for part in row["tension"].split("; ") if part.startswith(COSTS)]
        if row["length"] != "same deals":
            said.append(row["length"])
        out[row["rule"]] = "; ".join(said) or "no cost found"
    return pd.Series(out)


def advice(judged: pd.DataFrame) -> dict[str, list[str]]:
    """The rules by what they do for a skilful, fair game: ``adopt`` (a gain in both fields,
    no loss), ``one field`` (a gain in one, no loss), ``weigh`` (both) and ``avoid`` (losses)."""
    out: dict[str, list[str]] = {"adopt": [], "one field": [], "weigh": [], "avoid": []}
    for rule in RULE_NAMES[1:]:
        mine = _where(judged, rule=rule)
        better = set(mine.loc[mine["word"].isin(GAINS), "field"])
        worse = set(mine.loc[mine["word"].isin(LOSSES), "field"])
        if better and worse:
            out["weigh"].append(rule)
        elif worse:
            out["avoid"].append(rule)
        elif better:
            out["adopt" if better == set(FIELDS) else "one field"].append(rule)
    return out


def analyse(data: StudyData) -> Report:
    """The report: one verdict per rule, its numbers, every effect and test, the canonical game."""
    measures = game_measures(data.hands, data.games)
    diffs = effects(measures)
    run = data.confirmation
    second = None if run is None else family_parts(effects(game_measures(run.hands, run.games)))
    parts = confirm_parts(family_parts(diffs), second, FAMILY_KEYS)
    found = parts["effects"]
    sizes = grouped_mean(diffs, diffs["value"], ["rule", "measure", "field", "players"])
    base = measures[measures["rule"] == CANONICAL]
    canonical = _long(base)
    baseline = standardised_mean(canonical, canonical["value"], ["measure", "field"], "players")
    # A share's interval stays within [0, 1], which a t-interval over few games can leave.
    share = baseline["measure"].str.contains("share")
    baseline.loc[share, ["low", "high"]] = baseline.loc[share, ["low", "high"]].clip(0.0, 1.0)
    judged = judgements(found, baseline.set_index(["measure", "field"])["estimate"], sizes)
    verdict = verdicts(judged, found)
    deals = diffs[diffs["measure"] == DEALS].groupby("rule", sort=False)["value"]
    verdict["length"] = [_deals_text(deals.min()[r], deals.max()[r]) for r in verdict["rule"]]
    verdict["cost"] = costs(verdict).to_numpy()
    ahead = games_ahead_by_rule(data.games)
    answer = _answer_table(baseline, found, ahead)
    tables = [
        Table("One verdict per house rule (established effects; field in brackets)", verdict),
        Table("The numbers of the In short, standardised over table sizes (95% CI)", answer),
        Table(
            "Every effect, rule minus canonical game, standardised over table sizes",
            _family_display(found),
            f"Holm over the family of {_family_size(parts)} comparisons (these and the tests "
            "between fields); established: survives and confirmed on fresh cards.",
        ),
        Table(
            "Do the fields differ? A paired test per rule and measure",
            _between_display(parts["fields differ"]),
        ),
        Table("The canonical game, per table size", _baseline_display(base, ahead)),
        Table(
            "Each rule's effect per table size (unadjusted 95% CI, for reading the cells)",
            display_table(_ordered(sizes[sizes["measure"].isin(TESTED)])),
        ),
    ]
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, parts),
        _findings(found),
        tables,
        [_skill_figure(found)],
        in_short=_in_short(advice(judged), answer),
    )


def _deals_text(fewest: float, most: float) -> str:
    """The change in deals per game over the table sizes: ``"+1 to +3 deals per game"``."""
    fewest, most = round(float(fewest)), round(float(most))
    if fewest == most == 0:
        return "same deals"
    span = f"{fewest:+d}" if fewest == most else f"{fewest:+d} to {most:+d}"
    return f"{span} deal{'' if fewest == most and abs(most) == 1 else 's'} per game"


def _answer_table(baseline: pd.DataFrame, found: pd.DataFrame, ahead: pd.DataFrame) -> pd.DataFrame:
    """The numbers of the In short: per field, the canonical game's skill, games to be ahead
    and one-card dealer's gap, and the established effect that brings that gap closest to zero."""
    rows = []
    for field in [f for f in FIELDS if (baseline["field"] == f).any()]:
        skill, gap = (_where(baseline, measure=m, field=field).iloc[0] for m in (AHEAD, ONE_CARD))
        games = _where(ahead, rule=CANONICAL, field=field)["games"].iloc[0]
        rows += [
            (CANONICAL, AHEAD, field, _value(skill, AHEAD)),
            (CANONICAL, ONE_CARD, field, _value(gap, ONE_CARD)),
            (CANONICAL, AHEAD_GAMES, field, fmt_number(games, 0)),
        ]
        best = _best_fix(found, field, float(gap["estimate"]))
        if best is not None:
            rows.append((best["rule"], GAP_CHANGE, field, _value(best, ONE_CARD)))
    return pd.DataFrame(rows, columns=["rule", "measure", "field", "value"])


def _where(frame: pd.DataFrame, **equal: object) -> pd.DataFrame:
    """The rows of ``frame`` whose columns equal the values given."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in equal.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def _value(row: pd.Series, measure: str) -> str:
    """An estimate and its interval: a share in percent with one decimal, the rest with two."""
    scale, digits, unit = (100.0, 1, "%") if "share" in measure else (1.0, 2, "")
    estimate, low, high = (fmt_number(row[c] * scale, digits) for c in ("estimate", "low", "high"))
    return f"{estimate}{unit} [{low}, {high}]"


def _best_fix(found: pd.DataFrame, field: str, canonical: float) -> pd.Series | None:
    """The established effect on the one-card dealer's gap in ``field`` that brings it
    closest to zero from ``canonical``; None when none brings it closer."""
    rows = _where(found, measure=ONE_CARD, field=field, established=True)
    closer = abs(canonical) - (canonical + rows["estimate"]).abs()
    closer = closer[closer > 0]
    return None if closer.empty else rows.loc[closer.idxmax()]


def _family_display(found: pd.DataFrame) -> pd.DataFrame:
    shown = _ordered(found).assign(
        p_adjusted=lambda t: t["p_adjusted"].map(fmt_p),
        confirmation=lambda t: [confirmation_cell(r) for _, r in t.iterrows()],
    )
    columns = ["rule", "measure", "field", "n", "estimate", "low", "high", "p_adjusted"]
    return display_table(shown[[*columns, "confirmation", "established"]])


def _between_display(between: pd.DataFrame) -> pd.DataFrame:
    shown = between.assign(p=between["p"].map(fmt_p), p_adjusted=between["p_adjusted"].map(fmt_p))
    columns = ["rule", "measure", "spread", "q", "df", "p", "p_adjusted", "established"]
    return display_table(_ordered(shown)[columns])


def _baseline_display(base: pd.DataFrame, ahead: pd.DataFrame) -> pd.DataFrame:
    table = base.groupby(["field", "players"], observed=True)[list(MEASURES)].mean().reset_index()
    table[[AHEAD, TIES]] *= 100
    table = table.rename(columns={share: f"{_short(share)} (%)" for share in (AHEAD, TIES)})
    canonical = ahead[ahead["rule"] == CANONICAL].set_index("field")["games"]
    table["games to be ahead 95% (all sizes)"] = table["field"].map(canonical)
    return display_table(table, digits=2)


def _ordered(table: pd.DataFrame) -> pd.DataFrame:
    order = {name: i for i, name in enumerate(RULE_NAMES)}
    measure = {name: i for i, name in enumerate(MEASURES)}
    keys = table.assign(_rule=table["rule"].map(order), _measure=table["measure"].map(measure))
    columns = ["_rule", "_measure", *[c for c in ("field", "players") if c in table.columns]]
    return keys.sort_values(columns).drop(columns=["_rule", "_measure"]).reset_index(drop=True)


def _family_size(parts: dict[str, pd.DataFrame]) -> int:
    return int(sum(part["p"].notna().sum() for part in parts.values()))


def _skill_figure(found: pd.DataFrame) -> Figure:
    rows = _ordered(found[found["measure"] == AHEAD])
    return Figure(
        "skill_by_rule.png",
        "How often the stronger of two players finishes ahead of the weaker, each rule minus "
        "the canonical game (standardised over table sizes).",
        interval_plot(
            rows.assign(**{column: rows[column] * 100 for column in ("estimate", "low", "high")}),
            "rule",
            series="field",
            title="Skill: change in how often the stronger finishes ahead",
            xlabel="house rule",
            ylabel="percentage points, rule - canonical",
            zero_line=True,
            order=RULE_NAMES[1:],
            horizontal=True,
        ),
    )


def _method(manifest: dict, parts: dict[str, pd.DataFrame]) -> list[str]:
    played = dict.fromkeys(c["label"]["field"] for c in manifest["conditions"])
    fields = "; ".join(f"{f}: {' and '.join(FIELD_PAIRS[f])} in alternate seats" for f in played)
    # The first bidder deals the one-card deal if it comes one deal after a multiple of n.
    sizes = sorted({c["rules"]["players"] for c in manifest["conditions"]})
    same = " and ".join(str(n) for n in sizes if Rules(players=n).schedule.index(1) % n == 1)
    same_seat = f" In the canonical game at {same} players they are the same seat." if same else ""
    return [
        f"Fields: {fields}. Every game is played twice, the second time with the two "
        "strategies' seats exchanged, on the same cards; a game's values are the mean of "
        "the two. The weak field's players bid the same under every scoring table, the "
        "strong field's bid for the table in play: a scoring rule's effect on skill is "
        "that of players who adapt to it in the strong field only.",
        "Skill: over every pair of a stronger and a weaker seat of a game, the share in which "
        "the stronger finishes ahead (a tie counts half). Games to be ahead 95% of the time: "
        "(1.645 sd / mean)^2 of a pair's per-game difference, a normal approximation.",
        "Fairness: the final total of the first bidder of the game's first deal (the same "
        "seat under every rule), and the mean of the seats that deal a one-card deal of the "
        "rule's schedule, each minus the mean of the other seats." + same_seat,
        "Tension: a lead change is a deal after which a player other than the last to lead "
        "alone leads alone on the running totals; the margin is the winner's total minus the "
        "runner-up's; a tie for first is two or more players on the top total.",
        "Effects: each rule's per-game value minus the canonical game's on the same cards, "
        "averaged with equal weight per table size (clustered by game). A fairness effect "
        "counts as fairer when it brings the canonical gap closer to zero. A claim whose "
        "per-size cells have opposite signs (unadjusted intervals) is withheld.",
        f"One family ({CORRECTION}, {ALPHA:g}) of {_family_size(parts)} comparisons: the "
        "effects per field and, per rule and measure, a paired Wald test that the fields "
        "differ (clustered by game, since both fields play the same cards).",
        confirmation_method(
            manifest.get("confirmation") or {},
            "the whole study is played again",
            "games per condition",
        ),
    ]


def _findings(found: pd.DataFrame) -> list[str]:
    shown = _ordered(found[found["established"]])
    lines = [
        f"{len(shown)} of {len(found)} effects are established (survive {CORRECTION} over the "
        "family and confirm on fresh cards); each below is the rule minus the canonical game."
    ]
    for aspect, measures in ASPECTS.items():
        rows = shown[shown["measure"].isin(measures)]
        said = "; ".join(
            f"{row['rule']}, {row['field']} field: {_short(row['measure'])} {fmt_row(row)}"
            for _, row in rows.iterrows()
        )
        lines.append(f"{aspect.capitalize()}: {said or 'no effect is established'}.")
    return lines


def _in_short(advised: dict[str, list[str]], answer: pd.DataFrame) -> list[str]:
    listed = {group: ", ".join(rules) for group, rules in advised.items()}
    verdict = f"For a skilful, fair game adopt {listed['adopt'] or 'none of the rules studied'}"
    if listed["one field"]:
        verdict += f"; {listed['one field']} help in one field only"
    if listed["weigh"]:
        verdict += f"; weigh {listed['weigh']}, each better in one way, worse in another"
    if listed["avoid"]:
        verdict += f"; avoid {listed['avoid']}"

    def cells(rule: str, measure: str) -> str:
        rows = _where(answer, rule=rule, measure=measure)
        pairs = zip(rows["field"], rows["value"], strict=True)
        return " and ".join(f"{value} ({field} field)" for field, value in pairs)

    fixed = "; ".join(
        f"{rule} moves it by {cells(rule, GAP_CHANGE)}"
        for rule in pd.unique(answer.loc[answer["measure"] == GAP_CHANGE, "rule"])
    )
    return [
        verdict + ". The first table gives each rule's cost in lead changes, margins and deals.",
        f"In the canonical game the stronger of two players finishes ahead in "
        f"{cells(CANONICAL, AHEAD)} of games, and needs {cells(CANONICAL, AHEAD_GAMES)} games "
        "to be ahead 95% of the time.",
        f"The one-card deal's dealer has a gap of {cells(CANONICAL, ONE_CARD)} points per game "
        "to the other seats"
        + (f"; {fixed}." if fixed else "; no rule studied is established to close it."),
    ]


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    conditions=conditions,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=FIELDS,
    known_fields=FIELDS,
)
