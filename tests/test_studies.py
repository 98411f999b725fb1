"""The studies: each experiment at a tiny size, its data's invariants, its report.

One module-scoped fixture runs every study once (the mixed-table studies share
one kernel, ``learned``/``simple``/``zero``; the ladder runs ``simple`` and
``random`` only, whose kernels the engine tests compile anyway).  The report
checks recompute headline numbers from the Parquet files with plain pandas and
look for them, formatted, in the HTML findings.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ohhell_sim import read_results, simulate
from ohhell_sim.analysis.report import (
    ANALYSIS_FILE,
    HTML_FILE,
    MARKDOWN_FILE,
    command_path,
    load_analysis,
)
from ohhell_sim.analysis.stats import clustered_mean_ci, mean_ci, standardised_mean_ci
from ohhell_sim.cli import main
from ohhell_sim.cli.studies import QUICKSTART_FIELDS
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import solve_one_card
from ohhell_sim.results import read_frame
from ohhell_sim.rules import Rules
from ohhell_sim.studies import STUDY_NAMES, render_report, run_experiment
from ohhell_sim.studies.holdings import trump_holdings
from ohhell_sim.studies.runs import GAMES_FILE, read_study
from ohhell_sim.studies.zero_bids import PROBE_ARMS, probe_pairs

TINY = {
    "hook_rule": {"games": 12, "players": (3, 4), "fields": ("simple", "mix")},
    "zero_bids": {"games": 12, "players": (3, 4), "fields": ("simple", "mix")},
    # Every deal kept: the tests below read the cards.
    "variant_scoring": {
        "games": 12,
        "players": (4,),
        "fields": ("simple", "mix"),
        "keep_hands": True,
    },
    "strategy_ladder": {"games": 8, "players": (4,), "strategies": ("simple", "random")},
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, Path]:
    """Every study run once at a tiny size: name -> output folder."""
    root = tmp_path_factory.mktemp("studies")
    folders = {}
    for name, size in TINY.items():
        folders[name] = root / name
        run_experiment(name, folders[name], seed=7, progress=False, **size)
    return folders


# --- bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "hook"}, "unknown study 'hook'; studies: hook_rule"),
        ({"games": 0}, "games must be an integer >= 1, got 0"),
        ({"seed": -1}, "seed must be an integer"),
        ({"players": [9]}, "players must be table sizes in 3..7, got 9"),
        ({"players": []}, "players must name at least one table size"),
        ({"strategies": ("simple",)}, "strategies applies to strategy_ladder only"),
        ({"name": "strategy_ladder", "games": 10}, "games must be a multiple of 4"),
        ({"name": "strategy_ladder", "players": [3, 4]}, "plays one table size"),
        ({"confirm_seed": 0}, "confirm_seed must differ from seed (0)"),
        ({"confirm_seed": -2}, "confirm_seed must be an integer in 0.."),
        ({"confirm_games": -1}, "confirm_games must be an integer >= 0, got -1"),
        ({"name": "strategy_ladder", "confirm_games": 6}, "games must be a multiple of 4"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(tmp_path, kwargs, message):
    args = {"name": "hook_rule", "out": tmp_path / "out", "games": 4, **kwargs}
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        run_experiment(**args)
    assert not (tmp_path / "out").exists()


def test_cli_names_the_bad_option(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "nope", "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert "unknown study 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["experiment", "hook_rule", "--players", "4,x", "--out", str(tmp_path / "x")])
    assert "--players expects comma-separated table sizes" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["report", str(tmp_path / "missing")])
    assert "neither a study" in capsys.readouterr().err


# --- data: schema and invariants ------------------------------------------------


@pytest.mark.slow
def test_every_output_has_data_metadata_and_report(outputs):
    for name, folder in outputs.items():
        data = read_study(folder)
        manifest = data.manifest
        assert manifest["study"] == name
        assert manifest["seed"] == 7
        assert manifest["version"]
        assert manifest["command"].startswith(f"ohhell experiment {name} ")
        # The Parquet files carry the manifest in their metadata; frames in memory do not.
        assert read_frame(folder / GAMES_FILE).attrs["conditions"] == manifest["conditions"]
        assert data.games.attrs == {}
        for condition in manifest["conditions"]:
            assert Rules.from_dict(condition["rules"]).players == condition["rules"]["players"]
        for file in (MARKDOWN_FILE, HTML_FILE, ANALYSIS_FILE):
            assert (folder / file).stat().st_size > 1000


@pytest.mark.slow
def test_every_study_is_confirmed_at_a_second_seed_with_fresh_cards(outputs):
    for name, folder in outputs.items():
        data = read_study(folder)
        confirmation = data.confirmation
        assert confirmation is not None, name
        games = TINY[name]["games"]
        # Half the games; the ladder keeps whole rotations, at least two of them.
        expected = 8 if name == "strategy_ladder" else games // 2
        assert data.manifest["confirmation"] == {"games": expected, "seed": 8}
        assert confirmation.manifest["seed"] == 8
        assert confirmation.manifest["command"] == data.manifest["command"]
        # Another seed deals other cards: the first deal's bids differ somewhere (hook_rule
        # keeps a row per deal, with its bids summed).
        bid = "bid" if "bid" in data.hands.columns else "bids"
        first = data.hands[data.hands["game"] < len(confirmation.games)]
        assert (
            not first[bid]
            .reset_index(drop=True)
            .equals(confirmation.hands[bid].reset_index(drop=True))
        ), name
    assert "confirmation run at seed 8" in load_analysis(outputs["hook_rule"]).setup[0]


def test_no_confirmation_run_is_said_in_the_report(tmp_path):
    out = tmp_path / "alone"
    run_experiment(
        "hook_rule",
        out,
        4,
        seed=3,
        players=(3,),
        fields=("simple",),
        progress=False,
        confirm_games=0,
    )
    data = read_study(out)
    assert data.confirmation is None and not (out / "confirmation").exists()
    assert data.manifest["command"].endswith(f"--confirm-games 0 --out {command_path(out)}")
    report = load_analysis(out)
    assert "no confirmation run" in report.setup[0]
    assert any("No confirmation run was played" in line for line in report.method)


def _deal_keys(hands: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return hands.drop_duplicates(["condition", "game", "deal"]).set_index([*by, "game", "deal"])


@pytest.mark.slow
def test_hook_rule_pairs_the_same_cards_and_the_hook_holds(outputs):
    deals = read_study(outputs["hook_rule"]).hands  # a row per deal (hook_rule.deal_rows)
    expected = {
        "condition",
        "players",
        "field",
        "hook",
        "game",
        "deal",
        "dealer",
        "hand_size",
        "trump",
        "bids",
        "excess",
    }
    assert expected <= set(deals.columns)
    keyed = _deal_keys(deals, ["players", "field", "hook"])[["dealer", "trump"]]
    on = keyed.xs(True, level="hook")
    off = keyed.xs(False, level="hook").loc[on.index]
    # Common random numbers: same dealer and trump in every paired deal.
    assert on.equals(off)
    binds = deals["bids"] == deals["hand_size"]
    assert not (deals["hook"] & binds).any()
    assert (~deals["hook"] & binds).any()


@pytest.mark.slow
def test_zero_bids_probe_arms_share_cards_and_bid_as_designed(outputs):
    data = read_study(outputs["zero_bids"])
    hands = data.hands
    assert set(hands["arm"].astype(str)) == {"-", *PROBE_ARMS}
    pairs = probe_pairs(data)
    assert len(pairs) == len(hands[(hands["arm"] == "zero") & (hands["seat"] == 0)])
    probe = hands[hands["part"] == "probe"]
    assert (probe["seat"] == 0).all()  # the probe keeps the probe seat's rows only
    deals = _deal_keys(probe, ["field", "players", "zero_table", "arm"])[["dealer", "trump"]]
    assert deals.xs("zero", level="arm").equals(
        deals.xs("alternative", level="arm").loc[deals.xs("zero", level="arm").index]
    )
    # The zero arm bids 0 unless 0 is the dealer's forbidden bid or it holds a boss
    # trump (a sure trick), which takes a trump.
    zero_arm = probe[(probe["arm"] == "zero")].reset_index(drop=True)
    others = zero_arm["others_bids"]
    trumps = pd.concat(
        [
            zero_arm[zero_arm["players"] == n][["game", "deal", "players"]]
            .reset_index()
            .merge(trump_holdings(rows, 7, int(n)), on=["game", "deal"])
            .query("seat == 0")
            .set_index("index")["trumps"]
            for n, rows in zero_arm.groupby("players", observed=True)
        ]
    ).reindex(zero_arm.index)
    seat0 = (zero_arm["seat"] == 0).to_numpy()
    nonzero = seat0 & (zero_arm["bid"] != 0).to_numpy()
    forbidden = (
        (zero_arm["seat"] == zero_arm["dealer"]) & (others == zero_arm["hand_size"])
    ).to_numpy()
    assert not (nonzero & ~forbidden & (trumps == 0).to_numpy()).any()
    assert (pairs["diff"] == pairs["zero_score"] - pairs["alt_score"]).all()
    assert (pairs.loc[pairs["alt_bid"] == 0, "diff"] == 0).all()


def test_trump_holdings_recreate_the_deals():
    result = simulate(Rules(players=4), ["learned", "simple", "zero", "learned"], 3, seed=11)
    hands = result.hands
    held = trump_holdings(hands, seed=11, players=4)
    per_deal = held.groupby(["game", "deal"])["trumps"].sum()
    sizes = hands.drop_duplicates(["game", "deal"]).set_index(["game", "deal"])["hand_size"]
    # At most 12 trumps are dealt (the 13th is turned up), never more than the cards dealt.
    assert (per_deal <= np.minimum(12, 4 * sizes)).all()
    assert (held["trumps"] <= hands["hand_size"].to_numpy()).all()
    with pytest.raises(AssertionError, match="recreated deal"):
        trump_holdings(hands.assign(trump=(hands["trump"] + 1) % 4), seed=11, players=4)


@pytest.mark.slow
def test_variant_scoring_plays_every_variant_on_the_same_cards(outputs):
    hands = read_study(outputs["variant_scoring"]).hands
    deals = _deal_keys(hands, ["players", "field", "variant"])[["dealer", "trump", "hand_size"]]
    first = None
    for _, frame in deals.groupby(level="variant", observed=True):
        frame = frame.droplevel("variant")
        if first is None:
            first = frame
        assert frame.equals(first)
    canonical = hands[hands["variant"] == "canonical"]
    made = canonical["bid"] == canonical["tricks"]
    assert (canonical.loc[made, "score"] == 10 + canonical.loc[made, "bid"]).all()
    assert (canonical.loc[~made, "score"] == 0).all()


@pytest.mark.slow
def test_ladder_challengers_meet_the_same_deal_sets(outputs):
    games = read_study(outputs["strategy_ladder"]).games
    units = games.groupby("challenger", observed=True)["unit"].agg(lambda u: sorted(set(u)))
    assert units.map(tuple).nunique() == 1
    challenger_rows = games[games["challenger_seat"]]
    # Each challenger holds every seat once per deal set (duplicate seating).
    seats = challenger_rows.groupby(["challenger", "unit"], observed=True)["seat"].nunique()
    assert (seats == 4).all()


@pytest.mark.slow
def test_ladder_sets_one_card_scores_beside_the_exact_values(outputs):
    hands = read_study(outputs["strategy_ladder"]).hands
    # Each challenger in every seat of ten times its gauntlet's games, one deal each.
    assert hands.groupby("strategy", observed=True).size().to_dict() == {
        "simple": 80 * 4,
        "random": 80 * 4,
    }
    exact = solve_one_card(Rules(players=4, schedule=[1]))
    page = _page(outputs["strategy_ladder"])
    assert f"4th (dealer) {exact.expected_score[3]:.3f}" in page.sections["findings"]
    cells = {column: [] for column, _ in page.cells}
    for column, cell in page.cells:
        cells[column].append(cell)
    dealer = hands[(hands["strategy"] == "random") & (hands["position"] == 3)]["score"]
    estimate, low, high = mean_ci(dealer.to_numpy())[:3]
    assert f"{estimate:.3f} [{low:.3f}, {high:.3f}]" in cells["4th (dealer)"]


# --- reports ----------------------------------------------------------------------


class _Page(HTMLParser):
    """Collects image sources, other resource links, the text of each section and the
    cells of every table (with their column headers), each cell's text joined across
    its inline markup."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.sections: dict[str, str] = {}
        self.cells: list[tuple[str, str]] = []
        self._section: str | None = None
        self._headers: list[str] = []
        self._column = -1
        self._tag: str | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        for key in ("href", "src"):
            if key in attrs and tag != "img":
                self.links.append(attrs[key])
        if tag == "section":
            self._section = attrs.get("id")
            self.sections[self._section] = ""
        if tag == "table":
            self._headers = []
        if tag == "tr":
            self._column = -1
        if tag in ("th", "td"):
            self._column += 1
            self._tag = tag
            self._text = ""

    def handle_endtag(self, tag):
        if tag == "section":
            self._section = None
        if tag == "th":
            self._headers.append(self._text)
        elif tag == "td":
            self.cells.append((self._headers[self._column], self._text))
        if tag in ("th", "td"):
            self._tag = None

    def handle_data(self, data):
        if self._section:
            self.sections[self._section] += data + " "
        if self._tag:
            self._text += data


