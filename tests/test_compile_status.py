"""A kernel compile is announced, timed, and done before the progress bar starts."""

from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys

import numpy as np
import pytest

from ohhell_sim.run.progress import compile_kernel

CACHED_MODULE = """
from numba import njit


@njit(cache=True)
def double(x):
    return 2 * x
"""


@pytest.fixture
def cached_function(tmp_path):
    """``load()``: a fresh import of a module holding ``double``, jitted with ``cache=True``."""
    path = tmp_path / "cached_kernel.py"
    path.write_text(CACHED_MODULE, encoding="utf-8")
    loaded = []

    def load():
        name = f"cached_kernel_{len(loaded)}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        loaded.append(name)
        return module.double

    yield load
    for name in loaded:
        sys.modules.pop(name, None)


ANNOUNCED = """
import sys

import numpy as np
from numba import njit

from ohhell_sim.run.progress import compile_kernel


@njit
def double(x):
    return 2 * x


compile_kernel(double, (np.int64(3),), ["random", "simple"])
assert double(np.int64(3)) == 6
"""


def test_a_compile_is_announced_and_timed_without_logging_set_up(tmp_path):
    # A script or notebook that configures no logging sees the lines on stderr.
    script = tmp_path / "announce.py"
    script.write_text(ANNOUNCED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=120
    )
    err = done.stderr.splitlines()
    assert err[0].startswith("compiling the kernel for random, simple (first run only, about ")
    assert err[1].startswith("compiled the kernel for random, simple in ")
    assert err[1].endswith(" s")


def test_a_compile_goes_to_the_applications_logging(cached_function, caplog):
    with caplog.at_level(logging.INFO, logger="ohhell_sim"):
        compile_kernel(cached_function(), (np.int64(3),), ["random"])
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0].startswith("compiling the kernel for random (first run only, about ")
    assert messages[1].startswith("compiled the kernel for random in ")


def test_a_silenced_logger_compiles_without_a_word(cached_function, caplog, monkeypatch):
    monkeypatch.setattr(logging.getLogger("ohhell_sim"), "level", logging.WARNING)
    double = cached_function()
    compile_kernel(double, (np.int64(3),), ["random"])
    assert double.signatures
    assert not caplog.records


def test_a_kernel_in_numbas_disk_cache_is_loaded_without_a_word(cached_function, caplog):
    compile_kernel(cached_function(), (np.int64(3),), ["random"])
    caplog.clear()
    # Another process (here: another import of the same file) finds the compile on disk.
    again = cached_function()
    with caplog.at_level(logging.INFO, logger="ohhell_sim"):
        compile_kernel(again, (np.int64(3),), ["random"])
    assert not caplog.records
    assert again.signatures
    assert again.stats.cache_hits


def test_a_kernel_compiled_in_this_process_is_not_compiled_again(cached_function, caplog):
    double = cached_function()
    compile_kernel(double, (np.int64(3),), ["random"])
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="ohhell_sim"):
        compile_kernel(double, (np.int64(5),), ["random"])
    assert len(double.signatures) == 1
    assert not caplog.records
