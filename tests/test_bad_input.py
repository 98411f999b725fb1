"""Bad input fails fast and clearly; illegal moves stop a run with a precise error."""

from __future__ import annotations

import importlib
import os
import pickle
import socket
import sys
import tempfile

import numpy as np
import pytest
import scripted_strategies as ss

import ohhell_sim as oh
from ohhell_sim.bench import bench
from ohhell_sim.cli import main
from ohhell_sim.errors import (
    ERR_BID_RANGE,
    ERR_CARD_NOT_IN_HAND,
    ERR_MUST_FOLLOW,
    InvalidArgumentError,
)
from ohhell_sim.interop.openspiel import check_bot_seeds
from ohhell_sim.interop.openspiel_matches import plan_matches
from ohhell_sim.results import check_output_folder
from ohhell_sim.rules import Rules
from ohhell_sim.strategies.learned import train_bid_table

RULES = Rules(players=4)
SEATS = ["random", "simple", "random", "simple"]


def _bad(no_kernel_fixture, words, **overrides):
    kwargs = {"rules": RULES, "strategies": SEATS, "games": 3, "seed": 0}
    kwargs.update(overrides)
    with pytest.raises((ValueError, TypeError)) as info:
        oh.simulate(**kwargs)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)
    return message


# --- rules ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 8, 0, -3])
def test_players_outside_3_to_7(players):
    with pytest.raises(ValueError) as info:
        Rules(players=players)
    assert "players" in str(info.value) and str(players) in str(info.value)


def test_schedule_needing_more_cards_than_the_deck():
    with pytest.raises(ValueError) as info:
        Rules(players=5, schedule=[10, 11])
    message = str(info.value)
    assert "schedule[1]" in message and "11" in message and "5 players" in message


def test_rules_must_be_rules(no_kernel):
    _bad(no_kernel, ["rules", "dict"], rules={"players": 4})
    _bad(no_kernel, ["rules", "int"], rules=4)


# --- games, seed, first_game, threads -------------------------------------------------


@pytest.mark.parametrize(
    ("games", "shown"),
    [(0, "0"), (-1, "-1"), (2.5, "2.5"), ("10", "'10'"), (True, "True"), (None, "None")],
)
def test_bad_games(no_kernel, games, shown):
    _bad(no_kernel, ["games", shown], games=games)


@pytest.mark.parametrize(
    ("seed", "shown"),
    [
        (-1, "-1"),
        (1.5, "1.5"),
        ("7", "'7'"),
        (2**63, str(2**63)),
        (2**64, str(2**64)),
        (True, "True"),
        (None, "None"),
    ],
)
def test_bad_seed(no_kernel, seed, shown):
    message = _bad(no_kernel, ["seed", shown], seed=seed)
    assert str(2**63 - 1) in message  # the allowed range is stated


def test_largest_seed_is_accepted():
    seats = ["random", "simple", "random"]
    result = oh.simulate(Rules(players=3, schedule=[1]), seats, games=1, seed=2**63 - 1)
    assert result.seed == 2**63 - 1


@pytest.mark.parametrize(("first_game", "shown"), [(-1, "-1"), (0.5, "0.5"), ("3", "'3'")])
def test_bad_first_game(no_kernel, first_game, shown):
    _bad(no_kernel, ["first_game", shown], first_game=first_game)


@pytest.mark.parametrize(
    ("threads", "shown"), [(0, "0"), (-2, "-2"), (1.5, "1.5"), (10_000, "10000"), ("2", "'2'")]
)
def test_bad_threads(no_kernel, threads, shown):
    _bad(no_kernel, ["threads", shown], threads=threads)


def test_first_game_beyond_the_frames_game_column(no_kernel):
    # Regression: ``first_game`` had no upper bound while the frames store ``game``
    # as int32, so simulate(..., first_game=2**31) played every game and only then
    # failed with OverflowError when ``.hands``/``.games`` was built.
    _bad(no_kernel, ["first_game", str(2**31)], first_game=2**31)
    _bad(no_kernel, ["first_game", str(2**31 - 2)], first_game=2**31 - 2, games=5)


