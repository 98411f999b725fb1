"""How the kernel is built: plain-table kernels, unowned views, ``pdep``, cached built-ins.

Each is a speed device that must not change a single result: a plain-table kernel
plays exactly as the general one, ``nth_card`` picks the same card either way, an
unowned view reads and writes the same memory as its owner, and a built-in that a
kernel calls is compiled once per machine and version of the sources.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import examples, rules_st, seating_st, seeds_st
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import ohhell_sim as oh
from ohhell_sim.engine import bits
from ohhell_sim.engine.unowned import unowned
from ohhell_sim.rules import Rules
from ohhell_sim.run import dispatch

masks_st = st.integers(min_value=1, max_value=(1 << 53) - 1)


def _set_bits(mask: int) -> list[int]:
    return [i for i in range(64) if (mask >> i) & 1]


@njit
def _pick_with_loop(mask, n):
    return bits._nth_card_loop(mask, n)


@njit
def _pick_with_pdep(mask, n):
    return bits._nth_card_pdep(mask, n)


@settings(max_examples=examples(200))
@given(masks_st, st.data())
def test_nth_card_is_the_nth_lowest_set_bit(mask, data):
    cards = _set_bits(mask)
    n = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    assert bits.nth_card(mask, n) == cards[n]
    assert _pick_with_loop(mask, n) == cards[n]
    if bits.pdep_available():
        assert _pick_with_pdep(mask, n) == cards[n]


@pytest.mark.parametrize(
    ("cpu_name", "features", "expected"),
    [("generic", None, False), (None, "+sse2,+bmi2", True), (None, "+sse2,-bmi2", False)],
)
def test_pdep_follows_a_forced_numba_target(monkeypatch, cpu_name, features, expected):
    monkeypatch.setattr(bits.config, "CPU_NAME", cpu_name)
    monkeypatch.setattr(bits.config, "CPU_FEATURES", features)
    assert bits.pdep_available() is expected


@njit
def _write_through_views(a, b):
    owned = (np.zeros(3, dtype=np.int64), np.ones((2, 2), dtype=np.float64))
    x, y = unowned(owned)
    x[1] = 7
    y[1, 0] = 2.5
    view_a = unowned(a)
    view_a[0] = x[1] + owned[0][1]
    row = unowned(b)[1]
    row[:] = y[1, 0]
    return owned[0].sum() + owned[1].sum()


def test_unowned_views_share_the_memory_of_their_owner():
    a = np.zeros(2, dtype=np.int64)
    b = np.zeros((2, 3), dtype=np.float64)
    assert _write_through_views(a, b) == 7 + 2.5 + 3
    assert a.tolist() == [14, 0]
    assert b.tolist() == [[0, 0, 0], [2.5, 2.5, 2.5]]


@pytest.mark.parametrize(
    ("overrides", "general"),
    [
        ({}, False),
        ({"hook": False, "made": "10*bid", "over": "taken", "closed_bids": True}, False),
        ({"nullo": True, "hook": False, "trump": "CDHSN", "no_trump_every": 3}, False),
        ({"deal_order": "1-max", "max_cards": 7}, False),
        ({"players": 8, "decks": 2}, True),
        ({"joker": True}, True),
        ({"swap": 1}, True),
        ({"forehead": True}, True),
        ({"fault_limit": 20}, True),
        ({"tiebreak": True}, True),
    ],
)
def test_only_variants_off_the_plain_table_need_general_tables(overrides, general):
    assert dispatch.needs_general_tables(Rules(**overrides)) is general


@settings(max_examples=examples(6), deadline=None)
@given(st.data(), seeds_st)
def test_plain_kernel_plays_as_the_general_kernel(data, seed):
    rules = data.draw(rules_st(max_deals=4))
    seats = data.draw(seating_st(rules.players))
    kernel = data.draw(st.sampled_from(["dedicated", "shared"]))
    assert not dispatch.needs_general_tables(rules)
    plain = oh.simulate(rules, seats, games=40, seed=seed, kernel=kernel)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "needs_general_tables", lambda _rules: True)
        general = oh.simulate(rules, seats, games=40, seed=seed, kernel=kernel)
    pd.testing.assert_frame_equal(plain.hands, general.hands)
    pd.testing.assert_frame_equal(plain.games, general.games)


@pytest.mark.parametrize(
    "rules",
    [Rules(players=4), Rules(players=5, joker=True, swap=1, hook=False)],
    ids=["plain", "general"],
)
def test_recorded_hands_are_the_hands_replay_deals(rules):
    seats = ["simple", "random"] * rules.players
    seats = seats[: rules.players]
    result = oh.simulate(rules, seats, games=3, seed=5, first_game=7, record_hands=True)
    plain = oh.simulate(rules, seats, games=3, seed=5, first_game=7)
    pd.testing.assert_frame_equal(result.hands, plain.hands)
    assert len(plain.arrays.held) == 0
    for game in range(3):
        log = oh.replay(rules, seats, seed=5, game=7 + game)
        for deal in log.deals:
            masks = [sum(1 << c for c in set(hand)) for hand in deal.hands]
            assert result.arrays.held[game, deal.index].tolist() == masks


def test_kernel_sources_are_what_the_kernel_compiles():
    names = {str(p.relative_to(dispatch.PACKAGE_ROOT)) for p in dispatch.kernel_sources()}
    compiled = {"engine/game.py", "engine/core.py", "engine/tally.py", "rules/layout.py", "view.py"}
    # The helpers the written dispatch calls (a strategy's read-only and own arrays).
    compiled.add("engine/readonly.py")
    assert compiled <= names
    # Editing these must not recompile every kernel.
    assert not names & {"rules/model.py", "results.py", "simulate.py", "summary.py"}
    assert not any(name.startswith(("run/", "analysis/", "cli/")) for name in names)


BUILTIN_COMPILE = """
import ohhell_sim as oh
from ohhell_sim.strategy import disk_cache
from ohhell_sim.strategy.compilation import KERNEL_ARGUMENT_TYPES

