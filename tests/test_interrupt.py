"""Ctrl-C stops a run within a second or two, a strategy stuck in a loop included.

The kernel plays on threads of its own while the calling thread waits where
Ctrl-C reaches it; at Ctrl-C the workers stop before their next game, and a
thread stuck in a decision that never returns is left behind.  A resumable run
keeps the chunks it finished.
"""

from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim.engine.bundles import Failures
from ohhell_sim.errors import RunInterrupted
from ohhell_sim.run import pipeline
from ohhell_sim.run.chunked import read_manifest, run_chunked


@pytest.fixture(autouse=True)
def ctrl_c_reaches_python():
    """Python's own Ctrl-C handler for each test, as a program started from a terminal has.

    A test process can hold SIGINT ignored (a pytest-xdist worker after some other
    file's tests); then ``interrupt_main`` does nothing and a run told to wait for
    Ctrl-C would wait for ever.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _interrupt_after(seconds: float) -> None:
    # Ctrl-C, as the terminal delivers it: KeyboardInterrupt in the main thread.
    threading.Timer(seconds, _thread.interrupt_main).start()


def _bundles(count: int) -> tuple:
    return (None, Failures(np.zeros((2, 6), np.int64), np.full(1, count, np.int64)))


def _kernel(stops_when_told: bool):
    # A stand-in for run_games: plays "games" until told to stop, or never stops.
    def run_games(first_game, count, worker, workers, setup, failures):
        while not (stops_when_told and failures.abort[0] < 0):
            time.sleep(0.01)

    return run_games


@pytest.mark.parametrize("stops_when_told", [True, False])
def test_ctrl_c_stops_the_workers_or_leaves_a_stuck_one_behind(stops_when_told):
    bundles = _bundles(1000)
    _interrupt_after(0.3)
    started = time.monotonic()
    with pytest.raises(RunInterrupted, match="run stopped by Ctrl-C") as stopped:
        pipeline._run_workers(_kernel(stops_when_told), 0, 1000, bundles, 2)
    took = time.monotonic() - started
    assert bundles[-1].abort[0] == -1  # every worker told to stop before its next game
    if stops_when_told:
        assert stopped.value.stuck == 0 and took < 1.5
    else:
        assert stopped.value.stuck == 2
        assert "not returned" in str(stopped.value) and "time_limit" in str(stopped.value)
        assert took < 0.3 + pipeline.STOP_SECONDS + 1
    # The interrupt is a KeyboardInterrupt, which notebooks and scripts expect.
    assert isinstance(stopped.value, KeyboardInterrupt)


def test_an_interrupted_chunked_run_keeps_its_finished_chunks(tmp_path, monkeypatch):
    rules = oh.Rules(players=4, schedule=[3, 2])
    seats = ["simple", "random", "simple", "random"]
    real = pipeline._run_workers
    calls = []

    def interrupted_third_chunk(*args):
        calls.append(1)
        if len(calls) == 3:
            raise RunInterrupted("run stopped by Ctrl-C")
        return real(*args)

    monkeypatch.setattr(pipeline, "_run_workers", interrupted_third_chunk)
    with pytest.raises(RunInterrupted, match=r"2 of 5 chunks are saved in .*call run_chunked"):
        run_chunked(rules, seats, 320, 7, tmp_path, chunk_games=64, threads=1, progress=False)
    assert sorted(read_manifest(tmp_path)["chunks"]) == ["0", "1"]
    monkeypatch.setattr(pipeline, "_run_workers", real)
    resumed = run_chunked(rules, seats, 320, 7, tmp_path, chunk_games=64, progress=False)
    assert (resumed.stats.reused, resumed.stats.computed) == (2, 3)
    whole = oh.simulate(rules, seats, 320, 7)
    assert resumed.hands.equals(whole.hands) and resumed.games.equals(whole.games)


#: A strategy whose bid never returns from the fourth deal of a game on.
LOOPING = """
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import lowest_card


@njit
def loop_bid(view, params, rng):
    x = 0
    while view[V.DEAL] >= 3:
        x += 1
    return 1 if view[V.FORBIDDEN_BID] == 0 else 0


@njit
def loop_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


oh.register_strategy("looping", loop_bid, loop_play)
"""


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_stops_a_command_stuck_in_a_strategys_loop(tmp_path):
    (tmp_path / "looping.py").write_text(LOOPING, encoding="utf-8")
    command = [sys.executable, "-m", "ohhell_sim.cli", "simulate", "--games", "200"]
    command += ["--strategies", "looping.py:looping,simple,random,simple"]
    # The tests' kernel folder (inherited): the shared kernel may be on disk already,
    # and only the strategy's own functions compile.
    process = subprocess.Popen(
        command, cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.PIPE
    )
    # The progress bar opens once the kernel is ready: the run is under way and soon
    # stuck.  Read as bytes: the bar ends its line with a carriage return only.
    seen = b""
    while b"deal/s" not in seen:
        chunk = os.read(process.stderr.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
    time.sleep(2)
    assert process.poll() is None  # stuck
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    _, rest = process.communicate(timeout=30)
    err = (seen + rest).decode()
    assert time.monotonic() - started < 5
    assert process.returncode == 130
    lines = [x for x in err.splitlines() if "Ctrl-C" in x]
    assert len(lines) == 1 and lines[0].startswith("ohhell simulate: run stopped by Ctrl-C")
    assert "Traceback" not in err