def test_results_near_the_int32_limit_can_be_framed():
    # Companion of the test above, for the largest games that do fit in int32.
    last = 2**31 - 1
    seats = ["random", "simple", "random"]
    result = oh.simulate(Rules(players=3, schedule=[1]), seats, games=2, first_game=last - 1)
    assert result.games["game"].tolist() == [last - 1] * 3 + [last] * 3


# --- strategies -----------------------------------------------------------------------


def test_unknown_strategy_lists_known_ones(no_kernel):
    message = _bad(
        no_kernel,
        ["'nonesuch'", "random", "simple"],
        strategies=["random", "nonesuch", "simple", "random"],
    )
    assert "known" in message


@pytest.mark.parametrize("count", [0, 3, 5])
def test_wrong_number_of_strategies(no_kernel, count):
    _bad(no_kernel, ["4 players", str(count)], strategies=["random"] * count)


def test_strategies_must_be_a_list(no_kernel):
    _bad(no_kernel, ["strategies", "'random'"], strategies="random")


def test_unknown_strategy_parameter(no_kernel):
    _bad(
        no_kernel,
        ["'simple'", "'risk'", "scale"],
        strategies=["random", ("simple", {"risk": 2.0}), "random", "simple"],
    )


def test_malformed_seat_tuple(no_kernel):
    _bad(no_kernel, ["tuple"], strategies=["random", ("simple",), "random", "simple"])


def test_non_numeric_strategy_parameter_value(no_kernel):
    # Regression: Strategy.param_row's bare ``float(value)`` once raised "could not
    # convert string to float: 'high'", naming neither the strategy nor the parameter.
    _bad(
        no_kernel,
        ["'scale'", "'high'"],
        strategies=["random", ("simple", {"scale": "high"}), "random", "simple"],
    )


# --- output folder -----------------------------------------------------------------


def test_output_folder_that_is_a_file(tmp_path):
    existing = tmp_path / "results.parquet"
    existing.write_text("not a folder")
    with pytest.raises(ValueError) as info:
        check_output_folder(existing)
    assert str(existing) in str(info.value)


def test_output_folder_below_a_file(tmp_path):
    existing = tmp_path / "a-file"
    existing.write_text("x")
    target = existing / "run" / "out"
    with pytest.raises(ValueError) as info:
        check_output_folder(target)
    assert str(target) in str(info.value)
    assert not target.exists()


def test_output_folder_not_writable(tmp_path, monkeypatch):
    # Tried, not judged by permission bits: a folder that refuses a new entry is
    # refused, whatever os.access says (it says yes to root everywhere).
    locked = tmp_path / "locked"
    locked.mkdir()
    target = locked / "run"
    real_mkdtemp = tempfile.mkdtemp

    def refusing(*args, dir=None, **kwargs):
        if str(dir) == str(locked):
            raise PermissionError(13, "Permission denied")
        return real_mkdtemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkdtemp", refusing)
    with pytest.raises(ValueError) as info:
        check_output_folder(target)
    assert str(target) in str(info.value) and "Permission denied" in str(info.value)
    assert list(locked.iterdir()) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_output_folder_in_proc_is_refused_before_the_run():
    # /proc takes no new folders, although os.access may call it writable.
    with pytest.raises(ValueError, match=r"'/proc/x' cannot be written.*'/proc'"):
        check_output_folder("/proc/x")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_output_folder_read_only_permissions(tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ValueError):
            check_output_folder(locked / "run")
    finally:
        locked.chmod(0o700)


def test_output_folder_ok(tmp_path):
    assert check_output_folder(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert check_output_folder(tmp_path) == tmp_path


# --- illegal moves ---------------------------------------------------------------------

ILLEGAL = {
    "bid-too-high": (ss.MODE_BID_TOO_HIGH, ERR_BID_RANGE, "bid"),
    "bid-negative": (ss.MODE_NEGATIVE_BID, ERR_BID_RANGE, "bid"),
    "card-not-in-hand": (ss.MODE_NOT_IN_HAND, ERR_CARD_NOT_IN_HAND, "card"),
    "revoke": (ss.MODE_NO_FOLLOW, ERR_MUST_FOLLOW, "card"),
}


def _attrs(err):
    return (err.strategy, err.game, err.deal, err.seat, err.move, err.code, err.trick)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(ILLEGAL))
