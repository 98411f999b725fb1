"""Results of a run: compact pandas frames and Parquet files with metadata.

Two long-format frames describe a run:

``hands``
    one row per (game, deal, seat): ``game`` (int32), ``deal``, ``seat``,
    ``dealer``, ``hand_size``, ``trump`` (suit 0-3 clubs/diamonds/hearts/spades,
    -1 for none), ``bid``, ``tricks`` (int8), ``strategy`` (categorical: the
    seat's label, its strategy's name with the parameters that differ from the
    defaults in brackets, ``simple[scale=1.5]``) and ``score`` (int16): 14 bytes
    a row.  Variants add columns only when on:
    ``faults`` (cumulative, catastrophe), ``passed1``/``passed2`` (cards passed
    left, -1 for none; swap).  Under the catastrophe and tie-break variants, rows
    exist only for the seats that played the deal; the tie-break deal is deal
    number ``n_deals``.
``games``
    one row per (game, seat): ``game``, ``seat``, ``strategy``, ``total`` (int32,
    tie-break points included) and ``win_share`` (1/k for each of the k winners:
    the players tied on the top total, or, with the variants, the survivors'
    best, or the best in the tie-break deal).  Variants add ``faults`` and
    ``eliminated`` (catastrophe) and ``tiebreak`` (the seat played one).

The rules, seed, strategies and package version travel in ``frame.attrs`` and in
the Parquet file's metadata.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ohhell_sim._version import __version__
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.estimates import (
    Estimate,
    check_confidence,
    clip_rate,
    clustered_mean_ci,
    estimate_frame,
    mean_ci,
)
from ohhell_sim.rules import Rules

METADATA_KEY = b"ohhell_sim"
HANDS_FILE = "hands.parquet"
GAMES_FILE = "games.parquet"
#: The counts of a summary run (:meth:`ohhell_sim.summary.RunSummary.to_parquet`).
SUMMARY_FILE = "summary.parquet"
#: The files of a run in its folder: a full run's frames, or a summary run's counts.
RUN_FILES = (HANDS_FILE, GAMES_FILE, SUMMARY_FILE)


def win_shares(winners: np.ndarray, seats: int) -> np.ndarray:
    """Win share per (game, seat) from the kernel's winner masks: 1/k for each of k winners."""
    won = (winners[:, None] >> np.arange(seats)) & 1
    return won / won.sum(axis=1, keepdims=True)


def strategy_categorical(names: list[str], codes: np.ndarray) -> pd.Categorical:
    """Categorical of seat labels per row from seat codes, categories in seat order."""
    categories = list(dict.fromkeys(names))
    seat_codes = np.array([categories.index(n) for n in names], dtype=np.int8)
    return pd.Categorical.from_codes(seat_codes[codes], categories=categories)


