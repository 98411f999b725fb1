"""Runs follow the strategy code as it is now: no stale kernel, in one process or across processes.

Numba freezes a function's globals and links its helpers when it compiles, and
finds a kernel on disk by name.  A user who edits a helper, a global, a closure
or another module's constant and registers the strategy again must get the new
code's numbers, with any number of distinct strategies seated, in the same
process (five distinct strategies here) and in a fresh one on the same kernel
cache (three).  The unit tests below edit each kind of thing a strategy reads;
the kernel tests check that the kernel and its name follow, with an oracle that
does not go through the engine: the bids a seat that is not the dealer must
make, computed here from the edited values.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import ohhell_sim as oh
from ohhell_sim import view as V
from ohhell_sim.errors import StrategyError
from ohhell_sim.strategy_code import current_functions, fingerprint

#: What a notebook holds: a strategy whose bid is ``k + SHIFT + TABLE[0] + the
#: other module's BID + its extra()``, read through two levels of helpers.
NOTEBOOK = """
import numpy as np
from numba import njit

import tconf
from ohhell_sim import view as V
from ohhell_sim.strategy_tools import lowest_card

SHIFT = 0
TABLE = np.array([0, 0])


@njit
def depth():
    return SHIFT + TABLE[0] + tconf.BID + tconf.extra()


@njit
def helper(view):
    return depth()


def make_bid(k):
    @njit
    def bid(view, params, rng):
        b = min(k + helper(view), view[V.HAND_SIZE])
        if b == view[V.FORBIDDEN_BID]:
            b = b - 1 if b > 0 else 1
        return b

    return bid


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])
"""

TCONF = """
from numba import njit

BID = {bid}


@njit
def extra():
    return {extra}
"""


@pytest.fixture
def notebook(tmp_path, monkeypatch):
    """``(namespace, set_tconf)``: the notebook's namespace, and a rewrite-and-reload of tconf."""
    monkeypatch.syspath_prepend(str(tmp_path))
    module = tmp_path / "tconf.py"

    def set_tconf(bid: int = 0, extra: int = 0):
        module.write_text(TCONF.format(bid=bid, extra=extra), encoding="utf-8")
        importlib.invalidate_caches()
        if "tconf" in sys.modules:
            importlib.reload(sys.modules["tconf"])

    set_tconf()
    namespace = {"__name__": "__main__"}
    exec(NOTEBOOK, namespace)
    yield namespace, set_tconf
    sys.modules.pop("tconf", None)


def _value(bid, play) -> int:
    # The current code's bid on a 10-card hand with no forbidden bid.
    view = np.zeros(V.VIEW_SIZE, dtype=np.int64)
    view[V.HAND_SIZE] = 10
    view[V.FORBIDDEN_BID] = V.UNKNOWN
    current_bid, _ = current_functions("edited", bid, play)
    return int(current_bid(view, np.zeros(1), np.zeros(4, dtype=np.uint64)))


def _redefine_depth(namespace, set_tconf):
    exec("@njit\ndef depth():\n    return 1\n", namespace)


