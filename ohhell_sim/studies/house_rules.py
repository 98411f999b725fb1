"""Study ``house_rules``: one verdict per house rule, on skill, fairness, tension and length.

Every house rule (the hook's forms, schedules, each scoring table of the sources) is played
against the canonical game on the same cards, at every table size, in a weak and a strong
field of two strategies in alternate seats, each game again with their seats exchanged; the
effects and the tests that the fields differ form one family, confirmed at a second seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.figures import interval_plot
from ohhell_sim.analysis.findings import heterogeneity
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, fmt_p
from ohhell_sim.analysis.report import Figure, Report, Table
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import get_strategy
from ohhell_sim.studies.design import bidding_position, check_fields, games_to_be_ahead
from ohhell_sim.studies.family import (
    ALPHA,
    CORRECTION,
    confirm_family,
    correct,
    games_text,
    games_to_detect,
)
from ohhell_sim.studies.measures import clip_shares
from ohhell_sim.studies.report import in_order, study_report
from ohhell_sim.studies.rule_sets import (
    PAIR_SEPARATOR,
    parse_pair,
    rule_set_name,
    rule_sets,
    scoring_only,
)
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


#: The scoring tables of the sources in a player's words: made bids, made zeros, missed bids.
MADE_NAMES = {
    "10*bid": "10 × bid",
    "10+bid^2": "10 + bid²",
    "10+2*bid": "10 + 2 × bid",
    "5+bid": "5 + bid",
}
ZERO_NAMES = {"5": "5", "5+cards": "5 + cards", "10+cards": "10 + cards"}
MISS_NAMES = {
    "taken": "1 per trick taken",
    "-diff": "−1 per trick off",
    "-diff^2": "−(tricks off)²",
    "-10*diff": "−10 per trick off",
}

#: The rules studied, each against the canonical game: name -> its overrides at a table of n.
HOUSE_RULES: dict[str, Callable[[int], dict[str, object]]] = {
    CANONICAL: _fixed(),
    "no hook": _fixed(hook=False),
    "no hook on the one-card deal": _fixed(hook_one_card=False),
    "every seat deals equally often": even_schedule,
    "every seat deals a one-card deal": one_card_round,
    "schedule 1→most→1": _fixed(deal_order="1-max-1"),
    "short game, most→1": _fixed(deal_order="max-1"),
    **{f"made bid scores {said}": _fixed(made=table) for table, said in MADE_NAMES.items()},
    **{f"made zero scores {said}": _fixed(zero=table) for table, said in ZERO_NAMES.items()},
    **{
        f"missed bid scores {said}": _fixed(over=table, under=table)
        for table, said in MISS_NAMES.items()
    },
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


DETECT = "games to detect it"


@dataclass(frozen=True)
class Played:
    """What a run played, read from its manifest by :func:`played`.

    Attributes
    ----------
    rules : tuple of str
        The rules in the order played, the base (the canonical game, or a designer's
        base) first.
    fields : tuple of str
        The fields played.
    pairs : mapping
        Per field, its stronger and weaker strategy (as the manifest writes seats).
    unjudged : frozenset of (rule, field)
        A rule that changes only the scoring, in a field whose players do not all bid
        for the scoring table: its effects there are shown, not judged.
    no_one_card : mapping
        Per rule, why it may have no one-card dealer's gap (every seat deals one, or none).
    games : int
        Games per condition of the run.
    first_deals_one : frozenset of (rule, players)
        Where the first bidder of the game also deals a one-card deal: its two gaps are
        one seat's there, which can turn an effect's sign between table sizes.
    """

    rules: tuple[str, ...]
    fields: tuple[str, ...]
    pairs: Mapping[str, tuple[str, ...]]
    unjudged: frozenset[tuple[str, str]]
    no_one_card: Mapping[str, str]
    games: int
    first_deals_one: frozenset[tuple[str, int]] = frozenset()

    @property
    def base(self) -> str:
        """The rule every other is judged against."""
        return self.rules[0]

    @property
    def variants(self) -> tuple[str, ...]:
        """The rules judged."""
        return self.rules[1:]

    def judged_fields(self, rule: str) -> tuple[str, ...]:
        """The fields in which ``rule`` is judged."""
        return tuple(f for f in self.fields if (rule, f) not in self.unjudged)


def played(manifest: dict) -> Played:
    """The :class:`Played` of a study manifest (its conditions, their seats and rules)."""
    conditions = manifest["conditions"]
    labels = [c["label"] for c in conditions]
    rules = tuple(dict.fromkeys(label["rule"] for label in labels))
    fields = tuple(dict.fromkeys(label["field"] for label in labels))
    pairs = {
        label["field"]: tuple(c["seats"][:2])
        for c, label in zip(conditions, labels, strict=True)
        if label["order"] == 0
    }

    def cell(label: dict) -> tuple:
        return label["players"], label["field"], label["order"]

    base = {
        cell(lb): c["rules"]
        for c, lb in zip(conditions, labels, strict=True)
        if lb["rule"] == rules[0]
    }
    changes_play = {
        lb["rule"]
        for c, lb in zip(conditions, labels, strict=True)
        if not scoring_only(c["rules"], base[cell(lb)])
    }
    blind = {lb["field"] for c, lb in zip(conditions, labels, strict=True) if not _reads_scoring(c)}
    scoring = [rule for rule in rules[1:] if rule not in changes_play]
    no_one_card, first_deals_one = {}, set()
    for c, label in zip(conditions, labels, strict=True):
        schedule, n = c["rules"]["schedule"], c["rules"]["players"]
        # The first bidder of deal 0 deals deal i when i is one more than a multiple of n.
        if any(i % n == 1 for i, cards in enumerate(schedule) if cards == 1):
            first_deals_one.add((label["rule"], n))
        if 1 not in schedule:
            no_one_card.setdefault(label["rule"], "no seat deals a one-card deal")
        elif len({i % n for i, cards in enumerate(schedule) if cards == 1}) == n:
            no_one_card.setdefault(label["rule"], "every seat deals a one-card deal")
    games = manifest.get("games") or max(c["games"] for c in conditions)
    return Played(
        rules,
        fields,
        pairs,
        frozenset((rule, field) for rule in scoring for field in blind),
        no_one_card,
        int(games),
        frozenset(first_deals_one),
    )


def _reads_scoring(condition: dict) -> bool:
    """Whether every seat of a manifest's condition bids for the scoring table (recorded when
    played; a manifest written before that names built-ins, looked up)."""
    reads = condition.get("reads_scoring")
    if reads is None:
        reads = [get_strategy(seat.split("(")[0]).reads_scoring for seat in condition["seats"]]
    return all(reads)


def field_names(fields: object) -> tuple[str, ...]:
    """``fields`` checked: names of :data:`FIELD_PAIRS`, or ``STRONGER/WEAKER`` pairs of
    registered strategies (:func:`~ohhell_sim.studies.rule_sets.parse_pair`)."""
    values = (fields,) if isinstance(fields, str) else fields
    values = tuple(values) if isinstance(values, Iterable) else (values,)
    for value in values:
        if isinstance(value, str) and PAIR_SEPARATOR in value:
            parse_pair(value)
        elif value not in FIELD_PAIRS:
            raise InvalidArgumentError(
                f"unknown field {value!r} in fields; fields: {', '.join(FIELDS)}, or two "
                "strategies STRONGER/WEAKER (e.g. card_counter/simple)"
            )
    return check_fields(values, values)


def field_pair(field: str) -> tuple[str, str]:
    """The stronger and the weaker strategy of ``field`` (see :func:`field_names`)."""
    return FIELD_PAIRS[field] if field in FIELD_PAIRS else parse_pair(field)


def rules_studied(
    players: Sequence[int], variants: Sequence[str] | None = None, base: str | None = None
) -> dict[str, Callable[[int], dict[str, object]]]:
    """The rules played, the base first: :data:`HOUSE_RULES`, or the ``variants`` on top of
    ``base`` (:func:`~ohhell_sim.studies.rule_sets.rule_sets`), checked at every table size."""
    if variants is None:
        if base is not None:
            raise InvalidArgumentError(
                f"base {base!r} needs variants to judge against it (--variant RULES, e.g. "
                "made=10*bid)"
            )
        return HOUSE_RULES
    name = CANONICAL if base is None else f"base game ({rule_set_name(base)})"
    return {
        rule: _fixed(**rules) for rule, rules in rule_sets(variants, base, players, name).items()
    }


def conditions(
    games: int,
    players: tuple[int, ...],
    fields: Sequence[str] = FIELDS,
    variants: Sequence[str] | None = None,
    base: str | None = None,
) -> list[Condition]:
    """Every rule of :func:`rules_studied`, table size, field and seat order (the field's two
    strategies in alternate seats, :func:`field_pair`)."""
    studied = rules_studied(players, variants, base)
    out = []
    for field in field_names(fields):
        stronger, weaker = field_pair(field)
        for n in players:
            for order, first in enumerate(((stronger, weaker), (weaker, stronger))):
                seats = tuple(first[i % 2] for i in range(n))
                label = {"players": n, "field": field, "order": order}
                out += [
                    Condition({**label, "rule": rule}, Rules(players=n, **rules(n)), seats, games)
                    for rule, rules in studied.items()
                ]
    return out


#: What :func:`seat_roles` keeps of a game's hands, per seat.
ROLE_COLUMNS = ("first", "one_card", "changes", "deals")


def seat_roles(hands: pd.DataFrame) -> pd.DataFrame:
    """What the measures need of the hands, one row per (condition, game, seat): ``first``
    and ``one_card`` (:func:`_roles`), and the game's lead ``changes`` and ``deals``
    (:func:`_lead_changes`).  The study keeps this instead of every deal, condition by
    condition, so that its memory grows with its games by a few rows per game."""
    lead = _lead_changes(hands).reset_index()
    return _roles(hands).merge(lead, on=["condition", "game"], how="left")


def game_measures(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per (rule, field, players, game): every measure of :data:`MEASURES` (defined
    in the report's method), averaged over the two seat orders; ``hands`` are every deal,
    or :func:`seat_roles` of them."""
    keys = ["condition", "game"]
    roles = hands if set(ROLE_COLUMNS) <= set(hands.columns) else seat_roles(hands)
    seats = _seats(games).merge(
        roles[[*keys, "seat", "first", "one_card"]], on=[*keys, "seat"], how="left"
    )
    grouped = seats.groupby(keys, observed=True, sort=True)
    top = grouped["total"].transform("max")
    second = seats[grouped["total"].rank(method="first", ascending=False) == 2]
    ties = (seats["total"] == top).groupby([seats[k] for k in keys]).sum() > 1
    lead = roles.drop_duplicates(keys).set_index(keys)[["changes", "deals"]].sort_index()
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
    """The seats' final totals with ``stronger``: the seat holds its field's stronger strategy
    (the even seats in the first seat order, the odd ones in the second: :func:`conditions`)."""
    columns = ["condition", "game", "players", "field", "rule", "seat", "total"]
    stronger = (games["seat"].to_numpy() % 2 == 0) == (games["order"].to_numpy() == 0)
    return games[columns].assign(stronger=stronger)


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