@dataclass
class RunArrays:
    """The raw output of the kernel for a range of games, before framing.

    ``deals`` counts deal rows (:attr:`Rules.deal_rows`: the schedule plus a
    tie-break deal when that variant is on).  ``faults`` and ``passed`` hold data
    only under the catastrophe and swap variants, and ``held`` only when the run
    records the hands (``simulate(..., record_hands=True)``); otherwise their
    first axis is empty.  A seat that did not play a deal has bid ``NOT_PLAYED``
    (-1).
    """

    dealers: np.ndarray  # (games, deals) int8; -1 for a deal not played
    trumps: np.ndarray  # (games, deals) int8
    bids: np.ndarray  # (games, deals, seats) int8
    tricks: np.ndarray  # (games, deals, seats) int8
    scores: np.ndarray  # (games, deals, seats) int16
    winners: np.ndarray  # (games,) int16 seat mask
    faults: np.ndarray  # (games or 0, deals, seats) int16, cumulative after each deal
    passed: np.ndarray  # (games or 0, deals, seats, 2) int8 card ids, -1 for none
    # (games or 0, deals, seats) uint64: each seat's cards as dealt (bit c for card
    # c, before any swap; a card dealt twice from two decks shows once), 0 for none
    held: np.ndarray

    @classmethod
    def empty(cls, games: int, rules: Rules, *, hands: bool = False) -> RunArrays:
        """Zeroed arrays for ``games`` games under ``rules``; ``hands``: keep the dealt hands."""
        deals, seats = rules.deal_rows, rules.players
        return cls(
            dealers=np.zeros((games, deals), dtype=np.int8),
            trumps=np.zeros((games, deals), dtype=np.int8),
            bids=np.zeros((games, deals, seats), dtype=np.int8),
            tricks=np.zeros((games, deals, seats), dtype=np.int8),
            scores=np.zeros((games, deals, seats), dtype=np.int16),
            winners=np.zeros(games, dtype=np.int16),
            faults=np.zeros((games if rules.fault_limit else 0, deals, seats), dtype=np.int16),
            passed=np.full((games if rules.swap else 0, deals, seats, 2), -1, dtype=np.int8),
            held=np.zeros((games if hands else 0, deals, seats), dtype=np.uint64),
        )

    def rows(self, start: int, stop: int) -> RunArrays:
        """Views of games ``start .. stop`` (the variant arrays too, when they hold data)."""
        return RunArrays(
            **{
                f.name: (value[start:stop] if len(value) else value)
                for f in fields(self)
                for value in [getattr(self, f.name)]
            }
        )


def check_rows_fit(rules: Rules, games: int, *, hands: bool = False) -> None:
    """Raise if the rows of ``games`` games would not fit in this machine's memory.

    Checked before a run starts: a run that keeps every game's rows
    (:class:`RunArrays`, then its frames) cannot finish otherwise.

    Raises
    ------
    InvalidArgumentError
        Naming the memory needed and the machine's, and the runs that need less.
    """
    template = RunArrays.empty(1, rules, hands=hands)
    needed = games * sum(getattr(template, f.name).nbytes for f in fields(RunArrays))
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # not POSIX: nothing to compare with
        return
    if needed > memory:
        raise InvalidArgumentError(
            f"games={games} would need {needed / 2**30:,.1f} GiB for the rows of every "
            f"deal, more than this machine's {memory / 2**30:,.1f} GiB of memory; keep "
            "summary counts only (oh.summarise, ohhell simulate --summary: constant "
            "memory), or play fewer games"
        )


