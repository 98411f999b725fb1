"""The house_rules study: its design, its measures recounted by hand, its verdicts and report."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.rules import Rules, bidding_position
from ohhell_sim.studies import house_rules as hr
from ohhell_sim.studies import run_experiment
from ohhell_sim.studies.experiment import load_report
from ohhell_sim.studies.runs import read_study

PLAYERS = (3, 4)
GAMES = 6


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """The study at a tiny size through ``run_experiment``: (data, report)."""
    out = tmp_path_factory.mktemp("house_rules")
    run_experiment(hr.NAME, out, games=GAMES, seed=3, players=PLAYERS, progress=False)
    report, _ = load_report(out)
    return read_study(out), report


@pytest.mark.parametrize("players", range(3, 8))
def test_schedules_of_the_house_rules(players):
    canonical = Rules(players=players).schedule
    even = hr.even_schedule(players)["schedule"]
    assert len(even) % players == 0 and even[: len(canonical)] == canonical
    assert len(even) - len(canonical) < players
    round_ = hr.one_card_round(players)["schedule"]
    assert round_.count(1) == players
    assert [s for s in round_ if s != 1] == [s for s in canonical if s != 1]
    # Every seat deals one of the one-card deals: they are consecutive.
    first = round_.index(1)
    assert round_[first : first + players] == (1,) * players


def test_conditions_exchange_the_two_strategies_on_the_same_games():
    conditions = hr.conditions(5, (3, 4))
    assert len(conditions) == len(hr.HOUSE_RULES) * 2 * 2 * 2
    by_label = {tuple(c.label.values()): c for c in conditions}
    for field, (stronger, weaker) in hr.FIELD_PAIRS.items():
        for n in (3, 4):
            for rule in hr.RULE_NAMES:
                first = by_label[(n, field, 0, rule)]
                second = by_label[(n, field, 1, rule)]
                assert first.seats == tuple((stronger, weaker)[i % 2] for i in range(n))
                assert second.seats == tuple((weaker, stronger)[i % 2] for i in range(n))
                assert first.games == second.games == 5
    hooks = {c.label["rule"]: c.rules for c in conditions if c.label["players"] == 4}
    assert hooks["no hook"].hook is False
    assert hooks["no hook on the one-card deal"].hook_one_card is False


def _by_hand(hands: pd.DataFrame, games: pd.DataFrame, condition: int, game: int) -> dict:
    """The measures of one game of one condition, counted seat by seat."""
    seats = games[(games["condition"] == condition) & (games["game"] == game)]
    deals = hands[(hands["condition"] == condition) & (hands["game"] == game)]
    field, n = seats["field"].iloc[0], int(seats["players"].iloc[0])
    totals = dict(zip(seats["seat"], seats["total"], strict=True))
    stronger = [
        s
        for s, name in zip(seats["seat"], seats["strategy"], strict=True)
        if name == hr.FIELD_PAIRS[field][0]
    ]
    weaker = [s for s in totals if s not in stronger]
    ahead = [
        1.0 if totals[a] > totals[b] else 0.5 if totals[a] == totals[b] else 0.0
        for a in stronger
        for b in weaker
    ]
    ranked = sorted(totals.values(), reverse=True)
    running, last, changes = dict.fromkeys(totals, 0), None, 0
    for _, deal in deals.sort_values(["deal", "seat"]).groupby("deal"):
        for seat, score in zip(deal["seat"], deal["score"], strict=True):
            running[seat] += score
        top = max(running.values())
        leaders = [s for s, v in running.items() if v == top]
        if len(leaders) == 1:
            if last is not None and leaders[0] != last:
                changes += 1
            last = leaders[0]

    def role_gap(role):
        inside = [totals[s] for s in role]
        outside = [totals[s] for s in totals if s not in role]
        return np.mean(inside) - np.mean(outside) if inside and outside else np.nan

    dealer = int(deals.loc[deals["deal"] == 0, "dealer"].iloc[0])
    first = next(s for s in range(n) if bidding_position(s, dealer, n) == 0)
    one_card = set(deals.loc[deals["hand_size"] == 1, "dealer"])
    return {
        hr.AHEAD: np.mean(ahead),
        hr.SKILL_POINTS: np.mean([totals[s] for s in stronger])
        - np.mean([totals[s] for s in weaker]),
        hr.FIRST_SEAT: role_gap({first}),
        hr.ONE_CARD: role_gap(one_card),
        hr.LEAD_CHANGES: changes,
        hr.MARGIN: ranked[0] - ranked[1],
        hr.TIES: float(ranked[0] == ranked[1]),
        hr.DEALS: deals["deal"].nunique(),
    }


def test_measures_match_a_count_seat_by_seat(study):
    data, _ = study
    measures = hr.game_measures(data.hands, data.games).set_index(
        ["rule", "field", "players", "game"]
    )
    manifest = data.manifest["conditions"]
    checked = 0
    for rule in ("no hook", "schedule 1 to most to 1", "every seat deals a one-card deal"):
        for field in hr.FIELDS:
            for game in (0, GAMES - 1):
                n = 3 if game == 0 else 4
                pair = [
                    i
                    for i, c in enumerate(manifest)
                    if c["label"] == {"players": n, "field": field, "order": 0, "rule": rule}
                    or c["label"] == {"players": n, "field": field, "order": 1, "rule": rule}
                ]
                counted = [_by_hand(data.hands, data.games, c, game) for c in pair]
                row = measures.loc[(rule, field, n, game)]
                for measure in hr.MEASURES:
                    expected = np.mean([c[measure] for c in counted])
                    assert row[measure] == pytest.approx(expected, nan_ok=True), (
                        rule,
                        field,
                        game,
                        measure,
                    )
                checked += 1
    assert checked == 12


def test_effects_are_differences_from_the_canonical_game_on_the_same_cards(study):
    data, _ = study
    measures = hr.game_measures(data.hands, data.games)
    diffs = hr.effects(measures).set_index(["rule", "field", "players", "game", "measure"])
    base = measures[measures["rule"] == hr.CANONICAL].set_index(["field", "players", "game"])
    rule = measures[measures["rule"] == "zero = 10+cards"].set_index(["field", "players", "game"])
    for key in rule.index[:5]:
        expected = rule.loc[key, hr.MARGIN] - base.loc[key, hr.MARGIN]
        assert diffs.loc[("zero = 10+cards", *key, hr.MARGIN), "value"] == expected
    assert hr.CANONICAL not in set(diffs.index.get_level_values("rule"))
    # The schedules' lengths are exact, not estimated.
    deals = diffs.xs(hr.DEALS, level="measure")["value"]
    assert set(deals.xs("short game, most down to 1", level="rule")) == {-9.0}
    assert set(deals.xs("every seat deals a one-card deal", level="rule")) == {2.0, 3.0}


def _found(rule, measure, field, estimate, established=True):
    return pd.DataFrame(
        [
            {
                "rule": rule,
                "measure": measure,
                "field": field,
                "estimate": estimate,
                "established": established,
            }
        ]
    )


def _sizes(rule, measure, field, lows_highs):
    return pd.DataFrame(
        [
            {
                "rule": rule,
                "measure": measure,
                "field": field,
                "players": 3 + i,
                "low": lo,
                "high": hi,
            }
            for i, (lo, hi) in enumerate(lows_highs)
        ]
    )


@pytest.mark.parametrize(
    ("canonical_gap", "shift", "cells", "word"),
    [
        (-2.0, 1.5, [(0.5, 2.5), (0.1, 3.0)], "fairer"),
        (-2.0, 5.0, [(4.0, 6.0), (3.0, 7.0)], "less fair"),
        (2.0, -1.0, [(-2.0, -0.5), (-1.5, 0.2)], "fairer"),
        # Established when pooled, but one table size goes each way: no claim.
        (-2.0, 1.5, [(0.5, 2.5), (-3.0, -0.2)], hr.OPPOSITE_SIZES),
    ],
)
def test_a_fairness_effect_is_judged_against_the_canonical_gap(canonical_gap, shift, cells, word):
    rule = "no hook on the one-card deal"
    found = _found(rule, hr.ONE_CARD, "weak", shift)
    baseline = pd.Series({(hr.ONE_CARD, "weak"): canonical_gap})
    sizes = _sizes(rule, hr.ONE_CARD, "weak", cells)
    assert hr._direction(found, baseline, sizes, rule, hr.ONE_CARD, "weak") == word
    unfound = found.assign(established=False)
    assert hr._direction(unfound, baseline, sizes, rule, hr.ONE_CARD, "weak") == ""


def test_verdicts_join_the_fields_and_costs_read_tension_and_length():
    rule = "made = 10*bid"
    found = pd.concat(
        [
            _found(rule, hr.AHEAD, "weak", -0.02),
            _found(rule, hr.AHEAD, "strong", -0.03),
            _found(rule, hr.MARGIN, "strong", 4.0),
            _found(rule, hr.LEAD_CHANGES, "weak", 0.3, established=False),
        ]
    )
    sizes = _sizes(rule, hr.AHEAD, "weak", [(-0.05, -0.01)])
    found = pd.concat([found, _found(rule, hr.ONE_CARD, "weak", 0.1, established=False)])
    judged = hr.judgements(found, pd.Series(dtype=float), sizes)
    verdict = hr.verdicts(judged, found).set_index("rule")
    assert verdict.loc[rule, "skill"] == "more luck (both fields)"
    assert verdict.loc[rule, "tension"] == "wider margins (strong field)"
    assert verdict.loc["no hook", "skill"] == "no change found"
    verdict["length"] = "+1 to +3 deals per game"
    assert hr.costs(verdict.reset_index())[rule] == (
        "wider margins (strong field); +1 to +3 deals per game"
    )


def test_advice_adopts_what_helps_in_both_fields_and_weighs_trade_offs():
    judged = pd.DataFrame(
        [
            ("a", hr.AHEAD, "weak", "more skill"),
            ("a", hr.ONE_CARD, "strong", "fairer"),
            ("b", hr.ONE_CARD, "strong", "fairer"),
            ("b", hr.MARGIN, "weak", "wider margins"),
            ("c", hr.AHEAD, "weak", "more skill"),
            ("c", hr.ONE_CARD, "weak", "less fair"),
            ("d", hr.AHEAD, "strong", "more luck"),
            ("e", hr.AHEAD, "strong", hr.OPPOSITE_SIZES),
        ],
        columns=["rule", "measure", "field", "word"],
    )
    names = dict(zip("abcde", hr.RULE_NAMES[1:6], strict=True))
    judged["rule"] = judged["rule"].map(names)
    advised = hr.advice(judged)
    assert advised == {
        "adopt": [names["a"]],
        "one field": [names["b"]],
        "weigh": [names["c"]],
        "avoid": [names["d"]],
    }


def test_report_answers_first_in_few_words_with_numbers_from_its_tables(study):
    _, report = study
    text = " ".join(report.in_short)
    assert report.in_short[0].startswith("For a skilful, fair game ")
    assert len(text.split()) <= 200
    cells = " ".join(
        " ".join([t.title, t.note, *t.frame.astype(str).to_numpy().ravel()]) for t in report.tables
    )
    numbers = re.findall(r"-?\d+(?:\.\d+)?", text)
    assert numbers and all(number in cells for number in numbers), numbers
    titles = [t.title for t in report.tables]
    assert titles[0].startswith("One verdict per house rule")
    verdict = report.tables[0].frame
    assert list(verdict["rule"]) == list(hr.RULE_NAMES[1:])
    assert list(verdict.columns) == ["rule", "skill", "fairness", "tension", "length", "cost"]
    # Every seat deals a one-card deal: no seat is singled out, and the report says so.
    one_round = verdict.set_index("rule").loc["every seat deals a one-card deal", "fairness"]
    assert "no one-card dealer's gap: every seat deals a one-card deal" in one_round
    method = " ".join(report.method)
    assert (
        "exchanged" in method
        and "holm" in method
        and "at 4 players they are the same seat" in method
    )


def test_a_study_declares_its_conditions_or_its_play():
    spec = hr.SPEC
    assert spec.play is None and spec.conditions is hr.conditions
    with pytest.raises(TypeError, match="must declare one of conditions and play"):
        dataclasses.replace(spec, play=lambda *a, **k: None)
    with pytest.raises(TypeError, match="must declare one of conditions and play"):
        dataclasses.replace(spec, conditions=None)


def test_a_run_in_one_field_answers_for_that_field(tmp_path):
    out = tmp_path / "weak"
    run_experiment(hr.NAME, out, games=2, seed=3, players=(4,), fields=("weak",), progress=False)
    report = load_report(out)[0]
    answer = report.tables[1].frame
    assert set(answer["field"]) == {"weak"}
    assert "Fields: weak:" in report.method[0] and "strong:" not in report.method[0]
    # Over two games a share's t-interval would pass 100%; it is clipped to [0%, 100%].
    ahead = answer.loc[answer["measure"] == hr.AHEAD, "value"].item()
    low, high = (float(x) for x in re.findall(r"-?\d+\.\d+", ahead)[1:])
    assert 0.0 <= low <= high <= 100.0
