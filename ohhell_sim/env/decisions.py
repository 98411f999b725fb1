"""Chosen games played by their strategies in Numba, every decision kept.

:func:`record_decisions` plays games of a run on one table of the batched
environment (:mod:`ohhell_sim.env.batched`), with no learning seat: the
environment's own game (the engine's deal and game steps, the strategies of the
seating compiled in), cut at each decision only to copy it into a
:class:`~ohhell_sim.env.batched.Record`.  Game ``g`` is game ``g`` of the run
seeded ``seed``: the same cards and strategy streams as that game of
:func:`ohhell_sim.simulate` and of the reference engine
(:func:`ohhell_sim.reference.game_steps`), so the decisions are those the
reference engine's game would show, view for view.

The games of every set are played through one dispatch over all the sets'
strategies, and the loop is bound to that kernel in a small module written
beside the built-ins' compiles (:func:`ohhell_sim.strategy.disk_cache.builtin_cache_folder`),
so that Numba keeps its compile on disk: the first call after an install or an
edit of the sources compiles it (a minute or two on a small machine), later
calls, in any process, load it.

It serves learning from the strategies' own positions (the ``distilled``
trainer, :mod:`ohhell_sim.training.distilled`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import NamedTuple

import numpy as np
from numba import njit

from ohhell_sim import view as V
from ohhell_sim.arguments import check_count, check_game, check_seed
from ohhell_sim.engine.workspace import ERROR_FIELDS
from ohhell_sim.env.batched import (
    _NEW_GAME,
    S_EPISODE,
    S_GAME,
    Config,
    Outputs,
    Record,
    _advance,
    _new_tables,
    _scratch,
)
from ohhell_sim.env.observation import ObservationLayout, action_count
from ohhell_sim.errors import IllegalMoveError
from ohhell_sim.rules import Rules
from ohhell_sim.run import dispatch
from ohhell_sim.strategy import SeatSpec, check_seating, resolve_seating
from ohhell_sim.strategy.disk_cache import builtin_cache_folder

#: Games played per call of the compiled loop (the record's buffers are sized for them).
GAMES_PER_CALL = 64


class Decisions(NamedTuple):
    """The decisions of some games, in the order they were made.

    Every bid, and every card choice with more than one legal card, is a row:
    its view (:mod:`ohhell_sim.view`), every seat's cards at that moment (a bit
    mask per seat, :data:`ohhell_sim.view.MAX_SEATS` of them; under two decks a
    card held twice shows once) and its game index.
    """

    bid_views: np.ndarray  # (bids, VIEW_SIZE) int64
    bid_hands: np.ndarray  # (bids, MAX_SEATS) int64
    bid_games: np.ndarray  # (bids,) int64
    card_views: np.ndarray  # (cards, VIEW_SIZE) int64
    card_hands: np.ndarray  # (cards, MAX_SEATS) int64
    card_games: np.ndarray  # (cards,) int64


# The environment's loop is inlined into the recorder: the recorder then only calls
# its kernel's dispatch, which a compile kept on disk may do (passing it on as a
# value would embed its address, and Numba would not keep the compile).
@njit(inline="always")
def _play_games(games, cfg, tb, out, record, dispatch_bid, dispatch_play, play):
    """Play ``games`` at table 0 of ``tb``, keeping every decision in ``record``."""
    # Table 0 of a one-table run: its game is its episode counter (batched._start_game).
    own = _scratch(cfg)
    moves = np.empty(1, dtype=np.int64)
    # Typed int64, not as the literal 0: the environment's compile of ``play``
    # (kept on disk) then serves, where literal arguments would compile it anew.
    table = np.int64(0)
    for game in games:
        tb.state[table, S_EPISODE] = game
        moves[table] = _NEW_GAME
        play(table, table + 1, moves, cfg, tb, out)
        out.done[table] = False
        _advance(table, moves, cfg, tb, out, dispatch_bid, dispatch_play, play, own, record)
        if out.errors[0, 0] != 0:
            return


class GameSet(NamedTuple):
    """Games of a run to play at one kind of table: its rules, its seats, the game indices."""

    rules: Rules
    seats: Sequence[SeatSpec]
    games: Sequence[int]


# A recorder module: the loop above bound to one kernel's dispatch and compiled
# with Numba's on-disk cache.  Its folder names the version of every source file
# of the package (builtin_cache_folder), its file the kernel (the
# strategies and their code), so a later run, in any process, loads the compile.
_RECORDER_SOURCE = """\
\"\"\"Decision recorder on {kernel}, written by ohhell_sim.env.decisions.\"\"\"

from numba import njit

from {kernel} import GENERAL_TABLES, dispatch_bid, dispatch_play
from ohhell_sim.env.batched import GENERAL_MOVES, PLAIN_MOVES
from ohhell_sim.env.decisions import _play_games

play = GENERAL_MOVES if GENERAL_TABLES else PLAIN_MOVES


@njit(cache=True, nogil=True)
def play_games(games, cfg, tb, out, record):
    _play_games(games, cfg, tb, out, record, dispatch_bid, dispatch_play, play)
