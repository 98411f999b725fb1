"""The count arrays of a summary run (see :mod:`ohhell_sim.summary` for their meaning)."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ohhell_sim.engine.scoring import deal_points_array
from ohhell_sim.rules import Rules


def total_bounds(rules: Rules) -> tuple[int, int]:
    """Lowest and highest game total possible under ``rules`` (bounds of the histogram)."""
    low = high = 0
    for hand_size in rules.hand_sizes().tolist():
        outcomes = np.arange(hand_size + 1)
        points = deal_points_array(outcomes[:, None], outcomes[None, :], hand_size, rules)
        # A seat that sits a deal out scores 0 in it.
        low += min(0, int(points.min()))
        high += max(0, int(points.max()))
    return low, high


@dataclass
class SummaryCounts:
    """The count arrays of a summary (see :mod:`ohhell_sim.summary`), ``int64``."""

    outcomes: np.ndarray
    deals: np.ndarray
    totals: np.ndarray
    wins: np.ndarray

    @classmethod
    def zeros(cls, rules: Rules, slots: int = 0) -> SummaryCounts:
        """Empty counts; with ``slots`` > 0, one set per slot on a leading axis."""
        n = rules.players
        size = rules.max_hand_size + 1
        low, high = total_bounds(rules)
        lead = (slots,) if slots else ()
        return cls(
            outcomes=np.zeros((*lead, size, n, n, size, size), dtype=np.int64),
            deals=np.zeros((*lead, size, size, (n - 1) * (size - 1) + 1), dtype=np.int64),
            totals=np.zeros((*lead, n, high - low + 1), dtype=np.int64),
            wins=np.zeros((*lead, n, n + 1), dtype=np.int64),
        )

    def collapse(self) -> SummaryCounts:
        """Sum the per-thread slots (the leading axis)."""
        return SummaryCounts(**{f.name: getattr(self, f.name).sum(axis=0) for f in fields(self)})

    def __add__(self, other: SummaryCounts) -> SummaryCounts:
        return SummaryCounts(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SummaryCounts):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self)
        )
