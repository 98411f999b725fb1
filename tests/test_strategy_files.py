"""The strategies kept as files in the repository's ``strategies/`` folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import ohhell_sim as oh
from ohhell_sim.cli import main
from ohhell_sim.rules import Rules

FOLDER = Path(__file__).resolve().parents[1] / "strategies"
FILES = sorted(FOLDER.glob("*.py"))


def test_the_folder_holds_the_template_and_the_docs_example():
    assert {path.stem for path in FILES} >= {"template", "cautious"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_loads_as_the_command_line_names_it_and_passes_the_check(path, capsys):
    name = path.stem
    # NAME.py:NAME is how the README and the docs name it: the file registers NAME.
    assert main(["strategies", "--import", str(path)]) == 0
    assert name in capsys.readouterr().out.split()
    # It raises, naming file and line, on any fault; a clean check played every decision.
    check = oh.check_strategy(name, Rules(players=4), games=2, seed=5)
    assert (check.strategy, check.games) == (name, 2)
    assert check.decisions >= 2 * 4 * sum(Rules(players=4).schedule)
