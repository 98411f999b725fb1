"""Study ``variant_scoring``: merged rule sets, fields, decisiveness that survives negative
totals, tests between fields and which bidders ignore the scoring."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ohhell_sim as oh
from ohhell_sim.analysis.findings import (
    DEPENDS_ON_FIELD,
    HOLDS_EVERYWHERE,
    NO_FIELD,
    SOME_FIELDS,
    SOME_FIELDS_UNTESTED,
)
from ohhell_sim.analysis.stats import grouped_mean
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.studies import runs
from ohhell_sim.studies import variant_scoring as vs
from ohhell_sim.studies.design import MIX_FIELD, check_fields, games_to_be_ahead
from ohhell_sim.studies.runs import read_study, write_study
from ohhell_sim.studies.skill import leads, skill_leaders, stronger_seats


def test_identical_rule_sets_are_merged_and_named_once():
    rules = vs.variant_rules(4)
    assert "online preset = openspiel preset" in rules
    assert "online preset" not in rules and "openspiel preset" not in rules
    assert len(rules) == len(vs.VARIANTS) - 1
    dicts = [r.to_dict() for r in rules.values()]
    assert all(a != b for i, a in enumerate(dicts) for b in dicts[i + 1 :])
    assert next(iter(rules)) == vs.BASELINE


def test_conditions_play_fewer_games_in_the_monte_carlo_fields():
    conditions = vs.conditions(100, (4,), ("mc_bidder", vs.MAXIMISER_MIX, MIX_FIELD))
    games = {c.label["field"]: c.games for c in conditions}
    assert games == {"mc_bidder": 60, vs.MAXIMISER_MIX: 100, MIX_FIELD: 100}
    seats = vs.study_field_seats(vs.MAXIMISER_MIX, 4)
    # The adapting players in turn around the table; every one of them reads the scoring.
    assert [s if isinstance(s, str) else s[0] for s in seats] == [
        "distilled",
        "mc_bidder",
        "learned",
        "distilled",
    ]
    assert set(vs.MAXIMISER_MIX_STRATEGIES) <= set(vs.SCORE_AWARE_BIDDERS)
    assert vs.SPEC.field_games("mc_bidder", 3) == 2


def test_study_fields_are_checked():
    fields = [vs.MAXIMISER_MIX, "simple"]
    assert check_fields(fields, vs.KNOWN_FIELDS) == (vs.MAXIMISER_MIX, "simple")
    with pytest.raises(InvalidArgumentError, match="unknown field 'bogus' in fields"):
        vs.conditions(4, (4,), ["bogus"])
    # Neither a bid that reads the table nor a mix whose skill could be measured.
    with pytest.raises(InvalidArgumentError, match=r"fields \['simple', 'card_counter'\] seat no"):
        vs.conditions(4, (4,), ["simple", "card_counter"])


def _games_frame(totals: np.ndarray, strategies: list[str], variant: str) -> pd.DataFrame:
    games, seats = totals.shape
    return pd.DataFrame(
        {
            "condition": 0 if variant == vs.BASELINE else 1,
            "players": seats,
            "field": "mixed",
            "variant": variant,
            "game": np.repeat(np.arange(games), seats),
            "seat": np.tile(np.arange(seats), games),
            "strategy": np.tile(strategies, games),
            "total": totals.ravel(),
        }
    )


def test_decisiveness_measures_work_with_negative_totals():
    rng = np.random.default_rng(3)
    strategies = ["strong", "weak", "strong", "weak"]
    # Penalty-like totals: all negative, the strong seats 40 points better on average.
    skill = np.where(np.array(strategies) == "strong", -20.0, -60.0)
    noisy = skill + rng.normal(0, 10, size=(400, 4))
    # The same seats with much more luck: the stronger strategy finishes ahead less often.
    lucky = skill + rng.normal(0, 80, size=(400, 4))
    games = pd.concat(
        [_games_frame(noisy, strategies, vs.BASELINE), _games_frame(lucky, strategies, "luck")],
        ignore_index=True,
    )
    ahead = stronger_seats(games, vs.CONDITION_KEYS)[0].groupby("variant")["better_wins"].mean()
    assert ahead[vs.BASELINE] > 0.95 and 0.5 < ahead["luck"] < 0.8
    # The luckier table needs more games for the stronger seat to be ahead 95% of the time.
    needed = stronger_seats(games, vs.CONDITION_KEYS)[1].set_index("variant")["games_ahead"]
    assert needed[vs.BASELINE] < needed["luck"]


@pytest.mark.parametrize(
    "seats",
    [("learned", "simple", "zero", "learned"), ("card_counter",) * 4],
    ids=["mix", "card_counter"],
)
def test_score_blind_bidders_bid_the_same_under_every_table(seats):
    # Without the hook no bid depends on the others' bids, so a bidder that ignores the
    # scoring bids the same on the same cards under any table.
    canonical = oh.simulate(oh.Rules(players=4, hook=False), list(seats), 30, 5).hands
    steep = oh.simulate(oh.Rules(players=4, hook=False, made="10*bid"), list(seats), 30, 5).hands
    differs = (canonical["bid"] != steep["bid"]).groupby(canonical["strategy"], observed=True)
    for strategy, moved in differs.any().items():
        assert strategy in vs.SCORE_AWARE_BIDDERS + vs.SCORE_BLIND_BIDDERS
        assert moved == (strategy in vs.SCORE_AWARE_BIDDERS), strategy


@pytest.mark.slow
def test_analysis_of_a_tiny_run_declares_its_families(tmp_path):
    data = vs.SPEC.run(8, 2, (4,), progress=False, fields=("learned", MIX_FIELD))
    report = vs.analyse(data)
    text = " ".join(report.findings)
    assert "online preset = openspiel preset" in " ".join(report.method)
    # The mixed field's table of highest skill share, and the test of its lead.
    assert f"4 players, {MIX_FIELD}: the stronger seat is ahead most often under" in text
    assert "the lead of" in text
    titles = [t.title for t in report.tables]
    assert titles[0].startswith("Which scoring table lets skill decide the game?")
    # No field bids for the table: the verdict says the run cannot tell, within 200 words.
    assert report.in_short[0].startswith("This run cannot say which scoring table lets skill")
    assert len(" ".join(report.in_short).split()) <= 200
    # The ranking reads the mixed fields only, canonical as the reference.
    ranking = report.tables[0].frame
    assert set(ranking["field"]) == {MIX_FIELD}
    assert (ranking.loc[ranking["scoring table"] == "canonical", "change"] == "reference").all()
    assert "holm over" in " ".join(report.method) and "Confirmation" not in text
    verdicts = next(t.frame for t in report.tables if t.title.startswith("Does each effect hold"))
    assert set(verdicts["verdict"]) <= {
        HOLDS_EVERYWHERE,
        DEPENDS_ON_FIELD,
        NO_FIELD,
        SOME_FIELDS,
        SOME_FIELDS_UNTESTED,
    }
    assert set(verdicts["measure"]) <= {*vs.BID_COLUMNS.values(), vs.STRONGER}
    # Shown as a report shows numbers: three decimals, not the float's full repr.
    assert verdicts["min_estimate"].str.fullmatch(r"-?\d+\.\d{3}").all()
    tested = verdicts[verdicts["between fields, p (adjusted)"] != "-"]
    # learned bids for the table in both fields: every bid effect is tested between them.
    assert set(tested["measure"]) == set(vs.BID_COLUMNS.values())
    assert not any("sd" in c for t in report.tables for c in t.frame.columns)


def test_the_per_game_shifts_average_to_the_paired_shift():
    draws = np.random.default_rng(8)
    games = np.arange(50)
    frame = pd.concat(
        [
            pd.DataFrame(
                {
                    "players": 4,
                    "field": "simple",
                    "variant": variant,
                    "game": games,
                    "decisive": draws.random(50) + shift,
                }
            )
            for variant, shift in ((vs.BASELINE, 0.0), ("zero=5", 0.1))
        ],
        ignore_index=True,
    )
    values = vs.SHIFTS.shifts(frame, "decisive", [], [vs.BASELINE, "zero=5"], per_game=True)
    shift = vs.SHIFTS.shifts(frame, "decisive", [], [vs.BASELINE, "zero=5"]).iloc[0]
    assert len(values) == 50 and (values["variant"] == "zero=5").all()
    assert values["value"].mean() == pytest.approx(shift["estimate"])


def test_the_lead_of_the_first_table_is_paired_by_game():
    rng = np.random.default_rng(11)
    strategies = ["strong", "weak", "strong", "weak"]
    skill = np.where(np.array(strategies) == "strong", 30.0, 0.0)
    cards = rng.normal(0, 40, size=(600, 4))  # the luck of the deal, the same in both tables
    frames = [
        _games_frame(skill + spread * cards, strategies, variant).assign(condition=condition)
        for condition, (variant, spread) in enumerate([(vs.BASELINE, 1.0), ("luck", 2.0)])
    ]
    better = stronger_seats(pd.concat(frames, ignore_index=True), vs.CONDITION_KEYS)[0]
    levels = grouped_mean(better, better["better_wins"], vs.CONDITION_KEYS, bounded=True)
    leaders = skill_leaders(levels, vs.CONDITION_KEYS)
    assert leaders == {(4, "mixed"): (vs.BASELINE, "luck")}
    (lead,) = leads(better, leaders, vs.CONDITION_KEYS).itertuples()
    by_game = better.pivot(index="game", columns="variant", values="better_wins")
    assert lead.estimate == pytest.approx((by_game[vs.BASELINE] - by_game["luck"]).mean())
    assert (lead.runner_up, lead.n) == ("luck", 600) and lead.low > 0


def test_games_ahead_is_the_normal_approximation_of_the_pairs_lead():
    rng = np.random.default_rng(13)
    strategies = ["strong", "weak", "strong", "weak"]
    totals = np.where(np.array(strategies) == "strong", 110.0, 100.0) + rng.normal(0, 20, (4000, 4))
    games = _games_frame(totals, strategies, vs.BASELINE)
    (ahead,) = stronger_seats(games, vs.CONDITION_KEYS)[1]["games_ahead"]
    # Each pair's lead: mean 10, sd 20 * sqrt(2); (1.645 * 28.3 / 10)^2 is about 22.
    assert 18 <= ahead <= 26
    strong, weak = totals[:, [0, 0, 2, 2]], totals[:, [1, 3, 1, 3]]
    lead = (strong - weak).ravel()
    assert ahead == games_to_be_ahead(lead.mean(), lead.std(ddof=1))


@pytest.mark.slow
def test_reduced_hands_give_the_report_of_every_deal(tmp_path, monkeypatch):
    kept = vs.SPEC.run(6, 3, (4,), progress=False, keep_hands=True, fields=("learned", MIX_FIELD))
    reduced = vs.SPEC.run(6, 3, (4,), progress=False, fields=("learned", MIX_FIELD))
    assert len(reduced.hands) < len(kept.hands) and "--keep-hands" in reduced.manifest["hands"]
    full, small = vs.analyse(kept), vs.analyse(reduced)
    assert full.findings == small.findings and full.in_short == small.in_short
    for mine, theirs in zip(small.tables, full.tables, strict=True):
        pd.testing.assert_frame_equal(mine.frame, theirs.frame, check_exact=True)
    # A run that kept every deal is reduced as it is read, a few whole games at a time:
    # the conditions run across the batches, as a long run's chunks do when it is played.
    write_study(kept, tmp_path)
    monkeypatch.setattr(runs, "BATCH_ROWS", 500)
    sizes: list[int] = []

    def reduce(hands: pd.DataFrame) -> pd.DataFrame:
        sizes.append(len(hands))
        return vs.SPEC.reduce_hands(hands)

    again = read_study(tmp_path, reduce)
    # Never more than a batch and the rest of one game (76 rows at 4 players).
    assert sum(sizes) == len(kept.hands) and max(sizes) < 500 + 76
    pd.testing.assert_frame_equal(again.hands, reduced.hands, check_categorical=False)
    assert again.games["variant"].dtype == "category"
