"""Decision analysis of a run: what each sampled decision cost against the reference.

:func:`analyse_decisions` replays games of a run with the reference engine
(:func:`ohhell_sim.reference.game_steps`, the seats answered by their
strategies as in :func:`ohhell_sim.replay`), keeps the decisions with a choice
(two legal moves or more) of the seats asked for, samples some, and values
every legal move of each from the deciding seat's view
(:func:`ohhell_sim.decisions.evaluate.evaluate_view`).  A decision is named by
``(seed, game, deal, seat, step)``: ``step`` 0 is the seat's bid in the deal,
``step`` ``t + 1`` its card to trick ``t``; the search's random stream is keyed
by the same five numbers, so one decision analysed alone gives the row it has in
a larger sample.  Swap-phase choices and the bids of forehead deals (the seat
sees every card but its own) are not analysed.  With a ``takeover``
player, each decision also gets its term of the seat's gap to that player
(:mod:`ohhell_sim.decisions.takeover`): terms that add up to the measured gap.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ohhell_sim import view as V
from ohhell_sim._version import __version__
from ohhell_sim.arguments import check_count, check_game, check_seed
from ohhell_sim.cards import card_pretty, suit_pretty
from ohhell_sim.decisions.evaluate import (
    Evaluation,
    Reference,
    check_rules_searchable,
    evaluate_view,
    is_forehead_bid,
)
from ohhell_sim.decisions.takeover import DealStart, Takeover, takeover_term
from ohhell_sim.engine.core import next_seat
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.exact import position_role
from ohhell_sim.reference import (
    DealPlayed,
    Stream,
    game_steps,
    seat_streams,
    strategy_answer,
)
from ohhell_sim.results import HANDS_FILE, METADATA_KEY, SimulationResult
from ohhell_sim.rules import Rules, check_rules
from ohhell_sim.strategy import Seating, SeatSpec, check_seating
from ohhell_sim.strategy.code import is_user_function, strategy_functions
from ohhell_sim.strategy.compilation import check_compiles
from ohhell_sim.strategy.disk_cache import cached_on_disk

__all__ = ["analyse_decisions", "decision_rng"]

#: The purpose of the search's streams (the engine's are 0-2).
_ANALYSIS = 0xA5
#: A decision's place: ``(game, deal, seat, step)``.
Where = tuple[int, int, int, int]


@dataclass(frozen=True)
class _Position:
    """A recorded decision with a choice."""

    game: int
    deal: int
    seat: int
    step: int
    view: np.ndarray
    move: int
    index: int  # its place among the deal's moves
    streams: tuple[np.ndarray, ...]  # every seat's random stream before it
    start: DealStart

    @property
    def where(self) -> Where:
        return (self.game, self.deal, self.seat, self.step)


def decision_rng(seed: int, game: int, deal: int, seat: int, step: int) -> np.ndarray:
    """The search's random stream for the decision ``(seed, game, deal, seat, step)``."""
    return Stream(seed, game, _ANALYSIS, (deal << 12) | (seat << 8) | step).as_array()


