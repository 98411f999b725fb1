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
from ohhell_sim.strategy.code import current_functions, fingerprint
from ohhell_sim.strategy.compilation import check_compiles

#: What a notebook holds: a strategy whose bid is ``k`` plus the sum of every kind
#: of thing a strategy's code can read, each 0 until an edit makes it 1: a global
#: two helpers down, an array's contents, another module's constant and helper, a
#: module held in a closure cell, a module aliased inside a function (read as an
#: attribute and through getattr), and a global read by a register_jitable helper.
NOTEBOOK = """
import numpy as np
from numba import njit
from numba.extending import register_jitable

import tconf
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import lowest_card

SHIFT = 0
TABLE = np.array([0, 0])
JITABLE = 0


def make_reader(cfg):
    @njit
    def held():
        return cfg.HELD

    return held


held = make_reader(tconf)


@njit
def aliased():
    c = tconf
    return c.ALIASED + getattr(c, "NAMED")


@register_jitable
def jitable():
    return JITABLE


@njit
def depth():
    return SHIFT + TABLE[0] + tconf.BID + tconf.extra() + held() + aliased() + jitable()


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
HELD = {held}
ALIASED = {aliased}
NAMED = {named}


@njit
def extra():
    return {extra}
"""


@pytest.fixture
def notebook(tmp_path, monkeypatch):
    """``(namespace, set_tconf)``: the notebook's namespace, and a rewrite-and-reload of tconf."""
    monkeypatch.syspath_prepend(str(tmp_path))
    module = tmp_path / "tconf.py"

    def set_tconf(bid=0, extra=0, held=0, aliased=0, named=0):
        source = TCONF.format(bid=bid, extra=extra, held=held, aliased=aliased, named=named)
        module.write_text(source, encoding="utf-8")
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


def _assign_in_tconf(name: str):
    # ``tconf.NAME = 1`` in the notebook: the module object edited, not reloaded.
    return lambda ns, tconf: setattr(sys.modules["tconf"], name, 1)


