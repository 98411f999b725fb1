"""Study ``house_rules``: one verdict per house rule, on skill, fairness, tension and length.

Every house rule (the hook's forms, schedules, each scoring table of the sources), or
each rule set a designer names (``--variant``), is played against the canonical game
(or a designer's ``--base``) on the same cards, at every table size, in a weak and a
strong field of two strategies in alternate seats (or a designer's pairs), each game
again with their seats exchanged.  The study declares its rules, its measures and its
words; the method (effects against the base, the family, its confirmation, the pooled
sizes, the verdicts and the appendices) is
:class:`~ohhell_sim.studies.verdicts.VerdictStudy`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from ohhell_sim.analysis.format import fmt_number
from ohhell_sim.analysis.report import Report, Table
from ohhell_sim.rules import Rules
from ohhell_sim.studies import verdicts as judging
from ohhell_sim.studies.design import bidding_position
from ohhell_sim.studies.measures import lead_changes, role_gap
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec
from ohhell_sim.studies.verdicts import where

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
MEASURES = (AHEAD, SKILL_POINTS, FIRST_SEAT, ONE_CARD, LEAD_CHANGES, MARGIN, TIES, DEALS)


@dataclass(frozen=True)
class Played(judging.Played):
    """What a run played (:class:`~ohhell_sim.studies.verdicts.Played`), with where the
    one-card dealer's gap needs a word.

    Attributes
    ----------
    no_one_card : mapping
        Per rule, why it may have no one-card dealer's gap (every seat deals one, or none).
    first_deals_one : frozenset of (rule, players)
        Where the first bidder of the game also deals a one-card deal: its two gaps are
        one seat's there, which can turn an effect's sign between table sizes.
    """

    no_one_card: Mapping[str, str] = None  # type: ignore[assignment]
    first_deals_one: frozenset[tuple[str, int]] = frozenset()


def played(manifest: dict) -> Played:
    """The :class:`Played` of a study manifest (:func:`~ohhell_sim.studies.verdicts.played`),
    with where its schedules give the one-card dealer's gap a word."""
    no_one_card, first_deals_one = {}, set()
    for c in manifest["conditions"]:
        rule, schedule, n = c["label"]["rule"], c["rules"]["schedule"], c["rules"]["players"]
        # The first bidder of deal 0 deals deal i when i is one more than a multiple of n.
        if any(i % n == 1 for i, cards in enumerate(schedule) if cards == 1):
            first_deals_one.add((rule, n))
        if 1 not in schedule:
            no_one_card.setdefault(rule, "no seat deals a one-card deal")
        elif len({i % n for i, cards in enumerate(schedule) if cards == 1}) == n:
            no_one_card.setdefault(rule, "every seat deals a one-card deal")
    design = judging.played(manifest)
    return Played(
        **vars(design), no_one_card=no_one_card, first_deals_one=frozenset(first_deals_one)
    )


def field_names(fields: object) -> tuple[str, ...]:
    """``fields`` checked (:func:`~ohhell_sim.studies.verdicts.pair_fields`): names of
    :data:`FIELD_PAIRS`, or ``STRONGER/WEAKER`` pairs of registered strategies."""
    return judging.pair_fields(fields, FIELD_PAIRS)


def rules_studied(
    players: Sequence[int], variants: Sequence[str] | None = None, base: str | None = None
) -> dict[str, Callable[[int], dict[str, object]]]:
    """The rules played (:func:`~ohhell_sim.studies.verdicts.studied_rules`): :data:`HOUSE_RULES`,
    or the ``variants`` on top of ``base``, checked at every table size."""
    return judging.studied_rules(players, variants, base, HOUSE_RULES)


def conditions(
    games: int,
    players: tuple[int, ...],
    fields: Sequence[str] = FIELDS,
    variants: Sequence[str] | None = None,
    base: str | None = None,
) -> list[Condition]:
    """Every rule of :func:`rules_studied`, table size, field and seat order
    (:func:`~ohhell_sim.studies.verdicts.pair_conditions`)."""
    studied = rules_studied(players, variants, base)
    return judging.pair_conditions(games, players, field_names(fields), studied, FIELD_PAIRS)


