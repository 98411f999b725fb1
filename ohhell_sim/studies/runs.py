"""A study's data: its conditions, its stacked frames, and their files.

A study is a list of :class:`Condition` s (played by
:func:`~ohhell_sim.studies.study_play.play_conditions`).  Its results are one ``hands``
and one ``games`` frame (:class:`StudyData`), with the label values as extra columns,
read a batch of whole conditions at a time (:func:`condition_batches`), and written to
Parquet with the study's manifest (its conditions, seed and package version).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import read_frame, write_frame
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import SeatSpec

HANDS_FILE = "hands.parquet"
GAMES_FILE = "games.parquet"
MANIFEST_FILE = "study.json"


@dataclass(frozen=True)
class Condition:
    """One cell of a study's design: ``rules`` and ``seats`` (as for
    :func:`ohhell_sim.simulate`) played for games ``0 .. games - 1``, named by ``label``:
    column -> value added to each of its rows (e.g. ``{"players": 4, "hook": False}``),
    with the same keys in every condition of a study.
    """

    label: dict[str, object]
    rules: Rules
    seats: tuple[SeatSpec, ...]
    games: int

    def describe(self) -> dict:
        """JSON-serialisable record of the condition, for the metadata."""
        return {
            "label": self.label,
            "rules": self.rules.to_dict(),
            "seats": [seat_text(s) for s in self.seats],
            "games": self.games,
        }


def seat_text(spec: SeatSpec) -> str:
    """A seat spec as text: ``"simple"`` or ``"zero(threshold=1e+09)"``."""
    if isinstance(spec, tuple):
        name, params = spec
        inner = ", ".join(f"{k}={v:g}" for k, v in params.items())
        return f"{name}({inner})"
    return str(spec)


#: The subfolder of a study folder that holds its confirmation run (another study folder).
CONFIRMATION_FOLDER = "confirmation"


@dataclass
class StudyData:
    """The stacked frames of a study and its manifest (see
    :func:`~ohhell_sim.studies.study_play.play_conditions`).

    ``confirmation`` holds the same study played again at another seed (fresh
    cards), on which the headlines are confirmed; None when none was played.
    """

    hands: pd.DataFrame
    games: pd.DataFrame
    manifest: dict = field(default_factory=dict)
    confirmation: StudyData | None = None

    def __post_init__(self) -> None:
        # The manifest is the metadata; frames with ``attrs`` would have pandas
        # deep-copy them into the result of every operation of an analysis.
        self.hands.attrs, self.games.attrs = {}, {}


def keep_per_game(
    reduce: Callable[[pd.DataFrame], pd.DataFrame], hands: pd.DataFrame
) -> pd.DataFrame:
    """``reduce(hands)``, checked to keep rows per game (a ``game`` column): the hands come
    a chunk of games at a time, and rows that summed a whole condition would stack as
    several partial ones without a word."""
    kept = reduce(hands)
    if "game" not in kept.columns:
        name = getattr(reduce, "__qualname__", None) or repr(reduce)
        raise InvalidArgumentError(
            f"reduce_hands {name} returned no 'game' column: it must keep rows per game "
            "(the hands come a chunk of games at a time); group by the game too"
        )
    return kept


def stack_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """``frames`` stacked, their text columns as categories (a study's hands or games), in
    place: each category column takes the categories of every frame, so that the frames
    stack as codes, never as text."""
    for frame in frames:
        as_categories(frame)
    for column in frames[0].columns if frames else ():
        columns = [frame[column] for frame in frames if column in frame.columns]
        if all(isinstance(values.dtype, pd.CategoricalDtype) for values in columns):
            common = common_categories(columns)
            for frame in frames:
                frame[column] = frame[column].astype(common)
    return as_categories(pd.concat(frames, ignore_index=True))


def common_categories(columns: Sequence[pd.Series]) -> pd.CategoricalDtype:
    """The categories of text columns stacked as a study's frames stack them
    (:func:`stack_frames`): every value, in pandas' own order, as ``astype("category")``
    gives the stacked column."""
    values = pd.Index([]).append([column.astype("category").cat.categories for column in columns])
    return pd.CategoricalDtype(pd.Series(values.unique()).astype("category").cat.categories)


def as_categories(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its text columns (strings or objects) as categories, in place: a
    study's labels repeat on every row, and a category holds each of them once."""
    for column in frame.columns:
        dtype = frame[column].dtype
        if pd.api.types.is_object_dtype(dtype) or isinstance(dtype, pd.StringDtype):
            frame[column] = frame[column].astype("category")
    return frame


def condition_batches(*frames: pd.DataFrame) -> Iterator[tuple[pd.DataFrame, ...]]:
    """Each of a study's ``frames``' rows of whole conditions, a batch of conditions at a
    time in condition order, of about :data:`BATCH_ROWS` rows (all frames together): a
    measure of a large study computed a batch at a time holds one batch's copy of its
    rows, and a small study is one batch."""
    at = [condition_rows(frame) for frame in frames]

    def rows_of(batch: list[int]) -> tuple[pd.DataFrame, ...]:
        return tuple(
            frame.iloc[np.concatenate([_positions(rows[condition]) for condition in batch])]
            for frame, rows in zip(frames, at, strict=True)
        )

    batch, size = [], 0
    for condition in sorted(at[0]):
        batch.append(condition)
        size += sum(len(rows[condition]) for rows in at)
        if size >= BATCH_ROWS:
            yield rows_of(batch)
            batch, size = [], 0
    if batch:
        yield rows_of(batch)


def condition_rows(frame: pd.DataFrame) -> dict[int, range | np.ndarray]:
    """The positions of each condition's rows in ``frame``, in their order, by condition.

    A study's rows come stacked condition by condition: each condition's rows are then one
    ``range``, found from where the condition changes, with no index array over every row
    (a large study holds tens of millions); rows in any other order are grouped."""
    condition = frame["condition"].to_numpy()
    if len(condition) and (condition[1:] >= condition[:-1]).all():
        starts = np.flatnonzero(condition[1:] != condition[:-1]) + 1
        bounds = zip(np.r_[0, starts], np.r_[starts, len(condition)], strict=True)
        return {int(condition[a]): range(a, b) for a, b in bounds}
    return frame.groupby("condition", observed=True, sort=True).indices


def _positions(rows: range | np.ndarray) -> np.ndarray:
    return np.arange(rows.start, rows.stop) if isinstance(rows, range) else rows


def write_study(data: StudyData, folder: Path) -> Path:
    """Write ``hands.parquet``, ``games.parquet`` and ``study.json`` into ``folder``, and the
    confirmation run, if any, into its :data:`CONFIRMATION_FOLDER` the same way."""
    folder.mkdir(parents=True, exist_ok=True)
    if data.confirmation is not None:
        write_study(data.confirmation, folder / CONFIRMATION_FOLDER)
    for frame, name in ((data.hands, HANDS_FILE), (data.games, GAMES_FILE)):
        # The manifest goes into the file's metadata through a shallow copy (see StudyData).
        labelled = frame.copy(deep=False)
        labelled.attrs = dict(data.manifest)
        write_frame(labelled, folder / name)
    (folder / MANIFEST_FILE).write_text(json.dumps(data.manifest, indent=1), encoding="utf-8")
    return folder


def read_manifest(folder: str | Path) -> dict:
    """The ``study.json`` of a study folder; raises, naming the folder or file, when it is
    missing or not a JSON object."""
    path = Path(folder) / MANIFEST_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"{str(folder)!r} holds no study output ({MANIFEST_FILE} is missing); "
            "run `ohhell experiment NAME --out FOLDER` first"
        )
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InvalidArgumentError(
            f"{str(path)!r} is not the manifest of a study: it does not read as JSON ({error})"
        ) from None
    if not isinstance(manifest, dict):
        raise InvalidArgumentError(
            f"{str(path)!r} is not the manifest of a study: it holds {type(manifest).__name__}"
        )
    return manifest


