"""Runs on a real Dask cluster (two worker processes) equal local runs, bit for bit."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scripted_strategies as ss

import ohhell_sim as oh
from ohhell_sim.analysis.report import MARKDOWN_FILE
from ohhell_sim.cli import main
from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError
from ohhell_sim.run import dask as ohd
from ohhell_sim.run.chunked import read_manifest, run_chunked
from ohhell_sim.run.record import Run
from ohhell_sim.run.sinks import Counts
from ohhell_sim.strategy import check_seating
from ohhell_sim.studies import run_experiment, study_play
from ohhell_sim.studies.runs import read_study
from ohhell_sim.studies.spec import get_study

distributed = pytest.importorskip("distributed")

RULES = oh.Rules(players=4)
BUILTINS = ["simple", "random", "simple", "random"]
# ``tester`` is the tests' shared user strategy (one kernel compile per session);
# in view-hash mode any difference in what a seat sees changes the game.
USERS = [ss.mode(ss.MODE_VIEW_HASH), "simple", ss.mode(ss.MODE_LEAD_TRUMP), "random"]


def assert_same(result: oh.SimulationResult, expected: oh.SimulationResult) -> None:
    pd.testing.assert_frame_equal(result.hands, expected.hands, check_exact=True)
    pd.testing.assert_frame_equal(result.games, expected.games, check_exact=True)
    assert result.hands.attrs == expected.hands.attrs
    assert result.games.attrs == expected.games.attrs


@contextmanager
def without_tests_on_path():
    """Hide this folder from processes started inside: like workers on other machines.

    Worker processes inherit ``sys.path`` and ``PYTHONPATH`` when they start; without
    this folder they cannot import ``scripted_strategies``, so the user-strategy
    tests prove that strategies reach workers by value.
    """
    here = Path(__file__).resolve().parent
    saved_path, saved_env = list(sys.path), os.environ.get("PYTHONPATH")
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    if saved_env is not None:
        kept = [p for p in saved_env.split(os.pathsep) if Path(p or ".").resolve() != here]
        os.environ["PYTHONPATH"] = os.pathsep.join(kept)
    try:
        yield
    finally:
        sys.path[:] = saved_path
        if saved_env is not None:
            os.environ["PYTHONPATH"] = saved_env


@pytest.fixture(scope="module")
def client():
    # Processes, not threads: strategies must really be pickled, shipped and
    # registered in other interpreters.  The workers load the kernels that this
    # process compiled from Numba's on-disk cache ($OHHELL_CACHE_DIR is inherited).
    with without_tests_on_path():
        cluster = distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        )
    with cluster, distributed.Client(cluster) as dask_client:
        yield dask_client


@pytest.fixture(scope="module")
def builtin_reference():
    return oh.simulate(RULES, BUILTINS, 400, seed=11, first_game=5)


@pytest.fixture(scope="module")
def user_reference(tester):
    return oh.simulate(RULES, USERS, 400, seed=12)


@pytest.mark.slow
def test_builtin_strategies_match_local_run(client, builtin_reference):
    result = oh.simulate(RULES, BUILTINS, 400, seed=11, first_game=5, client=client)
    assert_same(result, builtin_reference)


@pytest.mark.slow
@pytest.mark.parametrize("chunk_games", [1, 7, 10_000])
def test_chunk_size_does_not_change_results(client, builtin_reference, chunk_games):
    games = 60 if chunk_games == 1 else 400
    expected = builtin_reference
    if games != 400:
        expected = oh.simulate(RULES, BUILTINS, games, seed=11, first_game=5)
    result = ohd.simulate_on_client(
        client,
        RULES,
        BUILTINS,
        games,
        seed=11,
        first_game=5,
        chunk_games=chunk_games,
        progress=True,
    )
    assert_same(result, expected)


@pytest.mark.slow
def test_user_strategy_matches_local_run(client, user_reference):
    importable = client.run(lambda: importlib.util.find_spec("scripted_strategies") is not None)
    assert not any(importable.values()), "the workers must not see the strategy's module"
    result = ohd.simulate_on_client(client, RULES, USERS, 400, seed=12, chunk_games=37)
    assert_same(result, user_reference)


@pytest.mark.slow
def test_illegal_move_on_a_worker_raises_on_the_client(client, tester):
    # The strategies of USERS: their kernel is compiled already.
    cheating = ["simple", ss.mode(ss.MODE_BID_TOO_HIGH), "random", "simple"]
    with pytest.raises(IllegalMoveError) as local:
        oh.simulate(RULES, cheating, 20, seed=3)
    with pytest.raises(IllegalMoveError) as remote:
        oh.simulate(RULES, cheating, 20, seed=3, client=client)
    # Which failing game is reported first depends on timing, here as locally.
    assert isinstance(remote.value.game, int) and 0 <= remote.value.game < 20
    same = ("strategy", "deal", "seat", "move", "code", "trick")
    assert [getattr(remote.value, k) for k in same] == [getattr(local.value, k) for k in same]
    assert "illegal move" in str(remote.value)


def test_arguments_are_checked_before_any_task(client):
    with pytest.raises(InvalidArgumentError, match="games"):
        oh.simulate(RULES, BUILTINS, 0, client=client)
    with pytest.raises(InvalidArgumentError, match="chunk_games"):
        ohd.simulate_on_client(client, RULES, BUILTINS, 10, chunk_games=0)
    with pytest.raises(InvalidArgumentError, match="Client"):
        oh.simulate(RULES, BUILTINS, 10, client="tcp://127.0.0.1:8786")


def test_default_chunk_size(client):
    assert ohd.default_chunk_games(client, 10) == 2  # 2 workers x 1 thread x 4 tasks
    assert ohd.default_chunk_games(client, 10**9) == ohd.MAX_CHUNK_GAMES
    assert ohd.chunk_ranges(10, 4) == [(0, 4), (4, 4), (8, 2)]


def test_connect_checks_workers(client):
    address = client.scheduler.address
    with ohd.connect(address) as other:
        assert set(ohd.check_workers(other).values()) == {oh.__version__}
    with pytest.raises(InvalidArgumentError, match="scheduler address"):
        ohd.connect("")
    with pytest.raises(ConnectionError, match="cannot reach"):
        ohd.connect("tcp://127.0.0.1:9", timeout=1)


def test_worker_refuses_another_version():
    with pytest.raises(RuntimeError, match="same version"):
        ohd._play_chunk(
            Run(RULES, None, 0, 0, 1),
            BUILTINS,
            np.zeros((4, 1)),
            False,
            b"",
            "0.0.0-other",
            Counts.empty,
        )


@pytest.mark.parametrize("shared", [True, False])
def test_a_worker_plays_on_the_kernel_the_run_names(monkeypatch, shared):
    # A run of fewer than a million games plays on the shared kernel (kernel="auto"):
    # a worker that compiled the dedicated one instead would spend a compile for nothing.
    played = []
    monkeypatch.setattr(ohd, "play", lambda part, sink: played.append(part.seating))
    params = check_seating(RULES, BUILTINS).params
    ohd._play_chunk(
        Run(RULES, None, 0, 0, 1),
        BUILTINS,
        params,
        shared,
        b"",
        oh.__version__,
        partial(Counts.empty, RULES),
    )
    assert [seating.shared for seating in played] == [shared]
    assert played[0].names == BUILTINS


def test_chunked_run_on_the_cluster(client, builtin_reference, tmp_path):
    result = run_chunked(
        RULES,
        BUILTINS,
        400,
        11,
        tmp_path / "run",
        first_game=5,
        chunk_games=90,
        client=client,
        progress=False,
    )
    assert_same(result, builtin_reference)
    assert result.stats.computed == 5
    assert len(read_manifest(tmp_path / "run")["chunks"]) == 5
    # Chunks written from the cluster's results serve a local call, and vice versa.
    again = run_chunked(
        RULES, BUILTINS, 400, 11, tmp_path / "run", first_game=5, chunk_games=90, progress=False
    )
    assert_same(again, builtin_reference)
    assert again.stats.reused == 5


def test_summary_on_the_cluster_equals_a_local_summary(client, builtin_reference, tmp_path):
    from ohhell_sim.summary import RunSummary, summarise

    summary = summarise(RULES, BUILTINS, 400, seed=11, first_game=5, client=client)
    assert summary.counts == RunSummary.from_result(builtin_reference).counts
    assert summary.counts == summarise(RULES, BUILTINS, 400, seed=11, first_game=5).counts
    assert (summary.games, summary.first_game, summary.seed) == (400, 5, 11)
    chunked = run_chunked(
        RULES,
        BUILTINS,
        400,
        11,
        tmp_path / "summary",
        first_game=5,
        chunk_games=150,
        client=client,
        progress=False,
        summary=True,
    )
    assert chunked.counts == summary.counts


# A study at its tests' tiniest size, at one table size and in one field.
STUDY = {"games": 12, "players": (3,), "fields": ("simple",), "seed": 7}
STUDY_ARGS = ["--games", "12", "--players", "3", "--fields", "simple", "--seed", "7", "-q"]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "entry"), [("hook_rule", "python"), ("zero_bids", "cli")])
def test_a_study_on_the_cluster_equals_a_local_run(client, tmp_path, monkeypatch, name, entry):
    # hook_rule plays its conditions at once, zero_bids part by part.  Both folders are
    # named "run", so that the reports' Reproduce commands are the same.
    local, remote = tmp_path / "local" / "run", tmp_path / "cluster" / "run"
    run_experiment(name, local, progress=False, **STUDY)
    # The cluster plays each condition in chunks of games, as a long study does.
    monkeypatch.setattr(study_play, "CHUNK_GAMES", 5)
    address = client.scheduler.address
    with distributed.get_task_stream(client) as tasks:
        if entry == "python":
            run_experiment(name, remote, progress=False, client=client, **STUDY)
        else:
            cli = ["experiment", name, *STUDY_ARGS, "--scheduler", address, "--out", str(remote)]
            assert main(cli) == 0
    assert tasks.data, "the study must play on the workers"
    expected, data = read_study(local), read_study(remote)
    for played, reference in ((data, expected), (data.confirmation, expected.confirmation)):
        pd.testing.assert_frame_equal(played.hands, reference.hands, check_exact=True)
        pd.testing.assert_frame_equal(played.games, reference.games, check_exact=True)
    assert data.manifest == expected.manifest
    assert (remote / MARKDOWN_FILE).read_text() == (local / MARKDOWN_FILE).read_text()


def test_a_study_that_plays_its_own_games_refuses_a_cluster(client, tmp_path, capsys):
    message = (
        "a Dask cluster (--scheduler, client=) runs hook_rule, zero_bids, variant_scoring, "
        "house_rules only; study 'strategy_ladder' plays its own games, on this machine"
    )
    out = tmp_path / "out"
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        run_experiment("strategy_ladder", out, games=8, players=(4,), client=client)
    with pytest.raises(InvalidArgumentError, match=r"client must be a dask\.distributed\.Client"):
        run_experiment("hook_rule", out, client="tcp://127.0.0.1:8786", **STUDY)
    # On the command line the study is refused before connecting (a bad argument: exit
    # status 2), and an unreachable scheduler stops it as it stops `ohhell simulate` (1):
    # one line each, nothing written.
    unreachable = "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"
    for name, address, error, status in (
        ("strategy_ladder", client.scheduler.address, message, 2),
        ("hook_rule", "tcp://127.0.0.1:9", unreachable, 1),
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(["experiment", name, *STUDY_ARGS, "--scheduler", address, "--out", str(out)])
        assert exit_info.value.code == status
        printed = capsys.readouterr().err
        assert error in printed and len(printed.strip().splitlines()) == 1
    assert not out.exists()


def test_a_study_of_its_own_plays_on_the_cluster_when_its_play_takes_a_client(client):
    ladder = get_study("strategy_ladder")
    taking = replace(ladder, play=lambda games, seed, players, progress, client=None: client)
    assert not ladder.plays_on_cluster and taking.plays_on_cluster
    assert taking.run(8, 0, (4,), progress=False, client=client) is client
