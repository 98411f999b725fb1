"""The house_rules study: its design, its measures recounted by hand, its verdicts and report."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.analysis.findings import heterogeneity
from ohhell_sim.analysis.report import Table, to_markdown
from ohhell_sim.analysis.stats import grouped_mean, standardised_mean
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules, bidding_position
from ohhell_sim.studies import house_rules as hr
from ohhell_sim.studies import pairs, run_experiment, runs, study_play
from ohhell_sim.studies import verdict_effects as vd
from ohhell_sim.studies import verdict_words as vw
from ohhell_sim.studies.family import games_to_detect
from ohhell_sim.studies.rendering import load_report
from ohhell_sim.studies.runs import as_categories, read_study

PLAYERS = (3, 4)
GAMES = 6
ZERO_10 = "made zero scores 10 + cards"
#: The package's rules in both fields, every rule judged in each.
DESIGN = hr.Played(hr.RULE_NAMES, hr.FIELDS, hr.FIELD_PAIRS, frozenset(), GAMES, {})


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """The study at a tiny size through ``run_experiment``, every deal kept: (data, report)."""
    out = tmp_path_factory.mktemp("house_rules")
    run_experiment(
        hr.NAME, out, games=GAMES, seed=3, players=PLAYERS, progress=False, keep_hands=True
    )
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


@pytest.mark.slow
def test_measures_match_a_count_seat_by_seat(study):
    data, _ = study
    measures = hr.game_measures(data.hands, data.games).set_index(
        ["rule", "field", "players", "game"]
    )
    manifest = data.manifest["conditions"]
    checked = 0
    for rule in ("no hook", "schedule 1→most→1", "every seat deals a one-card deal"):
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


@pytest.mark.slow
def test_the_measures_of_the_kept_rows_are_those_of_every_deal(study):
    data, _ = study
    assert "deal" in data.hands.columns and "hands" not in data.manifest
    rows = [hr.seat_roles(part) for _, part in data.hands.groupby("condition", observed=True)]
    roles = pd.concat(rows, ignore_index=True)
    assert len(roles) == len(data.games)
    pd.testing.assert_frame_equal(
        hr.game_measures(roles, data.games), hr.game_measures(data.hands, data.games)
    )


@pytest.mark.slow
def test_measures_in_batches_of_conditions_are_those_of_the_whole_run(study, monkeypatch):
    data, _ = study
    whole = hr.game_measures(data.hands, data.games)
    monkeypatch.setattr(runs, "BATCH_ROWS", 2_000)
    assert len(list(runs.condition_batches(data.hands, data.games))) > 3
    pd.testing.assert_frame_equal(hr.game_measures(data.hands, data.games), whole, check_exact=True)


def test_condition_rows_are_the_rows_of_each_condition_in_any_order():
    frame = pd.DataFrame({"condition": np.array([0, 0, 0, 2, 2, 5], dtype=np.int16)})
    grouped = frame.groupby("condition").indices
    # Stacked condition by condition: a range a condition, no index array over the rows.
    stacked = runs.condition_rows(frame)
    assert stacked == {0: range(0, 3), 2: range(3, 5), 5: range(5, 6)}
    assert {c: list(rows) for c, rows in stacked.items()} == {
        c: list(rows) for c, rows in grouped.items()
    }
    shuffled = frame.iloc[[3, 0, 5, 1, 4, 2]].reset_index(drop=True)
    rows = runs.condition_rows(shuffled)
    assert {c: list(r) for c, r in rows.items()} == {0: [1, 3, 5], 2: [0, 4], 5: [2]}
    assert runs.condition_rows(frame.iloc[:0]) == {}


@pytest.mark.slow
def test_measures_of_rows_in_another_order_are_the_same(study):
    data, _ = study
    order = np.random.default_rng(4).permutation(len(data.games))
    shuffled = data.games.iloc[order].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        hr.game_measures(data.hands, shuffled),
        hr.game_measures(data.hands, data.games),
        check_exact=True,
    )


def test_a_condition_played_in_chunks_keeps_what_it_keeps_played_whole(monkeypatch):
    conditions = hr.conditions(7, (3,), fields=("weak",))[:2]
    whole = study_play.play_conditions(conditions, 5, progress=False, reduce=hr.seat_roles)
    monkeypatch.setattr(study_play, "CHUNK_GAMES", 3)
    kept: list[pd.DataFrame] = []

    def reduce(hands: pd.DataFrame) -> pd.DataFrame:
        kept.append(hands)
        return hr.seat_roles(hands)

    chunked = study_play.play_conditions(conditions, 5, progress=False, reduce=reduce)
    # Games 0-2, 3-5 and 6 of each condition: no reduction saw more than one chunk.
    assert [sorted(part["game"].unique()) for part in kept] == 2 * [[0, 1, 2], [3, 4, 5], [6]]
    pd.testing.assert_frame_equal(chunked.games, whole.games)
    pd.testing.assert_frame_equal(
        hr.game_measures(chunked.hands, chunked.games), hr.game_measures(whole.hands, whole.games)
    )
    # A reduction that sums over the games would stack as partial rows: it is refused.
    with pytest.raises(InvalidArgumentError, match="no 'game' column"):
        study_play.play_conditions(
            conditions, 5, progress=False, reduce=lambda h: h.groupby("seat")[["score"]].sum()
        )


def test_effects_by_measure_are_the_long_rows_paired_with_the_base_rows():
    # The definition: the long rows of every other rule, each joined to the base's
    # row of the same field, table size, game and measure, in the long rows' order;
    # rows where either value is missing, or the base has no such game, drop out.
    rng = np.random.default_rng(5)
    rules = ["b", "base", "a"]
    measures = pd.DataFrame(
        [
            (rule, field, players, game)
            for rule in rules
            for field in ("weak", "strong")
            for players in (3, 4)
            for game in range(6)
        ],
        columns=["rule", "field", "players", "game"],
    ).astype({"game": np.int32})
    for name in ("m2", "m1", "empty"):
        measures[name] = rng.normal(size=len(measures))
    measures.loc[rng.random(len(measures)) < 0.2, "m1"] = np.nan
    measures["empty"] = np.nan
    measures = measures.drop(
        index=measures.index[(measures["rule"] == "base") & (measures["game"] == 2)]
    )
    long = vd.long_measures(measures)
    keys = ["field", "players", "game", "measure"]
    reference = long[long["rule"] == "base"].drop(columns="rule")
    expected = long[long["rule"] != "base"].merge(reference, on=keys, suffixes=("", "_base"))
    expected["value"] -= expected.pop("value_base")
    parts = list(vd.effects_by_measure(measures, "base"))
    assert [name for name, _ in parts] == ["m2", "m1", "empty"]
    found = pd.concat([part for _, part in parts], ignore_index=True)
    pd.testing.assert_frame_equal(found, expected.reset_index(drop=True))
    assert 2 not in set(found["game"]) and "empty" not in set(found["measure"])


def test_estimates_a_measure_at_a_time_are_those_of_every_measure_at_once():
    # The study estimates one measure's rows at a time; stacked, the rows and their
    # order must be those of one estimate over every measure's rows.
    rng = np.random.default_rng(8)
    measures = pd.DataFrame(
        [
            (rule, field, players, game)
            for rule in ("z", "base", "a", "m")
            for field in ("weak", "strong")
            for players in (3, 4)
            for game in range(8)
        ],
        columns=["rule", "field", "players", "game"],
    )
    for name in ("m2", "m1", "a3"):
        measures[name] = rng.normal(size=len(measures))
    parts = [part for _, part in vd.effects_by_measure(measures, "base")]
    every = pd.concat(parts, ignore_index=True)
    keys = ["rule", "measure", "field"]
    for by, estimate in (
        (keys, lambda rows: standardised_mean(rows, rows["value"], keys, "players")),
        ([*keys, "players"], lambda rows: grouped_mean(rows, rows["value"], [*keys, "players"])),
    ):
        pd.testing.assert_frame_equal(
            vd.stacked([estimate(part) for part in parts], every, by), estimate(every)
        )
    tests = [heterogeneity(part, ["rule", "measure"], "field", "players") for part in parts]
    pd.testing.assert_frame_equal(
        vd.stacked(tests), heterogeneity(every, ["rule", "measure"], "field", "players")
    )


@pytest.mark.slow
def test_games_to_be_ahead_from_batches_of_conditions_are_those_of_every_pair(study, monkeypatch):
    data, _ = study
    run = data.confirmation
    measures = [hr.game_measures(d.hands, d.games) for d in (data, run)]
    played = vd.pooled_runs(data, *measures)[1]  # both runs, as the study pools them
    assert len(played) == 2
    monkeypatch.setattr(runs, "BATCH_ROWS", 500)
    assert len(list(runs.condition_batches(data.games))) > 3
    # Every pair of both runs at once, the confirmation's games numbered after the run's.
    offset = int(data.games["game"].max()) + 1
    games = pd.concat([data.games, run.games.assign(game=run.games["game"] + offset)])
    every = pairs.rule_pairs(pairs.pair_seats(as_categories(games.reset_index(drop=True))))
    keys = ["rule", "field", "players"]
    lead = every.groupby(keys, observed=True)["diff"].agg(["mean", "std"])
    lead = lead.groupby(["rule", "field"], observed=True).mean()
    found = pairs.games_ahead_by_rule(played).set_index(["rule", "field"])
    pd.testing.assert_frame_equal(found[["mean", "std"]], lead, check_exact=True)


@pytest.mark.slow
def test_effects_are_differences_from_the_canonical_game_on_the_same_cards(study):
    data, _ = study
    measures = hr.game_measures(data.hands, data.games)
    diffs = pd.concat(part for _, part in vd.effects_by_measure(measures, hr.CANONICAL))
    diffs = diffs.set_index(["rule", "field", "players", "game", "measure"])
    base = measures[measures["rule"] == hr.CANONICAL].set_index(["field", "players", "game"])
    rule = measures[measures["rule"] == ZERO_10].set_index(["field", "players", "game"])
    for key in rule.index[:5]:
        expected = rule.loc[key, hr.MARGIN] - base.loc[key, hr.MARGIN]
        assert diffs.loc[(ZERO_10, *key, hr.MARGIN), "value"] == expected
    assert hr.CANONICAL not in set(diffs.index.get_level_values("rule"))
    # The schedules' lengths are exact, not estimated.
    deals = diffs.xs(hr.DEALS, level="measure")["value"]
    assert set(deals.xs("short game, most→1", level="rule")) == {-9.0}
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
        (-2.0, 1.5, [(0.5, 2.5), (-3.0, -0.2)], vw.OPPOSITE_SIZES),
    ],
)
def test_a_fairness_effect_is_judged_against_the_canonical_gap(canonical_gap, shift, cells, word):
    rule = "no hook on the one-card deal"
    found = _found(rule, hr.ONE_CARD, "weak", shift)
    baseline = pd.Series({(hr.ONE_CARD, "weak"): canonical_gap})
    sizes = _sizes(rule, hr.ONE_CARD, "weak", cells)
    assert hr.STUDY.direction(found, baseline, sizes, rule, hr.ONE_CARD, "weak") == word
    unfound = found.assign(established=False)
    assert hr.STUDY.direction(unfound, baseline, sizes, rule, hr.ONE_CARD, "weak") == ""


def test_verdicts_join_the_fields_with_sizes_and_costs_read_tension_and_length():
    rule = "made bid scores 10 × bid"
    found = pd.concat(
        [
            _found(rule, hr.AHEAD, "weak", -0.02),
            _found(rule, hr.AHEAD, "strong", -0.03),
            _found(rule, hr.MARGIN, "strong", 4.0),
            _found(rule, hr.LEAD_CHANGES, "weak", 0.3, established=False),
            _found(rule, hr.ONE_CARD, "weak", 0.1, established=False).assign(**{vd.DETECT: 2500.0}),
            _found(rule, hr.FIRST_SEAT, "weak", -0.3, established=False).assign(
                **{vd.DETECT: 9000.0}
            ),
            _found("no hook", hr.AHEAD, "weak", 0.01, established=False).assign(
                **{vd.DETECT: 4000.0}
            ),
        ]
    )
    sizes = _sizes(rule, hr.AHEAD, "weak", [(-0.05, -0.01)])
    judged = hr.STUDY.judgements(found, pd.Series(dtype=float), sizes, DESIGN)
    verdict = hr.STUDY.verdicts(judged, found, DESIGN).set_index("rule")
    assert verdict.loc[rule, "skill"] == "more luck: ↓ -2.0 pp (weak), ↓ -3.0 pp (strong)"
    assert verdict.loc[rule, "tension"] == "wider margins: ↑ +4.00 points (strong)"
    # Nothing established: how many games would find the effect seen, never "no change".
    assert verdict.loc["no hook", "skill"] == (
        f"not established at {GAMES} games; about 4,000 games would detect the +1.0 pp seen (weak)"
    )
    # Of an aspect's several measures, the one the most games would find first, named.
    assert verdict.loc[rule, "fairness"] == (
        f"not established at {GAMES} games; about 2,500 games would detect the +0.10 points "
        "seen (one-card dealer's gap, weak)"
    )
    lengths = pd.Series("same deals", index=DESIGN.variants)
    lengths[rule] = "+1 to +3 deals per game"
    assert hr.STUDY.cost_of(judged, lengths, DESIGN)[rule] == (
        "wider margins (strong); +1 to +3 deals per game"
    )


def test_an_effect_whose_table_sizes_disagree_is_shown_per_size():
    rule = "no hook"
    found = _found(rule, hr.AHEAD, "weak", 0.01)
    sizes = _sizes(rule, hr.AHEAD, "weak", [(0.01, 0.05), (-0.01, 0.02), (-0.06, -0.02)]).assign(
        estimate=[0.03, 0.005, -0.04]
    )
    judged = hr.STUDY.judgements(found, pd.Series(dtype=float), sizes, DESIGN)
    verdict = hr.STUDY.verdicts(judged, found, DESIGN).set_index("rule")
    assert verdict.loc[rule, "skill"] == (
        f"{vw.OPPOSITE_SIZES}: +3.0 pp at 3, -4.0 pp at 5 players (weak)"
    )
    # A seat's gap that turns where that seat also deals a one-card deal says so.
    same_seat = dataclasses.replace(DESIGN, first_deals_one=frozenset({(rule, 3)}))
    found = _found(rule, hr.FIRST_SEAT, "weak", 1.0)
    sizes = sizes.assign(measure=hr.FIRST_SEAT, estimate=[3.0, 0.5, -4.0])
    baseline = pd.Series({(hr.FIRST_SEAT, "weak"): -1.0})
    judged = hr.STUDY.judgements(found, baseline, sizes, same_seat)
    assert judged["size"].item() == (
        "+3.00 points at 3, -4.00 points at 5 players; at 3 players the first bidder also "
        "deals a one-card deal"
    )
    # Not established, yet its table sizes are of opposite sign: said per size, not averaged.
    unfound = _found(rule, hr.ONE_CARD, "weak", -0.2, established=False)
    unfound[vd.DETECT] = 3800.0
    cells = _sizes(rule, hr.ONE_CARD, "weak", [(-0.2, 0.3), (0.03, 0.8), (-0.9, -0.4)])
    cells["estimate"] = [0.05, 0.41, -0.65]
    judged = hr.STUDY.judgements(unfound, pd.Series(dtype=float), cells, DESIGN)
    verdict = hr.STUDY.verdicts(judged, unfound, DESIGN, sizes=cells).set_index("rule")
    assert verdict.loc[rule, "fairness"] == (
        f"not established at {GAMES} games; about 3,800 games would detect the -0.20 points "
        "seen (one-card dealer's gap, weak); table sizes of opposite sign (unadjusted): "
        "+0.41 points at 4, -0.65 points at 5 players (one-card dealer's gap, weak)"
    )


def test_games_to_detect_scale_with_the_squared_ratio_of_detectable_to_seen():
    # se 1 at 100 games: 80% power at 0.05 / 10 needs (z(0.9975) + z(0.8)) * se = 3.65.
    found = pd.DataFrame({"estimate": [3.65, 1.0, 0.0], "low": -1.96, "high": 1.96})
    found["low"] += found["estimate"]
    found["high"] += found["estimate"]
    needed = games_to_detect(found, 100, 10)
    assert needed[0] == pytest.approx(100, rel=0.02)
    # 100 * 3.65 ** 2 = 1331, rounded up to two figures.
    assert needed[1] == 1400
    assert np.isinf(needed[2])


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
            ("e", hr.AHEAD, "strong", vw.OPPOSITE_SIZES),
        ],
        columns=["rule", "measure", "field", "word"],
    )
    names = dict(zip("abcde", hr.RULE_NAMES[1:6], strict=True))
    judged["rule"] = judged["rule"].map(names)
    advised = vw.advice(judged, DESIGN)
    assert advised == {
        "adopt": [names["a"]],
        "one field": [names["b"]],
        "weigh": [names["c"]],
        "avoid": [names["d"]],
    }


@pytest.mark.slow
def test_report_answers_first_in_few_words_with_numbers_from_its_tables(study):
    _, report = study
    text = " ".join(report.in_short)
    assert report.in_short[0].startswith("For a skilful, fair game ")
    assert len(text.split()) <= 150 and "both runs pooled" in text
    cells = " ".join(
        " ".join([t.title, t.note, *t.frame.astype(str).to_numpy().ravel()]) for t in report.tables
    )
    numbers = re.findall(r"-?\d+(?:\.\d+)?", text)
    assert numbers and all(number in cells for number in numbers), numbers
    titles = [t.title for t in report.tables]
    assert titles[0].startswith("One verdict per rule against the canonical game")
    verdict = report.tables[0].frame
    assert list(verdict["rule"]) == list(hr.RULE_NAMES[1:])
    columns = ["rule", "skill", "fairness", "tension", "length", "cost", "judged in"]
    assert list(verdict.columns) == columns
    assert not verdict.isin(["no change found"]).any().any()
    # The weak field's players bid alike under every scoring table: its scoring verdicts
    # are not given, and the family holds no row for them.
    judged_in = verdict.set_index("rule")["judged in"]
    assert judged_in[ZERO_10].startswith("strong (weak:") and judged_in["no hook"] == "weak, strong"
    (family,) = [t.frame for t in report.tables if t.title.startswith("Appendix: every effect,")]
    assert family[(family["rule"] == ZERO_10) & (family["field"] == "weak")].empty
    # The findings quote the sizes of the table of every effect judged, both runs pooled.
    findings = " ".join(report.findings[1:])
    stated = re.findall(r"-?\d+\.\d+", findings)
    assert stated and set(stated) <= set(re.findall(r"-?\d+\.\d+", cells)), stated
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
    assert spec.play is None and spec.conditions == hr.conditions
    with pytest.raises(TypeError, match="must declare one of conditions and play"):
        dataclasses.replace(spec, play=lambda *a, **k: None)
    with pytest.raises(TypeError, match="must declare one of conditions and play"):
        dataclasses.replace(spec, conditions=None)


@pytest.mark.slow
def test_a_run_in_one_field_answers_for_that_field(tmp_path):
    out = tmp_path / "weak"
    run_experiment(hr.NAME, out, games=2, seed=3, players=(4,), fields=("weak",), progress=False)
    report = load_report(out)[0]
    # Only what the measures need of the hands is kept: a row per seat and game.
    kept = read_study(out)
    assert set(kept.hands.columns) >= set(hr.ROLE_COLUMNS) and "deal" not in kept.hands.columns
    assert len(kept.hands) == len(kept.games) and "--keep-hands" in kept.manifest["hands"]
    answer = report.tables[1].frame
    assert set(answer["field"]) == {"weak"}
    assert "Fields: weak:" in report.method[0] and "strong:" not in report.method[0]
    # Over two games a share's t-interval would pass 100%; it is clipped to [0%, 100%].
    ahead = answer.loc[answer["measure"] == hr.AHEAD, "value"].item()
    low, high = (float(x) for x in re.findall(r"-?\d+\.\d+", ahead)[1:])
    assert 0.0 <= low <= high <= 100.0


def test_a_designers_rule_sets_are_played_on_top_of_the_base_on_the_same_cards():
    design = hr.conditions(3, (4, 5), ("weak",), ["made=10*bid,zero=5", "schedule=3,2,1,2,3"])
    rules = {(c.label["rule"], c.label["players"]): c.rules for c in design}
    assert {r for r, _ in rules} == {hr.CANONICAL, "made=10*bid, zero=5", "schedule=3,2,1,2,3"}
    assert rules[("made=10*bid, zero=5", 5)] == Rules(players=5, made="10*bid", zero="5")
    assert rules[("schedule=3,2,1,2,3", 4)].schedule == (3, 2, 1, 2, 3)
    based = hr.conditions(3, (4,), ("card_counter/simple",), ["made=10*bid"], base="hook=off")
    rules = {c.label["rule"]: c.rules for c in based}
    assert rules == {
        "base game (hook=off)": Rules(players=4, hook=False),
        "made=10*bid": Rules(players=4, hook=False, made="10*bid"),
    }
    assert {c.seats for c in based} == {
        ("card_counter", "simple") * 2,
        ("simple", "card_counter") * 2,
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variants": ["made=7*bid"]}, "variant 'made=7\\*bid': made must be one of"),
        ({"variants": ["hook=false", "hook=no"]}, "plays the same game as 'hook=false'"),
        ({"variants": ["schedule=13,1"]}, "cannot be played at 4 players"),
        ({"variants": ["players=5"]}, "players is the study's table sizes"),
        ({"variants": ["hook"]}, "a rule must be NAME=VALUE"),
        ({"variants": []}, "at least one rule set"),
        ({"base": "hook=false"}, "needs variants"),
        ({"variants": ["hook=false"], "fields": ("weak", "nobody/simple")}, "--import"),
        ({"variants": ["hook=false"], "fields": ("simple/simple",)}, "one strategy twice"),
        ({"variants": ["hook=false"], "fields": ("medium",)}, "STRONGER/WEAKER"),
    ],
)
def test_bad_rule_sets_and_fields_are_refused_in_one_line_before_play(tmp_path, options, message):
    out = tmp_path / "never"
    with pytest.raises(InvalidArgumentError, match=message):
        run_experiment(hr.NAME, out, games=2, players=(4,), progress=False, **options)
    assert not out.exists()


def test_a_designers_own_rules_are_judged_with_the_same_verdicts(tmp_path):
    out = tmp_path / "mine"
    variants = ("hook=false", "made=10*bid,zero=5")
    run_experiment(
        hr.NAME,
        out,
        games=2,
        seed=3,
        players=(4,),
        fields=("card_counter/simple",),
        variants=variants,
        progress=False,
    )
    report = load_report(out)[0]
    verdict = report.tables[0].frame.set_index("rule")
    assert list(verdict.index) == ["hook=false", "made=10*bid, zero=5"]
    # Neither card_counter nor simple bids for the scoring table: the scoring rule is shown,
    # not judged.
    assert verdict.loc["made=10*bid, zero=5", "judged in"].startswith("none")
    assert verdict.loc["hook=false", "skill"].startswith("not established at 2 games")
    assert "--variant hook=false --variant 'made=10*bid,zero=5'" in report.command
    assert "--fields card_counter/simple" in report.command


@pytest.mark.slow
def test_the_markdown_report_shows_a_rules_stars_as_written(study):
    # Markdown reads `made=10*bid ... 10+2*bid` as emphasis: the stars are escaped, but
    # not inside a code span.
    _, report = study
    named = "made=10*bid, zero=5 against made=10+2*bid"
    report = dataclasses.replace(
        report,
        in_short=[f"adopt {named}; `made=10*bid`"],
        tables=[Table("Verdicts", pd.DataFrame({"rule": [named]}))],
        lead_tables=1,
    )
    text = to_markdown(report)
    escaped = named.replace("*", "\\*")
    assert f"adopt {escaped}; `made=10*bid`" in text
    assert f"| {escaped} |" in text


_DESIGNERS_STRATEGY = """
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import lowest_card


@njit
def bid(view, params, rng):
    return 1 if view[V.FORBIDDEN_BID] == 0 else 0


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])


register_strategy("hr_designers_own", bid, play, replace=True)
"""


def test_a_strategy_of_ones_own_is_a_field_once_imported(tmp_path, capsys):
    # --import registers it before --fields is read: the pair is checked as two registered
    # strategies (here refused for seating one twice, so that nothing is played).
    module = tmp_path / "hr_designers_strategies.py"
    module.write_text(_DESIGNERS_STRATEGY, encoding="utf-8")
    out = tmp_path / "never"
    pair = "hr_designers_own/hr_designers_own"
    args = ["experiment", hr.NAME, "--variant", "hook=false", "--fields", pair]
    with pytest.raises(SystemExit) as stopped:
        main([*args, "--import", str(module), "--games", "2", "--out", str(out)])
    error = capsys.readouterr().err.strip().splitlines()
    assert stopped.value.code == 2 and len(error) == 1, error
    assert f"field '{pair}' seats one strategy twice" in error[0]
    assert not out.exists()
