"""The studies' framework without playing: the design, the correction, a study of one's own."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ohhell_sim.analysis.findings import adjust_family
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.studies.effects import EffectStudy, Words, claim
from ohhell_sim.studies.experiment import experiment_command
from ohhell_sim.studies.family import ALPHA, CORRECTION, correct, games_text, games_to_detect
from ohhell_sim.studies.measures import clip_shares
from ohhell_sim.studies.spec import get_study

STUDY = EffectStudy(
    name="schedule_probe",
    question="What does a shorter schedule do?",
    arm="short",
    arms=(True, False),
    rules=lambda players, short: Rules(players=players, schedule=(3, 1) if short else (4, 1)),
    effects=lambda data: {},
    words=lambda data, family, verdict: Words(in_short=[]),
    design="Both schedules on the same cards.",
    default_games=40,
    default_players=(3, 4),
    default_fields=("simple", "mc_bidder"),
    field_shares={"mc_bidder": 0.25},
)


def test_an_effect_study_plays_both_arms_in_every_field_and_table_size_on_its_shares():
    conditions = STUDY.conditions(40, (3, 5))
    labels = [(c.label["players"], c.label["field"], c.label["short"]) for c in conditions]
    assert labels == [
        (n, f, arm) for n in (3, 5) for f in ("simple", "mc_bidder") for arm in (True, False)
    ]
    games = {c.label["field"]: c.games for c in conditions}
    assert games == {"simple": 40, "mc_bidder": 10}
    assert {c.rules.schedule for c in conditions} == {(3, 1), (4, 1)}
    with pytest.raises(InvalidArgumentError, match="unknown field 'nope'"):
        STUDY.conditions(40, (4,), fields=("nope",))


def test_a_declared_study_is_its_own_spec_and_its_command_the_call_that_reproduces_it():
    spec = STUDY.spec()
    assert get_study(spec) is spec
    assert spec.default_fields == ("simple", "mc_bidder")
    command = experiment_command(spec.name, 40, 3, Path("out"), (3, 4), None, ("simple",), (20, 4))
    assert command == (
        "run_experiment(schedule_probe, 'out', games=40, seed=3, players=(3, 4), "
        "fields=('simple',), confirm_games=20, confirm_seed=4)"
    )


def test_every_family_is_corrected_with_one_method_at_one_level():
    table = pd.DataFrame(
        {"estimate": [1.0, 0.2, -3.0], "low": [0.5, -0.4, -5.0], "high": [1.5, 0.8, -1.0]}
    )
    pd.testing.assert_frame_equal(
        correct(table), adjust_family(table, method=CORRECTION, alpha=ALPHA)
    )
    parts = correct({"a": table.iloc[:2], "b": table.iloc[2:]})
    assert list(parts) == ["a", "b"]
    assert parts["a"]["correction"].iloc[0] == f"{CORRECTION} over 3"
    np.testing.assert_allclose(
        np.concatenate([parts["a"]["p_adjusted"], parts["b"]["p_adjusted"]]),
        correct(table)["p_adjusted"],
    )


def test_games_to_detect_in_words():
    found = pd.DataFrame({"estimate": [0.0], "low": [-1.0], "high": [1.0]})
    assert np.isinf(games_to_detect(found, 100, 5)).all()
    assert games_text(np.inf) == "no number of games would detect"
    assert games_text(1100.0) == "about 1,100 games would detect"


def test_a_claim_quotes_the_pooled_size_or_the_games_that_would_detect_it():
    row = {"estimate": 2.0, "low": 1.0, "high": 3.0, "games": 90, "established": True}
    pooled = "2.000 [1.000, 3.000] (both runs pooled, 90 games per condition)"
    assert claim(pd.Series(row)) == pooled
    row.update(established=False, estimate=-0.13, **{"games to detect": 20000.0})
    assert claim(pd.Series(row)) == (
        "not established at 90 games per condition; about 20,000 games would detect an effect "
        "of 0.130"
    )


def test_a_study_of_one_arm_or_of_malformed_effects_is_refused_naming_it():
    with pytest.raises(InvalidArgumentError, match="arms of study 'schedule_probe' must be two"):
        replace(STUDY, arms=(True, True))
    with pytest.raises(InvalidArgumentError, match="returned no effect"):
        STUDY.effect_games(None)
    malformed = replace(STUDY, effects=lambda data: {"gap": pd.DataFrame({"game": [0]})})
    with pytest.raises(InvalidArgumentError, match=r"effect 'gap' .* lacks the columns field, "):
        malformed.effect_games(None)


def test_a_shares_interval_is_clipped_to_zero_and_one_on_the_rows_asked():
    table = pd.DataFrame({"estimate": [0.02, 0.5], "low": [-0.03, -2.0], "high": [0.07, 3.0]})
    clip_shares(table, table["estimate"] < 0.1)
    assert table["low"].tolist() == [0.0, -2.0]
    assert clip_shares(table)[["low", "high"]].to_numpy().tolist() == [[0.0, 0.07], [0.0, 1.0]]