class SimulationResult:
    """What :func:`ohhell_sim.simulate` returns: frames built on first access.

    Attributes
    ----------
    rules : Rules
    strategies : list of str
        Label per seat (:attr:`~ohhell_sim.strategy.Seating.labels`): the
        strategy's name, with the parameters that differ from its defaults in
        brackets.  Seats with one label are pooled in the summaries.
    params : ndarray
        Parameter row per seat.
    seed, first_game, games : int
    """

    def __init__(
        self,
        rules: Rules,
        strategies: list[str],
        params: np.ndarray,
        seed: int,
        first_game: int,
        arrays: RunArrays,
    ) -> None:
        self.rules = rules
        self.strategies = list(strategies)
        self.params = params
        self.seed = seed
        self.first_game = first_game
        self.games_played = arrays.bids.shape[0]
        self._arrays = arrays

    @property
    def arrays(self) -> RunArrays:
        """The kernel's raw output arrays, one row per game."""
        return self._arrays

    @property
    def metadata(self) -> dict:
        """Rules, seed, strategies, parameters and version, JSON-serialisable."""
        return {
            "version": __version__,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_game": self.first_game,
            "games": self.games_played,
            "strategies": self.strategies,
            "params": self.params.tolist(),
        }

    @cached_property
    def hands(self) -> pd.DataFrame:
        """One row per (game, deal, seat) played; see the module docstring."""
        a = self._arrays
        games, deals, seats = a.bids.shape
        rows = games * deals * seats
        seat = np.tile(np.arange(seats, dtype=np.int8), games * deals)
        deal_dtype = np.int8 if deals <= 127 else np.int16
        columns = {
            "game": np.repeat(
                np.arange(self.first_game, self.first_game + games, dtype=np.int32),
                deals * seats,
            ),
            "deal": np.tile(np.repeat(np.arange(deals, dtype=deal_dtype), seats), games),
            "seat": seat,
            "dealer": np.repeat(a.dealers.reshape(-1), seats),
            "hand_size": np.tile(np.repeat(self.rules.hand_sizes().astype(np.int8), seats), games),
            "trump": np.repeat(a.trumps.reshape(-1), seats),
            "strategy": strategy_categorical(self.strategies, seat),
            "bid": a.bids.reshape(rows),
            "tricks": a.tricks.reshape(rows),
            "score": a.scores.reshape(rows),
        }
        if self.rules.fault_limit:
            columns["faults"] = a.faults.reshape(rows)
        if self.rules.swap:
            columns["passed1"] = a.passed[..., 0].reshape(rows)
            columns["passed2"] = a.passed[..., 1].reshape(rows)
        frame = pd.DataFrame(columns)
        if self.rules.fault_limit or self.rules.tiebreak:
            # Eliminated players and those outside a tie-break sit these deals out.
            frame = frame[frame["bid"].to_numpy() >= 0].reset_index(drop=True)
        frame.attrs.update(self.metadata)
        return frame

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per (game, seat): final total and win share."""
        a = self._arrays
        games, _, seats = a.bids.shape
        totals = a.scores.sum(axis=1, dtype=np.int32)
        seat = np.tile(np.arange(seats, dtype=np.int8), games)
        columns = {
            "game": np.repeat(
                np.arange(self.first_game, self.first_game + games, dtype=np.int32), seats
            ),
            "seat": seat,
            "strategy": strategy_categorical(self.strategies, seat),
            "total": totals.reshape(-1),
            "win_share": win_shares(a.winners, seats).reshape(-1),
        }
        if self.rules.fault_limit:
            final_faults = a.faults[:, self.rules.n_deals - 1, :]
            columns["faults"] = final_faults.reshape(-1)
            columns["eliminated"] = (final_faults >= self.rules.fault_limit).reshape(-1)
        if self.rules.tiebreak:
            columns["tiebreak"] = (a.bids[:, -1, :] >= 0).reshape(-1)
        frame = pd.DataFrame(columns)
        frame.attrs.update(self.metadata)
        return frame

    def summary(self, confidence: float = 0.95) -> pd.DataFrame:
        """Per-strategy estimates with confidence intervals, one row per measure.

        See :func:`strategy_summary`: columns
        ``strategy``, ``measure`` (``mean_total``, ``mean_score``, ``made_rate``,
        ``zero_bid_rate``, ``win_share``), ``n``, ``estimate``, ``low``, ``high``
        and ``method``; the game is the independent unit.
        """
        return strategy_summary(self.hands, self.games, confidence=confidence)

    def to_parquet(self, folder: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """Write ``hands.parquet`` and ``games.parquet`` into ``folder``; return the folder.

        Parameters
        ----------
        folder : path
            The folder (created if needed).
        overwrite : bool
            Replace the run ``folder`` holds already (see :func:`check_run_folder`).

        Raises
        ------
        InvalidArgumentError
            If ``folder`` holds another run and ``overwrite`` is false, or cannot
            be written.
        """
        folder = check_run_folder(folder, overwrite)
        folder.mkdir(parents=True, exist_ok=True)
        remove_run_files(folder, keep=(HANDS_FILE, GAMES_FILE))
        write_frame(self.hands, folder / HANDS_FILE)
        write_frame(self.games, folder / GAMES_FILE)
        return folder

    def __repr__(self) -> str:
        return (
            f"SimulationResult({self.games_played} games x {self.rules.n_deals} deals, "
            f"{self.rules.players} players: {', '.join(self.strategies)}; seed {self.seed})"
        )


def write_frame(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write ``frame`` to Parquet with its ``attrs`` in the file metadata (write, then rename)."""
    path = Path(path)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps(frame.attrs).encode()
    table = table.replace_schema_metadata(meta)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, tmp)
    tmp.replace(path)


