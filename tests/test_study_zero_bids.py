"""The ``zero_bids`` study's analysis: its pooling path, its comparisons and its fitted rule.

Synthetic frames stand in for played games, so that the answers are known: a
Simpson-type table whose pooled rows would run against every stratum, and
probe pairs with and without a real gain from bidding 0.
"""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies import run_experiment
from ohhell_sim.studies import zero_bids as zb
from ohhell_sim.studies.cell_rule import MOST_FIELDS
from ohhell_sim.studies.design import STANDARDISED
from ohhell_sim.studies.field_parts import FieldParts
from ohhell_sim.studies.zero_bids import (
    EVENT,
    MIN_ZERO_BIDS,
    PROBE_ARMS,
    RULE,
    SPEC,
    conditions,
)


def _zero_bids(cells: list[tuple[str, str, int, int, int]], column: str) -> pd.DataFrame:
    """Zero-bid rows of the mixed field: per (strategy, ``column`` value) ``made`` of ``n``."""
    rows = []
    for strategy, value, size, made, n in cells:
        for i in range(n):
            rows.append({"strategy": strategy, column: value, "hand_size": size, "made": i < made})
    frame = pd.DataFrame(rows)
    frame["field"] = "mix"
    frame["players"] = 4
    frame["zero"] = True
    frame["game"] = np.arange(len(frame))  # every zero bid from its own game
    defaults = {"position": "2nd", "trump_holding": "0", "band": "", "band_rank": -1}
    for name, value in defaults.items():
        if name not in frame:
            frame[name] = value
    return frame


def test_pooled_success_by_position_follows_the_strata_not_the_crude_totals():
    # Strategy a bids 0 mostly as first bidder, b mostly as dealer; within each strategy
    # the dealer's zero bids succeed more, but the crude pooled rates say the opposite.
    hands = _zero_bids(
        [
            ("a", "1st (leads)", 5, 720, 900),
            ("a", "dealer", 5, 90, 100),
            ("b", "1st (leads)", 5, 40, 100),
            ("b", "dealer", 5, 450, 900),
        ],
        "position",
    )
    crude = hands.groupby("position")["made"].mean()
    assert crude["dealer"] < crude["1st (leads)"]
    rates = EVENT.rates(hands, ["position"])
    pooled = rates[rates["strategy"] == STANDARDISED].set_index("position")["zero_made_rate"]
    assert pooled["dealer"] == pytest.approx((0.9 + 0.5) / 2)
    assert pooled["1st (leads)"] == pytest.approx((0.8 + 0.4) / 2)
    assert rates[rates["strategy"] == STANDARDISED]["field_row"].all()
    compared = EVENT.comparisons(hands, zb.compared(hands))
    dealer = compared[
        (compared["comparison"] == "dealer vs first bidder")
        & (compared["measure"] == EVENT.success_measure)
    ].set_index("strategy")
    # Pooled and per strategy, the difference follows the strata: +0.1, resolved.
    assert dealer.loc[STANDARDISED, "estimate"] == pytest.approx(0.1)
    assert dealer.loc["a", "estimate"] == pytest.approx(0.1)
    assert dealer.loc["b", "estimate"] == pytest.approx(0.1)
    assert dealer.loc[STANDARDISED, "low"] > 0


def test_pooled_trend_over_hand_sizes_follows_each_strategy():
    # Success rises with the hand size for both strategies; a bids 0 on small hands,
    # b on large ones, so the crude pooled trend falls.
    hands = _zero_bids(
        [
            ("a", "x", 2, 630, 900),
            ("a", "x", 9, 80, 100),
            ("b", "x", 2, 30, 100),
            ("b", "x", 9, 360, 900),
        ],
        "unused",
    )
    crude = hands.groupby("hand_size")["made"].mean()
    assert crude[9] < crude[2]
    rates = EVENT.rates(hands, ["hand_size"])
    pooled = rates[rates["strategy"] == STANDARDISED].set_index("hand_size")["zero_made_rate"]
    assert pooled[9] > pooled[2]
    assert pooled[2] == pytest.approx((0.7 + 0.3) / 2)


def test_strata_with_too_few_zero_bids_are_left_out_of_success():
    hands = _zero_bids(
        [("a", "x", 2, 50, 100), ("a", "x", 9, 0, MIN_ZERO_BIDS - 1)],
        "unused",
    )
    rates = EVENT.rates(hands, [])
    row = rates.iloc[0]
    # The thin 9-card stratum (no zero bid made) would halve the rate if it counted.
    assert row["zero_made_rate"] == pytest.approx(0.5)
    assert row["success_strata"] == 1
    by_size = EVENT.rates(hands, ["hand_size"]).set_index("hand_size")
    assert math.isnan(by_size.loc[9, "zero_made_rate"])
    assert by_size.loc[9, "zero_bids"] == MIN_ZERO_BIDS - 1