def effects(measures: pd.DataFrame, base: str = CANONICAL) -> pd.DataFrame:
    """Per (rule, measure, field, players, game): the rule's value minus the ``base`` rule's."""
    long = _long(measures)
    reference = long[long["rule"] == base].drop(columns="rule")
    paired = long[long["rule"] != base].merge(
        reference, on=["field", "players", "game", "measure"], suffixes=("", "_canonical")
    )
    paired["value"] -= paired.pop("value_canonical")
    return paired


def family_parts(
    diffs: pd.DataFrame, unjudged: frozenset[tuple[str, str]] = frozenset()
) -> dict[str, pd.DataFrame]:
    """The family of one run's :func:`effects`: each tested effect per field, standardised
    over table sizes, and per (rule, measure) the test that the fields differ; the
    ``unjudged`` (rule, field) pairs (:attr:`Played.unjudged`) left out."""
    tested = diffs[diffs["measure"].isin(TESTED)]
    if unjudged:
        pairs = pd.MultiIndex.from_frame(tested[["rule", "field"]].astype(str))
        tested = tested[~pairs.isin(list(unjudged))]
    rows = standardised_mean(tested, tested["value"], ["rule", "measure", "field"], "players")
    between = heterogeneity(tested, ["rule", "measure"], "field", stratum="players")
    between = between[between["fields"] > 1].assign(estimate=np.nan, low=np.nan, high=np.nan)
    return correct({"effects": rows, "fields differ": between})