def read_frame(path: str | os.PathLike) -> pd.DataFrame:
    """Read a frame written by :func:`write_frame`, restoring its ``attrs``."""
    table = pq.read_table(path)
    frame = table.to_pandas()
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    frame.attrs = json.loads(raw) if raw else {}
    return frame


def read_results(folder: str | os.PathLike) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read ``(hands, games)`` written by :meth:`SimulationResult.to_parquet`.

    Raises
    ------
    FileNotFoundError
        If ``folder`` lacks one of the files, naming the folder and the files.
    """
    folder = Path(folder)
    missing = [name for name in (HANDS_FILE, GAMES_FILE) if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{str(folder)!r} holds no run results ({' and '.join(missing)} missing); "
            "write them with result.to_parquet(folder) or ohhell simulate --output FOLDER"
        )
    return read_frame(folder / HANDS_FILE), read_frame(folder / GAMES_FILE)


def check_output_folder(folder: str | os.PathLike) -> Path:
    """Check that results can be written into ``folder`` before any work starts.

    Raises
    ------
    ValueError
        If ``folder`` is an existing file, or neither it nor its nearest existing
        parent is a writable folder.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InvalidArgumentError(
            f"output path {str(folder)!r} is an existing file; give a folder"
        )
    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise InvalidArgumentError(
            f"output path {str(folder)!r} cannot be written: {str(probe)!r} is not a folder"
        )
    # Tried, not judged by permission bits: root passes os.access everywhere, and
    # some file systems (/proc, a read-only mount) refuse whatever the bits say.
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".ohhell-probe-", dir=probe))
    except OSError as error:
        raise InvalidArgumentError(
            f"output path {str(folder)!r} cannot be written: no folder can be made in "
            f"{str(probe)!r} ({error.strerror or error})"
        ) from None
    return folder


def check_run_folder(folder: str | os.PathLike, overwrite: bool = False) -> Path:
    """Check that a run can be written into ``folder``: not over another run unless told to.

    Parameters
    ----------
    folder : path
        The output folder of a run (:data:`RUN_FILES`).
    overwrite : bool
        Whether the run it holds, if any, may be replaced; the writer then removes
        that run's files (:func:`remove_run_files`), so that a summary run never
        lies beside a full run's frames.

    Raises
    ------
    InvalidArgumentError
        If ``folder`` holds a run and ``overwrite`` is false, or it cannot be
        written (:func:`check_output_folder`).
    """
    folder = check_output_folder(folder)
    held = [name for name in RUN_FILES if (folder / name).exists()]
    if held and not overwrite:
        raise InvalidArgumentError(
            f"output folder {str(folder)!r} holds another run ({', '.join(held)}); give "
            "another folder, or replace that run with --overwrite (overwrite=True)"
        )
    return folder


def remove_run_files(folder: Path, keep: tuple[str, ...]) -> None:
    """Remove the run files (:data:`RUN_FILES`) of ``folder`` but ``keep``, before a run is
    written there."""
    for name in RUN_FILES:
        if name not in keep:
            (folder / name).unlink(missing_ok=True)


def check_output_file(path: str | os.PathLike, suffix: str) -> Path:
    """Check that a file ending in ``suffix`` can be written at ``path`` before any work starts.

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not end in ``suffix``, is an existing folder, or its
        folder (or the nearest existing parent) is not a writable folder.
    """
    path = Path(path)
    if path.suffix != suffix:
        raise InvalidArgumentError(
            f"output file {str(path)!r} must end in {suffix}, e.g. {path.stem or 'out'}{suffix}"
        )
    if path.is_dir():
        raise InvalidArgumentError(
            f"output file {str(path)!r} is an existing folder; give a file name"
        )
    check_output_folder(path.parent)
    return path