def analyse_decisions(
    run: str | os.PathLike | SimulationResult | None = None,
    *,
    rules: Rules | None = None,
    strategies: Sequence[SeatSpec] | None = None,
    seed: int = 0,
    games: int | Sequence[int] = 10,
    decisions: int | Sequence[Where] | None = 1000,
    seats: Sequence[int] | None = None,
    reference: Reference | None = None,
    takeover: SeatSpec | None = None,
    rollouts: int = 16,
) -> pd.DataFrame:
    """Value the sampled decisions of a run against the reference evaluator.

    Parameters
    ----------
    run : path or SimulationResult, optional
        A run's results: a :class:`~ohhell_sim.results.SimulationResult`, a folder
        written by ``to_parquet`` (``ohhell simulate --output``), or one of its
        Parquet files; their metadata give the rules, the seats and the seed.
        Without it give ``rules``, ``strategies`` and ``seed``.
    rules : Rules, optional
        The rules of the run (without ``run``).
    strategies : sequence of seat specs, optional
        One per seat, as for :func:`ohhell_sim.simulate` (without ``run``).
    seed : int
        The run's seed (without ``run``).
    games : int or sequence of int
        The games replayed: the first ``games`` of the run, or these game indices.
    decisions : int, sequence of (game, deal, seat, step), or None
        How many of the decisions with a choice to analyse, drawn at random
        (reproducibly, from the seed) among those of the games and seats; these
        decisions; or None for all of them.
    seats : sequence of int, optional
        The seats whose decisions are analysed (default every seat).
    reference : Reference, optional
        The reference's settings (default :class:`~ohhell_sim.decisions.Reference`:
        intervals of at most 0.2 points either side at 95%).
    takeover : seat spec, optional
        A reference *player* (e.g. ``"adaptive_pimc"``): each decision also gets
        ``gap``, what that player would gain by taking the seat over at the
        decision rather than from the seat's next one
        (:mod:`ohhell_sim.decisions.takeover`).  Unlike the costs, these terms add
        up: summed over every decision of a seat they are its measured gap to
        that player in a duplicate game.
    rollouts : int, default 16
        With ``takeover``: pairs of rollouts per decision (one when the player
        draws no random numbers).

    Returns
    -------
    pandas.DataFrame
        One row per decision analysed, ordered by ``(game, deal, seat, step)``:
        where it was (``seed``, ``game``, ``deal``, ``seat``, ``step``,
        ``strategy``); its situation (``phase`` "bid" or "card", ``hand_size``,
        ``bid_position`` from the dealer's left, ``trick``, ``trick_position``
        (cards already in the trick), ``role`` ("bid", "lead", "follow" or
        "void": cannot follow), ``trump_deal``, ``led`` ("trump", "side" or
        ""), ``need`` (bid less tricks taken, card decisions), ``situation``);
        the position as cards (``hand``, ``trump``, ``bids_seen``, ``trick_cards``);
        every legal move (``moves``) and its expected points (``values``,
        ``values_low``, ``values_high``); the move chosen and the best
        (``chosen``, ``best``, ``chosen_value``, ``best_value``), the
        ``cost`` of the choice with ``cost_low``/``cost_high``; and
        ``samples``, ``precise``, ``reference``; with ``takeover``, ``gap``
        with ``gap_low``/``gap_high``.  ``attrs`` hold the rules, seed, seat
        labels, games, seats, ``choices`` (decisions with a choice in those
        games and seats: costs per game scale by ``choices / rows``),
        ``reference`` (the evaluator's name and settings) and, with
        ``takeover``, ``takeover`` (the player and its rollouts).

    Raises
    ------
    InvalidArgumentError
        For a bad argument, rules the reference does not handle (two decks), or
        a named decision the games do not hold.
    """
    reference = reference or Reference()
    if not isinstance(reference, Reference):
        raise InvalidArgumentError(f"reference must be a Reference, got {type(reference).__name__}")
    rules, labels, seed, first, count = _run_of(run, rules, strategies, seed)
    check_rules_searchable(rules)
    seating = check_seating(rules, labels if strategies is None else strategies)
    game_list = _games(games, first, count)
    seat_list = _seats(seats, rules.players)
    setup = None if takeover is None else _takeover(rules, seating, takeover, rollouts, reference)
    positions = []
    for game in game_list:
        positions.extend(_choices(rules, seating, seed, game, seat_list))
    chosen = _sample(positions, decisions, seed)
    rows = []
    for position in chosen:
        rng = decision_rng(seed, *position.where)
        evaluation = evaluate_view(position.view, rules, rng, reference, position.move)
        rows.append(_row(seed, position, seating.labels[position.seat], evaluation))
        if setup is not None:
            place = (position.deal << 12) | (position.seat << 8) | position.step
            term = takeover_term(
                setup,
                position.start,
                position.index,
                position.view,
                position.streams,
                (seed, position.game, place),
            )
            rows[-1].update(zip(_GAP_COLUMNS, term, strict=True))
    frame = pd.DataFrame(rows, columns=_COLUMNS + (_GAP_COLUMNS if setup else []))
    frame.attrs.update(
        {
            "version": __version__,
            "rules": rules.to_dict(),
            "seed": seed,
            "strategies": seating.labels,
            "games": game_list,
            "seats": seat_list,
            "choices": len(positions),
            "reference": reference.to_dict(),
        }
    )
    if setup is not None:
        frame.attrs["takeover"] = {"player": setup.label, "rollouts": setup.rollouts}
    return frame