bid = oh.get_strategy("zero").bid
disk_cache.cached_on_disk(bid)
bid.compile(KERNEL_ARGUMENT_TYPES)
print(disk_cache.builtin_cache_folder(), sum(bid.stats.cache_hits.values()))
"""


def _twice_on_one_cache(code: str, cache: Path) -> list[list[str]]:
    # The words each of two processes prints running ``code``, one after the
    # other, on the same kernel cache.
    env = {**os.environ, "OHHELL_CACHE_DIR": str(cache)}
    return [
        subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout.split()
        for _ in range(2)
    ]


@pytest.mark.slow
def test_a_called_built_in_compiles_once_per_machine_and_version(tmp_path):
    # The second process links the first one's compile, from a folder named by the
    # package's sources.
    (folder, first_hits), (again, second_hits) = _twice_on_one_cache(BUILTIN_COMPILE, tmp_path)
    assert folder == again and folder.startswith(str(tmp_path / "builtins-"))
    assert any(Path(folder).rglob("*.nbi"))
    assert (first_hits, second_hits) == ("0", "1")


FOLDER_OF_FIRST_USE = """
import os, sys
from numba import njit
from ohhell_sim.strategy import disk_cache

@disk_cache.cached_on_disk
@njit
def doubled(x):
    return 2 * x

os.environ["OHHELL_CACHE_DIR"] = sys.argv[1]  # set after the decorator ran
doubled(3)
print(disk_cache.builtin_cache_folder())
"""


def test_a_compile_kept_on_disk_goes_to_the_folder_named_when_it_first_compiles(tmp_path):
    # A decorator applied at import follows an OHHELL_CACHE_DIR set afterwards (the
    # tests' own kernel folder), rather than writing to the one of import time.
    script = tmp_path / "doubling.py"
    script.write_text(FOLDER_OF_FIRST_USE, encoding="utf-8")
    later, first = tmp_path / "set_later", tmp_path / "at_import"
    env = {**os.environ, "OHHELL_CACHE_DIR": str(first)}
    done = subprocess.run(
        [sys.executable, str(script), str(later)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    folder = Path(done.stdout.strip())
    assert folder.parent == later
    assert [p.name for p in folder.rglob("*.nbi")] and not first.exists()


REPLAYED_BID = """
import ohhell_sim as oh

oh.replay(oh.Rules(players=3, schedule=[2, 1]), ["zero"] * 3, seed=0, game=0)
print(sum(oh.get_strategy("zero").bid.stats.cache_hits.values()))
"""


@pytest.mark.slow
def test_a_replay_reads_the_built_ins_compile_of_an_earlier_process(tmp_path):
    # The reference engine calls a built-in with arguments of their own types; that
    # compile is kept on disk too, so a second process replays without compiling it.
    (first,), (second,) = _twice_on_one_cache(REPLAYED_BID, tmp_path)
    assert first == "0" and int(second) >= 1