def _page(folder: Path) -> _Page:
    page = _Page()
    page.feed((folder / HTML_FILE).read_text(encoding="utf-8"))
    return page


@pytest.mark.slow
def test_reports_are_self_contained_with_ci_tables(outputs):
    for name, folder in outputs.items():
        page = _page(folder)
        assert page.images, name
        assert all(src.startswith("data:image/png;base64,") for src in page.images), name
        assert not page.links, name
        assert {"setup", "method", "findings", "tables", "figures", "reproduce"} <= set(
            page.sections
        )
        assert "ohhell experiment" in page.sections["reproduce"]
        intervals = 0
        for column, cell in page.cells:
            numbers = re.fullmatch(r"(-?[\d.]+) \[(-?[\d.]+), (-?[\d.]+)\]", cell)
            if numbers:
                intervals += 1
                estimate, low, high = map(float, numbers.groups())
                assert low <= estimate <= high, (name, column, cell)
                if "rate" in column or "share" in column:
                    assert 0.0 <= low and high <= 1.0, (name, column, cell)
        assert intervals >= 5, name


@pytest.mark.slow
def test_finding_numbers_come_from_the_tables(outputs):
    # Every decimal number a finding states is a table cell computed from the data.
    for name, folder in outputs.items():
        page = _page(folder)
        cells = set(re.findall(r"-?\d+\.\d+", page.sections["tables"]))
        stated = re.findall(r"-?\d+\.\d+", page.sections["findings"])
        assert stated, name
        assert set(stated) <= cells, (name, set(stated) - cells)