"""


def _recorder(kernel: ModuleType) -> ModuleType:
    # The recorder module of this kernel (written, then compiled, on first use).
    name = kernel.__name__.replace("ohhell_kernel_", "ohhell_decisions_")
    path = builtin_cache_folder() / f"{name}.py"
    return dispatch.load_generated(path, lambda: _RECORDER_SOURCE.format(kernel=kernel.__name__))


def record_decisions(game_sets: Sequence[GameSet], seed: int, threads: int = 1) -> list[Decisions]:
    """Play each set's games of the run seeded ``seed``, every seat by its strategy.

    Parameters
    ----------
    game_sets : sequence of GameSet
        Rules (any table the batched environment plays), one strategy per seat
        (as for :func:`ohhell_sim.simulate`) and the game indices to play there.
    seed : int
        The run's seed.
    threads : int
        Threads that share the games (the result does not depend on it).

    Returns
    -------
    list of Decisions
        One per game set: its games' bids and card choices, game after game in
        the order of its ``games``, each game's in the order they were made.

    Raises
    ------
    InvalidArgumentError
        For a bad seed, thread count, seating or game index.
    IllegalMoveError
        If a strategy makes an illegal move.

    Notes
    -----
    Every set plays on one dispatch over all the sets' strategies, so the loop
    compiles once (twice when some rules need the general tables and some do
    not, :func:`ohhell_sim.run.dispatch.needs_general_tables`), and Numba keeps
    that compile on disk until the package's sources or the strategies change.
    """
    seed = check_seed(seed)
    threads = check_count("threads", threads)
    if not game_sets:
        return []
    seatings = [check_seating(s.rules, s.seats) for s in game_sets]
    everyone = {x.name: x for seating in seatings for x in seating.strategies}
    union = resolve_seating(list(everyone.values()), len(everyone))
    sid = {x.name: i for i, x in enumerate(union.distinct_strategies)}
    recorders: dict[bool, ModuleType] = {}
    tables = []
    for game_set, seating in zip(game_sets, seatings, strict=True):
        rules = game_set.rules
        general = dispatch.needs_general_tables(rules)
        if general not in recorders:
            recorders[general] = _recorder(dispatch.kernel_for(union, rules))
        layout = ObservationLayout(rules)
        cfg = Config(
            seed,
            1,
            rules.to_array(),
            rules.hand_sizes(),
            np.array([sid[name] for name in seating.names], dtype=np.int64),
            seating.params,
            np.zeros(rules.players, dtype=np.int64),
            False,
            layout.starts,
        )
        tables.append((rules, seating, layout, cfg, recorders[general].play_games))
    games = [np.array([check_game(g) for g in s.games], dtype=np.int64) for s in game_sets]
    size = max(1, min(GAMES_PER_CALL, -(-sum(len(g) for g in games) // threads)))
    chunks = [(k, g[a : a + size]) for k, g in enumerate(games) for a in range(0, len(g), size)]

    def play(chunk: tuple[int, np.ndarray]) -> Decisions:
        return _play_chunk(chunk[1], *tables[chunk[0]])

    if threads == 1 or len(chunks) <= 1:
        parts = [play(chunk) for chunk in chunks]
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            parts = list(pool.map(play, chunks))
    found = []
    for k in range(len(game_sets)):
        mine = [part for (owner, _), part in zip(chunks, parts, strict=True) if owner == k]
        mine = mine or [Decisions(*_new_record(0, 0)[:6])]
        found.append(Decisions(*(np.concatenate(f) for f in zip(*mine, strict=True))))
    return found


def _play_chunk(games, rules, seating, layout, cfg, play_games) -> Decisions:
    # One table of its own plays ``games`` into a record sized for them.
    n = rules.players
    tb = _new_tables(1)
    out = Outputs(
        observations=np.zeros((1, layout.size), np.float32),
        masks=np.zeros((1, action_count(rules)), np.int8),
        to_move=np.zeros(1, np.int64),
        rewards=np.zeros((1, n), np.float32),
        done=np.zeros(1, np.bool_),
        errors=np.zeros((1, ERROR_FIELDS), np.int64),
    )
    # At most every seat bids in each deal row and plays each card it holds.
    hand_sizes = rules.hand_sizes()
    record = _new_record(len(games) * n * len(hand_sizes), len(games) * n * int(hand_sizes.sum()))
    play_games(games, cfg, tb, out, record)
    if out.errors[0, 0] != 0:
        code, deal, seat, move, trick = (int(x) for x in out.errors[0])
        game = int(tb.state[0, S_GAME])
        name = seating.names[seat]
        raise IllegalMoveError(name, game, deal, seat, move, code, trick, int(hand_sizes[deal]))
    bids, cards = (int(x) for x in record.used)
    return Decisions(
        record.bid_views[:bids],
        record.bid_hands[:bids],
        record.bid_games[:bids],
        record.card_views[:cards],
        record.card_hands[:cards],
        record.card_games[:cards],
    )


def _new_record(bids: int, cards: int) -> Record:
    return Record(
        bid_views=np.empty((bids, V.VIEW_SIZE), np.int64),
        bid_hands=np.empty((bids, V.MAX_SEATS), np.int64),
        bid_games=np.empty(bids, np.int64),
        card_views=np.empty((cards, V.VIEW_SIZE), np.int64),
        card_hands=np.empty((cards, V.MAX_SEATS), np.int64),
        card_games=np.empty(cards, np.int64),
        used=np.zeros(2, np.int64),
    )
