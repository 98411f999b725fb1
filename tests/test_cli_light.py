"""The ``ohhell`` parser is light: its help loads neither Numba, pandas nor a study.

What a command runs is imported when it runs; the parser reads the few names
it shows (seatings, study names and fields, default files) from light copies
that these tests keep equal to the library's.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ohhell_sim.studies.catalog import STUDY_NAMES

#: Modules the parser must not import (prefixes of module names).
HEAVY = ("numba", "pandas", "scipy", "matplotlib", "pyarrow", "ohhell_sim.strategies")
#: The only study module the parser may read.
LIGHT_STUDY_MODULES = {"ohhell_sim.studies", "ohhell_sim.studies.catalog"}

_PROBE = """
import json, sys
from ohhell_sim.cli import build_parser
parser = build_parser()
for command in ("simulate", "experiment", "tournament", "report"):
    parser._subparsers._group_actions[0].choices[command].format_help()
print(json.dumps(sorted(sys.modules)))
"""


def test_building_the_parser_imports_no_heavy_module():
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout
    loaded = json.loads(out)
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]
    assert heavy == []
    studies = {m for m in loaded if m.startswith("ohhell_sim.studies")}
    assert studies <= LIGHT_STUDY_MODULES


def test_the_package_imports_light_and_its_names_on_use():
    probe = (
        "import sys, ohhell_sim as oh; light = 'numba' not in sys.modules; "
        "f = oh.simulate; import ohhell_sim.simulate; "
        "print(light, callable(oh.simulate), oh.simulate is f, "
        "'simple' in oh.available_strategies())"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "True", "True", "True"]


def test_registry_holds_the_builtins_without_the_package_init():
    probe = "from ohhell_sim.strategy import get_strategy; print(get_strategy('simple').builtin_id)"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "1"


def test_the_parsers_copies_match_the_library():
    from ohhell_sim.analysis.report import ANALYSIS_FILE
    from ohhell_sim.cli import openspiel, studies, tournament, train
    from ohhell_sim.interop import openspiel_matches
    from ohhell_sim.studies import catalog, design
    from ohhell_sim.tournament import SEATINGS
    from ohhell_sim.training import distilled as distilled_training

    assert tournament.SEATINGS == SEATINGS
    assert studies.ANALYSIS_FILE == ANALYSIS_FILE
    for name in ("DEFAULT_OPPONENTS", "DEFAULT_PLAYERS", "DEFAULT_TRICKS", "DEFAULT_DEALS"):
        assert getattr(openspiel, name) == getattr(openspiel_matches, name), name
    assert catalog.SHARED_FIELDS == design.FIELDS
    assert train.WORLDS == distilled_training.WORLDS


@pytest.mark.parametrize("name", STUDY_NAMES)
def test_the_catalog_matches_each_study(name):
    from ohhell_sim.studies import catalog
    from ohhell_sim.studies.spec import get_study

    spec = get_study(name)
    assert spec.name == name
    assert spec.known_fields == catalog.known_fields(name)
    assert spec.takes_strategies == (name in catalog.TAKES_STRATEGIES)
    assert spec.takes_rule_sets == (name in catalog.TAKES_RULE_SETS)
    assert (spec.field_names is not None) == (name in catalog.TAKES_FIELD_PAIRS)