#: The verdict each report's In short opens with: a pattern of its first sentence.
VERDICTS = {
    "hook_rule": r"The hook rules out the deals in which every player makes their bid .+ and costs "
    r"each player .+ points per game",
    "zero_bids": r"Under the canonical zero table .+, bid (0, .+ only with|what the hand is worth)",
    "variant_scoring": r"(At \d+ players, among players that all bid for the table, .+ skill "
    r"decide the game most|This run cannot say which scoring table lets skill decide the game)",
    "strategy_ladder": r"(\S+ (plays best|ranks first) against every field|The best strategy "
    r"depends on the field: .+), scoring .+ points per game",
}
#: A number the In short states: a decimal, or a percentage (a share of the tables' cells).
STATED = re.compile(r"(\d+(?:\.\d+)?)%|(\d+\.\d+)")


def _in_short(folder: Path) -> str:
    markdown = (folder / MARKDOWN_FILE).read_text(encoding="utf-8")
    return markdown.split("## In short\n", 1)[1].split("\n## ", 1)[0].strip()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_in_short_opens_with_the_verdict_in_200_words(outputs, name):
    text = _in_short(outputs[name])
    assert len(text.split()) <= 200, len(text.split())
    first = re.split(r"(?<=[.?!])\s+(?=[A-Z])", text)[0]
    assert re.fullmatch(VERDICTS[name] + r".*\.", first, re.DOTALL), first


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_in_short_numbers_come_from_the_tables(outputs, name):
    # As the tables print them, a cost said as a positive number and a share as a
    # percentage of the same digits (12.5% is the cell 0.125).
    # Counts (of fields, effects, players) are integers and not checked.
    cells = set(re.findall(r"\d+\.\d+", " ".join(cell for _, cell in _page(outputs[name]).cells)))
    stated = {
        str(Decimal(percent).scaleb(-2)) if percent else number
        for percent, number in STATED.findall(_in_short(outputs[name]))
    }
    assert stated <= cells, stated - cells


