"""Measures of a game that studies share: deals as a whole, the dealing seats, the winners.

Each takes a study's stacked ``hands`` or ``games`` (:class:`~ohhell_sim.studies.runs.StudyData`,
one row per seat and deal or game, with the condition's labels as columns) and returns a frame
a study's effects are made of, such as the per-game values an
:class:`~ohhell_sim.studies.effects.EffectStudy` compares.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ohhell_sim.errors import InvalidArgumentError


def deal_frame(hands: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """One row per (condition, game, deal): the ``labels`` columns, ``hand_size``, the
    ``bids``' total, their ``excess`` over the hand size, and ``all_made`` (every seat took
    exactly its bid).  ``labels`` are condition labels (one value per condition); a column
    whose value changes within a condition is refused, naming it."""
    keys = ["condition", *labels, "game", "deal"]
    varying = hands.groupby("condition", observed=True)[list(labels)].nunique().max() > 1
    if varying.any():
        raise InvalidArgumentError(
            f"labels must be condition labels, with one value per condition; "
            f"{', '.join(varying.index[varying])} change within a condition"
        )
    # Grouped by one number per deal, not by a code per key column, and only the columns
    # read are copied: a study's hands are millions of rows.
    return (
        hands[[*keys, "hand_size", "bid"]]
        .assign(_made=hands["bid"] == hands["tricks"])
        .groupby(deal_numbers(hands), sort=False)
        .agg(
            **{key: (key, "first") for key in keys},
            hand_size=("hand_size", "first"),
            bids=("bid", "sum"),
            all_made=("_made", "min"),
        )
        .reset_index(drop=True)
        .assign(excess=lambda deals: deals["bids"] - deals["hand_size"])
    )


def deal_numbers(hands: pd.DataFrame) -> np.ndarray:
    """One 64-bit number per row of ``hands`` naming its deal: equal for the rows of one
    (condition, game, deal), distinct otherwise."""
    return (
        (hands["condition"].to_numpy(np.int64) << 40)
        | (hands["game"].to_numpy(np.int64) << 8)
        | hands["deal"].to_numpy(np.int64)
    )


def with_deals_dealt(games: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """``games`` with ``dealt`` (deals the seat dealt in its game) and ``deal_role``: ``"less
    often"`` for the seats that deal fewest, ``"more often"`` for the others, ``"evenly"`` in
    a game whose deals divide evenly among the players."""
    dealing = hands[hands["seat"] == hands["dealer"]]
    dealt = dealing.groupby(["condition", "game", "seat"], observed=True).size().rename("dealt")
    out = games.merge(dealt.reset_index(), on=["condition", "game", "seat"], how="left")
    out["dealt"] = out["dealt"].fillna(0).astype(np.int64)
    by_game = out.groupby(["condition", "game"], observed=True)["dealt"]
    fewest, most = by_game.transform("min"), by_game.transform("max")
    out["deal_role"] = np.where(
        fewest == most, "evenly", np.where(out["dealt"] == fewest, "less often", "more often")
    )
    return out


def with_one_card_dealer(games: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """``games`` with ``one_card_role``: ``"one-card dealer"`` for the seat that dealt the
    game's one-card deal, ``"other seats"`` for the others."""
    dealt = hands[(hands["hand_size"] == 1) & (hands["seat"] == hands["dealer"])]
    dealer = dealt[["condition", "game", "seat"]].drop_duplicates().assign(_dealt=True)
    out = games.merge(dealer, on=["condition", "game", "seat"], how="left")
    out["one_card_role"] = np.where(out["_dealt"].notna(), "one-card dealer", "other seats")
    return out.drop(columns="_dealt")


#: What :func:`bid_totals` keeps of a game's hands, per strategy.
BID_TOTALS = ("bids", "zeros", "deals")


