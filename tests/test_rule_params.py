"""The parameter table: every parameter from text as from Python, its listing, the rules page,
the NumPy scoring twin against the kernel's, and the bidding position."""

from __future__ import annotations

import ast
import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from ohhell_sim import reference
from ohhell_sim.cli import build_parser, main, rules_from_args
from ohhell_sim.engine.scoring import deal_points_array, forbidden_bid_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import (
    MADE_TABLES,
    MISS_TABLES,
    PARAMS,
    ZERO_TABLES,
    Rules,
    bidding_position,
    layout,
    parse_rule_assignment,
    rules_from_options,
)
from ohhell_sim.rules.listing import markdown_table, rule_table_section, with_rule_table
from ohhell_sim.rules.params import BoolParam, IntParam, ScheduleParam

ROOT = Path(__file__).resolve().parents[1]
#: Bases the samples are tried on: the canonical rules, and without the hook
#: (which closed bids need).
BASES = ({}, {"hook": False})


def _cli_rules(*options: str) -> Rules:
    """Rules as ``ohhell simulate OPTIONS`` builds them (argparse included)."""
    return rules_from_args(build_parser().parse_args(["simulate", *options]))


def _outcome(build, *args, **kwargs):
    """What ``build(*args, **kwargs)`` gives: the rules, or the error message."""
    try:
        return build(*args, **kwargs)
    except InvalidArgumentError as error:
        return f"error: {error}"


def _text_and_python(param, value, base):
    """The rules (or error) from ``--rule`` texts, and from Python, for ``base`` + the value."""
    # A rule given twice is refused on the command line, so the value replaces the base's.
    options = [arg for k, v in base.items() if k != param.name for arg in ("--rule", f"{k}={v}")]
    text = _outcome(_cli_rules, *options, "--rule", f"{param.name}={param.show(value)}")
    python = _outcome(Rules, **{**base, param.name: value})
    return text, python


def _samples():
    # The derived schedule (None) has no text: it is the default.
    return [
        pytest.param(param, value, id=f"{param.name}={param.show(value)}")
        for param in PARAMS
        for value in param.samples()
        if value is not None
    ]


# --- the table is the dataclass -----------------------------------------------------


def test_table_lists_every_field_in_order_with_its_default():
    fields = dataclasses.fields(Rules)
    assert [p.name for p in PARAMS] == [f.name for f in fields]
    assert [p.default for p in PARAMS] == [f.default for f in fields]
    rules = Rules()
    for param in PARAMS:
        if param.name != "schedule":
            assert getattr(rules, param.name) == param.default
    for param in PARAMS:
        assert param.doc and param.allowed and param.type_name
        assert "\n" not in param.doc


def test_every_slot_of_the_array_is_filled_once():
    slots = [p.slot for p in PARAMS if p.slot is not None]
    assert len(slots) == len(set(slots))
    named = {v for k, v in vars(layout).items() if k.startswith("R_")}
    assert set(slots) | {layout.R_N_DEALS} == named
    assert all(0 <= s < layout.RULES_SIZE for s in named)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (
            {
                "players": 8,
                "decks": 2,
                "schedule": [3, 2],
                "hook": False,
                "closed_bids": True,
                "nullo": True,
                "trump": "CDHSN",
                "no_trump_every": 5,
                "joker": True,
                "tiebreak": True,
                "made": "5+bid",
                "zero": "10+cards",
                "over": "-10*diff",
                "under": "-diff^2",
                "all_bonus": 10,
                "double_all": True,
                "trick_points": 3,
            },
            {
                "R_PLAYERS": 8,
                "R_N_DEALS": 2,
                "R_HOOK": 0,
                "R_MADE": 4,
                "R_ZERO": 3,
                "R_OVER": 4,
                "R_UNDER": 3,
                "R_ALL_BONUS": 10,
                "R_DOUBLE_ALL": 1,
                "R_TRICK_POINTS": 3,
                "R_DECKS": 2,
                "R_JOKER": 1,
                "R_TRUMP_MODE": 3,
                "R_NO_TRUMP_EVERY": 5,
                "R_CLOSED_BIDS": 1,
                "R_NULLO": 1,
                "R_TIEBREAK": 1,
            },
        ),
        (
            {"players": 3, "swap": 2, "fault_limit": 20, "made": "10*bid", "trump": "SDCH"},
            {
                "R_PLAYERS": 3,
                "R_N_DEALS": 19,
                "R_HOOK": 1,
                "R_MADE": 1,
                "R_TRICK_POINTS": 1,
                "R_DECKS": 1,
                "R_TRUMP_MODE": 1,
                "R_SWAP": 2,
                "R_FAULT_LIMIT": 20,
            },
        ),
    ],
)
def test_to_array_layout_and_values(kwargs, expected):
    # Written out index by index: the kernel reads these fixed slots.
    want = np.zeros(layout.RULES_SIZE, dtype=np.int64)
    for name, value in expected.items():
        want[getattr(layout, name)] = value
    got = Rules(**kwargs).to_array()
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


