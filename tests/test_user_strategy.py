"""User strategies defined outside the package: register, play, replace, reuse, unregister."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import kernel_files
from numba import njit

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.cli import main
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.run import dispatch
from ohhell_sim.strategy import resolve_seating, strategy_fingerprint
from ohhell_sim.strategy.tools import highest_card, lowest_card

RULES = Rules(players=4, schedule=[6, 3, 1])


@njit
def zero_bid(view, params, rng):
    """Bid 0, or 1 when the hook forbids 0."""
    return 1 if view[V.FORBIDDEN_BID] == 0 else 0


@njit
def lowest_play(view, params, rng):
    return lowest_card(view[V.LEGAL])


@njit
def one_bid(view, params, rng):
    """Bid 1, or 0 when the hook forbids 1."""
    return 0 if view[V.FORBIDDEN_BID] == 1 else 1


@njit
def highest_play(view, params, rng):
    return highest_card(view[V.LEGAL])


@pytest.fixture(scope="module")
def pair():
    """Register ``ut_low`` and ``ut_high`` for the tests of this module.

    A generated kernel takes long to compile, so the tests below use just two:
    ``{ut_low, ut_high}`` and ``{ut_low, ut_high replaced by a constant bidder}``.
    """
    oh.register_strategy("ut_low", zero_bid, lowest_play, description="bids nothing, plays low")
    oh.register_strategy("ut_high", one_bid, highest_play, params={"unused": 2.5})
    yield ("ut_low", "ut_high")
    for name in ("ut_low", "ut_high"):
        if name in oh.available_strategies():
            oh.unregister_strategy(name)


@pytest.fixture
def restore_ut_high(pair):
    yield
    oh.register_strategy("ut_high", one_bid, highest_play, params={"unused": 2.5}, replace=True)


@pytest.fixture
def registered():
    names = []

    def register(name, bid, play, **kwargs):
        strategy = oh.register_strategy(name, bid, play, **kwargs)
        names.append(name)
        return strategy

    yield register
    for name in names:
        if name in oh.available_strategies():
            oh.unregister_strategy(name)


def _files(folder):
    # The kernels of ``ut_low`` and ``ut_high`` and their compiles (other test
    # processes write kernels of their own into the same folder).
    return kernel_files(folder, {"ut_low", "ut_high"})


def _bids_by_strategy(result):
    hands = result.hands
    return {
        name: set(group["bid"].tolist()) for name, group in hands.groupby("strategy", observed=True)
    }


@pytest.mark.slow
def test_register_and_play(pair, kernel_cache_dir):
    assert "ut_low" in oh.available_strategies()
    assert oh.available_strategies().index("ut_low") > oh.available_strategies().index("simple")
    strategy = oh.get_strategy("ut_high")
    assert strategy.builtin_id is None and dict(strategy.params) == {"unused": 2.5}

    # Seatings hold only the two user strategies: each distinct *set* of strategies
    # is a dedicated kernel of its own, and each compile takes long.
    seats = ["ut_low", "ut_high", "ut_low", "ut_high"]
    result = oh.simulate(RULES, seats, games=50, seed=4, kernel="dedicated")
    bids = _bids_by_strategy(result)
    assert bids["ut_low"] <= {0, 1} and 0 in bids["ut_low"]
    assert bids["ut_high"] <= {0, 1} and 1 in bids["ut_high"]
    # ut_low bids 1 only as a hooked dealer, ut_high bids 0 only then.
    hands = result.hands
    ones = hands[(hands["seat"] == 0) & (hands["bid"] == 1)]
    assert (ones["dealer"] == 0).all()
    zeros = hands[(hands["seat"] == 1) & (hands["bid"] == 0)]
    assert (zeros["dealer"] == 1).all()
    # The reference engine plays the same games with the same functions.
    for game in (0, 17, 49):
        log = oh.replay(RULES, seats, seed=4, game=game)
        rows = hands[hands["game"] == game]
        assert [d.bids for d in log.deals] == rows["bid"].to_numpy().reshape(-1, 4).tolist()
        for deal in log.deals:
            for trick in deal.tricks:
                for j, card in enumerate(trick.cards):
                    seat = (trick.leader + j) % 4
                    if seat == 0 and j > 0:
                        # The lowest legal card id: of the led suit when it can follow.
                        led = trick.cards[0] // 13
                        gone = _played_before(deal, trick)
                        held = [c for c in deal.hands[0] if c not in gone]
                        follow = [c for c in held if c // 13 == led]
                        assert card == min(follow or held)

    # Another seating of the same user strategies reuses the generated kernel.
    before = _files(kernel_cache_dir)
    assert any(name.endswith(".py") for name in before)
    kernel = dispatch.kernel_for(resolve_seating(seats, 4), RULES)
    reordered = ["ut_high", "ut_high", "ut_low", "ut_low"]
    again = oh.simulate(RULES, reordered, games=20, seed=4, kernel="dedicated")
    assert dispatch.kernel_for(resolve_seating(reordered, 4), RULES) is kernel
    assert _files(kernel_cache_dir) == before
    assert _bids_by_strategy(again)["ut_low"] <= {0, 1}
    # Also a different table size: same kernel module, no new file.
    oh.simulate(
        Rules(players=5),
        ["ut_low", "ut_high", "ut_low", "ut_high", "ut_low"],
        games=5,
        kernel="dedicated",
    )
    assert _files(kernel_cache_dir) == before
    # A Strategy object works as a seat like its name.
    low = oh.get_strategy("ut_low")
    by_object = oh.simulate(
        RULES, [low, "ut_high", low, "ut_high"], games=50, seed=4, kernel="dedicated"
    )
    np.testing.assert_array_equal(by_object.hands["bid"], result.hands["bid"])
    np.testing.assert_array_equal(by_object.hands["score"], result.hands["score"])
    assert _files(kernel_cache_dir) == before


def _played_before(deal, trick):
    out = []
    for t in deal.tricks:
        if t is trick:
            break
        out.extend(t.cards)
    return out


def test_reregistering_needs_replace(registered):
    registered("ut_dup", zero_bid, lowest_play)
    with pytest.raises(ValueError, match=r"'ut_dup'.*replace=True"):
        oh.register_strategy("ut_dup", one_bid, highest_play)
    assert oh.get_strategy("ut_dup").bid is zero_bid
    replaced = oh.register_strategy("ut_dup", one_bid, highest_play, replace=True)
    assert oh.get_strategy("ut_dup") is replaced
    assert replaced.bid is one_bid and replaced.play is highest_play


@pytest.mark.parametrize("name", ["random", "simple"])
def test_builtins_cannot_be_replaced_or_unregistered(name):
    with pytest.raises(ValueError, match=name):
        oh.register_strategy(name, zero_bid, lowest_play, replace=True)
    with pytest.raises(ValueError, match=name):
        oh.unregister_strategy(name)
    assert oh.get_strategy(name).builtin_id is not None


@pytest.mark.parametrize("name", ["", "1abc", "has space", "dot.name", None, 5])
def test_bad_names(name):
    with pytest.raises((ValueError, TypeError)) as info:
        oh.register_strategy(name, zero_bid, lowest_play)
    assert repr(name) in str(info.value)


def test_functions_must_be_numba_compiled():
    with pytest.raises((ValueError, TypeError), match="bid"):
        oh.register_strategy("ut_plain", zero_bid.py_func, lowest_play)
    with pytest.raises((ValueError, TypeError), match="play"):
        oh.register_strategy("ut_plain", zero_bid, lambda view, params, rng: 0)
    assert "ut_plain" not in oh.available_strategies()


def _seat0_bids(result, game=None):
    hands = result.hands
    rows = (
        hands[hands["seat"] == 0]
        if game is None
        else hands[(hands["seat"] == 0) & (hands["game"] == game)]
    )
    return rows["bid"].tolist()


@pytest.mark.slow
def test_replace_changes_what_is_played(pair, restore_ut_high):
    import scripted_strategies as ss

    seats = ["ut_high", "ut_low", "ut_low", "ut_low"]
    first = oh.simulate(RULES, seats, games=30, seed=2)
    assert set(_seat0_bids(first)) <= {0, 1}
    bid_two, play_low = ss.make_constant_bidder(2)
    oh.register_strategy("ut_high", bid_two, play_low, replace=True)
    assert oh.get_strategy("ut_high").bid is bid_two
    second = oh.simulate(RULES, seats, games=30, seed=2)
    # Now it bids 2 (1 on the one-card deal; one off when the hook forbids it).
    assert 2 in _seat0_bids(second) and set(_seat0_bids(second)) <= {0, 1, 2, 3}
    for game in (0, 29):
        log = oh.replay(RULES, seats, seed=2, game=game)
        assert [d.bids[0] for d in log.deals] == _seat0_bids(second, game)


@pytest.mark.slow
def test_replace_with_changed_global_constant(pair, restore_ut_high):
    # Regression: the generated kernel was named by a hash of the strategy's
    # bytecode, names and constants only, so a strategy whose behaviour comes from a
    # module global (or a helper it calls) hashed the same after that global/helper
    # changed: after ``register_strategy(..., replace=True)`` simulate kept running
    # the old machine code (in-process via dispatch._LOADED, and in later processes
    # via the Numba cache of the same generated file) while replay ran the new code.
    import scripted_strategies as ss

    seats = ["ut_high", "ut_low", "ut_low", "ut_low"]
    oh.register_strategy("ut_high", *ss.make_constant_bidder(2), replace=True)
    first = oh.simulate(RULES, seats, games=10, seed=6)
    assert 2 in _seat0_bids(first)
    oh.register_strategy("ut_high", *ss.make_constant_bidder(3), replace=True)
    second = oh.simulate(RULES, seats, games=10, seed=6)
    log = oh.replay(RULES, seats, seed=6, game=0)
    replayed = [d.bids[0] for d in log.deals]
    assert 3 in replayed  # replay runs the new code (3 on the 6- and 3-card deals)
    assert _seat0_bids(second, 0) == replayed


def test_unregister(registered):
    registered("ut_gone", zero_bid, lowest_play)
    oh.unregister_strategy("ut_gone")
    assert "ut_gone" not in oh.available_strategies()
    with pytest.raises(ValueError, match="ut_gone"):
        oh.get_strategy("ut_gone")
    with pytest.raises(ValueError, match="'ut_gone'"):
        oh.simulate(RULES, ["ut_gone", "random", "random", "random"], games=1)
    with pytest.raises(ValueError, match="ut_gone"):
        oh.unregister_strategy("ut_gone")
    # The name is free again.
    registered("ut_gone", zero_bid, lowest_play)
    assert oh.get_strategy("ut_gone").bid is zero_bid


_FINGERPRINTS = """
import scripted_strategies as ss
import ohhell_sim as oh
from ohhell_sim.strategy import strategy_fingerprint
ss.register_tester()
print(*(strategy_fingerprint(oh.get_strategy(n)) for n in ("random", "simple", "tester")))
"""


@pytest.mark.slow
def test_fingerprints_are_stable_across_processes(tester):
    """Kernel files are named by fingerprints: they must not change between processes
    (hash randomisation, object addresses), or every process compiles anew."""
    here = [strategy_fingerprint(oh.get_strategy(n)) for n in ("random", "simple", "tester")]
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", _FINGERPRINTS],
            cwd=Path(__file__).parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout.split()
        assert out == here, f"PYTHONHASHSEED={hash_seed}"


def test_metadata_of_a_user_strategy(registered):
    heavy = registered("ut_heavy", zero_bid, lowest_play, heavy=True)
    assert heavy.cost == "heavy" and heavy.heavy
    light = registered("ut_light", zero_bid, lowest_play, cost="light")
    assert light.cost == "light" and not light.heavy
    with pytest.raises(InvalidArgumentError, match=r"heavy=True contradicts cost='light'"):
        registered("ut_both", zero_bid, lowest_play, heavy=True, cost="light")
    with pytest.raises(InvalidArgumentError, match=r"cost must be one of light, heavy, got 'huge'"):
        registered("ut_huge", zero_bid, lowest_play, cost="huge")
    with pytest.raises(InvalidArgumentError, match=r"rule 'deck' that does not exist"):
        registered("ut_deck", zero_bid, lowest_play, unsupported={"deck": [2]})
    with pytest.raises(InvalidArgumentError, match=r"unsupported\['joker'\] must be a list"):
        registered("ut_joker", zero_bid, lowest_play, unsupported={"joker": True})


def test_parameters_out_of_their_bounds_are_refused_naming_them(registered, monkeypatch):
    monkeypatch.setattr(dispatch, "kernel_for", None)  # reaching it would fail
    bounded = registered(
        "ut_bounded",
        zero_bid,
        lowest_play,
        params={"share": 0.5, "count": 4.0},
        param_bounds={"share": (0, 1), "count": (1, None)},
    )
    assert list(bounded.param_row({"share": 1.0, "count": 1.0})) == [1.0, 1.0]
    with pytest.raises(InvalidArgumentError, match=r"'share' must be in \[0, 1\], got 1.5"):
        bounded.param_row({"share": 1.5})
    with pytest.raises(InvalidArgumentError, match=r"'count' must be in \[1, inf\], got 0"):
        oh.simulate(RULES, [("ut_bounded", {"count": 0})] * 4, games=1)
    with pytest.raises(InvalidArgumentError, match=r"param_bounds\['size'\] must bound one"):
        registered(
            "ut_unknown", zero_bid, lowest_play, params={"a": 1.0}, param_bounds={"size": (0, 1)}
        )
    with pytest.raises(InvalidArgumentError, match=r"'a' must be in \[2, inf\], got 1"):
        registered(
            "ut_default", zero_bid, lowest_play, params={"a": 1.0}, param_bounds={"a": (2, None)}
        )


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (("bayes_pimc", {"tau": 0.0}), r"'tau' must be in \[0.01, inf\], got 0"),
        (("bayes_pimc", {"prior": 1.2}), r"'prior' must be in \[0, 1\], got 1.2"),
        (("pimc", {"samples": -1}), r"'samples' must be in \[0, inf\], got -1"),
        (("mc_bidder", {"samples": -8}), r"'samples' must be in \[0, inf\]"),
    ],
)
def test_built_in_parameters_are_bounded(seat, message, monkeypatch):
    monkeypatch.setattr(dispatch, "kernel_for", None)
    with pytest.raises(InvalidArgumentError, match=message):
        oh.simulate(RULES, [seat] + ["simple"] * 3, games=1)


def test_unsupported_rules_are_refused_before_any_kernel(registered, monkeypatch):
    monkeypatch.setattr(dispatch, "kernel_for", None)  # reaching it would fail
    one_deck = registered("ut_one_deck", zero_bid, lowest_play, unsupported={"decks": [2]})
    two_decks = Rules(players=8, decks=2)
    assert one_deck.supports(RULES) and not one_deck.supports(two_decks)
    with pytest.raises(
        InvalidArgumentError, match=r"'ut_one_deck' does not support decks=2"
    ) as info:
        oh.simulate(two_decks, ["ut_one_deck"] + ["simple"] * 7, games=2)
    # The message names the strategies that can play these rules.
    assert "simple" in str(info.value) and "pimc" not in str(info.value).split("that do:")[1]


def test_cli_runs_a_strategy_from_a_file_with_parameters(user_modules, tester, tmp_path):
    # The tester is registered by a module the command loads from its path; the
    # bracketed parameters reach the kernel as they do from Python.
    path = user_modules(
        "ut_cli_tester", "import scripted_strategies\n\nscripted_strategies.register_tester()\n"
    )
    seats = f"{path}:tester[mode=5,b0=1],{path}:tester[mode=5]"
    argv = ["simulate", "--players", "4", "--schedule", "3,1", "--games", "30", "--seed", "6"]
    assert main([*argv, "--strategies", seats + "," + seats, "-q", "-o", "out"]) == 0
    hands, games = oh.read_results(tmp_path / "out")
    spec = [("tester", {"mode": 5.0, "b0": 1.0}), ("tester", {"mode": 5.0})] * 2
    direct = oh.simulate(Rules(players=4, schedule=[3, 1]), spec, games=30, seed=6)
    np.testing.assert_array_equal(hands["bid"], direct.hands["bid"])
    np.testing.assert_array_equal(games["total"], direct.games["total"])


#: The guide's example file (the docs page includes it).
GUIDE_FILE = Path(__file__).resolve().parents[1] / "strategies" / "cautious.py"


def _guide_strategy_file() -> str:
    """The guide's example, as a user would save it under another name."""
    return GUIDE_FILE.read_text(encoding="utf-8")