def _interval(values, clusters) -> str:
    estimate, low, high = clustered_mean_ci(np.asarray(values, float), np.asarray(clusters))[:3]
    return f"{estimate:.3f} [{low:.3f}, {high:.3f}]"


@pytest.mark.slow
def test_findings_match_numbers_recomputed_from_parquet(outputs):
    kept, _ = read_results(outputs["hook_rule"])  # a row per deal (hook_rule.deal_rows)
    deals = kept[~kept["hook"]].rename(columns={"hand_size": "size"})
    # Standardised over table sizes: the mean of the table sizes' rates, each weighing the same.
    binds = {
        field: standardised_mean_ci(
            (part["bids"] == part["size"]).to_numpy(float), part["players"], part["game"]
        )
        for field, part in deals.groupby("field", observed=True)
    }
    low = min(binds, key=lambda field: binds[field].estimate)
    assert binds[low].estimate == pytest.approx(
        deals[deals["field"] == low]
        .groupby("players", observed=True)
        .apply(lambda d: (d["bids"] == d["size"]).mean())
        .mean()
    )
    low_text = "{:.3f} [{:.3f}, {:.3f}]".format(*binds[low][:3])
    assert f"{low_text} ({low}) to " in _page(outputs["hook_rule"]).sections["findings"]

    hands, _ = read_results(outputs["zero_bids"])
    simple = hands[(hands["part"] == "observed") & (hands["field"] == "simple")]
    # Standardised: each (table size, hand size) stratum weighs the same.
    strata = simple["players"].astype(int) * 100 + simple["hand_size"].astype(int)
    estimate, low, high = standardised_mean_ci(simple["bid"] == 0, strata, simple["game"])[:3]
    rate = f"{estimate:.3f} [{low:.3f}, {high:.3f}]"
    assert (
        f"In the simple field, players bid 0 in {rate} of deals"
        in _page(outputs["zero_bids"]).sections["findings"]
    )

    _, games = read_results(outputs["variant_scoring"])
    mix = games[games["field"] == "mix"].astype({"variant": str, "strategy": str})
    ahead = {}
    for variant, part in mix.groupby("variant"):
        # Per game, each pair of seats of different strategies: is the stronger one ahead?
        means = part.groupby("strategy")["total"].mean()
        totals = part.pivot(index="game", columns="seat", values="total")
        strategy = part.drop_duplicates("seat").set_index("seat")["strategy"]
        wins = []
        for a, b in itertools.combinations(totals.columns, 2):
            if strategy[a] != strategy[b]:
                strong, weak = (a, b) if means[strategy[a]] >= means[strategy[b]] else (b, a)
                wins.append(
                    (totals[strong] > totals[weak]) + 0.5 * (totals[strong] == totals[weak])
                )
        ahead[variant] = f"{pd.concat(wins, axis=1).to_numpy().mean():.3f}"
    best = max(ahead.values(), key=float)
    findings = _page(outputs["variant_scoring"]).sections["findings"]
    assert any(
        f"4 players, mix: the stronger seat is ahead most often under {variant}, {best} ["
        in findings
        for variant, value in ahead.items()
        if value == best
    )

    _, games = read_results(outputs["strategy_ladder"])
    rows = games[
        games["challenger_seat"] & (games["challenger"] == "random") & (games["field"] == "simple")
    ]
    per_unit = rows.groupby("unit")["total"].mean().to_numpy()
    estimate, low, high = mean_ci(per_unit)[:3]
    last = re.escape(f" and random last with {estimate:.3f} [{low:.3f}, {high:.3f}]")
    assert re.search(
        r"Against simple: [^\n]*?" + last, _page(outputs["strategy_ladder"]).sections["findings"]
    )


