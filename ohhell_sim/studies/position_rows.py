"""A row per deal instead of a row per hand: each bidding position's score and made bid.

A study that compares seats by their place in the bidding (the dealer against the others, the
first bidder against the second, ...) needs of each hand only its score and whether its bid was
made.  :func:`deal_rows` keeps exactly that, a row per deal, so a run holds a few columns per
deal instead of every hand; :func:`role_and_position_means` turns those rows into the per-game
means a study's effects compare, equal to the bit to the means over the hands themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies import measures
from ohhell_sim.studies.design import POSITION_ORDER, bidding_position

#: What :func:`deal_rows` keeps of each bidding position's hand: its score and made bid.
POSITION_SCORES = tuple(f"score_{k}" for k in range(len(POSITION_ORDER)))
POSITION_MADE = tuple(f"made_{k}" for k in range(len(POSITION_ORDER)))
POSITION_COLUMNS = (*POSITION_SCORES, *POSITION_MADE)
#: A hand's role in the comparisons of the dealer's score (a category: millions of rows).
ROLE_NAMES = ("dealer", "other seats")


def deal_rows(hands: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """One row per (condition, game, deal) of ``hands``.

    Parameters
    ----------
    hands : pandas.DataFrame
        A study's stacked hands, a row per seat and deal.
    labels : sequence of str
        Condition labels kept on every row (as :func:`~ohhell_sim.studies.measures.deal_frame`).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`~ohhell_sim.studies.measures.deal_frame`, the ``dealer``'s seat,
        the ``trump``, and each bidding position's score and made bid (``score_0``,
        ``made_0``, ...; position 0 bids first, ``players - 1`` is the dealer; 0 past the
        table's size).
    """
    # Bids total at most 70 (7 players of 10 cards): two bytes, as the scores.
    deals = measures.deal_frame(hands, labels).astype({"bids": np.int16, "excess": np.int16})
    codes, uniques = pd.factorize(measures.deal_numbers(hands))
    # The positions' columns are placed by factorize's numbering: checked to be deal_frame's
    # row order (both first appearance), so that no score lands on another deal's row.
    if not np.array_equal(measures.deal_numbers(deals), uniques):
        raise AssertionError("deal_rows: the deals and their numbers are not in one order")
    position = bidding_position(hands)
    scores = np.zeros((len(deals), len(POSITION_ORDER)), dtype=np.int16)
    made = np.zeros((len(deals), len(POSITION_ORDER)), dtype=np.int8)
    scores[codes, position] = hands["score"].to_numpy()
    made[codes, position] = hands["bid"].to_numpy() == hands["tricks"].to_numpy()
    per_deal = {}
    for name in ("dealer", "trump"):
        per_deal[name] = np.zeros(len(deals), dtype=hands[name].dtype)
        per_deal[name][codes] = hands[name].to_numpy()
    return deals.assign(
        **per_deal,
        **{name: scores[:, k] for k, name in enumerate(POSITION_SCORES)},
        **{name: made[:, k] for k, name in enumerate(POSITION_MADE)},
    )


def deals_of(hands: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """:func:`deal_rows` of ``hands``, or ``hands`` themselves when they are such rows already
    (a run that kept a row per deal rather than every hand)."""
    kept = set(hands.columns)
    return hands if set(POSITION_COLUMNS) <= kept else deal_rows(hands, labels)


def role_and_position_means(
    deals: pd.DataFrame, keys: Sequence[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per ``keys`` group (a game and its condition's labels), the mean over the hands of each
    role and of each bidding position.

    Parameters
    ----------
    deals : pandas.DataFrame
        Rows of :func:`deal_rows`.
    keys : sequence of str
        The columns naming a game of a condition, ``"players"`` among them: one value of
        them per (condition, game).

    Returns
    -------
    roles : pandas.DataFrame
        ``keys``, ``role`` (:data:`ROLE_NAMES`), and the ``score`` and ``made`` means of the
        role's hands.
    positions : pandas.DataFrame
        ``keys``, ``position`` (named as :data:`~ohhell_sim.studies.design.POSITION_ORDER`)
        and the position's mean ``score``.

    Raises
    ------
    InvalidArgumentError
        If the ``keys`` of two (condition, game) pairs are equal.

    Notes
    -----
    Each mean is a sum of whole numbers over its count, so it equals the mean over the hands
    to the bit.
    """
    keys = list(keys)
    game, first = _games(deals)

    def total(values: np.ndarray) -> np.ndarray:
        # Sums of whole numbers far below 2**53: exact in the float64 of bincount.
        return np.bincount(game, weights=values, minlength=len(first)).astype(np.int64)

    scores = deals[list(POSITION_SCORES)].to_numpy(np.int16)
    made = deals[list(POSITION_MADE)].to_numpy(np.int8)
    last = deals["players"].to_numpy(np.int64) - 1
    rows = np.arange(len(deals))
    dealer_score, dealer_made = scores[rows, last], made[rows, last]
    sums = (
        deals[keys]
        .iloc[first]
        .reset_index(drop=True)
        .assign(
            **{name: total(scores[:, k]) for k, name in enumerate(POSITION_SCORES)},
            deals=np.bincount(game, minlength=len(first)),
            dealer_score=total(dealer_score),
            dealer_made=total(dealer_made),
            others_score=total(scores.sum(axis=1, dtype=np.int64) - dealer_score),
            others_made=total(made.sum(axis=1, dtype=np.int64) - dealer_made),
        )
        .sort_values(keys, kind="stable", ignore_index=True)
    )
    del scores, made, rows, dealer_score, dealer_made
    if sums.duplicated(keys).any():
        raise InvalidArgumentError(
            f"keys must name one game of one condition, got {keys}: several (condition, game) "
            "pairs share their values; add the condition's labels or 'game'"
        )
    counts = sums["deals"].to_numpy(np.int64)
    others = counts * (sums["players"].to_numpy(np.int64) - 1)
    roles = pd.concat(
        [
            sums[keys].assign(
                role=pd.Categorical.from_codes(np.full(len(sums), code, np.int8), ROLE_NAMES),
                score=sums[f"{role}_score"].to_numpy(np.int64) / n,
                made=sums[f"{role}_made"].to_numpy(np.int64) / n,
            )
            for code, (role, n) in enumerate((("dealer", counts), ("others", others)))
        ],
        ignore_index=True,
    )
    dealer_code = POSITION_ORDER.index("dealer")
    positions = pd.concat(
        [
            part[keys].assign(
                position=pd.Categorical.from_codes(
                    np.where(part["players"] - 1 == k, dealer_code, k).astype(np.int8),
                    POSITION_ORDER,
                ),
                score=part[name].to_numpy(np.int64) / part["deals"].to_numpy(np.int64),
            )
            for k, name in enumerate(POSITION_SCORES)
            if len(part := sums[sums["players"] > k])
        ],
        ignore_index=True,
    )
    return roles, positions


def _games(deals: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each row's game, numbered from 0 in the order the games first appear, and the first
    row of each game: one number per (condition, game) instead of a code per key column, as
    the rows are millions."""
    game, uniques = pd.factorize(measures.deal_numbers(deals) >> 8)
    first = np.empty(len(uniques), dtype=np.int64)
    # Written last to first, so that each game keeps its first row.
    first[game[::-1]] = np.arange(len(deals) - 1, -1, -1)
    return game, first
