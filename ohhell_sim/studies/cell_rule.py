"""A choice made in the cells where it scored more, fitted on some games and judged on others.

A probe plays each hand twice on the same cards, making a choice (bidding 0) and its
alternative (bidding what the hand is worth); ``pairs`` holds a row per hand with
``decision`` (the two arms differ and the choice was open), ``diff`` (the choice's score
minus the alternative's), ``field``, ``game`` and the columns a :class:`CellRule` names.
The rule makes the choice in the cells where it scored more on average; fitted on the even
games and judged on the odd ones (and the other way round), its gain is not the optimism of
judging a rule on the games that chose it.  The rule offered to players takes the cells
most fields' rules favour (:data:`MOST_FIELDS`).  The method is the same for every such
study; the study names the columns.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import (
    equal_standardised_means_rows,
    half_of,
    replicate,
    replication_mark,
)
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.studies.unit_rates import ESTIMATE, at_least, triple

#: The columns of :meth:`CellRule.field_rules` that speak for several fields: the cells
#: favoured in more than half of them, and in all.
MOST_FIELDS = "most fields"
EVERY_FIELD = "every field"


def clustered_mean(frame: pd.DataFrame, values: pd.Series, name: str | None = None) -> dict:
    """The mean of ``values``, clustered by game, as :data:`ESTIMATE` or ``triple(name)``."""
    mean = grouped_mean(frame, values, [])[ESTIMATE].iloc[0]
    return dict(zip(triple(name) if name else mean.index, mean, strict=True))


def ranges_text(values: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``"1-3, 5"``."""
    runs = np.split(np.asarray(values), np.flatnonzero(np.diff(values) != 1) + 1)
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass(frozen=True)
class CellRule:
    """The columns of a probe's ``pairs`` the rule reads, and the names of its own.

    Attributes
    ----------
    name : str
        The choice in the rule's columns: ``rule_{name}`` (the rule makes it),
        ``{name}_share`` and ``alternative_{name}_share`` (how often the rule and the
        alternative make it).
    cells : tuple of str
        The cells a rule decides (``players``, ``hand_size``, the alternative's bid).
    within : str
        A rule is fitted per field and value of this column (a zero table).
    label : str
        The cells of the gain table besides ``within`` (the alternative's bid, labelled).
    alternative : str
        The alternative arm's column, and ``choice`` its value that already is the choice.
    choice : object
    minimum : int
        The choices a stratum of a gain needs to count.
    stratum : str
        The stratum of a gain, each weighing the same (table sizes).
    """

    name: str
    cells: tuple[str, ...]
    within: str
    label: str
    alternative: str
    choice: object
    minimum: int
    stratum: str = "players"

    @property
    def keys(self) -> dict[str, tuple[str, ...]]:
        """The columns naming a row of :meth:`parts` within a field."""
        cell, rule = (self.within, self.label), (self.within,)
        return {
            "counterfactual": cell,
            "fitted rule": rule,
            "offered rule": rule,
            "gains differ": cell,
            "rule differs": rule,
        }

    #: The parts holding the tests that the fields' gains and rules differ.
    between = MappingProxyType({"counterfactual": "gains differ", "fitted rule": "rule differs"})

    def fit(self, pairs: pd.DataFrame) -> pd.Series:
        """Per :attr:`cells` cell of ``pairs``, whether the choice scored more on average."""
        decisions = pairs[pairs["decision"]]
        return decisions.groupby(list(self.cells), observed=True)["diff"].mean() > 0

    def apply(self, pairs: pd.DataFrame, rule: pd.Series) -> pd.DataFrame:
        """``pairs`` with ``rule_{name}`` (the alternative is the choice, or the hand could
        choose and its cell favours it: an unseen cell does not) and ``rule_gain`` (its
        score minus the alternative's)."""
        favoured = pairs.join(rule.rename("_favoured"), on=list(self.cells))["_favoured"]
        favoured = favoured.fillna(False).astype(bool).to_numpy()
        chosen = pairs["decision"].to_numpy() & favoured
        return pairs.assign(
            **{f"rule_{self.name}": (pairs[self.alternative].to_numpy() == self.choice) | chosen},
            rule_gain=np.where(chosen, pairs["diff"].to_numpy(), 0),
        )

    def field_rules(self, pairs: pd.DataFrame) -> pd.DataFrame:
        """Per field of ``pairs`` (one value of :attr:`within`) its :meth:`fit`, then
        :data:`MOST_FIELDS` and :data:`EVERY_FIELD`."""
        fits = {f: self.fit(rows) for f, rows in pairs.groupby("field", sort=False, observed=True)}
        votes = pd.concat(fits, axis=1).fillna(False).astype(bool) if fits else pd.DataFrame()
        return votes.assign(
            **{MOST_FIELDS: votes.mean(axis=1) > 0.5, EVERY_FIELD: votes.all(axis=1)}
        )

    def gain_cells(self, pairs: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
        """The choice's score minus the alternative's per field, :attr:`within` and ``by``
        (default :attr:`label`), each :attr:`stratum` weighing the same, on the hands that
        could choose (:attr:`minimum` per stratum)."""
        by = ["field", self.within, *((self.label,) if by is None else by)]
        decisions = at_least(pairs[pairs["decision"]], [*by, self.stratum], self.minimum)
        return standardised_mean(decisions, decisions["diff"], by, self.stratum)

    def gain_tests(self, pairs: pd.DataFrame) -> pd.DataFrame:
        """Per :attr:`within` and :attr:`label`, the paired test that the fields' gains are
        equal."""
        keys = [self.within, self.label]
        decisions = at_least(pairs[pairs["decision"]], ["field", *keys, self.stratum], self.minimum)
        return equal_standardised_means_rows(decisions, decisions["diff"], keys, [self.stratum])

    def held_out(self, pairs: pd.DataFrame) -> pd.DataFrame:
        """Per field and :attr:`within`, the gain per hand over the alternative of the rule
        fitted on the even games, in sample and on the odd games, and of the odd games' rule
        on the even ones."""
        rows = []
        for (field, table), part in pairs.groupby(["field", self.within], sort=False):
            half = half_of(part["game"])
            even, odd = part[half == 0], part[half == 1]
            inside, held, other = (
                self.apply(judged, self.fit(fitted))
                for fitted, judged in ((even, even), (even, odd), (odd, even))
            )
            gain = clustered_mean(held, held["rule_gain"])
            second = clustered_mean(other, other["rule_gain"])
            chosen = held[self.alternative] == self.choice
            rows.append(
                {"field": field, self.within: table}
                | clustered_mean(inside, inside["rule_gain"], "in_sample_gain")
                | gain
                | clustered_mean(held, held[f"rule_{self.name}"], f"{self.name}_share")
                | {f"alternative_{self.name}_share": clustered_mean(held, chosen)["estimate"]}
                | dict(zip(triple("other_fold_gain"), second.values(), strict=True))
                | {"replication": replication_mark(gain["estimate"], gain, second)}
            )
        return pd.DataFrame(rows)

    def judged(
        self, fitted: pd.DataFrame, judged: pd.DataFrame, offered: bool = False
    ) -> Iterator[tuple[str, str, pd.DataFrame]]:
        """Per :attr:`within` and field, ``judged``'s pairs under the rule fitted on
        ``fitted``'s: the field's own or, with ``offered``, the one offered to players."""
        for table, chosen in fitted.groupby(self.within, sort=False, observed=True):
            common = self.field_rules(chosen)[MOST_FIELDS] if offered else None
            mine = judged[judged[self.within] == table]
            for field, part in mine.groupby("field", sort=False, observed=True):
                own = common if offered else self.fit(chosen[chosen["field"] == field])
                yield field, table, self.apply(part, own)

    def tests(self, fitted: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
        """Per :attr:`within`, the paired test that the fields' own rules gain alike."""
        applied = [rows for *_, rows in self.judged(fitted, judged)]
        applied = pd.concat(applied) if applied else judged.iloc[:0].assign(rule_gain=0.0)
        return equal_standardised_means_rows(applied, applied["rule_gain"], [self.within])

    def gains(
        self, fitted: pd.DataFrame, judged: pd.DataFrame, offered: bool = False
    ) -> pd.DataFrame:
        """Per field and :attr:`within`, the gain per hand over the alternative of
        :meth:`judged`."""
        rows = [
            {"field": field, self.within: table, "hands": len(applied)}
            | clustered_mean(applied, applied["rule_gain"])
            for field, table, applied in self.judged(fitted, judged, offered)
        ]
        return pd.DataFrame(rows, columns=["field", self.within, "hands", *ESTIMATE])

    def in_words(
        self, pairs: pd.DataFrame, value: object, ranged: str, unit: str, names: Sequence[str]
    ) -> pd.DataFrame:
        """Each column of :meth:`field_rules` under :attr:`within` ``value``: per group of the
        other cells, the ``ranged`` cells that make the choice, as ranges of ``unit``;
        ``names``: the table's names of the other cells, then of the ranges."""
        others = [cell for cell in self.cells if cell != ranged]
        rows = [
            (field, *map(int, key), f"{ranges_text(sorted(cells[ranged].astype(int)))} {unit}")
            for field, rule in self.field_rules(pairs[pairs[self.within] == value]).items()
            for key, cells in rule[rule].reset_index().groupby(others)
        ]
        return pd.DataFrame(rows, columns=["field", *names])

    def parts(self, pairs: pd.DataFrame, fitted: pd.DataFrame | None = None) -> dict:
        """The rule's comparisons of one run, unadjusted: the gains per cell
        (``counterfactual``), the ``fitted rule`` held out, the ``offered rule``, and the
        tests that the fields' gains and rules differ.  Of the run (rules fitted on its even
        games, judged on its odd ones, the gains replicated in both halves) or, given
        ``fitted`` (the run's pairs), of its confirmation, judged by the rules fitted on
        ``fitted``."""
        if fitted is None:
            half = half_of(pairs["game"])
            fitted, judged = pairs[half == 0], pairs[half == 1]
            gains = replicate(pairs, self.gain_cells, ["field", *self.keys["counterfactual"]])
            rule = self.held_out(pairs)
        else:
            judged = pairs
            gains, rule = self.gain_cells(pairs), self.gains(fitted, pairs)
        return {
            "counterfactual": gains,
            "fitted rule": rule,
            "offered rule": self.gains(fitted, judged, offered=True),
            "gains differ": self.gain_tests(pairs),
            "rule differs": self.tests(fitted, judged),
        }