def bid_totals(hands: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Per condition, ``labels`` group, strategy and game: the sum of the bids (``bids``), the
    zero bids (``zeros``) and the hands bid (``deals``): what :func:`per_game_bids` needs of
    the hands, a row per strategy and game, in game order: the totals of a run's chunks of
    games stack as those of the whole run."""
    keys = ["condition", *labels, "game", "strategy"]
    bids = hands["bid"].to_numpy()
    frame = hands[keys].assign(
        bids=bids.astype(np.int64), zeros=(bids == 0).astype(np.int64), deals=1
    )
    return frame.groupby(keys, observed=True, sort=True)[list(BID_TOTALS)].sum().reset_index()


def per_game_bids(hands: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Per ``labels`` group, strategy and game: the mean ``bid`` and the share of zero bids
    (``zero``), the labels and strategy as plain strings; ``hands`` are every deal, or
    :func:`bid_totals` of them."""
    keys = [*labels, "strategy", "game"]
    totals = hands if set(BID_TOTALS) <= set(hands.columns) else bid_totals(hands, labels)
    # Sums of whole numbers are exact: each mean is the one over the deals, to the bit.
    sums = totals.groupby(keys, observed=True, sort=True)[list(BID_TOTALS)].sum()
    means = pd.DataFrame(
        {"bid": sums["bids"] / sums["deals"], "zero": sums["zeros"] / sums["deals"]}
    ).reset_index()
    text = [c for c in keys if c != "game" and not pd.api.types.is_numeric_dtype(means[c])]
    return means.assign(**{column: means[column].astype(str) for column in text})


def winning_margins(games: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Per ``by`` group and game: the winner's final total minus the runner-up's (``margin``)."""
    keys = [*by, "game"]
    ordered = games.sort_values([*keys, "total"], ascending=False)
    ranked = ordered.groupby(keys, observed=True)["total"]
    margin = ranked.nth(0).to_numpy() - ranked.nth(1).to_numpy()
    return ordered.drop_duplicates(keys)[keys].assign(margin=margin)


def winners_changed(
    games: pd.DataFrame, arm: str, arms: tuple[object, object], by: Sequence[str]
) -> pd.DataFrame:
    """Per ``by`` group and game: whether the winning seats differ between the two ``arms``
    (values of the ``arm`` column) played on the same cards (``changed``)."""
    won = games[games["win_share"] > 0]
    masks = (
        won.assign(bit=np.left_shift(1, won["seat"].to_numpy(dtype=np.int64)))
        .groupby([*by, "game", arm], observed=True)["bit"]
        .sum()
        .unstack(arm)
    )
    first, second = arms
    return pd.DataFrame({"changed": masks[first] != masks[second]}).reset_index()


def lead_changes(hands: pd.DataFrame) -> pd.DataFrame:
    """Per (condition, game): ``deals``, and how often (``changes``) a player other than the
    last to lead alone takes the lead alone after a deal (running totals)."""
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


def stronger_pairs(seats: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Every (stronger seat, weaker seat) pair of a game of ``seats`` (final ``total`` per
    seat, ``stronger`` marking a stronger strategy's seat), indexed by (condition, game), with
    the ``labels`` columns: ``diff``, the stronger's total minus the weaker's, and ``ahead``:
    1, a half for a tie, or 0."""
    strong = seats.loc[seats["stronger"], ["condition", "game", *labels, "total"]]
    weak = seats.loc[~seats["stronger"], ["condition", "game", "total"]]
    pairs = strong.merge(weak, on=["condition", "game"], suffixes=("", "_weaker"))
    pairs["diff"] = pairs["total"] - pairs["total_weaker"]
    pairs["ahead"] = (np.sign(pairs["diff"]) + 1) / 2
    return pairs.set_index(["condition", "game"])


def role_gap(seats: pd.DataFrame, role: str) -> pd.Series:
    """Per (condition, game): the mean final total of the seats whose boolean ``role`` column
    is true minus that of the others; NaN where every seat or none is in it."""
    keys = ["condition", "game", role]
    means = seats.groupby(keys, observed=True)["total"].mean().unstack(role)
    if True not in means.columns or False not in means.columns:
        return pd.Series(np.nan, index=means.index)
    return means[True] - means[False]


def clip_shares(table: pd.DataFrame, rows: pd.Series | np.ndarray | None = None) -> pd.DataFrame:
    """``table`` with the ``low`` and ``high`` of its ``rows`` (a mask; default: every row)
    clipped to [0, 1] in place: a share's interval, which a t-interval over few games can
    leave."""
    rows = slice(None) if rows is None else rows
    table.loc[rows, ["low", "high"]] = table.loc[rows, ["low", "high"]].clip(0.0, 1.0)
    return table
