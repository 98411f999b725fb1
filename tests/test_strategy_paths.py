"""Paths where a user's code or output could go wrong without a word: each refused or followed.

A ``bid``/``play`` of the wrong signature is named with its file; an output
folder holding another run is kept unless replaced on purpose.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.results import GAMES_FILE, HANDS_FILE, SUMMARY_FILE
from ohhell_sim.rules import Rules
from ohhell_sim.strategy.code import strategy_fingerprint
from ohhell_sim.strategy.tools import lowest_card

RULES = Rules(players=3, schedule=[2, 1])


@njit
def two_argument_bid(view, params):
    return 0


@njit
def defaulted_bid(view, params, rng, extra=1):
    return 0


@njit
def good_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


@pytest.mark.parametrize(
    ("bid", "shown"),
    [(two_argument_bid, "two_argument_bid(view, params)"), (defaulted_bid, "extra=1")],
)
def test_a_wrong_signature_is_refused_naming_the_function_and_its_file(bid, shown):
    with pytest.raises(InvalidArgumentError) as refused:
        oh.register_strategy("wrong_signature", bid, good_play)
    message = str(refused.value)
    assert shown in message
    assert f"{__file__}:" in message
    assert "(view, params, rng)" in message
    assert "wrong_signature" not in oh.available_strategies()


WRONG_MODULE = """
from numba import njit
from ohhell_sim.strategy import register_strategy

@njit
def bid(view, params):
    return 0

@njit
def play(view, params, rng):
    return 0

register_strategy("wrong", bid, play)
"""


def test_a_wrong_signature_on_the_command_line_is_one_line(user_modules, capsys):
    path = user_modules("wrong_signature_module", WRONG_MODULE)
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--strategies", f"{path}:wrong", "--games", "1", "--quiet"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "bid(view, params)" in err and f"{path}:" in err


@pytest.mark.slow
def test_an_output_folder_holding_a_run_is_refused_unless_replaced(tmp_path, capsys):
    out = tmp_path / "run"
    common = ["simulate", "--players", "3", "--schedule", "2,1", "--strategies", "random"]
    common += ["--games", "3", "--quiet", "-o", str(out)]
    assert main(common) == 0
    capsys.readouterr()
    before = (out / HANDS_FILE).read_bytes()
    for extra in ([], ["--summary"]):
        with pytest.raises(SystemExit) as stopped:
            main([*common, "--seed", "1", *extra])
        assert stopped.value.code == 2
        assert "holds another run" in capsys.readouterr().err
    assert (out / HANDS_FILE).read_bytes() == before
    assert not (out / SUMMARY_FILE).exists()
    # Replaced on purpose, a summary run leaves no full run beside it, and back.
    assert main([*common, "--summary", "--overwrite"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [SUMMARY_FILE]
    assert main([*common, "--overwrite"]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted([GAMES_FILE, HANDS_FILE])


# --- where code lies: a project holding its environment, libraries on PYTHONPATH ----

PROJECT_MODULE = """
from numba import njit
from ohhell_sim.strategy import register_strategy
import helpers

LIMIT = 1


@njit
def bid(view, params, rng):
    return helpers.first(LIMIT)


@njit
def play(view, params, rng):
    return helpers.lowest(view)


register_strategy("in_prefix", bid, play)
"""

HELPERS_MODULE = """
from numba import njit
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import lowest_card


@njit
def first(limit):
    return 0 if limit < 5 else 1


@njit
def lowest(view):
    return lowest_card(view[V.LEGAL])