def judgements(
    found: pd.DataFrame, baseline: pd.Series, sizes: pd.DataFrame, design: Played
) -> pd.DataFrame:
    """What each established effect means: per (rule, measure, judged field), its
    :func:`_direction`, the ``shift`` and its size in words (``size``)."""
    rows = []
    for rule in design.variants:
        for measure in TESTED:
            for field in design.judged_fields(rule):
                word = _direction(found, baseline, sizes, rule, measure, field)
                if not word:
                    continue
                shift = float(
                    _where(found, rule=rule, measure=measure, field=field)["estimate"].iloc[0]
                )
                if word == OPPOSITE_SIZES:
                    cells = _where(sizes, rule=rule, measure=measure, field=field)
                    size = _per_size(cells, measure) + _same_seat(cells, design, rule, measure)
                elif measure in WORDS:
                    size = f"{_arrow(shift)} {_amount(measure, shift)}"
                else:
                    gap = float(baseline.loc[(measure, field)])
                    size = f"{_arrow(shift)} {gap:+.2f} → {gap + shift:+.2f} points"
                rows.append(
                    {"rule": rule, "measure": measure, "field": field, "word": word}
                    | {"shift": shift, "size": size}
                )
    return pd.DataFrame(rows, columns=["rule", "measure", "field", "word", "shift", "size"])


def _arrow(shift: float) -> str:
    return "↑" if shift > 0 else "↓"