EDITS = {
    "a global two helpers down": lambda ns, tconf: ns.update(SHIFT=1),
    "an array's contents": lambda ns, tconf: ns["TABLE"].__setitem__(0, 1),
    "a redefined helper": _redefine_depth,
    "another module's constant": lambda ns, tconf: tconf(bid=1),
    "another module's helper": lambda ns, tconf: tconf(extra=1),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_every_edit_changes_the_fingerprint_and_the_code_that_runs(notebook, edit):
    namespace, set_tconf = notebook
    bid, play = namespace["make_bid"](0), namespace["play"]
    before = fingerprint("edited", (bid, play))
    assert _value(bid, play) == 0
    # The registered dispatcher itself, once compiled, keeps the old code.
    view = np.zeros(V.VIEW_SIZE, dtype=np.int64)
    view[V.HAND_SIZE], view[V.FORBIDDEN_BID] = 10, V.UNKNOWN
    assert bid(view, np.zeros(1), np.zeros(4, dtype=np.uint64)) == 0
    EDITS[edit](namespace, set_tconf)
    assert fingerprint("edited", (bid, play)) != before
    assert _value(bid, play) == 1


def test_a_closure_of_a_factory_is_part_of_the_fingerprint(notebook):
    namespace, _ = notebook
    play = namespace["play"]
    one, two = namespace["make_bid"](1), namespace["make_bid"](2)
    assert fingerprint("edited", (one, play)) != fingerprint("edited", (two, play))
    assert (_value(one, play), _value(two, play)) == (1, 2)


def test_unchanged_code_keeps_its_fingerprint_and_its_compiled_copies(notebook):
    namespace, set_tconf = notebook
    bid, play = namespace["make_bid"](0), namespace["play"]
    first = current_functions("edited", bid, play)
    namespace["SHIFT"] = 1
    assert current_functions("edited", bid, play) != first
    namespace["SHIFT"] = 0
    set_tconf()  # rewritten as it was, and reloaded: new objects, the same code and values
    assert current_functions("edited", bid, play) == first


REFUSED = {
    "NumPy's global random state": (
        "@njit\ndef bid(view, params, rng):\n    return int(np.random.random() < 0.5)\n",
        "global random state",
    ),
    "Python's global random state": (
        "import random\n"
        "@njit\ndef bid(view, params, rng):\n    return int(random.random() < 0.5)\n",
        "global random state",
    ),
    "an object of a user class": (
        "class Config:\n    bid = 0\nCONFIG = Config()\n"
        "@njit\ndef bid(view, params, rng):\n    return CONFIG.bid\n",
        "cannot fingerprint",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_code_whose_staleness_cannot_be_told_is_refused_at_registration(notebook, case):
    namespace, _ = notebook
    source, expected = REFUSED[case]
    exec(source, namespace)
    with pytest.raises(StrategyError, match=expected) as raised:
        oh.register_strategy("refused", namespace["bid"], namespace["play"])
    assert "refused" not in oh.available_strategies()
    assert "bid (" in str(raised.value)  # names the function and its file


# --- the kernel ------------------------------------------------------------------


def _non_dealer_bids(result, name: str):
    hands = result.hands
    mine = hands[(hands["strategy"] == name) & (hands["seat"] != hands["dealer"])]
    return mine[["hand_size", "bid"]]


def _assert_bids(result, name: str, value: int) -> None:
    rows = _non_dealer_bids(result, name)
    assert len(rows) > 0
    expected = np.minimum(value, rows["hand_size"].to_numpy())
    np.testing.assert_array_equal(rows["bid"].to_numpy(), expected)


@pytest.mark.slow
def test_five_strategies_in_one_process_follow_an_edited_global_and_a_new_closure(
    notebook, registered
):
    namespace, _ = notebook
    seats = ["edited", "random", "zero", "third", "other"]
    rules = oh.Rules(players=5, schedule=[3, 2])
    bid = namespace["make_bid"](0)
    registered("edited", bid, namespace["play"])
    registered("other", namespace["make_bid"](0), namespace["play"])
    registered("third", namespace["make_bid"](2), namespace["play"])
    result = oh.simulate(rules, seats, games=40, seed=6)
    _assert_bids(result, "edited", 0)
    _assert_bids(result, "other", 0)
    _assert_bids(result, "third", 2)
    # The same bid function registered again after a global two calls below it
    # changed; another strategy a new closure of the factory.
    namespace["SHIFT"] = 1
    registered("edited", bid, namespace["play"])
    registered("other", namespace["make_bid"](1), namespace["play"])
    result = oh.simulate(rules, seats, games=40, seed=6)
    _assert_bids(result, "edited", 1)
    _assert_bids(result, "other", 2)  # its closure's 1, and SHIFT
    _assert_bids(result, "third", 3)
    log = oh.replay(rules, seats, seed=6, game=3)
    assert log.deals[0].bids == result.hands.query("game == 3 and deal == 0")["bid"].tolist()


STRATEGY_MODULE = """
import tconf
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy_tools import lowest_card


@njit
def bid(view, params, rng):
    b = min(tconf.BID, view[V.HAND_SIZE])
    if b == view[V.FORBIDDEN_BID]:
        b = b - 1 if b > 0 else 1
    return b


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])


register_strategy("from_module", bid, play)
"""

RUN = """
import ohhell_sim as oh
import mystrategy

result = oh.simulate(
    oh.Rules(players=4, schedule=[4, 3]), ["from_module", "random", "zero", "random"], 30, 2
)
hands = result.hands
mine = hands[(hands.strategy == "from_module") & (hands.seat != hands.dealer)]
print(sorted(set(mine.bid.tolist())))
"""


@pytest.mark.slow
def test_a_fresh_process_compiles_when_another_modules_constant_changed(tmp_path, monkeypatch):
    # A cache folder of its own, so that the first run always compiles.
    monkeypatch.setenv("OHHELL_CACHE_DIR", str(tmp_path / "kernels"))
    (tmp_path / "mystrategy.py").write_text(STRATEGY_MODULE, encoding="utf-8")
    (tmp_path / "run.py").write_text(RUN, encoding="utf-8")

    def run(bid: int) -> tuple[str, bool]:
        (tmp_path / "tconf.py").write_text(f"BID = {bid}\n", encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "run.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        return done.stdout.strip(), "compiling the kernel" in done.stderr

    # (the bids of the seats that do not deal, whether the kernel compiled)
    assert run(0) == ("[0]", True)
    assert run(2) == ("[2]", True)
    assert run(2) == ("[2]", False)  # unchanged: the kernel comes from the cache


def test_a_kernel_name_follows_numbas_global_bounds_checks(monkeypatch):
    from numba import config

    from ohhell_sim.run import dispatch

    strategies = (oh.get_strategy("random"),)
    plain = dispatch.kernel_name(strategies, False, False)
    monkeypatch.setattr(config, "BOUNDSCHECK", 1)
    assert dispatch.kernel_name(strategies, False, False) != plain
    assert dispatch.kernel_name(strategies, False, True) != plain
