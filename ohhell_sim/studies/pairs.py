"""The design of a study that judges rule sets against a base game: pairs of strategies.

Each field seats two strategies, the stronger and the weaker, in alternate seats, and
plays every game again with their seats exchanged on the same cards; every rule set is
played beside the base on those cards.  :func:`pair_conditions` makes the conditions,
:func:`played` reads back from a run's manifest what was played (:class:`Played`), and
:func:`games_ahead_by_rule` measures skill as the games a stronger seat needs to be ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import get_strategy
from ohhell_sim.studies.design import check_fields, games_to_be_ahead
from ohhell_sim.studies.measures import stronger_pairs
from ohhell_sim.studies.rule_sets import (
    PAIR_SEPARATOR,
    parse_pair,
    rule_set_name,
    rule_sets,
    scoring_only,
)
from ohhell_sim.studies.runs import Condition, common_categories, condition_batches


@dataclass(frozen=True)
class Played:
    """What a run played, read from its manifest.

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
    games : int
        Games per condition of the run.
    """

    rules: tuple[str, ...]
    fields: tuple[str, ...]
    pairs: Mapping[str, tuple[str, ...]]
    unjudged: frozenset[tuple[str, str]]
    games: int

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
    blind = {lb["field"] for c, lb in zip(conditions, labels, strict=True) if not reads_scoring(c)}
    scoring = [rule for rule in rules[1:] if rule not in changes_play]
    games = manifest.get("games") or max(c["games"] for c in conditions)
    unjudged = frozenset((rule, field) for rule in scoring for field in blind)
    return Played(rules, fields, pairs, unjudged, int(games))


def reads_scoring(condition: dict) -> bool:
    """Whether every seat of a manifest's condition bids for the scoring table (recorded when
    played; a manifest written before that names built-ins, looked up)."""
    reads = condition.get("reads_scoring")
    if reads is None:
        reads = [get_strategy(seat.split("(")[0]).reads_scoring for seat in condition["seats"]]
    return all(reads)


def pair_fields(fields: object, known: Mapping[str, tuple[str, str]]) -> tuple[str, ...]:
    """``fields`` checked: names of ``known`` fields, or ``STRONGER/WEAKER`` pairs of
    registered strategies (:func:`~ohhell_sim.studies.rule_sets.parse_pair`)."""
    values = (fields,) if isinstance(fields, str) else fields
    values = tuple(values) if isinstance(values, Iterable) else (values,)
    for value in values:
        if isinstance(value, str) and PAIR_SEPARATOR in value:
            parse_pair(value)
        elif value not in known:
            raise InvalidArgumentError(
                f"unknown field {value!r} in fields; fields: {', '.join(known)}, or two "
                "strategies STRONGER/WEAKER (e.g. card_counter/simple)"
            )
    return check_fields(values, values)


def pair_conditions(
    games: int,
    players: Sequence[int],
    fields: Sequence[str],
    rules: Mapping[str, Callable[[int], dict[str, object]]],
    known: Mapping[str, tuple[str, str]],
) -> list[Condition]:
    """Every rule (name -> its :class:`Rules` keywords at a table size), table size, field
    and seat order: a field's stronger and weaker strategy (``known``, or its
    ``STRONGER/WEAKER`` pair) in alternate seats, then the same games with their seats
    exchanged (``order`` 1)."""
    out = []
    for field in fields:
        stronger, weaker = known[field] if field in known else parse_pair(field)
        for n in players:
            for order, first in enumerate(((stronger, weaker), (weaker, stronger))):
                seats = tuple(first[i % 2] for i in range(n))
                label = {"players": n, "field": field, "order": order}
                out += [
                    Condition({**label, "rule": rule}, Rules(players=n, **made(n)), seats, games)
                    for rule, made in rules.items()
                ]
    return out


def pair_seats(games: pd.DataFrame) -> pd.DataFrame:
    """The seats' final totals with ``stronger``: the seat holds its field's stronger strategy
    (the even seats in the first seat order, the odd ones in the second:
    :func:`pair_conditions`)."""
    columns = ["condition", "game", "players", "field", "rule", "seat", "total"]
    stronger = (games["seat"].to_numpy() % 2 == 0) == (games["order"].to_numpy() == 0)
    return games[columns].assign(stronger=stronger)


def rule_pairs(seats: pd.DataFrame) -> pd.DataFrame:
    """Every (stronger seat, weaker seat) pair of a game of :func:`pair_seats`
    (:func:`~ohhell_sim.studies.measures.stronger_pairs`)."""
    return stronger_pairs(seats, ("rule", "field", "players"))


def games_ahead_by_rule(runs: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Per (rule, field): :func:`~ohhell_sim.studies.design.games_to_be_ahead` of a stronger
    seat's per-game lead over a weaker one, its mean and sd averaged over table sizes; the
    leads of the games of every run of ``runs`` pooled."""
    keys = ["rule", "field", "players"]
    # A batch of conditions' pairs at a time, of which only the leads are kept, in order, by
    # (rule, field, players): every pair's row at once, or the runs' games stacked to pair
    # them, was the largest frame of a large study's analysis.
    leads: dict[tuple, list[np.ndarray]] = {}
    for games in runs:
        for (batch,) in condition_batches(games):
            pairing = rule_pairs(pair_seats(batch))
            diff = pairing["diff"].to_numpy()
            for key, rows in pairing.groupby(keys, observed=True, sort=False).indices.items():
                leads.setdefault(key, []).append(diff[rows])
    rows = []
    for key, parts in leads.items():
        diff = pd.Series(np.concatenate(parts))
        # Grouped, as every lead in one frame was: the same sums, to the last bit.
        stats = diff.groupby(np.zeros(len(diff), dtype=np.int8)).agg(["mean", "std"])
        rows.append({**dict(zip(keys, key, strict=True)), **stats.iloc[0].to_dict()})
    table = pd.DataFrame(rows)
    for column in ("rule", "field"):
        table[column] = table[column].astype(common_categories([games[column] for games in runs]))
    table = table.sort_values(keys, ignore_index=True)
    pooled = table.groupby(["rule", "field"], observed=True)[["mean", "std"]].mean()
    return pooled.assign(games=games_to_be_ahead(pooled["mean"], pooled["std"])).reset_index()


def studied_rules(
    players: Sequence[int],
    variants: Sequence[str] | None,
    base: str | None,
    package: Mapping[str, Callable[[int], dict[str, object]]],
) -> dict[str, Callable[[int], dict[str, object]]]:
    """The rules played, the base first: the ``package``'s (name -> its :class:`Rules`
    keywords at a table size, the base first), or the ``variants`` on top of ``base``
    (:func:`~ohhell_sim.studies.rule_sets.rule_sets`), checked at every table size."""
    if variants is None:
        if base is not None:
            raise InvalidArgumentError(
                f"base {base!r} needs variants to judge against it (--variant RULES, e.g. "
                "made=10*bid)"
            )
        return dict(package)
    name = next(iter(package)) if base is None else f"base game ({rule_set_name(base)})"
    sets = rule_sets(variants, base, players, name)
    return {rule: (lambda n, keywords=keywords: dict(keywords)) for rule, keywords in sets.items()}