@pytest.mark.slow
def test_guide_strategy_file_plays_no_games_when_the_command_line_imports_it(
    user_modules, monkeypatch, capsys
):
    path = user_modules("my_strategies", _guide_strategy_file())
    # The file's own run calls oh.simulate; the command line plays through its own import.
    runs = []
    monkeypatch.setattr(oh, "simulate", lambda *args, **kwargs: runs.append(kwargs))
    argv = ["simulate", "--import", str(path), "--strategies", "cautious,simple,simple,random"]
    assert main([*argv, "--schedule", "2,1", "--games", "8", "-q"]) == 0
    assert runs == []
    assert "cautious" in capsys.readouterr().out
    # Run as a script, the same file plays its 5,000 games.
    runpy.run_path(str(path), run_name="__main__")
    assert [kwargs["games"] for kwargs in runs] == [5000]


@pytest.mark.slow
def test_built_ins_registered_as_user_strategies_play_the_same_games(registered):
    # A user strategy gets its view and row themselves when its code only reads them
    # (these do), else copies for each decision; either way the decisions, and so
    # the games, are those of the same code built in.
    for name in ("simple", "card_counter"):
        builtin = oh.get_strategy(name)
        registered(f"ut_{name}", builtin.bid, builtin.play, params=builtin.params)
    rules = Rules(players=4, schedule=[7, 4, 1])
    seats = ["simple", "card_counter", "random", "simple[scale=1.5]"]
    mine = ["ut_simple", "ut_card_counter", "random", ("ut_simple", {"scale": 1.5})]
    built_in = oh.simulate(rules, seats, games=60, seed=9)
    user = oh.simulate(rules, mine, games=60, seed=9)
    for frame, expected in ((user.hands, built_in.hands), (user.games, built_in.games)):
        assert frame.drop(columns="strategy").equals(expected.drop(columns="strategy"))