@pytest.mark.parametrize("seat", [0, 2])
def test_illegal_moves_raise_from_simulate_and_replay(tester, case, seat):
    mode, code, kind = ILLEGAL[case]
    seats = ["random", "simple", "random", "simple"]
    seats[seat] = ss.mode(mode)
    with pytest.raises(oh.IllegalMoveError) as info:
        oh.simulate(RULES, seats, games=10, seed=3, first_game=5, threads=1)
    err = info.value
    assert err.code == code
    assert err.strategy == "tester" and err.seat == seat
    assert err.game == 5  # every game goes wrong; one thread reports the first
    message = str(err)
    for part in ("'tester'", f"seat {seat}", f"game {err.game}", f"deal {err.deal}"):
        assert part in message, (part, message)
    if kind == "bid":
        assert err.trick == -1
        assert f"bid {err.move}" in message
        assert err.move in (-1, RULES.schedule[err.deal] + 1)
    else:
        assert err.trick >= 0 and f"trick {err.trick}" in message
        from ohhell_sim.cards import card_code

        assert card_code(err.move) in message
    # The reference engine stops at the very same move.
    with pytest.raises(oh.IllegalMoveError) as again:
        oh.replay(RULES, seats, seed=3, game=err.game)
    assert _attrs(again.value) == _attrs(err)
    assert str(again.value) == message
    # It travels between processes (Dask workers) whole.
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is oh.IllegalMoveError
    assert _attrs(copy) == _attrs(err) and copy.hand_size == err.hand_size
    assert str(copy) == message


@pytest.mark.slow
def test_illegal_move_in_a_later_game_is_located(tester):
    # Seat 1 bids 0 except as dealer, when it bids 3: out of range with 2 cards
    # (deal 1), forbidden by the hook with 3 cards when the others bid 0 (deal 0),
    # legal otherwise.  It deals deal 0 or 1 only when the first dealer is seat 1
    # or seat 0, so some games fail and others do not.
    rules = Rules(players=4, schedule=[3, 2])
    seats = ["random", ss.scripted([0, 0, 0, 3]), "random", "simple"]
    with pytest.raises(oh.IllegalMoveError) as info:
        oh.simulate(rules, seats, games=40, seed=12, threads=1)
    err = info.value
    assert err.seat == 1 and err.move == 3 and err.deal in (0, 1)
    # With one thread the first failing game is reported: replay finds the same.
    first_failing = None
    for game in range(40):
        try:
            oh.replay(rules, seats, seed=12, game=game)
        except oh.IllegalMoveError as again:
            first_failing = game
            assert _attrs(again) == _attrs(err)
            break
    assert first_failing == err.game


@pytest.mark.slow
def test_no_results_after_an_illegal_move(tester):
    seats = [ss.mode(ss.MODE_NOT_IN_HAND), "random", "simple", "random"]
    result = None
    with pytest.raises(oh.IllegalMoveError):
        result = oh.simulate(RULES, seats, games=500, seed=1)
    assert result is None