def _pairs(gain: float, games: int = 2000, seed: int = 6) -> pd.DataFrame:
    """Probe pairs of one field and table, 1-bid hands of ten sizes, noise around a known gain:
    ``gain`` on hands of 1-5 cards, ``gain - 3`` on the larger hands."""
    rng = np.random.default_rng(seed)
    game = np.repeat(np.arange(games), 10)
    hand_size = np.tile(np.arange(1, 11), games)
    true_gain = np.where(hand_size <= 5, gain, gain - 3.0)
    return pd.DataFrame(
        {
            "field": "simple",
            "zero_table": "10",
            "players": 4,
            "hand_size": hand_size,
            "alt_bid": 1,
            "decision": True,
            "game": game,
            "diff": true_gain + rng.normal(scale=8.0, size=game.size),
        }
    )


def _fields(gains: dict[str, float], games: int = 2000) -> pd.DataFrame:
    """Probe pairs of several fields on the same cards: each game's luck is shared by every
    field (as the cards are), the field adds its own gain and a little noise."""
    base = _pairs(0.0, games=games, seed=9).assign(alt_bid_label="1")
    rng = np.random.default_rng(10)
    return pd.concat(
        [
            base.assign(field=f, diff=base["diff"] + g + rng.normal(scale=1.0, size=len(base)))
            for f, g in gains.items()
        ],
        ignore_index=True,
    )


def test_fields_on_the_same_cards_are_compared_paired_by_game():
    # A difference of 0.3 points per deal is small beside the cards' spread (8 points a
    # hand), but the fields share the cards: the paired test finds it.
    differ = RULE.gain_tests(_fields({"simple": 0.0, "card_counter": 0.3})).iloc[0]
    assert differ["fields"] == 2 and differ["df"] == 1
    assert differ["spread"] == pytest.approx(0.3, abs=0.05) and differ["p"] < 1e-6
    same = RULE.gain_tests(_fields({"simple": 0.0, "card_counter": 0.0, "mix": 0.0})).iloc[0]
    assert same["df"] == 2 and same["p"] > 0.01
    # Each field's own rule, fitted on one half and judged on the other: the same cards
    # and the same gains give the same rule and the same gain in every field.
    pairs = _fields({"simple": 2.0, "card_counter": 2.0}, games=400)
    even = pairs["game"] % 2 == 0
    rules = RULE.tests(pairs[even], pairs[~even]).iloc[0]
    assert rules["fields"] == 2 and rules["p"] > 0.01


def test_the_fitted_rule_is_judged_on_the_games_it_was_not_fitted_to():
    # The small hands gain nothing from bidding 0 (the large ones lose 3): a rule fitted
    # on noise looks good on its own games (it picks the cells where noise favoured 0)
    # and not on the others.
    in_sample, held_out = [], []
    for seed in range(20):
        summary = RULE.held_out(_pairs(0.0, games=400, seed=seed)).iloc[0]
        in_sample.append(summary["in_sample_gain"])
        held_out.append(summary["estimate"])
    assert min(in_sample) >= 0  # in sample a rule never loses
    assert np.mean(in_sample) > 0.1
    assert abs(np.mean(held_out)) < np.mean(in_sample) / 2


def test_a_real_gain_survives_the_held_out_evaluation():
    pairs = _pairs(2.0)
    summary = RULE.held_out(pairs).iloc[0]
    # Half the hands sit in cells worth +2 points: about +1 per hand held out.
    assert summary["low"] > 0.5
    assert summary["estimate"] == pytest.approx(1.0, abs=0.3)
    assert summary["replication"] == "replicated"
    assert summary["zero_share"] == pytest.approx(0.5)


