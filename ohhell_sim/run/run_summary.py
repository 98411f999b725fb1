"""The counts of a summary run and the tables built from them (:class:`RunSummary`).

What :func:`ohhell_sim.summarise` returns and a chunked summary run reads back;
the counts themselves are :class:`~ohhell_sim.run.counts.SummaryCounts` (their
meaning is in :mod:`ohhell_sim.summary`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import fields
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.engine.scoring import deal_points_array, forbidden_bid_array
from ohhell_sim.engine.workspace import NOT_PLAYED
from ohhell_sim.estimates import frequency_mean_ci, proportion_ci, store_interval
from ohhell_sim.results import (
    SUMMARY_FILE,
    SimulationResult,
    check_run_folder,
    read_frame,
    remove_run_files,
    strategy_categorical,
    write_frame,
)
from ohhell_sim.rules import Rules, bidding_position
from ohhell_sim.run.counts import SummaryCounts, total_bounds

__all__ = ["TABLE_KEYS", "RunSummary"]

#: Groupings accepted by :meth:`RunSummary.table`.
TABLE_KEYS = ("strategy", "seat", "position", "hand_size", "bid")


class RunSummary:
    """Counts of a run (see the module docstring) and the tables built from them.

    Attributes
    ----------
    rules : Rules
    strategies : list of str
        Label per seat, as in :class:`~ohhell_sim.results.SimulationResult`.
    seed, first_game, games : int
    counts : SummaryCounts
    """

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[str],
        seed: int,
        first_game: int,
        games: int,
        counts: SummaryCounts,
    ) -> None:
        self.rules = rules
        self.strategies = list(strategies)
        self.seed = seed
        self.first_game = first_game
        self.games = games
        self.counts = counts

    @classmethod
    def from_result(cls, result: SimulationResult) -> RunSummary:
        """The summary of a full run, computed from its arrays with NumPy."""
        rules = result.rules
        a = result.arrays
        counts = SummaryCounts.zeros(rules)
        n = rules.players
        scheduled = slice(0, rules.n_deals)
        bids = a.bids[:, scheduled].astype(np.int64)
        tricks = a.tricks[:, scheduled].astype(np.int64)
        dealers = a.dealers[:, scheduled].astype(np.int64)
        hand_size = np.broadcast_to(rules.hand_sizes()[scheduled][None, :, None], bids.shape)
        seat = np.broadcast_to(np.arange(n)[None, None, :], bids.shape)
        position = bidding_position(seat, dealers[..., None], n)
        played = bids != NOT_PLAYED
        np.add.at(
            counts.outcomes,
            (
                hand_size[played],
                position[played],
                seat[played],
                bids[played],
                tricks[played],
            ),
            1,
        )
        dealt = dealers >= 0
        dealer_bid = np.take_along_axis(bids, np.maximum(dealers, 0)[..., None], axis=2)[..., 0]
        others = np.where(played, bids, 0).sum(axis=2) - dealer_bid
        np.add.at(
            counts.deals,
            (hand_size[..., 0][dealt], dealer_bid[dealt], others[dealt]),
            1,
        )
        totals = a.scores.astype(np.int64).sum(axis=1)
        low = total_bounds(rules)[0]
        np.add.at(counts.totals, (seat[:, 0, :].ravel(), (totals - low).ravel()), 1)
        won = (a.winners[:, None].astype(np.int64) >> np.arange(n)) & 1
        tied = np.broadcast_to(won.sum(axis=1, keepdims=True), won.shape)
        winner = won == 1
        np.add.at(counts.wins, (seat[:, 0, :][winner], tied[winner]), 1)
        return cls(
            rules, result.strategies, result.seed, result.first_game, result.games_played, counts
        )

    @property
    def metadata(self) -> dict:
        """Rules, seed, strategies, games and version, JSON-serialisable."""
        return {
            "version": __version__,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_game": self.first_game,
            "games": self.games,
            "strategies": self.strategies,
        }

    @property
    def deals_played(self) -> int:
        """Scheduled deals played (one per game and schedule entry, when nobody is eliminated)."""
        return int(self.counts.deals.sum())

    @cached_property
    def outcomes(self) -> pd.DataFrame:
        """Long frame of the non-empty outcome cells with their score.

        Columns ``hand_size, position, seat, strategy, bid, tricks, score,
        count``: ``count`` seat-deals took ``tricks`` after bidding ``bid``.
        """
        cells = np.nonzero(self.counts.outcomes)
        hand_size, position, seat, bid, tricks = cells
        points = deal_points_array(bid, tricks, hand_size, self.rules)
        frame = pd.DataFrame(
            {
                "hand_size": hand_size.astype(np.int16),
                "position": position.astype(np.int8),
                "seat": seat.astype(np.int8),
                "strategy": strategy_categorical(self.strategies, seat),
                "bid": bid.astype(np.int16),
                "tricks": tricks.astype(np.int16),
                "score": points,
                "count": self.counts.outcomes[cells],
            }
        )
        frame.attrs.update(self.metadata)
        return frame

    @cached_property
    def deals(self) -> pd.DataFrame:
        """One row per (hand size, dealer's bid, others' total) seen, with the hook's effect.

        Columns ``hand_size, dealer_bid, others_total, count``, then
        ``bid_total`` and ``over`` (bids minus hand size: > 0 overbid, < 0
        underbid), ``forbidden`` (the dealer's forbidden bid under these rules,
        -1 for none) and ``hook_binds`` (the forbidden bid was one the dealer
        could otherwise have made).
        """
        hand_size, dealer_bid, others = np.nonzero(self.counts.deals)
        forbidden = forbidden_bid_array(hand_size, others, self.rules)
        most = 0 if self.rules.nullo else hand_size
        frame = pd.DataFrame(
            {
                "hand_size": hand_size.astype(np.int16),
                "dealer_bid": dealer_bid.astype(np.int16),
                "others_total": others.astype(np.int16),
                "count": self.counts.deals[hand_size, dealer_bid, others],
                "bid_total": (dealer_bid + others).astype(np.int16),
                "over": (dealer_bid + others - hand_size).astype(np.int16),
                "forbidden": forbidden,
                "hook_binds": (forbidden >= 0) & (forbidden <= most),
            }
        )
        frame.attrs.update(self.metadata)
        return frame

    @cached_property
    def totals(self) -> pd.DataFrame:
        """Histogram of game totals: columns ``seat, strategy, total, count`` (non-zero counts)."""
        seat, offset = np.nonzero(self.counts.totals)
        frame = pd.DataFrame(
            {
                "seat": seat.astype(np.int8),
                "strategy": strategy_categorical(self.strategies, seat),
                "total": (offset + total_bounds(self.rules)[0]).astype(np.int32),
                "count": self.counts.totals[seat, offset],
            }
        )
        frame.attrs.update(self.metadata)
        return frame

    def table(self, by: Sequence[str] = ("strategy",), confidence: float = 0.95) -> pd.DataFrame:
        """Per-group deal statistics with confidence intervals.

        Parameters
        ----------
        by : sequence of str
            Grouping columns, from ``strategy``, ``seat``, ``position``,
            ``hand_size`` and ``bid``.
        confidence : float, default 0.95
            Coverage of the intervals.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``by``: ``deals``, ``mean_bid``, ``mean_tricks``,
            ``made_rate``, ``zero_bid_rate``, ``zero_made_rate`` (made rate of
            zero bids) and ``mean_score``, the rates and the mean score with
            ``_low``/``_high`` bounds (Wilson and Student-t intervals that treat
            seat-deals as independent).
        """
        keys = list(by)
        unknown = [k for k in keys if k not in TABLE_KEYS]
        if not keys or unknown:
            raise ValueError(f"by must name columns among {TABLE_KEYS}, got {keys!r}")
        cells = self.outcomes.assign(
            made=lambda f: (f["bid"] == f["tricks"]) * f["count"],
            zero=lambda f: (f["bid"] == 0) * f["count"],
            zero_made=lambda f: ((f["bid"] == 0) & (f["tricks"] == 0)) * f["count"],
            bid_sum=lambda f: f["bid"] * f["count"],
            tricks_sum=lambda f: f["tricks"] * f["count"],
        )
        rows = {}
        for key, group in cells.groupby(keys, observed=True, sort=True):
            n = int(group["count"].sum())
            row = {
                "deals": n,
                "mean_bid": group["bid_sum"].sum() / n,
                "mean_tricks": group["tricks_sum"].sum() / n,
            }
            for name, hits, trials in (
                ("made_rate", group["made"].sum(), n),
                ("zero_bid_rate", group["zero"].sum(), n),
                ("zero_made_rate", group["zero_made"].sum(), group["zero"].sum()),
            ):
                store_interval(row, name, proportion_ci(hits, trials, confidence))
            store_interval(
                row,
                "mean_score",
                frequency_mean_ci(group["score"].to_numpy(), group["count"].to_numpy(), confidence),
            )
            rows[key] = row
        index = pd.MultiIndex.from_tuples(list(rows), names=keys)
        if len(keys) == 1:
            index = index.get_level_values(0)
        return pd.DataFrame(list(rows.values()), index=index)

    def standings(self, confidence: float = 0.95) -> pd.DataFrame:
        """Per-strategy game totals and win shares with confidence intervals.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``strategy`` (the seat labels; seats with one label pooled):
            ``seats`` (seat-games), ``mean_total`` and ``win_share`` with
            ``_low``/``_high`` Student-t bounds over seat-games.
        """
        totals = self.totals
        win_values = np.zeros(self.counts.wins.shape, dtype=np.float64)
        ties = np.arange(1, win_values.shape[1])
        win_values[:, 1:] = 1.0 / ties
        rows = {}
        for strategy in dict.fromkeys(self.strategies):
            seats = [s for s, name in enumerate(self.strategies) if name == strategy]
            block = totals[totals["seat"].isin(seats)]
            seat_games = int(block["count"].sum())
            row: dict[str, float] = {"seats": seat_games}
            store_interval(
                row,
                "mean_total",
                frequency_mean_ci(block["total"].to_numpy(), block["count"].to_numpy(), confidence),
            )
            wins = self.counts.wins[seats]
            won = int(wins.sum())
            values = np.append(win_values[seats].ravel(), 0.0)
            counts = np.append(wins.ravel(), seat_games - won)
            store_interval(row, "win_share", frequency_mean_ci(values, counts, confidence))
            rows[strategy] = row
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("strategy")

    def to_parquet(self, folder: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """Write the counts to ``folder/summary.parquet`` (metadata included); return the path.

        ``overwrite`` replaces the run ``folder`` holds already, a full run's frames
        included (:func:`~ohhell_sim.results.check_run_folder`); without it such a
        folder is refused.
        """
        folder = check_run_folder(folder, overwrite)
        folder.mkdir(parents=True, exist_ok=True)
        remove_run_files(folder, keep=(SUMMARY_FILE,))
        arrays = {f.name: getattr(self.counts, f.name) for f in fields(self.counts)}
        frame = pd.DataFrame(
            {
                "array": list(arrays),
                "shape": [json.dumps(list(v.shape)) for v in arrays.values()],
                "values": [v.ravel() for v in arrays.values()],
            }
        )
        frame.attrs.update(self.metadata)
        path = folder / SUMMARY_FILE
        write_frame(frame, path)
        return path

    @classmethod
    def read_parquet(cls, path: str | os.PathLike) -> RunSummary:
        """Read a summary written by :meth:`to_parquet` (a file, or the folder holding it).

        Raises
        ------
        FileNotFoundError
            If there is no such file, naming it.
        """
        path = Path(path)
        if path.is_dir():
            path = path / SUMMARY_FILE
        if not path.is_file():
            raise FileNotFoundError(
                f"no summary at {str(path)!r}; write one with summary.to_parquet(folder) or "
                "ohhell simulate --summary --output FOLDER"
            )
        frame = read_frame(path)
        arrays = {
            row.array: np.asarray(row.values, dtype=np.int64).reshape(json.loads(row.shape))
            for row in frame.itertuples()
        }
        meta = frame.attrs
        return cls(
            Rules.from_dict(meta["rules"]),
            meta["strategies"],
            meta["seed"],
            meta["first_game"],
            meta["games"],
            SummaryCounts(**arrays),
        )

    def __repr__(self) -> str:
        return (
            f"RunSummary({self.games} games, {self.deals_played} deals, "
            f"{self.rules.players} players: {', '.join(self.strategies)}; seed {self.seed})"
        )
