"""The ``openspiel_match`` study: grids of duplicate matches against OpenSpiel's bots.

Checked: every bad argument is refused before anything plays, naming it; a folder
keeps every finished match and a second run plays only what it lacks; the
report's tables and findings come from the matches (advantage intervals,
time per decision); ``ohhell openspiel-match`` writes it.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

pytest.importorskip("pyspiel")

from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.interop.openspiel_matches import (
    MATCHES_FILE,
    RUNS_FILE,
    check_opponent,
    is_openspiel_bot,
    plan_matches,
    read_matches,
    run_matches,
    seat_label,
)
from ohhell_sim.studies.openspiel_match import (
    analyse,
    corrected,
    match_table,
    stock_worth,
    write_match_report,
)

#: The smallest grid worth a test: two strategies, two bots, one tiny table.
TINY = {"opponents": ["random", "ismcts:10"], "players": [3], "tricks": [2], "deals": 2}


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"opponents": ["ismcts"]}, "opponent"),
        ({"opponents": ["mcts:0"]}, "opponent"),
        ({"opponents": ["alphazero:10"]}, "opponent"),
        ({"opponents": []}, "opponents"),
        ({"players": [8]}, "players"),
        ({"players": [2]}, "players"),
        ({"tricks": [0]}, "tricks"),
        ({"players": [5], "tricks": [11]}, "tricks=11"),
        ({"deals": 1}, "deals"),
        ({"seed": -1}, "seed"),
        ({"strategies": ["no_such_strategy"]}, "no_such_strategy"),
        ({"strategies": [("simple", {"no_such_param": 1.0})]}, "no_such_param"),
        ({"strategies": []}, "strategies"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs, named):
    with pytest.raises(InvalidArgumentError, match=named):
        plan_matches(**{"strategies": ["simple"], **TINY, **kwargs})


def test_the_grid_and_labels():
    matches = plan_matches(["simple", ("pimc", {"samples": 4.0})], **TINY)
    assert [(m.strategy, m.opponent) for m in matches] == [
        ("simple", "random"),
        ("pimc[samples=4]", "random"),
        ("simple", "ismcts:10"),
        ("pimc[samples=4]", "ismcts:10"),
    ]
    assert check_opponent("mcts:5") == "mcts:5"
    # In our seat, "random" is our built-in; the search bots are baselines.
    assert not is_openspiel_bot("random") and not is_openspiel_bot("simple")
    assert is_openspiel_bot("ismcts:5") and is_openspiel_bot("mcts:5")
    assert seat_label(("simple", {})) == "simple"
    default = plan_matches(None, **TINY)
    assert {m.strategy for m in default} >= {"simple", "random", "pimc", "card_counter"}


@pytest.mark.slow
def test_a_folder_keeps_its_matches_and_plays_only_what_it_lacks(tmp_path):
    first = plan_matches(["simple"], **TINY)
    rows = run_matches(first, tmp_path, command="first", progress=False)
    # 2 matches x 2 deal sets x 3 rotations x 3 entrants.
    assert len(rows) == 2 * 2 * 3 * 3
    assert set(rows["opponent"]) == {"random", "ismcts:10"}
    saved = read_matches(tmp_path)
    pd.testing.assert_frame_equal(saved, rows)

    more = plan_matches(["simple", "card_counter"], **TINY)
    after = run_matches(more, tmp_path, command="second", progress=False)
    assert len(after) == 2 * len(rows)
    # The first matches are kept as they were, not played again.
    kept = after[after["strategy"] == "simple"].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, rows, check_categorical=False)
    runs = json.loads((tmp_path / RUNS_FILE).read_text())
    assert [(r["command"], r["matches"], r["new"], r["played"]) for r in runs] == [
        ("first", 2, 2, 2),
        ("second", 4, 2, 2),
    ]

    with pytest.raises(InvalidArgumentError, match="2 deal sets, not deals=3"):
        run_matches(plan_matches(["simple"], **{**TINY, "deals": 3}), tmp_path, progress=False)


@pytest.mark.slow
def test_the_report_is_computed_from_the_matches(tmp_path):
    matches = plan_matches(["simple", "card_counter"], **TINY)
    rows = run_matches(matches, tmp_path, command="ohhell openspiel-match ...", progress=False)
    table = match_table(rows)
    assert len(table) == 4
    assert (table["deal_sets"] == 2).all()
    assert (table["low"] <= table["estimate"]).all() and (table["estimate"] <= table["high"]).all()

    # The advantage is our points minus the mean of the opponents' seats, per deal.
    one = rows[(rows["strategy"] == "simple") & (rows["opponent"] == "random")]
    ours = one[one["entrant"] == "simple"].set_index(["deal", "rotation"])["points"]
    theirs = one[one["entrant"] != "simple"].groupby(["deal", "rotation"])["points"].mean()
    row = table[(table["strategy"] == "simple") & (table["opponent"] == "random")].iloc[0]
    assert row["estimate"] == pytest.approx((ours - theirs).mean())
    assert row["points"] == pytest.approx(ours.mean())
    assert row["ms_ours"] > 0 and row["ms_theirs"] >= 0

    report = analyse(rows, [{"command": "ohhell openspiel-match ..."}])
    assert report.command == "ohhell openspiel-match ..."
    assert any("Against random" in f for f in report.findings)
    grids = [t for t in report.tables if t.title.startswith("Advantage over")]
    assert [t.title.split(",")[0] for t in grids] == [
        "Advantage over random",
        "Advantage over ismcts:10",
    ]
    assert list(grids[0].frame.columns) == ["strategy", "3x2"]

    written = write_match_report(tmp_path)
    text = written.markdown.read_text(encoding="utf-8")
    assert "## Findings" in text and "card_counter" in text
    assert written.figures and written.figures[0].is_file()


def test_told_the_stock_pairs_each_strategy_with_itself_on_the_same_deals(tmp_path):
    grid = {**TINY, "opponents": ["ismcts:10"]}
    matches = plan_matches(["simple", "ismcts:10"], **grid, told_stock=True)
    assert [(m.strategy, m.sees_stock) for m in matches] == [
        ("simple", False),
        ("ismcts:10", False),
        ("simple (told the stock)", True),
    ]
    rows = run_matches(matches, tmp_path, progress=False)
    worth = stock_worth(rows)
    assert list(worth["strategy"]) == ["simple"]
    row = worth.iloc[0]
    table = match_table(rows).set_index("strategy")
    assert row["own"] == pytest.approx(table.loc["simple", "estimate"])
    assert row["told"] == pytest.approx(table.loc["simple (told the stock)", "estimate"])
    assert row["estimate"] == pytest.approx(row["told"] - row["own"])
    assert row["low"] <= row["estimate"] <= row["high"]
    # Every match and every worth is one family, corrected together.
    adjusted, worth = corrected(match_table(rows), worth)
    assert (adjusted["p_adjusted"] >= adjusted["p"]).all()
    family = {f"holm over {len(adjusted) + len(worth)}"}
    assert set(adjusted["correction"]) == set(worth["correction"]) == family
    report = analyse(rows)
    assert any(t.title.startswith("What knowing the undealt cards") for t in report.tables)
    assert any(f.startswith("Knowing the undealt cards is worth") for f in report.findings)
    assert [f.name for f in report.figures] == ["advantage_by_table.png", "stock_worth.png"]
    assert all(f.png.startswith(b"\x89PNG") for f in report.figures)
    # The told seat is not counted among ours: it is not a fair player.
    best = next(f for f in report.findings if f.startswith("Against ismcts:10, the best"))
    assert "told" not in best


def test_a_second_seed_is_reported_apart_as_other_deals(tmp_path):
    grid = {**TINY, "opponents": ["random"]}
    run_matches(plan_matches(["simple"], **grid), tmp_path, progress=False)
    rows = run_matches(plan_matches(["simple"], **grid, seed=1), tmp_path, progress=False)
    assert list(match_table(rows)["table"]) == ["3x2", "3x2 seed 1"]
    grid_table = next(t for t in analyse(rows).tables if t.title.startswith("Advantage over"))
    assert list(grid_table.frame.columns) == ["strategy", "3x2", "3x2 seed 1"]


@pytest.mark.slow
def test_matches_played_at_once_are_the_matches_played_alone(tmp_path):
    grid = {**TINY, "opponents": ["random"]}
    matches = plan_matches(["simple", "card_counter", "random"], **grid)
    alone = run_matches(matches, tmp_path / "alone", progress=False)
    at_once = run_matches(matches, tmp_path / "at_once", progress=False, jobs=2)
    key = ["strategy", "deal", "rotation", "entrant"]
    columns = [c for c in alone.columns if c != "seconds"]
    pd.testing.assert_frame_equal(
        alone.sort_values(key)[columns].reset_index(drop=True),
        at_once.sort_values(key)[columns].reset_index(drop=True),
    )
    assert json.loads((tmp_path / "at_once" / RUNS_FILE).read_text())[0]["played"] == 3
    with pytest.raises(InvalidArgumentError, match="jobs must be an integer >= 1, got 0"):
        run_matches(matches, tmp_path / "none", progress=False, jobs=0)


def test_no_matches_no_report(tmp_path):
    with pytest.raises(InvalidArgumentError, match="no matches"):
        write_match_report(tmp_path)


def test_command_line_plays_and_reports(tmp_path, capsys):
    out = tmp_path / "os"
    args = ["openspiel-match", "--strategies", "simple", "--opponents", "random,mcts:5"]
    args += ["--players", "3", "--tricks", "2", "--deals", "2", "--out", str(out), "-q"]
    assert main(args) == 0
    assert "report written" in capsys.readouterr().out
    assert (out / MATCHES_FILE).is_file() and (out / "report.md").is_file()
    assert main([*args, "--report-only"]) == 0
    runs = json.loads((out / RUNS_FILE).read_text())
    assert len(runs) == 1 and runs[0]["command"].startswith("ohhell openspiel-match --strategies")
    # A note on the folder is kept and shown in the report's setup.
    assert main([*args, "--report-only", "--note", "played at commit abc"]) == 0
    runs = json.loads((out / RUNS_FILE).read_text())
    assert runs[-1] == {
        "command": "",
        "matches": 0,
        "new": 0,
        "played": 0,
        "version": runs[0]["version"],
        "note": "played at commit abc",
    }
    assert "note: played at commit abc" in (out / "report.md").read_text(encoding="utf-8")


def test_command_line_refuses_a_bad_opponent_before_playing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["openspiel-match", "--opponents", "ismcts:x", "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert "ismcts:x" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_an_openspiel_bot_can_take_our_seat_as_a_baseline(tmp_path):
    matches = plan_matches(["ismcts:10", "simple"], ["random"], [3], [2], deals=2)
    assert [m.strategy for m in matches] == ["ismcts:10", "simple"]
    rows = run_matches(matches, tmp_path, progress=False)
    table = match_table(rows).set_index("strategy")
    assert set(table.index) == {"ismcts:10", "simple"}
    # Both seats met the same deals: the random opponents' cards are the same.
    assert table.loc["ismcts:10", "deal_sets"] == table.loc["simple", "deal_sets"] == 2
    assert set(rows[rows["strategy"] == "ismcts:10"]["entrant"]) == {
        "ismcts:10",
        "random#1",
        "random#2",
    }


@pytest.mark.slow
def test_the_committed_report_is_the_analysis_of_its_committed_matches():
    from pathlib import Path

    from ohhell_sim.analysis.report import load_analysis

    folder = Path(__file__).resolve().parents[1] / "reports" / "openspiel_match"
    runs = json.loads((folder / RUNS_FILE).read_text())
    report = analyse(read_matches(folder), runs)
    committed = load_analysis(folder)
    assert report.findings == committed.findings
    assert [t.frame.to_dict("records") for t in report.tables] == [
        t.frame.to_dict("records") for t in committed.tables
    ]