def _amount(measure: str, value: float) -> str:
    """A change of ``measure`` in its unit: points of percentage for a share."""
    if "share" in measure:
        return f"{value * 100:+.1f} pp"
    unit = "per game" if measure == LEAD_CHANGES else "points"
    return f"{value:+.2f} {unit}"


def _per_size(cells: pd.DataFrame, measure: str) -> str:
    """The table sizes whose cells exclude zero, each with its change: ``"+0.40 points at 3,
    -0.80 points at 7 players"``."""
    shown = cells[(cells["low"] > 0) | (cells["high"] < 0)].sort_values("players")
    said = [f"{_amount(measure, r['estimate'])} at {r['players']}" for _, r in shown.iterrows()]
    return ", ".join(said) + " players"


def _same_seat(cells: pd.DataFrame, design: Played, rule: str, measure: str) -> str:
    """Why a seat's gap may turn sign between table sizes, where it is visible: at some of
    the sizes shown, and not at others, the first bidder also deals a one-card deal."""
    if measure not in (FIRST_SEAT, ONE_CARD):
        return ""
    shown = cells.loc[(cells["low"] > 0) | (cells["high"] < 0), "players"]
    same = sorted(int(n) for n in shown if (rule, int(n)) in design.first_deals_one)
    if not same or len(same) == len(shown):
        return ""
    return f"; at {', '.join(map(str, same))} players the first bidder also deals a one-card deal"


def verdicts(
    judged: pd.DataFrame, found: pd.DataFrame, design: Played, ahead: pd.DataFrame | None = None
) -> pd.DataFrame:
    """One row per rule: per aspect what its :func:`judgements` say, with their sizes, or
    that nothing was established and at how many games it would be; the fields judged."""
    rows = []
    for rule in design.variants:
        row = {"rule": rule}
        for aspect, measures in ASPECTS.items():
            said = []
            for measure in measures:
                said += _in_fields(measure, _where(judged, rule=rule, measure=measure), design)
                missing = _where(found, rule=rule, measure=ONE_CARD).empty
                if measure == ONE_CARD and missing and rule in design.no_one_card:
                    said.append(f"no one-card dealer's gap: {design.no_one_card.get(rule, '')}")
            if aspect == "skill" and ahead is not None:
                said += _games_ahead_change(judged, ahead, design, rule)
            row[aspect] = "; ".join(said) or _unsettled(found, design, rule, measures)
        row["judged in"] = _judged_in(design, rule)
        rows.append(row)
    return pd.DataFrame(rows)


def _in_fields(measure: str, mine: pd.DataFrame, design: Played) -> list[str]:
    """``"fairer, one-card dealer's gap: ↑ -2.11 → -0.20 points (weak), ..."``: one phrase per
    judgement, each field's size beside it."""
    what = "" if measure in WORDS else f", {_short(measure)}"
    out = []
    for word in pd.unique(mine["word"]):
        rows = mine[mine["word"] == word]
        sizes = ", ".join(f"{r['size']} ({r['field']})" for _, r in rows.iterrows())
        out.append(f"{word}{what}: {sizes}")
    return out


def _games_ahead_change(
    judged: pd.DataFrame, ahead: pd.DataFrame, design: Played, rule: str
) -> list[str]:
    """Where skill changed: the games the stronger needs to be ahead 95% of the time, base
    game to rule, per field."""
    fields = _where(judged, rule=rule, measure=AHEAD)
    fields = fields.loc[fields["word"].isin(WORDS[AHEAD]), "field"]
    said = []
    for field in fields:
        before, after = (
            float(_where(ahead, rule=r, field=field)["games"].iloc[0]) for r in (design.base, rule)
        )
        said.append(f"{fmt_number(before, 0)} → {fmt_number(after, 0)} games ({field})")
    return [f"games to be ahead 95% of the time: {', '.join(said)}"] if said else []


def _unsettled(found: pd.DataFrame, design: Played, rule: str, measures: Sequence[str]) -> str:
    """What a verdict says where no effect was established: at how many games, and (skill)
    about how many would find the effect seen."""
    rows = _where(found, rule=rule)
    rows = rows[rows["measure"].isin(measures) & ~rows["established"].astype(bool)]
    if rows.empty:
        return "not judged: no field's players bid for the scoring table"
    text = f"not established at {design.games} games"
    if len(measures) == 1:
        rows = rows.assign(_field=rows["field"].map(design.fields.index)).sort_values("_field")
        needed = [
            f"{games_text(r[DETECT])} the {_amount(r['measure'], r['estimate'])} seen "
            f"({r['field']})"
            for _, r in rows.iterrows()
        ]
        text += f"; {', '.join(needed)}"
    return text


def _judged_in(design: Played, rule: str) -> str:
    fields = design.judged_fields(rule)
    text = ", ".join(fields) or "none"
    left = [f for f in design.fields if f not in fields]
    if left:
        text += f" ({', '.join(left)}: its players bid alike under every scoring table)"
    return text


