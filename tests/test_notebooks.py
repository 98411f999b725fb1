"""The notebooks: paired with their jupytext scripts, and they run.

Each notebook is executed at a tiny size: a cell inserted after the cell tagged
``parameters`` overrides its defaults (as papermill does), and the outputs go to
a temporary folder.  The mixed-table notebooks reuse the studies' one kernel and
the ladder plays ``simple`` and ``random`` only.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import jupytext
import nbformat
import numpy as np
import pandas as pd
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
STUDIES = ("hook_rule", "zero_bids", "variant_scoring", "strategy_ladder", "house_rules")
#: Notebooks that write a report into ``out_dir`` as the studies' do.
REPORTS = (*STUDIES, "card_counter_points")
TINY = {
    "hook_rule": 'games = 6\nplayers = (4,)\nfields = ("simple", "mix")',
    "zero_bids": 'games = 6\nplayers = (3,)\nfields = ("simple", "mix")',
    "variant_scoring": 'games = 6\nplayers = (4,)\nfields = ("simple", "mix")',
    "strategy_ladder": 'games = 8\nstrategies = ("simple", "random")',
    "house_rules": "games = 4\nplayers = (4,)",
    "card_counter_points": "games = 2\ndecisions = 12\nschedule = (4,)\nprecision = 0.5\n"
    "max_samples = 256",
}


@pytest.mark.parametrize("name", (*REPORTS, "rl_bidding", "distilled_learning_curve"))
def test_notebook_and_script_are_in_sync(name):
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    script = jupytext.read(NOTEBOOKS / f"{name}.py")
    assert [(c.cell_type, c.source) for c in notebook.cells] == [
        (c.cell_type, c.source) for c in script.cells
    ]
    tagged = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", REPORTS)
def test_notebook_runs_at_a_tiny_size(name, tmp_path):
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    position = next(
        i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", [])
    )
    out = tmp_path / "out"
    injected = nbformat.v4.new_code_cell(f"{TINY[name]}\nout_dir = {str(out)!r}")
    notebook.cells.insert(position + 1, injected)
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    assert (out / "report.html").is_file()
    texts = [
        output.get("data", {}).get("text/markdown", "")
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    ]
    findings = [t for t in texts if "[" in t and "]" in t and t.startswith("* ")]
    assert findings, "the findings cell shows no interval"
    images = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    assert images, "no figure was displayed"


def _rl_sentences(parameters: dict, texts: list[str]) -> str:
    """The RL page's account of the rl_bidding notebook, from what the notebook printed."""
    (learning,) = [t for t in texts if t.startswith("Points per deal while exploring")]
    first, last = re.search(
        r": (\S+) over the first game .*, (\S+) over the last", learning
    ).groups()
    (tournament,) = [t for t in texts if t.startswith("Mean total per game")]
    totals = re.findall(r"`(\w+)` (-?[\d.]+ \[-?[\d.]+, -?[\d.]+\])", tournament)
    learner = dict(totals)["reinforce_bids"]
    others = [f"`{name}` {value}" for name, value in totals if name != "reinforce_bids"]
    beside = ", ".join(others[:-1]) + " and " + others[-1]
    return (
        f"At its default size ({parameters['iterations']} iterations of "
        f"{parameters['tables']:,} deals, about a minute) its points per deal while exploring "
        f"rose from {first} over the first game to {last} over the last. Registered as a user "
        "strategy with the learned weights as parameters, it then averaged "
        f"{learner} points per game in a {parameters['games']}-game duplicate tournament, "
        f"beside {beside} (seed {parameters['seed'] + 1}; 95% intervals)."
    )


@pytest.mark.slow
def test_rl_bidding_notebook_at_its_default_size_gives_the_documented_figures(tmp_path):
    # About a minute: docs/rl.md quotes this size, so the test plays it.
    notebook = nbformat.read(NOTEBOOKS / "rl_bidding.ipynb", as_version=4)
    (cell,) = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    parameters: dict = {}
    exec(cell.source, parameters)
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no learning curve"
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("reinforce_bids" in table for table in html), "no tournament table"
    texts = [o["data"]["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})]
    page = (NOTEBOOKS.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    assert _rl_sentences(parameters, texts) in " ".join(page.split())


@pytest.mark.slow
def test_distilled_learning_curve_experiment_and_notebook_at_a_tiny_size(tmp_path, monkeypatch):
    # One trained player, in both sweeps (one player compiles once), from games of
    # cheap players; then the notebook reads what the experiment wrote.
    from ohhell_sim.training import distilled as training

    path = NOTEBOOKS.parent / "experiments" / "distilled_learning_curve.py"
    spec = importlib.util.spec_from_file_location("distilled_learning_curve", path)
    experiment = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(experiment)
    monkeypatch.setattr(training, "FIELDS", (("simple", "card_counter"),))
    out = tmp_path / "curve"
    tiny = "--games 4 --hidden 20 --hidden-games 4 --epochs 1 --worlds 1 --workers 1"
    match = "--opponent simple --match-games 8 --threads 1"
    weights = tmp_path / "weights"
    argv = [*tiny.split(), *match.split(), "--weights", str(weights), "--out", str(out)]
    assert experiment.main(argv) == 0
    with np.load(weights / "distilled_g4_h20.npz") as trained:
        assert trained["card_state"].shape[1] == 20
        assert trained["bid_state"].shape[1] == 24
    curve = pd.read_csv(out / "curve.csv")
    assert list(curve.columns) == list(experiment.COLUMNS)
    assert sorted(zip(curve["sweep"], curve["card_hidden"], strict=True)) == [
        ("games", 20),
        ("hidden", 20),
    ]
    assert (curve["deal_sets"] == 2).all() and (curve["low"] <= curve["high"]).all()
    assert "--hidden 20" in json.loads((out / "meta.json").read_text())["command"]

    notebook = nbformat.read(NOTEBOOKS / "distilled_learning_curve.ipynb", as_version=4)
    position = next(
        i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", [])
    )
    notebook.cells.insert(position + 1, nbformat.v4.new_code_cell(f"data_dir = {str(out)!r}"))
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 2
    texts = [o["data"]["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})]
    assert any(t.startswith("Points per game over the opponent: 4 games") for t in texts)