def read_study(
    folder: str | Path, reduce: Callable[[pd.DataFrame], pd.DataFrame] | None = None
) -> StudyData:
    """Read what :func:`write_study` wrote, the confirmation run included (the frames
    without ``attrs``: the manifest is :attr:`StudyData.manifest`); ``reduce``, when given,
    maps the hands of whole games to what is kept of them where the run kept every deal
    (its manifest notes no ``"hands"`` reduced), read a batch of whole games at a time."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    confirmation = None
    if (folder / CONFIRMATION_FOLDER / MANIFEST_FILE).is_file():
        confirmation = read_study(folder / CONFIRMATION_FOLDER, reduce)
    if reduce is None or "hands" in manifest:
        hands = read_frame(folder / HANDS_FILE)
    else:
        hands = stack_frames(list(_reduced(folder / HANDS_FILE, reduce)))
    # Data written as plain strings read back as categories, as they were played.
    games = as_categories(read_frame(folder / GAMES_FILE))
    return StudyData(as_categories(hands), games, manifest, confirmation)


#: Rows of a study's frames handled at a time: its hands read when they are reduced
#: (:func:`read_study`), its frames measured (:func:`condition_batches`).
BATCH_ROWS = 1 << 18


def _reduced(path: Path, reduce: Callable[[pd.DataFrame], pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """``reduce`` of the hands in the file at ``path`` (stacked condition after condition,
    each in game order), given the whole games of a batch of rows at a time, as a run gives
    it the games of a chunk."""
    rest = None
    for batch in pq.ParquetFile(path).iter_batches(batch_size=BATCH_ROWS):
        rows = batch.to_pandas()
        if rest is not None:
            rows = pd.concat([rest, rows], ignore_index=True)
        conditions, games = rows["condition"].to_numpy(), rows["game"].to_numpy()
        # The last game may go on in the next batch.
        done = (conditions != conditions[-1]) | (games != games[-1])
        if done.any():
            yield keep_per_game(reduce, rows[done].reset_index(drop=True))
        rest = rows[~done]
    if rest is not None and len(rest):
        yield keep_per_game(reduce, rest.reset_index(drop=True))