#: Measures of :func:`strategy_summary`, in order; the rates are clipped to [0, 1].
SUMMARY_MEASURES = ("mean_total", "mean_score", "made_rate", "zero_bid_rate", "win_share")
_RATE_MEASURES = ("made_rate", "zero_bid_rate", "win_share")
_HANDS_COLUMNS = ("game", "strategy", "bid", "tricks", "score")
_GAMES_COLUMNS = ("game", "strategy", "total", "win_share")


def _require_columns(frame: pd.DataFrame, name: str, columns: Iterable[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing columns {missing}")


def strategy_summary(
    hands: pd.DataFrame, games: pd.DataFrame, confidence: float = 0.95
) -> pd.DataFrame:
    """Per-strategy means and rates with confidence intervals, one row per measure.

    Observations of one game are correlated: its deals share players and
    seating, and one strategy may sit in several of its seats.  The game is
    therefore the independent unit throughout:

    * ``mean_total`` and ``win_share`` average each game's rows of the strategy
      first (one value per game, so every game weighs the same), then take a
      Student-t interval over games (``n``: games);
    * ``mean_score``, ``made_rate`` and ``zero_bid_rate`` are per-deal
      quantities estimated by :func:`clustered_mean_ci` over the strategy's
      (game, deal, seat) rows, clustered by game (``n``: those rows).

    Intervals of the rates (``made_rate``, ``zero_bid_rate``, ``win_share``) are
    clipped to [0, 1].

    Parameters
    ----------
    hands : pandas.DataFrame
        One row per (game, deal, seat) with at least the columns ``game``,
        ``strategy``, ``bid``, ``tricks`` and ``score``.
    games : pandas.DataFrame
        One row per (game, seat) with at least the columns ``game``,
        ``strategy``, ``total`` and ``win_share``.
    confidence : float, default 0.95
        Coverage of every two-sided interval, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        Columns ``strategy``, ``measure`` (one of :data:`SUMMARY_MEASURES`), then
        :data:`ESTIMATE_COLUMNS`; strategies sorted, measures in that order.  A
        strategy found in only one frame lacks the other frame's measures.

    Raises
    ------
    ValueError
        If a required column is missing or ``confidence`` is not in (0, 1).
    """
    confidence = check_confidence(confidence)
    _require_columns(hands, "hands", _HANDS_COLUMNS)
    _require_columns(games, "games", _GAMES_COLUMNS)
    found: dict[tuple[Hashable, str], Estimate] = {}

    per_game = games.groupby(["strategy", "game"], observed=True, sort=True)[
        ["total", "win_share"]
    ].mean()
    for strategy, block in per_game.groupby(level="strategy", observed=True, sort=True):
        found[strategy, "mean_total"] = mean_ci(block["total"].to_numpy(), confidence)
        found[strategy, "win_share"] = mean_ci(block["win_share"].to_numpy(), confidence)

    for strategy, block in hands.groupby("strategy", observed=True, sort=True):
        game = block["game"].to_numpy()
        bid = block["bid"].to_numpy()
        for measure, values in (
            ("mean_score", block["score"].to_numpy()),
            ("made_rate", bid == block["tricks"].to_numpy()),
            ("zero_bid_rate", bid == 0),
        ):
            found[strategy, measure] = clustered_mean_ci(values, game, confidence)

    strategies = sorted({strategy for strategy, _ in found}, key=str)
    rows = []
    for strategy in strategies:
        for measure in SUMMARY_MEASURES:
            est = found.get((strategy, measure))
            if est is not None:
                est = clip_rate(est) if measure in _RATE_MEASURES else est
                rows.append({"strategy": strategy, "measure": measure, **est.row()})
    return estimate_frame(rows, ["strategy", "measure"])
