"""Resumable chunked runs: identical to one run, however often interrupted or damaged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim.analysis.report import preset_of
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import read_results
from ohhell_sim.run.chunked import (
    ChunkWarning,
    _folder_lock,
    read_manifest,
    run_chunked,
)

RULES = oh.Rules(players=4)
SEATS = ["simple", "random", ("simple", {}), "random"]
GAMES = 500
SEED = 21


def assert_same(result: oh.SimulationResult, expected: oh.SimulationResult) -> None:
    pd.testing.assert_frame_equal(result.hands, expected.hands, check_exact=True)
    pd.testing.assert_frame_equal(result.games, expected.games, check_exact=True)
    assert result.hands.attrs == expected.hands.attrs


@pytest.fixture(scope="module")
def reference() -> oh.SimulationResult:
    return oh.simulate(RULES, SEATS, GAMES, seed=SEED)


def run(folder: Path, **kwargs) -> oh.SimulationResult:
    kwargs = {"chunk_games": 120, "progress": False} | kwargs
    return run_chunked(RULES, SEATS, GAMES, SEED, folder, **kwargs)


def test_uninterrupted_run_equals_simulate(tmp_path, reference):
    result = run(tmp_path, progress=True)
    assert_same(result, reference)
    assert (result.stats.chunks, result.stats.reused, result.stats.computed) == (5, 0, 5)
    hands, games = read_results(tmp_path)
    pd.testing.assert_frame_equal(hands, reference.hands, check_exact=True)
    pd.testing.assert_frame_equal(games, reference.games, check_exact=True)
    manifest = read_manifest(tmp_path)
    assert manifest["complete"] is True
    assert manifest["args"]["seed"] == SEED and manifest["args"]["chunk_games"] == 120
    assert manifest["args"]["version"] == oh.__version__
    assert sorted(e["file"] for e in manifest["chunks"].values()) == [
        f"chunk-{i:06d}.npz" for i in range(5)
    ]
    assert not list(tmp_path.rglob("*.tmp"))

    again = run(tmp_path)
    assert_same(again, reference)
    assert (again.stats.reused, again.stats.computed, again.stats.repaired) == (5, 0, ())


@pytest.mark.parametrize("chunk_games", [1, 7, 10_000])
def test_chunk_size_does_not_change_results(tmp_path, chunk_games):
    games = 40
    result = run_chunked(
        RULES, SEATS, games, SEED, tmp_path, chunk_games=chunk_games, first_game=3, progress=False
    )
    assert_same(result, oh.simulate(RULES, SEATS, games, seed=SEED, first_game=3))
    assert result.stats.chunks == -(-games // chunk_games)


@pytest.mark.slow
def test_killed_run_resumes_where_it_stopped(tmp_path):
    games, chunk_games = 20_000, 250
    chunks = games // chunk_games
    folder = tmp_path / "run"
    script = textwrap.dedent(f"""
        import ohhell_sim as oh
        from ohhell_sim.run.chunked import run_chunked
        run_chunked(oh.Rules(players=4), {SEATS!r}, {games}, {SEED}, {str(folder)!r},
                    chunk_games={chunk_games}, threads=1, progress=False)
    """)
    child = subprocess.Popen([sys.executable, "-c", script])
    manifest_path = folder / "manifest.json"
    done: dict = {}
    try:
        deadline = time.monotonic() + 600  # covers a cold kernel compile
        while time.monotonic() < deadline and child.poll() is None:
            if manifest_path.exists():
                done = json.loads(manifest_path.read_text())["chunks"]
                if done:
                    break
            time.sleep(0.005)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    at_kill = read_manifest(folder)
    assert not at_kill["complete"]
    finished = len(at_kill["chunks"])
    assert 1 <= finished < chunks

    # A chunk written but not yet recorded when the kill came is replayed, with a warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_chunked(
            RULES, SEATS, games, SEED, folder, chunk_games=chunk_games, progress=False
        )
    assert all(issubclass(w.category, ChunkWarning) for w in caught)
    assert len(caught) == len(result.stats.repaired)
    assert result.stats.reused == finished
    assert result.stats.computed == chunks - finished
    assert len(result.stats.repaired) <= 1
    assert_same(result, oh.simulate(RULES, SEATS, games, seed=SEED))
    assert read_manifest(folder)["complete"]
    assert not list(folder.rglob("*.tmp"))


def test_damaged_chunks_are_replayed(tmp_path, reference):
    run(tmp_path)
    chunk_dir = tmp_path / "chunks"
    truncated = chunk_dir / "chunk-000001.npz"
    truncated.write_bytes(truncated.read_bytes()[:100])
    flipped = chunk_dir / "chunk-000003.npz"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x01
    flipped.write_bytes(bytes(data))

    with pytest.warns(ChunkWarning, match="sha256") as caught:
        result = run(tmp_path)
    assert len(caught) == 2
    assert_same(result, reference)
    assert result.stats.repaired == ("chunk-000001.npz", "chunk-000003.npz")
    assert (result.stats.reused, result.stats.computed) == (3, 2)
    assert run(tmp_path).stats.computed == 0


def test_unrecorded_and_missing_chunks_are_replayed(tmp_path, reference):
    run(tmp_path)
    manifest = read_manifest(tmp_path)
    del manifest["chunks"]["2"]  # as if killed between writing a chunk and recording it
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "chunks" / "chunk-000004.npz").unlink()

    with pytest.warns(ChunkWarning) as caught:
        result = run(tmp_path)
    messages = " ".join(str(w.message) for w in caught)
    assert "no entry in the manifest" in messages and "missing" in messages
    assert_same(result, reference)
    assert result.stats.repaired == ("chunk-000002.npz", "chunk-000004.npz")


def test_a_folder_written_before_a_rule_parameter_existed_resumes(tmp_path, reference):
    run(tmp_path)
    manifest = read_manifest(tmp_path)
    del manifest["args"]["rules"]["hook_one_card"]  # an older version did not save it
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    result = run(tmp_path)
    assert result.stats.computed == 0
    assert_same(result, reference)
    # Its rules still read as the preset they are.
    assert preset_of(manifest["args"]["rules"]) == "canonical"


def test_other_arguments_are_refused(tmp_path):
    run(tmp_path)
    with pytest.raises(InvalidArgumentError, match=r"seed: 21 in the folder, 22 now") as err:
        run_chunked(RULES, SEATS, GAMES, 22, tmp_path, chunk_games=120, progress=False)
    assert "new folder" in str(err.value) and "overwrite=True" in str(err.value)
    with pytest.raises(InvalidArgumentError, match=r"rules\.made"):
        run_chunked(
            oh.Rules(players=4, made="10*bid"),
            SEATS,
            GAMES,
            SEED,
            tmp_path,
            chunk_games=120,
            progress=False,
        )
    with pytest.raises(InvalidArgumentError, match="chunk_games"):
        run(tmp_path, chunk_games=100)
    with pytest.raises(InvalidArgumentError, match="strategies"):
        run_chunked(RULES, ["random"] * 4, GAMES, SEED, tmp_path, chunk_games=120, progress=False)
    # Nothing of the first run was touched by the refusals.
    assert run(tmp_path).stats.computed == 0

    result = run_chunked(
        RULES, SEATS, 30, 22, tmp_path, chunk_games=7, progress=False, overwrite=True
    )
    assert_same(result, oh.simulate(RULES, SEATS, 30, seed=22))
    assert len(list((tmp_path / "chunks").glob("*.npz"))) == 5


def test_results_without_manifest_are_not_overwritten(tmp_path):
    oh.simulate(RULES, SEATS, 10, seed=1).to_parquet(tmp_path)
    with pytest.raises(InvalidArgumentError, match=r"no manifest\.json"):
        run(tmp_path)
    assert run(tmp_path, overwrite=True).stats.computed == 5


def test_arguments_are_checked_before_any_work(tmp_path):
    folder = tmp_path / "never"
    with pytest.raises(InvalidArgumentError, match="games"):
        run_chunked(RULES, SEATS, 0, SEED, folder)
    with pytest.raises(InvalidArgumentError, match="chunk_games"):
        run_chunked(RULES, SEATS, 10, SEED, folder, chunk_games=0)
    with pytest.raises(InvalidArgumentError, match="unknown strategy"):
        run_chunked(RULES, ["nobody"] * 4, 10, SEED, folder)
    assert not folder.exists()
    a_file = tmp_path / "file"
    a_file.write_text("")
    with pytest.raises(InvalidArgumentError, match="existing file"):
        run_chunked(RULES, SEATS, 10, SEED, a_file)


def test_one_writer_per_folder(tmp_path):
    tmp_path.joinpath("chunks").mkdir()
    with _folder_lock(tmp_path), pytest.raises(RuntimeError, match="another process"):
        run(tmp_path)


def test_summary_runs_resume_to_the_same_counts(tmp_path):
    from ohhell_sim.summary import RunSummary, summarise

    expected = summarise(RULES, SEATS, GAMES, seed=SEED).counts
    result = run(tmp_path, summary=True)
    assert result.counts == expected
    assert RunSummary.read_parquet(tmp_path).counts == expected
    assert read_manifest(tmp_path)["args"]["summary"] is True

    # A corrupt chunk is played again; the others are reused.
    damaged = tmp_path / "chunks" / "chunk-000002.npz"
    damaged.write_bytes(damaged.read_bytes()[:-50])
    with pytest.warns(ChunkWarning, match="sha256"):
        again = run(tmp_path, summary=True)
    assert again.counts == expected
    assert (again.stats.reused, again.stats.computed) == (4, 1)

    # A full run may not continue a summary run's folder.
    with pytest.raises(InvalidArgumentError, match="summary"):
        run(tmp_path)
