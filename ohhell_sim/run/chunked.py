"""Resumable runs: chunks of games saved as they finish, so a stopped run continues.

:func:`run_chunked` plays a run in chunks of consecutive games, locally or on a
Dask cluster, and keeps in ``folder``::

    manifest.json         the run's arguments; per finished chunk its file and sha256
    chunks/chunk-000000.npz ...
                          the kernel's raw arrays for each chunk of games (a
                          summary run: the chunk's summary counts)
    hands.parquet, games.parquet
                          the combined result, written once every chunk is done
                          (a summary run: summary.parquet)

Run it again with the same arguments after a crash, a ``kill -9`` or a lost
cluster, and it keeps every chunk whose file matches its checksum, plays only the
rest, and ends with a result identical to an uninterrupted run (a game depends
only on the seed and its index).  A chunk file that is corrupt, half written, or
not yet recorded in the manifest is played again, with a :class:`ChunkWarning`.

Chunks are ``.npz`` files of the kernel's :class:`~ohhell_sim.results.RunArrays`
rather than Parquet frames: one file per chunk, so one checksum and one atomic
rename make it complete or absent; saving is a memory copy (about 340 bytes a
game with 4 players and the full schedule; compression cost as much as playing
the games, so there is none); and the final frames come from the same
``RunArrays`` to :class:`~ohhell_sim.results.SimulationResult` path as
:func:`ohhell_sim.simulate`, so they are identical by construction rather than by
a careful concatenation of frames, categoricals and metadata.

Every file is written to a temporary name, flushed to disk and renamed into
place, so a killed run never leaves a half-written file under a real name.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ohhell_sim._version import __version__
from ohhell_sim.arguments import check_count
from ohhell_sim.errors import InvalidArgumentError, RunInterrupted
from ohhell_sim.results import (
    GAMES_FILE,
    HANDS_FILE,
    SUMMARY_FILE,
    RunArrays,
    SimulationResult,
    check_output_folder,
    check_rows_fit,
)
from ohhell_sim.rules import Rules
from ohhell_sim.run.counts import SummaryCounts
from ohhell_sim.run.dask import chunk_ranges
from ohhell_sim.run.pipeline import numba_threads, play, prepare_kernel
from ohhell_sim.run.progress import progress_bar
from ohhell_sim.run.record import Run
from ohhell_sim.run.run_summary import RunSummary
from ohhell_sim.run.sinks import Counts, Rows
from ohhell_sim.run.validation import check_run
from ohhell_sim.strategy import SeatSpec
from ohhell_sim.strategy.code import strategy_fingerprint

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "CHUNKS_DIR",
    "DEFAULT_CHUNK_GAMES",
    "MANIFEST_FILE",
    "ChunkWarning",
    "ChunkedRunResult",
    "ChunkedRunSummary",
    "RunStats",
    "read_manifest",
    "run_chunked",
]

#: Games per chunk by default: a second or so of work on a laptop, about 17 MB on
#: disk for 4 players, so a restart loses little and the manifest stays short.
DEFAULT_CHUNK_GAMES = 50_000
MANIFEST_FILE = "manifest.json"
CHUNKS_DIR = "chunks"
#: Version of the folder layout; a folder of another layout is refused.
MANIFEST_FORMAT = 1

_LOCK_FILE = ".lock"

logger = logging.getLogger(__name__)


class ChunkWarning(UserWarning):
    """A chunk file was corrupt, partial, missing or unrecorded, and is played again."""


@dataclass(frozen=True)
class RunStats:
    """What one call of :func:`run_chunked` did.

    Attributes
    ----------
    chunks : int
        Chunks in the run.
    reused : int
        Chunks found complete on disk and kept.
    computed : int
        Chunks played by this call (``chunks - reused``).
    repaired : tuple of str
        File names among ``computed`` that existed but were corrupt, partial,
        missing from the manifest, or recorded but gone.
    games_computed : int
        Games played by this call.
    """

    chunks: int
    reused: int
    computed: int
    repaired: tuple[str, ...]
    games_computed: int


class ChunkedRunResult(SimulationResult):
    """A :class:`~ohhell_sim.results.SimulationResult` with the :class:`RunStats` of the call.

    Its frames are those of an uninterrupted run; ``stats`` tells how much of it
    was reused from an earlier, interrupted call.
    """

    def __init__(
        self,
        rules: Rules,
        strategies: list[str],
        params: np.ndarray,
        seed: int,
        first_game: int,
        arrays: RunArrays,
        stats: RunStats,
    ) -> None:
        super().__init__(rules, strategies, params, seed, first_game, arrays)
        self.stats = stats


class ChunkedRunSummary(RunSummary):
    """A :class:`~ohhell_sim.summary.RunSummary` with the :class:`RunStats` of the call."""

    def __init__(
        self,
        rules: Rules,
        strategies: list[str],
        seed: int,
        first_game: int,
        games: int,
        counts: SummaryCounts,
        stats: RunStats,
    ) -> None:
        super().__init__(rules, strategies, seed, first_game, games, counts)
        self.stats = stats


def read_manifest(folder: str | os.PathLike) -> dict[str, Any]:
    """The manifest of a run folder (arguments, finished chunks, last call's stats)."""
    return json.loads((Path(folder) / MANIFEST_FILE).read_text(encoding="utf-8"))


def run_chunked(
    rules: Rules,
    strategies: Sequence[SeatSpec],
    games: int,
    seed: int,
    folder: str | os.PathLike,
    *,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    first_game: int = 0,
    threads: int | None = None,
    client: Client | None = None,
    progress: bool = True,
    overwrite: bool = False,
    summary: bool = False,
) -> ChunkedRunResult | ChunkedRunSummary:
    """Play a run in chunks saved to ``folder``, resuming whatever an earlier call finished.

    Parameters
    ----------
    rules, strategies, games, seed, first_game, threads
        As for :func:`ohhell_sim.simulate`.
    folder : path
        Run folder (created if needed); see the module docstring for its layout.
    chunk_games : int
        Games per chunk: the unit of saving, of resuming, and of Dask tasks.
    client : distributed.Client, optional
        Play the chunks on this Dask cluster; files are written by this process,
        so the workers need no access to ``folder``.
    progress : bool
        Show a progress bar (games per second; it starts at the reused games).
    overwrite : bool
        Discard a run with other arguments found in ``folder`` instead of refusing.
    summary : bool
        Keep only summary counts (:func:`ohhell_sim.summarise`): each chunk file
        holds its games' counts, a few hundred kB however many games it has.

    Returns
    -------
    ChunkedRunResult or ChunkedRunSummary
        Equal to ``simulate(rules, strategies, games, seed, first_game=first_game)``
        (or ``summarise(...)`` with ``summary``); ``.stats`` counts reused and
        computed chunks.  The frames are also written to ``folder/hands.parquet``
        and ``folder/games.parquet`` (the counts to ``folder/summary.parquet``).

    Raises
    ------
    InvalidArgumentError
        For bad arguments or an unwritable folder (before any work), or when
        ``folder`` holds a run with other arguments (the message names what
        differs) and ``overwrite`` is false.
    RuntimeError
        If another process is writing into ``folder``.
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    RunInterrupted
        At Ctrl-C (a ``KeyboardInterrupt``), within a second or two, even during a
        strategy's decision that never returns; the message counts the chunks
        saved, which the next call with the same arguments keeps.
    """
    run = check_run(rules, strategies, first_game, games, seed, threads)
    chunk_games = check_count("chunk_games", chunk_games)
    for name, flag in (("progress", progress), ("overwrite", overwrite), ("summary", summary)):
        if not isinstance(flag, bool):
            raise InvalidArgumentError(f"{name} must be True or False, got {flag!r}")
    if not summary:
        check_rows_fit(run.rules, run.games)
    if client is not None:
        from ohhell_sim.run.dask import check_client

        client = check_client(client)
    folder = check_output_folder(folder)

    chunk_dir = folder / CHUNKS_DIR
    chunk_dir.mkdir(parents=True, exist_ok=True)
    with _folder_lock(folder):
        _remove_temporaries(folder)
        args = _run_args(run, chunk_games, summary)
        manifest = _open_manifest(folder, args, overwrite)
        ranges = chunk_ranges(run.games, chunk_games)
        new_sink = partial(Counts.empty, run.rules) if summary else partial(Rows.empty, run.rules)
        sink = new_sink(run.games)
        todo, repaired = _load_finished(manifest, chunk_dir, ranges, run.first_game, sink)
        manifest["complete"] = False
        _save_manifest(folder, manifest)

        games_todo = sum(ranges[i][1] for i in todo)
        logger.info(
            "%s: %d of %d chunks already done, playing %d (%d games)",
            folder,
            len(ranges) - len(todo),
            len(ranges),
            len(todo),
            games_todo,
        )
        if client is None and todo:
            # Before the bar, whose clock should time the games, not a compile.
            with numba_threads(run.threads):
                prepare_kernel(run.seating, run.rules, new_sink(0))
        try:
            with progress_bar(
                progress, run.games, run.rules.n_deals, done=run.games - games_todo
            ) as advance:
                for index, part in _play(client, run, ranges, todo, new_sink):
                    start, count = ranges[index]
                    sink.merge(start, part)
                    name = _chunk_name(index)
                    data = part.encode()
                    _write_atomic(chunk_dir / name, data)
                    manifest["chunks"][str(index)] = {
                        "file": name,
                        "first_game": run.first_game + start,
                        "games": count,
                        "sha256": hashlib.sha256(data).hexdigest(),
                    }
                    _save_manifest(folder, manifest)
                    advance(count)
        except KeyboardInterrupt as stopped:
            said = str(stopped) or "run stopped by Ctrl-C"
            raise RunInterrupted(
                f"{said}; {len(manifest['chunks'])} of {len(ranges)} chunks are saved in "
                f"{str(folder)!r}: call run_chunked again with the same arguments to play "
                "the rest",
                stuck=getattr(stopped, "stuck", 0),
            ) from None

        stats = RunStats(
            chunks=len(ranges),
            reused=len(ranges) - len(todo),
            computed=len(todo),
            repaired=tuple(repaired),
            games_computed=games_todo,
        )
        if summary:
            result = ChunkedRunSummary(
                run.rules,
                run.seating.labels,
                run.seed,
                run.first_game,
                run.games,
                sink.counts,
                stats,
            )
        else:
            result = ChunkedRunResult(
                run.rules,
                run.seating.labels,
                run.seating.params,
                run.seed,
                run.first_game,
                sink.arrays,
                stats,
            )
        result.to_parquet(folder, overwrite=True)  # the run's own folder
        manifest["complete"] = True
        manifest["last_run"] = asdict(stats) | {"repaired": list(stats.repaired)}
        _save_manifest(folder, manifest)
    return result


# ------------------------------------------------------------------ the manifest


def _run_args(run: Run, chunk_games: int, summary: bool) -> dict[str, Any]:
    seating = run.seating
    args = {
        "version": __version__,
        "rules": run.rules.to_dict(),
        "strategies": seating.names,
        "params": seating.params.tolist(),
        # A user strategy edited between calls would mix two strategies in one run.
        "user_strategies": {s.name: strategy_fingerprint(s) for s in seating.user_strategies},
        "seed": run.seed,
        "first_game": run.first_game,
        "games": run.games,
        "chunk_games": chunk_games,
    }
    if summary:
        # Only when set, so that folders of full runs from before it still resume.
        args["summary"] = True
    # Compare as JSON sees it (tuples become lists), the form read back from disk.
    return json.loads(json.dumps(args))


def _open_manifest(folder: Path, args: dict[str, Any], overwrite: bool) -> dict[str, Any]:
    path = folder / MANIFEST_FILE
    fresh = {"format": MANIFEST_FORMAT, "args": args, "chunks": {}, "complete": False}
    how = "use a new folder, or pass overwrite=True to discard the old run"
    if not path.exists():
        stray = [n for n in (HANDS_FILE, GAMES_FILE, SUMMARY_FILE) if (folder / n).exists()]
        if stray and not overwrite:
            raise InvalidArgumentError(
                f"{str(folder)!r} holds results ({', '.join(stray)}) but no {MANIFEST_FILE}, "
                f"so they are not a resumable run; {how}"
            )
        return fresh
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        problems = (
            _differences(old["args"], args)
            if old.get("format") == MANIFEST_FORMAT
            else [f"folder layout {old.get('format')!r} (this version writes {MANIFEST_FORMAT})"]
        )
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        old, problems = None, [f"its {MANIFEST_FILE} cannot be read ({err})"]
    if not problems:
        if not isinstance(old.get("chunks"), dict):
            old["chunks"] = {}
        return old
    if not overwrite:
        raise InvalidArgumentError(
            f"{str(folder)!r} holds a run with other arguments; "
            + "; ".join(problems)
            + f". To resume it, call again with its arguments; otherwise {how}"
        )
    logger.warning("%s: discarding the earlier run (%s)", folder, "; ".join(problems))
    _discard(folder)
    return fresh


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for key in sorted(set(old) | set(new)):
        before, now = old.get(key), new.get(key)
        if before == now:
            continue
        if key == "rules" and isinstance(before, dict) and isinstance(now, dict):
            # A parameter added since the folder was written holds its default there.
            before = Rules.from_dict(before).to_dict()
            out += [
                f"rules.{k}: {before.get(k)!r} in the folder, {now.get(k)!r} now"
                for k in sorted(set(before) | set(now))
                if before.get(k) != now.get(k)
            ]
        elif key == "user_strategies":
            out.append(f"user strategy code: {before!r} in the folder, {now!r} now (fingerprints)")
        else:
            out.append(f"{key}: {before!r} in the folder, {now!r} now")
    return out


def _discard(folder: Path) -> None:
    # Only files this module writes: a folder may hold the user's notes too.
    for name in (MANIFEST_FILE, HANDS_FILE, GAMES_FILE):
        (folder / name).unlink(missing_ok=True)
    for path in (folder / CHUNKS_DIR).glob("chunk-*.npz"):
        path.unlink()


def _save_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    data = json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8")
    _write_atomic(folder / MANIFEST_FILE, data)


# --------------------------------------------------------------------- the chunks


def _chunk_name(index: int) -> str:
    return f"chunk-{index:06d}.npz"


def _load_finished(
    manifest: dict[str, Any],
    chunk_dir: Path,
    ranges: list[tuple[int, int]],
    first_game: int,
    sink: Rows | Counts,
) -> tuple[list[int], list[str]]:
    """Add every intact recorded chunk to ``sink``; return (chunks to play, repaired files).

    Drops from the manifest every entry whose file is missing or does not match.
    """
    recorded = manifest["chunks"]
    kept: dict[str, Any] = {}
    todo: list[int] = []
    repaired: list[str] = []
    for index, (start, count) in enumerate(ranges):
        name = _chunk_name(index)
        path = chunk_dir / name
        entry = recorded.get(str(index))
        games_text = f"games {first_game + start}..{first_game + start + count - 1}"
        expected = {"file": name, "first_game": first_game + start, "games": count}
        if isinstance(entry, dict) and all(entry.get(k) == v for k, v in expected.items()):
            if path.exists():
                data = path.read_bytes()
                part = (
                    sink.decode(data, count)
                    if hashlib.sha256(data).hexdigest() == entry.get("sha256")
                    else None
                )
                if part is not None:
                    sink.merge(start, part)
                    kept[str(index)] = entry
                    continue
                _warn(
                    f"chunk file {path} does not match its sha256 in the manifest "
                    f"(corrupt or partially written); playing {games_text} again"
                )
            else:
                _warn(
                    f"chunk file {path} is recorded in the manifest but missing; "
                    f"playing {games_text} again"
                )
            repaired.append(name)
        elif path.exists():
            _warn(
                f"chunk file {path} has no entry in the manifest (the run stopped before "
                f"recording it); playing {games_text} again"
            )
            repaired.append(name)
        todo.append(index)
    manifest["chunks"] = kept
    return todo, repaired


def _play(
    client: Client | None,
    run: Run,
    ranges: list[tuple[int, int]],
    todo: list[int],
    new_sink: Callable[[int], Rows | Counts],
) -> Iterator[tuple[int, Rows | Counts]]:
    """Play the chunks ``todo`` of ``run``; yield each (index, its sink) when done."""
    if client is None:
        with numba_threads(run.threads):
            for index in todo:
                start, count = ranges[index]
                part = new_sink(count)
                play(run.part(start, count), part)
                yield index, part
        return
    from ohhell_sim.run.dask import play_chunks

    chunks = [ranges[i] for i in todo]
    for k, part in play_chunks(client, run, chunks, new_sink):
        yield todo[k], part


# ---------------------------------------------------------------------- the files


def _warn(message: str) -> None:
    logger.warning(message)
    warnings.warn(message, ChunkWarning, stacklevel=4)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        # On disk before the rename, so that after a power cut the name never
        # points at a file whose data was lost.
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not possible (nor needed) on Windows.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_temporaries(folder: Path) -> None:
    # Left by a writer killed between write and rename; we hold the folder lock,
    # so no live writer owns them.
    names = (MANIFEST_FILE, HANDS_FILE, GAMES_FILE)
    stale = [p for n in names for p in folder.glob(f".{n}.*.tmp")]
    stale += (folder / CHUNKS_DIR).glob(".chunk-*.npz.*.tmp")
    for path in stale:
        path.unlink(missing_ok=True)


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` so two runs never write into it at once."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; one run per folder is then up to the user
        yield
        return
    with open(folder / _LOCK_FILE, "a+b") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(
                f"another process is writing a run into {str(folder)!r}; wait for it to "
                "finish or use another folder"
            ) from None
        # The kernel drops the lock when the process dies, even by SIGKILL.
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