# --- the command line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--strategies", "nomod_xyz:cautious"], ["--strategies", "no module named 'nomod_xyz'"]),
        (["--import", "nomod_xyz"], ["--import", "'nomod_xyz'"]),
        (["--strategies", "ut_bad_mod:nothere"], ["'ut_bad_mod'", "'nothere'", "cautious"]),
        (["--strategies", "missing/file.py:cautious"], ["'missing/file.py'", ".py file"]),
        (["--strategies", "ut_broken:x"], ["importing 'ut_broken' failed", "ZeroDivisionError"]),
        (["--strategies", "simple[scale=x]"], ["'simple'", "'scale'", "number", "'x'"]),
        (["--strategies", "simple[scal=2]"], ["'simple'", "'scal'", "its parameters: scale"]),
        (["--strategies", "simple[scale]"], ["'simple[scale]'", "PARAM=VALUE", "'scale'"]),
        (["--strategies", "simple[scale=1,scale=2]"], ["'scale'", "twice"]),
        (["--strategies", "simple[scale=2"], ["unbalanced brackets", "[MODULE:]NAME"]),
        (["--strategies", "simple]scale=2["], ["unbalanced brackets"]),
        (["--strategies", "simple,,random"], ["empty seat"]),
        (["--strategies", "simple,random"], ["one seat per player", "4 players", "2 seats"]),
        (["--strategies", "nosuch"], ["unknown strategy 'nosuch'", "simple"]),
        (["--rule", "decks=2", "--players", "8", "--strategies", "pimc"], ["'pimc'", "decks=2"]),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_cli_refuses_bad_seats_before_any_work(
    no_kernel, user_modules, capsys, command, argv, words
):
    user_modules("ut_bad_mod")
    user_modules("ut_broken", "1 / 0\n")
    with pytest.raises(SystemExit) as info:
        main([command, "--games", "8", *argv])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"ohhell {command}: error: ")
    for word in words:
        assert word in captured.err, (word, captured.err)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--games", "-5"], ["games", "-5"]),
        (["--games", "0"], ["games", ">= 1"]),
        (["--seed", "-1"], ["seed", "-1"]),
        (["--output", "a_file"], ["output path", "existing file"]),
    ],
)
def test_quickstart_checks_its_options_before_printing(no_kernel, tmp_path, capsys, argv, words):
    (tmp_path / "a_file").write_text("")
    argv = [a.replace("a_file", str(tmp_path / "a_file")) for a in argv]
    with pytest.raises(SystemExit) as info:
        main(["quickstart", "--output", str(tmp_path / "out"), *argv])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    for word in words:
        assert word in captured.err, (word, captured.err)
    assert not (tmp_path / "out").exists()


# --- game indices and seeds the engine would wrap round -------------------------------

MAX_GAME = 2**31 - 1


@pytest.mark.parametrize("game", [2**64, 2**64 - 1, 2**63, MAX_GAME + 1, -1, np.uint64(2**63)])
def test_replay_refuses_a_game_no_run_holds(game):
    # The engine keys games by uint64: 2**64 would be replayed as game 0, relabelled.
    with pytest.raises(InvalidArgumentError, match=r"game must be an integer in 0\.\.2147483647"):
        oh.replay(RULES, SEATS, game=game)


def test_replay_command_refuses_a_game_at_two_to_the_64(capsys):
    with pytest.raises(SystemExit) as info:
        main(["replay", "--game", str(2**64)])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "ohhell replay: error: game must be an integer in 0..2147483647 (the game indices "
        f"of a run), got {2**64}\n"
    )


@pytest.mark.parametrize("seed", [2**64, 2**63, -1])
@pytest.mark.parametrize(
    "call",
    [
        lambda seed: oh.replay(RULES, SEATS, seed=seed),
        lambda seed: oh.summarise(RULES, SEATS, 3, seed),
        lambda seed: oh.tournament(RULES, SEATS, 8, seed),
        lambda seed: oh.check_strategy("simple", seed=seed),
        lambda seed: bench(strategy="simple", deals=10, seed=seed),
        lambda seed: train_bid_table(players=[3], deals=10, seed=seed, max_hand=1),
    ],
    ids=["replay", "summarise", "tournament", "check_strategy", "bench", "train_bid_table"],
)
def test_every_seed_is_checked(no_kernel, call, seed):
    with pytest.raises(InvalidArgumentError, match=r"seed must be an integer in 0\.\."):
        call(seed)