"""

PROBE = """
import sys
sys.path.insert(0, sys.prefix)  # the project's folder is its environment's prefix
import ohhell_sim as oh
import in_prefix
from ohhell_sim.strategy.code import strategy_fingerprint
from ohhell_sim.strategy.origin import module_kind
print(module_kind("in_prefix"), module_kind("helpers"), module_kind("numba"), module_kind("numpy"))
strategy_fingerprint(oh.get_strategy("simple"))
oh.check_strategy("in_prefix", oh.Rules(players=3, schedule=[2, 1]), games=1)
print("checked")
"""


def test_a_project_in_its_environment_and_libraries_on_pythonpath(tmp_path):
    """``python -m venv .`` in the project folder; NumPy and Numba reached through
    ``PYTHONPATH`` (not the environment's site-packages): the project's code and a
    plain helper folder are the user's, the installed packages libraries."""
    project = tmp_path / "project"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project)], check=True)
    (project / "in_prefix.py").write_text(PROJECT_MODULE, encoding="utf-8")
    helpers = tmp_path / "helpers"
    helpers.mkdir()
    (helpers / "helpers.py").write_text(HELPERS_MODULE, encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(helpers), sysconfig.get_paths()["purelib"]])
    python = project / "bin" / "python"
    run = subprocess.run(
        [str(python), "-c", PROBE], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["user", "user", "library", "library", "checked"]


# --- a Dask worker runs the client's code, or refuses ------------------------------

DASK_HELPERS = """
from numba import njit

LIMIT = 1


@njit
def first(view):
    return 0 if LIMIT < 5 else 1
"""

DASK_STRATEGY = """
from numba import njit
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import lowest_card
from ohhell_sim import view as V
import dk_helpers


@njit
def bid(view, params, rng):
    return dk_helpers.first(view)


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])


register_strategy("dk_strategy", bid, play)
"""

WORKER = """
import sys
import dk_helpers  # a long-lived worker imported the module before it was edited
from ohhell_sim.run.dask import _ensure_registered
from ohhell_sim.strategy import get_strategy
from ohhell_sim.strategy.code import strategy_fingerprint
with open(sys.argv[1], "rb") as blob:
    _ensure_registered(blob.read())
print(strategy_fingerprint(get_strategy("dk_strategy")))
"""


def test_a_dask_worker_runs_the_clients_version_of_every_user_module(
    user_modules, tmp_path, monkeypatch
):
    """The strategy's module imports a helper module, which the client edits after a
    worker imported it: the worker receives the client's version, fingerprint and all."""
    from ohhell_sim.run.dask import pack_strategies

    user_modules("dk_helpers", DASK_HELPERS)
    user_modules("dk_strategy", DASK_STRATEGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    import dk_helpers
    import dk_strategy  # noqa: F401  (registers dk_strategy)

    dk_helpers.LIMIT = 7  # edited in the client; the file on disk still says 1
    strategy = oh.get_strategy("dk_strategy")
    blob = tmp_path / "blob.pickle"
    blob.write_bytes(pack_strategies([strategy]))
    worker = subprocess.run(
        [sys.executable, "-c", WORKER, str(blob)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert worker.returncode == 0, worker.stderr
    assert worker.stdout.strip() == strategy_fingerprint(strategy)


def test_a_dask_worker_refuses_code_that_is_not_the_clients(registered):
    from ohhell_sim.run.dask import _check_fingerprint

    registered("dk_other", good_play, good_play)
    with pytest.raises(RuntimeError, match=r"dk_other.*not the client's.*restart the workers"):
        _check_fingerprint("dk_other", "0" * 16)


# --- declared parameters are the parameters read -----------------------------------

SECOND = 1


@njit
def reads_second_of(row):
    return int(row[SECOND])


@njit
def helper_reading_bid(view, params, rng):
    return reads_second_of(params) * 0


def test_the_builtins_own_functions_without_their_parameters_are_refused():
    from ohhell_sim.strategies import simple

    with pytest.raises(InvalidArgumentError) as refused:
        oh.register_strategy("simple_copy", simple.bid, simple.play)
    message = str(refused.value)
    assert "params[0]" in message and f"{simple.__file__}:" in message
    assert "declares none" in message
    # Declared, the same functions are welcome.
    oh.register_strategy("simple_copy", simple.bid, simple.play, params={"scale": 1.0})
    oh.unregister_strategy("simple_copy")


def test_a_read_through_a_helper_at_a_global_index_is_refused():
    with pytest.raises(InvalidArgumentError, match=r"params\[1\].*declares 1 \(k\)"):
        oh.register_strategy("helper_reader", helper_reading_bid, good_play, params={"k": 0.0})
    oh.register_strategy(
        "helper_reader", helper_reading_bid, good_play, params={"k": 0.0, "j": 1.0}
    )
    oh.unregister_strategy("helper_reader")


def test_every_builtin_reads_only_its_declared_parameters():
    from ohhell_sim.strategies import BUILTINS
    from ohhell_sim.strategy.params import check_declared_params

    for strategy in BUILTINS:
        functions = {"bid": strategy.bid, "play": strategy.play}
        check_declared_params(strategy.name, functions, list(strategy.params))


@njit
def calls_a_method_of_a_value(view, params, rng):
    return int(np.random.default_rng(1).random() < 0.5)


def test_the_parameter_reads_pass_over_calls_of_computed_values():
    from ohhell_sim.strategy.params import constant_param_reads

    assert constant_param_reads(calls_a_method_of_a_value) == []