def _direction(
    found: pd.DataFrame,
    baseline: pd.Series,
    sizes: pd.DataFrame,
    rule: str,
    measure: str,
    field: str,
) -> str:
    """What the established effect of ``rule`` on ``measure`` in ``field`` means, or "": judged
    against the base game's ``baseline``, withheld where the per-size ``sizes`` disagree."""
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


def costs(judged: pd.DataFrame, lengths: pd.Series, design: Played) -> pd.Series:
    """Per rule, what it costs in tension (established, per field) and in deals per game."""
    out = {}
    for rule in design.variants:
        mine = _where(judged, rule=rule)
        mine = mine[mine["word"].isin(COSTS)]
        said = [
            f"{word} ({', '.join(mine.loc[mine['word'] == word, 'field'])})"
            for word in pd.unique(mine["word"])
        ]
        if lengths[rule] != "same deals":
            said.append(lengths[rule])
        out[rule] = "; ".join(said) or "none established"
    return pd.Series(out)


def advice(judged: pd.DataFrame, design: Played) -> dict[str, list[str]]:
    """The rules by what they do for a skilful, fair game: ``adopt`` (a gain in every field
    that judges it, no loss), ``one field`` (a gain in some, no loss), ``weigh`` (both) and
    ``avoid`` (losses)."""
    out: dict[str, list[str]] = {"adopt": [], "one field": [], "weigh": [], "avoid": []}
    for rule in design.variants:
        mine = _where(judged, rule=rule)
        better = set(mine.loc[mine["word"].isin(GAINS), "field"])
        worse = set(mine.loc[mine["word"].isin(LOSSES), "field"])
        if better and worse:
            out["weigh"].append(rule)
        elif worse:
            out["avoid"].append(rule)
        elif better:
            every = better == set(design.judged_fields(rule))
            out["adopt" if every else "one field"].append(rule)
    return out


def _pooled(
    data: StudyData, measures: pd.DataFrame, again: pd.DataFrame | None
) -> tuple[pd.DataFrame, pd.DataFrame, str, int]:
    """The run's per-game measures and games with the confirmation run's (its games numbered
    after the run's; ``again``, the confirmation's measures), which they are in words, and
    their games per condition."""
    run = data.confirmation
    if run is None or again is None:
        source = "the run alone (no confirmation run was played)"
        return measures, data.games, source, design_games(data)
    offset = int(data.games["game"].max()) + 1
    pooled = pd.concat([measures, again.assign(game=again["game"] + offset)], ignore_index=True)
    games = pd.concat(
        [data.games, run.games.assign(game=run.games["game"] + offset)], ignore_index=True
    )
    games = games.astype({"rule": str, "field": str})
    first, second = design_games(data), design_games(run)
    source = f"both runs pooled, {first} + {second} games per condition"
    return pooled, games, source, first + second


def design_games(data: StudyData) -> int:
    """Games per condition of the run (its manifest)."""
    return int(data.manifest.get("games") or max(c["games"] for c in data.manifest["conditions"]))


