"""The report layer: number formatting, figure style, the Report model and its saved form."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from ohhell_sim.analysis import figures
from ohhell_sim.analysis.figures import (
    interval_plot,
    strategy_colour,
)
from ohhell_sim.analysis.format import display_table, fmt_ci, fmt_number, interval_table
from ohhell_sim.analysis.report import (
    ANALYSIS_FILE,
    STYLE,
    Figure,
    Report,
    Table,
    command_path,
    load_analysis,
    numeric_columns,
    rules_table,
    rules_text,
    save_analysis,
    to_html,
    to_markdown,
    write_report,
)
from ohhell_sim.analysis.run_report import run_report
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import available_strategies, get_strategy

PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 20


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (-0.0001, 2, "0.00"),
        (-0.0, 3, "0.000"),
        (-0.006, 2, "-0.01"),
        (1.5, 1, "1.5"),
        (np.int64(7), 2, "7"),
        (float("nan"), 2, "n/a"),
    ],
)
def test_fmt_number_never_prints_minus_zero(value, digits, text):
    assert fmt_number(value, digits) == text


def test_fmt_ci_and_display_table():
    assert fmt_ci(-0.0004, -0.2, 0.0001, 2) == "0.00 [-0.20, 0.00]"
    assert fmt_ci(float("nan"), 0.0, 1.0) == "n/a"
    tidy = pd.DataFrame(
        {
            "g": ["a"],
            "n": [4],
            "estimate": [0.5],
            "low": [0.25],
            "high": [0.75],
            "method": ["Student t"],
        }
    )
    shown = display_table(tidy, digits=2)
    assert list(shown.columns) == ["g", "n", "estimate [95% CI]"]
    assert shown.iloc[0].tolist() == ["a", "4", "0.50 [0.25, 0.75]"]
    assert "method" in display_table(tidy, keep=("method",)).columns


def test_interval_table_pivots_a_tidy_table():
    tidy = pd.DataFrame(
        {
            "strategy": ["x", "x", "y"],
            "measure": ["m1", "m2", "m1"],
            "estimate": [1.0, 2.0, 3.0],
            "low": [0.0, 1.0, 2.0],
            "high": [2.0, 3.0, 4.0],
        }
    )
    table = interval_table(tidy, "strategy", "measure", digits=1)
    assert table.columns.tolist() == ["strategy", "m1", "m2"]
    assert table.iloc[1].tolist() == ["y", "3.0 [2.0, 4.0]", "n/a"]


def test_every_built_in_strategy_has_its_own_fixed_colour():
    # Built-ins only: other test modules leave user strategies registered.
    names = [n for n in available_strategies() if get_strategy(n).builtin_id is not None]
    colours = [strategy_colour(name) for name in names]
    assert len(set(colours)) == len(names)
    assert all(get_strategy(name).colour == strategy_colour(name) for name in names)
    assert strategy_colour("simple#2") == strategy_colour("simple")
    assert strategy_colour("zero(threshold=1)") == strategy_colour("zero")
    assert strategy_colour("my_bot") == strategy_colour("my_bot")  # stable for other names


def test_interval_plot_renders_a_png():
    table = pd.DataFrame(
        {
            "hand_size": [1, 2, 1, 2],
            "strategy": ["simple", "simple", "random", "random"],
            "estimate": [0.5, 0.6, 0.3, 0.2],
            "low": [0.4, 0.5, 0.2, 0.1],
            "high": [0.6, 0.7, 0.4, 0.3],
        }
    )
    png = interval_plot(table, "hand_size", series="strategy", title="t", xlabel="x", ylabel="y")
    assert png.startswith(b"\x89PNG")


def test_a_horizontal_interval_plot_lists_its_labels_top_to_bottom(monkeypatch):
    labels = [f"a long label number {i}" for i in range(12)]
    table = pd.DataFrame(
        {"rule": labels, "estimate": np.arange(12.0), "low": np.arange(12.0) - 1}
    ).assign(high=lambda t: t["estimate"] + 1)
    drawn = {}

    def keep(fig):
        drawn["fig"] = fig
        return b"\x89PNG"

    monkeypatch.setattr(figures, "png_bytes", keep)
    interval_plot(table, "rule", title="t", xlabel="rule", ylabel="points", horizontal=True)
    (ax,) = drawn["fig"].axes
    assert [t.get_text() for t in ax.get_yticklabels()] == labels
    assert ax.yaxis_inverted() and ax.get_ylabel() == "rule" and ax.get_xlabel() == "points"
    # As tall as its labels need, unlike the fixed height of a vertical panel.
    assert drawn["fig"].get_size_inches()[1] > 4.5


def test_rules_table_names_the_preset_and_only_the_changes():
    table = rules_table(Rules.preset("online", players=5).to_dict())
    assert table.iloc[0].tolist() == ["preset", "online"]
    assert table.iloc[1].tolist() == ["players", "5"]
    assert dict(zip(table["setting"], table["value"], strict=True)) == {
        "preset": "online",
        "players": "5",
        "over": "taken",
        "under": "taken",
    }
    custom = rules_table(Rules(players=4, hook=False).to_dict())
    assert custom.values.tolist() == [["preset", "custom"], ["players", "4"], ["hook", "False"]]


def _report() -> Report:
    table = pd.DataFrame({"strategy": ["simple"], "win_share": ["0.500 [0.400, 0.600]"]})
    return Report(
        "Who wins?",
        ["seed 1"],
        ["t intervals"],
        ["simple wins 0.500 [0.400, 0.600] of games."],
        [Table("Per strategy", table, "a note")],
        [Figure("f.png", "A figure", PNG)],
        "ohhell simulate ...",
        "demo",
    )


def test_report_renders_styled_tables_and_embedded_figures(tmp_path):
    report = _report()
    page = to_html(report)
    assert STYLE in page and "<table" in page and "data:image/png;base64," in page
    markdown = to_markdown(report)
    assert "| strategy | win_share |" in markdown and "![A figure](f.png)" in markdown
    written = write_report(report, tmp_path)
    assert written.figures == (tmp_path / "f.png",)
    assert (
        written.describe()
        == f"report written to {tmp_path}/ (report.md, report.html, 1 PNG figures)"
    )


def test_saved_analysis_renders_the_same_report(tmp_path):
    report = _report()
    save_analysis(report, tmp_path / "data")
    assert (tmp_path / "data" / ANALYSIS_FILE).is_file()
    again = load_analysis(tmp_path / "data")
    assert to_html(again) == to_html(report)
    assert to_markdown(again) == to_markdown(report)


def test_plain_run_report_has_tables_not_dumps():
    rng = np.random.default_rng(0)
    games_n, seats = 30, 4
    strategies = np.tile(["simple", "random", "simple", "random"], games_n)
    hands = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games_n), seats * 2),
            "strategy": np.repeat(strategies, 2),
            "hand_size": np.tile([2, 1], games_n * seats),
            "bid": rng.integers(0, 2, games_n * seats * 2),
            "tricks": rng.integers(0, 2, games_n * seats * 2),
            "score": rng.integers(0, 12, games_n * seats * 2),
        }
    )
    games = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games_n), seats),
            "strategy": strategies,
            "total": rng.integers(0, 40, games_n * seats),
            "win_share": np.tile([1.0, 0.0, 0.0, 0.0], games_n),
        }
    )
    rules = Rules(players=4).to_dict()
    hands.attrs = {
        "rules": rules,
        "seed": 3,
        "games": games_n,
        "version": "x",
        "strategies": ["simple", "random", "simple", "random"],
    }
    report = run_report(hands, games, title="Plain", command="ohhell report run")
    titles = [t.title for t in report.tables]
    assert titles[0].startswith("Rules") and titles[1] == "Per strategy"
    assert report.tables[0].frame["setting"].tolist() == ["preset", "players"]
    per_strategy = report.tables[1].frame
    assert per_strategy["strategy"].tolist() == ["random", "simple"]
    assert per_strategy.loc[1, "win_share"] == "0.500 [0.500, 0.500]"
    assert "simple has the highest win share, 0.500 [0.500, 0.500]" in report.findings[0]
    assert [f.name for f in report.figures] == ["made_rate_by_hand_size.png", "totals.png"]
    assert "{" not in to_html(report).split("<section id='tables'>")[1]  # no JSON dump


# --- what a reader sees ----------------------------------------------------------------


def test_code_spans_are_code_in_html_and_kept_in_markdown():
    report = _report()
    report.method.append("equal `Rules.to_dict()` <merged>")
    report.tables[0].note = "see `ohhell rules`"
    page = to_html(report)
    assert "equal <code>Rules.to_dict()</code> &lt;merged&gt;" in page
    assert "see <code>ohhell rules</code>" in page
    assert "`" not in page
    assert "* equal `Rules.to_dict()` <merged>" in to_markdown(report)


def test_text_columns_are_left_aligned_and_numbers_right_aligned():
    frame = pd.DataFrame(
        {
            "strategy": ["simple", "mc_bidder(samples=16)"],
            "n": ["4000", "1,000"],
            "estimate [95% CI]": ["-0.002 [-0.006, 0.002]", "0.12 [0.10, 0.14] *"],
            "p (adjusted)": ["<0.001", "1.000"],
            "cells": ["25 of 25", ""],
            "survives": ["True", "False"],
            "fields": ["simple, mix", "5 vs 3 players"],
        }
    )
    assert numeric_columns(frame) == [False, True, True, True, True, False, False]
    report = _report()
    report.tables = [Table("t", frame)]
    assert "|---|---:|---:|---:|---:|---|---|" in to_markdown(report)
    page = to_html(report)
    assert "<th>strategy</th><th class='num'>n</th>" in page
    assert "<td>simple</td><td class='num'><span class='nw'>4000</span></td>" in page
    # The interval may go to a second line, as a whole.
    assert "<span class='nw'>-0.002</span> <span class='nw'>[-0.006, 0.002]</span>" in page


def test_tables_scroll_inside_their_own_box_and_headers_can_wrap():
    frame = pd.DataFrame({"survive_and_replicate": ["5 of 5"]})
    report = _report()
    report.tables = [Table("t", frame)]
    page = to_html(report)
    assert "<div class='table'><table>" in page and ".table{overflow-x:auto" in STYLE
    assert "<th class='num'>survive_<wbr>and_<wbr>replicate</th>" in page


def _drawn(make, monkeypatch):
    """The PNG ``make()`` returns and the figure it drew (kept open to be read)."""
    kept = []
    monkeypatch.setattr(figures.plt, "close", kept.append)
    png = make()
    monkeypatch.undo()
    (fig,) = kept
    return png, fig


def _assert_legible(png: bytes, fig) -> None:
    width = int.from_bytes(png[16:20], "big")  # the PNG header's width
    assert width <= figures.MAX_WIDTH_PX
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    # Shown at its pixel size in the page, the smallest text is at least 10 px.
    assert min(sizes) * figures.DPI / 72 >= 10
    plt.close(fig)


def test_five_panels_with_a_legend_fit_the_page_in_legible_text(monkeypatch):
    rows = [
        {"field": f, "players": n, "hand_size": h, "estimate": 0.2, "low": 0.1, "high": 0.3}
        for f in ("simple", "card_counter", "learned", "mc_bidder", "mix")
        for n in (3, 4, 5, 6, 7)
        for h in range(1, 11)
    ]
    table = pd.DataFrame(rows)
    png, fig = _drawn(
        lambda: interval_plot(
            table,
            "hand_size",
            series="players",
            panels="field",
            title="Hook binds (bids total the hand size, hook off)",
            xlabel="hand size",
            ylabel="share of deals",
        ),
        monkeypatch,
    )
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 5
    _assert_legible(png, fig)


def test_commands_show_paths_relative_never_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert command_path(tmp_path / "runs" / "hook_rule") == "runs/hook_rule"
    assert command_path("runs/my run") == "'runs/my run'"
    outside = Path(os.path.abspath(os.sep)) / "elsewhere" / "out"
    assert command_path(outside) == "out"


def test_lead_tables_follow_the_in_short_and_survive_the_saved_analysis(tmp_path):
    report = dataclasses.replace(_report(), in_short=["Simple wins."], lead_tables=1)
    markdown = to_markdown(report)
    assert markdown.index("### Per strategy") < markdown.index("## Setup")
    assert markdown.count("### Per strategy") == 1
    page = to_html(report)
    assert page.index("<h3>Per strategy</h3>") < page.index("<section id='setup'>")
    save_analysis(report, tmp_path)
    assert load_analysis(tmp_path).lead_tables == 1
    # A report without lead tables saves no such key: committed analyses stay as they are.
    save_analysis(_report(), tmp_path)
    assert "lead_tables" not in (tmp_path / ANALYSIS_FILE).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("schedule", "written"),
    [
        (Rules(players=7).schedule, "7→1→7"),
        ((7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 7), "7→1→7, 7"),
        ((10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 2, 3), "10→1, 1, 1→3"),
        ((1,), "1"),
        ((5, 5, 3), "5, 5, 3"),
    ],
)
def test_rules_text_writes_schedules_as_players_do(schedule, written):
    rules = Rules(players=4, schedule=tuple(min(s, 12) for s in schedule)).to_dict()
    assert rules_text(rules) == f"schedule={written}"