def _takeover(
    rules: Rules, seating: Seating, player: SeatSpec, rollouts: object, reference: Reference
) -> Takeover:
    """The takeover's setup: ``player`` in its own seating (its rules checked), the run's seats."""
    if isinstance(rollouts, bool) or not isinstance(rollouts, int | np.integer) or rollouts < 1:
        raise InvalidArgumentError(f"rollouts must be an integer >= 1, got {rollouts!r}")
    own = check_seating(rules, [player] * rules.players)
    functions = _seat_functions(seating)
    stochastic = own.strategies[0].stochastic
    return Takeover(
        rules,
        list(seating.names),
        functions,
        [seating.own_params(s) for s in range(rules.players)],
        _seat_functions(own)[0],
        own.own_params(0),
        int(rollouts) if stochastic else 1,
        reference.confidence,
        own.labels[0],
    )


def _run_of(
    run: object, rules: Rules | None, strategies: Sequence[SeatSpec] | None, seed: int
) -> tuple[Rules, list, int, int, int | None]:
    """``(rules, seat specs, seed, first game, games or None)`` of the run."""
    if run is None:
        if rules is None or strategies is None:
            raise InvalidArgumentError(
                "give a run (a SimulationResult or its Parquet results) or rules= and "
                "strategies= (and seed=)"
            )
        return check_rules(rules), list(strategies), check_seed(seed), 0, None
    if rules is not None or strategies is not None:
        raise InvalidArgumentError(
            "rules= and strategies= come from the run's metadata; give either a run or them"
        )
    if isinstance(run, SimulationResult):
        meta = run.metadata
    else:
        meta = _parquet_metadata(run)
    return (
        Rules.from_dict(meta["rules"]),
        list(meta["strategies"]),
        int(meta["seed"]),
        int(meta.get("first_game", 0)),
        int(meta["games"]),
    )


def _parquet_metadata(path: object) -> dict:
    if not isinstance(path, str | os.PathLike):
        raise InvalidArgumentError(
            f"run must be a SimulationResult or the path of its Parquet results, got {path!r}"
        )
    file = Path(path)
    if file.is_dir():
        file = file / HANDS_FILE
    if not file.is_file():
        raise FileNotFoundError(f"{str(file)!r} is not a Parquet file of a run's results")
    raw = (pq.read_schema(file).metadata or {}).get(METADATA_KEY)
    meta = json.loads(raw) if raw else {}
    missing = {"rules", "strategies", "seed", "games"} - set(meta)
    if missing:
        raise InvalidArgumentError(
            f"{str(file)!r} carries no run metadata ({sorted(missing)} missing); write it "
            "with result.to_parquet(folder) or ohhell simulate --output FOLDER"
        )
    return meta


def _games(games: object, first: int, count: int | None) -> list[int]:
    if isinstance(games, int | np.integer) and not isinstance(games, bool):
        n = check_count("games", games)
        if count is not None:
            n = min(n, count)
        return list(range(first, first + n))
    if isinstance(games, str) or not isinstance(games, Sequence) or not games:
        raise InvalidArgumentError(
            f"games must be a count of games or a list of game indices, got {games!r}"
        )
    out = sorted({check_game(g) for g in games})
    if count is not None and not all(first <= g < first + count for g in out):
        raise InvalidArgumentError(
            f"games must lie in the run's games {first}..{first + count - 1}, got {list(games)}"
        )
    return out


def _seats(seats: object, players: int) -> list[int]:
    if seats is None:
        return list(range(players))
    if isinstance(seats, str) or not isinstance(seats, Sequence) or not seats:
        raise InvalidArgumentError(f"seats must be a list of seat numbers, got {seats!r}")
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s < players:
            raise InvalidArgumentError(
                f"seats must be seat numbers in 0..{players - 1}, got {list(seats)!r}"
            )
    return sorted({int(s) for s in seats})