#: What :func:`seat_roles` keeps of a game's hands, per seat.
ROLE_COLUMNS = ("first", "one_card", "changes", "deals")


def seat_roles(hands: pd.DataFrame) -> pd.DataFrame:
    """What the measures need of the hands, one row per (condition, game, seat): ``first``
    and ``one_card`` (:func:`_roles`), and the game's lead ``changes`` and ``deals``
    (:func:`~ohhell_sim.studies.measures.lead_changes`).  The study keeps this instead of
    every deal, condition by condition: its memory grows by a few rows per game."""
    lead = lead_changes(hands).reset_index()
    return _roles(hands).merge(lead, on=["condition", "game"], how="left")


def game_measures(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per (rule, field, players, game): every measure of :data:`MEASURES` (defined
    in the report's method), averaged over the two seat orders; ``hands`` are every deal,
    or :func:`seat_roles` of them."""
    keys = ["condition", "game"]
    roles = hands if set(ROLE_COLUMNS) <= set(hands.columns) else seat_roles(hands)
    seats = judging.pair_seats(games).merge(
        roles[[*keys, "seat", "first", "one_card"]], on=[*keys, "seat"], how="left"
    )
    grouped = seats.groupby(keys, observed=True, sort=True)
    top = grouped["total"].transform("max")
    second = seats[grouped["total"].rank(method="first", ascending=False) == 2]
    ties = (seats["total"] == top).groupby([seats[k] for k in keys]).sum() > 1
    lead = roles.drop_duplicates(keys).set_index(keys)[["changes", "deals"]].sort_index()
    out = pd.DataFrame(
        {
            AHEAD: judging.rule_pairs(seats).groupby(keys)["ahead"].mean(),
            SKILL_POINTS: role_gap(seats, "stronger"),
            FIRST_SEAT: role_gap(seats, "first"),
            ONE_CARD: role_gap(seats, "one_card"),
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


def _roles(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (condition, game, seat): whether it bids first in the first deal (``first``) and
    whether it deals a one-card deal (``one_card``)."""
    keys = ["condition", "game", "seat"]
    first = hands[hands["deal"] == 0]
    dealt = hands.loc[(hands["hand_size"] == 1) & (hands["seat"] == hands["dealer"]), keys]
    one_card = pd.MultiIndex.from_frame(first[keys]).isin(pd.MultiIndex.from_frame(dealt))
    return first[keys].assign(first=bidding_position(first) == 0, one_card=one_card)


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


STUDY = judging.VerdictStudy(
    measures=MEASURES,
    aspects=ASPECTS,
    words=WORDS,
    costs=COSTS,
    per_game=(LEAD_CHANGES,),
    length=DEALS,
    skill=AHEAD,
    game_measures=game_measures,
    explain=_same_seat,
)


def notes(found: pd.DataFrame, design: Played) -> Callable[[str, str], list[str]]:
    """What the study adds to a rule's verdict after a measure's judgements: why the rule
    has no one-card dealer's gap (every seat deals one, or none)."""

    def said(rule: str, measure: str) -> list[str]:
        reason = (design.no_one_card or {}).get(rule)
        missing = measure == ONE_CARD and where(found, rule=rule, measure=ONE_CARD).empty
        return [f"no one-card dealer's gap: {reason}"] if missing and reason else []

    return said


def verdicts(
    judged: pd.DataFrame, found: pd.DataFrame, design: Played, ahead: pd.DataFrame | None = None
) -> pd.DataFrame:
    """One row per rule (:meth:`~ohhell_sim.studies.verdicts.VerdictStudy.verdicts`) with
    the study's :func:`notes`."""
    return STUDY.verdicts(judged, found, design, notes(found, design), ahead)


def analyse(data: StudyData) -> Report:
    """The report: one verdict per rule, its numbers, every effect and test, the base game."""
    design = played(data.manifest)
    j = STUDY.judge(data, design)
    verdict = STUDY.verdict_table(j, design, notes(j.headline, design))
    answer = _answer_table(j.baseline, j.headline, j.ahead, design)
    own = [
        Table(
            f"The numbers of the In short, standardised over table sizes (95% CI; {j.source})",
            answer,
        ),
        Table(
            f"The {design.base}, per table size ({j.source})",
            STUDY.base_display(j, design),
        ),
    ]
    return study_report(
        NAME,
        QUESTION,
        data.manifest,
        [
            *STUDY.design_method(design),
            *_method(data.manifest),
            *STUDY.method(data.manifest, j, design),
        ],
        STUDY.findings(j.found, j.headline, design),
        STUDY.tables(j, design, verdict, own),
        [STUDY.skill_figure(j.headline, design), STUDY.effects_figure(j.headline, design, PANELS)],
        in_short=_in_short(judging.advice(j.judged, design), answer, design, j.source),
        lead_tables=1,
    )


def _answer_table(
    baseline: pd.DataFrame, found: pd.DataFrame, ahead: pd.DataFrame, design: Played
) -> pd.DataFrame:
    """The numbers of the In short: per field, the base game's skill, games to be ahead
    and one-card dealer's gap, and the established effect that brings that gap closest to zero."""
    rows = []
    for field in [f for f in design.fields if (baseline["field"] == f).any()]:
        skill, gap = (where(baseline, measure=m, field=field).iloc[0] for m in (AHEAD, ONE_CARD))
        games = where(ahead, rule=design.base, field=field)["games"].iloc[0]
        rows += [
            (design.base, AHEAD, field, judging.value_text(skill, AHEAD)),
            (design.base, ONE_CARD, field, judging.value_text(gap, ONE_CARD)),
            (design.base, AHEAD_GAMES, field, fmt_number(games, 0)),
        ]
        best = _best_fix(found, field, float(gap["estimate"]))
        if best is not None:
            rows.append((best["rule"], GAP_CHANGE, field, judging.value_text(best, ONE_CARD)))
    return pd.DataFrame(rows, columns=["rule", "measure", "field", "value"])


def _best_fix(found: pd.DataFrame, field: str, canonical: float) -> pd.Series | None:
    """The established effect on the one-card dealer's gap in ``field`` that brings it
    closest to zero from ``canonical``; None when none brings it closer."""
    rows = where(found, measure=ONE_CARD, field=field, established=True)
    closer = abs(canonical) - (canonical + rows["estimate"]).abs()
    closer = closer[closer > 0]
    return None if closer.empty else rows.loc[closer.idxmax()]


#: The effects figure's panels: each measure in a word or two.
PANELS = {
    AHEAD: "skill (pp)",
    FIRST_SEAT: "first bidder",
    ONE_CARD: "one-card dealer",
    LEAD_CHANGES: "lead changes",
    MARGIN: "margin",
    TIES: "ties (pp)",
}


def _method(manifest: dict) -> list[str]:
    """The method's sentences of the study's own: its measures of fairness and tension."""
    # The first bidder deals the one-card deal if it comes one deal after a multiple of n.
    sizes = sorted({c["rules"]["players"] for c in manifest["conditions"]})
    same = " and ".join(str(n) for n in sizes if Rules(players=n).schedule.index(1) % n == 1)
    same_seat = f" In the canonical game at {same} players they are the same seat." if same else ""
    return [
        "Fairness: the final total of the first bidder of the game's first deal (the same "
        "seat under every rule), and the mean of the seats that deal a one-card deal of the "
        "rule's schedule, each minus the mean of the other seats." + same_seat,
        "Tension: a lead change is a deal after which a player other than the last to lead "
        "alone leads alone on the running totals; the margin is the winner's total minus the "
        "runner-up's; a tie for first is two or more players on the top total.",
    ]


def _in_short(
    advised: dict[str, list[str]], answer: pd.DataFrame, design: Played, source: str
) -> list[str]:
    def cells(rule: str, measure: str) -> str:
        rows = where(answer, rule=rule, measure=measure)
        pairs = zip(rows["field"], rows["value"], strict=True)
        return " and ".join(f"{value} ({field})" for field, value in pairs)

    fixed = "; ".join(
        f"{rule} moves it by {cells(rule, GAP_CHANGE)}"
        for rule in pd.unique(answer.loc[answer["measure"] == GAP_CHANGE, "rule"])
    )
    return [
        judging.advice_text(advised),
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