def test_openspiel_bot_seeds_must_fit_32_bits():
    check_bot_seeds(2147, deals=2, players=3)
    with pytest.raises(InvalidArgumentError, match=r"32-bit seeds .* seeds 0\.\.2147 fit"):
        check_bot_seeds(2148, deals=2, players=3)
    with pytest.raises(InvalidArgumentError, match="no seed fits; play fewer deal sets"):
        check_bot_seeds(0, deals=10**9, players=3)
    with pytest.raises(InvalidArgumentError, match="32-bit seeds"):
        plan_matches(["simple"], ["random"], [3], [1], deals=2, seed=2**40)


# --- one line for a failure of the run, a traceback with --debug ---------------------

RAISING_MODULE = """
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.strategy import register_strategy
from ohhell_sim.strategy.tools import lowest_card


@njit
def bid(view, params, rng):
    return 0


@njit
def play(view, params, rng):
    if view[V.HAND_SIZE] == 1:
        raise ValueError("no single cards")
    return lowest_card(view[V.LEGAL])


register_strategy("ut_raising", bid, play)
"""


@pytest.mark.slow
def test_a_strategy_that_raises_is_located(user_modules):
    path = user_modules("ut_raising_mod", RAISING_MODULE)
    sys.path.insert(0, str(path.parent))  # the fixture restores sys.path
    importlib.import_module("ut_raising_mod")
    with pytest.raises(oh.StrategyError) as info:
        oh.replay(Rules(players=3, schedule=[2, 1]), ["simple", "ut_raising", "simple"])
    error = info.value
    assert (error.strategy, error.role, error.seat, error.game, error.deal) == (
        "ut_raising",
        "play",
        1,
        0,
        1,
    )
    assert error.location.startswith(f"{path}:17 ")
    assert isinstance(error.__cause__, ValueError)


def test_a_strategy_error_is_one_line_on_the_command_line(user_modules, capsys):
    path = user_modules("ut_raising_cli", RAISING_MODULE)
    argv = ["replay", "--players", "3", "--schedule", "2,1", "--import", str(path)]
    argv += ["--strategies", "simple,ut_raising,simple"]
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    for word in (
        "ohhell replay: error: strategy 'ut_raising'",
        "play function raised ValueError: no single cards",
        f"{path}:17",
        "seat 1, game 0, deal 1",
    ):
        assert word in captured.err, (word, captured.err)
    # --debug, before or after the command, lets the error and its traceback through.
    for debug in (["--debug", *argv], [*argv, "--debug"]):
        with pytest.raises(oh.StrategyError, match="ut_raising"):
            main(debug)


@pytest.mark.slow
def test_an_illegal_move_is_one_line_on_the_command_line(tester, capsys):
    seats = f"tester[mode={ss.MODE_BID_TOO_HIGH}],random,simple,random"
    with pytest.raises(SystemExit) as info:
        main(["replay", "--schedule", "3,2", "--strategies", seats])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "strategy 'tester' in seat 0 made an illegal move in game 0, deal 0" in err


def test_report_of_a_folder_without_study_output_is_one_line(tmp_path, capsys):
    def refused(argv, words):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        for word in words:
            assert word in err, (word, err)

    empty = tmp_path / "empty"
    empty.mkdir()
    refused(
        ["report", "zero_bids", "--input", str(empty)],
        ["study.json and analysis.json are missing", f"ohhell experiment zero_bids --out {empty}"],
    )
    refused(["report", str(empty)], ["neither a study"])
    (empty / "study.json").write_text("{")
    refused(["report", "zero_bids", "--input", str(empty)], ["study.json", "not the manifest"])
    counts = tmp_path / "counts"
    counts.mkdir()
    (counts / "summary.parquet").write_bytes(b"")
    refused(["report", str(counts)], ["--summary run", "ohhell simulate --output"])