def test_the_offered_rule_is_the_cells_most_fields_favour_judged_where_not_chosen():
    # Small hands gain 2 in two of three fields and lose 2 in the third; large hands lose.
    fields = {"simple": 2.0, "card_counter": 2.0, "learned": -2.0}

    def dealt(first_seed: int) -> pd.DataFrame:
        parts = [
            _pairs(gain, games=600, seed=first_seed + i).assign(field=field)
            for i, (field, gain) in enumerate(fields.items())
        ]
        return pd.concat(parts, ignore_index=True)

    pairs = dealt(0)
    rule = RULE.field_rules(pairs)[MOST_FIELDS]
    assert list(rule[rule].index.get_level_values("hand_size")) == [1, 2, 3, 4, 5]
    # Judged on other games: every field takes the same rule, its own gain.
    fresh = dealt(10)
    gains = RULE.gains(pairs, fresh, offered=True).set_index("field")
    learned = RULE.apply(fresh[fresh["field"] == "learned"], rule)
    assert gains.loc["learned", "estimate"] == pytest.approx(learned["rule_gain"].mean())
    assert gains.loc["simple", "low"] > 0.5 and gains.loc["learned", "high"] < 0
    # The run's own row: chosen on the even games, judged on the odd ones.
    even = pairs["game"] % 2 == 0
    held = RULE.gains(pairs[even], pairs[~even], offered=True).set_index("field")
    odd = pairs[~even]
    chosen = RULE.field_rules(pairs[even])[MOST_FIELDS]
    expected = RULE.apply(odd[odd["field"] == "simple"], chosen)["rule_gain"].mean()
    assert held.loc["simple", "estimate"] == pytest.approx(expected)


def test_a_cell_the_fit_never_saw_keeps_the_alternative():
    pairs = _pairs(2.0, games=50)
    rule = RULE.fit(pairs[pairs["hand_size"] == 3])
    judged = RULE.apply(pairs, rule)
    unseen = judged["hand_size"] != 3
    assert not judged.loc[unseen, "rule_zero"].any()
    assert (judged.loc[unseen, "rule_gain"] == 0).all()
    assert judged.loc[~unseen, "rule_zero"].all()


def test_conditions_cover_every_field_part_and_arm():
    design = conditions(100, (3, 5), ("simple", "mc_bidder"))
    observed = [c for c in design if c.label["part"] == "observed"]
    probe = [c for c in design if c.label["part"] == "probe"]
    assert len(observed) == 4
    assert len(probe) == 2 * 2 * 4 * len(PROBE_ARMS)
    assert {c.games for c in design if c.label["field"] == "mc_bidder"} == {
        SPEC.field_games("mc_bidder", 100)
    }
    assert SPEC.field_games("mc_bidder", 100) < 100 == SPEC.field_games("simple", 100)
    for condition in probe:
        name, params = condition.seats[0]
        assert name == "zero"
        assert params["threshold"] == PROBE_ARMS[condition.label["arm"]]
        assert condition.rules.zero == condition.label["zero_table"]


def test_an_unknown_field_is_refused_before_any_work(tmp_path):
    with pytest.raises(InvalidArgumentError, match=re.escape("unknown field 'nope' in fields")):
        run_experiment("zero_bids", tmp_path / "out", 4, fields=("simple", "nope"))
    assert not (tmp_path / "out").exists()


def test_a_headline_says_confirmed_only_after_a_confirmation_run():
    verdict = pd.DataFrame(
        [
            {
                "zero_table": "canonical",
                "headline": True,
                "fields": 1,
                "verdict": "holds in every field",
                "min_estimate": 0.25,
                "max_estimate": 0.25,
            }
        ]
    )
    verdict_of = {"rates": verdict.iloc[:0], "counterfactual": verdict.iloc[:0]}
    verdict_of["fitted rule"] = verdict
    parts = {"fitted rule": pd.DataFrame({"p": [0.001], "survives": [True]})}
    ends = ("", "_low", "_high")
    rates = {f"{m}{end}": 0.1 for m in ("zero_bid_rate", "zero_made_rate") for end in ends}
    fields = pd.DataFrame([{"field": "simple", **rates}])
    for confirmed, said in ((True, "and is confirmed in each."), (False, "(no confirmation run).")):
        headline = zb.FAMILY.findings(verdict_of, parts, len(fields), confirmed, [])[0]
        assert headline.startswith("Fitted rule, zero table canonical") and headline.endswith(said)


def test_a_family_that_names_a_part_it_lacks_is_refused():
    with pytest.raises(InvalidArgumentError, match=r"'rates differ'.+not parts of the family"):
        FieldParts({"rates": ["measure"]}, {"rates": "rates differ"}, {}, {})


def test_a_study_played_in_parts_splits_its_conditions_and_keeps_what_it_names():
    assert SPEC.play is None and SPEC.part_of is not None
    with pytest.raises(TypeError, match="part_of splits conditions; it declares none"):
        dataclasses.replace(SPEC, conditions=None, play=lambda *a, **k: None)
    with pytest.raises(TypeError, match="keep_part needs part_of"):
        dataclasses.replace(SPEC, part_of=None)
