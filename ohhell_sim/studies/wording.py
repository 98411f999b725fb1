"""Sentences and cells every study report shares: the confirmation, as method and as a mark.

The confirmation run (:attr:`ohhell_sim.studies.runs.StudyData.confirmation`) is the same
study at another seed; each report says the same things about it, in the same words.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.findings import CONFIRMED, NOT_CONFIRMED
from ohhell_sim.analysis.format import fmt_ci


def confirmation_method(confirmation: dict, played: str, size: str, alpha: float = 0.05) -> str:
    """The method's sentence on the confirmation run, from the manifest's ``confirmation``
    record (``games``, ``seed``; empty or no games when none was played).

    ``played`` says what was played again (``"the whole study is played again"``),
    ``size`` what its ``games`` count (``"games per condition (each field its share)"``)
    and ``alpha`` is the level of its Holm correction.
    """
    if not confirmation.get("games"):
        return (
            "No confirmation run was played (--confirm-games 0): the findings are those of one "
            "seed's cards and are marked unconfirmed."
        )
    return (
        f"Confirmation: {played} at seed {confirmation['seed']} with {confirmation['games']} "
        f"{size}: other cards, the same code. Every row that survives the correction is "
        "carried over and counts as established only when the confirmation's estimate has "
        "the same sign and its p-value, Holm-adjusted over the rows carried over, is at most "
        f"{alpha}. This protects against what a split of the same games cannot: findings "
        "that hold only for the first seed's cards, including choices of rows, orders or "
        "definitions tuned on them."
    )


def confirmation_cell(row: pd.Series, digits: int = 3) -> str:
    """A family row's confirmation mark, with the confirmation's estimate when it has one."""
    if row["confirmation"] in (CONFIRMED, NOT_CONFIRMED) and np.isfinite(row["confirm_low"]):
        second = fmt_ci(row["confirm_estimate"], row["confirm_low"], row["confirm_high"], digits)
        return f"{row['confirmation']}: {second}"
    return str(row["confirmation"])
