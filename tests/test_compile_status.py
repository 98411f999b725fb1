"""A kernel compile is announced, timed, and done before the progress bar starts."""

from __future__ import annotations

import importlib.util
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


def test_a_compile_is_announced_and_timed(cached_function, capsys):
    double = cached_function()
    compile_kernel(double, (np.int64(3),), ["random", "simple"], show=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("compiling the kernel for random, simple (first run only, ~")
    assert err[1].startswith("compiled the kernel for random, simple in ")
    assert err[1].endswith(" s")
    assert double.signatures
    assert double(np.int64(3)) == 6


def test_quiet_compiles_without_a_word(cached_function, capsys):
    double = cached_function()
    compile_kernel(double, (np.int64(3),), ["random"], show=False)
    assert double.signatures
    assert capsys.readouterr().err == ""


def test_a_kernel_in_numbas_disk_cache_is_loaded_without_a_word(cached_function, capsys):
    compile_kernel(cached_function(), (np.int64(3),), ["random"], show=False)
    # Another process (here: another import of the same file) finds the compile on disk.
    again = cached_function()
    compile_kernel(again, (np.int64(3),), ["random"], show=True)
    assert capsys.readouterr().err == ""
    assert again.signatures
    assert again.stats.cache_hits


def test_a_kernel_compiled_in_this_process_is_not_compiled_again(cached_function, capsys):
    double = cached_function()
    compile_kernel(double, (np.int64(3),), ["random"], show=False)
    compile_kernel(double, (np.int64(5),), ["random"], show=True)
    assert len(double.signatures) == 1
    assert capsys.readouterr().err == ""