def analyse(data: StudyData) -> Report:
    """The report: one verdict per rule, its numbers, every effect and test, the base game."""
    design = played(data.manifest)
    measures = game_measures(data.hands, data.games)
    diffs = effects(measures, design.base)
    run = data.confirmation
    again = None if run is None else game_measures(run.hands, run.games)

    def family_of(one: StudyData) -> dict[str, pd.DataFrame]:
        found = diffs if one is data else effects(again, design.base)
        return family_parts(found, design.unjudged)

    parts = confirm_family(data, family_of, FAMILY_KEYS)
    found = parts["effects"]
    # The numbers quoted: both runs pooled, not the run that chose the findings (biased up).
    pooled, games, source, games_per_condition = _pooled(data, measures, again)
    pooled_diffs = effects(pooled, design.base)
    tested = pooled_diffs[pooled_diffs["measure"].isin(TESTED)]
    keys = ["rule", "measure", "field"]
    headline = found[[*keys, "established"]].merge(
        standardised_mean(tested, tested["value"], keys, "players"), on=keys
    )
    needed = games_to_detect(headline, games_per_condition, _family_size(parts))
    headline[DETECT] = np.where(headline["established"].astype(bool), np.nan, needed)
    found = found.merge(headline[[*keys, DETECT]], on=keys, how="left")
    sizes = grouped_mean(pooled_diffs, pooled_diffs["value"], [*keys, "players"])
    base = pooled[pooled["rule"] == design.base]
    canonical = _long(base)
    baseline = standardised_mean(canonical, canonical["value"], ["measure", "field"], "players")
    # A share's interval stays within [0, 1], which a t-interval over few games can leave.
    clip_shares(baseline, baseline["measure"].str.contains("share"))
    judged = judgements(
        headline, baseline.set_index(["measure", "field"])["estimate"], sizes, design
    )
    ahead = games_ahead_by_rule(games)
    verdict = verdicts(judged, headline, design, ahead)
    deals = pooled_diffs[pooled_diffs["measure"] == DEALS].groupby("rule", sort=False)["value"]
    lengths = pd.Series({r: _deals_text(deals.min()[r], deals.max()[r]) for r in design.variants})
    verdict.insert(4, "length", verdict["rule"].map(lengths))
    verdict.insert(5, "cost", verdict["rule"].map(costs(judged, lengths, design)))
    answer = _answer_table(baseline, headline, ahead, design)
    tables = [
        Table(
            f"One verdict per rule against the {design.base} (established effects, sizes from "
            f"{source}; field in brackets)",
            verdict,
        ),
        Table(
            f"The numbers of the In short, standardised over table sizes (95% CI; {source})", answer
        ),
        Table(
            f"The {design.base}, per table size ({source})", _baseline_display(base, ahead, design)
        ),
        Table(
            f"Each rule's effect per table size ({source}; unadjusted 95% CI, for reading "
            "the cells)",
            display_table(_ordered(sizes[sizes["measure"].isin(TESTED)], design)),
        ),
        Table(
            f"Appendix: every effect judged, {source}: the sizes of the verdicts and findings",
            _headline_display(headline, design),
            "Standardised over table sizes; shares in points of percentage. Games to detect "
            "it: games per condition at which the effect seen would be found (80% power at "
            "the family's strictest level).",
        ),
        Table(
            f"Appendix: every effect, rule minus {design.base}, standardised over table sizes",
            _family_display(found, design),
            f"Holm over the family of {_family_size(parts)} comparisons (these and the tests "
            "between fields); established: survives and confirmed on fresh cards. Estimates "
            "from the run that chose them (the verdicts quote both runs pooled).",
        ),
        Table(
            "Appendix: do the fields differ? A paired test per rule and measure",
            _between_display(parts["fields differ"], design),
        ),
    ]
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        _method(data.manifest, parts, design, source),
        _findings(found, headline, design),
        tables,
        [_skill_figure(headline, design), _effects_figure(headline, design)],
        in_short=_in_short(advice(judged, design), answer, design, source),
        lead_tables=1,
    )


def _deals_text(fewest: float, most: float) -> str:
    """The change in deals per game over the table sizes: ``"+1 to +3 deals per game"``."""
    fewest, most = round(float(fewest)), round(float(most))
    if fewest == most == 0:
        return "same deals"
    span = f"{fewest:+d}" if fewest == most else f"{fewest:+d} to {most:+d}"
    return f"{span} deal{'' if fewest == most and abs(most) == 1 else 's'} per game"


