"""How often an event happens and how often it works, per field and strategy, standardised.

A study of an event a player's row may hold (a zero bid) and its success (the zero bid
made) reads both per *unit* (:func:`units`): each strategy of each field and, for a mixed
field, its :data:`~ohhell_sim.studies.design.STANDARDISED` row, the strategies weighing
the same.  A rate pooled over strata (table sizes, hand sizes, strategies) gives each the
same weight (a raw pool would weigh them as they were dealt), a success rate leaves out
the strata with too few events, and two groups of rows are compared over the strata both
have, with the test that the fields' rows are equal (the same cards make them correlated).
An :class:`Event` declares the columns; its methods are the same for every such study.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import pandas as pd

from ohhell_sim.analysis.findings import equal_estimates_rows, replicate
from ohhell_sim.analysis.stats import Estimate, standardised_difference, standardised_means
from ohhell_sim.studies.design import STANDARDISED

#: An estimate and its interval.
ESTIMATE = ["estimate", "low", "high"]
#: A comparison of groups of rows: its name, the column naming a row's group, the first and
#: the second group compared, and the strata pooled with equal weight.
Comparison = tuple[str, str, object, object, list[str]]


def triple(*names: str) -> list[str]:
    """Each name's ``name``, ``name_low`` and ``name_high``: an estimate and its interval as
    columns."""
    return [c for name in names for c in (name, f"{name}_low", f"{name}_high")]


def at_least(frame: pd.DataFrame, columns: Sequence[str], minimum: int) -> pd.DataFrame:
    """The rows of ``frame`` whose group of ``columns`` holds at least ``minimum`` rows."""
    size = frame.groupby(list(columns), observed=True, sort=False)["game"].transform("size")
    return frame[size.to_numpy() >= minimum]


def units(rows: pd.DataFrame) -> Iterator[tuple[str, str, bool, pd.DataFrame]]:
    """``(field, strategy, field_row, rows)`` per field's strategy and a mixed field's
    :data:`STANDARDISED` row; ``field_row`` marks the one row that speaks for the field."""
    for field, part in rows.groupby("field", observed=True, sort=False):
        strategies = list(pd.unique(part["strategy"]))
        if len(strategies) > 1:
            yield field, STANDARDISED, True, part
        for strategy in strategies:
            yield field, strategy, len(strategies) == 1, part[part["strategy"] == strategy]


@dataclass(frozen=True)
class Event:
    """An event of a row and its success, as a study's tables name them.

    Attributes
    ----------
    column, outcome : str
        The boolean columns: the row holds the event (``"zero"``); the event worked
        (``"made"``).
    minimum : int
        The events a stratum needs to count in a success rate (its rate would be noise, and
        a one-event stratum has no variance to estimate).
    strata : tuple of str
        The strata of every pooled rate; those a table does not split by weigh the same.
    rows, count, rate, success : str
        The tables' columns: rows counted, events counted, the event's rate and its
        success rate (each with its interval).
    rate_measure, success_measure : str
        The comparisons' names of the rate and the success rate.
    """

    column: str
    outcome: str
    minimum: int
    strata: tuple[str, ...]
    rows: str
    count: str
    rate: str
    success: str
    rate_measure: str
    success_measure: str

    def rates(self, rows: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
        """The rate and success per :func:`units` row and ``by`` group (may be none), each
        stratum not in ``by`` weighing the same; ``success_strata``: the strata of the
        success rate, those with :attr:`minimum` events or more."""
        by = list(by)
        strata = [c for c in self.strata if c not in by]
        groups = by or ["_all"]  # one group of all the rows when ``by`` is empty
        out = []
        for field, strategy, field_row, part in units(rows.assign(_all=0)):
            events = at_least(part[part[self.column]], [*groups, *strata], self.minimum)
            table = part.groupby(groups, observed=True)[self.column].agg(
                **{self.rows: "size", self.count: "sum"}
            )
            rate, made = (
                standardised_means(frame, frame[column], groups, strata, bounded=True).set_index(
                    groups
                )
                for frame, column in ((part, self.column), (events, self.outcome))
            )
            table[triple(self.rate)] = rate[ESTIMATE]
            table[triple(self.success)] = made[ESTIMATE]
            # Only the success rate's strata are shown (the rate's are all of them).
            table["success_strata"] = made["strata"].reindex(table.index).fillna(0).astype(int)
            table = table.reset_index()
            out.append(table.assign(field=field, strategy=strategy, field_row=field_row))
        columns = ["field", "strategy", "field_row", *by, self.rows, *triple(self.rate)]
        columns += [self.count, *triple(self.success), "success_strata"]
        return pd.concat(out, ignore_index=True)[columns]

    def differences(
        self, rows: pd.DataFrame, compared: Sequence[Comparison]
    ) -> Iterator[tuple[dict, tuple[Estimate, pd.Series]]]:
        """Per :func:`units` row, measure (rate, success) and comparison of ``compared``:
        its key and standardised difference, with its influence per game."""
        for field, strategy, field_row, part in units(rows):
            events = part[part[self.column]]
            for measure, frame, values, minimum in (
                (self.rate_measure, part, part[self.column], 1),
                (self.success_measure, events, events[self.outcome], self.minimum),
            ):
                for name, *spec in compared:
                    key = {"field": field, "strategy": strategy, "field_row": field_row}
                    found = standardised_difference(frame, values, *spec, min_rows=minimum)
                    yield {**key, "measure": measure, "comparison": name}, found

    def comparisons(self, rows: pd.DataFrame, compared: Sequence[Comparison]) -> pd.DataFrame:
        """The :meth:`differences`, a row each."""
        found = self.differences(rows, compared)
        return pd.DataFrame([{**key, **estimate.row()} for key, (estimate, _) in found])

    def tests(self, rows: pd.DataFrame, compared: Sequence[Comparison]) -> pd.DataFrame:
        """Per measure and comparison, the paired test that the fields' ``field_row`` rows
        are equal (the same cards make them correlated)."""
        fitted: dict[tuple, list] = {}
        for key, (found, influence) in self.differences(rows, compared):
            if key["field_row"] and found.n:
                effect = key["measure"], key["comparison"]
                fitted.setdefault(effect, []).append((found.estimate, influence))
        return equal_estimates_rows(fitted, ["measure", "comparison"])

    @property
    def keys(self) -> dict[str, tuple[str, ...]]:
        """The columns naming a row of :meth:`parts` within a field."""
        return {
            "rates": ("strategy", "measure", "comparison"),
            "rates differ": ("measure", "comparison"),
        }

    #: The part holding the tests that the fields' rates differ.
    between = MappingProxyType({"rates": "rates differ"})

    def parts(
        self,
        rows: pd.DataFrame,
        compared_of: Callable[[pd.DataFrame], Sequence[Comparison]],
        replicated: bool,
    ) -> dict[str, pd.DataFrame]:
        """The event's comparisons of one run, unadjusted: the ``rates`` (with each half of
        the games' when ``replicated``) and the tests that the fields differ (``rates
        differ``); ``compared_of(rows)``: the comparisons a set of rows allows."""

        def found(part: pd.DataFrame) -> pd.DataFrame:
            return self.comparisons(part, compared_of(part))

        rates = (
            replicate(rows, found, ["field", *self.keys["rates"]]) if replicated else found(rows)
        )
        return {"rates": rates, "rates differ": self.tests(rows, compared_of(rows))}