def _choices(
    rules: Rules, seating: Seating, seed: int, game: int, seats: list[int]
) -> list[_Position]:
    """Replay ``game`` and keep the decisions with a choice of ``seats``."""
    streams = seat_streams(seed, game, rules.players)
    answer = strategy_answer(seating, seed, game, _seat_functions(seating), streams)
    kept: list[_Position] = []
    # The deal's moves so far, and its decisions kept, waiting for the deal's log.
    moves: list[int] = []
    waiting: list[tuple] = []
    steps = game_steps(rules, seating.names, seed, game)
    move = None
    while True:
        try:
            step = steps.send(move)
        except StopIteration:
            return kept
        move = None
        if isinstance(step, DealPlayed):
            start = _deal_start(step, waiting, moves, rules.players)
            kept.extend(_Position(*fields, start) for fields in waiting)
            moves, waiting = [], []
            continue
        view = step.view
        before = tuple(s.copy() for s in streams)
        move = answer(step)
        if (
            step.seat in seats
            and view[V.PHASE] != V.PHASE_SWAP
            and not is_forehead_bid(view)
            and _has_choice(view)
        ):
            turn = 0 if view[V.PHASE] == V.PHASE_BID else int(view[V.TRICK]) + 1
            waiting.append(
                (game, step.deal, step.seat, turn, view.copy(), move, len(moves), before)
            )
        moves.append(int(move))


def _deal_start(step: DealPlayed, waiting: list[tuple], moves: list[int], n: int) -> DealStart:
    """The deal's :class:`DealStart`; its totals and faults read off a kept decision's view."""
    log = step.log
    view = waiting[0][4] if waiting else np.zeros(V.VIEW_SIZE, dtype=np.int64)
    return DealStart(
        log,
        tuple(s for s in range(n) if log.bids[s] is not None),
        tuple(int(v) for v in view[V.SCORES_BASE : V.SCORES_BASE + n]),
        tuple(int(v) for v in view[V.FAULTS_BASE : V.FAULTS_BASE + n]),
        tuple(moves),
    )


def _seat_functions(seating: Seating) -> list[tuple]:
    """Each seat's ``(bid, play)``: the package's functions with their compile kept on disk
    (a user strategy may name a built-in's), user code compiled as it is now, checked."""
    out = []
    for strategy in seating.strategies:
        functions = strategy_functions(strategy, checked=seating.checked)
        # Caching is enabled before the first compile: a compile made without it stays unsaved.
        out.append(
            tuple(f if is_user_function(f.py_func) else cached_on_disk(f) for f in functions)
        )
        if strategy.builtin_id is None:
            check_compiles(strategy, checked=seating.checked)
    return out


def _has_choice(view: np.ndarray) -> bool:
    if view[V.PHASE] == V.PHASE_BID:
        legal = view[V.MAX_BID] + 1 - int(0 <= view[V.FORBIDDEN_BID] <= view[V.MAX_BID])
        return legal > 1
    legal = int(view[V.LEGAL])
    return legal & (legal - 1) != 0


def _sample(positions: list[_Position], decisions: object, seed: int) -> list[_Position]:
    if decisions is None:
        return positions
    if isinstance(decisions, int | np.integer) and not isinstance(decisions, bool):
        n = check_count("decisions", decisions)
        if n >= len(positions):
            return positions
        picked = np.random.default_rng([seed, _ANALYSIS]).choice(len(positions), n, replace=False)
        return [positions[i] for i in sorted(picked)]
    if isinstance(decisions, str) or not isinstance(decisions, Sequence):
        raise InvalidArgumentError(
            "decisions must be a count, a list of (game, deal, seat, step) or None, "
            f"got {decisions!r}"
        )
    by_place = {p.where: p for p in positions}
    out = []
    for where in decisions:
        key = tuple(int(v) for v in where) if isinstance(where, Sequence) else None
        if key is None or len(key) != 4 or key not in by_place:
            raise InvalidArgumentError(
                f"decision {where!r} is not a (game, deal, seat, step) with a choice in the "
                "games and seats analysed"
            )
        out.append(by_place[key])
    return sorted(out, key=lambda p: p.where)


#: The takeover's columns (:mod:`ohhell_sim.decisions.takeover`).
_GAP_COLUMNS = ["gap", "gap_low", "gap_high"]
_COLUMNS = [
    "seed",
    "game",
    "deal",
    "seat",
    "step",
    "strategy",
    "phase",
    "hand_size",
    "bid_position",
    "trick",
    "trick_position",
    "role",
    "trump_deal",
    "led",
    "need",
    "situation",
    "hand",
    "trump",
    "bids_seen",
    "trick_cards",
    "moves",
    "values",
    "values_low",
    "values_high",
    "chosen",
    "best",
    "chosen_value",
    "best_value",
    "cost",
    "cost_low",
    "cost_high",
    "samples",
    "precise",
    "reference",
]