EDITS = {
    "a global two helpers down": lambda ns, tconf: ns.update(SHIFT=1),
    "an array's contents": lambda ns, tconf: ns["TABLE"].__setitem__(0, 1),
    "a redefined helper": _redefine_depth,
    "another module's constant": lambda ns, tconf: tconf(bid=1),
    "another module's helper": lambda ns, tconf: tconf(extra=1),
    "a module held in a closure, its file edited": lambda ns, tconf: tconf(held=1),
    "a module held in a closure, assigned to": _assign_in_tconf("HELD"),
    "a module aliased in the function, its file edited": lambda ns, tconf: tconf(aliased=1),
    "a module aliased in the function, assigned to": _assign_in_tconf("ALIASED"),
    "a module's constant read by getattr": _assign_in_tconf("NAMED"),
    "a global of a register_jitable helper": lambda ns, tconf: ns.update(JITABLE=1),
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


#: Numba extensions of a strategy: an @overload and an @overload_method reading
#: another module's constants.  Each test registers its own method name, since
#: Numba keeps a method's templates for the life of the process.
EXTENSIONS = """
from numba import njit, types
from numba.extending import overload, overload_method

import tconf
from ohhell_sim import view as V
from ohhell_sim.strategy.tools import lowest_card


def offset():
    pass


@overload(offset)
def _offset():
    def impl():
        return tconf.BID

    return impl


@overload_method(types.Array, "{method}")
def _nudge(view):
    def impl(view):
        return tconf.NAMED

    return impl


@njit
def bid(view, params, rng):
    return offset() + view.{method}()


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])
"""


@pytest.fixture
def extensions(notebook, request):
    """The namespace of :data:`EXTENSIONS`, with a method name of its own."""
    namespace = {"__name__": "__main__"}
    method = f"ut_nudge_{request.node.name.split('[')[0][-24:]}_{id(namespace)}"
    exec(EXTENSIONS.format(method=method), namespace)
    return namespace, notebook[1]


@pytest.mark.parametrize("edit", ["bid", "named"])
def test_an_overload_is_hashed_by_what_its_implementation_reads(extensions, edit):
    namespace, set_tconf = extensions
    bid, play = namespace["bid"], namespace["play"]
    before = fingerprint("extended", (bid, play))
    set_tconf(**{edit: 1})  # another module's constant, as a new process would see it
    assert fingerprint("extended", (bid, play)) != before
    assert _value(bid, play) == 1


@pytest.mark.parametrize("edit", ["BID", "NAMED"])
def test_an_overload_edited_after_numba_compiled_it_is_refused(extensions, registered, edit):
    namespace, _ = extensions
    bid, play = namespace["bid"], namespace["play"]
    assert _value(bid, play) == 0
    setattr(sys.modules["tconf"], edit, 1)
    # Numba would link its first compile of the overload: refused, not played.
    with pytest.raises(StrategyError, match="changed after Numba compiled it") as raised:
        registered("extended", bid, play)
    assert "Restart Python" in str(raised.value)
    assert ("_offset" if edit == "BID" else "_nudge") in str(raised.value)
    assert "extended" not in oh.available_strategies()


def test_an_overload_compiled_before_registration_compiles_afresh(extensions, registered):
    namespace, _ = extensions
    # The user tries the helper out before registering, then edits the constant.
    exec("@njit\ndef trial():\n    return offset()\n", namespace)
    assert namespace["trial"]() == 0
    sys.modules["tconf"].BID = 1
    registered("extended", namespace["bid"], namespace["play"])
    assert _value(namespace["bid"], namespace["play"]) == 1


def test_numpys_generator_made_in_the_function_is_not_called_global_random_state(notebook):
    namespace, _ = notebook
    exec(
        "@njit\ndef seeded(view, params, rng):\n"
        "    return int(np.random.default_rng(1).random() < 0.5)\n",
        namespace,
    )
    # Not refused as a global random state (it is local and seeded); Numba cannot
    # compile it, which the compile check says with a hint.
    strategy = oh.register_strategy("seeded", namespace["seeded"], namespace["play"])
    try:
        with pytest.raises(StrategyError, match=r"default_rng.*rng argument"):
            check_compiles(strategy)
    finally:
        oh.unregister_strategy("seeded")


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
def test_five_strategies_in_one_process_follow_edits_of_every_kind(notebook, registered):
    namespace, _ = notebook
    seats = ["edited", "random", "zero", "third", "other"]
    rules = oh.Rules(players=5, schedule=[6, 5])
    bid = namespace["make_bid"](0)
    registered("edited", bid, namespace["play"])
    registered("other", namespace["make_bid"](0), namespace["play"])
    registered("third", namespace["make_bid"](2), namespace["play"])
    result = oh.simulate(rules, seats, games=40, seed=6)
    _assert_bids(result, "edited", 0)
    _assert_bids(result, "other", 0)
    _assert_bids(result, "third", 2)
    # The same bid function registered again after a global two calls below it, a
    # module held in a closure (assigned to, as ``tconf.HELD = 1`` in a notebook)
    # and a register_jitable helper's global changed; another strategy a new
    # closure of the factory.
    namespace["SHIFT"] = 1
    sys.modules["tconf"].HELD = 1
    namespace["JITABLE"] = 1
    registered("edited", bid, namespace["play"])
    registered("other", namespace["make_bid"](1), namespace["play"])
    result = oh.simulate(rules, seats, games=40, seed=6)
    _assert_bids(result, "edited", 3)
    _assert_bids(result, "other", 4)  # its closure's 1, and the three edits
    _assert_bids(result, "third", 5)
    log = oh.replay(rules, seats, seed=6, game=3)
    kernel = result.hands.query("game == 3").sort_values(["deal", "seat"])
    for deal in log.deals:
        assert deal.bids == kernel[kernel["deal"] == deal.index]["bid"].tolist()


#: Five strategies, each bidding a value it reads another way: straight off the
#: module ``tconf``, off ``tconf`` held in a closure cell, off ``tconf`` aliased in
#: the function, through an @overload of another module, and through a
#: register_jitable helper's global (``JITABLE``, edited in this file).
STRATEGY_MODULE = """
import tconf
from numba import njit
from numba.extending import overload, register_jitable

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import lowest_card

JITABLE = {jitable}


@njit
def hooked(b, view):
    b = min(b, view[V.HAND_SIZE])
    if b == view[V.FORBIDDEN_BID]:
        b = b - 1 if b > 0 else 1
    return b


@njit
def play(view, params, rng):
    return lowest_card(view[V.LEGAL])


@njit
def direct(view, params, rng):
    return hooked(tconf.BID, view)


def make(cfg):
    @njit
    def held(view, params, rng):
        return hooked(cfg.HELD, view)

    return held


@njit
def aliased(view, params, rng):
    c = tconf
    return hooked(c.ALIASED, view)


def offset():
    pass


@overload(offset)
def _offset():
    def impl():
        return tconf.OVERLOADED

    return impl


@njit
def overloaded(view, params, rng):
    return hooked(offset(), view)


@register_jitable
def jitable():
    return JITABLE


@njit
def through_jitable(view, params, rng):
    return hooked(jitable(), view)


register_strategy("direct", direct, play)
register_strategy("held", make(tconf), play)
register_strategy("aliased", aliased, play)
register_strategy("overloaded", overloaded, play)
register_strategy("jitable", through_jitable, play)
"""

RUN = """
import ohhell_sim as oh
import mystrategy

rules = oh.Rules(players=5, schedule=[4, 3])
seats = ["direct", "held", "aliased", "overloaded", "jitable"]
result = oh.simulate(rules, seats, 30, 2, kernel="dedicated")
hands = result.hands
bids = {}
for name in seats:
    mine = hands[(hands.strategy == name) & (hands.seat != hands.dealer)]
    bids[name] = sorted(set(mine.bid.tolist()))
log = oh.replay(rules, seats, seed=2, game=3)
kernel = hands[hands.game == 3].sort_values(["deal", "seat"])
replayed = all(d.bids == kernel[kernel.deal == d.index].bid.tolist() for d in log.deals)
print(bids, replayed)
"""


@pytest.mark.slow
def test_a_fresh_process_compiles_when_code_read_any_way_changed(tmp_path, monkeypatch):
    # A cache folder of its own, so that the first run always compiles.
    monkeypatch.setenv("OHHELL_CACHE_DIR", str(tmp_path / "kernels"))
    (tmp_path / "run.py").write_text(RUN, encoding="utf-8")

    def run(bid, held, aliased, overloaded, jitable) -> tuple[str, bool]:
        (tmp_path / "tconf.py").write_text(
            f"BID = {bid}\nHELD = {held}\nALIASED = {aliased}\nOVERLOADED = {overloaded}\n",
            encoding="utf-8",
        )
        source = STRATEGY_MODULE.format(jitable=jitable)
        (tmp_path / "mystrategy.py").write_text(source, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "run.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        return done.stdout.strip(), "compiling the kernel" in done.stderr

    def expected(*values) -> str:
        # The oracle: each strategy's non-dealer bids are the value its code reads.
        names = ("direct", "held", "aliased", "overloaded", "jitable")
        return f"{ {n: [v] for n, v in zip(names, values, strict=True)} } True"

    # (the bids of the seats that do not deal, whether the kernel compiled)
    assert run(0, 0, 0, 0, 0) == (expected(0, 0, 0, 0, 0), True)
    assert run(1, 2, 1, 2, 1) == (expected(1, 2, 1, 2, 1), True)
    assert run(1, 2, 1, 2, 1) == (expected(1, 2, 1, 2, 1), False)  # from the cache


def test_a_kernel_name_follows_numbas_global_bounds_checks(monkeypatch):
    from numba import config

    from ohhell_sim.run import dispatch

    strategies = (oh.get_strategy("random"),)
    plain = dispatch.kernel_name(strategies, False, False)
    monkeypatch.setattr(config, "BOUNDSCHECK", 1)
    assert dispatch.kernel_name(strategies, False, False) != plain
    assert dispatch.kernel_name(strategies, False, True) != plain