def _answer_table(
    baseline: pd.DataFrame, found: pd.DataFrame, ahead: pd.DataFrame, design: Played
) -> pd.DataFrame:
    """The numbers of the In short: per field, the base game's skill, games to be ahead
    and one-card dealer's gap, and the established effect that brings that gap closest to zero."""
    rows = []
    for field in [f for f in design.fields if (baseline["field"] == f).any()]:
        skill, gap = (_where(baseline, measure=m, field=field).iloc[0] for m in (AHEAD, ONE_CARD))
        games = _where(ahead, rule=design.base, field=field)["games"].iloc[0]
        rows += [
            (design.base, AHEAD, field, _value(skill, AHEAD)),
            (design.base, ONE_CARD, field, _value(gap, ONE_CARD)),
            (design.base, AHEAD_GAMES, field, fmt_number(games, 0)),
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


def _family_display(found: pd.DataFrame, design: Played) -> pd.DataFrame:
    shown = _ordered(found, design).assign(
        p_adjusted=lambda t: t["p_adjusted"].map(fmt_p),
        confirmation=lambda t: [confirmation_cell(r) for _, r in t.iterrows()],
    )
    columns = ["rule", "measure", "field", "n", "estimate", "low", "high", "p_adjusted"]
    return display_table(shown[[*columns, "confirmation", "established"]])


def _headline_display(headline: pd.DataFrame, design: Played) -> pd.DataFrame:
    shown = _percent(_ordered(headline, design))
    shown["unit"] = [
        "pp" if "share" in m else "per game" if m == LEAD_CHANGES else "points"
        for m in shown["measure"]
    ]
    shown[DETECT] = [
        "" if np.isnan(g) else ("never" if np.isinf(g) else f"{g:,.0f}") for g in shown[DETECT]
    ]
    columns = ["rule", "measure", "field", "n", "estimate", "low", "high", "unit"]
    return display_table(shown[[*columns, "established", DETECT]], digits=2)


def _between_display(between: pd.DataFrame, design: Played) -> pd.DataFrame:
    shown = between.assign(p=between["p"].map(fmt_p), p_adjusted=between["p_adjusted"].map(fmt_p))
    columns = ["rule", "measure", "spread", "q", "df", "p", "p_adjusted", "established"]
    return display_table(_ordered(shown, design)[columns])


def _baseline_display(base: pd.DataFrame, ahead: pd.DataFrame, design: Played) -> pd.DataFrame:
    table = base.groupby(["field", "players"], observed=True)[list(MEASURES)].mean().reset_index()
    table[[AHEAD, TIES]] *= 100
    table = table.rename(columns={share: f"{_short(share)} (%)" for share in (AHEAD, TIES)})
    canonical = ahead[ahead["rule"] == design.base].set_index("field")["games"]
    table["games to be ahead 95% (all sizes)"] = table["field"].map(canonical)
    return display_table(table, digits=2)


def _ordered(table: pd.DataFrame, design: Played) -> pd.DataFrame:
    orders = {"rule": design.rules, "measure": MEASURES}
    return in_order(table, ("rule", "measure", "field", "players"), orders)


def _family_size(parts: dict[str, pd.DataFrame]) -> int:
    return int(sum(part["p"].notna().sum() for part in parts.values()))


def _percent(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with a share's estimate and interval in points of percentage."""
    share = rows["measure"].str.contains("share").to_numpy()
    scaled = rows.copy()
    for column in ("estimate", "low", "high"):
        scaled[column] = np.where(share, rows[column] * 100, rows[column])
    return scaled


def _skill_figure(found: pd.DataFrame, design: Played) -> Figure:
    rows = _ordered(found[found["measure"] == AHEAD], design)
    return Figure(
        "skill_by_rule.png",
        "How often the stronger of two players finishes ahead of the weaker, each rule minus "
        f"the {design.base} (standardised over table sizes; both runs pooled when a "
        "confirmation run was played).",
        interval_plot(
            _percent(rows),
            "rule",
            series="field",
            title="Skill: change in how often the stronger finishes ahead",
            xlabel="house rule",
            ylabel=f"percentage points, rule - {design.base}",
            zero_line=True,
            order=design.variants,
            horizontal=True,
        ),
    )


def _effects_figure(found: pd.DataFrame, design: Played) -> Figure:
    rows = _ordered(found, design)
    rows = _percent(rows).assign(on=rows["measure"].map(PANEL_NAMES))
    return Figure(
        "effects_by_rule.png",
        f"Each rule's effect on every measure judged, rule minus the {design.base} "
        "(standardised over table sizes; shares in points of percentage).",
        interval_plot(
            rows,
            "rule",
            series="field",
            panels="on",
            title="Every effect of each rule",
            xlabel="house rule",
            ylabel="rule - base",
            zero_line=True,
            order=design.variants,
            horizontal=True,
        ),
    )


#: The effects figure's panels: each measure in a word or two.
PANEL_NAMES = {
    AHEAD: "skill (pp)",
    FIRST_SEAT: "first bidder",
    ONE_CARD: "one-card dealer",
    LEAD_CHANGES: "lead changes",
    MARGIN: "margin",
    TIES: "ties (pp)",
}


def _method(
    manifest: dict, parts: dict[str, pd.DataFrame], design: Played, source: str
) -> list[str]:
    fields = "; ".join(
        f"{f}: {' and '.join(design.pairs[f])} in alternate seats" for f in design.fields
    )
    # The first bidder deals the one-card deal if it comes one deal after a multiple of n.
    sizes = sorted({c["rules"]["players"] for c in manifest["conditions"]})
    same = " and ".join(str(n) for n in sizes if Rules(players=n).schedule.index(1) % n == 1)
    same_seat = f" In the canonical game at {same} players they are the same seat." if same else ""
    blind = sorted({f for _, f in design.unjudged})
    scoring = (
        f"The players of the {', '.join(blind)} field bid alike under every scoring table: "
        "a rule that changes only the scoring is judged only in the fields whose players bid "
        "for the table in play (the appendix still shows its effects there)."
        if blind
        else "Every field's players bid for the scoring table in play."
    )
    return [
        f"Fields: {fields}. Every game is played twice, the second time with the two "
        f"strategies' seats exchanged, on the same cards; a game's values are the mean of "
        f"the two. {scoring}",
        "Skill: over every pair of a stronger and a weaker seat of a game, the share in which "
        "the stronger finishes ahead (a tie counts half). Games to be ahead 95% of the time: "
        "(1.645 sd / mean)^2 of a pair's per-game difference, a normal approximation.",
        "Fairness: the final total of the first bidder of the game's first deal (the same "
        "seat under every rule), and the mean of the seats that deal a one-card deal of the "
        "rule's schedule, each minus the mean of the other seats." + same_seat,
        "Tension: a lead change is a deal after which a player other than the last to lead "
        "alone leads alone on the running totals; the margin is the winner's total minus the "
        "runner-up's; a tie for first is two or more players on the top total.",
        f"Effects: each rule's per-game value minus the {design.base}'s on the same cards, "
        "averaged with equal weight per table size (clustered by game). A fairness effect "
        "counts as fairer when it brings the base game's gap closer to zero. Where an "
        "effect's table sizes disagree in sign (unadjusted intervals), it is shown per size "
        "instead of pooled.",
        f"One family ({CORRECTION}, {ALPHA:g}) of {_family_size(parts)} comparisons: the "
        "effects per field and, per rule and measure, a paired Wald test that the fields "
        "differ (clustered by game, since both fields play the same cards).",
        confirmation_method(
            manifest.get("confirmation") or {},
            "the whole study is played again",
            "games per condition",
        ),
        f"Which effects are established comes from the run and its confirmation; the sizes "
        f"quoted in the verdicts, the In short and the figures come from {source}, since an "
        "estimate read from the run that chose it is biased away from zero. An effect not "
        f'established is not shown to be absent: the verdicts say "not established at '
        f'{design.games} games" and, for skill, at about how many games per condition the '
        "effect seen would be found (80% power at the family's strictest level, from its "
        "standard error).",
    ]


def _findings(found: pd.DataFrame, headline: pd.DataFrame, design: Played) -> list[str]:
    """How many effects are established, and per aspect the largest of them (or, if none is,
    the largest seen), with its interval from :func:`_pooled`'s games."""
    shown = _ordered(found[found["established"].astype(bool)], design)
    lines = [
        f"{len(shown)} of {len(found)} effects are established (survive {CORRECTION} over the "
        f"family and confirm on fresh cards); the appendix lists every effect, rule minus the "
        f"{design.base}, and the first table what each means."
    ]
    for aspect, measures in ASPECTS.items():
        rows = headline[headline["measure"].isin(measures)]
        established = rows[rows["established"].astype(bool)]
        pool = established if len(established) else rows
        if pool.empty:
            continue
        top = pool.loc[pool["estimate"].abs().idxmax()]
        scale = 100.0 if "share" in top["measure"] else 1.0
        value = fmt_ci(*(top[c] * scale for c in ("estimate", "low", "high")), digits=2)
        unit = " pp" if scale == 100.0 else ""
        which = "largest established" if len(established) else "none established; largest seen"
        lines.append(
            f"{aspect.capitalize()}: {len(established)} established; {which}: {top['rule']}, "
            f"{_short(top['measure'])}, {top['field']} field, {value}{unit}."
        )
    return lines


#: The most rules the In short names in one group; the others are counted.
NAMED = 4


def _in_short(
    advised: dict[str, list[str]], answer: pd.DataFrame, design: Played, source: str
) -> list[str]:
    def listed(rules: list[str]) -> str:
        more = f" and {len(rules) - NAMED} more (first table)" if len(rules) > NAMED else ""
        return ", ".join(rules[:NAMED]) + more

    verdict = (
        f"For a skilful, fair game adopt {listed(advised['adopt']) or 'none of the rules studied'}"
    )
    if advised["one field"]:
        verdict += f"; {listed(advised['one field'])} help in one field only"
    if advised["weigh"]:
        verdict += f"; weigh {listed(advised['weigh'])}: better in one way, worse in another"
    if advised["avoid"]:
        verdict += f"; avoid {listed(advised['avoid'])}"

    def cells(rule: str, measure: str) -> str:
        rows = _where(answer, rule=rule, measure=measure)
        pairs = zip(rows["field"], rows["value"], strict=True)
        return " and ".join(f"{value} ({field})" for field, value in pairs)

    fixed = "; ".join(
        f"{rule} moves it by {cells(rule, GAP_CHANGE)}"
        for rule in pd.unique(answer.loc[answer["measure"] == GAP_CHANGE, "rule"])
    )
    return [
        verdict + ". The first table gives each rule's effects and costs.",
        f"In the {design.base} the stronger of two players finishes ahead in "
        f"{cells(design.base, AHEAD)} of games, and needs {cells(design.base, AHEAD_GAMES)} "
        "games to be ahead 95% of the time.",
        f"The one-card deal's dealer finishes {cells(design.base, ONE_CARD)} points per game "
        "ahead of the other seats (negative: behind)"
        + (f"; {fixed}." if fixed else "; no rule studied is established to close the gap.")
        + f" Figures: {source}.",
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
    takes_rule_sets=True,
    field_names=field_names,
    reduce_hands=seat_roles,
)
