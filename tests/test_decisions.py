"""Decision analysis and the advisor, checked against what is known.

* one-card deals: the analysis equals the exact solver (each bid's value and the
  best bid), and its mean cost at the first position equals the measured regret;
* a planted fault (``simple``'s play, leading its lowest card while it still
  needs tricks) is found as that situation's cost, first in the report;
* one decision analysed alone gives its row of a larger sample;
* the terms of the gap to a takeover player add up to the measured duplicate gap;
* the advisor agrees with the solver on one card, reads cards as players write
  them, and refuses positions that break the rules.

Sizes are small and the reference's precision loose, to keep the tests fast.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.analysis.report import write_report
from ohhell_sim.cards import parse_card
from ohhell_sim.cli.app import main
from ohhell_sim.decisions import Reference, advise, analyse_decisions, cost_by, decision_report
from ohhell_sim.engine.scoring import deal_points_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import one_card_rules, play_one_card, regret_table, solve_one_card
from ohhell_sim.strategies import mc_bidder, simple
from ohhell_sim.strategy.tools import lowest_card

LOOSE = Reference(precision=0.5, batch=32, max_samples=512)
ONE_CARD = oh.Rules(players=4, schedule=[1])


@pytest.fixture(scope="module")
def one_card_frame():
    return analyse_decisions(
        rules=ONE_CARD, strategies=["simple"] * 4, seed=3, games=200, decisions=None
    )


def _solver_values(solution, row):
    card = parse_card(row["hand"])
    turned = parse_card(re.search(r"turned (\S+)\)", row["trump"]).group(1))
    bids = [int(b) for b in re.findall(r": (\d+)", row["bids_seen"])]
    position = row["bid_position"]
    history = sum(b << q for q, b in enumerate(bids))
    chance = solution.win_probability[position, turned, card, history]
    moves = np.array([int(m) for m in row["moves"]])
    made = deal_points_array(moves, 1, 1, ONE_CARD)
    missed = deal_points_array(moves, 0, 1, ONE_CARD)
    return chance, chance * made + (1 - chance) * missed


def test_one_card_costs_are_the_exact_solvers(one_card_frame):
    solution = solve_one_card(one_card_rules(ONE_CARD))
    frame = one_card_frame
    assert set(frame["reference"]) == {"exact one-card solver"}
    checked = 0
    for _, row in frame.iterrows():
        chance, values = _solver_values(solution, row)
        if np.isnan(chance):
            continue  # a bid history the solved policy never makes
        np.testing.assert_allclose(row["values"], values)
        best = int(row["moves"][int(np.argmax(values))])
        chosen = row["moves"].index(row["chosen"]) if isinstance(row["moves"], list) else None
        assert row["best"] == str(best)
        assert row["cost"] == pytest.approx(values.max() - values[chosen])
        assert row["cost_low"] == row["cost"] == row["cost_high"]
        checked += 1
    assert checked > 0.8 * len(frame)


def test_one_card_first_position_cost_is_the_measured_regret(one_card_frame):
    # The first bidder's card wins or loses whatever the others bid: its mean cost
    # is its regret, which the engine measures over the same games.
    first = one_card_frame[one_card_frame["bid_position"] == 0]
    assert len(first) == 200
    regret = regret_table(
        solve_one_card(one_card_rules(ONE_CARD)),
        play_one_card(ONE_CARD, ["simple"], games=200, seed=3),
    ).set_index("position")
    row = regret.loc[0]
    assert row["regret_low"] <= first["cost"].mean() <= row["regret_high"]


@njit
def _lowest_lead_while_short(view, params, rng):
    # ``simple``'s play, but it leads its lowest card while it still needs tricks.
    me = view[V.SEAT]
    if view[V.N_IN_TRICK] == 0 and view[V.TRICKS_WON_BASE + me] < view[V.BIDS_BASE + me]:
        return lowest_card(view[V.LEGAL])
    return simple.play(view, params, rng)


@pytest.fixture(scope="module")
def faulty():
    # mc_bidder's bid (the reference's own evaluation, so the bids cost little) and
    # simple's play with the fault; the package's functions compile once per machine.
    strategy = oh.register_strategy(
        "ut_low_lead",
        mc_bidder.bid,
        _lowest_lead_while_short,
        params={"samples": 64.0},
        description="mc_bidder's bid, simple's play leading its lowest card while short",
    )
    yield strategy.name
    oh.unregister_strategy(strategy.name)


@pytest.mark.slow
def test_a_planted_fault_is_the_costliest_situation(faulty, tmp_path):
    frame = analyse_decisions(
        rules=oh.Rules(players=4, schedule=[7]),
        strategies=[faulty, "simple", "simple", "simple"],
        seed=5,
        games=40,
        decisions=None,
        seats=[0],
        reference=LOOSE,
    )
    assert set(frame["strategy"]) == {faulty}
    by_situation = cost_by(frame, "situation")
    assert by_situation.iloc[0]["situation"] == "card, lead, needs tricks"
    assert by_situation.iloc[0]["low"] > 0
    report = decision_report(frame)
    assert report.tables[1].frame.iloc[0]["situation"] == "card, lead, needs tricks"
    written = write_report(report, tmp_path)
    assert "card, lead, needs tricks" in written.markdown.read_text()
    assert written.html.is_file() and len(written.figures) == 2


def test_a_decision_alone_gives_its_row_of_a_sample():
    kwargs = dict(
        rules=oh.Rules(players=4, schedule=[4]),
        strategies=["simple"] * 4,
        seed=11,
        games=2,
        reference=LOOSE,
    )
    sample = analyse_decisions(**kwargs, decisions=6)
    row = sample.iloc[-1]
    where = (row["game"], row["deal"], row["seat"], row["step"])
    alone = analyse_decisions(**kwargs, decisions=[where]).iloc[0]
    assert alone["values"] == row["values"] and alone["cost"] == row["cost"]
    assert sample.attrs["reference"]["name"] == "adaptive_pimc search"
    assert sample.attrs["reference"]["precision"] == 0.5
    assert all(sample["cost_low"] - 1e-12 <= sample["cost"]) and all(
        sample["cost"] <= sample["cost_high"] + 1e-12
    )


def test_a_run_written_to_parquet_is_analysed_from_its_metadata(tmp_path):
    rules = oh.Rules(players=3, schedule=[3])
    result = oh.simulate(rules, ["simple"] * 3, games=4, seed=8)
    folder = result.to_parquet(tmp_path / "run")
    from_file = analyse_decisions(folder, games=2, decisions=5, reference=LOOSE)
    direct = analyse_decisions(
        rules=rules, strategies=["simple"] * 3, seed=8, games=2, decisions=5, reference=LOOSE
    )
    assert from_file[["game", "deal", "seat", "step", "cost"]].equals(
        direct[["game", "deal", "seat", "step", "cost"]]
    )
    with pytest.raises(InvalidArgumentError, match="games must lie"):
        analyse_decisions(folder, games=[7])


def test_forehead_rules_are_analysed_but_the_forehead_bids():
    frame = analyse_decisions(
        rules=oh.Rules(players=3, schedule=[1, 3], forehead=True),
        strategies=["simple"] * 3,
        seed=2,
        games=2,
        decisions=None,
        reference=LOOSE,
    )
    assert set(frame["hand_size"]) == {3}
    assert set(frame["phase"]) == {"bid", "card"}


def test_the_gap_terms_add_up_to_the_duplicate_gap_game_by_game():
    # A deterministic takeover player: the terms are exact, so is their sum.
    rules = oh.Rules(players=4, schedule=[5, 3])
    seats = ["random", "card_counter", "card_counter", "card_counter"]
    frame = analyse_decisions(
        rules=rules,
        strategies=seats,
        seed=5,
        games=4,
        decisions=None,
        seats=[0],
        reference=Reference(precision=5.0, batch=8, max_samples=8),
        takeover="card_counter",
    )
    assert frame.attrs["takeover"] == {"player": "card_counter", "rollouts": 1}
    assert (frame["gap"] != 0).any() and (frame["gap"] == 0).any()
    measured = []
    for game in range(4):
        own = oh.replay(rules, seats, seed=5, game=game).totals[0]
        taken = oh.replay(rules, ["card_counter", *seats[1:]], seed=5, game=game).totals[0]
        measured.append(taken - own)
        assert frame.loc[frame["game"] == game, "gap"].sum() == taken - own
    total = cost_by(frame.assign(all="all"), "all", column="gap").iloc[0]
    assert total["estimate"] == pytest.approx(np.mean(measured))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(rules=oh.Rules(players=4), takeover="simple", rollouts=0), "rollouts must be"),
        (dict(rules=oh.Rules(players=4, decks=2)), "decks=2"),
        (dict(rules=oh.Rules(players=4), decisions=[(0, 0, 0, 9)]), r"\(0, 0, 0, 9\)"),
        (dict(rules=oh.Rules(players=4), seats=[4]), "seats must be"),
        (dict(rules=oh.Rules(players=4), reference="fast"), "reference must be"),
    ],
)
def test_bad_analysis_arguments_are_named(kwargs, message):
    kwargs.setdefault("strategies", ["random"] * 4)
    with pytest.raises(InvalidArgumentError, match=message):
        analyse_decisions(games=1, **kwargs)


def test_advice_on_one_card_is_the_solvers():
    solution = solve_one_card(one_card_rules(ONE_CARD))
    frame = advise("10D", position=0, turned="7S")
    chance = solution.win_probability[0, parse_card("7S"), parse_card("10D"), 0]
    expected = chance * deal_points_array(np.array([0, 1]), 1, 1, ONE_CARD) + (
        1 - chance
    ) * deal_points_array(np.array([0, 1]), 0, 1, ONE_CARD)
    by_bid = frame.set_index("move")["value"]
    assert by_bid[0] == pytest.approx(expected[0]) and by_bid[1] == pytest.approx(expected[1])
    assert frame.attrs["reference"] == "exact one-card solver"


def test_advice_in_play_prefers_the_sure_trick():
    # Bid one at no trump, leading: the ace takes its trick now; the two led first
    # may win, or leave the ace no heart to take.
    frame = advise("AH 2C", position=0, trump="N", bids=[1, 0, 0, 0], reference=LOOSE, seed=1)
    assert frame.attrs["phase"] == "card"
    assert frame.iloc[0]["move"] == "A♥" and frame.iloc[0]["best"]
    assert frame.iloc[1]["loss_low"] > 0
    # Scored with made=10*bid, a bid of 0 on a sure trick loses more than under 10+bid.
    ten = advise("AS", position=1, turned="2S", bids=[0], rules=oh.Rules(players=4, made="10*bid"))
    assert ten.iloc[0]["move"] == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(hand="AS AS"), "given twice"),
        (dict(hand="AS 1S"), "cannot parse card"),
        (dict(hand="AS KS", bids=[0]), "position 1 is to move"),
        (dict(hand="AS KS", trump="H", turned="2S"), "differs from the suit"),
        (dict(hand="AS KS", trump="X"), "cannot parse suit"),
        (dict(hand="AS KS", bids=[3], position=1), "break the rules"),
        (dict(hand="AS", rules=oh.Rules(players=4, forehead=True)), "forehead=True"),
        (dict(hand="AS", rules=oh.Rules(players=4, swap=1)), "swap=1"),
    ],
)
def test_bad_positions_are_refused(kwargs, message):
    kwargs.setdefault("position", 0)
    kwargs.setdefault("trump", "S") if "turned" not in kwargs else None
    with pytest.raises(InvalidArgumentError, match=message):
        advise(reference=LOOSE, **kwargs)


def test_the_commands_analyse_and_advise(tmp_path, capsys):
    assert (
        main(
            [
                "advise",
                "--hand",
                "AS KH 10D",
                "--position",
                "1",
                "--turned",
                "7S",
                "--bids",
                "1",
                "--precision",
                "0.5",
                "--max-samples",
                "256",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("bid: expected points") and "<- best" in out
    report = tmp_path / "report"
    args = ["analyse", "--players", "3", "--schedule", "3", "--strategies", "simple"]
    args += ["--games", "2", "--decisions", "4", "--precision", "0.5", "--max-samples", "256"]
    args += ["--takeover", "card_counter", "--rollouts", "2"]
    assert main([*args, "--output", str(tmp_path / "d.parquet"), "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "4 decisions analysed" in out and (report / "report.html").is_file()
    assert "taking the seat over, card_counter would gain" in out
    assert "The gap to card_counter, by situation" in (report / "report.md").read_text()
    assert oh.read_frame(tmp_path / "d.parquet").attrs["reference"]["max_samples"] == 256


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["advise", "--hand", "AS", "--position", "9", "--trump", "S"], "position must be"),
        (["advise", "--hand", "AS", "--position", "0", "--precision", "0"], "precision must"),
        (["analyse", "--decision", "1,2,3"], "GAME,DEAL,SEAT,STEP"),
        (["analyse", "--seats", "0,x"], "--seats expects"),
    ],
)
def test_bad_options_are_named_before_any_work(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert re.search(message, capsys.readouterr().err)
