"""A kernel compile is announced, timed, and done before the progress bar starts."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from ohhell_sim.rules import Rules
from ohhell_sim.strategy import resolve_seating

RULES = Rules(players=4, schedule=[3, 1])
SEATING = resolve_seating(["simple", "random", "simple", "random"], 4)
# The module, not the function ohhell_sim.simulate that the package exports.
simulate_module = importlib.import_module("ohhell_sim.simulate")


@pytest.fixture
def fake_kernel(tmp_path, monkeypatch):
    """A kernel module that is not compiled yet, and a record of the kernel calls."""
    source = tmp_path / "ohhell_kernel_0123.py"
    source.write_text("", encoding="utf-8")
    kernel = SimpleNamespace(__file__=str(source), run_games=SimpleNamespace(signatures=[]))
    calls = []
    monkeypatch.setattr(simulate_module, "load_kernel", lambda seating, rules: kernel)
    monkeypatch.setattr(
        simulate_module, "run_kernel", lambda *args, **kwargs: calls.append(args[4])
    )
    return kernel, calls


def test_an_uncompiled_kernel_is_compiled_and_announced(fake_kernel, capsys):
    kernel, calls = fake_kernel
    assert simulate_module.prepare_kernel(SEATING, RULES, announce=True) is kernel
    # One call with no games: it compiles and plays nothing.
    assert calls == [0]
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("compiling the kernel for random, simple (first run only")
    assert err[1].startswith("compiled the kernel for random, simple in ")
    assert err[1].endswith(" s")


def test_quiet_compiles_without_a_word(fake_kernel, capsys):
    _, calls = fake_kernel
    simulate_module.prepare_kernel(SEATING, RULES, announce=False)
    assert calls == [0]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("state", ["in numba's disk cache", "compiled in this process"])
def test_a_compiled_kernel_is_neither_compiled_again_nor_announced(fake_kernel, capsys, state):
    kernel, calls = fake_kernel
    if state == "compiled in this process":
        kernel.run_games.signatures.append("a signature")
    else:
        source = Path(kernel.__file__)
        index = source.parent / "__pycache__" / f"{source.stem}.run_games-574.py311.nbi"
        index.parent.mkdir()
        index.write_bytes(b"")
    simulate_module.prepare_kernel(SEATING, RULES, announce=True)
    assert calls == []
    assert capsys.readouterr().err == ""