@pytest.mark.slow
def test_report_command_rerenders_from_the_saved_analysis(outputs, tmp_path, capsys, monkeypatch):
    folder = outputs["variant_scoring"]

    def no_analysis(data):
        raise AssertionError("re-rendering must not redo the analysis")

    monkeypatch.setattr("ohhell_sim.studies.rendering.build_report", no_analysis)
    assert main(["report", "variant_scoring", "--input", str(folder), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert f"report written to {tmp_path}/ (report.md, report.html, " in printed
    assert "from the saved analysis" in printed and "data and analysis written" not in printed
    again = (tmp_path / HTML_FILE).read_text()
    before = (folder / HTML_FILE).read_text()
    # The same report, plus the report command in the reproduce section.
    assert again.split("<section id='reproduce'>")[0] == before.split("<section id='reproduce'>")[0]
    assert (
        f"ohhell report variant_scoring --input {command_path(folder)} "
        f"--out {command_path(tmp_path)}" in again
    )
    assert str(tmp_path) not in again  # no absolute path of this machine
    # By default the report goes beside the data, replacing the one rendered from it.
    assert main(["report", "variant_scoring", "--input", str(folder)]) == 0
    assert (folder / HTML_FILE).read_text() == before
    with pytest.raises(InvalidArgumentError, match="holds output of study 'variant_scoring'"):
        render_report(folder, tmp_path, name="hook_rule")


@pytest.mark.slow
def test_report_refuses_to_overwrite_another_report(outputs, tmp_path):
    committed = tmp_path / "committed"
    committed.mkdir()
    (committed / MARKDOWN_FILE).write_text("# a committed report\n")
    with pytest.raises(InvalidArgumentError, match="already holds a report"):
        render_report(outputs["hook_rule"], committed)
    assert (committed / MARKDOWN_FILE).read_text() == "# a committed report\n"
    render_report(outputs["hook_rule"], committed, overwrite=True)
    assert "# a committed report" not in (committed / MARKDOWN_FILE).read_text()


@pytest.mark.slow
def test_a_saved_analysis_without_its_data_renders_alone(outputs, tmp_path, capsys):
    # As a committed report does: analysis.json and the figures, no data.
    folder = tmp_path / "committed"
    saved = load_analysis(outputs["hook_rule"])
    folder.mkdir()
    for file in [ANALYSIS_FILE, *(f.name for f in saved.figures)]:
        (folder / file).write_bytes((outputs["hook_rule"] / file).read_bytes())
    assert main(["report", str(folder)]) == 0
    assert "from the saved analysis" in capsys.readouterr().out
    assert (folder / HTML_FILE).read_text() == (outputs["hook_rule"] / HTML_FILE).read_text()
    assert main(["report", "hook_rule", "--input", str(folder)]) == 0
    with pytest.raises(InvalidArgumentError, match="holds output of study 'hook_rule'"):
        render_report(folder, name="zero_bids")


@pytest.mark.slow
def test_old_output_without_saved_analysis_is_analysed_once(outputs, tmp_path):
    import shutil

    folder = tmp_path / "old"
    shutil.copytree(outputs["strategy_ladder"], folder)
    (folder / ANALYSIS_FILE).unlink()
    written = render_report(folder)
    assert "analysis recomputed from the data and saved" in written.note
    assert (folder / ANALYSIS_FILE).is_file()
    assert "from the saved analysis" in render_report(folder).note


def test_report_of_a_plain_simulate_run_still_works(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(
            [
                "simulate",
                "--players",
                "4",
                "--strategies",
                "simple,random,simple,random",
                "--games",
                "20",
                "--output",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["report", str(out), "--title", "Plain run"]) == 0
    assert capsys.readouterr().out.strip() == (
        f"report written to {out}/ (report.md, report.html, 2 PNG figures)"
    )
    text = (out / HTML_FILE).read_text()
    assert "<h1>Plain run</h1>" in text and "data:image/png;base64," in text
    page = _page(out)
    assert ("setting", "preset") in page.cells and "<style>" in text
    shares = [cell for column, cell in page.cells if column == "win_share"]
    assert len(shares) == 2
    assert all(re.fullmatch(r"-?[\d.]+ \[-?[\d.]+, -?[\d.]+\]", cell) for cell in shares)
    assert "-0.00" not in text


@pytest.mark.slow
def test_quickstart_runs_the_default_study(tmp_path, capsys):
    out = tmp_path / "quick"
    assert main(["quickstart", "--games", "6", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Running study hook_rule" in printed and "The hook rules out the deals" in printed
    manifest = read_study(out).manifest
    assert manifest["study"] == "hook_rule"
    assert manifest["command"] == (
        f"ohhell quickstart --games 6 --seed 0 --output {command_path(out)}"
    )
    # The method names the fields played, and only those.
    method = " ".join(load_analysis(out).method)
    assert "Fields (simple, card_counter: one strategy in every seat; mix: " in method
    assert "mc_bidder" not in method and "learned:" not in method
    assert {c["rules"]["players"] for c in manifest["conditions"]} == {4, 5}
    assert {c["label"]["field"] for c in manifest["conditions"]} == set(QUICKSTART_FIELDS)


REPORTS = Path(__file__).resolve().parent.parent / "reports"


@pytest.mark.parametrize("name", sorted(STUDY_NAMES))
def test_committed_reports_are_self_contained_and_consistent(name):
    page = _page(REPORTS / name)
    assert page.images and all(src.startswith("data:image/png;base64,") for src in page.images)
    assert not page.links
    stated = set(re.findall(r"-?\d+\.\d+", page.sections["findings"]))
    assert stated and stated <= set(re.findall(r"-?\d+\.\d+", page.sections["tables"]))
    assert f"ohhell experiment {name} " in page.sections["reproduce"]
    markdown = (REPORTS / name / MARKDOWN_FILE).read_text(encoding="utf-8")
    for figure in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown):
        assert (REPORTS / name / figure).is_file()
