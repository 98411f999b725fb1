"""Tournaments: strategies play each other on the same cards, with confidence intervals.

:func:`tournament` seats one strategy per seat and plays ``games`` games in one of
two ways:

``"duplicate"`` (the default)
    The games are split into deal sets, and each deal set is played once per
    rotation of the strategies over the seats, with the same seed and game
    indices, so with identical cards (the engine's random streams are keyed by
    seed, game and deal, never by strategy).  Every strategy holds every hand
    from every seat, and card luck cancels out of the comparisons, as in
    duplicate bridge.  A rotation that gives a seating already played (the
    entries repeat in a cycle, as in ``pimc,adaptive_pimc,pimc,adaptive_pimc``)
    would replay the same games exactly, so it is not played: each deal set is
    played once per distinct seating.  The unit of analysis is the deal set: a
    strategy's value on a deal set is its average over its seats in those games.
``"random"``
    Each game draws a seat permutation of the strategies, deterministically from
    the seed; the games are independent and each game is a unit.

Entries are labelled by their seats' labels (:attr:`~ohhell_sim.strategy.Seating.labels`:
``simple``, ``simple[scale=1.5]``); entries with one label are one strategy,
pooled.  The result holds a long frame (one row per game x seat), a ranking
table with 95% intervals (mean score per game, win share, made rate, zero-bid
rate) and pairwise differences of mean score with paired intervals (paired on
the unit, which every strategy plays).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np
import pandas as pd

from ohhell_sim.analysis.format import format_summary
from ohhell_sim.analysis.stats import (
    check_confidence,
    clip_rate,
    estimate_frame,
    mean_ci,
    paired_difference_ci,
)
from ohhell_sim.arguments import check_count, check_flag, check_seed, check_threads
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules, check_rules
from ohhell_sim.run.pipeline import prepare_kernel
from ohhell_sim.run.sinks import Rows
from ohhell_sim.run.validation import chosen_kernel
from ohhell_sim.simulate import simulate
from ohhell_sim.strategy import SeatSpec, check_seating

__all__ = ["SEATINGS", "TournamentResult", "tournament"]

SEATINGS = ("duplicate", "random")
#: Per-unit quantities of the ranking, with their column names.
_MEASURES = {
    "mean_total": "points per game",
    "win_share": "win share",
    "made_rate": "made rate",
    "zero_bid_rate": "zero-bid rate",
}


@dataclass
class TournamentResult:
    """What :func:`tournament` returns.

    Attributes
    ----------
    games : pandas.DataFrame
        One row per game played x seat: ``unit`` (deal set under duplicate
        seating, game under random), ``rotation`` (0 under random; under
        duplicate seating only the rotations that give a new seating), ``game``
        (engine game index), ``seat``, ``strategy`` (label), ``total``,
        ``win_share``, ``deals`` (deals the seat played), ``made`` and
        ``zero_bids`` (counts over those deals).
    ranking : pandas.DataFrame
        Tidy, strategies best first: ``strategy``, ``measure`` (``mean_total``,
        ``win_share``, ``made_rate``, ``zero_bid_rate``), then ``n`` (units),
        ``estimate``, ``low``, ``high`` and ``method``
        (:data:`~ohhell_sim.analysis.stats.ESTIMATE_COLUMNS`).
    pairwise : pandas.DataFrame
        One row per pair: ``pair`` (``"a - b"``), then the estimate columns of
        the mean score of ``a`` minus ``b`` per unit, paired by unit.
    rules : Rules
    labels : list of str
        The distinct strategy labels, in the order given.
    seating : str
    seed : int
    confidence : float
    hands : pandas.DataFrame or None
        With ``keep_hands=True``: one row per deal x rotation x seat, the
        engine's hand rows (``game``, ``deal``, ``seat``, ``bid``, ``tricks``,
        ``score`` ...) with ``unit``, ``rotation`` and ``entry`` (the index of
        the strategy in that seat); None otherwise.
    """

    games: pd.DataFrame
    ranking: pd.DataFrame
    pairwise: pd.DataFrame
    rules: Rules
    labels: list[str]
    seating: str
    seed: int
    confidence: float = 0.95
    hands: pd.DataFrame | None = None

    @property
    def games_played(self) -> int:
        """Distinct games played: deal sets x distinct seatings under duplicate seating."""
        return len(self.games) // self.rules.players

    @property
    def units(self) -> int:
        """Units of analysis: deal sets under duplicate seating, games under random."""
        return int(self.games["unit"].nunique())

    def format(self, digits: int = 2) -> str:
        """The ranking and the pairwise differences as plain text."""
        unit = "deal set" if self.seating == "duplicate" else "game"
        seatings = self.games_played // self.units
        repeated = ""
        if self.seating == "duplicate" and seatings < self.rules.players:
            repeated = (
                f", each in the {_count(seatings, 'distinct seating')} of the "
                f"{self.rules.players} rotations"
            )
        head = (
            f"{self.seating} tournament, {_count(self.games_played, 'game')} "
            f"({_count(self.units, unit)}{repeated}), {self.rules.players} players, seed "
            f"{self.seed}; {self.confidence:.0%} intervals"
        )
        return "\n\n".join(
            [
                head,
                format_summary(self.ranking, digits=digits),
                format_summary(self.pairwise, digits=digits),
            ]
        )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def distinct_rotations(labels: Sequence[str]) -> list[int]:
    """The rotations ``r`` (seat ``s`` holds entry ``(s + r) % n``) that give a new seating.

    Examples
    --------
    >>> distinct_rotations(["pimc", "adaptive_pimc", "pimc", "adaptive_pimc"])
    [0, 1]
    >>> distinct_rotations(["simple", "simple", "random"])
    [0, 1, 2]
    """
    n = len(labels)
    seen: set[tuple[str, ...]] = set()
    rotations = []
    for rotation in range(n):
        seating = tuple(labels[(s + rotation) % n] for s in range(n))
        if seating not in seen:
            seen.add(seating)
            rotations.append(rotation)
    return rotations


def _seat_rows(
    rules: Rules,
    seats: list[SeatSpec],
    order: np.ndarray,
    entry_label: np.ndarray,
    labels: list[str],
    games: int,
    seed: int,
    first_game: int,
    threads: int | None,
    kept: list[pd.DataFrame] | None,
    kernel: str,
) -> pd.DataFrame:
    """Play ``games`` games with entry ``order[s]`` in seat ``s``; one row per (game, seat).

    Entry ``e`` is labelled ``labels[entry_label[e]]``.  The engine's hand rows are
    appended to ``kept`` when it is given."""
    result = simulate(
        rules, seats, games, seed, first_game=first_game, threads=threads, kernel=kernel
    )
    frame = result.games[["game", "seat", "total", "win_share"]].copy()
    hands = result.hands
    if kept is not None:
        kept.append(hands.assign(entry=order[hands["seat"].to_numpy()]).drop(columns="strategy"))
    played = hands[hands["bid"] >= 0]
    per_seat = (
        played.assign(made=played["bid"] == played["tricks"], zero=played["bid"] == 0)
        .groupby(["game", "seat"], observed=True)
        .agg(deals=("bid", "size"), made=("made", "sum"), zero_bids=("zero", "sum"))
        .reset_index()
    )
    frame = frame.merge(per_seat, on=["game", "seat"], how="left")
    for column in ("deals", "made", "zero_bids"):
        frame[column] = frame[column].fillna(0).astype(np.int32)
    frame["entry"] = order[frame["seat"].to_numpy()]
    frame["strategy"] = pd.Categorical.from_codes(
        entry_label[frame["entry"].to_numpy()], categories=labels
    )
    return frame


def tournament(
    rules: Rules,
    strategies: Sequence[SeatSpec],
    games: int,
    seed: int = 0,
    seating: str = "duplicate",
    *,
    threads: int | None = None,
    confidence: float = 0.95,
    progress: bool = False,
    keep_hands: bool = False,
) -> TournamentResult:
    """Play a tournament between ``strategies``, one per seat.

    Parameters
    ----------
    rules : Rules
        The rules; ``rules.players`` strategies are needed.
    strategies : sequence
        One per seat, as for :func:`ohhell_sim.simulate`: a name, a name with
        parameters (``"simple[scale=1.5]"``), a
        :class:`~ohhell_sim.strategy.Strategy` or ``(name, {param: value})``.  A
        strategy may appear more than once: its entries are one strategy, pooled
        under its label.
    games : int
        Games asked for.  Under duplicate seating it must be a multiple of the
        number of players, ``games // players`` being the deal sets, each played
        once per rotation of the seats; when the entries repeat in a cycle,
        rotations that repeat a seating are not played, and fewer games are
        (:attr:`TournamentResult.games_played`).
    seed : int
        Seed of the tournament: the cards, the random seatings and the
        strategies' random streams all derive from it.
    seating : {"duplicate", "random"}
        See the module docstring.
    threads : int, optional
        Numba threads (default: all).
    confidence : float
        Coverage of the intervals.
    progress : bool
        Show a progress bar (a kernel compile is announced either way, see
        :mod:`ohhell_sim.run.progress`).
    keep_hands : bool
        Keep the per-deal rows in :attr:`TournamentResult.hands` (e.g. to check
        that two strategies make the same bids and plays on the same cards).

    Returns
    -------
    TournamentResult

    Raises
    ------
    InvalidArgumentError
        For a bad argument, before any game is played.
    """
    rules = check_rules(rules)
    seed = check_seed(seed)
    games = check_count("games", games)
    if seating not in SEATINGS:
        raise InvalidArgumentError(
            f"seating must be one of {', '.join(map(repr, SEATINGS))}, got {seating!r}"
        )
    confidence = check_confidence(confidence)
    check_flag("progress", progress)
    check_flag("keep_hands", keep_hands)
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise InvalidArgumentError(
            f"a tournament needs a list of one strategy per seat: {rules.players} players, "
            f"got {strategies!r}"
        )
    if len(strategies) != rules.players:
        raise InvalidArgumentError(
            f"a tournament needs one strategy per seat: {rules.players} players, got {strategies!r}"
        )
    specs = list(strategies)
    # Strategies that cannot play these rules say so before anything runs.
    checked = check_seating(rules, specs)
    threads = check_threads(threads)
    seat_labels = checked.labels
    labels = list(dict.fromkeys(seat_labels))
    entry_label = np.array([labels.index(label) for label in seat_labels])
    n = rules.players
    if seating == "duplicate" and (games % n != 0 or games < 2 * n):
        raise InvalidArgumentError(
            f"duplicate seating plays each deal set once per rotation of the {n} "
            f"strategies: games must be a multiple of {n} and at least {2 * n}, "
            f"got {games}"
        )
    # Every seat order shares one kernel, compiled (and announced) once here.
    kernel = chosen_kernel(games)
    prepare_kernel(replace(checked, shared=kernel == "shared"), rules, Rows.empty(rules, 0))
    frames = []
    kept: list[pd.DataFrame] | None = [] if keep_hands else None
    if seating == "duplicate":
        deal_sets = games // n
        for rotation in distinct_rotations(seat_labels):
            # Seat s holds entry (s + rotation) mod n: each entry visits every seat.
            order = (np.arange(n) + rotation) % n
            frame = _seat_rows(
                rules,
                [specs[i] for i in order],
                order,
                entry_label,
                labels,
                deal_sets,
                seed,
                0,
                threads,
                kept,
                kernel,
            )
            frame["rotation"] = rotation
            frame["unit"] = frame["game"]
            frames.append(frame)
            if kept is not None:
                kept[-1] = kept[-1].assign(rotation=rotation, unit=kept[-1]["game"])
    else:
        rng = np.random.default_rng([seed, 0x5EA7])
        orders = np.array([rng.permutation(n) for _ in range(games)])
        # Games sharing a permutation are played in one run; each game keeps its
        # own index, so the cards differ from game to game as they should.
        keys = [tuple(o) for o in orders]
        position = 0
        for order in sorted(set(keys)):
            count = keys.count(order)
            order_arr = np.array(order)
            frame = _seat_rows(
                rules,
                [specs[i] for i in order_arr],
                order_arr,
                entry_label,
                labels,
                count,
                seed,
                position,
                threads,
                kept,
                kernel,
            )
            frame["rotation"] = 0
            frame["unit"] = frame["game"]
            frames.append(frame)
            if kept is not None:
                kept[-1] = kept[-1].assign(rotation=0, unit=kept[-1]["game"])
            position += count
    long = pd.concat(frames, ignore_index=True)
    long = long[
        [
            "unit",
            "rotation",
            "game",
            "seat",
            "strategy",
            "total",
            "win_share",
            "deals",
            "made",
            "zero_bids",
        ]
    ].sort_values(["unit", "rotation", "seat"], ignore_index=True)
    units = _unit_values(long, labels)
    ranking = _ranking(units, labels, confidence)
    pairwise = _pairwise(units, labels, list(pd.unique(ranking["strategy"])), confidence)
    return TournamentResult(
        games=long,
        ranking=ranking,
        pairwise=pairwise,
        rules=rules,
        labels=labels,
        seating=seating,
        seed=seed,
        confidence=confidence,
        hands=None if kept is None else pd.concat(kept, ignore_index=True),
    )


def _unit_values(long: pd.DataFrame, labels: list[str]) -> dict[str, pd.DataFrame]:
    """Per measure, a (unit x strategy) frame of the strategy's value on each unit."""
    grouped = long.groupby(["unit", "strategy"], observed=True)
    sums = grouped[["total", "win_share", "deals", "made", "zero_bids"]].sum()
    rows = grouped.size()
    values = pd.DataFrame(
        {
            "mean_total": sums["total"] / rows,
            "win_share": sums["win_share"] / rows,
            "made_rate": sums["made"] / sums["deals"].where(sums["deals"] > 0),
            "zero_bid_rate": sums["zero_bids"] / sums["deals"].where(sums["deals"] > 0),
        }
    )
    return {m: values[m].unstack("strategy").reindex(columns=labels) for m in _MEASURES}


def _ranking(units: dict[str, pd.DataFrame], labels: list[str], confidence: float) -> pd.DataFrame:
    estimates = {}
    for label in labels:
        for measure in _MEASURES:
            est = mean_ci(units[measure][label].dropna().to_numpy(), confidence)
            estimates[label, measure] = est if measure == "mean_total" else clip_rate(est)
    best_first = sorted(labels, key=lambda label: -estimates[label, "mean_total"].estimate)
    rows = (
        {"strategy": label, "measure": measure, **estimates[label, measure].row()}
        for label in best_first
        for measure in _MEASURES
    )
    return estimate_frame(rows, ["strategy", "measure"])


def _pairwise(
    units: dict[str, pd.DataFrame], labels: list[str], order: list[str], confidence: float
) -> pd.DataFrame:
    scores = units["mean_total"]
    rows = []
    for i, j in combinations(range(len(order)), 2):
        a, b = order[i], order[j]
        both = scores[[a, b]].dropna()
        est = paired_difference_ci(both[a].to_numpy(), both[b].to_numpy(), confidence)
        rows.append({"pair": f"{a} - {b}", **est.row()})
    return estimate_frame(rows, ["pair"])
