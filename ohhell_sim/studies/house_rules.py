"""Study ``house_rules``: one verdict per house rule, on skill, fairness, tension and length.

Every house rule a table might adopt (the hook's forms, schedules, and each
scoring table of the sources) is played against the canonical game at every
table size, in a weak and a strong field, on the same cards (the engine keys
each shuffle, and the cut for the first dealer, by seed and game).  A field
seats a stronger and a weaker strategy in alternate seats, and every game is
played again with their seats exchanged, so that a seat's gap is the rule's,
not a strategy's.  Each rule's effect on a measure is its per-game value minus
the canonical game's, standardised over table sizes; the effects and the tests
of whether they differ between the fields form one family
(:mod:`ohhell_sim.studies.family`), confirmed at a second seed.  The report's
method says how each measure is defined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import adjust_parts, heterogeneity
from ohhell_sim.analysis.format import display_table, fmt_number, fmt_p, fmt_row
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.rules import Rules, bidding_position
from ohhell_sim.studies.design import check_fields, games_to_be_ahead
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


@dataclass(frozen=True)
class HouseRule:
    """A house rule: its name, what it changes, and the rules it sets at a table of ``n``."""

    name: str
    kind: str
    overrides: Callable[[int], dict[str, object]]

    def rules(self, players: int) -> Rules:
        """The rules of this house rule at a table of ``players``."""
        return Rules(players=players, **self.overrides(players))


def _fixed(**overrides: object) -> Callable[[int], dict[str, object]]:
    return lambda players: dict(overrides)


def even_schedule(players: int) -> dict[str, object]:
    """The canonical schedule with deals of the most cards added at its end until its
    length is a multiple of ``players``: every seat deals equally often."""
    schedule = Rules(players=players).schedule
    extra = -len(schedule) % players
    return {"schedule": schedule + (max(schedule),) * extra}


def one_card_round(players: int) -> dict[str, object]:
    """The canonical schedule with its one-card deal played ``players`` times in a row:
    every seat deals one one-card deal."""
    schedule = Rules(players=players).schedule
    middle = schedule.index(1)
    return {"schedule": schedule[:middle] + (1,) * players + schedule[middle + 1 :]}


#: The rules studied, each against the canonical game.
HOUSE_RULES = (
    HouseRule(CANONICAL, "canonical", _fixed()),
    HouseRule("no hook", "hook", _fixed(hook=False)),
    HouseRule("no hook on the one-card deal", "hook", _fixed(hook_one_card=False)),
    HouseRule("every seat deals equally often", "schedule", even_schedule),
    HouseRule("every seat deals a one-card deal", "schedule", one_card_round),
    HouseRule("schedule 1 to most to 1", "schedule", _fixed(deal_order="1-max-1")),
    HouseRule("short game, most down to 1", "schedule", _fixed(deal_order="max-1")),
    *(
        HouseRule(f"made = {t}", "scoring", _fixed(made=t))
        for t in ("10*bid", "10+bid^2", "10+2*bid", "5+bid")
    ),
    *(HouseRule(f"zero = {t}", "scoring", _fixed(zero=t)) for t in ("5", "5+cards", "10+cards")),
    *(
        HouseRule(f"miss = {t}", "scoring", _fixed(over=t, under=t))
        for t in ("taken", "-diff", "-diff^2", "-10*diff")
    ),
    HouseRule("+10 for bidding the whole hand", "scoring", _fixed(all_bonus=10)),
    HouseRule("double for bidding the whole hand", "scoring", _fixed(double_all=True)),
)
RULE_NAMES = tuple(rule.name for rule in HOUSE_RULES)

AHEAD = "stronger ahead of weaker (share of games)"
SKILL_POINTS = "stronger - weaker (points per game)"
FIRST_SEAT = "first bidder's gap (points per game)"
ONE_CARD = "one-card dealer's gap (points per game)"
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
                    Condition({**label, "rule": rule.name}, rule.rules(n), seats, games)
                    for rule in HOUSE_RULES
                ]
    return out


def game_measures(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per (rule, field, players, game): every measure of :data:`MEASURES`, averaged
    over the two seat orders.

    The first bidder is the seat left of the game's first dealer (the same seat
    under every rule); the one-card dealers are the seats that deal a one-card
    deal of the rule's schedule (none is singled out, NaN, when every seat deals one).
    """
    keys = ["condition", "game"]
    seats = _seats(games).merge(_roles(hands), on=["condition", "game", "seat"], how="left")
    grouped = seats.groupby(keys, observed=True, sort=True)
    top = grouped["total"].transform("max")
    out = pd.DataFrame(
        {
            SKILL_POINTS: _side_mean(seats, True) - _side_mean(seats, False),
            FIRST_SEAT: _role_gap(seats, "first"),
            ONE_CARD: _role_gap(seats, "one_card"),
            MARGIN: grouped["total"].max() - _second(seats),
            TIES: (seats["total"] == top).groupby([seats[k] for k in keys]).sum() > 1,
        }
    )
    out[AHEAD] = _pairs(seats).groupby(keys)["ahead"].mean()
    out[TIES] = out[TIES].astype(float)
    lead = _lead_changes(hands)
    out[LEAD_CHANGES], out[DEALS] = lead["changes"], lead["deals"]
    labels = grouped[["players", "field", "order", "rule"]].first()
    per_order = labels.join(out).reset_index()
    per_order = per_order.astype({"rule": str, "field": str})
    keys = ["rule", "field", "players", "game"]
    return per_order.groupby(keys, sort=True)[list(MEASURES)].mean().reset_index()


