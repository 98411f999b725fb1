"""Our strategies as OpenSpiel bots in its ``oh_hell``, and the duplicate match runner.

At every decision of games played to the end, the view we build from the
OpenSpiel state allows exactly OpenSpiel's legal cards and refuses the bid its
hook refuses; our strategies' moves are legal there; OpenSpiel's returns are our
scoring of the deal.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from ohhell_sim import view as V  # noqa: E402
from ohhell_sim.errors import InvalidArgumentError  # noqa: E402
from ohhell_sim.interop.openspiel import (  # noqa: E402
    FairResampler,
    advantage,
    match_summary,
    our_card,
    play_duplicate,
    python_ismcts_bot,
    rules_of,
    stock_mask,
    strategy_bot,
    table_of,
    their_card,
    view_for,
)
from ohhell_sim.reference import Stream, score  # noqa: E402


def _chance(state, rng):
    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(outcomes, p=np.asarray(weights) / sum(weights))))


@pytest.mark.slow
@pytest.mark.parametrize(("players", "tricks"), [(3, 5), (4, 10), (5, 3), (7, 1)])
def test_views_agree_with_openspiel_and_strategies_play_legally(players, tricks):
    game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})
    rules = rules_of(game)
    names = ["simple", "card_counter", "random", "zero", "learned", "simple", "random"]
    bots = [strategy_bot(game, p, names[p], seed=3) for p in range(players)]
    rng = np.random.default_rng(players)
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
                continue
            view = view_for(state, rules)
            legal = state.legal_actions()
            if view[V.PHASE] == V.PHASE_PLAY:
                ours = [c for c in range(52) if (int(view[V.LEGAL]) >> c) & 1]
                assert sorted(ours) == sorted(our_card(a) for a in legal)
            else:
                bids = [a - 52 for a in legal]
                refused = set(range(tricks + 1)) - set(bids)
                forbidden = int(view[V.FORBIDDEN_BID])
                assert refused == (set() if forbidden == V.UNKNOWN else {forbidden})
            action = bots[state.current_player()].step(state)
            assert action in legal
            state.apply_action(action)
        table = table_of(state, rules)
        expected = [
            score(rules, table.bids[s], table.tricks_won[s], tricks) for s in range(players)
        ]
        assert state.returns() == expected


@pytest.mark.slow
def test_told_the_stock_a_view_sees_every_undealt_card_as_gone():
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 5})
    rules = rules_of(game)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        _chance(state, rng)
    history = list(state.history())
    dealt = {our_card(a) for a in history[2 : 2 + 4 * 5]}
    turned = our_card(history[2 + 4 * 5])
    stock = set(range(52)) - dealt - {turned}
    assert {c for c in range(52) if (stock_mask(table_of(state, rules)) >> c) & 1} == stock
    plain = view_for(state, rules)
    told = view_for(state, rules, sees_stock=True)
    assert int(plain[V.PLAYED]) == 0
    assert int(told[V.PLAYED]) == stock_mask(table_of(state, rules))
    # Nothing else in the view changes.
    fields = np.arange(V.VIEW_SIZE) != V.PLAYED
    np.testing.assert_array_equal(plain[fields], told[fields])
    # A sampler told the stock deals the opponents only the cards they hold.
    bot = strategy_bot(game, state.current_player(), "pimc", seed=2, sees_stock=True)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.slow
def test_fair_resampler_deals_every_unseen_card_and_keeps_what_the_seat_knows():
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 5})
    rules = rules_of(game)
    rng = np.random.default_rng(5)
    bot = strategy_bot(game, 0, "simple", seed=1)
    shares, fair_shares = [], []
    for _ in range(40):
        state = game.new_initial_state()
        while state.is_chance_node():
            _chance(state, rng)
        # Play into the deal, so that played cards and shown voids constrain the worlds.
        for _ in range(int(rng.integers(0, 12))):
            state.apply_action(bot.step(state))
        me = state.current_player()
        resample = FairResampler(rules, Stream(3, 0, 7, me).as_array())
        truth = table_of(state, rules)
        others_truth = set().union(*(set(truth.hands[p]) for p in range(4) if p != me))
        for _ in range(10):
            world = resample(state)
            assert world.history()[2 + 20 :] == state.history()[2 + 20 :]
            assert world.information_state_string(me) == state.information_state_string(me)
            table = table_of(world, rules)
            assert table.hands[me] == truth.hands[me]
            for p in range(4):
                assert len(table.hands[p]) == len(truth.hands[p])
                # No card of a suit the seat has shown void in.
                assert all(c // 13 not in truth.voids[p] for c in table.hands[p])
            dealt = set().union(*(set(table.hands[p]) for p in range(4) if p != me))
            shares.append(len(dealt & others_truth) / len(dealt))
            unseen = 52 - len(truth.hands[me]) - len(truth.played) - 1
            fair_shares.append(len(others_truth) / unseen)
    # OpenSpiel's resampler gives 1.0 (the true cards only); a fair one the
    # opponents' share of the unseen cards (voids tilt it a little).
    assert len(shares) == 400
    assert abs(np.mean(shares) - np.mean(fair_shares)) < 0.03


@pytest.mark.slow
def test_python_ismcts_plays_legally_and_replays_with_a_fair_sampler():
    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 2})

    def fair(p, s):
        return python_ismcts_bot(game, p, s, simulations=20)

    entrants = {"fair": fair, "control": lambda p, s: python_ismcts_bot(game, p, s, 20, False)}
    entrants["simple"] = lambda p, s: strategy_bot(game, p, "simple", s)
    first = play_duplicate(game, entrants, 2, seed=4)
    assert len(first) == 2 * 3 * 3
    again = play_duplicate(game, {"fair": fair, "a": fair, "b": fair}, 2, seed=4)
    assert (
        again["points"].tolist()
        == play_duplicate(game, {"fair": fair, "a": fair, "b": fair}, 2, seed=4)["points"].tolist()
    )


def test_card_ids_map_both_ways():
    assert sorted(our_card(a) for a in range(52)) == list(range(52))
    assert all(their_card(our_card(a)) == a for a in range(52))
    assert our_card(51) == 2 * 13 + 12  # OpenSpiel's ace of hearts (suit 3) is our AH


def test_duplicate_match_rotates_every_entrant_through_every_seat():
    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 4})
    entrants = {
        "simple": lambda p, s: strategy_bot(game, p, "simple", s),
        "random_a": lambda p, s: pyspiel.make_uniform_random_bot(p, s),
        "random_b": lambda p, s: pyspiel.make_uniform_random_bot(p, s),
    }
    rows = play_duplicate(game, entrants, deals=6, seed=2)
    assert len(rows) == 6 * 3 * 3
    seats = rows.groupby(["deal", "entrant"])["seat"].apply(sorted)
    assert all(s == [0, 1, 2] for s in seats)
    summary = match_summary(rows)
    assert set(summary["entrant"]) == set(entrants)
    assert (summary["low"] <= summary["estimate"]).all()
    edge = advantage(rows, "simple")
    assert edge["low"] <= edge["estimate"] <= edge["high"]
    again = play_duplicate(game, entrants, deals=6, seed=2)
    assert rows.drop(columns="seconds").equals(again.drop(columns="seconds"))


def test_rules_our_engine_cannot_play_are_refused():
    with pytest.raises(InvalidArgumentError, match="num_tricks_fixed"):
        rules_of(pyspiel.load_game("oh_hell", {"players": 3}))
    with pytest.raises(InvalidArgumentError, match="off_bid_penalty"):
        rules_of(
            pyspiel.load_game(
                "oh_hell", {"players": 3, "num_tricks_fixed": 2, "off_bid_penalty": True}
            )
        )


def test_docs_example_runs(capsys):
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "openspiel.md"
    code = page.read_text(encoding="utf-8").split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code.replace("deals=300", "deals=3"), "docs/openspiel.md", "exec"), {})
    assert "card_counter" in capsys.readouterr().out


def test_a_strategy_plays_a_duplicate_match_against_openspiels_ismcts():
    from ohhell_sim.interop.openspiel import ismcts_bot

    game = pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 2})
    entrants = {
        "card_counter": lambda p, s: strategy_bot(game, p, "card_counter", s),
        "ismcts#1": lambda p, s: ismcts_bot(p, s, simulations=20),
        "ismcts#2": lambda p, s: ismcts_bot(p, s, simulations=20),
    }
    rows = play_duplicate(game, entrants, deals=2, seed=0)
    assert len(rows) == 2 * 3 * 3
    assert (rows["decisions"] == 3).all()  # a bid and two cards per seat and deal