def bidding_order(view: np.ndarray) -> list[int]:
    """The seats of the deal in bidding order, from the dealer's left."""
    n, active, seat = int(view[V.N_PLAYERS]), int(view[V.ACTIVE]), int(view[V.DEALER])
    order = []
    for _ in range(int(view[V.N_ACTIVE])):
        seat = int(next_seat(seat, active, n))
        order.append(seat)
    return order


def situation_of(view: np.ndarray) -> dict:
    """The situation columns of a decision (see :func:`analyse_decisions`)."""
    order = bidding_order(view)
    seat = int(view[V.SEAT])
    bid = view[V.PHASE] == V.PHASE_BID
    trump = int(view[V.TRUMP])
    out = {
        "phase": "bid" if bid else "card",
        "hand_size": int(view[V.HAND_SIZE]),
        "bid_position": order.index(seat),
        "trick": -1 if bid else int(view[V.TRICK]),
        "trick_position": -1 if bid else int(view[V.N_IN_TRICK]),
        "trump_deal": trump >= 0,
        "led": "",
        "need": pd.NA,
    }
    if bid:
        out["role"] = "bid"
        out["situation"] = f"bid, {position_role(out['bid_position'], len(order))}"
        return out
    led = int(view[V.LED_SUIT])
    if view[V.N_IN_TRICK] == 0:
        out["role"] = "lead"
    else:
        legal = int(view[V.LEGAL])
        follows = any(legal >> c & 1 for c in range(13 * led, 13 * led + 13)) if led >= 0 else 0
        out["role"] = "follow" if follows else "void"
        out["led"] = "trump" if led >= 0 and led == trump else "side"
    need = int(view[V.BIDS_BASE + seat]) - int(view[V.TRICKS_WON_BASE + seat])
    out["need"] = need
    band = "needs tricks" if need > 0 else "made, avoids tricks" if need == 0 else "over its bid"
    out["situation"] = f"card, {out['role']}, {band}"
    return out


def cards_text(view: np.ndarray) -> dict:
    """The position as cards: ``hand``, ``trump``, ``bids_seen``, ``trick_cards``."""
    hand = int(view[V.HAND])
    order = bidding_order(view)
    turned = int(view[V.TRUMP_CARD])
    trump = suit_pretty(int(view[V.TRUMP]))
    if turned >= 0:
        trump += f" (turned {card_pretty(turned)})"
    seen = [
        f"{position_role(i, len(order)).split(' ')[0]}: {int(view[V.BIDS_BASE + s])}"
        for i, s in enumerate(order)
        if view[V.BIDS_BASE + s] >= 0
    ]
    trick = []
    if view[V.PHASE] == V.PHASE_PLAY and view[V.N_IN_TRICK] > 0:
        s = int(view[V.LEADER])
        for _ in range(int(view[V.N_IN_TRICK])):
            trick.append(card_pretty(int(view[V.TRICK_CARDS_BASE + s])))
            s = int(next_seat(s, int(view[V.ACTIVE]), int(view[V.N_PLAYERS])))
    return {
        "hand": " ".join(card_pretty(c) for c in range(53) if hand >> c & 1),
        "trump": trump,
        "bids_seen": ", ".join(seen),
        "trick_cards": " ".join(trick),
    }


def _row(seed: int, position: _Position, label: str, evaluation: Evaluation) -> dict:
    labels = evaluation.labels()
    chosen = evaluation.index(position.move)
    best = int(np.argmax(evaluation.value))
    return {
        "seed": seed,
        "game": position.game,
        "deal": position.deal,
        "seat": position.seat,
        "step": position.step,
        "strategy": label,
        **situation_of(position.view),
        **cards_text(position.view),
        "moves": labels,
        "values": evaluation.value.tolist(),
        "values_low": evaluation.value_low.tolist(),
        "values_high": evaluation.value_high.tolist(),
        "chosen": labels[chosen],
        "best": labels[best],
        "chosen_value": float(evaluation.value[chosen]),
        "best_value": float(evaluation.value[best]),
        "cost": float(evaluation.loss[chosen]),
        "cost_low": float(evaluation.loss_low[chosen]),
        "cost_high": float(evaluation.loss_high[chosen]),
        "samples": evaluation.samples,
        "precise": evaluation.precise,
        "reference": evaluation.reference,
    }