def test_an_unreachable_scheduler_is_refused_at_once(no_kernel, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")

    def no_client(*args, **kwargs):
        raise AssertionError("waited for a Client although nothing listens")

    monkeypatch.setattr(distributed, "Client", no_client)
    with socket.socket() as probe:  # a port that nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--games", "5", "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"cannot reach the Dask scheduler at 'tcp://127.0.0.1:{port}'" in err
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--games", "5", "--scheduler", "no-port"])
    assert info.value.code == 2
    assert "missing port" in capsys.readouterr().err


# --- more options checked before any work -------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tournament", "--games", "8", "--output", "a_file/t.parquet"], ["'a_file'", "file"]),
        (["tournament", "--games", "8", "--output", "t.csv"], ["must end in .parquet"]),
        (["simulate", "--rule", "hook=true", "--rule", "hook=false"], ["--rule hook", "twice"]),
        (["simulate", "--strategies", "simple[scale=nan]"], ["'scale'", "finite", "'nan'"]),
        (["simulate", "--import", ""], ["--import needs a module name"]),
        (["simulate", "--import", "a_folder"], ["'a_folder' is a folder, not a module"]),
        (["simulate", "--import", "a_file"], ["'a_file' is not a .py file"]),
        (["simulate", "--games", str(MAX_GAME)], ["GiB", "--summary"]),
        (["simulate", "--games", str(2**40)], ["games=1099511627776", "give fewer games"]),
        (["bench", "--strategy", "simple,random"], ["--strategy takes one seat"]),
        (["bench", "--seed", "-1"], ["seed", "-1"]),
        (["train-bids", "--output", "bids.txt"], ["must end in .npz"]),
        (["train-bids", "--output", "a_folder"], ["must end in .npz"]),
        (["train-bids", "--max-hand", "0"], ["max_hand", "1..17", "got 0"]),
        (["train-bids", "--max-hand", "18"], ["max_hand", "got 18"]),
        (["train-bids", "--seed", "-1"], ["seed", "-1"]),
        (["replay", "--json", "--debug", "--players", "2"], ["players", "3..10"]),
    ],
)
def test_more_bad_options_are_one_line(no_kernel, tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a_file").write_text("")
    (tmp_path / "a_folder").mkdir()
    if "--debug" in argv:
        with pytest.raises(InvalidArgumentError):
            main(argv)
        return
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    for word in words:
        assert word in captured.err, (word, captured.err)


def test_strategy_records_refuse_bad_metadata():
    simple = oh.get_strategy("simple")
    cases = [
        (dict(params="scale"), "params must map parameter names"),
        (dict(params={"sc ale": 1.0}), "parameter name 'sc ale'"),
        (dict(params={"scale": "1"}), "the default of parameter 'scale' must be a finite number"),
        (dict(params={"scale": float("inf")}), "finite number"),
        (dict(params={"scale": 1.0}, stochastic="no"), "stochastic must be True or False"),
    ]
    for kwargs, words in cases:
        with pytest.raises(InvalidArgumentError, match=words):
            oh.register_strategy("ut_bad_record", simple.bid, simple.play, **kwargs)
    assert "ut_bad_record" not in oh.available_strategies()


def test_flags_must_be_booleans(no_kernel):
    _bad(no_kernel, ["progress", "'yes'"], progress="yes")
    with pytest.raises(InvalidArgumentError, match="progress"):
        oh.summarise(RULES, SEATS, 3, progress=1)


def test_results_that_are_not_there_say_what_is_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"hands\.parquet and games\.parquet missing"):
        oh.read_results(tmp_path)
    with pytest.raises(FileNotFoundError, match="no summary at"):
        oh.RunSummary.read_parquet(tmp_path)


def test_a_study_refuses_what_it_would_play_and_count_twice(no_kernel):
    from ohhell_sim.studies.design import check_fields
    from ohhell_sim.studies.strategy_ladder import play as play_ladder

    with pytest.raises(InvalidArgumentError, match="fields names 'simple' twice"):
        check_fields(["simple", "mix", "simple"])
    with pytest.raises(InvalidArgumentError, match="strategies names 'random' twice"):
        play_ladder(8, 0, strategies=("random", "simple", "random"), progress=False)
    # simple[scale=1] is simple: the same match twice.
    with pytest.raises(InvalidArgumentError, match=r"the match simple against random .* twice"):
        plan_matches(["simple[scale=1]", "simple"], ["random"], [3], [1], deals=2, seed=0)