# --- from text as from Python -------------------------------------------------------


def test_parse_rule_assignment():
    assert parse_rule_assignment("max_cards=7") == ("max_cards", 7)
    assert parse_rule_assignment("max_cards=deck") == ("max_cards", "deck")
    assert parse_rule_assignment(" max-cards = 7 ") == ("max_cards", 7)
    assert parse_rule_assignment("hook=OFF") == ("hook", False)
    assert parse_rule_assignment("made=10*bid") == ("made", "10*bid")
    assert parse_rule_assignment("schedule=3, 2,1") == ("schedule", (3, 2, 1))
    assert parse_rule_assignment("players=5") == ("players", 5)


def test_max_cards_from_the_command_line():
    # The defect: --rule max_cards=7 was refused as the string '7'.
    rules = _cli_rules("--rule", "max_cards=7")
    assert rules == Rules(max_cards=7)
    assert rules.schedule == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


@pytest.mark.parametrize(("param", "value"), _samples())
def test_every_sample_from_text_is_the_python_value(param, value):
    for base in BASES:
        text, python = _text_and_python(param, value, base)
        assert text == python, (base, text, python)


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.name)
def test_every_parameter_takes_a_non_default_value_from_text(param):
    built = []
    for value, base in itertools.product(param.samples(), BASES):
        if value is None or value == param.default:
            continue
        text, python = _text_and_python(param, value, base)
        if isinstance(text, Rules):
            assert getattr(text, param.name) == value
            assert text == python
            built.append(value)
    assert built, f"no non-default value of {param.name} builds rules from text"


def _bad_texts(param):
    texts = ["nope", "1.5", ""]
    if isinstance(param, IntParam):
        texts += [str(param.low - 1), str(param.high + 1)]
    if isinstance(param, ScheduleParam):
        texts += ["3,x", ",", "3,0"]
    return texts


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.name)
def test_bad_text_names_parameter_value_and_what_is_allowed(param):
    for text in _bad_texts(param):
        with pytest.raises(InvalidArgumentError) as info:
            parse_rule_assignment(f"{param.name}={text}")
        message = str(info.value)
        assert "\n" not in message
        assert message.startswith(param.name), message
        # Out of range, the number is shown as a number.
        assert repr(text) in message or message.endswith(f"got {text}"), message
        allowed = "true or false" if isinstance(param, BoolParam) else param.allowed
        assert allowed in message, message


def test_unknown_name_and_missing_equals_sign_list_the_parameters():
    for text in ("colour=red", "hook"):
        with pytest.raises(InvalidArgumentError) as info:
            parse_rule_assignment(text)
        assert "max_cards" in str(info.value) and "trick_points" in str(info.value)


@pytest.mark.parametrize("schedule", ["", " ", ","])
def test_empty_schedule_option_is_an_error(schedule, capsys):
    with pytest.raises(InvalidArgumentError, match="schedule"):
        rules_from_options(schedule=schedule)
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--schedule", schedule, "--games", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "schedule must be" in err and repr(schedule) in err


def test_options_apply_in_order():
    rules = rules_from_options("online", 5, "3,2,1", ["players=3", "hook=false"])
    assert rules == Rules.preset("online", players=3, schedule=[3, 2, 1], hook=False)


# --- listings -----------------------------------------------------------------------


