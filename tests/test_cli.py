"""The ``ohhell`` command: user strategies by module, seat parameters, plain listings, layering.

These tests replay games with the reference engine (``ohhell replay``), which
compiles nothing; the runs through the kernel are in ``test_user_strategy.py``
and ``test_tournament.py``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CAUTIOUS_MODULE

import ohhell_sim as oh
from ohhell_sim.cli import main
from ohhell_sim.cli.listing import plain_text
from ohhell_sim.cli.seats import parse_seats
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategy import resolve_seating

ROOT = Path(__file__).resolve().parents[1]
RULES = oh.Rules(players=3, schedule=[3, 1])
REPLAY = ["replay", "--players", "3", "--schedule", "3,1", "--seed", "2", "--game", "1", "--json"]


def _replayed(capsys, *extra):
    assert main([*REPLAY, *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _expected(seats):
    return json.loads(json.dumps(oh.replay(RULES, seats, seed=2, game=1).to_dict()))


def test_module_colon_name_imports_the_module(user_modules, capsys):
    user_modules("ut_cli_mod")
    assert "cautious" not in oh.available_strategies()
    log = _replayed(capsys, "--strategies", "ut_cli_mod:cautious,simple,ut_cli_mod:cautious")
    assert log == _expected(["cautious", "simple", "cautious"])
    assert oh.get_strategy("cautious").builtin_id is None


def test_path_colon_name_loads_the_file(user_modules, capsys):
    path = user_modules("ut_cli_file")
    log = _replayed(capsys, "--strategies", f"{path}:cautious[risk=1]")
    assert log == _expected([("cautious", {"risk": 1.0})] * 3)


def test_import_option_registers_before_names_are_read(user_modules, capsys):
    user_modules("ut_cli_imp")
    log = _replayed(capsys, "--import", "ut_cli_imp", "--strategies", "cautious,random,simple")
    assert log == _expected(["cautious", "random", "simple"])
    assert main(["strategies", "--import", "ut_cli_imp"]) == 0
    assert "cautious [user] (deterministic, light; risk=0)" in capsys.readouterr().out


def test_parameters_in_brackets(capsys):
    log = _replayed(capsys, "--strategies", "simple[scale=2],random,simple[ scale = 0.5 ]")
    assert log == _expected([("simple", {"scale": 2.0}), "random", ("simple", {"scale": 0.5})])
    assert log["strategies"] == ["simple[scale=2]", "random", "simple[scale=0.5]"]
    # Commas inside brackets separate parameters; one seat fills every seat.  A
    # seat's label: parameters in the strategy's order, defaults left out.
    seats = parse_seats("card_counter[ risk=0.5, bidder=0.0 ]", 3)
    assert [s.label for s in seats] == ["card_counter[bidder=0,risk=0.5]"] * 3
    seats = parse_seats("simple[],random,simple[scale=1],zero", 4)
    assert [s.text for s in seats] == ["simple[]", "random", "simple[scale=1]", "zero"]
    assert [s.label for s in seats] == ["simple", "random", "simple", "zero"]


def test_the_api_reads_the_command_lines_seats():
    # One parser: a seat string of the command line is a seat of the Python API.
    for text in ("simple[scale=1.5]", "card_counter[bidder=0,risk=0.5]", "random"):
        seat = parse_seats(text, 3)[0]
        assert seat.label == resolve_seating([text], 1).labels[0]
        assert resolve_seating([seat.spec], 1).labels == [seat.label]
    assert oh.replay(RULES, ["simple[scale=2]", "random", "simple"], seed=2, game=1).to_dict() == (
        oh.replay(RULES, [("simple", {"scale": 2}), "random", "simple"], seed=2, game=1).to_dict()
    )
    with pytest.raises(InvalidArgumentError, match="only the command line imports"):
        resolve_seating(["mymod:cautious"], 1)


def test_imported_file_finds_the_modules_beside_it(user_modules, tmp_path, capsys):
    # --import path/to/x.py puts path/to on sys.path, so that x.py can import its siblings.
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "ut_sibling_helper.py").write_text(
        "from numba import njit\n\n"
        "from ohhell_sim import view as V\n"
        "from ohhell_sim.strategy.tools import lowest_card\n\n\n"
        "@njit\n"
        "def lowest_legal(view):\n"
        "    return lowest_card(view[V.LEGAL])\n"
    )
    main_module = CAUTIOUS_MODULE.replace("lowest_card(view[V.LEGAL])", "lowest_legal(view)")
    (folder / "ut_sibling_main.py").write_text(
        "from ut_sibling_helper import lowest_legal\n" + main_module
    )
    log = _replayed(capsys, "--import", "elsewhere/ut_sibling_main.py", "--strategies", "cautious")
    assert log == _expected(["cautious"] * 3)


def test_strategies_verbose_prints_plain_text(capsys):
    assert main(["strategies", "-v"]) == 0
    out = capsys.readouterr().out
    for markup in ("``", ":func:", ":mod:", "`"):
        assert markup not in out, markup
    assert "the details are in\n    ohhell_sim.strategies._counting." in out
    assert "pimc (stochastic, heavy; samples=24, bid_samples=64; not for decks=2)" in out


@pytest.mark.parametrize(
    ("rst", "plain"),
    [
        ("``simple``'s count", "simple's count"),
        (":func:`~ohhell_sim.strategy.tools.points`", "points"),
        (":mod:`ohhell_sim.strategies._counting`", "ohhell_sim.strategies._counting"),
        (":class:`the rules <ohhell_sim.Rules>`", "the rules"),
        ("`interpreted` text::", "interpreted text:"),
    ],
)
def test_plain_text(rst, plain):
    assert plain_text(rst) == plain


@pytest.mark.slow
def test_python_dash_m_runs_the_command():
    out = subprocess.run(
        [sys.executable, "-m", "ohhell_sim.cli", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout.startswith("ohhell-sim ")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return names


def test_no_library_module_imports_the_command():
    library = [
        p for p in (ROOT / "ohhell_sim").rglob("*.py") if "cli" not in p.relative_to(ROOT).parts
    ]
    offenders = [
        str(p.relative_to(ROOT))
        for p in library
        if any(n == "ohhell_sim.cli" or n.startswith("ohhell_sim.cli.") for n in _imports(p))
    ]
    assert not offenders


def test_players_set_by_a_rule_count_the_seats(capsys):
    # --rule players=5 with the default --strategies (one seat for all) gives five
    # seats, as --players 5 does.
    replay = ["replay", "--schedule", "3,1", "--seed", "2", "--game", "1", "--json"]
    assert main([*replay, "--rule", "players=5"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["strategies"] == ["simple"] * 5
    with pytest.raises(SystemExit) as stopped:
        main([*replay, "--rule", "players=5", "--strategies", "simple,random,zero"])
    assert stopped.value.code == 2
    assert "5 players, 3 seats given" in capsys.readouterr().err


def test_experiment_help_says_which_fields_each_study_plays(capsys):
    with pytest.raises(SystemExit):
        main(["experiment", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    # A study with fields of its own beside the shared ones, and one with only its own.
    assert "variant_scoring also maximiser_mix" in text
    assert "house_rules only weak,strong" in text


def test_experiment_takes_a_designers_rule_sets_and_refuses_a_bad_one_in_a_line(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["experiment", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--variant RULES" in text and "--base RULES" in text
    assert "house_rules also STRONGER/WEAKER" in text
    out = tmp_path / "never"
    bad = ["experiment", "house_rules", "--variant", "hook=false", "--variant", "made=7*bid"]
    with pytest.raises(SystemExit) as stopped:
        main([*bad, "--games", "2", "--out", str(out)])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "variant 'made=7*bid': made must be one of" in error[0]
    assert not out.exists()
