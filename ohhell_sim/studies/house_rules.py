"""Study ``house_rules``: one verdict per house rule, on skill, fairness, tension and length.

Every house rule (the hook's forms, schedules, each scoring table of the sources), or each
rule set a designer names (``--variant``), is played against the canonical game (or a
``--base``) on the same cards in a weak and a strong field (or a designer's pairs).  The
study declares its rules, measures and words; the method is
:class:`~ohhell_sim.studies.verdicts.VerdictStudy`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.analysis.format import fmt_number
from ohhell_sim.analysis.report import Table
from ohhell_sim.rules import Rules
from ohhell_sim.studies import pairs
from ohhell_sim.studies.design import bidding_position
from ohhell_sim.studies.effects import Words
from ohhell_sim.studies.measures import lead_changes, role_gap
from ohhell_sim.studies.verdict_effects import Judged, value_text, where
from ohhell_sim.studies.verdict_words import advice, advice_text
from ohhell_sim.studies.verdicts import VerdictStudy

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
class Played(pairs.Played):
    """What a run played (:class:`~ohhell_sim.studies.pairs.Played`), with ``no_one_card``:
    per rule, why it has no one-card dealer's gap (every seat deals one, or none), and
    ``first_deals_one``: the (rule, players) where the first bidder also deals a one-card
    deal (its two gaps are one seat's there, which can turn an effect's sign)."""

    no_one_card: Mapping[str, str] = dataclasses.field(default_factory=dict)
    first_deals_one: frozenset[tuple[str, int]] = frozenset()


def played(manifest: dict) -> Played:
    """The :class:`Played` of a study manifest (:func:`~ohhell_sim.studies.pairs.played`),
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
    design = pairs.played(manifest)
    return Played(
        **vars(design), no_one_card=no_one_card, first_deals_one=frozenset(first_deals_one)
    )


#: What :func:`seat_roles` keeps of a game's hands, per seat.
ROLE_COLUMNS = ("first", "one_card", "changes", "deals")


def seat_roles(hands: pd.DataFrame) -> pd.DataFrame:
    """What the measures need of the hands, one row per (condition, game, seat): ``first``
    and ``one_card`` (:func:`_roles`), and the game's lead ``changes`` and ``deals``
    (:func:`~ohhell_sim.studies.measures.lead_changes`).  The study keeps this instead of
    every deal, condition by condition: its memory grows by a few rows per game."""
    # Counts of deals in two bytes: a large study keeps a row per seat and game.
    lead = lead_changes(hands).astype(np.int16).reset_index()
    return _roles(hands).merge(lead, on=["condition", "game"], how="left")


def measures_by_order(hands: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Whole conditions' measures of :data:`MEASURES` (defined in the report's method), one
    row per (condition, game); ``hands`` are every deal, or :func:`seat_roles` of them."""
    roles = hands if set(ROLE_COLUMNS) <= set(hands.columns) else seat_roles(hands)
    keys = ["condition", "game"]
    seats = pairs.pair_seats(games).merge(
        roles[[*keys, "seat", "first", "one_card"]], on=[*keys, "seat"], how="left"
    )
    grouped = seats.groupby(keys, observed=True, sort=True)
    top = grouped["total"].transform("max")
    second = seats[grouped["total"].rank(method="first", ascending=False) == 2]
    ties = (seats["total"] == top).groupby([seats[k] for k in keys]).sum() > 1
    lead = roles.drop_duplicates(keys).set_index(keys)[["changes", "deals"]].sort_index()
    out = pd.DataFrame(
        {
            AHEAD: pairs.rule_pairs(seats).groupby(keys)["ahead"].mean(),
            SKILL_POINTS: role_gap(seats, "stronger"),
            FIRST_SEAT: role_gap(seats, "first"),
            ONE_CARD: role_gap(seats, "one_card"),
            LEAD_CHANGES: lead["changes"],
            MARGIN: grouped["total"].max() - second.set_index(keys)["total"],
            TIES: ties.astype(float),
            DEALS: lead["deals"],
        }
    )
    return grouped[["players", "field", "rule"]].first().join(out).reset_index()


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


def notes(found: pd.DataFrame, design: Played) -> Callable[[str, str], list[str]]:
    """What the study adds to a rule's verdict after a measure's judgements: why the rule
    has no one-card dealer's gap (every seat deals one, or none)."""

    def said(rule: str, measure: str) -> list[str]:
        reason = design.no_one_card.get(rule)
        missing = measure == ONE_CARD and where(found, rule=rule, measure=ONE_CARD).empty
        return [f"no one-card dealer's gap: {reason}"] if missing and reason else []

    return said


def _answer(j: Judged, design: Played) -> Words:
    """The In short and the tables of its numbers and of the base game."""
    answer = _answer_table(j.baseline, j.headline, j.ahead, design)
    return Words(
        in_short=_in_short(advice(j.judged, design), answer, design, j.source),
        tables=[
            Table(
                f"The numbers of the In short, standardised over table sizes (95% CI; {j.source})",
                answer,
            ),
            Table(f"The {design.base}, per table size ({j.source})", STUDY.base_display(j, design)),
        ],
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
            (design.base, AHEAD, field, value_text(skill, AHEAD)),
            (design.base, ONE_CARD, field, value_text(gap, ONE_CARD)),
            (design.base, AHEAD_GAMES, field, fmt_number(games, 0)),
        ]
        best = _best_fix(found, field, float(gap["estimate"]))
        if best is not None:
            rows.append((best["rule"], GAP_CHANGE, field, value_text(best, ONE_CARD)))
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
        advice_text(advised),
        f"In the {design.base} the stronger of two players finishes ahead in "
        f"{cells(design.base, AHEAD)} of games, and needs {cells(design.base, AHEAD_GAMES)} "
        "games to be ahead 95% of the time.",
        f"The one-card deal's dealer finishes {cells(design.base, ONE_CARD)} points per game "
        "ahead of the other seats (negative: behind)"
        + (f"; {fixed}." if fixed else "; no rule studied is established to close the gap.")
        + f" Figures: {source}.",
    ]


STUDY = VerdictStudy(
    measures=MEASURES,
    aspects=ASPECTS,
    words=WORDS,
    costs=COSTS,
    per_game=(LEAD_CHANGES,),
    length=DEALS,
    skill=AHEAD,
    measures_by_order=measures_by_order,
    name=NAME,
    question=QUESTION,
    rules=HOUSE_RULES,
    pairs=FIELD_PAIRS,
    answer=_answer,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    panels=PANELS,
    read_played=played,
    notes=notes,
    explain=_same_seat,
    method_notes=_method,
    reduce_hands=seat_roles,
)
SPEC = STUDY.spec()
conditions = STUDY.conditions
field_names = STUDY.field_names
analyse = STUDY.analyse
game_measures = STUDY.game_measures