def test_rules_command_lists_every_parameter(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for param in PARAMS:
        assert f"{param.name}={param.show(param.default)}" in out
        assert param.allowed in out
        for variant in param.variants:
            assert variant.id in out
    assert main(["rules", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in records] == [p.name for p in PARAMS]
    assert [r["default"] for r in records] == [p.show(p.default) for p in PARAMS]


def test_docs_table_is_the_parameter_table():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    # To refresh it: path.write_text(with_rule_table(path.read_text())).
    assert rule_table_section(page) == markdown_table(), "docs/rules.md's rule table is stale"
    assert with_rule_table(page) == page


def test_rules_docstring_documents_every_parameter():
    for param in PARAMS:
        assert f"    {param.name} : {param.type_name}\n" in Rules.__doc__


# --- scoring over arrays: the engine's rules against the reference engine's ----------


def _outcome_grid(most: int):
    cells = [(h, b, t) for h in range(1, most + 1) for b in range(h + 1) for t in range(h + 1)]
    sizes, bids, tricks = (np.array(c, dtype=np.int64) for c in zip(*cells, strict=True))
    return bids, tricks, sizes


@pytest.mark.parametrize("made", MADE_TABLES)
def test_array_scoring_equals_the_reference_engine(made):
    # The engine's scoring (core.deal_points, applied over arrays) against the
    # reference engine's own, written apart: every table, bid, count and size.
    bids, tricks, sizes = _outcome_grid(7)
    for zero, over, under, bonus, double, k in itertools.product(
        ZERO_TABLES, MISS_TABLES, MISS_TABLES, (0, 10), (False, True), (1, 3)
    ):
        rules = Rules(
            made=made,
            zero=zero,
            over=over,
            under=under,
            all_bonus=bonus,
            double_all=double,
            trick_points=k,
        )
        points = deal_points_array(bids, tricks, sizes, rules)
        assert points.dtype == np.int64
        expected = [reference.score(rules, *cell) for cell in zip(bids, tricks, sizes, strict=True)]
        np.testing.assert_array_equal(points, expected, err_msg=str(rules))


def test_array_scoring_broadcasts_and_spot_values():
    rules = Rules(made="10+bid^2", zero="5+cards", over="-10*diff", under="taken")
    assert int(deal_points_array(3, 3, 7, rules)) == 19
    assert int(deal_points_array(0, 0, 7, rules)) == 12
    assert int(deal_points_array(1, 4, 7, rules)) == -30
    assert int(deal_points_array(5, 2, 7, rules)) == 2
    grid = deal_points_array(np.arange(3)[:, None], np.arange(3)[None, :], 2, rules)
    assert grid.shape == (3, 3)
    assert grid.tolist() == [[7, -10, -20], [0, 11, -10], [0, 1, 14]]


@pytest.mark.parametrize("hook", [True, False])
@pytest.mark.parametrize("hook_one_card", [True, False])
def test_forbidden_bid_array_equals_the_reference_engine(hook, hook_one_card):
    rules = Rules(hook=hook, hook_one_card=hook_one_card)
    sizes, others = (
        np.array(c, dtype=np.int64)
        for c in zip(*[(h, o) for h in range(1, 18) for o in range(9 * h + 1)], strict=True)
    )
    expected = [
        -1 if (b := reference.forbidden_dealer_bid(rules, int(h), int(o))) is None else b
        for h, o in zip(sizes, others, strict=True)
    ]
    np.testing.assert_array_equal(forbidden_bid_array(sizes, others, rules), expected)


# --- the bidding position --------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 11))
def test_bidding_position_counts_from_the_dealers_left(players):
    for dealer in range(players):
        order = [(dealer + 1 + k) % players for k in range(players)]
        positions = bidding_position(order, dealer, players)
        assert positions.tolist() == list(range(players))
        assert positions[-1] == players - 1 and order[-1] == dealer


# --- only replay reaches the reference engine -------------------------------------------

#: Modules that may import the reference engine: the replay path (the package's
#: ``replay`` export, ``ohhell replay``, and the strategy check, which replays games
#: with a strategy's Python code) and the study that replays deals to recreate the
#: hands dealt.
REFERENCE_IMPORTERS = {
    "ohhell_sim/__init__.py",
    "ohhell_sim/cli/replay.py",
    "ohhell_sim/run/strategy_check.py",
    "ohhell_sim/studies/holdings.py",
    # The step-by-step environments play the reference engine's game, as replay does.
    "ohhell_sim/env/stepper.py",
    "ohhell_sim/env/seat.py",
    # OpenSpiel states are read into the reference engine's table and view.
    "ohhell_sim/interop/openspiel.py",
    # The decision analysis replays a run's games to reach each decision it values,
    # and the advisor reads a typed position into the reference engine's table.
    "ohhell_sim/decisions/analyse.py",
    "ohhell_sim/decisions/advise.py",
    # The gap to a takeover player plays the real deal on from each decision.
    "ohhell_sim/decisions/takeover.py",
    # distilled's trainer keeps the views and hands of the games it plays.
    "ohhell_sim/training/distilled.py",
}


def _imports_reference(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.module == "ohhell_sim.reference":
                return True
            if node.module == "ohhell_sim" and any(a.name == "reference" for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(
            a.name == "ohhell_sim.reference" for a in node.names
        ):
            return True
    return False


def test_production_code_reaches_the_reference_engine_only_to_replay():
    found = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "ohhell_sim").rglob("*.py")
        if path.name != "reference.py" and _imports_reference(path)
    }
    assert found <= REFERENCE_IMPORTERS, sorted(found - REFERENCE_IMPORTERS)