def _seats(games: pd.DataFrame) -> pd.DataFrame:
    """The seats' final totals with ``stronger``: the seat holds its field's stronger strategy."""
    columns = ["condition", "game", "players", "field", "order", "rule", "seat", "strategy"]
    seats = games[[*columns, "total"]].copy()
    stronger = seats["field"].map({f: pair[0] for f, pair in FIELD_PAIRS.items()})
    seats["stronger"] = seats["strategy"].astype(str) == stronger.astype(str)
    return seats


def _roles(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (condition, game, seat): whether it bids first in the first deal, and whether it
    deals a one-card deal of the condition's schedule."""
    first = hands[hands["deal"] == 0]
    position = bidding_position(
        first["seat"].to_numpy(), first["dealer"].to_numpy(), first["players"].to_numpy()
    )
    roles = first[["condition", "game", "seat"]].assign(first=position == 0)
    dealt = hands[(hands["hand_size"] == 1) & (hands["seat"] == hands["dealer"])]
    dealer = dealt[["condition", "game", "seat"]].drop_duplicates().assign(one_card=True)
    roles = roles.merge(dealer, on=["condition", "game", "seat"], how="left")
    roles["one_card"] = roles["one_card"].notna()
    return roles


def _role_gap(seats: pd.DataFrame, role: str) -> pd.Series:
    """Per (condition, game): the mean total of the seats in ``role`` minus that of the
    others; NaN where every seat or none is in it."""
    keys = ["condition", "game", role]
    means = seats.groupby(keys, observed=True)["total"].mean().unstack(role)
    if True not in means.columns or False not in means.columns:
        return pd.Series(np.nan, index=means.index)
    return means[True] - means[False]


def _side_mean(seats: pd.DataFrame, stronger: bool) -> pd.Series:
    side = seats[seats["stronger"] == stronger]
    return side.groupby(["condition", "game"], observed=True)["total"].mean()


def _second(seats: pd.DataFrame) -> pd.Series:
    """Per (condition, game): the runner-up's total (the second highest)."""
    keys = ["condition", "game"]
    rank = seats.groupby(keys, observed=True)["total"].rank(method="first", ascending=False)
    return seats[rank == 2].set_index(keys)["total"]


def _pairs(seats: pd.DataFrame) -> pd.DataFrame:
    """Every (stronger seat, weaker seat) pair of a game: ``ahead`` (1, a half for a tie,
    or 0) and ``diff``, the stronger's total minus the weaker's."""
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
        scores = part["score"].to_numpy(dtype=np.int64).reshape(len(games), -1, n)
        running = scores.cumsum(axis=1)
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
    """Per (rule, field): the games a stronger player needs to be ahead of a weaker one 95% of
    the time, ``(z * sd / mean)**2`` of a pair's per-game difference (normal
    approximation), mean and sd averaged over table sizes; infinite when the
    stronger is not ahead on average."""
    pairs = _pairs(_seats(games))
    moments = pairs.groupby(["rule", "field", "players"], observed=True)["diff"].agg(
        ["mean", "std"]
    )
    pooled = moments.groupby(["rule", "field"], observed=True).mean()
    return pooled.assign(games=games_to_be_ahead(pooled["mean"], pooled["std"])).reset_index()


def effects(measures: pd.DataFrame) -> pd.DataFrame:
    """Per (rule, measure, field, players, game): the rule's value minus the canonical game's,
    on the same cards."""
    long = measures.melt(
        id_vars=["rule", "field", "players", "game"], var_name="measure", value_name="value"
    ).dropna(subset=["value"])
    base = long[long["rule"] == CANONICAL].drop(columns="rule")
    paired = long[long["rule"] != CANONICAL].merge(
        base, on=["field", "players", "game", "measure"], suffixes=("", "_canonical")
    )
    return paired.assign(value=paired["value"] - paired["value_canonical"]).drop(
        columns="value_canonical"
    )


def run_effects(data: StudyData) -> pd.DataFrame:
    """:func:`effects` of one run's games."""
    return effects(game_measures(data.hands, data.games))


def family_parts(diffs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The family of one run (its :func:`effects`): each tested effect per field,
    standardised over table sizes, and per (rule, measure) the test that the fields differ."""
    tested = diffs[diffs["measure"].isin(TESTED)]
    rows = standardised_mean(tested, tested["value"], ["rule", "measure", "field"], "players")
    between = heterogeneity(tested, ["rule", "measure"], "field", stratum="players")
    between = between[between["fields"] > 1].assign(estimate=np.nan, low=np.nan, high=np.nan)
    return adjust_parts({"effects": rows, "fields differ": between}, CORRECTION, ALPHA)


def confirmed_parts(data: StudyData, diffs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """:func:`family_parts` of the run (its effects ``diffs``), its surviving rows checked
    on the confirmation run."""
    second = None if data.confirmation is None else family_parts(run_effects(data.confirmation))
    return confirm_parts(family_parts(diffs), second, FAMILY_KEYS)


def judgements(found: pd.DataFrame, baseline: pd.Series, sizes: pd.DataFrame) -> pd.DataFrame:
    """What each established effect means: one row per (rule, measure, field) with ``word``.

    ``found`` is the confirmed ``effects`` part, ``baseline`` the canonical game's
    standardised value per (measure, field) and ``sizes`` the per-size effects
    (unadjusted), used only to withhold a claim whose table sizes disagree in sign.
    """
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
    """What the established effect of ``rule`` on ``measure`` in ``field`` means, or ""."""
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


#: The judgements that make a game more skilful or fairer, and those that make it less so.
GAINS = ("more skill", "fairer")
LOSSES = ("more luck", "less fair")


def advice(judged: pd.DataFrame) -> dict[str, list[str]]:
    """The rules by what they do for a skilful, fair game: ``adopt`` (a gain in both fields
    and no loss), ``one field`` (a gain in one field only, no loss), ``weigh`` (gains and
    losses) and ``avoid`` (losses only)."""
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
    """The report: one verdict per rule, the ranking on each aspect, and the canonical game."""
    measures = game_measures(data.hands, data.games)
    diffs = effects(measures)
    parts = confirmed_parts(data, diffs)
    found = parts["effects"]
    sizes = grouped_mean(diffs, diffs["value"], ["rule", "measure", "field", "players"])
    base = measures[measures["rule"] == CANONICAL]
    base_long = base.melt(id_vars=["rule", "field", "players", "game"], var_name="measure")
    base_long = base_long.dropna(subset=["value"])
    baseline = standardised_mean(base_long, base_long["value"], ["measure", "field"], "players")
    judged = judgements(found, baseline.set_index(["measure", "field"])["estimate"], sizes)
    verdict = verdicts(judged, found)
    ahead = games_ahead_by_rule(data.games)
    deals = diffs[diffs["measure"] == DEALS].groupby("rule", sort=False)["value"]
    verdict["length"] = [_deals_text(deals.min()[r], deals.max()[r]) for r in verdict["rule"]]
    cost = costs(verdict)
    verdict["cost"] = cost.to_numpy()
    answer = _answer_table(baseline, found, ahead)
    tables = [
        Table("One verdict per house rule (established effects; field in brackets)", verdict),
        Table(
            "The numbers of the answer: the canonical game and each rule's effect "
            "(standardised over table sizes, 95% CI)",
            answer,
        ),
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
            display_table(_ordered(sizes[sizes["measure"].isin(TESTED)]), digits=3),
        ),
    ]
    figures = [_skill_figure(found)]
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, parts),
        _findings(found),
        tables,
        figures,
        in_short=_in_short(advice(judged), answer),
    )


def _deals_text(fewest: float, most: float) -> str:
    """The change in deals per game over the table sizes: ``"+1 to +3 deals per game"``."""
    fewest, most = round(float(fewest)), round(float(most))
    if fewest == most == 0:
        return "same deals"
    span = f"{fewest:+d}" if fewest == most else f"{fewest:+d} to {most:+d}"
    return f"{span} deal{'' if fewest == most and abs(most) == 1 else 's'} per game"


AHEAD_GAMES = "games for the stronger to be ahead 95% of the time"


def _answer_table(baseline: pd.DataFrame, found: pd.DataFrame, ahead: pd.DataFrame) -> pd.DataFrame:
    """The numbers of the In short: per field, the canonical game's skill and one-card
    dealer's gap, and the established effect that brings that gap closest to zero."""
    rows = []
    for field in FIELDS:
        skill, gap = (_where(baseline, measure=m, field=field) for m in (AHEAD, ONE_CARD))
        games = _where(ahead, rule=CANONICAL, field=field)["games"].iloc[0]
        rows += [
            (CANONICAL, AHEAD, field, _value(skill, AHEAD)),
            (CANONICAL, ONE_CARD, field, _value(gap, ONE_CARD)),
            (CANONICAL, AHEAD_GAMES, field, fmt_number(games, 0)),
        ]
        best = _best_fix(found, field, float(gap["estimate"].iloc[0]))
        if best is not None:
            fix = _value(best.to_frame().T, ONE_CARD)
            rows.append((best["rule"], f"{ONE_CARD}, change", field, fix))
    return pd.DataFrame(rows, columns=["rule", "measure", "field", "value"])


def _where(frame: pd.DataFrame, **equal: object) -> pd.DataFrame:
    """The rows of ``frame`` whose columns equal the values given."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in equal.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def _value(rows: pd.DataFrame, measure: str) -> str:
    """An estimate and its interval in a designer's units: a share in percent, the rest
    with two decimals."""
    if rows.empty:
        return "n/a"
    row = rows.iloc[0]
    scale, digits = (100.0, 1) if "share" in measure else (1.0, 2)
    unit = "%" if scale == 100.0 else ""
    return (
        f"{fmt_number(row['estimate'] * scale, digits)}{unit} "
        f"[{fmt_number(row['low'] * scale, digits)}, {fmt_number(row['high'] * scale, digits)}]"
    )


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
    per_size = base.groupby(["field", "players"], observed=True)[list(MEASURES)].mean()
    table = per_size.reset_index()
    for share in (AHEAD, TIES):
        table[share] = table[share] * 100
    table = table.rename(columns={AHEAD: f"{_short(AHEAD)} (%)", TIES: f"{_short(TIES)} (%)"})
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
    table = rows.assign(
        estimate=rows["estimate"] * 100, low=rows["low"] * 100, high=rows["high"] * 100
    )
    png = interval_plot(
        table,
        "rule",
        series="field",
        title="Skill: change in how often the stronger finishes ahead",
        xlabel="house rule",
        ylabel="percentage points, rule - canonical",
        zero_line=True,
        order=RULE_NAMES[1:],
        horizontal=True,
    )
    return Figure(
        "skill_by_rule.png",
        "How often the stronger of two players finishes ahead of the weaker, each rule minus "
        "the canonical game (standardised over table sizes).",
        png,
    )


def _method(manifest: dict, parts: dict[str, pd.DataFrame]) -> list[str]:
    fields = "; ".join(f"{f}: {s} and {w} in alternate seats" for f, (s, w) in FIELD_PAIRS.items())
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
        "rule's schedule, each minus the mean of the other seats." + _same_seat(manifest),
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


def _same_seat(manifest: dict) -> str:
    """Where the first bidder also deals the one-card deal (it is dealt one deal after a
    multiple of the table size), said once."""
    sizes = sorted({c["rules"]["players"] for c in manifest["conditions"]})
    same = [n for n in sizes if Rules(players=n).schedule.index(1) % n == 1]
    listed = " and ".join(map(str, same))
    return f" In the canonical game at {listed} players they are the same seat." if same else ""


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
    adopt = ", ".join(advised["adopt"]) or "none of the rules studied"
    verdict = f"For a skilful, fair game adopt {adopt}"
    if advised["one field"]:
        verdict += f"; {', '.join(advised['one field'])} help in one field only"
    if advised["weigh"]:
        verdict += (
            f"; weigh {', '.join(advised['weigh'])}, each better in one way, worse in another"
        )
    if advised["avoid"]:
        verdict += f"; avoid {', '.join(advised['avoid'])}"

    def cells(rule: str, measure: str) -> list[str]:
        rows = _where(answer, rule=rule, measure=measure)
        return [
            f"{value} ({field} field)"
            for field, value in zip(rows["field"], rows["value"], strict=True)
        ]

    skill = " and ".join(cells(CANONICAL, AHEAD))
    games = " and ".join(cells(CANONICAL, AHEAD_GAMES))
    gap = " and ".join(cells(CANONICAL, ONE_CARD))
    fixes = answer[answer["measure"] == f"{ONE_CARD}, change"]
    fixed = "; ".join(
        f"{rule} moves it by {' and '.join(cells(rule, f'{ONE_CARD}, change'))}"
        for rule in pd.unique(fixes["rule"])
    )
    return [
        verdict + ". The first table gives each rule's cost in lead changes, margins and deals.",
        f"In the canonical game the stronger of two players finishes ahead in {skill} of "
        f"games, and needs {games} games to be ahead 95% of the time.",
        f"The one-card deal's dealer has a gap of {gap} points per game to the other seats"
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
